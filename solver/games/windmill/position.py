"""Windmill rules and positions: the plain data every other module of the game shares.

``WindmillPosition`` is the neutral description of a table: the deal generators make
one, deal files read and write one, the reference engine plays on one and the kernel
decodes its state rows into one.  Tests compare engines by comparing positions.

Presets (``WindmillRules.preset``):

- ``pysolfc`` (default): PySolFC game 30 (``pysollib/games/windmill.py``), which
  matches the web rules text.  104 cards (two packs) shuffled together; one Ace starts
  the centre; 8 single-card cells ("sails") C1..C8, each refilled at once from the
  waste top when it is emptied (PySolFC ``Windmill.fillStack``: ``waste.moveMove(1,
  cell)``), and when the waste becomes empty the next stock card is turned onto it
  automatically (``fillStack(waste)`` -> ``talon.dealCards()``).  Cells take cards in
  no other way (``Windmill_RowStack.acceptsCards``: only from the waste, and only by
  that refill in practice, because an empty cell exists only once waste and stock are
  empty).  The centre is built up regardless of suit A..K four times (``mod=13,
  max_cards=52, min_cards=1``: its base Ace never leaves); the 4 king piles take any
  King when empty, from anywhere a King can come from (cells, waste, the centre's
  top, another king pile), and are built down regardless of suit to the Ace
  (``base_rank=KING, dir=-1``).  Foundation tops move: a king-pile top (even its base
  King) to the centre or to another king pile, the centre's top (not its base Ace) to
  a king pile.  The stock turns one card at a time, at any time, one pass.  Won when
  all 104 cards are on the foundations.  Two differences from a web rules text ("How
  to Play Windmill Solitaire", docs/games.md), where we follow PySolFC: the text turns the
  stock only "when there are no more available moves" (PySolFC, and we, allow a turn
  at any time; that only adds lines, so a deal won under the text's rule is won here),
  and the text does not mention king pile to king pile moves (PySolFC allows them; the
  search never needs them, see kernel.gen_moves).
- ``strict``: as ``pysolfc``, but the only transfer between foundations is a king-pile
  top that is not its pile's base King to the centre, and after such a transfer the
  next card played to the centre must come from a cell or the waste.  The position
  carries that as ``after_transfer``.
- ``welford``: John Welford's rules, played by its own folder, ``solver/games/windmill_welford/``.

Reduced games (brute-force tests): ``ranks`` = R < 13 uses two packs of ranks A..R
(8R cards); the centre is built A..R four times (R followed by A), king piles start
with an R and go down to A.  ``len(cells)`` may be 1..8.
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from dataclasses import dataclass, field

from ..variants import presets_of
from ...core.cards import Card
from ...core.errors import NAME, OptionError
from ..base import KeyedPosition

PRESETS = presets_of("windmill")  # the default first (variants.VARIANTS)
ALIASES = ("propeller",)  # the game's other names
CELLS = 8
KING_PILES = 4


class PositionError(ValueError):
    """A position that cannot occur in Windmill (missing/duplicate card, bad pile...)."""


@dataclass(frozen=True)
class WindmillRules:
    preset: str = "pysolfc"

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown Windmill rules {self.preset!r}; choose from {', '.join(PRESETS)}")

    @property
    def strict(self) -> bool:
        return self.preset == "strict"

    def to_json(self) -> dict:
        return {"rules": self.preset}


@dataclass(eq=False)
class WindmillPosition(KeyedPosition):
    """A Windmill table (pysolfc and strict presets).  Piles run bottom to top.

    ``stock[-1]`` is the next card turned; ``waste[-1]`` is playable.  ``cells[i]`` is
    cell ``C{i+1}`` (None = empty); PySolFC's ``s.rows[i]``: C1 top arm outer, C2 top
    arm inner, C3 left arm outer, C4 left arm inner, C5 right arm inner, C6 right arm
    outer, C7 bottom arm inner, C8 bottom arm outer.  ``centre[0]`` is the base Ace.
    ``kings[k]`` is ``K{k+1}`` (PySolFC's foundations 1..4: top left, top right,
    bottom left, bottom right).  ``after_transfer`` (strict only): the last card played
    to the centre came from a king pile.
    """

    stock: list[Card]
    waste: list[Card]
    cells: list[Card | None]
    centre: list[Card]
    kings: list[list[Card]] = field(default_factory=lambda: [[], [], [], []])
    ranks: int = 13
    after_transfer: bool = False

    preset = None  # a pysolfc or strict position (the welford preset has its own position class)

    @property
    def ncells(self) -> int:
        return len(self.cells)

    def copy(self) -> "WindmillPosition":
        return WindmillPosition(list(self.stock), list(self.waste), list(self.cells), list(self.centre),
                                [list(k) for k in self.kings], self.ranks, self.after_transfer)

    def key(self) -> tuple:
        """A hashable exact description (pile order included)."""
        def ix(cards):
            return tuple(c.index for c in cards)
        return (ix(self.stock), ix(self.waste), tuple(-1 if c is None else c.index for c in self.cells),
                ix(self.centre), tuple(ix(k) for k in self.kings), self.ranks, self.after_transfer)

    def is_won(self) -> bool:
        return len(self.centre) == 4 * self.ranks and all(len(k) == self.ranks for k in self.kings)

    def on_foundations(self) -> int:
        return len(self.centre) + sum(len(k) for k in self.kings)

    def validate(self) -> None:
        """Raise PositionError (one line) naming the first problem found."""
        R = self.ranks
        if isinstance(R, bool) or not isinstance(R, int) or not 1 <= R <= 13:
            raise PositionError(f"ranks must be 1..13, not {R!r}")
        if not 1 <= len(self.cells) <= CELLS:
            raise PositionError(f"Windmill has 1 to {CELLS} cells, not {len(self.cells)}")
        if len(self.kings) != KING_PILES:
            raise PositionError(f"Windmill has {KING_PILES} king piles, not {len(self.kings)}")
        seen: Counter = Counter()

        def see(card, where: str) -> None:
            if not isinstance(card, Card):
                raise PositionError(f"{where} holds {card!r}, not a card")
            if card.rank > R:
                raise PositionError(f"{card} ({where}) is not in a deck of ranks A..{R}")
            seen[card] += 1
            if seen[card] > 2:
                raise PositionError(f"card {card} appears more than twice (two packs); extra one in {where}")

        for c in self.stock:
            see(c, "stock")
        for c in self.waste:
            see(c, "waste")
        for i, c in enumerate(self.cells):
            if c is not None:
                see(c, f"C{i + 1}")
        if not self.centre:
            raise PositionError("the centre is empty: it starts with an Ace that never leaves")
        if len(self.centre) > 4 * R:
            raise PositionError(f"the centre holds {len(self.centre)} cards (at most {4 * R})")
        for j, c in enumerate(self.centre):
            if not isinstance(c, Card) or c.rank != j % R + 1:
                raise PositionError(f"centre card {j + 1} is {c}; the centre is built A..{_rank(R)} four times")
            see(c, "centre")
        for k, pile in enumerate(self.kings):
            if len(pile) > R:
                raise PositionError(f"K{k + 1} holds {len(pile)} cards (at most {R})")
            for j, c in enumerate(pile):
                if not isinstance(c, Card) or c.rank != R - j:
                    raise PositionError(f"K{k + 1} card {j + 1} is {c}; a king pile is built down from {_rank(R)}")
                see(c, f"K{k + 1}")
        missing = [str(c) for s in range(4) for r in range(1, R + 1)
                   for c in [Card(r, s)] * (2 - seen[Card(r, s)])]
        if missing:
            raise PositionError("missing card" + ("s " if len(missing) > 1 else " ") + " ".join(missing))
        if not self.waste and self.stock:
            raise PositionError("the waste is empty but the stock is not (an empty waste is refilled from the stock)")
        if any(c is None for c in self.cells) and (self.waste or self.stock):
            raise PositionError("a cell is empty but the waste or stock is not (cells are refilled at once)")
        if not isinstance(self.after_transfer, bool):
            raise PositionError("after_transfer must be true or false")


def _rank(r: int) -> str:
    return "A23456789TJQK"[r - 1]


def make_rules(rules: str | None = None, **extra: Any) -> WindmillRules:
    """Windmill's rules: a preset name (PRESETS; None: the default), no other options."""
    if extra:
        raise OptionError("rules", f"Windmill has no option {', '.join(sorted(extra))} (use {NAME} {'|'.join(PRESETS)})")
    rules = PRESETS[0] if rules is None else str(rules).strip().lower()
    if rules not in PRESETS:
        raise ValueError(f"unknown Windmill rules {rules!r}; choose from {', '.join(PRESETS)}")
    return WindmillRules(rules)
