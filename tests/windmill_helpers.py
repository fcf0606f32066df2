"""Shared helpers of the Windmill tests: random positions, random walks."""

from __future__ import annotations

import random
from collections import Counter

from solver.core.cards import Card
from solver.games.windmill import reference as ref
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillPosition, WindmillRules


def random_position(rng: random.Random, R: int, C: int) -> WindmillPosition:
    """A valid (not necessarily reachable) position: random foundations, the rest shuffled."""
    while True:
        cl = rng.randrange(1, 4 * R + 1)
        kl = [rng.randrange(0, R + 1) for _ in range(4)]
        need: Counter = Counter()
        for j in range(cl):
            need[j % R + 1] += 1
        for L in kl:
            for j in range(L):
                need[R - j] += 1
        if all(v <= 8 for v in need.values()) and cl + sum(kl) < 8 * R - C - 1:
            break
    pool = [Card(r, s) for s in range(4) for r in range(1, R + 1)] * 2
    rng.shuffle(pool)

    def take(rank: int) -> Card:
        for i, c in enumerate(pool):
            if c.rank == rank:
                return pool.pop(i)
        raise AssertionError

    centre = [take(j % R + 1) for j in range(cl)]
    kings = [[take(R - j) for j in range(L)] for L in kl]
    cells = [pool.pop() for _ in range(C)]
    w = rng.randrange(1, len(pool) + 1)
    p = WindmillPosition(pool[w:], pool[:w], cells, centre, kings, R)
    p.validate()
    return p


def random_walk(p: WindmillPosition, rules: WindmillRules, rng: random.Random, steps: int) -> list[WindmillPosition]:
    """The positions met on a random walk of legal moves (reference engine)."""
    out = [p]
    for _ in range(steps):
        moves = ref.legal_moves(p, rules)
        if not moves:
            break
        p = ref.apply_move(p, rules, rng.choice(moves))
        out.append(p)
    return out


def reachable_sample(rules: WindmillRules, n: int, seed: int) -> list[WindmillPosition]:
    """n positions from random walks on full and reduced deals (deterministic)."""
    rng = random.Random(seed)
    out: list[WindmillPosition] = []
    deal_no = 1
    while len(out) < n:
        if deal_no % 3 == 0:
            start = windmill_deal(deal_no, ranks=rng.randrange(2, 6), cells=rng.randrange(1, 9))
        else:
            start = windmill_deal(deal_no)
        deal_no += 1
        out.extend(random_walk(start, rules, rng, rng.randrange(20, 200))[1::3])
    return out[:n]
