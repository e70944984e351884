# Klabor (klaberjass), two-handed — full deals: deal, bidding, dix, declarations, bella, trick
# play, scoring with the bait ("байт"), and games to 501.
#
# Rules card (shared/rules/klabor.md; options in brackets, defaults first):
#   Deck     32 cards. Elder E = the dealer's opponent (seat 0), dealer D (seat 1).
#   Deal     6 cards each, the 13th card turned up, after the bidding 3 more each (9 in hand),
#            the bottom card of the stock shown [show_bottom_card: used by pimc as a known card].
#   Bidding  round 1: E then D may take the turned suit; round 2: E then D may name another suit;
#            all pass -> void deal. [schmeiss off|on: a would-be taker offers to annul instead; the
#            opponent accepts (void deal) unless his own hand reaches his threshold, then the
#            offerer plays as maker.]
#   Dix      turned suit only, turn-up not the 7: the holder of the trump 7 swaps it for the
#            turn-up [dix_swap always|never]; worth [dix_value 0|10] points.
#   Sequences runs of >= 3 in the natural order A K Q J T 9 8 7: 3 = 20, 4..8 = 50 [long_runs
#            "50" | "split": 7 = 50+20, 8 = 50+50]. Best key (value, top, is trump); the better
#            hand scores all its runs, the other none; equal plain keys [seq_tie none|elder].
#            [no_trick_no_melds off|on: a player without a trick scores no sequences.]
#   Bella    trump K+Q in one hand, 20 [bella_policy always|strategic: a maker baited even with
#            his bella keeps it quiet, decided with hindsight at the end of the deal].
#   Play     E leads the first trick, the winner the next. Follow suit; void -> trump if able;
#            trumps led -> head (play higher) if able [must_head_trump on|off].
#            Trump order J 9 A T K Q 8 7, plain A T K Q J 9 8 7.
#   Points   trump J 20, 9 14; A 11, T 10, K 4, Q 3, plain J 2; last trick 10 (18 cards played).
#   Score    maker's total > opponent's: each scores his own. Otherwise "байт": maker 0, opponent
#            both totals [tie = bait | half: opponent his own | carry: opponent his own, the
#            maker's total held over to the higher scorer of the next deal].
#   Game     first to [target 501]; both over -> higher wins, equal -> play on; margin
#            target - loser (or winner - loser when the loser also passed). The next dealer:
#            [next_dealer alternate | winner | loser of the previous deal].
#   Compare  (analyzer.compare) every deal twice with the seats swapped; a strategy's result is
#            its deal scores (bait included) over its two seats; A and B draw from own streams.
#
# Strategies (per seat): bidding by hand strength (card points of the 6 cards with the candidate
# suit as trump, the turn-up in place of the trump 7 when the dix applies, plus TRUMP_BONUS per
# trump) against a threshold; card play greedy (deterministic, public information only), pimc
# (sample the opponent's hand, solve each sample double-dummy, play the best total) or random.
#
# Encoding: a hand is a uint32 mask, bit = 8*suit + rank, suits S H D C = 0..3 and ranks in the
# natural (sequence) order 7 8 9 T J Q K A = 0..7, so runs are shifts on one byte. Trick
# strength differs in trumps and plain suits: TRUMP_STRENGTH / PLAIN_STRENGTH tables and the
# lane masks TRUMP_ABOVE / PLAIN_ABOVE of the ranks that beat a rank.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.string cimport memset

from bitboard cimport mask32, suit_lane32, popcount32, lowest_bit32, clear_lowest32, RANK_COLUMN32
from rng cimport Rng, rng_init, rng_partial_shuffle, rng_below, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t

cnp.import_array()

from klabor_rules cimport *
from klabor_search cimport Solver, solver_init, solver_free, solver_new_deal, dd_full
from klabor_strategies cimport PlayState, choose_card

build_card_tables()


# ---------------------------------------------------------------------------------------------
# A deal from the bidding to the score

cdef void start_play(const Layout *deal, const Rules *rules, DealResult *res, PlayState *st) noexcept nogil:
    """Complete the hands, apply the dix and set up what both players know."""
    cdef int p, seven = 8 * res.trump + R7
    cdef mask32 swap
    res.swapper = NOBODY
    for p in range(2):
        res.hand[p] = deal.first[p] | deal.second[p]
        st.hand[p] = res.hand[p]
        st.known_in[p] = 0
    st.known_out = (<mask32>1) << deal.turnup
    if res.round == 1 and rules.dix_swap and (deal.turnup & 7) != R7:
        for p in range(2):
            if (st.hand[p] >> seven) & 1:
                swap = ((<mask32>1) << seven) | ((<mask32>1) << deal.turnup)
                st.hand[p] ^= swap
                st.known_in[p] = (<mask32>1) << deal.turnup
                st.known_out = (<mask32>1) << seven
                res.swapper = p
    if rules.show_bottom and deal.bottom >= 0:
        st.known_out |= (<mask32>1) << deal.bottom
    st.played = 0
    st.trump = res.trump
    st.must_head = rules.must_head
    for p in range(2):
        res.held[p] = st.hand[p]


cdef int run_tricks(PlayState *st, DealResult *res, const Strategy *strat, Solver *sv, Rng **seat_rng,
                    const int *given, int *error, int *error_seat) noexcept nogil:
    """Play the nine tricks, choosing cards by strategy (seat p's random draws from seat_rng[p])
    or taking them from `given` (checked; on an illegal card returns the index of the play and
    sets *error and the seat that played it, else returns -1)."""
    cdef int t, leader = ELDER, follower, a, b, w, code
    for t in range(2):
        res.card_points[t] = 0
        res.tricks_won[t] = 0
    for t in range(TRICKS):
        follower = 1 - leader
        if given != NULL:
            a = given[2 * t]
            if not (st.hand[leader] >> a) & 1:
                error[0] = ERR_NOT_IN_HAND
                error_seat[0] = leader
                return 2 * t
        else:
            a = choose_card(st, leader, NO_CARD, strat, sv, seat_rng[leader])
        st.hand[leader] &= ~((<mask32>1) << a)
        st.played |= (<mask32>1) << a
        if given != NULL:
            b = given[2 * t + 1]
            code = reply_error(st.hand[follower], a, b, st.trump, st.must_head)
            if code != ERR_NONE:
                error[0] = code
                error_seat[0] = follower
                return 2 * t + 1
        else:
            b = choose_card(st, follower, a, strat, sv, seat_rng[follower])
        st.hand[follower] &= ~((<mask32>1) << b)
        st.played |= (<mask32>1) << b
        w = follower if beats(b, a, st.trump) else leader
        res.card_points[w] += card_points(a, st.trump) + card_points(b, st.trump)
        res.tricks_won[w] += 1
        res.plays[2 * t] = a
        res.plays[2 * t + 1] = b
        res.trick_winner[t] = w
        leader = w
    res.last_winner = leader
    return -1


cdef void play_deal_seats(const Layout *deal, const Strategy *strat, const Rules *rules, Solver *sv,
                          Rng *elder_rng, Rng *dealer_rng, DealResult *res) noexcept nogil:
    """Bid and play one deal; the elder's random draws come from elder_rng, the dealer's from
    dealer_rng."""
    cdef PlayState st
    cdef int error = 0, error_seat = 0
    cdef Rng *seat_rng[2]
    seat_rng[ELDER] = elder_rng
    seat_rng[DEALER] = dealer_rng
    clear_play(res)
    bid(deal, strat, rules, res)
    res.hand[0] = deal.first[0] | deal.second[0]
    res.hand[1] = deal.first[1] | deal.second[1]
    if res.void:
        return
    start_play(deal, rules, res, &st)
    if strat[0].play == PLAY_PIMC or strat[1].play == PLAY_PIMC:
        solver_new_deal(sv, res.trump, rules.must_head)
    run_tricks(&st, res, strat, sv, seat_rng, NULL, &error, &error_seat)
    finish_deal(res, rules)


cdef inline void play_deal(const Layout *deal, const Strategy *strat, const Rules *rules, Solver *sv,
                           Rng *rng, DealResult *res) noexcept nogil:
    """Bid and play one deal, both seats drawing from one stream."""
    play_deal_seats(deal, strat, rules, sv, rng, rng, res)


cdef inline void deal_cards(Rng *rng, uint8_t *cards, Layout *deal) noexcept nogil:
    cdef int c, p
    rng_partial_shuffle(rng, cards, N_CARDS, DEALT)
    for p in range(2):
        deal.first[p] = 0
        deal.second[p] = 0
        for c in range(FIRST):
            deal.first[p] |= (<mask32>1) << cards[FIRST * p + c]
        for c in range(SECOND):
            deal.second[p] |= (<mask32>1) << cards[2 * FIRST + 1 + SECOND * p + c]
    deal.turnup = cards[2 * FIRST]
    deal.bottom = cards[DEALT - 1]

# ---------------------------------------------------------------------------------------------
# Python-facing configuration

cdef Rules rules_from(dict spec) except *:
    cdef Rules rules
    memset(&rules, 0, sizeof(Rules))
    rules.must_head = bool(spec["must_head_trump"])
    rules.tie = {"bait": TIE_BAIT, "half": TIE_HALF, "carry": TIE_CARRY}[spec["tie"]]
    rules.seq_tie_elder = spec["seq_tie"] == "elder"
    rules.long_split = spec["long_runs"] == "split"
    rules.dix_swap = spec["dix_swap"] == "always"
    rules.dix_value = spec["dix_value"]
    rules.schmeiss = bool(spec["schmeiss"])
    rules.next_dealer = {"alternate": NEXT_ALTERNATE, "winner": NEXT_WINNER, "loser": NEXT_LOSER}[spec["next_dealer"]]
    rules.bella_strategic = spec["bella_policy"] == "strategic"
    rules.no_trick_no_melds = bool(spec["no_trick_no_melds"])
    rules.show_bottom = bool(spec["show_bottom_card"])
    rules.target = spec["target"]
    build_sequence_tables(&rules)
    return rules


PLAY_STRATEGIES = ("greedy", "pimc", "random")


cdef void strategies_from(dict spec, Strategy *players) except *:
    """Player A (the elder of single deals, the hero of the thresholds analysis, the first
    deal's elder in games) plays spec["play_a"], player B spec["play_b"]; both bid at
    spec["threshold"] (the thresholds analysis overrides it) unless spec gives a player his own
    "threshold_a" / "threshold_b" (the compare analysis)."""
    cdef int p
    for p in range(2):
        players[p].threshold = spec.get("threshold_b" if p else "threshold_a", spec["threshold"])
        players[p].play = PLAY_STRATEGIES.index(spec["play_b" if p else "play_a"])
        players[p].samples = spec["pimc_samples"]


cdef class _SolverHandle:
    """Owns a Solver's tables for the duration of a kernel call."""
    cdef Solver sv

    def __cinit__(self):
        if not solver_init(&self.sv):
            solver_free(&self.sv)
            raise MemoryError("cannot allocate the double-dummy table")

    def __dealloc__(self):
        solver_free(&self.sv)


ROW_FIELDS = ("elder_first", "dealer_first", "elder_second", "dealer_second", "turnup", "bottom",
              "void", "maker", "round", "schmeiss_annulled", "trump", "swapper", "seq_winner",
              "seq_elder", "seq_dealer", "bella_holder", "bella_elder", "bella_dealer", "dix_elder",
              "dix_dealer", "cards_elder", "cards_dealer", "tricks_elder", "tricks_dealer",
              "last_winner", "total_elder", "total_dealer", "score_elder", "score_dealer", "baited",
              "carried") + tuple(f"play{i}" for i in range(PLAYED)) + tuple(f"winner{t}" for t in range(TRICKS))
cdef enum:
    ROW_WIDTH = 31 + PLAYED + TRICKS


cdef void fill_row(int[::1] row, const Layout *deal, const DealResult *res) noexcept nogil:
    cdef int i
    cdef int head[31]
    head[:] = [<int>deal.first[0], <int>deal.first[1], <int>deal.second[0], <int>deal.second[1],
               deal.turnup, deal.bottom, res.void, res.maker, res.round, res.schmeiss_annulled,
               res.trump, res.swapper, res.seq_winner, res.seq_points[0], res.seq_points[1],
               res.bella_holder, res.bella_points[0], res.bella_points[1], res.dix_points[0],
               res.dix_points[1], res.card_points[0], res.card_points[1], res.tricks_won[0],
               res.tricks_won[1], res.last_winner, res.total[0], res.total[1], res.score[0],
               res.score[1], res.baited, res.carried]
    for i in range(31):
        row[i] = head[i]
    for i in range(PLAYED):
        row[31 + i] = res.plays[i]
    for i in range(TRICKS):
        row[31 + PLAYED + i] = res.trick_winner[i]


def new_deal_counters():
    """Zeroed counters of the deals kernel (single deals, fixed seats); they add up across shards."""
    return {
        "deals": np.zeros(1, np.int64),
        "void": np.zeros(1, np.int64),
        "schmeiss_annulled": np.zeros(1, np.int64),
        "made": np.zeros((2, 2), np.int64),          # [maker seat elder/dealer][round turned/named]
        "baited": np.zeros((2, 2), np.int64),
        "score_hist": np.zeros((2, MAX_SCORE), np.int64),   # [maker, opponent][deal score]
        "seat_net": np.zeros(2, np.int64),            # sum and sum of squares of elder - dealer score
        "seq_decides": np.zeros(1, np.int64),         # the sequences turn a bait into a made contract or back
        "bella_maker": np.zeros(1, np.int64),         # the maker holds bella
        "bella_opponent": np.zeros(1, np.int64),
        "bella_quiet": np.zeros(1, np.int64),         # strategic policy kept the maker's bella quiet
        "dix_swaps": np.zeros(1, np.int64),
    }


def _rows_view(rows, Py_ssize_t n):
    if rows.dtype != np.int32 or rows.shape != (n, ROW_WIDTH) or not rows.flags.c_contiguous:
        raise ValueError(f"rows must be a C-contiguous int32 array of shape ({n}, {ROW_WIDTH})")
    return rows


def deals_shard(bit_generators, Py_ssize_t n_deals, dict spec, rows=None):
    """Deal and play n_deals single deals (elder = seat 0) with the strategies of `spec`.
    bit_generators[0] deals, bit_generators[1] feeds pimc and random play."""
    cdef Rules rules = rules_from(spec)
    cdef Strategy strat[2]
    strategies_from(spec, strat)
    counters = new_deal_counters()
    cdef int64_t[::1] deals = counters["deals"], void = counters["void"], annulled = counters["schmeiss_annulled"]
    cdef int64_t[:, ::1] made = counters["made"], baited = counters["baited"], score_hist = counters["score_hist"]
    cdef int64_t[::1] seat_net = counters["seat_net"], seq_decides = counters["seq_decides"]
    cdef int64_t[::1] bella_maker = counters["bella_maker"], bella_opponent = counters["bella_opponent"]
    cdef int64_t[::1] bella_quiet = counters["bella_quiet"], dix_swaps = counters["dix_swaps"]
    cdef int[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        row_view = _rows_view(rows, n_deals)
    cdef _SolverHandle handle = _SolverHandle()
    cdef uint8_t cards[N_CARDS]
    cdef int c, m, o, net
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng, play_rng
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *play_bits = bitgen_pointer(bit_generators[1])
    cdef Py_ssize_t d
    cdef Layout deal
    cdef DealResult res
    with bit_generators[0].lock, bit_generators[1].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&play_rng, play_bits)
        for d in range(n_deals):
            deal_cards(&deal_rng, cards, &deal)
            play_deal(&deal, strat, &rules, &handle.sv, &play_rng, &res)
            if keep_rows:
                fill_row(row_view[d], &deal, &res)
            annulled[0] += res.schmeiss_annulled
            if res.void:
                void[0] += 1
                continue
            m = res.maker
            o = 1 - m
            made[m, res.round - 1] += 1
            baited[m, res.round - 1] += res.baited
            score_hist[0, res.score[m]] += 1
            score_hist[1, res.score[o]] += 1
            net = res.score[0] - res.score[1]
            seat_net[0] += net
            seat_net[1] += net * net
            # Would the outcome flip without the sequences of both players?
            seq_decides[0] += ((res.total[m] - res.seq_points[m] > res.total[o] - res.seq_points[o])
                               != (res.total[m] > res.total[o]))
            bella_maker[0] += res.bella_holder == m
            bella_opponent[0] += res.bella_holder == o
            bella_quiet[0] += res.bella_holder == m and res.bella_points[m] == 0
            dix_swaps[0] += res.swapper != NOBODY
        deals[0] = n_deals
    return counters


def play_deals(layouts, dict spec, bit_generator=None):
    """Play given deals: `layouts` is an int64 array of rows (elder 6, dealer 6, elder 3, dealer 3
    as masks, turn-up card, bottom card), validated by the caller. Returns rows of ROW_FIELDS."""
    cdef Rules rules = rules_from(spec)
    cdef Strategy strat[2]
    strategies_from(spec, strat)
    cdef long long[:, ::1] lay = np.ascontiguousarray(layouts, dtype=np.int64)
    if lay.shape[1] != 6:
        raise ValueError("layouts need 6 columns")
    out = np.zeros((lay.shape[0], ROW_WIDTH), np.int32)
    cdef int[:, ::1] view = out
    gen = bit_generator if bit_generator is not None else np.random.PCG64(0)
    cdef bitgen_t *bits = bitgen_pointer(gen)
    cdef _SolverHandle handle = _SolverHandle()
    cdef Rng rng
    cdef Layout deal
    cdef DealResult res
    cdef Py_ssize_t d
    with gen.lock, nogil:
        rng_init(&rng, bits)
        for d in range(lay.shape[0]):
            deal.first[0] = <mask32>lay[d, 0]
            deal.first[1] = <mask32>lay[d, 1]
            deal.second[0] = <mask32>lay[d, 2]
            deal.second[1] = <mask32>lay[d, 3]
            deal.turnup = <int>lay[d, 4]
            deal.bottom = <int>lay[d, 5]
            play_deal(&deal, strat, &rules, &handle.sv, &rng, &res)
            fill_row(view[d], &deal, &res)
    return out


ERRORS = {ERR_NOT_IN_HAND: "not_in_hand", ERR_FOLLOW: "must_follow", ERR_TRUMP: "must_trump",
          ERR_HEAD: "must_head"}


def play_given(long long elder9, long long dealer9, int turnup, int trump, int maker, plays, dict spec):
    """Score a given deal and trick sequence (18 card indices, leader's card first in each trick).
    The caller validates the cards. Returns (row, None) or (None, (play index, error name, seat))."""
    cdef Rules rules = rules_from(spec)
    cdef Layout deal
    cdef DealResult res
    cdef PlayState st
    cdef int given[PLAYED]
    cdef int i, error = ERR_NONE, error_seat = 0, bad
    if len(plays) != PLAYED:
        raise ValueError(f"a deal has {PLAYED} plays, got {len(plays)}")
    for i in range(PLAYED):
        given[i] = plays[i]
    deal.first[0] = <mask32>elder9
    deal.first[1] = <mask32>dealer9
    deal.second[0] = 0
    deal.second[1] = 0
    deal.turnup = turnup
    deal.bottom = NO_CARD
    clear_play(&res)
    res.void = 0
    res.schmeiss_annulled = 0
    res.maker = maker
    res.trump = trump
    res.round = 1 if trump == turnup >> 3 else 2
    start_play(&deal, &rules, &res, &st)
    bad = run_tricks(&st, &res, NULL, NULL, NULL, given, &error, &error_seat)
    if bad >= 0:
        return None, (bad, ERRORS[error], error_seat)
    finish_deal(&res, &rules)
    row = np.zeros(ROW_WIDTH, np.int32)
    fill_row(row, &deal, &res)
    return row, None


def card_points_of(long long cards, int trump):
    """Card points of a set of cards with the given trump suit."""
    return mask_points(<mask32>cards, trump)


def dd_value(long long me, long long opp, bint me_leads, int trump, bint must_head=True):
    """Points `me` takes from the remaining tricks with both hands known and best play."""
    cdef _SolverHandle handle = _SolverHandle()
    solver_new_deal(&handle.sv, trump, must_head)
    return dd_full(&handle.sv, <mask32>me, <mask32>opp, me_leads)


def declare(long long elder, long long dealer, int trump, dict spec):
    """Sequence comparison of two held hands: (winner seat or -1, elder points, dealer points)."""
    cdef Rules rules = rules_from(spec)
    cdef DealResult res
    clear_play(&res)
    res.held[0] = <mask32>elder
    res.held[1] = <mask32>dealer
    res.trump = trump
    res.tricks_won[0] = res.tricks_won[1] = 1
    score_sequences(&res, &rules)
    return res.seq_winner, res.seq_points[0], res.seq_points[1]


def settle_totals(int maker_total, int opponent_total, dict spec):
    """The bait rule: (maker's score, opponent's score, points carried over)."""
    cdef Rules rules = rules_from(spec)
    cdef DealResult res
    res.maker = ELDER
    res.total[0] = maker_total
    res.total[1] = opponent_total
    settle(&res, &rules)
    return res.score[0], res.score[1], res.carried


def game_result(int first, int second, int target):
    """(winner index or -1 if the game goes on, margin) for two running totals."""
    cdef int score[2]
    cdef int won = -1, margin = 0
    score[0] = first
    score[1] = second
    if not game_over(score, target, &won, &margin):
        return -1, 0
    return won, margin


def sequence_info(long long hand, int trump, dict spec):
    """(best key, sum of all runs) of a hand; the key packs (class, top rank, is trump)."""
    cdef Rules rules = rules_from(spec)
    return sequence_key(<mask32>hand, trump, &rules), sequence_sum(<mask32>hand, &rules)


# ---------------------------------------------------------------------------------------------
# Sequence and bella odds on dealt hands (rules §10)

cdef uint8_t LONGEST[256]

cdef void build_longest() noexcept nogil:
    cdef int m, b, run, best
    for m in range(256):
        best = 0
        run = 0
        for b in range(N_RANKS):
            run = run + 1 if (m >> b & 1) else 0
            if run > best:
                best = run
        LONGEST[m] = <uint8_t>best

build_longest()

cdef inline int longest_run(mask32 hand) noexcept nogil:
    cdef int s, best = 0
    for s in range(4):
        if LONGEST[suit_lane32(hand, s)] > best:
            best = LONGEST[suit_lane32(hand, s)]
    return best

cdef enum:
    GIVEN_SUIT = 1               # hearts: the "given suit" of the §10 single-suit and bella figures
    N_ODDS_EVENTS = 8
ODDS_EVENTS = ("6 cards: at least a terts", "6 cards: poltinnik (run >= 4)", "9 cards: at least a terts",
               "9 cards: run >= 4", "9 cards: best is exactly a terts", "9 cards: run >= 3 in hearts",
               "6 cards: bella in hearts", "9 cards: bella in hearts")


def new_odds_counters():
    return {
        "deals": np.zeros(1, np.int64),
        "longest6": np.zeros((2, 9), np.int64),     # [seat][longest run in the first 6 cards]
        "longest9": np.zeros((2, 9), np.int64),     # [seat][longest run in the 9 cards]
        "suit_run3_9": np.zeros(2, np.int64),       # run >= 3 in hearts, 9 cards
        "bella6": np.zeros(2, np.int64),            # K+Q of hearts in the first 6 cards
        "bella9": np.zeros(2, np.int64),
        "either_bella9": np.zeros(1, np.int64),
        "any_run3": np.zeros(1, np.int64),          # two 9-card hands
        "both_run3": np.zeros(1, np.int64),
        "any_run4": np.zeros(1, np.int64),
        # deals where both seats have the single-hand event, in the order of ODDS_EVENTS (for the
        # pooled rates' intervals: the two hands of a deal are not independent)
        "both_seats": np.zeros(N_ODDS_EVENTS, np.int64),
    }


def odds_shard(bit_generators, Py_ssize_t n_deals, dict spec=None):
    counters = new_odds_counters()
    cdef int64_t[::1] deals = counters["deals"], suit_run3 = counters["suit_run3_9"]
    cdef int64_t[:, ::1] longest6 = counters["longest6"], longest9 = counters["longest9"]
    cdef int64_t[::1] bella6 = counters["bella6"], bella9 = counters["bella9"], either = counters["either_bella9"]
    cdef int64_t[::1] any3 = counters["any_run3"], both3 = counters["both_run3"], any4 = counters["any_run4"]
    cdef int64_t[::1] both_seats = counters["both_seats"]
    cdef int events[2][N_ODDS_EVENTS]
    cdef int run6, k
    cdef uint8_t cards[N_CARDS]
    cdef int c, p
    cdef int run9[2]
    cdef mask32 hand9, kq = ((<mask32>1 << RK) | (<mask32>1 << RQ)) << (8 * GIVEN_SUIT)
    cdef int has_bella
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng rng
    cdef bitgen_t *bits = bitgen_pointer(bit_generators[0])
    cdef Layout deal
    cdef Py_ssize_t d
    with bit_generators[0].lock, nogil:
        rng_init(&rng, bits)
        for d in range(n_deals):
            deal_cards(&rng, cards, &deal)
            has_bella = 0
            for p in range(2):
                hand9 = deal.first[p] | deal.second[p]
                run9[p] = longest_run(hand9)
                run6 = longest_run(deal.first[p])
                longest6[p, run6] += 1
                longest9[p, run9[p]] += 1
                events[p][0] = run6 >= 3
                events[p][1] = run6 >= 4
                events[p][2] = run9[p] >= 3
                events[p][3] = run9[p] >= 4
                events[p][4] = run9[p] == 3
                events[p][5] = LONGEST[suit_lane32(hand9, GIVEN_SUIT)] >= 3
                events[p][6] = (deal.first[p] & kq) == kq
                events[p][7] = (hand9 & kq) == kq
                suit_run3[p] += events[p][5]
                bella6[p] += events[p][6]
                bella9[p] += events[p][7]
                has_bella |= events[p][7]
            for k in range(N_ODDS_EVENTS):
                both_seats[k] += events[0][k] & events[1][k]
            either[0] += has_bella
            any3[0] += run9[0] >= 3 or run9[1] >= 3
            both3[0] += run9[0] >= 3 and run9[1] >= 3
            any4[0] += run9[0] >= 4 or run9[1] >= 4
        deals[0] = n_deals
    return counters


# ---------------------------------------------------------------------------------------------
# Bidding thresholds: the same deals played with the "hero" at each threshold of the grid in both
# seats against an opponent at the baseline threshold (duplicate deals, paired comparison).

THRESHOLDS = tuple(range(20, 101, 10))
cdef enum:
    N_THRESHOLDS = 9
    N_CONTRACTS = 9              # void, or maker seat x trump suit


def new_threshold_counters():
    k = N_THRESHOLDS
    return {
        "deals": np.zeros(1, np.int64),
        "made": np.zeros((k, 2, 2), np.int64),       # hero makes: [threshold][hero seat][round]
        "baited": np.zeros((k, 2, 2), np.int64),
        "opp_made": np.zeros((k, 2), np.int64),      # the baseline opponent makes: [threshold][hero seat]
        "opp_baited": np.zeros((k, 2), np.int64),
        "void": np.zeros((k, 2), np.int64),
        "net_sum": np.zeros(k, np.int64),            # x = hero's net over both seats of a deal
        "net_cross": np.zeros((k, k), np.int64),     # sum of x_i * x_j (paired intervals)
    }


def thresholds_shard(bit_generators, Py_ssize_t n_deals, dict spec):
    cdef Rules rules = rules_from(spec)
    cdef Strategy players[2]
    cdef Strategy strat[2]
    strategies_from(spec, players)
    cdef int baseline = spec["opponent_threshold"]
    counters = new_threshold_counters()
    cdef int64_t[::1] deals = counters["deals"], net_sum = counters["net_sum"]
    cdef int64_t[:, :, ::1] made = counters["made"], baited = counters["baited"]
    cdef int64_t[:, ::1] opp_made = counters["opp_made"], opp_baited = counters["opp_baited"]
    cdef int64_t[:, ::1] void = counters["void"], cross = counters["net_cross"]
    cdef int grid[N_THRESHOLDS]
    cdef int k, j, hero, contract
    for k in range(N_THRESHOLDS):
        grid[k] = THRESHOLDS[k]
    cdef _SolverHandle handle = _SolverHandle()
    cdef uint8_t cards[N_CARDS]
    for k in range(N_CARDS):
        cards[k] = <uint8_t>k
    cdef Rng deal_rng, play_rng
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *play_bits = bitgen_pointer(bit_generators[1])
    cdef Layout deal
    cdef DealResult res
    cdef DealResult played[2][N_CONTRACTS]    # per hero seat: the outcome of each contract, played once
    cdef int known[2][N_CONTRACTS]
    cdef int64_t x[N_THRESHOLDS]
    cdef Py_ssize_t d
    with bit_generators[0].lock, bit_generators[1].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&play_rng, play_bits)
        for d in range(n_deals):
            deal_cards(&deal_rng, cards, &deal)
            memset(known, 0, sizeof(known))
            for k in range(N_THRESHOLDS):
                x[k] = 0
                for hero in range(2):
                    strat[hero] = players[0]
                    strat[1 - hero] = players[1]
                    strat[hero].threshold = grid[k]
                    strat[1 - hero].threshold = baseline
                    # The play after the bidding depends only on the contract: play each once.
                    clear_play(&res)
                    bid(&deal, strat, &rules, &res)
                    contract = 0 if res.void else 1 + res.maker * 4 + res.trump
                    if not known[hero][contract]:
                        play_deal(&deal, strat, &rules, &handle.sv, &play_rng, &played[hero][contract])
                        known[hero][contract] = 1
                    res = played[hero][contract]
                    if res.void:
                        void[k, hero] += 1
                        continue
                    if res.maker == hero:
                        made[k, hero, res.round - 1] += 1
                        baited[k, hero, res.round - 1] += res.baited
                    else:
                        opp_made[k, hero] += 1
                        opp_baited[k, hero] += res.baited
                    x[k] += res.score[hero] - res.score[1 - hero]
            for k in range(N_THRESHOLDS):
                net_sum[k] += x[k]
                for j in range(N_THRESHOLDS):
                    cross[k, j] += x[k] * x[j]
        deals[0] = n_deals
    return counters


# ---------------------------------------------------------------------------------------------
# Games to the target

def new_game_counters():
    return {
        "games": np.zeros(1, np.int64),
        "deals_hist": np.zeros(MAX_GAME_DEALS + 1, np.int64),   # deals dealt (void ones included)
        "void_deals": np.zeros(1, np.int64),
        "void_deals_sq": np.zeros(1, np.int64),      # the sum of each game's void deals squared
        "winner": np.zeros(2, np.int64),             # [player who was elder in the first deal, other]
        "margin_hist": np.zeros(MAX_MARGIN, np.int64),
        "unfinished": np.zeros(1, np.int64),
    }


def games_shard(bit_generators, Py_ssize_t n_games, dict spec):
    """Play n_games games to the target with the strategies of `spec` (player 0 is the elder of
    the first deal)."""
    cdef Rules rules = rules_from(spec)
    cdef Strategy players[2]
    cdef Strategy strat[2]
    strategies_from(spec, players)
    counters = new_game_counters()
    cdef int64_t[::1] games = counters["games"], deals_hist = counters["deals_hist"], voids = counters["void_deals"]
    cdef int64_t[::1] voids_sq = counters["void_deals_sq"]
    cdef int64_t[::1] winner = counters["winner"], margin_hist = counters["margin_hist"], unfinished = counters["unfinished"]
    cdef _SolverHandle handle = _SolverHandle()
    cdef uint8_t cards[N_CARDS]
    cdef int c
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng, play_rng
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *play_bits = bitgen_pointer(bit_generators[1])
    cdef Layout deal
    cdef DealResult res
    cdef Py_ssize_t g
    cdef int score[2]
    cdef int n, dealer, elder, carry, won, margin, done, game_voids
    with bit_generators[0].lock, bit_generators[1].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&play_rng, play_bits)
        for g in range(n_games):
            score[0] = 0
            score[1] = 0
            dealer = 1
            carry = 0
            n = 0
            done = 0
            game_voids = 0
            while n < MAX_GAME_DEALS:
                n += 1
                elder = 1 - dealer
                strat[ELDER] = players[elder]
                strat[DEALER] = players[dealer]
                deal_cards(&deal_rng, cards, &deal)
                play_deal(&deal, strat, &rules, &handle.sv, &play_rng, &res)
                if res.void:
                    game_voids += 1
                    dealer = 1 - dealer
                    continue
                score[elder] += res.score[ELDER]
                score[dealer] += res.score[DEALER]
                if carry and res.score[ELDER] != res.score[DEALER]:
                    score[elder if res.score[ELDER] > res.score[DEALER] else dealer] += carry
                    carry = 0
                carry += res.carried
                if game_over(score, rules.target, &won, &margin):
                    winner[won] += 1
                    margin_hist[margin if margin < MAX_MARGIN else MAX_MARGIN - 1] += 1
                    done = 1
                    break
                if rules.next_dealer == NEXT_ALTERNATE or res.score[ELDER] == res.score[DEALER]:
                    dealer = 1 - dealer
                elif (res.score[ELDER] > res.score[DEALER]) == (rules.next_dealer == NEXT_WINNER):
                    dealer = elder
            deals_hist[n] += 1
            voids[0] += game_voids
            voids_sq[0] += game_voids * game_voids
            unfinished[0] += not done
        games[0] = n_games
    return counters


# ---------------------------------------------------------------------------------------------
# Duplicate comparison of two strategies (analyzer.compare)

def compare_shard(bit_generators, Py_ssize_t n_deals, dict spec, rows=None):
    """Play every deal twice: strategy A (play_a, bidding at threshold_a) as elder against B
    (play_b, threshold_b) as dealer, then the same cards with the seats swapped. A strategy's
    per-deal result is its deal score (game-score points, the bait included: a baited maker 0,
    his opponent both totals) summed over its two seats; the paired difference is A's minus B's.
    bit_generators[0] deals; A draws its random plays from bit_generators[1] and B from
    bit_generators[2] in both seats, so the deals never depend on the strategies. Counters in the
    layout of analyzer.compare (sums that add up across shards). If `rows` is given (int32, shape
    (n_deals, 2, len(ROW_FIELDS))), it receives both plays of every deal: [d, 0] with A as elder,
    [d, 1] with B as elder."""
    cdef Rules rules = rules_from(spec)
    cdef Strategy players[2]
    cdef Strategy strat[2]
    strategies_from(spec, players)
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef int[:, :, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.int32 or rows.shape != (n_deals, 2, ROW_WIDTH) or not rows.flags.c_contiguous:
            raise ValueError(f"rows must be a C-contiguous int32 array of shape ({n_deals}, 2, {ROW_WIDTH})")
        row_view = rows
    cdef _SolverHandle handle = _SolverHandle()
    cdef uint8_t cards[N_CARDS]
    cdef int c
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng, a_rng, b_rng
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *a_bits = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *b_bits = bitgen_pointer(bit_generators[2])
    cdef Layout deal
    cdef DealResult first, second
    cdef Py_ssize_t d
    with bit_generators[0].lock, bit_generators[1].lock, bit_generators[2].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&a_rng, a_bits)
        rng_init(&b_rng, b_bits)
        for d in range(n_deals):
            deal_cards(&deal_rng, cards, &deal)
            strat[ELDER] = players[0]
            strat[DEALER] = players[1]
            play_deal_seats(&deal, strat, &rules, &handle.sv, &a_rng, &b_rng, &first)
            strat[ELDER] = players[1]
            strat[DEALER] = players[0]
            play_deal_seats(&deal, strat, &rules, &handle.sv, &b_rng, &a_rng, &second)
            if keep_rows:
                fill_row(row_view[d, 0], &deal, &first)
                fill_row(row_view[d, 1], &deal, &second)
            tally_pair(&tally, first.score[ELDER] + second.score[DEALER], first.score[DEALER] + second.score[ELDER])
    return pair_counters(tally)
