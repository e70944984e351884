"""Two-handed piquet (shared/rules/piquet.md): rule presets, the declarations analysis on the dealt
hands, the exact single-hand probabilities it is checked against, and the single-deal API.

Presets (§12): ``ru_seed`` (the seed's Russian game, tierce 13 / quart 14), ``ru_seed_seq34`` (the
same with tierce 3 / quart 4) and ``classic`` (Rubicon piquet; repique in reckoning order).
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import piquet as core
from ..cards import PIQUET32, Cards, check_disjoint, longest_run
from ..constrained import DealLayout
from ..strategies import is_python
from ..stats import histogram_moments, histogram_quantile, mean_interval, wilson
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


def _card_counts(key: str, value: Any) -> tuple:
    counts = sorted({parsing.integer(key, v, 0, _COUNT_SETS[key]) for v in parsing.items(key, value)})
    if not counts:
        raise ValueError(f"option {key} needs at least one allowed number of cards")
    return tuple(counts)


def _seq_values(key: str, value: Any) -> tuple:
    values = parsing.items(key, value)
    if len(values) != 6:
        raise ValueError(f"option seq_values needs six values (lengths 3..8), got {value!r}")
    return tuple(parsing.integer(key, v, 0, 100) for v in values)


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    return parsing.parse("piquet", key, value, choices={**_CHOICES, "open_capot_fail_penalty": (0, 40, 80)},
                         flags=_FLAGS, limits=_LIMITS,
                         special={"seq_values": _seq_values, **{k: _card_counts for k in _COUNT_SETS}})


# ---------------------------------------------------------------------------------------------
# The declarations analysis

def _declarations_kernel(bit_generators, n_deals: int, rules: dict, given=None) -> dict[str, np.ndarray]:
    return core.declarations_shard(bit_generators[0], n_deals, rules, given=given)


# Constrained deals (analyzer/constrained.py): the kernels read a shuffled pack as elder's 12
# cards, younger's 12, then the talon from the top (elder's packet of 5, younger's 3).
LAYOUT = DealLayout(PIQUET32, {"elder": tuple(range(0, 12)), "younger": tuple(range(12, 24)),
                               "talon": tuple(range(24, 32))}, ordered=("talon",))


def _with_python(kernel, holders):
    """A shard kernel that builds the Python strategies of the shard (if any) and their callback,
    and raises the first error a Python strategy made. `given` (constrained deals) goes to the
    kernel."""
    def run_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict, **given) -> dict[str, np.ndarray]:
        callback = PythonSeats(strategies, holders, rules)
        counters = kernel(bit_generators, n_deals, rules, strategies, callback if callback.active else None, **given)
        callback.raise_error()
        return counters
    return run_kernel


_deal_kernel = _with_python(core.deal_shard, ("elder", "younger"))
_partie_kernel = _with_python(core.partie_shard, ("a", "b"))
_compare_kernel = _with_python(core.compare_shard, ("a", "b"))


# Strategy names, the default first. The kernel knows them by name (core.*_STRATEGIES).
EXCHANGE = ("heuristic", "refuse", "best_expected")
PLAY = ("greedy", "random", "double_dummy", "pimc")
ANNOUNCE = ("sure", "never")


def check_rules(rules: dict) -> None:
    """Checks across options (each option alone is checked by validate_option): whatever elder
    takes, younger has an allowed count among the talon cards left (8 minus elder's)."""
    for taken in rules["exchange_elder"]:
        left = 8 - taken      # the talon holds 8 cards
        if not any(count <= left for count in rules["exchange_younger"]):
            raise ValueError(f"exchange_younger={','.join(map(str, rules['exchange_younger']))} leaves younger no "
                             f"allowed exchange when elder takes {taken} ({left} talon cards left); allow a count up "
                             f"to {left} (or 0), or take {taken} out of exchange_elder")


def check_exchange(rules: dict, strategies: dict) -> None:
    """The exchange strategy refuse keeps the dealt hand: only where the rules let the seat that
    uses it exchange no card (classic piquet makes both exchange at least one, §3.2). A holder a
    or b sits in both seats in turn."""
    for role, name in strategies.items():
        if not role.endswith("_exchange") or name != "refuse":
            continue
        holder = role[:-len("_exchange")]
        for key in (f"exchange_{holder}",) if holder in PLAYERS else ("exchange_elder", "exchange_younger"):
            if 0 not in rules[key]:
                raise ValueError(f"{role}=refuse keeps the dealt hand, but these rules make the exchange at least "
                                 f"one card ({key}={','.join(map(str, rules[key]))}); use heuristic or "
                                 f"best_expected, or allow 0 with --set {key}=0,...")


def _roles(*holders: str) -> dict[str, tuple[str, ...]]:
    roles = {}
    for who in holders:
        roles.update({f"{who}_exchange": EXCHANGE, f"{who}_play": PLAY, f"{who}_announce": ANNOUNCE})
    return roles


def _python_roles(*holders: str) -> dict[str, tuple[str, ...]]:
    methods = {}
    for who in holders:
        methods.update({f"{who}_exchange": ("choose_discard",), f"{who}_play": ("choose_card",)})
    return methods


GAME = Game(
    name="piquet",
    title="Piquet (two-handed)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        "declarations": Analysis(
            "declarations",
            "Declarations (carte blanche, point, sequences, sets) and repik on the dealt hands, no exchange",
            _declarations_kernel, deal_layout=LAYOUT,
            # without the exact column: which exact values apply depends on the run's constraint,
            # which a summary is not given (kozyr piquet odds adds them, see _cmd_odds)
            summary=lambda counters, rules, strategies: [
                ("declaration odds", odds_table(counters, rules, with_exact=False))],
        ),
        "deal": Analysis(
            "deal", "Whole deals: exchange, declarations, open capot, play, pik/repik, deal totals",
            _deal_kernel, streams=3, strategies=_roles("elder", "younger"), check=check_exchange,
            python_methods=_python_roles("elder", "younger"), deal_layout=LAYOUT,
            summary=lambda counters, rules, strategies: [("whole deals", deal_table(counters))],
        ),
        "partie": Analysis(
            "partie", "Whole parties between players A and B (королик or rubicon settlement); deals = parties",
            _partie_kernel, streams=3, strategies=_roles("a", "b"), python_methods=_python_roles("a", "b"),
            check=check_exchange, summary=lambda counters, rules, strategies: [("parties", partie_table(counters))],
            unit="parties",
        ),
        "compare": Analysis(
            "compare", "Duplicate deals: A and B each play both seats of every deal; A's minus B's deal totals",
            _compare_kernel, streams=3, strategies=_roles("a", "b"), python_methods=_python_roles("a", "b"),
            check=check_exchange,
        ),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: shard_size_for(strategies),
    check_rules=check_rules,
)


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two labels "EXCHANGE+PLAY" (or just "PLAY", with the
    heuristic exchange), e.g. "best_expected+greedy" against "heuristic+pimc"."""
    roles = {}
    for side, label in (("a", a), ("b", b)):
        exchange, plus, play = label.rpartition("+")
        exchange = exchange if plus else EXCHANGE[0]
        if not ((exchange in EXCHANGE or is_python(exchange)) and (play in PLAY or is_python(play))):
            raise ValueError(f"unknown piquet strategy {label!r}: write EXCHANGE+PLAY with EXCHANGE one of "
                             f"{', '.join(EXCHANGE)} and PLAY one of {', '.join(PLAY)} (or python:module:Class)")
        roles.update({f"{side}_exchange": exchange, f"{side}_play": play})
    return roles


# ---------------------------------------------------------------------------------------------
# Strategies written in Python: the protocol, the views, and the callback the kernel calls

@dataclass(frozen=True)
class ExchangeView:
    """What a player knows when he exchanges: his dealt hand and what he may take."""
    seat: str                    # "elder" or "younger"
    hand: tuple[str, ...]        # the 12 dealt cards
    allowed: tuple[int, ...]     # how many cards he may exchange now (0 = refuse)
    rules: dict


@dataclass(frozen=True)
class PlayView:
    """What a player knows when he plays a card."""
    seat: str
    hand: tuple[str, ...]                # his cards now
    legal: tuple[str, ...]               # the cards he may play
    lead: str | None                     # the card led to this trick, None if he leads
    trick: int                           # 1..12
    played: tuple[str, ...]              # every card played so far (both players)
    known_out: tuple[str, ...]           # cards he knows are out of play (his discards, seen talon)
    opponent_holds: tuple[str, ...]      # cards he knows the opponent holds (taken from his leftovers)
    opponent_void: str                   # suits ("SHDC") the opponent has shown out of
    declarations: dict | None            # {"elder": (carte blanche, point, sequences, sets), "younger": ...}
    points: tuple[int, int]              # play points so far (elder, younger)
    tricks_won: tuple[int, int]          # (elder, younger)
    rules: dict


class PiquetPlayer:
    """The protocol of a piquet strategy written in Python. A role "..._exchange" calls
    ``choose_discard(view: ExchangeView) -> list of cards`` (their number one of view.allowed);
    a role "..._play" calls ``choose_card(view: PlayView) -> card`` (one of view.legal). Cards
    are the project's strings ("AS"). Name it in a run as "python:package.module:ClassName"; one
    instance is made per shard. Randomness, if any, should come from a generator the class seeds
    itself, so that results stay reproducible."""

    def choose_discard(self, view: ExchangeView) -> list[str]:
        raise NotImplementedError

    def choose_card(self, view: PlayView) -> str:
        raise NotImplementedError


def _cards(mask: int) -> tuple[str, ...]:
    return tuple(PIQUET32.from_mask(int(mask)))


class PythonSeats:
    """The callback the kernel calls for roles played by Python strategies (slot 0/1 = the two
    holders, e.g. elder/younger or players A/B). It turns kernel data into views, checks the
    answers, and keeps the first error to raise when the shard is over."""

    def __init__(self, strategies: dict, holders: tuple[str, str], rules: dict):
        from ..strategies import factory, is_python

        self.rules = rules
        self.players: list = [None, None]
        self.error: BaseException | None = None
        for slot, who in enumerate(holders):
            names = {strategies[f"{who}_exchange"], strategies[f"{who}_play"]}
            python = [n for n in names if is_python(n)]
            if len(python) > 1:
                raise ValueError(f"{who}: one Python strategy may play both roles of a player, not two different ones")
            if python:
                self.players[slot] = factory(python[0])()
        self.active = any(p is not None for p in self.players)

    def __call__(self, kind: int, slot: int, data: tuple) -> int:
        try:
            return self._answer(kind, slot, data)
        except BaseException as exc:  # kept and raised after the shard; the kernel plays on safely
            if self.error is None:
                self.error = exc
            return -1

    def _answer(self, kind: int, slot: int, data: tuple) -> int:
        player = self.players[slot]
        if kind == 0:
            me, dealt, available, counts = data
            allowed = tuple(k for k in range(available + 1) if counts >> k & 1)   # younger: up to 8 in classic
            view = ExchangeView(PLAYERS[me], _cards(dealt), allowed, self.rules)
            discard = PIQUET32.parse(player.choose_discard(view), None, "discard")
            if len(discard) not in allowed or not set(discard) <= set(view.hand):
                raise ValueError(f"{type(player).__name__}.choose_discard returned {discard}: it must be "
                                 f"{' or '.join(map(str, allowed))} cards of the hand")
            return PIQUET32.mask(discard)
        me, hand, legal, lead, done, played, known_out, opp_known, opp_void, decl, points, won = data
        view = PlayView(
            seat=PLAYERS[me], hand=_cards(hand), legal=_cards(legal), lead=None if lead < 0 else PIQUET32.card(lead),
            trick=done + 1, played=_cards(played), known_out=_cards(known_out), opponent_holds=_cards(opp_known),
            opponent_void="".join(s for i, s in enumerate("SHDC") if opp_void >> (8 * i) & 0xFF),
            declarations=None if decl is None else {"elder": decl[0], "younger": decl[1]},
            points=points, tricks_won=won, rules=self.rules)
        card = PIQUET32.parse([player.choose_card(view)], 1, "card")[0]
        if card not in view.legal:
            raise ValueError(f"{type(player).__name__}.choose_card returned {card}, which is not legal "
                             f"(legal: {' '.join(view.legal)})")
        return PIQUET32.bit(card)

    def raise_error(self) -> None:
        if self.error is not None:
            raise self.error


# ---------------------------------------------------------------------------------------------
# Exact single-hand probabilities (§14.1), by counting: suits are independent given their sizes,
# so "every suit mask satisfies a condition" is the coefficient of x^12 in the fourth power of the
# polynomial that counts qualifying 8-bit suit masks by size.

_ALL_HANDS = comb(32, HAND_SIZE)


def _every_suit(condition, n: int) -> int:
    """n-card hands whose four suits all satisfy `condition` (a test on an 8-bit suit mask)."""
    by_size = [0] * 9
    for m in range(256):
        if condition(m):
            by_size[bin(m).count("1")] += 1
    poly = [1]
    for _ in range(4):
        poly = [sum(poly[i] * by_size[j - i] for i in range(len(poly)) if 0 <= j - i <= 8) for j in range(n + 1)]
    return poly[n]


def _set_counts(n: int) -> dict[tuple[int, bool], int]:
    """n-card hands counted by (number of quatorzes among T..A, holds a trio or better)."""
    states = {(0, 0, False): 1}  # (cards taken from the ranks T..A, quatorzes, trio or better)
    for _rank in range(5):
        nxt: dict[tuple[int, int, bool], int] = {}
        for (cards, quat, trio), ways in states.items():
            for j in range(5):
                key = (cards + j, quat + (j == 4), trio or j >= 3)
                nxt[key] = nxt.get(key, 0) + ways * comb(4, j)
        states = nxt
    out: dict[tuple[int, bool], int] = {}
    for (cards, quat, trio), ways in states.items():
        if cards <= n:
            out[(quat, trio)] = out.get((quat, trio), 0) + ways * comb(12, n - cards)
    return out


@lru_cache(maxsize=None)
def exact_hand_probabilities(n: int = HAND_SIZE) -> dict[str, Fraction]:
    """Exact probabilities of single-hand events for an n-card hand dealt from 32 cards (n = 12
    gives the table of rules/piquet.md §14.1, n = 10 the three-handed hand)."""
    n = parsing.integer("hand size", n, 4, 32)         # the four-aces event needs 4 cards
    total = comb(32, n)
    sets = _set_counts(n)
    p = {
        "carte blanche": Fraction(comb(20, n), total),
        "four aces": Fraction(comb(28, n - 4), total),
        "at least one quatorze": Fraction(sum(w for (q, _), w in sets.items() if q >= 1), total),
        "at least two quatorzes": Fraction(sum(w for (q, _), w in sets.items() if q >= 2), total),
        "trio or quatorze": Fraction(sum(w for (_, t), w in sets.items() if t), total),
    }
    for k in range(4, 9):
        p[f"point length >= {k}"] = 1 - Fraction(_every_suit(lambda m, k=k: bin(m).count("1") < k, n), total)
    for length in range(3, 9):
        p[f"sequence >= {length}"] = 1 - Fraction(_every_suit(lambda m, L=length: longest_run(m) < L, n), total)
    p["tierce major or better"] = 1 - Fraction(_every_suit(lambda m: m >> 5 != 0b111, n), total)
    p["void suit"] = 1 - Fraction(_every_suit(lambda m: m != 0, n), total)
    return p


UNCONTESTED_LEVELS = (10, 20, 30, 40, 50, 60)


def dealt_carte_blanche(rules: dict) -> int:
    """What carte blanche pays a hand declared as dealt (no exchange: the dealt hand is the final
    one, so carte_blanche_when=both pays it twice)."""
    return rules["carte_blanche_value"] * (2 if rules["carte_blanche_when"] == "both" else 1)


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
# Taking-in odds (§14.5): elder sees his 12 cards and draws 5 of the 20 he cannot see; younger,
# after elder has taken all 5, draws the last 3 of the talon, also out of 20 cards unseen by him.

UNSEEN = 32 - HAND_SIZE
TAKEN_IN = {"elder": 5, "younger": 3}
# (player, named cards, how many of them at least, the odds Cavendish printed), in his order
CAVENDISH_TAKING_IN = (
    ("elder", 1, 1, "3 to 1"), ("elder", 2, 2, "18 to 1"), ("elder", 3, 3, "113 to 1"),
    ("elder", 4, 4, "968 to 1"), ("elder", 5, 5, "15503 to 1"), ("elder", 2, 1, "5 to 4"),
    ("elder", 3, 1, "3 to 2 on"), ("elder", 3, 2, "6 to 1"), ("elder", 4, 1, "5 to 2 on"),
    ("elder", 4, 2, "3 to 1"), ("elder", 4, 3, "32 to 1"),
    ("younger", 1, 1, "17 to 3"), ("younger", 2, 2, "62 to 1"), ("younger", 3, 3, "1139 to 1"),
    ("younger", 2, 1, "5 to 2"), ("younger", 3, 1, "3 to 2"), ("younger", 3, 2, "21 to 1"),
    ("younger", 4, 1, "29 to 28 on"),
)


def chance_to_draw(named: int, at_least: int, drawn: int, unseen: int = UNSEEN) -> Fraction:
    """Exact chance that at least `at_least` of `named` given cards are among `drawn` cards taken
    at random from `unseen` cards (the hypergeometric tail)."""
    if not 0 <= at_least <= named <= unseen or not 0 <= drawn <= unseen:
        raise ValueError(f"cannot hope for {at_least} of {named} named cards drawing {drawn} of {unseen}")
    ways = sum(comb(named, j) * comb(unseen - named, drawn - j) for j in range(at_least, min(named, drawn) + 1))
    return Fraction(ways, comb(unseen, drawn))


def taking_in_table() -> pd.DataFrame:
    """The taking-in odds of §14.5: for each case of Cavendish's table the exact chance, the exact
    odds (against, or on when likelier than not) and the odds he printed."""
    rows = []
    for player, named, at_least, cavendish in CAVENDISH_TAKING_IN:
        p = chance_to_draw(named, at_least, TAKEN_IN[player])
        ratio, side = ((1 - p) / p, "against") if p < Fraction(1, 2) else (p / (1 - p), "on")
        if at_least == named:
            hope = "the named card" if named == 1 else f"all {named} named cards"
        else:
            hope = f"at least {at_least} of {named} named cards"
        rows.append(dict(player=player, drawn=TAKEN_IN[player], named=named, at_least=at_least, draw=hope,
                         exact=p, probability=float(p), odds=f"{ratio.numerator} : {ratio.denominator} {side}",
                         odds_to_one=float(ratio), cavendish=cavendish))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Tables from merged counters

def _rate_rows(section: str, event: str, player: str, count, n, exact=None):
    low, high = wilson(count, n)
    return dict(section=section, event=event, player=player, count=int(count), n=int(n),
                estimate=count / n if n else np.nan, ci_low=float(low), ci_high=float(high),
                exact=float(exact) if exact is not None else np.nan)


def _odds_events(counters: dict[str, np.ndarray]) -> list[tuple[str, str, str, int, int]]:
    """(section, event, player, count, n) of every rate of the odds table."""
    n = int(counters["deals"][0])
    events = []
    for p, who in enumerate(PLAYERS):
        hand = {
            "carte blanche": counters["carte_blanche"][p],
            "four aces": counters["four_aces"][p],
            "at least one quatorze": counters["quatorzes"][p, 1:].sum(),
            "at least two quatorzes": counters["quatorzes"][p, 2:].sum(),
            "trio or quatorze": counters["trio_or_better"][p],
        }
        hand.update({f"point length >= {k}": counters["point_len"][p, k:].sum() for k in range(4, 9)})
        hand.update({f"sequence >= {L}": counters["seq_len"][p, L:].sum() for L in range(3, 9)})
        hand["tierce major or better"] = counters["ace_sequence"][p]
        hand["void suit"] = counters["void_suit"][p]
        hand.update({f"uncontested value >= {v}": counters["uncontested_hist"][p, v:].sum() for v in UNCONTESTED_LEVELS})
        events += [("hand", event, who, count, n) for event, count in hand.items()]
    events.append(("hand", "carte blanche", "either", counters["carte_blanche"].sum(), n))
    for c, category in enumerate(CATEGORIES):
        for w, winner in enumerate(("nobody", "elder", "younger")):
            events.append(("declarations", f"{category} scored by", winner, counters["category_winner"][c, w], n))
    for p, who in enumerate(PLAYERS):
        events.append(("declarations", "declaration total = 0", who, counters["total_hist"][p, 0], n))
        events.append(("declarations", "repik", who, counters["repik"][p], n))
    events.append(("declarations", "repik", "either", counters["repik"].sum(), n))
    return events


def odds_table(counters: dict[str, np.ndarray], rules: dict[str, Any], with_exact: bool = True,
               exact_counters: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """One row per event: count, sample size, estimate, Wilson 95% interval, exact value if known.

    Hand events are per player, carte blanche also for either hand (each row's n is the number of
    deals); declaration rows describe the contest between the two dealt hands. The exact values
    are those of a random deal (single hand events, §14.1 and §14.3), or, given `exact_counters`
    (the counters of every deal of a constrained run enumerated once, see exact_constrained), the
    exact conditional rate of every row."""
    exact: dict[tuple[str, str], Any] = {}
    if exact_counters is not None:
        exact = {(event, who): Fraction(int(k), m) for _, event, who, k, m in _odds_events(exact_counters)}
    elif with_exact:
        single = exact_hand_probabilities()
        hist = exact_uncontested(tuple(rules["seq_values"]), dealt_carte_blanche(rules),
                                 rules["trio_value"], rules["quatorze_value"])
        single.update({f"uncontested value >= {v}": Fraction(int(hist[v:].sum()), _ALL_HANDS) for v in UNCONTESTED_LEVELS})
        exact = {(event, who): value for event, value in single.items() for who in PLAYERS}
        # the two hands are never both blank (that needs 24 of the 20 non-courts), so the chances add
        exact[("carte blanche", "either")] = 2 * single["carte blanche"]
    rows = [_rate_rows(section, event, who, count, n, exact.get((event, who)))
            for section, event, who, count, n in _odds_events(counters)]
    for p, who in enumerate(PLAYERS):
        count, total, total_sq = histogram_moments(counters["total_hist"][p])
        mean, low, high = mean_interval(total, total_sq, count)
        if exact_counters is not None:
            e_count, e_total, _ = histogram_moments(exact_counters["total_hist"][p])
            exact_mean = e_total / e_count
        else:
            exact_mean = np.nan
        rows.append(dict(section="declarations", event="mean declaration total", player=who, count=np.nan,
                         n=count, estimate=mean, ci_low=low, ci_high=high, exact=exact_mean))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


EXACT_LIMIT = 2_000_000     # completions of a constrained deal enumerated at most


def exact_constrained(constraint: dict[str, Any], rules: dict[str, Any]) -> dict[str, np.ndarray] | None:
    """The declarations counters of every deal consistent with a constraint, each once (so each
    rate is exact: count / deals), when one hand is fully fixed and the other's completions
    number at most EXACT_LIMIT; None otherwise (or if the predicate accepts none of them)."""
    from itertools import combinations

    from ..constrained import FREE_SLOT as FREE, Sampler

    sampler = Sampler(LAYOUT, constraint)
    template = sampler.template
    open_slots = {seat: [s for s in LAYOUT.seats[seat] if template[s] == FREE] for seat in PLAYERS}
    full = [seat for seat in PLAYERS if not open_slots[seat]]
    if not full:
        return None
    seat = PLAYERS[1 - PLAYERS.index(full[0])]
    slots = open_slots[seat]
    fixed = {int(b) for b in template if b != FREE}
    free = [b for b in range(32) if b not in fixed]
    if comb(len(free), len(slots)) > EXACT_LIMIT:
        return None
    picks = np.array(list(combinations(free, len(slots))), np.uint8).reshape(-1, len(slots))
    rows = np.repeat(template[None, :], len(picks), axis=0)
    rows[:, slots] = picks
    placed = np.zeros((len(picks), 32), bool)                   # the talon gets the rest, in any order
    known = rows != FREE
    placed[np.nonzero(known)[0], rows[known]] = True
    rows[~known] = np.nonzero(~placed)[1]
    ok = sampler.accept(rows)
    if ok is not None:
        rows = np.ascontiguousarray(rows[ok])
    if len(rows) == 0:
        return None
    return core.declarations_shard(np.random.PCG64(0), len(rows), rules, given=rows)


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
    declared: dict | None = None     # under-declared holdings as given (sinking), None = full

    def explain(self) -> str:
        return explain_declarations(self)


DECLARED_CATEGORIES = ("point", "sequences", "sets")


def _runs_of(mask: int) -> list[int]:
    """The maximal runs of 3+ consecutive ranks in a card mask, each as a mask."""
    runs = []
    for suit in range(4):
        lane, rank = (mask >> (8 * suit)) & 0xFF, 0
        while rank < 8:
            length = 0
            while rank + length < 8 and lane >> (rank + length) & 1:
                length += 1
            if length >= 3:
                runs.append(((1 << length) - 1) << (8 * suit + rank))
            rank += max(length, 1)
    return runs


def _declared_masks(declared, final: list[list[str]]) -> tuple[int, ...] | None:
    """Validate under-declared holdings (sinking, §5) and return six masks: elder's point,
    sequence and set cards, then younger's. A player or category not named declares in full.

    A player may declare less than he holds, never more: his point from some cards of one suit,
    sequences that are parts of his own (at most one out of each run he holds: splitting a run is
    not an under-declaration), and sets of three or four of the cards he holds of a rank."""
    if declared is None:
        return None
    if not isinstance(declared, dict) or set(declared) - set(PLAYERS):
        raise ValueError(f"declared must be a dict keyed by {' and/or '.join(PLAYERS)}, got {declared!r}")
    masks = []
    for who, hand in zip(PLAYERS, final):
        full = PIQUET32.mask(hand)
        chosen = declared.get(who, {})
        if not isinstance(chosen, dict) or set(chosen) - set(DECLARED_CATEGORIES):
            raise ValueError(f"declared[{who!r}] must be a dict keyed by {', '.join(DECLARED_CATEGORIES)}; "
                             f"got {chosen!r}")
        for category in DECLARED_CATEGORIES:
            if category not in chosen:
                masks.append(full)
                continue
            cards = PIQUET32.parse(chosen[category], None, f"{who}'s declared {category}")
            missing = [c for c in cards if c not in hand]
            if missing:
                raise ValueError(f"{who} declares {' '.join(missing)} for {category}, which he does not hold")
            mask = PIQUET32.mask(cards)
            if category == "point" and len({c[1] for c in cards}) > 1:
                raise ValueError(f"{who}'s declared point must be cards of one suit, got {' '.join(cards)}")
            if category == "sequences":
                held = _runs_of(full)
                parts = _runs_of(mask)
                if sum(parts) != mask:
                    raise ValueError(f"{who}'s declared sequences must be runs of 3 or more, got {' '.join(cards)}")
                if any(sum(1 for part in parts if part & run) > 1 for run in held):
                    raise ValueError(f"{who} splits one of his sequences into two: not an under-declaration")
            if category == "sets":
                counts = {r: sum(c[0] == r for c in cards) for r in {c[0] for c in cards}}
                if any(r not in RANK_NAMES or n < 3 for r, n in counts.items()):
                    raise ValueError(f"{who}'s declared sets must be three or four tens or better of a rank, "
                                     f"got {' '.join(cards)}")
            masks.append(mask)
    return tuple(masks)


def score_declarations(elder: Cards, younger: Cards, rules: str = "ru_seed", declared: dict | None = None,
                       **overrides) -> DeclarationResult:
    """Score the declarations of two 12-card hands (card strings or lists of card strings).

    ``rules`` names a preset; keyword arguments override its options. ``declared`` gives
    under-declared holdings (sinking, see :func:`_declared_masks`), e.g.
    ``{"elder": {"sets": "AS AH AD"}}`` declares three aces out of four; comparisons then use
    the declared values. Raises ValueError for malformed or duplicate cards, wrong hand sizes,
    unknown options and declarations that are not under-declarations."""
    options = GAME.resolve_rules(rules, overrides)
    hands = [PIQUET32.parse(h, HAND_SIZE, f"{who} hand") for h, who in ((elder, "elder"), (younger, "younger"))]
    check_disjoint(hands, PLAYERS)
    masks = [PIQUET32.mask(h) for h in hands]
    row = core.score_deals(np.array([masks[0]]), np.array([masks[1]]), options)[0]
    sunk = _declared_masks(declared, hands)
    decl = None if sunk is None else core.score_declared(masks[0], masks[1], masks[0], masks[1], sunk, options)
    players = []
    for p in range(2):
        base = 2 + p * len(core.PLAYER_FIELDS)
        fields = dict(zip(core.PLAYER_FIELDS, (int(x) for x in row[base:base + len(core.PLAYER_FIELDS)])))
        if decl is not None:
            fields.update(zip(("carte_blanche", "point", "sequences", "sets"), decl["score"][p]),
                          total=decl["total"][p], repik=decl["repik"][p])
        fields["repik"] = bool(fields["repik"])
        players.append(PlayerDeclarations(hand=tuple(PIQUET32.from_mask(masks[p])), **fields))
    return DeclarationResult(rules, options, *players, declared=declared)


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
        lines.append(f"{category.capitalize()}: {scores}")
        for who, holdings in zip(PLAYERS, held):
            sunk = (result.declared or {}).get(who, {}).get(category)
            sunk = None if sunk is None else PIQUET32.parse(sunk)
            told = "" if sunk is None else "; declares " + (
                f"only {describe_holdings(sunk)[category]}" if sunk else "nothing")
            lines.append(f"    {who + ':':9s}{holdings[category]}{told}")
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
    declared: dict | None = None     # under-declared holdings as given (sinking), None = full

    @property
    def record(self) -> tuple[str | None, int]:
        """Who records the deal and how much (the difference; nobody on a рефет)."""
        diff = self.elder.total - self.younger.total
        return ("elder" if diff > 0 else "younger" if diff < 0 else None), abs(diff)

    def explain(self) -> str:
        lines = [explain_declarations(DeclarationResult(self.rules, self.options, self.elder.declarations,
                                                        self.younger.declarations, self.declared)), ""]
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


def _check_dealt_hands(final, dealt, given, options: dict, rules: str) -> None:
    """A dealt hand given beside a final hand must lead to it by an exchange the rules allow: as
    many cards taken as exchange_elder (exchange_younger) lets that seat take, all of them talon
    cards (neither player's dealt cards: a discard is out of play). Both hands' taken cards are
    then eight talon cards at most."""
    taken = [set(final[p]) - set(dealt[p]) for p in range(2)]
    for p, who in enumerate(PLAYERS):
        if not given[p]:
            continue
        allowed = options[f"exchange_{who}"]
        n = len(taken[p])
        if n not in allowed:
            raise ValueError(f"{who}'s final hand holds {n} card{'s' if n != 1 else ''} not in his dealt hand, "
                             f"but the {rules} rules let {who} exchange {', '.join(map(str, allowed))} "
                             f"(exchange_{who})")
        from_dealt = sorted(taken[p] & set(dealt[1 - p]), key=PIQUET32.bit)
        if from_dealt:
            raise ValueError(f"{who}'s final hand holds {' '.join(from_dealt)} from {PLAYERS[1 - p]}'s dealt hand: "
                             f"an exchange takes talon cards only")


def score_deal(elder: Cards, younger: Cards, tricks, rules: str = "ru_seed", elder_dealt: Cards | None = None,
               younger_dealt: Cards | None = None, announced: str | None = None, molchanka: str | None = None,
               false_declaration: str | None = None, declared: dict | None = None, **overrides) -> DealResult:
    """Score a whole deal: the final 12-card hands (after the exchange), the 12 tricks as
    ``"lead/follow"`` strings (the leader's card first; elder leads trick 1) and optionally the
    dealt hands (for carte blanche; each must lead to its final hand by an exchange the rules
    allow) and the player who announced an open capot. Illegal plays
    raise ValueError naming the trick and the rule.

    The optional penalties of §9 (off unless named): ``molchanka="elder"|"younger"`` — that player
    had a wrong number of cards: he scores no play points, леза or capot, and his opponent's play
    points are doubled (not his bonuses); ``false_declaration=...`` — that player scores nothing
    for the whole deal, the opponent scores normally. ``declared`` under-declares holdings
    (sinking, as in :func:`score_declarations`); pik and repik then follow the declared values."""
    for name, who in (("molchanka", molchanka), ("false_declaration", false_declaration)):
        if who not in (None, "elder", "younger"):
            raise ValueError(f"{name} must be 'elder', 'younger' or None, got {who!r}")
    options = GAME.resolve_rules(rules, overrides)
    final = [PIQUET32.parse(h, HAND_SIZE, f"{who} hand") for h, who in ((elder, "elder"), (younger, "younger"))]
    check_disjoint(final, PLAYERS)
    dealt = []
    for given, hand, who in ((elder_dealt, final[0], "elder"), (younger_dealt, final[1], "younger")):
        dealt.append(PIQUET32.parse(given, HAND_SIZE, f"{who} dealt hand") if given is not None else hand)
    check_disjoint(dealt, ("elder dealt", "younger dealt"))
    _check_dealt_hands(final, dealt, (elder_dealt is not None, younger_dealt is not None), options, rules)
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
                                 -1 if announced is None else PLAYERS.index(announced), options,
                                 _declared_masks(declared, final))
    decl, score = out["declarations"], out["score"]
    players = []
    for p in range(2):
        holdings = PlayerDeclarations(
            hand=tuple(PIQUET32.from_mask(masks[p])), carte_blanche=decl["score"][p][0], point=decl["score"][p][1],
            sequences=decl["score"][p][2], sets=decl["score"][p][3], total=decl["total"][p],
            repik=bool(decl["repik"][p]), uncontested=0)
        players.append(PlayerDeal(
            declarations=holdings, repik=score["repik"][p] * options["repik_bonus"],
            pik=score["pik"][p] * options["pik_bonus"], play=score["play"][p], tricks=score["tricks"][p],
            majority=score["majority"][p], capot=score["capot"][p],
            open_capot_penalty=score["open_capot_penalty"][p], total=score["total"][p]))
    players = _apply_penalties(players, molchanka, false_declaration)
    return DealResult(rules, options, players[0], players[1], tuple(played),
                      tuple(PLAYERS[w] for w in out["winners"]), announced, declared)


def _apply_penalties(players: list[PlayerDeal], molchanka: str | None, false_declaration: str | None) -> list[PlayerDeal]:
    from dataclasses import replace

    def total(p: PlayerDeal) -> int:
        return (p.declarations.total + p.repik + p.pik + p.play + p.majority + p.capot + p.open_capot_penalty)

    if molchanka:
        k = PLAYERS.index(molchanka)
        players[k] = replace(players[k], play=0, majority=0, capot=0)
        players[1 - k] = replace(players[1 - k], play=2 * players[1 - k].play)
    if false_declaration:
        k = PLAYERS.index(false_declaration)
        empty = replace(players[k].declarations, carte_blanche=0, point=0, sequences=0, sets=0, total=0, repik=False)
        players[k] = PlayerDeal(empty, 0, 0, 0, players[k].tricks, 0, 0, 0, 0)
    return [replace(p, total=total(p)) for p in players]


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
# Tables of whole deals and parties

def _mean_row(event, player, hist_or_moments, n=None, **extra):
    if n is None:
        count, total, total_sq = histogram_moments(hist_or_moments)
    else:
        count, (total, total_sq) = n, hist_or_moments
    mean, low, high = mean_interval(total, total_sq, count)
    return dict(event=event, player=player, count=pd.NA, n=count, estimate=mean, ci_low=low, ci_high=high, **extra)


# The majority of the tricks: леза (ru_seed) or "the cards" (classic) scores 7-11 tricks, a capot
# (all 12) scores instead; Cavendish's "wins the cards" counts the capots too.
LEZA = "леза / the cards bonus (7-11 tricks)"
WINS_THE_CARDS = "wins the cards (7+ tricks, capot included)"


def deal_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Rates (Wilson 95%) and means (normal 95%) of whole simulated deals, by seat."""
    n = int(counters["deals"][0])
    rows = []

    def rate(event, player, count):
        row = _rate_rows("deal", event, player, count, n)
        row.pop("section")
        rows.append(row)

    for p, who in enumerate(PLAYERS):
        rate("repik", who, counters["repik"][p])
    rate("pik", "elder", counters["pik"][0])
    rate("pik or repik", "elder", counters["pik"][0] + counters["repik"][0])
    for p, who in enumerate(PLAYERS):
        rate("capot", who, counters["capot"][p])
        rate("open capot announced", who, counters["open_capot_announced"][p])
        rate("open capot made", who, counters["open_capot_made"][p])
        rate(LEZA, who, counters["majority"][p])
        rate(WINS_THE_CARDS, who, counters["majority"][p] + counters["capot"][p])
    rate("cards divided (6-6)", "both", counters["cards_divided"][0])
    rate("deal won (higher total)", "elder", counters["deal_winner"][0])
    rate("deal won (higher total)", "younger", counters["deal_winner"][1])
    rate("рефет (equal totals)", "both", counters["deal_winner"][2])
    for p, who in enumerate(PLAYERS):
        rows.append(_mean_row("mean deal total", who, counters["total_hist"][p]))
        rows.append(_mean_row("mean declarations (after exchange)", who, counters["decl_hist"][p]))
        rows.append(_mean_row("mean play points", who, counters["play_hist"][p]))
        rows.append(_mean_row("mean tricks", who, counters["tricks_hist"][p]))
    rows.append(_mean_row("mean of elder - younger", "elder", (int(counters["diff_sum"][0]),
                                                             int(counters["diff_sq_sum"][0])), n=n))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def feature_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Repik (each player) and pik (elder) rates by a feature of the player's dealt hand, with
    Wilson 95% intervals; n is the number of deals in which the player was dealt that value."""
    by_feature = counters["by_feature"]
    rows = []
    for f, feature in enumerate(core.HAND_FEATURES):
        for p, who in enumerate(PLAYERS):
            for b in np.nonzero(by_feature[f, p, :, 0])[0]:
                if feature == "uncontested value":
                    value = f"{10 * b}-{10 * b + 9}" if b < by_feature.shape[2] - 1 else f"{10 * b}+"
                else:
                    value = str(b)
                for e, event in enumerate(core.FEATURE_EVENTS[1:], start=1):
                    if event == "pik" and who != "elder":
                        continue
                    row = _rate_rows("deal", event, who, by_feature[f, p, b, e], by_feature[f, p, b, 0])
                    rows.append(dict(feature=feature, value=value, **{k: v for k, v in row.items() if k != "section"}))
    table = pd.DataFrame(rows).drop(columns="exact")
    table["count"] = table["count"].astype("Int64")
    return table


def partie_table(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    n = int(counters["parties"][0])
    rows = []
    for event, count in (("A wins the partie", counters["outcome"][0]), ("B wins the partie", counters["outcome"][1]),
                         ("drawn partie", counters["outcome"][2]), ("сквозная запись", counters["skvoznaya"][0]),
                         ("rubicon (loser under 100)", counters["rubicon"][0]),
                         ("рефет multiplier carried to the next partie", counters["carried_multiplier"][0])):
        row = _rate_rows("partie", event, "A", count, n)
        row.pop("section")
        rows.append(row)
    rows.append(_mean_row("mean net result of A", "A", (int(counters["net_sum"][0]), int(counters["net_sq_sum"][0])), n=n))
    rows.append(_mean_row("mean deals per partie", "both", counters["deals_hist"]))
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


# Cavendish's published classic figures (§16.1): human play, full exchanges.
CAVENDISH = {
    ("repik", "elder"): 2 / 57,              # "nearly 27½ to 1 against"
    ("repik", "younger"): 1 / 76,            # "about 75 to 1"
    ("pik or repik", "elder"): 5 / 41,       # "36 to 5 against"
    (WINS_THE_CARDS, "elder"): 5 / 8,
    (WINS_THE_CARDS, "younger"): 1 / 4,
    ("cards divided (6-6)", "both"): 1 / 8,
}


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DEALS = 10_000_000
KEY_EVENTS = ("carte blanche", "at least one quatorze", "point length >= 6", "sequence >= 5",
              "uncontested value >= 30", "declaration total = 0", "repik")
# (exchange, play) with the number of deals the report simulates for each preset; the double-dummy
# and PIMC rows cost about 0.25-0.7 ms and 5-16 ms of CPU a deal (ru_seed-classic)
DEAL_GRID = (("refuse", "greedy", 1_000_000), ("heuristic", "random", 1_000_000), ("heuristic", "greedy", 1_000_000),
             ("best_expected", "greedy", 2_000), ("heuristic", "double_dummy", 10_000), ("heuristic", "pimc", 1_000))
MIXED = ((("heuristic", "double_dummy"), ("heuristic", "greedy"), 10_000),
         (("heuristic", "greedy"), ("heuristic", "double_dummy"), 10_000),
         (("heuristic", "greedy"), ("heuristic", "random"), 1_000_000),
         (("heuristic", "random"), ("heuristic", "greedy"), 1_000_000))
REPORT_PARTIES = 1_000_000          # about 6 CPU-seconds a preset
DEAL_KEY_EVENTS = ("repik", "pik", "pik or repik", "capot", "open capot announced", LEZA, WINS_THE_CARDS,
                   "mean deal total")


def shard_size_for(strategies: dict) -> int:
    """Smaller shards for the expensive strategies, so that they spread over the workers and the
    progress bar moves (the shard size is part of a run's config, so results stay reproducible)."""
    names = set(strategies.values())
    if "pimc" in names:
        return 10
    if names & {"double_dummy", "best_expected"}:
        return 500
    return 200_000


def _seat_strategies(prefix_a, a, prefix_b, b):
    return {f"{prefix_a}_exchange": a[0], f"{prefix_a}_play": a[1], f"{prefix_b}_exchange": b[0], f"{prefix_b}_play": b[1]}


def _declarations_section(ctx):
    from ..report import Section, distribution_plot, rate_bars

    tables, results = {}, {}
    for preset in PRESETS:
        result = ctx.run("piquet", "declarations", preset, REPORT_DEALS)
        results[preset] = result
        tables[preset] = odds_table(result.counters, result.config.rule_options)
    summary = []
    for preset, df in tables.items():
        for event in KEY_EVENTS:
            for _, row in df[(df.event == event) & (df.player.isin(PLAYERS))].iterrows():
                summary.append(dict(rules=preset, **row.drop("section").to_dict()))
    section = Section(
        "Declarations on the dealt hands",
        "Both players keep their dealt 12 cards (no exchange) and declare in full. Hand events are "
        "per player; `exact` comes from exact counting over all C(32,12) hands. The repik rates are "
        "the no-exchange figures of rules/piquet.md §14.4 (ru_seed 0.05240, classic 0.002701 per "
        "player, by an independent simulation).",
        tables=[("Key events by preset", pd.DataFrame(summary))]
               + [(f"All events, {preset}", df) for preset, df in tables.items()])
    fig = distribution_plot({f"{preset} (elder)": result.counters["total_hist"][0] for preset, result in results.items()},
                            "declaration total of a player (dealt hand, no exchange)", threshold=30, legend_size=10)
    section.figures.append(("Distribution of the elder's declaration total; the dashed line is the repik "
                            "threshold of 30.", fig))
    hand = tables["ru_seed"]
    hand = hand[(hand.section == "hand") & (hand.player == "elder")]
    section.figures.append(("ru_seed: events of the elder's dealt 12 cards with 95% intervals, exact values in red.",
                            rate_bars(hand, "event")))
    return section


def _deal_sections(ctx):
    import matplotlib.pyplot as plt
    from ..report import Section, distribution_plot, rate_bars

    summary, full, hists, features = [], [], {}, {}
    for preset in PRESETS:
        # refuse only where the preset lets a player exchange no card (not classic, §3.2)
        can_refuse = all(0 in PRESETS[preset][key] for key in ("exchange_elder", "exchange_younger"))
        pairs = [((ex, pl), (ex, pl), deals) for ex, pl, deals in DEAL_GRID if ex != "refuse" or can_refuse] + list(MIXED)
        for elder, younger, deals in pairs:
            strategies = _seat_strategies("elder", elder, "younger", younger)
            result = ctx.run("piquet", "deal", preset, deals, strategies=strategies,
                             shard_size=shard_size_for(strategies))
            table = deal_table(result.counters)
            label = dict(rules=preset, elder=f"{elder[0]}+{elder[1]}", younger=f"{younger[0]}+{younger[1]}")
            full.append(table.assign(**label))
            for _, row in table[table.event.isin(DEAL_KEY_EVENTS)].iterrows():
                summary.append({**label, **row.to_dict()})
            if elder == younger == ("heuristic", "greedy"):
                hists[preset] = result.counters["total_hist"]
            if preset == "ru_seed" and elder == younger and elder[1] == "greedy" and elder[0] in ("refuse", "heuristic"):
                features[elder[0]] = feature_table(result.counters).assign(strategy=f"{elder[0]}+greedy")
    key = pd.DataFrame(summary)
    pik = key[key.event.isin(("repik", "pik"))]
    pik_table = pik.pivot_table(index=["rules", "elder", "younger"], columns=["event", "player"], values="estimate")
    pik_table.columns = [f"{e} ({p})" for e, p in pik_table.columns]
    deals_section = Section(
        "Pik and repik with the exchange and the play",
        "Whole deals: the exchange (elder then younger), full declarations, an open capot announced "
        "only when sure, and the play. Strategies: exchange `refuse` (keep the dealt hand; not in classic, "
        "where both players must exchange), "
        "`heuristic` (keep point suit, sequences and sets; take the most cards allowed unless that "
        "would throw part of a made holding), "
        "`best_expected` (every legal discard scored by sampled talons); play `random`, `greedy`, "
        "`double_dummy` (both hands visible) and `pimc` (sampled hidden hands solved double-dummy). "
        + ("" if ctx.deals else "Rows with `double_dummy`, `pimc` and `best_expected` use fewer deals (see n); "
           "their intervals are correspondingly wider."),
        tables=[("Pik and repik rates by strategy (estimates; intervals in the next table)", pik_table.reset_index()),
                ("Key rates with intervals", key),
                ("Every deal statistic", pd.concat(full, ignore_index=True))])
    fig = distribution_plot({f"{preset}, {who}": hist[p] for preset, hist in hists.items() for p, who in enumerate(PLAYERS)},
                            "deal total (heuristic exchange, greedy play)")
    deals_section.figures.append(("Distribution of deal totals by seat; the bumps past 60 come from piks, "
                                  "repiks and capots.", fig))
    ru = key[(key.rules == "ru_seed") & (key.elder == key.younger)
             & (((key.event == "repik") & (key.player == "elder")) | (key.event == "pik"))].copy()
    ru["strategy"] = ru.event + ", " + ru.elder
    deals_section.figures.append(("ru_seed: elder's repik and pik rate by strategy (both seats alike), with "
                                  "95% intervals; the small samples of the expensive strategies show as wide bars.",
                                  rate_bars(ru, "strategy")))
    by_value = pd.concat(features.values(), ignore_index=True)
    by_value = by_value[(by_value.feature == "uncontested value") & (by_value.player == "elder")]
    deals_section.tables.append(("ru_seed: the elder's repik and pik rates by the uncontested value of his dealt hand",
                                 by_value))
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for ax, event in zip(axes, ("repik", "pik")):
        rows = by_value[by_value.event == event]
        rate_bars(rows.assign(label=rows.strategy + ", dealt value " + rows.value), "label", title=f"elder's {event}", ax=ax)
    fig.tight_layout()
    deals_section.figures.append(("ru_seed: the elder's repik and pik rates by what his dealt hand would score if "
                                  "it won every category (before the exchange), without exchange and with the "
                                  "heuristic one, greedy play; 95% intervals.", fig))

    classic = key[(key.rules == "classic")]
    rows = []
    for (event, player), published in CAVENDISH.items():
        for _, row in classic[(classic.event == event) & (classic.player == player)].iterrows():
            rows.append(dict(event=event, player=player, elder=row.elder, younger=row.younger, n=row.n,
                             estimate=row.estimate, ci_low=row.ci_low, ci_high=row.ci_high, cavendish=published))
    medians = [dict(event="median deal total", player=who, elder=f"{a}", younger=f"{a}",
                    n=int(hists["classic"][p].sum()), **dict(zip(("estimate", "ci_low", "ci_high"),
                                                                 histogram_quantile(hists["classic"][p], 0.5))),
                    cavendish=published)
               for (p, who), published, a in zip(enumerate(PLAYERS), (28, 14), ("heuristic+greedy",) * 2)]
    cavendish = Section(
        "Classic piquet against Cavendish's figures",
        "Cavendish (1882, §16.1 of the rules file) tabulated human play: elder repique nearly 27½ to 1, "
        "younger about 75 to 1, pique including repique 36 to 5 against, median deal scores 28 (elder) "
        "and 14 (younger), elder wins the cards about 5 to 3 on. The simulated values are those of "
        "the strategies named in each row; human discarding and play differ from all of them. The last "
        "table needs no simulation: it sets each of his odds of drawing named cards from the talon "
        "beside the exact value (§14.5); only elder's \"at least 3 of 4\" (32 to 1, exactly 30.3 to 1) is off.",
        tables=[("Simulated classic piquet beside Cavendish", pd.DataFrame(rows + medians)),
                # the fractions as text: the Markdown writer would print them as decimals
                ("Taking-in odds: exact beside Cavendish's", taking_in_table().astype({"exact": str}))])
    return [deals_section, cavendish]


def _partie_section(ctx):
    from ..report import Section, distribution_plot

    tables, nets = [], {}
    strategies = _seat_strategies("a", ("heuristic", "greedy"), "b", ("heuristic", "greedy"))
    for preset in PRESETS:
        result = ctx.run("piquet", "partie", preset, REPORT_PARTIES, strategies=strategies)
        tables.append(partie_table(result.counters).assign(rules=preset))
        nets[preset] = result.counters["net_hist"]
    section = Section(
        "The partie",
        "Whole parties between two players with the same strategies (heuristic exchange, greedy play): "
        "ru_seed presets settle by королики (+100 rounded, рефет x2, сквозная запись +100), classic by "
        "the rubicon. Net results are player A's. The first dealer is drawn and the players are alike, so "
        "A's mean net result is zero and A wins half the decided parties: an interval that misses that "
        "does so by chance (about one in twenty of them; the three presets share their deals).",
        tables=[("Partie outcomes", pd.concat(tables, ignore_index=True))])
    bins = next(iter(nets.values())).size
    fig = distribution_plot(nets, "net result of player A in one partie",
                            values=(np.arange(bins) - bins // 2) * 10, legend_size=10)
    section.figures.append(("Distribution of a partie's net result.", fig))
    return section


def build_report(ctx) -> list:
    return [_declarations_section(ctx), *_deal_sections(ctx), _partie_section(ctx)]


# ---------------------------------------------------------------------------------------------
# Command line: kozyr piquet odds | deals | partie | explain | play | exact

def register_cli(sub) -> None:
    from .. import cli
    from ..constrained import add_cli_options as add_constraint_options

    odds = sub.add_parser("odds", help="declaration odds on the dealt hands (no exchange); given cards with "
                                       "--elder/--younger/--talon/--where")
    cli.add_run_options(odds, "piquet", default_deals=1_000_000)
    odds.add_argument("--no-exact", action="store_true", help="skip the exact values (saves ~2 s)")
    add_constraint_options(odds, LAYOUT)
    odds.set_defaults(handler=_cmd_odds)

    deals = sub.add_parser("deals", help="whole deals with chosen strategies: pik, repik, capot, totals; given cards "
                                         "with --elder/--younger/--talon/--where")
    cli.add_run_options(deals, "piquet", default_deals=100_000)
    cli.add_strategy_option(deals, "piquet", "deal")
    add_constraint_options(deals, LAYOUT)
    deals.set_defaults(handler=_cmd_run, analysis="deal")

    partie = sub.add_parser("partie", help="whole parties between players A and B (--deals = parties)")
    cli.add_run_options(partie, "piquet", default_deals=20_000, analysis="partie")
    cli.add_strategy_option(partie, "piquet", "partie")
    partie.set_defaults(handler=_cmd_run, analysis="partie")

    explain = sub.add_parser("explain", help="score two given hands (declarations; with --tricks, the whole deal)")
    explain.add_argument("--elder", required=True, help='12 cards, e.g. "AS KS QS ..."')
    explain.add_argument("--younger", required=True, help="12 cards")
    explain.add_argument("--tricks", type=parsing.not_empty("leave --tricks out to explain the declarations only"),
                         help='the 12 tricks, leader\'s card first: "AS/TC KS/JC ..."')
    explain.add_argument("--announced", choices=PLAYERS, help="who announced an open capot")
    explain.add_argument("--rules", default="ru_seed", choices=list(PRESETS))
    cli.add_set_option(explain)
    explain.add_argument("--declare", dest="declared", type=_declared_option, action=cli.Repeatable, default=[],
                         metavar="PLAYER.CATEGORY=CARDS",
                         help='sinking: declare less than held, e.g. --declare "elder.sets=AS AH AD" '
                              '(categories point, sequences, sets; empty cards declare nothing)')
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=_cmd_explain)

    play = sub.add_parser("play", help="deal and play one seeded deal with named strategies, step by step")
    play.add_argument("--seed", type=cli.seed, default=1)
    play.add_argument("--rules", default="ru_seed", choices=list(PRESETS))
    cli.add_set_option(play)
    cli.add_strategy_option(play, "piquet", "deal")
    play.set_defaults(handler=_cmd_play)

    exact = sub.add_parser("exact", help="enumerate all 225,792,840 hands: exact single-hand table (§14.1, §14.3)")
    exact.add_argument("--rules", default="ru_seed", choices=list(PRESETS), help="rule preset (default: ru_seed)")
    cli.add_set_option(exact)
    exact.add_argument("--json", action="store_true", help="print JSON instead of a text table")
    exact.set_defaults(handler=_cmd_exact)


def _cmd_odds(args) -> int:
    from .. import cli

    result = cli.execute(args, "piquet", "declarations")
    if args.no_exact:
        return cli.emit_summary(args, result)
    # The exact column, which the stored run's summary lacks: for given cards, the exact conditional
    # rates by enumeration when one hand is fixed, none otherwise (the single-hand values of a random
    # deal would not apply); for a random deal, the single-hand values.
    rules = result.config.rule_options
    if result.config.constraint:
        exact = exact_constrained(dict(result.config.constraint), rules)
        table = odds_table(result.counters, rules, with_exact=False, exact_counters=exact)
    else:
        table = odds_table(result.counters, rules)
    cli.emit_table(args, result, table)
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def _cmd_run(args) -> int:
    from .. import cli

    if args.shard_size is None:
        args.shard_size = shard_size_for(GAME.analysis(args.analysis).resolve_strategies(dict(args.strategies)))
    return cli.emit_summary(args, cli.execute(args, "piquet", args.analysis))


def _declared_option(text: str) -> tuple[str, str, str]:
    """PLAYER.CATEGORY=CARDS of --declare (validated further by _declared_masks)."""
    key, sep, cards = text.partition("=")
    who, dot, category = key.strip().partition(".")
    if not sep or not dot:
        raise argparse.ArgumentTypeError(f"expected PLAYER.CATEGORY=CARDS, e.g. 'elder.sets=AS AH AD', got {text!r}")
    return who, category, cards


def _cmd_explain(args) -> int:
    import json
    from dataclasses import asdict

    declared: dict | None = {} if args.declared else None
    for who, category, cards in args.declared:
        declared.setdefault(who, {})[category] = cards
    if args.tricks:
        result = score_deal(args.elder, args.younger, args.tricks, args.rules, announced=args.announced,
                            declared=declared, **dict(args.overrides))
    else:
        if args.announced:
            raise ValueError("--announced needs --tricks")
        result = score_declarations(args.elder, args.younger, args.rules, declared=declared, **dict(args.overrides))
    print(json.dumps(asdict(result), indent=2, default=str) if args.json else result.explain())
    return 0


def play_one(seed: int = 1, rules: str = "ru_seed", strategies: dict | None = None, **overrides) -> str:
    """Deal and play one deal from a seed with named strategies; returns the readable record
    (the format of the golden playthroughs in tests/golden/piquet/)."""
    from ..runner import shard_bit_generators

    options = GAME.resolve_rules(rules, overrides)
    chosen = GAME.analysis("deal").resolve_strategies(strategies)
    check_exchange(options, chosen)
    d = core.play_one_deal(shard_bit_generators(seed, 0, 3), options, chosen)
    fmt = PIQUET32.format
    lines = [f"piquet deal, rules {rules}, seed {seed}",
             "strategies: " + ", ".join(f"{k}={v}" for k, v in chosen.items()),
             f"elder dealt:   {fmt(d['dealt'][0])}", f"younger dealt: {fmt(d['dealt'][1])}",
             "talon (top first): " + " ".join(PIQUET32.card(c) for c in d["talon"]),
             f"elder exchanges {d['exchanged'][0]}: discards {fmt(d['discard'][0]) or '-'}",
             f"younger exchanges {d['exchanged'][1]}: discards {fmt(d['discard'][1]) or '-'}",
             f"elder final:   {fmt(d['final'][0])}", f"younger final: {fmt(d['final'][1])}"]
    decl = d["declarations"]
    for p, who in enumerate(PLAYERS):
        parts = ", ".join(f"{c} {v}" for c, v in zip(CATEGORIES, decl["score"][p]))
        lines.append(f"{who} declares: {parts}; total {decl['total'][p]}{' REPIK' if decl['repik'][p] else ''}")
    if d["announced"] >= 0:
        lines.append(f"open capot announced by {PLAYERS[d['announced']]}")
    for i, (leader, lead, follow) in enumerate(d["tricks"], 1):
        lines.append(f"trick {i:2d}: {PLAYERS[leader]:7s} leads {PIQUET32.card(lead)}, "
                     f"{PLAYERS[1 - leader]} plays {PIQUET32.card(follow)}")
    s = d["score"]
    for key in ("declarations", "repik", "pik", "play", "tricks", "majority", "capot", "open_capot_penalty", "total"):
        lines.append(f"{key:20s} elder {s[key][0]:4d}   younger {s[key][1]:4d}")
    return "\n".join(lines) + "\n"


def _cmd_play(args) -> int:
    print(play_one(args.seed, args.rules, dict(args.strategies), **dict(args.overrides)), end="")
    return 0


def exact_table(rules: str = "ru_seed", **overrides) -> pd.DataFrame:
    """The exact single-hand table by enumeration of every hand in the compiled core."""
    import time

    options = GAME.resolve_rules(rules, overrides)
    start = time.perf_counter()
    c = exact_hand_counts(tuple(options["seq_values"]), dealt_carte_blanche(options), options["trio_value"],
                          options["quatorze_value"])
    seconds = time.perf_counter() - start
    hands = int(c["hands"][0])
    events = {
        "carte blanche": int(c["carte_blanche"][0]), "four aces": int(c["four_aces"][0]),
        "at least one quatorze": int(c["quatorzes"][1:].sum()), "at least two quatorzes": int(c["quatorzes"][2:].sum()),
        "trio or quatorze": int(c["trio_or_better"][0]), "tierce major or better": int(c["ace_sequence"][0]),
        "void suit": int(c["void_suit"][0]),
    }
    events.update({f"point length >= {k}": int(c["point_len"][k:].sum()) for k in range(4, 9)})
    events.update({f"sequence >= {L}": int(c["seq_len"][L:].sum()) for L in range(3, 9)})
    events.update({f"uncontested value >= {v}": int(c["uncontested_hist"][v:].sum()) for v in UNCONTESTED_LEVELS})
    rows = [dict(event=e, hands=k, probability=Fraction(k, hands), decimal=k / hands) for e, k in events.items()]
    table = pd.DataFrame(rows)
    table.attrs.update(hands=hands, seconds=seconds)
    return table


def _cmd_exact(args) -> int:
    import json

    table = exact_table(args.rules, **dict(args.overrides))
    if args.json:
        out = table.assign(probability=table.probability.astype(str))
        print(json.dumps({"rules": args.rules, "hands": table.attrs["hands"], "seconds": round(table.attrs["seconds"], 2),
                          "table": json.loads(out.to_json(orient="records"))}, indent=2))
    else:
        print(f"# piquet exact single-hand table, rules {args.rules}: {table.attrs['hands']:,} hands enumerated "
              f"in {table.attrs['seconds']:.1f} s")
        with pd.option_context("display.max_rows", None, "display.width", 200):
            print(table.to_string(index=False))
    return 0


def score_deal_three(*args, **kwargs):
    """Three-handed piquet's single-deal API (analyzer.games.piquet_three.score_deal_three)."""
    from .piquet_three import score_deal_three as score
    return score(*args, **kwargs)
