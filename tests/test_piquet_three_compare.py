"""Three-handed piquet strategy comparison on duplicate deals (issue 7): the six plays of a deal
against ordinary single-deal runs on the same seed, separate strategy streams, labels, the CLI."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer._core import piquet_three as core
from analyzer.compare import COMPARE_COUNTERS, compare
from analyzer.games import get_game
from analyzer.games import piquet_three as p3
from analyzer.runner import shard_bit_generators

from compare_reference import compare_counters

RULES = get_game("piquet_three").resolve_rules("ru_three", {})
TWO = p3.two_handed_rules(RULES)
TOTAL = core.SCORE_FIELDS.index("total")


def roles(a: str, b: str) -> dict:
    return p3.compare_strategies(a, b)


def compare_totals(seed: int, shard: int, n: int, a: str, b: str, generators=None):
    """Counters and the per-play seat totals (n, 6, 3) of the compare kernel on one shard."""
    totals = np.zeros((n, 6, 3), np.int32)
    generators = generators or shard_bit_generators(seed, shard, 3)
    counters = core.compare_shard(generators, n, RULES, roles(a, b), TWO, totals)
    return {k: int(v[0]) for k, v in counters.items()}, totals.astype(np.int64)


def results_of(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-deal results of A and B from the six plays: in play k < 3 A sits alone in seat k, in
    play k >= 3 B sits alone in seat k - 3."""
    alone = np.array([[p == k % 3 for p in range(3)] for k in range(6)])
    a_seats = np.where(np.arange(6)[:, None] < 3, alone, ~alone)
    return (totals * a_seats).sum(axis=(1, 2)), (totals * ~a_seats).sum(axis=(1, 2))


def seat_strategies(a: str, b: str, play: int) -> dict:
    """Strategies of the ordinary deal analysis for play `play` of the compare kernel."""
    r = roles(a, b)
    who = ["a" if (p == play % 3) == (play < 3) else "b" for p in range(3)]
    return {"dealer_exchange": r[f"{who[0]}_exchange"], "dealer_play": r[f"{who[0]}_play"],
            "first_play": r[f"{who[1]}_play"], "third_play": r[f"{who[2]}_play"]}


def test_six_plays_are_the_ordinary_deals_with_every_seating():
    # Deterministic strategies: every play of the compare kernel is the ordinary deal kernel on
    # the same seed with that seating (so A and B each sit three times in every seat), and the
    # runner's counters (two shards) are their sums.
    a, b, n, seed = "heuristic+greedy", "refuse+greedy", 600, 11
    _, runs = compare("piquet_three", [a, b], deals=2 * n, seed=seed, shard_size=n)
    merged = {k: 0 for k in COMPARE_COUNTERS}
    for shard in range(2):
        counters, totals = compare_totals(seed, shard, n, a, b)
        assert counters == {k: int(v) for k, v in compare_counters(*results_of(totals)).items()}
        for play in range(6):
            single = core.sample_deals(shard_bit_generators(seed, shard, 4), n, RULES, seat_strategies(a, b, play), TWO)
            assert np.array_equal(totals[:, play], single["scores"][:, TOTAL]), (shard, play)
        merged = {k: merged[k] + counters[k] for k in merged}
    assert merged == {k: int(runs[0].counters[k][0]) for k in COMPARE_COUNTERS}


def test_counters_are_the_sums_of_the_plays_with_random_strategies():
    counters, totals = compare_totals(5, 0, 300, "random", "refuse+greedy")
    assert counters == {k: int(v) for k, v in compare_counters(*results_of(totals)).items()}
    assert counters["pairs"] == 300 and counters["wins"] + counters["draws"] + counters["losses"] == 300


def test_deals_do_not_depend_on_the_strategies():
    # After a shard the dealing stream is where the ordinary deal kernel leaves it after as many
    # deals, whatever the strategies; a deterministic side leaves its own stream untouched.
    seed, n = 8, 200
    for a, b, n in (("greedy", "random", n), ("random", "refuse+random", n), ("heuristic+greedy", "refuse+greedy", n),
                    ("pimc", "greedy", 4), ("best_expected+greedy", "random", 20)):
        reference = shard_bit_generators(seed, 0, 4)
        core.deal_shard(reference, n, RULES, seat_strategies("greedy", "greedy", 0), TWO)
        gens, fresh = shard_bit_generators(seed, 0, 3), shard_bit_generators(seed, 0, 3)
        core.compare_shard(gens, n, RULES, roles(a, b), TWO)
        assert gens[0].state == reference[0].state, (a, b)
        for stream, label in ((1, a), (2, b)):
            deterministic = label.endswith("greedy") and not label.startswith("best_expected")
            assert (gens[stream].state == fresh[stream].state) == deterministic, (a, b, label)


def test_each_strategy_draws_from_its_own_stream():
    # A random against B greedy: replacing B's stream changes nothing, replacing A's changes the play
    seed, n = 9, 300
    base, _ = compare_totals(seed, 0, n, "random", "greedy")
    other = shard_bit_generators(seed + 1, 0, 3)
    own = shard_bit_generators(seed, 0, 3)
    same, _ = compare_totals(seed, 0, n, "random", "greedy", [own[0], own[1], other[2]])
    moved, _ = compare_totals(seed, 0, n, "random", "greedy", [own[0], other[1], own[2]])
    assert same == base and moved != base


def test_swapping_the_labels_mirrors_the_result():
    one = compare("piquet_three", ["refuse+greedy", "greedy"], deals=500, seed=4)[1][0].counters
    two = compare("piquet_three", ["greedy", "refuse+greedy"], deals=500, seed=4)[1][0].counters
    one, two = ({k: int(c[k][0]) for k in COMPARE_COUNTERS} for c in (one, two))
    assert one["diff_sum"] == -two["diff_sum"] and one["diff_sq_sum"] == two["diff_sq_sum"]
    assert (one["wins"], one["draws"], one["losses"]) == (two["losses"], two["draws"], two["wins"])
    assert (one["a_sum"], one["a_sq_sum"]) == (two["b_sum"], two["b_sq_sum"])


def test_greedy_beats_random_and_pairing_saves_variance():
    table, _ = compare("piquet_three", ["greedy", "random"], deals=2000, seed=2)
    row = table.iloc[0]
    assert row.ci_low > 0 and row.variance_ratio > 2
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)


def test_labels_and_shard_sizes():
    assert roles("pimc", "refuse+random") == {"a_exchange": "heuristic", "a_play": "pimc",
                                              "b_exchange": "refuse", "b_play": "random"}
    game = get_game("piquet_three")
    assert game.compare_shard_size(roles("greedy", "random")) == 200_000 // 6
    assert game.compare_shard_size(roles("greedy", "pimc")) == 4


@pytest.mark.parametrize("labels,message", [(["greedy", "bogus"], "unknown piquet_three strategy 'bogus'"),
                                            (["greedy", "refuse+"], "unknown piquet_three strategy"),
                                            (["double_dummy", "greedy"], "PLAY one of greedy, random, pimc"),
                                            (["greedy", "greedy"], "once")])
def test_bad_labels(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("piquet_three", labels, deals=10, seed=1)


def test_bad_totals_array():
    with pytest.raises(ValueError, match="totals must be"):
        core.compare_shard(shard_bit_generators(1, 0, 3), 5, RULES, roles("greedy", "random"), TWO,
                           np.zeros((5, 6, 2), np.int32))


def test_cli_json_with_three_strategies():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "piquet_three", "--strategies", "greedy",
                           "random", "pimc", "--deals", "12", "--seed", "3", "--json", "--no-store"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(r["a"], r["b"]) for r in data["table"]] == [("greedy", "random"), ("greedy", "pimc"), ("random", "pimc")]
    assert all(r["deals"] == 12 for r in data["table"])
    assert data["runs"][1]["strategies"] == {"a_exchange": "heuristic", "a_play": "greedy",
                                             "b_exchange": "heuristic", "b_play": "pimc"}
