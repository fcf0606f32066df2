"""The Great Wheel reference engine: the project's judge for this game.

Plain, slow and obviously correct on purpose.  It shares no code with the numba kernel:
the kernel's winning lines are replayed here (``verify_win``), its successors are
compared with ``successors``, its perft counts with ``perft``, and ``solve_exhaustive``
is the brute force for small reduced decks.

Every rule lives in one place, ``why_illegal`` (plus the automatic actions in
``_settle``, described in position.py).  ``legal_moves`` lists candidates and keeps
those ``why_illegal`` accepts; ``apply_move`` refuses what it refuses.

Moves (``Move(src, dst, card, 1)``; piles ``stock``, ``waste``, ``aces``, ``E1``..``E8``,
``O1``..``O8``, ``T1``..``Tn``):
- ``stock -> waste`` (no card): turn the top stock card onto the waste;
- the top card of the waste or of a tableau pile to a foundation: an Ace to ``aces``
  (empty, or the top Ace has the other colour); a Two to an empty Evens pile, an even
  card onto the Evens pile whose top is the card two ranks lower of its suit; a Three to
  an empty Odds pile, an odd card onto the card two lower of its suit on an Odds pile;
- only once the stock is empty: the top card of the waste or of a tableau pile (and,
  under the ``pysolfc`` preset, of an Evens or Odds pile) onto a tableau pile whose top
  card is of its suit and one rank higher, or into an empty tableau pile (any card);
- Aces never leave their foundation; nothing moves between foundation piles.
Evens/Odds piles are interchangeable: any pile that accepts a card may be named, and
``legal_moves`` names the lowest-numbered one (for a card leaving a pile, the
lowest-numbered pile with that top card).  After every move the automatic turn and
refill of position.py happen.
"""

from __future__ import annotations

import functools

from ...core.moves import Move
from .. import reference_search
from ..replay import IllegalMove, ReplayError, replay_win
from .position import FOUNDATION_PILES, GWPosition, GWRules, PositionError

__all__ = ["IllegalMove", "ReplayError", "why_illegal", "candidate_moves", "legal_moves", "apply_move", "verify_win",
           "successors", "perft", "solve_exhaustive"]


def _index(name: str, letter: str, count: int) -> int | None:
    if len(name) >= 2 and name[0] == letter and name[1:].isdigit() and name[1] != "0":
        i = int(name[1:]) - 1
        if i < count:
            return i
    return None


@functools.lru_cache(maxsize=256)
def _parsed(name: str) -> tuple[str, int] | None:
    """A pile name as (kind, number - 1): ("stock", 0), ("T", 2) for T3; None if no pile
    of any deal has it (cached: names are few, and the line shortener asks millions of times)."""
    if name in ("stock", "waste", "aces"):
        return name, 0
    for letter in "TEO":
        i = _index(name, letter, 1 << 30)
        if i is not None:
            return letter, i
    return None


def _pile(position: GWPosition, name: str) -> list | None:
    """The list a pile name stands for (None if no such pile)."""
    parsed = _parsed(name)
    if parsed is None:
        return None
    kind, i = parsed
    if kind == "stock":
        return position.stock
    if kind == "waste":
        return position.waste
    if kind == "aces":
        return position.aces
    piles = position.tableau if kind == "T" else position.evens if kind == "E" else position.odds
    return piles[i] if i < len(piles) else None


def why_illegal(position: GWPosition, rules: GWRules, move: Move) -> str | None:
    """None if ``move`` is legal in ``position`` under ``rules``, else the reason it is not."""
    src, dst, card = move.src, move.dst, move.card
    if move.count != 1:
        return f"one card moves at a time, not {move.count}"
    if src == "stock":
        if dst != "waste" or card is not None:
            return "the stock only turns a card onto the waste (stock -> waste, no card)"
        if not position.stock:
            return "the stock is empty (there is no redeal)"
        return None
    source = _pile(position, src)
    target = _pile(position, dst)
    if source is None:
        return f"no pile {src!r} to move a card from"
    if target is None:
        return f"no pile {dst!r} to move a card to"
    if card is None:
        return "a card move must name its card"
    if src == "aces":
        return "Aces never leave the Ace foundation"
    if not source:
        return f"{src} is empty"
    if source[-1] != card:
        return f"{card} is not the top card of {src} ({source[-1]} is)"
    from_foundation = src[0] in "EO"
    if dst in ("stock", "waste"):
        return f"no card can be put on the {dst}"
    if dst[0] in "EO" or dst == "aces":
        if from_foundation:
            return "cards do not move between foundation piles (that would only relabel them)"
        if dst == "aces":
            if card.rank != 1:
                return "the Ace foundation takes Aces only"
            if target and target[-1].red == card.red:
                return f"{card} is the same colour as the top Ace {target[-1]} (colours alternate)"
            return None
        first = 2 if dst[0] == "E" else 3
        kind = "Evens" if first == 2 else "Odds"
        if not target:
            if card.rank != first:
                return f"an empty {kind} pile takes a {'Two' if first == 2 else 'Three'}, not {card}"
            return None
        top = target[-1]
        if card.suit != top.suit or card.rank != top.rank + 2:
            return f"{card} does not go on {top} ({kind} build up in suit by twos)"
        return None
    # dst is a tableau pile
    if position.stock:
        return "no building on the tableau while the stock has cards"
    if from_foundation and not rules.returns:
        return f"foundation cards never leave their pile under the {rules.preset} rules"
    if source is target:
        return "a card cannot move onto its own pile"
    if target:
        top = target[-1]
        if card.suit != top.suit or card.rank + 1 != top.rank:
            return f"{card} does not build down in suit on {top}"
    return None


def _settle(position: GWPosition) -> None:
    """The automatic actions (position.py): turn a card onto an empty waste, refill an
    empty tableau pile from the waste (and stock) while they have cards."""
    if not position.waste and position.stock:
        position.waste.append(position.stock.pop())
    for pile in position.tableau:
        if not pile and (position.waste or position.stock):
            for _ in range(position.fill):
                if not position.waste:
                    if not position.stock:
                        break
                    position.waste.append(position.stock.pop())
                pile.append(position.waste.pop())
            if not position.waste and position.stock:
                position.waste.append(position.stock.pop())


def candidate_moves(position: GWPosition, rules: GWRules) -> list[Move]:
    """A superset of the legal moves, one per distinct result (see module doc)."""
    out = [Move("stock", "waste", None, 1)] if position.stock else []
    sources: list[tuple[str, object]] = []
    if position.waste:
        sources.append(("waste", position.waste[-1]))
    sources += [(f"T{i + 1}", p[-1]) for i, p in enumerate(position.tableau) if p]
    if rules.returns:
        for letter, piles in (("E", position.evens), ("O", position.odds)):
            seen = set()
            for k, p in enumerate(piles):
                if p and p[-1] not in seen:
                    seen.add(p[-1])
                    sources.append((f"{letter}{k + 1}", p[-1]))
    tnames = [f"T{i + 1}" for i in range(len(position.tableau))]
    for src, card in sources:
        targets = ["aces"]
        for letter, piles in (("E", position.evens), ("O", position.odds)):
            empty_tried = False  # empty piles of one kind are alike: asking about one answers for all
            for k in range(FOUNDATION_PILES):
                if piles[k] and piles[k][-1].suit != card.suit or not piles[k] and empty_tried:
                    continue  # cannot take it (a shortcut only: why_illegal judges the rest)
                empty_tried = empty_tried or not piles[k]
                m = Move(src, f"{letter}{k + 1}", card, 1)
                if why_illegal(position, rules, m) is None:
                    targets.append(m.dst)
                    break
        out += [Move(src, dst, card, 1) for dst in targets + tnames if dst != src]
    return out


def legal_moves(position: GWPosition, rules: GWRules) -> list[Move]:
    """All legal moves (one per Evens/Odds choice, see module doc), in a fixed order."""
    return [m for m in candidate_moves(position, rules) if why_illegal(position, rules, m) is None]


def apply_move(position: GWPosition, rules: GWRules, move: Move) -> GWPosition:
    """The position after ``move`` and the automatic actions; IllegalMove if not legal."""
    reason = why_illegal(position, rules, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    new = position.copy()
    source = _pile(new, move.src)
    _pile(new, move.dst).append(source.pop())
    _settle(new)
    return new


def _progress(final: GWPosition) -> str:
    home = len(final.aces) + sum(map(len, final.evens)) + sum(map(len, final.odds))
    return f"{home} of {8 * final.ranks} cards on the foundations"


def verify_win(position: GWPosition, rules: GWRules, moves: list[Move]) -> None:
    """Raise ReplayError unless ``moves`` replay from ``position`` to a won game."""
    replay_win(position, moves, lambda p, m: apply_move(p, rules, m), "Great Wheel", _progress, PositionError)


def successors(position: GWPosition, rules: GWRules) -> list[GWPosition]:
    """Every position one legal move away."""
    return [apply_move(position, rules, m) for m in legal_moves(position, rules)]


def perft(position: GWPosition, rules: GWRules, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (no transpositions)."""
    return reference_search.perft(lambda p: successors(p, rules), position, depth)



def perft_divide(position: GWPosition, rules: GWRules, depth: int) -> dict[str, int]:
    """perft split by first move (for the per-move breakdown of a failing perft test)."""
    return reference_search.perft_divide(
        lambda p: ((str(m), apply_move(p, rules, m)) for m in legal_moves(p, rules)),
        lambda p: successors(p, rules), position, depth)

def solve_exhaustive(position: GWPosition, rules: GWRules, max_states: int = 1_000_000) -> bool | None:
    """Depth-first search over every legal move, no pruning, no pile symmetry
    (reference_search.solve_exhaustive; ``position.key()``: exact tableau order).  True,
    False, or None past ``max_states``."""
    # reversed: the foundation moves, generated first, are popped first
    return reference_search.solve_exhaustive(
        lambda p: (apply_move(p, rules, m) for m in reversed(legal_moves(p, rules))), position, max_states)
