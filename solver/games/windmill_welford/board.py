"""Text picture of a Welford Windmill table: the windmill (sails around the centre, the
king piles between them), then the waste and the stock.

Welford's text only puts the king piles "between the sails"; which is which is ours, and
the same for every preset (docs/games.md, ``patience games``): K1 top left, K2 top right, K3
bottom left, K4 bottom right."""

from __future__ import annotations

from ...core.cards import RANKS
from ..windmill.board import waste_line
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
