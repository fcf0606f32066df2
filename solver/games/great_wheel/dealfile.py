"""Great Wheel deal files: JSON in the style of the other games' (Solvitaire's) files.

    {
      "tableau piles": [["6D", "JH", "QH", "5C"], ...],
      "stock": ["TC", "3S", ...],
      "waste": ["4C"],
      "aces": ["AS", "AD"],
      "evens": [["2H", "4H"], ["2C"]],
      "odds": [["3D"]],
      "ranks": 12,
      "fill": 4
    }

- every list runs bottom to top: the last card of a pile is its top (playable) card;
  the last card of "stock" is turned next;
- cards as in every deal file of the project (``10H``, ``AS``; ``T``, ``1``..``13`` also
  read); a lower-case suit (face down) is refused: Great Wheel has no face-down cards;
- "tableau piles" is required: 8 piles (1 to 8 with "ranks" or "fill");
- "stock", "waste", "aces" default to empty; "evens" and "odds" are lists of at most 8
  piles (E1.. / O1..; missing piles are empty): an Evens pile is 2, 4, ... of one suit
  from the bottom, an Odds pile 3, 5, ...; the Aces alternate in colour;
- "ranks" (1..12, default 12) is a reduced deck A..ranks of both decks; "fill" (1..4,
  default 4) is the number of cards a refill gives (a reduced game's pile size);
- the cards must be the two decks exactly: each card twice (a missing or third copy is
  named); the waste may not be empty while the stock has cards and no tableau pile may
  be empty while stock or waste have cards (the game's automatic actions would have
  acted: see position.py).
"""

from __future__ import annotations

from pathlib import Path

from ...core.dealfile import (validated, DealFileError, card_list, card_token, check_object, dump_with, int_field, load_with,
                         parse_face_up)
from .deals import NUMBERINGS
from .position import FILL, FOUNDATION_PILES, FULL_RANKS, PILES, GWPosition, PositionError

KEYS = ("tableau piles", "stock", "waste", "aces", "evens", "odds", "ranks", "fill")
GAME = "Great Wheel"


def _cards(tokens: list, where: str) -> list:
    return [parse_face_up(t, where, GAME) for t in tokens]


def _piles(obj: dict, key: str, letter: str, low: int, high: int) -> list[list]:
    piles = obj.get(key, [])
    if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
        raise DealFileError(f"\"{key}\" must be a list of lists of cards")
    if not low <= len(piles) <= high:
        raise DealFileError(f"\"{key}\" must have {low} to {high} piles, not {len(piles)}")
    return [_cards(p, f"{letter}{i + 1}") for i, p in enumerate(piles)]


def position_from_json(obj: object) -> GWPosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    obj = check_object(obj, KEYS, NUMBERINGS)
    ranks = int_field(obj, "ranks", FULL_RANKS, 1, FULL_RANKS)
    fill = int_field(obj, "fill", FILL, 1, FILL)
    if "tableau piles" not in obj:
        raise DealFileError("missing key \"tableau piles\"")
    reduced = "ranks" in obj or "fill" in obj
    tableau = _piles(obj, "tableau piles", "T", 1 if reduced else PILES, PILES)
    evens = _piles(obj, "evens", "E", 0, FOUNDATION_PILES)
    odds = _piles(obj, "odds", "O", 0, FOUNDATION_PILES)
    evens += [[] for _ in range(FOUNDATION_PILES - len(evens))]
    odds += [[] for _ in range(FOUNDATION_PILES - len(odds))]
    position = GWPosition(tableau, _cards(card_list(obj, "stock"), "stock"), _cards(card_list(obj, "waste"), "waste"),
                          _cards(card_list(obj, "aces"), "aces"), evens, odds, ranks, fill)
    return validated(position, PositionError)


def position_to_json(position: GWPosition) -> dict:
    """The deal-file object for ``position`` ("ranks"/"fill" only for a reduced game)."""
    obj: dict = {
        "tableau piles": [[card_token(c) for c in p] for p in position.tableau],
        "stock": [card_token(c) for c in position.stock],
        "waste": [card_token(c) for c in position.waste],
        "aces": [card_token(c) for c in position.aces],
        "evens": [[card_token(c) for c in p] for p in position.evens],
        "odds": [[card_token(c) for c in p] for p in position.odds],
    }
    if position.ranks != FULL_RANKS or len(position.tableau) != PILES or position.fill != FILL:
        obj["ranks"] = position.ranks
        obj["fill"] = position.fill
    return obj


def load_deal(path: str | Path) -> GWPosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    return load_with(path, position_from_json)


def dump_deal(position: GWPosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one tableau pile per line."""
    dump_with(position, path, position_to_json, error=PositionError)
