"""Piquet play, deal totals and the partie: the vectors of rules/piquet.md §13.2 and §13.4, the
double-dummy search against plain minimax, the compiled deal engine against the reference, and
invariants of whole simulated deals."""
import random
from math import comb

import numpy as np
import pytest

from analyzer._core import piquet as kernel
from analyzer.cards import PIQUET32
from analyzer.games import get_game
from analyzer.games.piquet import round10, score_declarations, score_deal, score_partie
from analyzer.runner import RunConfig, run
from analyzer.strategies import register

import piquet_reference as ref

TV10 = ("AS KS QS JS TS 9S AH AD 7H 8H 7D 8D", "KH QH JH TH 9H KD QD JD KC QC JC TC")
TV10_TRICKS = "AS/TC KS/JC QS/QC JS/KC TS/9H 9S/TH AH/JH AD/JD 7H/KH QH/8H KD/7D QD/8D"
TV11_TRICKS = "7H/KH QH/8H JH/AH AS/TC KS/JC QS/QC JS/KC TS/TH 9S/9H AD/JD 7D/KD QD/8D"
TV12 = ("AS KS QS JS AH KH QH JH AD KD QD JD", "TS 9S 8S 7S TH 9H 8H 7H TD 9D 8D JC")
TV12_TRICKS = "AS/7S KS/8S QS/9S JS/TS AH/7H KH/8H QH/9H JH/TH AD/8D KD/9D QD/TD JD/JC"
TV13 = ("AS KS QS AH KH QH AD KD QD AC KC QC", "JS TS 9S JH TH 9H JD TD 9D JC TC 9C")
TV13_TRICKS = "AS/9S KS/TS QS/JS AH/9H KH/TH QH/JH AD/9D KD/TD QD/JD AC/9C KC/TC QC/JC"


@pytest.mark.parametrize("hands,tricks,preset,options,announced,expected", [
    (TV10, TV10_TRICKS, "ru_seed", {}, None, (82, 10)),
    (TV10, TV10_TRICKS, "ru_seed_seq34", {}, None, (82, 10)),
    (TV10, TV10_TRICKS, "classic", {}, None, (74, 5)),
    (TV10, TV11_TRICKS, "ru_seed", {}, None, (52, 10)),
    (TV10, TV11_TRICKS, "ru_seed", {"pik_window": "whole_play"}, None, (82, 10)),
    (TV10, TV11_TRICKS, "classic", {}, None, (45, 6)),
    (TV12, TV12_TRICKS, "ru_seed", {}, None, (182, 0)),
    (TV12, TV12_TRICKS, "ru_seed", {}, "elder", (222, 0)),
    (TV12, TV12_TRICKS, "classic", {}, None, (111, 0)),
    (TV13, TV13_TRICKS, "ru_seed", {}, None, (221, 0)),
    (TV13, TV13_TRICKS, "ru_seed", {}, "elder", (261, 0)),
    (TV13, TV13_TRICKS, "classic", {}, None, (170, 0)),
], ids=["TV10-seed", "TV10-seq34", "TV10-classic", "TV11-seed", "TV11-whole-play", "TV11-classic",
        "TV12-seed", "TV12-open", "TV12-classic", "TV13-seed", "TV13-open", "TV13-classic"])
def test_play_vectors(hands, tricks, preset, options, announced, expected):
    r = score_deal(*hands, tricks, rules=preset, announced=announced, **options)
    assert (r.elder.total, r.younger.total) == expected


def test_tv10_parts():
    r = score_deal(*TV10, TV10_TRICKS)
    assert (r.elder.pik, r.elder.play, r.younger.play, r.elder.majority) == (30, 17, 10, 10)
    assert r.record == ("elder", 72)
    c = score_deal(*TV10, TV10_TRICKS, rules="classic")
    assert (c.elder.play, c.younger.play, c.elder.pik) == (9, 5, 30)
    t12 = score_deal(*TV12, TV12_TRICKS)
    assert (t12.elder.repik, t12.elder.pik, t12.elder.play, t12.elder.capot) == (60, 0, 24, 40)
    c12 = score_deal(*TV12, TV12_TRICKS, rules="classic")
    assert (c12.elder.repik, c12.elder.pik, c12.elder.play) == (0, 30, 13)


def test_failed_open_capot_pays_the_opponent():
    r = score_deal(*TV10, TV10_TRICKS, announced="elder")
    assert r.younger.open_capot_penalty == 80 and r.younger.total == 90


@pytest.mark.parametrize("tricks,message", [
    (TV10_TRICKS.replace("AS/TC", "TC/AS"), "trick 1: elder leads TC, which he does not hold"),
    (TV10_TRICKS.replace("AH/JH", "AH/JD"), "trick 7: younger must follow suit to AH but plays JD"),
    (TV10_TRICKS.replace("AS/TC", "AS/KS"), "trick 1: younger plays KS, which he does not hold"),
    (TV10_TRICKS.replace("AS/TC", "AS/8S"), "trick 1: younger plays 8S, which he does not hold"),
    (TV10_TRICKS.rsplit(" ", 1)[0], "a deal has 12 tricks, got 11"),
    (TV10_TRICKS.replace("AS/TC", "AS-TC"), "trick 1: expected 'lead/follow'"),
    (TV10_TRICKS.replace("AS/TC", "AS/XX"), "malformed card 'XX'"),
])
def test_illegal_plays_are_named(tricks, message):
    with pytest.raises(ValueError, match=message):
        score_deal(*TV10, tricks)


def test_open_capot_only_where_the_rules_have_it():
    with pytest.raises(ValueError, match="no open capot"):
        score_deal(*TV12, TV12_TRICKS, rules="classic", announced="elder")


@pytest.mark.parametrize("totals,preset,options,net,extra", [
    ([(33, 0), (0, 48), (65, 0), (0, 37), (22, 0), (0, 6)], "ru_seed", {}, 260, {"korolik_records": (250, 120)}),
    ([(30, 30), (50, 30), (20, 30), (40, 28), (25, 40)], "ru_seed", {}, 140, {"deals_used": 5}),
    ([(40, 20), (20, 45), (33, 30), (12, 30), (50, 50)], "ru_seed", {}, -350, {"carried_multiplier": 2}),
    ([(10, 0), (20, 0), (30, 0), (5, 0), (15, 0), (25, 0)], "ru_seed", {}, 720, {"skvoznaya": True}),
    ([(30, 30), (50, 30), (20, 30), (40, 28), (25, 40)], "ru_seed", {"rounding": "ceil"}, 140 - 10, {}),
    ([(131, 113)] + [(0, 0)] * 5, "classic", {}, 118, {"rubicon": False}),
    ([(125, 81)] + [(0, 0)] * 5, "classic", {}, 306, {"rubicon": True}),
    ([(105, 101)] + [(0, 0)] * 5, "classic", {}, 104, {}),
    ([(97, 89)] + [(0, 0)] * 5, "classic", {}, 286, {"rubicon": True}),
], ids=["P1", "P2", "P3", "P4", "P2-ceil", "R1", "R2", "R3", "R4"])
def test_partie_vectors(totals, preset, options, net, extra):
    r = score_partie(totals, rules=preset, **options)
    assert r.finished and r.net == (net, -net)
    for key, value in extra.items():
        assert getattr(r, key) == value


def test_deal_record_of_section_8_2():
    # 54 against 21: the higher total writes the difference, 33, the other nothing.
    assert score_partie([(54, 21)]).columns == (33, 0)
    assert score_partie([(21, 54)]).columns == (0, 33)


def test_p2_ceil_rounding_changes_third_korolik():
    # P2 with "ceil": королик 3 is B 3 -> 103 -> 110 instead of 100; the partie 117 -> 120 either way.
    assert score_partie([(30, 30), (50, 30), (20, 30), (40, 28), (25, 40)], rounding="ceil").korolik_records == (120, 110)


def test_round10_vectors():
    assert [round10(x) for x in (112, 115, 129, 105)] == [110, 120, 130, 110]
    assert round10(112, "ceil") == 120


def test_rubicon_tie_plays_two_more_deals_then_draws():
    r = score_partie([(10, 10)] * 6, rules="classic")
    assert not r.finished
    r = score_partie([(10, 10)] * 8, rules="classic")
    assert r.finished and r.net == (0, 0) and r.deals_used == 8


def test_partie_input_errors():
    with pytest.raises(ValueError, match="ended after deal 6"):
        score_partie([(10, 0)] * 7)
    with pytest.raises(ValueError, match="deal 2: a deal total"):
        score_partie([(10, 0), (-1, 0)])
    with pytest.raises(ValueError, match="pair"):
        score_partie([(10, 0, 1)])


def _options(preset, **kw):
    return get_game("piquet").resolve_rules(preset, kw)


def _random_play(rng, elder, younger):
    hands, leader, tricks = [list(elder), list(younger)], 0, []
    for _ in range(12):
        lead = rng.choice(hands[leader])
        follow = rng.choice(ref.legal(hands[1 - leader], lead))
        hands[leader].remove(lead)
        hands[1 - leader].remove(follow)
        tricks.append((lead, follow))
        leader = ref.trick_winner(leader, lead, follow)
    return tricks


@pytest.mark.parametrize("preset,window", [("ru_seed", "until_opponent_scores"), ("ru_seed", "whole_play"),
                                           ("classic", "until_opponent_scores")])
def test_deal_scorer_matches_reference_on_random_deals(preset, window, runslow):
    rng = random.Random(17)
    deck = PIQUET32.cards
    for _ in range(4000 if runslow else 1500):
        cards = rng.sample(deck, 24)
        elder, younger = cards[:12], cards[12:]
        if rng.random() < 0.5:   # make piks likelier: a strong elder against a weak younger
            elder = sorted(deck, key=lambda c: -PIQUET32.ranks.index(c[0]) + rng.random() * 5)[:12]
            younger = rng.sample([c for c in deck if c not in elder], 12)
        tricks = _random_play(rng, elder, younger)
        r = score_deal(elder, younger, [f"{a}/{b}" for a, b in tricks], rules=preset, pik_window=window)
        assert [r.elder.total, r.younger.total] == ref.score_full_deal(elder, younger, tricks, preset, window)


@pytest.mark.parametrize("preset,options", [("ru_seed", {}), ("classic", {}),
                                            ("ru_seed", {"pik_window": "whole_play"}),
                                            ("ru_seed", {"capot_keeps_last_trick": True})])
def test_double_dummy_matches_minimax_on_endgames(preset, options):
    rng = random.Random(5)
    window_rule = options.get("pik_window", "until_opponent_scores")
    keeps_last = options.get("capot_keeps_last_trick")
    options = _options(preset, **options)
    for case in range(60):
        n = rng.choice((3, 4, 5) if keeps_last else (3, 4))
        cards = rng.sample(PIQUET32.cards, 2 * n)
        elder, younger = cards[:n], cards[n:]
        done = 12 - n
        elder_won = rng.randint(0, done)
        leader = rng.randint(0, 1)
        window = elder_won == done and leader == 0
        if keeps_last:           # make a capot reachable more often
            elder_won, leader, window = done, 0, True
        pik_possible = rng.random() < 0.6
        count = rng.randint(10, 29)
        announced = None
        if preset == "ru_seed" and rng.random() < 0.2 and elder_won in (0, done):
            announced = 0 if elder_won == done else 1
        args = (PIQUET32.mask(elder), PIQUET32.mask(younger), leader, elder_won, done - elder_won,
                int(pik_possible), count, int(window), -1 if announced is None else announced, options)
        value, card, _ = kernel.solve_position(*args)
        # the zero-window passes of MTD(f) exercise the value bounds differently
        assert kernel.solve_position(*args, method="mtdf")[0] == value, (case, elder, younger)
        play = ref.Play(preset, (20, 0 if pik_possible else 5), (0, 0), window_rule, leader=leader, tricks_done=done,
                        won=(elder_won, done - elder_won), pik_count=count, window_open=window,
                        capot_keeps_last=keeps_last)
        assert value == ref.minimax([set(elder), set(younger)], play, announced), (case, elder, younger)
        # the solver's best card reaches that value
        assert PIQUET32.card(card) in (elder if leader == 0 else younger)
        assert ref.lead_value([set(elder), set(younger)], play, PIQUET32.card(card), announced) == value


def _strategies(exchange="heuristic", play="greedy"):
    return {f"{seat}_{role}": name for seat in ("elder", "younger")
            for role, name in (("exchange", exchange), ("play", play))}


@pytest.mark.parametrize("exchange,play,deals", [("heuristic", "greedy", 20_000), ("refuse", "random", 20_000),
                                                 ("best_expected", "greedy", 300), ("heuristic", "double_dummy", 150),
                                                 ("heuristic", "pimc", 6)])
def test_invariants_of_simulated_deals(exchange, play, deals):
    c = run(RunConfig("piquet", "deal", "ru_seed", deals=deals, seed=3, shard_size=10_000,
                      strategies=_strategies(exchange, play))).counters
    n = c["deals"][0]
    assert n == deals
    assert np.all(c["tricks_hist"].sum(axis=1) == n)
    # 12 tricks each deal; the tricks of the two players add up to 12.
    tricks = np.arange(13)
    assert np.array_equal(c["tricks_hist"][0], c["tricks_hist"][1][::-1])
    assert ((c["tricks_hist"][0] * tricks).sum() + (c["tricks_hist"][1] * tricks).sum()) == 12 * n
    # Play points: 27 a deal (12 leads, 11 tricks, last trick 4) unless capot (12 + 12).
    points = np.arange(64)
    capots = c["capot"].sum()
    assert (c["play_hist"] * points).sum() == 27 * (n - capots) + 24 * capots
    # Pik and repik never together; pik only when possible; totals and histograms consistent.
    assert c["pik"][0] <= c["pik_possible"][0]
    assert c["deal_winner"].sum() == n and c["category_winner"].sum() == 4 * n
    assert c["exchanged_hist"].sum() == 2 * n
    if exchange == "refuse":
        assert c["exchanged_hist"][:, 0].tolist() == [n, n]


def test_pik_and_repik_exclusive_in_recorded_deals():
    options = _options("ru_seed")
    for seed in range(300):
        bg = [np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0, s))) for s in range(3)]
        d = kernel.play_one_deal(bg, options, {**_strategies(), "elder_announce": "sure", "younger_announce": "sure"})
        s = d["score"]
        assert not (s["pik"][0] and s["repik"][0])
        # The recorded deal rescored through the single-deal API gives the same totals.
        final = [PIQUET32.format(m) for m in d["final"]]
        dealt = [PIQUET32.format(m) for m in d["dealt"]]
        tricks = [f"{PIQUET32.card(a)}/{PIQUET32.card(b)}" for _, a, b in d["tricks"]]
        announced = (None, "elder", "younger")[d["announced"] + 1]
        r = score_deal(*final, tricks, elder_dealt=dealt[0], younger_dealt=dealt[1], announced=announced)
        assert [r.elder.total, r.younger.total] == s["total"], seed


@pytest.mark.parametrize("exchange", ["refuse", "heuristic"])
def test_repik_and_pik_by_dealt_hand_feature_match_the_recorded_deals(exchange):
    # Each one-deal shard's by_feature counters sit exactly at the bins of the dealt hands as the
    # slow reference evaluates them, holding that deal's repik and pik.
    options = _options("ru_seed")
    strategies = {**_strategies(exchange), "elder_announce": "sure", "younger_announce": "sure"}
    n_bins = len(kernel.new_deal_counters()["by_feature"][0, 0])
    for seed in range(150):
        def generators():
            return [np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0, s))) for s in range(3)]
        by_feature = kernel.deal_shard(generators(), 1, options, strategies)["by_feature"]
        d = kernel.play_one_deal(generators(), options, strategies)
        for p in range(2):
            held = ref.player_holdings(PIQUET32.format(d["dealt"][p]).split(), "ru_seed")
            bins = (min(held["uncontested"] // 10, n_bins - 1), held["point_len"])
            for f, b in enumerate(bins):
                expected = np.zeros((n_bins, 3), np.int64)
                expected[b] = (1, d["score"]["repik"][p], d["score"]["pik"][0] if p == 0 else 0)
                assert np.array_equal(by_feature[f, p], expected), (seed, p, f)


def test_without_exchange_no_repik_below_an_uncontested_value_of_30():
    # Keeping the dealt hand, a player declares at most its uncontested value, and repik needs 30
    # in declarations alone: the rate must be exactly 0 below 30 and positive above.
    c = run(RunConfig("piquet", "deal", "ru_seed", deals=100_000, seed=5, strategies=_strategies("refuse"))).counters
    by_value = c["by_feature"][0]
    assert by_value[:, :3, 1].sum() == 0
    assert by_value[:, 3:, 1].sum() > 0
    assert np.array_equal(by_value[:, :, 1].sum(axis=1), c["repik"])
    assert by_value[0, :, 2].sum() == c["pik"][0] and by_value[1, :, 2].sum() == 0
    assert np.all(by_value[:, :, 0].sum(axis=1) == 100_000)


def test_refuse_reproduces_no_exchange_repik_rate():
    # §14.4: with both players keeping their dealt hands the repik rate is 0.05240 per player.
    deals = 200_000
    c = run(RunConfig("piquet", "deal", "ru_seed", deals=deals, seed=8,
                      strategies=_strategies("refuse", "greedy")), workers=2).counters
    se = (0.0524 * 0.9476 / deals) ** 0.5
    assert np.all(np.abs(c["repik"] / deals - 0.0524) < 4.5 * se)


def test_strategy_changes_do_not_change_the_deals():
    # Stream 0 deals: the declarations with refuse are the same whatever the play strategies.
    a = run(RunConfig("piquet", "deal", "ru_seed", deals=2000, seed=4, strategies=_strategies("refuse", "greedy"))).counters
    b = run(RunConfig("piquet", "deal", "ru_seed", deals=2000, seed=4, strategies=_strategies("refuse", "random"))).counters
    assert np.array_equal(a["decl_hist"], b["decl_hist"]) and np.array_equal(a["repik"], b["repik"])
    assert not np.array_equal(a["play_hist"], b["play_hist"])


def test_penalties_of_section_9():
    plain = score_deal(*TV10, TV10_TRICKS)
    m = score_deal(*TV10, TV10_TRICKS, molchanka="younger")
    # younger loses his 10 play points; elder's 17 play points are doubled (his pik and леза are not)
    assert (m.younger.total, m.younger.play) == (0, 0)
    assert m.elder.play == 34 and m.elder.total == plain.elder.total + 17
    f = score_deal(*TV10, TV10_TRICKS, false_declaration="elder")
    assert f.elder.total == 0 and f.younger.total == plain.younger.total
    with pytest.raises(ValueError, match="molchanka"):
        score_deal(*TV10, TV10_TRICKS, molchanka="both")


@pytest.mark.parametrize("preset", ["ru_seed", "classic"])
def test_search_methods_agree_on_longer_endgames(preset):
    # One full-window search, MTD(f) zero-window passes and the move-by-move root must give the
    # same value (a table-bound bug once made them differ by a last trick).
    rng = random.Random(21)
    options = _options(preset)
    for case in range(120):
        n = rng.choice((5, 6, 7, 8))
        cards = rng.sample(PIQUET32.cards, 2 * n)
        done = 12 - n
        elder_won = rng.randint(0, done)
        leader = rng.randint(0, 1)
        window = elder_won == done and leader == 0
        args = (PIQUET32.mask(cards[:n]), PIQUET32.mask(cards[n:]), leader, elder_won, done - elder_won,
                int(rng.random() < 0.5), rng.randint(10, 29), int(window), -1, options)
        values = {kernel.solve_position(*args, method=m)[0] for m in ("moves", "window", "mtdf")}
        assert len(values) == 1, (case, cards, values)


class _NoteAllowed:
    """An exchange strategy that notes the numbers of cards the engine lets each seat exchange, and
    exchanges the fewest of them."""

    def __init__(self):
        self.allowed = {}

    def choose_discard(self, view):
        self.allowed.setdefault(view.seat, set()).add(view.allowed)
        return sorted(view.hand)[:min(view.allowed)]


@pytest.mark.parametrize("preset,allowed,discards", [("classic", (1, 2, 3, 4, 5), 1585),
                                                     ("ru_seed", (0, 3, 4, 5), None)])
def test_elder_legal_discards(preset, allowed, discards):
    # §3.1 / §3.2: elder may put aside any k of his 12 cards for each k the engine allows; §3.2 counts
    # 1,585 such discards under classic rules (§3.1 gives no count).
    noted = _NoteAllowed()
    name = register(f"note-allowed-{preset}", noted)
    run(RunConfig("piquet", "deal", preset, deals=20, seed=2, strategies={"elder_exchange": name}))
    assert noted.allowed.keys() == {"elder"}
    (counts,) = noted.allowed["elder"]
    assert counts == allowed
    if discards is not None:
        assert sum(comb(12, k) for k in counts) == discards


def test_younger_may_take_every_card_left_in_python_strategies():
    # classic §3.2: younger may take all the cards elder left (up to 8); a Python strategy is
    # offered the same counts as the compiled ones (elder here takes the fewest: 1, leaving 7)
    noted = _NoteAllowed()
    name = register("note-allowed-younger", noted)
    run(RunConfig("piquet", "deal", "classic", deals=20, seed=2,
                  strategies={"elder_exchange": name, "younger_exchange": name}))
    assert noted.allowed["younger"] == {(1, 2, 3, 4, 5, 6, 7)}


def test_heuristic_exchange_keeps_a_made_hand():
    # Four aces and a sixième with three spare cards: the heuristic takes only the three spares
    # (ru_seed allows 0 or 3-5), so the quatorze of aces always wins the sets.
    elder = "AS KS QS JS TS 9S AH AD AC 7H 8D 7C"
    config = RunConfig("piquet", "deal", "ru_seed", deals=2_000, seed=9, constraint={"elder": elder},
                       strategies={**_strategies(), "younger_exchange": "refuse"})
    c = run(config).counters
    assert c["exchanged_hist"][0, 3] == 2_000
    assert c["category_winner"][3].tolist() == [0, 2_000, 0]   # sets: nobody, elder, younger


# ---------------------------------------------------------------------------------------------
# Sinking (§5 allow_sinking, §15 item 17): under-declared holdings in the single-deal API

def _random_sinking(rng, hand):
    """A random legal under-declaration of some categories of a hand (card lists per category)."""
    out = {}
    if rng.random() < 0.5:
        suit = rng.choice(sorted({c[1] for c in hand}))
        cards = [c for c in hand if c[1] == suit]
        out["point"] = rng.sample(cards, rng.randint(0, len(cards)))
    if rng.random() < 0.5:
        out["sequences"] = []
        for suit in "SHDC":
            ranks = ref.suit_cards(hand, suit)
            for length, top in ref.runs([c for c in hand if c[1] == suit]):
                if rng.random() < 0.7:
                    keep = rng.randint(3, length)
                    high = rng.randint(top - length + keep, top)
                    out["sequences"] += [ref.RANKS[r] + suit for r in range(high - keep + 1, high + 1) if r in ranks]
    if rng.random() < 0.5:
        out["sets"] = []
        for rank in "TJQKA":
            held = [c for c in hand if c[0] == rank]
            if len(held) >= 3 and rng.random() < 0.7:
                out["sets"] += rng.sample(held, rng.randint(3, len(held)))
    return out


@pytest.mark.parametrize("preset", ["ru_seed", "classic"])
def test_sinking_matches_reference_and_never_pays(preset):
    """The compiled scorer with random under-declarations equals the reference deal by deal; and
    sinking never raises the sinker's own deal total nor lowers his opponent's (the reason the
    simulated players always declare in full)."""
    rng = random.Random(23)
    deck = PIQUET32.cards
    changed = 0
    for _ in range(1500):
        elder = sorted(deck, key=lambda c: -PIQUET32.ranks.index(c[0]) + rng.random() * 6)[:12]
        younger = rng.sample([c for c in deck if c not in elder], 12)
        if rng.random() < 0.5:
            elder, younger = younger, elder
        tricks = _random_play(rng, elder, younger)
        who = rng.choice(("elder", "younger"))
        declared = {who: _random_sinking(rng, (elder, younger)[who == "younger"])}
        text = [f"{a}/{b}" for a, b in tricks]
        full = score_deal(elder, younger, text, rules=preset)
        sunk = score_deal(elder, younger, text, rules=preset, declared=declared)
        assert [sunk.elder.total, sunk.younger.total] == ref.score_full_deal(elder, younger, tricks, preset,
                                                                             declared=declared)
        me, other = (sunk.elder, sunk.younger) if who == "elder" else (sunk.younger, sunk.elder)
        me_full, other_full = (full.elder, full.younger) if who == "elder" else (full.younger, full.elder)
        assert me.total <= me_full.total and other.total >= other_full.total
        changed += me.total != me_full.total
    assert changed > 100


def test_sinking_vector_gives_the_opponent_his_repik():
    # TV10 in full: elder scores point 6, sixième 16, three aces 3 = 25 and piks (+30); younger 0.
    elder, younger = TV10
    full = score_deal(elder, younger, TV10_TRICKS)
    assert full.elder.declarations.total == 25 and full.elder.pik == 30 and full.younger.declarations.total == 0
    # Elder sinks everything: younger wins every category — point 5 (hearts), a quint to the king
    # 15 + a tierce 13 + a quart 14, three kings, queens and jacks 9 = 56 against 0 — and repiks.
    sunk = score_deal(elder, younger, TV10_TRICKS, declared={"elder": {"point": "", "sequences": "", "sets": ""}})
    assert sunk.elder.declarations.total == 0 and sunk.elder.pik == 0
    assert (sunk.younger.declarations.point, sunk.younger.declarations.sequences,
            sunk.younger.declarations.sets) == (5, 42, 9)
    assert sunk.younger.repik == 60 and (sunk.elder.total, sunk.younger.total) == (27, 126)
    assert sunk.explain().count("declares nothing") == 3


@pytest.mark.parametrize("declared,message", [
    ({"elder": {"sets": "KH KD KC"}}, "does not hold"),
    ({"elder": {"sets": "AS AH"}}, "three or four"),
    ({"elder": {"sequences": "AS KS QS 9S"}}, "runs of 3 or more"),
    ({"elder": {"point": "AS AH"}}, "one suit"),
    ({"elder": {"sequences": "AS KS QS JS TS 9S"}, "younger": {"pts": ""}}, "keyed by point"),
    ({"dealer": {}}, "keyed by elder"),
    ({"elder": {"sets": "AS AS AH"}}, "duplicate"),
])
def test_sinking_input_errors(declared, message):
    with pytest.raises(ValueError, match=message):
        score_deal(*TV10, TV10_TRICKS, declared=declared)


def test_splitting_a_run_is_not_an_under_declaration():
    # 7-8-9-T-J-Q-K of hearts is one septième (17); two tierces from it would score 26 under ru_seed.
    elder = "7H 8H 9H TH JH QH KH AS AD AC 7S 7D"
    younger = "8S 9S TS JS QS KS 8D 9D TD JD QD KD"
    with pytest.raises(ValueError, match="splits one of his sequences"):
        score_declarations(elder, younger, declared={"elder": {"sequences": "7H 8H 9H JH QH KH"}})


def test_explain_command_takes_declarations(capsys):
    from analyzer.cli import main
    elder, younger = TV10
    assert main(["piquet", "explain", "--elder", elder, "--younger", younger, "--tricks", TV10_TRICKS,
                 "--declare", "elder.sets=", "--declare", "elder.sequences=AS KS QS JS"]) == 0
    out = capsys.readouterr().out
    assert "sixième major in S; declares only quart major in S" in out and "declares nothing" in out
    assert "Declaration totals: elder 6, younger 51" in out


@pytest.mark.parametrize("strategies", [dict(elder_exchange="refuse"), dict(younger_exchange="refuse")])
def test_refusing_the_exchange_is_refused_where_the_rules_make_it_compulsory(strategies):
    # classic piquet: the elder exchanges 1 to 5 cards, the younger at least 1 (§3.2)
    from analyzer.games.piquet import play_one

    with pytest.raises(ValueError, match="refuse keeps the dealt hand"):
        RunConfig("piquet", "deal", "classic", 10, 1, strategies=strategies)
    with pytest.raises(ValueError, match="refuse keeps the dealt hand"):
        play_one(3, "classic", strategies)
    with pytest.raises(ValueError, match="refuse keeps the dealt hand"):
        RunConfig("piquet", "partie", "classic", 10, 1, strategies={"a_exchange": "refuse"})
    RunConfig("piquet", "deal", "ru_seed", 10, 1, strategies=strategies)          # 0 allowed there
    RunConfig("piquet", "deal", "classic", 10, 1, strategies=strategies,
              overrides={"exchange_elder": "0,1,2,3,4,5", "exchange_younger": "0,1,2,3,4,5,6,7,8"})


def test_exchange_counts_that_leave_younger_no_allowed_count_are_refused():
    # after elder takes 5 only 3 talon cards are left: a younger who may only take 4 (or 8)
    # would be made to exchange 0, which his rules forbid
    from analyzer.games.piquet import play_one

    for younger in ("4", "8", "4,5"):
        overrides = {"exchange_elder": "5", "exchange_younger": younger}
        with pytest.raises(ValueError, match=f"exchange_younger={younger} leaves younger no allowed exchange when "
                                             "elder takes 5 \\(3 talon cards left\\)"):
            RunConfig("piquet", "deal", "ru_seed", 10, 1, overrides=overrides)
        with pytest.raises(ValueError, match="leaves younger no allowed exchange"):
            play_one(3, "ru_seed", None, **overrides)
    # every elder count leaves younger one of his: accepted, and the kernel keeps to the counts
    for elder, younger in (("5", "0,3"), ("3,4,5", "1"), ("0,5", "3,4,5,6,7,8")):
        RunConfig("piquet", "deal", "ru_seed", 10, 1, overrides={"exchange_elder": elder, "exchange_younger": younger})
    text = play_one(3, "ru_seed", None, exchange_elder="5", exchange_younger="3")
    assert "elder exchanges 5" in text and "younger exchanges 3" in text


# ---------------------------------------------------------------------------------------------
# Rules that the vectors above leave open (found by mutation testing)

def test_rubicon_a_loser_on_exactly_100_is_not_rubiconed():
    # §11: loser >= 100: the winner gets the difference + 100; loser < 100: the sum + 100.
    r = score_partie([(130, 100)] + [(0, 0)] * 5, rules="classic")
    assert r.finished and not r.rubicon and r.net == (130, -130)       # 130 - 100 + 100
    r = score_partie([(100, 99)] + [(0, 0)] * 5, rules="classic")
    assert r.rubicon and r.net == (299, -299)                          # 100 + 99 + 100


def test_refet_multipliers_do_not_compound():
    # §8.5: a рефет inside a doubled королик makes the next one x2 again, not x4.
    # Deal 1 рефет closes королик 1; deal 2, a рефет in the doubled королик 2, closes it; королик 3
    # (deals 3, 4) is doubled: A 20x2 = 40, B 10x2 = 20 -> A 20 -> 120. Columns 40 vs 20 -> A 120.
    r = score_partie([(30, 30), (40, 40), (50, 30), (20, 30)])
    assert r.finished and r.deals_used == 4
    assert r.columns == (40, 20) and r.korolik_records == (120, 0)
    assert r.net == (240, -240) and r.carried_multiplier == 1 and not r.skvoznaya


def test_carte_blanche_is_judged_on_the_dealt_hand_in_score_deal():
    # §4: by default the dealt hand counts. Elder was dealt no K, Q or J, threw 9H 8H 9D 8D and
    # drew KS QS JS KH: his final hand is not blank but he still scores carte blanche 10.
    elder_dealt = "AS TS 9S 8S AH TH 9H 8H AD TD 9D 8D"
    elder = "AS KS QS JS TS 9S 8S AH KH TH AD TD"
    younger = "QH JH 7H KD QD JD 7D AC KC QC JC TC"
    tricks = [f"{a}/{b}" for a, b in _random_play(random.Random(1), elder.split(), younger.split())]
    for when, points in (("dealt", 10), ("final", 0), ("both", 10)):
        r = score_deal(elder, younger, tricks, elder_dealt=elder_dealt, carte_blanche_when=when)
        assert r.elder.declarations.carte_blanche == points, when
        assert r.younger.declarations.carte_blanche == 0


def test_carte_blanche_is_judged_on_the_dealt_hand_in_simulated_deals():
    # The same in the deal engine: elder is dealt a blank hand and the whole talon is courts, so
    # whatever he takes (3 to 5 cards) spoils it; carte blanche is still his unless judged "final".
    elder = "AS TS 9S 8S AH TH 9H 8H AD TD 9D 8D".split()
    talon = "KS QS JS KH QH JH KD QD".split()
    younger = [c for c in PIQUET32.cards if c not in elder + talon]
    pack = np.array([[PIQUET32.bit(c) for c in elder + younger + talon]], np.uint8)
    strategies = {**_strategies(), "younger_exchange": "refuse", "elder_announce": "never", "younger_announce": "never"}
    for when, scored_by in (("dealt", [0, 1, 0]), ("final", [1, 0, 0]), ("both", [0, 1, 0])):
        bit_generators = [np.random.PCG64(s) for s in range(3)]
        c = kernel.deal_shard(bit_generators, 1, _options("ru_seed", carte_blanche_when=when), strategies, given=pack)
        assert c["exchanged_hist"][0, 0] == 0                  # elder did take cards
        assert c["category_winner"][0].tolist() == scored_by, when   # nobody / elder / younger


def test_younger_failed_open_capot_pays_elder():
    # §6.5: either player may announce; if younger announces and fails, elder scores 80 more.
    # TV10's play gives younger 4 tricks: elder 82 + 80, younger keeps his 10.
    r = score_deal(*TV10, TV10_TRICKS, announced="younger")
    assert (r.elder.open_capot_penalty, r.younger.open_capot_penalty) == (80, 0)
    assert (r.elder.total, r.younger.total) == (162, 10)


@pytest.mark.parametrize("threshold,expected", [(42, (82, 10)), (43, (52, 10))])
def test_pik_threshold_option_is_used(threshold, expected):
    # TV10: elder declares 25 and wins tricks 1-8 (lead + trick = 2 each: 41), then leads trick 9
    # (42) which younger wins, closing the window. So a threshold of 42 is reached, 43 is not.
    r = score_deal(*TV10, TV10_TRICKS, pik_threshold=threshold)
    assert (r.elder.total, r.younger.total) == expected
    assert r.elder.pik == (30 if threshold == 42 else 0)


class _ElderCountsYoungerNotes:
    """Elder exchanges 0, 3, 4, 5 cards in turn; younger notes what he may then take, and stands pat."""

    def __init__(self):
        self.turn, self.elder_took, self.allowed = 0, None, {}

    def choose_discard(self, view):
        if view.seat == "elder":
            self.elder_took = view.allowed[self.turn % len(view.allowed)]
            self.turn += 1
            return sorted(view.hand)[:self.elder_took]
        self.allowed.setdefault(self.elder_took, set()).add(view.allowed)
        return []


def test_ru_seed_younger_exchange_counts_follow_what_elder_left():
    # §3.1: younger may take 0, or 3 to min(5, cards remaining): after elder took 0 or 3, 0 or 3-5;
    # after 4, 0, 3 or 4; after 5, 0 or 3.
    noted = _ElderCountsYoungerNotes()
    name = register("elder-counts-younger-notes", noted)
    run(RunConfig("piquet", "deal", "ru_seed", deals=20, seed=2,
                  strategies={"elder_exchange": name, "younger_exchange": name}))
    assert noted.allowed == {0: {(0, 3, 4, 5)}, 3: {(0, 3, 4, 5)}, 4: {(0, 3, 4)}, 5: {(0, 3)}}


class _ElderThrowsTheAceOfClubs:
    """Elder discards the ace of clubs and two more cards whenever he holds it, else nothing."""

    def __init__(self):
        self.thrown = 0

    def choose_discard(self, view):
        if view.seat == "elder" and "AC" in view.hand and 3 in view.allowed:
            self.thrown += 1
            return ["AC"] + [c for c in sorted(view.hand) if c != "AC"][:2]
        return []


def test_a_python_discard_with_the_ace_of_clubs_is_made():
    # The ace of clubs is bit 31 of a card mask: the kernel once read the callback's answer as an
    # int, the conversion failed and the discard was silently taken as none.
    thrower = _ElderThrowsTheAceOfClubs()
    name = register("elder-throws-the-ace-of-clubs", thrower)
    result = run(RunConfig("piquet", "deal", "ru_seed", deals=40, seed=5,
                           strategies={"elder_exchange": name, "younger_exchange": name}))
    exchanged = result.counters["exchanged_hist"][0]   # deals by the number of cards elder took
    assert thrower.thrown > 0
    assert exchanged[3] == thrower.thrown and exchanged.sum() == 40


def test_overlapping_dealt_hands_are_refused():
    elder, younger = TV10
    with pytest.raises(ValueError, match="'AS' is given twice"):
        score_deal(elder, younger, TV10_TRICKS, elder_dealt=elder,
                   younger_dealt="AS QH JH TH 9H KD QD JD KC QC JC TC")


def test_dealt_hands_must_lead_to_the_final_hands_by_an_allowed_exchange():
    # TV10's talon is 8S 7S TD 9D AC 9C 8C 7C. ru_seed lets elder exchange 0, 3, 4 or 5 cards:
    # a dealt hand two cards off his final hand is no deal of these rules, one card off is one of
    # classic's (1-5)
    elder, younger = TV10
    with pytest.raises(ValueError, match=r"elder's final hand holds 2 cards not in his dealt hand.*0, 3, 4, 5"):
        score_deal(elder, younger, TV10_TRICKS, elder_dealt="AS KS QS JS TS 9S 8S 7S AH AD 7D 8D")
    with pytest.raises(ValueError, match=r"elder's final hand holds 1 card not"):
        score_deal(elder, younger, TV10_TRICKS, elder_dealt="AS KS QS JS TS 9S 8S AH AD 8H 7D 8D")
    r = score_deal(elder, younger, TV10_TRICKS, "classic", elder_dealt="AS KS QS JS TS 9S 8S AH AD 8H 7D 8D")
    assert r.elder.total == score_deal(elder, younger, TV10_TRICKS, "classic").elder.total
    # younger cannot have drawn KH, a card of elder's dealt hand (elder's discards are out of play)
    with pytest.raises(ValueError, match="younger's final hand holds KH from elder's dealt hand"):
        score_deal(elder, younger, TV10_TRICKS, elder_dealt="AS KS QS JS TS 9S AH AD KH 9C 8C 8D",
                   younger_dealt="TH 9H KD QD JD KC QC JC TC TD 9D AC")


def test_deal_table_pik_or_repik_is_the_elder_s_own():
    # Pik is elder's only; "pik or repik" for elder adds his pik and his repik, not younger's repik.
    from analyzer.games.piquet import deal_table

    c = kernel.new_deal_counters()
    c["deals"][0], c["pik"][0], c["repik"][:] = 100, 3, (2, 5)
    table = deal_table(c).set_index(["event", "player"])
    assert table.loc[("pik", "elder"), "count"] == 3
    assert table.loc[("repik", "younger"), "count"] == 5
    assert table.loc[("pik or repik", "elder"), "count"] == 5 and table.loc[("pik or repik", "elder"), "n"] == 100


def test_feature_table_reports_pik_for_elder_only():
    # by_feature[feature, player, bin] = (deals, repik, pik); only elder can pik (§7.1).
    from analyzer.games.piquet import feature_table

    c = kernel.new_deal_counters()
    c["by_feature"][0, 0, 3] = (10, 1, 2)       # uncontested value 30-39, elder
    c["by_feature"][0, 1, 3] = (20, 4, 0)       # the same bin, younger
    table = feature_table(c)
    rows = table[table.feature == "uncontested value"]
    got = {(r.player, r.event): (r.count, r.n) for r in rows.itertuples()}
    assert got == {("elder", "repik"): (1, 10), ("elder", "pik"): (2, 10), ("younger", "repik"): (4, 20)}
    assert set(rows.value) == {"30-39"}


def test_molchanka_takes_the_offender_s_capot():
    # §9: the offender scores no play points, леза or capot; TV12's elder keeps his 58 declarations
    # and the repik (60). Younger's play points, none, are doubled.
    m = score_deal(*TV12, TV12_TRICKS, molchanka="elder")
    assert (m.elder.play, m.elder.capot, m.elder.total) == (0, 0, 118)
    assert m.younger.total == 0


def test_partie_deal_totals_run_from_0_to_1000():
    assert score_partie([(1000, 0)]).columns == (1000, 0)
    with pytest.raises(ValueError, match="deal 1: a deal total"):
        score_partie([(1001, 0)])


def test_round10_ceil_keeps_a_multiple_of_ten():
    # §8.4 "ceil" rounds up: a record already on a ten stays there, as with half-up.
    assert [round10(x, "ceil") for x in (110, 111, 119, 120)] == [110, 120, 120, 120]
    assert round10(110) == 110


def test_nines_are_no_set_to_declare():
    # §5.5: nothing below the ten makes a set, so three nines cannot be declared (TV5's younger).
    elder, younger = "AS AH AD AC JS JH JD JC TS TH TD 7C", "KS KH KD KC QS QH QD QC TC 9S 9H 9D"
    with pytest.raises(ValueError, match="three or four tens or better"):
        score_declarations(elder, younger, declared={"younger": {"sets": "9S 9H 9D"}})


def test_deal_table_wins_the_cards_counts_capots():
    # Every deal is won on cards by one player (7 to 12 tricks, capot included) or divided 6-6;
    # greedy play makes capots common.
    from analyzer.games.piquet import WINS_THE_CARDS, deal_table

    c = run(RunConfig("piquet", "deal", "ru_seed", deals=3000, seed=3, strategies=_strategies())).counters
    assert c["capot"].sum() > 0
    t = deal_table(c).set_index(["event", "player"])["count"]
    assert (t[(WINS_THE_CARDS, "elder")] + t[(WINS_THE_CARDS, "younger")] + t[("cards divided (6-6)", "both")]
            == 3000)


def test_cavendish_figures_are_his_printed_odds():
    # §16.1: repique elder "nearly 27½ to 1", younger "about 75 to 1"; pique or repique "36 to 5";
    # the cards: elder "5 to 3 on", younger "nearly 3 to 1 against", divided "7 to 1 against".
    from analyzer.games.piquet import CAVENDISH, WINS_THE_CARDS

    assert CAVENDISH == pytest.approx({("repik", "elder"): 1 / 28.5, ("repik", "younger"): 1 / 76,
                                       ("pik or repik", "elder"): 5 / 41, (WINS_THE_CARDS, "elder"): 5 / 8,
                                       (WINS_THE_CARDS, "younger"): 1 / 4, ("cards divided (6-6)", "both"): 1 / 8})


def test_a_tied_korolik_writes_no_record():
    # §8.3: equal королик sums (20 each) give nobody the +100 record.
    r = score_partie([(30, 10), (10, 30)])
    assert not r.finished and r.korolik_records == (0, 0)


def test_equal_columns_give_no_partie_figure():
    # §8.4: королики A 40 - B 20 -> 120, B 50 - A 10 -> 140, A 30 - B 10 -> 120; the columns are
    # 80 each, so P = 0 and A nets his королик records less B's: 240 - 140.
    r = score_partie([(40, 0), (0, 20), (0, 50), (10, 0), (30, 0), (0, 10)])
    assert r.finished and (r.columns, r.korolik_records) == ((80, 80), (240, 140))
    assert r.net == (100, -100) and not r.skvoznaya


def test_sure_announces_only_a_capot_no_holding_can_stop():
    # §6.5, strategy "sure": TV12's elder holds each of his suits from the top down to his lowest
    # card, so he wins every trick whatever younger holds, and announces; with 7S for JS younger
    # (who is dealt 8S-JS here) can beat the seven, so he does not.
    strategies = {**_strategies("refuse"), "elder_announce": "sure", "younger_announce": "never"}
    for elder, announced in (("AS KS QS JS AH KH QH JH AD KD QD JD", 1), ("AS KS QS 7S AH KH QH JH AD KD QD JD", 0)):
        elder = elder.split()
        pack = np.array([[PIQUET32.bit(c) for c in elder + [c for c in PIQUET32.cards if c not in elder]]], np.uint8)
        c = kernel.deal_shard([np.random.PCG64(s) for s in range(3)], 1, _options("ru_seed"), strategies, given=pack)
        assert c["open_capot_announced"].tolist() == [announced, 0]
        assert c["open_capot_made"].tolist() == [announced, 0]


def test_partie_table_outcome_rows_follow_the_net_result():
    # One partie a run: the row holding it must be the one the sign of A's net result names.
    from analyzer.games.piquet import partie_table

    seen = set()
    for seed in range(12):
        t = partie_table(run(RunConfig("piquet", "partie", "ru_seed", 1, seed)).counters).set_index("event")
        net = t.at["mean net result of A", "estimate"]
        outcome = "A wins the partie" if net > 0 else "B wins the partie" if net < 0 else "drawn partie"
        assert t.at[outcome, "count"] == 1, seed
        seen.add(outcome)
    assert {"A wins the partie", "B wins the partie"} <= seen


def test_heuristic_takes_the_fewest_cards_the_rules_demand_of_a_hand_with_no_spare():
    # Every card here is worth keeping (a sixième in the point suit, four aces, three kings, a
    # tierce major in hearts), but classic makes elder take 1 to 5 cards: he takes 1.
    elder = "AS KS QS JS TS 9S AH KH QH AD KD AC"
    c = run(RunConfig("piquet", "deal", "classic", deals=200, seed=9, constraint={"elder": elder},
                      strategies=_strategies())).counters
    assert c["exchanged_hist"][0, 1] == 200


class _NotesDeclarations:
    """Plays the first legal card, noting by seat and trick whether the declarations were heard."""

    def __init__(self):
        self.heard = {}

    def choose_card(self, view):
        self.heard.setdefault((view.seat, view.trick), set()).add(view.declarations is not None)
        return view.legal[0]


@pytest.mark.parametrize("preset,elder_first", [("classic", False), ("ru_seed", True)])
def test_classic_elder_leads_before_younger_declares(preset, elder_first):
    # §5: in classic elder declares and leads, and only then does younger declare; in ru_seed all
    # declarations end before the first lead. Younger has heard them all when he first plays.
    noted = _NotesDeclarations()
    name = register(f"notes-declarations-{preset}", noted)
    run(RunConfig("piquet", "deal", preset, deals=5, seed=1, strategies={"elder_play": name, "younger_play": name}))
    assert noted.heard[("elder", 1)] == {elder_first}
    assert noted.heard[("younger", 1)] == noted.heard[("elder", 2)] == {True}
