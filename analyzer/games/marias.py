"""Slovak mariáš (shared/rules/marias.md), three players: rule options, the settlement of §6, the
single-deal API, the Stovka success-rate analysis of §8 and its report.

- ``settle(...)`` (§6.3) is plain Python: the amount each defender pays the actor for one played
  deal, its parts, and who won the deal. The compiled kernel (csrc/marias.pyx) carries its own
  copy of the formulas and is tested against this one. Amounts are in units of the base stake B
  (default 5 cents); ``per_defender`` holds the signed amount each defender pays the actor
  (negative: the actor pays that defender).
- ``play_deal(...)`` plays or scores one given deal.
- The ``stovka`` analysis deals and plays millions of deals in the kernel (§8).
- The ``compare`` analysis (``kozyr compare marias``) plays card-play strategies against each other on
  duplicate deals; see ``compare_strategies``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

SUIT_GAMES = ("hra", "sedma", "stovka", "sto_a_sedem")      # "sedma" is Sedma a hra
TRICK_GAMES = ("maly", "velky")
GAMES = SUIT_GAMES + TRICK_GAMES
SEVEN_EVENTS = ("none", "won_actor", "killed_actor", "won_def", "killed_def")
PART_KEYS = ("hra", "sedma", "main", "sedma_proti")
TRUMPS = "SHDC"
HEARTS = "H"

# The options of §9 that change the money (the whole list, validated, lives in marias.py).
SETTLEMENT_DEFAULTS: dict[str, Any] = dict(
    stovka_scale_counts_all_hlasy=True,   # A4
    hlas_for_stovka="highest",            # A5: highest | first
    sto_a_sedem_step=6,                   # A6: 6 | 4
    flek_per_defender=False,              # A2
    sedma_proti_only_announcer=False,     # A8
    ticha_stovka_rate="full",             # A26: full | half
    deal_cap=0,                           # A20: 0 = no cap, else |amount| per defender <= cap (in B)
    maly_value=5,                         # A22
    velky_value=10,                       # A22
)


def steps(points: int) -> int:
    """Steps of the hundred scale: 100 -> 1, 110 -> 2, 90 -> 2, 70 -> 4 (points are multiples of 10)."""
    return 1 + abs(points - 100) // 10


@dataclass(frozen=True)
class Settlement:
    # what each defender pays the actor, in B: first the actor's left-hand neighbour (the next to
    # play after him), then the other
    per_defender: tuple[int, int]
    winner: str                         # "actor" | "defenders" (the main part decides, §6.4)
    parts: dict[str, int] = field(default_factory=dict)   # per-defender parts before hearts
    hearts: int = 1                     # 2 in a suit game with hearts trumps
    # each defender's parts, in the order of per_defender (they differ from parts only under
    # flek_per_defender or sedma_proti_only_announcer)
    defender_parts: tuple[dict[str, int], ...] = ()

    @property
    def amount(self) -> int:
        """The per-defender amount S when both defenders pay the same (the default rules)."""
        return self.per_defender[0]

    @property
    def actor_balance(self) -> int:
        return sum(self.per_defender)


def _check_k(k: Mapping[str, Any], what: str) -> dict[str, int]:
    if not isinstance(k, Mapping):
        raise ValueError(f"{what} must be a mapping of part -> number of doublings, got {k!r}")
    out = {}
    for key in PART_KEYS:
        value = k.get(key, 0)
        top = _INTS["max_doublings"][1]       # the most any rules allow (each doubling doubles the part)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise ValueError(f"{what}[{key!r}] must be a whole number of doublings from 0 to {top}, got {value!r}")
        out[key] = value
    unknown = set(k) - set(PART_KEYS)
    if unknown:
        raise ValueError(f"{what} has unknown parts {sorted(unknown)}; parts are {', '.join(PART_KEYS)}")
    return out


def _check_hlasy(hlasy: Sequence[int], what: str) -> list[int]:
    try:
        values = list(hlasy)
    except TypeError:
        raise ValueError(f"{what} must be a list of 20/40 values, got {hlasy!r}") from None
    if any(v not in (20, 40) for v in values) or len(values) > 4 or values.count(40) > 1:
        raise ValueError(f"{what} must be at most four hlasy of 20 and at most one of 40, got {values!r}")
    return values


def settle(game: str, trump: str | None = None, k: Mapping[str, int] | Sequence[Mapping[str, int]] | None = None,
           sedma_proti: bool = False, cp_actor: int = 0, last: str = "actor",
           hlasy_actor: Sequence[int] = (), hlasy_def: Sequence[int] = (), seven: str = "none",
           actor_tricks: int = 0, proti_by: int = 0, **options) -> Settlement:
    """Settle one deal (§6.3).

    game: hra | sedma (Sedma a hra) | stovka | sto_a_sedem | maly | velky. trump: S H D C (suit
    games). k: doublings per part {hra, sedma, main, sedma_proti}; with ``flek_per_defender`` a
    pair of such mappings, one per defender (the actor's left-hand neighbour first). cp_actor: A/T points in the actor's tricks (0..80,
    multiple of 10). last: who won trick 10 ("actor" | "def"). hlasy_*: 20/40 values in the order
    declared. seven: one of SEVEN_EVENTS. actor_tricks: tricks the actor won (Malý/Veľký).
    proti_by: which defender (0: the actor's left-hand neighbour, 1: the other) announced sedma proti (used by sedma_proti_only_announcer).
    Keyword options: see SETTLEMENT_DEFAULTS."""
    unknown = set(options) - set(SETTLEMENT_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown settlement options {sorted(unknown)}")
    o = {**SETTLEMENT_DEFAULTS, **{key: validate_option(key, value) for key, value in options.items()}}
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    if k is None:
        ks = [_check_k({}, "k")] * 2
    elif isinstance(k, Mapping):
        ks = [_check_k(k, "k")] * 2
    else:
        pair = list(k)
        if len(pair) != 2:
            raise ValueError("k must be one mapping, or a pair of mappings (one per defender)")
        ks = [_check_k(pair[0], "k[0]"), _check_k(pair[1], "k[1]")]
    if game in TRICK_GAMES:
        if isinstance(actor_tricks, bool) or not isinstance(actor_tricks, int) or not 0 <= actor_tricks <= 10:
            raise ValueError(f"actor_tricks must be an integer 0..10, got {actor_tricks!r}")
        results = [_trick_game(game, kd, actor_tricks, o) for kd in ks]
        hearts = 1
    else:
        if trump not in tuple(TRUMPS):
            raise ValueError(f"trump must be one of S H D C in a suit game, got {trump!r}")
        if isinstance(cp_actor, bool) or not isinstance(cp_actor, int) or not 0 <= cp_actor <= 80 or cp_actor % 10:
            raise ValueError(f"cp_actor must be a multiple of 10 from 0 to 80, got {cp_actor!r}")
        if last not in ("actor", "def"):
            raise ValueError(f"last must be 'actor' or 'def', got {last!r}")
        if seven not in SEVEN_EVENTS:
            raise ValueError(f"seven must be one of {', '.join(SEVEN_EVENTS)}, got {seven!r}")
        # A defender's 7 may also be killed by his partner's trump (§5.5b), so killed_def fits
        # either winner (the rules file's §7.3 consistency note says last = actor only).
        if seven == "won_actor" and last != "actor" or seven in ("won_def", "killed_actor") and last != "def":
            raise ValueError(f"seven event {seven!r} contradicts last trick won by {last!r}")
        if sedma_proti and game not in ("hra", "stovka"):
            raise ValueError("sedma proti is only possible against Hra or Stovka")
        if proti_by not in (0, 1):
            raise ValueError(f"proti_by must be 0 or 1, got {proti_by!r}")
        ha, hd = _check_hlasy(hlasy_actor, "hlasy_actor"), _check_hlasy(hlasy_def, "hlasy_def")
        if len(ha) + len(hd) > 4 or ha.count(40) + hd.count(40) > 1:
            raise ValueError("the two sides hold more than four hlasy, or more than one trump hlas")
        results = []
        for d, kd in enumerate(ks):
            proti_here = sedma_proti and (not o["sedma_proti_only_announcer"] or d == proti_by)
            results.append(_suit_game(game, kd, sedma_proti, proti_here, cp_actor, last, ha, hd, seven, o))
        hearts = 2 if trump == HEARTS else 1
    per_defender = []
    for parts, _ in results:
        amount = hearts * sum(parts.values())
        if o["deal_cap"]:
            amount = max(-o["deal_cap"], min(o["deal_cap"], amount))
        per_defender.append(amount)
    parts, main = results[0]
    winner = "actor" if parts[main] > 0 else "defenders"
    return Settlement(tuple(per_defender), winner, parts, hearts, tuple(p for p, _ in results))


def _trick_game(game: str, k: dict, actor_tricks: int, o: dict):
    if game == "maly":
        v = o["maly_value"] if actor_tricks == 0 else -o["maly_value"]
    else:
        v = o["velky_value"] if actor_tricks == 10 else -o["velky_value"]
    return {game: v * 2 ** k["main"]}, game


def _suit_game(game, k, sedma_proti, proti_here, cp_actor, last, ha, hd, seven, o):
    parts: dict[str, int] = {}
    last_a = 10 if last == "actor" else 0
    tot_a = cp_actor + last_a + sum(ha)
    tot_d = (80 - cp_actor) + (10 - last_a) + sum(hd)
    counted = (ha[0] if ha else 0) if o["hlas_for_stovka"] == "first" else max(ha, default=0)
    count_a = cp_actor + last_a + counted
    scale_a = tot_a if o["stovka_scale_counts_all_hlasy"] else count_a
    quiet_unit = 4 if o["ticha_stovka_rate"] == "full" else 2
    if game in ("hra", "sedma"):
        if tot_a >= 100:
            v = quiet_unit * steps(tot_a)          # the actor's tichá stovka replaces Hra
        elif tot_d >= 100:
            v = -quiet_unit * steps(tot_d)         # the defenders' tichá stovka
        else:
            v = 1 if tot_a > tot_d else -1
        parts["hra"] = v * 2 ** k["hra"]
        main = "hra"
    if game == "sedma":
        parts["sedma"] = (2 if seven == "won_actor" else -2) * 2 ** k["sedma"]
    if game == "stovka":
        v = 4 * steps(scale_a) if count_a >= 100 else -4 * steps(count_a - sum(hd))
        parts["stovka"] = v * 2 ** k["main"]
        main = "stovka"
    if game == "sto_a_sedem":
        base, step = 6, o["sto_a_sedem_step"]
        if count_a >= 100 and seven == "won_actor":
            v = base + step * (steps(scale_a) - 1)
        elif count_a >= 100:
            v = -base
        else:
            v = -(base + step * (steps(count_a - sum(hd)) - 1))
        parts["sto_a_sedem"] = v * 2 ** k["main"]
        main = "sto_a_sedem"
    if proti_here:
        parts["sedma_proti"] = (-2 if seven == "won_def" else 2) * 2 ** k["sedma_proti"]
    quiet = 0
    if game not in ("sedma", "sto_a_sedem"):      # the actor announced no seven
        quiet += {"won_actor": 1, "killed_actor": -1}.get(seven, 0)
    if not sedma_proti:                           # the defence announced no seven
        quiet += {"won_def": -1, "killed_def": 1}.get(seven, 0)
    if quiet:
        parts["ticha_sedma"] = quiet
    return parts, main


# ---------------------------------------------------------------------------------------------
# Rule options (§9) and the experiment's strategy choices (§8.1), with their validation

import numpy as np                      # noqa: E402  (the settlement above needs neither)
import pandas as pd                     # noqa: E402
from fractions import Fraction          # noqa: E402
from functools import lru_cache         # noqa: E402
from math import comb, factorial        # noqa: E402

from .. import option_parsing as parsing  # noqa: E402
from ..cards import MARIAS32, Cards, check_disjoint  # noqa: E402
from ..constrained import DealLayout                  # noqa: E402
from ..stats import (MIN_NORMAL_N, clustered_wilson, design_effect, mean_interval, pair_sum_sq,  # noqa: E402
                     ratio_interval, wilson)
from ..strategies import check as check_python, factory, is_python   # noqa: E402
from . import Analysis, Game                          # noqa: E402

RULE_DEFAULTS: dict[str, Any] = dict(
    SETTLEMENT_DEFAULTS,
    base_cents=5,                 # B in cents
    start_balance=200,            # in B (§2 R-DEAL-3; informative, the simulator reports deltas)
    protocol="V",                 # A16: V (volený-style) | L (auction, §3.6: natural game, compare, play_deal)
    allow_z_lidu=True,            # A27
    talon_allows_trumps=True,     # A17
    allow_hopeless_stovka=False,  # A7
    hlas_needs_trick=False,       # A12
    hlas_queen_first=False,       # A13
    max_doublings=4,              # A14
    allow_proti=True,             # §3.6 step 6
)
PRESETS: dict[str, dict[str, Any]] = {"seed": dict(RULE_DEFAULTS)}
CARD_STRATEGIES = ("heuristic", "random", "double_dummy", "pimc")
# Strategy roles of the analyses (the first name is the default), chosen per decision. Card play
# draws from stream 1 (compare: A 1, B 3); the bidding decisions (trump ties, z lidu) from
# stream 2; stream 0 only deals, so no strategy changes the deals.
# Forced Stovka (and the baselines) fix the contract and play no doublings (§8.1): no roles for them.
FORCED_ROLES: dict[str, tuple[str, ...]] = dict(
    actor_play=CARD_STRATEGIES,            # card play of the actor
    defender_play=CARD_STRATEGIES,         # card play of the defenders
    # τ: longest suit of the first 7 cards | blind (z lidu) | oracle: every suit of the 12 cards,
    # each a separate trial (§8.1 step 2; forced Stovka only)
    trump_choice=("longest", "z_lidu", "oracle"),
    discard=("heuristic", "low_cards"),    # short side suits first (voids) | the lowest cards first
)
NATURAL_ROLES = dict(FORCED_ROLES, trump_choice=("longest", "z_lidu"),
                     contract=("heuristic", "bold", "cautious"),   # the gates of choose_contract
                     doubling=("heuristic", "none"))  # heuristic: raises and re-raises up to max_doublings
# the roles that also take a user's Python strategy (analyzer/strategies.py; see MariasPlayer)
PYTHON_ROLES = dict(actor_play=("choose_card",), defender_play=("choose_card",), discard=("choose_discard",))
STOVKA_FILTERS = {"any_hlas": "holds any hlas", "trump_hlas": "holds the trump hlas",
                  "mariasek": ">= 4 trumps and >= 1 hlas (Mariasek's pre-filter)",
                  "all": "may announce Stovka: holds a hlas, or any hand with allow_hopeless_stovka"}
_CHOICES = dict(hlas_for_stovka=("highest", "first"), ticha_stovka_rate=("full", "half"), protocol=("V", "L"))
_INTS = dict(deal_cap=(0, 100_000), maly_value=(1, 1000), velky_value=(1, 1000),
             base_cents=(1, 100_000), start_balance=(0, 10**9), max_doublings=(0, 10))
_BOOLS = ("stovka_scale_counts_all_hlasy", "flek_per_defender", "sedma_proti_only_announcer", "allow_z_lidu",
          "talon_allows_trumps", "allow_hopeless_stovka", "hlas_needs_trick", "hlas_queen_first", "allow_proti")


def validate_option(key: str, value: Any) -> Any:
    """Check one option (accepts the string forms the CLI passes)."""
    return parsing.parse("marias", key, value, choices={**_CHOICES, "sto_a_sedem_step": (6, 4)}, flags=_BOOLS,
                         limits=_INTS)


def _settle_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: options[key] for key in SETTLEMENT_DEFAULTS}


def _kernel(mode: str, filter_name: str = "all"):
    def kernel(bit_generators, n_deals: int, rules: dict, strategies: dict, given=None, trump: int = -1
               ) -> dict[str, np.ndarray]:
        from .._core import marias as core

        with PythonPlayers(strategies, ("actor_play", "defender_play"), rules) as python:
            return core.stovka_shard(bit_generators, n_deals, rules, strategies, mode, filter_name, given, trump,
                                     python)
    return kernel


# Constrained deals (analyzer/constrained.py): protocol V reads a shuffled pack as packets of 7 to
# the forehand, 5 middle, 5 rear, 5 forehand, 5 middle, 5 rear. In the Stovka experiment the
# forehand is the actor. His first seven decide the trump choice, so their order is mixed when he
# holds fixed cards. The option trump fixes the trump suit (the trump choice is skipped and the
# actor's lowest trump is the indicator); he must then hold a card of that suit.

def _trump_option(value: Any) -> str:
    suit = str(value).strip().upper()
    if suit not in TRUMPS:
        raise ValueError(f"trump must be one of {', '.join(TRUMPS)}, got {value!r}")
    return suit


def _holds_trump(masks: dict, constraint: dict):
    if "trump" not in constraint:
        return None
    return (masks["actor"] & np.uint32(0xFF << (8 * TRUMPS.index(constraint["trump"])))) != 0


def _check_constraint(constraint: dict) -> None:
    actor = MARIAS32.parse(constraint.get("actor", ""))
    if "trump" in constraint and len(actor) == 12 and not any(c[1] == constraint["trump"] for c in actor):
        raise ValueError(f"the actor chooses trumps from his own cards: the given 12 hold no {constraint['trump']}")


LAYOUT = DealLayout(
    MARIAS32,
    {"actor": tuple(range(0, 7)) + tuple(range(17, 22)), "middle": tuple(range(7, 12)) + tuple(range(22, 27)),
     "rear": tuple(range(12, 17)) + tuple(range(27, 32))},
    ordered=("actor",), options={"trump": _trump_option}, implied=_holds_trump, validate=_check_constraint,
    kernel_options=lambda c: {"trump": TRUMPS.index(c["trump"]) if "trump" in c else -1},
    names=lambda c: {"trumps": 0xFF << (8 * TRUMPS.index(c["trump"]))} if "trump" in c else {})


_ANALYSES = {
    "stovka" if f == "any_hlas" else f"stovka_{f}": Analysis(
        "stovka" if f == "any_hlas" else f"stovka_{f}",
        f"Forced Stovka (§8) on the deals where the forehand {what}; paired with Hra, and Sto a sedem with Sedma a hra",
        _kernel("forced", f), streams=3, strategies=FORCED_ROLES, python_methods=PYTHON_ROLES, deal_layout=LAYOUT,
        # kozyr marias baselines runs this analysis too; its table is not part of the summary, since
        # which exact values apply depends on the run's constraint (see _cmd_baselines)
        summary=lambda counters, rules, strategies: list(stovka_tables(counters).items()))
    for f, what in STOVKA_FILTERS.items()
}
def _check_protocol_l_trumps(rules: dict, strategies: dict) -> None:
    """Under protocol L the auction's winner names the trumps (§3.6): no trump_choice applies."""
    if rules["protocol"] == "L" and strategies.get("trump_choice", "longest") != "longest":
        raise ValueError(f"protocol L takes trump_choice longest, not {strategies['trump_choice']}: the auction's "
                         "winner names the trumps (§3.6)")


_ANALYSES["game"] = Analysis(
    "game", "The whole game (protocol V, or L with protocol=L): trump choice or auction, discard, takeovers, "
    "contract, doublings, play, money",
    _kernel("natural"), streams=3, strategies=NATURAL_ROLES, python_methods=PYTHON_ROLES,
    check=_check_protocol_l_trumps,
    summary=lambda counters, rules, strategies: [("contracts", contracts_table(counters))])



def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    from .._core import marias as core

    with PythonPlayers(strategies, ("a_play", "b_play"), rules) as python:
        return core.compare_shard(bit_generators, n_deals, rules, strategies, python)


_ANALYSES["compare"] = Analysis(
    "compare",
    "Duplicate deals of the whole game: card play A as the actor against B defending, then B against A, "
    "same deal, trumps, discard, contract and doublings; A's money as the actor minus B's",
    _compare_kernel, streams=4, python_methods=dict(a_play=("choose_card",), b_play=("choose_card",),
                                                     discard=("choose_discard",)),
    strategies=dict(a_play=CARD_STRATEGIES, b_play=CARD_STRATEGIES,
                    **{role: NATURAL_ROLES[role] for role in ("trump_choice", "discard", "contract", "doubling")}),
    check=_check_protocol_l_trumps)


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis for two strategy labels. A label is a card-play strategy
    (heuristic, random, double_dummy, pimc) that plays every seat its side holds; the bidding
    (trump choice, discard, takeovers, contract, doublings) is the fixed heuristic one of the
    ``game`` analysis and is the same for both plays of a deal.

    Seats: each deal is bid once and played twice, A as the actor against B as both defenders,
    then B as the actor against A. The per-deal result of a strategy (``a``, ``b`` in the
    counters and ``mean_a``/``mean_b`` in the table) is the actor's money when it held the
    actor's seat: the actor's balance against both defenders, in units of the base stake B, as
    ``settle`` (§6.3) computes it. The paired difference ``a - b`` is then exactly A's money
    summed over all the seats it played on the deal (+a as the actor, -b from the two defenders'
    seats), i.e. what A wins from B per duplicate deal. Money and not "contract made" is the
    currency because it weighs a broken Stovka or a killed seven by what it costs. (Summing each
    strategy's money over its seats would make B's result exactly -A's: the pair is zero-sum, and
    the unpaired interval would mean nothing.) ``compare_contracts_table`` splits the result by contract."""
    for label in (a, b):
        if label not in CARD_STRATEGIES and not is_python(label):
            raise ValueError(f"unknown marias strategy {label!r}: a label is a card-play strategy, one of "
                             f"{', '.join(CARD_STRATEGIES)} or python:module:Class (a MariasPlayer)")
    return {"a_play": a, "b_play": b}


def compare_shard_size(strategies: Mapping[str, str]) -> int:
    """Small shards for the search players (PIMC about 1-3 s a duplicate deal, double-dummy tens
    of ms), so that they spread over the workers and the progress moves; the shard size is part of
    a run's config, so results stay reproducible."""
    names = {strategies.get("a_play"), strategies.get("b_play")}
    if "pimc" in names:
        return 5
    if "double_dummy" in names:
        return 100
    if any(is_python(n) for n in names):
        return 10_000
    return 100_000


# ---------------------------------------------------------------------------------------------
# Card play written in Python: the protocol, the view, and the callback the kernel calls

ORDER_SUIT = MARIAS32.ranks            # rank order, low to high, of suit games: 7 8 9 J Q K T A
ORDER_BETL = "789TJQKA"                # of Malý and Veľký


@dataclass(frozen=True)
class PlayView:
    """What a player knows when he chooses a card. Cards are the project's strings ("AS"); the
    *_mask fields hold the same sets as MARIAS32 masks (bit 8 * suit + rank, suits S H D C,
    ranks 7 8 9 J Q K T A). Seats: 0 the forehand, 1 the middle player, 2 the rear player."""
    seat: int                                       # who is to play
    actor: int                                      # the actor's seat; the other two defend together
    contract: str                                   # hra | sedma | stovka | sto_a_sedem | maly | velky
    trump: str | None                               # "S" "H" "D" "C"; None in Malý and Veľký
    order: str                                      # the contract's ranks, low to high
    hand: tuple[str, ...]                           # his cards now
    legal: tuple[str, ...]                          # the cards he may play (§5.3), at least two
    trick: tuple[tuple[int, str], ...]              # the current trick so far: (seat, card), in play order
    tricks: tuple[tuple[tuple[int, str], ...], ...]  # the finished tricks, three (seat, card) each
    trick_winners: tuple[int, ...]                  # who took each finished trick
    talon: tuple[str, ...]                          # the two discarded cards if he is the actor, else ()
    laid_down: tuple[str, ...]                      # protocol V: the talon he had laid down before a
                                                    # takeover picked it up (Malý/Veľký), else ()
    hlasy: tuple[str, ...]                          # per seat, the suits of the hlasy (K+Q) declared so far
    seven_holder: int | None                        # who announced the trump 7 (sedma, sto a sedem, proti)
    tricks_won: tuple[int, int, int]
    card_points: tuple[int, int, int]               # A/T and last-trick points taken (suit games)
    doublings: tuple[dict, dict]                    # with each defender (the seat after the actor first):
                                                    # doublings per part hra, sedma, main, sedma_proti
    hand_mask: int
    legal_mask: int
    played_mask: int                                # every card played so far
    rules: dict


@dataclass(frozen=True)
class DiscardView:
    """What the forehand knows when he lays the talon of a suit game (protocol V, §3.3): his 12
    cards, trumps and the indicator card. `allowed` leaves out the A and T, the indicator, the
    trump 7 (kept for a Sedma, since the contract is named after the discard) and, with
    talon_allows_trumps off, the trumps."""
    hand: tuple[str, ...]
    trump: str
    indicator: str | None                           # None in the forced Stovka's oracle trials (no indicator)
    allowed: tuple[str, ...]                        # at least two
    hand_mask: int
    allowed_mask: int
    rules: dict


class MariasPlayer:
    """The protocol of a mariáš strategy written in Python. A card-play role ("actor_play",
    "defender_play" of the analyses stovka*, game; a compare label) calls ``choose_card(view:
    PlayView) -> card`` (one of view.legal, as "AS"), only when there is a choice; the role
    "discard" (protocol V) calls ``choose_discard(view: DiscardView) -> two cards`` of
    view.allowed. Name it in a run as "python:package.module:ClassName" (one instance per shard
    and role; processes and clusters import it) or register() an object (threads only). An illegal
    answer raises a ValueError naming the card and the rule it breaks, when the shard ends.
    Randomness, if any, should come from a generator the class seeds itself, so that results stay
    reproducible."""

    def choose_card(self, view: PlayView) -> str:
        raise NotImplementedError

    def choose_discard(self, view: DiscardView) -> list[str]:
        raise NotImplementedError


# the cards of an 8-bit suit lane, high to low (as MARIAS32.from_mask lists them), per suit
_LANE_CARDS = [[tuple(MARIAS32.card(8 * s + b) for b in range(7, -1, -1) if byte >> b & 1) for byte in range(256)]
               for s in range(4)]
_CARD = tuple(MARIAS32.card(b) for b in range(32))
_BIT = {card: b for b, card in enumerate(_CARD)}
_SUITS_OF = tuple("".join(s for i, s in enumerate(TRUMPS) if bits >> i & 1) for bits in range(16))   # hlasy


def _cards(mask: int) -> tuple[str, ...]:
    return (_LANE_CARDS[0][mask & 255] + _LANE_CARDS[1][mask >> 8 & 255] + _LANE_CARDS[2][mask >> 16 & 255]
            + _LANE_CARDS[3][mask >> 24])


class PythonPlayers:
    """The callback the kernel calls for the roles held by Python strategies: slots 0 and 1 play
    cards for the two card-play roles given, slot 2 is the discard. It builds the view, checks the
    answer and keeps the first error, which leaving the ``with`` block raises (meanwhile the kernel
    plays on quietly with the lowest legal cards)."""

    def __init__(self, strategies: Mapping[str, str], card_roles: tuple[str, str], rules: dict):
        self.rules = rules
        self.players = [factory(strategies[r])() if is_python(strategies.get(r, "")) else None
                        for r in card_roles + ("discard",)]
        self.error: BaseException | None = None

    def __enter__(self):
        return self if any(p is not None for p in self.players) else None

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None and self.error is not None:
            raise self.error

    def __call__(self, slot: int, data: tuple) -> int:
        try:
            return self._discard(self.players[slot], data) if slot == 2 else self._answer(self.players[slot], data)
        except BaseException as exc:  # kept and raised after the shard
            if self.error is None:
                self.error = exc
            return -1

    def _discard(self, player, data: tuple) -> int:
        hand, trump, indicator, allowed = data
        suit = TRUMPS[trump]
        view = DiscardView(_cards(hand), suit, None if indicator < 0 else _CARD[indicator], _cards(allowed), hand,
                           allowed, self.rules)
        talon = MARIAS32.parse(player.choose_discard(view), None, "talon")
        name = f"{type(player).__name__}.choose_discard"
        if len(talon) != 2:
            raise ValueError(f"{name} returned {' '.join(talon) or 'nothing'}: the talon is exactly 2 cards (§3.3a)")
        for card in talon:
            if card not in view.hand:
                raise ValueError(f"{name} returned {card}, which the forehand does not hold (hand: {' '.join(view.hand)})")
            if card not in view.allowed:
                reason = ("an A or a T may not go to the talon of a suit game (§3.3b)" if card[0] in "AT" else
                          "the trump indicator may not be discarded (§3.3c)" if card == view.indicator else
                          "the trump 7 stays in the hand (§3.3c: a Sedma may still be announced)" if card == "7" + suit
                          else "talon_allows_trumps is off: no trumps in the talon")
                raise ValueError(f"{name} returned {card}: {reason} (allowed: {' '.join(view.allowed)})")
        return MARIAS32.mask(talon)

    def _answer(self, player, data: tuple) -> int:
        (seat, hand, legal, game, trump, actor, seven_holder, played, seats, winners, played_mask, talon, declared,
         won, points, k, laid_down) = data
        contract = GAMES[game]
        suit_game = contract in SUIT_GAMES
        trump_suit = TRUMPS[trump] if suit_game else None
        plays = [(seat_, _CARD[b]) for seat_, b in zip(seats, played)]
        done = len(winners) * 3
        view = PlayView(
            seat=seat, actor=actor, contract=contract, trump=trump_suit, order=ORDER_SUIT if suit_game else ORDER_BETL,
            hand=_cards(hand), legal=_cards(legal), trick=tuple(plays[done:]),
            tricks=tuple(tuple(plays[i:i + 3]) for i in range(0, done, 3)), trick_winners=tuple(winners),
            talon=_cards(talon), laid_down=_cards(laid_down), hlasy=tuple(_SUITS_OF[d] for d in declared),
            seven_holder=None if seven_holder < 0 else seven_holder, tricks_won=won, card_points=points,
            doublings=tuple(dict(zip(PART_KEYS, parts)) for parts in k), hand_mask=hand, legal_mask=legal, played_mask=played_mask, rules=self.rules)
        answer = player.choose_card(view)
        bit = _BIT.get(answer, -1) if isinstance(answer, str) else -1
        if bit >= 0 and legal >> bit & 1:
            return bit
        card = MARIAS32.parse([answer] if isinstance(answer, str) else answer, 1, "card")[0]
        name = f"{type(player).__name__}.choose_card"
        if card not in view.hand:
            raise ValueError(f"{name} returned {card}, which {SEATS[seat]} does not hold (hand: {' '.join(view.hand)})")
        if card not in view.legal:
            reason = _illegal_reason(list(view.hand), [c for _, c in view.trick], card, trump_suit, view.order,
                                     seat == seven_holder, self.rules["hlas_queen_first"] and suit_game,
                                     list(view.legal))
            raise ValueError(f"{name} returned {card}, which is not legal in trick {len(view.tricks) + 1}: {reason} "
                             f"(legal: {' '.join(view.legal)})")
        return _BIT[card]        # "as" or ["AS"]: parsed as the project's notation


GAME = Game(
    name="marias",
    title="Slovak mariáš (three players)",
    presets=PRESETS,
    validate_option=validate_option,
    analyses=_ANALYSES,
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: compare_shard_size(strategies),
)


# ---------------------------------------------------------------------------------------------
# Exact baselines (§8.4), by counting suit by suit

N_DEAL = factorial(32) // (factorial(12) * factorial(10) * factorial(10))


def _hlas_poly(hand: int) -> list[Fraction]:
    """P(a hand of `hand` cards holds exactly h hlasy), h = 0..4."""
    # per suit: (cards taken, hlas) -> ways
    per_suit = {}
    for j in range(9):
        with_pair = comb(6, j - 2) if j >= 2 else 0
        per_suit[(j, 1)] = with_pair
        per_suit[(j, 0)] = comb(8, j) - with_pair
    states = {(0, 0): 1}
    for _ in range(4):
        nxt: dict = {}
        for (n, h), w in states.items():
            for (j, x), v in per_suit.items():
                if v and n + j <= hand:
                    nxt[(n + j, h + x)] = nxt.get((n + j, h + x), 0) + w * v
        states = nxt
    total = comb(32, hand)
    return [Fraction(states.get((hand, h), 0), total) for h in range(5)]


def _defender_hlas_distribution() -> list[Fraction]:
    """P(the two 10-card hands hold h hlasy together), the forehand holding 12."""
    # per suit: (cards to forehand, cards to middle, hlasy of middle + rear) -> ways
    per_suit: dict = {}
    for kq_owner in ((0, 0), (1, 1), (2, 2), (0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)):
        hl = int(kq_owner[0] == kq_owner[1] != 0)
        for a in range(7):
            for b in range(7 - a):
                ways = comb(6, a) * comb(6 - a, b)
                fa = a + sum(o == 0 for o in kq_owner)
                mb = b + sum(o == 1 for o in kq_owner)
                per_suit[(fa, mb, hl)] = per_suit.get((fa, mb, hl), 0) + ways
    states = {(0, 0, 0): 1}
    for _ in range(4):
        nxt: dict = {}
        for (f, m, h), w in states.items():
            for (a, b, x), v in per_suit.items():
                if f + a <= 12 and m + b <= 10:
                    key = (f + a, m + b, h + x)
                    nxt[key] = nxt.get(key, 0) + w * v
        states = nxt
    return [Fraction(states.get((12, 10, h), 0), N_DEAL) for h in range(7)]


@lru_cache(maxsize=None)
def exact_baselines() -> dict[str, Fraction]:
    """Exact hand probabilities of §8.4 that do not depend on the trump choice."""
    p12, p10 = _hlas_poly(12), _hlas_poly(10)
    d = _defender_hlas_distribution()
    out = {f"forehand holds {h} hlasy": p12[h] for h in range(5)}
    out.update({f"a 10-card hand holds {h} hlasy": p10[h] for h in range(5)})
    out["forehand holds the K+Q of spades"] = Fraction(comb(30, 10), comb(32, 12))
    out["a 10-card hand holds the K+Q of spades"] = Fraction(comb(30, 8), comb(32, 10))
    out["defenders hold >= 1 hlas"] = 1 - d[0]
    out["defenders hold >= 2 hlasy"] = 1 - d[0] - d[1]
    for n in range(9):
        out[f"forehand holds {n} A+T"] = Fraction(comb(8, n) * comb(24, 12 - n), comb(32, 12))
    return out


def exact_given_actor(actor: Cards) -> dict[str, Fraction]:
    """Exact hand baselines of §8.4 given the actor's (forehand's) 12 cards, the other 20 dealt
    10 and 10 at random: every row of baselines_table with an exact value, by counting suit by
    suit how the free cards of each suit split between the middle and rear hands."""
    held = MARIAS32.mask(actor, 12, "actor's hand")
    # per suit: (cards to middle, middle's hlas, rear's hlas) -> ways; then over the four suits
    states = {(0, 0, 0): 1}
    for s in range(4):
        lane = (held >> (8 * s)) & 0xFF
        free = 8 - bin(lane).count("1")
        pair_free = not lane & ((1 << 4) | (1 << 5))            # neither the Q (bit 4) nor the K (bit 5) held
        per_suit = {}
        for b in range(free + 1):
            if pair_free:
                per_suit[(b, 1, 0)] = comb(free - 2, b - 2) if b >= 2 else 0
                per_suit[(b, 0, 1)] = comb(free - 2, b) if b <= free - 2 else 0
                per_suit[(b, 0, 0)] = comb(free, b) - per_suit[(b, 1, 0)] - per_suit[(b, 0, 1)]
            else:
                per_suit[(b, 0, 0)] = comb(free, b)
        nxt: dict = {}
        for (m, hm, hr), w in states.items():
            for (b, x, y), v in per_suit.items():
                if v and m + b <= 10:
                    key = (m + b, hm + x, hr + y)
                    nxt[key] = nxt.get(key, 0) + w * v
        states = nxt
    total = comb(20, 10)
    middle = [Fraction(sum(w for (m, hm, _), w in states.items() if m == 10 and hm == h), total) for h in range(5)]
    both = [Fraction(sum(w for (m, hm, hr), w in states.items() if m == 10 and hm + hr == h), total) for h in range(7)]
    own = bin(hlas_suits_of(held)).count("1")
    at = bin(held & MARIAS32.mask("AS AH AD AC TS TH TD TC")).count("1")
    out = {f"forehand holds {h} hlasy": Fraction(int(h == own)) for h in range(5)}
    out.update({f"a 10-card hand holds {h} hlasy": middle[h] for h in range(5)})
    out["forehand holds the K+Q of spades"] = Fraction(int(hlas_suits_of(held) & 1))
    spades_free = not held & MARIAS32.mask("KS QS")
    out["a 10-card hand holds the K+Q of spades"] = Fraction(comb(18, 8), total) if spades_free else Fraction(0)
    out["defenders hold >= 1 hlas"] = 1 - both[0]
    out["defenders hold >= 2 hlasy"] = 1 - both[0] - both[1]
    out.update({f"forehand holds {n} A+T": Fraction(int(n == at)) for n in range(9)})
    return out


def hlas_suits_of(mask: int) -> int:
    """Bit per suit in which a mask holds both the K and the Q."""
    return sum(1 << s for s in range(4) if (mask >> (8 * s + 4)) & 3 == 3)


# Figures of the rules file (§8.4) for the trump policy `longest`: Monte Carlo of 400,000 deals.
RULES_FILE_TAU = {
    "trumps in 12 = 2": 0.046, "trumps in 12 = 3": 0.267, "trumps in 12 = 4": 0.397, "trumps in 12 = 5": 0.228,
    "trumps in 12 = 6": 0.056, "trumps in 12 = 7": 0.006, "trump hlas": 0.254, "trump 7": 0.472, "trump A": 0.529,
    "trump T": 0.528, "trump hlas and >= 5 trumps": 0.119, "trump hlas and >= 4 trumps": 0.212,
    "any hlas and >= 4 trumps": 0.326, "trump hlas, trump A and >= 5 trumps": 0.067, "zolik sto gate": 0.002,
    "trumps are hearts": 0.25,
}
RULES_FILE_MC_DEALS = 400_000     # the rules file's Monte Carlo of the τ rows (§8.4)
RULES_FILE_ROUNDING = 0.001       # its figures are rounded to 0.1 percentage point


def _rules_file_z(estimate: float, n: int, figure: float) -> float:
    """How many standard errors our estimate lies from the rules file's figure, counting both
    samples (ours of n deals, its of 400,000) and its rounding (uniform: width^2 / 12). The
    binomial spread is the figure's own (the rate both samples share if they agree), so that an
    estimate of 0 or 1 from a few deals is not thousands of errors away."""
    p = figure
    se = np.sqrt(p * (1 - p) / n + p * (1 - p) / RULES_FILE_MC_DEALS + RULES_FILE_ROUNDING ** 2 / 12)
    return (estimate - figure) / se


def _rate(section, event, count, n, exact=None, rules_file=None, sum_sq=None, deals=None):
    """A rate with its Wilson interval; pooled over the hands of `deals` deals with sum_sq (the
    deals' squared numbers of hands with the event), the clustered one."""
    low, high = wilson(count, n) if sum_sq is None else clustered_wilson(count, n, sum_sq, deals)
    return dict(section=section, event=event, count=int(count), n=int(n), estimate=count / n if n else np.nan,
                ci_low=float(low), ci_high=float(high), exact=float(exact) if exact is not None else np.nan,
                rules_file=rules_file if rules_file is not None else np.nan)


def baselines_table(counters: Mapping[str, np.ndarray], exact: Mapping[str, Fraction] | None = None,
                    trump_choice: str = "longest") -> pd.DataFrame:
    """Hand baselines on every deal: estimate, Wilson 95% interval, exact value, rules-file figure.
    `exact` replaces the exact values of a random deal, e.g. by exact_given_actor() for deals
    constrained to the actor's hand ({}: none known; the rules-file figures are then left out).
    The rules file's figures of the trump rows are those of trump_choice longest: shown only then."""
    from .._core import marias as core

    n = int(counters["deals"][0])
    ex = exact_baselines() if exact is None else exact
    tau = RULES_FILE_TAU if exact is None and trump_choice == "longest" else {}
    rows = []
    for h in range(5):
        rows.append(_rate("hlasy", f"forehand holds {h} hlasy", counters["fh_hlas"][h], n, ex.get(f"forehand holds {h} hlasy")))
    # The two 10-card hands of a deal are not independent (runs stored before 0.8.11 lack the
    # counts of deals where both hold h hlasy); one K+Q of spades is in at most one (x^2 = x).
    both = counters.get("hand10_both")
    for h in range(5):
        count = int(counters["hand10_hlas"][h])
        rows.append(_rate("hlasy", f"a 10-card hand holds {h} hlasy", count, 2 * n,
                          ex.get(f"a 10-card hand holds {h} hlasy"),
                          sum_sq=pair_sum_sq(count, both[h]) if both is not None else None, deals=n))
    rows.append(_rate("hlasy", "forehand holds the K+Q of spades", counters["fh_kq_spades"][0], n,
                      ex.get("forehand holds the K+Q of spades")))
    rows.append(_rate("hlasy", "a 10-card hand holds the K+Q of spades", counters["hand10_kq_spades"][0], 2 * n,
                      ex.get("a 10-card hand holds the K+Q of spades"), sum_sq=int(counters["hand10_kq_spades"][0]),
                      deals=n))
    rows.append(_rate("hlasy", "defenders hold >= 1 hlas", counters["def_hlas"][1:].sum(), n, ex.get("defenders hold >= 1 hlas")))
    rows.append(_rate("hlasy", "defenders hold >= 2 hlasy", counters["def_hlas"][2:].sum(), n, ex.get("defenders hold >= 2 hlasy")))
    for a in range(9):
        rows.append(_rate("A+T", f"forehand holds {a} A+T", counters["fh_at"][a], n, ex.get(f"forehand holds {a} A+T")))
    for t in range(2, 9):
        rows.append(_rate("trump choice", f"trumps in 12 = {t}", counters["fh_trumps"][t], n,
                          rules_file=tau.get(f"trumps in 12 = {t}")))
    for i, name in enumerate(core.HOLDING_NAMES):
        rows.append(_rate("trump choice", name, counters["holdings"][i], n, rules_file=tau.get(name)))
    table = pd.DataFrame(rows)
    if tau:
        table["z vs rules_file"] = [_rules_file_z(r.estimate, r.n, r.rules_file) for r in table.itertuples()]
    table.attrs["percent_columns"] = ["rules_file"]
    return table


# ---------------------------------------------------------------------------------------------
# Tables of the Stovka experiment

HLAS_LABELS = ("no hlas", "side hlas (20)", "trump hlas (40)")
HONOUR_NAMES = ("A", "T", "K", "Q", "7")


def _trial_rate(s, n, clusters) -> dict:
    """A success rate over trials with its Wilson interval. `clusters` is the cell's planes of a
    <name>_clusters counter (deals, sum t^2, sum x t, sum x^2): under trump_choice oracle a deal
    gives one trial a suit, its trials are not independent, and the interval is at the effective
    sample size n / design effect (of clusters of unequal size, shown beside it). Where the deals
    cannot measure it, it takes the worst case, the trials of a deal all alike: from fewer than
    MIN_NORMAL_N deals the design effect sum t^2 / n, and at a rate of 0 or 1 the deals as the
    sample (n / deals; no success in any trial says no more than none in any deal). A cell without
    clusters (one trial a deal) has the plain interval."""
    deals, size_sq, cross, sq = (int(v) for v in clusters)
    if not deals:
        low, high = wilson(s, n)
        return dict(n=int(n), successes=int(s), rate=s / n if n else np.nan, ci_low=float(low), ci_high=float(high))
    if s in (0, n):
        deff = n / deals
    elif deals < MIN_NORMAL_N:
        deff = size_sq / n
    else:
        deff = design_effect(s, n, sq, deals, cross, size_sq)
    low, high = wilson(s / deff, n / deff)
    return dict(n=int(n), successes=int(s), rate=s / n, ci_low=float(low), ci_high=float(high), deals=deals,
                design_effect=deff)


def _trial_mean(total, total_sq, n, clusters) -> dict:
    """Mean of n trials' values (S, in B) and its normal interval; with clusters (see _trial_rate)
    the ratio of the deals' sums to their trials, with the delta-method interval over the deals."""
    deals, size_sq, cross, sq = (int(v) for v in clusters)
    if not deals:
        mean, low, high = mean_interval(float(total), float(total_sq), int(n))
        return dict(deals=int(n), mean_S_in_B=mean, ci_low=low, ci_high=high)
    mean, low, high = ratio_interval(float(total), float(n), float(sq), float(size_sq), float(cross), deals)
    return dict(trials=int(n), deals=deals, mean_S_in_B=mean, ci_low=low, ci_high=high)


def _success_rows(trials, successes, clusters, labels: dict) -> list[dict]:
    rows = []
    for key, n in np.ndenumerate(trials):
        if n:
            rows.append(dict(**{name: f(key) for name, f in labels.items()},
                             **_trial_rate(successes[key], n, clusters[(slice(None), *key)])))
    return rows


def stovka_tables(counters: Mapping[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """Success of the forced Stovka by hand feature, the count distribution, money and companions."""
    from .._core import marias as core

    tables = {}
    clusters = {name: _clusters_of(counters, name) for name in core.CLUSTERED}
    n, s = int(counters["qualified"][0]), int(counters["success"][0])
    overall = _trial_rate(s, n, clusters["qualified"][:, 0])
    del overall["n"]
    unit = "qualifying_trials" if "deals" in overall else "qualifying_deals"   # trump_choice oracle: one a suit
    tables["overall"] = pd.DataFrame([{unit: n, **overall}])

    def by(key, labels):
        return pd.DataFrame(_success_rows(counters[key][0], counters[key][1], clusters[key], labels))

    tables["by max_hlas x trumps"] = by("by_hlas_trumps", dict(max_hlas=lambda k: HLAS_LABELS[k[0]],
                                                               trumps_after_discard=lambda k: k[1]))
    tables["by A+T held"] = by("by_at", dict(a_plus_t=lambda k: k[0]))
    tables["by trump honours"] = by("by_honours", dict(
        trump_honours=lambda k: "".join(h for i, h in enumerate(HONOUR_NAMES) if k[0] >> i & 1) or "none"))
    for key, column in (("by_side_aces", "side_aces"), ("by_unguarded_tens", "unguarded_side_tens"),
                        ("by_side_voids", "side_voids"), ("by_longest_side", "longest_side_suit"),
                        ("by_side_singletons", "side_singletons")):
        tables[f"by {column.replace('_', ' ')}"] = by(key, {column: lambda k: k[0]})
    tables["by defenders' hlasy"] = by("by_def_hlas", {"defenders_hlasy": lambda k: 20 * k[0]})
    tables["by discard"] = by("by_discard", dict(discard=lambda k: core.DISCARD_KINDS[k[0]], voids_made=lambda k: k[1]))
    tables["settlement distribution"] = settlement_distribution(counters)
    tables["count distribution"] = pd.DataFrame(
        [dict(count=10 * row.pop("value"), **row)
         for row in _distribution_rows(counters["count_hist"], clusters["count_hist"], clusters["qualified"][:, 0])])
    rows = []
    for i, name in enumerate(("Stovka", "Hra (with tichá stovka)", "Sto a sedem", "Sedma a hra")):
        m, tot, sq = counters["money"][i]
        if m:
            rows.append(dict(contract=name, **_trial_mean(tot, sq, m, clusters["money"][:, i])))
    for i, name in enumerate(("Stovka - Hra", "Sto a sedem - Sedma a hra")):
        m, tot, sq = counters["paired"][i]
        if m:
            row = _trial_mean(tot, sq, m, clusters["paired"][:, i])
            unit = "trials" if "trials" in row else "deals"
            rows.append(dict(contract=f"paired difference: {name}", **row,
                             **{f"{unit}_where_first_pays_more": int(counters["paired_positive"][i])}))
    tables["money"] = pd.DataFrame(rows)
    comp = []
    for i, name in enumerate(core.COMPANION):
        succ, trials = counters["companion"][i]
        if trials:
            row = _trial_rate(succ, trials, clusters["companion"][:, i])
            estimate = row.pop("rate")
            comp.append(dict(rate=name, n=row.pop("n"), successes=row.pop("successes"), estimate=estimate, **row))
    tables["companion rates"] = pd.DataFrame(comp)
    return tables


def _distribution_rows(hist, clusters, row_clusters) -> list[dict]:
    """Each value of a distribution over trials with its share and Wilson interval: `hist` the
    trials a value, `clusters` its cells' planes (sum x t, sum x^2 with t the row's trials) and
    `row_clusters` the row's deals and sum t^2 (see _trial_rate; zero outside trump_choice oracle)."""
    n, rows = int(hist.sum()), []
    for v in np.flatnonzero(hist):
        rate = _trial_rate(hist[v], n, (row_clusters[0], row_clusters[1], clusters[2, v], clusters[3, v]))
        rate.pop("n")
        unit = "trials" if "deals" in rate else "deals"         # trump_choice oracle: one a suit
        rows.append(dict(value=int(v), n=n, **{unit: rate.pop("successes")}, share=rate.pop("rate"), **rate))
    return rows


def _clusters_of(counters: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    """counters[name + "_clusters"], or zeros for a run stored before 0.8.13 (no clusters)."""
    from .._core import marias as core
    key = f"{name}_clusters"
    return counters[key] if key in counters else core.new_counters()[key]


def settlement_distribution(counters: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The distribution of S (per defender, in B) of each contract the forced experiment settles:
    per value the deals, their share and its Wilson 95% interval (the money row's trials as its
    clusters under trump_choice oracle)."""
    from .._core import marias as core

    clusters, money = _clusters_of(counters, "s_hist"), _clusters_of(counters, "money")
    rows = []
    for i, contract in enumerate(core.S_ROWS):
        for row in _distribution_rows(counters["s_hist"][i], clusters[:, i], money[:, i]):
            rows.append(dict(contract=contract, S=row.pop("value") - core.S_OFFSET, **row))
    return pd.DataFrame(rows)


def contracts_table(counters: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Natural mode: how often each contract is played, how often its main part is won, the
    actor's mean balance per deal (2 S, in B) and, in suit games, how often count >= 100."""
    from .._core import marias as core

    rows = []
    deals = int(counters["deals"][0])
    for g, name in enumerate(core.GAME_NAMES):
        n, made, tot, sq, hundred = (int(x) for x in counters["contracts"][g])
        if not n:
            continue
        lo, hi = wilson(made, n)
        mean, mlo, mhi = mean_interval(float(tot), float(sq), n)
        rows.append(dict(contract=name, deals=n, share=n / deals, won=made, win_rate=made / n, ci_low=float(lo),
                         ci_high=float(hi), actor_mean_balance_B=mean, balance_ci_low=mlo, balance_ci_high=mhi,
                         count_100_rate=hundred / n if g < 4 else np.nan))
    return pd.DataFrame(rows)


def compare_contracts_table(counters: Mapping[str, np.ndarray], a: str = "A", b: str = "B") -> pd.DataFrame:
    """A compare run split by the contract the bidding reached: how often A made it as the actor
    against B's defence and B against A's (main part won), with Wilson intervals, and each side's
    mean money as the actor (in B). E.g. the Stovka row answers "which defence breaks more
    Stovkas": the lower made rate is the actor's against the better defence."""
    from .._core import marias as core

    rows = []
    for g, name in enumerate(core.GAME_NAMES):
        n, made_a, made_b, sum_a, sum_b = (int(x) for x in counters["by_contract"][g])
        if not n:
            continue
        row = dict(contract=name, deals=n)
        for who, made, total in ((a, made_a, sum_a), (b, made_b, sum_b)):
            lo, hi = wilson(made, n)
            row.update({f"{who}_actor_made": made / n, f"{who}_made_ci_low": float(lo),
                        f"{who}_made_ci_high": float(hi), f"{who}_actor_mean_B": total / n})
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Single-deal API

SEATS = ("forehand", "middle", "rear")
CONTRACT_NAMES = {"hra": "Hra", "sedma": "Sedma a hra", "stovka": "Stovka", "sto_a_sedem": "Sto a sedem",
                  "maly": "Malý", "velky": "Veľký"}
SUIT_SLOVAK = {"S": "zelené", "H": "červené", "D": "gule", "C": "žalude"}


@dataclass(frozen=True)
class DealResult:
    contract: str
    trump: str | None
    actor: int
    hands: tuple[tuple[str, ...], ...]
    talon: tuple[str, ...]
    tricks: tuple[tuple[tuple[int, str], ...], ...]    # per trick: (seat, card) in play order
    trick_winners: tuple[int, ...]
    card_points: dict[str, int]                        # actor / defenders
    last_trick: str | None                             # "actor" | "def" (suit games)
    hlasy_actor: tuple[int, ...]                       # in the order declared
    hlasy_def: tuple[int, ...]
    seven: str
    actor_tricks: int
    counted: int | None                                # Stovka count (card points + last + counted hlas)
    settlement: Settlement
    options: dict

    def explain(self) -> str:
        return explain_deal(self)


def _illegal_reason(hand: list[str], trick: list[str], card: str, trump: str | None, order: str,
                    seven_guard: bool, queen_first: bool, legal: list[str]) -> str:
    """Which duty of §5.3 a card breaks (the legal set comes from the kernel; `order` is the rank
    order, low to high): following suit first, then the announced seven and the queen of a pair,
    which hold whatever the trick, then beating, trumping and over-trumping."""
    led = trick[0][1] if trick else None
    if led and card[1] != led and any(c[1] == led for c in hand):
        return f"must follow suit {led}"
    if seven_guard and trump and card == "7" + trump:
        return "the announced trump 7 must be kept while another card is legal"
    if queen_first and card[0] == "K" and "Q" + card[1] in legal:
        return "hlas_queen_first: the Q must be played before the K of a held pair"
    if led:
        if card[1] == led and any(c[1] == led and order.index(c[0]) > order.index(card[0]) for c in legal):
            return f"must beat the trick with a higher {led} if able"
        if trump and card[1] != trump and any(c[1] == trump for c in hand):
            return "void in the suit led: must trump"
        if trump and card[1] == trump:
            return "must over-trump if able"
    return "not a legal card here"


def _parse_tricks(tricks) -> list[str]:
    if tricks is None:
        return []
    if isinstance(tricks, str):
        return MARIAS32.parse(tricks, what="card sequence")
    tricks = list(tricks) if isinstance(tricks, Iterable) else tricks
    if not isinstance(tricks, list) or not all(isinstance(item, (str, Iterable)) for item in tricks):
        raise ValueError(f"tricks must be a card string, a list of cards or a list of tricks, got {tricks!r}")
    flat: list[str] = []
    for item in tricks:
        flat += MARIAS32.parse(item if isinstance(item, str) else list(item), what="card sequence")
    seen = set()
    for c in flat:
        if c in seen:
            raise ValueError(f"card {c!r} is played twice in the card sequence")
        seen.add(c)
    return flat


def _check_doublings(k, contract: str, sedma_proti: bool, options: dict) -> dict[str, int] | list[dict[str, int]]:
    """play_deal's k: one mapping of doublings per part, or a pair of them (one per defender)
    under flek_per_defender; each part must be one the contract has, within max_doublings."""
    if k is None or isinstance(k, Mapping):
        pair = None
        ks = [_check_k(k or {}, "k")]
    elif isinstance(k, str) or not isinstance(k, Sequence):
        raise ValueError(f"k must be a mapping of part -> number of doublings (or a pair of them), got {k!r}")
    else:
        pair = list(k)
        if not options["flek_per_defender"]:
            raise ValueError("doublings per defender need flek_per_defender=true: without it a doubling by one "
                             "defender binds both (A2)")
        if len(pair) != 2:
            raise ValueError(f"k must be one mapping, or a pair of mappings (one per defender), got {len(pair)}")
        ks = [_check_k(pair[0], "k[0]"), _check_k(pair[1], "k[1]")]
        if ks[0]["sedma_proti"] != ks[1]["sedma_proti"]:
            raise ValueError("the sedma proti part is doubled between the actor and its announcer: give it the "
                             "same number of doublings for both defenders")
    parts = {"hra": {"hra"}, "sedma": {"hra", "sedma"}}.get(contract, {"main"}) | ({"sedma_proti"} if sedma_proti else set())
    for kd in ks:
        for part, value in kd.items():
            if value and part not in parts:
                raise ValueError(f"{CONTRACT_NAMES[contract]}{' with sedma proti' if sedma_proti else ''} has no "
                                 f"{part} part to double; its parts: {', '.join(sorted(parts))}")
            if value > options["max_doublings"]:
                raise ValueError(f"k[{part!r}] = {value} exceeds max_doublings = {options['max_doublings']}")
    return ks if pair is not None else ks[0]


def play_deal(hands: Sequence[Cards], talon: Cards, contract: str, trump: str | None = None, tricks=None, *,
              actor: int = 0, strategies: str | Sequence[str] = "heuristic", sedma_proti: bool = False,
              k: Mapping[str, int] | None = None, rules: str = "seed", seed: int = 0, **overrides) -> DealResult:
    """Play or score one given deal. Under protocol V (default) the actor leads the first trick;
    under protocol L (``protocol="L"``, §3.6) the forehand (seat 0) leads a suit game whoever the
    actor is, and the actor leads Malý/Veľký.

    hands: the three 10-card hands at the start of play, seats 0 (forehand), 1, 2; talon: the
    2 discarded cards. contract: hra | sedma | stovka | sto_a_sedem | maly | velky (a suit
    contract "v červených" is trump="H"). tricks: the cards played, in order (a string, a list, or
    a list of tricks); whatever is not given is played by `strategies` (one name, or one per
    seat: heuristic | random | double_dummy | pimc, or a Python MariasPlayer as python:module:Class,
    one for both defenders) with the bit generator seeded by `seed`. sedma_proti: a defender
    holding the trump 7 announced it; k: doublings per part, or under ``flek_per_defender`` a
    pair of them, one per defender (the actor's left-hand neighbour first; the sedma proti part is
    doubled between the actor and the announcer, so it must be the same in both). Raises ValueError for malformed,
    duplicate or missing cards, a talon or contract the rules forbid, and illegal plays (naming the
    trick and the rule broken)."""
    from .._core import marias as core

    options = GAME.resolve_rules(rules, overrides)
    if contract not in GAMES:
        raise ValueError(f"unknown contract {contract!r}; choose one of {', '.join(GAMES)}")
    if not isinstance(actor, int) or isinstance(actor, bool) or actor not in (0, 1, 2):
        raise ValueError(f"actor must be seat 0, 1 or 2, got {actor!r}")
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != 3:
        raise ValueError(f"hands must be a list of three hands of 10 cards, got {hands!r}")
    parsed = [MARIAS32.parse(h, 10, f"{SEATS[i]} hand") for i, h in enumerate(hands)]
    talon_cards = MARIAS32.parse(talon, 2, "talon")
    check_disjoint(parsed + [talon_cards], list(SEATS) + ["talon"])
    suit_game = contract in SUIT_GAMES
    if suit_game:
        if trump not in tuple(TRUMPS):
            raise ValueError(f"a suit game needs trump = one of S H D C, got {trump!r}")
        if any(c[0] in "AT" for c in talon_cards):
            raise ValueError("the talon of a suit game may not hold an A or a T (§3.3b)")
        if not options["talon_allows_trumps"] and any(c[1] == trump for c in talon_cards):
            raise ValueError("talon_allows_trumps is off: the talon may not hold a trump")
    elif trump is not None:
        raise ValueError(f"{CONTRACT_NAMES[contract]} has no trumps; leave trump unset")
    if suit_game and actor != 0 and options["protocol"] == "V":
        raise ValueError(f"under protocol V the actor of a suit game is the forehand, seat 0 (§3.5); got actor {actor} "
                         "(protocol=L lets the auction's winner play it)")
    seven = "7" + trump if suit_game else None
    actor_hand = parsed[actor]
    if contract in ("sedma", "sto_a_sedem") and seven not in actor_hand:
        raise ValueError(f"{CONTRACT_NAMES[contract]} needs the trump 7 ({seven}) in the actor's hand")
    actor_hlasy = [s for s in "SHDC" if "K" + s in actor_hand and "Q" + s in actor_hand]
    if contract in ("stovka", "sto_a_sedem") and not actor_hlasy and not options["allow_hopeless_stovka"]:
        raise ValueError(f"{CONTRACT_NAMES[contract]} needs a hlas (K+Q) in the actor's hand (allow_hopeless_stovka is off)")
    seven_holder = -1
    proti_by = 0
    if contract in ("sedma", "sto_a_sedem"):
        seven_holder = actor
    if sedma_proti:
        if contract not in ("hra", "stovka"):
            raise ValueError("sedma proti is only possible against Hra or Stovka")
        if not options["allow_proti"]:
            raise ValueError("allow_proti is off: no sedma proti")
        holders = [s for s in range(3) if s != actor and seven in parsed[s]]
        if not holders:
            raise ValueError(f"sedma proti needs a defender holding the trump 7 ({seven})")
        seven_holder = holders[0]
        proti_by = 0 if seven_holder == (actor + 1) % 3 else 1
    kk = _check_doublings(k, contract, sedma_proti, options)
    names = [strategies] * 3 if isinstance(strategies, str) else list(strategies)
    if len(names) != 3 or any(n not in CARD_STRATEGIES and not is_python(n) for n in names):
        raise ValueError(f"strategies must be one of {', '.join(CARD_STRATEGIES)} or python:module:Class, or a list "
                         f"of three, got {strategies!r}")
    defenders = {names[s] for s in range(3) if s != actor and is_python(names[s])}
    if len(defenders) > 1:
        raise ValueError("the two defenders may share one Python strategy, not play two different ones")
    python_roles = {"actor_play": names[actor], "defender_play": defenders.pop() if defenders else "heuristic"}
    for name in python_roles.values():
        if is_python(name):
            check_python(name, ("choose_card",))
    sequence = _parse_tricks(tricks)
    if len(sequence) > 30:
        raise ValueError(f"the card sequence has {len(sequence)} cards; a deal has at most 30")
    game_index = core.GAME_NAMES.index(contract)
    trump_index = "SHDC".index(trump) if suit_game else -1
    masks = [MARIAS32.mask(h) for h in parsed]
    first_leader = 0 if options["protocol"] == "L" and suit_game else actor
    with PythonPlayers(python_roles, ("actor_play", "defender_play"), options) as python:
        out = core.play_one(masks, MARIAS32.mask(talon_cards), actor, game_index, trump_index, seven_holder, names,
                            [MARIAS32.bit(c) for c in sequence], options, np.random.PCG64(seed), first_leader, python)
    cards = [MARIAS32.card(b) for b in out["cards"]]
    if out["error"]:
        i = out["error_index"]
        # the seat to play: leader of the trick, then around the table
        trick_no, pos = divmod(i, 3)
        leader = first_leader if trick_no == 0 else out["trick_winners"][trick_no - 1]
        seat = (leader + pos) % 3
        card = sequence[i]
        if out["error"] == "not in hand":
            raise ValueError(f"trick {trick_no + 1}, card {pos + 1}: {SEATS[seat]} does not hold {card}")
        played = set(cards)
        hand = [c for c in parsed[seat] if c not in played]
        trick = cards[trick_no * 3:trick_no * 3 + pos]
        legal = MARIAS32.from_mask(out["legal"][i])
        order = ORDER_SUIT if suit_game else ORDER_BETL
        reason = _illegal_reason(hand, trick, card, trump if suit_game else None, order, seat == seven_holder,
                                 options["hlas_queen_first"] and suit_game, legal)
        raise ValueError(f"trick {trick_no + 1}, card {pos + 1}: {SEATS[seat]} may not play {card}: {reason} "
                         f"(legal: {' '.join(legal)})")
    trick_list = tuple(tuple((out["seats"][j], cards[j]) for j in range(t * 3, t * 3 + 3))
                       for t in range(len(out["trick_winners"])))
    # hlasy in the order declared: the first card of each pair played by its holder
    declared: dict[int, list[int]] = {0: [], 1: [], 2: []}
    if suit_game:
        for seat_, card in zip(out["seats"], cards):
            s = card[1]
            if card[0] in "KQ" and "K" + s in parsed[seat_] and "Q" + s in parsed[seat_]:
                value = 40 if s == trump else 20
                key = (seat_, s)
                if key not in declared.setdefault("done", set()):
                    declared["done"].add(key)
                    declared[seat_].append(value)
    h_actor = tuple(declared[actor])
    h_def = tuple(v for s in range(3) if s != actor for v in declared[s])
    if options["hlas_needs_trick"] and suit_game:
        if out["tricks"][actor] == 0:
            h_actor = ()
        if sum(out["tricks"]) - out["tricks"][actor] == 0:
            h_def = ()
    settle_opts = _settle_options(options)
    if suit_game:
        settlement = settle(contract, trump, kk, sedma_proti, out["cp_actor"], "actor" if out["last_actor"] else "def",
                            h_actor, h_def, out["seven"], proti_by=proti_by, **settle_opts)
        cp = {"actor": out["cp_actor"], "defenders": 80 - out["cp_actor"]}
        counted = out["counted"]
    else:
        settlement = settle(contract, k=kk, actor_tricks=out["tricks"][actor], **settle_opts)
        cp, counted = {}, None
    return DealResult(contract, trump if suit_game else None, actor, tuple(tuple(MARIAS32.from_mask(m)) for m in masks),
                      tuple(talon_cards), trick_list, tuple(out["trick_winners"]), cp,
                      ("actor" if out["last_actor"] else "def") if suit_game and len(trick_list) == 10 else None,
                      h_actor, h_def, out["seven"], out["tricks"][actor], counted, settlement, options)


def explain_deal(r: DealResult) -> str:
    name = CONTRACT_NAMES[r.contract]
    if r.trump:
        name += f" in {SUIT_SLOVAK[r.trump]} ({r.trump})" + (" — v červených, everything doubled" if r.trump == "H" else "")
    lines = [f"Contract: {name}; actor: seat {r.actor} ({SEATS[r.actor]})", ""]
    for s, hand in enumerate(r.hands):
        role = "actor" if s == r.actor else "defender"
        lines.append(f"  seat {s} {SEATS[s]:8} ({role:8}): {' '.join(hand)}")
    lines += [f"  talon: {' '.join(r.talon)}", ""]
    for t, (trick, w) in enumerate(zip(r.tricks, r.trick_winners)):
        played = "  ".join(f"{SEATS[s]} {c}" for s, c in trick)
        lines.append(f"  trick {t + 1:2}: {played:40} -> {SEATS[w]}")
    lines.append("")
    if r.trump:
        lines += [f"Card points (A/T): actor {r.card_points['actor']}, defenders {r.card_points['defenders']}; "
                  f"last trick (+10): {r.last_trick}",
                  f"Hlasy: actor {list(r.hlasy_actor) or 'none'}, defenders {list(r.hlasy_def) or 'none'}",
                  f"Seven in the last trick: {r.seven}"]
        if r.contract in ("stovka", "sto_a_sedem"):
            lines.append(f"Counted toward 100 (card points + last trick + one hlas): {r.counted}")
    else:
        lines.append(f"Tricks won by the actor: {r.actor_tricks}" + (" (play stopped early)" if len(r.tricks) < 10 else ""))
    st = r.settlement
    cents = r.options["base_cents"]
    def listed(parts: dict[str, int]) -> str:
        return ", ".join(f"{k} {v:+d}" for k, v in parts.items())

    same = all(parts == st.parts for parts in st.defender_parts)
    lines += ["", f"Settlement ({'per defender, ' if same else ''}in B): " + (listed(st.parts) if same else
              "each defender's parts below") + (" ; doubled for hearts" if st.hearts == 2 else "")]
    for d, amount, parts in zip(((r.actor + 1) % 3, (r.actor + 2) % 3), st.per_defender, st.defender_parts):
        who = f"{SEATS[d]} pays the actor" if amount >= 0 else f"the actor pays {SEATS[d]}"
        lines.append(f"  {who} {abs(amount)} B = {abs(amount) * cents} cents" + ("" if same else f" ({listed(parts)})"))
    lines.append(f"Deal won by: {st.winner}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Report

REPORT_DEALS = 2_000_000
# (strategies, deals): the search players are slow (tens of ms a deal double-dummy, ~1 s PIMC)
STRATEGY_PROFILES = {
    "heuristic actor vs heuristic defenders": ({}, REPORT_DEALS),
    "random actor vs heuristic defenders": ({"actor_play": "random"}, REPORT_DEALS),
    "heuristic actor vs random defenders": ({"defender_play": "random"}, REPORT_DEALS),
    "double-dummy actor vs double-dummy defenders": ({"actor_play": "double_dummy", "defender_play": "double_dummy"}, 2_000),
    "double-dummy actor vs heuristic defenders": ({"actor_play": "double_dummy"}, 2_000),
    "PIMC actor vs heuristic defenders": ({"actor_play": "pimc"}, 200),
}


# Hand features drawn as bar charts in the report: (table, column, label prefix)
FEATURE_BARS = (("by A+T held", "a_plus_t", "A+T"), ("by side aces", "side_aces", "side aces"),
                ("by unguarded side tens", "unguarded_side_tens", "unguarded side tens"),
                ("by side voids", "side_voids", "side voids"), ("by side singletons", "side_singletons", "singletons"),
                ("by defenders' hlasy", "defenders_hlasy", "defenders' hlasy"))


def _feature_figure(t: dict[str, pd.DataFrame], min_n: int = 200):
    """Stovka success by each hand feature, as bars with their 95% intervals (cells >= min_n deals)."""
    import matplotlib.pyplot as plt

    from ..report import rate_bars

    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    for ax, (name, column, prefix) in zip(axes.flat, FEATURE_BARS):
        table = t[name][t[name].n >= min_n].rename(columns={"rate": "estimate"})
        rate_bars(table.assign(label=[f"{prefix} {v}" for v in table[column]]), "label", title=name, ax=ax)
    fig.tight_layout()
    return fig


def _comparison_figures(overall: pd.DataFrame, money: pd.DataFrame):
    """Success by card-play profile, and the paired money differences with their intervals."""
    from ..report import interval_bars, rate_bars

    rates = rate_bars(overall.rename(columns={"rate": "estimate"}), "strategies",
                      title="Forced Stovka made, by card-play profile")
    paired = money[money.contract.str.startswith("paired difference")]
    labels = [f"{c.removeprefix('paired difference: ')} | {s}" for c, s in zip(paired.contract, paired.strategies)]
    diffs = interval_bars(labels, paired.mean_S_in_B, paired.ci_low, paired.ci_high,
                          "mean paired difference of S per deal, in B (95% interval)",
                          title="Same deals, same play: Stovka - Hra and Sto a sedem - Sedma a hra")
    return rates, diffs


def build_report(ctx) -> list:
    import matplotlib.pyplot as plt

    from ..report import Section

    sections = []
    main = None
    per_profile, runs = {}, {}
    for label, (strategies, deals) in STRATEGY_PROFILES.items():
        result = ctx.run("marias", "stovka", "seed", deals, strategies=strategies, shard_size=min(deals, 200_000) // 2)
        runs[label] = result
        per_profile[label] = stovka_tables(result.counters)
        main = main or result
    base = baselines_table(main.counters)
    sections.append(Section(
        "Mariáš: hand baselines (§8.4)",
        "Every deal of the first run, before any discard. The 10-card rows pool the other two hands "
        "(n = 2 x deals), with intervals that allow for the two hands of a deal not being independent. "
        "`exact` is computed in code by counting; "
        "`rules_file` is the figure of rules/marias.md §8.4 for the trump-choice rows, which have no exact "
        "value: a Monte Carlo of 400,000 deals with the same illustrative τ (the longest suit of the first 7 "
        "cards, ties by A/T/K/Q, then random), rounded to 0.1 percentage point. It is not expected inside "
        "our interval; `z vs rules_file` is the distance between the two in standard errors that count both "
        "samples and the rounding, so |z| below 2 or so means they agree.",
        tables=[("Hand baselines", base)]))
    overall = pd.concat([t["overall"].assign(strategies=label) for label, t in per_profile.items()], ignore_index=True)
    money = pd.concat([t["money"].assign(strategies=label) for label, t in per_profile.items()], ignore_index=True)
    companion = pd.concat([t["companion rates"].assign(strategies=label) for label, t in per_profile.items()],
                          ignore_index=True)
    positive = {label: int(r.counters["paired_positive"][0]) for label, r in runs.items()}
    verdict = ("never positive: on no deal did Stovka settle above Hra, as §6.5 predicts"
               if not any(positive.values()) else
               f"positive on some deals ({positive}) — this refutes §6.5")
    sections.append(Section(
        "Stovka success rate (forced mode, §8.1)",
        "Every deal where the forehand's 12 cards hold a hlas is played as Stovka in the trump chosen by τ "
        "(no takeover, no sedma proti, no doublings); the forehand discards by the heuristic rule (never an A/T, "
        "the indicator or the trump 7; trumps and hlas cards last), and the rare deal where that discard "
        "breaks his only hlas (about 1 in 700) is left out, since its Stovka may not be announced. Success: card points + last trick + the "
        "actor's highest hlas >= 100. The same play is settled as Hra (with tichá stovka) for the paired "
        "comparison; when the actor holds the trump 7 the deal is played again with the seven kept back and "
        "settled as Sto a sedem and as Sedma a hra. Strategies: σ as named in each row; every profile meets the "
        "same deals, trumps and discards (the trump choice draws from its own stream), so the profiles' rates "
        "are compared on common deals (the search players on the first few thousand of them). "
        f"Paired E[S | Stovka] - E[S | Hra]: {verdict}. Double-dummy play sees every hand and maximises the "
        "side's card points + last trick (the seven is only guarded, not played for); PIMC samples the hidden "
        "cards 20 times per decision (respecting the voids shown) and plays the card optimal in most samples. "
        + ("" if ctx.deals else "The search players ran on far fewer deals: mind their intervals."),
        tables=[("Overall Stovka success by strategy profile", overall),
                ("Money per deal (S per defender, in B) and paired differences", money),
                ("Companion rates (§8.2)", companion)]))
    for label, t in per_profile.items():
        sections.append(Section(
            f"Stovka success by hand, {label}",
            "Rates with their Wilson 95% interval and sample size. Every feature is counted in the 10 cards after "
            "the discard (§8.3); trump honours list the trump A, T, K, Q and 7 held; an unguarded side ten is a "
            "side-suit T without the A of its suit.",
            tables=[(f"By max_hlas x trumps ({label})", t["by max_hlas x trumps"]),
                    (f"By A+T held ({label})", t["by A+T held"]),
                    (f"By trump honours ({label})", t["by trump honours"]),
                    (f"By side aces ({label})", t["by side aces"]),
                    (f"By unguarded side tens ({label})", t["by unguarded side tens"]),
                    (f"By side-suit voids ({label})", t["by side voids"]),
                    (f"By longest side suit ({label})", t["by longest side suit"]),
                    (f"By side-suit singletons ({label})", t["by side singletons"]),
                    (f"By the defenders' hlasy, ex post ({label})", t["by defenders' hlasy"]),
                    (f"By discard kind and the voids it made ({label})", t["by discard"]),
                    (f"Distribution of the counted points ({label})", t["count distribution"]),
                    (f"Distribution of the settlement S per defender, in B ({label})",
                     t["settlement distribution"])],
            figures=[(f"Stovka success by hand feature ({label}; cells with at least 200 deals; bars: "
                      "estimate with its 95% Wilson interval).", _feature_figure(t))]
            if runs[label].counters["qualified"][0] >= 20_000 else []))
    natural = ctx.run("marias", "game", "seed", REPORT_DEALS // 2)
    auction = ctx.run("marias", "game", "seed", REPORT_DEALS // 2, overrides={"protocol": "L"})
    sections.append(Section(
        "The whole game with heuristic players (natural mode)",
        "Protocol V played out: trumps by τ, heuristic discard, Malý/Veľký takeovers by fixed hand tests, "
        "contract by the heuristic gates (Stovka: a hlas, >= 5 trumps and enough A/T), heuristic doublings "
        "(raises and re-raises by hand strength) and sedma proti. Protocol L (§3.6): the auction on the ladder, "
        "each bidder naming one rung more while his hand's best contract stands that high; the winner takes the "
        "talon and names his contract at or above the rung won. `win_rate` is the main part won (§6.4); the "
        "balance is the actor's change per deal (2 S).",
        tables=[("Contracts in the natural game, protocol V", contracts_table(natural.counters)),
                ("Contracts in the natural game, protocol L (auction)", contracts_table(auction.counters))]))
    fig, ax = plt.subplots(figsize=(8, 4))
    table = per_profile["heuristic actor vs heuristic defenders"]["by max_hlas x trumps"]
    for hlas, group in table.groupby("max_hlas"):
        group = group[group.n >= 200]
        ax.errorbar(group.trumps_after_discard, group.rate,
                    yerr=[group.rate - group.ci_low, group.ci_high - group.rate], marker="o", capsize=3, label=hlas)
    ax.set_xlabel("trumps held after the discard")
    ax.set_ylabel("Stovka success rate")
    ax.legend()
    sections[1].figures.append(("Stovka success rate by trumps and the highest hlas held (heuristic players; "
                                "cells with at least 200 deals; 95% Wilson intervals).", fig))
    rates, diffs = _comparison_figures(overall, money)
    sections[1].figures.append(("Forced Stovka made, per card-play profile (95% Wilson intervals"
                                + ("" if ctx.deals else "; the search players on far fewer deals") + ").", rates))
    sections[1].figures.append(("Paired differences of the settlement per deal on the same deals and play "
                                "(95% intervals): §6.5 predicts Stovka - Hra < 0 always; Sto a sedem - Sedma a hra "
                                "can go either way.", diffs))
    return sections


# ---------------------------------------------------------------------------------------------
# Command line: kozyr marias stovka | game | baselines | explain

def _emit_tables(args, result, tables: dict[str, pd.DataFrame]) -> int:
    import json

    from .. import cli
    from ..constrained import describe

    if args.json:
        print(json.dumps({"run": result.metadata(),
                          "tables": {k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}},
                         indent=2, default=str))
    else:
        print(cli.run_header(result))
        if describe(result):
            print(describe(result))
        for name, table in tables.items():
            print(f"\n## {name}")
            with pd.option_context("display.max_rows", None, "display.width", 200, "display.float_format", "{:.5g}".format):
                print(table.to_string(index=False))
    if args.csv:
        pd.concat([t.assign(table=name) for name, t in tables.items()], ignore_index=True).to_csv(args.csv, index=False)
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def register_cli(sub) -> None:
    from .. import cli
    from ..constrained import add_cli_options as add_constraint_options

    def run_parser(name, help_text, default_deals, roles):
        p = sub.add_parser(name, help=help_text)
        cli.add_run_options(p, "marias", default_deals=default_deals)
        p.add_argument("--strategy", dest="strategies", type=cli.option, action=cli.Repeatable, default=[],
                       metavar="ROLE=NAME", help="strategy per role (the first name is the default): " + "; ".join(
                           f"{role}: {'|'.join(names)}" for role, names in roles.items()))
        return p

    def constraint_options(p):
        add_constraint_options(p, LAYOUT)
        p.add_argument("--trump", type=str.upper, choices=list(TRUMPS), default=None,
                       help="fix the trump suit (the actor must hold one; the trump choice is skipped)")

    stovka = run_parser("stovka", "Stovka success rates (§8, forced mode) with the paired money comparison; "
                                  "given cards with --actor/--middle/--rear/--trump/--where", 1_000_000, FORCED_ROLES)
    stovka.add_argument("--filter", choices=list(STOVKA_FILTERS), default="any_hlas", help="hand filter F")
    constraint_options(stovka)
    stovka.set_defaults(handler=_cmd_stovka)
    game = run_parser("game", "the whole game with heuristic players: contracts, win rates, money", 1_000_000,
                      NATURAL_ROLES)
    game.set_defaults(handler=_cmd_game)
    base = run_parser("baselines", "hand baselines of §8.4 against the exact values (given the actor's 12 "
                                   "cards with --actor: exact conditional values)", 1_000_000, FORCED_ROLES)
    constraint_options(base)
    base.set_defaults(handler=_cmd_baselines)

    explain = sub.add_parser("explain", help="play or score one given deal and explain it")
    explain.add_argument("--hands", nargs=3, required=True, metavar="HAND",
                         help="three 10-card hands at the start of play: forehand, middle, rear")
    explain.add_argument("--talon", required=True, help="the 2 discarded cards")
    explain.add_argument("--contract", required=True, choices=list(GAMES))
    explain.add_argument("--trump", choices=list(TRUMPS), help="trump suit (suit games)")
    explain.add_argument("--actor", type=int, default=0, choices=(0, 1, 2))
    explain.add_argument("--tricks", default=None, help="cards played, in order; the rest by the strategies")
    explain.add_argument("--play", default="heuristic", help=f"strategy for the cards not given: {'|'.join(CARD_STRATEGIES)} "
                         "or module:Class")
    explain.add_argument("--sedma-proti", action="store_true", help="a defender holding the trump 7 announced it")
    explain.add_argument("--double", dest="k", type=cli.option, action=cli.Repeatable, default=[], metavar="[SEAT:]PART=N",
                         help="doublings of a part (hra, sedma, main, sedma_proti); with flek_per_defender=true, "
                              "SEAT: (forehand, middle or rear) gives one defender's doublings")
    explain.add_argument("--seed", type=cli.seed, default=0)
    explain.add_argument("--rules", default="seed", choices=list(PRESETS))
    cli.add_set_option(explain)
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=_cmd_explain)


def _check_trump_choice(args, command: str, allowed: tuple[str, ...]) -> None:
    """Refuse a trump_choice the command would ignore (before anything runs)."""
    chosen = dict(args.strategies).get("trump_choice")
    if chosen is None or chosen == "longest":
        return
    if getattr(args, "trump", None):
        raise ValueError(f"--trump {args.trump} fixes the trumps: trump_choice={chosen} does not apply")
    if chosen not in allowed:
        raise ValueError(f"kozyr marias {command} takes trump_choice {' or '.join(allowed)}, not {chosen}")


def _cmd_stovka(args) -> int:
    from .. import cli

    _check_trump_choice(args, "stovka", FORCED_ROLES["trump_choice"])
    analysis = "stovka" if args.filter == "any_hlas" else f"stovka_{args.filter}"
    result = cli.execute(args, "marias", analysis)
    if result.complete and result.counters["qualified"][0] == 0:   # every table would be empty
        given = " with the given cards" if result.config.constraint else ""
        raise ValueError(f"none of the {result.deals_done:,} deals{given} passes the filter {args.filter} (the actor "
                         f"{STOVKA_FILTERS[args.filter]}): there is no Stovka to rate")
    return _emit_tables(args, result, dict(cli.summary_tables(result)))


def _cmd_game(args) -> int:
    from .. import cli

    result = cli.execute(args, "marias", "game")
    return _emit_tables(args, result, dict(cli.summary_tables(result)))


def _cmd_baselines(args) -> int:
    from .. import cli

    # one trump a deal: oracle's trials of every suit are the stovka command's
    _check_trump_choice(args, "baselines", ("longest", "z_lidu"))
    result = cli.execute(args, "marias", "stovka")
    constraint = dict(result.config.constraint)
    exact = None
    if constraint:       # exact values are known given the actor's whole hand and nothing else
        actor_only = set(constraint) <= {"actor", "trump"} and len(MARIAS32.parse(constraint.get("actor", ""))) == 12
        exact = exact_given_actor(constraint["actor"]) if actor_only else {}
    return _emit_tables(args, result, {"baselines": baselines_table(
        result.counters, exact, result.config.strategy_names["trump_choice"])})


def _doublings(given: list[tuple[str, str]], actor: int) -> dict[str, int] | list[dict[str, int]]:
    """--double PART=N for the whole defence and SEAT:PART=N for one defender: one mapping, or the
    pair play_deal takes (the actor's left-hand neighbour first) when any is given by seat."""
    both: dict[str, int] = {}
    by_seat: dict[int, dict[str, int]] = {}
    for key, value in given:
        seat, _, part = key.rpartition(":")
        if not (value.isascii() and value.isdigit()):
            raise ValueError(f"--double {key}={value}: the number of doublings must be a whole number")
        if not seat:
            both[part] = int(value)
            continue
        if seat not in SEATS:
            raise ValueError(f"--double {key}={value}: unknown seat {seat!r}; seats are {', '.join(SEATS)}")
        if SEATS.index(seat) == actor:
            raise ValueError(f"--double {key}={value}: {seat} is the actor; doublings by seat are a defender's")
        by_seat.setdefault(SEATS.index(seat), {})[part] = int(value)
    if not by_seat:
        return both
    return [{**both, **by_seat.get((actor + d) % 3, {})} for d in (1, 2)]


def _cmd_explain(args) -> int:
    import json
    from dataclasses import asdict

    result = play_deal(args.hands, args.talon, args.contract, args.trump, args.tricks, actor=args.actor,
                       strategies=args.play, sedma_proti=args.sedma_proti, k=_doublings(args.k, args.actor), rules=args.rules, seed=args.seed,
                       **dict(args.overrides))
    print(json.dumps(asdict(result), indent=2, default=str) if args.json else result.explain())
    return 0
