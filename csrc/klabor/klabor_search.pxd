# Klabor double-dummy search: the points one player takes from the remaining tricks with both hands
# known and best play by both; alpha-beta with a transposition table of bounds.

from libc.stdint cimport uint32_t, uint64_t, int16_t
from libc.string cimport memset
from libc.stdlib cimport malloc, free

from bitboard cimport mask32, popcount32, lowest_bit32, clear_lowest32
from klabor_rules cimport *


cdef struct Solver:              # double-dummy transposition table (one per shard)
    uint64_t *keys
    int16_t *low
    int16_t *high
    uint32_t *generation
    uint32_t current
    int trump
    int must_head


cdef inline int solver_init(Solver *sv) noexcept nogil:
    cdef size_t n = (<size_t>1) << TT_BITS
    sv.keys = <uint64_t *>malloc(n * sizeof(uint64_t))
    sv.low = <int16_t *>malloc(n * sizeof(int16_t))
    sv.high = <int16_t *>malloc(n * sizeof(int16_t))
    sv.generation = <uint32_t *>malloc(n * sizeof(uint32_t))
    if sv.keys == NULL or sv.low == NULL or sv.high == NULL or sv.generation == NULL:
        return 0
    memset(sv.generation, 0, n * sizeof(uint32_t))
    sv.current = 0
    return 1

cdef inline void solver_free(Solver *sv) noexcept nogil:
    free(sv.keys)
    free(sv.low)
    free(sv.high)
    free(sv.generation)

cdef inline void solver_new_deal(Solver *sv, int trump, int must_head) noexcept nogil:
    # Stored values depend on the trump, so a new deal starts a new generation of the table.
    sv.current += 1
    sv.trump = trump
    sv.must_head = must_head


cdef inline int dd(Solver *sv, mask32 me, mask32 opp, int me_leads, int alpha, int beta) noexcept nogil:
    cdef int left = popcount32(me)
    if left == 0:
        return 0
    cdef uint64_t key = (<uint64_t>me << 32 | opp) * <uint64_t>2 + me_leads
    cdef uint64_t slot = ((key * 0x9E3779B97F4A7C15ULL) >> (64 - TT_BITS))
    cdef int alpha0 = alpha, beta0 = beta
    if sv.generation[slot] == sv.current and sv.keys[slot] == key:
        if sv.low[slot] >= beta:
            return sv.low[slot]
        if sv.high[slot] <= alpha:
            return sv.high[slot]
        if sv.low[slot] == sv.high[slot]:
            return sv.low[slot]
        if sv.low[slot] > alpha:
            alpha = sv.low[slot]
        if sv.high[slot] < beta:
            beta = sv.high[slot]
    cdef int trump = sv.trump
    cdef mask32 lead_hand = me if me_leads else opp
    cdef mask32 follow_hand = opp if me_leads else me
    cdef mask32 leads = lead_hand, replies
    cdef int a, b, gain, value, inner, ia, ib, me_wins
    cdef int best = -1 if me_leads else 10000
    cdef int bonus = LAST_TRICK if left == 1 else 0
    while leads:
        a = lowest_bit32(leads)
        leads = clear_lowest32(leads)
        replies = legal_replies(follow_hand, a, trump, sv.must_head)
        inner = 10000 if me_leads else -1      # the follower is the minimiser when I lead
        ia = alpha
        ib = beta
        while replies:
            b = lowest_bit32(replies)
            replies = clear_lowest32(replies)
            me_wins = (beats(b, a, trump) != 0) != (me_leads != 0)
            gain = card_points(a, trump) + card_points(b, trump) + bonus if me_wins else 0
            if me_leads:
                value = gain + dd(sv, me & ~((<mask32>1) << a), opp & ~((<mask32>1) << b), me_wins,
                                  ia - gain, ib - gain)
                if value < inner:
                    inner = value
                if inner <= ia:
                    break
                if inner < ib:
                    ib = inner
            else:
                value = gain + dd(sv, me & ~((<mask32>1) << b), opp & ~((<mask32>1) << a), me_wins,
                                  ia - gain, ib - gain)
                if value > inner:
                    inner = value
                if inner >= ib:
                    break
                if inner > ia:
                    ia = inner
        if me_leads:
            if inner > best:
                best = inner
            if best >= beta:
                break
            if best > alpha:
                alpha = best
        else:
            if inner < best:
                best = inner
            if best <= alpha:
                break
            if best < beta:
                beta = best
    sv.generation[slot] = sv.current
    sv.keys[slot] = key
    if best <= alpha0:
        sv.low[slot] = 0
        sv.high[slot] = <int16_t>best
    elif best >= beta0:
        sv.low[slot] = <int16_t>best
        sv.high[slot] = 10000
    else:
        sv.low[slot] = <int16_t>best
        sv.high[slot] = <int16_t>best
    return best


cdef inline int dd_full(Solver *sv, mask32 me, mask32 opp, int me_leads) noexcept nogil:
    return dd(sv, me, opp, me_leads, -1, 10000)

