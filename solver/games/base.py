"""What most game adapters do the same way, written once.

A game's adapter subclasses ``GameAdapter`` and fills in its data (names, presets,
numberings, pile names) and the few functions that are its own (rules, deals, deal
files, board, searcher, card counts).  The optional capabilities of the protocol
(``twin``, ``relaxation``) default to "none", declared, never probed.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterator

from ..moves import Move


class GameAdapter:
    """Defaults for the members of ``protocol.Game``.

    ``reference`` is the game's reference engine module: ``apply_move(position, rules,
    move)`` and ``verify_win(position, rules, moves)``; a reference engine without
    rules (one rule set) sets ``reference_takes_rules = False``.
    """

    name: str
    aliases: tuple[str, ...] = ()
    presets: tuple[str, ...] = ()
    numberings: tuple[str, ...] = ("pysolfc",)
    piles_doc: str = ""
    workspace_mb: float = 0  # the search stacks' worst case beyond the tables (batch sizing)
    twin = None  # no second search in another move order
    relaxation = None  # no looser rule set
    reference: ModuleType
    reference_takes_rules = True

    @classmethod
    def adapter(cls, rules: Any) -> type["GameAdapter"]:
        """The adapter that plays ``rules``: this one, unless a preset has its own
        implementation (Windmill's welford)."""
        return cls

    @classmethod
    def _ref_args(cls, rules: Any) -> tuple:
        return (rules,) if cls.reference_takes_rules else ()

    @classmethod
    def verify(cls, position: Any, rules: Any, moves: list[Move]) -> None:
        """Raise ReplayError (a ValueError) unless the moves win from position."""
        cls.reference.verify_win(position, *cls._ref_args(rules), moves)

    @classmethod
    def positions(cls, position: Any, rules: Any, moves: list[Move]) -> Iterator[Any]:
        """The position after each move (reference engine), for --show and hints."""
        args = cls._ref_args(rules)
        for move in moves:
            position = cls.reference.apply_move(position, *args, move)
            yield position
