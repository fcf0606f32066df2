"""The reference engines' exhaustive tools, written once: perft and a brute-force solve.

Each game's reference engine (``solver/games/*/reference.py``) binds them to its own
``children(position)``: the positions one legal move (or one action) away, built by
its own rules code.  Nothing here knows a rule; it only walks what ``children`` gives,
which is why these are the yardstick for the kernels' counts and verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Children = Callable[[Any], Iterable[Any]]


def perft(children: Children, position: Any, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position`` (no table:
    transpositions are counted as often as they are reached)."""
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in children(position))
    return sum(perft(children, child, depth - 1) for child in children(position))


def perft_divide(labelled: Callable[[Any], Iterable[tuple[str, Any]]], children: Children, position: Any,
                 depth: int) -> dict[str, int]:
    """perft split by first move (``labelled(position)`` gives (label, child) pairs), for
    the per-move breakdown of a failing perft test."""
    if depth < 1:
        raise ValueError("perft_divide needs depth >= 1")
    return {label: perft(children, child, depth - 1) for label, child in labelled(position)}


def solve_exhaustive(children: Children, position: Any, max_states: int = 1_000_000) -> bool | None:
    """Whether a won position (``is_won()``) is reachable: depth-first over every child,
    no pruning, no symmetry, positions merged only on ``key()`` (exact equality).

    True or False, or None when more than ``max_states`` distinct positions would have to
    be visited.
    """
    seen = {position.key()}
    stack = [position]
    while stack:
        current = stack.pop()
        if current.is_won():
            return True
        for nxt in children(current):
            key = nxt.key()
            if key not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(key)
                stack.append(nxt)
    return False
