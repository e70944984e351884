# Dealing primitives exposed to Python: uniform deals of a 32- or 52-card pack into bitboards.
# The game kernels deal inline with the same rng.pxd helpers; this module serves the tests (shuffle
# uniformity, cross-checks on given deals) and the bare-deal benchmark.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t

from bitboard cimport mask32, mask64
from rng cimport Rng, rng_init, rng_partial_shuffle, bitgen_pointer
from numpy.random cimport bitgen_t

cnp.import_array()

cdef enum:
    MAX_HANDS = 8


def deal_masks(bit_generator, Py_ssize_t n_deals, hand_sizes, int lane=8, int ranks=8):
    """Deal n_deals uniform deals of a 4-suit pack with `ranks` ranks per suit laid out in lanes
    of `lane` bits, into hands of the given sizes (the rest is left undealt). Returns a uint64
    array of shape (n_deals, len(hand_sizes)) of card masks, one row per deal."""
    sizes = [int(s) for s in hand_sizes]
    cdef int n_hands = len(sizes)
    cdef int n_cards = 4 * ranks
    if not 1 <= n_hands <= MAX_HANDS or min(sizes) < 0 or sum(sizes) > n_cards:
        raise ValueError(f"cannot deal hands of sizes {sizes} from {n_cards} cards")
    if lane not in (8, 16) or not 1 <= ranks <= lane:
        raise ValueError(f"unsupported deck layout: lane {lane}, {ranks} ranks")
    if n_deals < 0:
        raise ValueError("n_deals must be >= 0")
    cdef int size_of[MAX_HANDS]
    cdef int h, c, pos, total = 0
    for h in range(n_hands):
        size_of[h] = sizes[h]
        total += sizes[h]
    cdef uint8_t cards[64]
    for c in range(n_cards):
        cards[c] = <uint8_t>((c // ranks) * lane + c % ranks)
    out = np.zeros((n_deals, n_hands), dtype=np.uint64)
    cdef uint64_t[:, ::1] view = out
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    cdef mask64 m
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            rng_partial_shuffle(&rng, cards, n_cards, total)
            pos = 0
            for h in range(n_hands):
                m = 0
                for c in range(size_of[h]):
                    m |= (<mask64>1) << cards[pos]
                    pos += 1
                view[d, h] = m
    return out


def bare_deal_checksum(bit_generator, Py_ssize_t n_deals):
    """Benchmark floor: deal 12/12/8 from 32 cards into three bitboards and fold them into a
    checksum (so the compiler cannot drop the work)."""
    cdef uint8_t cards[32]
    cdef int c
    for c in range(32):
        cards[c] = <uint8_t>c
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    cdef mask32 elder, younger, talon
    cdef uint64_t checksum = 0
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            rng_partial_shuffle(&rng, cards, 32, 24)
            elder = 0
            younger = 0
            for c in range(12):
                elder |= (<mask32>1) << cards[c]
                younger |= (<mask32>1) << cards[12 + c]
            talon = ~(elder | younger)
            checksum = checksum * 31 + elder + (<uint64_t>younger << 7) + talon
    return checksum
