"""Beleaguered Castle rules and positions: the plain data every other module of the game shares.

``BCPosition`` is the neutral description of a table: the deal generators make one,
deal files read and write one, the reference engine plays on one and the kernel decodes
its packed state into one.  Tests compare engines by comparing positions.

Beleaguered Castle (PySolFC game 34) has no rule options: the four Aces start on the
foundations, 48 cards lie face up in 8 piles of 6, the tableau builds down regardless
of suit one card at a time, an empty pile takes any card, foundation cards never come
back.  ``BCRules`` exists so that the game fits the adapter interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.cards import Card, full_deck
from ..base import CardsSeen, KeyedPosition

PILES = 8  # tableau piles in the real game
MAX_PILE = 20  # cards per pile a position may hold (the kernel's rows fit 20 + a run of 12)


class PositionError(ValueError):
    """A position that cannot occur in Beleaguered Castle (missing/duplicate card, bad pile...)."""


@dataclass(frozen=True)
class BCRules:
    """No options: one rule set."""

    def to_json(self) -> dict:
        return {}


@dataclass(eq=False)
class BCPosition(KeyedPosition):
    """A Beleaguered Castle table.  Every pile runs bottom to top (``pile[-1]`` is playable).

    ``tableau[i]`` is pile ``T{i+1}`` (PySolFC's ``s.rows[i]``: rows 0..3 the left wing
    top to bottom, 4..7 the right wing).  ``foundations[s]`` is how many cards of suit s
    (C, D, H, S) are on its foundation; each holds at least its Ace.  ``ranks`` < 13
    describes a reduced deck A..ranks used by brute-force tests (the highest rank then
    plays the King's role), usually on fewer piles.
    """

    tableau: list[list[Card]]
    foundations: list[int] = field(default_factory=lambda: [1, 1, 1, 1])
    ranks: int = 13

    @property
    def npiles(self) -> int:
        return len(self.tableau)

    def copy(self) -> "BCPosition":
        return BCPosition([list(p) for p in self.tableau], list(self.foundations), self.ranks)

    def key(self) -> tuple:
        """A hashable exact description (pile order included)."""
        return (tuple(tuple(c.index for c in p) for p in self.tableau), tuple(self.foundations), self.ranks)

    def validate(self) -> None:
        """Raise PositionError (one line) naming the first problem found."""
        if not 1 <= self.ranks <= 13:
            raise PositionError(f"ranks must be 1..13, not {self.ranks}")
        if not 1 <= len(self.tableau) <= PILES:
            raise PositionError(f"Beleaguered Castle has 1 to {PILES} tableau piles, not {len(self.tableau)}")
        if len(self.foundations) != 4:
            raise PositionError("there must be 4 foundations (C, D, H, S)")
        seen = CardsSeen(self.ranks, PositionError)
        see = seen.see

        for s, n in enumerate(self.foundations):
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self.ranks:
                raise PositionError(f"foundation F{s + 1} holds {n!r} cards")
            for r in range(1, n + 1):
                see(Card(r, s), f"F{s + 1}")
        for i, pile in enumerate(self.tableau):
            name = f"T{i + 1}"
            if len(pile) > MAX_PILE:
                raise PositionError(f"{name} has {len(pile)} cards (at most {MAX_PILE} are supported)")
            for c in pile:
                if not isinstance(c, Card):
                    raise PositionError(f"{name} holds {c!r}, not a card")
                see(c, name)
        missing = [c for c in full_deck(self.ranks) if c not in seen]
        if missing:
            raise PositionError("missing card" + ("s " if len(missing) > 1 else " ") + " ".join(map(str, missing)))
        for s, n in enumerate(self.foundations):
            if n == 0:
                raise PositionError(
                    f"{Card(1, s)} is in {seen[Card(1, s)]}: Beleaguered Castle's Aces start on the foundations"
                )
