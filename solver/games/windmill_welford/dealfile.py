"""Deal files of Welford's Windmill: JSON in the style of the project's other games.

    {
      "sails": [["4D", "3D"], ["6S", "AD"], ["2S", "5C"], ["6C", "QC"]],
      "centre": 1,
      "kings": [[], [], [], []],
      "stock": ["2H", "4C", ..., "3C"],
      "waste": [],
      "pack1": 43,
      "redeals": 0
    }

- every list runs bottom to top: a sail is ``[inner, outer]`` (the outer card is
  playable; one card = only the inner cell is filled), ``stock[-1]`` is dealt next,
  ``waste[-1]`` is its playable top, a king pile starts with its King;
- "centre" is the NUMBER of cards on the centre (1..4*ranks): its cards never leave and
  suits never matter, so the cards not found elsewhere are the centre's (their ranks
  must be those of A, 2, .. in order, which is checked);
- "pack1": how many cards at the top of the stock still belong to pack 1 (the Queen cap
  holds while it is above 0); "redeals": 1 once the waste has been turned over;
- "sails" and "stock" are required; "kings" (default four empty piles), "waste" ([]),
  "centre" (1), "pack1" (0), "redeals" (0) and "ranks" (13, a reduced deck A..ranks)
  are optional.  1 to 4 sails (fewer only in reduced games for tests).
- cards: ``10H``/``TH``, ``AS``; lower-case suits (face down) are refused: nothing is
  face down in this game.
"""

from __future__ import annotations

from pathlib import Path

from ...core.dealfile import validated, DealFileError, card_list, check_object, dump_with, int_field, load_with, parse_face_up, card_token
from .deals import NUMBERINGS
from .position import KING_PILES, SAILS, WelfordPosition, WelfordPositionError

KEYS = ("sails", "centre", "kings", "stock", "waste", "pack1", "redeals", "ranks")
GAME = "Windmill"


def _cards(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise DealFileError(f"{where} must be a list of cards")
    return [parse_face_up(t, where, GAME) for t in value]


def position_from_json(obj: object) -> WelfordPosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    obj = check_object(obj, KEYS, NUMBERINGS)
    for key in ("sails", "stock"):
        if key not in obj:
            raise DealFileError(f"missing key \"{key}\"")
    ranks = int_field(obj, "ranks", 13, 2, 13)
    sails = obj["sails"]
    if not isinstance(sails, list) or not 1 <= len(sails) <= SAILS:
        raise DealFileError(f"\"sails\" must be a list of 1 to {SAILS} sails (lists of at most 2 cards)")
    sail_cards = [_cards(s, f"sail {i + 1}") for i, s in enumerate(sails)]
    kings = obj.get("kings", [[] for _ in range(KING_PILES)])
    if not isinstance(kings, list) or len(kings) != KING_PILES:
        raise DealFileError(f"\"kings\" must be a list of {KING_PILES} king piles")
    king_cards = [_cards(k, f"K{j + 1}") for j, k in enumerate(kings)]
    stock = [parse_face_up(t, "stock", GAME) for t in card_list(obj, "stock")]
    waste = [parse_face_up(t, "waste", GAME) for t in card_list(obj, "waste")]
    centre = int_field(obj, "centre", 1, 1, 4 * ranks)
    pack1 = int_field(obj, "pack1", 0, 0, len(stock))
    redeals = int_field(obj, "redeals", 0, 0, 1)
    position = WelfordPosition(sail_cards, centre, king_cards, stock, waste, pack1, redeals, ranks)
    return validated(position, WelfordPositionError)


def position_to_json(position: WelfordPosition) -> dict:
    obj: dict = {
        "sails": [[card_token(c) for c in s] for s in position.sails],
        "centre": position.centre,
        "kings": [[card_token(c) for c in k] for k in position.kings],
        "stock": [card_token(c) for c in position.stock],
        "waste": [card_token(c) for c in position.waste],
        "pack1": position.pack1,
        "redeals": position.redeals,
    }
    if position.ranks != 13:
        obj["ranks"] = position.ranks
    return obj


def load_deal(path: str | Path) -> WelfordPosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    return load_with(path, position_from_json)


def dump_deal(position: WelfordPosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one sail per line."""
    if position.refilling:
        raise DealFileError("not a valid position: it is in the middle of a refill")
    dump_with(position, path, position_to_json, piles_key="sails", error=WelfordPositionError)
