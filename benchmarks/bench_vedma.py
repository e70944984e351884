"""Single-core throughput of Ved'ma: deal and play whole games (uniform draws, counters included).

    python benchmarks/bench_vedma.py [--games N] [--repeat R]

Prints games per second per core (best of R repeats) for the goal case of issue 12 — 4 players,
32 cards, in both discard orders — and a few other table sizes, and the ratio of the goal case to
the goal of 1,000,000 games per second per core. Uses numpy's PCG64 through bitgen_t.
Two figures per case: per wall-clock second and per second of this thread's CPU time; on a
machine shared with other work the second is the fairer "per core" figure.
"""
import argparse
import time

import numpy as np

from analyzer._core import vedma
from analyzer.games import get_game

GOAL = 1_000_000
CASES = [("seed", 4, 32), ("standard", 4, 32), ("seed", 2, 32), ("seed", 6, 32), ("seed", 3, 52), ("standard", 6, 52)]


def best_rate(options, games, repeat):
    """Best games per wall-clock second and per CPU second over the repeats."""
    wall = cpu = 0.0
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        vedma.play_shard(np.random.PCG64(12345), games, options)
        wall = max(wall, games / (time.perf_counter() - start))
        cpu = max(cpu, games / max(time.thread_time() - start_cpu, 1e-9))
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = get_game("vedma")
    rates = {}
    for preset, players, deck in CASES:
        options = game.resolve_rules(preset, {"players": players, "deck": deck})
        rates[(preset, players, deck)] = wall, cpu = best_rate(options, args.games, args.repeat)
        print(f"{preset:8s} order, {players} players, {deck} cards: {wall / 1e6:6.2f} M games/s (wall clock), "
              f"{cpu / 1e6:6.2f} M games per CPU second")
    wall, cpu = rates[("seed", 4, 32)]
    print(f"goal case (seed order, 4 players, 32 cards) / goal of {GOAL / 1e6:.0f} M: "
          f"{wall / GOAL:.2f} (wall clock), {cpu / GOAL:.2f} (CPU time)")


if __name__ == "__main__":
    main()
