"""Text picture of a Great Wheel table: foundations, tableau piles (bottom card first,
the playable card last), then waste and stock sizes."""

from __future__ import annotations

from .. import table
from .position import GWPosition


def _pile(p) -> str:
    return " ".join(map(str, p)) if p else "--"


def render(p: GWPosition) -> str:
    lines = [f"aces: {_pile(p.aces)}"]
    lines.append("evens: " + "  ".join(f"E{k + 1}:{p.evens[k][-1] if p.evens[k] else '--'}" for k in range(len(p.evens))))
    lines.append("odds:  " + "  ".join(f"O{k + 1}:{p.odds[k][-1] if p.odds[k] else '--'}" for k in range(len(p.odds))))
    for i, pile in enumerate(p.tableau):
        lines.append(f"T{i + 1:<2d} {_pile(pile)}")
    lines.append(f"waste ({len(p.waste)}): {_pile(p.waste[-8:])}" + (" (top last)" if p.waste else ""))
    lines.append(f"stock: {len(p.stock)} card{'s' if len(p.stock) != 1 else ''}")
    return "\n".join(lines)


# --- the table the replay page draws --------------------------------------------------

def table_frame(p) -> list[list]:
    """The rows of pile slots of the replay page's table (solver/games/table.py)."""
    return ([[table.slot("aces")], [table.slot(f"E{k + 1}") for k in range(len(p.evens))],
             [table.slot(f"O{k + 1}") for k in range(len(p.odds))]]
            + [[table.slot(f"T{i + 1}", table.RIGHT)] for i in range(len(p.tableau))]
            + [[table.slot("waste", table.RIGHT), table.slot("stock", push=True)]])


def table_piles(p) -> dict:
    """The cards each pile shows, bottom to top, and the counts of piles shown in part."""
    shown = {"aces": table.top(p.aces), "waste": table.cards(p.waste[-8:]), "stock": table.stock(p.stock)}
    counts = {"aces": len(p.aces), "waste": len(p.waste), "stock": len(p.stock)}
    for name, piles in (("E", p.evens), ("O", p.odds)):
        for k, pile in enumerate(piles):
            shown[f"{name}{k + 1}"] = table.top(pile)
            counts[f"{name}{k + 1}"] = len(pile)
    shown.update({f"T{i + 1}": table.cards(pile) for i, pile in enumerate(p.tableau)})
    return {"p": shown, "n": counts}
