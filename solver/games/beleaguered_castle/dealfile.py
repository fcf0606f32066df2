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

import json
from pathlib import Path

from ...cards import RANKS, SUIT_NAMES, Card, CardError, parse_card_token
from .position import PILES, BCPosition, PositionError

KEYS = ("tableau piles", "foundations", "ranks")


class DealFileError(ValueError):
    """A deal file that cannot be read; the message is one line naming the problem."""


def _token(card: Card) -> str:
    return card.solvitaire()  # "10H", "AS"


def _parse(token: object, where: str) -> Card:
    if not isinstance(token, str):
        raise DealFileError(f"{where}: a card must be a string like \"10H\", not {json.dumps(token)}")
    text = token.strip()
    digits = text[:-1]
    if digits.isascii() and digits.isdigit() and 1 <= int(digits) <= 13:
        text = RANKS[int(digits) - 1] + text[-1]  # "1H" -> "AH", "12H" -> "QH"
    try:
        card, upper = parse_card_token(text)
    except CardError:
        raise DealFileError(f"{where}: unknown card {json.dumps(token)}") from None
    if not upper:
        raise DealFileError(
            f"{where}: {json.dumps(token)} is face down (lower-case suit); Beleaguered Castle has no face-down cards"
        )
    return card


def position_from_json(obj: object) -> BCPosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    if not isinstance(obj, dict):
        raise DealFileError(f"a deal file must hold a JSON object, not {type(obj).__name__}")
    for key in obj:
        if key not in KEYS:
            raise DealFileError(f"unknown key {json.dumps(key)} (known keys: {', '.join(KEYS)})")
    ranks = obj.get("ranks", 13)
    if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 13:
        raise DealFileError(f"\"ranks\" must be an integer from 1 to 13, not {json.dumps(ranks)}")

    if "tableau piles" not in obj:
        raise DealFileError("missing key \"tableau piles\"")
    piles = obj["tableau piles"]
    if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
        raise DealFileError("\"tableau piles\" must be a list of lists of cards")
    if "ranks" in obj:
        if not 1 <= len(piles) <= PILES:
            raise DealFileError(f"Beleaguered Castle needs 1 to {PILES} tableau piles, this file has {len(piles)}")
    elif len(piles) != PILES:
        raise DealFileError(
            f"Beleaguered Castle needs {PILES} tableau piles, this file has {len(piles)}"
            " (give \"ranks\" for a reduced game)"
        )
    tableau = [[_parse(t, f"T{i + 1}") for t in pile] for i, pile in enumerate(piles)]

    found = obj.get("foundations", [Card(1, s).solvitaire() for s in range(4)])
    if isinstance(found, list) and found and all(isinstance(f, list) for f in found):
        found = [c for f in found for c in f]  # the older list-of-lists form
    if not isinstance(found, list):
        raise DealFileError("\"foundations\" must be a list of cards")
    foundations = [0, 0, 0, 0]
    for token in found:
        card = _parse(token, "foundations")
        height = foundations[card.suit]
        if card.rank <= height:
            raise DealFileError(f"duplicate card {card} (foundations)")
        if card.rank != height + 1:
            raise DealFileError(
                f"foundations: {card} cannot go on the {SUIT_NAMES[card.suit]} foundation before "
                f"{Card(height + 1, card.suit)}"
            )
        foundations[card.suit] = card.rank

    position = BCPosition(tableau, foundations, ranks)
    try:
        position.validate()
    except PositionError as e:
        raise DealFileError(str(e)) from None
    return position


def position_to_json(position: BCPosition) -> dict:
    """The deal-file object for ``position`` ("ranks" only for a reduced game)."""
    obj: dict = {
        "tableau piles": [[_token(c) for c in pile] for pile in position.tableau],
        "foundations": [
            _token(Card(rank, suit)) for suit in range(4) for rank in range(1, position.foundations[suit] + 1)
        ],
    }
    if position.ranks != 13 or len(position.tableau) != PILES:
        obj["ranks"] = position.ranks
    return obj


def load_deal(path: str | Path) -> BCPosition:
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


def dump_deal(position: BCPosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one tableau pile per line."""
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
