"""Russian Bank SOLO(k, π) solver: the solo vectors of rules/russian_bank.md §11.3, the honest
interval of §10.8, and the metamorphic checks of §9.3 F3 / §10.9 over a few hundred seeds."""
import numpy as np
import pytest

from analyzer._core import russian_bank as core
from analyzer.games import russian_bank as rb
from analyzer.runner import RunConfig, run

S = rb.SoloPosition.from_piles
SPADES_HOUSES = ["KS", "QS", "JS", "TS"]
VECTORS = {
    "S1": S("12 13 13 13", "KS", ["", "", "", ""], ""),
    "S2": S("0 13 13 13", "AS 2S", SPADES_HOUSES, "3S 4S 5S 6S 7S 8S 9S"),
    "S3": S("0 13 13 13", "2S AS", SPADES_HOUSES, "3S 4S 5S 6S 7S 8S 9S"),
    "S4": S("0 13 13 13", "2S AS", SPADES_HOUSES, "9S 8S 7S 6S 5S 4S 3S"),
    "S5": S("0 6 13 13", "AS 6S", ["8S 7H", "KS", "QS", "JS"], "TS 9S 7S 5S 4S 3S 2S KH QH JH TH 9H 8H"),
    "S6": S("0 5 13 13", "AS 6S", ["8S", "KS", "QS", "JS"], "TS 9S 7S 5S 4S 3S KH QH JH TH 9H 8H 6H 2S 7H"),
}
KS = (0, 1, 2, 5, 6, 7, None)


def expected(name, k, priority):
    """The outcome column of §11.3."""
    k_at_least = lambda m: k is None or k >= m
    return {
        "S1": True, "S2": False, "S3": k_at_least(6), "S4": True,
        "S5": priority == "none", "S6": k_at_least(1),
    }[name]


@pytest.mark.parametrize("name", VECTORS)
@pytest.mark.parametrize("priority", ["none", "strict"])
@pytest.mark.parametrize("k", KS)
def test_solo_vectors(name, priority, k):
    result = VECTORS[name].solve(k, priority, model="literal")
    assert result.outcome == ("win" if expected(name, k, priority) else "loss")


@pytest.mark.parametrize("name", VECTORS)
def test_solo_vectors_open_pool(name):
    assert VECTORS[name].solve(None, "none", model="open_pool").outcome == ("win" if expected(name, None, "none") else "loss")


def test_s6_open_pool_is_wrong_under_strict():
    # F2: the open-pool abstraction forces 6H home and loses the deal the literal rules win, so
    # the position API and the analyses refuse it; the kernel still has it, which shows F2.
    with pytest.raises(ValueError, match="F2"):
        VECTORS["S6"].solve(None, "strict", model="open_pool")
    solver = core.SoloSolver(16)
    solver.set_position(VECTORS["S6"]._core_dict())
    # k, strict, open_pool, dominance, tempo, budget, d3, stuck_prune, relaxation, free_cycling, line
    assert solver.solve(None, True, True, True, False, 10**6, True, True, True, True, False)["outcome"] == "loss"
    assert VECTORS["S6"].solve(None, "strict", model="literal").outcome == "win"


@pytest.mark.parametrize("analysis", ["solo", "blind", "blind_paired"])
@pytest.mark.parametrize("override", [dict(stock_size=11), dict(auto_turn=False), dict(empty_house_rule="stock_only"),
                                      dict(sequence_moves=True), dict(discard_policy="no_own_card_move"),
                                      dict(stock_first_to_foundation=True), dict(own_waste_playable=True),
                                      dict(stock_before_hand=True, auto_turn=False),
                                      dict(solo_model="open_pool", foundation_priority="strict")])
def test_the_solo_analyses_refuse_rules_the_solo_game_does_not_have(analysis, override):
    # The SOLO game of §9.2 fixes these rules of play; the kernels would ignore them (the same
    # numbers under another label), so a run refuses them when it is configured.
    with pytest.raises(ValueError, match="SOLO"):
        RunConfig("russian_bank", analysis, "default", 10, 1, overrides=override)
    if "solo_model" not in override:   # the duel plays them
        RunConfig("russian_bank", "duel", "default", 10, 1, overrides=override)


def test_solve_checks_every_redeal_limit_before_it_prints(capsys):
    from analyzer.cli import main

    layout = ["--hand", "AS", "--partial", *(["--house", ""] * 4)]
    assert main(["rb", "solve", "--redeals-used", "1", "--k", "5", "0", *layout]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "has used 1 redeals, more than the limit k = 0" in err
    assert main(["rb", "solve", "--redeals-used", "1", "--k", "5", "1", *layout]) == 0
    assert capsys.readouterr().out.count("SOLO(") == 2


def test_a_refused_run_leaves_nothing_in_the_store(tmp_path, capsys):
    from analyzer.cli import main
    from analyzer.store import Store

    store = tmp_path / "s.sqlite"
    for bad in (["--set", "stock_size=11"], ["--set", "solo_model=open_pool", "--set", "redeal_limit=2"]):
        assert main(["rb", "solo", "--deals", "10", "--store", str(store), *bad]) == 2
    assert "does not apply to the SOLO game" in capsys.readouterr().err
    with Store(store) as s:
        assert s.runs() == []


def test_stuck_stock_card_is_proven_at_the_root():
    # S2: 2S covers AS, no house accepts 2S and no house can be emptied, so the stuck-stock test
    # proves the loss before any node is expanded (all models); without it the literal search
    # that turns the hand card by card needs nodes (with free cycling the root has no move at
    # all: no hand card fits anywhere). Both report a loss.
    for kw in (dict(model="open_pool"), dict(model="literal"), dict(k=0, priority="strict")):
        assert VECTORS["S2"].solve(**kw).nodes == 0
        assert VECTORS["S2"].solve(stuck_prune=False, **kw).outcome == "loss"
    assert VECTORS["S2"].solve(model="literal", stuck_prune=False, relaxation=False, free_cycling=False).nodes > 0


@pytest.mark.parametrize("k, waste, hand", [
    (0, "", "2S 3S 9H"),        # the last pass: 9H, then 3S comes up before 2S
    (1, "3S 2S", "9H"),         # the pass before it: 3S will come up before 2S in the last pass
])
def test_stuck_hand_card_is_proven_at_the_root(k, waste, hand):
    # With the redeals used up the hand is a second stock: 3S must be played when it comes up,
    # but 2S is not home yet and no house takes a black 3 (the houses hold spades and 9H, which
    # lands on TS), so the stuck test proves the loss before any node is expanded; the search
    # without it plays 9H first and then finds the same loss. With one redeal more the
    # deal is won: 2S and 3S go home in the last pass. (No relaxation: SOLO(∞, none) wins.)
    pos = S("1 0 13 13", "", SPADES_HOUSES, hand, waste=waste, partial=True)   # 4S-9S, hearts but 9H: out
    assert pos.solve(k, "none", relaxation=False).nodes == 0
    plain = pos.solve(k, "none", relaxation=False, stuck_prune=False)
    assert plain.outcome == "loss" and plain.nodes > 0
    assert pos.solve(k + 1, "none", relaxation=False).outcome == "win"


def test_the_table_is_sized_for_the_budget(monkeypatch):
    # A full table forgets positions and the search then meets them again and again (seed 3,
    # SOLO(1, none), 10^7 nodes with 2^20 slots: 2^21 moves deep, unresolved at 3.3 M nodes), so
    # by default the table may grow to twice the budget; an explicit size is kept.
    sizes = []
    solver = rb.core.SoloSolver
    monkeypatch.setattr(rb.core, "SoloSolver", lambda bits: sizes.append(bits) or solver(bits))
    for budget in (100, 10**6, 10**7, 10**9):
        assert VECTORS["S1"].solve(budget=budget).outcome == "win"
    VECTORS["S1"].solve(budget=10**7, tt_bits=18)
    assert sizes == [14, 21, 25, 26, 18]


@pytest.mark.parametrize("name, tempo", [("S1", 0), ("S3", 21), ("S4", 0)])
def test_tempo(name, tempo):
    for priority in ("none", "strict"):
        assert VECTORS[name].solve(None, priority, tempo=True).tempo == tempo


def test_tempo_bounds_on_random_deals():
    # The layered search proves D* >= low; a literal-model win, lowered by the branch and bound,
    # gives D* <= high. The bounds must bracket D* found with a larger budget, and a finite D*
    # means the deal is won (§9.2).
    for seed in range(40):
        pos = rb.SoloPosition.deal(seed)
        small = pos.solve(None, "none", tempo=True, budget=2_000, tt_bits=16)
        big = pos.solve(None, "none", tempo=True, budget=60_000, tt_bits=18)
        for r in (small, big):
            low, high = r.tempo_bounds
            if r.outcome == "loss":
                assert (low, high) == (None, None)
                continue
            assert low is not None and (high is None or low <= high)
            assert (r.tempo is not None) == (low == high)
            if high is not None:
                assert r.outcome == "win"
        if small.outcome != "loss" and big.outcome != "loss":
            assert small.tempo_bounds[0] <= big.tempo_bounds[0]
            if small.tempo_bounds[1] is not None and big.tempo is not None:
                assert big.tempo <= small.tempo_bounds[1]
        open_pool = pos.solve(None, "none", budget=200_000)
        if open_pool.outcome != "unresolved" and big.outcome != "unresolved":
            assert open_pool.outcome == big.outcome


def test_the_layered_search_and_the_branch_and_bound_agree_on_d_star():
    # D* two ways: the layered search proves it from below, layer by layer; the branch and bound
    # starts from a win and looks for wins with fewer discards, from above.
    # Deal 15: within 5x10^5 nodes the layered search reaches layer 22 and the branch and bound
    # comes down to a win with 22, so D* = 22 (before 0.8.3, [22, 30]); the layered search alone
    # finishes just above that budget and proves the same.
    deal = rb.SoloPosition.deal(15)
    assert deal.solve(None, "none", tempo=True, budget=500_000).tempo == 22
    alone = deal.solve(None, "none", tempo=True, budget=1_000_000)
    assert alone.tempo == 22 and alone.nodes < 600_000
    # Deal 12: the layered search proves D* = 30 within 10^6 nodes, and within 5x10^5 the branch
    # and bound comes down to 30 from above. Before 0.8.3 the layered search took the first win
    # met in layer d, which may be one a discard of that layer made, with d + 1 discards, while a
    # win with d was still to come: it said 31.
    deal = rb.SoloPosition.deal(12)
    assert deal.solve(None, "none", tempo=True, budget=1_000_000).tempo == 30
    low, high = deal.solve(None, "none", tempo=True, budget=500_000).tempo_bounds
    assert low < high == 30


def test_the_branch_and_bound_stopping_at_the_lower_bound_gives_that_bound():
    # A late position with no stock (hearts and spades home to 9, the minors to 8): it can be won
    # without a discard. At 10 nodes the layered search runs out in layer 0 (D* >= 0), the
    # depth-first search finds a win with one discard, and the branch and bound's first win has
    # none, which ends it there: D* = 0. Before 0.8.4 the result kept the depth-first win and
    # said D* = 1, exactly.
    hand = "TC KC QD QS 9D TD QH JD KH JS JC TS 9C KS"
    pos = S("9 9 8 8", "", ["QC", "TH", "JH", "KD"], hand)
    for budget in (10, 20, 100_000):
        r = pos.solve(None, "none", tempo=True, budget=budget)
        assert (r.outcome, r.tempo, r.tempo_bounds) == ("win", 0, (0, 0)), budget


def _late_positions(n, seed):
    """Random late SOLO positions (3-10 cards of each suit home, one card on each house, up to
    six stock cards, the rest in the hand), small enough to decide exactly."""
    rng = np.random.default_rng(seed)
    ranks, suits = "A23456789TJQK", "SHDC"
    for _ in range(n):
        found = rng.integers(3, 11, size=4)
        rest = [ranks[r] + suits[s] for s in range(4) for r in range(found[s], 13)]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        stock_n = int(rng.integers(0, min(6, len(rest) - 6) + 1))
        yield S(" ".join(map(str, found)), " ".join(rest[4:4 + stock_n]), rest[:4], " ".join(rest[4 + stock_n:]))


def test_tempo_bounds_at_tiny_budgets_bracket_the_exact_d_star():
    # Every exact D* claimed at a small budget is the D* of an ample one, and every pair of bounds
    # brackets it, on late positions where tiny budgets stop each search of solo_tempo_bounds at
    # every stage (the layered search in its last layer, the branch and bound on its way down).
    checked = 0
    for pos in _late_positions(250, seed=11):
        exact = pos.solve(None, "none", tempo=True, budget=200_000, tt_bits=18)
        if exact.outcome != "win" or exact.tempo is None:
            continue
        for budget in (5, 10, 20, 40, 80):
            r = pos.solve(None, "none", tempo=True, budget=budget, tt_bits=16)
            low, high = r.tempo_bounds
            assert low is not None and low <= exact.tempo, budget
            assert high is None or exact.tempo <= high, budget
            if r.tempo is not None:
                assert r.tempo == exact.tempo, budget
                checked += 1
    assert checked >= 100


def test_tempo_search_proves_losses_and_its_cuts_keep_the_bounds():
    # In tempo mode a deal lost as SOLO(∞, none) in the open pool is lost (D* = ∞) whatever the
    # literal search would say within its budget, and the stuck tests only cut positions no win
    # passes through: the bounds found with them and without them bracket the same D*.
    lost = bracketed = 0
    for seed in range(40):
        pos = rb.SoloPosition.deal(seed)
        plain = pos.solve(None, "none", tempo=True, budget=20_000, tt_bits=16, relaxation=False, stuck_prune=False)
        full = pos.solve(None, "none", tempo=True, budget=20_000, tt_bits=16)
        if full.outcome == "loss":
            lost += 1
            assert full.tempo_bounds == (None, None)
            assert pos.solve(None, "none", budget=20_000).outcome == "loss"
            assert plain.outcome != "win"
            continue
        assert plain.outcome != "loss"
        lows = [r.tempo_bounds[0] for r in (plain, full)]
        highs = [r.tempo_bounds[1] for r in (plain, full) if r.tempo_bounds[1] is not None]
        if highs:
            assert max(lows) <= min(highs)
            bracketed += 1
    assert lost >= 3 and bracketed >= 10
    for name, tempo in (("S1", 0), ("S3", 21), ("S4", 0)):
        assert VECTORS[name].solve(None, "none", tempo=True, stuck_prune=False, relaxation=False).tempo == tempo


def test_tempo_counters_of_the_analysis():
    config = RunConfig(game="russian_bank", analysis="solo", rules="default", deals=12, seed=5,
                       overrides=dict(foundation_priority="none", tempo=True, node_budget=3000, tt_bits=16),
                       shard_size=6)
    counters = run(config, workers=1, progress=False).counters
    hist = counters["tempo_hist"]
    w, l, u = counters["outcome"]
    # every deal not lost is counted once, either with an exact D* or with its lower bound
    assert hist[0].sum() + hist[1].sum() == w + u and hist[2].sum() <= w
    table = rb.tempo_table(counters)
    assert table.exact.sum() + table.lower_bound.sum() == w + u


def test_s3_needs_the_redeal_orientation():
    # The same cards with the waste turned the other way: each pass would play a single card.
    result = VECTORS["S3"].solve(5, "none")
    assert result.outcome == "loss"


def test_waste_in_a_built_position():
    # S3 after its first pass: 9S..4S discarded (9S first), AS 2S 3S home; six more passes needed.
    pos = S("3 13 13 13", "", SPADES_HOUSES, "", waste="9S 8S 7S 6S 5S 4S")
    assert pos.solve(6, "none").outcome == "win" and pos.solve(5, "none").outcome == "loss"
    used = S("3 13 13 13", "", SPADES_HOUSES, "", waste="9S 8S 7S 6S 5S 4S", redeals=1)
    assert used.solve(6, "none").outcome == "loss" and used.solve(7, "none").outcome == "win"
    assert pos.solve(None, "none", tempo=True).tempo == 15      # 5+4+3+2+1 further discards


def test_the_open_pool_model_refuses_the_tempo_search():
    # D* (§9.2) counts the DISCARDs of the literal game; the open pool (§9.3 F1) has no hand order
    # and no discards (it would give S3, whose D* is 21, a tempo of 0), so tempo mode runs only in
    # the literal model.
    with pytest.raises(ValueError, match="no discards to count"):
        VECTORS["S3"].solve(None, "none", model="open_pool", tempo=True)
    result = VECTORS["S3"].solve(None, "none", tempo=True)
    assert result.model == "literal" and result.tempo == 21


def test_solo_input_errors():
    with pytest.raises(ValueError, match="4 houses"):
        S("0 0 0 0", "AS", ["", ""], "")
    with pytest.raises(ValueError, match="more than 1"):
        S("1 0 0 0", "AS", ["", "", "", ""], "")
    with pytest.raises(ValueError, match="priority"):
        VECTORS["S1"].solve(None, "sometimes")
    with pytest.raises(ValueError, match="open-pool"):
        VECTORS["S1"].solve(2, "none", model="open_pool")
    with pytest.raises(ValueError, match="k must be"):
        VECTORS["S1"].solve(-1)


@pytest.mark.parametrize("fields, message", [
    (dict(stock=[99]), "not a card kind"), (dict(stock=[0, 0, 0]), "more than 1"),
    (dict(hand=[True]), "not a card kind"), (dict(foundations=[20, 0, 0, 0]), "foundation height"),
    (dict(foundations=[1, 0, 0, 0], stock=[0]), "more than 1"), (dict(houses=[[12, 11]] + [[]] * 3), "alternating"),
    (dict(houses=[[]] * 3), "4 houses"), (dict(redeals=-1), "redeals"),
])
def test_a_position_built_from_kinds_is_checked_like_one_from_piles(fields, message):
    # the compiled solver indexes 52-entry tables by these kinds: a kind of 99 once "won"
    base = dict(stock=[], houses=[[]] * 4, foundations=[0, 0, 0, 0], hand=[], waste=[])
    with pytest.raises(ValueError, match=message):
        rb.SoloPosition(**{**base, **fields})


def test_first_mover_advantage_is_a_mean_of_plus_and_minus_one():
    # +1 first player won, -1 second, 0 drawn: the interval is the mean's, kept in [-1, 1], and
    # none from a handful of games (two games once gave [-1.39, 1.39])
    row = rb._advantage("x", 28, 1, 30)
    mean = 27 / 30
    half = 1.959964 * np.sqrt((29 / 30 - mean ** 2) * 30 / 29 / 30)
    assert row["estimate"] == pytest.approx(mean) and row["ci_low"] == pytest.approx(mean - half, rel=1e-6)
    assert mean + half > 1 and row["ci_high"] == 1.0
    row = rb._advantage("x", 1, 1, 2)
    assert row["estimate"] == 0 and np.isnan(row["ci_low"]) and np.isnan(row["ci_high"])


def test_last_node_decade_collects_the_larger_counts():
    table = rb.nodes_table({"nodes_hist": np.ones((3, 10), dtype=np.int64)})
    assert table.nodes.iloc[0] == "[1e0, 1e1)" and table.nodes.iloc[-1] == ">= 1e9"


def test_deal_layout():
    pos = rb.SoloPosition.deal(7)
    assert len(pos.stock) == 13 and len(pos.hand) == 35 and all(len(h) == 1 for h in pos.houses)
    assert sorted(pos.stock + pos.hand + [h[0] for h in pos.houses]) == list(range(52))
    assert rb.SoloPosition.deal(7) == pos


def test_honest_interval():
    # §10.8 with Blake & Gent's Klondike figures: 819,371 won, 180,472 lost, 157 unresolved.
    low, high = rb.honest_interval(819_371, 180_472, 157)
    assert 0.8186 < low < 0.8187 and 0.8202 < high < 0.8203
    assert high - low >= 157 / 1_000_000


@pytest.mark.parametrize("won, lost, unresolved, decimals, printed", [
    (7_880, 1_142, 978, 1, (77.9, 89.2)),
    (8_146, 1_541, 313, 1, (80.6, 85.3)),
    (8_204, 1_753, 43, 2, (81.27, 83.21)),
])
def test_honest_interval_of_the_pilot_ladder(won, lost, unresolved, decimals, printed):
    # §13's ladder on 10,000 deals, printed as §10.8 says: L rounded down, U rounded up (in %)
    import math
    low, high = rb.honest_interval(won, lost, unresolved)
    scale = 10 ** decimals
    assert (math.floor(100 * low * scale) / scale, math.ceil(100 * high * scale) / scale) == printed


SEEDS = range(200)
BUDGET = 20_000
VARIANTS = {
    "open": dict(k=None, priority="none", model="open_pool"),                      # D1 + D3
    "open_plain": dict(k=None, priority="none", model="open_pool", d3=False),      # D1 only
    "open_nodom": dict(k=None, priority="none", model="open_pool", d3=False, dominance=False),
    "open_nostuck": dict(k=None, priority="none", model="open_pool", stuck_prune=False),
    # The literal searches without the relaxation (a loss in the open pool decides the deal),
    # which would make the F3 checks below hold by construction
    "lit_inf_strict_nostuck": dict(k=None, priority="strict", stuck_prune=False, relaxation=False),
    "lit_inf_none": dict(k=None, priority="none", model="literal", relaxation=False),
    "lit_inf_strict": dict(k=None, priority="strict", relaxation=False),
    # and without free cycling (one state for the hand positions between forced cards)
    "lit_inf_none_nofree": dict(k=None, priority="none", model="literal", relaxation=False, free_cycling=False),
    "lit_inf_strict_nofree": dict(k=None, priority="strict", relaxation=False, free_cycling=False),
    **{f"k{k}_none": dict(k=k, priority="none", relaxation=False) for k in (0, 1, 2)},
    **{f"k{k}_strict": dict(k=k, priority="strict", relaxation=False) for k in (0, 1)},
    # and without the pass classes (the rest of a pass between forced cards as one state)
    **{f"k{k}_none_nofree": dict(k=k, priority="none", relaxation=False, free_cycling=False) for k in (1, 2)},
    "k1_strict_nofree": dict(k=1, priority="strict", relaxation=False, free_cycling=False),
    # the stuck tests cut finite-k lines as well (the hand of the last pass is a second stock)
    **{f"k{k}_none_nostuck": dict(k=k, priority="none", relaxation=False, stuck_prune=False) for k in (0, 1, 2)},
    "k0_strict_nostuck": dict(k=0, priority="strict", relaxation=False, stuck_prune=False),
    # and with it (the default)
    "lit_inf_strict_relaxed": dict(k=None, priority="strict"),
    "k0_strict_relaxed": dict(k=0, priority="strict"),
}


@pytest.fixture(scope="module")
def outcomes():
    """Outcome per seed and variant (None = unresolved within the budget)."""
    table = {}
    for seed in SEEDS:
        pos = rb.SoloPosition.deal(seed)
        for name, kw in VARIANTS.items():
            r = pos.solve(budget=BUDGET, tt_bits=16, **kw)
            table[seed, name] = None if r.outcome == "unresolved" else r.outcome == "win"
    return table


def decided(outcomes, a, b):
    return [s for s in SEEDS if outcomes[s, a] is not None and outcomes[s, b] is not None]


# F3: more redeals never lose a deal; strict never wins where none loses. Small k is rarely
# decided within a small budget (as in the pilot, §13), so those pairs check fewer deals.
@pytest.mark.parametrize("weaker, stronger, at_least", [
    ("k0_none", "k1_none", 3), ("k1_none", "k2_none", 1), ("k2_none", "lit_inf_none", 3),
    ("k0_strict", "k1_strict", 3), ("k0_strict", "k0_none", 30), ("k1_strict", "k1_none", 3),
    ("lit_inf_strict", "lit_inf_none", 30), ("lit_inf_strict", "open", 40), ("k0_none", "open", 25),
])
def test_metamorphic_inclusions(outcomes, weaker, stronger, at_least):
    both = decided(outcomes, weaker, stronger)
    assert len(both) >= at_least
    assert [s for s in both if outcomes[s, weaker] and not outcomes[s, stronger]] == []


def test_the_last_pass_decides_every_deal_without_redeals(outcomes):
    # After the last redeal a discarded card can never leave the waste, so every discard of the
    # last pass ends the line: SOLO(0, π) is "play every hand card as it comes", a small search
    # (without that cut, about half of these deals stayed unresolved within 10^5 nodes).
    for name in ("k0_none", "k0_strict"):
        assert all(outcomes[s, name] is not None for s in SEEDS)


def test_unlimited_redeals_are_decided_both_ways(outcomes):
    for name in ("open", "lit_inf_strict"):
        values = [outcomes[s, name] for s in SEEDS]
        assert values.count(True) >= 50 and values.count(False) >= 2


# F1 (open pool = literal model under none), D1 and D3 against the plain search (§10.5, §10.9)
@pytest.mark.parametrize("a, b, at_least", [
    ("open", "lit_inf_none", 30), ("open", "open_plain", 30), ("open_plain", "open_nodom", 30),
    ("open", "open_nodom", 30), ("open", "open_nostuck", 30), ("lit_inf_strict", "lit_inf_strict_nostuck", 30),
    ("k0_none", "k0_none_nostuck", 30), ("k0_strict", "k0_strict_nostuck", 30),
    ("k1_none", "k1_none_nostuck", 30), ("k2_none", "k2_none_nostuck", 20),
    ("lit_inf_none", "lit_inf_none_nofree", 30), ("lit_inf_strict", "lit_inf_strict_nofree", 30),
    ("k1_none", "k1_none_nofree", 50), ("k2_none", "k2_none_nofree", 25), ("k1_strict", "k1_strict_nofree", 60),
    ("lit_inf_strict_relaxed", "lit_inf_strict", 30), ("k0_strict_relaxed", "k0_strict", 30)])
def test_models_and_dominances_agree(outcomes, a, b, at_least):
    both = decided(outcomes, a, b)
    assert len(both) >= at_least
    assert [s for s in both if outcomes[s, a] != outcomes[s, b]] == []


def test_free_cycling_decides_more_deals_in_the_literal_model(outcomes):
    # The same budget goes further when the hand positions between forced cards are one state:
    # the whole round with unlimited redeals, the rest of a pass with a finite k.
    for name in ("lit_inf_none", "lit_inf_strict"):
        count = {v: sum(outcomes[s, v] is not None for s in SEEDS) for v in (name, name + "_nofree")}
        assert count[name] > count[name + "_nofree"], count
    count = {v: sum(outcomes[s, n + v] is not None for s in SEEDS for n in ("k1_none", "k2_none", "k1_strict"))
             for v in ("", "_nofree")}
    assert count[""] > count["_nofree"], count


def test_the_relaxation_decides_the_open_pool_losses(outcomes):
    # The relaxation's open-pool search is the "open" variant's: its every loss is a strict loss.
    for name in ("lit_inf_strict_relaxed", "k0_strict_relaxed"):
        assert all(outcomes[s, name] is False for s in SEEDS if outcomes[s, "open"] is False)
    # and among them deals the literal search alone leaves unresolved
    assert any(outcomes[s, "lit_inf_strict"] is None and outcomes[s, "lit_inf_strict_relaxed"] is False
               for s in SEEDS)


def test_the_committed_headline_run_is_reproduced(tmp_path):
    # The store of the headline run travels with the repository: its quickest stored shard must
    # come out the same. (Since 0.8.15 the run is not resumed: the open-pool search may differ
    # from 0.4.0's once its table is full, which the hardest of its deals reach.)
    import sqlite3
    from pathlib import Path
    from analyzer.runner import run_shard
    from analyzer.store import Store, config_from_json, unpack_counters
    committed = Path(__file__).resolve().parent.parent / "reports" / "russian_bank-headline.sqlite"
    copy = tmp_path / "headline.sqlite"
    # immutable: read the file as committed, without the -wal/-shm files a live run would add
    with sqlite3.connect(f"file:{committed}?mode=ro&immutable=1", uri=True) as source, \
            sqlite3.connect(copy) as target:
        source.backup(target)
    with Store(copy) as store:
        config = config_from_json(store.get(1, with_counters=False).config)
        with pytest.raises(ValueError, match="made by kozyr 0.4.0"):
            store.config(1)
        shard, blob = store._db.execute(
            "SELECT shard, counters FROM shards WHERE run_id = 1 ORDER BY seconds LIMIT 1").fetchone()
    assert (config.deals, config.rule_options["node_budget"]) == (1_000_000, 30_000_000)
    stored = unpack_counters(blob)
    again = run_shard(config, shard)
    # the kernel has counted the squares of the nodes since 0.8.12; everything else is as stored
    assert set(again) - set(stored) == {"node_sumsq"} and set(stored) <= set(again)
    assert all(np.array_equal(stored[k], again[k]) for k in stored)


def test_solo_analysis_adds_up_across_shards():
    config = RunConfig(game="russian_bank", analysis="solo", rules="default", deals=60, seed=3,
                       overrides=dict(foundation_priority="none", node_budget=5000), shard_size=20)
    one = run(config, workers=1, progress=False).counters
    two = run(config, workers=2, progress=False).counters
    for key in one:
        assert np.array_equal(one[key], two[key])
    assert one["outcome"].sum() == 60 == one["nodes_hist"].sum()
    table = rb.solvability_table(one, "x")
    assert table.ci_low[0] <= table.proven_solvable[0] <= table.ci_high[0]


def test_mean_nodes_interval_from_the_exact_sum_of_squares():
    # The shard's node sums are those of the same layouts solved one by one, and its squares,
    # kept in 31-bit limbs, add up to the exact sum of the squares (budgets of 10^5 make some
    # squares span two limbs); the table's interval is the normal one around the mean.
    from analyzer._core import russian_bank as core
    options = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False,
                   budget=100_000, tt_bits=17)
    counters = core.solo_shard(np.random.PCG64(5), 40, options)
    solver = core.SoloSolver(17)
    nodes = []
    for pack in core.solo_deal_stream(np.random.PCG64(5), 40):
        solver.deal(pack)
        nodes.append(solver.solve(open_pool=True, d3=True, budget=100_000)["nodes"])
    assert max(nodes) ** 2 >= 1 << 31 and all(0 <= limb < 1 << 31 for limb in counters["node_sumsq"][:-1])
    assert counters["node_sum"][0] == sum(nodes)
    assert core.exact_square_sum(counters["node_sumsq"]) == sum(v * v for v in nodes)
    table = rb.solvability_table(counters, "x")
    half = 1.959964 * np.std(nodes, ddof=1) / np.sqrt(len(nodes))
    assert table.mean_nodes[0] == round(np.mean(nodes))
    assert abs(table.nodes_ci_high[0] - (np.mean(nodes) + half)) <= 1
    assert abs(table.nodes_ci_low[0] - max(np.mean(nodes) - half, 0)) <= 1
    # a run stored before the squares were counted shows its mean alone
    older = {k: v for k, v in counters.items() if k != "node_sumsq"}
    table = rb.solvability_table(older, "x")
    assert table.mean_nodes[0] == round(np.mean(nodes)) and np.isnan(table.nodes_ci_low[0])


def test_ladder_stages_equal_runs_with_smaller_budgets():
    # §10.7 ladder read off one run: the search is deterministic, so the deals resolved within
    # 10^k nodes are exactly those a run with budget 10^k - 1 resolves, with the same outcomes.
    from analyzer._core import russian_bank as core
    options = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False, tt_bits=16)
    big = core.solo_shard(np.random.PCG64(11), 60, dict(options, budget=20_000))
    ladder = rb.ladder_table(big, 20_000)
    for k in (2, 3, 4):
        small = core.solo_shard(np.random.PCG64(11), 60, dict(options, budget=10 ** k - 1))
        stage = ladder[ladder.node_budget == 10 ** k].iloc[0]
        assert (stage.won, stage.lost, stage.unresolved) == tuple(int(x) for x in small["outcome"])
    assert ladder.unresolved.is_monotonic_decreasing


def test_ladder_is_a_lower_bound_with_the_relaxation():
    # With the open-pool search first, a deal's nodes add two searches that each have the budget:
    # a stage never shows a deal decided that a run with that budget leaves open, nor the other outcome.
    from analyzer._core import russian_bank as core
    options = dict(k=None, strict=True, open_pool=False, dominance=True, d3=True, tempo=False, tt_bits=16,
                   relaxation=True)
    big = core.solo_shard(np.random.PCG64(11), 60, dict(options, budget=20_000))
    ladder = rb.ladder_table(big, 20_000)
    short = 0
    for k in (2, 3, 4):
        small = core.solo_shard(np.random.PCG64(11), 60, dict(options, budget=10 ** k - 1))["outcome"]
        stage = ladder[ladder.node_budget == 10 ** k].iloc[0]
        assert stage.won <= small[0] and stage.lost <= small[1]
        short += int(small[0] + small[1] - stage.won - stage.lost)
    assert short > 0                  # the lower bound is not exact here (else the test shows nothing)
    assert not rb.ladder_is_exact(rb.resolve("default")) and rb.ladder_is_exact(rb.resolve(
        "default", dict(foundation_priority="none")))


def test_solo_kernel_matches_single_position_solver():
    # The first layout of a shard is the first pack deal_packs draws from the same bit generator.
    from analyzer._core import russian_bank as core
    options = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False, budget=5000,
                   tt_bits=16)
    names = ("win", "loss", "unresolved")
    seen = set()
    for seed in range(30):
        counters = core.solo_shard(np.random.PCG64(seed), 1, options)
        d = core.deal_packs(np.random.PCG64(seed))[0]
        pos = rb.SoloPosition(stock=d[12::-1], houses=[[c] for c in d[13:17]], foundations=[0] * 4,
                              hand=d[:16:-1], waste=[])
        outcome = pos.solve(None, "none", budget=5000, tt_bits=16).outcome
        assert names[int(np.argmax(counters["outcome"]))] == outcome
        seen.add(outcome)
    assert {"win", "loss"} <= seen


def test_stored_solo_run_shows_its_tables(tmp_path, capsys):
    # `kozyr runs show` prints the analysis's own tables (solvability, ladder) of a stored run,
    # computed from the stored counters, as the solo command does when it runs.
    import json
    from analyzer.cli import main
    path = str(tmp_path / "s.sqlite")
    args = ["--deals", "40", "--seed", "5", "--set", "node_budget=3000", "--store", path]
    assert main(["russian_bank", "solo", *args]) == 0
    printed = capsys.readouterr().out
    assert main(["runs", "show", "1", "--store", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    won, lost, unresolved = data["counters"]["outcome"]
    solvability = data["tables"]["SOLO solvability"][0]
    assert (solvability["won"], solvability["lost"], solvability["unresolved"]) == (won, lost, unresolved)
    # the default rules search the literal model after the open pool: the ladder says it is a lower bound
    ladder = data["tables"]["escalation ladder (the same deals with smaller budgets; lower bounds: a deal "
                            "counts both searches' nodes)"]
    assert [row["node_budget"] for row in ladder] == [100, 1000, 3000]
    assert (ladder[-1]["won"], ladder[-1]["unresolved"]) == (won, unresolved)
    assert main(["runs", "show", "1", "--store", path]) == 0
    shown = capsys.readouterr().out
    assert "SOLO solvability (40 deals):" in shown and "escalation ladder" in shown
    assert printed.splitlines()[-1] in shown          # the ladder's last row, as the solo command printed it


def test_report_shows_the_headline_run_kept_beside_it(tmp_path):
    # The long headline run lives in its own store in the report folder; the report reads it
    # (all its deals so far, and how to resume it) and leaves it alone when there is none.
    from analyzer.cli import main
    from analyzer.report import ReportContext
    from analyzer.store import Store
    assert rb.headline_section(ReportContext(seed=1, out_dir=tmp_path)) is None
    path = tmp_path / rb.HEADLINE_STORE
    assert main(["russian_bank", "solo", "--deals", "60", "--seed", "7", "--shard-size", "20", "--set",
                 "foundation_priority=none", "--set", "node_budget=2000", "--set", "tt_bits=16",
                 "--store", str(path)]) == 0
    complete = rb.headline_section(ReportContext(seed=1, out_dir=tmp_path))
    assert "on all 60 deals of a run (" in complete.text and "complete." in complete.text
    assert "resume" not in complete.text and "so far" not in complete.text
    assert "has no interval" not in complete.text          # this version counts the nodes' squares
    assert complete.tables[0][1].nodes_ci_low.notna().all()
    with Store(path) as store:        # cut it short, as an interrupted run is
        store._db.execute("DELETE FROM shards WHERE shard = 2")
        store._refresh(store._db, 1)
        counters = store.get(1).counters
    section = rb.headline_section(ReportContext(seed=1, out_dir=tmp_path))
    assert section.title == "Russian Bank: the headline run (40 deals)"
    assert "first 40 deals of a run of 60" in section.text and "kozyr run resume 1" in section.text
    assert "Time so far" in section.text
    solvability = section.tables[0][1]
    expected = rb.solvability_table(counters, "SOLO(∞, none)")
    assert solvability.equals(expected) and int(solvability.deals[0]) == 40


def test_report_shows_the_longer_variant_runs_kept_beside_it(tmp_path):
    # Longer runs of the other variants live in a store of their own in the report folder: one
    # row a run in the report's order, with its configuration, its ladder, and for a run cut
    # short how to resume it; no store, no section.
    from analyzer.cli import main
    from analyzer.report import ReportContext
    from analyzer.store import Store
    assert rb.variants_section(ReportContext(seed=1, out_dir=tmp_path)) is None
    path = tmp_path / rb.VARIANTS_STORE
    for k, priority, deals in (("1", "none", 30), ("unlimited", "strict", 40)):
        assert main(["russian_bank", "solo", "--deals", str(deals), "--seed", "7", "--shard-size", "10",
                     "--set", f"redeal_limit={k}", "--set", f"foundation_priority={priority}",
                     "--set", "node_budget=3000", "--set", "tt_bits=16", "--store", str(path)]) == 0
    with Store(path) as store:        # cut the second run short, as an interrupted run is
        store._db.execute("DELETE FROM shards WHERE run_id = 2 AND shard = 3")
        store._refresh(store._db, 2)
        counters = {run: store.get(run).counters for run in (1, 2)}
    section = rb.variants_section(ReportContext(seed=1, out_dir=tmp_path))
    table = section.tables[0][1]
    assert table.game.tolist() == ["SOLO(∞, strict)", "SOLO(1, none)"]
    assert table.run.tolist() == [2, 1] and table.deals.tolist() == [30, 30]
    assert (table.node_budget == 3000).all() and (table.seed == "7").all() and (table.tt_bits == 16).all()
    for row, run, label in ((0, 2, "SOLO(∞, strict)"), (1, 1, "SOLO(1, none)")):
        expected = rb.solvability_table(counters[run], label)
        assert table.loc[[row], expected.columns].reset_index(drop=True).equals(expected)
    assert "run 1, SOLO(1, none): complete" in section.text
    assert f"30 of 40 deals so far, resumable with `kozyr run resume 2 --store {path}`" in section.text
    ladder = section.tables[1][1]
    last = ladder.groupby("game", sort=False).tail(1)
    assert last.game.tolist() == table.game.tolist() and (last.node_budget == 3000).all()
    assert last.unresolved.tolist() == table.unresolved.tolist()


def test_the_committed_variant_runs_are_this_versions_results(tmp_path):
    # The longer variant runs travel with the repository: this version must give their numbers
    # (its store accepts them for resuming), so the report does not show another search's counts.
    import sqlite3
    from pathlib import Path
    from analyzer.store import Store
    committed = Path(__file__).resolve().parent.parent / "reports" / rb.VARIANTS_STORE
    copy = tmp_path / "variants.sqlite"
    with sqlite3.connect(f"file:{committed}?mode=ro&immutable=1", uri=True) as source, \
            sqlite3.connect(copy) as target:
        source.backup(target)
    with Store(copy) as store:
        runs = store.runs()
        assert runs
        for r in runs:
            config = store.config(r.id)                 # raises for another version's search
            assert r.status == "complete" and r.deals_done == config.deals
            # the report's seed and shard size: the runs start with the report's own layouts
            assert (config.game, config.seed, config.shard_size) == ("russian_bank", 2026, rb.SOLO_SHARD)


def test_a_headline_run_without_squares_gets_the_batch_means_interval(tmp_path):
    # The committed headline run was made before the kernel counted the nodes' squares: its mean
    # nodes a deal takes the interval of the ratio of the shards' node sums to their deals.
    from analyzer.cli import main
    from analyzer.report import ReportContext
    from analyzer.store import Store, pack_counters, unpack_counters
    from analyzer.stats import norm
    path = tmp_path / rb.HEADLINE_STORE
    assert main(["russian_bank", "solo", "--deals", "62", "--seed", "7", "--shard-size", "2", "--set",
                 "foundation_priority=none", "--set", "node_budget=2000", "--set", "tt_bits=16",
                 "--store", str(path)]) == 0
    with Store(path) as store:                  # as an old version would have stored it
        for shard, blob in store._db.execute("SELECT shard, counters FROM shards WHERE run_id = 1").fetchall():
            counters = unpack_counters(blob)
            del counters["node_sumsq"]
            store._db.execute("UPDATE shards SET counters = ? WHERE run_id = 1 AND shard = ?",
                              (pack_counters(counters), shard))
        store._refresh(store._db, 1)
        deals, sums = store.shard_values(1, "node_sum")
        merged = store.get(1).counters
    assert "node_sumsq" not in merged
    assert deals.tolist() == [2] * 31 and sums[:, 0].sum() == merged["node_sum"][0]
    section = rb.headline_section(ReportContext(seed=1, out_dir=tmp_path))
    assert "a ratio over its 31 shards (batch means)" in section.text
    table = section.tables[0][1]
    # the same as the residuals of the shard sums about the ratio, by hand
    x, d = sums[:, 0].astype(float), deals.astype(float)
    ratio = x.sum() / d.sum()
    half = norm.ppf(0.975) * np.sqrt(((x - ratio * d) ** 2).sum() / 30 / 31) / d.mean()
    assert table.mean_nodes[0] == round(ratio)
    assert (table.nodes_ci_low[0], table.nodes_ci_high[0]) == (round(ratio - half), round(ratio + half))


def test_deals_are_unresolved_only_at_the_node_budget():
    # Deal 84 of shard 76 of the headline's stream (seed 2026) reaches a position with more than
    # 1,024 D3 moves (chains of pool cards onto an empty house). A move list cut short there made
    # its complete search no proof of the loss, so it was "unresolved" after ~10^4 nodes, and no
    # budget could decide it. The move list now holds every move (SOLO_MAX_MOVES is a bound), so a
    # deal is unresolved only when it used the whole budget (the budget's decade of the histogram).
    from analyzer._core import russian_bank as core
    from analyzer.runner import shard_bit_generators
    rules = rb.resolve("default", dict(foundation_priority="none", node_budget=100_000, tt_bits=20))
    counters = core.solo_shard(shard_bit_generators(2026, 76, 1)[0], 85, rb._solo_options(rb.check_rules(rules)))
    unresolved = counters["nodes_hist"][2]
    assert unresolved[:5].sum() == 0 and unresolved[5] == counters["outcome"][2]


def replay_literal(pos, steps, k, strict):
    """Play a winning line of the literal model in the slow reference game (every action checked
    legal there, strict filter included); returns the reference game at the end."""
    from russian_bank_blind_reference import DISCARD, HAND, HOUSE, STOCK, SoloGame
    from russian_bank_reference import rank, suit
    game = SoloGame(pos.stock, pos.houses, pos.hand, pos.waste, pos.foundations, k=k, strict=strict)
    game.redeals = pos.redeals
    sources = {"stock": STOCK, "hand": HAND, "cycled": HAND, "forward": HAND, **{f"h{h}": HOUSE + h for h in range(4)}}
    discarded = [None]

    def discard():
        discarded[0] = game.hand[-1]
        game.apply(DISCARD)

    def turn_until(done):
        # free cycling (k = ∞): discard round the hand; a pass class (finite k): discard on in
        # this pass, never into the next
        redeals = game.redeals
        for _ in range(len(game.hand) + len(game.waste) + 1):
            if done():
                return
            assert k is None or game.hand and game.redeals == redeals, "a pass class went past its pass"
            discard()
        raise AssertionError("the hand never came round")

    for source, card, target, pool, turned, home, redeals in steps:
        assert not pool                       # chains of pool cards belong to the open pool
        assert (source == "cycled") <= (k is None) and (source == "forward") <= (k is not None)
        if source in ("cycled", "forward"):
            turn_until(lambda: game.hand and game.hand[-1] == card)
        if turned >= 0:                       # the move is made with the hand just past that card
            turn_until(lambda: discarded[0] == turned)
        if source is not None:                # None: the cards that go home at the start
            src = sources[source]
            assert dict(game.sources()).get(src) == card, (source, card)
            if target == "pass":              # the rest of the pass discarded: the waste turned over
                assert k is not None and game.redeals < k
                before = game.redeals
                while game.redeals == before:
                    discard()
            elif target == "waste":
                discard()
            else:
                game.apply(src * 8 + ("F", "h0", "h1", "h2", "h3").index(target))
        left = list(home)                     # the cards that went home by themselves, in any order
        while left:
            playable = [(s, c) for s, c in game.sources() if c in left and game.found[suit(c)] == rank(c)]
            assert playable, (left, game.sources())
            game.apply(playable[0][0] * 8)
            left.remove(playable[0][1])
    return game


@pytest.mark.parametrize("k,priority", [(None, "none"), (None, "strict"), (2, "none"), (3, "strict")])
def test_a_winning_line_is_played_out_move_by_move(k, priority):
    # The line the search returns with a win, replayed in the reference game (literal model) or
    # in the open pool (SOLO(∞, none)): every move legal, every card home at the end.
    from test_russian_bank_hindsight import OpenPool
    wins = 0
    for seed in range(25):
        pos = rb.SoloPosition.deal(seed)
        result = pos.solve(k, priority, budget=100_000, line=True)
        if result.outcome != "win":
            assert result.line is None
            continue
        wins += 1
        solver_line = _solver_line(pos, k, priority)
        assert rb._line_text(solver_line, k) == result.line
        if result.model == "open_pool":
            game = OpenPool(pos._core_dict())             # it plays the cards of the start itself
            assert solver_line[0][0] is None
            for i, (source, card, target, pool, turned, home, redeals) in enumerate(solver_line[1:], 1):
                before = {13 * s + r for s in range(4) for r in range(game.found[s])}
                game.play(source, card, target, pool, len(game.stock))
                went = {13 * s + r for s in range(4) for r in range(game.found[s])} - before
                went -= set(pool) | {card} if target == "F" else set()
                # the search stops at the win (stock and pool empty): house cards may stay out
                assert set(home) == went if i < len(solver_line) - 1 else set(home) <= went
                assert redeals == 0 and turned == -1
            assert game.cards_left() == 0
        else:
            game = replay_literal(pos, solver_line, k, priority == "strict")
            assert game.cards_left() == 0
    assert wins >= (5 if k is not None else 10)


@pytest.mark.parametrize("k,priority,seed", [(3, "none", 6), (5, "strict", 25)])
def test_a_stock_or_house_move_made_further_on_in_a_pass_replays(k, priority, seed):
    # A pass class (finite k) makes a stock or house move at its first hand position, or just
    # past a hand card that the move lets go home by itself (that card is then discarded first
    # and stays on the waste). These two wins have such a move: replayed in the reference game,
    # the hand is discarded on within its pass, never into the next.
    pos = rb.SoloPosition.deal(seed)
    steps = _solver_line(pos, k, priority)
    assert any(turned >= 0 for _, _, _, _, turned, _, _ in steps)
    assert any(target == "pass" for _, _, target, _, _, _, _ in steps)
    assert replay_literal(pos, steps, k, priority == "strict").cards_left() == 0
    assert any("discarded on just past" in line for line in pos.solve(k, priority, budget=100_000, line=True).line)


@pytest.mark.parametrize("k,priority", [(None, "strict"), (5, "none")])
def test_the_guided_game_wins_deals_the_search_leaves_unresolved(k, priority):
    # With the relaxation, a deal the open pool wins and the literal search leaves unresolved is
    # played out with the open-pool search as its guide (solo_decide). The search is the same
    # with and without the relaxation, so a deal unresolved without it and won with it was won by
    # the guided game: its line must be a legal game of SOLO(k, π) in the reference, every card
    # home, and a larger budget must never prove it lost.
    from analyzer._core import russian_bank as core
    budget, guided = 100_000, 0
    for seed in range(45):
        pos = rb.SoloPosition.deal(seed)
        if pos.solve(k, priority, budget=budget, relaxation=False).outcome != "unresolved":
            continue
        solver = core.SoloSolver(18)
        solver.set_position(pos._core_dict())
        result = solver.solve(k, priority == "strict", False, True, False, budget, True, True, True, True, True)
        if result["outcome"] != "win":
            assert result["line"] is None
            continue
        guided += 1
        assert result["nodes"] > budget          # the search's own budget was spent first
        assert replay_literal(pos, result["line"], k, priority == "strict").cards_left() == 0
        assert pos.solve(k, priority, budget=10 * budget).outcome != "loss"
    assert guided >= 4


def _solver_line(pos, k, priority):
    from analyzer._core import russian_bank as core
    solver = core.SoloSolver(18)
    solver.set_position(pos._core_dict())
    model = rb._solo_model("auto", k, priority, False)
    return solver.solve(k, priority == "strict", model == "open_pool", True, False, 100_000, True, True, True, True,
                        True)["line"]
