"""Constrained deals (analyzer/constrained.py) and piquet's use of them: validation, the dealer's
uniformity, the predicate language, exact conditional odds, reproducibility across workers."""
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analyzer import constrained
from analyzer.cards import PIQUET32
from analyzer.constrained import Sampler, compile_where, popcount, resolve
from analyzer.games import piquet
from analyzer.runner import RunConfig, run, shard_bit_generators
from analyzer.store import Store, config_from_json, run_stored
from analyzer.strategies import register

LAYOUT = piquet.LAYOUT
RULES = piquet.GAME.resolve_rules("ru_seed")
ACES = constrained.constants(PIQUET32)["aces"]
ELDER = "AS KS QS JS TS 9S AH KH QH AD KD AC"            # 4 aces, a sixième, 8 courts


def younger_two_aces(hands):
    """A vectorised predicate, given by import path in the tests below."""
    return popcount(hands["younger"] & ACES) >= 2


def not_a_mask(hands):
    return [True]


def config(deals=12_000, seed=5, analysis="declarations", shard_size=3_000, **constraint):
    return RunConfig(game="piquet", analysis=analysis, rules="ru_seed", deals=deals, seed=seed,
                     shard_size=shard_size, constraint=constraint)


# ---------------------------------------------------------------------------------------------
# Validation

@pytest.mark.parametrize("spec, message", [
    ({"elder": "AS XS"}, "malformed card"),
    ({"elder": "AS 6S"}, "not in the 32-card piquet pack"),
    ({"elder": "AS 2H"}, "not in the 32-card piquet pack"),
    ({"elder": "AS AS"}, "duplicate card"),
    ({"elder": "AS", "talon": "as"}, "given twice: in elder and in talon"),
    ({"talon": "AS KS QS JS TS 9S 8S 7S AH"}, "9 cards fixed for talon, who holds only 8"),
    ({"elder": " ".join(PIQUET32.cards[:13])}, "13 cards fixed for elder"),
    ({"dealer": "AS"}, "unknown constraint key 'dealer'"),
    ({"where": "import os"}, "cannot parse"),
    ({"where": "__import__('os').system('true')"}, "the only functions are count"),
    ({"where": "younger.bit_length() > 3"}, "the only functions"),
    ({"where": "count(younger.real) > 3"}, "not allowed"),
    ({"where": "[x for x in ()]"}, "not allowed"),
    ({"where": "count(younger & aces)"}, "is a number, not a condition"),
    ({"where": "count(dealer) > 1"}, "unknown name 'dealer'"),
    ({"where": "count(younger & 'AS 6S') > 1"}, "not in the 32-card piquet pack"),
    ({"where": "younger > 3"}, "compare numbers"),
    ({"where": "count(2) > 1"}, "expected a card set"),
    ({"where": "count(younger) > 99999999999999999999"}, "the number 99999999999999999999 is out of range"),
    ({"where": "no_such_module_xyz:f"}, "--where predicate 'no_such_module_xyz:f': cannot import"),
    ({"where": 3}, "'where' must be an expression"),
    ({"where": lambda hands: hands}, "must be importable"),
    ("AS KS", "a constraint is a mapping"),
])
def test_bad_constraints_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve(LAYOUT, spec)


def test_analyses_without_constrained_deals_say_so():
    with pytest.raises(ValueError, match="piquet partie does not take constrained deals"):
        RunConfig(game="piquet", analysis="partie", rules="ru_seed", deals=10, seed=1, constraint={"elder": "AS"})


def test_constraint_is_canonical_and_stored(tmp_path):
    a = config(elder="ks,AS 7d", where=" count(younger & aces) >= 1")
    b = config(elder="AS KS 7D", where="count(younger & aces) >= 1")
    assert a == b and a.resolved()["constraint"] == {"elder": "AS KS 7D", "where": "count(younger & aces) >= 1"}
    assert "constraint" not in config().resolved()          # old stored runs keep their keys
    with Store(tmp_path / "s.sqlite") as store:
        run_stored(a, store, workers=1)
        run_id = store.find(b)
        assert run_id is not None and store.config(run_id) == a
    assert config_from_json(json.loads(json.dumps(a.resolved()))) == a


def test_predicate_must_return_one_bool_per_deal():
    sampler = Sampler(LAYOUT, resolve(LAYOUT, {"where": "test_constrained:not_a_mask"}))
    with pytest.raises(ValueError, match="must return one bool per deal"):
        sampler.deal(shard_bit_generators(1, 0, 1)[0], 10)


def test_a_predicate_that_accepts_almost_nothing_is_an_error():
    with pytest.raises(ValueError, match="accepts almost no deals"):
        run(config(deals=100, where="count(younger & aces) == 4 and count(elder & kings) == 4"))


@pytest.mark.parametrize("given, message", [
    (np.zeros((2, 32), np.uint8), "permutation of the 32 cards"),
    (np.tile(np.arange(32), (2, 1)), "uint8 array of shape"),
    (np.tile(np.arange(32, dtype=np.uint8), (3, 1)), r"shape \(2, 32\)"),
])
def test_kernels_refuse_malformed_given_packs(given, message):
    from analyzer._core import piquet as core

    with pytest.raises(ValueError, match=message):
        core.declarations_shard(shard_bit_generators(1, 0, 1)[0], 2, RULES, given=given)


# ---------------------------------------------------------------------------------------------
# The dealer

def test_fixed_cards_stay_and_the_rest_is_a_permutation():
    spec = resolve(LAYOUT, {"elder": "AS KS 7D", "younger": "AH", "talon": "TC JC"})
    sampler = Sampler(LAYOUT, spec)
    rows, candidates = sampler.deal(shard_bit_generators(3, 0, 1)[0], 5_000)
    assert candidates == 5_000 and rows.shape == (5_000, 32)
    assert (np.sort(rows, axis=1) == np.arange(32)).all()
    masks = sampler.masks(rows)
    for seat, cards in spec.items():
        m = PIQUET32.mask(cards)
        assert ((masks[seat] & m) == m).all()
    assert (popcount(masks["elder"]) == 12).all() and (popcount(masks["talon"]) == 8).all()


def test_fixed_talon_cards_land_anywhere_in_the_talon():
    # the talon's order matters (elder draws its top 5): a fixed talon card must be uniform over
    # the 8 places, and the free cards uniform over the rest of the pack
    from scipy.stats import chisquare

    sampler = Sampler(LAYOUT, resolve(LAYOUT, {"talon": "AS", "elder": "7C"}))
    rows, _ = sampler.deal(shard_bit_generators(4, 0, 1)[0], 40_000)
    place = np.argmax(rows[:, 24:] == PIQUET32.bit("AS"), axis=1)
    assert chisquare(np.bincount(place, minlength=8)).pvalue > 1e-4
    # a free card is uniform over the 30 free places: slots 1-23, and 7 of the 8 talon places
    where_ks = np.argmax(rows == PIQUET32.bit("KS"), axis=1)
    counts = np.bincount(where_ks, minlength=32)
    expected = np.r_[np.full(23, 1 / 30), np.full(8, 7 / 8 / 30)] * len(rows)
    assert counts[0] == 0 and chisquare(counts[1:], expected).pvalue > 1e-4


def test_the_predicate_keeps_exactly_the_deals_it_accepts_at_the_hypergeometric_rate():
    sampler = Sampler(LAYOUT, resolve(LAYOUT, {"where": "count(younger & aces) >= 2"}))
    rows, candidates = sampler.deal(shard_bit_generators(6, 0, 1)[0], 30_000)
    assert (popcount(sampler.masks(rows)["younger"] & ACES) >= 2).all()
    exact = 1 - (comb(28, 12) + 4 * comb(28, 11)) / comb(32, 12)
    rate = 30_000 / candidates
    assert abs(rate - exact) < 4 * np.sqrt(exact * (1 - exact) / candidates)


@pytest.mark.parametrize("expression, check", [
    ("'AS KS' in younger", lambda m: (m["younger"] & PIQUET32.mask("AS KS")) == PIQUET32.mask("AS KS")),
    ("'AS' not in talon and longest(elder) >= 5", lambda m: ((m["talon"] & PIQUET32.mask("AS")) == 0)
     & (np.maximum.reduce([popcount(m["elder"] & (0xFF << 8 * s)) for s in range(4)]) >= 5)),
    ("2 <= count(elder & (aces | kings)) - 1 < 4", lambda m: np.isin(popcount(m["elder"] & (ACES | ACES >> 1)), (3, 4))),
    ("not (younger & spades) or count(~younger - talon) == 12", lambda m: np.ones(len(m["elder"]), bool)),
    ("count(elder ^ younger) == 24 and elder - elder == younger & elder", lambda m: np.ones(len(m["elder"]), bool)),
    ("younger & 'AS'", lambda m: (m["younger"] & PIQUET32.mask("AS")) != 0),
    # a part, or the whole, that reads no hand holds for every deal alike
    ("count(elder & aces) >= 2 or 1", lambda m: np.ones(len(m["elder"]), bool)),
    ("count(elder & aces) >= 2 and count('AS') == 1", lambda m: popcount(m["elder"] & ACES) >= 2),
    ("1 == 2 or 'AS' in elder", lambda m: (m["elder"] & PIQUET32.mask("AS")) != 0),
    ("1 == 1", lambda m: np.ones(len(m["elder"]), bool)),
])
def test_expressions_mean_what_they_say(expression, check):
    sampler = Sampler(LAYOUT, {})
    rows, _ = sampler.deal(shard_bit_generators(7, 0, 1)[0], 2_000)
    masks = sampler.masks(rows)
    assert (compile_where(expression, LAYOUT)(masks) == check(masks)).all()


# ---------------------------------------------------------------------------------------------
# Piquet: exact conditional odds and the runs

def test_exact_enumeration_matches_hypergeometric_values():
    hand = "AS KS QS JS TS 9S 8S 7S KH QH JH TH"            # all spades, 6 of the 12 courts
    ex = piquet.exact_constrained({"elder": hand}, RULES)
    n = int(ex["deals"][0])
    assert n == comb(20, 12)                                 # younger: any 12 of the 20 free cards
    # carte blanche: younger's 12 avoid the 6 free courts
    assert Fraction(int(ex["carte_blanche"][1]), n) == Fraction(comb(14, 12), comb(20, 12))
    # a huitième: all 8 diamonds or all 8 clubs (and 4 more of the other 12)
    assert int(ex["seq_len"][1, 8]) == 2 * comb(12, 4)
    # no rank T..A has all four cards free; younger never holds a spade
    assert ex["quatorzes"][1, 1:].sum() == 0 and ex["void_suit"][1] == n
    # elder's own hand is fixed: its events are 0 or 1
    assert ex["seq_len"][0, 8] == n and ex["four_aces"][0] == 0


def test_exact_enumeration_honours_the_predicate():
    ex = piquet.exact_constrained({"elder": ELDER, "where": "count(younger & clubs) >= 6"}, RULES)
    free_clubs = 7
    expected = sum(comb(free_clubs, k) * comb(13, 12 - k) for k in range(6, 8))
    assert int(ex["deals"][0]) == expected
    assert piquet.exact_constrained({"talon": "AS"}, RULES) is None       # nothing enumerable


def test_monte_carlo_given_elder_agrees_with_the_exact_conditional_odds():
    constraint = {"elder": ELDER}
    result = run(config(deals=200_000, shard_size=50_000, **constraint), workers=2)
    table = piquet.odds_table(result.counters, RULES, exact_counters=piquet.exact_constrained(constraint, RULES))
    rates = table[table.event != "mean declaration total"]
    se = np.sqrt(rates.exact * (1 - rates.exact) / rates.n)
    assert rates.exact.notna().all()
    assert (abs(rates.estimate - rates.exact) <= 4.5 * se + 1e-12).all()
    assert result.counters["candidates"][0] == 200_000


@pytest.mark.parametrize("where", ["count(younger & aces) >= 2", "test_constrained:younger_two_aces",
                                   register("two_aces_registered", younger_two_aces)])
def test_same_seed_same_result_with_any_workers(where):
    base = dict(deals=9_000, shard_size=2_000, analysis="deal", elder="AS KS", talon="7H", where=where)
    one = run(config(**base), workers=1)
    two = run(config(**base), workers=3)
    for key in one.counters:
        assert np.array_equal(one.counters[key], two.counters[key]), key
    assert one.counters["deals"][0] == 9_000 and one.counters["candidates"][0] > 9_000
    if not where.startswith("python:"):      # registered objects live in this process only
        procs = run(config(**base), workers=2, backend="processes")
        assert all(np.array_equal(one.counters[k], procs.counters[k]) for k in one.counters)
    other = run(config(**{**base, "seed": 6}), workers=1)
    assert not np.array_equal(one.counters["total_hist"], other.counters["total_hist"])


def test_a_fixed_hand_changes_the_deal_outcomes():
    # elder keeps his four aces (he refuses the exchange): he scores the sets on every deal
    def deal_run(**constraint):
        return run(RunConfig(game="piquet", analysis="deal", rules="ru_seed", deals=4_000, seed=2,
                             strategies={"elder_exchange": "refuse"}, constraint=constraint))
    sets = piquet.CATEGORIES.index("sets")
    assert deal_run(elder=ELDER).counters["category_winner"][sets, 1] == 4_000
    assert deal_run().counters["category_winner"][sets, 1] < 3_000


def test_cli_given_hand_prints_exact_conditional_odds(tmp_path):
    # run from a scratch folder (not the source tree, which has no compiled modules when the package
    # is installed) with a scratch store
    where = dict(cwd=tmp_path, env=dict(os.environ, KOZYR_STORE=str(tmp_path / "store.sqlite")))
    out = subprocess.run([sys.executable, "-m", "analyzer", "piquet", "odds", "--elder", ELDER, "--deals", "20000",
                          "--workers", "2", "--json", "--no-store"], capture_output=True, text=True, check=True,
                         **where)
    data = json.loads(out.stdout)
    assert data["run"]["constraint"] == {"elder": ELDER}
    rows = {(r["event"], r["player"]): r for r in data["table"]}
    assert rows[("four aces", "elder")]["exact"] == 1.0
    assert 0 < rows[("carte blanche", "younger")]["exact"] < 0.01
    given = ["piquet", "odds", "--younger", "AS", "--where", "count(elder & aces) == 0", "--deals", "3000", "--no-exact"]
    stored = subprocess.run([sys.executable, "-m", "analyzer", *given], capture_output=True, text=True, check=True,
                            **where)
    assert "# given: where count(elder & aces) == 0; younger AS; 3,000 deals accepted of" in stored.stdout
    run_id = json.loads(subprocess.run([sys.executable, "-m", "analyzer", *given, "--json"], capture_output=True,
                                       text=True, check=True, **where).stdout)["run"]["run_id"]
    show = subprocess.run([sys.executable, "-m", "analyzer", "runs", "show", str(run_id)], capture_output=True,
                          text=True, check=True, **where)
    assert re.search(r'constraint +\{"where": "count\(elder & aces\) == 0", "younger": "AS"\}', show.stdout)
    bad = subprocess.run([sys.executable, "-m", "analyzer", "piquet", "deals", "--younger", "AS", "--talon", "AS",
                          "--no-store"], capture_output=True, text=True, **where)
    assert bad.returncode == 2 and "given twice: in talon and in younger" in bad.stderr


def test_given_packs_play_exactly_like_the_kernels_own_deals():
    # with nothing fixed the dealer shuffles the pack exactly as deal_shard does (the same
    # Fisher–Yates on the same stream), so playing its packs must give the same counters
    from analyzer._core import piquet as core

    strategies = piquet.GAME.analysis("deal").resolve_strategies({"younger_play": "random"})
    rows, _ = Sampler(LAYOUT, {}).deal(shard_bit_generators(9, 0, 3)[0], 3_000)
    given = core.deal_shard(shard_bit_generators(9, 0, 3), 3_000, RULES, strategies, given=rows)
    own = core.deal_shard(shard_bit_generators(9, 0, 3), 3_000, RULES, strategies)
    for key in own:
        assert np.array_equal(given[key], own[key]), key


def test_python_strategies_play_constrained_deals_like_the_compiled_ones():
    def counters(play):
        return run(RunConfig(game="piquet", analysis="deal", rules="ru_seed", deals=300, seed=1, shard_size=100,
                             strategies={"elder_play": play},
                             constraint={"elder": "AS KS QS", "where": "count(younger & aces) >= 1"}), workers=2).counters
    python, compiled = counters("python:piquet_python_greedy:GreedyPlayer"), counters("greedy")
    assert all(np.array_equal(python[k], compiled[k]) for k in compiled)
