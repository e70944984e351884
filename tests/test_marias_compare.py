"""Mariáš duplicate comparison (issue 7): card-play strategy A as the actor against B defending,
then B against A, on the same deals, bids and doublings."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer.compare import compare
from analyzer.games.marias import GAME, compare_contracts_table, compare_shard_size, compare_strategies
from analyzer.runner import RunConfig, run


def game_run(actor, defenders, deals, seed, shard_size):
    return run(RunConfig("marias", "game", "seed", deals=deals, seed=seed, shard_size=shard_size,
                         strategies={"actor_play": actor, "defender_play": defenders})).counters


def compare_run(a, b, deals, seed, shard_size):
    return run(RunConfig("marias", "compare", "seed", deals=deals, seed=seed, shard_size=shard_size,
                         strategies={"a_play": a, "b_play": b})).counters


def test_compare_is_the_two_game_runs_on_the_same_deals():
    # Deterministic strategies: the duplicate comparison is exactly the ordinary whole-game run with
    # A as actor against B defending plus the one with the roles swapped, on the same seed.
    deals, seed, shard = 100, 12, 50
    table, runs = compare("marias", ["heuristic", "double_dummy"], deals=deals, seed=seed, shard_size=shard)
    c = runs[0].counters
    first = game_run("heuristic", "double_dummy", deals, seed, shard)["contracts"]
    second = game_run("double_dummy", "heuristic", deals, seed, shard)["contracts"]
    assert np.array_equal(c["by_contract"][:, 0], first[:, 0])
    assert np.array_equal(c["by_contract"][:, 0], second[:, 0])
    assert np.array_equal(c["by_contract"][:, 1], first[:, 1])      # A made it as the actor
    assert np.array_equal(c["by_contract"][:, 2], second[:, 1])     # B made it as the actor
    assert np.array_equal(c["by_contract"][:, 3], first[:, 2])
    assert np.array_equal(c["by_contract"][:, 4], second[:, 2])
    assert c["a_sum"][0] == first[:, 2].sum() and c["a_sq_sum"][0] == first[:, 3].sum()
    assert c["b_sum"][0] == second[:, 2].sum() and c["b_sq_sum"][0] == second[:, 3].sum()
    assert c["diff_sum"][0] == c["a_sum"][0] - c["b_sum"][0]
    assert c["wins"][0] + c["draws"][0] + c["losses"][0] == c["pairs"][0] == deals
    row = table.iloc[0]
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)
    assert row.ci_low < row.mean_diff < row.ci_high


def test_a_strategy_against_itself_draws_every_deal():
    c = compare_run("heuristic", "heuristic", 20_000, 4, 10_000)
    assert c["draws"][0] == 20_000 and c["diff_sum"][0] == 0 and c["diff_sq_sum"][0] == 0
    assert c["a_sum"][0] == c["b_sum"][0] == game_run("heuristic", "heuristic", 20_000, 4, 10_000)["contracts"][:, 2].sum()


def test_deals_bids_and_doublings_do_not_depend_on_the_strategies():
    # The random player draws from its own stream, never from the deal stream: every pair meets the
    # same contracts, and so does the heuristic pair and the ordinary game run.
    deals, seed, shard = 60, 8, 30
    _, runs = compare("marias", ["heuristic", "random", "double_dummy"], deals=deals, seed=seed, shard_size=shard)
    contracts = [r.counters["by_contract"][:, 0] for r in runs]
    contracts.append(compare_run("heuristic", "heuristic", deals, seed, shard)["by_contract"][:, 0])
    contracts.append(game_run("random", "random", deals, seed, shard)["contracts"][:, 0])
    for other in contracts[1:]:
        assert np.array_equal(contracts[0], other)
    # and the random player's stream is its own: the same pair on another seed plays other cards
    money = [compare_run("random", "heuristic", 2000, s, 1000)["a_sum"][0] for s in (1, 1, 2)]
    assert money[0] == money[1] != money[2]


def test_pimc_in_the_compare_kernel():
    c = compare_run("pimc", "heuristic", 2, 5, 2)
    assert c["pairs"][0] == 2 and c["wins"][0] + c["draws"][0] + c["losses"][0] == 2
    assert c["by_contract"][:, 0].sum() == 2 and c["by_contract"][:, 3].sum() == c["a_sum"][0]


def test_contracts_table_splits_the_money():
    c = compare_run("heuristic", "random", 5000, 3, 5000)
    table = compare_contracts_table(c, "heuristic", "random")
    assert table.deals.sum() == 5000
    assert (table.deals * table.heuristic_actor_mean_B).sum() == pytest.approx(c["a_sum"][0])
    assert (table.deals * table.random_actor_mean_B).sum() == pytest.approx(c["b_sum"][0])
    made = table.heuristic_actor_made
    assert ((0 <= made) & (made <= 1) & (table.heuristic_made_ci_low <= made) & (made <= table.heuristic_made_ci_high)).all()
    # random card play as the actor against the heuristic defence makes fewer contracts than the heuristic
    hra = table.set_index("contract").loc["hra"]
    assert hra.heuristic_made_ci_low > hra.random_made_ci_high


def test_labels_and_shard_sizes():
    assert compare_strategies("pimc", "random") == {"a_play": "pimc", "b_play": "random"}
    assert GAME.analysis("compare").resolve_strategies(compare_strategies("pimc", "random"))["doubling"] == "heuristic"
    assert compare_shard_size({"a_play": "heuristic", "b_play": "pimc"}) < compare_shard_size(
        {"a_play": "double_dummy", "b_play": "random"}) < compare_shard_size({"a_play": "heuristic", "b_play": "random"})


@pytest.mark.parametrize("labels,message", [(["heuristic", "bogus"], "unknown marias strategy 'bogus'"),
                                            (["heuristic+pimc", "random"], "card-play strategy"),
                                            (["pimc", "pimc"], "once")])
def test_compare_errors(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("marias", labels, deals=10, seed=1)


def test_compare_cli_json():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "marias", "--strategies", "heuristic", "random",
                           "--deals", "3000", "--seed", "3", "--json", "--no-store", "--workers", "1"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    row = data["table"][0]
    assert row["a"] == "heuristic" and row["b"] == "random" and row["deals"] == 3000
    assert data["runs"][0]["strategies"]["a_play"] == "heuristic"
    assert data["runs"][0]["analysis"] == "compare"


def test_compare_cli_search_players(runslow):
    # the command of the issue, on a handful of deals (PIMC takes seconds a deal, ~20 s here)
    if not runslow:
        pytest.skip("the PIMC command line takes ~20 s; run with --runslow")
    deals = "4"
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "marias", "--strategies", "heuristic",
                           "double_dummy", "pimc", "--deals", deals, "--no-store", "--workers", "1"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "simultaneous (Bonferroni over 3 pairs)" in proc.stdout
    assert proc.stdout.count("pimc") >= 2
