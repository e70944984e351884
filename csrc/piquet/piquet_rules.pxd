# Piquet rules as numbers: declarations (хвалеж), trick play and its points, pik/repik, deal
# totals, and the partie (королик for ru_seed, rubicon for classic). shared/rules/piquet.md.
#
# Encoding: a hand is a uint32 mask, bit = 8*suit + rank (suit S H D C = 0..3, rank 7..A = 0..7).
# Player index 0 = elder (non-dealer, leads to trick 1), 1 = younger (dealer).

from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.string cimport memset

from bitboard cimport mask32, suit_lane32, rank_count32, popcount32, lowest_bit32, highest_bit32

cdef enum:
    N_CARDS = 32
    HAND = 12
    TALON = 8
    ELDER_PACKET = 5
    TRICKS = 12
    N_RANKS = 8
    RANK_TEN = 3
    RANK_ACE = 7
    COURTS = 0x70707070          # J, Q, K in every suit
    SET_RANKS = 0xF8             # ten to ace: the ranks that make sets (bit = rank)
    # A hand's declarations at the option limits (100 a category): carte blanche twice (dealt and
    # final), a point of 8, four sequences and four sets of 12 cards: at most 1,008 (97 by default)
    MAX_TOTAL = 1024
    N_CATEGORIES = 4             # carte blanche, point, sequences, sets (reckoning order)
    MIN_SEQ = 3
    ELDER = 0
    YOUNGER = 1

cdef enum:  # categories
    CARTE_BLANCHE = 0
    POINT = 1
    SEQUENCES = 2
    SETS = 3

cdef enum:  # who scores a category
    WON_BY_NOBODY = 0
    WON_BY_ELDER = 1
    WON_BY_YOUNGER = 2

cdef enum:  # option values
    OPP_DECL_ZERO = 0            # repik_rule
    RECKONING_ORDER = 1
    CB_DEALT = 0                 # carte_blanche_when
    CB_FINAL = 1
    CB_BOTH = 2
    EVERY_TRICK = 0              # trick_point
    FOLLOWER_ONLY = 1
    LAST_TOTAL = 0               # last_trick_mode: the last trick is worth value in all
    LAST_EXTRA = 1               #                  the last trick gives value on top
    UNTIL_OPPONENT_SCORES = 0    # pik_window
    WHOLE_PLAY = 1
    MATCH_KOROLIK = 0            # match
    MATCH_RUBICON = 1
    ROUND_HALF_UP = 0            # rounding
    ROUND_CEIL = 1


cdef struct PiquetRules:
    int seq_value[9]             # by run length; 0 below 3
    int point_by_pips
    int carte_blanche_value
    int carte_blanche_when
    int trio_value
    int quatorze_value
    int repik_rule
    int repik_threshold
    int repik_bonus
    int pik_threshold
    int pik_bonus
    int pik_window
    int elder_counts             # bit k set: elder may exchange k cards
    int younger_counts           # bit k set: younger may exchange k cards (if that many remain)
    int younger_leftovers_seen   # classic: younger may look at his leftovers, and then elder too
    int declare_after_lead       # classic: younger declares after elder's first lead
    int trick_point
    int last_trick_mode
    int last_trick_value
    int capot_keeps_last_trick   # ru_seed: in a capot the last trick counts as an ordinary one
    int majority_bonus
    int capot_bonus
    int open_capot               # announcing is allowed
    int open_capot_bonus
    int open_capot_fail_penalty
    int match
    int koroliks_per_partie
    int rounding
    int refet_multiplier
    int skvoznaya_bonus
    int dealer_alternate_always
    int rubicon_deals
    int rubicon_threshold


cdef struct SuitTables:
    uint8_t length[256]
    int point_key[256]           # length * 128 + pip sum (or length * 128 without pips)
    int seq_score[256]           # value of every maximal run in the suit
    int seq_key[256]             # best run: length * 8 + top rank, 0 if no run of 3
    uint8_t has_tierce_major[256]


cdef struct HandEval:
    int point_key
    int point_len
    int seq_key
    int seq_score
    int set_key                  # quatorze: 16 + rank, trio: 8 + rank, none: 0
    int set_score
    int quatorzes
    int tierce_major
    int void_suit


cdef struct DeclResult:
    int score[2][N_CATEGORIES]   # [player][category]
    int total[2]
    int repik[2]
    int winner[N_CATEGORIES]


# ---------------------------------------------------------------------------------------------
# Rules from the Python layer's validated option dicts

cdef inline int counts_mask(values) except -1:
    cdef int m = 0
    for v in values:
        m |= 1 << int(v)
    return m


cdef inline void declaration_values(PiquetRules *r, dict spec) except *:
    """The declaration part of a rules dict (shared by the two- and three-handed games)."""
    cdef int length
    for length in range(MIN_SEQ, 9):
        r.seq_value[length] = spec["seq_values"][length - MIN_SEQ]
    r.point_by_pips = spec["point_tiebreak"] == "pips"
    r.carte_blanche_value = spec["carte_blanche_value"]
    r.carte_blanche_when = {"dealt": CB_DEALT, "final": CB_FINAL, "both": CB_BOTH}[spec["carte_blanche_when"]]
    r.trio_value = spec["trio_value"]
    r.quatorze_value = spec["quatorze_value"]


cdef inline PiquetRules rules_from(dict spec) except *:
    """The kernel's rules from a validated two-handed option dict (analyzer/games/piquet.py)."""
    cdef PiquetRules r
    memset(&r, 0, sizeof(PiquetRules))
    declaration_values(&r, spec)
    r.repik_rule = {"opp_decl_zero": OPP_DECL_ZERO, "reckoning_order": RECKONING_ORDER}[spec["repik_rule"]]
    r.repik_threshold = spec["repik_threshold"]
    r.repik_bonus = spec["repik_bonus"]
    r.pik_threshold = spec["pik_threshold"]
    r.pik_bonus = spec["pik_bonus"]
    r.pik_window = {"until_opponent_scores": UNTIL_OPPONENT_SCORES, "whole_play": WHOLE_PLAY}[spec["pik_window"]]
    r.elder_counts = counts_mask(spec["exchange_elder"])
    r.younger_counts = counts_mask(spec["exchange_younger"])
    r.younger_leftovers_seen = spec["younger_leftover_visibility"] == "classic"
    r.declare_after_lead = spec["declare_timing"] == "younger_after_lead"
    r.trick_point = {"every_trick": EVERY_TRICK, "follower_only": FOLLOWER_ONLY}[spec["trick_point"]]
    r.last_trick_mode = {"total": LAST_TOTAL, "extra": LAST_EXTRA}[spec["last_trick_mode"]]
    r.last_trick_value = spec["last_trick_value"]
    r.capot_keeps_last_trick = spec["capot_keeps_last_trick"]
    r.majority_bonus = spec["majority_bonus"]
    r.capot_bonus = spec["capot_bonus"]
    r.open_capot = spec["open_capot"]
    r.open_capot_bonus = spec["open_capot_bonus"]
    r.open_capot_fail_penalty = spec["open_capot_fail_penalty"]
    r.match = {"korolik": MATCH_KOROLIK, "rubicon": MATCH_RUBICON}[spec["match"]]
    r.koroliks_per_partie = spec["koroliks_per_partie"]
    r.rounding = {"half_up": ROUND_HALF_UP, "ceil": ROUND_CEIL}[spec["rounding"]]
    r.refet_multiplier = spec["refet_multiplier"]
    r.skvoznaya_bonus = spec["skvoznaya_bonus"]
    r.dealer_alternate_always = spec["dealer"] == "alternate_always"
    r.rubicon_deals = spec["rubicon_deals"]
    r.rubicon_threshold = spec["rubicon_threshold"]
    return r



cdef inline int pip_value(int rank) noexcept nogil:
    if rank == RANK_ACE:
        return 11
    if rank >= RANK_TEN:
        return 10
    return rank + 7


cdef inline void build_tables(SuitTables *t, const PiquetRules *rules) noexcept nogil:
    cdef int m, b, run, pips, best_len, best_top
    for m in range(256):
        t.length[m] = <uint8_t>popcount32(<uint32_t>m)
        pips = 0
        for b in range(N_RANKS):
            if m >> b & 1:
                pips += pip_value(b)
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
        t.has_tierce_major[m] = (m >> (RANK_ACE - 2) & 7) == 7     # Q K A present


cdef inline int is_blank(mask32 hand) noexcept nogil:
    return (hand & COURTS) == 0


cdef inline void rank_multiples(mask32 hand, uint32_t *four, uint32_t *three, uint32_t *two) noexcept nogil:
    """The ranks (bit = rank) the hand holds in all four suits, in three or more, in two or more:
    every rank at once, from and/or of the four suit lanes."""
    cdef uint32_t a = hand & 0xFF, b = hand >> 8 & 0xFF, c = hand >> 16 & 0xFF, d = hand >> 24
    four[0] = a & b & c & d
    three[0] = (a & b & (c | d)) | (c & d & (a | b))
    two[0] = (a & b) | (c & d) | ((a | b) & (c | d))


cdef inline void evaluate_hand(mask32 hand, const SuitTables *t, const PiquetRules *rules,
                               HandEval *e) noexcept nogil:
    cdef int s, lane
    cdef uint32_t four, three, two, trio
    e.point_key = 0
    e.seq_key = 0
    e.seq_score = 0
    e.tierce_major = 0
    e.void_suit = 0
    for s in range(4):
        lane = suit_lane32(hand, s)
        if t.point_key[lane] > e.point_key:
            e.point_key = t.point_key[lane]
        if t.seq_key[lane] > e.seq_key:
            e.seq_key = t.seq_key[lane]
        e.seq_score += t.seq_score[lane]
        e.tierce_major |= t.has_tierce_major[lane]
        e.void_suit |= lane == 0
    e.point_len = e.point_key >> 7
    # sets: a quatorze (key 16 + rank) beats any trio (key 8 + rank)
    rank_multiples(hand, &four, &three, &two)
    four &= SET_RANKS
    trio = three & ~four & SET_RANKS
    e.quatorzes = popcount32(four)
    e.set_score = e.quatorzes * rules.quatorze_value + popcount32(trio) * rules.trio_value
    e.set_key = 16 + highest_bit32(four) if four else (8 + highest_bit32(trio) if trio else 0)


cdef inline int carte_blanche_points(mask32 dealt, mask32 final, const PiquetRules *rules) noexcept nogil:
    if rules.carte_blanche_when == CB_DEALT:
        return rules.carte_blanche_value if is_blank(dealt) else 0
    if rules.carte_blanche_when == CB_FINAL:
        return rules.carte_blanche_value if is_blank(final) else 0
    return (rules.carte_blanche_value if is_blank(dealt) else 0) + (rules.carte_blanche_value if is_blank(final) else 0)


cdef inline int uncontested_value(mask32 hand, const HandEval *e, const PiquetRules *rules) noexcept nogil:
    """What the hand scores if it wins every category, declared as dealt (the dealt hand is also
    the final one: carte_blanche_when=both pays twice)."""
    return carte_blanche_points(hand, hand, rules) + e.point_len + e.seq_score + e.set_score


cdef inline int compare_keys(int elder_key, int younger_key) noexcept nogil:
    if elder_key > younger_key:
        return WON_BY_ELDER
    if younger_key > elder_key:
        return WON_BY_YOUNGER
    return WON_BY_NOBODY


cdef inline int reaches_in_order(const DeclResult *res, int p, const PiquetRules *rules) noexcept nogil:
    # Classic repique: count own categories in reckoning order until the opponent scores in one.
    cdef int c, running = 0
    for c in range(N_CATEGORIES):
        if res.score[1 - p][c] > 0:
            return 0
        running += res.score[p][c]
        if running >= rules.repik_threshold:
            return 1
    return 0


cdef inline void score_declarations(const HandEval *e, const HandEval *y, int elder_cb, int younger_cb,
                                    const PiquetRules *rules, DeclResult *res) noexcept nogil:
    """Full declarations of the final hands; carte blanche points come from the caller (they are
    judged on the dealt hand by default)."""
    cdef int p, c
    memset(res, 0, sizeof(DeclResult))
    res.score[ELDER][CARTE_BLANCHE] = elder_cb
    res.score[YOUNGER][CARTE_BLANCHE] = younger_cb
    res.winner[CARTE_BLANCHE] = WON_BY_ELDER if elder_cb else (WON_BY_YOUNGER if younger_cb else WON_BY_NOBODY)
    res.winner[POINT] = compare_keys(e.point_key, y.point_key)
    res.winner[SEQUENCES] = compare_keys(e.seq_key, y.seq_key)
    res.winner[SETS] = compare_keys(e.set_key, y.set_key)
    if res.winner[POINT] == WON_BY_ELDER:
        res.score[ELDER][POINT] = e.point_len
    elif res.winner[POINT] == WON_BY_YOUNGER:
        res.score[YOUNGER][POINT] = y.point_len
    if res.winner[SEQUENCES] == WON_BY_ELDER:
        res.score[ELDER][SEQUENCES] = e.seq_score
    elif res.winner[SEQUENCES] == WON_BY_YOUNGER:
        res.score[YOUNGER][SEQUENCES] = y.seq_score
    if res.winner[SETS] == WON_BY_ELDER:
        res.score[ELDER][SETS] = e.set_score
    elif res.winner[SETS] == WON_BY_YOUNGER:
        res.score[YOUNGER][SETS] = y.set_score
    for p in range(2):
        res.total[p] = 0
        for c in range(N_CATEGORIES):
            res.total[p] += res.score[p][c]
    for p in range(2):
        if rules.repik_rule == OPP_DECL_ZERO:
            res.repik[p] = res.total[p] >= rules.repik_threshold and res.total[1 - p] == 0
        else:
            res.repik[p] = reaches_in_order(res, p, rules)


# ---------------------------------------------------------------------------------------------
# Trick play

cdef struct PlayState:
    mask32 hand[2]
    int leader
    int tricks_done
    int tricks_won[2]
    int points[2]                # play points so far (leads, tricks, last trick)
    int pik_possible             # younger declared nothing and elder made no repik
    int pik_count                # elder's running count while the pik can still happen
    int window_open              # until_opponent_scores: younger has scored nothing in play
    int pik
    int announced                # -1, or the player who announced an open capot


cdef inline void start_play(PlayState *s, mask32 elder, mask32 younger, const DeclResult *decl,
                            int announced, const PiquetRules *rules) noexcept nogil:
    s.hand[ELDER] = elder
    s.hand[YOUNGER] = younger
    s.leader = ELDER
    s.tricks_done = 0
    s.tricks_won[0] = 0
    s.tricks_won[1] = 0
    s.points[0] = 0
    s.points[1] = 0
    s.pik_possible = decl.total[YOUNGER] == 0 and not decl.repik[ELDER]
    s.pik_count = decl.total[ELDER]
    s.window_open = 1
    s.pik = 0
    s.announced = announced


cdef inline mask32 legal_follows(mask32 hand, int lead_card) noexcept nogil:
    cdef mask32 suit = (<mask32>0xFF) << (lead_card & ~7)
    return hand & suit if hand & suit else hand


cdef inline void add_play_points(PlayState *s, int player, int points, const PiquetRules *rules) noexcept nogil:
    s.points[player] += points
    if player == YOUNGER:
        s.window_open = 0
    elif s.pik_possible and not s.pik and (s.window_open or rules.pik_window == WHOLE_PLAY):
        s.pik_count += points
        if s.pik_count >= rules.pik_threshold:
            s.pik = 1


cdef inline int play_trick(PlayState *s, int lead_card, int follow_card, const PiquetRules *rules) noexcept nogil:
    """Play one trick (cards assumed legal); returns the winner."""
    cdef int leader = s.leader, follower = 1 - s.leader, winner, points
    s.hand[leader] &= ~((<mask32>1) << lead_card)
    s.hand[follower] &= ~((<mask32>1) << follow_card)
    add_play_points(s, leader, 1, rules)
    winner = follower if (follow_card >> 3) == (lead_card >> 3) and follow_card > lead_card else leader
    s.tricks_done += 1
    s.tricks_won[winner] += 1
    points = 1 if (rules.trick_point == EVERY_TRICK or winner == follower) else 0
    if s.tricks_done == TRICKS:
        if rules.last_trick_mode == LAST_EXTRA:
            points += rules.last_trick_value
        elif not (s.tricks_won[winner] == TRICKS and not rules.capot_keeps_last_trick):
            points = rules.last_trick_value
    if points:
        add_play_points(s, winner, points, rules)
    s.leader = winner
    return winner


cdef struct DealScore:
    int decl[2]
    int repik[2]
    int pik                      # elder made pik
    int play[2]
    int tricks[2]
    int majority[2]              # леза / the cards
    int capot[2]
    int open_capot_penalty[2]    # received from a failed announcement
    int total[2]


cdef inline void finish_deal(const PlayState *s, const DeclResult *decl, const PiquetRules *rules,
                             DealScore *out) noexcept nogil:
    cdef int p
    memset(out, 0, sizeof(DealScore))
    out.pik = s.pik
    for p in range(2):
        out.decl[p] = decl.total[p]
        out.repik[p] = decl.repik[p]
        out.play[p] = s.points[p]
        out.tricks[p] = s.tricks_won[p]
        if s.tricks_won[p] == TRICKS:
            out.capot[p] = rules.open_capot_bonus if s.announced == p else rules.capot_bonus
        elif s.tricks_won[p] * 2 > TRICKS:
            out.majority[p] = rules.majority_bonus
    if s.announced >= 0 and s.tricks_won[s.announced] != TRICKS:
        out.open_capot_penalty[1 - s.announced] = rules.open_capot_fail_penalty
    for p in range(2):
        out.total[p] = (out.decl[p] + out.repik[p] * rules.repik_bonus + out.play[p] + out.majority[p]
                        + out.capot[p] + out.open_capot_penalty[p])
    out.total[ELDER] += out.pik * rules.pik_bonus


# ---------------------------------------------------------------------------------------------
# The partie

cdef enum:
    MAX_PARTIE_DEALS = 16

cdef struct PartieResult:
    int deals_used
    int net[2]                   # what each player wins (net[0] = -net[1])
    int korolik_records[2]       # sum of each player's королик records (korolik match)
    int columns[2]               # sum of deal records (korolik) or raw totals (rubicon)
    int skvoznaya                # 1 if the loser wrote no deal record at all (korolik)
    int rubicon                  # 1 if the loser stayed under the threshold (rubicon)
    int carried_multiplier       # a рефет in the last королик carries its multiplier on
    int finished


cdef inline int round10(int x, int mode) noexcept nogil:
    if mode == ROUND_CEIL:
        return (x + 9) // 10 * 10
    return (x + 5) // 10 * 10


cdef inline void settle_partie(const int *totals_a, const int *totals_b, int n, const PiquetRules *rules,
                               PartieResult *out) noexcept nogil:
    """Settle a partie from the raw deal totals of players A and B, in order. Uses as many deals
    as the partie takes (out.deals_used); out.finished = 0 if n deals were not enough."""
    cdef int i, k = 0, in_korolik = 0, multiplier = 1, next_multiplier = 1
    cdef int kor[2]
    cdef int wrote[2]
    cdef int diff, w, close, p
    memset(out, 0, sizeof(PartieResult))
    out.carried_multiplier = 1
    wrote[0] = 0
    wrote[1] = 0
    if rules.match == MATCH_RUBICON:
        for i in range(n):
            out.columns[0] += totals_a[i]
            out.columns[1] += totals_b[i]
            out.deals_used = i + 1
            # six deals; after a tie each player deals once more; a second tie is a draw
            if (i + 1 == rules.rubicon_deals and out.columns[0] != out.columns[1]) or i + 1 == rules.rubicon_deals + 2:
                out.finished = 1
                break
        if not out.finished:
            return
        if out.columns[0] != out.columns[1]:
            w = 0 if out.columns[0] > out.columns[1] else 1
            if out.columns[1 - w] >= rules.rubicon_threshold:
                diff = out.columns[w] - out.columns[1 - w] + 100
            else:
                diff = out.columns[w] + out.columns[1 - w] + 100
                out.rubicon = 1
            out.net[w] = diff
            out.net[1 - w] = -diff
        return
    kor[0] = 0
    kor[1] = 0
    for i in range(n):
        close = 0
        if totals_a[i] == totals_b[i]:             # рефет: ends the королик, doubles the next
            close = 1
            next_multiplier = rules.refet_multiplier
        else:
            w = 0 if totals_a[i] > totals_b[i] else 1
            diff = (totals_a[i] - totals_b[i]) if w == 0 else (totals_b[i] - totals_a[i])
            kor[w] += diff * multiplier
            out.columns[w] += diff * multiplier
            wrote[w] = 1
            in_korolik += 1
            if in_korolik == 2:
                close = 1
        out.deals_used = i + 1
        if close:
            if kor[0] != kor[1]:
                w = 0 if kor[0] > kor[1] else 1
                out.korolik_records[w] += round10(kor[w] - kor[1 - w] + 100, rules.rounding)
            kor[0] = 0
            kor[1] = 0
            in_korolik = 0
            multiplier = next_multiplier
            next_multiplier = 1
            k += 1
            if k == rules.koroliks_per_partie:
                out.finished = 1
                out.carried_multiplier = multiplier
                break
    if not out.finished:
        return
    for p in range(2):
        out.net[p] = out.korolik_records[p] - out.korolik_records[1 - p]
    if out.columns[0] != out.columns[1]:
        w = 0 if out.columns[0] > out.columns[1] else 1
        diff = round10(out.columns[w] - out.columns[1 - w] + 100, rules.rounding)
        if not wrote[1 - w]:
            out.skvoznaya = 1
            diff += rules.skvoznaya_bonus
        out.net[w] += diff
        out.net[1 - w] -= diff
