import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="run the full-size statistical checks")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: full-size statistical checks, run with --runslow")


@pytest.fixture
def runslow(request) -> bool:
    """True when the full-size statistical checks were asked for (tests scale their samples)."""
    return request.config.getoption("--runslow")
