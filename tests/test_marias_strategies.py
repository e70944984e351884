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


def _trials_and_values(counters, name):
    """A trial table's (trials, successes or sum of S) per cell, as its <name>_clusters indexes them."""
    table = counters[name]
    if name == "qualified":
        return table, counters["success"]
    if name in ("money", "paired"):
        return table[:, 0], table[:, 1]
    if name == "companion":
        return table[:, 1], table[:, 0]
    return table[0], table[1]


def test_oracle_clusters_are_the_deals_sums_of_their_trials():
    # each deal played alone gives its trials t and their sum x in every cell; the clusters of the
    # batch must be the sums over the deals of [t > 0, t^2, x t, x^2] (the heuristic play is
    # deterministic, so the deals alone add up to the batch)
    rng = np.random.default_rng(11)
    packs = np.array([rng.permutation(32) for _ in range(300)], dtype=np.uint8)
    oracle = {"trump_choice": "oracle"}
    batch = core.stovka_shard(gens(), len(packs), OPTIONS, oracle, given=packs)
    alone = [core.stovka_shard(gens(), 1, OPTIONS, oracle, given=packs[i:i + 1]) for i in range(len(packs))]
    several = 0
    for name in core.CLUSTERED:
        assert np.array_equal(sum(a[name] for a in alone), batch[name]), name
        expected = np.zeros_like(batch[name + "_clusters"])
        for a in alone:
            t, x = _trials_and_values(a, name)
            expected += np.stack([t > 0, t * t, x * t, x * x])
            several += int((t > 1).sum())
        assert np.array_equal(batch[name + "_clusters"], expected), name
    assert several > 1000                      # deals with several trials in one cell are common
    # one trial a deal keeps no clusters
    assert not core.stovka_shard(gens(), 300, OPTIONS, {}, given=packs)["by_at_clusters"].any()


def test_oracle_intervals_count_a_deals_trials_once_where_the_deals_cannot_tell():
    from analyzer.games.marias import stovka_tables
    from analyzer.stats import wilson

    counters = core.stovka_shard(gens(), 4000, OPTIONS, {"trump_choice": "oracle"})
    by_at = stovka_tables(counters)["by A+T held"].set_index("a_plus_t")
    clusters = counters["by_at_clusters"]
    for at, row in by_at.iterrows():
        assert row.deals == clusters[0, at] and row.n == counters["by_at"][0, at]
        if row.deals < 30 or row.successes in (0, row.n):       # worst case: a deal's trials as one
            assert row.design_effect == pytest.approx(row.n / row.deals)
        low, high = wilson(row.successes / row.design_effect, row.n / row.design_effect)
        assert (row.ci_low, row.ci_high) == pytest.approx((float(low), float(high)))
    assert (by_at.n > by_at.deals).all()                    # several suits a deal in every cell
    no_success = by_at[by_at.successes == 0]
    assert len(no_success) and (no_success.ci_high > wilson(0, no_success.n)[1]).all()
