"""Running shards on a Dask cluster.

``DaskExecutor(address)`` is a ``concurrent.futures.Executor`` backed by a ``distributed.Client``
connected to an existing scheduler (``tcp://HOST:PORT``). The runner submits each shard (``run_shard(config,
index)``, timed) to it exactly as to a thread or process pool, so a run's result does not depend on where
its shards ran: only the frozen config and the shard index travel to the workers, which need the
installed package and nothing else. A worker that dies loses only the shards it was running; the
scheduler runs them again elsewhere.

Dask is an optional extra: ``pip install ".[dask]"``.
"""
from __future__ import annotations

import os
from concurrent.futures import Executor

SCHEDULER_ENV = "KOZYR_SCHEDULER"
INSTALL_HINT = "the Dask backend needs dask.distributed: pip install \".[dask]\" (or pip install \"dask[distributed]\")"


def scheduler_address(address: str | None = None) -> str:
    address = address or os.environ.get(SCHEDULER_ENV)
    if not address:
        raise ValueError(f"the Dask backend needs a scheduler address: --scheduler tcp://HOST:PORT or ${SCHEDULER_ENV}")
    return address


class DaskExecutor(Executor):
    """An Executor that runs tasks on the Dask cluster at `address` (closed on shutdown)."""

    def __init__(self, address: str | None = None, timeout: float = 10):
        try:
            from distributed import Client
            from distributed.comm.addressing import parse_address, parse_host_port
        except ImportError:
            raise ValueError(INSTALL_HINT) from None
        address = scheduler_address(address)
        try:   # a malformed address, checked before a Client is half made (its cleanup would hang)
            scheme, location = parse_address(address)
            if scheme in ("tcp", "tls"):
                parse_host_port(location)
        except ValueError as exc:
            raise ValueError(f"the Dask scheduler address {address!r} is malformed ({exc}): write tcp://HOST:PORT") from None
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self._executor = self.client.get_executor(pure=False)

    def submit(self, fn, /, *args, **kwargs):
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False):
        try:
            self._executor.shutdown(wait=wait)
        finally:
            self.client.close()
