"""What every reference engine shares: its error types and the replay of a move list.

The reference engines (one per game, pure Python) judge the kernels: a kernel's
winning line counts only after ``replay_win`` has played it move by move here.
This module holds no rule of any game; each engine passes its own ``apply_move``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.moves import Move


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given position (``reason`` says why)."""

    def __init__(self, move: Move, reason: str) -> None:
        super().__init__(move, reason)  # the message is made only when shown: the line
        self.move = move  # shortener raises thousands of these and shows none
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}"

    def __reduce__(self):  # keep it picklable (e.g. across worker processes)
        return (IllegalMove, (self.move, self.reason))


class ReplayError(ValueError):
    """A move list that does not replay (or does not win).

    ``number`` is the 1-based number of the failing move (None if no single move is
    to blame) and ``move`` that move.
    """

    def __init__(self, message: str, number: int | None = None, move: Move | None = None) -> None:
        super().__init__(message)
        self.number = number
        self.move = move

    def __reduce__(self):
        return (ReplayError, (str(self), self.number, self.move))


def replay_moves(position: Any, moves: list[Move], apply_move: Callable[[Any, Move], Any], game: str,
                 invalid: type[Exception] = ValueError) -> Any:
    """Play ``moves`` from ``position``; ReplayError names the first bad move (1-based).

    ``invalid`` is what ``position.validate()`` raises for a position that is not one
    of ``game``'s.
    """
    try:
        position.validate()
    except invalid as e:
        raise ReplayError(f"the start position is not a {game} position: {e}") from None
    for number, move in enumerate(moves, 1):
        try:
            position = apply_move(position, move)
        except IllegalMove as e:
            raise ReplayError(f"move {number} ({move}) is illegal: {e.reason}", number, move) from None
    return position


def replay_win(position: Any, moves: list[Move], apply_move: Callable[[Any, Move], Any], game: str,
               progress: Callable[[Any], str], invalid: type[Exception] = ValueError) -> Any:
    """``replay_moves``, then ReplayError unless the final position ``is_won()``.

    ``progress(final)`` describes how far a lost final position got (for the message).
    """
    final = replay_moves(position, moves, apply_move, game, invalid)
    if not final.is_won():
        raise ReplayError(f"all {len(moves)} moves replay but the game is not won ({progress(final)})")
    return final
