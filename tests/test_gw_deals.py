"""Great Wheel deals: PySolFC game 397 numbering, checked against a fixed vector and
against pysol_cards' generator classes (PySolFC's own random code, packaged) with the
deck and the deal order rebuilt here from PySolFC's source, independently of deals.py."""

from __future__ import annotations

import pytest
from pysol_cards.random import LCRandom31, MTRandom

from solver.games.great_wheel.deals import gw_deal

RANKS = "A23456789TJQ"


def pysol_cards_deal(game_number: int):
    """(piles, waste, stock) as strings: cards created deck by deck, suits C S H D, ranks
    A..Q (no Kings); PySolFC's shuffle; 4 rounds of dealRow over 8 rows; one card to the
    waste (``GreatWheel.startGame``); the talon's top is the end of the list."""
    cards = [r + s for _ in range(2) for s in "CSHD" for r in RANKS]
    if game_number < 32000:
        rng = LCRandom31()
        rng.setSeed(game_number)
    else:
        rng = MTRandom(game_number)
    rng.shuffle(cards)
    piles = [[] for _ in range(8)]
    for _ in range(4):
        for p in piles:
            p.append(cards.pop())
    waste = [cards.pop()]
    return piles, waste, cards


def ours(game_number: int):
    p = gw_deal(game_number)
    return [[str(c) for c in pile] for pile in p.tableau], [str(c) for c in p.waste], [str(c) for c in p.stock]


def test_game_1_vector():
    piles, waste, stock = ours(1)
    assert [" ".join(p) for p in piles] == [
        "6D JH QH 5C", "2D 6S QH 5H", "AD 6H TS JH", "5D JC JD 3D",
        "TH 2S 4S 7S", "AH 2S 7C 4S", "AC 4D 3H 8H", "6H 6C 8C 5S",
    ]
    assert waste == ["4C"]
    assert len(stock) == 63
    assert stock[-3:] == ["3H", "3S", "TC"]  # TC is turned next
    assert stock[:3] == ["8D", "7D", "TD"]


@pytest.mark.parametrize("game_number", [1, 2, 617, 31999, 32000, 32001, 123456])
def test_matches_pysol_cards(game_number):
    assert ours(game_number) == pysol_cards_deal(game_number)


def test_mt_game_vector():
    piles, waste, stock = ours(32001)  # Mersenne Twister (numbers >= 32000)
    assert [" ".join(p) for p in piles] == [
        "8C 9S 9D 2C", "AC 8D 3S QC", "TD 6S 5H 7H", "4S 6D AC 5C",
        "9H 5D JH 9C", "QH AD 3D 7C", "4D JS QD 7D", "4H 3C 2H 8S",
    ]
    assert waste == ["8C"] and stock[-2:] == ["4C", "QC"]


def test_every_card_twice_and_no_kings():
    p = gw_deal(5)
    cards = [c for pile in p.tableau for c in pile] + p.stock + p.waste
    assert len(cards) == 96
    assert all(cards.count(c) == 2 for c in cards)
    assert max(c.rank for c in cards) == 12


def test_bad_numbers():
    with pytest.raises(ValueError):
        gw_deal(0)
    with pytest.raises(ValueError):
        gw_deal(1, "solvitaire")
