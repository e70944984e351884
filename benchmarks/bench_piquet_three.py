"""Single-core throughput of three-handed piquet deals.

    python benchmarks/bench_piquet_three.py [--deals N] [--repeat R]

Prints, best of R repeats on one core (one thread, so the figure is per core). Rates are per
second of the thread's CPU time (time.thread_time), so that a machine shared with other jobs does
not hide the kernel's speed; the wall-clock rate of (1) is printed beside it.
  (1) full three-handed deals per second with the heuristic dealer's exchange and greedy play by
      all three (goal 500,000), beside a floor: no exchange and random play;
  (2) deals per second with the dealer's best_expected exchange (greedy play);
  (3) PIMC deals per second (the first leader plays PIMC, 12 samples a decision, greedy playouts);
  (4) whole games to 100 per second (heuristic exchange, greedy play; survivors play two-handed).
"""
import argparse
import time

import numpy as np

from analyzer._core import piquet_three as core
from analyzer.games import piquet_three as g

GOAL_DEALS = 500_000


def gens(i):
    return [np.random.PCG64(np.random.SeedSequence(i, spawn_key=(0, s))) for s in range(4)]


def best_rate(fn, n, repeat, clock=time.thread_time):
    best = 0.0
    for i in range(repeat):
        start = clock()
        fn(n, i)
        best = max(best, n / max(clock() - start, 1e-9))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--expected-deals", type=int, default=5_000)
    parser.add_argument("--pimc-deals", type=int, default=200)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = g.GAME.resolve_rules("ru_three")
    two = g.two_handed_rules(rules)
    deal = lambda exchange, play, **roles: (
        lambda n, i: core.deal_shard(gens(i), n, rules, dict(g._deal_strategies(exchange, play), **roles), two))

    full = best_rate(deal("heuristic", "greedy"), args.deals, args.repeat)
    wall = best_rate(deal("heuristic", "greedy"), args.deals, args.repeat, clock=time.perf_counter)
    floor = best_rate(deal("refuse", "random"), args.deals, args.repeat)
    print(f"(1) full deals, heuristic exchange + greedy play: {full:12,.0f} deals/s per core "
          f"({full / GOAL_DEALS:.2f} x goal {GOAL_DEALS:,}; wall clock {wall:,.0f}/s); floor, no exchange + "
          f"random play: {floor:12,.0f} (ratio {full / floor:.2f})")
    expected = best_rate(deal("best_expected", "greedy"), args.expected_deals, args.repeat)
    print(f"(2) best_expected exchange + greedy play:         {expected:12,.0f} deals/s per core")
    pimc = best_rate(deal("heuristic", "greedy", first_play="pimc"), args.pimc_deals, 1)
    print(f"(3) first leader PIMC, others greedy:             {pimc:12,.0f} deals/s per core "
          f"(~{10 * pimc:,.0f} PIMC decisions/s)")
    games = best_rate(lambda n, i: core.game_shard(gens(i), n, rules, g._game_strategies("heuristic", "greedy"), two),
                      args.games, args.repeat)
    print(f"(4) games to 100, heuristic + greedy:             {games:12,.0f} games/s per core")


if __name__ == "__main__":
    main()
