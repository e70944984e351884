"""Single-core cost of constrained deals (analyzer/constrained.py), piquet declarations.

    python benchmarks/bench_constrained.py [--deals N] [--repeat R]

Prints deals per CPU-second (time.process_time, so that the load of other processes counts less)
of one shard, best of R repeats:
  (1) the plain declarations kernel (it deals by itself) — the reference;
  (2) elder's hand fixed: the dealer writes the packs, the kernel plays them (goal: at least half
      of (1), since a fixed hand must cost next to nothing);
  (3) nothing fixed, the predicate "count(younger & aces) >= 2" (accepts ~49%), per accepted deal;
  (4) the same predicate as a Python function on the numpy masks.
"""
import argparse
import time

from analyzer import constrained
from analyzer.cards import PIQUET32
from analyzer.games import get_game
from analyzer.runner import shard_bit_generators
from analyzer.strategies import register

ACES = constrained.constants(PIQUET32)["aces"]
GOAL_RATIO = 0.5


def two_aces(hands):
    return constrained.popcount(hands["younger"] & ACES) >= 2


def rate(analysis, rules, n, repeat, constraint):
    best = 0.0
    for i in range(repeat):
        gens = shard_bit_generators(i, 0, 1)
        start = time.process_time()
        if constraint:
            constrained.run_shard(analysis, gens, n, rules, None, constraint)
        else:
            analysis.kernel(gens, n, rules)
        best = max(best, n / max(time.process_time() - start, 1e-9))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = get_game("piquet")
    analysis = game.analysis("declarations")
    rules = game.resolve_rules("ru_seed")
    register("bench_two_aces", two_aces)
    cases = [("(1) plain declarations", {}),
             ("(2) elder's hand fixed", {"elder": "AS KS QS JS AH KH QH AD KD 9C 8C 7C"}),
             ("(3) --where expression, per accepted deal", {"where": "count(younger & aces) >= 2"}),
             ("(4) Python predicate, per accepted deal", {"where": "python:bench_two_aces"})]
    base = None
    for label, constraint in cases:
        r = rate(analysis, rules, args.deals, args.repeat, constrained.resolve(analysis.deal_layout, constraint)
                 if constraint else {})
        base = base or r
        print(f"{label:45s} {r:12,.0f} deals per CPU-second ({r / base:.2f} x plain; goal >= {GOAL_RATIO} for (2))")


if __name__ == "__main__":
    main()
