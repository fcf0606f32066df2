"""Great Wheel brute force: on small positions the kernel's verdict, with and without
its pruning, equals the reference engine's exhaustive search; every won line replays;
and every deal won under ``pgs`` is won under ``pysolfc`` (which only adds moves).

The small positions are late games of the full deck (``endgame_deal``: a few cards off
the foundations, dealt again to 1-2 piles) -- they use every rule of the full game, and
their state spaces are small -- and deals of the reduced decks A..1 and A..2."""

from __future__ import annotations

import pytest

from solver.games.great_wheel import reference as R
from solver.games.great_wheel.deals import endgame_deal, gw_deal, reduced_deal
from solver.games.great_wheel.position import GWRules
from solver.games.great_wheel.searcher import GWSearch
from solver.core.result import LOST, WON
from solver.engine.search import Limits, drive
from solver.engine.resources import tables


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of 8 MB (resources.tables)."""
    with tables(8):
        yield

CONFIGS = [(9, 1, 4), (12, 1, 3), (8, 1, 4), (10, 2, 2), (11, 1, 4)]


def small_deals(n: int) -> list:
    deals = []
    for seed in range(n):
        out, piles, fill = CONFIGS[seed % len(CONFIGS)]
        deals.append(endgame_deal(1000 + seed, out, piles, fill))
    for seed in range(n // 10):
        deals.append(reduced_deal(seed, 1, 1 + seed % 3, 1 + seed % 2))
        deals.append(reduced_deal(seed, 2, 3, 4))
    return deals


def kernel_verdict(position, rules, prune):
    out = drive(GWSearch(position, rules, prune=prune), Limits(max_nodes=2_000_000))
    if out.verdict == WON:
        R.verify_win(position, rules, out.line)
    return out.verdict


@pytest.mark.parametrize("preset,n", [("pgs", 300), ("pysolfc", 150)])
def test_kernel_equals_exhaustive(preset, n):
    rules = GWRules(preset)
    decided = {True: 0, False: 0}
    for position in small_deals(n):
        truth = R.solve_exhaustive(position, rules, max_states=20_000)
        if truth is None:
            continue
        decided[truth] += 1
        want = WON if truth else LOST
        for prune in (True, False):
            assert kernel_verdict(position, rules, prune) == want, (preset, prune, position)
    assert decided[True] >= n // 2 and decided[False] >= n // 20, decided


def test_pgs_wins_are_pysolfc_wins():
    pgs, pysolfc = GWRules("pgs"), GWRules("pysolfc")
    lost_pgs = won_only_pysolfc = 0
    for position in small_deals(400)[:400]:
        a = kernel_verdict(position, pgs, True)
        b = kernel_verdict(position, pysolfc, True)
        assert not (a == WON and b != WON), position
        lost_pgs += a == LOST
        won_only_pysolfc += a == LOST and b == WON
    assert lost_pgs >= 25
    assert won_only_pysolfc >= 1  # returns from the foundations do win some deals


@pytest.mark.parametrize("seed", [3, 5, 6, 9, 10, 12])
def test_full_deals_won_under_pgs_are_won_under_pysolfc(seed):
    for preset in ("pgs", "pysolfc"):
        assert kernel_verdict(gw_deal(seed), GWRules(preset), True) == WON
