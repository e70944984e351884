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

_COMMON = dict(
    point_tiebreak="pips", carte_blanche_value=10, carte_blanche_when="dealt", trio_value=3, quatorze_value=14,
    repik_threshold=30, repik_bonus=60, pik_threshold=30, pik_bonus=30, pik_window="until_opponent_scores",
    majority_bonus=10, capot_bonus=40, rubicon_deals=6, rubicon_threshold=100,
    koroliks_per_partie=3, rounding="half_up", refet_multiplier=2, skvoznaya_bonus=100,
)
_RU = dict(
    _COMMON, repik_rule="opp_decl_zero", exchange_elder=(0, 3, 4, 5), exchange_younger=(0, 3, 4, 5),
    younger_leftover_visibility="unseen", declare_timing="all_before_lead", trick_point="every_trick",
    last_trick_mode="total", last_trick_value=4, capot_keeps_last_trick=False, open_capot=True,
    open_capot_bonus=80, open_capot_fail_penalty=80, match="korolik", dealer="random_per_korolik",
)
# §12 preset values; every key is an option that --set / keyword arguments may override.
PRESETS: dict[str, dict[str, Any]] = {
    "ru_seed": dict(_RU, seq_values=(13, 14, 15, 16, 17, 18)),
    "ru_seed_seq34": dict(_RU, seq_values=(3, 4, 15, 16, 17, 18)),
    "classic": dict(
        _COMMON, seq_values=(3, 4, 15, 16, 17, 18), repik_rule="reckoning_order",
        exchange_elder=(1, 2, 3, 4, 5), exchange_younger=(1, 2, 3, 4, 5, 6, 7, 8),
        younger_leftover_visibility="classic", declare_timing="younger_after_lead", trick_point="follower_only",
        last_trick_mode="extra", last_trick_value=1, capot_keeps_last_trick=True, open_capot=False,
        open_capot_bonus=80, open_capot_fail_penalty=80, match="rubicon", dealer="alternate_always",
    ),
}
_CHOICES = {
    "point_tiebreak": ("pips", "none"),
    "repik_rule": ("opp_decl_zero", "reckoning_order"),
    "carte_blanche_when": ("dealt", "final", "both"),
    "pik_window": ("until_opponent_scores", "whole_play"),
    "younger_leftover_visibility": ("unseen", "classic"),
    "declare_timing": ("all_before_lead", "younger_after_lead"),
    "trick_point": ("every_trick", "follower_only"),
    "last_trick_mode": ("total", "extra"),
    "match": ("korolik", "rubicon"),
    "rounding": ("half_up", "ceil"),
    "dealer": ("random_per_korolik", "alternate_always"),
}
_LIMITS = {
    "carte_blanche_value": (0, 100), "trio_value": (0, 100), "quatorze_value": (0, 100),
    "repik_threshold": (1, 200), "repik_bonus": (0, 500), "pik_threshold": (1, 200), "pik_bonus": (0, 500),
    "last_trick_value": (0, 20), "majority_bonus": (0, 100), "capot_bonus": (0, 200),
    "open_capot_bonus": (0, 400), "koroliks_per_partie": (1, 8), "refet_multiplier": (1, 4),
    "skvoznaya_bonus": (0, 500), "rubicon_deals": (2, 14), "rubicon_threshold": (0, 1000),
}
_FLAGS = ("capot_keeps_last_trick", "open_capot")
_COUNT_SETS = {"exchange_elder": 5, "exchange_younger": 8}


def _int(key: str, value: Any, low: int, high: int) -> int:
    text = str(value).strip()
    number = int(text) if not isinstance(value, bool) and text.lstrip("-").isdigit() else None
    if number is None or not low <= number <= high:
        raise ValueError(f"option {key} must be an integer from {low} to {high}, got {value!r}")
    return number


def _items(key: str, value: Any) -> list:
    items = [v for v in value.replace(" ", "").split(",") if v] if isinstance(value, str) else value
    try:
        return list(items)
    except TypeError:
        raise ValueError(f"option {key} needs a list of integers, got {value!r}") from None


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise ValueError(f"option {key} must be one of {', '.join(_CHOICES[key])}, got {value!r}")
        return value
    if key in _LIMITS:
        return _int(key, value, *_LIMITS[key])
    if key in _FLAGS:
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "1", "yes"):
            return True
        if str(value).lower() in ("false", "0", "no"):
            return False
        raise ValueError(f"option {key} must be true or false, got {value!r}")
    if key == "open_capot_fail_penalty":
        penalty = _int(key, value, 0, 80)
        if penalty not in (0, 40, 80):
            raise ValueError(f"option open_capot_fail_penalty must be 0, 40 or 80, got {value!r}")
        return penalty
    if key in _COUNT_SETS:
        counts = sorted({_int(key, v, 0, _COUNT_SETS[key]) for v in _items(key, value)})
        if not counts:
            raise ValueError(f"option {key} needs at least one allowed number of cards")
        return tuple(counts)
    if key == "seq_values":
        items = _items(key, value)
        if len(items) != 6:
            raise ValueError(f"option seq_values needs six values (lengths 3..8), got {value!r}")
        return tuple(_int(key, v, 0, 100) for v in items)
    raise ValueError(f"unknown piquet rule option {key!r}")


# ---------------------------------------------------------------------------------------------
# The declarations analysis

def _declarations_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.declarations_shard(bit_generators[0], n_deals, rules)


def _deal_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.deal_shard(bit_generators, n_deals, rules, strategies)


def _partie_kernel(bit_generators, n_parties: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.partie_shard(bit_generators, n_parties, rules, strategies)


# Strategy names, the default first. The kernel knows them by name (core.*_STRATEGIES).
EXCHANGE = ("heuristic", "refuse", "best_expected")
PLAY = ("greedy", "random", "double_dummy", "pimc")
ANNOUNCE = ("sure", "never")


def _roles(*holders: str) -> dict[str, tuple[str, ...]]:
    roles = {}
    for who in holders:
        roles.update({f"{who}_exchange": EXCHANGE, f"{who}_play": PLAY, f"{who}_announce": ANNOUNCE})
    return roles


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
        "deal": Analysis(
            "deal", "Whole deals: exchange, declarations, open capot, play, pik/repik, deal totals",
            _deal_kernel, streams=3, strategies=_roles("elder", "younger"),
        ),
        "partie": Analysis(
            "partie", "Whole parties between players A and B (королик or rubicon settlement); deals = parties",
            _partie_kernel, streams=3, strategies=_roles("a", "b"),
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
def exact_hand_counts(seq_values: tuple, carte_blanche_value: int = 10, trio_value: int = 3,
                      quatorze_value: int = 14) -> dict[str, np.ndarray]:
    """Counts of single-hand events over all 225,792,840 twelve-card hands, enumerated in the
    compiled core (about 2 s): the uncontested value histogram and the §14.1 events."""
    spec = dict(PRESETS["ru_seed"], seq_values=tuple(seq_values), carte_blanche_value=carte_blanche_value,
                trio_value=trio_value, quatorze_value=quatorze_value)
    return core.exact_hand_counts(spec)


def exact_uncontested(seq_values: tuple, carte_blanche_value: int = 10, trio_value: int = 3,
                      quatorze_value: int = 14) -> np.ndarray:
    """Exact distribution (hand counts by value) of a hand's uncontested declaration value."""
    return exact_hand_counts(tuple(seq_values), carte_blanche_value, trio_value, quatorze_value)["uncontested_hist"]


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
# Whole deals and parties: single-deal API

@dataclass(frozen=True)
class PlayerDeal:
    declarations: PlayerDeclarations
    repik: int                   # bonus points
    pik: int
    play: int                    # leads, tricks, last trick
    tricks: int
    majority: int                # леза / the cards
    capot: int
    open_capot_penalty: int      # received from the opponent's failed announcement
    total: int


@dataclass(frozen=True)
class DealResult:
    rules: str
    options: dict
    elder: PlayerDeal
    younger: PlayerDeal
    tricks: tuple[tuple[str, str], ...]
    winners: tuple[str, ...]
    announced: str | None

    @property
    def record(self) -> tuple[str | None, int]:
        """Who records the deal and how much (the difference; nobody on a рефет)."""
        diff = self.elder.total - self.younger.total
        return ("elder" if diff > 0 else "younger" if diff < 0 else None), abs(diff)

    def explain(self) -> str:
        lines = [explain_declarations(DeclarationResult(self.rules, self.options, self.elder.declarations,
                                                        self.younger.declarations)), ""]
        if self.announced:
            lines.append(f"Open capot announced by {self.announced}.")
        lines.append("Tricks (leader's card first):")
        for i, ((lead, follow), winner) in enumerate(zip(self.tricks, self.winners), 1):
            lines.append(f"  {i:2d}. {lead}/{follow}  won by {winner}")
        lines.append("")
        header = f"{'':22s}{'elder':>8s}{'younger':>9s}"
        lines.append(header)
        for label, field in (("declarations", None), ("repik bonus", "repik"), ("pik bonus", "pik"),
                             ("play points", "play"), ("tricks won", "tricks"), ("леза / the cards", "majority"),
                             ("capot", "capot"), ("open capot penalty", "open_capot_penalty"), ("total", "total")):
            e = self.elder.declarations.total if field is None else getattr(self.elder, field)
            y = self.younger.declarations.total if field is None else getattr(self.younger, field)
            lines.append(f"{label:22s}{e:8d}{y:9d}")
        who, amount = self.record
        lines.append(f"{who} records {amount}." if who else "Equal totals: рефет.")
        return "\n".join(lines)


def _parse_tricks(tricks) -> list[tuple[str, str]]:
    if isinstance(tricks, str):
        tricks = [t for t in tricks.replace(",", " ").split() if t]
    out = []
    for i, trick in enumerate(tricks, 1):
        parts = trick.split("/") if isinstance(trick, str) else list(trick)
        if len(parts) != 2:
            raise ValueError(f"trick {i}: expected 'lead/follow', got {trick!r}")
        lead, follow = (PIQUET32.parse([c], 1, f"trick {i}")[0] for c in parts)
        out.append((lead, follow))
    return out


def score_deal(elder: Cards, younger: Cards, tricks, rules: str = "ru_seed", elder_dealt: Cards | None = None,
               younger_dealt: Cards | None = None, announced: str | None = None, **overrides) -> DealResult:
    """Score a whole deal: the final 12-card hands (after the exchange), the 12 tricks as
    ``"lead/follow"`` strings (the leader's card first; elder leads trick 1) and optionally the
    dealt hands (for carte blanche) and the player who announced an open capot. Illegal plays
    raise ValueError naming the trick and the rule."""
    options = GAME.resolve_rules(rules, overrides)
    final = [PIQUET32.parse(h, HAND_SIZE, f"{who} hand") for h, who in ((elder, "elder"), (younger, "younger"))]
    check_disjoint(final, PLAYERS)
    dealt = []
    for given, hand, who in ((elder_dealt, final[0], "elder"), (younger_dealt, final[1], "younger")):
        dealt.append(PIQUET32.parse(given, HAND_SIZE, f"{who} dealt hand") if given is not None else hand)
    check_disjoint(dealt, ("elder dealt", "younger dealt"))
    if announced not in (None, "elder", "younger"):
        raise ValueError(f"announced must be 'elder', 'younger' or None, got {announced!r}")
    if announced and not options["open_capot"]:
        raise ValueError(f"the {rules} rules have no open capot")
    played = _parse_tricks(tricks)
    if len(played) != 12:
        raise ValueError(f"a deal has 12 tricks, got {len(played)}")
    hands = [set(final[0]), set(final[1])]
    leader, indices = 0, []
    for i, (lead, follow) in enumerate(played, 1):
        who, other = PLAYERS[leader], PLAYERS[1 - leader]
        if lead not in hands[leader]:
            raise ValueError(f"trick {i}: {who} leads {lead}, which he does not hold")
        if follow not in hands[1 - leader]:
            raise ValueError(f"trick {i}: {other} plays {follow}, which he does not hold")
        if follow[1] != lead[1] and any(c[1] == lead[1] for c in hands[1 - leader]):
            raise ValueError(f"trick {i}: {other} must follow suit to {lead} but plays {follow}")
        hands[leader].remove(lead)
        hands[1 - leader].remove(follow)
        indices.append((PIQUET32.bit(lead), PIQUET32.bit(follow)))
        if follow[1] == lead[1] and PIQUET32.ranks.index(follow[0]) > PIQUET32.ranks.index(lead[0]):
            leader = 1 - leader
    masks = [PIQUET32.mask(h) for h in final] + [PIQUET32.mask(h) for h in dealt]
    out = core.score_played_deal(masks[2], masks[3], masks[0], masks[1], indices,
                                 -1 if announced is None else PLAYERS.index(announced), options)
    decl, score = out["declarations"], out["score"]
    players = []
    for p in range(2):
        declared = PlayerDeclarations(
            hand=tuple(PIQUET32.from_mask(masks[p])), carte_blanche=decl["score"][p][0], point=decl["score"][p][1],
            sequences=decl["score"][p][2], sets=decl["score"][p][3], total=decl["total"][p],
            repik=bool(decl["repik"][p]), uncontested=0)
        players.append(PlayerDeal(
            declarations=declared, repik=score["repik"][p] * options["repik_bonus"],
            pik=score["pik"][p] * options["pik_bonus"], play=score["play"][p], tricks=score["tricks"][p],
            majority=score["majority"][p], capot=score["capot"][p],
            open_capot_penalty=score["open_capot_penalty"][p], total=score["total"][p]))
    return DealResult(rules, options, players[0], players[1], tuple(played),
                      tuple(PLAYERS[w] for w in out["winners"]), announced)


@dataclass(frozen=True)
class PartieResult:
    finished: bool
    deals_used: int
    net: tuple[int, int]                 # what A and B win (A's is minus B's)
    korolik_records: tuple[int, int]
    columns: tuple[int, int]
    skvoznaya: bool
    rubicon: bool
    carried_multiplier: int


def score_partie(deal_totals, rules: str = "ru_seed", **overrides) -> PartieResult:
    """Settle a partie from the raw deal totals ``[(A, B), ...]`` in the order played: the
    королик match of ru_seed (§8) or the rubicon of classic (§11). Deals after the end of the
    partie are refused; a partie that has not ended yet comes back with finished=False."""
    options = GAME.resolve_rules(rules, overrides)
    pairs = []
    for i, pair in enumerate(deal_totals, 1):
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise ValueError(f"deal {i}: expected a pair of totals (A, B), got {pair!r}") from None
        for v in (a, b):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= 1000:
                raise ValueError(f"deal {i}: a deal total is an integer from 0 to 1000, got {v!r}")
        pairs.append((int(a), int(b)))
    if len(pairs) > 16:
        raise ValueError(f"a partie has at most 16 deals, got {len(pairs)}")
    out = core.settle([a for a, _ in pairs], [b for _, b in pairs], options)
    if out["finished"] and out["deals_used"] < len(pairs):
        raise ValueError(f"the partie ended after deal {out['deals_used']}; {len(pairs)} deals were given")
    return PartieResult(out["finished"], out["deals_used"], tuple(out["net"]), tuple(out["korolik_records"]),
                        tuple(out["columns"]), out["skvoznaya"], out["rubicon"], out["carried_multiplier"])


def round10(value: int, rounding: str = "half_up") -> int:
    """The record rounding of §8.3: to the nearest ten with halves up, or up ("ceil")."""
    validate_option("rounding", rounding)
    return (value + 9) // 10 * 10 if rounding == "ceil" else (value + 5) // 10 * 10


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
