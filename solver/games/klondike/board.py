"""Text picture of a Klondike table, as a player lays it out."""

from __future__ import annotations

from ...core.cards import RANKS, SUITS
from .. import table
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


# --- the table the replay page draws --------------------------------------------------

def table_frame(p) -> list[list]:
    """The rows of pile slots of the replay page's table (solver/games/table.py)."""
    top = [table.slot("stock"), table.slot("waste", table.RIGHT, label="waste")]
    top += [table.slot(f"F{s + 1}", push=(s == 0)) for s in range(len(p.foundations))]
    return [top, [table.slot(f"T{i + 1}", table.DOWN) for i in range(len(p.tableau))]]


def table_piles(p) -> dict:
    """The cards each pile shows, bottom to top, and the counts of piles shown in part."""
    shown = {"stock": table.stock(p.stock), "waste": table.cards(p.waste[-3:])}
    shown.update({f"F{s + 1}": table.suit_top(n, s) for s, n in enumerate(p.foundations)})
    for i, pile in enumerate(p.tableau):
        shown[f"T{i + 1}"] = [table.FACE_DOWN] * p.face_down[i] + table.cards(pile[p.face_down[i]:])
    return {"p": shown, "n": {"stock": len(p.stock), "waste": len(p.waste)}}
