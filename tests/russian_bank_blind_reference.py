"""A slow, readable reference of blind play in the SOLO game of Russian Bank
(shared/rules/russian_bank.md §9.2, the G1 policy of §10.6 without loading), written apart from
csrc/russian_bank/rb_blind.pxd for the game-by-game cross-check.

It works differently from the kernel on purpose: it lists every legal action of §4 (no loading)
with the §6 priority filter, lets G1 pick from the list by its class keys, and detects the cycle
of k = ∞ by remembering the positions seen since the last card move (the position repeats)
instead of counting discards.

Kinds are 13*suit + rank (suits S H D C, rank 0 = ace); actions use the kernel's codes:
src*8 + dst with sources 0 stock, 1 hand card, 2+h house h and destinations 0 foundation,
1+h house h; DISCARD = 64.
"""
from __future__ import annotations

from russian_bank_reference import is_red, rank, suit

STOCK, HAND, HOUSE = 0, 1, 2
FOUNDATION = 0
DISCARD = 64


class SoloGame:
    """One SOLO position: piles bottom -> top, foundations as heights per suit."""

    def __init__(self, stock, houses, hand, waste=(), foundations=(0, 0, 0, 0), k=None, strict=False):
        self.stock = list(stock)
        self.houses = [list(h) for h in houses]
        self.hand = list(hand)
        self.waste = list(waste)
        self.found = list(foundations)
        self.k = k
        self.strict = strict
        self.redeals = 0
        self.actions = 0
        self.end = None

    @classmethod
    def deal(cls, pack, k=None, strict=False):
        """§2 for one player: stock d[12]..d[0] (top d[0]), houses d[13..16], hand d[51]..d[17]."""
        return cls(stock=pack[12::-1], houses=[[c] for c in pack[13:17]], hand=pack[:16:-1], k=k, strict=strict)

    def cards_left(self):
        return len(self.stock) + len(self.hand) + len(self.waste)

    def sources(self):
        """(source, card) of the face-up cards a move can take: stock top, hand card, house tops."""
        out = []
        if self.stock:
            out.append((STOCK, self.stock[-1]))
        if self.hand:
            out.append((HAND, self.hand[-1]))
        for h, house in enumerate(self.houses):
            if house:
                out.append((HOUSE + h, house[-1]))
        return out

    def legal_actions(self):
        moves = []
        for src, card in self.sources():
            if self.found[suit(card)] == rank(card):
                moves.append(src * 8 + FOUNDATION)
            for h, house in enumerate(self.houses):
                if src == HOUSE + h:
                    continue
                if not house or (rank(card) == rank(house[-1]) - 1 and is_red(card) != is_red(house[-1])):
                    moves.append(src * 8 + 1 + h)
        home = [m for m in moves if m % 8 == FOUNDATION]
        if self.strict and home:
            return home
        return moves + ([DISCARD] if self.hand else [])

    def greedy(self, actions):
        """G1 (§10.6) over a list of legal actions; None when nothing applies and no hand card."""
        empty = [h for h, house in enumerate(self.houses) if not house]
        best, best_key = None, None
        for a in actions:
            if a == DISCARD:
                continue
            src, dst = a // 8, a % 8
            if dst == FOUNDATION:
                key = (0, src)                       # stock, hand, then houses by index
            else:
                h = dst - 1
                if not self.houses[h] and h != empty[0]:
                    continue                         # only the first empty house is offered
                if src == STOCK:
                    cls = 2
                elif src == HAND:
                    cls = 4 if self.houses[h] else (6 if len(empty) >= 2 else None)
                else:
                    cls = 5 if len(self.houses[src - HOUSE]) == 1 and self.houses[h] else None
                if cls is None:
                    continue
                key = (cls, h, src)
            if best_key is None or key < best_key:
                best, best_key = a, key
        if best is not None:
            return best
        return DISCARD if DISCARD in actions else None

    def _refill(self):
        if not self.hand and self.waste and (self.k is None or self.redeals < self.k):
            self.hand = self.waste[::-1]             # the first discard is the new top
            self.waste = []
            self.redeals += 1

    def apply(self, a):
        assert a in self.legal_actions(), f"illegal action {a}"
        self.actions += 1
        if a == DISCARD:
            self.waste.append(self.hand.pop())
            self._refill()
            return
        src, dst = a // 8, a % 8
        card = self.stock.pop() if src == STOCK else (self.hand.pop() if src == HAND else self.houses[src - HOUSE].pop())
        if dst == FOUNDATION:
            assert self.found[suit(card)] == rank(card)
            self.found[suit(card)] += 1
        else:
            self.houses[dst - 1].append(card)
        if src == HAND:
            self._refill()

    def play(self):
        """Play G1 to the end: 'win', 'stuck' (no action) or 'cycle' (k = ∞ and the position came
        back after discards only). Returns the list of actions played."""
        played, seen = [], set()
        while True:
            if not self.stock and not self.hand and not self.waste:
                self.end = "win"
                return played
            a = self.greedy(self.legal_actions())
            if a is None:
                self.end = "stuck"
                return played
            if a != DISCARD:
                seen = set()
            elif not seen:
                seen.add(self._key())
            self.apply(a)
            played.append(a)
            if a == DISCARD and self.k is None:
                key = self._key()
                if key in seen:
                    self.end = "cycle"
                    return played
                seen.add(key)

    def _key(self):
        """The position apart from the redeal count (which does not matter when k = ∞)."""
        return (tuple(self.stock), tuple(map(tuple, self.houses)), tuple(self.hand), tuple(self.waste),
                tuple(self.found))
