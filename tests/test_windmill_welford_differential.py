"""The welford kernel against the reference engine, position by position.

Positions: random walks (seeded, the same on every run) through full deals and reduced
ones (ranks 3..6, 1..4 sails), more than 1,000 positions in all.  At each:
- the kernel's children (every legal action, no pruning) equal the reference's
  children exactly (cards, suits, pile order, stock, waste, pass, pack-1 count);
- with the search's pruning on, the kernel's children give the same canonical
  positions (king piles of equal length are interchangeable, nothing else is cut);
- the kernel's packed keys of the children are equal exactly when the children's
  ``canonical()`` descriptions are (the key is exact up to the proven symmetries);
- perft (action sequences of length 2-3) agrees on a sample.
"""

from __future__ import annotations

import random

import numpy as np

from solver.games.windmill_welford import kernel as K
from solver.games.windmill_welford import reference as R
from solver.games.windmill_welford import searcher as S
from solver.games.windmill_welford.codec import encode, rules_array
from solver.games.windmill_welford.deals import welford_deal

CONFIGS = [(13, 4), (13, 4), (4, 2), (3, 1), (5, 3), (6, 4), (4, 4)]


def walk_positions(n_walks: int = 70, steps: int = 60, seed: int = 11):
    rng = random.Random(seed)
    out = []
    for w in range(n_walks):
        ranks, sails = CONFIGS[w % len(CONFIGS)]
        p = welford_deal(rng.randrange(1, 100000), ranks=ranks, sails=sails)
        for _ in range(rng.randrange(steps // 2, steps * 3)):
            out.append(p)
            kids = R.successors(p)
            if not kids:
                break
            # prefer card moves, so that walks reach deep positions (kings, centre)
            cardy = [k for k in kids if k.cards_home() > p.cards_home()]
            p = rng.choice(cardy if cardy and rng.random() < 0.7 else kids)
    return out


POSITIONS = walk_positions()


def test_enough_positions():
    assert len(POSITIONS) >= 1000
    # the walks reach the situations that matter
    assert any(p.redeals for p in POSITIONS)
    assert any(p.pack1 == 0 and not p.redeals for p in POSITIONS)
    assert any(any(len(k) == p.ranks for k in p.kings) for p in POSITIONS)
    assert any(p.centre > p.ranks for p in POSITIONS)


def test_children_equal_reference():
    for p in POSITIONS:
        ref = sorted(c.key() for c in R.successors(p))
        ker = sorted(c.key() for c in S.successors(p, prune=False))
        assert ker == ref, R.__name__ + f": {p}"


def test_pruned_children_same_canonical_set():
    for p in POSITIONS:
        ref = {c.canonical() for c in R.successors(p)}
        ker = [c.canonical() for c in S.successors(p, prune=True)]
        assert set(ker) == ref, p
        assert len(ker) == len(set(ker))  # the pruning removes exactly the duplicates


def test_every_move_ordering_and_noise_list_the_same_actions():
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    reordered = 0
    for p in POSITIONS[::2]:
        root, talon = encode(p)
        lists = []
        # every ordering, and orderings with the restarts' noise (seeds as the twin uses)
        for order, noise in [(o, 0) for o in range(K.ORDERS)] + [(0, 3), (1, 4), (3, 99)]:
            n = K.successors(root, (talon,), rules_array(p, True, order, noise), out)
            lists.append([bytes(out[x]) for x in range(n)])
        assert all(sorted(x) == sorted(lists[0]) for x in lists), p
        reordered += any(x != lists[0] for x in lists)
    assert reordered > 50


def _child_keys(p):
    root, talon = encode(p)
    r = rules_array(p, False)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    n = K.successors(root, (talon,), r, out)
    keys = np.zeros((n, K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(out[:n], (talon,), r, keys)
    return [tuple(int(x) for x in row) for row in keys], [S.successors(p)[i] for i in range(n)]


def test_keys_exact_up_to_symmetry():
    pairs_equal = 0
    for p in POSITIONS[::3]:
        keys, kids = _child_keys(p)
        for i in range(len(kids)):
            assert keys[i][2] >> 63 == 1  # the marker bit
            for j in range(i + 1, len(kids)):
                same_key = keys[i] == keys[j]
                assert same_key == (kids[i].canonical() == kids[j].canonical()), (p, kids[i], kids[j])
                pairs_equal += same_key
    assert pairs_equal > 0  # symmetric children (a King to either of two empty piles) occur


def test_perft_sample():
    for p in POSITIONS[::60]:
        for depth in (1, 2, 3):
            assert S.perft(p, depth) == R.perft(p, depth), p


def _key(p):
    root, talon = encode(p)
    out = np.zeros((1, K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(root.reshape(1, -1), (talon,), rules_array(p, True), out)
    return tuple(int(x) for x in out[0])


def test_key_distinguishes_the_pass():
    """Same cards everywhere, but one position may still turn the waste over: different keys
    (a field the random positions above rarely exercise)."""
    checked = 0
    for p in POSITIONS[::7]:
        if p.pack1 == 0 and p.redeals == 0 and p.waste:
            q = p.copy()
            q.redeals = 1
            q.validate()
            assert _key(p) != _key(q)
            if p.ranks <= 4:  # small enough to solve: turning over once more can only help
                assert (S.solve(q)[0] == "won") <= (S.solve(p)[0] == "won")
            checked += 1
    assert checked >= 10
