"""Russian Bank (crapette), shared/rules/russian_bank.md: rule options (§8), the two-player game
(single-position API, whole games from a seed with named strategies, the duel analysis), and
SOLO(k, pi) solvability (§9-10): solver API, the solvability analysis with honest intervals
(§10.8), report and command line.

Cards are written ``QH``, ``TS``, ``AD``; piles bottom -> top (the top is the last card). A card
kind is ``13*suit + rank`` with suits S H D C and rank 0 = ace .. 12 = king (§1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import russian_bank as core
from ..cards import parse_card, tokenize
from ..stats import histogram_moments, mean_interval_if_counted, ratio_interval, wilson
from . import Analysis, Game

RANKS = "A23456789TJQK"
SUITS = "SHDC"
N_HOUSES = 8
SOLO_HOUSES = 4

# ---------------------------------------------------------------------------------------------
# Rule options (§8) and solver options (§10.7)

DEFAULTS: dict[str, Any] = dict(
    stock_size=13, houses_per_player=4, auto_turn=True, stock_before_hand=False,
    foundation_priority="strict", stock_first_to_foundation=False, empty_house_rule="any",
    sequence_moves=False, load_targets=("stock", "waste"), load_sources=("hand", "house", "stock"),
    load_wrap=False, own_waste_playable=False, redeal_limit=None, discard_policy="free",
    first_player="higher", stop_mode="enforce", p_detect=1.0, stop_hand_card="waste",
    stall_turns=250, max_turns=5000, max_actions_per_turn=2000,
    score_bonus=30, score_per_stock=2, score_per_hand_waste=1,
    # SOLO solver (not rules of play): model, node budget per deal, table size, tempo search
    solo_model="auto", node_budget=1_000_000, tt_bits=20, dominance=True, pool_normal_form=True,
    stuck_prune=True, relaxation=True, free_cycling=True, tempo=False,
    # the blind hindsight policy of SOLO(∞, none): stock orders drawn a decision, nodes a search
    hindsight_samples=16, hindsight_budget=1_000,
)
PRESETS: dict[str, dict[str, Any]] = {
    "default": dict(DEFAULTS),
    # the seed read literally where it speaks (§8 "seed-literal" column)
    "seed_literal": dict(DEFAULTS, foundation_priority="none", load_targets=("stock",),
                         discard_policy="no_own_card_move"),
}
_CHOICES = {
    "foundation_priority": ("strict", "none"),
    "empty_house_rule": ("any", "stock_only", "stock_forced"),
    "discard_policy": ("free", "hand_unplayable", "no_own_card_move"),
    "first_player": ("higher", "lower", "p0", "p1", "random"),
    "stop_mode": ("enforce", "call"),
    "stop_hand_card": ("waste", "return"),
    "solo_model": ("auto", "literal", "open_pool"),
}
_BOOLS = ("auto_turn", "stock_before_hand", "stock_first_to_foundation", "sequence_moves", "load_wrap",
          "own_waste_playable", "dominance", "pool_normal_form", "stuck_prune", "relaxation",
          "free_cycling",
          "tempo")
_INTS = {"stall_turns": (1, 100_000), "max_turns": (1, 1_000_000), "max_actions_per_turn": (1, 1_000_000),
         "score_bonus": (0, 1000), "score_per_stock": (0, 100), "score_per_hand_waste": (0, 100),
         "node_budget": (1, 10**11), "tt_bits": (12, 28), "hindsight_samples": (1, 4096),
         "hindsight_budget": (10, 10**7)}
_SUBSETS = {"load_targets": ("stock", "waste"), "load_sources": ("hand", "house", "stock")}


def _subset(key: str, value: Any) -> tuple:
    chosen = [str(v).strip() for v in parsing.items(key, value)]
    bad = [v for v in chosen if v not in _SUBSETS[key]]
    if bad:
        raise ValueError(f"option {key} takes a subset of {', '.join(_SUBSETS[key])}, got {value!r}")
    return tuple(sorted(set(chosen)))


def _redeal_limit(key: str, value: Any) -> int | None:
    if value is None or str(value).strip().lower() in ("unlimited", "inf", "none", "-1"):
        return None
    return parsing.integer(key, value, 0, 1000)


def validate_option(key: str, value: Any) -> Any:
    """Check one option (accepts the string forms the CLI passes)."""
    return parsing.parse("russian_bank", key, value,
                         choices={**_CHOICES, "stock_size": (11, 12, 13), "houses_per_player": (4,)},
                         flags=_BOOLS, limits=_INTS,
                         special={**{k: _subset for k in _SUBSETS}, "redeal_limit": _redeal_limit,
                                  "p_detect": lambda k, v: parsing.real(k, v, 0.0, 1.0)})


def check_rules(rules: dict) -> dict:
    """Checks that concern several options at once."""
    if rules["stock_before_hand"] and rules["auto_turn"]:
        raise ValueError("option stock_before_hand needs auto_turn=false (§5.3)")
    if rules["solo_model"] == "open_pool" and rules["redeal_limit"] is not None:
        raise ValueError("solo_model=open_pool is exact only with unlimited redeals (§9.3 F1)")
    if rules["solo_model"] == "open_pool" and rules["foundation_priority"] == "strict":
        raise ValueError(_OPEN_POOL_STRICT)
    if rules["node_budget"] > 1 << rules["tt_bits"] and rules["tt_bits"] < _INTS["tt_bits"][1]:
        # A full table forgets positions; the search meets them again and can go round them until
        # its depth limit (seen: unresolved at a third of a 10^7 budget with 2^20 entries)
        need = min(rules["node_budget"].bit_length(), _INTS["tt_bits"][1])
        raise ValueError(f"node_budget={rules['node_budget']:,} is more than a table of 2^{rules['tt_bits']} "
                         f"entries holds: set tt_bits={need} or more (32 bytes an entry, taken only as a "
                         f"search needs them)")
    return rules


# The SOLO game of §9.2 fixes these rules of play (the solver and the blind policies play it so):
# an option set otherwise would be ignored, so the SOLO analyses refuse it
SOLO_FIXED = {
    "stock_size": (13, "deals a 13-card stock"),
    "auto_turn": (True, "plays or discards the hand card before the next is seen (auto_turn)"),
    "stock_before_hand": (False, "has no stock-before-hand rule"),
    "stock_first_to_foundation": (False, "has no stock-first rule"),
    "empty_house_rule": ("any", "lets any card go to an empty house"),
    "sequence_moves": (False, "moves one card at a time"),
    "own_waste_playable": (False, "never plays from the waste"),
    "discard_policy": ("free", "discards freely (discard policy free)"),
}
_OPEN_POOL_STRICT = ("solo_model=open_pool is exact only for SOLO(∞, none): under strict it loses deals the "
                     "literal game wins (§9.3 F2, test vector S6); use solo_model=auto or literal")


def check_solo_rules(rules: dict) -> dict:
    """check_rules, and the rules of play the SOLO game of §9.2 fixes (SOLO_FIXED)."""
    check_rules(rules)

    def text(v):
        return str(v).lower() if isinstance(v, bool) else str(v)
    for key, (value, what) in SOLO_FIXED.items():
        if rules[key] != value:
            raise ValueError(f"option {key}={text(rules[key])} does not apply to the SOLO game, which {what} "
                             f"(§9.2); leave it at {text(value)} for the solo and blind analyses")
    return rules


def _check_solo(rules: dict, strategies: dict) -> None:
    """Analysis.check of the solo and blind analyses (their strategies do not matter here)."""
    check_solo_rules(rules)


def resolve(rules: str | dict = "default", overrides: dict | None = None) -> dict:
    """A preset's options, or a dict of options (a position's own) taken as overrides of the
    defaults, with the overrides applied: validated alone and together."""
    if isinstance(rules, dict):
        return GAME.resolve_rules("default", {**rules, **(overrides or {})})
    return GAME.resolve_rules(rules, overrides)


# ---------------------------------------------------------------------------------------------
# Cards and piles

def kind(card: str) -> int:
    card = parse_card(card)
    return 13 * SUITS.index(card[1]) + RANKS.index(card[0])


def card_name(k: int) -> str:
    return RANKS[k % 13] + SUITS[k // 13]


def parse_pile(cards: str | Iterable[str] | None, what: str) -> list[int]:
    if cards is None:
        return []
    try:
        return [kind(t) for t in tokenize(cards)]
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def fmt(pile: Sequence[int]) -> str:
    return "[" + " ".join(card_name(c) for c in pile) + "]"


def _check_house(pile: list[int], name: str) -> None:
    """Invariant I1: a house is a descending run of alternating colours."""
    if len(pile) > 13:
        raise ValueError(f"house {name} holds {len(pile)} cards; a house is at most K down to A")
    for low, high in zip(pile[1:], pile):
        red = lambda k: k // 13 in (1, 2)
        if low % 13 + 1 != high % 13 or red(low) == red(high):
            raise ValueError(f"house {name} {fmt(pile)} is not a descending run in alternating colours "
                             f"({card_name(low)} on {card_name(high)})")


def _parse_foundations(found, pairs: bool) -> list:
    """Heights per suit S H D C: '3,0 1,0 0 0' / [(3,0),(1,0),0,0] for duels, '0 13 13 13' for SOLO."""
    items = found.split() if isinstance(found, str) else list(found)
    if len(items) != 4:
        raise ValueError(f"foundations need four entries (S H D C), got {found!r}")
    out = []
    for suit, item in zip(SUITS, items):
        try:
            values = [int(v) for v in str(item).split(",")] if isinstance(item, str) else (
                list(item) if isinstance(item, (tuple, list)) else [int(item)])
        except (TypeError, ValueError):
            values = None
        if values is not None and pairs:
            values = (values + [0, 0])[:2] if len(values) <= 2 else None
        elif values is not None and len(values) != 1:
            values = None
        if values is None or any(not isinstance(v, int) or not 0 <= v <= 13 for v in values):
            raise ValueError(f"foundation heights of suit {suit} must be {'one or two numbers' if pairs else 'a number'} "
                             f"from 0 to 13, got {item!r}")
        out.append(sorted(values, reverse=True) if pairs else values[0])
    return out


def _check_copies(piles: dict[str, list[int]], found_cards: list[int], copies: int) -> None:
    count = [0] * 52
    for k in found_cards:
        count[k] += 1
    for name, pile in piles.items():
        for k in pile:
            count[k] += 1
            if count[k] > copies:
                raise ValueError(f"card {card_name(k)} appears more than {copies} time(s) "
                                 f"(the {name} and the other piles/foundations)")


# ---------------------------------------------------------------------------------------------
# Moves

@dataclass(frozen=True)
class Move:
    code: int
    text: str

    def __str__(self) -> str:
        return self.text


def _src_name(src: int) -> str:
    return ("stock", "hand", "waste")[src] if src < 3 else f"h{src - 3}"


def _dst_name(dst: int, player: int) -> str:
    if dst == 0:
        return "F"
    if dst <= N_HOUSES:
        return f"h{dst - 1}"
    return f"P{1 - player} {'stock' if dst == 9 else 'waste'}"


_ARROWS = ("→", "->")


@dataclass
class Position:
    """A two-player position (§11.1 notation). Build it with :meth:`from_piles` or take it from
    :func:`new_game`; ``legal_moves()``, ``play(move)``."""

    rules: dict
    state: Any = field(repr=False)

    @classmethod
    def from_piles(cls, houses: Sequence, foundations, p0: dict, p1: dict, player: int = 0,
                   rules: str | dict = "default", **overrides) -> "Position":
        """houses: 8 piles; foundations: per suit S H D C a pair of heights ('3,0' or (3, 0));
        p0/p1: dicts with stock, hand, waste piles (card strings bottom -> top) and optionally
        ``up`` (is the hand top turned up; default: yes when the hand is non-empty) and ``redeals``."""
        options = resolve(rules, overrides)
        if len(houses) != N_HOUSES:
            raise ValueError(f"a duel has {N_HOUSES} houses, got {len(houses)}")
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        hs = [parse_pile(h, f"house h{i}") for i, h in enumerate(houses)]
        for i, h in enumerate(hs):
            _check_house(h, f"h{i}")
        found = _parse_foundations(foundations, pairs=True)
        piles, side = {}, []
        for p, spec in enumerate((p0, p1)):
            unknown = set(spec) - {"stock", "hand", "waste", "up", "redeals"}
            if unknown:
                raise ValueError(f"player {p}: unknown pile(s) {', '.join(sorted(unknown))}")
            own = {name: parse_pile(spec.get(name), f"P{p} {name}") for name in ("stock", "hand", "waste")}
            piles.update({f"P{p} {n}": v for n, v in own.items()})
            side.append((own, spec.get("up", bool(own["hand"])), spec.get("redeals", 0)))
        piles.update({f"house h{i}": h for i, h in enumerate(hs)})
        found_cards = [13 * s + r for s in range(4) for h in found[s] for r in range(h)]
        _check_copies(piles, found_cards, copies=2)
        state = core.DuelState(options)
        state.load(dict(
            stock=[side[p][0]["stock"] for p in range(2)], hand=[side[p][0]["hand"] for p in range(2)],
            waste=[side[p][0]["waste"] for p in range(2)], houses=hs, foundations=found, player=player,
            up=[bool(side[p][1]) and bool(side[p][0]["hand"]) for p in range(2)],
            redeals=[int(side[p][2]) for p in range(2)]))
        return cls(options, state)

    # -- reading the position
    @property
    def piles(self) -> dict:
        return self.state.piles()

    @property
    def status(self) -> dict:
        return self.state.status()

    @property
    def player(self) -> int:
        return self.state.piles()["player"]

    def describe(self) -> str:
        p = self.piles
        lines = ["foundations " + " ".join(f"{s}{a},{b}" for s, (a, b) in zip(SUITS, p["foundations"]))]
        lines.append("houses " + " ".join(f"h{i}{fmt(h)}" for i, h in enumerate(p["houses"])))
        for q in range(2):
            mark = "*" if q == p["player"] else " "
            up = " (top up)" if p["up"][q] else ""
            lines.append(f"{mark}P{q} stock {fmt(p['stock'][q])} hand {fmt(p['hand'][q])}{up} "
                         f"waste {fmt(p['waste'][q])}")
        return "\n".join(lines)

    def move_text(self, code: int) -> str:
        if code == core.ACTION_DISCARD:
            return "DISCARD"
        if code == core.ACTION_PASS:
            return "PASS"
        if code == core.ACTION_TURN:
            return "TURN"
        p = self.piles
        me = p["player"]
        src, dst, count = (code % 256) // 16, code % 16, code // 256 + 1
        if src == 0:
            card = p["stock"][me][-1]
        elif src == 1:
            card = p["hand"][me][-1]
        elif src == 2:
            card = p["waste"][me][-1]
        else:
            card = p["houses"][src - 3][-count]
        run = f"{card_name(card)}+{count - 1}" if count > 1 else card_name(card)
        return f"{run}→{_dst_name(dst, me)}"

    def legal_moves(self) -> list[Move]:
        """The legal actions of the player to move, in the engine's order."""
        if self.status["end"] != "running":
            return []
        return [Move(c, self.move_text(c)) for c in self.state.legal(True)]

    # -- playing
    def parse_move(self, text: str) -> int:
        """The action code of a move written ``6D→h2``, ``8H->P1 waste``, ``h0:9S→h7``,
        ``stock→F``, ``DISCARD``, ``PASS`` or ``TURN``; raises ValueError naming the broken rule."""
        if self.status["end"] != "running":
            raise ValueError("the game is over")
        word = text.strip().upper()
        specials = {"DISCARD": core.ACTION_DISCARD, "PASS": core.ACTION_PASS, "TURN": core.ACTION_TURN}
        legal = self.state.legal(True)
        if word in specials:
            code = specials[word]
            if code in legal:
                return code
            raise ValueError(self._why_not_special(word))
        for arrow in _ARROWS:
            if arrow in text:
                left, right = (x.strip() for x in text.split(arrow, 1))
                break
        else:
            raise ValueError(f"cannot read move {text!r}; write e.g. '6D→h2', 'h0:9S→h7', '8H->P1 waste' or DISCARD")
        dst = self._parse_dst(right)
        sources = self._parse_sources(left)
        codes = [src * 16 + dst for src in sources]
        good = [c for c in codes if c in legal]
        if len(good) == 1:
            return good[0]
        if len(good) > 1:
            raise ValueError(f"move {text!r} is ambiguous: {left} is on several piles; name the pile, e.g. 'h3:{left}'")
        raise ValueError(f"illegal move {text!r}: {self._why_illegal(sources, dst)}")

    def play(self, move: str | Move | int) -> "Position":
        """Apply a legal move in place (returns self); illegal moves raise ValueError."""
        code = move.code if isinstance(move, Move) else (move if isinstance(move, int) else self.parse_move(move))
        if self.status["end"] != "running":
            raise ValueError("the game is over")
        if code not in self.state.legal(True):
            raise ValueError(f"illegal action {self.move_text(code)!r}")
        self.state.apply(code)
        return self

    def _parse_dst(self, text: str) -> int:
        t = text.strip().lower().replace("_", " ")
        me = self.player
        if t in ("f", "foundation") or t.startswith("foundation") or (len(t) == 2 and t[0] == "f" and t[1] in "shdc"):
            return 0
        if len(t) >= 2 and t[0] == "h" and t[1:].isascii() and t[1:].isdigit() and int(t[1:]) < N_HOUSES:
            return 1 + int(t[1:])
        for prefix in (f"p{1 - me} ", "opp ", "opponent "):
            if t.startswith(prefix):
                rest = t[len(prefix):].strip()
                if rest in ("stock", "waste"):
                    return 9 if rest == "stock" else 10
        if t in (f"p{me} stock", f"p{me} waste", "own waste", "waste", "stock"):
            raise ValueError(f"illegal move to {text!r}: a player's own stock and waste only take his "
                             f"discards (§4.2); load the opponent's piles with 'P{1 - me} stock'/'P{1 - me} waste'")
        raise ValueError(f"unknown destination {text!r}; use F, h0..h7, P{1 - me} stock or P{1 - me} waste")

    def _parse_sources(self, text: str) -> list[int]:
        p = self.piles
        me, opp = p["player"], 1 - p["player"]
        t = text.strip()
        pile, _, card = t.partition(":") if ":" in t else ("", "", t)
        named = {"stock": 0, "hand": 1, "waste": 2, **{f"h{i}": 3 + i for i in range(N_HOUSES)}}
        if not card.strip() or t.lower() in named:
            pile, card = (t if t.lower() in named else pile), ""
        if pile and pile.lower() not in named:
            raise ValueError(f"unknown source pile {pile!r}; use stock, hand, h0..h7")
        if card:
            k = kind(card.strip())
        if pile:
            src = named[pile.lower()]
            if card and self._top(src) != k:
                raise ValueError(f"illegal move: {card_name(k)} is not the available card of {pile} (§4.1)")
            return [src]
        srcs = [s for s in range(3 + N_HOUSES) if self._top(s) == k]
        if not srcs:
            if p["waste"][me] and p["waste"][me][-1] == k and not self.rules["own_waste_playable"]:
                raise ValueError(f"illegal move: {card_name(k)} is on your own waste, which is not a source (§4.1)")
            if any(pl[opp] and pl[opp][-1] == k for pl in (p["stock"], p["waste"], p["hand"])):
                raise ValueError(f"illegal move: {card_name(k)} belongs to the opponent; his cards are never sources (§4.1)")
            raise ValueError(f"illegal move: {card_name(k)} is not an available card "
                             "(own stock top, turned-up hand card or a house top, §4.1)")
        return srcs

    def _top(self, src: int):
        p = self.piles
        me = p["player"]
        if src == 0:
            pile = p["stock"][me]
        elif src == 1:
            pile = p["hand"][me] if p["up"][me] else []
        elif src == 2:
            pile = p["waste"][me] if self.rules["own_waste_playable"] else []
        else:
            pile = p["houses"][src - 3]
        return pile[-1] if pile else None

    def _why_illegal(self, sources: list[int], dst: int) -> str:
        """The rule a card move breaks (the first that applies)."""
        p = self.piles
        me, opp = p["player"], 1 - p["player"]
        src = sources[0]
        c = self._top(src)
        if c is None:
            return f"{_src_name(src)} has no available card (§4.1)"
        name = card_name(c)
        base = self.state.legal(False) if self.rules["foundation_priority"] == "strict" or \
            self.rules["empty_house_rule"] == "stock_forced" else []
        if dst == 0:
            s, r = divmod(c, 13)
            if r not in p["foundations"][s]:
                return (f"{name} does not fit a foundation: an empty slot takes only an ace, a pile takes "
                        f"the next card of its suit (§4.2)")
        elif dst <= N_HOUSES:
            h = dst - 1
            house = p["houses"][h]
            if src == 3 + h:
                return f"{name} cannot move onto the house it comes from (§4.2)"
            if not house:
                if self.rules["empty_house_rule"] != "any" and src != 0 and p["stock"][me]:
                    return f"empty_house_rule={self.rules['empty_house_rule']}: only the stock top may fill an empty house while the stock lasts"
            else:
                top = house[-1]
                if c % 13 + 1 != top % 13:
                    return f"{name} is not one rank below {card_name(top)} on h{h} (§4.2 houses build down)"
                if (c // 13 in (1, 2)) == (top // 13 in (1, 2)):
                    return f"{name} has the same colour as {card_name(top)} on h{h} (§4.2 houses alternate colours)"
        else:
            target = "stock" if dst == 9 else "waste"
            pile = p[target][opp]
            allowed = self.rules["load_targets"]
            if target not in allowed:
                return f"loading the opponent's {target} is off (load_targets={','.join(allowed)})"
            kind_of_src = "stock" if src == 0 else "hand" if src == 1 else "house" if src >= 3 else "hand"
            if kind_of_src not in self.rules["load_sources"]:
                return f"cards from a {kind_of_src} may not be loaded (load_sources={','.join(self.rules['load_sources'])})"
            if not pile:
                return f"the opponent's {target} is empty and an empty pile cannot be loaded (§4.2)"
            top = pile[-1]
            diff = abs(c % 13 - top % 13)
            if c // 13 != top // 13 or not (diff == 1 or (self.rules["load_wrap"] and diff == 12)):
                return (f"loading needs the same suit and a rank one up or down: {name} on "
                        f"{card_name(top)} (§4.2)")
        code = src * 16 + dst
        if code in base:
            if self.rules["foundation_priority"] == "strict" and any(m % 16 == 0 and m < 8192 for m in base):
                forced = [self.move_text(m) for m in base if m % 16 == 0 and m < 8192]
                return f"foundation priority (§6.1 strict): a foundation play must be made first ({', '.join(forced)})"
            return "empty_house_rule=stock_forced: fill the empty house from the stock first (§6.1)"
        return "not a legal move here (§4-6)"

    def _why_not_special(self, word: str) -> str:
        p = self.piles
        me = p["player"]
        up = p["up"][me] and p["hand"][me]
        base = self.state.legal(False)
        forced = [self.move_text(m) for m in base if m < 8192 and m % 16 == 0]
        if word == "DISCARD":
            if not up:
                return "illegal action DISCARD: there is no turned-up hand card to discard (§5.1)"
            if self.rules["foundation_priority"] == "strict" and forced:
                return f"illegal action DISCARD: foundation priority (§6.1 strict) forces {', '.join(forced)} first"
            return f"illegal action DISCARD: discard_policy={self.rules['discard_policy']} (§5.4)"
        if word == "PASS":
            if up:
                return "illegal action PASS: a hand card is turned up; play it or DISCARD (§5.1)"
            if self.rules["foundation_priority"] == "strict" and forced:
                return f"illegal action PASS: foundation priority (§6.1 strict) forces {', '.join(forced)} first"
            return "illegal action PASS: a hand card can still be turned (§5.1)"
        if self.rules["auto_turn"]:
            return "illegal action TURN: with auto_turn the hand card is turned automatically (§5.3)"
        return "illegal action TURN: a hand card is already up, none is left, or stock_before_hand applies (§5.3)"


def new_game(seed: int, rules: str | dict = "default", **overrides) -> tuple[Position, tuple[list[int], list[int]]]:
    """The dealt position of game `seed` (§2-3) and the two packs (kinds, top card first)."""
    options = resolve(rules, overrides)
    deal_gen, strat_gen = _seed_generators(seed)
    packs = core.deal_packs(deal_gen)
    state = core.DuelState(options, strat_gen)
    state.deal(*packs)
    return Position(options, state), packs


def _seed_generators(seed: int):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"the seed must be a non-negative integer, got {seed!r}")
    return [np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=(0, s))) for s in range(2)]


@dataclass(frozen=True)
class GameRecord:
    seed: int
    strategies: tuple[str, str]
    first_player: int
    moves: tuple[str, ...]         # "P0 6D→h2", ...
    result: str                    # "P0 wins", "P1 wins", "draw (stall)", "draw (cap)"
    winner: int | None
    score: int
    turns: int
    actions: int
    start: str
    final: str

    def transcript(self) -> str:
        return "\n".join([f"seed {self.seed}, strategies P0 {self.strategies[0]} / P1 {self.strategies[1]}",
                          self.start, f"first to move: P{self.first_player}", *self.moves,
                          f"result: {self.result}, score {self.score}, {self.turns} turns, {self.actions} actions",
                          self.final])


def play_game(seed: int, strategies: Sequence[str] = ("greedy", "greedy"), rules: str | dict = "default",
              **overrides) -> GameRecord:
    """Play one whole duel from `seed` with the named strategies of P0 and P1 (§10.6:
    ``greedy`` = G1, ``lookahead`` = the blind turn planner, ``random`` = uniform legal action)."""
    strategies = tuple(strategies)
    if len(strategies) != 2 or any(s not in core.STRATEGIES for s in strategies):
        raise ValueError(f"strategies must be two of {', '.join(core.STRATEGIES)}, got {strategies!r}")
    pos, _ = new_game(seed, rules, **overrides)
    start, first = pos.describe(), pos.player
    moves = []
    while pos.status["end"] == "running":
        me = pos.player
        acts = pos.state.legal(not pos.rules["stop_mode"] == "call")
        before = {a: pos.move_text(a) for a in acts}
        action = pos.state.step(strategies)
        moves.append(f"P{me} {before[action] if action >= 0 else 'STOP called'}")
    st = pos.status
    result = f"P{st['winner']} wins" if st["end"] == "win" else f"draw ({st['end']})"
    return GameRecord(seed, strategies, first, tuple(moves), result,
                      st["winner"] if st["end"] == "win" else None, st["score"], st["turns"], st["actions"],
                      start, pos.describe())


# ---------------------------------------------------------------------------------------------
# SOLO (§9.2)

@dataclass(frozen=True)
class SoloResult:
    outcome: str              # win / loss / unresolved
    nodes: int
    model: str
    tempo: int | None         # D*, the fewest discards of a win (tempo=True), when proven exactly
    tempo_bounds: tuple = (None, None)   # D* >= low and, if a win was found, <= high (tempo=True)
    line: list[str] | None = None        # the winning line found (solve(line=True), not in tempo mode)
    line_discards: int | None = None     # SOLO(∞, none), open pool: that line's discards in the literal game


@dataclass
class SoloPosition:
    """A one-player SOLO position (§11.3 notation): foundations as heights S H D C, the stock,
    four houses, the hand and the waste (bottom -> top; the hand's last card is turned first)."""

    stock: list[int]
    houses: list[list[int]]
    foundations: list[int]
    hand: list[int]
    waste: list[int]
    redeals: int = 0

    def __post_init__(self):
        """The checks of from_piles for a position built from card kinds (0..51, suit-major S H D
        C): kinds in range, each card once (piles and foundations), houses descending in
        alternating colours; the compiled solver trusts all of this."""
        if len(self.houses) != SOLO_HOUSES:
            raise ValueError(f"a SOLO layout has {SOLO_HOUSES} houses, got {len(self.houses)}")
        if len(self.foundations) != 4:
            raise ValueError(f"a SOLO layout has 4 foundations (S H D C), got {len(self.foundations)}")
        self.foundations = [parsing.integer("foundation height", f, 0, 13) for f in self.foundations]
        piles = {"stock": self.stock, "hand": self.hand, "waste": self.waste,
                 **{f"house h{i}": h for i, h in enumerate(self.houses)}}
        for name, pile in piles.items():
            for k in pile:
                if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < 52:
                    raise ValueError(f"the {name} holds {k!r}, which is not a card kind (0..51)")
        for i, h in enumerate(self.houses):
            _check_house(list(h), f"h{i}")
        _check_copies(piles, [13 * s + r for s in range(4) for r in range(self.foundations[s])], copies=1)
        self.redeals = parsing.integer("redeals", self.redeals, 0, 10**6)

    @classmethod
    def from_piles(cls, foundations="0 0 0 0", stock="", houses=("", "", "", ""), hand="", waste="",
                   redeals: int = 0, partial: bool = False) -> "SoloPosition":
        """partial=True admits a toy layout that leaves cards out of the game (neither in a pile nor
        home), to test one rule at a time; by default every card must be in a pile or home."""
        found = _parse_foundations(foundations, pairs=False)
        if len(houses) != SOLO_HOUSES:
            raise ValueError(f"a SOLO layout has {SOLO_HOUSES} houses, got {len(houses)}")
        hs = [parse_pile(h, f"house h{i}") for i, h in enumerate(houses)]
        for i, h in enumerate(hs):
            _check_house(h, f"h{i}")
        piles = {"stock": parse_pile(stock, "stock"), "hand": parse_pile(hand, "hand"),
                 "waste": parse_pile(waste, "waste"), **{f"house h{i}": h for i, h in enumerate(hs)}}
        home = [13 * s + r for s in range(4) for r in range(found[s])]
        _check_copies(piles, home, copies=1)
        missing = set(range(52)) - set(home) - {k for pile in piles.values() for k in pile}
        if missing and not partial:   # §11.3: the foundations hold exactly the cards not listed
            raise ValueError(f"a SOLO layout holds all 52 cards; {len(missing)} are neither in a pile nor home "
                             f"by the foundation heights: {fmt(sorted(missing))} (a toy layout without them: "
                             f"partial=True, or --partial on the command line)")
        return cls(piles["stock"], hs, found, piles["hand"], piles["waste"],
                   parsing.integer("redeals", redeals, 0, 10**6))

    @classmethod
    def deal(cls, seed: int) -> "SoloPosition":
        """The SOLO layout of `seed`: one pack shuffled like the duel's first pack, dealt per §2."""
        d = core.deal_packs(_seed_generators(seed)[0])[0]
        return cls(stock=d[12::-1], houses=[[c] for c in d[13:17]], foundations=[0, 0, 0, 0],
                   hand=d[:16:-1], waste=[])

    def _core_dict(self) -> dict:
        return dict(stock=self.stock, houses=self.houses, foundations=self.foundations,
                    order=list(self.waste) + list(reversed(self.hand)), waste_n=len(self.waste),
                    redeals=self.redeals)

    def solve(self, k: int | None = None, priority: str = "none", model: str = "auto",
              budget: int = 1_000_000, tempo: bool = False, dominance: bool = True, d3: bool = True,
              tt_bits: int | None = None, stuck_prune: bool = True, relaxation: bool = True,
              free_cycling: bool = True, line: bool = False) -> SoloResult:
        """Decide SOLO(k, priority) for this position (k=None: unlimited redeals). ``dominance``
        plays D1-safe foundation moves without branching; ``d3`` searches the open pool in the
        pool-placement normal form of §10.5 D3 (a conjecture, A/B-checked in the tests). In the
        literal model, ``relaxation`` first decides the position as SOLO(∞, none) in the open
        pool, whose loss is a loss for every k and priority (F3), and if the open pool wins it but
        the search runs out of budget, the game is played out with the open-pool search as its
        guide (with the same budget), whose win is a win; ``nodes`` counts every search.
        The table may grow to 2^tt_bits entries; by default to twice the budget (up to 2^26), since
        a full table forgets positions, which the search then meets again and again (a search of
        10^7 nodes with 2^20 slots went 2^21 moves deep and stopped unresolved at a third of its
        budget). It grows only as the search needs it. With ``line``, a win comes with the winning
        line found (moves as text; the D1-safe and, under strict, forced foundation plays follow
        the move that allows them; not in tempo mode). It is a line, not the shortest one; for
        SOLO(∞, none) in the open pool, ``line_discards`` is what it costs in the literal game
        (its pool cards brought up by turning the hand). In tempo mode for SOLO(∞, none) a win in
        the open pool is a win (F1), and the better of that line's discards and those of the
        literal game played out with the open-pool search as its guide is an upper bound on D*."""
        if priority not in ("none", "strict"):
            raise ValueError(f"priority must be none or strict, got {priority!r}")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
            raise ValueError(f"k must be a non-negative integer or None (unlimited), got {k!r}")
        if k is not None and self.redeals > k:
            raise ValueError(f"this position has used {self.redeals} redeals, more than the limit k = {k}")
        model = _solo_model(model, k, priority, tempo)
        budget = parsing.integer("budget", budget, *_INTS["node_budget"])
        if tt_bits is None:
            tt_bits = min(max(budget.bit_length() + 1, 14), 26)
        tt_bits = parsing.integer("tt_bits", tt_bits, *_INTS["tt_bits"])
        solver = core.SoloSolver(tt_bits)
        solver.set_position(self._core_dict())
        r = solver.solve(k, priority == "strict", model == "open_pool", dominance, tempo, budget, d3, stuck_prune,
                         relaxation, free_cycling, line)
        low, high = r["tempo_bounds"]
        return SoloResult(r["outcome"], r["nodes"], model, low if low is not None and low == high else None,
                          (low, high), None if r["line"] is None else _line_text(r["line"], k), r["line_discards"])

    def play_blind(self, k: int | None = None, policy: str = "greedy", samples: int = DEFAULTS["hindsight_samples"],
                   budget: int = DEFAULTS["hindsight_budget"], seed: int = 0) -> "BlindResult":
        """Play this position with a blind policy (§9.2 "Blind play"; see rb_blind.pxd for the end
        rule). ``greedy`` is G1 of §10.6 without loading; it plays a foundation move whenever one
        exists, so its game is the same under both foundation priorities. ``hindsight`` plays
        SOLO(∞, none) only (k=None): it draws ``samples`` orders of the face-down stock cards at
        each decision (from ``seed``), decides every candidate move in each with the solver
        (``budget`` nodes) and plays the one that wins most often (rb_hindsight.pxd)."""
        _blind_redeal_limit(k)
        if _blind_policy(policy) != "hindsight":
            r = core.blind_game(self._piles(), k, policy)
            return BlindResult(r["end"], r["actions"], r["cards_left"], r["redeals"],
                               [_blind_move_text(a) for a in r["played"]])
        _hindsight_game_limits(k, "none")
        samples = parsing.integer("samples", samples, *_INTS["hindsight_samples"])
        budget = parsing.integer("budget", budget, *_INTS["hindsight_budget"])
        seed = parsing.integer("seed", seed, 0, 2**63 - 1)
        r = core.hindsight_game(self._core_dict(), samples, budget, np.random.PCG64(seed))
        return BlindResult("resigned" if r["resigned"] else r["end"], len(r["moves"]), r["cards_left"], 0,
                           [_move_text(*m[:4]) for m in r["moves"]])

    def _piles(self) -> dict:
        return dict(stock=self.stock, houses=self.houses, foundations=self.foundations, hand=self.hand,
                    waste=self.waste)

    def describe(self) -> str:
        """The piles in from_piles notation (bottom -> top), one line each."""
        return "\n".join([f"foundations (S H D C): {' '.join(str(f) for f in self.foundations)}",
                          f"stock {fmt(self.stock)}",
                          *(f"h{i} {fmt(h)}" for i, h in enumerate(self.houses)),
                          f"hand {fmt(self.hand)}", f"waste {fmt(self.waste)}", f"redeals used: {self.redeals}"])


@dataclass(frozen=True)
class BlindResult:
    # win, stuck (no action left: lost), cycle (k = ∞, the position repeats: lost) or, for the
    # hindsight policy, resigned (no move won in any sampled stock order: lost)
    end: str
    actions: int              # card moves and discards (hindsight: moves, each with its pool cards)
    cards_left: int           # in stock, hand and waste at the end
    redeals: int
    moves: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.end == "win"


BLIND_POLICIES = ("greedy", "hindsight")
HINDSIGHT_CIRCLES = f"lost: going round in circles (a position came up {core.HINDSIGHT_REPEATS} times)"


def _blind_policy(policy: str) -> str:
    if policy not in BLIND_POLICIES:
        raise ValueError(f"unknown blind SOLO policy {policy!r}: choose one of {', '.join(BLIND_POLICIES)}")
    return policy


def _blind_redeal_limit(k):
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
        raise ValueError(f"k must be a non-negative integer or None (unlimited), got {k!r}")
    return k


def _hindsight_game_limits(k, priority: str) -> None:
    if k is not None or priority != "none":
        raise ValueError(f"the hindsight policy plays SOLO(∞, none) only (its blind player may bring up any "
                         f"hand card at no cost, §9.2), not SOLO({_k_text(k)}, {priority}): use "
                         f"redeal_limit=unlimited and foundation_priority=none")


def _move_text(source: str, card: int, target: str, pool: list) -> str:
    """A SOLO move as text: `stock 9S→h2 on TH from the pool`, `h1 5C→F after 3C 4C from the pool`,
    `hand QH→h1`, `discard 4C`, `discard 4C and the rest of the hand`, `QH→h1 (turning the hand
    round to it)`, `QH→h1 (discarding on to it)`."""
    if target == "waste":
        return f"discard {card_name(card)}"
    if target == "pass":
        return f"discard {card_name(card)} and the rest of the hand"
    if source == "cycled":
        return f"{card_name(card)}→{target} (turning the hand round to it)"
    if source == "forward":
        return f"{card_name(card)}→{target} (discarding on to it)"
    text = f"{source} {card_name(card)}→{target}"
    if pool:
        cards = " ".join(card_name(c) for c in pool)
        text += f" {'after' if target == 'F' else 'on'} {cards} from the pool"
    return text


def _line_text(steps: list, k: int | None) -> list[str]:
    """A winning line (SoloSolver.solve(line=True)) of SOLO(k, π) as text, one move a line; a run
    of discards is one line, and the cards that then go home by themselves follow their move."""
    lines, discarding = [], False
    for source, card, target, pool, turned, home, redeals in steps:
        if source is None:                   # what goes home before the first move
            if home or redeals:
                lines.append("at the start")
            else:
                continue
        elif target == "waste" and discarding:
            lines[-1] += f" {card_name(card)}"
        else:
            lines.append(_move_text(source, card, target, pool))
        if turned >= 0:
            lines[-1] += f" (with the hand {'turned round' if k is None else 'discarded on'} just past {card_name(turned)})"
        discarding = target == "waste" and not home and not redeals
        if home:
            lines[-1] += f"{',' if source is None else ';'} then home: {' '.join(card_name(c) for c in home)}"
        if redeals:
            lines[-1] += " (then the waste is turned over: redeal)"
    return lines


def _blind_move_text(a: int) -> str:
    """The kernel's blind SOLO action as text: stock→F, hand→h2, h0→h3, DISCARD."""
    if a == core.BLIND_DISCARD:
        return "DISCARD"
    src, dst = divmod(a, 8)
    return f"{('stock', 'hand')[src] if src < 2 else f'h{src - 2}'}→{'F' if dst == 0 else f'h{dst - 1}'}"


def _solo_model(model: str, k, priority: str, tempo: bool) -> str:
    if model not in _CHOICES["solo_model"]:
        raise ValueError(f"model must be one of {', '.join(_CHOICES['solo_model'])}, got {model!r}")
    if model == "auto":
        return "open_pool" if k is None and priority == "none" and not tempo else "literal"
    if model == "open_pool" and (k is not None or tempo):
        raise ValueError("the open-pool model is exact only for SOLO(∞, none) and has no discards to count (§9.3 F1)")
    if model == "open_pool" and priority == "strict":
        raise ValueError(_OPEN_POOL_STRICT)
    return model


# ---------------------------------------------------------------------------------------------
# Analyses

def _solo_options(rules: dict) -> dict:
    k = rules["redeal_limit"]
    priority = rules["foundation_priority"]
    model = _solo_model(rules["solo_model"], k, priority, rules["tempo"])
    return dict(k=k, strict=priority == "strict", open_pool=model == "open_pool", dominance=rules["dominance"],
                d3=rules["pool_normal_form"], stuck_prune=rules["stuck_prune"], relaxation=rules["relaxation"],
                free_cycling=rules["free_cycling"],
                tempo=rules["tempo"], budget=rules["node_budget"], tt_bits=rules["tt_bits"])


def _solo_results_since(rules: dict) -> str:
    """The version since which the solo kernel counts as now for these options: 0.5.0 and 0.6.0
    changed only the literal model (the relaxation; the last-pass cut and free cycling), 0.7.0
    only its finite redeal limits (the stuck hand test), 0.8.2 to 0.8.6 only the tempo search,
    0.8.14 only the literal model with the relaxation (the guided game for deals the search leaves
    unresolved) and 0.8.15 only the open-pool search when its table is full (the move undoing the
    last house move is no longer made, so a replaced ancestor is not searched again), which the
    relaxation and the tempo bounds use too; 0.9.0 the literal model's solvability search with a
    finite k and free cycling (the rest of a pass of the hand is one class, pass_free). (No
    check_rules: a run stored by an older version is judged by its version here, and its options
    are checked when its shards run.)"""
    options = _solo_options(rules)
    if options["k"] is not None and options["free_cycling"] and not options["open_pool"] and not options["tempo"]:
        return "0.9.0"
    if options["tempo"] or options["open_pool"] or options["relaxation"]:
        return "0.8.15"
    return "0.6.0" if options["k"] is None else "0.7.0"


def _solo_kernel(bit_generators, n_deals: int, rules: dict) -> dict[str, np.ndarray]:
    return core.solo_shard(bit_generators[0], n_deals, _solo_options(check_solo_rules(dict(rules))))


def _duel_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    check_rules(dict(rules))
    opts = dict(rules, first_strategy=strategies["first"], second_strategy=strategies["second"])
    return core.duel_shard(bit_generators[0], bit_generators[1], n_deals, opts)


def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    check_rules(dict(rules))
    return core.compare_shard(bit_generators, n_deals, rules, strategies)



def _blind_shard_options(rules: dict, policy: str) -> dict:
    if policy == "hindsight":
        _hindsight_game_limits(rules["redeal_limit"], rules["foundation_priority"])
    return dict(k=rules["redeal_limit"], policy=policy, samples=rules["hindsight_samples"],
                sample_budget=rules["hindsight_budget"])


def _blind_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    # stream 1 feeds the hindsight policy's draws
    options = _blind_shard_options(check_solo_rules(dict(rules)), strategies["player"])
    return core.blind_shard(bit_generators[0], n_deals, options, policy_bitgen=bit_generators[1])


def _blind_paired_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    rules = check_solo_rules(dict(rules))
    if rules["tempo"]:
        raise ValueError("the paired blind analysis decides the layouts; it has no tempo mode (tempo=false)")
    return core.blind_shard(bit_generators[0], n_deals,
                            dict(_blind_shard_options(rules, strategies["player"]), solve=_solo_options(rules)),
                            policy_bitgen=bit_generators[1])

_STRATEGY_NAMES = ("greedy", "lookahead", "random")
COMPARE_SHARD = 2_000       # duplicate deals per shard: a few seconds of play, so workers share the load
GAME = Game(
    name="russian_bank",
    title="Russian Bank (crapette)",
    aliases=("rb",),
    presets=PRESETS,
    validate_option=validate_option,
    check_rules=check_rules,
    analyses={
        "solo": Analysis("solo", "SOLO(k, π) solvability of random one-player layouts (exact search per deal)",
                         _solo_kernel, summary=lambda *a: solo_summary(*a), results_since=_solo_results_since,
                         check=_check_solo),
        "blind": Analysis("blind", "SOLO(k, π) layouts played by a blind policy (§9.2): win rate W_σ(k, π), "
                          "actions, cards left, redeals", _blind_kernel, streams=2, strategies={"player": BLIND_POLICIES},
                          summary=lambda *a: blind_summary(*a), check=_check_solo),
        "blind_paired": Analysis("blind_paired", "the blind analysis with every layout also decided by the "
                                 "SOLO solver: blind outcome x thoughtful outcome per deal", _blind_paired_kernel,
                                 streams=2, strategies={"player": BLIND_POLICIES},
                                 summary=lambda *a: blind_paired_summary(*a), check=_check_solo),
        "duel": Analysis("duel", "two-player games with named strategies: first/second/draw rates, length, score",
                         _duel_kernel, streams=2,
                         strategies={"first": _STRATEGY_NAMES, "second": _STRATEGY_NAMES},
                         summary=lambda *a: duel_summary(*a), unit="games"),
        "compare": Analysis("compare", "Duplicate deals: A and B each play both packs (and seats) of every deal; "
                            "A's minus B's points won", _compare_kernel, streams=3,
                            strategies={"a": _STRATEGY_NAMES, "b": _STRATEGY_NAMES}),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: COMPARE_SHARD,
)


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis (``kozyr compare russian_bank --strategies greedy random``).

    A label is a play strategy of §10.6: ``greedy`` (G1), ``lookahead`` (the blind turn planner:
    the best plan of up to three actions of its own turn, stopping at any action that turns up an
    unseen card, by the opponent's private cards minus its own, stock cards twice) or ``random``
    (uniform legal action).
    Every deal (the two packs from the dealing stream) is played twice from the same start: A holds
    pack 0 and B pack 1, then the other way round. Who moves first depends on the packs (or on a
    draw from the dealing stream under first_player=random), so each strategy plays both packs and
    both seats of every deal. A strategy's per-deal result is its game score summed over its two
    games: the winner's score of §7 (30 + 2 x loser's stock + loser's hand and waste) for a win,
    0 for a loss or a draw; the compared difference A - B is thus A's net points on the deal.
    A draws its random numbers from stream 1, B from stream 2 (under stop_mode=call a player's
    stream also decides whether he notices the opponent's non-compliant action)."""
    for label in (a, b):
        if label not in _STRATEGY_NAMES:
            raise ValueError(f"unknown russian_bank strategy {label!r}: choose one of {', '.join(_STRATEGY_NAMES)}")
    return {"a": a, "b": b}


# ---------------------------------------------------------------------------------------------
# Tables

def honest_interval(w: int, l: int, u: int) -> tuple[float, float]:
    """§10.8: Wilson lower bound with the unresolved deals as losses, upper bound with them as wins."""
    n = w + l + u
    low, _ = wilson(w, n)
    _, high = wilson(w + u, n)
    return float(low), float(high)


def batch_mean_interval(deals, sums) -> tuple[float, float, float]:
    """A mean a deal and its interval from batches of deals (shards: their deals and their sums),
    for a run that kept no squares: the ratio of the sums to the deals with the delta-method
    interval over the batches (exact integer moments; a shard's square passes 2^63)."""
    d = [int(v) for v in deals]
    x = [int(v) for v in sums]
    return ratio_interval(sum(x), sum(d), sum(v * v for v in x), sum(v * v for v in d),
                          sum(a * b for a, b in zip(x, d)), len(d))


def solvability_table(counters: dict, label: str = "", nodes_interval=None) -> pd.DataFrame:
    """Outcomes of a solvability run with the §10.8 interval and the share of the deals proven
    solvable (won / deals: the unresolved deals are neither, so it is not a point estimate of the
    solvability when some are left), and the mean nodes a deal (the
    search's cost, a mean over the deals like any other) with its normal interval where the run
    counted the squares (runs stored before 0.8.12 did not: `nodes_interval` may then give one,
    see batch_mean_interval)."""
    w, l, u = (int(x) for x in counters["outcome"])
    n = w + l + u
    low, high = honest_interval(w, l, u)
    sumsq = core.exact_square_sum(counters["node_sumsq"]) if "node_sumsq" in counters else None
    nodes = nodes_interval or mean_interval_if_counted(int(counters["node_sum"][0]), sumsq, n)
    # whole nodes: a float column would print as 3.318e+06
    mean_nodes, nodes_low, nodes_high = (round(v) if np.isfinite(v) else np.nan for v in nodes)
    return pd.DataFrame([dict(game=label, deals=n, won=w, lost=l, unresolved=u,
                              proven_solvable=w / n if n else np.nan, ci_low=low, ci_high=high,
                              half_width_pp=100 * (high - low) / 2, mean_nodes=mean_nodes,
                              nodes_ci_low=max(nodes_low, 0) if np.isfinite(nodes_low) else np.nan,
                              nodes_ci_high=nodes_high)])


def nodes_table(counters: dict) -> pd.DataFrame:
    hist = counters["nodes_hist"]
    rows = []
    last = hist.shape[1] - 1              # the last decade collects every larger count too
    for d in range(hist.shape[1]):
        rows.append(dict(nodes=f"[1e{d}, 1e{d + 1})" if d < last else f">= 1e{d}", won=int(hist[0, d]),
                         lost=int(hist[1, d]), unresolved=int(hist[2, d])))
    return pd.DataFrame(rows)


def ladder_table(counters: dict, budget: int) -> pd.DataFrame:
    """The escalation ladder of §10.7 read off one solvability run (not a tempo run): the search
    is a deterministic DFS, so a run with budget 10^k nodes resolves exactly the deals this run
    resolved within 10^k nodes (the unresolved deals of a stage are the ones a larger budget
    re-runs). Exact for one search per deal (the open pool, or the literal model without the
    relaxation). With the relaxation a deal's count adds the searches (the relaxation, the literal
    search and, where that runs out of budget, the guided game), each of which has the budget, so
    a stage shows a lower bound on what that budget decides (never more): see ladder_is_exact."""
    hist = counters["nodes_hist"]
    n = int(hist.sum())
    rows = []
    stages = [(10 ** k, k) for k in range(2, hist.shape[1]) if 10 ** k < budget] + [(budget, hist.shape[1])]
    for stage_budget, k in stages:
        w, l = int(hist[0, :k].sum()), int(hist[1, :k].sum())
        low, high = honest_interval(w, l, n - w - l)
        rows.append(dict(node_budget=stage_budget, won=w, lost=l, unresolved=n - w - l, ci_low=low, ci_high=high))
    return pd.DataFrame(rows)


def ladder_is_exact(rules: dict) -> bool:
    """Whether ladder_table is exact for a solvability run with these resolved options (one
    search a deal)."""
    options = _solo_options(rules)
    return options["open_pool"] or not options["relaxation"]


def tempo_table(counters: dict) -> pd.DataFrame:
    """D* of a tempo run (solo analysis with tempo=true), by number of discards: deals where D*
    is exact, and for the others the distribution of the proven lower and upper bounds."""
    hist = counters["tempo_hist"]
    nz = np.nonzero(hist.sum(axis=0))[0]
    return pd.DataFrame([dict(discards=int(d), exact=int(hist[0, d]), lower_bound=int(hist[1, d]),
                              upper_bound=int(hist[2, d])) for d in nz])


def tempo_figure(rows: pd.DataFrame, deals: int):
    """The tempo table drawn on every discard count of its range (a count missing from the table
    is 0), beside the band that its bounds put on the share of deals won with at most x discards."""
    import matplotlib.pyplot as plt

    fig, (ax, band) = plt.subplots(1, 2, figsize=(11, 3.5))
    if len(rows):
        full = rows.set_index("discards").reindex(range(rows.discards.min(), rows.discards.max() + 1), fill_value=0)
        for column, colour in (("exact", "tab:green"), ("lower_bound", "tab:blue"), ("upper_bound", "tab:orange")):
            ax.step(full.index, full[column], where="mid", label=column.replace("_", " "), color=colour)
        surely = (full.exact + full.upper_bound).cumsum() / deals
        maybe = (full.exact + full.lower_bound).cumsum() / deals
        band.fill_between(full.index, surely, maybe, step="mid", color="tab:purple", alpha=0.25)
        band.step(full.index, surely, where="mid", color="tab:purple", label="at least")
        band.step(full.index, maybe, where="mid", color="tab:purple", linestyle="--", label="at most")
        ax.legend()
        band.legend()
    ax.set_xlabel("discards (D* = fewest discards of a win)")
    ax.set_ylabel("deals")
    band.set_xlabel("x discards")
    band.set_ylabel(f"share of the {deals} deals with D* <= x")
    band.set_ylim(0, 1)
    return fig


def _rate(pair: str, event: str, count: int, n: int) -> dict:
    low, high = wilson(count, n)
    return dict(pair=pair, event=event, count=count, n=n, estimate=count / n if n else np.nan,
                ci_low=float(low), ci_high=float(high))


def _mean(pair: str, event: str, total: float, n: int, total_sq=None, bounds=None) -> dict:
    """A mean over n games with its normal interval when the sum of squares was counted (runs
    stored before 0.8.11 have only the sums: their means are shown without an interval)."""
    mean, low, high = mean_interval_if_counted(total, total_sq, n, bounds=bounds)
    return dict(pair=pair, event=event, count=np.nan, n=n, estimate=mean, ci_low=low, ci_high=high)


def _sumsq(counters: dict, key: str, index=0):
    """The sum of squares kept beside counters[key], or None for a run stored without it."""
    return counters[key + "_sumsq"][index] if key + "_sumsq" in counters else None


def _exact_sums(counters: dict, key: str, hist_key: str) -> tuple[int, int | None]:
    """Sum and sum of squares of a per-game count: from counters[key] (sum) and its _sumsq where
    the run has them, else from the histogram, which is exact only while its last bin (that
    collects the larger values) is empty."""
    if key in counters:
        return int(counters[key][0]), int(counters[key + "_sumsq"][0])
    hist = counters[hist_key]
    _, total, total_sq = histogram_moments(hist)
    return total, (total_sq if hist[-1] == 0 else None)


def _advantage(pair: str, w1: int, w2: int, n: int) -> dict:
    """First-mover advantage A = W1 - W2 (§9.4): the mean of +1 (first player won), -1 (second)
    and 0 (draw) over the games, so its sum of squares is W1 + W2; the interval kept in [-1, 1]."""
    return _mean(pair, "first-mover advantage W1-W2", w1 - w2, n, w1 + w2, bounds=(-1.0, 1.0))


def _seat_rows(pair: str, w1: int, w2: int, stall: int, cap: int) -> list[dict]:
    games = w1 + w2 + stall + cap
    return [_rate(pair, "first wins", w1, games), _rate(pair, "second wins", w2, games),
            _rate(pair, "draw", stall + cap, games), _rate(pair, "draw by cap", cap, games),
            _rate(pair, "first share of decided", w1, w1 + w2), _advantage(pair, w1, w2, games)]


def duel_table(counters: dict, label: str = "") -> pd.DataFrame:
    """Outcomes of a duel run by seat (§9.4): W1, W2, draws (never folded into losses), the first
    player's share of the decided games, first-mover advantage, length, cards loaded by seat."""
    games = int(counters["games"][0])
    w1, w2, stall, cap = (int(x) for x in counters["outcome"])
    rows = _seat_rows(label, w1, w2, stall, cap)
    rows.append(_mean(label, "mean turns (decided)", counters["sums"][3], w1 + w2, _sumsq(counters, "sums", 3)))
    rows.append(_mean(label, "mean actions per game", counters["sums"][0], games, _sumsq(counters, "sums", 0)))
    for seat, name in enumerate(("first", "second")):
        rows.append(_mean(label, f"cards loaded per game by {name}", counters["seat_sums"][seat, 0], games,
                          _sumsq(counters, "seat_sums", (seat, 0))))
    return pd.DataFrame(rows)


def duplicate_table(counters: dict, a: str, b: str) -> pd.DataFrame:
    """The duel statistics of a duplicate comparison (compare analysis): every deal twice, packs and
    so seats swapped between strategy A and B. Rates per game by strategy and by seat, A's share
    of the decided games, first-mover advantage over both strategies' games, length, loads."""
    pair = f"{a} vs {b}"
    seat = counters["by_seat"]                 # [A first / A second][A wins, B wins, stall, cap]
    games = int(seat.sum())
    a_wins, b_wins = int(seat[:, 0].sum()), int(seat[:, 1].sum())
    stall, cap = int(seat[:, 2].sum()), int(seat[:, 3].sum())
    rows = [_rate(pair, f"{a} (A) wins", a_wins, games), _rate(pair, f"{b} (B) wins", b_wins, games),
            _rate(pair, f"{a} (A) share of decided", a_wins, a_wins + b_wins),
            _rate(pair, f"{a} (A) wins as first", int(seat[0, 0]), int(seat[0].sum())),
            _rate(pair, f"{a} (A) wins as second", int(seat[1, 0]), int(seat[1].sum()))]
    # seats (and the draws): the first player wins when A moved first and won, or B did
    rows += _seat_rows(pair, int(seat[0, 0] + seat[1, 1]), int(seat[0, 1] + seat[1, 0]), stall, cap)
    decided = a_wins + b_wins
    turns, turns_sq = _exact_sums(counters, "turns", "turns_hist")
    rows.append(_mean(pair, "mean turns (decided)", turns, decided, turns_sq))
    for i, name in enumerate((a, b)):
        rows.append(_mean(pair, f"cards loaded per game by {name} ({'AB'[i]})", counters["loads"][i], games,
                          _sumsq(counters, "loads", i)))
        rows.append(_mean(pair, f"redeals per game by {name} ({'AB'[i]})", counters["redeals"][i], games,
                          _sumsq(counters, "redeals", i)))
    return pd.DataFrame(rows)



def blind_table(counters: dict, label: str = "") -> pd.DataFrame:
    """A blind SOLO run: the win rate W_σ(k, π) (§9.2) and the two ways to lose with Wilson
    intervals, mean actions, cards left in stock + hand + waste, redeals."""
    n = int(counters["deals"][0])
    win, stuck, cycle = (int(x) for x in counters["outcome"])
    # a won game leaves no card, so the sums over all games are the sums over the lost ones
    _, left_sum, left_sq = histogram_moments(counters["cards_left_hist"])
    redeals, redeals_sq = _exact_sums(counters, "redeals", "redeals_hist")
    if "hindsight" in counters:       # the hindsight policy (open pool: no discards, no redeals)
        resigned, decisions, solves, nodes, truncated = (int(x) for x in counters["hindsight"])
        # (runs stored before 0.8.12 counted the squares otherwise: their means have no interval)
        squares = counters.get("hindsight_sq", [None] * 4)
        nodes_sq = (core.exact_square_sum(counters["hindsight_nodes_sq"]) if "hindsight_nodes_sq" in counters
                    else None)
        return pd.DataFrame([
            _rate(label, "win", win, n), _rate(label, "lost: no move", stuck - resigned, n),
            _rate(label, "lost: resigned (no move won in any sampled stock order)", resigned, n),
            _rate(label, HINDSIGHT_CIRCLES, cycle, n),
            _mean(label, "mean moves per game", counters["actions"][0], n, _sumsq(counters, "actions")),
            _mean(label, "mean cards left when lost", left_sum, n - win, left_sq),
            _mean(label, "mean sampled decisions per game", decisions, n, squares[1]),
            _mean(label, "mean solver searches per game", solves, n, squares[2]),
            _mean(label, "mean solver nodes per game", nodes, n, nodes_sq),
            _rate(label, "move lists cut short (must be 0)", truncated, n)])
    rows = [_rate(label, "win", win, n), _rate(label, "lost: no action left", stuck, n),
            _rate(label, "lost: cycle (k = ∞, the position repeats)", cycle, n),
            _mean(label, "mean actions per game", counters["actions"][0], n, _sumsq(counters, "actions")),
            _mean(label, "mean cards left", left_sum, n, left_sq),
            _mean(label, "mean cards left when lost", left_sum, n - win, left_sq),
            _mean(label, "mean redeals", redeals, n, redeals_sq)]
    return pd.DataFrame(rows)


def paired_table(counters: dict, label: str = "") -> pd.DataFrame:
    """blind_paired: the blind outcome beside the solver's on the same layouts. A blind win is a
    winning line, so the solver can never have lost it (the row 'blind wins the solver lost' must
    be 0); the share of the thoughtful wins that the blind policy also wins measures the gap."""
    p = counters["paired"]                       # [blind win, loss][solver win, loss, unresolved]
    n = int(p.sum())
    solved_w, solved_l, unresolved = (int(x) for x in p.sum(axis=0))
    return pd.DataFrame([
        _rate(label, "solver won", solved_w, n), _rate(label, "solver lost", solved_l, n),
        _rate(label, "solver unresolved", unresolved, n), _rate(label, "blind won", int(p[0].sum()), n),
        _rate(label, "blind won, of the solver's wins", int(p[0, 0]), solved_w),
        _rate(label, "blind won, of the unresolved deals", int(p[0, 2]), unresolved),
        _rate(label, "blind wins the solver lost (must be 0)", int(p[0, 1]), n),
        # a blind win is a solver win, so this is the thoughtful rate minus the blind one, deal by deal
        _rate(label, "the gap: solver won, blind lost", int(p[1, 0]), n),
    ])

# ---------------------------------------------------------------------------------------------
# Report

SOLO_SHARD = 250            # solver shards are slow: small shards keep every worker busy
# (label, deals, overrides). These keep `kozyr report` to minutes of CPU; the headline figure
# itself needs `kozyr russian_bank solo` runs of 10^4-10^6 deals (README), and its store is shown
# first when it is kept beside the report (headline_section).
SOLO_VARIANTS = (
    ("SOLO(∞, none) = Russian-bank solvability", 1_000, dict(foundation_priority="none", node_budget=1_000_000)),
    # the literal searches leave many deals open at 10^6 nodes: these get 10^7 (and room for the table)
    ("SOLO(∞, strict)", 1_000, dict(foundation_priority="strict", node_budget=10_000_000, tt_bits=24)),
    ("SOLO(2, none)", 200, dict(foundation_priority="none", redeal_limit=2, node_budget=10_000_000, tt_bits=24)),
    ("SOLO(1, none)", 200, dict(foundation_priority="none", redeal_limit=1, node_budget=10_000_000, tt_bits=24)),
    ("SOLO(0, strict)", 1_000, dict(foundation_priority="strict", redeal_limit=0, node_budget=100_000)),
)
# D* (tempo) of SOLO(∞, none) layouts: layered search, exact or bounded within the budget
TEMPO_RUN = (200, dict(foundation_priority="none", tempo=True, node_budget=500_000, tt_bits=21))


def build_report(ctx) -> list:
    from ..report import Section
    import matplotlib.pyplot as plt

    solo_rows, results = [], {}
    for label, deals, overrides in SOLO_VARIANTS:
        result = ctx.run("russian_bank", "solo", "default", deals, overrides, shard_size=SOLO_SHARD)
        results[label] = result
        table = solvability_table(result.counters, label)
        table.insert(1, "node_budget", overrides["node_budget"])
        solo_rows.append(table)
    head = results[SOLO_VARIANTS[0][0]]
    sections = [Section(
        "Russian Bank: solvability of one player's layout",
        "Russian-bank solvability (§9.5) is the share of random one-player layouts (stock 13, 4 houses, "
        "hand 35) that can be played out when every card is known, SOLO(∞, none). Each deal is decided "
        "by an exhaustive depth-first search with an exact-key transposition table and a node budget "
        "(open-pool model with the D1 and D3 reductions for SOLO(∞, none); the literal cyclic hand "
        "otherwise, after an open-pool search of the same deal as SOLO(∞, none), whose loss is a loss "
        "for every redeal limit and priority, §9.3 F3). The interval is the §10.8 Wilson interval that "
        "counts the unresolved deals as losses for its lower end and as wins for its upper end, so its width is at least the "
        "unresolved share; proven_solvable is the share of the deals the search won (won / deals): the "
        "sample's solvable share lies between it and (won + unresolved) / deals. In the literal model "
        "with unlimited redeals, the hand positions between "
        "cards that would go home by themselves are one state (discarding round the hand links them "
        "at no cost); with a finite redeal limit so are those of the rest of a pass (discarding on "
        "links them; the stock and house moves of the class are made at its first position, or just "
        "past a hand card that the move lets go home by itself). With a finite redeal limit k, a card discarded after the last redeal can "
        "never leave the waste, so the search ends every such line at once: SOLO(0, π) (play each hand "
        "card as it comes up) is decided on every deal. For the same reason the cards of the last "
        "pass, and the waste in the pass before it, must leave in turning order like a second stock, "
        "and a position where one of them provably never can is cut. Still, k = 1 and 2 leave deals "
        "unresolved within these budgets (as in the pilot of §13): read their intervals, not their "
        "proven shares. The ladder table shows what smaller "
        "budgets decide on the same deals (§10.7). The tempo D* is found by a breadth-first search "
        "layered by discards in the literal model: exact when the search finishes, otherwise the "
        "layer it reached is a proven lower bound. A deal the open-pool search proves lost as "
        "SOLO(∞, none) has none (D* = ∞), and one it wins is won (the open pool is that game, F1). "
        "The upper bound is the fewest discards of three winning lines of the literal game: a win "
        "found by depth-first search, the open pool's winning line with the hand turned to each pool "
        "card it uses (cards it sends home wait until they come up or are needed), and the game "
        "played out card by card with the open-pool search as its guide (the hand card is played "
        "where the deal stays won, else a stock or house card home, else a stock or house card laid "
        "on a house that gives the hand card such a place, else the next stock or house move of an "
        "open-pool winning line, followed until the game leaves it, else a discard); a branch and "
        "bound then looks for wins with fewer discards (when it finishes, or meets the lower bound, "
        "D* is exact too). The stuck tests cut the "
        "positions they prove lost there too. These samples are small; the "
        "headline run and the longer runs of the other variants (the sections before this one, when "
        "their stores are kept beside the report) are much larger.",
        tables=[("Solvability by variant", pd.concat(solo_rows, ignore_index=True)),
                ("Escalation ladder for SOLO(∞, none): the same deals with smaller node budgets",
                 ladder_table(head.counters, SOLO_VARIANTS[0][2]["node_budget"])),
                ("Nodes per deal, SOLO(∞, none)", nodes_table(head.counters))],
    )]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    hist = head.counters["nodes_hist"]
    x = np.arange(hist.shape[1])
    for row, (name, colour) in enumerate((("won", "tab:green"), ("lost", "tab:red"), ("unresolved", "tab:grey"))):
        ax.bar(x + 0.27 * (row - 1), hist[row], width=0.27, label=name, color=colour)
    ax.set_xticks(x, [f"1e{d}" for d in x])
    ax.set_xlabel("nodes searched (decade)")
    ax.set_ylabel("deals")
    ax.set_yscale("log")
    ax.legend()
    sections[0].figures.append(("Search effort per deal for SOLO(∞, none), by outcome.", fig))

    deals, overrides = TEMPO_RUN
    tempo = ctx.run("russian_bank", "solo", "default", deals, overrides, shard_size=SOLO_SHARD // 5)
    tempo_rows = tempo_table(tempo.counters)
    w, l, u = (int(x) for x in tempo.counters["outcome"])
    sections[0].tables.append((
        f"Tempo D* of SOLO(∞, none) ({tempo.deals_done:,} deals, {overrides['node_budget']:,} nodes a search): deals "
        f"by discards where D* is exact, and the proven lower / found upper bounds of the others "
        f"({w} won, {l} lost, {u} undecided by these searches)", tempo_rows))
    sections[0].figures.append((
        "Tempo D* of SOLO(∞, none) (§9.2; D*+1 is the solo race length in turns). Left: deals by "
        "discards, where D* is exact and the bounds of the others. Right: the share of the deals that "
        "can be won with at most x discards lies in the band: at least those whose D* or upper bound "
        "is at most x, at most those whose D* or lower bound is (lost deals never count).",
        tempo_figure(tempo_rows, w + l + u)))

    kept = [section for section in (headline_section(ctx), variants_section(ctx)) if section is not None]
    sections[:0] = kept
    sections.append(blind_section(ctx, head))
    sections.append(duel_section(ctx))
    return sections


# The headline run of §9.5 (10^6 deals, < 0.1 % unresolved) takes tens of CPU-hours, far more than
# a report: it is run on its own, resumed across sessions, and its store is kept in the report
# folder under this name, from which the report reads it (kozyr run resume ID --store ... adds to it).
HEADLINE_STORE = "russian_bank-headline.sqlite"


def _kept_solo_runs(ctx, name: str) -> tuple[Path, list] | None:
    """The solvability runs with at least one deal done in the store `name` kept in the report
    folder (with their counters, and each shard's deals and node sums for a run that counted no
    squares), or None when there is no such store or run."""
    from ..store import Store

    path = Path(ctx.out_dir) / name if ctx.out_dir is not None else None
    if path is None or not path.is_file():
        return None
    runs = []
    with Store(path) as store:
        for r in store.runs():
            if r.config["game"] == "russian_bank" and r.config["analysis"] == "solo" and r.deals_done:
                stored = store.get(r.id)
                batches = None if "node_sumsq" in stored.counters else store.shard_values(r.id, "node_sum")
                runs.append((stored, batches))
    return (path, runs) if runs else None


def _kept_run_state(stored, path: Path) -> str:
    """Whether a kept run is complete, or how far it got and how to go on with it."""
    done, asked = stored.deals_done, stored.config["deals"]
    if done == asked:
        return "complete"
    return (f"{stored.status}: {done:,} of {asked:,} deals so far, resumable with "
            f"`kozyr run resume {stored.id} --store {path}`")


def _solo_label(rules: dict) -> str:
    return f"SOLO({_k_text(rules['redeal_limit'])}, {rules['foundation_priority']})"


def headline_section(ctx):
    """The long SOLO(∞, none) run kept beside the report, if there is one: solvability on all its
    deals so far, the ladder, the effort per deal, and how to continue it."""
    from ..report import Section

    kept = _kept_solo_runs(ctx, HEADLINE_STORE)
    if kept is None:
        return None
    path, runs = kept
    stored, batches = max(runs, key=lambda run: run[0].deals_done)
    c, rules = stored.config, stored.config["rule_options"]
    label = _solo_label(rules)
    counters = stored.counters
    done, asked = stored.deals_done, c["deals"]
    unresolved = int(counters["outcome"][2])
    which = f"all {done:,} deals of a run" if done == asked else f"the first {done:,} deals of a run of {asked:,}"
    so_far = "" if done == asked else " so far"
    text = (f"Russian-bank solvability {label} on {which} "
            f"(seed {c['seed']}, shards of {c['shard_size']}, node budget {rules['node_budget']:,} per deal, "
            f"transposition table up to 2^{rules['tt_bits']} entries; Kozyr {c['version']}); "
            f"{_kept_run_state(stored, path)}. "
            f"It is kept in {HEADLINE_STORE} beside this report, not simulated by it. "
            f"{unresolved:,} deals ({unresolved / done:.3%}) are unresolved at the budget and are counted "
            f"both ways in the interval. Time{so_far}: {stored.seconds / 3600:.1f} hours summed over the "
            f"shards ({stored.seconds / done * 1000:.0f} ms a deal; CPU time when each worker had a core).")
    nodes_interval = None
    if batches is not None:
        nodes_interval = batch_mean_interval(batches[0], batches[1][:, 0])
        text += (f" The version that made the run did not count each deal's squared nodes (counted since 0.8.12), "
                 f"so the interval of its mean nodes a deal is that of a ratio over its "
                 f"{len(batches[0]):,} shards (batch means).")
    return Section(f"Russian Bank: the headline run ({done:,} deals)", text, tables=[
        (f"Russian-bank solvability, {label}", solvability_table(counters, label, nodes_interval)),
        ("Escalation ladder: the same deals with smaller node budgets", ladder_table(counters, rules["node_budget"])),
        ("Nodes per deal", nodes_table(counters))])


# Runs of the other variants at a 10x budget on more layouts than the report's own (an hour or
# more of CPU each): made with `kozyr russian_bank solo ... --store` like the headline run and kept
# in the report folder under this name; the report reads them and never adds to them.
VARIANTS_STORE = "russian_bank-variants.sqlite"


def _variant_order(stored) -> tuple:
    """SOLO(∞, none), SOLO(∞, strict), then finite redeal limits from the largest (the report's order)."""
    rules = stored.config["rule_options"]
    k = rules["redeal_limit"]
    return (k is not None, -(k or 0), rules["foundation_priority"] == "strict", stored.id)


def variants_section(ctx):
    """The longer solvability runs kept beside the report in VARIANTS_STORE, if any: each one's
    solvability with its honest interval, its configuration, its state and its ladder."""
    from ..report import Section

    kept = _kept_solo_runs(ctx, VARIANTS_STORE)
    if kept is None:
        return None
    path, runs = kept
    rows, ladders, states = [], [], []
    for stored, batches in sorted(runs, key=lambda run: _variant_order(run[0])):
        c, rules = stored.config, stored.config["rule_options"]
        label = _solo_label(rules)
        nodes_interval = None if batches is None else batch_mean_interval(batches[0], batches[1][:, 0])
        row = solvability_table(stored.counters, label, nodes_interval)
        row.insert(1, "node_budget", rules["node_budget"])
        # the seed as a text, which the tables print without a thousands separator
        for column, value in (("seed", str(c["seed"])), ("shard_size", c["shard_size"]), ("tt_bits", rules["tt_bits"]),
                              ("version", c["version"]), ("cpu_hours", round(stored.seconds / 3600, 2)),
                              ("run", stored.id)):
            row[column] = value
        rows.append(row)
        ladder = ladder_table(stored.counters, rules["node_budget"])
        ladder.insert(0, "game", label)
        ladders.append(ladder)
        states.append(f"run {stored.id}, {label}: {_kept_run_state(stored, path)}")
    text = (f"Longer runs of the variants beside the headline, at a larger node budget and on more "
            f"layouts than the table of the next section; they are kept in {VARIANTS_STORE} beside "
            f"this report, not simulated by it (each row gives its seed, shard size, node budget, table "
            f"size, Kozyr version, and the CPU hours summed over its shards). Deals are drawn by shard, "
            f"so a run with the report's seed and shard size starts with the report's own layouts. "
            f"Unresolved deals are counted both ways in the interval, as everywhere. The ladder shows "
            f"what smaller budgets decide on the same layouts (a lower bound on it where the literal "
            f"search follows the open-pool relaxation, as in the next section). "
            f"`kozyr runs show RUN --store {path}` prints a run's whole configuration and counters. "
            + "; ".join(states) + ".")
    return Section("Russian Bank: longer runs of the other variants", text, tables=[
        ("Solvability by variant, longer runs", pd.concat(rows, ignore_index=True)),
        ("Escalation ladder of the longer runs: the same deals with smaller node budgets",
         pd.concat(ladders, ignore_index=True))])


# Blind SOLO play (a few CPU-seconds per 10^5 games): G1 at unlimited and small redeal limits, and
# the paired run, which decides the same layouts as the headline variant above (same deals, seed,
# shard size and budget) and so costs as much as that run.
REPORT_BLIND_DEALS = 100_000
REPORT_BLIND = ((None, "none"), (None, "strict"), (0, "strict"), (1, "strict"), (2, "strict"), (3, "strict"),
                (5, "strict"))


def blind_section(ctx, thoughtful):
    """W_greedy(k, π) and W_hindsight(∞, none) beside the thoughtful SOLO(∞, none) interval, and
    both policies paired with the solver on the same layouts."""
    from ..report import Section, distribution_plot, rate_bars

    rows, tables, left = [], [], {}
    for k, priority in REPORT_BLIND:
        label = f"greedy SOLO({_k_text(k)}, {priority})"
        r = ctx.run("russian_bank", "blind", "default", REPORT_BLIND_DEALS,
                    dict(foundation_priority=priority, redeal_limit=k), strategies=dict(player="greedy"))
        table = blind_table(r.counters, label)
        tables.append(table)
        rows.append(table[table.event == "win"])
        if priority == "strict" and k != 0:     # (∞, none) is the same games as (∞, strict); k = 0 wins nothing
            left[label] = r.counters["cards_left_hist"]
    _, deals, overrides = SOLO_VARIANTS[0]
    w, l, u = (int(x) for x in thoughtful.counters["outcome"])
    low, high = honest_interval(w, l, u)
    rows.append(pd.DataFrame([dict(pair="thoughtful SOLO(∞, none)",
                                   event=f"win (§10.8 interval, {overrides['node_budget']:,} nodes)", count=w, n=w + l + u,
                                   estimate=w / (w + l + u), ci_low=low, ci_high=high)]))
    paired_run = ctx.run("russian_bank", "blind_paired", "default", deals, overrides,
                         strategies=dict(player="greedy"), shard_size=SOLO_SHARD)
    paired = paired_table(paired_run.counters, "greedy SOLO(∞, none) vs the solver").set_index("event")
    of_wins = paired.loc["blind won, of the solver's wins"]
    # the hindsight policy on the same layouts, each also decided by the solver
    hindsight_run = ctx.run("russian_bank", "blind_paired", "default", deals, overrides,
                            strategies=dict(player="hindsight"), shard_size=SOLO_SHARD)
    hindsight_label = "hindsight SOLO(∞, none)"
    hindsight = blind_table(hindsight_run.counters, hindsight_label)
    tables.append(hindsight)
    rows.insert(len(rows) - 1, hindsight[hindsight.event == "win"])     # beside the thoughtful row
    h_paired = paired_table(hindsight_run.counters, f"{hindsight_label} vs the solver").set_index("event")
    h_of_wins, h_gap = h_paired.loc["blind won, of the solver's wins"], h_paired.loc["the gap: solver won, blind lost"]
    h_win = hindsight.set_index("event").loc["win"]
    samples, budget = (hindsight_run.config.rule_options[k] for k in ("hindsight_samples", "hindsight_budget"))
    rates = pd.concat(rows, ignore_index=True)
    section = Section(
        "Russian Bank: blind play of the SOLO game",
        "W_σ(k, π) of §9.2: the share of random one-player layouts that a blind policy σ plays out. "
        "'greedy' is G1 of §10.6 without the loading classes: a foundation play whenever one exists "
        "(stock top, hand card, house tops), else the stock top onto a house, the hand card onto a "
        "house, a lone house card onto another house, the hand card to an empty house if two are "
        "empty, else discard. It sees only face-up cards and never uses memory. Because it always "
        "plays foundation moves first it plays the same game under both priorities (the rows for "
        "none and strict agree by construction). A game is lost when the policy has no action (no "
        "hand card and no move), or with k = ∞ when a whole turn through hand and waste brings "
        "nothing but discards (the position repeats, so G1 would cycle forever). Rates have 95% "
        "Wilson intervals; the thoughtful row is the solvability interval of the first section. "
        f"Paired on the same {int(paired.loc['solver won', 'n']):,} layouts (the solver's deals, seed and budget): of the {int(of_wins.n):,} deals the solver won, "
        f"greedy won {100 * of_wins.estimate:.1f}% [{100 * of_wins.ci_low:.1f}%, {100 * of_wins.ci_high:.1f}%], "
        f"and it won none the solver lost (as it must: a blind win is a winning line). The gap "
        "between blind and thoughtful play is large for G1: it never reorders the houses, so it "
        "cannot free the landing spots that thoughtful play builds, so it is a weak lower bound. "
        "'hindsight' measures what the face-down cards cost a strong player. In SOLO(∞, none) a blind "
        "player can turn the whole hand round for free, so he knows every card but the order of the "
        "face-down stock (§9.2), and the game is the open-pool game. At every position with a choice "
        f"the policy draws {samples} orders of the face-down stock cards, decides the position after "
        f"each candidate move in each order with the solver ({budget:,} nodes a search), and plays the "
        "move that wins in the most orders (hindsight optimisation, §10.6 policy 4); ties go to the "
        "position met least often in the game, then to the one furthest on. It resigns when no move "
        f"wins in any order, and a game that comes to the same position {core.HINDSIGHT_REPEATS} "
        "times is lost. On the "
        f"same {int(h_paired.loc['solver won', 'n']):,} layouts it won {100 * h_win.estimate:.1f}% "
        f"[{100 * h_win.ci_low:.1f}%, {100 * h_win.ci_high:.1f}%], {100 * h_of_wins.estimate:.1f}% of the "
        f"deals the solver won; the paired gap (solver won, hindsight lost) is {100 * h_gap.estimate:.1f}% "
        f"[{100 * h_gap.ci_low:.1f}%, {100 * h_gap.ci_high:.1f}%] of all deals. The policy is a lower bound "
        "for the best blind player: a sampled order lets the solver plan for stock cards the player "
        "cannot see yet (strategy fusion), so part of the gap is the policy's, not the information's.",
        tables=[("Blind win rates W_σ(k, π) beside thoughtful SOLO(∞, none)", rates),
                ("Blind SOLO games in detail", pd.concat(tables, ignore_index=True)),
                ("Paired: greedy's outcome on the layouts the solver decided", paired.reset_index()),
                ("Paired: hindsight's outcome on the layouts the solver decided", h_paired.reset_index())],
    )
    section.figures.append(("Blind win rates W_σ(k, π) with 95% intervals, and thoughtful SOLO(∞, none) "
                            "solvability with its §10.8 interval.", rate_bars(rates.assign(label=rates.pair), "label")))
    section.figures.append(("Cards left in stock, hand and waste when the game ends (0 = won), by variant.",
                            distribution_plot(left, "cards left at the end")))
    return section


# Report samples: self-play by seat, and duplicate comparisons (deals, each played twice). The
# planner is ~40 times slower than G1, so its samples are smaller; all of it is a few CPU-seconds.
REPORT_SELF_PLAY = (("greedy", 20_000), ("lookahead", 4_000), ("random", 2_000))
REPORT_DUPLICATE = (("lookahead", "greedy", 2_000), ("greedy", "random", 2_000), ("lookahead", "random", 1_000))


def duel_section(ctx):
    from ..compare import compare_table
    from ..report import Section, distribution_plot, rate_bars

    tables, lengths, bars, compared = [], {}, [], []
    for name, games in REPORT_SELF_PLAY:
        r = ctx.run("russian_bank", "duel", "default", games, strategies=dict(first=name, second=name))
        table = duel_table(r.counters, f"{name} vs {name}")
        tables.append(table)
        bars.append(table[table.event.isin(("first wins", "second wins", "draw"))])
        lengths[f"{name} self-play"] = r.counters["turns_hist"]
    for a, b, deals in REPORT_DUPLICATE:
        r = ctx.run("russian_bank", "compare", "default", deals, strategies=dict(a=a, b=b), shard_size=COMPARE_SHARD)
        table = duplicate_table(r.counters, a, b)
        tables.append(table)
        bars.append(table[table.event.isin((f"{a} (A) wins", f"{b} (B) wins", "draw"))])
        lengths[f"{a} vs {b} (duplicate)"] = r.counters["turns_hist"]
        compared.append((a, b, r.counters))
    duel = pd.concat(tables, ignore_index=True)
    points = compare_table(compared)
    section = Section(
        "Russian Bank: the duel with blind policies",
        "Two players with the default rules of §8 (strict foundation priority, loading on stock and "
        "waste, unlimited redeals, draw after 250 turns without progress). All policies are blind "
        "(they see only face-up cards): 'greedy' is the priority policy G1 of §10.6, 'lookahead' the "
        "turn planner (the best plan of up to three actions of its own turn, stopping at any action "
        "that turns up an unseen card, valued by the opponent's private cards minus its own, stock "
        "cards twice), 'random' a uniform legal action. Self-play rows (σ vs σ) give the rates by seat: "
        "'first' moves first (the higher stock top). Strategy comparisons are in duplicate format: "
        "every deal is played twice from the same start, the two strategies swapping packs and so "
        "seats; rates are per game, with 95% Wilson intervals; draws are reported, never folded into "
        "losses. The first-mover advantage W1−W2 has a normal interval. The points table is "
        "`kozyr compare`: per deal, A's points won minus B's (winner scores 30 + 2 × loser's stock + "
        "loser's hand and waste), paired over the two games of the deal.",
        tables=[("Duel outcomes by strategy pair", duel),
                (f"Duplicate comparison: points per deal, A − B ({points.attrs['interval']} intervals)", points)],
    )
    rates = pd.concat(bars, ignore_index=True)
    rates = rates.assign(label=rates.pair + ": " + rates.event)
    section.figures.append(("Win and draw rates by strategy pair with 95% intervals (self-play by seat; "
                            "duplicate comparisons by strategy).", rate_bars(rates, "label")))
    section.figures.append(("Game length: turns of the decided games, by strategy pair.",
                            distribution_plot(lengths, "turns (both players)")))
    return section


# ---------------------------------------------------------------------------------------------
# Command line: kozyr russian_bank solo | duel | play | solve

def register_cli(sub) -> None:
    from .. import cli

    solo = sub.add_parser("solo", help="SOLO(k, π) solvability of random layouts (§9-10)")
    cli.add_run_options(solo, "russian_bank", default_deals=1000)
    solo.set_defaults(handler=_cmd_solo)

    duel = sub.add_parser("duel", help="two-player games with named strategies "
                          "(--strategy first=greedy --strategy second=random)")
    cli.add_run_options(duel, "russian_bank", default_deals=100_000, analysis="duel")
    cli.add_strategy_option(duel, "russian_bank", "duel")
    duel.set_defaults(handler=_cmd_duel)

    blind = sub.add_parser("blind", help="SOLO(k, π) layouts played by a blind policy (--strategy player=greedy); "
                           "--paired also decides every layout with the solver")
    cli.add_run_options(blind, "russian_bank", default_deals=100_000)
    cli.add_strategy_option(blind, "russian_bank", "blind")
    blind.add_argument("--paired", action="store_true",
                       help="decide every layout with the SOLO solver too (node_budget, solo_model) and print "
                            "the blind outcome beside the thoughtful one (slow: the solver's speed)")
    blind.set_defaults(handler=_cmd_blind)

    play = sub.add_parser("play", help="play one game from a seed and print the transcript")
    play.add_argument("--seed", type=cli.seed, default=1)
    play.add_argument("--p0", default="greedy", choices=_STRATEGY_NAMES)
    play.add_argument("--p1", default="greedy", choices=_STRATEGY_NAMES)
    play.add_argument("--rules", default="default", choices=list(PRESETS))
    cli.add_set_option(play)
    play.set_defaults(handler=_cmd_play)

    solve = sub.add_parser("solve", help="decide SOLO(k, π) for one layout: a seed's deal, or piles of your own")
    solve.add_argument("--seed", type=cli.seed, default=1, help="deal the layout of this seed (without piles)")
    solve.add_argument("--k", nargs="+", default=["unlimited"],
                       help="redeal limit, or several (e.g. --k 0 1 2 unlimited); default unlimited")
    own = solve.add_argument_group("a layout of your own (piles bottom to top, as SoloPosition.from_piles)")
    own.add_argument("--stock", help='the stock, its top card last, e.g. "9H 2C KD"')
    own.add_argument("--house", action="append", metavar="CARDS",
                     help='one house, bottom to top (a descending run in alternating colours, "" for an '
                          'empty one); give it four times')
    own.add_argument("--hand", help="the hand; its last card is turned first")
    own.add_argument("--waste", help="the waste, the first discarded card first")
    own.add_argument("--foundations", help="cards home per suit, S H D C (default 0 0 0 0)")
    own.add_argument("--redeals-used", type=cli.bounded_int("--redeals-used", 0, 1000), default=0,
                     help="redeals already made (default 0)")
    own.add_argument("--partial", action="store_true",
                     help="a toy layout: the cards neither given nor home by --foundations are left out of "
                          "the game (by default every card must be somewhere)")
    solve.add_argument("--priority", default="none", choices=("none", "strict"),
                       help="foundation priority π: none (default) or strict (§6)")
    solve.add_argument("--budget", type=cli.bounded_int("the node budget", 1, _INTS["node_budget"][1]),
                       default=10_000_000,
                       help="node budget per search (default 1e7; the table grows as needed up to twice "
                            "the budget, 32 bytes a slot: up to 1 GB at 1e7)")
    solve.add_argument("--tempo", action="store_true", help="find D*, the fewest discards (or bounds on it)")
    solve.add_argument("--line", action="store_true",
                       help="print the winning line the search found (a line, not the shortest; not with --tempo)")
    solve.set_defaults(handler=_cmd_solve)


def _cmd_solo(args) -> int:
    return _run_and_print(args, "solo")


def _run_and_print(args, analysis: str) -> int:
    """Run the analysis, print its first summary table with the run's header, then the others."""
    from .. import cli

    result = cli.execute(args, "russian_bank", analysis)
    tables = cli.summary_tables(result)
    cli.emit_table(args, result, tables[0][1])
    if not args.json:
        for title, table in tables[1:]:
            print(f"\n{title}:")
            print(table.to_string(index=False))
    return 0 if result.complete else cli.EXIT_INTERRUPTED


def solo_summary(counters: dict, rules: dict, strategies: dict | None = None) -> list:
    """The solo analysis's tables: solvability, then the escalation ladder (or D* in tempo mode)."""
    tables = [("SOLO solvability", solvability_table(counters, _solo_label(rules)))]
    if rules["tempo"]:
        tables.append(("D* (fewest discards of a win): exact, or lower / upper bounds", tempo_table(counters)))
    else:
        # with the open-pool search first a deal's nodes add two searches, each with the budget
        title = "escalation ladder (the same deals with smaller budgets" + (
            ")" if ladder_is_exact(rules) else "; lower bounds: a deal counts both searches' nodes)")
        tables.append((title, ladder_table(counters, rules["node_budget"])))
    return tables


def _blind_label(rules: dict, strategies: dict) -> str:
    return f"{strategies['player']} {_solo_label(rules)}"


def blind_summary(counters: dict, rules: dict, strategies: dict) -> list:
    return [("blind play", blind_table(counters, _blind_label(rules, strategies)))]


def blind_paired_summary(counters: dict, rules: dict, strategies: dict) -> list:
    label = _blind_label(rules, strategies)
    return [("blind play", blind_table(counters, label)),
            (f"the same layouts decided by the solver (node budget {rules['node_budget']:,})",
             paired_table(counters, label))]


def duel_summary(counters: dict, rules: dict, strategies: dict) -> list:
    return [("duel", duel_table(counters, f"{strategies['first']} vs {strategies['second']}"))]


def _cmd_duel(args) -> int:
    return _run_and_print(args, "duel")


def _cmd_blind(args) -> int:
    return _run_and_print(args, "blind_paired" if args.paired else "blind")


def _k_text(k) -> str:
    return "∞" if k is None else str(k)


def _cmd_play(args) -> int:
    record = play_game(args.seed, (args.p0, args.p1), args.rules, **dict(args.overrides))
    print(record.transcript())
    return 0


def _cmd_solve(args) -> int:
    if args.line and args.tempo:
        raise ValueError("--line prints the line of a solvability search; the tempo search (--tempo) keeps none")
    limits = [validate_option("redeal_limit", k) for k in args.k]
    own_piles = (args.stock, args.house, args.hand, args.waste, args.foundations)
    if any(p is not None for p in own_piles) or args.redeals_used or args.partial:
        if not args.house or len(args.house) != SOLO_HOUSES:
            raise ValueError(f"a layout of your own needs --house {SOLO_HOUSES} times (\"\" for an empty "
                             f"house), got {len(args.house or [])}")
        pos = SoloPosition.from_piles(args.foundations or "0 0 0 0", args.stock or "", args.house,
                                      args.hand or "", args.waste or "", redeals=args.redeals_used,
                                      partial=args.partial)
        name = "layout"
    else:
        pos = SoloPosition.deal(args.seed)
        name = f"seed {args.seed}"
    for k in limits:   # before anything is printed
        if k is not None and pos.redeals > k:
            raise ValueError(f"the layout has used {pos.redeals} redeals, more than the limit k = {k}")
    print(pos.describe())
    for k in limits:
        result = pos.solve(k, args.priority, budget=args.budget, tempo=args.tempo, line=args.line)
        print(f"{name}: SOLO({'∞' if k is None else k}, {args.priority}) {result.outcome} "
              f"after {result.nodes:,} nodes ({result.model} model)"
              + (f", D* = {result.tempo}" if result.tempo is not None else "")
              + (f", D* in [{result.tempo_bounds[0]}, {result.tempo_bounds[1] if result.tempo_bounds[1] is not None else '∞'}]"
                 if result.tempo is None and result.tempo_bounds[0] is not None else ""))
        if result.line:
            print(f"  winning line ({len(result.line)} steps; hand = the card turned up, and in the open "
                  f"pool any hand or waste card, which unlimited redeals bring up):")
            print("\n".join(f"  {i:3d}. {step}" for i, step in enumerate(result.line, 1)))
        if result.line_discards is not None:
            print(f"  in the literal game, turning the hand to each pool card it uses, this line makes "
                  f"{result.line_discards} discard{'' if result.line_discards == 1 else 's'} "
                  f"(D* <= {result.line_discards}; --tempo for D*)")
    return 0
