"""The built-in `heuristic` mariáš card play, rewritten as a user would in Python against the
documented protocol (analyzer.games.marias.MariasPlayer); tests check it plays exactly like the
compiled one. Ties between equal cards go as in the kernel: by suit in the order S H D C."""
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in "789JQKTA"]


class HeuristicPlayer:
    low_cards = False

    # -- the forehand's talon (the built-in discard `heuristic`; `low_cards` in the subclass below):
    # never trumps or a hlas if avoidable, nor the guard of an unguarded T
    def choose_discard(self, view):
        order, hand = "789JQKTA", set(view.hand)

        def key(card):
            rank, suit = order.index(card[0]), card[1]
            length = sum(c[1] == suit for c in view.hand)
            k = rank * 10 + length if self.low_cards else length * 10 + rank
            k += 1000 if suit == view.trump else 0
            k += 500 if card[0] in "KQ" and {"K" + suit, "Q" + suit} <= hand else 0
            k += 50 if "T" + suit in hand and "A" + suit not in hand else 0
            return k, SUITS.index(suit), rank
        return sorted(view.allowed, key=key)[:2]

    def choose_card(self, view):
        self.order = view.order
        if view.trump is None:
            return self._betl(view)
        return self._suit(view)

    # -- card orders (the kernel's bit order: suit first, then rank in the contract's order)
    def rank(self, card):
        return self.order.index(card[0])

    def lowest_bit(self, cards):
        return min(cards, key=lambda c: (SUITS.index(c[1]), self.rank(c)))

    def lowest_rank(self, cards):
        return min(cards, key=lambda c: (self.rank(c), SUITS.index(c[1])))

    def highest_rank(self, cards):
        return min(cards, key=lambda c: (-self.rank(c), SUITS.index(c[1])))

    def beats(self, card, best, trump):
        if card[1] == best[1]:
            return self.rank(card) > self.rank(best)
        return card[1] == trump

    def winning(self, trick, trump):
        seat, best = trick[0]
        for s, c in trick[1:]:
            if self.beats(c, best, trump):
                seat, best = s, c
        return seat, best

    def cheapest(self, legal, trump):
        for keep in (lambda c: c[0] not in "AT" and c[1] != trump, lambda c: c[0] not in "AT",
                     lambda c: c[1] != trump):
            cards = [c for c in legal if keep(c)]
            if cards:
                return self.lowest_rank(cards)
        return self.lowest_rank(legal)

    def smear(self, legal, trump):
        side = [c for c in legal if c[1] != trump]
        for rank in "TA":
            cards = [c for c in side if c[0] == rank]
            if cards:
                return self.lowest_bit(cards)
        return self.cheapest(legal, trump)

    def is_boss(self, card, out):
        return not any(c[1] == card[1] and self.rank(c) > self.rank(card) for c in out)

    # -- suit games: draw trumps, cash aces and masters, win cheaply, smear on the own side's trick
    def _suit(self, view):
        trump, legal, me = view.trump, list(view.legal), view.seat
        seen = set(view.hand) | {c for t in view.tricks for _, c in t} | {c for _, c in view.trick} | set(view.talon)
        out = [c for c in ALL if c not in seen]
        my_side = me == view.actor
        if not view.trick:
            trumps = [c for c in legal if c[1] == trump]
            out_trumps = [c for c in out if c[1] == trump]
            if my_side and trumps and out_trumps and self.rank(max(trumps, key=self.rank)) > self.rank(
                    max(out_trumps, key=self.rank)):
                return max(trumps, key=self.rank)
            aces = [c for c in legal if c[0] == "A" and c[1] != trump]
            if aces:
                return self.lowest_bit(aces)
            boss = [c for c in legal if c[1] != trump and self.is_boss(c, out) and any(o[1] == c[1] for o in out)]
            if boss:
                return self.highest_rank(boss)
            return self.cheapest(legal, trump)
        win_seat, win_card = self.winning(view.trick, trump)
        winners = [c for c in legal if self.beats(c, win_card, trump)]
        own_side_wins = (win_seat == view.actor) == my_side
        if len(view.trick) == 2:
            if own_side_wins:
                return self.smear(legal, trump)
            if winners:
                points = [c for c in winners if c[0] in "AT"]
                return self.highest_rank(points) if points else self.lowest_rank(winners)
            return self.cheapest(legal, trump)
        if own_side_wins:
            safe = self.is_boss(win_card, out) and (win_card[1] == trump or not any(c[1] == trump for c in out))
            return self.smear(legal, trump) if safe else self.cheapest(legal, trump)
        if winners:
            boss = [c for c in winners if self.is_boss(c, out)]
            return self.lowest_rank(boss or winners)
        return self.cheapest(legal, trump)

    # -- Malý / Veľký: the actor ducks (Malý) or wins (Veľký) with his highest card; the defenders
    # duck under the winner in Malý and win as cheaply as they can in Veľký
    def _betl(self, view):
        legal = list(view.legal)
        velky = view.contract == "velky"
        actor = view.seat == view.actor
        if not view.trick:
            return self.highest_rank(legal) if velky and actor else self.lowest_rank(legal)
        _, win_card = self.winning(view.trick, None)
        winners = [c for c in legal if self.beats(c, win_card, None)]
        under = [c for c in legal if c not in winners]
        if actor:
            if not velky:
                return self.highest_rank(under) if under else self.lowest_rank(legal)
            return self.highest_rank(legal)
        if not velky:
            return self.lowest_rank(under) if under else self.lowest_rank(legal)
        return self.lowest_rank(winners) if winners else self.lowest_rank(legal)


class LowCards(HeuristicPlayer):
    """The built-in discard `low_cards`."""
    low_cards = True


class Illegal:
    """Plays a card of its hand that the rules forbid, as soon as there is one."""

    def choose_card(self, view):
        return next((c for c in view.hand if c not in view.legal), view.legal[0])


class NotHeld:
    def choose_card(self, view):
        return next(c for c in ALL if c not in view.hand)


class NoMethod:
    def choose_discard(self, view):
        return []


class BadDiscard:
    def choose_discard(self, view):
        return [c for c in view.hand if c[0] in "AT"][:1] + list(view.allowed[:1])
