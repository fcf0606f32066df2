"""A game's table as piles of cards, the model the replay page (solver/interfaces/html.py) draws.

Each game's ``board.py`` gives its table with ``table_frame(position)`` and
``table_piles(position)`` (the adapter's ``table_frame``/``table_piles``), written with
the helpers here.

A game's *frame* is the fixed arrangement of its piles: rows of slots, a slot being a
pile or ``None`` (an empty place one card wide).  A pile slot says the pile's name (the
name moves use: ``T1``, ``waste``, ``centre``), its label and how its cards are drawn:
``down`` (fanned downwards, Klondike's columns), ``right`` (fanned sideways, a row of
Beleaguered Castle) or ``top`` (only the top card, with a count badge: foundations, the
stock, Windmill's centre and king piles).  ``push`` moves a slot to the row's right end.

A position's *piles* are ``{"p": {name: [card, ...]}, "n": {name: count}}``: the cards
shown, bottom to top (``"##"`` a face-down card, a rank alone a card whose suit the
game does not keep), and for piles shown in part the number of cards they hold.  The
page sizes every pile box for the most cards it ever shows, so stepping never moves
anything.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import RANKS, SUITS

DOWN, RIGHT, TOP = "down", "right", "top"
FACE_DOWN = "##"


def slot(pile: str, fan: str = TOP, label: str | None = None, push: bool = False) -> dict[str, Any]:
    """A place in the frame: the pile's name, how its cards are drawn, its label."""
    made: dict[str, Any] = {"pile": pile, "fan": fan, "label": pile if label is None else label}
    if push:
        made["push"] = True
    return made


def cards(pile) -> list[str]:
    """Every card of a pile, bottom to top."""
    return [str(c) for c in pile]


def top(pile) -> list[str]:
    """Only the top card of a pile (none when empty)."""
    return [str(pile[-1])] if pile else []


def suit_top(n: int, suit: int) -> list[str]:
    """A foundation that keeps only its height: its top card."""
    return [RANKS[n - 1] + SUITS[suit]] if n else []


def stock(pile) -> list[str]:
    """A face-down stock: one card back while it holds any."""
    return [FACE_DOWN] if pile else []


def grid_frame(grid: dict[str, tuple[int, int]], present: set[str]) -> list[list]:
    """Piles placed on a 5 x 5 grid (Windmill's sails around the centre), then the waste and stock."""
    rows: list[list] = [[None] * 5 for _ in range(5)]
    for name, (r, c) in grid.items():
        if name in present:
            rows[r][c] = slot(name)
    return rows + [[slot("waste", RIGHT), slot("stock", push=True)]]
