"""SHA-256 of the Russian Bank duel kernel's counters over 11 rule sets x 4 strategy pairs.

    python benchmarks/hash_russian_bank_duel.py

A speed change to the duel kernel must not change a single game: run this before and after it and
compare the two digests (3,000 games a pair, 300 with the lookahead policy; about 20 s).
"""
import argparse
import hashlib

import numpy as np

from analyzer._core import russian_bank as core
from analyzer.games import russian_bank as rb

RULE_VARIANTS = [
    {}, dict(foundation_priority="none"), dict(load_wrap=True), dict(empty_house_rule="stock_only"),
    dict(sequence_moves=True), dict(redeal_limit=2), dict(auto_turn=False), dict(stop_mode="call", p_detect=0.5),
    dict(load_targets=("stock",), load_sources=("hand",)), dict(max_actions_per_turn=5), dict(stall_turns=3),
]
STRATEGY_PAIRS = [("greedy", "greedy"), ("greedy", "random"), ("random", "greedy"), ("lookahead", "greedy")]


def main():
    digest = hashlib.sha256()
    for variant in RULE_VARIANTS:
        for first, second in STRATEGY_PAIRS:
            options = dict(rb.resolve("default", variant), first_strategy=first, second_strategy=second)
            games = 300 if "lookahead" in (first, second) else 3000
            counters = core.duel_shard(np.random.PCG64(11), np.random.PCG64(12), games, options)
            for key in sorted(counters):
                digest.update(key.encode())
                digest.update(np.ascontiguousarray(counters[key]).tobytes())
    print(digest.hexdigest())


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()   # --help, and no stray arguments
    main()
