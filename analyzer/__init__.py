"""Kozyr: a Monte Carlo strategy analyzer for traditional card games."""
from ._version import __version__

__all__ = ["__version__"]
