"""Piquet's histograms hold the totals of every option value the validators accept: extreme
values (100 a declaration, bonuses of 500) on hands built to score them land in the right bins
in both games (they once wrote past the end of the arrays)."""
import numpy as np

from analyzer.games.piquet import score_declarations
from analyzer.runner import RunConfig, run

EXTREME = dict(quatorze_value=100, trio_value=100, carte_blanche_value=100, seq_values="100,100,100,100,100,100",
               repik_bonus=500, pik_bonus=500)
# three quatorzes (aces, kings, queens): the sets alone score 300, and with repik the total is 800+
ELDER = "AS AH AD AC KS KH KD KC QS QH QD QC"


def test_declarations_at_the_option_limits():
    decl = score_declarations(ELDER, "JS JH JD JC TS TH TD TC 9S 9H 9D 9C", "ru_seed", **EXTREME)
    top = decl.elder.total
    assert top > 300
    c = run(RunConfig("piquet", "declarations", "ru_seed", 300, seed=1, overrides=EXTREME,
                      constraint={"elder": ELDER})).counters
    assert c["total_hist"][0].sum() == 300 and c["total_hist"].shape[1] > top
    assert int(np.nonzero(c["total_hist"][0])[0].max()) >= 300


def test_whole_deals_at_the_option_limits():
    c = run(RunConfig("piquet", "deal", "ru_seed", 200, seed=1, overrides=EXTREME,
                      constraint={"elder": ELDER})).counters
    assert c["total_hist"][0].sum() == 200 and int(np.nonzero(c["total_hist"][0])[0].max()) >= 300
    three = dict(EXTREME, last_trick_value=20, capot_bonus=200, leza_bonus=100)
    c = run(RunConfig("piquet_three", "deal", "ru_three", 200, seed=1, overrides=three)).counters
    assert c["total_hist"][0].sum() == 200 and c["play_hist"].sum() == 600
