"""Windmill deal files (pysolfc and strict presets): JSON in the style of Solvitaire's.

::

    {
      "stock": ["JD", "AS", ..., "QC"],
      "waste": ["8D"],
      "cells": ["3D", "5H", "JC", "KH", "5S", "5H", "KC", "KC"],
      "centre": ["AC"],
      "king piles": [[], [], [], []]
    }

- every list runs bottom to top: the last stock card is turned next, the last waste
  card is playable, ``centre[0]`` is the base Ace;
- "cells" lists C1..C8 (``null`` for an empty cell); "centre" and "cells" are
  required, the rest default to empty;
- a card is a rank (``A``, ``2``..``10``, ``J``, ``Q``, ``K``; also ``T`` and
  ``1``..``13``) and an upper-case suit (``C D H S``); Windmill has no face-down cards
  apart from the stock, so a lower-case suit is refused;
- our own optional keys: "ranks" (two packs of ranks A..ranks; with it, 1 to 8 cells
  are allowed) and "after transfer" (strict rules: the last card played to the centre
  came from a king pile).  Every card of the two packs must appear exactly twice.
"""

from __future__ import annotations

from pathlib import Path

from ...core.dealfile import validated, DealFileError, card_list, card_token, check_object, dump_with, int_field, load_with, parse_face_up
from .deals import NUMBERINGS
from .position import CELLS, KING_PILES, PositionError, WindmillPosition

__all__ = ["DealFileError", "position_from_json", "position_to_json", "load_deal", "dump_deal"]

KEYS = ("stock", "waste", "cells", "centre", "king piles", "ranks", "after transfer")
GAME = "Windmill"


def _cards(obj: dict, key: str) -> list:
    return [parse_face_up(t, key, GAME) for t in card_list(obj, key)]


def position_from_json(obj: object) -> WindmillPosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    check_object(obj, KEYS, NUMBERINGS)
    ranks = int_field(obj, "ranks", 13, 1, 13)
    for key in ("cells", "centre"):
        if key not in obj:
            raise DealFileError(f"missing key \"{key}\"")
    cells_raw = card_list(obj, "cells")
    if "ranks" in obj:
        if not 1 <= len(cells_raw) <= CELLS:
            raise DealFileError(f"Windmill needs 1 to {CELLS} cells, this file has {len(cells_raw)}")
    elif len(cells_raw) != CELLS:
        raise DealFileError(f"Windmill needs {CELLS} cells, this file has {len(cells_raw)} (give \"ranks\" for a reduced game)")
    cells = [None if t is None else parse_face_up(t, f"C{i + 1}", GAME) for i, t in enumerate(cells_raw)]
    kings_raw = obj.get("king piles", [[] for _ in range(KING_PILES)])
    if not isinstance(kings_raw, list) or len(kings_raw) != KING_PILES or not all(isinstance(k, list) for k in kings_raw):
        raise DealFileError(f"\"king piles\" must be a list of {KING_PILES} lists of cards")
    kings = [[parse_face_up(t, f"K{k + 1}", GAME) for t in pile] for k, pile in enumerate(kings_raw)]
    flag = obj.get("after transfer", False)
    if not isinstance(flag, bool):
        raise DealFileError("\"after transfer\" must be true or false")
    position = WindmillPosition(stock=_cards(obj, "stock"), waste=_cards(obj, "waste"), cells=cells,
                                centre=_cards(obj, "centre"), kings=kings, ranks=ranks, after_transfer=flag)
    return validated(position, PositionError)


def position_to_json(position: WindmillPosition) -> dict:
    """The deal-file object for ``position`` ("ranks" only for a reduced game)."""
    obj: dict = {
        "stock": [card_token(c) for c in position.stock],
        "waste": [card_token(c) for c in position.waste],
        "cells": [None if c is None else card_token(c) for c in position.cells],
        "centre": [card_token(c) for c in position.centre],
        "king piles": [[card_token(c) for c in k] for k in position.kings],
    }
    if position.ranks != 13 or len(position.cells) != CELLS:
        obj["ranks"] = position.ranks
    if position.after_transfer:
        obj["after transfer"] = True
    return obj


def load_deal(path: str | Path) -> WindmillPosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    return load_with(path, position_from_json)


def dump_deal(position: WindmillPosition, path: str | Path) -> None:
    dump_with(position, path, position_to_json, piles_key="king piles", error=PositionError)
