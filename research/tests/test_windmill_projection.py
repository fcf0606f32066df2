"""Rank projections of Windmill (research/windmill/projection.py) against the reference.

* The projection's solver (the pushdown solver with a blank) equals a plain exhaustive
  search of the projected game built on the reference engine (its moves plus the
  discard of a blank) on small games.
* Soundness by brute force: no projection of a game that the reference engine's
  exhaustive search calls won (tests/golden/windmill_bruteforce.json, all of its games,
  both presets) is lost; the proof fires on some lost ones.
* The checks can fail: a deletion of the dropped cards (cells refilled) and a
  projection whose blanks cannot be discarded are caught as unsound.
"""

import json
from itertools import combinations
from pathlib import Path

import pytest

from solver.core.cards import Card
from research.windmill import projection as P
from research.windmill import pushdown as pd
from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.position import WindmillPosition, WindmillRules

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "tests" / "golden" / "windmill_bruteforce.json").read_text())


def projections(ranks: int, preset: str) -> list[P.Projection]:
    """Every sound proper projection of a game of ``ranks`` ranks for a ``preset`` deal:
    its own preset's and (strict deals) the pysolfc ones, which prove strict losses too."""
    out = []
    for k in range(ranks - 1):
        for keep in combinations(range(2, ranks + 1), k):
            keep = (1, *keep)
            out.append(P.Projection(keep, "pysolfc"))
            if preset == "strict" and keep[-1] == ranks:
                out.append(P.Projection(keep, "strict"))
    return out


def as_position(q) -> WindmillPosition:
    """A projected position as a reference position: blanks are cards of rank k + 1."""
    def card(r):
        return None if r is None else Card(r, 0)
    return WindmillPosition([card(r) for r in q.stock], [card(r) for r in q.waste], [card(r) for r in q.cells],
                            [card(r) for r in q.centre], [[card(r) for r in k] for k in q.kings], q.ranks,
                            q.after_transfer)


def projected_children(p: WindmillPosition, rules: WindmillRules):
    """The projected game's moves, plainly: the reference engine's (it never moves a card
    of rank k + 1) and the discard of a blank from a cell or the waste top."""
    yield from ref.successors(p, rules)
    blank = p.ranks + 1
    for i, c in enumerate(p.cells):
        if c is not None and c.rank == blank:
            new = p.copy()
            new.cells[i] = None
            ref._refill(new)
            new.after_transfer = False
            yield new
    if p.waste and p.waste[-1].rank == blank:
        new = p.copy()
        new.waste.pop()
        ref._refill(new)
        new.after_transfer = False
        yield new


def reference_projected(position: WindmillPosition, proj: P.Projection, max_states: int = 200_000):
    from solver.games import reference_search
    q = as_position(P.project(position, proj))
    rules = WindmillRules(proj.preset)
    return reference_search.solve_exhaustive(lambda p: projected_children(p, rules), q, max_states)


CAP = pd.PushdownLimits(max_states=3000)  # larger projections are left unknown (a few minutes otherwise)


def blank_projection(position, proj) -> str:
    return P.decide(position, WindmillRules(proj.preset), proj, CAP).verdict


def deletion_projection(position, proj) -> str:
    """Unsound on purpose: the dropped cards deleted and the cells refilled from the waste."""
    return pd.decide(P.deletion(position, proj.keep), WindmillRules(proj.preset)).verdict


class _NoDiscard(P._BlankSolver):
    def _raw_moves(self, f):
        plays, transfers = super()._raw_moves(f)
        return plays[:-1] + [[]], transfers


def no_discard_projection(position, proj) -> str:
    """Unsound on purpose: blanks never leave."""
    real = P._BlankSolver
    P._BlankSolver = _NoDiscard
    try:
        return blank_projection(position, proj)
    finally:
        P._BlankSolver = real


def unsound(cases, decide_projection, stop_at_first: bool = False):
    """(won cases with a lost projection, lost cases with one, projections decided)."""
    bad, fired, n = [], [], 0
    for g in cases:
        p = position_from_json(g["deal"])
        lost = []
        for proj in projections(p.ranks, g["preset"]):
            verdict = decide_projection(p, proj)
            n += verdict != "unknown"
            if verdict == "lost":
                lost.append(proj)
                if stop_at_first:
                    break
        if lost and g["won"]:
            bad.append((g, lost))
            if stop_at_first:
                break
        if lost and not g["won"]:
            fired.append((g, lost))
    return bad, fired, n


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_no_won_game_has_a_lost_projection(preset):
    """Every golden game (ranks 2 to 4, 1 to 3 cells) of the preset: the reference's
    exhaustive verdict won means no projection is lost; some lost games are proven."""
    cases = [g for g in GOLDEN if g["preset"] == preset]
    assert len(cases) >= 650 and sum(not g["won"] for g in cases) >= 20
    bad, fired, n = unsound(cases, blank_projection)
    assert bad == []
    assert len(fired) >= {"pysolfc": 10, "strict": 15}[preset] and n >= 1500, (len(fired), n)


def test_projection_solver_equals_its_reference():
    """The blank pushdown solver against a plain exhaustive search of the projected game
    on the golden games of 3 ranks and 1 cell (both presets, every projection, lost ones
    included; the few whose search passes 20,000 positions are skipped)."""
    seen = {"won": 0, "lost": 0}
    for g in GOLDEN:
        p = position_from_json(g["deal"])
        if p.ranks != 3 or len(p.cells) > 1:
            continue
        for proj in projections(3, g["preset"]):
            want = reference_projected(p, proj, 20_000)
            if want is None:
                continue
            got = P.decide(p, WindmillRules(proj.preset), proj).verdict
            assert got == ("won" if want else "lost"), (g, proj)
            seen[got] += 1
    assert seen["won"] >= 600 and seen["lost"] >= 15, seen


def test_the_proof_fires_and_names_itself():
    """A golden lost game proven lost by a projection (the solve wiring reads PROOF)."""
    lost = [g for g in GOLDEN if not g["won"]]
    _, fired, _ = unsound(lost, blank_projection)
    assert fired
    g, projs = fired[0]
    r = P.decide(position_from_json(g["deal"]), WindmillRules(g["preset"]), projs[0])
    assert r.verdict == "lost" and P.PROOF == "rank-projection"


def test_deletion_is_caught():
    """Deleting the dropped cards (cells refilled) is unsound: the counterexample of the
    module doc is won while its deletion of rank 2 is lost; the blank projection is won."""
    p = position_from_json(P.DELETION_COUNTEREXAMPLE)
    proj = P.Projection((1, 3, 4, 5, 6, 7, 8), "pysolfc")
    for preset in ("pysolfc", "strict"):
        assert ref.solve_exhaustive(p, WindmillRules(preset)) is True
    g = {"preset": "pysolfc", "won": True, "deal": P.DELETION_COUNTEREXAMPLE}
    assert deletion_projection(p, proj) == "lost"
    assert unsound([g], deletion_projection, stop_at_first=True)[0]
    assert blank_projection(p, proj) == "won"


def test_blanks_that_cannot_leave_are_caught():
    cases = [g for g in GOLDEN if g["preset"] == "pysolfc" and g["won"]][:50]
    assert unsound(cases, no_discard_projection, stop_at_first=True)[0]


def test_strict_projection_lost_when_pysolfc_projection_lost():
    """Metamorphic: strict's moves are pysolfc moves, so a lost pysolfc projection means
    the strict projection with the same ranks is lost."""
    pairs = 0
    for g in GOLDEN:
        if g["preset"] != "strict" or g["deal"]["ranks"] > 3:
            continue
        p = position_from_json(g["deal"])
        for proj in projections(p.ranks, "pysolfc"):
            if proj.keep[-1] == p.ranks and blank_projection(p, proj) == "lost":
                pairs += 1
                assert P.decide(p, WindmillRules("strict"), P.Projection(proj.keep, "strict")).verdict == "lost"
    assert pairs >= 3


def test_unsound_projections_are_refused():
    p = position_from_json(GOLDEN[0]["deal"])
    with pytest.raises(ValueError, match="keeps the Ace"):
        P.Projection((2, 3), "pysolfc")
    with pytest.raises(ValueError, match="top rank"):
        P.project(position_from_json({**GOLDEN[0]["deal"]}), P.Projection((1,), "strict"))
    with pytest.raises(ValueError, match="proves nothing"):
        P.decide(p, WindmillRules("pysolfc"), P.Projection((1, 2), "strict"))
