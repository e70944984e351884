"""Semerik, known answers: every test vector of rules/semerik.md §8, the exact values of §9, Monte
Carlo estimates against them, the rule options, and the single-deal API's input checks."""
from fractions import Fraction

import numpy as np
import pytest

from analyzer.cards import SEMERIK40
from analyzer.games import get_game
from analyzer.games.semerik import (PRESETS, declaration_distribution, declaration_table, exact_declaration_counts,
                                    exact_declaration_summary, exact_probabilities, game_result, play_deal,
                                    replay_deal, score_hand, score_trick, validate_option)
from analyzer.runner import RunConfig, run

DEFAULT = PRESETS["default"]

# §8 declarations: (name, hand, points by default, points with heart_baba="literal")
DECLARATIONS = [
    ("D1", "7S 7H 7D KC QC 6S 5D 4C JH 2S", 4, 4),
    ("D2", "3S 3H 3D KC QC 6S 5D 4C JH 7S", 3, 3),
    ("D3", "KS KH KD 6C 6S 5D 4C JH 2S 7C", 1, 1),
    ("D4", "3S 2S AS KS 3H 3D 6C 5C 4C 7D", 10, 10),
    ("D5", "3H 2H AH 7S 6S 5S 4S 7C 6C 5C", 5, 5),
    ("D6", "3H 2H AH KH QH JH 5S 5D 5C 4S", 18, 16),
    ("D7", "AS AH AD AC 2S 2H 2D KS QS JS", 6, 6),
    ("D8", "3S 2S AS 3D 2D AD 3C 2C AC 4H", 21, 21),
    ("D9", "3H 2H AH KH 3S 2S AS 3D 2D AD", 26, 24),
    ("D10", "3S 2S QS JS 7H 6H 5D 4D KC 7C", 0, 0),
]


@pytest.mark.parametrize("name,hand,points,literal", DECLARATIONS, ids=[d[0] for d in DECLARATIONS])
def test_declaration_vectors(name, hand, points, literal):
    assert score_hand(hand).points == points
    assert score_hand(hand, heart_baba="literal").points == literal


def test_declaration_breakdowns_name_what_was_declared():
    assert score_hand("3S 2S AS KS 3H 3D 6C 5C 4C 7D").babas == ("spade baba+K = 6",)
    assert score_hand("3S 2S AS KS 3H 3D 6C 5C 4C 7D").sets == ("three threes = 4",)
    d6 = score_hand("3H 2H AH KH QH JH 5S 5D 5C 4S")
    assert d6.babas == ("heart baba+K+Q+J = 17",) and d6.sets == ("three fives = 1",)
    assert set(d6.shown) == {"3H", "2H", "AH", "KH", "QH", "JH", "5S", "5D", "5C"}
    assert score_hand("3S 2S QS JS 7H 6H 5D 4D KC 7C").shown == ()


def test_four_of_kind_and_overlap_options():
    # D7: four aces count as three by default, 4 with the Tressette bonus.
    assert score_hand("AS AH AD AC 2S 2H 2D KS QS JS", four_of_kind_bonus=True).points == 7
    # D4 without shared cards: the 3S is in the baba or in the threes, not both -> max(6, 3) = 6.
    assert score_hand("3S 2S AS KS 3H 3D 6C 5C 4C 7D", overlap="disallowed").points == 6
    # D8: three babas (9) or the three sets without a baba (9).
    assert score_hand("3S 2S AS 3D 2D AD 3C 2C AC 4H", overlap="disallowed").points == 9
    # Four 3s and a spade baba: the other three 3s still make a set, counted with the baba.
    assert score_hand("3S 2S AS 3H 3D 3C 7C 6C 5C 4C", overlap="disallowed").points == 3 + 4


# §8 tricks: (name, trick, winning card, honours, points)
TRICKS = [
    ("T1", "3S KS 7S QS", "3S", 3, 1),
    ("T2", "AS 2S 4H KS", "4H", 3, 1),
    ("T3", "JD QD KD AD", "AD", 4, 2),
    ("T4", "7C 3D 6C 5C", "7C", 1, 0),
    ("T5", "KH 3H 2S AH", "3H", 4, 2),
    ("T6", "4S 5S 6S 7S", "7S", 0, 0),
]


@pytest.mark.parametrize("name,trick,winner,honours,points", TRICKS, ids=[t[0] for t in TRICKS])
def test_trick_vectors(name, trick, winner, honours, points):
    for direction in ("clockwise", "counterclockwise"):
        r = score_trick(trick, direction=direction)
        assert (r.cards[r.winner], r.honours, r.points) == (winner, honours, points)


@pytest.mark.parametrize("a,b,winner,value", [(23, 9, "A", 42), (22, 11, "A", 21), (24, 22, "A", 21),
                                              (9, 23, "B", 42), (22, 24, "B", 21), (20, 20, None, 0),
                                              (21, 21, None, 0), (21, 10, "A", 42), (21, 0, "A", 42)])
def test_game_vectors(a, b, winner, value):
    # G1 (23 v 9 double), G2 (22 v 11 single), G3 (24 v 22 single), and ties / thresholds.
    r = game_result(a, b)
    assert (r.winner, r.value) == (winner, value)


def g4_deal():
    """Seat 0 holds the ten hearts and leads them from the top; the others hold the 18 plain
    honours and the 12 plain low cards and throw honours on the first six tricks."""
    plain_honours = [r + s for s in "SDC" for r in "32AKQJ"]
    plain_low = [r + s for s in "SDC" for r in "7654"]
    others = [plain_honours[6 * i:6 * i + 6] + plain_low[4 * i:4 * i + 4] for i in range(3)]
    hands = [[r + "H" for r in "32AKQJ7654"]] + others
    plays = []
    for t in range(10):
        plays.append("32AKQJ7654"[t] + "H")
        plays += [h[t] for h in others]
    return hands, plays


def test_g4_capot_with_six_four_honour_tricks_scores_16():
    hands, plays = g4_deal()
    r = replay_deal([" ".join(h) for h in hands], plays, dealer=3)
    assert [t.winner for t in r.tricks] == [0] * 10
    assert [t.honours for t in r.tricks] == [4] * 6 + [0] * 4
    assert r.trick_points == (16, 0)
    assert r.totals[0] == 16 + r.declarations[0].points + r.declarations[2].points
    assert replay_deal([" ".join(h) for h in hands], plays, dealer=3, capot="replaces").trick_points == (4, 0)
    assert replay_deal([" ".join(h) for h in hands], plays, dealer=3, honour_count="aggregate").trick_points == (12, 0)
    assert replay_deal([" ".join(h) for h in hands], plays, dealer=3, last_trick_point=1).trick_points == (17, 0)


def test_exact_probabilities_match_rules_file():
    p = exact_probabilities()
    assert p["three or four of a given rank"] == Fraction(381, 9139)
    assert p["exactly three of a given rank"] == Fraction(360, 9139)
    assert p["four of a given rank"] == Fraction(21, 9139)
    assert p["baba in a given suit"] == Fraction(3, 247)
    assert p["baba in some suit"] == Fraction(329869, 6835972)
    assert p["3-2-A-K of a given suit"] == Fraction(21, 9139)
    assert p["3-2-A-K-Q of a given suit"] == Fraction(7, 18278)
    assert p["3-2-A-K-Q-J of a given suit"] == Fraction(1, 18278)
    assert p["some player holds >= 3 sevens"] == Fraction(1524, 9139)
    assert p["some player holds the heart baba"] == Fraction(12, 247)
    assert p["some player holds a baba"] == Fraction(203802493, 1132072942)
    assert p["a given partnership holds a baba"] == Fraction(4056028345, 43018771796)


RULES_FILE_DISTRIBUTION = [494991144, 175590204, 8983920, 96630860, 41768302, 9015099, 5378880, 8314008,
                           1421520, 2803185, 1160946, 613764, 394978, 263631, 54858, 164616, 40641, 42184,
                           6456, 15483, 990, 4352, 225, 207, 39, 27, 9]


def test_exact_distribution_matches_rules_file():
    counts = exact_declaration_counts(DEFAULT)
    assert counts.sum() == 847660528
    assert counts[:27].tolist() == RULES_FILE_DISTRIBUTION and not counts[27:].any()
    summary = exact_declaration_summary(DEFAULT)
    assert summary["at least one declaration"] == Fraction(44083673, 105957566)
    assert summary["mean declaration points"] == Fraction(6889815, 6835972)


def test_exact_distribution_follows_the_options():
    # Literal heart baba: the extended heart babas lose 2 (D9 scores 24), but a bare heart baba
    # still scores 5, so 26 remains reachable (spade baba+K 6, heart baba 5, diamond baba 3, sets
    # 12): 6 such hands instead of the default 9.
    literal = exact_declaration_counts(dict(DEFAULT, heart_baba="literal"))
    assert literal.sum() == 847660528 and literal[26] == 6 and not literal[27:].any()
    assert literal[:6].tolist() == RULES_FILE_DISTRIBUTION[:6]
    strict = exact_declaration_counts(dict(DEFAULT, overlap="disallowed"))
    assert strict.sum() == 847660528 and strict[0] == RULES_FILE_DISTRIBUTION[0]   # no hand loses all


def _within(count, n, p, sigmas=4.5):
    return abs(count / n - p) <= sigmas * (p * (1 - p) / n) ** 0.5 + 1e-12


def test_monte_carlo_matches_exact_values(runslow):
    deals = 2_000_000 if runslow else 200_000
    result = run(RunConfig("semerik", "declarations", "default", deals=deals, seed=20261130), workers=2)
    options = result.config.rule_options
    table = declaration_table(result.counters, options)
    rates = table[table.event != "mean declaration points"].dropna(subset=["exact"])
    assert len(rates) >= 40
    for _, row in rates.iterrows():
        assert _within(row["count"], row["n"], row["exact"]), (row["event"], row["who"])
    means = table[table.event == "mean declaration points"]
    for _, row in means.iterrows():
        half = (row["ci_high"] - row["ci_low"]) / 2
        assert abs(row["estimate"] - row["exact"]) <= 4.5 / 1.96 * half, row["who"]
    dist = declaration_distribution(result.counters, options)
    for _, row in dist[dist.exact > 1e-4].iterrows():
        assert _within(row["count"], row["n"], row["exact"]), row["points"]


@pytest.mark.parametrize("overrides", [{"heart_baba": "literal"}, {"overlap": "disallowed", "four_of_kind_bonus": True}])
def test_monte_carlo_matches_exact_distribution_under_options(overrides, runslow):
    # The exact enumeration splits a hand into its honours and its 7-6-5-4 part; a simulation
    # under other options checks that split (and the kernel) once more.
    deals = 400_000 if runslow else 60_000
    result = run(RunConfig("semerik", "declarations", "default", deals=deals, seed=7, overrides=overrides), workers=2)
    dist = declaration_distribution(result.counters, result.config.rule_options)
    for _, row in dist[dist.exact > 1e-3].iterrows():
        assert _within(row["count"], row["n"], row["exact"]), (overrides, row["points"])


def test_options_are_validated():
    game = get_game("semerik")
    with pytest.raises(ValueError, match="heart_baba must be one of"):
        game.resolve_rules("default", {"heart_baba": "double"})
    with pytest.raises(ValueError, match="four_of_kind_bonus must be true or false"):
        validate_option("four_of_kind_bonus", "maybe")
    with pytest.raises(ValueError, match="pimc_worlds must be an integer from 1 to 1024"):
        validate_option("pimc_worlds", "0")
    with pytest.raises(ValueError, match="unknown semerik rule option"):
        game.resolve_rules("default", {"trumps": "spades"})
    with pytest.raises(ValueError, match="unknown semerik rules preset"):
        game.resolve_rules("classic")
    assert validate_option("check_after_declarations", "yes") is True
    assert validate_option("target", "31") == 31
    with pytest.raises(ValueError, match="unknown play_a strategy 'clever'"):
        play_deal(HANDS, play_a="clever")
    with pytest.raises(ValueError, match="has no strategy role 'play_c'"):
        RunConfig("semerik", "deals", "default", deals=10, seed=1, strategies={"play_c": "greedy"})


HANDS = ["3S KS 6S 2H AH QD JD 7D 2C 4C", "AS 6H 5H AD 6D 4D 3C KC QC JC",
         "2S 7S 3H 7H 3D 2D KD 7C 6C 5C", "QS JS 5S 4S KH QH JH 4H 5D AC"]


def test_deck_layout():
    assert SEMERIK40.size == 40
    assert SEMERIK40.bit("3S") == 9 and SEMERIK40.bit("4H") == 16 and SEMERIK40.bit("3C") == 57
    assert SEMERIK40.from_mask(SEMERIK40.mask("4S 3S 2S")) == ["3S", "2S", "4S"]


def test_single_deal_api_rejects_bad_input():
    with pytest.raises(ValueError, match="malformed card"):
        score_hand("3S 2S AS KS 3H 3D 6C 5C 4C 7X")
    with pytest.raises(ValueError, match="not in the 40-card semerik pack"):
        score_hand("3S 2S AS KS 3H 3D 6C 5C 4C TD")
    with pytest.raises(ValueError, match="duplicate card"):
        score_hand("3S 3S AS KS 3H 3D 6C 5C 4C 7D")
    with pytest.raises(ValueError, match="has 9 cards, expected 10"):
        score_hand("3S 2S AS KS 3H 3D 6C 5C 4C")
    with pytest.raises(ValueError, match="has 3 cards, expected 4"):
        score_trick("3S 2S AS")
    with pytest.raises(ValueError, match="four hands"):
        play_deal(HANDS[:3])
    with pytest.raises(ValueError, match="given twice: in seat 0 and in seat 1"):
        play_deal([HANDS[0], HANDS[0].replace("3S", "3C"), HANDS[2], HANDS[3]])
    with pytest.raises(ValueError, match="dealer must be a seat"):
        play_deal(HANDS, dealer=4)
    with pytest.raises(ValueError, match="seed must be"):
        play_deal(HANDS, seed=-1)
    with pytest.raises(ValueError, match="score_a must be"):
        game_result(-1, 3)


def test_replay_rejects_illegal_plays():
    hands, plays = g4_deal()
    hands = [" ".join(h) for h in hands]
    bad = list(plays)
    bad[0], bad[1] = bad[1], bad[0]               # seat 0 would lead seat 1's 3S
    with pytest.raises(ValueError, match=r"card 1 \('3S', seat 0, trick 1\) is not in seat 0's hand"):
        replay_deal(hands, bad, dealer=3)
    with pytest.raises(ValueError, match="40 cards"):
        replay_deal(hands, plays[:39], dealer=3)
    reordered = list(plays)
    reordered[1], reordered[5] = reordered[5], reordered[1]   # seat 1 discards in another order
    assert replay_deal(hands, reordered, dealer=3).trick_points == (16, 0)
    # Seat 0 leads the 2H; seat 1 holds the 3H and must follow hearts.
    suits = ["3H 2H AH KH QH JH 7H 6H 5H 4H", "3S 2S AS KS QS JS 7S 6S 5S 4S",
             "3D 2D AD KD QD JD 7D 6D 5D 4D", "3C 2C AC KC QC JC 7C 6C 5C 4C"]
    mixed = ["3S 2H AH KH QH JH 7H 6H 5H 4H", "3H 2S AS KS QS JS 7S 6S 5S 4S", suits[2], suits[3]]
    rest = [c for c in SEMERIK40.cards if c not in ("2H", "2S", "3D", "3C")]
    with pytest.raises(ValueError, match=r"card 2 \('2S', seat 1, trick 1\) does not follow hearts although "
                                         r"seat 1 holds 3H"):
        replay_deal(mixed, ["2H", "2S", "3D", "3C"] + rest, dealer=3)
    with pytest.raises(ValueError, match="duplicate card"):
        replay_deal(suits, ["3S", "3S"] + rest[:38], dealer=0)


def test_game_result_rejects_booleans_as_scores():
    # True == 1 is an int in Python, but a running total must be a real integer.
    for a, b in ((True, 3), (3, False)):
        with pytest.raises(ValueError, match="must be a non-negative integer"):
            game_result(a, b)


def test_last_trick_point_is_zero_or_one():
    # rules §5/§7: the Tressette last-trick bonus is 1 point, or none.
    assert validate_option("last_trick_point", "1") == 1
    with pytest.raises(ValueError, match="last_trick_point"):
        validate_option("last_trick_point", "2")
    with pytest.raises(ValueError, match="last_trick_point"):
        get_game("semerik").resolve_rules("default", {"last_trick_point": 2})
