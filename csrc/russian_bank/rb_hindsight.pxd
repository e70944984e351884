# Russian Bank: blind play of SOLO(∞, none) by hindsight optimisation (§9.2, §10.6 policy 4).
#
# What a blind player knows. In SOLO(∞, none) turning the hand round costs nothing (k = ∞, no
# forced plays), so a blind player can look at every hand card before his first move and then
# bring up any of them whenever he likes: the game is the open-pool game of F1 (§9.3), and all
# he does not know is the order of the face-down stock cards below the top. Which cards they are
# he knows by elimination (every other card is in sight).
#
# The policy (hindsight optimisation, "determinized Monte Carlo"): at each position, draw S
# orders of the hidden stock cards; in each, decide the position after every candidate move with
# the thoughtful solver (budget B); play the move that wins in the most orders. The same orders
# serve every candidate (a paired comparison). Ties go to the move that leaves fewer stock cards
# and more foundation cards before anything else goes home (after the repetition rule below),
# then to the first in move order.
# Candidates are the moves of the D3 normal form (§10.5) and D1-safe foundation plays are made
# at once, as in the thoughtful search: both hold in every order of the stock, so they hold for
# a player who does not know it.
#
# What the policy may look at: the position (houses, foundations, pool, stock count), the stock
# top, the set of hidden cards (sorted before it is shuffled, so their true order never reaches
# the draws) and its own random stream. The true order is used only to play the chosen move
# (which turns up the next stock card when the top leaves) and to count how often a successor
# has been met in the game: among the moves that win equally often, the one to the position met
# least often is played (so a move that led nowhere is undone and another one tried, rather than
# repeated), then the one furthest on. A successor whose stock moved has fewer stock cards than
# every position met before, so that count never depends on a hidden card either.
#
# End of a game: WIN (stock and pool empty); STUCK (no move; or every candidate lost or ran out
# of budget in every order: the policy resigns, counted apart as `resigned`); CYCLE (the game
# came to a position for the HS_REPEATS-th time, or reached HS_MAX_MOVES moves).

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, free

from bitboard cimport popcount64, lowest_bit64
from rng cimport Rng, rng_partial_shuffle
from rb_rules cimport DECK_STOCK
from rb_solo cimport *
from rb_blind cimport BL_RUNNING, BL_WIN, BL_STUCK, BL_CYCLE

cdef enum:
    HS_MAX_MOVES = 2000
    HS_REPEATS = 20              # the player explores what it can reach before it gives up: with 3 it gave
                                 # up on 6 of 120 layouts that were still won (it won 133 of 200, now 145)
    HS_MAX_CANDIDATES = 4096     # more D3 moves than this are never met (a cut list is flagged)

cdef struct Hindsight:
    int samples                  # S: stock orders drawn per decision
    int end                      # BL_WIN, BL_STUCK or BL_CYCLE
    int resigned                 # STUCK because no candidate won in any order
    int moves                    # moves played (a D3 move with its pool cards counts as one)
    int decisions                # positions where orders were drawn (more than one candidate)
    int truncated                # a candidate list was cut (HS_MAX_CANDIDATES): flagged, never met
    int64_t solves
    int64_t nodes
    uint32_t *played             # optional: the moves played (HS_MAX_MOVES), and the stock count
    uint8_t *played_stock        # before each


cdef inline int hs_find(const uint64_t *seen, int n, const uint64_t *key) noexcept nogil:
    """The index of key among the n positions met so far, or -1."""
    cdef int i
    for i in range(n):
        if seen[3 * i] == key[0] and seen[3 * i + 1] == key[1] and seen[3 * i + 2] == key[2]:
            return i
    return -1


cdef inline void hs_draw_stock(SoloCtx *sx, const SoloCtx *x, int n, const uint8_t *hidden, Rng *rng) noexcept nogil:
    """sx's stock: the visible top of x's, below it the hidden cards (given sorted) in random order."""
    cdef int i
    for i in range(n - 1):
        sx.stock[i] = hidden[i]
    if n > 2:
        rng_partial_shuffle(rng, sx.stock, n - 1, n - 2)
    sx.stock[n - 1] = x.stock[n - 1]


cdef inline int hindsight_play(SoloCtx *x, SoloCtx *sx, Solo *s, Rng *rng, Hindsight *h) noexcept nogil:
    """Play the open-pool position s of x (the true deal) to its end with the hindsight policy;
    sx is a second context with the same turning order whose stock is redrawn for every sample
    and whose budget and table serve the samples' searches. Returns 0, or -1 when memory runs
    out (the game is then incomplete)."""
    # one block: the positions met (keys, times met), the candidates (move, wins, progress, times met)
    cdef uint64_t *seen = <uint64_t *>malloc(3 * (HS_MAX_MOVES + 1) * sizeof(uint64_t)
                                             + (HS_MAX_MOVES + 1 + 4 * HS_MAX_CANDIDATES) * sizeof(int))
    cdef int *met = <int *>(seen + 3 * (HS_MAX_MOVES + 1))
    cdef uint32_t *cand = <uint32_t *>(met + HS_MAX_MOVES + 1)
    cdef int *score = <int *>(cand + HS_MAX_CANDIDATES)
    cdef int *rank = score + HS_MAX_CANDIDATES
    cdef int *again = rank + HS_MAX_CANDIDATES
    cdef uint8_t hidden[DECK_STOCK]
    cdef uint64_t key[3]
    cdef uint64_t below
    cdef Solo t
    cdef int n_seen = 0, n, m, j, i, best, draws, c
    h.end = BL_RUNNING
    h.resigned = h.moves = h.decisions = h.truncated = 0
    h.solves = h.nodes = 0
    if seen == NULL:
        return -1
    while h.end == BL_RUNNING:
        if solo_normalize(x, s) == RES_WIN:
            h.end = BL_WIN
            break
        solo_key(x, s, key)
        i = hs_find(seen, n_seen, key)
        if i < 0:
            i = n_seen
            seen[3 * i] = key[0]
            seen[3 * i + 1] = key[1]
            seen[3 * i + 2] = key[2]
            met[i] = 0
            n_seen += 1
        met[i] += 1
        if met[i] >= HS_REPEATS or h.moves >= HS_MAX_MOVES:
            h.end = BL_CYCLE
            break
        n = solo_moves(x, s, 0, x.scratch)
        if n == 0:
            h.end = BL_STUCK
            break
        m = min(n, HS_MAX_CANDIDATES)
        if n > m:
            h.truncated = 1
        for j in range(m):
            cand[j] = x.scratch[j]
            score[j] = 0
            t = s[0]
            solo_apply(x, &t, cand[j])
            rank[j] = progress_rank(&t)       # before anything goes home: no hidden card seen
            again[j] = 0
            if solo_normalize(x, &t) != RES_WIN:
                solo_key(x, &t, key)
                i = hs_find(seen, n_seen, key)
                again[j] = met[i] if i >= 0 else 0
        best = 0
        if m > 1:
            h.decisions += 1
            # the hidden cards as a set: the kinds of the stock below its top, in kind order
            below = 0
            for i in range(s.stock_n - 1):
                below |= <uint64_t>1 << x.stock[i]
            i = 0
            while below:
                c = lowest_bit64(below)
                below &= below - 1
                hidden[i] = c
                i += 1
            draws = h.samples if s.stock_n > 2 else 1      # one hidden card or none: one order
            for i in range(draws):
                if s.stock_n > 0:
                    hs_draw_stock(sx, x, s.stock_n, hidden, rng)
                for j in range(m):
                    t = s[0]
                    solo_apply(sx, &t, cand[j])
                    if solo_search(sx, &t) == RES_WIN:
                        score[j] += 1
                    h.solves += 1
                    h.nodes += sx.nodes
            for j in range(1, m):
                if score[j] != score[best]:
                    if score[j] > score[best]:
                        best = j
                elif again[j] < again[best] or (again[j] == again[best] and rank[j] < rank[best]):
                    best = j
            if score[best] == 0:
                h.end = BL_STUCK
                h.resigned = 1
                break
        if h.played != NULL:
            h.played[h.moves] = cand[best]
            h.played_stock[h.moves] = s.stock_n
        solo_apply(x, s, cand[best])
        h.moves += 1
    free(seen)
    return 0


cdef inline int hindsight_cards_left(const Solo *s) noexcept nogil:
    return s.stock_n + popcount64(s.pool)
