"""The ``kozyr`` command line.

    kozyr report --out reports/                 the analysis report of every game
    kozyr runs list | show ID | export ID       the runs kept in the results store
    kozyr run resume ID | extend ID --deals N   complete an interrupted run, add deals to a run
    kozyr piquet odds --deals 1e6 --seed 1      declaration odds of piquet
    kozyr piquet explain --elder ... --younger ...
    kozyr piquet odds --elder "AS KS ..." --where "count(younger & aces) >= 2"   given cards

Each game adds its own subcommands through ``register_cli(subparsers)`` in its module; the
helpers here (run options, running with a progress bar, printing tables) are shared by all.
User mistakes print one line ``kozyr: error: ...`` and exit with status 2; an interrupted run
prints what it completed and exits with status 130.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path

import pandas as pd

from . import __version__, constrained, option_parsing
from .interrupts import EXIT_INTERRUPTED, exit_interrupted, received
from .games import game_names, get_game
from .cluster import SCHEDULER_ENV
from .runner import BACKENDS, DEFAULT_SHARD_SIZE, RunConfig, RunResult, default_workers, run, shards_abandoned

EXIT_USAGE = 2


class UserError(ValueError):
    """A mistake in what the user asked for: reported in one line, no traceback."""


MAX_COUNT = 10**12      # deals or nodes: far beyond any run, small enough to plan shards for
MAX_WORKERS = 1024
MIN_REPORT_DEALS = 100
MAX_ID = 2**63 - 1      # the results store's integers are 64-bit


def count(text: str) -> int:
    """Parse a count such as 1000000, 1_000_000, 1e6 or 2.5e5."""
    try:
        value = float(text.replace("_", "")) if any(c in text.lower() for c in ".e") else int(text.replace("_", ""))
        whole = value == int(value)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not whole or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text!r}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_COUNT:.0e}, got {text!r}")
    return int(value)


def bounded_int(what: str, low: int, high: int):
    """An argparse type: an integer in [low, high], read as rule options are (1_000, 1e6)."""
    def parse(text: str) -> int:
        try:
            return option_parsing.integer(what, text, low, high)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer from {low:,} to {high:,}, got {text!r}") from None
    return parse


seed = bounded_int("the seed", 0, MAX_ID)
run_id = bounded_int("a run id", 1, MAX_ID)
workers = bounded_int("the number of workers", 1, MAX_WORKERS)


_FOLDER_GIVEN = option_parsing.not_empty("give a folder (leave --out out for reports/)")


def report_folder(text: str) -> Path:
    """An argparse type: the report's folder; an empty one is refused rather than read as the
    current folder, whose files the report would overwrite."""
    return Path(_FOLDER_GIVEN(text))


def output_file(text: str) -> Path:
    """An argparse type: a file path that can be written (checked now, before any simulation)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a directory, not a file")
    existed = path.exists()
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: {exc.strerror}") from None
    if not existed:
        path.unlink()
    return path


def option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


class Repeatable(argparse.Action):
    """A repeatable KEY=VALUE option (--set, --strategy, --double, --declare): the parsed values
    are tuples whose last item is the value; a key given twice is refused, not silently overridden."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = list(getattr(namespace, self.dest) or [])
        key = tuple(values[:-1])
        for earlier in given:
            if tuple(earlier[:-1]) == key:
                name = ".".join(key)
                raise argparse.ArgumentError(self, f"{name} is given twice ({name}={earlier[-1]} and "
                                                   f"{name}={values[-1]}); give it once")
        setattr(namespace, self.dest, given + [values])


def add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", type=Path, default=None, metavar="PATH",
                        help="results store file (default: $KOZYR_STORE, else ~/.local/share/kozyr/store.sqlite)")


def open_store(args, must_exist: bool = False):
    """The results store of --store; with must_exist (a command about stored runs) it must be there."""
    from .store import Store

    return Store(args.store, must_exist=must_exist)


def add_run_options(parser: argparse.ArgumentParser, game: str, default_deals: int, analysis: str | None = None) -> None:
    """The options of a command that makes a run; `analysis` names what --deals counts, if not deals."""
    presets = list(get_game(game).presets)
    unit = get_game(game).analysis(analysis).unit if analysis else "deals"
    parser.add_argument("--deals", type=count, default=default_deals, help=f"number of {unit} (default {default_deals:,})")
    parser.add_argument("--seed", type=seed, default=1, help="root seed (default 1)")
    parser.add_argument("--rules", default=presets[0], choices=presets, help=f"rule preset (default: {presets[0]})")
    add_set_option(parser)
    add_execution_options(parser)
    parser.add_argument("--shard-size", type=count, default=None, metavar="N",
                        help=f"deals per shard (default {DEFAULT_SHARD_SIZE:,} for the fast strategies, fewer for "
                             "the slow ones and the searches, down to a few deals for PIMC: the run's configuration "
                             "shows it); each shard draws its deals from its own stream, so the deals, and the "
                             "numbers, depend on it (never on --workers); to repeat a run of a report, give the "
                             "shard_size its configuration shows")
    parser.add_argument("--json", action="store_true", help="print JSON (config, table) instead of a text table")
    parser.add_argument("--csv", type=output_file, metavar="FILE", help="also write the table to a CSV file")
    add_store_option(parser)
    parser.add_argument("--no-store", action="store_true",
                        help="simulate without reading or writing the results store")


def add_execution_options(parser: argparse.ArgumentParser) -> None:
    """Where a run's shards are played: --workers, --backend, --scheduler."""
    parser.add_argument("--workers", type=workers, default=default_workers(), help="parallel workers (default: all cores)")
    parser.add_argument("--backend", choices=BACKENDS, default="threads", help="threads (default), processes, or dask (see --scheduler)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", default=os.environ.get(SCHEDULER_ENV),
                        help="run the shards on this Dask cluster (default $KOZYR_SCHEDULER)")


def add_set_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="overrides", type=option, action=Repeatable, default=[], metavar="KEY=VALUE",
                        help="override a rule option of the preset (repeatable)")


def add_strategy_option(parser: argparse.ArgumentParser, game: str, analysis: str) -> None:
    roles = get_game(game).analysis(analysis).strategies
    role, names = next(iter(roles.items()))
    parser.add_argument("--strategy", dest="strategies", type=option, action=Repeatable, default=[], metavar="ROLE=NAME",
                        help=f"the strategy of one role ({', '.join(roles)}), e.g. {role}={names[-1]} "
                             "(repeatable; the others take their default)")


def execute(args, game: str, analysis: str) -> RunResult:
    """Build the run of the parsed options (with --strategy ROLE=NAME pairs if the command has
    them) and execute it with a progress bar on stderr."""
    layout = get_game(game).analysis(analysis).deal_layout
    config = RunConfig(game=game, analysis=analysis, rules=args.rules, overrides=dict(args.overrides),
                       deals=args.deals, seed=args.seed, shard_size=args.shard_size or DEFAULT_SHARD_SIZE,
                       strategies=dict(getattr(args, "strategies", [])),
                       constraint=constrained.from_args(args, layout))
    return execute_config(args, config)


def execute_config(args, config: RunConfig) -> RunResult:
    """Execute a run built by the caller through the results store (unless --no-store), with the
    parsed --workers, --backend and --store."""
    if getattr(args, "no_store", False):
        return run(config, workers=args.workers, backend=args.backend)
    from .store import run_stored

    with open_store(args) as store:
        return run_stored(config, store, workers=args.workers, backend=args.backend)


def run_header(result: RunResult) -> str:
    """The line above a run's tables: what was run (rules, overrides, the strategies other than
    the defaults), on how many deals, seed, version and run id in the store."""
    meta = result.metadata()
    analysis = get_game(meta["game"]).analysis(meta["analysis"])
    chosen = {role: name for role, name in result.config.strategy_names.items()
              if name != analysis.strategies[role][0]}      # the roles not left at their default
    unit = analysis.unit
    return (f"# {meta['game']} {meta['analysis']}, rules {meta['rules']}"
            f"{' ' + json.dumps(meta['overrides']) if meta['overrides'] else ''}"
            f"{', strategies ' + json.dumps(chosen) if chosen else ''}, "
            f"{meta['deals_done']:,} {unit}, seed {meta['seed']}, kozyr {__version__}"
            f"{', run ' + str(meta['run_id']) if 'run_id' in meta else ''}")


def emit_table(args, result: RunResult, table: pd.DataFrame) -> None:
    """Print a result table (text or JSON), write the CSV if asked; note an interrupted run."""
    if args.csv:
        table.to_csv(args.csv, index=False)
    meta = result.metadata()
    if args.json:
        print(json.dumps({"run": meta, "table": json.loads(table.to_json(orient="records"))}, indent=2, default=str))
    else:
        print(run_header(result))
        if constrained.describe(result):
            print(constrained.describe(result))
        with pd.option_context("display.max_rows", None, "display.width", 200, "display.float_format", "{:.6g}".format):
            print(table.to_string(index=False))
    if not result.complete:
        resume = f"; kozyr run resume {meta['run_id']} completes it" if "run_id" in meta else ""
        print(f"kozyr: interrupted: {result.deals_done:,} of {result.config.deals:,} deals completed; "
              f"the table covers those deals{resume}", file=sys.stderr)


def summary_tables(result: RunResult) -> list:
    """The result tables [(title, table)] of a run just made, by its analysis's Analysis.summary
    (the same tables `kozyr runs show` prints for the stored run)."""
    c = result.config
    return get_game(c.game).analysis(c.analysis).summary(result.counters, c.rule_options, c.strategy_names)


def emit_summary(args, result: RunResult, index: int = 0) -> int:
    """Print one of the run's summary tables with emit_table; the command's exit status."""
    emit_table(args, result, summary_tables(result)[index][1])
    return 0 if result.complete else EXIT_INTERRUPTED


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, pointing at --help of the command they belong to."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        # Leftover arguments are reported by the top parser; remember the innermost command
        # that left them (it returns first), so that the message points at its --help.
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and not hasattr(namespace, "leftover_prog"):
            namespace.leftover_prog = self.prog
        return namespace, extras


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="kozyr", description="Monte Carlo strategy analyzer for traditional card games")
    parser.add_argument("--version", action="version", version=f"kozyr {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = sub.add_parser("report", help="simulate and write the analysis report of every game")
    add_report_options(report)
    report.add_argument("--games", nargs="+", choices=game_names(), default=None, help="only these games")
    report.set_defaults(handler=cmd_report)

    run_parser = sub.add_parser("run", help="complete or extend a stored run")
    run_sub = run_parser.add_subparsers(dest="run_command", required=True, metavar="COMMAND")
    resume = run_sub.add_parser("resume", help="play the shards an interrupted run lacks")
    extend = run_sub.add_parser("extend", help="add deals to a stored run (new shards of the same seed)")
    extend.add_argument("--deals", type=count, required=True, help="number of deals to add")
    for p in (resume, extend):
        p.add_argument("id", type=run_id, help="run id (see kozyr runs list)")
        add_execution_options(p)
        p.add_argument("--json", action="store_true", help="print the run as JSON")
        add_store_option(p)
    resume.set_defaults(handler=cmd_run_resume)
    extend.set_defaults(handler=cmd_run_extend)

    runs_parser = sub.add_parser("runs", help="list, show, export, delete or compact the stored runs")
    runs_sub = runs_parser.add_subparsers(dest="runs_command", required=True, metavar="COMMAND")
    listing = runs_sub.add_parser("list", help="every stored run")
    listing.add_argument("--game", choices=game_names(), help="only this game's runs")
    listing.add_argument("--json", action="store_true")
    show = runs_sub.add_parser("show", help="one run: config, status, counters")
    show.add_argument("id", type=run_id)
    show.add_argument("--json", action="store_true", help="config and counters as JSON")
    export = runs_sub.add_parser("export", help="write a run's counters (long form) as CSV and/or Parquet")
    export.add_argument("id", type=run_id)
    export.add_argument("--csv", type=lambda text: text if text == "-" else output_file(text), metavar="FILE",
                        help="the CSV file, or - for standard output")
    export.add_argument("--parquet", type=output_file, metavar="FILE")
    delete = runs_sub.add_parser("delete", help="remove a run and its shards from the store")
    delete.add_argument("id", type=run_id)
    compact = runs_sub.add_parser("compact", help="rewrite counters stored before 0.8.15 ten times smaller")
    for p in (listing, show, export, delete, compact):
        add_store_option(p)
    listing.set_defaults(handler=cmd_runs_list)
    show.set_defaults(handler=cmd_runs_show)
    export.set_defaults(handler=cmd_runs_export)
    delete.set_defaults(handler=cmd_runs_delete)
    compact.set_defaults(handler=cmd_runs_compact)

    compare = sub.add_parser("compare", help="compare strategies head to head on duplicate deals")
    alias_of = {a: g for g in game_names() for a in get_game(g).aliases}   # rb is russian_bank here too
    compare.add_argument("game", type=lambda name: alias_of.get(name, name),
                         choices=[g for g in game_names() if get_game(g).compare_strategies], help="the game")
    compare.add_argument("--strategies", nargs="+", required=True, metavar="STRATEGY",
                         help="two or more strategy labels (e.g. piquet: heuristic+greedy best_expected+pimc)")
    compare.add_argument("--deals", type=count, default=100_000, help="deals per pair (default 100,000)")
    compare.add_argument("--seed", type=seed, default=1, help="root seed (default 1)")
    compare.add_argument("--rules", default=None, help="rule preset (default: the game's first)")
    add_set_option(compare)
    add_execution_options(compare)
    compare.add_argument("--json", action="store_true")
    compare.add_argument("--csv", type=output_file, metavar="FILE")
    add_store_option(compare)
    compare.add_argument("--no-store", action="store_true")
    compare.set_defaults(handler=cmd_compare)

    for name in game_names():
        module, game = _game_module(name), get_game(name)
        if not hasattr(module, "register_cli"):  # a game may have no commands of its own (yet)
            continue
        game_parser = sub.add_parser(name, aliases=list(game.aliases), help=game.title)
        game_sub = game_parser.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
        module.register_cli(game_sub)
        if game.report is not None:
            own_report = game_sub.add_parser(
                "report", help=f"simulate and write this game's analysis report (kozyr report --games {name})")
            add_report_options(own_report)
            own_report.set_defaults(handler=cmd_report, games=[name])
    return parser


def add_report_options(p) -> None:
    """The options of a report command: `kozyr report` and each game's `report`."""
    p.add_argument("--out", type=report_folder, default=Path("reports"), help="output folder (default reports/)")
    p.add_argument("--seed", type=seed, default=2026, help="root seed (default 2026)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="multiply every run's number of deals (e.g. 0.01 for a quick preview; "
                        "no run gets fewer than the ten deals a report needs)")
    p.add_argument("--deals", type=count, default=None,
                   help=f"give every run this number of deals (at least {MIN_REPORT_DEALS}) instead of the game's own choice")
    add_execution_options(p)
    add_store_option(p)


def _game_module(name: str):
    import importlib

    return importlib.import_module(f"analyzer.games.{name}")


def cmd_compare(args) -> int:
    from .compare import compare

    if args.no_store:
        table, runs = compare(args.game, args.strategies, args.deals, args.seed, args.rules, dict(args.overrides),
                              workers=args.workers, backend=args.backend)
    else:
        from .store import run_stored

        with open_store(args) as store:
            table, runs = compare(args.game, args.strategies, args.deals, args.seed, args.rules,
                                  dict(args.overrides), workers=args.workers, backend=args.backend,
                                  runner=lambda config, **kw: run_stored(config, store, **kw))
    if args.csv:
        table.to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps({"runs": [r.metadata() for r in runs], "interval": table.attrs["interval"],
                          "table": json.loads(table.to_json(orient="records"))}, indent=2, default=str))
        return 0
    meta = runs[0].metadata()
    overrides = f" {json.dumps(meta['overrides'])}" if meta["overrides"] else ""
    print(f"# {args.game} compare, rules {meta['rules']}{overrides}, {meta['deals']:,} duplicate deals per pair, "
          f"seed {meta['seed']}, "
          f"kozyr {__version__}; mean_diff = mean of A's result minus B's on the same deals, "
          f"intervals {table.attrs['interval']}")
    with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_columns", 30,
                           "display.float_format", "{:.4g}".format):
        print(table.to_string(index=False))
    return 0


def cmd_report(args) -> int:
    from .report import ReportContext, write_index, write_report

    if not 0 < args.scale <= 100:
        raise UserError(f"--scale must be in (0, 100], got {args.scale}")
    if args.deals is not None and args.deals < MIN_REPORT_DEALS:   # its comparisons and intervals need some
        raise UserError(f"a report needs --deals of at least {MIN_REPORT_DEALS}, got {args.deals}")
    try:   # before any simulation, so that a bad folder costs nothing
        args.out.mkdir(parents=True, exist_ok=True)
        output_file(str(args.out / "index.html"))
    except (OSError, argparse.ArgumentTypeError) as exc:
        raise UserError(f"--out {str(args.out)!r}: cannot write a report there ({getattr(exc, 'strerror', None) or exc})") from None
    failed, entries = [], []
    with open_store(args) as store:
        for name in args.games or game_names():
            game = get_game(name)
            if game.report is None:
                entries.append((game, None, [], "no report yet"))
                continue
            ctx = ReportContext(seed=args.seed, workers=args.workers, backend=args.backend, scale=args.scale,
                                deals=args.deals, store=store, out_dir=args.out)
            try:
                sections = game.report(ctx)
                written = write_report(name, f"Kozyr report: {game.title}", sections, ctx, args.out)
            except KeyboardInterrupt:
                print(f"kozyr: the finished shards are kept in {store.path}; the same command continues "
                      "from there", file=sys.stderr)
                raise
            except UserError:
                raise
            except Exception as exc:  # one game's failure does not cost the others their report
                print(f"kozyr: error: the {name} report failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                failed.append(name)
                entries.append((game, None, ctx.runs, f"failed: {type(exc).__name__}: {exc}"))
                continue
            entries.append((game, written, ctx.runs, ""))
            print(f"{name}: wrote {', '.join(sorted(p for p in written if p.endswith(('.html', '.md'))))} in {args.out}")
    index = write_index(entries, args.out, seed=args.seed)
    print(f"index: wrote {index.name} in {args.out}")
    return 1 if failed else 0


def _print_run(stored, as_json: bool) -> None:
    from .store import counters_frame

    summary = stored.summary()
    tables = _summary_tables(stored)
    if as_json:
        counters = {k: v.tolist() for k, v in (stored.counters or {}).items()}
        print(json.dumps({"run": summary, "config": stored.config, "counters": counters,
                          "tables": {title: json.loads(t.to_json(orient="records")) for title, t in tables}},
                         indent=2, default=str))
        return
    width = max(len(k) for k in summary)
    for key, value in summary.items():
        if key in ("overrides", "strategies"):
            value = json.dumps(value) if value else "-"
        elif isinstance(value, int) and key != "id" and key != "seed":
            value = f"{value:,}"
        print(f"{key:<{width}}  {value}")
    options = stored.config.get("rule_options", {})
    print(f"{'rule_options':<{width}}  {json.dumps(options, default=list)}")
    if stored.config.get("constraint"):          # constrained deals (analyzer/constrained.py)
        print(f"{'constraint':<{width}}  {json.dumps(stored.config['constraint'], ensure_ascii=False)}")
    if stored.counters:
        df = counters_frame(stored.counters)
        table = df.groupby("counter", sort=False).agg(cells=("value", "size"), total=("value", "sum")).reset_index()
        table.insert(1, "shape", [str(tuple(stored.counters[c].shape)) for c in table.counter])
        print()
        print(table.to_string(index=False))
    for title, table in tables:
        print(f"\n{title} ({stored.deals_done:,} deals):")
        with pd.option_context("display.max_rows", None, "display.width", 200):
            print(table.to_string(index=False))


def _summary_tables(stored) -> list:
    """The analysis's result tables for a stored run, if its game defines them (see Analysis.summary)."""
    c = stored.config
    try:
        analysis = get_game(c["game"]).analysis(c["analysis"])
    except ValueError:  # a run of a game or analysis this version does not have
        return []
    if analysis.summary is None or not stored.counters:
        return []
    return analysis.summary(stored.counters, _stored_rule_options(c), c.get("strategies") or {})


def _stored_rule_options(c: dict) -> dict:
    """A stored run's rule options, with the defaults of its preset for options added since it was
    stored (a run of an older version lacks them: the headline run of reports/ was made by 0.4.0)."""
    try:
        current = get_game(c["game"]).resolve_rules(c["rules"], dict(c["overrides"]))
    except ValueError:   # a preset or override this version does not have: only what was stored
        current = {}
    return {**current, **c["rule_options"]}


def _finish_stored(args, store, run_id: int) -> int:
    from .store import complete_run

    result = complete_run(store, run_id, workers=args.workers, backend=args.backend)
    _print_run(store.get(run_id), args.json)
    if not result.complete:
        print(f"kozyr: interrupted: {result.deals_done:,} of {result.config.deals:,} deals stored; "
              f"kozyr run resume {run_id} completes it", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def cmd_run_resume(args) -> int:
    with open_store(args, must_exist=True) as store:
        store.config(args.id)  # validates the id and the version before anything runs
        return _finish_stored(args, store, args.id)


def cmd_run_extend(args) -> int:
    with open_store(args, must_exist=True) as store:
        store.extend(args.id, args.deals)
        return _finish_stored(args, store, args.id)


def cmd_runs_list(args) -> int:
    from .store import Store, runs_table, store_path

    path = store_path(args.store)
    if not path.exists():   # nothing stored there yet (or a mistyped path): say so, make nothing
        print("[]" if args.json else f"no results store at {path}")
        return 0
    with Store(path) as store:
        table = runs_table(store)
    if args.game:
        table = table[table.game == args.game]
    if args.json:
        print(table.to_json(orient="records", indent=2))
    elif table.empty:
        print(f"no runs{' of ' + args.game if args.game else ''} in the store {store.path}")
    else:
        print(table.to_string(index=False))
    return 0


def cmd_runs_show(args) -> int:
    with open_store(args, must_exist=True) as store:
        _print_run(store.get(args.id), args.json)
    return 0


def cmd_runs_export(args) -> int:
    from .store import export_run

    if not args.csv and not args.parquet:
        raise UserError("say where to write: --csv FILE and/or --parquet FILE")
    with open_store(args, must_exist=True) as store:
        written = export_run(store, args.id, csv=args.csv, parquet=args.parquet)
    # with the CSV on standard output, the confirmation goes to standard error
    print(f"run {args.id}: wrote {', '.join(str(p) for p in written)}", file=sys.stderr if args.csv == "-" else sys.stdout)
    return 0


def cmd_runs_delete(args) -> int:
    with open_store(args, must_exist=True) as store:
        store.delete(args.id)
    print(f"run {args.id}: deleted")
    return 0


def cmd_runs_compact(args) -> int:
    with open_store(args, must_exist=True) as store:
        before, after = store.compact()
    print(f"{store.path}: {before:,} bytes before, {after:,} after")
    return 0


def main(argv: list[str] | None = None) -> int:
    # Strategies and --where predicates named module:name are found in the folder kozyr runs
    # from, as with `python -m analyzer` (the installed script does not look there); appended,
    # so that a file there never shadows an installed module.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.prog = getattr(args, "leftover_prog", parser.prog)
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    if getattr(args, "scheduler", None):  # a cluster: every run of this command goes to it
        os.environ[SCHEDULER_ENV] = args.scheduler
        args.backend = "dask"
    if received():   # a Ctrl-C that a module's initialisation swallowed (analyzer.interrupts)
        exit_interrupted()
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
    except sqlite3.Error as exc:   # a read-only, locked or damaged results store
        print(f"kozyr: error: the results store: {exc} (give another --store, or --no-store)", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:         # a file the command was told to read or write
        print(f"kozyr: error: {f'{exc.filename}: ' if exc.filename else ''}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


def entry() -> None:
    """The `kozyr` command (and `python -m analyzer`): main, and after a second Ctrl-C an exit
    at once, without the interpreter's wait for the shards that are still running (a compiled
    kernel cannot be stopped; what they would have given is dropped, the finished shards are
    kept)."""
    # Names like леза and Квадрат on an output that cannot encode them (a file written with a
    # Windows code page, PYTHONIOENCODING=ascii) come out escaped instead of ending the command.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        code = main()
    except BaseException:
        if received():   # while the games' modules load: a KeyboardInterrupt, or what an extension made of it
            exit_interrupted()
        raise
    if shards_abandoned():
        print("kozyr: stopped at once: the shards under way were dropped", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
