"""Great Wheel rules and positions: the plain data every other module of the game shares.

``GWPosition`` is the neutral description of a table: the deal generators make one, deal
files read and write one, the reference engine plays on one and the kernel decodes its
packed state into one.

The game (PySolFC game 397; Pretty Good Solitaire's "Great Wheel"): two decks without
Kings (96 cards, ranks A..Q); one Ace foundation ("aces") takes all eight Aces, colours
alternating (the first Ace may be either colour); eight Evens foundations (E1..E8) start
with a Two and go up by twos in suit to the Queen; eight Odds foundations (O1..O8) start
with a Three and go up by twos in suit to the Jack; eight tableau piles (T1..T8) of four
face-up cards; a stock turned one card at a time to the waste, no redeal.  The tableau
builds down in suit, one card at a time, only once the stock is empty.

Automatic actions (PySolFC's ``GreatWheel.fillStack``; they are not moves of a line):
- the waste is never empty while the stock has cards: when it empties, the next stock
  card is turned at once (this changes no game value: with an empty waste the only
  thing to do with the stock is to turn it, and turning it removes no option);
- a tableau pile that becomes empty while stock or waste hold cards is refilled at
  once with ``fill`` (4) cards, one by one from the waste top (the first card taken is
  the bottom of the new pile), turning a stock card whenever the waste is empty; if
  fewer cards are left it takes them all.  Only when stock and waste are both empty
  does an empty pile stay empty, and then it takes any single available card.

Rule presets (``GWRules.preset``):
- ``pgs`` (default, Pretty Good Solitaire): foundation cards never leave;
- ``pysolfc`` (PySolFC game 397, whose Evens/Odds piles are row stacks): once the
  stock is empty, the top card of an Evens or Odds pile may move to a tableau pile,
  onto the card of its suit one rank higher, or into an empty pile
  (``GreatWheel_RowStack.acceptsCards``).  PySolFC also lets such a card move onto
  another Evens/Odds pile; that only relabels foundation piles (they are kept as a
  multiset here), so it is not a move of this engine.

Reduced games (for brute force): ``ranks`` R < 12 keeps ranks A..R of both decks (8R
cards); Evens go up to the highest even rank <= R, Odds to the highest odd rank <= R;
fewer tableau piles and a smaller ``fill`` (cards per pile at the deal and per refill)
are allowed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..variants import presets_of
from ...core.cards import Card

PILES = 8  # tableau piles of the real game
FILL = 4  # cards per pile at the deal and per refill
FULL_RANKS = 12  # A..Q, no Kings
FOUNDATION_PILES = 8  # Evens piles and Odds piles each
MAX_TALON = 64  # stock + waste cards the kernel's key allows (the deal has 64)
MAX_BASE = 4  # cards of a pile below its top run built down in suit (kernel's key)
PRESETS = presets_of("great-wheel")  # the default first (variants.VARIANTS)


class PositionError(ValueError):
    """A position that cannot occur in Great Wheel (missing/duplicate card, bad pile...)."""


@dataclass(frozen=True)
class GWRules:
    """``preset``: "pgs" (foundation cards never leave) or "pysolfc" (see module doc)."""

    preset: str = "pgs"

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown great-wheel rules {self.preset!r}; choose from {', '.join(PRESETS)}")

    @property
    def returns(self) -> bool:
        """May Evens/Odds top cards come back to the tableau (once the stock is empty)?"""
        return self.preset == "pysolfc"

    def to_json(self) -> dict:
        return {"rules": self.preset}


def deck(ranks: int = FULL_RANKS) -> list[Card]:
    """Both decks of ranks A..ranks, each card twice (index order)."""
    return [Card(r, s) for s in range(4) for r in range(1, ranks + 1) for _ in range(2)]


def base_length(pile: list[Card]) -> int:
    """Cards of ``pile`` below its maximal top run built down in suit (the run's bottom
    card counts as base): the kernel's key stores these cards one by one."""
    k = len(pile)
    while k >= 2 and pile[k - 1].suit == pile[k - 2].suit and pile[k - 1].rank + 1 == pile[k - 2].rank:
        k -= 1
    return k


@dataclass
class GWPosition:
    """A Great Wheel table.  Every list runs bottom to top (``[-1]`` is the playable card).

    ``tableau[i]`` is ``T{i+1}`` (PySolFC's ``s.rows[i]``); ``stock[-1]`` is turned next;
    ``aces`` is the Ace foundation; ``evens[k]``/``odds[k]`` are ``E{k+1}``/``O{k+1}``.
    """

    tableau: list[list[Card]]
    stock: list[Card] = field(default_factory=list)
    waste: list[Card] = field(default_factory=list)
    aces: list[Card] = field(default_factory=list)
    evens: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(FOUNDATION_PILES)])
    odds: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(FOUNDATION_PILES)])
    ranks: int = FULL_RANKS
    fill: int = FILL

    @property
    def npiles(self) -> int:
        return len(self.tableau)

    def copy(self) -> "GWPosition":
        return GWPosition([list(p) for p in self.tableau], list(self.stock), list(self.waste), list(self.aces),
                          [list(p) for p in self.evens], [list(p) for p in self.odds], self.ranks, self.fill)

    def is_won(self) -> bool:
        return not self.stock and not self.waste and not any(self.tableau)

    def foundation_key(self) -> tuple:
        """The foundations up to what no rule can tell apart: the Aces as a multiset plus
        the colour of the top Ace, the Evens and Odds piles as multisets of piles."""
        aces = (tuple(sorted(c.index for c in self.aces)), self.aces[-1].red if self.aces else None)
        evens = tuple(sorted(tuple(c.index for c in p) for p in self.evens))
        odds = tuple(sorted(tuple(c.index for c in p) for p in self.odds))
        return aces, evens, odds

    def key(self) -> tuple:
        """Exact tableau, stock and waste (pile order included) and ``foundation_key``."""
        return (tuple(tuple(c.index for c in p) for p in self.tableau), tuple(c.index for c in self.stock),
                tuple(c.index for c in self.waste), self.foundation_key(), self.ranks, self.fill)

    def sorted_key(self) -> tuple:
        """``key`` with the tableau piles sorted (the kernel's symmetry; see kernel.py)."""
        k = self.key()
        return (tuple(sorted(k[0])),) + k[1:]

    def validate(self) -> None:
        """Raise PositionError unless this is a Great Wheel position the engines can play."""
        if isinstance(self.ranks, bool) or not isinstance(self.ranks, int) or not 1 <= self.ranks <= FULL_RANKS:
            raise PositionError(f"ranks must be 1..{FULL_RANKS}, not {self.ranks!r}")
        if isinstance(self.fill, bool) or not isinstance(self.fill, int) or not 1 <= self.fill <= FILL:
            raise PositionError(f"fill must be 1..{FILL}, not {self.fill!r}")
        if not 1 <= len(self.tableau) <= PILES:
            raise PositionError(f"there must be 1 to {PILES} tableau piles, not {len(self.tableau)}")
        if len(self.evens) != FOUNDATION_PILES or len(self.odds) != FOUNDATION_PILES:
            raise PositionError(f"there must be {FOUNDATION_PILES} Evens and {FOUNDATION_PILES} Odds piles")
        places: list[tuple[Card, str]] = []
        for i, pile in enumerate(self.tableau):
            places += [(c, f"T{i + 1}") for c in pile]
        places += [(c, "stock") for c in self.stock] + [(c, "waste") for c in self.waste]
        places += [(c, "aces") for c in self.aces]
        for name, piles in (("E", self.evens), ("O", self.odds)):
            for k, pile in enumerate(piles):
                places += [(c, f"{name}{k + 1}") for c in pile]
        for c, where in places:
            if not isinstance(c, Card):
                raise PositionError(f"{where} holds {c!r}, not a card")
            if c.rank > self.ranks:
                raise PositionError(f"{c} ({where}) is not in a deck of ranks A..{'A23456789TJQ'[self.ranks - 1]}")
        count = Counter(c for c, _ in places)
        for c in deck(self.ranks)[::2]:
            if count[c] > 2:
                raise PositionError(f"duplicate card {c}: {count[c]} copies (two decks have 2)")
        for c in deck(self.ranks)[::2]:
            if count[c] < 2:
                raise PositionError(f"missing card {c} (two decks have 2 copies, found {count[c]})")
        black_red = [c.red for c in self.aces]
        if any(c.rank != 1 for c in self.aces):
            raise PositionError("the Ace foundation holds only Aces")
        if any(a == b for a, b in zip(black_red, black_red[1:])):
            raise PositionError("the Aces on the Ace foundation must alternate in colour")
        for name, piles, start in (("E", self.evens, 2), ("O", self.odds, 3)):
            for k, pile in enumerate(piles):
                for j, c in enumerate(pile):
                    if c.rank != start + 2 * j or c.suit != pile[0].suit:
                        raise PositionError(
                            f"{name}{k + 1} must hold {start}, {start + 2}, ... of one suit from the bottom; {c} is wrong")
        if len(self.stock) + len(self.waste) > MAX_TALON:
            raise PositionError(f"stock and waste hold {len(self.stock) + len(self.waste)} cards (at most {MAX_TALON})")
        if self.stock and not self.waste:
            raise PositionError("the waste is empty while the stock has cards (a card is turned at once)")
        if (self.stock or self.waste) and any(not p for p in self.tableau):
            raise PositionError("an empty tableau pile while stock or waste have cards (it is refilled at once)")
        for i, pile in enumerate(self.tableau):
            if base_length(pile) > MAX_BASE:
                raise PositionError(f"T{i + 1} has {base_length(pile)} cards below its run built down in suit "
                                    f"(at most {MAX_BASE}: a deal or refill gives 4)")
