"""Two-handed klabor (klaberjass), shared/rules/klabor.md: rule options (the defaults of §8 and
the alternatives), strategies, the analyses (sequence and bella odds against the exact values of
§10, single deals, bidding thresholds, games to 501), the single-deal API and the report.

Card play is chosen per player through the analyses' strategy roles ``play_a`` and ``play_b``
(greedy | pimc | random). Player A is the elder of single deals, the hero of the thresholds
analysis and the first deal's elder in games. The numeric strategy settings are options:
``threshold`` (bidding strength both players need to take or name a trump), ``pimc_samples`` and
``opponent_threshold`` (player B's threshold in the thresholds analysis).

``kozyr compare klabor --strategies greedy pimc random@60`` compares strategies labelled
"PLAY[@THRESHOLD]" on duplicate deals, each playing both seats of every deal (see
compare_strategies).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import klabor as core
from ..cards import SUIT_CHARS, Cards, Deck, check_disjoint, longest_run, parse_card
from ..stats import (clustered_wilson, design_effect, histogram_moments, histogram_quantile, mean_interval,
                     mean_interval_if_counted, pair_sum_sq, wilson)
from . import Analysis, Game

# The 32-card pack in natural order 7 8 9 T J Q K A inside a lane (the kernel's layout; the
# trick order of klabor is the kernel's business)
DECK = Deck("32-card klabor", "789TJQKA", 8)
SEATS = ("elder", "dealer")
ROUNDS = ("turned", "named")

DEFAULTS: dict[str, Any] = dict(
    must_head_trump=True,       # §8 #1
    tie="bait",                 # §8 #2
    seq_tie="none",             # §8 #3
    long_runs="50",             # §8 #4
    dix_swap="always",          # §8 #5 (the swap is optional; strategies always take it)
    dix_value=0,                # §8 #5
    schmeiss=False,             # §8 #6
    next_dealer="alternate",    # §8 #7
    bella_policy="always",      # §8 #8
    no_trick_no_melds=False,    # §6 variant
    show_bottom_card=True,      # §3: information only (pimc treats it as a known card)
    target=501,                 # §7
    threshold=50,
    pimc_samples=12,
    opponent_threshold=50,
)
PRESETS: dict[str, dict[str, Any]] = {
    "standard": dict(DEFAULTS),
    "seed_literal": dict(DEFAULTS, must_head_trump=False),   # the seed names no heading duty
}
_CHOICES = {
    "tie": ("bait", "half", "carry"),
    "seq_tie": ("none", "elder"),
    "long_runs": ("50", "split"),
    "dix_swap": ("always", "never"),
    "next_dealer": ("alternate", "winner", "loser"),
    "bella_policy": ("always", "strategic"),
}
STRATEGIES = {"play_a": core.PLAY_STRATEGIES, "play_b": core.PLAY_STRATEGIES}
_BOOLS = ("must_head_trump", "schmeiss", "no_trick_no_melds", "show_bottom_card")
_LIMITS = {"target": (1, 5000), "threshold": (0, 200), "opponent_threshold": (0, 200), "pimc_samples": (1, 500)}
_DIX_VALUES = (0, 10)


def validate_option(key: str, value: Any) -> Any:
    """Check one option (accepts the string forms the CLI passes)."""
    return parsing.parse("klabor", key, value, choices={**_CHOICES, "dix_value": _DIX_VALUES}, flags=_BOOLS,
                         limits=_LIMITS)


# ---------------------------------------------------------------------------------------------
# Analyses

def kernel_spec(rules: dict, strategies: dict | None = None) -> dict:
    """What the compiled kernels read: the rule options and both players' card play."""
    chosen = {role: names[0] for role, names in STRATEGIES.items()}
    for role, name in (strategies or {}).items():
        if role not in STRATEGIES:
            raise ValueError(f"klabor has no strategy role {role!r}; roles: {', '.join(STRATEGIES)}")
        if name not in STRATEGIES[role]:
            raise ValueError(f"unknown {role} strategy {name!r}; choose one of {', '.join(STRATEGIES[role])}")
        chosen[role] = name
    return dict(rules, **chosen)


# The compare analysis names strategies A and B (not seats): each plays both seats of every deal.
# A bidding threshold "rules" means the rule option `threshold`.
THRESHOLD_NAMES = ("rules",) + tuple(str(t) for t in range(_LIMITS["threshold"][0], _LIMITS["threshold"][1] + 1))
COMPARE_STRATEGIES = {"play_a": core.PLAY_STRATEGIES, "threshold_a": THRESHOLD_NAMES,
                      "play_b": core.PLAY_STRATEGIES, "threshold_b": THRESHOLD_NAMES}
COMPARE_SHARD = 100_000          # duplicate deals per shard (each played twice)
COMPARE_PIMC_SHARD = 500         # with pimc: about 40-100 duplicate deals/s per core


def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    spec = kernel_spec(rules, {"play_a": strategies["play_a"], "play_b": strategies["play_b"]})
    for side in ("a", "b"):
        threshold = strategies[f"threshold_{side}"]
        spec[f"threshold_{side}"] = rules["threshold"] if threshold == "rules" else int(threshold)
    return core.compare_shard(bit_generators, n_deals, spec)


GAME = Game(
    name="klabor",
    title="Klabor (klaberjass, two-handed)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        "odds": Analysis("odds", "Sequences and bella in the dealt 6- and 9-card hands (§10)",
                         lambda g, n, rules: core.odds_shard(g, n, rules),
                         summary=lambda counters, rules, strategies: [("odds", odds_table(counters))]),
        "deals": Analysis("deals", "Single deals played out: bidding, baits, points per deal",
                          lambda g, n, rules, s: core.deals_shard(g, n, kernel_spec(rules, s)),
                          streams=2, strategies=STRATEGIES,
                          summary=lambda counters, rules, strategies: [("deals", deals_table(counters))]),
        "thresholds": Analysis("thresholds", "Bidding thresholds of player A on duplicate deals against player B",
                               lambda g, n, rules, s: core.thresholds_shard(g, n, kernel_spec(rules, s)),
                               streams=2, strategies=STRATEGIES, summary=lambda counters, rules, strategies: [
                                   ("bidding thresholds", thresholds_table(counters, rules))]),
        "games": Analysis("games", "Whole games to the target (one 'deal' of the run = one game)",
                          lambda g, n, rules, s: core.games_shard(g, n, kernel_spec(rules, s)),
                          streams=2, strategies=STRATEGIES,
                          summary=lambda counters, rules, strategies: [("games", games_table(counters))],
                          unit="games"),
        "compare": Analysis("compare", "Duplicate deals: strategies A and B each play both seats of every deal; "
                            "A's minus B's deal scores (bait included)", _compare_kernel, streams=3,
                            strategies=COMPARE_STRATEGIES),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: compare_shard_size(strategies),
)


def parse_label(label: str) -> tuple[str, str]:
    """A strategy label of `kozyr compare klabor`: "PLAY" or "PLAY@THRESHOLD", e.g. "greedy",
    "pimc@60". PLAY is the card play (greedy, pimc, random); THRESHOLD the bidding strength the
    strategy needs to take or name a trump (an integer 0..200); without it the rule option
    `threshold` applies (default 50). Returns (play, threshold name)."""
    play, at, threshold = str(label).strip().partition("@")
    threshold = str(int(threshold)) if threshold.isascii() and threshold.isdigit() else threshold     # "060" is 60
    if at and threshold not in THRESHOLD_NAMES[1:]:
        low, high = _LIMITS["threshold"]
        raise ValueError(f"bad bidding threshold in klabor strategy {label!r}: write PLAY@THRESHOLD with THRESHOLD "
                         f"an integer from {low} to {high} (e.g. greedy@60)")
    if play not in core.PLAY_STRATEGIES:
        raise ValueError(f"unknown klabor strategy {label!r}: write PLAY or PLAY@THRESHOLD with PLAY one of "
                         f"{', '.join(core.PLAY_STRATEGIES)} and THRESHOLD a bidding threshold (e.g. greedy@60)")
    return play, threshold if at else "rules"


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two strategy labels (see parse_label).

    Every deal is dealt once (stream 0, as in the deals analysis) and played twice: A as elder
    against B as dealer, then B as elder against A as dealer, so each strategy plays both seats
    of every deal. A strategy's per-deal result is its deal score in game-score points — the
    bait included (a baited maker scores 0 and his opponent both totals), a void deal 0 — summed
    over its two seats; the compared difference is A's minus B's. Under tie=carry the points
    held over to a next deal are counted for neither. A draws its random plays (pimc samples,
    random cards) from stream 1 and B from stream 2 in both seats."""
    (play_a, threshold_a), (play_b, threshold_b) = parse_label(a), parse_label(b)
    return {"play_a": play_a, "threshold_a": threshold_a, "play_b": play_b, "threshold_b": threshold_b}


def compare_shard_size(strategies: dict) -> int:
    """Duplicate deals per shard: pimc solves double-dummy samples at every card."""
    return COMPARE_PIMC_SHARD if "pimc" in (strategies["play_a"], strategies["play_b"]) else COMPARE_SHARD


# ---------------------------------------------------------------------------------------------
# Exact values of §10, computed by counting suit patterns

def _p_one_hand_no_run(length: int, n: int) -> Fraction:
    """P(no run >= length in an n-card hand): suits are independent given their sizes."""
    per = [0] * 9
    for m in range(256):
        if longest_run(m) < length:
            per[bin(m).count("1")] += 1
    poly = [1] + [0] * n
    for _ in range(4):
        poly = [sum(poly[i] * per[j - i] for i in range(j + 1) if j - i <= 8) for j in range(n + 1)]
    return Fraction(poly[n], comb(32, n))


def _two_hand_counts(length: int) -> dict[tuple[bool, bool], int]:
    """Ordered pairs of disjoint 9-card hands counted by (A has a run >= length, B has one)."""
    per_suit: dict[tuple[int, int, bool, bool], int] = defaultdict(int)
    for owners in product(range(3), repeat=8):      # 0 = hand A, 1 = hand B, 2 = elsewhere
        a = sum(1 << r for r, o in enumerate(owners) if o == 0)
        b = sum(1 << r for r, o in enumerate(owners) if o == 1)
        per_suit[(bin(a).count("1"), bin(b).count("1"), longest_run(a) >= length, longest_run(b) >= length)] += 1
    states: dict[tuple[int, int, bool, bool], int] = {(0, 0, False, False): 1}
    for _ in range(4):
        nxt: dict[tuple[int, int, bool, bool], int] = defaultdict(int)
        for (na, nb, fa, fb), ways in states.items():
            for (sa, sb, ga, gb), count in per_suit.items():
                if na + sa <= 9 and nb + sb <= 9:
                    nxt[(na + sa, nb + sb, fa or ga, fb or gb)] += ways * count
        states = nxt
    out: dict[tuple[bool, bool], int] = defaultdict(int)
    for (na, nb, fa, fb), ways in states.items():
        if na == nb == 9:
            out[(fa, fb)] += ways
    return out


@lru_cache(maxsize=None)
def exact_odds() -> dict[str, Fraction]:
    """The exact probabilities of §10, by event name (the names the odds table uses)."""
    pairs = comb(32, 9) * comb(23, 9)
    run3, run4 = _two_hand_counts(3), _two_hand_counts(4)
    per_size = [0] * 9
    for m in range(256):
        if longest_run(m) >= 3:
            per_size[bin(m).count("1")] += 1
    # One given suit: k of its 8 cards in the hand, the other 9 - k from the 24 others.
    suit_run3 = Fraction(sum(per_size[k] * comb(24, 9 - k) for k in range(9)), comb(32, 9))
    p6_3, p6_4 = 1 - _p_one_hand_no_run(3, 6), 1 - _p_one_hand_no_run(4, 6)
    p9_3, p9_4 = 1 - _p_one_hand_no_run(3, 9), 1 - _p_one_hand_no_run(4, 9)
    bella9 = Fraction(comb(30, 7), comb(32, 9))
    return {
        "6 cards: at least a terts": p6_3,
        "6 cards: poltinnik (run >= 4)": p6_4,
        "9 cards: at least a terts": p9_3,
        "9 cards: run >= 4": p9_4,
        "9 cards: best is exactly a terts": p9_3 - p9_4,
        "9 cards: run >= 3 in hearts": suit_run3,
        "6 cards: bella in hearts": Fraction(comb(30, 4), comb(32, 6)),
        "9 cards: bella in hearts": bella9,
        "two hands: either has bella in hearts": 2 * bella9,
        "two hands: at least one run >= 3": Fraction(pairs - run3[(False, False)], pairs),
        "two hands: both have run >= 3": Fraction(run3[(True, True)], pairs),
        "two hands: at least one run >= 4": Fraction(pairs - run4[(False, False)], pairs),
    }


def _rate_row(event: str, count, n, exact=None, **extra) -> dict:
    low, high = wilson(count, n)
    return dict(**extra, event=event, count=int(count), n=int(n), estimate=count / n if n else np.nan,
                ci_low=float(low), ci_high=float(high), exact=float(exact) if exact is not None else np.nan)


def odds_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Sequence and bella odds: single-hand events pool both seats (n = 2 x deals). The two hands
    of a deal are not independent, so where the run counted the deals in which both seats have
    the event (not before 0.8.11), the interval and z use the deals' variance (design effect)."""
    deals = int(counters["deals"][0])
    exact = exact_odds()
    hand = 2 * deals
    counts = {
        "6 cards: at least a terts": counters["longest6"][:, 3:].sum(),
        "6 cards: poltinnik (run >= 4)": counters["longest6"][:, 4:].sum(),
        "9 cards: at least a terts": counters["longest9"][:, 3:].sum(),
        "9 cards: run >= 4": counters["longest9"][:, 4:].sum(),
        "9 cards: best is exactly a terts": counters["longest9"][:, 3].sum(),
        "9 cards: run >= 3 in hearts": counters["suit_run3_9"].sum(),
        "6 cards: bella in hearts": counters["bella6"].sum(),
        "9 cards: bella in hearts": counters["bella9"].sum(),
    }
    assert tuple(counts) == core.ODDS_EVENTS
    rows = []
    for k, (event, count) in enumerate(counts.items()):
        row = _rate_row(event, count, hand, exact[event])
        if "both_seats" in counters:
            sum_sq = pair_sum_sq(count, counters["both_seats"][k])
            row["ci_low"], row["ci_high"] = (float(v) for v in clustered_wilson(count, hand, sum_sq, deals))
            row["design_effect"] = design_effect(count, hand, sum_sq, deals)
        rows.append(row)
    for event, key in (("two hands: either has bella in hearts", "either_bella9"),
                       ("two hands: at least one run >= 3", "any_run3"),
                       ("two hands: both have run >= 3", "both_run3"),
                       ("two hands: at least one run >= 4", "any_run4")):
        rows.append(_rate_row(event, counters[key][0], deals, exact[event]))
    table = pd.DataFrame(rows)
    deff = table["design_effect"].fillna(1.0) if "design_effect" in table else 1.0
    table["z"] = (table.estimate - table.exact) / np.sqrt(deff * table.exact * (1 - table.exact) / table.n)
    return table


def deals_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Bidding and baits on single deals: who makes, in which round, and how often he is baited."""
    n = int(counters["deals"][0])
    annulled = int(counters["schmeiss_annulled"][0])   # the kernel counts these among the void deals too
    rows = [_rate_row("void deal (both pass twice)", counters["void"][0] - annulled, n, who="", round="")]
    if annulled:
        rows.append(_rate_row("annulled by schmeiss", annulled, n, who="", round=""))
    for s, seat in enumerate(SEATS):
        for r, rnd in enumerate(ROUNDS):
            rows.append(_rate_row("maker", counters["made"][s, r], n, who=seat, round=rnd))
    for s, seat in enumerate(SEATS):
        for r, rnd in enumerate(ROUNDS):
            rows.append(_rate_row("maker baited", counters["baited"][s, r], counters["made"][s, r], who=seat, round=rnd))
    played = int(counters["made"].sum())
    rows.append(_rate_row("maker baited", counters["baited"].sum(), played, who="any", round="any"))
    rows.append(_rate_row("sequences decide the deal", counters["seq_decides"][0], played, who="", round=""))
    rows.append(_rate_row("maker holds bella", counters["bella_maker"][0], played, who="", round=""))
    rows.append(_rate_row("opponent holds bella", counters["bella_opponent"][0], played, who="", round=""))
    rows.append(_rate_row("dix swapped", counters["dix_swaps"][0], played, who="", round=""))
    if counters["bella_quiet"][0]:
        rows.append(_rate_row("maker kept bella quiet", counters["bella_quiet"][0], played, who="", round=""))
    for role, name in ((0, "maker"), (1, "opponent")):
        count, total, total_sq = histogram_moments(counters["score_hist"][role])
        mean, low, high = mean_interval(total, total_sq, count)
        rows.append(dict(who=name, round="", event="mean score per played deal", count=None,
                         n=count, estimate=mean, ci_low=low, ci_high=high, exact=np.nan))
    mean, low, high = mean_interval(counters["seat_net"][0], counters["seat_net"][1], played)
    rows.append(dict(who="elder", round="", event="elder minus dealer score per played deal",
                     count=None, n=played, estimate=mean, ci_low=low, ci_high=high, exact=np.nan))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def thresholds_table(counters: dict[str, np.ndarray], rules: dict[str, Any]) -> pd.DataFrame:
    """Per threshold of the hero: his bait rates by seat and round, the baseline opponent's, and
    his net points per deal (both seats of each deal) with a paired interval of the difference
    to the best threshold."""
    n = int(counters["deals"][0])
    means = counters["net_sum"] / n
    best = int(np.argmax(means))
    rows = []
    for k, threshold in enumerate(core.THRESHOLDS):
        row = dict(threshold=threshold, opponent_threshold=rules["opponent_threshold"], deals=n)
        for s, seat in enumerate(SEATS):
            for r, rnd in enumerate(ROUNDS):
                made, baited = counters["made"][k, s, r], counters["baited"][k, s, r]
                row[f"make rate {seat} {rnd}"] = made / n
                # the bait rate of the deals he made trump there: few at the extreme thresholds
                low, high = wilson(baited, made)
                row.update({f"bait rate {seat} {rnd}": baited / made if made else np.nan,
                            f"bait n {seat} {rnd}": int(made), f"bait ci_low {seat} {rnd}": float(low),
                            f"bait ci_high {seat} {rnd}": float(high)})
        made, baited = counters["made"][k].sum(), counters["baited"][k].sum()
        low, high = wilson(baited, made)
        row.update({"bait rate": baited / made if made else np.nan, "bait n": int(made), "bait ci_low": float(low),
                    "bait ci_high": float(high)})
        opp_made, opp_baited = counters["opp_made"][k].sum(), counters["opp_baited"][k].sum()
        low, high = wilson(opp_baited, opp_made)
        row.update({"opponent bait rate": opp_baited / opp_made if opp_made else np.nan, "opponent bait n": int(opp_made),
                    "opponent bait ci_low": float(low), "opponent bait ci_high": float(high)})
        cross = counters["net_cross"]
        mean, low, high = mean_interval(counters["net_sum"][k], cross[k, k], n)
        row.update({"net per deal pair": mean, "net ci_low": low, "net ci_high": high})
        # the paired difference to the best threshold on the same deals: sum of (x_k - x_best)^2
        diff, low, high = mean_interval(counters["net_sum"][k] - counters["net_sum"][best],
                                        cross[k, k] - 2 * cross[k, best] + cross[best, best], n)
        row.update({"diff to best": diff, "diff ci_low": low, "diff ci_high": high, "best": k == best})
        rows.append(row)
    return pd.DataFrame(rows)


def games_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Games to the target: deals per game (mean and percentiles), void deals, who wins, margins,
    each with its 95 % interval."""
    games = int(counters["games"][0])
    unfinished = int(counters["unfinished"][0])
    finished = games - unfinished

    def row(quantity, n, estimate, low, high):
        return dict(quantity=quantity, n=n, estimate=estimate, ci_low=float(low), ci_high=float(high))

    count, total, total_sq = histogram_moments(counters["deals_hist"])
    rows = [row("deals per game (mean)", count, *mean_interval(total, total_sq, count))]
    for q in (0.1, 0.5, 0.9):
        rows.append(row(f"deals per game ({int(q * 100)}th percentile)", count,
                        *histogram_quantile(counters["deals_hist"], q)))
    voids_sq = counters["void_deals_sq"][0] if "void_deals_sq" in counters else None   # (not before 0.8.11)
    rows.append(row("void deals per game (mean)", games,
                    *mean_interval_if_counted(int(counters["void_deals"][0]), voids_sq, games)))
    # (no finished game: no estimate, rather than a rate of 0)
    rows.append(row("first deal's elder wins the game", finished,
                    counters["winner"][0] / finished if finished else np.nan, *wilson(counters["winner"][0], finished)))
    count, total, total_sq = histogram_moments(counters["margin_hist"])
    rows.append(row("winning margin (mean)", count, *mean_interval(total, total_sq, count)))
    rows.append(row("unfinished games (the deal cap reached)", games, unfinished / games if games else np.nan,
                    *wilson(unfinished, games)))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Single-deal API

def _suit(text: str, what: str) -> int:
    t = str(text).strip().upper()
    if len(t) != 1 or t not in SUIT_CHARS:
        raise ValueError(f"{what} must be one of the suits {' '.join(SUIT_CHARS)}, got {text!r}")
    return SUIT_CHARS.index(t)


def _seat(text: str) -> int:
    if text not in SEATS:
        raise ValueError(f"maker must be 'elder' or 'dealer', got {text!r}")
    return SEATS.index(text)


def card_points(cards: Cards, trump: str) -> int:
    """Card points of some cards with the given trump suit (K1: JH 9H AS TD, hearts -> 55)."""
    return core.card_points_of(DECK.mask(cards, what="cards"), _suit(trump, "trump"))


def trick_winner(led: str, reply: str, trump: str) -> str:
    """The card that wins a two-card trick (legality is not checked here)."""
    a, b = DECK.parse([led, reply], 2, "trick")
    # A one-trick ending solved by the kernel: the leader takes the trick's points + 10 or nothing.
    taken = core.dd_value(DECK.mask([a]), DECK.mask([b]), True, _suit(trump, "trump"), False)
    return a if taken > 0 else b


@dataclass(frozen=True)
class Sequences:
    value: int                  # all runs of the hand
    best: tuple | None          # (20 or 50, top card, in trumps) of the best run, None if none


def sequences(hand: Cards, trump: str, rules: str = "standard", **overrides) -> Sequences:
    """The runs of a hand (any number of cards) and its best one."""
    options = GAME.resolve_rules(rules, overrides)
    t = _suit(trump, "trump")
    key, total = core.sequence_info(DECK.mask(hand, what="hand"), t, options)
    if not key:
        return Sequences(total, None)
    cls, top, in_trumps = key >> 4, key >> 1 & 7, bool(key & 1)
    return Sequences(total, (20 if cls == 1 else 50, DECK.ranks[top], in_trumps))


def compare_sequences(elder: Cards, dealer: Cards, trump: str, rules: str = "standard", **overrides):
    """Who scores sequences between two held hands: (winner seat or None, elder points, dealer points)."""
    options = GAME.resolve_rules(rules, overrides)
    hands = [DECK.parse(elder, what="elder hand"), DECK.parse(dealer, what="dealer hand")]
    check_disjoint(hands, SEATS)
    winner, e, d = core.declare(DECK.mask(hands[0]), DECK.mask(hands[1]), _suit(trump, "trump"), options)
    return _who(winner), e, d


def settle(maker_total: int, opponent_total: int, rules: str = "standard", **overrides) -> tuple[int, int, int]:
    """The bait rule on a deal's totals: (maker's score, opponent's score, points carried over)."""
    options = GAME.resolve_rules(rules, overrides)
    for value, what in ((maker_total, "maker_total"), (opponent_total, "opponent_total")):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 1000:
            raise ValueError(f"{what} must be an integer from 0 to 1000, got {value!r}")
    return core.settle_totals(maker_total, opponent_total, options)


def game_result(first: int, second: int, target: int = 501) -> tuple[str | None, int]:
    """After a deal: ('first' or 'second' or None while the game goes on, margin of victory)."""
    won, margin = core.game_result(int(first), int(second), int(target))
    return (None if won < 0 else ("first", "second")[won]), margin


@dataclass(frozen=True)
class DealScore:
    rules: str
    options: dict
    trump: str
    maker: str
    dix_swapped_by: str | None
    tricks: tuple                # ((leader card, reply card, winner seat), ...)
    sequence_winner: str | None
    sequences: tuple             # points (elder, dealer)
    bella: tuple
    dix: tuple
    card_points: tuple           # without the last trick
    last_trick: str
    total: tuple
    score: tuple
    baited: bool
    carried: int

    def explain(self) -> str:
        return explain_deal(self)


_ERROR_TEXT = {
    "not_in_hand": "is not in the {who}'s hand",
    "must_follow": "breaks the duty to follow suit ({led} led)",
    "must_trump": "breaks the duty to trump when void in the led suit ({led} led)",
    "must_head": "breaks the duty to head the trump lead with a higher trump ({led} led)",
}


def _who(value: int) -> str | None:
    return None if value < 0 else SEATS[value]


MASK_FIELDS = ("elder_first", "dealer_first", "elder_second", "dealer_second")


def row_dict(row) -> dict[str, int]:
    """A kernel row as a dict (hand masks back to unsigned)."""
    f = {name: int(v) for name, v in zip(core.ROW_FIELDS, row)}
    for name in MASK_FIELDS:
        f[name] &= 0xFFFFFFFF
    return f


def _score_from_row(row, rules: str, options: dict) -> dict:
    f = row_dict(row)
    tricks = tuple((DECK.card(f[f"play{2 * t}"]), DECK.card(f[f"play{2 * t + 1}"]), SEATS[f[f"winner{t}"]])
                   for t in range(9)) if f["play0"] >= 0 else ()
    pair = lambda name: (f[f"{name}_elder"], f[f"{name}_dealer"])
    return dict(rules=rules, options=options, trump=SUIT_CHARS[f["trump"]], maker=_who(f["maker"]),
                dix_swapped_by=_who(f["swapper"]), tricks=tricks, sequence_winner=_who(f["seq_winner"]),
                sequences=pair("seq"), bella=pair("bella"), dix=pair("dix"), card_points=pair("cards"),
                last_trick=_who(f["last_winner"]), total=pair("total"), score=pair("score"),
                baited=bool(f["baited"]), carried=f["carried"])


def score_deal(elder: Cards, dealer: Cards, turnup: str, trump: str, maker: str, plays: Cards,
               rules: str = "standard", **overrides) -> DealScore:
    """Score a given deal: the two 9-card hands as dealt (before the dix), the turn-up, the trump
    suit (the turn-up's suit = taken in round 1, another suit = named in round 2), the maker
    (``"elder"`` or ``"dealer"``) and the 18 cards in play order (leader's card first in each
    trick; elder leads the first trick). The dix swap follows the ``dix_swap`` option.

    Raises ValueError for malformed, duplicate or missing cards, wrong sizes and illegal plays
    (naming the trick, the card and the rule broken)."""
    options = GAME.resolve_rules(rules, overrides)
    hands = [DECK.parse(elder, 9, "elder hand"), DECK.parse(dealer, 9, "dealer hand")]
    up = parse_card(turnup)
    DECK.bit(up)
    check_disjoint(hands + [[up]], ("elder", "dealer", "turn-up"))
    t = _suit(trump, "trump")
    m = _seat(maker)
    sequence = DECK.parse(plays, 18, "trick sequence")
    row, error = core.play_given(DECK.mask(hands[0]), DECK.mask(hands[1]), DECK.bit(up), t, m,
                                 [DECK.bit(c) for c in sequence], options)
    if error is not None:
        index, code, seat = error
        trick, card = index // 2 + 1, sequence[index]
        text = _ERROR_TEXT[code].format(who=SEATS[seat], led=sequence[index - 1] if index % 2 else "")
        raise ValueError(f"trick {trick}: {card} {text}")
    return DealScore(**_score_from_row(row, rules, options))


@dataclass(frozen=True)
class PlayedDeal:
    rules: str
    options: dict
    elder_first: tuple
    dealer_first: tuple
    turnup: str
    elder_second: tuple
    dealer_second: tuple
    bottom: str | None
    void: bool
    round: int
    result: DealScore | None

    def explain(self) -> str:
        lines = [f"elder 6: {' '.join(self.elder_first)} + {' '.join(self.elder_second)}",
                 f"dealer 6: {' '.join(self.dealer_first)} + {' '.join(self.dealer_second)}",
                 f"turn-up {self.turnup}, bottom card {self.bottom}"]
        if self.void:
            return "\n".join(lines + ["Both players passed in both rounds: void deal."])
        lines.append(f"{self.result.maker} {'takes the turned suit' if self.round == 1 else 'names'} "
                     f"{self.result.trump}")
        return "\n".join(lines + [explain_deal(self.result)])


def layout_row(elder6: Cards, dealer6: Cards, turnup: str, elder3: Cards, dealer3: Cards,
               bottom: str | None = None) -> list[int]:
    """Validate a dealt layout and return it as the kernel's input row."""
    parts = [DECK.parse(elder6, 6, "elder's first 6 cards"), DECK.parse(dealer6, 6, "dealer's first 6 cards"),
             DECK.parse(elder3, 3, "elder's last 3 cards"), DECK.parse(dealer3, 3, "dealer's last 3 cards"),
             DECK.parse([turnup], 1, "turn-up")]
    names = ["elder first", "dealer first", "elder second", "dealer second", "turn-up"]
    if bottom is not None:
        parts.append(DECK.parse([bottom], 1, "bottom card"))
        names.append("bottom card")
    check_disjoint(parts, names)
    return [DECK.mask(p) for p in parts[:4]] + [DECK.bit(parts[4][0]), DECK.bit(parts[5][0]) if bottom else -1]


def play_deal(elder6: Cards, dealer6: Cards, turnup: str, elder3: Cards, dealer3: Cards,
              bottom: str | None = None, rules: str = "standard", seed: int = 0,
              elder_play: str = "greedy", dealer_play: str = "greedy", **overrides) -> PlayedDeal:
    """Bid (at the ``threshold`` option) and play one given deal with the named card play of
    each seat; ``seed`` feeds pimc and random play."""
    options = GAME.resolve_rules(rules, overrides)
    spec = kernel_spec(options, {"play_a": elder_play, "play_b": dealer_play})
    row = core.play_deals(np.array([layout_row(elder6, dealer6, turnup, elder3, dealer3, bottom)], np.int64),
                          spec, np.random.PCG64(seed))[0]
    f = row_dict(row)
    result = None if f["void"] else DealScore(**_score_from_row(row, rules, options))
    return PlayedDeal(rules, options, tuple(DECK.from_mask(f["elder_first"])), tuple(DECK.from_mask(f["dealer_first"])),
                      DECK.card(f["turnup"]), tuple(DECK.from_mask(f["elder_second"])),
                      tuple(DECK.from_mask(f["dealer_second"])), DECK.card(f["bottom"]) if f["bottom"] >= 0 else None,
                      bool(f["void"]), f["round"], result)


def explain_deal(r: DealScore) -> str:
    lines = [f"Trump {r.trump}; maker {r.maker}" + (f"; {r.dix_swapped_by} swaps the dix" if r.dix_swapped_by else "")]
    for i, (a, b, w) in enumerate(r.tricks, 1):
        lines.append(f"  trick {i}: {a} {b} -> {w}")
    lines.append(f"Sequences: {r.sequence_winner or 'nobody'} scores (elder {r.sequences[0]}, dealer {r.sequences[1]})")
    lines.append(f"Bella: elder {r.bella[0]}, dealer {r.bella[1]}; dix: elder {r.dix[0]}, dealer {r.dix[1]}")
    lines.append(f"Card points: elder {r.card_points[0]}, dealer {r.card_points[1]}; last trick +10 to {r.last_trick}")
    lines.append(f"Totals: elder {r.total[0]}, dealer {r.total[1]}")
    lines.append(("Bait! " if r.baited else "") + f"Score: elder {r.score[0]}, dealer {r.score[1]}"
                 + (f"; {r.carried} carried over" if r.carried else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Report

REPORT_ODDS_DEALS = 4_000_000
REPORT_DEALS = 2_000_000
REPORT_THRESHOLD_DEALS = 400_000
REPORT_GAMES = 200_000
REPORT_PIMC_DEALS = 2_000
REPORT_VARIANT_DEALS = 1_000_000
RULE_VARIANTS = (("no duty to head trumps (seed literal)", {"must_head_trump": False}),
                 ("tie = half bait", {"tie": "half"}),
                 ("equal plain sequences: elder scores", {"seq_tie": "elder"}),
                 ("long runs split", {"long_runs": "split"}),
                 ("dix worth 10", {"dix_value": 10}),
                 ("no dix swap", {"dix_swap": "never"}),
                 ("schmeiss on", {"schmeiss": True}),
                 ("bella kept quiet when it only feeds a bait", {"bella_policy": "strategic"}),
                 ("no trick, no sequences", {"no_trick_no_melds": True}))


def sensitivity_table(runs: list[tuple[str, dict]]) -> pd.DataFrame:
    """Key single-deal figures of several rule variants: void and bait rates, mean scores. The
    95 % half-widths of the columns without interval columns are in attrs["half_widths"] (column:
    one a row), for the text beside the table."""
    rows, halves = [], {"void rate": [], "maker mean score": [], "opponent mean score": [], "sequences decide": []}
    for label, c in runs:
        n, played = int(c["deals"][0]), int(c["made"].sum())
        baited = int(c["baited"].sum())
        low, high = wilson(baited, played)
        maker = mean_interval(*histogram_moments(c["score_hist"][0])[1:], played)
        opponent = mean_interval(*histogram_moments(c["score_hist"][1])[1:], played)
        elder = mean_interval(c["seat_net"][0], c["seat_net"][1], played)
        void = wilson(n - played, n)
        decide = wilson(c["seq_decides"][0], played)
        for column, (lo, hi) in (("void rate", void), ("maker mean score", maker[1:]),
                                 ("opponent mean score", opponent[1:]), ("sequences decide", decide)):
            halves[column].append((float(hi) - float(lo)) / 2)
        rows.append({"rules": label, "deals": n, "void rate": (n - played) / n, "bait rate": baited / played,
                     "bait ci_low": float(low), "bait ci_high": float(high),
                     "maker mean score": maker[0], "opponent mean score": opponent[0],
                     "elder - dealer per deal": elder[0], "elder - dealer ci_low": elder[1],
                     "elder - dealer ci_high": elder[2],
                     "sequences decide": c["seq_decides"][0] / played})
    table = pd.DataFrame(rows)
    table.attrs["half_widths"] = halves
    return table


def build_report(ctx) -> list:
    from ..report import Section, interval_bars, rate_bars, widest_half_widths
    import matplotlib.pyplot as plt

    sections = []
    odds = ctx.run("klabor", "odds", "standard", REPORT_ODDS_DEALS)
    odds_rates = odds_table(odds.counters)
    section = Section(
        "Klabor: sequences and bella in the dealt hands",
        "Each deal gives two hands: the first 6 cards (at the bidding) and all 9. Single-hand rows pool "
        "both hands (n = 2 x deals); the two hands of a deal are not independent, and `design_effect` is "
        "by how much the variance between deals exceeds that of independent hands (below 1: the hands "
        "exclude each other), which the interval and `z` allow for. `exact` is computed in code by "
        "counting suit patterns (rules §10), `z` is the estimate's distance from it in standard errors.",
        tables=[("Sequence and bella odds", odds_rates)])
    section.figures.append(("Sequence and bella odds by hand: estimates with 95% intervals, exact values in red.",
                            rate_bars(odds_rates, "event")))
    sections.append(section)

    standard = ctx.run("klabor", "deals", "standard", REPORT_DEALS)
    pimc = ctx.run("klabor", "deals", "standard", REPORT_PIMC_DEALS, strategies={"play_a": "pimc", "play_b": "pimc"})
    sensitivity = [("rules file defaults", standard.counters)]
    for label, overrides in RULE_VARIANTS:
        sensitivity.append((label, ctx.run("klabor", "deals", "standard", REPORT_VARIANT_DEALS, overrides).counters))
    sensitivity_by_rules = sensitivity_table(sensitivity)
    section = Section(
        "Klabor: who makes the trump and how often the maker is baited",
        "Single deals with both players bidding at strength threshold 50 (card points of the 6 cards "
        "with the candidate trump, +10 per trump, the turn-up counted for the holder of the trump 7). "
        "The bait rate of each seat and round is conditional on that seat making in that round. The "
        "last table repeats the key figures with one open rule of §8 changed at a time (greedy play; "
        "greedy heads a trump lead whenever it can, so the heading duty changes nothing for it, and "
        "with schmeiss on most offers are accepted, which voids about half of the deals). "
        + widest_half_widths(sensitivity_by_rules.attrs["half_widths"], ("void rate", "sequences decide")),
        tables=[("greedy play, threshold 50", deals_table(standard.counters)),
                ("pimc play (both players), threshold 50", deals_table(pimc.counters)),
                ("Sensitivity to the open rules", sensitivity_by_rules)])
    fig, axes = plt.subplots(1, 2, figsize=(11, 6.5), sharey=True)
    for ax, (label, counters) in zip(axes, (("greedy play", standard.counters), ("pimc play", pimc.counters))):
        rates = deals_table(counters)
        rates = rates[rates.event.isin(["maker", "maker baited"]) & rates.who.isin(SEATS)]
        rates = rates.assign(label=rates.event + ", " + rates.who + ", " + rates["round"] + " suit")
        rate_bars(rates, "label", title=f"{label} ({int(counters['deals'][0]):,} deals)", ax=ax)
    fig.tight_layout()
    section.figures.append(("Who makes the trump and how often the maker is baited, by seat and round: "
                            "greedy against pimc card play (the bidding is the same).", fig))
    sections.append(section)

    th = ctx.run("klabor", "thresholds", "standard", REPORT_THRESHOLD_DEALS)
    table = thresholds_table(th.counters, th.config.rule_options)
    best = table[table.best].iloc[0]
    section = Section(
        "Klabor: the best bidding threshold",
        "The same deals are played with the hero at each threshold, once as elder and once as dealer, "
        f"against an opponent bidding at {th.config.rule_options['opponent_threshold']}; `net per deal pair` "
        "is the hero's score minus the opponent's summed over the two seats. `diff to best` is the paired "
        f"difference to the best threshold ({int(best.threshold)}) with its 95% interval.",
        tables=[("Bidding thresholds", table)])
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].errorbar(table.threshold, table["net per deal pair"],
                   yerr=[table["net per deal pair"] - table["net ci_low"], table["net ci_high"] - table["net per deal pair"]],
                   marker="o")
    ax[0].set_xlabel("hero's bidding threshold")
    ax[0].set_ylabel("hero net points per deal pair")
    for s, seat in enumerate(SEATS):
        for r, rnd in enumerate(ROUNDS):
            ax[1].plot(table.threshold, table[f"bait rate {seat} {rnd}"], marker="o", label=f"{seat}, {rnd} suit")
    ax[1].set_xlabel("hero's bidding threshold")
    ax[1].set_ylabel("P(baited | hero makes)")
    ax[1].legend()
    section.figures.append(("Net points and bait rates by threshold (greedy play).", fig))
    sections.append(section)

    duel = ctx.run("klabor", "thresholds", "standard", REPORT_PIMC_DEALS // 4, strategies={"play_a": "pimc"})
    duel_table = thresholds_table(duel.counters, duel.config.rule_options)
    same = duel_table[duel_table.threshold == duel.config.rule_options["opponent_threshold"]].iloc[0]
    section = Section(
        "Klabor: pimc against greedy card play",
        "Duplicate deals: player A plays pimc (each card chosen by solving "
        f"{duel.config.rule_options['pimc_samples']} sampled layouts of the unseen cards double-dummy), "
        "player B greedy, each deal played with A as elder and as dealer. At equal thresholds "
        f"({int(same.threshold)}) the bidding is the same for both, so A's net per deal pair "
        f"({same['net per deal pair']:.1f}, "
        + (f"95% interval {same['net ci_low']:.1f} to {same['net ci_high']:.1f}" if np.isfinite(same["net ci_low"])
           else "no interval from fewer than 30 deals") + ") "
        "measures the card play alone; the other rows also change A's bidding.",
        tables=[("pimc (A) against greedy (B) by A's threshold", duel_table)])
    section.figures.append((
        "A's net points per deal pair by A's bidding threshold with 95% intervals: pimc against greedy "
        "(duplicate deals).",
        interval_bars(duel_table.threshold.astype(int).map(lambda t: f"threshold {t}"), duel_table["net per deal pair"],
                      duel_table["net ci_low"], duel_table["net ci_high"], "A's net points per deal pair")))
    sections.append(section)

    games = ctx.run("klabor", "games", "standard", REPORT_GAMES)
    section = Section("Klabor: games to 501",
                      "Whole games, both players at threshold 50 with greedy play; a run's 'deals' are games here.",
                      tables=[("Games to 501", games_table(games.counters))])
    hist = games.counters["deals_hist"]
    top = int(np.nonzero(hist)[0].max()) + 1
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(np.arange(top), hist[:top] / hist.sum())
    ax.set_xlabel("deals dealt in a game (void deals included)")
    ax.set_ylabel("probability")
    section.figures.append(("Distribution of the number of deals to 501.", fig))
    sections.append(section)
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr klabor odds | deals | thresholds | games | score | play

def register_cli(sub) -> None:
    from .. import cli

    for name, default, help_text in (("odds", 1_000_000, "sequence and bella odds against the exact values"),
                                     ("deals", 1_000_000, "single deals: makers, baits, points"),
                                     ("thresholds", 100_000, "bidding thresholds on duplicate deals"),
                                     ("games", 100_000, "games to the target (--deals counts games)")):
        p = sub.add_parser(name, help=help_text)
        cli.add_run_options(p, "klabor", default_deals=default, analysis=name)
        if GAME.analysis(name).strategies:
            p.add_argument("--strategy", dest="strategies", type=cli.option, action=cli.Repeatable, default=[],
                           metavar="ROLE=NAME", help="card play of player A / B: play_a=pimc, play_b=random, ...")
        p.set_defaults(handler=lambda args, name=name: _cmd_run(args, name))

    score = sub.add_parser("score", help="score a given deal and trick sequence")
    score.add_argument("--elder", required=True, help="the elder's 9 cards as dealt")
    score.add_argument("--dealer", required=True, help="the dealer's 9 cards as dealt")
    score.add_argument("--turnup", required=True)
    score.add_argument("--trump", required=True, help="trump suit S H D C")
    score.add_argument("--maker", required=True, choices=SEATS)
    score.add_argument("--plays", required=True, help="18 cards, leader's card first in each trick")
    score.add_argument("--rules", default="standard", choices=list(PRESETS))
    cli.add_set_option(score)
    score.set_defaults(handler=_cmd_score)

    play = sub.add_parser("play", help="bid and play one seeded deal with the strategies")
    play.add_argument("--seed", type=cli.seed, default=1)
    play.add_argument("--elder-play", choices=core.PLAY_STRATEGIES, default="greedy")
    play.add_argument("--dealer-play", choices=core.PLAY_STRATEGIES, default="greedy")
    play.add_argument("--rules", default="standard", choices=list(PRESETS))
    cli.add_set_option(play)
    play.set_defaults(handler=_cmd_play)


def _cmd_run(args, analysis: str) -> int:
    from .. import cli

    return cli.emit_summary(args, cli.execute(args, "klabor", analysis))


def _cmd_score(args) -> int:
    result = score_deal(args.elder, args.dealer, args.turnup, args.trump, args.maker, args.plays,
                        args.rules, **dict(args.overrides))
    print(result.explain())
    return 0


def random_layout(seed: int) -> list[str]:
    """The 20 cards of a random deal in dealing order (6 + 6, turn-up, 3 + 3, bottom card)."""
    order = np.random.default_rng(seed).permutation(DECK.size)[:20]
    return [DECK.cards[i] for i in order]


def _cmd_play(args) -> int:
    c = random_layout(args.seed)
    print(play_deal(c[0:6], c[6:12], c[12], c[13:16], c[16:19], c[19], args.rules, args.seed,
                    args.elder_play, args.dealer_play, **dict(args.overrides)).explain())
    return 0
