"""Ved'ma, the Russian old maid with the queen of spades (shared/rules/vedma.md): rule presets, the
play analysis (who loses, how long a deal lasts), the witch-placement analysis on paired deals,
the exact loss probabilities from the game's Markov chain, and the single-deal API.

Presets: ``seed`` (the seed's literal order: each player discards pairs only after his own first
draw) and ``standard`` (every hand discards its pairs before the first draw). Both default to
4 players and the 32-card pack; ``--set players=2..6``, ``--set deck=52`` change that.
``edge_weight`` (default 2: a drawer who likes the edges of a fanned hand twice as much as an
inner card) is the drawer model of the placement and compare analyses; the play analysis always
draws uniformly.

Strategy comparison (``kozyr compare vedma --strategies uniform edge centre``): a label is the
place where a holder keeps the witch in his fan — ``edge``, ``centre`` (inside the fan) or
``uniform`` (a random position) — see :func:`compare_strategies`.
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from .. import option_parsing as parsing
from .._core import vedma as core
from ..cards import FULL52, Cards, check_disjoint
from ..stats import CONFIDENCE, mean_interval, wilson
from . import Analysis, Game

WITCH = "QS"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
PACK_RANKS = {32: "789TJQKA", 52: "23456789TJQKA"}

_COMMON = dict(players=4, deck=32, next_dealer="rotate", edge_weight=2.0)
PRESETS: dict[str, dict[str, Any]] = {
    "seed": dict(_COMMON, order="literal"),
    "standard": dict(_COMMON, order="standard"),
}
_CHOICES = {"order": ("literal", "standard"), "next_dealer": ("rotate", "loser")}


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    return parsing.parse("vedma", key, value, choices={**_CHOICES, "deck": tuple(PACK_RANKS)},
                         limits={"players": (MIN_PLAYERS, MAX_PLAYERS)},
                         special={"edge_weight": lambda k, v: parsing.real(k, v, 0.01, 100)})


# ---------------------------------------------------------------------------------------------
# Analyses

def _play_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.play_shard(bit_generators[0], n_deals, rules)


def _placement_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.placement_shard(bit_generators[0], bit_generators[1], n_deals, rules, rules["edge_weight"])


# Witch placements of the compare analysis (the strategy labels of `kozyr compare vedma`).
PLACEMENTS = tuple(core.PLACEMENT_NAMES)


def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.compare_shard(bit_generators[0], bit_generators[1], n_deals, rules, rules["edge_weight"],
                              strategies["a_placement"], strategies["b_placement"])


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two witch placements. A label is where a holder keeps
    the witch in his fan: ``edge`` (at one of the two edge cards), ``centre`` (among the inner
    cards) or ``uniform`` (at a random position). The drawer takes an edge card with weight
    ``edge_weight`` (rule option, default 2) and an inner card with weight 1, so with h >= 3 cards
    the witch is taken with probability e/(2e+h-2), 1/(2e+h-2) or 1/h; with edge_weight=1 the
    three placements are the same.

    Each deal is played with A alone at each seat and B at the others, then B alone at each seat
    and A at the others (with 2 players: A at seat 0, then A at seat 1), every play on the same
    draws; a placement's per-deal result is minus the number of those plays lost by its seats,
    so ``mean_diff`` > 0 means A loses fewer games (a deal is 2 plays with 2 players, 2n with n).
    Every play has one loser, so A's and B's results add up to minus the number of plays on every
    deal: B's result is a function of A's, and the table's unpaired interval (which treats them as
    independent samples) does not apply; its variance_ratio is always 0.5."""
    for label in (a, b):
        if label not in PLACEMENTS:
            raise ValueError(f"unknown vedma strategy {label!r}: a label is the witch placement of the "
                             f"holder, one of {', '.join(PLACEMENTS)}")
    return {"a_placement": a, "b_placement": b}


GAME = Game(
    name="vedma",
    title="Ved'ma (old maid with the queen of spades)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        # without the exact values of the Markov chain, which kozyr vedma odds adds unless --no-exact
        # (solving the chain takes up to a minute, and --slow-exact is needed for 4 players)
        "play": Analysis("play", "Deal and play with uniform draws: loser by seat, game length", _play_kernel,
                         summary=lambda counters, rules, strategies: [
                             ("losses by seat", loss_table(counters, rules, with_exact=False)),
                             ("game length", length_table(counters))]),
        "placement": Analysis(
            "placement",
            "Witch placement against a drawer who favours the edges of a fanned hand (edge_weight), "
            "on paired deals: random placement vs a holder who offers it where the drawer reaches",
            _placement_kernel, streams=2, summary=lambda counters, rules, strategies: [
                ("witch placement", placement_table(counters, rules))]),
        "compare": Analysis(
            "compare",
            "Duplicate deals: witch placements A and B (uniform, edge, centre) each alone at every seat "
            "against the other; result = minus the plays lost by the placement's seats",
            _compare_kernel, streams=2, strategies={"a_placement": PLACEMENTS, "b_placement": PLACEMENTS}),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
)


# ---------------------------------------------------------------------------------------------
# Exact values: the play phase as a Markov chain (rules file §6, "Why can we answer exactly")

class Chain:
    """The play phase on pair-free hands as a Markov chain.

    Once every hand is pair-free, suits no longer matter: a rank is described by the set of seats
    holding one card of it (a bitmask). A state is (counts, witch, turn): counts[S] = the number
    of ranks held by exactly the seats in S, the witch's seat, the seat to draw. When seat t
    draws a card of a rank held by S from seat r, the rank is then held by S ^ {r, t}: a pair is
    discarded if t held the rank, otherwise the card just moved. The plain queens are a rank of
    three cards whose last card is dead (its set has an odd size); a lone card in a given
    position behaves the same way."""

    def __init__(self, n: int):
        self.n = n
        self.members = [tuple(p for p in range(n) if s >> p & 1) for s in range(1 << n)]

    def hand_sizes(self, counts, witch) -> list[int]:
        h = [0] * self.n
        for s, c in enumerate(counts):
            if c:
                for p in self.members[s]:
                    h[p] += c
        h[witch] += 1
        return h

    def settle(self, counts, witch, turn):
        """The state with `turn` moved left past empty hands, or the loser's seat (an int) if
        only one hand holds cards (it holds the witch)."""
        h = self.hand_sizes(counts, witch)
        if sum(1 for x in h if x) == 1:
            return witch
        while not h[turn]:
            turn = (turn + 1) % self.n
        return (counts, witch, turn)

    def moves(self, state):
        """([(numerator, next state or loser seat)], denominator = the victim's hand size)."""
        counts, witch, t = state
        n = self.n
        h = self.hand_sizes(counts, witch)
        r = (t - 1) % n
        while not h[r]:
            r = (r - 1) % n
        after = (t + 1) % n
        flip = (1 << r) | (1 << t)
        out = []
        for s, c in enumerate(counts):
            if c and s >> r & 1:
                new = list(counts)
                new[s] -= 1
                if s ^ flip:
                    new[s ^ flip] += 1
                out.append((c, self.settle(tuple(new), witch, after)))
        if witch == r:
            out.append((1, self.settle(counts, t, after)))
        return out, h[r]

    def explore(self, starts, max_states: int | None = None) -> dict:
        """Every transient state reachable from the given ones, with its moves; more than
        max_states of them is a ValueError (before they fill the memory)."""
        table = {s: None for s in starts if not isinstance(s, int)}
        stack = list(table)
        while stack:
            s = stack.pop()
            table[s] = self.moves(s)
            for _, nxt in table[s][0]:
                if not isinstance(nxt, int) and nxt not in table:
                    table[nxt] = None
                    stack.append(nxt)
            if max_states is not None and len(table) > max_states:
                raise ValueError(f"the position reaches more than {max_states:,} states of the chain: too many to "
                                 "solve here (fewer players or fewer cards in the hands)")
        return table

    def solve(self, table, exact: bool):
        """{state: [P(seat 0 loses), ..., P(seat n-1 loses), E[draws to the end]]}: exact
        fractions by elimination (fewest cards first, as moves never add cards), or floats by a
        sparse LU solve."""
        return self._solve_exact(table) if exact else self._solve_float(table)

    def _solve_float(self, table):
        # Moves never add cards, so the states are solved level by level (total cards held),
        # fewest first: within a level the witch and unpaired cards can travel in cycles, so each
        # level is one sparse linear system whose right-hand side uses the solved lower levels.
        from scipy.sparse import csc_matrix, identity
        from scipy.sparse.linalg import splu

        n = self.n
        levels = defaultdict(list)
        for s in table:
            levels[sum(self.hand_sizes(s[0], s[1]))].append(s)
        values = {}
        for level in sorted(levels):
            states = levels[level]
            index = {s: i for i, s in enumerate(states)}
            m = len(states)
            rows, cols, vals = [], [], []
            rhs = np.zeros((m, n + 1))
            rhs[:, n] = 1.0                               # every move is one draw
            for i, s in enumerate(states):
                moves, den = table[s]
                for num, nxt in moves:
                    p = num / den
                    if isinstance(nxt, int):
                        rhs[i, nxt] += p
                    elif nxt in index:
                        rows.append(i)
                        cols.append(index[nxt])
                        vals.append(p)
                    else:
                        rhs[i] += p * values[nxt]
            a = identity(m, format="csc") - csc_matrix((vals, (rows, cols)), shape=(m, m))
            x = splu(a).solve(rhs)
            for i, s in enumerate(states):
                values[s] = x[i]
        return {s: list(v) for s, v in values.items()}

    def _solve_exact(self, table):
        n = self.n
        order = sorted(table, key=lambda s: sum(self.hand_sizes(s[0], s[1])))
        expr = {}
        for s in order:
            moves, den = table[s]
            coef = defaultdict(Fraction)
            rhs = [Fraction(0)] * n + [Fraction(1)]
            for num, nxt in moves:
                if isinstance(nxt, int):
                    rhs[nxt] += Fraction(num, den)
                else:
                    coef[nxt] += Fraction(num, den)
            # Substitute the states already expressed in terms of later ones, until none is left.
            while known := [k for k in coef if k in expr]:
                for k in known:
                    c = coef.pop(k)
                    k_coef, k_rhs = expr[k]
                    for kk, v in k_coef.items():
                        coef[kk] += c * v
                    rhs = [a + c * b for a, b in zip(rhs, k_rhs)]
            d = 1 - coef.pop(s, Fraction(0))
            expr[s] = ({k: v / d for k, v in coef.items() if v}, [a / d for a in rhs])
        values = {}
        for s in reversed(order):
            k_coef, x = expr[s]
            for k, c in k_coef.items():
                x = [a + c * b for a, b in zip(x, values[k])]
            values[s] = x
        return values


def _multinomial(parts) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


def hand_sizes(players: int, deck: int) -> list[int]:
    """Dealing one card at a time from seat 0: the first deck % players seats get one more."""
    return [deck // players + (i < deck % players) for i in range(players)]


def _standard_starts(players: int, deck: int) -> dict:
    """{(counts, witch seat): number of deals} after the preliminary discard of every deal, by
    dynamic programming over the plain ranks (hand sizes so far, rank sets so far)."""
    n, plain_ranks = players, deck // 4 - 1
    size = tuple(hand_sizes(n, deck))
    patterns = [(c, _multinomial(c), sum(1 << p for p in range(n) if c[p] % 2))
                for c in itertools.product(range(5), repeat=n) if sum(c) == 4]
    dp = {((0,) * n, (0,) * (1 << n)): 1}
    for _ in range(plain_ranks):
        nxt: dict = defaultdict(int)
        for (sizes, counts), ways in dp.items():
            for c, c_ways, odd in patterns:
                new_sizes = tuple(a + b for a, b in zip(sizes, c))
                if any(a > b for a, b in zip(new_sizes, size)):
                    continue
                if odd:
                    new = list(counts)
                    new[odd] += 1
                    counts_after = tuple(new)
                else:
                    counts_after = counts
                nxt[(new_sizes, counts_after)] += ways * c_ways
        dp = nxt
    starts: dict = defaultdict(int)
    for (sizes, counts), ways in dp.items():
        for witch in range(n):
            for q in itertools.product(range(4), repeat=n):     # the three plain queens
                if sum(q) != 3 or any(sizes[p] + q[p] + (p == witch) != size[p] for p in range(n)):
                    continue
                new = list(counts)
                new[sum(1 << p for p in range(n) if q[p] % 2)] += 1
                starts[(tuple(new), witch)] += ways * _multinomial(q)
    return starts


def _literal_two_player_paths(deck: int):
    """The two-player literal order up to the moment both hands are pair-free: yields
    (probability, witch seat as dealt, draws so far, chain state or loser seat). Seat 0 draws from
    the dealer's full hand and discards, then the dealer draws from seat 0 and discards.
    A deal is summarised by how many plain ranks seat 0 holds 0..4 cards of, its plain queens and
    the witch's seat."""
    plain_ranks = deck // 4 - 1
    size0 = deck // 2
    total = comb(deck, size0)
    chain = Chain(2)
    for m in itertools.product(range(plain_ranks + 1), repeat=5):
        if sum(m) != plain_ranks:
            continue
        rank_ways = _multinomial(m)
        for a, k in enumerate(m):
            rank_ways *= comb(4, a) ** k
        for q0, w0 in itertools.product(range(4), (0, 1)):
            if sum(a * k for a, k in enumerate(m)) + q0 + (w0 == 0) != size0:
                continue
            p_deal = Fraction(rank_ways * comb(3, q0), total)
            first = [((4 - a) * m[a], ("rank", a)) for a in range(4) if m[a]]
            first += [(1, ("witch",))] if w0 == 1 else []
            first += [(3 - q0, ("queen",))] if q0 < 3 else []
            for cards1, what1 in first:
                mm, w, q = list(m), w0, q0
                if what1[0] == "rank":
                    mm[what1[1]] -= 1
                    mm[what1[1] + 1] += 1
                elif what1[0] == "witch":
                    w = 0
                else:
                    q += 1
                p1 = p_deal * Fraction(cards1, size0)
                odd_ranks, q_odd = mm[1] + mm[3], q % 2   # seat 0 after discarding its pairs
                n0 = odd_ranks + q_odd + (w == 0)
                if n0 == 0:
                    yield p1, w0, 1, 1                     # seat 0 is out: the dealer loses
                    continue
                second = [(odd_ranks, "rank")] if odd_ranks else []
                second += [(1, "witch")] if w == 0 else []
                second += [(1, "queen")] if q_odd else []
                for cards2, what2 in second:
                    split, w2, q_at_0 = odd_ranks, w, q_odd
                    if what2 == "rank":
                        split -= 1                         # the dealer pairs it
                    elif what2 == "witch":
                        w2 = 1
                    else:
                        q_at_0 = 0
                    counts = (0, int(q_at_0 == 1), int(q_at_0 == 0), split)
                    yield p1 * Fraction(cards2, n0), w0, 2, chain.settle(counts, w2, 0)


# Standard order: 2-3 players solve in seconds (3 players/52 cards: 4,074 states); 4 players with
# 32 cards (54,575 states) takes about a minute, mostly the start distribution, so it is computed
# only on request (slow=True) and in the report; 4 players with 52 cards and 5-6 players are out of reach here.
FAST_EXACT_PLAYERS = 3
SLOW_EXACT = {(4, 32)}


@dataclass(frozen=True)
class ExactValues:
    players: int
    deck: int
    order: str
    lose: tuple                   # P(seat loses), Fraction when exact else float
    expected_draws: Any
    witch_at_start_loses: tuple   # P(the seat holding QS when play starts holds it and loses)
    out_at_start: tuple           # P(seat's hand is empty before the first draw)
    cards_at_start: dict          # {cards left in all hands before the first draw: probability}
    states: int                   # transient states of the chain


def exact_supported(players: int, deck: int, order: str, slow: bool = False) -> bool:
    """Whether exact_values covers the game (``slow``: include the cases taking about a minute)."""
    if order == "literal":
        return players == 2
    return players <= FAST_EXACT_PLAYERS or (slow and (players, deck) in SLOW_EXACT)


def _significant(x: float, digits: int = 12) -> float:
    return float(f"{x:.{digits}g}")


@lru_cache(maxsize=None)
def exact_values(players: int, deck: int, order: str, exact: bool | None = None) -> ExactValues:
    """Exact loss probabilities per seat and expected draws of a whole deal (uniform draws).

    Standard order: 2 and 3 players, both packs, and 4 players with 32 cards (about a minute);
    literal order: 2 players. ``exact`` chooses fractions (default for 2 players) or floats from
    sparse solves (default for more), to 12 significant digits."""
    if (not all(isinstance(x, int) and not isinstance(x, bool) for x in (players, deck)) or deck not in PACK_RANKS
            or not MIN_PLAYERS <= players <= MAX_PLAYERS or order not in _CHOICES["order"]):
        raise ValueError(f"no such game: {players!r} players, {deck!r} cards, {order!r} order")
    if not exact_supported(players, deck, order, slow=True):
        raise ValueError(f"the exact chain covers the standard order with 2 or 3 players (and 4 players with "
                         f"32 cards) and the literal order with 2 players, not {players} players, {deck} cards, "
                         f"{order} order")
    if exact is None:
        exact = players == 2
    num = Fraction if exact else float
    chain = Chain(players)
    n = players
    if order == "standard":
        starts = _standard_starts(players, deck)
        total = sum(starts.values())
        weighted = defaultdict(Fraction)                       # (state, witch seat) -> probability
        out_at_start = [Fraction(0)] * n
        cards_at_start: dict = defaultdict(Fraction)
        for (counts, witch), ways in starts.items():
            p = Fraction(ways, total)
            sizes = chain.hand_sizes(counts, witch)
            for seat in range(n):
                out_at_start[seat] += p * (sizes[seat] == 0)
            cards_at_start[sum(sizes)] += p
            weighted[(chain.settle(counts, witch, 0), witch, 0)] += p
    else:
        weighted = defaultdict(Fraction)
        for p, witch, draws, state in _literal_two_player_paths(deck):
            weighted[(state, witch, draws)] += p
        out_at_start = [Fraction(0)] * n
        cards_at_start = {deck: Fraction(1)}
    table = chain.explore({s for s, _, _ in weighted})
    values = chain.solve(table, exact)
    lose = [num(0)] * n
    draws_mean = num(0)
    witch_loses = [num(0)] * n
    for (state, witch, draws_before), p in weighted.items():
        p = num(p)
        if isinstance(state, int):
            v = [num(int(state == seat)) for seat in range(n)] + [num(0)]
        else:
            v = values[state]
        for seat in range(n):
            lose[seat] += p * v[seat]
        witch_loses[witch] += p * v[witch]
        draws_mean += p * (v[n] + draws_before)
    if not exact:
        # The sparse solve's last digits depend on the machine's floating-point kernels (seen: a
        # unit in the 17th digit on another CPU); 12 significant digits read the same everywhere.
        lose, witch_loses = [_significant(x) for x in lose], [_significant(x) for x in witch_loses]
        draws_mean = _significant(draws_mean)
    return ExactValues(players, deck, order, tuple(lose), draws_mean, tuple(witch_loses),
                       tuple(num(x) for x in out_at_start), {k: num(v) for k, v in sorted(cards_at_start.items())},
                       len(table))


# ---------------------------------------------------------------------------------------------
# Single-deal API

def _pack_ranks(deck: int) -> str:
    if not isinstance(deck, int) or isinstance(deck, bool) or deck not in PACK_RANKS:
        raise ValueError(f"deck must be 32 or 52 cards, got {deck!r}")
    return PACK_RANKS[deck]


def _hand_list(hands) -> list:
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise ValueError(f"hands must be a list of hands (one card string or card list per seat), got {hands!r}")
    hands = list(hands)
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise ValueError(f"Ved'ma needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {len(hands)}")
    return hands


def parse_hands(hands, deck: int = 32, full_deal: bool = False) -> list[list[str]]:
    """Parse 2..6 hands of the given pack (cards checked, no card twice, QS held by someone;
    with full_deal, every card dealt and the hand sizes of a deal from seat 0)."""
    hands = _hand_list(hands)
    ranks = _pack_ranks(deck)
    names = [f"seat {p}" for p in range(len(hands))]
    parsed = [FULL52.parse(h, what=f"{name} hand") for h, name in zip(hands, names)]
    for cards, name in zip(parsed, names):
        for card in cards:
            if card[0] not in ranks:
                raise ValueError(f"card {card!r} in the {name} hand is not in the {deck}-card pack (ranks {' '.join(ranks)})")
    check_disjoint(parsed, names)
    if not any(WITCH in h for h in parsed):
        raise ValueError("nobody holds the witch (QS)")
    if full_deal:
        expected = hand_sizes(len(hands), deck)
        for cards, name, size in zip(parsed, names, expected):
            if len(cards) != size:
                raise ValueError(f"the {name} hand has {len(cards)} cards; dealing {deck} cards to "
                                 f"{len(hands)} players from seat 0 gives {size}")
    return parsed


def discard_pairs(hand: Cards, deck: int = 52) -> list[str]:
    """The cards left after discarding every pair of a hand (QS never pairs; of a rank held an
    odd number of times, the card of the last suit in the order S H D C stays)."""
    ranks = _pack_ranks(deck)
    cards = FULL52.parse(hand)
    for card in cards:
        if card[0] not in ranks:
            raise ValueError(f"card {card!r} is not in the {deck}-card pack")
    return FULL52.from_mask(core.discard(FULL52.mask(cards)))


@dataclass(frozen=True)
class PositionOdds:
    lose: tuple                 # P(seat loses): Fractions, or floats to 12 significant digits
    expected_draws: Any
    exact: bool = True          # fractions (True) or a floating-point solve (False)
    states: int = 0             # transient states of the chain from this position


# Fractions grow with the chain: 1,333 states take 2.5 s, 6,336 states 2.5 minutes; beyond
# EXACT_POSITION_STATES a position is solved in floating point (12 significant digits), and
# beyond MAX_POSITION_STATES refused before its table fills the memory.
EXACT_POSITION_STATES = 2_000
MAX_POSITION_STATES = 500_000


def position_odds(hands, to_draw: int = 0, deck: int = 52, exact: bool | None = None) -> PositionOdds:
    """Odds of a position with uniform draws: each hand first discards its pairs, then seat
    `to_draw` draws from the nearest seat on its right holding cards, and so on. ``exact``:
    fractions (True), floats (False), or fractions up to EXACT_POSITION_STATES states of the chain
    and floats beyond (None)."""
    if exact not in (None, True, False):
        raise ValueError(f"exact must be True, False or None, got {exact!r}")
    parsed = parse_hands(hands, deck)
    n = len(parsed)
    if isinstance(to_draw, bool) or not isinstance(to_draw, int) or not 0 <= to_draw < n:
        raise ValueError(f"to_draw must be a seat from 0 to {n - 1}, got {to_draw!r}")
    in_play = [c for h in parsed for c in h]
    for rank in "23456789TJKA":   # cards leave in pairs, so every rank but the queens stays even
        cards = [c for c in in_play if c[0] == rank]
        if len(cards) % 2:
            raise ValueError(f"an odd number of {rank}s in play ({' '.join(cards)}): cards leave in pairs, so a "
                             f"position holds an even number of each rank (the queens aside)")
    held = [set(discard_pairs(h, deck)) for h in parsed]
    counts = [0] * (1 << n)
    witch = next(p for p in range(n) if WITCH in held[p])
    for rank in "23456789TJQKA":
        holders = sum(1 << p for p in range(n) for s in "SHDC" if rank + s != WITCH and rank + s in held[p])
        if holders:
            counts[holders] += 1
    chain = Chain(n)
    state = chain.settle(tuple(counts), witch, to_draw)
    if isinstance(state, int):
        return PositionOdds(tuple(Fraction(int(state == p)) for p in range(n)), Fraction(0), True, 0)
    table = chain.explore([state], MAX_POSITION_STATES)
    if exact is None:
        exact = len(table) <= EXACT_POSITION_STATES
    values = chain.solve(table, exact)[state]
    if not exact:
        values = [_significant(float(x)) for x in values]
    return PositionOdds(tuple(values[:n]), values[n], exact, len(table))


@dataclass(frozen=True)
class Draw:
    drawer: int
    victim: int
    card: str
    hands_after: tuple          # every hand after the drawer discarded


@dataclass(frozen=True)
class Playthrough:
    options: dict
    dealt: tuple
    draws: tuple                # the draws in order (the first 4096 of a longer deal)
    loser: int
    n_draws: int

    def explain(self) -> str:
        o = self.options
        lines = [f"Ved'ma: {o['players']} players, {o['deck']} cards, {o['order']} order; seat "
                 f"{o['players'] - 1} dealt, seat 0 draws first"]
        lines += [f"seat {p} dealt: {' '.join(h)}" for p, h in enumerate(self.dealt)]
        if o["order"] == "standard":
            lines += [f"seat {p} after discarding pairs: {' '.join(discard_pairs(h, o['deck'])) or '(out)'}"
                      for p, h in enumerate(self.dealt)]
        for i, d in enumerate(self.draws, 1):
            lines.append(f"{i:3d}. seat {d.drawer} draws {d.card} from seat {d.victim}; hand sizes "
                         + " ".join(str(len(h)) for h in d.hands_after))
        if self.n_draws > len(self.draws):
            lines.append(f"... {self.n_draws - len(self.draws)} more draws")
        lines.append(f"seat {self.loser} is left with the witch and loses after {self.n_draws} draws")
        return "\n".join(lines)


def play_deal(hands, rules: str = "seed", seed: int = 0, **overrides) -> Playthrough:
    """Play one given full deal (one hand per seat, seat 0 = dealer's left) with uniform draws from
    PCG64(seed); ``rules`` names a preset, keyword arguments override its options (players is
    taken from the number of hands)."""
    hands = _hand_list(hands)
    if "players" in overrides and GAME.validate_option("players", overrides["players"]) != len(hands):
        raise ValueError(f"players={overrides['players']} but {len(hands)} hands are given (the hands tell the players)")
    options = GAME.resolve_rules(rules, {**overrides, "players": len(hands)})
    parsed = parse_hands(hands, options["deck"], full_deal=True)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed must be a non-negative integer, got {seed!r}")
    masks = [FULL52.mask(h) for h in parsed]
    loser, n_draws, trace = core.play_traced(masks, options, np.random.PCG64(seed))
    current = [FULL52.mask(h) for h in parsed]
    if options["order"] == "standard":
        current = [core.discard(m) for m in current]
    draws = []
    for drawer, victim, bit in trace.tolist():
        current[victim] &= ~(1 << bit)
        current[drawer] = core.discard(current[drawer] | (1 << bit))
        draws.append(Draw(drawer, victim, FULL52.card(bit), tuple(tuple(FULL52.from_mask(m)) for m in current)))
    return Playthrough(options, tuple(tuple(FULL52.from_mask(m)) for m in masks), tuple(draws), loser, n_draws)


# ---------------------------------------------------------------------------------------------
# Tables from merged counters

def seat_name(seat: int, players: int) -> str:
    if seat == players - 1:
        return f"seat {seat} (dealer)"
    return f"seat {seat} (draws first)" if seat == 0 else f"seat {seat}"


def _exact_or_none(rules: dict, slow: bool = False) -> ExactValues | None:
    if not exact_supported(rules["players"], rules["deck"], rules["order"], slow):
        return None
    return exact_values(rules["players"], rules["deck"], rules["order"])


def loss_table(counters: dict[str, np.ndarray], rules: dict, with_exact: bool = True,
               slow_exact: bool = False) -> pd.DataFrame:
    """P(lose) per seat with its Wilson 95% interval, the exact value where the chain gives one,
    and the distance from it in standard errors; then the mean number of draws, and
    P(the seat holding the witch when play starts loses) per seat."""
    n, deals = rules["players"], int(counters["deals"][0])
    exact = _exact_or_none(rules, slow_exact) if with_exact else None
    rows = []

    def rate(event, who, count, total, exact_value=None):
        low, high = wilson(count, total)
        est = count / total if total else np.nan
        ex = float(exact_value) if exact_value is not None else np.nan
        se = np.sqrt(ex * (1 - ex) / total) if total and not np.isnan(ex) else np.nan
        z = (est - ex) / se if se and se > 0 else np.nan
        rows.append(dict(event=event, seat=who, count=int(count), n=int(total), estimate=est,
                         ci_low=float(low), ci_high=float(high), exact=ex, z=z))

    for seat in range(n):
        rate("loses", seat_name(seat, n), counters["lose"][seat], deals, exact.lose[seat] if exact else None)
    for seat in range(n):
        rate("out before the first draw", seat_name(seat, n), counters["out_at_start"][seat], deals,
             exact.out_at_start[seat] if exact else None)
    for seat in range(n):
        rate("holds the witch when play starts and loses", seat_name(seat, n),
             counters["witch_at_start_loses"][seat], deals, exact.witch_at_start_loses[seat] if exact else None)
    for seat in range(n):
        rate("loses, given the witch when play starts", seat_name(seat, n),
             counters["witch_at_start_loses"][seat], counters["witch_at_start"][seat])
    mean, low, high = mean_interval(float(counters["draws_sum"][0]), float(counters["draws_sumsq"][0]), deals)
    ex = float(exact.expected_draws) if exact else np.nan
    rows.append(dict(event="mean number of draws", seat="all", count=pd.NA, n=deals, estimate=mean,
                     ci_low=low, ci_high=high, exact=ex, z=np.nan))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def length_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """The distribution of the number of draws in a deal: probability and cumulative share."""
    hist = counters["draws_hist"].astype(np.int64)
    deals = int(hist.sum())
    top = int(np.nonzero(hist)[0].max()) + 1 if deals else 0
    low, high = wilson(hist[:top], deals)
    last = len(hist) - 1
    return pd.DataFrame({
        "draws": [f">= {d}" if d == last else str(d) for d in range(top)],
        "count": hist[:top], "probability": hist[:top] / max(deals, 1), "ci_low": low, "ci_high": high,
        "cumulative": np.cumsum(hist[:top]) / max(deals, 1)})


def length_quantiles(counters: dict[str, np.ndarray], qs=(0.1, 0.5, 0.9, 0.99)) -> dict[str, int]:
    cumulative = np.cumsum(counters["draws_hist"]) / counters["draws_hist"].sum()
    return {f"q{int(q * 100)}": int(np.searchsorted(cumulative, q)) for q in qs}


def paired_difference(paired: np.ndarray, deals: int):
    """Mean of d = [loses in the variant] - [loses with random placement] over paired deals
    (tallies: both, only random, only variant) with a normal 95% interval, kept in [-1, 1]."""
    only_random, only_variant = int(paired[1]), int(paired[2])
    diff_sum = only_variant - only_random
    sq_sum = only_variant + only_random
    return mean_interval(float(diff_sum), float(sq_sum), deals, bounds=(-1.0, 1.0))


def placement_table(counters: dict[str, np.ndarray], rules: dict) -> pd.DataFrame:
    """P(lose) of each seat with random placement, with that seat offering the witch where the
    drawer reaches, and with every seat doing so; the paired difference on the same deals with its
    95% interval."""
    n, deals = rules["players"], int(counters["deals"][0])
    rows = []
    for seat in range(n):
        for variant, who in ((1 + seat, "this seat alone"), (n + 1, "every seat")):
            base = counters["lose"][0, seat]
            mean, low, high = paired_difference(counters["paired"][variant, seat], deals)
            rows.append(dict(seat=seat_name(seat, n), smart_holders=who, deals=deals,
                             p_lose_random=base / deals, p_lose_smart=counters["lose"][variant, seat] / deals,
                             difference=mean, diff_ci_low=low, diff_ci_high=high))
    return pd.DataFrame(rows)


def _session_losses(seat_loss: np.ndarray, next_dealer: str, deals: int):
    """Each player's expected losses over `deals` deals and their gradient with respect to the
    per-seat loss probabilities ([player, seat]), carried forward through the dealer's chain."""
    n = len(seat_loss)
    # with player D dealing, player p sits at seat (p - D - 1) mod n
    seat_of = (np.arange(n)[:, None] - np.arange(n)[None, :] - 1) % n     # [player p, dealer D]
    at_seat = seat_loss[seat_of]
    dealer = np.zeros(n)
    dealer[n - 1] = 1.0
    d_dealer = np.zeros((n, n))
    expected, d_expected = np.zeros(n), np.zeros((n, n))
    for _ in range(deals):
        lose = at_seat @ dealer
        d_lose = at_seat @ d_dealer
        for d in range(n):
            d_lose[np.arange(n), seat_of[:, d]] += dealer[d]
        expected += lose
        d_expected += d_lose
        if next_dealer == "loser":
            dealer, d_dealer = lose, d_lose
        else:
            dealer, d_dealer = np.roll(dealer, 1), np.roll(d_dealer, 1, axis=0)
    return expected, d_expected


def _session_inputs(seat_loss, next_dealer: str, deals: int) -> tuple[np.ndarray, int]:
    seat_loss = np.asarray([float(x) for x in seat_loss])
    deals = parsing.integer("deals", deals, 1, 10**9)
    if next_dealer not in _CHOICES["next_dealer"]:
        raise ValueError(f"next_dealer must be rotate or loser, got {next_dealer!r}")
    return seat_loss, deals


def _delta_half_width(gradient: np.ndarray, seat_loss: np.ndarray, sample_deals: int) -> np.ndarray:
    """95% half-width of functions of the seat loss probabilities estimated from `sample_deals`
    deals with one loser each (a multinomial), by the delta method; `gradient` [function, seat]."""
    covariance = (np.diag(seat_loss) - np.outer(seat_loss, seat_loss)) / sample_deals
    variance = np.einsum("fi,ij,fj->f", gradient, covariance, gradient)
    return norm.ppf(0.5 + CONFIDENCE / 2) * np.sqrt(np.maximum(variance, 0.0))


def session_expectations(seat_loss, next_dealer: str, deals: int, sample_deals: int | None = None) -> pd.DataFrame:
    """Expected losses of each player over a session of `deals` deals, starting with player n-1
    dealing (so player p sits at seat p), given the per-seat loss probabilities of one deal.
    ``rotate``: the deal passes to the left; ``loser``: the loser deals next (a Markov chain on the
    dealer). The deals are independent given the seats, so this is exact for exact inputs.

    With `sample_deals`, the seat probabilities are taken as estimated from that many simulated
    deals and each share gets a 95% delta-method interval (`n` = sample_deals): the uncertainty of
    the expected share, not the spread of one real session's outcome."""
    seat_loss, deals = _session_inputs(seat_loss, next_dealer, deals)
    expected, d_expected = _session_losses(seat_loss, next_dealer, deals)
    table = pd.DataFrame({"player": range(len(seat_loss)), "expected_losses": expected, "share": expected / deals})
    if sample_deals is not None:
        half = _delta_half_width(d_expected / deals, seat_loss, sample_deals)
        table["n"] = sample_deals
        table["share_ci_low"] = np.maximum(table.share - half, 0.0)
        table["share_ci_high"] = np.minimum(table.share + half, 1.0)
    return table


def session_spread(seat_loss, next_dealer: str, deals: int, sample_deals: int) -> dict:
    """The largest expected share of losses minus the smallest over a session, the two players and
    the spread's 95% delta-method interval for seat probabilities estimated from `sample_deals`
    deals. Shares equal by symmetry (every seat equally often) give exactly 0 with no width."""
    seat_loss, deals = _session_inputs(seat_loss, next_dealer, deals)
    expected, d_expected = _session_losses(seat_loss, next_dealer, deals)
    share, gradient = expected / deals, d_expected / deals
    most, least = int(np.argmax(share)), int(np.argmin(share))
    difference_gradient = gradient[most] - gradient[least]
    if not np.any(np.abs(difference_gradient) > 1e-12):   # the same function of the seat rates: all equal
        return dict(n=sample_deals, most_losses=None, fewest_losses=None, spread=0.0, spread_ci_low=0.0,
                    spread_ci_high=0.0)
    spread = float(share[most] - share[least])
    half = float(_delta_half_width(difference_gradient[None, :], seat_loss, sample_deals)[0])
    return dict(n=sample_deals, most_losses=most, fewest_losses=least, spread=spread,
                spread_ci_low=max(spread - half, 0.0), spread_ci_high=spread + half)


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DEALS = 1_000_000
REPORT_PLACEMENT_DEALS = 500_000
REPORT_EDGE_WEIGHTS = (2.0, 0.5)
SESSION_DEALS = (6, 12, 60)
SESSION_SHARE_DEALS = 12     # the session length of the report's per-player table
MAX_SESSION_DEALS = 100_000


def _fmt_exact(value) -> str:
    return str(value) if isinstance(value, Fraction) else f"{float(value):.12f}"


def build_report(ctx) -> list:
    from ..report import Section, interval_bars
    import matplotlib.pyplot as plt

    summary, lengths, results = [], [], {}
    # The minute-long 4-player exact solve only in a full-size report, not in quick previews.
    full_size = ctx.deals_for(REPORT_DEALS) >= REPORT_DEALS
    for order, preset in (("literal", "seed"), ("standard", "standard")):
        for deck in PACK_RANKS:
            for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                result = ctx.run("vedma", "play", preset, REPORT_DEALS, {"players": players, "deck": deck})
                results[(order, deck, players)] = result
                rules = result.config.rule_options
                table = loss_table(result.counters, rules, slow_exact=full_size)
                for _, row in table[table.event == "loses"].iterrows():
                    summary.append(dict(order=order, deck=deck, players=players, **row.drop("event").to_dict()))
                mean_row = table[table.event == "mean number of draws"].iloc[0]
                lengths.append(dict(order=order, deck=deck, players=players, deals=int(mean_row["n"]),
                                    mean_draws=mean_row["estimate"], ci_low=mean_row["ci_low"],
                                    ci_high=mean_row["ci_high"], exact_mean=mean_row["exact"],
                                    **length_quantiles(result.counters)))
    summary_df = pd.DataFrame(summary)
    sections = [Section(
        "Ved'ma: who is left with the witch",
        "Each deal is played to the end with uniform random draws. Seat 0 sits at the dealer's left "
        "and draws first; the last seat deals. `literal` order (the `seed` preset): no preliminary discard, each player "
        "discards his pairs after his own draw (the seed's wording); `standard` order: all pairs are "
        "discarded before the first draw. `exact` is the solution of the game's Markov chain "
        "(standard order: 2-3 players with both packs" + (" and 4 players with 32 cards" if full_size else
                                                           "; 4 players with 32 cards in a full-size report only, "
                                                           "a minute's solve") +
        "; literal order: 2 players); `z` is the estimate's distance from it in standard errors.",
        tables=[("P(lose) by seat", summary_df)])]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharey=True)
    for (i, order), (j, deck) in itertools.product(enumerate(("literal", "standard")), enumerate(PACK_RANKS)):
        ax = axes[i, j]
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            rows = summary_df[(summary_df.order == order) & (summary_df.deck == deck) & (summary_df.players == players)]
            line = ax.errorbar(range(players), rows.estimate, yerr=[rows.estimate - rows.ci_low, rows.ci_high - rows.estimate],
                               marker="o", capsize=3, label=f"{players} players")
            ax.scatter(range(players), rows.exact, marker="_", s=150, color=line[0].get_color(), zorder=3)
        ax.set_title(f"{order} order, {deck} cards")
        ax.set_xlabel("seat (0 draws first, last = dealer)")
        ax.set_ylabel("P(lose)")
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    sections[0].figures.append(("P(lose) by seat with 95% intervals (often smaller than the markers); a horizontal "
                                "dash is the exact value where it is known. A fair game would give 1/players "
                                "to every seat.", fig))

    exact_rows = []
    for (players, deck, order) in [(2, 32, "standard"), (2, 32, "literal"), (2, 52, "standard"), (2, 52, "literal"),
                                   (3, 32, "standard"), (3, 52, "standard")] + ([(4, 32, "standard")] if full_size else []):
        e = exact_values(players, deck, order)
        for seat in range(players):
            exact_rows.append(dict(players=players, deck=deck, order=order, seat=seat_name(seat, players),
                                   p_lose=float(e.lose[seat]), exact=_fmt_exact(e.lose[seat]),
                                   expected_draws=float(e.expected_draws), chain_states=e.states))
    sections.append(Section(
        "Ved'ma: exact values from the Markov chain",
        "After the preliminary discard a state is: for every set of seats, how many ranks are held one "
        "card each by exactly those seats; the witch's seat; the seat to draw. The chain is solved "
        "exactly in fractions for 2 players and by sparse LU, level by level of cards held, for more. "
        "The literal order is reduced to the chain after the first two draws (2 players). "
        + ("" if full_size else "4 players with 32 cards (a minute's solve) are left out of a report below full size. ")
        + "4 players with 52 cards and 5-6 players are beyond this solver's reach in reasonable time; Monte Carlo only.",
        tables=[("Exact P(lose) and expected number of draws", pd.DataFrame(exact_rows))]))

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, deck in zip(axes, PACK_RANKS):
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            hist = results[("literal", deck, players)].counters["draws_hist"]
            top = int(np.searchsorted(np.cumsum(hist) / hist.sum(), 0.999)) + 1
            ax.step(np.arange(top), hist[:top] / hist.sum(), where="mid", label=f"{players} players")
        ax.set_title(f"literal order, {deck} cards")
        ax.set_xlabel("number of draws in a deal")
        ax.set_ylabel("probability")
        ax.legend(fontsize=8)
    sections.append(Section(
        "Ved'ma: how long a deal lasts",
        "Number of draws from the first draw to the end (a draw is one card taken from the right-hand "
        "neighbour). q10..q99 are quantiles of the simulated distribution.",
        tables=[("Game length", pd.DataFrame(lengths))],
        figures=[("Distribution of the number of draws, literal order.", fig)]))

    placement_tables = []
    fig, axes = plt.subplots(1, len(REPORT_EDGE_WEIGHTS), figsize=(11, 4.5), sharey=True)
    for ax, weight in zip(np.atleast_1d(axes), REPORT_EDGE_WEIGHTS):
        result = ctx.run("vedma", "placement", "seed", REPORT_PLACEMENT_DEALS, {"edge_weight": weight})
        table = placement_table(result.counters, result.config.rule_options)
        placement_tables.append((f"Witch placement, 4 players, 32 cards, literal order, edge weight {weight}", table))
        interval_bars(table.seat + ", " + table.smart_holders, 100 * table.difference, 100 * table.diff_ci_low,
                      100 * table.diff_ci_high, "change in P(lose), percentage points", title=f"edge weight {weight}", ax=ax)
    fig.tight_layout()
    sections.append(Section(
        "Ved'ma: does it matter where the witch sits in the fan?",
        "A drawer who is not perfectly random tends to favour some positions of a fanned hand. Model: "
        "the two edge cards are taken with weight e and every inner card with weight 1 (e = 2: the "
        "drawer likes the edges; e = 0.5: he avoids them). A smart holder offers the witch where it is "
        "most likely to be taken (at an edge if e > 1, inside the fan if e < 1), so with h >= 3 cards "
        "he gives it away with probability max(e,1)/(2e+h-2) instead of 1/h; the other cards are in "
        "random order. Every deal is played with all holders random, with one seat smart, and with "
        "every seat smart; `difference` is the paired change in that seat's P(lose) on the same deals, "
        "with a 95% interval.",
        tables=placement_tables,
        figures=[("Smart against random placement on the same deals: the change in each seat's P(lose) "
                  "with its 95% interval (negative: the smart holder loses less).", fig)]))

    spread_rows, share_rows = [], []
    for (order, deck, players), result in results.items():
        if deck != 32 or players not in (3, 4):
            continue
        rules, sampled = result.config.rule_options, int(result.counters["deals"][0])
        seat_loss = result.counters["lose"][:players] / sampled
        exact = _exact_or_none(rules, slow=full_size)
        for rule in _CHOICES["next_dealer"]:
            for deals in SESSION_DEALS:
                spread_rows.append(dict(order=order, players=players, next_dealer=rule, session_deals=deals,
                                        **session_spread(seat_loss, rule, deals, sampled)))
            shares = session_expectations(seat_loss, rule, SESSION_SHARE_DEALS, sampled)
            exact_shares = (session_expectations([float(x) for x in exact.lose], rule, SESSION_SHARE_DEALS).share
                            if exact else np.nan)
            share_rows.append(shares.drop(columns="expected_losses").assign(
                order=order, players=players, next_dealer=rule, exact_share=exact_shares))
    shares = pd.concat(share_rows, ignore_index=True)
    shares = shares[["order", "players", "next_dealer", "player", "n", "share", "share_ci_low", "share_ci_high",
                     "exact_share"]]
    sections.append(Section(
        "Ved'ma: sessions — does the dealer rotation even out the seats?",
        "Share of the deals each player is expected to lose over a session, player n-1 dealing first, "
        "computed from the per-seat P(lose) above (the deals are independent given the seats). "
        "`rotate`: the deal passes to the left, so over a multiple of n deals every player sits in "
        "every seat equally often; `loser`: the loser deals next. The intervals (95%, delta method) "
        "carry the uncertainty of the per-seat rates estimated from `n` deals into the expected shares; "
        "they are not the spread of one real session's outcome. `spread` is the largest expected share "
        "minus the smallest (players `most_losses` and `fewest_losses`); it is exactly 0, with no width and "
        "no players named, when every player sits in every seat equally often. `exact_share` comes from the exact per-seat "
        "P(lose) where the chain gives it.",
        tables=[("Spread of the expected shares of losses, 32 cards", pd.DataFrame(spread_rows)),
                (f"Expected share of losses per player over {SESSION_SHARE_DEALS} deals, 32 cards", shares)]))
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr vedma odds | length | exact | placement | play | position

def register_cli(sub) -> None:
    from .. import cli

    odds = sub.add_parser("odds", help="P(lose) by seat with intervals and exact values, mean game length")
    cli.add_run_options(odds, "vedma", default_deals=1_000_000)
    odds.add_argument("--no-exact", action="store_true", help="skip the exact values")
    odds.add_argument("--slow-exact", action="store_true", help="also solve the chain for 4 players (about a minute)")
    odds.set_defaults(handler=_cmd_odds)

    length = sub.add_parser("length", help="distribution of the number of draws in a deal")
    cli.add_run_options(length, "vedma", default_deals=1_000_000)
    length.set_defaults(handler=_cmd_length)

    exact = sub.add_parser("exact", help="exact P(lose) per seat from the Markov chain")
    exact.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    exact.add_argument("--deck", type=int, default=32, help="32 or 52 cards (default 32)")
    exact.add_argument("--order", default="literal", choices=_CHOICES["order"], help="discard order (default: literal)")
    exact.add_argument("--json", action="store_true")
    exact.set_defaults(handler=_cmd_exact)

    placement = sub.add_parser("placement", help="witch placement against a drawer favouring the edges (paired deals)")
    cli.add_run_options(placement, "vedma", default_deals=500_000)
    placement.add_argument("--edge-weight", type=float, default=None,
                           help="weight of the two edge cards of a fanned hand (inner cards 1; default 2); "
                                "the same as --set edge_weight=W")
    placement.set_defaults(handler=_cmd_placement)

    session = sub.add_parser("session", help="expected share of losses per player over a session, with 95%% intervals (option next_dealer)")
    cli.add_run_options(session, "vedma", default_deals=1_000_000)
    session.add_argument("--session-deals", type=cli.count, default=12, help="deals in a session (default 12)")
    session.set_defaults(handler=_cmd_session)

    play = sub.add_parser("play", help="play one given deal and print every draw")
    play.add_argument("--hand", dest="hands", action="append", required=True,
                      help="one seat's cards, from seat 0 (dealer's left) to the dealer; repeat per seat")
    play.add_argument("--rules", default="seed", choices=list(PRESETS))
    cli.add_set_option(play)
    play.add_argument("--seed", type=cli.seed, default=0)
    play.set_defaults(handler=_cmd_play)

    position = sub.add_parser("position", help="exact odds of a position (hands discard pairs first)")
    position.add_argument("--hand", dest="hands", action="append", required=True, help="one seat's cards; repeat per seat")
    position.add_argument("--to-draw", type=int, default=0, help="the seat to draw next (default 0)")
    position.set_defaults(handler=_cmd_position)


def _cmd_odds(args) -> int:
    from .. import cli

    result = cli.execute(args, "vedma", "play")
    if args.no_exact:
        return cli.emit_summary(args, result)
    # the summary's table with the exact values of the chain, solved here (see the play analysis)
    cli.emit_table(args, result, loss_table(result.counters, result.config.rule_options, slow_exact=args.slow_exact))
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def _cmd_length(args) -> int:
    from .. import cli

    return cli.emit_summary(args, cli.execute(args, "vedma", "play"), 1)


def _cmd_exact(args) -> int:
    import json

    e = exact_values(args.players, args.deck, args.order)
    rows = [dict(seat=seat_name(p, args.players), p_lose=float(e.lose[p]), exact=_fmt_exact(e.lose[p]))
            for p in range(args.players)]
    if args.json:
        print(json.dumps(dict(players=e.players, deck=e.deck, order=e.order, seats=rows,
                              expected_draws=_fmt_exact(e.expected_draws), chain_states=e.states), indent=2))
    else:
        print(f"# vedma exact: {e.players} players, {e.deck} cards, {e.order} order ({e.states} chain states)")
        print(pd.DataFrame(rows).to_string(index=False))
        print(f"expected number of draws: {float(e.expected_draws):.12f} = {_fmt_exact(e.expected_draws)}")
    return 0


def _cmd_placement(args) -> int:
    from .. import cli

    if args.edge_weight is not None:
        if any(key == "edge_weight" for key, _ in args.overrides):
            raise ValueError("give the edge weight once: --edge-weight W or --set edge_weight=W")
        args.overrides = list(args.overrides) + [("edge_weight", str(args.edge_weight))]
    result = cli.execute(args, "vedma", "placement")
    return cli.emit_summary(args, result)


def _cmd_session(args) -> int:
    from .. import cli

    if args.session_deals > MAX_SESSION_DEALS:   # checked before the simulation; the sum is a Python loop
        raise ValueError(f"--session-deals must be at most {MAX_SESSION_DEALS:,} (the shares have long "
                         f"settled by then), got {args.session_deals:,}")
    result = cli.execute(args, "vedma", "play")
    # not in the play analysis's summary: the session length is an argument of this command only
    rules = result.config.rule_options
    sampled = int(result.counters["deals"][0])
    seat_loss = result.counters["lose"][:rules["players"]] / sampled
    cli.emit_table(args, result, session_expectations(seat_loss, rules["next_dealer"], args.session_deals, sampled))
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def _cmd_play(args) -> int:
    print(play_deal(args.hands, args.rules, args.seed, **dict(args.overrides)).explain())
    return 0


def _cmd_position(args) -> int:
    odds = position_odds(args.hands, args.to_draw)

    def shown(value) -> str:
        return f"{value} = {float(value):.6f}" if odds.exact else f"{value:.12g}"

    for p, value in enumerate(odds.lose):
        print(f"seat {p}: P(lose) = {shown(value)}")
    print(f"expected number of draws: {shown(odds.expected_draws)}")
    if not odds.exact:
        print(f"({odds.states:,} states of the chain, solved in floating point to 12 significant digits; "
              f"fractions up to {EXACT_POSITION_STATES:,})")
    return 0
