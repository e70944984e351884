"""Piquet taking-in odds: the exact table of rules/piquet.md §14.5 beside Cavendish's printed odds,
and a Monte Carlo check of it on the engine's own deals and talons."""
from fractions import Fraction

import numpy as np
import pytest

from analyzer._core import piquet as kernel
from analyzer.games import get_game
from analyzer.games.piquet import chance_to_draw, taking_in_table
from analyzer.runner import shard_bit_generators
from analyzer.stats import wilson

# rules/piquet.md §14.5: (player, named cards, at least, exact P, exact odds to 1, against or on,
# Cavendish's odds); "k named" in the rules file is "all k of them".
RULES_14_5 = [
    ("elder", 1, 1, Fraction(1, 4), 3, "against", "3 to 1"),
    ("elder", 2, 2, Fraction(1, 19), 18, "against", "18 to 1"),
    ("elder", 3, 3, Fraction(1, 114), 113, "against", "113 to 1"),
    ("elder", 4, 4, Fraction(1, 969), 968, "against", "968 to 1"),
    ("elder", 5, 5, Fraction(1, 15504), 15503, "against", "15503 to 1"),
    ("elder", 2, 1, Fraction(17, 38), 1.24, "against", "5 to 4"),
    ("elder", 3, 1, Fraction(137, 228), 1.51, "on", "3 to 2 on"),
    ("elder", 3, 2, Fraction(8, 57), 6.13, "against", "6 to 1"),
    ("elder", 4, 1, Fraction(232, 323), 2.55, "on", "5 to 2 on"),
    ("elder", 4, 2, Fraction(241, 969), 3.02, "against", "3 to 1"),
    ("elder", 4, 3, Fraction(31, 969), 30.3, "against", "32 to 1"),
    ("younger", 1, 1, Fraction(3, 20), 17 / 3, "against", "17 to 3"),
    ("younger", 2, 2, Fraction(3, 190), 62.3, "against", "62 to 1"),
    ("younger", 3, 3, Fraction(1, 1140), 1139, "against", "1139 to 1"),
    ("younger", 2, 1, Fraction(27, 95), 2.52, "against", "5 to 2"),
    ("younger", 3, 1, Fraction(23, 57), 1.48, "against", "3 to 2"),
    ("younger", 3, 2, Fraction(13, 285), 20.9, "against", "21 to 1"),
    ("younger", 4, 1, Fraction(29, 57), 29 / 28, "on", "29 to 28 on"),
]
DRAWN = {"elder": 5, "younger": 3}


def _rows():
    return {(r.player, r.named, r.at_least): r for r in taking_in_table().itertuples()}


def test_exact_chances_match_rules_file():
    rows = _rows()
    assert len(rows) == len(RULES_14_5)
    for player, named, at_least, p, *_ in RULES_14_5:
        row = rows[(player, named, at_least)]
        assert (row.drawn, row.exact, row.probability) == (DRAWN[player], p, float(p)), (player, named, at_least)
        assert chance_to_draw(named, at_least, DRAWN[player], 20) == p


def test_exact_odds_match_rules_file():
    # The rules file prints the odds to three significant figures (or as a ratio).
    rows = _rows()
    for player, named, at_least, _, odds, side, _ in RULES_14_5:
        row = rows[(player, named, at_least)]
        assert row.odds.endswith(side) and row.odds_to_one == pytest.approx(odds, rel=5e-3), (player, named, at_least)


def _cavendish_ratio(printed: str) -> Fraction:
    a, _, b = printed.removesuffix(" on").partition(" to ")
    return Fraction(int(a), int(b))


def test_cavendish_column_and_its_one_mismatch():
    rows = _rows()
    off = []
    for player, named, at_least, _, _, side, printed in RULES_14_5:
        row = rows[(player, named, at_least)]
        assert row.cavendish == printed
        assert printed.endswith(" on") == (side == "on")
        # Cavendish's "a to b" is the exact ratio rounded to the nearest 1/b, except in one row
        a_to_b = _cavendish_ratio(printed)
        exact = (1 - row.exact) / row.exact if side == "against" else row.exact / (1 - row.exact)
        if abs(a_to_b - exact) > Fraction(1, 2 * a_to_b.denominator):
            off.append((player, named, at_least))
    assert off == [("elder", 4, 3)]


@pytest.mark.parametrize("args", [(3, 4, 5), (21, 1, 5), (2, 1, 21), (2, -1, 5)],
                         ids=["more hoped than named", "more named than unseen", "more drawn than unseen",
                              "negative"])
def test_chance_to_draw_refuses_impossible_questions(args):
    with pytest.raises(ValueError, match="cannot hope"):
        chance_to_draw(*args, unseen=20)


def _lowest_cards_outside(hands: np.ndarray, k: int) -> np.ndarray:
    """For each 32-bit hand, the mask of the k lowest cards not in it."""
    rest = ~hands
    named = np.zeros_like(hands)
    for _ in range(k):
        low = rest & (~rest + np.uint32(1))
        named |= low
        rest ^= low
    return named


def test_monte_carlo_on_engine_talons_matches_exact_chances(runslow):
    # Deals of the compiled engine. The named cards are the lowest ones a player cannot see, which
    # depend only on his own hand; elder's draw is the top 5 of the talon, younger's (after elder
    # took 5) the other 3. Each deal also checks that the exchange really draws from the top.
    game = get_game("piquet")
    options = game.resolve_rules("ru_seed")
    strategies = game.analysis("deal").resolve_strategies({"elder_play": "random", "younger_play": "random"})
    bit_generators = shard_bit_generators(20260301, 0, 3)
    n = 200_000 if runslow else 40_000
    dealt = np.zeros((n, 2), np.uint32)
    packets = np.zeros((n, 2), np.uint32)
    for i in range(n):
        d = kernel.play_one_deal(bit_generators, options, strategies)
        talon = [1 << c for c in d["talon"]]
        e, y = d["exchanged"]
        for p, drawn in enumerate((talon[:e], talon[e:e + y])):
            assert d["final"][p] == d["dealt"][p] & ~d["discard"][p] | sum(drawn), (i, p)
        dealt[i] = d["dealt"]
        packets[i] = sum(talon[:5]), sum(talon[5:])
    for player, named, at_least, p, *_ in RULES_14_5:
        seat = 0 if player == "elder" else 1
        hits = np.bitwise_count(_lowest_cards_outside(dealt[:, seat], named) & packets[:, seat])
        low, high = wilson((hits >= at_least).sum(), n, confidence=1 - 1e-6)   # 18 rows: a wide interval
        assert low <= p <= high, (player, named, at_least, (hits >= at_least).mean(), float(p))
