"""The double-dummy solver on whole twelve-card deals: solved values against a golden file; its
value bounds against plain minimax on small endgames, for every way of scoring the play.

tests/golden/piquet/dd_full_deals.json holds seeded full deals (both hands, pik state,
announcement, rule set) with the values solved by the plain solver of main at commit 2989fc0,
before the search was optimised. Every later speed-up must reproduce them exactly. The small
endgames are checked against plain minimax in test_piquet_play.py.

Only regenerate (``python tests/test_piquet_search.py --regen``) when the rules or the meaning of
the value change, never to make a faster solver pass."""
import json
import random
import sys
from pathlib import Path

import pytest

from analyzer._core import piquet as kernel
from analyzer.cards import PIQUET32
from analyzer.games import get_game

import piquet_reference as ref

GOLDEN = Path(__file__).parent / "golden" / "piquet" / "dd_full_deals.json"
# name: (preset, options, deals, chance of a pending pik, chance of an open-capot announcement)
CASES = {
    "ru_seed": ("ru_seed", {}, 300, 0.0, 0.0),
    "ru_seed_pik_announced": ("ru_seed", {}, 150, 0.7, 0.3),
    "ru_seed_whole_play": ("ru_seed", {"pik_window": "whole_play"}, 100, 0.8, 0.0),
    "ru_seed_capot_keeps_last": ("ru_seed", {"capot_keeps_last_trick": True}, 60, 0.5, 0.3),
    "classic": ("classic", {}, 150, 0.5, 0.0),
}


def _positions(name):
    """Seeded deals: (elder mask, younger mask, pik possible, elder's pik count, announced)."""
    preset, _, deals, p_pik, p_announce = CASES[name]
    rng = random.Random(f"dd-{name}")
    out = []
    for _ in range(deals):
        cards = rng.sample(range(32), 24)
        elder = sum(1 << c for c in cards[:12])
        younger = sum(1 << c for c in cards[12:])
        pik = int(rng.random() < p_pik)
        count = rng.randint(0, 29) if pik else 0
        announced = rng.choice((0, 1)) if rng.random() < p_announce else -1
        out.append((elder, younger, pik, count, announced))
    return out


def _solve(name, position, method):
    preset, options, *_ = CASES[name]
    rules = get_game("piquet").resolve_rules(preset, options)
    elder, younger, pik, count, announced = position
    return kernel.solve_position(elder, younger, 0, 0, 0, pik, count, 1, announced, rules, method=method)[0]


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("name", list(CASES))
def test_full_deal_values_match_the_golden_file(golden, name):
    positions = _positions(name)
    expected = golden[name]
    assert len(expected) == len(positions)
    # MTD(f) on every deal; the full-window search and the move-by-move root on a few of them.
    for i, position in enumerate(positions):
        assert _solve(name, position, "mtdf") == expected[i], (name, i, position)
        if i % 25 == 0:
            assert _solve(name, position, "window") == expected[i], (name, i, position)
            assert _solve(name, position, "moves") == expected[i], (name, i, position)


def test_solve_many_matches_the_golden_file(golden):
    positions = _positions("ru_seed")
    rules = get_game("piquet").resolve_rules("ru_seed")
    elder = [p[0] for p in positions]
    younger = [p[1] for p in positions]
    # One table kept over all the deals, as in a shard; both the zero-window and full-window paths.
    assert kernel.solve_many(elder, younger, rules).tolist() == golden["ru_seed"]
    assert kernel.solve_many(elder, younger, rules, use_mtdf=False).tolist() == golden["ru_seed"]


# Every preset, and the options that change how the play scores (the search's value bounds depend
# on trick_point, last_trick_mode / value, capot_keeps_last_trick and the pik window).
SCORINGS = [
    ("ru_seed", {}), ("ru_seed_seq34", {}), ("classic", {}),
    ("ru_seed", {"capot_keeps_last_trick": True}), ("ru_seed", {"pik_window": "whole_play"}),
    ("classic", {"capot_keeps_last_trick": False}), ("classic", {"pik_window": "whole_play"}),
    ("ru_seed", {"trick_point": "follower_only"}),
    ("ru_seed", {"trick_point": "follower_only", "capot_keeps_last_trick": True}),
    ("ru_seed", {"last_trick_mode": "extra", "last_trick_value": 1}),
    ("classic", {"last_trick_mode": "total", "last_trick_value": 4}),
]


@pytest.mark.parametrize("preset,options", SCORINGS)
def test_value_bounds_hold_on_random_endgames(preset, options):
    """The bounds the search cuts off with (trick counts from stoppers and cashable tricks, the
    value as a function of elder's tricks and who takes the last one) contain the minimax value,
    and are tight often enough that a bound off by a point would be caught; the solver's value
    under that scoring is the minimax value."""
    rules = get_game("piquet").resolve_rules(preset, options)
    rng = random.Random(f"bounds-{preset}-{options}")
    tight = 0
    cases = 150
    for case in range(cases):
        n = rng.choice((2, 3, 4))
        cards = rng.sample(PIQUET32.cards, 2 * n)
        elder, younger = cards[:n], cards[n:]
        done = 12 - n
        if rng.random() < 0.3:           # a capot still possible
            elder_won, leader = rng.choice(((done, 0), (0, 1)))
        else:
            elder_won, leader = rng.randint(0, done), rng.randint(0, 1)
        window = elder_won == done and leader == 0 and rng.random() < 0.8
        pik_possible = rng.random() < 0.5
        count = rng.randint(14, 29)
        announced = None
        if rng.random() < 0.3 and elder_won in (0, done):
            announced = 0 if elder_won == done else 1
        args = (PIQUET32.mask(elder), PIQUET32.mask(younger), leader, elder_won, done - elder_won,
                int(pik_possible), count, int(window), -1 if announced is None else announced, rules)
        (low, high), _, _ = kernel.solve_position(*args, method="bounds")
        play = ref.Play(preset, (20, 0 if pik_possible else 5), (0, 0), rules["pik_window"], leader=leader,
                        tricks_done=done, won=(elder_won, done - elder_won), pik_count=count, window_open=window)
        play.style = {"trick_point": rules["trick_point"],
                      "last_trick": (rules["last_trick_mode"], rules["last_trick_value"]),
                      "capot_keeps_last": rules["capot_keeps_last_trick"]}
        exact = ref.minimax([set(elder), set(younger)], play, announced)
        assert low <= exact <= high, (case, elder, younger, leader, elder_won, low, exact, high)
        tight += low == exact or high == exact
        assert kernel.solve_position(*args, method="mtdf")[0] == exact, (case, elder, younger)
    assert tight >= cases // 3


if __name__ == "__main__" and "--regen" in sys.argv:
    values = {name: [_solve(name, p, "window") for p in _positions(name)] for name in CASES}
    GOLDEN.write_text(json.dumps(values, indent=None, separators=(",", ":")) + "\n")
    print("wrote", GOLDEN)
