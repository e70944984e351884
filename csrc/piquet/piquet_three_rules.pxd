# Three-handed piquet as numbers (shared/rules/piquet.md §10, §12 ru_three, §15 item 16): the
# declarations among three (a tied best holding scores for nobody), trick play with three hands,
# pik/repik at 20, леза, capot, and the finishing order of a game to a target.
#
# Seats of one deal: 0 = dealer (D), 1 = first leader (L, the dealer's left), 2 = third (R).
# Play goes to the left: L, R, D, so the seat after p is (p + 1) % 3.
# The declarations are evaluated with the two-handed tables (piquet_rules.pxd: build_tables,
# evaluate_hand on the same uint32 masks); only the comparison among three is new here.

from libc.string cimport memset

from bitboard cimport mask32, popcount32, lowest_bit32, highest_bit32
from piquet_rules cimport (PiquetRules, SuitTables, HandEval, N_CATEGORIES, CARTE_BLANCHE, POINT, SEQUENCES,
                           SETS, legal_follows)

cdef enum:
    PLAYERS3 = 3
    HAND3 = 10
    TALON3 = 2
    TRICKS3 = 10
    DEALER = 0
    FIRST = 1                    # the first leader
    THIRD = 2
    NOBODY3 = 3                  # "category won by" index when nobody scores

cdef enum:  # option values
    TIE_NOBODY = 0               # category_tie: a tied best holding scores for nobody
    TIE_TIED_SCORE = 1           #               every tied best holder scores
    PIK_FIRST_LEADER = 0         # pik_seat
    PIK_ANY = 1
    WINDOW_UNTIL_ANY_OPPONENT = 0    # pik_window: closes when either opponent scores in play
    WINDOW_WHOLE_PLAY = 1
    LEZA_UNIQUE_TOP = 0          # leza: more tricks than each other player
    LEZA_MAJORITY = 1            #       more than half of the tricks (6+)
    SURVIVORS_TWO_HANDED = 0     # survivors: the two left play two-handed deals
    SURVIVORS_STOP = 1           #            the game stops; the others are ranked by total


cdef struct ThreeRules:
    PiquetRules base             # declaration values (sequences, point tiebreak, carte blanche, sets)
    int dealer_counts            # bit k set: the dealer may exchange k cards
    int category_tie
    int repik_threshold
    int repik_bonus
    int pik_threshold
    int pik_bonus
    int pik_seat
    int pik_window
    int last_trick_value         # the 10th trick is worth this in all
    int capot_keeps_last_trick   # 0: in a capot the last trick counts as an ordinary one
    int leza
    int leza_bonus
    int capot_bonus
    int target
    int survivors
    int stake


cdef struct DeclThree:
    int score[PLAYERS3][N_CATEGORIES]
    int total[PLAYERS3]
    int repik[PLAYERS3]
    int winner[N_CATEGORIES]     # seat, or NOBODY3


cdef inline void resolve_category(DeclThree *res, int category, const int *key, const int *value,
                                  const ThreeRules *rules) noexcept nogil:
    """The unique best key scores its holder's value; a tie at the top scores for nobody (or,
    with category_tie = tied_score, for every tied holder). Key 0 = no holding."""
    cdef int p, best = 0, n_best = 0, who = NOBODY3
    for p in range(PLAYERS3):
        if key[p] > best:
            best = key[p]
            n_best = 1
            who = p
        elif key[p] == best and best > 0:
            n_best += 1
    res.winner[category] = who if n_best == 1 else NOBODY3
    if n_best == 1:
        res.score[who][category] = value[who]
    elif n_best > 1 and rules.category_tie == TIE_TIED_SCORE:
        for p in range(PLAYERS3):
            if key[p] == best:
                res.score[p][category] = value[p]


cdef inline void score_declarations_three(const HandEval *ev, const int *cb, const ThreeRules *rules,
                                          DeclThree *res) noexcept nogil:
    """Full declarations of three final hands; carte blanche points come from the caller."""
    cdef int p, c, others
    cdef int key[PLAYERS3]
    cdef int value[PLAYERS3]
    memset(res, 0, sizeof(DeclThree))
    res.winner[CARTE_BLANCHE] = NOBODY3
    for p in range(PLAYERS3):
        res.score[p][CARTE_BLANCHE] = cb[p]
        if cb[p]:
            res.winner[CARTE_BLANCHE] = p if res.winner[CARTE_BLANCHE] == NOBODY3 else NOBODY3
    for p in range(PLAYERS3):
        key[p] = ev[p].point_key
        value[p] = ev[p].point_len
    resolve_category(res, POINT, key, value, rules)
    for p in range(PLAYERS3):
        key[p] = ev[p].seq_key
        value[p] = ev[p].seq_score
    resolve_category(res, SEQUENCES, key, value, rules)
    for p in range(PLAYERS3):
        key[p] = ev[p].set_key
        value[p] = ev[p].set_score
    resolve_category(res, SETS, key, value, rules)
    for p in range(PLAYERS3):
        for c in range(N_CATEGORIES):
            res.total[p] += res.score[p][c]
    for p in range(PLAYERS3):
        others = res.total[(p + 1) % 3] + res.total[(p + 2) % 3]
        res.repik[p] = res.total[p] >= rules.repik_threshold and others == 0


cdef inline int pik_candidate(const DeclThree *d, const ThreeRules *rules) noexcept nogil:
    """The one player who may still pik in play (both others declared nothing and he has no
    repik), or -1. By default only the first leader; with pik_seat = any, the player whose two
    opponents declared nothing (the first leader when nobody declared anything)."""
    cdef int p
    if rules.pik_seat == PIK_FIRST_LEADER:
        p = FIRST
    elif d.total[DEALER] == 0 and d.total[FIRST] == 0 and d.total[THIRD] == 0:
        p = FIRST
    else:
        p = 0
        while p < PLAYERS3 and d.total[p] == 0:
            p += 1
    if d.total[(p + 1) % 3] != 0 or d.total[(p + 2) % 3] != 0 or d.repik[p]:
        return -1
    return p


# ---------------------------------------------------------------------------------------------
# Trick play

cdef struct ThreeState:
    mask32 hand[PLAYERS3]
    int leader
    int tricks_done
    int tricks_won[PLAYERS3]
    int points[PLAYERS3]         # play points so far (leads, tricks, last trick)
    int pik_player               # -1: no pik possible this deal
    int pik_count                # his running count while the window is open
    int window_open              # until_any_opponent_scores: no opponent has scored in play yet
    int pik


cdef inline void start_play_three(ThreeState *s, const mask32 *hands, const DeclThree *d,
                                  const ThreeRules *rules) noexcept nogil:
    cdef int p
    memset(s, 0, sizeof(ThreeState))
    for p in range(PLAYERS3):
        s.hand[p] = hands[p]
    s.leader = FIRST
    s.pik_player = pik_candidate(d, rules)
    s.pik_count = d.total[s.pik_player] if s.pik_player >= 0 else 0
    s.window_open = 1


cdef inline void add_points_three(ThreeState *s, int player, int points, const ThreeRules *rules) noexcept nogil:
    s.points[player] += points
    if s.pik_player < 0 or s.pik:
        return
    if player != s.pik_player:
        s.window_open = 0
    elif s.window_open or rules.pik_window == WINDOW_WHOLE_PLAY:
        s.pik_count += points
        if s.pik_count >= rules.pik_threshold:
            s.pik = 1


cdef inline int trick_winner(const int *cards, int leader) noexcept nogil:
    """cards[i] is played by seat (leader + i) % 3; the highest card of the suit led wins."""
    cdef int i, best = 0
    for i in range(1, PLAYERS3):
        if (cards[i] >> 3) == (cards[0] >> 3) and cards[i] > cards[best]:
            best = i
    return (leader + best) % 3


cdef inline int play_trick_three(ThreeState *s, const int *cards, const ThreeRules *rules) noexcept nogil:
    """Play one trick (cards legal, in play order from the leader); returns the winner's seat."""
    cdef int i, winner, points
    for i in range(PLAYERS3):
        s.hand[(s.leader + i) % 3] &= ~((<mask32>1) << cards[i])
    add_points_three(s, s.leader, 1, rules)
    winner = trick_winner(cards, s.leader)
    s.tricks_done += 1
    s.tricks_won[winner] += 1
    points = 1
    if s.tricks_done == TRICKS3:
        if s.tricks_won[winner] != TRICKS3 or rules.capot_keeps_last_trick:
            points = rules.last_trick_value
    add_points_three(s, winner, points, rules)
    s.leader = winner
    return winner


cdef inline mask32 legal_cards(mask32 hand, int n_played, const int *trick) noexcept nogil:
    return hand if n_played == 0 else legal_follows(hand, trick[0])


cdef struct DealThree:
    int decl[PLAYERS3]
    int repik[PLAYERS3]
    int pik[PLAYERS3]
    int play[PLAYERS3]
    int tricks[PLAYERS3]
    int leza[PLAYERS3]
    int capot[PLAYERS3]
    int total[PLAYERS3]


cdef inline int end_bonus(const int *tricks, int p, const ThreeRules *rules, int *leza, int *capot) noexcept nogil:
    """леза / capot of seat p from the trick counts; returns their sum."""
    cdef int q, top = 1
    leza[0] = 0
    capot[0] = 0
    if tricks[p] == TRICKS3:
        capot[0] = rules.capot_bonus
    elif rules.leza == LEZA_MAJORITY:
        if tricks[p] * 2 > TRICKS3:
            leza[0] = rules.leza_bonus
    else:
        for q in range(PLAYERS3):
            if q != p and tricks[q] >= tricks[p]:
                top = 0
        if top:
            leza[0] = rules.leza_bonus
    return leza[0] + capot[0]


cdef inline void finish_deal_three(const ThreeState *s, const DeclThree *d, const ThreeRules *rules,
                                   DealThree *out) noexcept nogil:
    cdef int p
    memset(out, 0, sizeof(DealThree))
    for p in range(PLAYERS3):
        out.decl[p] = d.total[p]
        out.repik[p] = d.repik[p]
        out.pik[p] = s.pik and s.pik_player == p
        out.play[p] = s.points[p]
        out.tricks[p] = s.tricks_won[p]
        end_bonus(s.tricks_won, p, rules, &out.leza[p], &out.capot[p])
        out.total[p] = (out.decl[p] + out.repik[p] * rules.repik_bonus + out.pik[p] * rules.pik_bonus
                        + out.play[p] + out.leza[p] + out.capot[p])


# ---------------------------------------------------------------------------------------------
# The game to a target: who finishes when

cdef inline int rank_crossers(const int *totals, const int *alive, int leader_seat_order_first,
                              int target, int *order) noexcept nogil:
    """Players still in the game whose total reached the target, best total first (equal totals:
    the one earlier in play order from leader_seat_order_first). Returns how many."""
    cdef int n = 0, i, j, p, tmp
    for i in range(PLAYERS3):
        p = (leader_seat_order_first + i) % 3
        if alive[p] and totals[p] >= target:
            order[n] = p
            n += 1
    for i in range(1, n):            # insertion sort, stable: play order breaks ties
        j = i
        while j > 0 and totals[order[j]] > totals[order[j - 1]]:
            tmp = order[j]
            order[j] = order[j - 1]
            order[j - 1] = tmp
            j -= 1
    return n
