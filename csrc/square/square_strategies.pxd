# Square game strategies: the line potential the heuristic players maximise, the value cache, the
# choice of an action (random, greedy line-builder, spoiler) and the closing policy (threshold,
# last chance, "partner, may I close?").

from libc.stdint cimport uint8_t, uint32_t

from bitboard cimport N_SUITS
from rng cimport Rng, rng_below
from square_rules cimport *

cdef inline int line_potential(const uint8_t *sq, int line) noexcept nogil:
    # What a line is worth to the heuristic strategies: complete lines their points x 12; a partial
    # line whose cards are all one suit 2 per card (4 per card with two), all one colour 1 per card
    # (2 with two); a dead or empty line 0.
    cdef int i, card, k = 0, suit = -1, same_suit = 1, red = -1, same_colour = 1
    for i in range(3):
        card = sq[SQUARE_LINES[line][i]]
        if card == EMPTY:
            continue
        k += 1
        if suit < 0:
            suit = card >> 4
            red = is_red(card)
        else:
            same_suit &= (card >> 4) == suit
            same_colour &= is_red(card) == red
    if k == 0:
        return 0
    if k == 3:
        return COMPLETE_WEIGHT * line_points(sq[SQUARE_LINES[line][0]], sq[SQUARE_LINES[line][1]], sq[SQUARE_LINES[line][2]])
    if same_suit:
        return 2 * k * k
    if same_colour:
        return k * k
    return 0


cdef inline int potential_delta(uint8_t *sq, int cell, int new_card) noexcept nogil:
    # Change of the square's potential if `cell` held new_card (EMPTY = removal).
    cdef int j, line, before = 0, after = 0
    cdef uint8_t old = sq[cell]
    for j in range(4):
        line = SQUARE_CELL_LINES[cell][j]
        if line < 0:
            break
        before += line_potential(sq, line)
    sq[cell] = <uint8_t>new_card
    for j in range(4):
        line = SQUARE_CELL_LINES[cell][j]
        if line < 0:
            break
        after += line_potential(sq, line)
    sq[cell] = old
    return after - before


cdef struct ValueCache:
    # The strategies' value of an action depends only on the card's suit (not its rank), the square
    # and the cell, so it is computed once per (square, suit, cell) and per removal target.
    int place[2][N_SUITS][CELLS]
    int remove[2][CELLS]


cdef inline void clear_cache(ValueCache *c) noexcept nogil:
    cdef int side, suit, cell
    for side in range(2):
        for cell in range(CELLS):
            c.remove[side][cell] = UNSET
            for suit in range(N_SUITS):
                c.place[side][suit][cell] = UNSET


cdef inline int action_value(Deal *d, int own, int strategy, const Action *a, ValueCache *cache) noexcept nogil:
    cdef int sign
    cdef int *slot
    if a.kind == DISCARD:
        return 0
    if strategy == GREEDY and a.side != own:
        return -1000000          # the line-builder never touches the opponents' square
    sign = 1 if a.side == own else -1
    if a.kind == PLACE:
        slot = &cache.place[a.side][a.card >> 4][a.cell]
        if slot[0] == UNSET:
            slot[0] = sign * potential_delta(d.sq[a.side], a.cell, a.card)
        return slot[0]
    slot = &cache.remove[a.side][a.cell]
    if slot[0] == UNSET:
        slot[0] = sign * potential_delta(d.sq[a.side], a.cell, EMPTY) - REMOVE_COST
    return slot[0]


cdef inline int choose_action(Deal *d, const Rules *r, const Policy *policy, int seat, Rng *rng, Action *actions,
                       Action *chosen) noexcept nogil:
    cdef int n = legal_actions(d, r, seat, actions)
    cdef int i, best = 0, value, best_value
    cdef int own = side_of(r, seat)
    cdef int strategy = policy.strategy[own]
    cdef ValueCache cache
    if strategy == RANDOM:
        best = <int>rng_below(rng, <uint32_t>n)
    else:
        clear_cache(&cache)
        best_value = action_value(d, own, strategy, &actions[0], &cache)
        for i in range(1, n):
            value = action_value(d, own, strategy, &actions[i], &cache)
            if value > best_value:
                best_value = value
                best = i
    chosen[0] = actions[best]
    return n


cdef inline int try_close(Deal *d, const Rules *r, const Policy *policy, int seat, int last_chance,
                   int *asked, int *agreed) noexcept nogil:
    """The closing policy of `seat` (threshold of its side, partner's consent in 4-player play)."""
    cdef int side = side_of(r, seat)
    cdef int s = d.score[side]
    cdef int t = policy.threshold[side]
    asked[0] = 0
    agreed[0] = 0
    if s < CLOSE_MIN or d.refused[seat] or t >= NEVER_CLOSE:
        return 0
    if not (s >= t or (last_chance and s >= LAST_CHANCE_MIN)):
        return 0
    if r.players == 4 and r.partner_ask == ASK_ALWAYS:
        asked[0] = 1
        d.asks += 1
        if r.agree_threshold < NEVER_CLOSE and (s >= r.agree_threshold or (last_chance and s >= LAST_CHANCE_MIN)):
            agreed[0] = 1
        else:
            d.refused[seat] = 1
            d.refusals += 1
            return 0
    return 1
