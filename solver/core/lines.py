"""Winning lines for a person: loops cut out, and moves grouped into the steps a person makes.

A search line may wander: a card goes to a foundation and comes straight back, or a
run of moves returns to a position seen before.  ``without_cycles`` replays the line in
the game's reference engine and, wherever a position repeats, drops the moves between
its two visits.  What is left is a sub-sequence of legal moves that passes through the
same positions at its cut points, so it is legal and still wins; the caller replays it
again all the same (api.solve), because a line is only ever reported after the
reference engine has accepted it.
"""

from __future__ import annotations

from typing import Any

from .moves import Move


def without_cycles(game: Any, position: Any, rules: Any, moves: list[Move]) -> list[Move]:
    """``moves`` with every loop removed: no position is visited twice.

    A loop is cut only between two positions that are equal as objects (every pile,
    by its number, card for card): a ``key()`` may merge positions that the moves tell
    apart (Great Wheel's keys ignore which Evens pile is which, while a move names
    it), so keys only find the candidates.
    """
    seen: dict[tuple, list[tuple[int, Any]]] = {position.key(): [(0, position)]}
    keys = [position.key()]  # keys[n]: the key of the position after kept[:n]
    kept: list[Move] = []
    for move, after in zip(moves, game.positions(position, rules, moves)):
        kept.append(move)
        key = after.key()
        back = next((n for n, p in seen.get(key, ()) if p == after), None)
        if back is not None:  # a loop: back to the position after kept[:back]
            for n in range(back + 1, len(kept)):  # forget the positions of the cut stretch, each once
                seen[keys[n]] = [(m, p) for m, p in seen[keys[n]] if m != n]
            del kept[back:]
            del keys[back + 1:]
        else:
            seen.setdefault(key, []).append((len(kept), after))
            keys.append(key)
    return kept


def steps(moves: list[Move], positions: list[Any] | None = None, start: Any = None) -> list[tuple[str, int]]:
    """The line as a person plays it: (text, index of the step's last move).

    A run of draws is one step; with ``positions`` (the position after each move) it
    says which card it stops at ("draw until 2C is on top: 13 cards"), or that it runs
    the stock out when a redeal follows.  With ``start`` too (the position before the
    first move), a move that uncovers a face-down card says which ("turns over 8S"):
    that is why a card may go to a foundation and come straight back.
    """
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(moves):
        m = moves[i]
        if m.is_draw:
            j = i
            while j < len(moves) and moves[j].is_draw:
                j += 1
            cards = sum(x.count for x in moves[i:j])
            waste = positions[j - 1].waste if positions is not None else None  # games with draws have a waste
            top = waste[-1] if waste else None
            plural = "s" if cards != 1 else ""
            if top is not None and j < len(moves) and moves[j].is_redeal:
                out.append((f"draw out the rest of the stock: {cards} card{plural}", j - 1))
            elif top is not None:
                out.append((f"draw until {top} is on top of the waste: {cards} card{plural}", j - 1))
            else:
                out.append((f"draw {cards} card{plural} from the stock", j - 1))
            i = j
            continue
        if m.is_redeal:
            out.append(("turn the waste over into the stock (redeal)", i))
        else:
            if m.count == 1:
                text = f"{m.card}  {m.src} -> {m.dst}"
            else:
                more = "the card" if m.count == 2 else f"the {m.count - 1} cards"
                text = f"{m.card} and {more} on it  {m.src} -> {m.dst}"
            turned = None
            if positions is not None and start is not None:
                turned = _turned_over(positions[i - 1] if i else start, positions[i], m)
            out.append((text + (f"  (turns over {turned})" if turned is not None else ""), i))
        i += 1
    return out


def _turned_over(before: Any, after: Any, move: Move) -> Any:
    """The card that ``move`` turned face up on the pile it left, or None (games whose
    positions keep ``face_down`` counts per tableau pile, named T1, T2, ...)."""
    down = getattr(before, "face_down", None)
    if down is None or not move.src.startswith("T") or not move.src[1:].isdigit():
        return None
    k = int(move.src[1:]) - 1
    if not 0 <= k < len(down) or after.face_down[k] >= down[k] or not after.tableau[k]:
        return None
    return after.tableau[k][-1]
