"""The replay page's layout (solver/interfaces/html.py, issues 24 and 32), measured in a real headless
browser at common window sizes: 1366x768, 1100x800, 800x600 and a phone's 400x700.

One browser session loads a harness page holding one frame per page and window size
(``--allow-file-access-from-files`` lets the harness read the frames' documents); its
script opens each page at ``#step=K``, measures it, steps through the line (every step
of a short line, some 150 spread over a long one, and the last) and writes what it
found into the harness's DOM, which ``--dump-dom`` prints.  Per page and size it
checks: no horizontal scroll (the document is never wider than the window), every
pile's cards inside the pile's box and no two pile boxes overlapping, a move list at
least 20 characters wide, nothing moving while stepping or playing (the controls',
board's, move list's and piles' boxes the same at every step), the address
following the step, no page scroll (the buttons, the step, every pile and the current
step of the move list in the window) and the cards' size, and every rank and count
drawn as wide as its glyphs side by side and not under the next card; and it reads
which cards are highlighted and what Windmill's centre and king piles show.  Like
tests/test_html.py, it needs Debian's ``chromium``.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from test_html import FLAGS, _browser, _chromium

import solver
from solver.api import make_deal
from solver.interfaces.html import replay_page
from solver.core.lines import steps
from solver.core.moves import Move
from solver.core.result import SolveResult

SIZES = ((1366, 768), (1100, 800), (800, 600), (400, 700))
FULL_SIZE = ((1366, 768), (1100, 800))  # everything in sight at full size; below these, smaller cards
NARROW = (400, 700)  # a phone: the move list under the table, the page scrolls down to it
OPEN_AT = 5  # each page is opened at #step=5

# one page per game and per Windmill board (strict draws as pysolfc does; Great Wheel's
# presets draw alike), and an undecided deal
PAGES = {
    "klondike": ("klondike", 1, {}),
    "beleaguered-castle": ("beleaguered-castle", 5, {}),
    "windmill": ("windmill", 1, {}),
    "windmill-welford": ("windmill", 1, {"rules": "welford"}),
    "great-wheel": ("great-wheel", 3, {"rules": "pgs"}),
}
UNDECIDED = ("klondike", 18, {"max_nodes": 159})  # 34 of 52 cards home, not decided (won at 161 nodes)

_HARNESS_SCRIPT = """
const results = {};
function box(el) {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom].map(function (v) { return Math.round(v * 10) / 10; });
}
function inside(a, b) { return a[0] >= b[0] - 0.5 && a[1] >= b[1] - 0.5 && a[2] <= b[2] + 0.5 && a[3] <= b[3] + 0.5; }
function overlap(a, b) { return a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5; }
function measure(frame) {
  const win = frame.contentWindow, doc = win.document, problems = [];
  const natural = {};  // font and text -> the text's width with its glyphs side by side (no letter-spacing)
  function naturalWidth(node) {
    const style = win.getComputedStyle(node.parentElement);
    const key = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily + '|' + node.textContent;
    if (!(key in natural)) {
      const probe = doc.createElement('span');
      probe.style.cssText = 'position: absolute; visibility: hidden; white-space: pre; letter-spacing: normal; word-spacing: normal';
      probe.style.fontWeight = style.fontWeight;
      probe.style.fontSize = style.fontSize;
      probe.style.fontFamily = style.fontFamily;
      probe.textContent = node.textContent;
      doc.body.appendChild(probe);
      natural[key] = probe.getBoundingClientRect().width;
      doc.body.removeChild(probe);
    }
    return natural[key];
  }
  function texts(el, skip) {  // el's text nodes outside the elements matching skip
    const found = [], walk = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.textContent.trim() && !(skip && n.parentElement.closest(skip))) found.push(n);
    }
    return found;
  }
  function textBox(node) {
    const range = doc.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  }
  function glyphs(step) {  // every card's corner and count drawn at its full width, and in sight
    let kind = 'ranks';
    function bad(what) { if (out.glyphs[kind].length < 5) out.glyphs[kind].push('step ' + step + ': ' + what); }
    function full(node, what) {
      const drawn = textBox(node), need = naturalWidth(node);
      if (/\\d\\d/.test(node.textContent)) out.twoDigits[kind]++;
      if (drawn[2] - drawn[0] < need - 0.5) bad(what + ' "' + node.textContent + '" is ' + (drawn[2] - drawn[0]).toFixed(1) + ' px wide, its glyphs side by side ' + need.toFixed(1));
      return drawn;
    }
    doc.querySelectorAll('.card[data-card]').forEach(function (c) {
      const name = c.dataset.card, card = box(c), next = c.nextElementSibling;
      texts(c, '.pip, .badge').forEach(function (node) {
        const drawn = full(node, 'the corner of ' + name);
        if (!inside(drawn, card)) bad('the corner "' + node.textContent + '" of ' + name + ' outside its card');
        if (next && next.classList.contains('card') && overlap(drawn, box(next))) bad('the corner "' + node.textContent + '" of ' + name + ' under the next card');
      });
    });
    kind = 'counts';
    doc.querySelectorAll('.badge').forEach(function (b) {
      const card = b.parentElement, corner = texts(card, '.badge').map(textBox);
      texts(b).forEach(function (node) {
        const drawn = full(node, 'the count on ' + (card.dataset.card || 'a card back'));
        if (!inside(drawn, box(b)) || !inside(box(b), box(card))) bad('the count "' + node.textContent + '" outside its badge or card');
        if (corner.some(function (t) { return overlap(t, drawn); })) bad('the count "' + node.textContent + '" over the rank or suit of its card');
      });
    });
  }
  problems.push = function (p) { if (this.length < 10) Array.prototype.push.call(this, p); };  // the first ten
  const out = {problems: problems};
  const piles = Array.prototype.slice.call(doc.querySelectorAll('.pile'));
  if (!piles.length) problems.push('no pile boxes on the page');
  function boxes() {
    const b = {};
    ['first', 'prev', 'next', 'play', 'board', 'movelist'].forEach(function (id) {
      const el = doc.getElementById(id);
      b[id] = el ? box(el) : null;
    });
    piles.forEach(function (p) { b['pile ' + p.dataset.pile] = box(p); });
    return JSON.stringify(b);
  }
  out.height = 0;
  out.unseen = [];  // what lies outside the window (beyond its bottom or right edge)
  out.listUnseen = [];  // the steps whose line in the move list is out of sight
  out.cardWidth = 1e9;  // the narrowest card drawn
  out.glyphs = {ranks: [], counts: []};  // text drawn with overlapping glyphs, or hidden under the next card
  out.twoDigits = {ranks: 0, counts: 0};  // two-digit ranks and counts measured
  function check(step) {
    const width = doc.documentElement.scrollWidth;
    if (width > win.innerWidth) problems.push('step ' + step + ': the page is ' + width + ' px wide in a ' + win.innerWidth + ' px window');
    out.height = Math.max(out.height, doc.documentElement.scrollHeight);
    const seen = ['first', 'prev', 'next', 'play', 'where', 'step-text', 'board'].map(function (id) { return [id, doc.getElementById(id)]; });
    piles.forEach(function (p) { seen.push(['pile ' + p.dataset.pile, p]); });
    seen.forEach(function (pair) {
      const r = pair[1] ? pair[1].getBoundingClientRect() : null;
      if ((!r || r.bottom > win.innerHeight + 0.5 || r.right > win.innerWidth + 0.5 || r.top < -0.5) && out.unseen.length < 5) {
        out.unseen.push('step ' + step + ': ' + pair[0] + (r ? ' at ' + box(pair[1]) : ' missing'));
      }
    });
    const li = doc.querySelector('#movelist li.current'), r = li ? li.getBoundingClientRect() : null;
    if (!r || !inside(box(li), box(doc.getElementById('movelist'))) || r.bottom > win.innerHeight + 0.5) out.listUnseen.push(step);
    doc.querySelectorAll('.card').forEach(function (c) { out.cardWidth = Math.min(out.cardWidth, c.getBoundingClientRect().width); });
    glyphs(step);
    const rects = piles.map(box);
    piles.forEach(function (p, i) {
      p.querySelectorAll('.card, .badge').forEach(function (c) {
        if (!inside(box(c), rects[i])) problems.push('step ' + step + ': a card ' + (c.dataset.card || '') + ' outside pile ' + p.dataset.pile);
      });
      for (let j = 0; j < i; j++) {
        if (overlap(rects[i], rects[j])) problems.push('step ' + step + ': piles ' + p.dataset.pile + ' and ' + piles[j].dataset.pile + ' overlap');
      }
    });
  }
  const where = doc.getElementById('where'), board = doc.getElementById('board');
  out.where = where ? where.textContent : null;
  out.text = board ? board.getAttribute('data-text') : null;
  out.status = doc.getElementById('status') ? doc.getElementById('status').textContent : null;
  out.moved = Array.prototype.map.call(doc.querySelectorAll('.card.moved'), function (c) {
    return [c.closest('.pile').dataset.pile, c.dataset.card || '##'];
  });
  out.tops = {};  // each pile's top card and its count badge
  piles.forEach(function (p) {
    const top = p.querySelector('.card:last-of-type'), badge = p.querySelector('.badge');
    out.tops[p.dataset.pile] = [top ? (top.dataset.card || '##') : null, badge ? Number(badge.textContent) : null];
  });
  const list = doc.getElementById('movelist');
  if (list) {
    const probe = doc.createElement('span');
    probe.textContent = '0'.repeat(20);
    list.appendChild(probe);
    const need = probe.getBoundingClientRect().width;
    list.removeChild(probe);
    const style = win.getComputedStyle(list);
    const room = list.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (room < need) problems.push('the move list is ' + Math.round(room) + ' px wide, 20 characters need ' + Math.round(need));
  }
  const before = boxes();
  const last = doc.querySelectorAll('#movelist li').length - 1;
  doc.getElementById('next').click();
  out.hashAfterNext = win.location.hash;
  doc.getElementById('play').click();
  if (boxes() !== before) problems.push('the page moves when play is pressed');
  doc.getElementById('play').click();
  doc.getElementById('first').click();
  const stride = Math.ceil(last / 150);  // every step of a short line, some 150 of a long one, and its end
  for (let step = 0; step <= last; step = step < last ? Math.min(step + stride, last) : last + 1) {
    const li = doc.querySelector('#movelist li[data-step="' + step + '"]');
    if (step) (stride === 1 ? doc.getElementById('next') : li).click();
    check(step);
    if (boxes() !== before) { problems.push('step ' + step + ': the page moved: ' + boxes() + ' was ' + before); break; }
  }
  out.last = last;
  setTimeout(function () {  // the address follows within a moment
    out.hashAtEnd = win.location.hash;
    document.getElementById('results').textContent = JSON.stringify(results);
  }, 1000);
  return out;
}
function resized(frame, size) {  // the window made smaller: the page fits it anew
  const win = frame.contentWindow, doc = win.document;
  function seen() {
    const card = doc.querySelector('.card');
    return {height: doc.documentElement.scrollHeight, width: doc.documentElement.scrollWidth,
            where: doc.getElementById('where').textContent, cardWidth: card ? card.getBoundingClientRect().width : null};
  }
  const before = seen();
  frame.width = size[0];
  frame.height = size[1];
  void frame.getBoundingClientRect().height;  // lay the parent out now: the frame's window takes its new size
  win.dispatchEvent(new Event('resize'));  // headless Chromium draws no frames here, so sends none itself
  let tries = 0;
  function check() {  // the page refits 150 ms after a resize; asked again until it has (or 3 s)
    const now = seen();
    if ((now.height <= size[1] && now.cardWidth < before.cardWidth) || ++tries >= 10) {
      results[frame.id] = {before: before, after: now};
      document.getElementById('results').textContent = JSON.stringify(results);
      return;
    }
    void frame.getBoundingClientRect().height;
    win.dispatchEvent(new Event('resize'));
    setTimeout(check, 300);
  }
  setTimeout(check, 600);
}
FRAMES.forEach(function (f) {
  const frame = document.createElement('iframe');
  frame.id = f.id;
  frame.width = f.width;
  frame.height = f.height;
  frame.style.cssText = 'border: 0; display: block';
  frame.addEventListener('load', function () {
    if (f.resize) { resized(frame, f.resize); return; }
    try { results[frame.id] = measure(frame); }
    catch (e) { results[frame.id] = {problems: ['the harness failed: ' + e]}; }
    document.getElementById('results').textContent = JSON.stringify(results);
  });
  frame.src = f.src;
  document.body.appendChild(frame);
});
"""


class Page(NamedTuple):
    file: Path
    game: Any  # the adapter that drew it
    result: SolveResult
    positions: list  # the position at each step, the deal first
    texts: list[str]  # their text pictures
    last_moves: list[Move]  # the last move of each step
    moves: list[list[Move]]  # each step's moves


def _make_page(tmp_path, key, game, seed, options) -> Page:
    limits = {"max_nodes": options.pop("max_nodes")} if "max_nodes" in options else {"timeout": 120}
    result = solver.solve(game, seed, tt_mb=256, **limits, **options)
    g, rules, position = make_deal(game, seed, **options)
    f = tmp_path / f"{key}.html"
    f.write_text(replay_page(g, position, rules, result, f"{game} #{seed}"), encoding="utf-8")
    line = result.moves if result.won else list(result.best_line or [])
    after = list(g.positions(position, rules, line))
    numbered = steps(line, after)
    shown = [position] + [after[last] for _t, last in numbered]
    ends = [-1] + [last for _t, last in numbered]
    return Page(f, g, result, shown, [g.render(p) for p in shown], [line[last] for _t, last in numbered],
                [line[a + 1:b + 1] for a, b in zip(ends, ends[1:])])


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Page]:
    tmp_path = tmp_path_factory.mktemp("replay")
    made = {key: _make_page(tmp_path, key, game, seed, dict(options)) for key, (game, seed, options) in PAGES.items()}
    game, seed, options = UNDECIDED
    made["undecided"] = _make_page(tmp_path, "undecided", game, seed, dict(options))
    return made


@pytest.mark.parametrize("key", list(PAGES))
def test_every_pile_a_move_names_has_a_place_on_the_table(pages, key):
    page = pages[key]
    placed = {slot["pile"] for row in page.game.table_frame(page.positions[0]) for slot in row if slot}
    named = {name for m in page.result.moves for name in (m.src, m.dst)}
    assert named <= placed, named - placed
    for p in page.positions:
        assert set(page.game.table_piles(p)["p"]) == placed


@pytest.fixture(scope="module")
def measured(pages, tmp_path_factory):
    """Every page at every size, measured in one browser session: {(page, size): findings}."""
    tmp_path = tmp_path_factory.mktemp("harness")
    frames = [{"id": f"{key}@{w}x{h}", "width": w, "height": h,
               "src": page.file.as_uri() + ("" if key == "undecided" else f"#step={OPEN_AT}")}
              for key, page in pages.items() for w, h in SIZES]
    frames.append({"id": "great-wheel resized", "width": 1366, "height": 768, "resize": [800, 600],
                   "src": pages["great-wheel"].file.as_uri() + f"#step={OPEN_AT}"})
    harness = tmp_path / "harness.html"
    harness.write_text('<!DOCTYPE html><html><body style="margin:0"><pre id="results">{}</pre><script>const FRAMES = '
                       + json.dumps(frames) + ";" + _HARNESS_SCRIPT + "</script></body></html>", encoding="utf-8")
    # the frames' documents are readable from the harness; timers (the address's) run in virtual time
    r = subprocess.run([_browser(), *FLAGS, "--allow-file-access-from-files", f"--user-data-dir={tmp_path / 'profile'}",
                        "--virtual-time-budget=5000", "--dump-dom", harness.as_uri()],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    found = re.search(r'<pre id="results">(.*?)</pre>', r.stdout, re.S)
    assert found, r.stdout[:2000]
    results = json.loads(html.unescape(found.group(1)))
    return pages, results


@pytest.mark.parametrize("key", list(PAGES))
def test_the_page_fits_and_stays_still_at_common_window_sizes(measured, key):
    pages, results = measured
    texts = pages[key].texts
    last = len(texts) - 1
    problems = {f"{w}x{h}": results[f"{key}@{w}x{h}"]["problems"][:4] for w, h in SIZES}
    assert all(p == [] for p in problems.values()), problems
    for w, h in SIZES:
        found = results[f"{key}@{w}x{h}"]
        # opened with #step=5, it shows step 5; the address then follows the step
        assert found["where"] == f"step {OPEN_AT} of {last}"
        assert found["text"] == texts[OPEN_AT]
        assert found["hashAfterNext"] == f"#step={OPEN_AT + 1}"
        assert found["last"] == last and found["hashAtEnd"] == f"#step={last}"


@pytest.mark.parametrize("key", [*PAGES, "undecided"])
def test_the_table_the_buttons_and_the_step_fit_the_window(measured, key):
    """No page scroll at 1366x768 and 1100x800 with cards at full size (42 px wide), nor at
    800x600 with smaller ones; the current step in sight in the move list.  On a phone the
    table and the buttons fill the window, the move list under them."""
    _pages, results = measured
    for w, h in SIZES:
        found = results[f"{key}@{w}x{h}"]
        assert found["unseen"] == [], (f"{w}x{h}", found["unseen"])
        assert found["cardWidth"] >= (41.5 if (w, h) in FULL_SIZE else 25), (f"{w}x{h}", found["cardWidth"])
        if (w, h) != NARROW:
            assert found["height"] <= h and found["listUnseen"] == [], (f"{w}x{h}", found["height"], found["listUnseen"])


def test_a_smaller_window_gets_the_table_fitted_anew(measured):
    _pages, results = measured
    found = results["great-wheel resized"]
    assert found["before"]["height"] == 768 and found["before"]["cardWidth"] == 42, found
    after = found["after"]
    assert after["height"] <= 600 and after["width"] <= 800 and after["cardWidth"] < 42, found
    assert after["where"] == found["before"]["where"]  # the same step


@pytest.mark.parametrize("key", [*PAGES, "undecided"])
def test_ranks_and_counts_are_drawn_whole_and_in_sight(measured, key):
    """No glyphs squeezed together ("10", "38"), no corner under the next card."""
    _pages, results = measured
    for w, h in SIZES:
        found = results[f"{key}@{w}x{h}"]
        assert found["glyphs"] == {"ranks": [], "counts": []}, (f"{w}x{h}", found["glyphs"])
        counted = key != "beleaguered-castle"  # the one game without counts (its table shows every card)
        assert found["twoDigits"]["ranks"] > 0 and (found["twoDigits"]["counts"] > 0) == counted, found["twoDigits"]


@pytest.mark.parametrize("key", list(PAGES))
def test_the_page_highlights_the_cards_the_step_moved(measured, key):
    pages, results = measured
    move = pages[key].last_moves[OPEN_AT - 1]
    after = pages[key].positions[OPEN_AT]
    card = str(after.waste[-1]) if move.is_draw else str(move.card)
    for w, h in SIZES:
        moved = results[f"{key}@{w}x{h}"]["moved"]
        assert moved and all(pile == move.dst for pile, _card in moved), (move, moved)
        assert moved[0][1] == card, (move, moved)  # the bottom card of the moved group
        assert len(moved) == (1 if move.is_draw else move.count)


def test_windmills_centre_and_king_piles_are_cards_with_their_counts(measured):
    pages, results = measured
    p = pages["windmill"].positions[OPEN_AT]
    tops = results["windmill@1366x768"]["tops"]
    assert tops["centre"] == [str(p.centre[-1]), len(p.centre) if len(p.centre) > 1 else None]
    for k, pile in enumerate(p.kings):
        count = len(pile) if len(pile) > 1 else None
        assert tops[f"K{k + 1}"] == ([str(pile[-1]), count] if pile else [None, None]), k
    page = pages["windmill-welford"]
    p = page.positions[OPEN_AT]
    tops = results["windmill-welford@1366x768"]["tops"]
    assert tops["centre"] == [_welford_centre(page, OPEN_AT), p.centre if p.centre > 1 else None]


def _welford_centre(page: Page, step: int) -> str:
    """The card Welford's centre shows at a step: the card the line last put there (the
    position keeps only the centre's height), or the rank alone when none was put yet."""
    p = page.positions[step]
    rank = "A23456789TJQK"[(p.centre - 1) % 13]
    put = [m.card for moves in page.moves[:step] for m in moves if m.dst == "centre"]
    return str(put[-1]) if put else rank


def test_welfords_centre_shows_the_suit_of_the_card_just_put_there(pages, tmp_path):
    """It showed a rank alone: "7" right after ``7S C4 -> centre``."""
    page = pages["windmill-welford"]
    step = next(n for n, moves in enumerate(page.moves, 1) if moves[-1].dst == "centre")
    dom = _chromium(tmp_path, "--dump-dom", f"{page.file.as_uri()}#step={step}")
    centre = re.search(r'data-pile="centre"[^>]*>(.*?)</div></div>', dom, re.S)
    assert centre, dom[:2000]
    card = re.search(r'data-card="([^"]*)"', centre.group(1))
    assert card and card.group(1) == str(page.moves[step - 1][-1].card) == _welford_centre(page, step), centre.group(1)
    assert card.group(1)[1] in "CDHS"


def test_an_undecided_deal_shows_its_best_position_and_says_it_is_not_won(measured):
    pages, results = measured
    texts, result = pages["undecided"].texts, pages["undecided"].result
    assert result.verdict == "unknown" and len(texts) > 1, "the undecided deal needs a best line"
    for w, h in SIZES:
        found = results[f"undecided@{w}x{h}"]
        assert found["problems"] == [], found["problems"][:5]
        assert found["where"] == f"step {len(texts) - 1} of {len(texts) - 1}"  # it opens on the best position
        assert found["text"] == texts[-1]
        assert "Not decided" in found["status"] and "best position" in found["status"]
        assert str(result.best_progress) in found["status"] and "not a win" in found["status"]
