"""A replay page: one self-contained HTML file (no network, no external assets) that
shows a deal and steps through a line of it (``patience solve ... --html FILE``).

A won deal's page steps through its winning line; any other verdict's page steps
through the line to the best position the search found (``SolveResult.best_line``),
opens on that position and says plainly that it is not a win.  The table is drawn as
piles of cards (solver/games/table.py, each game's board.py), one set of piles per step (a step as
``lines.steps`` groups moves); the cards the step moved are highlighted.  Every pile box
is sized for the most cards it ever shows, so stepping and playing move nothing on
the page.  The table is fitted to the window when the page opens or the window changes
size: runs of sideways rows (Beleaguered Castle's, Great Wheel's) stand in up to three
columns, and the cards shrink only as far as needed to leave the table, the buttons and
the current step in sight beside the move list (below the table once that would take
cards under 55% of their size).  A card whose suit the position does not keep
(Welford's centre) shows the suit of the card the line put there.  Buttons: first,
previous, next, play; the move list is clickable; the arrow keys step too.  The address
follows the step (``#step=N``), and opening the page with ``#step=N`` shows step N.
``?clicks=next,next,prev`` in the address makes the page
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
html { scrollbar-gutter: stable; }
body { font-family: sans-serif; margin: 8px 12px; background: #0b5d1e; color: #f4f4f4; }
h1 { font-size: 1.15em; margin: 0 0 .15em 0; }
#verdict { font-size: .9em; }
#status { margin-top: .4em; padding: .3em .8em; border-radius: 6px; background: #ffd84d; color: #222; font-size: .9em; }
#controls { margin-top: .5em; display: flex; flex-wrap: wrap; align-items: center; gap: .3em; }
#controls button { font-size: 1em; padding: .2em .8em; min-width: 5.5em; }
#where { margin-left: .4em; font-weight: bold; white-space: nowrap; }
#step-text { margin-top: .3em; height: 1.4em; line-height: 1.4em; white-space: nowrap; overflow: hidden;
             text-overflow: ellipsis; }
#main { display: flex; gap: 16px; align-items: flex-start; margin-top: .4em; }
#main.stacked { flex-direction: column; }
#board { --s: 1; flex: none; background: #0e7a29; padding: calc(10px * var(--s));
         border-radius: 8px; }
.row { display: flex; gap: calc(8px * var(--s)); align-items: flex-start; margin-bottom: calc(8px * var(--s)); }
.row:last-child, .group .row { margin-bottom: 0; }
.group { display: grid; grid-auto-flow: column; justify-content: start; column-gap: calc(20px * var(--s));
         row-gap: calc(8px * var(--s)); margin-bottom: calc(8px * var(--s)); }
.group:last-child { margin-bottom: 0; }
.slot { flex: none; }
.slot.push { margin-left: auto; }
.slot.right { display: flex; align-items: center; gap: calc(6px * var(--s)); }
.label { font-size: max(8px, calc(11px * var(--s))); height: max(10px, calc(14px * var(--s)));
         line-height: max(10px, calc(14px * var(--s))); color: #cfe8d4; white-space: nowrap; }
.slot.right .label { width: 2.6em; height: auto; }
.pile { position: relative; border: 1px dashed rgba(255, 255, 255, .35); border-radius: calc(5px * var(--s)); }
.pile.from { border: 2px dashed #ffd84d; }
.card { position: absolute; width: calc(42px * var(--s)); height: calc(58px * var(--s)); background: #fff;
        border: 1px solid #333; border-radius: calc(4px * var(--s)); color: #111;
        font: bold calc(13px * var(--s))/1 sans-serif; letter-spacing: normal; }
.card .corner { position: absolute; left: calc(2px * var(--s)); top: calc(2px * var(--s)); white-space: nowrap; }
.pile[data-fan="right"] .card .corner .suit { display: block; }  /* under the rank: a 10 fits the 24 px strip */
.card.red { color: #c8102e; }
.card.down { background: repeating-linear-gradient(45deg, #274a9b, #274a9b 3px, #3d63c4 3px, #3d63c4 6px); }
.card .pip { position: absolute; right: calc(4px * var(--s)); bottom: calc(5px * var(--s));
             font-size: calc(20px * var(--s)); }
.card.moved { background: #fff4b0; box-shadow: inset 0 0 0 3px #e0a800; }
.card.down.moved { box-shadow: inset 0 0 0 3px #ffd84d; }
.badge { position: absolute; left: calc(2px * var(--s)); bottom: calc(2px * var(--s)); min-width: calc(18px * var(--s));
         padding: 0 calc(3px * var(--s)); border-radius: calc(8px * var(--s)); background: #222; color: #fff;
         font: bold calc(10px * var(--s))/calc(13px * var(--s)) sans-serif; letter-spacing: normal;
         white-space: nowrap; text-align: center; z-index: 1; }
#movelist { flex: 1 1 16em; min-width: calc(20ch + 4.5em); max-width: 40em; max-height: 70vh; overflow-y: auto;
            background: #f4f4f4; color: #222; padding: .5em 1em .5em 3.5em; border-radius: 8px; margin: 0; }
#main.stacked #movelist { flex: none; width: 100%; max-width: none; }
#movelist li { cursor: pointer; padding: 0 .3em; }
#movelist li.current { background: #ffd84d; }
#movelist li.start { list-style: none; margin-left: -1.5em; font-style: italic; }
"""

_SCRIPT = """
const DATA = JSON.parse(document.getElementById('data').textContent);
const SUITS = {C: '\\u2663', D: '\\u2666', H: '\\u2665', S: '\\u2660'};
const CARD_W = 42, CARD_H = 58, FAN_DOWN = 20, FAN_RIGHT = 24;  // px at scale 1
const SMALLEST = 0.55;  // the least scale the table takes beside the move list; below it, the list goes under
const last = DATA.boards.length - 1;
let at = 0, timer = null, current = null, hashTimer = null, hashAt = 0, scale = 1;
const items = {};
document.querySelectorAll('#movelist li').forEach(function (li) { items[li.dataset.step] = li; });
const most = {};  // pile -> the most cards it ever shows: its box never changes size
DATA.boards.forEach(function (b) {
  Object.keys(b.p).forEach(function (name) { most[name] = Math.max(most[name] || 1, b.p[name].length); });
});
// runs of rows that are one sideways pile each (Beleaguered Castle's and Great Wheel's rows) may
// stand in columns, T1-T4 beside T5-T8
const lone = function (row) { return row.length === 1 && row[0] && row[0].fan === 'right'; };
let longest = 1;
DATA.frame.forEach(function (row, i) {
  if (!lone(row)) return;
  let n = 0;
  while (i + n < DATA.frame.length && lone(DATA.frame[i + n])) n++;
  longest = Math.max(longest, n);
});
let boxes = {};
function row(slots) {
  const r = document.createElement('div');
  r.className = 'row';
  slots.forEach(function (slot) {
    const s = document.createElement('div');
    s.className = 'slot';
    if (!slot) { s.style.width = (CARD_W * scale + 2) + 'px'; r.appendChild(s); return; }
    s.classList.add(slot.fan);
    if (slot.push) s.classList.add('push');
    const label = document.createElement('div');
    label.className = 'label';
    label.textContent = slot.label;
    const pile = document.createElement('div');
    pile.className = 'pile';
    pile.dataset.pile = slot.pile;
    pile.dataset.fan = slot.fan;
    const n = most[slot.pile] || 1;  // + the box's border
    pile.style.width = ((CARD_W + (slot.fan === 'right' ? (n - 1) * FAN_RIGHT : 0)) * scale + 2) + 'px';
    pile.style.height = ((CARD_H + (slot.fan === 'down' ? (n - 1) * FAN_DOWN : 0)) * scale + 2) + 'px';
    s.appendChild(label);
    s.appendChild(pile);
    r.appendChild(s);
    boxes[slot.pile] = pile;
  });
  return r;
}
function build(columns, s) {  // the table at scale s, runs of lone sideways rows in that many columns
  const board = document.getElementById('board');
  scale = s;
  board.style.setProperty('--s', s);
  board.textContent = '';
  boxes = {};
  for (let i = 0; i < DATA.frame.length; i++) {
    if (!lone(DATA.frame[i]) || columns === 1) { board.appendChild(row(DATA.frame[i])); continue; }
    let n = 0;
    while (i + n < DATA.frame.length && lone(DATA.frame[i + n])) n++;
    const group = document.createElement('div');
    group.className = 'group';
    group.style.gridTemplateRows = 'repeat(' + Math.ceil(n / columns) + ', auto)';
    for (let k = 0; k < n; k++) group.appendChild(row(DATA.frame[i + k]));
    board.appendChild(group);
    i += n - 1;
  }
}
function fit() {  // the table as large as fits beside the move list and above the window's bottom
  document.getElementById('where').style.minWidth = last ? (2 * String(last).length + 9) + 'ch' : '';  // never wraps anew
  const main = document.getElementById('main'), list = document.getElementById('movelist');
  const board = document.getElementById('board');
  main.classList.remove('stacked');
  list.style.maxHeight = '';
  const bottom = parseFloat(getComputedStyle(document.body).marginBottom);
  const high = window.innerHeight - (main.getBoundingClientRect().top + window.scrollY) - bottom - 1;
  const wide = main.clientWidth, beside = wide - parseFloat(getComputedStyle(main).columnGap) -
    parseFloat(getComputedStyle(list).minWidth);
  const sizes = [];  // the table's size at scale 1 with its sideways rows in 1, 2, 3 columns
  for (let columns = 1; columns <= Math.min(longest, 3); columns++) {
    build(columns, 1);
    sizes.push({columns: columns, w: board.offsetWidth, h: board.offsetHeight});
  }
  function largest(room, tall) {  // the columns that give the largest scale, and that scale
    return sizes.map(function (z) { return {columns: z.columns, s: Math.min(1, room / z.w, tall ? high / z.h : 1)}; })
      .reduce(function (a, b) { return b.s > a.s + 0.01 ? b : a; });
  }
  let best = largest(beside, true), tall = true;
  const stacked = best.s < SMALLEST;  // too small beside the list: the list goes under the table
  if (stacked) {
    best = largest(wide, true);
    if (best.s < SMALLEST) {  // the page scrolls down to the table's end
      tall = false;
      best = largest(wide, false);
      best.s = Math.min(best.s, SMALLEST);
    }
  }
  main.classList.toggle('stacked', stacked);
  let s = best.s;
  for (let k = 0; k < 4; k++) {  // labels and borders do not scale: shrink until it fits
    build(best.columns, s);
    const over = Math.max(board.offsetWidth / (stacked ? wide : beside), tall ? board.offsetHeight / high : 0);
    if (over <= 1 || s <= 0.3) break;
    s = s / over - 0.005;
  }
  if (!stacked) list.style.maxHeight = Math.max(high, 80) + 'px';
  else list.style.maxHeight = Math.max(window.innerHeight * 0.6, 120) + 'px';
}
function card(text, i, fan) {
  const c = document.createElement('div');
  c.className = 'card';
  if (fan === 'down') c.style.top = (i * FAN_DOWN * scale) + 'px';
  if (fan === 'right') c.style.left = (i * FAN_RIGHT * scale) + 'px';
  if (text === '##') { c.classList.add('down'); c.title = 'face down'; return c; }
  const r = text[0] === 'T' ? '10' : text[0], s = text[1];
  if (s === 'D' || s === 'H') c.classList.add('red');
  c.dataset.card = text;
  const corner = document.createElement('span');
  corner.className = 'corner';
  const rank = document.createElement('span');
  rank.className = 'rank';
  rank.textContent = r;
  corner.appendChild(rank);
  if (s) {
    const suit = document.createElement('span');
    suit.className = 'suit';
    suit.textContent = SUITS[s];
    corner.appendChild(suit);
  }
  c.appendChild(corner);
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
fit();
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
let resized = null;
window.addEventListener('resize', function () {  // a new window size: the table fitted anew
  clearTimeout(resized);
  resized = setTimeout(function () { fit(); show(at, true); }, 150);
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


def _with_suits_played(boards: list[dict], line: list[Move], numbered: list[tuple[str, int]]) -> list[dict]:
    """``boards`` with each top card shown as a rank alone (Welford's centre keeps no suits)
    given the suit of the card the line last put there, while it is still the top one."""
    placed: dict[str, str] = {}  # pile -> the card the line last put on top of it
    done = 0
    for board, (_text, last) in zip(boards[1:], numbered):
        for move in line[done:last + 1]:
            placed.pop(move.src, None)
            if move.card is not None and move.count == 1 and not move.is_draw:
                placed[move.dst] = str(move.card)
            else:
                placed.pop(move.dst, None)
        done = last + 1
        for name, shown in board["p"].items():
            if shown and len(shown[-1]) == 1 and placed.get(name, "")[:1] == shown[-1]:
                shown[-1] = placed[name]
    return boards


def replay_page(game: Any, position: Any, rules: Any, result: SolveResult, title: str) -> str:
    """The page's HTML: the start position and one position per step of the line."""
    line = _line(result)
    positions = list(game.positions(position, rules, line))
    numbered = steps(line, positions, position)
    shown = [position] + [positions[last] for _text, last in numbered]
    data = {
        "frame": game.table_frame(position),
        "boards": _with_suits_played([game.table_piles(p) for p in shown], line, numbered),
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
<div id="verdict">rules: {html.escape(describe_rules(result.rules))}; verdict: {html.escape(verdict)}</div>
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
