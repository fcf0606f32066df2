"""What most game adapters do the same way, written once.

A game's adapter subclasses ``GameAdapter`` and fills in its data (names, presets,
numberings, pile names) and the few functions that are its own (rules, deals, deal
files, board, searcher, card counts).  The optional capabilities of the protocol
(``twin``, ``relaxation``) default to "none", declared, never probed.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Iterator

from ..core.moves import Move
from ..core.numbering import PYSOLFC


class computed:
    """A class attribute computed when first read, so that importing a game adapter
    does not import its kernel (numba): ``workspace_mb = computed(lambda: ...)``."""

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, obj, owner):
        return self.fn()


class GameAdapter:
    """Defaults for the members of ``protocol.Game``.

    Declared modules of the game's folder: ``reference`` (its engine: ``apply_move(position,
    rules, move)``, ``verify_win(position, rules, moves)``; an engine without rules, for a
    game of one rule set, sets ``reference_takes_rules = False``), ``dealfile``
    (``load_deal(path)``, ``position_to_json(position)``) and ``board`` (``render``).
    ``search`` names its KernelSearch class as "module:Class", imported on first use (it
    loads numba and the kernel).
    """

    name: str
    aliases: tuple[str, ...] = ()
    presets: tuple[str, ...] = ()
    numberings: tuple[str, ...] = (PYSOLFC,)
    piles_doc: str = ""
    workspace_mb: float = 0  # the search stacks' worst case beyond the tables (batch sizing)
    twin = None  # no second search in another move order
    relaxation = None  # no looser rule set
    loss_proof = None  # no relaxed game of its own
    # how a lost verdict was proved beyond an exhausted search: label -> the verdict line's words
    proofs: dict[str, str] = {"relaxed-rules": "proved under looser rules that allow every line of these: no line wins"}
    search_proofs: dict[str, str] = {}  # a reduction counter -> the label of an exhausted search in which it fired
    reference: ModuleType
    reference_takes_rules = True
    dealfile: ModuleType
    board: ModuleType
    search: str

    @classmethod
    def load_deal(cls, path: Any, rules: Any) -> Any:
        """The position in a deal file (the rules do not change the format)."""
        return cls.dealfile.load_deal(path)

    @classmethod
    def deal_from_json(cls, obj: Any, rules: Any) -> Any:
        """The position a deal file's JSON object describes (``deal_to_json``'s inverse)."""
        return cls.dealfile.position_from_json(obj)

    @classmethod
    def deal_to_json(cls, position: Any) -> dict:
        return cls.dealfile.position_to_json(position)

    @classmethod
    def render(cls, position: Any) -> str:
        return cls.board.render(position)

    @classmethod
    def table_frame(cls, position: Any) -> list[list]:
        return cls.board.table_frame(position)

    @classmethod
    def table_piles(cls, position: Any) -> dict:
        return cls.board.table_piles(position)

    @classmethod
    def search_class(cls) -> type:
        module, name = cls.search.split(":")
        return getattr(importlib.import_module(module), name)

    @classmethod
    def searcher(cls, position: Any, rules: Any, slot: str = "main") -> Any:
        """The main search of a position (a KernelSearch; its tables of the size set
        for the solve, resources.tables)."""
        return cls.search_class()(position, rules, slot=slot)

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

    @classmethod
    def candidate_moves(cls, position: Any, rules: Any) -> list[Move]:
        """A cheap superset of the legal moves (reference engine), in legal_moves' order:
        ``apply_move`` tells which are legal."""
        return cls.reference.candidate_moves(position, *cls._ref_args(rules))

    @classmethod
    def legal_moves(cls, position: Any, rules: Any) -> list[Move]:
        """Every legal move in ``position`` (reference engine), for the line shortener."""
        return cls.reference.legal_moves(position, *cls._ref_args(rules))

    @classmethod
    def apply_move(cls, position: Any, rules: Any, move: Move) -> Any:
        """The position after ``move`` (reference engine); IllegalMove if it is not legal."""
        return cls.reference.apply_move(position, *cls._ref_args(rules), move)


class KeyedPosition:
    """A position equal to another of its class with the same ``key()`` (an exact,
    hashable description, which the subclass defines), and hashed by it; won when every
    foundation holds ``ranks`` cards (a game with other foundations overrides is_won).
    A dataclass subclass says ``eq=False``, or its generated ``__eq__`` would replace these."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def is_won(self) -> bool:
        return all(f == self.ranks for f in self.foundations)


class CardsSeen(dict):
    """For a position's validate(): where each card was met (card -> place name), each card
    at most once and of at most ``ranks`` ranks; ``see`` raises ``error`` (one line) else."""

    def __init__(self, ranks: int, error: type[Exception]) -> None:
        super().__init__()
        self.ranks, self.error = ranks, error

    def see(self, card: Any, where: str) -> None:
        if card.rank > self.ranks:
            raise self.error(f"{card} ({where}) is not in a deck of ranks A..{self.ranks}")
        if card in self:
            raise self.error(f"duplicate card {card} ({self[card]} and {where})")
        self[card] = where


def piles_to_row(st: Any, K: Any, piles: list) -> Any:
    """Write tableau piles into the state row ``st`` of kernel module ``K`` (card j of pile
    i at K.P0 + i * K.CAP + j, its length at K.LEN0 + i); returns st."""
    for i, pile in enumerate(piles):
        for j, card in enumerate(pile):
            st[K.P0 + i * K.CAP + j] = card.index
        st[K.LEN0 + i] = len(pile)
    return st
