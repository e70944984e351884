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
#
# Encoding: uint64 mask with a 16-bit lane per suit, bit = 16*suit + rank, suits S H D C = 0..3,
# ranks 4 5 6 7 J Q K A 2 3 = 0..9 (strength order), so a higher card of a suit is a higher bit.

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset

from bitboard cimport (mask64, popcount64, lowest_bit64, clear_lowest64, highest_bit32, suit_lane64,
                       rank_count64, rank_column64)
from rng cimport Rng, rng_init, rng_below, rng_partial_shuffle, bitgen_pointer
from numpy.random cimport bitgen_t

cnp.import_array()

cdef enum:
    N_CARDS = 40
    N_RANKS = 10
    N_SEATS = 4
    HAND = 10
    N_TRICKS = 10
    LANE = 16
    HEARTS = 1                   # the trump suit
    LANE_FULL = 0x3FF            # the ten ranks of a lane
    HONOUR_LANE = 0x3F0          # J Q K A 2 3
    BABA_LANE = 0x380            # A 2 3
    FIRST_HONOUR = 4             # rank index of the jack
    MAX_DECL = 40                # histogram size of one hand's declarations (max 26 by default)
    MAX_POINTS = 128             # histogram size of a side's points
    MAX_GAME_DEALS = 64          # histogram size of a game's length (a deal always scores >= 1)
    MAX_TRIES = 16               # attempts to sample a world that respects the known voids
    MAX_WORLDS = 1024

cdef enum:  # ranks, low to high
    R4 = 0
    R5 = 1
    R6 = 2
    R7 = 3
    RJ = 4
    RQ = 5
    RK = 6
    RA = 7
    R2 = 8
    R3 = 9

cdef enum:  # strategies
    RANDOM = 0
    GREEDY = 1
    PIMC = 2

cdef enum:  # trick-point counting
    PER_TRICK = 0
    AGGREGATE = 1

cdef int BABA_VALUE[4]           # by extension: none, K, K Q, K Q J
BABA_VALUE[:] = [3, 6, 9, 15]
cdef uint32_t EXTENSION_BITS[4]  # the K, K Q, K Q J that extend a baba
EXTENSION_BITS[:] = [0, 0x40, 0x60, 0x70]
cdef int TRICK_POINTS[5]         # by honours in the trick
TRICK_POINTS[:] = [0, 0, 0, 1, 2]
cdef mask64 RANK_COLUMN = 0x0001000100010001ULL
cdef mask64 FULL_DECK = LANE_FULL * RANK_COLUMN
cdef mask64 HONOURS = HONOUR_LANE * RANK_COLUMN

STRATEGIES = {"random": RANDOM, "greedy": GREEDY, "pimc": PIMC}


cdef struct Rules:
    int heart_baba_literal
    int four_of_kind_bonus
    int overlap_disallowed
    int honour_count
    int capot_replaces
    int capot_bonus
    int last_trick_points
    int step                     # 1 clockwise, 3 counter-clockwise (seat after s is (s + step) & 3)
    int target
    int double_below
    int check_after_declarations
    int strategy[2]              # per partnership
    int pimc_worlds
    int ruff_min_honours         # greedy ruffs an opponent's trick only if it holds this many honours


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
    r.strategy[0] = STRATEGIES[spec["strategy_a"]]
    r.strategy[1] = STRATEGIES[spec["strategy_b"]]
    r.pimc_worlds = spec["pimc_worlds"]
    r.ruff_min_honours = spec["ruff_min_honours"]
    if not 1 <= r.pimc_worlds <= MAX_WORLDS:
        raise ValueError(f"pimc_worlds must be in 1..{MAX_WORLDS}")
    return r


# ---------------------------------------------------------------------------------------------
# Declarations

cdef inline int baba_extension(uint32_t lane) noexcept nogil:
    # K, then K Q, then K Q J: the run must continue down from the ace.
    if not (lane >> RK) & 1:
        return 0
    if not (lane >> RQ) & 1:
        return 1
    if not (lane >> RJ) & 1:
        return 2
    return 3


cdef inline int baba_value(int suit, int ext, const Rules *r) noexcept nogil:
    if suit != HEARTS:
        return BABA_VALUE[ext]
    if r.heart_baba_literal:
        return 5 if ext == 0 else BABA_VALUE[ext]
    return BABA_VALUE[ext] + 2


cdef inline int set_points(const int *counts, int with_baba, const Rules *r) noexcept nogil:
    cdef int rank, pts = 0
    if counts[R7] >= 3:
        pts += 4
    for rank in range(RA, R3 + 1):              # aces, 2s, 3s
        if counts[rank] >= 3:
            pts += 4 if with_baba else 3
            if r.four_of_kind_bonus and counts[rank] == 4:
                pts += 1
    for rank in range(N_RANKS):                  # every other rank
        if rank != R7 and rank < RA and counts[rank] >= 3:
            pts += 1
    return pts


cdef int declare(mask64 hand, const Rules *r, mask64 *shown, int *chosen_babas) noexcept nogil:
    """Declaration points of one hand. *shown receives the cards the declarations show, and
    *chosen_babas the suits whose baba is declared (all of them unless overlap is disallowed)."""
    cdef int counts[N_RANKS]
    cdef int reduced[N_RANKS]
    cdef int ext[4]
    cdef int rank, s, babas = 0, sub, pts, best, best_sub
    cdef uint32_t lane
    cdef mask64 show = 0
    for rank in range(N_RANKS):
        counts[rank] = rank_count64(hand, rank)
        if counts[rank] >= 3:
            show |= hand & rank_column64(rank)
    for s in range(4):
        lane = suit_lane64(hand, s)
        ext[s] = 0
        if (lane & BABA_LANE) == BABA_LANE:
            babas |= 1 << s
            ext[s] = baba_extension(lane)
            show |= (<mask64>(lane & (BABA_LANE | EXTENSION_BITS[ext[s]]))) << (LANE * s)
    shown[0] = show
    if not r.overlap_disallowed:
        pts = set_points(counts, babas != 0, r)
        for s in range(4):
            if babas >> s & 1:
                pts += baba_value(s, ext[s], r)
        chosen_babas[0] = babas
        return pts
    # No card in two declarations: try every subset of the babas (a declared baba takes its
    # extension too, which is never worth less than the set the freed card might complete).
    best = -1
    best_sub = 0
    for sub in range(16):
        if sub & ~babas:
            continue
        for rank in range(N_RANKS):
            reduced[rank] = counts[rank]
        pts = 0
        for s in range(4):
            if sub >> s & 1:
                pts += baba_value(s, ext[s], r)
                reduced[R3] -= 1
                reduced[R2] -= 1
                reduced[RA] -= 1
                for rank in range(ext[s]):
                    reduced[RK - rank] -= 1
        pts += set_points(reduced, sub != 0, r)
        if pts > best:
            best = pts
            best_sub = sub
    chosen_babas[0] = best_sub
    return best


# ---------------------------------------------------------------------------------------------
# Card play

cdef struct Table:
    mask64 hand[N_SEATS]
    mask64 shown[N_SEATS]        # declared cards not yet played (public)
    mask64 played                # every card played so far, the current trick included
    int void[N_SEATS]            # bit s: the seat has shown out of suit s (public)
    int leader
    int to_play
    int n_in_trick
    int led_suit
    int win_seat
    int win_card
    int trick_honours
    int trick_no
    int honours[2]               # honours won, per partnership
    int points[2]                # per-trick honour points won, per partnership
    int tricks[2]
    int last_winner


cdef inline int side_of(int seat) noexcept nogil:
    return seat & 1


cdef void start_deal(Table *t, const mask64 *hands, int dealer, const Rules *r, int *decl) noexcept nogil:
    cdef int s, chosen
    memset(t, 0, sizeof(Table))
    for s in range(N_SEATS):
        t.hand[s] = hands[s]
        decl[s] = declare(hands[s], r, &t.shown[s], &chosen)
    t.leader = (dealer + r.step) & 3
    t.to_play = t.leader


cdef inline mask64 legal_moves(const Table *t, int seat) noexcept nogil:
    cdef mask64 follow
    if t.n_in_trick == 0:
        return t.hand[seat]
    follow = t.hand[seat] & ((<mask64>LANE_FULL) << (LANE * t.led_suit))
    return follow if follow else t.hand[seat]


cdef inline bint beats(int card, int best) noexcept nogil:
    # best is of the suit led or a heart; a card beats it if higher in its suit or the first heart.
    if card >> 4 == best >> 4:
        return (card & 15) > (best & 15)
    return card >> 4 == HEARTS


cdef void play_card(Table *t, int card, const Rules *r) noexcept nogil:
    cdef int seat = t.to_play, suit = card >> 4, side
    cdef mask64 bit = (<mask64>1) << card
    t.hand[seat] &= ~bit
    t.shown[seat] &= ~bit
    t.played |= bit
    if t.n_in_trick == 0:
        t.led_suit = suit
        t.win_seat = seat
        t.win_card = card
        t.trick_honours = 0
    else:
        if suit != t.led_suit:
            t.void[seat] |= 1 << t.led_suit
        if beats(card, t.win_card):
            t.win_seat = seat
            t.win_card = card
    t.trick_honours += (card & 15) >= FIRST_HONOUR
    t.n_in_trick += 1
    if t.n_in_trick == N_SEATS:
        side = side_of(t.win_seat)
        t.honours[side] += t.trick_honours
        t.points[side] += TRICK_POINTS[t.trick_honours]
        t.tricks[side] += 1
        t.last_winner = t.win_seat
        t.trick_no += 1
        t.n_in_trick = 0
        t.leader = t.win_seat
        t.to_play = t.win_seat
    else:
        t.to_play = (seat + r.step) & 3


cdef void trick_score(const Table *t, const Rules *r, int *out) noexcept nogil:
    """Points of each partnership from the tricks of a finished (or played-out) deal."""
    cdef int side
    for side in range(2):
        out[side] = t.points[side] if r.honour_count == PER_TRICK else t.honours[side] // 3
    if t.trick_no == N_TRICKS:
        out[side_of(t.last_winner)] += r.last_trick_points
    for side in range(2):
        if t.tricks[side] == N_TRICKS:
            out[side] = r.capot_bonus if r.capot_replaces else out[side] + r.capot_bonus


# --- greedy --------------------------------------------------------------------------------------
# Lead: the highest "master" card (the top remaining card of a suit that someone else still holds),
#       else the lowest card of the longest plain suit, else the lowest heart.
# Follow suit: partner winning -> lowest card (but the lowest honour when last to play and it lifts
#       the trick to 3 or 4 honours); opponent winning and the trick not trumped -> the lowest card
#       that beats it, else the lowest card.
# Void: partner winning -> discard (the same honour rule when last); opponent winning -> overruff or
#       ruff with the lowest heart that wins when the trick holds >= ruff_min_honours honours,
#       else discard. Discard = the lowest plain card (else the lowest heart).
# Ties between suits go to the lower suit index (S H D C).

cdef inline int lowest_in_lane(uint32_t lane, int suit) noexcept nogil:
    return LANE * suit + lowest_bit64(lane)


cdef inline int highest_rank(uint32_t lane) noexcept nogil:   # lane != 0
    return highest_bit32(lane)


cdef inline int lowest_plain(mask64 hand, mask64 among) noexcept nogil:
    # Lowest-ranked card of `among` outside hearts (lower suit on ties); -1 if none.
    cdef int s, best = -1, best_rank = 99, rank
    cdef uint32_t lane
    for s in range(4):
        if s == HEARTS:
            continue
        lane = suit_lane64(among, s)
        if lane:
            rank = lowest_bit64(lane)
            if rank < best_rank:
                best_rank = rank
                best = LANE * s + rank
    return best


cdef inline int discard(mask64 hand) noexcept nogil:
    cdef int c = lowest_plain(hand, hand)
    return c if c >= 0 else lowest_in_lane(suit_lane64(hand, HEARTS), HEARTS)


cdef int greedy_lead(const Table *t, int seat) noexcept nogil:
    cdef mask64 hand = t.hand[seat]
    cdef mask64 others = FULL_DECK & ~t.played & ~hand
    cdef int s, top, best = -1, best_rank = -1, best_len = 0, best_suit = -1, n
    cdef uint32_t lane, other_lane
    for s in range(4):
        lane = suit_lane64(hand, s)
        other_lane = suit_lane64(others, s)
        if lane == 0 or other_lane == 0:
            continue
        top = highest_rank(lane)
        if top > highest_rank(other_lane) and top > best_rank:
            best_rank = top
            best = LANE * s + top
    if best >= 0:
        return best
    for s in range(4):
        if s == HEARTS:
            continue
        n = popcount64(suit_lane64(hand, s))
        if n > best_len:
            best_len = n
            best_suit = s
    if best_len:
        return lowest_in_lane(suit_lane64(hand, best_suit), best_suit)
    return lowest_in_lane(suit_lane64(hand, HEARTS), HEARTS)


cdef int choose_greedy(const Table *t, int seat, const Rules *r) noexcept nogil:
    cdef mask64 hand = t.hand[seat]
    cdef uint32_t lane, above, trumps
    cdef int partner_winning, last, lifts, win_suit, win_rank, c
    if t.n_in_trick == 0:
        return greedy_lead(t, seat)
    lane = suit_lane64(hand, t.led_suit)
    partner_winning = side_of(t.win_seat) == side_of(seat)
    last = t.n_in_trick == N_SEATS - 1
    lifts = last and partner_winning and (t.trick_honours == 2 or t.trick_honours == 3)
    win_suit = t.win_card >> 4
    win_rank = t.win_card & 15
    if lane:
        if partner_winning:
            if lifts and (lane & HONOUR_LANE):
                return lowest_in_lane(lane & HONOUR_LANE, t.led_suit)
            return lowest_in_lane(lane, t.led_suit)
        if win_suit == t.led_suit:
            above = lane & ~((2u << win_rank) - 1)
            if above:
                return lowest_in_lane(above, t.led_suit)
        return lowest_in_lane(lane, t.led_suit)
    if partner_winning:
        if lifts:
            c = lowest_plain(hand, hand & HONOURS)
            if c >= 0:
                return c
        return discard(hand)
    trumps = suit_lane64(hand, HEARTS)
    if trumps and t.trick_honours >= r.ruff_min_honours:
        if win_suit == HEARTS:
            above = trumps & ~((2u << win_rank) - 1)
            if above:
                return lowest_in_lane(above, HEARTS)
        else:
            return lowest_in_lane(trumps, HEARTS)
    return discard(hand)


# --- random --------------------------------------------------------------------------------------

cdef inline int choose_random(const Table *t, int seat, Rng *rng) noexcept nogil:
    cdef mask64 legal = legal_moves(t, seat)
    cdef int k = <int>rng_below(rng, <uint32_t>popcount64(legal))
    while k:
        legal = clear_lowest64(legal)
        k -= 1
    return lowest_bit64(legal)


# --- PIMC ----------------------------------------------------------------------------------------

cdef inline int cards_held(const Table *t, int seat, const Rules *r) noexcept nogil:
    # Public: ten cards less one per finished trick, less one if already played to this trick.
    cdef int position = ((seat - t.leader) * r.step) & 3
    return HAND - t.trick_no - (position < t.n_in_trick)


cdef void sample_world(const Table *t, int me, const Rules *r, Rng *rng, mask64 *world) noexcept nogil:
    """Hands for the other seats drawn from what `me` knows: the unseen cards are dealt at random
    to the other players, each getting his shown cards plus the right number of unseen ones, and
    no card of a suit a player is known to be void in (a few retries; then voids are ignored)."""
    cdef uint8_t cards[N_CARDS]
    cdef int cap[N_SEATS]
    cdef int n = 0, o, i, attempt, total, suit, ok
    cdef uint32_t x
    cdef mask64 unseen = FULL_DECK & ~t.played & ~t.hand[me]
    for o in range(N_SEATS):
        if o != me:
            unseen &= ~t.shown[o]
    while unseen:
        cards[n] = <uint8_t>lowest_bit64(unseen)
        n += 1
        unseen = clear_lowest64(unseen)
    for attempt in range(MAX_TRIES + 1):
        rng_partial_shuffle(rng, cards, n, n)
        for o in range(N_SEATS):
            world[o] = t.hand[me] if o == me else t.shown[o]
            cap[o] = 0 if o == me else cards_held(t, o, r) - popcount64(t.shown[o])
        ok = 1
        for i in range(n):
            suit = cards[i] >> 4
            total = 0
            for o in range(N_SEATS):
                if cap[o] > 0 and (attempt == MAX_TRIES or not (t.void[o] >> suit) & 1):
                    total += cap[o]
            if total == 0:
                ok = 0
                break
            x = rng_below(rng, <uint32_t>total)
            for o in range(N_SEATS):
                if cap[o] > 0 and (attempt == MAX_TRIES or not (t.void[o] >> suit) & 1):
                    if x < <uint32_t>cap[o]:
                        world[o] |= (<mask64>1) << cards[i]
                        cap[o] -= 1
                        break
                    x -= cap[o]
        if ok:
            return


cdef void play_out_greedy(Table *t, const Rules *r) noexcept nogil:
    while t.trick_no < N_TRICKS:
        play_card(t, choose_greedy(t, t.to_play, r), r)


cdef int choose_pimc(const Table *t, int seat, const Rules *r, Rng *rng) noexcept nogil:
    cdef mask64 legal = legal_moves(t, seat), m
    cdef mask64 world[N_SEATS]
    cdef int64_t total[64]
    cdef int pts[2]
    cdef int w, c, o, side = side_of(seat), best = -1
    cdef Table copy
    if popcount64(legal) == 1:
        return lowest_bit64(legal)
    memset(total, 0, sizeof(total))
    for w in range(r.pimc_worlds):
        sample_world(t, seat, r, rng, world)
        m = legal
        while m:
            c = lowest_bit64(m)
            m = clear_lowest64(m)
            copy = t[0]
            for o in range(N_SEATS):
                copy.hand[o] = world[o]
            play_card(&copy, c, r)
            play_out_greedy(&copy, r)
            trick_score(&copy, r, pts)
            total[c] += pts[side] - pts[1 - side]
    m = legal
    while m:
        c = lowest_bit64(m)
        m = clear_lowest64(m)
        if best < 0 or total[c] > total[best]:
            best = c
    return best


cdef inline int choose(const Table *t, const Rules *r, Rng *rng) noexcept nogil:
    cdef int seat = t.to_play
    cdef int strategy = r.strategy[side_of(seat)]
    if strategy == GREEDY:
        return choose_greedy(t, seat, r)
    if strategy == RANDOM:
        return choose_random(t, seat, rng)
    return choose_pimc(t, seat, r, rng)


cdef void play_deal(Table *t, const Rules *r, Rng *rng, uint8_t *plays, uint8_t *winners) noexcept nogil:
    """Play the ten tricks; record the cards in order and each trick's winner if asked."""
    cdef int i, c
    for i in range(N_CARDS):
        c = choose(t, r, rng)
        if plays != NULL:
            plays[i] = <uint8_t>c
        play_card(t, c, r)
        if winners != NULL and t.n_in_trick == 0:
            winners[t.trick_no - 1] = <uint8_t>t.leader


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


# ---------------------------------------------------------------------------------------------
# Games

cdef enum:  # outcome of the game check
    PLAY_ON = -1
    WINNER_A = 0
    WINNER_B = 1


cdef inline int game_winner(int a, int b, const Rules *r) noexcept nogil:
    if a < r.target and b < r.target:
        return PLAY_ON
    if a > b:
        return WINNER_A
    if b > a:
        return WINNER_B
    return PLAY_ON


cdef inline int game_value(int loser_score, const Rules *r) noexcept nogil:
    return 2 if loser_score < r.double_below else 1


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
    cdef int s, rank, pts, side_pts[2], sevens, heart, babas, side_babas[2], chosen, lane_suit
    cdef uint32_t lane
    with bit_generator.lock, nogil:
        rng_init(&rng, bitgen)
        for d in range(n_deals):
            deal_hands(&rng, cards, hands)
            side_pts[0] = side_pts[1] = 0
            side_babas[0] = side_babas[1] = 0
            sevens = heart = 0
            for s in range(N_SEATS):
                pts = declare(hands[s], &r, &shown, &chosen)
                points_hist[s, clamp(pts, MAX_DECL)] += 1
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
    cdef int tpts[2], total[2], side_decl[2]
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
            for i in range(N_TRICKS):
                trick_honours[i, ((plays[4 * i] & 15) >= FIRST_HONOUR) + ((plays[4 * i + 1] & 15) >= FIRST_HONOUR)
                              + ((plays[4 * i + 2] & 15) >= FIRST_HONOUR) + ((plays[4 * i + 3] & 15) >= FIRST_HONOUR)] += 1
            if keep_rows:
                fill_deal_row(row_view[d], hands, dealer, decl, plays, winners, tpts)
    counters["deals"][0] = n_deals
    return counters


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
    cdef int tpts[2], score[2]
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
