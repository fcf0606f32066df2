"""The ``patience`` command, run as a user runs it: in a subprocess.

Each run costs about half a second of interpreter + numba start-up, so the deals used
are ones the solver decides in a few hundred nodes, and every solve uses a small table.
"""

from __future__ import annotations

import copy
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import patience, patience_here

from solver.core.cards import Card
from solver.games.klondike import dealfile, reference
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.board import render
from solver.games.klondike.position import KlondikeRules
from solver.core.moves import Move

ROOT = Path(__file__).resolve().parents[1]
TT = ("--tt-mb", "64")
TABLEAU = {f"T{i}" for i in range(1, 8)}
FOUNDATIONS = {f"F{i}" for i in range(1, 5)}
PILES = {"stock", "waste"} | TABLEAU | FOUNDATIONS
JSON_KEYS = {"game", "rules", "numbering", "seed", "verdict", "reason", "nodes", "seconds", "verified", "proof",
             "best_progress", "moves_found", "line", "line_found_length", "counters", "moves"}
VERIFIED = "verdict: won, line verified by the reference engine"


def solve_json(*args: str, here: bool = False) -> dict:
    r = (patience_here if here else patience)("solve", *args, *TT, "--json")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1, "--json must print exactly one JSON object"
    obj = json.loads(lines[0])
    assert isinstance(obj, dict)
    return obj


def check_move_shapes(moves: list[dict], draw: int) -> None:
    for m in moves:
        assert m["from"] in PILES and m["to"] in PILES, m
        if m["from"] == "waste" and m["to"] == "stock":  # redeal
            assert set(m) == {"from", "to"}, m
        elif m["from"] == "stock":  # draw
            assert m["to"] == "waste" and set(m) == {"from", "to", "count"}, m
            assert isinstance(m["count"], int) and 1 <= m["count"] <= draw, m
        else:
            assert set(m) == {"from", "to", "card", "count"}, m
            assert m["to"] not in ("stock", "waste"), m
            Card.parse(m["card"])  # a real card
            assert isinstance(m["count"], int) and m["count"] >= 1, m
            if m["from"] in FOUNDATIONS or m["to"] in FOUNDATIONS or m["from"] == "waste":
                assert m["count"] == 1, m


def replay_json(position, rules, moves: list[dict]):
    return reference.replay(position, rules, [Move.from_json(m) for m in moves])


def deal_json(seed: str, *args: str, here: bool = False) -> dict:
    r = (patience_here if here else patience)("deal", "klondike", seed, *args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


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


# ----------------------------------------------------------------------------- solve


def test_solve_text_output():
    r = patience("solve", "klondike", "1", *TT)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert lines[0].startswith("klondike #1 (pysolfc numbering), rules: draw=1, passes=unlimited, worry_back=True")
    assert VERIFIED in lines
    m = re.search(r"^winning line: (\d+) steps \((\d+) moves", r.stdout, re.M)
    assert m and int(m.group(2)) > 50
    numbered = [int(x) for x in re.findall(r"^\s*(\d+)\. ", r.stdout, re.M)]
    assert numbered == list(range(1, len(numbered) + 1)) and len(numbered) > 10
    # the last steps put the last cards on the foundations
    assert re.search(r"->\s*F[1-4]$", lines[-1])


def test_solve_json_is_one_object_and_replays_to_a_win():
    obj = solve_json("klondike", "1")
    assert set(obj) == JSON_KEYS
    assert obj["game"] == "klondike"
    assert obj["rules"] == {"draw": 1, "passes": "unlimited", "worry_back": True}
    assert obj["numbering"] == "pysolfc" and obj["seed"] == 1
    assert obj["verdict"] == "won" and obj["reason"] is None and obj["verified"] is True
    assert isinstance(obj["nodes"], int) and obj["nodes"] > 0
    assert isinstance(obj["seconds"], (int, float)) and obj["seconds"] >= 0
    check_move_shapes(obj["moves"], draw=1)
    assert any(m["from"] == "stock" for m in obj["moves"])
    assert any(m.get("to") == "stock" for m in obj["moves"]), "game 1's line uses redeals"

    # Replay it ourselves from the deal the CLI prints.
    start = dealfile.position_from_json(deal_json("1"))
    assert start == klondike_deal(1)
    final = replay_json(start, KlondikeRules(), obj["moves"])
    assert final.is_won()


@pytest.mark.parametrize(
    "args, rules, numbering",
    [
        (["--draw", "3"], {"draw": 3, "passes": "unlimited", "worry_back": True}, "pysolfc"),
        (["--passes", "1"], {"draw": 1, "passes": 1, "worry_back": True}, "pysolfc"),
        (["--passes", "unlimited"], {"draw": 1, "passes": "unlimited", "worry_back": True}, "pysolfc"),
        (["--no-worry-back"], {"draw": 1, "passes": "unlimited", "worry_back": False}, "pysolfc"),
        (["--numbering", "solvitaire"], {"draw": 1, "passes": "unlimited", "worry_back": True}, "solvitaire"),
        (["--draw", "3", "--passes", "3", "--no-worry-back", "--numbering", "solvitaire"],
         {"draw": 3, "passes": 3, "worry_back": False}, "solvitaire"),
    ],
)
def test_rule_options_reach_the_json(args, rules, numbering):
    obj = solve_json("klondike", "1", *args, "--max-nodes", "20000", here=True)
    assert obj["rules"] == rules
    assert obj["numbering"] == numbering and obj["seed"] == 1
    if obj["verdict"] == "won":
        assert obj["verified"]
        check_move_shapes(obj["moves"], rules["draw"])
        start = klondike_deal(1, numbering, rules["draw"])
        passes = None if rules["passes"] == "unlimited" else rules["passes"]
        r = KlondikeRules(draw=rules["draw"], passes=passes, worry_back=rules["worry_back"])
        assert replay_json(start, r, obj["moves"]).is_won()


def test_passes_zero_is_refused():
    # it once meant "unlimited", silently (issue 14)
    assert_usage_error(patience_here("solve", "klondike", "1", "--passes", "0", *TT), "--passes", "at least 1")


def test_max_nodes_gives_unknown_node_limit():
    obj = solve_json("klondike", "1", "--numbering", "solvitaire", "--draw", "3", "--max-nodes", "5")
    assert obj["verdict"] == "unknown" and obj["reason"] == "node-limit"
    assert obj["verified"] is False and obj["moves"] == []
    assert obj["nodes"] >= 5


def test_timeout_gives_unknown_time_limit():
    obj = solve_json("klondike", "15", "--numbering", "solvitaire", "--draw", "3", "--timeout", "0.001")
    assert obj["verdict"] == "unknown" and obj["reason"] == "time-limit"
    assert obj["moves"] == [] and obj["verified"] is False


def test_unknown_text_output_has_no_line():
    r = patience_here("solve", "klondike", "1", "--numbering", "solvitaire", "--draw", "3", "--max-nodes", "5", *TT)
    assert r.returncode == 0, r.stderr
    assert "verdict: unknown (node-limit)" in r.stdout
    assert "winning line" not in r.stdout and "verified" not in r.stdout


def test_game_alias_on_the_command_line():
    obj = solve_json("k", "5", here=True)
    assert obj["game"] == "klondike" and obj["verdict"] == "won"


# ------------------------------------------------------------------ deal files / --show


def _partly_played(seed: int, keep_last: int, rules: KlondikeRules = KlondikeRules()):
    """The position ``keep_last`` moves before the end of the solver's line for ``seed``."""
    import solver

    r = solver.solve("klondike", seed, tt_mb=64, draw=rules.draw, passes=rules.passes)
    assert r.verdict == "won"
    return reference.replay(klondike_deal(seed, "pysolfc", rules.draw), rules, r.moves[:-keep_last])


def test_solve_deal_file_agrees_with_the_seed(tmp_path):
    f = tmp_path / "game5.json"
    f.write_text(json.dumps(deal_json("5")))
    from_file = solve_json("klondike", "--deal", str(f))
    from_seed = solve_json("klondike", "5")
    assert from_file["verdict"] == from_seed["verdict"] == "won"
    assert from_file["verified"] is True
    assert from_file["seed"] is None and from_file["numbering"] is None
    assert from_file["rules"] == from_seed["rules"]
    assert from_file["moves"] == from_seed["moves"]  # same position, deterministic search
    assert replay_json(klondike_deal(5), KlondikeRules(), from_file["moves"]).is_won()


def test_solve_deal_file_text_output(tmp_path):
    f = tmp_path / "game5.json"
    dealfile.dump_deal(klondike_deal(5), f)
    r = patience("solve", "klondike", "--deal", str(f), *TT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith(f"klondike deal file {f}, rules:")
    assert VERIFIED in r.stdout


def test_solve_partly_played_deal_file(tmp_path):
    start = _partly_played(5, keep_last=120)
    assert not start.is_won() and any(start.foundations)
    f = tmp_path / "played.json"
    dealfile.dump_deal(start, f)
    obj = solve_json("klondike", "--deal", str(f))
    assert obj["verdict"] == "won" and obj["verified"] is True
    assert replay_json(start, KlondikeRules(), obj["moves"]).is_won()


def test_solve_partly_played_deal_file_with_redeals_used(tmp_path):
    # Game 5 with 3 passes: stop just after the first redeal, so the file says "redeals": 1.
    rules = KlondikeRules(passes=3)
    import solver

    line = solver.solve("klondike", 5, passes=3, tt_mb=64).moves
    first = next(i for i, m in enumerate(line) if m.is_redeal)
    start = reference.replay(klondike_deal(5), rules, line[: first + 1])
    assert start.redeals == 1
    f = tmp_path / "redealt.json"
    dealfile.dump_deal(start, f)
    assert json.loads(f.read_text())["redeals"] == 1
    obj = solve_json("klondike", "--deal", str(f), "--passes", "3")
    assert obj["verdict"] == "won" and obj["rules"]["passes"] == 3
    assert sum(1 for m in obj["moves"] if m["to"] == "stock") <= 1  # only one redeal left
    assert replay_json(start, rules, obj["moves"]).is_won()


def test_show_prints_a_board_after_every_move(tmp_path):
    start = _partly_played(5, keep_last=6)
    f = tmp_path / "endgame.json"
    dealfile.dump_deal(start, f)
    r = patience("solve", "klondike", "--deal", str(f), "--show", *TT)
    assert r.returncode == 0, r.stderr
    n = int(re.search(r"^winning line: (\d+) steps", r.stdout, re.M).group(1))
    assert 1 <= n <= 20
    boards = re.findall(r"^stock: +\d+ cards", r.stdout, re.M)
    assert len(boards) == n + 1  # the start, then one per step (a run of draws is one step)
    assert [int(x) for x in re.findall(r"^(\d+)\. ", r.stdout, re.M)] == list(range(1, n + 1))
    assert render(start) in r.stdout
    last_board = r.stdout[r.stdout.rindex("stock:"):]
    assert "F1:KC  F2:KD  F3:KH  F4:KS" in last_board


# ----------------------------------------------------------------------------- deal


def test_deal_prints_a_board():
    r = patience("deal", "klondike", "123")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "klondike #123 (pysolfc numbering)\n" + render(klondike_deal(123)) + "\n"


def test_deal_json_loads_and_equals_the_deal():
    obj = deal_json("123")
    assert dealfile.position_from_json(obj) == klondike_deal(123)
    obj3 = deal_json("123", "--draw", "3", here=True)
    assert dealfile.position_from_json(obj3) == klondike_deal(123, draw=3)
    objs = deal_json("123", "--numbering", "solvitaire", here=True)
    assert dealfile.position_from_json(objs) == klondike_deal(123, "solvitaire")


# ----------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "nogame", "1"], ["unknown game"]),
        (["solve", "klondike", "abc"], ["abc"]),
        (["solve", "klondike", "0"], ["0"]),  # PySolFC numbers start at 1
        (["solve", "klondike", "-5"], ["invalid seed", "-5"]),  # click reads it as an option
        (["solve", "klondike", "--", "-5"], ["-5"]),
        (["solve", "klondike", "--numbering", "solvitaire", "--", "-5"], ["-5"]),
        (["solve", "klondike", "1", "--numbering", "xyz"], ["numbering"]),
        (["solve", "klondike", "1", "--draw", "0"], ["draw"]),
        (["solve", "klondike", "1", "--draw", "25"], ["draw"]),
        (["solve", "klondike", "1", "--draw", "x"], ["draw"]),
        (["solve", "klondike", "1", "--passes", "abc"], ["passes"]),
        (["solve", "klondike", "1", "--passes", "99"], ["passes"]),
        (["solve", "klondike", "1", "--passes", "-1"], ["passes"]),
        (["solve", "klondike", "1", "--rules", "x"], ["rules"]),
        (["solve", "klondike", "1", "--deal", "whatever.json"], ["whatever.json"]),
        (["solve", "klondike"], ["seed"]),
        (["solve", "klondike", "--deal", "/nonexistent/deal.json"], ["/nonexistent/deal.json"]),
        (["solve", "klondike", "1", "--bogus"], ["--bogus"]),
        (["solve", "klondike", "1", "--tt-mb", "0"], ["tt-mb"]),
        (["solve", "klondike", "1", "--tt-mb", "nan"], ["tt-mb"]),
        (["solve", "klondike", "1", "--max-nodes", "0"], ["max-nodes"]),
        (["solve", "klondike", "1", "--timeout", "-1"], ["timeout"]),
        (["solve", "klondike", "1", "--timeout", "0"], ["timeout"]),
        (["deal", "nogame", "1"], ["unknown game"]),
        (["deal", "klondike", "0"], ["0"]),
        (["deal", "klondike", "abc"], ["abc"]),
        (["deal", "klondike"], ["seed"]),
        (["nocommand"], []),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    extra = list(TT) if args[0] == "solve" and "--tt-mb" not in args and "--" not in args else []
    assert_usage_error(patience_here(*args, *extra), *words)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "nogame", "1"],
        ["solve", "klondike", "-5", *TT],
        ["solve", "klondike", "1", "--passes", "abc", *TT],
        ["solve", "klondike", "1", "--tt-mb", "0"],
    ],
)
def test_bad_input_in_a_real_process(args):
    assert_usage_error(patience(*args))


def test_tt_mb_inf_is_rejected_not_hung():
    # BUG: TranspositionTable._slots_within(inf) doubles an int forever, so this hangs.
    try:
        r = patience("solve", "klondike", "1", "--tt-mb", "inf", timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("patience solve klondike 1 --tt-mb inf hangs (infinite loop in TranspositionTable._slots_within)")
    assert_usage_error(r, "tt-mb")


def _game5():
    return dealfile.position_to_json(klondike_deal(5))


def _with(edit):
    obj = copy.deepcopy(_game5())
    edit(obj)
    return obj


def _face_up_under_face_down(obj):
    pile = obj["tableau piles"][2]  # game 5: ["4c", "9c", "7S"]
    pile[0] = pile[0][:-1] + pile[0][-1].upper()  # ["4C", "9c", "7S"]: 9c face down on face-up 4C


def _face_down_top(obj):
    pile = obj["tableau piles"][2]
    pile[-1] = pile[-1][:-1] + pile[-1][-1].lower()


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", ["not JSON"]),
        ("[1, 2]", ["JSON object"]),
        (json.dumps(_with(lambda o: o["stock"].__setitem__(0, "ZZ"))), ["unknown card", "ZZ"]),
        (json.dumps(_with(lambda o: o["stock"].__setitem__(0, 5))), ["card"]),
        (json.dumps(_with(lambda o: o["stock"].__setitem__(0, o["stock"][1]))), ["duplicate"]),
        (json.dumps(_with(lambda o: o["stock"].pop(0))), ["missing card"]),
        (json.dumps(_with(lambda o: o["tableau piles"].pop())), ["7 tableau piles", "6"]),
        (json.dumps(_with(lambda o: o["tableau piles"].append([]))), ["7 tableau piles", "8"]),
        (json.dumps(_with(_face_up_under_face_down)), ["face-down"]),
        (json.dumps(_with(_face_down_top)), ["face down"]),
        (json.dumps(_with(lambda o: o.__setitem__("colour", "red"))), ["unknown key"]),
        (json.dumps(_with(lambda o: o.__delitem__("tableau piles"))), ["tableau piles"]),
    ],
    ids=["not-json", "not-object", "unknown-card", "card-not-string", "duplicate", "missing", "6-piles",
         "8-piles", "face-up-under-face-down", "face-down-top", "unknown-key", "no-tableau"],
)
def test_bad_deal_file_is_one_line_and_exit_2(tmp_path, content, words):
    f = tmp_path / "bad.json"
    f.write_text(content)
    r = patience_here("solve", "klondike", "--deal", str(f), *TT)
    assert_usage_error(r, str(f), *words)


def test_bad_deal_file_in_a_real_process(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(_with(lambda o: o["stock"].pop(0))))
    assert_usage_error(patience("solve", "klondike", "--deal", str(f), *TT), "missing card")


def test_deal_file_not_utf8(tmp_path):
    f = tmp_path / "bad.json"
    f.write_bytes(b"\xff\xfe\x00{")
    assert_usage_error(patience_here("solve", "klondike", "--deal", str(f), *TT), "UTF-8")


# ------------------------------------------------------------------ exit codes 3 and 0


def test_failed_replay_exits_3_loudly():
    """A kernel line the reference engine rejects: exit 3, BUG on stderr, never 'won'."""
    script = """
import sys
from solver.games.klondike.game import Klondike
from solver.games.klondike.searcher import KlondikeSearch

class Corrupt(KlondikeSearch):
    def line(self):
        return super().line()[:-1]  # drop the last move: replays, but does not win

Klondike.searcher = staticmethod(lambda position, rules: Corrupt(position, rules))
sys.argv = ["patience", "solve", "klondike", "1", "--tt-mb", "64"]
from solver.interfaces.cli import run
run()
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)
    assert "BUG" in r.stderr and "Traceback" not in r.stderr
    assert "won" not in r.stdout


def test_closed_stdout_pipe_ends_quietly():
    """A closed pipe (``patience ... | head``) ends the command quietly, as SIGPIPE ends Unix tools."""
    p = subprocess.Popen(
        [sys.executable, "-m", "solver", "solve", "klondike", "1", "--show", *TT],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    first = p.stdout.readline()
    assert first.startswith(b"klondike #1")
    p.stdout.close()  # like `head -1` exiting: the next writes fail with EPIPE
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    assert "Traceback" not in err
    assert rc in (0, -signal.SIGPIPE), f"exit status {rc} after the reader closed the pipe; stderr: {err!r}"


def test_help_and_usage_errors_do_not_load_numba_or_heavy_modules():
    """`patience --help` and a bad command stay light: no numba, no kernel, no Dask or
    matplotlib (issue 12: start-up time); a solve loads numba but not Dask/matplotlib."""
    import subprocess
    import sys as _sys

    probe = ("import sys\nfrom click.testing import CliRunner\nfrom solver.interfaces.cli import main\n"
             "r = CliRunner().invoke(main, {args!r})\n"
             "print(r.exit_code, *sorted(m for m in ('numba', 'dask', 'matplotlib', 'solver.engine.tt') if m in sys.modules))")
    for args, code, loaded in ((["--help"], 0, ""), (["solve", "nosuch", "1"], 2, ""),
                               (["solve", "klondike", "1", "--max-nodes", "1000"], 0, "numba solver.engine.tt")):
        out = subprocess.run([_sys.executable, "-c", probe.format(args=args)], capture_output=True, text=True,
                             check=True).stdout.split()
        assert out[0] == str(code), (args, out)
        assert " ".join(out[1:]) == loaded, (args, out)


def test_a_kernel_compile_is_announced_only_when_the_cache_lacks_it(tmp_path):
    """Issue 12: say on stderr when a kernel is compiled for the first time."""
    import os
    import subprocess
    import sys as _sys

    from solver.games.klondike import kernel as K
    from solver.games.klondike.searcher import warm_up
    from solver.engine.jit import announce_compile

    probe = ("import solver.games.klondike.kernel as K\nfrom solver.engine.jit import announce_compile\n"
             "print(announce_compile(K.search_run, 'Klondike'))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PATIENCE_CACHE_DIR"] = str(tmp_path)  # an empty cache: the kernel would compile
    out = subprocess.run([_sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split() == ["True"]
    assert "compiling the Klondike search kernel" in out.stderr
    warm_up()  # this process's cache now holds it
    assert announce_compile(K.search_run, "Klondike") is False


def test_show_says_it_prints_a_board_per_step():
    out = patience_here("solve", "--help").stdout
    assert "after every step" in " ".join(out.split())
