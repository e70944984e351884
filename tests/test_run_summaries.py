"""`kozyr runs show` prints a stored run's result tables through its analysis's summary
(Analysis.summary); they must be the very tables the game's own command printed for the run."""
import json

import pytest

from analyzer.cli import main
from analyzer.games import game_names, get_game

# (game command, the analysis it runs, which of the summary's tables the command prints): tiny
# runs, each well under a second
COMMANDS = [
    (["piquet", "odds", "--deals", "2000", "--no-exact"], "declarations", 0),
    (["piquet", "deals", "--deals", "300"], "deal", 0),
    (["piquet", "partie", "--deals", "30"], "partie", 0),
    (["piquet_three", "deals", "--deals", "300"], "deal", 0),
    (["piquet_three", "deals", "--deals", "300", "--hands"], "deal", 1),
    (["piquet_three", "game", "--deals", "20"], "game", 0),
    (["klabor", "odds", "--deals", "2000"], "odds", 0),
    (["klabor", "deals", "--deals", "500", "--strategy", "play_b=random"], "deals", 0),
    (["klabor", "thresholds", "--deals", "300"], "thresholds", 0),
    (["klabor", "games", "--deals", "30"], "games", 0),
    (["marias", "stovka", "--deals", "500"], "stovka", 0),
    *[(["marias", "stovka", "--deals", "500", "--filter", f], f"stovka_{f}", 0) for f in ("trump_hlas", "mariasek", "all")],
    (["marias", "game", "--deals", "500"], "game", 0),
    (["semerik", "odds", "--deals", "2000"], "declarations", 0),
    (["semerik", "odds", "--deals", "2000", "--distribution"], "declarations", 1),
    (["semerik", "deals", "--deals", "300"], "deals", 0),
    (["semerik", "games", "--deals", "30"], "games", 0),
    (["square", "odds", "--deals", "300"], "play", 0),
    (["square", "thresholds", "--deals", "100"], "thresholds", 0),
    (["square", "baseline", "--deals", "2000"], "baseline", 0),
    (["square", "match", "--deals", "20"], "match", 0),
    (["vedma", "odds", "--deals", "2000", "--no-exact"], "play", 0),
    (["vedma", "length", "--deals", "2000"], "play", 1),
    (["vedma", "placement", "--deals", "2000"], "placement", 0),
]

# Analyses left without a summary, and why (their tables need more than the stored counters,
# rule options and strategy names). A compare run is one pair of `kozyr compare`, whose table
# names each side by the label given on the command line (not stored) and, with more than two
# strategies, adjusts p-values and intervals over all the pairs (the other runs).
WITHOUT_SUMMARY = {(game, "compare") for game in ("piquet", "piquet_three", "klabor", "marias", "semerik",
                                                  "square", "vedma", "russian_bank")}


def _first_table(printed: dict) -> list:
    """The first table a command printed in --json: `table`, or the first of `tables`."""
    return printed["table"] if "table" in printed else next(iter(printed["tables"].values()))


@pytest.mark.parametrize("command, analysis, index", COMMANDS, ids=[" ".join(c[:2] + c[4:]) for c, _, _ in COMMANDS])
def test_runs_show_prints_the_commands_table(tmp_path, capsys, command, analysis, index):
    store = str(tmp_path / "store.sqlite")
    assert main([*command, "--seed", "7", "--workers", "1", "--store", store, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["run"]["analysis"] == analysis
    assert main(["runs", "show", "1", "--store", store, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["config"]["analysis"] == analysis and shown["tables"]
    assert list(shown["tables"].values())[index] == _first_table(printed)
    assert main(["runs", "show", "1", "--store", store]) == 0
    assert f"({printed['run']['deals_done']:,} deals):" in capsys.readouterr().out


def test_every_analysis_has_a_summary_or_a_reason():
    tested = {(c[0], a) for c, a, _ in COMMANDS} | {("russian_bank", a) for a in
                                                  ("solo", "blind", "blind_paired", "duel")}
    for name in game_names():
        for analysis in get_game(name).analyses.values():
            has = analysis.summary is not None
            assert has != ((name, analysis.name) in WITHOUT_SUMMARY), (name, analysis.name)
            assert not has or name == "russian_bank" or (name, analysis.name) in tested, (name, analysis.name)
