"""Klondike rules options and positions: the plain data every other Klondike module shares.

``KlondikePosition`` is the neutral description of a table: the deal generators make one,
deal files read and write one, the reference engine plays on one and the kernel decodes
its packed state into one.  Tests compare engines by comparing positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.cards import Card, full_deck
from ...core.wholes import parse_whole
from ...core.errors import NAME, OptionError
from ..base import CardsSeen, KeyedPosition


class PositionError(ValueError):
    """A position that cannot occur in Klondike (missing/duplicate card, bad pile...)."""


@dataclass(frozen=True)
class KlondikeRules:
    """Rule options.  Defaults: draw 1, unlimited passes, worry-back allowed."""

    draw: int = 1
    passes: int | None = None  # None = unlimited; 1 = Vegas, 3 = Casino
    worry_back: bool = True

    MAX_PASSES = 8  # the packed state keeps redeals in 3 bits

    def __post_init__(self) -> None:
        if not 1 <= self.draw <= 24:
            raise OptionError("draw", f"{NAME} must be between 1 and 24, not {self.draw}")
        if self.passes is not None and not 1 <= self.passes <= self.MAX_PASSES:
            raise OptionError("passes", f"invalid {NAME} {self.passes}: at least 1 pass and at most "
                                        f"{self.MAX_PASSES}, or 'unlimited'")

    @property
    def max_redeals(self) -> int | None:
        return None if self.passes is None else self.passes - 1

    @staticmethod
    def read_passes(value: int | str | None) -> int | None:
        """Passes as given (a number, its text in ASCII digits, or "unlimited"/None:
        unlimited) as the rules hold them (None: unlimited); a range is checked by the rules."""
        if value is None or isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text == "unlimited":
            return None
        try:
            return parse_whole(text)
        except ValueError:
            raise OptionError("passes", f"invalid {NAME} {value!r}: expected a number from 1 or 'unlimited'") from None

    def to_json(self) -> dict:
        return {
            "draw": self.draw,
            "passes": "unlimited" if self.passes is None else self.passes,
            "worry_back": self.worry_back,
        }


@dataclass(eq=False)
class KlondikePosition(KeyedPosition):
    """A Klondike table.  Every list runs bottom to top.

    ``tableau[i][:face_down[i]]`` are face down; the rest of the pile is face up.
    ``stock[-1]`` is the next card drawn; ``waste[-1]`` is the playable waste card.
    ``foundations[s]`` is how many cards of suit s (C, D, H, S) are on its foundation.
    ``redeals`` counts the times the waste has already been turned over (it matters
    only with limited passes).  ``ranks`` < 13 describes a reduced deck A..ranks used
    by brute-force tests; the highest rank then plays the King's role.
    """

    tableau: list[list[Card]]
    face_down: list[int]
    stock: list[Card]
    waste: list[Card] = field(default_factory=list)
    foundations: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    redeals: int = 0
    ranks: int = 13

    def copy(self) -> "KlondikePosition":
        return KlondikePosition(
            [list(p) for p in self.tableau],
            list(self.face_down),
            list(self.stock),
            list(self.waste),
            list(self.foundations),
            self.redeals,
            self.ranks,
        )

    def key(self) -> tuple:
        """A hashable exact description (pile order included)."""
        return (
            tuple(tuple(c.index for c in p) for p in self.tableau),
            tuple(self.face_down),
            tuple(c.index for c in self.stock),
            tuple(c.index for c in self.waste),
            tuple(self.foundations),
            self.redeals,
            self.ranks,
        )

    def validate(self) -> None:
        """Raise PositionError naming the first problem found."""
        if not 1 <= self.ranks <= 13:
            raise PositionError(f"ranks must be 1..13, not {self.ranks}")
        if not 1 <= len(self.tableau) <= 7:
            raise PositionError(f"Klondike has 1 to 7 tableau piles, not {len(self.tableau)}")
        if len(self.face_down) != len(self.tableau):
            raise PositionError("face_down needs one count per tableau pile")
        if len(self.foundations) != 4:
            raise PositionError("there must be 4 foundations (C, D, H, S)")
        seen = CardsSeen(self.ranks, PositionError)
        see = seen.see

        for s, n in enumerate(self.foundations):
            if not 0 <= n <= self.ranks:
                raise PositionError(f"foundation F{s + 1} holds {n} cards")
            for r in range(1, n + 1):
                see(Card(r, s), f"F{s + 1}")
        for i, pile in enumerate(self.tableau):
            name = f"T{i + 1}"
            down = self.face_down[i]
            if not 0 <= down <= 7:
                raise PositionError(f"{name} has {down} face-down cards (at most 7 are supported)")
            if down > len(pile):
                raise PositionError(f"{name} has more face-down cards than cards")
            if pile and down == len(pile):
                raise PositionError(f"{name}: its top card {pile[-1]} is face down")
            for c in pile:
                see(c, name)
            for lower, upper in zip(pile[down:], pile[down + 1:]):
                if upper.rank != lower.rank - 1 or upper.red == lower.red:
                    raise PositionError(
                        f"{name}: face-up {upper} on {lower} is not built down in alternating colours"
                    )
            if len(pile) - down > 13:
                raise PositionError(f"{name} has more than 13 face-up cards")
        for c in self.stock:
            see(c, "stock")
        for c in self.waste:
            see(c, "waste")
        if len(self.stock) + len(self.waste) > 24:
            raise PositionError("the stock and waste hold at most 24 cards together")
        missing = [c for c in full_deck(self.ranks) if c not in seen]
        if missing:
            raise PositionError("missing card" + ("s " if len(missing) > 1 else " ") + " ".join(map(str, missing)))
        if self.redeals < 0:
            raise PositionError("redeals cannot be negative")
