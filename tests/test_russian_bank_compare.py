"""Russian Bank: `kozyr compare` on duplicate deals (each deal played twice, the strategies swapped
between the packs; result = points won, see russian_bank.compare_strategies)."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer._core import russian_bank as core
from analyzer.compare import COMPARE_COUNTERS, compare
from analyzer.games import russian_bank as rb
from analyzer.runner import RunConfig, run, shard_bit_generators

from compare_reference import compare_counters

ROW_FIRST, ROW_END, ROW_WINNER, ROW_SCORE, ROW_TURNS = range(5)
END_CODES = {"running": 0, "win": 1, "stall": 2, "cap": 3}


def shard(a, b, n, seed=4, **overrides):
    """One compare shard on the runner's generators of (seed, shard 0); returns the counters, the
    per-game rows and the three generators after the shard."""
    rules = rb.resolve("default", overrides)
    gens = shard_bit_generators(seed, 0, 3)
    rows = np.zeros((n, 2, 5), dtype=np.int32)
    counters = core.compare_shard(gens, n, rules, {"a": a, "b": b}, rows)
    return counters, rows, gens


def results_from_rows(rows):
    """A's and B's per-deal points: game 0 has A on pack 0, game 1 has A on pack 1."""
    a = np.zeros(len(rows), dtype=np.int64)
    b = np.zeros(len(rows), dtype=np.int64)
    for game in range(2):
        won = rows[:, game, ROW_END] == END_CODES["win"]
        a_won = won & (rows[:, game, ROW_WINNER] == game)
        b_won = won & (rows[:, game, ROW_WINNER] == 1 - game)
        a += np.where(a_won, rows[:, game, ROW_SCORE], 0)
        b += np.where(b_won, rows[:, game, ROW_SCORE], 0)
    return a, b


@pytest.mark.parametrize("a,b", [("greedy", "random"), ("random", "greedy")])
def test_both_games_of_every_deal_replay_move_by_move(a, b):
    # Replay each deal's two games with the single-position engine: the deals from stream 0 as the
    # kernels deal them, the random player's choices from its own stream (1 as A, 2 as B), in
    # deal order, game 0 (A on pack 0) before game 1 (A on pack 1).
    n, caps = 60, dict(max_turns=300)
    counters, rows, gens = shard(a, b, n, **caps)
    fresh = shard_bit_generators(4, 0, 3)
    random_stream = 1 if a == "random" else 2
    greedy_stream = 3 - random_stream
    state = core.DuelState(rb.resolve("default", caps), fresh[random_stream])
    deals = core.deal_stream(fresh[0], n)
    loads, redeals, actions = np.zeros(2, np.int64), np.zeros(2, np.int64), 0
    loads_sq, redeals_sq, actions_sq = np.zeros(2, np.int64), np.zeros(2, np.int64), 0
    for d, packs in enumerate(deals):
        for game, by_pack in enumerate(((a, b), (b, a))):
            state.deal(*packs)
            first = state.piles()["player"]
            while state.status()["end"] == "running":
                state.step(by_pack)
            st = state.status()
            a_pack = game
            game_loads = np.array([st["loads"][a_pack], st["loads"][1 - a_pack]])
            game_redeals = np.array([state.piles()["redeals"][a_pack], state.piles()["redeals"][1 - a_pack]])
            loads += game_loads
            loads_sq += game_loads ** 2
            redeals += game_redeals
            redeals_sq += game_redeals ** 2
            actions += st["actions"]
            actions_sq += st["actions"] ** 2
            assert rows[d, game, ROW_FIRST] == first
            assert rows[d, game, ROW_END] == END_CODES[st["end"]]
            assert rows[d, game, ROW_WINNER] == (st["winner"] if st["end"] == "win" else -1)
            assert rows[d, game, ROW_SCORE] == st["score"]
            assert rows[d, game, ROW_TURNS] == st["turns"]
    # the random player used exactly its own stream; greedy never drew; the deals used stream 0 only
    assert gens[random_stream].state == fresh[random_stream].state
    assert gens[greedy_stream].state == shard_bit_generators(4, 0, 3)[greedy_stream].state
    assert gens[0].state == fresh[0].state
    # the counters are the sums of the per-deal results
    ra, rb_ = results_from_rows(rows)
    expected = compare_counters(ra, rb_)
    assert expected["pairs"] == n
    assert {k: int(counters[k][0]) for k in COMPARE_COUNTERS} == {k: int(v) for k, v in expected.items()}
    assert (rows[:, :, ROW_END] == END_CODES["win"]).sum() > n   # most games are decided
    # the duel statistics beside them: outcome by A's seat, length, loads, redeals, actions
    by_seat = np.zeros((2, 4), np.int64)
    for game in range(2):
        a_seat = (rows[:, game, ROW_FIRST] != game).astype(int)
        won = rows[:, game, ROW_END] == END_CODES["win"]
        outcome = np.where(won, np.where(rows[:, game, ROW_WINNER] == game, 0, 1),
                           np.where(rows[:, game, ROW_END] == END_CODES["stall"], 2, 3))
        np.add.at(by_seat, (a_seat, outcome), 1)
    assert np.array_equal(counters["by_seat"], by_seat)
    decided_turns = rows[:, :, ROW_TURNS][rows[:, :, ROW_END] == END_CODES["win"]]
    assert np.array_equal(counters["turns_hist"], np.bincount(decided_turns, minlength=counters["turns_hist"].size))
    assert counters["turns"][0] == decided_turns.sum() and counters["turns_sumsq"][0] == (decided_turns ** 2).sum()
    assert list(counters["loads"]) == list(loads) and list(counters["redeals"]) == list(redeals)
    assert list(counters["loads_sumsq"]) == list(loads_sq) and list(counters["redeals_sumsq"]) == list(redeals_sq)
    assert counters["actions"][0] == actions and counters["actions_sumsq"][0] == actions_sq
    table = rb.duplicate_table(counters, a, b)
    row = table.set_index("event").loc
    assert row[f"{a} (A) wins", "count"] == by_seat[:, 0].sum() and row["draw", "n"] == 2 * n
    assert row["first wins", "count"] + row["second wins", "count"] + row["draw", "count"] == 2 * n
    # the means have the normal interval of the per-game values
    turns = decided_turns.astype(float)
    half = 1.959964 * turns.std(ddof=1) / np.sqrt(turns.size)
    assert row["mean turns (decided)", "ci_low"] == pytest.approx(turns.mean() - half, rel=1e-6)
    assert row["mean turns (decided)", "ci_high"] == pytest.approx(turns.mean() + half, rel=1e-6)


def test_pairing_identity_with_the_duel_analysis():
    # Greedy against itself: both games of a deal are the same game, so every paired difference is
    # 0, and each side's points are the winners' scores of the ordinary duel run on the same seed.
    n = 1500
    counters = run(RunConfig("russian_bank", "compare", "default", deals=n, seed=12,
                             strategies={"a": "greedy", "b": "greedy"}, shard_size=500), progress=False).counters
    duel = run(RunConfig("russian_bank", "duel", "default", deals=n, seed=12, shard_size=500,
                         strategies={"first": "greedy", "second": "greedy"}), progress=False).counters
    hist = duel["score_hist"]
    assert hist[-1] == 0                      # no score clipped into the last bin
    points = int((hist * np.arange(hist.size)).sum())
    squares = int((hist * np.arange(hist.size) ** 2).sum())
    assert counters["pairs"][0] == n and counters["draws"][0] == n and counters["diff_sq_sum"][0] == 0
    assert counters["a_sum"][0] == counters["b_sum"][0] == points
    assert counters["a_sq_sum"][0] == counters["b_sq_sum"][0] == squares
    # Both games of a deal are the duel's game, so the duel's sums of squares (checked move by move
    # against the engine for compare above) are half of compare's; A plays each seat once a deal.
    assert counters["actions_sumsq"][0] == 2 * duel["sums_sumsq"][0]
    assert counters["turns_sumsq"][0] == 2 * duel["sums_sumsq"][3] and counters["turns"][0] == 2 * duel["sums"][3]
    assert counters["loads_sumsq"][0] == counters["loads_sumsq"][1] == duel["seat_sums_sumsq"][:, 0].sum()
    assert counters["redeals_sumsq"][0] == counters["redeals_sumsq"][1] == duel["seat_sums_sumsq"][:, 1].sum()
    seat_loads = duel["seat_sums_sumsq"][:, 0]
    assert seat_loads.min() > 0 and duel["sums_sumsq"][1] >= seat_loads.sum()   # (a + b)^2 >= a^2 + b^2


@pytest.mark.parametrize("overrides", [{}, dict(first_player="random"), dict(stop_mode="call", p_detect=0.5)])
def test_deals_do_not_depend_on_the_strategies(overrides):
    n = 80
    runs = {pair: shard(*pair, n, max_turns=200, **overrides) for pair in
            (("greedy", "greedy"), ("greedy", "random"), ("random", "random"))}
    states = {pair: gens[0].state for pair, (_, _, gens) in runs.items()}
    firsts = {pair: rows[:, :, ROW_FIRST].copy() for pair, (_, rows, _) in runs.items()}
    reference = next(iter(states.values()))
    assert all(s == reference for s in states.values())
    if not overrides:
        # without a starter draw, stream 0 is exactly the duel's dealing stream
        fresh = shard_bit_generators(4, 0, 3)[0]
        core.deal_stream(fresh, n)
        assert reference == fresh.state
    first = next(iter(firsts.values()))
    assert all(np.array_equal(f, first) for f in firsts.values())
    assert np.array_equal(first[:, 0], first[:, 1])          # both games start with the same pack
    assert 0 < first[:, 0].sum() < n                          # either pack may start
    for counters, _, _ in runs.values():
        assert counters["wins"][0] + counters["draws"][0] + counters["losses"][0] == n


def test_greedy_beats_random_and_shards_add_up():
    one, runs = compare("russian_bank", ["greedy", "random"], deals=400, seed=3, overrides=dict(max_turns=500),
                        shard_size=100)
    two, _ = compare("russian_bank", ["greedy", "random"], deals=400, seed=3, overrides=dict(max_turns=500),
                     shard_size=100, workers=2)
    assert one.equals(two)
    row = one.iloc[0]
    assert row.deals == 400 and row.ci_low > 0 and row.a_better > row.b_better
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)
    assert runs[0].config.strategy_names == {"a": "greedy", "b": "random"}


def test_compare_strategies_and_errors():
    assert rb.compare_strategies("random", "greedy") == {"a": "random", "b": "greedy"}
    for labels in (["greedy", "bogus"], ["greedy+greedy", "random"], ["python:m:C", "greedy"]):
        with pytest.raises(ValueError, match="unknown russian_bank strategy"):
            compare("russian_bank", labels, deals=10, seed=1)
    with pytest.raises(ValueError, match="rows must be"):
        core.compare_shard(shard_bit_generators(1, 0, 3), 5, rb.resolve("default"), {"a": "greedy", "b": "random"},
                           np.zeros((5, 2, 4), dtype=np.int32))


def cli(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", "compare", "russian_bank", *args, "--no-store"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=300)


def test_compare_cli():
    proc = cli("--strategies", "greedy", "random", "--deals", "300", "--seed", "5", "--set", "max_turns=400",
               "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    row = data["table"][0]
    assert (row["a"], row["b"], row["deals"]) == ("greedy", "random", 300)
    assert data["runs"][0]["strategies"] == {"a": "greedy", "b": "random"}
    bad = cli("--strategies", "greedy", "clever", "--deals", "10")
    assert bad.returncode != 0 and "unknown russian_bank strategy 'clever'" in bad.stderr
