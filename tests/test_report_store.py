"""Reports made through the results store: every game's report renders from a small stored run,
the HTML is well formed and holds its tables and images, a second rendering simulates nothing,
the index links the games, and numbers are formatted for people."""
import dataclasses
from html import escape as html_escape
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

import analyzer.games as games
import analyzer.runner as runner
from analyzer.cli import main
from analyzer.games import game_names, get_game
from analyzer.report import MIN_SCALED_DEALS, ReportContext, Section, format_table, odds_against, percent, write_report
from analyzer.store import Store

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class WellFormed(HTMLParser):
    """Checks that every opened element is closed in order; counts tables and embedded images."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tables, self.images = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables += 1
        if tag == "img":
            src = dict(attrs).get("src", "")
            if src.startswith("data:image/png;base64,") and len(src) > 1000:
                self.images += 1
            else:
                self.errors.append(f"image not embedded: {src[:40]}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


def check_html(text: str) -> WellFormed:
    assert text.lower().startswith("<!doctype html>")
    parser = WellFormed()
    parser.feed(text)
    parser.close()
    assert not parser.errors, parser.errors[:5]
    assert not parser.stack, f"unclosed: {parser.stack}"
    return parser


REPORTED = [name for name in game_names() if get_game(name).report is not None]


@pytest.mark.parametrize("name", REPORTED)
def test_every_report_renders_from_a_small_stored_run(name, tmp_path, monkeypatch, runslow):
    store = Store(tmp_path / "runs.sqlite")
    game = get_game(name)
    ctx = ReportContext(seed=7, workers=2, deals=10, scale=1e-4, store=store)
    first = write_report(name, game.title, game.report(ctx), ctx, tmp_path / "a")
    # Every run of the report went through the store, so a second rendering reads it back.
    assert ctx.runs and all("run_id" in r.extra for r in ctx.runs)

    html = (tmp_path / "a" / f"{name}.html").read_text()
    parsed = check_html(html)
    md = (tmp_path / "a" / f"{name}.md").read_text()
    csvs = sorted(p for p in first if p.endswith(".csv"))
    pngs = sorted(p for p in first if p.endswith(".png"))
    assert parsed.tables >= 1 + len(csvs)        # the runs table, then one per CSV table
    assert parsed.images == len(pngs)
    assert all(p in md for p in csvs + pngs)
    assert "What was simulated" in html and "Root seed 7" in html
    for result in ctx.runs:
        assert f"<td>{result.extra['run_id']}</td>" in html
    if not runslow:  # the second rendering costs as much as the first, less the simulation
        return
    monkeypatch.setattr(runner, "_run_shard_timed", lambda *a: pytest.fail("a stored run was simulated again"))
    again_ctx = ReportContext(seed=7, workers=2, deals=10, scale=1e-4, store=store)
    again = write_report(name, game.title, game.report(again_ctx), again_ctx, tmp_path / "b")
    assert sorted(again) == sorted(first)
    assert all(r.extra["simulated_deals"] == 0 for r in again_ctx.runs)
    for csv in csvs:
        assert (tmp_path / "a" / csv).read_text() == (tmp_path / "b" / csv).read_text(), csv
    store.close()


def small_piquet_report(ctx):
    """A report of one cheap run, so that the command's plumbing is tested in seconds."""
    import matplotlib.pyplot as plt
    from analyzer.games.piquet import odds_table

    result = ctx.run("piquet", "declarations", "ru_seed", 40_000)
    fig, ax = plt.subplots()
    ax.plot(result.counters["total_hist"][0])
    table = odds_table(result.counters, result.config.rule_options, with_exact=False)
    return [Section("Odds", "Declarations on the dealt hands.", tables=[("odds", table)], figures=[("totals", fig)])]


def test_scaled_runs_keep_enough_deals_to_render():
    # --scale multiplies the deals a game asks for, but a run keeps MIN_SCALED_DEALS (the size
    # every report renders from above) unless the game asked for fewer; --deals overrides both.
    tiny = ReportContext(seed=1, scale=1e-9)
    assert tiny.deals_for(10**6) == MIN_SCALED_DEALS and tiny.deals_for(4) == 4
    assert ReportContext(seed=1, scale=0.5).deals_for(1000) == 500
    assert ReportContext(seed=1, scale=1e-9, deals=200).deals_for(10**6) == 200


def test_report_command_writes_an_index_and_rerenders_from_the_store(tmp_path, capsys, monkeypatch):
    registry = games._registry
    monkeypatch.setattr(games, "_registry", lambda: {
        **registry(), "piquet": dataclasses.replace(registry()["piquet"], report=small_piquet_report)})
    out, store = tmp_path / "reports", str(tmp_path / "runs.sqlite")
    args = ["report", "--out", str(out), "--games", "piquet", "--seed", "5", "--store", store, "--workers", "2"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "piquet: wrote piquet.html, piquet.md" in printed and "index.html" in printed
    index = (out / "index.html").read_text()
    check_html(index)
    assert "href='piquet.html'" in index
    for name in game_names():                    # every game has its line, reported or not yet
        assert html_escape(get_game(name).title) in index
    html = (out / "piquet.html").read_text()
    assert "40,000" in html and ">simulated<" in html
    first_csv = (out / "piquet-odds.csv").read_text()

    monkeypatch.setattr(runner, "_run_shard_timed", lambda *a: pytest.fail("simulated a stored run"))
    assert main(args) == 0
    assert ">stored run<" in (out / "piquet.html").read_text()
    assert (out / "piquet-odds.csv").read_text() == first_csv
    # --deals gives every run that many deals: a new run, which may not be simulated here.
    with pytest.raises(pytest.fail.Exception):
        main(args + ["--deals", "1000"])


def test_percent_and_odds_for_people():
    assert odds_against(1 / 28.5) == "27.5 to 1"
    assert odds_against(323 / 578956) == "1,791 to 1"
    assert odds_against(0.2) == "4.00 to 1"
    assert odds_against(0.75) == "3.00 to 1 on"
    assert odds_against(0.0) == "never" and odds_against(1.0) == "certain" and odds_against(np.nan) == ""
    assert percent(0.052403, 3) == "5.240%"


def test_format_table_rates_means_and_counts():
    df = pd.DataFrame({
        "event": ["repik", "mean score", "redeals per game"],
        "count": pd.array([5240, 0, pd.NA], dtype="Int64"),
        "n": [100_000, 100_000, 1000],
        "estimate": [0.0524, 0.4, 0.4935],
        "ci_low": [0.05103, 0.38, 0.45],
        "ci_high": [0.05380, 0.42, 0.53],
        "exact": [0.052403, np.nan, np.nan],
    })
    shown = format_table(df)
    assert list(shown.columns) == ["event", "count", "n", "estimate", "95% interval", "exact", "odds against"]
    rate, mean, no_count = shown.iloc[0], shown.iloc[1], shown.iloc[2]
    # A row of a table of counts without a count is a mean, whatever its name and its values.
    assert no_count.estimate == "0.493" and no_count["odds against"] == ""
    # Half width 0.14 points: two significant digits of it give two decimals in percent.
    assert rate.estimate == "5.24%" and rate["95% interval"] == "5.10% to 5.38%" and rate.exact == "5.2403%"
    assert rate["odds against"] == "18.1 to 1" and rate.n == "100,000"
    # A mean is not a rate even between 0 and 1: plain number, digits from its interval, no odds.
    assert mean.estimate == "0.400" and mean["95% interval"] == "0.380 to 0.420" and mean["odds against"] == ""
    df.attrs["rates"] = False
    assert "odds against" not in format_table(df).columns
    assert list(df.columns) == ["event", "count", "n", "estimate", "ci_low", "ci_high", "exact"]  # input untouched


def test_rate_bars_draw_estimates_with_their_intervals():
    from analyzer.report import rate_bars

    df = pd.DataFrame({"event": ["a", "b"], "estimate": [0.1, 0.5], "ci_low": [0.08, 0.45], "ci_high": [0.13, 0.55],
                       "exact": [0.11, np.nan]})
    fig = rate_bars(df, "event", title="rates")
    ax = fig.axes[0]
    bars = ax.patches
    assert [round(b.get_width(), 9) for b in bars] == [10.0, 50.0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    error_segments = [c for c in ax.collections if hasattr(c, "get_segments") and c.get_segments()]
    lows_highs = sorted((seg[0][0], seg[1][0]) for c in error_segments for seg in c.get_segments() if len(seg) == 2)
    assert lows_highs == [(pytest.approx(8.0), pytest.approx(13.0)), (pytest.approx(45.0), pytest.approx(55.0))]


def test_interval_bars_on_shared_axes_keep_the_first_label_on_top_and_mark_zero():
    import matplotlib.pyplot as plt
    from analyzer.report import interval_bars

    fig, axes = plt.subplots(1, 2, sharey=True)
    for ax in axes:
        interval_bars(["first", "second"], [-0.5, 1.0], [-0.9, 0.2], [-0.1, 1.8], "difference", ax=ax)
    fig.canvas.draw()
    assert [t.get_text() for t in axes[0].get_yticklabels()] == ["first", "second"]
    for ax in axes:
        bottom, top = ax.get_ylim()
        assert bottom > top  # inverted once: bar 0 ("first") is drawn at the top
        assert any(line.get_xdata()[0] == 0 for line in ax.get_lines())  # the zero line of a negative estimate
    plt.close(fig)


def test_the_committed_reports_runs_keep_their_store_keys():
    # A run's key hashes its overrides by their validated values; the reports' runs give theirs
    # in that form already, so a store made before that still holds them (nothing to simulate).
    import json
    from pathlib import Path
    from analyzer.store import config_from_json

    files = sorted((Path(__file__).resolve().parent.parent / "reports").glob("*.runs.json"))
    assert len(files) == len(game_names())
    for path in files:
        for stored in json.loads(path.read_text())["runs"]:
            config = config_from_json(stored)
            assert json.dumps(config.resolved()["overrides"], sort_keys=True, default=list) == \
                json.dumps(stored["overrides"], sort_keys=True, default=list), (path.name, stored["overrides"])
