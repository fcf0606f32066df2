"""Windmill's narrowed twin phase (kernel R_NARROW: the stock is turned only when no cell
or waste card can be played).  Its wins are wins and agree with the unreduced exhaustive
reference verdicts (tests/golden/windmill_bruteforce.json); it runs out of moves on a
won deal, so its exhaustion is no loss; and it fires: it wins a full deal that the main
search alone leaves unknown.  (The twin does not use it: results/windmill-narrowed-twin.md.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import WindmillSearch
from solver.core.moves import Move
from solver.core.result import LOST, MEMORY_LIMIT, UNKNOWN, WON
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

GOLDEN = json.loads((Path(__file__).parent / "golden" / "windmill_bruteforce.json").read_text())


def run_alone(search, max_nodes: int) -> str | None:
    got = search.start()
    while (got is None or (got == MEMORY_LIMIT and search.grow())) and search.nodes < max_nodes:
        got = search.run(1 << 14)
    return got


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_narrowed_wins_are_wins(preset):
    rules = WindmillRules(preset)
    won = 0
    for case in (g for g in GOLDEN if g["preset"] == preset):
        position = position_from_json(case["deal"])
        with tables(4):
            search = WindmillSearch(position, rules, slot="tests", narrow=1)
            verdict = run_alone(search, 2_000_000)
        assert not search.proves_loss
        if verdict == WON:
            assert case["won"], position
            ref.verify_win(position, rules, search.line())
            won += 1
    assert won >= 100, won


def test_narrowed_exhaustion_is_no_loss():
    """Seed 119 is won (a stored winning line replays), yet the narrowed search runs
    out of moves on it: its wins need a turn while a play is open."""
    rules = WindmillRules()
    position = windmill_deal(119)
    stored = json.loads((Path(__file__).parent / "golden" / "windmill_119_line.json").read_text())
    ref.verify_win(position, rules, [Move.from_json(m) for m in stored["line"]])
    with tables(1024):
        assert run_alone(WindmillSearch(position, rules, slot="tests", narrow=1), 30_000_000) == LOST


def test_the_narrowed_phase_fires_on_a_full_deal():
    rules = WindmillRules()
    position = windmill_deal(246)
    with tables(256):
        alone = drive(WindmillSearch(position, rules), Limits(max_nodes=1_500_000))
        search = WindmillSearch(position, rules, slot="tests", narrow=1)
        narrowed = run_alone(search, 1_500_000)
    assert alone.verdict == UNKNOWN
    assert narrowed == WON
    ref.verify_win(position, rules, search.line())


def test_the_twin_never_narrows():
    """The twin's searches are all complete (the narrowed phase was measured and left
    out): plain order 1 first, then order (j + 1) mod 2 with noise j; they are phases 3j,
    each followed by playouts (tests/test_playouts.py) and the beam (tests/test_windmill_beam.py)."""
    from solver.games.windmill import kernel as K
    from solver.games.windmill.searcher import WindmillBeam, WindmillPlayouts, restarts
    with tables(4):
        twin = restarts(windmill_deal(1), WindmillRules())
        phases = [twin.make_phase(k) for k in range(9)]
    searches = phases[0::3]
    assert [int(s.r[K.R_NARROW]) for s in searches] == [0, 0, 0]
    assert [int(s.r[K.R_NOISE]) for s in searches] == [0, 1, 2]
    assert [int(s.r[K.R_ORDER]) for s in searches] == [1, 0, 1]
    assert all(s.proves_loss for s in searches)
    assert all(isinstance(p, WindmillPlayouts) and not p.proves_loss for p in phases[1::3])
    assert all(isinstance(p, WindmillBeam) and not p.proves_loss for p in phases[2::3])
