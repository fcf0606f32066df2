"""A replay page: one self-contained HTML file (no network, no external assets) that
shows a deal and steps through a line of it (``patience solve ... --html FILE``).

A won deal's page steps through its winning line; any other verdict's page steps
through the line to the best position the search found (``SolveResult.best_line``),
opens on that position and says plainly that it is not a win.  The table is drawn as
piles of cards (solver/games/table.py, each game's board.py), one set of piles per step (a step as
``lines.steps`` groups moves); the cards the step moved are highlighted.  Every pile box
is sized for the most cards it ever shows, so stepping and playing move nothing on
the page.  Buttons: first, previous, next, play; the move list is clickable; the arrow
keys step too.  The address follows the step (``#step=N``), and opening the page with
``#step=N`` shows step N.  ``?clicks=next,next,prev`` in the address makes the page
press those buttons once loaded (how the browser tests drive it).
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..core.lines import steps
from ..core.moves import Move
from ..core.result import SolveResult, describe_rules

_STYLE = """
* { box-sizing: border-box; }
body { font-family: sans-serif; margin: 16px; background: #0b5d1e; color: #f4f4f4; }
h1 { font-size: 1.3em; margin: 0 0 .3em 0; }
#status { margin-top: .5em; padding: .4em .8em; border-radius: 6px; background: #ffd84d; color: #222; }
#controls { margin-top: .8em; white-space: nowrap; }
#controls button { font-size: 1em; margin-right: .3em; padding: .2em .8em; min-width: 5.5em; }
#where { margin-left: .7em; font-weight: bold; }
#step-text { margin-top: .6em; height: 1.4em; line-height: 1.4em; white-space: nowrap; overflow: hidden;
             text-overflow: ellipsis; }
#main { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; margin-top: .8em; }
#board { flex: 0 1 auto; max-width: 100%; overflow-x: auto; background: #0e7a29; padding: 10px;
         border-radius: 8px; }
.row { display: flex; gap: 8px; align-items: flex-start; margin-bottom: 8px; }
.row:last-child { margin-bottom: 0; }
.slot { flex: none; }
.slot.push { margin-left: auto; }
.slot.right { display: flex; align-items: center; gap: 6px; }
.label { font-size: 11px; height: 14px; line-height: 14px; color: #cfe8d4; white-space: nowrap; }
.slot.right .label { width: 2.6em; height: auto; }
.pile { position: relative; border: 1px dashed rgba(255, 255, 255, .35); border-radius: 5px; }
.pile.from { border: 2px dashed #ffd84d; }
.card { position: absolute; width: 42px; height: 58px; background: #fff; border: 1px solid #333;
        border-radius: 4px; color: #111; font: bold 13px/1 sans-serif; padding: 3px 0 0 2px; }
.card.ten { letter-spacing: -2px; }
.card.red { color: #c8102e; }
.card.down { background: repeating-linear-gradient(45deg, #274a9b, #274a9b 3px, #3d63c4 3px, #3d63c4 6px); }
.card .pip { position: absolute; right: 4px; bottom: 5px; font-size: 20px; }
.card.moved { background: #fff4b0; box-shadow: inset 0 0 0 3px #e0a800; }
.card.down.moved { box-shadow: inset 0 0 0 3px #ffd84d; }
.badge { position: absolute; left: 2px; bottom: 2px; min-width: 18px; padding: 1px 3px; border-radius: 8px;
         background: #222; color: #fff; font: bold 10px/12px sans-serif; text-align: center; z-index: 1; }
#movelist { flex: 1 1 16em; min-width: 22ch; max-width: 40em; max-height: 70vh; overflow-y: auto;
            background: #f4f4f4; color: #222; padding: .5em 1em .5em 3em; border-radius: 8px; margin: 0; }
#movelist li { cursor: pointer; padding: 0 .3em; }
#movelist li.current { background: #ffd84d; }
#movelist li.start { list-style: none; margin-left: -1.5em; font-style: italic; }
"""

_SCRIPT = """
const DATA = JSON.parse(document.getElementById('data').textContent);
const SUITS = {C: '\\u2663', D: '\\u2666', H: '\\u2665', S: '\\u2660'};
const CARD_W = 42, CARD_H = 58, FAN_DOWN = 17, FAN_RIGHT = 24;
const last = DATA.boards.length - 1;
let at = 0, timer = null, current = null, hashTimer = null, hashAt = 0;
const items = {};
document.querySelectorAll('#movelist li').forEach(function (li) { items[li.dataset.step] = li; });
const most = {};  // pile -> the most cards it ever shows: its box never changes size
DATA.boards.forEach(function (b) {
  Object.keys(b.p).forEach(function (name) { most[name] = Math.max(most[name] || 1, b.p[name].length); });
});
const boxes = {};
function build() {
  const board = document.getElementById('board');
  DATA.frame.forEach(function (row) {
    const r = document.createElement('div');
    r.className = 'row';
    row.forEach(function (slot) {
      const s = document.createElement('div');
      s.className = 'slot';
      if (!slot) { s.style.width = (CARD_W + 2) + 'px'; r.appendChild(s); return; }
      s.classList.add(slot.fan);
      if (slot.push) s.classList.add('push');
      const label = document.createElement('div');
      label.className = 'label';
      label.textContent = slot.label;
      const pile = document.createElement('div');
      pile.className = 'pile';
      pile.dataset.pile = slot.pile;
      pile.dataset.fan = slot.fan;
      const n = most[slot.pile] || 1;
      pile.style.width = (CARD_W + 2 + (slot.fan === 'right' ? (n - 1) * FAN_RIGHT : 0)) + 'px';  // + its border
      pile.style.height = (CARD_H + 2 + (slot.fan === 'down' ? (n - 1) * FAN_DOWN : 0)) + 'px';
      s.appendChild(label);
      s.appendChild(pile);
      r.appendChild(s);
      boxes[slot.pile] = pile;
    });
    board.appendChild(r);
  });
}
function card(text, i, fan) {
  const c = document.createElement('div');
  c.className = 'card';
  if (fan === 'down') c.style.top = (i * FAN_DOWN) + 'px';
  if (fan === 'right') c.style.left = (i * FAN_RIGHT) + 'px';
  if (text === '##') { c.classList.add('down'); c.title = 'face down'; return c; }
  const r = text[0] === 'T' ? '10' : text[0], s = text[1];
  if (s === 'D' || s === 'H') c.classList.add('red');
  if (r === '10') c.classList.add('ten');
  c.dataset.card = text;
  c.textContent = r + (s ? SUITS[s] : '');
  if (s) {
    const pip = document.createElement('span');
    pip.className = 'pip';
    pip.textContent = SUITS[s];
    c.appendChild(pip);
  }
  return c;
}
function draw(b, moved) {
  Object.keys(boxes).forEach(function (name) {
    const pile = boxes[name], cards = b.p[name] || [], count = b.n[name];
    pile.textContent = '';
    pile.classList.toggle('from', !!moved && moved.from === name);
    cards.forEach(function (t, i) {
      const c = card(t, i, pile.dataset.fan);
      if (moved && moved.to === name && i >= cards.length - moved.n) c.classList.add('moved');
      pile.appendChild(c);
    });
    if (count !== undefined && count > 1 && cards.length) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = count;
      badge.title = count + ' cards';
      pile.lastChild.appendChild(badge);  // on the top card
    }
  });
}
function show(i, keepHash) {
  at = Math.max(0, Math.min(last, i));
  const b = DATA.boards[at];
  draw(b, at ? DATA.moved[at - 1] : null);
  document.getElementById('board').setAttribute('data-text', DATA.texts[at]);
  document.getElementById('where').textContent = last ? 'step ' + at + ' of ' + last : 'the deal (no line to show)';
  document.getElementById('step-text').textContent = at ? at + '. ' + DATA.steps[at - 1] : 'the deal';
  const list = document.getElementById('movelist'), cur = items[at];
  if (current) current.classList.remove('current');
  current = cur;
  if (cur) {  // scroll the list only, never the page
    cur.classList.add('current');
    const top = cur.offsetTop - list.offsetTop, bottom = top + cur.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
  if (!keepHash && hashTimer === null) {  // at most a few address changes a second (browsers throttle them)
    const wait = hashAt + 250 - Date.now();
    if (wait <= 0) followHash(); else hashTimer = setTimeout(followHash, wait);
  }
}
function followHash() {
  hashTimer = null;
  if (location.hash === '#step=' + at) return;  // no change: the next one need not wait
  hashAt = Date.now();
  try { history.replaceState(null, '', '#step=' + at); } catch (e) { /* an address that cannot change */ }
}
function play() {
  const button = document.getElementById('play');
  if (timer) { clearInterval(timer); timer = null; button.textContent = 'play'; return; }
  if (at >= last) show(0);
  button.textContent = 'pause';
  timer = setInterval(function () {
    if (at >= last) { play(); return; }
    show(at + 1);
  }, 700);
}
function fromHash() {
  const m = location.hash.match(/step=(\\d+)/);
  return m ? Number(m[1]) : null;
}
build();
document.getElementById('first').onclick = function () { show(0); };
document.getElementById('prev').onclick = function () { show(at - 1); };
document.getElementById('next').onclick = function () { show(at + 1); };
document.getElementById('play').onclick = play;
['first', 'prev', 'next', 'play'].forEach(function (id) { document.getElementById(id).disabled = !last; });
document.querySelectorAll('#movelist li').forEach(function (li) {
  li.onclick = function () { show(Number(li.dataset.step)); };
});
document.addEventListener('keydown', function (e) {
  if (e.key === 'ArrowRight') show(at + 1);
  if (e.key === 'ArrowLeft') show(at - 1);
});
window.addEventListener('hashchange', function () { const s = fromHash(); if (s !== null && s !== at) show(s); });
const start = fromHash();
show(start !== null ? start : DATA.open, start === null);
const clicks = new URLSearchParams(location.search).get('clicks');
if (clicks) clicks.split(',').forEach(function (id) { document.getElementById(id).click(); });
"""


def _moved(move: Move) -> dict[str, Any]:
    """What a step's last move moved, for the page to highlight: the top ``n`` cards of
    pile ``to``, taken from pile ``from``."""
    if move.is_redeal:
        return {"from": move.src, "to": move.dst, "n": 1}
    return {"from": move.src, "to": move.dst, "n": 1 if move.is_draw else move.count}


def _line(result: SolveResult) -> list[Move]:
    """The moves the page steps through: the winning line, or the line to the best
    position the search found (empty when there is none, e.g. from a resident solver)."""
    if result.won:
        return result.moves
    return list(result.best_line or [])


def _status(result: SolveResult, nsteps: int) -> str | None:
    """The notice over an undecided or lost deal's page: what its line is, and is not."""
    if result.won:
        return None
    if result.verdict == "lost":
        head = "Lost: no line wins this deal"
    else:
        head = f"Not decided ({result.reason}): the search stopped before it knew whether this deal can be won"
    best = f" ({result.best_progress})" if result.best_progress is not None else ""
    if not nsteps:
        return f"{head}. No line to show: this is the deal as dealt{best}."
    return f"{head}. Shown: the best position the search found{best}, and the line to it. It is not a win."


def replay_page(game: Any, position: Any, rules: Any, result: SolveResult, title: str) -> str:
    """The page's HTML: the start position and one position per step of the line."""
    line = _line(result)
    positions = list(game.positions(position, rules, line))
    numbered = steps(line, positions)
    shown = [position] + [positions[last] for _text, last in numbered]
    data = {
        "frame": game.table_frame(position),
        "boards": [game.table_piles(p) for p in shown],
        "texts": [game.render(p) for p in shown],
        "steps": [text for text, _last in numbered],
        "moved": [_moved(line[last]) for _text, last in numbered],
        "open": 0 if result.won else len(numbered),  # a line that does not win opens on its end
    }
    verdict = result.verdict + (f" ({result.reason})" if result.reason else "")
    if result.won:
        verdict += f": {len(numbered)} steps ({len(line)} moves), replayed by the reference engine"
    elif result.proof:
        verdict += f", proof: {result.proof}"
    status = _status(result, len(numbered))
    notice = f'<div id="status">{html.escape(status)}</div>\n' if status else ""
    items = ['<li class="start" data-step="0">the deal</li>']
    items += [f'<li data-step="{n}">{html.escape(text)}</li>' for n, (text, _last) in enumerate(numbered, 1)]
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")  # never ends the script element early
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<div>rules: {html.escape(describe_rules(result.rules))}; verdict: {html.escape(verdict)}</div>
{notice}<div id="controls">
<button id="first">first</button><button id="prev">previous</button><button id="next">next</button><button id="play">play</button>
<span id="where"></span>
</div>
<div id="step-text"></div>
<div id="main">
<div id="board"></div>
<ol id="movelist" start="0">
{chr(10).join(items)}
</ol>
</div>
<script type="application/json" id="data">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
