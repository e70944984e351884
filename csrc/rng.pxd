# Random draws for the kernels, from numpy's bitgen_t (the C interface behind every numpy bit
# generator). The bounded draw and the shuffle are written here, not taken from numpy's Generator
# methods, so a stream depends only on the bit generator and on this file.
#
# Why bitgen_t and not an inline xoshiro: each shard builds its bit generator from
# SeedSequence(root, spawn_key=(shard, stream)), which numpy guarantees to be stable across
# versions for PCG64; an indirect call costs ~1.5 ns, and dealing draws 32-bit halves so a deal of
# 24 cards needs only 12 calls. benchmarks/bench_core.py shows dealing is not the bottleneck of a
# scored deal.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef struct Rng:
    bitgen_t *bitgen
    uint64_t buffer       # holds the unused upper 32 bits of the last 64-bit draw
    int has_buffer


cdef inline void rng_init(Rng *rng, bitgen_t *bitgen) noexcept nogil:
    rng.bitgen = bitgen
    rng.buffer = 0
    rng.has_buffer = 0


cdef inline uint64_t rng_next64(Rng *rng) noexcept nogil:
    return rng.bitgen.next_uint64(rng.bitgen.state)


cdef inline uint32_t rng_next32(Rng *rng) noexcept nogil:
    cdef uint64_t x
    if rng.has_buffer:
        rng.has_buffer = 0
        return <uint32_t>(rng.buffer >> 32)
    x = rng.bitgen.next_uint64(rng.bitgen.state)
    rng.buffer = x
    rng.has_buffer = 1
    return <uint32_t>x


cdef inline uint32_t rng_below(Rng *rng, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1: Lemire's multiply-and-reject (no division on the
    common path; the rejection threshold (2^32 - n) mod n is only computed when needed)."""
    cdef uint64_t product = <uint64_t>rng_next32(rng) * n
    cdef uint32_t low = <uint32_t>product
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            product = <uint64_t>rng_next32(rng) * n
            low = <uint32_t>product
    return <uint32_t>(product >> 32)


cdef inline void rng_partial_shuffle(Rng *rng, uint8_t *items, int n, int k) noexcept nogil:
    """Fisher–Yates on the first k of n items: afterwards items[0..k) is a uniform random
    k-permutation of the n items. Shuffling an already shuffled array keeps it uniform, so
    callers may reuse the array from deal to deal without resetting it."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(k):
        j = i + <int>rng_below(rng, <uint32_t>(n - i))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef inline double rng_uniform(Rng *rng) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return (rng_next64(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef extern from "Python.h":
    int PyCapsule_IsValid(object capsule, const char *name)
    void *PyCapsule_GetPointer(object capsule, const char *name) except? NULL


cdef inline bitgen_t *bitgen_pointer(object bit_generator) except NULL:
    """The bitgen_t behind a numpy BitGenerator (e.g. numpy.random.PCG64). The caller keeps the
    Python object alive, and holds its lock, for as long as the pointer is used."""
    capsule = getattr(bit_generator, "capsule", None)
    if capsule is None or not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise TypeError("expected a numpy BitGenerator such as numpy.random.PCG64")
    return <bitgen_t *>PyCapsule_GetPointer(capsule, "BitGenerator")
