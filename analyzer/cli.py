"""The ``kozyr`` command line.

    kozyr report --out reports/                 the analysis report of every game
    kozyr piquet odds --deals 1e6 --seed 1      declaration odds of piquet
    kozyr piquet explain --elder ... --younger ...

Each game adds its own subcommands through ``register_cli(subparsers)`` in its module; the
helpers here (run options, running with a progress bar, printing tables) are shared by all.
User mistakes print one line ``kozyr: error: ...`` and exit with status 2; an interrupted run
prints what it completed and exits with status 130.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import pandas as pd

from . import __version__
from .games import game_names, get_game
from .runner import BACKENDS, DEFAULT_SHARD_SIZE, RunConfig, RunResult, default_workers, run

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(ValueError):
    """A mistake in what the user asked for: reported in one line, no traceback."""


def count(text: str) -> int:
    """Parse a count such as 1000000, 1_000_000, 1e6 or 2.5e5."""
    try:
        value = float(text.replace("_", "")) if any(c in text.lower() for c in ".e") else int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value != int(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text!r}")
    return int(value)


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"the seed must be a non-negative integer, got {text!r}")
    return value


def option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def add_run_options(parser: argparse.ArgumentParser, game: str, default_deals: int) -> None:
    presets = list(get_game(game).presets)
    parser.add_argument("--deals", type=count, default=default_deals, help=f"number of deals (default {default_deals:,})")
    parser.add_argument("--seed", type=seed, default=1, help="root seed (default 1)")
    parser.add_argument("--rules", default=presets[0], choices=presets, help=f"rule preset (default {presets[0]})")
    parser.add_argument("--set", dest="overrides", type=option, action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule option of the preset (repeatable)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="parallel workers (default: all cores)")
    parser.add_argument("--backend", choices=BACKENDS, default="threads", help="threads (default) or processes")
    parser.add_argument("--shard-size", type=count, default=DEFAULT_SHARD_SIZE, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON (config, table) instead of a text table")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="also write the table to a CSV file")


def execute(args, game: str, analysis: str) -> RunResult:
    """Build the run of the parsed options and execute it with a progress bar on stderr."""
    if args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    config = RunConfig(game=game, analysis=analysis, rules=args.rules, overrides=dict(args.overrides),
                       deals=args.deals, seed=args.seed, shard_size=args.shard_size)
    return run(config, workers=args.workers, backend=args.backend)


def emit_table(args, result: RunResult, table: pd.DataFrame) -> None:
    """Print a result table (text or JSON), write the CSV if asked; note an interrupted run."""
    if args.csv:
        table.to_csv(args.csv, index=False)
    meta = result.metadata()
    if args.json:
        print(json.dumps({"run": meta, "table": json.loads(table.to_json(orient="records"))}, indent=2, default=str))
    else:
        print(f"# {meta['game']} {meta['analysis']}, rules {meta['rules']}"
              f"{' ' + json.dumps(meta['overrides']) if meta['overrides'] else ''}, "
              f"{meta['deals_done']:,} deals, seed {meta['seed']}, kozyr {__version__}")
        with pd.option_context("display.max_rows", None, "display.width", 200, "display.float_format", "{:.6g}".format):
            print(table.to_string(index=False))
    if not result.complete:
        print(f"kozyr: interrupted: {result.deals_done:,} of {result.config.deals:,} deals completed; "
              "the table covers those deals", file=sys.stderr)


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, pointing at --help."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="kozyr", description="Monte Carlo strategy analyzer for traditional card games")
    parser.add_argument("--version", action="version", version=f"kozyr {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = sub.add_parser("report", help="simulate and write the analysis report of every game")
    report.add_argument("--out", type=Path, default=Path("reports"), help="output folder (default reports/)")
    report.add_argument("--seed", type=seed, default=2026, help="root seed (default 2026)")
    report.add_argument("--workers", type=int, default=default_workers(), help="parallel workers (default: all cores)")
    report.add_argument("--games", nargs="+", choices=game_names(), default=None, help="only these games")
    report.add_argument("--scale", type=float, default=1.0,
                        help="multiply every run's number of deals (e.g. 0.01 for a quick preview)")
    report.set_defaults(handler=cmd_report)

    for name in game_names():
        game_parser = sub.add_parser(name, help=get_game(name).title)
        game_sub = game_parser.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
        _game_module(name).register_cli(game_sub)
    return parser


def _game_module(name: str):
    import importlib

    return importlib.import_module(f"analyzer.games.{name}")


def cmd_report(args) -> int:
    from .report import ReportContext, write_report

    if args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    if not 0 < args.scale <= 100:
        raise UserError(f"--scale must be in (0, 100], got {args.scale}")
    for name in args.games or game_names():
        game = get_game(name)
        if game.report is None:
            continue
        ctx = ReportContext(seed=args.seed, workers=args.workers, scale=args.scale)
        sections = game.report(ctx)
        written = write_report(name, f"Kozyr report: {game.title}", sections, ctx, args.out)
        print(f"{name}: wrote {', '.join(sorted(p for p in written if p.endswith(('.html', '.md'))))} in {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args) or 0
    except ValueError as exc:  # UserError and validation errors of configs, options and cards
        print(f"kozyr: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("kozyr: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # output piped into head and closed early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
