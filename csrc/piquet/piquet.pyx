# Piquet, two-handed (shared/rules/piquet.md; presets ru_seed, ru_seed_seq34, classic).
#
# Rules card
#   Deck      32 cards, 7 8 9 T J Q K A, no trumps. Elder = non-dealer, leads to trick 1.
#   Deal      12 each; talon 8: elder's packet of 5 on top, younger's 3 below.
#   Exchange  elder then younger, discarding before drawing from the top. ru_seed: 0 or 3-5 each,
#             younger at most what remains; classic: elder 1-5, younger 1-all that remains.
#   Carte blanche  no K Q J in the dealt hand: 10 (option: judged on the final hand, or both).
#   Point     longest suit, ties by pips (A 11, K Q J T 10, others face), one point per card.
#   Sequences runs of 3+: ru_seed 13 14 15 16 17 18 for lengths 3..8; classic/seq34 3 4 15 16 17 18.
#             The better best run scores every run of its holder; equal best runs void both.
#   Sets      T..A: quatorze 14, trio 3; the better best set scores all its holder's sets.
#   Repik     +60: ru_seed own total >= 30 and the opponent's 0; classic 30 in reckoning order
#             (carte blanche, point, sequences, sets) before the opponent scores.
#   Play      follow suit if able; higher card of the suit led wins. Lead +1. ru_seed: every
#             trick +1 to its winner, the last trick 4 (1 in a capot); classic: +1 only to a
#             follower who wins, +1 extra for the last trick.
#   Pik       +30 to elder when his count (declarations + play points) reaches 30 while younger
#             has declared nothing and (default window) before younger scores in play.
#   Bonuses   7+ tricks (леза / the cards) +10; all 12 (capot) +40 instead; an announced open
#             capot (ru_seed) +80, and a failed one gives the opponent 80.
#   Partie    ru_seed: королик of 2 deals (+100 rounded), 3 королики, рефет x2, сквозная +100;
#             classic: 6 deals, rubicon at 100.
#
# Encoding: a hand is a uint32 mask, bit = 8*suit + rank (S H D C = 0..3; 7..A = 0..7).
# Constrained deals: declarations_shard and deal_shard also play given packs (`given`, checked by
# core.given_rows) that analyzer.constrained deals with some cards fixed and filters by a predicate.
# Streams: the shard's bit generator 0 deals; 1 and 2 feed the two seats' (or players')
# strategies, so changing one strategy never changes the deals or the other player's draws.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset, memcpy
from cpython.ref cimport PyObject

from bitboard cimport mask32, lowest_bit32, popcount32, rank_count32
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from piquet_rules cimport *
from piquet_search cimport Solver, solver_init, solver_free, search, best_move, mtdf, position_bounds, INF
from piquet_strategies cimport *

from analyzer._core.core import given_rows

cnp.import_array()

cdef enum:
    # A deal total at the option limits: declarations 1,008, repik and pik 500 each, open capot 400,
    # the cards 100, a failed open capot's 80 and 44 play points: below 2,700 (261 by default)
    DEAL_MAX = 2700
    PLAY_MAX = 64
    NET_OFFSET = 500             # partie net results in tens, -5000 .. +5000
    NET_BINS = 1001
    ROW_ELDER = 0
    ROW_YOUNGER = 1
    ROW_PLAYER0 = 2
    N_PLAYER_FIELDS = 7
    ROW_WIDTH = ROW_PLAYER0 + 2 * N_PLAYER_FIELDS
    FEATURE_BINS = 9             # dealt-hand features: uncontested value in tens (80+ last), point length 0..8

# The deal kernel counts repik and pik by a feature of the player's dealt hand (by_feature[feature,
# player, bin, event]); pik is the elder's only.
HAND_FEATURES = ("uncontested value", "point length")
FEATURE_EVENTS = ("deals", "repik", "pik")

PLAYER_FIELDS = ("carte_blanche", "point", "sequences", "sets", "total", "repik", "uncontested")
ROW_LAYOUT = ("elder", "younger") + tuple(f"{who}_{f}" for who in ("elder", "younger") for f in PLAYER_FIELDS)
EXCHANGE_STRATEGIES = ("refuse", "heuristic", "best_expected")
PLAY_STRATEGIES = ("random", "greedy", "double_dummy", "pimc")
ANNOUNCE_STRATEGIES = ("sure", "never")


# ---------------------------------------------------------------------------------------------
# Declarations on the dealt hands (no exchange)

def new_declaration_counters():
    """Zeroed counters of the declarations kernel; every field adds up exactly across shards."""
    return {
        "deals": np.zeros(1, np.int64),
        "category_winner": np.zeros((N_CATEGORIES, 3), np.int64),   # [category][nobody/elder/younger]
        "total_hist": np.zeros((2, MAX_TOTAL), np.int64),           # [player][declaration total]
        "uncontested_hist": np.zeros((2, MAX_TOTAL), np.int64),     # [player][value if uncontested]
        "repik": np.zeros(2, np.int64),
        "point_len": np.zeros((2, 9), np.int64),                    # [player][longest suit]
        "seq_len": np.zeros((2, 9), np.int64),                      # [player][longest run, 0 if < 3]
        "quatorzes": np.zeros((2, 4), np.int64),                    # [player][number held]
        "trio_or_better": np.zeros(2, np.int64),
        "carte_blanche": np.zeros(2, np.int64),
        "four_aces": np.zeros(2, np.int64),
        "ace_sequence": np.zeros(2, np.int64),
        "void_suit": np.zeros(2, np.int64),
    }


cdef inline void declare_dealt(mask32 elder, mask32 younger, const SuitTables *t, const PiquetRules *rules,
                               HandEval *ev, DeclResult *res) noexcept nogil:
    evaluate_hand(elder, t, rules, &ev[0])
    evaluate_hand(younger, t, rules, &ev[1])
    # declared as dealt: the dealt hand is also the final one (carte_blanche_when=both pays twice)
    score_declarations(&ev[0], &ev[1], carte_blanche_points(elder, elder, rules),
                       carte_blanche_points(younger, younger, rules), rules, res)


cdef void fill_row(uint32_t[::1] row, mask32 *hand, const HandEval *ev, const DeclResult *res,
                   const PiquetRules *rules) noexcept nogil:
    cdef int p, base
    row[ROW_ELDER] = hand[0]
    row[ROW_YOUNGER] = hand[1]
    for p in range(2):
        base = ROW_PLAYER0 + p * N_PLAYER_FIELDS
        row[base + 0] = res.score[p][CARTE_BLANCHE]
        row[base + 1] = res.score[p][POINT]
        row[base + 2] = res.score[p][SEQUENCES]
        row[base + 3] = res.score[p][SETS]
        row[base + 4] = res.total[p]
        row[base + 5] = res.repik[p]
        row[base + 6] = uncontested_value(hand[p], &ev[p], rules)


def declarations_shard(bit_generator, Py_ssize_t n_deals, dict rules_spec, rows=None, given=None):
    """Deal n_deals deals and score the declarations of the dealt hands (no exchange).

    Returns the counters of new_declaration_counters(). If `rows` is a uint32 array of shape
    (n_deals, ROW_WIDTH), each deal's hands and scores are written to it as well. If `given` is
    a uint8 array of shape (n_deals, 32) (constrained deals, see core.given_rows), its rows are the
    shuffled packs instead of dealing."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    counters = new_declaration_counters()
    cdef int64_t[::1] deals = counters["deals"]
    cdef int64_t[:, ::1] category_winner = counters["category_winner"]
    cdef int64_t[:, ::1] total_hist = counters["total_hist"]
    cdef int64_t[:, ::1] uncontested_hist = counters["uncontested_hist"]
    cdef int64_t[::1] repik = counters["repik"]
    cdef int64_t[:, ::1] point_len = counters["point_len"]
    cdef int64_t[:, ::1] seq_len = counters["seq_len"]
    cdef int64_t[:, ::1] quatorzes = counters["quatorzes"]
    cdef int64_t[::1] trio_or_better = counters["trio_or_better"]
    cdef int64_t[::1] carte_blanche = counters["carte_blanche"]
    cdef int64_t[::1] four_aces = counters["four_aces"]
    cdef int64_t[::1] ace_sequence = counters["ace_sequence"]
    cdef int64_t[::1] void_suit = counters["void_suit"]
    cdef uint32_t[:, ::1] row_view
    cdef bint keep_rows = rows is not None
    if keep_rows:
        if rows.dtype != np.uint32 or rows.shape != (n_deals, ROW_WIDTH):
            raise ValueError(f"rows must be uint32 of shape ({n_deals}, {ROW_WIDTH})")
        row_view = rows
    cdef uint8_t cards[N_CARDS]
    cdef int c, p
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng rng
    cdef bitgen_t *bitgen = bitgen_pointer(bit_generator)
    cdef Py_ssize_t d
    cdef mask32 hand[2]
    cdef HandEval ev[2]
    cdef DeclResult res
    cdef const uint8_t[:, ::1] given_view = given_rows(given, n_deals, N_CARDS)
    cdef bint has_given = given is not None
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            if has_given:
                memcpy(cards, &given_view[d, 0], N_CARDS)
            else:
                rng_partial_shuffle(&rng, cards, N_CARDS, 2 * HAND)
            hand[0] = 0
            hand[1] = 0
            for c in range(HAND):
                hand[0] |= (<mask32>1) << cards[c]
                hand[1] |= (<mask32>1) << cards[HAND + c]
            declare_dealt(hand[0], hand[1], &tables, &rules, ev, &res)
            for c in range(N_CATEGORIES):
                category_winner[c, res.winner[c]] += 1
            for p in range(2):
                total_hist[p, res.total[p]] += 1
                uncontested_hist[p, uncontested_value(hand[p], &ev[p], &rules)] += 1
                repik[p] += res.repik[p]
                point_len[p, ev[p].point_len] += 1
                seq_len[p, ev[p].seq_key >> 3] += 1
                quatorzes[p, ev[p].quatorzes] += 1
                trio_or_better[p] += ev[p].set_key != 0
                carte_blanche[p] += is_blank(hand[p])
                four_aces[p] += rank_count32(hand[p], RANK_ACE) == 4
                ace_sequence[p] += ev[p].tierce_major
                void_suit[p] += ev[p].void_suit
            if keep_rows:
                fill_row(row_view[d], hand, ev, &res, &rules)
        deals[0] = n_deals
    return counters


def score_deals(elder_masks, younger_masks, dict rules_spec):
    """Score the declarations of given deals (uint32 masks of two disjoint 12-card hands,
    validated by the caller). Returns uint32 rows in the layout of declarations_shard."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    cdef uint32_t[::1] elder = np.ascontiguousarray(elder_masks, dtype=np.uint32)
    cdef uint32_t[::1] younger = np.ascontiguousarray(younger_masks, dtype=np.uint32)
    if elder.shape[0] != younger.shape[0]:
        raise ValueError("elder and younger mask arrays differ in length")
    out = np.zeros((elder.shape[0], ROW_WIDTH), dtype=np.uint32)
    cdef uint32_t[:, ::1] view = out
    cdef Py_ssize_t d
    cdef mask32 hand[2]
    cdef HandEval ev[2]
    cdef DeclResult res
    with nogil:
        for d in range(elder.shape[0]):
            hand[0] = elder[d]
            hand[1] = younger[d]
            declare_dealt(hand[0], hand[1], &tables, &rules, ev, &res)
            fill_row(view[d], hand, ev, &res, &rules)
    return out


def exact_hand_counts(dict rules_spec):
    """Enumerate all C(32, 12) = 225,792,840 twelve-card hands (Gosper's hack) and count the
    single-hand events of rules/piquet.md §14.1 and the uncontested value of §14.3."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    out = {
        "hands": np.zeros(1, np.int64),
        "uncontested_hist": np.zeros(MAX_TOTAL, np.int64),
        "point_len": np.zeros(9, np.int64),
        "seq_len": np.zeros(9, np.int64),
        "quatorzes": np.zeros(4, np.int64),
        "trio_or_better": np.zeros(1, np.int64),
        "carte_blanche": np.zeros(1, np.int64),
        "four_aces": np.zeros(1, np.int64),
        "ace_sequence": np.zeros(1, np.int64),
        "void_suit": np.zeros(1, np.int64),
    }
    cdef int64_t[::1] hands = out["hands"], unc = out["uncontested_hist"], plen = out["point_len"]
    cdef int64_t[::1] slen = out["seq_len"], quat = out["quatorzes"], trio = out["trio_or_better"]
    cdef int64_t[::1] blank = out["carte_blanche"], aces = out["four_aces"], major = out["ace_sequence"]
    cdef int64_t[::1] void = out["void_suit"]
    cdef uint32_t v = (1u << HAND) - 1, lowest, ripple
    cdef HandEval ev
    with nogil:
        while True:
            evaluate_hand(v, &tables, &rules, &ev)
            hands[0] += 1
            unc[uncontested_value(v, &ev, &rules)] += 1
            plen[ev.point_len] += 1
            slen[ev.seq_key >> 3] += 1
            quat[ev.quatorzes] += 1
            trio[0] += ev.set_key != 0
            blank[0] += is_blank(v)
            aces[0] += rank_count32(v, RANK_ACE) == 4
            major[0] += ev.tierce_major
            void[0] += ev.void_suit
            lowest = v & (~v + 1)
            ripple = v + lowest
            if ripple == 0:          # the last mask (top 12 bits) overflowed
                break
            v = (((ripple ^ v) >> 2) // lowest) | ripple
    return out


# ---------------------------------------------------------------------------------------------
# A whole deal: exchange, declarations, announcement, play

cdef struct Seat:
    int exchange
    int play
    int announce
    Rng *rng
    int index                    # 0 or 1: which Python strategy slot the callbacks name


cdef struct DealRecord:
    mask32 dealt[2]
    mask32 discard[2]
    mask32 final[2]
    mask32 talon
    int exchanged[2]
    int leader[TRICKS]
    int lead[TRICKS]
    int follow[TRICKS]
    int announced
    DeclResult decl
    HandEval final_ev[2]


cdef struct DealEngine:
    PiquetRules rules
    SuitTables tables
    Solver solver
    long pimc_fallbacks
    PyObject *python               # callback(kind, slot, data) -> int for Python strategies, or NULL
    # costly_card, called through this pointer so that gcc cannot inline the search into the
    # play loop: when it did, play_deal grew too big to inline the cheap strategies, play_trick
    # and evaluate_hand (about 10% of a greedy or random deal)
    int (*costly_card)(DealEngine *g, Seat *seat, const PlayState *s, int lead, const View *v, mask32 my_final) noexcept nogil


cdef enum:  # what a Python callback is asked
    ASK_DISCARD = 0
    ASK_CARD = 1


cdef long long ask_python(DealEngine *g, int kind, int slot, tuple data) noexcept with gil:
    """Call the Python strategy of a slot; it returns a mask (discard) or a card index. Errors are
    kept by the callback (which returns -1) and raised once the shard ends. (long long: a discard
    with the ace of clubs, bit 31, does not fit an int.)"""
    try:
        return (<object>g.python)(kind, slot, data)
    except BaseException:
        return -1


cdef mask32 python_discard(DealEngine *g, Seat *seat, int me, mask32 dealt, int available, int counts) noexcept nogil:
    cdef long long answer
    with gil:
        answer = ask_python(g, ASK_DISCARD, seat.index, (me, dealt, available, counts))
    return <mask32>answer if answer >= 0 else 0


cdef int python_card(DealEngine *g, Seat *seat, const PlayState *s, int lead, const View *v) noexcept nogil:
    cdef int me = s.leader if lead < 0 else 1 - s.leader
    cdef mask32 legal = s.hand[me] if lead < 0 else legal_follows(s.hand[me], lead)
    cdef long long answer
    with gil:
        answer = ask_python(g, ASK_CARD, seat.index, (
            me, s.hand[me], legal, lead, s.tricks_done, v.played, v.known_out, v.opp_known, v.opp_void,
            tuple(tuple(v.decl_score[p][c] for c in range(N_CATEGORIES)) for p in range(2)) if v.decl_known else None,
            (s.points[0], s.points[1]), (s.tricks_won[0], s.tricks_won[1])))
    if answer < 0 or answer > 31 or not (legal >> answer) & 1:
        return lowest_bit32(legal)       # the callback has kept the error; finish the deal quietly
    return <int>answer


cdef mask32 choose_discard(DealEngine *g, Seat *seat, int me, mask32 dealt, int available, int counts) noexcept nogil:
    if seat.exchange == EXCHANGE_REFUSE:
        return 0
    if seat.exchange == EXCHANGE_PYTHON:
        return python_discard(g, seat, me, dealt, available, counts)
    if seat.exchange == EXCHANGE_HEURISTIC:
        return heuristic_discard(dealt, counts, available, &g.tables)
    return best_expected_discard(seat.rng, dealt, ~dealt, counts, available,
                                 carte_blanche_points(dealt, dealt, &g.rules) if g.rules.carte_blanche_when != CB_FINAL else 0,
                                 me, &g.tables, &g.rules)


cdef int costly_card(DealEngine *g, Seat *seat, const PlayState *s, int lead, const View *v, mask32 my_final) noexcept nogil:
    """The strategies that search (double-dummy, PIMC) or call back into Python."""
    cdef int value
    if seat.play == PLAY_DOUBLE_DUMMY:
        return best_move(&g.solver, s, lead, &value)
    if seat.play == PLAY_PYTHON:
        return python_card(g, seat, s, lead, v)
    return pimc_card(&g.solver, seat.rng, s, lead, v, my_final, &g.tables, &g.pimc_fallbacks)


cdef inline int choose_card(DealEngine *g, Seat *seat, const PlayState *s, int lead, const View *v, mask32 my_final) noexcept nogil:
    cdef int me
    if seat.play == PLAY_RANDOM:
        me = s.leader if lead < 0 else 1 - s.leader
        return random_card(seat.rng, s.hand[me] if lead < 0 else legal_follows(s.hand[me], lead))
    if seat.play == PLAY_GREEDY:
        return greedy_card(s, lead, v.played | v.known_out)
    return g.costly_card(g, seat, s, lead, v, my_final)


cdef void play_deal(DealEngine *g, const uint8_t *cards, Seat *seats, DealRecord *rec, DealScore *out) noexcept nogil:
    """Play one deal from a shuffled pack: cards[0:12] elder, [12:24] younger, [24:32] the talon
    from the top (elder's packet of 5, then younger's 3). seats[0] is elder's strategy."""
    cdef const PiquetRules *rules = &g.rules
    cdef mask32 talon_card[TALON]
    cdef mask32 dealt[2], final[2], discard[2], taken, seen, leftovers
    cdef int i, p, k_e, k_y, lead, follow, leader, cb[2]
    cdef HandEval ev[2]
    cdef DeclResult decl
    cdef PlayState st
    cdef View view[2]
    dealt[0] = 0
    dealt[1] = 0
    for i in range(HAND):
        dealt[0] |= (<mask32>1) << cards[i]
        dealt[1] |= (<mask32>1) << cards[HAND + i]
    for i in range(TALON):
        talon_card[i] = (<mask32>1) << cards[2 * HAND + i]
    # Exchange: elder from his packet of five, then younger from what is left.
    discard[0] = choose_discard(g, &seats[0], ELDER, dealt[0], ELDER_PACKET, rules.elder_counts)
    k_e = popcount32(discard[0])
    final[0] = dealt[0] & ~discard[0]
    for i in range(k_e):
        final[0] |= talon_card[i]
    discard[1] = choose_discard(g, &seats[1], YOUNGER, dealt[1], TALON - k_e, rules.younger_counts)
    k_y = popcount32(discard[1])
    final[1] = dealt[1] & ~discard[1]
    for i in range(k_e, k_e + k_y):
        final[1] |= talon_card[i]
    # Declarations on the final hands; carte blanche as the option says.
    for p in range(2):
        cb[p] = carte_blanche_points(dealt[p], final[p], rules)
        evaluate_hand(final[p], &g.tables, rules, &ev[p])
    score_declarations(&ev[0], &ev[1], cb[0], cb[1], rules, &decl)
    # What each player knows.
    memset(view, 0, sizeof(view))
    for p in range(2):
        view[p].me = p
        view[p].known_out = discard[p]
        view[p].opp_cb = decl.score[1 - p][CARTE_BLANCHE]
        memcpy(view[p].decl_score, decl.score, sizeof(decl.score))
        view[p].decl_known = not (p == ELDER and rules.declare_after_lead)
        if decl.winner[POINT] == 2 - p:       # the opponent won the point: he announced it
            view[p].opp_point_key = ev[1 - p].point_key
        if decl.winner[SEQUENCES] == 2 - p:
            view[p].opp_seq_key = ev[1 - p].seq_key
        if decl.winner[SETS] == 2 - p:
            view[p].opp_set_key = ev[1 - p].set_key
    seen = 0                                   # elder's declined cards, which he may look at
    for i in range(k_e, ELDER_PACKET):
        seen |= talon_card[i]
    taken = 0
    for i in range(k_e, k_e + k_y):
        taken |= talon_card[i]
    view[0].opp_known = seen & taken
    view[0].known_out |= seen & ~taken
    leftovers = 0
    for i in range(k_e + k_y, TALON):
        leftovers |= talon_card[i]
    if rules.younger_leftovers_seen:
        view[0].known_out |= leftovers
        view[1].known_out |= leftovers
    # Open capot: elder, then younger, may announce a capot he is sure of.
    cdef int announced = -1
    if rules.open_capot:
        for p in range(2):
            if seats[p].announce == ANNOUNCE_SURE and sure_capot(final[p], ~(final[p] | view[p].known_out), p):
                announced = p
                break
    start_play(&st, final[0], final[1], &decl, announced, rules)
    for i in range(TRICKS):
        leader = st.leader
        lead = choose_card(g, &seats[leader], &st, -1, &view[leader], final[leader])
        follow = choose_card(g, &seats[1 - leader], &st, lead, &view[1 - leader], final[1 - leader])
        if rec != NULL:
            rec.leader[i] = leader
            rec.lead[i] = lead
            rec.follow[i] = follow
        play_trick(&st, lead, follow, rules)
        views_after_trick(view, leader, lead, follow)
        view[0].decl_known = 1
    finish_deal(&st, &decl, rules, out)
    if rec != NULL:
        for p in range(2):
            rec.dealt[p] = dealt[p]
            rec.discard[p] = discard[p]
            rec.final[p] = final[p]
        rec.exchanged[0] = k_e
        rec.exchanged[1] = k_y
        rec.talon = ~(dealt[0] | dealt[1])
        rec.announced = announced
        rec.decl = decl
        rec.final_ev[0] = ev[0]
        rec.final_ev[1] = ev[1]


cdef int engine_init(DealEngine *g, dict rules_spec, object python=None) except -1:
    g.rules = rules_from(rules_spec)
    build_tables(&g.tables, &g.rules)
    g.pimc_fallbacks = 0
    g.python = <PyObject *>python if python is not None else NULL
    g.costly_card = costly_card
    if not solver_init(&g.solver, &g.rules):
        raise MemoryError("cannot allocate the double-dummy table")
    return 0


cdef void seats_from(dict strategies, str prefix_a, str prefix_b, Seat *seats, Rng *rngs, DealEngine *g) except *:
    """Seats from role names; "python:..." names become Python strategies (the caller passes the
    callback that knows them)."""
    for p, prefix in enumerate((prefix_a, prefix_b)):
        exchange = strategies[f"{prefix}_exchange"]
        play = strategies[f"{prefix}_play"]
        if (":" in exchange or ":" in play) and g.python == NULL:
            raise ValueError("a Python strategy needs the callback of analyzer.games.piquet")
        seats[p].exchange = EXCHANGE_PYTHON if ":" in exchange else EXCHANGE_STRATEGIES.index(exchange)
        seats[p].play = PLAY_PYTHON if ":" in play else PLAY_STRATEGIES.index(play)
        seats[p].announce = ANNOUNCE_STRATEGIES.index(strategies[f"{prefix}_announce"])
        seats[p].rng = &rngs[p]
        seats[p].index = p


def new_deal_counters():
    return {
        "deals": np.zeros(1, np.int64),
        "repik": np.zeros(2, np.int64),
        "pik": np.zeros(1, np.int64),
        "pik_possible": np.zeros(1, np.int64),
        "capot": np.zeros(2, np.int64),
        "open_capot_announced": np.zeros(2, np.int64),
        "open_capot_made": np.zeros(2, np.int64),
        "majority": np.zeros(2, np.int64),
        "cards_divided": np.zeros(1, np.int64),
        "deal_winner": np.zeros(3, np.int64),                       # elder / younger / equal (рефет)
        "category_winner": np.zeros((N_CATEGORIES, 3), np.int64),
        "total_hist": np.zeros((2, DEAL_MAX), np.int64),
        "decl_hist": np.zeros((2, MAX_TOTAL), np.int64),
        "play_hist": np.zeros((2, PLAY_MAX), np.int64),
        "tricks_hist": np.zeros((2, TRICKS + 1), np.int64),
        "exchanged_hist": np.zeros((2, TALON + 1), np.int64),
        "diff_sum": np.zeros(1, np.int64),                          # sum of elder - younger
        "diff_sq_sum": np.zeros(1, np.int64),
        "pimc_fallbacks": np.zeros(1, np.int64),
        "by_feature": np.zeros((len(HAND_FEATURES), 2, FEATURE_BINS, len(FEATURE_EVENTS)), np.int64),
    }


def deal_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, python=None, given=None):
    """Play n_deals whole deals (exchange, declarations, play) with the strategies of the roles
    elder_* and younger_*; bit_generators: [deal, elder's strategy, younger's strategy].
    `python(kind, slot, data)` answers for roles given as "python:..." (slot 0 elder, 1 younger).
    `given`: the shuffled packs to play instead of dealing (as in declarations_shard)."""
    cdef DealEngine g
    engine_init(&g, rules_spec, python)
    cdef Seat seats[2]
    cdef Rng rngs[2]
    seats_from(strategies, "elder", "younger", seats, rngs, &g)
    counters = new_deal_counters()
    cdef int64_t[::1] deals = counters["deals"], repik = counters["repik"], pik = counters["pik"]
    cdef int64_t[::1] pik_possible = counters["pik_possible"], capot = counters["capot"]
    cdef int64_t[::1] announced = counters["open_capot_announced"], made = counters["open_capot_made"]
    cdef int64_t[::1] majority = counters["majority"], divided = counters["cards_divided"]
    cdef int64_t[::1] winner = counters["deal_winner"], diff_sum = counters["diff_sum"]
    cdef int64_t[::1] diff_sq = counters["diff_sq_sum"], fallbacks = counters["pimc_fallbacks"]
    cdef int64_t[:, ::1] category = counters["category_winner"], total_hist = counters["total_hist"]
    cdef int64_t[:, ::1] decl_hist = counters["decl_hist"], play_hist = counters["play_hist"]
    cdef int64_t[:, ::1] tricks_hist = counters["tricks_hist"], exch_hist = counters["exchanged_hist"]
    cdef int64_t[:, :, :, ::1] by_feature = counters["by_feature"]
    cdef HandEval ev
    cdef int bins[2]
    cdef uint8_t cards[N_CARDS]
    cdef int c, p, f, diff
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    cdef bitgen_t *bg0 = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *bg1 = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bg2 = bitgen_pointer(bit_generators[2])
    cdef Py_ssize_t d
    cdef DealRecord rec
    cdef DealScore score
    cdef const uint8_t[:, ::1] given_view = given_rows(given, n_deals, N_CARDS)
    cdef bint has_given = given is not None
    try:
        with nogil:
            rng_init(&deal_rng, bg0)
            rng_init(&rngs[0], bg1)
            rng_init(&rngs[1], bg2)
            for d in range(n_deals):
                if has_given:
                    memcpy(cards, &given_view[d, 0], N_CARDS)
                else:
                    rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
                play_deal(&g, cards, seats, &rec, &score)
                pik[0] += score.pik
                pik_possible[0] += rec.decl.total[YOUNGER] == 0 and not rec.decl.repik[ELDER]
                for c in range(N_CATEGORIES):
                    category[c, rec.decl.winner[c]] += 1
                for p in range(2):
                    repik[p] += score.repik[p]
                    capot[p] += score.capot[p] != 0
                    announced[p] += rec.announced == p
                    made[p] += rec.announced == p and score.tricks[p] == TRICKS
                    majority[p] += score.majority[p] != 0
                    total_hist[p, score.total[p]] += 1
                    decl_hist[p, score.decl[p]] += 1
                    play_hist[p, score.play[p]] += 1
                    tricks_hist[p, score.tricks[p]] += 1
                    exch_hist[p, rec.exchanged[p]] += 1
                    if rec.discard[p]:
                        evaluate_hand(rec.dealt[p], &g.tables, &g.rules, &ev)
                    else:                # nothing exchanged: the final hand's evaluation is the dealt one's
                        ev = rec.final_ev[p]
                    bins[0] = min(uncontested_value(rec.dealt[p], &ev, &g.rules) // 10, FEATURE_BINS - 1)
                    bins[1] = ev.point_len
                    for f in range(2):
                        by_feature[f, p, bins[f], 0] += 1
                        by_feature[f, p, bins[f], 1] += score.repik[p]
                        by_feature[f, p, bins[f], 2] += score.pik if p == ELDER else 0
                divided[0] += score.tricks[0] == TRICKS // 2
                diff = score.total[0] - score.total[1]
                winner[0 if diff > 0 else (1 if diff < 0 else 2)] += 1
                diff_sum[0] += diff
                diff_sq[0] += diff * diff
            deals[0] = n_deals
            fallbacks[0] = g.pimc_fallbacks
    finally:
        solver_free(&g.solver)
    return counters


def new_partie_counters():
    return {
        "parties": np.zeros(1, np.int64),
        "net_hist": np.zeros(NET_BINS, np.int64),                   # player A's net, in tens
        "outcome": np.zeros(3, np.int64),                           # A wins / B wins / drawn
        "skvoznaya": np.zeros(1, np.int64),
        "rubicon": np.zeros(1, np.int64),
        "deals_hist": np.zeros(MAX_PARTIE_DEALS + 1, np.int64),
        "carried_multiplier": np.zeros(1, np.int64),
        "net_sum": np.zeros(1, np.int64),
        "net_sq_sum": np.zeros(1, np.int64),
        "pimc_fallbacks": np.zeros(1, np.int64),
    }


def partie_shard(bit_generators, Py_ssize_t n_parties, dict rules_spec, dict strategies, python=None):
    """Play n_parties whole parties between player A (roles a_*) and player B (roles b_*).
    Dealers: ru_seed draws the first dealer of each королик and alternates inside it (option:
    alternate throughout); classic alternates from a drawn first dealer."""
    cdef DealEngine g
    engine_init(&g, rules_spec, python)
    cdef Seat players[2]
    cdef Seat seats[2]
    cdef Rng rngs[2]
    seats_from(strategies, "a", "b", players, rngs, &g)
    counters = new_partie_counters()
    cdef int64_t[::1] parties = counters["parties"], net_hist = counters["net_hist"]
    cdef int64_t[::1] outcome = counters["outcome"], skv = counters["skvoznaya"], rub = counters["rubicon"]
    cdef int64_t[::1] deals_hist = counters["deals_hist"], carried = counters["carried_multiplier"]
    cdef int64_t[::1] net_sum = counters["net_sum"], net_sq = counters["net_sq_sum"]
    cdef int64_t[::1] fallbacks = counters["pimc_fallbacks"]
    cdef uint8_t cards[N_CARDS]
    cdef int c, i, dealer, elder_player, net, bin_index, in_korolik
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef int totals[2][MAX_PARTIE_DEALS]
    cdef Rng deal_rng
    cdef bitgen_t *bg0 = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *bg1 = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bg2 = bitgen_pointer(bit_generators[2])
    cdef Py_ssize_t d
    cdef DealScore score
    cdef PartieResult res
    try:
        with nogil:
            rng_init(&deal_rng, bg0)
            rng_init(&rngs[0], bg1)
            rng_init(&rngs[1], bg2)
            for d in range(n_parties):
                dealer = <int>rng_below(&deal_rng, 2)
                in_korolik = 0
                res.finished = 0
                for i in range(MAX_PARTIE_DEALS):
                    elder_player = 1 - dealer
                    seats[0] = players[elder_player]
                    seats[1] = players[dealer]
                    rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
                    play_deal(&g, cards, seats, NULL, &score)
                    totals[elder_player][i] = score.total[ELDER]
                    totals[dealer][i] = score.total[YOUNGER]
                    settle_partie(totals[0], totals[1], i + 1, &g.rules, &res)
                    if res.finished:
                        break
                    # the next dealer
                    if g.rules.match == MATCH_KOROLIK and not g.rules.dealer_alternate_always:
                        in_korolik += 1
                        if score.total[ELDER] == score.total[YOUNGER] or in_korolik == 2:
                            in_korolik = 0               # a new королик: draw its first dealer
                            dealer = <int>rng_below(&deal_rng, 2)
                            continue
                    dealer = 1 - dealer
                net = res.net[0]
                bin_index = net // 10 + NET_OFFSET
                if bin_index < 0:
                    bin_index = 0
                elif bin_index >= NET_BINS:
                    bin_index = NET_BINS - 1
                net_hist[bin_index] += 1
                outcome[0 if net > 0 else (1 if net < 0 else 2)] += 1
                skv[0] += res.skvoznaya
                rub[0] += res.rubicon
                deals_hist[res.deals_used] += 1
                carried[0] += res.carried_multiplier > 1
                net_sum[0] += net
                net_sq[0] += <int64_t>net * net
            parties[0] = n_parties
            fallbacks[0] = g.pimc_fallbacks
    finally:
        solver_free(&g.solver)
    return counters


# ---------------------------------------------------------------------------------------------
# Single deals and positions (the Python layer validates everything first)

cdef dict _score_dict(const DealScore *s):
    return {
        "declarations": [s.decl[0], s.decl[1]],
        "repik": [s.repik[0], s.repik[1]],
        "pik": [s.pik, 0],
        "play": [s.play[0], s.play[1]],
        "tricks": [s.tricks[0], s.tricks[1]],
        "majority": [s.majority[0], s.majority[1]],
        "capot": [s.capot[0], s.capot[1]],
        "open_capot_penalty": [s.open_capot_penalty[0], s.open_capot_penalty[1]],
        "total": [s.total[0], s.total[1]],
    }


cdef dict _decl_dict(const DeclResult *d):
    return {"score": [[d.score[p][c] for c in range(N_CATEGORIES)] for p in range(2)],
            "total": [d.total[0], d.total[1]], "repik": [d.repik[0], d.repik[1]]}


cdef void evaluate_declared(declared, int p, mask32 final, const SuitTables *t, const PiquetRules *rules,
                           HandEval *e) except *:
    """The holdings player p declares: the point from his declared point cards, the sequences and
    the sets from theirs (sinking, §5). `declared` is None (full declarations) or six masks:
    elder's point, sequence and set cards, then younger's (validated by the caller)."""
    cdef HandEval part
    if declared is None:
        evaluate_hand(final, t, rules, e)
        return
    evaluate_hand(declared[3 * p], t, rules, e)
    evaluate_hand(declared[3 * p + 1], t, rules, &part)
    e.seq_key, e.seq_score, e.tierce_major = part.seq_key, part.seq_score, part.tierce_major
    evaluate_hand(declared[3 * p + 2], t, rules, &part)
    e.set_key, e.set_score, e.quatorzes = part.set_key, part.set_score, part.quatorzes


cdef void declare_final(uint32_t elder_dealt, uint32_t younger_dealt, uint32_t elder_final, uint32_t younger_final,
                        declared, const SuitTables *t, const PiquetRules *rules, DeclResult *decl) except *:
    cdef HandEval ev[2]
    evaluate_declared(declared, 0, elder_final, t, rules, &ev[0])
    evaluate_declared(declared, 1, younger_final, t, rules, &ev[1])
    score_declarations(&ev[0], &ev[1], carte_blanche_points(elder_dealt, elder_final, rules),
                       carte_blanche_points(younger_dealt, younger_final, rules), rules, decl)


def score_declared(uint32_t elder_dealt, uint32_t younger_dealt, uint32_t elder_final, uint32_t younger_final,
                   declared, dict rules_spec):
    """Score the declarations of final hands, optionally under-declared (see evaluate_declared)."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    cdef DeclResult decl
    declare_final(elder_dealt, younger_dealt, elder_final, younger_final, declared, &tables, &rules, &decl)
    return _decl_dict(&decl)


def score_played_deal(uint32_t elder_dealt, uint32_t younger_dealt, uint32_t elder_final, uint32_t younger_final,
                      tricks, int announced, dict rules_spec, declared=None):
    """Score a deal whose final hands and (legal, validated) tricks are given as (lead, follow)
    card indices, with full or under-declared holdings (see evaluate_declared); returns the
    declarations, the deal score and the trick winners."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    cdef DeclResult decl
    cdef PlayState st
    cdef DealScore score
    declare_final(elder_dealt, younger_dealt, elder_final, younger_final, declared, &tables, &rules, &decl)
    start_play(&st, elder_final, younger_final, &decl, announced, &rules)
    winners = []
    for lead, follow in tricks:
        winners.append(play_trick(&st, lead, follow, &rules))
    finish_deal(&st, &decl, &rules, &score)
    return {"declarations": _decl_dict(&decl), "score": _score_dict(&score), "winners": winners}


def settle(totals_a, totals_b, dict rules_spec):
    """Settle a partie from the raw deal totals of players A and B (validated by the caller)."""
    cdef PiquetRules rules = rules_from(rules_spec)
    cdef int n = len(totals_a), i
    if n > MAX_PARTIE_DEALS or len(totals_b) != n:
        raise ValueError(f"a partie takes at most {MAX_PARTIE_DEALS} deals with a total for each player")
    cdef int a[MAX_PARTIE_DEALS]
    cdef int b[MAX_PARTIE_DEALS]
    for i in range(n):
        a[i] = totals_a[i]
        b[i] = totals_b[i]
    cdef PartieResult res
    settle_partie(a, b, n, &rules, &res)
    return {"finished": bool(res.finished), "deals_used": res.deals_used, "net": [res.net[0], res.net[1]],
            "korolik_records": [res.korolik_records[0], res.korolik_records[1]],
            "columns": [res.columns[0], res.columns[1]], "skvoznaya": bool(res.skvoznaya),
            "rubicon": bool(res.rubicon), "carried_multiplier": res.carried_multiplier}


def play_one_deal(bit_generators, dict rules_spec, dict strategies):
    """Deal and play one deal with named strategies (roles elder_*, younger_*), recording every
    step: for golden playthroughs and `kozyr piquet play`."""
    cdef DealEngine g
    engine_init(&g, rules_spec)
    cdef Seat seats[2]
    cdef Rng rngs[2]
    seats_from(strategies, "elder", "younger", seats, rngs, &g)
    cdef uint8_t cards[N_CARDS]
    cdef int c
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    rng_init(&deal_rng, bitgen_pointer(bit_generators[0]))
    rng_init(&rngs[0], bitgen_pointer(bit_generators[1]))
    rng_init(&rngs[1], bitgen_pointer(bit_generators[2]))
    cdef DealRecord rec
    cdef DealScore score
    try:
        rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
        play_deal(&g, cards, seats, &rec, &score)
    finally:
        solver_free(&g.solver)
    return {
        "talon": [int(cards[2 * HAND + i]) for i in range(TALON)],
        "dealt": [rec.dealt[0], rec.dealt[1]], "discard": [rec.discard[0], rec.discard[1]],
        "final": [rec.final[0], rec.final[1]], "exchanged": [rec.exchanged[0], rec.exchanged[1]],
        "announced": rec.announced,
        "tricks": [(rec.leader[i], rec.lead[i], rec.follow[i]) for i in range(TRICKS)],
        "declarations": _decl_dict(&rec.decl), "score": _score_dict(&score),
    }


def solve_position(uint32_t elder, uint32_t younger, int leader, int elder_tricks, int younger_tricks,
                   int pik_possible, int pik_count, int window_open, int announced, dict rules_spec,
                   str method="moves"):
    """Double-dummy value to go (elder - younger) and best card of a position at the start of a
    trick; tricks done = 12 - cards in hand. For tests and benchmarks. method="bounds" gives the
    bounds (low, high) of the value that the search cuts off with, in place of the value."""
    cdef DealEngine g
    engine_init(&g, rules_spec)
    cdef PlayState st
    cdef int value, card, low, high
    memset(&st, 0, sizeof(PlayState))
    st.hand[0] = elder
    st.hand[1] = younger
    st.leader = leader
    st.tricks_done = TRICKS - popcount32(elder)
    st.tricks_won[0] = elder_tricks
    st.tricks_won[1] = younger_tricks
    st.pik_possible = pik_possible
    st.pik_count = pik_count
    st.window_open = window_open
    st.announced = announced
    card = -1
    try:
        if method == "moves":            # the best card, each move searched in turn
            card = best_move(&g.solver, &st, -1, &value)
        elif method == "window":         # one full-window search
            value = search(&g.solver, &st, -INF, INF)
        elif method == "bounds":
            position_bounds(&g.solver, &st, &low, &high)
            value = 0
        else:                            # zero-window passes
            value = mtdf(&g.solver, &st, -1, 0)
    finally:
        solver_free(&g.solver)
    if method == "bounds":
        return (low, high), card, g.solver.nodes
    return value, card, g.solver.nodes


def solve_many(elder_masks, younger_masks, dict rules_spec, bint use_mtdf=True):
    """Solve full deals from the first trick (no pik pending); returns elder - younger play
    values. For the benchmark of double-dummy solves per second."""
    cdef uint32_t[::1] elder = np.ascontiguousarray(elder_masks, dtype=np.uint32)
    cdef uint32_t[::1] younger = np.ascontiguousarray(younger_masks, dtype=np.uint32)
    out = np.zeros(elder.shape[0], np.int32)
    cdef int[::1] view = out
    cdef DealEngine g
    engine_init(&g, rules_spec)
    cdef PlayState st
    cdef Py_ssize_t i
    try:
        with nogil:
            for i in range(elder.shape[0]):
                memset(&st, 0, sizeof(PlayState))
                st.hand[0] = elder[i]
                st.hand[1] = younger[i]
                st.announced = -1
                st.window_open = 1
                view[i] = mtdf(&g.solver, &st, -1, 0) if use_mtdf else search(&g.solver, &st, -INF, INF)
    finally:
        solver_free(&g.solver)
    return out


# ---------------------------------------------------------------------------------------------
# Duplicate comparison of two strategies

def compare_shard(bit_generators, Py_ssize_t n_deals, dict rules_spec, dict strategies, python=None):
    """Play every deal twice, strategy A (roles a_*) as elder against B (roles b_*) as younger and
    then with the seats swapped. A strategy's per-deal result is the sum of its deal totals in its
    two seats; the paired difference is A's result minus B's. Counters in the layout of
    analyzer.compare (sums that add up across shards)."""
    cdef DealEngine g
    engine_init(&g, rules_spec, python)
    cdef Seat players[2]
    cdef Seat seats[2]
    cdef Rng rngs[2]
    seats_from(strategies, "a", "b", players, rngs, &g)
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cdef uint8_t cards[N_CARDS]
    cdef int c
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    cdef Rng deal_rng
    cdef bitgen_t *bg0 = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *bg1 = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bg2 = bitgen_pointer(bit_generators[2])
    cdef Py_ssize_t d
    cdef DealScore first, second
    cdef int64_t a, b
    try:
        with nogil:
            rng_init(&deal_rng, bg0)
            rng_init(&rngs[0], bg1)
            rng_init(&rngs[1], bg2)
            for d in range(n_deals):
                rng_partial_shuffle(&deal_rng, cards, N_CARDS, N_CARDS - 1)
                seats[0] = players[0]
                seats[1] = players[1]
                play_deal(&g, cards, seats, NULL, &first)
                seats[0] = players[1]
                seats[1] = players[0]
                play_deal(&g, cards, seats, NULL, &second)
                a = first.total[ELDER] + second.total[YOUNGER]
                b = first.total[YOUNGER] + second.total[ELDER]
                tally_pair(&tally, a, b)
    finally:
        solver_free(&g.solver)
    return pair_counters(tally)
