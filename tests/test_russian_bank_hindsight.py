"""The blind hindsight policy of SOLO(∞, none) (rules/russian_bank.md §9.2, §10.6 policy 4;
csrc/russian_bank/rb_hindsight.pxd): its games replayed card by card by a small independent
model of the open-pool game, the information it may use, and what must hold against thoughtful
play (a blind win is a winning line; with no hidden card it plays as the solver)."""
import numpy as np
import pytest

from analyzer._core import russian_bank as core
from analyzer.games import russian_bank as rb
from analyzer.runner import RunConfig, run, shard_bit_generators
from russian_bank_reference import is_red, rank, suit

SOLVE = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False, tt_bits=20)


def layout(pack, stock_cards=13):
    """The SOLO layout of a pack (§2) as the kernel's position dict; with fewer stock cards the
    rest of the stock (from its bottom) joins the pool."""
    stock = [pack[12 - j] for j in range(13)]
    return dict(stock=stock[13 - stock_cards:], houses=[[pack[13 + h]] for h in range(4)], foundations=[0] * 4,
                order=stock[:13 - stock_cards] + list(pack[17:]), waste_n=0)


class OpenPool:
    """SOLO(∞, none) with every hand and waste card available (F1), the D1-safe foundation plays
    of §10.5 made at once, as the policy's transcript leaves them out."""

    def __init__(self, pos):
        self.stock = list(pos["stock"])
        self.houses = [list(h) for h in pos["houses"]]
        self.found = list(pos["foundations"])
        self.pool = set(pos["order"])
        self.home()

    def fits_home(self, c):
        return self.found[suit(c)] == rank(c)

    def safe(self, c):
        # rank r = rank(c) + 1 <= 2, or both other-colour foundations at r - 2 or more and the
        # other foundation of c's colour at r - 3 or more
        r = rank(c) + 1
        other = [s for s in range(4) if is_red(13 * s) != is_red(c)]
        same = [s for s in range(4) if is_red(13 * s) == is_red(c) and s != suit(c)]
        return r <= 2 or (min(self.found[s] for s in other) >= r - 2 and self.found[same[0]] >= r - 3)

    def home(self):
        moved = True
        while moved:
            moved = False
            tops = ([self.stock[-1]] if self.stock else []) + [h[-1] for h in self.houses if h] + sorted(self.pool)
            for c in tops:
                if self.fits_home(c) and self.safe(c):
                    self.take(c)
                    self.found[suit(c)] += 1
                    moved = True
                    break

    def take(self, c):
        if self.stock and self.stock[-1] == c:
            self.stock.pop()
        elif c in self.pool:
            self.pool.remove(c)
        else:
            house = next(h for h in self.houses if h and h[-1] == c)
            house.pop()

    def lay(self, c, h):
        top = self.houses[h][-1] if self.houses[h] else None
        assert top is None or (rank(c) + 1 == rank(top) and is_red(c) != is_red(top)), (c, top)
        self.houses[h].append(c)

    def play(self, source, card, target, pool, stock_n):
        assert stock_n == len(self.stock)
        if source == "stock":
            assert self.stock and self.stock[-1] == card
        elif source == "pool":
            assert card in self.pool
        else:
            assert self.houses[int(source[1])][-1] == card
        assert all(c in self.pool for c in pool)
        for c in pool:                          # the pool cards go first
            self.pool.remove(c)
            if target == "F":
                assert self.fits_home(c)
                self.found[suit(c)] += 1
            else:
                self.lay(c, int(target[1]))
        self.take(card)
        if target == "F":
            assert self.fits_home(card)
            self.found[suit(card)] += 1
        else:
            assert target != source
            self.lay(card, int(target[1]))
        self.home()

    def cards_left(self):
        return len(self.stock) + len(self.pool)


def play(pos, samples=8, budget=1000, seed=1):
    return core.hindsight_game(pos, samples, budget, np.random.PCG64(seed))


def test_games_replay_card_by_card_and_blind_wins_are_thoughtful_wins():
    packs = core.solo_deal_stream(np.random.PCG64(41), 40)
    solver = core.SoloSolver(20)
    ends = []
    for pack in packs:
        pos = layout(pack)
        r = play(pos, samples=4, budget=500)
        game = OpenPool(pos)
        for move in r["moves"]:
            game.play(*move)
        assert game.cards_left() == r["cards_left"]
        assert (r["end"] == "win") == (r["cards_left"] == 0)
        assert not r["truncated"]
        if r["end"] == "win":
            solver.set_position(pos)
            assert solver.solve(None, False, True, True, False, 10**6, True)["outcome"] == "win"
        ends.append("resigned" if r["resigned"] else r["end"])
    assert ends.count("win") >= 20 and ends.count("stuck") >= 3    # both occur on 40 deals


def test_the_policy_never_sees_the_order_of_the_face_down_stock():
    # Swapping the two bottom stock cards changes nothing the player can see until one of them
    # comes up: every decision made with three or more stock cards must be the same.
    compared = 0
    for pack in core.solo_deal_stream(np.random.PCG64(5), 12):
        pos = layout(pack)
        swapped = dict(pos, stock=[pos["stock"][1], pos["stock"][0]] + pos["stock"][2:])
        a, b = play(pos), play(swapped)
        for move_a, move_b in zip(a["moves"], b["moves"]):
            if move_a[4] < 3:
                break
            assert move_a == move_b
            compared += 1
    assert compared >= 60


def test_without_hidden_cards_the_policy_plays_as_the_solver():
    # With two stock cards or fewer nothing is hidden (the one card under the top is known by
    # elimination): a move that wins in the one order drawn is a winning move, so the policy wins
    # every position the solver wins (that it never wins a lost one is the first test's).
    solver = core.SoloSolver(20)
    outcomes = []
    for pack in core.solo_deal_stream(np.random.PCG64(9), 40):
        pos = layout(pack, stock_cards=2)
        solver.set_position(pos)
        truth = solver.solve(None, False, True, True, False, 10**6, True)["outcome"]
        if truth == "unresolved":
            continue
        r = play(pos, samples=3, budget=10**5)
        assert (r["end"] == "win") == (truth == "win")
        outcomes.append(truth)
    assert outcomes.count("win") >= 30


def test_single_position_api_and_transcript():
    pos = rb.SoloPosition.deal(5)
    r = pos.play_blind(policy="hindsight", seed=1)
    assert r == pos.play_blind(policy="hindsight", seed=1)          # the seed fixes the draws
    assert r.won and r.cards_left == 0 and r.redeals == 0 and r.actions == len(r.moves)
    assert r.moves[0].startswith("stock ") and "→" in r.moves[0]
    assert any(" from the pool" in m for m in r.moves)


def test_hindsight_analysis_is_reproducible_and_pairs_with_the_solver():
    config = RunConfig(game="russian_bank", analysis="blind_paired", rules="default", deals=40, seed=3,
                       overrides=dict(foundation_priority="none", node_budget=100_000, tt_bits=18,
                                      hindsight_samples=4, hindsight_budget=300),
                       shard_size=20, strategies=dict(player="hindsight"))
    one = run(config, workers=1, progress=False).counters
    two = run(config, workers=2, progress=False).counters
    assert one.keys() == two.keys() and all(np.array_equal(one[k], two[k]) for k in one)
    # the run's counters are the kernel's on the shards' streams (stream 1 feeds the draws)
    options = dict(k=None, policy="hindsight", samples=4, sample_budget=300, solve=dict(SOLVE, budget=100_000, tt_bits=18))
    direct = [core.blind_shard(*shard_bit_generators(3, i, 2)[:1], 20, options,
                               policy_bitgen=shard_bit_generators(3, i, 2)[1]) for i in range(2)]
    assert all(np.array_equal(one[k], sum(d[k] for d in direct)) for k in one)
    paired = rb.paired_table(one, "h").set_index("event")
    assert paired.loc["blind wins the solver lost (must be 0)", "count"] == 0
    table = rb.blind_table(one, "h").set_index("event")
    assert table.loc["win", "count"] + table.loc["lost: no move", "count"] + \
        table.loc["lost: resigned (no move won in any sampled stock order)", "count"] + \
        table.loc[rb.HINDSIGHT_CIRCLES, "count"] == 40
    assert table.loc["move lists cut short (must be 0)", "count"] == 0
    assert table.loc["win", "count"] == paired.loc["blind won", "count"] > 0


def test_bad_input():
    pos = rb.SoloPosition.deal(1)
    for kw in (dict(k=2), dict(samples=0), dict(budget=1), dict(seed=-1)):
        with pytest.raises(ValueError):
            pos.play_blind(policy="hindsight", **kw)
    for overrides in (dict(foundation_priority="strict"), dict(foundation_priority="none", redeal_limit=3)):
        config = RunConfig(game="russian_bank", analysis="blind", rules="default", deals=5, seed=1,
                           overrides=overrides, strategies=dict(player="hindsight"))
        with pytest.raises(ValueError, match="hindsight policy plays SOLO"):
            run(config, workers=1, progress=False)
    with pytest.raises(ValueError, match="hindsight_samples"):
        rb.resolve("default", dict(hindsight_samples=0))
    with pytest.raises(ValueError, match="samples"):
        core.blind_shard(np.random.PCG64(1), 1, dict(k=None, policy="hindsight", samples=0, sample_budget=100),
                         policy_bitgen=np.random.PCG64(2))


def test_shard_counts_each_games_decisions_searches_and_nodes_with_their_squares():
    # A one-deal shard is the single game of its first layout with the same policy stream, so its
    # sums are that game's counts and its sums of squares their squares (the means' intervals).
    options = dict(k=None, policy="hindsight", samples=3, sample_budget=300)
    for seed in range(3):
        counters = core.blind_shard(np.random.PCG64(seed), 1, options, policy_bitgen=np.random.PCG64(9))
        pack = core.solo_deal_stream(np.random.PCG64(seed), 1)[0]
        game = core.hindsight_game(layout(pack), 3, 300, np.random.PCG64(9))
        counts = np.array([game["resigned"], game["decisions"], game["solves"], game["nodes"], game["truncated"]])
        assert counters["hindsight"].tolist() == counts.tolist()
        squares = [int(v) ** 2 for v in counts]
        assert counters["hindsight_sq"].tolist() == squares[:3] + squares[4:]
        assert core.exact_square_sum(counters["hindsight_nodes_sq"]) == squares[3]
        assert counters["actions_sumsq"][0] == counters["actions"][0] ** 2 == len(game["moves"]) ** 2
