"""Winning lines for a person (solver/core/lines.py, issue 14): loops cut, one step numbering."""

from __future__ import annotations

import re

import pytest
from cli_helpers import patience_here

import solver
import solver.games
from solver.api import make_deal
from solver.games.klondike import reference
from solver.core.lines import steps, without_cycles
from solver.core.moves import Move

TT = 64


def _positions(game, position, rules, moves):
    return [position, *game.positions(position, rules, moves)]


def test_a_move_and_its_undo_are_cut():
    # Klondike 15 (draw 1): the search's line puts 7D on F2, takes it back and plays it again
    r = solver.solve("klondike", 15, tt_mb=TT)
    g, rules, position = make_deal("klondike", 15)
    assert r.won and r.moves_found > len(r.moves)
    keys = [p.key() for p in _positions(g, position, rules, r.moves)]
    assert len(keys) == len(set(keys))  # no position twice
    g.verify(position, rules, r.moves)


def _a_move_and_its_undo(rules, line_positions):
    """(index, move, undo): after line_positions[index], ``move`` then ``undo`` come back."""
    for i, p in enumerate(line_positions):
        for m in reference.legal_moves(p, rules):
            after = reference.apply_move(p, rules, m)
            for u in reference.legal_moves(after, rules):
                if reference.apply_move(after, rules, u).key() == p.key():
                    return i, m, u
    raise AssertionError("no reversible move on the line")


def test_without_cycles_on_a_planted_loop():
    r = solver.solve("klondike", 1, tt_mb=TT)
    g, rules, position = make_deal("klondike", 1)
    i, move, undo = _a_move_and_its_undo(rules, _positions(g, position, rules, r.moves))
    planted = [*r.moves[:i], move, undo, move, undo, *r.moves[i:]]
    g.verify(position, rules, planted)
    assert without_cycles(g, position, rules, planted) == without_cycles(g, position, rules, r.moves)
    assert len(without_cycles(g, position, rules, planted)) <= len(r.moves)


@pytest.mark.parametrize("game, seed, options", [
    ("klondike", 1, {"draw": 3}), ("beleaguered-castle", 5, {}), ("windmill", 1, {}),
    ("windmill", 5, {"rules": "welford"}), ("great-wheel", 3, {"rules": "pgs"}),
])
def test_every_game_reports_a_loop_free_verified_line(game, seed, options):
    r = solver.solve(game, seed, tt_mb=1024, timeout=120, **options)
    assert r.won and r.verified and 0 < len(r.moves) <= r.moves_found
    g, rules, position = make_deal(game, seed, **options)
    keys = [p.key() for p in _positions(g, position, rules, r.moves)]
    assert len(keys) == len(set(keys))


def test_draws_are_one_step_naming_the_card_they_stop_at():
    r = solver.solve("klondike", 1, tt_mb=TT)
    g, rules, position = make_deal("klondike", 1)
    positions = list(g.positions(position, rules, r.moves))
    st = steps(r.moves, positions)
    assert st[-1][1] == len(r.moves) - 1
    draws = [(text, last) for text, last in st if text.startswith("draw")]
    assert draws
    for text, last in draws:
        top = positions[last].waste[-1]
        if last + 1 < len(r.moves) and r.moves[last + 1].is_redeal:  # the draws run the stock out
            assert text.startswith("draw out the rest of the stock: ")
        else:
            assert text.startswith(f"draw until {top} is on top of the waste: ")


def test_text_and_show_share_one_numbering():
    plain = patience_here("solve", "klondike", "1", "--tt-mb", str(TT)).stdout
    shown = patience_here("solve", "klondike", "1", "--tt-mb", str(TT), "--show").stdout
    header = re.search(r"winning line: (\d+) steps \((\d+) moves", plain)
    n = int(header.group(1))
    listed = re.findall(r"^ *(\d+)\. ", plain, re.M)
    assert listed[-1] == str(n) and len(listed) == n
    shown_steps = re.findall(r"^(\d+)\. ", shown, re.M)
    assert shown_steps[-1] == str(n) and len(shown_steps) == n


def _legal_moves(game, preset):
    import importlib

    if preset == "welford":
        ref = importlib.import_module("solver.games.windmill_welford.reference")
        return lambda p, rules: ref.legal_moves(p)
    if game == "beleaguered-castle":
        ref = importlib.import_module("solver.games.beleaguered_castle.reference")
        return lambda p, rules: ref.legal_moves(p)
    ref = importlib.import_module(f"solver.games.{game.replace('-', '_')}.reference")
    return ref.legal_moves


@pytest.mark.parametrize("game, preset, loops", [
    ("klondike", None, True), ("beleaguered-castle", None, True), ("windmill", "pysolfc", True),
    ("windmill", "strict", False), ("windmill", "welford", False),  # every move is one-way: no loop exists
    ("great-wheel", "pgs", True), ("great-wheel", "pysolfc", True),
])
def test_cutting_loops_from_random_walks_keeps_a_legal_line_to_the_same_place(game, preset, loops):
    """Random legal walks are full of loops.  Great Wheel's keys ignore which Evens
    pile is which while its moves name the pile: cutting on keys alone once made an
    illegal line (review of issue 14); loops are cut only between equal positions."""
    import random as _random

    rules = solver.games.get_game(game).make_rules(**({"rules": preset} if preset else {}))
    g = solver.games.adapter_for(game, rules)
    legal = _legal_moves(game, preset)
    cut_some = 0
    for seed in range(1, 40):
        rng = _random.Random(seed)
        start = p = g.deal(seed, "pysolfc", rules)
        walk = []
        for _ in range(300):
            options = legal(p, rules)
            if not options:
                break
            walk.append(rng.choice(options))
            p = next(iter(g.positions(p, rules, walk[-1:])))
        clean = without_cycles(g, start, rules, walk)
        end = list(g.positions(start, rules, clean))  # raises IllegalMove if a cut broke the line
        assert (end[-1] if clean else start) == p
        cut_some += len(clean) < len(walk)
    assert (cut_some > 0) == loops


def test_a_step_that_uncovers_a_card_says_which_and_a_stock_run_out_says_so():
    """Klondike 21's short line sends 7D to its foundation and straight back: not a
    wasted pair, the first move turns over 8S (issue 32), and the printed step says so;
    draws followed by a redeal say that they run the stock out."""
    from solver import api
    from solver.core.lines import steps

    r = api.solve("klondike", 21, tt_mb=64, line="short")
    g, rules, position = api.make_deal("klondike", 21)
    positions = list(g.positions(position, rules, r.moves))
    texts = [t for t, _ in steps(r.moves, positions, position)]
    assert "7D  T6 -> F2  (turns over 8S)" in texts
    assert not any("turns over" in t for t, _ in steps(r.moves, positions))  # only with the start position
    after = {i: t for i, t in enumerate(texts)}
    for i, t in after.items():
        if t.startswith("draw out the rest of the stock"):
            assert after[i + 1].startswith("turn the waste over")
    assert any(t.startswith("draw out the rest of the stock") for t in texts)


@pytest.mark.parametrize("draw", [1, 3])
def test_no_move_of_a_short_line_is_undone_by_the_next_unless_it_uncovered_a_card(draw):
    from solver import api
    from solver.core.lines import _turned_over

    for seed in range(1, 16):
        r = api.solve("klondike", seed, tt_mb=64, line="short", draw=draw)
        if not r.won:
            continue
        g, rules, position = api.make_deal("klondike", seed, draw=draw)
        positions = [position, *g.positions(position, rules, r.moves)]
        for i, (a, b) in enumerate(zip(r.moves, r.moves[1:])):
            if a.card is not None and b.card == a.card and (b.src, b.dst) == (a.dst, a.src):
                assert _turned_over(positions[i], positions[i + 1], a) is not None, (seed, i, a, b)
