"""Banks of decided deals (solver/runs/bank.py, ``patience seeds``; issue 14)."""

from __future__ import annotations

import pytest
from cli_helpers import one_line_error, patience_here

from solver.runs.bank import GRADES, graded
from solver.runs.store import Row, Store

TT = ("--tt-mb", "64")


def _rows(nodes: list[int]) -> list[Row]:
    return [Row(seed, "won", None, n, 0.0, 100 + seed) for seed, n in enumerate(nodes, 1)]


def test_one_deal_or_equal_effort_is_easy():
    assert [e.grade for e in graded(_rows([7]))] == ["easy"]
    assert {e.grade for e in graded(_rows([7, 7, 7, 7]))} == {"easy"}


def test_grades_split_the_bank_by_rank_of_nodes():
    rows = _rows([50, 10, 900, 20, 30, 40, 60, 70, 80, 5000])
    grades = {e.seed: e.grade for e in graded(rows)}
    assert [grades[s] for s in (2, 4, 5, 6, 1)] == ["easy"] * 5  # the 5 fewest nodes
    assert [grades[s] for s in (7, 8, 9, 3)] == ["medium"] * 4
    assert grades[10] == "hard"
    assert [g for _, g in GRADES] == ["easy", "medium", "hard"]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("bank") / "r.sqlite")
    for limit in ("200000", "300"):  # two configurations of the same rules: merged
        r = patience_here("batch", "klondike", "--seeds", "1-40", "--max-nodes", limit, "--db", path,
                          "--no-progress", "--workers", "1", *TT)
        assert r.returncode == 0, r.stderr
    return path


def test_seeds_lists_the_won_deals_graded(db, tmp_path):
    out = tmp_path / "bank.txt"
    r = patience_here("seeds", "klondike", "--db", db, "--out", str(out))
    assert r.returncode == 0, r.stderr
    lines = [line.split() for line in out.read_text().splitlines() if not line.startswith("#")]
    with Store(db) as store:
        won = {row.seed for c in store.configs() for row in store.rows(c.id) if row.verdict == "won"}
    assert [int(x[0]) for x in lines] == sorted(won)
    assert {x[1] for x in lines} <= {"easy", "medium", "hard"}
    nodes = {g: [int(x[2]) for x in lines if x[1] == g] for g in ("easy", "medium", "hard")}
    assert len(nodes["easy"]) >= len(lines) // 2 and nodes["hard"]
    assert max(nodes["easy"]) < min(nodes["medium"]) and max(nodes["medium"]) < min(nodes["hard"])


def test_seeds_lists_the_lost_deals(db):
    r = patience_here("seeds", "klondike", "--db", db, "--lost")
    listed = [int(x) for x in r.stdout.splitlines() if not x.startswith("#")]
    with Store(db) as store:
        lost = {row.seed for c in store.configs() for row in store.rows(c.id) if row.verdict == "lost"}
    assert listed == sorted(lost) and listed


def test_seeds_of_rules_never_batched_is_one_line(db):
    line = one_line_error(patience_here("seeds", "klondike", "--draw", "3", "--db", db))
    assert "no won klondike deals" in line and "draw=3" in line
