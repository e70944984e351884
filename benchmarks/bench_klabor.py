"""Single-core throughput of full klabor deals.

    python benchmarks/bench_klabor.py [--deals N] [--repeat R]

(a) the bare deal: shuffle 20 of 32 cards into the 6+6, turn-up, 3+3 and bottom-card layout and
    evaluate the hands' longest runs (the odds kernel);
(b) full deals with greedy play for both players: deal, two bidding rounds, dix, declarations,
    bella, nine tricks, bait rule, counters (the deals kernel, threshold 50; about 3% of deals are
    void and stop after the bidding);
(c) the same with threshold 0 (every deal is played out).
Prints deals per second per core (best of R repeats), the ratio b/a and the ratio of (b) to the
goal of 1,000,000 full deals per second per core (issue 10). Uses numpy's PCG64 through bitgen_t.
"""
import argparse
import time

import numpy as np

from analyzer._core import klabor
from analyzer.games import get_game
from analyzer.games.klabor import kernel_spec

GOAL = 1_000_000


def best_rate(fn, deals, repeat):
    best = 0.0
    for _ in range(repeat):
        gens = [np.random.PCG64(12345), np.random.PCG64(54321)]
        start = time.perf_counter()
        fn(gens, deals)
        best = max(best, deals / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = get_game("klabor")
    spec = kernel_spec(game.resolve_rules("standard"))
    spec_all = kernel_spec(game.resolve_rules("standard", {"threshold": 0}))
    a = best_rate(lambda g, n: klabor.odds_shard(g, n), args.deals, args.repeat)
    b = best_rate(lambda g, n: klabor.deals_shard(g, n, spec), args.deals, args.repeat)
    c = best_rate(lambda g, n: klabor.deals_shard(g, n, spec_all), args.deals, args.repeat)
    void = klabor.deals_shard([np.random.PCG64(1), np.random.PCG64(2)], 100_000, spec)["void"][0] / 100_000
    print(f"(a) bare deal 6+6+1+3+3+1 and run lengths:        {a / 1e6:8.2f} M deals/s per core")
    print(f"(b) full deals, greedy play, threshold 50:         {b / 1e6:8.2f} M deals/s per core"
          f"  ({void:.1%} void)")
    print(f"(c) full deals, greedy play, every deal played:    {c / 1e6:8.2f} M deals/s per core")
    print(f"ratio b/a: {b / a:.2f}   (b) / goal of {GOAL / 1e6:.0f} M: {b / GOAL:.2f}   (c) / goal: {c / GOAL:.2f}")


if __name__ == "__main__":
    main()
