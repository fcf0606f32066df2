"""Text picture of a Welford Windmill table: the windmill (sails around the centre, the
king piles between them), then the waste and the stock.

Welford's text only puts the king piles "between the sails"; which is which is ours, and
the same for every preset (docs/games.md, ``patience games``): K1 top left, K2 top right, K3
bottom left, K4 bottom right."""

from __future__ import annotations

from ...core.cards import RANKS
from .. import table
from ..windmill.board import around_the_mill, waste_line
from .position import SAILS, WelfordPosition


def _cell(p: WelfordPosition, sail: int, level: int) -> str:
    if sail >= p.nsails:
        return "  "
    s = p.sails[sail]
    return str(s[level]) if len(s) > level else "--"


def _king(p: WelfordPosition, j: int) -> str:
    k = p.kings[j]
    if not k:
        return "K{}:--".format(j + 1)
    done = " (done)" if len(k) == p.ranks else ""
    return f"K{j + 1}:{k[-1]}x{len(k)}{done}"


def render(p: WelfordPosition) -> str:
    top = (p.centre - 1) % p.ranks + 1
    centre = f"[{RANKS[top - 1] if p.ranks == 13 else top}x{p.centre}]"
    lines = [
        f"             {_cell(p, 0, 1)}",
        f"   {_king(p, 0):<9} {_cell(p, 0, 0)}   {_king(p, 1)}",
        f"{_cell(p, 3, 1)} {_cell(p, 3, 0)}   {centre:^7}  {_cell(p, 1, 0)} {_cell(p, 1, 1)}",
        f"   {_king(p, 2):<9} {_cell(p, 2, 0)}   {_king(p, 3)}",
        f"             {_cell(p, 2, 1)}",
        waste_line(p.waste),
        f"stock: {len(p.stock)} card{'s' if len(p.stock) != 1 else ''}" + (f", next {p.stock[-1]}" if p.stock else "")
        + (f"; {p.pack1} of pack 1 left (centre capped at the first Queen)" if p.pack1 else "")
        + ("; waste turned over once" if p.redeals else ""),
        f"sails: inner C1..C{SAILS} (N E S W), outer C{SAILS + 1}..C{2 * SAILS}",
    ]
    if p.refilling:
        lines.append("(rebuilding the sails)")
    return "\n".join(lines)


# --- the table the replay page draws --------------------------------------------------

# Welford's sails: inner C1..C4 and outer C5..C8 of the north, east, south, west sails
_GRID = {"C5": (0, 2), "C1": (1, 2), "C2": (2, 3), "C6": (2, 4), "C3": (3, 2), "C7": (4, 2),
         "C4": (2, 1), "C8": (2, 0), "K1": (1, 1), "K2": (1, 3), "K4": (3, 1), "K3": (3, 3),
         "centre": (2, 2)}


def table_frame(p) -> list[list]:
    """The rows of pile slots of the replay page's table (solver/games/table.py)."""
    return table.grid_frame(_GRID, set(table_piles(p)["p"]))


def table_piles(p) -> dict:
    """The cards each pile shows, bottom to top, and the counts of piles shown in part."""
    shown: dict[str, list[str]] = {}
    for s, sail in enumerate(p.sails):
        shown[f"C{s + 1}"] = table.cards(sail[:1])
        shown[f"C{s + 5}"] = table.cards(sail[1:2])
    top = (p.centre - 1) % p.ranks + 1  # the centre keeps its height only: its top card's rank, no suit
    return around_the_mill(p, shown, [RANKS[top - 1]], p.centre)
