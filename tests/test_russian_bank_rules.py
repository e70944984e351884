"""Russian Bank: the test vectors of rules/russian_bank.md §11.1-11.2, the options of §8 and the
errors of the single-position API."""
import numpy as np
import pytest

from analyzer.games import russian_bank as rb
from analyzer._core import russian_bank as core

L1_HOUSES = ["TH 9S", "KH QC", "", "6S 5H", "8C 7D", "QD JS", "3D 2C", "JC TD"]
L1_FOUND = ["3,0", "1,0", "0,0", "0,0"]


def l1(stock="6D", hand="8H", p1_stock="5D", p1_waste="9H", **overrides):
    return rb.Position.from_piles(L1_HOUSES, L1_FOUND, p0=dict(stock=stock, hand=hand, waste="4C"),
                                  p1=dict(stock=p1_stock, waste=p1_waste), **overrides)


BLOCK = ["KH", "KS", "KD", "KC", "2H", "2S", "2D", "2C"]    # houses on which nothing below plays


def moves(pos):
    return {m.text for m in pos.legal_moves()}


L1_LEGAL = {"6D→h2", "6D→P1 stock", "8H→h0", "8H→h2", "8H→P1 waste", "9S→h7", "9S→h2", "QC→h2", "5H→h2",
            "7D→h2", "JS→h2", "2C→h2", "TD→h5", "TD→h2", "DISCARD"}


def test_l1_complete_legal_set():
    assert moves(l1()) == L1_LEGAL


def test_a_move_to_ones_own_waste_names_the_opponents_piles():
    with pytest.raises(ValueError, match=r"load the opponent's piles with 'P1 stock'/'P1 waste'") as caught:
        l1().parse_move("6D->waste")
    assert "{" not in str(caught.value)


@pytest.mark.parametrize("move, rule", [
    ("6D→h4", "same colour"), ("8H→h4", "not one rank below"), ("6D→P1 waste", "same suit"),
    ("4C→h2", "own waste"), ("5D→h2", "opponent"), ("9H→h2", "opponent"), ("TD→h0", "not one rank below"),
    ("8H→h5", "not one rank below"), ("PASS", "hand card is turned up"), ("QC→h1", "house it comes from"),
])
def test_l1_illegal_moves_name_the_rule(move, rule):
    pos = l1()
    with pytest.raises(ValueError, match=rule):
        pos.parse_move(move)
    with pytest.raises(ValueError):
        pos.play(move)


def test_l1b_stock_two_of_hearts():
    assert moves(l1(stock="2H")) == {"2H→F"}
    free = moves(l1(stock="2H", foundation_priority="none"))
    assert free == {m for m in L1_LEGAL if not m.startswith("6D")} | {"2H→F", "2H→h2"}


def test_l1c_ace_in_hand():
    assert moves(l1(hand="AD", p1_stock="2D")) == {"AD→F"}
    free = moves(l1(hand="AD", p1_stock="2D", foundation_priority="none"))
    # §11.1 names these three; AD also fits on 2C (h6): one lower, other colour (§4.2)
    assert {m for m in free if m.startswith("AD")} == {"AD→F", "AD→h2", "AD→P1 stock", "AD→h6"}
    assert "DISCARD" in free and "QC→h2" in free
    with pytest.raises(ValueError, match="foundation priority"):
        l1(hand="AD", p1_stock="2D").parse_move("AD→h2")
    with pytest.raises(ValueError, match="foundation priority"):
        l1(hand="AD", p1_stock="2D").parse_move("DISCARD")


def loading_position(card, target, pile="stock"):
    houses = ["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC"]   # nothing fits them below
    p1 = dict(stock=target if pile == "stock" else "", waste=target if pile == "waste" else "")
    return rb.Position.from_piles(houses, ["0", "0", "0", "0"], p0=dict(stock=card), p1=p1,
                                  foundation_priority="none")


@pytest.mark.parametrize("card, target, legal", [
    ("2S", "AS", True), ("KS", "AS", False), ("QH", "KH", True), ("AH", "KH", False),
    ("4D", "5D", True), ("6D", "5D", True), ("5D", "5D", False), ("4H", "5D", False),
])
@pytest.mark.parametrize("pile", ["stock", "waste"])
def test_loading_edge_cases(card, target, legal, pile):
    pos = loading_position(card, target, pile)
    assert (f"{card}→P1 {pile}" in moves(pos)) == legal


def test_empty_opponent_piles_take_nothing():
    pos = rb.Position.from_piles(["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC"], "0 0 0 0",
                                 p0=dict(stock="5D"), p1=dict(hand="2C"))
    assert not any("P1" in m for m in moves(pos))
    with pytest.raises(ValueError, match="empty"):
        pos.parse_move("5D→P1 stock")


def test_load_options():
    pos = loading_position("4D", "5D", "waste")
    assert "4D→P1 waste" in moves(pos)
    seed_pos = rb.Position.from_piles(["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC"], "0 0 0 0",
                                      p0=dict(stock="4D"), p1=dict(waste="5D"), rules="seed_literal")
    assert "4D→P1 waste" not in moves(seed_pos)
    wrap = rb.Position.from_piles(["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC"], "0 0 0 0",
                                  p0=dict(stock="KS"), p1=dict(stock="AS"), foundation_priority="none", load_wrap=True)
    assert "KS→P1 stock" in moves(wrap)


@pytest.mark.parametrize("found, card, legal", [
    ("0 0 0 0", "AC", True), ("0 0 0 0", "2C", False), ("0 4,0 0 0", "5H", True), ("0 4,4 0 0", "5H", True),
    ("0 13,0 0 0", "2H", False), ("0 13,0 0 0", "AH", True), ("0 13,12 0 0", "KH", True), ("0 13,12 0 0", "2C", False),
])
def test_foundations(found, card, legal):
    pos = rb.Position.from_piles([""] * 8, found, p0=dict(stock=card), p1=dict(stock="KD"),
                                 foundation_priority="none")
    assert (f"{card}→F" in moves(pos)) == legal


def r_position():
    # P0: hand [X] up, waste [A B C] with A discarded first; P1 has one hand card.
    return rb.Position.from_piles(["TS", "KH", "KS", "KD", "KC", "QH", "QS", "QD"], "0 0 0 0",
                                  p0=dict(stock="7S", hand="9H", waste="2C 5D 8S"), p1=dict(stock="4H", hand="6C"))


def test_r1_redeal_mid_turn():
    pos = r_position().play("9H→h0")
    p = pos.piles
    assert p["player"] == 0 and p["up"][0]
    assert [rb.card_name(c) for c in p["hand"][0]] == ["8S", "5D", "2C"]   # bottom -> top: top is A = 2C
    assert p["waste"][0] == [] and p["redeals"][0] == 1


def test_r2_discard_ends_turn_and_redeal_at_next_turn():
    pos = r_position().play("DISCARD")
    p = pos.piles
    assert p["player"] == 1
    assert [rb.card_name(c) for c in p["waste"][0]] == ["2C", "5D", "8S", "9H"]
    pos.play("DISCARD")                                                     # P1 ends his turn
    p = pos.piles
    assert p["player"] == 0 and p["up"][0] and p["waste"][0] == []
    assert [rb.card_name(c) for c in p["hand"][0]] == ["9H", "8S", "5D", "2C"]


def test_r3_pass():
    pos = rb.Position.from_piles(["8H"] + BLOCK[1:], "0 0 0 0",
                                 p0=dict(stock="3C 7S"), p1=dict(stock="4H", hand="6C"))
    assert moves(pos) == {"7S→h0", "PASS"}
    with pytest.raises(ValueError, match="no turned-up hand card"):
        pos.parse_move("DISCARD")


def test_redeal_limit():
    pos = rb.Position.from_piles(["8H", "KH", "KS", "KD", "KC", "QH", "QS", "QD"], "0 0 0 0",
                                 p0=dict(stock="7S", waste="3C 4C"), p1=dict(stock="4H", hand="6C"),
                                 redeal_limit=0)
    assert not pos.piles["up"][0] and "PASS" in moves(pos)


def pack(top, houses=(), rest_seed=0):
    """A pack (top first) with the given stock top and house cards d[13..]."""
    first = [rb.kind(top)] + [None] * 12 + [rb.kind(c) for c in houses]
    used = {c for c in first if c is not None}
    others = [k for k in np.random.default_rng(rest_seed).permutation(52) if k not in used]
    it = iter(others)
    filled = [c if c is not None else next(it) for c in first]
    return filled + list(it)


@pytest.mark.parametrize("rule, starter", [("higher", 1), ("lower", 0), ("p0", 0), ("p1", 1)])
def test_r4_start(rule, starter):
    state = core.DuelState(rb.resolve("default", dict(first_player=rule)))
    state.deal(pack("7C", rest_seed=1), pack("QD", rest_seed=2))
    assert state.piles()["player"] == starter


def test_r4_tie_break_on_house_cards():
    state = core.DuelState(rb.resolve("default"))
    state.deal(pack("9H", ["5S", "KD"], 1), pack("9S", ["5C", "2D"], 2))    # ties on 5, then K beats 2
    assert state.piles()["player"] == 0
    state.deal(pack("9H", ["5S", "2D"], 1), pack("9S", ["5C", "KD"], 2))
    assert state.piles()["player"] == 1


def test_r4_tie_break_compares_the_first_house_cards_first():
    # §3: after a stock tie the house cards are compared in deal order, d[13] first; the first
    # difference decides even when a later house card (d[14]) points the other way.
    state = core.DuelState(rb.resolve("default"))
    state.deal(pack("9H", ["KS", "2D"], 1), pack("9S", ["5C", "KD"], 2))    # K beats 5 at d[13]
    assert state.piles()["player"] == 0
    state.deal(pack("9H", ["5S", "KD"], 1), pack("9S", ["KC", "2D"], 2))
    assert state.piles()["player"] == 1
    lower = core.DuelState(rb.resolve("default", dict(first_player="lower")))
    lower.deal(pack("9H", ["KS", "2D"], 1), pack("9S", ["5C", "KD"], 2))
    assert lower.piles()["player"] == 1


def test_deal_layout():
    state = core.DuelState(rb.resolve("default"))
    p0, p1 = pack("7C", rest_seed=3), pack("QD", rest_seed=4)
    state.deal(p0, p1)
    p = state.piles()
    for q, d in enumerate((p0, p1)):
        assert p["stock"][q] == d[12::-1]
        assert p["hand"][q] == d[:16:-1] and len(p["hand"][q]) == 35
        assert [p["houses"][4 * q + i] for i in range(4)] == [[d[13 + i]] for i in range(4)]
    assert p["up"] == [False, True]


def test_r5_score():
    p1_cards = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH".split()
    pos = rb.Position.from_piles([""] * 8, "0 0 0 12", p0=dict(stock="KC"),
                                 p1=dict(stock=p1_cards[:5], hand=p1_cards[5:15], waste=p1_cards[15:]))
    pos.play("KC→F")
    st = pos.status
    assert st["end"] == "win" and st["winner"] == 0 and st["score"] == 57
    assert pos.legal_moves() == []
    with pytest.raises(ValueError, match="over"):
        pos.play("DISCARD")


def test_explicit_turn_and_stock_before_hand():
    kw = dict(auto_turn=False, stock_before_hand=True)
    pos = rb.Position.from_piles(["8H"] + BLOCK[1:], "0 0 0 0",
                                 p0=dict(stock="7S", hand="5C 3C", up=False), p1=dict(stock="4H", hand="6C"), **kw)
    assert moves(pos) == {"7S→h0"}
    pos.play("7S→h0")
    assert moves(pos) == {"TURN", "PASS"} - {"PASS"}
    pos.play("TURN")
    assert "DISCARD" in moves(pos) and pos.piles["up"][0]


@pytest.mark.parametrize("policy, discard", [("free", True), ("hand_unplayable", False), ("no_own_card_move", False)])
def test_discard_policy(policy, discard):
    assert ("DISCARD" in moves(l1(discard_policy=policy))) == discard


def test_discard_policy_when_nothing_fits():
    pos = rb.Position.from_piles(BLOCK, "0 0 0 0", p0=dict(stock="5C", hand="9D"), p1=dict(stock="4H"),
                                 discard_policy="no_own_card_move")
    assert moves(pos) == {"DISCARD"}


def test_empty_house_rules():
    only = l1(empty_house_rule="stock_only")
    assert moves(only) == {m for m in L1_LEGAL if not m.endswith("h2") or m.startswith("6D")}
    with pytest.raises(ValueError, match="stock_only"):
        only.parse_move("8H→h2")
    forced = l1(empty_house_rule="stock_forced")
    assert moves(forced) == {"6D→h2"}


def test_stock_first_to_foundation():
    pos = rb.Position.from_piles(["TH 9S", "KH", "KS", "KD", "KC", "QH", "QS", "3C 2H"], "3,0 1,0 0 0",
                                 p0=dict(stock="4S"), p1=dict(stock="4H"))
    assert moves(pos) == {"4S→F", "2H→F"}
    first = rb.Position.from_piles(["TH 9S", "KH", "KS", "KD", "KC", "QH", "QS", "QD"], "3,0 1,0 0 0",
                                   p0=dict(stock="4S", hand="2H"), p1=dict(stock="4H"),
                                   stock_first_to_foundation=True)
    assert moves(first) == {"4S→F"}


def test_sequence_moves():
    pos = rb.Position.from_piles(["TH 9S 8H", "JC", "", "KH", "KS", "KD", "KC", "QS"], "0 0 0 0",
                                 p0=dict(stock="5C"), p1=dict(stock="4H"), sequence_moves=True)
    assert {"TH+2→h1", "9S+1→h2"} <= moves(pos) and "TH+2→h2" not in moves(pos)
    pos.play(next(m for m in pos.legal_moves() if m.text == "TH+2→h1"))
    assert [rb.card_name(c) for c in pos.piles["houses"][1]] == ["JC", "TH", "9S", "8H"]


def test_own_waste_playable():
    kw = dict(own_waste_playable=True)
    pos = rb.Position.from_piles(["TH", "KH", "KS", "KD", "KC", "QH", "QS", "QD"], "0 0 0 0",
                                 p0=dict(stock="5C", waste="9S"), p1=dict(stock="4H"), **kw)
    assert "9S→h0" in moves(pos)


def test_stop_mode_call_offers_non_compliant_actions():
    pos = l1(stock="2H", stop_mode="call")
    assert moves(pos) == {"2H→F"}                          # the compliant set
    assert len(pos.state.legal(False)) > 1                 # what a fallible player may try


def test_stop_call_ends_the_turn():
    # A random player under stop_mode=call with p_detect=1: any non-compliant action is stopped.
    record = rb.play_game(4, ("random", "random"), stop_mode="call", p_detect=1.0)
    assert any("STOP" in m for m in record.moves)


@pytest.mark.parametrize("stop_hand_card, hand, waste", [("waste", ["7C"], ["4C", "8H"]),
                                                         ("return", ["7C", "8H"], ["4C"])])
def test_a_stop_call_takes_the_action_back_and_places_the_hand_card(stop_hand_card, hand, waste):
    # §6.2 on L1b under stop_mode=call: the only compliant action is 2H→F, so a random player
    # soon tries another one; noticed (p_detect=1), it is not made and the turn passes to P1.
    # The turned-up hand card 8H goes to the waste as at a normal turn end (stop_hand_card=waste)
    # or back face down onto the hand (return), where it comes up again at P0's next turn.
    pos = l1(stock="2H", hand="7C 8H", stop_mode="call", p_detect=1.0, stop_hand_card=stop_hand_card)
    for seed in range(20):
        state = core.DuelState(pos.rules, np.random.PCG64(seed))
        state.load(pos.piles)
        if state.step(("random", "random")) == -1:
            break
    else:
        raise AssertionError("no stop was called")
    p = state.piles()
    assert p["player"] == 1 and p["up"] == [False, True]
    assert p["stock"][0] == [rb.kind("2H")] and p["houses"] == pos.piles["houses"]    # nothing was played
    assert [rb.card_name(c) for c in p["hand"][0]] == hand
    assert [rb.card_name(c) for c in p["waste"][0]] == waste
    state.apply(core.ACTION_DISCARD)                                        # P1 ends his turn
    p = state.piles()
    assert p["player"] == 0 and p["up"][0] and rb.card_name(p["hand"][0][-1]) == hand[-1]


# ---------------------------------------------------------------------------------------------
# Options and input validation

def test_presets_and_defaults():
    o = rb.resolve("default")
    assert o["foundation_priority"] == "strict" and o["load_targets"] == ("stock", "waste")
    assert o["redeal_limit"] is None and o["stall_turns"] == 250 and o["max_turns"] == 5000
    assert (o["score_bonus"], o["score_per_stock"], o["score_per_hand_waste"]) == (30, 2, 1)
    s = rb.resolve("seed_literal")
    assert s["foundation_priority"] == "none" and s["load_targets"] == ("stock",)
    assert s["discard_policy"] == "no_own_card_move"


@pytest.mark.parametrize("key, value, fixed", [
    ("redeal_limit", "unlimited", None), ("redeal_limit", "3", 3), ("load_targets", "waste,stock", ("stock", "waste")),
    ("auto_turn", "false", False), ("stock_size", "12", 12), ("p_detect", "0.25", 0.25),
])
def test_option_parsing(key, value, fixed):
    assert rb.validate_option(key, value) == fixed


@pytest.mark.parametrize("key, value, words", [
    ("foundation_priority", "sometimes", "foundation_priority"), ("stock_size", 14, "stock_size"),
    ("houses_per_player", 5, "houses_per_player"), ("load_targets", "hand", "load_targets"),
    ("redeal_limit", "-3", "redeal_limit"), ("p_detect", 2, "p_detect"), ("auto_turn", "maybe", "auto_turn"),
    ("no_such_option", 1, "unknown"), ("stall_turns", 0, "stall_turns"),
])
def test_bad_options(key, value, words):
    with pytest.raises(ValueError, match=words):
        rb.validate_option(key, value)


def test_option_combinations():
    with pytest.raises(ValueError, match="auto_turn"):
        rb.resolve("default", dict(stock_before_hand=True))
    with pytest.raises(ValueError, match="unknown"):
        rb.resolve("default", dict(colour="red"))
    # a node budget beyond the table: the message names the table size it needs
    with pytest.raises(ValueError, match="set tt_bits=24 or more"):
        rb.resolve("default", dict(node_budget="1e7"))
    assert rb.resolve("default", dict(node_budget="1e7", tt_bits=24))["node_budget"] == 10**7
    assert rb.resolve("default", dict(node_budget="1e9", tt_bits=28))["node_budget"] == 10**9  # the largest table


@pytest.mark.parametrize("kwargs, words", [
    (dict(houses=["TH 9S"] * 8), "more than 2"),
    (dict(houses=["9S TH"] + [""] * 7), "descending run"),
    (dict(houses=["TH 9H"] + [""] * 7), "alternating"),
    (dict(houses=[""] * 7), "8 houses"),
    (dict(p0=dict(stock="ZZ")), "P0 stock"),
    (dict(foundations="0 0 0"), "four entries"),
    (dict(foundations="0 14 0 0"), "suit H"),
    (dict(p0=dict(stock="AS AS"), foundations="1,1 0 0 0"), "more than 2"),
    (dict(p0=dict(deck="AS")), "unknown pile"),
])
def test_bad_positions(kwargs, words):
    args = dict(houses=[""] * 8, foundations="0 0 0 0", p0=dict(stock="5C"), p1=dict(stock="4H"))
    args.update(kwargs)
    with pytest.raises(ValueError, match=words):
        rb.Position.from_piles(**args)


def test_a_full_house_from_king_to_ace_is_a_position():
    # I1 (§4.4): a house is a descending run in alternating colours, at most K down to A, so a
    # house of all 13 ranks is legal, in the duel and in SOLO; its top AS goes home (strict).
    full = "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS"
    pos = rb.Position.from_piles([full] + [""] * 7, "0 0 0 0", p0=dict(stock="5C"), p1=dict(stock="4H"))
    assert len(pos.piles["houses"][0]) == 13 and moves(pos) == {"AS→F"}
    solo = rb.SoloPosition.from_piles("0 0 0 0", "5C", [full, "", "", ""], "", partial=True)
    assert len(solo.houses[0]) == 13 and solo.solve().outcome == "win"


@pytest.mark.parametrize("text, words", [
    ("6D to h2", "cannot read"), ("6D→h9", "unknown destination"), ("6D→P0 stock", "own stock"),
    ("6D→h8", "unknown destination"),    # houses are h0..h7: h8 is no house (and not P1's stock)
    ("h9:6D→h2", "unknown source"), ("h0:8H→h2", "not the available card"), ("XX→h2", "XX"),
    ("KD→h2", "not an available card"),
])
def test_bad_move_text(text, words):
    with pytest.raises(ValueError, match=words):
        l1().parse_move(text)


def test_move_forms():
    pos = l1()
    assert pos.parse_move("h0:9S→h7") == pos.parse_move("9S->h7") == pos.parse_move("h0->h7")
    assert pos.parse_move("stock→P1 stock") == pos.parse_move("6D→opp stock")


def test_bad_game_requests():
    with pytest.raises(ValueError, match="strategies"):
        rb.play_game(1, ("greedy", "clever"))
    with pytest.raises(ValueError, match="seed"):
        rb.play_game(-1)
