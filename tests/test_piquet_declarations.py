"""Piquet declarations: the vectors of rules/piquet.md §13.1, the exact probabilities of §14,
and the compiled kernel against the pure-Python reference in piquet_reference.py."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analyzer._core import core, piquet as kernel
from analyzer.cards import PIQUET32
from analyzer.games import get_game
from analyzer.games.piquet import (PRESETS, dealt_carte_blanche, exact_hand_counts, exact_hand_probabilities,
                                   exact_table, exact_uncontested, odds_table, score_declarations)
from analyzer.runner import RunConfig, run

import piquet_reference as ref

# (name, elder, younger, {preset: (elder total, younger total, elder repik, younger repik)},
#  {category: (elder, younger)} checked under ru_seed)
VECTORS = [
    ("TV1", "AS KS QS 9S 8S 7S AH KH AD 7C 8C 9C", "JH TH 9H 8H JS TS QD JD 9D 7D KC QC",
     {"ru_seed": (9, 14, 0, 0), "ru_seed_seq34": (9, 4, 0, 0), "classic": (9, 4, 0, 0)},
     {"point": (6, 0), "sequences": (0, 14), "sets": (3, 0)}),
    ("TV2", "AS KS 9S 8S 7S AD 7D AC 9C 8H 7H 8D", "AH QH JH TH 9H KD QD TD KC QC TC 9D",
     {"ru_seed": (3, 19, 0, 0), "ru_seed_seq34": (3, 9, 0, 0), "classic": (3, 9, 0, 0)},
     {"point": (0, 5), "sequences": (0, 14), "sets": (3, 0)}),
    ("TV3", "KS QS JS TS 9S 7S 7H 8H AD 8D 7C 9C", "KH QH JH TH 9H AS 8S KD QD 9D TC JC",
     {p: (6, 0, 0, 0) for p in PRESETS}, {"point": (6, 0), "sequences": (0, 0), "sets": (0, 0)}),
    ("TV4", "AS KS QS 9S 8S 7S AH KH AD 7C 8C 9C", "JH TH 9H 8H 7H JS TS QD JD 9D KC QC",
     {p: (9, 15, 0, 0) for p in PRESETS}, {"point": (6, 0), "sequences": (0, 15), "sets": (3, 0)}),
    ("TV5", "AS AH AD AC JS JH JD JC TS TH TD 7C", "KS KH KD KC QS QH QD QC TC 9S 9H 9D",
     {p: (34, 0, 1, 0) for p in PRESETS}, {"point": (3, 0), "sequences": (0, 0), "sets": (31, 0)}),
    ("TV6", "AS AH AD TS TH TC 8S 7S 8H 7H 8C JD", "KS KH KD QS QH QC 9S 9H 9D JC 8D 7C",
     {p: (10, 0, 0, 0) for p in PRESETS}, {"point": (4, 0), "sequences": (0, 0), "sets": (6, 0)}),
    ("TV7", "KS QS JS KH QH JH KD QD JD KC QC JC", "TS 9S 8S TH 9H 8H TD 9D 8D TC 9C 8C",
     {"ru_seed": (97, 10, 0, 0), "ru_seed_seq34": (57, 10, 0, 0), "classic": (57, 10, 0, 0)},
     {"carte_blanche": (0, 10), "point": (3, 0), "sequences": (52, 0), "sets": (42, 0)}),
    ("TV8", "AS KS QS JS TS 9S 8S 7S AH KH QH JH", "TH 9H 8H 7H TD 9D 8D 7D JC TC 9C 8C",
     {"ru_seed": (40, 3, 0, 0), "ru_seed_seq34": (30, 3, 0, 0), "classic": (30, 3, 1, 0)},
     {"point": (8, 0), "sequences": (32, 0), "sets": (0, 3)}),
    ("TV9", "QS JS TS 9S 8S QD JD TD QC JC TC 7H", "AH KH QH JH TH 9H AS AD AC KS KD KC",
     {p: (0, 50, 0, 1) for p in PRESETS}, {"point": (0, 6), "sequences": (0, 16), "sets": (0, 28)}),
    ("TV14", "AS KS QS JS 7S AD TD 8D AC TC 8C 7C", "AH KH QH JH 7H KD QD JD KC QC 9C TS",
     {p: (3, 0, 0, 0) for p in PRESETS}, {"point": (0, 0), "sequences": (0, 0), "sets": (3, 0)}),
]


@pytest.mark.parametrize("name,elder,younger,totals,categories", VECTORS, ids=[v[0] for v in VECTORS])
def test_rules_vectors(name, elder, younger, totals, categories):
    for preset, (e_total, y_total, e_repik, y_repik) in totals.items():
        r = score_declarations(elder, younger, rules=preset)
        assert (r.elder.total, r.younger.total) == (e_total, y_total), preset
        assert (r.elder.repik, r.younger.repik) == (bool(e_repik), bool(y_repik)), preset
    r = score_declarations(elder, younger, rules="ru_seed")
    for category, (e, y) in categories.items():
        assert (getattr(r.elder, category), getattr(r.younger, category)) == (e, y), category


def test_tv14_unchanged_without_pip_tiebreak():
    _, elder, younger, *_ = VECTORS[-1]
    r = score_declarations(elder, younger, point_tiebreak="none")
    assert (r.elder.total, r.younger.total) == (3, 0)


def test_point_tiebreak_option_changes_tv2():
    # TV2: 5 vs 5 cards decided by pips; without the pip tiebreak nobody scores the point.
    _, elder, younger, *_ = VECTORS[1]
    assert score_declarations(elder, younger).younger.point == 5
    assert score_declarations(elder, younger, point_tiebreak="none").younger.point == 0


TOTAL_HANDS = 225_792_840        # C(32,12)
RULES_14_1 = {                   # rules/piquet.md §14.1, by the names the engine gives the events
    "carte blanche": Fraction(323, 578956), "four aces": Fraction(99, 7192),
    "at least one quatorze": Fraction(3086855, 45158568), "at least two quatorzes": Fraction(2656, 5644821),
    "trio or quatorze": Fraction(25891703, 45158568),
    "point length >= 4": Fraction(3856399, 4032015), "point length >= 5": Fraction(1632779, 4032015),
    "point length >= 6": Fraction(58831, 806403), "point length >= 7": Fraction(363, 58435),
    "point length >= 8": Fraction(11, 58435),
    "sequence >= 3": Fraction(10385201, 16128060), "sequence >= 4": Fraction(11690771, 56448210),
    "sequence >= 5": Fraction(1904419, 37632140), "sequence >= 6": Fraction(389611, 37632140),
    "sequence >= 7": Fraction(99, 58435), "sequence >= 8": Fraction(11, 58435),
    "tierce major or better": Fraction(12895241, 75264280), "void suit": Fraction(14843, 310155),
}
# §14.3: hands with an uncontested value >= 10, 20, ..., 60 for 13/14 and for 3/4 sequence values
UNCONTESTED_AT_LEAST = {"ru_seed": [157896368, 102502191, 38789370, 3458956, 280068, 43836],
                        "classic": [113483698, 21825351, 876941, 34384, 379, 0]}
LEVELS = (10, 20, 30, 40, 50, 60)


def test_exact_probabilities_match_rules_file():
    p = exact_hand_probabilities()
    for event, value in RULES_14_1.items():
        assert p[event] == value, event


def test_exact_uncontested_matches_enumeration_of_rules_file():
    for preset, expected in UNCONTESTED_AT_LEAST.items():
        o = PRESETS[preset]
        hist = exact_uncontested(o["seq_values"], 10, 3, 14)
        assert hist.sum() == TOTAL_HANDS
        assert [int(hist[v:].sum()) for v in LEVELS] == expected


@pytest.mark.parametrize("preset,mean,maximum", [("ru_seed", Fraction(2007333857, 112896420), 97),
                                                 ("classic", Fraction(1173572357, 112896420), 57)])
def test_uncontested_mean_and_maximum_match_rules_file(preset, mean, maximum):
    hist = exact_uncontested(PRESETS[preset]["seq_values"], 10, 3, 14)
    assert Fraction(int((np.arange(hist.size) * hist).sum()), TOTAL_HANDS) == mean
    # the maximum is held by AKQ, KQJ and QJT in all four suits, three hands
    assert np.nonzero(hist)[0].max() == maximum and hist[maximum] == 3


def test_quatorze_count_distribution_matches_rules_file():
    # From the "at least one / two" fractions of §14.1; three quatorzes fill all 12 cards with three
    # of the five ranks T..A, so C(5,3) hands, the 4.43e-08 of the rules file.
    at_least_one = RULES_14_1["at least one quatorze"] * TOTAL_HANDS
    at_least_two = RULES_14_1["at least two quatorzes"] * TOTAL_HANDS
    three = comb(5, 3)
    expected = [TOTAL_HANDS - at_least_one, at_least_one - at_least_two, at_least_two - three, three]
    hist = exact_hand_counts(PRESETS["ru_seed"]["seq_values"])["quatorzes"]
    assert hist.tolist() == expected
    assert hist / TOTAL_HANDS == pytest.approx([0.93164409022, 0.0678853899885, 0.00047047550312, 4.42883839895e-08],
                                               rel=1e-10)


@pytest.mark.parametrize("preset", ["ru_seed", "classic"])
def test_exact_command_counts_match_rules_file(preset):
    # The table `kozyr piquet exact` prints: each count is the §14.1 fraction of all hands, or a
    # §14.3 count.
    table = exact_table(preset).set_index("event")
    assert table.attrs["hands"] == TOTAL_HANDS
    expected = {event: p * TOTAL_HANDS for event, p in RULES_14_1.items()}
    expected.update({f"uncontested value >= {v}": k for v, k in zip(LEVELS, UNCONTESTED_AT_LEAST[preset])})
    assert table["hands"].to_dict() == expected
    assert table["probability"].to_dict() == {event: Fraction(k, TOTAL_HANDS) for event, k in expected.items()}
    # the two counts §14.3 quotes
    assert (table.at["carte blanche", "hands"], table.at["at least one quatorze", "hands"]) == (125_970, 15_434_275)


def test_carte_blanche_in_either_hand():
    # §14.1: 323/289478, both hands blank being impossible; the odds table's "either" row counts the
    # deals with a blank hand.
    n = 50_000
    rows = np.zeros((n, 16), np.uint32)
    counters = kernel.declarations_shard(np.random.PCG64(13), n, _options("ru_seed"), rows=rows)
    table = odds_table(counters, _options("ru_seed"))
    row = table[(table.event == "carte blanche") & (table.player == "either")].iloc[0]
    assert row["exact"] == float(Fraction(323, 289478))
    blank = (rows[:, :2] & 0x70707070) == 0
    assert not blank.all(axis=1).any()
    assert row["count"] == blank.any(axis=1).sum() > 0
    # the carte blanche category is scored by the holder of the blank hand (nobody / elder / younger)
    assert counters["category_winner"][0].tolist() == [n - blank.sum(), blank[:, 0].sum(), blank[:, 1].sum()]
    assert blank[:, 1].any()


def _options(preset):
    return get_game("piquet").resolve_rules(preset)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_matches_reference_on_random_deals(preset, runslow):
    n = 20_000 if runslow else 10_000
    rows = np.zeros((n, 16), np.uint32)
    counters = kernel.declarations_shard(np.random.PCG64(7), n, _options(preset), rows=rows)
    names = kernel.ROW_LAYOUT
    for row in rows:
        elder, younger = PIQUET32.from_mask(row[0]), PIQUET32.from_mask(row[1])
        assert len(elder) == len(younger) == 12 and not set(elder) & set(younger)
        expected = ref.score(elder, younger, preset)
        for who in ("elder", "younger"):
            for field, value in expected[who].items():
                assert row[names.index(f"{who}_{field}")] == value, (preset, who, field, elder, younger)
    # The aggregate counters are exactly the tallies of the same deals.
    for p, who in enumerate(("elder", "younger")):
        assert counters["repik"][p] == rows[:, names.index(f"{who}_repik")].sum()
        assert np.array_equal(counters["total_hist"][p],
                              np.bincount(rows[:, names.index(f"{who}_total")],
                                          minlength=counters["total_hist"].shape[1]))
        assert np.array_equal(counters["uncontested_hist"][p],
                              np.bincount(rows[:, names.index(f"{who}_uncontested")],
                                          minlength=counters["uncontested_hist"].shape[1]))
    assert counters["deals"][0] == n


def test_score_deals_equals_shard_rows():
    rows = np.zeros((500, 16), np.uint32)
    kernel.declarations_shard(np.random.PCG64(3), 500, _options("classic"), rows=rows)
    again = kernel.score_deals(rows[:, 0], rows[:, 1], _options("classic"))
    assert np.array_equal(rows, again)


def _within(estimate_count, n, p, sigmas=4.5):
    se = (p * (1 - p) / n) ** 0.5
    return abs(estimate_count / n - p) <= sigmas * se + 1e-12


@pytest.mark.parametrize("n", [3, 33, 0])
def test_exact_hand_probabilities_refuse_impossible_hand_sizes(n):
    with pytest.raises(ValueError, match="hand size must be an integer from 4 to 32"):
        exact_hand_probabilities(n)


def test_monte_carlo_matches_exact_hand_probabilities(runslow):
    deals = 4_000_000 if runslow else 400_000
    result = run(RunConfig("piquet", "declarations", "ru_seed", deals=deals, seed=20261130), workers=2)
    table = odds_table(result.counters, result.config.rule_options)
    checked = table.dropna(subset=["exact"])
    assert len(checked) >= 2 * 24
    for _, row in checked.iterrows():
        assert _within(row["count"], row["n"], row["exact"]), (row["event"], row["player"])


@pytest.mark.parametrize("preset,repik,se", [("ru_seed", 0.05240, 1.6e-5), ("classic", 0.002701, 3.7e-6)])
def test_repik_rate_matches_reference_simulation(preset, repik, se, runslow):
    # §14.4 is a reference simulation (2e8 deals), so allow for its error as well as ours.
    deals = 10_000_000 if runslow else 1_000_000
    result = run(RunConfig("piquet", "declarations", preset, deals=deals, seed=99), workers=2)
    for p in range(2):
        count = result.counters["repik"][p]
        ours = (repik * (1 - repik) / deals) ** 0.5
        assert abs(count / deals - repik) <= 4.5 * (ours ** 2 + se ** 2) ** 0.5, (preset, p)
    zero = result.counters["total_hist"][:, 0] / deals
    assert np.all(np.abs(zero - 0.24715) < 4.5 * (0.25 * 0.75 / deals) ** 0.5)


def test_invariants_on_random_deals():
    rows = np.zeros((20_000, 16), np.uint32)
    counters = kernel.declarations_shard(np.random.PCG64(11), 20_000, _options("ru_seed"), rows=rows)
    names = kernel.ROW_LAYOUT
    col = lambda f: rows[:, names.index(f)].astype(np.int64)
    # Hands are disjoint 12-card sets; the talon is the other 8 cards.
    assert np.all((rows[:, 0] & rows[:, 1]) == 0)
    assert all(bin(int(m)).count("1") == 12 for m in rows[:, :2].ravel())
    # Repik never for both; at most one player scores each category; totals add up.
    assert not np.any(col("elder_repik") & col("younger_repik"))
    for field in ("carte_blanche", "point", "sequences", "sets"):
        assert not np.any((col(f"elder_{field}") > 0) & (col(f"younger_{field}") > 0)), field
    for who in ("elder", "younger"):
        parts = sum(col(f"{who}_{f}") for f in ("carte_blanche", "point", "sequences", "sets"))
        assert np.array_equal(parts, col(f"{who}_total"))
        assert np.all(col(f"{who}_total") <= col(f"{who}_uncontested"))
    assert counters["category_winner"].sum(axis=1).tolist() == [20_000] * 4


def test_dealt_hands_are_uniform():
    # Each card lands in the elder's hand with probability 12/32, in the younger's 12/32.
    masks = core.deal_masks(np.random.PCG64(5), 64_000, [12, 12])
    for h in range(2):
        bits = (masks[:, h:h + 1] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)
        freq = bits.sum(axis=0) / 64_000
        assert np.all(np.abs(freq - 12 / 32) < 4.5 * (12 / 32 * 20 / 32 / 64_000) ** 0.5)


def test_carte_blanche_both_pays_a_hand_declared_as_dealt_twice():
    # carte_blanche_when=both (§4, the Belgian variant) pays again when the hand is still blank
    # after the exchange; declared as dealt (no exchange) the dealt hand is the final one.
    elder, younger = "KS QS JS KH QH JH KD QD JD KC QC JC", "TS 9S 8S TH 9H 8H TD 9D 8D TC 9C 8C"   # TV7
    for when, value in (("dealt", 10), ("final", 10), ("both", 20)):
        r = score_declarations(elder, younger, carte_blanche_when=when)
        assert r.younger.carte_blanche == value and r.younger.total == value, when
    # the declaration odds' uncontested value and its exact counterpart pay it the same way
    options = get_game("piquet").resolve_rules("ru_seed", {"carte_blanche_when": "both"})
    rows = kernel.score_deals(np.array([PIQUET32.mask(elder.split())], np.uint32),
                              np.array([PIQUET32.mask(younger.split())], np.uint32), options)
    plain = kernel.score_deals(np.array([PIQUET32.mask(elder.split())], np.uint32),
                               np.array([PIQUET32.mask(younger.split())], np.uint32), _options("ru_seed"))
    changed = np.nonzero(rows[0] != plain[0])[0]
    assert len(changed) and set((rows[0, changed].astype(int) - plain[0, changed].astype(int)).tolist()) == {10}
    assert dealt_carte_blanche(options) == 20 and dealt_carte_blanche(_options("ru_seed")) == 10


def test_a_card_in_both_hands_is_refused():
    # §1: each of the 32 cards is dealt once, so the two hands never share a card.
    elder = "AS KS QS 9S 8S 7S AH KH AD 7C 8C 9C"
    younger = "JH TH 9H 8H JS TS QD JD 9D 7D KC AS"          # AS is elder's too
    with pytest.raises(ValueError, match="'AS' is given twice"):
        score_declarations(elder, younger)


@pytest.mark.parametrize("values", ["3,4,15,16,17,18,19", "3,4,15,16,17", [13, 14, 15, 16, 17, 18, 19]])
def test_seq_values_needs_exactly_one_value_per_length_3_to_8(values):
    # §12: seq_values lists the values of the lengths 3..8, six values; a seventh would be ignored.
    _, elder, younger, *_ = VECTORS[0]
    with pytest.raises(ValueError, match="six values"):
        score_declarations(elder, younger, seq_values=values)
