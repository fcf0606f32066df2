"""Each game's table as piles of cards, for the replay page (solver/interfaces/html.py).

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


def _slot(pile: str, fan: str = TOP, label: str | None = None, push: bool = False) -> dict[str, Any]:
    slot: dict[str, Any] = {"pile": pile, "fan": fan, "label": pile if label is None else label}
    if push:
        slot["push"] = True
    return slot


def _cards(cards) -> list[str]:
    return [str(c) for c in cards]


def _top(cards) -> list[str]:
    return [str(cards[-1])] if cards else []


def _suit_top(n: int, suit: int) -> list[str]:
    """A foundation that keeps only its height: its top card."""
    return [RANKS[n - 1] + SUITS[suit]] if n else []


def _stock(stock) -> list[str]:
    return [FACE_DOWN] if stock else []


# --- Klondike -------------------------------------------------------------------------

def _klondike_frame(p) -> list[list]:
    top = [_slot("stock"), _slot("waste", RIGHT, label="waste")]
    top += [_slot(f"F{s + 1}", push=(s == 0)) for s in range(len(p.foundations))]
    return [top, [_slot(f"T{i + 1}", DOWN) for i in range(len(p.tableau))]]


def _klondike_piles(p) -> dict:
    shown = {"stock": _stock(p.stock), "waste": _cards(p.waste[-3:])}
    shown.update({f"F{s + 1}": _suit_top(n, s) for s, n in enumerate(p.foundations)})
    for i, pile in enumerate(p.tableau):
        shown[f"T{i + 1}"] = [FACE_DOWN] * p.face_down[i] + _cards(pile[p.face_down[i]:])
    return {"p": shown, "n": {"stock": len(p.stock), "waste": len(p.waste)}}


# --- Beleaguered Castle ---------------------------------------------------------------

def _castle_frame(p) -> list[list]:
    return [[_slot(f"F{s + 1}") for s in range(len(p.foundations))]] + \
        [[_slot(f"T{i + 1}", RIGHT)] for i in range(len(p.tableau))]


def _castle_piles(p) -> dict:
    shown = {f"F{s + 1}": _suit_top(n, s) for s, n in enumerate(p.foundations)}
    shown.update({f"T{i + 1}": _cards(pile) for i, pile in enumerate(p.tableau)})
    return {"p": shown, "n": {}}


# --- Great Wheel ----------------------------------------------------------------------

def _wheel_frame(p) -> list[list]:
    return ([[_slot("aces")], [_slot(f"E{k + 1}") for k in range(len(p.evens))],
             [_slot(f"O{k + 1}") for k in range(len(p.odds))]]
            + [[_slot(f"T{i + 1}", RIGHT)] for i in range(len(p.tableau))]
            + [[_slot("waste", RIGHT), _slot("stock", push=True)]])


def _wheel_piles(p) -> dict:
    shown = {"aces": _top(p.aces), "waste": _cards(p.waste[-8:]), "stock": _stock(p.stock)}
    counts = {"aces": len(p.aces), "waste": len(p.waste), "stock": len(p.stock)}
    for name, piles in (("E", p.evens), ("O", p.odds)):
        for k, pile in enumerate(piles):
            shown[f"{name}{k + 1}"] = _top(pile)
            counts[f"{name}{k + 1}"] = len(pile)
    shown.update({f"T{i + 1}": _cards(pile) for i, pile in enumerate(p.tableau)})
    return {"p": shown, "n": counts}


# --- Windmill (pysolfc and strict) ------------------------------------------------------

# the cells C1..C8 and king piles K1..K4 on a 5 x 5 grid (row, column), the centre in the
# middle: as solver/games/windmill/board.py draws them
_WINDMILL_GRID = {"C1": (0, 2), "C2": (1, 2), "C3": (2, 0), "C4": (2, 1), "C5": (2, 3), "C6": (2, 4),
                  "C7": (3, 2), "C8": (4, 2), "K1": (1, 1), "K2": (1, 3), "K3": (3, 1), "K4": (3, 3),
                  "centre": (2, 2)}
# Welford's sails: inner C1..C4 and outer C5..C8 of the north, east, south, west sails
_WELFORD_GRID = {"C5": (0, 2), "C1": (1, 2), "C2": (2, 3), "C6": (2, 4), "C3": (3, 2), "C7": (4, 2),
                 "C4": (2, 1), "C8": (2, 0), "K1": (1, 1), "K2": (1, 3), "K4": (3, 1), "K3": (3, 3),
                 "centre": (2, 2)}


def _grid_frame(grid: dict[str, tuple[int, int]], present: set[str]) -> list[list]:
    rows: list[list] = [[None] * 5 for _ in range(5)]
    for name, (r, c) in grid.items():
        if name in present:
            rows[r][c] = _slot(name)
    return rows + [[_slot("waste", RIGHT), _slot("stock", push=True)]]


def _windmill_frame(p) -> list[list]:
    return _grid_frame(_WINDMILL_GRID, set(_windmill_piles(p)["p"]))


def _windmill_piles(p) -> dict:
    shown = {f"C{i + 1}": ([] if c is None else [str(c)]) for i, c in enumerate(p.cells)}
    shown.update({"centre": _top(p.centre), "waste": _cards(p.waste[-12:]), "stock": _stock(p.stock)})
    counts = {"centre": len(p.centre), "waste": len(p.waste), "stock": len(p.stock)}
    for k, pile in enumerate(p.kings):
        shown[f"K{k + 1}"] = _top(pile)
        counts[f"K{k + 1}"] = len(pile)
    return {"p": shown, "n": counts}


def _welford_frame(p) -> list[list]:
    return _grid_frame(_WELFORD_GRID, set(_welford_piles(p)["p"]))


def _welford_piles(p) -> dict:
    shown: dict[str, list[str]] = {}
    for s, sail in enumerate(p.sails):
        shown[f"C{s + 1}"] = _cards(sail[:1])
        shown[f"C{s + 5}"] = _cards(sail[1:2])
    top = (p.centre - 1) % p.ranks + 1  # the centre keeps its height only: its top card's rank, no suit
    shown.update({"centre": [RANKS[top - 1]], "waste": _cards(p.waste[-12:]), "stock": _stock(p.stock)})
    counts = {"centre": p.centre, "waste": len(p.waste), "stock": len(p.stock)}
    for k, pile in enumerate(p.kings):
        shown[f"K{k + 1}"] = _top(pile)
        counts[f"K{k + 1}"] = len(pile)
    return {"p": shown, "n": counts}


_LAYOUTS = {
    "KlondikePosition": (_klondike_frame, _klondike_piles),
    "BCPosition": (_castle_frame, _castle_piles),
    "GWPosition": (_wheel_frame, _wheel_piles),
    "WindmillPosition": (_windmill_frame, _windmill_piles),
    "WelfordPosition": (_welford_frame, _welford_piles),
}


def _layout(position: Any):
    try:
        return _LAYOUTS[type(position).__name__]
    except KeyError:
        raise ValueError(f"the replay page cannot draw a {type(position).__name__}") from None


def frame(position: Any) -> list[list]:
    """The rows of pile slots of ``position``'s game (see the module docstring)."""
    return _layout(position)[0](position)


def piles(position: Any) -> dict:
    """The cards ``position`` shows in each pile, and the counts of piles shown in part."""
    return _layout(position)[1](position)
