"""``patience hint`` and ``api.hint`` (issue 14): the next step of a winning line from a
deal, from a deal file, or from where some moves of a line lead."""

from __future__ import annotations

import json

import pytest
from cli_helpers import one_line_error, patience_here

import solver
from solver import api
from solver.core.lines import steps
from solver.core.moves import Move

TT = ("--tt-mb", "64")


def test_the_hint_is_the_first_step_of_the_winning_line():
    r = solver.solve("klondike", 15, tt_mb=64)
    result, step = api.hint("klondike", 15, tt_mb=64)
    g, rules, position = api.make_deal("klondike", 15)
    assert result.won and step == steps(result.moves, list(g.positions(position, rules, result.moves)))[0][0]
    assert step == steps(r.moves, list(g.positions(position, rules, r.moves)))[0][0]


@pytest.mark.parametrize("after", [1, 40, 120])
def test_a_hint_after_some_moves_continues_to_a_win(after):
    line = solver.solve("klondike", 15, tt_mb=64).moves
    result, step = api.hint("klondike", 15, line[:after], tt_mb=64)
    assert result.won and step is not None
    g, rules, position = api.position_after("klondike", 15, line[:after])
    g.verify(position, rules, result.moves)  # from there, the hinted line wins


def test_a_lost_position_gets_no_move():
    result, step = api.hint("klondike", 7, draw=3, tt_mb=64)
    assert result.verdict == "lost" and step is None
    r = patience_here("hint", "klondike", "7", "--draw", "3", *TT)
    assert r.returncode == 0 and "the position is lost" in r.stdout


def test_the_command_reads_a_solve_json_and_counts_moves(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(solver.solve("klondike", 15, tt_mb=64).to_json()))
    r = patience_here("hint", "klondike", "15", "--moves", str(f), "--after", "40", *TT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("next (after 40 moves): ")


def test_an_illegal_line_is_one_line_naming_the_move(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps([Move("T1", "F1").to_json() | {"card": "KS"}]))
    line = one_line_error(patience_here("hint", "klondike", "15", "--moves", str(f), *TT))
    assert "move 1 of the line" in line and "illegal" in line


@pytest.mark.parametrize("args, words", [
    (["hint", "klondike", "15", "--after", "3"], ["--after", "--moves"]),
    (["hint", "klondike", "15", "--moves", "/nonexistent.json"], ["/nonexistent.json"]),
    (["hint", "windmill", "1", "--draw", "3"], ["--draw does not apply"]),
])
def test_bad_hint_input_is_one_line(args, words):
    line = one_line_error(patience_here(*args, *TT))
    for w in words:
        assert w in line, line
