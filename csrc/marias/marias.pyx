# Slovak mariáš (three players) — deal, contract, doubling, play and settlement.
#
# Rules card (shared/rules/marias.md; the rules themselves are in marias_rules.pxd):
#   Deck     32 German cards as S H D C x 7 8 9 J Q K T A; suit games rank A T K Q J 9 8 7,
#            Malý/Veľký A K Q J T 9 8 7. A and T are 10 card points, the last trick 10.
#   Deal     protocol V: 7 to the forehand, 5 + 5, 5 more to the forehand, 5 + 5 (12/10/10).
#            The forehand chooses trumps from the first 7 cards (or blind, z lidu), takes the
#            rest and discards 2 (no A/T, not the trump indicator; trumps allowed by default).
#            Protocol L (§3.6, option): 5-5-5, talon 2, 5-5-5; an auction on the ladder Hra <
#            Sedma a hra < (in hearts) < Stovka < Sto a sedem < Stovka / Sto a sedem in hearts < Malý
#            < Veľký; the winner takes the talon, discards and names a contract at or above the rung
#            won (trumps free); the forehand leads a suit game, the actor Malý/Veľký.
#   Flavour  FARBA < MALÝ < VEĽKÝ; the others may take over with a higher flavour by picking up
#            the talon and discarding 2. A final FARBA is Hra, Sedma a hra, Stovka or Sto a sedem.
#   Doubling §4.4: defenders first (sedma proti in round 1), the actor answers, cap max_doublings.
#   Play     10 tricks, the actor leads; follow, beat, trump, over-trump; an announced seven is
#            kept back while another card is legal. Hlasy (K+Q) 20, 40 in trumps, declared
#            automatically. Malý stops when the actor wins a trick, Veľký when he loses one.
#   Money    settle_outcome() in marias_rules.pxd (§6.3), in units of the base stake B.
#
# Strategies, chosen by name per decision: card play `random`, `heuristic` (simple rules: draw
# trumps with the top trump, cash aces, win cheaply, smear A/T on a partner's sure trick, throw
# the cheapest card), `double_dummy` or `pimc`, per side; trump choice `longest` (longest suit of
# the first 7, ties by A/T/K/Q count, then random), `z_lidu` or, in the forced experiment,
# `oracle` (every suit of the 12 cards tried); discard `heuristic` (voids) or `low_cards`;
# contract `heuristic`, `bold` or `cautious` (gates in choose_contract); doubling `none` or
# `heuristic` (raises and re-raises by hand strength up to the cap). Streams: 0 deals, 1 card
# play, 2 bidding decisions (compare: 1 A, 2 bidding, 3 B). Card play and the protocol-V discard
# may also be a user's Python strategy ("module:Class"): the kernel takes the GIL only for those
# decisions (python_card, python_discard; the views are built in analyzer/games/marias.py).
#
# The Stovka experiment (§8): `forced` mode plays every qualifying deal as Stovka (no takeover,
# no doublings) and, on the same play, settles it as Hra too; when the actor holds the trump 7 the
# deal is played a second time with the seven guard and settled as Sto a sedem and as Sedma a hra.
# `natural` mode plays the whole protocol with the heuristic bidders.
#
# Duplicate comparison (compare_shard): each deal of the natural protocol is bid once and played
# twice, card play A as the actor against B as both defenders and then B against A; the bidding
# draws only from its own stream and A and B from streams of their own.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset
from cpython.ref cimport PyObject

from bitboard cimport mask32, popcount32, lowest_bit32, highest_bit32, clear_lowest32, rank_count32
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from marias_rules cimport *
from marias_search cimport *

from analyzer._core.core import given_rows

cnp.import_array()

cdef enum:
    ALL_CARDS_MASK = 0xFFFFFFFF
    RANK_COLUMN = 0x01010101
    STRAT_RANDOM = 0
    STRAT_HEURISTIC = 1
    STRAT_DOUBLE_DUMMY = 2
    STRAT_PIMC = 3
    STRAT_PYTHON = 4               # a Python strategy: 4 + its slot (0 actor_play / a_play, 1 defender_play / b_play)
    PIMC_SAMPLES = 20              # sampled deals per PIMC decision
    TAU_LONGEST = 0
    TAU_Z_LIDU = 1
    TAU_ORACLE = 2                 # forced mode: every suit of the 12 cards tried (§8.1 step 2)
    DISCARD_HEURISTIC = 0          # short side suits first (keeps length, makes voids)
    DISCARD_LOW_CARDS = 1          # the lowest cards first (keeps the high cards)
    DISCARD_PYTHON = 2             # a Python strategy's choose_discard (callback slot 2), protocol V
    CONTRACT_HEURISTIC = 0
    CONTRACT_BOLD = 1
    CONTRACT_CAUTIOUS = 2
    MODE_FORCED = 0
    MODE_NATURAL = 1
    FILTER_ANY_HLAS = 0
    FILTER_TRUMP_HLAS = 1
    FILTER_MARIASEK = 2            # >= 4 trumps and >= 1 hlas
    FILTER_ALL = 3
    DOUBLE_NONE = 0
    DOUBLE_HEURISTIC = 1
    PROTOCOL_V = 0
    PROTOCOL_L = 1
    N_RUNGS = 9                    # the ladder of protocol L (§3.6): rungs 0..8
    BID_PASS = 0                   # auction trace codes: 0 pass, 1..8 the rung named, 9 hold
    BID_HOLD = 9
    MAX_TRACE = 32
    FLAVOUR_FARBA = 0
    FLAVOUR_MALY = 1
    FLAVOUR_VELKY = 2
    ERR_NONE = 0
    ERR_NOT_IN_HAND = 1
    ERR_ILLEGAL = 2
    COUNT_BINS = 20                # counted points / 10
    S_RANGE = 400                  # |S| per defender in the forced experiment stays below this
    N_HONOURS = 32                 # trump A, T, K, Q, 7 held (bit mask)
    N_HOLDINGS = 10

HOLDING_NAMES = ("trump hlas", "trump 7", "trump A", "trump T", "trump hlas and >= 5 trumps",
                 "trump hlas and >= 4 trumps", "any hlas and >= 4 trumps",
                 "trump hlas, trump A and >= 5 trumps", "zolik sto gate", "trumps are hearts")
GAME_NAMES = ("hra", "sedma", "stovka", "sto_a_sedem", "maly", "velky")
SEVEN_NAMES = ("none", "won_actor", "killed_actor", "won_def", "killed_def")
STRATEGIES = ("random", "heuristic", "double_dummy", "pimc")
FILTER_NAMES = ("any_hlas", "trump_hlas", "mariasek", "all")

# Malý/Veľký order: per 8-bit lane, suit-game position -> betl position and back.
cdef uint8_t TO_BETL_POS[8]
TO_BETL_POS[:] = [0, 1, 2, 4, 5, 6, 3, 7]
cdef uint8_t FROM_BETL_POS[8]
FROM_BETL_POS[:] = [0, 1, 2, 6, 3, 4, 5, 7]


cdef inline mask32 remap(mask32 m, const uint8_t *table) noexcept nogil:
    cdef mask32 out = 0
    cdef int b
    while m:
        b = lowest_bit32(m)
        out |= (<mask32>1) << ((b & ~7) | table[b & 7])
        m = clear_lowest32(m)
    return out


cdef inline int remap_card(int card, const uint8_t *table) noexcept nogil:
    return (card & ~7) | table[card & 7]


cdef struct Rules:
    SettleRules settle
    int talon_allows_trumps
    int allow_hopeless_stovka
    int hlas_needs_trick
    int queen_first
    int max_doublings
    int allow_proti
    int allow_z_lidu
    int flek_per_defender
    int proti_only_announcer
    int strat[2]                   # card play: [actor, defenders]
    int trump_policy
    int discard_policy
    int contract_policy
    int mode
    int filter
    int doubling
    int protocol
    PyObject *python               # callback(slot, data) -> card or talon mask for Python strategies, or NULL


cdef struct Play:
    mask32 hand[N_SEATS]
    mask32 start[N_SEATS]
    mask32 played
    mask32 talon
    int actor
    int leader
    int trump
    int game
    int betl                       # hands are in the Malý/Veľký encoding
    int seven_holder               # -1: nobody announced a seven
    int queen_first
    int n_played
    uint8_t log[30]
    uint8_t seat_log[30]
    mask32 legal_log[30]
    int trick_winner[N_TRICKS]
    int n_tricks
    int tricks[N_SEATS]
    int cp[N_SEATS]
    int declared[N_SEATS]
    int first_hlas[N_SEATS]
    int seven
    int voids[N_SEATS]             # suits a seat has shown out of (bit per suit), for PIMC
    Solver *solver                 # for double_dummy and pimc play
    PyObject *python               # the Python strategies' callback (Rules.python)
    int k[2][N_PARTS]              # the doublings with each defender (public; for the Python view)
    mask32 laid_down[N_SEATS]      # Bidding.laid_down, standard encoding (for the Python view)


cdef inline int lowest_rank_card(mask32 m) noexcept nogil:
    """The lowest-ranked card of a non-empty set (any suit)."""
    cdef int r
    cdef mask32 col
    for r in range(8):
        col = m & ((<mask32>RANK_COLUMN) << r)
        if col:
            return lowest_bit32(col)
    return lowest_bit32(m)


cdef inline int highest_rank_card(mask32 m) noexcept nogil:
    cdef int r
    cdef mask32 col
    for r in range(7, -1, -1):
        col = m & ((<mask32>RANK_COLUMN) << r)
        if col:
            return lowest_bit32(col)
    return lowest_bit32(m)


cdef inline int random_card(mask32 m, Rng *rng) noexcept nogil:
    cdef int i = <int>rng_below(rng, <uint32_t>popcount32(m))
    while i > 0:
        m = clear_lowest32(m)
        i -= 1
    return lowest_bit32(m)


cdef inline mask32 trump_lane(int trump) noexcept nogil:
    return suit_mask(trump) if trump != NO_TRUMP else 0


cdef inline int is_boss(int card, mask32 outstanding) noexcept nogil:
    return (outstanding & suit_mask(card_suit(card)) & above(card)) == 0


cdef inline int cheapest(mask32 legal, int trump) noexcept nogil:
    """Throw-away card: not an A/T, not a trump if avoidable, lowest rank."""
    cdef mask32 c = legal & ~(<mask32>POINT_CARDS) & ~trump_lane(trump)
    if not c:
        c = legal & ~(<mask32>POINT_CARDS)
    if not c:
        c = legal & ~trump_lane(trump)
    if not c:
        c = legal
    return lowest_rank_card(c)


cdef inline int smear(mask32 legal, int trump) noexcept nogil:
    """Give points to a trick the own side wins: a side T, then a side A, else the cheapest."""
    cdef mask32 side = legal & ~trump_lane(trump)
    cdef mask32 tens = side & ((<mask32>RANK_COLUMN) << RT)
    if tens:
        return lowest_bit32(tens)
    if side & ACES:
        return lowest_bit32(side & ACES)
    return cheapest(legal, trump)


cdef inline mask32 beating(mask32 legal, int win, int trump) noexcept nogil:
    cdef mask32 out = 0, m = legal
    cdef int c
    while m:
        c = lowest_bit32(m)
        if beats(c, win, trump):
            out |= (<mask32>1) << c
        m = clear_lowest32(m)
    return out


cdef int heuristic_suit(Play *p, int seat, mask32 legal) noexcept nogil:
    cdef int trump = p.trump, n = p.n_played % 3, c, win_i, win_card, win_seat
    cdef int my_side = seat == p.actor
    cdef mask32 out = ALL_CARDS_MASK & ~p.played & ~p.hand[seat]
    cdef mask32 m, winners, trumps, out_trumps, boss
    if seat == p.actor:
        out &= ~p.talon
    if n == 0:
        trumps = legal & trump_lane(trump)
        out_trumps = out & trump_lane(trump)
        if my_side and trumps and out_trumps and highest_bit32(trumps) > highest_bit32(out_trumps):
            return highest_bit32(trumps)                 # draw trumps with the top trump
        m = legal & ACES & ~trump_lane(trump)
        if m:
            return lowest_bit32(m)                       # cash a side ace
        boss = 0
        m = legal & ~trump_lane(trump)
        while m:
            c = lowest_bit32(m)
            if is_boss(c, out) and out & suit_mask(card_suit(c)):
                boss |= (<mask32>1) << c
            m = clear_lowest32(m)
        if boss:
            return highest_rank_card(boss)
        return cheapest(legal, trump)
    win_i = trick_winner_index(&p.log[p.n_played - n], n, trump)
    win_card = p.log[p.n_played - n + win_i]
    win_seat = p.seat_log[p.n_played - n + win_i]
    winners = beating(legal, win_card, trump)
    if n == 2:                                           # last to play
        if (win_seat == p.actor) == my_side:
            return smear(legal, trump)
        if winners:
            if winners & POINT_CARDS:
                return highest_rank_card(winners & POINT_CARDS)
            return lowest_rank_card(winners)
        return cheapest(legal, trump)
    if (win_seat == p.actor) == my_side:                 # partner led
        if is_boss(win_card, out) and (card_suit(win_card) == trump or not out & trump_lane(trump)):
            return smear(legal, trump)
        return cheapest(legal, trump)
    if winners:
        boss = 0
        m = winners
        while m:
            c = lowest_bit32(m)
            if is_boss(c, out):
                boss |= (<mask32>1) << c
            m = clear_lowest32(m)
        if boss:
            return lowest_rank_card(boss)
        return lowest_rank_card(winners)
    return cheapest(legal, trump)


cdef int heuristic_betl(Play *p, int seat, mask32 legal) noexcept nogil:
    cdef int n = p.n_played % 3, win_card, c
    cdef mask32 winners, under, m
    if n == 0:
        if p.game == GAME_VELKY and seat == p.actor:
            return highest_rank_card(legal)
        return lowest_rank_card(legal)
    win_card = p.log[p.n_played - n + trick_winner_index(&p.log[p.n_played - n], n, NO_TRUMP)]
    winners = beating(legal, win_card, NO_TRUMP)
    under = legal & ~winners
    if seat == p.actor:
        if p.game == GAME_MALY:
            return highest_rank_card(under) if under else lowest_rank_card(legal)
        return highest_rank_card(legal)
    if p.game == GAME_MALY:                              # defenders want the actor to win one
        return lowest_rank_card(under) if under else lowest_rank_card(legal)
    return lowest_rank_card(winners) if winners else lowest_rank_card(legal)


cdef void state_from_play(const Play *p, DDState *d) noexcept nogil:
    cdef int s, i, n = p.n_played % 3
    for s in range(N_SEATS):
        d.hand[s] = p.hand[s]
    d.trump = p.trump
    d.actor = p.actor
    d.seven_holder = p.seven_holder
    d.queen_first = p.queen_first
    d.goal = goal_of(p.game)
    d.n_trick = n
    for i in range(n):
        d.trick[i] = p.log[p.n_played - n + i]
        d.trick_seat[i] = p.seat_log[p.n_played - n + i]
    d.leader = p.leader
    d.tricks_left = N_TRICKS - p.n_tricks


cdef inline int keeps_value(Solver *s, DDState *d, int card, int value, int maximizing) noexcept nogil:
    """Does `card` keep the position's exact value (best for the side to move)? In Malý/Veľký
    the value is made (all remaining tricks) or not (0)."""
    if d.goal != GOAL_POINTS and not maximizing:
        return value == d.tricks_left or not child_reaches(s, d, card, d.tricks_left)
    if maximizing:
        return child_reaches(s, d, card, value)
    return not child_reaches(s, d, card, value + 1)


cdef int double_dummy_card(Play *p, int seat, mask32 legal, int preferred) noexcept nogil:
    """An optimal card with all hands visible; the heuristic's card when it is optimal too."""
    cdef DDState d
    cdef int value, c, maxi = seat == p.actor
    cdef mask32 m = legal & ~((<mask32>1) << preferred)
    state_from_play(p, &d)
    value = dd_value(p.solver, &d)
    if keeps_value(p.solver, &d, preferred, value, maxi):
        return preferred
    while m:
        c = lowest_bit32(m)
        if keeps_value(p.solver, &d, c, value, maxi):
            return c
        m = clear_lowest32(m)
    return preferred


cdef int sample_hidden(Play *p, int seat, Rng *rng, DDState *d) noexcept nogil:
    """Deal the cards `seat` cannot see to the other two hands (and to the talon when `seat` is a
    defender) at random, respecting the voids shown and the talon rule (no A/T in suit games);
    cards that fit nowhere consistent go wherever there is room. Returns 0 if all fit."""
    cdef uint8_t cards[N_CARDS]
    cdef int n = 0, i, c, n_ok, slot, inconsistent = 0, j
    cdef int other[2]
    cdef int room[3]
    cdef int ok[3]
    cdef mask32 unknown = ~p.played & ~p.hand[seat]
    if seat == p.actor:
        unknown &= ~p.talon
    other[0] = (seat + 1) % N_SEATS
    other[1] = (seat + 2) % N_SEATS
    room[0] = popcount32(p.hand[other[0]])
    room[1] = popcount32(p.hand[other[1]])
    room[2] = popcount32(unknown) - room[0] - room[1]     # the talon, if hidden
    d.hand[seat] = p.hand[seat]
    d.hand[other[0]] = 0
    d.hand[other[1]] = 0
    while unknown:
        cards[n] = <uint8_t>lowest_bit32(unknown)
        n += 1
        unknown = clear_lowest32(unknown)
    rng_partial_shuffle(rng, cards, n, n)
    for i in range(n):
        c = cards[i]
        n_ok = 0
        for j in range(3):
            if room[j] == 0:
                continue
            if j < 2 and (p.voids[other[j]] >> card_suit(c)) & 1:
                continue
            if j == 2 and not p.betl and (POINT_CARDS >> c) & 1:
                continue
            ok[n_ok] = j
            n_ok += 1
        if n_ok == 0:
            inconsistent = 1
            for j in range(3):
                if room[j]:
                    ok[n_ok] = j
                    n_ok += 1
        slot = ok[rng_below(rng, <uint32_t>n_ok)] if n_ok > 1 else ok[0]
        room[slot] -= 1
        if slot < 2:
            d.hand[other[slot]] |= (<mask32>1) << c
    return inconsistent


cdef int pimc_card(Play *p, int seat, mask32 legal, int preferred, Rng *rng) noexcept nogil:
    """Perfect-information Monte Carlo: sample the hidden cards PIMC_SAMPLES times, solve each
    sample double-dummy and play the card that is optimal in the most samples."""
    cdef DDState d
    cdef int votes[N_CARDS]
    cdef int k, c, value, best, maxi = seat == p.actor
    cdef mask32 m
    memset(votes, 0, sizeof(votes))
    for k in range(PIMC_SAMPLES):
        state_from_play(p, &d)
        sample_hidden(p, seat, rng, &d)
        value = dd_value(p.solver, &d)
        m = legal
        while m:
            c = lowest_bit32(m)
            votes[c] += keeps_value(p.solver, &d, c, value, maxi)
            m = clear_lowest32(m)
    best = preferred
    m = legal
    while m:
        c = lowest_bit32(m)
        if votes[c] > votes[best]:
            best = c
        m = clear_lowest32(m)
    return best


cdef long long call_python(PyObject *callback, int slot, tuple data) noexcept with gil:
    """Call the Python strategies' callback; it returns a card bit (standard encoding), a talon
    mask, or -1, and keeps any error to raise when the shard ends."""
    try:
        return (<object>callback)(slot, data)
    except BaseException:
        return -1


cdef inline mask32 std_mask(mask32 m, const uint8_t *table) noexcept nogil:
    return m if table == NULL else remap(m, table)


cdef int python_card(Play *p, int seat, mask32 legal, int slot) noexcept nogil:
    """The card a Python strategy chooses, from what `seat` knows: its hand, the legal cards, the
    contract, the cards played (in order, with their seats), the talon if it is the actor, the
    hlasy declared and the tricks and card points taken. Masks and cards go out in the standard
    (suit-game) encoding, also in Malý/Veľký."""
    cdef const uint8_t *table = FROM_BETL_POS if p.betl else NULL
    cdef int answer, i
    with gil:
        played = bytes([p.log[i] if table == NULL else remap_card(p.log[i], table) for i in range(p.n_played)])
        answer = call_python(p.python, slot, (
            seat, std_mask(p.hand[seat], table), std_mask(legal, table), p.game, p.trump, p.actor, p.seven_holder,
            played, bytes([p.seat_log[i] for i in range(p.n_played)]),
            bytes([p.trick_winner[i] for i in range(p.n_tricks)]), std_mask(p.played, table),
            std_mask(p.talon, table) if seat == p.actor else 0,
            (p.declared[0], p.declared[1], p.declared[2]), (p.tricks[0], p.tricks[1], p.tricks[2]),
            (p.cp[0], p.cp[1], p.cp[2]),
            ((p.k[0][0], p.k[0][1], p.k[0][2], p.k[0][3]), (p.k[1][0], p.k[1][1], p.k[1][2], p.k[1][3])),
            p.laid_down[seat]))
    if answer < 0 or answer >= N_CARDS:
        return lowest_bit32(legal)       # the callback has kept the error; finish the deal quietly
    if table != NULL:
        answer = remap_card(answer, TO_BETL_POS)
    if not (legal >> answer) & 1:
        return lowest_bit32(legal)
    return answer


cdef inline int choose_card(Play *p, int seat, mask32 legal, int strategy, Rng *rng) noexcept nogil:
    cdef int preferred
    if popcount32(legal) == 1:
        return lowest_bit32(legal)
    if strategy >= STRAT_PYTHON:
        return python_card(p, seat, legal, strategy - STRAT_PYTHON)
    if strategy == STRAT_RANDOM:
        return random_card(legal, rng)
    preferred = heuristic_betl(p, seat, legal) if p.betl else heuristic_suit(p, seat, legal)
    if strategy == STRAT_DOUBLE_DUMMY:
        return double_dummy_card(p, seat, legal, preferred)
    if strategy == STRAT_PIMC:
        return pimc_card(p, seat, legal, preferred, rng)
    return preferred


cdef void play_init(Play *p, const mask32 *hands, mask32 talon, int actor, int leader, int game,
                    int trump, int seven_holder, const Rules *rules, Solver *solver) noexcept nogil:
    cdef int s
    memset(p, 0, sizeof(Play))
    p.solver = solver
    p.python = rules.python
    if solver != NULL:
        solver_new_deal(solver)          # the table's bounds depend on trumps, actor and contract
    p.betl = not is_suit_game(game)
    p.game = game
    p.trump = trump if not p.betl else NO_TRUMP
    p.actor = actor
    p.leader = leader
    p.seven_holder = seven_holder if not p.betl else -1
    p.queen_first = rules.queen_first and not p.betl
    p.seven = SEVEN_NONE
    for s in range(N_SEATS):
        p.hand[s] = remap(hands[s], TO_BETL_POS) if p.betl else hands[s]
        p.start[s] = p.hand[s]
    p.talon = remap(talon, TO_BETL_POS) if p.betl else talon


cdef inline void declare_hlas(Play *p, int seat, int card) noexcept nogil:
    cdef int s = card_suit(card), r = card & 7
    if (r == RK or r == RQ) and (p.start[seat] >> (8 * s)) & KQ_LANE == KQ_LANE and not p.declared[seat] >> s & 1:
        p.declared[seat] |= 1 << s
        if p.first_hlas[seat] == 0:
            p.first_hlas[seat] = 40 if s == p.trump else 20


cdef void finish_trick(Play *p) noexcept nogil:
    cdef int base = p.n_played - 3, i, w, seat7 = -1
    cdef mask32 cards = 0
    i = trick_winner_index(&p.log[base], 3, p.trump)
    w = p.seat_log[base + i]
    for i in range(3):
        cards |= (<mask32>1) << p.log[base + i]
    p.trick_winner[p.n_tricks] = w
    p.tricks[w] += 1
    if not p.betl:
        p.cp[w] += card_points(cards)
    p.n_tricks += 1
    p.leader = w
    if p.n_tricks == N_TRICKS and not p.betl:
        for i in range(3):
            if p.log[base + i] == 8 * p.trump + R7:
                seat7 = p.seat_log[base + i]
        if seat7 >= 0:
            if seat7 == p.actor:
                p.seven = SEVEN_WON_ACTOR if w == seat7 else SEVEN_KILLED_ACTOR
            else:
                p.seven = SEVEN_WON_DEF if w == seat7 else SEVEN_KILLED_DEF


cdef inline int play_over(const Play *p) noexcept nogil:
    if p.n_tricks == N_TRICKS:
        return 1
    if p.game == GAME_MALY and p.tricks[p.actor] > 0:
        return 1
    if p.game == GAME_VELKY and p.tricks[p.actor] < p.n_tricks:
        return 1
    return 0


cdef int run_play(Play *p, const int *strategy, Rng **rng, const uint8_t *forced, int n_forced,
                  int *err_index) noexcept nogil:
    """Play the deal out: card i comes from forced[i] while i < n_forced, then from the seat's
    strategy, which draws from the seat's stream rng[seat]. Returns ERR_NONE, or an error code
    with *err_index = the offending play."""
    cdef int seat, card, n
    cdef mask32 legal
    while not play_over(p):
        n = p.n_played % 3
        seat = (p.leader + n) % N_SEATS
        legal = legal_cards(p.hand[seat], &p.log[p.n_played - n], n, p.trump,
                            seat == p.seven_holder, p.queen_first)
        if p.n_played < n_forced:
            card = forced[p.n_played]
            if not (p.hand[seat] >> card) & 1:
                err_index[0] = p.n_played
                return ERR_NOT_IN_HAND
            if not (legal >> card) & 1:
                err_index[0] = p.n_played
                p.legal_log[p.n_played] = legal
                return ERR_ILLEGAL
        else:
            card = choose_card(p, seat, legal, strategy[seat], rng[seat])
        p.legal_log[p.n_played] = legal
        if n > 0 and card_suit(card) != card_suit(p.log[p.n_played - n]):
            p.voids[seat] |= 1 << card_suit(p.log[p.n_played - n])
            if p.trump != NO_TRUMP and card_suit(card) != p.trump:
                p.voids[seat] |= 1 << p.trump
        p.log[p.n_played] = <uint8_t>card
        p.seat_log[p.n_played] = <uint8_t>seat
        p.n_played += 1
        p.hand[seat] &= ~((<mask32>1) << card)
        p.played |= (<mask32>1) << card
        if not p.betl:
            declare_hlas(p, seat, card)
        if n == 2:
            finish_trick(p)
    return ERR_NONE


cdef void fill_outcome(const Play *p, Outcome *o, const Rules *rules) noexcept nogil:
    """Card points, hlasy and the seven of a played deal, as the settlement needs them."""
    cdef int s, suits, def_tricks = 0, hl
    o.game = p.game
    o.trump = p.trump
    o.actor_tricks = p.tricks[p.actor]
    o.seven = p.seven
    o.cp_actor = p.cp[p.actor]
    o.last_actor = p.n_tricks == N_TRICKS and p.trick_winner[N_TRICKS - 1] == p.actor
    o.hlasy_actor = 0
    o.max_hlas_actor = 0
    o.first_hlas_actor = 0
    o.hlasy_def = 0
    if p.betl:
        return
    for s in range(N_SEATS):
        if s != p.actor:
            def_tricks += p.tricks[s]
    for s in range(N_SEATS):
        suits = hlas_suits(p.start[s])
        hl = hlas_total(suits, p.trump)
        if s == p.actor:
            if rules.hlas_needs_trick and p.tricks[s] == 0:
                continue
            o.hlasy_actor = hl
            o.max_hlas_actor = 40 if suits >> p.trump & 1 else (20 if suits else 0)
            o.first_hlas_actor = p.first_hlas[s] if p.first_hlas[s] else o.max_hlas_actor
        else:
            if rules.hlas_needs_trick and def_tricks == 0:
                continue
            o.hlasy_def += hl


cdef inline int counted_points(const Outcome *o, const Rules *rules) noexcept nogil:
    return o.cp_actor + (LAST_TRICK_BONUS if o.last_actor else 0) + \
        (o.first_hlas_actor if rules.settle.hlas_first else o.max_hlas_actor)


# ---------------------------------------------------------------------------------------------
# Bidding decisions: trump choice, discard, flavour, contract, doublings

cdef int choose_trump(mask32 first7, mask32 packet2, const Rules *rules, Rng *rng, int *indicator) noexcept nogil:
    cdef int s, key, best_key = -1, n_best = 0, pick
    cdef int best[4]
    cdef mask32 lane
    if rules.trump_policy == TAU_Z_LIDU:
        indicator[0] = random_card(packet2, rng)
        return card_suit(indicator[0])
    for s in range(4):
        lane = first7 & suit_mask(s)
        if not lane:
            continue
        key = popcount32(lane) * 16 + popcount32(lane & (<mask32>0xF0F0F0F0))   # A T K Q
        if key > best_key:
            best_key = key
            n_best = 0
        if key == best_key:
            best[n_best] = s
            n_best += 1
    pick = best[rng_below(rng, <uint32_t>n_best)] if n_best > 1 else best[0]
    indicator[0] = lowest_bit32(first7 & suit_mask(pick))
    return pick


cdef mask32 suit_discard(mask32 hand, int trump, int indicator, const Rules *rules) noexcept nogil:
    """Two cards for the talon of a suit game (§3.3): never A/T, the indicator or the trump 7;
    trumps and hlas cards last; then by the discard strategy: `heuristic` the short side suits
    first (to make voids), `low_cards` the lowest ranks first (keeping K, Q, J). 0 if impossible."""
    cdef mask32 allowed = hand & ~(<mask32>POINT_CARDS) & ~trump_seven(trump)
    cdef mask32 m, out = 0
    cdef int c, s, key, k, best, best_key
    if indicator >= 0:                                   # protocol L has no trump indicator
        allowed &= ~((<mask32>1) << indicator)
    if not rules.talon_allows_trumps:
        allowed &= ~suit_mask(trump)
    if popcount32(allowed) < TALON_CARDS:
        return 0
    if rules.discard_policy == DISCARD_PYTHON:
        return python_discard(hand, trump, indicator, allowed, rules)
    for k in range(TALON_CARDS):
        best = -1
        best_key = 1 << 30
        m = allowed & ~out
        while m:
            c = lowest_bit32(m)
            s = card_suit(c)
            if rules.discard_policy == DISCARD_LOW_CARDS:
                key = (c & 7) * 10 + popcount32(hand & suit_mask(s))
            else:
                key = popcount32(hand & suit_mask(s)) * 10 + (c & 7)
            if s == trump:
                key += 1000
            if ((c & 7) == RK or (c & 7) == RQ) and (hand >> (8 * s)) & KQ_LANE == KQ_LANE:
                key += 500
            if (hand >> (8 * s + RT)) & 1 and not (hand >> (8 * s + RA)) & 1:
                key += 50                                # keep the guard of an unguarded T
            if key < best_key:
                best_key = key
                best = c
            m = clear_lowest32(m)
        out |= (<mask32>1) << best
    return out


cdef mask32 python_discard(mask32 hand, int trump, int indicator, mask32 allowed, const Rules *rules) noexcept nogil:
    """The forehand's suit-game talon chosen by a Python strategy (slot 2 of the callback); it sees
    his 12 cards, trumps, the indicator and the cards allowed. A wrong answer (the callback keeps
    the error) falls back to the two lowest allowed cards."""
    cdef long long answer
    with gil:
        answer = call_python(rules.python, 2, (hand, trump, indicator, allowed))
    if answer < 0 or answer > ALL_CARDS_MASK or popcount32(<mask32>answer) != TALON_CARDS or <mask32>answer & ~allowed:
        return (<mask32>1 << lowest_bit32(allowed)) | (<mask32>1 << lowest_bit32(clear_lowest32(allowed)))
    return <mask32>answer


cdef int betl_danger(mask32 hand) noexcept nogil:
    """Cards of a Malý hand (betl encoding) likely to win a trick: the i-th lowest card of a
    suit is safe at position <= 2i."""
    cdef int s, i, b, danger = 0
    cdef mask32 lane
    for s in range(4):
        lane = (hand >> (8 * s)) & LANE_MASK
        i = 0
        while lane:
            b = lowest_bit32(lane)
            if b > 2 * i:
                danger += 1
            i += 1
            lane = clear_lowest32(lane)
    return danger


cdef int durch_danger(mask32 hand) noexcept nogil:
    """Cards of a Veľký hand (betl encoding) that may lose a trick: a suit is safe when its
    cards run down from the A without a gap."""
    cdef int s, j, b, danger = 0
    cdef mask32 lane
    for s in range(4):
        lane = (hand >> (8 * s)) & LANE_MASK
        j = 0
        while lane:
            b = highest_bit32(lane)
            if b != 7 - j:
                danger += 1
            j += 1
            lane &= ~((<mask32>1) << b)
    return danger


cdef mask32 betl_discard(mask32 hand_betl, int flavour) noexcept nogil:
    """Malý: throw the two highest cards; Veľký: the two lowest (betl encoding)."""
    cdef mask32 out = 0
    cdef int k
    for k in range(TALON_CARDS):
        out |= (<mask32>1) << (highest_rank_card(hand_betl & ~out) if flavour == FLAVOUR_MALY
                               else lowest_rank_card(hand_betl & ~out))
    return out


cdef int takeover_flavour(mask32 hand_betl, int current) noexcept nogil:
    if current < FLAVOUR_VELKY and durch_danger(hand_betl) == 0:
        return FLAVOUR_VELKY
    if current < FLAVOUR_MALY and betl_danger(hand_betl) == 0:
        return FLAVOUR_MALY
    return current


cdef int choose_contract(mask32 hand, int trump, const Rules *rules) noexcept nogil:
    """The suit contract announced on the 10 cards kept, by the contract strategy:
    heuristic  Stovka: trump hlas, >= 5 trumps, >= 4 A/T (or any hlas, >= 5 trumps, >= 6 A/T);
               Sto a sedem: that and the trump 7 with >= 6 trumps; Sedma: the 7 and >= 5 trumps
               (>= 4 with the trump A);
    bold       Stovka: any hlas and >= 4 trumps (Mariasek's pre-filter); Sto a sedem: that, the 7
               and >= 5 trumps; Sedma: the 7 and >= 4 trumps;
    cautious   Stovka: zolik's sto gate (trump hlas, trump A, >= 6 trumps, >= 5 A/T); Sto a sedem:
               that and the 7; Sedma: the 7, the trump A and >= 5 trumps."""
    cdef int ntr = popcount32(hand & suit_mask(trump)), at = popcount32(hand & POINT_CARDS)
    cdef int suits = hlas_suits(hand), has7 = (hand & trump_seven(trump)) != 0
    cdef int trump_hlas = suits >> trump & 1, trump_ace = (hand >> (8 * trump + RA)) & 1, hundred, seven
    if rules.contract_policy == CONTRACT_BOLD:
        hundred = suits != 0 and ntr >= 4
        seven = has7 and ntr >= 4
        if hundred and has7 and ntr >= 5:
            return GAME_STO_A_SEDEM
    elif rules.contract_policy == CONTRACT_CAUTIOUS:
        hundred = trump_hlas and trump_ace and ntr >= 6 and at >= 5
        seven = has7 and trump_ace and ntr >= 5
        if hundred and has7:
            return GAME_STO_A_SEDEM
    else:
        hundred = (trump_hlas and ntr >= 5 and at >= 4) or (suits and ntr >= 5 and at >= 6)
        seven = has7 and (ntr >= 5 or (ntr >= 4 and trump_ace))
        if hundred and has7 and ntr >= 6:
            return GAME_STO_A_SEDEM
    if hundred:
        return GAME_STOVKA
    if seven:
        return GAME_SEDMA
    return GAME_HRA


cdef inline int strength(mask32 hand, int trump) noexcept nogil:
    """Doubling strength of a hand: two per trump plus one per A/T."""
    return 2 * popcount32(hand & suit_mask(trump)) + popcount32(hand & POINT_CARDS)


cdef inline int trump_honour_count(mask32 hand, int trump) noexcept nogil:
    """Trumps held plus the trump A and T held (killing or guarding a seven)."""
    return popcount32(hand & suit_mask(trump)) + <int>((hand >> (8 * trump + RA)) & 1) + \
        <int>((hand >> (8 * trump + RT)) & 1)


cdef void doubling_phase(const mask32 *hands, int actor, int game, int trump, const Rules *rules,
                         int k[2][N_PARTS], int *proti_by) noexcept nogil:
    """§4.4 with the heuristic doubling strategy, re-raising while the hand is strong enough for
    the level and the cap allows. With strength() = 2 per trump + 1 per A/T: a defender raises an
    actor's part at even k when his strength >= 9 + k (9 "na hru", 11 to answer a re-flek; the
    seven also needs 4 trumps), the actor re-raises at odd k with strength >= 13 + k (14, 16).
    Sedma proti (announced with the trump 7 and >= 4 trumps): the actor raises it at even k when
    his trumps + trump A + trump T >= 5 + k, its announcer re-raises at odd k when his >= 4 + k.
    k[d] are the counters settled with defender d (equal unless flek_per_defender; the sedma
    proti counter is shared); *proti_by is the defender (0/1) who announced it, or -1. Malý and
    Veľký are never doubled by this strategy."""
    cdef int round_no = 1, activity, activity2, d, seat, part, ntr, i
    cdef int parts[3]
    cdef int n_parts = 0
    memset(k, 0, sizeof(int) * 2 * N_PARTS)
    proti_by[0] = -1
    if rules.doubling == DOUBLE_NONE or trump == NO_TRUMP:
        return
    if game == GAME_HRA:
        parts[0] = PART_HRA
        n_parts = 1
    elif game == GAME_SEDMA:
        parts[0] = PART_HRA
        parts[1] = PART_SEDMA
        n_parts = 2
    else:
        parts[0] = PART_MAIN
        n_parts = 1
    while True:
        activity = 0
        for d in range(2):
            seat = (actor + 1 + d) % N_SEATS
            ntr = popcount32(hands[seat] & suit_mask(trump))
            if (round_no == 1 and rules.allow_proti and proti_by[0] < 0 and (game == GAME_HRA or game == GAME_STOVKA)
                    and hands[seat] & trump_seven(trump) and ntr >= 4):
                proti_by[0] = d
                activity = 1
            for i in range(n_parts):
                part = parts[i]
                if (k[d][part] % 2 == 0 and k[d][part] < rules.max_doublings
                        and strength(hands[seat], trump) >= 9 + k[d][part] and (part != PART_SEDMA or ntr >= 4)):
                    k[d][part] += 1
                    if not rules.flek_per_defender:
                        k[1 - d][part] = k[d][part]
                    activity = 1
            if (proti_by[0] == d and k[0][PART_PROTI] % 2 == 1 and k[0][PART_PROTI] < rules.max_doublings
                    and trump_honour_count(hands[seat], trump) >= 4 + k[0][PART_PROTI]):
                k[0][PART_PROTI] += 1
                k[1][PART_PROTI] = k[0][PART_PROTI]
                activity = 1
        if not activity:
            break
        activity2 = 0
        for i in range(n_parts):
            part = parts[i]
            for d in range(2):
                if k[d][part] % 2 == 1 and k[d][part] < rules.max_doublings and strength(hands[actor], trump) >= 13 + k[d][part]:
                    k[d][part] += 1
                    activity2 = 1
        if (proti_by[0] >= 0 and k[0][PART_PROTI] % 2 == 0 and k[0][PART_PROTI] < rules.max_doublings
                and trump_honour_count(hands[actor], trump) >= 5 + k[0][PART_PROTI]):
            k[0][PART_PROTI] += 1
            k[1][PART_PROTI] = k[0][PART_PROTI]
            activity2 = 1
        if not activity2:
            break
        round_no += 1


# ---------------------------------------------------------------------------------------------
# Rules from the Python layer

cdef int role_index(dict strategies, str role, tuple names) except -1:
    name = strategies.get(role, names[0])
    if name not in names:
        raise ValueError(f"unknown marias strategy {name!r} for {role}; choose one of {', '.join(names)}")
    return names.index(name)


cdef int card_strategy(str name, int slot, object python) except -1:
    """The kernel's code for a card-play strategy name; "module:Class" names are Python strategies,
    answered by the callback `python` (slot 0 or 1 tells it which one)."""
    if ":" in name:
        if python is None:
            raise ValueError(f"the Python strategy {name!r} needs the callback of analyzer.games.marias")
        return STRAT_PYTHON + slot
    if name not in STRATEGIES:
        raise ValueError(f"unknown marias card-play strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    return STRATEGIES.index(name)


cdef inline bint needs_solver(int strategy) noexcept nogil:
    return strategy == STRAT_DOUBLE_DUMMY or strategy == STRAT_PIMC


cdef Rules rules_from(dict o, dict strategies, str mode, str filter_name, object python=None) except *:
    cdef Rules r
    memset(&r, 0, sizeof(Rules))
    r.python = <PyObject *>python if python is not None else NULL
    r.settle.scale_counts_all_hlasy = bool(o["stovka_scale_counts_all_hlasy"])
    r.settle.hlas_first = o["hlas_for_stovka"] == "first"
    r.settle.sto_a_sedem_step = int(o["sto_a_sedem_step"])
    r.settle.quiet_unit = 4 if o["ticha_stovka_rate"] == "full" else 2
    r.settle.deal_cap = int(o["deal_cap"])
    r.settle.maly_value = int(o["maly_value"])
    r.settle.velky_value = int(o["velky_value"])
    r.talon_allows_trumps = bool(o["talon_allows_trumps"])
    r.allow_hopeless_stovka = bool(o["allow_hopeless_stovka"])
    r.hlas_needs_trick = bool(o["hlas_needs_trick"])
    r.queen_first = bool(o["hlas_queen_first"])
    r.max_doublings = int(o["max_doublings"])
    r.allow_proti = bool(o["allow_proti"])
    r.allow_z_lidu = bool(o["allow_z_lidu"])
    r.flek_per_defender = bool(o["flek_per_defender"])
    r.proti_only_announcer = bool(o["sedma_proti_only_announcer"])
    r.strat[0] = card_strategy(strategies.get("actor_play", "heuristic"), 0, python)
    r.strat[1] = card_strategy(strategies.get("defender_play", "heuristic"), 1, python)
    r.trump_policy = role_index(strategies, "trump_choice", ("longest", "z_lidu", "oracle"))
    name = strategies.get("discard", "heuristic")
    if ":" in name:
        if python is None:
            raise ValueError(f"the Python strategy {name!r} needs the callback of analyzer.games.marias")
        if o["protocol"] != "V":
            raise ValueError("a Python discard plays protocol V (the forehand's talon); protocol L chooses its "
                             "contract by trying every trump with the built-in discards")
        r.discard_policy = DISCARD_PYTHON
    else:
        r.discard_policy = role_index(strategies, "discard", ("heuristic", "low_cards"))
    r.contract_policy = role_index(strategies, "contract", ("heuristic", "bold", "cautious"))
    r.doubling = role_index(strategies, "doubling", ("none", "heuristic"))
    if r.trump_policy == TAU_Z_LIDU and not r.allow_z_lidu:
        raise ValueError("trump_choice z_lidu needs the rule option allow_z_lidu on")
    r.mode = ("forced", "natural").index(mode)
    if r.trump_policy == TAU_ORACLE and r.mode != MODE_FORCED:
        raise ValueError("trump_choice oracle (every suit tried) is a forced-Stovka mode of §8.1; "
                         "the natural game chooses trumps by longest or z_lidu")
    r.filter = FILTER_NAMES.index(filter_name)
    r.protocol = ("V", "L").index(o["protocol"])
    return r


cdef inline void seat_strategies(const Rules *r, int actor, int *out) noexcept nogil:
    cdef int s
    for s in range(N_SEATS):
        out[s] = r.strat[0] if s == actor else r.strat[1]


cdef int settle_both(const Play *p, const Rules *rules, int game, int k[2][N_PARTS], int proti_by,
                     int *main_won) noexcept nogil:
    """Actor's balance / 2 (the mean amount per defender, in B) of a played deal as `game`."""
    cdef Outcome o
    cdef int d, part, total = 0
    fill_outcome(p, &o, rules)
    o.game = game
    for d in range(2):
        for part in range(N_PARTS):
            o.k[part] = k[d][part]
        o.proti = proti_by >= 0 and (not rules.proti_only_announcer or d == proti_by)
        o.proti_announced = proti_by >= 0
        total += settle_outcome(&o, &rules.settle, main_won)
    return total


cdef struct Bidding:
    mask32 hands[N_SEATS]          # the 10-card hands to play
    mask32 talon
    int actor
    int game
    int trump                      # the suit chosen (ignored in Malý/Veľký)
    int seven_holder               # -1: no seven announced
    int k[2][N_PARTS]              # doublings settled with each defender
    int proti_by                   # the defender (0/1) who announced sedma proti, or -1
    int leader                     # who leads the first trick
    int rung                       # protocol L: the rung the auction was won at
    int limit[N_SEATS]             # protocol L: the highest rung each seat would name
    int trace[MAX_TRACE]           # protocol L: the auction, seat * 16 + code (BID_*)
    int n_trace
    mask32 laid_down[N_SEATS]      # protocol V: a talon a seat laid down and a takeover picked up (he knows it)


cdef int deal_protocol_v(Rng *deal_rng, Rng *bid_rng, uint8_t *cards, const Rules *rules, mask32 *hands,
                         int *indicator) noexcept nogil:
    """Deal one deal by protocol V from the deal stream: packets 7 fh, 5 mid, 5 rear, 5 fh, 5 mid,
    5 rear (fh = seat 0; hands[0] gets the forehand's 12 cards) and the forehand's trump choice,
    which is returned. The trump choice draws (ties, z lidu) from the bidding stream, so no
    strategy changes the deals, and every card-play strategy meets the same deals, trumps and
    discards (common random numbers)."""
    cdef mask32 first7, packet2
    rng_partial_shuffle(deal_rng, cards, N_CARDS, N_CARDS)
    protocol_v_hands(cards, hands, &first7, &packet2)
    return choose_trump(first7, packet2, rules, bid_rng, indicator)


cdef void protocol_v_hands(const uint8_t *cards, mask32 *hands, mask32 *first7, mask32 *packet2) noexcept nogil:
    """The hands of a shuffled pack dealt by protocol V (see deal_protocol_v)."""
    cdef int c
    first7[0] = 0
    packet2[0] = 0
    hands[1] = 0
    hands[2] = 0
    for c in range(7):
        first7[0] |= (<mask32>1) << cards[c]
    for c in range(5):
        hands[1] |= ((<mask32>1) << cards[7 + c]) | ((<mask32>1) << cards[22 + c])
        hands[2] |= ((<mask32>1) << cards[12 + c]) | ((<mask32>1) << cards[27 + c])
        packet2[0] |= (<mask32>1) << cards[17 + c]
    hands[0] = first7[0] | packet2[0]


cdef void natural_bidding(const mask32 *dealt, int trump, int indicator, const Rules *rules,
                          Bidding *b) noexcept nogil:
    """The rest of protocol V with the heuristic bidders, on the dealt hands (the forehand's 12):
    the forehand's flavour and discard, the takeover round, the contract and the doublings."""
    cdef int fh = 0, flavour, p_seat, passes, bid, s
    cdef mask32 h12 = dealt[fh], discard = 0, betl12
    for s in range(N_SEATS):
        b.hands[s] = dealt[s]
        b.laid_down[s] = 0
    b.trump = trump
    flavour = forehand_flavour(remap(h12, TO_BETL_POS))
    if flavour == FLAVOUR_FARBA:
        discard = suit_discard(h12, trump, indicator, rules)
        if discard == 0:
            flavour = FLAVOUR_MALY
    if flavour != FLAVOUR_FARBA:
        discard = remap(betl_discard(remap(h12, TO_BETL_POS), flavour), FROM_BETL_POS)
    b.hands[fh] = h12 & ~discard
    b.talon = discard
    b.actor = fh
    p_seat = (fh + 1) % N_SEATS
    passes = 0
    while passes < 2 and flavour < FLAVOUR_VELKY:
        bid = takeover_flavour(remap(b.hands[p_seat], TO_BETL_POS), flavour)
        if bid > flavour:
            b.laid_down[b.actor] = b.talon
            betl12 = remap(b.hands[p_seat] | b.talon, TO_BETL_POS)
            b.talon = remap(betl_discard(betl12, bid), FROM_BETL_POS)
            b.hands[p_seat] = (b.hands[p_seat] | remap(betl12, FROM_BETL_POS)) & ~b.talon
            flavour = bid
            b.actor = p_seat
            passes = 0
        else:
            passes += 1
        p_seat = (p_seat + 1) % N_SEATS
        if p_seat == b.actor:
            break
    if flavour == FLAVOUR_FARBA:
        b.game = choose_contract(b.hands[fh], trump, rules)
    else:
        b.game = GAME_MALY if flavour == FLAVOUR_MALY else GAME_VELKY
    doubling_phase(b.hands, b.actor, b.game, trump if b.game <= GAME_STO_A_SEDEM else NO_TRUMP, rules, b.k,
                   &b.proti_by)
    b.seven_holder = -1
    b.leader = b.actor
    b.rung = 0
    b.n_trace = 0
    set_seven_holder(b)


cdef inline void set_seven_holder(Bidding *b) noexcept nogil:
    b.seven_holder = -1
    if announces_seven(b.game):
        b.seven_holder = b.actor
    elif b.proti_by >= 0:
        b.seven_holder = (b.actor + 1 + b.proti_by) % N_SEATS


# ---------------------------------------------------------------------------------------------
# Protocol L (§3.6): deal 5-5-5, talon 2, 5-5-5; the auction on the ladder; the winner takes the
# talon, discards and names a contract at or above the rung won, trumps free.

cdef inline int contract_rung(int game, int trump) noexcept nogil:
    """The rung of the ladder a contract stands on (Hra in any suit is rung 0)."""
    cdef int hearts = trump == SUIT_HEARTS
    if game == GAME_HRA:
        return 0
    if game == GAME_SEDMA:
        return 2 if hearts else 1
    if game == GAME_STOVKA:
        return 5 if hearts else 3
    if game == GAME_STO_A_SEDEM:
        return 6 if hearts else 4
    return 7 if game == GAME_MALY else 8


cdef void deal_protocol_l(Rng *deal_rng, uint8_t *cards, mask32 *hands, mask32 *talon) noexcept nogil:
    """Packets of 5 to the forehand (seat 0), middle and rear, the 2 talon cards, 5 + 5 + 5."""
    cdef int c, s
    rng_partial_shuffle(deal_rng, cards, N_CARDS, N_CARDS)
    for s in range(N_SEATS):
        hands[s] = 0
        for c in range(5):
            hands[s] |= ((<mask32>1) << cards[5 * s + c]) | ((<mask32>1) << cards[17 + 5 * s + c])
    talon[0] = ((<mask32>1) << cards[15]) | ((<mask32>1) << cards[16])


cdef int bid_limit(mask32 hand, const Rules *rules) noexcept nogil:
    """The highest rung a bidder names on his 10 cards (the talon unseen): the contract gates in
    every suit, Veľký/Malý when the hand has no dangerous card."""
    cdef int t, r, best = 0
    cdef mask32 hb = remap(hand, TO_BETL_POS)
    if durch_danger(hb) == 0:
        return 8
    if betl_danger(hb) == 0:
        return 7
    for t in range(4):
        r = contract_rung(choose_contract(hand, t, rules), t)
        if r > best:
            best = r
    return best


cdef inline void log_bid(Bidding *b, int seat, int code) noexcept nogil:
    if b.n_trace < MAX_TRACE:
        b.trace[b.n_trace] = seat * 16 + code
        b.n_trace += 1


cdef int auction_l(Bidding *b) noexcept nogil:
    """§3.6 step 3 with bidders who go one rung at a time up to their limit b.limit[seat]: the
    rear player names rungs, the forehand holds (ties go to him); whoever drops first is replaced
    by the middle player. Sets b.rung (0 when nobody bid: the forehand plays from rung 0) and
    returns the winner."""
    cdef int bidder = 2, holder = 0, waiting = 1, current = 0
    b.n_trace = 0
    while True:
        if b.limit[bidder] > current:                  # the bidder names the next rung
            current += 1
            log_bid(b, bidder, current)
        else:
            log_bid(b, bidder, BID_PASS)
            if waiting < 0:
                break                                  # the holder is left
            bidder = waiting                           # the middle player bids instead
            waiting = -1
            continue
        while b.limit[holder] < current:               # the holder holds, or drops out
            log_bid(b, holder, BID_PASS)
            if waiting < 0:
                b.rung = current
                return bidder
            holder = waiting                           # the middle player holds instead
            waiting = -1
        log_bid(b, holder, BID_HOLD)
    b.rung = current
    return holder


cdef int suit_option(mask32 h12, int trump, const Rules *rules, mask32 *discard) noexcept nogil:
    """The contract the gates choose in `trump` after the heuristic discard; -1 if no legal
    discard exists."""
    discard[0] = suit_discard(h12, trump, -1, rules)
    if discard[0] == 0:
        return -1
    return choose_contract(h12 & ~discard[0], trump, rules)


cdef inline void set_contract(Bidding *b, int game, int trump, mask32 talon) noexcept nogil:
    b.game = game
    b.trump = trump
    b.talon = talon


cdef int feasible(mask32 hand, int game, int trump, const Rules *rules) noexcept nogil:
    """Does the 10-card hand meet the announcement requirements of §3.4?"""
    if announces_seven(game) and not hand & trump_seven(trump):
        return 0
    if (game == GAME_STOVKA or game == GAME_STO_A_SEDEM) and not rules.allow_hopeless_stovka:
        return hlas_suits(hand) != 0
    return 1


cdef void final_contract_l(mask32 h12, int rung, const Rules *rules, Bidding *b) noexcept nogil:
    """The auction's winner, holding 12 cards, discards and names a contract on a rung >= the rung
    won: the highest the gates approve, else the cheapest feasible one at or above that rung (a
    longer trump suit first); Malý is always feasible."""
    cdef int t, g, best_rung = -1, want, best_len, danger
    cdef mask32 disc, hb = remap(h12, TO_BETL_POS)
    for t in range(4):
        g = suit_option(h12, t, rules, &disc)
        if g >= 0 and contract_rung(g, t) > best_rung:
            best_rung = contract_rung(g, t)
            set_contract(b, g, t, disc)
    for g in range(GAME_MALY, GAME_VELKY + 1):
        disc = betl_discard(hb, FLAVOUR_MALY if g == GAME_MALY else FLAVOUR_VELKY)
        danger = betl_danger(hb & ~disc) if g == GAME_MALY else durch_danger(hb & ~disc)
        if danger == 0 and contract_rung(g, NO_TRUMP) > best_rung:
            best_rung = contract_rung(g, NO_TRUMP)
            set_contract(b, g, NO_TRUMP, remap(disc, FROM_BETL_POS))
    if best_rung >= rung:
        return
    for want in range(rung, N_RUNGS):
        if want >= 7:
            g = GAME_MALY if want == 7 else GAME_VELKY
            set_contract(b, g, NO_TRUMP, remap(betl_discard(hb, FLAVOUR_MALY if g == GAME_MALY else FLAVOUR_VELKY),
                                               FROM_BETL_POS))
            return
        best_len = -1
        for t in range(4):
            for g in range(GAME_STO_A_SEDEM + 1):
                if contract_rung(g, t) != want:
                    continue
                disc = suit_discard(h12, t, -1, rules)
                if disc and feasible(h12 & ~disc, g, t, rules) and popcount32(h12 & suit_mask(t)) > best_len:
                    best_len = popcount32(h12 & suit_mask(t))
                    set_contract(b, g, t, disc)
        if best_len >= 0:
            return


cdef void natural_bidding_l(const mask32 *dealt, mask32 talon, const Rules *rules, Bidding *b) noexcept nogil:
    """Protocol L with the heuristic bidders: limits, auction, the winner's talon, discard and
    contract, the doublings. The forehand leads a suit game, the actor Malý/Veľký (§3.6 step 5)."""
    cdef int s, winner
    for s in range(N_SEATS):
        b.hands[s] = dealt[s]
        b.limit[s] = bid_limit(dealt[s], rules)
        b.laid_down[s] = 0
    winner = auction_l(b)
    final_contract_l(dealt[winner] | talon, b.rung, rules, b)
    b.hands[winner] = (dealt[winner] | talon) & ~b.talon
    b.actor = winner
    doubling_phase(b.hands, b.actor, b.game, b.trump if is_suit_game(b.game) else NO_TRUMP, rules, b.k, &b.proti_by)
    b.leader = 0 if is_suit_game(b.game) else winner
    set_seven_holder(b)


cdef void deal_and_bid(Rng *deal_rng, Rng *bid_rng, uint8_t *cards, const Rules *rules, Bidding *b) noexcept nogil:
    """One deal of the natural game, bid by the protocol of the rules."""
    cdef mask32 hands[N_SEATS]
    cdef mask32 talon
    cdef int trump, indicator
    if rules.protocol == PROTOCOL_L:
        deal_protocol_l(deal_rng, cards, hands, &talon)
        natural_bidding_l(hands, talon, rules, b)
    else:
        trump = deal_protocol_v(deal_rng, bid_rng, cards, rules, hands, &indicator)
        natural_bidding(hands, trump, indicator, rules, b)


cdef inline void play_bidding(Play *p, const Bidding *b, const Rules *rules, Solver *solver) noexcept nogil:
    """Set up the play of the contract the bidding reached."""
    cdef int d, part
    play_init(p, b.hands, b.talon, b.actor, b.leader, b.game, b.trump, b.seven_holder, rules, solver)
    for d in range(2):
        for part in range(N_PARTS):
            p.k[d][part] = b.k[d][part]
    for d in range(N_SEATS):
        p.laid_down[d] = b.laid_down[d]


# ---------------------------------------------------------------------------------------------
# The shard kernel

def new_counters():
    z = lambda *shape: np.zeros(shape, np.int64)
    counters = dict(
        deals=z(1),
        # hand baselines on every deal (§8.4)
        fh_hlas=z(5), hand10_hlas=z(5), fh_kq_spades=z(1), hand10_kq_spades=z(1), def_hlas=z(7),
        hand10_both=z(5),        # deals where both 10-card hands hold h hlasy (their pooled intervals)
        fh_at=z(9), fh_trumps=z(9), holdings=z(N_HOLDINGS),
        # the Stovka experiment (forced mode)
        qualified=z(1), success=z(1),
        by_hlas_trumps=z(2, 3, 9), by_at=z(2, 9), by_honours=z(2, N_HONOURS), count_hist=z(COUNT_BINS),
        # §8.3 side-suit features after the discard: [trials/successes, value]
        by_side_aces=z(2, 4), by_unguarded_tens=z(2, 4), by_side_voids=z(2, 4), by_longest_side=z(2, 9),
        by_side_singletons=z(2, 4),
        by_def_hlas=z(2, 6),      # the defenders' hlasy (ex post) / 20
        by_discard=z(2, 4, 3),    # discard kind (DISCARD_KINDS) x side-suit voids the discard made
        s_hist=z(4, 2 * S_RANGE + 1),   # S per defender (B) + S_RANGE: stovka, hra, sto_a_sedem, sedma
        money=z(4, 3),            # rows stovka, hra, sto_a_sedem, sedma; columns n, sum S, sum S^2
        paired=z(2, 3),           # stovka - hra, sto_a_sedem - sedma: n, sum, sum of squares
        paired_positive=z(2),     # deals where the first contract of the pair paid more
        companion=z(6, 2),        # successes, trials: tichá stovka in Hra, sedma, Hra win,
                                  # defenders' tichá stovka, Malý, Veľký
        # natural mode: per contract n, made (main part won), sum S, sum S^2, hundred reached
        contracts=z(N_GAMES, 5),
        proti=z(2), doubled=z(1),
    )
    # Under trump_choice oracle a deal gives one trial a suit, and the trials of a deal are not
    # independent. For each cell of the trial tables, <name>_clusters holds the planes [deals with
    # a trial in the cell, sum of t^2, sum of x t, sum of x^2] over those deals, x being the sum of
    # the deal's values in the cell (successes, S, or trials with that value of a distribution) and
    # t its trials in the cell (of a distribution: in the row, all values of one contract, whose
    # deals and sum of t^2 are those of the money row, or of qualified for count_hist). Zero in
    # every other mode (one trial a deal).
    for name in CLUSTERED:
        shape = counters[name].shape
        cells = shape[1:] if name.startswith("by_") else (shape if name.endswith("_hist") else shape[:1])
        counters[name + "_clusters"] = z(4, *cells)
    return counters


# the trial tables with clusters, in the order of the CL_ constants
CLUSTERED = ("qualified", "by_hlas_trumps", "by_at", "by_honours", "by_side_aces", "by_unguarded_tens",
             "by_side_voids", "by_longest_side", "by_side_singletons", "by_def_hlas", "by_discard",
             "money", "paired", "companion", "count_hist", "s_hist")


cdef enum:
    CL_QUALIFIED, CL_HLAS_TRUMPS, CL_AT, CL_HONOURS, CL_SIDE_ACES, CL_UNGUARDED, CL_VOIDS, CL_LONGEST
    CL_SINGLETONS, CL_DEF_HLAS, CL_DISCARD, CL_MONEY, CL_PAIRED, CL_COMPANION, CL_COUNT, CL_S_HIST
    N_CLUSTERED
    MAX_TABLE_UNITS = 16           # a table's entries in one deal: 4 trials x at most 4 (money, companion, S)


cdef struct DealUnits:
    # One deal's trials under trump_choice oracle: per table an entry (cell, its row, value) per
    # trial and cell. A row is one cell of a rate table, and one contract's (or all) values of a
    # distribution (s_hist, count_hist), whose trials are the row's.
    int n[N_CLUSTERED]
    Py_ssize_t cell[N_CLUSTERED][MAX_TABLE_UNITS]
    Py_ssize_t row[N_CLUSTERED][MAX_TABLE_UNITS]
    int64_t value[N_CLUSTERED][MAX_TABLE_UNITS]
    int64_t *planes[N_CLUSTERED]   # each table's <name>_clusters, flat
    Py_ssize_t cells[N_CLUSTERED]  # its cells a plane
    Py_ssize_t row_cells[N_CLUSTERED]


cdef inline void unit_add(DealUnits *u, int table, Py_ssize_t cell, int64_t value) noexcept nogil:
    cdef int k = u.n[table]
    u.cell[table][k] = cell
    u.row[table][k] = cell // u.row_cells[table]
    u.value[table][k] = value
    u.n[table] = k + 1


cdef inline void units_add_money(DealUnits *u, int pair, int64_t high, int64_t low) noexcept nogil:
    """count_paired_money's values as trials of the deal (money and s_hist rows 2 * pair and 2 * pair + 1)."""
    cdef Py_ssize_t bins = 2 * S_RANGE + 1
    unit_add(u, CL_MONEY, 2 * pair, high)
    unit_add(u, CL_MONEY, 2 * pair + 1, low)
    unit_add(u, CL_PAIRED, pair, high - low)
    unit_add(u, CL_S_HIST, 2 * pair * bins + s_bin(high), 1)
    unit_add(u, CL_S_HIST, (2 * pair + 1) * bins + s_bin(low), 1)


cdef void units_fold(DealUnits *u) noexcept nogil:
    """Add the deal's trials to the cluster planes of their cells: t trials in the cell's row, x
    the sum of the cell's values (at most 16 entries a table, so pairs are cheap)."""
    cdef int table, i, j, m
    cdef bint first
    cdef Py_ssize_t c, r, k
    cdef int64_t t, x
    cdef int64_t *p
    for table in range(N_CLUSTERED):
        m = u.n[table]
        k = u.cells[table]
        for i in range(m):
            c = u.cell[table][i]
            first = True
            for j in range(i):
                if u.cell[table][j] == c:
                    first = False
            if not first:                           # the cell's first entry folds it
                continue
            r = u.row[table][i]
            t = 0
            x = 0
            for j in range(m):
                t += u.row[table][j] == r
                if u.cell[table][j] == c:
                    x += u.value[table][j]
            p = u.planes[table] + c
            p[0] += 1
            p[k] += t * t
            p[2 * k] += x * t
            p[3 * k] += x * x
        u.n[table] = 0


DISCARD_KINDS = ("two side cards of one suit", "side cards of two suits", "a trump and a side card", "two trumps")
S_ROWS = ("Stovka", "Hra (with tichá stovka)", "Sto a sedem", "Sedma a hra")
S_OFFSET = S_RANGE                 # s_hist[row, S + S_OFFSET]


cdef inline Py_ssize_t s_bin(int64_t value) noexcept nogil:
    """The s_hist column of S (the extreme columns collect the values beyond +-S_RANGE)."""
    if value < -S_RANGE:
        value = -S_RANGE
    elif value > S_RANGE:
        value = S_RANGE
    return value + S_RANGE


cdef inline void count_s(int64_t[:, ::1] hist, int row, int value) noexcept nogil:
    hist[row, s_bin(value)] += 1


cdef inline void count_paired_money(int64_t[:, ::1] money, int64_t[:, ::1] s_hist, int64_t[:, ::1] paired,
                                    int64_t[::1] paired_positive, int pair, int64_t high, int64_t low) noexcept nogil:
    """One deal's money of the higher contract (Stovka, pair 0; Sto a sedem, pair 1: rows 2 * pair of
    money and s_hist) beside the lower one played on the same deal (Hra; Sedma a hra: row 2 * pair + 1)."""
    money[2 * pair, 0] += 1
    money[2 * pair, 1] += high
    money[2 * pair, 2] += high * high
    money[2 * pair + 1, 0] += 1
    money[2 * pair + 1, 1] += low
    money[2 * pair + 1, 2] += low * low
    count_s(s_hist, 2 * pair, high)
    count_s(s_hist, 2 * pair + 1, low)
    paired[pair, 0] += 1
    paired[pair, 1] += high - low
    paired[pair, 2] += (high - low) * (high - low)
    paired_positive[pair] += high > low


COMPANION = ("ticha stovka in Hra", "sedma (trump 7 wins the last trick)", "Hra won",
             "defenders' ticha stovka", "Maly made", "Velky made")


def stovka_shard(bit_generators, Py_ssize_t n_deals, dict rule_options, dict strategies, str mode="forced",
                 str filter_name="any_hlas", given=None, int trump=-1, python=None):
    """Play n_deals deals of the Stovka experiment (mode forced, hand filter filter_name) or of
    the whole game (mode natural) and count. strategies: role -> name (see STRATEGY_ROLES in
    analyzer/games/marias.py). bit_generators: deal, card play, bidding.
    Constrained deals: `given` (uint8, n_deals x 32) holds the shuffled packs to deal by protocol
    V instead of shuffling, and `trump` (0-3 for S H D C, or -1: chosen as usual) fixes the
    trump suit; the forehand must then hold a card of it, and his lowest one is the indicator.
    `python(slot, data)` answers for the roles named "module:Class" (slot 0 actor_play,
    1 defender_play, 2 the discard; see analyzer.games.marias.PythonPlayers)."""
    cdef Rules rules = rules_from(rule_options, strategies, mode, filter_name, python)
    if rules.protocol == PROTOCOL_L and rules.mode == MODE_FORCED:
        raise ValueError("the forced Stovka experiment (§8.1) deals by protocol V (trumps from the first 7 "
                         "cards); protocol L applies to the natural game, compare and play_deal")
    counters = new_counters()
    if len(bit_generators) < 3:
        raise ValueError("the mariáš kernel needs three bit generators (deal, card play, bidding)")
    if not -1 <= trump < 4 or (trump >= 0 and given is None):
        raise ValueError("a fixed trump is a suit 0-3 and needs given deals")
    if trump >= 0 and n_deals and not (np.asarray(given)[:, list(range(7)) + list(range(17, 22))] // 8 == trump).any(axis=1).all():
        raise ValueError("with a fixed trump the forehand must hold a card of the trump suit in every given deal")
    cdef Solver solver_store
    cdef Solver *solver = NULL
    if needs_solver(rules.strat[0]) or needs_solver(rules.strat[1]):
        if not solver_init(&solver_store):
            raise MemoryError("no memory for the double-dummy transposition table")
        solver = &solver_store
    try:
        _stovka_loop(bit_generators, n_deals, &rules, solver, counters, given_rows(given, n_deals, N_CARDS), given is not None,
                     trump)
    finally:
        if solver != NULL:
            solver_free(solver)
    return counters


cdef void _stovka_loop(object bit_generators, Py_ssize_t n_deals, Rules *rules_ptr, Solver *solver, dict counters,
                       const uint8_t[:, ::1] given, bint has_given, int fixed_trump) except *:
    cdef Rules rules = rules_ptr[0]
    cdef int64_t[::1] deals = counters["deals"], fh_hlas = counters["fh_hlas"], hand10_hlas = counters["hand10_hlas"]
    cdef int64_t[::1] fh_kq = counters["fh_kq_spades"], h10_kq = counters["hand10_kq_spades"], def_hlas = counters["def_hlas"]
    cdef int64_t[::1] hand10_both = counters["hand10_both"]
    cdef int64_t[::1] fh_at = counters["fh_at"], fh_trumps = counters["fh_trumps"], holdings = counters["holdings"]
    cdef int64_t[::1] qualified = counters["qualified"], success = counters["success"], count_hist = counters["count_hist"]
    cdef int64_t[:, :, ::1] by_hlas_trumps = counters["by_hlas_trumps"]
    cdef int64_t[:, ::1] by_at = counters["by_at"], by_honours = counters["by_honours"], money = counters["money"]
    cdef int64_t[::1] paired_positive = counters["paired_positive"]
    cdef int64_t[:, ::1] paired = counters["paired"], companion = counters["companion"], contracts = counters["contracts"]
    cdef int64_t[::1] proti_count = counters["proti"], doubled = counters["doubled"]
    cdef int64_t[:, ::1] by_side_aces = counters["by_side_aces"], by_unguarded_tens = counters["by_unguarded_tens"]
    cdef int64_t[:, ::1] by_side_voids = counters["by_side_voids"], by_longest_side = counters["by_longest_side"]
    cdef int64_t[:, ::1] by_side_singletons = counters["by_side_singletons"], by_def_hlas = counters["by_def_hlas"]
    cdef int64_t[:, :, ::1] by_discard = counters["by_discard"]
    cdef int64_t[:, ::1] s_hist = counters["s_hist"]
    cdef int64_t[::1] flat
    cdef DealUnits units                                 # the trials of a deal under trump_choice oracle
    cdef bint clustered
    cdef int side_aces, unguarded, voids, longest, lane_n, singletons, made_voids, kind, n_trumps_out
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *play_bits = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bid_bits = bitgen_pointer(bit_generators[2])
    cdef Rng deal_rng, rng, bid_rng
    cdef Rng *seat_rng[N_SEATS]
    cdef uint8_t cards[N_CARDS]
    cdef int trials[4]
    cdef int n_trials, trial
    cdef int c, s, d, trump, indicator, fh = 0, mid = 1, rear = 2, err, q, ntr, at, suits, max_h, hon
    cdef int mid_suits, rear_suits, mid_hlasy, rear_hlasy
    cdef int game, won, hit, sv, sh, ticha, def_ticha, seven
    cdef int strategy[N_SEATS]
    cdef int zero_k[2][N_PARTS]
    cdef mask32 h12, discard
    cdef mask32 hands[N_SEATS]
    cdef Bidding bidding
    cdef Play play
    cdef Outcome o
    cdef Py_ssize_t deal
    memset(zero_k, 0, sizeof(zero_k))
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    for s in range(N_SEATS):
        seat_rng[s] = &rng                               # one strategy stream for every seat
    memset(&units, 0, sizeof(DealUnits))
    for c in range(N_CLUSTERED):
        flat = counters[CLUSTERED[c] + "_clusters"].reshape(-1)
        units.planes[c] = &flat[0]
        units.cells[c] = flat.shape[0] // 4
        units.row_cells[c] = 1
    units.row_cells[CL_COUNT] = COUNT_BINS
    units.row_cells[CL_S_HIST] = 2 * S_RANGE + 1
    with bit_generators[0].lock, bit_generators[1].lock, bit_generators[2].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&rng, play_bits)
        rng_init(&bid_rng, bid_bits)
        for deal in range(n_deals):
            if rules.protocol == PROTOCOL_L:                  # natural mode (stovka_shard refuses forced L)
                deal_and_bid(&deal_rng, &bid_rng, cards, &rules, &bidding)
            else:
                if has_given:
                    trump = given_protocol_v(&bid_rng, &given[deal, 0], fixed_trump, &rules, hands, &indicator)
                else:
                    trump = deal_protocol_v(&deal_rng, &bid_rng, cards, &rules, hands, &indicator)
                h12 = hands[fh]
                # baselines on the dealt hands
                suits = hlas_suits(h12)
                fh_hlas[popcount32(suits)] += 1
                fh_kq[0] += suits & 1
                mid_suits = hlas_suits(hands[mid])
                rear_suits = hlas_suits(hands[rear])
                mid_hlasy = popcount32(mid_suits)
                rear_hlasy = popcount32(rear_suits)
                hand10_hlas[mid_hlasy] += 1
                hand10_hlas[rear_hlasy] += 1
                if mid_hlasy == rear_hlasy:
                    hand10_both[mid_hlasy] += 1
                h10_kq[0] += (mid_suits & 1) + (rear_suits & 1)
                def_hlas[mid_hlasy + rear_hlasy] += 1
                at = popcount32(h12 & POINT_CARDS)
                fh_at[at] += 1
                ntr = popcount32(h12 & suit_mask(trump))
                fh_trumps[ntr] += 1
                sh = suits >> trump & 1
                holdings[0] += sh
                holdings[1] += (h12 & trump_seven(trump)) != 0
                holdings[2] += (h12 >> (8 * trump + RA)) & 1
                holdings[3] += (h12 >> (8 * trump + RT)) & 1
                holdings[4] += sh and ntr >= 5
                holdings[5] += sh and ntr >= 4
                holdings[6] += suits != 0 and ntr >= 4
                holdings[7] += sh and ntr >= 5 and (h12 >> (8 * trump + RA)) & 1
                holdings[8] += sh and ntr >= 6 and (h12 >> (8 * trump + RA)) & 1 and at >= 5
                holdings[9] += trump == SUIT_HEARTS

                if rules.mode == MODE_FORCED:
                    n_trials = 1
                    trials[0] = trump
                    clustered = rules.trump_policy == TAU_ORACLE and fixed_trump < 0
                    if clustered:                         # every suit of the 12 cards, no indicator
                        n_trials = 0
                        for s in range(4):
                            if h12 & suit_mask(s):
                                trials[n_trials] = s
                                n_trials += 1
                        indicator = -1
                    for trial in range(n_trials):
                        trump = trials[trial]
                        suits = hlas_suits(h12)
                        sh = suits >> trump & 1
                        ntr = popcount32(h12 & suit_mask(trump))
                        if rules.filter == FILTER_ANY_HLAS:
                            q = suits != 0
                        elif rules.filter == FILTER_TRUMP_HLAS:
                            q = sh
                        elif rules.filter == FILTER_MARIASEK:
                            q = suits != 0 and ntr >= 4
                        else:
                            q = 1
                        if not q:
                            continue
                        discard = suit_discard(h12, trump, indicator, &rules)
                        if discard == 0:
                            continue
                        hands[fh] = h12 & ~discard
                        suits = hlas_suits(hands[fh])
                        if suits == 0 and not rules.allow_hopeless_stovka:
                            continue                             # the discard broke the only hlas
                        qualified[0] += 1
                        seat_strategies(&rules, fh, strategy)
                        play_init(&play, hands, discard, fh, fh, GAME_STOVKA, trump, -1, &rules, solver)
                        run_play(&play, strategy, seat_rng, NULL, 0, &err)
                        fill_outcome(&play, &o, &rules)
                        sv = counted_points(&o, &rules)
                        hit = sv >= 100
                        success[0] += hit
                        max_h = 2 if suits >> trump & 1 else (1 if suits else 0)
                        ntr = popcount32(hands[fh] & suit_mask(trump))
                        at = popcount32(hands[fh] & POINT_CARDS)
                        hon = (((hands[fh] >> (8 * trump + RA)) & 1) | (((hands[fh] >> (8 * trump + RT)) & 1) << 1)
                               | (((hands[fh] >> (8 * trump + RK)) & 1) << 2) | (((hands[fh] >> (8 * trump + RQ)) & 1) << 3)
                               | (((hands[fh] >> (8 * trump + R7)) & 1) << 4))
                        by_hlas_trumps[0, max_h, ntr] += 1
                        by_hlas_trumps[1, max_h, ntr] += hit
                        by_at[0, at] += 1
                        by_at[1, at] += hit
                        by_honours[0, hon] += 1
                        by_honours[1, hon] += hit
                        side_aces = 0
                        unguarded = 0
                        voids = 0
                        longest = 0
                        singletons = 0
                        made_voids = 0
                        for s in range(4):
                            if s == trump:
                                continue
                            made_voids += (h12 & suit_mask(s)) != 0 and (hands[fh] & suit_mask(s)) == 0
                            singletons += popcount32(hands[fh] & suit_mask(s)) == 1
                            side_aces += <int>((hands[fh] >> (8 * s + RA)) & 1)
                            unguarded += <int>(((hands[fh] >> (8 * s + RT)) & 3) == 1)    # the T held, the A not
                            lane_n = popcount32(hands[fh] & suit_mask(s))
                            voids += lane_n == 0
                            if lane_n > longest:
                                longest = lane_n
                        by_side_aces[0, side_aces] += 1
                        by_side_aces[1, side_aces] += hit
                        by_unguarded_tens[0, unguarded] += 1
                        by_unguarded_tens[1, unguarded] += hit
                        by_side_voids[0, voids] += 1
                        by_side_voids[1, voids] += hit
                        by_longest_side[0, longest] += 1
                        by_longest_side[1, longest] += hit
                        by_side_singletons[0, singletons] += 1
                        by_side_singletons[1, singletons] += hit
                        by_def_hlas[0, o.hlasy_def // 20] += 1
                        by_def_hlas[1, o.hlasy_def // 20] += hit
                        if clustered:
                            unit_add(&units, CL_QUALIFIED, 0, hit)
                            unit_add(&units, CL_HLAS_TRUMPS, by_hlas_trumps.shape[2] * max_h + ntr, hit)
                            unit_add(&units, CL_AT, at, hit)
                            unit_add(&units, CL_HONOURS, hon, hit)
                            unit_add(&units, CL_SIDE_ACES, side_aces, hit)
                            unit_add(&units, CL_UNGUARDED, unguarded, hit)
                            unit_add(&units, CL_VOIDS, voids, hit)
                            unit_add(&units, CL_LONGEST, longest, hit)
                            unit_add(&units, CL_SINGLETONS, singletons, hit)
                            unit_add(&units, CL_DEF_HLAS, o.hlasy_def // 20, hit)
                        n_trumps_out = popcount32(discard & suit_mask(trump))
                        if n_trumps_out:
                            kind = 1 + n_trumps_out
                        else:
                            kind = 0 if popcount32(discard & suit_mask(card_suit(lowest_bit32(discard)))) == 2 else 1
                        by_discard[0, kind, made_voids] += 1
                        by_discard[1, kind, made_voids] += hit
                        if clustered:
                            unit_add(&units, CL_DISCARD, by_discard.shape[2] * kind + made_voids, hit)
                        count_hist[sv // 10 if sv >= 0 else 0] += 1
                        if clustered:
                            unit_add(&units, CL_COUNT, sv // 10 if sv >= 0 else 0, 1)
                        sv = settle_both(&play, &rules, GAME_STOVKA, zero_k, -1, &won) // 2
                        sh = settle_both(&play, &rules, GAME_HRA, zero_k, -1, &won) // 2
                        count_paired_money(money, s_hist, paired, paired_positive, 0, sv, sh)
                        ticha = o.cp_actor + (10 if o.last_actor else 0) + o.hlasy_actor >= 100
                        def_ticha = (80 - o.cp_actor) + (0 if o.last_actor else 10) + o.hlasy_def >= 100
                        companion[0, 0] += ticha
                        companion[0, 1] += 1
                        companion[2, 0] += won
                        companion[2, 1] += 1
                        companion[3, 0] += def_ticha
                        companion[3, 1] += 1
                        if clustered:
                            units_add_money(&units, 0, sv, sh)
                            unit_add(&units, CL_COMPANION, 0, ticha)
                            unit_add(&units, CL_COMPANION, 2, won)
                            unit_add(&units, CL_COMPANION, 3, def_ticha)
                        if hands[fh] & trump_seven(trump):
                            play_init(&play, hands, discard, fh, fh, GAME_STO_A_SEDEM, trump, fh, &rules, solver)
                            run_play(&play, strategy, seat_rng, NULL, 0, &err)
                            sv = settle_both(&play, &rules, GAME_STO_A_SEDEM, zero_k, -1, &won) // 2
                            sh = settle_both(&play, &rules, GAME_SEDMA, zero_k, -1, &won) // 2
                            count_paired_money(money, s_hist, paired, paired_positive, 1, sv, sh)
                            seven = play.seven == SEVEN_WON_ACTOR
                            companion[1, 0] += seven
                            companion[1, 1] += 1
                            if clustered:
                                units_add_money(&units, 1, sv, sh)
                                unit_add(&units, CL_COMPANION, 1, seven)
                    if clustered:
                        units_fold(&units)
                    continue

                # natural mode: the forehand's flavour, the takeover round, contract, doublings, play
                natural_bidding(hands, trump, indicator, &rules, &bidding)
            game = bidding.game
            proti_count[0] += bidding.proti_by >= 0
            doubled[0] += bidding.k[0][PART_HRA] + bidding.k[0][PART_MAIN] + bidding.k[0][PART_SEDMA] > 0
            seat_strategies(&rules, bidding.actor, strategy)
            play_bidding(&play, &bidding, &rules, solver)
            run_play(&play, strategy, seat_rng, NULL, 0, &err)
            sv = settle_both(&play, &rules, game, bidding.k, bidding.proti_by, &won)
            fill_outcome(&play, &o, &rules)
            contracts[game, 0] += 1
            contracts[game, 1] += won
            contracts[game, 2] += sv
            contracts[game, 3] += sv * sv
            if is_suit_game(game):
                contracts[game, 4] += counted_points(&o, &rules) >= 100
            if game == GAME_MALY:
                companion[4, 0] += won
                companion[4, 1] += 1
            elif game == GAME_VELKY:
                companion[5, 0] += won
                companion[5, 1] += 1
        deals[0] = n_deals



# ---------------------------------------------------------------------------------------------
# Constrained deals: the shuffled packs come from the caller (analyzer.constrained deals them with
# some cards fixed and filters them by the user's predicate; core.given_rows checks them)

cdef int given_protocol_v(Rng *bid_rng, const uint8_t *cards, int fixed_trump, const Rules *rules, mask32 *hands,
                          int *indicator) noexcept nogil:
    """deal_protocol_v on a given pack; with a fixed trump suit the indicator is the forehand's
    lowest card of it (the caller made sure he holds one)."""
    cdef mask32 first7, packet2
    protocol_v_hands(cards, hands, &first7, &packet2)
    if fixed_trump >= 0:
        indicator[0] = lowest_bit32(hands[0] & suit_mask(fixed_trump))
        return fixed_trump
    return choose_trump(first7, packet2, rules, bid_rng, indicator)


# ---------------------------------------------------------------------------------------------
# Duplicate comparison of two card-play strategies (analyzer/compare.py)

def compare_shard(bit_generators, Py_ssize_t n_deals, dict rule_options, dict strategies, python=None):
    """Duplicate deals of the whole game (protocol V, heuristic bidding and doublings, as the
    natural mode): each deal is bid once, then played twice from the same hands, talon, contract
    and doublings: strategy A (role a_play) holds the actor's seat against B (b_play) holding both
    defenders' seats, then B is the actor against A. A's result is the actor's money (balance
    against both defenders, in B) in the first play, B's the actor's money in the second; the
    paired difference a - b is exactly A's money summed over every seat it played (actor: +a,
    the two defenders: -b), and b - a is B's. A and B draw from their own streams 1 and 3 (the
    random and PIMC players), the bidding from stream 2 as in stovka_shard, stream 0 deals. Besides the counters of analyzer.compare,
    by_contract[game] holds deals, deals A made as actor, deals B made as actor (main part won),
    and the sums of a and of b. `python(slot, data)` answers for a Python A (slot 0) or B (slot 1)."""
    cdef Rules rules = rules_from(rule_options, strategies, "natural", "all", python)
    cdef int strat_a = card_strategy(strategies["a_play"], 0, python), strat_b = card_strategy(strategies["b_play"], 1, python)
    if len(bit_generators) < 4:
        raise ValueError("the mariáš compare kernel needs four bit generators (deal, A, bidding, B)")
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    by_contract = np.zeros((N_GAMES, 5), np.int64)
    cdef Solver solver_store
    cdef Solver *solver = NULL
    if needs_solver(strat_a) or needs_solver(strat_b):
        if not solver_init(&solver_store):
            raise MemoryError("no memory for the double-dummy transposition table")
        solver = &solver_store
    try:
        _compare_loop(bit_generators, n_deals, &rules, strat_a, strat_b, solver, &tally, by_contract)
    finally:
        if solver != NULL:
            solver_free(solver)
    return {**pair_counters(tally), "by_contract": by_contract}


cdef void _compare_loop(object bit_generators, Py_ssize_t n_deals, const Rules *rules, int strat_a, int strat_b,
                        Solver *solver, PairTally *tally, int64_t[:, ::1] by_contract) except *:
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *a_bits = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bid_bits = bitgen_pointer(bit_generators[2])    # as in stovka_shard
    cdef bitgen_t *b_bits = bitgen_pointer(bit_generators[3])
    cdef Rng deal_rng, rng_a, rng_b, bid_rng
    cdef Rng *seat_rng[N_SEATS]
    cdef int strategy[N_SEATS]
    cdef int money[2]
    cdef int made[2]
    cdef uint8_t cards[N_CARDS]
    cdef mask32 hands[N_SEATS]
    cdef int c, s, trump, indicator, err, actor_is_a, side
    cdef int64_t a, b
    cdef Bidding bidding
    cdef Play play
    cdef Py_ssize_t deal
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    with bit_generators[0].lock, bit_generators[1].lock, bit_generators[2].lock, bit_generators[3].lock, nogil:
        rng_init(&deal_rng, deal_bits)
        rng_init(&rng_a, a_bits)
        rng_init(&rng_b, b_bits)
        rng_init(&bid_rng, bid_bits)
        for deal in range(n_deals):
            deal_and_bid(&deal_rng, &bid_rng, cards, rules, &bidding)
            for side in range(2):                        # 0: A is the actor, 1: B is
                actor_is_a = side == 0
                for s in range(N_SEATS):
                    if (s == bidding.actor) == actor_is_a:
                        strategy[s] = strat_a
                        seat_rng[s] = &rng_a
                    else:
                        strategy[s] = strat_b
                        seat_rng[s] = &rng_b
                play_bidding(&play, &bidding, rules, solver)
                run_play(&play, strategy, seat_rng, NULL, 0, &err)
                money[side] = settle_both(&play, rules, bidding.game, bidding.k, bidding.proti_by, &made[side])
            a = money[0]
            b = money[1]
            tally_pair(tally, a, b)
            by_contract[bidding.game, 0] += 1
            by_contract[bidding.game, 1] += made[0]
            by_contract[bidding.game, 2] += made[1]
            by_contract[bidding.game, 3] += a
            by_contract[bidding.game, 4] += b

cdef int forehand_flavour(mask32 h12_betl) noexcept nogil:
    """The forehand judges Veľký and Malý on the 10 cards each discard would leave."""
    if durch_danger(h12_betl & ~betl_discard(h12_betl, FLAVOUR_VELKY)) == 0:
        return FLAVOUR_VELKY
    if betl_danger(h12_betl & ~betl_discard(h12_betl, FLAVOUR_MALY)) == 0:
        return FLAVOUR_MALY
    return FLAVOUR_FARBA


# ---------------------------------------------------------------------------------------------
# Single deals and checks for the Python layer

def legal_mask(uint32_t hand, trick, int trump, bint seven_guard, bint queen_first, bint betl):
    """Legal cards (mask, suit-game encoding) for `hand` facing the trick's card bits."""
    cdef uint8_t t[3]
    cdef int n = len(trick), i
    if n > 2:
        raise ValueError("a trick in progress holds at most 2 cards")
    for i in range(n):
        t[i] = remap_card(trick[i], TO_BETL_POS) if betl else trick[i]
    cdef mask32 h = remap(hand, TO_BETL_POS) if betl else hand
    cdef mask32 m = legal_cards(h, t, n, NO_TRUMP if betl else trump, seven_guard, queen_first and not betl)
    return int(remap(m, FROM_BETL_POS) if betl else m)


def play_one(hands, uint32_t talon, int actor, int game, int trump, int seven_holder, strategies,
             forced, dict rule_options, bit_generator, int leader=-1, python=None):
    """Play one deal from the given 10-card hands (validated by the caller). `forced` lists the
    first card bits to play; the seats' strategies (names) play the rest; `leader` leads the first
    trick (default: the actor); `python(slot, data)` answers for "module:Class" names (slot 0 the
    actor's, 1 the defenders'). Returns a dict."""
    cdef Rules rules = rules_from(rule_options, {}, "forced", "all", python)
    cdef mask32 h[N_SEATS]
    cdef uint8_t f[30]
    cdef int strategy[N_SEATS]
    cdef int i, err_index = -1, err, n_forced = len(forced)
    cdef Play play
    cdef Outcome o
    cdef Rng rng
    cdef Rng *seat_rng[N_SEATS]
    cdef bitgen_t *bits = bitgen_pointer(bit_generator)
    cdef Solver solver_store
    cdef Solver *solver = NULL
    for i in range(N_SEATS):
        seat_rng[i] = &rng
        h[i] = hands[i]
        strategy[i] = card_strategy(strategies[i], 0 if i == actor else 1, python)
        if needs_solver(strategy[i]) and solver == NULL:
            if not solver_init(&solver_store):
                raise MemoryError("no memory for the double-dummy transposition table")
            solver = &solver_store
    if n_forced > 30:
        raise ValueError("at most 30 cards can be played")
    play_init(&play, h, talon, actor, actor if leader < 0 else leader, game, trump, seven_holder, &rules,
              solver)
    for i in range(n_forced):
        f[i] = remap_card(forced[i], TO_BETL_POS) if play.betl else forced[i]
    try:
        with bit_generator.lock:
            rng_init(&rng, bits)
            err = run_play(&play, strategy, seat_rng, f, n_forced, &err_index)
    finally:
        if solver != NULL:
            solver_free(solver)
    fill_outcome(&play, &o, &rules)
    back = (lambda c: remap_card(c, FROM_BETL_POS)) if play.betl else (lambda c: c)
    return dict(
        error=("", "not in hand", "illegal")[err], error_index=err_index,
        cards=[back(play.log[i]) for i in range(play.n_played)],
        seats=[play.seat_log[i] for i in range(play.n_played)],
        legal=[int(remap(play.legal_log[i], FROM_BETL_POS) if play.betl else play.legal_log[i])
               for i in range(play.n_played + (1 if err == ERR_ILLEGAL else 0))],
        trick_winners=[play.trick_winner[i] for i in range(play.n_tricks)],
        tricks=[play.tricks[i] for i in range(N_SEATS)], card_points=[play.cp[i] for i in range(N_SEATS)],
        first_hlas=[play.first_hlas[i] for i in range(N_SEATS)],
        seven=SEVEN_NAMES[play.seven], cp_actor=o.cp_actor, last_actor=bool(o.last_actor),
        hlasy_actor=o.hlasy_actor, hlasy_def=o.hlasy_def, max_hlas_actor=o.max_hlas_actor,
        counted=counted_points(&o, &rules) if not play.betl else 0,
    )


def discard_of(uint32_t hand12, int trump, int indicator, dict rule_options, dict strategies):
    """The suit-game talon (card mask) the discard strategy picks from 12 cards (0: none legal)."""
    cdef Rules rules = rules_from(rule_options, strategies, "forced", "all")
    return int(suit_discard(hand12, trump, indicator, &rules))


def auction(limits):
    """Protocol L's auction (§3.6) for the bidders' limits (rungs 0..8, seats forehand, middle,
    rear): (winner, rung won, trace of (seat, 0 pass | rung named | 9 hold))."""
    cdef Bidding b
    cdef int s, winner
    memset(&b, 0, sizeof(Bidding))
    if len(limits) != N_SEATS or any(not 0 <= x < N_RUNGS for x in limits):
        raise ValueError("limits must be three rungs from 0 to 8")
    for s in range(N_SEATS):
        b.limit[s] = limits[s]
    winner = auction_l(&b)
    return winner, b.rung, [(b.trace[s] // 16, b.trace[s] % 16) for s in range(b.n_trace)]


def natural_deals(bit_generators, Py_ssize_t n_deals, dict rule_options, dict strategies):
    """The natural game deal by deal, for the tests against the reference (streams: deal, card
    play, bidding): per deal the shuffled card order, the bidding (protocol L: each seat's limit, the auction trace, the rung
    won), the contract, the hands played, the talon, the doublings and the card play."""
    cdef Rules rules = rules_from(rule_options, strategies, "natural", "all")
    cdef bitgen_t *deal_bits = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *play_bits = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bid_bits = bitgen_pointer(bit_generators[2])
    cdef Rng deal_rng, rng, bid_rng
    cdef Rng *seat_rng[N_SEATS]
    cdef uint8_t cards[N_CARDS]
    cdef int strategy[N_SEATS]
    cdef int c, s, err, won
    cdef Bidding b
    cdef Play play
    cdef Py_ssize_t deal
    if needs_solver(rules.strat[0]) or needs_solver(rules.strat[1]):
        raise ValueError("natural_deals plays with the random or heuristic players only")
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    for s in range(N_SEATS):
        seat_rng[s] = &rng
    out = []
    with bit_generators[0].lock, bit_generators[1].lock, bit_generators[2].lock:
        rng_init(&deal_rng, deal_bits)
        rng_init(&rng, play_bits)
        rng_init(&bid_rng, bid_bits)
        for deal in range(n_deals):
            memset(&b, 0, sizeof(Bidding))
            deal_and_bid(&deal_rng, &bid_rng, cards, &rules, &b)
            seat_strategies(&rules, b.actor, strategy)
            play_bidding(&play, &b, &rules, NULL)
            run_play(&play, strategy, seat_rng, NULL, 0, &err)
            back = (lambda x: remap_card(x, FROM_BETL_POS)) if play.betl else (lambda x: x)
            out.append(dict(
                order=[cards[c] for c in range(N_CARDS)], limits=[b.limit[s] for s in range(N_SEATS)],
                trace=[(b.trace[c] // 16, b.trace[c] % 16) for c in range(b.n_trace)], rung=b.rung,
                actor=b.actor, game=GAME_NAMES[b.game], trump=b.trump if is_suit_game(b.game) else -1,
                hands=[int(b.hands[s]) for s in range(N_SEATS)], talon=int(b.talon), leader=b.leader,
                seven_holder=b.seven_holder, proti_by=b.proti_by, k=[[b.k[s][c] for c in range(N_PARTS)] for s in range(2)],
                cards=[back(play.log[c]) for c in range(play.n_played)],
                seats=[play.seat_log[c] for c in range(play.n_played)],
                trick_winners=[play.trick_winner[c] for c in range(play.n_tricks)],
                balance=settle_both(&play, &rules, b.game, b.k, b.proti_by, &won)))
    return out


def settle_kernel(dict outcome, dict rule_options):
    """The compiled settlement of one outcome (for tests against the Python settle())."""
    cdef Rules rules = rules_from(rule_options, {}, "forced", "all")
    cdef Outcome o
    cdef int won, part
    memset(&o, 0, sizeof(Outcome))
    o.game = GAME_NAMES.index(outcome["game"])
    o.trump = "SHDC".index(outcome["trump"]) if outcome.get("trump") else NO_TRUMP
    o.cp_actor = outcome.get("cp_actor", 0)
    o.last_actor = outcome.get("last", "actor") == "actor"
    ha = list(outcome.get("hlasy_actor", ()))
    o.hlasy_actor = sum(ha)
    o.max_hlas_actor = max(ha, default=0)
    o.first_hlas_actor = ha[0] if ha else 0
    o.hlasy_def = sum(outcome.get("hlasy_def", ()))
    o.seven = SEVEN_NAMES.index(outcome.get("seven", "none"))
    o.actor_tricks = outcome.get("actor_tricks", 0)
    o.proti = bool(outcome.get("sedma_proti", False))
    o.proti_announced = o.proti
    for part, key in enumerate(("hra", "sedma", "main", "sedma_proti")):
        o.k[part] = outcome.get("k", {}).get(key, 0)
    total = settle_outcome(&o, &rules.settle, &won)
    return total, bool(won)


def dd_value_of(hands, int leader, int actor, int game, int trump, int seven_holder, bint queen_first):
    """Exact double-dummy value (units: A/T + last trick for suit games; tricks the actor loses
    in Malý, wins in Veľký) of a position at a trick boundary; hands of equal size (suit-game
    encoding, validated by the caller)."""
    cdef Solver solver
    cdef DDState d
    cdef int s, value
    cdef int betl = not is_suit_game(game)
    memset(&d, 0, sizeof(DDState))
    for s in range(N_SEATS):
        d.hand[s] = remap(hands[s], TO_BETL_POS) if betl else hands[s]
    d.trump = NO_TRUMP if betl else trump
    d.actor = actor
    d.seven_holder = -1 if betl else seven_holder
    d.queen_first = queen_first and not betl
    d.goal = goal_of(game)
    d.leader = leader
    d.tricks_left = popcount32(d.hand[0])
    if not solver_init(&solver):
        raise MemoryError("no memory for the double-dummy transposition table")
    with nogil:
        value = dd_value(&solver, &d)
    nodes = solver.nodes
    solver_free(&solver)
    return value, nodes


def dd_benchmark(bit_generator, Py_ssize_t n_deals, int game):
    """Solve n_deals random deals (10 cards each, seat 0 the actor and leader, random trumps)
    from the first trick; returns the values' histogram and the number of search nodes."""
    cdef Solver solver
    cdef DDState d
    cdef Rng rng
    cdef uint8_t cards[N_CARDS]
    cdef int c, s
    cdef Py_ssize_t i
    cdef bitgen_t *bits = bitgen_pointer(bit_generator)
    hist = np.zeros(32, np.int64)
    cdef int64_t[::1] h = hist
    for c in range(N_CARDS):
        cards[c] = <uint8_t>c
    if not solver_init(&solver):
        raise MemoryError("no memory for the double-dummy transposition table")
    with bit_generator.lock, nogil:
        rng_init(&rng, bits)
        for i in range(n_deals):
            rng_partial_shuffle(&rng, cards, N_CARDS, 30)
            memset(&d, 0, sizeof(DDState))
            for s in range(N_SEATS):
                for c in range(HAND_CARDS):
                    d.hand[s] |= (<mask32>1) << cards[s * HAND_CARDS + c]
            d.trump = NO_TRUMP if game >= GAME_MALY else <int>rng_below(&rng, 4)
            d.actor = 0
            d.seven_holder = -1
            d.goal = goal_of(game)
            d.tricks_left = N_TRICKS
            solver_new_deal(&solver)
            h[dd_value(&solver, &d)] += 1
    nodes = solver.nodes
    solver_free(&solver)
    return hist, nodes
