"""Text picture of a Windmill table (pysolfc and strict presets), drawn as the windmill:
the cells as four arms around the centre, the king piles between the arms (PySolFC's
layout), then the waste and the stock."""

from __future__ import annotations

from .. import table
from .position import WindmillPosition


def _cell(p: WindmillPosition, i: int) -> str:
    if i >= p.ncells:
        return "  "
    c = p.cells[i]
    return "--" if c is None else str(c)


def _king(p: WindmillPosition, k: int) -> str:
    pile = p.kings[k]
    return f"K{k + 1}:{pile[-1]}x{len(pile)}" if pile else f"K{k + 1}:--"


def waste_line(waste) -> str:
    """The waste's last 12 cards (the top last), as both Windmill boards print it."""
    return ("waste: " + (" ".join(map(str, waste[-12:])) if waste else "--")
            + (f"  ({len(waste)} cards)" if len(waste) > 12 else ""))


def render(p: WindmillPosition) -> str:
    centre = f"[{p.centre[-1]}x{len(p.centre)}]"
    lines = [
        f"              {_cell(p, 0)}",
        f"              {_cell(p, 1)}",
        f"   {_king(p, 0):<9}       {_king(p, 1)}",
        f"{_cell(p, 2)} {_cell(p, 3)}    {centre:^8}  {_cell(p, 4)} {_cell(p, 5)}",
        f"   {_king(p, 2):<9}       {_king(p, 3)}",
        f"              {_cell(p, 6)}",
        f"              {_cell(p, 7)}",
        waste_line(p.waste),
        f"stock: {len(p.stock)} card{'s' if len(p.stock) != 1 else ''}" + (f", next {p.stock[-1]}" if p.stock else ""),
        "cells: C1 C2 top arm (outer, inner), C3 C4 left, C5 C6 right, C7 C8 bottom (inner, outer);"
        " centre and king piles: top card x cards",
    ]
    if p.after_transfer:
        lines.append("(the last centre card came from a king pile)")
    return "\n".join(lines)


# --- the table the replay page draws --------------------------------------------------

# the cells C1..C8 and king piles K1..K4 on a 5 x 5 grid (row, column), the centre in the
# middle: as render draws them
_GRID = {"C1": (0, 2), "C2": (1, 2), "C3": (2, 0), "C4": (2, 1), "C5": (2, 3), "C6": (2, 4),
         "C7": (3, 2), "C8": (4, 2), "K1": (1, 1), "K2": (1, 3), "K3": (3, 1), "K4": (3, 3),
         "centre": (2, 2)}


def table_frame(p) -> list[list]:
    """The rows of pile slots of the replay page's table (solver/games/table.py)."""
    return table.grid_frame(_GRID, set(table_piles(p)["p"]))


def table_piles(p) -> dict:
    """The cards each pile shows, bottom to top, and the counts of piles shown in part."""
    shown = {f"C{i + 1}": ([] if c is None else [str(c)]) for i, c in enumerate(p.cells)}
    return around_the_mill(p, shown, table.top(p.centre), len(p.centre))


def around_the_mill(p, shown: dict, centre: list[str], centre_count: int) -> dict:
    """``table_piles`` of a Windmill position (both implementations): the cells already
    in ``shown``, then the centre, the king piles, the waste and the stock."""
    shown.update({"centre": centre, "waste": table.cards(p.waste[-12:]), "stock": table.stock(p.stock)})
    counts = {"centre": centre_count, "waste": len(p.waste), "stock": len(p.stock)}
    for k, pile in enumerate(p.kings):
        shown[f"K{k + 1}"] = table.top(pile)
        counts[f"K{k + 1}"] = len(pile)
    return {"p": shown, "n": counts}
