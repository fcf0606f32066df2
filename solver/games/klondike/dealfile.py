"""Klondike deal files: Solvitaire's JSON deal format, so any position can be solved.

The format follows Solvitaire (thecharlieblake/Solvitaire, the schema in
``src/main/input-output/input/json-parsing/deal_parser.cpp`` and the example deals in
``src/test/resources/klondike/``)::

    {
      "tableau piles": [["9C"], ["10d", "JH"], ["4h", "7c", "4C"], ...],
      "stock": ["2C", "3S", ..., "JD"],
      "waste": [],
      "foundations": ["AC", "2C", "AH"]
    }

- every list runs bottom to top: the last stock card is drawn first, the last waste
  card is the playable one, the last card of a tableau pile is its top card;
- a card is a rank (``A``, ``2``..``10``, ``J``, ``Q``, ``K``; also ``T`` and ``1``..``13``)
  and a suit (``C D H S``), in either case; in a tableau pile a lower-case suit means
  face down (``10d``), which must come below all face-up cards of the pile;
- "foundations" is a flat list of cards, each put on its suit's foundation in order
  (an older Solvitaire form, a list of 4 lists, is accepted too);
- only "tableau piles" is required; Solvitaire's rules file gives the number of piles
  (7 for Klondike).  Our own optional keys: "redeals" (waste turns already made, for
  limited passes) and "ranks" (a reduced deck A..ranks).  A file with "ranks" may
  have 1 to 7 piles, so "ranks" is also written for a full deck on fewer piles.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...cards import RANKS, SUIT_NAMES, Card, CardError, parse_card_token
from .position import KlondikePosition, PositionError


class DealFileError(ValueError):
    """A deal file that cannot be read; the message is one line naming the problem."""


KEYS = ("tableau piles", "stock", "waste", "foundations", "redeals", "ranks")


def _token(card: Card, face_down: bool = False) -> str:
    """Solvitaire spelling: ``10H``, ``AS``; face down: ``10h``."""
    text = card.solvitaire()
    return text[:-1] + text[-1].lower() if face_down else text


def _parse(token: object, where: str) -> tuple[Card, bool]:
    """(card, face_up) from a token; digits 1..13 are accepted as ranks like Solvitaire."""
    if not isinstance(token, str):
        raise DealFileError(f"{where}: a card must be a string like \"10H\", not {json.dumps(token)}")
    text = token.strip()
    digits = text[:-1]
    if digits.isascii() and digits.isdigit() and 1 <= int(digits) <= 13:
        text = RANKS[int(digits) - 1] + text[-1]  # "1H" -> "AH", "12H" -> "QH"
    try:
        return parse_card_token(text)
    except CardError:
        raise DealFileError(f"{where}: unknown card {json.dumps(token)}") from None


def _card_list(obj: dict, key: str) -> list:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise DealFileError(f"\"{key}\" must be a list of cards")
    return value


def _int(obj: dict, key: str, default: int, low: int, high: int) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DealFileError(f"\"{key}\" must be an integer from {low} to {high}, not {json.dumps(value)}")
    return value


def position_from_json(obj: object) -> KlondikePosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    if not isinstance(obj, dict):
        raise DealFileError(f"a deal file must hold a JSON object, not {type(obj).__name__}")
    for key in obj:
        if key not in KEYS:
            raise DealFileError(f"unknown key {json.dumps(key)} (known keys: {', '.join(KEYS)})")
    ranks = _int(obj, "ranks", 13, 1, 13)
    redeals = _int(obj, "redeals", 0, 0, 1_000_000)

    # Tableau: leading face-down (lower-case suit) cards, then face-up ones.
    if "tableau piles" not in obj:
        raise DealFileError("missing key \"tableau piles\"")
    piles = obj["tableau piles"]
    if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
        raise DealFileError("\"tableau piles\" must be a list of lists of cards")
    if "ranks" in obj:
        if not 1 <= len(piles) <= 7:
            raise DealFileError(f"Klondike needs 1 to 7 tableau piles, this file has {len(piles)}")
    elif len(piles) != 7:
        raise DealFileError(
            f"Klondike needs 7 tableau piles, this file has {len(piles)} (give \"ranks\" for a reduced game)"
        )
    tableau, face_down = [], []
    for i, pile in enumerate(piles):
        name = f"T{i + 1}"
        cards, down = [], 0
        for token in pile:
            card, face_up = _parse(token, name)
            if not face_up:
                if down < len(cards):
                    raise DealFileError(
                        f"{name}: face-down {token} lies on face-up {cards[-1]}"
                        " (face-down cards go at the bottom)"
                    )
                down += 1
            cards.append(card)
        tableau.append(cards)
        face_down.append(down)

    stock = [_parse(t, "stock")[0] for t in _card_list(obj, "stock")]
    waste = [_parse(t, "waste")[0] for t in _card_list(obj, "waste")]

    # Foundations: cards of each suit must come in order A, 2, 3, ...
    found = obj.get("foundations", [])
    if isinstance(found, list) and found and all(isinstance(f, list) for f in found):
        found = [c for f in found for c in f]  # the older list-of-lists form
    if not isinstance(found, list):
        raise DealFileError("\"foundations\" must be a list of cards")
    foundations = [0, 0, 0, 0]
    for token in found:
        card, _ = _parse(token, "foundations")
        height = foundations[card.suit]
        if card.rank <= height:
            raise DealFileError(f"duplicate card {card} (foundations)")
        if card.rank != height + 1:
            raise DealFileError(
                f"foundations: {card} cannot go on the {SUIT_NAMES[card.suit]} foundation before "
                f"{Card(height + 1, card.suit)}"
            )
        foundations[card.suit] = card.rank

    position = KlondikePosition(tableau, face_down, stock, waste, foundations, redeals, ranks)
    try:
        position.validate()
    except PositionError as e:
        raise DealFileError(str(e)) from None
    return position


def position_to_json(position: KlondikePosition) -> dict:
    """The deal-file object for ``position`` ("redeals"/"ranks" only when not default)."""
    obj: dict = {
        "tableau piles": [
            [_token(c, face_down=j < position.face_down[i]) for j, c in enumerate(pile)]
            for i, pile in enumerate(position.tableau)
        ],
        "stock": [_token(c) for c in position.stock],
        "waste": [_token(c) for c in position.waste],
        "foundations": [
            _token(Card(rank, suit)) for suit in range(4) for rank in range(1, position.foundations[suit] + 1)
        ],
    }
    if position.redeals:
        obj["redeals"] = position.redeals
    if position.ranks != 13 or len(position.tableau) != 7:
        obj["ranks"] = position.ranks  # also lets a 13-rank game with fewer piles load back
    return obj


def load_deal(path: str | Path) -> KlondikePosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise DealFileError(f"{path}: cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise DealFileError(f"{path}: not a UTF-8 text file") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise DealFileError(f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    try:
        return position_from_json(obj)
    except DealFileError as e:
        raise DealFileError(f"{path}: {e}") from None


def dump_deal(position: KlondikePosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one tableau pile per line like Solvitaire's examples."""
    try:
        position.validate()  # never write a file we would refuse to read
    except PositionError as e:
        raise DealFileError(f"not a valid position: {e}") from None
    obj = position_to_json(position)
    lines = ["{", '  "tableau piles": [']
    piles = obj["tableau piles"]
    for i, pile in enumerate(piles):
        lines.append("    " + json.dumps(pile) + ("," if i + 1 < len(piles) else ""))
    lines.append("  ],")
    rest = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in obj.items() if k != "tableau piles"]
    lines.append(",\n".join(rest))
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
