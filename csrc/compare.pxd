# The paired tally of a duplicate comparison: each deal is played by strategy A and strategy B
# (seats rotated), and the kernel adds A's and B's per-deal results here. The fields are the
# counters of analyzer.compare, sums that add up exactly across shards.
from libc.stdint cimport int64_t


cdef struct PairTally:
    int64_t pairs
    int64_t diff_sum
    int64_t diff_sq_sum
    int64_t wins
    int64_t draws
    int64_t losses
    int64_t a_sum
    int64_t a_sq_sum
    int64_t b_sum
    int64_t b_sq_sum


cdef inline void tally_pair(PairTally *t, int64_t a, int64_t b) noexcept nogil:
    cdef int64_t diff = a - b
    t.pairs += 1
    t.diff_sum += diff
    t.diff_sq_sum += diff * diff
    t.wins += diff > 0
    t.draws += diff == 0
    t.losses += diff < 0
    t.a_sum += a
    t.a_sq_sum += a * a
    t.b_sum += b
    t.b_sq_sum += b * b


cdef inline dict pair_counters(PairTally t):
    """The tally as the runner's counters: one int64 array of length 1 per field."""
    from numpy import full, int64  # a .pxd cannot import at module level
    return {name: full(1, value, int64) for name, value in (<dict>t).items()}
