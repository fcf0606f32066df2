"""Beleaguered Castle deal files: Solvitaire's JSON deal format, so any position can be solved.

The format is Solvitaire's (the one Klondike deal files use), without stock or waste::

    {
      "tableau piles": [["JD", "KD", "KS", "QH", "8H", "6C"], ["2D", ...], ...],
      "foundations": ["AC", "AD", "AH", "AS", "2S"]
    }

- every list runs bottom to top: the last card of a pile is its top (playable) card;
- a card is a rank (``A``, ``2``..``10``, ``J``, ``Q``, ``K``; also ``T`` and ``1``..``13``)
  and an upper-case suit (``C D H S``); a lower-case suit means "face down" in
  Solvitaire's files, and Beleaguered Castle has no face-down cards, so it is refused;
- "foundations" is a flat list of cards, each put on its suit's foundation in order
  (Solvitaire's older list-of-4-lists form is accepted too).  Without the key the
  foundations hold the four Aces, as dealt; with it they must hold at least the Aces;
- "tableau piles" is required: 8 piles (Solvitaire's rules file says 8), at most 20
  cards each.  Our own optional key "ranks" describes a reduced deck A..ranks; a file
  with "ranks" may have 1 to 8 piles, so "ranks" is also written for a full deck on
  fewer piles.
"""

from __future__ import annotations

from pathlib import Path

from ...core.cards import Card
from ...core.dealfile import (DealFileError, check_object, dump_with, int_field, load_with, parse_face_up, pile_lists,
                         suit_foundation_tokens, suit_foundations, validated)
from .position import PILES, BCPosition, PositionError

__all__ = ["DealFileError", "position_from_json", "position_to_json", "load_deal", "dump_deal"]

KEYS = ("tableau piles", "foundations", "ranks")
GAME = "Beleaguered Castle"


def position_from_json(obj: object) -> BCPosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    check_object(obj, KEYS)
    ranks = int_field(obj, "ranks", 13, 1, 13)
    piles = pile_lists(obj, GAME, PILES)
    tableau = [[parse_face_up(t, f"T{i + 1}", GAME) for t in pile] for i, pile in enumerate(piles)]
    foundations = suit_foundations(obj, default=[Card(1, s).solvitaire() for s in range(4)])
    return validated(BCPosition(tableau, foundations, ranks), PositionError)


def position_to_json(position: BCPosition) -> dict:
    """The deal-file object for ``position`` ("ranks" only for a reduced game)."""
    obj: dict = {
        "tableau piles": [[c.solvitaire() for c in pile] for pile in position.tableau],
        "foundations": suit_foundation_tokens(position.foundations),
    }
    if position.ranks != 13 or len(position.tableau) != PILES:
        obj["ranks"] = position.ranks
    return obj


def load_deal(path: str | Path) -> BCPosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    return load_with(path, position_from_json)


def dump_deal(position: BCPosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one tableau pile per line."""
    dump_with(position, path, position_to_json, error=PositionError)
