"""Mariáš play engine: the compiled kernel against the pure-Python reference (marias_reference.py)
on thousands of random deals, field by field; invariants under random play; the single-deal API and
its errors; the compiled settlement against settle()."""
import json
import random
from pathlib import Path

import numpy as np
import pytest

from analyzer._core import marias as core
from analyzer.cards import MARIAS32
from analyzer.cli import main
from analyzer.games.marias import GAME, play_deal, settle

import marias_reference as ref

OPTIONS = GAME.resolve_rules("seed")
DECK = MARIAS32.cards
GAMES = ("hra", "sedma", "stovka", "sto_a_sedem", "maly", "velky")


def random_setup(rng):
    cards = DECK[:]
    rng.shuffle(cards)
    hands = [cards[0:10], cards[10:20], cards[20:30]]
    game = rng.choice(GAMES)
    trump = rng.choice("SHDC") if game not in ("maly", "velky") else None
    actor = rng.randrange(3)
    seven_holder = -1
    if trump and rng.random() < 0.5:
        holder = [s for s in range(3) if "7" + trump in hands[s]]
        seven_holder = holder[0] if holder else -1
    return hands, cards[30:], actor, game, trump, seven_holder


def kernel_play(hands, talon, actor, game, trump, seven_holder, strategies, seed, options=OPTIONS, forced=()):
    return core.play_one([MARIAS32.mask(h) for h in hands], MARIAS32.mask(talon), actor, GAMES.index(game),
                         "SHDC".index(trump) if trump else -1, seven_holder, strategies,
                         [MARIAS32.bit(c) for c in forced], options, np.random.PCG64(seed))


@pytest.mark.parametrize("queen_first", [False, True])
def test_kernel_matches_reference(runslow, queen_first):
    rng = random.Random(5 + queen_first)
    options = dict(OPTIONS, hlas_queen_first=queen_first)
    n = 20_000 if runslow else 2_500
    for deal in range(n):
        hands, talon, actor, game, trump, seven_holder = random_setup(rng)
        strategies = [rng.choice(("random", "heuristic")) for _ in range(3)]
        out = kernel_play(hands, talon, actor, game, trump, seven_holder, strategies, deal, options)
        assert out["error"] == ""
        cards = [MARIAS32.card(b) for b in out["cards"]]
        r = ref.replay(hands, actor, game, trump, cards, seven_holder if seven_holder >= 0 else None, queen_first)
        assert r["n_played"] == len(cards)
        assert [set(MARIAS32.from_mask(m)) for m in out["legal"]] == r["legal_sets"]
        assert out["trick_winners"] == r["winners"]
        assert out["tricks"] == r["taken"]
        if trump:
            assert out["card_points"] == r["points"]
            assert out["seven"] == r["seven"]
            assert out["first_hlas"] == [r["hlasy"][s][0] if r["hlasy"][s] else 0 for s in range(3)]
            assert out["hlasy_actor"] == sum(r["hlasy"][actor])
            assert out["hlasy_def"] == sum(sum(r["hlasy"][s]) for s in range(3) if s != actor)


def test_invariants_under_random_play():
    rng = random.Random(11)
    for deal in range(3000):
        hands, talon, actor, game, trump, seven_holder = random_setup(rng)
        out = kernel_play(hands, talon, actor, game, trump, seven_holder, ["random"] * 3, deal)
        cards = [MARIAS32.card(b) for b in out["cards"]]
        assert len(set(cards)) == len(cards)
        assert all(m for m in out["legal"])                     # a legal card always exists
        if trump:
            assert len(cards) == 30 and set(cards) == set(sum(hands, []))
            # 80 when the talon holds no A/T, as the talon rule guarantees; random setups may break it
            assert sum(out["card_points"]) == 80 - 10 * sum(c[0] in "AT" for c in talon)
            assert sum(out["tricks"]) == 10
            for s in range(3):                                  # hlasy are K+Q pairs held
                pairs = sum((40 if x == trump else 20) for x in "SHDC" if {"K" + x, "Q" + x} <= set(hands[s]))
                own = out["hlasy_actor"] if s == actor else None
                if own is not None:
                    assert own == pairs
        elif game == "maly":
            assert out["tricks"][actor] <= 1
            assert len(cards) == 30 or out["tricks"][actor] == 1
        else:
            assert out["tricks"][actor] >= sum(out["tricks"]) - 1


def test_card_points_and_last_trick_total_90_in_play():
    # §1.3: the kernel's count toward 100 is the actor's card points + the last trick + its highest
    # hlas; what is left after the card points and the hlas is the last trick: 10 to its winner, so
    # with the 80 card points of a deal (talon without A/T, as the talon rule requires) it makes 90.
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    while min(seen.values()) < 200:
        hands, talon, actor, game, trump, seven_holder = random_setup(rng)
        if not trump or any(card[0] in "AT" for card in talon):
            continue
        out = kernel_play(hands, talon, actor, game, trump, seven_holder, ["random"] * 3, sum(seen.values()))
        last_trick = out["counted"] - out["cp_actor"] - out["max_hlas_actor"]
        if out["last_actor"]:
            assert sum(out["card_points"]) + last_trick == 90
        else:
            assert last_trick == 0
        seen[out["last_actor"]] += 1


def test_seven_guard_keeps_the_seven_back():
    # The seven-holder may lead the trump 7 only when nothing else is legal.
    hand = MARIAS32.mask("7C 8C AS")
    assert MARIAS32.from_mask(core.legal_mask(hand, [], 3, True, False, False)) == ["AS", "8C"]
    assert MARIAS32.from_mask(core.legal_mask(MARIAS32.mask("7C"), [], 3, True, False, False)) == ["7C"]
    # follow, beat, trump, over-trump (§5.3)
    h = MARIAS32.mask("KS 9S AH 7C JC")
    bits = lambda s: [MARIAS32.bit(c) for c in s.split()]
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("QS"), 3, False, False, False))) == {"KS"}
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("AS"), 3, False, False, False))) == {"KS", "9S"}
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("TD"), 3, False, False, False))) == {"7C", "JC"}
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("TD 9C"), 3, False, False, False))) == {"JC"}
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("TD QC"), 3, False, False, False))) == {"7C", "JC"}
    # a trumped non-trump lead: any card of the suit led
    assert set(MARIAS32.from_mask(core.legal_mask(h, bits("8S 7C"), 3, False, False, False))) == {"KS", "9S"}
    # Malý order: the T ranks below the J, so JS beats TS
    assert set(MARIAS32.from_mask(core.legal_mask(MARIAS32.mask("JS 9S"), bits("TS"), -1, False, False, True))) == {"JS"}


HANDS = ["AC TC KC QC 9C 8C AS KS 7D 8D", "7C JC TS QS 9S 8S AH TH KH QH", "JS 7S 9H 8H 7H AD TD KD QD 9D"]


def test_play_deal_given_sequence_and_settlement():
    seq = ("AC 7C 7S  TC JC 7H  AS 8S JS  7D 9S AD  TD 8D TS  KD 8C QS  KS QH 8H  9C KH 9H  QC TH 9D  KC AH QD")
    r = play_deal(HANDS, "JD JH", "stovka", "C", tricks=seq)
    assert r.card_points == {"actor": 50, "defenders": 30}
    assert r.last_trick == "actor" and r.hlasy_actor == (40,) and r.hlasy_def == (20, 20)
    assert r.counted == 100
    assert r.settlement.per_defender == (4, 4) and r.settlement.winner == "actor"
    assert "Stovka in žalude" in r.explain()
    hra = play_deal(HANDS, "JD JH", "hra", "C", tricks=seq)
    assert hra.settlement.parts == {"hra": 4}      # total 50 + 10 + 40 = 100: tichá stovka, 4B


@pytest.mark.parametrize("kwargs,message", [
    (dict(tricks="AS TS AD"), "trick 1, card 3: rear may not play AD: must follow suit S"),
    (dict(tricks="8C 7C"), "trick 1, card 2: middle may not play 7C: must beat"),
    (dict(tricks="AC 7S"), "middle does not hold 7S"),
    (dict(tricks="7D AH"), "must trump"),
    (dict(tricks="AC 7C 7S AC"), "duplicate card|played twice"),
    (dict(contract="sedma"), "trump 7"),
    # rear trumps trick 1 and leads AD; neither of forehand's 7D 8D beats it, so the 7D is kept
    # back by the announced seven, not by the duty to beat
    (dict(contract="sedma", trump="D", tricks="9C JC 9D AD 7D"),
     "trick 2, card 2: forehand may not play 7D: the announced trump 7 must be kept"),
    (dict(talon="AD JD"), "duplicate|given twice"),
    (dict(hands=HANDS[:2]), "three hands"),
    (dict(trump="X"), "trump"),
    (dict(contract="maly"), "no trumps"),
    (dict(k={"main": 5}), "max_doublings"),
    (dict(k={"sedma": 1}), "Stovka has no sedma part to double; its parts: main"),
    (dict(contract="hra", k={"sedma_proti": 1}), "has no sedma_proti part to double; its parts: hra"),
    (dict(contract="hra", k={"main": 1}), "Hra has no main part to double; its parts: hra"),
    (dict(hands=[HANDS[0], HANDS[1], "JS 7S 9H 8H 7H AD TD KD QD XX"]), "malformed card"),
    (dict(sedma_proti=True, trump="D"), "sedma proti needs a defender holding the trump 7"),
    (dict(hands=None), "three hands of 10 cards, got None"),
    (dict(tricks=5), "tricks must be a card string, a list of cards or a list of tricks, got 5"),
    (dict(tricks=["AC", 7]), "tricks must be a card string"),
    (dict(k="main"), "k must be a mapping of part -> number of doublings"),
])
def test_play_deal_errors(kwargs, message):
    args = dict(hands=HANDS, talon="JD JH", contract="stovka", trump="C")
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        play_deal(**args)


def test_talon_rules():
    with pytest.raises(ValueError, match="A or a T"):
        play_deal([HANDS[0], HANDS[1], "JS 7S 9H 8H 7H JD JH KD QD 9D"], "AD TD", "hra", "C")
    with pytest.raises(ValueError, match="A or a T"):
        play_deal([HANDS[0], HANDS[1], "JS 7S 9H 8H 7H AD JD KD QD 9D"], "TD JH", "hra", "C")
    # Malý and Veľký accept any discard
    r = play_deal([HANDS[0], HANDS[1], "JS 7S 9H 8H 7H JD JH KD QD 9D"], "AD TD", "maly")
    assert r.settlement.amount in (5, -5)


def test_malý_names_the_duty_to_beat_in_its_own_rank_order():
    # §1.2: in Malý the T ranks between the 9 and the J. Over the rear's JS the forehand (TS QS 7S)
    # must beat with the QS (§5.3); his TS is refused for that duty, as his 7S is.
    hands = ["TS QS 7S AC TC KC QC 9C 8C 7D", "AS KS 8S 9S AH TH KH QH JH 9H", "JS 8D 9D TD JD QD KD AD 7C JC"]
    for card in ("TS", "7S"):
        with pytest.raises(ValueError, match=f"may not play {card}: must beat the trick with a higher S if able"):
            play_deal(hands, "7H 8H", "maly", tricks=["JS", card], actor=2)


def test_sedma_proti_and_seven_events():
    # the middle player holds 7C and announces sedma proti against Hra in clubs
    r = play_deal(HANDS, "JD JH", "hra", "C", sedma_proti=True, strategies="heuristic")
    assert "sedma_proti" in r.settlement.parts
    assert r.seven in ("none", "won_def", "killed_def")


# Protocol L: the middle player (seat 1) plays Hra in spades; the rear holds 7S, the forehand
# plays after the actor's left-hand neighbour, the rear
L_HANDS = ["8S 9S TH JH QH KH AH 7D 8D AD", "AS KS QS JS TS AC KC QC JC TC", "7S 7H 8H 9H TD JD QD KD 7C 8C"]
L_DEAL = dict(hands=L_HANDS, talon="9D 9C", contract="hra", trump="S", actor=1, protocol="L")


def test_each_defender_settles_his_own_sedma_proti_and_doublings():
    # sedma proti announced by the rear binds only him under sedma_proti_only_announcer; per_defender
    # lists the actor's left-hand neighbour (rear) first, and the explanation names the right seat
    r = play_deal(**L_DEAL, sedma_proti=True, sedma_proti_only_announcer=True)
    rear, forehand = r.settlement.defender_parts
    assert "sedma_proti" in rear and "sedma_proti" not in forehand and rear["hra"] == forehand["hra"]
    assert r.settlement.per_defender == (sum(rear.values()), sum(forehand.values()))
    lines = r.explain().splitlines()
    assert any(line.startswith(f"  rear pays the actor {sum(rear.values())} B") and "sedma_proti" in line for line in lines)
    assert any(line.startswith(f"  forehand pays the actor {forehand['hra']} B") for line in lines)
    # flek_per_defender: the rear doubled the hra, the forehand did not
    plain = play_deal(**L_DEAL, flek_per_defender=True)
    fleked = play_deal(**L_DEAL, flek_per_defender=True, k=[{"hra": 1}, {}])
    assert plain.settlement.per_defender[0] == plain.settlement.per_defender[1] != 0
    assert fleked.settlement.per_defender == (2 * plain.settlement.per_defender[0], plain.settlement.per_defender[1])
    for kwargs, message in ((dict(k=[{"hra": 1}, {}]), "need flek_per_defender=true"),
                            (dict(k=[{"hra": 1}], flek_per_defender=True), "a pair of mappings"),
                            (dict(k=[{"sedma_proti": 1}, {}], sedma_proti=True, flek_per_defender=True),
                             "same number of doublings for both defenders")):
        with pytest.raises(ValueError, match=message):
            play_deal(**L_DEAL, **kwargs)


def test_explain_takes_doublings_by_seat(capsys):
    args = ["marias", "explain", "--hands", *L_HANDS, "--talon", "9D 9C", "--contract", "hra", "--trump", "S",
            "--actor", "1", "--set", "protocol=L", "--set", "flek_per_defender=true"]
    expected = play_deal(**L_DEAL, flek_per_defender=True, k=[{"hra": 1}, {}]).explain()
    assert main(args + ["--double", "rear:hra=1"]) == 0
    assert capsys.readouterr().out.strip() == expected.strip()
    for extra, message in ((["--double", "middle:hra=1"], "middle is the actor"),
                           (["--double", "east:hra=1"], "unknown seat 'east'"),
                           (["--double", "rear:hra=x"], "must be a whole number")):
        assert main(args + extra) == 2
        assert message in capsys.readouterr().err
    assert main(args[:-2] + ["--double", "rear:hra=1"]) == 2
    assert "need flek_per_defender=true" in capsys.readouterr().err


def test_kernel_settlement_matches_settle():
    path = Path(__file__).parent / "data" / "marias_settlement_vectors.jsonl"
    vectors = [json.loads(line)["input"] for line in path.read_text().splitlines() if line]
    rng = random.Random(3)
    for _ in range(3000):
        game = rng.choice(GAMES)
        trump = rng.choice("SHDC")
        last = rng.choice(("actor", "def"))
        seven = rng.choice(("none", "won_actor", "killed_actor") if last == "actor" and False else
                           (("none", "won_actor", "killed_def") if last == "actor" else ("none", "won_def", "killed_actor")))
        vectors.append(dict(game=game, trump=trump, last=last, seven=seven, cp_actor=10 * rng.randrange(9),
                            hlasy_actor=rng.choice(([], [20], [40], [40, 20], [20, 20])), hlasy_def=rng.choice(([], [20])),
                            sedma_proti=game in ("hra", "stovka") and rng.random() < 0.3,
                            k={p: rng.randrange(3) for p in ("hra", "sedma", "main", "sedma_proti")},
                            actor_tricks=rng.randrange(11)))
    for options in (OPTIONS, dict(OPTIONS, ticha_stovka_rate="half", sto_a_sedem_step=4, hlas_for_stovka="first",
                                  stovka_scale_counts_all_hlasy=False, deal_cap=30)):
        settle_opts = {k: options[k] for k in ("stovka_scale_counts_all_hlasy", "hlas_for_stovka", "sto_a_sedem_step",
                                               "ticha_stovka_rate", "deal_cap", "maly_value", "velky_value")}
        for v in vectors:
            if v["game"] in ("maly", "velky"):
                expected = settle(v["game"], k=v["k"], actor_tricks=v["actor_tricks"], **settle_opts)
            else:
                args = {k: v[k] for k in ("game", "trump", "k", "sedma_proti", "cp_actor", "last", "hlasy_actor", "hlasy_def", "seven")}
                expected = settle(**args, **settle_opts)
            total, won = core.settle_kernel(v, options)
            assert total == expected.amount, v
            assert won == (expected.winner == "actor"), v


@pytest.mark.parametrize("size", [2, 3, 4])
def test_double_dummy_against_plain_minimax(size, runslow):
    rng = random.Random(100 + size)
    for _ in range(150 if runslow else 40):
        cards = DECK[:]
        rng.shuffle(cards)
        hands = [cards[j * size:(j + 1) * size] for j in range(3)]
        game = rng.choice(("hra", "hra", "sedma", "maly", "velky"))
        trump = rng.choice("SHDC") if game in ("hra", "sedma") else None
        leader, actor = rng.randrange(3), rng.randrange(3)
        seven_holder = None
        if game == "sedma" and "7" + trump in hands[actor]:
            seven_holder = actor
        expected = ref.minimax(hands, leader, actor, game, trump, seven_holder)
        if game in ("maly", "velky"):          # the solver only answers made (all tricks) or not (0)
            expected = size if expected == size else 0
        got, _ = core.dd_value_of([MARIAS32.mask(h) for h in hands], leader, actor, GAMES.index(game),
                                  "SHDC".index(trump) if trump else -1,
                                  -1 if seven_holder is None else seven_holder, False)
        assert got == expected, (game, trump, leader, actor, hands)


@pytest.mark.parametrize("strategy", ["double_dummy", "pimc"])
def test_search_players_play_legally(strategy):
    rng = random.Random(21)
    for deal in range(6 if strategy == "pimc" else 30):
        hands, talon, actor, game, trump, seven_holder = random_setup(rng)
        strategies = [strategy if s == actor else "heuristic" for s in range(3)]
        out = kernel_play(hands, talon, actor, game, trump, seven_holder, strategies, deal)
        cards = [MARIAS32.card(b) for b in out["cards"]]
        ref.replay(hands, actor, game, trump, cards, seven_holder if seven_holder >= 0 else None)


def test_double_dummy_play_reaches_the_solved_value():
    # With every seat double-dummy, the actor's points equal the solved value of the deal.
    rng = random.Random(8)
    for deal in range(15):
        hands, talon, actor, _, trump, _ = random_setup(rng)
        trump = trump or "S"
        value, _ = core.dd_value_of([MARIAS32.mask(h) for h in hands], actor, actor, 0, "SHDC".index(trump), -1, False)
        out = kernel_play(hands, talon, actor, "hra", trump, -1, ["double_dummy"] * 3, deal)
        units = out["cp_actor"] // 10 + out["last_actor"]
        assert units == value
        # and a double-dummy actor never does worse than the value against heuristic defenders
        out = kernel_play(hands, talon, actor, "hra", trump, -1,
                          ["double_dummy" if s == actor else "heuristic" for s in range(3)], deal)
        assert out["cp_actor"] // 10 + out["last_actor"] >= value


def test_double_dummy_values_of_recorded_positions():
    # 300 seeded positions (6-10 cards a hand, every contract) solved before the solver was sped
    # up; any change to the search must leave every value unchanged.
    path = Path(__file__).parent / "data" / "marias_dd_values.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    assert len(rows) == 300
    for r in rows:
        got, _ = core.dd_value_of([MARIAS32.mask(h) for h in r["hands"]], r["leader"], r["actor"],
                                  GAMES.index(r["game"]), "SHDC".index(r["trump"]) if r["trump"] else -1,
                                  r["seven_holder"], r["queen_first"])
        assert got == r["value"], r


# The rear wins tricks 1 and 3; the middle player, holding the K+Q of hearts, takes no trick.
TRICKLESS_HANDS = ["AS TS KS QS JS 9S 8S 7S QD TD", "KH QH 7H 8H 9H 7D 8D 9D 7C 8C", "AH TH JH AC TC KC JC 9C AD KD"]
TRICKLESS_PLAY = "TD 7D AD  AH 7S 7H  QD 8D KD  AC 8S 7C  9S 8H 9C  JS 8C JH  QS 9H JC  KS 9D KC  TS QH TH  AS KH TC"


def test_hlas_needs_trick_asks_for_a_trick_of_the_side():
    # §9 A12, flag hlas_needs_trick: hlasy count for a *side* that takes a trick. The defence took
    # two tricks (the rear's), so the middle player's hlas of hearts (20, spades trumps) counts
    # although he took none, in play_deal and in the kernel's outcome alike.
    r = play_deal(TRICKLESS_HANDS, "JD QC", "hra", "S", tricks=TRICKLESS_PLAY, hlas_needs_trick=True)
    assert r.trick_winners == (2, 0, 2, 0, 0, 0, 0, 0, 0, 0)
    assert r.hlasy_actor == (40,) and r.hlasy_def == (20,)
    options = GAME.resolve_rules("seed", {"hlas_needs_trick": True})
    out = kernel_play(TRICKLESS_HANDS, ["JD", "QC"], 0, "hra", "S", -1, ["heuristic"] * 3, 0, options,
                      forced=TRICKLESS_PLAY.split())
    assert out["tricks"] == [8, 0, 2]
    assert out["hlasy_actor"] == 40 and out["hlasy_def"] == 20


def test_play_deal_talon_and_sedma_proti_switches():
    # §3.3c: trumps may go to the talon by default; flag talon_allows_trumps off refuses them.
    # (The talon JD JH holds a trump in diamonds and in hearts, none in clubs.)
    assert play_deal(HANDS, "JD JH", "hra", "D").talon == ("JD", "JH")
    for trump in ("D", "H"):
        with pytest.raises(ValueError, match="talon_allows_trumps is off"):
            play_deal(HANDS, "JD JH", "hra", trump, talon_allows_trumps=False)
    assert play_deal(HANDS, "JD JH", "hra", "C", talon_allows_trumps=False).talon == ("JD", "JH")
    # §3.6 step 6, flag allow_proti: off, nobody may announce sedma proti (the middle holds 7C)
    assert "sedma_proti" in play_deal(HANDS, "JD JH", "hra", "C", sedma_proti=True).settlement.parts
    with pytest.raises(ValueError, match="allow_proti is off"):
        play_deal(HANDS, "JD JH", "hra", "C", sedma_proti=True, allow_proti=False)


def test_play_deal_allows_doublings_up_to_the_cap():
    # §4.2: k <= max_doublings (default 4). The Stovka of test_play_deal_given_sequence_and_settlement
    # is made at 100 (4B x 1 step); four doublings make it 4 x 2^4 = 64B per defender.
    seq = "AC 7C 7S  TC JC 7H  AS 8S JS  7D 9S AD  TD 8D TS  KD 8C QS  KS QH 8H  9C KH 9H  QC TH 9D  KC AH QD"
    r = play_deal(HANDS, "JD JH", "stovka", "C", tricks=seq, k={"main": 4})
    assert r.settlement.per_defender == (64, 64)
    assert play_deal(HANDS, "JD JH", "stovka", "C", tricks=seq, k={"main": 2}, max_doublings=2).settlement.amount == 16
    with pytest.raises(ValueError, match="exceeds max_doublings = 2"):
        play_deal(HANDS, "JD JH", "stovka", "C", tricks=seq, k={"main": 3}, max_doublings=2)


@pytest.mark.parametrize("hands,message", [
    ([HANDS[0][:-3], HANDS[1], HANDS[2]], "forehand hand has 9 cards, expected 10"),
    ([HANDS[0], HANDS[1] + " JD", HANDS[2]], "middle hand has 11 cards, expected 10"),
    ([HANDS[0], HANDS[1], "JS 7S 9H 8H 7H AD TD KD QD QD"], "duplicate card 'QD' in the rear hand"),
])
def test_play_deal_hands_hold_ten_distinct_cards(hands, message):
    # §2: each player plays with 10 cards; a hand of another size or with a card twice is refused
    with pytest.raises(ValueError, match=message):
        play_deal(hands, "JD JH", "stovka", "C")


def test_play_deal_sto_a_sedem_needs_the_trump_seven_and_a_hlas():
    # §3.4: Sto a sedem needs the trump 7 and >= 1 hlas (A7). The forehand of HANDS holds the K+Q of
    # clubs and 7D, not 7C; with QC and 9D swapped he keeps the 7D but no hlas.
    assert play_deal(HANDS, "JD JH", "sto_a_sedem", "D").contract == "sto_a_sedem"
    with pytest.raises(ValueError, match=r"Sto a sedem needs the trump 7 \(7C\)"):
        play_deal(HANDS, "JD JH", "sto_a_sedem", "C")
    no_hlas = ["AC TC KC 9D 9C 8C AS KS 7D 8D", HANDS[1], "JS 7S 9H 8H 7H AD TD KD QD QC"]
    for contract in ("stovka", "sto_a_sedem"):
        with pytest.raises(ValueError, match="needs a hlas"):
            play_deal(no_hlas, "JD JH", contract, "D")
        assert play_deal(no_hlas, "JD JH", contract, "D", allow_hopeless_stovka=True).contract == contract
