"""``patience report`` and ``patience export`` on a small database."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

import solver
from cli_helpers import one_line_error, patience, patience_here
from solver.runs.report import convergence, write_report
from solver.runs.stats import distribution, win_rate
from solver.runs.store import Store

TT = 64
NODES = 20_000
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """Two configurations: draw 1 over seeds 1-30, draw 3 over seeds 1-12."""
    path = tmp_path_factory.mktemp("report") / "r.sqlite"
    results = {}
    for draw, spec in ((1, "1-30"), (3, "1-12")):
        rows = list(solver.batch("klondike", spec, draw=draw, max_nodes=NODES, tt_mb=TT, workers=2, mode="threads",
                                 db=path))
        results[draw] = sorted(rows, key=lambda r: r.seed)
    return path, results


def test_report_table_and_plots(db, tmp_path):
    path, results = db
    out = tmp_path / "plots"
    r = patience_here("report", "--db", str(path), "--out", str(out))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    header = lines.index(next(x for x in lines if x.startswith("| id |")))
    assert set(lines[header + 1].replace("|", "")) == {"-"}
    rows = [x for x in lines[header + 2:] if x.startswith("|")]
    assert len(rows) == 2
    for row, draw in zip(rows, (1, 3)):
        rs = results[draw]
        cells = [c.strip() for c in row.strip("|").split("|")]
        won = sum(r.verdict == "won" for r in rs)
        lost = sum(r.verdict == "lost" for r in rs)
        unknown = sum(r.verdict == "unknown" for r in rs)
        assert cells[1] == "klondike" and cells[2] == "pysolfc"
        assert f"draw={draw}" in cells[3] and "max_nodes 20,000" in cells[4] and "tt 64 MB" in cells[4]
        assert cells[5] == ("1-30" if draw == 1 else "1-12")
        assert cells[6:9] == [str(len(rs)), str(won), str(lost)]
        assert cells[9].split()[0] == str(unknown)
        rate = win_rate(won, lost, unknown)
        interval = f"[{100 * rate.low:.2f}%, {100 * rate.high:.2f}%]"
        assert cells[10] == (interval if unknown else f"{100 * rate.point:.2f}% {interval}")
        t = distribution([r.seconds for r in rs])
        assert cells[11].split(" / ")[4] == f"{t.max:.3g}"
        n = distribution([float(r.nodes) for r in rs])
        assert cells[12] == " / ".join(f"{v:,.0f}" for v in (n.median, n.mean, n.p90, n.p99, n.max))
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == ["config-1-times.png", "config-1-winrate.png", "config-2-times.png", "config-2-winrate.png"]
    for p in out.glob("*.png"):
        data = p.read_bytes()
        assert data.startswith(PNG) and len(data) > 5000, p
        assert f"wrote {p}" in r.stdout
    md = (out / "report.md").read_text()
    assert rows[0] in md and "](config-1-winrate.png)" in md


def test_report_in_a_real_process_without_a_display(db, tmp_path):
    path, _ = db
    r = patience("report", "--db", str(path), "--out", str(tmp_path / "o"), env={"PATH": "/usr/bin:/bin",
                                                                                "MPLBACKEND": "TkAgg"})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "o" / "config-2-times.png").read_bytes().startswith(PNG)


def test_convergence_ends_at_the_overall_rate(db):
    path, results = db
    with Store(path) as store:
        rows = store.rows(1)
    xs, point, low, high = convergence(rows)
    assert xs == list(range(1, len(rows) + 1))
    rs = results[1]
    final = win_rate(*(sum(r.verdict == v for r in rs) for v in ("won", "lost", "unknown")))
    assert point[-1] == pytest.approx(100 * final.point)
    assert (low[-1], high[-1]) == pytest.approx((100 * final.low, 100 * final.high))
    assert all(lo <= hi for lo, hi in zip(low, high))
    # the first deal alone
    first = win_rate(*(int(rows[0].verdict == v) for v in ("won", "lost", "unknown")))
    assert (low[0], high[0]) == pytest.approx((100 * first.low, 100 * first.high))


def test_convergence_is_thinned_for_many_deals():
    from solver.runs.store import Row

    rows = [Row(s, "won" if s % 5 else "lost", None, 10, 0.001, 100) for s in range(1, 10_001)]
    xs, point, low, high = convergence(rows)
    assert len(xs) <= 400 and xs[-1] == 10_000 and xs == sorted(set(xs))
    assert point[-1] == pytest.approx(80.0)


def test_export_csv_and_jsonl(db, tmp_path):
    path, results = db
    total = sum(len(v) for v in results.values())
    r = patience_here("export", "--db", str(path), "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(objs) == total
    by_key = {(o["rules"]["draw"], o["seed"]): o for o in objs}
    for draw, rs in results.items():
        for res in rs:
            o = by_key[(draw, res.seed)]
            assert (o["verdict"], o["reason"], o["nodes"], o["length"]) == (res.verdict, res.reason, res.nodes,
                                                                            len(res.moves))
            assert o["line"] == ([m.to_json() for m in res.moves] if res.won else None)
            assert o["game"] == "klondike" and o["numbering"] == "pysolfc" and o["max_nodes"] == NODES
            assert o["proof"] == res.proof and (o["proof"] is not None) == (res.verdict == "lost")
    out = tmp_path / "rows.csv"
    r = patience_here("export", "--db", str(path), "--format", "csv", "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == total
    assert {"game", "rules", "numbering", "seed", "verdict", "reason", "nodes", "seconds", "length", "line",
            "max_nodes", "timeout", "tt_mb"} <= set(rows[0])
    won = next(x for x in rows if x["verdict"] == "won")
    assert json.loads(won["line"]) and json.loads(won["rules"])["draw"] in (1, 3)


def test_report_and_export_need_an_existing_database(tmp_path):
    missing = str(tmp_path / "none.sqlite")
    assert "no results database" in one_line_error(patience_here("report", "--db", missing))
    assert "no results database" in one_line_error(patience_here("export", "--db", missing))
    assert not (tmp_path / "none.sqlite").exists()


def test_report_on_an_empty_database(tmp_path):
    path = tmp_path / "empty.sqlite"
    Store(path).close()
    with Store(path) as store:
        table, files = write_report(store, tmp_path / "o")
    assert table == "(no deals stored yet)" and [f.name for f in files] == ["report.md"]


def test_distribution():
    d = distribution([3.0, 1.0, 2.0, 10.0])
    assert (d.n, d.median, d.mean, d.p90, d.p99, d.max) == (4, 2.0, 4.0, 10.0, 10.0, 10.0)
    e = distribution([])
    assert e.n == 0 and math.isnan(e.median) and math.isnan(e.max)


def test_headline_with_unknown_deals_is_the_interval_not_a_point():
    # 31 won, 0 lost, 9 unknown printed "win rate: 100.00%" (issue 14)
    from solver.runs.report import _headline, rate_text

    r = win_rate(31, 0, 9)
    assert "100.00% [" not in rate_text(r) and rate_text(r).startswith("[")
    head = _headline(r)
    assert head.startswith(f"win rate: between {100 * r.low:.2f}% and 100.00%") and "77.50% of the deals" in head
    assert rate_text(win_rate(31, 9, 0)).startswith("77.50% [")


def test_plots_show_seeds_the_final_figure_and_the_cap(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    from solver.runs.report import plot_convergence, plot_times
    from solver.runs.store import Config, Row

    saved = []
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: saved.append(self))
    rows = [Row(s, "won" if s % 3 else "unknown", None if s % 3 else "time-limit", 10, 0.01 * s, 5)
            for s in range(101, 131)]
    config = Config(1, "klondike", {"draw": 1}, "pysolfc", None, 60.0, 64.0)
    plot_convergence(config, rows, tmp_path / "w.png")
    plot_times(config, rows, tmp_path / "t.png")
    rate_ax, time_ax = saved[0].axes[0], saved[1].axes[0]
    assert rate_ax.get_xlim() == (101, 130)  # seed numbers, not deal counts
    assert rate_ax.get_ylim()[1] > 100  # a won / decided line at 100% (welford) is not hidden by the frame
    final = win_rate(20, 0, 10)
    assert any(f"30 deals: [{100 * final.low:.2f}%, {100 * final.high:.2f}%]" in t.get_text() for t in rate_ax.texts)
    assert any(t.get_text() == "cap 60 s" for t in time_ax.texts)


def test_the_batch_bar_keeps_the_interval_at_80_columns():
    import io

    from tqdm import tqdm

    from solver.interfaces.cli import BAR_FORMAT, bar_postfix, bar_rate

    out = io.StringIO()
    bar = tqdm(total=100_000, initial=31_234, unit="deal", file=out, ncols=80, bar_format=BAR_FORMAT)
    rate = bar_rate(28_123, 2_000, 1_111)
    bar.set_postfix_str(bar_postfix({"won": 28_123, "lost": 2_000, "unknown": 1_111}), refresh=False)
    bar.update(1)
    bar.refresh()
    line = out.getvalue().split("\r")[-1]
    assert len(line) <= 80 and rate in line, line
