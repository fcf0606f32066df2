"""Numbered Klondike deals, laid out exactly as PySolFC or Solvitaire lays them out.

PySolFC (games 2, 18, 129 and 61 share one deal per game number; ``klondike.py``
``Klondike.startGame``): six face-down rounds, round i (1..6) giving one card to each
of piles i..7 from right to left; then one face-up card to each pile, right to left;
then ``talon.dealCards()`` turns ``num_deal`` cards (``min(num_deal, stock)``) to the
waste one at a time.  ``num_deal`` is 1 for Klondike, Vegas and Casino Klondike and 3
for Klondike by Threes (game 18), so a draw-3 deal starts with three waste cards, the
third one turned on top.  ``draw`` plays that role here.

Solvitaire (``game_state.cpp``): 24 stock cards are taken from the end of the shuffled
vector (the first one taken lies at the bottom of the stock), then the tableau row by
row, each row right to left over the piles that still need cards.  Nothing is turned
to the waste, so ``draw`` does not change a Solvitaire deal.
"""

from __future__ import annotations

from ...core.numbering import PYSOLFC, SOLVITAIRE, pysolfc_shuffled_cards, solvitaire_shuffled_cards
from .position import KlondikePosition

NUMBERINGS = (PYSOLFC, SOLVITAIRE)
PILES = 7


def klondike_deal(seed: int, numbering: str = PYSOLFC, draw: int = 1) -> KlondikePosition:
    """The Klondike deal that ``numbering`` ("pysolfc" or "solvitaire") calls ``seed``.

    ``seed`` is a PySolFC game number (1 and up) or a Solvitaire seed (0 and up);
    ``draw`` is the number of cards the stock turns at a time.
    """
    if not 1 <= draw <= 24:
        raise ValueError(f"draw must be between 1 and 24, not {draw}")
    if numbering == PYSOLFC:
        position = _pysolfc_deal(seed, draw)
    elif numbering == "solvitaire":
        position = _solvitaire_deal(seed)
    else:
        raise ValueError(f"unknown deal numbering {numbering!r}; expected one of {', '.join(NUMBERINGS)}")
    position.validate()
    return position


def _pysolfc_deal(game_number: int, draw: int) -> KlondikePosition:
    talon = pysolfc_shuffled_cards(game_number)  # talon[-1] is dealt first
    piles: list[list] = [[] for _ in range(PILES)]
    for first in range(1, PILES):  # face-down rounds: piles first..6, right to left
        for i in reversed(range(first, PILES)):
            piles[i].append(talon.pop())
    for i in reversed(range(PILES)):  # the face-up round
        piles[i].append(talon.pop())
    waste = [talon.pop() for _ in range(min(draw, len(talon)))]
    return KlondikePosition(piles, list(range(PILES)), stock=talon, waste=waste)


def _solvitaire_deal(seed: int) -> KlondikePosition:
    deck = solvitaire_shuffled_cards(seed)  # dealt from the end
    stock = [deck.pop() for _ in range(52 - PILES * (PILES + 1) // 2)]
    piles: list[list] = [[] for _ in range(PILES)]
    for row in range(PILES):
        for i in reversed(range(row, PILES)):
            piles[i].append(deck.pop())
    return KlondikePosition(piles, list(range(PILES)), stock=stock)
