# Russian Bank rules as numbers (shared/rules/russian_bank.md §2-7): card kinds, the duel position,
# rule options, legal actions with the priority rules, applying an action, dealing and the start.
# Header-style: everything is inline; russian_bank.pyx holds the shard kernels.

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t, int32_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, realloc, free, calloc

from bitboard cimport popcount64, lowest_bit64
from rng cimport Rng, rng_below, rng_uniform

cdef enum:
    N_KINDS = 52
    N_RANKS = 13
    KING = 12
    N_HOUSES = 8
    HOUSES_PER_PLAYER = 4
    HOUSE_CAP = 13              # a house is a descending run: at most K .. A
    PILE_CAP = 112              # a private pile never holds more than the 104 cards
    DECK_STOCK = 13             # default stock size
    MAX_MOVES = 1024
    NO_CARD = 52                # the top of an empty house in Duel.top (no card table has bits for it)

cdef enum:  # sources
    SRC_STOCK = 0
    SRC_HAND = 1
    SRC_WASTE = 2
    SRC_HOUSE = 3

cdef enum:  # destinations
    DST_FOUNDATION = 0
    DST_HOUSE = 1
    DST_OPP_STOCK = 9
    DST_OPP_WASTE = 10

cdef enum:  # actions that are not card moves
    ACT_DISCARD = 8192
    ACT_PASS = 8193
    ACT_TURN = 8194

cdef enum:  # option values
    EMPTY_ANY = 0
    EMPTY_STOCK_ONLY = 1
    EMPTY_STOCK_FORCED = 2
    DISCARD_FREE = 0
    DISCARD_HAND_UNPLAYABLE = 1
    DISCARD_NO_OWN_CARD_MOVE = 2
    FIRST_HIGHER = 0
    FIRST_LOWER = 1
    FIRST_P0 = 2
    FIRST_P1 = 3
    FIRST_RANDOM = 4
    UNLIMITED = -1

cdef enum:  # game end
    END_NONE = 0
    END_WIN = 1
    END_STALL = 2
    END_CAP = 3

cdef enum:  # duel strategies
    STRAT_RANDOM = 0
    STRAT_GREEDY = 1
    STRAT_LOOKAHEAD = 2



cdef struct Rules:
    int stock_size
    int auto_turn
    int stock_before_hand
    int strict
    int stock_first
    int empty_house
    int sequence_moves
    int load_stock
    int load_waste
    int load_from_stock
    int load_from_hand
    int load_from_house
    int load_wrap
    int own_waste_playable
    int redeal_limit
    int discard_policy
    int first_player
    int stop_call
    double p_detect
    int stop_return
    int stall_turns
    int max_turns
    int max_actions
    int score_bonus
    int score_stock
    int score_hand_waste


cdef struct Duel:
    uint8_t stock[2][PILE_CAP]
    uint8_t hand[2][PILE_CAP]
    uint8_t waste[2][PILE_CAP]
    int stock_n[2]
    int hand_n[2]
    int waste_n[2]
    uint8_t house[N_HOUSES][HOUSE_CAP]
    int house_n[N_HOUSES]
    uint8_t found[4][2]          # pile heights per suit (two aces per suit in two packs)
    int player
    int up[2]                    # the hand top of that player is turned up
    int redeals[2]
    int loads[2]
    int end                      # END_*
    int winner
    int turns
    int actions
    int actions_in_turn
    int stall
    int progress                 # a progress event happened in the current turn
    int found_total
    uint64_t found_next          # the kinds some foundation pile takes now (kept by apply_action)
    uint64_t house_tops          # the kinds on top of some house (kept by apply_action, note_houses)
    uint64_t house_tops2         # the kinds on top of two houses (two packs)
    uint32_t empty_houses        # bit h: house h is empty
    uint32_t single_houses       # bit h: house h holds one card
    uint8_t top[N_HOUSES]        # each house's top kind, NO_CARD if empty (kept like the above)
    int best_found
    int best_private


cdef inline int suit_of(int k) noexcept nogil:
    return k // N_RANKS

cdef inline int rank_of(int k) noexcept nogil:
    return k % N_RANKS

cdef inline int red(int k) noexcept nogil:
    cdef int s = k // N_RANKS
    return s == 1 or s == 2

cdef inline int fits_house_slow(int c, int top) noexcept nogil:
    return rank_of(c) + 1 == rank_of(top) and red(c) != red(top)

cdef inline int fits_load_slow(int c, int top, int wrap) noexcept nogil:
    cdef int d
    if suit_of(c) != suit_of(top):
        return 0
    d = rank_of(c) - rank_of(top)
    if d == 1 or d == -1:
        return 1
    return wrap and (d == KING or d == -KING)

# Card tables, filled once by build_card_tables() when the module loads (C statics of the one
# generated C file: a .pxd cannot hold Python-level initialisers).
cdef extern from *:
    """
    static uint64_t rb_fitting[53], rb_loading[2][52];
    """
    uint64_t FITTING "rb_fitting"[53]       # per kind (and NO_CARD: none): the kinds that go on it in a house
    uint64_t LOADING "rb_loading"[2][52]    # per load_wrap and kind: the kinds that may be loaded on it

cdef inline void build_card_tables() noexcept nogil:
    cdef int top, c, wrap
    FITTING[NO_CARD] = 0
    for top in range(N_KINDS):
        FITTING[top] = 0
        LOADING[0][top] = 0
        LOADING[1][top] = 0
        for c in range(N_KINDS):
            if fits_house_slow(c, top):
                FITTING[top] |= <uint64_t>1 << c
            for wrap in range(2):
                if fits_load_slow(c, top, wrap):
                    LOADING[wrap][top] |= <uint64_t>1 << c

cdef inline int fits_house(int c, int top) noexcept nogil:
    """c may go on a house showing top (one rank lower, the other colour)."""
    return (FITTING[top] >> c) & 1

cdef inline int fits_load(int c, int top, int wrap) noexcept nogil:
    """c may be loaded on an opponent's pile showing top (same suit, one rank up or down)."""
    return (LOADING[wrap][top] >> c) & 1

cdef inline uint64_t suit_ranks(uint64_t m, int st) noexcept nogil:
    return (m >> (st * N_RANKS)) & ((<uint64_t>1 << N_RANKS) - 1)

cdef inline uint64_t children_of(uint64_t tops) noexcept nogil:
    """The kinds that fit on a house top in `tops` (one rank lower, other colour): the union of
    FITTING over the set, by lane shifts."""
    cdef uint64_t black = (suit_ranks(tops, 0) | suit_ranks(tops, 3)) >> 1
    cdef uint64_t redr = (suit_ranks(tops, 1) | suit_ranks(tops, 2)) >> 1
    return redr | (black << N_RANKS) | (black << (2 * N_RANKS)) | (redr << (3 * N_RANKS))


# ---------------------------------------------------------------------------------------------
# Duel: move generation

cdef inline int redeal_allowed(const Duel *g, const Rules *r, int p) noexcept nogil:
    return r.redeal_limit == UNLIMITED or g.redeals[p] < r.redeal_limit

cdef inline int found_slot(const Duel *g, int c) noexcept nogil:
    """The foundation pile of c's suit that takes c, or -1."""
    cdef int s = suit_of(c), rk = rank_of(c)
    if g.found[s][0] == rk:
        return 0
    if g.found[s][1] == rk:
        return 1
    return -1

cdef inline uint64_t foundation_wants(const Duel *g) noexcept nogil:
    """The kinds some foundation pile takes now."""
    cdef uint64_t m = 0
    cdef int s, i
    for s in range(4):
        for i in range(2):
            if g.found[s][i] < N_RANKS:
                m |= <uint64_t>1 << (s * N_RANKS + g.found[s][i])
    return m

cdef inline int house_top(const Duel *g, int h) noexcept nogil:
    """The top card of a non-empty house."""
    return g.top[h]

cdef inline uint32_t houses_topped_by(const Duel *g, uint64_t kinds) noexcept nogil:
    """The houses whose top is one of kinds (bit h = house h; never an empty house), without a branch."""
    cdef uint32_t m = 0
    cdef int h
    for h in range(N_HOUSES):
        m |= <uint32_t>((kinds >> g.top[h]) & 1) << h
    return m

cdef inline uint64_t single_tops(const Duel *g) noexcept nogil:
    """The kinds of the cards alone in a house, without a branch (an empty house's top is NO_CARD,
    but its single_houses bit is 0)."""
    cdef uint64_t m = 0
    cdef int h
    for h in range(N_HOUSES):
        m |= <uint64_t>((g.single_houses >> h) & 1) << g.top[h]
    return m

cdef inline uint32_t houses_taking(const Duel *g, int c) noexcept nogil:
    """The non-empty houses whose top takes card c, without a branch."""
    cdef uint32_t m = 0
    cdef int h
    for h in range(N_HOUSES):
        m |= <uint32_t>((FITTING[g.top[h]] >> c) & 1) << h
    return m

cdef inline void top_added(Duel *g, int c) noexcept nogil:
    """c became the top of a house (with two packs the same kind may top two houses)."""
    cdef uint64_t b = <uint64_t>1 << c
    if g.house_tops & b:
        g.house_tops2 |= b
    g.house_tops |= b

cdef inline void top_removed(Duel *g, int c) noexcept nogil:
    """c stopped being the top of a house."""
    cdef uint64_t b = <uint64_t>1 << c
    if g.house_tops2 & b:
        g.house_tops2 &= ~b
    else:
        g.house_tops &= ~b

cdef inline void house_size_changed(Duel *g, int h) noexcept nogil:
    """Update house h's top and its bits in empty_houses and single_houses."""
    cdef uint32_t b = 1u << h
    g.top[h] = g.house[h][g.house_n[h] - 1] if g.house_n[h] > 0 else NO_CARD
    g.empty_houses = (g.empty_houses & ~b) | (b if g.house_n[h] == 0 else 0)
    g.single_houses = (g.single_houses & ~b) | (b if g.house_n[h] == 1 else 0)

cdef inline void note_houses(Duel *g) noexcept nogil:
    """Compute the house summaries (house_tops, house_tops2, empty_houses, single_houses) afresh."""
    cdef int h
    g.house_tops = g.house_tops2 = 0
    g.empty_houses = g.single_houses = 0
    for h in range(N_HOUSES):
        house_size_changed(g, h)
        if g.house_n[h] > 0:
            top_added(g, house_top(g, h))

cdef inline int private_total(const Duel *g) noexcept nogil:
    return g.stock_n[0] + g.stock_n[1] + g.hand_n[0] + g.hand_n[1] + g.waste_n[0] + g.waste_n[1]

cdef inline int card_moves(const Duel *g, const Rules *r, int src, int c, int count, int *out, int n) noexcept nogil:
    """Append the moves of card c (the bottom of a run of `count` cards when count > 1) from src."""
    cdef int p = g.player, q = 1 - g.player, h, from_house = -1, loadable
    if src >= SRC_HOUSE:
        from_house = src - SRC_HOUSE
    if count == 1 and found_slot(g, c) >= 0:
        out[n] = src * 16 + DST_FOUNDATION
        n += 1
    for h in range(N_HOUSES):
        if h == from_house:
            continue
        if g.house_n[h] == 0:
            if r.empty_house != EMPTY_ANY and g.stock_n[p] > 0 and src != SRC_STOCK:
                continue
            if count > 1 and count == g.house_n[from_house]:
                continue            # moving a whole house onto an empty one changes nothing
        elif not fits_house(c, g.house[h][g.house_n[h] - 1]):
            continue
        out[n] = (count - 1) * 256 + src * 16 + DST_HOUSE + h
        n += 1
    if count > 1:
        return n
    loadable = ((src == SRC_STOCK and r.load_from_stock) or (src == SRC_HAND and r.load_from_hand)
                or (src >= SRC_HOUSE and r.load_from_house) or (src == SRC_WASTE and r.load_from_hand))
    if loadable:
        if r.load_stock and g.stock_n[q] > 0 and fits_load(c, g.stock[q][g.stock_n[q] - 1], r.load_wrap):
            out[n] = src * 16 + DST_OPP_STOCK
            n += 1
        if r.load_waste and g.waste_n[q] > 0 and fits_load(c, g.waste[q][g.waste_n[q] - 1], r.load_wrap):
            out[n] = src * 16 + DST_OPP_WASTE
            n += 1
    return n

cdef inline int base_moves(const Duel *g, const Rules *r, int *out) noexcept nogil:
    """Every MOVE of section 4 for the player to move (no priority filter)."""
    cdef int p = g.player, n = 0, h, count
    if g.stock_n[p] > 0:
        n = card_moves(g, r, SRC_STOCK, g.stock[p][g.stock_n[p] - 1], 1, out, n)
    if g.up[p] and g.hand_n[p] > 0:
        n = card_moves(g, r, SRC_HAND, g.hand[p][g.hand_n[p] - 1], 1, out, n)
    if r.own_waste_playable and g.waste_n[p] > 0:
        n = card_moves(g, r, SRC_WASTE, g.waste[p][g.waste_n[p] - 1], 1, out, n)
    for h in range(N_HOUSES):
        if g.house_n[h] > 0:
            n = card_moves(g, r, SRC_HOUSE + h, g.house[h][g.house_n[h] - 1], 1, out, n)
            if r.sequence_moves:
                for count in range(2, g.house_n[h] + 1):
                    n = card_moves(g, r, SRC_HOUSE + h, g.house[h][g.house_n[h] - count], count, out, n)
    return n

cdef inline int move_src(int m) noexcept nogil:
    return (m % 256) // 16

cdef inline int move_dst(int m) noexcept nogil:
    return m % 16

cdef inline int move_count(int m) noexcept nogil:
    return m // 256 + 1

cdef inline int legal_actions(const Duel *g, const Rules *r, int *out, int compliant) noexcept nogil:
    """The legal actions of the player to move. compliant=0 skips the priority rules of section 6
    (the actions a fallible player may try under stop_mode=call)."""
    cdef int moves[MAX_MOVES]
    cdef int n = base_moves(g, r, moves), i, m = 0, p = g.player, nf = 0, stock_f = 0
    cdef int hand_has = 0, stock_has = 0, empty_house = 0, h, can_discard
    for i in range(n):
        if move_dst(moves[i]) == DST_FOUNDATION:
            nf += 1
            if move_src(moves[i]) == SRC_STOCK:
                stock_f = 1
        if move_src(moves[i]) == SRC_HAND:
            hand_has = 1
        elif move_src(moves[i]) == SRC_STOCK:
            stock_has = 1
    if compliant and r.strict and nf > 0:
        for i in range(n):
            if move_dst(moves[i]) == DST_FOUNDATION and (not r.stock_first or not stock_f
                                                        or move_src(moves[i]) == SRC_STOCK):
                out[m] = moves[i]
                m += 1
        return m
    for h in range(N_HOUSES):
        if g.house_n[h] == 0:
            empty_house = 1
    if compliant and r.empty_house == EMPTY_STOCK_FORCED and empty_house and g.stock_n[p] > 0:
        for i in range(n):
            if move_dst(moves[i]) == DST_FOUNDATION or (
                    move_src(moves[i]) == SRC_STOCK and move_dst(moves[i]) >= DST_HOUSE
                    and move_dst(moves[i]) < DST_HOUSE + N_HOUSES
                    and g.house_n[move_dst(moves[i]) - DST_HOUSE] == 0):
                out[m] = moves[i]
                m += 1
        return m
    for i in range(n):
        out[m] = moves[i]
        m += 1
    if g.up[p] and g.hand_n[p] > 0:
        can_discard = 1
        if compliant and r.discard_policy == DISCARD_HAND_UNPLAYABLE:
            can_discard = not hand_has
        elif compliant and r.discard_policy == DISCARD_NO_OWN_CARD_MOVE:
            can_discard = not hand_has and not stock_has
        if can_discard:
            out[m] = ACT_DISCARD
            m += 1
    elif not r.auto_turn and (g.hand_n[p] > 0 or (g.waste_n[p] > 0 and redeal_allowed(g, r, p))):
        if not (compliant and r.stock_before_hand and stock_has):
            out[m] = ACT_TURN
            m += 1
    else:
        out[m] = ACT_PASS
        m += 1
    return m


# ---------------------------------------------------------------------------------------------
# Duel: applying actions

cdef inline void redeal(Duel *g, int p) noexcept nogil:
    cdef int i, n = g.waste_n[p]
    for i in range(n):
        g.hand[p][i] = g.waste[p][n - 1 - i]     # the first discard (waste bottom) becomes the top
    g.hand_n[p] = n
    g.waste_n[p] = 0
    g.redeals[p] += 1

cdef inline void refill_and_turn(Duel *g, const Rules *r, int p) noexcept nogil:
    if g.hand_n[p] == 0 and g.waste_n[p] > 0 and redeal_allowed(g, r, p):
        redeal(g, p)
    g.up[p] = g.hand_n[p] > 0

cdef inline void note_progress(Duel *g) noexcept nogil:
    # (without branches: whether a move makes progress is hard to predict)
    cdef int priv = private_total(g)
    g.progress |= (g.found_total > g.best_found) | (priv < g.best_private)
    g.best_found = g.found_total if g.found_total > g.best_found else g.best_found
    g.best_private = priv if priv < g.best_private else g.best_private

cdef inline void end_turn(Duel *g, const Rules *r) noexcept nogil:
    g.turns += 1
    g.stall = (g.stall + 1) * (not g.progress)     # reset on progress, without a branch
    g.progress = 0
    g.actions_in_turn = 0
    g.player = 1 - g.player
    if g.stall >= r.stall_turns:
        g.end = END_STALL
    elif g.turns >= r.max_turns:
        g.end = END_CAP
    if r.auto_turn:
        refill_and_turn(g, r, g.player)

cdef inline void apply_action(Duel *g, const Rules *r, int a) noexcept nogil:
    """Apply a legal action (the caller checks legality)."""
    cdef int p = g.player, q = 1 - g.player, src, dst, count, i, c, slot, h
    cdef uint8_t run[HOUSE_CAP]
    g.actions += 1
    g.actions_in_turn += 1
    if a == ACT_DISCARD:
        g.waste[p][g.waste_n[p]] = g.hand[p][g.hand_n[p] - 1]
        g.waste_n[p] += 1
        g.hand_n[p] -= 1
        g.up[p] = 0
        end_turn(g, r)
        return
    if a == ACT_PASS:
        end_turn(g, r)
        return
    if a == ACT_TURN:
        refill_and_turn(g, r, p)
        return
    src = move_src(a)
    dst = move_dst(a)
    count = move_count(a)
    if src == SRC_STOCK:
        g.stock_n[p] -= 1
        run[0] = g.stock[p][g.stock_n[p]]
    elif src == SRC_HAND:
        g.hand_n[p] -= 1
        run[0] = g.hand[p][g.hand_n[p]]
        g.up[p] = 0
    elif src == SRC_WASTE:
        g.waste_n[p] -= 1
        run[0] = g.waste[p][g.waste_n[p]]
    else:
        h = src - SRC_HOUSE
        top_removed(g, house_top(g, h))
        g.house_n[h] -= count
        for i in range(count):
            run[i] = g.house[h][g.house_n[h] + i]
        house_size_changed(g, h)
        if g.house_n[h] > 0:
            top_added(g, house_top(g, h))
    c = run[0]
    if dst == DST_FOUNDATION:
        # without branches: the first of the suit's two piles that takes c (the move is legal), c
        # stays wanted if the other pile takes it too, and the next card of the suit is wanted
        slot = g.found[suit_of(c)][0] != rank_of(c)
        g.found[suit_of(c)][slot] += 1
        g.found_total += 1
        g.found_next &= ~(<uint64_t>(g.found[suit_of(c)][1 - slot] != rank_of(c)) << c)
        g.found_next |= <uint64_t>(rank_of(c) < KING) << (c + 1)
    elif dst == DST_OPP_STOCK:
        g.stock[q][g.stock_n[q]] = c
        g.stock_n[q] += 1
        g.loads[p] += 1
    elif dst == DST_OPP_WASTE:
        g.waste[q][g.waste_n[q]] = c
        g.waste_n[q] += 1
        g.loads[p] += 1
    else:
        h = dst - DST_HOUSE
        if g.house_n[h] > 0:
            top_removed(g, house_top(g, h))
        for i in range(count):
            g.house[h][g.house_n[h] + i] = run[i]
        g.house_n[h] += count
        top_added(g, run[count - 1])
        house_size_changed(g, h)
    note_progress(g)
    if (g.stock_n[p] | g.hand_n[p] | g.waste_n[p]) == 0:      # one branch, rarely taken
        g.end = END_WIN
        g.winner = p
        return
    if src == SRC_HAND and r.auto_turn:
        refill_and_turn(g, r, p)
    if g.actions_in_turn >= r.max_actions:
        if g.up[p] and g.hand_n[p] > 0:
            apply_action(g, r, ACT_DISCARD)
        else:
            end_turn(g, r)


cdef inline void stop_called(Duel *g, const Rules *r) noexcept nogil:
    """The opponent called stop on a non-compliant action: it is not made and the turn ends."""
    cdef int p = g.player
    g.actions += 1
    if g.up[p] and g.hand_n[p] > 0:
        if r.stop_return:
            g.up[p] = 0
        else:
            g.waste[p][g.waste_n[p]] = g.hand[p][g.hand_n[p] - 1]
            g.waste_n[p] += 1
            g.hand_n[p] -= 1
            g.up[p] = 0
    end_turn(g, r)


# ---------------------------------------------------------------------------------------------
# Duel: dealing and starting

cdef inline int compare_start(const uint8_t *d0, const uint8_t *d1, int stock_size) noexcept nogil:
    """+1 if pack 0's stock top (then its house cards in deal order) is higher, -1 if lower, 0 if
    all five comparisons tie."""
    cdef int i, a, b
    for i in range(HOUSES_PER_PLAYER + 1):
        a = rank_of(d0[0 if i == 0 else stock_size + i - 1])
        b = rank_of(d1[0 if i == 0 else stock_size + i - 1])
        if a != b:
            return 1 if a > b else -1
    return 0

cdef inline void deal_duel(Duel *g, const Rules *r, const uint8_t *d0, const uint8_t *d1, Rng *rng) noexcept nogil:
    cdef const uint8_t *d
    cdef int p, i, cmp, ns = r.stock_size
    memset(g, 0, sizeof(Duel))
    for p in range(2):
        d = d0 if p == 0 else d1
        for i in range(ns):
            g.stock[p][i] = d[ns - 1 - i]
        g.stock_n[p] = ns
        for i in range(HOUSES_PER_PLAYER):
            g.house[HOUSES_PER_PLAYER * p + i][0] = d[ns + i]
            g.house_n[HOUSES_PER_PLAYER * p + i] = 1
        g.hand_n[p] = N_KINDS - ns - HOUSES_PER_PLAYER
        for i in range(g.hand_n[p]):
            g.hand[p][i] = d[N_KINDS - 1 - i]
    cmp = compare_start(d0, d1, ns)
    if r.first_player == FIRST_HIGHER:
        g.player = 1 if cmp < 0 else 0
    elif r.first_player == FIRST_LOWER:
        g.player = 1 if cmp > 0 else 0
    elif r.first_player == FIRST_P1:
        g.player = 1
    elif r.first_player == FIRST_RANDOM:
        g.player = <int>rng_below(rng, 2)
    else:
        g.player = 0
    reset_bookkeeping(g, r)

cdef inline void reset_bookkeeping(Duel *g, const Rules *r) noexcept nogil:
    cdef int s
    g.found_total = 0
    for s in range(4):
        g.found_total += g.found[s][0] + g.found[s][1]
    g.best_found = g.found_total
    g.found_next = foundation_wants(g)
    note_houses(g)
    g.best_private = private_total(g)
    g.end = END_NONE
    g.winner = -1
    if r.auto_turn:
        refill_and_turn(g, r, g.player)
