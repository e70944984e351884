"""The square game ("Квадрат") of seed 003 (shared/rules/square.md).

The seed keeps only the end of the game's description: the scoring of the squares, the closing rule
(close at 5 or more, -1 for closing, points above 5 doubled), the 2-vs-2 variant with "partner, may
I close?" and the length of a match. Everything else — deck, deal, moves, the Q/J removal — is our
reconstruction R1 and every reconstructed rule is an option here, so each answer can be re-checked
when the original rules turn up.

Presets: ``r1`` (two players) and ``r1_four`` (2 vs 2). Rule options (§5 of the rules file):
``deck`` 32/36/52, ``deal`` whole/draw8, ``placement`` free/rank_fixed (36 cards only),
``qj_remove`` own/any/none, ``cover`` no/yes, ``close_timing`` after_action/turn_start,
``no_closer`` plain/last_actor, ``match`` target/deals with ``match_target`` and ``match_deals``
(0 = the seed's 4 deals for two players, 2 for four), ``players`` 2/4.

Strategy roles (chosen per run): ``play_a``/``play_b`` placement strategy of side A (seat 0, and
seat 2 in 2-vs-2; moves first) and side B: spoiler, greedy, random; ``close_a``/``close_b`` the
closing threshold (at5 .. at14, never); in 2-vs-2 ``ask`` (never/always ask the partner) and
``agree`` (the partner consents when the square has at least that many points, or 6 when the
deal would end otherwise; ``never`` refuses every ask).

``kozyr compare square --strategies spoiler:at5 greedy:at7 random`` compares strategies labelled
"PLAY:CLOSE" on duplicate deals, each holding both sides of every deal (see compare_strategies).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import square as core
from ..cards import Deck, parse_card
from ..stats import histogram_moments, mean_interval, mean_interval_if_counted, ratio_interval, wilson
from . import Analysis, Game

CELLS = 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINE_NAMES = ("row 1", "row 2", "row 3", "column 1", "column 2", "column 3", "diagonal 0-4-8", "diagonal 2-4-6")
CLOSE_MIN = 5
# Cards are coded suit*16 + rank (rank in the pack's order), the layout of csrc/square.pyx.
DECKS = {32: Deck("32-card", "789TJQKA", 16), 36: Deck("36-card", "6789TJQKA", 16), 52: Deck("52-card", "23456789TJQKA", 16)}
SIDES = ("A", "B")

_COMMON = dict(deck=32, deal="whole", placement="free", qj_remove="own", cover="no", close_timing="after_action",
               no_closer="plain", match="target", match_target=33, match_deals=0)
PRESETS: dict[str, dict[str, Any]] = {
    "r1": dict(_COMMON, players=2),
    "r1_four": dict(_COMMON, players=4),
}
_CHOICES = {"deal": ("whole", "draw8"), "placement": ("free", "rank_fixed"), "qj_remove": ("own", "any", "none"),
            "cover": ("no", "yes"), "close_timing": ("after_action", "turn_start"),
            "no_closer": ("plain", "last_actor"), "match": ("target", "deals")}
_INT_CHOICES = {"deck": (32, 36, 52), "players": (2, 4)}
_LIMITS = {"match_target": (1, 1000), "match_deals": (0, 60)}
# Which rules-file question (§5) each option answers, and whether the seed fixes it.
OPTION_NOTES = {
    "deck": "§5 #2 pack (32 inferred from 4 x 8 cards; 36 and 52 are alternatives) [INFER]",
    "deal": "§5 #3 two players: whole pack 16 each, or 8 each with a stock drawn from [RECON]",
    "placement": "§5 #4 any empty cell, or a fixed cell per rank ('the place for the nine') [RECON]",
    "qj_remove": "§5 #5 a Q or J removes a card from the own square, either square, or never [RECON]",
    "cover": "§5 #6 may a card be placed on an occupied cell (the covered card is discarded) [RECON]",
    "close_timing": "§5 #7 closing right after one's own action, or at the start of one's turn [RECON]",
    "no_closer": "§5 #8 nobody closed: plain totals, or the last player to act scores as closer [RECON]",
    "match": "§5 #10 match to a target total, or a fixed number of deals [SEED: both are in the text]",
    "match_target": "the target total (seed: usually 33) [SEED]",
    "match_deals": "fixed number of deals, 0 = the seed's usual 4 (two players) or 2 (four) [SEED]",
    "players": "two players, or 2 vs 2 with two squares [SEED]",
}

THRESHOLD_NAMES = tuple(f"at{t}" for t in range(5, 15)) + ("never",)
NEVER = 15
PLAY = ("spoiler", "greedy", "random")
STRATEGIES = {"play_a": PLAY, "play_b": PLAY, "close_a": THRESHOLD_NAMES, "close_b": THRESHOLD_NAMES,
              "ask": ("never", "always"), "agree": ("at7",) + tuple(n for n in THRESHOLD_NAMES if n != "at7")}
# The thresholds analysis tries every closing threshold of side A: it has no close_a role.
THRESHOLD_STRATEGIES = {role: names for role, names in STRATEGIES.items() if role != "close_a"}
# The compare analysis names strategies A and B (not sides): each holds both sides in turn.
COMPARE_STRATEGIES = {"a_play": PLAY, "a_close": THRESHOLD_NAMES, "b_play": PLAY, "b_close": THRESHOLD_NAMES,
                      "ask": STRATEGIES["ask"], "agree": STRATEGIES["agree"]}


def _cover(key: str, value: Any) -> str:
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return parsing.choice(key, value, _CHOICES[key])


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    return parsing.parse("square", key, value, choices={**_CHOICES, **_INT_CHOICES}, limits=_LIMITS,
                         special={"cover": _cover})


def check_rules(rules: dict) -> None:
    """Checks across options (each option alone is checked by validate_option)."""
    if rules["placement"] == "rank_fixed" and rules["deck"] != 36:
        raise ValueError("option placement=rank_fixed needs deck=36 (nine ranks for the nine places), "
                         f"got deck={rules['deck']}")
    if rules["deal"] == "draw8" and rules["players"] * 8 >= rules["deck"]:
        raise ValueError(f"option deal=draw8 leaves no stock with {rules['players']} players and deck={rules['deck']} "
                         "(8 cards each use the whole pack): it is deal=whole; choose a larger deck or two players")


def check_partner_roles(rules: dict, strategies: dict) -> None:
    """ask and agree are the 2-vs-2 partner's decisions: a two-player game has no partner."""
    defaults = {role: STRATEGIES[role][0] for role in ("ask", "agree")}
    chosen = {role: strategies[role] for role in defaults if role in strategies and strategies[role] != defaults[role]}
    if chosen and rules["players"] != 4:
        given = ", ".join(f"{role}={name}" for role, name in chosen.items())
        raise ValueError(f"{given}: ask and agree are the partner's decisions of the 2-vs-2 game (players=4); "
                         f"a game of {rules['players']} players has no partner")


def threshold_value(name: str) -> int:
    return NEVER if name == "never" else int(name[2:])


def kernel_spec(rules: dict, strategies: dict | None = None) -> dict:
    """The dict the compiled kernels read: the rules plus the strategies of both sides."""
    check_rules(rules)
    s = {role: names[0] for role, names in STRATEGIES.items()}
    s.update(strategies or {})
    return dict(rules, cover=rules["cover"] == "yes", strategy_a=s["play_a"], strategy_b=s["play_b"],
                threshold_a=threshold_value(s["close_a"]), threshold_b=threshold_value(s["close_b"]),
                partner_ask=s["ask"], agree_threshold=threshold_value(s["agree"]))


# ---------------------------------------------------------------------------------------------
# Analyses

def _play_kernel(bit_generators, n_deals, rules, strategies):
    return core.play_shard(bit_generators[0], bit_generators[1], n_deals, kernel_spec(rules, strategies))


def _thresholds_kernel(bit_generators, n_deals, rules, strategies):
    return core.thresholds_shard(bit_generators[0], bit_generators[1], n_deals, kernel_spec(rules, strategies))


def _match_kernel(bit_generators, n_deals, rules, strategies):
    return core.match_shard(bit_generators[0], bit_generators[1], n_deals, kernel_spec(rules, strategies))


def _compare_kernel(bit_generators, n_deals, rules, strategies):
    # strategy A is given to the kernel as side A's, strategy B as side B's; the kernel swaps them
    sides = {"play_a": strategies["a_play"], "close_a": strategies["a_close"], "play_b": strategies["b_play"],
             "close_b": strategies["b_close"], "ask": strategies["ask"], "agree": strategies["agree"]}
    return core.compare_shard(bit_generators[0], bit_generators[1], bit_generators[2], n_deals,
                              kernel_spec(rules, sides))


def _baseline_kernel(bit_generators, n_deals, rules):
    return core.baseline_shard(bit_generators[0], n_deals, kernel_spec(rules))


GAME = Game(
    name="square",
    title="The square game (Квадрат), reconstructed",
    presets=PRESETS,
    validate_option=validate_option,
    check_rules=check_rules,
    analyses={
        "play": Analysis("play", "Deals played out by the chosen strategies: closing, scores, actions",
                         _play_kernel, streams=2, strategies=STRATEGIES, check=check_partner_roles,
                         summary=lambda counters, rules, strategies: [("played deals", play_table(counters, rules))]),
        "thresholds": Analysis("thresholds", "Duplicate deals: the tested side (play_a) with every closing "
                               "threshold against play_b/close_b, both seatings", _thresholds_kernel,
                               streams=2, strategies=THRESHOLD_STRATEGIES, check=check_partner_roles, summary=lambda counters, rules, strategies: [
                                   ("closing thresholds", thresholds_table(counters))]),
        "match": Analysis("match", "Whole matches to the target or a fixed number of deals", _match_kernel,
                          streams=2, strategies=STRATEGIES, check=check_partner_roles,
                          summary=lambda counters, rules, strategies: [("matches", match_table(counters, rules))],
                          unit="matches"),
        "baseline": Analysis("baseline", "Squares of distinct random cards (full, and with one empty cell)",
                             _baseline_kernel, summary=lambda counters, rules, strategies: [
                                 ("random squares beside the exact values", baseline_table(counters, rules))]),
        "compare": Analysis("compare", "Duplicate deals: strategies A and B each hold both sides (every seat) of "
                            "every deal; A's minus B's deal scores", _compare_kernel, streams=3,
                            strategies=COMPARE_STRATEGIES, check=check_partner_roles),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: SHARD_SIZES["compare"],
)


def parse_label(label: str) -> tuple[str, str]:
    """A strategy label of `kozyr compare square`: "PLAY:CLOSE" (e.g. "spoiler:at5", "greedy:at7",
    "random:never") or just "PLAY" (closing at 5) -> (play strategy, closing threshold)."""
    play, colon, close = str(label).partition(":")
    close = close if colon else THRESHOLD_NAMES[0]
    if play not in PLAY or close not in THRESHOLD_NAMES:
        raise ValueError(f"unknown square strategy {label!r}: write PLAY:CLOSE with PLAY one of {', '.join(PLAY)} "
                         f"and CLOSE one of {', '.join(THRESHOLD_NAMES)} (e.g. spoiler:at5; PLAY alone closes at 5)")
    return play, close


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two strategy labels (see parse_label).

    Each deal is played twice from the same hands, seat 0 moving first: A holds side A (seat 0, and
    seat 2 in 2 vs 2) against B, then the sides (partnerships) swap, so each strategy plays every
    seat. The per-deal result of a strategy is its side's deal score (the closer's 2S - 6 or the
    plain square score) summed over the two plays; the compared difference is A's minus B's. In
    2 vs 2 both partnerships follow the shared roles ``ask``/``agree`` (defaults: never ask)."""
    (a_play, a_close), (b_play, b_close) = parse_label(a), parse_label(b)
    if (a_play, a_close) == (b_play, b_close):
        raise ValueError(f"{a!r} and {b!r} are the same strategy ({a_play}:{a_close})")
    return {"a_play": a_play, "a_close": a_close, "b_play": b_play, "b_close": b_close}


# ---------------------------------------------------------------------------------------------
# Exact random-square baseline (§7): enumerate the suit pattern of the 9 cells (4^9), weight each by
# the number of ordered choices of distinct cards; line scores depend only on suits.

@lru_cache(maxsize=None)
def exact_distribution(per_suit: int = 8, holes: int = 0) -> dict[int, Fraction]:
    """Exact score distribution of a square of distinct uniformly random cards from a pack with
    `per_suit` cards per suit, with `holes` (0 or 1) uniformly random empty cells."""
    falling = [1]                                  # ordered choices of j distinct cards of one suit
    for j in range(CELLS):
        falling.append(falling[-1] * max(per_suit - j, 0))
    falling = np.array(falling, np.int64)
    counts = np.zeros(8 * len(LINES) * 2 + 1, np.int64)
    for hole_cells in combinations(range(CELLS), holes):
        live = [c for c in range(CELLS) if c not in hole_cells]
        patterns = np.indices((4,) * len(live)).reshape(len(live), -1).T
        suits = np.full((len(patterns), CELLS), -1)
        suits[:, live] = patterns
        red = (suits == 1) | (suits == 2)
        scores = np.zeros(len(patterns), np.int64)
        for a, b, c in LINES:
            if {a, b, c} & set(hole_cells):
                continue
            one_suit = (suits[:, a] == suits[:, b]) & (suits[:, b] == suits[:, c])
            one_colour = (red[:, a] == red[:, b]) & (red[:, b] == red[:, c])
            scores += np.where(one_suit, 2, np.where(one_colour, 1, 0))
        weights = np.ones(len(patterns), np.int64)
        for s in range(4):
            weights *= falling[(patterns == s).sum(axis=1)]
        np.add.at(counts, scores, weights)
    total = int(counts.sum())
    return {k: Fraction(int(v), total) for k, v in enumerate(counts) if v}


def exact_summary(per_suit: int = 8, holes: int = 0) -> dict[str, Fraction]:
    d = exact_distribution(per_suit, holes)
    return {"mean": sum(k * v for k, v in d.items()), "closable": sum(v for k, v in d.items() if k >= CLOSE_MIN),
            "maximum": d[max(d)]}


def baseline_table(counters: dict, rules: dict) -> pd.DataFrame:
    """Simulated random squares beside the exact values of §7."""
    per_suit = rules["deck"] // 4
    n = int(counters["squares"][0])
    rows = []
    for name, holes in (("full", 0), ("holed", 1)):
        hist = counters[name]
        exact = exact_distribution(per_suit, holes)
        what = "9 random cards" if holes == 0 else "8 random cards + 1 empty cell"
        count, total, total_sq = histogram_moments(hist)
        mean, low, high = mean_interval(total, total_sq, count)
        rows.append(dict(square=what, event="mean score", count=np.nan, n=n, estimate=mean, ci_low=low, ci_high=high,
                         exact=float(sum(k * v for k, v in exact.items()))))
        closable = int(hist[CLOSE_MIN:].sum())
        lo, hi = wilson(closable, n)
        rows.append(dict(square=what, event="score >= 5 (closable)", count=closable, n=n, estimate=closable / n,
                         ci_low=float(lo), ci_high=float(hi),
                         exact=float(sum(v for k, v in exact.items() if k >= CLOSE_MIN))))
        for k in range(len(hist)):
            if hist[k] == 0 and k not in exact:
                continue
            lo, hi = wilson(hist[k], n)
            rows.append(dict(square=what, event=f"score = {k}", count=int(hist[k]), n=n, estimate=hist[k] / n,
                             ci_low=float(lo), ci_high=float(hi), exact=float(exact.get(k, 0))))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


# ---------------------------------------------------------------------------------------------
# Tables of the play, thresholds and match analyses

def _rate(event, count, n, **extra):
    lo, hi = wilson(count, n)
    return dict(event=event, count=int(count), n=int(n), estimate=count / n if n else np.nan,
                ci_low=float(lo), ci_high=float(hi), **extra)


def _share(event, count, n, count_sq, n_sq, cross, deals):
    """A share of units that come in deals (actions, asks): count of n, with the delta-method
    interval of a ratio of per-deal sums (count_sq, n_sq, cross: the deals' sums of x^2, y^2, x y),
    kept inside [0, 1]."""
    share, low, high = ratio_interval(count, n, count_sq, n_sq, cross, deals, bounds=(0.0, 1.0))
    return dict(event=event, count=int(count), n=int(n), estimate=share, ci_low=low, ci_high=high)


def _mean_row(event, total, total_sq, n, **extra):
    mean, lo, hi = mean_interval(total, total_sq, n)
    return dict(event=event, count=np.nan, n=int(n), estimate=mean, ci_low=lo, ci_high=hi, **extra)


def play_table(counters: dict, rules: dict) -> pd.DataFrame:
    """Closing (how often, who, when, at which square score), deal scores, the mix of actions."""
    n = int(counters["deals"][0])
    players = rules["players"]
    closed = int(counters["closed"][0])
    rows = [_rate("deal closed", closed, n)]
    for seat in range(players):
        rows.append(_rate(f"closed by seat {seat} (side {SIDES[seat % 2]})", counters["closer_seat"][seat], n))
    if closed:
        rows.append(_rate("first mover's share of closings", counters["closer_seat"][0], closed))
        c, t, tsq = histogram_moments(counters["close_turn"][:-1])
        rows.append(_mean_row("turn of closing (0 = first action), closed deals", t, tsq, c))
        c, t, tsq = histogram_moments(counters["close_square"])
        rows.append(_mean_row("closer's square score S", t, tsq, c))
        for s in range(CLOSE_MIN, len(counters["close_square"])):
            if counters["close_square"][s]:
                rows.append(_rate(f"closed with S = {s}", counters["close_square"][s], closed))
    for side in range(2):
        hist = counters["first_closable"][side]
        could = int(hist[:-1].sum())
        rows.append(_rate(f"side {SIDES[side]} square reached 5 at some point", could, n))
        if could:
            c, t, tsq = histogram_moments(hist[:-1])
            rows.append(_mean_row(f"side {SIDES[side]}: first turn with square >= 5", t, tsq, c))
    for side in range(2):
        c, t, tsq = histogram_moments(counters["deal_score"][side])
        # histogram index is score + 1
        t -= c
        tsq = tsq - 2 * (t + c) + c
        rows.append(_mean_row(f"mean deal score, side {SIDES[side]}", t, tsq, c))
        c, t, tsq = histogram_moments(counters["final_square"][side])
        rows.append(_mean_row(f"mean final square score, side {SIDES[side]}", t, tsq, c))
    rows.append(_mean_row("mean net score A - B", int(counters["net_sum"][0]), int(counters["net_sq"][0]), n))
    kinds = counters["actions"][:players]
    total_actions = int(kinds.sum())
    for k, name in enumerate(("place in own square", "place in opponents' square", "discard", "Q/J removal")):
        of_kind = int(kinds[:, k].sum())
        if "kind_moments" in counters:       # a share of the actions, which come in deals
            xx, xy = (int(v) for v in counters["kind_moments"][k])
            rows.append(_share(f"action: {name}", of_kind, total_actions, xx, int(counters["actions_sq"][0]), xy, n))
        else:                                # (runs stored before 0.8.11)
            rows.append(_rate(f"action: {name}", of_kind, total_actions))
    if players == 4:
        asks = int(counters["asks"][0])
        asks_sq = counters["asks_sq"][0] if "asks_sq" in counters else None   # (not before 0.8.11)
        mean, low, high = mean_interval_if_counted(asks, asks_sq, n)
        rows.append(dict(event="partner asked, mean times per deal", count=asks, n=n, estimate=mean, ci_low=low,
                         ci_high=high))
        refusals = int(counters["refusals"][0])
        if not asks:
            rows.append(dict(event="partner refused (share of asks)", count=0, n=0, estimate=np.nan, ci_low=np.nan,
                             ci_high=np.nan))
        elif "refusal_moments" in counters:
            rr, ra = (int(v) for v in counters["refusal_moments"])
            rows.append(_share("partner refused (share of asks)", refusals, asks, rr, int(asks_sq), ra, n))
        else:
            rows.append(_rate("partner refused (share of asks)", refusals, asks))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def thresholds_table(counters: dict) -> pd.DataFrame:
    """Mean net score per deal and seating of the tested side for every closing threshold, with
    paired 95% intervals for the difference to closing at 5 and to the best threshold."""
    n = int(counters["deals"][0])
    s = counters["net_sum"].astype(float)
    cross = counters["net_cross"].astype(float)
    names = [("never" if t >= NEVER else f"at {t}") for t in core.THRESHOLD_VARIANTS]
    seatings = 2.0
    means = s / n / seatings
    best = int(np.argmax(means))

    def paired(i, j):
        d_sum = s[i] - s[j]
        d_sq = cross[i, i] - 2 * cross[i, j] + cross[j, j]
        return mean_interval(d_sum / seatings, d_sq / seatings ** 2, n)

    rows = []
    for i, name in enumerate(names):
        mean, lo, hi = mean_interval(s[i] / seatings, cross[i, i] / seatings ** 2, n)
        d5, d5_lo, d5_hi = paired(i, 0)
        db, db_lo, db_hi = paired(i, best)
        rows.append(dict(threshold=name, n=n, mean_net=mean, ci_low=lo, ci_high=hi,
                         closed_rate=counters["closed"][i] / (n * seatings),
                         diff_vs_at5=d5, diff_vs_at5_low=d5_lo, diff_vs_at5_high=d5_hi,
                         diff_vs_best=db, diff_vs_best_low=db_lo, diff_vs_best_high=db_hi,
                         best=i == best))
    return pd.DataFrame(rows)


def match_table(counters: dict, rules: dict) -> pd.DataFrame:
    m = int(counters["matches"][0])
    c, t, tsq = histogram_moments(counters["deals"])
    rows = [_rate("side A wins", counters["winner"][0], m), _rate("side B wins", counters["winner"][1], m),
            _rate("drawn", counters["winner"][2], m),
            _rate(f"unfinished after {len(counters['deals']) - 1:,} deals", counters["unfinished"][0], m),
            _mean_row("deals per match", t, tsq, c),
            _rate("deals closed", counters["closed_deals"][0], counters["total_deals"][0])]
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


# ---------------------------------------------------------------------------------------------
# Single-deal API: squares, scoring, a given deal played move by move

def deck_of(rules_or_size) -> Deck:
    size = rules_or_size["deck"] if isinstance(rules_or_size, dict) else int(rules_or_size)
    if size not in DECKS:
        raise ValueError(f"no {size}-card pack; choose one of {', '.join(map(str, DECKS))}")
    return DECKS[size]


def parse_square(square, deck: int = 32) -> list[str | None]:
    """Nine cells, row by row, from text like ``"7H 8H TD / 8D JD 9H / QD KD AD"`` (``--`` = empty
    cell; slashes optional) or a list of nine card strings / None."""
    pack = deck_of(deck)
    if isinstance(square, str):
        if "/" in square:   # slashes, when given, must cut three rows of three
            rows = [row.split() for row in square.split("/")]
            bad = next((i for i, row in enumerate(rows) if len(row) != 3), None)
            if len(rows) != 3 or bad is not None:
                raise ValueError(f"a square written with '/' has 3 rows of 3 cells, got "
                                 f"{' / '.join(str(len(row)) for row in rows)} cells in {square!r}")
        tokens = square.replace("/", " ").split()
    elif isinstance(square, (bytes, bytearray)):
        raise ValueError("a square must be text or a list of nine cells, not bytes")
    else:
        try:
            tokens = ["--" if t is None else t for t in square]
        except TypeError:
            raise ValueError(f"a square must be text or a list of nine cells, not {type(square).__name__}") from None
    if len(tokens) != CELLS:
        raise ValueError(f"a square has 9 cells, got {len(tokens)}")
    cells: list[str | None] = []
    seen = set()
    for token in tokens:
        if not isinstance(token, str):
            raise ValueError(f"cell {token!r} is not a card string")
        if token.strip() in ("--", "-", "."):
            cells.append(None)
            continue
        card = parse_card(token)
        pack.bit(card)
        if card in seen:
            raise ValueError(f"duplicate card {card!r} in the square")
        seen.add(card)
        cells.append(card)
    return cells


def _codes(cells, pack: Deck) -> np.ndarray:
    return np.array([[255 if c is None else pack.bit(c) for c in cells]], np.uint8)


@dataclass(frozen=True)
class SquareScore:
    cells: tuple
    lines: tuple            # (line name, cards, points) for every line
    total: int
    closable: bool
    closer_score: int | None

    def explain(self) -> str:
        rows = [" ".join(c or "--" for c in self.cells[r * 3:r * 3 + 3]) for r in range(3)]
        out = ["Square:"] + [f"    {r}" for r in rows] + [""]
        for name, cards, pts in self.lines:
            why = "has an empty cell" if None in cards else ("one suit" if pts == 2 else
                                                             "one colour, mixed suits" if pts == 1 else "mixed colours")
            out.append(f"{name:16s} {' '.join(c or '--' for c in cards):9s} {pts}  ({why})")
        out.append(f"\nTotal {self.total}." + (f" Closing scores {self.total} + {max(0, self.total - CLOSE_MIN)} - 1 = "
                                              f"{self.closer_score}." if self.closable else " Too few points to close."))
        return "\n".join(out)


def _line_points(cards) -> int:
    if None in cards:
        return 0
    suits = {c[1] for c in cards}
    if len(suits) == 1:
        return 2
    return 1 if len({s in "HD" for s in suits}) == 1 else 0


def score_square(square, deck: int = 32) -> SquareScore:
    """Score one square (text or nine cells); the total comes from the compiled kernel, the line
    breakdown is for the explanation."""
    pack = deck_of(deck)
    cells = parse_square(square, deck)
    total = int(core.score_squares(_codes(cells, pack))[0])
    lines = tuple((name, tuple(cells[i] for i in line), _line_points([cells[i] for i in line]))
                  for name, line in zip(LINE_NAMES, LINES))
    closable = total >= CLOSE_MIN
    return SquareScore(tuple(cells), lines, total, closable, int(core.closer_score(total)) if closable else None)


def deal_result(closer_square, other_square, closed: bool = True, deck: int = 32) -> tuple[int, int]:
    """Deal scores (closer's side, other side) of two final squares; with closed=False both sides
    score their plain totals. Raises ValueError if the closing side has fewer than 5 points or the
    two squares share a card."""
    a, b = score_square(closer_square, deck), score_square(other_square, deck)
    shared = {c for c in a.cells if c} & {c for c in b.cells if c}
    if shared:
        raise ValueError(f"card {sorted(shared)[0]!r} is in both squares")
    if not closed:
        return a.total, b.total
    if not a.closable:
        raise ValueError(f"a side whose square scores {a.total} may not close (needs at least {CLOSE_MIN})")
    return a.closer_score, b.total


class SquareDeal:
    """A given deal played move by move with legality checks (ValueError naming the problem).

    ``hands`` lists every seat's cards (seat 0 moves first; sides: seats 0, 2 = A, 1, 3 = B).
    ``stock`` (deal=draw8) is drawn from top to bottom at the start of each turn."""

    def __init__(self, hands, rules: str = "r1", stock=None, **overrides):
        self.rules = GAME.resolve_rules(rules, overrides)
        self.pack = deck_of(self.rules)
        players = self.rules["players"]
        if isinstance(hands, str) or len(hands) != players:
            raise ValueError(f"expected {players} hands (one per seat), got "
                             f"{1 if isinstance(hands, str) else len(hands)}")
        size = 8 if self.rules["deal"] == "draw8" else self.pack.size // players
        self.hands = [self.pack.parse(h, size, f"seat {i} hand") for i, h in enumerate(hands)]
        self.stock = self.pack.parse(stock or [], None, "stock")
        everything = [c for h in self.hands for c in h] + self.stock
        if len(set(everything)) != len(everything):
            dup = next(c for c in everything if everything.count(c) > 1)
            raise ValueError(f"card {dup!r} is dealt twice")
        self.squares = [[None] * CELLS, [None] * CELLS]
        self.discards: list[str] = []
        self.seat = 0
        self.refused = [False] * players
        self.closer: int | None = None
        self._drawn = False
        self._acted = False
        self._draw()

    def side(self, seat: int | None = None) -> int:
        return (self.seat if seat is None else seat) % 2

    def score(self, side: int) -> int:
        return int(core.score_squares(_codes(self.squares[side], self.pack))[0])

    @property
    def over(self) -> bool:
        return self.closer is not None or (not self.stock and not any(self.hands))

    def _draw(self):
        if self.rules["deal"] == "draw8" and self.stock and not self._drawn:
            self.hands[self.seat].append(self.stock.pop(0))
        self._drawn = True

    def _take(self, card: str) -> str:
        if self.over:
            raise ValueError("the deal is over")
        if self._acted:
            raise ValueError(f"seat {self.seat} has acted; close or call next_turn()")
        card = parse_card(card)
        if card not in self.hands[self.seat]:
            raise ValueError(f"card {card!r} is not in seat {self.seat}'s hand")
        return card

    def _target(self, square: str) -> int:
        if square not in ("own", "opponents"):
            raise ValueError(f"square must be 'own' or 'opponents', got {square!r}")
        return self.side() if square == "own" else 1 - self.side()

    def place(self, card: str, square: str, cell: int):
        card = self._take(card)
        t = self._target(square)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise ValueError(f"cell must be 0..8, got {cell!r}")
        if self.rules["placement"] == "rank_fixed" and cell != self.pack.ranks.index(card[0]):
            raise ValueError(f"with rank-fixed places {card} goes to cell {self.pack.ranks.index(card[0])}, not {cell}")
        if self.squares[t][cell] is not None:
            if self.rules["cover"] != "yes":
                raise ValueError(f"cell {cell} of the {square} square is occupied by {self.squares[t][cell]}")
            self.discards.append(self.squares[t][cell])
        self.squares[t][cell] = card
        self._done(card)

    def discard(self, card: str):
        card = self._take(card)
        self.discards.append(card)
        self._done(card)

    def remove(self, card: str, square: str, cell: int):
        card = self._take(card)
        if card[0] not in "QJ":
            raise ValueError(f"only a queen or a jack removes a card, not {card}")
        if self.rules["qj_remove"] == "none":
            raise ValueError("removal is switched off (qj_remove=none)")
        t = self._target(square)
        if square == "opponents" and self.rules["qj_remove"] != "any":
            raise ValueError("a Q or J removes only from the own square (qj_remove=own)")
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise ValueError(f"cell must be 0..8, got {cell!r}")
        if self.squares[t][cell] is None:
            raise ValueError(f"cell {cell} of the {square} square is empty: nothing to remove")
        self.discards += [self.squares[t][cell], card]
        self.squares[t][cell] = None
        self._done(card)

    def _done(self, card):
        self.hands[self.seat].remove(card)
        self._acted = True

    def close(self, partner_answer: bool | None = None) -> bool:
        """Close the deal now (after one's action, or before it with close_timing=turn_start). In
        2-vs-2 pass the partner's answer if he was asked: a "no" forbids closing for this deal."""
        if self.closer is not None:
            raise ValueError("the deal is already closed")
        after = self.rules["close_timing"] == "after_action"
        if after and not self._acted:
            raise ValueError("closing comes right after one's own action (close_timing=after_action)")
        if not after and self._acted:
            raise ValueError("closing comes at the start of one's turn (close_timing=turn_start)")
        s = self.score(self.side())
        if s < CLOSE_MIN:
            raise ValueError(f"a side with {s} points may not close (needs at least {CLOSE_MIN})")
        if self.refused[self.seat]:
            raise ValueError(f"seat {self.seat} was refused by the partner and may not close in this deal")
        if partner_answer is not None:
            if self.rules["players"] != 4:
                raise ValueError("only the 2-vs-2 game has a partner to ask")
            if not partner_answer:
                self.refused[self.seat] = True
                return False
        self.closer = self.seat
        return True

    def next_turn(self):
        if self.over:
            raise ValueError("the deal is over")
        if not self._acted:
            raise ValueError(f"seat {self.seat} must act first")
        players = self.rules["players"]
        self._acted = False
        self._drawn = False
        for _ in range(players):
            self.seat = (self.seat + 1) % players
            self._draw()
            if self.hands[self.seat]:
                return
            self._drawn = False

    def result(self) -> tuple[int, int]:
        """Deal scores of sides A and B (the deal must be over)."""
        if not self.over:
            raise ValueError("the deal is not over")
        scores = [self.score(0), self.score(1)]
        out = list(scores)
        closer = self.closer
        if closer is None and self.rules["no_closer"] == "last_actor":
            closer = self.seat
        if closer is not None:
            out[closer % 2] = int(core.closer_score(scores[closer % 2]))
        return out[0], out[1]


# ---------------------------------------------------------------------------------------------
# A seeded deal played by the kernel, as readable text (golden files, `kozyr square play`)

def play_deal(seed: int, rules: str = "r1", strategies: dict | None = None, first: int = 0, **overrides) -> dict:
    """Deal and play one deal from `seed` with the compiled strategies; returns the kernel's log
    with cards as strings."""
    options = GAME.resolve_rules(rules, overrides)
    chosen = GAME.analysis("play").resolve_strategies(strategies)
    check_partner_roles(options, chosen)
    pack = deck_of(options)
    gens = [np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0, k))) for k in range(2)]
    log = core.play_logged(gens[0], gens[1], kernel_spec(options, chosen), first)
    card = lambda code: None if code is None else pack.card(code)  # noqa: E731
    log["hands"] = [pack.from_mask(m) for m in log["hands"]]
    log["stock"] = [card(c) for c in log["stock"]]
    for t in log["turns"]:
        t["card"], t["displaced"] = card(t["card"]), card(t["displaced"])
    log["squares"] = [[card(c) for c in sq] for sq in log["squares"]]
    log.update(rules=rules, options=options, strategies=chosen, seed=seed)
    return log


def format_deal(log: dict) -> str:
    o = log["options"]
    lines = [f"Square game, rules {log['rules']} ({', '.join(f'{k}={v}' for k, v in sorted(o.items()))})",
             f"strategies: {', '.join(f'{k}={v}' for k, v in log['strategies'].items())}; seed {log['seed']}; "
             f"first to move: seat {log['first']}", ""]
    for seat, hand in enumerate(log["hands"]):
        lines.append(f"seat {seat} (side {SIDES[seat % 2]}): {' '.join(hand)}")
    if log["stock"]:
        lines.append(f"stock: {' '.join(log['stock'])}")
    lines.append("")
    for t in log["turns"]:
        who = f"{t['turn']:2d}. seat {t['seat']}"
        own = t["side"] == t["seat"] % 2
        where = ("own" if own else "opponents'") + f" square cell {t['cell']}"
        if t["kind"] == "place":
            text = f"places {t['card']} in {where}" + (f", covering {t['displaced']}" if t["displaced"] else "")
        elif t["kind"] == "remove":
            text = f"plays {t['card']} and removes {t['displaced']} from {where}"
        elif t["kind"] == "discard":
            text = f"discards {t['card']}"
        else:
            text = "closes at the start of the turn"
        extra = ""
        if t["asked"]:
            extra += " asks partner: " + ("yes" if t["agreed"] else "no")
        if t["closed"] and t["kind"] != "close":
            extra += " and closes"
        lines.append(f"{who} {text}{extra}   [A {t['score'][0]}, B {t['score'][1]}]")
    lines.append("")
    for side in range(2):
        sq = log["squares"][side]
        lines.append(f"side {SIDES[side]} square: " + " / ".join(" ".join(c or "--" for c in sq[r * 3:r * 3 + 3])
                                                              for r in range(3)) + f"  = {log['square_score'][side]}")
    closer = log["closer"]
    lines.append("closed by " + (f"seat {closer} (side {SIDES[closer % 2]})" if closer is not None else "nobody"))
    lines.append(f"deal score: A {log['deal_score'][0]}, B {log['deal_score'][1]}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DEALS = 200_000
REPORT_THRESHOLD_DEALS = 20_000
REPORT_MATCHES = 20_000
REPORT_SQUARES = 2_000_000
# Shard sizes by analysis: a few seconds of work each, so two workers share a run.
SHARD_SIZES = {"play": 20_000, "thresholds": 2_000, "match": 2_000, "baseline": 200_000, "compare": 10_000}
# (label, preset, overrides, strategies) of the sensitivity table
VARIANTS = [
    ("R1 default", "r1", {}, {}),
    ("qj_remove=any", "r1", {"qj_remove": "any"}, {}),
    ("qj_remove=none", "r1", {"qj_remove": "none"}, {}),
    ("cover=yes", "r1", {"cover": "yes"}, {}),
    ("deal=draw8", "r1", {"deal": "draw8"}, {}),
    ("close_timing=turn_start", "r1", {"close_timing": "turn_start"}, {}),
    ("no_closer=last_actor", "r1", {"no_closer": "last_actor"}, {}),
    ("deck=36, placement=rank_fixed", "r1", {"deck": 36, "placement": "rank_fixed"}, {}),
    ("deck=52", "r1", {"deck": 52}, {}),
    ("greedy vs greedy", "r1", {}, {"play_a": "greedy", "play_b": "greedy"}),
    ("random vs random", "r1", {}, {"play_a": "random", "play_b": "random"}),
    ("2 vs 2 (r1_four)", "r1_four", {}, {}),
    ("2 vs 2, ask partner (agrees at 7)", "r1_four", {}, {"ask": "always", "agree": "at7"}),
]
THRESHOLD_VARIANTS = [VARIANTS[0], VARIANTS[2], VARIANTS[7]]


def _report_run(ctx, analysis: str, rules: str, deals: int, overrides: dict | None = None,
                strategies: dict | None = None):
    return ctx.run("square", analysis, rules, deals, overrides, strategies, shard_size=SHARD_SIZES[analysis])


def _r1_summary(counters: dict) -> str:
    """A few sentences on when deals close, computed from the counters."""
    n = int(counters["deals"][0])
    closed = int(counters["closed"][0])
    if not closed:
        return f"None of the {n:,} deals was closed."
    turns = counters["close_turn"][:-1]
    top = np.argsort(turns)[::-1][:2]
    at6 = counters["close_square"][6] / closed
    early = turns[:16].sum() / closed
    text = (f"{closed / n:.1%} of the {n:,} deals were closed; the commonest closing turns were {top.min()} and "
            f"{top.max()} ({turns[top].sum() / closed:.1%} of the closings), {early:.1%} of the closings came in "
            f"the first 16 turns, {at6:.1%} with a square of exactly 6.")
    if early > 0.9:
        text += (" With these strategies a deal is closed early or never: once both squares are full of "
                 "spoiling cards, neither side reaches 5 again.")
    return text


def _value(table: pd.DataFrame, event: str) -> float:
    rows = table[table.event == event]
    return float(rows.estimate.iloc[0]) if len(rows) else np.nan


def _half_width(table: pd.DataFrame, event: str) -> float:
    rows = table[table.event == event]
    return float(rows.ci_high.iloc[0] - rows.ci_low.iloc[0]) / 2 if len(rows) else np.nan


# the sensitivity table's columns: (column, play_table event, a rate?)
SENSITIVITY_COLUMNS = [
    ("closed", "deal closed", True),
    ("first_mover_share", "first mover's share of closings", True),
    ("side_A_could_close", "side A square reached 5 at some point", True),
    ("closing_turn", "turn of closing (0 = first action), closed deals", False),
    ("closing_S", "closer's square score S", False),
    ("deal_score_A", "mean deal score, side A", False),
    ("deal_score_B", "mean deal score, side B", False),
    ("net_A_minus_B", "mean net score A - B", False),
]


def build_report(ctx) -> list:
    from ..report import Section, interval_bars, rate_bars, widest_half_widths
    import matplotlib.pyplot as plt

    sections = []
    intro = (
        "The original rules of this game are lost. Seed 003 keeps only the end of its description: how a "
        "deal is scored (lines of a 3x3 square: one suit 2, one colour 1), that a side with 5 or more may "
        "close (its score S + (S - 5) - 1 = 2S - 6, the opponents score their square), the 2-vs-2 variant "
        "with 'partner, may I close?' and the length of a match. The deck, the deal, the moves and the "
        "Q/J removal are our reconstruction R1 (shared/rules/square.md), and every number below depends "
        "on it. Each reconstructed rule is an option; the sensitivity table shows how the answers move "
        "when an option changes. Only the random-square baseline and the scoring are independent of the "
        "reconstruction.\n\n"
        "Options: " + "; ".join(f"{k} = {PRESETS['r1'][k]!s} ({v})" for k, v in OPTION_NOTES.items()) + ".\n\n"
        "Strategies: spoiler (own line potential minus the opponents'), greedy line-builder (own potential "
        "only), random (uniform over legal actions); closing threshold: close as soon as the square has at "
        "least t points, and always with 6 or more when the deal would end anyway. Side A moves first. "
        "PIMC over the unseen cards was not built. In the two-player game of R1 the whole pack is dealt and "
        "discards lie face up, so the unseen cards are exactly the opponent's hand: there is nothing to "
        "sample, and a determinized search would be a plain lookahead. In 2 vs 2 and with deal=draw8 cards "
        "are hidden, but the threshold study below finds the closing decision worth at most a few tenths "
        "of a point a deal, so a sampling search was not expected to pay for its cost.")
    # Baseline
    base = _report_run(ctx, "baseline", "r1", REPORT_SQUARES)
    base_table = baseline_table(base.counters, base.config.rule_options)
    base52 = _report_run(ctx, "baseline", "r1", REPORT_SQUARES // 4, {"deck": 52})
    base52_table = baseline_table(base52.counters, base52.config.rule_options)
    sections.append(Section("The square game: what is known and what is reconstructed", intro))
    sections.append(Section(
        "Random-square baseline (§7): simulation beside the exact values",
        "Squares of distinct uniformly random cards, scored by the compiled kernel; `exact` is computed "
        "in code by enumerating the 4^9 suit patterns (rules file §7: E = 336/155, P(>= 5) = "
        "407257/7888725 for 32 cards). By chance alone a square reaches 5 about one time in twenty.",
        tables=[("Random squares, 32 cards", base_table[base_table.event.isin(
            ["mean score", "score >= 5 (closable)"]) | base_table.square.eq("9 random cards")]),
                ("Random squares, 52 cards", base52_table[base52_table.event.isin(["mean score", "score >= 5 (closable)"])])]))
    # Play under R1 and variants
    summary, tables = [], {}
    halves = {column: [] for column, _, _ in SENSITIVITY_COLUMNS}
    for label, preset, overrides, strategies in VARIANTS:
        result = _report_run(ctx, "play", preset, REPORT_DEALS, overrides, strategies)
        table = play_table(result.counters, result.config.rule_options)
        tables[label] = (table, result)
        row = dict(variant=label, deals=int(result.counters["deals"][0]))
        for column, event, _ in SENSITIVITY_COLUMNS:
            row[column] = _value(table, event)
            halves[column].append(_half_width(table, event))
        summary.append(dict(row, closed_deals=int(result.counters["closed"][0])))
    r1_table, r1_result = tables["R1 default"]
    sections.append(Section(
        "Closing and deal scores under R1 (spoiler against spoiler, close at 5)",
        "How often a deal is closed, by whom, when (turn index from 0; two players make 32 actions when "
        "nobody closes) and with which square; how often each side's square reached 5 at some moment "
        "(whether or not it closed); mean deal scores with 95% intervals.\n\n" + _r1_summary(r1_result.counters),
        tables=[("R1 play", r1_table), ("2 vs 2 play", tables["2 vs 2 (r1_four)"][0]),
                ("2 vs 2 play, asking the partner", tables["2 vs 2, ask partner (agrees at 7)"][0])]))
    # Thresholds
    th_tables, th_summary = [], []
    for label, preset, overrides, strategies in THRESHOLD_VARIANTS:
        result = _report_run(ctx, "thresholds", preset, REPORT_THRESHOLD_DEALS, overrides, strategies)
        table = thresholds_table(result.counters)
        th_tables.append((f"Closing thresholds, {label}", table))
        best = table[table.best].iloc[0]
        at5 = table.iloc[0]
        th_summary.append(dict(variant=label, n=int(best.n), best_threshold=best.threshold,
                               best_mean_net=best.mean_net, best_ci_low=best.ci_low, best_ci_high=best.ci_high,
                               at5_mean_net=at5.mean_net, best_minus_at5=-at5.diff_vs_best,
                               ci_low=-at5.diff_vs_best_high, ci_high=-at5.diff_vs_best_low))
    sections.append(Section(
        "When to close: closing at 5 versus waiting",
        "Duplicate deals: each deal is played once per threshold of the tested side (spoiler), in both "
        "seatings, against a spoiler closing at 5; `mean_net` is the tested side's deal score minus the "
        "opponents' per deal and seating. The differences are paired (same deals), with 95% intervals; "
        "`best` marks the threshold with the highest mean. An interval of a difference that contains 0 "
        "means the data do not separate the two thresholds. At 5 the tested side plays exactly like its "
        "opponents, so its two seatings cancel and its mean is 0 by construction: every other row is the "
        "gain of that threshold over closing at the first chance. Thresholds that give identical rows "
        "never differ in play: the spoiler builds one-suit lines, so squares mostly jump by 2 (6 to 8, "
        "8 to 10). The best threshold is picked by these same deals, so its mean and its gain over 5 "
        "lean a little high (the winner's curse); the paired intervals of the full tables below say "
        "whether it is separated from its neighbours.",
        tables=[("Best threshold by variant", pd.DataFrame(th_summary))] + th_tables))
    # Sensitivity
    sections.append(Section(
        "Sensitivity to the reconstructed options",
        "Every row changes one reconstructed option (or the strategies) of R1 and replays the same number "
        "of deals with the same seed. If the original rules are found, the row that matches them is the "
        "one to believe; rows that differ widely show which lost rule matters most. The excerpt presents "
        "closing (with 10 points) as the normal end of a deal, which fits the variants with frequent "
        "closing better than R1. "
        + widest_half_widths(halves, [column for column, _, rate in SENSITIVITY_COLUMNS if rate]),
        tables=[("Sensitivity of the main answers", pd.DataFrame(summary))]))
    # Match
    match_rows = []
    for label, preset, overrides in (("to 33, two players", "r1", {}), ("4 deals, two players", "r1", {"match": "deals"}),
                                     ("to 33, 2 vs 2", "r1_four", {})):
        result = _report_run(ctx, "match", preset, REPORT_MATCHES, overrides)
        t = match_table(result.counters, result.config.rule_options)
        t.insert(0, "match", label)
        match_rows.append(t)
    sections.append(Section("Matches", "The first mover rotates each deal; spoiler strategies closing at 5.",
                            tables=[("Match results", pd.concat(match_rows, ignore_index=True))]))
    # Figures
    fig, ax = plt.subplots(figsize=(8, 4))
    hist = r1_result.counters["close_turn"][:-1]
    if hist.sum():
        ax.bar(np.arange(len(hist)), hist / r1_result.counters["deals"][0])
    ax.set_xlabel("turn of closing (R1, spoiler vs spoiler, close at 5)")
    ax.set_ylabel("share of deals")
    sections[2].figures.append(("When deals are closed under R1.", fig))
    fig, ax = plt.subplots(figsize=(8, 4))
    for label, table in th_tables:
        ax.errorbar(np.arange(len(table)), table.mean_net, yerr=[table.mean_net - table.ci_low, table.ci_high - table.mean_net],
                    marker="o", capsize=3, label=label)
        ax.set_xticks(np.arange(len(table)), table.threshold)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("closing threshold of the tested side")
    ax.set_ylabel("mean net score per deal")
    ax.legend()
    sections[3].figures.append(("Mean net score of the tested side by closing threshold (95% intervals).", fig))
    rates = base_table[base_table["count"].notna() & ((base_table.exact >= 0.001) | base_table.event.str.contains("closable"))]
    sections[1].figures.append(("Random squares of 32 cards: simulated rates with 95% intervals, exact values in red "
                                "(scores rarer than 0.1% left out).",
                                rate_bars(rates.assign(label=rates.square + ": " + rates.event), "label")))
    closed = pd.concat([tables[label][0].query("event == 'deal closed'").assign(variant=label) for label in tables])
    net = pd.concat([tables[label][0].query("event == 'mean net score A - B'").assign(variant=label) for label in tables])
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.5), sharey=True)
    rate_bars(closed, "variant", title="deals closed", ax=axes[0])
    interval_bars(net.variant, net.estimate, net.ci_low, net.ci_high, "mean net score A - B per deal",
                  title="side A's advantage (A moves first)", ax=axes[1])
    fig.tight_layout()
    sections[4].figures.append(("How each reconstructed option and each strategy pairing moves the closing rate and "
                                "the first mover's advantage (95% intervals).", fig))
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr square score | play | odds | thresholds | baseline | match

def register_cli(sub) -> None:
    from .. import cli

    score = sub.add_parser("score", help="score one square (and the deal if it closes)")
    score.add_argument("square", help='nine cells row by row, e.g. "7H 8H TD / 8D JD 9H / QD KD AD" (-- = empty)')
    score.add_argument("--other", help="the other side's square: print the deal result with the first one closing")
    score.add_argument("--deck", type=int, default=32, choices=sorted(DECKS))
    score.set_defaults(handler=_cmd_score)

    play = sub.add_parser("play", help="deal and play one seeded deal, turn by turn")
    play.add_argument("--seed", type=cli.seed, default=1)
    play.add_argument("--rules", default="r1", choices=list(PRESETS))
    cli.add_set_option(play)
    play.add_argument("--strategy", dest="strategies", type=cli.option, action=cli.Repeatable, default=[], metavar="ROLE=NAME")
    play.set_defaults(handler=_cmd_play)

    for name, analysis, default, helptext in (
            ("odds", "play", 200_000, "closing rates, deal scores, actions of played deals"),
            ("thresholds", "thresholds", 20_000, "closing at 5 versus waiting: paired threshold comparison"),
            ("baseline", "baseline", 1_000_000, "random squares beside the exact values of §7"),
            ("match", "match", 20_000, "whole matches")):
        p = sub.add_parser(name, help=helptext)
        cli.add_run_options(p, "square", default_deals=default, analysis=analysis)
        if GAME.analysis(analysis).strategies:
            cli.add_strategy_option(p, "square", analysis)
        p.set_defaults(handler=_cmd_analysis, analysis=analysis)


def _cmd_score(args) -> int:
    result = score_square(args.square, args.deck)
    deal = None
    if args.other:   # checked before anything is printed
        try:
            score_square(args.other, args.deck)
        except ValueError as exc:
            raise ValueError(f"--other: {exc}") from None
        deal = deal_result(args.square, args.other, closed=True, deck=args.deck)
    print(result.explain())
    if deal:
        print(f"\nDeal: the closing side scores {deal[0]}, the other side {deal[1]}.")
    return 0


def _cmd_play(args) -> int:
    log = play_deal(args.seed, args.rules, dict(args.strategies), **dict(args.overrides))
    print(format_deal(log), end="")
    return 0


def _cmd_analysis(args) -> int:
    from .. import cli

    args.shard_size = args.shard_size or SHARD_SIZES[args.analysis]
    return cli.emit_summary(args, cli.execute(args, "square", args.analysis))
