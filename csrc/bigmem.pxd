# Large zeroed tables (the SOLO solver's transposition table) backed by huge pages where possible.

cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A table of gigabytes read at random makes nearly every probe a TLB miss and a page walk as
       well as a cache miss. On Linux the block is mapped 2 MB-aligned and marked MADV_HUGEPAGE, so
       that transparent huge pages back it when THP is in "madvise" (the common default) or
       "always" mode; elsewhere, or if mmap fails, it is plain calloc. Either way it is zeroed. */
    #define KOZYR_HUGE_PAGE ((size_t)2 << 20)
    static void *big_table_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        size_t span = bytes + KOZYR_HUGE_PAGE;
        char *raw = (char *)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == (char *)MAP_FAILED) return NULL;
        char *p = (char *)(((size_t)raw + KOZYR_HUGE_PAGE - 1) & ~(KOZYR_HUGE_PAGE - 1));
        if (p > raw) munmap(raw, (size_t)(p - raw));
        if (raw + span > p + bytes) munmap(p + bytes, (size_t)(raw + span - (p + bytes)));
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    #else
        return calloc(1, bytes);
    #endif
    }
    static void big_table_free(void *p, size_t bytes) {
        if (p == NULL) return;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        munmap(p, bytes);
    #else
        (void)bytes;
        free(p);
    #endif
    }
    """
    void *big_table_alloc(size_t bytes) nogil
    void big_table_free(void *p, size_t bytes) nogil
