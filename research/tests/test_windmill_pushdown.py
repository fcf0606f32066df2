"""The exact pushdown solver (research/windmill/pushdown.py) against the reference.

Verdicts must equal the reference engine's exhaustive search (``reference.solve_exhaustive``:
no pruning, no symmetry, exact position keys) on hundreds of small games per preset:
the golden verdicts of tests/golden/windmill_bruteforce.json (computed by it; its
ranks-2 games here) and positions solved by it during the test.  Every won line is
replayed by the reference engine (``decide`` replays it too).
"""

import json
import random
from pathlib import Path

import pytest

from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from research.windmill.pushdown import PROOF, PushdownLimits, decide
from windmill_helpers import random_position

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "tests" / "golden" / "windmill_bruteforce.json").read_text())
SMALL = [g for g in GOLDEN if g["deal"].get("ranks") == 2]


def _check(position, rules, want: str) -> str:
    r = decide(position, rules)
    assert r.verdict == want, (want, r.verdict, json.dumps(r.stats)[:200])
    if want == "won":
        ref.verify_win(position, rules, r.line)
    else:
        assert r.proof == PROOF and r.line == []
    return r.verdict


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_golden_reference_verdicts(preset):
    rules = WindmillRules(preset)
    cases = [(position_from_json(g["deal"]), g["won"]) for g in SMALL if g["preset"] == preset]
    assert len(cases) >= 250
    assert sum(not won for _, won in cases) >= 4, "the sample must contain lost games"
    for position, won in cases:
        _check(position, rules, "won" if won else "lost")


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_live_reference_verdicts(preset):
    """Random positions (random foundations, more losses at 3 ranks), solved here by the
    reference's exhaustive search."""
    rules = WindmillRules(preset)
    rng = random.Random(22)
    verdicts = []
    while len(verdicts) < 60:
        p = random_position(rng, rng.choice((2, 3)), rng.randrange(1, 3))
        want = ref.solve_exhaustive(p, rules, 20_000)  # larger ones are skipped (slow here)
        if want is not None:
            verdicts.append(_check(p, rules, "won" if want else "lost"))
    assert "lost" in verdicts and "won" in verdicts


def test_lost_games_with_a_stock_are_proven_lost():
    """Golden losses (the reference's exhaustive verdicts, 5 to 30 s each to recompute)
    whose stock and waste are not empty: the proof runs through frame summaries."""
    cases = [g for g in GOLDEN if not g["won"] and g["deal"]["ranks"] >= 3 and len(g["deal"]["stock"]) >= 2]
    assert len(cases) >= 10
    for g in cases:
        r = decide(position_from_json(g["deal"]), WindmillRules(g["preset"]))
        assert (r.verdict, r.reason, r.proof, r.line) == ("lost", None, PROOF, [])
        assert r.stats["entries"] > 0


AUTO_TURN = {"stock": ["2S", "2C", "AC", "AH", "AD"], "waste": ["3H"], "cells": ["2H"],
             "centre": ["AH", "2D", "3D", "AD", "2S", "3S", "AS", "2H", "3D", "AS", "2C", "3H"],
             "king piles": [["3S", "2D", "AC"], [], ["3C"], ["3C"]], "ranks": 3}


def test_a_win_that_needs_the_automatic_turn():
    """Strict: every win of this position empties the waste while the stock is not empty
    (the game then turns a card by itself); without that turn the solver said lost."""
    p, rules = position_from_json(AUTO_TURN), WindmillRules("strict")
    assert ref.solve_exhaustive(p, rules, 100_000) is True
    _check(p, rules, "won")


def test_strict_won_implies_pysolfc_won():
    deals = {json.dumps(g["deal"], sort_keys=True) for g in SMALL}
    pairs = []
    for d in sorted(deals)[:120]:
        p = position_from_json(json.loads(d))
        pairs.append((decide(p, WindmillRules("strict")).verdict, decide(p, WindmillRules("pysolfc")).verdict))
    assert all(pf == "won" for st, pf in pairs if st == "won")
    assert sum(st == "won" for st, _ in pairs) >= 100


def test_pysolfc_foundation_classes_merge():
    """The pysolfc reduction (positions whose foundations differ by transfers are one
    control) fires: a class holds several foundation configurations."""
    r = decide(windmill_deal(3, ranks=2, cells=2), WindmillRules("pysolfc"))
    assert r.verdict == "won" and r.stats["largest_foundation_class"] > 1
    r = decide(windmill_deal(3, ranks=2, cells=2), WindmillRules("strict"))
    assert r.stats["largest_foundation_class"] == 1


def test_limits_give_unknown_with_reason():
    p = windmill_deal(2)
    r = decide(p, WindmillRules("pysolfc"), PushdownLimits(max_states=2000))
    assert (r.verdict, r.reason, r.proof) == ("unknown", "state-limit", None)
    r = decide(p, WindmillRules("pysolfc"), PushdownLimits(timeout=0.05))
    assert (r.verdict, r.reason) == ("unknown", "time-limit")


def test_welford_is_refused():
    with pytest.raises(ValueError, match="pysolfc and strict"):
        decide(windmill_deal(1, ranks=2, cells=2), WindmillRules("welford"))
