"""Text picture of a Beleaguered Castle table: foundations, then each pile as a row
(the piles are fanned sideways, bottom card first, the playable card last)."""

from __future__ import annotations

from ...core.cards import RANKS, SUITS
from .position import BCPosition


def render(p: BCPosition) -> str:
    found = "  ".join(
        f"F{s + 1}:{RANKS[n - 1] + SUITS[s] if n else '--'}" for s, n in enumerate(p.foundations)
    )
    lines = [found]
    for i, pile in enumerate(p.tableau):
        lines.append(f"T{i + 1:<2d} " + (" ".join(map(str, pile)) if pile else "--"))
    return "\n".join(lines)
