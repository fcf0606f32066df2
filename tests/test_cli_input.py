"""Bad and unusual input found by trying the project as a new user (issue 14): each case
failed (a traceback, a silent misreading, or a message naming internals) before its fix."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from cli_helpers import one_line_error, patience, patience_here

from solver import api
from solver.games import adapter_for, get_game
from solver.games.klondike import dealfile as klondike_dealfile
from solver.games.klondike.deals import klondike_deal
from solver.runs.store import Store

TT = ("--tt-mb", "64")


def _deal_json(*args: str) -> dict:
    r = patience_here("deal", *args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _strip_meta(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k not in ("game", "rules", "seed", "numbering")}


# ------------------------------------------------------------------ options and seeds

@pytest.mark.parametrize("args, words", [
    (["solve", "windmill", "1", "--draw", "3"], ["--draw does not apply to windmill", "--rules"]),
    (["solve", "bc", "1", "--no-worry-back"], ["--no-worry-back does not apply to beleaguered-castle"]),
    (["solve", "great-wheel", "1", "--passes", "2"], ["--passes does not apply to great-wheel"]),
    (["solve", "bc", "1", "--rules", "strict"], ["--rules does not apply to beleaguered-castle"]),
    (["solve", "klondike", "1", "--rules", "strict"], ["unknown Klondike rules", "vegas"]),
    (["batch", "windmill", "--seeds", "1-2", "--draw", "3"], ["--draw does not apply to windmill"]),
    (["solve", "klondike", "-1"], ["invalid seed '-1'"]),
    (["solve", "klondike", str(10**30)], ["10**20"]),
    (["solve", "klondike", "1", "--tt-mb", "1000000"], ["--tt-mb", "memory"]),
    (["solve", "klondike", "1", "--json", "--show"], ["--show", "--json"]),
])
def test_bad_options_name_the_flag(args, words):
    extra = list(TT) if args[0] == "solve" and "--tt-mb" not in args else []
    line = one_line_error(patience_here(*args, *extra))
    for w in words:
        assert w in line, line
    assert "option worry_back" not in line and "has no option" not in line


@pytest.mark.parametrize("size", ["0", "nan", "1e9"])
def test_a_bad_table_size_is_one_line_from_every_command_and_the_library(size, tmp_path):
    """One check of the table size (resources.check_tt_mb) serves every command and
    the library; the command's line names the flag, the library's the option's key."""
    from solver.runs.batch import Batch

    for args in (["solve", "klondike", "1"], ["hint", "klondike", "1"],
                 ["batch", "klondike", "--seeds", "1-2", "--db", str(tmp_path / "r.sqlite")]):
        line = one_line_error(patience_here(*args, "--tt-mb", size))
        assert "--tt-mb" in line and ("more than 0" in line or "memory" in line), line
    assert not (tmp_path / "r.sqlite").exists()  # refused before the batch opened its database
    for call in (lambda: api.solve("klondike", 1, tt_mb=float(size)),
                 lambda: Batch("klondike", "1-2", tt_mb=float(size))):
        with pytest.raises(ValueError, match="tt_mb"):
            call()


def test_largest_pysolfc_number_is_accepted():
    # PySolFC's seeds run to 10**20 inclusive; one more is refused above
    g, _rules, position = api.make_deal("klondike", 10**20)
    assert position.validate() is None


@pytest.mark.parametrize("args", [
    ["solve", "windmill", "1", "--rules", "STRICT", "--max-nodes", "10"],
    ["solve", "klondike", "1", "--numbering", "Solvitaire", "--max-nodes", "10"],
    ["solve", "Windmill", "1", "--rules", " Strict ", "--max-nodes", "10"],
])
def test_rule_and_numbering_names_ignore_case(args):
    r = patience_here(*args, *TT)
    assert r.returncode == 0, r.stderr


def test_preset_rules_read_alike_for_windmill_and_great_wheel():
    for game, preset in (("windmill", "strict"), ("great-wheel", "pgs")):
        r = patience_here("solve", game, "1", "--rules", preset, "--max-nodes", "10", "--json", *TT)
        assert json.loads(r.stdout)["rules"] == {"rules": preset}
        r = patience_here("solve", game, "1", "--rules", preset, "--max-nodes", "10", *TT)
        assert f"rules: {preset}\n" in r.stdout, r.stdout


# ------------------------------------------------------------------ deal files

def test_numbering_with_a_deal_file_is_refused(tmp_path):
    f = tmp_path / "d.json"
    f.write_text(json.dumps(_deal_json("klondike", "3")))
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(f), "--numbering", "solvitaire", *TT))
    assert "--numbering" in line


def test_deal_file_names_its_game_rules_and_seed():
    obj = _deal_json("windmill", "7", "--rules", "welford")
    assert (obj["game"], obj["rules"], obj["seed"], obj["numbering"]) == ("windmill", {"rules": "welford"}, 7,
                                                                        "pysolfc")


def test_a_deal_file_plays_under_its_own_rules(tmp_path):
    f = tmp_path / "w.json"
    f.write_text(json.dumps(_deal_json("windmill", "5", "--rules", "welford")))
    g, rules, position = api.make_deal("windmill", deal=str(f))
    assert rules.preset == "welford" and position == adapter_for("windmill", rules).deal(5, "pysolfc", rules)
    r = patience_here("solve", "windmill", "--deal", str(f), "--max-nodes", "10", "--json", *TT)
    assert json.loads(r.stdout)["rules"] == {"rules": "welford"}


def test_a_deal_file_of_another_game_says_which(tmp_path):
    f = tmp_path / "k.json"
    f.write_text(json.dumps(_deal_json("klondike", "3")))
    line = one_line_error(patience_here("solve", "bc", "--deal", str(f), *TT))
    assert "klondike deal file" in line and "patience solve klondike" in line


@pytest.mark.parametrize("source, target, args, hint", [
    (("windmill", "5", "--rules", "welford"), "windmill", [], "windmill --rules welford"),
    (("klondike", "3"), "bc", [], "klondike"),
    (("great-wheel", "2"), "windmill", [], "great-wheel"),
])
def test_a_bare_deal_file_of_another_format_gets_a_hint(tmp_path, source, target, args, hint):
    f = tmp_path / "d.json"
    f.write_text(json.dumps(_strip_meta(_deal_json(*source))))  # an older file: no "game" or "rules"
    line = one_line_error(patience_here("solve", target, "--deal", str(f), *args, *TT))
    assert "unknown key" in line and f"reads as a {hint} deal file" in line, line


def test_deal_file_from_standard_input():
    text = json.dumps(_deal_json("klondike", "3"))
    r = patience("solve", "klondike", "--deal", "-", "--json", *TT, input=text)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["verdict"] == "won" and obj["seed"] is None


def test_deal_file_with_a_byte_order_mark(tmp_path):
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(_deal_json("klondike", "3")).encode())
    r = patience_here("solve", "klondike", "--deal", str(f), "--max-nodes", "10", *TT)
    assert r.returncode == 0, r.stderr


def test_deeply_nested_deal_file_is_one_line(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in one_line_error(patience_here("solve", "klondike", "--deal", str(f), *TT))


@pytest.mark.parametrize("token, hint", [("11H", "JH"), ("13S", "KS"), ("12D", "QD"), ("1C", "AC")])
def test_numbers_beyond_ten_are_not_face_cards(tmp_path, token, hint):
    obj = klondike_dealfile.position_to_json(klondike_deal(5))
    obj["stock"][0] = token
    f = tmp_path / "d.json"
    f.write_text(json.dumps(obj))
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(f), *TT))
    assert "unknown card" in line and f"write {hint}" in line, line


def test_redeals_beyond_the_passes_are_refused(tmp_path):
    obj = klondike_dealfile.position_to_json(klondike_deal(5))
    obj["redeals"] = 5
    f = tmp_path / "d.json"
    f.write_text(json.dumps(obj))
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(f), "--passes", "3", *TT))
    assert '"redeals": 5' in line and "--passes 3" in line
    assert patience_here("solve", "klondike", "--deal", str(f), "--max-nodes", "10", *TT).returncode == 0


# ------------------------------------------------------------------ boards

@pytest.mark.parametrize("preset", ["pysolfc", "strict", "welford"])
def test_every_windmill_board_is_drawn_as_a_windmill(preset):
    r = patience_here("deal", "windmill", "1", "--rules", preset)
    lines = r.stdout.splitlines()
    centre = next(i for i, line in enumerate(lines) if "[A" in line)
    assert "K1:" in lines[centre - 1] and "K2:" in lines[centre - 1], r.stdout  # king piles between the arms
    assert lines[centre].split()[0] != "cells", r.stdout


# ------------------------------------------------------------------ results database

def _db(tmp_path) -> str:
    db = str(tmp_path / "r.sqlite")
    r = patience_here("batch", "klondike", "--seeds", "1-2", "--db", db, "--no-progress", "--max-nodes", "100000",
                      "--workers", "1", *TT)
    assert r.returncode == 0, r.stderr
    return db


def test_export_to_an_unwritable_place_is_one_line(tmp_path):
    line = one_line_error(patience_here("export", "--db", _db(tmp_path), "--out", "/nonexistent/x.csv"))
    assert "/nonexistent/x.csv" in line


def test_export_writes_finished_as_a_date(tmp_path):
    r = patience_here("export", "--db", _db(tmp_path))
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows and all(row["finished"][:2] == "20" and row["finished"].endswith("+00:00") for row in rows)


def test_a_version_2_windmill_database_resumes_under_the_same_configuration(tmp_path):
    db = str(tmp_path / "w.sqlite")
    args = ("batch", "windmill", "--seeds", "1-2", "--db", db, "--no-progress", "--max-nodes", "2000",
            "--workers", "1", *TT)
    assert patience_here(*args).returncode == 0
    with sqlite3.connect(db) as conn:  # as a version-2 database stored it
        conn.execute("UPDATE configs SET rules = replace(rules, '\"rules\"', '\"preset\"'), "
                     "key = replace(key, '{\"rules\":\"pysolfc\"}', '{\"preset\":\"pysolfc\"}')")
        conn.execute("PRAGMA user_version = 2")
    with Store(db) as store:
        assert [c.rules for c in store.configs()] == [{"rules": "pysolfc"}]
    r = patience_here(*args)
    assert r.returncode == 0 and "0 to solve" in r.stderr, r.stderr


def test_a_batch_without_limits_warns(tmp_path):
    db = str(tmp_path / "r.sqlite")
    r = patience_here("batch", "klondike", "--seeds", "1", "--db", db, "--no-progress", "--workers", "1", *TT)
    assert r.returncode == 0 and "warning: neither --timeout nor --max-nodes" in r.stderr
    r = patience_here("batch", "klondike", "--seeds", "2", "--db", db, "--no-progress", "--workers", "1",
                      "--timeout", "60", *TT)
    assert r.returncode == 0 and "warning" not in r.stderr


# ------------------------------------------------------------------ feedback on long work

def test_ctrl_c_ends_a_solve_with_what_was_searched():
    import signal
    import subprocess
    import sys
    import time

    from cli_helpers import ROOT

    assert patience("solve", "windmill", "1", "--max-nodes", "10", "--tt-mb", "64").returncode == 0  # compiled
    p = subprocess.Popen([sys.executable, "-m", "solver", "solve", "windmill", "2", "--tt-mb", "256"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(5)  # loaded and searching (seed 2 is not decided in minutes)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, (out, err)
    assert "verdict: unknown (interrupted)" in out and "best found: " in out
    assert int(out.split("nodes: ")[1].split()[0]) > 10_000  # it had searched
    assert "Traceback" not in err and "interrupted" in err


def test_a_long_solve_shows_a_live_line_on_a_terminal():
    import os
    import subprocess
    import sys

    from cli_helpers import ROOT

    master, slave = os.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "solver", "solve", "windmill", "2", "--timeout", "3",
                            "--tt-mb", "256"], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, timeout=120)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    assert r.returncode == 0
    assert b"searching " in seen and b" stored, best " in seen and b" home" in seen
    assert b"searching" not in r.stdout


# ------------------------------------------------------------------ found by review

def test_a_preset_on_the_command_line_replaces_a_deal_files_rules(tmp_path):
    f = tmp_path / "k5.json"
    f.write_text(json.dumps(_deal_json("klondike", "5")))  # names draw 1, unlimited passes, worry-back
    r = patience_here("solve", "klondike", "--deal", str(f), "--rules", "vegas", "--max-nodes", "10", "--json", *TT)
    assert json.loads(r.stdout)["rules"]["passes"] == 1
    r = patience_here("solve", "klondike", "--deal", str(f), "--passes", "3", "--max-nodes", "10", "--json", *TT)
    assert json.loads(r.stdout)["rules"] == {"draw": 1, "passes": 3, "worry_back": True}


@pytest.mark.parametrize("rules", [{"draw": "three"}, {"passes": "2"}, {"draw": 3.5}, {"passes": True},
                                   {"worry_back": "no"}, {"colour": "red"}])
def test_a_deal_files_rules_are_checked(tmp_path, rules):
    obj = _deal_json("klondike", "5")
    obj["rules"] = rules
    f = tmp_path / "k.json"
    f.write_text(json.dumps(obj))
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(f), *TT))
    assert '"rules"' in line and "is not a klondike rule option" in line


def test_a_deal_files_rules_name_only_options_of_its_game(tmp_path):
    obj = _deal_json("windmill", "5")
    obj["rules"] = {"draw": 3}
    f = tmp_path / "w.json"
    f.write_text(json.dumps(obj))
    line = one_line_error(patience_here("solve", "windmill", "--deal", str(f), *TT))
    assert '"draw": 3' in line and "is not a windmill rule option" in line


def test_a_hint_on_a_won_position_says_so(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(solver_json("klondike", "5")))
    r = patience_here("hint", "klondike", "5", "--moves", str(f), *TT)
    assert r.returncode == 0 and "already won" in r.stdout, r.stderr


@pytest.mark.parametrize("count", [1e400, 2.7, True])
def test_a_move_count_that_is_not_a_whole_number_is_one_line(tmp_path, count):
    f = tmp_path / "m.json"
    f.write_text(json.dumps([{"from": "stock", "to": "waste", "count": count}]))
    line = one_line_error(patience_here("hint", "klondike", "5", "--moves", str(f), *TT))
    assert "not a list of moves" in line


def solver_json(game: str, seed: str) -> dict:
    r = patience_here("solve", game, seed, "--json", *TT)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# ------------------------------------------------------------------ numbers as a person types them (issue 32)

@pytest.mark.parametrize("args, words", [
    (["solve", "klondike", "1_0"], ["invalid seed", "'1_0'", "not a whole number"]),
    (["solve", "klondike", "+5"], ["invalid seed", "'+5'"]),
    (["solve", "klondike", "\u0663"], ["invalid seed", "not a whole number"]),  # an Arabic-Indic 3
    (["deal", "klondike", "1_0"], ["invalid seed"]),
    (["solve", "klondike", "1", "--passes", "inf"], ["--passes", "'inf'"]),
    (["solve", "klondike", "1", "--draw", "1_0"], ["--draw", "not a whole number"]),
    (["solve", "klondike", "1", "--max-nodes", "+5"], ["--max-nodes", "not a whole number"]),
    (["batch", "klondike", "--seeds", "1", "--workers", "\u0663"], ["--workers", "not a whole number"]),
    (["solve", "klondike", "9" * 5000], ["invalid seed", "5000 characters", "too large"]),
    (["batch", "klondike", "--seeds", "1-" + "9" * 5000], ["invalid seed", "5000 characters", "larger than"]),
])
def test_numbers_are_ascii_digits_and_every_refusal_fits_a_line(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(patience_here(*args, *(TT if args[0] != "deal" else ())))
    for w in words:
        assert w in line, line
    assert len(line) < 200 and "set_int_max_str_digits" not in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(seed=10**40), ['"seed" must be a whole number', "41 characters"]),
    (lambda d: d.update(redeals=int("7" * 5000)), ["too many digits"]),
])
def test_deal_file_numbers_out_of_range_are_one_line(change, words, tmp_path):
    import sys

    obj = _deal_json("klondike", "3")
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # so that the test can write a 5000-digit number
    try:
        change(obj)
        text = json.dumps(obj)
    finally:
        sys.set_int_max_str_digits(old)
    path = tmp_path / "d.json"
    path.write_text(text)
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(path), *TT))
    for w in words:
        assert w in line, line
    assert len(line) < 200 + len(str(path))
