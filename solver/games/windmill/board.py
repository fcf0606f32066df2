"""Text picture of a Windmill table (pysolfc and strict presets)."""

from __future__ import annotations

from .position import WindmillPosition


def _pile(cards) -> str:
    return " ".join(map(str, cards)) if cards else "--"


def render(p: WindmillPosition) -> str:
    lines = [f"stock  {len(p.stock)} cards" + (f" (next {p.stock[-1]})" if p.stock else ""),
             f"waste  {_pile(p.waste[-8:])}" + (f"  ({len(p.waste)} cards)" if len(p.waste) > 8 else ""),
             f"centre {len(p.centre)} cards, top {p.centre[-1]}" + ("  (last came from a king pile)" if p.after_transfer else "")]
    for k, pile in enumerate(p.kings):
        lines.append(f"K{k + 1}     " + (f"{len(pile)} cards, top {pile[-1]}" if pile else "--"))
    lines.append("cells  " + "  ".join(f"C{i + 1}:{'--' if c is None else c}" for i, c in enumerate(p.cells)))
    return "\n".join(lines)
