"""Windmill's foundation endgame E (solver/games/windmill/endgame.py), tested against the
reference engine's exhaustive search (exact positions, no reduction).

Theorem 2: with the stock empty, E's verdict is the position's.  Theorem 1: with a
stock, E lost implies the position lost.  Then the kernel that drops E-lost states
must keep every verdict of the brute-force golden file, with the test tried at every
state (any stock size), and the test must fire on real deals.
"""

import json
import random
from pathlib import Path

import numpy as np
import pytest

from solver.games.windmill import endgame as E
from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import WindmillSearch, restarts
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

from windmill_helpers import random_position

PRESETS = ["pysolfc", "strict"]
_WS = E.workspace()


def endgame_verdict(p, strict: bool) -> int:
    """E of a position, built from the position (not from the kernel's rows)."""
    pool = np.zeros(14, dtype=np.int64)
    for c in list(p.cells) + list(p.stock) + list(p.waste[-1:]):
        if c is not None:
            pool[c.rank] += 1
    queue = np.array([c.rank for c in reversed(p.waste[:-1])] + [0], dtype=np.int64)
    kings = np.array([len(k) for k in p.kings], dtype=np.int64)
    before = pool.copy()
    got = E.solve(len(p.centre), kings, int(strict and p.after_transfer), pool, queue, max(len(p.waste) - 1, 0),
                  p.ranks, strict, *_WS, 1 << 13)
    assert (pool == before).all(), "E must give the pool back unchanged"
    return got


def _cases(preset: str, stock_empty: bool, n: int, seed: int, min_lost: int = 0):
    """n random small positions with their reference verdicts (and at least min_lost
    lost ones, drawing more positions while they are missing)."""
    rng = random.Random(seed)
    rules = WindmillRules(preset)
    out = []
    lost = 0
    while len(out) < n or (lost < min_lost and len(out) < 20 * n):
        p = random_position(rng, rng.randrange(2, 5), rng.randrange(1, 4))
        if stock_empty:
            p.waste, p.stock = p.stock + p.waste, []
        want = ref.solve_exhaustive(p, rules, 20_000)
        if want is not None:
            out.append((p, want))
            lost += not want
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_with_the_stock_empty_the_endgame_is_exact(preset):
    cases = _cases(preset, True, 60, 11, min_lost=8)
    lost = [p for p, won in cases if not won]
    assert len(lost) >= 8 and len(lost) <= len(cases) - 8  # both verdicts are tested
    for p, won in cases:
        assert endgame_verdict(p, preset == "strict") == (E.EG_WON if won else E.EG_LOST), p


@pytest.mark.parametrize("preset", PRESETS)
def test_with_a_stock_an_endgame_loss_is_a_loss(preset):
    cases = _cases(preset, False, 120, 12)
    fired = 0
    for p, won in cases:
        if endgame_verdict(p, preset == "strict") == E.EG_LOST:
            fired += 1
            assert not won, p  # a position the proof calls lost, and the reference agrees
    assert fired >= 1


def test_the_endgame_test_is_a_relaxation_not_exact_while_the_stock_lasts():
    """Some lost position with a stock has a won E: E is not claimed exact there."""
    cases = _cases("strict", False, 120, 13, min_lost=30)
    assert any(not won and endgame_verdict(p, True) == E.EG_WON for p, won in cases)


def test_a_node_cap_gives_undecided_and_restores_the_pool():
    p = windmill_deal(3)
    p.waste, p.stock = p.stock + p.waste, []
    pool = np.zeros(14, dtype=np.int64)
    for c in list(p.cells) + p.waste[-1:]:
        pool[c.rank] += 1
    before = pool.copy()
    queue = np.array([c.rank for c in reversed(p.waste[:-1])], dtype=np.int64)
    got = E.solve(1, np.zeros(4, dtype=np.int64), 0, pool, queue, len(queue), 13, False, *_WS, 2)
    assert got == E.EG_UNDECIDED
    assert (pool == before).all()


GOLDEN = json.loads((Path(__file__).parent / "golden" / "windmill_bruteforce.json").read_text())


@pytest.mark.parametrize("preset", PRESETS)
def test_kernel_with_the_endgame_test_everywhere_matches_the_reference(preset):
    """The golden brute-force verdicts (reference, unreduced) with E tried at every state."""
    rules = WindmillRules(preset)
    cases = [(position_from_json(g["deal"]), g["won"]) for g in GOLDEN if g["preset"] == preset]
    fired = 0
    for position, won in cases:
        for order in (0, 1):
            with tables(4):
                s = WindmillSearch(position, rules, order=order, endgame=104)
                before = s.counters()["endgame_lost"]
                out = drive(s, Limits(max_nodes=2_000_000))
            fired += s.counters()["endgame_lost"] - before
            assert out.verdict == ("won" if won else "lost"), position
            if won:
                ref.verify_win(position, rules, out.line)
    assert fired > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_the_test_fires_on_full_deals_and_is_counted(preset):
    with tables(64):
        on = WindmillSearch(windmill_deal(2), WindmillRules(preset), endgame=8)
        c0 = on.counters()
        drive(on, Limits(max_nodes=200_000))
        c1 = on.counters()
    tries = c1["endgame_tries"] - c0["endgame_tries"]
    assert tries > 0 and 0 < c1["endgame_lost"] - c0["endgame_lost"] <= tries
    with tables(64):
        off = WindmillSearch(windmill_deal(2), WindmillRules(preset), endgame=-1)
        c0 = off.counters()
        drive(off, Limits(max_nodes=100_000))
    assert off.counters() == c0  # switched off, never tried


def test_solve_reports_the_counters_and_names_the_proof():
    """solve() carries the change of the counters over its search (default: the test
    is off, so nothing is tried); a loss found with the test would say so in proof."""
    import solver

    r = solver.solve("windmill", 2, max_nodes=50_000, tt_mb=64)
    assert r.counters == {"tt_dropped": 0, "endgame_tries": 0, "endgame_lost": 0, "endgame_states": 0}
    assert r.verdict == "unknown" and r.proof is None


def test_restarts_pass_the_endgame_setting_on():
    def endgame(c: dict) -> dict:
        return {k: v for k, v in c.items() if k.startswith("endgame_")}

    with tables(8):
        tw = restarts(windmill_deal(2), WindmillRules(), endgame=-1, unit=64)
        c0 = endgame(tw.counters())
        drive(tw, Limits(max_nodes=20_000))
    assert len(c0) == 3 and endgame(tw.counters()) == c0
