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
  face down (``10d``), which must come below all face-up cards of the pile; waste
  cards are face up (a lower-case suit there is refused), stock cards either way;
- "foundations" is a flat list of cards, each put on its suit's foundation in order
  (an older Solvitaire form, a list of 4 lists, is accepted too);
- only "tableau piles" is required; Solvitaire's rules file gives the number of piles
  (7 for Klondike).  Our own optional keys: "redeals" (waste turns already made, for
  limited passes) and "ranks" (a reduced deck A..ranks).  A file with "ranks" may
  have 1 to 7 piles, so "ranks" is also written for a full deck on fewer piles.
"""

from __future__ import annotations

from pathlib import Path

from ...core.dealfile import (validated, DealFileError, card_list, card_token, check_object, dump_with, int_field, load_with,
                         parse_card, pile_lists, suit_foundation_tokens, suit_foundations)
from .position import KlondikePosition, PositionError

__all__ = ["DealFileError", "position_from_json", "position_to_json", "load_deal", "dump_deal"]

KEYS = ("tableau piles", "stock", "waste", "foundations", "redeals", "ranks")


def position_from_json(obj: object) -> KlondikePosition:
    """Build and validate a position from a parsed deal file; DealFileError if invalid."""
    check_object(obj, KEYS)
    ranks = int_field(obj, "ranks", 13, 1, 13)
    redeals = int_field(obj, "redeals", 0, 0, 1_000_000)

    # Tableau: leading face-down (lower-case suit) cards, then face-up ones.
    piles = pile_lists(obj, "Klondike", 7)
    tableau, face_down = [], []
    for i, pile in enumerate(piles):
        name = f"T{i + 1}"
        cards, down = [], 0
        for token in pile:
            card, face_up = parse_card(token, name)
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

    stock = [parse_card(t, "stock")[0] for t in card_list(obj, "stock")]
    waste = []
    for token in card_list(obj, "waste"):
        card, face_up = parse_card(token, "waste")
        if not face_up:
            raise DealFileError(f"waste: {token} is face down (lower-case suit); waste cards are face up")
        waste.append(card)

    foundations = suit_foundations(obj)

    return validated(KlondikePosition(tableau, face_down, stock, waste, foundations, redeals, ranks), PositionError)


def position_to_json(position: KlondikePosition) -> dict:
    """The deal-file object for ``position`` ("redeals"/"ranks" only when not default)."""
    obj: dict = {
        "tableau piles": [
            [card_token(c, face_down=j < position.face_down[i]) for j, c in enumerate(pile)]
            for i, pile in enumerate(position.tableau)
        ],
        "stock": [card_token(c) for c in position.stock],
        "waste": [card_token(c) for c in position.waste],
        "foundations": suit_foundation_tokens(position.foundations),
    }
    if position.redeals:
        obj["redeals"] = position.redeals
    if position.ranks != 13 or len(position.tableau) != 7:
        obj["ranks"] = position.ranks  # also lets a 13-rank game with fewer piles load back
    return obj


def load_deal(path: str | Path) -> KlondikePosition:
    """Read a deal file; every problem is a one-line DealFileError naming the file."""
    return load_with(path, position_from_json)


def dump_deal(position: KlondikePosition, path: str | Path) -> None:
    """Write ``position`` as a deal file, one tableau pile per line like Solvitaire's examples."""
    dump_with(position, path, position_to_json, error=PositionError)
