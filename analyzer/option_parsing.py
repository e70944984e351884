"""Parsing of rule options, shared by the games.

The command line passes every option as text (``--set repik_bonus=60``), the Python API passes
values; both come out as one canonical value, or as a ValueError that names the option and what it
accepts. A game describes its options by kind (choices, on/off flags, integer ranges) and handles
the few special ones itself; :func:`parse` does the rest. :func:`not_empty` checks the text
options of the command line that are not rule options."""
from __future__ import annotations

import argparse
from typing import Any, Callable, Collection, Mapping

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")


def not_empty(hint: str) -> Callable[[str], str]:
    """An argparse type for a text option whose empty value (typically an unset shell variable)
    would otherwise quietly mean "not given": refuse it, with the hint of what to do instead."""
    def check(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"empty; {hint}")
        return text
    return check


def choice(key: str, value: Any, choices: Collection) -> Any:
    """One of a fixed set of values (strings, or integers given as text)."""
    if not isinstance(value, bool):  # True == 1 in Python, but a flag is not a number of cards
        for allowed in choices:
            if value == allowed or str(value).strip() == str(allowed):
                return allowed
    raise ValueError(f"option {key} must be one of {', '.join(map(str, choices))}, got {value!r}")


def flag(key: str, value: Any) -> bool:
    """On or off: a bool, or true/false, yes/no, on/off, 1/0 as text."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE or text in FALSE:
        return text in TRUE
    raise ValueError(f"option {key} must be true or false (yes/no, on/off, 1/0), got {value!r}")


def integer(key: str, value: Any, low: int, high: int) -> int:
    """An integer from low to high; the text may use underscores or an exponent (1_000, 1e6)."""
    number = None
    if not isinstance(value, bool):
        text = str(value).strip().replace("_", "").lower()
        if text.isascii() and text.lstrip("-").isdigit():
            number = int(text)
        elif "e" in text:
            try:
                as_float = float(text)
                number = int(as_float) if as_float.is_integer() else None
            except (ValueError, OverflowError):
                number = None
    if number is None or not low <= number <= high:
        raise ValueError(f"option {key} must be an integer from {low} to {high}, got {value!r}")
    return number


def real(key: str, value: Any, low: float, high: float) -> float:
    """A number from low to high."""
    try:
        number = float(value) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:
        raise ValueError(f"option {key} must be a number from {low:g} to {high:g}, got {value!r}")
    return number


def items(key: str, value: Any) -> list:
    """A list option: a sequence, or comma-separated text."""
    if isinstance(value, str):
        return [v for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise ValueError(f"option {key} takes a comma-separated list, got {value!r}")


def parse(game: str, key: str, value: Any, *, choices: Mapping[str, Collection] = {},
          flags: Collection[str] = (), limits: Mapping[str, tuple] = {},
          special: Mapping[str, Callable[[str, Any], Any]] = {}) -> Any:
    """Validate one option of `game`: `special` parsers first, then the choices, flags and integer
    limits (low, high) tables; an unknown key is a ValueError listing the known ones."""
    if key in special:
        return special[key](key, value)
    if key in choices:
        return choice(key, value, choices[key])
    if key in flags:
        return flag(key, value)
    if key in limits:
        return integer(key, value, *limits[key])
    known = sorted({*special, *choices, *flags, *limits})
    raise ValueError(f"unknown {game} rule option {key!r}; known options: {', '.join(known)}")
