# Slovak mariáš — the rules as bit operations (shared/rules/marias.md §1, §5, §6). Header-style:
# everything here is inline and used by csrc/marias.pyx.
#
# Encoding: a card is bit 8*suit + rank, suit S H D C = 0..3 (the project's suit order), rank in
# suit-game strength order 7 8 9 J Q K T A = 0..7, so "higher in suit" is "higher bit".
# Malý/Veľký use A K Q J T 9 8 7: their hands are remapped (T moves from 6 to 3, J Q K up one)
# before play and back afterwards, so the same "higher bit wins" code plays them.

from libc.stdint cimport uint8_t, uint32_t, int64_t
from bitboard cimport mask32, popcount32, lowest_bit32, highest_bit32, clear_lowest32

cdef enum:
    N_CARDS = 32
    N_SEATS = 3
    N_TRICKS = 10
    HAND_CARDS = 10
    FOREHAND_CARDS = 12
    FIRST_PACKET = 7
    TALON_CARDS = 2
    R7 = 0
    R8 = 1
    R9 = 2
    RJ = 3
    RQ = 4
    RK = 5
    RT = 6
    RA = 7
    SUIT_HEARTS = 1
    NO_TRUMP = -1
    LANE_MASK = 0xFF
    POINT_CARDS = 0xC0C0C0C0       # every A and T (10 card points each)
    ACES = 0x80808080
    KQ_LANE = 0x30                 # K and Q of one suit
    LAST_TRICK_BONUS = 10

cdef enum:  # contracts, low to high (§3.4)
    GAME_HRA = 0
    GAME_SEDMA = 1                 # Sedma a hra
    GAME_STOVKA = 2
    GAME_STO_A_SEDEM = 3
    GAME_MALY = 4
    GAME_VELKY = 5
    N_GAMES = 6

cdef enum:  # the seven event of the last trick (§5.5c)
    SEVEN_NONE = 0
    SEVEN_WON_ACTOR = 1
    SEVEN_KILLED_ACTOR = 2
    SEVEN_WON_DEF = 3
    SEVEN_KILLED_DEF = 4
    N_SEVEN = 5

cdef enum:  # doubling parts (§4.1)
    PART_HRA = 0
    PART_SEDMA = 1
    PART_MAIN = 2
    PART_PROTI = 3
    N_PARTS = 4


cdef inline int card_suit(int card) noexcept nogil:
    return card >> 3

cdef inline mask32 suit_mask(int suit) noexcept nogil:
    return (<mask32>LANE_MASK) << (8 * suit)

cdef inline mask32 above(int card) noexcept nogil:
    # every bit strictly above `card` (callers intersect with one suit's lane)
    return ~(((<mask32>2) << card) - 1)

cdef inline int is_suit_game(int game) noexcept nogil:
    return game <= GAME_STO_A_SEDEM

cdef inline int announces_seven(int game) noexcept nogil:
    return game == GAME_SEDMA or game == GAME_STO_A_SEDEM

cdef inline mask32 trump_seven(int trump) noexcept nogil:
    return (<mask32>1) << (8 * trump + R7)


cdef inline int beats(int card, int best, int trump) noexcept nogil:
    """Does `card` beat the trick's current winning card `best` (§5.2)?"""
    if card_suit(card) == card_suit(best):
        return card > best
    return card_suit(card) == trump


cdef inline int trick_winner_index(const uint8_t *cards, int n, int trump) noexcept nogil:
    cdef int i, best = 0
    for i in range(1, n):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


cdef inline mask32 legal_cards(mask32 hand, const uint8_t *trick, int n, int trump,
                               int seven_guard, int queen_first) noexcept nogil:
    """The cards `hand` may play to a trick holding n cards (§5.3: follow, beat, trump,
    over-trump; then the announced-seven guard and the optional queen-before-king rule)."""
    cdef mask32 cand, follow, higher, t7
    cdef int led, win, s
    if n == 0:
        cand = hand
    else:
        led = card_suit(trick[0])
        win = trick[trick_winner_index(trick, n, trump)]
        follow = hand & suit_mask(led)
        if follow:
            cand = follow
            if card_suit(win) == led:            # not trumped (or trumps were led): must beat
                higher = follow & above(win)
                if higher:
                    cand = higher
        elif trump != NO_TRUMP and hand & suit_mask(trump):
            cand = hand & suit_mask(trump)       # void in the led suit: must trump
            if card_suit(win) == trump:          # already trumped: must over-trump if able
                higher = cand & above(win)
                if higher:
                    cand = higher
        else:
            cand = hand
    if seven_guard and trump != NO_TRUMP:
        t7 = trump_seven(trump)
        if cand & t7 and popcount32(cand) > 1:
            cand &= ~t7
    if queen_first:
        for s in range(4):
            if (cand >> (8 * s)) & KQ_LANE == KQ_LANE:
                cand &= ~((<mask32>1) << (8 * s + RK))
    return cand


cdef inline int hlas_suits(mask32 hand) noexcept nogil:
    """Bit s set when the hand holds the K and Q of suit s."""
    cdef int s, out = 0
    for s in range(4):
        if (hand >> (8 * s)) & KQ_LANE == KQ_LANE:
            out |= 1 << s
    return out


cdef inline int hlas_total(int suits, int trump) noexcept nogil:
    cdef int s, total = 0
    for s in range(4):
        if suits >> s & 1:
            total += 40 if s == trump else 20
    return total


cdef inline int card_points(mask32 cards) noexcept nogil:
    return 10 * popcount32(cards & POINT_CARDS)


# ---------------------------------------------------------------------------------------------
# Settlement (§6.3), the same formulas as analyzer/games/marias.py settle(); amounts in B.

cdef struct SettleRules:
    int scale_counts_all_hlasy
    int hlas_first                 # hlas_for_stovka = first
    int sto_a_sedem_step
    int quiet_unit                 # 4 (full) or 2 (half)
    int deal_cap                   # 0: none
    int maly_value
    int velky_value

cdef struct Outcome:
    int game
    int trump
    int cp_actor
    int last_actor                 # 1 when the actor won the last trick
    int hlasy_actor                # sum of the actor's hlasy
    int max_hlas_actor
    int first_hlas_actor           # value of the actor's first declared hlas
    int hlasy_def
    int seven
    int actor_tricks
    int proti                      # sedma proti settled with this defender
    int proti_announced            # sedma proti announced (the defence has no tichá sedma)
    int k[N_PARTS]


cdef inline int steps(int points) noexcept nogil:
    cdef int d = points - 100
    if d < 0:
        d = -d
    return 1 + d // 10


cdef inline int hra_value(int tot_a, int tot_d, const SettleRules *r) noexcept nogil:
    if tot_a >= 100:
        return r.quiet_unit * steps(tot_a)
    if tot_d >= 100:
        return -r.quiet_unit * steps(tot_d)
    return 1 if tot_a > tot_d else -1


cdef inline int settle_outcome(const Outcome *o, const SettleRules *r, int *main_won) noexcept nogil:
    """S, the amount each defender pays the actor; *main_won = 1 if the main part was won."""
    cdef int total = 0, main = 0, v, last_a, tot_a, tot_d, count_a, scale_a, quiet = 0
    if o.game == GAME_MALY:
        main = (r.maly_value if o.actor_tricks == 0 else -r.maly_value) << o.k[PART_MAIN]
        total = main
    elif o.game == GAME_VELKY:
        main = (r.velky_value if o.actor_tricks == N_TRICKS else -r.velky_value) << o.k[PART_MAIN]
        total = main
    else:
        last_a = LAST_TRICK_BONUS if o.last_actor else 0
        tot_a = o.cp_actor + last_a + o.hlasy_actor
        tot_d = (80 - o.cp_actor) + (LAST_TRICK_BONUS - last_a) + o.hlasy_def
        count_a = o.cp_actor + last_a + (o.first_hlas_actor if r.hlas_first else o.max_hlas_actor)
        scale_a = tot_a if r.scale_counts_all_hlasy else count_a
        if o.game == GAME_HRA or o.game == GAME_SEDMA:
            main = hra_value(tot_a, tot_d, r) << o.k[PART_HRA]
            total = main
            if o.game == GAME_SEDMA:
                total += (2 if o.seven == SEVEN_WON_ACTOR else -2) << o.k[PART_SEDMA]
        elif o.game == GAME_STOVKA:
            v = 4 * steps(scale_a) if count_a >= 100 else -4 * steps(count_a - o.hlasy_def)
            main = v << o.k[PART_MAIN]
            total = main
        else:
            if count_a >= 100 and o.seven == SEVEN_WON_ACTOR:
                v = 6 + r.sto_a_sedem_step * (steps(scale_a) - 1)
            elif count_a >= 100:
                v = -6
            else:
                v = -(6 + r.sto_a_sedem_step * (steps(count_a - o.hlasy_def) - 1))
            main = v << o.k[PART_MAIN]
            total = main
        if o.proti:
            total += (-2 if o.seven == SEVEN_WON_DEF else 2) << o.k[PART_PROTI]
        if not announces_seven(o.game):
            if o.seven == SEVEN_WON_ACTOR:
                quiet += 1
            elif o.seven == SEVEN_KILLED_ACTOR:
                quiet -= 1
        if not o.proti_announced:
            if o.seven == SEVEN_WON_DEF:
                quiet -= 1
            elif o.seven == SEVEN_KILLED_DEF:
                quiet += 1
        total += quiet
        if o.trump == SUIT_HEARTS:
            total *= 2
    if r.deal_cap:
        if total > r.deal_cap:
            total = r.deal_cap
        elif total < -r.deal_cap:
            total = -r.deal_cap
    main_won[0] = main > 0
    return total
