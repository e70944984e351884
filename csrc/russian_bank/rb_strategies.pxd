# Russian Bank duel policies (§10.6): G1 "greedy" and uniform "random", one decision step with the
# stop call of stop_mode=call, and a whole game.

from rng cimport Rng, rng_below, rng_uniform
from rb_rules cimport *

# ---------------------------------------------------------------------------------------------
# Duel policies

cdef inline int greedy_choice(const Duel *g, const int *acts, int n) noexcept nogil:
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

cdef inline int choose(const Duel *g, int strategy, const int *acts, int n, Rng *rng) noexcept nogil:
    if strategy == STRAT_GREEDY:
        return greedy_choice(g, acts, n)
    return <int>rng_below(rng, <uint32_t>n)


cdef inline int contains(const int *acts, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if acts[i] == a:
            return 1
    return 0

cdef inline int step_seats(Duel *g, const Rules *r, const int *strategy, Rng *rng0, Rng *rng1) noexcept nogil:
    """One decision of the player to move; returns the action taken (or -1 for a stop call).
    rng0 / rng1 feed the player of pack 0 / pack 1: the mover's stream chooses his action, and
    under stop_mode=call the opponent's stream decides whether he notices a non-compliant one."""
    cdef int acts[MAX_MOVES]
    cdef int compliant[MAX_MOVES]
    cdef int n, nc, a
    cdef Rng *mover = rng0 if g.player == 0 else rng1
    cdef Rng *watcher = rng1 if g.player == 0 else rng0
    n = legal_actions(g, r, acts, 0 if r.stop_call else 1)
    a = acts[choose(g, strategy[g.player], acts, n, mover)]
    if r.stop_call:
        nc = legal_actions(g, r, compliant, 1)
        if not contains(compliant, nc, a) and rng_uniform(watcher) < r.p_detect:
            stop_called(g, r)
            return -1
    apply_action(g, r, a)
    return a

cdef inline int step(Duel *g, const Rules *r, const int *strategy, Rng *rng) noexcept nogil:
    """One decision with a single stream for both players (the duel analysis, the game API)."""
    return step_seats(g, r, strategy, rng, rng)

cdef inline void play_game_seats(Duel *g, const Rules *r, const int *strategy, Rng *rng0, Rng *rng1) noexcept nogil:
    while g.end == END_NONE:
        step_seats(g, r, strategy, rng0, rng1)

cdef inline void play_game(Duel *g, const Rules *r, const int *strategy, Rng *rng) noexcept nogil:
    play_game_seats(g, r, strategy, rng, rng)


cdef inline int score_of(const Duel *g, const Rules *r) noexcept nogil:
    cdef int q
    if g.end != END_WIN:
        return 0
    q = 1 - g.winner
    return r.score_bonus + r.score_stock * g.stock_n[q] + r.score_hand_waste * (g.hand_n[q] + g.waste_n[q])
