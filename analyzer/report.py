"""Analysis reports: each game contributes sections (text, tables, figures); the writer renders one
self-contained HTML file (PNG plots embedded), a Markdown file with the PNGs beside it, and every
table as CSV, with the resolved configuration of every run in the header and in a JSON file."""
from __future__ import annotations

import base64
import html
import io
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from . import __version__  # noqa: E402
from .runner import RunConfig, RunResult, run  # noqa: E402


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, Any]] = field(default_factory=list)  # (caption, matplotlib Figure)


@dataclass
class ReportContext:
    """What a game's report builder may use: it asks for runs; the context executes them with the
    report's seed, workers and scale and remembers them for the report header."""

    seed: int
    workers: int = 1
    backend: str = "threads"
    scale: float = 1.0          # multiplies every run's number of deals (quick previews, CI)
    progress: bool | None = None
    runs: list[RunResult] = field(default_factory=list)

    def run(self, game: str, analysis: str, rules: str, deals: int, overrides: dict | None = None) -> RunResult:
        config = RunConfig(game=game, analysis=analysis, rules=rules, overrides=overrides or {},
                           deals=max(1, int(deals * self.scale)), seed=self.seed)
        result = run(config, workers=self.workers, backend=self.backend, progress=self.progress)
        if not result.complete:
            raise KeyboardInterrupt
        self.runs.append(result)
        return result


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def format_table(df: pd.DataFrame) -> pd.DataFrame:
    """Round floats for display only (CSV files keep full precision)."""
    out = df.copy()
    for col in out.columns:
        if pd.api.types.is_float_dtype(out[col]):
            out[col] = out[col].map(lambda v: "" if pd.isna(v) else f"{v:.6g}")
    return out


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def write_report(name: str, title: str, sections: list[Section], ctx: ReportContext, out_dir: Path) -> dict[str, Path]:
    """Write <name>.html, <name>.md (+ PNGs), CSV tables and <name>.runs.json into out_dir."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs_meta = [r.metadata() for r in ctx.runs]
    header_rows = [
        (m["analysis"], m["rules"], json.dumps(m["overrides"]) if m["overrides"] else "", f"{m['deals_done']:,}", m["seed"])
        for m in runs_meta
    ]
    md = [f"# {title}", "", f"Kozyr {__version__}, generated {stamp}. Root seed {ctx.seed}.", "",
          "| analysis | rules | overrides | deals | seed |", "|---|---|---|---|---|"]
    md += [f"| {a} | {r} | {o} | {d} | {s} |" for a, r, o, d, s in header_rows]
    md += ["", "Every rate is shown with its sample size and a Wilson 95% interval; `exact` is the exact "
           "value where one is known.", ""]
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p>Kozyr {html.escape(__version__)}, generated {stamp}. Root seed {ctx.seed}.</p>",
            "<table><tr><th>analysis</th><th>rules</th><th>overrides</th><th>deals</th><th>seed</th></tr>"]
    body += ["<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in row) + "</tr>" for row in header_rows]
    body += ["</table><p>Every rate is shown with its sample size and a Wilson 95% interval; "
             "<code>exact</code> is the exact value where one is known.</p>"]
    written: dict[str, Path] = {}
    figure_count = 0
    for section in sections:
        md += [f"## {section.title}", ""]
        body.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.text:
            md += [section.text, ""]
            body += [f"<p>{html.escape(p)}</p>" for p in section.text.split("\n\n")]
        for caption, df in section.tables:
            csv_path = out_dir / f"{name}-{_slug(caption)}.csv"
            df.to_csv(csv_path, index=False)
            written[csv_path.name] = csv_path
            shown = format_table(df)
            md += [f"**{caption}** ([CSV]({csv_path.name}))", "", shown.to_markdown(index=False), ""]
            body += [f"<h3>{html.escape(caption)}</h3>", shown.to_html(index=False, border=0, classes="t")]
        for caption, fig in section.figures:
            figure_count += 1
            png = _png(fig)
            png_path = out_dir / f"{name}-fig{figure_count}.png"
            png_path.write_bytes(png)
            written[png_path.name] = png_path
            md += [f"![{caption}]({png_path.name})", "", f"*{caption}*", ""]
            body += [f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,'
                     f'{base64.b64encode(png).decode()}"><figcaption>{html.escape(caption)}</figcaption></figure>']
    style = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
             "text-align:right}th{background:#f3f3f3}img{max-width:100%}")
    html_text = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                 f"<style>{style}</style></head><body>{''.join(body)}</body></html>")
    for suffix, text in ((".html", html_text), (".md", "\n".join(md))):
        path = out_dir / f"{name}{suffix}"
        path.write_text(text, encoding="utf-8")
        written[path.name] = path
    meta_path = out_dir / f"{name}.runs.json"
    meta_path.write_text(json.dumps({"version": __version__, "seed": ctx.seed, "runs": runs_meta}, indent=2, default=str))
    written[meta_path.name] = meta_path
    return written


ReportBuilder = Callable[[ReportContext], list[Section]]
