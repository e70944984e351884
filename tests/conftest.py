import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="run the full-size statistical checks")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: full-size statistical checks, run with --runslow")


@pytest.fixture
def runslow(request) -> bool:
    """True when the full-size statistical checks were asked for (tests scale their samples)."""
    return request.config.getoption("--runslow")


@pytest.fixture(autouse=True, scope="session")
def _private_results_store(tmp_path_factory):
    """Tests keep their runs in a store of their own (subprocesses inherit it), never the user's."""
    previous = os.environ.get("KOZYR_STORE")
    os.environ["KOZYR_STORE"] = str(tmp_path_factory.mktemp("store") / "store.sqlite")
    yield
    if previous is None:
        os.environ.pop("KOZYR_STORE", None)
    else:
        os.environ["KOZYR_STORE"] = previous
