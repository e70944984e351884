"""Slovak mariáš settlement (shared/rules/marias.md §6): the amount each defender pays the actor for
one played deal, its parts, and who won the deal. Pure Python, no simulation: the compiled kernel
carries its own copy of these formulas and is tested against this one.

Amounts are in units of the base stake B (default 5 cents). ``per_defender`` holds the signed
amount each defender pays the actor (negative: the actor pays that defender).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

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
    per_defender: tuple[int, int]       # what defender 1 and defender 2 each pay the actor, in B
    winner: str                         # "actor" | "defenders" (the main part decides, §6.4)
    parts: dict[str, int] = field(default_factory=dict)   # per-defender parts before hearts
    hearts: int = 1                     # 2 in a suit game with hearts trumps

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
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{what}[{key!r}] must be a non-negative integer, got {value!r}")
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
    pair of such mappings, one per defender. cp_actor: A/T points in the actor's tricks (0..80,
    multiple of 10). last: who won trick 10 ("actor" | "def"). hlasy_*: 20/40 values in the order
    declared. seven: one of SEVEN_EVENTS. actor_tricks: tricks the actor won (Malý/Veľký).
    proti_by: which defender (0 or 1) announced sedma proti (used by sedma_proti_only_announcer).
    Keyword options: see SETTLEMENT_DEFAULTS."""
    unknown = set(options) - set(SETTLEMENT_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown settlement options {sorted(unknown)}")
    o = {**SETTLEMENT_DEFAULTS, **options}
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
        if seven in ("won_actor", "killed_def") and last != "actor" or seven in ("won_def", "killed_actor") and last != "def":
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
    return Settlement(tuple(per_defender), winner, parts, hearts)


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
