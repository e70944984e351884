"""The square game: the vectors of rules/square.md §4 and §6, the exact values of §7, turn legality,
option validation, invariants of random and strategic play, the CLI and the report.

Golden playthroughs: `python tests/test_square.py --regen` rewrites tests/golden/square/*.txt."""
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer._core import square as kernel
from analyzer.cli import main
from analyzer.games.square import (DECKS, GAME, SquareDeal, baseline_table, check_rules, deal_result,
                                   exact_distribution, exact_summary, format_deal, kernel_spec, match_table,
                                   parse_square, play_deal, play_table, score_square, thresholds_table)
from analyzer.runner import RunConfig, run, shard_bit_generators

GOLDEN = Path(__file__).parent / "golden" / "square"

# §6: (name, square, score, closing score or None)
VECTORS = [
    ("S1", "7H 8H TD / 8D JD 9H / QD KD AD", 10, 14),
    ("S2", "TH KC 7S / JH -- 8S / QH AS 9S", 4, None),
    ("S3", "7H 7D 8H / 9H TH JH / QH KH AH", 14, 22),
    ("S4", "7H 8H 9H / TH 7D JH / QH KH AH", 12, 18),
    ("S5", "7S 7C 8S / 8C 9S 9C / TS TC JS", 10, 14),
    ("S6", "7S 7H 8S / 8H 9S 9H / TS TH JS", 4, None),
    ("S7", "-- -- -- / -- -- -- / -- -- --", 0, None),
]


@pytest.mark.parametrize("name,square,score,closing", VECTORS, ids=[v[0] for v in VECTORS])
def test_rules_vectors(name, square, score, closing):
    result = score_square(square)
    assert result.total == score
    assert result.closable == (closing is not None)
    assert result.closer_score == closing


def test_line_breakdown_of_s1_and_s3():
    s1 = {name: pts for name, _, pts in score_square(VECTORS[0][1]).lines}
    assert [s1[f"row {i}"] for i in (1, 2, 3)] == [1, 1, 2]
    assert [s1[f"column {i}"] for i in (1, 2, 3)] == [1, 1, 1]
    assert (s1["diagonal 0-4-8"], s1["diagonal 2-4-6"]) == (1, 2)
    s3 = [pts for _, _, pts in score_square(VECTORS[2][1]).lines]
    assert sorted(s3) == [1, 1, 2, 2, 2, 2, 2, 2]
    s6 = {name: pts for name, _, pts in score_square(VECTORS[5][1]).lines}
    assert s6["diagonal 0-4-8"] == s6["diagonal 2-4-6"] == 2 and sum(s6.values()) == 4


def test_explanation_of_s1():
    text = score_square(VECTORS[0][1]).explain()
    assert "row 3            QD KD AD  2  (one suit)" in text
    assert "column 1         7H 8D QD  1  (one colour, mixed suits)" in text
    assert "Closing scores 10 + 5 - 1 = 14." in text
    assert "Too few points to close." in score_square(VECTORS[1][1]).explain()


def test_seed_worked_example_figure_152():
    # The upper player closes with 10 -> 14, the lower player scores 4; 17 distinct cards.
    assert deal_result(VECTORS[0][1], VECTORS[1][1]) == (14, 4)
    cells = [c for sq in (VECTORS[0][1], VECTORS[1][1]) for c in parse_square(sq) if c]
    assert len(cells) == len(set(cells)) == 17


def test_closer_table():
    expected = {5: 4, 6: 6, 7: 8, 8: 10, 9: 12, 10: 14, 11: 16, 12: 18, 13: 20, 14: 22}
    assert {s: kernel.closer_score(s) for s in expected} == expected


def test_four_player_example_and_match_example():
    # §6: a side closes with a square of 7 -> 8; the other side's square of 3 -> 3.
    seven = "8D KH 7D / 9D AD 9C / KD 8C TD"   # row 1 red mixed 1; column 1 and both diagonals diamonds 2+2+2
    three = "KC JH JD / TC JS AS / QC JC 8H"   # row 2 black mixed 1; column 1 clubs 2
    assert score_square(seven).total == 7 and score_square(three).total == 3
    assert deal_result(seven, three) == (8, 3)
    # Match: a side at 30 closing with S = 6 gets 6 -> 36 >= 33.
    assert kernel.closer_score(6) == 6 and 30 + kernel.closer_score(6) >= 33


def test_four_player_deal_closes_with_seven():
    # 2 vs 2: seat 0 (side A) closes after his partner built the square; side A 7 -> 8, side B 3 -> 3.
    pack = DECKS[32]
    cards = pack.cards
    hands = [cards[i::4] for i in range(4)]
    deal = SquareDeal(hands, "r1_four")
    assert deal.rules["players"] == 4 and len(deal.hands[0]) == 8
    # place a scripted position directly through legal moves
    a_square = parse_square("8D KH 7D / 9D AD 9C / KD 8C TD")
    b_square = parse_square("KC JH JD / TC JS AS / QC JC 8H")
    owner = {c: s for s, h in enumerate(deal.hands) for c in h}
    for side, square in ((0, a_square), (1, b_square)):
        for cell, card in enumerate(square):
            if card is not None:
                deal.squares[side][cell] = card
                deal.hands[owner[card]].remove(card)
    assert deal.score(0) == 7 and deal.score(1) == 3
    deal.discard(deal.hands[0][0])
    assert deal.close(partner_answer=True)
    assert deal.result() == (8, 3)


def test_turn_legality():
    pack = DECKS[32]
    hands = [pack.cards[:16], pack.cards[16:]]
    deal = SquareDeal(hands)
    deal.place("7S", "own", 4)
    deal.next_turn()
    with pytest.raises(ValueError, match="occupied"):
        deal.place("7D", "opponents", 4)
    with pytest.raises(ValueError, match="empty"):
        deal.remove("QD", "own", 0)
    with pytest.raises(ValueError, match="not in seat 1"):
        deal.place("8S", "own", 0)
    deal.place("7D", "own", 0)
    with pytest.raises(ValueError, match="0 points may not close"):
        deal.close()
    with pytest.raises(ValueError, match="acted"):
        deal.discard("8D")
    deal.next_turn()
    with pytest.raises(ValueError, match="queen or a jack"):
        deal.remove("8S", "own", 4)
    with pytest.raises(ValueError, match="only from the own square"):
        deal.remove("QS", "opponents", 0)
    deal.remove("QS", "own", 4)
    assert deal.squares[0][4] is None and "7S" in deal.discards


def test_a_side_with_four_points_may_not_close():
    with pytest.raises(ValueError, match="4 may not close"):
        deal_result(VECTORS[1][1], VECTORS[0][1])
    pack = DECKS[32]
    deal = SquareDeal([pack.cards[:16], pack.cards[16:]])
    for cell, card in zip((0, 1, 2, 4), ("7S", "8S", "9S", "TS")):     # one spade row: 2 points
        deal.place(card, "own", cell)
        deal.next_turn()
        deal.discard(deal.hands[1][0])
        deal.next_turn()
    deal.place("JS", "own", 6)                    # row 0 and diagonal 2-4-6: 4 points
    with pytest.raises(ValueError, match="4 points may not close"):
        deal.close()
    deal.next_turn()
    deal.discard(deal.hands[1][0])
    deal.next_turn()
    deal.place("QS", "own", 8)                    # row 0, diagonals 0-4-8 and 2-4-6: 6 points
    assert deal.score(0) == 6
    with pytest.raises(ValueError, match="only the 2-vs-2 game"):
        deal.close(partner_answer=True)
    assert deal.close()
    assert deal.result() == (6, 0)


def test_rule_options_of_a_given_deal():
    pack = DECKS[32]
    # qj_remove=none: a queen or jack is placed or discarded like any card
    deal = SquareDeal([pack.cards[:16], pack.cards[16:]], qj_remove="none")
    deal.place("7S", "own", 4)
    deal.next_turn()
    deal.place("7D", "own", 0)
    deal.next_turn()
    with pytest.raises(ValueError, match="switched off"):
        deal.remove("QS", "own", 4)
    # rank_fixed (36 cards): places 6 7 8 / 9 T J / Q K A, so a nine goes only to cell 3
    pack36 = DECKS[36]
    deal = SquareDeal([pack36.cards[:18], pack36.cards[18:]], deck=36, placement="rank_fixed")
    with pytest.raises(ValueError, match="9S goes to cell 3, not 0"):
        deal.place("9S", "own", 0)
    deal.place("9S", "own", 3)
    assert deal.squares[0][3] == "9S"
    # draw8: every player draws the top card of the stock at the start of his turn
    deal = SquareDeal([pack.cards[:8], pack.cards[8:16]], deal="draw8", stock=pack.cards[16:])
    assert len(deal.hands[0]) == 9 and deal.hands[0][-1] == pack.cards[16]
    deal.discard("7S")
    deal.next_turn()
    assert len(deal.hands[1]) == 9 and deal.hands[1][-1] == pack.cards[17] and len(deal.stock) == 14


@pytest.mark.parametrize("no_closer,expected", [("plain", (0, 8)), ("last_actor", (0, 10))])
def test_deal_without_closer(no_closer, expected):
    # Nobody closes: seat 0 discards all his cards, seat 1 lays seven diamonds in cells 0 1 2 3 4 6 8
    # (row 1, column 1 and both diagonals: 8 points) and discards the rest. Seat 1 acts last, so
    # under last_actor his side scores as closer: 8 + 3 - 1 = 10.
    pack = DECKS[32]
    deal = SquareDeal([pack.cards[:16], pack.cards[16:]], no_closer=no_closer)
    diamonds = dict(zip((0, 1, 2, 3, 4, 6, 8), ("7D", "8D", "9D", "TD", "JD", "QD", "KD")))
    for turn in range(16):
        deal.discard(deal.hands[0][0])
        deal.next_turn()
        if turn in diamonds:
            deal.place(diamonds[turn], "own", turn)
        else:
            deal.discard(next(c for c in deal.hands[1] if c not in diamonds.values()))
        if turn < 15:
            deal.next_turn()
    assert deal.over and deal.closer is None and deal.score(1) == 8
    assert deal.result() == expected


def test_refused_partner_forbids_closing():
    pack = DECKS[32]
    deal = SquareDeal([pack.cards[i::4] for i in range(4)], "r1_four")
    deal.squares[0][:3] = ["7S", "8S", "9S"]
    deal.squares[0][3:6] = ["7C", "8C", "9C"]
    deal.squares[0][6] = "TS"
    for c in ("7S", "8S", "9S", "7C", "8C", "9C", "TS"):
        next(h for h in deal.hands if c in h).remove(c)
    deal.discard(deal.hands[0][0])
    assert deal.score(0) >= 5
    assert deal.close(partner_answer=False) is False
    with pytest.raises(ValueError, match="refused"):
        deal.close()


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="9 cells"):
        score_square("7H 8H")
    with pytest.raises(ValueError, match="duplicate card 'TD'"):
        score_square("7H 8H TD / 8D TD 9H / QD KD AD")
    with pytest.raises(ValueError, match="3 rows of 3 cells, got 2 / 4 / 3"):
        score_square("7H 8H / TD 8D JD 9H / QD KD AD")
    with pytest.raises(ValueError, match="malformed card 'ZZ'"):
        score_square("7H 8H ZZ / 8D JD 9H / QD KD AD")
    with pytest.raises(ValueError, match="not in the 32-card pack"):
        score_square("2H 8H TD / 8D JD 9H / QD KD AD")
    assert score_square("2H 8H TD / 8D JD 9H / QD KD AD", deck=52).total == 10
    with pytest.raises(ValueError, match="both squares"):
        deal_result(VECTORS[0][1], "7H -- -- / -- -- -- / -- -- --")
    with pytest.raises(ValueError, match="option qj_remove"):
        GAME.resolve_rules("r1", {"qj_remove": "both"})
    with pytest.raises(ValueError, match="option deck"):
        GAME.resolve_rules("r1", {"deck": 40})
    with pytest.raises(ValueError, match="unknown square rule option"):
        GAME.resolve_rules("r1", {"trumps": 1})
    with pytest.raises(ValueError, match="rank_fixed needs deck=36"):
        check_rules(GAME.resolve_rules("r1", {"placement": "rank_fixed"}))
    with pytest.raises(ValueError, match="rank_fixed needs deck=36"):   # before a run is stored
        RunConfig("square", "play", "r1", 10, 1, overrides={"placement": "rank_fixed"})
    # four players of 8 cards use the whole 32-card pack: draw8 would be deal=whole under another name
    with pytest.raises(ValueError, match="deal=draw8 leaves no stock with 4 players and deck=32"):
        RunConfig("square", "play", "r1_four", 10, 1, overrides={"deal": "draw8"})
    assert check_rules(GAME.resolve_rules("r1_four", {"deal": "draw8", "deck": 36})) is None
    with pytest.raises(ValueError, match="unknown play_a strategy"):
        GAME.analysis("play").resolve_strategies({"play_a": "clever"})
    with pytest.raises(ValueError, match="expected 2 hands"):
        SquareDeal(["7S 8S"])
    with pytest.raises(ValueError, match="has 2 cards, expected 16"):
        SquareDeal(["7S 8S", DECKS[32].cards[16:]])
    with pytest.raises(ValueError, match="dealt twice"):
        SquareDeal([DECKS[32].cards[:16], DECKS[32].cards[:16]])


def test_all_options_accept_their_documented_values():
    for key, values in dict(deck=(32, 36, 52), deal=("whole", "draw8"), placement=("free",),
                            qj_remove=("own", "any", "none"), cover=("no", "yes"),
                            close_timing=("after_action", "turn_start"), no_closer=("plain", "last_actor"),
                            match=("target", "deals"), players=(2, 4)).items():
        for v in values:
            assert GAME.resolve_rules("r1", {key: str(v)})[key] == v


# ---------------------------------------------------------------------------------------------
# §7 exact values and the baseline kernel

def test_line_probabilities_of_section_7():
    # Every 3-card line of the 32-card pack, scored by the compiled kernel in the top row of an
    # otherwise empty square (a line with an empty cell scores nothing): one suit 7/155, one
    # colour of mixed suits 28/155.
    from itertools import combinations
    pack = DECKS[32]
    lines = np.array([[pack.bit(c) for c in line] + [255] * 6 for line in combinations(pack.cards, 3)], np.uint8)
    points = kernel.score_squares(lines)
    assert set(np.unique(points)) == {0, 1, 2}
    assert Fraction(int((points == 2).sum()), len(lines)) == Fraction(7, 155)
    assert Fraction(int((points == 1).sum()), len(lines)) == Fraction(28, 155)


def test_exact_values_of_section_7():
    assert exact_summary(8, 0) == {"mean": Fraction(336, 155), "closable": Fraction(407257, 7888725),
                                   "maximum": Fraction(4, 7888725)}
    assert exact_summary(8, 0)["maximum"] == exact_distribution(8, 0)[14]
    assert exact_summary(8, 1)["mean"] == Fraction(224, 155)
    assert exact_summary(8, 1)["closable"] == Fraction(121211, 7888725)
    assert exact_summary(13, 0)["mean"] == Fraction(976, 425)
    assert exact_summary(13, 0)["closable"] == Fraction(4719644, 67535475)
    d = exact_distribution(8, 0)
    assert d == {0: Fraction(2912, 40455), 1: Fraction(5712, 22475), 2: Fraction(421388, 1272375),
                 3: Fraction(1635008, 7888725), 4: Fraction(3305512, 39443625), 5: Fraction(1177184, 39443625),
                 6: Fraction(12464, 1011375), 7: Fraction(1712, 272025), 8: Fraction(16346, 7888725),
                 9: Fraction(4618, 7888725), 10: Fraction(358, 876525), 11: Fraction(652, 7888725),
                 12: Fraction(1, 84825), 13: Fraction(2, 876525), 14: Fraction(4, 7888725)}
    assert sum(d.values()) == 1


@pytest.mark.parametrize("deck", [32, 52])
def test_random_squares_match_exact_values(deck, runslow):
    n = 4_000_000 if runslow else 400_000
    result = run(RunConfig("square", "baseline", "r1", n, seed=11, overrides={"deck": deck}, shard_size=100_000),
                 workers=2)
    table = baseline_table(result.counters, result.config.rule_options)
    for _, row in table.iterrows():
        if row.event == "mean score":
            se = (row.ci_high - row.ci_low) / (2 * 1.96)
        else:
            p = row.exact
            se = np.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(row.estimate - row.exact) <= 4.5 * se + 1e-12, (row.square, row.event, row.estimate, row.exact)


# ---------------------------------------------------------------------------------------------
# Invariants of play

def _cards_conserved(log, pack):
    squares = [c for sq in log["squares"] for c in sq if c]
    played = {t["card"] for t in log["turns"] if t["card"]}
    dealt = [c for h in log["hands"] for c in h] + log["stock"]
    assert sorted(dealt) == sorted(pack.cards)
    assert set(squares) <= played
    return squares


@pytest.mark.parametrize("preset,overrides,strategies", [
    ("r1", {}, {"play_a": "random", "play_b": "random"}),
    ("r1", {"qj_remove": "any", "cover": "yes", "deal": "draw8"}, {"play_a": "random", "play_b": "spoiler"}),
    ("r1_four", {"no_closer": "last_actor"}, {"play_a": "random", "play_b": "random", "ask": "always"}),
    ("r1", {"deck": 36, "placement": "rank_fixed"}, {"play_a": "random", "play_b": "greedy"}),
])
def test_invariants_under_play(preset, overrides, strategies):
    for seed in range(60):
        log = play_deal(seed, preset, strategies, **overrides)
        pack = DECKS[log["options"]["deck"]]
        _cards_conserved(log, pack)
        assert len(log["turns"]) <= pack.size
        assert tuple(score_square(sq, pack.size).total for sq in log["squares"]) == tuple(log["square_score"])
        if log["closer"] is not None:
            side = log["closer"] % 2
            assert log["square_score"][side] >= 5 and log["turns"][-1]["closed"]
            assert log["deal_score"][side] == 2 * log["square_score"][side] - 6
        else:
            assert sum(len(h) for h in log["hands"]) + len(log["stock"]) == len(log["turns"])
        for t in log["turns"]:
            if t["kind"] == "remove":
                assert t["card"][0] in "QJ" and t["displaced"]
    assert play_deal(7, preset, strategies, **overrides) == play_deal(7, preset, strategies, **overrides)


def test_shard_counters_agree_with_the_logged_deal():
    # play_shard with one deal consumes the same streams as play_logged: the counters must describe it.
    options = GAME.resolve_rules("r1")
    for seed in range(30):
        spec = kernel_spec(options, {"close_a": "at6"})
        gens = shard_bit_generators(seed, 0, 2)
        c = kernel.play_shard(gens[0], gens[1], 1, spec)
        gens = shard_bit_generators(seed, 0, 2)
        log = kernel.play_logged(gens[0], gens[1], spec)
        assert c["closed"][0] == (log["closer"] is not None)
        assert c["turns"][0] == len(log["turns"])
        for side in range(2):
            assert c["final_square"][side, log["square_score"][side]] == 1
            assert c["deal_score"][side, log["deal_score"][side] + 1] == 1
        assert c["net_sum"][0] == log["deal_score"][0] - log["deal_score"][1]
        assert c["actions"].sum() == len(log["turns"])


def test_play_table_rows_follow_the_logged_deals():
    # One-deal shards beside their logged deals: the table's closing, first-closable and deal-score
    # rows recomputed from the turns of the logs.
    options = GAME.resolve_rules("r1")
    spec = kernel_spec(options, {"play_b": "greedy"})
    shards, logs = [], []
    for seed in range(40):
        shards.append(kernel.play_shard(*shard_bit_generators(seed, 0, 2), 1, spec))
        logs.append(kernel.play_logged(*shard_bit_generators(seed, 0, 2), spec))
    merged = {key: sum(c[key] for c in shards) for key in shards[0]}
    table = play_table(merged, options).set_index("event")
    closers = [log["closer"] for log in logs if log["closer"] is not None]
    squares = [log["square_score"][log["closer"] % 2] for log in logs if log["closer"] is not None]
    assert 0 < closers.count(0) < len(closers)
    assert table.loc["deal closed", "count"] == len(closers)
    assert table.loc["first mover's share of closings", "estimate"] == closers.count(0) / len(closers)
    assert table.loc["closer's square score S", "estimate"] == pytest.approx(np.mean(squares))
    for side, name in enumerate("AB"):
        first = [next((t["turn"] for t in log["turns"] if t["score"][side] >= 5), None) for log in logs]
        reached = [turn for turn in first if turn is not None]
        assert table.loc[f"side {name} square reached 5 at some point", "count"] == len(reached)
        assert table.loc[f"side {name}: first turn with square >= 5", "estimate"] == pytest.approx(np.mean(reached))
        assert table.loc[f"mean deal score, side {name}", "estimate"] == pytest.approx(
            np.mean([log["deal_score"][side] for log in logs]))
    # squares that first reached exactly 5 (the first-closable rows count 5 itself)
    assert any(next((t["score"][1] for t in log["turns"] if t["score"][1] >= 5), None) == 5 for log in logs)


def test_counters_add_up_and_workers_do_not_matter():
    config = RunConfig("square", "play", "r1", 6000, seed=5, shard_size=1500, strategies={"close_b": "at7"})
    one = run(config, workers=1)
    two = run(config, workers=2)
    for k in one.counters:
        assert np.array_equal(one.counters[k], two.counters[k]), k
    c = one.counters
    assert c["deals"][0] == 6000 and c["deal_score"].sum(axis=1).tolist() == [6000, 6000]
    assert c["closed"][0] == c["closer_seat"].sum() == c["close_turn"].sum() == c["close_square"].sum()
    assert c["close_square"][:5].sum() == 0
    assert c["actions"].sum() == c["turns"][0]
    table = play_table(c, config.rule_options)
    assert ((table.ci_low <= table.estimate) & (table.estimate <= table.ci_high)).dropna().all()


def test_greedy_always_closes_unopposed_and_never_closing_never_closes():
    c = run(RunConfig("square", "play", "r1", 2000, seed=3, strategies={"play_a": "greedy", "play_b": "greedy"})).counters
    assert c["closed"][0] > 1900
    assert c["actions"][:, 1].sum() == 0            # the line-builder never plays into the other square
    c = run(RunConfig("square", "play", "r1", 2000, seed=3, strategies={"close_a": "never", "close_b": "never"})).counters
    assert c["closed"][0] == 0


def test_last_chance_closing():
    # A side waiting for 14 still closes on the last action of the deal with 6 or more (2S - 6 is
    # then at least S), but not with 5 (closing would score 4 instead of 5).
    options = GAME.resolve_rules("r1")
    spec = kernel_spec(options, {"play_a": "greedy", "close_a": "at14", "close_b": "at14"})
    seen = set()
    for seed in range(30):
        log = kernel.play_logged(*shard_bit_generators(seed, 0, 2), spec)
        last = log["turns"][-1]
        side = last["seat"] % 2
        s = last["score"][side]
        assert len(log["turns"]) == 32 and last["closed"] == (s >= 6)
        assert log["deal_score"][side] == (2 * s - 6 if s >= 6 else s)
        seen.add(s)
    assert {5, 6} <= seen


def test_four_players_ask_partner_counters():
    c = run(RunConfig("square", "play", "r1_four", 3000, seed=2,
                      strategies={"ask": "always", "agree": "at14"})).counters
    assert c["asks"][0] > 0 and c["refusals"][0] <= c["asks"][0]
    # the partner agrees only at 14 (or with >= 6 on the last action): nearly every ask is refused
    assert c["refusals"][0] >= 0.9 * c["asks"][0]
    assert c["closer_seat"][2:].sum() > 0


def test_a_partner_who_never_agrees_refuses_even_the_last_chance():
    # agree=never refuses every ask, also on the deal's last action (where at14 would consent from
    # 6); with every close asked, nobody closes at all
    c = run(RunConfig("square", "play", "r1_four", 3000, seed=2,
                      strategies={"ask": "always", "agree": "never"})).counters
    assert c["asks"][0] > 0 and c["refusals"][0] == c["asks"][0]
    assert c["closer_seat"].sum() == 0


def test_asks_per_deal_have_their_squares_and_an_interval():
    # One-deal shards against the logged deal: the asks are the turns that asked the partner, and
    # their square is counted beside them for the interval of the mean asks per deal.
    options = GAME.resolve_rules("r1_four")
    spec = kernel_spec(options, {"ask": "always", "agree": "at14"})
    asked, shards = [], []
    for seed in range(30):
        c = kernel.play_shard(*shard_bit_generators(seed, 0, 2)[:2], 1, spec)
        log = kernel.play_logged(*shard_bit_generators(seed, 0, 2)[:2], spec)
        asked.append(sum(turn["asked"] for turn in log["turns"]))
        assert (c["asks"][0], c["asks_sq"][0]) == (asked[-1], asked[-1] ** 2)
        # the moments of the shares: the deal's actions of each kind x and all of them y
        x, y = c["actions"].sum(axis=0), c["actions"].sum()
        assert c["kind_moments"].tolist() == [[v * v, v * y] for v in x] and c["actions_sq"][0] == y * y
        r = c["refusals"][0]
        assert c["refusal_moments"].tolist() == [r * r, r * asked[-1]]
        shards.append(c)
    assert max(asked) > 1
    # thirty deals merged: a share's interval is the ratio estimator's over the deals
    merged = {key: sum(c[key] for c in shards) for key in shards[0]}
    share = play_table(merged, options).set_index("event").loc["action: discard"]
    x = np.array([c["actions"][:, 2].sum() for c in shards], float)
    y = np.array([c["actions"].sum() for c in shards], float)
    ratio = x.sum() / y.sum()
    half = 1.959964 * np.std(x - ratio * y, ddof=1) / np.sqrt(30) / y.mean()
    assert (share.estimate, share.ci_low, share.ci_high) == pytest.approx((ratio, ratio - half, ratio + half), rel=1e-6)
    config = RunConfig("square", "play", "r1_four", 3000, seed=2, strategies={"ask": "always", "agree": "at14"})
    c = run(config).counters
    row = play_table(c, config.rule_options).set_index("event").loc["partner asked, mean times per deal"]
    mean = c["asks"][0] / 3000
    half = 1.959964 * np.sqrt((c["asks_sq"][0] / 3000 - mean ** 2) * 3000 / 2999 / 3000)
    assert (row.estimate, row.ci_low, row.ci_high) == pytest.approx((mean, mean - half, mean + half), rel=1e-6)


def test_thresholds_follow_the_logged_deals():
    # One-deal shards of the thresholds analysis beside the deal played in both seatings: the tested
    # side (spoiler closing at t) as side A, then as side B, against greedy closing at 7; seat 0
    # moves first both times. The table's means are per deal and seating.
    options = GAME.resolve_rules("r1")
    thresholds = ["never" if t >= 15 else f"at{t}" for t in kernel.THRESHOLD_VARIANTS]
    n = 12
    net = np.zeros((n, len(thresholds)))
    closed = np.zeros(len(thresholds))
    shards = []
    for seed in range(n):
        shards.append(kernel.thresholds_shard(*shard_bit_generators(seed, 0, 2), 1,
                                              kernel_spec(options, {"play_b": "greedy", "close_b": "at7"})))
        for v, close in enumerate(thresholds):
            for tested, roles in ((0, {"close_a": close, "play_b": "greedy", "close_b": "at7"}),
                                  (1, {"play_a": "greedy", "close_a": "at7", "close_b": close})):
                log = kernel.play_logged(*shard_bit_generators(seed, 0, 2), kernel_spec(options, roles))
                net[seed, v] += log["deal_score"][tested] - log["deal_score"][1 - tested]
                closed[v] += log["closer"] is not None and log["closer"] % 2 == tested
    table = thresholds_table({key: sum(c[key] for c in shards) for key in shards[0]})
    assert table.mean_net.tolist() == pytest.approx((net.mean(axis=0) / 2).tolist())
    assert table.diff_vs_at5.tolist() == pytest.approx(((net - net[:, :1]).mean(axis=0) / 2).tolist())
    assert table.closed_rate.tolist() == pytest.approx((closed / (2 * n)).tolist())
    assert len(set(net.sum(axis=0))) > 1 and 0 < closed.sum()


def test_thresholds_and_match_analyses():
    c = run(RunConfig("square", "thresholds", "r1", 300, seed=4, shard_size=100)).counters
    table = thresholds_table(c)
    assert len(table) == len(kernel.THRESHOLD_VARIANTS) and table.best.sum() == 1
    assert table.iloc[-1].closed_rate == 0                         # "never" never closes
    assert table.iloc[0].diff_vs_at5 == 0
    best = table[table.best].iloc[0]
    assert best.diff_vs_best == 0 and (table.diff_vs_best <= 1e-12).all()
    m = run(RunConfig("square", "match", "r1", 300, seed=4, shard_size=100)).counters
    assert m["matches"][0] == 300 == m["winner"].sum() == m["deals"].sum()
    assert m["winner_total"][:33].sum() == 0                       # the winner reached the target
    assert m["winner"][2] == 0                                     # a tie over the target plays on
    assert m["unfinished"][0] == 0
    # a long match is played to its end (matches were once cut at 63 deals and "won" by the leader)
    m = run(RunConfig("square", "match", "r1", 20, seed=4, overrides={"match_target": 1000})).counters
    assert m["winner"][:2].sum() == 20 and m["unfinished"][0] == 0
    assert m["winner_total"][:1000].sum() == 0 and m["deals"][:100].sum() == 0
    assert "unfinished after 4,096 deals" in set(match_table(m, GAME.resolve_rules("r1")).event)
    m = run(RunConfig("square", "match", "r1", 300, seed=4, shard_size=100, overrides={"match": "deals"})).counters
    assert m["deals"][4] == 300 == m["total_deals"][0] // 4        # §1 #7: 4 deals with two players
    assert m["winner"].sum() == 300
    m = run(RunConfig("square", "match", "r1_four", 200, seed=4, overrides={"match": "deals"})).counters
    assert m["deals"][2] == 200                                    # 2 deals with four players
    assert len(match_table(m, GAME.resolve_rules("r1_four"))) == 6


def test_match_ends_when_a_side_reaches_the_target():
    # §3: the first side at or over the target after a deal wins; both over it and level, another
    # deal. Each match here has the first deal's higher score as its target (spoilers draw no
    # random numbers, so the match's first deal is the logged one).
    options = GAME.resolve_rules("r1")
    level = set()
    for seed in range(12):
        a, b = kernel.play_logged(*shard_bit_generators(seed, 0, 2), kernel_spec(options))["deal_score"]
        spec = kernel_spec(dict(options, match_target=max(a, b)))
        m = kernel.match_shard(*shard_bit_generators(seed, 0, 2), 1, spec)
        if a != b:
            assert m["deals"][1] == 1 and m["winner"][int(b > a)] == 1
            assert m["winner_total"][max(a, b)] == m["loser_total"][min(a, b)] == 1
        else:
            assert m["deals"][1] == 0 and m["winner"][2] == 0
        level.add(a == b)
    assert level == {True, False}


def test_first_mover_rotates_from_deal_to_deal():
    # Two-deal matches: side A moves first in the first deal, side B in the second, so the sides
    # are exchangeable and win equally often (spoilers: the first mover wins most single deals).
    m = run(RunConfig("square", "match", "r1", 1000, seed=6, overrides={"match": "deals", "match_deals": 2})).counters
    a, b = m["winner"][:2]
    assert abs(a - b) <= 4 * np.sqrt(a + b)


def test_match_table_rows():
    c = kernel.new_match_counters()
    c["matches"][0] = 10
    c["winner"][:] = [5, 3, 1]
    c["unfinished"][0] = 1
    c["deals"][[2, 3, 7]] = [4, 5, 1]                 # (4 * 2 + 5 * 3 + 7) / 10 = 3 deals a match
    c["closed_deals"][0], c["total_deals"][0] = 6, 30
    table = match_table(c, GAME.resolve_rules("r1"))
    assert table.event.tolist()[:3] == ["side A wins", "side B wins", "drawn"]
    assert table.estimate.tolist() == pytest.approx([0.5, 0.3, 0.1, 0.1, 3.0, 0.2])


# ---------------------------------------------------------------------------------------------
# Golden playthroughs

GOLDEN_CASES = {
    "r1_spoiler_seed1": (1, "r1", {}, {}),
    "r1_greedy_vs_spoiler_seed2": (2, "r1", {}, {"play_a": "greedy", "close_a": "at8"}),
    "r1_four_ask_seed3": (3, "r1_four", {}, {"ask": "always", "agree": "at6"}),
    "rank_fixed_36_seed4": (4, "r1", {"deck": 36, "placement": "rank_fixed"}, {}),
    "draw8_cover_seed5": (5, "r1", {"deal": "draw8", "cover": "yes", "qj_remove": "any"}, {}),
}


def golden_text(name):
    seed, preset, overrides, strategies = GOLDEN_CASES[name]
    return format_deal(play_deal(seed, preset, strategies, **overrides))


@pytest.mark.parametrize("name", list(GOLDEN_CASES))
def test_golden_playthroughs(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert golden_text(name) == expected, f"regenerate with: python tests/test_square.py --regen ({name})"


def regen():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN_CASES:
        (GOLDEN / f"{name}.txt").write_text(golden_text(name))
        print(f"wrote {GOLDEN / name}.txt")


# ---------------------------------------------------------------------------------------------
# CLI and report

def test_cli_score_play_and_errors(capsys):
    assert main(["square", "score", VECTORS[0][1], "--other", VECTORS[1][1]]) == 0
    out = capsys.readouterr().out
    assert "Total 10" in out and "closing side scores 14, the other side 4" in out
    assert main(["square", "play", "--seed", "2", "--strategy", "play_a=greedy"]) == 0
    assert "deal score: A" in capsys.readouterr().out
    assert main(["square", "score", "7H 7H TD / 8D JD 9H / QD KD AD"]) == 2
    assert "duplicate card '7H'" in capsys.readouterr().err
    # the deal is checked before the first square's breakdown is printed
    for other, message in (("7H KC 7S / JH -- 8S / QH AS 9S", "card '7H' is in both squares"),
                           ("7H", "--other: a square has 9 cells, got 1")):
        assert main(["square", "score", "7H 8H TD / 8D JD 9H / QD KD AD", "--other", other]) == 2
        out, err = capsys.readouterr()
        assert out == "" and message in err
    assert main(["square", "odds", "--deals", "100", "--no-store", "--set", "placement=rank_fixed"]) == 2
    assert "rank_fixed needs deck=36" in capsys.readouterr().err
    # asking the partner needs a partner (2 vs 2)
    assert main(["square", "odds", "--deals", "100", "--no-store", "--strategy", "ask=always"]) == 2
    assert "has no partner" in capsys.readouterr().err
    assert main(["square", "odds", "--deals", "100", "--no-store", "--rules", "r1_four", "--strategy", "ask=always"]) == 0
    capsys.readouterr()
    # the thresholds analysis tries every closing threshold of side A itself
    assert main(["square", "thresholds", "--deals", "100", "--no-store", "--strategy", "close_a=at7"]) == 2
    assert "no strategy role 'close_a'" in capsys.readouterr().err


def test_cli_odds_json(capsys):
    assert main(["square", "odds", "--deals", "2000", "--seed", "3", "--workers", "2", "--json", "--no-store",
                 "--strategy", "close_a=at7", "--set", "qj_remove=none"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["strategies"]["close_a"] == "at7" and data["run"]["rule_options"]["qj_remove"] == "none"
    events = {row["event"] for row in data["table"]}
    assert "deal closed" in events and "mean deal score, side A" in events


def test_report_sections(tmp_path):
    from analyzer.report import ReportContext, write_report

    ctx = ReportContext(seed=3, workers=2, scale=0.005)
    sections = GAME.report(ctx)
    written = write_report("square", "square", sections, ctx, tmp_path)
    md = (tmp_path / "square.md").read_text()
    assert "original rules of this game are lost" in md
    for option in ("qj_remove", "placement", "cover", "close_timing", "no_closer", "deal"):
        assert option in md
    assert "Best threshold by variant" in md and "Random squares, 32 cards" in md
    assert any(p.endswith(".png") for p in written)


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regen()
