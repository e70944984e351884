"""Kozyr: a Monte Carlo strategy analyzer for traditional card games."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kozyr")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
