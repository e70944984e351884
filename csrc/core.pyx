# Dealing primitives exposed to Python: uniform deals of a 32- or 52-card pack into bitboards.
# The game kernels deal inline with the same rng.pxd helpers; this module serves the tests (shuffle
# uniformity, cross-checks on given deals) and the bare-deal benchmark; and the constrained dealer
# (deal_constrained) whose rows the game kernels play when a user fixes some cards.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t

from bitboard cimport mask32, mask64
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
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


# ---------------------------------------------------------------------------------------------
# Constrained deals (analyzer/constrained.py): some cards stay in fixed places, only the rest is
# dealt, so a fixed hand costs nothing and no deal is rejected for it.
#
# A deal is a permutation of the pack's card bits over "slots", in the order a game's kernel reads
# a shuffled pack (piquet: slots 0-11 elder, 12-23 younger, 24-31 the talon from the top). The
# template gives, per slot, the card fixed there or FREE_SLOT. Each deal shuffles the free cards
# into the free slots (Fisher–Yates over the free cards only), then shuffles each "mixed" group of
# slots: a seat that holds fixed cards and whose card order matters to the kernel (the talon, or
# the mariáš forehand's first seven). The free cards form a uniform arrangement and each group a
# uniform permutation, so every deal consistent with the fixed cards is equally likely.

cdef enum:
    FREE_SLOT = 255


cdef void deal_template(Rng *rng, const uint8_t *template, int n_slots, uint8_t *free_cards, int n_free,
                        const uint8_t *mix_slots, const int *mix_len, int n_mix, uint8_t *out) noexcept nogil:
    cdef int slot, f = 0, g, start = 0, i, j
    cdef uint8_t tmp
    if n_free > 1:
        rng_partial_shuffle(rng, free_cards, n_free, n_free - 1)
    for slot in range(n_slots):
        if template[slot] == FREE_SLOT:
            out[slot] = free_cards[f]
            f += 1
        else:
            out[slot] = template[slot]
    for g in range(n_mix):
        for i in range(mix_len[g] - 1):
            j = i + <int>rng_below(rng, <uint32_t>(mix_len[g] - i))
            tmp = out[mix_slots[start + i]]
            out[mix_slots[start + i]] = out[mix_slots[start + j]]
            out[mix_slots[start + j]] = tmp
        start += mix_len[g]


def deal_constrained(bit_generator, Py_ssize_t n_deals, template, free_cards, mix_slots, mix_len):
    """n_deals constrained deals as a uint8 array (n_deals x slots) of card bits.

    template: uint8 per slot, the fixed card bit or 255 (free); free_cards: uint8, the cards not
    fixed, one per free slot, reshuffled in place (pass the same array again for the next batch:
    a shuffled array shuffled again stays uniform); mix_slots: uint8, the slots of the groups to
    shuffle after dealing, one group after the other; mix_len: int32, the length of each group.
    The caller (analyzer.constrained) validates them."""
    cdef const uint8_t[::1] t = np.ascontiguousarray(template, dtype=np.uint8)
    cdef uint8_t[::1] free = free_cards
    cdef const uint8_t[::1] ms = np.ascontiguousarray(mix_slots, dtype=np.uint8)
    cdef const int[::1] ml = np.ascontiguousarray(mix_len, dtype=np.int32)
    cdef int n_slots = <int>t.shape[0], n_free = <int>free.shape[0], n_mix = <int>ml.shape[0], g, total = 0
    for g in range(n_mix):
        total += ml[g]
    if n_deals < 0 or n_slots == 0 or n_slots > 64 or total != ms.shape[0] \
            or sum(1 for x in template if x == FREE_SLOT) != n_free:
        raise ValueError("inconsistent deal template")
    out = np.empty((n_deals, n_slots), np.uint8)
    if n_deals == 0:
        return out
    cdef uint8_t[:, ::1] rows = out
    cdef uint8_t dummy = 0
    cdef uint8_t *free_ptr = &free[0] if n_free else &dummy
    cdef const uint8_t *mix_ptr = &ms[0] if total else &dummy
    cdef const int *len_ptr = &ml[0] if n_mix else NULL
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            deal_template(&rng, &t[0], n_slots, free_ptr, n_free, mix_ptr, len_ptr, n_mix, &rows[d, 0])
    return out


def given_rows(given, Py_ssize_t n_deals, int n_cards):
    """Check the given packs a game kernel is asked to play (uint8, one row of n_deals per deal,
    each a permutation of the card bits 0..n_cards-1) and return them C-contiguous; None gives an
    empty array (the kernel then deals itself)."""
    if given is None:
        return np.zeros((0, n_cards), np.uint8)
    if not isinstance(given, np.ndarray) or given.dtype != np.uint8 or given.shape != (n_deals, n_cards):
        raise ValueError(f"given deals must be a uint8 array of shape ({n_deals}, {n_cards})")
    given = np.ascontiguousarray(given)
    cdef const uint8_t[:, ::1] rows = given
    cdef Py_ssize_t d
    cdef int c, bad = 0
    cdef uint64_t seen, full = (<uint64_t>1 << n_cards) - 1 if n_cards < 64 else <uint64_t>-1
    if not 0 < n_cards <= 64:
        raise ValueError("a pack has 1 to 64 cards")
    with nogil:
        for d in range(n_deals):
            seen = 0
            for c in range(n_cards):
                if rows[d, c] >= n_cards:
                    bad = 1
                    break
                seen |= <uint64_t>1 << rows[d, c]
            if bad or seen != full:
                bad = 1
                break
    if bad:
        raise ValueError(f"every given deal must be a permutation of the {n_cards} cards")
    return given
