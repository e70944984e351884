"""Single-core throughput of whole piquet deals.

    python benchmarks/bench_piquet.py [--deals N] [--solves N] [--pimc-deals N] [--repeat R]

Prints, best of R repeats on one core, per second of this process's CPU time (time.process_time,
so a shared machine slows the wall clock more than the figure), the wall-clock rate and the load
average beside it:
  (1) full deals per second with heuristic exchange and greedy play (goal 1,000,000), beside the
      floor of a random playout with no exchange (the DESIGN.md C floor does ~4-5 M/s);
  (2) double-dummy solves per second from the first trick (goal 10,000; a plain bitboard
      prototype did ~4,500);
  (3) PIMC decisions per second (16 sampled hands per decision, each solved double-dummy).
"""
import argparse
import os
import time

import numpy as np

from analyzer._core import core
from analyzer._core import piquet
from analyzer.games import get_game

GOAL_DEALS = 1_000_000
GOAL_SOLVES = 10_000


def strategies(exchange, play, younger_play=None):
    return {"elder_exchange": exchange, "younger_exchange": exchange, "elder_play": play,
            "younger_play": younger_play or play, "elder_announce": "sure", "younger_announce": "sure"}


def best_rate(fn, n, repeat):
    """Best (CPU-time rate, wall-clock rate) over the repeats."""
    best_cpu = best_wall = 0.0
    for i in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn(n, i)
        best_cpu = max(best_cpu, n / (time.process_time() - cpu))
        best_wall = max(best_wall, n / (time.perf_counter() - wall))
    return best_cpu, best_wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--solves", type=int, default=1000)
    parser.add_argument("--pimc-deals", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = get_game("piquet").resolve_rules("ru_seed")
    gens = lambda i: [np.random.PCG64(np.random.SeedSequence(i, spawn_key=(0, s))) for s in range(3)]

    full, full_wall = best_rate(lambda n, i: piquet.deal_shard(gens(i), n, rules, strategies("heuristic", "greedy")),
                                args.deals, args.repeat)
    floor, _ = best_rate(lambda n, i: piquet.deal_shard(gens(i), n, rules, strategies("refuse", "random")),
                         args.deals, args.repeat)
    print(f"(1) full deals, heuristic exchange + greedy play: {full:12,.0f} deals/s per core "
          f"({full / GOAL_DEALS:.2f} x goal {GOAL_DEALS:,}; wall {full_wall:,.0f}); floor, no exchange + random "
          f"play: {floor:12,.0f} (ratio {full / floor:.2f})")

    masks = core.deal_masks(np.random.PCG64(7), args.solves, [12, 12]).astype(np.uint32)
    solves, solves_wall = best_rate(lambda n, i: piquet.solve_many(masks[:n, 0], masks[:n, 1], rules),
                                    args.solves, args.repeat)
    print(f"(2) double-dummy solves from the first trick:      {solves:12,.0f} solves/s per core "
          f"({solves / GOAL_SOLVES:.2f} x goal {GOAL_SOLVES:,}; wall {solves_wall:,.0f})")

    decisions, decisions_wall = best_rate(
        lambda n, i: piquet.deal_shard(gens(i), n // 12, rules, strategies("heuristic", "pimc", "greedy")),
        12 * args.pimc_deals, args.repeat)
    print(f"(3) PIMC decisions (elder, 16 samples each):       {decisions:12,.0f} decisions/s per core "
          f"(wall {decisions_wall:,.0f})")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
