"""Strategies written by users in Python.

A run names a Python strategy as ``"python:PATH"`` (or just PATH when it is an import path
with a colon), where PATH is either an import path
``package.module:ClassName`` (the class is instantiated with no arguments once per shard, so it
works with threads, processes and clusters) or a name given to :func:`register` for an object or
factory made in the running program (threads only, since it lives in this process).

What a strategy must provide depends on the game and the decision; each game documents its
protocol (e.g. ``analyzer.games.piquet.PiquetPlayer``) and builds the views it passes.
"""
from __future__ import annotations

import importlib
import threading
from typing import Any, Callable

PREFIX = "python:"
_registered: dict[str, Callable[[], Any]] = {}
_lock = threading.Lock()


def register(name: str, strategy: Any) -> str:
    """Make a strategy class (instantiated once per shard) or object (shared by every shard)
    available as ``"python:NAME"``; returns that name."""
    if not name or ":" in name:
        raise ValueError(f"a registered strategy name must be non-empty and without ':', got {name!r}")
    with _lock:
        _registered[name] = strategy if isinstance(strategy, type) else (lambda: strategy)
    return PREFIX + name


def is_python(name: str) -> bool:
    """A Python strategy name: "python:..." or an import path "package.module:Class"."""
    return isinstance(name, str) and (name.startswith(PREFIX) or ":" in name)


def factory(name: str, what: str = "Python strategy", target_kind: str = "ClassName") -> Callable[[], Any]:
    """The factory behind a ``python:...`` strategy name; ValueError if it cannot be found. `what`
    and `target_kind` name the thing in the messages (a --where predicate is a function)."""
    if not is_python(name):
        raise ValueError(f"{name!r} is not a Python strategy name (python:NAME or package.module:Class)")
    path = name[len(PREFIX):] if name.startswith(PREFIX) else name
    with _lock:
        if path in _registered:
            return _registered[path]
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"{what} {path!r}: write package.module:{target_kind}, or register() it first")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"{what} {path!r}: cannot import {module_name!r} ({exc})") from None
    target = getattr(module, attribute, None)
    if target is None:
        raise ValueError(f"{what} {path!r}: {module_name} has no {attribute!r}")
    return target if isinstance(target, type) else (lambda: target)


def check(name: str, methods: tuple[str, ...]) -> None:
    """Validate that a ``python:...`` strategy exists and has the methods a role needs."""
    made = factory(name)
    probe = made if isinstance(made, type) else made()   # a class, or the object a lambda hands out
    missing = [m for m in methods if not callable(getattr(probe, m, None))]
    if missing:
        raise ValueError(f"Python strategy {name!r} lacks {', '.join(missing)}()")
