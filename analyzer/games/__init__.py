"""The registry of games. Each game module defines a :class:`Game`: its rule presets with the
defaults of shared/rules/<game>.md, the validation of rule options, and the analyses its compiled
kernels offer. The runner, the CLI and the reports find games only through this registry."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from ..strategies import check as check_python, is_python


@dataclass(frozen=True)
class Analysis:
    """One thing a game can simulate. `kernel(bit_generators, n_deals, rules)` plays one shard and
    returns integer counters (a dict of int64 arrays) that add up exactly across shards;
    bit_generators[0] deals the cards, the others feed the strategies.

    An analysis that plays with chosen strategies lists them in `strategies`: a mapping from a role
    (e.g. "elder_play") to the names it accepts, the first being the default. Its kernel is then
    called as `kernel(bit_generators, n_deals, rules, strategies)` with a complete role -> name dict."""

    name: str
    description: str
    kernel: Callable[..., dict[str, np.ndarray]]
    streams: int = 1
    strategies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # roles that also accept a user's Python strategy ("python:module:Class", see
    # analyzer/strategies.py), with the methods that role calls
    python_methods: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # an analysis that plays constrained deals (fixed cards, a predicate; analyzer/constrained.py)
    # gives the layout of its kernel's shuffled pack; its kernel then also takes given=rows
    deal_layout: Any = None
    # summary(counters, rules, strategies) -> [(title, DataFrame)]: the result tables of a run from
    # its counters, resolved rule options and strategy names; the game's command prints them, and
    # so do `kozyr runs show` and `kozyr run resume` for a stored run (raw counters otherwise)
    summary: Callable[..., list] | None = None
    # results_since(rules) -> the oldest kozyr version whose kernel gives this one's counters for
    # these resolved rule options, so that a stored run it made may be resumed (a long run
    # outlives a version bump that changed only other options); None: this version only
    results_since: Callable[[dict], str] | None = None
    # what one "deal" of a run is (--deals counts them): a whole game or partie for some analyses
    unit: str = "deals"
    # check(rules, strategies): raise ValueError when the resolved rule options (or them with the
    # resolved strategies) are ones this analysis cannot play, beyond the game's own check_rules;
    # run when a run is configured, before it is stored
    check: Callable[[dict, dict], Any] | None = None

    def resolve_strategies(self, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every role's strategy: the chosen ones, validated, and the defaults for the rest."""
        resolved = {role: names[0] for role, names in self.strategies.items()}
        for role, name in (chosen or {}).items():
            if role not in self.strategies:
                known = ", ".join(self.strategies) or "none"
                raise ValueError(f"analysis {self.name!r} has no strategy role {role!r}; roles: {known}")
            if is_python(name) and role in self.python_methods:
                check_python(name, self.python_methods[role])
            elif name not in self.strategies[role]:
                python = " or python:module:Class" if role in self.python_methods else ""
                raise ValueError(f"unknown {role} strategy {name!r}; choose one of "
                                 f"{', '.join(self.strategies[role])}{python}")
            resolved[role] = name
        return resolved


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    presets: Mapping[str, Mapping[str, Any]]
    validate_option: Callable[[str, Any], Any]
    analyses: Mapping[str, Analysis] = field(default_factory=dict)
    # report(ctx) -> list of report.Section: the runs and tables of this game's analysis report
    report: Callable[[Any], list] | None = None
    # compare_strategies(a, b) -> the role -> strategy mapping of the "compare" analysis for the
    # strategy labels a and b (see analyzer/compare.py); compare_shard_size(strategies) -> shard size
    compare_strategies: Callable[[str, str], dict] | None = None
    compare_shard_size: Callable[[dict], int] | None = None
    # short names of the game's command (kozyr rb ... for kozyr russian_bank ...)
    aliases: tuple[str, ...] = ()
    # check_rules(rules): raise ValueError for resolved options that do not go together (each
    # option alone is checked by validate_option); resolve_rules runs it
    check_rules: Callable[[dict], Any] | None = None

    def resolve_rules(self, preset: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The preset's options with validated overrides applied, checked together (check_rules)."""
        if preset not in self.presets:
            raise ValueError(f"unknown {self.name} rules preset {preset!r}; choose one of {', '.join(self.presets)}")
        rules = dict(self.presets[preset])
        for key, value in (overrides or {}).items():
            if key not in rules:
                raise ValueError(f"unknown {self.name} rule option {key!r}; known options: {', '.join(sorted(rules))}")
            rules[key] = self.validate_option(key, value)
        if self.check_rules is not None:
            self.check_rules(dict(rules))
        return rules

    def analysis(self, name: str) -> Analysis:
        if name not in self.analyses:
            raise ValueError(f"{self.name} has no analysis {name!r}; choose one of {', '.join(self.analyses)}")
        return self.analyses[name]


def _registry() -> dict[str, Game]:
    from . import piquet, square, klabor, russian_bank, marias, semerik, vedma, piquet_three

    return {g.name: g for g in (piquet.GAME, square.GAME, klabor.GAME, russian_bank.GAME, marias.GAME, semerik.GAME, vedma.GAME,
                                piquet_three.GAME)}


def get_game(name: str) -> Game:
    games = _registry()
    if name not in games:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(games)}")
    return games[name]


def game_names() -> list[str]:
    return list(_registry())
