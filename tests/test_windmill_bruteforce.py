"""Brute force: kernel verdicts (with and without pruning) equal the reference's exhaustive verdicts.

The reference verdicts are in tests/golden/windmill_bruteforce.json: reduced games (two
packs of ranks A..2, 3 or 4 on 1 to 3 cells), every fifth one a numbered deal
(``windmill_deal(n, ranks, cells)``), the rest random valid positions with random
foundations (``windmill_helpers.random_position``), which lose more often.  They were
computed by ``reference.solve_exhaustive`` (no pruning, no symmetry, exact position
keys), whose pysolfc searches take up to minutes each, too slow for every run; a sample
is recomputed here so the file cannot drift from the reference.
"""

import json
import random
from pathlib import Path

import pytest

from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import WindmillSearch, restarts
from solver.engine.search import Limits, drive
from solver.engine.resources import tables


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of 4 MB (resources.tables)."""
    with tables(4):
        yield

GOLDEN = json.loads((Path(__file__).parent / "golden" / "windmill_bruteforce.json").read_text())


def _kernel(position, rules, prune, order=0, noise=0, unit=None):
    """The verdict of one DFS (order, noise), or with ``unit`` of Luby restarts alone."""
    if unit is None:
        s = WindmillSearch(position, rules, prune=prune, order=order, noise=noise)
    else:
        s = restarts(position, rules, prune=prune, unit=unit)
    out = drive(s, Limits(max_nodes=5_000_000))
    if out.verdict == "won":
        ref.verify_win(position, rules, out.line)
    return out.verdict


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_kernel_matches_reference(preset):
    rules = WindmillRules(preset)
    cases = [(position_from_json(g["deal"]), g["won"]) for g in GOLDEN if g["preset"] == preset]
    assert len(cases) >= 300
    lost = sum(not won for _, won in cases)
    assert lost >= 10, "the sample must contain lost positions"
    for position, won in cases:
        want = "won" if won else "lost"
        # each move order alone, with and without pruning, shuffled, and restarts
        # abandoned every few nodes (a loss only from a phase that exhausted the space)
        assert _kernel(position, rules, True) == want, position_to_text(position)
        assert _kernel(position, rules, False, order=0) == want, position_to_text(position)
        assert _kernel(position, rules, True, order=1) == want, position_to_text(position)
        assert _kernel(position, rules, True, order=1, noise=7) == want, position_to_text(position)
        assert _kernel(position, rules, True, unit=4) == want, position_to_text(position)


def position_to_text(p):
    from solver.games.windmill.dealfile import position_to_json
    return json.dumps(position_to_json(p))


def test_strict_wins_are_pysolfc_wins():
    by_deal = {}
    for g in GOLDEN:
        by_deal.setdefault(json.dumps(g["deal"], sort_keys=True), {})[g["preset"]] = g["won"]
    pairs = [v for v in by_deal.values() if len(v) == 2]
    assert len(pairs) >= 200
    assert all(v["pysolfc"] for v in pairs if v["strict"])
    assert any(v["pysolfc"] and not v["strict"] for v in pairs)  # the presets do differ


def test_golden_sample_recomputed_by_the_reference():
    rng = random.Random(7)
    small = [g for g in GOLDEN if g["deal"].get("ranks") == 2 and len(g["deal"]["cells"]) == 1]
    lost = [g for g in small if not g["won"] and g["preset"] == "strict"]
    won = [g for g in small if g["won"] and g["preset"] == "strict"]
    sample = rng.sample(won, min(10, len(won))) + lost[:3]
    assert sample
    for g in sample:
        p = position_from_json(g["deal"])
        assert ref.solve_exhaustive(p, WindmillRules(g["preset"]), 150_000) is g["won"]
