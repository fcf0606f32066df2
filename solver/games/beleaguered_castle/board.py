"""Text picture of a Beleaguered Castle table: foundations, then each pile as a row
(the piles are fanned sideways, bottom card first, the playable card last)."""

from __future__ import annotations

from ...core.cards import RANKS, SUITS
from .. import table
from .position import BCPosition


def render(p: BCPosition) -> str:
    found = "  ".join(
        f"F{s + 1}:{RANKS[n - 1] + SUITS[s] if n else '--'}" for s, n in enumerate(p.foundations)
    )
    lines = [found]
    for i, pile in enumerate(p.tableau):
        lines.append(f"T{i + 1:<2d} " + (" ".join(map(str, pile)) if pile else "--"))
    return "\n".join(lines)


# --- the table the replay page draws --------------------------------------------------

def table_frame(p) -> list[list]:
    """The rows of pile slots of the replay page's table (solver/games/table.py)."""
    return [[table.slot(f"F{s + 1}") for s in range(len(p.foundations))]] + \
        [[table.slot(f"T{i + 1}", table.RIGHT)] for i in range(len(p.tableau))]


def table_piles(p) -> dict:
    """The cards each pile shows, bottom to top, and the counts of piles shown in part."""
    shown = {f"F{s + 1}": table.suit_top(n, s) for s, n in enumerate(p.foundations)}
    shown.update({f"T{i + 1}": table.cards(pile) for i, pile in enumerate(p.tableau)})
    return {"p": shown, "n": {}}
