"""What a game provides to the rest of the package: the written protocol.

Every game adapter in the registry (``solver.games``) is a class with these members;
``tests/test_protocol.py`` checks each one against it.  Optional capabilities are
declared, never probed: a game without a twin search says ``twin = None``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

from ..core.moves import Move
from ..engine.search import Search  # noqa: F401  (the driver's contract, kept where the driver lives; re-exported for games)


@runtime_checkable
class Rules(Protocol):
    """A game's rule options, frozen.  ``to_json()`` gives the options as data (what
    ``--json``, deal files and the results database store), and the game's
    ``make_rules(**rules.to_json())`` makes them again (it reads its own values, as
    Klondike's "unlimited" passes).  A request makes its rules once and carries them."""

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class Position(Protocol):
    """A position of a game (deal or part-played).  ``validate`` raises ValueError
    unless it is a position of the game; ``key`` is hashable, and equal positions have
    equal keys (a game may give one key to positions that differ only in which of two
    interchangeable piles holds what: Great Wheel's Evens and Odds piles); ``==``
    compares positions exactly."""

    def validate(self) -> None: ...

    def key(self) -> tuple: ...


@runtime_checkable
class Game(Protocol):
    """A game adapter: names, rules as data, deals, the reference engine's judgement,
    pictures, and the kernel searches.

    - ``name``: the game it plays, as results, deal files and the database record it.
    - ``presets``: named rule sets (``--rules NAME``), the default first; () if none.
      A preset with a game folder of its own (Windmill's welford) is played by that
      folder's adapter: ``games.adapter_for(name, rules)`` finds it in variants.VARIANTS.
    - ``workspace_mb``: the search stacks' worst-case memory, for batch sizing (0: small).
    - ``twin`` / ``relaxation``: the optional second search ``search.drive`` runs beside
      the main one (searches in other move orders, or narrowed ones whose wins count and
      whose exhaustion proves nothing; the rules loosened so that its exhaustion proves a
      loss), or None.
    - ``loss_proof(position, rules)``: a search of a relaxed game of the adapter's own
      (not a rule set the kernel plays), run beside the main search like a relaxed one:
      its exhaustion proves the deal lost and names its ``proof``; or None.
    """

    name: str
    aliases: tuple[str, ...]
    presets: tuple[str, ...]
    numberings: tuple[str, ...]
    piles_doc: str
    workspace_mb: float
    twin: Callable[[Any, Any], Search] | None
    relaxation: Callable[[Any], Any] | None
    loss_proof: Callable[[Any, Any], Search] | None
    proofs: dict[str, str]  # a lost verdict's proof label -> the words the verdict line gives it
    search_proofs: dict[str, str]  # a reduction counter -> the proof label of an exhausted search it fired in

    def make_rules(self, **options: Any) -> Rules: ...

    def deal(self, seed: int, numbering: str, rules: Any) -> Position: ...

    def load_deal(self, path: str | Path, rules: Any) -> Position: ...

    def deal_to_json(self, position: Any) -> dict: ...

    def deal_from_json(self, obj: Any, rules: Any) -> Position: ...

    def render(self, position: Any) -> str: ...

    def table_frame(self, position: Any) -> list[list]: ...  # the replay page's piles (games/table.py)

    def table_piles(self, position: Any) -> dict: ...  # the cards each of them shows

    def searcher(self, position: Any, rules: Any, slot: str = "main") -> Search: ...

    def foundation_cards(self, position: Any) -> int: ...

    def total_cards(self, position: Any) -> int: ...

    def verify(self, position: Any, rules: Any, moves: list[Move]) -> None: ...

    def positions(self, position: Any, rules: Any, moves: list[Move]) -> Iterator[Any]: ...

    def candidate_moves(self, position: Any, rules: Any) -> list[Move]: ...  # a cheap superset of legal_moves

    def legal_moves(self, position: Any, rules: Any) -> list[Move]: ...  # reference engine

    def apply_move(self, position: Any, rules: Any, move: Move) -> Any: ...  # reference engine; IllegalMove
