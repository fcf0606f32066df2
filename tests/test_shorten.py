"""Lines a person can follow (solver/core/shorten.py, issue 24): shortened lines replay, are
never longer, and lose the detours the search left in them; a bad rewrite never escapes.

Budgets count work, never seconds, so every run makes the same line."""

from __future__ import annotations

import json

import pytest
from cli_helpers import one_line_error, patience, patience_here

from solver import api
from solver.core import shorten
from solver.core.moves import Move

TT = 64
NODES = 30_000
CASES = [("klondike", 1, {}), ("klondike", 2, {"draw": 3}), ("windmill", 1, {}),
         ("windmill", 3, {"rules": "welford"}), ("great-wheel", 3, {}), ("beleaguered-castle", 5, {})]


def _fast(game, seed, **options):
    r = api.solve(game, seed, tt_mb=TT, line="fast", **options)
    assert r.won
    g, rules, position = api.make_deal(game, seed, **options)
    return g, rules, position, r.moves


def _off_foundations(moves):
    return [str(m.card) for m in moves if m.src.startswith("F") and m.card is not None]


@pytest.mark.parametrize("game, seed, options", CASES)
def test_shortened_lines_replay_and_are_never_longer(game, seed, options):
    g, rules, position, moves = _fast(game, seed, **options)
    s = shorten.shortened(g, position, rules, moves, nodes=NODES)
    assert s.verified and len(s.moves) <= len(moves)
    g.verify(position, rules, s.moves)


def test_beleaguered_castle_5_gets_much_shorter():
    g, rules, position, moves = _fast("beleaguered-castle", 5)
    s = shorten.shortened(g, position, rules, moves, nodes=NODES)
    assert len(moves) > 900 and len(s.moves) < 250  # the 6D no longer wanders
    assert s.contractions > 0


def test_klondike_15_loses_its_foundation_detours():
    g, rules, position, moves = _fast("klondike", 15)
    down = _off_foundations(moves)
    assert len(down) > len(set(down))  # as found: the same cards come down again and again
    s = shorten.shortened(g, position, rules, moves, nodes=NODES)
    short_down = _off_foundations(s.moves)
    assert len(short_down) == len(set(short_down)) and len(short_down) < len(down) // 2
    assert len(s.moves) < len(moves) - 40 and s.stock_saved > 0  # the stock re-planned


def _line(g, rules, position, moves):
    return shorten._Line(position, moves, list(g.positions(position, rules, moves)))


def _detour(g, rules, position, moves):
    """A line with one move c: A -> B played as c: A -> X, c: X -> B (both legal)."""
    line = _line(g, rules, position, moves)
    for i, m in enumerate(moves):
        if m.card is None or m.count != 1:
            continue
        p = line.positions[i]
        for x in g.legal_moves(p, rules):
            if x.card != m.card or x.dst in (m.dst, m.src):
                continue
            via = Move(x.dst, m.dst, m.card, 1)
            try:
                after = g.apply_move(g.apply_move(p, rules, x), rules, via)
            except ValueError:
                continue
            if after == line.positions[i + 1]:
                return [*moves[:i], x, via, *moves[i + 1:]]
    raise AssertionError("no detour to plant")


def _contracted(game, seed):
    """A won line with every contraction made (so what contracts next is planted)."""
    g, rules, position, moves = _fast(game, seed)
    line = _line(g, rules, position, moves)
    while shorten._contractions(g, rules, line, shorten.Budget(None)):
        pass
    return g, rules, position, line.moves


def test_a_contraction_fires():
    g, rules, position, moves = _contracted("beleaguered-castle", 5)
    assert shorten._contractions(g, rules, _line(g, rules, position, moves), shorten.Budget(None)) == 0
    planted = _detour(g, rules, position, moves)
    g.verify(position, rules, planted)
    line = _line(g, rules, position, planted)
    budget = shorten.Budget(NODES)
    assert shorten._contractions(g, rules, line, budget) >= 1
    assert len(line.moves) <= len(moves)
    g.verify(position, rules, line.moves)


def test_a_shortcut_fires():
    g, rules, position, moves = _contracted("beleaguered-castle", 5)
    planted = _detour(g, rules, position, moves)
    line = _line(g, rules, position, planted)
    assert shorten._shortcuts(g, rules, line, 1, shorten.Budget(NODES)) >= 1  # A -> B in one move
    assert len(line.moves) <= len(moves)
    g.verify(position, rules, line.moves)


def test_a_corrupted_splice_is_rejected(monkeypatch):
    g, rules, position, moves = _fast("beleaguered-castle", 5)
    splice = shorten._Line.splice

    def corrupt(self, i, k, new, after):  # a splice that puts its first move in backwards
        splice(self, i, k, new, after)
        if new:
            self.moves[i] = Move(new[0].dst, new[0].src, new[0].card, new[0].count)
    monkeypatch.setattr(shorten._Line, "splice", corrupt)
    with pytest.raises(ValueError):  # the rewritten line does not replay
        bad = shorten.shorten(g, position, rules, moves, nodes=NODES)
        g.verify(position, rules, bad.moves)
    s = shorten.shortened(g, position, rules, moves, nodes=NODES)
    assert not s.verified and s.moves == moves
    r = api.solve("beleaguered-castle", 5, tt_mb=TT, line="short", line_nodes=NODES)
    assert r.won and r.verified and r.moves == moves and r.line_found_length == len(moves)


def test_the_node_budget_is_kept():
    g, rules, position, moves = _fast("klondike", 15)
    for nodes in (0, 1, 500, 5000):
        s = shorten.shortened(g, position, rules, moves, nodes=nodes)
        assert s.nodes <= nodes + 1 and len(s.moves) <= len(moves)
    assert shorten.shortened(g, position, rules, moves, nodes=0).moves == moves


def test_api_line_modes():
    fast = api.solve("klondike", 15, tt_mb=TT)  # the library default: the line as found
    assert fast.line == "fast" and fast.line_found_length == len(fast.moves)
    short = api.solve("klondike", 15, tt_mb=TT, line="short", line_nodes=NODES)
    assert short.line == "short" and short.line_found_length == len(fast.moves) > len(short.moves)
    assert short.to_json()["line"] == "short" and short.to_json()["line_found_length"] == len(fast.moves)
    with pytest.raises(ValueError, match="line mode"):
        api.solve("klondike", 15, line="shortest")


def test_cli_line_option():
    short = json.loads(patience("solve", "klondike", "15", "--tt-mb", "64", "--json").stdout)
    fast = json.loads(patience("solve", "klondike", "15", "--tt-mb", "64", "--json", "--line", "fast").stdout)
    assert short["line"] == "short" and fast["line"] == "fast"  # the command's default: short
    assert short["line_found_length"] == fast["line_found_length"] == len(fast["moves"]) > len(short["moves"])
    assert "--line" in one_line_error(patience_here("solve", "klondike", "15", "--line", "shortest"))


def test_the_default_budget_grows_with_a_long_line_and_is_the_same_every_run():
    assert shorten.default_budget(175) == shorten.DEFAULT_NODES
    assert shorten.default_budget(943) == 943 * shorten.PER_MOVE > shorten.DEFAULT_NODES
    assert shorten.default_budget(12_130) == shorten.MOST_NODES
    g, rules, position, moves = _fast("beleaguered-castle", 5)
    first = shorten.shortened(g, position, rules, moves)
    assert first.nodes <= shorten.default_budget(len(moves)) + 1
    assert shorten.shortened(g, position, rules, moves).moves == first.moves  # work, not seconds
