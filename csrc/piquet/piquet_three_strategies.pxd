# Three-handed piquet strategies, compiled: the dealer's exchange (refuse, heuristic,
# best_expected) and card play (random, greedy, pimc).
#
# The heuristic exchange reuses the two-handed keep values (piquet_strategies.pxd:
# heuristic_discard); random play reuses random_card. A player's knowledge (View3) is his own
# hand, his own discards (the dealer), every declaration score, the cards played and the suits
# each opponent has shown out of.

from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memset

from bitboard cimport mask32, lowest_bit32, highest_bit32, popcount32
from rng cimport Rng, rng_below, rng_partial_shuffle
from piquet_rules cimport PiquetRules, SuitTables, HandEval, evaluate_hand, N_CATEGORIES
from piquet_strategies cimport random_card, lowest_of_longest, lowest_of_shortest
from piquet_three_rules cimport *

cdef enum:  # strategy codes (the order of the names in analyzer/games/piquet_three.py)
    EXCHANGE3_REFUSE = 0
    EXCHANGE3_HEURISTIC = 1
    EXCHANGE3_BEST_EXPECTED = 2
    PLAY3_RANDOM = 0
    PLAY3_GREEDY = 1
    PLAY3_PIMC = 2
    EXPECTED3_SAMPLES = 24
    PIMC3_SAMPLES = 12
    PIMC3_MAX_TRIES = 200
    PIMC3_EXACT_TRICKS = 3       # from this many tricks before the end, search instead of playouts
    VALUE_INF = 1000000


# ---------------------------------------------------------------------------------------------
# The dealer's exchange

cdef inline int deal_value(const DeclThree *d, int me, const ThreeRules *rules) noexcept nogil:
    """Twice my declaration points (repik included) minus both opponents' (the value of the
    declarations against the mean opponent, doubled to stay an integer)."""
    cdef int p, v = 0
    for p in range(PLAYERS3):
        v += (2 if p == me else -1) * (d.total[p] + d.repik[p] * rules.repik_bonus)
    return v


cdef inline mask32 best_expected_exchange(Rng *rng, mask32 hand, int cb_dealer, const SuitTables *t,
                                          const ThreeRules *rules) noexcept nogil:
    """Every allowed exchange (refusing, and each k-card discard for each allowed k) is scored by
    the mean of deal_value over EXPECTED3_SAMPLES sampled layouts of the 22 unseen cards (the same
    samples for every choice): the talon is the first two cards of a sample, the first leader's
    hand the next ten, the third's the last ten. The best estimate wins (refusing first on ties)."""
    cdef uint8_t pool[32]
    cdef uint8_t perms[EXPECTED3_SAMPLES * 32]
    cdef int cards[HAND3]
    cdef int n_pool = 0, i, j, k, best = -2147483647, v, n_hand = 0
    cdef mask32 rest = ~hand, best_discard = 0, discard, mine
    cdef uint32_t sub, low, ripple
    cdef HandEval ev[PLAYERS3]
    cdef int cb[PLAYERS3]
    cdef DeclThree d
    cdef mask32 talon, other[2]
    while rest:
        pool[n_pool] = <uint8_t>lowest_bit32(rest)
        n_pool += 1
        rest &= rest - 1
    for i in range(EXPECTED3_SAMPLES):
        for j in range(n_pool):
            perms[i * n_pool + j] = <uint8_t>j
        rng_partial_shuffle(rng, perms + i * n_pool, n_pool, n_pool - 1)
    rest = hand
    while rest:
        cards[n_hand] = lowest_bit32(rest)
        n_hand += 1
        rest &= rest - 1
    cb[0] = cb_dealer
    cb[1] = 0                      # the others' carte blanche is not worth sampling
    cb[2] = 0
    for k in range(TALON3 + 1):
        if not (rules.dealer_counts >> k & 1):
            continue
        sub = (1u << k) - 1
        while sub < (1u << n_hand):
            discard = 0
            for i in range(n_hand):
                if sub >> i & 1:
                    discard |= (<mask32>1) << cards[i]
            v = 0
            for i in range(EXPECTED3_SAMPLES):
                talon = 0
                other[0] = 0
                other[1] = 0
                for j in range(TALON3):
                    talon |= (<mask32>1) << pool[perms[i * n_pool + j]]
                for j in range(HAND3):
                    other[0] |= (<mask32>1) << pool[perms[i * n_pool + TALON3 + j]]
                    other[1] |= (<mask32>1) << pool[perms[i * n_pool + TALON3 + HAND3 + j]]
                mine = hand & ~discard
                for j in range(k):
                    mine |= (<mask32>1) << pool[perms[i * n_pool + j]]
                evaluate_hand(mine, t, &rules.base, &ev[DEALER])
                evaluate_hand(other[0], t, &rules.base, &ev[FIRST])
                evaluate_hand(other[1], t, &rules.base, &ev[THIRD])
                score_declarations_three(ev, cb, rules, &d)
                v += deal_value(&d, DEALER, rules)
            if v > best:
                best = v
                best_discard = discard
            if k == 0:
                break
            low = sub & (~sub + 1)
            ripple = sub + low
            sub = (((ripple ^ sub) >> 2) // low) | ripple
    return best_discard


# ---------------------------------------------------------------------------------------------
# What a player knows during the play

cdef struct View3:
    int me
    mask32 known_out             # his discards (the dealer after an exchange)
    mask32 played                # cards played by anyone
    mask32 opp_played[PLAYERS3]  # cards each player has played
    mask32 void[PLAYERS3]        # suits (full lanes) each player has shown out of
    int decl_score[PLAYERS3][N_CATEGORIES]


cdef inline void view_after_trick3(View3 *v, int leader, const int *cards) noexcept nogil:
    cdef int i, p
    for i in range(PLAYERS3):
        p = (leader + i) % 3
        v.played |= (<mask32>1) << cards[i]
        v.opp_played[p] |= (<mask32>1) << cards[i]
        if i and (cards[i] >> 3) != (cards[0] >> 3):
            v.void[p] |= (<mask32>0xFF) << (cards[0] & ~7)


# ---------------------------------------------------------------------------------------------
# Card play

cdef inline int greedy_card3(const ThreeState *s, int n_played, const int *trick, mask32 known_gone) noexcept nogil:
    """Leader: cash a master card (the highest of its suit among the cards not known to be gone)
    from the longest such suit, else lead the lowest card of the longest suit.
    Follower: beat the best card so far as cheaply as possible; if he cannot, play the lowest card
    of the suit; void: throw the lowest card of the shortest suit."""
    cdef int me = (s.leader + n_played) % 3
    cdef mask32 hand = s.hand[me], lane, suit_cards, unknown, winners
    cdef int suit, best_len, best = -1, n, top, i, high
    if n_played == 0:
        unknown = ~(hand | known_gone)
        best_len = -1
        for suit in range(4):
            lane = (<mask32>0xFF) << (8 * suit)
            suit_cards = hand & lane
            if not suit_cards:
                continue
            top = highest_bit32(suit_cards)
            if not (unknown & lane & ~(((<mask32>2) << top) - 1)):
                n = popcount32(suit_cards)
                if n > best_len:
                    best_len = n
                    best = top
        if best >= 0:
            return best
        return lowest_of_longest(hand)
    lane = (<mask32>0xFF) << (trick[0] & ~7)
    suit_cards = hand & lane
    if not suit_cards:
        return lowest_of_shortest(hand)
    high = trick[0]
    for i in range(1, n_played):
        if (trick[i] >> 3) == (trick[0] >> 3) and trick[i] > high:
            high = trick[i]
    winners = suit_cards & ~(((<mask32>2) << high) - 1)
    return lowest_bit32(winners) if winners else lowest_bit32(suit_cards)


cdef inline void play_out_greedy(ThreeState *s, int n_played, int *trick, const ThreeRules *rules) noexcept nogil:
    """Finish the deal from a partly played trick with every player greedy and every card
    visible (the state then holds the result)."""
    cdef mask32 gone
    while s.tricks_done < TRICKS3:
        while n_played < PLAYERS3:
            gone = ~(s.hand[0] | s.hand[1] | s.hand[2])
            trick[n_played] = greedy_card3(s, n_played, trick, gone)
            n_played += 1
        play_trick_three(s, trick, rules)
        n_played = 0


cdef inline int rollout_value(const ThreeState *s, int me, const ThreeRules *rules) noexcept nogil:
    """Twice my play points and bonuses minus both opponents' (declarations are fixed)."""
    cdef int p, v = 0, leza, capot, bonus
    for p in range(PLAYERS3):
        bonus = end_bonus(s.tricks_won, p, rules, &leza, &capot)
        v += (2 if p == me else -1) * (s.points[p] + bonus + (rules.pik_bonus if s.pik and s.pik_player == p else 0))
    return v


cdef inline int endgame_value(const ThreeState *s, int n_played, const int *trick, int me, const ThreeRules *rules,
                              int alpha, int beta) noexcept nogil:
    """Exact value of the rest of the deal with every card visible, the player `me` maximising
    rollout_value and the two others minimising it together (a "paranoid" search, alpha-beta).
    The trick in progress holds n_played cards."""
    cdef int seat, c, v, best, i
    cdef int maximise
    cdef int child_trick[PLAYERS3]
    cdef mask32 legal
    cdef ThreeState child
    if n_played == PLAYERS3:
        child = s[0]
        play_trick_three(&child, trick, rules)
        if child.tricks_done == TRICKS3:
            return rollout_value(&child, me, rules)
        return endgame_value(&child, 0, trick, me, rules, alpha, beta)
    seat = (s.leader + n_played) % 3
    legal = legal_cards(s.hand[seat], n_played, trick)
    maximise = seat == me
    best = -VALUE_INF if maximise else VALUE_INF
    for i in range(n_played):
        child_trick[i] = trick[i]
    while legal:
        c = lowest_bit32(legal)
        legal &= legal - 1
        child_trick[n_played] = c
        v = endgame_value(s, n_played + 1, child_trick, me, rules, alpha, beta)
        if maximise:
            if v > best:
                best = v
                alpha = v if v > alpha else alpha
        elif v < best:
            best = v
            beta = v if v < beta else beta
        if alpha >= beta:
            break
    return best


cdef inline int consistent3(const mask32 *final, const View3 *v, const SuitTables *t, const ThreeRules *rules) noexcept nogil:
    """Would these final hands have produced the declaration scores everybody heard?"""
    cdef HandEval ev[PLAYERS3]
    cdef int cb[PLAYERS3]
    cdef DeclThree d
    cdef int p, c
    for p in range(PLAYERS3):
        evaluate_hand(final[p], t, &rules.base, &ev[p])
        cb[p] = v.decl_score[p][0]
    score_declarations_three(ev, cb, rules, &d)
    for p in range(PLAYERS3):
        for c in range(1, N_CATEGORIES):
            if d.score[p][c] != v.decl_score[p][c]:
                return 0
    return 1


cdef inline int sample_hidden(Rng *rng, const ThreeState *s, const View3 *v, const mask32 *in_trick,
                              mask32 *out) noexcept nogil:
    """Deal the cards the player cannot see to his two opponents (as many as each holds),
    respecting the suits they have shown out of; the rest stay out of play. in_trick[p] is the
    card p has put on the trick in progress (still in s.hand until the trick ends). Cards are
    placed in a random order, each to a random place that may take it, weighted by the room left;
    returns 0 on a dead end."""
    cdef int me = v.me, i, c, p, room[PLAYERS3], total, r, n_pool = 0, dest
    cdef uint8_t pool[32]
    cdef mask32 rest = ~(s.hand[me] | v.played | v.known_out | in_trick[0] | in_trick[1] | in_trick[2])
    while rest:
        pool[n_pool] = <uint8_t>lowest_bit32(rest)
        n_pool += 1
        rest &= rest - 1
    rng_partial_shuffle(rng, pool, n_pool, n_pool - 1 if n_pool > 1 else n_pool)
    for p in range(PLAYERS3):
        out[p] = s.hand[p] if p == me else in_trick[p]
        room[p] = 0 if p == me else popcount32(s.hand[p] & ~in_trick[p])
    room[me] = n_pool - room[(me + 1) % 3] - room[(me + 2) % 3]   # cards out of play
    for i in range(n_pool):
        c = pool[i]
        total = 0
        for p in range(PLAYERS3):
            if p == me or not (v.void[p] >> c & 1):
                total += room[p]
        if total <= 0:
            return 0
        r = <int>rng_below(rng, <uint32_t>total)
        dest = me
        for p in range(PLAYERS3):
            if p == me or not (v.void[p] >> c & 1):
                if r < room[p]:
                    dest = p
                    break
                r -= room[p]
        room[dest] -= 1
        if dest != me:
            out[dest] |= (<mask32>1) << c
    return 1


cdef inline int pimc_card3(Rng *rng, const ThreeState *s, int n_played, const int *trick, const View3 *v,
                           const SuitTables *t, const ThreeRules *rules, long *fallbacks) noexcept nogil:
    """Sample the hidden cards PIMC3_SAMPLES times (consistent with the voids shown and, within
    PIMC3_MAX_TRIES tries, with the declarations heard); for each sample and each legal card, play
    the rest of the deal greedily with every card visible and score rollout_value, or, in the last
    PIMC3_EXACT_TRICKS tricks, take its exact paranoid value (endgame_value). Play the card with
    the best total (ties: the lower card). Samples that never pass the declarations check are
    used anyway and counted."""
    cdef int me = v.me, n_moves = 0, i, j, sample, tries, best, ok
    cdef mask32 in_trick[PLAYERS3]
    cdef mask32 legal = legal_cards(s.hand[me], n_played, trick), rest
    cdef int moves[HAND3]
    cdef int totals[HAND3]
    cdef mask32 hidden[PLAYERS3]
    cdef mask32 final[PLAYERS3]
    cdef int work_trick[PLAYERS3]
    cdef ThreeState w
    rest = legal
    while rest:
        moves[n_moves] = lowest_bit32(rest)
        totals[n_moves] = 0
        n_moves += 1
        rest &= rest - 1
    if n_moves == 1:
        return moves[0]
    for j in range(PLAYERS3):
        in_trick[j] = 0
    for j in range(n_played):
        in_trick[(s.leader + j) % 3] = (<mask32>1) << trick[j]
    for sample in range(PIMC3_SAMPLES):
        ok = 0
        for tries in range(PIMC3_MAX_TRIES):
            if sample_hidden(rng, s, v, in_trick, hidden):
                ok = 1
                for j in range(PLAYERS3):
                    final[j] = hidden[j] | v.opp_played[j]
                if consistent3(final, v, t, rules):
                    ok = 2
                    break
        if ok == 1:
            fallbacks[0] += 1          # no consistent layout found: use the last one
        elif ok == 0:
            continue                   # no layout at all: this sample votes for nobody
        for i in range(n_moves):
            w = s[0]
            for j in range(PLAYERS3):
                if j != me:
                    w.hand[j] = hidden[j]
            for j in range(n_played):
                work_trick[j] = trick[j]
            work_trick[n_played] = moves[i]
            if s.tricks_done >= TRICKS3 - PIMC3_EXACT_TRICKS:
                totals[i] += endgame_value(&w, n_played + 1, work_trick, me, rules, -VALUE_INF, VALUE_INF)
            else:
                play_out_greedy(&w, n_played + 1, work_trick, rules)
                totals[i] += rollout_value(&w, me, rules)
    best = 0
    for i in range(1, n_moves):
        if totals[i] > totals[best]:
            best = i
    return moves[best]
