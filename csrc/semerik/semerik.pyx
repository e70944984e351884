# Semerik (Семерик), four players in two partnerships — declarations, card play, deals and games.
#
# Rules card (shared/rules/semerik.md; preset "default" = the rules file's defaults):
#   Deck     40 cards, ranks 3 2 A K Q J 7 6 5 4 (high to low) in every suit; hearts are trumps.
#   Seats    0..3 in the order of play; partners sit opposite: partnership A = seats 0 and 2,
#            partnership B = seats 1 and 3. Ten cards each; the seat after the dealer leads first.
#   Declare  before the lead, per player, added to his partnership:
#            baba (3-2-A of a suit) 3; with K 6, with K Q 9, with K Q J 15 (the run must start at K);
#            heart baba: option heart_baba "bonus2" +2 on every value (5 8 11 17), "literal" 5 for
#            the bare one and 6 9 15 extended. Three sevens 4; three 3s / 2s / aces 3, or 4 when the
#            player holds a baba; three of any other rank 1. Four of a kind counts as three
#            (option four_of_kind_bonus: +1 for four 3s / 2s / aces). Option overlap "allowed": a
#            card serves in several declarations; "disallowed": the best set of declarations with
#            no card used twice.
#   Play     follow suit if able; otherwise any card (no obligation to trump). The highest heart
#            wins, else the highest card of the suit led; the trick's winner leads next.
#   Tricks   honours 3 2 A K Q J: a trick with 3 honours scores 1, with 4 honours 2, to its
#            winner's side (option honour_count "aggregate": floor(honours won / 3) per side).
#            All ten tricks (capot): +4 (option capot "replaces": 4 instead of the trick points).
#            Option last_trick_point (default 0) for the last trick.
#   Game     points accumulate; checked at the end of each deal (option check_after_declarations:
#            also after the declarations): a side at >= target (21) wins, both -> the higher total,
#            a tie plays on. The win counts double when the losers have fewer than double_below (11).
#
# Information: a player knows his own hand, the cards shown in declarations (every card that is part
# of a declared baba or set, until it is played), every card played, and the suits a player has shown
# out of. Strategies (per partnership): random (uniform legal card), greedy (the rules card of
# choose_greedy) and pimc (perfect-information Monte Carlo: worlds sampled from what the player
# knows, every legal card played out greedily in each, the best total score difference chosen).
# Compare (duplicate deals): each deal is played twice, strategy a for partnership A and b for B,
# then swapped; a strategy's result is its partnership's deal points summed over the two plays.
#
# Encoding: uint64 mask with a 16-bit lane per suit, bit = 16*suit + rank, suits S H D C = 0..3,
# ranks 4 5 6 7 J Q K A 2 3 = 0..9 (strength order), so a higher card of a suit is a higher bit.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset

from bitboard cimport mask64, popcount64, suit_lane64, rank_count64
from rng cimport Rng, rng_init, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from semerik_rules cimport *
from semerik_strategies cimport *

cnp.import_array()

STRATEGIES = {"random": RANDOM, "greedy": GREEDY, "pimc": PIMC}


cdef Rules rules_from(dict spec) except *:
    cdef Rules r
    memset(&r, 0, sizeof(Rules))
    r.heart_baba_literal = spec["heart_baba"] == "literal"
    r.four_of_kind_bonus = bool(spec["four_of_kind_bonus"])
    r.overlap_disallowed = spec["overlap"] == "disallowed"
    r.honour_count = AGGREGATE if spec["honour_count"] == "aggregate" else PER_TRICK
    r.capot_replaces = spec["capot"] == "replaces"
    r.capot_bonus = 4
    r.last_trick_points = spec["last_trick_point"]
    r.step = 1 if spec["direction"] == "clockwise" else 3
    r.target = spec["target"]
    r.double_below = spec["double_below"]
    r.check_after_declarations = bool(spec["check_after_declarations"])
    r.strategy[0] = STRATEGIES[spec.get("strategy_a", "greedy")]   # added by the Python layer from
    r.strategy[1] = STRATEGIES[spec.get("strategy_b", "greedy")]   # the run's strategies
    r.pimc_worlds = spec["pimc_worlds"]
    r.ruff_min_honours = spec["ruff_min_honours"]
    if not 1 <= r.pimc_worlds <= MAX_WORLDS:
        raise ValueError(f"pimc_worlds must be in 1..{MAX_WORLDS}")
    return r


def score_trick(cards, dict rules_spec):
    """(position of the winning card, honours, points) of one trick given as four bit indices in
    order of play (validated by the caller); points by the per-trick count."""
    cdef Rules r = rules_from(rules_spec)
    cdef Table t
    cdef int i, seat
    memset(&t, 0, sizeof(Table))
    for i in range(N_SEATS):
        seat = (i * r.step) & 3
        t.hand[seat] = (<mask64>1) << <int>cards[i]
    for i in range(N_SEATS):
        play_card(&t, <int>cards[i], &r)
    i = ((t.last_winner - 0) * r.step) & 3      # position of the winner in the order of play
    return i, t.honours[0] + t.honours[1], t.points[0] + t.points[1]


def game_status(int score_a, int score_b, dict rules_spec):
    """(winner, value) after a check of the running totals: winner 0 (A), 1 (B) or -1 (play on);
    value 1 or 2 (double), 0 while playing on."""
    cdef Rules r = rules_from(rules_spec)
    cdef int w = game_winner(score_a, score_b, &r)
    if w == PLAY_ON:
        return -1, 0
    return w, game_value(score_b if w == WINNER_A else score_a, &r)


# ---------------------------------------------------------------------------------------------
# Shards

cdef inline void deal_hands(Rng *rng, uint8_t *cards, mask64 *hands) noexcept nogil:
    cdef int s, c
    rng_partial_shuffle(rng, cards, N_CARDS, N_CARDS - HAND)
    for s in range(N_SEATS):
        hands[s] = 0
        for c in range(HAND):
            hands[s] |= (<mask64>1) << cards[HAND * s + c]


cdef void init_cards(uint8_t *cards) noexcept nogil:
    cdef int c
    for c in range(N_CARDS):
        cards[c] = <uint8_t>(LANE * (c // N_RANKS) + c % N_RANKS)


cdef inline int clamp(int v, int top) noexcept nogil:
    return v if v < top else top - 1


def new_declaration_counters():
    """Zeroed counters of the declarations kernel (they add up exactly across shards)."""
    return {
        "deals": np.zeros(1, np.int64),
        "points_hist": np.zeros((N_SEATS, MAX_DECL), np.int64),      # [seat][hand's points]
        "side_hist": np.zeros((2, MAX_POINTS), np.int64),            # [partnership][points]
        "rank_count": np.zeros((N_RANKS, 5), np.int64),              # hands by [rank][cards of it]
        "baba_ext": np.zeros((4, 4), np.int64),                      # hands by [suit][extension]
        "any_baba": np.zeros(1, np.int64),                           # hands with >= 1 baba
        "table_sevens": np.zeros(1, np.int64),                       # deals: someone >= 3 sevens
        "table_heart_baba": np.zeros(1, np.int64),
        "table_baba": np.zeros(1, np.int64),
        "side_baba": np.zeros(2, np.int64),                          # deals: partnership has a baba
        # For the intervals of the rates pooled over the four hands (not independent), sums over
        # the deals of squares: of the hands with a baba, with a declaration, with v points
        # ([v]), and of the deal's points over all hands.
        "any_baba_sq": np.zeros(1, np.int64),
        "declared_sq": np.zeros(1, np.int64),
        "points_sq": np.zeros(MAX_DECL, np.int64),
        "deal_points_sq": np.zeros(1, np.int64),
    }


DECL_ROW_WIDTH = 8   # hands of seats 0..3, then their declaration points


def declarations_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, rows=None):
    """Deal n_deals deals and score every hand's declarations. Optional rows: uint64 array of shape
    (n_deals, 8) receiving the four hands and their points."""
    cdef Rules r = rules_from(rules_spec)
    counters = new_declaration_counters()
    cdef int64_t[:, ::1] points_hist = counters["points_hist"]
    cdef int64_t[:, ::1] side_hist = counters["side_hist"]
    cdef int64_t[:, ::1] rank_count = counters["rank_count"]
    cdef int64_t[:, ::1] baba_ext = counters["baba_ext"]
    cdef int64_t[::1] any_baba = counters["any_baba"]
    cdef int64_t[::1] table_sevens = counters["table_sevens"]
    cdef int64_t[::1] table_heart_baba = counters["table_heart_baba"]
    cdef int64_t[::1] table_baba = counters["table_baba"]
    cdef int64_t[::1] side_baba = counters["side_baba"]
    cdef int64_t[::1] any_baba_sq = counters["any_baba_sq"], declared_sq = counters["declared_sq"]
    cdef int64_t[::1] points_sq = counters["points_sq"], deal_points_sq = counters["deal_points_sq"]
    cdef int64_t deal_babas, deal_declared, deal_points
    cdef int hand_points[N_SEATS]
    cdef int other, same
    cdef uint64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.uint64 or rows.shape != (n_deals, DECL_ROW_WIDTH):
            raise ValueError(f"rows must be uint64 of shape ({n_deals}, {DECL_ROW_WIDTH})")
        row_view = rows
    cdef uint8_t cards[N_CARDS]
    init_cards(cards)
    cdef Rng rng
    bit_generator = bit_generators[0]
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    cdef mask64 hands[N_SEATS]
    cdef mask64 shown
    cdef int s, rank, pts, sevens, heart, babas, chosen, lane_suit
    cdef int side_pts[2]
    cdef int side_babas[2]
    cdef uint32_t lane
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            deal_hands(&rng, cards, hands)
            side_pts[0] = side_pts[1] = 0
            side_babas[0] = side_babas[1] = 0
            sevens = heart = 0
            deal_babas = deal_declared = deal_points = 0
            for s in range(N_SEATS):
                pts = declare(hands[s], &r, &shown, &chosen)
                points_hist[s, clamp(pts, MAX_DECL)] += 1
                hand_points[s] = clamp(pts, MAX_DECL)
                deal_declared += pts > 0
                deal_points += pts
                side_pts[s & 1] += pts
                for rank in range(N_RANKS):
                    rank_count[rank, rank_count64(hands[s], rank)] += 1
                sevens |= rank_count64(hands[s], R7) >= 3
                babas = 0
                for lane_suit in range(4):
                    lane = suit_lane64(hands[s], lane_suit)
                    if (lane & BABA_LANE) == BABA_LANE:
                        babas = 1
                        baba_ext[lane_suit, baba_extension(lane)] += 1
                        heart |= lane_suit == HEARTS
                any_baba[0] += babas
                deal_babas += babas
                side_babas[s & 1] |= babas
                if keep_rows:
                    row_view[d, s] = hands[s]
                    row_view[d, N_SEATS + s] = pts
            for s in range(2):
                side_hist[s, clamp(side_pts[s], MAX_POINTS)] += 1
                side_baba[s] += side_babas[s]
            table_sevens[0] += sevens
            table_heart_baba[0] += heart
            table_baba[0] += side_babas[0] | side_babas[1]
            any_baba_sq[0] += deal_babas * deal_babas
            declared_sq[0] += deal_declared * deal_declared
            deal_points_sq[0] += deal_points * deal_points
            # a value held by c hands adds c once for each of them: c^2
            for s in range(N_SEATS):
                same = 0
                for other in range(N_SEATS):
                    same += hand_points[other] == hand_points[s]
                points_sq[hand_points[s]] += same
    counters["deals"][0] = n_deals
    return counters


def declaration_breakdown(mask64 hand, dict rules_spec):
    """Points, shown cards and declared baba suits of one hand (validated by the caller)."""
    cdef Rules r = rules_from(rules_spec)
    cdef mask64 shown
    cdef int chosen
    cdef int pts = declare(hand, &r, &shown, &chosen)
    babas = []
    for s in range(4):
        if chosen >> s & 1:
            ext = baba_extension(suit_lane64(hand, s))
            babas.append((s, ext, baba_value(s, ext, &r)))
    return {"points": pts, "shown": shown, "babas": babas}


def exact_declaration_counts(dict rules_spec):
    """Exact distribution of one hand's declaration points: hand counts by points over all
    C(40, 10) hands. The points split into a part from the 24 honours (babas and their sets,
    enumerated: 2^24 subsets) and a part from the ranks 7 6 5 4 (counted by how many of each),
    which are convolved by the number of cards each part takes."""
    cdef Rules r = rules_from(rules_spec)
    high = np.zeros((HAND + 1, MAX_DECL), np.int64)
    cdef int64_t[:, ::1] hv = high
    cdef uint32_t x, bits
    cdef int s, k, pts, chosen
    cdef mask64 hand, shown
    with nogil:
        for x in range(1 << 24):
            k = popcount64(x)
            if k > HAND:
                continue
            hand = 0
            for s in range(4):
                bits = (x >> (6 * s)) & 0x3F
                hand |= (<mask64>bits) << (LANE * s + FIRST_HONOUR)
            pts = declare(hand, &r, &shown, &chosen)
            hv[k, pts] += 1
    # low ranks: polynomial in (cards taken, points), one factor per rank 7 6 5 4
    from math import comb
    low = np.zeros((HAND + 1, MAX_DECL), np.int64)
    low[0, 0] = 1
    for rank_points in (4, 1, 1, 1):
        nxt = np.zeros_like(low)
        for c in range(5):
            p = rank_points if c >= 3 else 0
            nxt[c:, p:] += comb(4, c) * low[:HAND + 1 - c, :MAX_DECL - p]
        low = nxt
    out = np.zeros(MAX_DECL, np.int64)
    for k in range(HAND + 1):
        for p in range(MAX_DECL):
            if high[k, p]:
                out[p:] += high[k, p] * low[HAND - k, :MAX_DECL - p]
    return out


# Per-deal row of the play kernels (uint64): hands, dealer, declarations, the 40 cards in order of
# play (bit indices), the ten trick winners (seats), trick points and deal totals per partnership.
cdef enum:
    ROW_HANDS = 0
    ROW_DEALER = 4
    ROW_DECL = 5
    ROW_PLAYS = 9
    ROW_WINNERS = 49
    ROW_TRICK_POINTS = 59
    ROW_TOTAL = 61
    DEAL_ROW_WIDTH = 63
DEAL_ROW = {"hands": ROW_HANDS, "dealer": ROW_DEALER, "declarations": ROW_DECL, "plays": ROW_PLAYS,
            "winners": ROW_WINNERS, "trick_points": ROW_TRICK_POINTS, "total": ROW_TOTAL,
            "width": DEAL_ROW_WIDTH}


cdef void fill_deal_row(uint64_t[::1] row, const mask64 *hands, int dealer, const int *decl,
                        const uint8_t *plays, const uint8_t *winners, const int *tpts) noexcept nogil:
    cdef int i
    for i in range(N_SEATS):
        row[ROW_HANDS + i] = hands[i]
        row[ROW_DECL + i] = decl[i]
    row[ROW_DEALER] = dealer
    for i in range(N_CARDS):
        row[ROW_PLAYS + i] = plays[i]
    for i in range(N_TRICKS):
        row[ROW_WINNERS + i] = winners[i]
    for i in range(2):
        row[ROW_TRICK_POINTS + i] = tpts[i]
        row[ROW_TOTAL + i] = tpts[i] + decl[i] + decl[i + 2]


def new_deal_counters():
    """Zeroed counters of the deals kernel. Role 0 is the partnership that leads first (the
    dealer's left), role 1 the dealer's partnership; partnership A is seats 0 and 2."""
    return {
        "deals": np.zeros(1, np.int64),
        "points_hist": np.zeros((2, MAX_POINTS), np.int64),          # [role][deal points]
        "decl_hist": np.zeros((2, MAX_POINTS), np.int64),            # [role][declaration points]
        "trick_points_hist": np.zeros((2, 32), np.int64),            # [role][trick points]
        "tricks_hist": np.zeros((2, N_TRICKS + 1), np.int64),        # [role][tricks won]
        "honours_hist": np.zeros((2, 25), np.int64),                 # [role][honours won]
        "capot": np.zeros(2, np.int64),                              # [role]
        "outcome": np.zeros(3, np.int64),                            # leaders more / dealers more / equal
        "side_points_hist": np.zeros((2, MAX_POINTS), np.int64),     # [partnership][deal points]
        "side_outcome": np.zeros(3, np.int64),                       # A more / B more / equal
        "trick_honours": np.zeros((N_TRICKS, 5), np.int64),          # [trick][honours in it]
        # per deal, d = declaration points and t = trick points of both sides: the sums of d, t,
        # d², t², d·t (the share of the points that come from declarations and its interval)
        "points_moments": np.zeros(5, np.int64),
    }


def deals_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, rows=None):
    """Deal and play n_deals deals; the dealer rotates (deal d: seat d % 4). bit_generators[0]
    deals, bit_generators[1] feeds the strategies. Optional rows: uint64 (n_deals, 63)."""
    cdef Rules r = rules_from(rules_spec)
    counters = new_deal_counters()
    cdef int64_t[:, ::1] points_hist = counters["points_hist"]
    cdef int64_t[:, ::1] decl_hist = counters["decl_hist"]
    cdef int64_t[:, ::1] trick_points_hist = counters["trick_points_hist"]
    cdef int64_t[:, ::1] tricks_hist = counters["tricks_hist"]
    cdef int64_t[:, ::1] honours_hist = counters["honours_hist"]
    cdef int64_t[::1] capot = counters["capot"]
    cdef int64_t[::1] outcome = counters["outcome"]
    cdef int64_t[:, ::1] side_points_hist = counters["side_points_hist"]
    cdef int64_t[::1] side_outcome = counters["side_outcome"]
    cdef int64_t[:, ::1] trick_honours = counters["trick_honours"]
    cdef int64_t[::1] moments = counters["points_moments"]
    cdef int64_t deal_decl, deal_tricks
    cdef uint64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.uint64 or rows.shape != (n_deals, DEAL_ROW_WIDTH):
            raise ValueError(f"rows must be uint64 of shape ({n_deals}, {DEAL_ROW_WIDTH})")
        row_view = rows
    deal_gen, play_gen = bit_generators[0], bit_generators[1]
    cdef bitgen_t *deal_bitgen = bitgen_pointer(deal_gen)
    cdef bitgen_t *play_bitgen = bitgen_pointer(play_gen)
    cdef uint8_t cards[N_CARDS]
    init_cards(cards)
    cdef uint8_t plays[N_CARDS]
    cdef uint8_t winners[N_TRICKS]
    cdef Rng deal_rng, play_rng
    cdef Py_ssize_t d
    cdef mask64 hands[N_SEATS]
    cdef int decl[N_SEATS]
    cdef int tpts[2]
    cdef int total[2]
    cdef int side_decl[2]
    cdef int dealer, lead_side, role, side, i
    cdef Table t
    with deal_gen.lock, play_gen.lock, nogil:
        rng_init(&deal_rng, deal_bitgen)
        rng_init(&play_rng, play_bitgen)
        for d in range(n_deals):
            deal_hands(&deal_rng, cards, hands)
            dealer = d & 3
            start_deal(&t, hands, dealer, &r, decl)
            play_deal(&t, &r, &play_rng, plays, winners)
            trick_score(&t, &r, tpts)
            lead_side = side_of((dealer + r.step) & 3)
            for side in range(2):
                side_decl[side] = decl[side] + decl[side + 2]
                total[side] = side_decl[side] + tpts[side]
                role = 0 if side == lead_side else 1
                points_hist[role, clamp(total[side], MAX_POINTS)] += 1
                decl_hist[role, clamp(side_decl[side], MAX_POINTS)] += 1
                trick_points_hist[role, tpts[side]] += 1
                tricks_hist[role, t.tricks[side]] += 1
                honours_hist[role, t.honours[side]] += 1
                capot[role] += t.tricks[side] == N_TRICKS
                side_points_hist[side, clamp(total[side], MAX_POINTS)] += 1
            if total[lead_side] > total[1 - lead_side]:
                outcome[0] += 1
            elif total[lead_side] < total[1 - lead_side]:
                outcome[1] += 1
            else:
                outcome[2] += 1
            side_outcome[0 if total[0] > total[1] else (1 if total[1] > total[0] else 2)] += 1
            deal_decl = side_decl[0] + side_decl[1]
            deal_tricks = tpts[0] + tpts[1]
            moments[0] += deal_decl
            moments[1] += deal_tricks
            moments[2] += deal_decl * deal_decl
            moments[3] += deal_tricks * deal_tricks
            moments[4] += deal_decl * deal_tricks
            for i in range(N_TRICKS):
                trick_honours[i, ((plays[4 * i] & 15) >= FIRST_HONOUR) + ((plays[4 * i + 1] & 15) >= FIRST_HONOUR)
                              + ((plays[4 * i + 2] & 15) >= FIRST_HONOUR) + ((plays[4 * i + 3] & 15) >= FIRST_HONOUR)] += 1
            if keep_rows:
                fill_deal_row(row_view[d], hands, dealer, decl, plays, winners, tpts)
    counters["deals"][0] = n_deals
    return counters


# Per-deal row of the compare kernel (int64): hands, dealer, then the deal totals of partnerships A
# and B in the first play (A plays strategy a) and in the second (A plays strategy b).
cdef enum:
    CMP_HANDS = 0
    CMP_DEALER = 4
    CMP_FIRST = 5
    CMP_SECOND = 7
    COMPARE_ROW_WIDTH = 9
COMPARE_ROW = {"hands": CMP_HANDS, "dealer": CMP_DEALER, "first": CMP_FIRST, "second": CMP_SECOND,
               "width": COMPARE_ROW_WIDTH}

cdef inline void play_total(Table *t, const mask64 *hands, int dealer, const Rules *r, Rng *rng_a, Rng *rng_b,
                            int *total) noexcept nogil:
    """Declare and play one deal; total[side] = the partnership's declarations + trick points."""
    cdef int decl[N_SEATS]
    cdef int tpts[2]
    start_deal(t, hands, dealer, r, decl)
    play_deal_sides(t, r, rng_a, rng_b, NULL, NULL)
    trick_score(t, r, tpts)
    total[0] = decl[0] + decl[2] + tpts[0]
    total[1] = decl[1] + decl[3] + tpts[1]


def compare_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, rows=None):
    """Duplicate deals for strategies a and b (roles a_play, b_play): every deal is dealt as in the
    deals kernel (bit_generators[0], dealer d % 4) and played twice, first with partnership A
    (seats 0, 2) playing a and B (seats 1, 3) playing b, then with the partnerships swapped, so each
    strategy plays every seat. a's strategy draws from bit_generators[1] and b's from
    bit_generators[2] in both plays. A strategy's per-deal result is the sum of its partnership's
    deal points (declarations + trick points) over the two plays; the paired difference is a's
    result minus b's. Counters in the layout of analyzer.compare; optional rows: int64
    (n_deals, 9), see COMPARE_ROW."""
    cdef Rules first = rules_from(dict(rules_spec, strategy_a=strategies["a_play"], strategy_b=strategies["b_play"]))
    cdef Rules second = first
    second.strategy[0] = first.strategy[1]
    second.strategy[1] = first.strategy[0]
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef int64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.int64 or rows.shape != (n_deals, COMPARE_ROW_WIDTH):
            raise ValueError(f"rows must be int64 of shape ({n_deals}, {COMPARE_ROW_WIDTH})")
        row_view = rows
    deal_gen, a_gen, b_gen = bit_generators[0], bit_generators[1], bit_generators[2]
    cdef bitgen_t *deal_bitgen = bitgen_pointer(deal_gen)
    cdef bitgen_t *a_bitgen = bitgen_pointer(a_gen)
    cdef bitgen_t *b_bitgen = bitgen_pointer(b_gen)
    cdef uint8_t cards[N_CARDS]
    init_cards(cards)
    cdef Rng deal_rng, a_rng, b_rng
    cdef Py_ssize_t d
    cdef mask64 hands[N_SEATS]
    cdef int one[2]
    cdef int two[2]
    cdef int dealer, s
    cdef int64_t a, b
    cdef Table t
    with deal_gen.lock, a_gen.lock, b_gen.lock, nogil:
        rng_init(&deal_rng, deal_bitgen)
        rng_init(&a_rng, a_bitgen)
        rng_init(&b_rng, b_bitgen)
        for d in range(n_deals):
            deal_hands(&deal_rng, cards, hands)
            dealer = d & 3
            play_total(&t, hands, dealer, &first, &a_rng, &b_rng, one)     # A plays a, B plays b
            play_total(&t, hands, dealer, &second, &b_rng, &a_rng, two)    # A plays b, B plays a
            a = one[0] + two[1]
            b = one[1] + two[0]
            tally_pair(&tally, a, b)
            if keep_rows:
                for s in range(N_SEATS):
                    row_view[d, CMP_HANDS + s] = <int64_t>hands[s]
                row_view[d, CMP_DEALER] = dealer
                row_view[d, CMP_FIRST] = one[0]
                row_view[d, CMP_FIRST + 1] = one[1]
                row_view[d, CMP_SECOND] = two[0]
                row_view[d, CMP_SECOND + 1] = two[1]
    return pair_counters(tally)


def play_deals(hand_masks, dealers, dict rules_spec, bit_generator):
    """Play given deals (hand_masks: (n, 4) uint64 of valid disjoint 10-card hands, dealers: (n,)
    seats; validated by the caller) with the strategies of the rules. Returns rows (n, 63)."""
    cdef Rules r = rules_from(rules_spec)
    cdef uint64_t[:, ::1] hm = np.ascontiguousarray(hand_masks, dtype=np.uint64)
    cdef int64_t[::1] dl = np.ascontiguousarray(dealers, dtype=np.int64)
    if hm.shape[0] != dl.shape[0] or hm.shape[1] != N_SEATS:
        raise ValueError("hand_masks must be (n, 4) and dealers (n,)")
    out = np.zeros((hm.shape[0], DEAL_ROW_WIDTH), np.uint64)
    cdef uint64_t[:, ::1] view = out
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Rng rng
    cdef Table t
    cdef mask64 hands[N_SEATS]
    cdef int decl[N_SEATS]
    cdef int tpts[2]
    cdef uint8_t plays[N_CARDS]
    cdef uint8_t winners[N_TRICKS]
    cdef Py_ssize_t d
    cdef int s
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(hm.shape[0]):
            for s in range(N_SEATS):
                hands[s] = hm[d, s]
            start_deal(&t, hands, <int>dl[d], &r, decl)
            play_deal(&t, &r, &rng, plays, winners)
            trick_score(&t, &r, tpts)
            fill_deal_row(view[d], hands, <int>dl[d], decl, plays, winners, tpts)
    return out


def replay_deal(hand_masks, int dealer, cards, dict rules_spec):
    """Score a deal played with the given cards (bit indices in order of play, up to 40). Returns
    (row, bad): bad is the index of the first card that is not a legal play of the seat to play,
    or -1. The row is complete only when all 40 cards were legal."""
    cdef Rules r = rules_from(rules_spec)
    cdef mask64 hands[N_SEATS]
    cdef int decl[N_SEATS]
    cdef int tpts[2]
    cdef uint8_t plays[N_CARDS]
    cdef uint8_t winners[N_TRICKS]
    cdef Table t
    cdef int i, c, s
    memset(plays, 0, sizeof(plays))
    memset(winners, 0, sizeof(winners))
    for s in range(N_SEATS):
        hands[s] = hand_masks[s]
    start_deal(&t, hands, dealer, &r, decl)
    sequence = list(cards)
    if len(sequence) > N_CARDS:
        raise ValueError("more than 40 cards played")
    for i, c in enumerate(sequence):
        if not 0 <= c < 64 or not (legal_moves(&t, t.to_play) >> c) & 1:
            return None, i
        plays[i] = <uint8_t>c
        play_card(&t, c, &r)
        if t.n_in_trick == 0:
            winners[t.trick_no - 1] = <uint8_t>t.leader
    trick_score(&t, &r, tpts)
    row = np.zeros(DEAL_ROW_WIDTH, np.uint64)
    fill_deal_row(row, hands, dealer, decl, plays, winners, tpts)
    return row, -1


def new_game_counters():
    """Zeroed counters of the games kernel. Role 0 is the partnership that leads the first deal."""
    return {
        "games": np.zeros(1, np.int64),
        "deals": np.zeros(1, np.int64),
        "length_hist": np.zeros(MAX_GAME_DEALS, np.int64),           # games by number of deals
        "wins": np.zeros(2, np.int64),                               # [partnership]
        "double_wins": np.zeros(2, np.int64),
        "role_wins": np.zeros(2, np.int64),                          # [role of the winner]
        "role_double_wins": np.zeros(2, np.int64),
        "ended_on_declarations": np.zeros(1, np.int64),
        "winner_score_hist": np.zeros(MAX_POINTS, np.int64),
        "loser_score_hist": np.zeros(MAX_POINTS, np.int64),
    }


GAME_ROW_FIELDS = ("deals", "score_a", "score_b", "winner", "value", "first_dealer")


def games_shard(bit_generators, Py_ssize_t n_games, dict rules_spec, rows=None):
    """Play n_games games to the target; the first dealer of game g is seat g % 4 and the deal
    passes on after every deal. Optional rows: int64 (n_games, 6) in GAME_ROW_FIELDS order."""
    cdef Rules r = rules_from(rules_spec)
    counters = new_game_counters()
    cdef int64_t[::1] n_deals_total = counters["deals"]
    cdef int64_t[::1] length_hist = counters["length_hist"]
    cdef int64_t[::1] wins = counters["wins"]
    cdef int64_t[::1] double_wins = counters["double_wins"]
    cdef int64_t[::1] role_wins = counters["role_wins"]
    cdef int64_t[::1] role_double_wins = counters["role_double_wins"]
    cdef int64_t[::1] ended_on_declarations = counters["ended_on_declarations"]
    cdef int64_t[::1] winner_score_hist = counters["winner_score_hist"]
    cdef int64_t[::1] loser_score_hist = counters["loser_score_hist"]
    cdef int64_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.int64 or rows.shape != (n_games, len(GAME_ROW_FIELDS)):
            raise ValueError(f"rows must be int64 of shape ({n_games}, {len(GAME_ROW_FIELDS)})")
        row_view = rows
    deal_gen, play_gen = bit_generators[0], bit_generators[1]
    cdef bitgen_t *deal_bitgen = bitgen_pointer(deal_gen)
    cdef bitgen_t *play_bitgen = bitgen_pointer(play_gen)
    cdef uint8_t cards[N_CARDS]
    init_cards(cards)
    cdef Rng deal_rng, play_rng
    cdef Py_ssize_t g
    cdef mask64 hands[N_SEATS]
    cdef int decl[N_SEATS]
    cdef int tpts[2]
    cdef int score[2]
    cdef int dealer, first_dealer, n, winner, value, side, first_lead_side
    cdef Table t
    with deal_gen.lock, play_gen.lock, nogil:
        rng_init(&deal_rng, deal_bitgen)
        rng_init(&play_rng, play_bitgen)
        for g in range(n_games):
            first_dealer = g & 3
            dealer = first_dealer
            first_lead_side = side_of((first_dealer + r.step) & 3)
            score[0] = score[1] = 0
            n = 0
            while True:
                n += 1
                deal_hands(&deal_rng, cards, hands)
                start_deal(&t, hands, dealer, &r, decl)
                for side in range(2):
                    score[side] += decl[side] + decl[side + 2]
                if r.check_after_declarations:
                    winner = game_winner(score[0], score[1], &r)
                    if winner != PLAY_ON:
                        ended_on_declarations[0] += 1
                        break
                play_deal(&t, &r, &play_rng, NULL, NULL)
                trick_score(&t, &r, tpts)
                score[0] += tpts[0]
                score[1] += tpts[1]
                winner = game_winner(score[0], score[1], &r)
                if winner != PLAY_ON:
                    break
                dealer = (dealer + r.step) & 3
            value = game_value(score[1 - winner], &r)
            n_deals_total[0] += n
            length_hist[clamp(n, MAX_GAME_DEALS)] += 1
            wins[winner] += 1
            double_wins[winner] += value == 2
            role_wins[0 if winner == first_lead_side else 1] += 1
            role_double_wins[0 if winner == first_lead_side else 1] += value == 2
            winner_score_hist[clamp(score[winner], MAX_POINTS)] += 1
            loser_score_hist[clamp(score[1 - winner], MAX_POINTS)] += 1
            if keep_rows:
                row_view[g, 0] = n
                row_view[g, 1] = score[0]
                row_view[g, 2] = score[1]
                row_view[g, 3] = winner
                row_view[g, 4] = value
                row_view[g, 5] = first_dealer
    counters["games"][0] = n_games
    return counters
