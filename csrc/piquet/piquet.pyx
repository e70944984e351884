# Piquet, two-handed — declarations (хвалеж) on the dealt hands.
#
# Rules card (shared/rules/piquet.md §1, §4, §5, §7; presets ru_seed, ru_seed_seq34, classic):
#   Deck     32 cards, ranks 7 8 9 T J Q K A, no trumps. Elder = non-dealer, younger = dealer.
#   Deal     12 cards each, 8 to the talon (this kernel scores the dealt hands: no exchange).
#   Carte blanche  no K, Q, J in the hand: 10; blocks the opponent's repik like any хвалеж point.
#   Point    longest suit; equal length -> higher pip sum (A 11, K Q J T 10, 9 8 7 face),
#            still equal -> nobody (rule option point_by_pips=False: equal length -> nobody).
#            Scores one per card.
#   Sequences  maximal runs of >= 3 in a suit; the better best run (longer, then higher top card)
#            scores every run its holder has; equal best runs void the category for both.
#            Values for lengths 3..8: ru_seed 13 14 15 16 17 18; classic/seq34 3 4 15 16 17 18.
#   Sets     ranks T..A only: quatorze 14, trio 3; any quatorze beats any trio, higher rank beats
#            lower; the winner scores all his sets, the loser none.
#   Repik    +60. Rule OPP_DECL_ZERO (ru_seed): own total >= 30 and the opponent's total is 0.
#            Rule RECKONING_ORDER (classic): 30 reached counting categories in the order carte
#            blanche, point, sequences, sets, stopping at the first one the opponent scores in.
#
# Encoding: a hand is a uint32 mask, bit = 8*suit + rank (suit S H D C = 0..3, rank 7..A = 0..7),
# so every per-suit question is a 256-entry table lookup on one byte.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset

from bitboard cimport mask32, suit_lane32, rank_count32, popcount32
from rng cimport Rng, rng_init, rng_partial_shuffle, bitgen_pointer
from numpy.random cimport bitgen_t

cnp.import_array()

cdef enum:
    N_CARDS = 32
    HAND = 12
    N_RANKS = 8
    RANK_TEN = 3
    RANK_ACE = 7
    COURTS = 0x70707070          # J, Q, K in every suit
    MAX_TOTAL = 128              # histogram size; a hand's declarations never exceed 97
    N_CATEGORIES = 4             # carte blanche, point, sequences, sets
    MIN_SEQ = 3

cdef enum:  # categories, in reckoning order
    CARTE_BLANCHE = 0
    POINT = 1
    SEQUENCES = 2
    SETS = 3

cdef enum:  # who scores a category
    NOBODY = 0
    ELDER = 1
    YOUNGER = 2

cdef enum:  # repik rules
    OPP_DECL_ZERO = 0
    RECKONING_ORDER = 1

# Per-deal row layout (opt-in raw output): the two hands, then 7 fields per player.
cdef enum:
    ROW_ELDER = 0
    ROW_YOUNGER = 1
    ROW_PLAYER0 = 2
    N_PLAYER_FIELDS = 7
    ROW_WIDTH = ROW_PLAYER0 + 2 * N_PLAYER_FIELDS
PLAYER_FIELDS = ("carte_blanche", "point", "sequences", "sets", "total", "repik", "uncontested")

cdef int PIPS[N_RANKS]
PIPS[:] = [7, 8, 9, 10, 10, 10, 10, 11]


cdef struct DeclRules:
    int seq_value[9]             # by run length; 0 for lengths < 3
    int point_by_pips
    int carte_blanche_value
    int trio_value
    int quatorze_value
    int repik_rule
    int repik_threshold
    int repik_bonus


cdef struct SuitTables:
    uint8_t length[256]
    int point_key[256]           # length * 128 + pip sum (or length * 128 without pips)
    int seq_score[256]           # value of every maximal run in the suit
    int seq_key[256]             # best run: length * 8 + top rank, 0 if no run of 3
    uint8_t seq_top_is_ace[256]


cdef struct HandEval:
    int carte_blanche            # points, 0 or the carte blanche value
    int point_key
    int point_len
    int seq_key
    int seq_score
    int set_key                  # quatorze: 16 + rank, trio: 8 + rank, none: 0
    int set_score
    int quatorzes
    int ace_sequence
    int void_suit


cdef struct DeclResult:
    int score[2][N_CATEGORIES]   # [player][category]
    int total[2]
    int repik[2]
    int winner[N_CATEGORIES]


cdef void build_tables(SuitTables *t, const DeclRules *rules) noexcept nogil:
    cdef int m, b, run, pips, best_len, best_top
    for m in range(256):
        t.length[m] = <uint8_t>popcount32(<uint32_t>m)
        pips = 0
        for b in range(N_RANKS):
            if m >> b & 1:
                pips += PIPS[b]
        t.point_key[m] = t.length[m] * 128 + (pips if rules.point_by_pips else 0)
        t.seq_score[m] = 0
        best_len = 0
        best_top = 0
        run = 0
        for b in range(N_RANKS + 1):
            if b < N_RANKS and (m >> b & 1):
                run += 1
            else:
                if run >= MIN_SEQ:
                    t.seq_score[m] += rules.seq_value[run]
                    if run >= best_len:        # later runs have higher tops
                        best_len = run
                        best_top = b - 1
                run = 0
        t.seq_key[m] = best_len * 8 + best_top if best_len else 0
        t.seq_top_is_ace[m] = (m >> (RANK_ACE - 2) & 7) == 7     # Q K A present


cdef inline void evaluate_hand(mask32 hand, const SuitTables *t, const DeclRules *rules,
                               HandEval *e) noexcept nogil:
    cdef int s, r, n, lane, key
    e.carte_blanche = rules.carte_blanche_value if (hand & COURTS) == 0 else 0
    e.point_key = 0
    e.seq_key = 0
    e.seq_score = 0
    e.ace_sequence = 0
    e.void_suit = 0
    for s in range(4):
        lane = suit_lane32(hand, s)
        if t.point_key[lane] > e.point_key:
            e.point_key = t.point_key[lane]
        if t.seq_key[lane] > e.seq_key:
            e.seq_key = t.seq_key[lane]
        e.seq_score += t.seq_score[lane]
        e.ace_sequence |= t.seq_top_is_ace[lane]
        e.void_suit |= lane == 0
    e.point_len = e.point_key >> 7
    e.set_key = 0
    e.set_score = 0
    e.quatorzes = 0
    for r in range(RANK_TEN, N_RANKS):
        n = rank_count32(hand, r)
        if n == 4:
            e.set_score += rules.quatorze_value
            e.quatorzes += 1
            key = 16 + r
        elif n == 3:
            e.set_score += rules.trio_value
            key = 8 + r
        else:
            key = 0
        if key > e.set_key:
            e.set_key = key


cdef inline int compare(int elder_key, int younger_key) noexcept nogil:
    if elder_key > younger_key:
        return ELDER
    if younger_key > elder_key:
        return YOUNGER
    return NOBODY


cdef inline int reaches_in_order(const DeclResult *res, int p, const DeclRules *rules) noexcept nogil:
    # Classic repique: count own categories in reckoning order until the opponent scores in one.
    cdef int c, running = 0
    for c in range(N_CATEGORIES):
        if res.score[1 - p][c] > 0:
            return 0
        running += res.score[p][c]
        if running >= rules.repik_threshold:
            return 1
    return 0


cdef inline void score_declarations(const HandEval *e, const HandEval *y, const DeclRules *rules,
                                    DeclResult *res) noexcept nogil:
    cdef int p, c
    memset(res, 0, sizeof(DeclResult))
    res.winner[CARTE_BLANCHE] = ELDER if e.carte_blanche else (YOUNGER if y.carte_blanche else NOBODY)
    res.score[0][CARTE_BLANCHE] = e.carte_blanche
    res.score[1][CARTE_BLANCHE] = y.carte_blanche
    res.winner[POINT] = compare(e.point_key, y.point_key)
    res.winner[SEQUENCES] = compare(e.seq_key, y.seq_key)
    res.winner[SETS] = compare(e.set_key, y.set_key)
    if res.winner[POINT] == ELDER:
        res.score[0][POINT] = e.point_len
    elif res.winner[POINT] == YOUNGER:
        res.score[1][POINT] = y.point_len
    if res.winner[SEQUENCES] == ELDER:
        res.score[0][SEQUENCES] = e.seq_score
    elif res.winner[SEQUENCES] == YOUNGER:
        res.score[1][SEQUENCES] = y.seq_score
    if res.winner[SETS] == ELDER:
        res.score[0][SETS] = e.set_score
    elif res.winner[SETS] == YOUNGER:
        res.score[1][SETS] = y.set_score
    for p in range(2):
        res.total[p] = 0
        for c in range(N_CATEGORIES):
            res.total[p] += res.score[p][c]
    for p in range(2):
        if rules.repik_rule == OPP_DECL_ZERO:
            res.repik[p] = res.total[p] >= rules.repik_threshold and res.total[1 - p] == 0
        else:
            res.repik[p] = reaches_in_order(res, p, rules)


cdef inline int uncontested(const HandEval *e) noexcept nogil:
    return e.carte_blanche + e.point_len + e.seq_score + e.set_score


cdef DeclRules rules_from(dict spec) except *:
    cdef DeclRules rules
    cdef int length
    memset(&rules, 0, sizeof(DeclRules))
    values = spec["seq_values"]
    for length in range(MIN_SEQ, 9):
        rules.seq_value[length] = values[length - MIN_SEQ]
    rules.point_by_pips = spec["point_tiebreak"] == "pips"
    rules.carte_blanche_value = spec["carte_blanche_value"]
    rules.trio_value = spec["trio_value"]
    rules.quatorze_value = spec["quatorze_value"]
    rules.repik_rule = {"opp_decl_zero": OPP_DECL_ZERO, "reckoning_order": RECKONING_ORDER}[spec["repik_rule"]]
    rules.repik_threshold = spec["repik_threshold"]
    rules.repik_bonus = spec["repik_bonus"]
    return rules


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


cdef void fill_row(uint32_t[::1] row, mask32 elder, mask32 younger, const HandEval *ev,
                   const DeclResult *res) noexcept nogil:
    cdef int p, base
    row[ROW_ELDER] = elder
    row[ROW_YOUNGER] = younger
    for p in range(2):
        base = ROW_PLAYER0 + p * N_PLAYER_FIELDS
        row[base + 0] = res.score[p][CARTE_BLANCHE]
        row[base + 1] = res.score[p][POINT]
        row[base + 2] = res.score[p][SEQUENCES]
        row[base + 3] = res.score[p][SETS]
        row[base + 4] = res.total[p]
        row[base + 5] = res.repik[p]
        row[base + 6] = uncontested(&ev[p])


def declarations_shard(bit_generator, Py_ssize_t n_deals, dict rules_spec, rows=None):
    """Deal n_deals deals from the bit generator and score the dealt hands' declarations.

    Returns the counters of new_declaration_counters(). If `rows` is a uint32 array of shape
    (n_deals, ROW_WIDTH), each deal's hands and scores are written to it as well."""
    cdef DeclRules rules = rules_from(rules_spec)
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
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            rng_partial_shuffle(&rng, cards, N_CARDS, 2 * HAND)
            hand[0] = 0
            hand[1] = 0
            for c in range(HAND):
                hand[0] |= (<mask32>1) << cards[c]
                hand[1] |= (<mask32>1) << cards[HAND + c]
            evaluate_hand(hand[0], &tables, &rules, &ev[0])
            evaluate_hand(hand[1], &tables, &rules, &ev[1])
            score_declarations(&ev[0], &ev[1], &rules, &res)
            for c in range(N_CATEGORIES):
                category_winner[c, res.winner[c]] += 1
            for p in range(2):
                total_hist[p, res.total[p]] += 1
                uncontested_hist[p, uncontested(&ev[p])] += 1
                repik[p] += res.repik[p]
                point_len[p, ev[p].point_len] += 1
                seq_len[p, ev[p].seq_key >> 3] += 1
                quatorzes[p, ev[p].quatorzes] += 1
                trio_or_better[p] += ev[p].set_key != 0
                carte_blanche[p] += ev[p].carte_blanche != 0
                four_aces[p] += rank_count32(hand[p], RANK_ACE) == 4
                ace_sequence[p] += ev[p].ace_sequence
                void_suit[p] += ev[p].void_suit
            if keep_rows:
                fill_row(row_view[d], hand[0], hand[1], ev, &res)
        deals[0] = n_deals
    return counters


def score_deals(elder_masks, younger_masks, dict rules_spec):
    """Score given deals (uint32 masks of two disjoint 12-card hands, validated by the caller).
    Returns a uint32 array of rows in the layout of declarations_shard."""
    cdef DeclRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    cdef uint32_t[::1] elder = np.ascontiguousarray(elder_masks, dtype=np.uint32)
    cdef uint32_t[::1] younger = np.ascontiguousarray(younger_masks, dtype=np.uint32)
    if elder.shape[0] != younger.shape[0]:
        raise ValueError("elder and younger mask arrays differ in length")
    out = np.zeros((elder.shape[0], ROW_WIDTH), dtype=np.uint32)
    cdef uint32_t[:, ::1] view = out
    cdef Py_ssize_t d
    cdef HandEval ev[2]
    cdef DeclResult res
    with nogil:
        for d in range(elder.shape[0]):
            evaluate_hand(elder[d], &tables, &rules, &ev[0])
            evaluate_hand(younger[d], &tables, &rules, &ev[1])
            score_declarations(&ev[0], &ev[1], &rules, &res)
            fill_row(view[d], elder[d], younger[d], ev, &res)
    return out


def uncontested_exact(dict rules_spec):
    """Exact distribution of a 12-card hand's uncontested value (what it scores if it wins every
    category) by enumerating all C(32, 12) = 225,792,840 hands (Gosper's hack); a few seconds."""
    cdef DeclRules rules = rules_from(rules_spec)
    cdef SuitTables tables
    build_tables(&tables, &rules)
    hist = np.zeros(MAX_TOTAL, np.int64)
    cdef int64_t[::1] view = hist
    cdef uint32_t v = (1u << HAND) - 1, lowest, ripple
    cdef HandEval ev
    with nogil:
        while True:
            evaluate_hand(v, &tables, &rules, &ev)
            view[uncontested(&ev)] += 1
            lowest = v & (~v + 1)
            ripple = v + lowest
            if ripple == 0:          # the last mask (top 12 bits) overflowed
                break
            v = (((ripple ^ v) >> 2) // lowest) | ripple
    return hist


ROW_LAYOUT = ("elder", "younger") + tuple(f"{who}_{f}" for who in ("elder", "younger") for f in PLAYER_FIELDS)
