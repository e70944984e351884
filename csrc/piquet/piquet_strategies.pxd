# Piquet strategies, compiled: exchange (refuse, heuristic, best_expected), open-capot
# announcement (sure, never) and card play (random, greedy, double_dummy, pimc).
#
# A player's knowledge (View) is what the rules let him see: his own dealt and final hand, his
# discards, the declined talon cards he may look at, every declaration score and every best holding
# the opponent announced, the cards played so far and the suits the opponent has shown out of.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from bitboard cimport mask32, lowest_bit32, lowest_bit64, highest_bit32, popcount32, suit_lane32, rank_count32, RANK_COLUMN32
from rng cimport Rng, rng_below, rng_partial_shuffle
from piquet_rules cimport *
from piquet_search cimport Solver, group_tops, mtdf, reaches, MAX_MOVES

cdef enum:  # strategy codes (the order of the names in analyzer/games/piquet.py)
    EXCHANGE_REFUSE = 0
    EXCHANGE_HEURISTIC = 1
    EXCHANGE_BEST_EXPECTED = 2
    EXCHANGE_PYTHON = 3          # a user's strategy written in Python (called back with the GIL)
    PLAY_RANDOM = 0
    PLAY_GREEDY = 1
    PLAY_DOUBLE_DUMMY = 2
    PLAY_PIMC = 3
    PLAY_PYTHON = 4
    ANNOUNCE_SURE = 0
    ANNOUNCE_NEVER = 1
    BEST_EXPECTED_SAMPLES = 24
    PIMC_SAMPLES = 16
    PIMC_MAX_TRIES = 2000


# ---------------------------------------------------------------------------------------------
# Exchange

cdef inline int max_allowed(int counts, int available) noexcept nogil:
    cdef int k
    for k in range(available, -1, -1):
        if counts >> k & 1:
            return k
    return -1


cdef enum:
    KEEP_ALWAYS = 15             # keep value from which the heuristic never throws a card
    KEEP_LEVELS = 36             # keep values run from -2 to 33


cdef inline void add_value(int *value, mask32 cards, int points) noexcept nogil:
    while cards:
        value[lowest_bit32(cards)] += points
        cards &= cards - 1


cdef inline void keep_values(mask32 hand, const SuitTables *t, int *value) noexcept nogil:
    """A card's keep value, for every card of the hand:
       rank value (A 6, K 5, Q 4, J 3, T 2, 9 1, 8 and 7 0)
       + 10 in the point suit (longest, then most pips)
       + 8 in a run of three or more, + 3 in a run of two (a tierce in the making)
       + 9 for a ten or better of which the hand holds three or four, + 3 if it holds two
       - 2 for a singleton below the king (a sure loser with nothing to build on)."""
    cdef int s, lane, best_key = -1, point_suit = 0, c, r
    cdef uint32_t four, three, two
    cdef mask32 rest, point_cards, low_singletons = 0, pairs, triples, run3, run2, set3, set2
    for s in range(4):
        lane = suit_lane32(hand, s)
        if t.point_key[lane] > best_key:
            best_key = t.point_key[lane]
            point_suit = s
        if t.length[lane] == 1:
            low_singletons |= hand & ((<mask32>0x3F) << (8 * s))       # seven to queen
    point_cards = hand & ((<mask32>0xFF) << (8 * point_suit))
    # runs: bit c of pairs (triples) is set if the hand holds c and the next one (two) ranks up
    pairs = hand & (hand >> 1) & 0x7F7F7F7F
    triples = pairs & (pairs >> 1) & 0x7F7F7F7F
    run3 = triples | (triples << 1) | (triples << 2)
    run2 = (pairs | (pairs << 1)) & ~run3
    # sets: the ranks held three or four times, and exactly twice, copied to every suit
    rank_multiples(hand, &four, &three, &two)
    set3 = hand & (three & SET_RANKS) * RANK_COLUMN32
    set2 = hand & (two & ~three & SET_RANKS) * RANK_COLUMN32
    rest = hand
    while rest:
        c = lowest_bit32(rest)
        rest &= rest - 1
        r = c & 7
        value[c] = r - 1 if r else 0
    add_value(value, point_cards, 10)
    add_value(value, run3, 8)
    add_value(value, run2, 3)
    add_value(value, set3, 9)
    add_value(value, set2, 3)
    add_value(value, low_singletons, -2)


cdef inline mask32 heuristic_discard(mask32 hand, int counts, int available, const SuitTables *t) noexcept nogil:
    """The cards the heuristic throws: the ones of lowest keep value (keep_values; ties go to the
    lower card), as many as the rules allow but not so many that it must throw a card worth keeping
    (keep value KEEP_ALWAYS or more: part of a quatorze of aces, the point suit's run...). So a
    made hand such as four aces with a sixième throws only its spare cards, or stands pat if the
    rules allow; if they demand more cards than it can spare, it takes the fewest allowed."""
    cdef int value[N_CARDS]
    cdef mask32 by_value[KEEP_LEVELS]    # the cards of each keep value (+ 2: values start at -2)
    cdef uint64_t levels = 0             # the keep values held (+ 2)
    cdef int spare = 0, k, c, i, v
    cdef mask32 rest = hand, out = 0, cards
    keep_values(hand, t, value)
    while rest:
        c = lowest_bit32(rest)
        rest &= rest - 1
        spare += value[c] < KEEP_ALWAYS
        v = value[c] + 2
        by_value[v] = (by_value[v] if levels >> v & 1 else 0) | (<mask32>1) << c
        levels |= (<uint64_t>1) << v
    k = max_allowed(counts, spare if spare < available else available)
    if k < 0:                            # the rules demand more than it can spare: the fewest allowed
        k = 0
        for i in range(1, available + 1):
            if counts >> i & 1:
                k = i
                break
    while k:                             # the k lowest values; the lower card first on a tie
        cards = by_value[lowest_bit64(levels)]
        levels &= levels - 1
        while cards and k:
            out |= cards & (~cards + 1)
            cards &= cards - 1
            k -= 1
    return out


cdef inline int expected_contest(mask32 kept, int k, const uint8_t *pool, int n_pool, int n_samples,
                                 const uint8_t *perms, int my_cb, int me, const SuitTables *t,
                                 const PiquetRules *rules) noexcept nogil:
    """Sum over the sampled talons of (my declaration points - the opponent's), repik bonuses
    included, for the hand `kept` completed with the first k cards of each sample; the opponent
    holds the next 12 cards of the sample."""
    cdef int i, j, sum_diff = 0
    cdef mask32 mine, theirs
    cdef HandEval ev[2]
    cdef DeclResult res
    cdef const uint8_t *perm
    for i in range(n_samples):
        perm = perms + i * n_pool
        mine = kept
        for j in range(k):
            mine |= (<mask32>1) << pool[perm[j]]
        theirs = 0
        for j in range(k, k + HAND):
            theirs |= (<mask32>1) << pool[perm[j]]
        evaluate_hand(mine, t, rules, &ev[me])
        evaluate_hand(theirs, t, rules, &ev[1 - me])
        if me == ELDER:
            score_declarations(&ev[0], &ev[1], my_cb, 0, rules, &res)
        else:
            score_declarations(&ev[0], &ev[1], 0, my_cb, rules, &res)
        sum_diff += (res.total[me] + res.repik[me] * rules.repik_bonus) - (res.total[1 - me] + res.repik[1 - me] * rules.repik_bonus)
    return sum_diff


cdef inline mask32 best_expected_discard(Rng *rng, mask32 hand, mask32 unseen, int counts, int available,
                                         int my_cb, int me, const SuitTables *t,
                                         const PiquetRules *rules) noexcept nogil:
    """Every legal discard (each allowed count k, each k-subset of the hand) is scored by the
    expected value of (own declaration points + repik bonus) - (the opponent's), estimated on
    BEST_EXPECTED_SAMPLES sampled talons (the same samples for every discard): the draw is the
    first k unseen cards of a sample and the opponent's hand the next twelve. The discard with the
    highest estimate is kept (the first found on ties, refusing first)."""
    cdef uint8_t pool[N_CARDS]
    cdef uint8_t perms[BEST_EXPECTED_SAMPLES * N_CARDS]
    cdef int cards[HAND]
    cdef int n_pool = 0, c, i, j, k, best = -2147483647, v
    cdef mask32 rest = unseen, best_discard = 0, discard
    cdef uint32_t sub, low, ripple
    while rest:
        pool[n_pool] = <uint8_t>lowest_bit32(rest)
        n_pool += 1
        rest &= rest - 1
    for i in range(BEST_EXPECTED_SAMPLES):
        for j in range(n_pool):
            perms[i * n_pool + j] = <uint8_t>j
        rng_partial_shuffle(rng, perms + i * n_pool, n_pool, HAND + ELDER_PACKET if n_pool >= HAND + ELDER_PACKET else n_pool)
    rest = hand
    for i in range(HAND):
        cards[i] = lowest_bit32(rest)
        rest &= rest - 1
    for k in range(0, min(available, ELDER_PACKET) + 1):
        if not (counts >> k & 1) or k + HAND > n_pool:
            continue
        if k == 0:
            v = expected_contest(hand, 0, pool, n_pool, BEST_EXPECTED_SAMPLES, perms, my_cb, me, t, rules)
            if v > best:
                best = v
                best_discard = 0
            continue
        sub = (1u << k) - 1
        while sub < (1u << HAND):
            discard = 0
            for i in range(HAND):
                if sub >> i & 1:
                    discard |= (<mask32>1) << cards[i]
            v = expected_contest(hand & ~discard, k, pool, n_pool, BEST_EXPECTED_SAMPLES, perms, my_cb, me, t, rules)
            if v > best:
                best = v
                best_discard = discard
            low = sub & (~sub + 1)
            ripple = sub + low
            sub = (((ripple ^ sub) >> 2) // low) | ripple
    return best_discard


# ---------------------------------------------------------------------------------------------
# What a player knows during the play

cdef struct View:
    int me
    mask32 known_out             # cards he knows are out of play: his discards, seen leftovers
    mask32 opp_void              # suits (as full lanes) the opponent has shown out of
    mask32 opp_played            # cards the opponent has played
    mask32 played                # cards played by either player
    mask32 opp_known             # cards he knows the opponent holds (declined talon cards taken)
    int decl_known               # the opponent's declarations have been heard
    int opp_cb                   # the opponent's carte blanche points (announced)
    int opp_point_key            # the opponent's announced best holdings (0 if not announced)
    int opp_seq_key
    int opp_set_key
    int decl_score[2][N_CATEGORIES]


cdef inline void views_after_trick(View *view, int leader, int lead, int follow) noexcept nogil:
    """Both players' views (view[0] elder's, view[1] younger's) after a trick."""
    cdef mask32 trick = ((<mask32>1) << lead) | ((<mask32>1) << follow)
    view[0].played |= trick
    view[1].played |= trick
    view[leader].opp_played |= (<mask32>1) << follow
    view[1 - leader].opp_played |= (<mask32>1) << lead
    if (follow >> 3) != (lead >> 3):             # the follower has shown out of the suit led
        view[leader].opp_void |= (<mask32>0xFF) << (lead & ~7)


cdef inline int sure_capot(mask32 mine, mask32 possible_opp, int me) noexcept nogil:
    """Can the player take all twelve tricks whatever the opponent holds among possible_opp?
    Elder leads throughout if he keeps winning, so each suit he holds must be headed by him down
    to his lowest card; younger must also be able to follow every suit elder could lead."""
    cdef int suit
    cdef mask32 lane, my_suit, opp_suit
    for suit in range(4):
        lane = (<mask32>0xFF) << (8 * suit)
        my_suit = mine & lane
        opp_suit = possible_opp & lane
        if not opp_suit:
            continue
        if me == YOUNGER and (not my_suit or popcount32(my_suit) < popcount32(opp_suit)):
            return 0
        if my_suit and highest_bit32(opp_suit) > lowest_bit32(my_suit):
            return 0
    return 1


# ---------------------------------------------------------------------------------------------
# Card play

cdef inline int random_card(Rng *rng, mask32 legal) noexcept nogil:
    cdef int i = <int>rng_below(rng, <uint32_t>popcount32(legal))
    while i:
        legal &= legal - 1
        i -= 1
    return lowest_bit32(legal)


cdef inline int lowest_of_longest(mask32 hand) noexcept nogil:
    """The lowest card of the longest suit of a non-empty hand (the first such suit on a tie)."""
    cdef int suit, n, best_len = -1, best = -1
    cdef mask32 suit_cards
    for suit in range(4):
        suit_cards = hand & ((<mask32>0xFF) << (8 * suit))
        n = popcount32(suit_cards)
        if n > best_len:
            best_len = n
            best = lowest_bit32(suit_cards)
    return best


cdef inline int lowest_of_shortest(mask32 hand) noexcept nogil:
    """The lowest card of the shortest suit the hand holds (the first such suit on a tie)."""
    cdef int suit, n, best_len = 99, best = -1
    cdef mask32 suit_cards
    for suit in range(4):
        suit_cards = hand & ((<mask32>0xFF) << (8 * suit))
        n = popcount32(suit_cards)
        if n and n < best_len:
            best_len = n
            best = lowest_bit32(suit_cards)
    return best


cdef inline int greedy_card(const PlayState *s, int lead, mask32 known_gone) noexcept nogil:
    """Leader: cash a master card (the highest card of its suit still unplayed and not known to be
    out), from the longest such suit; otherwise lead the lowest card of the longest suit.
    Follower: win as cheaply as possible; if that is impossible play the lowest card of the suit;
    void: throw the lowest card of the shortest suit."""
    cdef int me = s.leader if lead < 0 else 1 - s.leader
    cdef mask32 hand = s.hand[me], lane_mask, suit_cards, winners, below, masters
    cdef int best_len, best = -1, n, top
    if lead < 0:
        # masters: the player's cards with no card above them in their suit but his own and those
        # known gone; `below` marks every card under one of the others, lane by lane
        below = ((hand | ~known_gone) >> 1) & 0x7F7F7F7F
        below |= (below >> 1) & 0x7F7F7F7F
        below |= (below >> 2) & 0x3F3F3F3F
        below |= (below >> 4) & 0x0F0F0F0F
        masters = hand & ~below
        best_len = -1
        while masters:                   # at most one a suit, suits in order
            top = lowest_bit32(masters)
            masters &= masters - 1
            n = popcount32(hand & ((<mask32>0xFF) << (top & ~7)))
            if n > best_len:
                best_len = n
                best = top
        if best >= 0:
            return best
        return lowest_of_longest(hand)
    lane_mask = (<mask32>0xFF) << (lead & ~7)
    suit_cards = hand & lane_mask
    if suit_cards:
        winners = suit_cards & ~(((<mask32>2) << lead) - 1)
        return lowest_bit32(winners) if winners else lowest_bit32(suit_cards)
    return lowest_of_shortest(hand)


cdef inline int consistent(mask32 opp_final, const View *v, mask32 my_final, const SuitTables *t,
                           const PiquetRules *rules) noexcept nogil:
    """Would an opponent holding opp_final have produced the declarations the player heard?"""
    cdef HandEval ev[2]
    cdef DeclResult res
    cdef int c
    if not v.decl_known:
        return 1
    evaluate_hand(my_final, t, rules, &ev[v.me])
    evaluate_hand(opp_final, t, rules, &ev[1 - v.me])
    if v.me == ELDER:
        score_declarations(&ev[0], &ev[1], v.decl_score[0][CARTE_BLANCHE], v.opp_cb, rules, &res)
    else:
        score_declarations(&ev[0], &ev[1], v.opp_cb, v.decl_score[1][CARTE_BLANCHE], rules, &res)
    for c in range(1, N_CATEGORIES):
        if res.score[0][c] != v.decl_score[0][c] or res.score[1][c] != v.decl_score[1][c]:
            return 0
    if v.opp_point_key and ev[1 - v.me].point_key != v.opp_point_key:
        return 0
    if v.opp_seq_key and ev[1 - v.me].seq_key != v.opp_seq_key:
        return 0
    if v.opp_set_key and ev[1 - v.me].set_key != v.opp_set_key:
        return 0
    return 1


cdef inline int known_candidates(const PlayState *s, int lead, const View *v, int *moves) noexcept nogil:
    """The player's distinct cards (one per group of equivalent cards), grouped against every card
    the opponent may hold as far as the player knows, not against the opponent's actual hand. A
    reply is grouped with the lead card in play: the cards on either side of it (K and J around a
    led Q) are not equivalent, one wins the trick and the other ducks."""
    cdef mask32 may_hold = ~(s.hand[v.me] | v.played | v.known_out | v.opp_void)
    if lead < 0:
        return group_tops(s.hand[v.me], may_hold, moves)
    return group_tops(legal_follows(s.hand[v.me], lead), may_hold | ((<mask32>1) << lead), moves)


cdef inline int pimc_card(Solver *sv, Rng *rng, const PlayState *s, int lead, const View *v,
                          mask32 my_final, const SuitTables *t, long *fallbacks) noexcept nogil:
    """Sample the opponent's hidden cards PIMC_SAMPLES times, consistent with the view; solve each
    sample double-dummy and play the card that is best in the most samples (ties: the lower
    card). A sample that fails PIMC_MAX_TRIES consistency checks is used anyway and counted."""
    cdef int me = v.me, opp = 1 - v.me
    cdef int n_opp
    cdef mask32 sure = v.opp_known & s.hand[opp]      # known cards the opponent still holds
    cdef mask32 rest = ~(s.hand[me] | v.played | v.known_out | v.opp_void | v.opp_known)
    cdef uint8_t pool[N_CARDS]
    cdef int n_pool = 0, i, j, tries, c, sample, guess = 0
    cdef int moves[MAX_MOVES]
    cdef int votes[N_CARDS]
    cdef int n_moves = known_candidates(s, lead, v, moves)
    cdef mask32 opp_hand
    cdef PlayState w
    if n_moves == 1:
        return moves[0]
    n_opp = popcount32(s.hand[opp]) - popcount32(sure)
    while rest:
        pool[n_pool] = <uint8_t>lowest_bit32(rest)
        n_pool += 1
        rest &= rest - 1
    if n_pool < n_opp:                   # impossible with a correct view; play safe
        return moves[0]
    memset(votes, 0, sizeof(votes))
    for sample in range(PIMC_SAMPLES):
        tries = 0
        while True:
            rng_partial_shuffle(rng, pool, n_pool, n_opp)
            opp_hand = sure
            for j in range(n_opp):
                opp_hand |= (<mask32>1) << pool[j]
            tries += 1
            if consistent(opp_hand | v.opp_played, v, my_final, t, sv.rules):
                break
            if tries >= PIMC_MAX_TRIES:
                fallbacks[0] += 1
                break
        w = s[0]
        w.hand[opp] = opp_hand
        # the sample's exact value, then one zero-window search per move to find those reaching it
        # (the last sample's value is the first guess: samples of one decision are alike)
        guess = mtdf(sv, &w, lead, guess)
        for i in range(n_moves):
            if reaches(sv, &w, lead, moves[i], guess):
                votes[moves[i]] += 1
    c = moves[0]
    for i in range(n_moves):
        if votes[moves[i]] > votes[c] or (votes[moves[i]] == votes[c] and moves[i] < c):
            c = moves[i]
    return c
