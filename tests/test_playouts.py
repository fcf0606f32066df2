"""Randomized greedy playouts (solver/engine/playouts.py, Windmill's kernel.playout_run) and the
twin's playout phases (searcher.restarts).  A playout's win is a win whose line the
reference engine replays; every move it makes is legal there; running out proves
nothing (never LOST, and drive never takes it for a loss); the same seed plays the same
moves; and in the twin the phases win a deal the searches alone leave unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import WindmillPlayouts, WindmillSearch, restarts
from solver.core.result import LOST, UNKNOWN, WON
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

GOLDEN = json.loads((Path(__file__).parent / "golden" / "windmill_bruteforce.json").read_text())


def play(p: WindmillPlayouts, nodes: int, step: int = 1 << 12) -> str | None:
    got = p.start()
    while got is None and p.nodes < nodes:
        got = p.run(step)
    return got


def test_a_playout_wins_a_won_deal_and_its_line_replays():
    rules = WindmillRules()
    position = windmill_deal(3)
    p = WindmillPlayouts(position, rules, slot="tests")
    assert play(p, 1_000_000) == WON
    ref.verify_win(position, rules, p.line())
    assert p.progress().cards == 104 and p.best_cards() == 104


@pytest.mark.parametrize("preset", ["pysolfc", "strict"])
def test_every_playout_move_is_legal_in_the_reference_engine(preset):
    """Differential: the current playout, paused at many points on many small and full
    deals, replays move by move with each move among the reference engine's legal ones."""
    rules = WindmillRules(preset)
    positions = [position_from_json(g["deal"]) for g in GOLDEN if g["preset"] == preset][:40]
    positions += [windmill_deal(s) for s in (2, 38, 56)]
    checked = 0
    for i, position in enumerate(positions):
        p = WindmillPlayouts(position, rules, salt=i, slot="tests")
        got = p.start()
        for _ in range(12):
            if got is not None:
                break
            got = p.run(37)  # pause mid-playout, at odd depths
            pos = position
            for move in p.line():
                assert move in ref.legal_moves(pos, rules), (move, pos)
                pos = ref.apply_move(pos, rules, move)
                checked += 1
            if got == WON:
                ref.verify_win(position, rules, p.line())



def test_playouts_never_say_lost():
    """On deals the exhaustive reference search found lost the playouts run and restart,
    never reporting anything but paused: running out of moves proves nothing."""
    rules = WindmillRules()
    lost = [position_from_json(g["deal"]) for g in GOLDEN if g["preset"] == "pysolfc" and not g["won"]][:10]
    assert lost
    for position in lost:
        p = WindmillPlayouts(position, rules, slot="tests")
        assert not p.proves_loss
        assert play(p, 20_000) is None
        assert p.nodes >= 20_000 and p.playouts > 1


def test_drive_takes_no_loss_from_a_playout_twin():
    """Playouts as the twin on a lost deal: drive ends with the main search's loss (proof:
    search), never earlier from the twin; with a main search that cannot finish in the
    node limit, the deal stays unknown."""
    rules = WindmillRules()
    position = next(position_from_json(g["deal"]) for g in GOLDEN if g["preset"] == "pysolfc" and not g["won"])
    with tables(4):
        main = WindmillSearch(position, rules, slot="tests")
        twin = WindmillPlayouts(position, rules, slot="tests")
        out = drive(main, Limits(max_nodes=10_000_000), twin=twin)
    assert out.verdict == LOST and out.proof == "search"
    hard = windmill_deal(2)  # unknown after 300 s of search: far beyond this limit
    with tables(64):
        out = drive(WindmillSearch(hard, rules, slot="tests"), Limits(max_nodes=200_000),
                    twin=WindmillPlayouts(hard, rules, slot="tests"))
    assert out.verdict == UNKNOWN


def test_the_same_seed_plays_the_same_moves():
    rules = WindmillRules()
    position = windmill_deal(38)
    runs = []
    for salt in (0, 0, 1):
        p = WindmillPlayouts(position, rules, salt=salt, slot="tests")
        play(p, 50_000, step=999)
        runs.append((p.nodes, p.playouts, p.path().tolist(), p.progress().line()))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_the_twin_alternates_searches_and_playouts():
    rules = WindmillRules()
    with tables(4):
        twin = restarts(windmill_deal(38), rules, unit=1000)
        assert isinstance(twin.current, WindmillSearch)
        assert twin.start() is None
        assert twin.run(1500) is None
        assert isinstance(twin.current, WindmillPlayouts) and twin.phase == 1
        assert set(twin.counters()) >= {"tt_dropped", "endgame_tries", "endgame_lost", "endgame_states"}
        assert twin.run(1000) is None and twin.phase == 2  # the beam (tests/test_windmill_beam.py)
        assert twin.run(1000) is None and isinstance(twin.current, WindmillSearch) and twin.phase == 3
        assert isinstance(restarts(windmill_deal(38), rules, beam=False).make_phase(2), WindmillSearch)
        assert restarts(windmill_deal(38), rules, playouts=False, beam=False).make_phase(1).proves_loss


def test_the_playout_phases_win_a_deal_the_searches_leave_unknown():
    """Seed 47 took the searches 72 s (results/windmill-pysolfc-retry300.md); with the
    twin's playout phases a solve wins it within 400,000 nodes, its line replayed."""
    from solver.api import solve

    got = solve("windmill", 47, max_nodes=400_000, tt_mb=64)
    assert got.verdict == WON and got.verified
    rules = WindmillRules()
    ref.verify_win(windmill_deal(47), rules, got.moves)
    position = windmill_deal(47)
    with tables(64):
        without = drive(WindmillSearch(position, rules, slot="tests"), Limits(max_nodes=400_000),
                        twin=restarts(position, rules, playouts=False, beam=False))
    assert without.verdict == UNKNOWN


# ----------------------------------------------------------------- Great Wheel's playouts


def test_great_wheel_playouts_win_and_their_moves_are_legal():
    """Great Wheel's kernel playouts (GWPlayouts, not in its twin): a win on an easy deal
    replays, and every move of playouts paused at many points, on full deals and random
    late positions of both presets, is among the reference engine's legal moves."""
    from solver.games.great_wheel import reference as gref
    from solver.games.great_wheel.deals import endgame_deal, gw_deal
    from solver.games.great_wheel.position import GWRules
    from solver.games.great_wheel.searcher import GWPlayouts

    rules = GWRules("pysolfc")
    position = gw_deal(3)
    p = GWPlayouts(position, rules, slot="tests")
    assert play(p, 2_000_000) == WON
    gref.verify_win(position, rules, p.line())
    checked = 0
    for preset in ("pysolfc", "pgs"):
        rules = GWRules(preset)
        deals = [gw_deal(69)] + [endgame_deal(s, 30, 8, 4) for s in range(1, 6)]
        for i, position in enumerate(deals):
            p = GWPlayouts(position, rules, salt=i, slot="tests")
            got = p.start()
            for _ in range(4):
                if got is not None:
                    break
                got = p.run(101)
                assert got in (None, WON)  # never LOST
                pos = position
                for move in p.line():
                    assert move in gref.legal_moves(pos, rules), (move, pos)
                    pos = gref.apply_move(pos, rules, move)
                    checked += 1
    assert checked > 1000, checked


# ----------------------------------------------------------------- Welford's playouts


def test_welford_playouts_win_replay_and_play_legal_moves():
    """Welford's kernel playouts (the welford preset's twin phases): a win replays; every
    move of playouts paused at many points is among the reference engine's legal moves
    (a refill is several moves: each checked in turn); never LOST."""
    from solver.games.windmill_welford import reference as W
    from solver.games.windmill_welford.deals import welford_deal
    from solver.games.windmill_welford.searcher import WelfordPlayouts

    position = welford_deal(5)
    p = WelfordPlayouts(position, slot="tests")
    assert play(p, 2_000_000) == WON
    assert W.verify_win(position, p.line()).is_won()
    checked = 0
    for seed in (2, 18, 50, 51):
        position = welford_deal(seed)
        p = WelfordPlayouts(position, salt=seed, slot="tests")
        got = p.start()
        for _ in range(5):
            if got is not None:
                break
            got = p.run(73)
            assert got in (None, WON)
            pos = position
            for move in p.line():
                assert move in W.legal_moves(pos), (move, pos)
                pos = W.apply_move(pos, move)
                checked += 1
    assert checked > 1000, checked


def test_welford_twin_alternates_and_wins_a_deal_its_searches_leave_unknown():
    """Seed 115 was unknown after the 60 s benchmark (results/runs/
    windmill-welford-pysolfc-cap60.jsonl); with the playout phases a solve wins it within
    300,000 nodes, and the twin without them does not."""
    from solver.api import solve
    from solver.games.windmill_welford.deals import welford_deal
    from solver.games.windmill_welford.searcher import WelfordPlayouts, WelfordSearch
    from solver.games.windmill_welford.searcher import restarts as welford_restarts

    with tables(4):
        twin = welford_restarts(welford_deal(115))
        assert isinstance(twin.make_phase(1), WelfordPlayouts) and isinstance(twin.make_phase(2), WelfordSearch)
    got = solve("windmill", 115, rules="welford", max_nodes=300_000, tt_mb=64)
    assert got.verdict == WON and got.verified
    position = welford_deal(115)
    with tables(64):
        without = drive(WelfordSearch(position, slot="tests"), Limits(max_nodes=300_000),
                        twin=welford_restarts(position, playouts=False))
    assert without.verdict == UNKNOWN
