"""Klabor: the vectors of rules/klabor.md §9 (K17 = the full deal), the exact values of §10
against Monte Carlo, invariants under random play, golden playthroughs, and the kernel against the
pure-Python reference in klabor_reference.py. Regenerate the golden files with
``python tests/test_klabor.py --regen``."""
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer._core import klabor as kernel
from analyzer.cards import PIQUET32 as DECK, SUIT_CHARS
from analyzer.games import get_game
from analyzer.games import klabor as k
from analyzer.runner import RunConfig, run

import klabor_reference as ref

GAME = get_game("klabor")
OPTIONS = GAME.resolve_rules("standard")
GOLDEN = Path(__file__).parent / "golden" / "klabor"

K17 = dict(elder="JH 9H AH KS QS JS 7C 8C 9D", dealer="KH QH 7H AS AC TC AD KD QD", turnup="8H", trump="H",
           plays="JH 8H 9H QH AH KH KS AS AD 9D KD 7C QD 8C AC QS TC JS")


# ---------------------------------------------------------------------------------------------
# §9 test vectors

def test_k1_card_points():
    assert k.card_points("JH 9H AS TD", "H") == 55


def test_pack_card_points():
    # §1: whatever the trump, 62 points in the trump suit (J 20, 9 14, A 11, T 10, K 4, Q 3) and 30 in
    # each plain suit (A 11, T 10, K 4, Q 3, J 2): 152 in the pack, 162 with the last trick's 10.
    # A one-trick ending of two pointless cards is the last trick alone.
    last_trick = kernel.dd_value(DECK.mask(["8S"]), DECK.mask(["7S"]), True, SUIT_CHARS.index("H"), False)
    for trump in "SHDC":
        per_suit = {suit: k.card_points([rank + suit for rank in "AKQJT987"], trump) for suit in "SHDC"}
        assert per_suit == {suit: 62 if suit == trump else 30 for suit in "SHDC"}, trump
        assert k.card_points(DECK.cards, trump) == 152
    assert k.card_points(DECK.cards, "H") + last_trick == 162


@pytest.mark.parametrize("led,reply,winner", [("AS", "7H", "7H"), ("9H", "JH", "JH"), ("TS", "AS", "AS"),
                                              ("TS", "KD", "TS"), ("JS", "9S", "JS")],
                         ids=["K2", "K3", "K4", "K5", "K6"])
def test_k2_to_k6_trick_winner(led, reply, winner):
    assert k.trick_winner(led, reply, "H") == winner


def test_k3_heading_is_obligatory():
    # Dealer holds JH and 8H: on the 9H lead only the J heads it, so 8H is refused.
    with pytest.raises(ValueError, match="trick 1: 8H breaks the duty to head"):
        k.score_deal("9H AS KS QS JS 7C 8C 9D TD", "JH 8H AH 7S AC TC AD KD QD", "7D", "H", "elder",
                     "9H 8H AS JH KS AH QS 7S JS AC 7C TC 8C AD 9D KD TD QD")
    assert not GAME.resolve_rules("seed_literal")["must_head_trump"]


def test_k7_runs():
    s = k.sequences("AS KS QS 9D 8D 7D TC JC 7H", "H")
    assert s.value == 40 and s.best == (20, "A", False)


def test_k8_long_run_plus_terts():
    s = k.sequences("AH KH QH JH KC QC JC 7S 8D", "S")
    assert s.value == 70 and s.best == (50, "A", False)
    assert k.compare_sequences("AH KH QH JH KC QC JC 7S 8D", "AS KS QS 7D 8C 9S TD 7C 9H", "S") == ("elder", 70, 0)


@pytest.mark.parametrize("elder,dealer,expected", [
    ("KS QS JS 7D", "AD KD QD 7C", ("dealer", 0, 20)),              # K9
    ("TC 9C 8C 7C", "AD KD QD 7S", ("elder", 50, 0)),               # K10
    ("QH JH TH 7D", "QS JS TS 7C", ("elder", 20, 0)),               # K11
    ("QC JC TC 7D", "QS JS TS 7H", (None, 0, 0)),                   # K12
], ids=["K9", "K10", "K11", "K12"])
def test_k9_to_k12_sequence_comparison(elder, dealer, expected):
    assert k.compare_sequences(elder, dealer, "H") == expected


def test_k12_seq_tie_option():
    assert k.compare_sequences("QC JC TC 7D", "QS JS TS 7H", "H", seq_tie="elder") == ("elder", 20, 0)


@pytest.mark.parametrize("maker,opponent,expected", [((74, 60), None, (74, 60, 0)), ((55, 70), None, (0, 125, 0)),
                                                     ((81, 81), None, (0, 162, 0))], ids=["K13", "K14", "K15"])
def test_k13_to_k15_bait(maker, opponent, expected):
    assert k.settle(*maker) == expected


def test_k15_tie_options():
    assert k.settle(81, 81, tie="half") == (0, 81, 0)
    assert k.settle(81, 81, tie="carry") == (0, 81, 81)
    assert k.settle(80, 81, tie="half") == (0, 161, 0)     # a real bait is not a tie


def test_k16_game_end():
    assert k.game_result(523, 377) == ("first", 124)
    assert k.game_result(500, 377) == (None, 0)
    assert k.game_result(520, 510) == ("first", 10)        # both over: winner - loser
    assert k.game_result(510, 510) == (None, 0)            # equal: play on


def test_k17_full_deal():
    e = k.score_deal(maker="elder", **K17)
    assert e.dix_swapped_by == "dealer"
    assert [t[2] for t in e.tricks] == ["elder"] * 3 + ["dealer"] * 6
    assert e.sequence_winner == "dealer" and e.sequences == (0, 20)
    assert e.bella == (0, 20)
    assert e.card_points == (52, 59) and e.last_trick == "dealer"
    assert e.total == (52, 109)
    assert e.baited and e.score == (0, 161)
    d = k.score_deal(maker="dealer", **K17)
    assert not d.baited and d.score == (52, 109)


def test_k17_trick_points():
    e = k.score_deal(maker="elder", **K17)
    per_trick = [k.card_points([a, b], "H") for a, b, _ in e.tricks]
    assert per_trick == [20, 17, 15, 15, 11, 4, 3, 14, 12]


# ---------------------------------------------------------------------------------------------
# Options and input validation

def test_rules_options_validated():
    for key, bad in (("tie", "draw"), ("seq_tie", "dealer"), ("long_runs", "100"), ("dix_value", 5),
                     ("dix_swap", "maybe"), ("schmeiss", "perhaps"), ("next_dealer", "random"),
                     ("bella_policy", "never"), ("target", 0), ("threshold", -1),
                     ("pimc_samples", 0), ("must_head_trump", 2)):
        with pytest.raises(ValueError, match=key):
            GAME.resolve_rules("standard", {key: bad})
    with pytest.raises(ValueError, match="unknown klabor rule option"):
        GAME.resolve_rules("standard", {"trumps": "no"})
    o = GAME.resolve_rules("standard", {"schmeiss": "on", "dix_value": "10", "long_runs": "split"})
    assert o["schmeiss"] is True and o["dix_value"] == 10 and o["long_runs"] == "split"


def test_strategy_roles_validated():
    with pytest.raises(ValueError, match="unknown play_a strategy 'minimax'"):
        k.kernel_spec(OPTIONS, {"play_a": "minimax"})
    with pytest.raises(ValueError, match="no strategy role 'play_c'"):
        k.kernel_spec(OPTIONS, {"play_c": "greedy"})
    with pytest.raises(ValueError, match="unknown play_b strategy"):
        RunConfig("klabor", "deals", "standard", deals=10, seed=1, strategies={"play_b": "best"})
    with pytest.raises(ValueError, match="unknown play_a strategy"):
        k.play_deal("AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AD", "KD QD JD", "KC QC JC", elder_play="smart")


def test_long_runs_split_option():
    assert k.sequences("AH KH QH JH TH 9H 8H", "S").value == 50
    assert k.sequences("AH KH QH JH TH 9H 8H", "S", long_runs="split").value == 70
    assert k.sequences("AH KH QH JH TH 9H 8H 7H", "S", long_runs="split").value == 100


@pytest.mark.parametrize("change,message", [
    (dict(elder="JH 9H AH KS QS JS 7C 8C"), "elder hand has 8 cards"),
    (dict(elder="JH 9H AH KS QS JS 7C 8C XX"), "malformed card 'XX'"),
    (dict(elder="JH 9H AH KS QS JS 7C 8C 2D"), "not in the 32-card klabor pack"),
    (dict(elder="JH 9H AH KS QS JS 7C 8C 8C"), "duplicate card '8C'"),
    (dict(turnup="AS"), "'AS' is given twice: in dealer and in turn-up"),
    (dict(trump="X"), "trump must be one of the suits"),
    (dict(plays="JH 8H 9H QH"), "trick sequence has 4 cards"),
    (dict(plays="JH 8H 9H QH AH KH AS KS AD 9D KD 7C QD 8C AC QS TC JS"), "trick 4: AS is not in the elder's hand"),
    (dict(plays="JH 8H 9H QH AH KH KS AD AS 9D KD 7C QD 8C AC QS TC JS"), "trick 4: AD breaks the duty to follow suit"),
], ids=["size", "malformed", "not-in-pack", "duplicate", "turnup", "trump", "plays-size", "not-in-hand", "follow"])
def test_bad_input_names_the_problem(change, message):
    with pytest.raises(ValueError, match=message):
        k.score_deal(maker="elder", **{**K17, **change})
    with pytest.raises(ValueError, match="maker must be"):
        k.score_deal(maker="both", **K17)


def test_must_trump_when_void():
    # Dealer void in spades but holding trumps must trump the AS lead.
    with pytest.raises(ValueError, match="trick 1: 7C breaks the duty to trump"):
        k.score_deal("AS KS QS JS TS 9S 8S 7S 9D", "JH 8H AH 7C AC TC AD KD QD", "7D", "H", "elder",
                     "AS 7C KS JH QS 8H JS AH TS AC 9S TC 8S AD 7S KD 9D QD")


# ---------------------------------------------------------------------------------------------
# Exact values of §10, and Monte Carlo against them

def test_exact_values_match_rules_file():
    e = k.exact_odds()
    assert e["6 cards: at least a terts"] == Fraction(6659, 75516)
    assert e["6 cards: poltinnik (run >= 4)"] == Fraction(99, 12586)
    assert e["9 cards: at least a terts"] == Fraction(373011, 1168700)
    assert e["9 cards: run >= 4"] == Fraction(113, 1885)
    assert abs(float(e["9 cards: best is exactly a terts"]) - 0.2592205014) < 1e-10
    assert e["9 cards: run >= 3 in hearts"] == Fraction(24501, 292175)
    assert e["6 cards: bella in hearts"] == Fraction(15, 496)
    assert e["9 cards: bella in hearts"] == Fraction(9, 124)
    assert e["two hands: either has bella in hearts"] == Fraction(9, 62)
    assert e["two hands: at least one run >= 3"] == Fraction(50382672759, 95504995300)
    assert e["two hands: both have run >= 3"] == Fraction(10581499059, 95504995300)
    assert e["two hands: at least one run >= 4"] == Fraction(50029918, 434113615)


def test_monte_carlo_odds_match_exact(runslow):
    deals = 4_000_000 if runslow else 400_000
    result = run(RunConfig("klabor", "odds", "standard", deals=deals, seed=20261130), workers=2)
    table = k.odds_table(result.counters)
    assert len(table) == 12
    assert (table.z.abs() < 4.5).all(), table[["event", "estimate", "exact", "z"]]
    # Both seats' events: the deals where both 9-card hands have a run >= 3 are counted twice over
    # (both_run3 and both_seats), and both hands cannot hold the K+Q of hearts.
    c = result.counters
    assert c["both_seats"][2] == c["both_run3"][0] and c["both_seats"][6] == c["both_seats"][7] == 0
    assert c["longest9"][:, 3:].sum() - c["both_seats"][2] == c["any_run3"][0]
    # the design effect of "9 cards: at least a terts" from the exact joint probability: 1.0411
    p, q = (float(k.exact_odds()[e]) for e in ("9 cards: at least a terts", "two hands: both have run >= 3"))
    row = table.set_index("event").loc["9 cards: at least a terts"]
    assert row.design_effect == pytest.approx((2 * p + 2 * q - 4 * p * p) / (2 * p * (1 - p)), abs=0.02)
    assert table.set_index("event").loc["9 cards: bella in hearts", "design_effect"] < 1    # exclusive


# ---------------------------------------------------------------------------------------------
# The kernel against the reference

def _layouts(n, seed):
    rng = np.random.default_rng(seed)
    out, cards = [], []
    for _ in range(n):
        c = [DECK.cards[i] for i in rng.permutation(32)[:20]]
        cards.append(c)
        out.append(k.layout_row(c[0:6], c[6:12], c[12], c[13:16], c[16:19], c[19]))
    return np.array(out, np.int64), cards


VARIANTS = [{}, {"must_head_trump": False, "tie": "half", "threshold": 30},
            {"seq_tie": "elder", "long_runs": "split", "dix_value": 10, "bella_policy": "strategic", "threshold": 40},
            {"no_trick_no_melds": True, "schmeiss": True, "tie": "carry", "threshold": 35, "dix_swap": "never"}]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_kernel_matches_reference(variant, runslow):
    options = GAME.resolve_rules("standard", VARIANTS[variant])
    layouts, cards = _layouts(6000 if runslow else 1500, 100 + variant)
    rows = kernel.play_deals(layouts, k.kernel_spec(options))
    played = 0
    for row, c in zip(rows, cards):
        f = k.row_dict(row)
        r = ref.play_deal([c[0:6], c[6:12]], [c[13:16], c[16:19]], c[12], options)
        for key in ("void", "maker", "round", "schmeiss_annulled"):
            assert f[key] == r[key], (key, c)
        if r["void"]:
            continue
        played += 1
        assert f["trump"] == r["trump"] and f["swapper"] == r["swapper"], c
        assert [DECK.card(f[f"play{i}"]) for i in range(18)] == r["plays"], c
        assert [f[f"winner{t}"] for t in range(9)] == r["winners"]
        assert f["seq_winner"] == r["seq_winner"] and f["last_winner"] == r["last_winner"]
        for name in ("seq", "bella", "dix", "cards", "tricks", "total", "score"):
            assert (f[f"{name}_elder"], f[f"{name}_dealer"]) == tuple(r[name]), (name, c)
        assert f["baited"] == r["baited"] and f["carried"] == r["carried"]
    assert played > len(cards) // 3


def test_double_dummy_matches_minimax():
    rng = np.random.default_rng(5)
    for trial in range(150):
        n = 1 + trial % 4
        cards = [DECK.cards[i] for i in rng.permutation(32)[:2 * n]]
        me, opp = set(cards[:n]), set(cards[n:])
        trump = "SHDC"[trial % 4]
        for me_leads in (True, False):
            for head in (True, False):
                expected = ref.dd_minimax(me, opp, me_leads, trump, head)
                got = kernel.dd_value(DECK.mask(list(me)), DECK.mask(list(opp)), me_leads, "SHDC".index(trump), head)
                assert got == expected, (me, opp, me_leads, trump, head)


# ---------------------------------------------------------------------------------------------
# Invariants under random play

def _random_rows(n, overrides, play, seed=11):
    options = GAME.resolve_rules("standard", overrides)
    spec = k.kernel_spec(options, {"play_a": play, "play_b": play})
    rows = np.zeros((n, len(kernel.ROW_FIELDS)), np.int32)
    counters = kernel.deals_shard([np.random.PCG64(seed), np.random.PCG64(seed + 1)], n, spec, rows=rows)
    return rows, counters, options


@pytest.mark.parametrize("play", ["random", "greedy"])
def test_invariants_and_legality_under_play(play):
    rows, counters, options = _random_rows(3000, {"threshold": 30}, play)
    checked = 0
    for row in rows:
        f = k.row_dict(row)
        hands = [f["elder_first"] | f["elder_second"], f["dealer_first"] | f["dealer_second"]]
        assert hands[0] & hands[1] == 0 and all(bin(h).count("1") == 9 for h in hands)
        if f["void"]:
            continue
        plays = [DECK.card(f[f"play{i}"]) for i in range(18)]
        assert len(set(plays)) == 18
        # Card points of the 18 cards in play + last trick = the two trick piles.
        trump = "SHDC"[f["trump"]]
        assert f["cards_elder"] + f["cards_dealer"] == k.card_points(plays, trump)
        assert f["tricks_elder"] + f["tricks_dealer"] == 9
        m = f["maker"]
        totals = (f["total_elder"], f["total_dealer"])
        assert (f["score_elder"], f["score_dealer"])[m] in (0, totals[m])
        assert f["score_elder"] + f["score_dealer"] == sum(totals)
        if checked < 600:   # replay the sequence through the checked single-deal API
            r = k.score_deal(DECK.format(hands[0]), DECK.format(hands[1]), DECK.card(f["turnup"]), trump,
                             k.SEATS[m], plays, threshold=options["threshold"])
            assert r.score == (f["score_elder"], f["score_dealer"])
            checked += 1
    assert counters["deals"][0] == 3000
    assert counters["made"].sum() + counters["void"][0] == 3000
    assert counters["score_hist"][0].sum() == counters["made"].sum()


def test_same_seed_same_result_and_shards_add_up():
    a = run(RunConfig("klabor", "deals", "standard", deals=30_000, seed=4, shard_size=10_000), workers=1)
    b = run(RunConfig("klabor", "deals", "standard", deals=30_000, seed=4, shard_size=10_000), workers=2)
    for key in a.counters:
        assert np.array_equal(a.counters[key], b.counters[key]), key


def test_thresholds_and_games_analyses():
    th = run(RunConfig("klabor", "thresholds", "standard", deals=3000, seed=2), workers=2)
    table = k.thresholds_table(th.counters, th.config.rule_options)
    assert len(table) == len(kernel.THRESHOLDS) and table.best.sum() == 1
    c = th.counters
    assert np.all(c["made"].sum(axis=2) + c["opp_made"] + c["void"] == 3000)
    assert np.all(c["baited"] <= c["made"])
    # A threshold nobody reaches leaves every deal to the baseline opponent or void.
    assert c["made"][-1].sum() < c["made"][0].sum()
    games = run(RunConfig("klabor", "games", "standard", deals=300, seed=3), workers=2)
    g = games.counters
    assert g["winner"].sum() + g["unfinished"][0] == 300
    assert g["deals_hist"].sum() == 300 and g["deals_hist"][:2].sum() == 0   # 501 needs 3+ deals
    assert k.games_table(g).shape[0] >= 6


def test_pimc_plays_legal_deals():
    rows, counters, options = _random_rows(40, {"pimc_samples": 4, "threshold": 30}, "pimc", seed=21)
    for row in rows:
        f = k.row_dict(row)
        if f["void"]:
            continue
        hands = [f["elder_first"] | f["elder_second"], f["dealer_first"] | f["dealer_second"]]
        plays = [DECK.card(f[f"play{i}"]) for i in range(18)]
        r = k.score_deal(DECK.format(hands[0]), DECK.format(hands[1]), DECK.card(f["turnup"]), "SHDC"[f["trump"]],
                         k.SEATS[f["maker"]], plays)
        assert r.score == (f["score_elder"], f["score_dealer"])


# ---------------------------------------------------------------------------------------------
# Golden playthroughs

GOLDEN_CASES = [("greedy-seed1", 1, {}), ("greedy-seed2", 2, {"threshold": 30}),
                ("greedy-seed7-strategic-bella", 7, {"threshold": 30, "bella_policy": "strategic"}),
                ("pimc-seed3", 3, {"elder_play": "pimc", "dealer_play": "pimc", "threshold": 30}),
                ("pimc-vs-greedy-seed5", 5, {"elder_play": "pimc", "threshold": 40})]


def _golden_text(seed, overrides):
    c = k.random_layout(seed)
    return k.play_deal(c[0:6], c[6:12], c[12], c[13:16], c[16:19], c[19], seed=seed, **overrides).explain() + "\n"


@pytest.mark.parametrize("name,seed,overrides", GOLDEN_CASES, ids=[c[0] for c in GOLDEN_CASES])
def test_golden_playthroughs(name, seed, overrides):
    assert _golden_text(seed, overrides) == (GOLDEN / f"{name}.txt").read_text()


def regenerate_golden():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, seed, overrides in GOLDEN_CASES:
        (GOLDEN / f"{name}.txt").write_text(_golden_text(seed, overrides))


if __name__ == "__main__" and "--regen" in sys.argv:
    regenerate_golden()


# ---------------------------------------------------------------------------------------------
# Command line and the duplicate-deal design

def test_cli_score_and_errors(capsys):
    from analyzer.cli import main

    args = ["klabor", "score", "--elder", K17["elder"], "--dealer", K17["dealer"], "--turnup", "8H",
            "--trump", "H", "--maker", "elder", "--plays", K17["plays"]]
    assert main(args) == 0
    assert "Bait! Score: elder 0, dealer 161" in capsys.readouterr().out
    bad = list(args)
    bad[-1] = K17["plays"].replace("JH 8H", "JH 7H", 1)
    assert main(bad) == 2
    assert "trick 1: 7H is not in the dealer's hand" in capsys.readouterr().err
    assert main(["klabor", "play", "--seed", "3", "--set", "threshold=x"]) == 2
    assert "option threshold must be an integer" in capsys.readouterr().err


def test_threshold_equal_to_baseline_nets_zero():
    # With the hero at the baseline's threshold and the same play, the two seatings of a deal
    # mirror each other: the hero's net over the pair is exactly zero on every deal.
    th = run(RunConfig("klabor", "thresholds", "standard", deals=2000, seed=8,
                       overrides={"opponent_threshold": 50}), workers=1)
    k50 = kernel.THRESHOLDS.index(50)
    assert th.counters["net_sum"][k50] == 0 and th.counters["net_cross"][k50, k50] == 0
    assert th.counters["net_cross"][k50 + 1, k50 + 1] > 0


@pytest.mark.parametrize("overrides", [{"next_dealer": "winner"}, {"next_dealer": "loser", "tie": "carry"},
                                       {"schmeiss": True, "threshold": 40}])
def test_game_options_run_and_add_up(overrides):
    g = run(RunConfig("klabor", "games", "standard", deals=200, seed=5, overrides=overrides), workers=1).counters
    assert g["winner"].sum() + g["unfinished"][0] == 200 == g["deals_hist"].sum()
    assert g["margin_hist"].sum() == g["winner"].sum()


def test_tiny_target_ends_at_the_first_played_deal():
    # Target 1: a played deal never leaves the scores level (made: maker's total > opponent's;
    # bait: 0 against a positive sum), so every game ends at its first non-void deal.
    g = run(RunConfig("klabor", "games", "standard", deals=500, seed=6, overrides={"target": 1}), workers=1).counters
    assert g["winner"].sum() == 500
    deals = np.arange(len(g["deals_hist"]))
    assert (g["deals_hist"] * deals).sum() == 500 + g["void_deals"][0]
    # so a game's void deals are its deals less one: their squares, and the table's interval
    voids = np.repeat(deals - 1, g["deals_hist"]).astype(float)
    assert g["void_deals_sq"][0] == (voids ** 2).sum() and voids.max() >= 1
    row = k.games_table(g).set_index("quantity").loc["void deals per game (mean)"]
    half = 1.959964 * voids.std(ddof=1) / np.sqrt(500)
    assert (row.estimate, row.ci_low, row.ci_high) == pytest.approx((voids.mean(), voids.mean() - half, voids.mean() + half),
                                                                 rel=1e-6)


def test_strategic_bella_only_hides_a_bella_that_cannot_save_the_maker():
    layouts, _ = _layouts(3000, 31)
    always = kernel.play_deals(layouts, k.kernel_spec(GAME.resolve_rules("standard", {"threshold": 30})))
    quiet = kernel.play_deals(layouts, k.kernel_spec(GAME.resolve_rules("standard", {"threshold": 30,
                                                                                     "bella_policy": "strategic"})))
    hidden = 0
    for a, q in zip(always, quiet):
        fa, fq = k.row_dict(a), k.row_dict(q)
        if fa["void"]:
            continue
        assert fa["baited"] == fq["baited"]          # keeping quiet never changes who wins the deal
        m = k.SEATS[fa["maker"]]
        if fa["bella_holder"] == fa["maker"] and fa["baited"]:
            assert fq[f"bella_{m}"] == 0
            assert sum((fq["score_elder"], fq["score_dealer"])) == sum((fa["score_elder"], fa["score_dealer"])) - 20
            hidden += 1
        else:
            assert (fq["score_elder"], fq["score_dealer"]) == (fa["score_elder"], fa["score_dealer"])
    assert hidden > 10


def test_deal_outcomes_add_up_with_schmeiss_and_without_any_played_deal():
    # void (both pass twice), annulled by schmeiss and made are three different ends of a deal:
    # the void row once counted the annulled deals a second time
    c = run(RunConfig("klabor", "deals", "standard", 4000, seed=3, overrides={"schmeiss": True})).counters
    table = k.deals_table(c).set_index("event")
    void, annulled = table.loc["void deal (both pass twice)", "count"], table.loc["annulled by schmeiss", "count"]
    assert annulled > 0 and void + annulled + table.loc["maker", "count"].sum() == 4000
    # no deal played (a threshold nobody reaches): the per-played-deal means are missing, not 0
    c = run(RunConfig("klabor", "deals", "standard", 1, seed=3, overrides={"threshold": 120})).counters
    means = k.deals_table(c).set_index("event").loc[["mean score per played deal"], ["n", "estimate"]]
    assert (means.n == 0).all() and means.estimate.isna().all()


def test_thresholds_table_from_one_deal_gives_no_interval():
    # one deal once gave "-32 (-32 to -32)" and an opponent bait rate of 0 with no opponent contract
    c = run(RunConfig("klabor", "thresholds", "standard", 1, seed=1)).counters
    table = k.thresholds_table(c, GAME.resolve_rules("standard"))
    assert table["net ci_low"].isna().all() and table["diff ci_high"].isna().all()
    no_contract = c["opp_made"].reshape(len(table), -1).sum(axis=1) == 0
    assert no_contract.any() and table["opponent bait rate"][no_contract].isna().all()


# ---------------------------------------------------------------------------------------------
# Game end (§7) at its boundaries, and whole games replayed by hand from single deals

def test_game_end_at_exactly_the_target():
    # §7: "has >= 501" wins; the margin is 501 - loser unless the loser also passed 501.
    assert k.game_result(501, 377) == ("first", 124)        # exactly 501 is enough
    assert k.game_result(377, 501) == ("second", 124)
    assert k.game_result(520, 501) == ("first", 19)         # loser at exactly 501 has passed it: 520 - 501
    assert k.game_result(501, 500) == ("first", 1)          # 501 - 500
    assert k.game_result(501, 501) == (None, 0)             # equal: play on
    assert k.game_result(100, 99, target=100) == ("first", 1)


@pytest.mark.parametrize("overrides", [{"tie": "carry", "next_dealer": "alternate"},
                                       {"tie": "carry", "next_dealer": "winner"},
                                       {"tie": "bait", "next_dealer": "loser", "target": 301}])
def test_games_kernel_matches_a_replay_of_single_deals(overrides):
    # With both players greedy at one threshold the games kernel draws the same deals as the deals
    # kernel, so its games can be replayed from the deal rows with §7 done by hand: scores add up
    # per player (the seats alternate or follow the winner/loser of the deal), a carried tie goes to
    # the higher scorer of the next deal that is not level, >= target ends the game unless the two
    # totals are equal, and the margin is target - loser (winner - loser if the loser passed too).
    options = GAME.resolve_rules("standard", dict(overrides, threshold=35))
    spec = k.kernel_spec(options)
    n_games, target = 150, options["target"]
    g = kernel.games_shard([np.random.PCG64(17), np.random.PCG64(18)], n_games, spec)
    n_rows = 30 * n_games
    rows = np.zeros((n_rows, len(kernel.ROW_FIELDS)), np.int32)
    kernel.deals_shard([np.random.PCG64(17), np.random.PCG64(18)], n_rows, spec, rows=rows)
    deals = iter(rows)
    winners, margins, lengths, carried_games = [0, 0], {}, {}, 0
    for _ in range(n_games):
        score, dealer, carry, n, had_carry = [0, 0], 1, 0, 0, False
        while True:
            n += 1
            f = k.row_dict(next(deals))
            elder = 1 - dealer
            if f["void"]:
                dealer = elder
                continue
            e, d = f["score_elder"], f["score_dealer"]
            score[elder] += e
            score[dealer] += d
            if carry and e != d:
                score[elder if e > d else dealer] += carry
                carry = 0
            carry += f["carried"]
            had_carry |= f["carried"] > 0
            over = [s >= target for s in score]
            if any(over) and score[0] != score[1]:
                w = 0 if score[0] > score[1] else 1
                margin = score[w] - score[1 - w] if over[1 - w] else target - score[1 - w]
                winners[w] += 1
                margins[margin] = margins.get(margin, 0) + 1
                break
            if options["next_dealer"] == "alternate" or e == d:
                dealer = elder
            elif options["next_dealer"] == "winner":
                dealer = 0 if (e > d) == (elder == 0) else 1
            else:
                dealer = 0 if (e < d) == (elder == 0) else 1
        lengths[n] = lengths.get(n, 0) + 1
        carried_games += had_carry
    assert list(g["winner"]) == winners and g["unfinished"][0] == 0
    assert {m: int(c) for m, c in enumerate(g["margin_hist"]) if c} == margins
    assert {n: int(c) for n, c in enumerate(g["deals_hist"]) if c} == lengths
    if options["tie"] == "carry":
        assert carried_games > 5
