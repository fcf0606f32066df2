"""Solvitaire-style JSON deal files: reading, writing, and one-line errors for bad files."""

from __future__ import annotations

import copy
import json
import random

import pytest

from solver.core.cards import Card
from solver.games.klondike.dealfile import (
    DealFileError,
    dump_deal,
    load_deal,
    position_from_json,
    position_to_json,
)
from solver.games.klondike.position import KlondikeRules
from solver.games.klondike.reference import apply_move, legal_moves

C = Card.parse

# Solvitaire's src/test/resources/klondike/MS_deals/Easy1.json, verbatim.
EASY1_TEXT = """{
  "tableau piles": [
    [ "9C" ],
    [ "10d", "JH"],
    [ "4h" ,"7c","4C"],
    [ "Kc" ,"5d","Ah" ,"AD"],
    [ "Qh" ,"4s","2d" ,"9d","AS"],
    [ "10h","6d","3d" ,"3c","Ac","2S"],
    [ "Qs" ,"Kh","10s","Ks", "8d","5h","4D"]
  ],
  "stock": ["2C","3S", "JS","6S","8H","2H","8S","7S","3H","9S","6H","JC","10C","5S","7D","8C","KD","5C","7H","QD","9H","6C","QC","JD"]
}"""
EASY1 = json.loads(EASY1_TEXT)

# Solvitaire's src/test/resources/klondike/SimpleSolvable.json (a 4-pile A..4 test game)
# plus our "ranks" key.
SMALL = {
    "tableau piles": [["3d", "2c", "Ac", "2H"], ["4h", "3h", "2S"], ["4d", "3C"], ["AS"]],
    "stock": ["3S", "4S", "4C", "2D", "AH", "AD"],
    "ranks": 4,
}


def test_reads_a_solvitaire_deal():
    pos = position_from_json(EASY1)
    assert pos.face_down == [0, 1, 2, 3, 4, 5, 6]
    assert pos.tableau[0] == [C("9C")]
    assert pos.tableau[1] == [C("TD"), C("JH")]
    assert pos.tableau[6][-1] == C("4D")
    assert pos.stock[0] == C("2C") and pos.stock[-1] == C("JD")  # JD is drawn first
    assert pos.waste == [] and pos.foundations == [0, 0, 0, 0] and pos.redeals == 0 and pos.ranks == 13


def test_reads_a_reduced_deal():
    pos = position_from_json(SMALL)
    assert pos.ranks == 4 and len(pos.tableau) == 4
    assert pos.face_down == [3, 2, 1, 0]
    assert position_to_json(pos)["ranks"] == 4


def test_writes_solvitaire_spelling():
    obj = position_to_json(position_from_json(EASY1))
    assert list(obj) == ["tableau piles", "stock", "waste", "foundations"]
    assert obj["tableau piles"][1] == ["10d", "JH"]
    assert obj["tableau piles"][3] == ["Kc", "5d", "Ah", "AD"]
    assert obj["stock"][-1] == "JD" and obj["waste"] == [] and obj["foundations"] == []


@pytest.mark.parametrize("token", ["TD", "td", "10D", "10d", "Td", "tD"])
def test_ten_spellings(token):
    obj = copy.deepcopy(EASY1)
    obj["tableau piles"][1][0] = token  # face down in this pile: a lower-case suit
    if token[-1].isupper():
        with pytest.raises(DealFileError, match="T2: face-up JH on TD"):
            position_from_json(obj)
    else:
        assert position_from_json(obj).tableau[1][0] == C("TD")


def test_numeric_ranks_beyond_ten_are_refused():
    obj = copy.deepcopy(EASY1)
    obj["stock"][0] = "2c"  # case does not matter outside the tableau
    obj["tableau piles"][0] = ["9C"]
    assert position_from_json(obj).stock[0] == C("2C")
    obj["stock"][-1] = "11D"  # was read as JD (issue 14)
    with pytest.raises(DealFileError, match="write JD"):
        position_from_json(obj)


def test_partly_played_position_and_both_foundation_forms():
    obj = {
        "tableau piles": [["3d", "4C"], [], ["4S", "3H"]],
        "stock": ["4H"],
        "waste": ["3S", "4D"],
        "foundations": ["AC", "AD", "2C", "2D", "AH", "2H", "AS", "2S", "3C"],
        "redeals": 1,
        "ranks": 4,
    }
    pos = position_from_json(obj)
    assert pos.foundations == [3, 2, 2, 2]
    assert pos.waste[-1] == C("4D") and pos.redeals == 1 and pos.face_down == [1, 0, 0]
    assert pos.tableau[1] == []
    # Solvitaire's older form: one list per foundation.
    nested = dict(obj, foundations=[["AC", "2C", "3C"], ["AD", "2D"], ["AH", "2H"], ["AS", "2S"]])
    assert position_from_json(nested) == pos
    out = position_to_json(pos)
    assert out["foundations"] == ["AC", "2C", "3C", "AD", "2D", "AH", "2H", "AS", "2S"]
    assert out["redeals"] == 1 and out["ranks"] == 4
    assert position_from_json(out) == pos


def test_round_trip_along_random_games(tmp_path):
    rules = KlondikeRules(draw=3, passes=3)
    rng = random.Random(1)
    for start in (position_from_json(EASY1), position_from_json(SMALL)):
        pos = start
        for step in range(60):
            obj = position_to_json(pos)
            assert position_from_json(json.loads(json.dumps(obj))) == pos
            if step % 20 == 0:
                path = tmp_path / f"deal{step}.json"
                dump_deal(pos, path)
                assert load_deal(path) == pos
            moves = legal_moves(pos, rules)
            if not moves:
                break
            pos = apply_move(pos, rules, rng.choice(moves))


def test_dump_writes_one_pile_per_line(tmp_path):
    path = tmp_path / "easy1.json"
    dump_deal(position_from_json(EASY1), path)
    lines = path.read_text().splitlines()
    assert lines[2] == '    ["9C"],' and lines[8] == '    ["Qs", "Kh", "10s", "Ks", "8d", "5h", "4D"]'
    assert json.loads(path.read_text()) == position_to_json(position_from_json(EASY1))


# ---------------------------------------------------------------------------
# Bad files: each gets a one-line DealFileError naming the problem.


def bad(**changes):
    obj = copy.deepcopy(EASY1)
    for key, value in changes.items():
        key = key.replace("_", " ")
        if value is None:
            del obj[key]
        else:
            obj[key] = value
    return obj


def pile(i, cards):
    piles = copy.deepcopy(EASY1["tableau piles"])
    piles[i] = cards
    return piles


BAD = {
    "not an object": ([1, 2], "must hold a JSON object, not list"),
    "unknown key": (dict(EASY1, foundation=[]), 'unknown key "foundation"'),
    "no tableau": (bad(tableau_piles=None), 'missing key "tableau piles"'),
    "stock not a list": (bad(stock="2C"), '"stock" must be a list of cards'),
    "pile not a list": (bad(tableau_piles=[["9C"], "JH"] + EASY1["tableau piles"][2:]), "list of lists"),
    "card not a string": (bad(stock=[2] + EASY1["stock"][1:]), 'stock: a card must be a string like "10H", not 2'),
    "redeals not int": (dict(EASY1, redeals="1"), '"redeals" must be an integer'),
    "redeals negative": (dict(EASY1, redeals=-1), '"redeals" must be an integer'),
    "ranks bool": (dict(EASY1, ranks=True), '"ranks" must be an integer from 1 to 13, not true'),
    "ranks too big": (dict(EASY1, ranks=14), '"ranks" must be an integer from 1 to 13'),
    "unknown card": (bad(stock=["XX"] + EASY1["stock"][1:]), 'stock: unknown card "XX"'),
    "unknown rank 14": (bad(stock=["14C"] + EASY1["stock"][1:]), 'stock: unknown card "14C"'),
    "unknown rank 0": (bad(waste=["0C"]), 'waste: unknown card "0C"'),
    "unknown suit": (bad(tableau_piles=pile(0, ["9X"])), 'T1: unknown card "9X"'),
    "empty token": (bad(stock=[""] + EASY1["stock"][1:]), 'stock: unknown card ""'),
    "duplicate": (bad(stock=["9C"] + EASY1["stock"][1:]), "duplicate card 9C (T1 and stock)"),
    "missing one": (bad(stock=EASY1["stock"][1:]), "missing card 2C"),
    "missing two": (bad(stock=EASY1["stock"][2:]), "missing cards 2C 3S"),
    "six piles": (bad(tableau_piles=EASY1["tableau piles"][:6]), "Klondike needs 7 tableau piles, this file has 6"),
    "eight piles": (dict(SMALL, **{"tableau piles": SMALL["tableau piles"] + [[]] * 4}), "1 to 7 tableau piles"),
    "no piles": (dict(SMALL, **{"tableau piles": []}), "1 to 7 tableau piles, this file has 0"),
    "face-up under face-down": (
        bad(tableau_piles=pile(3, ["Kc", "5D", "Ah", "AD"])), "T4: face-down Ah lies on face-up 5D"
    ),
    "face-down top": (bad(tableau_piles=pile(0, ["9c"])), "T1: its top card 9C is face down"),
    "not built": (bad(tableau_piles=pile(1, ["10D", "JH"])), "T2: face-up JH on TD is not built down"),
    "same colour": (bad(tableau_piles=pile(5, ["10h", "6d", "3d", "3c", "AC", "2S"])), "face-up 2S on AC"),
    "25 in stock and waste": (bad(tableau_piles=pile(0, []), waste=["9C"]), "at most 24 cards"),
    "foundation order": (
        bad(stock=EASY1["stock"][1:], foundations=["2C"]),
        "foundations: 2C cannot go on the Clubs foundation before AC",
    ),
    "foundation duplicate": (dict(SMALL, foundations=["AC", "AC"]), "duplicate card AC (foundations)"),
    "card above ranks": (dict(SMALL, stock=SMALL["stock"] + ["5S"]), "5S (stock) is not in a deck of ranks A..4"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_deal_files(case):
    obj, message = BAD[case]
    with pytest.raises(DealFileError) as info:
        position_from_json(obj)
    text = str(info.value)
    assert message in text
    assert "\n" not in text
    assert isinstance(info.value, ValueError)


def test_load_deal_errors_name_the_file(tmp_path):
    not_json = tmp_path / "broken.json"
    not_json.write_text('{"tableau piles": [}')
    with pytest.raises(DealFileError) as info:
        load_deal(not_json)
    assert str(info.value).startswith(f"{not_json}: not JSON (") and "\n" not in str(info.value)

    list_file = tmp_path / "list.json"
    list_file.write_text("[]")
    with pytest.raises(DealFileError, match="list.json: a deal file must hold a JSON object"):
        load_deal(list_file)

    with pytest.raises(DealFileError, match="cannot read the file"):
        load_deal(tmp_path / "nowhere.json")

    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{")
    with pytest.raises(DealFileError, match="not a UTF-8 text file"):
        load_deal(binary)


def test_dump_refuses_an_invalid_position(tmp_path):
    pos = position_from_json(EASY1)
    pos.stock.pop()
    with pytest.raises(DealFileError, match="missing card JD"):
        dump_deal(pos, tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()
