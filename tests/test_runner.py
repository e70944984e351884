"""The runner: validated configs, shard seeding, bit-identical merges for any workers/backend,
and a clean stop on Ctrl-C that keeps the completed shards."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from analyzer.runner import RunConfig, merge_counters, run, run_shard, shard_bit_generators


def config(**kw):
    base = dict(game="piquet", analysis="declarations", rules="ru_seed", deals=250_000, seed=5, shard_size=40_000)
    return RunConfig(**{**base, **kw})


@pytest.mark.parametrize("bad,message", [
    (dict(deals=0), "positive"), (dict(deals=-3), "positive"), (dict(seed=-1), "non-negative"),
    (dict(game="chess"), "unknown game"), (dict(analysis="play"), "no analysis"),
    (dict(rules="russian"), "unknown piquet rules preset"), (dict(overrides={"bogus": 1}), "unknown piquet rule option"),
    (dict(overrides={"repik_threshold": "x"}), "integer"), (dict(deals=1.5), "integer"), (dict(shard_size=0), "positive"),
])
def test_invalid_configs(bad, message):
    with pytest.raises(ValueError, match=message):
        config(**bad)


@pytest.mark.parametrize("workers", [0, -3, 1.5, True, "2"])
def test_run_refuses_a_bad_number_of_workers(workers):
    # 0 or fewer workers once returned an empty "interrupted" result without a word
    with pytest.raises(ValueError, match="workers must be a whole number of at least 1"):
        run(RunConfig("piquet", "declarations", "ru_seed", 100, seed=1), workers=workers, progress=False)


def test_config_is_frozen_and_resolved():
    c = config(overrides={"seq_values": [3, 4, 15, 16, 17, 18]})
    with pytest.raises(Exception):
        c.deals = 5
    resolved = c.resolved()
    assert resolved["rule_options"]["seq_values"] == (3, 4, 15, 16, 17, 18)
    assert resolved["seed"] == 5 and resolved["version"]
    json.dumps(resolved)
    assert c.n_shards == 7 and c.shard_deals(6) == 10_000


def test_shards_use_independent_seed_streams():
    a = shard_bit_generators(5, 0, 2)
    b = shard_bit_generators(5, 1, 2)
    draws = {g.random_raw() for g in a + b}
    assert len(draws) == 4
    assert shard_bit_generators(5, 1, 2)[0].random_raw() == shard_bit_generators(5, 1, 2)[0].random_raw()


def test_shard_i_draws_from_the_seed_sequence_of_its_index_and_stream():
    # DESIGN.md: shard i seeds PCG64(SeedSequence(seed, spawn_key=(i, stream))), stream 0 dealing,
    # the others playing; built here from numpy alone, so that a change of derivation (which would
    # mix old and new shards in a stored run) fails
    from analyzer.games import get_game

    c = RunConfig("piquet", "deal", "ru_seed", deals=3000, seed=5, shard_size=1000,
                  strategies={"elder_play": "random", "younger_play": "random"})
    analysis = get_game("piquet").analysis("deal")
    for i in range(3):
        streams = [np.random.PCG64(np.random.SeedSequence(5, spawn_key=(i, s))) for s in range(analysis.streams)]
        expected = analysis.kernel(streams, 1000, c.rule_options, c.strategy_names)
        shard = run_shard(c, i)
        for key in expected:
            assert np.array_equal(shard[key], expected[key]), (i, key)


def test_bit_identical_across_workers_and_backends():
    c = config()
    reference = run(c, workers=1, backend="threads")
    assert reference.complete and reference.deals_done == c.deals
    for workers, backend in ((2, "threads"), (2, "processes"), (1, "processes")):
        other = run(c, workers=workers, backend=backend)
        assert other.counters.keys() == reference.counters.keys()
        for key in reference.counters:
            assert np.array_equal(other.counters[key], reference.counters[key]), (workers, backend, key)


def test_merge_equals_sum_of_shards_and_seed_matters():
    c = config(deals=90_000, shard_size=30_000)
    merged = run(c).counters
    parts = [run_shard(c, i) for i in range(3)]
    for key in merged:
        assert np.array_equal(merged[key], sum(p[key] for p in parts))
    other = run(config(deals=90_000, shard_size=30_000, seed=6)).counters
    assert not np.array_equal(other["total_hist"], merged["total_hist"])


def test_a_counter_only_some_shards_have_is_dropped():
    # A run stored by an older kernel, resumed by one that counts more: a sum over only the newer
    # shards would be taken for the whole run's, so the merge keeps only what every shard counted.
    old = {"deals": np.array([3]), "actions": np.array([30])}
    new = {"deals": np.array([2]), "actions": np.array([25]), "actions_sumsq": np.array([400])}
    for first, second in ((old, new), (new, old)):
        merged = merge_counters(merge_counters(None, first), second)
        assert set(merged) == {"deals", "actions"} and merged["actions"][0] == 55 and merged["deals"][0] == 5
    assert merge_counters(merge_counters(None, new), new)["actions_sumsq"][0] == 800


def test_subset_of_shards_and_partial_result():
    c = config(deals=100_000, shard_size=25_000)
    partial = run(c, shards=[0, 2])
    assert not partial.complete and partial.deals_done == 50_000 == partial.counters["deals"][0]
    assert not run(c, shards=[0, 1, 2]).complete                 # one shard short


def _start_until_stored(cmd: list[str], store: Path, table: str) -> subprocess.Popen:
    """Start a kozyr command and return once its store has a row in `table` (or it ended)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(store, timeout=1) as db:
                if db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] > 0:
                    break
        except sqlite3.Error:
            pass
        time.sleep(0.2)
    return proc


def test_ctrl_c_stops_cleanly_and_reports_completed_deals(tmp_path):
    store = tmp_path / "store.sqlite"
    cmd = [sys.executable, "-m", "analyzer", "piquet", "odds", "--deals", "2e9", "--workers", "2",
           "--no-exact", "--json", "--shard-size", "200000", "--store", str(store)]
    # Interrupt once a shard is committed to the store (the run is under way), not during the
    # imports, however slow the machine is.
    proc = _start_until_stored(cmd, store, "shards")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted" in err
    data = json.loads(out)
    done = data["run"]["deals_done"]
    assert 0 < done < 2_000_000_000 and done % 200_000 == 0
    assert data["run"]["complete"] is False
    assert sum(row["n"] for row in data["table"] if row["event"] == "repik" and row["player"] == "either") == done


@pytest.mark.parametrize("delay", [0.3, 0.7, 1.1])
def test_ctrl_c_while_the_command_starts_exits_130_without_a_traceback(tmp_path, delay):
    # numpy, pandas and the kernels take a second or two to load; one interrupt among them ends
    # with status 130 and one line (on a fast machine it may come in the run that follows: then a
    # line says the run is stopping, and the last what it kept).
    cmd = [sys.executable, "-m", "analyzer", "klabor", "deals", "--deals", "3e7", "--no-store"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    lines = err.splitlines()
    assert lines[-1].startswith("kozyr: interrupted") and all(line.startswith("kozyr: ") for line in lines), err


# What loading modules did to a Ctrl-C: numpy.random's initialisation swallowed it (the command
# then ran to its end with status 0), scipy's turned it into an ImportError,
SWALLOWED = """
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except KeyboardInterrupt:
    pass
"""
MADE_AN_IMPORT_ERROR = """
def main():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt as interrupt:
        raise ImportError("initialization failed") from interrupt
cli.main = main
"""
# and importlib's module locks met it in a weak reference's callback, where it cannot be raised
UNRAISABLE = """
import weakref
class Lock: pass
def callback(ref):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
lock = Lock()
ref = weakref.ref(lock, callback)
del lock
"""


@pytest.mark.parametrize("what_loading_did", [SWALLOWED, MADE_AN_IMPORT_ERROR, UNRAISABLE],
                         ids=["swallowed", "import_error", "unraisable"])
def test_a_ctrl_c_lost_or_changed_while_modules_load_still_ends_the_command(tmp_path, what_loading_did):
    script = ("import os, signal, sys, time\n"
              "from analyzer.interrupts import note_interrupts\n"
              "note_interrupts()\n"
              "from analyzer import cli\n"
              + what_loading_did +
              "sys.argv = ['kozyr', 'klabor', 'deals', '--deals', '1e6', '--no-store']\n"
              "cli.entry()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == "kozyr: interrupted\n" and proc.stdout == ""


def test_a_ctrl_c_starts_no_new_shard_and_says_so(capsys):
    # One worker, shards of about half a second, a Ctrl-C as the first one is kept: shard 1 is
    # then under way and shards 2 and 3 wait in the pool's queue (4 a worker are submitted).
    # Only shard 1 may finish after it; the queued ones must not start.
    def interrupt_after_the_first(index, counters, seconds):
        if index == 0:
            os.kill(os.getpid(), signal.SIGINT)

    result = run(config(deals=100_000_000, shard_size=5_000_000), workers=1, progress=False,
                 on_shard=interrupt_after_the_first)
    assert result.shards_done == (0, 1)
    assert "kozyr: stopping: no new shard starts; 1 under way will finish" in capsys.readouterr().err


def test_a_run_after_a_swallowed_ctrl_c_starts_no_shard(monkeypatch):
    # An interrupt noted before the run (analyzer.interrupts) is a stop request: the run returns
    # at once, incomplete, like one stopped before its first shard.
    from analyzer import interrupts

    monkeypatch.setattr(interrupts, "_received", True)
    result = run(config(), workers=2, progress=False)
    assert not result.complete and result.deals_done == 0 and result.shards_done == ()


def _child_pids(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(c) for c in (task / "children").read_text().split()]
    return children


def _gone(pid: int) -> bool:
    try:
        return "\tZ" in Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0]
    except (FileNotFoundError, IndexError):
        return True


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("backend", ["threads", "processes"])
def test_a_second_ctrl_c_stops_at_once_dropping_the_shards_under_way(tmp_path, backend):
    # The first Ctrl-C lets the shards under way finish; the second must not wait for them (a
    # shard here takes minutes): the command exits at once with status 130, no worker process
    # is left running, and the run stays in the store, interrupted, to be resumed.
    store = tmp_path / "store.sqlite"
    cmd = [sys.executable, "-m", "analyzer", "piquet", "odds", "--deals", "4e9", "--shard-size", "2e9",
           "--workers", "2", "--backend", backend, "--no-exact", "--json", "--store", str(store)]
    proc = _start_until_stored(cmd, store, "runs")     # the run is stored: its shards start
    time.sleep(2)
    workers = _child_pids(proc.pid)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)      # a shard alone would take minutes
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "stopped at once: the shards under way were dropped" in err
    assert json.loads(out)["run"]["deals_done"] == 0
    assert len(workers) == (2 if backend == "processes" else 0)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(_gone(pid) for pid in workers):
        time.sleep(0.2)
    assert all(_gone(pid) for pid in workers)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("interrupted",)]
        assert db.execute("SELECT COUNT(*) FROM shards").fetchone()[0] == 0


def test_progress_lines_without_a_terminal(monkeypatch, capsys):
    # A run whose stderr is not a terminal (a batch job's log) prints a line of progress every
    # LOG_EVERY seconds instead of the bar; none when progress is turned off.
    import analyzer.runner as runner
    assert runner.progress_line(12_500, 1_000_000, 600) == \
        "12,500 of 1,000,000 deals (1.25 %) in 0:10:00, about 13:10:00 to go"
    assert runner.progress_line(10, 10, 3723) == "10 of 10 deals (100.00 %) in 1:02:03"
    monkeypatch.setattr(runner, "LOG_EVERY", 0.0)
    config = RunConfig("piquet", "declarations", "ru_seed", deals=3_000, seed=2, shard_size=1_000)
    run(config, workers=1)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" deals")[0] for line in lines] == [
        "kozyr: piquet declarations: 1,000 of 3,000", "kozyr: piquet declarations: 2,000 of 3,000",
        "kozyr: piquet declarations: 3,000 of 3,000"]
    run(config, workers=1, progress=False)
    assert capsys.readouterr().err == ""
