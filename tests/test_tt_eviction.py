"""Eviction in the transposition table (tt.py): a full table forgets states instead of
ending the search, and that never changes a verdict.

The table is shrunk to its smallest size (64 slots, 51 entries at the load cap) so that
eviction fires on most of the brute-force positions of every game, whose verdicts
the unreduced exhaustive reference searches computed (the brute-force test modules);
each verdict must stay the same, and each win must still replay."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import solver
from solver.games import adapter_for, get_game
from solver.engine.resources import tables
from solver.engine.search import Limits, drive
from solver.engine.tt import DROPPED, TranspositionTable, tt_insert

TINY = {3: 0.002, 6: 0.004}  # megabytes for 64 slots at 3 and 6 key words


def _key(n: int, width: int = 3) -> np.ndarray:
    k = np.zeros(width, dtype=np.uint64)
    k[0] = np.uint64(n)
    k[-1] |= np.uint64(1) << np.uint64(63)
    return k


def test_a_full_table_evicts_and_keeps_every_other_key_findable():
    tt = TranspositionTable(TINY[3], 3)
    assert tt.slots == 64 and tt.max_slots == 64
    cap = int(tt.ctr[1])
    keys = [_key(n) for n in range(1, 3 * cap)]
    assert all(tt_insert(tt.table, k, tt.ctr, tt.touched) == 1 for k in keys)
    assert tt.count == cap and tt.dropped == len(keys) - cap
    occupied = int((tt.table[:, 2] != 0).sum())
    assert occupied == cap, "eviction reuses slots: the load never passes the cap"
    stored = {int(row[0]) for row in tt.table if row[2] != 0}
    for n, k in enumerate(keys, 1):  # a kept key is found; a forgotten one is new again
        table, ctr = tt.table.copy(), tt.ctr.copy()  # each probe on a copy: no further evictions
        assert tt_insert(table, k, ctr, tt.touched.copy()) == (0 if n in stored else 1)
    tt.clear()
    assert tt.count == 0 and tt.dropped == 0


def test_without_eviction_a_full_table_refuses():
    tt = TranspositionTable(TINY[3], 3, evict=False)
    cap = int(tt.ctr[1])
    for n in range(1, cap + 1):
        assert tt_insert(tt.table, _key(n), tt.ctr, tt.touched) == 1
    assert tt_insert(tt.table, _key(cap + 1), tt.ctr, tt.touched) == -1 and tt.ctr[DROPPED] == 0


def _check(cases, game, mb, min_dropped, unpruned=None, unknown_share=0.0):
    """cases: (label, position, expected won, rule options).  Each is solved through the
    API (main search, twin or relaxed search, line replay) and, with ``unpruned(position,
    options)`` given, by the kernel with its pruning off (more states to evict), with tables of ``mb``.
    A wrong verdict fails; "unknown" is allowed on ``unknown_share`` of the searches: a
    table of 51 entries can thrash (re-searching forgotten states until the node limit)
    or lose states of the current path (then the DFS stack fills: tt.py)."""
    failures, dropped, unknown, runs = [], 0, 0, 0
    for label, position, won, options in cases:
        want = "won" if won else "lost"
        outcomes = []
        r = solver.solve(game, deal=position, tt_mb=mb, max_nodes=300_000, **options)
        fired = r.counters.get("tt_dropped", 0) > 0
        outcomes.append(("", r.verdict, r.reason, r.won and not r.verified))
        if unpruned is not None:
            with tables(mb):
                s = unpruned(position, options)
                out = drive(s, Limits(max_nodes=300_000))
            fired |= s.counters()["tt_dropped"] > 0
            if out.verdict == "won":
                g = get_game(game)
                adapter_for(game, g.make_rules(**options)).verify(position, g.make_rules(**options), out.line)
            outcomes.append((" unpruned", out.verdict, out.reason, False))
        for name, verdict, reason, unverified in outcomes:
            runs += 1
            if verdict == "unknown":
                unknown += 1
            elif verdict != want or unverified:
                failures.append(f"{label} {options}{name}: expected {want}, got {verdict}")
        dropped += fired
    assert not failures, "\n".join(failures[:10])
    assert unknown <= unknown_share * runs, f"{unknown} of {runs} searches undecided"
    assert dropped >= min_dropped, f"eviction fired on only {dropped} of {len(cases)} positions"


def test_klondike_verdicts_survive_eviction():
    from test_klondike_bruteforce import decided

    from solver.games.klondike.position import KlondikeRules
    from solver.games.klondike.searcher import KlondikeSearch

    cases = [(label, p, won, {"draw": r.draw, "passes": r.passes, "worry_back": r.worry_back})
             for label, p, r, won in decided()]
    _check(cases, "klondike", TINY[3], 30,
           lambda p, o: KlondikeSearch(p, KlondikeRules(**o), prune=False), unknown_share=0.05)


# Solvitaire draw-1 deals with their verdicts (results/runs/klondike-1-solvitaire-cap60.jsonl),
# whose searches (class key and step-2 prunes) store more positions than the 1,638 entries
# here.  (Seeds 195 and 364 fill their DFS stacks at this size: unknown; seeds 100 and 152
# store fewer than 1,638 since the prunes.)
FULL_DEALS = [(156, "lost"), (322, "lost"), (329, "lost"),
              (76, "won"), (124, "won"), (198, "won")]


@pytest.mark.parametrize("seed,verdict", FULL_DEALS)
def test_klondike_deals_decided_in_a_table_too_small_for_them(seed, verdict):
    r = solver.solve("klondike", seed, numbering="solvitaire", draw=1, tt_mb=0.06, max_nodes=20_000_000)
    assert r.verdict == verdict and r.counters["tt_dropped"] > 0
    assert r.stored_states == 1638 and (r.verified or verdict == "lost")


def test_beleaguered_castle_verdicts_survive_eviction():
    from test_bc_bruteforce import decided

    # 128 slots (102 entries): its pruned searches store few positions, and lost ones of up
    # to 30,000 positions thrash in 51 entries
    _check([(label, p, won, {}) for label, p, won in decided()], "beleaguered-castle", 0.004, 15, unknown_share=0.05)


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_windmill_verdicts_survive_eviction(preset):
    from solver.games.windmill.dealfile import position_from_json

    golden = json.loads((Path(__file__).parent / "golden" / "windmill_bruteforce.json").read_text())
    cases = [(f"golden #{i}", position_from_json(g["deal"]), g["won"], {"rules": preset})
             for i, g in enumerate(golden) if g["preset"] == preset]
    _check(cases, "windmill", TINY[3], {"pysolfc": 5, "strict": 3}[preset], unknown_share=0.01)


@pytest.mark.parametrize("preset", ["pgs", "pysolfc"])
def test_great_wheel_verdicts_survive_eviction(preset):
    from test_gw_bruteforce import small_deals

    from solver.games.great_wheel import reference as R
    from solver.games.great_wheel.position import GWRules

    cases = []
    for i, p in enumerate(small_deals(60)):
        truth = R.solve_exhaustive(p, GWRules(preset), max_states=20_000)
        if truth is not None:
            cases.append((f"small deal #{i}", p, truth, {"rules": preset}))
    _check(cases, "great-wheel", TINY[6], 3, unknown_share=0.05)


def test_a_table_that_grew_starts_small_again():
    """Every search sees the same table history (tt.TranspositionTable.clear): with
    eviction, a reused grown table would pick other victims than a fresh one."""
    tt = TranspositionTable(64.0, 3)  # starts at INITIAL_MB, may grow to 64 MB
    start = tt.slots
    assert start < tt.max_slots
    for n in range(1, start):  # past the half-full growth point
        if tt_insert(tt.table, _key(n), tt.ctr, tt.touched) < 0:
            assert tt.grow()
            assert tt_insert(tt.table, _key(n), tt.ctr, tt.touched) == 1
    assert tt.slots > start
    tt.clear()
    assert tt.slots == start and tt.count == 0 and tt.dropped == 0 and not tt.table.any()
