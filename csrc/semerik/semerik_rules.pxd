# Semerik rules as numbers: the encoding, declarations, trick play and its points, the game check.
# shared/rules/semerik.md; the rules card is at the top of semerik.pyx.
#
# Encoding: uint64 mask with a 16-bit lane per suit, bit = 16*suit + rank, suits S H D C = 0..3,
# ranks 4 5 6 7 J Q K A 2 3 = 0..9 (strength order), so a higher card of a suit is a higher bit.
# Seats 0..3 in the order of play; partnership = seat & 1 (A = seats 0 and 2).

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset

from bitboard cimport mask64, popcount64, lowest_bit64, suit_lane64, rank_count64

cdef extern from *:
    """
    #define SEMERIK_RANK_COLUMN 0x0001000100010001ULL
    #define SEMERIK_FULL_DECK   0x03FF03FF03FF03FFULL
    #define SEMERIK_HONOURS     0x03F003F003F003F0ULL
    """
    const mask64 RANK_COLUMN "SEMERIK_RANK_COLUMN"   # bit 0 of every lane
    const mask64 FULL_DECK "SEMERIK_FULL_DECK"
    const mask64 HONOURS "SEMERIK_HONOURS"           # J Q K A 2 3 of every suit

cdef enum:
    N_CARDS = 40
    N_RANKS = 10
    N_SEATS = 4
    HAND = 10
    N_TRICKS = 10
    LANE = 16
    HEARTS = 1                   # the trump suit
    LANE_FULL = 0x3FF            # the ten ranks of a lane
    HONOUR_LANE = 0x3F0          # J Q K A 2 3
    BABA_LANE = 0x380            # A 2 3
    OTHER_SET_RANKS = 0x077      # 4 5 6 J Q K: a set of them scores 1
    FIRST_HONOUR = 4             # rank index of the jack
    MAX_DECL = 40                # histogram size of one hand's declarations (max 26 by default)
    MAX_POINTS = 128             # histogram size of a side's points
    MAX_GAME_DEALS = 64          # histogram size of a game's length (a deal always scores >= 1)
    MAX_TRIES = 16               # attempts to sample a world that respects the known voids
    MAX_WORLDS = 1024

cdef enum:  # ranks, low to high
    R4 = 0
    R5 = 1
    R6 = 2
    R7 = 3
    RJ = 4
    RQ = 5
    RK = 6
    RA = 7
    R2 = 8
    R3 = 9

cdef enum:  # strategies
    RANDOM = 0
    GREEDY = 1
    PIMC = 2

cdef enum:  # trick-point counting
    PER_TRICK = 0
    AGGREGATE = 1

cdef enum:  # outcome of the game check
    PLAY_ON = -1
    WINNER_A = 0
    WINNER_B = 1


cdef inline int game_winner(int a, int b, const Rules *r) noexcept nogil:
    if a < r.target and b < r.target:
        return PLAY_ON
    if a > b:
        return WINNER_A
    if b > a:
        return WINNER_B
    return PLAY_ON


cdef inline int game_value(int loser_score, const Rules *r) noexcept nogil:
    return 2 if loser_score < r.double_below else 1


cdef struct Rules:
    int heart_baba_literal
    int four_of_kind_bonus
    int overlap_disallowed
    int honour_count
    int capot_replaces
    int capot_bonus
    int last_trick_points
    int step                     # 1 clockwise, 3 counter-clockwise (seat after s is (s + step) & 3)
    int target
    int double_below
    int check_after_declarations
    int strategy[2]              # per partnership
    int pimc_worlds
    int ruff_min_honours         # greedy ruffs an opponent's trick only if it holds this many honours


# ---------------------------------------------------------------------------------------------
# Declarations

cdef inline int baba_extension(uint32_t lane) noexcept nogil:
    # K, then K Q, then K Q J: the run must continue down from the ace.
    if not (lane >> RK) & 1:
        return 0
    if not (lane >> RQ) & 1:
        return 1
    if not (lane >> RJ) & 1:
        return 2
    return 3


cdef inline int plain_baba_value(int ext) noexcept nogil:
    # by extension: none 3, K 6, K Q 9, K Q J 15
    return 15 if ext == 3 else 3 * (ext + 1)


cdef inline int baba_value(int suit, int ext, const Rules *r) noexcept nogil:
    if suit != HEARTS:
        return plain_baba_value(ext)
    if r.heart_baba_literal:
        return 5 if ext == 0 else plain_baba_value(ext)
    return plain_baba_value(ext) + 2


cdef inline uint32_t extension_bits(int ext) noexcept nogil:
    # the K, K Q or K Q J that extend a baba (bits 6, 5, 4)
    return (0x70 << (3 - ext)) & 0x70


cdef inline int set_points(const int *counts, int with_baba, const Rules *r) noexcept nogil:
    cdef int rank, pts = 0
    if counts[R7] >= 3:
        pts += 4
    for rank in range(RA, R3 + 1):              # aces, 2s, 3s
        if counts[rank] >= 3:
            pts += 4 if with_baba else 3
            if r.four_of_kind_bonus and counts[rank] == 4:
                pts += 1
    for rank in range(N_RANKS):                  # every other rank
        if rank != R7 and rank < RA and counts[rank] >= 3:
            pts += 1
    return pts


cdef inline int declare(mask64 hand, const Rules *r, mask64 *shown, int *chosen_babas) noexcept nogil:
    """Declaration points of one hand. *shown receives the cards the declarations show, and
    *chosen_babas the suits whose baba is declared (all of them unless overlap is disallowed)."""
    cdef int counts[N_RANKS]
    cdef int reduced[N_RANKS]
    cdef int ext[4]
    cdef int rank, s, babas = 0, sub, pts, best, best_sub
    cdef uint32_t lane, l0, l1, l2, l3, sets, fours
    cdef mask64 show = 0
    # Ranks held three or four times, bit-sliced over the four suit lanes.
    l0 = suit_lane64(hand, 0)
    l1 = suit_lane64(hand, 1)
    l2 = suit_lane64(hand, 2)
    l3 = suit_lane64(hand, 3)
    sets = (l0 & l1 & (l2 | l3)) | ((l0 | l1) & l2 & l3)
    fours = l0 & l1 & l2 & l3
    show = hand & ((<mask64>sets) * RANK_COLUMN)
    for s in range(4):
        lane = suit_lane64(hand, s)
        ext[s] = 0
        if (lane & BABA_LANE) == BABA_LANE:
            babas |= 1 << s
            ext[s] = baba_extension(lane)
            show |= (<mask64>(lane & (BABA_LANE | extension_bits(ext[s])))) << (LANE * s)
    shown[0] = show
    if not r.overlap_disallowed:
        chosen_babas[0] = babas
        if show == 0:
            return 0                                   # most hands: no baba, no set
        pts = 4 * ((sets >> R7) & 1) + popcount64(sets & OTHER_SET_RANKS)
        pts += popcount64(sets & BABA_LANE) * (4 if babas else 3)
        if r.four_of_kind_bonus:
            pts += popcount64(fours & BABA_LANE)
        for s in range(4):
            if babas >> s & 1:
                pts += baba_value(s, ext[s], r)
        return pts
    for rank in range(N_RANKS):
        counts[rank] = rank_count64(hand, rank)
    # No card in two declarations: try every subset of the babas (a declared baba takes its
    # extension too, which is never worth less than the set the freed card might complete).
    best = -1
    best_sub = 0
    for sub in range(16):
        if sub & ~babas:
            continue
        for rank in range(N_RANKS):
            reduced[rank] = counts[rank]
        pts = 0
        for s in range(4):
            if sub >> s & 1:
                pts += baba_value(s, ext[s], r)
                reduced[R3] -= 1
                reduced[R2] -= 1
                reduced[RA] -= 1
                for rank in range(ext[s]):
                    reduced[RK - rank] -= 1
        pts += set_points(reduced, sub != 0, r)
        if pts > best:
            best = pts
            best_sub = sub
    chosen_babas[0] = best_sub
    return best


# ---------------------------------------------------------------------------------------------
# Card play

cdef struct Table:
    mask64 hand[N_SEATS]
    mask64 shown[N_SEATS]        # declared cards not yet played (public)
    mask64 played                # every card played so far, the current trick included
    int void[N_SEATS]            # bit s: the seat has shown out of suit s (public)
    int leader
    int to_play
    int n_in_trick
    int led_suit
    int win_seat
    int win_card
    int trick_honours
    int trick_no
    int honours[2]               # honours won, per partnership
    int points[2]                # per-trick honour points won, per partnership
    int tricks[2]
    int last_winner


cdef inline int trick_points(int honours) noexcept nogil:
    # a trick with 3 honours scores 1, with 4 honours 2
    return honours - 2 if honours >= 3 else 0


cdef inline int side_of(int seat) noexcept nogil:
    return seat & 1


cdef inline void start_deal(Table *t, const mask64 *hands, int dealer, const Rules *r, int *decl) noexcept nogil:
    cdef int s, chosen
    memset(t, 0, sizeof(Table))
    for s in range(N_SEATS):
        t.hand[s] = hands[s]
        decl[s] = declare(hands[s], r, &t.shown[s], &chosen)
    t.leader = (dealer + r.step) & 3
    t.to_play = t.leader


cdef inline mask64 legal_moves(const Table *t, int seat) noexcept nogil:
    cdef mask64 follow
    if t.n_in_trick == 0:
        return t.hand[seat]
    follow = t.hand[seat] & ((<mask64>LANE_FULL) << (LANE * t.led_suit))
    return follow if follow else t.hand[seat]


cdef inline bint beats(int card, int best) noexcept nogil:
    # best is of the suit led or a heart; a card beats it if higher in its suit or the first heart.
    if card >> 4 == best >> 4:
        return (card & 15) > (best & 15)
    return card >> 4 == HEARTS


cdef inline void play_card(Table *t, int card, const Rules *r) noexcept nogil:
    cdef int seat = t.to_play, suit = card >> 4, side
    cdef mask64 bit = (<mask64>1) << card
    t.hand[seat] &= ~bit
    t.shown[seat] &= ~bit
    t.played |= bit
    if t.n_in_trick == 0:
        t.led_suit = suit
        t.win_seat = seat
        t.win_card = card
        t.trick_honours = 0
    else:
        if suit != t.led_suit:
            t.void[seat] |= 1 << t.led_suit
        if beats(card, t.win_card):
            t.win_seat = seat
            t.win_card = card
    t.trick_honours += (card & 15) >= FIRST_HONOUR
    t.n_in_trick += 1
    if t.n_in_trick == N_SEATS:
        side = side_of(t.win_seat)
        t.honours[side] += t.trick_honours
        t.points[side] += trick_points(t.trick_honours)
        t.tricks[side] += 1
        t.last_winner = t.win_seat
        t.trick_no += 1
        t.n_in_trick = 0
        t.leader = t.win_seat
        t.to_play = t.win_seat
    else:
        t.to_play = (seat + r.step) & 3


cdef inline void trick_score(const Table *t, const Rules *r, int *out) noexcept nogil:
    """Points of each partnership from the tricks of a finished (or played-out) deal."""
    cdef int side
    for side in range(2):
        out[side] = t.points[side] if r.honour_count == PER_TRICK else t.honours[side] // 3
    if t.trick_no == N_TRICKS:
        out[side_of(t.last_winner)] += r.last_trick_points
    for side in range(2):
        if t.tricks[side] == N_TRICKS:
            out[side] = r.capot_bonus if r.capot_replaces else out[side] + r.capot_bonus
