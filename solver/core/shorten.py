"""Shorter winning lines: detours of a won line replaced by the moves a person would make.

A search finds *a* win, not a short one: a card wanders from pile to pile, or five moves
do what one move does.  ``shorten`` rewrites a won line on the game's reference engine
(``candidate_moves`` and ``apply_move`` of the game protocol), within a budget of work:

1. contractions: a card moved A -> B and later B -> C, by the next move that names it,
   becomes one move A -> C (no move at all when C is A), played either where the first
   move was or where the second was;
2. the stock re-planned (games with card-less stock actions: draws, redeals): the
   line's card moves in their order, with stock actions put in only when the next card
   move takes a card from the waste and is not yet legal; then each waste card is tried
   at the first position where it was on top of the waste, alone or after the card moves
   that came before its play (``_stock_pass``);
3. shortcuts: a breadth-first search of every line of at most ``depth`` moves from a
   position of the line, looking for any *later* position of the line (equal as
   objects, pile by pile); a shortcut of d moves to a position k - i > d moves further
   on replaces the stretch.  Its moves take only cards that the line moves in its next
   SHORTCUT_WINDOW moves (a narrowing that keeps the search cheap).  Depths grow 1, 2, ... up to ``max_depth``, each depth a
   pass over the whole line, and rounds repeat while they shorten and budget remains.

Why a rewrite still wins: a contraction or a shortcut replaces the moves between two
positions P[i] and P[k] of the line by moves that the reference engine has just played
from P[i] to a position equal to P[k]; the moves after P[k] are untouched, so they
replay as before and end in the same won position.  A stock re-plan replays the whole
rest of the line in the reference engine and is kept only if it ends in a won position.
``shortened`` replays the final line once more in the reference engine (``verify``)
and falls back to the line it was given if that replay fails, so a fault here costs
length, never a bad line.

The budget counts work, never time, so that the line is a function of the deal and the
options alone: one unit per move replayed or tried (``apply_move``, legal or not) and per
list of candidate moves made.  It stops the work at any point with a valid line: each
rewrite is complete before the next starts.  The cheap rewrites come first in each round
(contractions, the stock, shortcuts of depth 1, 2, ...), so a small budget buys the most
moves saved per unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .lines import without_cycles
from .moves import Move

DEFAULT_NODES = 20_000  # units of work of one shortening, at the least (results/line-shortener.md)
PER_MOVE = 30  # ... or this many units per move of the line given, if more (a long line's replays cost per move)
MOST_NODES = 60_000  # ... but never more than this by default
AUTO = "auto"  # the default budget: default_budget(len(moves))
MAX_DEPTH = 4  # longest shortcut searched
CONTRACT_WINDOW = 100  # moves looked ahead for a card's next move
STOCK_RUN = 100  # most stock actions put in before one card move
SHORTCUT_WINDOW = 40  # a shortcut from positions[i] moves only what moves[i:i + this] move


def default_budget(moves: int) -> int:
    """The units a line of ``moves`` moves gets by default: DEFAULT_NODES, or PER_MOVE a
    move when that is more (its first replay and each pass of contractions cost units per
    move, so a long line would spend a fixed budget before it shortened much), at most
    MOST_NODES.  A function of the line alone, like everything the shortener does."""
    return min(MOST_NODES, max(DEFAULT_NODES, PER_MOVE * moves))


@dataclass
class Budget:
    """Units of work left (module docstring); ``out()`` once they are spent (None: unlimited)."""

    nodes: int | None = DEFAULT_NODES
    used: int = 0

    def out(self) -> bool:
        return self.nodes is not None and self.used >= self.nodes


@dataclass
class Shortening:
    """What ``shorten`` did: the new line and how it got there."""

    moves: list[Move]
    contractions: int = 0
    shortcuts: int = 0
    stock_saved: int = 0  # moves saved by re-planning the stock (_stock_pass)
    nodes: int = 0
    verified: bool = True  # False: the rewrite failed replay and ``moves`` is the line as given


class _Line:
    """A line with the position after each of its moves (``positions[0]`` is the start)
    and their keys, with a lazily rebuilt index from key to move numbers."""

    def __init__(self, start: Any, moves: list[Move], after: list[Any]) -> None:
        self.moves = list(moves)
        self.positions = [start, *after]
        self._keys: list[tuple] | None = None  # made when a shortcut search first needs them
        self._index: dict[tuple, list[int]] | None = None

    @property
    def keys(self) -> list[tuple]:
        if self._keys is None:
            self._keys = [p.key() for p in self.positions]
        return self._keys

    def splice(self, i: int, k: int, moves: list[Move], after: list[Any]) -> None:
        """Replace the moves from positions[i] to positions[k] by ``moves`` (``after``: the
        position after each, the last one equal to positions[k]; none if positions[i] is)."""
        self.moves[i:k] = moves
        self.positions[i + 1:k + 1] = after
        if self._keys is not None:
            self._keys[i + 1:k + 1] = [p.key() for p in after]
        self._index = None

    def latest(self, key: tuple, position: Any, after: int) -> int | None:
        """The last n > ``after`` with positions[n] equal to ``position``, or None."""
        if self._index is None:
            self._index = {}
            for n, k in enumerate(self.keys):
                self._index.setdefault(k, []).append(n)
        for n in reversed(self._index.get(key, ())):
            if n <= after:
                return None
            if self.positions[n] == position:
                return n
        return None


def _play(game: Any, rules: Any, start: Any, moves: list[Move], budget: Budget) -> list[Any] | None:
    """The position after each of ``moves`` from ``start``, or None if one is illegal."""
    out = []
    for m in moves:
        if budget.out():
            return None
        budget.used += 1
        try:
            start = game.apply_move(start, rules, m)
        except ValueError:  # IllegalMove
            return None
        out.append(start)
    return out


def _contract_at(game: Any, rules: Any, line: _Line, i: int, budget: Budget) -> bool:
    """Contract move i with the next move of its card (module docstring, 1); True if done."""
    m = line.moves[i]
    if m.card is None or m.is_draw or m.is_redeal:
        return False
    end = min(len(line.moves), i + 1 + CONTRACT_WINDOW)
    j = next((j for j in range(i + 1, end) if line.moves[j].card == m.card), None)
    if j is None or line.moves[j].src != m.dst:
        return False
    n, middle = line.moves[j], line.moves[i + 1:j]
    back = n.dst == m.src  # the card comes home: both moves go
    late = [] if back else [Move(m.src, n.dst, m.card, n.count)]
    early = [] if back else [Move(m.src, n.dst, m.card, m.count)]
    target = line.positions[j + 1]
    for seg in (middle + late, early + middle):
        after = _play(game, rules, line.positions[i], seg, budget)
        if after is not None and (after[-1] if after else line.positions[i]) == target:
            line.splice(i, j + 1, seg, after)
            return True
    return False


def _contractions(game: Any, rules: Any, line: _Line, budget: Budget) -> int:
    """One pass of contractions over the line; how many were made."""
    made, i = 0, 0
    while i < len(line.moves) and not budget.out():
        if _contract_at(game, rules, line, i, budget):
            made += 1  # try again here: the merged move may contract further
        else:
            i += 1
    return made


def _replan(game: Any, rules: Any, start: Any, cards: list[Move], stock: list[Move],
            budget: Budget) -> tuple[list[Move], list[Any]] | None:
    """``cards`` (the line's card moves) played in this order from ``start``, with stock
    actions (``stock``: the line's card-less moves) put in only when the next move takes
    a card from where they turn cards to and is not legal yet; (moves, position after
    each), or None unless that wins."""
    feeds = {s.dst for s in stock}
    node, moves, after = start, [], []
    for m in cards:
        turned = 0
        if budget.out():
            return None
        while True:
            if m.src not in feeds or _on_top(node, m):  # a waste card under others: no try, turn the stock
                budget.used += 1  # every try counts, legal or not
                try:
                    nxt = game.apply_move(node, rules, m)
                    break
                except ValueError:
                    pass
            if m.src not in feeds or turned >= STOCK_RUN or budget.out():
                return None
            for s in stock:
                if budget.out():
                    return None
                budget.used += 1
                try:
                    node = game.apply_move(node, rules, s)
                except ValueError:
                    continue
                moves.append(s)
                after.append(node)
                break
            else:
                return None
            turned += 1
        node = nxt
        moves.append(m)
        after.append(node)
    return (moves, after) if node.is_won() else None


def _on_top(position: Any, move: Move) -> bool:
    """False only when the pile ``move`` takes its card from is a list on the position
    (a waste) whose top card is another one: then the move cannot be legal.  Only a
    guide (True when unsure); the reference engine judges every move played."""
    pile = getattr(position, move.src, None)
    return not (isinstance(pile, list) and move.count == 1 and move.card is not None
                and (not pile or pile[-1] != move.card))


def _stock_pass(game: Any, rules: Any, line: _Line, budget: Budget) -> int:
    """Stock actions re-planned (``_replan``), and each waste card played at the first
    position of the line where it was on top (the ``waste`` of a position, if it has
    one: only a guide to where to try), either alone or after the line's other card
    moves up to its play; moves saved."""
    stock = list(dict.fromkeys(m for m in line.moves if m.card is None))
    if not stock:
        return 0
    before = len(line.moves)

    def accept(n: int, cards: list[Move]) -> bool:
        """Keep moves[:n] and play ``cards`` from positions[n], if that is shorter."""
        plan = _replan(game, rules, line.positions[n], cards, stock, budget)
        if plan is None or n + len(plan[0]) >= len(line.moves):
            return False
        line.splice(n, len(line.moves), *plan)
        return True

    accept(0, [m for m in line.moves if m.card is not None])
    feeds = {s.dst for s in stock}
    first = 0  # the waste plays before this one were tried on this line already
    improved = True
    while improved and not budget.out():
        improved = False
        at = [n for n, m in enumerate(line.moves) if m.card is not None]  # card move number -> move index
        cards = [line.moves[n] for n in at]
        for idx in range(first, len(cards)):
            m = cards[idx]
            if m.src not in feeds or budget.out():
                continue
            played = 0  # card moves before positions[n]
            for n in range(at[idx]):
                if played >= idx:
                    break
                waste = getattr(line.positions[n], m.src, None)
                if waste and waste[-1] == m.card:
                    between = cards[played:idx]
                    early = [c for c in between if c.src not in feeds]
                    late = [c for c in between if c.src in feeds]
                    if (accept(n, [m] + between + cards[idx + 1:])
                            or accept(n, early + [m] + late + cards[idx + 1:])):
                        improved, first = True, played
                        break
                if line.moves[n].card is not None:
                    played += 1
            if improved:
                break
    return before - len(line.moves)


def _shortcut(game: Any, rules: Any, line: _Line, i: int, depth: int,
              budget: Budget) -> tuple[int, list[Move], list[Any]] | None:
    """The best shortcut from positions[i] of at most ``depth`` moves: (k, moves, positions
    after each) reaching positions[k] with the most moves saved, or None."""
    start = line.positions[i]
    window = line.moves[i:i + SHORTCUT_WINDOW]
    cards = {m.card for m in window if m.card is not None}
    cardless = {(m.src, m.dst) for m in window if m.card is None}
    frontier: list[tuple[Any, list[Move], list[Any]]] = [(start, [], [])]
    seen = {line.keys[i]}  # by key: a key-equal but unequal position is not searched twice
    best, gain = None, 0
    for d in range(1, depth + 1):
        deeper = []
        for node, path, after in frontier:
            if budget.out():
                return best
            budget.used += 1  # the candidate list
            for m in game.candidate_moves(node, rules):
                if (m.card not in cards) if m.card is not None else ((m.src, m.dst) not in cardless):
                    continue
                if budget.out():
                    return best
                budget.used += 1
                try:
                    child = game.apply_move(node, rules, m)
                except ValueError:  # IllegalMove: a candidate, not a legal move
                    continue
                key = child.key()
                if key in seen:
                    continue
                seen.add(key)
                k = line.latest(key, child, i + d)
                if k is not None and k - i - d > gain:
                    best, gain = (k, path + [m], after + [child]), k - i - d
                if d < depth:
                    deeper.append((child, path + [m], after + [child]))
        frontier = deeper
    return best


def _shortcuts(game: Any, rules: Any, line: _Line, depth: int, budget: Budget) -> int:
    """One pass of shortcut searches of ``depth`` over the line; how many were spliced."""
    made, i = 0, 0
    while i < len(line.moves) - 1 and not budget.out():
        found = _shortcut(game, rules, line, i, depth, budget)
        if found is not None:
            k, moves, after = found
            line.splice(i, k, moves, after)
            made += 1  # try again from the same position
        else:
            i += 1
    return made


def shorten(game: Any, position: Any, rules: Any, moves: list[Move], *,
            nodes: int | None | str = AUTO, max_depth: int = MAX_DEPTH) -> Shortening:
    """``moves`` (a line from ``position``) rewritten shorter within the budget (``nodes``
    units, None: unlimited, AUTO: ``default_budget``); not yet verified to win
    (``shortened`` does that).  Raises ValueError if ``moves`` do not replay."""
    budget = Budget(default_budget(len(moves)) if nodes == AUTO else nodes)
    out = Shortening(list(moves))
    after = []
    for p in game.positions(position, rules, moves):  # a long line may take the budget
        after.append(p)
        budget.used += 1
        if budget.out():
            out.nodes = budget.used
            return out
    line = _Line(position, moves, after)
    changed = True
    while changed and not budget.out():
        changed = False
        while (n := _contractions(game, rules, line, budget)) > 0:
            out.contractions += n
            changed = True
        n = _stock_pass(game, rules, line, budget)
        out.stock_saved += n
        changed = changed or n > 0
        for depth in range(1, max_depth + 1):
            if budget.out():
                break
            n = _shortcuts(game, rules, line, depth, budget)
            out.shortcuts += n
            changed = changed or n > 0
    if out.contractions or out.shortcuts or out.stock_saved:
        out.moves = without_cycles(game, position, rules, line.moves)
    out.nodes = budget.used
    return out


def shortened(game: Any, position: Any, rules: Any, moves: list[Move], *,
              nodes: int | None | str = AUTO, max_depth: int = MAX_DEPTH) -> Shortening:
    """``shorten``, then the result replayed to the win by the reference engine; on any
    failure (or a line no shorter) the line as given, with ``verified`` False on failure."""
    try:
        out = shorten(game, position, rules, moves, nodes=nodes, max_depth=max_depth)
        if len(out.moves) < len(moves):
            game.verify(position, rules, out.moves)
        else:
            out.moves = list(moves)
    except ValueError:
        return Shortening(list(moves), verified=False)
    return out
