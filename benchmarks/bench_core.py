"""Single-core throughput of the piquet declarations path.

    python benchmarks/bench_core.py [--deals N] [--repeat R]

(a) the bare deal: shuffle 32 cards into three bitboards (12/12/8);
(b) deal + full declaration scoring of both hands, counters included (the real kernel).
Prints deals per second per core for each (best of R repeats), the ratio b/a and the ratio of (b)
to the goal of 10 million deals per second (issue 2). Uses numpy's PCG64 through bitgen_t.
"""
import argparse
import time

import numpy as np

from analyzer._core import core, piquet
from analyzer.games import get_game

GOAL_B = 10_000_000


def best_rate(fn, deals, repeat):
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        fn(np.random.PCG64(12345), deals)
        best = max(best, deals / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    options = get_game("piquet").resolve_rules("ru_seed")
    a = best_rate(core.bare_deal_checksum, args.deals, args.repeat)
    b = best_rate(lambda g, n: piquet.declarations_shard(g, n, options), args.deals, args.repeat)
    print(f"(a) bare deal 12/12/8 into bitboards: {a / 1e6:8.2f} M deals/s per core")
    print(f"(b) deal + declarations of both hands: {b / 1e6:8.2f} M deals/s per core")
    print(f"ratio b/a: {b / a:.2f}   (b) / goal of {GOAL_B / 1e6:.0f} M: {b / GOAL_B:.2f}")


if __name__ == "__main__":
    main()
