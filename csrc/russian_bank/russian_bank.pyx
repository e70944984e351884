# Russian Bank (crapette) — the two-player rules engine, blind duel policies, and the SOLO solver.
#
# Rules card (shared/rules/russian_bank.md; defaults of §8):
#   Packs    two 52-card packs, one per player; ranks A 2 .. K (A low, no wrap), suits S H D C.
#   Deal     per player from his shuffled pack d[0..51]: STOCK = d[12] .. d[0] (top d[0], face up),
#            houses 4p+i = d[13+i], HAND = d[51] .. d[17] (top d[17]), WASTE empty; 8 foundations.
#   First    higher stock top starts; ties compare d[13], d[14], ... ; all equal -> player 0.
#            Options: lower, p0, p1, random.
#   Sources  own stock top, the current (turned-up) hand card, any house top; never own waste
#            (option own_waste_playable), never anything of the opponent's.
#   Targets  foundation (ace on an empty slot, then same suit one up), house (one lower, other
#            colour; any card on an empty house), loading: opponent's stock / waste top of the same
#            suit one rank up or down. One card per move (option sequence_moves: house runs).
#   Turn     the hand top is turned at the start of a turn and after each hand card played; DISCARD
#            puts it on the own waste and ends the turn; an empty hand is refilled by turning the
#            waste over (the card discarded first becomes the top), without limit by default.
#   Stops    strict foundation priority (any available foundation play must be made first) is
#            enforced by the move generator; stop_mode=call offers the non-compliant actions too and
#            lets the opponent call "stop" with probability p_detect.
#   End      a player with empty stock, hand and waste wins at once; draw after stall_turns turns
#            without progress (more foundation cards than ever, or fewer private cards than ever),
#            or at max_turns. Winner scores 30 + 2 x loser's stock + loser's hand and waste.
#   Compare  duplicate deals: each deal played twice from the same start, strategies swapped between
#            the packs (so each plays both packs and both seats); result = winner's scores summed.
#
# Encoding: a card is its kind k = 13*suit + rank (rank 0 = ace .. 12 = king); the two copies of a
# kind are interchangeable for play, so the engine never tracks the pack a card came from. Piles are
# byte arrays bottom -> top. A move is src*16 + dst (+ 256*(run length-1) for sequence moves):
#   src 0 stock, 1 hand card, 2 own waste top, 3+h house h;  dst 0 foundation, 1+h house h,
#   9 opponent's stock, 10 opponent's waste;  actions DISCARD, PASS, TURN have their own codes.
#
# SOLO(k, pi) (§9-10): one pack, four houses, no opponent. Searched by depth-first search with an
# exact-key transposition table. Literal model: the hand and waste as one cyclic order of the
# hand cards (a pool mask over turning positions plus the position of the next card), valid for
# every k and pi. Open-pool model (F1, only SOLO(inf, none)): any pool card is available.
# Dominances: under strict, foundation plays are forced and commute (one pack), so they are played
# as a closure; under none, D1 safe foundation plays (rank r <= 2, or both other-colour foundations
# at r-2 and the other same-colour one at r-3; proof at foundation_next) are played without
# branching (option dominance=False turns this off for A/B checks).

from contextlib import nullcontext

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free

from rng cimport Rng, rng_init, rng_partial_shuffle, bitgen_pointer
from bitboard cimport lowest_bit64
from compare cimport PairTally, tally_pair, pair_counters
from numpy.random cimport bitgen_t
from rb_rules cimport *
from rb_strategies cimport *
from rb_solo cimport *
from rb_blind cimport *
from rb_hindsight cimport *

cnp.import_array()
build_card_tables()

STRATEGIES = {"random": STRAT_RANDOM, "greedy": STRAT_GREEDY, "lookahead": STRAT_LOOKAHEAD}
ACTION_DISCARD = ACT_DISCARD
ACTION_PASS = ACT_PASS
ACTION_TURN = ACT_TURN

# ---------------------------------------------------------------------------------------------
# Rule options from the Python layer (already validated there)

cdef Rules make_rules(dict o) except *:
    cdef Rules r
    memset(&r, 0, sizeof(Rules))
    r.stock_size = o["stock_size"]
    r.auto_turn = o["auto_turn"]
    r.stock_before_hand = o["stock_before_hand"]
    r.strict = o["foundation_priority"] == "strict"
    r.stock_first = o["stock_first_to_foundation"]
    r.empty_house = {"any": EMPTY_ANY, "stock_only": EMPTY_STOCK_ONLY, "stock_forced": EMPTY_STOCK_FORCED}[o["empty_house_rule"]]
    r.sequence_moves = o["sequence_moves"]
    r.load_stock = "stock" in o["load_targets"]
    r.load_waste = "waste" in o["load_targets"]
    r.load_from_stock = "stock" in o["load_sources"]
    r.load_from_hand = "hand" in o["load_sources"]
    r.load_from_house = "house" in o["load_sources"]
    r.load_wrap = o["load_wrap"]
    r.own_waste_playable = o["own_waste_playable"]
    r.redeal_limit = UNLIMITED if o["redeal_limit"] is None else o["redeal_limit"]
    r.discard_policy = {"free": DISCARD_FREE, "hand_unplayable": DISCARD_HAND_UNPLAYABLE,
                        "no_own_card_move": DISCARD_NO_OWN_CARD_MOVE}[o["discard_policy"]]
    r.first_player = {"higher": FIRST_HIGHER, "lower": FIRST_LOWER, "p0": FIRST_P0, "p1": FIRST_P1,
                      "random": FIRST_RANDOM}[o["first_player"]]
    r.stop_call = o["stop_mode"] == "call"
    r.p_detect = o["p_detect"]
    r.stop_return = o["stop_hand_card"] == "return"
    r.stall_turns = o["stall_turns"]
    r.max_turns = o["max_turns"]
    r.max_actions = o["max_actions_per_turn"]
    r.score_bonus = o["score_bonus"]
    r.score_stock = o["score_per_stock"]
    r.score_hand_waste = o["score_per_hand_waste"]
    return r


cdef class DuelState:
    """One two-player position, for the single-position API and the tests. Piles are lists of card
    kinds bottom -> top; the Python layer validates everything before it gets here."""

    cdef Duel g
    cdef Rules r
    cdef object _rng_owner
    cdef Rng rng

    def __init__(self, dict rules, object bit_generator=None):
        self.r = make_rules(rules)
        memset(&self.g, 0, sizeof(Duel))
        self._rng_owner = bit_generator if bit_generator is not None else np.random.PCG64(0)
        rng_init(&self.rng, bitgen_pointer(self._rng_owner))

    def deal(self, pack0, pack1):
        """Deal the two shuffled packs (52 kinds each, top card first)."""
        cdef uint8_t d0[N_KINDS]
        cdef uint8_t d1[N_KINDS]
        for i in range(N_KINDS):
            d0[i] = pack0[i]
            d1[i] = pack1[i]
        deal_duel(&self.g, &self.r, d0, d1, &self.rng)

    def load(self, dict piles):
        """Set the position from piles: stock, hand, waste (pairs of lists), houses (8 lists),
        foundations (4 pairs of heights), player, up (pair of flags), redeals."""
        memset(&self.g, 0, sizeof(Duel))
        for p in range(2):
            for name, arr in (("stock", 0), ("hand", 1), ("waste", 2)):
                cards = piles[name][p]
                if len(cards) > PILE_CAP:
                    raise ValueError(f"{name} of player {p} is too long")
                for i, c in enumerate(cards):
                    if arr == 0:
                        self.g.stock[p][i] = c
                    elif arr == 1:
                        self.g.hand[p][i] = c
                    else:
                        self.g.waste[p][i] = c
            self.g.stock_n[p] = len(piles["stock"][p])
            self.g.hand_n[p] = len(piles["hand"][p])
            self.g.waste_n[p] = len(piles["waste"][p])
            self.g.up[p] = bool(piles["up"][p])
            self.g.redeals[p] = piles["redeals"][p]
        for h in range(N_HOUSES):
            for i, c in enumerate(piles["houses"][h]):
                self.g.house[h][i] = c
            self.g.house_n[h] = len(piles["houses"][h])
        for s in range(4):
            self.g.found[s][0] = piles["foundations"][s][0]
            self.g.found[s][1] = piles["foundations"][s][1]
        self.g.player = piles["player"]
        up = list(piles["up"])
        reset_bookkeeping(&self.g, &self.r)
        if not self.r.auto_turn:
            self.g.up[self.g.player] = up[self.g.player]

    def piles(self):
        g = &self.g
        return dict(
            stock=[[g.stock[p][i] for i in range(g.stock_n[p])] for p in range(2)],
            hand=[[g.hand[p][i] for i in range(g.hand_n[p])] for p in range(2)],
            waste=[[g.waste[p][i] for i in range(g.waste_n[p])] for p in range(2)],
            houses=[[g.house[h][i] for i in range(g.house_n[h])] for h in range(N_HOUSES)],
            foundations=[[g.found[s][0], g.found[s][1]] for s in range(4)],
            player=g.player, up=[bool(g.up[0]), bool(g.up[1])], redeals=[g.redeals[0], g.redeals[1]],
        )

    def status(self):
        g = &self.g
        return dict(end=("running", "win", "stall", "cap")[g.end], winner=g.winner, turns=g.turns,
                    actions=g.actions, stall=g.stall, loads=[g.loads[0], g.loads[1]],
                    score=score_of(g, &self.r))

    def legal(self, bint compliant=True):
        cdef int acts[MAX_MOVES]
        cdef int n = legal_actions(&self.g, &self.r, acts, compliant)
        return [acts[i] for i in range(n)]

    def apply(self, int action):
        if self.g.end != END_NONE:
            raise ValueError("the game is over")
        apply_action(&self.g, &self.r, action)

    def greedy_both_ways(self):
        """G1's action from the legal-action list and from the direct generator (None where the
        direct generator does not apply to these rules), for the test that they agree."""
        cdef int acts[MAX_MOVES]
        cdef int n = legal_actions(&self.g, &self.r, acts, 0 if self.r.stop_call else 1)
        listed = acts[greedy_choice(&self.g, acts, n)]
        return listed, (greedy_action(&self.g, &self.r) if greedy_fast_ok(&self.r) else None)

    def g1_frozen(self):
        """Whether G1 will only discard and pass from here on (the duel kernel's shortcut)."""
        return bool(g1_frozen(&self.g, &self.r))

    def house_summaries(self):
        """The house summaries apply_action keeps up to date, and the same computed afresh (for
        the test that they agree)."""
        cdef Duel fresh = self.g
        note_houses(&fresh)
        kept = (self.g.house_tops, self.g.house_tops2, self.g.empty_houses, self.g.single_houses,
                [self.g.top[h] for h in range(N_HOUSES)])
        return kept, (fresh.house_tops, fresh.house_tops2, fresh.empty_houses, fresh.single_houses,
                      [fresh.top[h] for h in range(N_HOUSES)])

    def plan_values(self):
        """The lookahead policy's value of every legal action (the best plan starting with it)."""
        cdef int acts[MAX_MOVES]
        cdef int n = legal_actions(&self.g, &self.r, acts, 1)
        return {acts[i]: action_value(&self.g, &self.r, acts[i], PLAN_DEPTH) for i in range(n)}

    def step(self, strategies):
        """Let the named strategies (per player) make one decision; returns the action (-1 = stop)."""
        cdef int strat[2]
        strat[0] = STRATEGIES[strategies[0]]
        strat[1] = STRATEGIES[strategies[1]]
        return step(&self.g, &self.r, strat, &self.rng)

    def play_out(self, strategies):
        """Play the game to its end the way the duel kernel does (G1 against G1: its fast path and
        the shortcut of frozen games), for the test that this equals playing step by step."""
        cdef int strat[2]
        strat[0] = STRATEGIES[strategies[0]]
        strat[1] = STRATEGIES[strategies[1]]
        play_game(&self.g, &self.r, strat, &self.rng)


# ---------------------------------------------------------------------------------------------
# Duel shard kernel

cdef enum:
    TURN_BINS = 1024
    SCORE_BINS = 200

def duel_shard(object deal_bitgen, object strategy_bitgen, int n_games, dict rules):
    """Play n_games random duels; counters add up across shards."""
    cdef Rules r = make_rules(rules)
    cdef int strat[2]
    cdef bitgen_t *bg_deal = bitgen_pointer(deal_bitgen)
    cdef bitgen_t *bg_strat = bitgen_pointer(strategy_bitgen)
    cdef Rng deal_rng, strat_rng
    cdef uint8_t packs[2][N_KINDS]
    cdef Duel *g = <Duel *>malloc(sizeof(Duel))
    cdef int i, j, first, seat, w
    outcome = np.zeros(4, dtype=np.int64)        # first wins, second wins, stall draws, capped draws
    turns_hist = np.zeros(TURN_BINS, dtype=np.int64)
    score_hist = np.zeros(SCORE_BINS, dtype=np.int64)
    by_player = np.zeros(2, dtype=np.int64)      # wins of pack 0 / pack 1
    first_is_p0 = np.zeros(1, dtype=np.int64)
    sums = np.zeros(4, dtype=np.int64)           # actions, loads, redeals, turns of decided games
    seat_sums = np.zeros((2, 2), dtype=np.int64) # per seat (first, second): cards loaded, redeals
    sums_sumsq = np.zeros(4, dtype=np.int64)     # the sums of squares of the same (for the intervals)
    seat_sums_sumsq = np.zeros((2, 2), dtype=np.int64)
    cdef int64_t[::1] out = outcome, th = turns_hist, sh = score_hist, bp = by_player, fp = first_is_p0, sm = sums
    cdef int64_t[::1] sq = sums_sumsq
    cdef int64_t[:, ::1] ss = seat_sums, ssq = seat_sums_sumsq
    cdef int64_t v
    strat[0] = STRATEGIES[rules["first_strategy"]]
    strat[1] = STRATEGIES[rules["second_strategy"]]
    cdef int seat_strat[2]
    if g == NULL:
        raise MemoryError()
    rng_init(&deal_rng, bg_deal)
    rng_init(&strat_rng, bg_strat)
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    try:
        with deal_bitgen.lock, strategy_bitgen.lock, nogil:
            for i in range(n_games):
                rng_partial_shuffle(&deal_rng, packs[0], N_KINDS, N_KINDS - 1)
                rng_partial_shuffle(&deal_rng, packs[1], N_KINDS, N_KINDS - 1)
                deal_duel(g, &r, packs[0], packs[1], &strat_rng)
                first = g.player
                seat_strat[first] = strat[0]
                seat_strat[1 - first] = strat[1]
                play_game(g, &r, seat_strat, &strat_rng)
                if first == 0:
                    fp[0] += 1
                sm[0] += g.actions
                sq[0] += <int64_t>g.actions * g.actions
                v = g.loads[0] + g.loads[1]
                sm[1] += v
                sq[1] += v * v
                v = g.redeals[0] + g.redeals[1]
                sm[2] += v
                sq[2] += v * v
                for seat in range(2):
                    v = g.loads[first if seat == 0 else 1 - first]
                    ss[seat, 0] += v
                    ssq[seat, 0] += v * v
                    v = g.redeals[first if seat == 0 else 1 - first]
                    ss[seat, 1] += v
                    ssq[seat, 1] += v * v
                if g.end == END_WIN:
                    seat = 0 if g.winner == first else 1
                    out[seat] += 1
                    bp[g.winner] += 1
                    th[g.turns if g.turns < TURN_BINS else TURN_BINS - 1] += 1
                    w = score_of(g, &r)
                    sh[w if w < SCORE_BINS else SCORE_BINS - 1] += 1
                    sm[3] += g.turns
                    sq[3] += <int64_t>g.turns * g.turns
                elif g.end == END_STALL:
                    out[2] += 1
                else:
                    out[3] += 1
    finally:
        free(g)
    return {"games": np.array([n_games], dtype=np.int64), "outcome": outcome, "turns_hist": turns_hist,
            "score_hist": score_hist, "wins_by_pack": by_player, "first_is_p0": first_is_p0, "sums": sums,
            "seat_sums": seat_sums, "sums_sumsq": sums_sumsq, "seat_sums_sumsq": seat_sums_sumsq}


cdef enum:
    ROW_FIRST = 0       # compare rows: per deal and game, the pack that moved first,
    ROW_END = 1         # END_*, the winning pack (-1 if none), the winner's score, turns played
    ROW_WINNER = 2
    ROW_SCORE = 3
    ROW_TURNS = 4
    ROW_WIDTH = 5

def compare_shard(object bit_generators, Py_ssize_t n_deals, dict rules, dict strategies, rows=None):
    """Duplicate deals: every deal (the two packs from stream 0, and under first_player=random the
    starter, also from stream 0) is played twice from the same start, A (role "a") with pack 0 and B
    (role "b") with pack 1, then with the strategies swapped between the packs. The packs decide who
    moves first, so each strategy plays both packs and both seats of the deal. A draws its random
    numbers from stream 1 in both games and B from stream 2. A strategy's per-deal result is the sum
    of its game scores over its two games (the winner's score of §7, 0 for a loss or a draw).
    Counters in the layout of analyzer.compare, and beside them the duel statistics of the 2 x
    n_deals games by strategy: by_seat[A's seat (0 first, 1 second), outcome (A wins, B wins, stall
    draw, capped draw)], loads and redeals [A, B], turns_hist and turns (the turns of the decided
    games, histogram and sum) and actions, each sum with its sum of squares (*_sumsq). rows, if
    given, is an int32 array of shape (n_deals, 2, ROW_WIDTH) that receives both games
    of every deal."""
    cdef Rules r = make_rules(rules)
    cdef int players[2]
    cdef int seat_strat[2]
    cdef bitgen_t *bg_deal = bitgen_pointer(bit_generators[0])
    cdef bitgen_t *bg_a = bitgen_pointer(bit_generators[1])
    cdef bitgen_t *bg_b = bitgen_pointer(bit_generators[2])
    cdef Rng deal_rng, rng_a, rng_b
    cdef uint8_t packs[2][N_KINDS]
    cdef Duel *start
    cdef Duel *g
    cdef Py_ssize_t d
    cdef int j, game, score
    cdef int64_t a, b
    cdef int32_t[:, :, ::1] out_rows
    cdef bint keep_rows = rows is not None
    players[0] = STRATEGIES[strategies["a"]]
    players[1] = STRATEGIES[strategies["b"]]
    if keep_rows:
        if not (isinstance(rows, np.ndarray) and rows.dtype == np.int32 and rows.ndim == 3
                and rows.shape[0] >= n_deals and rows.shape[1] == 2 and rows.shape[2] == ROW_WIDTH):
            raise ValueError(f"rows must be an int32 array of shape (n_deals, 2, {ROW_WIDTH})")
        out_rows = rows
    cdef PairTally tally = PairTally(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    counters = {}
    counters["by_seat"] = np.zeros((2, 4), np.int64)
    counters["loads"] = np.zeros(2, np.int64)
    counters["redeals"] = np.zeros(2, np.int64)
    counters["turns_hist"] = np.zeros(TURN_BINS, np.int64)
    counters["actions"] = np.zeros(1, np.int64)
    counters["turns"] = np.zeros(1, np.int64)          # turns of the decided games
    for key in ("loads", "redeals", "actions", "turns"):
        counters[key + "_sumsq"] = np.zeros_like(counters[key])
    cdef int64_t[:, ::1] by_seat = counters["by_seat"]
    cdef int64_t[::1] loads = counters["loads"], redeals = counters["redeals"]
    cdef int64_t[::1] turns_hist = counters["turns_hist"], actions = counters["actions"], turns = counters["turns"]
    cdef int64_t[::1] loads_sq = counters["loads_sumsq"], redeals_sq = counters["redeals_sumsq"]
    cdef int64_t[::1] actions_sq = counters["actions_sumsq"], turns_sq = counters["turns_sumsq"]
    cdef int64_t v
    cdef int a_pack, a_seat, outcome
    start = <Duel *>malloc(sizeof(Duel))
    g = <Duel *>malloc(sizeof(Duel))
    if start == NULL or g == NULL:
        free(start)
        free(g)
        raise MemoryError()
    rng_init(&deal_rng, bg_deal)
    rng_init(&rng_a, bg_a)
    rng_init(&rng_b, bg_b)
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    try:
        with bit_generators[0].lock, bit_generators[1].lock, bit_generators[2].lock, nogil:
            for d in range(n_deals):
                # the same dealing steps as the duel analysis
                rng_partial_shuffle(&deal_rng, packs[0], N_KINDS, N_KINDS - 1)
                rng_partial_shuffle(&deal_rng, packs[1], N_KINDS, N_KINDS - 1)
                deal_duel(start, &r, packs[0], packs[1], &deal_rng)
                a = 0
                b = 0
                for game in range(2):
                    memcpy(g, start, sizeof(Duel))
                    # game 0: A holds pack 0; game 1: B holds pack 0
                    seat_strat[0] = players[game]
                    seat_strat[1] = players[1 - game]
                    if game == 0:
                        play_game_seats(g, &r, seat_strat, &rng_a, &rng_b)
                    else:
                        play_game_seats(g, &r, seat_strat, &rng_b, &rng_a)
                    score = score_of(g, &r)
                    a_pack = game                 # A's pack in this game
                    a_seat = 0 if start.player == a_pack else 1
                    if g.end == END_WIN:
                        if g.winner == a_pack:
                            a += score
                        else:
                            b += score
                        outcome = 0 if g.winner == a_pack else 1
                        turns_hist[g.turns if g.turns < TURN_BINS else TURN_BINS - 1] += 1
                        turns[0] += g.turns
                        turns_sq[0] += <int64_t>g.turns * g.turns
                    else:
                        outcome = 2 if g.end == END_STALL else 3
                    by_seat[a_seat, outcome] += 1
                    for j in range(2):         # j = 0: A, 1: B
                        v = g.loads[a_pack if j == 0 else 1 - a_pack]
                        loads[j] += v
                        loads_sq[j] += v * v
                        v = g.redeals[a_pack if j == 0 else 1 - a_pack]
                        redeals[j] += v
                        redeals_sq[j] += v * v
                    actions[0] += g.actions
                    actions_sq[0] += <int64_t>g.actions * g.actions
                    if keep_rows:
                        out_rows[d, game, ROW_FIRST] = start.player
                        out_rows[d, game, ROW_END] = g.end
                        out_rows[d, game, ROW_WINNER] = g.winner if g.end == END_WIN else -1
                        out_rows[d, game, ROW_SCORE] = score
                        out_rows[d, game, ROW_TURNS] = g.turns
                tally_pair(&tally, a, b)
    finally:
        free(start)
        free(g)
    return {**pair_counters(tally), **counters}


def deal_stream(object bit_generator, Py_ssize_t n_deals):
    """The first n_deals deals of a dealing stream, exactly as the duel and compare kernels deal
    them (the packs are reshuffled in place from one deal to the next): a list of pairs of packs
    (52 kinds each, top card first)."""
    cdef Rng rng
    cdef uint8_t packs[2][N_KINDS]
    cdef Py_ssize_t d
    rng_init(&rng, bitgen_pointer(bit_generator))
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    deals = []
    with bit_generator.lock:
        for d in range(n_deals):
            rng_partial_shuffle(&rng, packs[0], N_KINDS, N_KINDS - 1)
            rng_partial_shuffle(&rng, packs[1], N_KINDS, N_KINDS - 1)
            deals.append(([packs[0][j] for j in range(N_KINDS)], [packs[1][j] for j in range(N_KINDS)]))
    return deals


def deal_packs(object bit_generator):
    """Two packs (52 kinds each, top card first) shuffled with the shard's dealing helpers."""
    cdef Rng rng
    cdef uint8_t packs[2][N_KINDS]
    rng_init(&rng, bitgen_pointer(bit_generator))
    for j in range(N_KINDS):
        packs[0][j] = j
        packs[1][j] = j
    with bit_generator.lock:
        rng_partial_shuffle(&rng, packs[0], N_KINDS, N_KINDS - 1)
        rng_partial_shuffle(&rng, packs[1], N_KINDS, N_KINDS - 1)
    return [packs[0][j] for j in range(N_KINDS)], [packs[1][j] for j in range(N_KINDS)]


cdef tuple solo_move_parts(const SoloCtx *x, const Solo *s, uint32_t mv):
    """A SOLO move in s as (source, card, target, pool cards): the source is stock, hand (the
    literal model's current card), cycled (a hand or waste card the literal model brings up by
    turning the hand round, cycling_free), forward (a card further on in this pass of the hand,
    brought up by discarding, pass_free), pool (open pool) or h0..h3; the target F, h0..h3,
    waste (a discard) or pass (the hand card and the rest of the pass discarded, pass_free);
    the pool cards go first (home below the card, or onto the target house, highest first, with
    the card on them)."""
    cdef int src = (mv >> 3) & 63, dst = mv & 7, m = (mv >> S_CHAIN_SHIFT) & 15, choices = mv >> S_CHOICE_SHIFT
    cdef int c, h
    if mv == S_DISCARD:
        return "hand", x.order[s.pos], "waste", []
    if mv == S_PASS:
        return "hand", x.order[s.pos], "pass", []
    if src == S_SRC_STOCK:
        where, c = "stock", x.stock[s.stock_n - 1]
    elif src == S_SRC_HAND:
        where, c = "hand", x.order[s.pos]
    elif src >= S_SRC_POOL:
        where = "pool" if x.open_pool else ("cycled" if x.k == UNLIMITED else "forward")
        c = x.order[src - S_SRC_POOL]
    else:
        h = src - S_SRC_HOUSE
        where, c = f"h{h}", s.house[h][s.house_n[h] - 1]
    if dst == 0:
        return where, c, "F", [suit_of(c) * N_RANKS + s.found[suit_of(c)] + j for j in range(m)]
    return where, c, f"h{dst - 1}", [chain_kind(c, j, choices) for j in range(m, 0, -1)]


cdef int turned_past(SoloCtx *x, const Solo *p, uint32_t mv, const Solo *c):
    """For a stock or house move of a free class (cycling_free or pass_free, literal model): the
    card the hand was turned past before the move was made, as expand chose the successor c
    (one per card that then goes home by itself when it comes up), or -1 (the hand was not
    turned)."""
    cdef Solo base = p[0], cand
    cdef uint64_t fit, ck[3], kk[3]
    cdef int f, free = free_mode(x, p), src = (mv >> 3) & 63
    if free == FREE_NONE or mv == S_PASS or mv == S_DISCARD or src == S_SRC_HAND or src >= S_SRC_POOL:
        return -1
    solo_apply(x, &base, mv)
    solo_settle(x, &base, 0)
    fit = hand_goes_home(x, &base)
    solo_key(x, c, ck)
    while fit:
        f = lowest_bit64(fit)
        fit &= fit - 1
        if not move_past(x, p, free, &base, f, &cand):
            continue                      # not a successor expand makes
        solo_normalize(x, &cand)
        solo_key(x, &cand, kk)
        if kk[0] == ck[0] and kk[1] == ck[1] and kk[2] == ck[2]:
            return f
    return -1


cdef list solo_line(SoloCtx *x, const Solo *root):
    """The winning line solo_search found (it returned RES_WIN): first the cards that went home
    by themselves at the start (as a move of source None), then per move its parts
    (solo_move_parts), the card the hand was turned past before it (turned_past), the cards
    that then went home by themselves and the redeals made."""
    cdef Solo p = root[0]
    cdef Solo t, c
    cdef uint32_t mv
    solo_normalize(x, &p)
    steps = [(None, -1, None, [], -1, [st * N_RANKS + f for st in range(4) for f in range(root.found[st], p.found[st])],
              p.redeals - root.redeals)]
    for i in [path_kid(x, d) for d in range(path_length(x))]:
        mv = x.kid_mv[i]
        c = x.kids[i].st
        t = p
        solo_apply(x, &t, mv)
        home = [st * N_RANKS + f for st in range(4) for f in range(t.found[st], c.found[st])]
        steps.append(solo_move_parts(x, &p, mv) + (turned_past(x, &p, mv, &c), home, c.redeals - p.redeals))
        p = c
    return steps


cdef int solo_load(SoloCtx *x, Solo *root, dict pos) except -1:
    """Set x's layout and root from a position dict (SoloSolver.set_position)."""
    memset(root, 0, sizeof(Solo))
    stock = pos["stock"]
    for i, c in enumerate(stock):
        x.stock[i] = c
    root.stock_n = len(stock)
    for h in range(SOLO_HOUSES):
        for c in pos["houses"][h]:
            house_push(root, h, c)
    for s in range(4):
        root.found[s] = pos["foundations"][s]
    order = pos["order"]
    x.order_n = len(order)
    for i in range(N_KINDS):
        x.index_of[i] = -1
    for i, c in enumerate(order):
        x.order[i] = c
        x.index_of[c] = i
        root.poolk |= <uint64_t>1 << c
    root.pool = (<uint64_t>1 << len(order)) - 1 if order else 0
    root.pos = pos["waste_n"]
    root.redeals = pos.get("redeals", 0)
    return 0


cdef class SoloSolver:
    """The SOLO(k, pi) solver for one position at a time (tests, single-position API)."""

    cdef SoloCtx x
    cdef Solo root
    cdef int tt_bits

    def __cinit__(self, int tt_bits=20):
        self.tt_bits = tt_bits
        if not ctx_init(&self.x, tt_bits):
            ctx_free(&self.x)
            raise MemoryError("cannot allocate the transposition table")

    def __dealloc__(self):
        ctx_free(&self.x)

    def set_position(self, dict pos):
        """pos: stock (kinds bottom -> top), houses (4 lists), foundations (4 heights), order (the
        cyclic turning order: the waste bottom -> top, then the hand top -> bottom) and waste_n
        (how many cards at the start of the order are on the waste)."""
        solo_load(&self.x, &self.root, pos)

    def deal(self, pack):
        cdef uint8_t d[N_KINDS]
        for i in range(N_KINDS):
            d[i] = pack[i]
        solo_deal(&self.x, &self.root, d)

    def solve(self, k=None, bint strict=False, bint open_pool=False, bint dominance=True,
              bint tempo=False, long long budget=1_000_000, bint d3=False, bint stuck_prune=True,
              bint relaxation=False, bint free_cycling=True, bint line=False):
        """relaxation (literal model): decide the position as SOLO(∞, none) in the open pool
        first, as solo_shard does (solo_decide, solo_tempo_bounds); nodes counts every search.
        line: also return the winning line of a win (solo_line; not in tempo mode) and, for
        SOLO(∞, none) in the open pool, the discards of that line played in the literal model
        (open_line_discards: an upper bound on D*)."""
        cdef int res, low = 0, high = 0
        cdef SoloCtx rx
        cdef SoloCtx *relax = NULL
        options = dict(k=k, strict=strict, open_pool=open_pool, dominance=dominance, d3=d3,
                       stuck_prune=stuck_prune, free_cycling=free_cycling, tempo=tempo, budget=budget,
                       tt_bits=self.tt_bits)
        solver_options(&self.x, options)
        relaxed = relaxation_options(dict(options, relaxation=relaxation))
        if relaxed is not None:
            solver_setup(&rx, relaxed)
            solo_copy_layout(&rx, &self.x)
            relax = &rx
        try:
            with nogil:
                if tempo:
                    res = solo_tempo_bounds(&self.x, relax, &self.root, &self.root, &low, &high)
                else:
                    res = solo_decide(&self.x, relax, &self.root, &self.root)
        finally:
            if relax != NULL:
                ctx_free(relax)
        bounds = (low, None if high < 0 else high) if tempo and res != RES_LOSS else (None, None)
        steps = solo_line(&self.x, &self.root) if line and res == RES_WIN and not tempo else None
        # SOLO(∞, none) in the open pool: the discards of the line played in the literal model
        line_discards = (open_line_discards(&self.x, &self.root)
                         if steps is not None and open_pool and k is None and not strict else None)
        return dict(outcome=("loss", "win", "unresolved")[res], nodes=self.x.nodes, tempo_bounds=bounds,
                    max_depth=self.x.max_depth, line=steps, line_discards=line_discards)


    def guided_play(self, long long budget=1_000_000):
        """SOLO(∞, none): the discards of the literal game played out from the position with the
        open-pool search as its guide (guided_play, an upper bound on D*), or None when the
        position is not won in the open pool or the guide runs out of its budget of nodes."""
        cdef SoloCtx rx
        cdef int64_t left = budget
        cdef int discards
        options = dict(k=None, strict=False, open_pool=False, dominance=True, d3=True, stuck_prune=True,
                       free_cycling=False, tempo=True, budget=budget, tt_bits=self.tt_bits)
        solver_options(&self.x, options)
        solver_setup(&rx, relaxation_options(dict(options, relaxation=True)))
        solo_copy_layout(&rx, &self.x)
        try:
            with nogil:
                discards = guided_play(&self.x, &rx, &self.root, &left)
        finally:
            ctx_free(&rx)
        return None if discards < 0 else discards

cdef enum:
    NODE_DECADES = 10
    TEMPO_BINS = 400            # D* counts discards; the last bin collects larger values

cdef int solver_options(SoloCtx *x, dict options) except -1:
    """Set a SOLO search's options from solo_shard's options dict (k None = unlimited)."""
    x.k = UNLIMITED if options["k"] is None else options["k"]
    x.strict = options["strict"]
    x.open_pool = options["open_pool"]
    x.dominance = options["dominance"]
    x.d3 = options["d3"]
    x.stuck_prune = options.get("stuck_prune", True)
    x.free_cycling = options.get("free_cycling", True)
    x.tempo = options["tempo"]
    x.budget = options["budget"]
    return 0


cdef int solver_setup(SoloCtx *x, dict options) except -1:
    """Allocate a SOLO search's transposition table and set its options."""
    if not ctx_init(x, options.get("tt_bits", 20)):
        ctx_free(x)
        raise MemoryError("cannot allocate the transposition table")
    solver_options(x, options)
    return 0


cdef enum:
    LIMB_BITS = 31
    SQUARE_LIMBS = 4

cdef inline void add_square(int64_t *limbs, int64_t v) noexcept nogil:
    """Add v^2 (0 <= v < 2^62) to an exact sum kept in SQUARE_LIMBS limbs of LIMB_BITS bits,
    carried so that each limb but the last stays below 2^31. A shard's nodes can reach 10^11
    (node_budget), whose square no int64 holds; the limbs of up to 2^32 shards add up in int64
    without overflow (runner.merge_counters), and exact_square_sum puts them back together."""
    cdef uint64_t mask = (<uint64_t>1 << LIMB_BITS) - 1
    cdef uint64_t a = <uint64_t>v >> LIMB_BITS, b = <uint64_t>v & mask
    cdef uint64_t bb = b * b, ab2 = 2 * a * b, aa = a * a
    cdef int i
    limbs[0] += bb & mask
    limbs[1] += (bb >> LIMB_BITS) + (ab2 & mask)
    limbs[2] += (ab2 >> LIMB_BITS) + (aa & mask)
    limbs[3] += aa >> LIMB_BITS
    for i in range(SQUARE_LIMBS - 1):
        limbs[i + 1] += limbs[i] >> LIMB_BITS
        limbs[i] &= mask


def exact_square_sum(limbs) -> int:
    """The sum of squares add_square kept in limbs (merged across shards), as a Python int."""
    return sum(int(limb) << (LIMB_BITS * i) for i, limb in enumerate(limbs))


cdef object relaxation_options(dict options):
    """The options of the relaxation that decides a literal-model deal first, when options ask
    for it (relaxation, literal model; in tempo mode a loss there is D* = ∞): SOLO(∞, none) in
    the open pool, with the same budget and table size (see solo_decide, solo_tempo_bounds).
    None when there is none."""
    if not options.get("relaxation", False) or options["open_pool"]:
        return None
    return dict(options, k=None, strict=False, open_pool=True, relaxation=False, tempo=False)


def solo_shard(object deal_bitgen, int n_deals, dict options):
    """Solve n_deals random SOLO layouts. options: k (None = unlimited), strict, open_pool,
    dominance, d3, stuck_prune and free_cycling (default on), relaxation (default off;
    literal model: a loss of the deal as SOLO(∞, none) in the open pool decides it, D* = ∞ in
    tempo mode, see solo_decide), tempo, budget, tt_bits. Counters add up across shards."""
    cdef SoloCtx x, rx
    cdef SoloCtx *relax = NULL
    cdef Solo root, relax_root
    cdef Rng rng
    cdef uint8_t pack[N_KINDS]
    cdef int i, res, dec, low, high
    cdef int64_t nodes
    cdef bitgen_t *bg = bitgen_pointer(deal_bitgen)
    outcome = np.zeros(3, dtype=np.int64)                      # win, loss, unresolved
    nodes_hist = np.zeros((3, NODE_DECADES), dtype=np.int64)   # by outcome, decade of nodes
    # tempo mode, by D*: deals where it is exact; where not, its lower and its upper bound
    tempo_hist = np.zeros((3, TEMPO_BINS), dtype=np.int64)
    node_sum = np.zeros(2, dtype=np.int64)                     # nodes, max depth sum
    node_sumsq = np.zeros(SQUARE_LIMBS, dtype=np.int64)        # nodes squared (add_square)
    cdef int64_t[::1] out = outcome, ns = node_sum, nsq = node_sumsq
    cdef int64_t[:, ::1] tph = tempo_hist
    cdef int64_t[:, ::1] nh = nodes_hist
    solver_setup(&x, options)
    relaxed = relaxation_options(options)
    if relaxed is not None:
        try:
            solver_setup(&rx, relaxed)
        except MemoryError:
            ctx_free(&x)
            raise
        relax = &rx
    rng_init(&rng, bg)
    for i in range(N_KINDS):
        pack[i] = i
    try:
        with deal_bitgen.lock, nogil:
            for i in range(n_deals):
                rng_partial_shuffle(&rng, pack, N_KINDS, N_KINDS - 1)
                solo_deal(&x, &root, pack)
                if relax != NULL:
                    solo_deal(relax, &relax_root, pack)
                if x.tempo:
                    res = solo_tempo_bounds(&x, relax, &root, &relax_root, &low, &high)
                    if res == RES_LOSS:
                        pass                   # D* = ∞: in the outcome only
                    elif low == high:
                        tph[0, min(low, TEMPO_BINS - 1)] += 1
                    else:
                        tph[1, min(low, TEMPO_BINS - 1)] += 1
                        if high >= 0:
                            tph[2, min(high, TEMPO_BINS - 1)] += 1
                else:
                    res = solo_decide(&x, relax, &root, &relax_root)
                if res == RES_WIN:
                    out[0] += 1
                elif res == RES_LOSS:
                    out[1] += 1
                else:
                    out[2] += 1
                nodes = x.nodes
                dec = 0
                while nodes >= 10 and dec < NODE_DECADES - 1:
                    nodes //= 10
                    dec += 1
                nh[(0 if res == RES_WIN else (1 if res == RES_LOSS else 2)), dec] += 1
                ns[0] += x.nodes
                ns[1] += x.max_depth
                add_square(&nsq[0], x.nodes)
    finally:
        ctx_free(&x)
        if relax != NULL:
            ctx_free(relax)
    return {"deals": np.array([n_deals], dtype=np.int64), "outcome": outcome, "nodes_hist": nodes_hist,
            "tempo_hist": tempo_hist, "node_sum": node_sum, "node_sumsq": node_sumsq}


# ---------------------------------------------------------------------------------------------
# Blind play of the SOLO game (rb_blind.pxd)

BLIND_POLICIES = {"greedy": POLICY_GREEDY, "hindsight": POLICY_HINDSIGHT}
BLIND_ENDS = ("running", "win", "stuck", "cycle")
BLIND_DISCARD = BL_DISCARD
HINDSIGHT_REPEATS = HS_REPEATS  # a hindsight game that comes to a position this often is lost

cdef enum:
    REDEAL_BINS = 64            # redeals per game; the last bin collects larger counts

cdef int blind_k(object k) except? -2:
    if k is None:
        return UNLIMITED
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"the redeal limit must be a non-negative integer or None (unlimited), got {k!r}")
    return k

cdef int blind_policy(object name) except -1:
    if name not in BLIND_POLICIES:
        raise ValueError(f"unknown blind SOLO policy {name!r}: choose one of {', '.join(BLIND_POLICIES)}")
    return BLIND_POLICIES[name]


def blind_game(dict pos, k=None, policy="greedy"):
    """Play a SOLO position with a blind policy. pos: stock, hand, waste (kinds bottom -> top; the
    hand's top is the current card), houses (4 lists), foundations (4 heights), as validated by
    the Python layer. Returns end (win / stuck / cycle), actions, cards_left, redeals and the
    actions played."""
    cdef Blind b
    cdef int a, pol = blind_policy(policy)
    memset(&b, 0, sizeof(Blind))
    b.k = blind_k(k)
    if len(pos["stock"]) > DECK_STOCK or len(pos["hand"]) + len(pos["waste"]) > N_KINDS:
        raise ValueError("a SOLO position has at most 13 stock cards and 52 cards in hand and waste")
    for i, c in enumerate(pos["stock"]):
        b.stock[i] = c
    b.stock_n = len(pos["stock"])
    for i, c in enumerate(pos["hand"]):
        b.hand[i] = c
    b.hand_n = len(pos["hand"])
    for i, c in enumerate(pos["waste"]):
        b.waste[i] = c
    b.waste_n = len(pos["waste"])
    for h in range(BL_HOUSES):
        for i, c in enumerate(pos["houses"][h]):
            b.house[h][i] = c
        b.house_n[h] = len(pos["houses"][h])
    for s in range(4):
        b.found[s] = pos["foundations"][s]
    played = []
    while b.end == BL_RUNNING:
        if blind_cards_left(&b) == 0:
            b.end = BL_WIN                  # a built position may start won
            break
        a = blind_choose(&b, pol)
        if a == BL_NONE:
            b.end = BL_STUCK
        else:
            played.append(a)
            blind_apply(&b, a)
    return dict(end=BLIND_ENDS[b.end], actions=b.actions, cards_left=blind_cards_left(&b),
                redeals=b.redeals, played=played)


cdef int hindsight_contexts(SoloCtx *x, SoloCtx *sx, int64_t sample_budget) except -1:
    """The two contexts of the hindsight policy (rb_hindsight.pxd): x holds the true deal and
    never searches; sx gets the drawn stock orders and runs the samples' searches, SOLO(∞, none)
    in the open pool with D1, D3 and the stuck test, its table sized for the budget."""
    options = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False,
                   budget=sample_budget)
    solver_setup(x, dict(options, tt_bits=TT_MIN_BITS))
    try:
        solver_setup(sx, dict(options, tt_bits=min(max(int(sample_budget).bit_length() + 1, TT_MIN_BITS), 26)))
    except MemoryError:
        ctx_free(x)
        raise
    return 0


def hindsight_game(dict pos, int samples, long long sample_budget, object bit_generator):
    """Play a SOLO position as SOLO(∞, none) with the hindsight policy (rb_hindsight.pxd): samples
    stock orders a decision, sample_budget nodes a search, draws from bit_generator. pos as
    SoloSolver.set_position takes it. Returns end, resigned, the moves played (source, card,
    target, pool cards, stock cards before the move), cards_left, decisions, solves, nodes."""
    cdef SoloCtx x, sx
    cdef Solo s, t
    cdef Hindsight h
    cdef Rng rng
    cdef int r
    cdef uint32_t played[HS_MAX_MOVES]
    cdef uint8_t played_stock[HS_MAX_MOVES]
    if samples < 1:
        raise ValueError(f"the hindsight policy needs at least one sample, got {samples}")
    hindsight_contexts(&x, &sx, sample_budget)
    try:
        solo_load(&x, &s, pos)
        solo_copy_layout(&sx, &x)
        t = s
        h.samples = samples
        h.played = played
        h.played_stock = played_stock
        rng_init(&rng, bitgen_pointer(bit_generator))
        with bit_generator.lock, nogil:
            r = hindsight_play(&x, &sx, &s, &rng, &h)
        if r < 0:
            raise MemoryError("cannot allocate the hindsight policy's buffers")
        moves = []
        for i in range(h.moves):
            solo_normalize(&x, &t)
            moves.append(solo_move_parts(&x, &t, played[i]) + (played_stock[i],))
            solo_apply(&x, &t, played[i])
    finally:
        ctx_free(&x)
        ctx_free(&sx)
    return dict(end=BLIND_ENDS[h.end], resigned=bool(h.resigned), moves=moves, cards_left=hindsight_cards_left(&s),
                decisions=h.decisions, solves=h.solves, nodes=h.nodes, truncated=bool(h.truncated))


def solo_deal_stream(object bit_generator, Py_ssize_t n_deals):
    """The packs of the first n_deals SOLO layouts of a dealing stream, exactly as solo_shard and
    blind_shard deal them (one pack reshuffled in place from one deal to the next)."""
    cdef Rng rng
    cdef uint8_t pack[N_KINDS]
    rng_init(&rng, bitgen_pointer(bit_generator))
    for j in range(N_KINDS):
        pack[j] = j
    packs = []
    with bit_generator.lock:
        for d in range(n_deals):
            rng_partial_shuffle(&rng, pack, N_KINDS, N_KINDS - 1)
            packs.append([pack[j] for j in range(N_KINDS)])
    return packs


def blind_shard(object deal_bitgen, int n_deals, dict options, rows=None, object policy_bitgen=None):
    """Play n_deals random SOLO layouts (dealt as solo_shard deals them, so the same stream gives
    the same layouts) with a blind policy. options: k (None = unlimited), policy, and solve: None,
    or solo_shard's solver options to decide every layout as well (paired counters).
    The policy hindsight (k = None only; rb_hindsight.pxd) also takes samples and sample_budget,
    and draws its stock orders from policy_bitgen.
    Counters: outcome (win, stuck, cycle), actions (sum), cards_left_hist (cards in stock, hand
    and waste at the end), redeals_hist, redeals (sum); with solve also paired[blind win / loss,
    solver win / loss / unresolved] and node_sum; with hindsight also hindsight[resigned,
    decisions, solves, nodes, truncated]. Each sum has its sum of squares (*_sumsq) beside it for
    the intervals of the means. rows, if given (int32, shape (n_deals, 4)), receives every game's
    end, actions, cards left and redeals."""
    cdef Blind *b = <Blind *>malloc(sizeof(Blind))
    cdef SoloCtx x, hx, sx
    cdef Solo root, hroot
    cdef Hindsight hs
    cdef Rng rng, prng
    cdef uint8_t pack[N_KINDS]
    cdef int i, res, end, actions, left_n, redeals, failed = 0
    cdef int k = blind_k(options["k"]), pol = blind_policy(options["policy"])
    solve = options.get("solve")
    cdef bint solving = solve is not None, keep_rows = rows is not None, hindsight = pol == POLICY_HINDSIGHT
    cdef int32_t[:, ::1] out_rows
    cdef int64_t[::1] hc, hc_sq, hc_nodes_sq
    if b == NULL:
        raise MemoryError()
    try:
        if keep_rows:
            if not (isinstance(rows, np.ndarray) and rows.dtype == np.int32 and rows.ndim == 2
                    and rows.shape[0] >= n_deals and rows.shape[1] == 4):
                raise ValueError("rows must be an int32 array of shape (n_deals, 4)")
            out_rows = rows
        if solving and solve["k"] != options["k"]:
            raise ValueError("the paired solver must use the blind game's redeal limit")
        if hindsight:
            if k != UNLIMITED:
                raise ValueError("the hindsight policy plays SOLO(∞, none) only (k = None)")
            if policy_bitgen is None or options.get("samples", 0) < 1:
                raise ValueError("the hindsight policy needs policy_bitgen and samples >= 1")
    except ValueError:
        free(b)
        raise
    counters = dict(deals=np.array([n_deals], dtype=np.int64), outcome=np.zeros(3, dtype=np.int64),
                    actions=np.zeros(1, dtype=np.int64), cards_left_hist=np.zeros(N_KINDS + 1, dtype=np.int64),
                    redeals_hist=np.zeros(REDEAL_BINS, dtype=np.int64), redeals=np.zeros(1, dtype=np.int64),
                    actions_sumsq=np.zeros(1, dtype=np.int64), redeals_sumsq=np.zeros(1, dtype=np.int64))
    cdef int64_t[::1] out = counters["outcome"], acts = counters["actions"], acts_sq = counters["actions_sumsq"]
    cdef int64_t[::1] left = counters["cards_left_hist"], rh = counters["redeals_hist"]
    cdef int64_t[::1] rd = counters["redeals"], rd_sq = counters["redeals_sumsq"]
    cdef int64_t[:, ::1] paired
    cdef int64_t[::1] ns
    if solving:
        counters["paired"] = np.zeros((2, 3), dtype=np.int64)
        counters["node_sum"] = np.zeros(1, dtype=np.int64)
        paired = counters["paired"]
        ns = counters["node_sum"]
        try:
            solver_setup(&x, dict(solve, tempo=False))
        except MemoryError:
            free(b)
            raise
    if hindsight:
        counters["hindsight"] = np.zeros(5, dtype=np.int64)
        # squares per game: resigned, decisions, solves, truncated; the nodes' (up to samples x
        # budget x decisions a game) exactly in limbs (add_square)
        counters["hindsight_sq"] = np.zeros(4, dtype=np.int64)
        counters["hindsight_nodes_sq"] = np.zeros(SQUARE_LIMBS, dtype=np.int64)
        hc = counters["hindsight"]
        hc_sq = counters["hindsight_sq"]
        hc_nodes_sq = counters["hindsight_nodes_sq"]
        try:
            hindsight_contexts(&hx, &sx, options["sample_budget"])
        except MemoryError:
            free(b)
            if solving:
                ctx_free(&x)
            raise
        hs.samples = options["samples"]
        hs.played = NULL
        hs.played_stock = NULL
        rng_init(&prng, bitgen_pointer(policy_bitgen))
    rng_init(&rng, bitgen_pointer(deal_bitgen))
    for i in range(N_KINDS):
        pack[i] = i
    try:
        with deal_bitgen.lock, (policy_bitgen.lock if hindsight else nullcontext()), nogil:
            for i in range(n_deals):
                rng_partial_shuffle(&rng, pack, N_KINDS, N_KINDS - 1)
                if hindsight:
                    solo_deal(&hx, &hroot, pack)
                    solo_copy_layout(&sx, &hx)
                    if hindsight_play(&hx, &sx, &hroot, &prng, &hs) < 0:
                        failed = 1
                        break
                    end, actions, left_n, redeals = hs.end, hs.moves, hindsight_cards_left(&hroot), 0
                    hc[0] += hs.resigned
                    hc[1] += hs.decisions
                    hc[2] += hs.solves
                    hc[3] += hs.nodes
                    hc[4] += hs.truncated
                    hc_sq[0] += hs.resigned * hs.resigned
                    hc_sq[1] += <int64_t>hs.decisions * hs.decisions
                    hc_sq[2] += <int64_t>hs.solves * hs.solves
                    add_square(&hc_nodes_sq[0], hs.nodes)
                    hc_sq[3] += hs.truncated * hs.truncated
                else:
                    blind_deal(b, pack, k)
                    blind_play(b, pol)
                    end, actions, left_n, redeals = b.end, b.actions, blind_cards_left(b), b.redeals
                out[end - BL_WIN] += 1
                acts[0] += actions
                acts_sq[0] += <int64_t>actions * actions
                left[left_n] += 1
                rh[min(redeals, REDEAL_BINS - 1)] += 1
                rd[0] += redeals
                rd_sq[0] += <int64_t>redeals * redeals
                if keep_rows:
                    out_rows[i, 0] = end
                    out_rows[i, 1] = actions
                    out_rows[i, 2] = left_n
                    out_rows[i, 3] = redeals
                if solving:
                    solo_deal(&x, &root, pack)
                    res = solo_search(&x, &root)
                    # columns: solver win, loss, unresolved
                    paired[0 if end == BL_WIN else 1, 0 if res == RES_WIN else (1 if res == RES_LOSS else 2)] += 1
                    ns[0] += x.nodes
    finally:
        free(b)
        if solving:
            ctx_free(&x)
        if hindsight:
            ctx_free(&hx)
            ctx_free(&sx)
    if failed:
        raise MemoryError("cannot allocate the hindsight policy's buffers")
    return counters
