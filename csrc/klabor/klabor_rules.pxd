# Klabor rules as numbers (shared/rules/klabor.md): constants, card tables, trick duties, sequences,
# bidding strength, and the scoring of a played deal (sequences, bella, dix, bait, game end).
# Encoding: bit = 8*suit + rank, suits S H D C = 0..3, ranks 7 8 9 T J Q K A = 0..7 (natural order).

from libc.stdint cimport uint8_t, uint32_t, int16_t

from bitboard cimport mask32, suit_lane32, popcount32, lowest_bit32, clear_lowest32, RANK_COLUMN32

cdef enum:
    N_CARDS = 32
    N_RANKS = 8
    FIRST = 6                    # cards dealt before the bidding
    SECOND = 3                   # cards dealt after it
    HAND = 9
    TRICKS = 9
    PLAYED = 18
    DEALT = 20                   # 6 + 6 + turn-up + 3 + 3 + bottom card of the stock
    R7 = 0
    R8 = 1
    R9 = 2
    RT = 3
    RJ = 4
    RQ = 5
    RK = 6
    RA = 7
    LAST_TRICK = 10
    BELLA = 20
    TERTS = 20
    POLTINNIK = 50
    TRUMP_BONUS = 10             # bidding strength per trump held
    NO_CARD = -1
    NOBODY = -1
    ELDER = 0
    DEALER = 1
    MAX_SCORE = 512              # histogram size of one deal's score (at most 162+300+40+10)
    MAX_GAME_DEALS = 256         # a game longer than this is counted as unfinished
    MAX_MARGIN = 1024
    TT_BITS = 18
    FULL_DECK = 0xFFFFFFFF

cdef enum:  # bait tie rules
    TIE_BAIT = 0
    TIE_HALF = 1
    TIE_CARRY = 2

cdef enum:  # card play strategies
    PLAY_GREEDY = 0
    PLAY_PIMC = 1
    PLAY_RANDOM = 2

cdef enum:  # next dealer rules
    NEXT_ALTERNATE = 0
    NEXT_WINNER = 1
    NEXT_LOSER = 2

cdef enum:  # error codes of a given trick sequence (see play_given)
    ERR_NONE = 0
    ERR_NOT_IN_HAND = 1
    ERR_FOLLOW = 2
    ERR_TRUMP = 3
    ERR_HEAD = 4

# Card tables, filled once by build_card_tables() when the module loads. They are C statics in the
# one generated C file (a .pxd cannot hold Python-level initialisers).
cdef extern from *:
    """
    static int klabor_trump_strength[8] = {0, 1, 6, 4, 7, 2, 3, 5};   /* 7 8 9 T J Q K A: J 9 A T K Q 8 7 */
    static int klabor_plain_strength[8] = {0, 1, 2, 6, 3, 4, 5, 7};   /* A T K Q J 9 8 7 */
    static int klabor_trump_points[8] = {0, 0, 14, 10, 20, 3, 4, 11};
    static int klabor_plain_points[8] = {0, 0, 0, 10, 2, 3, 4, 11};
    static uint32_t klabor_trump_above[8], klabor_plain_above[8];
    static int klabor_trump_lane_points[256], klabor_plain_lane_points[256];
    static int klabor_card_points[4][32], klabor_card_strength[4][32], klabor_card_cost[4][32];
    static int klabor_trump_top[256], klabor_plain_top[256];
    static uint32_t klabor_trump_stronger[9], klabor_plain_stronger[9];
    """
    int TRUMP_STRENGTH "klabor_trump_strength"[8]
    int PLAIN_STRENGTH "klabor_plain_strength"[8]
    int TRUMP_POINTS "klabor_trump_points"[8]
    int PLAIN_POINTS "klabor_plain_points"[8]
    uint32_t TRUMP_ABOVE "klabor_trump_above"[8]        # lane mask of ranks stronger than a rank, in trumps
    uint32_t PLAIN_ABOVE "klabor_plain_above"[8]
    int TRUMP_LANE_POINTS "klabor_trump_lane_points"[256]
    int PLAIN_LANE_POINTS "klabor_plain_lane_points"[256]
    # Per trump suit and card: points, trick strength on one scale (every trump above every plain
    # card) and the greedy "cost" of giving the card away (points first, then strength).
    int CARD_POINTS "klabor_card_points"[4][32]
    int CARD_STRENGTH "klabor_card_strength"[4][32]
    int CARD_COST "klabor_card_cost"[4][32]
    # Per lane mask: the highest trick strength in it (-1 if empty); per strength + 1: the lane mask
    # of ranks stronger than it (so an empty lane, -1, gives every rank).
    int TRUMP_TOP "klabor_trump_top"[256]
    int PLAIN_TOP "klabor_plain_top"[256]
    uint32_t TRUMP_STRONGER "klabor_trump_stronger"[9]
    uint32_t PLAIN_STRONGER "klabor_plain_stronger"[9]

cdef inline void build_card_tables() noexcept nogil:
    cdef int r, q, m
    for r in range(N_RANKS):
        TRUMP_ABOVE[r] = 0
        PLAIN_ABOVE[r] = 0
        for q in range(N_RANKS):
            if TRUMP_STRENGTH[q] > TRUMP_STRENGTH[r]:
                TRUMP_ABOVE[r] |= 1u << q
            if PLAIN_STRENGTH[q] > PLAIN_STRENGTH[r]:
                PLAIN_ABOVE[r] |= 1u << q
    cdef int t, c
    for t in range(4):
        for c in range(N_CARDS):
            if c >> 3 == t:
                CARD_POINTS[t][c] = TRUMP_POINTS[c & 7]
                CARD_STRENGTH[t][c] = 8 + TRUMP_STRENGTH[c & 7]
            else:
                CARD_POINTS[t][c] = PLAIN_POINTS[c & 7]
                CARD_STRENGTH[t][c] = PLAIN_STRENGTH[c & 7]
            CARD_COST[t][c] = CARD_POINTS[t][c] * 64 + CARD_STRENGTH[t][c]
    for m in range(256):
        TRUMP_LANE_POINTS[m] = 0
        PLAIN_LANE_POINTS[m] = 0
        TRUMP_TOP[m] = -1
        PLAIN_TOP[m] = -1
        for r in range(N_RANKS):
            if m >> r & 1:
                TRUMP_LANE_POINTS[m] += TRUMP_POINTS[r]
                PLAIN_LANE_POINTS[m] += PLAIN_POINTS[r]
                TRUMP_TOP[m] = max(TRUMP_TOP[m], TRUMP_STRENGTH[r])
                PLAIN_TOP[m] = max(PLAIN_TOP[m], PLAIN_STRENGTH[r])
    for q in range(N_RANKS + 1):
        TRUMP_STRONGER[q] = 0
        PLAIN_STRONGER[q] = 0
        for r in range(N_RANKS):
            if TRUMP_STRENGTH[r] > q - 1:
                TRUMP_STRONGER[q] |= 1u << r
            if PLAIN_STRENGTH[r] > q - 1:
                PLAIN_STRONGER[q] |= 1u << r


cdef struct Rules:
    int must_head
    int tie
    int seq_tie_elder
    int long_split
    int dix_swap
    int dix_value
    int schmeiss
    int next_dealer
    int bella_strategic
    int no_trick_no_melds
    int show_bottom
    int target
    int seq_sum[256]             # value of all runs in a lane
    int seq_best[256]            # best run of a lane: class * 8 + top rank (class 1 = 20, 2 = 50)


cdef struct Strategy:
    int threshold
    int play
    int samples


cdef struct Layout:              # one dealt deal, seat 0 = elder
    mask32 first[2]
    mask32 second[2]
    int turnup
    int bottom


cdef struct DealResult:
    int void
    int maker
    int round                    # 1 turned suit, 2 named suit
    int schmeiss_annulled
    int trump
    int swapper
    mask32 hand[2]               # the 9-card hands as dealt (before the dix)
    int seq_key[2]
    int seq_winner
    int seq_points[2]
    int bella_holder
    int bella_points[2]
    int dix_points[2]
    int card_points[2]
    int tricks_won[2]
    int last_winner
    int total[2]
    int score[2]
    int baited
    int carried                  # points held over (tie = carry)
    int plays[PLAYED]
    int trick_winner[TRICKS]
    mask32 held[2]               # the hands at the first lead (after the dix)


# ---------------------------------------------------------------------------------------------
# Card helpers

cdef inline int card_suit(int card) noexcept nogil:
    return card >> 3

cdef inline mask32 suit_mask(int suit) noexcept nogil:
    return (<mask32>0xFF) << (8 * suit)

cdef inline int card_points(int card, int trump) noexcept nogil:
    return CARD_POINTS[trump][card]

cdef inline int mask_points(mask32 m, int trump) noexcept nogil:
    cdef int s, total = 0
    for s in range(4):
        if s == trump:
            total += TRUMP_LANE_POINTS[suit_lane32(m, s)]
        else:
            total += PLAIN_LANE_POINTS[suit_lane32(m, s)]
    return total

cdef inline int strength(int card, int trump) noexcept nogil:
    return CARD_STRENGTH[trump][card]

cdef inline int beats(int reply, int led, int trump) noexcept nogil:
    """Does the second card of a trick beat the first?"""
    if (reply >> 3) == (led >> 3):
        return strength(reply, trump) > strength(led, trump)
    return (reply >> 3) == trump


cdef inline mask32 legal_replies(mask32 hand, int led, int trump, int must_head) noexcept nogil:
    cdef int ls = led >> 3
    cdef mask32 follow = hand & suit_mask(ls)
    cdef mask32 higher
    if follow:
        if ls == trump and must_head:
            higher = follow & ((<mask32>TRUMP_ABOVE[led & 7]) << (8 * ls))
            if higher:
                return higher
        return follow
    if hand & suit_mask(trump):
        return hand & suit_mask(trump)
    return hand


cdef inline int reply_error(mask32 hand, int led, int reply, int trump, int must_head) noexcept nogil:
    """Why a reply is illegal (ERR_NONE if it is legal)."""
    cdef int ls = led >> 3
    if not (hand >> reply) & 1:
        return ERR_NOT_IN_HAND
    if (legal_replies(hand, led, trump, must_head) >> reply) & 1:
        return ERR_NONE
    if hand & suit_mask(ls):
        return ERR_HEAD if (reply >> 3) == ls else ERR_FOLLOW
    return ERR_TRUMP


# ---------------------------------------------------------------------------------------------
# Rules, sequences, bidding

cdef inline void build_sequence_tables(Rules *rules) noexcept nogil:
    cdef int m, b, run, value, best, key
    for m in range(256):
        rules.seq_sum[m] = 0
        best = 0
        run = 0
        for b in range(N_RANKS + 1):
            if b < N_RANKS and (m >> b & 1):
                run += 1
                continue
            if run >= 3:
                if run == 3:
                    value = TERTS
                elif rules.long_split and run == 7:
                    value = POLTINNIK + TERTS
                elif rules.long_split and run == 8:
                    value = POLTINNIK + POLTINNIK
                else:
                    value = POLTINNIK
                rules.seq_sum[m] += value
                key = (1 if run == 3 else 2) * 8 + (b - 1)
                if key > best:
                    best = key
            run = 0
        rules.seq_best[m] = best


cdef inline int sequence_key(mask32 hand, int trump, const Rules *rules) noexcept nogil:
    """(class, top rank, is trump) packed so that a larger key is a better sequence; 0 = none."""
    cdef int s, key, best = 0
    for s in range(4):
        key = rules.seq_best[suit_lane32(hand, s)] * 2
        if key and s == trump:
            key += 1
        if key > best:
            best = key
    return best


cdef inline int sequence_sum(mask32 hand, const Rules *rules) noexcept nogil:
    cdef int s, total = 0
    for s in range(4):
        total += rules.seq_sum[suit_lane32(hand, s)]
    return total


cdef inline int bid_strength(mask32 hand, int trump, int turnup) noexcept nogil:
    """Hand strength for a candidate trump; turnup >= 0 when the dix would bring it in."""
    cdef int value = mask_points(hand, trump) + TRUMP_BONUS * popcount32(hand & suit_mask(trump))
    if turnup >= 0 and (hand >> (8 * trump + R7)) & 1:
        value += TRUMP_POINTS[turnup & 7]
    return value


cdef inline void bid(const Layout *deal, const Strategy *strat, const Rules *rules, DealResult *res) noexcept nogil:
    cdef int seat, s, best_suit, best, value, dix_card
    cdef int turned = deal.turnup >> 3
    res.void = 1
    res.maker = NOBODY
    res.round = 0
    res.schmeiss_annulled = 0
    res.trump = turned
    dix_card = deal.turnup if (deal.turnup & 7) != R7 and rules.dix_swap else NO_CARD
    for seat in range(2):
        if bid_strength(deal.first[seat], turned, dix_card) >= strat[seat].threshold:
            res.round = 1
            if rules.schmeiss and bid_strength(deal.first[1 - seat], turned, dix_card) < strat[1 - seat].threshold:
                res.schmeiss_annulled = 1
                return
            res.void = 0
            res.maker = seat
            return
    for seat in range(2):
        best = -1
        best_suit = 0
        for s in range(4):
            if s == turned:
                continue
            value = bid_strength(deal.first[seat], s, NO_CARD)
            if value > best:
                best = value
                best_suit = s
        if best >= strat[seat].threshold:
            res.void = 0
            res.maker = seat
            res.round = 2
            res.trump = best_suit
            return


cdef inline void score_sequences(DealResult *res, const Rules *rules) noexcept nogil:
    """Compare the best sequences of the two held hands; the winner scores all his runs."""
    cdef int p
    for p in range(2):
        res.seq_key[p] = sequence_key(res.held[p], res.trump, rules)
        res.seq_points[p] = 0
    if res.seq_key[0] > res.seq_key[1]:
        res.seq_winner = ELDER
    elif res.seq_key[1] > res.seq_key[0]:
        res.seq_winner = DEALER
    elif res.seq_key[0] and rules.seq_tie_elder:
        res.seq_winner = ELDER
    else:
        res.seq_winner = NOBODY
    if res.seq_winner != NOBODY:
        if not (rules.no_trick_no_melds and res.tricks_won[res.seq_winner] == 0):
            res.seq_points[res.seq_winner] = sequence_sum(res.held[res.seq_winner], rules)


cdef inline void settle(DealResult *res, const Rules *rules) noexcept nogil:
    """The bait rule on the two totals."""
    cdef int m = res.maker, o = 1 - res.maker
    res.carried = 0
    if res.total[m] > res.total[o]:
        res.baited = 0
        res.score[m] = res.total[m]
        res.score[o] = res.total[o]
        return
    res.baited = 1
    res.score[m] = 0
    if res.total[m] == res.total[o] and rules.tie == TIE_HALF:
        res.score[o] = res.total[o]
    elif res.total[m] == res.total[o] and rules.tie == TIE_CARRY:
        res.score[o] = res.total[o]
        res.carried = res.total[m]
    else:
        res.score[o] = res.total[m] + res.total[o]


cdef inline void finish_deal(DealResult *res, const Rules *rules) noexcept nogil:
    """Declarations, bella, dix and the bait rule on a played deal."""
    cdef int p, m = res.maker, o = 1 - res.maker
    cdef int kq = (1 << RK) | (1 << RQ)
    score_sequences(res, rules)
    res.bella_holder = NOBODY
    for p in range(2):
        res.bella_points[p] = 0
        res.dix_points[p] = 0
        if (suit_lane32(res.held[p], res.trump) & kq) == kq:
            res.bella_holder = p
            res.bella_points[p] = BELLA
    if res.swapper != NOBODY:
        res.dix_points[res.swapper] = rules.dix_value
    for p in range(2):
        res.total[p] = (res.card_points[p] + (LAST_TRICK if res.last_winner == p else 0)
                        + res.seq_points[p] + res.bella_points[p] + res.dix_points[p])
    if rules.bella_strategic and res.bella_holder == m and res.total[m] <= res.total[o]:
        # Baited even with the bella: announcing it would only hand its 20 to the opponent.
        res.bella_points[m] = 0
        res.total[m] -= BELLA
    settle(res, rules)


cdef inline int game_over(const int *score, int target, int *won, int *margin) noexcept nogil:
    """After a deal: is there a winner (one over the target, or both and not equal)?"""
    cdef int lost
    if (score[0] < target and score[1] < target) or score[0] == score[1]:
        return 0
    won[0] = 0 if score[0] > score[1] else 1
    lost = 1 - won[0]
    margin[0] = target - score[lost] if score[lost] < target else score[won[0]] - score[lost]
    return 1


cdef inline void clear_play(DealResult *res) noexcept nogil:
    cdef int p, t
    res.swapper = NOBODY
    res.seq_winner = NOBODY
    res.bella_holder = NOBODY
    res.last_winner = NOBODY
    res.baited = 0
    res.carried = 0
    for p in range(2):
        res.seq_key[p] = 0
        res.seq_points[p] = 0
        res.bella_points[p] = 0
        res.dix_points[p] = 0
        res.card_points[p] = 0
        res.tricks_won[p] = 0
        res.total[p] = 0
        res.score[p] = 0
        res.held[p] = 0
    for t in range(PLAYED):
        res.plays[t] = NO_CARD
    for t in range(TRICKS):
        res.trick_winner[t] = NOBODY


