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
# Speed comes from the bounds of the value to go (cashable and stopper tricks, every scoring),
# sweeps played out directly, a small cache-resident table, a killer lead per depth and the
# table's lead tried first, leads from the suits where the follower is shorter, and zero-window
# searches (MTD(f); one zero-window test per card to find the best cards). The tests compare
# every entry point with plain minimax on endgames and with the values of the unoptimised solver
# on whole deals (tests/golden/piquet/dd_full_deals.json).

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t
from libc.stdlib cimport calloc, free

from bitboard cimport mask32, lowest_bit32, highest_bit32, clear_lowest32, popcount32
from piquet_rules cimport (PiquetRules, PlayState, play_trick, legal_follows, TRICKS, ELDER, YOUNGER,
                           UNTIL_OPPONENT_SCORES, EVERY_TRICK, LAST_EXTRA)

cdef enum:
    TT_BITS = 14                 # 16K entries of 16 bytes: small enough to stay in the cache
    TT_SIZE = 1 << TT_BITS
    TT_MIN_CARDS = 3             # positions with fewer cards per hand are searched without the table
    INF = 30000
    MAX_MOVES = 12


cdef struct TTEntry:             # 16 bytes; an empty entry has key == 0, which no position has
    uint64_t key                 # the hands' four 9-bit suit codes | state_extra << 40
    int16_t lower
    int16_t upper
    int8_t best                  # the best lead, as 8 * suit + its rank among the suit's cards in play


cdef enum:
    # Fields of a suit's facts (suit_facts, by suit code), summed over the four suits.
    ELDER_STOPS = 0              # 4 bits each: stopper tricks (stopper_tricks) of elder, of younger,
    YOUNGER_STOPS = 4            # and the tricks elder, younger can cash leading (sure_tricks)
    ELDER_CASH = 8
    YOUNGER_CASH = 12
    ELDER_BEATS = 16             # 3 bits each: suits where the first rule of a sweep holds (see
    YOUNGER_BEATS = 19           # search): the leader's cards all beat the follower's, or the
    YOUNGER_SWEEPS = 22          # follower (younger when elder leads, elder when younger leads)
    ELDER_SWEEPS = 25            # wins every lead of the suit
    SUITS_ALL = 4


cdef struct Solver:
    TTEntry *table
    const PiquetRules *rules
    long nodes
    int killer[2][TRICKS + 1]    # per leader and cards left: the last lead that cut off there
    uint8_t squeeze4[256]        # [in-play nibble << 4 | younger's nibble]: younger's bits squeezed
    uint32_t suit_facts[512]     # by suit code (see suit_code): counts packed as in the enum above
    # min / max over elder's final trick count E in [lo, hi] of end_value, by announcement + 1,
    # sigma (0: younger takes the last trick, 1: elder), lo, hi; +-INF for an empty range
    int end_min[3][2][TRICKS + 2][TRICKS + 1]
    int end_max[3][2][TRICKS + 2][TRICKS + 1]
    int base_lead[2]             # the rest of the value to go (value_bounds): base_lead[leader]
    int base_r                   #   - base_r * tricks to come - base_won * elder's tricks so far
    int base_won

cdef inline void fill_suit_tables(Solver *sv) noexcept nogil:
    """squeeze4, and the facts of every suit code, computed from the two hands' cards of the suit
    (ranks 0..len-1, younger's where the code has a 1)."""
    cdef int x, y, i, k, c, code, length, mask
    cdef mask32 elder, younger
    cdef uint32_t f
    for x in range(16):
        for y in range(16):
            k = 0
            i = 0
            for c in range(4):
                if (x >> c) & 1:
                    i |= ((y >> c) & 1) << k
                    k += 1
            sv.squeeze4[x << 4 | y] = <uint8_t>i
    sv.suit_facts[0] = 0             # no suit has code 0 (the length mark is always there)
    for code in range(1, 512):
        length = highest_bit32(code)
        mask = (1 << length) - 1
        younger = code & mask
        elder = ~code & mask
        f = <uint32_t>stopper_tricks(elder, younger) << ELDER_STOPS
        f |= <uint32_t>stopper_tricks(younger, elder) << YOUNGER_STOPS
        f |= <uint32_t>sure_tricks(elder, younger) << ELDER_CASH
        f |= <uint32_t>sure_tricks(younger, elder) << YOUNGER_CASH
        f |= <uint32_t>beats_all(elder, younger) << ELDER_BEATS
        f |= <uint32_t>beats_all(younger, elder) << YOUNGER_BEATS
        f |= <uint32_t>follower_sweeps(elder, younger) << YOUNGER_SWEEPS
        f |= <uint32_t>follower_sweeps(younger, elder) << ELDER_SWEEPS
        sv.suit_facts[code] = f


cdef inline int end_value(const PiquetRules *rules, int announced, int sigma, int elder_total, int high) noexcept nogil:
    """The part of the value to go that depends on how the play ends (see value_bounds): elder's
    final trick count E, sigma = +1 if elder takes the last trick, -1 if younger does; the lower
    (high = 0) or upper (high = 1) end of its possible values."""
    cdef int younger_total = TRICKS - elder_total, v, bonus = 0
    cdef int capot_last = not rules.capot_keeps_last_trick and (
        (sigma == 1 and elder_total == TRICKS) or (sigma == -1 and younger_total == TRICKS))
    if rules.trick_point == EVERY_TRICK:
        v = 4 * elder_total
        if rules.last_trick_mode == LAST_EXTRA:
            v += (rules.last_trick_value - 1) * sigma
        else:
            v += ((1 if capot_last else rules.last_trick_value) - 2) * sigma
    else:
        v = 2 * elder_total - (sigma + 1) // 2
        if rules.last_trick_mode == LAST_EXTRA:
            v += rules.last_trick_value * sigma
        elif not capot_last:
            # the last trick's value replaces its follower point, which is sigma or 0
            v += rules.last_trick_value * sigma - ((sigma if sigma < 0 else 0) if high else (sigma if sigma > 0 else 0))
    if elder_total == TRICKS:
        bonus += rules.open_capot_bonus if announced == ELDER else rules.capot_bonus
    elif younger_total == TRICKS:
        bonus -= rules.open_capot_bonus if announced == YOUNGER else rules.capot_bonus
    elif elder_total * 2 > TRICKS:
        bonus += rules.majority_bonus
    elif younger_total * 2 > TRICKS:
        bonus -= rules.majority_bonus
    if announced == ELDER and elder_total != TRICKS:
        bonus -= rules.open_capot_fail_penalty
    elif announced == YOUNGER and younger_total != TRICKS:
        bonus += rules.open_capot_fail_penalty
    return v + bonus


cdef inline void fill_end_tables(Solver *sv, const PiquetRules *rules) noexcept nogil:
    cdef int a, sg, lo, hi, e
    if rules.trick_point == EVERY_TRICK:     # lead_1 - 2r - 4 won (value_bounds)
        sv.base_lead[ELDER], sv.base_lead[YOUNGER], sv.base_r, sv.base_won = 1, -1, 2, 4
    else:                                    # (lead_1 + 1) / 2 - r - 2 won
        sv.base_lead[ELDER], sv.base_lead[YOUNGER], sv.base_r, sv.base_won = 1, 0, 1, 2
    for a in range(3):
        for sg in range(2):
            for lo in range(TRICKS + 2):
                for hi in range(TRICKS + 1):
                    sv.end_min[a][sg][lo][hi] = INF
                    sv.end_max[a][sg][lo][hi] = -INF
                    for e in range(lo, hi + 1):
                        sv.end_min[a][sg][lo][hi] = min(sv.end_min[a][sg][lo][hi], end_value(rules, a - 1, 2 * sg - 1, e, 0))
                        sv.end_max[a][sg][lo][hi] = max(sv.end_max[a][sg][lo][hi], end_value(rules, a - 1, 2 * sg - 1, e, 1))


cdef inline int solver_init(Solver *sv, const PiquetRules *rules) noexcept nogil:
    cdef int i
    sv.table = <TTEntry *>calloc(TT_SIZE, sizeof(TTEntry))
    sv.rules = rules
    sv.nodes = 0
    for i in range(TRICKS + 1):
        sv.killer[0][i] = -1
        sv.killer[1][i] = -1
    fill_suit_tables(sv)
    fill_end_tables(sv, rules)
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


cdef inline uint32_t suit_code(const Solver *sv, mask32 in_play, mask32 younger, int suit) noexcept nogil:
    """A suit with the cards out of play squeezed out: one bit per card still in play from the
    lowest up (1 = younger's) and a 1 above them to mark the length, nine bits. Play values
    depend only on these codes (no card is worth points by its rank), so positions reached by
    playing different cards of the same relative standing share a table entry."""
    cdef uint32_t lane = (in_play >> (8 * suit)) & 0xFF, mine = (younger >> (8 * suit)) & 0xFF
    cdef uint32_t low = lane & 15
    return (sv.squeeze4[(low << 4) | (mine & 15)]
            | (<uint32_t>sv.squeeze4[(lane & 0xF0) | (mine >> 4)] << popcount32(low))
            | (1u << popcount32(lane)))


cdef inline uint32_t field(uint32_t facts, int shift, int bits) noexcept nogil:
    return (facts >> shift) & ((1u << bits) - 1)


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


cdef inline mask32 group_top_mask(mask32 mine, mask32 theirs) noexcept nogil:
    """The highest card of each group of equivalent cards in `mine` (cards with no card of
    `theirs` between them in the same suit)."""
    # below: the cards whose next higher card in play of the same suit is mine, found for all
    # suits at once by letting "mine is next" run down through the cards out of play
    # (a doubling fill; bit 7 of each suit is masked so nothing crosses into the suit below).
    cdef mask32 below = (mine >> 1) & 0x7F7F7F7F
    cdef mask32 through = (~(mine | theirs) >> 1) & 0x7F7F7F7F
    below |= through & (below >> 1)
    through &= through >> 1
    below |= through & (below >> 2)
    through &= through >> 2
    below |= through & (below >> 4)
    return mine & ~below


cdef inline int group_tops(mask32 mine, mask32 theirs, int *moves) noexcept nogil:
    """One card of each group of equivalent cards in `mine`, highest card first."""
    cdef mask32 tops = group_top_mask(mine, theirs)
    cdef int n = 0, c
    while tops:
        c = highest_bit32(tops)
        tops &= ~((<mask32>1) << c)
        moves[n] = c
        n += 1
    return n


cdef inline int insert_move(int *moves, int *key, int n, int m, int k) noexcept nogil:
    """Insert move m with sort key k into moves[:n], kept in ascending keys, before the moves of an
    equal key: the moves come lowest card first (mostly in key order, so little is shifted) and
    of equal keys the higher card goes first."""
    cdef int j = n
    while j > 0 and key[j - 1] >= k:
        moves[j] = moves[j - 1]
        key[j] = key[j - 1]
        j -= 1
    moves[j] = m
    key[j] = k
    return n + 1


cdef inline int ordered_leads(mask32 mine, mask32 theirs, int *moves) noexcept nogil:
    """group_tops of the leader's hand in the order to try them: suits where the follower holds
    fewer cards than the leader first (by the difference), higher cards first within a suit.
    (Measured against sure winners first and lower cards first: 27% fewer nodes.)"""
    cdef mask32 tops = group_top_mask(mine, theirs), lane
    cdef int key[MAX_MOVES]
    cdef int n = 0, m
    while tops:
        m = lowest_bit32(tops)
        tops &= tops - 1
        lane = theirs & ((<mask32>0xFF) << (m & ~7))
        n = insert_move(moves, key, n, m, (7 - (m & 7)) + 8 * (popcount32(lane) - popcount32(mine & ((<mask32>0xFF) << (m & ~7)))))
    return n


cdef inline int ordered_replies(mask32 legal, mask32 leader_hand, int lead, int *moves) noexcept nogil:
    """group_tops of the follower's legal cards against the leader's hand (the lead card still in
    it: cards on both sides of it are not equivalent in this trick), in the order to try them:
    the cheapest card that wins first, then the lowest cards, discards from the suits where the
    leader is longest against the follower first."""
    cdef mask32 tops = group_top_mask(legal, leader_hand), lane
    cdef int key[MAX_MOVES]
    cdef int n = 0, m
    while tops:
        m = lowest_bit32(tops)
        tops &= tops - 1
        if (m >> 3) == (lead >> 3) and m > lead:
            n = insert_move(moves, key, n, m, m - 64)
        else:
            lane = (<mask32>0xFF) << (m & ~7)
            n = insert_move(moves, key, n, m, (m & 7) - 8 * (popcount32(leader_hand & lane) - popcount32(legal & lane)))
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


cdef inline void value_bounds(const Solver *sv, const PlayState *s, uint32_t facts, int *low, int *high) noexcept nogil:
    """Bounds of the value to go. It depends on the rest of the play only through t, elder's tricks
    out of the r to come, and sigma = +1 if elder takes the last trick (-1 if younger does). With
    lead_k, win_k = +1 for elder, -1 for younger (the leader and the winner of the k-th trick to
    come; lead_1 = the leader now, lead_{k+1} = win_k):
      leads: sum of lead_k = lead_1 + sum_{k<r} win_k = lead_1 + (2t - r) - sigma;
      every_trick: the trick points are sum of win_k = 2t - r;
      follower_only: the follower scores a trick he wins, win_k when win_k = -lead_k, i.e.
        (win_k - lead_k) / 2, summing to (sigma - lead_1) / 2;
      last trick: `extra` adds last * sigma; `total` replaces that trick's point by last * sigma
        (not in a capot unless capot_keeps_last_trick): that point is sigma under every_trick,
        sigma or 0 under follower_only (it depends on who led the last trick, so both ends count);
      bonuses (majority, capot, open capot) follow from the final counts.
    So every_trick: lead_1 - 2r + 4t + (last' - 1 or - 2) * sigma + bonuses, and follower_only:
    (lead_1 + 1) / 2 - r + 2t - (sigma + 1) / 2 + last-trick term + bonuses; end_value holds the
    part that depends on E = won + t and sigma, the tables its min / max over a range of E.
    Each player takes at least his stopper tricks, and the leader at least the tricks he can
    cash (both sound whatever the scoring: they only count tricks), which bounds t; elder takes
    the last trick only if t >= 1, younger only if t <= r - 1. A pending pik may or may not come
    (pik_bonus >= 0). The tests check the bounds against exact values on random endgames."""
    cdef int r = TRICKS - s.tricks_done, won = s.tricks_won[ELDER]
    cdef int t_lo = field(facts, ELDER_STOPS, 4), y_lo = field(facts, YOUNGER_STOPS, 4)
    if s.leader == ELDER:
        t_lo = max(t_lo, <int>field(facts, ELDER_CASH, 4))
    else:
        y_lo = max(y_lo, <int>field(facts, YOUNGER_CASH, 4))
    cdef int e_lo = won + t_lo, e_hi = won + r - y_lo
    cdef int lo_elder_last = max(e_lo, won + 1), hi_younger_last = min(e_hi, won + r - 1)
    cdef int a = s.announced + 1
    cdef int base = sv.base_lead[s.leader] - sv.base_r * r - sv.base_won * won
    low[0] = base + min(sv.end_min[a][1][lo_elder_last][e_hi], sv.end_min[a][0][e_lo][hi_younger_last])
    high[0] = base + max(sv.end_max[a][1][lo_elder_last][e_hi], sv.end_max[a][0][e_lo][hi_younger_last])
    if pik_need(s, sv.rules) > 0:
        high[0] += sv.rules.pik_bonus


cdef inline uint32_t position_facts(const Solver *sv, const PlayState *s, uint32_t *codes) noexcept nogil:
    """The four suit codes of the hands, and their facts summed."""
    cdef mask32 in_play = s.hand[ELDER] | s.hand[YOUNGER]
    cdef uint32_t facts = 0
    cdef int suit
    for suit in range(4):
        codes[suit] = suit_code(sv, in_play, s.hand[YOUNGER], suit)
        facts += sv.suit_facts[codes[suit]]
    return facts


cdef inline void position_bounds(const Solver *sv, const PlayState *s, int *low, int *high) noexcept nogil:
    """value_bounds of a position at the start of a trick (for the tests)."""
    cdef uint32_t codes[4]
    value_bounds(sv, s, position_facts(sv, s, codes), low, high)


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
    cdef uint32_t codes[4]
    if s.tricks_done == TRICKS:
        return terminal_value(s, sv.rules)
    return search_coded(sv, s, codes, position_facts(sv, s, codes), alpha, beta)


cdef inline int search_coded(Solver *sv, const PlayState *s, const uint32_t *codes, uint32_t facts,
                             int alpha, int beta) noexcept nogil:
    """search, given the position's suit codes and facts (a trick changes only the codes of the
    one or two suits its cards come from, so the children's codes are updated, not recomputed)."""
    cdef int moves[MAX_MOVES]
    cdef int replies[MAX_MOVES]
    cdef int n, i, j, n_replies, v, w, delta, best, alpha0, beta0, first, suit
    cdef int maximise = s.leader == ELDER
    cdef int a2, b2
    cdef PlayState child
    cdef uint32_t child_codes[4]
    cdef uint32_t child_facts
    cdef uint64_t key = 0
    cdef TTEntry *e = NULL
    cdef int use_table, sweep
    if s.tricks_done == TRICKS:
        return terminal_value(s, sv.rules)
    # the trick winners no longer depend on the cards chosen: the leader's cards all beat the
    # follower's (beats_all), or the follower wins whatever is led (follower_sweeps)
    if s.leader == ELDER:
        sweep = field(facts, ELDER_BEATS, 3) == SUITS_ALL or field(facts, YOUNGER_SWEEPS, 3) == SUITS_ALL
    else:
        sweep = field(facts, YOUNGER_BEATS, 3) == SUITS_ALL or field(facts, ELDER_SWEEPS, 3) == SUITS_ALL
    if sweep:
        return play_out_value(s, sv.rules)
    cdef int low, high
    value_bounds(sv, s, facts, &low, &high)
    if low >= beta:
        return low
    if high <= alpha:
        return high
    sv.nodes += 1
    use_table = s.tricks_done <= TRICKS - TT_MIN_CARDS
    first = -1
    if use_table:
        key = (codes[0] | (<uint64_t>codes[1] << 9) | (<uint64_t>codes[2] << 18) | (<uint64_t>codes[3] << 27)
               | (<uint64_t>state_extra(s, sv.rules) << 40))
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
    n = ordered_leads(s.hand[s.leader], s.hand[1 - s.leader], moves)
    # the killer lead of this depth goes first, the table's best lead early (in the killer's place)
    move_to_front(moves, n, first)
    move_to_front(moves, n, sv.killer[s.leader][TRICKS - s.tricks_done])
    best = -INF if maximise else INF
    cdef int chosen = moves[0]
    for i in range(n):
        # the follower's best reply to this lead (he minimises when elder leads)
        n_replies = ordered_replies(legal_follows(s.hand[1 - s.leader], moves[i]), s.hand[s.leader],
                                    moves[i], replies)
        a2 = alpha
        b2 = beta
        v = INF if maximise else -INF
        for j in range(n_replies):
            child = s[0]
            play_trick(&child, moves[i], replies[j], sv.rules)
            delta = trick_delta(s, &child, sv.rules)
            child_codes[0] = codes[0]
            child_codes[1] = codes[1]
            child_codes[2] = codes[2]
            child_codes[3] = codes[3]
            child_facts = facts
            suit = moves[i] >> 3
            child_facts -= sv.suit_facts[codes[suit]]
            child_codes[suit] = suit_code(sv, child.hand[ELDER] | child.hand[YOUNGER], child.hand[YOUNGER], suit)
            child_facts += sv.suit_facts[child_codes[suit]]
            suit = replies[j] >> 3
            if suit != moves[i] >> 3:
                child_facts -= sv.suit_facts[codes[suit]]
                child_codes[suit] = suit_code(sv, child.hand[ELDER] | child.hand[YOUNGER], child.hand[YOUNGER], suit)
                child_facts += sv.suit_facts[child_codes[suit]]
            w = delta + search_coded(sv, &child, child_codes, child_facts, a2 - delta, b2 - delta)
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
    n = group_tops(legal, s.hand[s.leader], moves)
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
                      s.hand[s.leader], moves)


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
