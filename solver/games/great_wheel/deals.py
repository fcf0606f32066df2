"""Numbered Great Wheel deals, laid out exactly as PySolFC lays out game 397.

PySolFC (``pysollib/games/picturegallery.py``, class ``GreatWheel``, registered with
``ranks=list(range(12))``: no Kings): the 96 cards are created deck by deck, suits
Clubs, Spades, Hearts, Diamonds, ranks A..Q, and shuffled as for every PySolFC game
(``numbering.pysolfc_shuffled_cards(n, decks=2, ranks=12)``: no MS rearrangement, which
only applies to 52 cards; no ``_shuffleHook``).  ``startGame`` deals
``1 + decks`` = 3 rounds of ``dealRow()`` and a fourth ``dealRow()``: each round one
card to each of ``s.rows[0..7]`` (our T1..T8) in order, popping the talon's top (the
end of the shuffled list); then ``dealCards()`` turns one card onto the waste.  The
other 63 cards stay in the stock, the end of the list on top.

``reduced_deal`` makes the small random deals of the brute-force tests (Python's
``random.Random(seed)``; not a PySolFC numbering).
"""

from __future__ import annotations

import random

from ...core.cards import Card
from ...core.numbering import PYSOLFC, pysolfc_shuffled_cards
from .position import FILL, FULL_RANKS, PILES, GWPosition, deck

NUMBERINGS = (PYSOLFC,)


def deal_from(cards: list[Card], npiles: int = PILES, fill: int = FILL, ranks: int = FULL_RANKS) -> GWPosition:
    """Deal a shuffled list (last element first): ``fill`` rounds to the piles, one card
    to the waste, the rest stays in the stock (same order, last element on top)."""
    talon = list(cards)
    piles: list[list[Card]] = [[] for _ in range(npiles)]
    for _ in range(fill):
        for pile in piles:
            if talon:
                pile.append(talon.pop())
    waste = [talon.pop()] if talon else []
    return GWPosition(piles, talon, waste, ranks=ranks, fill=fill)


def gw_deal(seed: int, numbering: str = PYSOLFC) -> GWPosition:
    """The Great Wheel deal that PySolFC calls game number ``seed`` (1 and up)."""
    if numbering != PYSOLFC:
        raise ValueError(f"unknown deal numbering {numbering!r}; expected one of {', '.join(NUMBERINGS)}")
    position = deal_from(pysolfc_shuffled_cards(seed, decks=2, ranks=FULL_RANKS))
    position.validate()
    return position


def reduced_deal(seed: int, ranks: int, npiles: int, fill: int) -> GWPosition:
    """A random deal of the reduced game with ranks A..ranks (both decks)."""
    cards = deck(ranks)
    random.Random(seed).shuffle(cards)
    position = deal_from(cards, npiles, fill, ranks)
    position.validate()
    return position


def endgame_deal(seed: int, out: int, npiles: int, fill: int, ranks: int = FULL_RANKS) -> GWPosition:
    """A random late position for brute-force tests: all cards start on the foundations,
    then ``out`` times the top card of a random non-empty foundation pile is taken off;
    those cards are shuffled and dealt like a new game (``fill`` to each of ``npiles``
    piles, one to the waste, the rest to the stock).  Its state space is small although
    it uses the whole deck's rules (building, two-deck foundation choices)."""
    rng = random.Random(seed)
    red = [Card(1, s) for s in (1, 2)] * 2
    black = [Card(1, s) for s in (0, 3)] * 2
    rng.shuffle(red)
    rng.shuffle(black)
    first_red = rng.random() < 0.5
    aces = [(red if (k % 2 == 0) == first_red else black).pop() for k in range(8)]
    evens = [[Card(r, s) for r in range(2, ranks + 1, 2)] for s in range(4) for _ in range(2)]
    odds = [[Card(r, s) for r in range(3, ranks + 1, 2)] for s in range(4) for _ in range(2)]
    rng.shuffle(evens)
    rng.shuffle(odds)
    piles = [aces] + evens + odds
    taken: list[Card] = []
    for _ in range(out):
        pile = rng.choice([p for p in piles if p])
        taken.append(pile.pop())
    rng.shuffle(taken)
    position = deal_from(taken, npiles, fill, ranks)
    position.aces, position.evens, position.odds = aces, evens, odds
    position.validate()
    return position
