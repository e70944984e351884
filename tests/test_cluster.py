"""The Dask backend: the same result as the thread backend on a LocalCluster of two worker
processes, for every game; a worker killed mid-run costs only its shards."""
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from analyzer.cluster import SCHEDULER_ENV, DaskExecutor  # noqa: E402
from analyzer.games import game_names, get_game  # noqa: E402
from analyzer.runner import RunConfig, run  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        old = os.environ.get(SCHEDULER_ENV)
        os.environ[SCHEDULER_ENV] = c.scheduler_address
        yield c
        if old is None:
            os.environ.pop(SCHEDULER_ENV, None)
        else:
            os.environ[SCHEDULER_ENV] = old


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


# A cheap analysis of each game (the first one, unless it is a long search)
CHEAP = {"russian_bank": "duel"}


@pytest.mark.parametrize("game", game_names())
def test_every_game_gives_the_same_result_on_the_cluster(cluster, game):
    analysis = CHEAP.get(game, next(iter(get_game(game).analyses)))
    config = RunConfig(game, analysis, next(iter(get_game(game).presets)), deals=120, seed=9, shard_size=40)
    on_cluster = run(config, backend="dask")
    assert on_cluster.complete and on_cluster.backend == "dask"
    assert_same(on_cluster.counters, run(config, workers=2, backend="threads").counters)


def test_a_killed_worker_loses_only_its_shard(cluster):
    config = RunConfig("piquet", "deal", "ru_seed", deals=300, seed=4, shard_size=10,
                       strategies={"elder_play": "double_dummy", "younger_play": "double_dummy"})
    reference = run(config, workers=2)
    with DaskExecutor(cluster.scheduler_address) as probe:
        pids = list(probe.client.run(os.getpid).values())
    killer = threading.Timer(1.0, lambda: os.kill(pids[0], signal.SIGKILL))
    killer.start()
    try:
        result = run(config, backend="dask")
    finally:
        killer.cancel()
    assert result.complete
    assert_same(result.counters, reference.counters)


def test_missing_dask_is_explained(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ValueError, match=r'pip install "\.\[dask\]"'):
        DaskExecutor("tcp://127.0.0.1:1")


def test_no_scheduler_is_explained(monkeypatch):
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    with pytest.raises(ValueError, match="scheduler address"):
        run(RunConfig("piquet", "declarations", "ru_seed", deals=10, seed=1), backend="dask")
