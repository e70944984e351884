"""Cross-implementation: the compiled square kernel against the pure-Python reference engine in
square_reference.py, turn by turn, over many seeded deals and every rule option."""
import pytest

from analyzer.games.square import play_deal

import square_reference as ref

# (preset, overrides, strategies): every reconstructed option and every strategy appears at least once
CASES = [
    ("r1", {}, {}),
    ("r1", {"qj_remove": "any", "cover": "yes"}, {}),
    ("r1", {"qj_remove": "none"}, {"play_b": "greedy", "close_b": "at9"}),
    ("r1", {"deal": "draw8", "close_timing": "turn_start"}, {"close_a": "at8"}),
    ("r1", {"deck": 36, "placement": "rank_fixed", "no_closer": "last_actor"}, {}),
    ("r1", {"deck": 52}, {"play_a": "greedy", "close_a": "never"}),
    ("r1_four", {}, {"ask": "always", "agree": "at8"}),
    ("r1_four", {"close_timing": "turn_start", "qj_remove": "any"},
     {"ask": "always", "agree": "at6", "close_a": "at5", "close_b": "at7"}),
]
RANDOM_CASES = [
    ("r1", {}, {"play_a": "random", "play_b": "random"}),
    ("r1", {"cover": "yes", "qj_remove": "any", "deal": "draw8"}, {"play_a": "random", "play_b": "greedy"}),
    ("r1_four", {"no_closer": "last_actor"}, {"play_a": "random", "play_b": "random", "ask": "always", "agree": "at6"}),
    ("r1", {"deck": 36, "placement": "rank_fixed", "close_timing": "turn_start"}, {"play_a": "random", "play_b": "random"}),
]


@pytest.mark.parametrize("preset,overrides,strategies", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_kernel_matches_reference_strategies(preset, overrides, strategies, runslow):
    players = 4 if preset == "r1_four" else 2
    for seed in range(150 if runslow else 12):
        ref.replay(play_deal(seed, preset, strategies, first=seed % players, **overrides))


@pytest.mark.parametrize("preset,overrides,strategies", RANDOM_CASES,
                         ids=[f"{c[0]}-random-{i}" for i, c in enumerate(RANDOM_CASES)])
def test_kernel_matches_reference_random_play(preset, overrides, strategies, runslow):
    players = 4 if preset == "r1_four" else 2
    for seed in range(3000 if runslow else 250):
        ref.replay(play_deal(1000 + seed, preset, strategies, first=seed % players, **overrides))


def test_reference_catches_a_wrong_log():
    log = play_deal(1, "r1")
    log["turns"][3]["cell"] = (log["turns"][3]["cell"] + 1) % 9
    with pytest.raises(AssertionError):
        ref.replay(log)
