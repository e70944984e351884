"""Russian Bank duel engine: compiled kernel against the pure-Python reference on thousands of
positions reached by random play (legal action sets and successor positions, under several rule
sets), invariants of whole games, the duel analysis, and golden playthroughs.

Regenerate the golden files with ``python tests/test_russian_bank_engine.py --regen``."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import russian_bank_reference as ref  # noqa: E402

from analyzer.games import russian_bank as rb  # noqa: E402
from analyzer._core import russian_bank as core  # noqa: E402
from analyzer.runner import RunConfig, run  # noqa: E402

RULE_SETS = {
    "default": {},
    "none": dict(foundation_priority="none"),
    "seed_literal": dict(foundation_priority="none", load_targets="stock", discard_policy="no_own_card_move"),
    "variants": dict(empty_house_rule="stock_only", discard_policy="hand_unplayable", load_sources="stock,hand",
                     load_wrap=True, own_waste_playable=True, redeal_limit=2, stock_first_to_foundation=True),
    "forced": dict(empty_house_rule="stock_forced", sequence_moves=True, stock_size=11),
    "explicit": dict(auto_turn=False, stock_before_hand=True, foundation_priority="none", redeal_limit=1),
}


def comparable(piles):
    out = {k: piles[k] for k in ("stock", "hand", "waste", "houses", "player", "up", "redeals")}
    out["foundations"] = [sorted(f) for f in piles["foundations"]]
    return out


def card_count(piles):
    return (sum(len(x) for name in ("stock", "hand", "waste") for x in piles[name])
            + sum(len(h) for h in piles["houses"]) + sum(sum(f) for f in piles["foundations"]))


@pytest.mark.parametrize("name", RULE_SETS)
def test_kernel_matches_reference(name):
    rules = rb.resolve("default", dict(RULE_SETS[name], max_actions_per_turn=100_000))
    rng = np.random.default_rng(17)
    positions = 0
    for game in range(6):
        pos, _ = rb.new_game(1000 + game, rules)
        state = pos.state
        for _ in range(700):
            piles = state.piles()
            if state.status()["end"] != "running":
                break
            legal = state.legal(True)
            assert set(legal) == ref.legal_actions(piles, rules, True), piles
            assert set(state.legal(False)) == ref.legal_actions(piles, rules, False)
            assert len(legal) == len(set(legal)) and legal
            # mostly moves, so that games get deep; turn-ending actions now and then
            moves = [a for a in legal if a < ref.DISCARD]
            action = int(rng.choice(moves)) if moves and rng.random() < 0.8 else int(rng.choice(legal))
            expected = ref.apply(piles, rules, action)
            state.apply(action)
            after = state.piles()
            assert card_count(after) == card_count(piles)
            if "winner" in expected:
                assert state.status()["end"] == "win" and state.status()["winner"] == piles["player"]
                break
            if state.status()["end"] == "running":
                assert comparable(after) == comparable(expected), (piles, action)
            positions += 1
    assert positions >= 1500


GREEDY_DIRECT_RULES = {
    "default": {},
    "none": dict(foundation_priority="none", stock_first_to_foundation=True),
    "mixed": dict(empty_house_rule="stock_only", load_wrap=True, load_sources="stock,hand", load_targets="waste",
                  stock_size=11, sequence_moves=True, redeal_limit=1),
    "house_loads": dict(load_sources="house", load_targets="stock", foundation_priority="none"),
}


def running_positions(rules, first_seed, games, moves):
    """The positions of games dealt from first_seed on, at most `moves` a game, while the game
    runs; the caller plays an action on each before asking for the next."""
    for game in range(games):
        pos, _ = rb.new_game(first_seed + game, rules)
        for _ in range(moves):
            if pos.state.status()["end"] != "running":
                break
            yield pos


@pytest.mark.parametrize("name", GREEDY_DIRECT_RULES)
def test_greedy_direct_generator_matches_the_listed_choice(name):
    # G1 picks its action straight from the position (the fast path of the duel kernels); it must
    # be the action greedy_choice takes from the full legal list, on positions from mixed play.
    rules = rb.resolve("default", GREEDY_DIRECT_RULES[name])
    rng = np.random.default_rng(5)
    checked = 0
    for pos in running_positions(rules, 2000, 40, 600):
        listed, direct = pos.state.greedy_both_ways()
        assert direct == listed, (pos.describe(), listed, direct)
        checked += 1
        legal = pos.state.legal(True)
        pos.state.apply(listed if rng.random() < 0.5 else int(rng.choice(legal)))
    assert checked >= 10_000


@pytest.mark.parametrize("name", sorted(set(RULE_SETS) | set(GREEDY_DIRECT_RULES)))
def test_house_summaries_stay_true_through_play(name):
    # apply_action keeps the house tops (two packs: a kind may top two houses; and each house's
    # top card) and the empty and one-card houses up to date move by move; they must equal the
    # same computed afresh.
    rules = rb.resolve("default", RULE_SETS.get(name, GREEDY_DIRECT_RULES.get(name)))
    rng = np.random.default_rng(11)
    checked = doubled = 0
    for pos in running_positions(rules, 3000, 30, 500):
        kept, fresh = pos.state.house_summaries()
        assert kept == fresh, pos.describe()
        checked += 1
        doubled += kept[1] != 0
        pos.state.apply(int(rng.choice(pos.state.legal(True))))
    assert checked >= 5_000 and doubled > 0


@pytest.mark.parametrize("name", GREEDY_DIRECT_RULES)
def test_whole_greedy_games_equal_step_by_step_play(name):
    # The duel kernel plays G1 against G1 on its fast path and, once g1_frozen holds, lets the
    # rest of the game be discards and passes without asking G1: the game must end exactly as
    # when G1 is asked at every decision, and frozen games must be common enough to check that
    # (under "mixed" the redeal limit and load wrap leave the conservative test nothing to catch).
    rules = rb.resolve("default", GREEDY_DIRECT_RULES[name])
    frozen = 0
    for seed in range(60):
        stepped, _ = rb.new_game(seed, rules)
        whole, _ = rb.new_game(seed, rules)
        froze = False
        while stepped.state.status()["end"] == "running":
            froze = froze or stepped.state.g1_frozen()
            action = stepped.state.step(("greedy", "greedy"))
            assert not froze or action >= core.ACTION_DISCARD, (seed, action)
        frozen += froze
        whole.state.play_out(("greedy", "greedy"))
        assert whole.state.status() == stepped.state.status(), seed
        assert whole.state.piles() == stepped.state.piles(), seed
    assert frozen >= {"default": 10, "none": 10, "house_loads": 1}.get(name, 0)


def test_greedy_direct_generator_is_off_where_it_would_differ():
    for name in ("seed_literal", "variants", "forced", "explicit"):
        pos, _ = rb.new_game(1, rb.resolve("default", RULE_SETS[name]))
        assert pos.state.greedy_both_ways()[1] is None


def test_g1_frozen_is_false_while_a_stock_top_loads_on_the_opponents_stock():
    # Nothing fits a house or a foundation (no aces or queens in play) and no hand card loads
    # anywhere, but P0's stock top 9D may be loaded on P1's stock top 8D (§4.2: same suit, one
    # rank apart) and G1 does so (class 1, §10.6): G1 is not frozen here.
    pos = rb.Position.from_piles(["KH", "KS", "KD", "KC", "2H", "2S", "2D", "2C"], "0 0 0 0",
                                 p0=dict(stock="9D", hand="5C"), p1=dict(stock="8D", hand="8S"))
    load = pos.parse_move("9D→P1 stock")
    assert {m.text for m in pos.legal_moves()} == {"9D→P1 stock", "DISCARD"}
    assert not pos.state.g1_frozen()
    assert pos.state.greedy_both_ways() == (load, load)
    assert pos.state.step(("greedy", "greedy")) == load


def test_the_lookahead_counts_a_stock_card_twice():
    # §10.6 policy 3 values a position by 2·opp_stock + opp_hand + opp_waste − (the same of his own).
    # P0's hand card 9D fits P1's stock top 8D and his waste top TD: against DISCARD (no count
    # changes), the load on the stock gains 2 + 1 cards and the load on the waste 1 + 1.
    pos = rb.Position.from_piles(["KH", "KS", "KD", "KC", "2H", "2S", "2D", "2C"], "0 0 0 0",
                                 p0=dict(stock="5C", hand="4C 9D"), p1=dict(stock="8D", waste="TD", hand="8S"))
    values = pos.state.plan_values()
    stock, waste = pos.parse_move("9D→P1 stock"), pos.parse_move("9D→P1 waste")
    assert set(values) == {stock, waste, core.ACTION_DISCARD}
    gain = {a: values[a] - values[core.ACTION_DISCARD] for a in (stock, waste)}
    assert gain[waste] > 0 and 2 * gain[stock] == 3 * gain[waste]


def hide(piles, rng):
    """The same position with every face-down card of both players shuffled within its pile (and
    the waste below its top): what a blind player cannot tell apart."""
    out = {k: [list(x) for x in v] if k in ("stock", "hand", "waste", "houses", "foundations") else v
           for k, v in piles.items()}
    for p in range(2):
        for name in ("stock", "hand", "waste"):
            pile = out[name][p]
            keep = 0 if name == "hand" and not piles["up"][p] else 1
            cut = max(len(pile) - keep, 0)
            pile[:cut] = rng.permutation(pile[:cut]).tolist() if cut else []
    return out


def test_lookahead_is_blind():
    # The planner's value of every action is the same whatever the order of the cards it cannot see.
    rules = rb.resolve("default")
    rng = np.random.default_rng(3)
    checked = differ = 0
    for game in range(12):
        pos, _ = rb.new_game(3000 + game, rules)
        while pos.state.status()["end"] == "running" and pos.state.status()["actions"] < 400:
            piles = pos.state.piles()
            if rng.random() < 0.3 and len(pos.state.legal(True)) > 1:
                seen, shuffled = core.DuelState(rules), core.DuelState(rules)
                seen.load(piles)
                hidden = hide(piles, rng)
                shuffled.load(hidden)
                assert seen.plan_values() == shuffled.plan_values()
                checked += 1
                differ += hidden != piles
            pos.state.step(("lookahead", "random"))
    assert checked >= 300 and differ >= checked // 2


@pytest.mark.parametrize("strategies", [("greedy", "greedy"), ("lookahead", "greedy"), ("random", "lookahead")])
def test_games_keep_every_card_and_always_have_an_action(strategies):
    for seed in range(20 if strategies[0] == "greedy" else 6):
        pos, _ = rb.new_game(seed)
        while pos.status["end"] == "running":
            piles = pos.piles
            assert card_count(piles) == 104
            legal = pos.state.legal(True)
            assert legal
            assert pos.state.step(strategies) in legal
        assert card_count(pos.piles) == 104
        st = pos.status
        if st["end"] == "win":
            w = st["winner"]
            assert not (pos.piles["stock"][w] or pos.piles["hand"][w] or pos.piles["waste"][w])
            loser = 1 - w
            p = pos.piles
            assert st["score"] == 30 + 2 * len(p["stock"][loser]) + len(p["hand"][loser]) + len(p["waste"][loser])


def test_same_seed_same_game():
    a = rb.play_game(5, ("greedy", "random"))
    b = rb.play_game(5, ("greedy", "random"))
    assert a == b
    assert rb.play_game(6, ("greedy", "random")).moves != a.moves


def test_draw_rule():
    record = rb.play_game(2, ("greedy", "greedy"), stall_turns=3)
    assert record.result in ("draw (stall)", "P0 wins", "P1 wins")
    capped = rb.play_game(2, ("greedy", "greedy"), max_turns=5)
    assert capped.result == "draw (cap)" and capped.turns == 5


def duel_config(first="greedy", second="greedy", games=400, **overrides):
    return RunConfig(game="russian_bank", analysis="duel", rules="default", deals=games, seed=9,
                     overrides=overrides, shard_size=100, strategies=dict(first=first, second=second))


def test_duel_analysis_adds_up_across_shards_and_workers():
    one = run(duel_config(), workers=1, progress=False).counters
    two = run(duel_config(), workers=2, progress=False).counters
    for key in one:
        assert np.array_equal(one[key], two[key])
    assert one["outcome"].sum() == 400
    decided = one["outcome"][:2].sum()
    assert one["turns_hist"].sum() == decided == one["score_hist"].sum() == one["wins_by_pack"].sum()
    table = rb.duel_table(one, "greedy vs greedy")
    assert set(table.event) >= {"first wins", "second wins", "draw", "first share of decided"}
    # the mean length has the normal interval of the decided games' turns (histogram: none clipped)
    hist = one["turns_hist"]
    assert hist[-1] == 0
    turns = np.repeat(np.arange(hist.size), hist).astype(float)
    assert one["sums"][3] == turns.sum() and one["sums_sumsq"][3] == (turns ** 2).sum()
    row = table.set_index("event").loc["mean turns (decided)"]
    half = 1.959964 * turns.std(ddof=1) / np.sqrt(turns.size)
    assert (row.ci_low, row.ci_high) == pytest.approx((turns.mean() - half, turns.mean() + half), rel=1e-6)
    assert table[table.event.str.startswith(("mean", "cards loaded"))].ci_low.notna().all()


def test_duel_strategies_differ():
    # Greedy beats random whichever seat it takes (duplicate seats).
    a = run(duel_config("greedy", "random", games=200), progress=False).counters["outcome"]
    b = run(duel_config("random", "greedy", games=200), progress=False).counters["outcome"]
    assert a[0] > a[1] and b[1] > b[0]


def test_first_player_rule_in_the_kernel():
    p0 = run(duel_config(games=100, first_player="p0"), progress=False).counters["first_is_p0"][0]
    p1 = run(duel_config(games=100, first_player="p1"), progress=False).counters["first_is_p0"][0]
    assert (p0, p1) == (100, 0)


# ---------------------------------------------------------------------------------------------
# Golden playthroughs

GOLDEN = Path(__file__).parent / "golden" / "russian_bank"
GAMES = {"seed1_greedy.txt": (1, ("greedy", "greedy"), {}),
         "seed7_greedy_random.txt": (7, ("greedy", "random"), {}),
         "seed3_seed_literal.txt": (3, ("greedy", "greedy"), {"rules": "seed_literal"})}


def transcript(name):
    seed, strategies, kw = GAMES[name]
    return rb.play_game(seed, strategies, **kw).transcript() + "\n"


@pytest.mark.parametrize("name", GAMES)
def test_golden(name):
    assert (GOLDEN / name).read_text(encoding="utf-8") == transcript(name)


def test_a_dict_of_rules_takes_the_overrides_too():
    # a position's own options passed back as rules, with one more option: it applies (it was
    # once dropped without a word), and options are checked as for a preset
    pos, _ = rb.new_game(5, dict(rb.DEFAULTS), foundation_priority="none")
    assert pos.rules["foundation_priority"] == "none"
    with pytest.raises(ValueError, match="unknown russian_bank rule option 'colour'"):
        rb.new_game(5, dict(rb.DEFAULTS, colour="red"))
    with pytest.raises(ValueError, match="auto_turn=false"):
        rb.new_game(5, dict(rb.DEFAULTS), stock_before_hand=True)


def regenerate():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in GAMES:
        (GOLDEN / name).write_text(transcript(name), encoding="utf-8")
        print("wrote", GOLDEN / name)


if __name__ == "__main__" and "--regen" in sys.argv:
    regenerate()


# ---------------------------------------------------------------------------------------------
# Command line

def test_cli_commands(capsys):
    from analyzer.cli import main

    assert main(["russian_bank", "solve", "--seed", "3", "--budget", "1e5"]) == 0
    assert "SOLO(∞, none)" in capsys.readouterr().out
    assert main(["russian_bank", "play", "--seed", "2", "--p1", "random"]) == 0
    assert "result:" in capsys.readouterr().out
    assert main(["russian_bank", "solo", "--deals", "20", "--no-store", "--workers", "1",
                 "--set", "foundation_priority=none", "--set", "node_budget=1e4"]) == 0
    assert "unresolved" in capsys.readouterr().out
    assert main(["russian_bank", "duel", "--deals", "50", "--no-store", "--workers", "1",
                 "--strategy", "second=random"]) == 0
    assert "greedy vs random" in capsys.readouterr().out
    assert main(["russian_bank", "solo", "--deals", "5", "--no-store", "--set", "redeal_limit=-5"]) == 2
    assert "redeal_limit" in capsys.readouterr().err


def test_cli_solves_a_layout_of_ones_own_for_several_redeal_limits(capsys):
    from analyzer.cli import main

    # 3S comes up before 2S in the pass after the redeal and no house takes it: lost with fewer
    # than two redeals (the stuck hand test), won with two or more
    houses = ["--house", "KS", "--house", "QS", "--house", "JS", "--house", "TS"]
    layout = [*houses, "--foundations", "1 0 13 13", "--waste", "3S 2S", "--hand", "9H", "--partial"]
    assert main(["rb", "solve", *layout, "--k", "0", "1", "2", "unlimited"]) == 0
    out = capsys.readouterr().out
    assert "waste [3S 2S]" in out and "h3 [TS]" in out
    for k, outcome in (("0", "loss"), ("1", "loss"), ("2", "win"), ("∞", "win")):
        assert f"layout: SOLO({k}, none) {outcome}" in out
    # the line of SOLO(2, none): 9H goes on TS and the waste comes round; 3S, now on top, waits
    # on the waste while 2S comes up and goes home; the second redeal brings 3S up again
    assert main(["rb", "solve", *layout, "--k", "2", "--line"]) == 0
    out = capsys.readouterr().out
    assert "1. hand 9H→h3 (then the waste is turned over: redeal)" in out
    assert "2. discard 3S; then home: 2S (then the waste is turned over: redeal)" in out
    assert "3. hand 3S→F" in out and "4." not in out
    for bad, message in (([*houses[:4], "--hand", "9H"], "--house 4 times"),
                         ([*houses, "--hand", "9H 9H"], "more than 1"),
                         ([*houses, "--hand", "9X"], "hand"),
                         (layout[:-1], "18 are neither in a pile nor home by the foundation heights"),
                         ([*houses, "--foundations", "a b c d", "--hand", "9H"], "suit S must be a number"),
                         ([*houses, "--hand", "9H", "--partial", "--redeals-used", "2", "--k", "1"],
                          "used 2 redeals"),
                         (["--seed", "3", "--k", "-5"], "redeal_limit"),
                         (["--seed", "3", "--tempo", "--line"], "--line")):
        assert main(["rb", "solve", *bad]) == 2
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:      # a usage error of the option itself
        main(["rb", "solve", *houses, "--hand", "9H", "--partial", "--redeals-used", "-1"])
    assert stop.value.code == 2 and "--redeals-used must be an integer from 0 to 1,000" in capsys.readouterr().err


def test_lookahead_beats_greedy_in_duplicate_play():
    # Every deal twice, packs (and so seats) swapped between the strategies; 95% interval of the
    # per-deal point difference above zero.
    from analyzer.compare import summarize

    gens = [np.random.PCG64(s) for s in (21, 22, 23)]
    counters = core.compare_shard(gens, 150, rb.resolve("default"), dict(a="lookahead", b="greedy"))
    row = summarize(counters, 0.05)
    assert row["ci_low"] > 0 and row["a_better"] > 0.7


def mirrored(action):
    """The same action with the seats swapped: house h is house h+4 (mod 8) of the other player."""
    if action < 0 or action >= core.ACTION_DISCARD:
        return action
    src, dst = (action % 256) // 16, action % 16
    if src >= 3:
        src = 3 + (src - 3 + 4) % 8
    if 1 <= dst <= 8:
        dst = 1 + (dst - 1 + 4) % 8
    return action // 256 * 256 + src * 16 + dst


@pytest.mark.parametrize("strategies", [("greedy", "greedy"), ("lookahead", "greedy"), ("lookahead", "lookahead")])
@pytest.mark.parametrize("rules", ["default", "seed_literal"])
def test_mirror(strategies, rules):
    # §10.9: the packs swapped between the players (and so the seats) give the mirrored game,
    # action by action, with the same end, winner (mirrored) and score.
    options = rb.resolve(rules)
    games = 0
    for seed in range(60 if strategies == ("greedy", "greedy") else 15):
        _, (d0, d1) = rb.new_game(seed, options)
        game, mirror = core.DuelState(options), core.DuelState(options)
        game.deal(d0, d1)
        mirror.deal(d1, d0)
        if game.piles()["player"] == mirror.piles()["player"]:
            continue                      # all start cards tie: player 0 starts both games
        games += 1
        while game.status()["end"] == "running":
            assert mirror.step(strategies[::-1]) == mirrored(game.step(strategies))
        a, b = game.status(), mirror.status()
        assert (a["end"], a["turns"], a["actions"], a["score"]) == (b["end"], b["turns"], b["actions"], b["score"])
        assert a["winner"] == (1 - b["winner"] if a["end"] == "win" else -1) and a["loads"] == b["loads"][::-1]
    assert games >= 10
