"""Why the Windmill kernel plays no card to a foundation by force (kernel docstring).

Full-deck positions, found by a brute-force study of small games and checked here with
the reference engine's exhaustive search: each is won, and playing the tempting King to
a foundation loses it.  The kernel must find the win in each parent, so a "safe move"
added to it by mistake fails here.
"""

import pytest

from solver.core.cards import Card
from solver.games.windmill import reference as ref
from solver.games.windmill.position import WindmillPosition, WindmillRules
from solver.games.windmill.searcher import WindmillSearch
from solver.core.moves import Move
from solver.engine.search import Limits, drive
from solver.engine.resources import tables


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of 16 MB (resources.tables)."""
    with tables(16):
        yield

RULES = WindmillRules("pysolfc")
R = 13


def _position(stock, waste, king_pile_empty):
    """Cells K J T 9 8 7 6 5 and three complete king piles; either the centre needs a K
    and the fourth king pile is [K], or the centre is complete and the fourth is empty."""
    pool = {r: [Card(r, s) for s in range(4)] * 2 for r in range(1, R + 1)}

    def take(r):
        return pool[r].pop()

    full = [[take(R - j) for j in range(R)] for _ in range(3)]
    if king_pile_empty:
        centre = [take(j % R + 1) for j in range(4 * R)]
        kings = [[]] + full
    else:
        centre = [take(j % R + 1) for j in range(4 * R - 1)]
        kings = [[take(R)]] + full
    cells = [take(r) for r in (13, 11, 10, 9, 8, 7, 6, 5)]
    p = WindmillPosition([take(r) for r in stock], [take(r) for r in waste], cells, centre, kings, R)
    p.validate()
    return p


@pytest.mark.parametrize("stock, waste", [([], [12, 4, 3, 2, 1]), ([4], [12, 3, 2, 1])])
@pytest.mark.parametrize("king_pile_empty", [False, True])
def test_playing_a_king_home_can_lose_a_won_position(stock, waste, king_pile_empty):
    parent = _position(stock, waste, king_pile_empty)
    play = Move("C1", "K1" if king_pile_empty else "centre", parent.cells[0], 1)
    child = ref.apply_move(parent, RULES, play)
    assert ref.solve_exhaustive(parent, RULES, 3_000_000) is True
    assert ref.solve_exhaustive(child, RULES, 3_000_000) is False
    out = drive(WindmillSearch(parent, RULES), Limits(max_nodes=2_000_000))
    assert out.verdict == "won"
    ref.verify_win(parent, RULES, out.line)
    assert drive(WindmillSearch(child, RULES), Limits(max_nodes=2_000_000)).verdict == "lost"
