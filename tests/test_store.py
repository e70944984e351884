"""The results store: runs kept shard by shard, read back without simulating, resumed after Ctrl-C
or kill -9 to the result of an uninterrupted run, extended with new shards of the same seed."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd
import pytest

import analyzer.runner as runner
from analyzer.cli import main
from analyzer.runner import RunConfig, run
from analyzer.store import Store, complete_run, config_keys, default_store_path, run_stored


def config(**kw):
    base = dict(game="piquet", analysis="declarations", rules="ru_seed", deals=250_000, seed=5, shard_size=40_000)
    return RunConfig(**{**base, **kw})


def assert_same_counters(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "runs.sqlite") as s:
        yield s


@pytest.fixture
def no_simulation(monkeypatch):
    """Any shard played from here on fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a shard was simulated")
    monkeypatch.setattr(runner, "_run_shard_timed", refuse)


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.setenv("KOZYR_STORE", str(tmp_path / "x.sqlite"))
    assert default_store_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("KOZYR_STORE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_store_path() == tmp_path / "data" / "kozyr" / "store.sqlite"


def test_a_store_that_is_not_a_database_is_refused(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("this is not a database" * 100)
    with pytest.raises(ValueError, match="cannot open the results store"):
        Store(bad)
    with pytest.raises(ValueError, match="is a directory"):
        Store(tmp_path)


def test_run_is_stored_with_config_version_status_and_counters(store):
    c = config()
    result = run_stored(c, store, workers=2)
    assert result.complete and result.extra["simulated_deals"] == c.deals
    assert_same_counters(result.counters, run(c).counters)
    stored = store.get(result.extra["run_id"])
    assert stored.status == "complete" and stored.deals_done == c.deals
    assert stored.shards_done == tuple(range(c.n_shards))
    assert stored.config == json.loads(json.dumps(c.resolved(), default=list))
    assert stored.config["version"] and stored.config["seed"] == 5
    assert_same_counters(stored.counters, result.counters)


def test_a_run_not_stored_has_to_simulate(store, no_simulation):
    c = config(deals=80_000)
    with pytest.raises(AssertionError, match="simulated"):
        run_stored(c, store)          # nothing stored yet: it has to simulate, and may not


def test_second_request_reads_the_store(store, monkeypatch):
    c = config(deals=80_000)
    first = run_stored(c, store)
    monkeypatch.setattr(runner, "_run_shard_timed", lambda *a: pytest.fail("simulated a stored run"))
    again = run_stored(config(deals=80_000), store, workers=2, backend="processes")
    assert again.extra["run_id"] == first.extra["run_id"] and again.extra["simulated_deals"] == 0
    assert_same_counters(again.counters, first.counters)
    # Another seed or another option is another run.
    assert config_keys(config(deals=80_000, seed=6))[0] != config_keys(c)[0]
    assert config_keys(config(deals=80_000, overrides={"repik_bonus": 90}))[0] != config_keys(c)[0]
    # and so is another strategy (each pair of a comparison is its own run)
    deal = dict(game="piquet", analysis="deal", rules="ru_seed", deals=80_000, seed=5)
    assert config_keys(RunConfig(**deal, strategies={"elder_play": "random"})) != config_keys(RunConfig(**deal))


def test_interrupted_run_resumes_to_the_uninterrupted_result(store):
    c = config()
    run_id = store.open_run(c)
    partial = run(c, shards=[0, 3, 6],
                  on_shard=lambda i, counters, secs: store.add_shard(run_id, i, c.shard_deals(i), counters, secs))
    assert not partial.complete
    stored = store.get(run_id)
    assert stored.shards_done == (0, 3, 6) and stored.deals_done == 2 * 40_000 + 10_000
    assert stored.status != "complete"
    assert_same_counters(stored.counters, partial.counters)
    assert store.missing_shards(run_id) == [1, 2, 4, 5]
    resumed = complete_run(store, run_id, workers=2)
    assert resumed.complete and resumed.extra["simulated_deals"] == 4 * 40_000
    assert_same_counters(resumed.counters, run(c).counters)
    assert store.get(run_id).status == "complete"


def test_a_shard_stored_twice_counts_once(store):
    c = config(deals=80_000)
    run_id = store.open_run(c)
    counters = runner.run_shard(c, 0)
    store.add_shard(run_id, 0, c.shard_deals(0), counters, 0.1)
    store.add_shard(run_id, 0, c.shard_deals(0), counters, 0.1)  # e.g. two processes resuming at once
    assert store.get(run_id).deals_done == 40_000
    assert_same_counters(store.get(run_id).counters, counters)


def test_a_runs_seconds_add_up_over_its_shards(store):
    c = config(deals=80_000)
    run_id = store.open_run(c)
    for i, seconds in ((0, 0.25), (1, 0.5)):
        store.add_shard(run_id, i, c.shard_deals(i), runner.run_shard(c, i), seconds)
    assert store.get(run_id).seconds == 0.75


def test_a_run_stopped_before_it_ends_is_left_interrupted(store, monkeypatch):
    # A Ctrl-C noted before the run stops it before its first shard. Left "running", the run of
    # this live process could be neither extended nor deleted.
    from analyzer import interrupts

    run_id = store.open_run(config(deals=80_000))
    monkeypatch.setattr(interrupts, "_received", True)
    assert not complete_run(store, run_id).complete
    assert store.get(run_id).status == "interrupted"
    store.extend(run_id, 10_000)


def test_extend_equals_a_longer_uninterrupted_run(store):
    c = config()                      # 6 shards of 40,000 and a short last shard of 10,000
    run_id = run_stored(c, store).extra["run_id"]
    grown = store.extend(run_id, 100_000)
    assert grown.deals == 350_000 and store.missing_shards(run_id) == [6, 7, 8]
    assert store.find(config(deals=350_000)) == run_id and store.find(c) is None
    result = complete_run(store, run_id, workers=2)
    assert result.extra["run_id"] == run_id and result.deals_done == 350_000
    assert_same_counters(result.counters, run(config(deals=350_000)).counters)
    # The intervals narrow with the deals.
    from analyzer.games.piquet import odds_table
    before = odds_table(run(c).counters, c.rule_options, with_exact=False)
    after = odds_table(result.counters, c.rule_options, with_exact=False)
    assert ((after.ci_high - after.ci_low) <= (before.ci_high - before.ci_low) + 1e-12).all()
    with pytest.raises(ValueError, match="positive"):
        store.extend(run_id, 0)
    with pytest.raises(ValueError, match="a run keeps its shard size"):
        store.extend(run_id, runner.MAX_SHARDS * 40_000)


def test_overrides_written_differently_are_one_run(store):
    # 1e4, 10000 and 10_000 are one value: one stored run, whose config keeps the value.
    ways = [RunConfig("russian_bank", "solo", "default", 20, 3, overrides={"node_budget": v, "redeal_limit": k},
                      shard_size=10) for v, k in (("1e4", "unlimited"), (10_000, None), ("10_000", "inf"))]
    assert len({config_keys(c) for c in ways}) == 1
    assert ways[0].resolved()["overrides"] == {"node_budget": 10_000, "redeal_limit": None}
    first = run_stored(ways[0], store)
    assert [run_stored(c, store).extra["run_id"] for c in ways[1:]] == [first.extra["run_id"]] * 2
    assert len(store.runs()) == 1


def test_a_run_being_run_is_neither_extended_nor_deleted(store):
    # Another process running the run (here: this one, alive) would store its last shard at the
    # old length after an extend, and the run could then never be completed.
    c = config(deals=90_000)
    run_id = store.open_run(c)
    store.set_status(run_id, "running")
    for change in (lambda: store.extend(run_id, 10_000), lambda: store.delete(run_id)):
        with pytest.raises(ValueError, match=f"being run by process {os.getpid()}"):
            change()
    store.set_status(run_id, "interrupted")
    store.extend(run_id, 10_000)
    # A shard played at the old length (the short last one) is refused once the run has grown.
    with pytest.raises(ValueError, match="extended to 100,000 deals by another process"):
        store.add_shard(run_id, 2, 10_000, runner.run_shard(c, 2), 0.1)
    assert store.get(run_id).deals_done == 0 and store.missing_shards(run_id) == [0, 1, 2]
    store.delete(run_id)
    with pytest.raises(ValueError, match="deleted"):
        store.add_shard(run_id, 0, 40_000, runner.run_shard(c, 0), 0.1)


def test_new_run_reuses_the_shards_of_a_stored_run_of_another_length(store, monkeypatch):
    run_stored(config(deals=200_000), store)
    monkeypatch.setattr(runner, "_run_shard_timed", lambda *a: pytest.fail("simulated a stored shard"))
    shorter = run_stored(config(deals=120_000), store)       # shards 0..2 of the same seed stream
    assert shorter.complete and shorter.extra["simulated_deals"] == 0
    monkeypatch.undo()
    assert_same_counters(shorter.counters, run(config(deals=120_000)).counters)
    ragged = run_stored(config(deals=130_000), store)        # its last shard (10,000 deals) is new
    assert ragged.extra["simulated_deals"] == 10_000
    assert_same_counters(ragged.counters, run(config(deals=130_000)).counters)


def _stored_shards(path, run_id):
    if not path.exists():
        return 0
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM shards WHERE run_id = ?", (run_id,)).fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not written yet
        return 0
    finally:
        db.close()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=["kill-9", "ctrl-c", "sigterm"])
def test_killed_cli_run_keeps_its_shards_and_resumes_bit_identically(tmp_path, sig):
    path = tmp_path / "runs.sqlite"
    deals, shard = 6_000_000, 100_000
    cmd = [sys.executable, "-m", "analyzer", "piquet", "odds", "--deals", str(deals), "--shard-size", str(shard),
           "--seed", "11", "--workers", "1", "--no-exact", "--json", "--store", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:    # wait until a few shards are committed, then stop it mid-run
        if _stored_shards(path, 1) >= 3:
            break
        time.sleep(0.02)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    expected_code = -signal.SIGKILL if sig == signal.SIGKILL else 130
    assert proc.returncode == expected_code, err
    with Store(path) as store:
        stored = store.get(1)
        assert stored.status == "interrupted"
        assert 3 <= len(stored.shards_done) < deals // shard, "the run was not stopped mid-run"
        assert stored.deals_done == len(stored.shards_done) * shard
    if sig != signal.SIGKILL:   # a graceful stop: the shards in flight finish, the table is printed
        assert json.loads(out)["run"]["deals_done"] <= stored.deals_done
        assert "kozyr run resume 1" in err
    code = main(["run", "resume", "1", "--store", str(path), "--workers", "2"])
    assert code == 0
    with Store(path) as store:
        resumed = store.get(1)
    assert resumed.status == "complete" and resumed.deals_done == deals
    reference = run(RunConfig("piquet", "declarations", "ru_seed", deals=deals, seed=11, shard_size=shard), workers=2)
    assert_same_counters(resumed.counters, reference.counters)


def test_runs_commands(tmp_path, capsys):
    path = str(tmp_path / "runs.sqlite")
    assert main(["runs", "list", "--store", path]) == 0
    assert "no results store" in capsys.readouterr().out
    assert main(["runs", "list", "--store", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["piquet", "odds", "--deals", "50000", "--seed", "3", "--no-exact", "--json", "--store", path,
                 "--shard-size", "20000"]) == 0
    first = json.loads(capsys.readouterr().out)
    run_id = first["run"]["run_id"]
    assert main(["runs", "list", "--store", path, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"], r["deals_done"]) for r in listed] == [(run_id, "complete", 50_000)]
    assert main(["runs", "show", str(run_id), "--store", path]) == 0
    text = capsys.readouterr().out
    assert "complete" in text and "50,000" in text and "total_hist" in text
    assert main(["runs", "show", str(run_id), "--store", path, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["run"]["seed"] == 3 and shown["config"]["rule_options"]["repik_threshold"] == 30
    assert shown["counters"]["deals"] == [50_000]

    csv, parquet = tmp_path / "run.csv", tmp_path / "run.parquet"
    assert main(["runs", "export", str(run_id), "--store", path, "--csv", str(csv), "--parquet", str(parquet)]) == 0
    capsys.readouterr()
    from_csv, from_parquet = pd.read_csv(csv, dtype={"index": str}), pd.read_parquet(parquet)
    assert list(from_csv.columns) == ["run_id", "counter", "index", "value"]
    assert from_csv.equals(from_parquet)
    assert int(from_csv[from_csv.counter == "deals"].value.iloc[0]) == 50_000
    hist = np.array(shown["counters"]["total_hist"])
    exported = from_csv[from_csv.counter == "total_hist"]
    assert exported.value.sum() == hist.sum() == 2 * 50_000
    # --csv - writes the same CSV to standard output (the confirmation to standard error)
    assert main(["runs", "export", str(run_id), "--store", path, "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert out == csv.read_text() and "wrote standard output" in err and not os.path.exists("-")

    # Asking again prints the same table from the store; extend adds deals to the same run.
    assert main(["piquet", "odds", "--deals", "50000", "--seed", "3", "--no-exact", "--json", "--store", path,
                 "--shard-size", "20000"]) == 0
    assert json.loads(capsys.readouterr().out)["table"] == first["table"]
    assert main(["run", "extend", str(run_id), "--deals", "30000", "--store", path, "--json", "--workers", "2"]) == 0
    extended = json.loads(capsys.readouterr().out)
    assert extended["run"]["deals_done"] == 80_000 and extended["run"]["status"] == "complete"
    reference = run(RunConfig("piquet", "declarations", "ru_seed", deals=80_000, seed=3, shard_size=20_000))
    assert np.array_equal(np.array(extended["counters"]["total_hist"]), reference.counters["total_hist"])
    assert main(["runs", "compact", "--store", path]) == 0
    assert "bytes before" in capsys.readouterr().out
    assert main(["runs", "delete", str(run_id), "--store", path]) == 0
    capsys.readouterr()
    assert main(["runs", "show", str(run_id), "--store", path]) == 2
    assert f"no run {run_id}" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["runs", "show", "99"], "no run 99"),
    (["run", "resume", "99"], "no run 99"),
    (["run", "extend", "99", "--deals", "10"], "no run 99"),
    (["runs", "export", "99"], "--csv FILE and/or --parquet FILE"),
])
def test_store_command_errors_are_one_line(tmp_path, capsys, args, message):
    Store(tmp_path / "s.sqlite").close()
    assert main([*args, "--store", str(tmp_path / "s.sqlite")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.parametrize("args", [["runs", "show", "1"], ["runs", "export", "1", "--csv", "x.csv"],
                                  ["runs", "delete", "1"], ["runs", "compact"], ["run", "resume", "1"],
                                  ["run", "extend", "1", "--deals", "10"]])
def test_commands_about_stored_runs_make_no_store_where_there_is_none(tmp_path, capsys, args):
    # A mistyped --store is an error, not a new empty store (runs list says there is none).
    path = tmp_path / "typo" / "s.sqlite"
    assert main([*args, "--store", str(path)]) == 2
    assert f"no results store at {path}" in capsys.readouterr().err
    assert main(["runs", "list", "--store", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"no results store at {path}"
    assert not path.exists() and not path.parent.exists()


def test_bad_run_id_is_a_usage_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "analyzer", "runs", "show", "x", "--store", str(tmp_path / "s.sqlite")],
                          capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "a run id must be an integer" in proc.stderr


def test_runs_made_by_another_version_are_not_mixed(store):
    c = config(deals=80_000)
    run_id = run_stored(c, store).extra["run_id"]
    store._db.execute("UPDATE runs SET config = json_set(config, '$.version', '0.0.1') WHERE id = ?", (run_id,))
    with pytest.raises(ValueError, match="made by kozyr 0.0.1"):
        store.extend(run_id, 1000)
    assert store.get(run_id).summary()["version"] == "0.0.1"   # still readable


def test_a_run_stored_before_an_option_existed_is_shown_with_its_default(tmp_path, capsys):
    # The headline run of reports/ was stored by 0.4.0, before the `relaxation` and
    # `free_cycling` options: its summary tables take those options' defaults.
    path = str(tmp_path / "runs.sqlite")
    assert main(["rb", "solo", "--deals", "4", "--set", "node_budget=1000", "--store", path]) == 0
    capsys.readouterr()
    with Store(path) as s:
        s._db.execute("UPDATE runs SET config = json_remove(config, '$.rule_options.relaxation', "
                      "'$.rule_options.free_cycling') WHERE id = 1")
        assert "relaxation" not in s.get(1).config["rule_options"]
    assert main(["runs", "show", "1", "--store", path]) == 0
    assert "escalation ladder" in capsys.readouterr().out
    assert main(["run", "resume", "1", "--store", path]) == 0


def test_an_older_run_is_resumed_only_where_the_kernel_declares_the_same_counters(store, monkeypatch):
    # Russian Bank's solo kernel changed in 0.5.0 and 0.6.0 for the literal model only, in 0.7.0
    # for its finite redeal limits only, in 0.8.15 for the open-pool search (which the
    # relaxation of the literal model uses too) and in 0.9.0 for finite redeal limits with free
    # cycling (pass classes): a SOLO(∞, none) run in the open pool and a SOLO(∞, strict) one only
    # if made by 0.8.15, a SOLO(1, none) one only by 0.9.0; without the relaxation a SOLO(∞,
    # strict) one from 0.6.0 on, a SOLO(1, none) one from 0.9.0, or from 0.7.0 without free
    # cycling; a run of 0.3.0 never, nor one of a version newer than this one.
    import analyzer.store as store_module
    monkeypatch.setattr(store_module, "__version__", "0.9.1")
    rb = dict(game="russian_bank", analysis="solo", rules="default", deals=4, seed=1, shard_size=2)
    open_pool = store.open_run(RunConfig(**rb, overrides=dict(foundation_priority="none", node_budget=100)))
    literal = store.open_run(RunConfig(**rb, overrides=dict(foundation_priority="strict", node_budget=100)))
    finite = store.open_run(RunConfig(**rb, overrides=dict(foundation_priority="none", redeal_limit=1,
                                                           node_budget=100)))
    plain = dict(node_budget=100, relaxation=False)
    literal_plain = store.open_run(RunConfig(**rb, overrides=dict(plain, foundation_priority="strict")))
    finite_plain = store.open_run(RunConfig(**rb, overrides=dict(plain, foundation_priority="none", redeal_limit=1)))
    finite_rigid = store.open_run(RunConfig(**rb, overrides=dict(plain, foundation_priority="none", redeal_limit=1,
                                                                 free_cycling=False)))
    for run_id, made_by, allowed in ((open_pool, "0.8.14", False), (open_pool, "0.8.15", True),
                                     (open_pool, "0.3.0", False),
                                     (literal, "0.8.14", False), (literal, "0.8.15", True),
                                     (finite, "0.8.15", False), (finite, "0.9.0", True),
                                     (literal_plain, "0.5.0", False), (literal_plain, "0.6.0", True),
                                     (finite_plain, "0.8.15", False), (finite_plain, "0.9.0", True),
                                     (finite_rigid, "0.6.0", False), (finite_rigid, "0.7.0", True),
                                     (finite_plain, "0.9.2", False)):
        store._db.execute("UPDATE runs SET config = json_set(config, '$.version', ?) WHERE id = ?", (made_by, run_id))
        if allowed:
            assert store.config(run_id).analysis == "solo"
        else:
            with pytest.raises(ValueError, match=f"made by kozyr {made_by}"):
                store.config(run_id)


def test_counters_blobs_keep_every_array_exactly():
    from analyzer.store import COUNTERS_TAG, pack_counters, unpack_counters
    counters = {"outcome": np.array([3, 0, -1]), "hist": np.arange(12).reshape(3, 4).T, "none": np.zeros(0),
                "big": np.array([2**62 + 7, -(2**63)]), "scalar": np.int64(5)}
    blob = pack_counters(counters)
    assert blob.startswith(COUNTERS_TAG)
    back = unpack_counters(blob)
    assert list(back) == list(counters)
    for key, value in counters.items():
        assert back[key].dtype == np.int64 and back[key].shape == np.shape(value), key
        assert np.array_equal(back[key], value), key
    back["hist"][0, 0] = 99                               # a private, writable copy
    assert list(unpack_counters(blob, ("big",))) == ["big"]
    with pytest.raises(KeyError):
        unpack_counters(blob, ("missing",))


def test_compact_rewrites_older_blobs_with_the_same_numbers(store):
    import io

    from analyzer.store import COUNTERS_TAG, unpack_counters
    result = run_stored(config(deals=100_000, shard_size=20_000), store)
    run_id = result.extra["run_id"]

    def npz(blob):                                        # the format of kozyr 0.8.14 and before
        buf = io.BytesIO()
        np.savez_compressed(buf, **unpack_counters(blob))
        return buf.getvalue()
    db = store._db
    for table in ("runs", "shards"):
        for rowid, blob in db.execute(f"SELECT rowid, counters FROM {table}").fetchall():
            db.execute(f"UPDATE {table} SET counters = ? WHERE rowid = ?", (npz(blob), rowid))
    old_counters, old_values = store.get(run_id).counters, store.shard_values(run_id, "repik")
    assert_same_counters(old_counters, result.counters)   # older blobs are still read
    before, after = store.compact()
    assert after < before
    blobs = [b for t in ("runs", "shards") for (b,) in db.execute(f"SELECT counters FROM {t}")]
    assert len(blobs) == 6 and all(b.startswith(COUNTERS_TAG) for b in blobs)
    assert_same_counters(store.get(run_id).counters, old_counters)
    assert all(np.array_equal(a, b) for a, b in zip(store.shard_values(run_id, "repik"), old_values))
    assert store.compact()[1] == after                    # nothing left to rewrite
