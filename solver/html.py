"""A replay page: one self-contained HTML file (no network, no external assets) that
shows a deal and steps through its winning line (``patience solve ... --html FILE``).

The boards are the game's own text pictures (``render``), one per step (a step as
``lines.steps`` groups moves), with every card token drawn as a small card by the
page's script and style.  Buttons: first, previous, next, play; the move list is
clickable; the arrow keys step too.  ``?clicks=next,next,prev`` in the address makes
the page press those buttons once loaded (how the browser test drives it), and
``#step=N`` opens it at step N.
"""

from __future__ import annotations

import html
import json
from typing import Any

from .lines import steps
from .result import SolveResult, describe_rules

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; background: #0b5d1e; color: #f4f4f4; }
h1 { font-size: 1.3em; margin: 0 0 .3em 0; }
#controls button { font-size: 1em; margin-right: .3em; padding: .2em .8em; }
#where { margin-left: 1em; font-weight: bold; }
#main { display: flex; gap: 2em; align-items: flex-start; margin-top: 1em; }
#board { background: #0e7a29; padding: 1em; border-radius: 8px; font-size: 15px; line-height: 1.9em; }
#movelist { max-height: 80vh; overflow-y: auto; background: #f4f4f4; color: #222; padding: .5em 1em .5em 2.8em;
            border-radius: 8px; margin: 0; }
#movelist li { cursor: pointer; padding: 0 .3em; }
#movelist li.current { background: #ffd84d; }
#movelist li.start { list-style: none; margin-left: -1.5em; font-style: italic; }
.card { display: inline-block; min-width: 2.1em; text-align: center; background: #fff; border: 1px solid #333;
        border-radius: 4px; color: #111; font-weight: bold; line-height: 1.4em; }
.card.red { color: #c8102e; }
.card.down { background: repeating-linear-gradient(45deg, #274a9b, #274a9b 3px, #3d63c4 3px, #3d63c4 6px);
             color: transparent; }
#step-text { margin-top: .6em; min-height: 1.4em; }
"""

_SCRIPT = """
const DATA = JSON.parse(document.getElementById('data').textContent);
const SUITS = {C: '\\u2663', D: '\\u2666', H: '\\u2665', S: '\\u2660'};
let at = 0, timer = null;
function esc(t) { return t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'); }
function drawCards(text) {
  return esc(text).replace(/\\[\\]|\\b(10|[A2-9TJQK])([CDHS])\\b/g, function (m, r, s) {
    if (m === '[]') return '<span class="card down" title="face down">[]</span>';
    const red = (s === 'D' || s === 'H') ? ' red' : '';
    return '<span class="card' + red + '" data-card="' + r + s + '">' + (r === 'T' ? '10' : r) + SUITS[s] + '</span>';
  });
}
function show(i) {
  at = Math.max(0, Math.min(DATA.boards.length - 1, i));
  document.getElementById('board').innerHTML = drawCards(DATA.boards[at]);
  document.getElementById('board').setAttribute('data-text', DATA.boards[at]);
  document.getElementById('where').textContent = 'step ' + at + ' of ' + (DATA.boards.length - 1);
  document.getElementById('step-text').textContent = at ? at + '. ' + DATA.steps[at - 1] : 'the deal';
  const items = document.querySelectorAll('#movelist li');
  items.forEach(function (li) { li.classList.toggle('current', Number(li.dataset.step) === at); });
  const cur = document.querySelector('#movelist li.current');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({block: 'nearest'});
}
function play() {
  const button = document.getElementById('play');
  if (timer) { clearInterval(timer); timer = null; button.textContent = 'play'; return; }
  if (at >= DATA.boards.length - 1) show(0);
  button.textContent = 'pause';
  timer = setInterval(function () {
    if (at >= DATA.boards.length - 1) { play(); return; }
    show(at + 1);
  }, 700);
}
document.getElementById('first').onclick = function () { show(0); };
document.getElementById('prev').onclick = function () { show(at - 1); };
document.getElementById('next').onclick = function () { show(at + 1); };
document.getElementById('play').onclick = play;
document.querySelectorAll('#movelist li').forEach(function (li) {
  li.onclick = function () { show(Number(li.dataset.step)); };
});
document.addEventListener('keydown', function (e) {
  if (e.key === 'ArrowRight') show(at + 1);
  if (e.key === 'ArrowLeft') show(at - 1);
});
const hash = location.hash.match(/step=(\\d+)/);
show(hash ? Number(hash[1]) : 0);
const clicks = new URLSearchParams(location.search).get('clicks');
if (clicks) clicks.split(',').forEach(function (id) { document.getElementById(id).click(); });
"""


def replay_page(game: Any, position: Any, rules: Any, result: SolveResult, title: str) -> str:
    """The page's HTML: the start board and one board per step of ``result.moves``."""
    positions = list(game.positions(position, rules, result.moves))
    numbered = steps(result.moves, positions)
    boards = [game.render(position)] + [game.render(positions[last]) for _text, last in numbered]
    data = {"boards": boards, "steps": [text for text, _last in numbered]}
    verdict = result.verdict + (f" ({result.reason})" if result.reason else "")
    if result.won:
        verdict += f": {len(numbered)} steps ({len(result.moves)} moves), replayed by the reference engine"
    items = ['<li class="start" data-step="0">the deal</li>']
    items += [f'<li data-step="{n}">{html.escape(text)}</li>' for n, (text, _last) in enumerate(numbered, 1)]
    payload = json.dumps(data).replace("</", "<\\/")  # never ends the script element early
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<div>rules: {html.escape(describe_rules(result.rules))}; verdict: {html.escape(verdict)}</div>
<div id="controls" style="margin-top:.8em">
<button id="first">first</button><button id="prev">previous</button><button id="next">next</button><button id="play">play</button>
<span id="where"></span>
</div>
<div id="step-text"></div>
<div id="main">
<pre id="board"></pre>
<ol id="movelist" start="0">
{chr(10).join(items)}
</ol>
</div>
<script type="application/json" id="data">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
