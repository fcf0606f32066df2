"""The symbolic search (research/windmill_symbolic) against the reference engine.

Run: PYTHONPATH=. .venv/bin/pytest -q research/windmill_symbolic/tests
(outside the suite's testpaths: a study, and it needs the ``dd`` package).
The full golden agreement (all 1,369 cases, minutes) is
``python -m research.windmill_symbolic.golden_agreement``; here the cases whose
sequence has at most 11 cards (several hundred per preset) and a layer-by-layer check.
"""
import pytest

pytest.importorskip("dd.cudd")

from solver.games.windmill.position import WindmillRules  # noqa: E402

from research.windmill_symbolic.check import explicit_layers, golden_cases, symbolic_layers  # noqa: E402
from research.windmill_symbolic.symbolic import MUTATIONS, ORDERS, Model  # noqa: E402

SMALL = 11


def _small(preset):
    return [(p, won) for p, pr, won in golden_cases(preset)
            if len(p.waste) + len(p.stock) <= SMALL]


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_verdicts_equal_the_exhaustive_reference(preset):
    cases = _small(preset)
    assert len(cases) >= 300
    assert sum(not w for _, w in cases) >= 10
    rules = WindmillRules(preset)
    for p, won in cases:
        assert Model(p, rules).solve(counts=False).verdict == ("won" if won else "lost")


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_layers_equal_the_reference_layers(preset):
    """Each layer's positions, as rank-level positions, equal those of an explicit search
    through the reference engine (not only the verdict)."""
    rules = WindmillRules(preset)
    cases = [p for p, _ in _small(preset)][::6][:50]
    checked = 0
    for p in cases:
        ex = explicit_layers(p, rules, 50_000)
        if ex is None:
            continue
        _, sy = symbolic_layers(p, rules)
        for t in set(ex) | set(sy):
            assert ex.get(t, set()) == sy.get(t, set()), (t, preset)
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("order", ORDERS)
def test_orders_agree(order):
    rules = WindmillRules("pysolfc")
    for p, won in _small("pysolfc")[:60]:
        assert Model(p, rules, order=order).solve(counts=False).verdict == ("won" if won else "lost")


def _caught(mutation):
    for preset in ("pysolfc", "strict"):
        rules = WindmillRules(preset)
        cases = _small(preset)
        for p, won in cases:
            if Model(p, rules, mutation=mutation).solve(counts=False).verdict != ("won" if won else "lost"):
                return True
        for p, _ in cases[::6][:50]:
            ex = explicit_layers(p, rules, 50_000)
            if ex is None:
                continue
            _, sy = symbolic_layers(p, rules, mutation=mutation)
            if any(ex.get(t, set()) != sy.get(t, set()) for t in set(ex) | set(sy)):
                return True
    return False


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_each_mutation_is_caught(mutation):
    assert _caught(mutation)
