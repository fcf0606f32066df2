"""Windmill deal files: round trips, bad input (one-line errors), the CLI's exit codes."""

import json
import random
import subprocess
import sys

import pytest

from solver import api

from solver.games.windmill.dealfile import DealFileError, dump_deal, load_deal, position_from_json, position_to_json
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.game import Windmill
from solver.games.windmill.position import WindmillRules

from windmill_helpers import random_position, reachable_sample


def test_round_trip_deals_and_midgame(tmp_path):
    positions = [windmill_deal(s) for s in (1, 2, 32000)] + reachable_sample(WindmillRules("strict"), 40, 3)
    rng = random.Random(1)
    positions += [random_position(rng, 3, 2) for _ in range(10)]
    for i, p in enumerate(positions):
        path = tmp_path / f"d{i}.json"
        dump_deal(p, path)
        assert load_deal(path) == p
        assert position_from_json(json.loads(json.dumps(position_to_json(p)))) == p


def _obj(**change):
    obj = position_to_json(windmill_deal(1))
    obj.update(change)
    return obj


@pytest.mark.parametrize("change, message", [
    ({"stock": _obj()["stock"][1:]}, "missing card"),
    ({"stock": _obj()["stock"] + ["KC"]}, "more than twice"),
    ({"cells": _obj()["cells"][:7]}, "needs 8 cells"),
    ({"centre": ["2C"]}, "centre card 1 is 2C"),
    ({"king piles": [[], []]}, "4 lists"),
    ({"colour": 1}, "unknown key"),
    ({"waste": ["8d"]}, "face down"),
    ({"waste": ["ZZ"]}, "unknown card"),
    ({"ranks": 0}, "ranks"),
    ({"after transfer": "yes"}, "true or false"),
])
def test_bad_input_is_one_line(change, message):
    with pytest.raises(DealFileError, match=message) as e:
        position_from_json(_obj(**change))
    assert "\n" not in str(e.value)


def test_missing_keys_and_impossible_states():
    obj = _obj()
    del obj["centre"]
    with pytest.raises(DealFileError, match="missing key"):
        position_from_json(obj)
    obj = _obj()  # a waste emptied with stock left: the game would have turned a card
    obj["stock"] = obj["stock"] + obj["waste"]
    obj["waste"] = []
    with pytest.raises(DealFileError, match="waste is empty"):
        position_from_json(obj)
    obj = _obj()
    obj["stock"] = obj["stock"] + [obj["cells"][0]]
    obj["cells"][0] = None
    with pytest.raises(DealFileError, match="cell is empty"):
        position_from_json(obj)


def test_make_rules():
    assert Windmill.make_rules().preset == "pysolfc"
    assert Windmill.make_rules(rules="strict").to_json() == {"rules": "strict"}
    assert Windmill.make_rules(rules="welford") == WindmillRules("welford")
    with pytest.raises(ValueError, match="pysolfc, strict, welford"):
        Windmill.make_rules(rules="easy")
    with pytest.raises(ValueError):
        Windmill.make_rules(draw=3)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True, timeout=120)


def test_cli_unknown_preset_and_deal_file(tmp_path):
    r = _cli("solve", "windmill", "1", "--rules", "nonsense")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "pysolfc, strict, welford" in r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_obj(stock=_obj()["stock"][1:])))
    r = _cli("solve", "windmill", "--deal", str(bad))
    assert r.returncode == 2 and "missing card" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = _cli("deal", "windmill", "1", "--json")
    assert r.returncode == 0
    assert position_from_json(json.loads(r.stdout)) == windmill_deal(1)


def test_welford_is_served_by_its_own_adapter():
    from solver.games import adapter_for, get_game
    from solver.games.windmill_welford.game import WindmillWelford

    rules = Windmill.make_rules(rules="welford")
    g = adapter_for("windmill", rules)
    assert g is WindmillWelford and g.name == "windmill"
    p = g.deal(1, "pysolfc", rules)
    assert p.preset == "welford"
    assert isinstance(g.deal_to_json(p), dict) and g.render(p)
    assert adapter_for("windmill", Windmill.make_rules()) is Windmill
    assert adapter_for("windmill", Windmill.make_rules(rules="strict")) is Windmill
    assert "centre" in Windmill.render(windmill_deal(1))
    assert api.make_deal("windmill", 1, rules="welford")[0] is WindmillWelford
    # its registry key names it too, and it plays no other preset
    assert get_game("windmill-welford") is WindmillWelford and WindmillWelford.make_rules() == rules
    assert api.make_deal("windmill-welford", 1)[1:] == api.make_deal("windmill", 1, rules="welford")[1:]
    with pytest.raises(ValueError, match="windmill rules strict"):  # the CLI spells it --rules
        WindmillWelford.make_rules(rules="strict")
