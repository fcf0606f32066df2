"""What every game's deal files share: one-line errors, card tokens, reading and writing.

A deal file is JSON in Solvitaire's style (see each game's ``dealfile`` module for its
keys).  Cards are written ``10H``, ``AS``; read as a rank (``A``, ``2``..``10``, ``J``,
``Q``, ``K``, also ``T``) and a suit (``C D H S``); a lower-case suit means face down.
Numbers other than 2..10 are refused (``11H`` is not silently a Jack).  Every problem is a ``DealFileError`` whose message is one line that
names the file and the place, so the CLI can print it and exit 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .errors import OptionError
from .cards import RANKS, SUIT_NAMES, Card, CardError, parse_card_token
from .numbering import PYSOLFC, SOLVITAIRE
from .outputs import check_output, write_text
from .seeds import MAX_SEED
from .wholes import shown

P = TypeVar("P")


class DealFileError(ValueError):
    """A deal file that cannot be read; the message is one line naming the problem."""


class DealFileOptionError(DealFileError, OptionError):
    """A deal file that a rule option given beside it refuses (the option named as data)."""


class AnotherGamesDealFile(DealFileError):
    """A deal file that names another game: ``game`` (as data, for a front end to say
    how to solve it) and ``path``."""

    def __init__(self, message: str, game: str, path: str) -> None:
        super().__init__(message)
        self.game, self.path = game, path


def card_token(card: Card, face_down: bool = False) -> str:
    """Solvitaire spelling: ``10H``, ``AS``; face down: ``10h``."""
    text = card.solvitaire()
    return text[:-1] + text[-1].lower() if face_down else text


def parse_card(token: object, where: str) -> tuple[Card, bool]:
    """(card, face_up) from a token."""
    if not isinstance(token, str):
        raise DealFileError(f"{where}: a card must be a string like \"10H\", not {json.dumps(token)}")
    text = token.strip()
    digits = text[:-1]
    if digits.isascii() and digits.isdigit() and int(digits) in (1, 11, 12, 13):
        name = RANKS[int(digits) - 1] + text[-1]
        raise DealFileError(f"{where}: unknown card {json.dumps(token)} (ranks are A, 2..10, J, Q, K: write {name})")
    try:
        return parse_card_token(text)
    except CardError:
        raise DealFileError(f"{where}: unknown card {json.dumps(token)}") from None


def parse_face_up(token: object, where: str, game: str) -> Card:
    """A card of a game that has no face-down cards: a lower-case suit is refused."""
    card, up = parse_card(token, where)
    if not up:
        raise DealFileError(f"{where}: {json.dumps(token)} is face down (lower-case suit); {game} has no face-down cards")
    return card


# keys every game's deal file may carry: where the position comes from (``patience deal
# --json`` writes them; ``api.make_deal`` checks the game and takes the rules)
META_KEYS = ("game", "rules", "seed", "numbering")


def check_object(obj: object, keys: tuple[str, ...], numberings: tuple[str, ...] = (PYSOLFC, SOLVITAIRE)) -> dict:
    """The deal-file object, refusing anything but a JSON object with known keys, and a
    "numbering" or "seed" that could not have come from ``patience deal --json`` (one of
    the game's ``numberings``; a whole number, from 1 for PySolFC's game numbers)."""
    if not isinstance(obj, dict):
        raise DealFileError(f"a deal file must hold a JSON object, not {type(obj).__name__}")
    for key in obj:
        if key not in keys and key not in META_KEYS:
            raise DealFileError(f"unknown key {json.dumps(key)} (known keys: {', '.join(keys)})")
    numbering = obj.get("numbering")
    if numbering is not None and numbering not in numberings:
        raise DealFileError(f"\"numbering\" must be one of {', '.join(json.dumps(n) for n in numberings)}, "
                            f"not {json.dumps(numbering)}")
    seed = obj.get("seed")
    if seed is not None:
        low = 0 if numbering == "solvitaire" else 1  # PySolFC has no game 0
        if isinstance(seed, bool) or not isinstance(seed, int) or not low <= seed <= MAX_SEED:
            raise DealFileError(f"\"seed\" must be a whole number from {low} to {MAX_SEED} (the deal's number), "
                                f"not {shown(json.dumps(seed))}")
    return obj


def card_list(obj: dict, key: str, default: Any = ()) -> list:
    """obj[key] (``default`` if absent), which must be a list."""
    value = obj.get(key, list(default))
    if not isinstance(value, list):
        raise DealFileError(f"\"{key}\" must be a list of cards")
    return value


def int_field(obj: dict, key: str, default: int, low: int, high: int) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DealFileError(f"\"{key}\" must be an integer from {low} to {high}, not {json.dumps(value)}")
    return value


STDIN = "-"  # the path that means standard input
_stdin_text: str | None = None  # standard input is read once and kept: a deal is loaded more than once


def _text(path: str | Path) -> str:
    global _stdin_text
    if str(path) == STDIN:
        if _stdin_text is None:
            _stdin_text = sys.stdin.buffer.read().decode("utf-8-sig")
        return _stdin_text
    return Path(path).read_text(encoding="utf-8-sig")  # a byte-order mark is allowed


def read_json(path: str | Path) -> Any:
    """The parsed JSON of a file ('-': standard input); a missing, unreadable or non-JSON
    file is a DealFileError."""
    name = "standard input" if str(path) == STDIN else path
    try:
        text = _text(path)
    except OSError as e:
        raise DealFileError(f"{name}: cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise DealFileError(f"{name}: not a UTF-8 text file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DealFileError(f"{name}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise DealFileError(f"{name}: JSON nested too deeply to be a deal file") from None
    except ValueError:  # Python's limit on the digits of an int (4,300), not a JSON error
        raise DealFileError(f"{name}: a number in the file has too many digits to be part of a deal") from None


def validated(position: P, error: type[Exception]) -> P:
    """``position`` if its ``validate()`` passes; its complaint (an ``error``) as a
    one-line DealFileError otherwise."""
    try:
        position.validate()
    except error as e:
        raise DealFileError(str(e)) from None
    return position


def load_with(path: str | Path, from_json: Callable[[Any], P]) -> P:
    """Read a deal file and build a position with ``from_json``; errors name the file."""
    obj = read_json(path)
    try:
        return from_json(obj)
    except DealFileError as e:
        raise DealFileError(f"{'standard input' if str(path) == STDIN else path}: {e}") from None


def dump_with(position: Any, path: str | Path, to_json: Callable[[Any], dict], piles_key: str = "tableau piles",
              error: type[Exception] = ValueError) -> None:
    """Write ``to_json(position)`` with one pile per line (as Solvitaire's example files).

    The position is validated first (``error`` is what its ``validate`` raises): a file
    this project writes is always one it will read back.  The file is written atomically
    and never over an SQLite database (solver.core.outputs).
    """
    try:
        position.validate()
    except error as e:
        raise DealFileError(f"not a valid position: {e}") from None
    obj = to_json(position)
    lines = ["{"]
    rest = []
    for key, value in obj.items():
        if key == piles_key:
            inner = [f"    {json.dumps(p)}" for p in value]
            rest.append(f"  {json.dumps(key)}: [\n" + ",\n".join(inner) + "\n  ]")
        else:
            rest.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    lines.append(",\n".join(rest))
    lines.append("}")
    check_output(path)
    write_text(path, "\n".join(lines) + "\n")


def pile_lists(obj: dict, game: str, piles: int, key: str = "tableau piles") -> list[list]:
    """The raw token lists of ``key``: exactly ``piles`` of them, or 1..piles when the
    file gives "ranks" (a reduced game may have fewer piles)."""
    if key not in obj:
        raise DealFileError(f"missing key \"{key}\"")
    value = obj[key]
    if not isinstance(value, list) or not all(isinstance(p, list) for p in value):
        raise DealFileError(f"\"{key}\" must be a list of lists of cards")
    if "ranks" in obj:
        if not 1 <= len(value) <= piles:
            raise DealFileError(f"{game} needs 1 to {piles} {key}, this file has {len(value)}")
    elif len(value) != piles:
        raise DealFileError(
            f"{game} needs {piles} {key}, this file has {len(value)} (give \"ranks\" for a reduced game)"
        )
    return value


def suit_foundations(obj: dict, default: list[str] | None = None) -> list[int]:
    """Heights of four by-suit foundations (C, D, H, S) from "foundations".

    The value is a flat list of cards, each put on its suit's foundation in order (an
    older Solvitaire form, a list of 4 lists, is accepted too); each suit must come
    A, 2, 3, ... in order.
    """
    found = obj.get("foundations", list(default or []))
    if isinstance(found, list) and found and all(isinstance(f, list) for f in found):
        found = [c for f in found for c in f]  # the older list-of-lists form
    if not isinstance(found, list):
        raise DealFileError("\"foundations\" must be a list of cards")
    heights = [0, 0, 0, 0]
    for token in found:
        card, _ = parse_card(token, "foundations")
        height = heights[card.suit]
        if card.rank <= height:
            raise DealFileError(f"duplicate card {card} (foundations)")
        if card.rank != height + 1:
            raise DealFileError(
                f"foundations: {card} cannot go on the {SUIT_NAMES[card.suit]} foundation before "
                f"{Card(height + 1, card.suit)}"
            )
        heights[card.suit] = card.rank
    return heights


def suit_foundation_tokens(heights: list[int]) -> list[str]:
    """The "foundations" value for by-suit foundation heights (C, D, H, S)."""
    return [card_token(Card(rank, suit)) for suit in range(4) for rank in range(1, heights[suit] + 1)]
