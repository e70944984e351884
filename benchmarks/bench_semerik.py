"""Single-core throughput of semerik.

    python benchmarks/bench_semerik.py [--deals N] [--repeat R]

(a) deal 40 cards into four hands and score the four hands' declarations;
(b) full deals with greedy play by both partnerships: deal, declarations, ten tricks, scoring and
    counters (the `deals` analysis kernel) — the issue's goal is 500,000 per second per core;
(c) the same with random play;
(d) PIMC (16 worlds) for one partnership against greedy, on a small number of deals;
(e) whole games to 21 with greedy play.
Prints the best of R repeats per second per core and the ratio of (b) to the goal.
"""
import argparse
import time

import numpy as np

from analyzer._core import semerik
from analyzer.games.semerik import PRESETS

GOAL_FULL_DEALS = 500_000


def best_rate(kernel, n, repeat, **options):
    spec = dict(PRESETS["default"], **options)
    best = 0.0
    for r in range(repeat):
        gens = [np.random.PCG64(1000 + r), np.random.PCG64(2000 + r)]
        start = time.perf_counter()
        kernel(gens, n, spec)
        best = max(best, n / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n = args.deals
    a = best_rate(semerik.declarations_shard, n, args.repeat)
    b = best_rate(semerik.deals_shard, n, args.repeat)
    c = best_rate(semerik.deals_shard, n, args.repeat, strategy_a="random", strategy_b="random")
    d = best_rate(semerik.deals_shard, max(n // 1000, 200), args.repeat, strategy_a="pimc")
    e = best_rate(semerik.games_shard, n // 5, args.repeat)
    print(f"(a) deal + declarations of four hands:    {a / 1e6:8.3f} M deals/s per core")
    print(f"(b) full deal, greedy play (both sides):  {b / 1e6:8.3f} M deals/s per core")
    print(f"(c) full deal, random play:               {c / 1e6:8.3f} M deals/s per core")
    print(f"(d) full deal, PIMC(16) vs greedy:        {d:8.0f} deals/s per core")
    print(f"(e) games to 21, greedy play:             {e / 1e3:8.1f} k games/s per core")
    print(f"(b) / goal of {GOAL_FULL_DEALS:,}: {b / GOAL_FULL_DEALS:.2f}   (b) / (a): {b / a:.2f}")


if __name__ == "__main__":
    main()
