"""Text picture of a Windmill table (pysolfc and strict presets), drawn as the windmill:
the cells as four arms around the centre, the king piles between the arms (PySolFC's
layout), then the waste and the stock."""

from __future__ import annotations

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
