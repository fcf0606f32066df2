"""Windmill as John Welford describes it (the ``welford`` preset): positions and their rules.

``WelfordPosition`` is the neutral description of a table: the deal generator makes one,
deal files read and write one, the reference engine plays on one and the kernel decodes
its state rows into one.  Tests compare engines by comparing positions.

The layout (John Welford's rule text, as docs/games.md sets it out):

- ``centre``: the pile started by one Ace, built up regardless of suit A, 2, .., K,
  A, 2, .. four times (52 cards).  Cards never leave it, and suits never matter, so a
  position stores only its height (1..4*ranks); its cards are the ones found nowhere
  else, and ``validate`` checks that their ranks are exactly those of the sequence.
- ``kings[j]`` (piles ``K1``..``K4``): started by a King, built down regardless of suit
  to an Ace (bottom to top).  A pile holding all ``ranks`` cards is completed and out
  of play.
- ``sails[i]`` (sail i = 0..3: north, east, south, west): at most two cards, bottom to
  top ``[inner, outer]``.  Only the top card of a sail can be played.  The positions
  are named ``C1``..``C4`` (inner of sails 1..4) and ``C5``..``C8`` (outer of sails
  1..4).  A sail card leaves only by being played; the cells get cards only by the
  refill from the stock.
- ``stock`` (bottom to top: ``stock[-1]`` is dealt next) and ``waste`` (bottom to top).
  The two packs are dealt in sequence: the top ``pack1`` cards of the stock belong to
  pack 1 (0 once pack 1 has been dealt out).
- ``redeals``: 0, or 1 once the waste has been turned over for the one extra pass.
- ``refilling``: True in the middle of rebuilding the sails (the reference engine plays
  a refill card by card; nothing else may be played until it ends).  Searches only see
  positions with ``refilling`` False.

Reduced games (for brute force): ``ranks`` < 13 plays with ranks A..ranks in both packs
(the rank ``ranks`` plays the King's role, ``ranks - 1`` the Queen's), and
``len(sails)`` may be 1..4.  There are always four king piles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections import Counter

from ...core.cards import Card
from ..base import KeyedPosition

SAILS = 4
KING_PILES = 4


class WelfordPositionError(ValueError):
    """A position that cannot occur in Welford's Windmill (missing/duplicate card, bad pile...)."""


def sail_cell_names(nsails: int = SAILS) -> tuple[list[str], list[str]]:
    """(inner names, outer names) of sails 0..nsails-1: C1..C4 inner, C5..C8 outer."""
    return [f"C{i + 1}" for i in range(nsails)], [f"C{i + 1 + SAILS}" for i in range(nsails)]


def rank_name(rank: int, ranks: int) -> str:
    if rank == ranks:
        return "King" if ranks == 13 else f"rank-{ranks} card (the King's role)"
    return "Queen" if rank == 12 and ranks == 13 else f"rank {rank}"


@dataclass(eq=False)
class WelfordPosition(KeyedPosition):
    sails: list[list[Card]]
    centre: int = 1
    kings: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(KING_PILES)])
    stock: list[Card] = field(default_factory=list)
    waste: list[Card] = field(default_factory=list)
    pack1: int = 0
    redeals: int = 0
    ranks: int = 13
    refilling: bool = False

    preset = "welford"  # which Windmill rules this position is played under

    @property
    def nsails(self) -> int:
        return len(self.sails)

    def copy(self) -> "WelfordPosition":
        return WelfordPosition([list(s) for s in self.sails], self.centre, [list(k) for k in self.kings],
                               list(self.stock), list(self.waste), self.pack1, self.redeals, self.ranks,
                               self.refilling)

    def key(self) -> tuple:
        """A hashable exact description (suits and pile order included)."""
        return (tuple(tuple(c.index for c in s) for s in self.sails), self.centre,
                tuple(tuple(c.index for c in k) for k in self.kings), tuple(c.index for c in self.stock),
                tuple(c.index for c in self.waste), self.pack1, self.redeals, self.ranks, self.refilling)

    def canonical(self) -> tuple:
        """What the game value depends on: ranks only, king piles as a sorted multiset.

        Suits never matter in this game and the four king piles are treated alike, so
        two positions with the same ``canonical()`` have the same value (the kernel's
        key encodes exactly this).
        """
        return (tuple(tuple(c.rank for c in s) for s in self.sails), self.centre,
                tuple(sorted(len(k) for k in self.kings)), tuple(c.rank for c in self.stock),
                tuple(c.rank for c in self.waste), self.pack1, self.redeals, self.ranks, self.refilling)

    # ------------------------------------------------------------------ derived facts

    def centre_next(self) -> int:
        """The rank the centre takes next (0 when it is complete)."""
        if self.centre >= 4 * self.ranks:
            return 0
        return self.centre % self.ranks + 1

    def capped(self) -> bool:
        """Is the centre stopped at the first Queen (rank ranks-1) right now?

        The cap holds while pack 1 is being dealt, i.e. while the stock still holds a
        card of pack 1; the centre then may not go beyond its first Queen (height
        ranks-1), so the next card is refused once the height has reached ranks-1.
        """
        return self.pack1 > 0 and self.centre >= self.ranks - 1

    def gaps(self) -> list[tuple[int, int]]:
        """The empty cells in refill order: (sail, 0) inner gaps of sails 1..n, then
        (sail, 1) outer gaps of sails 1..n."""
        inner = [(i, 0) for i, s in enumerate(self.sails) if len(s) == 0]
        outer = [(i, 1) for i, s in enumerate(self.sails) if len(s) < 2]
        return inner + outer

    def is_won(self) -> bool:
        return self.centre == 4 * self.ranks and all(len(k) == self.ranks for k in self.kings)

    def cards_home(self) -> int:
        return self.centre + sum(len(k) for k in self.kings)

    # ------------------------------------------------------------------ validation

    def validate(self) -> None:
        """Raise WelfordPositionError (one line) naming the first problem found."""
        R = self.ranks
        if isinstance(R, bool) or not isinstance(R, int) or not 2 <= R <= 13:
            raise WelfordPositionError(f"ranks must be 2..13, not {R!r}")
        if not 1 <= len(self.sails) <= SAILS:
            raise WelfordPositionError(f"Windmill has 1 to {SAILS} sails, not {len(self.sails)}")
        if len(self.kings) != KING_PILES:
            raise WelfordPositionError(f"there must be {KING_PILES} king piles, not {len(self.kings)}")
        if isinstance(self.centre, bool) or not isinstance(self.centre, int) or not 1 <= self.centre <= 4 * R:
            raise WelfordPositionError(f"the centre holds 1 to {4 * R} cards, not {self.centre!r}")
        if self.redeals not in (0, 1) or isinstance(self.redeals, bool):
            raise WelfordPositionError(f"redeals must be 0 or 1, not {self.redeals!r}")
        if isinstance(self.pack1, bool) or not isinstance(self.pack1, int) or not 0 <= self.pack1 <= len(self.stock):
            raise WelfordPositionError(f"pack1 (pack-1 cards on top of the stock) must be 0..{len(self.stock)}, "
                                       f"not {self.pack1!r}")
        if self.pack1 and self.redeals:
            raise WelfordPositionError("pack 1 cannot still be in the stock after the waste was turned over")
        if self.pack1 and self.centre > R - 1:
            raise WelfordPositionError(f"the centre holds {self.centre} cards, beyond its first "
                                       f"{rank_name(R - 1, R)}, while pack 1 is still being dealt")
        if len(self.stock) + len(self.waste) > 104:
            raise WelfordPositionError("stock and waste hold more than 104 cards")
        inner, outer = sail_cell_names(self.nsails)
        count: Counter = Counter()
        for i, sail in enumerate(self.sails):
            if len(sail) > 2:
                raise WelfordPositionError(f"sail {i + 1} holds {len(sail)} cards (inner {inner[i]} and outer "
                                           f"{outer[i]}: at most 2)")
            for c in sail:
                if not isinstance(c, Card):
                    raise WelfordPositionError(f"sail {i + 1} holds {c!r}, not a card")
                count[c] += 1
        for j, pile in enumerate(self.kings):
            if len(pile) > R:
                raise WelfordPositionError(f"K{j + 1} holds {len(pile)} cards (at most {R})")
            for k, c in enumerate(pile):
                if not isinstance(c, Card):
                    raise WelfordPositionError(f"K{j + 1} holds {c!r}, not a card")
                if c.rank != R - k:
                    raise WelfordPositionError(f"K{j + 1}: card {k + 1} is {c}, but a king pile runs "
                                               f"{rank_name(R, R)} down to Ace (rank {R - k} here)")
                count[c] += 1
        for name, pile in (("stock", self.stock), ("waste", self.waste)):
            for c in pile:
                if not isinstance(c, Card):
                    raise WelfordPositionError(f"the {name} holds {c!r}, not a card")
                count[c] += 1
        for c, n in count.items():
            if c.rank > R:
                raise WelfordPositionError(f"{c} is not in a deck of ranks A..{R}")
            if n > 2:
                raise WelfordPositionError(f"{c} appears {n} times (two packs hold it twice)")
        # The centre holds the rest: their ranks must be those of A, 2, .., cycling.
        want: Counter = Counter((h % R) + 1 for h in range(self.centre))
        rest: Counter = Counter()
        for s in range(4):
            for r in range(1, R + 1):
                left = 2 - count[Card(r, s)]
                if left:
                    rest[r] += left
        if rest != want:
            wrong = sorted(set(rest) | set(want))
            detail = ", ".join(f"rank {r}: {rest[r]} missing, {want[r]} on the centre" for r in wrong
                               if rest[r] != want[r])
            raise WelfordPositionError(f"the cards do not add up to two packs with a centre of {self.centre} "
                                       f"cards ({detail})")
        if self.refilling:
            if not self.stock or not self.gaps():
                raise WelfordPositionError("refilling is set but there is no gap or no stock card")
