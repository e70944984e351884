"""Single-core throughput of the square game kernels.

    python benchmarks/bench_square.py [--deals N] [--repeat R]

(a) random against random: deal 32 cards 16/16 and play the deal out with uniformly random legal
    actions (the move generator and scoring alone); the floor the strategies are measured against;
(b) spoiler against spoiler, R1 (the default analysis: both squares' line potentials per action);
(c) 2 vs 2, spoiler, asking the partner;
(d) the duplicate-deal threshold study (each deal played 16 times: 8 thresholds x 2 seatings).
Prints deals per second per core (best of R repeats), the ratio of each to (a), and (a) against
OpenSpiel's random euchre playout mark of about 96 thousand games/s (shared/DESIGN.md).
"""
import argparse
import time

import numpy as np

from analyzer._core import square as kernel
from analyzer.games.square import GAME, kernel_spec

OPENSPIEL_EUCHRE = 96_000


def best_rate(fn, deals, repeat):
    best = 0.0
    for i in range(repeat):
        start = time.perf_counter()
        fn(np.random.PCG64(12345 + i), np.random.PCG64(777 + i), deals)
        best = max(best, deals / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    two, four = GAME.resolve_rules("r1"), GAME.resolve_rules("r1_four")
    random_spec = kernel_spec(two, {"play_a": "random", "play_b": "random"})
    spoiler_spec = kernel_spec(two)
    four_spec = kernel_spec(four, {"ask": "always", "agree": "at7"})
    a = best_rate(lambda g, s, n: kernel.play_shard(g, s, n, random_spec), args.deals, args.repeat)
    b = best_rate(lambda g, s, n: kernel.play_shard(g, s, n, spoiler_spec), args.deals, args.repeat)
    c = best_rate(lambda g, s, n: kernel.play_shard(g, s, n, four_spec), args.deals, args.repeat)
    d = best_rate(lambda g, s, n: kernel.thresholds_shard(g, s, n, spoiler_spec), max(1, args.deals // 20), args.repeat)
    print(f"(a) random vs random, 2 players:     {a / 1e3:9.1f} k deals/s per core")
    print(f"(b) spoiler vs spoiler, R1:           {b / 1e3:9.1f} k deals/s per core   b/a {b / a:.2f}")
    print(f"(c) 2 vs 2 spoiler, asking partner:   {c / 1e3:9.1f} k deals/s per core   c/a {c / a:.2f}")
    print(f"(d) threshold study (16 plays/deal):  {d / 1e3:9.1f} k deals/s per core   d/a {d / a:.3f}")
    print(f"(a) / OpenSpiel random euchre mark of {OPENSPIEL_EUCHRE / 1e3:.0f} k games/s: {a / OPENSPIEL_EUCHRE:.2f}")


if __name__ == "__main__":
    main()
