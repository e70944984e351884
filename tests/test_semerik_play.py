"""Semerik card play and games: invariants under random and greedy play, the compiled kernel
against the pure-Python reference (semerik_reference.py) deal by deal, what PIMC may know, golden
playthroughs (tests/golden/semerik/, regenerate with `python tests/test_semerik_play.py --regen`)
and the command line.

A note on orientation: seat s's partnership is s % 2 (A = seats 0, 2)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer._core import semerik as kernel
from analyzer.cards import SEMERIK40
from analyzer.cli import main
from analyzer.games.semerik import (PRESETS, deal_points_distribution, deal_table, declaration_table, games_table,
                                    play_deal, replay_deal)
from analyzer.stats import wilson
from analyzer.runner import RunConfig, run

sys.path.insert(0, str(Path(__file__).parent))
import semerik_reference as ref  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "semerik"
L = kernel.DEAL_ROW
DEFAULT = PRESETS["default"]


def options(**kw):
    return dict(DEFAULT, **kw)


def generators(seed):
    return [np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0, k))) for k in range(2)]


def played_rows(n, seed, **kw):
    rows = np.zeros((n, L["width"]), np.uint64)
    counters = kernel.deals_shard(generators(seed), n, options(**kw), rows=rows)
    return rows, counters


def hands_of(row):
    return [SEMERIK40.from_mask(int(row[L["hands"] + s])) for s in range(4)]


def plays_of(row):
    return [SEMERIK40.card(int(b)) for b in row[L["plays"]:L["plays"] + 40]]


# --------------------------------------------------------------------------------------------
# 1. Invariants

@pytest.mark.parametrize("strategies", [("random", "random"), ("greedy", "greedy"), ("greedy", "random")])
def test_invariants_under_play(strategies):
    n = 3000
    rows, counters = played_rows(n, 17, strategy_a=strategies[0], strategy_b=strategies[1])
    full = SEMERIK40.full_mask
    for d, row in enumerate(rows):
        hands = [int(row[L["hands"] + s]) for s in range(4)]
        assert sum(hands) == full and all(bin(h).count("1") == 10 for h in hands)
        assert int(row[L["dealer"]]) == d % 4
        plays = [int(b) for b in row[L["plays"]:L["plays"] + 40]]
        assert sorted(plays) == sorted(SEMERIK40.bit(c) for c in SEMERIK40.cards)     # every card once
        trick_points = [int(row[L["trick_points"] + p]) for p in range(2)]
        assert sum(trick_points) <= 16 and min(trick_points) >= 0
        decl = [int(x) for x in row[L["declarations"]:L["declarations"] + 4]]
        assert [int(row[L["total"] + p]) for p in range(2)] == [trick_points[p] + decl[p] + decl[p + 2] for p in (0, 1)]
    # Every deal puts all 24 honours into tricks; the honours won by the two roles add up to 24.
    honours = counters["trick_honours"] @ np.arange(5)
    assert honours.sum() == 24 * n
    assert counters["honours_hist"].sum(axis=0) @ np.arange(25) == 24 * n
    assert (counters["tricks_hist"] @ np.arange(11)).sum() == 10 * n
    assert counters["outcome"].sum() == counters["side_outcome"].sum() == n
    # At least one point is always won in tricks (ten tricks cannot hold 24 honours two by two).
    assert np.all(rows[:, L["trick_points"]] + rows[:, L["trick_points"] + 1] >= 1)


def test_share_of_points_from_declarations_and_its_interval():
    # The kernel's per-deal moments against the rows; the share is a ratio of sums, its interval
    # the delta method's: residuals d - R (d + t) over the deals, divided by the mean points.
    n = 2000
    rows, counters = played_rows(n, 23)
    decl = rows[:, L["declarations"]:L["declarations"] + 4].astype(np.int64).sum(axis=1)
    tricks = rows[:, L["trick_points"]:L["trick_points"] + 2].astype(np.int64).sum(axis=1)
    assert counters["points_moments"].tolist() == [decl.sum(), tricks.sum(), (decl ** 2).sum(), (tricks ** 2).sum(),
                                                   (decl * tricks).sum()]
    points = decl + tricks
    share = decl.sum() / points.sum()
    half = 1.959964 * np.std(decl - share * points, ddof=1) / np.sqrt(n) / points.mean()
    row = deal_table(counters).set_index("event").loc["share of points from declarations"]
    assert (row.estimate, row.ci_low, row.ci_high) == pytest.approx((share, share - half, share + half), rel=1e-6)
    assert 0 < half < 0.05
    # two deals: no interval (the delta method's reached below 0 there), only the share
    _, two = played_rows(2, 2)
    row = deal_table(two).set_index("event").loc["share of points from declarations"]
    assert row.estimate == pytest.approx(3 / 7) and np.isnan(row.ci_low) and np.isnan(row.ci_high)


def test_deal_points_distribution_counts_each_partnership_by_role():
    n = 1500
    rows, counters = played_rows(n, 31)
    table = deal_points_distribution(counters)
    dealing_side = rows[:, L["dealer"]].astype(np.int64) % 2
    totals = rows[:, L["total"]:L["total"] + 2].astype(np.int64)
    by_role = {"dealing": totals[np.arange(n), dealing_side], "leading": totals[np.arange(n), 1 - dealing_side]}
    assert (table.n == n).all()
    for role, points in by_role.items():
        assert table[role].tolist() == pytest.approx([(points == k).mean() for k in table.points])
        low, high = wilson((points == 3).sum(), n)
        assert (table.loc[3, f"{role}_ci_low"], table.loc[3, f"{role}_ci_high"]) == pytest.approx((float(low), float(high)))
        assert table[role].sum() == pytest.approx(1.0)


def test_pooled_hand_rates_allow_for_the_hands_of_a_deal_not_being_independent():
    # The kernel's sums of squares against the rows (the four hands' points); the pooled rows'
    # intervals are Wilson at the effective sample size that the deals' variance gives.
    n = 20_000
    rows = np.zeros((n, 8), np.uint64)
    counters = kernel.declarations_shard(generators(11), n, options(), rows=rows)
    points = rows[:, 4:].astype(np.int64)
    declared = (points > 0).sum(axis=1)
    assert counters["declared_sq"][0] == (declared ** 2).sum()
    assert counters["deal_points_sq"][0] == (points.sum(axis=1) ** 2).sum()
    for v in range(40):
        assert counters["points_sq"][v] == (((points == v).sum(axis=1)) ** 2).sum(), v
    assert counters["any_baba_sq"][0] >= counters["any_baba"][0] > 0
    table = declaration_table(counters, options()).set_index("event")
    row = table.loc["at least one declaration"]
    row = row[row.section == "hand"].iloc[0]
    deff = declared.var(ddof=1) / (4 * row.estimate * (1 - row.estimate))
    assert deff > 1.05          # positively dependent: the independent interval would be too narrow
    low, high = wilson(declared.sum() / deff, 4 * n / deff)
    assert (row.ci_low, row.ci_high) == pytest.approx((float(low), float(high)), rel=1e-9)
    # the mean points of a hand: a deal's total over four, with the deals' spread
    mean = table.loc["mean declaration points"]
    mean = mean[mean.who == "any hand"].iloc[0]
    half = 1.959964 * points.sum(axis=1).std(ddof=1) / np.sqrt(n) / 4
    assert (mean.ci_low, mean.ci_high) == pytest.approx((mean.estimate - half, mean.estimate + half), rel=1e-6)


def test_same_seed_same_result_on_any_number_of_workers():
    config = RunConfig("semerik", "deals", "default", deals=6000, seed=5, shard_size=1500,
                       strategies={"play_b": "random"})
    one = run(config, workers=1)
    two = run(config, workers=2, backend="processes")
    for key in one.counters:
        assert np.array_equal(one.counters[key], two.counters[key]), key
    games = RunConfig("semerik", "games", "default", deals=2000, seed=5, shard_size=500)
    a, b = run(games, workers=1), run(games, workers=2)
    assert all(np.array_equal(a.counters[k], b.counters[k]) for k in a.counters)


def test_game_invariants():
    n = 4000
    rows = np.zeros((n, len(kernel.GAME_ROW_FIELDS)), np.int64)
    counters = kernel.games_shard(generators(9), n, options(), rows=rows)
    deals, a, b, winner, value, first = rows.T
    assert np.all(np.maximum(a, b) >= 21) and np.all(a != b)
    assert np.array_equal(winner, (b > a).astype(int))
    loser = np.minimum(a, b)
    assert np.array_equal(value, np.where(loser < 11, 2, 1))
    assert np.array_equal(first, np.arange(n) % 4)
    assert counters["wins"].sum() == counters["role_wins"].sum() == n
    assert counters["length_hist"].sum() == n and counters["deals"][0] == deals.sum()
    assert counters["double_wins"].sum() == (value == 2).sum()
    # Declarations may end the game before play under the Tressette option.
    tress = kernel.games_shard(generators(9), 2000, dict(PRESETS["tressette"]))
    assert tress["ended_on_declarations"][0] > 0


# --------------------------------------------------------------------------------------------
# 4. Cross-implementation: kernel against the reference

OPTION_SETS = [
    {},
    {"heart_baba": "literal"},
    {"overlap": "disallowed"},
    {"four_of_kind_bonus": True, "overlap": "disallowed"},
]


@pytest.mark.parametrize("kw", OPTION_SETS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "default")
def test_declarations_match_reference(kw, runslow):
    n = 20_000 if runslow else 5_000
    rows = np.zeros((n, kernel.DECL_ROW_WIDTH), np.uint64)
    counters = kernel.declarations_shard(generators(3), n, options(**kw), rows=rows)
    o = options(**kw)
    for row in rows:
        for s in range(4):
            hand = SEMERIK40.from_mask(int(row[s]))
            assert int(row[4 + s]) == ref.declaration_points(hand, o), (hand, kw)
    assert np.array_equal(counters["points_hist"].sum(axis=0)[:40],
                          np.bincount(rows[:, 4:].ravel().astype(np.int64), minlength=40))


def test_declarations_match_reference_on_rich_hands():
    # Random hands drawn mostly from the honours, where babas and sets pile up.
    rng = np.random.default_rng(8)
    honours = [c for c in SEMERIK40.cards if c[0] in "32AKQJ"]
    low = [c for c in SEMERIK40.cards if c[0] not in "32AKQJ"]
    for kw in OPTION_SETS + [{"heart_baba": "literal", "overlap": "disallowed", "four_of_kind_bonus": True}]:
        o = options(**kw)
        for _ in range(1500):
            k = int(rng.integers(6, 11))
            hand = list(rng.choice(honours, k, replace=False)) + list(rng.choice(low, 10 - k, replace=False))
            got = kernel.declaration_breakdown(SEMERIK40.mask(hand), o)
            assert got["points"] == ref.declaration_points(hand, o), (hand, kw)
            assert set(SEMERIK40.from_mask(got["shown"])) == ref.shown_cards(hand)


@pytest.mark.parametrize("kw", [{}, {"direction": "counterclockwise"}, {"ruff_min_honours": 2},
                                {"honour_count": "aggregate", "last_trick_point": 1, "capot": "replaces"}],
                         ids=["default", "counterclockwise", "ruff2", "tressette-scoring"])
def test_greedy_play_matches_reference(kw, runslow):
    n = 3000 if runslow else 600
    rows, _ = played_rows(n, 21, **kw)
    o = options(**kw)
    for row in rows:
        expected = ref.play(hands_of(row), int(row[L["dealer"]]), o)
        assert plays_of(row) == expected["plays"]
        assert [int(w) for w in row[L["winners"]:L["winners"] + 10]] == expected["winners"]
        assert [int(row[L["trick_points"] + p]) for p in range(2)] == expected["trick_points"]
        assert [int(row[L["total"] + p]) for p in range(2)] == expected["totals"]


@pytest.mark.parametrize("strategy", ["random", "pimc"])
def test_other_strategies_play_legally_and_score_like_reference(strategy):
    n = 1500 if strategy == "random" else 40
    rows, _ = played_rows(n, 33, strategy_a=strategy, strategy_b="random", pimc_worlds=4)
    for row in rows:
        expected = ref.play(hands_of(row), int(row[L["dealer"]]), DEFAULT, plays=plays_of(row))  # checks legality
        assert [int(w) for w in row[L["winners"]:L["winners"] + 10]] == expected["winners"]
        assert [int(row[L["total"] + p]) for p in range(2)] == expected["totals"]


def test_play_deals_reproduces_the_shard_and_replay_rescores_it():
    rows, _ = played_rows(200, 4)
    hands = rows[:, :4]
    again = kernel.play_deals(hands, rows[:, L["dealer"]].astype(np.int64), options(), np.random.PCG64(0))
    assert np.array_equal(rows, again)
    for row in rows[:50]:
        r = replay_deal([" ".join(h) for h in hands_of(row)], plays_of(row), dealer=int(row[L["dealer"]]))
        assert r.totals == (int(row[L["total"]]), int(row[L["total"] + 1]))


def test_game_check_matches_reference():
    for o in (options(), options(target=31, double_below=16)):
        for a in range(0, 45):
            for b in range(0, 45):
                winner, value = ref.game_status(a, b, o)
                assert kernel.game_status(a, b, o) == (-1 if winner is None else winner, value), (a, b)


# --------------------------------------------------------------------------------------------
# What PIMC may know: its decision depends on its own hand and on public information only.

def test_pimc_decision_ignores_how_unseen_cards_lie():
    rng = np.random.default_rng(12)
    cards = SEMERIK40.cards
    checked = 0
    while checked < 6:
        perm = list(rng.permutation(cards))
        mine, rest = perm[:10], perm[10:]
        firsts = set()
        for _ in range(6):
            rest = list(rng.permutation(rest))
            others = [rest[0:10], rest[10:20], rest[20:30]]
            if any(kernel.declaration_breakdown(SEMERIK40.mask(h), DEFAULT)["shown"] for h in others):
                continue          # a declaration would show cards: different public information
            hands = np.array([[SEMERIK40.mask(h) for h in [mine] + others]], np.uint64)
            row = kernel.play_deals(hands, np.array([3]), options(strategy_a="pimc", pimc_worlds=8),
                                    np.random.PCG64(77))[0]
            firsts.add(int(row[L["plays"]]))
        if firsts:
            assert len(firsts) == 1
            checked += 1


def test_pimc_beats_greedy_and_greedy_beats_random():
    pimc = kernel.deals_shard(generators(2), 300, options(strategy_a="pimc", pimc_worlds=12))
    greedy = kernel.deals_shard(generators(2), 20_000, options(strategy_b="random"))
    mean = lambda h: (h @ np.arange(h.shape[-1])) / h.sum()
    assert mean(pimc["side_points_hist"][0]) > mean(pimc["side_points_hist"][1])
    assert mean(greedy["side_points_hist"][0]) > mean(greedy["side_points_hist"][1])


# --------------------------------------------------------------------------------------------
# 3. Golden playthroughs

GOLDEN_CASES = [("greedy_seed1", 1, {}), ("pimc_vs_greedy_seed2", 2, {"play_a": "pimc"}),
                ("random_counterclockwise_seed3", 3, {"play_a": "random", "play_b": "random",
                                                      "direction": "counterclockwise"})]


def golden_text(seed, kw):
    rng = np.random.default_rng(seed)
    perm = list(rng.permutation(SEMERIK40.cards))
    hands = [" ".join(perm[10 * s:10 * s + 10]) for s in range(4)]
    return play_deal(hands, dealer=seed % 4, seed=seed, **kw).explain() + "\n"


@pytest.mark.parametrize("name,seed,kw", GOLDEN_CASES, ids=[g[0] for g in GOLDEN_CASES])
def test_golden_playthroughs(name, seed, kw):
    assert golden_text(seed, kw) == (GOLDEN / f"{name}.txt").read_text()


def regenerate():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, seed, kw in GOLDEN_CASES:
        (GOLDEN / f"{name}.txt").write_text(golden_text(seed, kw))
        print("wrote", GOLDEN / f"{name}.txt")


# --------------------------------------------------------------------------------------------
# Command line

def test_cli_odds_deals_games(capsys, tmp_path):
    assert main(["semerik", "odds", "--deals", "20000", "--seed", "3", "--workers", "1", "--json", "--no-store"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["deals"] == 20000 and any(r["event"] == "baba in hearts" for r in data["table"])
    assert main(["semerik", "odds", "--deals", "20000", "--distribution", "--workers", "1", "--no-store"]) == 0
    assert "declaration points" not in capsys.readouterr().err
    csv = tmp_path / "deals.csv"
    assert main(["semerik", "deals", "--deals", "5000", "--a", "greedy", "--b", "random", "--workers", "1",
                 "--csv", str(csv), "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "A (greedy)" in out and "B (random)" in out and csv.exists()
    assert main(["semerik", "games", "--deals", "500", "--workers", "1", "--set", "target=31", "--no-store"]) == 0
    assert "mean deals per game" in capsys.readouterr().out


def test_cli_explain_play_and_errors(capsys):
    assert main(["semerik", "explain", "3H 2H AH KH 3S 2S AS 3D 2D AD"]) == 0
    assert "-> 26" in capsys.readouterr().out
    hands = ["3S KS 6S 2H AH QD JD 7D 2C 4C", "AS 6H 5H AD 6D 4D 3C KC QC JC",
             "2S 7S 3H 7H 3D 2D KD 7C 6C 5C", "QS JS 5S 4S KH QH JH 4H 5D AC"]
    assert main(["semerik", "play", "--hands", *hands]) == 0
    out = capsys.readouterr().out
    assert "trick 10" in out and "A: declarations" in out
    assert main(["semerik", "explain", "3H 2H AH KH 3S 2S AS 3D 2D"]) == 2
    assert "has 9 cards, expected 10" in capsys.readouterr().err
    assert main(["semerik", "deals", "--deals", "100", "--set", "capot=double", "--no-store"]) == 2
    assert "capot must be one of" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# Games and deal counters against hand-made bookkeeping (mutation audit)

def _reference_games(n_games, seed, o):
    """Replay the games kernel in Python: the same deal stream (declarations_shard deals the same
    hands in the same order), greedy play from the reference, rules §6 for the game check."""
    hands_stream = np.zeros((n_games * 40, kernel.DECL_ROW_WIDTH), np.uint64)
    kernel.declarations_shard(generators(seed), len(hands_stream), o, rows=hands_stream)
    step = 1 if o["direction"] == "clockwise" else 3
    k, games = 0, []
    for g in range(n_games):
        dealer, score, n, on_decl = g % 4, [0, 0], 0, False
        while True:
            n += 1
            hands = [SEMERIK40.from_mask(int(hands_stream[k, s])) for s in range(4)]
            k += 1
            deal = ref.play(hands, dealer, o)
            decl = deal["declarations"]
            score = [score[p] + decl[p] + decl[p + 2] for p in (0, 1)]
            if o["check_after_declarations"] and ref.game_status(*score, o)[0] is not None:
                on_decl = True
                break
            score = [score[p] + deal["trick_points"][p] for p in (0, 1)]
            if ref.game_status(*score, o)[0] is not None:
                break
            dealer = (dealer + step) % 4          # the deal passes to the left
        winner, value = ref.game_status(*score, o)
        games.append(dict(n=n, score=score, winner=winner, value=value, first=g % 4, on_decl=on_decl))
    return games


@pytest.mark.parametrize("preset", ["default", "tressette"])
def test_games_match_reference_game_by_game(preset):
    n = 150
    o = dict(PRESETS[preset])
    rows = np.zeros((n, len(kernel.GAME_ROW_FIELDS)), np.int64)
    counters = kernel.games_shard(generators(41), n, o, rows=rows)
    games = _reference_games(n, 41, o)
    for row, g in zip(rows.tolist(), games):
        assert row == [g["n"], g["score"][0], g["score"][1], g["winner"], g["value"], g["first"]], (row, g)
    assert counters["ended_on_declarations"][0] == sum(g["on_decl"] for g in games)
    # role 0: the partnership on the first dealer's left, which leads the game's first trick
    led_first = [g["winner"] == (g["first"] + 1) % 2 for g in games]
    assert counters["role_wins"].tolist() == [sum(led_first), n - sum(led_first)]
    assert counters["role_double_wins"].tolist() == [
        sum(lf and g["value"] == 2 for lf, g in zip(led_first, games)),
        sum(not lf and g["value"] == 2 for lf, g in zip(led_first, games))]
    if preset == "tressette":
        assert 0 < counters["ended_on_declarations"][0] < n


def test_games_table_length_rows_count_games_within_k_deals():
    n = 2000
    rows = np.zeros((n, len(kernel.GAME_ROW_FIELDS)), np.int64)
    counters = kernel.games_shard(generators(43), n, options(), rows=rows)
    table = games_table(counters, options()).set_index("event")
    for k in (2, 3, 4, 5, 6, 8):
        assert table.loc[f"game over within {k} deals", "count"] == (rows[:, 0] <= k).sum(), k
    assert 0 < (rows[:, 0] <= 2).sum() < n


def test_deal_outcome_and_capot_counters_by_role_match_the_rows():
    n = 3000
    rows, counters = played_rows(n, 47, strategy_a="greedy", strategy_b="random")
    lead = (rows[:, L["dealer"]].astype(np.int64) + 1) % 2          # the side on the dealer's left
    totals = rows[:, L["total"]:L["total"] + 2].astype(np.int64)
    mine, theirs = totals[np.arange(n), lead], totals[np.arange(n), 1 - lead]
    assert counters["outcome"].tolist() == [(mine > theirs).sum(), (mine < theirs).sum(), (mine == theirs).sum()]
    sides = rows[:, L["winners"]:L["winners"] + 10].astype(np.int64) % 2
    tricks_a = (sides == 0).sum(axis=1)
    tricks_lead = np.where(lead == 0, tricks_a, 10 - tricks_a)
    assert counters["capot"].tolist() == [(tricks_lead == 10).sum(), (tricks_lead == 0).sum()]
    assert ((tricks_lead == 9) | (tricks_lead == 1)).any()           # near-capots that must not count


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regenerate()
