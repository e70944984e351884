"""SHA-256 of the Russian Bank SOLO solver's counters (outcomes, node histograms, tempo bounds,
node sums and sums of squares) over four models: the open pool of SOLO(∞, none), the literal SOLO(∞, strict), the
literal SOLO(2, none) and the tempo search.

    python benchmarks/hash_russian_bank_solo.py [DEALS]

A speed change that keeps the search the same must not change a single count: run this before and
after it and compare the digests (100 deals by default, about 15 s: 92ac77af… since 0.9.0, whose
pass classes changed the SOLO(2, none) search; with free_cycling=False for that model it is still
031e3e29…, as from 0.8.12 to 0.8.15, which counts the squares of the nodes too; without that
counter ce805654…, as from 0.8.7 to 0.8.11, and 300 deals ec17e86b…). The table's hash function is part of the search:
a full probe window drops an entry, so another hash moves a node count here and there without
changing an outcome.
"""
import argparse
import hashlib

import numpy as np

from analyzer._core import russian_bank as core

SEARCH = dict(dominance=True, d3=True, tt_bits=20)
MODELS = [
    dict(k=None, strict=False, open_pool=True, tempo=False, budget=100_000),
    dict(k=None, strict=True, open_pool=False, tempo=False, budget=100_000),
    dict(k=2, strict=False, open_pool=False, tempo=False, budget=100_000),
    dict(k=None, strict=False, open_pool=False, tempo=True, budget=50_000),
]


def digest(deals):
    sha = hashlib.sha256()
    for model in MODELS:
        counters = core.solo_shard(np.random.PCG64(3), deals, dict(SEARCH, **model))
        for name in sorted(counters):
            sha.update(name.encode())
            sha.update(np.ascontiguousarray(counters[name]).tobytes())
    return sha.hexdigest()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", type=int, nargs="?", default=100, help="layouts per model (default 100)")
    print(digest(parser.parse_args().deals))
