"""Fair strategy comparisons on duplicate deals.

A game that supports comparison offers an analysis named ``compare`` whose kernel plays every deal
with strategy A and with strategy B in every seat (for two-player games: twice, seats swapped) and
returns these counters, all sums that add up across shards:

    pairs                  number of deals
    diff_sum, diff_sq_sum  sum and sum of squares of the paired difference d = result(A) - result(B)
    wins, draws, losses    deals with d > 0, d = 0, d < 0
    a_sum, a_sq_sum        sum and sum of squares of A's per-deal result
    b_sum, b_sq_sum        the same for B

and a function ``Game.compare_strategies(a, b)`` that turns two strategy labels into the role ->
strategy mapping of that analysis. From these sums, this module reports for each pair the mean
difference with a 95% interval from the paired differences, the win/draw/loss split, and the
interval the same data would give if the two samples were treated as independent (unpaired), so
the variance saved by pairing is visible. With more than two strategies every pair is compared,
p-values are adjusted by Holm's method and the intervals are Bonferroni-widened so that they hold
simultaneously.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from .games import get_game
from .runner import DEFAULT_SHARD_SIZE, RunConfig, run
from .stats import CONFIDENCE, MIN_NORMAL_N

COMPARE_COUNTERS = ("pairs", "diff_sum", "diff_sq_sum", "wins", "draws", "losses",
                    "a_sum", "a_sq_sum", "b_sum", "b_sq_sum")


def _variance(total: float, total_sq: float, n: int) -> float:
    mean = total / n
    return max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)


def summarize(counters: dict, alpha: float) -> dict:
    """Paired and unpaired estimates of mean(result(A) - result(B)) from compare counters."""
    n = int(counters["pairs"][0])
    if n < 2:
        raise ValueError("a comparison needs at least 2 deals")
    c = {k: float(counters[k][0]) for k in COMPARE_COUNTERS}
    mean = c["diff_sum"] / n
    se_paired = np.sqrt(_variance(c["diff_sum"], c["diff_sq_sum"], n) / n)
    se_unpaired = np.sqrt((_variance(c["a_sum"], c["a_sq_sum"], n) + _variance(c["b_sum"], c["b_sq_sum"], n)) / n)
    t = scipy_stats.t.ppf(1 - alpha / 2, n - 1)
    if se_paired > 0:
        p = 2 * scipy_stats.t.sf(abs(mean) / se_paired, n - 1)
    elif n >= MIN_NORMAL_N:  # every one of many deals gave the same difference
        p = 1.0 if mean == 0 else 0.0
    else:                    # a handful of equal differences proves nothing: no interval, no p
        p = se_paired = np.nan
    if se_unpaired == 0 and n < MIN_NORMAL_N:
        se_unpaired = np.nan
    return {
        "deals": n,
        "mean_a": c["a_sum"] / n,
        "mean_b": c["b_sum"] / n,
        "mean_diff": mean,
        "ci_low": mean - t * se_paired,
        "ci_high": mean + t * se_paired,
        "unpaired_ci_low": mean - t * se_unpaired,
        "unpaired_ci_high": mean + t * se_unpaired,
        "variance_ratio": (se_unpaired / se_paired) ** 2 if se_paired > 0 else np.nan,
        "a_better": c["wins"] / n,
        "equal": c["draws"] / n,
        "b_better": c["losses"] / n,
        "p_value": p,
    }


def compare_table(results: list[tuple[str, str, dict]], confidence: float = CONFIDENCE) -> pd.DataFrame:
    """One row per compared pair (label A, label B, counters); Holm-adjusted p-values and
    simultaneous (Bonferroni) intervals when there is more than one pair."""
    m = len(results)
    alpha = (1 - confidence) / m
    rows = [dict(a=a, b=b, **summarize(counters, alpha)) for a, b, counters in results]
    table = pd.DataFrame(rows)
    table["p_holm"] = multipletests(table["p_value"], method="holm")[1] if m > 1 else table["p_value"]
    table.attrs["interval"] = (f"{confidence:.0%} simultaneous (Bonferroni over {m} pairs)" if m > 1
                               else f"{confidence:.0%}")
    return table


def _sides(strategies: dict[str, str]) -> tuple[dict, dict]:
    """A's and B's roles of a compare run, by role (keys a, a_play, play_a ... name the side)."""
    sides = ({}, {})
    for key, value in strategies.items():
        words = key.split("_")
        side = 0 if "a" in words else 1
        sides[side]["_".join(w for w in words if w not in ("a", "b")) or "strategy"] = value
    return sides


def compare(game_name: str, labels: list[str], deals: int, seed: int, rules: str | None = None,
            overrides: dict | None = None, workers: int = 1, backend: str = "threads",
            shard_size: int | None = None, runner=run) -> tuple[pd.DataFrame, list]:
    """Compare strategies head to head on the same deals (every pair, seats rotated)."""
    game = get_game(game_name)
    if game.compare_strategies is None or "compare" not in game.analyses:
        raise ValueError(f"{game_name} does not support strategy comparison yet")
    if len(labels) < 2:
        raise ValueError("compare needs at least two strategies")
    if isinstance(deals, int) and deals < 2:      # (checked before any deal is played and stored)
        raise ValueError("a comparison needs at least 2 deals")
    if len(set(labels)) != len(labels):
        raise ValueError(f"each strategy may be named once, got {' '.join(labels)}")
    rules = rules or next(iter(game.presets))
    pairs = [(a, b, game.compare_strategies(a, b)) for a, b in combinations(labels, 2)]
    for a, b, strategies in pairs:
        side_a, side_b = _sides(strategies)
        if side_a == side_b:
            raise ValueError(f"{a!r} and {b!r} are the same strategy ({', '.join(f'{k}={v}' for k, v in side_a.items())})")
    if shard_size is None:
        # One shard size for every pair, so that every pair plays the very same deals (a shard's
        # deals depend on its index and size); the smallest any pair asks for.
        shard_size = min(game.compare_shard_size(s) if game.compare_shard_size else DEFAULT_SHARD_SIZE
                         for _, _, s in pairs)
    runs, rows = [], []
    for a, b, strategies in pairs:
        config = RunConfig(game=game_name, analysis="compare", rules=rules, overrides=overrides or {},
                           deals=deals, seed=seed, strategies=strategies, shard_size=shard_size)
        result = runner(config, workers=workers, backend=backend)
        if not result.complete:
            raise KeyboardInterrupt
        runs.append(result)
        rows.append((a, b, result.counters))
    return compare_table(rows), runs
