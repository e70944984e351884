"""Mariáš strategies chosen by name per decision: trump choice (longest, z_lidu, oracle), discard
(heuristic, low_cards), contract (heuristic, bold, cautious) and doubling (none, heuristic with
re-raises). No strategy may change the deals: each draws only from its own stream."""
from math import comb

import numpy as np
import pytest

from analyzer._core import marias as core
from analyzer.cards import MARIAS32
from analyzer.games.marias import GAME, contracts_table
from analyzer.runner import RunConfig, run

OPTIONS = GAME.resolve_rules("seed")
DEAL_ONLY = ("fh_hlas", "hand10_hlas", "fh_kq_spades", "hand10_kq_spades", "def_hlas", "fh_at")


def gens(seed=5):
    return [np.random.PCG64(seed), np.random.PCG64(seed + 1), np.random.PCG64(seed + 2)]


def natural(n, strategies, **overrides):
    return core.natural_deals(gens(), n, dict(OPTIONS, **overrides), strategies)


@pytest.mark.parametrize("strategies", [{"trump_choice": "z_lidu"}, {"trump_choice": "oracle"},
                                        {"discard": "low_cards"}, {"actor_play": "random"}])
def test_forced_runs_meet_the_same_deals(strategies):
    base = core.stovka_shard(gens(), 20_000, OPTIONS, {})
    other = core.stovka_shard(gens(), 20_000, OPTIONS, strategies)
    for key in DEAL_ONLY:
        assert np.array_equal(base[key], other[key]), key


@pytest.mark.parametrize("strategies", [{"trump_choice": "z_lidu"}, {"discard": "low_cards"}, {"contract": "bold"},
                                        {"contract": "cautious"}, {"doubling": "none"}])
@pytest.mark.parametrize("protocol", ["V", "L"])
def test_natural_runs_meet_the_same_deals(strategies, protocol):
    base = natural(300, {"doubling": "heuristic"}, protocol=protocol)
    other = natural(300, dict({"doubling": "heuristic"}, **strategies), protocol=protocol)
    assert [d["order"] for d in base] == [d["order"] for d in other]


def test_discard_strategies():
    # trumps S (indicator 8S); diamonds J 9 (short), clubs 7 8 Q K T A (long, with the hlas)
    hand = MARIAS32.mask("AS TS 8S AH JD 9D 7C 8C QC KC TC AC")
    pick = lambda name: set(MARIAS32.from_mask(core.discard_of(hand, 0, MARIAS32.bit("8S"), OPTIONS, {"discard": name})))
    assert pick("heuristic") == {"JD", "9D"}          # a void in diamonds
    assert pick("low_cards") == {"7C", "8C"}          # the lowest cards, keeping J and 9 of diamonds
    # never an A/T, the indicator, the trump 7 or (while others exist) a hlas card
    for name in ("heuristic", "low_cards"):
        for seed in range(300):
            rng = np.random.default_rng(seed)
            h12 = [MARIAS32.cards[i] for i in rng.choice(32, 12, replace=False)]
            trump = int(rng.integers(4))
            trumps = [c for c in h12 if c[1] == "SHDC"[trump]]
            if not trumps:
                continue
            talon = MARIAS32.from_mask(core.discard_of(MARIAS32.mask(h12), trump, MARIAS32.bit(trumps[0]), OPTIONS,
                                                       {"discard": name}))
            assert len(talon) == 2 and set(talon) <= set(h12)
            assert not any(c[0] in "AT" or c == trumps[0] or c == "7" + "SHDC"[trump] for c in talon)


def test_contract_strategies_gate_stovka_as_documented():
    shares = {}
    for name in ("bold", "heuristic", "cautious"):
        deals = natural(6000, {"contract": name, "doubling": "none"})
        stovka = [d for d in deals if d["game"] in ("stovka", "sto_a_sedem")]
        shares[name] = len(stovka) / len(deals)
        for d in stovka:
            hand = MARIAS32.from_mask(d["hands"][d["actor"]])
            trump = "SHDC"[d["trump"]]
            ntr = sum(c[1] == trump for c in hand)
            hlas = [s for s in "SHDC" if "K" + s in hand and "Q" + s in hand]
            at = sum(c[0] in "AT" for c in hand)
            assert hlas and ntr >= 4
            if name == "cautious":
                assert trump in hlas and "A" + trump in hand and ntr >= 6 and at >= 5
            if name == "heuristic":
                assert ntr >= 5 and (trump in hlas and at >= 4 or at >= 6)
    assert shares["bold"] > shares["heuristic"] > shares["cautious"]


def test_doubling_reraises_within_the_cap():
    deals = natural(20_000, {"doubling": "heuristic"})
    top = [max(max(k) for k in d["k"]) for d in deals]
    assert max(top) >= 2 and max(top) <= OPTIONS["max_doublings"]       # re-raises happen
    assert all(max(max(k) for k in d["k"]) <= 1 for d in natural(5000, {"doubling": "heuristic"}, max_doublings=1))
    assert all(max(max(k) for k in d["k"]) == 0 and d["proti_by"] < 0 for d in natural(2000, {"doubling": "none"}))
    for d in deals:                                                      # who raises what (§4.1, §4.2)
        hra, sedma, main, proti = d["k"][0]
        if d["game"] in ("maly", "velky"):
            assert d["k"][0] == [0, 0, 0, 0]
        if d["game"] != "sedma":
            assert sedma == 0
        if d["game"] not in ("hra", "sedma"):
            assert hra == 0
        if d["game"] in ("hra", "sedma"):
            assert main == 0
        if proti:
            assert d["proti_by"] >= 0


def test_oracle_tries_every_suit_of_the_twelve_cards():
    # filter "all" with hopeless Stovkas allowed: every suit present is one trial, so the trials
    # per deal average 4 (1 - P(a given suit is missing from 12 cards)), exactly
    deals = 100_000
    result = run(RunConfig("marias", "stovka_all", "seed", deals=deals, seed=3, shard_size=50_000,
                           strategies={"trump_choice": "oracle"}, overrides={"allow_hopeless_stovka": True}))
    exact = 4 * (1 - comb(24, 12) / comb(32, 12))
    mean = result.counters["qualified"][0] / deals
    sd = np.sqrt(4 * 0.25)                                    # a generous bound on the per-deal sd
    assert abs(mean - exact) < 4.5 * sd / np.sqrt(deals)
    # one-card trump suits are tried too
    assert result.counters["by_hlas_trumps"][0, :, 1].sum() > 0
    with pytest.raises(ValueError, match="oracle"):
        core.stovka_shard(gens(), 10, OPTIONS, {"trump_choice": "oracle"}, "natural")


def test_unknown_strategy_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown marias strategy 'greedy' for discard"):
        core.stovka_shard(gens(), 10, OPTIONS, {"discard": "greedy"})


def test_contract_strategies_in_the_game_analysis():
    tables = {name: contracts_table(run(RunConfig("marias", "game", "seed", deals=40_000, seed=9, shard_size=20_000,
                                                  strategies={"contract": name})).counters)
              for name in ("bold", "cautious")}
    share = {name: t.set_index("contract").share.get("stovka", 0.0) for name, t in tables.items()}
    assert share["bold"] > 3 * share["cautious"]


def _deal_planes(counters, name):
    """What one deal alone adds to <name>_clusters: [t > 0, t^2, x t, x^2] per cell, t its trials in
    the cell (in the row, for a distribution) and x their successes, sum of S or count."""
    table = counters[name]
    if name.endswith("_hist"):                 # a distribution: one row (count_hist) or one a contract
        x = table.reshape(-1, table.shape[-1])
        t = np.broadcast_to(x.sum(axis=1, keepdims=True), x.shape)
        return np.stack([x > 0, (x > 0) * t * t, x * t, x * x]).reshape(4, *table.shape)
    if name == "qualified":
        t, x = table, counters["success"]
    elif name in ("money", "paired"):
        t, x = table[:, 0], table[:, 1]
    elif name == "companion":
        t, x = table[:, 1], table[:, 0]
    else:
        t, x = table[0], table[1]
    return np.stack([t > 0, t * t, x * t, x * x])


@pytest.fixture(scope="module")
def oracle_deals():
    """400 given deals under trump_choice oracle: the batch's counters and each deal's alone."""
    rng = np.random.default_rng(11)
    packs = np.array([rng.permutation(32) for _ in range(400)], dtype=np.uint8)
    oracle = {"trump_choice": "oracle"}
    batch = core.stovka_shard(gens(), len(packs), OPTIONS, oracle, given=packs)
    alone = [core.stovka_shard(gens(), 1, OPTIONS, oracle, given=packs[i:i + 1]) for i in range(len(packs))]
    return packs, batch, alone


def test_oracle_clusters_are_the_deals_sums_of_their_trials(oracle_deals):
    # each deal played alone gives its trials t and their sum x in every cell; the clusters of the
    # batch must be the sums over the deals of [t > 0, t^2, x t, x^2] (the heuristic play is
    # deterministic, so the deals alone add up to the batch)
    packs, batch, alone = oracle_deals
    for name in core.CLUSTERED:
        assert np.array_equal(sum(a[name] for a in alone), batch[name]), name
        expected = sum(_deal_planes(a, name) for a in alone)
        assert np.array_equal(batch[name + "_clusters"], expected), name
        # deals with several trials in one cell (or row) are common
        assert (expected[1] > expected[0]).any(), name
    # one trial a deal keeps no clusters
    assert not core.stovka_shard(gens(), len(packs), OPTIONS, {}, given=packs)["by_at_clusters"].any()


def _clustered_rate(t, x):
    """The interval of sum x / sum t over the deals (t trials, x successes a deal), by hand: the
    ratio estimator's variance over the binomial one, or the worst case where the deals cannot tell."""
    from analyzer.stats import wilson
    t, x = t[t > 0].astype(float), x[t > 0].astype(float)
    n, s, deals = t.sum(), x.sum(), len(t)
    p = s / n
    if s in (0, n):
        deff = n / deals
    elif deals < 30:
        deff = (t * t).sum() / n
    else:
        ratio_var = ((x - p * t) ** 2).sum() / (deals - 1) / deals / (n / deals) ** 2
        deff = ratio_var / (p * (1 - p) / n)
    low, high = wilson(s / deff, n / deff)
    return deff, float(low), float(high)


def test_oracle_intervals_are_those_of_the_deals(oracle_deals):
    from analyzer.games.marias import stovka_tables
    from scipy.stats import norm

    _, batch, alone = oracle_deals
    tables = stovka_tables(batch)
    per_deal = lambda name: np.stack([a[name] for a in alone])
    by_at, tried = tables["by A+T held"].set_index("a_plus_t"), per_deal("by_at")
    kinds = set()
    for at, row in by_at.iterrows():
        deff, low, high = _clustered_rate(tried[:, 0, at], tried[:, 1, at])
        assert row.deals == (tried[:, 0, at] > 0).sum() and row.n > row.deals
        assert (row.design_effect, row.ci_low, row.ci_high) == pytest.approx((deff, low, high), rel=1e-9)
        kinds.add("worst" if row.deals < 30 or row.successes in (0, row.n) else "estimated")
    assert kinds == {"worst", "estimated"}
    companion, tried = tables["companion rates"], per_deal("companion")
    for i, row in companion.iterrows():
        deff, low, high = _clustered_rate(tried[:, i, 1], tried[:, i, 0])
        assert (row.design_effect, row.ci_low, row.ci_high) == pytest.approx((deff, low, high), rel=1e-9)
    # money: the ratio of the deals' sums of S to their trials, the interval over the deals
    money, tried = tables["money"].set_index("contract"), per_deal("money")
    for i, contract in enumerate(core.S_ROWS):
        t, x = tried[:, i, 0], tried[:, i, 1]
        t, x = t[t > 0].astype(float), x[t > 0].astype(float)
        mean = x.sum() / t.sum()
        half = norm.ppf(0.975) * np.sqrt(((x - mean * t) ** 2).sum() / (len(t) - 1) / len(t)) / t.mean()
        row = money.loc[contract]
        assert (row.trials, row.deals) == (t.sum(), len(t)) and len(t) >= 30
        assert (row.mean_S_in_B, row.ci_low, row.ci_high) == pytest.approx((mean, mean - half, mean + half), rel=1e-9)
    # a distribution: a value's trials over the contract's trials, deal by deal
    settled, hists = tables["settlement distribution"], per_deal("s_hist")
    stovka = settled[settled.contract == core.S_ROWS[0]]
    for _, row in stovka.iterrows():
        column = row.S + core.S_OFFSET
        deff, low, high = _clustered_rate(hists[:, 0].sum(axis=1), hists[:, 0, column])
        assert (row.design_effect, row.ci_low, row.ci_high) == pytest.approx((deff, low, high), rel=1e-9)


def test_a_doubling_by_either_defender_binds_both():
    # §4.2 and §9 A2: a doubling said by either defender counts for both defenders' payments, so
    # by default both settle the same counters; under flek_per_defender each defender's raise binds
    # only him, while the sedma proti counter (the actor against its announcer) stays shared.
    shared = natural(5000, {"doubling": "heuristic"})
    assert sum(max(d["k"][0]) > 0 for d in shared) > 100
    assert all(d["k"][0] == d["k"][1] for d in shared)
    own = natural(5000, {"doubling": "heuristic"}, flek_per_defender=True)
    assert any(d["k"][0] != d["k"][1] for d in own)
    assert all(d["k"][0][3] == d["k"][1][3] for d in own)


def test_discard_never_lays_down_the_trump_indicator():
    # §3.3c: the trump indicator goes back into the hand and may not be discarded, even when the
    # only other cards allowed in the talon are trumps and hlas cards (A/T and the trump 7 are never
    # allowed). Trumps spades, indicator 8S: the two cheapest allowed cards are then 9S and JS.
    hand = MARIAS32.mask("8S 9S JS QS KS AS TS AH TH AD TD AC")
    # with the 7S, only 9S, QS and KS remain allowed: 9S and (breaking the hlas) the QS
    seven = MARIAS32.mask("7S 8S 9S QS KS AS TS AH TH AD TD AC")
    for name in ("heuristic", "low_cards"):
        pick = lambda h: set(MARIAS32.from_mask(core.discard_of(h, 0, MARIAS32.bit("8S"), OPTIONS, {"discard": name})))
        assert pick(hand) == {"9S", "JS"}, name
        assert pick(seven) == {"9S", "QS"}, name
