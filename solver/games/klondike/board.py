"""Text picture of a Klondike table, as a player lays it out."""

from __future__ import annotations

from ...core.cards import RANKS, SUITS
from .position import KlondikePosition


def render(p: KlondikePosition) -> str:
    found = "  ".join(
        f"F{s + 1}:{RANKS[n - 1] + SUITS[s] if n else '--'}" for s, n in enumerate(p.foundations)
    )
    waste = " ".join(map(str, p.waste[-3:])) if p.waste else "--"
    more = "... " if len(p.waste) > 3 else ""
    lines = [f"stock: {len(p.stock):2d} card{'s' if len(p.stock) != 1 else ''}   waste: {more}{waste}   {found}"]
    if p.redeals:
        lines[0] += f"   redeals used: {p.redeals}"
    height = max((len(t) for t in p.tableau), default=0)
    lines.append("  ".join(f"T{i + 1:<2d}" for i in range(len(p.tableau))))
    for row in range(height):
        cells = []
        for i, pile in enumerate(p.tableau):
            if row < len(pile):
                cells.append("[] " if row < p.face_down[i] else f"{pile[row]} ")
            else:
                cells.append("   ")
        lines.append("  ".join(c for c in cells).rstrip())
    return "\n".join(lines)
