"""Brute force: the kernel's verdicts on small positions against an exhaustive search of
every legal action by the reference engine (exact positions, no symmetry, no pruning).

Small dealt games (ranks A..2 to A..5, 1 to 4 sails) are all won, so the positions are
taken along seeded random walks through such deals (a random walk often spoils a deal:
a king pile completed too early, a card buried in a sail), which gives both verdicts.
For every position:

    kernel verdict (search pruning on) == kernel verdict (pruning off)
                                       == reference.solve_exhaustive(...) is not None

and the kernel restarting in tiny phases through all its move orderings agrees too;
every won line -- the kernel's and the reference's -- replays to a win in the
reference engine.  The same set on every run.
"""

from __future__ import annotations

import random
from collections import Counter

from solver.games.windmill_welford import reference as R
from solver.games.windmill_welford import searcher as S
from solver.games.windmill_welford.deals import welford_deal

CONFIGS = [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 2), (4, 3), (5, 2)]
PER_CONFIG = 50


def positions():
    rng = random.Random(2024)
    for ranks, sails in CONFIGS:
        for i in range(PER_CONFIG):
            p = welford_deal(rng.randrange(1, 50000), ranks=ranks, sails=sails)
            for _ in range(0 if i < 5 else rng.randrange(0, 90)):
                kids = R.successors(p)
                if not kids:
                    break
                p = rng.choice(kids)
            yield (ranks, sails), p


def test_kernel_verdicts_equal_exhaustive_reference():
    tally: Counter = Counter()
    for cfg, p in positions():
        line = R.solve_exhaustive(p)
        verdict, kline, _ = S.solve(p, prune=True)
        plain, _, _ = S.solve(p, prune=False)
        # tiny Luby phases: the search restarts many times, through every move ordering
        phased, pline, _ = S.solve(p, unit=2)
        expected = "won" if line is not None else "lost"
        assert verdict == expected and plain == expected and phased == expected, (cfg, p)
        if line is not None:
            assert R.verify_win(p, line).is_won()
            assert R.verify_win(p, kline).is_won()
            assert R.verify_win(p, pline).is_won()
        tally[expected] += 1
    assert tally["won"] + tally["lost"] == len(CONFIGS) * PER_CONFIG
    assert tally["lost"] >= 40 and tally["won"] >= 40, tally


def test_full_deals_won_lines_replay():
    """Full deals that the kernel wins quickly: their lines replay, refills included."""
    wins = 0
    for seed in (5, 11, 12):
        p = welford_deal(seed)
        verdict, line, _ = S.solve(p, max_nodes=200_000)
        assert verdict == "won"
        assert R.verify_win(p, line).is_won()
        assert any(m.dst == "C5" for m in line)
        wins += 1
    assert wins == 3
