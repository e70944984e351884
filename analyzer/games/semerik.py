"""Semerik (shared/rules/semerik.md): four players in two partnerships, 40 cards, hearts trumps.

Seats 0..3 sit in the order of play; partnership A is seats 0 and 2, B is seats 1 and 3. The seat
after the dealer leads first ("the leading partnership"), the dealer's partnership is the other.

Analyses:
  ``declarations``  deal only: every hand's declaration points, the events of rules §9 per hand,
                    per partnership and per table, beside their exact values;
  ``deals``         deal and play ten tricks with the partnerships' strategies (dealer rotates):
                    deal points, trick points, capot, the leading versus the dealing partnership;
  ``games``         whole games to 21 (a "deal" of the run is one game): length, doubles, winners;
  ``compare``       duplicate deals for two play strategies (``kozyr compare semerik``): each deal
                    is played with partnership A on strategy a and B on b, then with the
                    partnerships swapped; see :func:`compare_strategies`.

The play analyses take a strategy per partnership (roles ``play_a``, ``play_b``: greedy, random,
pimc); the rule options ``pimc_worlds`` (PIMC sample size) and ``ruff_min_honours`` (greedy
ruffing policy: 0 always ruff, 4 never) tune them.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import comb, factorial
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import semerik as core
from ..cards import SEMERIK40, SUIT_CHARS, Cards, check_disjoint
from ..stats import clustered_wilson, histogram_moments, mean_interval, ratio_interval, wilson
from . import Analysis, Game

HAND_SIZE = 10
SEATS = 4
PARTNERSHIPS = ("A", "B")
ROLES = ("leading", "dealing")
PLAY_STRATEGIES = ("greedy", "random", "pimc")        # the first is the default
STRATEGIES = {"play_a": PLAY_STRATEGIES, "play_b": PLAY_STRATEGIES}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"3": "threes", "2": "twos", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks",
              "7": "sevens", "6": "sixes", "5": "fives", "4": "fours"}
EXTENSIONS = ("", "+K", "+K+Q", "+K+Q+J")

DEFAULTS: dict[str, Any] = dict(
    heart_baba="bonus2", four_of_kind_bonus=False, overlap="allowed", honour_count="per_trick",
    capot="additive", last_trick_point=0, check_after_declarations=False, direction="clockwise",
    target=21, double_below=11, pimc_worlds=16, ruff_min_honours=0,
)
PRESETS: dict[str, dict[str, Any]] = {
    "default": dict(DEFAULTS),
    # The Tressette-flavoured alternatives of rules §7 taken together.
    "tressette": dict(DEFAULTS, four_of_kind_bonus=True, honour_count="aggregate", last_trick_point=1,
                      check_after_declarations=True),
}
_CHOICES = {
    "heart_baba": ("bonus2", "literal"),
    "overlap": ("allowed", "disallowed"),
    "honour_count": ("per_trick", "aggregate"),
    "capot": ("additive", "replaces"),
    "direction": ("clockwise", "counterclockwise"),
}
_LIMITS = {"last_trick_point": (0, 1), "target": (1, 100), "double_below": (0, 100),
           "pimc_worlds": (1, 1024), "ruff_min_honours": (0, 4)}
_BOOLS = ("four_of_kind_bonus", "check_after_declarations")


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    return parsing.parse("semerik", key, value, choices=_CHOICES, flags=_BOOLS, limits=_LIMITS)


# ---------------------------------------------------------------------------------------------
# Analyses

def _declarations_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.declarations_shard(bit_generators, n_deals, rules)


def kernel_spec(rules: dict, strategies: dict | None = None) -> dict:
    """The rules with each partnership's strategy, as the compiled kernel reads them."""
    strategies = strategies or {}
    return dict(rules, strategy_a=strategies.get("play_a", PLAY_STRATEGIES[0]),
                strategy_b=strategies.get("play_b", PLAY_STRATEGIES[0]))


def _deals_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.deals_shard(bit_generators, n_deals, kernel_spec(rules, strategies))


def _games_kernel(bit_generators, n_games: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.games_shard(bit_generators, n_games, kernel_spec(rules, strategies))


def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.compare_shard(bit_generators, n_deals, rules, strategies)


COMPARE_ROLES = {"a_play": PLAY_STRATEGIES, "b_play": PLAY_STRATEGIES}


GAME = Game(
    name="semerik",
    title="Semerik (four players, partnerships)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        "declarations": Analysis("declarations", "Declaration points of the four dealt hands (no play)",
                                 _declarations_kernel, summary=lambda counters, rules, strategies: [
                                     ("declaration odds", declaration_table(counters, rules)),
                                     ("a hand's declaration points", declaration_distribution(counters, rules))]),
        "deals": Analysis("deals", "Deals played out by the partnerships' strategies: declaration, trick "
                          "and capot points; leading versus dealing partnership", _deals_kernel, streams=2,
                          strategies=STRATEGIES, summary=lambda counters, rules, strategies: [
                              ("deals", deal_table(counters, strategies))]),
        "games": Analysis("games", "Games to 21 (one run 'deal' = one game): length, double wins, "
                          "winners by partnership and by who led first", _games_kernel, streams=2,
                          strategies=STRATEGIES, summary=lambda counters, rules, strategies: [
                              ("games", games_table(counters, rules, strategies))], unit="games"),
        "compare": Analysis("compare", "Duplicate deals: strategies a and b each play both partnerships of "
                            "every deal; a's minus b's deal points summed over the two plays", _compare_kernel,
                            streams=3, strategies=COMPARE_ROLES),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: shard_size_for("compare", strategies),
)


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two strategy labels. A label is a card-play strategy
    (greedy, random or pimc); the rule options pimc_worlds and ruff_min_honours apply to both.

    Seats: every deal (dealer rotating as in the deals analysis) is played twice, first with
    partnership A (seats 0 and 2) playing a and B (seats 1 and 3) playing b, then with the
    partnerships swapped, so each strategy plays every seat of every deal. Per-deal result of a
    strategy: its partnership's deal points (declarations + trick points) summed over the two
    plays; the paired difference is a's result minus b's. Declarations do not depend on the play,
    so they cancel in the difference. Strategy a draws its random numbers from stream 1 and b
    from stream 2; stream 0 deals, so the deals do not depend on the strategies."""
    for label in (a, b):
        if label not in PLAY_STRATEGIES:
            raise ValueError(f"unknown semerik strategy {label!r}: a label is a card-play strategy, one of "
                             f"{', '.join(PLAY_STRATEGIES)}")
    return {"a_play": a, "b_play": b}


# ---------------------------------------------------------------------------------------------
# Exact values (rules §9)

_ALL_HANDS = comb(40, HAND_SIZE)


def _p_fixed(assign: dict[int, int]) -> Fraction:
    """P(for every suit s in assign, the player assign[s] holds the 3, 2 and A of s)."""
    fixed = [0] * SEATS
    for player in assign.values():
        fixed[player] += 3
    if max(fixed) > HAND_SIZE:
        return Fraction(0)
    ways = factorial(40 - sum(fixed))
    for x in fixed:
        ways //= factorial(HAND_SIZE - x)
    return Fraction(ways, factorial(40) // factorial(HAND_SIZE) ** SEATS)


def _p_some_baba(players: Sequence[int]) -> Fraction:
    """P(at least one of `players` holds a baba): inclusion-exclusion over the suits; for one
    suit the players' events are disjoint, so the union over suits expands into assignments."""
    total = Fraction(0)
    for k in range(1, 5):
        for suits in combinations(range(4), k):
            for who in product(players, repeat=k):
                total += (-1) ** (k + 1) * _p_fixed(dict(zip(suits, who)))
    return total


@lru_cache(maxsize=None)
def exact_probabilities() -> dict[str, Fraction]:
    """Exact single-hand and table probabilities that do not depend on the rule options."""
    at_least_three = Fraction(comb(4, 3) * comb(36, 7) + comb(36, 6), _ALL_HANDS)
    return {
        "three or four of a given rank": at_least_three,
        "exactly three of a given rank": Fraction(comb(4, 3) * comb(36, 7), _ALL_HANDS),
        "four of a given rank": Fraction(comb(36, 6), _ALL_HANDS),
        "baba in a given suit": Fraction(comb(37, 7), _ALL_HANDS),
        "baba in some suit": _p_some_baba([0]),
        "3-2-A-K of a given suit": Fraction(comb(36, 6), _ALL_HANDS),
        "3-2-A-K-Q of a given suit": Fraction(comb(35, 5), _ALL_HANDS),
        "3-2-A-K-Q-J of a given suit": Fraction(comb(34, 4), _ALL_HANDS),
        # Two players cannot both hold three of the four sevens, nor the same baba.
        "some player holds >= 3 sevens": 4 * at_least_three,
        "some player holds the heart baba": 4 * Fraction(comb(37, 7), _ALL_HANDS),
        "some player holds a baba": _p_some_baba(range(SEATS)),
        "a given partnership holds a baba": _p_some_baba([0, 2]),
    }


def _declaration_options(rules: dict) -> tuple:
    return tuple(rules[k] for k in ("heart_baba", "four_of_kind_bonus", "overlap"))


@lru_cache(maxsize=None)
def _exact_counts(options: tuple) -> np.ndarray:
    heart_baba, four_of_kind_bonus, overlap = options
    spec = dict(DEFAULTS, heart_baba=heart_baba, four_of_kind_bonus=four_of_kind_bonus, overlap=overlap)
    return core.exact_declaration_counts(spec)


def exact_declaration_counts(rules: dict) -> np.ndarray:
    """Hand counts by declaration points over all C(40,10) hands (enumerated in the kernel, ~0.1 s)."""
    return _exact_counts(_declaration_options(rules))


def exact_declaration_summary(rules: dict) -> dict[str, Fraction]:
    counts = exact_declaration_counts(rules)
    points = np.arange(len(counts))
    return {
        "at least one declaration": Fraction(int(counts[1:].sum()), _ALL_HANDS),
        "mean declaration points": Fraction(int((counts * points).sum()), _ALL_HANDS),
    }


# ---------------------------------------------------------------------------------------------
# Tables from merged counters

def _rate(section: str, event: str, who: str, count, n, exact=None, sum_sq=None, deals=None) -> dict:
    """A rate with its Wilson interval; a rate pooled over the hands of `deals` deals with sum_sq
    (the deals' squared numbers of hands with the event) has the clustered one instead."""
    low, high = wilson(count, n) if sum_sq is None else clustered_wilson(count, n, sum_sq, deals)
    return dict(section=section, event=event, who=who, count=int(count), n=int(n),
                estimate=count / n if n else np.nan, ci_low=float(low), ci_high=float(high),
                exact=float(exact) if exact is not None else np.nan)


def _mean(section: str, event: str, who: str, hist, exact=None) -> dict:
    n, total, total_sq = histogram_moments(hist)
    mean, low, high = mean_interval(total, total_sq, n) if n else (np.nan, np.nan, np.nan)
    return dict(section=section, event=event, who=who, count=np.nan, n=n, estimate=mean, ci_low=low,
                ci_high=high, exact=float(exact) if exact is not None else np.nan)


def _table(rows: list[dict]) -> pd.DataFrame:
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def declaration_table(counters: dict[str, np.ndarray], rules: dict, with_exact: bool = True) -> pd.DataFrame:
    """Declaration odds per hand, per partnership and per table, beside the exact values.

    Hand rows pool the four hands of every deal (n = 4 x deals). The hands of one deal are not
    independent, so the intervals use the deals' variance: for a rank's three or four and a
    suit's baba at most one hand of a deal has the event (its squared number of hands is the
    number); for the rest the kernel counts the squares (runs stored before 0.8.11 lack them
    and show the Wilson interval of independent hands)."""
    deals = int(counters["deals"][0])
    clustered = "declared_sq" in counters
    hands = SEATS * deals
    exact = exact_probabilities() if with_exact else {}
    summary = exact_declaration_summary(rules) if with_exact else {}
    rc, ext = counters["rank_count"], counters["baba_ext"]
    rows = []

    def one_hand_a_deal(event, count, exact_value):       # 0 or 1 hands a deal: x^2 = x
        return _rate("hand", event, "any hand", count, hands, exact_value, sum_sq=int(count), deals=deals)

    for r, rank in enumerate(SEMERIK40.ranks):
        name = RANK_NAMES[rank]
        rows.append(one_hand_a_deal(f">= 3 {name}", rc[r, 3:].sum(), exact.get("three or four of a given rank")))
        rows.append(one_hand_a_deal(f"exactly 3 {name}", rc[r, 3], exact.get("exactly three of a given rank")))
        rows.append(one_hand_a_deal(f"4 {name}", rc[r, 4], exact.get("four of a given rank")))
    for s, suit in enumerate(SUIT_CHARS):
        rows.append(one_hand_a_deal(f"baba in {SUIT_NAMES[suit]}", ext[s].sum(), exact.get("baba in a given suit")))
        for level, label in ((1, "3-2-A-K"), (2, "3-2-A-K-Q"), (3, "3-2-A-K-Q-J")):
            rows.append(one_hand_a_deal(f"{label} in {SUIT_NAMES[suit]}", ext[s, level:].sum(),
                                        exact.get(f"{label} of a given suit")))
    rows.append(_rate("hand", "baba in some suit", "any hand", counters["any_baba"][0], hands,
                      exact.get("baba in some suit"), sum_sq=counters["any_baba_sq"][0] if clustered else None,
                      deals=deals))
    pooled = counters["points_hist"].sum(axis=0)
    rows.append(_rate("hand", "at least one declaration", "any hand", pooled[1:].sum(), hands,
                      summary.get("at least one declaration"), sum_sq=counters["declared_sq"][0] if clustered else None,
                      deals=deals))
    pooled_mean = _mean("hand", "mean declaration points", "any hand", pooled, summary.get("mean declaration points"))
    if clustered:    # the mean of a hand is the mean of a deal's points over four
        _, low, high = mean_interval(histogram_moments(pooled)[1], int(counters["deal_points_sq"][0]), deals)
        pooled_mean.update(ci_low=low / SEATS, ci_high=high / SEATS)
    rows.append(pooled_mean)
    for seat in range(SEATS):
        rows.append(_mean("hand", "mean declaration points", f"seat {seat}", counters["points_hist"][seat],
                          summary.get("mean declaration points")))
    for p, name in enumerate(PARTNERSHIPS):
        rows.append(_rate("partnership", "holds a baba", name, counters["side_baba"][p], deals,
                          exact.get("a given partnership holds a baba")))
        rows.append(_rate("partnership", "at least one declaration", name, counters["side_hist"][p, 1:].sum(), deals))
        rows.append(_mean("partnership", "mean declaration points", name, counters["side_hist"][p],
                          2 * summary["mean declaration points"] if summary else None))
    rows.append(_rate("table", "some player holds >= 3 sevens", "table", counters["table_sevens"][0], deals,
                      exact.get("some player holds >= 3 sevens")))
    rows.append(_rate("table", "some player holds the heart baba", "table", counters["table_heart_baba"][0], deals,
                      exact.get("some player holds the heart baba")))
    rows.append(_rate("table", "some player holds a baba", "table", counters["table_baba"][0], deals,
                      exact.get("some player holds a baba")))
    return _table(rows)


def declaration_distribution(counters: dict[str, np.ndarray], rules: dict, with_exact: bool = True) -> pd.DataFrame:
    """One hand's declaration points: estimated probability of each value beside the exact one."""
    pooled = counters["points_hist"].sum(axis=0)
    n = int(pooled.sum())
    exact = exact_declaration_counts(rules) if with_exact else None
    top = max(int(np.nonzero(pooled)[0].max()) if n else 0,
              int(np.nonzero(exact)[0].max()) if exact is not None else 0) + 1
    # the four hands of a deal are not independent: the interval of each value uses the deals'
    # squared numbers of hands with it (not in runs stored before 0.8.11)
    clustered = "points_sq" in counters
    rows = [_rate("hand", "declaration points", str(v), pooled[v], n,
                  Fraction(int(exact[v]), _ALL_HANDS) if exact is not None else None,
                  sum_sq=counters["points_sq"][v] if clustered else None, deals=int(counters["deals"][0]))
            for v in range(top)]
    table = _table(rows).rename(columns={"who": "points"})
    return table.drop(columns=["section", "event"])


def _labels(strategies: dict | None) -> dict[str, str]:
    strategies = strategies or {}
    return {name: f"{name} ({strategies.get('play_' + name.lower(), PLAY_STRATEGIES[0])})" for name in PARTNERSHIPS}


def _declaration_share(counters: dict) -> dict:
    """Declaration points over all points of the deals, with the interval of a ratio of per-deal
    sums where the run kept their moments (runs stored before 0.8.11: the histograms' sums only),
    kept inside [0, 1] (a share of points)."""
    if "points_moments" in counters:
        d, t, dd, tt, dt = (int(v) for v in counters["points_moments"])
        if d + t:
            share, low, high = ratio_interval(d, d + t, dd, dd + 2 * dt + tt, dd + dt, int(counters["deals"][0]),
                                              bounds=(0.0, 1.0))
            return dict(estimate=share, ci_low=low, ci_high=high)
    decl = sum(histogram_moments(counters["decl_hist"][r])[1] for r in range(2))
    tricks = sum(histogram_moments(counters["trick_points_hist"][r])[1] for r in range(2))
    return dict(estimate=decl / (decl + tricks) if decl + tricks else np.nan, ci_low=np.nan, ci_high=np.nan)


def deal_table(counters: dict[str, np.ndarray], strategies: dict | None = None) -> pd.DataFrame:
    """Deal statistics by role (leading / dealing partnership) and by partnership (A / B)."""
    n = int(counters["deals"][0])
    rows = []
    for role, name in enumerate(ROLES):
        rows.append(_mean("points", "mean deal points", name, counters["points_hist"][role]))
        rows.append(_mean("points", "mean declaration points", name, counters["decl_hist"][role]))
        rows.append(_mean("points", "mean trick points", name, counters["trick_points_hist"][role]))
        rows.append(_mean("points", "mean tricks won", name, counters["tricks_hist"][role]))
        rows.append(_mean("points", "mean honours won", name, counters["honours_hist"][role]))
        rows.append(_rate("points", "capot", name, counters["capot"][role], n))
    rows.append(_rate("outcome", "scores more in the deal", "leading", counters["outcome"][0], n))
    rows.append(_rate("outcome", "scores more in the deal", "dealing", counters["outcome"][1], n))
    rows.append(_rate("outcome", "equal deal points", "both", counters["outcome"][2], n))
    label = _labels(strategies)
    for p, name in enumerate(PARTNERSHIPS):
        rows.append(_mean("partnership", "mean deal points", label[name], counters["side_points_hist"][p]))
        rows.append(_rate("partnership", "scores more in the deal", label[name], counters["side_outcome"][p], n))
    rows.append(dict(section="points", event="share of points from declarations", who="both", count=np.nan, n=n,
                     **_declaration_share(counters), exact=np.nan))
    return _table(rows)


def games_table(counters: dict[str, np.ndarray], rules: dict, strategies: dict | None = None) -> pd.DataFrame:
    n = int(counters["games"][0])
    rows = []
    label = _labels(strategies)
    for p, name in enumerate(PARTNERSHIPS):
        rows.append(_rate("winner", "wins the game", label[name], counters["wins"][p], n))
        rows.append(_rate("winner", "wins double", label[name], counters["double_wins"][p], n))
    for role, name in enumerate(("led first", "dealt first")):
        rows.append(_rate("seat", "wins the game", f"partnership that {name}", counters["role_wins"][role], n))
    rows.append(_rate("value", "game won double (losers < %d)" % rules["double_below"], "either",
                      counters["double_wins"].sum(), n))
    if rules["check_after_declarations"]:
        rows.append(_rate("length", "ended on declarations", "either", counters["ended_on_declarations"][0], n))
    rows.append(_mean("length", "mean deals per game", "either", counters["length_hist"]))
    for k in (2, 3, 4, 5, 6, 8):
        rows.append(_rate("length", f"game over within {k} deals", "either", counters["length_hist"][:k + 1].sum(), n))
    rows.append(_mean("score", "mean final score", "winners", counters["winner_score_hist"]))
    rows.append(_mean("score", "mean final score", "losers", counters["loser_score_hist"]))
    return _table(rows)


# ---------------------------------------------------------------------------------------------
# Single-deal API

def _hand(cards: Cards, what: str = "hand") -> list[str]:
    return SEMERIK40.parse(cards, HAND_SIZE, what)


@dataclass(frozen=True)
class HandDeclarations:
    hand: tuple[str, ...]
    points: int
    babas: tuple[str, ...]          # e.g. "heart baba+K = 8"
    sets: tuple[str, ...]           # e.g. "three 3s = 4"
    shown: tuple[str, ...]          # the cards the declarations show

    def explain(self) -> str:
        parts = list(self.babas) + list(self.sets)
        return f"{' '.join(self.hand)}: {'; '.join(parts) if parts else 'no declaration'} -> {self.points}"


def _set_value(rank: str, n: int, with_baba: bool, options: dict) -> int:
    if rank == "7":
        return 4
    if rank in "32A":
        return (4 if with_baba else 3) + (1 if options["four_of_kind_bonus"] and n == 4 else 0)
    return 1


def score_hand(hand: Cards, rules: str = "default", **overrides) -> HandDeclarations:
    """Declaration points of one 10-card hand, with the breakdown a player would announce."""
    options = GAME.resolve_rules(rules, overrides)
    cards = _hand(hand)
    mask = SEMERIK40.mask(cards)
    found = core.declaration_breakdown(mask, options)
    babas, used = [], {c: 0 for c in cards}
    for suit, ext, value in found["babas"]:
        s = SUIT_CHARS[suit]
        babas.append(f"{SUIT_NAMES[s][:-1]} baba{EXTENSIONS[ext]} = {value}")
        for rank in "32AKQJ"[:3 + ext]:
            used[rank + s] += 1
    sets = []
    for rank in "32AKQJ7654":
        held = [c for c in cards if c[0] == rank]
        free = [c for c in held if not used[c]] if options["overlap"] == "disallowed" else held
        if len(free) >= 3:
            word = "four" if len(free) == 4 else "three"
            sets.append(f"{word} {RANK_NAMES[rank]} = {_set_value(rank, len(free), bool(babas), options)}")
    return HandDeclarations(tuple(SEMERIK40.from_mask(mask)), found["points"], tuple(babas), tuple(sets),
                            tuple(SEMERIK40.from_mask(found["shown"])))


@dataclass(frozen=True)
class TrickResult:
    cards: tuple[str, ...]
    winner: int                     # position in the trick (0 = the lead)
    honours: int
    points: int                     # per-trick count: 3 honours 1, 4 honours 2


def score_trick(cards: Cards, rules: str = "default", **overrides) -> TrickResult:
    """Winner, honours and points of one trick (four cards, the lead first). Following suit is not
    checked here (the hands are unknown); see replay_deal for full legality."""
    options = GAME.resolve_rules(rules, overrides)
    played = SEMERIK40.parse(cards, 4, "trick")
    winner, honours, points = core.score_trick([SEMERIK40.bit(c) for c in played], options)
    return TrickResult(tuple(played), winner, honours, points)


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[str, ...]          # in order of play
    winner: int                     # seat
    honours: int


@dataclass(frozen=True)
class DealResult:
    options: dict
    strategies: dict                # play_a, play_b
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    declarations: tuple[HandDeclarations, ...]
    tricks: tuple[Trick, ...]
    trick_points: tuple[int, int]   # partnerships A, B (honour points, capot, last trick)
    totals: tuple[int, int]         # declarations + trick points

    def explain(self) -> str:
        return explain_deal(self)


def _check_dealer(dealer) -> int:
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < SEATS:
        raise ValueError(f"the dealer must be a seat 0..3, got {dealer!r}")
    return int(dealer)


def _deal_hands(hands: Sequence[Cards]) -> list[list[str]]:
    if isinstance(hands, str) or len(hands) != SEATS:
        raise ValueError("a deal needs four hands (seats 0..3), each of 10 cards")
    parsed = [_hand(h, f"seat {s} hand") for s, h in enumerate(hands)]
    check_disjoint(parsed, [f"seat {s}" for s in range(SEATS)])
    return parsed


def _result_from_row(row: np.ndarray, options: dict, rules: str, strategies: dict) -> DealResult:
    layout = core.DEAL_ROW
    hands = [SEMERIK40.from_mask(int(row[layout["hands"] + s])) for s in range(SEATS)]
    decl = tuple(score_hand(h, rules, **_overrides(rules, options)) for h in hands)
    dealer = int(row[layout["dealer"]])
    step = 1 if options["direction"] == "clockwise" else 3
    plays = [SEMERIK40.card(int(b)) for b in row[layout["plays"]:layout["plays"] + 40]]
    winners = [int(w) for w in row[layout["winners"]:layout["winners"] + 10]]
    tricks, leader = [], (dealer + step) % SEATS
    for i in range(10):
        cards = tuple(plays[4 * i:4 * i + 4])
        honours = sum(c[0] in "32AKQJ" for c in cards)
        tricks.append(Trick(leader, cards, winners[i], honours))
        leader = winners[i]
    tp = layout["trick_points"]
    tt = layout["total"]
    return DealResult(options, strategies, dealer, tuple(tuple(h) for h in hands), decl, tuple(tricks),
                      (int(row[tp]), int(row[tp + 1])), (int(row[tt]), int(row[tt + 1])))


def _overrides(rules: str, options: dict) -> dict:
    return {k: v for k, v in options.items() if PRESETS[rules][k] != v}


def play_deal(hands: Sequence[Cards], dealer: int = 3, rules: str = "default", seed: int = 0,
              play_a: str = "greedy", play_b: str = "greedy", **overrides) -> DealResult:
    """Play one given deal (four 10-card hands, seats 0..3) with a strategy per partnership
    (A = seats 0 and 2, B = seats 1 and 3); ``seed`` feeds the random and PIMC strategies."""
    options = GAME.resolve_rules(rules, overrides)
    strategies = GAME.analysis("deals").resolve_strategies({"play_a": play_a, "play_b": play_b})
    parsed = _deal_hands(hands)
    masks = np.array([[SEMERIK40.mask(h) for h in parsed]], dtype=np.uint64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"the seed must be a non-negative integer, got {seed!r}")
    row = core.play_deals(masks, np.array([_check_dealer(dealer)]), kernel_spec(options, strategies),
                          np.random.PCG64(np.random.SeedSequence(int(seed))))[0]
    return _result_from_row(row, options, rules, strategies)


def replay_deal(hands: Sequence[Cards], plays: Cards, dealer: int = 3, rules: str = "default",
                **overrides) -> DealResult:
    """Score a deal played with the given 40 cards in order of play; an illegal card raises
    ValueError naming the card, the seat and the rule it breaks."""
    options = GAME.resolve_rules(rules, overrides)
    parsed = _deal_hands(hands)
    dealer = _check_dealer(dealer)
    cards = SEMERIK40.parse(plays, None, "play sequence")
    if len(cards) != 40:
        raise ValueError(f"a deal is 40 cards played, got {len(cards)}")
    masks = [SEMERIK40.mask(h) for h in parsed]
    row, bad = core.replay_deal(masks, dealer, [SEMERIK40.bit(c) for c in cards], options)
    if bad >= 0:
        raise ValueError(_illegal(parsed, cards, bad, dealer, options))
    return _result_from_row(row, options, rules, {"play_a": "given", "play_b": "given"})


def _illegal(hands: list[list[str]], cards: list[str], bad: int, dealer: int, options: dict) -> str:
    """Say why cards[bad] cannot be played (re-walking the legal prefix in plain Python)."""
    step = 1 if options["direction"] == "clockwise" else 3
    held = [set(h) for h in hands]
    seat = (dealer + step) % SEATS
    trick: list[tuple[int, str]] = []
    for card in cards[:bad]:
        held[seat].discard(card)
        trick.append((seat, card))
        if len(trick) == 4:
            seat = _trick_winner(trick)
            trick = []
        else:
            seat = (seat + step) % SEATS
    card = cards[bad]
    where = f"card {bad + 1} ({card!r}, seat {seat}, trick {bad // 4 + 1})"
    if card not in held[seat]:
        return f"illegal play: {where} is not in seat {seat}'s hand"
    led = trick[0][1][1]
    follow = sorted((c for c in held[seat] if c[1] == led), key=lambda c: -SEMERIK40.ranks.index(c[0]))
    return f"illegal play: {where} does not follow {SUIT_NAMES[led]} although seat {seat} holds {' '.join(follow)}"


def _trick_winner(trick: list[tuple[int, str]]) -> int:
    order = SEMERIK40.ranks
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card[1] == best[1] and order.index(card[0]) > order.index(best[0])) or (card[1] == "H" != best[1]):
            best_seat, best = seat, card
    return best_seat


@dataclass(frozen=True)
class GameResult:
    winner: str | None              # "A", "B" or None (play on)
    value: int                      # 21 single, 42 double, 0 while playing on


def game_result(score_a: int, score_b: int, rules: str = "default", **overrides) -> GameResult:
    """The check made at the end of a deal on the running totals of partnerships A and B."""
    options = GAME.resolve_rules(rules, overrides)
    for name, v in (("score_a", score_a), ("score_b", score_b)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < 10_000:
            raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    winner, value = core.game_status(int(score_a), int(score_b), options)
    if winner < 0:
        return GameResult(None, 0)
    return GameResult(PARTNERSHIPS[winner], 21 * value)


def explain_deal(result: DealResult) -> str:
    o = result.options
    lines = [f"Semerik deal, dealer seat {result.dealer}; play A={result.strategies['play_a']} "
             f"B={result.strategies['play_b']}; hearts trumps", ""]
    for s, d in enumerate(result.declarations):
        lines.append(f"seat {s} ({PARTNERSHIPS[s % 2]}): {d.explain()}")
    lines.append("")
    for i, t in enumerate(result.tricks, 1):
        seats = [(t.leader + k * (1 if o['direction'] == 'clockwise' else 3)) % SEATS for k in range(4)]
        shown = "  ".join(f"{s}:{c}" for s, c in zip(seats, t.cards))
        honours = f"{t.honours} honour{'' if t.honours == 1 else 's'}"
        lines.append(f"trick {i:2d}: {shown}   -> seat {t.winner} ({PARTNERSHIPS[t.winner % 2]}), {honours}")
    decl = [result.declarations[0].points + result.declarations[2].points,
            result.declarations[1].points + result.declarations[3].points]
    lines += ["", f"A: declarations {decl[0]} + tricks {result.trick_points[0]} = {result.totals[0]}",
              f"B: declarations {decl[1]} + tricks {result.trick_points[1]} = {result.totals[1]}"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DECL_DEALS = 4_000_000
REPORT_PLAY_DEALS = 1_000_000
REPORT_PIMC_DEALS = 20_000
REPORT_GAMES = 200_000


def shard_size_for(analysis: str, strategies: dict | None = None) -> int:
    """Shards of about a second: PIMC plays ~1,000 deals/s per core, a game is ~4 deals, a compare
    deal is played twice. Multiples of 4, so the dealer rotation is complete in every shard."""
    plays = 2 if analysis == "compare" else 1
    if "pimc" in (strategies or {}).values():
        return 1_000 // plays
    return 20_000 if analysis == "games" else 200_000 // plays


def _run(ctx, analysis: str, rules: str, deals: int, overrides: dict | None = None, strategies: dict | None = None):
    return ctx.run("semerik", analysis, rules, deals, overrides, strategies,
                   shard_size=shard_size_for(analysis, strategies))


def deal_points_distribution(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """P(a partnership scores k points in a deal), for the leading and the dealing partnership."""
    hist = counters["points_hist"]
    n = int(counters["deals"][0])
    top = int(np.nonzero(hist.sum(axis=0))[0].max()) + 1
    rows = []
    for k in range(top):
        row = {"points": k, "n": n}
        for role, name in enumerate(ROLES):
            low, high = wilson(hist[role, k], n)
            row.update({f"{name}": hist[role, k] / n, f"{name}_ci_low": float(low), f"{name}_ci_high": float(high)})
        rows.append(row)
    return pd.DataFrame(rows)


def build_report(ctx) -> list:
    from ..report import Section, rate_bars
    import matplotlib.pyplot as plt

    sections = []
    decl = _run(ctx, "declarations", "default", REPORT_DECL_DEALS)
    options = decl.config.rule_options
    odds = declaration_table(decl.counters, options)
    dist = declaration_distribution(decl.counters, options)
    section = Section(
        "Semerik: declarations",
        "Declaration points of the four dealt hands under the default rules (heart baba +2, four of a "
        "kind as three, cards may serve in several declarations). Hand rows pool the four hands of each "
        "deal, and their intervals allow for the hands of a deal not being independent (the variance "
        "between deals); `exact` is computed in code (combinatorics for the events, an enumeration of "
        "every hand for the distribution) and agrees with rules/semerik.md §9.",
        tables=[("Declaration odds per hand, partnership and table", odds),
                ("Distribution of one hand's declaration points", dist)])
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(dist["points"].astype(int), dist["estimate"], color="tab:blue", alpha=0.6, label="simulated")
    ax.plot(dist["points"].astype(int), dist["exact"], "k.", label="exact")
    ax.set_yscale("log")
    ax.set_xlabel("declaration points of one hand")
    ax.set_ylabel("probability")
    ax.legend()
    section.figures.append(("One hand's declaration points: simulated against exact.", fig))
    rates = odds[odds["count"].notna() & ~(odds.event.str.startswith(("exactly", "4 ", "3-2-", "baba in ")) & (odds.section == "hand"))]
    rates = rates.assign(label=rates.section + ": " + rates.event + " (" + rates.who + ")")
    section.figures.append(("Declaration odds by hand, partnership and table with 95% intervals, exact values in red.",
                            rate_bars(rates, "label")))
    sections.append(section)

    matchups = [("greedy", "greedy"), ("random", "random"), ("greedy", "random")]
    deal_results = {}
    tables = []
    for a, b in matchups:
        res = _run(ctx, "deals", "default", REPORT_PLAY_DEALS, strategies=dict(play_a=a, play_b=b))
        deal_results[(a, b)] = res
        tables.append((f"Deals, A {a} vs B {b}", deal_table(res.counters, res.config.strategy_names)))
    pimc = _run(ctx, "deals", "default", REPORT_PIMC_DEALS, strategies=dict(play_a="pimc"))
    tables.append(("Deals, A pimc vs B greedy", deal_table(pimc.counters, pimc.config.strategy_names)))
    ruff_rows = []
    for threshold in (0, 2, 4):
        res = _run(ctx, "deals", "default", REPORT_PLAY_DEALS // 2, dict(ruff_min_honours=threshold))
        t = deal_table(res.counters, res.config.strategy_names)
        for event in ("mean trick points", "capot"):
            for _, row in t[t.event == event].iterrows():
                ruff_rows.append(dict(ruff_when_trick_holds=f">= {threshold} honours" if threshold < 4 else "never",
                                      **row.drop("section").to_dict()))
    tables.append(("Greedy ruffing policy (both partnerships)", pd.DataFrame(ruff_rows)))
    tables.append(("Distribution of deal points, greedy vs greedy",
                   deal_points_distribution(deal_results[("greedy", "greedy")].counters)))
    section = Section(
        "Semerik: deals played out",
        "Each deal is dealt, declared and played to ten tricks; the dealer rotates. The leading "
        "partnership is the one on the dealer's left (it leads to the first trick). Greedy: masters "
        "first, cheapest winning card, partner's tricks filled with honours when that makes a point, "
        "ruff when void. PIMC samples worlds consistent with what the player has seen (own hand, shown "
        "declarations, played cards, voids) and plays each legal card out greedily.",
        tables=tables)
    fig, ax = plt.subplots(figsize=(8, 4))
    for (a, b), res in deal_results.items():
        hist = res.counters["side_points_hist"][0]
        n = hist.sum()
        top = int(np.nonzero(hist)[0].max()) + 1
        ax.step(np.arange(top), hist[:top] / n, where="mid", label=f"A {a} vs B {b}")
    ax.set_xlabel("deal points of partnership A (declarations + tricks)")
    ax.set_ylabel("probability")
    ax.set_yscale("log")
    ax.legend()
    section.figures.append(("Distribution of a partnership's deal points.", fig))
    sections.append(section)

    game_tables, lengths = [], {}
    for a, b in (("greedy", "greedy"), ("greedy", "random")):
        res = _run(ctx, "games", "default", REPORT_GAMES, strategies=dict(play_a=a, play_b=b))
        game_tables.append((f"Games to 21, A {a} vs B {b}",
                            games_table(res.counters, res.config.rule_options, res.config.strategy_names)))
        lengths[(a, b)] = res.counters["length_hist"]
    res = _run(ctx, "games", "tressette", REPORT_GAMES)
    game_tables.append(("Games to 21, tressette preset, greedy", games_table(res.counters, res.config.rule_options)))
    lengths[("tressette", "")] = res.counters["length_hist"]
    section = Section(
        "Semerik: games to 21",
        "A game is played deal after deal until a partnership reaches 21 (checked at the end of each "
        "deal); the win counts double when the losers have fewer than 11. The first dealer rotates from "
        "game to game; 'led first' is the partnership that led to the game's first trick.",
        tables=game_tables)
    fig, ax = plt.subplots(figsize=(8, 4))
    for (a, b), hist in lengths.items():
        top = int(np.nonzero(hist)[0].max()) + 1
        ax.plot(np.arange(top), hist[:top] / hist.sum(), marker="o", label=f"{a} vs {b}" if b else a)
    ax.set_xlabel("deals in the game")
    ax.set_ylabel("share of games")
    ax.legend()
    section.figures.append(("Game length.", fig))
    wins = pd.concat([table[(table.section == "winner") & table.who.str.startswith("A")].assign(label=lambda t, n=name: n.removeprefix("Games to 21, ") + ": " + t.event)
                      for name, table in game_tables])
    section.figures.append(("Partnership A's game and double-game rates by strategy pairing (95% intervals).",
                            rate_bars(wins, "label")))
    sections.append(section)
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr semerik odds | deals | games | explain | play

def register_cli(sub) -> None:
    from .. import cli

    odds = sub.add_parser("odds", help="declaration odds of the dealt hands against the exact values")
    cli.add_run_options(odds, "semerik", default_deals=1_000_000)
    odds.add_argument("--distribution", action="store_true", help="print the distribution of a hand's points")
    odds.set_defaults(handler=_cmd_odds)

    for name, analysis, default, help_text in (
            ("deals", "deals", 200_000, "play deals out: points, capot, leading vs dealing partnership"),
            ("games", "games", 20_000, "play games to 21: length, double wins, winners")):
        p = sub.add_parser(name, help=help_text)
        cli.add_run_options(p, "semerik", default_deals=default, analysis=analysis)
        p.add_argument("--a", dest="play_a", choices=PLAY_STRATEGIES,
                       help="card play of partnership A, seats 0 and 2 (default greedy; the role play_a)")
        p.add_argument("--b", dest="play_b", choices=PLAY_STRATEGIES,
                       help="card play of partnership B, seats 1 and 3 (default greedy; the role play_b)")
        p.set_defaults(handler=_cmd_play_run, analysis=analysis)

    explain = sub.add_parser("explain", help="declarations of one 10-card hand")
    explain.add_argument("hand", help='10 cards, e.g. "3S 2S AS KS 3H 3D 6C 5C 4C 7D"')
    explain.add_argument("--rules", default="default", choices=list(PRESETS))
    cli.add_set_option(explain)
    explain.set_defaults(handler=_cmd_explain)

    play = sub.add_parser("play", help="play one given deal and print it trick by trick")
    play.add_argument("--hands", nargs=4, required=True, metavar="HAND", help="four hands of 10 cards, seats 0..3")
    play.add_argument("--dealer", type=int, default=3, help="dealer seat (default 3: seat 0 leads)")
    play.add_argument("--seed", type=cli.seed, default=0, help="seed of the random / PIMC strategies")
    play.add_argument("--a", dest="play_a", choices=PLAY_STRATEGIES, default=PLAY_STRATEGIES[0],
                      help="card play of partnership A (default greedy)")
    play.add_argument("--b", dest="play_b", choices=PLAY_STRATEGIES, default=PLAY_STRATEGIES[0],
                      help="card play of partnership B (default greedy)")
    play.add_argument("--rules", default="default", choices=list(PRESETS))
    cli.add_set_option(play)
    play.add_argument("--json", action="store_true")
    play.set_defaults(handler=_cmd_play)


def _cmd_odds(args) -> int:
    from .. import cli

    # --distribution prints the analysis's second table instead of its first
    return cli.emit_summary(args, cli.execute(args, "semerik", "declarations"), 1 if args.distribution else 0)


def _cmd_play_run(args) -> int:
    from .. import cli
    from ..runner import RunConfig

    strategies = dict(getattr(args, "strategies", None) or [])
    strategies.update({role: getattr(args, role) for role in STRATEGIES if getattr(args, role)})
    config = RunConfig(game="semerik", analysis=args.analysis, rules=args.rules, overrides=dict(args.overrides),
                       deals=args.deals, seed=args.seed,
                       shard_size=args.shard_size or shard_size_for(args.analysis, strategies), strategies=strategies)
    return cli.emit_summary(args, cli.execute_config(args, config))


def _cmd_explain(args) -> int:
    print(score_hand(args.hand, args.rules, **dict(args.overrides)).explain())
    return 0


def _cmd_play(args) -> int:
    import json
    from dataclasses import asdict

    result = play_deal(args.hands, args.dealer, args.rules, args.seed, args.play_a, args.play_b,
                       **dict(args.overrides))
    print(json.dumps(asdict(result), indent=2) if args.json else result.explain())
    return 0
