"""Beleaguered Castle deal files (Solvitaire's JSON): round trips, and every malformed
file or impossible option gives exit 2 with one line through the ``patience`` CLI."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest
from cli_helpers import patience_here

from solver.core.cards import Card
from solver.games.beleaguered_castle.dealfile import (
    DealFileError,
    dump_deal,
    load_deal,
    position_from_json,
    position_to_json,
)
from solver.games.beleaguered_castle.deals import bc_deal
from solver.games.beleaguered_castle.position import BCPosition

TT = ("--tt-mb", "32")


def assert_usage_error(r: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2, nothing on stdout, exactly one line on stderr, no traceback."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("patience: error: "), lines[0]
    assert r.stdout == ""
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])


# ------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("numbering, seed", [("pysolfc", 1), ("pysolfc", 32001), ("solvitaire", 0), ("solvitaire", 5)])
def test_round_trip_of_deals(numbering, seed, tmp_path):
    p = bc_deal(seed, numbering)
    obj = position_to_json(p)
    assert set(obj) == {"tableau piles", "foundations"}
    assert obj["foundations"] == ["AC", "AD", "AH", "AS"]
    assert position_from_json(json.loads(json.dumps(obj))) == p
    f = tmp_path / "deal.json"
    dump_deal(p, f)
    assert load_deal(f) == p


def test_round_trip_of_a_played_and_a_reduced_position(tmp_path):
    C = Card.parse
    played = BCPosition(
        [[C("KS"), C("QD")], [C("KD")], [C("KH"), C("QH"), C("JH")]] + [[] for _ in range(5)],
        [13, 11, 10, 12],
    )
    played.validate()
    reduced = BCPosition([[C("3C"), C("2D")], [C("3D"), C("2H"), C("3H")], [C("2C")], [C("2S"), C("3S")]],
                         [1, 1, 1, 1], ranks=3)
    for p in (played, reduced):
        obj = position_to_json(p)
        assert position_from_json(obj) == p
        dump_deal(p, tmp_path / "p.json")
        assert load_deal(tmp_path / "p.json") == p
    assert position_to_json(reduced)["ranks"] == 3
    assert position_to_json(played)["foundations"][:3] == ["AC", "2C", "3C"]


def test_solvitaire_spellings_and_default_foundations():
    obj = position_to_json(bc_deal(3))
    del obj["foundations"]  # the four Aces, as dealt
    spelled = copy.deepcopy(obj)
    spelled["tableau piles"] = [[t.replace("10", "T") for t in pile] for pile in spelled["tableau piles"]]
    spelled["tableau piles"][0] = [("1" if t[0] == "A" else "") + t for t in spelled["tableau piles"][0]]
    assert position_from_json(obj) == bc_deal(3) == position_from_json(spelled)
    nested = position_to_json(bc_deal(3))
    nested["foundations"] = [["AC"], ["AD"], ["AH"], ["AS"]]  # Solvitaire's older form
    assert position_from_json(nested) == bc_deal(3)


# -------------------------------------------------------------------- malformed files


def _deal5():
    return position_to_json(bc_deal(5))


def _with(edit):
    obj = copy.deepcopy(_deal5())
    edit(obj)
    return obj


def _swap_ace_into_tableau(obj):
    obj["foundations"].remove("AS")
    obj["tableau piles"][2].append("AS")


def _long_pile(obj):
    piles = obj["tableau piles"]
    for i in range(1, 4):
        piles[0].extend(piles[i])
        piles[i] = []


BAD = [
    ("not-json", "{not json", ["not JSON"]),
    ("not-object", "[1, 2]", ["JSON object"]),
    ("unknown-card", _with(lambda o: o["tableau piles"][0].__setitem__(0, "ZZ")), ["unknown card", "ZZ", "T1"]),
    ("unknown-rank", _with(lambda o: o["tableau piles"][1].__setitem__(0, "1S")), ["unknown card", "1S", "write AS"]),
    ("card-not-string", _with(lambda o: o["tableau piles"][0].__setitem__(0, 5)), ["card"]),
    ("duplicate", _with(lambda o: o["tableau piles"][0].__setitem__(0, o["tableau piles"][1][0])), ["duplicate"]),
    ("missing", _with(lambda o: o["tableau piles"][3].pop()), ["missing card"]),
    ("7-piles", _with(lambda o: o["tableau piles"].pop()), ["8 tableau piles", "7"]),
    ("9-piles", _with(lambda o: o["tableau piles"].append([])), ["8 tableau piles", "9"]),
    ("face-down", _with(lambda o: o["tableau piles"][4].__setitem__(0, o["tableau piles"][4][0].lower())),
     ["face down"]),
    ("ace-in-tableau", _with(_swap_ace_into_tableau), ["AS", "T3", "foundations"]),
    ("foundation-order", _with(lambda o: o["foundations"].append("3C")), ["foundations", "3C"]),
    ("foundation-duplicate", _with(lambda o: o["foundations"].append("AC")), ["duplicate", "AC"]),
    ("foundations-not-list", _with(lambda o: o.__setitem__("foundations", "AC")), ["foundations"]),
    ("pile-too-long", _with(_long_pile), ["T1", "24 cards"]),
    ("unknown-key", _with(lambda o: o.__setitem__("stock", [])), ["unknown key", "stock"]),
    ("no-tableau", _with(lambda o: o.__delitem__("tableau piles")), ["tableau piles"]),
    ("tableau-not-lists", _with(lambda o: o.__setitem__("tableau piles", ["AC"])), ["tableau piles"]),
    ("bad-ranks", _with(lambda o: o.__setitem__("ranks", 14)), ["ranks"]),
    ("rank-over-ranks", _with(lambda o: o.__setitem__("ranks", 12)), ["ranks A..12"]),
]


@pytest.mark.parametrize("content, words", [(c, w) for _, c, w in BAD], ids=[i for i, _, _ in BAD])
def test_bad_deal_file_is_one_line_and_exit_2(tmp_path, content, words):
    f = tmp_path / "bad.json"
    f.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(DealFileError) as err:
        load_deal(f)
    assert "\n" not in str(err.value)
    assert_usage_error(patience_here("solve", "bc", "--deal", str(f), *TT), str(f), *words)


def test_unreadable_files(tmp_path):
    f = tmp_path / "bad.json"
    f.write_bytes(b"\xff\xfe\x00{")
    assert_usage_error(patience_here("solve", "beleaguered-castle", "--deal", str(f), *TT), "UTF-8")
    assert_usage_error(patience_here("solve", "bc", "--deal", str(tmp_path / "none.json"), *TT), "none.json")


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "bc", "5", "--draw", "3"], ["--draw does not apply to beleaguered-castle"]),
        (["solve", "bc", "5", "--passes", "1"], ["--passes does not apply"]),
        (["solve", "bc", "5", "--no-worry-back"], ["--no-worry-back does not apply"]),
        (["solve", "bc", "5", "--rules", "x"], ["--rules does not apply"]),
        (["deal", "bc", "5", "--draw", "1"], ["--draw does not apply"]),
        (["solve", "bc", "0"], ["0"]),
        (["solve", "bc", "x"], ["x"]),
        (["solve", "bc", "1", "--numbering", "microsoft"], ["numbering"]),
        (["deal", "beleaguered-castle", "0"], ["0"]),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args, words):
    extra = list(TT) if args[0] == "solve" else []
    assert_usage_error(patience_here(*args, *extra), *words)


# ------------------------------------------------------------------ the CLI end to end


def test_deal_json_is_a_deal_file_of_the_deal():
    for numbering, seed in (("pysolfc", 5), ("solvitaire", 5)):
        r = patience_here("deal", "beleaguered-castle", str(seed), "--numbering", numbering, "--json")
        assert r.returncode == 0, r.stderr
        assert position_from_json(json.loads(r.stdout)) == bc_deal(seed, numbering)
    r = patience_here("deal", "bc", "1")
    assert r.returncode == 0 and "T1  JD KD KS QH 8H 6C" in r.stdout, r.stdout


def test_solve_deal_file_and_seed_agree(tmp_path):
    from solver.games.beleaguered_castle import reference
    from solver.core.moves import Move

    f = tmp_path / "deal.json"
    dump_deal(bc_deal(1, "solvitaire"), f)
    by_file = patience_here("solve", "bc", "--deal", str(f), "--json", "--line", "fast", *TT)
    by_seed = patience_here("solve", "bc", "1", "--numbering", "solvitaire", "--json", "--line", "fast", *TT)
    assert by_file.returncode == 0 and by_seed.returncode == 0, (by_file.stderr, by_seed.stderr)
    a, b = json.loads(by_file.stdout), json.loads(by_seed.stdout)
    assert a["verdict"] == b["verdict"] and a["moves"] == b["moves"] and a["nodes"] == b["nodes"]
    assert a["game"] == "beleaguered-castle" and a["rules"] == {} and a["seed"] is None
    assert b["seed"] == 1 and b["numbering"] == "solvitaire"
    if b["verdict"] == "won":
        assert b["verified"]
        for m in b["moves"]:
            assert set(m) == {"from", "to", "card", "count"} and m["count"] == 1, m
        reference.verify_win(bc_deal(1, "solvitaire"), [Move.from_json(m) for m in b["moves"]])


def test_solve_bc_5_text_output():
    r = patience_here("solve", "bc", "5", *TT)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("beleaguered-castle #5 (pysolfc numbering)")
    assert lines[1] == "verdict: won, line verified by the reference engine"
    assert lines[3].startswith("winning line: ")
    n = int(lines[3].split()[2])
    assert len(lines) == 4 + n
    import re
    assert all(re.fullmatch(r"\s*\d+\. [2-9TJQK][CDHS]  T[1-8] -> [TF][1-8]", line) for line in lines[4:]), lines[4:8]


def test_text_output_names_the_rules_of_a_game_without_options():
    r = patience_here("solve", "bc", "5", "--max-nodes", "10", *TT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "beleaguered-castle #5 (pysolfc numbering), rules: standard (the game has no options)"


def test_show_prints_the_board_after_every_move():
    r = patience_here("solve", "bc", "2", "--numbering", "solvitaire", "--show", *TT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("F1") > 10  # a board (with its foundation row) after each move
