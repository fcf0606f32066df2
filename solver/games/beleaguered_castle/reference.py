"""The Beleaguered Castle reference engine: the project's judge for this game.

Plain, slow and obviously correct on purpose.  It shares no code with the numba kernel:
the kernel's winning lines are replayed here (``verify_win``), its successors are
compared with ``successors``, its perft counts with ``perft``, and ``solve_exhaustive``
is the brute force for small reduced decks.

Every rule lives in one place, ``why_illegal``.  ``legal_moves`` only lists candidate
moves and keeps those ``why_illegal`` accepts, and ``apply_move`` refuses what it
refuses, so the list of legal moves and the moves that can be played cannot disagree.

Rules (the highest rank of the deck, ``position.ranks``, plays the King's role):
- one card moves at a time: the top card of a tableau pile;
- onto another tableau pile whose top card is one rank higher, whatever the suits;
- into an empty tableau pile (any card);
- onto its suit's foundation (F1..F4 = Clubs, Diamonds, Hearts, Spades) if it is the
  next rank there; foundation cards never come back;
- the game is won when every foundation holds its whole suit.
"""

from __future__ import annotations

from ...core.cards import SUIT_NAMES
from ...core.moves import Move
from .. import reference_search
from ..replay import IllegalMove, ReplayError, replay_moves, replay_win  # noqa: F401 (ReplayError re-exported)
from .position import BCPosition, PositionError


_FOUNDATION_NAMES = {"F1": 0, "F2": 1, "F3": 2, "F4": 3}  # suits C, D, H, S


def _tableau_index(position: BCPosition, name: str) -> int | None:
    """``T1``..``Tn`` -> 0..n-1 for the piles this position has, else None."""
    if len(name) >= 2 and name[0] == "T" and name[1:].isdigit() and name[1] != "0":
        i = int(name[1:]) - 1
        if i < len(position.tableau):
            return i
    return None


def why_illegal(position: BCPosition, move: Move) -> str | None:
    """None if ``move`` is legal in ``position``, else the reason it is not."""
    src, dst, card, count = move.src, move.dst, move.card, move.count
    if src in _FOUNDATION_NAMES:
        return "cards never come back from the foundations in Beleaguered Castle"
    i = _tableau_index(position, src)
    if i is None:
        return f"no pile {src!r} to move cards from"
    if card is None:
        return "a card move must name its card"
    if count != 1:
        return f"one card moves at a time, not {count}"
    pile = position.tableau[i]
    if not pile:
        return f"{src} is empty"
    if pile[-1] != card:
        return f"{card} is not the top card of {src} ({pile[-1]} is)"

    suit = _FOUNDATION_NAMES.get(dst)
    if suit is not None:
        if card.suit != suit:
            return f"{dst} holds {SUIT_NAMES[suit]}, not {card}"
        if card.rank != position.foundations[suit] + 1:
            return f"{card} does not follow the {position.foundations[suit]} card(s) on {dst}"
        return None
    j = _tableau_index(position, dst)
    if j is None:
        return f"no pile {dst!r} to move cards to"
    if j == i:
        return "a card cannot move onto its own pile"
    target = position.tableau[j]
    if target and target[-1].rank != card.rank + 1:
        return f"{card} does not build down on {target[-1]} (one rank lower, any suit)"
    return None


def candidate_moves(position: BCPosition) -> list[Move]:
    """Moves worth asking ``why_illegal`` about: each top card to its foundation and to
    every other pile (a superset of the legal moves)."""
    names = [f"T{i + 1}" for i in range(len(position.tableau))]
    out = []
    for i, pile in enumerate(position.tableau):
        if pile:
            top = pile[-1]
            out.append(Move(names[i], f"F{top.suit + 1}", top, 1))
            out.extend(Move(names[i], dst, top, 1) for dst in names if dst != names[i])
    return out


def legal_moves(position: BCPosition) -> list[Move]:
    """All legal moves, in a fixed order: by source pile, foundation first, then T1..Tn."""
    return [m for m in candidate_moves(position) if why_illegal(position, m) is None]


def apply_move(position: BCPosition, move: Move) -> BCPosition:
    """The position after ``move``; raises IllegalMove (with the reason) if it is not legal."""
    reason = why_illegal(position, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    new = position.copy()
    card = new.tableau[_tableau_index(new, move.src)].pop()
    suit = _FOUNDATION_NAMES.get(move.dst)
    if suit is not None:
        new.foundations[suit] += 1
    else:
        new.tableau[_tableau_index(new, move.dst)].append(card)
    return new


def replay(position: BCPosition, moves: list[Move]) -> BCPosition:
    """Play ``moves`` from ``position``; ReplayError names the first bad move (1-based)."""
    return replay_moves(position, moves, apply_move, "Beleaguered Castle", PositionError)


def verify_win(position: BCPosition, moves: list[Move]) -> None:
    """Raise ReplayError unless ``moves`` replay from ``position`` to a won game."""
    replay_win(position, moves, apply_move, "Beleaguered Castle", _progress, PositionError)


def _progress(final: BCPosition) -> str:
    on = ", ".join(f"F{s + 1}={n}" for s, n in enumerate(final.foundations))
    return f"foundations {on} of {final.ranks}"


def successors(position: BCPosition) -> set[BCPosition]:
    """Every position one legal move away."""
    return set(_children(position))


def _children(position: BCPosition):
    return (apply_move(position, m) for m in legal_moves(position))


def perft(position: BCPosition, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (no transpositions)."""
    return reference_search.perft(_children, position, depth)


def perft_divide(position: BCPosition, depth: int) -> dict[str, int]:
    """perft split by first move (for failure messages)."""
    return reference_search.perft_divide(lambda p: ((str(m), apply_move(p, m)) for m in legal_moves(p)),
                                         _children, position, depth)


def solve_exhaustive(position: BCPosition, max_states: int = 1_000_000) -> bool | None:
    """Depth-first search over every legal move, no pruning, no move ordering
    (reference_search.solve_exhaustive): True, False, or None past ``max_states``."""
    return reference_search.solve_exhaustive(_children, position, max_states)
