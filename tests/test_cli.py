import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pytest

from analyzer.cli import main

TV5 = ("AS AH AD AC JS JH JD JC TS TH TD 7C", "KS KH KD KC QS QH QD QC TC 9S 9H 9D")


def kozyr(*args, cwd=None):
    # Run outside the source tree so the installed (compiled) package is the one imported.
    proc = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd or tempfile.gettempdir())
    return proc.returncode, proc.stdout, proc.stderr


def test_odds_table_json_and_csv(tmp_path, capsys):
    csv = tmp_path / "odds.csv"
    assert main(["piquet", "odds", "--deals", "50000", "--seed", "3", "--workers", "2", "--json", "--csv", str(csv)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["deals"] == 50000 and data["run"]["seed"] == 3 and data["run"]["rule_options"]["seq_values"]
    table = pd.read_csv(csv)
    assert {"event", "player", "estimate", "ci_low", "ci_high", "exact", "n"} <= set(table.columns)
    assert len(table) == len(data["table"])
    row = table[(table.event == "carte blanche") & (table.player == "elder")].iloc[0]
    assert row.ci_low <= row.estimate <= row.ci_high and row.exact == pytest.approx(323 / 578956)


def test_odds_text_is_reproducible(capsys):
    args = ["piquet", "odds", "--deals", "30000", "--seed", "8", "--rules", "classic", "--no-exact"]
    main(args + ["--workers", "1"])
    first = capsys.readouterr().out
    main(args + ["--workers", "2", "--backend", "processes"])
    assert capsys.readouterr().out == first
    assert "rules classic" in first and "30,000 deals" in first


def test_explain_prints_breakdown(capsys):
    assert main(["piquet", "explain", "--elder", TV5[0], "--younger", TV5[1]]) == 0
    out = capsys.readouterr().out
    assert "Repik for elder: 34 + 60 = 94" in out and "four aces" in out
    assert main(["piquet", "explain", "--elder", TV5[0], "--younger", TV5[1], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["elder"]["total"] == 34 and data["elder"]["repik"] is True


@pytest.mark.parametrize("args,message", [
    (["piquet", "odds", "--deals", "0"], "positive"),
    (["piquet", "odds", "--deals", "many"], "not a number"),
    (["piquet", "odds", "--rules", "russian"], "invalid choice"),
    (["piquet", "odds", "--set", "bogus=1", "--deals", "10"], "unknown piquet rule option 'bogus'"),
    (["piquet", "odds", "--set", "novalue", "--deals", "10"], "KEY=VALUE"),
    (["piquet", "odds", "--workers", "0", "--deals", "10"], "workers"),
    (["piquet", "odds", "--seed", "-4"], "the seed must be an integer from 0"),
    (["piquet", "odds", "--seed", str(2**64)], "the seed must be an integer from 0"),
    (["piquet", "odds", "--deals", "1e400"], "not a number"),
    (["piquet", "odds", "--deals", "1e15"], "at most"),
    (["piquet", "odds", "--deals", "1e9", "--shard-size", "1"], "shards"),
    (["piquet", "odds", "--workers", "5000", "--deals", "10"], "workers"),
    (["piquet", "odds", "--deals", "10", "--no-store", "--csv", "/"], "is a directory"),
    (["piquet", "odds", "--deals", "10", "--no-store", "--csv", "/proc/no/such.csv"], "cannot write"),
    (["piquet", "odds", "--deals", "10", "--no-store", "--scheduler", "bogus"], "malformed"),
    (["piquet", "deals", "--deals", "10", "--no-store", "--strategy", "elder_play=python:os:getcwd"],
     "lacks choose_card()"),
    (["piquet", "report", "--deals", "100", "--out", "/proc/version"], "cannot write a report there"),
    (["piquet", "report", "--deals", "100", "--out", ""], "argument --out: empty; give a folder"),
    (["piquet", "odds", "--deals", "10", "--where", ""], "argument --where: empty; leave the option out"),
    (["piquet", "odds", "--deals", "10", "--elder", " "], "argument --elder: empty; leave the option out"),
    (["piquet", "explain", "--elder", TV5[0], "--younger", TV5[1], "--tricks", ""], "argument --tricks: empty"),
    (["klabor", "report", "--deals", "1"], "at least 100"),
    (["runs", "show", str(2**64)], "a run id must be an integer"),
    (["piquet", "explain", "--elder", "AS KS QX", "--younger", TV5[1]], "malformed card 'QX'"),
    (["piquet", "explain", "--elder", TV5[0], "--younger", TV5[0]], "given twice"),
    (["piquet", "explain", "--elder", TV5[0], "--younger", "AS"], "younger hand has 1 cards"),
    (["rb", "solve", "--budget", "2e11"], "the node budget must be an integer from 1 to 100,000,000,000"),
    (["rb", "solo", "--deals", "10", "--set", "empty_house_rule=stock_only"], "does not apply to the SOLO game"),
    (["chess"], "invalid choice"),
    (["piquet", "odds", "--deals", "10", "--bogus"], "unrecognized arguments: --bogus (see kozyr piquet odds --help)"),
    (["runs", "list", "--x", "1"], "unrecognized arguments: --x 1 (see kozyr runs list --help)"),
    # a repeated key is refused, not silently overridden by its last value
    (["piquet", "odds", "--deals", "10", "--set", "repik_bonus=60", "--set", "repik_bonus=61"],
     "repik_bonus is given twice (repik_bonus=60 and repik_bonus=61); give it once"),
    (["piquet", "deals", "--deals", "10", "--strategy", "elder_play=random", "--strategy", "elder_play=greedy"],
     "elder_play is given twice"),
    (["piquet", "explain", "--elder", TV5[0], "--younger", TV5[1], "--declare", "elder.sets=", "--declare",
      "elder.sets=AS"], "argument --declare: elder.sets is given twice"),
    (["marias", "explain", "--hands", "AS TS KS QS 7S AH TH KH AD TD", "9S 8S JS QH JH 9H 8H 7H KD QD",
      "JD 9D 8D 7D AC TC KC QC JC 9C", "--talon", "8C 7C", "--contract", "hra", "--trump", "S",
      "--double", "hra=1", "--double", "hra=0"], "argument --double: hra is given twice"),
])
def test_user_errors_are_one_line(args, message):
    code, out, err = kozyr(*args)
    assert code == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err


def test_every_game_has_its_own_report_command_and_russian_bank_answers_to_rb():
    # `kozyr GAME report` is `kozyr report --games GAME` with the same options; `kozyr rb ...`
    # is `kozyr russian_bank ...` (the issue's `kozyr rb report`).
    from analyzer.cli import build_parser, cmd_report
    from analyzer.games import game_names, get_game

    parser = build_parser()
    whole = parser.parse_args(["report", "--games", "russian_bank", "--scale", "0.5", "--workers", "1"])
    short = parser.parse_args(["rb", "report", "--scale", "0.5", "--workers", "1"])
    assert short.handler is cmd_report and vars(short).keys() - {"game_command"} == vars(whole).keys()
    assert all(getattr(short, k) == getattr(whole, k) for k in vars(whole) if k != "command")
    for name in game_names():
        if get_game(name).report is not None:
            assert parser.parse_args([name, "report"]).games == [name]
    assert parser.parse_args(["rb", "play", "--seed", "3"]).handler \
        is parser.parse_args(["russian_bank", "play", "--seed", "3"]).handler
    assert parser.parse_args(["compare", "rb", "--strategies", "greedy", "random"]).game == "russian_bank"


def test_the_installed_script_finds_a_strategy_in_the_folder_it_runs_from(tmp_path):
    # worked-examples.md: "save this as myplayer.py in the folder you run kozyr from".
    script = Path(sys.executable).parent / "kozyr"
    if not script.exists():
        pytest.skip("the kozyr script is not installed next to this Python")
    (tmp_path / "myplayer.py").write_text(
        "class FirstLegal:\n    def choose_card(self, view):\n        return view.legal[0]\n")
    proc = subprocess.run([str(script), "piquet", "deals", "--deals", "20", "--no-store",
                           "--strategy", "elder_play=myplayer:FirstLegal"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "myplayer:FirstLegal" in proc.stdout


def test_the_run_header_names_what_was_counted_and_the_strategies_chosen(capsys):
    assert main(["klabor", "games", "--deals", "20", "--no-store", "--strategy", "play_b=random"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith('# klabor games, rules standard, strategies {"play_b": "random"}, 20 games, seed 1')
    assert main(["marias", "stovka", "--deals", "200", "--no-store"]) == 0
    assert capsys.readouterr().out.startswith("# marias stovka, rules seed, 200 deals, seed 1, kozyr ")


def test_an_output_that_cannot_encode_the_games_names_gets_them_escaped(tmp_path):
    # piquet for three's леза and the square game's Квадрат, written to an ASCII-only output (a
    # file in a Windows code page behaves the same): escaped, never a failed command
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    run = [sys.executable, "-m", "analyzer"]
    proc = subprocess.run(run + ["piquet_three", "deals", "--deals", "2000", "--no-store"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "\\u043b\\u0435\\u0437\\u0430" in proc.stdout      # леза
    proc = subprocess.run(run + ["--help"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0 and "\\u041a\\u0432\\u0430\\u0434\\u0440\\u0430\\u0442" in proc.stdout   # Квадрат
