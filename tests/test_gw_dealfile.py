"""Great Wheel deal files: round trips, and every malformed file or unknown preset gives
exit 2 with one line through the ``patience`` CLI."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest
from cli_helpers import patience_here

from solver.games.great_wheel.dealfile import (DealFileError, dump_deal, load_deal, position_from_json,
                                               position_to_json)
from solver.games.great_wheel.deals import endgame_deal, gw_deal, reduced_deal
from solver.games.great_wheel.game import GreatWheel


def assert_usage_error(r: subprocess.CompletedProcess, *words: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("patience: error: "), lines[0]
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])


@pytest.mark.parametrize("position", [gw_deal(1), gw_deal(32001), endgame_deal(3, 12, 2, 3),
                                      reduced_deal(4, 5, 3, 2)], ids=["g1", "g32001", "endgame", "reduced"])
def test_round_trip(position, tmp_path):
    path = tmp_path / "deal.json"
    dump_deal(position, path)
    back = load_deal(path)
    assert back.key() == position.key()
    assert position_from_json(json.loads(json.dumps(position_to_json(position)))).key() == position.key()


def test_file_lists_run_bottom_to_top():
    obj = position_to_json(gw_deal(1))
    assert obj["tableau piles"][0] == ["6D", "JH", "QH", "5C"]
    assert obj["waste"] == ["4C"] and obj["stock"][-1] == "10C"
    assert "ranks" not in obj


def _full():
    return position_to_json(gw_deal(2))


def _mutate(fn):
    obj = copy.deepcopy(_full())
    fn(obj)
    return obj


BAD = {
    "missing card": (lambda o: o["stock"].pop(0), "missing card"),
    "third copy": (lambda o: o["stock"].__setitem__(0, o["stock"][1]) if o["stock"][0] != o["stock"][1] else None,
                   "duplicate card"),
    "face down": (lambda o: o["waste"].__setitem__(0, o["waste"][0][:-1] + o["waste"][0][-1].lower()), "face down"),
    "unknown key": (lambda o: o.__setitem__("foundations", []), "unknown key"),
    "king": (lambda o: o["stock"].__setitem__(0, "KH"), "not in a deck"),
    "bad card": (lambda o: o["stock"].__setitem__(0, "ZZ"), "unknown card"),
    "seven piles": (lambda o: o["tableau piles"].pop(), "tableau piles"),
    "no tableau": (lambda o: o.pop("tableau piles"), "tableau piles"),
    "empty waste": (lambda o: (o["stock"].extend(o["waste"]), o.__setitem__("waste", [])), "waste is empty"),
    "ranks 13": (lambda o: o.__setitem__("ranks", 13), "ranks"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files(name, tmp_path):
    fn, words = BAD[name]
    obj = _mutate(fn)
    with pytest.raises(DealFileError, match=words):
        position_from_json(obj)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    assert_usage_error(patience_here("solve", "great-wheel", "--deal", str(path), "--tt-mb", "32"), words)


def test_bad_foundations():
    o = position_to_json(endgame_deal(5, 10, 2, 2))
    pile = next(p for p in o["evens"] if len(p) >= 2)
    pile[0], pile[1] = pile[1], pile[0]  # 4 under 2
    with pytest.raises(DealFileError, match="must hold 2, 4"):
        position_from_json(o)


def test_same_colour_aces_refused():
    p = endgame_deal(7, 3, 2, 2)
    obj = position_to_json(p)
    reds = [c for c in obj["aces"] if c[-1] in "DH"]
    blacks = [c for c in obj["aces"] if c[-1] in "CS"]
    obj["aces"] = reds + blacks
    with pytest.raises(DealFileError, match="alternate"):
        position_from_json(obj)


def test_not_json_and_missing_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert_usage_error(patience_here("solve", "gw", "--deal", str(path)), "not JSON")
    assert_usage_error(patience_here("solve", "gw", "--deal", str(tmp_path / "none.json")), "cannot read")


def test_unknown_preset_is_usage_error():
    assert_usage_error(patience_here("solve", "great-wheel", "1", "--rules", "nope"), "pgs", "pysolfc")
    with pytest.raises(ValueError, match="pgs, pysolfc"):
        GreatWheel.make_rules(rules="strict")
    with pytest.raises(ValueError):
        GreatWheel.make_rules(draw=3)
    assert GreatWheel.make_rules().preset == "pgs"
    assert GreatWheel.make_rules(rules="PySolFC").preset == "pysolfc"
