"""Issue 24's smaller defects: each test here failed on the code before its fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import solver.core.digest
from cli_helpers import one_line_error, patience, patience_here
from solver.interfaces import server


# ---------------------------------------------------------------- 1. the resident solver's socket


def test_the_default_socket_is_keyed_to_the_installation(monkeypatch, tmp_path):
    """Another virtual environment or checkout of the same code gets its own server."""
    monkeypatch.delenv("PATIENCE_SERVER", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    here = server.socket_path()
    assert here.parent == tmp_path and here.name.endswith(".sock")
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "other-venv"))
    other_venv = server.socket_path()
    monkeypatch.setattr(solver.core.digest, "PACKAGE", tmp_path / "other-checkout" / "solver")
    other_checkout = server.socket_path()
    assert len({here, other_venv, other_checkout}) == 3


def test_the_default_socket_without_a_runtime_folder_is_keyed_too(monkeypatch, tmp_path):
    monkeypatch.delenv("PATIENCE_SERVER", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    here = server.socket_path()
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "other-venv"))
    assert server.socket_path() != here and here.parent == tmp_path / "patience-solver"


# ---------------------------------------------------------------- 2. a solve without limits says so


def test_a_solve_without_limits_warns_once_it_runs_long(monkeypatch):
    """One line on stderr (the JSON on stdout stays one object); a quick solve is quiet."""
    import json

    from solver.interfaces import cli

    monkeypatch.setenv("PATIENCE_SERVER", "off")
    monkeypatch.setattr(cli, "NO_LIMIT_WARNING_AFTER", 0.0)  # every search counts as long
    r = patience_here("solve", "klondike", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["verdict"] == "won"
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("patience: warning: ")]
    assert len(warnings) == 1 and "--timeout" in warnings[0], r.stderr
    for limit in (["--timeout", "60"], ["--max-nodes", "100000"]):
        r = patience_here("solve", "klondike", "1", "--json", *limit)
        assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


def test_a_quick_solve_without_limits_is_quiet(monkeypatch):
    monkeypatch.setenv("PATIENCE_SERVER", "off")
    r = patience_here("solve", "klondike", "1")
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


# ---------------------------------------------------------------- 3. limits refused cleanly


@pytest.mark.parametrize("value", ["-1", "0"])
def test_bench_refuses_a_node_cap_below_one(value):
    line = one_line_error(patience_here("bench", "--max-nodes", value))
    assert f"--max-nodes {value}" in line and "at least 1" in line


_LIMITS = [["--max-nodes", "0"], ["--max-nodes", "-3"], ["--timeout", "0"], ["--timeout", "-1"]]


@pytest.mark.parametrize("command, limit", [
    (command, limit) for command in (["solve", "klondike", "1"], ["batch", "klondike", "--seeds", "1"])
    for limit in _LIMITS] + [(["hint", "klondike", "1"], limit) for limit in _LIMITS[2:]])  # hint: no --max-nodes
def test_solve_hint_and_batch_refuse_limits_below_one(command, limit, tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_SERVER", "off")
    extra = ["--db", str(tmp_path / "r.sqlite")] if command[0] == "batch" else []
    line = one_line_error(patience_here(*command, *limit, *extra))
    assert limit[0] in line


# ---------------------------------------------------------------- 4. the batch's progress bar


def _bar_line(counts: dict, ncols: int = 200) -> str:
    import io

    from tqdm import tqdm

    from solver.interfaces.cli import BAR_FORMAT, bar_postfix

    out = io.StringIO()
    bar = tqdm(total=1000, unit="deal", file=out, ncols=ncols, bar_format=BAR_FORMAT, mininterval=0)
    bar.set_postfix_str(bar_postfix(counts), refresh=False)
    bar.update(sum(counts.values()))
    bar.refresh()
    return out.getvalue().split("\r")[-1]


def test_the_batch_bar_shows_deals_per_second_and_no_stray_separator():
    line = _bar_line({"won": 30, "lost": 5, "unknown": 0})
    assert "deal/s" in line, line
    assert "] ," not in line and " , " not in line and ", ," not in line, line


def test_the_batch_bar_keeps_an_estimate_when_deals_are_unknown():
    """31 won, 9 unknown: the estimate is 77.5%..100.0% (unknown lost / won), shown
    beside the interval, not dropped."""
    from solver.interfaces.cli import bar_rate
    from solver.runs.stats import win_rate

    rate = win_rate(31, 0, 9)
    text = bar_rate(31, 0, 9)
    assert text.startswith("77.5%-100.0% ") and f"[{100 * rate.low:.1f}%, {100 * rate.high:.1f}%]" in text
    assert bar_rate(30, 10, 0).startswith("75.0% [")
    assert "77.5%-100.0%" in _bar_line({"won": 31, "lost": 0, "unknown": 9})


# ---------------------------------------------------------------- 5. Welford's king piles on the board


def test_welford_board_places_the_king_piles_as_every_preset_and_the_docs_do():
    """K1 top left, K2 top right, K3 bottom left, K4 bottom right (docs/games.md, patience games)."""
    from solver.games import get_game

    doc = get_game("windmill").piles_doc
    assert "top left, top right, bottom left, bottom right" in doc
    for preset in ("pysolfc", "welford"):
        board = patience_here("deal", "windmill", "5", "--rules", preset).stdout.splitlines()
        rows = [ln for ln in board if "K1:" in ln or "K3:" in ln]
        assert len(rows) == 2, board
        top, bottom = rows
        assert top.index("K1:") < top.index("K2:"), board
        assert bottom.index("K3:") < bottom.index("K4:"), board


# ---------------------------------------------------------------- 6. deal files


def _deal_file(tmp_path, game: str, deal_args: tuple = ("3",), **changes) -> str:
    """``patience deal GAME 3 --json`` written to a file, with the keys ``changes`` replaced."""
    import json

    r = patience_here("deal", game, *deal_args, "--json")
    assert r.returncode == 0, r.stderr
    obj = {**json.loads(r.stdout), **changes}
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_a_face_down_waste_card_is_refused(tmp_path):
    import json

    obj = json.loads(patience_here("deal", "klondike", "3", "--json").stdout)
    assert obj["waste"], "PySolFC deals turn a first card to the waste"
    path = _deal_file(tmp_path, "klondike", waste=[obj["waste"][0][:-1] + obj["waste"][0][-1].lower()])
    line = one_line_error(patience_here("solve", "klondike", "--deal", path))
    assert "waste" in line and "face down" in line


@pytest.mark.parametrize("game", ["klondike", "bc", "windmill", "great-wheel"])
@pytest.mark.parametrize("key, value", [("numbering", "bogus"), ("numbering", 3), ("seed", "x"), ("seed", -5),
                                        ("seed", 0), ("seed", 2.5), ("seed", True)])
def test_a_bad_numbering_or_seed_in_a_deal_file_is_refused(tmp_path, game, key, value):
    path = _deal_file(tmp_path, game, **{key: value})
    line = one_line_error(patience_here("solve", game, "--deal", path, "--max-nodes", "10"))
    assert f'"{key}"' in line, line


def test_a_welford_deal_file_with_a_bad_numbering_is_refused(tmp_path):
    path = _deal_file(tmp_path, "windmill", ("3", "--rules", "welford"), numbering="solvitaire")
    assert '"numbering"' in one_line_error(patience_here("solve", "windmill", "--deal", path))


def test_good_seeds_and_numberings_still_load(tmp_path):
    ok = _deal_file(tmp_path, "klondike", ("0", "--numbering", "solvitaire"))  # Solvitaire has a seed 0
    r = patience_here("solve", "klondike", "--deal", ok, "--max-nodes", "10")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("rules, word", [({"draw": 0}, "draw"), ({"draw": 25}, "draw"), ({"passes": 0}, "passes")])
def test_bad_rules_in_a_deal_file_are_the_files_problem_not_a_flags(tmp_path, rules, word):
    path = _deal_file(tmp_path, "klondike", rules=rules)
    line = one_line_error(patience_here("solve", "klondike", "--deal", path))
    assert "the file's \"rules\"" in line and word in line and f"--{word}" not in line, line


def test_hint_after_below_zero_names_the_option_not_the_line(tmp_path):
    moves = tmp_path / "moves.json"
    moves.write_text('[{"from": "T6", "to": "F3", "card": "AH", "count": 1}]')
    line = one_line_error(patience_here("hint", "klondike", "1", "--moves", str(moves), "--after", "-1"))
    assert "--after" in line and "0 or more" in line and "has 1 moves" not in line, line


# ---------------------------------------------------------------- 7. the kernel cache, the server's socket, the cluster


def test_an_unwritable_kernel_cache_is_named_and_not_replaced_by_a_stale_one(tmp_path):
    """Compiling with a cache folder that cannot be written says where, and numba does
    not fall back to a cache beside the sources (keyed by one file, it misses edits to
    callees elsewhere)."""
    import os
    import subprocess
    import textwrap

    from cli_helpers import ROOT

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    module = tmp_path / "kern.py"
    module.write_text(textwrap.dedent("""
        from solver.engine.jit import njit

        @njit
        def search_run(x):
            return x + 1
    """))
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import kern; from solver.engine.jit import announce_compile; "
              "assert kern.search_run(1) == 2; announce_compile(kern.search_run, 'Test')")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PATIENCE_CACHE_DIR"] = str(blocker / "cache")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, cwd=ROOT,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert str(blocker / "cache") in r.stderr and "cannot be written" in r.stderr, r.stderr
    assert "cached afterwards" not in r.stderr
    assert not list(tmp_path.rglob("*.nbi")), "no numba cache beside the sources"


def test_server_start_refuses_a_socket_in_a_missing_folder(tmp_path, monkeypatch):
    missing = tmp_path / "nonexistent" / "dir"
    monkeypatch.setenv("PATIENCE_SERVER", str(missing / "s.sock"))
    r = patience_here("server", "start")
    if r.returncode == 0:  # the old code made the folder and started a server: stop it
        server.stop(missing / "s.sock")
    line = one_line_error(r)
    assert "no folder" in line and str(missing) in line
    assert not missing.exists() and not (tmp_path / "nonexistent").exists()


def test_server_status_exits_1_when_none_runs_and_the_usage_page_says_so(tmp_path, monkeypatch):
    from cli_helpers import ROOT

    monkeypatch.setenv("PATIENCE_SERVER", str(tmp_path / "s.sock"))
    r = patience_here("server", "status")
    assert r.returncode == 1 and "no resident solver" in r.stdout
    usage = " ".join((ROOT / "docs" / "usage.md").read_text().split())
    assert "`patience server status` exits 0 when the resident solver runs and 1 when none does" in usage


def test_the_server_log_names_a_deal_file_request_without_none():
    from solver.interfaces.server import _request_name

    assert _request_name({"game": "klondike", "seed": None, "deal": {"stock": []}}) == "klondike (a deal file)"
    assert _request_name({"game": "klondike", "seed": 15, "numbering": "solvitaire"}) == "klondike 15 (solvitaire)"


def test_workers_or_mode_with_a_scheduler_are_refused(tmp_path):
    for extra in (["--workers", "2"], ["--mode", "processes"]):
        line = one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--scheduler", "tcp://127.0.0.1:9",
                                            *extra, "--db", str(tmp_path / "r.sqlite")))
        assert extra[0] in line and "--scheduler" in line, line


def test_an_unreachable_scheduler_fails_within_a_few_seconds_with_one_line(tmp_path):
    """The connect timeout is a few seconds (it was 30) and the error says how long it waited."""
    from solver.runs import cluster

    assert cluster.CONNECT_TIMEOUT <= 10
    line = one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--scheduler", "tcp://127.0.0.1:9",
                                        "--db", str(tmp_path / "r.sqlite")))
    assert "cannot reach the Dask scheduler" in line and f"within {cluster.CONNECT_TIMEOUT} s" in line, line


# ---------------------------------------------------------------- 8. GAME as a PySolFC game id; documented examples


def test_a_pysolfc_game_id_names_the_game_and_its_preset(monkeypatch):
    import json

    monkeypatch.setenv("PATIENCE_SERVER", "off")
    r = patience_here("deal", "129", "12345", "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["game"] == "klondike" and obj["rules"]["passes"] == 1
    assert json.loads(patience_here("deal", "34", "5", "--json").stdout)["game"] == "beleaguered-castle"
    assert json.loads(patience_here("deal", "30", "5", "--json").stdout)["rules"] == {"rules": "pysolfc"}


def test_a_pysolfc_game_id_refuses_another_preset_and_unknown_ids():
    line = one_line_error(patience_here("solve", "129", "5", "--rules", "casino"))
    assert "129" in line and "vegas" in line and "casino" in line
    line = one_line_error(patience_here("solve", "999", "5"))
    assert "999" in line and "129 (klondike --rules vegas)" in line


def test_the_documented_examples_and_figures_named_in_issue_24():
    """The README's reference text moved to docs/ (issue 25): the games' rules to
    games.md, the commands to usage.md."""
    from cli_helpers import ROOT

    pages = "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    games = (ROOT / "docs" / "games.md").read_text()
    usage = (ROOT / "docs" / "usage.md").read_text()
    assert "any k" not in games and "1 to 24" in games
    assert "solve klondike 15 --numbering solvitaire --draw 3 --timeout 60" not in pages
    # the Beleaguered Castle benchmark command writes the report the docs name
    bench_bc = (ROOT / "benchmarks" / "bench_bc.py").read_text()
    assert "bench_bc.py --seeds 1-1000 --cap 60` writes\n  `results/bc-bench.md`" in games
    assert '"bc-bench.md"' in bench_bc and (ROOT / "results" / "bc-bench.md").exists()
    # report and export read the database the batch example wrote
    assert "patience report --db draw1.sqlite" in usage and "patience export --db draw1.sqlite" in usage


def test_the_documented_solvitaire_draw_3_example_is_decided(monkeypatch):
    """The example docs/usage.md gives with --timeout 60 ends with a verdict, not unknown
    (a node cap here, not a clock: the relaxed search proves it lost)."""
    import json

    from cli_helpers import ROOT

    assert "patience solve klondike 1 --numbering solvitaire --draw 3 --timeout 60" in (ROOT / "docs" / "usage.md").read_text()
    monkeypatch.setenv("PATIENCE_SERVER", "off")
    r = patience_here("solve", "klondike", "1", "--numbering", "solvitaire", "--draw", "3", "--max-nodes", "2000000",
                      "--json")
    assert json.loads(r.stdout)["verdict"] == "lost", r.stdout


# ---------------------------------------------------------------- 9. wording, rates, plots


def test_a_stock_of_one_card_is_one_card_on_every_board():
    from solver.games import adapter_for, get_game

    for name, args in (("klondike", {}), ("great-wheel", {}), ("windmill", {}), ("windmill", {"rules": "welford"})):
        front = get_game(name)
        rules = front.make_rules(**args)
        g = adapter_for(name, rules)
        p = g.deal(5, "pysolfc", rules)
        p.stock = p.stock[-1:]  # the board only: no rule is consulted
        text = g.render(p)
        assert "1 cards" not in text and "stock:" in text, (name, text)


def test_a_tiny_solve_prints_no_nodes_per_second(monkeypatch):
    monkeypatch.setenv("PATIENCE_SERVER", "off")
    r = patience_here("solve", "klondike", "1")
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("nodes:"))
    assert int(line.split()[1]) < 100 and "nodes/s" not in line, line  # a few dozen nodes


def test_a_big_enough_solve_prints_its_rate(monkeypatch):
    from types import SimpleNamespace

    from solver.interfaces import cli

    shown = []
    monkeypatch.setattr(cli.click, "echo", lambda text="", **kw: shown.append(text))
    result = SimpleNamespace(nodes=2_000_000, seconds=1.0, stored_states=5, verdict="unknown", reason="node-limit",
                             verified=False, proof=None, won=False, best_progress=None, moves=[], seed=1,
                             numbering="pysolfc", rules={"draw": 1})
    cli._print_result(SimpleNamespace(name="klondike"), None, None, result, None, "pysolfc", False, False)
    assert any("(2,000,000 nodes/s)" in t for t in shown), shown


def test_count_axes_of_small_plots_have_whole_number_ticks(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    from solver.runs.report import plot_convergence, plot_times
    from solver.runs.store import Config, Row

    saved = []
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: saved.append(self))
    rows = [Row(s, "won", None, 10, 0.01 * s, 5) for s in (1, 2, 3)]
    config = Config(1, "klondike", {"draw": 1}, "pysolfc", None, None, 64.0)
    plot_convergence(config, rows, tmp_path / "w.png")
    plot_times(config, rows, tmp_path / "t.png")
    for fig in saved:
        fig.canvas.draw()  # the locators choose the ticks when drawn
    seed_ticks = saved[0].axes[0].get_xticks()
    count_ticks = saved[1].axes[0].get_yticks()
    assert len(count_ticks) >= 2 and all(float(t).is_integer() for t in count_ticks), count_ticks
    assert all(float(t).is_integer() for t in seed_ticks), seed_ticks
