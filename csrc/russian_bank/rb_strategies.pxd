# Russian Bank duel policies (§10.6): G1 "greedy" and uniform "random", one decision step with the
# stop call of stop_mode=call, and a whole game.

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy
from bitboard cimport popcount32, lowest_bit32, lowest_bit64
from rng cimport Rng, rng_below, rng_uniform
from rb_rules cimport *

# ---------------------------------------------------------------------------------------------
# Duel policies

cdef inline int seat_house(int p, int j) noexcept nogil:
    """The j-th house in player p's house order: his own four first (4p .. 4p+3), then the
    opponent's. The same map turns a house index into its rank in p's order. Ordering houses from
    the mover's side makes the policies' tie-breaks the same for both seats (mirror test, §10.9)."""
    return (j + HOUSES_PER_PLAYER * p) & (N_HOUSES - 1)

cdef inline int greedy_choice(const Duel *g, const int *acts, int n) noexcept nogil:
    """Policy G1 of §10.6: foundation plays (stock, hand, then house tops in the mover's house
    order), then the lowest class; ties by destination (houses in the mover's order, the first
    empty one only, then opponent's stock, then waste), then by source house."""
    cdef int i, a, src, dst, best = -1, best_key = 1 << 30, key, cls, h, j, empties = 0, first_empty = -1
    cdef int p = g.player, discard = -1, passing = -1, turn = -1, dst_rank
    for j in range(N_HOUSES):
        h = seat_house(p, j)
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
            key = 0 if src == SRC_STOCK else (1 if src == SRC_HAND else (4 if src == SRC_WASTE else
                                              5 + seat_house(p, src - SRC_HOUSE)))
        else:
            if dst >= DST_HOUSE and dst < DST_HOUSE + N_HOUSES and g.house_n[dst - DST_HOUSE] == 0 \
                    and dst - DST_HOUSE != first_empty:
                continue                  # only the first empty house in the order is offered
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
            dst_rank = dst if dst >= DST_OPP_STOCK else DST_HOUSE + seat_house(p, dst - DST_HOUSE)
            key = 100 + 1000 * cls + 16 * dst_rank + (seat_house(p, src - SRC_HOUSE) if src >= SRC_HOUSE else 0)
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

cdef inline int greedy_fast_ok(const Rules *r) noexcept nogil:
    """The rules under which greedy_action equals greedy_choice over legal_actions: the turn is
    automatic, DISCARD is always allowed with a hand card up, no stop calls, no forced empty houses
    and no own-waste source (the G1 classes never use the moves these options add or remove)."""
    return (r.auto_turn and not r.stop_call and r.discard_policy == DISCARD_FREE
            and r.empty_house != EMPTY_STOCK_FORCED and not r.own_waste_playable)

cdef inline int has(uint64_t mask, int c) noexcept nogil:
    return c >= 0 and (mask >> c) & 1

cdef inline int first_in_seat_order(uint32_t houses, int p) noexcept nogil:
    """The first house of a non-empty set of houses (bit h = house h) in player p's order."""
    cdef int shift = HOUSES_PER_PLAYER * p
    cdef uint32_t rotated = ((houses >> shift) | (houses << (N_HOUSES - shift))) & ((1u << N_HOUSES) - 1)
    return (lowest_bit32(rotated) + shift) & (N_HOUSES - 1)

cdef inline int greedy_action(const Duel *g, const Rules *r) noexcept nogil:
    """G1 straight from the position, class by class, without listing the legal actions; only
    where greedy_fast_ok holds (a test checks it against greedy_choice on many positions).
    Card sets are 52-bit masks of kinds: what the foundations take, the house tops and what fits
    on them; sets of houses are 8-bit masks (the first in the mover's order is a rotation and a
    lowest bit), kept up to date by apply_action. The house sets are built without branches (a
    loop over the houses that stops at the first hit mispredicts once a decision)."""
    cdef int p = g.player, q = 1 - g.player, h, s, d, stock = -1, hand = -1, first_empty = -1
    cdef uint32_t targets
    cdef uint64_t found = g.found_next, wanted, singles = 0, to_stock = 0, to_waste = 0
    if g.stock_n[p] > 0:
        stock = g.stock[p][g.stock_n[p] - 1]
        if has(found, stock):
            return SRC_STOCK * 16 + DST_FOUNDATION
    if g.up[p] and g.hand_n[p] > 0:
        hand = g.hand[p][g.hand_n[p] - 1]
        if has(found, hand):
            return SRC_HAND * 16 + DST_FOUNDATION
    if g.house_tops & found:
        return (SRC_HOUSE + first_in_seat_order(houses_topped_by(g, found), p)) * 16 + DST_FOUNDATION
    wanted = children_of(g.house_tops)
    if g.empty_houses:
        first_empty = first_in_seat_order(g.empty_houses, p)
    if (stock >= 0 and r.load_from_stock) or (hand >= 0 and r.load_from_hand):
        # what the opponent's stock and waste take as loads
        if r.load_stock and g.stock_n[q] > 0:
            to_stock = LOADING[r.load_wrap][g.stock[q][g.stock_n[q] - 1]]
        if r.load_waste and g.waste_n[q] > 0:
            to_waste = LOADING[r.load_wrap][g.waste[q][g.waste_n[q] - 1]]
    if stock >= 0:
        if r.load_from_stock:                                  # class 1
            if has(to_stock, stock):
                return SRC_STOCK * 16 + DST_OPP_STOCK
            if has(to_waste, stock):
                return SRC_STOCK * 16 + DST_OPP_WASTE
        if g.empty_houses or has(wanted, stock):               # class 2 (an empty house counts too)
            return SRC_STOCK * 16 + DST_HOUSE + first_in_seat_order(g.empty_houses | houses_taking(g, stock), p)
    if hand >= 0:
        if r.load_from_hand:                                   # class 3
            if has(to_stock, hand):
                return SRC_HAND * 16 + DST_OPP_STOCK
            if has(to_waste, hand):
                return SRC_HAND * 16 + DST_OPP_WASTE
        if has(wanted, hand):                                  # class 4
            return SRC_HAND * 16 + DST_HOUSE + first_in_seat_order(houses_taking(g, hand), p)
    if g.single_houses and wanted & g.house_tops:              # class 5: a lone house card moves over
        singles = single_tops(g) & wanted
    if singles:                                                # first destination, then first source
        targets = 0
        for h in range(N_HOUSES):
            targets |= <uint32_t>((FITTING[g.top[h]] & singles) != 0) << h
        d = first_in_seat_order(targets, p)
        s = first_in_seat_order(g.single_houses & houses_topped_by(g, FITTING[g.top[d]]), p)
        return (SRC_HOUSE + s) * 16 + DST_HOUSE + d
    if hand >= 0:
        if popcount32(g.empty_houses) >= 2 and (r.empty_house == EMPTY_ANY or g.stock_n[p] == 0):   # class 6
            return SRC_HAND * 16 + DST_HOUSE + first_empty
        return ACT_DISCARD
    return ACT_PASS

cdef inline uint64_t pile_kinds(const uint8_t *pile, int n) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(n):
        m |= <uint64_t>1 << pile[i]
    return m

cdef inline uint64_t load_targets_of(uint64_t kinds, int wrap) noexcept nogil:
    """The kinds that may be loaded on some card of kinds."""
    cdef uint64_t m = 0
    cdef int c
    while kinds:
        c = lowest_bit64(kinds)
        kinds &= kinds - 1
        m |= LOADING[wrap][c]
    return m

cdef inline int g1_frozen(const Duel *g, const Rules *r) noexcept nogil:
    """G1 will never again move a card for either player: from here on every decision is DISCARD
    (or PASS without a hand card) until the game ends. Holds when no foundation takes a house top,
    no house is empty, no lone house card fits on another top, and neither player's stock top nor
    any card of his hand and waste goes on a foundation, on a house or (as a load) on the other
    player's stock top or any card of the other's hand and waste (his waste top is always one of
    them). Then nothing but the hands and wastes changes, and the union of each player's hand and
    waste stays the same, so the test keeps holding: it is a property of the whole future."""
    cdef uint64_t found = g.found_next, wanted = children_of(g.house_tops), pile[2], bad
    cdef int p, q
    if g.empty_houses or g.house_tops & found or single_tops(g) & wanted:
        return 0
    for p in range(2):
        pile[p] = pile_kinds(g.hand[p], g.hand_n[p]) | pile_kinds(g.waste[p], g.waste_n[p])
    for p in range(2):
        q = 1 - p
        bad = found | wanted | load_targets_of(pile[q], r.load_wrap)
        if g.stock_n[q] > 0:
            bad |= LOADING[r.load_wrap][g.stock[q][g.stock_n[q] - 1]]
        if pile[p] & bad or (g.stock_n[p] > 0 and has(bad, g.stock[p][g.stock_n[p] - 1])):
            return 0
    return 1

cdef enum:
    FROZEN_CHECK_EVERY = 8      # turns without progress between two g1_frozen tests (a power of 2)

# ---------------------------------------------------------------------------------------------
# Blind turn planner (§10.6 policy 3, "lookahead"): a depth-limited search over the mover's own
# turn. Moves that bring an unseen card into view (stock or hand card played, the turn ending) are
# leaves, so the planner only ever uses face-up cards; the leaf value counts public pile sizes.
# Every move of a plan costs one unit, so that along a turn the value of the best plan strictly
# grows with each move made without a reveal: the planner cannot shuffle cards round in a cycle.

cdef enum:
    PLAN_DEPTH = 3              # moves looked at in one plan (the last may reveal a card)
    PLAN_CARD = 16              # value of one private card (a stock card counts twice); 1 = one action
    PLAN_WIN = 1 << 20

cdef inline int reveals(int a) noexcept nogil:
    """The action ends the turn or turns up a card the player has not seen at this point."""
    return a >= ACT_DISCARD or move_src(a) < SRC_HOUSE

cdef inline int plan_value(const Duel *g, int me) noexcept nogil:
    """The position for player me: the opponent's private cards minus his own, stock cards twice
    (they block the stock). A bonus per empty house (§10.6 suggests one) made the planner weaker
    against G1 in duplicate play (32 or 16 per house against none), so there is none."""
    cdef int q = 1 - me
    if g.end == END_WIN:
        return PLAN_WIN if g.winner == me else -PLAN_WIN
    return PLAN_CARD * ((2 * g.stock_n[q] + g.hand_n[q] + g.waste_n[q])
                        - (2 * g.stock_n[me] + g.hand_n[me] + g.waste_n[me]))

cdef inline int idle_move(const Duel *g, int a) noexcept nogil:
    """A lone house card to an empty house changes nothing."""
    cdef int src = move_src(a), dst = move_dst(a)
    return (src >= SRC_HOUSE and dst >= DST_HOUSE and dst < DST_HOUSE + N_HOUSES
            and g.house_n[dst - DST_HOUSE] == 0 and g.house_n[src - SRC_HOUSE] == move_count(a))

cdef inline int action_value(const Duel *g, const Rules *r, int a, int depth) noexcept nogil:
    """The value of the best plan of at most depth actions that starts with a (one unit per action)."""
    cdef Duel child
    memcpy(&child, g, sizeof(Duel))
    apply_action(&child, r, a)
    if reveals(a) or child.end != END_NONE or child.player != g.player:
        return plan_value(&child, g.player) - 1
    if depth == 1:
        return plan_value(&child, g.player) - 2       # the plan stops here (see plan_search)
    return plan_search(&child, r, g.player, depth - 1) - 1

cdef inline int plan_search(const Duel *g, const Rules *r, int me, int depth) noexcept nogil:
    """The best value of a plan of at most depth more actions from g. A plan may also stop early:
    the player then still owes one action, valued like DISCARD or PASS (no card changes pile
    count), i.e. plan_value - 1. So the rest of a plan is always on offer at the next decision, and
    each move made without a reveal raises the best value by at least one unit: no cycles."""
    cdef int acts[MAX_MOVES]
    cdef int n, i, v, best = plan_value(g, me) - 1
    n = legal_actions(g, r, acts, 1)
    for i in range(n):
        if not idle_move(g, acts[i]):
            v = action_value(g, r, acts[i], depth)
            if v > best:
                best = v
    return best

cdef inline int seat_code(int p, int a) noexcept nogil:
    """The action code with its houses numbered in player p's house order (for tie-breaks that do
    not depend on the seat)."""
    cdef int src = move_src(a), dst = move_dst(a)
    if a >= ACT_DISCARD:
        return a
    if src >= SRC_HOUSE:
        src = SRC_HOUSE + seat_house(p, src - SRC_HOUSE)
    if dst >= DST_HOUSE and dst < DST_OPP_STOCK:
        dst = DST_HOUSE + seat_house(p, dst - DST_HOUSE)
    return (move_count(a) - 1) * 256 + src * 16 + dst

cdef inline int lookahead_choice(const Duel *g, const Rules *r, const int *acts, int n) noexcept nogil:
    """The first action of the best plan; G1's action unless another one is strictly better, then
    the lowest action code in the mover's house order."""
    cdef int i, v, g1 = greedy_choice(g, acts, n), best = g1, best_v, p = g.player
    if n == 1:
        return 0
    best_v = action_value(g, r, acts[g1], PLAN_DEPTH)
    for i in range(n):
        if i != g1 and not idle_move(g, acts[i]):
            v = action_value(g, r, acts[i], PLAN_DEPTH)
            if v > best_v or (v == best_v and best != g1 and seat_code(p, acts[i]) < seat_code(p, acts[best])):
                best_v = v
                best = i
    return best


cdef inline int choose(const Duel *g, const Rules *r, int strategy, const int *acts, int n, Rng *rng) noexcept nogil:
    if strategy == STRAT_GREEDY:
        return greedy_choice(g, acts, n)
    if strategy == STRAT_LOOKAHEAD:
        return lookahead_choice(g, r, acts, n)
    return <int>rng_below(rng, <uint32_t>n)


cdef inline int contains(const int *acts, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if acts[i] == a:
            return 1
    return 0

cdef inline int step_listed(Duel *g, const Rules *r, const int *strategy, Rng *rng0, Rng *rng1) noexcept nogil:
    """step_seats by the list of legal actions (every policy, every rule set)."""
    cdef int acts[MAX_MOVES]
    cdef int compliant[MAX_MOVES]
    cdef int n, nc, a
    cdef Rng *mover = rng0 if g.player == 0 else rng1
    cdef Rng *watcher = rng1 if g.player == 0 else rng0
    n = legal_actions(g, r, acts, 0 if r.stop_call else 1)
    a = acts[choose(g, r, strategy[g.player], acts, n, mover)]
    if r.stop_call:
        nc = legal_actions(g, r, compliant, 1)
        if not contains(compliant, nc, a) and rng_uniform(watcher) < r.p_detect:
            stop_called(g, r)
            return -1
    apply_action(g, r, a)
    return a

cdef inline int step_seats(Duel *g, const Rules *r, const int *strategy, Rng *rng0, Rng *rng1) noexcept nogil:
    """One decision of the player to move; returns the action taken (or -1 for a stop call).
    rng0 / rng1 feed the player of pack 0 / pack 1: the mover's stream chooses his action, and
    under stop_mode=call the opponent's stream decides whether he notices a non-compliant one."""
    cdef int a
    if strategy[g.player] == STRAT_GREEDY and greedy_fast_ok(r):
        a = greedy_action(g, r)
        apply_action(g, r, a)
        return a
    return step_listed(g, r, strategy, rng0, rng1)

cdef inline int step(Duel *g, const Rules *r, const int *strategy, Rng *rng) noexcept nogil:
    """One decision with a single stream for both players (the duel analysis, the game API)."""
    return step_seats(g, r, strategy, rng, rng)

cdef inline void play_game_seats(Duel *g, const Rules *r, const int *strategy, Rng *rng0, Rng *rng1) noexcept nogil:
    cdef Rules rules = r[0]        # a local copy: the compiler may keep its fields in registers
    if strategy[0] == STRAT_GREEDY and strategy[1] == STRAT_GREEDY and greedy_fast_ok(&rules):
        while g.end == END_NONE:   # step_seats' fast path, decided once a game
            apply_action(g, &rules, greedy_action(g, &rules))
            # one branch, rarely taken: a turn just ended, with no progress for a multiple of 8 turns
            if ((g.stall & (FROZEN_CHECK_EVERY - 1)) | (g.stall == 0) | g.actions_in_turn) == 0 \
                    and g1_frozen(g, &rules):
                # the rest of the game is G1's discards and passes (most stalled games end so):
                # play them without asking G1
                while g.end == END_NONE:
                    apply_action(g, &rules, ACT_DISCARD if g.up[g.player] and g.hand_n[g.player] > 0 else ACT_PASS)
        return
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
