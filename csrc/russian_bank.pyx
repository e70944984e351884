# Russian Bank (crapette) — the two-player rules engine, blind duel policies, and the SOLO solver.
#
# Rules card (shared/rules/russian_bank.md; defaults of §8):
#   Packs    two 52-card packs, one per player; ranks A 2 .. K (A low, no wrap), suits S H D C.
#   Deal     per player from his shuffled pack d[0..51]: STOCK = d[12] .. d[0] (top d[0], face up),
#            houses 4p+i = d[13+i], HAND = d[51] .. d[17] (top d[17]), WASTE empty; 8 foundations.
#   First    higher stock top starts; ties compare d[13], d[14], ... ; all equal -> player 0.
#            Options: lower, p0, p1, random.
#   Sources  own stock top, the current (turned-up) hand card, any house top; never own waste
#            (option own_waste_playable), never anything of the opponent's.
#   Targets  foundation (ace on an empty slot, then same suit one up), house (one lower, other
#            colour; any card on an empty house), loading: opponent's stock / waste top of the same
#            suit one rank up or down. One card per move (option sequence_moves: house runs).
#   Turn     the hand top is turned at the start of a turn and after each hand card played; DISCARD
#            puts it on the own waste and ends the turn; an empty hand is refilled by turning the
#            waste over (the card discarded first becomes the top), without limit by default.
#   Stops    strict foundation priority (any available foundation play must be made first) is
#            enforced by the move generator; stop_mode=call offers the non-compliant actions too and
#            lets the opponent call "stop" with probability p_detect.
#   End      a player with empty stock, hand and waste wins at once; draw after stall_turns turns
#            without progress (more foundation cards than ever, or fewer private cards than ever),
#            or at max_turns. Winner scores 30 + 2 x loser's stock + loser's hand and waste.
#
# Encoding: a card is its kind k = 13*suit + rank (rank 0 = ace .. 12 = king); the two copies of a
# kind are interchangeable for play, so the engine never tracks the pack a card came from. Piles are
# byte arrays bottom -> top. A move is src*16 + dst (+ 256*(run length-1) for sequence moves):
#   src 0 stock, 1 hand card, 2 own waste top, 3+h house h;  dst 0 foundation, 1+h house h,
#   9 opponent's stock, 10 opponent's waste;  actions DISCARD, PASS, TURN have their own codes.
#
# SOLO(k, pi) (§9-10): one pack, four houses, no opponent. Searched by depth-first search with an
# exact-key transposition table. Literal model: the hand and waste as one cyclic order of the
# hand cards (a pool mask over turning positions plus the position of the next card), valid for
# every k and pi. Open-pool model (F1, only SOLO(inf, none)): any pool card is available.
# Dominances: under strict, foundation plays are forced and commute (one pack), so they are played
# as a closure; under none, D1 safe foundation plays (rank <= 2 or both opposite-colour foundations
# at rank-1) are played without branching (option dominance=False turns this off for A/B checks).

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int64_t, int32_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, realloc, free, calloc

from bitboard cimport popcount64, lowest_bit64
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, rng_uniform, bitgen_pointer
from numpy.random cimport bitgen_t

cnp.import_array()

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

STRATEGIES = {"random": STRAT_RANDOM, "greedy": STRAT_GREEDY}
ACTION_DISCARD = ACT_DISCARD
ACTION_PASS = ACT_PASS
ACTION_TURN = ACT_TURN


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
    int best_found
    int best_private


cdef inline int suit_of(int k) noexcept nogil:
    return k // N_RANKS

cdef inline int rank_of(int k) noexcept nogil:
    return k % N_RANKS

cdef inline int red(int k) noexcept nogil:
    cdef int s = k // N_RANKS
    return s == 1 or s == 2

cdef inline int fits_house(int c, int top) noexcept nogil:
    return rank_of(c) + 1 == rank_of(top) and red(c) != red(top)

cdef inline int fits_load(int c, int top, int wrap) noexcept nogil:
    cdef int d
    if suit_of(c) != suit_of(top):
        return 0
    d = rank_of(c) - rank_of(top)
    if d == 1 or d == -1:
        return 1
    return wrap and (d == KING or d == -KING)


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

cdef int private_total(const Duel *g) noexcept nogil:
    return g.stock_n[0] + g.stock_n[1] + g.hand_n[0] + g.hand_n[1] + g.waste_n[0] + g.waste_n[1]

cdef int card_moves(const Duel *g, const Rules *r, int src, int c, int count, int *out, int n) noexcept nogil:
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

cdef int base_moves(const Duel *g, const Rules *r, int *out) noexcept nogil:
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

cdef int legal_actions(const Duel *g, const Rules *r, int *out, int compliant) noexcept nogil:
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

cdef void redeal(Duel *g, int p) noexcept nogil:
    cdef int i, n = g.waste_n[p]
    for i in range(n):
        g.hand[p][i] = g.waste[p][n - 1 - i]     # the first discard (waste bottom) becomes the top
    g.hand_n[p] = n
    g.waste_n[p] = 0
    g.redeals[p] += 1

cdef void refill_and_turn(Duel *g, const Rules *r, int p) noexcept nogil:
    if g.hand_n[p] == 0 and g.waste_n[p] > 0 and redeal_allowed(g, r, p):
        redeal(g, p)
    g.up[p] = g.hand_n[p] > 0

cdef void note_progress(Duel *g) noexcept nogil:
    cdef int priv = private_total(g)
    if g.found_total > g.best_found:
        g.best_found = g.found_total
        g.progress = 1
    if priv < g.best_private:
        g.best_private = priv
        g.progress = 1

cdef void end_turn(Duel *g, const Rules *r) noexcept nogil:
    g.turns += 1
    g.stall = 0 if g.progress else g.stall + 1
    g.progress = 0
    g.actions_in_turn = 0
    g.player = 1 - g.player
    if g.stall >= r.stall_turns:
        g.end = END_STALL
    elif g.turns >= r.max_turns:
        g.end = END_CAP
    if r.auto_turn:
        refill_and_turn(g, r, g.player)

cdef void apply_action(Duel *g, const Rules *r, int a) noexcept nogil:
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
        g.house_n[h] -= count
        for i in range(count):
            run[i] = g.house[h][g.house_n[h] + i]
    c = run[0]
    if dst == DST_FOUNDATION:
        slot = found_slot(g, c)
        g.found[suit_of(c)][slot] += 1
        g.found_total += 1
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
        for i in range(count):
            g.house[h][g.house_n[h] + i] = run[i]
        g.house_n[h] += count
    note_progress(g)
    if g.stock_n[p] == 0 and g.hand_n[p] == 0 and g.waste_n[p] == 0:
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


cdef void stop_called(Duel *g, const Rules *r) noexcept nogil:
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

cdef int compare_start(const uint8_t *d0, const uint8_t *d1, int stock_size) noexcept nogil:
    """+1 if pack 0's stock top (then its house cards in deal order) is higher, -1 if lower, 0 if
    all five comparisons tie."""
    cdef int i, a, b
    for i in range(HOUSES_PER_PLAYER + 1):
        a = rank_of(d0[0 if i == 0 else stock_size + i - 1])
        b = rank_of(d1[0 if i == 0 else stock_size + i - 1])
        if a != b:
            return 1 if a > b else -1
    return 0

cdef void deal_duel(Duel *g, const Rules *r, const uint8_t *d0, const uint8_t *d1, Rng *rng) noexcept nogil:
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

cdef void reset_bookkeeping(Duel *g, const Rules *r) noexcept nogil:
    cdef int s
    g.found_total = 0
    for s in range(4):
        g.found_total += g.found[s][0] + g.found[s][1]
    g.best_found = g.found_total
    g.best_private = private_total(g)
    g.end = END_NONE
    g.winner = -1
    if r.auto_turn:
        refill_and_turn(g, r, g.player)


# ---------------------------------------------------------------------------------------------
# Duel policies

cdef int greedy_choice(const Duel *g, const int *acts, int n) noexcept nogil:
    """Policy G1 of §10.6: foundation plays (stock, hand, lowest house), then the lowest class."""
    cdef int i, a, src, dst, best = -1, best_key = 1 << 30, key, cls, h, empties = 0, first_empty = -1
    cdef int p = g.player, discard = -1, passing = -1, turn = -1, src_rank
    for h in range(N_HOUSES):
        if g.house_n[h] == 0:
            empties += 1
            if first_empty < 0:
                first_empty = h
    for i in range(n):
        a = acts[i]
        if a == ACT_DISCARD:
            discard = i
            continue
        if a == ACT_PASS:
            passing = i
            continue
        if a == ACT_TURN:
            turn = i
            continue
        src = move_src(a)
        dst = move_dst(a)
        if dst == DST_FOUNDATION:
            src_rank = 0 if src == SRC_STOCK else (1 if src == SRC_HAND else 2 + src)
            key = src_rank
        else:
            if dst >= DST_HOUSE and dst < DST_HOUSE + N_HOUSES and g.house_n[dst - DST_HOUSE] == 0 \
                    and dst - DST_HOUSE != first_empty:
                continue                  # only the lowest-index empty house is offered
            cls = 0
            if src == SRC_STOCK:
                cls = 1 if dst >= DST_OPP_STOCK else 2
            elif src == SRC_HAND:
                if dst >= DST_OPP_STOCK:
                    cls = 3
                elif g.house_n[dst - DST_HOUSE] > 0:
                    cls = 4
                elif empties >= 2:
                    cls = 6
            elif src >= SRC_HOUSE and move_count(a) == 1 and g.house_n[src - SRC_HOUSE] == 1 \
                    and dst < DST_OPP_STOCK and g.house_n[dst - DST_HOUSE] > 0:
                cls = 5
            if cls == 0:
                continue
            key = 1000 * cls + dst
            key += 100
        if key < best_key:
            best_key = key
            best = i
    if best >= 0:
        return best
    if discard >= 0:
        return discard
    if turn >= 0:
        return turn
    if passing >= 0:
        return passing
    return 0

cdef int choose(const Duel *g, int strategy, const int *acts, int n, Rng *rng) noexcept nogil:
    if strategy == STRAT_GREEDY:
        return greedy_choice(g, acts, n)
    return <int>rng_below(rng, <uint32_t>n)


cdef int contains(const int *acts, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if acts[i] == a:
            return 1
    return 0

cdef int step(Duel *g, const Rules *r, const int *strategy, Rng *rng) noexcept nogil:
    """One decision of the player to move; returns the action taken (or -1 for a stop call)."""
    cdef int acts[MAX_MOVES]
    cdef int compliant[MAX_MOVES]
    cdef int n, nc, a
    n = legal_actions(g, r, acts, 0 if r.stop_call else 1)
    a = acts[choose(g, strategy[g.player], acts, n, rng)]
    if r.stop_call:
        nc = legal_actions(g, r, compliant, 1)
        if not contains(compliant, nc, a) and rng_uniform(rng) < r.p_detect:
            stop_called(g, r)
            return -1
    apply_action(g, r, a)
    return a

cdef void play_game(Duel *g, const Rules *r, const int *strategy, Rng *rng) noexcept nogil:
    while g.end == END_NONE:
        step(g, r, strategy, rng)


cdef inline int score_of(const Duel *g, const Rules *r) noexcept nogil:
    cdef int q
    if g.end != END_WIN:
        return 0
    q = 1 - g.winner
    return r.score_bonus + r.score_stock * g.stock_n[q] + r.score_hand_waste * (g.hand_n[q] + g.waste_n[q])


# ---------------------------------------------------------------------------------------------
# Rule options from the Python layer (already validated there)

cdef Rules make_rules(dict o) except *:
    cdef Rules r
    memset(&r, 0, sizeof(Rules))
    r.stock_size = o["stock_size"]
    r.auto_turn = o["auto_turn"]
    r.stock_before_hand = o["stock_before_hand"]
    r.strict = o["foundation_priority"] == "strict"
    r.stock_first = o["stock_first_to_foundation"]
    r.empty_house = {"any": EMPTY_ANY, "stock_only": EMPTY_STOCK_ONLY, "stock_forced": EMPTY_STOCK_FORCED}[o["empty_house_rule"]]
    r.sequence_moves = o["sequence_moves"]
    r.load_stock = "stock" in o["load_targets"]
    r.load_waste = "waste" in o["load_targets"]
    r.load_from_stock = "stock" in o["load_sources"]
    r.load_from_hand = "hand" in o["load_sources"]
    r.load_from_house = "house" in o["load_sources"]
    r.load_wrap = o["load_wrap"]
    r.own_waste_playable = o["own_waste_playable"]
    r.redeal_limit = UNLIMITED if o["redeal_limit"] is None else o["redeal_limit"]
    r.discard_policy = {"free": DISCARD_FREE, "hand_unplayable": DISCARD_HAND_UNPLAYABLE,
                        "no_own_card_move": DISCARD_NO_OWN_CARD_MOVE}[o["discard_policy"]]
    r.first_player = {"higher": FIRST_HIGHER, "lower": FIRST_LOWER, "p0": FIRST_P0, "p1": FIRST_P1,
                      "random": FIRST_RANDOM}[o["first_player"]]
    r.stop_call = o["stop_mode"] == "call"
    r.p_detect = o["p_detect"]
    r.stop_return = o["stop_hand_card"] == "return"
    r.stall_turns = o["stall_turns"]
    r.max_turns = o["max_turns"]
    r.max_actions = o["max_actions_per_turn"]
    r.score_bonus = o["score_bonus"]
    r.score_stock = o["score_per_stock"]
    r.score_hand_waste = o["score_per_hand_waste"]
    return r


cdef class DuelState:
    """One two-player position, for the single-position API and the tests. Piles are lists of card
    kinds bottom -> top; the Python layer validates everything before it gets here."""

    cdef Duel g
    cdef Rules r
    cdef object _rng_owner
    cdef Rng rng

    def __init__(self, dict rules, object bit_generator=None):
        self.r = make_rules(rules)
        memset(&self.g, 0, sizeof(Duel))
        self._rng_owner = bit_generator if bit_generator is not None else np.random.PCG64(0)
        rng_init(&self.rng, bitgen_pointer(self._rng_owner))

    def deal(self, pack0, pack1):
        """Deal the two shuffled packs (52 kinds each, top card first)."""
        cdef uint8_t d0[N_KINDS]
        cdef uint8_t d1[N_KINDS]
        for i in range(N_KINDS):
            d0[i] = pack0[i]
            d1[i] = pack1[i]
        deal_duel(&self.g, &self.r, d0, d1, &self.rng)

    def load(self, dict piles):
        """Set the position from piles: stock, hand, waste (pairs of lists), houses (8 lists),
        foundations (4 pairs of heights), player, up (pair of flags), redeals."""
        memset(&self.g, 0, sizeof(Duel))
        for p in range(2):
            for name, arr in (("stock", 0), ("hand", 1), ("waste", 2)):
                cards = piles[name][p]
                if len(cards) > PILE_CAP:
                    raise ValueError(f"{name} of player {p} is too long")
                for i, c in enumerate(cards):
                    if arr == 0:
                        self.g.stock[p][i] = c
                    elif arr == 1:
                        self.g.hand[p][i] = c
                    else:
                        self.g.waste[p][i] = c
            self.g.stock_n[p] = len(piles["stock"][p])
            self.g.hand_n[p] = len(piles["hand"][p])
            self.g.waste_n[p] = len(piles["waste"][p])
            self.g.up[p] = bool(piles["up"][p])
            self.g.redeals[p] = piles["redeals"][p]
        for h in range(N_HOUSES):
            for i, c in enumerate(piles["houses"][h]):
                self.g.house[h][i] = c
            self.g.house_n[h] = len(piles["houses"][h])
        for s in range(4):
            self.g.found[s][0] = piles["foundations"][s][0]
            self.g.found[s][1] = piles["foundations"][s][1]
        self.g.player = piles["player"]
        up = list(piles["up"])
        reset_bookkeeping(&self.g, &self.r)
        if not self.r.auto_turn:
            self.g.up[self.g.player] = up[self.g.player]

    def piles(self):
        g = &self.g
        return dict(
            stock=[[g.stock[p][i] for i in range(g.stock_n[p])] for p in range(2)],
            hand=[[g.hand[p][i] for i in range(g.hand_n[p])] for p in range(2)],
            waste=[[g.waste[p][i] for i in range(g.waste_n[p])] for p in range(2)],
            houses=[[g.house[h][i] for i in range(g.house_n[h])] for h in range(N_HOUSES)],
            foundations=[[g.found[s][0], g.found[s][1]] for s in range(4)],
            player=g.player, up=[bool(g.up[0]), bool(g.up[1])], redeals=[g.redeals[0], g.redeals[1]],
        )

    def status(self):
        g = &self.g
        return dict(end=("running", "win", "stall", "cap")[g.end], winner=g.winner, turns=g.turns,
                    actions=g.actions, stall=g.stall, loads=[g.loads[0], g.loads[1]],
                    score=score_of(g, &self.r))

    def legal(self, bint compliant=True):
        cdef int acts[MAX_MOVES]
        cdef int n = legal_actions(&self.g, &self.r, acts, compliant)
        return [acts[i] for i in range(n)]

    def apply(self, int action):
        if self.g.end != END_NONE:
            raise ValueError("the game is over")
        apply_action(&self.g, &self.r, action)

    def step(self, strategies):
        """Let the named strategies (per player) make one decision; returns the action (-1 = stop)."""
        cdef int strat[2]
        strat[0] = STRATEGIES[strategies[0]]
        strat[1] = STRATEGIES[strategies[1]]
        return step(&self.g, &self.r, strat, &self.rng)


# ---------------------------------------------------------------------------------------------
# Duel shard kernel

cdef enum:
    TURN_BINS = 1024
    SCORE_BINS = 200

def duel_shard(object deal_bitgen, object strategy_bitgen, int n_games, dict rules):
    """Play n_games random duels; counters add up across shards."""
    cdef Rules r = make_rules(rules)
    cdef int strat[2]
    cdef bitgen_t *bg_deal = bitgen_pointer(deal_bitgen)
    cdef bitgen_t *bg_strat = bitgen_pointer(strategy_bitgen)
    cdef Rng deal_rng, strat_rng
    cdef uint8_t packs[2][N_KINDS]
    cdef Duel *g = <Duel *>malloc(sizeof(Duel))
    cdef int i, j, first, seat, w
    outcome = np.zeros(4, dtype=np.int64)        # first wins, second wins, stall draws, capped draws
    turns_hist = np.zeros(TURN_BINS, dtype=np.int64)
    score_hist = np.zeros(SCORE_BINS, dtype=np.int64)
    by_player = np.zeros(2, dtype=np.int64)      # wins of pack 0 / pack 1
    first_is_p0 = np.zeros(1, dtype=np.int64)
    sums = np.zeros(4, dtype=np.int64)           # actions, loads, redeals, turns of decided games
    cdef int64_t[::1] out = outcome, th = turns_hist, sh = score_hist, bp = by_player, fp = first_is_p0, sm = sums
    strat[0] = STRATEGIES[rules["first_strategy"]]
    strat[1] = STRATEGIES[rules["second_strategy"]]
    cdef int seat_strat[2]
    if g == NULL:
        raise MemoryError()
    rng_init(&deal_rng, bg_deal)
    rng_init(&strat_rng, bg_strat)
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    try:
        with deal_bitgen.lock, strategy_bitgen.lock, nogil:
            for i in range(n_games):
                rng_partial_shuffle(&deal_rng, packs[0], N_KINDS, N_KINDS - 1)
                rng_partial_shuffle(&deal_rng, packs[1], N_KINDS, N_KINDS - 1)
                deal_duel(g, &r, packs[0], packs[1], &strat_rng)
                first = g.player
                seat_strat[first] = strat[0]
                seat_strat[1 - first] = strat[1]
                play_game(g, &r, seat_strat, &strat_rng)
                if first == 0:
                    fp[0] += 1
                sm[0] += g.actions
                sm[1] += g.loads[0] + g.loads[1]
                sm[2] += g.redeals[0] + g.redeals[1]
                if g.end == END_WIN:
                    seat = 0 if g.winner == first else 1
                    out[seat] += 1
                    bp[g.winner] += 1
                    th[g.turns if g.turns < TURN_BINS else TURN_BINS - 1] += 1
                    w = score_of(g, &r)
                    sh[w if w < SCORE_BINS else SCORE_BINS - 1] += 1
                    sm[3] += g.turns
                elif g.end == END_STALL:
                    out[2] += 1
                else:
                    out[3] += 1
    finally:
        free(g)
    return {"games": np.array([n_games], dtype=np.int64), "outcome": outcome, "turns_hist": turns_hist,
            "score_hist": score_hist, "wins_by_pack": by_player, "first_is_p0": first_is_p0, "sums": sums}


def deal_packs(object bit_generator):
    """Two packs (52 kinds each, top card first) shuffled with the shard's dealing helpers."""
    cdef Rng rng
    cdef uint8_t packs[2][N_KINDS]
    rng_init(&rng, bitgen_pointer(bit_generator))
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    with bit_generator.lock:
        rng_partial_shuffle(&rng, packs[0], N_KINDS, N_KINDS - 1)
        rng_partial_shuffle(&rng, packs[1], N_KINDS, N_KINDS - 1)
    return [packs[0][j] for j in range(N_KINDS)], [packs[1][j] for j in range(N_KINDS)]


def play_traced(pack0, pack1, dict rules, strategies, object strategy_bitgen):
    """Play one duel from the two packs and return (actions, final piles, status). Actions are
    (player, code) with code -1 for a stop call."""
    state = DuelState(rules, strategy_bitgen)
    state.deal(pack0, pack1)
    trace = []
    start = state.piles()
    while state.status()["end"] == "running":
        player = state.piles()["player"]
        trace.append((player, state.step(strategies)))
    return start, trace, state.piles(), state.status()


# ---------------------------------------------------------------------------------------------
# SOLO solver

cdef enum:
    SOLO_HOUSES = 4
    SOLO_MAX_MOVES = 1024
    S_SRC_STOCK = 0
    S_SRC_HAND = 1
    S_SRC_HOUSE = 2              # 2..5
    S_SRC_POOL = 8               # 8 + turning index (open-pool model)
    S_DISCARD = 1 << 30
    S_CHAIN_SHIFT = 9            # move = dst | src << 3 | chain length << 9 | suit choices << 13
    S_CHOICE_SHIFT = 13
    RES_LOSS = 0
    RES_WIN = 1
    RES_UNRESOLVED = 2
    RES_DEAD = 3
    RES_OPEN = 4
    TT_PROBES = 8
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

cdef struct Frame:
    Solo st
    int first                    # this frame's moves are movebuf[first .. first + nm)
    int nm
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
    int truncated                # a move list overflowed: a completed search is not a proof
    int tempo
    int64_t budget
    int64_t nodes
    int best                     # tempo: fewest discards of a win found so far
    TTEntry *tt
    uint64_t tt_mask
    uint32_t gen
    Frame *frames
    int frames_cap
    uint32_t *movebuf            # the move lists of all frames on the path, back to back
    int movebuf_cap
    uint32_t scratch[SOLO_MAX_MOVES]
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

cdef inline int d1_safe(const Solo *s, int c) noexcept nogil:
    cdef int rk = rank_of(c) + 1, a, b
    if rk <= 2:
        return 1
    if red(c):
        a = s.found[0]
        b = s.found[3]
    else:
        a = s.found[1]
        b = s.found[2]
    return a >= rk - 1 and b >= rk - 1

cdef int solo_normalize(const SoloCtx *x, Solo *s) noexcept nogil:
    """Redeal when the hand runs out, play forced/safe foundation moves, detect win and dead ends."""
    cdef int changed = 1, h, c, u, i
    cdef uint64_t m
    while changed:
        changed = 0
        if not x.open_pool and s.pool:
            u = solo_up(x, s)
            if u < 0:
                if x.k != UNLIMITED and s.redeals >= x.k:
                    return RES_DEAD        # the waste can never be played again
                s.pos = 0
                s.redeals += 1
                u = solo_up(x, s)
            s.pos = u
        if s.stock_n == 0 and s.pool == 0:
            return RES_WIN
        if not x.strict and not x.dominance:
            break
        if s.stock_n > 0:
            c = x.stock[s.stock_n - 1]
            if solo_fits_found(s, c) and (x.strict or d1_safe(s, c)):
                s.found[suit_of(c)] += 1
                s.stock_n -= 1
                changed = 1
                continue
        for h in range(SOLO_HOUSES):
            if s.house_n[h]:
                c = s.house[h][s.house_n[h] - 1]
                if solo_fits_found(s, c) and (x.strict or d1_safe(s, c)):
                    s.found[suit_of(c)] += 1
                    s.house_n[h] -= 1
                    changed = 1
        if changed:
            continue
        if x.open_pool:
            m = s.pool
            while m:
                i = lowest_bit64(m)
                m &= m - 1
                c = x.order[i]
                if solo_fits_found(s, c) and (x.strict or d1_safe(s, c)):
                    s.found[suit_of(c)] += 1
                    s.pool &= ~(<uint64_t>1 << i)
                    changed = 1
        elif s.pool:
            u = s.pos
            c = x.order[u]
            if solo_fits_found(s, c) and (x.strict or d1_safe(s, c)):
                s.found[suit_of(c)] += 1
                s.pool &= ~(<uint64_t>1 << u)
                s.pos = u + 1
                changed = 1
    return RES_OPEN

cdef int solo_card_moves(const Solo *s, int src, int c, int from_house, uint32_t *out, int n) noexcept nogil:
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
    return x.index_of[k] >= 0 and (s.pool >> x.index_of[k]) & 1

cdef int chain_moves(SoloCtx *x, const Solo *s, int src, int c, int h, int want, int level, int choices,
                     uint32_t *out, int n) noexcept nogil:
    """Append the moves laying pool cards on house h so that c (from src) lands on them: chains of
    exactly `want` cards, or of any length (want < 0, an empty house). Grows the chain upward
    from c one level at a time, so missing cards prune early."""
    cdef int bit
    if (want < 0 or level == want):
        if n >= SOLO_MAX_MOVES - 1:
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

cdef int d3_card_moves(SoloCtx *x, const Solo *s, int src, int c, int from_house, uint32_t *out, int n) noexcept nogil:
    """D3 moves of a non-pool card c: to its foundation over a same-suit pool run, onto a house
    over a chain of pool cards, onto one empty house (possibly over a chain)."""
    cdef int h, st = suit_of(c), top, m, j, empty = -1, rk = rank_of(c)
    m = rk - s.found[st]
    for j in range(m):
        top = st * N_RANKS + s.found[st] + j
        if not in_pool(x, s, top):
            m = -1
            break
    if m >= 0 and n < SOLO_MAX_MOVES - 1:
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

cdef int solo_moves(SoloCtx *x, const Solo *s, uint32_t *out) noexcept nogil:
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
    elif s.pool:
        n = solo_card_moves(s, S_SRC_HAND, x.order[s.pos], -1, out, n)
    for h in range(SOLO_HOUSES):
        if s.house_n[h]:
            n = solo_card_moves(s, S_SRC_HOUSE + h, s.house[h][s.house_n[h] - 1], h, out, n)
    if not x.open_pool and s.pool:
        out[n] = S_DISCARD
        n += 1
    return n

cdef void solo_apply(const SoloCtx *x, Solo *s, uint32_t mv) noexcept nogil:
    cdef int src, dst, c, h, m, j, k, choices
    if mv == S_DISCARD:
        s.pos += 1
        s.discards += 1
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
        s.pool &= ~(<uint64_t>1 << s.pos)
        s.pos += 1
    elif src >= S_SRC_POOL:
        c = x.order[src - S_SRC_POOL]
        s.pool &= ~(<uint64_t>1 << (src - S_SRC_POOL))
    else:
        h = src - S_SRC_HOUSE
        s.house_n[h] -= 1
        c = s.house[h][s.house_n[h]]
    if dst == 0:
        for j in range(m):                  # the same-suit pool run below c goes home first
            k = suit_of(c) * N_RANKS + s.found[suit_of(c)]
            s.pool &= ~(<uint64_t>1 << x.index_of[k])
            s.found[suit_of(c)] += 1
        s.found[suit_of(c)] += 1
    else:
        h = dst - 1
        for j in range(m, 0, -1):           # the pool chain that c lands on, highest card first
            k = chain_kind(c, j, choices)
            s.pool &= ~(<uint64_t>1 << x.index_of[k])
            s.house[h][s.house_n[h]] = k
            s.house_n[h] += 1
        s.house[h][s.house_n[h]] = c
        s.house_n[h] += 1

cdef inline uint64_t house_code(const Solo *s, int h) noexcept nogil:
    """22 bits: bottom kind + 1, length, and one suit-choice bit per card above the bottom."""
    cdef uint64_t code
    cdef int i, n = s.house_n[h]
    if n == 0:
        return 0
    code = <uint64_t>(s.house[h][0] + 1) | (<uint64_t>n << 6)
    for i in range(1, n):
        code |= <uint64_t>(suit_of(s.house[h][i]) == 0 or suit_of(s.house[h][i]) == 1) << (9 + i)
    return code

cdef void solo_key(const SoloCtx *x, const Solo *s, uint64_t *key) noexcept nogil:
    cdef uint64_t hc[4]
    cdef uint64_t t
    cdef int i, j
    for i in range(4):
        hc[i] = house_code(s, i)
    for i in range(1, 4):          # houses are interchangeable: sort their codes
        t = hc[i]
        j = i - 1
        while j >= 0 and hc[j] > t:
            hc[j + 1] = hc[j]
            j -= 1
        hc[j + 1] = t
    key[0] = s.pool | (<uint64_t>(s.pos if not x.open_pool else 0) << 52) | (<uint64_t>s.stock_n << 58)
    key[1] = hc[0] | (hc[1] << 22) | (<uint64_t>s.found[0] << 44) | (<uint64_t>s.found[1] << 48) \
        | (<uint64_t>s.found[2] << 52) | (<uint64_t>s.found[3] << 56)
    key[2] = hc[2] | (hc[3] << 22) | (<uint64_t>(s.redeals if x.k != UNLIMITED else 0) << 44)

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111eb
    return z ^ (z >> 31)

cdef int tt_visit(SoloCtx *x, const uint64_t *key, int cost) noexcept nogil:
    """1 if the position was seen before at a cost <= cost (prune); else record it and return 0."""
    cdef uint64_t hsh = mix64(key[0] ^ mix64(key[1] ^ mix64(key[2])))
    cdef uint64_t slot
    cdef int i
    cdef TTEntry *e
    for i in range(TT_PROBES):
        slot = (hsh + <uint64_t>i) & x.tt_mask
        e = &x.tt[slot]
        if e.gen != x.gen:
            break
        if e.k0 == key[0] and e.k1 == key[1] and e.k2 == key[2]:
            if e.cost <= cost:
                return 1
            e.cost = cost
            return 0
    else:
        slot = hsh & x.tt_mask       # table crowded: replace (costs re-search, never correctness)
        e = &x.tt[slot]
    e.k0 = key[0]
    e.k1 = key[1]
    e.k2 = key[2]
    e.gen = x.gen
    e.cost = cost
    return 0

cdef int push_moves(SoloCtx *x, Frame *f, int first) noexcept nogil:
    """Generate the moves of f's position into the shared move buffer from `first` on."""
    cdef int n = solo_moves(x, &f.st, x.scratch)
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

cdef int solo_search(SoloCtx *x, const Solo *root) noexcept nogil:
    """Depth-first search from root: RES_WIN, RES_LOSS or RES_UNRESOLVED (budget exhausted). In
    tempo mode it continues after a win and x.best ends as the fewest discards (exact when the
    search completes)."""
    cdef Frame *f
    cdef Frame *nf
    cdef Frame *grown
    cdef uint64_t key[3]
    cdef int depth, r, found_win = 0
    cdef uint32_t mv
    x.gen += 1
    x.truncated = 0
    x.nodes = 0
    x.best = 1 << 30
    x.max_depth = 0
    x.frames[0].st = root[0]
    r = solo_normalize(x, &x.frames[0].st)
    if r == RES_DEAD:
        return RES_LOSS
    if r == RES_WIN:
        x.best = x.frames[0].st.discards
        return RES_WIN
    solo_key(x, &x.frames[0].st, key)
    tt_visit(x, key, x.frames[0].st.discards)
    if not push_moves(x, &x.frames[0], 0):
        return RES_UNRESOLVED
    depth = 0
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
        if x.tempo and nf.st.discards >= x.best:
            continue
        r = solo_normalize(x, &nf.st)
        if r == RES_DEAD:
            continue
        if r == RES_WIN:
            if not x.tempo:
                return RES_WIN
            found_win = 1
            x.best = nf.st.discards
            continue
        solo_key(x, &nf.st, key)
        if tt_visit(x, key, nf.st.discards if x.tempo else 0):
            continue
        x.nodes += 1
        if x.nodes > x.budget:
            return RES_UNRESOLVED
        if not push_moves(x, nf, f.first + f.nm):
            return RES_UNRESOLVED
        depth += 1
        if depth > x.max_depth:
            x.max_depth = depth
    if found_win:
        return RES_WIN
    return RES_UNRESOLVED if x.truncated else RES_LOSS


cdef int ctx_init(SoloCtx *x, int tt_bits) noexcept nogil:
    memset(x, 0, sizeof(SoloCtx))
    x.tt = <TTEntry *>calloc(<size_t>1 << tt_bits, sizeof(TTEntry))
    x.tt_mask = (<uint64_t>1 << tt_bits) - 1
    x.frames_cap = 256
    x.frames = <Frame *>malloc(x.frames_cap * sizeof(Frame))
    x.movebuf_cap = 1 << 14
    x.movebuf = <uint32_t *>malloc(x.movebuf_cap * sizeof(uint32_t))
    return x.tt != NULL and x.frames != NULL and x.movebuf != NULL

cdef void ctx_free(SoloCtx *x) noexcept nogil:
    free(x.tt)
    free(x.frames)
    free(x.movebuf)

cdef void solo_deal(SoloCtx *x, Solo *s, const uint8_t *d) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(Solo))
    for i in range(DECK_STOCK):
        x.stock[i] = d[DECK_STOCK - 1 - i]
    s.stock_n = DECK_STOCK
    for i in range(SOLO_HOUSES):
        s.house[i][0] = d[DECK_STOCK + i]
        s.house_n[i] = 1
    x.order_n = N_KINDS - DECK_STOCK - SOLO_HOUSES
    for i in range(N_KINDS):
        x.index_of[i] = -1
    for i in range(x.order_n):
        x.order[i] = d[DECK_STOCK + SOLO_HOUSES + i]
        x.index_of[x.order[i]] = i
    s.pool = (<uint64_t>1 << x.order_n) - 1


cdef class SoloSolver:
    """The SOLO(k, pi) solver for one position at a time (tests, single-position API)."""

    cdef SoloCtx x
    cdef Solo root

    def __cinit__(self, int tt_bits=20):
        if not ctx_init(&self.x, tt_bits):
            ctx_free(&self.x)
            raise MemoryError("cannot allocate the transposition table")

    def __dealloc__(self):
        ctx_free(&self.x)

    def set_position(self, dict pos):
        """pos: stock (kinds bottom -> top), houses (4 lists), foundations (4 heights), order (the
        cyclic turning order: the waste bottom -> top, then the hand top -> bottom) and waste_n
        (how many cards at the start of the order are on the waste)."""
        memset(&self.root, 0, sizeof(Solo))
        stock = pos["stock"]
        for i, c in enumerate(stock):
            self.x.stock[i] = c
        self.root.stock_n = len(stock)
        for h in range(SOLO_HOUSES):
            for i, c in enumerate(pos["houses"][h]):
                self.root.house[h][i] = c
            self.root.house_n[h] = len(pos["houses"][h])
        for s in range(4):
            self.root.found[s] = pos["foundations"][s]
        order = pos["order"]
        self.x.order_n = len(order)
        for i in range(N_KINDS):
            self.x.index_of[i] = -1
        for i, c in enumerate(order):
            self.x.order[i] = c
            self.x.index_of[c] = i
        self.root.pool = (<uint64_t>1 << len(order)) - 1 if order else 0
        self.root.pos = pos["waste_n"]
        self.root.redeals = pos.get("redeals", 0)

    def deal(self, pack):
        cdef uint8_t d[N_KINDS]
        for i in range(N_KINDS):
            d[i] = pack[i]
        solo_deal(&self.x, &self.root, d)

    def solve(self, k=None, bint strict=False, bint open_pool=False, bint dominance=True,
              bint tempo=False, long long budget=1_000_000, bint d3=False):
        cdef int res
        self.x.k = UNLIMITED if k is None else k
        self.x.strict = strict
        self.x.open_pool = open_pool
        self.x.dominance = dominance
        self.x.d3 = d3
        self.x.tempo = tempo
        self.x.budget = budget
        with nogil:
            res = solo_search(&self.x, &self.root)
        return dict(outcome=("loss", "win", "unresolved")[res], nodes=self.x.nodes,
                    discards=(self.x.best if res == RES_WIN and tempo else None), max_depth=self.x.max_depth)


cdef enum:
    NODE_DECADES = 10

def solo_shard(object deal_bitgen, int n_deals, dict options):
    """Solve n_deals random SOLO layouts. options: k (None = unlimited), strict, open_pool,
    dominance, tempo, budget, tt_bits. Counters add up across shards."""
    cdef SoloCtx x
    cdef Solo root
    cdef Rng rng
    cdef uint8_t pack[N_KINDS]
    cdef int i, res, dec
    cdef int64_t nodes
    cdef bitgen_t *bg = bitgen_pointer(deal_bitgen)
    outcome = np.zeros(3, dtype=np.int64)                      # win, loss, unresolved
    nodes_hist = np.zeros((3, NODE_DECADES), dtype=np.int64)   # by outcome, decade of nodes
    tempo_hist = np.zeros(N_KINDS * 8, dtype=np.int64)         # D* of won deals (tempo mode)
    node_sum = np.zeros(2, dtype=np.int64)                     # nodes, max depth sum
    cdef int64_t[::1] out = outcome, tph = tempo_hist, ns = node_sum
    cdef int64_t[:, ::1] nh = nodes_hist
    if not ctx_init(&x, options.get("tt_bits", 20)):
        ctx_free(&x)
        raise MemoryError("cannot allocate the transposition table")
    x.k = UNLIMITED if options["k"] is None else options["k"]
    x.strict = options["strict"]
    x.open_pool = options["open_pool"]
    x.dominance = options["dominance"]
    x.d3 = options["d3"]
    x.tempo = options["tempo"]
    x.budget = options["budget"]
    rng_init(&rng, bg)
    for i in range(N_KINDS):
        pack[i] = i
    try:
        with deal_bitgen.lock, nogil:
            for i in range(n_deals):
                rng_partial_shuffle(&rng, pack, N_KINDS, N_KINDS - 1)
                solo_deal(&x, &root, pack)
                res = solo_search(&x, &root)
                if res == RES_WIN:
                    out[0] += 1
                    if x.tempo:
                        tph[x.best if x.best < N_KINDS * 8 else N_KINDS * 8 - 1] += 1
                elif res == RES_LOSS:
                    out[1] += 1
                else:
                    out[2] += 1
                nodes = x.nodes
                dec = 0
                while nodes >= 10 and dec < NODE_DECADES - 1:
                    nodes //= 10
                    dec += 1
                nh[(0 if res == RES_WIN else (1 if res == RES_LOSS else 2)), dec] += 1
                ns[0] += x.nodes
                ns[1] += x.max_depth
    finally:
        ctx_free(&x)
    return {"deals": np.array([n_deals], dtype=np.int64), "outcome": outcome, "nodes_hist": nodes_hist,
            "tempo_hist": tempo_hist, "node_sum": node_sum}
