# Square game rules as numbers (shared/rules/square.md §3-§4): constants, the deal state, line
# scoring, legal actions, applying an action, dealing. See square.pyx for the rules card.
#
# Encoding: a card is suit*16 + rank (suit S H D C = 0..3, rank 0.. in the pack's order low to
# high); hands are uint64 masks over those codes; a square is 9 bytes, EMPTY = 255.

from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memset

from bitboard cimport mask64, popcount64, lowest_bit64, clear_lowest64
from rng cimport Rng, rng_partial_shuffle

cdef enum:
    CELLS = 9
    N_LINES = 8
    EMPTY = 255
    LANE = 16
    MAX_CARDS = 52
    MAX_PLAYERS = 4
    MAX_SQUARE = 17            # square scores 0..16 (16 needs 9 cards of a suit: 52-card pack)
    MAX_TURNS = 64             # turn index bins; the last one means "never"
    SCORE_BINS = 40            # deal score + 1 (the last-actor rule can give -1)
    MAX_ACTIONS = 1024
    CLOSE_MIN = 5              # a side may close with a square of at least 5
    LAST_CHANCE_MIN = 6        # closing scores at least the plain total from 6 up (2S - 6 >= S)
    NEVER_CLOSE = 15
    COMPLETE_WEIGHT = 12       # potential of a complete line per point
    REMOVE_COST = 1            # a removal must gain more than this to beat a discard
    MAX_LOG = 128
    N_THRESHOLD_VARIANTS = 8
    MATCH_TOTAL_BINS = 1152    # final totals: a target of at most 1,000 and a last deal; the last bin takes more
    MATCH_MAX_DEALS = 4096     # a match not over after this many deals is counted unfinished
    UNSET = -1000000000         # empty slot of the value cache

cdef enum:  # action kinds (CLOSE only in the log: closing at the start of a turn)
    PLACE = 0
    DISCARD = 1
    REMOVE = 2
    CLOSE = 3

cdef enum:  # per-seat action counters
    COUNT_OWN = 0
    COUNT_OPPONENTS = 1
    COUNT_DISCARD = 2
    COUNT_REMOVE = 3
    N_COUNTS = 4

cdef enum:  # strategies
    RANDOM = 0
    GREEDY = 1
    SPOILER = 2

cdef enum:  # qj_remove
    REMOVE_NONE = 0
    REMOVE_OWN = 1
    REMOVE_ANY = 2

cdef enum:  # partner_ask
    ASK_NEVER = 0
    ASK_ALWAYS = 1

cdef enum:  # match mode
    MATCH_TARGET = 0
    MATCH_DEALS = 1

# The 8 lines of a square and the lines through each cell (-1 padded).
cdef extern from *:
    """
    static const int SQUARE_LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8},
                                           {0, 4, 8}, {2, 4, 6}};
    static const int SQUARE_CELL_LINES[9][4] = {{0, 3, 6, -1}, {0, 4, -1, -1}, {0, 5, 7, -1}, {1, 3, -1, -1},
                                                {1, 4, 6, 7}, {1, 5, -1, -1}, {2, 3, 7, -1}, {2, 4, -1, -1},
                                                {2, 5, 6, -1}};
    """
    const int SQUARE_LINES[8][3]
    const int SQUARE_CELL_LINES[9][4]


cdef struct Rules:
    int ranks                  # ranks per suit: 8, 9 or 13
    int n_cards
    int players
    int hand_size
    int draw
    int rank_fixed
    int qj_remove
    mask64 qj_mask
    int cover
    int close_at_turn_start
    int last_actor_closes
    int partner_ask
    int agree_threshold
    int match_mode
    int match_target
    int match_deals


cdef struct Policy:            # per side (A = seats 0 and 2, B = seats 1 and 3)
    int strategy[2]
    int threshold[2]


cdef struct Action:
    uint8_t kind
    uint8_t card
    uint8_t side               # the square acted on (PLACE, REMOVE)
    uint8_t cell


cdef struct LogEntry:
    int turn
    int seat
    Action action
    int covered                # card covered or removed, EMPTY if none
    int asked
    int agreed
    int closed
    int score[2]


cdef struct Deal:
    uint8_t sq[2][CELLS]
    mask64 hand[MAX_PLAYERS]
    uint8_t stock[MAX_CARDS]
    int stock_pos
    int stock_n
    int score[2]               # current square scores
    int refused[MAX_PLAYERS]
    int first_closable[2]      # first turn index with S >= 5 for each side, MAX_TURNS - 1 = never
    int closer                 # seat, -1 if nobody closed
    int close_turn
    int last_actor
    int turns
    int asks
    int refusals
    int kinds[MAX_PLAYERS][N_COUNTS]
    int deal_score[2]          # final deal scores of the two sides
    LogEntry *log
    int log_n


cdef inline int is_red(int card) noexcept nogil:
    cdef int suit = card >> 4
    return suit == 1 or suit == 2


cdef inline int line_points(int a, int b, int c) noexcept nogil:
    if a == EMPTY or b == EMPTY or c == EMPTY:
        return 0
    if (a >> 4) == (b >> 4) and (b >> 4) == (c >> 4):
        return 2
    if is_red(a) == is_red(b) and is_red(b) == is_red(c):
        return 1
    return 0


cdef inline int square_score(const uint8_t *sq) noexcept nogil:
    cdef int i, total = 0
    for i in range(N_LINES):
        total += line_points(sq[SQUARE_LINES[i][0]], sq[SQUARE_LINES[i][1]], sq[SQUARE_LINES[i][2]])
    return total


cdef inline int side_of(const Rules *r, int seat) noexcept nogil:
    return seat & 1


cdef inline int legal_actions(const Deal *d, const Rules *r, int seat, Action *out) noexcept nogil:
    """All legal actions of `seat`, in the fixed order the strategies break ties by."""
    cdef int n = 0, card, cell, first, last, k, t
    cdef int own = side_of(r, seat)
    cdef int targets[2]
    targets[0] = own
    targets[1] = 1 - own
    cdef mask64 hand = d.hand[seat]
    while hand:
        card = lowest_bit64(hand)
        hand = clear_lowest64(hand)
        if r.rank_fixed:
            first = card & (LANE - 1)
            last = first + 1
        else:
            first = 0
            last = CELLS
        for k in range(2):
            t = targets[k]
            for cell in range(first, last):
                if d.sq[t][cell] == EMPTY or r.cover:
                    out[n].kind = PLACE
                    out[n].card = <uint8_t>card
                    out[n].side = <uint8_t>t
                    out[n].cell = <uint8_t>cell
                    n += 1
        if r.qj_remove != REMOVE_NONE and (r.qj_mask >> card) & 1:
            for k in range(2 if r.qj_remove == REMOVE_ANY else 1):
                t = targets[k]
                for cell in range(CELLS):
                    if d.sq[t][cell] != EMPTY:
                        out[n].kind = REMOVE
                        out[n].card = <uint8_t>card
                        out[n].side = <uint8_t>t
                        out[n].cell = <uint8_t>cell
                        n += 1
        out[n].kind = DISCARD
        out[n].card = <uint8_t>card
        out[n].side = <uint8_t>own
        out[n].cell = 0
        n += 1
    return n


cdef inline int apply_action(Deal *d, const Rules *r, int seat, const Action *a) noexcept nogil:
    """Play the action; returns the card covered or removed (EMPTY if none)."""
    cdef int displaced = EMPTY
    d.hand[seat] &= ~((<mask64>1) << a.card)
    if a.kind == PLACE:
        displaced = d.sq[a.side][a.cell]
        d.sq[a.side][a.cell] = a.card
        d.score[a.side] = square_score(d.sq[a.side])
        d.kinds[seat][COUNT_OWN if a.side == side_of(r, seat) else COUNT_OPPONENTS] += 1
    elif a.kind == REMOVE:
        displaced = d.sq[a.side][a.cell]
        d.sq[a.side][a.cell] = EMPTY
        d.score[a.side] = square_score(d.sq[a.side])
        d.kinds[seat][COUNT_REMOVE] += 1
    else:
        d.kinds[seat][COUNT_DISCARD] += 1
    return displaced


cdef inline int closer_points(int s) noexcept nogil:
    # S + (points above 5 counted again) - 1 for closing; = 2S - 6 for S >= 5.
    return s + (s - CLOSE_MIN if s > CLOSE_MIN else 0) - 1


cdef inline int cards_left(const Deal *d, const Rules *r) noexcept nogil:
    cdef int p, n = d.stock_n - d.stock_pos
    for p in range(r.players):
        n += popcount64(d.hand[p])
    return n


cdef inline void note_closable(Deal *d) noexcept nogil:
    cdef int k
    for k in range(2):
        if d.score[k] >= CLOSE_MIN and d.first_closable[k] == MAX_TURNS - 1:
            d.first_closable[k] = d.turns if d.turns < MAX_TURNS - 1 else MAX_TURNS - 2


cdef inline void log_turn(Deal *d, int seat, const Action *a, int displaced, int asked, int agreed, int closed) noexcept nogil:
    cdef LogEntry *e
    if d.log == NULL or d.log_n >= MAX_LOG:
        return
    e = &d.log[d.log_n]
    d.log_n += 1
    e.turn = d.turns
    e.seat = seat
    e.action = a[0]
    e.covered = displaced
    e.asked = asked
    e.agreed = agreed
    e.closed = closed
    e.score[0] = d.score[0]
    e.score[1] = d.score[1]


cdef inline void deal_cards(Deal *d, const Rules *r, Rng *rng, uint8_t *deck) noexcept nogil:
    cdef int p, i, dealt = r.players * r.hand_size
    memset(d.sq, EMPTY, sizeof(d.sq))
    rng_partial_shuffle(rng, deck, r.n_cards, r.n_cards if r.draw else dealt)
    for p in range(MAX_PLAYERS):
        d.hand[p] = 0
    for p in range(r.players):
        for i in range(r.hand_size):
            d.hand[p] |= (<mask64>1) << deck[p * r.hand_size + i]
    d.stock_n = 0
    if r.draw:
        for i in range(dealt, r.n_cards):
            d.stock[d.stock_n] = deck[i]
            d.stock_n += 1
