"""Great Wheel verdicts on full-size deals and late positions, through the public API
and the CLI: fixed node counts keep them fast; every won line replays."""

from __future__ import annotations

import json

import pytest
from cli_helpers import patience_here

import solver
from solver.games.great_wheel import reference as R
from solver.games.great_wheel.deals import endgame_deal
from solver.games.great_wheel.position import GWRules
from solver.games.great_wheel.searcher import GWSearch
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

TT = 32


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of TT megabytes (resources.tables)."""
    with tables(TT):
        yield



@pytest.mark.parametrize("preset,seed", [("pgs", 3), ("pgs", 5), ("pgs", 6), ("pgs", 9), ("pgs", 10),
                                         ("pysolfc", 2), ("pysolfc", 3), ("pysolfc", 4), ("pysolfc", 8)])
def test_full_deals_won_and_verified(preset, seed):
    r = solver.solve("great-wheel", seed, rules=preset, max_nodes=1_000_000, tt_mb=TT)
    assert r.verdict == "won" and r.verified
    assert r.rules == {"rules": preset}
    p = solver.api.make_deal("great-wheel", seed, rules=preset)[2]
    R.verify_win(p, GWRules(preset), r.moves)  # the line replays here too
    assert 0 < sum(m.is_draw for m in r.moves) <= 63  # refills also turn stock cards


def test_node_limit_is_unknown():
    r = solver.solve("gw", 1, rules="pgs", max_nodes=50_000, tt_mb=TT)
    assert r.verdict == "unknown" and r.reason == "node-limit"


# late positions of the full deck (20 cards off the foundations, 3 piles of 4):
# lost under both presets, and lost under pgs but won under pysolfc (returns help)
@pytest.mark.parametrize("seed,pgs,pysolfc", [(2, "lost", "lost"), (87, "lost", "lost"), (23, "lost", "won"),
                                              (37, "lost", "won"), (88, "lost", "won")])
def test_late_positions(seed, pgs, pysolfc):
    p = endgame_deal(seed, 20, 3, 4)
    for preset, want in (("pgs", pgs), ("pysolfc", pysolfc)):
        for prune in (True, False):
            out = drive(GWSearch(p, GWRules(preset), prune=prune), Limits(max_nodes=2_000_000))
            assert out.verdict == want, (preset, prune)
            if want == "won":
                R.verify_win(p, GWRules(preset), out.line)


def test_cli_solve_and_deal_json():
    r = patience_here("solve", "great-wheel", "3", "--rules", "pgs", "--json", "--tt-mb", "32", "--line", "fast")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["verdict"] == "won" and out["verified"] is True
    assert out["moves"][0] == {"from": "T5", "to": "aces", "card": "AC", "count": 1}
    assert {m["to"] for m in out["moves"]} >= {"aces", "waste", "E1", "O1"}
    r = patience_here("deal", "greatwheel", "1", "--json")
    assert r.returncode == 0, r.stderr
    deal = json.loads(r.stdout)
    assert deal["tableau piles"][0] == ["6D", "JH", "QH", "5C"] and deal["waste"] == ["4C"]
    assert len(deal["stock"]) == 63 and deal["aces"] == [] and deal["evens"] == [[]] * 8
