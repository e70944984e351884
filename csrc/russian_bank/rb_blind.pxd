# Russian Bank: blind play of the SOLO game (§9.2 "Blind play", policies of §10.6).
#
# The SOLO game: one pack, STOCK 13 (top face up), 4 houses, HAND 35, WASTE, one foundation per
# suit, no loading, auto_turn (the hand top is always the current card), DISCARD puts it on the
# waste; an empty hand is refilled by turning the waste over (first discard on top) while redeals
# remain (k = redeal limit, UNLIMITED = -1). Priority strict: while an available card (stock top,
# hand card, house top) fits a foundation only foundation plays are legal. G1 plays a foundation
# move whenever one exists, so it never uses the freedom of priority none: its games are the same
# under both priorities (a test checks it), and the engine needs no priority flag for it.
#
# A blind policy sees only the face-up cards: stock top, houses, the hand card, foundations.
#
# End of a game (the game is played by the policy alone):
#   WIN        stock, hand and waste are empty (checked after every action);
#   STUCK      the policy has no action: no move it makes and no hand card to discard (the hand
#              is empty and either the waste is empty too or no redeal remains) -> lost;
#   CYCLE      only with k = UNLIMITED: the last hand_n + waste_n actions were all DISCARDs.
#              A run of discards as long as hand + waste goes once round the cyclic turning order
#              (§9.3 F1) and returns to the same position; the policy is a function of the
#              position, so it would discard the same way forever -> lost.
# With finite k the game always ends (at most (k + 1) x 35 discards, and between two discards the
# policy's moves raise the foundations, lower stock + hand + waste, or empty a house while the
# other two stay put), so no cycle rule is needed there.

from libc.stdint cimport uint8_t
from libc.string cimport memset
from rb_rules cimport N_KINDS, N_RANKS, HOUSE_CAP, DECK_STOCK, UNLIMITED, suit_of, rank_of, fits_house_slow

cdef enum:
    BL_HOUSES = 4
    BL_STOCK = 0                 # sources: 0 stock, 1 hand card, 2 + h house h
    BL_HAND = 1
    BL_HOUSE = 2
    BL_FOUNDATION = 0            # destinations: 0 foundation, 1 + h house h
    BL_DISCARD = 64              # a move is src * 8 + dst
    BL_NONE = -1
    BL_RUNNING = 0               # ends
    BL_WIN = 1
    BL_STUCK = 2
    BL_CYCLE = 3
    POLICY_GREEDY = 0
    POLICY_HINDSIGHT = 1         # SOLO(∞, none) only: rb_hindsight.pxd (not a blind_choose policy)

cdef struct Blind:
    uint8_t stock[DECK_STOCK]    # bottom -> top
    uint8_t house[BL_HOUSES][HOUSE_CAP]
    uint8_t hand[N_KINDS]        # bottom -> top; the top is the current (face-up) card
    uint8_t waste[N_KINDS]
    uint8_t found[BL_HOUSES]     # foundation height per suit
    int stock_n
    int house_n[BL_HOUSES]
    int hand_n
    int waste_n
    int k                        # redeal limit or UNLIMITED
    int redeals
    int actions                  # card moves and discards
    int idle                     # discards since the last card move
    int end


cdef inline int bl_move(int src, int dst) noexcept nogil:
    return src * 8 + dst

cdef inline void blind_deal(Blind *b, const uint8_t *d, int k) noexcept nogil:
    """The SOLO layout of a shuffled pack d[0..51] (top first), as the solver deals it (§2):
    stock d[12] .. d[0] (top d[0]), houses d[13..16], hand d[51] .. d[17] (top d[17])."""
    cdef int i
    memset(b, 0, sizeof(Blind))
    for i in range(DECK_STOCK):
        b.stock[i] = d[DECK_STOCK - 1 - i]
    b.stock_n = DECK_STOCK
    for i in range(BL_HOUSES):
        b.house[i][0] = d[DECK_STOCK + i]
        b.house_n[i] = 1
    b.hand_n = N_KINDS - DECK_STOCK - BL_HOUSES
    for i in range(b.hand_n):
        b.hand[i] = d[N_KINDS - 1 - i]
    b.k = k

cdef inline int bl_fits_found(const Blind *b, int c) noexcept nogil:
    return b.found[suit_of(c)] == rank_of(c)

cdef inline int bl_top(const Blind *b, int src) noexcept nogil:
    """The card of a source, or -1 if it has none."""
    if src == BL_STOCK:
        return b.stock[b.stock_n - 1] if b.stock_n else -1
    if src == BL_HAND:
        return b.hand[b.hand_n - 1] if b.hand_n else -1
    src -= BL_HOUSE
    return b.house[src][b.house_n[src] - 1] if b.house_n[src] else -1

cdef inline int blind_greedy(const Blind *b) noexcept nogil:
    """G1 of §10.6 without the loading classes: a foundation play if any (stock top, then the hand
    card, then house tops by index); else the lowest class — 2: stock top onto a house; 4: hand
    card onto a non-empty house; 5: the only card of a house onto a non-empty house (frees a
    house); 6: hand card to an empty house, only if two or more are empty — ties by destination
    house (only the first empty house is offered), then by source house; else DISCARD; else
    BL_NONE (no hand card: the game is stuck)."""
    cdef int src, h, s, c, stock = bl_top(b, BL_STOCK), hand = bl_top(b, BL_HAND)
    cdef int first_empty = -1, empties = 0
    for src in range(BL_HOUSE + BL_HOUSES):
        c = bl_top(b, src)
        if c >= 0 and bl_fits_found(b, c):
            return bl_move(src, BL_FOUNDATION)
    for h in range(BL_HOUSES):
        if b.house_n[h] == 0:
            empties += 1
            if first_empty < 0:
                first_empty = h
    if stock >= 0:                                            # class 2
        for h in range(BL_HOUSES):
            if h == first_empty or (b.house_n[h] and fits_house_slow(stock, bl_top(b, BL_HOUSE + h))):
                return bl_move(BL_STOCK, 1 + h)
    if hand >= 0:                                             # class 4
        for h in range(BL_HOUSES):
            if b.house_n[h] and fits_house_slow(hand, bl_top(b, BL_HOUSE + h)):
                return bl_move(BL_HAND, 1 + h)
    for h in range(BL_HOUSES):                                # class 5
        if b.house_n[h] == 0:
            continue
        for s in range(BL_HOUSES):
            if s != h and b.house_n[s] == 1 and fits_house_slow(b.house[s][0], bl_top(b, BL_HOUSE + h)):
                return bl_move(BL_HOUSE + s, 1 + h)
    if hand >= 0 and empties >= 2:                            # class 6
        return bl_move(BL_HAND, 1 + first_empty)
    return BL_DISCARD if hand >= 0 else BL_NONE

cdef inline void bl_refill(Blind *b) noexcept nogil:
    """auto_turn: after the hand card left, turn the waste over if the hand is empty (§5.2)."""
    cdef int i
    if b.hand_n == 0 and b.waste_n > 0 and (b.k == UNLIMITED or b.redeals < b.k):
        for i in range(b.waste_n):
            b.hand[i] = b.waste[b.waste_n - 1 - i]
        b.hand_n = b.waste_n
        b.waste_n = 0
        b.redeals += 1

cdef inline void blind_apply(Blind *b, int a) noexcept nogil:
    """Apply a legal action and update the end of the game."""
    cdef int src, dst, c
    b.actions += 1
    if a == BL_DISCARD:
        b.hand_n -= 1
        b.waste[b.waste_n] = b.hand[b.hand_n]
        b.waste_n += 1
        b.idle += 1
        bl_refill(b)
        if b.k == UNLIMITED and b.idle >= b.hand_n + b.waste_n:
            b.end = BL_CYCLE
        return
    b.idle = 0
    src = a >> 3
    dst = a & 7
    if src == BL_STOCK:
        b.stock_n -= 1
        c = b.stock[b.stock_n]
    elif src == BL_HAND:
        b.hand_n -= 1
        c = b.hand[b.hand_n]
    else:
        b.house_n[src - BL_HOUSE] -= 1
        c = b.house[src - BL_HOUSE][b.house_n[src - BL_HOUSE]]
    if dst == BL_FOUNDATION:
        b.found[suit_of(c)] += 1
    else:
        b.house[dst - 1][b.house_n[dst - 1]] = c
        b.house_n[dst - 1] += 1
    if src == BL_HAND:
        bl_refill(b)
    if b.stock_n == 0 and b.hand_n == 0 and b.waste_n == 0:
        b.end = BL_WIN

cdef inline int blind_choose(const Blind *b, int policy) noexcept nogil:
    return blind_greedy(b)

cdef inline void blind_play(Blind *b, int policy) noexcept nogil:
    """Play the dealt position to its end (b.end)."""
    cdef int a
    while b.end == BL_RUNNING:
        a = blind_choose(b, policy)
        if a == BL_NONE:
            b.end = BL_STUCK
        else:
            blind_apply(b, a)

cdef inline int blind_cards_left(const Blind *b) noexcept nogil:
    return b.stock_n + b.hand_n + b.waste_n
