# Russian Bank SOLO(k, pi) solver (§9-10): the one-player position, forced and safe foundation
# plays, move generation (plain, open pool, D3 pool-placement normal form), exact keys, the
# transposition table and the depth-first search.

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t, int32_t
from libc.string cimport memset, memcpy, memmove
from libc.stdlib cimport malloc, realloc, free

from bitboard cimport popcount64, lowest_bit64
from bigmem cimport big_table_alloc, big_table_free
from rng cimport Rng, rng_below, rng_uniform
from rb_rules cimport N_KINDS, N_RANKS, KING, HOUSE_CAP, UNLIMITED, DECK_STOCK, children_of

# Rank, suit and colour of a kind by table lookup (the solver asks for them millions of times a second)
cdef extern from *:
    """
    #define RB_K4(r) r, r+1, r+2, r+3
    static const unsigned char rb_solo_rank[52] = {
        RB_K4(0), RB_K4(4), RB_K4(8), 12, RB_K4(0), RB_K4(4), RB_K4(8), 12,
        RB_K4(0), RB_K4(4), RB_K4(8), 12, RB_K4(0), RB_K4(4), RB_K4(8), 12};
    static const unsigned char rb_solo_suit[52] = {
        0,0,0,0,0,0,0,0,0,0,0,0,0, 1,1,1,1,1,1,1,1,1,1,1,1,1, 2,2,2,2,2,2,2,2,2,2,2,2,2, 3,3,3,3,3,3,3,3,3,3,3,3,3};
    static const unsigned char rb_solo_red[52] = {
        0,0,0,0,0,0,0,0,0,0,0,0,0, 1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1, 0,0,0,0,0,0,0,0,0,0,0,0,0};
    #undef RB_K4
    """
    const uint8_t rb_solo_rank[52]
    const uint8_t rb_solo_suit[52]
    const uint8_t rb_solo_red[52]     # hearts and diamonds

cdef inline int rank_of(int k) noexcept nogil:
    return rb_solo_rank[k]

cdef inline int suit_of(int k) noexcept nogil:
    return rb_solo_suit[k]

cdef inline int red(int k) noexcept nogil:
    return rb_solo_red[k]

cdef inline int fits_house(int c, int top) noexcept nogil:
    return rb_solo_rank[c] + 1 == rb_solo_rank[top] and red(c) != red(top)

# ---------------------------------------------------------------------------------------------
# SOLO solver

cdef enum:
    SOLO_HOUSES = 4
    # The most moves a position can have, so that no move list is ever cut short. The literal
    # model and the open pool without D3: at most 40 cards (stock top, pool, house tops) with a
    # foundation and 4 house targets each, and a discard. The D3 normal form: 5 cards (stock
    # top, house tops) with one foundation move, chains onto up to 4 houses (a chain of m pool
    # cards between c and a top has 2 suit choices a level and m <= 11: at most 2^11) and
    # chains of any length onto one empty house (at most 2^0 + ... + 2^12 = 2^13 - 1).
    SOLO_MAX_MOVES = 5 * (1 + 4 * 2048 + 8191)
    S_SRC_STOCK = 0
    S_SRC_HAND = 1
    S_SRC_HOUSE = 2              # 2..5
    S_SRC_POOL = 8               # 8 + turning index (open-pool model)
    S_DISCARD = 1 << 30
    S_PASS = 1 << 29             # literal model, a pass class (pass_free): discard the rest of the pass
    S_NO_MOVE = 0x7FFFFFFF       # no move: its destination 7 does not exist (an int, as C enums are)
    S_CHAIN_SHIFT = 9            # move = dst | src << 3 | chain length << 9 | suit choices << 13
    S_CHOICE_SHIFT = 13
    RES_LOSS = 0
    RES_WIN = 1
    RES_UNRESOLVED = 2
    RES_DEAD = 3
    RES_OPEN = 4
    TT_PROBES = 16
    TT_MIN_BITS = 14             # a search starts with 2^14 slots (512 KB, cache-resident) and doubles
    MAX_FRAMES = 1 << 21         # deeper paths end the search as unresolved (memory bound)

cdef struct Solo:
    uint8_t house[SOLO_HOUSES][HOUSE_CAP]
    uint8_t house_n[SOLO_HOUSES]
    uint8_t found[4]
    int stock_n
    int pos                      # literal model: turning index of the current hand card
    int redeals
    int discards
    uint64_t pool                # bit i: the i-th card of the turning order is still in hand/waste
    uint64_t poolk               # the same cards as a set of kinds
    uint32_t hcode[SOLO_HOUSES]  # house codes for the key, kept up to date by house_push/house_pop
    uint64_t tops                # the kinds on top of the houses, the same way

cdef struct Frame:
    Solo st
    int first                    # this frame's moves are movebuf[first .. first + nm)
    int nm
    int i

cdef struct Child:
    Solo st                      # a successor, already normalized
    uint64_t key[3]
    uint64_t hsh                 # its table slot was prefetched when it was generated

cdef struct KidFrame:
    int first                    # this frame's successors are kids[first .. first + n)
    int n
    int i

cdef struct TTEntry:
    uint64_t k0
    uint64_t k1
    uint64_t k2
    uint32_t gen
    int32_t cost

cdef struct SoloCtx:
    uint8_t stock[N_KINDS]       # bottom -> top
    uint8_t order[64]            # hand cards in turning order (waste first for built positions)
    int order_n
    int index_of[N_KINDS]        # kind -> turning index, or -1
    int k                        # redeal limit, UNLIMITED = -1
    int strict
    int open_pool
    int dominance
    int d3                       # pool-placement normal form (open pool, §10.5 D3)
    int stuck_prune              # prune positions with a card that can never leave (stock_stuck, hand_stuck)
    int free_cycling             # literal model, k = ∞: one state for all hand positions (cycling_free)
    uint64_t stock_below[N_KINDS + 1]   # the kinds of stock[0 .. d) (stock_stuck, hand_stuck)
    int truncated                # a move list overflowed: a completed search is not a proof
    int tempo                    # search for D* (solo_tempo) instead of solvability
    int discard_limit            # solo_search as branch and bound (-1: off): only lines with at most
    int discard_floor            # this many discards; a win with more than discard_floor lowers the
    int improved                 # limit below its discards (x.best, improved = 1) and the search goes on
    int64_t budget
    int64_t nodes
    int best                     # tempo: D* of a win, or the first layer not completed
    Solo *layer                  # tempo: the positions one discard further, to expand next
    int64_t layer_n
    int64_t layer_cap
    TTEntry *tt                  # 2^tt_bits slots; the current search uses the first tt_mask + 1
    uint64_t tt_mask
    uint64_t tt_max_mask
    uint64_t tt_used             # entries stored by the current search
    uint32_t gen
    Frame *frames
    int frames_cap
    uint32_t *movebuf            # the move lists of all frames on the path, back to back
    int movebuf_cap
    uint32_t *scratch            # one position's moves (SOLO_MAX_MOVES)
    Child *kids                  # solo_search: the successors of all frames on the path
    uint32_t *kid_mv             # the move that made each of them (for the winning line)
    int kids_cap
    int path_n                   # after a win of solo_search: the frames whose current successor is on
    int won                      # the winning line, and kids[won] the won successor (-1: the root)
    KidFrame *kframes
    int kframes_cap
    int max_depth


cdef inline int solo_up(const SoloCtx *x, const Solo *s) noexcept nogil:
    """Turning index of the current hand card (literal model), or -1."""
    cdef uint64_t hand
    if s.pos >= 64:
        return -1
    hand = s.pool & (~<uint64_t>0 << s.pos)
    return lowest_bit64(hand) if hand else -1

cdef inline int solo_fits_found(const Solo *s, int c) noexcept nogil:
    return s.found[suit_of(c)] == rank_of(c)

cdef inline void house_push(Solo *s, int h, int c) noexcept nogil:
    """Put c on house h and update its code: bottom kind + 1, length << 6, and one suit-choice
    bit per card above the bottom (bit 9 + level: spades or hearts)."""
    cdef int n = s.house_n[h]
    s.house[h][n] = c
    s.tops |= <uint64_t>1 << c
    if n == 0:
        s.hcode[h] = <uint32_t>(c + 1) | (1 << 6)
    else:
        s.tops &= ~(<uint64_t>1 << s.house[h][n - 1])
        s.hcode[h] += 1 << 6
        s.hcode[h] |= <uint32_t>(suit_of(c) <= 1) << (9 + n)
    s.house_n[h] = n + 1

cdef inline int house_pop(Solo *s, int h) noexcept nogil:
    cdef int n = s.house_n[h] - 1
    s.house_n[h] = n
    s.tops &= ~(<uint64_t>1 << s.house[h][n])
    if n == 0:
        s.hcode[h] = 0
    else:
        s.tops |= <uint64_t>1 << s.house[h][n - 1]
        s.hcode[h] = (s.hcode[h] - (1 << 6)) & ~(<uint32_t>1 << (9 + n))
    return s.house[h][n]

cdef inline void pool_take(const SoloCtx *x, Solo *s, int c) noexcept nogil:
    s.pool &= ~(<uint64_t>1 << x.index_of[c])
    s.poolk &= ~(<uint64_t>1 << c)

cdef inline uint64_t next_home(int st, int f, int wanted) noexcept nogil:
    """The next card of suit st for its foundation (f cards home), if wanted and the suit is not complete."""
    return <uint64_t>(wanted and f <= KING) << (st * N_RANKS + f)

cdef inline uint64_t foundation_next(const Solo *s, int safe_only) noexcept nogil:
    """The kinds that fit on their foundation now; with safe_only only the D1-safe ones (§10.5):
    a card c of rank r (1 = ace) whose foundation is at r - 1 goes home without branching when
    r <= 2, or both foundations of the other colour are at least r - 2 and the other foundation
    of c's colour at least r - 3.
    Why nothing is lost (one pack, π = none, so any available card may go home when it fits, and
    an extra foundation card never hurts since the goal only empties stock, hand and waste): c's
    only other use is as a landing spot in a house, for an other-colour r - 1 card X. Every such X
    fits its foundation (that foundation is at r - 2 or higher) whenever it is available, so X can
    go home instead; the only thing lost with X's house place is a landing spot for a c-colour
    r - 2 card Y, which is home already (c's suit) or fits home (the other suit is at r - 3 or
    higher); the cards of rank r - 3 that could land on Y are of X's colour and fit home too, and
    so on down. So any winning line that uses c in a house can send the cards that used it home
    instead (Blake & Gent's safe-move rule for single-pack patience, credited to Keller)."""
    cdef int f0 = s.found[0], f1 = s.found[1], f2 = s.found[2], f3 = s.found[3]
    cdef int lo_black = min(f0, f3), lo_red = min(f1, f2)
    return (next_home(0, f0, not safe_only or f0 < 2 or (lo_red >= f0 - 1 and f3 >= f0 - 2))
            | next_home(1, f1, not safe_only or f1 < 2 or (lo_black >= f1 - 1 and f2 >= f1 - 2))
            | next_home(2, f2, not safe_only or f2 < 2 or (lo_black >= f2 - 1 and f1 >= f2 - 2))
            | next_home(3, f3, not safe_only or f3 < 2 or (lo_red >= f3 - 1 and f0 >= f3 - 2)))

cdef inline int solo_normalize(const SoloCtx *x, Solo *s) noexcept nogil:
    """Redeal when the hand runs out, play forced/safe foundation moves, detect win and dead ends."""
    return solo_settle(x, s, 1)

cdef inline int solo_settle(const SoloCtx *x, Solo *s, int with_hand) noexcept nogil:
    """solo_normalize; with_hand = 0 (literal model) leaves the hand alone: only the stock top
    and the house tops go home, whatever the hand position."""
    cdef int h, c, u
    cdef uint64_t fit, m
    while True:
        if not x.open_pool and s.pool and with_hand:
            u = solo_up(x, s)
            if u < 0:
                if x.k != UNLIMITED and s.redeals >= x.k:
                    return RES_DEAD        # the waste can never be played again
                s.pos = 0
                s.redeals += 1
                u = solo_up(x, s)
            s.pos = u
            if x.k != UNLIMITED and s.redeals >= x.k and s.pool & ((<uint64_t>1 << u) - 1):
                return RES_DEAD            # the last pass left a card on the waste: it stays there
        if s.stock_n == 0 and s.pool == 0:
            return RES_WIN
        if not x.strict and not x.dominance:
            return RES_OPEN
        fit = foundation_next(s, not x.strict)
        if fit == 0:
            return RES_OPEN
        if s.stock_n > 0 and (fit >> x.stock[s.stock_n - 1]) & 1:
            s.found[suit_of(x.stock[s.stock_n - 1])] += 1
            s.stock_n -= 1
            continue
        if fit & s.tops:
            for h in range(SOLO_HOUSES):
                if s.house_n[h] and (fit >> s.house[h][s.house_n[h] - 1]) & 1:
                    c = house_pop(s, h)
                    s.found[suit_of(c)] += 1
            continue
        if x.open_pool:
            m = s.poolk & fit
            if m == 0:
                return RES_OPEN
            while m:
                c = lowest_bit64(m)
                m &= m - 1
                s.found[suit_of(c)] += 1
                pool_take(x, s, c)
        elif with_hand and s.pool and (fit >> x.order[s.pos]) & 1:
            c = x.order[s.pos]
            s.found[suit_of(c)] += 1
            pool_take(x, s, c)
            s.pos += 1
        else:
            return RES_OPEN

cdef inline uint64_t hand_goes_home(const SoloCtx *x, const Solo *s) noexcept nogil:
    """The kinds of the hand and waste that would go home by themselves when they come up now
    (D1-safe under none with the dominances, any that fits under strict; none otherwise)."""
    if not x.strict and not x.dominance:
        return 0
    return s.poolk & foundation_next(s, not x.strict)

cdef inline int cycling_free(const SoloCtx *x, const Solo *s) noexcept nogil:
    """Literal model, k = ∞, solvability search, s normalized: 1 if no card of the hand and waste
    would go home by itself when it comes up (forced under strict, D1-safe under none). Then
    discarding round the hand changes nothing else and comes back (F1's argument, which holds
    here even under strict), so the hand positions of this position form one class: it gets
    one key, and its moves are those of every position of the class (any hand or waste card
    played, the stock and house moves from the best positions of the class: expand), with
    no discard."""
    if not x.free_cycling or x.open_pool or x.k != UNLIMITED or x.tempo:
        return 0
    return hand_goes_home(x, s) == 0

cdef enum:
    FREE_NONE = 0
    FREE_ROUND = 1               # cycling_free: the whole round of the hand is one class (k = ∞)
    FREE_PASS = 2                # pass_free: the rest of the pass is one class (finite k)

cdef inline int pass_free(const SoloCtx *x, const Solo *s) noexcept nogil:
    """Literal model, finite k, solvability search, s normalized: 1 if no card of the rest of
    this pass's hand (turning index >= s.pos) would go home by itself when it comes up. Then
    discarding through the pass changes nothing but the hand position, so the positions from
    here to the end of the pass form one class (its key keeps s.pos, where it starts), as in
    cycling_free. Its moves are those of every position of the class: any hand card of the
    rest of the pass played (the cards before it discarded), the stock and house moves (made
    here, or just after a hand card that then goes home by itself: expand), and S_PASS,
    discarding the rest of the pass, when a redeal is left."""
    cdef uint64_t fit
    if not x.free_cycling or x.open_pool or x.k == UNLIMITED or x.tempo or s.pool == 0:
        return 0
    fit = hand_goes_home(x, s)
    while fit:                   # at most one card a suit
        if x.index_of[lowest_bit64(fit)] >= s.pos:
            return 0
        fit &= fit - 1
    return 1

cdef inline int free_mode(const SoloCtx *x, const Solo *s) noexcept nogil:
    """The class s stands for (s normalized): FREE_ROUND, FREE_PASS or FREE_NONE (itself)."""
    if cycling_free(x, s):
        return FREE_ROUND
    if pass_free(x, s):
        return FREE_PASS
    return FREE_NONE

cdef inline int move_past(const SoloCtx *x, const Solo *s, int free, const Solo *base, int f,
                          Solo *after) noexcept nogil:
    """A successor of a class's stock or house move (expand, turned_past): base is the move made
    at s's hand position and settled without the hand, f a hand or waste card it lets go home
    by itself; after is base with the hand turned just past f (f stays on the waste). 0 when
    the class makes no such successor: in a pass class, f before s.pos or the last card of the
    pass (after it the hand is redealt first: S_PASS, then the move)."""
    cdef int i = x.index_of[f]
    if free == FREE_PASS and (i < s.pos or (base.pool >> i) <= 1):
        return 0
    after[0] = base[0]
    after.pos = i + 1
    if free == FREE_PASS:               # the cards passed on the way are discards
        after.discards += popcount64((base.pool >> s.pos) & ((<uint64_t>2 << (i - s.pos)) - 1))
    return 1

cdef inline int solo_card_moves(const Solo *s, int src, int c, int from_house, uint32_t *out, int n) noexcept nogil:
    cdef int h, empty_done = 0
    if solo_fits_found(s, c):
        out[n] = src * 8 + 0
        n += 1
    for h in range(SOLO_HOUSES):
        if h == from_house:
            continue
        if s.house_n[h] == 0:
            # D4: one empty house stands for all; never move a lone house card to an empty house
            if empty_done or (from_house >= 0 and s.house_n[from_house] == 1):
                continue
            empty_done = 1
        elif not fits_house(c, s.house[h][s.house_n[h] - 1]):
            continue
        out[n] = src * 8 + 1 + h
        n += 1
    return n

cdef inline int chain_kind(int base, int level, int choices) noexcept nogil:
    """The pool card `level` steps above card `base` in a house chain: rank(base) + level,
    colours alternating away from base, the suit of that colour picked by bit level-1 of choices."""
    cdef int is_red = red(base) ^ (level & 1)
    cdef int bit = (choices >> (level - 1)) & 1
    cdef int st = (2 if bit else 1) if is_red else (3 if bit else 0)
    return st * N_RANKS + rank_of(base) + level

cdef inline int in_pool(const SoloCtx *x, const Solo *s, int k) noexcept nogil:
    return (s.poolk >> k) & 1

cdef inline int chain_moves(SoloCtx *x, const Solo *s, int src, int c, int h, int want, int level, int choices,
                     uint32_t *out, int n) noexcept nogil:
    """Append the moves laying pool cards on house h so that c (from src) lands on them: chains of
    exactly `want` cards, or of any length (want < 0, an empty house). Grows the chain upward
    from c one level at a time, so missing cards prune early."""
    cdef int bit
    if (want < 0 or level == want):
        if n >= SOLO_MAX_MOVES:   # cannot happen (see SOLO_MAX_MOVES); a cut list is no proof
            x.truncated = 1
            return n
        out[n] = <uint32_t>(1 + h) | (<uint32_t>src << 3) | (<uint32_t>level << S_CHAIN_SHIFT) \
            | (<uint32_t>choices << S_CHOICE_SHIFT)
        n += 1
        if want >= 0:
            return n
    if rank_of(c) + level + 1 > KING:
        return n
    for bit in range(2):
        if in_pool(x, s, chain_kind(c, level + 1, choices | (bit << level))):
            n = chain_moves(x, s, src, c, h, want, level + 1, choices | (bit << level), out, n)
    return n

cdef inline int d3_card_moves(SoloCtx *x, const Solo *s, int src, int c, int from_house, uint32_t *out, int n) noexcept nogil:
    """D3 moves of a non-pool card c: to its foundation over a same-suit pool run, onto a house
    over a chain of pool cards, onto one empty house (possibly over a chain)."""
    cdef int h, st = suit_of(c), top, m, empty = -1, rk = rank_of(c)
    cdef uint64_t run
    m = rk - s.found[st]
    run = ((<uint64_t>1 << m) - 1) << (st * N_RANKS + s.found[st])
    if (s.poolk & run) == run:
        if n >= SOLO_MAX_MOVES:
            x.truncated = 1
        else:
            out[n] = <uint32_t>(src << 3) | (<uint32_t>m << S_CHAIN_SHIFT)
            n += 1
    for h in range(SOLO_HOUSES):
        if h == from_house:
            continue
        if s.house_n[h] == 0:
            if empty < 0:
                empty = h
            continue
        top = s.house[h][s.house_n[h] - 1]
        m = rank_of(top) - rk - 1
        if m < 0 or red(top) == (red(c) ^ (m & 1)):
            continue                      # ranks or colours cannot be bridged
        n = chain_moves(x, s, src, c, h, m, 0, 0, out, n)
    if empty >= 0 and not (from_house >= 0 and s.house_n[from_house] == 1):
        n = chain_moves(x, s, src, c, empty, -1, 0, 0, out, n)
    return n

cdef inline int solo_moves(SoloCtx *x, const Solo *s, int free, uint32_t *out) noexcept nogil:
    """The moves of s into out; free = free_mode(x, s), which the caller has at hand."""
    cdef int n = 0, h, i
    cdef uint64_t m
    if x.open_pool and x.d3 and s.stock_n > 0:
        n = d3_card_moves(x, s, S_SRC_STOCK, x.stock[s.stock_n - 1], -1, out, n)
        for h in range(SOLO_HOUSES):
            if s.house_n[h]:
                n = d3_card_moves(x, s, S_SRC_HOUSE + h, s.house[h][s.house_n[h] - 1], h, out, n)
        return n
    if s.stock_n > 0:
        n = solo_card_moves(s, S_SRC_STOCK, x.stock[s.stock_n - 1], -1, out, n)
    if x.open_pool:
        m = s.pool
        while m:
            i = lowest_bit64(m)
            m &= m - 1
            n = solo_card_moves(s, S_SRC_POOL + i, x.order[i], -1, out, n)
    elif free == FREE_ROUND:
        m = s.pool
        while m:
            i = lowest_bit64(m)
            m &= m - 1
            n = solo_card_moves(s, S_SRC_POOL + i, x.order[i], -1, out, n)
    elif free == FREE_PASS:
        # the rest of the pass; in the last one a card passed stays on the waste (lost)
        m = s.pool & (~<uint64_t>0 << s.pos) if s.redeals < x.k else <uint64_t>1 << s.pos
        n = solo_card_moves(s, S_SRC_HAND, x.order[s.pos], -1, out, n)
        m &= m - 1
        while m:
            i = lowest_bit64(m)
            m &= m - 1
            n = solo_card_moves(s, S_SRC_POOL + i, x.order[i], -1, out, n)
    elif s.pool:
        n = solo_card_moves(s, S_SRC_HAND, x.order[s.pos], -1, out, n)
    for h in range(SOLO_HOUSES):
        if s.house_n[h]:
            n = solo_card_moves(s, S_SRC_HOUSE + h, s.house[h][s.house_n[h] - 1], h, out, n)
    if not x.open_pool and s.pool and free == FREE_NONE:
        out[n] = S_DISCARD
        n += 1
    elif free == FREE_PASS and s.redeals < x.k:
        out[n] = S_PASS
        n += 1
    return n

cdef inline void solo_apply(const SoloCtx *x, Solo *s, uint32_t mv) noexcept nogil:
    cdef int src, dst, c, h, m, j, k, choices
    if mv == S_DISCARD:
        s.pos += 1
        s.discards += 1
        return
    if mv == S_PASS:
        s.discards += popcount64(s.pool >> s.pos)
        s.pos = x.order_n                   # solo_settle redeals
        return
    src = (mv >> 3) & 63
    dst = mv & 7
    m = (mv >> S_CHAIN_SHIFT) & 15
    choices = mv >> S_CHOICE_SHIFT
    if src == S_SRC_STOCK:
        s.stock_n -= 1
        c = x.stock[s.stock_n]
    elif src == S_SRC_HAND:
        c = x.order[s.pos]
        pool_take(x, s, c)
        s.pos += 1
    elif src >= S_SRC_POOL:
        c = x.order[src - S_SRC_POOL]
        if not x.open_pool and x.k != UNLIMITED:   # a pass class (pass_free): the cards before it discarded
            s.discards += popcount64((s.pool >> s.pos) & ((<uint64_t>1 << (src - S_SRC_POOL - s.pos)) - 1))
        pool_take(x, s, c)
        if not x.open_pool:
            s.pos = src - S_SRC_POOL + 1    # a free cycle or pass (free_mode) brought the card up
    else:
        c = house_pop(s, src - S_SRC_HOUSE)
    if dst == 0:
        for j in range(m):                  # the same-suit pool run below c goes home first
            pool_take(x, s, suit_of(c) * N_RANKS + s.found[suit_of(c)])
            s.found[suit_of(c)] += 1
        s.found[suit_of(c)] += 1
    else:
        h = dst - 1
        for j in range(m, 0, -1):           # the pool chain that c lands on, highest card first
            k = chain_kind(c, j, choices)
            pool_take(x, s, k)
            house_push(s, h, k)
        house_push(s, h, c)

cdef inline void sort2(uint64_t *a, uint64_t *b) noexcept nogil:
    cdef uint64_t t
    if a[0] > b[0]:
        t = a[0]
        a[0] = b[0]
        b[0] = t

cdef inline void solo_key(const SoloCtx *x, const Solo *s, uint64_t *key) noexcept nogil:
    """The exact key (192 bits): pool, hand position (literal), stock depth, foundations, the four
    22-bit house codes sorted (houses are interchangeable), redeals used (finite k)."""
    cdef uint64_t a = s.hcode[0], b = s.hcode[1], c = s.hcode[2], d = s.hcode[3]
    cdef int pos = 0 if x.open_pool or cycling_free(x, s) else s.pos
    sort2(&a, &b)
    sort2(&c, &d)
    sort2(&a, &c)
    sort2(&b, &d)
    sort2(&b, &c)
    key[0] = s.pool | (<uint64_t>pos << 52) | (<uint64_t>s.stock_n << 58)
    key[1] = a | (b << 22) | (<uint64_t>s.found[0] << 44) | (<uint64_t>s.found[1] << 48) \
        | (<uint64_t>s.found[2] << 52) | (<uint64_t>s.found[3] << 56)
    key[2] = c | (d << 22) | (<uint64_t>(s.redeals if x.k != UNLIMITED else 0) << 44)

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111eb
    return z ^ (z >> 31)

cdef inline uint64_t tt_hash(const uint64_t *key) noexcept nogil:
    return mix64(key[0] ^ mix64(key[1] ^ mix64(key[2])))

cdef inline TTEntry *tt_slot(SoloCtx *x, const uint64_t *key, uint64_t hsh, int *found) noexcept nogil:
    """The entry of key (found = 1), or the free slot to store it in (found = 0); when the probe
    window is full, the first slot of the window (replacing costs re-search, never correctness)."""
    cdef uint64_t i
    cdef TTEntry *e
    for i in range(TT_PROBES):
        e = &x.tt[(hsh + i) & x.tt_mask]
        if e.gen != x.gen:
            found[0] = 0
            return e
        if e.k0 == key[0] and e.k1 == key[1] and e.k2 == key[2]:
            found[0] = 1
            return e
    found[0] = -1
    return &x.tt[hsh & x.tt_mask]

cdef inline void tt_grow(SoloCtx *x) noexcept nogil:
    """Double the slots in use: park the stored entries in the new upper half, then insert them
    again from there (an entry inserted beyond the scan point is simply moved twice)."""
    cdef uint64_t n = x.tt_mask + 1, i
    cdef uint64_t key[3]
    cdef TTEntry e
    cdef int found
    for i in range(n):
        if x.tt[i].gen == x.gen:
            x.tt[n + i] = x.tt[i]
            x.tt[i].gen = 0
    x.tt_mask = 2 * n - 1
    x.tt_used = 0
    for i in range(n, 2 * n):
        if x.tt[i].gen == x.gen:
            e = x.tt[i]
            x.tt[i].gen = 0
            key[0] = e.k0
            key[1] = e.k1
            key[2] = e.k2
            tt_slot(x, key, tt_hash(key), &found)[0] = e
            x.tt_used += 1

cdef struct TTProbe:
    TTEntry *e                   # the entry of the key (found = 1), or where to store it
    int found                    # 1 stored, 0 a free slot, -1 the probe window is full

cdef inline int tt_seen(SoloCtx *x, const uint64_t *key, uint64_t hsh, int cost, TTProbe *p) noexcept nogil:
    """1 if the position is stored with a cost <= cost (prune it); else 0, and p tells
    tt_record where it goes (the table must not change in between)."""
    p.e = tt_slot(x, key, hsh, &p.found)
    return p.found == 1 and p.e.cost <= cost

cdef inline void tt_record(SoloCtx *x, TTProbe *p, const uint64_t *key, uint64_t hsh, int cost) noexcept nogil:
    """Store the position tt_seen did not prune, with its cost."""
    cdef TTEntry *e = p.e
    cdef int found = p.found
    if found == 1:
        e.cost = cost
        return
    if found < 0 and x.tt_mask < x.tt_max_mask:
        # A crowded probe window: grow rather than replace. Replacing can lose a position of the
        # current path, and two positions that undo each other and share a window then evict
        # each other forever (seen: a 2-cycle ran to the end of the budget).
        tt_grow(x)
        e = tt_slot(x, key, hsh, &found)
    e.k0 = key[0]
    e.k1 = key[1]
    e.k2 = key[2]
    e.gen = x.gen
    e.cost = cost
    if found == 0:
        x.tt_used += 1
        if 2 * x.tt_used > x.tt_mask and x.tt_mask < x.tt_max_mask:
            tt_grow(x)

cdef inline int push_moves(SoloCtx *x, Frame *f, int first) noexcept nogil:
    """Generate the moves of f's position into the shared move buffer from `first` on."""
    cdef int n = solo_moves(x, &f.st, free_mode(x, &f.st), x.scratch)
    cdef uint32_t *grown
    while first + n > x.movebuf_cap:
        grown = <uint32_t *>realloc(x.movebuf, 2 * x.movebuf_cap * sizeof(uint32_t))
        if grown == NULL:
            return 0
        x.movebuf = grown
        x.movebuf_cap *= 2
    memcpy(x.movebuf + first, x.scratch, n * sizeof(uint32_t))
    f.first = first
    f.nm = n
    f.i = 0
    return 1

cdef extern from *:
    """
    #define rb_solo_prefetch(p) __builtin_prefetch(p)
    """
    void prefetch "rb_solo_prefetch"(const void *p) noexcept nogil

cdef inline int progress_rank(const Solo *s) noexcept nogil:
    """Smaller is further on: fewer stock cards first, then more foundation cards."""
    return s.stock_n * 64 - (s.found[0] + s.found[1] + s.found[2] + s.found[3])

cdef inline void order_kids(Child *kids, uint32_t *moves, int n) noexcept nogil:
    """Visit the successors that are furthest on first (stable insertion sort by progress_rank,
    their moves along): wins deep in the tail are found sooner. The order never changes which
    positions a complete search visits, so losses and the outcome of a finished search are
    unchanged."""
    cdef int i, j, r
    cdef Child t
    cdef uint32_t mv
    for i in range(1, n):
        r = progress_rank(&kids[i].st)
        if r >= progress_rank(&kids[i - 1].st):
            continue
        t = kids[i]
        mv = moves[i]
        j = i
        while j > 0 and progress_rank(&kids[j - 1].st) > r:
            kids[j] = kids[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        kids[j] = t
        moves[j] = mv

cdef inline int keep_kid(SoloCtx *x, Child *k) noexcept nogil:
    """Normalize and key the successor k.st, prefetching its table slot: 1 to keep it, 0 for a
    dead end, -1 for a win (x.best = its discards)."""
    cdef int r
    if x.discard_limit >= 0 and k.st.discards > x.discard_limit:
        return 0
    r = solo_normalize(x, &k.st)
    if r == RES_DEAD:
        return 0
    if r == RES_WIN and x.discard_limit >= 0 and k.st.discards > x.discard_floor:
        x.best = k.st.discards             # branch and bound: on to a win with fewer discards
        x.discard_limit = k.st.discards - 1
        x.improved = 1
        return 0
    if r == RES_WIN:
        x.best = k.st.discards
        x.won = k - x.kids
        return -1
    solo_key(x, &k.st, k.key)
    k.hsh = tt_hash(k.key)
    prefetch(&x.tt[k.hsh & x.tt_mask])
    return 1

cdef inline int add_kid(SoloCtx *x, int at, uint32_t mv, const Solo *st) noexcept nogil:
    """Put st, made by mv, in kids[at] and keep_kid it: 1 kept, 0 a dead end, -1 a win."""
    x.kid_mv[at] = mv
    x.kids[at].st = st[0]
    return keep_kid(x, &x.kids[at])

cdef inline int kids_reserve(SoloCtx *x, int need) noexcept nogil:
    """Grow kids and kid_mv (doubling) to hold at least `need` entries: 0 when memory runs out."""
    cdef Child *grown
    cdef uint32_t *grown_mv
    while need > x.kids_cap:
        grown = <Child *>realloc(x.kids, 2 * x.kids_cap * sizeof(Child))
        if grown == NULL:
            return 0
        x.kids = grown
        grown_mv = <uint32_t *>realloc(x.kid_mv, 2 * x.kids_cap * sizeof(uint32_t))
        if grown_mv == NULL:
            return 0
        x.kid_mv = grown_mv
        x.kids_cap *= 2
    return 1

cdef inline uint32_t move_back(const SoloCtx *x, const Solo *s, uint32_t came) noexcept nogil:
    """Open pool: the move that would undo `came`, the move that made s, when it leads straight
    back to the position before it (already on the search path), else S_NO_MOVE. That is a
    single card moved from house a onto house b, with a's new top still there (it did not go
    home by itself): moving the card back restores the position exactly."""
    cdef uint32_t src = (came >> 3) & 63, dst = came & 7
    if not x.open_pool or came >> S_CHAIN_SHIFT or src < S_SRC_HOUSE or src >= S_SRC_HOUSE + SOLO_HOUSES \
            or dst == 0 or s.house_n[src - S_SRC_HOUSE] == 0:
        return S_NO_MOVE
    return (1 + src - S_SRC_HOUSE) | ((S_SRC_HOUSE + dst - 1) << 3)

cdef inline int expand(SoloCtx *x, const Solo *s, int first, uint32_t came) noexcept nogil:
    """Generate the successors of s into kids[first ..], normalized and keyed, and prefetch their
    table slots so that the cache misses of siblings overlap. Returns their number, -1 when one
    of them is a win (x.best = its discards), -2 when memory runs out. came is the move that made
    s (S_NO_MOVE at the root): its undoing is left out (move_back).
    In a free class (cycling_free) a stock or house move may be made at any hand position, and
    afterwards the position matters only through the hand and waste cards that now go home by
    themselves (at most one per suit): from the position just after such a card f, discarding
    reaches every position up to the next one with no other change, so the successors are the
    move made there, one per f (or one, if the class is still free). A pass class (pass_free)
    is the same with the rest of the pass for the round."""
    cdef int free = free_mode(x, s)
    cdef int n = solo_moves(x, s, free, x.scratch), j, r, c = 0, src, i
    cdef uint64_t fit
    cdef uint32_t mv, back = move_back(x, s, came)
    cdef Solo base, after
    if not kids_reserve(x, first + (1 if free == FREE_NONE else 5) * n):
        return -2
    for j in range(n):
        mv = x.scratch[j]
        if mv == back:
            continue
        src = (mv >> 3) & 63
        if free == FREE_NONE or src == S_SRC_HAND or src >= S_SRC_POOL or mv == S_PASS:
            x.kid_mv[first + c] = mv
            x.kids[first + c].st = s[0]
            solo_apply(x, &x.kids[first + c].st, mv)
            r = keep_kid(x, &x.kids[first + c])
            if r < 0:
                return r
            c += r
            continue
        base = s[0]
        solo_apply(x, &base, mv)
        if solo_settle(x, &base, 0) == RES_WIN:
            x.best = base.discards
            return -1
        fit = hand_goes_home(x, &base)
        # the move made here (a round class: only when no card goes home, else every position
        # is just past one), or just after a card that now goes home by itself (it was passed
        # before the move, so it stays on the waste); from each, discarding reaches the later
        # positions up to the next such card with no other change. In a pass class, after the
        # last card of the pass the hand is redealt first (S_PASS).
        if free == FREE_PASS or fit == 0:
            r = add_kid(x, first + c, mv, &base)
            if r < 0:
                return r
            c += r
        while fit:
            i = lowest_bit64(fit)
            fit &= fit - 1
            if not move_past(x, s, free, &base, i, &after):
                continue
            r = add_kid(x, first + c, mv, &after)
            if r < 0:
                return r
            c += r
    order_kids(x.kids + first, x.kid_mv + first, c)
    return c

cdef inline void stock_below_masks(SoloCtx *x, int n) noexcept nogil:
    """x.stock_below[d] = the kinds of stock[0 .. d), for d = 0 .. n."""
    cdef int d
    x.stock_below[0] = 0
    for d in range(n):
        x.stock_below[d + 1] = x.stock_below[d] | (<uint64_t>1 << x.stock[d])

cdef inline uint64_t lane_trailing_ones(uint64_t m) noexcept nogil:
    """Per 13-bit suit lane of m, the run of set bits from rank 0 up. Adding 1 to a lane turns
    its trailing ones to zeros; lanes 0 and 2, then 1 and 3, are added apart so that the carry
    out of a full lane falls into an empty one."""
    cdef uint64_t lane = (<uint64_t>1 << N_RANKS) - 1
    cdef uint64_t even = m & (lane | (lane << (2 * N_RANKS)))
    cdef uint64_t odd = m & ((lane << N_RANKS) | (lane << (3 * N_RANKS)))
    cdef uint64_t one = <uint64_t>1 | (<uint64_t>1 << (2 * N_RANKS))
    return (even & ~(even + one)) | (odd & ~(odd + (one << N_RANKS)))

# Per suit and foundation height f, the kinds home: ranks 0 .. f - 1 of the suit's lane
cdef extern from *:
    """
    #define RB_FL1(st, f) (((UINT64_C(1) << (f)) - 1) << (13 * (st)))
    #define RB_FL(st) {RB_FL1(st, 0), RB_FL1(st, 1), RB_FL1(st, 2), RB_FL1(st, 3), RB_FL1(st, 4), \\
        RB_FL1(st, 5), RB_FL1(st, 6), RB_FL1(st, 7), RB_FL1(st, 8), RB_FL1(st, 9), RB_FL1(st, 10), \\
        RB_FL1(st, 11), RB_FL1(st, 12), RB_FL1(st, 13)}
    static const uint64_t rb_solo_home_lane[4][14] = {RB_FL(0), RB_FL(1), RB_FL(2), RB_FL(3)};
    #undef RB_FL
    #undef RB_FL1
    """
    const uint64_t rb_solo_home_lane[4][14]

cdef inline uint64_t found_mask(const Solo *s) noexcept nogil:
    """The cards home, by table (no loop, no variable shifts)."""
    return (rb_solo_home_lane[0][s.found[0]] | rb_solo_home_lane[1][s.found[1]]
            | rb_solo_home_lane[2][s.found[2]] | rb_solo_home_lane[3][s.found[3]])

cdef enum:
    REACH_FREE = 0               # reach_grow: the card may leave
    REACH_STUCK = 1              # it can never leave
    REACH_EMPTIED = 2            # a house might be emptied: the test gives up

cdef struct Reach:
    # The least sets of the stuck-stock argument (stock_stuck), grown as the frozen set shrinks
    uint64_t a                   # A: kinds that may ever be a house top
    uint64_t ca                  # children_of(a): the kinds some card of A accepts
    uint64_t home                # per suit, the cards home and the run above them that may go home
    uint64_t found               # the cards home now
    uint64_t deep                # per house, its deepest card known to be in A: house[h][depth[h] - 1]
    uint8_t depth[SOLO_HOUSES]
    uint8_t house_of[N_KINDS]    # the house of each card of deep (other entries unset)

cdef inline int reach_init(Reach *r, const Solo *s) noexcept nogil:
    """Start the sets from the house tops; 0 when a house is empty (the test gives up). The
    tops are distinct kinds, one per non-empty house, so their count tells."""
    cdef int h
    if popcount64(s.tops) != SOLO_HOUSES:
        return 0
    r.a = s.tops
    r.deep = s.tops
    r.ca = children_of(s.tops)
    r.found = found_mask(s)
    r.home = r.found             # reach_grow sets it; the cards home are in it from the start
    for h in range(SOLO_HOUSES):
        r.depth[h] = s.house_n[h]
        r.house_of[s.house[h][r.depth[h] - 1]] = h
    return 1

cdef inline int reach_grow(Reach *r, const Solo *s, uint64_t pool, int c) noexcept nogil:
    """Grow the sets for the available cards `pool`, the frozen ones held in place, until the
    card c (frozen) is seen free to leave: accepted by a card of A, or its suit may come home up
    to it (REACH_FREE); or a house might be emptied (REACH_EMPTIED: the test gives up); or the
    sets are closed with c still not free (REACH_STUCK). The sets only grow towards their
    closure, so c free or a house emptied at any stage holds at the closure too.
    No frozen card is in pool, nor in A (which takes only tops, pool cards and house cards), so
    H is the run from the cards home over pool | A.
    A card x of house h leaves when it may go home or onto a card of A outside house h. The cards
    of A in house h are x and the cards above it, all of lower rank (a house is a descending run),
    and a card only goes on one a rank higher: so "accepted by a card of A" is the same test.
    A house is walked down with the test set ch of before the walk: the cards it exposes accept
    only cards of lower rank than those still to test, and what they add to H is seen in the
    next round."""
    cdef int h, i, k
    cdef uint64_t grow, ch, leave, walked, avail = pool | r.found
    if rank_of(c) == 0:
        return REACH_FREE         # an ace goes home whenever it is available
    while True:
        grow = r.ca & pool & ~r.a
        while grow:               # pool cards laid on cards of A, repeatedly
            r.a |= grow
            grow = children_of(grow)
            r.ca |= grow
            grow &= pool & ~r.a
        r.home = lane_trailing_ones(avail | r.a)
        # c free: in ca, or the card below it (rank > 0) in home; home << 1 carries a lane's
        # king into the next lane's ace, never tested here
        if ((r.ca | (r.home << 1)) >> c) & 1:
            return REACH_FREE
        ch = r.home | r.ca
        leave = r.deep & ch       # deepest cards of A that leave, exposing the next
        if leave == 0:
            return REACH_STUCK    # closed
        while leave:
            k = lowest_bit64(leave)
            leave &= leave - 1
            h = r.house_of[k]
            i = r.depth[h] - 1    # house[h][i] == k
            walked = 0
            while True:
                i -= 1
                if i < 0:
                    return REACH_EMPTIED
                walked |= <uint64_t>1 << s.house[h][i]
                if not (ch >> s.house[h][i]) & 1:
                    break
            r.deep ^= (<uint64_t>1 << k) | (<uint64_t>1 << s.house[h][i])
            r.depth[h] = i + 1
            r.house_of[s.house[h][i]] = h
            r.a |= walked
            r.ca |= children_of(walked)
            ch = r.home | r.ca

cdef inline int stock_stuck(const SoloCtx *x, const Solo *s) noexcept nogil:
    """1 if some stock card c = stock[j] can never leave the stock, so the position is lost (the
    stock must be emptied to win, and only its top is ever taken). Sound for every SOLO(k, π)
    and model: every play of those games is a play of the open-pool game under π = none, and it
    is that game whose plays are bounded here.

    Relaxation for a given j: the cards above c (stock[j+1 ..]) are treated as pool cards (in
    the real game they become available later and only one by one, so every real play until c
    leaves is a play of the relaxed game); F = stock[0 .. j] stays frozen until c moves. With
    no empty house now, compute the least sets
      A: kinds that may ever be a house top,
      H: kinds that may ever reach a foundation,
      L: original house cards that may ever leave their house,
    closed under: every current house top is in A; a pool card accepted by a card of A (one
    rank lower, other colour) is in A; a card not in F that is in the pool or in A, and whose
    next lower card of its suit is home or in H, is in H; a house card x of house h is in L if
    it is in H or accepted by a card of A outside house h (the cards of h below x stay covered
    by x, and the others of h are lower); the card below x is in A once x and all cards above it
    are in L.
    If some house has all its cards in L we give up (it might be emptied). Otherwise c is stuck
    when no card of A accepts it and not all lower cards of its suit are home or in H.
    Proof (induction over any relaxed play sequence that leaves c in place): (i) no house is
    ever empty, (ii) every house top at any time is in A, (iii) every card that goes home is in
    H, (iv) an original house card leaving its house for the first time is in L. A pool card
    put on a top u (in A by (ii); no empty house by (i)) is accepted by u: in A. A card y
    exposed for the first time was covered since the start by its original cards, each of which
    left (a first departure: in L by (iv)), so y is in A; a card exposed again was a top before.
    A card going home is not in F (F is frozen), is available (pool, or a top: in A) and every
    lower card of its suit went home before it (in H by (iii)): it is in H. An original card x
    leaving house h for the first time goes home (in H) or onto a top u of another house (u in
    A, and not one of the cards of h below x, still covered by x): x is in L; an empty house
    does not exist. A house empties only when its original bottom leaves after all original
    cards above it: all its cards are in L, excluded. Finally c leaves only home (all lower
    cards of its suit home before: in H), onto a top accepted by A, or to an empty house.
    All sets only grow as j decreases (F shrinks, the relaxed pool grows), so j runs down from
    the top continuing the same growth: once a house might be emptied, that holds for every
    deeper j too; and once c is seen free part way, it is free in the least sets for j, whose
    growth can stop there and go on for j - 1 (the sets so far are within those for j - 1)."""
    cdef int n = s.stock_n, j, g
    cdef Reach r
    if n == 0 or not reach_init(&r, s):
        return 0
    for j in range(n - 1, -1, -1):   # the pool: the hand and waste, and stock[j + 1 .. n)
        g = reach_grow(&r, s, s.poolk | (x.stock_below[n] ^ x.stock_below[j + 1]), x.stock[j])
        if g != REACH_FREE:
            return g == REACH_STUCK
    return 0

cdef inline int hand_stuck(const SoloCtx *x, const Solo *s) noexcept nogil:
    """Literal model with finite k, s normalized: 1 if some card of the hand or waste can never
    be played in the last pass, so the position is lost. The goal needs an empty waste, and in
    the last pass a discard leaves a card on the waste for good (solo_settle's last-pass cut):
    there the cards must leave one by one in turning order, each as it comes up, so they form a
    second stock with the first card to come up on top. In the last pass that stack is the
    whole hand (the cut leaves no card below the current one); in the pass before it, it is
    the waste (pool cards below the current index), which can only be played in the last pass
    (the hand cards of this pass are then simply counted as available, whenever they come).
    The argument of stock_stuck holds with F = c and the stacked cards after it (they cannot
    move before c leaves) and every other card of the stock, hand and waste available (a
    relaxation: the stock's order is ignored). F shrinks card by card from the top of the
    stack, so the sets grow as in stock_stuck."""
    cdef uint64_t stack, m, frozen
    cdef int c, g
    cdef Reach r
    if x.open_pool or x.k == UNLIMITED or s.redeals < x.k - 1:
        return 0
    stack = s.pool if s.redeals >= x.k else s.pool & ((<uint64_t>1 << s.pos) - 1)
    if stack == 0 or not reach_init(&r, s):
        return 0
    if stack == s.pool:
        frozen = s.poolk         # the whole hand and waste
    else:
        frozen = 0
        m = stack
        while m:
            frozen |= <uint64_t>1 << x.order[lowest_bit64(m)]
            m &= m - 1
    m = stack
    while m:
        c = x.order[lowest_bit64(m)]
        m &= m - 1
        g = reach_grow(&r, s, x.stock_below[s.stock_n] | (s.poolk & ~frozen), c)
        if g != REACH_FREE:
            return g == REACH_STUCK
        frozen &= ~(<uint64_t>1 << c)
    return 0

cdef inline int search_cost(const SoloCtx *x, const Solo *s) noexcept nogil:
    """A position's cost in the table: its discards under branch and bound (a position reached
    again with fewer discards is searched again), else 0."""
    return s.discards if x.discard_limit >= 0 else 0

cdef inline int solo_search(SoloCtx *x, const Solo *root) noexcept nogil:
    """Depth-first search from root: RES_WIN (x.best = the discards of the win found), RES_LOSS or
    RES_UNRESOLVED (budget exhausted).
    As branch and bound (x.discard_limit >= 0): only lines with at most discard_limit discards;
    each win with more than discard_floor discards sets x.best and x.improved and lowers the
    limit below it. RES_WIN then means a win with x.best discards and none with fewer (a win
    at the floor, or the search completed after a win); RES_LOSS that no line is within the
    limit; RES_UNRESOLVED with x.improved that the best win found has x.best discards."""
    cdef KidFrame *f
    cdef KidFrame *grown
    cdef Child *k
    cdef Solo st
    cdef uint64_t key[3]
    cdef uint64_t hsh
    cdef TTProbe probe
    cdef int depth, r, n, next_first
    x.gen += 1
    x.tt_mask = min((<uint64_t>1 << TT_MIN_BITS) - 1, x.tt_max_mask)
    x.tt_used = 0
    x.truncated = 0
    x.nodes = 0
    x.max_depth = 0
    x.path_n = 0
    x.won = -1
    x.improved = 0
    st = root[0]
    r = solo_normalize(x, &st)
    if r == RES_DEAD:
        return RES_LOSS
    if r == RES_WIN:
        x.best = st.discards
        return RES_WIN
    if x.stuck_prune:
        stock_below_masks(x, st.stock_n)
        if stock_stuck(x, &st) or hand_stuck(x, &st):
            return RES_LOSS
    solo_key(x, &st, key)
    hsh = tt_hash(key)
    tt_seen(x, key, hsh, search_cost(x, &st), &probe)
    tt_record(x, &probe, key, hsh, search_cost(x, &st))
    n = expand(x, &st, 0, S_NO_MOVE)
    if n < 0:
        return RES_WIN if n == -1 else RES_UNRESOLVED
    x.kframes[0].first = 0
    x.kframes[0].n = n
    x.kframes[0].i = 0
    depth = 0
    while depth >= 0:
        f = &x.kframes[depth]
        if f.i >= f.n:
            depth -= 1
            continue
        k = &x.kids[f.first + f.i]
        f.i += 1
        if x.discard_limit >= 0 and k.st.discards > x.discard_limit:
            continue                   # made before a win lowered the limit
        # Seen before, or lost by the stuck-stock test: skip. The table is asked first, so the
        # test runs only for new positions (a stuck one is never stored, nor counted: like a
        # dead end, and a seen one was tested when it was stored).
        if tt_seen(x, k.key, k.hsh, search_cost(x, &k.st), &probe):
            continue
        if solo_stuck(x, &k.st):
            continue
        tt_record(x, &probe, k.key, k.hsh, search_cost(x, &k.st))
        x.nodes += 1
        if x.nodes > x.budget:
            return RES_UNRESOLVED
        if depth + 1 >= x.kframes_cap:
            if x.kframes_cap >= MAX_FRAMES:
                return RES_UNRESOLVED
            grown = <KidFrame *>realloc(x.kframes, 2 * x.kframes_cap * sizeof(KidFrame))
            if grown == NULL:
                return RES_UNRESOLVED
            x.kframes = grown
            x.kframes_cap *= 2
            f = &x.kframes[depth]
        st = k.st                      # expand may move the successor buffer
        next_first = f.first + f.n
        n = expand(x, &st, next_first, x.kid_mv[f.first + f.i - 1])
        if n < 0:
            x.path_n = depth + 1       # the line: the current successor of frames 0 .. depth, then kids[won]
            return RES_WIN if n == -1 else RES_UNRESOLVED
        depth += 1
        x.kframes[depth].first = next_first
        x.kframes[depth].n = n
        x.kframes[depth].i = 0
        if depth > x.max_depth:
            x.max_depth = depth
    if x.truncated:
        return RES_UNRESOLVED
    return RES_WIN if x.improved else RES_LOSS

cdef inline int solo_stuck(const SoloCtx *x, const Solo *s) noexcept nogil:
    """1 if the stuck tests (under stuck_prune) prove s lost (x.stock_below set for the search)."""
    return x.stuck_prune and (stock_stuck(x, s) or hand_stuck(x, s))

cdef inline int layer_add(SoloCtx *x, const Solo *s) noexcept nogil:
    cdef Solo *grown
    cdef int64_t cap
    if x.layer_n == x.layer_cap:
        cap = 2 * x.layer_cap if x.layer_cap else 1024
        grown = <Solo *>realloc(x.layer, cap * sizeof(Solo))
        if grown == NULL:
            return 0
        x.layer = grown
        x.layer_cap = cap
    x.layer[x.layer_n] = s[0]
    x.layer_n += 1
    return 1

cdef inline int tempo_layer(SoloCtx *x, const Solo *start, int d) noexcept nogil:
    """Depth-first search of the positions reachable from start without a discard, each stored
    in the table with cost d; the positions one DISCARD further are appended to x.layer.
    RES_WIN when a win is reached (with d discards), RES_OPEN when the layer part is done,
    RES_UNRESOLVED when the budget or memory runs out."""
    cdef Frame *f
    cdef Frame *nf
    cdef Frame *grown
    cdef uint64_t key[3]
    cdef uint64_t hsh
    cdef TTProbe probe
    cdef int depth = 0, r
    cdef uint32_t mv
    if start.stock_n == 0 and start.pool == 0:
        x.best = d                      # a discard of layer d - 1 won
        return RES_WIN
    solo_key(x, start, key)
    hsh = tt_hash(key)
    if tt_seen(x, key, hsh, d, &probe) or solo_stuck(x, start):
        return RES_OPEN
    tt_record(x, &probe, key, hsh, d)
    x.nodes += 1
    x.frames[0].st = start[0]
    if not push_moves(x, &x.frames[0], 0):
        return RES_UNRESOLVED
    while depth >= 0:
        f = &x.frames[depth]
        if f.i >= f.nm:
            depth -= 1
            continue
        mv = x.movebuf[f.first + f.i]
        f.i += 1
        if depth + 1 >= x.frames_cap:
            if x.frames_cap >= MAX_FRAMES:
                return RES_UNRESOLVED
            grown = <Frame *>realloc(x.frames, 2 * x.frames_cap * sizeof(Frame))
            if grown == NULL:
                return RES_UNRESOLVED
            x.frames = grown
            x.frames_cap *= 2
            f = &x.frames[depth]
        nf = &x.frames[depth + 1]
        nf.st = f.st
        solo_apply(x, &nf.st, mv)
        r = solo_normalize(x, &nf.st)
        if r == RES_DEAD:
            continue
        if r == RES_WIN and mv != S_DISCARD:
            x.best = nf.st.discards
            return RES_WIN
        if mv == S_DISCARD:
            # a win made by the discard has d + 1 discards: it waits in the next layer, as a
            # win with d may still come in this one
            if not layer_add(x, &nf.st):
                return RES_UNRESOLVED
            continue
        solo_key(x, &nf.st, key)
        # as in solo_search: a stuck position is never stored, nor counted (a win never passes it)
        hsh = tt_hash(key)
        if tt_seen(x, key, hsh, d, &probe) or solo_stuck(x, &nf.st):
            continue
        tt_record(x, &probe, key, hsh, d)
        x.nodes += 1
        if x.nodes > x.budget:
            return RES_UNRESOLVED
        if not push_moves(x, nf, f.first + f.nm):
            return RES_UNRESOLVED
        depth += 1
    return RES_OPEN

cdef inline int solo_tempo(SoloCtx *x, const Solo *root) noexcept nogil:
    """D* (§9.2): the fewest discards of a win, by a 0-1 breadth-first search layered by discards
    (§10.6) in the literal model. Layer d holds the positions reached with d discards; every
    position of layer d is expanded (moves cost 0, a DISCARD leads to layer d + 1) before layer
    d + 1 starts, so the first win found has the fewest discards. RES_WIN with x.best = D*,
    RES_LOSS when no layer reaches a win, RES_UNRESOLVED when the budget runs out: then D* is at
    least x.best, the layer being expanded."""
    cdef Solo st
    cdef int64_t i, cur_n
    cdef int r, d
    x.gen += 1
    x.tt_mask = min((<uint64_t>1 << TT_MIN_BITS) - 1, x.tt_max_mask)
    x.tt_used = 0
    x.truncated = 0
    x.nodes = 0
    x.max_depth = 0
    st = root[0]
    x.best = st.discards
    r = solo_normalize(x, &st)
    if r != RES_OPEN:
        return RES_WIN if r == RES_WIN else RES_LOSS
    if x.stuck_prune:
        stock_below_masks(x, st.stock_n)
    # the current layer is layer[0 .. cur_n); the next one is appended behind it and moved down
    x.layer_n = 0
    if not layer_add(x, &st):
        return RES_UNRESOLVED
    cur_n = 1
    d = st.discards
    while cur_n:
        x.best = d
        for i in range(cur_n):
            st = x.layer[i]              # (tempo_layer may move the array)
            r = tempo_layer(x, &st, d)
            if r != RES_OPEN:
                return r
        x.layer_n -= cur_n
        memmove(x.layer, x.layer + cur_n, x.layer_n * sizeof(Solo))
        cur_n = x.layer_n
        d += 1
    return RES_UNRESOLVED if x.truncated else RES_LOSS


cdef inline int ctx_init(SoloCtx *x, int tt_bits) noexcept nogil:
    memset(x, 0, sizeof(SoloCtx))
    x.discard_limit = -1
    x.tt = <TTEntry *>big_table_alloc((<size_t>1 << tt_bits) * sizeof(TTEntry))
    x.tt_max_mask = (<uint64_t>1 << tt_bits) - 1
    x.frames_cap = 256
    x.frames = <Frame *>malloc(x.frames_cap * sizeof(Frame))
    x.movebuf_cap = 1 << 14
    x.movebuf = <uint32_t *>malloc(x.movebuf_cap * sizeof(uint32_t))
    x.kids_cap = 1 << 12
    x.kids = <Child *>malloc(x.kids_cap * sizeof(Child))
    x.kid_mv = <uint32_t *>malloc(x.kids_cap * sizeof(uint32_t))
    x.kframes_cap = 256
    x.kframes = <KidFrame *>malloc(x.kframes_cap * sizeof(KidFrame))
    x.scratch = <uint32_t *>malloc(SOLO_MAX_MOVES * sizeof(uint32_t))
    return (x.tt != NULL and x.frames != NULL and x.movebuf != NULL and x.kids != NULL and x.kid_mv != NULL
            and x.kframes != NULL and x.scratch != NULL)

cdef inline void ctx_free(SoloCtx *x) noexcept nogil:
    big_table_free(x.tt, (x.tt_max_mask + 1) * sizeof(TTEntry))
    free(x.frames)
    free(x.movebuf)
    free(x.kids)
    free(x.kid_mv)
    free(x.kframes)
    free(x.layer)
    free(x.scratch)

cdef inline void solo_copy_layout(SoloCtx *dst, const SoloCtx *src) noexcept nogil:
    """Give dst the stock and turning order of src's position (a second search of the same deal)."""
    memcpy(dst.stock, src.stock, sizeof(src.stock))
    memcpy(dst.order, src.order, sizeof(src.order))
    memcpy(dst.index_of, src.index_of, sizeof(src.index_of))
    dst.order_n = src.order_n

cdef inline void solo_deal(SoloCtx *x, Solo *s, const uint8_t *d) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(Solo))
    for i in range(DECK_STOCK):
        x.stock[i] = d[DECK_STOCK - 1 - i]
    s.stock_n = DECK_STOCK
    for i in range(SOLO_HOUSES):
        house_push(s, i, d[DECK_STOCK + i])
    x.order_n = N_KINDS - DECK_STOCK - SOLO_HOUSES
    for i in range(N_KINDS):
        x.index_of[i] = -1
    for i in range(x.order_n):
        x.order[i] = d[DECK_STOCK + SOLO_HOUSES + i]
        x.index_of[x.order[i]] = i
    s.pool = (<uint64_t>1 << x.order_n) - 1
    s.poolk = 0
    for i in range(x.order_n):
        s.poolk |= <uint64_t>1 << x.order[i]

cdef inline int relaxation_lost(SoloCtx *x, SoloCtx *relax, const Solo *relax_root, int64_t *nodes,
                                 int *won) noexcept nogil:
    """With relax (the same deal as SOLO(∞, none) in the open pool), search it: 1 if it is lost
    (x.nodes and x.max_depth then tell that search's), else 0 with its nodes in *nodes and
    *won = 1 if it found a win (its line is then in relax's path)."""
    cdef int r
    nodes[0] = 0
    won[0] = 0
    if relax == NULL:
        return 0
    r = solo_search(relax, relax_root)
    if r == RES_LOSS:
        x.nodes = relax.nodes
        x.max_depth = relax.max_depth
        return 1
    nodes[0] = relax.nodes
    won[0] = r == RES_WIN
    return 0

cdef inline int path_length(const SoloCtx *x) noexcept nogil:
    """After a win of solo_search: the moves of the winning line it found."""
    return x.path_n + (1 if x.won >= 0 else 0)

cdef inline int path_kid(const SoloCtx *x, int d) noexcept nogil:
    """The d-th move of that line as an index into kids (and kid_mv): the current successor of
    frame d, and after the frames kids[won]."""
    return x.kframes[d].first + x.kframes[d].i - 1 if d < x.path_n else x.won

cdef struct LiteralReplay:
    # An open-pool line played in the literal model (open_line_discards)
    uint64_t pool                # turning indices of the cards still in hand or waste
    uint64_t pending             # kinds home in the open line but not yet here (a subset of pool)
    int pos                      # the turning index from which the next card comes up
    int found[4]
    int discards

cdef inline int replay_turn(LiteralReplay *L) noexcept nogil:
    """Turn the hand: the turning index of the card that comes up (k = ∞: a redeal, when the
    hand runs out, is free)."""
    cdef uint64_t hand = L.pool & (~<uint64_t>0 << L.pos) if L.pos < 64 else 0
    cdef int i = lowest_bit64(hand) if hand else lowest_bit64(L.pool)
    L.pos = i + 1
    return i

cdef inline int replay_home(const SoloCtx *x, LiteralReplay *L, int i) noexcept nogil:
    """The card of turning index i, just come up: home if it is pending and fits (1), else 0."""
    cdef int c = x.order[i]
    if not (L.pending >> c) & 1 or L.found[suit_of(c)] != rank_of(c):
        return 0
    L.pool &= ~(<uint64_t>1 << i)
    L.pending &= ~(<uint64_t>1 << c)
    L.found[suit_of(c)] += 1
    return 1

cdef inline int replay_take(const SoloCtx *x, LiteralReplay *L, int target) noexcept nogil:
    """Turn the hand until the card of turning index target comes up and take it (it is played);
    every card that comes up before it goes home if it is pending and fits, else is discarded.
    Returns the discards made."""
    cdef int i, made = 0
    while True:
        i = replay_turn(L)
        if i == target:
            L.pool &= ~(<uint64_t>1 << i)
            return made
        if not replay_home(x, L, i):
            made += 1

cdef inline int replay_home_up_to(const SoloCtx *x, LiteralReplay *L, int st, int r) noexcept nogil:
    """Bring the foundation of suit st up to height r with the pending cards below (in order):
    the open line had them home. 0 if a card below is not pending (cannot happen)."""
    cdef int c
    while L.found[st] < r:
        c = st * N_RANKS + L.found[st]
        if not (L.pending >> c) & 1:
            return 0
        L.discards += replay_take(x, L, x.index_of[c])
        L.pending &= ~(<uint64_t>1 << c)
        L.found[st] += 1
    return 1

cdef inline int replay_step(const SoloCtx *x, LiteralReplay *L, const Solo *p, uint32_t mv, int is_move,
                            const Solo *c) noexcept nogil:
    """One step of the open-pool line: the move mv (if is_move) from p, and the cards that then
    go home by themselves, up to c. Pool cards the move lays on a house are taken first, highest
    first (a chain is laid so; some may go home later in the step, from the house). Then the
    cards that go home, in an order the piles allow (a stock or house card only from the top;
    the first suit whose next card can go, again and again): a pool card waits (pending) until
    a card above it needs it or the end, a stock or house card first needs the pending cards
    below it. 0 if the step cannot be replayed (cannot happen)."""
    cdef uint64_t laid = 0
    cdef int st, k, j, h, src, card, going
    cdef int f[4]                         # the open line's foundations in this step
    cdef Solo q = p[0]                    # the piles, as the cards leave them
    if is_move and (mv & 7) != 0:         # onto a house: its chain, highest first, then the card
        src = (mv >> 3) & 63
        if src == S_SRC_STOCK:
            card = x.stock[p.stock_n - 1]
        elif src >= S_SRC_POOL:
            card = x.order[src - S_SRC_POOL]
        else:
            card = p.house[src - S_SRC_HOUSE][p.house_n[src - S_SRC_HOUSE] - 1]
        for j in range((mv >> S_CHAIN_SHIFT) & 15, 0, -1):
            k = chain_kind(card, j, mv >> S_CHOICE_SHIFT)
            laid |= <uint64_t>1 << k
            L.discards += replay_take(x, L, x.index_of[k])
        if src >= S_SRC_POOL:
            laid |= <uint64_t>1 << card
            L.discards += replay_take(x, L, src - S_SRC_POOL)
        solo_apply(x, &q, mv)             # nothing goes home by such a move itself
    for st in range(4):
        f[st] = p.found[st]
    going = 1
    while going:
        going = 0
        for st in range(4):
            if f[st] >= c.found[st]:
                continue
            k = st * N_RANKS + f[st]
            if (p.poolk >> k) & 1 and not (laid >> k) & 1:
                L.pending |= <uint64_t>1 << k
            elif q.stock_n > 0 and x.stock[q.stock_n - 1] == k:
                q.stock_n -= 1
                if not replay_home_up_to(x, L, st, f[st]):
                    return 0
                L.found[st] = f[st] + 1
            else:
                for h in range(SOLO_HOUSES):
                    if q.house_n[h] and q.house[h][q.house_n[h] - 1] == k:
                        break
                else:
                    continue              # not on top yet: another suit goes first
                house_pop(&q, h)
                if not replay_home_up_to(x, L, st, f[st]):
                    return 0
                L.found[st] = f[st] + 1
            f[st] += 1
            going = 1
            break
    for st in range(4):
        if f[st] != c.found[st]:
            return 0
    return 1

cdef inline int open_line_discards(const SoloCtx *x, const Solo *root) noexcept nogil:
    """The discards of a literal line made from the win solo_search found in the open pool (x's
    path, as solo_line reads it), for SOLO(∞, none): an upper bound on D* (§9.2), or -1 (cannot
    happen). The open line's moves are made in the same order; a pool card it uses is brought
    up by turning the hand (each card passed is a discard, unless it is a pending card that fits
    its foundation: it goes home instead), and the cards the open line sends home by themselves
    wait until they come up or are needed. Every step is legal in the literal game (under
    π = none a foundation card is never forced, and a foundation's height matters only to the
    cards that go onto it), and every card ends home or in a house, so the line wins."""
    cdef LiteralReplay L
    cdef Solo p = root[0], c
    cdef int d, st, i
    L.pool = root.pool
    L.pending = 0
    L.pos = root.pos
    L.discards = 0
    for st in range(4):
        L.found[st] = root.found[st]
    solo_normalize(x, &p)
    if not replay_step(x, &L, root, 0, 0, &p):
        return -1
    for d in range(path_length(x)):
        i = path_kid(x, d)
        c = x.kids[i].st
        if not replay_step(x, &L, &p, x.kid_mv[i], 1, &c):
            return -1
        p = c
    while L.pool:                         # the pending cards, as they come up and fit
        i = replay_turn(&L)
        if not (L.pending >> x.order[i]) & 1:
            return -1
        if not replay_home(x, &L, i):
            L.discards += 1
    return L.discards

cdef enum:
    GUIDED_CHECK_NODES = 20000    # the open-pool search that tells whether a candidate move keeps the win
    GUIDED_MAX_STEPS = 1 << 16    # a guided game this long has lost its way (a cycle of house moves)
    GUIDED_LINE_CAP = 1024        # the moves of an open-pool line guided_play keeps (it searches again after)

cdef inline int guided_wins(SoloCtx *relax, const Solo *s, int64_t *left) noexcept nogil:
    """1 if the open-pool search (relax) proves s won, within GUIDED_CHECK_NODES nodes and what is
    left of the budget (its nodes are taken off *left)."""
    cdef int64_t budget = relax.budget
    cdef int r
    relax.budget = min(<int64_t>GUIDED_CHECK_NODES, left[0])
    r = solo_search(relax, s)
    relax.budget = budget
    left[0] -= relax.nodes
    return r == RES_WIN

cdef inline int guided_move_wins(SoloCtx *x, SoloCtx *relax, const Solo *s, uint32_t mv,
                                 int64_t *left) noexcept nogil:
    """guided_play's check of a candidate move: 1 if after mv the position is won outright or
    the open-pool search (guided_wins) proves it won."""
    cdef Solo t = s[0]
    solo_apply(x, &t, mv)
    return solo_normalize(x, &t) == RES_WIN or guided_wins(relax, &t, left)

cdef inline int guided_prep(SoloCtx *x, SoloCtx *relax, const Solo *s, int n, int64_t *left,
                            uint32_t *chosen) noexcept nogil:
    """guided_play's move before a discard: the first stock or house card laid on a house
    (x.scratch[0 .. n) are s's moves) after which the hand card has a place that keeps the
    position won in the open pool (1, the move in *chosen), so that the hand card is played
    instead of passed; else 0. The hand card is the same after such a move, and it is played
    next, so the game always gains a card this way."""
    cdef uint32_t after[64]          # a literal position's moves: at most 31
    cdef Solo t
    cdef int j, i, m, r
    for j in range(n):
        if x.scratch[j] == S_DISCARD or (x.scratch[j] & 7) == 0 or (x.scratch[j] >> 3) & 63 == S_SRC_HAND:
            continue
        t = s[0]
        solo_apply(x, &t, x.scratch[j])
        r = solo_normalize(x, &t)
        if r == RES_WIN:
            chosen[0] = x.scratch[j]
            return 1
        if r != RES_OPEN:
            continue
        m = solo_moves(x, &t, 0, after)
        for i in range(m):
            if after[i] != S_DISCARD and (after[i] >> 3) & 63 == S_SRC_HAND and \
                    guided_move_wins(x, relax, &t, after[i], left):
                chosen[0] = x.scratch[j]
                return 1
    return 0

cdef inline int line_record(SoloCtx *x, int n, uint32_t mv, const Solo *s) noexcept nogil:
    """Keep mv, the n-th move of a line found outside solo_search (guided_play), and s, the
    normalized position it leads to, where solo_line reads a winning line: kids[n] and
    kid_mv[n], as the current successor of frame n. 0 when memory runs out."""
    cdef KidFrame *grown_frames
    if not kids_reserve(x, n + 1):
        return 0
    while n >= x.kframes_cap:
        grown_frames = <KidFrame *>realloc(x.kframes, 2 * x.kframes_cap * sizeof(KidFrame))
        if grown_frames == NULL:
            return 0
        x.kframes = grown_frames
        x.kframes_cap *= 2
    x.kids[n].st = s[0]
    x.kid_mv[n] = mv
    x.kframes[n].first = n
    x.kframes[n].i = 1
    return 1

cdef inline int guided_play(SoloCtx *x, SoloCtx *relax, const Solo *root, int64_t *left) noexcept nogil:
    """The literal model (x, any redeal limit and priority), root won in the open pool (relax,
    the same deal as SOLO(∞, none)): play it out, guided by the open-pool search, and return
    the discards made, or -1 when the budget (*left nodes) runs out or the game loses its way
    (or, under a redeal limit, runs out of redeals). A win leaves its moves as x's winning line
    (path_length, path_kid: solo_line reads it). For SOLO(∞, none) the discards are an upper
    bound on D* (§9.2). At each
    position, in this order: the hand card to the first place (foundation, then houses) after
    which the position is still won in the open pool; else a stock or house card home, the
    same way; else a stock or house card laid on a house that gives the hand card such a place
    (guided_prep); else the next move of an open pool's winning line, if it is a single stock
    or house move the literal game allows; else discard. The line is searched when there is
    none and followed until one of the first three kinds of move is made: a discard leaves the
    open-pool position as it was, and searching again after a move of the line could undo it
    (the search may start with the way back) and go round in a circle. Every position met is
    won in the open pool, which is SOLO(∞, none) itself (F1), except perhaps after a move of a
    line the literal position has fallen behind (cards the open pool sends home by themselves
    wait here until they come up); the game ends in a win unless the budget runs out or it
    stalls (a full round of the hand with no move and no card home comes back to the same
    position: -1). It makes only moves x's model allows (solo_moves, solo_normalize: the
    forced plays of strict priority, the redeal limit), so a win is a proof that the deal is
    won in that model, and its discards bound D* from above."""
    cdef Solo s = root[0]
    cdef int n, j, src, steps, discards = 0, r, chosen, home, idle = 0, line_n = 0, line_i = 0
    cdef uint32_t mv = 0
    cdef uint32_t line[GUIDED_LINE_CAP]
    x.path_n = 0
    x.won = -1
    r = solo_normalize(x, &s)
    for steps in range(GUIDED_MAX_STEPS):
        if r == RES_WIN:
            x.path_n = steps
            return discards
        if r != RES_OPEN or left[0] <= 0 or idle > popcount64(s.pool):
            return -1
        n = solo_moves(x, &s, 0, x.scratch)
        chosen = 0
        for j in range(2 * n):            # the hand card's moves, then stock and house cards home
            mv = x.scratch[j % n]
            src = (mv >> 3) & 63
            if mv != S_DISCARD and (src == S_SRC_HAND if j < n else src != S_SRC_HAND and (mv & 7) == 0) \
                    and guided_move_wins(x, relax, &s, mv, left):
                chosen = 1
                break
        if not chosen:
            chosen = guided_prep(x, relax, &s, n, left, &mv)
        if chosen:
            line_n = line_i = 0           # the position has left the line
        else:
            if line_i >= line_n:
                if not guided_wins(relax, &s, left):
                    return -1
                line_n = min(path_length(relax), <int>GUIDED_LINE_CAP)
                for j in range(line_n):
                    line[j] = relax.kid_mv[path_kid(relax, j)]
                line_i = 0
            if line_i < line_n:
                src = (line[line_i] >> 3) & 63
                for j in range(n):
                    if x.scratch[j] == line[line_i] and src != S_SRC_HAND and src < S_SRC_POOL:
                        mv = line[line_i]
                        line_i += 1
                        chosen = 1
                        break
        home = s.found[0] + s.found[1] + s.found[2] + s.found[3]
        if chosen:
            idle = 0
        else:
            mv = S_DISCARD
            for j in range(n):
                if x.scratch[j] == S_DISCARD:
                    break
            else:
                return -1
            discards += 1
            idle += 1
        solo_apply(x, &s, mv)
        r = solo_normalize(x, &s)
        if not line_record(x, steps, mv, &s):
            return -1
        if s.found[0] + s.found[1] + s.found[2] + s.found[3] != home:
            idle = 0                      # a card went home by itself: the round starts again
    return -1

cdef inline int solo_decide(SoloCtx *x, SoloCtx *relax, const Solo *root, const Solo *relax_root) noexcept nogil:
    """Decide a deal in x's model; with relax (the same deal as SOLO(∞, none) in the open pool),
    search that first: every winning line under k redeals or strict priority is one under ∞ and
    none (§9.3 F3), so a loss there is a loss here, proven at the open pool's much smaller cost.
    When the relaxation is won and the search here runs out of budget, the game is played out
    with the open pool as its guide (guided_play, with the same budget): a legal game of this
    model, so a win there is a win here (its line is x's winning line). x.nodes counts every
    search."""
    cdef int r, won
    cdef int64_t nodes, left
    if relaxation_lost(x, relax, relax_root, &nodes, &won):
        return RES_LOSS
    r = solo_search(x, root)
    x.nodes += nodes
    if r == RES_UNRESOLVED and won:
        left = x.budget
        if guided_play(x, relax, root, &left) >= 0:
            r = RES_WIN
        x.nodes += x.budget - left
    return r

cdef inline int solo_tempo_bounds(SoloCtx *x, SoloCtx *relax, const Solo *root, const Solo *relax_root,
                                   int *low, int *high) noexcept nogil:
    """D* within [low, high]: with relax (the same deal as SOLO(∞, none) in the open pool, as in
    solo_decide), a loss there is a loss here (D* = ∞), and for SOLO(∞, none) itself a win there
    is a win here, whose line played in the literal model gives an upper bound
    (open_line_discards); then the layered search gives D* exactly or a lower bound (the layer
    it reached); if it runs out of budget, a depth-first search in the literal model with the
    same budget decides the deal (or finds a win with fewer discards than that line); from the
    better upper bound a branch and bound with the same budget looks for wins with fewer
    discards, down to the lower bound: finished, its best win is D* (high = -1: no win found).
    Returns the deal's outcome; x.nodes counts every search."""
    cdef int r, bound, won, guided, line = -1
    cdef int64_t nodes, left
    low[0] = high[0] = -1
    if relaxation_lost(x, relax, relax_root, &nodes, &won):
        return RES_LOSS
    if won and x.k == UNLIMITED and not x.strict:
        line = open_line_discards(relax, relax_root)
        left = x.budget
        guided = guided_play(x, relax, root, &left)
        nodes += x.budget - left
        if guided >= 0 and guided < line:
            line = guided
    r = solo_tempo(x, root)
    nodes += x.nodes
    low[0] = x.best
    high[0] = x.best if r == RES_WIN else -1
    if r == RES_UNRESOLVED:
        r = solo_search(x, root)
        nodes += x.nodes
        if line >= 0 and (r == RES_UNRESOLVED or (r == RES_WIN and line < x.best)):
            r = RES_WIN
            x.best = line
        if r == RES_WIN:
            high[0] = x.best
        if r == RES_WIN and high[0] > low[0]:
            x.discard_limit = high[0] - 1
            x.discard_floor = low[0]
            bound = solo_search(x, root)
            x.discard_limit = -1
            nodes += x.nodes
            if x.improved or bound == RES_WIN:
                # improved: the best win found below high; RES_WIN without it: the first win
                # found was at the floor itself (keep_kid ends the search there), so D* = low
                high[0] = x.best
            if bound != RES_UNRESOLVED:
                low[0] = high[0]
        elif r == RES_WIN:
            low[0] = high[0]              # the upper bound meets the layer reached: D* exact
    x.nodes = nodes
    return r
