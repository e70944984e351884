"""Runs a simulation: a frozen config cut into fixed-size shards, each seeded on its own, executed
on any ``concurrent.futures.Executor`` and merged as the shards complete.

Reproducibility rests on two facts: shard ``i`` always covers the same deals, whatever the number
of workers (the shard size is part of the config), and it draws its random numbers from
``PCG64(SeedSequence(seed, spawn_key=(i, stream)))`` — stream 0 deals the cards, streams 1.. feed
the strategies. The kernels return integer counters, so merging is exact in any order.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
from tqdm import tqdm

from . import __version__, constrained, interrupts
from .games import get_game

DEFAULT_SHARD_SIZE = 200_000
MAX_SHARDS = 10**7   # a run's shard list and its rows in the store stay small
BACKENDS = ("threads", "processes", "dask")


def _freeze(overrides: Mapping[str, Any] | None) -> tuple:
    items = []
    for key, value in sorted((overrides or {}).items()):
        items.append((key, tuple(value) if isinstance(value, list) else value))
    return tuple(items)


@dataclass(frozen=True)
class RunConfig:
    """What to simulate. Validated on construction; ``resolved()`` is what outputs carry."""

    game: str
    analysis: str
    rules: str
    deals: int
    seed: int
    overrides: tuple = ()
    shard_size: int = DEFAULT_SHARD_SIZE
    strategies: tuple = ()      # (role, strategy name) pairs; roles not given take their default
    constraint: tuple = ()      # (key, value) pairs of a constrained deal (analyzer/constrained.py)

    def __post_init__(self):
        if not isinstance(self.overrides, tuple):
            object.__setattr__(self, "overrides", _freeze(self.overrides))
        if not isinstance(self.strategies, tuple):
            object.__setattr__(self, "strategies", _freeze(self.strategies))
        if not isinstance(self.constraint, tuple):
            object.__setattr__(self, "constraint", _freeze(self.constraint))
        for name in ("deals", "seed", "shard_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ValueError(f"{name} must be an integer, got {value!r}")
        if self.deals <= 0:
            raise ValueError(f"the number of deals must be positive, got {self.deals}")
        if self.seed < 0:
            raise ValueError(f"the seed must be a non-negative integer, got {self.seed}")
        if self.shard_size <= 0:
            raise ValueError(f"the shard size must be positive, got {self.shard_size}")
        if self.n_shards > MAX_SHARDS:
            raise ValueError(f"{self.deals:,} deals make {self.n_shards:,} shards of {self.shard_size:,}, more than "
                             f"{MAX_SHARDS:,}: give a larger shard size")
        game = get_game(self.game)
        analysis = game.analysis(self.analysis)
        strategies = analysis.resolve_strategies(dict(self.strategies))
        rules = game.resolve_rules(self.rules, dict(self.overrides))     # options alone and together
        if analysis.check is not None:
            analysis.check(dict(rules), strategies)
        # the overrides by their validated values, so that 1e4, 10000 and 10_000 make one run
        object.__setattr__(self, "overrides", _freeze({key: rules[key] for key, _ in self.overrides}))
        if self.constraint:   # canonical, so that equal constraints are one run in the store
            canonical = constrained.resolve(analysis.deal_layout, dict(self.constraint),
                                            f"{self.game} {self.analysis}")
            object.__setattr__(self, "constraint", _freeze(canonical))

    @property
    def rule_options(self) -> dict[str, Any]:
        return get_game(self.game).resolve_rules(self.rules, dict(self.overrides))

    @property
    def strategy_names(self) -> dict[str, str]:
        return get_game(self.game).analysis(self.analysis).resolve_strategies(dict(self.strategies))

    @property
    def n_shards(self) -> int:
        return -(-self.deals // self.shard_size)

    def shard_deals(self, index: int) -> int:
        return min(self.shard_size, self.deals - index * self.shard_size)

    def resolved(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "analysis": self.analysis,
            "rules": self.rules,
            "overrides": dict(self.overrides),
            "rule_options": self.rule_options,
            "strategies": self.strategy_names,
            "deals": self.deals,
            "seed": self.seed,
            "shard_size": self.shard_size,
            "version": __version__,
            # only when given, so that the stored runs made before constraints keep their keys
            **({"constraint": dict(self.constraint)} if self.constraint else {}),
        }


def shard_bit_generators(seed: int, shard: int, streams: int) -> list[np.random.PCG64]:
    """The bit generators of one shard: stream 0 deals, the others feed the strategies."""
    return [np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shard, stream))) for stream in range(streams)]


def run_shard(config: RunConfig, index: int, n_deals: int | None = None) -> dict[str, np.ndarray]:
    """Play shard `index` of a run (a top-level function so that process pools can pickle it);
    `n_deals` = 0 gives the zeroed counters of the analysis."""
    analysis = get_game(config.game).analysis(config.analysis)
    bit_generators = shard_bit_generators(config.seed, index, analysis.streams)
    n = config.shard_deals(index) if n_deals is None else n_deals
    if config.constraint:
        return constrained.run_shard(analysis, bit_generators, n, config.rule_options,
                                     config.strategy_names if analysis.strategies else None, dict(config.constraint))
    if analysis.strategies:
        return analysis.kernel(bit_generators, n, config.rule_options, config.strategy_names)
    return analysis.kernel(bit_generators, n, config.rule_options)


def _run_shard_timed(config: RunConfig, index: int) -> tuple[dict[str, np.ndarray], float]:
    start = time.perf_counter()
    counters = run_shard(config, index)
    return counters, time.perf_counter() - start


def merge_counters(total: dict[str, np.ndarray] | None, part: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Add a shard's counters to the total. A counter that some shards lack (a kernel gained it
    after the others were stored) is dropped: its sum would cover only part of the deals."""
    if total is None:
        return {k: np.array(v, dtype=np.int64, copy=True) for k, v in part.items()}
    for k in set(total) - set(part):
        del total[k]
    for k in set(total) & set(part):
        total[k] += part[k]
    return total


@dataclass
class RunResult:
    config: RunConfig
    counters: dict[str, np.ndarray]
    shards_done: tuple[int, ...]
    elapsed: float
    workers: int = 1
    backend: str = "threads"
    extra: dict = field(default_factory=dict)

    @property
    def deals_done(self) -> int:
        return sum(self.config.shard_deals(i) for i in self.shards_done)

    @property
    def complete(self) -> bool:
        return len(self.shards_done) == self.config.n_shards

    def metadata(self) -> dict[str, Any]:
        return {
            **self.config.resolved(),
            "deals_done": self.deals_done,
            "complete": self.complete,
            "elapsed_seconds": round(self.elapsed, 3),
            "workers": self.workers,
            "backend": self.backend,
            **self.extra,
        }


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)   # Ctrl-C, and what batch schedulers send first


# Set when a second Ctrl-C left shards running that nobody will wait for (a kernel running
# without the GIL cannot be stopped): the command line then exits at once (cli.entry) instead
# of letting the interpreter wait for those threads on its way out.
_shards_abandoned = threading.Event()


def shards_abandoned() -> bool:
    return _shards_abandoned.is_set()


def _stop_now(executor: Executor) -> None:
    """Drop the work of an executor without waiting: queued shards are cancelled, the worker
    processes of a process pool are ended (threads cannot be; see _shards_abandoned)."""
    # No public way to end busy workers before Python 3.14's kill_workers(); they ignore SIGTERM
    # (_leave_stop_signals_to_parent), and shutdown forgets them.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()


def _leave_stop_signals_to_parent():
    # Worker processes leave Ctrl-C (and SIGTERM sent to the whole group) to the parent, which
    # lets the running shards finish and keeps them.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def make_executor(backend: str, workers: int) -> Executor:
    """threads (default; the kernels release the GIL), processes, or dask: the cluster whose
    scheduler address is in $KOZYR_SCHEDULER (the CLI's --scheduler sets it); `workers` does
    not apply to a cluster, whose size is its own."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if backend == "threads":
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kozyr-shard")
    if backend == "dask":
        from .cluster import DaskExecutor

        return DaskExecutor()
    return ProcessPoolExecutor(max_workers=workers, initializer=_leave_stop_signals_to_parent)


LOG_EVERY = 600.0   # seconds between progress lines when stderr is not a terminal


def progress_line(done: int, total: int, elapsed: float) -> str:
    """'12,500 of 1,000,000 deals (1.25 %) in 0:10:00, about 13:10:00 to go'."""
    def clock(seconds: float) -> str:
        seconds = int(round(seconds))
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    line = f"{done:,} of {total:,} deals ({100 * done / total:.2f} %) in {clock(elapsed)}"
    if 0 < done < total:
        line += f", about {clock(elapsed * (total - done) / done)} to go"
    return line


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run(config: RunConfig, workers: int = 1, backend: str = "threads", executor: Executor | None = None,
        progress: bool | None = None, shards: list[int] | None = None,
        on_shard: Callable[[int, dict[str, np.ndarray], float], None] | None = None) -> RunResult:
    """Run the shards of `config` (all, or the listed ones) and merge their counters.

    ``on_shard(index, counters, seconds)`` is called in the calling thread as each shard completes,
    before it is merged (the results store commits the shard there).
    Ctrl-C cancels the shards not yet started, waits for the running ones and returns what was
    completed (``result.complete`` is then False); nothing finished is thrown away. A second
    Ctrl-C returns at once with the shards finished by then, dropping the ones under way."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, got {workers!r}")
    todo = list(range(config.n_shards)) if shards is None else list(shards)
    own_executor = executor is None
    if own_executor:   # no more workers than shards: processes are started all at once
        executor = make_executor(backend, max(1, min(workers, len(todo))))
    # Shards in flight at once: enough to keep every worker busy, few enough that waiting and
    # stopping stay cheap (a cluster may have many more workers than this machine).
    window = 4 * workers if own_executor and backend != "dask" else 256
    # Without a terminal (a batch job, nohup, a log file) the bar is replaced by a plain line every
    # LOG_EVERY seconds, so that a run of hours tells its progress in its log.
    log_lines = progress is None and not sys.stderr.isatty()
    if progress is None:
        progress = sys.stderr.isatty()
    label, total = f"{config.game} {config.analysis}", sum(config.shard_deals(i) for i in todo)
    bar = tqdm(total=total, unit="deal", unit_scale=True, disable=not progress, delay=1.0, file=sys.stderr,
               desc=label)
    counters, done = None, []
    start = time.perf_counter()
    stop = threading.Event()
    previous_handlers = {}
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C or SIGTERM asks to stop: no new shards start, the running ones finish and are
        # kept. A second one stops at once: the shards under way are dropped.
        def request_stop(signum, frame):
            if stop.is_set():
                raise KeyboardInterrupt
            stop.set()
        previous_handlers = {sig: signal.signal(sig, request_stop) for sig in STOP_SIGNALS}
        if interrupts.received():   # a Ctrl-C before the run that a module's loading swallowed
            stop.set()
    queue = iter(todo)
    in_flight: dict = {}
    dropped = False          # a second Ctrl-C left shards under way

    next_log, deals_kept = start + LOG_EVERY, 0

    def keep(index, part, seconds):
        nonlocal counters, next_log, deals_kept
        if on_shard is not None:
            on_shard(index, part, seconds)
        counters = merge_counters(counters, part)
        done.append(index)
        bar.update(config.shard_deals(index))
        deals_kept += config.shard_deals(index)
        now = time.perf_counter()
        if log_lines and now >= next_log:
            next_log = now + LOG_EVERY
            print(f"kozyr: {label}: {progress_line(deals_kept, total, now - start)}", file=sys.stderr, flush=True)

    # This machine's pools queue the shards submitted beyond their workers; a stop withdraws
    # those (a process pool has already handed one more to its workers). A cluster's futures
    # cannot tell a queued shard from a running one: all of them finish and are kept.
    withdraw_queued = isinstance(executor, (ThreadPoolExecutor, ProcessPoolExecutor))
    stopping_told = False
    try:
        while True:
            while not stop.is_set() and len(in_flight) < window:
                index = next(queue, None)
                if index is None:
                    break
                in_flight[executor.submit(_run_shard_timed, config, index)] = index
            if stop.is_set() and withdraw_queued:
                for future in [future for future in in_flight if future.cancel()]:
                    del in_flight[future]
            if not in_flight:
                break
            if stop.is_set() and not stopping_told:
                stopping_told = True
                tqdm.write(f"kozyr: stopping: no new shard starts; {len(in_flight)} under way will finish and be kept "
                           "(Ctrl-C again stops at once, dropping them)", file=sys.stderr)
            finished, _ = wait(in_flight, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                keep(in_flight.pop(future), *future.result())
    except KeyboardInterrupt:  # a second Ctrl-C: keep what has finished, drop what is under way
        for future in in_flight:
            future.cancel()
        for future, index in in_flight.items():
            if future.cancelled():
                continue
            if not future.done():
                dropped = True
                _shards_abandoned.set()
            elif future.exception() is None:
                keep(index, *future.result())
    finally:
        for sig, handler in previous_handlers.items():
            signal.signal(sig, handler)
        bar.close()
        if own_executor:
            _stop_now(executor) if dropped else executor.shutdown(wait=True, cancel_futures=True)
    if counters is None:  # interrupted before any shard finished: zeroed counters of the right shape
        counters = run_shard(config, 0, n_deals=0)
    return RunResult(config, counters, tuple(sorted(done)), time.perf_counter() - start,
                     workers=workers, backend=backend if own_executor else type(executor).__name__)
