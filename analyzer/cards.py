"""One card notation for every game, and conversions between card strings and bitboard masks.

A card is written as a rank character followed by a suit character: ranks ``2..9 T J Q K A``,
suits ``S H D C`` (spades, hearts, diamonds, clubs), e.g. ``"AS TD 7C"``. Parsing accepts lower
case and separators (spaces, commas); it rejects anything else with a ``ValueError`` that names
the offending token.

Each game has a :class:`Deck`: the ranks it uses, listed in the game's strength order from low to
high, and the width of a suit lane in its masks (8 bits for 32-card packs, 16 for 40/52-card
packs). Bit ``lane * suit + position_of_rank`` stands for a card, so a higher card of a suit is a
higher bit — the layout the compiled kernels use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence, Union

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

Cards = Union[str, Iterable[str]]
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class Deck:
    """A pack: its ranks from lowest to highest in the game's order, and its mask layout."""

    name: str
    ranks: str
    lane: int

    def __post_init__(self):
        if len(set(self.ranks)) != len(self.ranks) or not set(self.ranks) <= set(RANK_CHARS):
            raise ValueError(f"deck {self.name}: bad rank list {self.ranks!r}")
        if len(self.ranks) > self.lane:
            raise ValueError(f"deck {self.name}: {len(self.ranks)} ranks do not fit a {self.lane}-bit lane")

    @property
    def size(self) -> int:
        return 4 * len(self.ranks)

    @property
    def cards(self) -> list[str]:
        """All cards of the pack, suit by suit, low to high."""
        return [r + s for s in SUIT_CHARS for r in self.ranks]

    @property
    def full_mask(self) -> int:
        lane_mask = (1 << len(self.ranks)) - 1
        return sum(lane_mask << (self.lane * s) for s in range(4))

    def bit(self, card: str) -> int:
        """Bit index of a card of this deck (the card must already be valid notation)."""
        rank, suit = card[0], card[1]
        if rank not in self.ranks:
            raise ValueError(f"card {card!r} is not in the {self.name} pack (ranks {' '.join(self.ranks)})")
        return self.lane * SUIT_CHARS.index(suit) + self.ranks.index(rank)

    def card(self, bit: int) -> str:
        suit, pos = divmod(bit, self.lane)
        if not 0 <= suit < 4 or pos >= len(self.ranks):
            raise ValueError(f"bit {bit} is not a card of the {self.name} pack")
        return self.ranks[pos] + SUIT_CHARS[suit]

    def parse(self, cards: Cards, size: int | None = None, what: str = "hand") -> list[str]:
        """Parse cards into a list of canonical card strings, checking notation, membership in
        this pack, duplicates and (if given) the number of cards."""
        tokens = tokenize(cards)
        out, seen = [], set()
        for token in tokens:
            card = parse_card(token)
            self.bit(card)  # raises if the rank is not in this pack
            if card in seen:
                raise ValueError(f"duplicate card {card!r} in the {what}")
            seen.add(card)
            out.append(card)
        if size is not None and len(out) != size:
            raise ValueError(f"the {what} has {len(out)} cards, expected {size}")
        return out

    def mask(self, cards: Cards, size: int | None = None, what: str = "hand") -> int:
        """Mask of parsed cards (see :meth:`parse`)."""
        m = 0
        for card in self.parse(cards, size, what):
            m |= 1 << self.bit(card)
        return m

    def from_mask(self, mask: int) -> list[str]:
        """Cards of a mask, suit by suit, high to low, as a player sorts his hand."""
        mask = int(mask)
        if mask < 0 or mask & ~self.full_mask:
            raise ValueError(f"mask {mask:#x} has bits outside the {self.name} pack")
        return [self.card(b) for b in sorted(_bits(mask), key=lambda b: (b // self.lane, -b))]

    def format(self, mask: int) -> str:
        return " ".join(self.from_mask(mask))


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def longest_run(suit_mask: int, width: int = 8) -> int:
    """The longest run of consecutive set bits among the low `width` bits of a suit mask (the
    longest sequence of a suit when bit i is the i-th rank in sequence order)."""
    best = run = 0
    for bit in range(width):
        run = run + 1 if suit_mask >> bit & 1 else 0
        best = max(best, run)
    return best


def tokenize(cards: Cards) -> list[str]:
    """Split a card string on spaces/commas, or check a list of card strings."""
    if isinstance(cards, str):
        return [t for t in _SEPARATORS.split(cards.strip()) if t]
    if isinstance(cards, (bytes, bytearray)):
        raise ValueError("cards must be text or a list of card strings, not bytes")
    try:
        tokens = list(cards)
    except TypeError:
        raise ValueError(f"cards must be text or a list of card strings, not {type(cards).__name__}") from None
    for t in tokens:
        if not isinstance(t, str):
            raise ValueError(f"card {t!r} is not a string")
    return [t.strip() for t in tokens]


def parse_card(token: str) -> str:
    """Canonical form of one card token (``"as"`` -> ``"AS"``; ``"10h"`` -> ``"TH"``)."""
    if not isinstance(token, str):
        raise ValueError(f"card {token!r} is not a string")
    t = token.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError(f"malformed card {token!r}: expected a rank of {RANK_CHARS} and a suit of {SUIT_CHARS}, e.g. 'AS'")
    return t


def check_disjoint(hands: Sequence[Sequence[str]], names: Sequence[str]) -> None:
    """Raise if a card appears in two of the given parsed hands."""
    owner: dict[str, str] = {}
    for hand, name in zip(hands, names):
        for card in hand:
            if card in owner:
                raise ValueError(f"card {card!r} is given twice: in {owner[card]} and in {name}")
            owner[card] = name


PIQUET32 = Deck("32-card piquet", "789TJQKA", 8)
FULL52 = Deck("52-card", "23456789TJQKA", 16)
MARIAS32 = Deck("32-card mariáš", "789JQKTA", 8)
SEMERIK40 = Deck("40-card semerik", "4567JQKA23", 16)
