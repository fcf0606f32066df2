"""The stock-empty merge of the Windmill key (kernel docstring, part 2), tested.

Once the stock is empty, which available card is the waste top does not matter: the
kernel stores a position under its cells plus waste top as one multiset.  Here the
reference engine's exhaustive search (exact positions, no merge) confirms that swapping
the waste top with a cell card keeps the game value when the stock is empty, and a
position with a stock shows why the merge waits for the stock to run out.
"""

import random

import pytest

from solver.cards import Card
from solver.games.windmill import reference as ref
from solver.games.windmill import searcher as S
from solver.games.windmill.codec import encode, rules_array
from solver.games.windmill.position import WindmillPosition, WindmillRules
from solver.search import Limits, drive

from windmill_helpers import random_position


def _swap_top(p: WindmillPosition, i: int) -> WindmillPosition:
    q = p.copy()
    q.cells[i], q.waste[-1] = q.waste[-1], q.cells[i]
    return q


def _key(p: WindmillPosition, rules: WindmillRules):
    """The kernel's key of p as a search root (waste at sequence positions 0..len-1)."""
    row, seq = encode(p, rules)
    return S.row_keys(row[None, :], seq, rules_array(p, rules, True))[0]


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_swapping_the_waste_top_with_a_cell_keeps_the_value_once_the_stock_is_empty(preset):
    rules = WindmillRules(preset)
    rng = random.Random(21)
    checked = lost = 0
    while checked < 60:
        p = random_position(rng, rng.randrange(2, 4), rng.randrange(1, 4))
        p.waste = p.stock + p.waste  # the stock's cards put under the waste: a stock-empty position
        p.stock = []
        i = rng.randrange(len(p.cells))
        if p.cells[i].rank == p.waste[-1].rank:
            continue
        q = _swap_top(p, i)
        a = ref.solve_exhaustive(p, rules, 20_000)
        b = ref.solve_exhaustive(q, rules, 20_000)
        if a is None or b is None:
            continue
        assert a == b, (p, q)
        assert _key(p, rules) == _key(q, rules)  # the same waste below the top: one key
        checked += 1
        lost += not a
        for x in (p, q):
            out = drive(S.WindmillSearch(x, rules, 4), Limits(max_nodes=2_000_000, tt_mb=4))
            assert out.verdict == ("won" if a else "lost")
            if a:
                ref.verify_win(x, rules, out.line)
    assert lost >= 3, "the sample must contain lost positions"


def test_the_key_merges_the_waste_top_only_when_the_stock_is_empty():
    rules = WindmillRules("pysolfc")
    R = 4
    pool = {r: [Card(r, s) for s in range(4)] * 2 for r in range(1, R + 1)}

    def take(*ranks):
        return [pool[r].pop() for r in ranks]

    # doc study: won with a stock of (3, 2); swapping the waste-top 2 with the cell 4 loses it
    centre = take(*[j % R + 1 for j in range(6)])
    kings = [take(*[R - j for j in range(L)]) for L in (3, 4, 4, 4)]
    p = WindmillPosition(take(3, 2), take(3, 1, 1, 1, 4, 3, 4, 2), take(4), centre, kings, R)
    p.validate()
    q = _swap_top(p, 0)
    assert ref.solve_exhaustive(p, rules, 1_000_000) is True
    assert ref.solve_exhaustive(q, rules, 1_000_000) is False
    assert _key(p, rules) != _key(q, rules)
    # with the stock's cards put under the waste (same top), the swap no longer changes the key
    for x in (p, q):
        x.waste = x.stock + x.waste
        x.stock = []
    assert _key(p, rules) == _key(q, rules)
