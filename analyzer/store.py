"""The results store: every run Kozyr simulates is kept in one SQLite file, so that nothing is
computed twice or lost.

A run row holds the resolved config (JSON), root seed, package version, number of deals, status
and the merged counters; a shard row holds the counters of one finished shard. Each shard is
committed in its own transaction as it completes, together with the updated merged counters, so a
run interrupted by Ctrl-C or a killed process keeps every shard it finished, and resuming it runs
only the missing shards. Shard *i* covers the same deals whatever the run's length, so a resumed or
extended run is bit-identical to an uninterrupted run of the same config and seed, and a new run
copies the shards it shares with stored runs of the same config instead of playing them again.

Why SQLite (standard library) rather than DuckDB: a run is written one small transaction per shard
(a few kilobytes of counters) and read back whole, which is the transactional workload SQLite is
built for; its write-ahead log survives a killed process; several ``kozyr`` processes may use one
store at once (DuckDB lets only one process open a file for writing); and it adds no dependency.
Tables leave the store as CSV or Parquet (``kozyr runs export``, Parquet through pyarrow).

Where: ``--store PATH``, else ``$KOZYR_STORE``, else ``$XDG_DATA_HOME/kozyr/store.sqlite``
(``~/.local/share/kozyr/store.sqlite``).
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import socket
import sqlite3
import sys
import time
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import __version__
from .games import get_game
from .runner import MAX_SHARDS, RunConfig, RunResult, merge_counters, run

STATUSES = ("running", "interrupted", "complete")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    key         TEXT NOT NULL UNIQUE,   -- hash of the resolved config with its number of deals
    family      TEXT NOT NULL,          -- the same hash without the number of deals
    game        TEXT NOT NULL,
    analysis    TEXT NOT NULL,
    rules       TEXT NOT NULL,
    config      TEXT NOT NULL,          -- RunConfig.resolved() as JSON
    seed        INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    shard_size  INTEGER NOT NULL,
    version     TEXT NOT NULL,
    status      TEXT NOT NULL,          -- running | interrupted | complete
    deals_done  INTEGER NOT NULL DEFAULT 0,
    counters    BLOB,                   -- merged counters of the stored shards (pack_counters)
    seconds     REAL NOT NULL DEFAULT 0,-- simulation time summed over the stored shards
    pid         INTEGER,                -- the process that last ran it (to tell a killed run)
    host        TEXT,
    created     TEXT NOT NULL,
    updated     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_family ON runs(family);
CREATE TABLE IF NOT EXISTS shards (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    shard       INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    counters    BLOB NOT NULL,
    seconds     REAL NOT NULL,
    finished    TEXT NOT NULL,
    PRIMARY KEY (run_id, shard)
);
"""


def default_store_path() -> Path:
    if os.environ.get("KOZYR_STORE"):
        return Path(os.environ["KOZYR_STORE"]).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "kozyr" / "store.sqlite"


def store_path(path: str | os.PathLike | None = None) -> Path:
    """The store file of --store PATH, else the default (default_store_path)."""
    return Path(path).expanduser() if path else default_store_path()


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


# A counters blob: this tag, then one zlib stream of a JSON line [[name, shape], ...] and the
# int64 values (little-endian) of those arrays in that order. Counters are mostly zeros, and one
# stream packs them ten times smaller than an npz file, whose zip entries cost about a hundred
# bytes an array (a 4,000-shard run: 4.3 MB of shard blobs as npz, 0.4 MB so).
COUNTERS_TAG = b"KZC1"


def pack_counters(counters: dict[str, np.ndarray]) -> bytes:
    arrays = {k: np.asarray(v, dtype="<i8") for k, v in counters.items()}
    head = json.dumps([[k, list(a.shape)] for k, a in arrays.items()]).encode()
    return COUNTERS_TAG + zlib.compress(head + b"\n" + b"".join(a.tobytes() for a in arrays.values()))


def unpack_counters(blob: bytes, keys=None) -> dict[str, np.ndarray]:
    """The counters of a blob, or only those named in `keys`. Blobs written before 0.8.15 are npz
    files (kozyr runs compact rewrites them)."""
    if not blob.startswith(COUNTERS_TAG):
        with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
            return {k: npz[k] for k in (npz.files if keys is None else keys)}
    head, _, values = zlib.decompress(blob[len(COUNTERS_TAG):]).partition(b"\n")
    arrays, start = {}, 0
    for name, shape in json.loads(head):
        size = int(np.prod(shape, dtype=np.int64))
        arrays[name] = np.frombuffer(values, dtype="<i8", count=size, offset=8 * start).reshape(shape).astype(np.int64)
        start += size
    return arrays if keys is None else {k: arrays[k] for k in keys}


def _hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=list).encode()).hexdigest()


def config_keys(config: RunConfig) -> tuple[str, str]:
    """(key, family): what identifies a stored run, and the same without its number of deals."""
    family = {k: v for k, v in config.resolved().items() if k != "deals"}
    return _hash({**family, "deals": config.deals}), _hash(family)


def _version_tuple(text: str) -> tuple[int, ...] | None:
    parts = text.split(".")
    return tuple(int(p) for p in parts) if all(p.isascii() and p.isdigit() for p in parts) else None


def _same_results(config: RunConfig, made_by: str) -> bool:
    """Whether this version's kernel gives the counters kozyr `made_by` gave for `config`."""
    analysis = get_game(config.game).analysis(config.analysis)
    if analysis.results_since is None:
        return False
    since, made, now = (_version_tuple(v) for v in (analysis.results_since(config.rule_options), made_by,
                                                    __version__))
    return None not in (since, made, now) and since <= made <= now


def config_from_json(resolved: dict) -> RunConfig:
    # A strategy role the analysis no longer has is left out: it was one its kernel did not read
    # (mariáš's forced Stovka kept contract and doubling roles before 0.9.1).
    roles = get_game(resolved["game"]).analysis(resolved["analysis"]).strategies
    strategies = {role: name for role, name in (resolved.get("strategies") or {}).items() if role in roles}
    return RunConfig(game=resolved["game"], analysis=resolved["analysis"], rules=resolved["rules"],
                     overrides=resolved["overrides"], deals=resolved["deals"], seed=resolved["seed"],
                     shard_size=resolved["shard_size"], strategies=strategies,
                     constraint=resolved.get("constraint") or {})


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class StoredRun:
    """A run row as stored (no RunConfig: it reads even if the game's options changed since)."""

    id: int
    config: dict[str, Any]
    status: str
    deals_done: int
    shards_done: tuple[int, ...]
    seconds: float
    created: str
    updated: str
    counters: dict[str, np.ndarray] | None

    @property
    def n_shards(self) -> int:
        return -(-self.config["deals"] // self.config["shard_size"])

    def summary(self) -> dict[str, Any]:
        c = self.config
        return {"id": self.id, "game": c["game"], "analysis": c["analysis"], "rules": c["rules"],
                "overrides": c["overrides"], "strategies": c.get("strategies", {}), "deals": c["deals"], "deals_done": self.deals_done,
                "seed": c["seed"], "shard_size": c["shard_size"], "shards_done": len(self.shards_done),
                "shards": self.n_shards, "status": self.status, "version": c["version"],
                "seconds": round(self.seconds, 3), "created": self.created, "updated": self.updated}


class Store:
    """One SQLite file of runs and shards. Safe to share between processes."""

    def __init__(self, path: str | os.PathLike | None = None, must_exist: bool = False):
        """Open the store at `path` (default_store_path() if None), made if it does not exist,
        unless `must_exist` (commands that only read or change stored runs: a mistyped path is
        an error, not a new empty store)."""
        self.path = store_path(path)
        if self.path.exists() and self.path.is_dir():
            raise ValueError(f"the store {self.path} is a directory; give a file name such as {self.path / 'store.sqlite'}")
        if must_exist and not self.path.exists():
            raise ValueError(f"no results store at {self.path} (give the --store of the runs, or set $KOZYR_STORE)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise ValueError(f"cannot open the results store {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write(self):
        """A write transaction that takes the lock at once (no deadlock between two writers)."""
        db = self._db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")
                return db

            def __exit__(self_inner, exc_type, *rest):
                db.execute("ROLLBACK" if exc_type else "COMMIT")
        return _Tx()

    # --- finding and creating runs -------------------------------------------------------------

    def find(self, config: RunConfig) -> int | None:
        key, _ = config_keys(config)
        row = self._db.execute("SELECT id FROM runs WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def open_run(self, config: RunConfig) -> int:
        """The id of the stored run of `config`, created (with the shards it shares with stored
        runs of the same config and another length) if there is none."""
        key, family = config_keys(config)
        resolved = config.resolved()
        with self._write() as db:
            row = db.execute("SELECT id FROM runs WHERE key = ?", (key,)).fetchone()
            if row:
                return row[0]
            now = _now()
            run_id = db.execute(
                "INSERT INTO runs (key, family, game, analysis, rules, config, seed, deals, shard_size, version,"
                " status, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (key, family, config.game, config.analysis, config.rules, json.dumps(resolved, default=list),
                 config.seed, config.deals, config.shard_size, resolved["version"], "interrupted", now, now),
            ).lastrowid
            self._copy_family_shards(db, run_id, family, config)
            self._refresh(db, run_id)
        return run_id

    @staticmethod
    def _copy_family_shards(db, run_id: int, family: str, config: RunConfig) -> None:
        # Shard i of two runs of one family covers the same deals when it has the same length.
        db.execute(
            "INSERT OR IGNORE INTO shards (run_id, shard, deals, counters, seconds, finished)"
            " SELECT ?, s.shard, s.deals, s.counters, s.seconds, s.finished FROM shards s JOIN runs r ON r.id = s.run_id"
            " WHERE r.family = ? AND r.id != ? AND s.shard < ? AND s.deals = min(?, ? - s.shard * ?)",
            (run_id, family, run_id, config.n_shards, config.shard_size, config.deals, config.shard_size))

    def _refresh(self, db, run_id: int) -> None:
        """Recompute the merged counters, deals done and status of a run from its shard rows."""
        total, deals, seconds = None, 0, 0.0
        for blob, n, secs in db.execute("SELECT counters, deals, seconds FROM shards WHERE run_id = ? ORDER BY shard",
                                        (run_id,)):
            total = merge_counters(total, unpack_counters(blob))
            deals += n
            seconds += secs
        target, status = db.execute("SELECT deals, status FROM runs WHERE id = ?", (run_id,)).fetchone()
        if deals == target:
            status = "complete"
        elif status == "complete":
            status = "interrupted"
        db.execute("UPDATE runs SET counters = ?, deals_done = ?, seconds = ?, status = ?, updated = ? WHERE id = ?",
                   (pack_counters(total) if total is not None else None, deals, seconds, status, _now(), run_id))

    # --- writing shards ------------------------------------------------------------------------

    def add_shard(self, run_id: int, shard: int, deals: int, counters: dict[str, np.ndarray], seconds: float) -> None:
        """Commit one finished shard and fold it into the run's merged counters (one transaction).
        A shard of another length than the run's shard there now is refused: the run was extended
        by another process meanwhile, and the shard is played again at its new length."""
        with self._write() as db:
            row = db.execute("SELECT deals, shard_size FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                raise ValueError(f"run {run_id} was deleted from the store {self.path} while it ran")
            if deals != min(row[1], row[0] - shard * row[1]):
                raise ValueError(f"run {run_id} was extended to {row[0]:,} deals by another process while this one "
                                 f"ran it; shard {shard} was not stored (kozyr run resume {run_id} completes the run)")
            inserted = db.execute(
                "INSERT OR IGNORE INTO shards (run_id, shard, deals, counters, seconds, finished) VALUES (?,?,?,?,?,?)",
                (run_id, shard, deals, pack_counters(counters), seconds, _now())).rowcount
            if not inserted:  # another process stored this shard first: same seed, same counters
                return
            blob, target, done, total_seconds = db.execute(
                "SELECT counters, deals, deals_done, seconds FROM runs WHERE id = ?", (run_id,)).fetchone()
            merged = merge_counters(unpack_counters(blob) if blob else None, counters)
            done += deals
            db.execute("UPDATE runs SET counters = ?, deals_done = ?, seconds = ?, status = ?, updated = ? WHERE id = ?",
                       (pack_counters(merged), done, total_seconds + seconds,
                        "complete" if done == target else "running", _now(), run_id))

    def set_status(self, run_id: int, status: str) -> None:
        assert status in STATUSES
        with self._write() as db:
            db.execute("UPDATE runs SET status = ?, pid = ?, host = ?, updated = ? WHERE id = ? AND status != 'complete'",
                       (status, os.getpid(), socket.gethostname(), _now(), run_id))

    def extend(self, run_id: int, more_deals: int) -> RunConfig:
        """Grow a run by `more_deals`: new shards of the same seed stream. A last shard that was
        short is dropped and played again at its new length, so the result equals an
        uninterrupted run of the new length."""
        if isinstance(more_deals, bool) or not isinstance(more_deals, int) or more_deals <= 0:
            raise ValueError(f"the number of deals to add must be a positive integer, got {more_deals!r}")
        self._check_not_running(run_id, "extend")
        config = self.config(run_id)
        shards = -(-(config.deals + more_deals) // config.shard_size)
        if shards > MAX_SHARDS:
            raise ValueError(f"{config.deals + more_deals:,} deals would make {shards:,} shards of {config.shard_size:,}, "
                             f"more than {MAX_SHARDS:,}; a run keeps its shard size: start a new run with a larger "
                             f"--shard-size")
        grown = dataclasses.replace(config, deals=config.deals + more_deals)
        key, family = config_keys(grown)
        with self._write() as db:
            other = db.execute("SELECT id FROM runs WHERE key = ?", (key,)).fetchone()
            if other:
                raise ValueError(f"run {other[0]} already holds this config with {grown.deals:,} deals; "
                                 f"use it (kozyr runs show {other[0]})")
            db.execute("DELETE FROM shards WHERE run_id = ? AND deals != min(?, ? - shard * ?)",
                       (run_id, grown.shard_size, grown.deals, grown.shard_size))
            # the family too: a run stored before overrides were kept by their validated values
            db.execute("UPDATE runs SET key = ?, family = ?, deals = ?, config = ?, status = 'interrupted' WHERE id = ?",
                       (key, family, grown.deals, json.dumps(grown.resolved(), default=list), run_id))
            self._copy_family_shards(db, run_id, family, grown)
            self._refresh(db, run_id)
        return grown

    def compact(self) -> tuple[int, int]:
        """Rewrite every counters blob of an older format as pack_counters writes it now (the
        same numbers), then give the freed pages back to the file system. Returns the file's
        size in bytes before and after (each once the write-ahead log is folded into it)."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = self.path.stat().st_size
        with self._write() as db:
            for table, where in (("runs", "id = ?"), ("shards", "rowid = ?")):
                rows = db.execute(f"SELECT rowid, counters FROM {table} WHERE counters IS NOT NULL").fetchall()
                for rowid, blob in rows:
                    if not blob.startswith(COUNTERS_TAG):
                        db.execute(f"UPDATE {table} SET counters = ? WHERE {where}",
                                   (pack_counters(unpack_counters(blob)), rowid))
        self._db.execute("VACUUM")
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return before, self.path.stat().st_size

    def _check_not_running(self, run_id: int, what: str) -> None:
        """Refuse to change a run that a live process on this host is running."""
        stored = self.get(run_id, with_counters=False)
        if stored.status == "running":
            pid = self._db.execute("SELECT pid FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
            raise ValueError(f"run {run_id} is being run by process {pid}; stop it (Ctrl-C keeps its finished "
                             f"shards) or let it finish before you {what} it")

    def delete(self, run_id: int) -> None:
        self._check_not_running(run_id, "delete")
        with self._write() as db:
            db.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    # --- reading -------------------------------------------------------------------------------

    def get(self, run_id: int, with_counters: bool = True) -> StoredRun:
        row = self._db.execute(
            f"SELECT id, config, status, deals_done, seconds, created, updated, pid, host"
            f"{', counters' if with_counters else ''} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise ValueError(f"no run {run_id} in the store {self.path} (see kozyr runs list)")
        status = row[2]
        if status == "running" and (row[8] != socket.gethostname() or not _pid_alive(row[7])):
            status = "interrupted"  # the process that ran it is gone (killed)
        shards = tuple(s for (s,) in self._db.execute("SELECT shard FROM shards WHERE run_id = ? ORDER BY shard",
                                                      (run_id,)))
        counters = unpack_counters(row[9]) if with_counters and row[9] else None
        return StoredRun(row[0], json.loads(row[1]), status, row[3], shards, row[4], row[5], row[6], counters)

    def config(self, run_id: int) -> RunConfig:
        """The run's config, if this version may add shards to it: it made the run, or its
        analysis declares the same counters for these options since the run's version."""
        stored = self.get(run_id, with_counters=False)
        config = config_from_json(stored.config)
        made_by = stored.config["version"]
        if made_by != __version__ and not _same_results(config, made_by):
            raise ValueError(f"run {run_id} was made by kozyr {made_by}, this is {__version__}; "
                             "its shards cannot be mixed with new ones (start a new run)")
        return config

    def shard_values(self, run_id: int, key: str) -> tuple[np.ndarray, np.ndarray]:
        """The deals of each finished shard and its counters[key], stacked in shard order: batches
        of consecutive deals, whose spread gives an interval where a run kept no squares."""
        deals, values = [], []
        for blob, n in self._db.execute("SELECT counters, deals FROM shards WHERE run_id = ? ORDER BY shard",
                                        (run_id,)):
            deals.append(n)
            values.append(unpack_counters(blob, (key,))[key])
        return np.array(deals, dtype=np.int64), np.array(values, dtype=np.int64)

    def missing_shards(self, run_id: int) -> list[int]:
        stored = self.get(run_id, with_counters=False)
        return sorted(set(range(stored.n_shards)) - set(stored.shards_done))

    def result(self, run_id: int, **extra) -> RunResult:
        """The stored run as a RunResult (what reports and tables are made from)."""
        stored = self.get(run_id)
        config = config_from_json(stored.config)
        counters = stored.counters
        if counters is None:  # nothing finished yet: zeroed counters of the right shape
            counters = {k: np.zeros_like(v) for k, v in run(config, shards=[], progress=False).counters.items()}
        return RunResult(config, counters, stored.shards_done, stored.seconds,
                         extra={"run_id": run_id, "status": stored.status, **extra})

    def runs(self) -> list[StoredRun]:
        ids = [i for (i,) in self._db.execute("SELECT id FROM runs ORDER BY id")]
        return [self.get(i, with_counters=False) for i in ids]


def complete_run(store: Store, run_id: int, workers: int = 1, backend: str = "threads",
                 progress: bool | None = None) -> RunResult:
    """Play the shards a stored run lacks, committing each as it completes; return the stored run.
    Ctrl-C keeps the finished shards and returns an incomplete result."""
    config = store.config(run_id)
    todo = store.missing_shards(run_id)
    if not todo:
        return store.result(run_id, simulated_deals=0)
    store.set_status(run_id, "running")
    start = time.perf_counter()
    partial = None
    try:
        partial = run(config, workers=workers, backend=backend, progress=progress, shards=todo,
                      on_shard=lambda i, counters, secs: store.add_shard(run_id, i, config.shard_deals(i), counters, secs))
    finally:
        if partial is None or not partial.complete:
            store.set_status(run_id, "interrupted")
    result = store.result(run_id, simulated_deals=partial.deals_done)
    result.elapsed, result.workers, result.backend = time.perf_counter() - start, workers, backend
    return result


def run_stored(config: RunConfig, store: Store, workers: int = 1, backend: str = "threads",
               progress: bool | None = None) -> RunResult:
    """`run(config)` through the store: a stored run is returned without simulating; a partly
    stored one is completed; a new one is stored shard by shard."""
    return complete_run(store, store.open_run(config), workers=workers, backend=backend, progress=progress)


def runs_table(store: Store) -> pd.DataFrame:
    columns = ["id", "game", "analysis", "rules", "overrides", "deals_done", "deals", "seed", "status", "version",
               "seconds", "updated"]
    rows = [r.summary() for r in store.runs()]
    if not rows:
        return pd.DataFrame(columns=columns)
    df = pd.DataFrame(rows)
    df["overrides"] = df["overrides"].map(lambda o: json.dumps(o) if o else "")
    return df[columns]


def counters_frame(counters: dict[str, np.ndarray]) -> pd.DataFrame:
    """Counters in long form: one row per cell, with its counter name and index."""
    rows = []
    for name, array in counters.items():
        array = np.asarray(array)
        for index, value in np.ndenumerate(array):
            rows.append((name, ",".join(map(str, index)), int(value)))
    return pd.DataFrame(rows, columns=["counter", "index", "value"])


def export_run(store: Store, run_id: int, csv: Path | str | None = None, parquet: Path | None = None) -> list:
    """Write a run's merged counters (long form) with its config as CSV (csv="-": standard
    output) and/or Parquet."""
    stored = store.get(run_id)
    df = counters_frame(stored.counters or {})
    df.insert(0, "run_id", run_id)
    written = []
    if csv == "-":
        sys.stdout.write(df.to_csv(index=False))
        written.append("standard output")
    elif csv:
        Path(csv).write_text(df.to_csv(index=False), encoding="utf-8")
        written.append(Path(csv))
    if parquet:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        meta = {b"kozyr.run": json.dumps(stored.summary() | {"config": stored.config}, default=str).encode()}
        pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}), **meta}), parquet)
        written.append(Path(parquet))
    return written

