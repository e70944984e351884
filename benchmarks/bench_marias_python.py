"""What a mariáš card-play strategy written in Python costs: the natural game played by the compiled
`heuristic` and by its Python copy (tests/marias_python_heuristic.py, which plays the same cards),
on the same deals.

    python benchmarks/bench_marias_python.py [--deals N] [--repeat R]

(a) every seat compiled                       (b) the defenders in Python, the actor compiled
(c) every seat in Python                      (d) every seat the first legal card, in Python
    (what the callback and the view cost without a strategy's own work)
Best of R repeats, one thread, through the game's kernel (analysis "game", the callback built as
the runner builds it). Rates are per second of this process's CPU time (time.process_time), the
wall-clock rate beside it; the slowdown is (a)'s rate over the other's, and "calls" the Python
decisions a deal (only cards with a choice reach Python).
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from marias_python_heuristic import HeuristicPlayer  # noqa: E402

from analyzer.games import get_game  # noqa: E402
from analyzer.strategies import register  # noqa: E402


class First:
    def choose_card(self, view):
        Counted.calls += 1
        return view.legal[0]


class Counted(HeuristicPlayer):
    calls = 0

    def choose_card(self, view):
        Counted.calls += 1
        return super().choose_card(view)


def best_rate(kernel, strategies, n, repeat):
    options = get_game("marias").resolve_rules("seed")
    best_cpu = best_wall = 0.0
    for r in range(repeat):
        Counted.calls = 0
        bits = [np.random.PCG64(r), np.random.PCG64(r + 100), np.random.PCG64(r + 200)]
        wall, cpu = time.perf_counter(), time.process_time()
        kernel(bits, n, options, strategies)
        best_cpu = max(best_cpu, n / (time.process_time() - cpu))
        best_wall = max(best_wall, n / (time.perf_counter() - wall))
    return best_cpu, best_wall, Counted.calls / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    analysis = get_game("marias").analysis("game")
    python = register("bench-heuristic", Counted)
    runs = [("(a) every seat compiled", dict(actor_play="heuristic", defender_play="heuristic"), args.deals * 20),
            ("(b) defenders in Python", dict(actor_play="heuristic", defender_play=python), args.deals),
            ("(c) every seat in Python", dict(actor_play=python, defender_play=python), args.deals),
            ("(d) first legal card, Python", dict.fromkeys(("actor_play", "defender_play"), register("bench-first", First)),
             args.deals)]
    base = None
    for label, roles, n in runs:
        cpu, wall, calls = best_rate(analysis.kernel, analysis.resolve_strategies(roles), n, args.repeat)
        base = base or cpu
        print(f"{label}: {cpu:10,.0f} deals/s per core (wall clock {wall:,.0f}); "
              f"slowdown {base / cpu:6.1f} x; {calls:.1f} Python calls a deal")


if __name__ == "__main__":
    main()
