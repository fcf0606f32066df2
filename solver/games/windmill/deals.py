"""Numbered Windmill deals, laid out exactly as PySolFC (game 30) lays them out.

PySolFC creates the cards deck by deck (suits C, S, H, D, ranks A..K; card id 0 is the
first pack's Ace of Clubs), shuffles the 104 cards with its game-number generator
(``numbering.pysolfc_shuffle``), and ``Windmill._shuffleHook`` removes card id 0 from
wherever it lies and puts it on top of the talon (the end of the list).  Which of the
two equal Aces of Clubs that is matters for the order of the rest, so the shuffle is
done on card ids here.  ``startGame``: one card (that Ace) to the centre, one card to
each of ``s.rows[0..7]`` (our C1..C8) in order, then one card turned to the waste.

Reduced games (tests): two packs of ranks A..``ranks`` created the same way, and
``cells`` cells; the deal is otherwise identical.
"""

from __future__ import annotations

from ...core.cards import Card
from ...core.numbering import PYSOLFC, pysolfc_deck, pysolfc_shuffle
from .position import CELLS, WindmillPosition

NUMBERINGS = (PYSOLFC,)


def pysolfc_talon(seed: int, ranks: int = 13) -> list[Card]:
    """PySolFC's talon after ``_shuffleHook``: the last element is dealt first (the Ace)."""
    deck = pysolfc_deck(2, ranks)
    ids = pysolfc_shuffle(list(range(len(deck))), seed)
    ids.remove(0)
    ids.append(0)
    return [deck[i] for i in ids]


def deal_from(talon: list[Card], ranks: int = 13, cells: int = CELLS) -> WindmillPosition:
    """Deal a talon (last element first): centre, cells C1..Cn, one card to the waste."""
    talon = list(talon)
    centre = [talon.pop()]
    row = [talon.pop() for _ in range(cells)]
    waste = [talon.pop()] if talon else []
    return WindmillPosition(stock=talon, waste=waste, cells=row, centre=centre, ranks=ranks)


def windmill_deal(seed: int, numbering: str = PYSOLFC, ranks: int = 13, cells: int = CELLS) -> WindmillPosition:
    """The Windmill deal that PySolFC calls game number ``seed`` (reduced: ranks/cells)."""
    if numbering != PYSOLFC:
        raise ValueError(f"unknown deal numbering {numbering!r}; expected one of {', '.join(NUMBERINGS)}")
    if not 1 <= ranks <= 13 or not 1 <= cells <= CELLS or 8 * ranks < cells + 2:
        raise ValueError(f"no Windmill deal with ranks {ranks} and {cells} cells")
    position = deal_from(pysolfc_talon(seed, ranks), ranks, cells)
    position.validate()
    return position
