"""A stricter preset's line is a line of the looser one: the fact benchmarks/restricted_lines.py uses.

Windmill ``strict`` is ``pysolfc`` with fewer moves, and Great Wheel ``pgs`` is ``pysolfc`` with
fewer moves, each on the same deal (their position.py).  Along seeded random walks of the
stricter preset's play from real and reduced deals, every legal move of the stricter preset is
legal under the looser one from the same table and makes the same table (Windmill strict's
``after_transfer``, its own memory of the last centre card, aside).  So a winning line of the
stricter preset replays under the looser one.  The relation goes one way only, and the check
can fail: a move of the looser preset that the stricter forbids is met (last test).
"""

from __future__ import annotations

import random

import pytest

from solver.games.great_wheel import reference as gw_reference
from solver.games.great_wheel.deals import gw_deal, reduced_deal
from solver.games.great_wheel.position import GWRules
from solver.games.windmill import reference as wm_reference
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules


def wm_table(position):
    """A Windmill position as pysolfc sees it (strict's after_transfer dropped)."""
    p = position.copy()
    p.after_transfer = False
    return p.key()


# name: (reference engine, stricter rules, looser rules, the table a position shows, deals)
PAIRS = {
    "windmill strict in pysolfc": (
        wm_reference, WindmillRules("strict"), WindmillRules("pysolfc"), wm_table,
        [windmill_deal(s, "pysolfc") for s in (1, 7, 19, 55)] + [windmill_deal(s, "pysolfc", 5, 4) for s in (3, 11)]),
    "great wheel pgs in pysolfc": (
        gw_reference, GWRules("pgs"), GWRules("pysolfc"), lambda p: p.key(),
        [gw_deal(s) for s in (1, 20, 220)] + [reduced_deal(s, 6, 4, 2) for s in range(1, 9)]),
}


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_every_strict_move_is_a_looser_move_with_the_same_result(pair):
    ref, strict, loose, table, deals = PAIRS[pair]
    checked = 0
    for n, p in enumerate(deals):
        rng = random.Random(n)
        for _ in range(400):
            moves = ref.legal_moves(p, strict)
            if not moves:
                break
            wider = ref.legal_moves(p, loose)
            for m in moves:
                assert m in wider, f"{pair}, deal {n}: {m} legal under {strict} only"
                assert table(ref.apply_move(p, strict, m)) == table(ref.apply_move(p, loose, m)), (pair, n, m)
                checked += 1
            p = ref.apply_move(p, strict, rng.choice(moves))
    assert checked > 200


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_a_looser_only_move_is_met_and_refused_by_the_stricter(pair):
    """Some line of the looser preset is not one of the stricter (the relation is one way)."""
    ref, strict, loose, _, deals = PAIRS[pair]
    for n, p in enumerate(deals):
        rng = random.Random(100 + n)
        for _ in range(3000):
            wider = ref.legal_moves(p, loose)
            extra = [m for m in wider if m not in ref.legal_moves(p, strict)]
            if extra:
                assert ref.why_illegal(p, strict, extra[0]) is not None
                return
            if not wider:
                break
            p = ref.apply_move(p, loose, rng.choice(wider))
    pytest.fail(f"{pair}: no move of the looser preset only was met on the walks")
