"""Single-core throughput of semerik.

    python benchmarks/bench_semerik.py [--deals N] [--repeat R]

(a) deal 40 cards into four hands and score the four hands' declarations;
(b) full deals with greedy play by both partnerships: deal, declarations, ten tricks, scoring and
    counters (the `deals` analysis kernel) — the issue's goal is 500,000 per second per core;
(c) the same with random play;
(d) PIMC (16 worlds) for one partnership against greedy, on a small number of deals;
(e) whole games to 21 with greedy play.
Prints the best of R repeats per second per core and the ratio of (b) to the goal. Each run is
timed both by the wall clock and by the process's CPU time: on a shared, overloaded machine the
wall clock counts time the process spent waiting for a core, the CPU time does not.
"""
import argparse
import time

import numpy as np

from analyzer._core import semerik
from analyzer.games.semerik import PRESETS

GOAL_FULL_DEALS = 500_000


def best_rate(kernel, n, repeat, **options):
    """Best (wall-clock rate, CPU-time rate) over the repeats."""
    spec = dict(PRESETS["default"], **options)
    wall = cpu = 0.0
    for r in range(repeat):
        gens = [np.random.PCG64(1000 + r), np.random.PCG64(2000 + r)]
        start, start_cpu = time.perf_counter(), time.process_time()
        kernel(gens, n, spec)
        wall = max(wall, n / (time.perf_counter() - start))
        cpu = max(cpu, n / max(time.process_time() - start_cpu, 1e-9))
    return wall, cpu


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
    print("per core, best of repeats:                 wall clock     CPU time")
    print(f"(a) deal + declarations of four hands:  {a[0] / 1e6:8.3f} M/s   {a[1] / 1e6:8.3f} M deals/s")
    print(f"(b) full deal, greedy play (both sides): {b[0] / 1e6:8.3f} M/s   {b[1] / 1e6:8.3f} M deals/s")
    print(f"(c) full deal, random play:              {c[0] / 1e6:8.3f} M/s   {c[1] / 1e6:8.3f} M deals/s")
    print(f"(d) full deal, PIMC(16) vs greedy:       {d[0]:8.0f} /s   {d[1]:8.0f} deals/s")
    print(f"(e) games to 21, greedy play:            {e[0] / 1e3:8.1f} k/s   {e[1] / 1e3:8.1f} k games/s")
    print(f"(b) / goal of {GOAL_FULL_DEALS:,}: wall {b[0] / GOAL_FULL_DEALS:.2f}, CPU {b[1] / GOAL_FULL_DEALS:.2f};"
          f"   (b) / (a): {b[1] / a[1]:.2f}")


if __name__ == "__main__":
    main()
