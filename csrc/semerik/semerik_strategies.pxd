# Semerik card-play strategies: greedy (rules card below), random and PIMC, and the playout loop.
# A strategy reads only what its player may know: his hand, the public Table fields (cards played,
# the current trick, cards shown in declarations, known voids, hand sizes); PIMC's sampled worlds
# replace the other hands before its playouts.

from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.string cimport memset

from bitboard cimport mask64, popcount64, lowest_bit64, clear_lowest64, highest_bit32, suit_lane64
from rng cimport Rng, rng_below, rng_partial_shuffle
from semerik_rules cimport *

# --- greedy --------------------------------------------------------------------------------------
# Lead: the highest "master" card (the top remaining card of a suit that someone else still holds),
#       else the lowest card of the longest plain suit, else the lowest heart.
# Follow suit: partner winning -> lowest card (but the lowest honour when last to play and it lifts
#       the trick to 3 or 4 honours); opponent winning and the trick not trumped -> the lowest card
#       that beats it, else the lowest card.
# Void: partner winning -> discard (the same honour rule when last); opponent winning -> overruff or
#       ruff with the lowest heart that wins when the trick holds >= ruff_min_honours honours,
#       else discard. Discard = the lowest plain card (else the lowest heart).
# Ties between suits go to the lower suit index (S H D C).

cdef inline int lowest_in_lane(uint32_t lane, int suit) noexcept nogil:
    return LANE * suit + lowest_bit64(lane)


cdef inline int highest_rank(uint32_t lane) noexcept nogil:   # lane != 0
    return highest_bit32(lane)


cdef inline int lowest_plain(mask64 hand, mask64 among) noexcept nogil:
    # Lowest-ranked card of `among` outside hearts (lower suit on ties); -1 if none.
    cdef int s, best = -1, best_rank = 99, rank
    cdef uint32_t lane
    for s in range(4):
        if s == HEARTS:
            continue
        lane = suit_lane64(among, s)
        if lane:
            rank = lowest_bit64(lane)
            if rank < best_rank:
                best_rank = rank
                best = LANE * s + rank
    return best


cdef inline int discard(mask64 hand) noexcept nogil:
    cdef int c = lowest_plain(hand, hand)
    return c if c >= 0 else lowest_in_lane(suit_lane64(hand, HEARTS), HEARTS)


cdef inline int greedy_lead(const Table *t, int seat) noexcept nogil:
    cdef mask64 hand = t.hand[seat]
    cdef mask64 others = FULL_DECK & ~t.played & ~hand
    cdef int s, top, best = -1, best_rank = -1, best_len = 0, best_suit = -1, n
    cdef uint32_t lane, other_lane
    for s in range(4):
        lane = suit_lane64(hand, s)
        other_lane = suit_lane64(others, s)
        if lane == 0 or other_lane == 0:
            continue
        top = highest_rank(lane)
        if top > highest_rank(other_lane) and top > best_rank:
            best_rank = top
            best = LANE * s + top
    if best >= 0:
        return best
    for s in range(4):
        if s == HEARTS:
            continue
        n = popcount64(suit_lane64(hand, s))
        if n > best_len:
            best_len = n
            best_suit = s
    if best_len:
        return lowest_in_lane(suit_lane64(hand, best_suit), best_suit)
    return lowest_in_lane(suit_lane64(hand, HEARTS), HEARTS)


cdef inline int choose_greedy(const Table *t, int seat, const Rules *r) noexcept nogil:
    cdef mask64 hand = t.hand[seat]
    cdef uint32_t lane, above, trumps
    cdef int partner_winning, last, lifts, win_suit, win_rank, c
    if t.n_in_trick == 0:
        return greedy_lead(t, seat)
    lane = suit_lane64(hand, t.led_suit)
    partner_winning = side_of(t.win_seat) == side_of(seat)
    last = t.n_in_trick == N_SEATS - 1
    lifts = last and partner_winning and (t.trick_honours == 2 or t.trick_honours == 3)
    win_suit = t.win_card >> 4
    win_rank = t.win_card & 15
    if lane:
        if partner_winning:
            if lifts and (lane & HONOUR_LANE):
                return lowest_in_lane(lane & HONOUR_LANE, t.led_suit)
            return lowest_in_lane(lane, t.led_suit)
        if win_suit == t.led_suit:
            above = lane & ~((2u << win_rank) - 1)
            if above:
                return lowest_in_lane(above, t.led_suit)
        return lowest_in_lane(lane, t.led_suit)
    if partner_winning:
        if lifts:
            c = lowest_plain(hand, hand & HONOURS)
            if c >= 0:
                return c
        return discard(hand)
    trumps = suit_lane64(hand, HEARTS)
    if trumps and t.trick_honours >= r.ruff_min_honours:
        if win_suit == HEARTS:
            above = trumps & ~((2u << win_rank) - 1)
            if above:
                return lowest_in_lane(above, HEARTS)
        else:
            return lowest_in_lane(trumps, HEARTS)
    return discard(hand)


# --- random --------------------------------------------------------------------------------------

cdef inline int choose_random(const Table *t, int seat, Rng *rng) noexcept nogil:
    cdef mask64 legal = legal_moves(t, seat)
    cdef int k = <int>rng_below(rng, <uint32_t>popcount64(legal))
    while k:
        legal = clear_lowest64(legal)
        k -= 1
    return lowest_bit64(legal)


# --- PIMC ----------------------------------------------------------------------------------------

cdef inline int cards_held(const Table *t, int seat, const Rules *r) noexcept nogil:
    # Public: ten cards less one per finished trick, less one if already played to this trick.
    cdef int position = ((seat - t.leader) * r.step) & 3
    return HAND - t.trick_no - (position < t.n_in_trick)


cdef inline void sample_world(const Table *t, int me, const Rules *r, Rng *rng, mask64 *world) noexcept nogil:
    """Hands for the other seats drawn from what `me` knows: the unseen cards are dealt at random
    to the other players, each getting his shown cards plus the right number of unseen ones, and
    no card of a suit a player is known to be void in (a few retries; then voids are ignored)."""
    cdef uint8_t cards[N_CARDS]
    cdef int cap[N_SEATS]
    cdef int n = 0, o, i, attempt, total, suit, ok
    cdef uint32_t x
    cdef mask64 unseen = FULL_DECK & ~t.played & ~t.hand[me]
    for o in range(N_SEATS):
        if o != me:
            unseen &= ~t.shown[o]
    while unseen:
        cards[n] = <uint8_t>lowest_bit64(unseen)
        n += 1
        unseen = clear_lowest64(unseen)
    for attempt in range(MAX_TRIES + 1):
        rng_partial_shuffle(rng, cards, n, n)
        for o in range(N_SEATS):
            world[o] = t.hand[me] if o == me else t.shown[o]
            cap[o] = 0 if o == me else cards_held(t, o, r) - popcount64(t.shown[o])
        ok = 1
        for i in range(n):
            suit = cards[i] >> 4
            total = 0
            for o in range(N_SEATS):
                if cap[o] > 0 and (attempt == MAX_TRIES or not (t.void[o] >> suit) & 1):
                    total += cap[o]
            if total == 0:
                ok = 0
                break
            x = rng_below(rng, <uint32_t>total)
            for o in range(N_SEATS):
                if cap[o] > 0 and (attempt == MAX_TRIES or not (t.void[o] >> suit) & 1):
                    if x < <uint32_t>cap[o]:
                        world[o] |= (<mask64>1) << cards[i]
                        cap[o] -= 1
                        break
                    x -= cap[o]
        if ok:
            return


cdef inline void play_out_greedy(Table *t, const Rules *r) noexcept nogil:
    while t.trick_no < N_TRICKS:
        play_card(t, choose_greedy(t, t.to_play, r), r)


cdef inline int choose_pimc(const Table *t, int seat, const Rules *r, Rng *rng) noexcept nogil:
    cdef mask64 legal = legal_moves(t, seat), m
    cdef mask64 world[N_SEATS]
    cdef int64_t total[64]
    cdef int pts[2]
    cdef int w, c, o, side = side_of(seat), best = -1
    cdef Table copy
    if popcount64(legal) == 1:
        return lowest_bit64(legal)
    memset(total, 0, sizeof(total))
    for w in range(r.pimc_worlds):
        sample_world(t, seat, r, rng, world)
        m = legal
        while m:
            c = lowest_bit64(m)
            m = clear_lowest64(m)
            copy = t[0]
            for o in range(N_SEATS):
                copy.hand[o] = world[o]
            play_card(&copy, c, r)
            play_out_greedy(&copy, r)
            trick_score(&copy, r, pts)
            total[c] += pts[side] - pts[1 - side]
    m = legal
    while m:
        c = lowest_bit64(m)
        m = clear_lowest64(m)
        if best < 0 or total[c] > total[best]:
            best = c
    return best


cdef inline int choose(const Table *t, const Rules *r, Rng *rng) noexcept nogil:
    cdef int seat = t.to_play
    cdef int strategy = r.strategy[side_of(seat)]
    if strategy == GREEDY:
        return choose_greedy(t, seat, r)
    if strategy == RANDOM:
        return choose_random(t, seat, rng)
    return choose_pimc(t, seat, r, rng)


cdef inline void play_deal_sides(Table *t, const Rules *r, Rng *rng_a, Rng *rng_b, uint8_t *plays,
                                 uint8_t *winners) noexcept nogil:
    """Play the ten tricks, partnership A's strategy drawing from rng_a and B's from rng_b (the
    same Rng for both is allowed); record the cards in order and each trick's winner if asked."""
    cdef int i, c
    for i in range(N_CARDS):
        c = choose(t, r, rng_b if side_of(t.to_play) else rng_a)
        if plays != NULL:
            plays[i] = <uint8_t>c
        play_card(t, c, r)
        if winners != NULL and t.n_in_trick == 0:
            winners[t.trick_no - 1] = <uint8_t>t.leader


cdef inline void play_deal(Table *t, const Rules *r, Rng *rng, uint8_t *plays, uint8_t *winners) noexcept nogil:
    """Play the ten tricks, both partnerships drawing from one Rng."""
    play_deal_sides(t, r, rng, rng, plays, winners)
