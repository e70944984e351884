# Ved'ma ("the witch") — Russian old maid with the queen of spades (shared/rules/vedma.md).
#
# Rules card:
#   Pack     32 cards (7..A) or 52 cards (2..A); option deck = 32 | 52. 2 to 6 players.
#   Deal     the whole pack, one card at a time clockwise from seat 0 (the dealer's left); seat n-1
#            deals. Seat i gets the cards i, i+n, i+2n, ... of the shuffled pack.
#   Pairs    any two cards of one rank pair, suits ignored; QS (the witch) never pairs. Discarding
#            "all pairs" keeps one card of every rank held an odd number of times (here the card
#            of the last suit in the order S H D C; which one stays is immaterial to the game).
#   Order    LITERAL (the seed, default): no preliminary discard; a turn is "draw one card from the
#            right-hand neighbour, then discard every pair in the hand".
#            STANDARD: every hand discards its pairs first, then the same turns.
#   Turns    seat 0 draws first (if it holds cards; else the next seat to its left that does), from
#            the nearest seat to its right holding cards; the turn passes left, skipping empty
#            hands. A player whose hand is empty is out and safe.
#   End      when only one hand holds cards; its holder (who holds QS) loses.
#   Draws    uniform over the victim's cards. The placement analysis models a drawer who takes
#            the two edge cards of a fanned hand with weight e (edge_weight) and inner cards with
#            weight 1, and holders who offer the witch at the position most likely to be drawn
#            ("smart": an edge if e > 1, inside the fan if e < 1) or keep it at a random one:
#            with h >= 3 cards a smart holder gives it away with probability
#            max(e, 1) / (2e + h - 2) instead of 1/h. The compare analysis plays holders who
#            keep the witch at an edge (e / (2e + h - 2)), inside the fan (1 / (2e + h - 2)) or
#            at a uniformly random position (1/h), every play of a deal on one tape of uniforms.
#
# Encoding: a hand is a uint64 mask with one 16-bit lane per suit (S H D C) and rank positions of
# the 52-card pack (2 = 0 ... A = 12), whatever the pack, so both packs share one code path.
# The pairs of a hand are found lane-parallel: the XOR of the four suit lanes marks the ranks
# held an odd number of times.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int16_t, uint32_t, uint64_t, int64_t

from bitboard cimport mask64, popcount64, lowest_bit64, LANE64
from rng cimport Rng, rng_init, rng_below, rng_uniform, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t

cnp.import_array()

cdef enum:
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    MAX_CARDS = 52
    RANKS52 = 13
    QUEEN = 10                    # rank position of Q in the 52-card lane
    WITCH_BIT = QUEEN             # QS: spades lane, queen position
    MAX_DRAWS_HIST = 1024         # game-length histogram; the last bin counts longer games
    MAX_TRACE = 4096              # draws recorded by play_traced (longer games are cut)

cdef enum:  # discard orders
    LITERAL = 0
    STANDARD = 1

cdef enum:  # witch placement of a holder: placement analysis (RANDOM/SMART), compare (UNIFORM/EDGE/CENTRE)
    RANDOM_PLACE = 0
    SMART_PLACE = 1
    UNIFORM_PLACE = 2
    EDGE_PLACE = 3
    CENTRE_PLACE = 4

cdef enum:
    TAPE_LENGTH = 8192            # draws per deal replayed by every play of the compare analysis
PLACEMENT_NAMES = ("uniform", "edge", "centre")   # compare labels, in the order of the codes below
cdef int[3] PLACEMENT_CODES = [UNIFORM_PLACE, EDGE_PLACE, CENTRE_PLACE]

cdef mask64 LANE_MASK = 0xFFFF
cdef mask64 WITCH = (<mask64>1) << WITCH_BIT

# Per-deal row layout of play_shard(rows=...): the dealt hands, then the loser and the draws.
cdef enum:
    ROW_HANDS = 0
    ROW_LOSER = MAX_PLAYERS
    ROW_DRAWS = MAX_PLAYERS + 1
    ROW_WIDTH = MAX_PLAYERS + 2


cdef struct Rules:
    int players
    int n_cards
    int first_rank               # lowest rank position used (0 for 52 cards, 5 = '7' for 32)
    int order


cdef struct Tape:
    # The drawer's uniforms of one deal, shared by every play of it (common random numbers): the
    # i-th draw of any play uses u[i], drawn from the stream when first needed. Draws past
    # `capacity` (not seen in practice) come fresh from the stream.
    double *u
    int capacity
    int filled
    int pos
    Rng *rng


cdef struct DrawModel:
    int smart[MAX_PLAYERS]       # placement of each seat: RANDOM_PLACE or SMART_PLACE, or with a
                                 # tape UNIFORM_PLACE, EDGE_PLACE or CENTRE_PLACE
    double edge_weight
    Tape *tape                   # NULL except in the compare analysis


cdef inline mask64 discard_pairs(mask64 hand) noexcept nogil:
    """The hand after discarding all pairs: one card stays of every rank held an odd number of
    times (that of the last suit), the witch always stays."""
    cdef mask64 plain = hand & ~WITCH
    cdef mask64 s = plain & LANE_MASK
    cdef mask64 h = (plain >> LANE64) & LANE_MASK
    cdef mask64 d = (plain >> (2 * LANE64)) & LANE_MASK
    cdef mask64 c = plain >> (3 * LANE64)
    cdef mask64 odd = s ^ h ^ d ^ c
    cdef mask64 keep_c = c & odd
    cdef mask64 keep_d = d & odd & ~c
    cdef mask64 keep_h = h & odd & ~(c | d)
    cdef mask64 keep_s = s & odd & ~(h | d | c)
    return (hand & WITCH) | keep_s | (keep_h << LANE64) | (keep_d << (2 * LANE64)) | (keep_c << (3 * LANE64))


cdef inline mask64 nth_card(mask64 hand, int k) noexcept nogil:
    """The k-th card (0-based, in increasing bit order) of a hand with more than k cards."""
    cdef int lane = 0, in_lane
    cdef mask64 m
    while True:
        in_lane = popcount64((hand >> (lane * LANE64)) & LANE_MASK)
        if k < in_lane:
            break
        k -= in_lane
        lane += 1
    m = hand & (LANE_MASK << (lane * LANE64))
    while k:
        m &= m - 1
        k -= 1
    return m & (~m + 1)


cdef inline double tape_next(Tape *tape) noexcept nogil:
    cdef double u
    if tape.pos < tape.filled:
        u = tape.u[tape.pos]
    else:
        u = rng_uniform(tape.rng)
        if tape.pos < tape.capacity:
            tape.u[tape.pos] = u
            tape.filled = tape.pos + 1
    tape.pos += 1
    return u


cdef inline mask64 draw_placed(mask64 victim, int place, double e, Tape *tape) noexcept nogil:
    """The compare analysis's draw, one tape uniform u per draw. With h >= 3 cards the holder of
    the witch keeps it at an edge (taken with probability e/(2e+h-2)), inside the fan
    (1/(2e+h-2)) or at a uniformly random position (1/h); the drawer takes the witch if u falls
    below that, otherwise the other cards share the rest of [0, 1) equally. With e = 1 the three
    placements make the same draws."""
    cdef int h = popcount64(victim), k
    cdef double u = tape_next(tape), p_witch
    if victim & WITCH:
        p_witch = 1.0 / h
        if h >= 3 and place == EDGE_PLACE:
            p_witch = e / (2.0 * e + h - 2)
        elif h >= 3 and place == CENTRE_PLACE:
            p_witch = 1.0 / (2.0 * e + h - 2)
        if u < p_witch:
            return WITCH
        k = <int>((u - p_witch) / (1.0 - p_witch) * (h - 1))
        return nth_card(victim & ~WITCH, k if k < h - 2 else h - 2)
    k = <int>(u * h)
    return nth_card(victim, k if k < h - 1 else h - 1)


cdef inline mask64 draw_card(mask64 victim, int victim_seat, const DrawModel *model, Rng *rng) noexcept nogil:
    """The card a drawer takes from the victim's hand: uniform, unless the victim is a smart
    holder of the witch, who offers it where the drawer's hand goes most often (or, with a tape,
    the compare analysis's draw_placed)."""
    cdef int h = popcount64(victim)
    cdef double e, p_witch
    if model != NULL and model.tape != NULL:
        return draw_placed(victim, model.smart[victim_seat], model.edge_weight, model.tape)
    if model != NULL and (victim & WITCH) and model.smart[victim_seat] == SMART_PLACE and h >= 3:
        e = model.edge_weight
        p_witch = (e if e > 1.0 else 1.0) / (2.0 * e + h - 2)
        if rng_uniform(rng) < p_witch:
            return WITCH
        return nth_card(victim & ~WITCH, <int>rng_below(rng, <uint32_t>(h - 1)))
    return nth_card(victim, <int>rng_below(rng, <uint32_t>h))


cdef inline int next_left(const mask64 *hand, int seat, int n) noexcept nogil:
    seat += 1
    if seat == n:
        seat = 0
    while hand[seat] == 0:
        seat += 1
        if seat == n:
            seat = 0
    return seat


cdef inline int next_right(const mask64 *hand, int seat, int n) noexcept nogil:
    seat -= 1
    if seat < 0:
        seat = n - 1
    while hand[seat] == 0:
        seat -= 1
        if seat < 0:
            seat = n - 1
    return seat


cdef int play(mask64 *hand, int n, int order, const DrawModel *model, Rng *rng, int *draws,
              int16_t *trace, int trace_len) noexcept nogil:
    """Play one deal from the dealt hands (modified in place); return the loser's seat and set
    *draws. If trace is not NULL, record (drawer, victim, card bit) for the first trace_len draws."""
    cdef int p, t, r, active = 0, n_draws = 0
    cdef mask64 card
    if order == STANDARD:
        for p in range(n):
            hand[p] = discard_pairs(hand[p])
    for p in range(n):
        active += hand[p] != 0
    t = 0
    while hand[t] == 0:          # someone holds the witch, so this ends
        t += 1
    while active > 1:
        r = next_right(hand, t, n)
        card = draw_card(hand[r], r, model, rng)
        if trace != NULL and n_draws < trace_len:
            trace[3 * n_draws] = t
            trace[3 * n_draws + 1] = r
            trace[3 * n_draws + 2] = lowest_bit64(card)
        hand[r] ^= card
        active -= hand[r] == 0
        hand[t] = discard_pairs(hand[t] | card)
        active -= hand[t] == 0
        n_draws += 1
        if active > 1:
            t = next_left(hand, t, n)
    draws[0] = n_draws
    for p in range(n):
        if hand[p]:
            return p
    return -1                    # unreachable: the witch is always held


cdef Rules rules_from(dict spec) except *:
    cdef Rules rules
    rules.players = spec["players"]
    if not MIN_PLAYERS <= rules.players <= MAX_PLAYERS:
        raise ValueError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    rules.n_cards = spec["deck"]
    if rules.n_cards not in (32, 52):
        raise ValueError("deck must be 32 or 52")
    rules.first_rank = RANKS52 - rules.n_cards // 4
    rules.order = {"literal": LITERAL, "standard": STANDARD}[spec["order"]]
    return rules


cdef int init_pack(uint8_t *cards, const Rules *rules) noexcept nogil:
    """Bit positions of the pack's cards, suit by suit, low rank to high; returns the count."""
    cdef int s, r, k = 0
    for s in range(4):
        for r in range(rules.first_rank, RANKS52):
            cards[k] = <uint8_t>(s * LANE64 + r)
            k += 1
    return k


cdef inline void deal(uint8_t *cards, const Rules *rules, Rng *rng, mask64 *hand) noexcept nogil:
    cdef int c, seat = 0
    rng_partial_shuffle(rng, cards, rules.n_cards, rules.n_cards - 1)
    for c in range(rules.players):
        hand[c] = 0
    for c in range(rules.n_cards):
        hand[seat] |= (<mask64>1) << cards[c]
        seat += 1
        if seat == rules.players:
            seat = 0


def new_play_counters():
    """Zeroed counters of play_shard; every field adds up exactly across shards."""
    return {
        "deals": np.zeros(1, np.int64),
        "lose": np.zeros(MAX_PLAYERS, np.int64),                 # [seat]
        "draws_hist": np.zeros(MAX_DRAWS_HIST, np.int64),        # [draws], last bin = that or more
        "draws_sum": np.zeros(1, np.int64),
        "draws_sumsq": np.zeros(1, np.int64),
        "out_at_start": np.zeros(MAX_PLAYERS, np.int64),         # [seat] empty before the first draw
        "cards_at_start": np.zeros(MAX_CARDS + 1, np.int64),     # [cards held in all] before the first draw
        "witch_at_start": np.zeros(MAX_PLAYERS, np.int64),       # [seat] holds QS before the first draw
        "witch_at_start_loses": np.zeros(MAX_PLAYERS, np.int64), # [seat] ... and loses the deal
    }


def play_shard(bit_generator, Py_ssize_t n_deals, dict rules_spec, rows=None):
    """Deal and play n_deals deals with uniform draws (one bit generator deals and draws).

    Returns the counters of new_play_counters(). If `rows` is a uint64 array of shape
    (n_deals, ROW_WIDTH), each deal's dealt hands, loser and number of draws are written to it."""
    cdef Rules rules = rules_from(rules_spec)
    counters = new_play_counters()
    cdef int64_t[::1] deals = counters["deals"]
    cdef int64_t[::1] lose = counters["lose"]
    cdef int64_t[::1] draws_hist = counters["draws_hist"]
    cdef int64_t[::1] draws_sum = counters["draws_sum"]
    cdef int64_t[::1] draws_sumsq = counters["draws_sumsq"]
    cdef int64_t[::1] out_at_start = counters["out_at_start"]
    cdef int64_t[::1] cards_at_start = counters["cards_at_start"]
    cdef int64_t[::1] witch_at_start = counters["witch_at_start"]
    cdef int64_t[::1] witch_at_start_loses = counters["witch_at_start_loses"]
    cdef uint64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.uint64 or rows.shape != (n_deals, ROW_WIDTH):
            raise ValueError(f"rows must be uint64 of shape ({n_deals}, {ROW_WIDTH})")
        row_view = rows
    cdef uint8_t cards[MAX_CARDS]
    init_pack(cards, &rules)
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    cdef mask64 hand[MAX_PLAYERS]
    cdef mask64 start
    cdef int n = rules.players, p, loser, n_draws, witch_seat, total
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            deal(cards, &rules, &rng, hand)
            if keep_rows:
                for p in range(n):
                    row_view[d, ROW_HANDS + p] = hand[p]
            total = 0
            witch_seat = 0
            for p in range(n):
                start = discard_pairs(hand[p]) if rules.order == STANDARD else hand[p]
                out_at_start[p] += start == 0
                total += popcount64(start)
                if start & WITCH:
                    witch_seat = p
            cards_at_start[total] += 1
            witch_at_start[witch_seat] += 1
            loser = play(hand, n, rules.order, NULL, &rng, &n_draws, NULL, 0)
            lose[loser] += 1
            witch_at_start_loses[witch_seat] += loser == witch_seat
            draws_hist[n_draws if n_draws < MAX_DRAWS_HIST else MAX_DRAWS_HIST - 1] += 1
            draws_sum[0] += n_draws
            draws_sumsq[0] += <int64_t>n_draws * n_draws
            if keep_rows:
                row_view[d, ROW_LOSER] = loser
                row_view[d, ROW_DRAWS] = n_draws
        deals[0] = n_deals
    return counters


def new_placement_counters():
    """Zeroed counters of placement_shard. Variant 0 = every holder places the witch at random,
    variant 1 + s = seat s places it smartly, variant n + 1 = every seat does."""
    return {
        "deals": np.zeros(1, np.int64),
        "lose": np.zeros((MAX_PLAYERS + 2, MAX_PLAYERS), np.int64),      # [variant][seat]
        # Paired tallies against variant 0 on the same deal, for the seat of interest:
        # [variant][seat][outcome] with outcome 0 = loses in both, 1 = only at random placement,
        # 2 = only in the variant.
        "paired": np.zeros((MAX_PLAYERS + 2, MAX_PLAYERS, 3), np.int64),
    }


def placement_shard(deal_generator, draw_generator, Py_ssize_t n_deals, dict rules_spec, double edge_weight):
    """The witch-placement question on paired deals: every deal (from deal_generator) is played
    n + 2 times (draws from draw_generator): all holders random, each seat alone smart, all smart;
    the drawer takes edge cards with weight edge_weight, inner cards with weight 1."""
    cdef Rules rules = rules_from(rules_spec)
    if not edge_weight > 0:
        raise ValueError("edge_weight must be positive")
    counters = new_placement_counters()
    cdef int64_t[::1] deals = counters["deals"]
    cdef int64_t[:, ::1] lose = counters["lose"]
    cdef int64_t[:, :, ::1] paired = counters["paired"]
    cdef uint8_t cards[MAX_CARDS]
    init_pack(cards, &rules)
    cdef Rng deal_rng, draw_rng
    cdef bitgen_t *deal_bitgen = bitgen_pointer(deal_generator)
    cdef bitgen_t *draw_bitgen = bitgen_pointer(draw_generator)
    cdef Py_ssize_t d
    cdef mask64 dealt[MAX_PLAYERS]
    cdef mask64 hand[MAX_PLAYERS]
    cdef DrawModel model
    cdef int n = rules.players, p, v, s, n_draws, loser, base_loser = -1
    model.edge_weight = edge_weight
    model.tape = NULL
    with deal_generator.lock, draw_generator.lock, nogil:
        rng_init(&deal_rng, deal_bitgen)
        rng_init(&draw_rng, draw_bitgen)
        for d in range(n_deals):
            deal(cards, &rules, &deal_rng, dealt)
            for v in range(n + 2):
                for p in range(n):
                    hand[p] = dealt[p]
                    model.smart[p] = SMART_PLACE if (v == n + 1 or v == p + 1) else RANDOM_PLACE
                loser = play(hand, n, rules.order, &model, &draw_rng, &n_draws, NULL, 0)
                lose[v, loser] += 1
                if v == 0:
                    base_loser = loser
                else:
                    for s in range(n):
                        if base_loser == s and loser == s:
                            paired[v, s, 0] += 1
                        elif base_loser == s:
                            paired[v, s, 1] += 1
                        elif loser == s:
                            paired[v, s, 2] += 1
        deals[0] = n_deals
    return counters


def compare_shard(deal_generator, draw_generator, Py_ssize_t n_deals, dict rules_spec, double edge_weight,
                  str a, str b, rows=None):
    """Duplicate deals for two witch placements A and B (names of PLACEMENT_NAMES) against a drawer
    with edge weight edge_weight. Each deal (from deal_generator) is played G times, every play
    drawing from the same tape of uniforms (from draw_generator): with 2 players G = 2 (A at seat
    0 and B at seat 1, then swapped); with n >= 3 players G = 2n (A alone at seat k and B at the
    others, for each k, then B alone at seat k and A at the others), so each placement sits at
    every seat in half of the plays. A's per-deal result is minus the number of the G plays lost
    by a seat playing A (each lost play costs 1; B's result: minus the rest), so the paired
    difference A - B is positive when A lost fewer plays. Counters in the layout of
    analyzer.compare.

    If `rows` is a uint64 array of shape (n_deals, MAX_PLAYERS + 1), each deal's dealt hands and
    the number of plays A lost are written to it."""
    cdef Rules rules = rules_from(rules_spec)
    if not edge_weight > 0:
        raise ValueError("edge_weight must be positive")
    for label in (a, b):
        if label not in PLACEMENT_NAMES:
            raise ValueError(f"unknown witch placement {label!r}; choose one of {', '.join(PLACEMENT_NAMES)}")
    cdef int place_a = PLACEMENT_CODES[PLACEMENT_NAMES.index(a)]
    cdef int place_b = PLACEMENT_CODES[PLACEMENT_NAMES.index(b)]
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef uint64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.uint64 or rows.shape != (n_deals, MAX_PLAYERS + 1):
            raise ValueError(f"rows must be uint64 of shape ({n_deals}, {MAX_PLAYERS + 1})")
        row_view = rows
    tape_store = np.zeros(TAPE_LENGTH, np.float64)
    cdef double[::1] tape_view = tape_store
    cdef uint8_t cards[MAX_CARDS]
    init_pack(cards, &rules)
    cdef Rng deal_rng, draw_rng
    cdef bitgen_t *deal_bitgen = bitgen_pointer(deal_generator)
    cdef bitgen_t *draw_bitgen = bitgen_pointer(draw_generator)
    cdef Tape tape
    cdef DrawModel model
    model.edge_weight = edge_weight
    model.tape = &tape
    cdef Py_ssize_t d
    cdef mask64 dealt[MAX_PLAYERS]
    cdef mask64 hand[MAX_PLAYERS]
    cdef int n = rules.players, plays = 2 if rules.players == 2 else 2 * rules.players
    cdef int g, p, lone, lone_place, rest_place, loser, n_draws
    cdef int64_t res_a, res_b
    with deal_generator.lock, draw_generator.lock, nogil:
        rng_init(&deal_rng, deal_bitgen)
        rng_init(&draw_rng, draw_bitgen)
        tape.u = &tape_view[0]
        tape.capacity = TAPE_LENGTH
        tape.rng = &draw_rng
        for d in range(n_deals):
            deal(cards, &rules, &deal_rng, dealt)
            tape.filled = 0
            res_a = 0
            for g in range(plays):
                # play g: seat g % n alone with A (g < n) or alone with B (g >= n); with 2
                # players the plays are A at seat 0, then A at seat 1.
                lone = g % n
                if g < n:
                    lone_place = place_a
                    rest_place = place_b
                else:
                    lone_place = place_b
                    rest_place = place_a
                for p in range(n):
                    hand[p] = dealt[p]
                    model.smart[p] = lone_place if p == lone else rest_place
                tape.pos = 0
                loser = play(hand, n, rules.order, &model, &draw_rng, &n_draws, NULL, 0)
                res_a += (loser == lone) == (g < n)      # the loser sat at a seat playing A
            res_b = -(plays - res_a)                   # results count lost plays as -1 each
            res_a = -res_a
            tally_pair(&tally, res_a, res_b)
            if keep_rows:
                for p in range(n):
                    row_view[d, p] = dealt[p]
                row_view[d, MAX_PLAYERS] = -res_a
    return pair_counters(tally)


def play_traced(hands, dict rules_spec, bit_generator, smart_seats=(), double edge_weight=1.0):
    """Play one given deal (uint64 masks, validated by the caller) and return
    (loser, draws, trace) with trace an int16 array of rows (drawer, victim, card bit)."""
    cdef Rules rules = rules_from(rules_spec)
    cdef int n = rules.players, p, n_draws, loser
    if len(hands) != n:
        raise ValueError(f"expected {n} hands, got {len(hands)}")
    masks = [int(h) for h in hands]
    pack = sum(0x1FFF << (LANE64 * s) for s in range(4))
    overlap = any(masks[i] & masks[j] for i in range(n) for j in range(i + 1, n))
    if overlap or any(m < 0 or m & ~pack for m in masks):
        raise ValueError("hands must be disjoint masks of the 52-card layout")
    if sum(1 for m in masks if m & WITCH) != 1:
        raise ValueError("exactly one hand must hold the witch (QS)")
    if not edge_weight > 0:
        raise ValueError("edge_weight must be positive")
    cdef mask64 hand[MAX_PLAYERS]
    for p in range(n):
        hand[p] = <mask64>masks[p]
    cdef DrawModel model
    model.edge_weight = edge_weight
    model.tape = NULL
    for p in range(MAX_PLAYERS):
        model.smart[p] = SMART_PLACE if p in smart_seats else RANDOM_PLACE
    trace = np.zeros((MAX_TRACE, 3), np.int16)
    cdef int16_t[:, ::1] trace_view = trace
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        loser = play(hand, n, rules.order, &model, &rng, &n_draws, &trace_view[0, 0], MAX_TRACE)
    return loser, n_draws, trace[:min(n_draws, MAX_TRACE)].copy()


def discard(uint64_t hand):
    """The hand (a mask) after discarding all pairs."""
    return discard_pairs(hand)


ROW_LAYOUT = tuple(f"hand{p}" for p in range(MAX_PLAYERS)) + ("loser", "draws")
