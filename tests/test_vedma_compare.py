"""Ved'ma's duplicate-deal comparison of witch placements (`kozyr compare vedma`): labels, the
identities of the common-random-number design (no difference against a fair drawer, A-B mirrors
B-A), deals independent of the strategies and of the draw stream, agreement with the placement
analysis, the CLI."""
import json

import numpy as np
import pytest

from analyzer import cli
from analyzer._core import vedma as kernel
from analyzer.cards import FULL52
from analyzer.compare import compare
from analyzer.games import get_game, vedma
from analyzer.runner import RunConfig, run, shard_bit_generators

ROW_WIDTH = 7                      # MAX_PLAYERS dealt hands, then the plays lost by A


def options(preset="seed", **overrides):
    return get_game("vedma").resolve_rules(preset, overrides)


def kernel_run(a, b, n, rules, edge_weight, deal_seed=3, draw_seed=4):
    rows = np.zeros((n, ROW_WIDTH), np.uint64)
    counters = kernel.compare_shard(np.random.PCG64(deal_seed), np.random.PCG64(draw_seed), n, rules, edge_weight,
                                    a, b, rows=rows)
    return counters, rows


def test_labels():
    assert vedma.compare_strategies("edge", "centre") == {"a_placement": "edge", "b_placement": "centre"}
    assert set(vedma.PLACEMENTS) == {"uniform", "edge", "centre"}


@pytest.mark.parametrize("labels,message", [
    (["edge", "center"], "unknown vedma strategy 'center'"),
    (["edge", "smart"], "one of uniform, edge, centre"),
    (["edge", "edge"], "named once"),
    (["edge"], "at least two"),
])
def test_label_errors(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("vedma", labels, deals=10, seed=1)


def test_kernel_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown witch placement 'left'"):
        kernel_run("left", "edge", 10, options(), 2.0)
    with pytest.raises(ValueError, match="edge_weight must be positive"):
        kernel_run("uniform", "edge", 10, options(), 0.0)


@pytest.mark.parametrize("players,deck,order", [(2, 32, "literal"), (3, 52, "standard"), (4, 32, "literal"),
                                                (6, 32, "standard")])
def test_a_fair_drawer_makes_every_placement_the_same_game(players, deck, order):
    # With edge weight 1 the three placements give the witch away with the same probability 1/h
    # and, on one tape of uniforms, make exactly the same draws: every deal is a tie.
    rules = options(players=players, deck=deck, order=order)
    plays = 2 if players == 2 else 2 * players
    for a, b in (("edge", "uniform"), ("centre", "edge")):
        c, rows = kernel_run(a, b, 2000, rules, 1.0)
        assert c["draws"][0] == c["pairs"][0] == 2000 and c["diff_sum"][0] == c["diff_sq_sum"][0] == 0
        # Each deal: A plays each seat in half of the plays, so it loses exactly half of them.
        assert (rows[:, 6] == plays // 2).all()
        assert c["a_sum"][0] == c["b_sum"][0] == -2000 * plays // 2


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_against_b_mirrors_b_against_a(players):
    rules = options(players=players)
    ab, _ = kernel_run("edge", "centre", 3000, rules, 2.0)
    ba, _ = kernel_run("centre", "edge", 3000, rules, 2.0)
    assert ab["diff_sum"][0] == -ba["diff_sum"][0] != 0
    assert (ab["a_sum"][0], ab["a_sq_sum"][0], ab["wins"][0]) == (ba["b_sum"][0], ba["b_sq_sum"][0], ba["losses"][0])
    assert ab["draws"][0] == ba["draws"][0] and ab["diff_sq_sum"][0] == ba["diff_sq_sum"][0]
    # zero-sum per deal: every play has one loser, sitting with A or with B
    plays = 2 if players == 2 else 2 * players
    assert ab["a_sum"][0] + ab["b_sum"][0] == -3000 * plays


def test_deals_do_not_depend_on_the_strategies_or_the_draws():
    rules = options(players=5, deck=52)
    _, first = kernel_run("edge", "uniform", 500, rules, 2.0, draw_seed=4)
    _, second = kernel_run("uniform", "centre", 500, rules, 0.5, draw_seed=99)
    assert (first[:, :5] == second[:, :5]).all()
    assert (first[:, 6] != second[:, 6]).any()
    # every deal is a deal: the hands partition the pack, one holds the witch
    hands = first[:, :5]
    assert (np.bitwise_or.reduce(hands, axis=1) == np.uint64(sum(0x1FFF << (16 * s) for s in range(4)))).all()
    witch = np.uint64(FULL52.mask("QS"))
    assert ((hands & witch) != 0).sum(axis=1).tolist() == [1] * 500


def test_the_runner_deals_from_stream_0_and_draws_from_stream_1():
    # The runner's compare run equals the kernel on the shard's bit generators; changing the
    # labels leaves stream 0 (the deals) alone.
    rules = options(players=3)
    result = run(RunConfig("vedma", "compare", "seed", overrides={"players": 3}, deals=800, seed=11, shard_size=800,
                           strategies=vedma.compare_strategies("edge", "uniform")))
    deal_gen, draw_gen = shard_bit_generators(11, 0, 2)
    direct = kernel.compare_shard(deal_gen, draw_gen, 800, rules, 2.0, "edge", "uniform")
    assert all((result.counters[k] == direct[k]).all() for k in direct)


@pytest.mark.parametrize("edge_weight,better", [(2.0, "edge"), (0.5, "centre")])
def test_two_players_agree_with_the_placement_analysis(edge_weight, better):
    # With 2 players the compare plays are the placement analysis's variants "seat 0 alone smart"
    # and "seat 1 alone smart" (smart = edge if e > 1, centre if e < 1), on other random numbers:
    # E[plays lost by A] = P(seat 0 loses | variant 1) + P(seat 1 loses | variant 2).
    n = 40_000
    rules = options(players=2)
    c, _ = kernel_run(better, "uniform", n, rules, edge_weight)
    lost = -c["a_sum"][0] / n
    lost_se = np.sqrt((c["a_sq_sum"][0] / n - lost ** 2) / n)
    p = kernel.placement_shard(np.random.PCG64(5), np.random.PCG64(6), n, rules, edge_weight)
    p1, p2 = p["lose"][1, 0] / n, p["lose"][2, 1] / n
    placement_se = np.sqrt(p1 * (1 - p1) / n) + np.sqrt(p2 * (1 - p2) / n)   # conservative: correlated
    assert abs(lost - (p1 + p2)) < 4.5 * np.hypot(lost_se, placement_se)
    assert lost < 1 - 6 * lost_se            # and the better placement does lose fewer games


def test_compare_table_through_the_runner():
    table, runs = compare("vedma", ["uniform", "edge", "centre"], deals=3000, seed=2, shard_size=1000, workers=2)
    assert [(r.a, r.b) for r in table.itertuples()] == [("uniform", "edge"), ("uniform", "centre"), ("edge", "centre")]
    assert np.allclose(table.mean_a + table.mean_b, -8)        # 4 players: 8 plays a deal
    row = table.set_index(["a", "b"]).loc[("edge", "centre")]
    assert row.ci_low > 0 and row.p_holm < 1e-6              # default drawer (e = 2): the edge is better
    fair, _ = compare("vedma", ["uniform", "edge"], deals=1000, seed=2, overrides={"edge_weight": 1})
    assert fair.mean_diff.iloc[0] == 0 and fair.equal.iloc[0] == 1


def test_compare_cli_json_and_errors(capsys):
    # In-process (cli.main) to keep the test fast; tests/test_cli.py covers the entry point.
    base = ["compare", "vedma", "--deals", "1000", "--seed", "5", "--no-store", "--workers", "1"]
    assert cli.main(base + ["--strategies", "uniform", "edge", "centre", "--set", "players=3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["a"], r["b"]) for r in data["table"]] == [("uniform", "edge"), ("uniform", "centre"), ("edge", "centre")]
    assert all(r["deals"] == 1000 and r["mean_a"] + r["mean_b"] == pytest.approx(-6) for r in data["table"])
    assert data["runs"][0]["strategies"] == {"a_placement": "uniform", "b_placement": "edge"}
    assert cli.main(base + ["--strategies", "centre", "uniform"]) == 0
    assert "vedma compare, rules seed" in capsys.readouterr().out
    assert cli.main(base + ["--strategies", "edge", "middle"]) != 0
    assert "unknown vedma strategy 'middle'" in capsys.readouterr().err
