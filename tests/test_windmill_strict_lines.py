"""A strict Windmill line is a pysolfc line: the fact benchmarks/windmill_strict_lines.py uses.

Strict is pysolfc with fewer moves on the same deal (position.py).  Along seeded random walks
of strict play from real deals (and reduced ones), every strict legal move is legal under
pysolfc from the same table, and makes the same table (``after_transfer``, strict's own
memory of the last centre card, aside).  So a strict winning line replays under pysolfc; a
strict line with a pysolfc-only move in it would not, and the check can fail (last test).
"""

from __future__ import annotations

import random

import pytest

from solver.games.windmill import reference
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules

STRICT, PYSOLFC = WindmillRules("strict"), WindmillRules("pysolfc")


def table(position):
    """The position as pysolfc sees it (strict's after_transfer dropped)."""
    p = position.copy()
    p.after_transfer = False
    return p.key()


@pytest.mark.parametrize("seed,ranks,cells", [(s, 13, 8) for s in (1, 7, 19, 55)] + [(s, 5, 4) for s in (3, 11)])
def test_every_strict_move_is_a_pysolfc_move_with_the_same_result(seed, ranks, cells):
    rng = random.Random(seed)
    p = windmill_deal(seed, "pysolfc", ranks, cells)
    checked = 0
    for _ in range(400):
        moves = reference.legal_moves(p, STRICT)
        if not moves:
            break
        loose = reference.legal_moves(p, PYSOLFC)
        for m in moves:
            assert m in loose, f"seed {seed}: strict move {m} not legal under pysolfc"
            assert table(reference.apply_move(p, STRICT, m)) == table(reference.apply_move(p, PYSOLFC, m))
            checked += 1
        p = reference.apply_move(p, STRICT, rng.choice(moves))
    assert checked > 50


def test_a_pysolfc_only_move_fails_the_strict_replay():
    """Some pysolfc line is not a strict line (the relation goes one way only)."""
    rng = random.Random(5)
    p = windmill_deal(2, "pysolfc")
    for _ in range(3000):
        loose = reference.legal_moves(p, PYSOLFC)
        extra = [m for m in loose if m not in reference.legal_moves(p, STRICT)]
        if extra:
            assert reference.why_illegal(p, STRICT, extra[0]) is not None
            return
        if not loose:
            break
        p = reference.apply_move(p, PYSOLFC, rng.choice(loose))
    pytest.fail("no pysolfc-only move met on the walk")
