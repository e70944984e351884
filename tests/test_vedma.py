"""Ved'ma: the vectors and exact values of rules/vedma.md, Monte Carlo against the exact Markov
chain, invariants of random play, golden playthroughs and the compiled kernel against the
pure-Python reference engine in vedma_reference.py.

    python tests/test_vedma.py --regen     rewrites tests/golden/vedma/*.txt
"""
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer._core import vedma as kernel
from analyzer.cards import FULL52
from analyzer.cli import main
from analyzer.games import get_game
from analyzer.games.vedma import (build_report, discard_pairs, exact_values, length_table, loss_table, parse_hands,
                                  placement_table, play_deal, position_odds, session_expectations,
                                  session_spread)
from analyzer.runner import RunConfig, run

sys.path.insert(0, str(Path(__file__).parent))
import vedma_reference as ref  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "vedma"
LOSER, DRAWS = kernel.ROW_LAYOUT.index("loser"), kernel.ROW_LAYOUT.index("draws")


def options(preset="seed", **overrides):
    return get_game("vedma").resolve_rules(preset, overrides)


def within(count, n, p, sigmas=4.5, extra_se=0.0):
    se = (p * (1 - p) / n + extra_se ** 2) ** 0.5
    return abs(count / n - p) <= sigmas * se + 1e-12


# ---------------------------------------------------------------------------------------------
# Known answers: §6 vectors

@pytest.mark.parametrize("hand,left", [
    ("7S 7H 7D QS QH", {"count": 3, "has": {"QS", "QH"}, "one_of": {"7S", "7H", "7D"}}),   # V1
    ("QS QH QD QC", {"count": 2, "has": {"QS"}, "one_of": {"QH", "QD", "QC"}}),          # V2
    ("AS AH AD AC 8S", {"count": 1, "has": {"8S"}, "one_of": set()}),                    # V3
    ("QS QH", {"count": 2, "has": {"QS", "QH"}, "one_of": set()}),                       # V4
])
def test_discard_vectors(hand, left):
    out = discard_pairs(hand)
    assert len(out) == left["count"]
    assert left["has"] <= set(out)
    if left["one_of"]:
        assert len(set(out) & left["one_of"]) == 1


@pytest.mark.parametrize("a,b,p_lose,draws", [
    ("QS", "QH", Fraction(1), Fraction(1)),                       # V5
    ("QH", "QS", Fraction(1), Fraction(1)),                       # V6
    ("QS 8H", "8S", Fraction(1), Fraction(1)),                    # V7
    ("8H", "8S QS", Fraction(1, 3), None),                        # V8
    ("8H", "8S QS QH", Fraction(1, 2), Fraction(3)),              # V9
    ("8H QH", "8S QS", Fraction(1, 4), Fraction(3)),              # V10
    ("8H 9H QS", "8S 9S QH", Fraction(4, 5), Fraction(21, 5)),    # V11
])
def test_two_player_position_vectors(a, b, p_lose, draws):
    odds = position_odds([a, b], to_draw=0)
    assert odds.lose[0] == p_lose and odds.lose[1] == 1 - p_lose
    if draws is not None:
        assert odds.expected_draws == draws


def test_position_with_pairs_discards_them_first():
    # 7S 7H pair out of A's hand, leaving V8.
    assert position_odds(["8H 7S 7H", "8S QS"]).lose[0] == Fraction(1, 3)
    # With B to draw: B takes A's only card, pairs the 8s and is left alone with QS.
    assert position_odds(["8H", "8S QS"], to_draw=1).lose[1] == 1


def test_a_large_position_is_solved_in_floating_point_and_a_huge_one_refused(monkeypatch, capsys):
    # four one-suit hands of the 32-card pack (QS with the hearts): 491 states of the chain
    from analyzer.games import vedma

    hands = ["7S 8S 9S TS", "7H 8H 9H TH QS", "7D 8D 9D TD", "7C 8C 9C TC"]
    exact = position_odds(hands, deck=32)
    assert exact.exact and exact.states == 491 and sum(exact.lose) == 1
    monkeypatch.setattr(vedma, "EXACT_POSITION_STATES", 100)
    floats = position_odds(hands, deck=32)
    assert not floats.exact and floats.states == 491
    assert floats.lose == pytest.approx([float(x) for x in exact.lose], rel=1e-11)
    assert floats.expected_draws == pytest.approx(float(exact.expected_draws), rel=1e-11)
    assert position_odds(hands, deck=32, exact=True) == exact
    assert main(["vedma", "position", *sum((["--hand", h] for h in hands), [])]) == 0
    out = capsys.readouterr().out
    assert f"seat 0: P(lose) = {floats.lose[0]:.12g}\n" in out and "491 states of the chain" in out
    monkeypatch.setattr(vedma, "MAX_POSITION_STATES", 400)
    with pytest.raises(ValueError, match="more than 400 states of the chain: too many to solve here"):
        position_odds(hands, deck=32)
    with pytest.raises(ValueError, match="exact must be True, False or None"):
        position_odds(hands, deck=32, exact="yes")


# ---------------------------------------------------------------------------------------------
# Known answers: whole-game oracles (exact)

def test_exact_two_players_match_rules_file():
    e = exact_values(2, 32, "standard")
    assert e.lose[0] == Fraction(2405837933, 9016205850)
    assert e.expected_draws == Fraction(48051346688, 8114585265)
    assert e.states == 29
    k_dist = [0.00808, 0.05544, 0.16633, 0.27327, 0.27327, 0.16199, 0.05400, 0.00763]
    for k, p in enumerate(k_dist):
        assert abs(float(e.cards_at_start[2 * k + 2]) - p) < 5e-6, k
    assert exact_values(2, 32, "literal").lose[0] == Fraction(6996677, 29464725)
    assert exact_values(2, 52, "standard").lose[0] == Fraction(1611892446876527, 6267859235871870)


@pytest.mark.parametrize("deck,expected,states", [
    (32, (0.349848890962, 0.336652133959, 0.313498975079), 1092),
    (52, (0.196799049886, 0.643388199272, 0.159812750842), 4074),
])
def test_exact_three_players_match_rules_file(deck, expected, states):
    e = exact_values(3, deck, "standard")
    assert e.states == states
    assert np.allclose([float(x) for x in e.lose], expected, atol=1e-11)


def test_chain_reproduces_the_old_maid_anchor():
    # §6's anchor: Old Maid with the queen of spades and 8 pairs, 2 players, the non-dealer (9
    # cards, seat 0) draws first: the dealer wins with probability 17/33. After the discard a
    # rank is either gone (both cards in one hand) or split between the hands, so a deal comes
    # down to b split ranks and the witch's seat; the Chain solves each such start exactly.
    from math import comb, factorial
    from analyzer.games.vedma import Chain
    chain = Chain(2)
    dealer_wins, deals = Fraction(0), 0
    for witch in (0, 1):
        for split in range(9):
            pairs_left = 9 - (witch == 0) - split        # cards the non-dealer holds in whole pairs
            if pairs_left % 2 or pairs_left < 0:
                continue
            a = pairs_left // 2
            c = 8 - a - split
            if c < 0:
                continue
            ways = factorial(8) // (factorial(a) * factorial(split) * factorial(c)) * 2 ** split
            start = chain.settle((0, 0, 0, split), witch, 0)
            lose = (Fraction(int(start == 0)) if isinstance(start, int)
                    else chain.solve(chain.explore([start]), exact=True)[start][0])
            dealer_wins += ways * lose
            deals += ways
    assert deals == comb(17, 9)
    assert dealer_wins / deals == Fraction(17, 33)


def test_exact_three_players_fractions_agree_with_floats():
    # The two solvers (exact elimination and sparse LU by levels) on the same chain.
    exact = exact_values(3, 32, "standard", exact=True)
    floats = exact_values(3, 32, "standard", exact=False)
    assert isinstance(exact.lose[0], Fraction) and sum(exact.lose) == 1
    assert np.allclose([float(x) for x in exact.lose], floats.lose, atol=1e-12)
    assert abs(float(exact.expected_draws) - floats.expected_draws) < 1e-9
    # the floats keep 12 significant digits (the solve's last digits vary by machine), so that the
    # report's exact columns are the same everywhere
    for x in (*floats.lose, floats.expected_draws, *floats.witch_at_start_loses):
        assert x == float(f"{x:.12g}") and x != float(f"{x:.11g}")


def test_exact_refuses_what_it_cannot_solve():
    with pytest.raises(ValueError, match="literal order with 2 players"):
        exact_values(3, 32, "literal")
    with pytest.raises(ValueError, match="5 players"):
        exact_values(5, 32, "standard")


@pytest.mark.slow
def test_exact_four_players_matches_rules_file_monte_carlo(runslow):
    if not runslow:
        pytest.skip("about a minute; run with --runslow")
    e = exact_values(4, 32, "standard")
    # Rules file (Monte Carlo, 100-200k deals): 0.123, 0.147, 0.184, 0.546.
    assert np.allclose([float(x) for x in e.lose], [0.123, 0.147, 0.184, 0.546], atol=0.004)
    result = run(RunConfig("vedma", "play", "standard", deals=2_000_000, seed=44, overrides={"players": 4}), workers=2)
    table = loss_table(result.counters, result.config.rule_options, slow_exact=True)
    assert (table[table.event == "loses"].z.abs() < 4.5).all()


# ---------------------------------------------------------------------------------------------
# Known answers: Monte Carlo against the exact values

@pytest.mark.parametrize("preset,players,deck", [
    ("standard", 2, 32), ("seed", 2, 32), ("standard", 3, 32), ("standard", 3, 52), ("seed", 2, 52),
])
def test_monte_carlo_matches_exact(preset, players, deck, runslow):
    deals = 2_000_000 if runslow else 200_000
    result = run(RunConfig("vedma", "play", preset, deals=deals, seed=2026,
                           overrides={"players": players, "deck": deck}), workers=2)
    table = loss_table(result.counters, result.config.rule_options)
    checked = table.dropna(subset=["exact"])
    checked = checked[checked.event != "mean number of draws"]
    assert len(checked) >= 3 * players
    for _, row in checked.iterrows():
        if row["exact"] in (0.0, 1.0):
            assert row["estimate"] == row["exact"], (row["event"], row["seat"])
        else:
            assert abs(row["z"]) < 4.5, (row["event"], row["seat"], row["z"])
    mean = table[table.event == "mean number of draws"].iloc[0]
    half = (mean["ci_high"] - mean["ci_low"]) / 2
    assert abs(mean["estimate"] - mean["exact"]) < 4.5 / 1.96 * half
    if preset == "standard" and players == 2:
        # Cards left after the preliminary discard, against the exact distribution.
        e = exact_values(players, deck, "standard")
        for cards, p in e.cards_at_start.items():
            assert within(result.counters["cards_at_start"][cards], deals, float(p)), cards


@pytest.mark.parametrize("players,expected", [
    (4, (0.123, 0.147, 0.184, 0.546)),
    (5, (0.217, 0.327, 0.100, 0.116, 0.239)),
    (6, (0.082, 0.097, 0.245, 0.194, 0.317, 0.065)),
])
def test_monte_carlo_matches_rules_file_estimates(players, expected, runslow):
    # The rules file's 4-6 player figures are themselves estimates (about 1e5 deals, 3 decimals).
    deals = 1_000_000 if runslow else 200_000
    result = run(RunConfig("vedma", "play", "standard", deals=deals, seed=7, overrides={"players": players}), workers=2)
    for seat, p in enumerate(expected):
        assert within(result.counters["lose"][seat], deals, p, extra_se=(p * (1 - p) / 1e5) ** 0.5 + 0.0005), seat


# ---------------------------------------------------------------------------------------------
# Invariants under random play

@pytest.mark.parametrize("players,deck,order", [(2, 52, "literal"), (4, 32, "standard"), (6, 32, "literal"),
                                                (5, 52, "standard")])
def test_invariants_of_random_deals(players, deck, order):
    n = 20_000
    rows = np.zeros((n, len(kernel.ROW_LAYOUT)), np.uint64)
    c = kernel.play_shard(np.random.PCG64(5), n, options(players=players, deck=deck, order=order), rows=rows)
    hands = rows[:, :players]
    full = int(sum(FULL52.mask(r + s) for s in "SHDC" for r in ("789TJQKA" if deck == 32 else "23456789TJQKA")))
    witch = 1 << FULL52.bit("QS")
    sizes = [deck // players + (i < deck % players) for i in range(players)]
    for row in hands[:2000]:
        masks = [int(m) for m in row]
        assert sum(masks) == full and all(a & b == 0 for i, a in enumerate(masks) for b in masks[i + 1:])
        assert [bin(m).count("1") for m in masks] == sizes
    loser, draws = rows[:, LOSER].astype(int), rows[:, DRAWS].astype(int)
    assert np.all(loser < players)
    assert np.array_equal(c["lose"][:players], np.bincount(loser, minlength=players))
    assert c["draws_sum"][0] == draws.sum() and c["draws_sumsq"][0] == (draws ** 2).sum()
    assert c["draws_hist"].sum() == n == c["deals"][0] == c["witch_at_start"].sum()
    assert np.all(c["witch_at_start_loses"] <= c["witch_at_start"])
    # Literal order: nothing is discarded before the first draw. Standard order: QS and one plain
    # queen always survive the preliminary discard, and the discard only removes pairs.
    if order == "literal":
        assert draws.min() >= 1 and c["out_at_start"].sum() == 0 and c["cards_at_start"][deck] == n
    else:
        assert c["cards_at_start"][:2].sum() == 0 and c["cards_at_start"][1::2].sum() == 0
    # The dealt hands with the witch: the loser holds it at the end; literal order deals QS as is.
    if order == "literal":
        holder = np.array([[int(m) & witch != 0 for m in row] for row in hands]).argmax(axis=1)
        assert np.array_equal(c["witch_at_start"][:players], np.bincount(holder, minlength=players))


def test_same_seed_same_counters_on_any_number_of_workers():
    config = RunConfig("vedma", "play", "seed", deals=60_000, seed=3, shard_size=20_000)
    one = run(config, workers=1).counters
    two = run(config, workers=2).counters
    assert all(np.array_equal(one[k], two[k]) for k in one)


def test_playthrough_obeys_the_rules():
    deal = ref.Engine(5, 32, "literal", np.random.PCG64(8)).deal()
    for order in ("literal", "standard"):
        p = play_deal([" ".join(h) for h in deal], "seed", seed=4, order=order)
        hands = [set(h) for h in p.dealt]
        if order == "standard":
            hands = [set(discard_pairs(h)) for h in hands]
        for d in p.draws:
            assert hands[d.drawer] and hands[d.victim] and d.drawer != d.victim
            # the victim is the nearest seat on the drawer's right holding cards
            seat = (d.drawer - 1) % 5
            while not hands[seat]:
                seat = (seat - 1) % 5
            assert seat == d.victim and d.card in hands[d.victim]
            hands[d.victim].discard(d.card)
            hands[d.drawer] = set(discard_pairs(sorted(hands[d.drawer] | {d.card})))
            assert [set(h) for h in d.hands_after] == hands
        assert [bool(h) for h in hands].count(True) == 1 and "QS" in hands[p.loser]


def test_placement_counters_are_consistent_and_pair_up():
    deals = 20_000
    c = kernel.placement_shard(np.random.PCG64(1), np.random.PCG64(2), deals, options(), 2.0)
    assert np.all(c["lose"][:6, :4].sum(axis=1) == deals)
    for v in range(1, 6):
        for s in range(4):
            both, only_random, only_variant = c["paired"][v, s]
            assert both + only_random == c["lose"][0, s]
            assert both + only_variant == c["lose"][v, s]


def test_smart_holder_gives_up_the_witch_at_the_model_rate():
    # Seat 1 holds 7S QS 8S (three cards): with edge weight e a smart holder gives QS away with
    # probability max(e,1)/(2e+1); a random holder with 1/3.
    hands = [FULL52.mask("7H"), FULL52.mask("7S QS 8S")]
    rules = options(players=2, order="literal")
    for e, smart, p in ((3.0, (1,), 3 / 7), (0.5, (1,), 0.5), (3.0, (), 1 / 3)):
        n = 6000
        taken = sum(kernel.play_traced(hands, rules, np.random.PCG64(i), smart, e)[2][0, 2] == FULL52.bit("QS")
                    for i in range(n))
        assert within(taken, n, p), (e, smart)


def test_offering_the_witch_helps_against_a_biased_drawer_and_is_neutral_against_a_fair_one():
    result = run(RunConfig("vedma", "placement", "seed", deals=100_000, seed=5, overrides={"edge_weight": 3}), workers=2)
    table = placement_table(result.counters, result.config.rule_options)
    alone = table[table.smart_holders == "this seat alone"]
    assert (alone.diff_ci_high < 0).all()      # every seat loses less by offering it at an edge
    # When every seat does it, the changes cancel out: one loser per deal.
    assert abs(table[table.smart_holders == "every seat"].difference.sum()) < 1e-12
    fair = run(RunConfig("vedma", "placement", "seed", deals=100_000, seed=5, overrides={"edge_weight": 1}), workers=2)
    table = placement_table(fair.counters, fair.config.rule_options)
    width = table.diff_ci_high - table.diff_ci_low
    assert (table.difference.abs() < 4.5 / 3.92 * width).all()


def test_session_rotation_evens_out_over_a_round():
    seat_loss = [0.1, 0.2, 0.3, 0.4]
    rotate = session_expectations(seat_loss, "rotate", 8)
    assert np.allclose(rotate.expected_losses, 2 * 0.25 * 4)
    loser = session_expectations(seat_loss, "loser", 1)
    assert np.allclose(loser.expected_losses, seat_loss)
    # Loser deals: the player who just lost sits at the dealer's seat (loss 0.4) next deal.
    two = session_expectations(seat_loss, "loser", 2)
    assert np.isclose(two.expected_losses.sum(), 2)
    for deals in (0, -5):               # once NaN shares or silent zeros
        with pytest.raises(ValueError, match="deals must be an integer from 1"):
            session_expectations(seat_loss, "rotate", deals)


def test_session_share_intervals_carry_the_seat_rates_uncertainty():
    """The delta-method interval of a session share against the spread of shares computed from
    multinomial samples of the seat rates; one deal: the share is the seat's own rate."""
    seat_loss, sampled = np.array([0.1, 0.2, 0.3, 0.4]), 10_000
    one = session_expectations(seat_loss, "loser", 1, sampled)
    assert np.allclose(one.share_ci_high - one.share, 1.959964 * np.sqrt(seat_loss * (1 - seat_loss) / sampled))
    rng = np.random.default_rng(4)
    for rule, deals in (("loser", 5), ("rotate", 6)):
        table = session_expectations(seat_loss, rule, deals, sampled)
        simulated = np.array([session_expectations(rng.multinomial(sampled, seat_loss) / sampled, rule, deals).share
                              for _ in range(2000)])
        half = (table.share_ci_high - table.share).to_numpy()
        assert np.allclose(half / 1.959964, simulated.std(axis=0), rtol=0.08)
    # A full round of rotation: every share is exactly 1/n whatever the rates, so no width.
    full = session_expectations(seat_loss, "rotate", 8, sampled)
    assert np.allclose(full.share_ci_low, 0.25) and np.allclose(full.share_ci_high, 0.25)
    even = session_spread(seat_loss, "rotate", 8, sampled)
    assert even["spread"] == 0.0 and even["most_losses"] is None
    spread = session_spread(seat_loss, "loser", 5, sampled)
    shares = session_expectations(seat_loss, "loser", 5).share
    assert (spread["most_losses"], spread["fewest_losses"]) == (3, 0)
    assert np.isclose(spread["spread"], shares[3] - shares[0])
    assert spread["spread_ci_low"] < spread["spread"] < spread["spread_ci_high"]


def test_length_table_adds_up():
    c = kernel.play_shard(np.random.PCG64(9), 10_000, options())
    table = length_table(c)
    assert table["count"].sum() == 10_000 and abs(table["cumulative"].iloc[-1] - 1) < 1e-12


# ---------------------------------------------------------------------------------------------
# Cross-implementation: the kernel against the reference engine on the same random stream

@pytest.mark.parametrize("players,deck,order", [(2, 32, "literal"), (3, 32, "standard"), (4, 32, "literal"),
                                                (5, 52, "standard"), (6, 32, "standard"), (2, 52, "standard")])
def test_kernel_matches_reference(players, deck, order, runslow):
    n = 5000 if runslow else 1500
    rows = np.zeros((n, len(kernel.ROW_LAYOUT)), np.uint64)
    c = kernel.play_shard(np.random.PCG64(17), n, options(players=players, deck=deck, order=order), rows=rows)
    engine = ref.Engine(players, deck, order, np.random.PCG64(17))
    lose = np.zeros(players, np.int64)
    witch_loses = np.zeros(players, np.int64)
    for d in range(n):
        hands = engine.deal()
        assert [FULL52.mask(h) if h else 0 for h in hands] == [int(m) for m in rows[d, :players]], d
        loser, draws, at_start = engine.play(hands)
        assert (loser, draws) == (int(rows[d, LOSER]), int(rows[d, DRAWS])), d
        lose[loser] += 1
        holder = next(p for p in range(players) if "QS" in at_start[p])
        witch_loses[holder] += holder == loser
    assert np.array_equal(lose, c["lose"][:players])
    assert np.array_equal(witch_loses, c["witch_at_start_loses"][:players])


def test_kernel_discard_matches_reference_on_random_hands():
    rng = np.random.default_rng(4)
    cards = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    for _ in range(3000):
        hand = list(rng.choice(cards, size=int(rng.integers(0, 20)), replace=False))
        assert discard_pairs(hand) == FULL52.from_mask(FULL52.mask(ref.discard_pairs(hand)))


# ---------------------------------------------------------------------------------------------
# Bad input

@pytest.mark.parametrize("hands,message", [
    (["QS XH", "8S"], "malformed card 'XH'"),
    (["QS 8H", "8H"], "'8H' is given twice"),
    (["QS 2H", "8S"], "'2H' in the seat 0 hand is not in the 32-card pack"),
    (["QH 8H", "8S"], "nobody holds the witch"),
    (["QS"], "2 to 6 hands"),
    ("QS 8H", "list of hands"),
])
def test_bad_hands_are_refused(hands, message):
    with pytest.raises(ValueError, match=message):
        parse_hands(hands, 32)


def test_bad_deals_and_options_are_refused():
    with pytest.raises(ValueError, match="seat 0 hand has 17 cards; dealing 32 cards to 2 players"):
        play_deal(["7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C TS TH TD TC QS",
                   "JS JH JD JC QH QD QC KS KH KD KC AS AH AD AC"], seed=1)
    with pytest.raises(ValueError, match="to_draw must be a seat"):
        position_odds(["QS", "QH"], to_draw=2)
    for call, message in ((lambda: position_odds(None), "hands must be a list of hands"),
                          (lambda: position_odds(["QS 7H", "7D"], deck=[52]), "deck must be 32 or 52 cards"),
                          (lambda: exact_values("2", 32, "literal"), "no such game: '2' players"),
                          (lambda: play_deal(5), "hands must be a list of hands")):
        with pytest.raises(ValueError, match=message):
            call()
    two_hands = ["7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C TS TH TD TC", "JS JH JD JC QS QH QD KS KH KD KC AS AH AD AC QC"]
    with pytest.raises(ValueError, match="players=3 but 2 hands are given"):
        play_deal(two_hands, seed=1, players=3)
    assert play_deal(two_hands, seed=1, players="2").loser in (0, 1)
    # a 7 without a partner cannot be in play (cards leave in pairs); the chain would divide by zero
    for hands in (["QS 7H", "8S", "9D"], ["QS 7H", "8S"], ["QS 7H 7S 7D", "8S 8H"]):
        with pytest.raises(ValueError, match="an odd number of 7s in play"):
            position_odds(hands)
    for key, value, message in (("players", 7, "from 2 to 6"), ("deck", 40, "one of 32, 52"),
                                ("order", "pairs-first", "literal, standard"), ("edge_weight", 0, "0.01 to 100"),
                                ("next_dealer", "winner", "rotate, loser")):
        with pytest.raises(ValueError, match=message):
            options(**{key: value})
    with pytest.raises(ValueError, match="unknown vedma rule option"):
        options(jokers=1)
    # The compiled entry point refuses what would not end (no witch) or is not a position.
    rules = options(players=2)
    for hands, message in (([0, 0], "exactly one hand must hold the witch"),
                           ([FULL52.mask("QS 7H"), FULL52.mask("7H")], "disjoint"),
                           ([FULL52.mask("QS") | 1 << 15, 1], "52-card layout")):
        with pytest.raises(ValueError, match=message):
            kernel.play_traced(hands, rules, np.random.PCG64(1))


# ---------------------------------------------------------------------------------------------
# Report and command line

def test_report_sections_tables_and_exact_values():
    from analyzer.report import ReportContext

    sections = build_report(ReportContext(seed=3, workers=2, scale=0.005))
    titles = [s.title for s in sections]
    assert any("who is left with the witch" in t for t in titles) and any("witch sits" in t for t in titles)
    summary = sections[0].tables[0][1]
    assert len(summary) == 2 * 2 * sum(range(2, 7))          # orders x packs x seats of 2..6 players
    assert (summary.ci_low <= summary.estimate).all() and (summary.estimate <= summary.ci_high).all()
    with_exact = summary.dropna(subset=["exact"])
    assert set(zip(with_exact.order, with_exact.deck, with_exact.players)) == {
        ("standard", 32, 2), ("standard", 52, 2), ("standard", 32, 3), ("standard", 52, 3),
        ("literal", 32, 2), ("literal", 52, 2)}
    for _, sums in summary.groupby(["order", "deck", "players"]).estimate.sum().items():
        assert abs(sums - 1) < 1e-12
    assert sections[0].figures and sections[2].figures


def test_cli_commands(capsys):
    from analyzer.cli import main

    assert main(["vedma", "exact", "--players", "2", "--order", "literal"]) == 0
    assert "6996677/29464725" in capsys.readouterr().out
    assert main(["vedma", "position", "--hand", "8H 9H QS", "--hand", "8S 9S QH"]) == 0
    assert "4/5" in capsys.readouterr().out
    assert main(["vedma", "odds", "--deals", "20000", "--workers", "1", "--set", "players=2", "--json"]) == 0
    assert '"exact": 0.2374594367' in capsys.readouterr().out
    assert main(["vedma", "play", "--hand", "QS 8H", "--hand", "8S QH", "--set", "deck=52"]) == 2
    assert "seat 0 hand has 2 cards" in capsys.readouterr().err
    assert main(["vedma", "odds", "--deals", "1000", "--set", "players=9"]) == 2
    assert "players must be an integer from 2 to 6" in capsys.readouterr().err
    assert main(["vedma", "exact", "--players", "5", "--order", "standard"]) == 2
    assert main(["vedma", "session", "--deals", "20000", "--workers", "1", "--set", "next_dealer=loser",
                 "--session-deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "expected_losses" in out and '"next_dealer": "loser"' in out


# ---------------------------------------------------------------------------------------------
# Golden playthroughs

GOLDEN_CASES = [("2p-32-seed", 2, 32, "seed", 1), ("3p-32-standard", 3, 32, "standard", 2),
                ("4p-32-seed", 4, 32, "seed", 3), ("6p-52-standard", 6, 52, "standard", 4)]


def golden_text(players, deck, preset, seed):
    deal = ref.Engine(players, deck, "literal", np.random.PCG64(1000 + seed)).deal()
    return play_deal([" ".join(h) for h in deal], preset, seed=seed, deck=deck).explain() + "\n"


def regenerate():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, players, deck, preset, seed in GOLDEN_CASES:
        (GOLDEN / f"{name}.txt").write_text(golden_text(players, deck, preset, seed))


@pytest.mark.parametrize("name,players,deck,preset,seed", GOLDEN_CASES, ids=[c[0] for c in GOLDEN_CASES])
def test_golden_playthroughs(name, players, deck, preset, seed):
    assert golden_text(players, deck, preset, seed) == (GOLDEN / f"{name}.txt").read_text()


if __name__ == "__main__" and "--regen" in sys.argv:
    regenerate()


def test_paired_difference_stays_a_difference_of_rates():
    from analyzer.games.vedma import paired_difference
    mean, low, high = paired_difference(np.array([0, 0, 29]), 30)   # lost in the variant on 29 of 30
    assert mean == pytest.approx(29 / 30) and low < mean and high == 1.0
    assert all(np.isnan(v) for v in paired_difference(np.array([0, 0, 2]), 2)[1:])


def test_placement_takes_the_edge_weight_from_set_or_its_own_option(capsys):
    from analyzer.cli import main

    tables = []
    for given in (["--set", "edge_weight=5"], ["--edge-weight", "5"], []):
        assert main(["vedma", "placement", "--deals", "2000", "--no-store", "--json", *given]) == 0
        out = json.loads(capsys.readouterr().out)
        tables.append((out["run"]["rule_options"]["edge_weight"], out["table"]))
    assert tables[0] == tables[1] and tables[0][0] == 5.0
    assert tables[2][0] == 2.0 and tables[2][1] != tables[0][1]
    assert main(["vedma", "placement", "--deals", "10", "--no-store", "--set", "edge_weight=5",
                 "--edge-weight", "3"]) == 2
    assert "give the edge weight once" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Added by the mutation audit: rules the tests above did not pin down

def test_session_rotation_passes_the_deal_to_the_left():
    # Player 3 deals first, so player p sits at seat p. The deal passes to the left: player 0
    # (seat 0, the dealer's left) deals the second deal, and player p then sits at seat p - 1.
    seat_loss = [0.1, 0.2, 0.3, 0.4]
    two = session_expectations(seat_loss, "rotate", 2)
    assert np.allclose(two.expected_losses, [0.1 + 0.4, 0.2 + 0.1, 0.3 + 0.2, 0.4 + 0.3])
    three = session_expectations(seat_loss, "rotate", 3)   # third deal: player 1 deals, p at seat p - 2
    assert np.allclose(three.expected_losses, [0.5 + 0.3, 0.3 + 0.4, 0.5 + 0.1, 0.7 + 0.2])


def test_session_loser_deals_the_next_deal():
    # Deal 1: player 3 deals, player p loses with L[p]. Deal 2: player D deals with probability
    # L[D], and player p sits at seat (p - D - 1) mod 4, so E = sum_D L[D] L[(p - D - 1) mod 4].
    seat_loss = [0.1, 0.2, 0.3, 0.4]
    two = session_expectations(seat_loss, "loser", 2)
    second = [0.04 + 0.06 + 0.06 + 0.04, 0.01 + 0.08 + 0.09 + 0.08, 0.02 + 0.02 + 0.12 + 0.12,
              0.03 + 0.04 + 0.03 + 0.16]
    assert np.allclose(two.expected_losses, np.array(seat_loss) + second)
    # Two players: the loser of deal 1 deals deal 2 from seat 1 (the dealer's seat), the other
    # player sits at seat 0: E[player 0] = L0 + L0 * L1 + L1 * L0, E[player 1] = L1 + L0 * L0 + L1 * L1.
    l0, l1 = 0.25, 0.75
    two = session_expectations([l0, l1], "loser", 2)
    assert np.allclose(two.expected_losses, [l0 + 2 * l0 * l1, l1 + l0 * l0 + l1 * l1])


def test_loss_table_conditional_witch_row_divides_by_the_deals_where_the_seat_held_it():
    # 100 deals: seat 0 held QS when play started in 40 of them and lost 10 of those, seat 1 held
    # it in 60 and lost 45. "holds the witch ... and loses" is over all deals; "loses, given the
    # witch ..." is over the deals where the seat held it.
    counters = kernel.new_play_counters()
    counters["deals"][0] = 100
    counters["lose"][:2] = [30, 70]
    counters["witch_at_start"][:2] = [40, 60]
    counters["witch_at_start_loses"][:2] = [10, 45]
    counters["draws_hist"][3] = 100
    counters["draws_sum"][0], counters["draws_sumsq"][0] = 300, 900
    table = loss_table(counters, options(players=2, order="standard"), with_exact=False)
    both = table[table.event == "holds the witch when play starts and loses"]
    given = table[table.event == "loses, given the witch when play starts"]
    assert list(both.n) == [100, 100] and np.allclose(both.estimate, [0.10, 0.45])
    assert list(given.n) == [40, 60] and np.allclose(given.estimate, [0.25, 0.75])
    assert list(given["count"]) == [10, 45]


def test_seat_labels_name_the_first_drawer_and_the_dealer():
    from analyzer.games.vedma import seat_name
    # Seats are numbered clockwise from the dealer's left: seat 0 draws first, seat n-1 deals.
    assert [seat_name(p, 3) for p in range(3)] == ["seat 0 (draws first)", "seat 1", "seat 2 (dealer)"]
    counters = kernel.play_shard(np.random.PCG64(2), 200, options(players=2))
    table = loss_table(counters, options(players=2), with_exact=False)
    assert list(table[table.event == "loses"].seat) == ["seat 0 (draws first)", "seat 1 (dealer)"]


def test_discard_refuses_a_card_outside_the_pack():
    assert discard_pairs("7S 7H QS", 32) == ["QS"]
    with pytest.raises(ValueError, match="'2H' is not in the 32-card pack"):
        discard_pairs("7S 2H", 32)


def test_session_refuses_an_unknown_dealer_rule():
    with pytest.raises(ValueError, match="next_dealer must be rotate or loser"):
        session_expectations([0.5, 0.5], "winner", 2)
    with pytest.raises(ValueError, match="next_dealer must be rotate or loser"):
        session_spread([0.5, 0.5], "winner", 2, 100)


def test_play_deal_refuses_a_negative_seed():
    hands = ["7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C TS TH TD TC",
             "JS JH JD JC QS QH QD KS KH KD KC AS AH AD AC QC"]
    assert play_deal(hands, seed=0).loser in (0, 1)
    for seed in (-1, True, 1.5):
        with pytest.raises(ValueError, match="the seed must be a non-negative integer"):
            play_deal(hands, seed=seed)
