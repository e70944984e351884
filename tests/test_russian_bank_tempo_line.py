"""The upper bound on D* made from the open pool's winning line (rb_solo.pxd open_line_discards):
a slow reference plays that line in the literal SOLO(∞, none) game, checking every move against
the rules of §4 (a card leaves only from the stock top, a house top or as the hand card turned
up; it goes home only onto the card below it, onto a house only one rank down in the other
colour or onto an empty house), and counts its discards. The kernel must count the same, the
line must win, and the count must be at least D* wherever D* is known."""
import numpy as np
import pytest

from analyzer.games import russian_bank as rb
from russian_bank_reference import is_red, rank, suit
from test_russian_bank_solo import _late_positions


class LiteralLine:
    """A literal SOLO position that plays an open-pool line: the hand and waste as the cyclic
    turning order with the index from which the next card comes up."""

    def __init__(self, pos: rb.SoloPosition):
        self.order = list(pos.waste) + list(reversed(pos.hand))
        self.in_hand = set(range(len(self.order)))         # turning indices still in hand or waste
        self.next = len(pos.waste)
        self.stock = list(pos.stock)
        self.houses = [list(h) for h in pos.houses]
        self.found = list(pos.foundations)
        self.pending = set()      # pool cards the open line has home, not yet played here
        self.discards = 0

    def go_home(self, card):
        assert self.found[suit(card)] == rank(card), f"card {card} does not fit its foundation"
        self.found[suit(card)] += 1

    def lay(self, card, h):
        top = self.houses[h][-1] if self.houses[h] else None
        assert top is None or (rank(card) + 1 == rank(top) and is_red(card) != is_red(top)), \
            f"card {card} does not fit on house {h}"
        self.houses[h].append(card)

    def from_pile(self, card):
        """Take card off the stock top or a house top (nowhere else)."""
        if self.stock and self.stock[-1] == card:
            return self.stock.pop()
        for h in self.houses:
            if h and h[-1] == card:
                return h.pop()
        raise AssertionError(f"card {card} is not on top of the stock or a house")

    def on_top(self, card):
        return (self.stock and self.stock[-1] == card) or any(h and h[-1] == card for h in self.houses)

    def coming_up(self):
        later = sorted(i for i in self.in_hand if i >= self.next)
        return later[0] if later else min(self.in_hand)

    def take(self, card):
        """Turn the hand until card comes up and take it; a pending card that comes up before it
        goes home if it fits, any other is discarded."""
        while True:
            i = self.coming_up()
            self.next = i + 1
            up = self.order[i]
            if up == card:
                self.in_hand.remove(i)
                return
            if up in self.pending and self.found[suit(up)] == rank(up):
                self.in_hand.remove(i)
                self.pending.remove(up)
                self.go_home(up)
            else:
                self.discards += 1

    def bring_home_below(self, card):
        """The pending cards below card, in order (the open line had them home)."""
        while self.found[suit(card)] < rank(card):
            low = 13 * suit(card) + self.found[suit(card)]
            assert low in self.pending, f"card {low} is neither home nor pending"
            self.take(low)
            self.pending.remove(low)
            self.go_home(low)

    def step(self, source, card, target, pool, home):
        """One step of the line (SoloSolver.solve(line=True)): a move and what then went home."""
        in_pool = {self.order[i] for i in self.in_hand} - self.pending
        going = list(home)
        laid = set()
        if source is not None and target == "F":
            going = pool + [card] + going          # the pool run below the card, the card, then the rest
        elif source is not None:
            h = int(target[1:])
            for c in pool:                          # the chain, highest first
                self.take(c)
                self.lay(c, h)
                laid.add(c)
            if source == "pool":
                self.take(card)
                laid.add(card)
            else:
                self.from_pile(card)
            self.lay(card, h)
        while going:                                # the first suit whose next card can go
            for c in sorted(going, key=lambda c: (suit(c), rank(c))):
                if rank(c) != min(rank(d) for d in going if suit(d) == suit(c)):
                    continue
                if c in in_pool and c not in laid:
                    self.pending.add(c)
                    break
                if self.on_top(c):
                    self.bring_home_below(c)
                    self.from_pile(c)
                    self.go_home(c)
                    break
            else:
                raise AssertionError(f"no card of {going} can go home")
            going.remove(c)

    def finish(self):
        """The pending cards, as they come up and fit; then the game must be won."""
        while self.in_hand:
            i = self.coming_up()
            up = self.order[i]
            assert up in self.pending, f"card {up} is still in the hand at the end"
            if self.found[suit(up)] == rank(up):
                self.take(up)
                self.pending.remove(up)
                self.go_home(up)
            else:
                self.next = i + 1
                self.discards += 1
        assert not self.stock and not self.in_hand and not self.pending


def open_line(pos, budget=200_000):
    """The open pool's winning line of pos as SOLO(∞, none), and the kernel's discards for it."""
    solver = rb.core.SoloSolver(20)
    solver.set_position(pos._core_dict())
    r = solver.solve(None, False, True, True, False, budget, True, True, False, True, True)
    return r["outcome"], r["line"], r["line_discards"]


def replay(pos, steps):
    line = LiteralLine(pos)
    for source, card, target, pool, _turned, home, _redeals in steps:
        line.step(source, card, target, pool, home)
    line.finish()
    return line.discards


def _positions():
    yield from (rb.SoloPosition.deal(seed) for seed in range(120))
    yield from _late_positions(150, seed=5)


def test_the_kernel_counts_the_discards_of_a_legal_winning_literal_line():
    checked = 0
    for pos in _positions():
        outcome, steps, discards = open_line(pos)
        if outcome != "win":
            assert discards is None
            continue
        assert discards == replay(pos, steps)
        checked += 1
    assert checked >= 150


def test_tempo_mode_calls_a_deal_won_when_the_open_pool_wins_it():
    # SOLO(∞, none) is the open-pool game (F1): its win decides the deal in tempo mode too, and
    # the line gives the upper bound when the literal searches find no win within the budget.
    with_bound_from_line = 0
    for seed in range(40):
        pos = rb.SoloPosition.deal(seed)
        outcome, _steps, discards = open_line(pos, budget=20_000)
        tempo = pos.solve(None, "none", tempo=True, budget=20_000, tt_bits=16)
        if outcome == "win":
            assert tempo.outcome == "win"
            low, high = tempo.tempo_bounds
            assert high is not None and low <= high <= discards
            with_bound_from_line += high == discards
        elif outcome == "loss":
            assert tempo.outcome == "loss"
    assert with_bound_from_line >= 5


@pytest.mark.parametrize("priority, k", [("strict", None), ("none", 2)])
def test_no_outcome_from_the_open_pool_where_it_is_only_a_relaxation(priority, k):
    # For SOLO(∞, strict) or a finite k an open-pool win is no win of the game: where the literal
    # searches find no win within the budget, the deal stays unresolved, with no upper bound.
    checked = 0
    for seed in range(30):
        pos = rb.SoloPosition.deal(seed)
        if open_line(pos, budget=20_000)[0] != "win":
            continue
        plain = pos.solve(k, priority, tempo=True, budget=2_000, tt_bits=16, relaxation=False)
        if plain.outcome != "unresolved":
            continue
        full = pos.solve(k, priority, tempo=True, budget=2_000, tt_bits=16)
        assert full.outcome == "unresolved" and full.tempo_bounds[1] is None
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------------------------
# The literal game played out with the open-pool search as its guide (rb_solo.pxd guided_play)

def safe_home(found, card):
    """D1 of §10.5: card fits its foundation and may go home without a choice."""
    st, f = suit(card), found[suit(card)]
    if rank(card) != f:
        return False
    other = (found[1], found[2]) if st in (0, 3) else (found[0], found[3])
    return f < 2 or (min(other) >= f - 1 and found[3 - st] >= f - 2)


class GuidedReference(LiteralLine):
    """The literal SOLO(∞, none) game of a position, played as guided_play plays it."""

    def up(self):
        later = [i for i in self.in_hand if i >= self.next]
        return min(later) if later else None

    def normalize(self):
        """Redeal when the hand runs out, and play the D1-safe cards home (stock top, house tops,
        the hand card): True when the game is won."""
        while True:
            if self.in_hand and self.up() is None:
                self.next = 0                    # redeal (free)
            if not self.stock and not self.in_hand:
                return True
            if self.stock and safe_home(self.found, self.stock[-1]):
                self.go_home(self.stock.pop())
                continue
            tops = [h for h in self.houses if h and safe_home(self.found, h[-1])]
            for h in tops:
                self.go_home(h.pop())
            if tops:
                continue
            i = self.up() if self.in_hand else None
            if i is not None and safe_home(self.found, self.order[i]):
                self.go_home(self.order[i])
                self.in_hand.remove(i)
                self.next = i + 1
                continue
            return False

    def card_moves(self, source, card):
        """As the kernel lists them: home, then the houses (one empty house for all, and never a
        lone house card to an empty one)."""
        moves = [(source, "F")] if self.found[suit(card)] == rank(card) else []
        empty_done = False
        for h in range(4):
            if h == source:
                continue
            if not self.houses[h]:
                if empty_done or (source in range(4) and len(self.houses[source]) == 1):
                    continue
                empty_done = True
            elif not (rank(card) + 1 == rank(self.houses[h][-1]) and is_red(card) != is_red(self.houses[h][-1])):
                continue
            moves.append((source, h))
        return moves

    def moves(self):
        out = self.card_moves("stock", self.stock[-1]) if self.stock else []
        if self.in_hand:
            out += self.card_moves("hand", self.order[self.up()])
        for h in range(4):
            if self.houses[h]:
                out += self.card_moves(h, self.houses[h][-1])
        return out + ([("discard", None)] if self.in_hand else [])

    def apply(self, move):
        source, target = move
        if source == "discard":
            self.next = self.up() + 1
            self.discards += 1
            return
        if source == "hand":
            i = self.up()
            card = self.order[i]
            self.in_hand.remove(i)
            self.next = i + 1
        else:
            card = self.from_pile(self.stock[-1] if source == "stock" else self.houses[source][-1])
        if target == "F":
            self.go_home(card)
        else:
            self.lay(card, target)

    def position(self):
        """This position as a SoloPosition (hand and waste from the turning order)."""
        waste = [self.order[i] for i in sorted(self.in_hand) if i < self.next]
        hand = [self.order[i] for i in sorted(self.in_hand, reverse=True) if i >= self.next]
        return rb.SoloPosition(list(self.stock), [list(h) for h in self.houses], list(self.found), hand, waste)

    def copy(self):
        other = GuidedReference.__new__(GuidedReference)
        other.__dict__ = {k: (set(v) if isinstance(v, set) else [list(h) for h in v] if k == "houses"
                              else list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        return other


def _open_pool(pos):
    """The open-pool search of guided_play's checks (20,000 nodes): its outcome and line."""
    solver = rb.core.SoloSolver(16)
    solver.set_position(pos._core_dict())
    r = solver.solve(None, False, True, True, False, 20_000, True, True, False, True, True)
    return r["outcome"], r["line"]


def _wins(game):
    """guided_play's check: the position won outright or in the open pool."""
    return game.normalize() or _open_pool(game.position())[0] == "win"


def _prep(game, moves):
    """guided_prep: the first stock or house card laid on a house after which the hand card has a
    place that keeps the position won."""
    for move in moves:
        if move[0] not in ("stock", 0, 1, 2, 3) or move[1] == "F":
            continue
        after = game.copy()
        after.apply(move)
        if after.normalize():
            return move
        for hand in [m for m in after.moves() if m[0] == "hand"]:
            placed = after.copy()
            placed.apply(hand)
            if _wins(placed):
                return move
    return None


def _line_move(step):
    """A step of an open-pool line as a literal move, or None for a pool card or a chain."""
    source, _card, target, chain = step[:4]
    if source == "pool" or chain:
        return None
    return ("stock" if source == "stock" else int(source[1:]), "F" if target == "F" else int(target[1:]))


def guided_reference(pos):
    game = GuidedReference(pos)
    won = game.normalize()
    line, idle = [], 0
    for _ in range(1 << 16):
        if won:
            return game.discards
        if idle > len(game.in_hand):
            return None                          # a round with nothing done: it would repeat
        moves = game.moves()
        chosen = None
        for move in [m for m in moves if m[0] == "hand"] + [m for m in moves if m[0] in ("stock", 0, 1, 2, 3)
                                                              and m[1] == "F"]:
            after = game.copy()
            after.apply(move)
            if _wins(after):
                chosen = move
                break
        if chosen is None:
            chosen = _prep(game, moves)
        if chosen is not None:
            line = []                            # off the line: search again when one is needed
        else:
            if not line:
                outcome, steps = _open_pool(game.position())
                if outcome != "win":
                    return None
                line = [_line_move(step) for step in steps[1:]][:1024]
            if line and line[0] is not None and line[0] in moves:
                chosen = line.pop(0)
        home = sum(game.found)
        if chosen is None:
            if ("discard", None) not in moves:
                return None
            chosen = ("discard", None)
            idle += 1
        else:
            idle = 0
        game.apply(chosen)
        won = game.normalize()
        if sum(game.found) != home:
            idle = 0
    return None


def test_guided_play_against_the_reference():
    # The kernel's guided game makes the reference's discards, move by move the same rules.
    played = 0
    for pos in list(_late_positions(40, seed=9)) + [rb.SoloPosition.deal(seed) for seed in range(30)]:
        solver = rb.core.SoloSolver(16)
        solver.set_position(pos._core_dict())
        kernel = solver.guided_play(10 ** 8)
        assert kernel == guided_reference(pos)
        played += kernel is not None
    assert played >= 55


def test_the_line_and_the_guided_game_bound_d_star_from_above():
    # Where the layered search proves D* exactly, both upper bounds are at least D*; the guided
    # game is the tighter one on most positions.
    compared = tighter = 0
    for pos in _late_positions(150, seed=5):
        exact = pos.solve(None, "none", tempo=True, budget=200_000, tt_bits=18)
        outcome, _steps, line = open_line(pos)
        solver = rb.core.SoloSolver(16)
        solver.set_position(pos._core_dict())
        guided = solver.guided_play(10 ** 7)
        if exact.tempo is None or outcome != "win":
            continue
        assert exact.tempo <= line and (guided is None or exact.tempo <= guided)
        compared += 1
        tighter += guided is not None and guided < line
    assert compared >= 100 and tighter >= 0.8 * compared
