"""Benchmark reports lose nothing (issue 24): a benchmark whose rows are all done solves
nothing and leaves an existing report alone unless asked; writing a report replaces only
its generated part, so notes survive; reports never name the machine's folders.

Every run here reads made-up rows from a temporary folder and writes its report there
(never into results/); solving is replaced by a stand-in that fails the test if called.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import solver
from solver import api

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _load(name: str):
    """A benchmarks/ script as a module (its folder on sys.path, as when run as a script)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(seed: int, verdict: str) -> dict:
    return {"seed": seed, "verdict": verdict, "reason": None if verdict != "unknown" else "time-limit",
            "nodes": 1000, "stored": 500, "seconds": 0.01, "moves": 90 if verdict == "won" else 0,
            "moves_found": 95 if verdict == "won" else 0, "verified": verdict == "won", "proof": None,
            "peak_mb": 100, "best_progress": None, "counters": {}}


def _write_rows(runs: Path, verdicts: dict[int, str]) -> Path:
    """Rows of Klondike draw 1, Solvitaire numbering, cap 5 s: the file bench_game reads."""
    runs.mkdir(parents=True, exist_ok=True)
    rows = runs / "klondike-1-solvitaire-cap5.jsonl"
    rows.write_text("".join(json.dumps(_row(s, v)) + "\n" for s, v in verdicts.items()))
    return rows


@pytest.fixture
def no_solving(monkeypatch):
    """Solving fails the test: every run here has its rows done already."""
    def solve(*args, **kwargs):
        raise AssertionError("the benchmark solved a deal although every row was done")
    monkeypatch.setattr(solver, "solve", solve)


def _argv(tmp: Path, *more: str) -> list[str]:
    return ["klondike", "--option", "draw=1", "--numbering", "solvitaire", "--seeds", "1-2", "--cap", "5",
            "--tt-mb", "64", "--runs", str(tmp / "runs"), "--out", str(tmp / "report.md"), *more]


def test_rows_done_solve_nothing_and_leave_the_report_alone(tmp_path, no_solving, capsys):
    bench = _load("bench_game")
    rows = _write_rows(tmp_path / "runs", {1: "won", 2: "lost"})
    report = tmp_path / "report.md"
    bench.main(_argv(tmp_path))  # no report yet: written from the rows, nothing solved
    assert "| won / lost / unknown | 1 / 1 / 0" in report.read_text()
    report.write_text(report.read_text() + "\nHand-written note.\n")
    before = report.read_text()
    capsys.readouterr()
    assert bench.main(_argv(tmp_path)) is None
    assert report.read_text() == before
    said = capsys.readouterr()
    lines = [line for line in (said.out + said.err).splitlines() if line.strip()]
    assert len(lines) == 1
    assert rows.name in lines[0] and "2 rows" in lines[0] and "nothing solved" in lines[0]
    assert "--rewrite-report" in lines[0]


def test_rewrite_report_replaces_the_generated_part_and_keeps_the_notes(tmp_path, no_solving):
    bench = _load("bench_game")
    _write_rows(tmp_path / "runs", {1: "won", 2: "lost"})
    report = tmp_path / "report.md"
    bench.main(_argv(tmp_path, "--note", "Run beside another benchmark."))
    report.write_text(report.read_text() + "\n## Notes\n\nSeed 2 was checked by hand.\n")
    _write_rows(tmp_path / "runs", {1: "won", 2: "won"})  # e.g. rows solved again elsewhere
    bench.main(_argv(tmp_path, "--rewrite-report"))  # no --note this time
    text = report.read_text()
    assert "| won / lost / unknown | 2 / 0 / 0" in text
    assert "1 / 1 / 0" not in text
    assert text.count("# Benchmark: klondike") == 1
    assert "## Notes\n\nSeed 2 was checked by hand." in text
    assert text.count("Note: Run beside another benchmark.") == 1


def test_a_report_from_before_the_markers_is_kept_whole(tmp_path, no_solving):
    bench = _load("bench_game")
    _write_rows(tmp_path / "runs", {1: "won", 2: "lost"})
    report = tmp_path / "report.md"
    old = "# Benchmark: klondike\n\nNote: written by hand, with figures of an earlier run.\n\n| deals | 1000 |\n"
    report.write_text(old)
    bench.main(_argv(tmp_path))
    assert report.read_text() == old  # rows done, not asked: left alone
    bench.main(_argv(tmp_path, "--rewrite-report"))
    text = report.read_text()
    assert "| won / lost / unknown | 1 / 1 / 0" in text
    assert text.endswith(old)


def test_reports_carry_no_machine_paths(tmp_path, no_solving):
    bench = _load("bench_game")
    _write_rows(tmp_path / "runs", {1: "won", 2: "lost"})
    bench.main(_argv(tmp_path, "--report-only"))
    text = (tmp_path / "report.md").read_text()
    assert str(tmp_path) not in text and str(ROOT) not in text
    assert "Command: `python benchmarks/bench_game.py klondike --option draw=1" in text
    # a path inside the project is quoted from its root (computed only: nothing is written there)
    inside = bench.command_line(["windmill", "--rules", "pysolfc", "--runs", str(ROOT / "results" / "runs"),
                                 "--out", str(ROOT / "results" / "windmill-pysolfc-bench.md")])
    assert inside == ("python benchmarks/bench_game.py windmill --rules pysolfc --runs results/runs "
                      "--out results/windmill-pysolfc-bench.md")


def test_bench_klondike_rows_done_writes_nothing_and_its_signature_once(tmp_path, no_solving, monkeypatch):
    klondike = _load("bench_klondike")
    monkeypatch.setattr(klondike, "run_bench", lambda: ([object()] * 3, 123, "abcdef012345"))
    _write_rows(tmp_path / "runs", {1: "won", 2: "lost"})
    argv = ["bench_klondike.py", "--draw", "1", "--seeds", "1-2", "--cap", "5", "--runs", str(tmp_path / "runs"),
            "--out-dir", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    klondike.main()
    report = tmp_path / "klondike-bench-draw1.md"
    first = report.read_text()
    klondike.main()
    assert report.read_text() == first
    assert first.count("signature `abcdef012345`") == 1
    assert str(tmp_path) not in first


def test_bench_hint_keeps_notes_and_quotes_no_machine_path(tmp_path, monkeypatch):
    hint = _load("bench_hint")
    monkeypatch.setattr(solver, "solve", lambda *a, **k: SimpleNamespace(won=True, moves=["m"] * 10))
    monkeypatch.setattr(api, "hint", lambda *a, **k: (SimpleNamespace(seconds=0.001), "m"))
    out = tmp_path / "hint.md"
    argv = ["klondike", "--seeds", "1-2", "--every", "5", "--out", str(out)]
    hint.main(argv)
    out.write_text(out.read_text() + "\nWhy these seeds: a note by hand.\n")
    hint.main(argv)
    text = out.read_text()
    assert "Why these seeds: a note by hand." in text
    assert text.count("# Hint benchmark: klondike") == 1
    assert "| hints | 4 |" in text
    assert str(tmp_path) not in text


def test_busy_process_list_drops_machine_folders():
    report = _load("bench_report")
    # folders no machine has (an existing path would be resolved, its links followed)
    line = "45.1 /no-such/ci/.venv/bin/python .venv/bin/pytest -q; 27.5 python /no-such/me/hunt.py --out /no-such/h/B2"
    assert report.without_paths(line) == ("45.1 .../python .venv/bin/pytest -q; "
                                          "27.5 python .../hunt.py --out .../B2")
    assert report.without_paths(f"python {ROOT}/benchmarks/bench_bc.py") == "python benchmarks/bench_bc.py"


def test_rows_above_5000_go_to_seed_block_files_and_load_back(tmp_path, monkeypatch):
    """A 20,000-deal run writes seed-block files (each small enough to commit) and reads
    them all back: a resumed run solves only the seeds without a row."""
    bench = _load("bench_game")
    solved = []

    def solve(game, seed, **kwargs):
        if "timeout" in kwargs:  # not the untimed warm-up solve
            solved.append(seed)
        return SimpleNamespace(verdict="lost", reason=None, nodes=1, stored_states=1, seconds=0.0, moves=[],
                               moves_found=0, verified=False, proof=None, best_progress=None, counters={})
    monkeypatch.setattr(solver, "solve", solve)
    log = tmp_path / "runs" / "klondike-1-solvitaire-cap5.jsonl"
    log.parent.mkdir()
    seeds = [4999, 5000, 5001, 12345]
    bench.run("klondike", {}, "solvitaire", seeds, 5, 64, log, report_only=False)
    assert solved == seeds
    assert sorted(p.name for p in log.parent.iterdir()) == [
        "klondike-1-solvitaire-cap5-seeds10001-15000.jsonl", "klondike-1-solvitaire-cap5-seeds5001-10000.jsonl",
        "klondike-1-solvitaire-cap5.jsonl"]
    assert [json.loads(x)["seed"] for x in log.read_text().splitlines()] == [4999, 5000]
    assert sorted(bench.load(log)) == seeds
    solved.clear()
    bench.run("klondike", {}, "solvitaire", seeds + [20000], 5, 64, log, report_only=False)
    assert solved == [20000]
