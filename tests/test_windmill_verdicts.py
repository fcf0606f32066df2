"""Full-size Windmill verdicts with fixed seeds; every won line replays; strict wins are pysolfc wins."""

import pytest

import solver
from solver.games.windmill import reference as ref
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import WindmillSearch, restarts
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

# Found won by the solver (lines verified); none of these takes more than 0.4 M nodes.
WON = {
    "pysolfc": (1, 3, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16),
    "strict": (3, 5, 6, 7, 8, 14, 15, 17, 19, 21, 22, 24),
}


@pytest.mark.parametrize("preset", sorted(WON))
def test_known_wins_replay(preset):
    for seed in WON[preset]:
        r = solver.solve("windmill", seed, rules=preset, max_nodes=2_000_000, tt_mb=64)
        assert r.verdict == "won" and r.verified, (preset, seed, r.verdict)
        p = windmill_deal(seed)
        final = ref.replay(p, WindmillRules(preset), r.moves)
        assert final.is_won()
        assert sum(m.is_draw for m in r.moves) <= 94  # turns by hand (the game turns one itself when the waste empties)
        assert sum(not m.is_draw for m in r.moves) >= 103  # every card but the base Ace is played


def test_strict_lines_are_pysolfc_lines():
    """Metamorphic: every strict move is a pysolfc move, so a strict win is a pysolfc win."""
    for seed in WON["strict"]:
        r = solver.solve("windmill", seed, rules="strict", max_nodes=2_000_000, tt_mb=64)
        ref.verify_win(windmill_deal(seed), WindmillRules("pysolfc"), r.moves)


def test_pysolfc_lines_use_pysolfc_only_moves_somewhere():
    """The presets differ: some pysolfc line makes a move strict forbids (else the test above proves little)."""
    forbidden = 0
    for seed in WON["pysolfc"]:
        r = solver.solve("windmill", seed, max_nodes=2_000_000, tt_mb=64)
        p = windmill_deal(seed)
        for m in r.moves:
            if ref.why_illegal(p, WindmillRules("strict"), m) is not None:
                forbidden += 1
            p = ref.apply_move(p, WindmillRules("pysolfc"), m)
    assert forbidden > 0


def test_node_limit_gives_unknown_and_resuming_is_deterministic():
    p = windmill_deal(2)
    rules = WindmillRules("pysolfc")
    with tables(64):
        a = drive(WindmillSearch(p, rules), Limits(max_nodes=200_000), twin=restarts(p, rules))
        b = drive(WindmillSearch(p, rules), Limits(max_nodes=200_000), twin=restarts(p, rules))
    assert a.verdict == b.verdict == "unknown" and a.nodes == b.nodes


def test_tampered_line_is_rejected():
    r = solver.solve("windmill", 7, max_nodes=1_000_000, tt_mb=64)
    moves = list(r.moves)
    i = next(i for i, m in enumerate(moves) if not m.is_draw)
    del moves[i]
    with pytest.raises(ref.ReplayError):
        ref.verify_win(windmill_deal(7), WindmillRules(), moves)
    with pytest.raises(ref.ReplayError, match="not won"):
        ref.verify_win(windmill_deal(7), WindmillRules(), r.moves[:-1])


@pytest.mark.parametrize("preset", ["pysolfc", "strict", "welford"])
def test_main_search_and_twin_never_share_a_table_or_workspace(preset):
    from solver.games import adapter_for, get_game
    rules = get_game("windmill").make_rules(rules=preset)
    g = adapter_for("windmill", rules)
    p = g.deal(2, "pysolfc", rules)
    with tables(8):
        main, twin = g.searcher(p, rules), g.twin(p, rules)
        main.start()
        twin.start()
        assert main.tt is not twin.tt and main.ws is not twin.current.ws
        main.run(20_000)
        twin.run(300_000)  # several restarted phases
    assert twin.phase > 0 and main.tt is not twin.tt and main.ws is not twin.current.ws


def test_a_deal_only_the_restarts_win():
    """PySolFC game 20: two fixed move orders found no win in a minute; the restarted
    twin wins it within 2.5 M nodes, and its line replays."""
    r = solver.solve("windmill", 20, max_nodes=2_500_000, tt_mb=64)
    assert r.verdict == "won" and r.verified
    p, rules = windmill_deal(20), WindmillRules()
    for order in (0, 1):
        with tables(64):
            alone = drive(WindmillSearch(p, rules, order=order), Limits(max_nodes=2_500_000))
        assert alone.verdict == "unknown"
