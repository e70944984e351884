"""Mariáš card play and discard written in Python (issue 7 item 3): a Python copy of the compiled
heuristic (and of both discards) plays exactly like it through the runner, with two workers;
registered objects, compare labels and the CLI take Python strategies; bad names, missing methods,
illegal cards and talons are clear errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.compare import compare
from analyzer.games.marias import GAME
from analyzer.runner import RunConfig, run
from analyzer.strategies import register

sys.path.insert(0, str(Path(__file__).parent))
from marias_python_heuristic import HeuristicPlayer  # noqa: E402

PY = "python:marias_python_heuristic:HeuristicPlayer"


def counters(analysis, strategies, workers=1, **config):
    return run(RunConfig("marias", analysis, "seed", strategies=strategies, **config), workers=workers).counters


@pytest.mark.parametrize("analysis,strategies,config", [
    # protocol L on seed 1 reaches every contract, Malý and Veľký included, so every branch of the copy plays
    ("game", {"actor_play": PY, "defender_play": PY}, dict(deals=2000, seed=1, shard_size=1000,
                                                           overrides={"protocol": "L"})),
    ("game", {"actor_play": "random", "defender_play": PY}, dict(deals=1500, seed=4, shard_size=500)),
    ("stovka", {"actor_play": PY, "defender_play": "random"}, dict(deals=1500, seed=5, shard_size=500)),
])
def test_python_heuristic_plays_exactly_like_the_compiled_one(analysis, strategies, config):
    compiled = counters(analysis, {r: "heuristic" if n == PY else n for r, n in strategies.items()}, **config)
    python = counters(analysis, strategies, workers=2, **config)
    for key in compiled:
        assert np.array_equal(compiled[key], python[key]), key
    if analysis == "game" and config["seed"] == 1:
        assert (compiled["contracts"][:, 0] > 0).all()


@pytest.mark.parametrize("analysis", ["game", "stovka"])
def test_python_discards_like_the_compiled_ones(analysis):
    config = dict(deals=2000, seed=7, shard_size=1000)
    heuristic, low_cards = (counters(analysis, {"discard": name}, **config) for name in ("heuristic", "low_cards"))
    key = "contracts" if analysis == "game" else "money"
    assert not np.array_equal(heuristic[key], low_cards[key])        # the two discards differ on these deals
    for compiled, python in ((heuristic, "HeuristicPlayer"), (low_cards, "LowCards")):
        played = counters(analysis, {"discard": f"python:marias_python_heuristic:{python}"}, workers=2, **config)
        for name in compiled:
            assert np.array_equal(compiled[name], played[name]), (python, name)


class Recorder(HeuristicPlayer):
    """The heuristic, noting what its views hold."""
    seen: list = []

    def choose_card(self, view):
        Recorder.seen.append(view)
        return super().choose_card(view)


@pytest.mark.parametrize("doubling", ["heuristic", "none"])
def test_the_view_holds_only_what_the_seat_knows(doubling):
    Recorder.seen = []
    name = register("marias-recorder", Recorder)
    c = counters("game", {"defender_play": name, "actor_play": name, "doubling": doubling}, deals=300, seed=2)
    assert Recorder.seen
    doubled = 0
    for v in Recorder.seen:
        played = [card for trick in v.tricks for _, card in trick] + [card for _, card in v.trick]
        assert set(v.legal) <= set(v.hand) and not set(v.hand) & set(played)
        assert v.talon == () if v.seat != v.actor else len(v.talon) == 2
        assert len(v.tricks) == len(v.trick_winners) and sum(v.tricks_won) == len(v.tricks)
        assert (v.trump is None) == (v.contract in ("maly", "velky"))
        doubled += any(any(parts.values()) for parts in v.doublings)
        if v.laid_down:      # a talon this seat laid down, picked up by a takeover to Malý/Veľký
            assert len(v.laid_down) == 2 and not set(v.laid_down) & set(v.hand)
            assert v.contract in ("maly", "velky") and v.seat != v.actor
    if doubling == "heuristic":     # seed 2 has a Malý taken over from the forehand
        assert any(v.laid_down and v.seat == 0 for v in Recorder.seen)
    assert (doubled > 0) == (doubling == "heuristic") and (c["doubled"][0] > 0) == (doubling == "heuristic")


def test_play_deal_and_explain_take_python_strategies(tmp_path):
    import random

    from analyzer.cards import MARIAS32
    from analyzer.games.marias import play_deal

    rng = random.Random(5)
    for deal in range(40):
        cards = MARIAS32.cards[:]
        rng.shuffle(cards)
        talon = [c for c in cards if c[0] not in "AT"][:2]
        rest = [c for c in cards if c not in talon]
        hands = [rest[0:10], rest[10:20], rest[20:30]]
        contract, trump = [("hra", "SHDC"[deal % 4]), ("maly", None), ("velky", None)][deal % 3]
        built_in = play_deal(hands, talon, contract, trump, actor=deal % 3)
        python = play_deal(hands, talon, contract, trump, actor=deal % 3, strategies=[PY] * 3)
        assert python.tricks == built_in.tricks and python.settlement == built_in.settlement
    with pytest.raises(ValueError, match="Illegal.choose_card returned"):
        play_deal(hands, talon, "hra", "S", strategies="python:marias_python_heuristic:Illegal")
    with pytest.raises(ValueError, match="share one Python strategy"):
        play_deal(hands, talon, "hra", "S", strategies=["heuristic", PY, "python:marias_python_heuristic:LowCards"])
    root = Path(__file__).parent.parent
    env = dict(os.environ, PYTHONPATH=str(root / "tests"))  # the strategy; the package is the installed one
    proc = subprocess.run([sys.executable, "-m", "analyzer", "marias", "explain", "--hands", *map(" ".join, hands),
                           "--talon", " ".join(talon), "--contract", "hra", "--trump", "S",
                           "--play", "marias_python_heuristic:HeuristicPlayer"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == subprocess.run([sys.executable, "-m", "analyzer", "marias", "explain", "--hands",
                                          *map(" ".join, hands), "--talon", " ".join(talon), "--contract", "hra",
                                          "--trump", "S"], capture_output=True, text=True, cwd=tmp_path, env=env,
                                         timeout=300).stdout


def test_python_strategy_in_worker_processes():
    # each worker process makes its own player from the import path (forked workers inherit sys.path)
    config = dict(deals=600, seed=9, shard_size=300)
    compiled = counters("game", {"defender_play": "heuristic"}, **config)
    python = run(RunConfig("marias", "game", "seed", strategies={"defender_play": PY}, **config), workers=2,
                 backend="processes").counters
    for key in compiled:
        assert np.array_equal(compiled[key], python[key]), key


def test_compare_with_a_python_label_and_registered_objects():
    _, compiled = compare("marias", ["heuristic", "random"], deals=600, seed=2, shard_size=200)
    _, python = compare("marias", [PY, "random"], deals=600, seed=2, shard_size=200, workers=2)
    for key, value in compiled[0].counters.items():
        assert np.array_equal(python[0].counters[key], value), key
    for name in (register("marias-heuristic-class", HeuristicPlayer), register("marias-heuristic", HeuristicPlayer())):
        table, runs = compare("marias", ["heuristic", name], deals=300, seed=3)
        assert table.iloc[0].mean_diff == 0 and table.iloc[0].equal == 1.0
        assert runs[0].counters["pairs"][0] == 300


@pytest.mark.parametrize("name,message", [
    ("python:marias_python_heuristic:Illegal",
     r"Illegal.choose_card returned \w\w, which is not legal in trick \d+: (must|void|the announced)"),
    ("python:marias_python_heuristic:NotHeld", r"NotHeld.choose_card returned \w\w, which \w+ does not hold"),
    ("python:no_such_module:X", "cannot import"),
    ("python:marias_python_heuristic:Nope", "has no 'Nope'"),
    ("python:marias_python_heuristic:NoMethod", "lacks choose_card"),
    ("python:bad path", "write package.module:ClassName"),
])
def test_python_strategy_errors(name, message):
    with pytest.raises(ValueError, match=message):
        counters("game", {"defender_play": name}, deals=50, seed=1)


@pytest.mark.parametrize("name,message,overrides", [
    ("BadDiscard", r"BadDiscard.choose_discard returned [AT]\w: an A or a T may not go to the talon", {}),
    ("NoMethod", r"returned nothing: the talon is exactly 2 cards", {}),
    ("Illegal", "lacks choose_discard", {}),
    ("LowCards", "a Python discard plays protocol V", {"protocol": "L"}),
])
def test_python_discard_errors(name, message, overrides):
    with pytest.raises(ValueError, match=message):
        counters("game", {"discard": f"python:marias_python_heuristic:{name}"}, deals=50, seed=1, overrides=overrides)


def test_python_only_where_documented():
    with pytest.raises(ValueError, match="unknown trump_choice strategy"):
        counters("game", {"trump_choice": PY}, deals=10, seed=1)
    with pytest.raises(ValueError, match="unknown marias strategy"):
        compare("marias", ["heuristic", "bogus"], deals=10, seed=1)
    from analyzer._core import marias as core

    with pytest.raises(ValueError, match="needs the callback"):
        core.stovka_shard([np.random.PCG64(1) for _ in range(3)], 5, dict(GAME.presets["seed"]),
                          {"defender_play": PY}, "natural", "all")


def test_compare_cli_takes_an_import_path(tmp_path):
    root = Path(__file__).parent.parent
    env = dict(os.environ, PYTHONPATH=str(root / "tests"))  # the strategy; the package is the installed one
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "marias", "--strategies", "heuristic",
                           "marias_python_heuristic:HeuristicPlayer", "--deals", "200", "--seed", "3", "--json",
                           "--no-store"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)["table"][0]
    assert row["b"] == "marias_python_heuristic:HeuristicPlayer" and row["deals"] == 200 and row["mean_diff"] == 0
