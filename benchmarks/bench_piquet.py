"""Single-core throughput of whole piquet deals.

    python benchmarks/bench_piquet.py [--deals N] [--repeat R]

Prints, best of R repeats on one core:
  (1) full deals per second with heuristic exchange and greedy play (goal 1,000,000), beside the
      floor of a random playout with no exchange (the DESIGN.md C floor does ~4-5 M/s);
  (2) double-dummy solves per second from the first trick (goal 10,000; a plain bitboard
      prototype did ~4,500);
  (3) PIMC decisions per second (16 sampled hands per decision, each solved double-dummy).
"""
import argparse
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
    best = 0.0
    for i in range(repeat):
        start = time.perf_counter()
        fn(n, i)
        best = max(best, n / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--solves", type=int, default=1000)
    parser.add_argument("--pimc-deals", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = get_game("piquet").resolve_rules("ru_seed")
    gens = lambda i: [np.random.PCG64(np.random.SeedSequence(i, spawn_key=(0, s))) for s in range(3)]

    full = best_rate(lambda n, i: piquet.deal_shard(gens(i), n, rules, strategies("heuristic", "greedy")),
                     args.deals, args.repeat)
    floor = best_rate(lambda n, i: piquet.deal_shard(gens(i), n, rules, strategies("refuse", "random")),
                      args.deals, args.repeat)
    print(f"(1) full deals, heuristic exchange + greedy play: {full:12,.0f} deals/s per core "
          f"({full / GOAL_DEALS:.2f} x goal {GOAL_DEALS:,}); floor, no exchange + random play: {floor:12,.0f} "
          f"(ratio {full / floor:.2f})")

    masks = core.deal_masks(np.random.PCG64(7), args.solves, [12, 12]).astype(np.uint32)
    solves = best_rate(lambda n, i: piquet.solve_many(masks[:n, 0], masks[:n, 1], rules), args.solves, args.repeat)
    print(f"(2) double-dummy solves from the first trick:      {solves:12,.0f} solves/s per core "
          f"({solves / GOAL_SOLVES:.2f} x goal {GOAL_SOLVES:,})")

    start = time.perf_counter()
    piquet.deal_shard(gens(0), args.pimc_deals, rules, strategies("heuristic", "pimc", "greedy"))
    decisions = 12 * args.pimc_deals / (time.perf_counter() - start)
    print(f"(3) PIMC decisions (elder, 16 samples each):       {decisions:12,.0f} decisions/s per core")


if __name__ == "__main__":
    main()
