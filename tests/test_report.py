import json

import pandas as pd

from analyzer.cli import main


def test_report_writes_html_markdown_csv_and_run_metadata(tmp_path, capsys):
    assert main(["report", "--out", str(tmp_path), "--scale", "0.01", "--seed", "4", "--workers", "2",
                 "--games", "piquet"]) == 0
    html = (tmp_path / "piquet.html").read_text()
    md = (tmp_path / "piquet.md").read_text()
    assert "data:image/png;base64," in html and "<table" in html
    assert "ru_seed_seq34" in md and "100,000" in md and "Root seed 4" in md
    pngs = list(tmp_path.glob("piquet-fig*.png"))
    assert pngs and all(p.stat().st_size > 1000 for p in pngs)
    for p in pngs:
        assert p.name in md
    runs = json.loads((tmp_path / "piquet.runs.json").read_text())
    assert {r["rules"] for r in runs["runs"]} == {"ru_seed", "ru_seed_seq34", "classic"}
    assert all(r["seed"] == 4 and r["complete"] for r in runs["runs"])
    tables = list(tmp_path.glob("piquet-*.csv"))
    assert len(tables) >= 4
    key = pd.read_csv(next(t for t in tables if "key-events" in t.name))
    assert set(key.rules) == {"ru_seed", "ru_seed_seq34", "classic"}
    assert (key.ci_low <= key.estimate).all() and (key.estimate <= key.ci_high).all()
