"""Strategy comparison on duplicate deals, strategy streams, and strategies written in Python."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from scipy import stats as scipy_stats

from compare_reference import compare_counters

from analyzer.compare import compare, compare_table, summarize
from analyzer.runner import RunConfig, run
from analyzer.strategies import register


def strategies(elder, younger):
    (ee, ep), (ye, yp) = (elder.split("+"), younger.split("+"))
    return {"elder_exchange": ee, "elder_play": ep, "younger_exchange": ye, "younger_play": yp}


def test_compare_pairs_the_same_deals():
    # With deterministic strategies, the duplicate comparison of A and B is exactly the two
    # ordinary runs (A elder against B younger, then B elder against A younger) on the same seed.
    a, b = "heuristic+greedy", "refuse+greedy"
    table, runs = compare("piquet", [a, b], deals=4000, seed=11)
    c = runs[0].counters
    first = run(RunConfig("piquet", "deal", "ru_seed", deals=4000, seed=11, strategies=strategies(a, b))).counters
    second = run(RunConfig("piquet", "deal", "ru_seed", deals=4000, seed=11, strategies=strategies(b, a))).counters
    assert c["diff_sum"][0] == first["diff_sum"][0] - second["diff_sum"][0]
    totals = lambda h: int((h * np.arange(h.size)).sum())
    assert c["a_sum"][0] == totals(first["total_hist"][0]) + totals(second["total_hist"][1])
    assert c["wins"][0] + c["draws"][0] + c["losses"][0] == 4000
    row = table.iloc[0]
    assert row.ci_low < row.mean_diff < row.ci_high
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)


def test_several_strategies_get_holm_and_simultaneous_intervals():
    table, runs = compare("piquet", ["heuristic+greedy", "heuristic+random", "refuse+random"], deals=3000, seed=2)
    assert len(table) == 3 and len(runs) == 3
    assert (table.p_holm >= table.p_value - 1e-15).all()
    assert "simultaneous" in table.attrs["interval"]
    single = compare_table([("x", "y", runs[0].counters)])
    # the simultaneous interval of a pair is wider than its single-pair interval
    assert (table.iloc[0].ci_high - table.iloc[0].ci_low) > (single.iloc[0].ci_high - single.iloc[0].ci_low)


def test_summarize_known_numbers():
    # d = 1, 3 (mean 2, sd sqrt 2); a = 5, 9; b = 4, 6
    c = {"pairs": [2], "diff_sum": [4], "diff_sq_sum": [10], "wins": [2], "draws": [0], "losses": [0],
         "a_sum": [14], "a_sq_sum": [106], "b_sum": [10], "b_sq_sum": [52]}
    s = summarize({k: np.array(v) for k, v in c.items()}, alpha=0.05)
    assert s["mean_diff"] == 2 and s["a_better"] == 1.0
    half = s["ci_high"] - 2
    assert half == pytest.approx(12.706204736 * 1.0, rel=1e-6)   # t(0.975, 1) * sqrt(2)/sqrt(2)


@pytest.mark.parametrize("labels,message", [(["greedy"], "at least two"), (["greedy", "greedy"], "once"),
                                            (["greedy", "bogus"], "unknown piquet strategy"),
                                            (["random", "+greedy"], "unknown piquet strategy '\\+greedy'"),
                                            (["greedy", "heuristic+greedy"], "the same strategy")])
def test_compare_errors(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("piquet", labels, deals=10, seed=1)


def test_one_strategy_under_two_labels_is_refused():
    # the default exchange spelt out, or left out, names the same player (an empty one, "+greedy",
    # is refused as unknown)
    for game, labels in (("piquet_three", ["greedy", "heuristic+greedy"]),
                         ("piquet", ["heuristic+random", "random"])):
        with pytest.raises(ValueError, match="the same strategy"):
            compare(game, labels, deals=10, seed=1)


def test_compare_cli_json(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "piquet", "--strategies", "greedy", "random",
                           "--deals", "500", "--seed", "3", "--json", "--no-store"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["table"][0]["a"] == "greedy" and data["table"][0]["deals"] == 500
    assert data["runs"][0]["strategies"]["a_play"] == "greedy"


def test_python_greedy_plays_exactly_like_the_compiled_one():
    base = {"elder_play": "greedy", "younger_play": "random"}
    compiled = run(RunConfig("piquet", "deal", "ru_seed", deals=2000, seed=5, strategies=base)).counters
    python = run(RunConfig("piquet", "deal", "ru_seed", deals=2000, seed=5,
                           strategies={**base, "elder_play": "python:piquet_python_greedy:GreedyPlayer"}),
                 workers=2).counters
    for key in compiled:
        assert np.array_equal(compiled[key], python[key]), key


def test_python_exchange_and_registered_objects():
    from piquet_python_greedy import GreedyPlayer, KeepDealt

    name = register("keep-dealt", KeepDealt)
    refuse = run(RunConfig("piquet", "deal", "ru_seed", deals=1000, seed=6,
                           strategies={"elder_exchange": "refuse"})).counters
    python = run(RunConfig("piquet", "deal", "ru_seed", deals=1000, seed=6,
                           strategies={"elder_exchange": name})).counters
    assert np.array_equal(refuse["total_hist"], python["total_hist"])
    table, _ = compare("piquet", ["heuristic+greedy", "heuristic+" + register("greedy-object", GreedyPlayer())],
                       deals=500, seed=1)
    assert table.iloc[0].mean_diff == 0 and table.iloc[0].equal == 1.0


@pytest.mark.parametrize("name,message", [
    ("python:piquet_python_greedy:Illegal", "not legal"),
    ("python:no_such_module:X", "cannot import"),
    ("python:piquet_python_greedy:Nope", "has no 'Nope'"),
    ("python:piquet_python_greedy:KeepDealt", "lacks choose_card"),
])
def test_python_strategy_errors(name, message):
    with pytest.raises(ValueError, match=message):
        run(RunConfig("piquet", "deal", "ru_seed", deals=20, seed=1, strategies={"elder_play": name}))


def test_every_pair_plays_the_same_deals():
    # A cheap and an expensive pair get one shard size, hence the same deals.
    _, runs = compare("piquet", ["refuse+greedy", "refuse+random", "refuse+double_dummy"], deals=40, seed=3)
    assert len({r.config.shard_size for r in runs}) == 1


def test_import_path_without_prefix():
    base = {"elder_play": "greedy", "younger_play": "random"}
    compiled = run(RunConfig("piquet", "deal", "ru_seed", deals=300, seed=8, strategies=base)).counters
    python = run(RunConfig("piquet", "deal", "ru_seed", deals=300, seed=8,
                           strategies={**base, "elder_play": "piquet_python_greedy:GreedyPlayer"})).counters
    assert np.array_equal(compiled["total_hist"], python["total_hist"])


def test_compare_refuses_one_deal_before_playing_it():
    calls = []
    with pytest.raises(ValueError, match="at least 2 deals"):
        compare("piquet", ["greedy", "random"], deals=1, seed=1, runner=lambda *a, **k: calls.append(a))
    assert calls == []


def test_summarize_gives_no_interval_from_a_handful_of_equal_differences():
    # two deals with the same difference once gave the interval "10 to 10" and p = 0
    c = {"pairs": [2], "diff_sum": [20], "diff_sq_sum": [200], "wins": [2], "draws": [0], "losses": [0],
         "a_sum": [30], "a_sq_sum": [450], "b_sum": [10], "b_sq_sum": [50]}
    s = summarize({k: np.array(v) for k, v in c.items()}, alpha=0.05)
    assert s["mean_diff"] == 10
    assert all(np.isnan(s[k]) for k in ("ci_low", "ci_high", "unpaired_ci_low", "unpaired_ci_high", "p_value"))


def test_compare_header_names_the_overrides(capsys):
    from analyzer.cli import main

    assert main(["compare", "vedma", "--strategies", "edge", "uniform", "--deals", "200", "--no-store",
                 "--set", "edge_weight=3"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith("# vedma compare, rules seed {\"edge_weight\": 3.0}, 200 duplicate deals"), header


def pair_counters(a, b):
    """The compare counters of the per-deal results a (strategy A) and b (strategy B), as one shard's."""
    return {k: np.array([v]) for k, v in compare_counters(a, b).items()}


def test_summarize_is_the_paired_t_test():
    # eight deals, d = 1 0 2 0 1 2 -1 3: A better in 5, equal in 2, worse in 1
    a, b = np.array([5, 3, 8, 6, 2, 7, 4, 6]), np.array([4, 3, 6, 6, 1, 5, 5, 3])
    s = summarize(pair_counters(a, b), alpha=0.05)
    paired = scipy_stats.ttest_rel(a, b)
    ci = paired.confidence_interval(0.95)
    assert s["p_value"] == pytest.approx(paired.pvalue, rel=1e-9)
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert (s["a_better"], s["equal"], s["b_better"]) == (5 / 8, 2 / 8, 1 / 8)
    # unpaired: the standard error of a difference of independent means, sqrt(s_a²/n + s_b²/n), at
    # the paired interval's t quantile, so that the two widths compare the variances alone
    ratio = (a.var(ddof=1) + b.var(ddof=1)) / (a - b).var(ddof=1)
    assert s["variance_ratio"] == pytest.approx(ratio, rel=1e-9)
    paired_half, unpaired_half = s["ci_high"] - s["mean_diff"], s["unpaired_ci_high"] - s["mean_diff"]
    assert (unpaired_half / paired_half) ** 2 == pytest.approx(ratio, rel=1e-9)


def test_many_equal_differences_give_an_interval_of_no_width():
    # forty deals with one difference: p = 0 unless that difference is 0 (then 1)
    for d, p in ((0, 1.0), (3, 0.0)):
        s = summarize(pair_counters(np.full(40, 5 + d), np.full(40, 5)), alpha=0.05)
        assert (s["mean_diff"], s["ci_low"], s["ci_high"], s["p_value"]) == (d, d, d, p)


def test_several_pairs_get_holm_p_values_and_bonferroni_intervals():
    # three pairs of twelve deals, p = 0.069, 0.094, 0.053: Holm multiplies the k-th smallest by
    # 4 - k and keeps the adjusted values non-decreasing, here 0.159 for all three (Bonferroni
    # would give 0.206 and 0.281 to the larger two); each interval is a t interval at 1 - 0.05/3
    rng = np.random.default_rng(18)
    pairs = []
    for _ in range(3):
        b = rng.integers(0, 10, 12)
        pairs.append((b + rng.integers(-2, 4, 12), b))
    table = compare_table([(label, "w", pair_counters(a, b)) for label, (a, b) in zip("xyz", pairs)])
    p = np.array([scipy_stats.ttest_rel(a, b).pvalue for a, b in pairs])
    holm, running = np.empty(3), 0.0
    for k, i in enumerate(np.argsort(p)):
        running = max(running, (3 - k) * p[i])
        holm[i] = min(running, 1.0)
    assert table.p_value.to_numpy() == pytest.approx(p, rel=1e-9)
    assert table.p_holm.to_numpy() == pytest.approx(holm, rel=1e-9)
    t = scipy_stats.t.ppf(1 - 0.05 / 6, 11)
    for (a, b), (_, row) in zip(pairs, table.iterrows()):
        assert row.ci_high - row.mean_diff == pytest.approx(t * (a - b).std(ddof=1) / np.sqrt(12), rel=1e-9)


def test_a_pair_stopped_part_way_stops_the_comparison():
    # a table over the deals one pair finished would pass for the full comparison
    def stopped(config, **kw):
        return run(config, shards=[0], progress=False, **kw)

    with pytest.raises(KeyboardInterrupt):
        compare("piquet", ["greedy", "random"], deals=400, seed=1, shard_size=200, runner=stopped)
