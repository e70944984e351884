"""A slow, readable Ved'ma engine written straight from shared/rules/vedma.md, with card strings and
Python lists, to cross-check the compiled kernel deal by deal.

It draws its random numbers from the same numpy bit generator as the kernel and spends them the
same way (rng.pxd: 32-bit halves of each 64-bit output, low half first; Lemire's bounded draw;
Fisher-Yates over the pack kept from deal to deal), so the same seed gives the same deals and the
same draws; everything else (dealing, pairing, turn order, the end) is implemented here anew.
"""

SUITS = "SHDC"
RANKS = {32: "789TJQKA", 52: "23456789TJQKA"}
WITCH = "QS"


class Random:
    """The random stream of rng.pxd over a numpy BitGenerator."""

    def __init__(self, bit_generator):
        self.bg = bit_generator
        self.spare = None

    def next32(self):
        if self.spare is not None:
            out, self.spare = self.spare, None
            return out
        x = int(self.bg.random_raw())
        self.spare = x >> 32
        return x & 0xFFFFFFFF

    def below(self, n):
        product = self.next32() * n
        low = product & 0xFFFFFFFF
        if low < n:
            threshold = (2**32 - n) % n
            while low < threshold:
                product = self.next32() * n
                low = product & 0xFFFFFFFF
        return product >> 32


def card_order(card):
    """Order of the cards in a hand as the kernel counts them: suit by suit, low rank first."""
    return SUITS.index(card[1]), "23456789TJQKA".index(card[0])


def discard_pairs(hand):
    """Discard all pairs: per rank (QS excluded) an even count goes, an odd count leaves the card
    of the last suit in S H D C order."""
    kept = [c for c in hand if c == WITCH]
    by_rank = {}
    for c in hand:
        if c != WITCH:
            by_rank.setdefault(c[0], []).append(c)
    for cards in by_rank.values():
        if len(cards) % 2:
            kept.append(max(cards, key=lambda c: SUITS.index(c[1])))
    return sorted(kept, key=card_order)


class Engine:
    def __init__(self, players, deck, order, bit_generator):
        self.players, self.deck, self.order = players, deck, order
        self.pack = [r + s for s in SUITS for r in RANKS[deck]]
        self.random = Random(bit_generator)

    def deal(self):
        """Shuffle the pack (in place, kept for the next deal) and deal one card at a time
        clockwise from seat 0."""
        n_cards = len(self.pack)
        for i in range(n_cards - 1):
            j = i + self.random.below(n_cards - i)
            self.pack[i], self.pack[j] = self.pack[j], self.pack[i]
        hands = [[] for _ in range(self.players)]
        for i, card in enumerate(self.pack):
            hands[i % self.players].append(card)
        return [sorted(h, key=card_order) for h in hands]

    def play(self, hands):
        """Play a deal; returns (loser, number of draws, hands when play starts)."""
        n = self.players
        hands = [list(h) for h in hands]
        if self.order == "standard":
            hands = [discard_pairs(h) for h in hands]
        at_start = [list(h) for h in hands]
        seat = 0
        while not hands[seat]:
            seat += 1
        draws = 0
        while sum(1 for h in hands if h) > 1:
            victim = (seat - 1) % n
            while not hands[victim]:
                victim = (victim - 1) % n
            victim_cards = sorted(hands[victim], key=card_order)
            card = victim_cards[self.random.below(len(victim_cards))]
            hands[victim].remove(card)
            hands[seat] = discard_pairs(hands[seat] + [card])
            draws += 1
            if sum(1 for h in hands if h) > 1:
                seat = (seat + 1) % n
                while not hands[seat]:
                    seat = (seat + 1) % n
        loser = next(p for p in range(n) if hands[p])
        assert WITCH in hands[loser]
        return loser, draws, at_start
