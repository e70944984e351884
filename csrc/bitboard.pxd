# Bitboard primitives shared by every game kernel (header-style: everything is inline).
#
# Card sets are bit masks with one lane per suit and ranks in the game's strength order inside a
# lane, so "higher in suit" is "higher bit":
#   32-card games (piquet, mariáš, klabor): uint32_t, lane = 8 bits,  bit = 8*suit + rank
#   40/52-card games:                       uint64_t, lane = 16 bits, bit = 16*suit + rank
# Suit order is S H D C (0..3) everywhere.

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t

ctypedef uint32_t mask32
ctypedef uint64_t mask64

cdef enum:
    N_SUITS = 4
    LANE32 = 8
    LANE64 = 16
    RANK_COLUMN32 = 0x01010101          # bit 0 of every 8-bit lane
    SUIT_LANE32 = 0xFF

cdef extern from *:
    """
    static inline int kozyr_popcount32(uint32_t x) { return __builtin_popcount(x); }
    static inline int kozyr_popcount64(uint64_t x) { return __builtin_popcountll(x); }
    static inline int kozyr_ctz32(uint32_t x) { return __builtin_ctz(x); }
    static inline int kozyr_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    static inline int kozyr_clz32(uint32_t x) { return __builtin_clz(x); }
    """
    int popcount32 "kozyr_popcount32"(uint32_t x) noexcept nogil
    int popcount64 "kozyr_popcount64"(uint64_t x) noexcept nogil
    int lowest_bit32 "kozyr_ctz32"(uint32_t x) noexcept nogil   # undefined for x == 0
    int lowest_bit64 "kozyr_ctz64"(uint64_t x) noexcept nogil   # undefined for x == 0
    int leading_zeros32 "kozyr_clz32"(uint32_t x) noexcept nogil


cdef inline mask32 clear_lowest32(mask32 x) noexcept nogil:
    # Iterate a set with: while m: i = lowest_bit32(m); ...; m = clear_lowest32(m)
    return x & (x - 1)

cdef inline mask64 clear_lowest64(mask64 x) noexcept nogil:
    return x & (x - 1)

cdef inline int highest_bit32(mask32 x) noexcept nogil:   # undefined for x == 0
    return 31 - leading_zeros32(x)

cdef inline uint32_t suit_lane32(mask32 hand, int suit) noexcept nogil:
    return (hand >> (LANE32 * suit)) & 0xFF

cdef inline uint32_t suit_lane64(mask64 hand, int suit) noexcept nogil:
    return <uint32_t>((hand >> (LANE64 * suit)) & 0xFFFF)

cdef inline int rank_count32(mask32 hand, int rank) noexcept nogil:
    # Cards of one rank across the four suits: the column bits sit at 0, 8, 16, 24; multiplying
    # by the column constant adds them into the top byte.
    return <int>((((hand >> rank) & RANK_COLUMN32) * <uint32_t>RANK_COLUMN32) >> 24)

cdef inline int rank_count64(mask64 hand, int rank) noexcept nogil:
    return popcount64((hand >> rank) & <uint64_t>0x0001000100010001)
