"""Constrained deals: "given my hand, what are the odds?"

A constraint fixes cards for some seats (a whole hand, or only some of its cards) and may add a
predicate over the whole deal. The compiled dealer (``analyzer._core.core.deal_constrained``)
deals only the cards that are not fixed into the places that are free, so a fixed hand costs
nothing and no deal is rejected for it. The predicate is applied batch by batch: the dealer
fills a batch of deals, the predicate sees the batch as numpy arrays of per-seat card masks and
returns one boolean per deal, and the kernel of the analysis then plays the accepted deals. The
predicate is never called once per deal.

A constraint is a mapping, stored as part of a run's resolved config::

    {"elder": "AS KS QS JS TS AH", "where": "count(younger & aces) >= 2"}

- a seat name of the game's layout (piquet: elder, younger, talon; mariáš: actor, middle, rear)
  -> the cards fixed in that seat (the project's notation, e.g. ``"AS TD 7C"``; at most the
  seat's size);
- ``where`` -> the predicate: an expression in the small language below, or the import path
  ``package.module:function`` of a Python function, or ``python:NAME`` for a function given to
  ``analyzer.strategies.register(NAME, function)`` (threads only);
- game options (mariáš: ``trump``, the fixed trump suit).

The expression language (parsed with ``ast`` and evaluated on numpy arrays; no ``eval``):

- seat names stand for the cards the seat holds; ``aces`` ``kings`` ... ``sevens`` for all the
  cards of a rank, ``spades`` ``hearts`` ``diamonds`` ``clubs`` for a suit (mariáš with a fixed
  trump: ``trumps``); a quoted string for given cards, e.g. ``"AS KS"``;
- card sets combine with ``&`` (both), ``|`` (either), ``-`` (without), ``^`` and ``~`` (the
  cards of the pack not in the set); ``"AS KS" in younger`` is true when younger holds both;
- ``count(set)`` is the number of cards, ``longest(set)`` the length of its longest suit;
  numbers compare with ``== != < <= > >=`` (chains like ``2 <= count(x) <= 3`` work) and add
  and subtract; ``and``, ``or``, ``not`` combine conditions; a set alone means "not empty".

Examples: ``count(younger & aces) >= 2`` (younger holds at least two aces),
``"AS" in talon or longest(elder) >= 6``, ``count((middle | rear) & "KS QS") == 2 and not
"KS QS" in middle`` (the K and Q of spades are split between the defenders).

A Python predicate gets a dict seat -> uint32 numpy array (one card mask per deal, bit layout
of the game's :class:`~analyzer.cards.Deck`) and returns a boolean array of the same length::

    from analyzer.constrained import popcount, constants
    from analyzer.cards import PIQUET32

    ACES = constants(PIQUET32)["aces"]

    def younger_two_aces(hands):
        return popcount(hands["younger"] & ACES) >= 2

A run's deals are the accepted deals; the counters carry ``candidates``, the number of deals
dealt to find them, so the acceptance rate is ``deals / candidates``. A predicate that accepts
fewer than MIN_ACCEPTANCE of the deals (after CHECK_AFTER candidates of a shard) is an error:
fix the cards instead (they cost nothing). Results are reproducible like every run: shard ``i``
deals its candidates from its own stream 0, in batches of a fixed size, whatever the workers.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .cards import RANK_CHARS, SUIT_CHARS, SUIT_NAMES, Deck, check_disjoint
from .option_parsing import not_empty
from .strategies import PREFIX, factory

BATCH = 4096                 # candidate deals per predicate call
MIN_ACCEPTANCE = 1e-3
CHECK_AFTER = 100_000        # candidates of a shard before the acceptance rate is judged
MAX_EXPRESSION = 1000        # characters
FREE_SLOT = 255
WHERE = "where"

RANK_WORDS = dict(zip(RANK_CHARS, ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                                   "tens", "jacks", "queens", "kings", "aces")))


@dataclass(frozen=True)
class DealLayout:
    """Where a game's kernel reads each seat's cards in a shuffled pack.

    seats: seat name -> its slots (positions in the pack); ordered: the seats whose card order
    the kernel reads (their slots are shuffled again when they hold fixed cards); options:
    game-specific constraint keys -> a validator returning the canonical value; implied(masks,
    constraint): the game's own condition on a deal given the constraint (a boolean array), or
    None; kernel_options(constraint): extra keyword arguments of the kernel; validate(constraint):
    the game's own checks of a canonical constraint (ValueError); names(constraint): extra named
    card sets of the expression language (e.g. mariáš `trumps` when the trump is fixed)."""

    deck: Deck
    seats: Mapping[str, tuple[int, ...]]
    ordered: tuple[str, ...] = ()
    options: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    implied: Callable[[dict, dict], np.ndarray | None] | None = None
    kernel_options: Callable[[dict], dict] | None = None
    validate: Callable[[dict], None] | None = None
    names: Callable[[dict], dict[str, int]] | None = None

    @property
    def n_slots(self) -> int:
        return sum(len(s) for s in self.seats.values())


def popcount(masks: np.ndarray) -> np.ndarray:
    """Cards in each mask of an array (int64)."""
    return np.bitwise_count(np.asarray(masks, dtype=np.uint32)).astype(np.int64)


def constants(deck: Deck) -> dict[str, int]:
    """The named card sets of the expression language: ranks (aces, kings, ...) and suits."""
    lane_mask = (1 << len(deck.ranks)) - 1
    out = {}
    for i, rank in enumerate(deck.ranks):
        out[RANK_WORDS[rank]] = sum(1 << (deck.lane * s + i) for s in range(4))
    for s, suit in enumerate(SUIT_CHARS):
        out[SUIT_NAMES[suit]] = lane_mask << (deck.lane * s)
    return out


# ---------------------------------------------------------------------------------------------
# Validation

def _is_path(text: str) -> bool:
    return text.startswith(PREFIX) or re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", text) is not None


def resolve(layout: DealLayout | None, spec: Mapping[str, Any], what: str = "this analysis") -> dict[str, Any]:
    """The canonical form of a constraint (cards sorted as a player sorts a hand, options
    validated); ValueError naming the problem otherwise."""
    if layout is None:
        raise ValueError(f"{what} does not take constrained deals")
    if not isinstance(spec, Mapping):
        raise ValueError(f"a constraint is a mapping of seat -> cards (and 'where'), got {type(spec).__name__}")
    out: dict[str, Any] = {}
    parsed, names = [], []
    known = ", ".join([*layout.seats, WHERE, *layout.options])
    for key, value in spec.items():
        if key in layout.seats:
            size = len(layout.seats[key])
            cards = layout.deck.parse(value, what=f"{key} cards")
            if len(cards) > size:
                raise ValueError(f"{len(cards)} cards fixed for {key}, who holds only {size}")
            parsed.append(cards)
            names.append(key)
            if cards:
                out[key] = layout.deck.format(layout.deck.mask(cards))
        elif key == WHERE:
            if value is None or value == "":
                continue
            out[WHERE] = _where_text(value)
        elif key in layout.options:
            if value is not None:
                out[key] = layout.options[key](value)
        else:
            raise ValueError(f"unknown constraint key {key!r}; known: {known}")
    check_disjoint(parsed, names)
    compile_where(out.get(WHERE), layout, out)         # fail now, not in a worker
    if layout.validate is not None:
        layout.validate(out)
    return out


def _where_text(value: Any) -> str:
    if callable(value):
        path = f"{getattr(value, '__module__', '')}:{getattr(value, '__qualname__', '')}"
        try:
            same = factory(path)() is value
        except ValueError:
            same = False
        if not same or "<" in path:
            raise ValueError("a predicate given as a function must be importable (package.module:function); "
                             "otherwise register it with analyzer.strategies.register(NAME, function) "
                             "and pass 'python:NAME'")
        return path
    if not isinstance(value, str):
        raise ValueError(f"'where' must be an expression, an import path or a function, got {type(value).__name__}")
    return value.strip()


# ---------------------------------------------------------------------------------------------
# The expression language

_COMPARE = {ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
            ast.Gt: np.greater, ast.GtE: np.greater_equal}
_SET_OPS = {ast.BitAnd: np.bitwise_and, ast.BitOr: np.bitwise_or, ast.BitXor: np.bitwise_xor}


class _Expression:
    """A parsed --where expression; calling it on a dict of seat masks gives the boolean mask."""

    def __init__(self, text: str, layout: DealLayout, constraint: Mapping[str, Any]):
        if len(text) > MAX_EXPRESSION:
            raise ValueError(f"the 'where' expression is longer than {MAX_EXPRESSION} characters")
        try:
            self.tree = ast.parse(text, mode="eval").body
        except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
            raise ValueError(f"cannot parse the 'where' expression {text!r}: {getattr(exc, 'msg', exc)}") from None
        self.text = text
        self.deck = layout.deck
        self.full = layout.deck.full_mask
        self.names = constants(layout.deck)
        if layout.names is not None:
            self.names.update(layout.names(dict(constraint)))
        self.seats = tuple(layout.seats)
        probe = {s: np.zeros(1, np.uint32) for s in self.seats}
        try:
            kind, _ = self._eval(self.tree, probe)      # type-checks the whole tree once
        except RecursionError:
            raise ValueError("the 'where' expression is nested too deeply") from None
        if kind == "num":
            raise ValueError(f"the 'where' expression {text!r} is a number, not a condition (compare it: ... >= 2)")

    def __call__(self, hands: Mapping[str, np.ndarray]) -> np.ndarray:
        # a condition that reads no hand (1 == 1) holds or fails for every deal alike
        return np.broadcast_to(self._truth(*self._eval(self.tree, hands)), hands[self.seats[0]].shape)

    def _fail(self, node, message):
        raise ValueError(f"'where' {self.text!r}: {message} (at {ast.unparse(node)!r})")

    @staticmethod
    def _truth(kind, value):
        return np.asarray(value != 0) if kind != "bool" else np.asarray(value)

    def _expect(self, node, hands, kind):
        got, value = self._eval(node, hands)
        if got != kind:
            self._fail(node, f"expected a {'card set' if kind == 'set' else 'number'}, got a "
                             f"{ {'set': 'card set', 'num': 'number', 'bool': 'condition'}[got]}")
        return value

    def _eval(self, node, hands):
        """(kind, value): kind 'set' (uint32 masks), 'num' (int64) or 'bool'."""
        if isinstance(node, ast.Name):
            if node.id in self.seats:
                return "set", np.asarray(hands[node.id], dtype=np.uint32)
            if node.id in self.names:
                return "set", np.uint32(self.names[node.id])
            self._fail(node, f"unknown name {node.id!r}; seats: {', '.join(self.seats)}; sets: "
                             f"{', '.join(self.names)}; write cards in quotes, e.g. \"AS KS\"")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, str)):
                self._fail(node, "only whole numbers and quoted cards are allowed")
            if isinstance(node.value, str):
                return "set", np.uint32(self.deck.mask(node.value, what="'where' cards"))
            if not -2 ** 63 <= node.value < 2 ** 63:
                self._fail(node, f"the number {node.value} is out of range")
            return "num", np.int64(node.value)
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in ("count", "longest") \
                    or len(node.args) != 1 or node.keywords:
                self._fail(node, "the only functions are count(set) and longest(set)")
            cards = self._expect(node.args[0], hands, "set")
            if node.func.id == "count":
                return "num", popcount(cards)
            lane_mask = (1 << len(self.deck.ranks)) - 1
            lengths = [popcount(np.right_shift(cards, self.deck.lane * s) & np.uint32(lane_mask)) for s in range(4)]
            return "num", np.maximum.reduce(lengths)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return "bool", ~self._truth(*self._eval(node.operand, hands))
            if isinstance(node.op, ast.Invert):
                return "set", np.uint32(self.full) & ~self._expect(node.operand, hands, "set")
            if isinstance(node.op, ast.USub):
                return "num", -self._expect(node.operand, hands, "num")
            self._fail(node, "unsupported operator")
        if isinstance(node, ast.BoolOp):
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            result = self._truth(*self._eval(node.values[0], hands))
            for value in node.values[1:]:       # pairwise: a part may be a constant (count("AS") == 1)
                result = combine(result, self._truth(*self._eval(value, hands)))
            return "bool", result
        if isinstance(node, ast.BinOp):
            left_kind, left = self._eval(node.left, hands)
            if type(node.op) in _SET_OPS or (left_kind == "set" and isinstance(node.op, ast.Sub)):
                right = self._expect(node.right, hands, "set")
                if left_kind != "set":
                    self._fail(node, "&, |, ^ combine card sets")
                if isinstance(node.op, ast.Sub):
                    return "set", left & ~right
                return "set", _SET_OPS[type(node.op)](left, right)
            if isinstance(node.op, (ast.Add, ast.Sub)) and left_kind == "num":
                right = self._expect(node.right, hands, "num")
                return "num", left + right if isinstance(node.op, ast.Add) else left - right
            self._fail(node, "unsupported operator (card sets: & | - ^ ~; numbers: + -)")
        if isinstance(node, ast.Compare):
            result, left_node = None, node.left
            for op, right_node in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    sub = self._expect(left_node, hands, "set")
                    sup = self._expect(right_node, hands, "set")
                    part = (sub & ~sup) == 0
                    part = ~part if isinstance(op, ast.NotIn) else part
                elif type(op) in _COMPARE:
                    kind, left = self._eval(left_node, hands)
                    if kind == "bool" or (kind == "set" and type(op) not in (ast.Eq, ast.NotEq)):
                        self._fail(node, "compare numbers, or card sets with == and !=")
                    part = _COMPARE[type(op)](left, self._expect(right_node, hands, kind))
                else:
                    self._fail(node, "unsupported comparison")
                result = part if result is None else result & part
                left_node = right_node
            return "bool", result
        self._fail(node, "not allowed here")


def compile_where(text: str | None, layout: DealLayout, constraint: Mapping[str, Any] | None = None
                  ) -> Callable[[dict], np.ndarray] | None:
    """The predicate of a constraint's 'where' text (expression, import path or python:NAME)."""
    if not text:
        return None
    if _is_path(text):
        predicate = factory(text, "--where predicate", "function")()   # a function, or an instance of a callable class
        if not callable(predicate):
            raise ValueError(f"predicate {text!r} is not callable")
        return predicate
    return _Expression(text, layout, constraint or {})


# ---------------------------------------------------------------------------------------------
# Sampling

class Sampler:
    """Deals the constrained deals of one shard: fixed cards in place, the rest dealt, the
    predicate applied batch by batch."""

    def __init__(self, layout: DealLayout, constraint: Mapping[str, Any]):
        self.layout = layout
        self.constraint = dict(constraint)
        deck = layout.deck
        template = np.full(layout.n_slots, FREE_SLOT, np.uint8)
        fixed_bits: set[int] = set()
        mix: list[tuple[int, ...]] = []
        for seat, slots in layout.seats.items():
            bits = [deck.bit(c) for c in deck.parse(self.constraint.get(seat, ""))]
            template[list(slots[:len(bits)])] = bits
            fixed_bits.update(bits)
            if bits and seat in layout.ordered:
                mix.append(slots)
        self.template = template
        self.free = np.array([b for b in _deck_bits(deck) if b not in fixed_bits], np.uint8)
        self.mix_slots = np.array([s for group in mix for s in group], np.uint8)
        self.mix_len = np.array([len(group) for group in mix], np.int32)
        self.predicate = compile_where(self.constraint.get(WHERE), layout, self.constraint)

    def masks(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """Each seat's cards in every deal (uint32 masks)."""
        one = np.uint32(1)
        return {seat: np.bitwise_or.reduce(np.left_shift(one, rows[:, list(slots)].astype(np.uint32)), axis=1)
                for seat, slots in self.layout.seats.items()}

    def accept(self, rows: np.ndarray) -> np.ndarray | None:
        """The deals of a batch that satisfy the predicate and the game's own condition (None:
        no condition)."""
        if self.predicate is None and self.layout.implied is None:
            return None
        masks = self.masks(rows)
        ok = np.ones(len(rows), bool)
        if self.layout.implied is not None:
            implied = self.layout.implied(masks, self.constraint)
            if implied is not None:
                ok &= implied
        if self.predicate is not None:
            try:
                answer = self.predicate(dict(masks))
            except ValueError:
                raise
            except Exception as exc:
                raise ValueError(f"the predicate {self.constraint[WHERE]!r} failed: {exc!r}") from exc
            answer = np.asarray(answer)
            if answer.shape != (len(rows),) or answer.dtype != bool:
                raise ValueError(f"the predicate {self.constraint[WHERE]!r} must return one bool per deal "
                                 f"(shape ({len(rows)},)), got dtype {answer.dtype} shape {answer.shape}")
            ok &= answer
        return ok

    def deal(self, bit_generator, n_deals: int) -> tuple[np.ndarray, int]:
        """(rows, candidates): n_deals accepted deals (uint8, one shuffled pack per row) and the
        number of deals dealt to find them."""
        from ._core import core

        free = self.free.copy()               # reshuffled in place from batch to batch

        def batch(n):
            return core.deal_constrained(bit_generator, n, self.template, free, self.mix_slots, self.mix_len)

        if self.predicate is None and self.layout.implied is None:
            return batch(n_deals), n_deals
        out = np.empty((n_deals, self.layout.n_slots), np.uint8)
        got = candidates = 0
        while got < n_deals:
            rows = batch(BATCH)
            taken = np.flatnonzero(self.accept(rows))[:n_deals - got]
            out[got:got + len(taken)] = rows[taken]
            got += len(taken)
            candidates += int(taken[-1]) + 1 if got == n_deals else BATCH
            if got < n_deals and candidates >= CHECK_AFTER and got < MIN_ACCEPTANCE * candidates:
                raise ValueError(f"the constraint accepts almost no deals: {got} of {candidates:,} "
                                 f"(under {MIN_ACCEPTANCE:.1%}); fix the cards in the seats instead of "
                                 f"asking for them in 'where', or loosen the condition")
        return out, candidates


def _deck_bits(deck: Deck) -> list[int]:
    return [deck.bit(c) for c in deck.cards]


def run_shard(analysis, bit_generators, n_deals: int, rules: dict, strategies: dict | None,
              constraint: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """One shard of a constrained run: deal the accepted deals from stream 0, then let the
    analysis' kernel play them. Adds the counter ``candidates``."""
    layout = analysis.deal_layout
    rows, candidates = Sampler(layout, constraint).deal(bit_generators[0], n_deals)
    extra = layout.kernel_options(dict(constraint)) if layout.kernel_options else {}
    args = (bit_generators, n_deals, rules) + ((strategies,) if analysis.strategies else ())
    counters = analysis.kernel(*args, given=rows, **extra)
    counters["candidates"] = np.array([candidates], np.int64)
    return counters


def acceptance(counters: Mapping[str, np.ndarray]) -> tuple[int, int]:
    """(accepted deals, candidate deals) of a constrained run's merged counters."""
    return int(counters["deals"][0]), int(counters["candidates"][0])


# ---------------------------------------------------------------------------------------------
# Command line

NO_EMPTY_CONSTRAINT = not_empty("leave the option out for no constraint")


def add_cli_options(parser, layout: DealLayout) -> None:
    """--SEAT CARDS for each seat of the layout, and --where EXPR (the game adds its options)."""
    group = parser.add_argument_group("constrained deals (given cards; see analyzer/constrained.py)")
    for seat, slots in layout.seats.items():
        group.add_argument(f"--{seat}", dest=f"fix_{seat}", type=NO_EMPTY_CONSTRAINT, metavar="CARDS", default=None,
                           help=f"cards fixed in {seat}'s {len(slots)} (all or some), e.g. \"AS KS 7D\"")
    last_seat = list(layout.seats)[-1]
    group.add_argument("--where", type=NO_EMPTY_CONSTRAINT, default=None, metavar="EXPR",
                       help=f"keep only the deals where EXPR holds, e.g. \"count({last_seat} & aces) >= 2\"; "
                            "or package.module:function (a vectorised predicate)")


def from_args(args, layout: DealLayout | None) -> dict[str, Any]:
    """The constraint given on the command line (empty if none)."""
    if layout is None:
        return {}
    spec = {seat: getattr(args, f"fix_{seat}", None) for seat in layout.seats}
    spec[WHERE] = getattr(args, "where", None)
    spec.update({key: getattr(args, key, None) for key in layout.options})
    return {k: v for k, v in spec.items() if v is not None}


def describe(result) -> str:
    """One line on a constrained run: the constraint and the acceptance rate ("" if none)."""
    constraint = result.config.resolved().get("constraint")
    if not constraint:
        return ""
    accepted, candidates = acceptance(result.counters)
    given = "; ".join(f"{k} {v}" for k, v in constraint.items())
    rate = accepted / candidates if candidates else float("nan")
    return f"# given: {given}; {accepted:,} deals accepted of {candidates:,} dealt (acceptance {rate:.4g})"
