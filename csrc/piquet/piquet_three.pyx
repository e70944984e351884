# Piquet for three (shared/rules/piquet.md §10; presets ru_three, ru_three_seq34).
#
# Rules card
#   Deck      32 cards, 7 8 9 T J Q K A, no trumps. Seats: dealer D, first leader L (the dealer's
#             left), third R; play goes L, R, D. The dealer rotates to the left each deal.
#   Deal      10 each; the last 2 cards are a talon for the dealer only.
#   Exchange  the dealer may refuse the talon, or discard 2 and take both (option: 1 as well).
#   Declarations as the parent two-handed preset (carte blanche 10 on the dealt hand, point,
#             sequences 13 14 15.. or 3 4 15.., sets 3/14), compared among three: the unique best
#             holding scores all its holder's holdings of the category; a tie at the top scores
#             for nobody, the third player included.
#   Repik     +70: a declaration total of 20 or more while both others declared nothing.
#   Play      follow suit if able; the highest card of the suit led wins. Lead +1, every trick +1
#             to its winner, the 10th trick 4 (1 in a capot).
#   Pik       +40 to the first leader when his count (declarations + play points) reaches 20 while
#             both others declared nothing and (default window) before either of them scores in play.
#   Bonuses   леза +10 to a unique top trick count; capot (all 10 tricks) +20 instead.
#   Game      to a target (100): whoever reaches it leaves as first; the two others go on with
#             two-handed ru_seed deals (12 cards, talon 8), same cumulative totals; the next to reach
#             it is second; the last pays a stake to each of the other two.
#   Compare   (analyzer.compare) every deal six times: A alone in each seat against two B's, then B
#             alone against two A's; a strategy's result is its deal totals over its nine seats.
#
# Encoding: a hand is a uint32 mask, bit = 8*suit + rank (S H D C = 0..3; 7..A = 0..7).
# Streams: the shard's bit generator 0 deals; 1, 2, 3 feed the strategies of seats D, L, R (deal
# analysis) or of players A, B, C (game analysis); 1, 2 feed strategies A and B (compare).

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.string cimport memset, memcpy

from bitboard cimport mask32, lowest_bit32, popcount32, rank_count32
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from piquet_rules cimport *
from piquet_search cimport Solver, solver_init, solver_free
from piquet_strategies cimport (heuristic_discard, best_expected_discard, greedy_card, pimc_card,
                                random_card, sure_capot, views_after_trick, View, EXCHANGE_REFUSE,
                                EXCHANGE_HEURISTIC, PLAY_RANDOM, PLAY_GREEDY, PLAY_PIMC)
from piquet_three_rules cimport *
from piquet_three_strategies cimport *

cnp.import_array()

cdef enum:
    # A deal total at the option limits: declarations 1,008, repik and pik 500 each, capot 200,
    # леза 100 and 39 play points: below 2,400 (290 by default)
    DEAL3_MAX = 2400
    PLAY3_MAX = 40               # 10 leads, 9 other tricks and a last trick of at most 20
    MAX_GAME_DEALS = 80          # a game not decided by then is counted unfinished
    N_SCORE_FIELDS = 8

EXCHANGE_STRATEGIES = ("refuse", "heuristic", "best_expected")
PLAY_STRATEGIES = ("random", "greedy", "pimc")
SEATS = ("dealer", "first", "third")
SCORE_FIELDS = ("declarations", "repik", "pik", "play", "tricks", "leza", "capot", "total")


cdef ThreeRules three_rules_from(dict spec) except *:
    """The kernel's three-handed rules from a validated option dict (analyzer/games/piquet_three.py)."""
    cdef ThreeRules r
    memset(&r, 0, sizeof(ThreeRules))
    declaration_values(&r.base, spec)
    r.dealer_counts = counts_mask(spec["dealer_exchange"])
    r.category_tie = {"nobody": TIE_NOBODY, "tied_score": TIE_TIED_SCORE}[spec["category_tie"]]
    r.repik_threshold = spec["repik_threshold"]
    r.repik_bonus = spec["repik_bonus"]
    r.pik_threshold = spec["pik_threshold"]
    r.pik_bonus = spec["pik_bonus"]
    r.pik_seat = {"first_leader": PIK_FIRST_LEADER, "any": PIK_ANY}[spec["pik_seat"]]
    r.pik_window = {"until_any_opponent_scores": WINDOW_UNTIL_ANY_OPPONENT,
                    "whole_play": WINDOW_WHOLE_PLAY}[spec["pik_window"]]
    r.last_trick_value = spec["last_trick_value"]
    r.capot_keeps_last_trick = spec["capot_keeps_last_trick"]
    r.leza = {"unique_top": LEZA_UNIQUE_TOP, "majority": LEZA_MAJORITY}[spec["leza"]]
    r.leza_bonus = spec["leza_bonus"]
    r.capot_bonus = spec["capot_bonus"]
    r.target = spec["target"]
    r.survivors = {"two_handed": SURVIVORS_TWO_HANDED, "stop": SURVIVORS_STOP}[spec["survivors"]]
    r.stake = spec["stake"]
    return r


# ---------------------------------------------------------------------------------------------
# One deal for three

cdef struct Seat3:
    int exchange
    int play
    Rng *rng


cdef struct Engine3:
    ThreeRules rules
    PiquetRules two
    SuitTables tables
    SuitTables two_tables
    Solver solver                # two-handed double-dummy table, for pimc survivors only
    long pimc_fallbacks


cdef struct Record3:
    mask32 dealt[PLAYERS3]
    mask32 final[PLAYERS3]
    mask32 discard
    mask32 talon
    int leader[TRICKS3]
    int cards[TRICKS3][PLAYERS3]  # in play order from the trick's leader
    DeclThree decl
    HandEval dealt_ev[PLAYERS3]  # the dealt hands evaluated (for the single-hand statistics)


cdef int choose_card3(Engine3 *g, Seat3 *seat, const ThreeState *s, int n_played, const int *trick,
                      const View3 *v) noexcept nogil:
    cdef int me = (s.leader + n_played) % 3
    if seat.play == PLAY3_RANDOM:
        return random_card(seat.rng, legal_cards(s.hand[me], n_played, trick))
    if seat.play == PLAY3_GREEDY:
        return greedy_card3(s, n_played, trick, v.played | v.known_out)
    return pimc_card3(seat.rng, s, n_played, trick, v, &g.tables, &g.rules, &g.pimc_fallbacks)


cdef mask32 dealer_discard(Engine3 *g, Seat3 *seat, mask32 dealt) noexcept nogil:
    if seat.exchange == EXCHANGE3_REFUSE:
        return 0
    if seat.exchange == EXCHANGE3_HEURISTIC:
        return heuristic_discard(dealt, g.rules.dealer_counts, TALON3, &g.tables)
    return best_expected_exchange(seat.rng, dealt,
                                  carte_blanche_points(dealt, dealt, &g.rules.base) if g.rules.base.carte_blanche_when != CB_FINAL else 0,
                                  &g.tables, &g.rules)


cdef void play_deal3(Engine3 *g, const uint8_t *cards, Seat3 *seats, Record3 *rec, DealThree *out) noexcept nogil:
    """One deal from a shuffled pack: cards[0:10] the dealer, [10:20] the first leader, [20:30]
    the third, [30:32] the talon (top first). seats[] are the strategies of D, L, R."""
    cdef const ThreeRules *rules = &g.rules
    cdef mask32 dealt[PLAYERS3]
    cdef mask32 final[PLAYERS3]
    cdef mask32 discard
    cdef int i, p, k, n, cb[PLAYERS3]
    cdef int trick[PLAYERS3]
    cdef HandEval ev[PLAYERS3]
    cdef DeclThree decl
    cdef ThreeState st
    cdef View3 view[PLAYERS3]
    for p in range(PLAYERS3):
        dealt[p] = 0
        for i in range(HAND3):
            dealt[p] |= (<mask32>1) << cards[p * HAND3 + i]
    discard = dealer_discard(g, &seats[DEALER], dealt[DEALER])
    k = popcount32(discard)
    for p in range(PLAYERS3):
        final[p] = dealt[p]
    final[DEALER] = dealt[DEALER] & ~discard
    for i in range(k):
        final[DEALER] |= (<mask32>1) << cards[PLAYERS3 * HAND3 + i]
    for p in range(PLAYERS3):
        cb[p] = carte_blanche_points(dealt[p], final[p], &rules.base)
        evaluate_hand(final[p], &g.tables, &rules.base, &ev[p])
    score_declarations_three(ev, cb, rules, &decl)
    memset(view, 0, sizeof(view))
    for p in range(PLAYERS3):
        view[p].me = p
        memcpy(view[p].decl_score, decl.score, sizeof(decl.score))
    view[DEALER].known_out = discard
    start_play_three(&st, final, &decl, rules)
    for i in range(TRICKS3):
        if rec != NULL:
            rec.leader[i] = st.leader
        for n in range(PLAYERS3):
            p = (st.leader + n) % 3
            trick[n] = choose_card3(g, &seats[p], &st, n, trick, &view[p])
        if rec != NULL:
            for n in range(PLAYERS3):
                rec.cards[i][n] = trick[n]
        for p in range(PLAYERS3):
            view_after_trick3(&view[p], st.leader, trick)
        play_trick_three(&st, trick, rules)
    finish_deal_three(&st, &decl, rules, out)
    if rec != NULL:
        for p in range(PLAYERS3):
            rec.dealt[p] = dealt[p]
            rec.final[p] = final[p]
        rec.discard = discard
        for p in range(PLAYERS3):
            rec.dealt_ev[p] = ev[p]
        if discard:
            evaluate_hand(dealt[DEALER], &g.tables, &rules.base, &rec.dealt_ev[DEALER])
        rec.talon = ((<mask32>1) << cards[PLAYERS3 * HAND3]) | ((<mask32>1) << cards[PLAYERS3 * HAND3 + 1])
        rec.decl = decl


# ---------------------------------------------------------------------------------------------
# One two-handed deal between the survivors (ru_seed rules; the same strategies)

cdef mask32 survivor_discard(Engine3 *g, Seat3 *seat, int me, mask32 dealt, int available, int counts) noexcept nogil:
    if seat.exchange == EXCHANGE3_REFUSE:
        return 0
    if seat.exchange == EXCHANGE3_HEURISTIC:
        return heuristic_discard(dealt, counts, available, &g.two_tables)
    return best_expected_discard(seat.rng, dealt, ~dealt, counts, available,
                                 carte_blanche_points(dealt, dealt, &g.two) if g.two.carte_blanche_when != CB_FINAL else 0,
                                 me, &g.two_tables, &g.two)


cdef int survivor_card(Engine3 *g, Seat3 *seat, const PlayState *s, int lead, const View *v, mask32 my_final) noexcept nogil:
    cdef int me = s.leader if lead < 0 else 1 - s.leader
    if seat.play == PLAY3_RANDOM:
        return random_card(seat.rng, s.hand[me] if lead < 0 else legal_follows(s.hand[me], lead))
    if seat.play == PLAY3_GREEDY:
        return greedy_card(s, lead, v.played | v.known_out)
    return pimc_card(&g.solver, seat.rng, s, lead, v, my_final, &g.two_tables, &g.pimc_fallbacks)


cdef void play_two_handed(Engine3 *g, const uint8_t *cards, Seat3 *elder, Seat3 *younger, DealScore *out) noexcept nogil:
    """A two-handed ru_seed deal as in the two-handed kernel: 12 each, talon 8 (elder's 5 on top),
    exchange elder then younger, full declarations, an open capot announced only when sure."""
    cdef const PiquetRules *rules = &g.two
    cdef Seat3 *seat[2]
    cdef mask32 dealt[2], final[2], discard[2], talon_card[TALON], seen, taken
    cdef int i, p, k_e, k_y, lead, follow, leader, announced = -1
    cdef HandEval ev[2]
    cdef DeclResult decl
    cdef PlayState st
    cdef View view[2]
    seat[0] = elder
    seat[1] = younger
    dealt[0] = 0
    dealt[1] = 0
    for i in range(HAND):
        dealt[0] |= (<mask32>1) << cards[i]
        dealt[1] |= (<mask32>1) << cards[HAND + i]
    for i in range(TALON):
        talon_card[i] = (<mask32>1) << cards[2 * HAND + i]
    discard[0] = survivor_discard(g, elder, ELDER, dealt[0], ELDER_PACKET, rules.elder_counts)
    k_e = popcount32(discard[0])
    final[0] = dealt[0] & ~discard[0]
    for i in range(k_e):
        final[0] |= talon_card[i]
    discard[1] = survivor_discard(g, younger, YOUNGER, dealt[1], TALON - k_e, rules.younger_counts)
    k_y = popcount32(discard[1])
    final[1] = dealt[1] & ~discard[1]
    for i in range(k_e, k_e + k_y):
        final[1] |= talon_card[i]
    for p in range(2):
        evaluate_hand(final[p], &g.two_tables, rules, &ev[p])
    score_declarations(&ev[0], &ev[1], carte_blanche_points(dealt[0], final[0], rules),
                       carte_blanche_points(dealt[1], final[1], rules), rules, &decl)
    memset(view, 0, sizeof(view))
    for p in range(2):
        view[p].me = p
        view[p].known_out = discard[p]
        view[p].opp_cb = decl.score[1 - p][CARTE_BLANCHE]
        memcpy(view[p].decl_score, decl.score, sizeof(decl.score))
        view[p].decl_known = 1
        if decl.winner[POINT] == 2 - p:
            view[p].opp_point_key = ev[1 - p].point_key
        if decl.winner[SEQUENCES] == 2 - p:
            view[p].opp_seq_key = ev[1 - p].seq_key
        if decl.winner[SETS] == 2 - p:
            view[p].opp_set_key = ev[1 - p].set_key
    seen = 0
    for i in range(k_e, ELDER_PACKET):
        seen |= talon_card[i]
    taken = 0
    for i in range(k_e, k_e + k_y):
        taken |= talon_card[i]
    view[0].opp_known = seen & taken
    view[0].known_out |= seen & ~taken
    if rules.open_capot:
        for p in range(2):
            if sure_capot(final[p], ~(final[p] | view[p].known_out), p):
                announced = p
                break
    start_play(&st, final[0], final[1], &decl, announced, rules)
    for i in range(TRICKS):
        leader = st.leader
        lead = survivor_card(g, seat[leader], &st, -1, &view[leader], final[leader])
        follow = survivor_card(g, seat[1 - leader], &st, lead, &view[1 - leader], final[1 - leader])
        play_trick(&st, lead, follow, rules)
        views_after_trick(view, leader, lead, follow)
    finish_deal(&st, &decl, rules, out)


# ---------------------------------------------------------------------------------------------
# The game

cdef struct GameState:
    int totals[PLAYERS3]
    int alive[PLAYERS3]
    int place[PLAYERS3]          # 0 first, 1 second, 2 last; -1 still playing
    int n_placed


cdef inline void game_start(GameState *gs) noexcept nogil:
    cdef int p
    memset(gs, 0, sizeof(GameState))
    for p in range(PLAYERS3):
        gs.alive[p] = 1
        gs.place[p] = -1


cdef inline void place_player(GameState *gs, int p) noexcept nogil:
    gs.place[p] = gs.n_placed
    gs.alive[p] = 0
    gs.n_placed += 1


cdef inline void game_after_deal(GameState *gs, int first_in_play_order, int stop_after_first,
                                 int target) noexcept nogil:
    """Place the players whose total reached the target (best total first; equal totals in play
    order from first_in_play_order); once two are placed the last one is last. With
    stop_after_first, the game ends as soon as somebody is placed: the rest are ranked by total."""
    cdef int order[PLAYERS3]
    cdef int n, i, p, placed_before = gs.n_placed
    cdef int everyone[PLAYERS3]
    n = rank_crossers(gs.totals, gs.alive, first_in_play_order, target, order)
    for i in range(n):
        if gs.n_placed < PLAYERS3 - 1:
            place_player(gs, order[i])
    if stop_after_first and gs.n_placed > placed_before:
        for p in range(PLAYERS3):
            everyone[p] = gs.alive[p]
        n = rank_crossers(gs.totals, everyone, first_in_play_order, -1000000, order)
        for i in range(n):
            if gs.n_placed < PLAYERS3 - 1:
                place_player(gs, order[i])
    if gs.n_placed == PLAYERS3 - 1:
        for p in range(PLAYERS3):
            if gs.alive[p]:
                place_player(gs, p)


cdef int engine_init3(Engine3 *g, dict spec, dict two_spec, int need_solver) except -1:
    g.rules = three_rules_from(spec)
    g.two = rules_from(two_spec)
    build_tables(&g.tables, &g.rules.base)
    build_tables(&g.two_tables, &g.two)
    g.pimc_fallbacks = 0
    g.solver.table = NULL
    if need_solver and not solver_init(&g.solver, &g.two):
        raise MemoryError("cannot allocate the double-dummy table")
    return 0


cdef void seats_from3(dict strategies, tuple prefixes, Seat3 *seats, Rng *rngs) except *:
    for p, prefix in enumerate(prefixes):
        seats[p].exchange = EXCHANGE_STRATEGIES.index(strategies.get(f"{prefix}_exchange", "refuse"))
        seats[p].play = PLAY_STRATEGIES.index(strategies[f"{prefix}_play"])
        seats[p].rng = &rngs[p]


cdef inline void hand_events(mask32 hand, const HandEval *e, int p, int64_t[:, ::1] events,
                             int64_t[:, ::1] point_len, int64_t[:, ::1] seq_len,
                             int64_t[:, ::1] quatorzes) noexcept nogil:
    events[p, 0] += is_blank(hand)
    events[p, 1] += rank_count32(hand, RANK_ACE) == 4
    events[p, 2] += e.set_key != 0
    events[p, 3] += e.tierce_major
    events[p, 4] += e.void_suit
    point_len[p, e.point_len] += 1
    seq_len[p, e.seq_key >> 3] += 1
    quatorzes[p, e.quatorzes] += 1


HAND_EVENTS = ("carte blanche", "four aces", "trio or quatorze", "tierce major or better", "void suit")


def new_deal_counters():
    """Zeroed counters of deal_shard, by seat (dealer, first leader, third)."""
    return {
        "deals": np.zeros(1, np.int64),
        "repik": np.zeros(3, np.int64),
        "pik": np.zeros(3, np.int64),
        "pik_possible": np.zeros(3, np.int64),
        "capot": np.zeros(3, np.int64),
        "leza": np.zeros(3, np.int64),
        "leza_shared": np.zeros(1, np.int64),                       # top trick count tied, no capot
        "dealer_exchanged": np.zeros(TALON3 + 1, np.int64),
        "category_winner": np.zeros((N_CATEGORIES, 4), np.int64),   # [category][D, L, R, nobody]
        "top_scorer": np.zeros(4, np.int64),                        # highest deal total: D, L, R, tied
        "total_hist": np.zeros((3, DEAL3_MAX), np.int64),
        "decl_hist": np.zeros((3, MAX_TOTAL), np.int64),
        "play_hist": np.zeros((3, PLAY3_MAX), np.int64),
        "tricks_hist": np.zeros((3, TRICKS3 + 1), np.int64),
        "hand_events": np.zeros((3, len(HAND_EVENTS)), np.int64),   # on the dealt hands
        "point_len": np.zeros((3, HAND3 + 1), np.int64),
        "seq_len": np.zeros((3, 9), np.int64),
        "quatorzes": np.zeros((3, 4), np.int64),
        "pimc_fallbacks": np.zeros(1, np.int64),
    }


def deal_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, dict two_spec):
    """Play n_deals three-handed deals with the strategies of the roles dealer_exchange,
    dealer_play, first_play, third_play; bit_generators: [deal, D's, L's, R's strategy]."""
    cdef Engine3 g
    engine_init3(&g, rules_spec, two_spec, 0)
    cdef Seat3 seats[PLAYERS3]
    cdef Rng rngs[PLAYERS3]
    seats_from3(strategies, SEATS, seats, rngs)
    counters = new_deal_counters()
    cdef int64_t[::1] deals = counters["deals"], repik = counters["repik"], pik = counters["pik"]
    cdef int64_t[::1] pik_possible = counters["pik_possible"], capot = counters["capot"], leza = counters["leza"]
    cdef int64_t[::1] shared = counters["leza_shared"], exchanged = counters["dealer_exchanged"]
    cdef int64_t[::1] top = counters["top_scorer"], fallbacks = counters["pimc_fallbacks"]
    cdef int64_t[:, ::1] category = counters["category_winner"], total_hist = counters["total_hist"]
    cdef int64_t[:, ::1] decl_hist = counters["decl_hist"], play_hist = counters["play_hist"]
    cdef int64_t[:, ::1] tricks_hist = counters["tricks_hist"], events = counters["hand_events"]
    cdef int64_t[:, ::1] point_len = counters["point_len"], seq_len = counters["seq_len"]
    cdef int64_t[:, ::1] quatorzes = counters["quatorzes"]
    cdef uint8_t cards[N_CARDS]
    cdef int c, p, best, n_best, candidate
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    cdef bitgen_t *bg[4]
    for c in range(4):
        bg[c] = bitgen_pointer(bit_generators[c])
    cdef Py_ssize_t d
    cdef Record3 rec
    cdef DealThree score
    with nogil:
        rng_init(&deal_rng, bg[0])
        for p in range(PLAYERS3):
            rng_init(&rngs[p], bg[p + 1])
        for d in range(n_deals):
            rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
            play_deal3(&g, cards, seats, &rec, &score)
            exchanged[popcount32(rec.discard)] += 1
            for c in range(N_CATEGORIES):
                category[c, rec.decl.winner[c]] += 1
            candidate = pik_candidate(&rec.decl, &g.rules)
            if candidate >= 0:
                pik_possible[candidate] += 1
            best = -1
            n_best = 0
            for p in range(PLAYERS3):
                repik[p] += score.repik[p]
                pik[p] += score.pik[p]
                capot[p] += score.capot[p] != 0
                leza[p] += score.leza[p] != 0
                total_hist[p, score.total[p]] += 1
                decl_hist[p, score.decl[p]] += 1
                play_hist[p, score.play[p]] += 1
                tricks_hist[p, score.tricks[p]] += 1
                hand_events(rec.dealt[p], &rec.dealt_ev[p], p, events, point_len, seq_len, quatorzes)
                if best < 0 or score.total[p] > score.total[best]:
                    best = p
                    n_best = 1
                elif score.total[p] == score.total[best]:
                    n_best += 1
            top[best if n_best == 1 else 3] += 1
            shared[0] += (score.leza[0] + score.leza[1] + score.leza[2] + score.capot[0] + score.capot[1]
                          + score.capot[2]) == 0
        deals[0] = n_deals
        fallbacks[0] = g.pimc_fallbacks
    return counters


def new_game_counters():
    return {
        "games": np.zeros(1, np.int64),
        "unfinished": np.zeros(1, np.int64),
        "deals_hist": np.zeros(MAX_GAME_DEALS + 1, np.int64),        # deals the whole game lasted
        "three_handed_hist": np.zeros(MAX_GAME_DEALS + 1, np.int64), # deals until the first finisher
        "place_by_seat": np.zeros((3, 3), np.int64),                 # [seat in the first deal][place]
        "place_by_player": np.zeros((3, 3), np.int64),               # [player A, B, C][place]
        "pimc_fallbacks": np.zeros(1, np.int64),
    }


def game_shard(bit_generators, Py_ssize_t n_games, dict rules_spec, dict strategies, dict two_spec):
    """Play n_games games to the target between players A, B, C (roles a_*, b_*, c_*); the first
    dealer is drawn, then the deal passes to the left. bit_generators: [deal, A's, B's, C's]."""
    cdef int need_solver = any(strategies[f"{x}_play"] == "pimc" for x in "abc")
    cdef Engine3 g
    engine_init3(&g, rules_spec, two_spec, need_solver)
    cdef Seat3 players[PLAYERS3]
    cdef Seat3 seats[PLAYERS3]
    cdef Rng rngs[PLAYERS3]
    seats_from3(strategies, ("a", "b", "c"), players, rngs)
    counters = new_game_counters()
    cdef int64_t[::1] games = counters["games"], unfinished = counters["unfinished"]
    cdef int64_t[::1] deals_hist = counters["deals_hist"], three_hist = counters["three_handed_hist"]
    cdef int64_t[:, ::1] by_seat = counters["place_by_seat"], by_player = counters["place_by_player"]
    cdef int64_t[::1] fallbacks = counters["pimc_fallbacks"]
    cdef uint8_t cards[N_CARDS]
    cdef int c, p, s, first_dealer, dealer, n_deals, three_deals, elder
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    cdef bitgen_t *bg[4]
    for c in range(4):
        bg[c] = bitgen_pointer(bit_generators[c])
    cdef Py_ssize_t i
    cdef DealThree score
    cdef DealScore two_score
    cdef GameState gs
    try:
        with nogil:
            rng_init(&deal_rng, bg[0])
            for p in range(PLAYERS3):
                rng_init(&rngs[p], bg[p + 1])
            for i in range(n_games):
                game_start(&gs)
                first_dealer = <int>rng_below(&deal_rng, 3)
                dealer = first_dealer
                n_deals = 0
                three_deals = 0
                while gs.n_placed < PLAYERS3 and n_deals < MAX_GAME_DEALS:
                    rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
                    if gs.n_placed == 0:
                        for s in range(PLAYERS3):
                            seats[s] = players[(dealer + s) % 3]
                        play_deal3(&g, cards, seats, NULL, &score)
                        for s in range(PLAYERS3):
                            gs.totals[(dealer + s) % 3] += score.total[s]
                        three_deals += 1
                        game_after_deal(&gs, (dealer + 1) % 3, g.rules.survivors == SURVIVORS_STOP, g.rules.target)
                        dealer = (dealer + 1) % 3
                    else:
                        while not gs.alive[dealer]:
                            dealer = (dealer + 1) % 3
                        elder = (dealer + 1) % 3
                        while not gs.alive[elder]:
                            elder = (elder + 1) % 3
                        play_two_handed(&g, cards, &players[elder], &players[dealer], &two_score)
                        gs.totals[elder] += two_score.total[ELDER]
                        gs.totals[dealer] += two_score.total[YOUNGER]
                        game_after_deal(&gs, elder, 0, g.rules.target)
                        dealer = elder
                    n_deals += 1
                if gs.n_placed < PLAYERS3:
                    unfinished[0] += 1
                    continue
                deals_hist[n_deals] += 1
                three_hist[three_deals] += 1
                for p in range(PLAYERS3):
                    by_player[p, gs.place[p]] += 1
                    by_seat[(p - first_dealer + 3) % 3, gs.place[p]] += 1
            games[0] = n_games
            fallbacks[0] = g.pimc_fallbacks
    finally:
        solver_free(&g.solver)
    return counters


# ---------------------------------------------------------------------------------------------
# Single deals (the Python layer validates everything first)

cdef dict _score_dict(const DealThree *s):
    return {
        "declarations": [s.decl[p] for p in range(3)], "repik": [s.repik[p] for p in range(3)],
        "pik": [s.pik[p] for p in range(3)], "play": [s.play[p] for p in range(3)],
        "tricks": [s.tricks[p] for p in range(3)], "leza": [s.leza[p] for p in range(3)],
        "capot": [s.capot[p] for p in range(3)], "total": [s.total[p] for p in range(3)],
    }


cdef dict _decl_dict(const DeclThree *d):
    return {"score": [[d.score[p][c] for c in range(N_CATEGORIES)] for p in range(3)],
            "total": [d.total[p] for p in range(3)], "repik": [d.repik[p] for p in range(3)],
            "winner": [d.winner[c] for c in range(N_CATEGORIES)]}


def score_played_deal(dealt, final, tricks, dict rules_spec):
    """Score a deal from the dealt and final hands of D, L, R (uint32 masks) and the ten tricks as
    card indices in play order from each trick's leader (legal, validated by the caller)."""
    cdef ThreeRules rules = three_rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules.base)
    cdef HandEval ev[PLAYERS3]
    cdef int cb[PLAYERS3]
    cdef mask32 hands[PLAYERS3]
    cdef int trick[PLAYERS3]
    cdef DeclThree decl
    cdef ThreeState st
    cdef DealThree score
    cdef int p, i
    for p in range(PLAYERS3):
        hands[p] = final[p]
        cb[p] = carte_blanche_points(dealt[p], final[p], &rules.base)
        evaluate_hand(hands[p], &tables, &rules.base, &ev[p])
    score_declarations_three(ev, cb, &rules, &decl)
    start_play_three(&st, hands, &decl, &rules)
    winners, leaders = [], []
    for cards in tricks:
        leaders.append(st.leader)
        for i in range(PLAYERS3):
            trick[i] = cards[i]
        winners.append(play_trick_three(&st, trick, &rules))
    finish_deal_three(&st, &decl, &rules, &score)
    return {"declarations": _decl_dict(&decl), "score": _score_dict(&score), "winners": winners,
            "leaders": leaders}


def sample_deals(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, dict two_spec):
    """Deal and play n_deals deals like deal_shard, returning every deal in arrays: dealt and final
    masks (n, 3), the talon and the dealer's discard (n,), the leaders (n, 10), the cards in play
    order (n, 10, 3) and the scores (n, 8 fields of SCORE_FIELDS, 3 seats). For the tests."""
    cdef Engine3 g
    engine_init3(&g, rules_spec, two_spec, 0)
    cdef Seat3 seats[PLAYERS3]
    cdef Rng rngs[PLAYERS3]
    seats_from3(strategies, SEATS, seats, rngs)
    out = {"dealt": np.zeros((n_deals, 3), np.uint32), "final": np.zeros((n_deals, 3), np.uint32),
           "talon": np.zeros(n_deals, np.uint32), "discard": np.zeros(n_deals, np.uint32),
           "leaders": np.zeros((n_deals, TRICKS3), np.int32), "cards": np.zeros((n_deals, TRICKS3, 3), np.int32),
           "scores": np.zeros((n_deals, N_SCORE_FIELDS, 3), np.int32)}
    cdef uint32_t[:, ::1] dealt = out["dealt"], final = out["final"]
    cdef uint32_t[::1] talon = out["talon"], discard = out["discard"]
    cdef int[:, ::1] leaders = out["leaders"]
    cdef int[:, :, ::1] played = out["cards"], scores = out["scores"]
    cdef uint8_t cards[N_CARDS]
    cdef int c, p, i, n
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    rng_init(&deal_rng, bitgen_pointer(bit_generators[0]))
    for p in range(PLAYERS3):
        rng_init(&rngs[p], bitgen_pointer(bit_generators[p + 1]))
    cdef Py_ssize_t d
    cdef Record3 rec
    cdef DealThree s
    with nogil:
        for d in range(n_deals):
            rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
            play_deal3(&g, cards, seats, &rec, &s)
            talon[d] = rec.talon
            discard[d] = rec.discard
            for p in range(PLAYERS3):
                dealt[d, p] = rec.dealt[p]
                final[d, p] = rec.final[p]
                scores[d, 0, p] = s.decl[p]
                scores[d, 1, p] = s.repik[p]
                scores[d, 2, p] = s.pik[p]
                scores[d, 3, p] = s.play[p]
                scores[d, 4, p] = s.tricks[p]
                scores[d, 5, p] = s.leza[p]
                scores[d, 6, p] = s.capot[p]
                scores[d, 7, p] = s.total[p]
            for i in range(TRICKS3):
                leaders[d, i] = rec.leader[i]
                for n in range(PLAYERS3):
                    played[d, i, n] = rec.cards[i][n]
    return out


def places_from_totals(deal_totals, first_in_play_order, int target, bint stop_after_first=False):
    """The finishing places (0 first, 1 second, 2 last; -1 still playing) of players A, B, C after
    the given deals: deal_totals[i] is each player's total of deal i (0 for a player already out),
    first_in_play_order[i] the player who led first in it. For the tests of the game logic."""
    cdef GameState gs
    cdef int p
    game_start(&gs)
    for totals, first in zip(deal_totals, first_in_play_order):
        for p in range(PLAYERS3):
            gs.totals[p] += int(totals[p])
        game_after_deal(&gs, int(first), stop_after_first, target)
        if gs.n_placed == PLAYERS3:
            break
    return [gs.place[p] for p in range(PLAYERS3)], [gs.totals[p] for p in range(PLAYERS3)]


# ---------------------------------------------------------------------------------------------
# Duplicate comparison of two strategies (analyzer.compare)

cdef enum:
    COMPARE_PLAYS = 6            # each deal: A alone in each of the 3 seats, then B alone


def compare_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, dict two_spec,
                  totals=None):
    """Play every deal six times: strategy A (roles a_exchange, a_play) alone in the dealer's,
    the first leader's, then the third seat with B (b_exchange, b_play) in the two others, then B
    alone in each seat against two A's. Each strategy thus plays every seat three times (once
    alone, twice paired); the dealer's exchange is that of the strategy in the dealer's seat.
    A strategy's per-deal result is the sum of its deal totals over the nine seats it played;
    the paired difference is A's minus B's. bit_generators[0] deals; A draws from [1] and B
    from [2] in all its seats, so the deals never depend on the strategies. Counters in the
    layout of analyzer.compare. If `totals` is given (int32, shape (n_deals, 6, 3)), it receives
    the deal total of every seat (D, L, R) of every play in the order above."""
    cdef Engine3 g
    engine_init3(&g, rules_spec, two_spec, 0)
    cdef Seat3 players[2]
    cdef Seat3 seats[PLAYERS3]
    cdef Rng rngs[2]
    seats_from3(strategies, ("a", "b"), players, rngs)
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef int[:, :, ::1] total_view
    cdef bint keep_totals = totals is not None
    if keep_totals:
        if (not isinstance(totals, np.ndarray) or totals.dtype != np.int32
                or totals.shape != (n_deals, COMPARE_PLAYS, PLAYERS3) or not totals.flags.c_contiguous):
            raise ValueError(f"totals must be a C-contiguous int32 array of shape ({n_deals}, {COMPARE_PLAYS}, 3)")
        total_view = totals
    cdef uint8_t cards[N_CARDS]
    cdef int c, play, p, alone, who
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    cdef bitgen_t *bg[3]
    for c in range(3):
        bg[c] = bitgen_pointer(bit_generators[c])
    cdef Py_ssize_t d
    cdef DealThree score
    cdef int64_t result[2]
    with nogil:
        rng_init(&deal_rng, bg[0])
        rng_init(&rngs[0], bg[1])
        rng_init(&rngs[1], bg[2])
        for d in range(n_deals):
            rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
            result[0] = 0
            result[1] = 0
            for play in range(COMPARE_PLAYS):
                alone = play // PLAYERS3          # 0: A alone, 1: B alone
                for p in range(PLAYERS3):
                    who = alone if p == play % PLAYERS3 else 1 - alone
                    seats[p] = players[who]
                play_deal3(&g, cards, seats, NULL, &score)
                for p in range(PLAYERS3):
                    who = alone if p == play % PLAYERS3 else 1 - alone
                    result[who] += score.total[p]
                    if keep_totals:
                        total_view[d, play, p] = score.total[p]
            tally_pair(&tally, result[0], result[1])
    return pair_counters(tally)
