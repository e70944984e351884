"""A slow, readable square-game engine written from shared/rules/square.md (§3, §4) with card
strings, to cross-check the compiled kernel turn by turn.

`replay(log)` takes a deal logged by analyzer.games.square.play_deal (the dealt hands and the
kernel's turns) and plays it again: for the deterministic strategies (greedy, spoiler) it chooses
every action itself and asserts it equals the kernel's; for the random strategy it checks that the
kernel's action is legal. After every turn it compares both squares' scores and the closing
decision, at the end the squares and the deal scores."""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
RED = {"H", "D"}
SUITS = "SHDC"
RANKS = {32: "789TJQKA", 36: "6789TJQKA", 52: "23456789TJQKA"}


def line_points(cells):
    if None in cells:
        return 0
    suits = [c[1] for c in cells]
    if len(set(suits)) == 1:
        return 2
    if len({s in RED for s in suits}) == 1:
        return 1
    return 0


def square_score(sq):
    return sum(line_points([sq[i] for i in line]) for line in LINES)


def closer_score(s):
    return s + max(0, s - 5) - 1


def line_potential(cells):
    """The strategies' value of a line (see csrc/square.pyx): complete 12 per point; partial lines
    whose cards share a suit 2 k^2, share a colour k^2 (k cards); otherwise 0."""
    cards = [c for c in cells if c is not None]
    k = len(cards)
    if k == 0:
        return 0
    if k == 3:
        return 12 * line_points(cells)
    if len({c[1] for c in cards}) == 1:
        return 2 * k * k
    if len({c[1] in RED for c in cards}) == 1:
        return k * k
    return 0


def potential(sq):
    return sum(line_potential([sq[i] for i in line]) for line in LINES)


class Reference:
    def __init__(self, options, strategies, hands, stock, first):
        self.o = options
        self.players = options["players"]
        self.ranks = RANKS[options["deck"]]
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.squares = [[None] * 9, [None] * 9]
        self.seat = first
        self.refused = [False] * self.players
        self.strategy = [strategies["play_a"], strategies["play_b"]]
        self.threshold = [self.threshold_of(strategies["close_a"]), self.threshold_of(strategies["close_b"])]
        self.ask = strategies["ask"] == "always"
        self.agree = self.threshold_of(strategies["agree"])

    @staticmethod
    def threshold_of(name):
        return 15 if name == "never" else int(name[2:])

    def sort_key(self, card):
        return SUITS.index(card[1]), self.ranks.index(card[0])

    def legal(self, seat):
        """Legal actions (kind, card, target side, cell) in the kernel's tie-breaking order."""
        own = seat % 2
        out = []
        for card in sorted(self.hands[seat], key=self.sort_key):
            cells = [self.ranks.index(card[0])] if self.o["placement"] == "rank_fixed" else range(9)
            for side in (own, 1 - own):
                for cell in cells:
                    if self.squares[side][cell] is None or self.o["cover"] == "yes":
                        out.append(("place", card, side, cell))
            if card[0] in "QJ" and self.o["qj_remove"] != "none":
                for side in ((own, 1 - own) if self.o["qj_remove"] == "any" else (own,)):
                    for cell in range(9):
                        if self.squares[side][cell] is not None:
                            out.append(("remove", card, side, cell))
            out.append(("discard", card, own, 0))
        return out

    def value(self, seat, action):
        kind, card, side, cell = action
        own = seat % 2
        strategy = self.strategy[own]
        if kind == "discard":
            return 0
        if strategy == "greedy" and side != own:
            return -1000000
        after = list(self.squares[side])
        after[cell] = card if kind == "place" else None
        delta = potential(after) - potential(self.squares[side])
        value = delta if side == own else -delta
        return value - 1 if kind == "remove" else value

    def choose(self, seat):
        actions = self.legal(seat)
        best = actions[0]
        best_value = self.value(seat, best)
        for a in actions[1:]:
            v = self.value(seat, a)
            if v > best_value:
                best, best_value = a, v
        return best

    def apply(self, seat, action):
        kind, card, side, cell = action
        self.hands[seat].remove(card)
        if kind == "place":
            self.squares[side][cell] = card
        elif kind == "remove":
            self.squares[side][cell] = None

    def cards_left(self):
        return len(self.stock) + sum(len(h) for h in self.hands)

    def wants_close(self, seat, last_chance):
        """(closes, asked, agreed) under the threshold policy and the partner rule."""
        side = seat % 2
        s = square_score(self.squares[side])
        t = self.threshold[side]
        if s < 5 or self.refused[seat] or t >= 15:
            return False, False, False
        if not (s >= t or (last_chance and s >= 6)):
            return False, False, False
        if self.players == 4 and self.ask:
            if self.agree < 15 and (s >= self.agree or (last_chance and s >= 6)):
                return True, True, True
            self.refused[seat] = True
            return False, True, False
        return True, False, False


def replay(log):
    o, strategies = log["options"], log["strategies"]
    ref = Reference(o, strategies, log["hands"], log["stock"], log["first"])
    turn_start = o["close_timing"] == "turn_start"
    closer, last_actor = None, None
    turns = iter(log["turns"])
    seat = log["first"]
    while ref.cards_left() > 0:
        if o["deal"] == "draw8" and ref.stock:
            ref.hands[seat].append(ref.stock.pop(0))
        if not ref.hands[seat]:
            seat = (seat + 1) % ref.players
            continue
        t = next(turns)
        assert t["seat"] == seat, (t, seat)
        if turn_start:
            closes, asked, agreed = ref.wants_close(seat, False)
            assert (t["asked"], t["agreed"]) == (asked, agreed), t
            if closes:
                assert t["kind"] == "close" and t["closed"], t
                closer = seat
                break
        action = (t["kind"], t["card"], t["side"], t["cell"])
        if strategies["play_a" if seat % 2 == 0 else "play_b"] == "random":
            assert action in ref.legal(seat), (t, ref.legal(seat))
        else:
            assert ref.choose(seat) == action, (t, ref.choose(seat))
        displaced = ref.squares[t["side"]][t["cell"]] if t["kind"] != "discard" else None
        assert t["displaced"] == displaced, t
        ref.apply(seat, action)
        last_actor = seat
        scores = (square_score(ref.squares[0]), square_score(ref.squares[1]))
        assert tuple(t["score"]) == scores, (t, scores)
        if not turn_start:
            closes, asked, agreed = ref.wants_close(seat, ref.cards_left() == 0)
            assert (t["closed"], t["asked"], t["agreed"]) == (closes, asked, agreed), t
            if closes:
                closer = seat
                break
        seat = (seat + 1) % ref.players
    assert next(turns, None) is None, "the kernel logged more turns than the reference played"
    assert log["closer"] == closer
    assert [list(sq) for sq in log["squares"]] == ref.squares
    deal = [square_score(ref.squares[0]), square_score(ref.squares[1])]
    if closer is None and o["no_closer"] == "last_actor":
        closer = last_actor
    if closer is not None:
        deal[closer % 2] = closer_score(deal[closer % 2])
    assert tuple(log["deal_score"]) == tuple(deal), (log["deal_score"], deal)
    return ref
