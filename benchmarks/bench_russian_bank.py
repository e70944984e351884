"""Single-core throughput of the Russian Bank kernels.

    python benchmarks/bench_russian_bank.py [--games N] [--deals N] [--budget B] [--repeat R]

(a) duel games per second with the greedy policy G1 for both players (deal + whole game), against
    the goal of 100,000 games per second per core (issue 6);
(b) duel games per second with the random policy (long, mostly-moving games);
(e) duel games per second with the blind turn planner (lookahead) for both players;
(c) the SOLO(∞, none) solver (open pool, D1 + D3) on random layouts: nodes per second, solved deals
    per second and the share unresolved within the node budget, against the goal of 10 million
    nodes per second;
(d) the literal model on the same layouts under SOLO(∞, strict), and (j) under SOLO(2, none), with
    the rest of a pass as one class (free_cycling, the default since 0.9.0) and without it;
(f) blind SOLO games per second: random SOLO(∞, none) layouts played by G1 (deal + whole game; no
    goal in issue 6), and (h) by the hindsight policy with the report's settings (16 stock orders a
    decision, 1,000 nodes a search), with its solver searches and nodes per second;
(i) line (c) again with its pruning switched off, one part after another (the stuck tests, the D3
    normal form, the dominances): what each part costs in nodes per second and gives in decided deals,
    i.e. how far the node rate alone is from measuring the solver;
(g) the solver where the headline run spends most of its time: seven hard SOLO(∞, none) layouts
    (SoloPosition.deal(s) for the seeds below 400 that need 2-3 million nodes or more) at a 10^7-node
    budget with a table of up to 2^26 entries (2 GB), the regime of the headline's 3x10^7 budget,
    where the random table accesses, not the instructions, set the pace.
Best of R repeats, one thread. Numbers from a machine shared with other jobs are noisy: every line
is per CPU-second of the running thread (time.thread_time; the duel lines also give wall-clock) and
prints the load average beside it; the transposition
table is the cache-bound part, so the rate still drops when other jobs share the caches.
"""
import argparse
import os
import time

import numpy as np

from analyzer._core import russian_bank as core
from analyzer.games import russian_bank as rb

GOAL_GAMES = 100_000
GOAL_NODES = 10_000_000
HARD_SEEDS = (75, 227, 243, 247, 269, 275, 305)


def timed(fn, repeat, clock=time.perf_counter):
    """(seconds, result) of each of repeat runs."""
    results = []
    for _ in range(repeat):
        start = clock()
        out = fn()
        results.append((clock() - start, out))
    return results


def best(fn, repeat, clock=time.perf_counter):
    return min(timed(fn, repeat, clock), key=lambda r: r[0])


def duel_rate(strategy, games, repeat):
    """Games per CPU-second (best and worst of repeat), per wall-clock second (best of repeat), and
    actions per game. The worst run shows how much the machine itself varies: on a shared virtual
    machine the same build has measured 0.6 x its best a few seconds later."""
    options = dict(rb.resolve("default"), first_strategy=strategy, second_strategy=strategy)
    play = lambda: core.duel_shard(np.random.PCG64(1), np.random.PCG64(2), games, options)
    runs = timed(play, repeat, time.thread_time)
    wall, _ = best(play, repeat)
    counters = runs[0][1]
    return (games / min(t for t, _ in runs), games / max(t for t, _ in runs), games / wall,
            counters["sums"][0] / games)


def load():
    return f"load average {os.getloadavg()[0]:.1f}"


# (i): the solver of line (c) with its pruning switched off, one part after another
PRUNING_OFF = (("no stuck tests", dict(stuck_prune=False)), ("no D3", dict(d3=False)),
               ("no stuck tests, no D3", dict(stuck_prune=False, d3=False)),
               ("none (no stuck tests, D3 or dominances)", dict(stuck_prune=False, d3=False, dominance=False)))


def solo_rate(deals, budget, repeat, strict, k=None, **switches):
    # the open pool is SOLO(∞, none) alone (F1); every other game is searched in the literal model
    options = dict(dict(k=k, strict=strict, open_pool=not strict and k is None, dominance=True, d3=True, tempo=False,
                        budget=budget, tt_bits=20), **switches)
    seconds, counters = best(lambda: core.solo_shard(np.random.PCG64(3), deals, options), repeat, time.thread_time)
    return counters["node_sum"][0] / seconds, deals / seconds, counters["outcome"][2] / deals


def hard_rate(repeat, budget=10_000_000, tt_bits=26):
    """Nodes per CPU-second on the hard layouts, and their outcomes."""
    solver = core.SoloSolver(tt_bits)

    def solve_all():
        results = []
        for seed in HARD_SEEDS:
            solver.set_position(rb.SoloPosition.deal(seed)._core_dict())
            results.append(solver.solve(None, False, True, True, False, budget, True, True))
        return results
    seconds, results = best(solve_all, repeat, time.thread_time)
    return sum(r["nodes"] for r in results) / seconds, [r["outcome"] for r in results]


def blind_rate(games, repeat):
    """Blind SOLO(∞) games of G1 per CPU-second and per wall-clock second, actions per game, win share."""
    play = lambda: core.blind_shard(np.random.PCG64(4), games, dict(k=None, policy="greedy"))
    cpu, counters = best(play, repeat, time.thread_time)
    wall, _ = best(play, repeat)
    return games / cpu, games / wall, counters["actions"][0] / games, counters["outcome"][0] / games


def hindsight_rate(games, repeat):
    """Blind SOLO(∞, none) games of the hindsight policy per CPU-second, searches and nodes per
    CPU-second, win share (the report's settings)."""
    options = dict(k=None, policy="hindsight", samples=rb.DEFAULTS["hindsight_samples"],
                   sample_budget=rb.DEFAULTS["hindsight_budget"])
    play = lambda: core.blind_shard(np.random.PCG64(4), games, options, policy_bitgen=np.random.PCG64(5))
    cpu, counters = best(play, repeat, time.thread_time)
    _, _, solves, nodes, _ = counters["hindsight"]
    return games / cpu, solves / cpu, nodes / cpu, counters["outcome"][0] / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    g, g_worst, g_wall, actions = duel_rate("greedy", args.games, args.repeat)
    print(f"(a) duel, greedy vs greedy: {g:10,.0f} games per CPU-second (worst of {args.repeat} runs "
          f"{g_worst:,.0f}; {g_wall:,.0f} wall; {actions:.0f} actions/game); goal {GOAL_GAMES:,}: ratio "
          f"{g / GOAL_GAMES:.3f} ({load()})")
    r, _, r_wall, actions = duel_rate("random", max(1, args.games // 10), args.repeat)
    print(f"(b) duel, random vs random: {r:10,.0f} games per CPU-second ({r_wall:,.0f} wall; {actions:.0f} "
          f"actions/game, {r * actions / 1e6:.2f} M actions/s) ({load()})")
    p, _, p_wall, actions = duel_rate("lookahead", max(1, args.games // 40), args.repeat)
    print(f"(e) duel, lookahead vs lookahead: {p:10,.0f} games per CPU-second ({p_wall:,.0f} wall; "
          f"{actions:.0f} actions/game) ({load()})")
    b, b_wall, actions, won = blind_rate(args.games * 5, args.repeat)
    print(f"(f) blind SOLO(∞), greedy: {b:10,.0f} games per CPU-second ({b_wall:,.0f} wall; {actions:.0f} "
          f"actions/game, {100 * won:.1f}% won) ({load()})")
    h, searches, nodes, won = hindsight_rate(max(1, args.games // 200), max(1, args.repeat - 1))
    print(f"(h) blind SOLO(∞, none), hindsight: {h:10,.1f} games per CPU-second ({searches:,.0f} searches, "
          f"{nodes / 1e6:.2f} M nodes per CPU-second; {100 * won:.1f}% won) ({load()})")
    for label, strict in (("(c) SOLO(∞, none), open pool + D1 + D3 + stuck-stock test", False), ("(d) SOLO(∞, strict), literal", True)):
        nodes, deals, unresolved = solo_rate(args.deals, args.budget, args.repeat, strict)
        print(f"{label}: {nodes / 1e6:6.2f} M nodes/s, {deals:8.1f} deals/s per core, "
              f"{100 * unresolved:.1f}% unresolved at {args.budget:,} nodes; nodes/s vs goal {GOAL_NODES / 1e6:.0f} M: "
              f"ratio {nodes / GOAL_NODES:.3f} (per CPU-second, {load()})")
    for label, cycling in (("pass classes", True), ("without pass classes", False)):
        nodes, deals, unresolved = solo_rate(args.deals, args.budget, args.repeat, False, k=2, free_cycling=cycling)
        print(f"(j) SOLO(2, none), literal, {label}: {nodes / 1e6:6.2f} M nodes/s, {deals:8.1f} deals/s per core, "
              f"{100 * unresolved:.1f}% unresolved at {args.budget:,} nodes; ratio {nodes / GOAL_NODES:.3f} "
              f"(per CPU-second, {load()})")
    for label, switches in PRUNING_OFF:
        nodes, deals, unresolved = solo_rate(args.deals, args.budget, max(1, args.repeat - 1), False, **switches)
        print(f"(i) line (c), pruning: {label}: {nodes / 1e6:6.2f} M nodes/s, {deals:8.1f} deals/s per core, "
              f"{100 * unresolved:.1f}% unresolved at {args.budget:,} nodes (per CPU-second, {load()})")
    nodes, outcomes = hard_rate(max(1, args.repeat - 1))
    print(f"(g) SOLO(∞, none), {len(HARD_SEEDS)} hard layouts at 10^7 nodes, table up to 2^26: {nodes / 1e6:6.2f} M "
          f"nodes/s ({', '.join(f'{o}' for o in outcomes)}); ratio {nodes / GOAL_NODES:.3f} (per CPU-second, {load()})")


if __name__ == "__main__":
    main()
