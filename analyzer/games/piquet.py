"""Two-handed piquet (shared/rules/piquet.md): rule presets, the declarations analysis on the dealt
hands, the exact single-hand probabilities it is checked against, and the single-deal API.

Presets (§12): ``ru_seed`` (the seed's Russian game, tierce 13 / quart 14), ``ru_seed_seq34`` (the
same with tierce 3 / quart 4) and ``classic`` (Rubicon piquet; repique in reckoning order).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from .._core import piquet as core
from ..cards import PIQUET32, Cards, check_disjoint
from ..stats import histogram_moments, mean_interval, wilson
from . import Analysis, Game

HAND_SIZE = 12
PLAYERS = ("elder", "younger")
CATEGORIES = ("carte blanche", "point", "sequences", "sets")
SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}
RANK_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "T": "tens"}
PIPS = {"7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}

_COMMON = dict(point_tiebreak="pips", carte_blanche_value=10, trio_value=3, quatorze_value=14,
               repik_threshold=30, repik_bonus=60)
PRESETS: dict[str, dict[str, Any]] = {
    "ru_seed": dict(_COMMON, seq_values=(13, 14, 15, 16, 17, 18), repik_rule="opp_decl_zero"),
    "ru_seed_seq34": dict(_COMMON, seq_values=(3, 4, 15, 16, 17, 18), repik_rule="opp_decl_zero"),
    "classic": dict(_COMMON, seq_values=(3, 4, 15, 16, 17, 18), repik_rule="reckoning_order"),
}
_CHOICES = {"point_tiebreak": ("pips", "none"), "repik_rule": ("opp_decl_zero", "reckoning_order")}
_LIMITS = {"carte_blanche_value": (0, 100), "trio_value": (0, 100), "quatorze_value": (0, 100),
           "repik_threshold": (1, 200), "repik_bonus": (0, 500)}


def _int(key: str, value: Any, low: int, high: int) -> int:
    try:
        number = int(value) if not isinstance(value, bool) and str(value).strip().lstrip("-").isdigit() else None
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:
        raise ValueError(f"option {key} must be an integer from {low} to {high}, got {value!r}")
    return number


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise ValueError(f"option {key} must be one of {', '.join(_CHOICES[key])}, got {value!r}")
        return value
    if key in _LIMITS:
        return _int(key, value, *_LIMITS[key])
    if key == "seq_values":
        items = value.split(",") if isinstance(value, str) else value
        try:
            items = list(items)
        except TypeError:
            items = None
        if items is None or len(items) != 6:
            raise ValueError(f"option seq_values needs six values (lengths 3..8), got {value!r}")
        return tuple(_int(key, v, 0, 100) for v in items)
    raise ValueError(f"unknown piquet rule option {key!r}")


# ---------------------------------------------------------------------------------------------
# The declarations analysis

def _declarations_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.declarations_shard(bit_generators[0], n_deals, rules)


GAME = Game(
    name="piquet",
    title="Piquet (two-handed)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        "declarations": Analysis(
            "declarations",
            "Declarations (carte blanche, point, sequences, sets) and repik on the dealt hands, no exchange",
            _declarations_kernel,
        ),
    },
    report=lambda ctx: build_report(ctx),
)


# ---------------------------------------------------------------------------------------------
# Exact single-hand probabilities (§14.1), by counting: suits are independent given their sizes,
# so "every suit mask satisfies a condition" is the coefficient of x^12 in the fourth power of the
# polynomial that counts qualifying 8-bit suit masks by size.

_ALL_HANDS = comb(32, HAND_SIZE)


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * min(len(a) + len(b) - 1, HAND_SIZE + 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if i + j <= HAND_SIZE:
                out[i + j] += x * y
    return out


def _longest_run(suit_mask: int) -> int:
    best = run = 0
    for bit in range(8):
        run = run + 1 if suit_mask >> bit & 1 else 0
        best = max(best, run)
    return best


def _p_every_suit(condition) -> Fraction:
    by_size = [0] * 9
    for m in range(256):
        if condition(m):
            by_size[bin(m).count("1")] += 1
    poly = [1]
    for _ in range(4):
        poly = _poly_mul(poly, by_size)
    return Fraction(poly[HAND_SIZE] if len(poly) > HAND_SIZE else 0, _ALL_HANDS)


def _set_distribution() -> dict[tuple[int, bool], int]:
    """Hands counted by (number of quatorzes, holds a trio or better) over the ranks T..A."""
    states = {(0, 0, False): 1}  # (cards taken from high ranks, quatorzes, trio-or-better)
    for _rank in range(5):
        nxt: dict[tuple[int, int, bool], int] = {}
        for (cards, quat, trio), ways in states.items():
            for j in range(5):
                key = (cards + j, quat + (j == 4), trio or j >= 3)
                nxt[key] = nxt.get(key, 0) + ways * comb(4, j)
        states = nxt
    out: dict[tuple[int, bool], int] = {}
    for (cards, quat, trio), ways in states.items():
        if cards <= HAND_SIZE:
            out[(quat, trio)] = out.get((quat, trio), 0) + ways * comb(12, HAND_SIZE - cards)
    return out


@lru_cache(maxsize=None)
def exact_hand_probabilities() -> dict[str, Fraction]:
    """Exact probabilities of single-hand events for a 12-card hand dealt from 32 cards."""
    sets = _set_distribution()
    p = {
        "carte blanche": Fraction(comb(20, HAND_SIZE), _ALL_HANDS),
        "four aces": Fraction(comb(28, HAND_SIZE - 4), _ALL_HANDS),
        "at least one quatorze": Fraction(sum(w for (q, _), w in sets.items() if q >= 1), _ALL_HANDS),
        "at least two quatorzes": Fraction(sum(w for (q, _), w in sets.items() if q >= 2), _ALL_HANDS),
        "trio or quatorze": Fraction(sum(w for (_, t), w in sets.items() if t), _ALL_HANDS),
    }
    for k in range(4, 9):
        p[f"point length >= {k}"] = 1 - _p_every_suit(lambda m, k=k: bin(m).count("1") < k)
    for length in range(3, 9):
        p[f"sequence >= {length}"] = 1 - _p_every_suit(lambda m, L=length: _longest_run(m) < L)
    p["tierce major or better"] = 1 - _p_every_suit(lambda m: m >> 5 != 0b111)
    p["void suit"] = 1 - _p_every_suit(lambda m: m != 0)
    return p


UNCONTESTED_LEVELS = (10, 20, 30, 40, 50, 60)


@lru_cache(maxsize=None)
def exact_uncontested(seq_values: tuple, carte_blanche_value: int, trio_value: int, quatorze_value: int) -> np.ndarray:
    """Exact distribution (hand counts by value) of the uncontested hand value, by enumerating every
    12-card hand in the compiled kernel (about 2 s)."""
    spec = dict(PRESETS["ru_seed"], seq_values=seq_values, carte_blanche_value=carte_blanche_value,
                trio_value=trio_value, quatorze_value=quatorze_value)
    return core.uncontested_exact(spec)


# ---------------------------------------------------------------------------------------------
# Tables from merged counters

def _rate_rows(section: str, event: str, player: str, count, n, exact=None):
    low, high = wilson(count, n)
    return dict(section=section, event=event, player=player, count=int(count), n=int(n),
                estimate=count / n if n else np.nan, ci_low=float(low), ci_high=float(high),
                exact=float(exact) if exact is not None else np.nan)


def odds_table(counters: dict[str, np.ndarray], rules: dict[str, Any], with_exact: bool = True) -> pd.DataFrame:
    """One row per event: count, sample size, estimate, Wilson 95% interval, exact value if known.

    Hand events are per player (each row's n is the number of deals); declaration rows describe
    the contest between the two dealt hands."""
    n = int(counters["deals"][0])
    exact = exact_hand_probabilities() if with_exact else {}
    unc_exact = None
    if with_exact:
        hist = exact_uncontested(tuple(rules["seq_values"]), rules["carte_blanche_value"],
                                 rules["trio_value"], rules["quatorze_value"])
        unc_exact = {v: Fraction(int(hist[v:].sum()), _ALL_HANDS) for v in UNCONTESTED_LEVELS}
    rows = []
    for p, who in enumerate(PLAYERS):
        events = {
            "carte blanche": counters["carte_blanche"][p],
            "four aces": counters["four_aces"][p],
            "at least one quatorze": counters["quatorzes"][p, 1:].sum(),
            "at least two quatorzes": counters["quatorzes"][p, 2:].sum(),
            "trio or quatorze": counters["trio_or_better"][p],
        }
        events.update({f"point length >= {k}": counters["point_len"][p, k:].sum() for k in range(4, 9)})
        events.update({f"sequence >= {L}": counters["seq_len"][p, L:].sum() for L in range(3, 9)})
        events["tierce major or better"] = counters["ace_sequence"][p]
        events["void suit"] = counters["void_suit"][p]
        for event, count in events.items():
            rows.append(_rate_rows("hand", event, who, count, n, exact.get(event)))
        for v in UNCONTESTED_LEVELS:
            rows.append(_rate_rows("hand", f"uncontested value >= {v}", who,
                                   counters["uncontested_hist"][p, v:].sum(), n,
                                   unc_exact[v] if unc_exact else None))
    for c, category in enumerate(CATEGORIES):
        for w, winner in enumerate(("nobody", "elder", "younger")):
            rows.append(_rate_rows("declarations", f"{category} scored by", winner,
                                   counters["category_winner"][c, w], n))
    for p, who in enumerate(PLAYERS):
        rows.append(_rate_rows("declarations", "declaration total = 0", who, counters["total_hist"][p, 0], n))
        rows.append(_rate_rows("declarations", "repik", who, counters["repik"][p], n))
    rows.append(_rate_rows("declarations", "repik", "either", counters["repik"].sum(), n))
    for p, who in enumerate(PLAYERS):
        count, total, total_sq = histogram_moments(counters["total_hist"][p])
        mean, low, high = mean_interval(total, total_sq, count)
        rows.append(dict(section="declarations", event="mean declaration total", player=who, count=np.nan,
                         n=count, estimate=mean, ci_low=low, ci_high=high, exact=np.nan))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


# ---------------------------------------------------------------------------------------------
# Single-deal API

@dataclass(frozen=True)
class PlayerDeclarations:
    hand: tuple[str, ...]
    carte_blanche: int
    point: int
    sequences: int
    sets: int
    total: int
    repik: bool
    uncontested: int


@dataclass(frozen=True)
class DeclarationResult:
    rules: str
    options: dict
    elder: PlayerDeclarations
    younger: PlayerDeclarations

    def explain(self) -> str:
        return explain_declarations(self)


def score_declarations(elder: Cards, younger: Cards, rules: str = "ru_seed", **overrides) -> DeclarationResult:
    """Score the declarations of two 12-card hands (card strings or lists of card strings).

    ``rules`` names a preset; keyword arguments override its options. Raises ValueError for
    malformed or duplicate cards, wrong hand sizes and unknown options."""
    options = GAME.resolve_rules(rules, overrides)
    hands = [PIQUET32.parse(h, HAND_SIZE, f"{who} hand") for h, who in ((elder, "elder"), (younger, "younger"))]
    check_disjoint(hands, PLAYERS)
    masks = [PIQUET32.mask(h) for h in hands]
    row = core.score_deals(np.array([masks[0]]), np.array([masks[1]]), options)[0]
    players = []
    for p in range(2):
        base = 2 + p * len(core.PLAYER_FIELDS)
        fields = dict(zip(core.PLAYER_FIELDS, (int(x) for x in row[base:base + len(core.PLAYER_FIELDS)])))
        fields["repik"] = bool(fields["repik"])
        players.append(PlayerDeclarations(hand=tuple(PIQUET32.from_mask(masks[p])), **fields))
    return DeclarationResult(rules, options, *players)


def _suits(hand) -> dict[str, list[str]]:
    order = PIQUET32.ranks
    by_suit: dict[str, list[str]] = {s: [] for s in "SHDC"}
    for card in hand:
        by_suit[card[1]].append(card[0])
    return {s: sorted(r, key=order.index, reverse=True) for s, r in by_suit.items()}


def describe_holdings(hand) -> dict[str, str]:
    """Plain-language holdings of a hand in each category (for the explain command)."""
    suits = _suits(hand)
    order = PIQUET32.ranks
    blank = not any(c[0] in "KQJ" for c in hand)
    best = max(suits, key=lambda s: (len(suits[s]), sum(PIPS[r] for r in suits[s])))
    point = f"{len(suits[best])} in {best} ({sum(PIPS[r] for r in suits[best])} pips)"
    runs = []
    for s, ranks in suits.items():
        present = {order.index(r) for r in ranks}
        run = []
        for i in range(9):
            if i in present:
                run.append(i)
                continue
            if len(run) >= 3:
                top = order[run[-1]]
                head = "major" if top == "A" else f"to the {top}"
                runs.append(f"{SEQUENCE_NAMES[len(run)]} {head} in {s}")
            run = []
    counts = {r: sum(c[0] == r for c in hand) for r in "AKQJT"}
    sets = [f"{'four' if n == 4 else 'three'} {RANK_NAMES[r]}" for r, n in counts.items() if n >= 3]
    return {"carte blanche": "yes" if blank else "no", "point": point,
            "sequences": "; ".join(runs) or "none", "sets": ", ".join(sets) or "none"}


def explain_declarations(result: DeclarationResult) -> str:
    o = result.options
    lines = [f"Rules: {result.rules} (sequences 3..8 = {'/'.join(map(str, o['seq_values']))}; "
             f"point ties by {o['point_tiebreak']}; repik rule {o['repik_rule']})", ""]
    held = [describe_holdings(p.hand) for p in (result.elder, result.younger)]
    lines += [f"elder hand:   {' '.join(result.elder.hand)}",
              f"younger hand: {' '.join(result.younger.hand)}", ""]
    fields = ("carte_blanche", "point", "sequences", "sets")
    for category, field in zip(CATEGORIES, fields):
        e, y = getattr(result.elder, field), getattr(result.younger, field)
        scores = " and ".join(f"{who} scores {v}" for who, v in (("elder", e), ("younger", y)) if v) or "nobody scores"
        lines += [f"{category.capitalize()}: {scores}",
                  f"    elder:   {held[0][category]}",
                  f"    younger: {held[1][category]}"]
    lines += ["", f"Declaration totals: elder {result.elder.total}, younger {result.younger.total}"]
    bonus = o["repik_bonus"]
    for who, p in (("elder", result.elder), ("younger", result.younger)):
        if p.repik:
            lines.append(f"Repik for {who}: {p.total} + {bonus} = {p.total + bonus} before play.")
    if not (result.elder.repik or result.younger.repik):
        lines.append("No repik.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DEALS = 10_000_000
KEY_EVENTS = ("carte blanche", "at least one quatorze", "point length >= 6", "sequence >= 5",
              "uncontested value >= 30", "declaration total = 0", "repik")


def build_report(ctx) -> list:
    from ..report import Section
    import matplotlib.pyplot as plt

    sections, tables, results = [], {}, {}
    for preset in PRESETS:
        result = ctx.run("piquet", "declarations", preset, REPORT_DEALS)
        results[preset] = result
        tables[preset] = odds_table(result.counters, result.config.rule_options)
    summary = []
    for preset, df in tables.items():
        for event in KEY_EVENTS:
            for _, row in df[(df.event == event) & (df.player.isin(PLAYERS))].iterrows():
                summary.append(dict(rules=preset, **row.drop("section").to_dict()))
    sections.append(Section(
        "Piquet: declarations on the dealt hands",
        "Both players keep their dealt 12 cards (no exchange) and declare in full. Hand events are "
        "per player; `exact` comes from exact counting over all C(32,12) hands. The repik rates are "
        "the no-exchange figures of rules/piquet.md §14.4 (ru_seed 0.05240, classic 0.002701 per "
        "player, by an independent simulation).",
        tables=[("Key events by preset", pd.DataFrame(summary))]
               + [(f"All events, {preset}", df) for preset, df in tables.items()],
    ))
    fig, ax = plt.subplots(figsize=(8, 4))
    for preset, result in results.items():
        hist = result.counters["total_hist"][0]
        n = hist.sum()
        top = int(np.nonzero(hist)[0].max()) + 1
        ax.step(np.arange(top), hist[:top] / n, where="mid", label=f"{preset} (elder)")
    ax.set_xlabel("declaration total of a player (dealt hand, no exchange)")
    ax.set_ylabel("probability")
    ax.set_yscale("log")
    ax.axvline(30, color="grey", lw=0.8, ls="--")
    ax.legend()
    sections[0].figures.append(("Distribution of the elder's declaration total; the dashed line is "
                                "the repik threshold of 30.", fig))
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr piquet odds | explain

def register_cli(sub) -> None:
    from .. import cli

    odds = sub.add_parser("odds", help="declaration odds on the dealt hands (no exchange)")
    cli.add_run_options(odds, "piquet", default_deals=1_000_000)
    odds.add_argument("--no-exact", action="store_true", help="skip the exact values (saves ~2 s)")
    odds.set_defaults(handler=_cmd_odds)

    explain = sub.add_parser("explain", help="score the declarations of two given hands")
    explain.add_argument("--elder", required=True, help='12 cards, e.g. "AS KS QS ..."')
    explain.add_argument("--younger", required=True, help="12 cards")
    explain.add_argument("--rules", default="ru_seed", choices=list(PRESETS))
    explain.add_argument("--set", dest="overrides", type=cli.option, action="append", default=[], metavar="KEY=VALUE")
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=_cmd_explain)


def _cmd_odds(args) -> int:
    from .. import cli

    result = cli.execute(args, "piquet", "declarations")
    table = odds_table(result.counters, result.config.rule_options, with_exact=not args.no_exact)
    cli.emit_table(args, result, table)
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def _cmd_explain(args) -> int:
    import json
    from dataclasses import asdict

    result = score_declarations(args.elder, args.younger, args.rules, **dict(args.overrides))
    print(json.dumps(asdict(result), indent=2) if args.json else result.explain())
    return 0
