"""The replay page (solver/interfaces/html.py, ``solve --html``; issue 14), in a real headless
browser: Debian's ``chromium``.  ``make test`` installs it where it can (root with
apt); where it is missing these tests fail with the command that installs it."""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import pytest
from cli_helpers import patience_here

import solver
from solver.api import make_deal
from solver.interfaces.html import replay_page
from solver.core.lines import steps

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("the replay-page tests need a headless browser: apt-get install chromium (make test does this "
                "when run as root on Debian)", pytrace=False)


def _chromium(tmp_path, *args: str) -> str:
    r = subprocess.run([_browser(), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def _page(tmp_path, game, seed, options):
    result = solver.solve(game, seed, tt_mb=512, timeout=120, **options)
    assert result.won
    g, rules, position = make_deal(game, seed, **options)
    f = tmp_path / f"{game}.html"
    f.write_text(replay_page(g, position, rules, result, f"{game} #{seed}"), encoding="utf-8")
    positions = list(g.positions(position, rules, result.moves))
    boards = [g.render(position)] + [g.render(positions[last]) for _t, last in steps(result.moves, positions)]
    return f, boards


def _shown(dom: str) -> tuple[str, str]:
    board = re.search(r'<div id="board"[^>]* data-text="([^"]*)"', dom)
    where = re.search(r'id="where"[^>]*>([^<]*)<', dom)
    assert board and where, dom[:2000]
    return html.unescape(board.group(1)), where.group(1)


@pytest.mark.parametrize("game, seed, options", [
    ("klondike", 1, {}), ("beleaguered-castle", 5, {}), ("windmill", 1, {}), ("windmill", 1, {"rules": "welford"}),
    ("great-wheel", 3, {"rules": "pgs"}),
])
def test_the_page_steps_through_the_line_in_a_browser(tmp_path, game, seed, options):
    f, boards = _page(tmp_path, game, seed, options)
    dom = _chromium(tmp_path, "--dump-dom", f"file://{f}?clicks=next,next,next,prev")
    board, where = _shown(dom)
    assert where == f"step 2 of {len(boards) - 1}"
    assert board == boards[2]
    assert 'class="current" data-step="2"' in dom or 'data-step="2" class="current"' in dom
    dom = _chromium(tmp_path, "--dump-dom", f"file://{f}?clicks=next,next,first,next")  # "first" goes back
    assert _shown(dom) == (boards[1], f"step 1 of {len(boards) - 1}")
    dom = _chromium(tmp_path, "--dump-dom", f"file://{f}#step={len(boards) - 1}")
    assert _shown(dom)[0] == boards[-1]


def test_the_page_draws_cards_in_a_screenshot(tmp_path):
    from matplotlib.image import imread

    f, _boards = _page(tmp_path, "klondike", 1, {})
    png = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=1100,800", f"--screenshot={png}", f"file://{f}?clicks=next,next,next,next")
    pixels = imread(png)[..., :3]
    assert pixels.shape[:2] == (800, 1100)
    white = (pixels > 0.97).all(axis=2).sum()  # the cards' faces
    red = ((pixels[..., 0] > 0.7) & (pixels[..., 1] < 0.2) & (pixels[..., 2] < 0.3)).sum()  # hearts and diamonds
    assert white > 2000 and red > 50, (white, red)


def test_solve_html_writes_a_self_contained_page(tmp_path):
    out = tmp_path / "k.html"
    r = patience_here("solve", "klondike", "1", "--tt-mb", "64", "--html", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r'(src|href)=|https?://|@import', text)  # no external asset, no network


def _data(page: str) -> dict:
    import json

    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_a_deal_without_a_line_says_so_instead_of_step_0_of_0():
    """An undecided result with no best line (a resident solver does not send one)."""
    from solver.core.result import BestProgress, SolveResult

    g, rules, position = make_deal("klondike", 1)
    result = SolveResult(game="klondike", rules=rules.to_json(), numbering="pysolfc", seed=1, verdict="unknown",
                         reason="time-limit", nodes=10, seconds=1.0, best_progress=BestProgress(3, 52))
    page = replay_page(g, position, rules, result, "klondike #1")
    status = re.search(r'<div id="status">([^<]*)</div>', page)
    assert status and "Not decided (time-limit)" in status.group(1) and "No line to show" in status.group(1)
    assert "3 of 52 cards" in status.group(1)
    data = _data(page)
    assert len(data["boards"]) == 1 and data["open"] == 0 and data["texts"] == [g.render(position)]


def test_a_lost_deal_opens_on_the_end_of_its_best_line():
    from solver.core.result import BestProgress, SolveResult

    won = solver.solve("klondike", 1, tt_mb=64, timeout=60)
    g, rules, position = make_deal("klondike", 1)
    best = won.moves[:12]  # stands in for a lost search's line to its best position
    result = SolveResult(game="klondike", rules=rules.to_json(), numbering="pysolfc", seed=1, verdict="lost",
                         reason=None, nodes=10, seconds=1.0, proof="search", best_progress=BestProgress(5, 52),
                         line_to_best=best)
    page = replay_page(g, position, rules, result, "klondike #1")
    status = re.search(r'<div id="status">([^<]*)</div>', page).group(1)
    assert status.startswith("Lost: no line wins this deal") and "best position" in status and "not a win" in status
    data = _data(page)
    positions = list(g.positions(position, rules, best))
    assert data["open"] == len(data["boards"]) - 1 == len(steps(best, positions))
    assert data["texts"][-1] == g.render(positions[-1])


def test_welfords_centre_shows_the_card_the_line_put_there():
    """Welford's position keeps the centre's height only; the page takes the suit from the
    move that put the card there (it drew "7" right after ``7S C4 -> centre``)."""
    result = solver.solve("windmill", 1, rules="welford", tt_mb=64, timeout=60)
    g, rules, position = make_deal("windmill", 1, rules="welford")
    data = _data(replay_page(g, position, rules, result, "welford #1"))
    positions = list(g.positions(position, rules, result.moves))
    ends = [last for _t, last in steps(result.moves, positions)]
    put = None
    checked = 0
    for n, last in enumerate(ends, 1):
        for m in result.moves[ends[n - 2] + 1 if n > 1 else 0:last + 1]:
            put = str(m.card) if m.dst == "centre" else put
        centre = data["boards"][n]["p"]["centre"]
        if put is not None:
            assert centre == [put], (n, data["steps"][n - 1], centre)
            checked += 1
    assert data["boards"][0]["p"]["centre"] == ["A"]  # the deal's Ace: the position does not say which
    assert checked > 100
