"""Numbered Beleaguered Castle deals, laid out exactly as PySolFC or Solvitaire lays them out.

PySolFC (game 34, ``pysollib/games/beleagueredcastle.py``): the deck is shuffled as for
every PySolFC game (``numbering.pysolfc_shuffled_cards``), then ``_shuffleHook`` moves
the four Aces to the bottom of the talon (``_shuffleHookMoveToBottom``; the other 48
cards keep their order) so that they are dealt last, to the foundations.
``startGame`` deals six rounds of ``dealRow()``: one card to each of ``s.rows[0..7]``
in order, popping the talon's top (the end of the shuffled list).  ``s.rows[0..3]`` is
the left wing from top to bottom, ``s.rows[4..7]`` the right wing: our T1..T8.  The
PyPI package pysol-cards deals the same layout (tests compare with it).

Solvitaire (``game_state.cpp``, rules ``beleaguered-castle.json``: 8 piles, any-suit
building, ``"foundations": {"initial cards": "all"}``): the four Aces are erased from
the shuffled vector (the rest keep their order) and put on the foundations; then card
t = 0, 1, ... of the deal is taken from the back of the vector and goes to pile t mod 8
(row by row, left to right).
"""

from __future__ import annotations

from ...core.cards import Card
from ...core.numbering import PYSOLFC, SOLVITAIRE, pysolfc_shuffled_cards, solvitaire_shuffled_cards
from .position import PILES, BCPosition

NUMBERINGS = (PYSOLFC, SOLVITAIRE)
ROUNDS = 6


def bc_deal(seed: int, numbering: str = PYSOLFC) -> BCPosition:
    """The Beleaguered Castle deal that ``numbering`` ("pysolfc" or "solvitaire") calls ``seed``.

    ``seed`` is a PySolFC game number (1 and up) or a Solvitaire seed (0 and up).
    """
    if numbering == PYSOLFC:
        cards = pysolfc_shuffled_cards(seed)  # cards[-1] is dealt first
    elif numbering == "solvitaire":
        cards = solvitaire_shuffled_cards(seed)  # dealt from the end too
    else:
        raise ValueError(f"unknown deal numbering {numbering!r}; expected one of {', '.join(NUMBERINGS)}")
    position = deal_from(cards)
    position.validate()
    return position


def deal_from(cards: list[Card]) -> BCPosition:
    """Deal a shuffled list (last element first): Aces to the foundations, the rest row by row."""
    rest = [c for c in cards if c.rank != 1]
    piles: list[list[Card]] = [[] for _ in range(PILES)]
    for _ in range(ROUNDS):
        for pile in piles:
            pile.append(rest.pop())
    assert not rest
    return BCPosition(piles, [1, 1, 1, 1])
