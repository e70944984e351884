# Mariáš double-dummy search: every hand visible, the actor against the two defenders as one side.
#
# The value of a position is what the actor's side can still collect, in units:
#   suit games  one unit per A/T in a trick the actor wins, one for the last trick (units of 10
#               points; hlasy are fixed once play starts and do not depend on the play);
#   Malý        one unit per trick the actor LOSES (made when he collects every remaining trick);
#   Veľký       one unit per trick the actor wins (made when he collects every remaining trick).
# search(target) answers "can the actor collect >= target?" by alpha-beta on a boolean; the exact
# value is found by bisection over the few possible values. A transposition table, probed at
# trick boundaries, keeps bounds (lower, upper) per position; entries of older searches are
# invalidated by a generation counter instead of clearing the table.

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t, int8_t
from libc.stdlib cimport calloc, free
from bitboard cimport mask32, popcount32, lowest_bit32, highest_bit32, clear_lowest32
from marias_rules cimport *

cdef enum:
    GOAL_POINTS = 0
    GOAL_MALY = 1
    GOAL_VELKY = 2
    TT_BITS = 16                   # 64K entries (1.5 MB): a larger table costs a cache miss a probe


cdef struct DDState:
    mask32 hand[N_SEATS]
    int trump                      # NO_TRUMP in Malý/Veľký (hands in the betl encoding)
    int actor
    int seven_holder
    int queen_first
    int goal
    uint8_t trick[3]
    uint8_t trick_seat[3]
    int n_trick
    int leader
    int tricks_left                # tricks not yet complete, the current one included


cdef struct TTEntry:
    uint64_t key1
    uint64_t key2
    uint32_t generation
    int8_t lower
    int8_t upper


cdef struct Solver:
    TTEntry *table
    uint32_t generation
    int64_t nodes


cdef inline int solver_init(Solver *s) noexcept nogil:
    s.table = <TTEntry *>calloc(1 << TT_BITS, sizeof(TTEntry))
    s.generation = 1
    s.nodes = 0
    return s.table != NULL


cdef inline void solver_free(Solver *s) noexcept nogil:
    free(s.table)
    s.table = NULL


cdef inline void solver_new_deal(Solver *s) noexcept nogil:
    s.generation += 1


cdef inline int goal_of(int game) noexcept nogil:
    if game == GAME_MALY:
        return GOAL_MALY
    if game == GAME_VELKY:
        return GOAL_VELKY
    return GOAL_POINTS


cdef inline int max_remaining(const DDState *d) noexcept nogil:
    cdef mask32 left
    cdef int i
    if d.goal != GOAL_POINTS:
        return d.tricks_left
    left = d.hand[0] | d.hand[1] | d.hand[2]
    for i in range(d.n_trick):
        left |= (<mask32>1) << d.trick[i]
    return popcount32(left & POINT_CARDS) + 1


cdef inline int sure_trump_points(const DDState *d, int *for_actor) noexcept nogil:
    """Point cards (A, T) among the top remaining trumps when one side holds them all from the
    top: each such card wins whatever trick it falls in (only a higher trump could beat it, and
    the same side holds those), so that side collects it whatever happens. Returns the count and
    sets *for_actor to the side. At a trick boundary of a suit game only."""
    cdef mask32 trumps = (d.hand[0] | d.hand[1] | d.hand[2]) & suit_mask(d.trump) & POINT_CARDS
    cdef int c, count = 0, actor_side = -1, side
    while trumps:
        c = highest_bit32(trumps)                 # A and T are the top two ranks
        side = (d.hand[d.actor] >> c) & 1
        if actor_side < 0:
            actor_side = side
        elif side != actor_side:
            break
        count += 1
        trumps &= ~((<mask32>1) << c)
    for_actor[0] = actor_side == 1
    return count


cdef inline int trick_gain(const DDState *d, int winner) noexcept nogil:
    """Units the actor collects for the trick just completed (d.tricks_left not yet decreased)."""
    cdef int units = 0, i
    if d.goal == GOAL_MALY:
        return winner != d.actor
    if d.goal == GOAL_VELKY:
        return winner == d.actor
    if winner != d.actor:
        return 0
    for i in range(3):
        units += (POINT_CARDS >> d.trick[i]) & 1
    return units + (d.tricks_left == 1)


cdef inline int last_trick_gain(DDState *d) noexcept nogil:
    """Units the actor collects in the last trick, every hand holding one card."""
    cdef int i, seat
    for i in range(3):
        seat = (d.leader + i) % N_SEATS
        d.trick[i] = <uint8_t>lowest_bit32(d.hand[seat])
        d.trick_seat[i] = <uint8_t>seat
    return trick_gain(d, d.trick_seat[trick_winner_index(d.trick, 3, d.trump)])


cdef inline int push_high(uint8_t *moves, int n, mask32 m) noexcept nogil:
    cdef int c
    while m:
        c = highest_bit32(m)
        moves[n] = <uint8_t>c
        n += 1
        m &= ~((<mask32>1) << c)
    return n


cdef inline int push_low(uint8_t *moves, int n, mask32 m) noexcept nogil:
    while m:
        moves[n] = <uint8_t>lowest_bit32(m)
        n += 1
        m = clear_lowest32(m)
    return n


cdef inline mask32 ordered_moves(const DDState *d, int seat, mask32 legal, uint8_t *moves,
                                 int *n_moves) noexcept nogil:
    """The moves worth trying, best guesses first. Cards of one suit with no outstanding card of
    another hand (or of the trick) between them, and both point cards or both not, are
    equivalent: only the highest of each such run is kept. Cards that win the trick so far come
    first (highest first) unless the own side already wins it; then the rest, lowest first."""
    cdef mask32 others = 0, m, winners = 0, rest = 0, between
    cdef int i, c, last = -1, n = 0, win = -1, mine
    cdef int win_i = 0
    for i in range(N_SEATS):
        if i != seat:
            others |= d.hand[i]
    for i in range(d.n_trick):
        others |= (<mask32>1) << d.trick[i]
    if d.n_trick:
        win_i = trick_winner_index(d.trick, d.n_trick, d.trump)
        win = d.trick[win_i]
    cdef mask32 beating_mask = 0
    if win >= 0:
        beating_mask = suit_mask(card_suit(win)) & above(win)
        if d.trump != NO_TRUMP and card_suit(win) != d.trump:
            beating_mask |= suit_mask(d.trump)
    m = legal
    while m:                                   # high to low; drop equivalent lower cards
        c = highest_bit32(m)
        m &= ~((<mask32>1) << c)
        if last >= 0 and card_suit(last) == card_suit(c) and ((POINT_CARDS >> last) & 1) == ((POINT_CARDS >> c) & 1):
            between = others & (((<mask32>1) << last) - 1) & ~(((<mask32>2) << c) - 1)
            if between == 0:
                last = c
                continue
        last = c
        if win < 0 or (beating_mask >> c) & 1:
            winners |= (<mask32>1) << c
        else:
            rest |= (<mask32>1) << c
    mine = 0
    if d.n_trick:                              # is the trick's winner so far on my side?
        mine = (d.trick_seat[win_i] == d.actor) == (seat == d.actor)
    if mine:
        # partner winning: the last to play smears point cards first; otherwise cheap cards first
        if d.n_trick == 2:
            n = push_high(moves, n, (winners | rest) & POINT_CARDS)
            n = push_low(moves, n, (winners | rest) & ~(<mask32>POINT_CARDS))
        else:
            n = push_low(moves, n, rest | winners)
    else:
        if d.n_trick == 2:                     # last to play: win, with a point card if possible
            n = push_high(moves, n, winners & POINT_CARDS)
            n = push_low(moves, n, winners & ~(<mask32>POINT_CARDS))
        else:
            n = push_high(moves, n, winners)
        n = push_low(moves, n, rest & ~(<mask32>POINT_CARDS))
        n = push_low(moves, n, rest & POINT_CARDS)
    n_moves[0] = n
    return legal


cdef inline uint64_t tt_index(uint64_t k1, uint64_t k2) noexcept nogil:
    return ((k1 * <uint64_t>0x9E3779B97F4A7C15) ^ (k2 * <uint64_t>0xC2B2AE3D27D4EB4F)) >> (64 - TT_BITS)


cdef inline int search(Solver *s, DDState *d, int target) noexcept nogil:
    """1 if the actor can collect >= target units from this position, else 0."""
    cdef uint64_t k1 = 0, k2 = 0, idx = 0
    cdef TTEntry *e
    cdef int seat, maxi, result, c, r, w, gain, saved_leader, n, i, n_moves
    cdef uint32_t saved_trick
    cdef uint8_t moves[HAND_CARDS]
    cdef mask32 legal, m
    cdef int sure, sure_actor
    s.nodes += 1
    if d.n_trick == 0:
        if target <= 0:
            return 1
        if target > max_remaining(d):
            return 0
        if d.tricks_left == 1:                 # one card each: the last trick plays itself
            return last_trick_gain(d) >= target
        if d.goal == GOAL_POINTS and d.trump != NO_TRUMP:
            sure = sure_trump_points(d, &sure_actor)
            if sure_actor and target <= sure:
                return 1
            if not sure_actor and target > max_remaining(d) - sure:
                return 0
        k1 = <uint64_t>d.hand[0] | (<uint64_t>d.hand[1] << 32)
        k2 = <uint64_t>d.hand[2] | (<uint64_t>d.leader << 32)
        idx = tt_index(k1, k2)
        e = &s.table[idx]
        if e.generation == s.generation and e.key1 == k1 and e.key2 == k2:
            if e.lower >= target:
                return 1
            if e.upper < target:
                return 0
    n = d.n_trick
    seat = (d.leader + n) % N_SEATS
    legal = legal_cards(d.hand[seat], d.trick, n, d.trump, seat == d.seven_holder, d.queen_first)
    maxi = seat == d.actor
    result = 0 if maxi else 1
    m = ordered_moves(d, seat, legal, moves, &n_moves)
    for i in range(n_moves):
        c = moves[i]
        d.hand[seat] &= ~((<mask32>1) << c)
        d.trick[n] = <uint8_t>c
        d.trick_seat[n] = <uint8_t>seat
        if n == 2:
            w = d.trick_seat[trick_winner_index(d.trick, 3, d.trump)]
            gain = trick_gain(d, w)
            saved_leader = d.leader
            saved_trick = (<uint32_t>d.trick[0]) | (<uint32_t>d.trick[1] << 8) | \
                (<uint32_t>d.trick_seat[0] << 16) | (<uint32_t>d.trick_seat[1] << 24)
            d.leader = w
            d.n_trick = 0
            d.tricks_left -= 1
            if d.tricks_left == 0:
                r = gain >= target
            else:
                r = search(s, d, target - gain)   # the next tricks overwrite d.trick: restore it
            d.tricks_left += 1
            d.n_trick = 2
            d.leader = saved_leader
            d.trick[0] = saved_trick & 0xFF
            d.trick[1] = (saved_trick >> 8) & 0xFF
            d.trick_seat[0] = (saved_trick >> 16) & 0xFF
            d.trick_seat[1] = saved_trick >> 24
        else:
            d.n_trick = n + 1
            r = search(s, d, target)
            d.n_trick = n
        d.hand[seat] |= (<mask32>1) << c
        if maxi and r:
            result = 1
            break
        if not maxi and not r:
            result = 0
            break
    if n == 0:
        e = &s.table[idx]
        if not (e.generation == s.generation and e.key1 == k1 and e.key2 == k2):
            e.generation = s.generation
            e.key1 = k1
            e.key2 = k2
            e.lower = 0
            e.upper = 127
        if result:
            if target > e.lower:
                e.lower = <int8_t>target
        elif target - 1 < e.upper:
            e.upper = <int8_t>(target - 1)
    return result


cdef inline int guess_value(const DDState *d) noexcept nogil:
    """A rough estimate of the actor's units, to start dd_value's scan from (a least-squares fit
    on deals solved from the first trick: 0.78 per A/T, 0.62 per trump, 0.56 per ace held by the
    actor, minus 1.88 for a whole deal)."""
    cdef mask32 h = d.hand[d.actor]
    cdef int x = 78 * popcount32(h & POINT_CARDS) + 62 * popcount32(h & suit_mask(d.trump)) + \
        56 * popcount32(h & ACES) - 19 * d.tricks_left
    return (x + 50) // 100 if x > 0 else 0


cdef inline int dd_value(Solver *s, DDState *d) noexcept nogil:
    """Exact number of units the actor's side collects from here with best play by all. In
    Malý/Veľký only making the contract matters: the remaining tricks if he can make it, else 0."""
    cdef int value, hi = max_remaining(d)
    if d.goal != GOAL_POINTS:
        return d.tricks_left if search(s, d, d.tricks_left) else 0
    # Values are small (mostly 0..4 of at most 9): scan from a guess, up while the actor reaches
    # the next value, else down until he does; the table carries each search's bounds to the
    # next. A good guess saves the cheap-looking but costly searches far from the value.
    value = guess_value(d)
    if value > hi:
        value = hi
    if value < hi and search(s, d, value + 1):
        value += 1
        while value < hi and search(s, d, value + 1):
            value += 1
        return value
    while value > 0 and not search(s, d, value):
        value -= 1
    return value


cdef inline int child_reaches(Solver *s, DDState *d, int card, int target) noexcept nogil:
    """Play `card` for the seat to move; can the actor still collect >= target (units counted
    from the current position)?"""
    cdef int n = d.n_trick, seat = (d.leader + n) % N_SEATS, w, gain, saved_leader, r
    cdef uint32_t saved_trick
    d.hand[seat] &= ~((<mask32>1) << card)
    d.trick[n] = <uint8_t>card
    d.trick_seat[n] = <uint8_t>seat
    if n == 2:
        w = d.trick_seat[trick_winner_index(d.trick, 3, d.trump)]
        gain = trick_gain(d, w)
        saved_leader = d.leader
        saved_trick = (<uint32_t>d.trick[0]) | (<uint32_t>d.trick[1] << 8) | \
            (<uint32_t>d.trick_seat[0] << 16) | (<uint32_t>d.trick_seat[1] << 24)
        d.leader = w
        d.n_trick = 0
        d.tricks_left -= 1
        r = gain >= target if d.tricks_left == 0 else search(s, d, target - gain)
        d.tricks_left += 1
        d.n_trick = 2
        d.leader = saved_leader
        d.trick[0] = saved_trick & 0xFF
        d.trick[1] = (saved_trick >> 8) & 0xFF
        d.trick_seat[0] = (saved_trick >> 16) & 0xFF
        d.trick_seat[1] = saved_trick >> 24
    else:
        d.n_trick = n + 1
        r = search(s, d, target)
        d.n_trick = n
    d.hand[seat] |= (<mask32>1) << card
    return r
