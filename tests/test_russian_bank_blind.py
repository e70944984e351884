"""Blind play of the Russian Bank SOLO game (rules/russian_bank.md §9.2 "Blind play", G1 of §10.6):
the compiled player against the slow reference game by game, the §11.3 vectors, and what must
hold between blind and thoughtful play (a blind win is a winning line; more redeals keep wins)."""
import numpy as np
import pytest

from analyzer._core import russian_bank as core
from analyzer.games import russian_bank as rb
from analyzer.runner import RunConfig, run, shard_bit_generators
from russian_bank_blind_reference import SoloGame
from test_russian_bank_solo import VECTORS

ENDS = ("running", "win", "stuck", "cycle")
N_DEALS = 300


def shard_rows(seed, n, k):
    rows = np.zeros((n, 4), dtype=np.int32)
    counters = core.blind_shard(np.random.PCG64(seed), n, dict(k=k, policy="greedy"), rows=rows)
    return rows, counters


# G1 wins no deal with k = 0 and about 1 in 10^5 with k = 1 (about 5 % with k = 3), so k = 3 is here
# for the finite-k wins.
@pytest.mark.parametrize("k", [0, 1, 3, None])
@pytest.mark.parametrize("priority", ["none", "strict"])
def test_kernel_matches_reference_game_by_game(k, priority):
    # The shard's layouts are the packs of solo_deal_stream; the reference deals them itself and
    # plays G1 from its list of legal actions (strict filter included), checking every action.
    seed = 17 if k is None else 5 + (k or 0)
    rows, counters = shard_rows(seed, N_DEALS, k)
    packs = core.solo_deal_stream(np.random.PCG64(seed), N_DEALS)
    ends = []
    for i, pack in enumerate(packs):
        ref = SoloGame.deal(pack, k=k, strict=priority == "strict")
        played = ref.play()
        ends.append(ref.end)
        assert (ENDS[rows[i, 0]], rows[i, 1], rows[i, 2], rows[i, 3]) == (
            ref.end, ref.actions, ref.cards_left(), ref.redeals), f"deal {i}"
        if i < 40:   # the actions themselves, through the single-position entry point
            start = SoloGame.deal(pack)
            piles = dict(stock=start.stock, houses=start.houses, hand=start.hand, waste=[], foundations=[0] * 4)
            assert core.blind_game(piles, k)["played"] == played
    assert counters["outcome"].tolist() == [ends.count(e) for e in ("win", "stuck", "cycle")]
    assert counters["cards_left_hist"].sum() == N_DEALS == counters["redeals_hist"].sum()
    assert counters["actions"][0] == rows[:, 1].sum()
    assert counters["actions_sumsq"][0] == (rows[:, 1].astype(np.int64) ** 2).sum()
    assert counters["redeals"][0] == rows[:, 3].sum()
    assert counters["redeals_sumsq"][0] == (rows[:, 3].astype(np.int64) ** 2).sum()
    # the table's means carry the normal interval of the per-game values
    table = rb.blind_table(counters).set_index("event")
    for event, values in (("mean actions per game", rows[:, 1]), ("mean cards left", rows[:, 2]),
                          ("mean cards left when lost", rows[rows[:, 0] != 1, 2]), ("mean redeals", rows[:, 3])):
        values = values.astype(float)
        if values.size < 2:
            continue
        half = 1.959964 * values.std(ddof=1) / np.sqrt(values.size)
        assert table.loc[event, "estimate"] == pytest.approx(values.mean())
        assert table.loc[event, "ci_low"] == pytest.approx(values.mean() - half, rel=1e-6, abs=1e-12)
        assert table.loc[event, "ci_high"] == pytest.approx(values.mean() + half, rel=1e-6, abs=1e-12)
    # a run stored before the sums of squares were counted: the same means, an interval only where
    # a histogram gives it (the redeals' last bin, which collects 63 and more, is empty here)
    old = rb.blind_table({k: v for k, v in counters.items() if not k.endswith("_sumsq") and k != "redeals"})
    old = old.set_index("event")
    assert np.isnan(old.loc["mean actions per game", "ci_low"])
    assert old.loc["mean actions per game", "estimate"] == table.loc["mean actions per game", "estimate"]
    assert counters["redeals_hist"][-1] == 0
    assert old.loc["mean redeals"].tolist() == pytest.approx(table.loc["mean redeals"].tolist(), nan_ok=True)
    # the way of losing that k allows occurs, and G1 wins some deals where it can
    assert ends.count("stuck" if k is not None else "cycle") > N_DEALS // 2
    if k in (3, None):
        assert ends.count("win") >= 5


def test_shard_deals_the_solvers_layouts():
    # solo_deal_stream gives the layouts solo_shard searches: the same outcomes deal by deal.
    options = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False, budget=3000,
                   tt_bits=16)
    packs = core.solo_deal_stream(np.random.PCG64(4), 25)
    names = ("win", "loss", "unresolved")
    ours = [rb.SoloPosition(stock=d[12::-1], houses=[[c] for c in d[13:17]], foundations=[0] * 4, hand=d[:16:-1],
                            waste=[]).solve(None, "none", budget=3000, tt_bits=16).outcome for d in packs]
    theirs = core.solo_shard(np.random.PCG64(4), 25, options)["outcome"]
    assert [ours.count(n) for n in names] == theirs.tolist()
    for i in range(1, 6):   # deal by deal: the shard on the first i - 1 and i layouts of the stream
        one_more = core.solo_shard(np.random.PCG64(4), i, options)["outcome"] - \
            core.solo_shard(np.random.PCG64(4), i - 1, options)["outcome"]
        assert names[int(np.argmax(one_more))] == ours[i - 1]


# §11.3 vectors played by G1. What it does follows from the rules by hand: S3 is forced (one card
# home per pass), S5 is the deal where thoughtful play under 'none' covers 7H with 6S at once but
# G1 sends 7H home first and loses as under strict; S6 it wins by 7H onto 8S, then 6S onto 7H.
BLIND_VECTORS = {
    # name: (won for these k (None = ∞), actions when won)
    "S1": (lambda k: True, 1),
    "S2": (lambda k: False, None),
    "S3": (lambda k: k is None or k >= 6, 30),        # 2 stock cards, 7 hand cards, 21 discards
    "S4": (lambda k: True, 9),
    "S5": (lambda k: False, None),
    "S6": (lambda k: k is None or k >= 1, 26),
}


@pytest.mark.parametrize("name", BLIND_VECTORS)
@pytest.mark.parametrize("k", [0, 1, 5, 6, None])
def test_vectors(name, k):
    pos = VECTORS[name]
    result = pos.play_blind(k)
    wins, actions = BLIND_VECTORS[name]
    assert result.won == wins(k)
    if result.won:
        assert result.actions == actions and result.cards_left == 0
    else:
        assert result.end == ("cycle" if k is None else "stuck") and result.cards_left > 0
    for priority in ("none", "strict"):
        ref = SoloGame(pos.stock, pos.houses, pos.hand, pos.waste, pos.foundations, k=k, strict=priority == "strict")
        ref.play()
        assert (ref.end, ref.actions, ref.cards_left(), ref.redeals) == (
            result.end, result.actions, result.cards_left, result.redeals)
    if result.won and name in ("S3", "S6"):   # a blind win is a thoughtful win
        assert pos.solve(k, "strict", model="literal").outcome == "win"


def test_cycle_is_one_turn_of_the_hand_and_waste():
    # S2 with part of the hand already on the waste: with k = ∞ the game ends after exactly
    # hand + waste discards (one turn of the cyclic order), with k = 3 when the redeals are used.
    pos = rb.SoloPosition.from_piles("0 13 13 13", "AS 2S", ["KS", "QS", "JS", "TS"], hand="3S 4S 5S", waste="6S 7S 8S 9S")
    r = pos.play_blind(None)
    assert (r.end, r.actions, r.redeals, r.cards_left) == ("cycle", 7, 1, 9)
    assert r.moves == ["DISCARD"] * 7
    r = pos.play_blind(3)
    assert (r.end, r.actions, r.redeals) == ("stuck", 3 + 3 * 7, 3)


def test_moves_read_as_text():
    r = VECTORS["S6"].play_blind(None)
    assert r.moves[:4] == ["hand→h0", "stock→h0", "stock→F", "hand→F"]


@pytest.fixture(scope="module")
def by_k():
    return {k: shard_rows(23, N_DEALS, k)[0] for k in (0, 1, 2, 3, 4, None)}


def test_more_redeals_keep_blind_wins(by_k):
    # G1 ignores the redeal count, so with k + 1 redeals it plays the same game as with k until the
    # k-game runs out of redeals; a k-game cannot win after that (its waste is dead), so every win
    # with k is the same win (same actions, same redeals) with k + 1 and with k = ∞.
    order = (0, 1, 2, 3, 4, None)
    for weaker, stronger in zip(order, order[1:]):
        won = by_k[weaker][:, 0] == 1
        assert (by_k[stronger][won] == by_k[weaker][won]).all()
    assert (by_k[None][:, 0] == 1).sum() > (by_k[3][:, 0] == 1).sum() > 0


@pytest.mark.parametrize("k, priority, model", [(None, "none", "open_pool"), (None, "strict", "literal"),
                                                 (3, "none", "literal"), (3, "strict", "literal")])
def test_blind_win_is_never_a_solver_loss(k, priority, model):
    # A blind win is a legal winning line (G1's moves are legal under both priorities), so the
    # thoughtful solver can never prove the same layout lost (§9.2: W_σ ≤ W_thoughtful).
    solve = dict(k=k, strict=priority == "strict", open_pool=model == "open_pool", dominance=True, d3=True,
                 tempo=False, budget=20_000, tt_bits=16)
    c = core.blind_shard(np.random.PCG64(31), N_DEALS, dict(k=k, policy="greedy", solve=solve))
    paired = c["paired"]
    assert paired.sum() == N_DEALS and paired[0].sum() == c["outcome"][0]
    assert paired[0, 1] == 0
    assert paired[0, 0] > 0 and paired[1, 1] > 0      # the test has wins and solver losses to look at


def test_paired_solver_column_is_the_solo_analysis():
    # blind_paired decides the layouts solo_shard decides from the same stream, with the same result
    solve = dict(k=None, strict=False, open_pool=True, dominance=True, d3=True, tempo=False, budget=5000, tt_bits=16)
    paired = core.blind_shard(np.random.PCG64(8), 80, dict(k=None, policy="greedy", solve=solve))["paired"]
    assert paired.sum(axis=0).tolist() == core.solo_shard(np.random.PCG64(8), 80, solve)["outcome"].tolist()


def test_blind_analysis_runs_and_adds_up():
    config = RunConfig(game="russian_bank", analysis="blind", rules="default", deals=600, seed=3,
                       overrides=dict(foundation_priority="none"), shard_size=200, strategies=dict(player="greedy"))
    one = run(config, workers=1, progress=False).counters
    two = run(config, workers=2, progress=False).counters
    for key in one:
        assert np.array_equal(one[key], two[key])
    # the run's counters are the kernel's on the shards' dealing streams, added up
    direct = [core.blind_shard(shard_bit_generators(3, i, 1)[0], 200, dict(k=None, policy="greedy")) for i in range(3)]
    for key in one:
        assert np.array_equal(one[key], sum(d[key] for d in direct))
    table = rb.blind_table(one, "g")
    win = table[table.event == "win"].iloc[0]
    assert win.n == 600 and win.ci_low < win.estimate < win.ci_high
    assert table[table.event.str.startswith("lost")]["count"].sum() + win["count"] == 600


def test_paired_analysis_table():
    config = RunConfig(game="russian_bank", analysis="blind_paired", rules="default", deals=100, seed=5,
                       overrides=dict(foundation_priority="none", node_budget=10_000, tt_bits=16), shard_size=50)
    counters = run(config, workers=1, progress=False).counters
    table = rb.paired_table(counters, "g").set_index("event")
    assert table.loc["blind wins the solver lost (must be 0)", "count"] == 0
    assert table.loc["solver won", "count"] + table.loc["solver lost", "count"] + \
        table.loc["solver unresolved", "count"] == 100


def test_bad_input():
    with pytest.raises(ValueError, match="blind SOLO policy"):
        VECTORS["S1"].play_blind(None, "clever")
    for k in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="k must be"):
            VECTORS["S1"].play_blind(k)
    with pytest.raises(ValueError, match="redeal limit"):
        core.blind_shard(np.random.PCG64(1), 1, dict(k=-2, policy="greedy"))
    with pytest.raises(ValueError, match="strategy"):
        RunConfig(game="russian_bank", analysis="blind", rules="default", deals=10, seed=1,
                  strategies=dict(player="clever")).strategy_names
    with pytest.raises(ValueError, match="redeal_limit"):
        rb.resolve("default", dict(redeal_limit="-3"))
    config = RunConfig(game="russian_bank", analysis="blind_paired", rules="default", deals=10, seed=1,
                       overrides=dict(tempo=True), shard_size=10)
    with pytest.raises(ValueError, match="tempo"):
        run(config, workers=1, progress=False)


def test_cli(capsys):
    from analyzer.cli import main

    assert main(["russian_bank", "blind", "--deals", "300", "--no-store", "--workers", "1",
                 "--set", "redeal_limit=3", "--strategy", "player=greedy"]) == 0
    assert "greedy SOLO(3, strict)" in capsys.readouterr().out
    assert main(["russian_bank", "blind", "--paired", "--deals", "20", "--no-store", "--workers", "1",
                 "--set", "foundation_priority=none", "--set", "node_budget=1e4"]) == 0
    assert "blind won, of the solver's wins" in capsys.readouterr().out
    assert main(["russian_bank", "blind", "--deals", "5", "--no-store", "--strategy", "player=clever"]) == 2
    assert "clever" in capsys.readouterr().err
    assert main(["russian_bank", "blind", "--deals", "5", "--no-store", "--set", "redeal_limit=x"]) == 2
    assert "redeal_limit" in capsys.readouterr().err
