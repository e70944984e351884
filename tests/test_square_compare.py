"""The square game's duplicate-deal strategy comparison (`kozyr compare square`): labels, pairing
against ordinary play, seats and partnerships swapped, deals and strategy streams kept apart."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer._core import square as core
from analyzer.compare import compare
from analyzer.games import square
from analyzer.runner import RunConfig, run, shard_bit_generators

A, B = "spoiler:at5", "greedy:at7"      # deterministic strategies: no random draws at all


def sides(first: str, second: str) -> dict:
    """Roles of the ordinary play analysis with `first` holding side A and `second` side B."""
    (pa, ca), (pb, cb) = square.parse_label(first), square.parse_label(second)
    return {"play_a": pa, "close_a": ca, "play_b": pb, "close_b": cb}


def side_sums(counters) -> tuple[int, int]:
    """Sum of the deal scores of sides A and B from a play run's histograms (index = score + 1)."""
    hist = counters["deal_score"]
    scores = np.arange(hist.shape[1]) - 1
    return int((hist[0] * scores).sum()), int((hist[1] * scores).sum())


def test_labels():
    assert square.parse_label("greedy:at7") == ("greedy", "at7")
    assert square.parse_label("random") == ("random", "at5")
    assert square.parse_label("spoiler:never") == ("spoiler", "never")
    assert square.compare_strategies("random:at9", "spoiler") == {
        "a_play": "random", "a_close": "at9", "b_play": "spoiler", "b_close": "at5"}


@pytest.mark.parametrize("labels,message", [
    (["spoiler", "greedy:at4"], "unknown square strategy 'greedy:at4'"),
    (["spoiler", "clever:at5"], "unknown square strategy 'clever:at5'"),
    (["spoiler", "python:mod:Class"], "unknown square strategy"),
    (["spoiler", "spoiler:at5"], "the same strategy"),
    (["spoiler:", "greedy"], "unknown square strategy 'spoiler:'"),
    (["spoiler"], "at least two"),
])
def test_label_errors(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("square", labels, deals=10, seed=1)


@pytest.mark.parametrize("rules,overrides", [("r1", {}), ("r1_four", {}), ("r1", {"deal": "draw8"})])
def test_compare_is_the_two_ordinary_runs_with_sides_swapped(rules, overrides):
    # With deterministic strategies the comparison of A and B is exactly two play runs on the same
    # seed: A as side A against B, then B as side A against A.
    n = 3000
    table, runs = compare("square", [A, B], deals=n, seed=17, rules=rules, overrides=overrides)
    c = runs[0].counters
    first = run(RunConfig("square", "play", rules, deals=n, seed=17, overrides=overrides,
                          strategies=sides(A, B))).counters
    second = run(RunConfig("square", "play", rules, deals=n, seed=17, overrides=overrides,
                           strategies=sides(B, A))).counters
    (f_a, f_b), (s_a, s_b) = side_sums(first), side_sums(second)
    assert c["pairs"][0] == n
    assert c["a_sum"][0] == f_a + s_b
    assert c["b_sum"][0] == f_b + s_a
    assert c["diff_sum"][0] == first["net_sum"][0] - second["net_sum"][0]
    assert c["wins"][0] + c["draws"][0] + c["losses"][0] == n
    row = table.iloc[0]
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)
    assert row.ci_low < row.mean_diff < row.ci_high


@pytest.mark.parametrize("rules", ["r1", "r1_four"])
def test_every_deal_is_played_with_each_strategy_in_every_seat(rules):
    # Deal by deal: the kernel's first play is the seeded deal with A on side A (seats 0 and 2),
    # the second the same hands with B there; A's result is its side's score summed over both.
    spec = square.kernel_spec(square.GAME.resolve_rules(rules), sides(A, B))
    for seed in range(12):
        one = square.play_deal(seed, rules, sides(A, B))
        two = square.play_deal(seed, rules, sides(B, A))
        c = core.compare_shard(*shard_bit_generators(seed, 0, 3), 1, spec)
        a = one["deal_score"][0] + two["deal_score"][1]
        b = one["deal_score"][1] + two["deal_score"][0]
        assert (c["a_sum"][0], c["b_sum"][0], c["a_sq_sum"][0], c["b_sq_sum"][0]) == (a, b, a * a, b * b)
        assert (c["wins"][0], c["draws"][0], c["losses"][0]) == (a > b, a == b, a < b)
        assert (c["diff_sum"][0], c["diff_sq_sum"][0]) == (a - b, (a - b) ** 2)


@pytest.mark.parametrize("rules", ["r1", "r1_four"])
def test_swapping_the_labels_mirrors_the_result(rules):
    _, (ab,) = compare("square", [A, B], deals=2000, seed=4, rules=rules)
    _, (ba,) = compare("square", [B, A], deals=2000, seed=4, rules=rules)
    x, y = ab.counters, ba.counters
    assert x["diff_sum"][0] == -y["diff_sum"][0] and x["diff_sq_sum"][0] == y["diff_sq_sum"][0]
    assert (x["wins"][0], x["draws"][0], x["losses"][0]) == (y["losses"][0], y["draws"][0], y["wins"][0])
    assert (x["a_sum"][0], x["a_sq_sum"][0]) == (y["b_sum"][0], y["b_sq_sum"][0])


@pytest.mark.parametrize("rules", ["r1", "r1_four"])
def test_deals_do_not_depend_on_the_strategies(rules):
    # Stream 0 is consumed by dealing only: after a shard its state is the same whatever the
    # strategies, and the same as after an ordinary play shard of as many deals. A random strategy
    # draws from its own stream (1 for A, 2 for B) and leaves the other one untouched.
    options = square.GAME.resolve_rules(rules)
    n = 300
    fresh = [g.state for g in shard_bit_generators(9, 0, 3)]
    deal_states, strategy_states = set(), {}
    for a, b in [(A, B), ("random", B), (B, "random"), ("random:at6", "random:never")]:
        gens = shard_bit_generators(9, 0, 3)
        core.compare_shard(*gens, n, square.kernel_spec(options, sides(a, b)))
        deal_states.add(json.dumps(gens[0].state))
        strategy_states[a, b] = [g.state != s for g, s in zip(gens[1:], fresh[1:])]
    gens = shard_bit_generators(9, 0, 2)
    core.play_shard(gens[0], gens[1], n, square.kernel_spec(options, sides("random", "random")))
    deal_states.add(json.dumps(gens[0].state))
    assert len(deal_states) == 1
    assert strategy_states == {(A, B): [False, False], ("random", B): [True, False], (B, "random"): [False, True],
                               ("random:at6", "random:never"): [True, True]}


def test_adding_a_strategy_changes_no_other_pair():
    two, _ = compare("square", [A, B], deals=1500, seed=3, rules="r1_four")
    three, _ = compare("square", [A, B, "random"], deals=1500, seed=3, rules="r1_four")
    for key in ("mean_a", "mean_b", "mean_diff", "a_better", "equal", "b_better", "p_value"):
        assert three.iloc[0][key] == two.iloc[0][key], key
    assert len(three) == 3 and "simultaneous" in three.attrs["interval"]
    assert (three.p_holm >= three.p_value - 1e-15).all()


def test_random_strategy_results_do_not_depend_on_workers_or_shards():
    one, _ = compare("square", ["random:at6", B], deals=1200, seed=8, shard_size=300)
    two, _ = compare("square", ["random:at6", B], deals=1200, seed=8, shard_size=300, workers=2)
    assert one.equals(two)


def test_compare_cli_json_and_text():
    base = [sys.executable, "-m", "analyzer", "compare", "square", "--deals", "400", "--seed", "5", "--no-store"]
    proc = subprocess.run(base + ["--strategies", "spoiler:at5", "greedy:at7", "random", "--json"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(r["a"], r["b"]) for r in data["table"]] == [("spoiler:at5", "greedy:at7"), ("spoiler:at5", "random"),
                                                        ("greedy:at7", "random")]
    assert all(r["deals"] == 400 for r in data["table"])
    assert data["runs"][0]["strategies"] == {"a_play": "spoiler", "a_close": "at5", "b_play": "greedy",
                                             "b_close": "at7", "ask": "never", "agree": "at7"}
    proc = subprocess.run(base + ["--strategies", "spoiler", "greedy", "--rules", "r1_four"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "square compare, rules r1_four" in proc.stdout and "spoiler" in proc.stdout
    proc = subprocess.run(base + ["--strategies", "spoiler", "greedy:at4"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode != 0 and "unknown square strategy 'greedy:at4'" in proc.stderr
