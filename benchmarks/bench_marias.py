"""Single-core throughput of the mariáš kernel (issue 5 goals in brackets).

    python benchmarks/bench_marias.py [--deals N] [--solves N] [--repeat R]

(a) full deals of the natural game with heuristic players: deal, trump choice, discard,
    takeovers, contract, doublings, 10 tricks, settlement             [>= 500,000 per second]
(b) the forced-Stovka experiment per dealt deal (about 45 % qualify and are played, the
    trump-7 holders twice)
(c) double-dummy solves of a suit game from the first trick (exact value) [>= 500 per second]
(d) double-dummy solves of Malý (made or not)
(e) PIMC decisions of the actor (20 sampled deals, each solved)  (measured per decision)
Best of R repeats, one thread. Rates are per second of this process's CPU time (time.process_time),
so a machine shared with other jobs slows the wall clock but not the figure much; the wall-clock
rate is printed beside it.
"""
import argparse
import random
import time

import numpy as np

from analyzer._core import marias as core
from analyzer.cards import MARIAS32
from analyzer.games import get_game

GOAL_DEALS = 500_000
GOAL_SOLVES = 500


def best_rate(fn, n, repeat):
    """Best (CPU-time rate, wall-clock rate) over the repeats."""
    best_cpu = best_wall = 0.0
    for r in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        done = fn(r, n) or n
        best_cpu = max(best_cpu, done / (time.process_time() - cpu))
        best_wall = max(best_wall, done / (time.perf_counter() - wall))
    return best_cpu, best_wall


def pimc_decisions(r, n):
    """Play n deals with a PIMC actor and count its decisions (cards with more than one choice)."""
    rng = random.Random(r)
    options = get_game("marias").resolve_rules("seed")
    decisions = 0
    for deal in range(n):
        cards = MARIAS32.cards[:]
        rng.shuffle(cards)
        hands = [cards[0:10], cards[10:20], cards[20:30]]
        out = core.play_one([MARIAS32.mask(h) for h in hands], MARIAS32.mask(cards[30:]), 0, 0, rng.randrange(4), -1,
                            ["pimc", "heuristic", "heuristic"], [], options, np.random.PCG64(deal))
        decisions += sum(1 for seat, legal in zip(out["seats"], out["legal"]) if seat == 0 and bin(legal).count("1") > 1)
    return decisions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--solves", type=int, default=1_000)
    parser.add_argument("--pimc-deals", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    options = get_game("marias").resolve_rules("seed")
    heuristic = {"actor_play": "heuristic", "defender_play": "heuristic", "trump_choice": "longest", "doubling": "heuristic"}

    def natural(r, n):
        core.stovka_shard([np.random.PCG64(r), np.random.PCG64(r + 100), np.random.PCG64(r + 200)], n, options, heuristic, "natural")

    def forced(r, n):
        core.stovka_shard([np.random.PCG64(r), np.random.PCG64(r + 100), np.random.PCG64(r + 200)], n, options, dict(heuristic, doubling="none"))

    a = best_rate(natural, args.deals, args.repeat)
    b = best_rate(forced, args.deals, args.repeat)
    c = best_rate(lambda r, n: core.dd_benchmark(np.random.PCG64(r), n, 0) and None, args.solves, args.repeat)
    d = best_rate(lambda r, n: core.dd_benchmark(np.random.PCG64(r), n, 4) and None, args.solves, args.repeat)
    e = best_rate(pimc_decisions, args.pimc_deals, 1)
    print(f"(a) natural game, heuristic players:   {a[0]:12,.0f} deals/s per core   ({a[0] / GOAL_DEALS:.2f} x goal "
          f"{GOAL_DEALS:,}; wall clock {a[1]:,.0f})")
    print(f"(b) forced-Stovka experiment:           {b[0]:12,.0f} dealt deals/s per core (wall clock {b[1]:,.0f})")
    print(f"(c) double-dummy solve, suit game:      {c[0]:12,.0f} solves/s per core  ({c[0] / GOAL_SOLVES:.2f} x goal "
          f"{GOAL_SOLVES}; wall clock {c[1]:,.0f})")
    print(f"(d) double-dummy solve, Malý:           {d[0]:12,.0f} solves/s per core (wall clock {d[1]:,.0f})")
    print(f"(e) PIMC decisions (20 samples each):   {e[0]:12,.1f} decisions/s per core (wall clock {e[1]:,.1f})")


if __name__ == "__main__":
    main()
