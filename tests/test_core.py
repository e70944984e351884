"""The compiled dealing primitives: uniform shuffles, determinism, input checks."""
import itertools

import numpy as np
import pytest
from scipy.stats import chisquare

from analyzer._core import core


def test_all_permutations_equally_likely():
    # Four cards (one rank, lane 8) dealt one to each of four hands: 24 orders, uniform.
    n = 48_000
    masks = core.deal_masks(np.random.PCG64(1), n, [1, 1, 1, 1], lane=8, ranks=1)
    positions = np.log2(masks.astype(np.float64)).astype(int) // 8
    codes = positions @ np.array([64, 16, 4, 1])
    perms = {sum(p[i] * 4 ** (3 - i) for i in range(4)): k for k, p in enumerate(itertools.permutations(range(4)))}
    counts = np.bincount([perms[c] for c in codes], minlength=24)
    assert counts.sum() == n and np.all(counts > 0)
    assert chisquare(counts).pvalue > 1e-4


def test_same_seed_same_deals_and_hand_sizes():
    a = core.deal_masks(np.random.PCG64(42), 1000, [12, 12], lane=16, ranks=13)
    b = core.deal_masks(np.random.PCG64(42), 1000, [12, 12], lane=16, ranks=13)
    c = core.deal_masks(np.random.PCG64(43), 1000, [12, 12], lane=16, ranks=13)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert all(bin(int(m)).count("1") == 12 for m in a.ravel())
    assert np.all((a[:, 0] & a[:, 1]) == 0)
    assert np.all((a & ~np.uint64(0x1FFF1FFF1FFF1FFF)) == 0)


def test_bounded_draw_small_ranges_uniform():
    # Card positions in a 52-card deal: the first card is uniform over 52 cards.
    masks = core.deal_masks(np.random.PCG64(9), 52_000, [1], lane=16, ranks=13)
    bits = np.log2(masks[:, 0].astype(np.float64)).astype(int)
    cards = (bits // 16) * 13 + bits % 16
    assert chisquare(np.bincount(cards, minlength=52)).pvalue > 1e-4


@pytest.mark.parametrize("sizes,lane,ranks", [([20, 20], 8, 8), ([-1], 8, 8), ([1], 12, 8), ([1], 8, 9), ([1] * 9, 8, 8)])
def test_impossible_deals_are_rejected(sizes, lane, ranks):
    with pytest.raises(ValueError):
        core.deal_masks(np.random.PCG64(0), 1, sizes, lane=lane, ranks=ranks)


def test_not_a_bit_generator():
    with pytest.raises(TypeError):
        core.deal_masks(object(), 1, [1])
