# The square game ("Квадрат") of seed 003 — reconstructed rules R1 of shared/rules/square.md.
#
# Rules card (the seed gives only the scoring and the closing rule; everything marked RECON is an
# option, see analyzer/games/square.py):
#   Squares  each side has a 3x3 square, cells 0 1 2 / 3 4 5 / 6 7 8. Lines: 3 rows, 3 columns,
#            2 diagonals. A full line of one suit scores 2, of one colour with mixed suits 1
#            (red = H D, black = S C), anything else or a line with an empty cell 0.
#   Deal     2 players 16 cards each (whole 32-card pack) or 4 players (partners opposite, seats
#            0+2 against 1+3) 8 each. Option deal=draw8: 8 cards each and a stock, one card drawn
#            at the start of every turn. Options deck=36 (6..A) and deck=52.
#   Turn     exactly one of: place a card in an empty cell of the own side's square; place it in
#            the opponents' square; discard it; (RECON qj_remove) play a Q or J to the discard and
#            remove a card from the own (or, with "any", either) square. Option cover: a card may
#            be placed on an occupied cell, the covered card is discarded. Option rank_fixed
#            (36 cards): each rank has its own cell, 6 7 8 / 9 T J / Q K A.
#   Closing  a player whose side's square scores S >= 5 may end the deal right after his action
#            (option: at the start of his turn). Closer's side: S + (S - 5) - 1 = 2S - 6; the other
#            side: its square's score. 4 players: he may first ask his partner ("may I close?"),
#            must obey, and after a refusal may not close in this deal. No closer when all hands
#            are empty: both sides score their squares (option: the last player to act is treated
#            as the closer).
#
# Encoding: a card is suit*16 + rank (suit S H D C = 0..3, rank 0.. in the pack's order low to
# high); hands are uint64 masks over those codes (16-bit lanes); a square is 9 bytes, EMPTY = 255.
#
# Strategies (per side): RANDOM (uniform over legal actions), GREEDY (maximises the own square's
# line potential), SPOILER (own potential minus the opponents'). Line potential: a complete line
# 12 per point; a partial line of k cards 2k^2 if they share a suit, k^2 if they share a colour,
# else 0. A removal must gain more than 1; a discard is worth 0. Ties go to the first action in the
# fixed order card (ascending code) x [own cells, opponents' cells, removals, discard], so GREEDY
# and SPOILER are deterministic. Closing policy: close when S >= threshold, or when the deal would otherwise
# end now and S >= 6 (2S - 6 >= S: no loss at 6, a gain above); threshold NEVER_CLOSE disables
# closing, and an agree threshold of NEVER_CLOSE refuses every ask.
#
# Parts: square_rules.pxd (constants, deal state, scoring, legal actions, dealing),
# square_strategies.pxd (line potential, action choice, closing policy); this file plays a deal
# and holds the shard kernels (play, thresholds, compare, baseline, match).

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset, memcpy

from bitboard cimport mask64
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from square_rules cimport *
from square_strategies cimport *

cnp.import_array()

THRESHOLD_VARIANTS = (5, 6, 7, 8, 9, 10, 12, 15)
cdef int THRESHOLDS[N_THRESHOLD_VARIANTS]
THRESHOLDS[:] = [5, 6, 7, 8, 9, 10, 12, 15]


cdef void play_deal(Deal *d, const Rules *r, const Policy *policy, Rng **side_rng, int first,
                    Action *actions) noexcept nogil:
    """Play the dealt cards from seat `first` to the end of the deal; fills the result fields. The
    strategy of side k draws from side_rng[k] (both may point to the same stream)."""
    cdef int seat, side, displaced, closed, asked, agreed, p
    cdef Action a
    d.stock_pos = 0
    d.score[0] = 0
    d.score[1] = 0
    d.closer = -1
    d.close_turn = MAX_TURNS - 1
    d.last_actor = -1
    d.turns = 0
    d.asks = 0
    d.refusals = 0
    d.first_closable[0] = MAX_TURNS - 1
    d.first_closable[1] = MAX_TURNS - 1
    d.log_n = 0
    memset(d.kinds, 0, sizeof(d.kinds))
    for p in range(MAX_PLAYERS):
        d.refused[p] = 0
    seat = first
    while cards_left(d, r) > 0:
        if r.draw and d.stock_pos < d.stock_n:
            d.hand[seat] |= (<mask64>1) << d.stock[d.stock_pos]
            d.stock_pos += 1
        if d.hand[seat] == 0:
            seat = (seat + 1) % r.players
            continue
        asked = 0
        agreed = 0
        if r.close_at_turn_start and try_close(d, r, policy, seat, 0, &asked, &agreed):
            d.closer = seat
            d.close_turn = d.turns
            a.kind = CLOSE
            a.card = EMPTY
            a.side = side_of(r, seat)
            a.cell = 0
            log_turn(d, seat, &a, EMPTY, asked, agreed, 1)
            break
        choose_action(d, r, policy, seat, side_rng[side_of(r, seat)], actions, &a)
        displaced = apply_action(d, r, seat, &a)
        d.last_actor = seat
        note_closable(d)
        closed = 0
        if not r.close_at_turn_start:
            closed = try_close(d, r, policy, seat, cards_left(d, r) == 0, &asked, &agreed)
        log_turn(d, seat, &a, displaced, asked, agreed, closed)
        d.turns += 1
        if closed:
            d.closer = seat
            d.close_turn = d.turns - 1
            break
        seat = (seat + 1) % r.players
    for side in range(2):
        d.deal_score[side] = d.score[side]
    if d.closer >= 0:
        side = side_of(r, d.closer)
        d.deal_score[side] = closer_points(d.score[side])
    elif r.last_actor_closes and d.last_actor >= 0:
        side = side_of(r, d.last_actor)
        d.deal_score[side] = closer_points(d.score[side])


cdef Rules rules_from(dict spec) except *:
    cdef Rules r
    cdef int s
    memset(&r, 0, sizeof(Rules))
    r.ranks = {32: 8, 36: 9, 52: 13}[int(spec["deck"])]
    r.n_cards = 4 * r.ranks
    r.players = int(spec["players"])
    r.draw = spec["deal"] == "draw8"
    r.hand_size = 8 if r.draw else r.n_cards // r.players
    r.rank_fixed = spec["placement"] == "rank_fixed"
    if r.rank_fixed and r.ranks != CELLS:
        raise ValueError("placement=rank_fixed needs deck=36 (nine ranks for nine places)")
    r.qj_remove = {"none": REMOVE_NONE, "own": REMOVE_OWN, "any": REMOVE_ANY}[spec["qj_remove"]]
    r.qj_mask = 0
    for s in range(4):                 # J and Q are the 4th and 3rd highest ranks of every pack
        r.qj_mask |= (<mask64>3) << (s * LANE + r.ranks - 4)
    r.cover = bool(spec["cover"])
    r.close_at_turn_start = spec["close_timing"] == "turn_start"
    r.last_actor_closes = spec["no_closer"] == "last_actor"
    r.partner_ask = {"never": ASK_NEVER, "always": ASK_ALWAYS}[spec["partner_ask"]]
    r.agree_threshold = int(spec["agree_threshold"])
    r.match_mode = MATCH_TARGET if spec["match"] == "target" else MATCH_DEALS
    r.match_target = int(spec["match_target"])
    r.match_deals = int(spec["match_deals"]) if int(spec["match_deals"]) > 0 else (4 if r.players == 2 else 2)
    return r


cdef Policy policy_from(dict spec) except *:
    cdef Policy p
    names = {"random": RANDOM, "greedy": GREEDY, "spoiler": SPOILER}
    p.strategy[0] = names[spec["strategy_a"]]
    p.strategy[1] = names[spec["strategy_b"]]
    p.threshold[0] = int(spec["threshold_a"])
    p.threshold[1] = int(spec["threshold_b"])
    return p


cdef void init_deck(const Rules *r, uint8_t *deck) noexcept nogil:
    cdef int s, k
    for s in range(4):
        for k in range(r.ranks):
            deck[s * r.ranks + k] = <uint8_t>(s * LANE + k)


# ---------------------------------------------------------------------------------------------
# Scoring of given squares

def score_squares(squares):
    """Scores of squares given as a uint8 array (n, 9) of card codes, EMPTY = 255."""
    cdef uint8_t[:, ::1] sq = np.ascontiguousarray(squares, dtype=np.uint8)
    if sq.shape[1] != CELLS:
        raise ValueError("squares must have 9 cells")
    out = np.zeros(sq.shape[0], np.int64)
    cdef int64_t[::1] view = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(sq.shape[0]):
            view[i] = square_score(&sq[i, 0])
    return out


def closer_score(int s):
    return closer_points(s)


# ---------------------------------------------------------------------------------------------
# Kernels

def new_play_counters():
    return {
        "deals": np.zeros(1, np.int64),
        "closed": np.zeros(1, np.int64),
        "closer_seat": np.zeros(MAX_PLAYERS, np.int64),
        "close_turn": np.zeros(MAX_TURNS, np.int64),          # turn index of the closing action
        "close_square": np.zeros(MAX_SQUARE, np.int64),       # closer's square score S
        "first_closable": np.zeros((2, MAX_TURNS), np.int64), # [side][first turn with S >= 5], last = never
        "final_square": np.zeros((2, MAX_SQUARE), np.int64),  # [side][square score at the end]
        "deal_score": np.zeros((2, SCORE_BINS), np.int64),    # [side][deal score + 1]
        "net_sum": np.zeros(1, np.int64),                     # side A minus side B
        "net_sq": np.zeros(1, np.int64),
        "actions": np.zeros((MAX_PLAYERS, N_COUNTS), np.int64),  # place own, place opp, discard, remove
        "asks": np.zeros(1, np.int64),
        "asks_sq": np.zeros(1, np.int64),                     # the sum of each deal's asks squared
        "refusals": np.zeros(1, np.int64),
        # per deal x = actions of a kind, y = all actions, r = refusals, a = asks: sums over the
        # deals of x^2 and x y by kind, of y^2, of r^2 and r a (the shares' intervals)
        "kind_moments": np.zeros((N_COUNTS, 2), np.int64),
        "actions_sq": np.zeros(1, np.int64),
        "refusal_moments": np.zeros(2, np.int64),
        "turns": np.zeros(1, np.int64),
    }


def play_shard(deal_generator, strategy_generator, Py_ssize_t n_deals, dict spec):
    """Deal and play n_deals deals with the strategies and thresholds of `spec`; seat 0 (side A)
    moves first. Returns the counters of new_play_counters()."""
    cdef Rules r = rules_from(spec)
    cdef Policy policy = policy_from(spec)
    counters = new_play_counters()
    cdef int64_t[::1] deals = counters["deals"]
    cdef int64_t[::1] closed = counters["closed"]
    cdef int64_t[::1] closer_seat = counters["closer_seat"]
    cdef int64_t[::1] close_turn = counters["close_turn"]
    cdef int64_t[::1] close_square = counters["close_square"]
    cdef int64_t[:, ::1] first_closable = counters["first_closable"]
    cdef int64_t[:, ::1] final_square = counters["final_square"]
    cdef int64_t[:, ::1] deal_score = counters["deal_score"]
    cdef int64_t[::1] net_sum = counters["net_sum"]
    cdef int64_t[::1] net_sq = counters["net_sq"]
    cdef int64_t[:, ::1] kinds = counters["actions"]
    cdef int64_t[::1] asks = counters["asks"], asks_sq = counters["asks_sq"]
    cdef int64_t[:, ::1] kind_moments = counters["kind_moments"]
    cdef int64_t[::1] actions_sq = counters["actions_sq"], refusal_moments = counters["refusal_moments"]
    cdef int64_t of_kind, deal_actions
    cdef int64_t[::1] refusals = counters["refusals"]
    cdef int64_t[::1] turns = counters["turns"]
    cdef bitgen_t *deal_bits = bitgen_pointer(deal_generator)
    cdef bitgen_t *strategy_bits = bitgen_pointer(strategy_generator)
    cdef Rng deal_rng, strategy_rng
    cdef Rng *shared[2]                # both sides draw from the one strategy stream
    cdef uint8_t deck[MAX_CARDS]
    cdef Action actions[MAX_ACTIONS]
    cdef Deal d
    cdef Py_ssize_t i
    cdef int k, p, net
    init_deck(&r, deck)
    d.log = NULL
    with deal_generator.lock, strategy_generator.lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&strategy_rng, strategy_bits)
        shared[0] = &strategy_rng
        shared[1] = &strategy_rng
        for i in range(n_deals):
            deal_cards(&d, &r, &deal_rng, deck)
            play_deal(&d, &r, &policy, shared, 0, actions)
            if d.closer >= 0:
                closed[0] += 1
                closer_seat[d.closer] += 1
                close_turn[d.close_turn] += 1
                close_square[d.score[side_of(&r, d.closer)]] += 1
            for k in range(2):
                first_closable[k, d.first_closable[k]] += 1
                final_square[k, d.score[k]] += 1
                deal_score[k, d.deal_score[k] + 1] += 1
            net = d.deal_score[0] - d.deal_score[1]
            net_sum[0] += net
            net_sq[0] += net * net
            deal_actions = 0
            for p in range(MAX_PLAYERS):
                for k in range(N_COUNTS):
                    kinds[p, k] += d.kinds[p][k]
                    deal_actions += d.kinds[p][k]
            for k in range(N_COUNTS):
                of_kind = 0
                for p in range(MAX_PLAYERS):
                    of_kind += d.kinds[p][k]
                kind_moments[k, 0] += of_kind * of_kind
                kind_moments[k, 1] += of_kind * deal_actions
            actions_sq[0] += deal_actions * deal_actions
            refusal_moments[0] += <int64_t>d.refusals * d.refusals
            refusal_moments[1] += <int64_t>d.refusals * d.asks
            asks[0] += d.asks
            asks_sq[0] += <int64_t>d.asks * d.asks
            refusals[0] += d.refusals
            turns[0] += d.turns
        deals[0] = n_deals
    return counters


def new_threshold_counters():
    return {
        "deals": np.zeros(1, np.int64),
        "net_sum": np.zeros(N_THRESHOLD_VARIANTS, np.int64),
        # sum over deals of net_i * net_j, for paired intervals of any two thresholds
        "net_cross": np.zeros((N_THRESHOLD_VARIANTS, N_THRESHOLD_VARIANTS), np.int64),
        "closed": np.zeros(N_THRESHOLD_VARIANTS, np.int64),
    }


def thresholds_shard(deal_generator, strategy_generator, Py_ssize_t n_deals, dict spec):
    """Duplicate deals: every deal is played once per closing threshold of THRESHOLD_VARIANTS for
    the tested side, in both seatings: the tested side as A (seat 0, moving first, A's cards)
    and as B (seat 1, B's cards). The tested side plays strategy_a, its opponents strategy_b with
    threshold_b. A deal's value for a variant is the tested side's net score (own minus the
    opponents') summed over the two seatings; the same deal serves every variant (paired)."""
    cdef Rules r = rules_from(spec)
    cdef Policy base = policy_from(spec)
    cdef Policy policy
    counters = new_threshold_counters()
    cdef int64_t[::1] deals = counters["deals"]
    cdef int64_t[::1] net_sum = counters["net_sum"]
    cdef int64_t[:, ::1] net_cross = counters["net_cross"]
    cdef int64_t[::1] closed = counters["closed"]
    cdef bitgen_t *deal_bits = bitgen_pointer(deal_generator)
    cdef bitgen_t *strategy_bits = bitgen_pointer(strategy_generator)
    cdef Rng deal_rng, strategy_rng
    cdef Rng *shared[2]                # both sides draw from the one strategy stream
    cdef uint8_t deck[MAX_CARDS]
    cdef Action actions[MAX_ACTIONS]
    cdef Deal d, dealt
    cdef int net[N_THRESHOLD_VARIANTS]
    cdef int v, w, seating, tested
    cdef Py_ssize_t i
    init_deck(&r, deck)
    d.log = NULL
    with deal_generator.lock, strategy_generator.lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&strategy_rng, strategy_bits)
        shared[0] = &strategy_rng
        shared[1] = &strategy_rng
        for i in range(n_deals):
            deal_cards(&dealt, &r, &deal_rng, deck)
            for v in range(N_THRESHOLD_VARIANTS):
                net[v] = 0
                for seating in range(2):
                    memcpy(&d, &dealt, sizeof(Deal))
                    d.log = NULL
                    tested = seating
                    policy.strategy[tested] = base.strategy[0]
                    policy.threshold[tested] = THRESHOLDS[v]
                    policy.strategy[1 - tested] = base.strategy[1]
                    policy.threshold[1 - tested] = base.threshold[1]
                    play_deal(&d, &r, &policy, shared, 0, actions)
                    net[v] += d.deal_score[tested] - d.deal_score[1 - tested]
                    closed[v] += d.closer >= 0 and side_of(&r, d.closer) == tested
            for v in range(N_THRESHOLD_VARIANTS):
                net_sum[v] += net[v]
                for w in range(N_THRESHOLD_VARIANTS):
                    net_cross[v, w] += net[v] * net[w]
        deals[0] = n_deals
    return counters



def compare_shard(deal_generator, a_generator, b_generator, Py_ssize_t n_deals, dict spec):
    """Duplicate deals for `kozyr compare`: strategy A is play/threshold of side A in `spec`
    (strategy_a, threshold_a), strategy B those of side B. Every deal is played twice from the
    same dealt hands (and stock), seat 0 moving first both times: first A holds side A (seat 0,
    and seat 2 in 2 vs 2) against B, then the partnerships swap and B holds side A. So each
    strategy plays every seat's cards of every deal. A's per-deal result is its side's deal score
    summed over the two plays (likewise B's); the paired difference is A's minus B's. Strategy A
    draws its random numbers from a_generator, B from b_generator, the deal from deal_generator
    only. Counters in the layout of analyzer.compare (sums that add up across shards)."""
    cdef Rules r = rules_from(spec)
    cdef Policy base = policy_from(spec)
    cdef Policy swapped
    swapped.strategy[0] = base.strategy[1]
    swapped.threshold[0] = base.threshold[1]
    swapped.strategy[1] = base.strategy[0]
    swapped.threshold[1] = base.threshold[0]
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef bitgen_t *deal_bits = bitgen_pointer(deal_generator)
    cdef bitgen_t *a_bits = bitgen_pointer(a_generator)
    cdef bitgen_t *b_bits = bitgen_pointer(b_generator)
    cdef Rng deal_rng, a_rng, b_rng
    cdef Rng *a_first[2]               # side A's and side B's streams in the first play
    cdef Rng *b_first[2]               # and in the second, partnerships swapped
    cdef uint8_t deck[MAX_CARDS]
    cdef Action actions[MAX_ACTIONS]
    cdef Deal d, dealt
    cdef int64_t a, b
    cdef Py_ssize_t i
    init_deck(&r, deck)
    dealt.log = NULL
    with deal_generator.lock, a_generator.lock, b_generator.lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&a_rng, a_bits)
        rng_init(&b_rng, b_bits)
        a_first[0] = &a_rng
        a_first[1] = &b_rng
        b_first[0] = &b_rng
        b_first[1] = &a_rng
        for i in range(n_deals):
            deal_cards(&dealt, &r, &deal_rng, deck)
            memcpy(&d, &dealt, sizeof(Deal))
            play_deal(&d, &r, &base, a_first, 0, actions)
            a = d.deal_score[0]
            b = d.deal_score[1]
            memcpy(&d, &dealt, sizeof(Deal))
            play_deal(&d, &r, &swapped, b_first, 0, actions)
            a += d.deal_score[1]
            b += d.deal_score[0]
            tally_pair(&tally, a, b)
    return pair_counters(tally)


def baseline_shard(deal_generator, Py_ssize_t n_squares, dict spec):
    """Squares of distinct random cards (§7): a full square, and 8 cards with one random empty
    cell. Returns histograms of their scores."""
    cdef Rules r = rules_from(spec)
    full = np.zeros(MAX_SQUARE, np.int64)
    holed = np.zeros(MAX_SQUARE, np.int64)
    cdef int64_t[::1] full_view = full
    cdef int64_t[::1] holed_view = holed
    cdef bitgen_t *bits = bitgen_pointer(deal_generator)
    cdef Rng rng
    cdef uint8_t deck[MAX_CARDS]
    cdef uint8_t sq[CELLS]
    cdef int c
    cdef Py_ssize_t i
    init_deck(&r, deck)
    with deal_generator.lock, nogil:
        rng_init(&rng, bits)
        for i in range(n_squares):
            rng_partial_shuffle(&rng, deck, r.n_cards, CELLS)
            for c in range(CELLS):
                sq[c] = deck[c]
            full_view[square_score(sq)] += 1
            sq[rng_below(&rng, CELLS)] = EMPTY
            holed_view[square_score(sq)] += 1
    return {"squares": np.array([n_squares], np.int64), "full": full, "holed": holed}


def new_match_counters():
    return {
        "matches": np.zeros(1, np.int64),
        "winner": np.zeros(3, np.int64),                  # side A, side B, drawn (fixed deals)
        "unfinished": np.zeros(1, np.int64),              # still level or short of the target after MATCH_MAX_DEALS
        "deals": np.zeros(MATCH_MAX_DEALS + 1, np.int64), # deals per match
        "closed_deals": np.zeros(1, np.int64),
        "total_deals": np.zeros(1, np.int64),
        "winner_total": np.zeros(MATCH_TOTAL_BINS, np.int64),   # final total of the winner (capped)
        "loser_total": np.zeros(MATCH_TOTAL_BINS, np.int64),
    }


def match_shard(deal_generator, strategy_generator, Py_ssize_t n_matches, dict spec):
    """Whole matches: the first mover rotates to the left every deal; to the target (both sides
    over it: the higher total wins, a tie plays on) or a fixed number of deals. A match not over
    after MATCH_MAX_DEALS deals is counted unfinished, not won."""
    cdef Rules r = rules_from(spec)
    cdef Policy policy = policy_from(spec)
    counters = new_match_counters()
    cdef int64_t[::1] matches = counters["matches"]
    cdef int64_t[::1] winner = counters["winner"]
    cdef int64_t[::1] unfinished = counters["unfinished"]
    cdef int64_t[::1] deals_hist = counters["deals"]
    cdef int64_t[::1] closed_deals = counters["closed_deals"]
    cdef int64_t[::1] total_deals = counters["total_deals"]
    cdef int64_t[::1] winner_total = counters["winner_total"]
    cdef int64_t[::1] loser_total = counters["loser_total"]
    cdef bitgen_t *deal_bits = bitgen_pointer(deal_generator)
    cdef bitgen_t *strategy_bits = bitgen_pointer(strategy_generator)
    cdef Rng deal_rng, strategy_rng
    cdef Rng *shared[2]                # both sides draw from the one strategy stream
    cdef uint8_t deck[MAX_CARDS]
    cdef Action actions[MAX_ACTIONS]
    cdef Deal d
    cdef int total[2]
    cdef int n, done, w
    cdef Py_ssize_t i
    init_deck(&r, deck)
    d.log = NULL
    with deal_generator.lock, strategy_generator.lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&strategy_rng, strategy_bits)
        shared[0] = &strategy_rng
        shared[1] = &strategy_rng
        for i in range(n_matches):
            total[0] = 0
            total[1] = 0
            n = 0
            done = 0
            w = 2
            while not done:
                deal_cards(&d, &r, &deal_rng, deck)
                play_deal(&d, &r, &policy, shared, n % r.players, actions)
                total[0] += d.deal_score[0]
                total[1] += d.deal_score[1]
                closed_deals[0] += d.closer >= 0
                n += 1
                if r.match_mode == MATCH_DEALS:
                    done = n >= r.match_deals
                else:
                    done = (total[0] >= r.match_target or total[1] >= r.match_target) and total[0] != total[1]
                if done:
                    w = 0 if total[0] > total[1] else (1 if total[1] > total[0] else 2)
                elif n >= MATCH_MAX_DEALS:
                    break
            if not done:
                unfinished[0] += 1
            else:
                winner[w] += 1
                if w < 2:
                    winner_total[max(0, min(total[w], MATCH_TOTAL_BINS - 1))] += 1
                    loser_total[max(0, min(total[1 - w], MATCH_TOTAL_BINS - 1))] += 1
            deals_hist[n] += 1
            total_deals[0] += n
        matches[0] = n_matches
    return counters


def play_logged(deal_generator, strategy_generator, dict spec, int first=0):
    """Deal and play one deal, returning the dealt hands, the stock and every turn (for the golden
    files, the reference cross-check and `kozyr square play`)."""
    cdef Rules r = rules_from(spec)
    cdef Policy policy = policy_from(spec)
    cdef bitgen_t *deal_bits = bitgen_pointer(deal_generator)
    cdef bitgen_t *strategy_bits = bitgen_pointer(strategy_generator)
    cdef Rng deal_rng, strategy_rng
    cdef Rng *shared[2]                # both sides draw from the one strategy stream
    cdef uint8_t deck[MAX_CARDS]
    cdef Action actions[MAX_ACTIONS]
    cdef LogEntry log[MAX_LOG]
    cdef LogEntry e
    cdef Deal d
    cdef int i
    if not 0 <= first < r.players:
        raise ValueError(f"first seat must be 0..{r.players - 1}, got {first}")
    init_deck(&r, deck)
    with deal_generator.lock, strategy_generator.lock:
        rng_init(&deal_rng, deal_bits)
        rng_init(&strategy_rng, strategy_bits)
        shared[0] = &strategy_rng
        shared[1] = &strategy_rng
        deal_cards(&d, &r, &deal_rng, deck)
        hands = [int(d.hand[p]) for p in range(r.players)]
        stock = [int(d.stock[i]) for i in range(d.stock_n)]
        d.log = log
        play_deal(&d, &r, &policy, shared, first, actions)
    kinds = ("place", "discard", "remove", "close")
    turns = []
    for i in range(d.log_n):
        e = log[i]
        turns.append(dict(turn=e.turn, seat=e.seat, kind=kinds[e.action.kind],
                          card=None if e.action.card == EMPTY else int(e.action.card),
                          side=int(e.action.side), cell=int(e.action.cell),
                          displaced=None if e.covered == EMPTY else int(e.covered),
                          asked=bool(e.asked), agreed=bool(e.agreed), closed=bool(e.closed),
                          score=(e.score[0], e.score[1])))
    return dict(hands=hands, stock=stock, first=first, turns=turns,
                squares=[[None if d.sq[k][c] == EMPTY else int(d.sq[k][c]) for c in range(CELLS)] for k in range(2)],
                square_score=(d.score[0], d.score[1]), deal_score=(d.deal_score[0], d.deal_score[1]),
                closer=d.closer if d.closer >= 0 else None, first_closable=(d.first_closable[0], d.first_closable[1]))
