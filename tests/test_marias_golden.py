"""Golden mariáš playthroughs: a few seeded deals (hands dealt from a seeded shuffle, contracts of
every kind, heuristic or random play) explained as text and compared with tests/golden/marias/.
Regenerate after an intended change with: python tests/test_marias_golden.py --regen"""
import random
import sys
from pathlib import Path

import pytest

from analyzer.cards import MARIAS32
from analyzer.games.marias import play_deal

GOLDEN = Path(__file__).parent / "golden" / "marias"
# name -> (shuffle seed, contract, strategy, sedma proti)
CASES = {
    "hra_heuristic": (1, "hra", "heuristic", False),
    "sedma_heuristic": (2, "sedma", "heuristic", False),
    "stovka_heuristic": (3, "stovka", "heuristic", False),
    "sto_a_sedem_random": (4, "sto_a_sedem", "random", False),
    "hra_sedma_proti": (5, "hra", "heuristic", True),
    "maly_heuristic": (6, "maly", "heuristic", False),
    "velky_random": (7, "velky", "random", False),
}


def deal_for(seed, contract, proti):
    """The first shuffle of the seeded generator that admits the contract (seven, hlas, talon rules)."""
    rng = random.Random(seed)
    while True:
        cards = MARIAS32.cards[:]
        rng.shuffle(cards)
        hands, talon = [cards[0:10], cards[10:20], cards[20:30]], cards[30:]
        trump = rng.choice("SHDC")
        if contract in ("maly", "velky"):
            return hands, talon, None
        if any(c[0] in "AT" for c in talon):
            continue
        if contract in ("sedma", "sto_a_sedem") and "7" + trump not in hands[0]:
            continue
        if contract in ("stovka", "sto_a_sedem") and not any({"K" + s, "Q" + s} <= set(hands[0]) for s in "SHDC"):
            continue
        if proti and not any("7" + trump in hands[s] for s in (1, 2)):
            continue
        return hands, talon, trump


def golden_text(name):
    seed, contract, strategy, proti = CASES[name]
    hands, talon, trump = deal_for(seed, contract, proti)
    result = play_deal(hands, talon, contract, trump, strategies=strategy, sedma_proti=proti, seed=seed)
    return f"# {name}: seed {seed}, {strategy} play\n" + result.explain() + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthroughs(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert golden_text(name) == expected, f"regenerate with: python tests/test_marias_golden.py --regen ({name})"


def regen():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        (GOLDEN / f"{name}.txt").write_text(golden_text(name))


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regen()
