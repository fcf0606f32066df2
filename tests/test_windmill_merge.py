"""The stock-empty merge of the Windmill key (kernel docstring, part 2), tested.

Once the stock is empty, which available card is the waste top does not matter: the
kernel stores a position under its cells plus waste top as one multiset.  Here the
reference engine's exhaustive search (exact positions, no merge) confirms that swapping
the waste top with a cell card keeps the game value when the stock is empty, and a
position with a stock shows why the merge waits for the stock to run out.
"""

import random

import pytest

from solver.core.cards import Card
from solver.games.windmill import reference as ref
from solver.games.windmill import searcher as S
from solver.games.windmill.codec import encode, rules_array
from solver.games.windmill.position import WindmillPosition, WindmillRules
from solver.engine.search import Limits, drive

from windmill_helpers import random_position
from solver.engine.resources import tables


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of 4 MB (resources.tables)."""
    with tables(4):
        yield


def _pool(R: int):
    """take(*ranks): cards of those ranks from two packs of ranks A..R."""
    pool = {r: [Card(r, s) for s in range(4)] * 2 for r in range(1, R + 1)}

    def take(*ranks):
        return [pool[r].pop() for r in ranks]

    return pool, take


def _empty_the_stock(p: WindmillPosition) -> None:
    """Put the stock's cards under the waste: a valid stock-empty position, same waste top."""
    p.waste = p.stock + p.waste
    p.stock = []


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
        _empty_the_stock(p)
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
            out = drive(S.WindmillSearch(x, rules), Limits(max_nodes=2_000_000))
            assert out.verdict == ("won" if a else "lost")
            if a:
                ref.verify_win(x, rules, out.line)
    assert lost >= 3, "the sample must contain lost positions"


def test_the_key_merges_the_waste_top_only_when_the_stock_is_empty():
    rules = WindmillRules("pysolfc")
    R = 4
    _, take = _pool(R)

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
        _empty_the_stock(x)
    assert _key(p, rules) == _key(q, rules)


def _fields(key):
    """The key's fields, read back from the bit layout in the kernel docstring."""
    bits = sum(int(w) << (64 * i) for i, w in enumerate(key))

    def get(off, width):
        return (bits >> off) & ((1 << width) - 1)

    return dict(mask=get(0, 104), turned=get(104, 7), clen=get(111, 6), flag=get(117, 1),
                ranks=[get(128 + 4 * i, 4) for i in range(9)], kings=[get(164 + 4 * k, 4) for k in range(4)],
                marker=get(191, 1), spare=get(118, 10) | get(180, 11))


def test_the_key_layout_holds_a_waste_top_king_beside_the_king_lengths():
    rules = WindmillRules("pysolfc")
    pool, take = _pool(13)

    centre = take(*[j % 13 + 1 for j in range(20)])
    kings = [take(*[13 - j for j in range(L)]) for L in (13, 2, 0, 5)]
    cells = take(12, 3, 12, 7, 1, 9, 4, 11)
    rest = [c for r in range(1, 14) for c in pool[r] if r != 13] + pool[13]  # the last Kings on top
    p = WindmillPosition([], rest, cells, centre, kings, 13)
    p.validate()
    assert p.waste[-1].rank == 13 and not p.stock
    f = _fields(_key(p, rules))
    assert f["ranks"] == sorted([12, 3, 12, 7, 1, 9, 4, 11, 13])  # the merged King is the 9th, 13
    assert f["kings"] == [0, 2, 5, 13]
    assert (f["turned"], f["clen"], f["flag"], f["marker"], f["spare"]) == (len(rest), 20, 0, 1, 0)
    assert f["mask"] == (1 << (len(rest) - 1)) - 1  # every waste position but the top
    p.stock, p.waste = p.waste[:1], p.waste[1:]  # one card left in the stock: no merge
    f = _fields(_key(p, rules))
    assert f["ranks"] == [0] + sorted([12, 3, 12, 7, 1, 9, 4, 11]) and f["kings"] == [0, 2, 5, 13]
    assert f["mask"] == (1 << (len(rest) - 1)) - 1 and f["turned"] == len(rest) - 1


def _tau(p: WindmillPosition):
    """What the merged key keeps, written from the rules (stock empty)."""
    available = [0 if c is None else c.rank for c in p.cells]
    waste = [c.rank for c in p.waste]
    if waste:
        available.append(waste.pop())
    return (tuple(waste), tuple(sorted(available)), len(p.centre), tuple(sorted(len(k) for k in p.kings)),
            p.after_transfer)


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_the_merge_is_a_one_step_bisimulation_of_the_reference_rules(preset):
    """Permuting the cells and the waste top (and the king piles) of a stock-empty
    position leaves the set of its successors' classes unchanged, move by move of the
    reference engine."""
    rules = WindmillRules(preset)
    rng = random.Random(3)
    kinds = set()
    for _ in range(300):
        p = random_position(rng, rng.randrange(2, 6), rng.randrange(1, 9))
        _empty_the_stock(p)
        for _ in range(rng.randrange(0, 12)):
            moves = ref.legal_moves(p, rules)
            if not moves:
                break
            p = ref.apply_move(p, rules, rng.choice(moves))
        p.after_transfer = rules.strict and rng.random() < 0.3
        q = p.copy()
        if q.waste:
            available = q.cells + [q.waste[-1]]
            rng.shuffle(available)
            q.cells, q.waste[-1] = available[:-1], available[-1]
        else:
            rng.shuffle(q.cells)
        rng.shuffle(q.kings)
        q.validate()
        assert _tau(p) == _tau(q)
        assert {_tau(x) for x in ref.successors(p, rules)} == {_tau(x) for x in ref.successors(q, rules)}
        kinds.add(min(len(p.waste), 2))
    assert kinds == {0, 1, 2}  # empty, one-card and longer wastes all met
