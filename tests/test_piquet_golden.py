"""Golden playthroughs: seeded piquet deals dumped as readable text in tests/golden/piquet/.
Regenerate after an intended change with ``python tests/test_piquet_golden.py --regen`` and read
the diff before committing it."""
import sys
from pathlib import Path

import pytest

from analyzer.games.piquet import play_one

GOLDEN_DIR = Path(__file__).parent / "golden" / "piquet"
CASES = {
    "seed1-ru_seed-greedy": (1, "ru_seed", {}),
    "seed2-classic-greedy": (2, "classic", {}),
    "seed3-ru_seed-double_dummy-vs-greedy": (3, "ru_seed", {"elder_play": "double_dummy"}),
    "seed4-ru_seed_seq34-best_expected-random": (4, "ru_seed_seq34", {"elder_exchange": "best_expected",
                                                                      "younger_play": "random"}),
    "seed5-ru_seed-pimc-vs-double_dummy": (5, "ru_seed", {"elder_play": "pimc", "younger_play": "double_dummy"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_golden_playthrough(name):
    seed, rules, strategies = CASES[name]
    expected = (GOLDEN_DIR / f"{name}.txt").read_text()
    assert play_one(seed, rules, strategies) == expected


if __name__ == "__main__" and "--regen" in sys.argv:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, (seed, rules, strategies) in CASES.items():
        (GOLDEN_DIR / f"{name}.txt").write_text(play_one(seed, rules, strategies))
        print("wrote", name)
