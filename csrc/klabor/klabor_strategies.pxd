# Klabor card play: greedy (public information only), random, and pimc (sample the unseen hand,
# solve each sample double-dummy).

from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memset

from bitboard cimport mask32, suit_lane32, popcount32, lowest_bit32, clear_lowest32, RANK_COLUMN32
from rng cimport Rng, rng_partial_shuffle, rng_below
from klabor_rules cimport *
from klabor_search cimport Solver, dd_full


# A play state: both hands, the cards played so far, trump, the heading rule, and what both
# players know from the deal. The card led to the current trick is passed separately (NO_CARD
# when leading).

cdef struct PlayState:
    mask32 hand[2]
    mask32 played
    int trump
    int must_head
    mask32 known_out             # cards both players know are out of play
    mask32 known_in[2]           # cards both players know a seat holds (the dix turn-up)


cdef inline int cheapest(mask32 cards, int trump) noexcept nogil:
    """The card worth least to give away: fewest points, then weakest, plain before trump."""
    cdef int c, cost, best = NO_CARD, best_cost = 1 << 30
    while cards:
        c = lowest_bit32(cards)
        cards = clear_lowest32(cards)
        cost = CARD_COST[trump][c]
        if cost < best_cost:
            best_cost = cost
            best = c
    return best


cdef inline mask32 masters(mask32 hand, mask32 played, int suit, int trump) noexcept nogil:
    """Cards of `suit` in hand that no card outside the hand and the played cards beats."""
    cdef uint32_t own = suit_lane32(hand, suit)
    cdef uint32_t outside = ~(own | suit_lane32(played, suit)) & 0xFF
    if suit == trump:
        return (<mask32>(own & TRUMP_STRONGER[TRUMP_TOP[outside] + 1])) << (8 * suit)
    return (<mask32>(own & PLAIN_STRONGER[PLAIN_TOP[outside] + 1])) << (8 * suit)


cdef inline int greedy_lead(const PlayState *st, int seat) noexcept nogil:
    """Draw trumps with a master trump while the opponent may hold some; else cash a master ace,
    else a master ten; else lead the cheapest plain card (the cheapest trump if only trumps)."""
    cdef mask32 hand = st.hand[seat], trump_lane = suit_mask(st.trump)
    cdef mask32 trumps = hand & trump_lane, plain = hand & ~trump_lane
    cdef mask32 cash = 0
    cdef int s
    if trumps and (trump_lane & ~hand & ~st.played):
        cash = masters(hand, st.played, st.trump, st.trump)
        if cash:
            return lowest_bit32(cash)
    for s in range(4):
        if s != st.trump:
            cash |= masters(hand, st.played, s, st.trump)
    if cash & ((<mask32>RANK_COLUMN32) << RA):
        return lowest_bit32(cash & ((<mask32>RANK_COLUMN32) << RA))
    if cash & ((<mask32>RANK_COLUMN32) << RT):
        return lowest_bit32(cash & ((<mask32>RANK_COLUMN32) << RT))
    return cheapest(plain if plain else trumps, st.trump)


cdef inline int greedy_reply(const PlayState *st, int seat, int led) noexcept nogil:
    """Win with the cheapest winning card unless that means ruffing a worthless card before the
    last trick; otherwise give the cheapest legal card."""
    cdef mask32 legal = legal_replies(st.hand[seat], led, st.trump, st.must_head)
    cdef int ls = led >> 3, w
    cdef mask32 winners = 0
    if legal & suit_mask(ls):
        if ls == st.trump:
            winners = legal & ((<mask32>TRUMP_ABOVE[led & 7]) << (8 * ls))
        else:
            winners = legal & ((<mask32>PLAIN_ABOVE[led & 7]) << (8 * ls))
    elif ls != st.trump:
        winners = legal & suit_mask(st.trump)
    if winners:
        w = cheapest(winners, st.trump)
        if not ((w >> 3) == st.trump and ls != st.trump and PLAIN_POINTS[led & 7] == 0
                and popcount32(st.hand[seat]) > 1):
            return w
    return cheapest(legal, st.trump)


cdef inline int random_card(mask32 cards, Rng *rng) noexcept nogil:
    cdef int k = <int>rng_below(rng, <uint32_t>popcount32(cards))
    while k:
        cards = clear_lowest32(cards)
        k -= 1
    return lowest_bit32(cards)


cdef inline int pimc_choice(const PlayState *st, int seat, int led, int samples, Solver *sv, Rng *rng) noexcept nogil:
    """Sample the opponent's hand from the cards this seat cannot see, solve every sample
    double-dummy for every legal card and play the card with the best total."""
    cdef mask32 own = st.hand[seat]
    cdef mask32 legal = own if led == NO_CARD else legal_replies(own, led, st.trump, st.must_head)
    if popcount32(legal) == 1:
        return lowest_bit32(legal)
    cdef int opp = 1 - seat
    cdef mask32 known = st.known_in[opp] & ~st.played
    cdef mask32 pool = <mask32>FULL_DECK & ~own & ~st.played & ~st.known_out & ~known
    cdef int need = popcount32(st.hand[opp]) - popcount32(known)
    cdef uint8_t cards[N_CARDS]
    cdef int n = 0, i, k, c, b, gain, value, inner, me_wins, bonus
    cdef mask32 m = pool, sample, moves, replies
    cdef int total[N_CARDS]
    while m:
        cards[n] = <uint8_t>lowest_bit32(m)
        m = clear_lowest32(m)
        n += 1
    memset(total, 0, sizeof(total))
    bonus = LAST_TRICK if popcount32(own) == 1 else 0
    for k in range(samples):
        rng_partial_shuffle(rng, cards, n, need)
        sample = known
        for i in range(need):
            sample |= (<mask32>1) << cards[i]
        moves = legal
        while moves:
            c = lowest_bit32(moves)
            moves = clear_lowest32(moves)
            if led == NO_CARD:
                # I lead c; the opponent answers to minimise what I take.
                inner = 10000
                replies = legal_replies(sample, c, st.trump, st.must_head)
                while replies:
                    b = lowest_bit32(replies)
                    replies = clear_lowest32(replies)
                    me_wins = not beats(b, c, st.trump)
                    gain = card_points(c, st.trump) + card_points(b, st.trump) + bonus if me_wins else 0
                    value = gain + dd_full(sv, own & ~((<mask32>1) << c), sample & ~((<mask32>1) << b), me_wins)
                    if value < inner:
                        inner = value
                total[c] += inner
            else:
                me_wins = beats(c, led, st.trump)
                gain = card_points(c, st.trump) + card_points(led, st.trump) + bonus if me_wins else 0
                total[c] += gain + dd_full(sv, own & ~((<mask32>1) << c), sample, me_wins)
    cdef int best = NO_CARD, best_total = -1
    moves = legal
    while moves:
        c = lowest_bit32(moves)
        moves = clear_lowest32(moves)
        if total[c] > best_total:
            best_total = total[c]
            best = c
    return best


cdef inline int choose_card(const PlayState *st, int seat, int led, const Strategy *strat,
                            Solver *sv, Rng *rng) noexcept nogil:
    if strat[seat].play == PLAY_PIMC:
        return pimc_choice(st, seat, led, strat[seat].samples, sv, rng)
    if strat[seat].play == PLAY_RANDOM:
        if led == NO_CARD:
            return random_card(st.hand[seat], rng)
        return random_card(legal_replies(st.hand[seat], led, st.trump, st.must_head), rng)
    if led == NO_CARD:
        return greedy_lead(st, seat)
    return greedy_reply(st, seat, led)

