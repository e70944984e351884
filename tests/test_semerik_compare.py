"""Semerik strategy comparison on duplicate deals (issue 7): the compare kernel against ordinary
plays of the same deals, deals independent of the strategies, the table and the CLI."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer._core import semerik as core
from analyzer.compare import COMPARE_COUNTERS, compare
from analyzer.games import get_game
from analyzer.games.semerik import compare_strategies, kernel_spec
from analyzer.runner import RunConfig, run, shard_bit_generators

from compare_reference import compare_counters

GAME = get_game("semerik")
RULES = GAME.resolve_rules("default")
ROW = core.COMPARE_ROW
DEAL_ROW = core.DEAL_ROW
FAST_PIMC = dict(RULES, pimc_worlds=4)


def compare_rows(a, b, n, seed, rules=RULES):
    rows = np.zeros((n, ROW["width"]), np.int64)
    counters = core.compare_shard(shard_bit_generators(seed, 0, 3), n, rules, compare_strategies(a, b), rows)
    return counters, rows


def results(rows):
    """Per-deal results of strategies a and b from compare rows: a plays A first, then B."""
    first, second = rows[:, ROW["first"]:ROW["first"] + 2], rows[:, ROW["second"]:ROW["second"] + 2]
    return first[:, 0] + second[:, 1], first[:, 1] + second[:, 0]


def ordinary_deals(n, seed, a="greedy", b="greedy"):
    """Rows of the deals kernel on the same seed (stream 0 deals, stream 1 plays)."""
    rows = np.zeros((n, DEAL_ROW["width"]), np.uint64)
    core.deals_shard(shard_bit_generators(seed, 0, 2), n, kernel_spec(RULES, {"play_a": a, "play_b": b}), rows)
    return rows


def test_counters_are_the_sums_of_the_per_deal_results():
    counters, rows = compare_rows("greedy", "random", 3000, seed=4)
    a, b = results(rows)
    expected = compare_counters(a, b)
    assert set(counters) == set(COMPARE_COUNTERS)
    for key in COMPARE_COUNTERS:
        assert counters[key][0] == expected[key], key
    # the runner calls the same kernel with the same streams (one shard here)
    config = RunConfig("semerik", "compare", "default", deals=3000, seed=4, shard_size=4000,
                       strategies=compare_strategies("greedy", "random"))
    via_runner = run(config).counters
    for key in COMPARE_COUNTERS:
        assert via_runner[key][0] == counters[key][0], key


def test_deterministic_plays_are_the_ordinary_deals():
    # greedy against itself: both plays of every deal are exactly the deal of an ordinary run on
    # the same seed, and the paired difference is zero on every deal
    n = 2000
    counters, rows = compare_rows("greedy", "greedy", n, seed=9)
    deals = ordinary_deals(n, seed=9).astype(np.int64)
    total = deals[:, DEAL_ROW["total"]:DEAL_ROW["total"] + 2]
    assert np.array_equal(rows[:, ROW["first"]:ROW["first"] + 2], total)
    assert np.array_equal(rows[:, ROW["second"]:ROW["second"] + 2], total)
    assert counters["draws"][0] == n and counters["diff_sq_sum"][0] == 0
    assert counters["a_sum"][0] == counters["b_sum"][0] == total.sum()


@pytest.mark.parametrize("a,b", [("greedy", "random"), ("random", "greedy")])
def test_pairing_identity_with_a_random_strategy(a, b):
    # Greedy is deterministic and random draws only from its own stream (stream 1 when it is
    # strategy a, 2 when b), so the comparison can be replayed with the single-stream play_deals:
    # the second play (partnerships swapped) is the same deal with every seat moved one place
    # (seat s -> s - 1, so the partnerships trade places), which keeps a on partnership A.
    n = 1500
    _, rows = compare_rows(a, b, n, seed=21)
    hands = rows[:, ROW["hands"]:ROW["hands"] + 4].astype(np.uint64)
    dealers = rows[:, ROW["dealer"]]
    replay_hands = np.empty((2 * n, 4), np.uint64)
    replay_hands[0::2] = hands
    replay_hands[1::2] = np.roll(hands, -1, axis=1)
    replay_dealers = np.empty(2 * n, np.int64)
    replay_dealers[0::2] = dealers
    replay_dealers[1::2] = (dealers - 1) % 4
    random_stream = shard_bit_generators(21, 0, 3)[1 if a == "random" else 2]
    replay = core.play_deals(replay_hands, replay_dealers, kernel_spec(RULES, {"play_a": a, "play_b": b}),
                             random_stream).astype(np.int64)
    total = replay[:, DEAL_ROW["total"]:DEAL_ROW["total"] + 2]
    assert np.array_equal(rows[:, ROW["first"]:ROW["first"] + 2], total[0::2])
    assert np.array_equal(rows[:, ROW["second"]:ROW["second"] + 2], total[1::2, ::-1])
    # a real comparison: the plays differ
    assert not np.array_equal(rows[:, ROW["first"]], rows[:, ROW["second"] + 1])


def test_deals_do_not_depend_on_the_strategies():
    n = 48
    deals = ordinary_deals(n, seed=5).astype(np.int64)
    for a, b in (("greedy", "random"), ("random", "pimc"), ("pimc", "greedy")):
        _, rows = compare_rows(a, b, n, seed=5, rules=FAST_PIMC)
        assert np.array_equal(rows[:, ROW["hands"]:ROW["hands"] + 4], deals[:, DEAL_ROW["hands"]:DEAL_ROW["hands"] + 4])
        assert np.array_equal(rows[:, ROW["dealer"]], deals[:, DEAL_ROW["dealer"]])
        assert list(rows[:8, ROW["dealer"]]) == [0, 1, 2, 3, 0, 1, 2, 3]


def test_compare_table_greedy_beats_random():
    table, runs = compare("semerik", ["greedy", "random"], deals=4000, seed=3)
    row = table.iloc[0]
    c = runs[0].counters
    assert c["wins"][0] + c["draws"][0] + c["losses"][0] == c["pairs"][0] == 4000
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)
    assert row.ci_low < row.mean_diff < row.ci_high
    # greedy scores about 1.5 points a deal more than random in each seat (2000 deals: 3.1 +- 0.2)
    assert row.ci_low > 0
    # pairing helps: declarations, the same for both, cancel in the paired difference
    assert row.variance_ratio > 1.5
    assert runs[0].config.strategy_names == {"a_play": "greedy", "b_play": "random"}


def test_three_strategies_get_holm():
    table, runs = compare("semerik", ["greedy", "random", "pimc"], deals=200, seed=2, overrides={"pimc_worlds": 4})
    assert [(r.a, r.b) for r in table.itertuples()] == [("greedy", "random"), ("greedy", "pimc"), ("random", "pimc")]
    assert (table.p_holm >= table.p_value - 1e-15).all()
    assert "simultaneous" in table.attrs["interval"]
    assert runs[1].config.shard_size == 500      # a PIMC compare deal is played twice


@pytest.mark.parametrize("labels,message", [
    (["greedy"], "at least two"), (["greedy", "greedy"], "once"),
    (["greedy", "bogus"], "unknown semerik strategy 'bogus'"),
    (["greedy", "heuristic+greedy"], "unknown semerik strategy"),
])
def test_compare_errors(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("semerik", labels, deals=10, seed=1)


def test_compare_kernel_rejects_bad_rows():
    with pytest.raises(ValueError, match="rows must be int64"):
        core.compare_shard(shard_bit_generators(1, 0, 3), 4, RULES, compare_strategies("greedy", "random"),
                           np.zeros((4, 3), np.int64))


def test_compare_cli_json():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "semerik", "--strategies", "greedy", "random",
                           "pimc", "--deals", "120", "--seed", "3", "--set", "pimc_worlds=4", "--json", "--no-store"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(r["a"], r["b"]) for r in data["table"]] == [("greedy", "random"), ("greedy", "pimc"), ("random", "pimc")]
    assert all(r["deals"] == 120 for r in data["table"])
    assert data["runs"][1]["strategies"] == {"a_play": "greedy", "b_play": "pimc"}
    assert "simultaneous" in data["interval"]


def test_compare_cli_unknown_strategy():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "semerik", "--strategies", "greedy", "nope",
                           "--deals", "100", "--no-store"], capture_output=True, text=True, cwd=tempfile.gettempdir(),
                          timeout=300)
    assert proc.returncode != 0
    assert "unknown semerik strategy 'nope'" in proc.stderr
