# Double-dummy search for piquet's card play: both hands visible, elder maximises and younger
# minimises (elder's deal total - younger's deal total) over the rest of the play.
#
# The value of a position is "to go": the play points, pik bonus and end-of-play bonuses still to
# come. It depends only on the two hands, the leader, elder's tricks so far, the pik still pending
# (how many points elder needs) and the open-capot announcement — exactly the transposition key —
# so table entries stay valid across deals played under the same rules and can be kept for a
# whole shard. No card scores by its rank, so the hands enter the key with the cards out of play
# squeezed out (relative ranks), and cards of one hand that are adjacent in a suit once those
# cards are removed are equivalent: only one of each group is searched.
#
# Speed comes from the bounds of the value to go (cashable and stopper tricks, ru_seed scoring),
# sweeps played out directly, a small cache-resident table, the table's lead and a killer lead per
# depth tried first, and zero-window searches (MTD(f); one zero-window test per card to find the
# best cards). The tests compare every entry point with plain minimax on endgames and with the
# values of the unoptimised solver on whole deals (tests/golden/piquet/dd_full_deals.json).

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t
from libc.stdlib cimport calloc, free

from bitboard cimport mask32, lowest_bit32, highest_bit32, clear_lowest32, popcount32
from piquet_rules cimport (PiquetRules, PlayState, play_trick, legal_follows, TRICKS, ELDER, YOUNGER,
                           UNTIL_OPPONENT_SCORES, EVERY_TRICK, LAST_TOTAL)

cdef enum:
    TT_BITS = 14                 # 16K entries of 16 bytes: small enough to stay in the cache
    TT_SIZE = 1 << TT_BITS
    TT_MIN_CARDS = 3             # positions with fewer cards per hand are searched without the table
    INF = 30000
    MAX_MOVES = 12


cdef struct TTEntry:             # 16 bytes; an empty entry has key == 0, which no position has
    uint64_t key                 # relative_key of the hands | state_extra << 40
    int16_t lower
    int16_t upper
    int8_t best                  # the best lead, as 8 * suit + its rank among the suit's cards in play


cdef struct Solver:
    TTEntry *table
    const PiquetRules *rules
    long nodes
    int killer[2][TRICKS + 1]    # per leader and cards left: the last lead that cut off there


cdef inline int solver_init(Solver *sv, const PiquetRules *rules) noexcept nogil:
    cdef int i
    sv.table = <TTEntry *>calloc(TT_SIZE, sizeof(TTEntry))
    sv.rules = rules
    sv.nodes = 0
    for i in range(TRICKS + 1):
        sv.killer[0][i] = -1
        sv.killer[1][i] = -1
    return sv.table != NULL


cdef inline void solver_free(Solver *sv) noexcept nogil:
    free(sv.table)
    sv.table = NULL


cdef inline int pik_need(const PlayState *s, const PiquetRules *rules) noexcept nogil:
    # Points elder still needs for a pik, 0 when no pik can come any more.
    if not s.pik_possible or s.pik:
        return 0
    if rules.pik_window == UNTIL_OPPONENT_SCORES and not s.window_open:
        return 0
    return rules.pik_threshold - s.pik_count


cdef inline uint16_t state_extra(const PlayState *s, const PiquetRules *rules) noexcept nogil:
    # bit 0 leader, bits 1-4 elder's tricks, bits 5-6 announcement + 1, bits 7-14 pik need (<= 200)
    return <uint16_t>(s.leader | (s.tricks_won[ELDER] << 1) | ((s.announced + 1) << 5)
                      | (pik_need(s, rules) << 7))


cdef inline uint64_t relative_key(mask32 elder, mask32 younger) noexcept nogil:
    """The two hands with the cards out of play squeezed out: for each suit, one bit per card
    still in play from the lowest up (1 = younger's) and a 1 above them to mark the length, nine
    bits a suit. Play values depend only on this (no card is worth points by its rank), so
    positions reached by playing different cards of the same relative standing share an entry."""
    cdef uint64_t key = 0
    cdef uint32_t lane, owners, k
    cdef int suit, c
    for suit in range(4):
        lane = ((elder | younger) >> (8 * suit)) & 0xFF
        owners = 0
        k = 0
        while lane:
            c = lowest_bit32(lane)
            owners |= ((younger >> (8 * suit + c)) & 1) << k
            k += 1
            lane &= lane - 1
        key |= <uint64_t>(owners | (1u << k)) << (9 * suit)
    return key


cdef inline int relative_card(int card, mask32 in_play) noexcept nogil:
    cdef int suit = card >> 3
    return 8 * suit + popcount32((in_play >> (8 * suit)) & ((1u << (card & 7)) - 1))


cdef inline int absolute_card(int rel, mask32 in_play) noexcept nogil:
    cdef uint32_t lane = (in_play >> (8 * (rel >> 3))) & 0xFF
    cdef int i
    for i in range(rel & 7):
        lane &= lane - 1
    return 8 * (rel >> 3) + lowest_bit32(lane) if lane else -1


cdef inline uint32_t tt_index(uint64_t key) noexcept nogil:
    return <uint32_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> (64 - TT_BITS))


cdef inline int terminal_value(const PlayState *s, const PiquetRules *rules) noexcept nogil:
    cdef int p, sign, v = 0
    for p in range(2):
        sign = 1 if p == ELDER else -1
        if s.tricks_won[p] == TRICKS:
            v += sign * (rules.open_capot_bonus if s.announced == p else rules.capot_bonus)
        elif s.tricks_won[p] * 2 > TRICKS:
            v += sign * rules.majority_bonus
    if s.announced >= 0 and s.tricks_won[s.announced] != TRICKS:
        v += (-1 if s.announced == ELDER else 1) * rules.open_capot_fail_penalty
    return v


cdef inline int group_tops(mask32 mine, mask32 theirs, int *moves) noexcept nogil:
    """One card of each group of equivalent cards in `mine` (cards with no card of `theirs`
    between them in the same suit), highest group first within a suit."""
    cdef int n = 0, c, above
    cdef mask32 rest = mine, all_cards = mine | theirs, higher
    while rest:
        c = highest_bit32(rest)
        rest &= ~((<mask32>1) << c)
        # c tops its group unless the next higher remaining card of its suit is also mine
        higher = all_cards & ~(((<mask32>2) << c) - 1) & ((<mask32>0xFF) << (c & ~7))
        if higher:
            above = lowest_bit32(higher)
            if (mine >> above) & 1:
                continue
        moves[n] = c
        n += 1
    return n


cdef inline int trick_delta(const PlayState *before, const PlayState *after, const PiquetRules *rules) noexcept nogil:
    return ((after.points[ELDER] - before.points[ELDER]) - (after.points[YOUNGER] - before.points[YOUNGER])
            + (after.pik - before.pik) * rules.pik_bonus)


cdef inline int beats_all(mask32 mine, mask32 theirs) noexcept nogil:
    """Every card of `mine` is higher than every card of `theirs` in the same suit."""
    cdef int suit
    cdef mask32 lane, a, b
    for suit in range(4):
        lane = (<mask32>0xFF) << (8 * suit)
        a = mine & lane
        b = theirs & lane
        if a and b and lowest_bit32(a) < highest_bit32(b):
            return 0
    return 1


cdef inline int follower_sweeps(mask32 leader_hand, mask32 follower_hand) noexcept nogil:
    """The follower wins every remaining trick whatever is led: in each suit the leader holds,
    he holds at least as many cards, all higher."""
    cdef int suit
    cdef mask32 lane, a, b
    for suit in range(4):
        lane = (<mask32>0xFF) << (8 * suit)
        a = leader_hand & lane
        b = follower_hand & lane
        if a and (popcount32(b) < popcount32(a) or lowest_bit32(b) < highest_bit32(a)):
            return 0
    return 1


cdef inline int play_out_value(const PlayState *s, const PiquetRules *rules) noexcept nogil:
    """Value to go when the trick winners no longer depend on the cards chosen: play any legal
    cards to the end."""
    cdef PlayState child = s[0]
    cdef int lead, follow
    while child.tricks_done < TRICKS:
        lead = lowest_bit32(child.hand[child.leader])
        follow = lowest_bit32(legal_follows(child.hand[1 - child.leader], lead))
        play_trick(&child, lead, follow, rules)
    return trick_delta(s, &child, rules) + terminal_value(&child, rules)


cdef inline void order_leads(int *moves, int n, mask32 theirs) noexcept nogil:
    """Sure winners first (highest card of its suit among both hands), then the rest; within each,
    suits where the follower holds fewer cards first, then lower cards first."""
    cdef int i, j, m, key[MAX_MOVES], k
    for i in range(n):
        m = moves[i]
        if not (theirs & ((<mask32>0xFF) << (m & ~7)) & ~(((<mask32>2) << m) - 1)):
            key[i] = (m & 7) + 8 * popcount32(theirs & ((<mask32>0xFF) << (m & ~7))) - 128
        else:
            key[i] = (m & 7) + 8 * popcount32(theirs & ((<mask32>0xFF) << (m & ~7)))
    for i in range(1, n):
        m = moves[i]
        k = key[i]
        j = i - 1
        while j >= 0 and key[j] > k:
            moves[j + 1] = moves[j]
            key[j + 1] = key[j]
            j -= 1
        moves[j + 1] = m
        key[j + 1] = k


cdef inline void order_replies(int *moves, int n, int lead, mask32 leader_hand) noexcept nogil:
    """The cheapest card that wins first, then the lowest cards, discards from the suits where the
    leader is longest first."""
    cdef int i, j, m, key[MAX_MOVES], k
    for i in range(n):
        m = moves[i]
        if (m >> 3) == (lead >> 3) and m > lead:
            key[i] = m - 64
        else:
            key[i] = (m & 7) - 8 * popcount32(leader_hand & ((<mask32>0xFF) << (m & ~7)))
    for i in range(1, n):
        m = moves[i]
        k = key[i]
        j = i - 1
        while j >= 0 and key[j] > k:
            moves[j + 1] = moves[j]
            key[j + 1] = key[j]
            j -= 1
        moves[j + 1] = m
        key[j + 1] = k


cdef inline int sure_tricks(mask32 leader_hand, mask32 follower_hand) noexcept nogil:
    """Tricks the leader can cash one after another whatever the follower does: in each suit, his
    cards above the follower's best card of it, or all his cards of the suit when those are at
    least as many as the follower's cards of it (the follower is then void when they are gone)."""
    cdef int suit, n = 0, tops
    cdef mask32 lane, mine, theirs
    for suit in range(4):
        lane = (<mask32>0xFF) << (8 * suit)
        mine = leader_hand & lane
        theirs = follower_hand & lane
        if not mine:
            continue
        if not theirs:
            n += popcount32(mine)
        else:
            tops = popcount32(mine & ~(((<mask32>2) << highest_bit32(theirs)) - 1))
            n += popcount32(mine) if tops >= popcount32(theirs) else tops
    return n


cdef inline int stopper_tricks(mask32 mine, mask32 theirs) noexcept nogil:
    """Tricks a player takes whoever leads: the sum over suits of min(his cards above the
    opponent's best card of the suit, the opponent's cards of the suit). The opponent must play
    each of his cards of such a suit some time: led, it is beaten by one of these cards; thrown
    on a lead of a suit he is void in, that trick is won anyway. Leading one of these cards
    (or a card the opponent cannot follow) or following to a lead costs the count at most one
    card per trick taken, and when void the player can always throw a card the count does not
    use (otherwise the opponent would hold more cards than he)."""
    cdef int suit, n = 0, tops, length
    cdef mask32 lane, a, b
    for suit in range(4):
        lane = (<mask32>0xFF) << (8 * suit)
        a = mine & lane
        b = theirs & lane
        if a and b:
            tops = popcount32(a & ~(((<mask32>2) << highest_bit32(b)) - 1))
            length = popcount32(b)
            n += tops if tops < length else length
    return n


cdef inline void value_bounds(const PlayState *s, const PiquetRules *rules, int *low, int *high) noexcept nogil:
    """Bounds of the value to go under every-trick scoring with a last trick worth a total
    (ru_seed): with t more tricks for elder out of r and sigma = +1 if elder takes the last, the
    play points to come are lead(now) + 4t - 2r + (last - 2) * sigma; the bonuses follow from the
    final trick counts. Each player takes at least his stopper tricks, and the leader at least
    the tricks he can cash; a pending pik may or may not come."""
    cdef int r = TRICKS - s.tricks_done, t, sigma, last, v, bonus
    cdef int lead_sign = 1 if s.leader == ELDER else -1
    cdef int elder_total, younger_total, p
    cdef mask32 e = s.hand[ELDER], y = s.hand[YOUNGER]
    cdef int t_lo = stopper_tricks(e, y), y_lo = stopper_tricks(y, e), cash
    cash = sure_tricks(s.hand[s.leader], s.hand[1 - s.leader])
    if s.leader == ELDER:
        t_lo = max(t_lo, cash)
    else:
        y_lo = max(y_lo, cash)
    cdef int t_hi = r - y_lo
    low[0] = INF
    high[0] = -INF
    for t in range(t_lo, t_hi + 1):
        for sigma in range(-1, 2, 2):
            if (sigma == 1 and t == 0) or (sigma == -1 and t == r):
                continue
            elder_total = s.tricks_won[ELDER] + t
            younger_total = s.tricks_won[YOUNGER] + r - t
            last = rules.last_trick_value
            if not rules.capot_keeps_last_trick and (
                    (sigma == 1 and elder_total == TRICKS) or (sigma == -1 and younger_total == TRICKS)):
                last = 1
            v = lead_sign + 4 * t - 2 * r + (last - 2) * sigma
            bonus = 0
            if elder_total == TRICKS:
                bonus += rules.open_capot_bonus if s.announced == ELDER else rules.capot_bonus
            elif younger_total == TRICKS:
                bonus -= rules.open_capot_bonus if s.announced == YOUNGER else rules.capot_bonus
            elif elder_total * 2 > TRICKS:
                bonus += rules.majority_bonus
            elif younger_total * 2 > TRICKS:
                bonus -= rules.majority_bonus
            if s.announced == ELDER and elder_total != TRICKS:
                bonus -= rules.open_capot_fail_penalty
            elif s.announced == YOUNGER and younger_total != TRICKS:
                bonus += rules.open_capot_fail_penalty
            v += bonus
            if v < low[0]:
                low[0] = v
            if v > high[0]:
                high[0] = v
    if pik_need(s, rules) > 0:
        high[0] += rules.pik_bonus


cdef inline void move_to_front(int *moves, int n, int card) noexcept nogil:
    cdef int i
    for i in range(1, n):
        if moves[i] == card:
            moves[i] = moves[0]
            moves[0] = card
            return


cdef inline int search(Solver *sv, const PlayState *s, int alpha, int beta) noexcept nogil:
    """Value to go (elder - younger) of a position at the start of a trick, within (alpha, beta):
    fail-soft alpha-beta with a transposition table of bounds."""
    cdef int moves[MAX_MOVES]
    cdef int replies[MAX_MOVES]
    cdef int n, i, j, n_replies, v, w, delta, best, alpha0, beta0, first
    cdef int maximise = s.leader == ELDER
    cdef int a2, b2
    cdef PlayState child
    cdef uint64_t key = 0
    cdef TTEntry *e = NULL
    cdef int use_table
    if s.tricks_done == TRICKS:
        return terminal_value(s, sv.rules)
    if beats_all(s.hand[s.leader], s.hand[1 - s.leader]) or follower_sweeps(s.hand[s.leader], s.hand[1 - s.leader]):
        return play_out_value(s, sv.rules)
    cdef int low, high
    if sv.rules.trick_point == EVERY_TRICK and sv.rules.last_trick_mode == LAST_TOTAL:
        value_bounds(s, sv.rules, &low, &high)
        if low >= beta:
            return low
        if high <= alpha:
            return high
    sv.nodes += 1
    use_table = s.tricks_done <= TRICKS - TT_MIN_CARDS
    first = -1
    if use_table:
        key = relative_key(s.hand[ELDER], s.hand[YOUNGER]) | (<uint64_t>state_extra(s, sv.rules) << 40)
        e = &sv.table[tt_index(key)]
    if use_table and e.key == key:
        # Stored bounds cut off directly; they do not narrow the window (narrowing gave wrong
        # values here, caught by the tests that compare the search methods with each other).
        if e.lower >= beta:
            return e.lower
        if e.upper <= alpha:
            return e.upper
        first = absolute_card(e.best, s.hand[ELDER] | s.hand[YOUNGER])
    alpha0 = alpha
    beta0 = beta
    n = group_tops(s.hand[s.leader], s.hand[1 - s.leader], moves)
    order_leads(moves, n, s.hand[1 - s.leader])
    # the killer lead of this depth, then the table's best lead, go first
    move_to_front(moves, n, sv.killer[s.leader][TRICKS - s.tricks_done])
    move_to_front(moves, n, first)
    best = -INF if maximise else INF
    cdef int chosen = moves[0]
    for i in range(n):
        # the follower's best reply to this lead (he minimises when elder leads)
        n_replies = group_tops(legal_follows(s.hand[1 - s.leader], moves[i]),
                               s.hand[s.leader] & ~((<mask32>1) << moves[i]), replies)
        order_replies(replies, n_replies, moves[i], s.hand[s.leader])
        a2 = alpha
        b2 = beta
        v = INF if maximise else -INF
        for j in range(n_replies):
            child = s[0]
            play_trick(&child, moves[i], replies[j], sv.rules)
            delta = trick_delta(s, &child, sv.rules)
            w = delta + search(sv, &child, a2 - delta, b2 - delta)
            if maximise:
                if w < v:
                    v = w
                if v < b2:
                    b2 = v
            else:
                if w > v:
                    v = w
                if v > a2:
                    a2 = v
            if a2 >= b2:
                break
        if maximise:
            if v > best:
                best = v
                chosen = moves[i]
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
                chosen = moves[i]
            if best < beta:
                beta = best
        if alpha >= beta:
            sv.killer[s.leader][TRICKS - s.tricks_done] = moves[i]
            break
    if not use_table:
        return best
    if e.key != key:
        e.key = key
        e.lower = -INF
        e.upper = INF
    if best <= alpha0:
        e.upper = best
    elif best >= beta0:
        e.lower = best
    else:
        e.lower = best
        e.upper = best
    e.best = <int8_t>relative_card(chosen, s.hand[ELDER] | s.hand[YOUNGER])
    return best


cdef inline int follow_value(Solver *sv, const PlayState *s, int lead, int alpha, int beta,
                             int *best_follow) noexcept nogil:
    """Value of the position after `lead` was led by s.leader, the follower choosing optimally."""
    cdef int moves[MAX_MOVES]
    cdef int n, i, v, delta, best
    cdef int follower = 1 - s.leader
    cdef int minimise = follower == YOUNGER
    cdef PlayState child
    cdef mask32 legal = legal_follows(s.hand[follower], lead)
    n = group_tops(legal, s.hand[s.leader] & ~((<mask32>1) << lead), moves)
    best = INF if minimise else -INF
    best_follow[0] = moves[0]
    for i in range(n):
        child = s[0]
        play_trick(&child, lead, moves[i], sv.rules)
        delta = trick_delta(s, &child, sv.rules)
        v = delta + search(sv, &child, alpha - delta, beta - delta)
        if minimise:
            if v < best:
                best = v
                best_follow[0] = moves[i]
            if best < beta:
                beta = best
        else:
            if v > best:
                best = v
                best_follow[0] = moves[i]
            if best > alpha:
                alpha = best
        if alpha >= beta:
            break
    return best


cdef inline int move_value(Solver *sv, const PlayState *s, int lead, int card, int alpha, int beta) noexcept nogil:
    """Value to go of playing `card` now: as the leader when lead < 0, else as the follower to `lead`."""
    cdef PlayState child
    cdef int follow, delta
    if lead < 0:
        return follow_value(sv, s, card, alpha, beta, &follow)
    child = s[0]
    play_trick(&child, lead, card, sv.rules)
    delta = trick_delta(s, &child, sv.rules)
    return delta + search(sv, &child, alpha - delta, beta - delta)


cdef inline int position_value(Solver *sv, const PlayState *s, int lead, int alpha, int beta) noexcept nogil:
    """Value to go with the player to move choosing: the leader when lead < 0, else the follower
    to `lead`."""
    cdef int follow
    if lead < 0:
        return search(sv, s, alpha, beta)
    return follow_value(sv, s, lead, alpha, beta, &follow)


cdef inline int mtdf(Solver *sv, const PlayState *s, int lead, int guess) noexcept nogil:
    """The exact value to go of the position to move (as in position_value) by a sequence of
    zero-window searches converging on it (MTD(f)); the transposition table carries the bounds
    from one pass to the next."""
    cdef int g = guess, lower = -INF, upper = INF, beta
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = position_value(sv, s, lead, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


cdef inline int reaches(Solver *sv, const PlayState *s, int lead, int card, int value) noexcept nogil:
    """Does playing `card` keep the exact value `value` of the position to move? One zero-window
    search: no move of the player to move does better than the position's value."""
    if (s.leader if lead < 0 else 1 - s.leader) == ELDER:
        return move_value(sv, s, lead, card, value - 1, value) >= value
    return move_value(sv, s, lead, card, value, value + 1) <= value


cdef inline int candidate_moves(const PlayState *s, int lead, int *moves) noexcept nogil:
    """Distinct moves of the player to move (one per group of equivalent cards)."""
    if lead < 0:
        return group_tops(s.hand[s.leader], s.hand[1 - s.leader], moves)
    return group_tops(legal_follows(s.hand[1 - s.leader], lead),
                      s.hand[s.leader] & ~((<mask32>1) << lead), moves)


cdef inline int best_move(Solver *sv, const PlayState *s, int lead, int *value) noexcept nogil:
    """The double-dummy best card for the player to move (the first of equal ones in the order of
    candidate_moves) and the value to go."""
    cdef int moves[MAX_MOVES]
    cdef int n = candidate_moves(s, lead, moves), i
    value[0] = mtdf(sv, s, lead, 0)
    for i in range(n - 1):
        if reaches(sv, s, lead, moves[i], value[0]):
            return moves[i]
    return moves[n - 1]
