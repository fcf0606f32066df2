"""Text picture of a Great Wheel table: foundations, tableau piles (bottom card first,
the playable card last), then waste and stock sizes."""

from __future__ import annotations

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
