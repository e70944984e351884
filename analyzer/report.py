"""Analysis reports: each game contributes sections (text, tables, figures); the writer renders one
self-contained HTML file (PNG plots embedded), a Markdown file with the PNGs beside it, and every
table as CSV, with the resolved configuration of every run in the header and in a JSON file.
``write_index`` writes ``index.html`` linking the reports of every game.

Tables are shown for people and written to CSV at full precision. A table with the columns
``estimate``, ``ci_low`` and ``ci_high`` is shown with one "95% interval" column and digits chosen
from the interval's width; its rows whose values lie in [0, 1] (and whose labels do not say
"mean", "average" or "expected") are rates, shown in percent with "odds against" beside them.
Set ``df.attrs["rates"] = False`` (or True) to say so instead.
"""
from __future__ import annotations

import base64
import html
import io
import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import __version__  # noqa: E402
from .runner import DEFAULT_SHARD_SIZE, RunConfig, RunResult, run  # noqa: E402


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, Any]] = field(default_factory=list)  # (caption, matplotlib Figure)


# The fewest deals a run of a scaled report gets: every report renders from runs this small
# (tests/test_report_store.py), while a single deal leaves some tables and intervals empty.
MIN_SCALED_DEALS = 10


@dataclass
class ReportContext:
    """What a game's report builder may use: it asks for runs; the context executes them with the
    report's seed, workers and scale (or fixed number of deals) and remembers them for the report
    header. With a results store, a run already stored is read back instead of simulated, and a
    new one is stored shard by shard."""

    seed: int
    workers: int = 1
    backend: str = "threads"
    scale: float = 1.0          # multiplies every run's number of deals (quick previews, CI)
    progress: bool | None = None
    runs: list[RunResult] = field(default_factory=list)
    deals: int | None = None    # when set, every run gets this many deals (kozyr report --deals)
    store: Any = None           # an analyzer.store.Store, or None to simulate without keeping
    out_dir: Path | None = None  # the report folder (kozyr report --out), where long runs' stores are kept

    def deals_for(self, deals: int) -> int:
        """The number of deals a run the game asked `deals` for gets in this report: scaled, but
        never fewer than MIN_SCALED_DEALS (or `deals`, if it asked for fewer)."""
        return self.deals if self.deals else max(min(deals, MIN_SCALED_DEALS), int(deals * self.scale))

    def run(self, game: str, analysis: str, rules: str, deals: int, overrides: dict | None = None,
            strategies: dict | None = None, shard_size: int = DEFAULT_SHARD_SIZE) -> RunResult:
        config = RunConfig(game=game, analysis=analysis, rules=rules, overrides=overrides or {},
                           deals=self.deals_for(deals), seed=self.seed, strategies=strategies or {},
                           shard_size=shard_size)
        return self.run_config(config)

    def run_config(self, config: RunConfig) -> RunResult:
        """Execute (or read back from the store) a run built by the caller."""
        if self.store is not None:
            from .store import run_stored

            result = run_stored(config, self.store, workers=self.workers, backend=self.backend, progress=self.progress)
        else:
            result = run(config, workers=self.workers, backend=self.backend, progress=self.progress)
        if not result.complete:
            raise KeyboardInterrupt
        self.runs.append(result)
        return result


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


_NOT_RATE = re.compile(r"\b(mean|average|expected)\b", re.IGNORECASE)


def _decimals(half_width: float, extra: int = 0) -> int:
    """Decimals that show an interval's half width to two significant digits."""
    if not half_width > 0 or not math.isfinite(half_width):
        return 4 + extra
    return int(min(max(1 - math.floor(math.log10(half_width)), 0), 8) + extra)


def percent(p: float, decimals: int = 2) -> str:
    return "" if pd.isna(p) else f"{100 * p:.{decimals}f}%"


def odds_against(p: float) -> str:
    """A probability as players say it: "27.5 to 1" against, "3.00 to 1 on" when likelier than not."""
    if pd.isna(p):
        return ""
    if p <= 0:
        return "never"
    if p >= 1:
        return "certain"
    ratio, on = ((1 - p) / p, "") if p <= 0.5 else (p / (1 - p), " on")
    digits = 0 if ratio >= 100 else 1 if ratio >= 10 else 2
    return f"{ratio:,.{digits}f} to 1{on}"


def _is_rate_row(row: pd.Series, forced: bool | None) -> bool:
    if forced is not None:
        return forced
    if "count" in row.index and "n" in row.index and pd.isna(row["count"]):
        return False      # a table of counts and rates: a row without a count is a mean or a difference
    values = [row[c] for c in ("estimate", "ci_low", "ci_high") if not pd.isna(row[c])]
    if not values or not all(0 <= v <= 1 for v in values):
        return False
    return not any(isinstance(v, str) and _NOT_RATE.search(v) for v in row.values)


def widest_half_widths(halves: dict[str, list[float]], rates: Iterable[str]) -> str:
    """A sentence for a wide table whose columns have no interval columns: each column's widest
    95 % half-width over the rows (the rates' in percentage points)."""
    rates = set(rates)
    parts = []
    for column, values in halves.items():
        values = [v for v in values if not pd.isna(v)]
        if values:
            parts.append(f"{column} ±{100 * max(values):.2f} pp" if column in rates else f"{column} ±{max(values):.3f}")
    return "The widest 95% half-width of each column over the rows: " + ", ".join(parts) + "." if parts else ""


def format_table(df: pd.DataFrame) -> pd.DataFrame:
    """The table as people read it (strings); CSV files keep full precision."""
    out = df.copy()
    has_interval = {"estimate", "ci_low", "ci_high"} <= set(df.columns)
    if has_interval:
        forced = df.attrs.get("rates")
        shown_est, shown_ci, shown_exact, shown_odds, any_rate = [], [], [], [], False
        exact_col = df["exact"] if "exact" in df.columns else pd.Series(np.nan, index=df.index)
        for (_, row), exact in zip(df.iterrows(), exact_col):
            lo, hi, est = row["ci_low"], row["ci_high"], row["estimate"]
            half = (hi - lo) / 2 if not (pd.isna(lo) or pd.isna(hi)) else float("nan")
            exact = exact if isinstance(exact, (int, float, np.number)) else float("nan")
            if _is_rate_row(row, forced):
                any_rate = True
                d = _decimals(100 * half)
                shown_est.append(percent(est, d))
                shown_ci.append("" if pd.isna(half) else f"{percent(lo, d)} to {percent(hi, d)}")
                shown_exact.append(percent(exact, d + 2))
                shown_odds.append(odds_against(exact if not pd.isna(exact) else est))
            else:
                values = [v for v in (est, lo, hi) if not pd.isna(v)]
                # whole numbers (a median, a count) as such, not as 28.0000 when the interval is a point
                d = 0 if values and all(float(v).is_integer() for v in values) else _decimals(half)
                num = lambda v, d=d: "" if pd.isna(v) else f"{v:,.{d}f}"  # noqa: E731
                shown_est.append(num(est))
                shown_ci.append("" if pd.isna(half) else f"{num(lo)} to {num(hi)}")
                shown_exact.append(num(exact, d + 2))
                shown_odds.append("")
        position = list(out.columns).index("ci_low")
        out = out.drop(columns=["ci_low", "ci_high"])
        out["estimate"] = shown_est
        out.insert(position, "95% interval", shown_ci)
        if "exact" in out.columns:
            out["exact"] = shown_exact
        if any_rate:
            after = list(out.columns).index("exact" if "exact" in out.columns else "95% interval") + 1
            out.insert(after, "odds against", shown_odds)
    for col in df.attrs.get("percent_columns", ()):          # plain rates beside the interval columns
        if col in out.columns and pd.api.types.is_float_dtype(out[col]):
            out[col] = out[col].map(lambda v: percent(v, 1))
    for col in out.columns:
        if pd.api.types.is_bool_dtype(out[col]):
            continue
        if pd.api.types.is_integer_dtype(out[col]):
            out[col] = out[col].map(lambda v: "" if pd.isna(v) else f"{v:,}")
        elif pd.api.types.is_float_dtype(out[col]):
            out[col] = out[col].map(lambda v: "" if pd.isna(v) else f"{v:,.0f}" if float(v).is_integer() and abs(v) >= 1000
                                    else f"{v:.4g}")
    return out


def interval_bars(labels, estimate, low, high, xlabel: str, exact=None, title: str = "", ax=None, scale: float = 1.0):
    """Horizontal bars of estimates with their 95% intervals as error bars, one bar a label (top
    to bottom in the given order); `exact` values, where finite, are drawn as red ticks, and a
    zero line marks differences that cross zero. `scale` multiplies every value (100 for percent).
    Returns the figure."""
    labels = [str(v) for v in labels]
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, max(2.0, 0.35 * len(labels) + 1)))
    else:
        fig = ax.figure
    y = np.arange(len(labels))
    est = scale * np.asarray(estimate, float)
    err = np.vstack([est - scale * np.asarray(low, float), scale * np.asarray(high, float) - est])
    # clipped: a zero-width interval can come out a rounding error below the estimate
    ax.barh(y, est, xerr=np.clip(np.nan_to_num(err), 0, None), color="#4c78a8", ecolor="black", capsize=3)
    if exact is not None:
        exact = scale * np.asarray(exact, float)
        if np.isfinite(exact).any():
            ax.scatter(exact, y, marker="|", s=200, color="#e45756", zorder=3, label="exact")
            ax.legend(loc="lower right")
    if (est < 0).any():
        ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, labels)
    if not ax.yaxis_inverted():  # first label on top (axes sharing y are inverted once)
        ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    return fig


def rate_bars(table: pd.DataFrame, label: str, title: str = "", ax=None):
    """A bar chart of the rates in `table` (columns estimate, ci_low, ci_high, and exact if known)
    with their 95% intervals, in percent; `label` names the column that labels the bars."""
    return interval_bars(table[label], table["estimate"], table["ci_low"], table["ci_high"],
                         "percent (bars: estimate with 95% interval)", exact=table.get("exact"),
                         title=title, ax=ax, scale=100.0)


def distribution_plot(histograms: dict, xlabel: str, values=None, threshold=None, legend_size: int = 8):
    """Step plot of one or more histograms (label -> counts by value, log scale), trimmed to the
    values that occur; `values` maps bin index to value when the index is not the value itself."""
    fig, ax = plt.subplots(figsize=(8, 4))
    for label, hist in histograms.items():
        hist = np.asarray(hist)
        occupied = np.nonzero(hist)[0]
        lo, hi = occupied.min(), occupied.max() + 1
        x = np.arange(hist.size) if values is None else np.asarray(values)
        ax.step(x[lo:hi], hist[lo:hi] / hist.sum(), where="mid", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability")
    ax.set_yscale("log")
    if threshold is not None:
        ax.axvline(threshold, color="grey", lw=0.8, ls="--")
    ax.legend(fontsize=legend_size)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


_STYLE = ("body{font-family:system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}"
          "table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{padding:3px 9px;border-bottom:1px solid #ddd;"
          "text-align:left;vertical-align:top}td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
          "img{max-width:100%}figcaption{color:#555;font-size:.9em}.meta{color:#555}"
          "nav ul{columns:2}h2{border-bottom:2px solid #4c78a8;padding-bottom:.2em;margin-top:2em}")


def _run_rows(runs: list[RunResult]) -> list[dict[str, str]]:
    rows = []
    for result in runs:
        m = result.metadata()
        simulated = m.get("simulated_deals", m["deals_done"])
        source = ("stored run" if simulated == 0 else "simulated" if simulated == m["deals_done"]
                  else f"stored + {simulated:,} simulated")
        if "run_id" not in m:
            source = "simulated, not stored"
        strategies = m.get("strategies") or {}
        rows.append({
            "run": str(m.get("run_id", "-")),
            "analysis": m["analysis"],
            "rules": m["rules"],
            "overrides": ", ".join(f"{k}={v}" for k, v in m["overrides"].items()) or "-",
            "strategies": ", ".join(f"{k}: {v}" for k, v in strategies.items()) or "-",
            "deals": f"{m['deals_done']:,}",
            "seed": str(m["seed"]),
            "version": m["version"],
            "source": source,
        })
    return rows


_NUMERIC = re.compile(r"^[-+]?[\d,]*\.?\d+(e[-+]?\d+)?%?( to [-+]?[\d,]*\.?\d+%?)?( to 1( on)?)?$")


def _inline(text: str) -> str:
    """Escape text for HTML, keeping Markdown `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def _frame_html(df: pd.DataFrame) -> str:
    """A formatted table as HTML: numbers right-aligned, words left-aligned."""
    def cell(tag, value):
        text = "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)
        numeric = bool(_NUMERIC.match(text.strip()))
        return f"<{tag} class=num>{html.escape(text)}</{tag}>" if numeric else f"<{tag}>{html.escape(text)}</{tag}>"
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(cell("td", v) for v in row) + "</tr>" for row in df.itertuples(index=False))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _html_table(rows: list[dict[str, str]]) -> str:
    if not rows:
        return "<p>No runs.</p>"
    head = "".join(f"<th>{html.escape(k)}</th>" for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in r.values()) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _md_table(rows: list[dict[str, str]]) -> list[str]:
    if not rows:
        return ["No runs."]
    return ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])] + [
        "| " + " | ".join(v.replace("|", "\\|") for v in r.values()) + " |" for r in rows]


def write_report(name: str, title: str, sections: list[Section], ctx: ReportContext, out_dir: Path) -> dict[str, Path]:
    """Write <name>.html, <name>.md (+ PNGs), CSV tables and <name>.runs.json into out_dir."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*out_dir.glob(f"{name}-*.csv"), *out_dir.glob(f"{name}-fig*.png")]:
        stale.unlink()
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs_meta = [r.metadata() for r in ctx.runs]
    run_rows = _run_rows(ctx.runs)
    total = sum(m["deals_done"] for m in runs_meta)
    simulated = sum(m.get("simulated_deals", m["deals_done"]) for m in runs_meta)
    source = ("all simulated for this report" if simulated == total else "all read from the results store"
              if simulated == 0 else f"{simulated:,} simulated for this report, the rest read from the results store")
    intro = (f"Kozyr {__version__}, generated {stamp}. Root seed {ctx.seed}. {len(runs_meta)} runs, "
             f"{total:,} deals in all ({source}). The run numbers refer to the results store: "
             "`kozyr runs show N` prints a run's configuration and counters.")
    legend = ("Every rate is shown with its 95% Wilson interval and its sample size `n` (a rate pooled over "
              "the hands of a deal, which are not independent, at the effective sample size that the "
              "variance between deals gives; a share of units that come in deals with the interval of a "
              "ratio); means with a 95% normal interval (none from fewer than 30 values), medians and "
              "percentiles with the distribution-free interval of two order statistics. `exact` is the exact value where one "
              "is known, to two more digits; `odds against` is (1 - p) : p, from the exact value where there is one.")
    md = [f"# {title}", "", intro, "", "## What was simulated", "", *_md_table(run_rows), "", legend, ""]
    toc = "".join(f'<li><a href="#s{i}">{html.escape(sec.title)}</a></li>' for i, sec in enumerate(sections, 1))
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p class='meta'>{_inline(intro)}</p>",
            "<h2>What was simulated</h2>", _html_table(run_rows),
            f"<p>{_inline(legend)}</p>",
            f"<nav><b>Contents</b><ul>{toc}</ul></nav>"]
    written: dict[str, Path] = {}
    figure_count = 0
    for i, section in enumerate(sections, 1):
        md += [f"## {section.title}", ""]
        body.append(f'<h2 id="s{i}">{html.escape(section.title)}</h2>')
        if section.text:
            md += [section.text, ""]
            body += [f"<p>{_inline(p)}</p>" for p in section.text.split("\n\n")]
        for caption, df in section.tables:
            csv_path = out_dir / f"{name}-{_slug(caption)}.csv"
            df.to_csv(csv_path, index=False)
            written[csv_path.name] = csv_path
            shown = format_table(df)
            md += [f"**{caption}** ([CSV]({csv_path.name}))", "", shown.to_markdown(index=False), ""]
            body += [f"<h3>{html.escape(caption)} <small>(<a href='{html.escape(csv_path.name)}'>CSV</a>)</small></h3>",
                     _frame_html(shown)]
        for caption, fig in section.figures:
            figure_count += 1
            png = _png(fig)
            png_path = out_dir / f"{name}-fig{figure_count}.png"
            png_path.write_bytes(png)
            written[png_path.name] = png_path
            md += [f"![{caption}]({png_path.name})", "", f"*{caption}*", ""]
            body += [f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,'
                     f'{base64.b64encode(png).decode()}"><figcaption>{html.escape(caption)}</figcaption></figure>']
    body.append("<p class='meta'><a href='index.html'>All reports</a></p>")
    html_text = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                 f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>")
    for suffix, text in ((".html", html_text), (".md", "\n".join(md))):
        path = out_dir / f"{name}{suffix}"
        path.write_text(text, encoding="utf-8")
        written[path.name] = path
    meta_path = out_dir / f"{name}.runs.json"
    meta_path.write_text(json.dumps({"version": __version__, "seed": ctx.seed, "generated": stamp, "title": title,
                                     "runs": runs_meta}, indent=2, default=str))
    written[meta_path.name] = meta_path
    return written


def write_index(entries: list[tuple[Any, dict | None, list[RunResult], str]], out_dir: Path, seed: int) -> Path:
    """Write index.html (and index.md) linking the report of every game: `entries` holds
    (game, files written or None, runs, note) for the games of this invocation; games reported
    earlier into the same folder keep their line."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    from .games import game_names, get_game

    this_time = {game.name: (written, runs, note) for game, written, runs, note in entries}
    rows = []
    for name in game_names():
        game = get_game(name)
        written, runs, note = this_time.get(name, (None, [], ""))
        meta_file = out_dir / f"{name}.runs.json"
        report = out_dir / f"{name}.html"
        if report.exists() and meta_file.exists() and not note.startswith("failed"):
            meta = json.loads(meta_file.read_text())
            deals = sum(r.get("deals_done", 0) for r in meta.get("runs", []))
            rows.append((name, game.title, f"{name}.html", f"{name}.md",
                         f"{len(meta.get('runs', []))} runs, {deals:,} deals, seed {meta.get('seed')}, "
                         f"generated {meta.get('generated', '?')}"))
        else:
            rows.append((name, game.title, None, None,
                         note or ("no report yet" if game.report is None else "not in this folder yet")))
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    items = []
    for name, title, html_file, md_file, note in rows:
        link = (f"<a href='{html.escape(html_file)}'>{html.escape(title)}</a> "
                f"(<a href='{html.escape(md_file)}'>Markdown</a>)") if html_file else html.escape(title)
        items.append(f"<tr><td>{link}</td><td>{html.escape(note)}</td></tr>")
    page = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Kozyr reports</title>"
            f"<style>{_STYLE}</style></head><body><h1>Kozyr reports</h1>"
            f"<p class='meta'>Kozyr {html.escape(__version__)}, index written {stamp}; reports made by "
            f"<code>kozyr report --out {html.escape(str(out_dir))}</code> (root seed {seed}).</p>"
            f"<table><tr><th>game</th><th>what was simulated</th></tr>{''.join(items)}</table></body></html>")
    path = out_dir / "index.html"
    path.write_text(page, encoding="utf-8")
    md = ["# Kozyr reports", "", f"Kozyr {__version__}, index written {stamp}.", "", "| game | what was simulated |",
          "|---|---|"] + [f"| {f'[{t}]({h}) ([Markdown]({m}))' if h else t} | {n} |" for _, t, h, m, n in rows]
    (out_dir / "index.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    return path


ReportBuilder = Callable[[ReportContext], list[Section]]
