"""Numbered Klondike deals: rules.md vectors and agreement with pysol_cards."""

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solver.core.cards import Card, full_deck
from solver.games.klondike.deals import klondike_deal


def layout(position):
    """Piles as PySolFC/pysol_cards print them: bottom to top, ``<..>`` face down."""
    return [
        " ".join(f"<{c}>" if k < down else str(c) for k, c in enumerate(pile))
        for pile, down in zip(position.tableau, position.face_down)
    ]


def talon_in_deal_order(position):
    """Waste (first turned first) then stock (next drawn first), as pysol_cards' Talon line."""
    return " ".join(map(str, position.waste + position.stock[::-1]))


def pysol_cards_klondike(game_number):
    text = Game("klondike", game_number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    talon_line, *piles = text.splitlines()
    assert talon_line.startswith("Talon: ")
    return talon_line[len("Talon: "):], piles


KLONDIKE_1_TALON = "4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
KLONDIKE_1_PILES = [
    "QH",
    "<7H> TS",
    "<5D> <9S> 5C",
    "<JC> <KC> <KH> 4C",
    "<9H> <KD> <QC> <KS> 3C",
    "<2D> <5H> <AD> <2S> <QD> AH",
    "<JD> <7C> <5S> <3H> <9D> <JS> AS",
]


def test_pysolfc_klondike_1_vector():
    p = klondike_deal(1)
    assert layout(p) == KLONDIKE_1_PILES
    assert p.waste == [Card.parse("4H")]  # PySolFC turns one card at the deal
    assert talon_in_deal_order(p) == KLONDIKE_1_TALON
    assert p.stock[-1] == Card.parse("AC") and p.stock[0] == Card.parse("6H")
    assert p.foundations == [0, 0, 0, 0] and p.redeals == 0


def test_pysolfc_draw_3_turns_three_cards():
    # Klondike by Threes (game 18): talon.dealCards() turns num_deal = 3 cards.
    p = klondike_deal(1, draw=3)
    assert layout(p) == KLONDIKE_1_PILES
    assert [str(c) for c in p.waste] == ["4H", "AC", "4D"]  # 4D on top, playable
    assert talon_in_deal_order(p) == KLONDIKE_1_TALON
    assert len(p.stock) == 21


@pytest.mark.parametrize("game_number", [*range(1, 201), 31999, 32001, 32002, 50000, 10**9])
def test_pysolfc_matches_pysol_cards(game_number):
    talon, piles = pysol_cards_klondike(game_number)
    p = klondike_deal(game_number)
    assert layout(p) == piles
    assert talon_in_deal_order(p) == talon


def test_pysolfc_32000_differs_from_pysol_cards():
    # PySolFC deals 32000 with Mersenne Twister; pysol_cards wrongly uses the LCG.
    talon, piles = pysol_cards_klondike(32000)
    p = klondike_deal(32000)
    assert (layout(p), talon_in_deal_order(p)) != (piles, talon)


def test_solvitaire_seed_1_vector():
    p = klondike_deal(1, "solvitaire")
    assert [pile[-1].solvitaire() for pile in p.tableau] == ["9D", "AS", "JC", "6D", "JH", "AH", "JD"]
    stock = [c.solvitaire() for c in p.stock]  # bottom to top
    assert stock[:4] == ["6H", "KS", "10C", "QH"]
    assert stock[-3:] == ["3H", "6C", "10S"]
    assert p.waste == []
    assert p.face_down == list(range(7))


def test_solvitaire_ignores_draw():
    assert klondike_deal(5, "solvitaire", draw=3) == klondike_deal(5, "solvitaire")


@pytest.mark.parametrize("numbering", ["pysolfc", "solvitaire"])
@pytest.mark.parametrize("seed", [1, 2, 31999, 32000, 32001, 777777])
@pytest.mark.parametrize("draw", [1, 3])
def test_every_deal_is_a_valid_klondike_layout(numbering, seed, draw):
    p = klondike_deal(seed, numbering, draw)
    assert [len(pile) for pile in p.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert p.face_down == [0, 1, 2, 3, 4, 5, 6]
    cards = [c for pile in p.tableau for c in pile] + p.stock + p.waste
    assert sorted(cards) == sorted(full_deck())


@pytest.mark.parametrize("bad", [0, -1])
def test_invalid_pysolfc_numbers(bad):
    with pytest.raises(ValueError):
        klondike_deal(bad)


def test_invalid_solvitaire_seed():
    with pytest.raises(ValueError):
        klondike_deal(-1, "solvitaire")


def test_solvitaire_seed_0_is_valid():
    klondike_deal(0, "solvitaire")


def test_unknown_numbering_and_bad_draw():
    with pytest.raises(ValueError, match="numbering"):
        klondike_deal(1, "microsoft")
    with pytest.raises(ValueError, match="draw"):
        klondike_deal(1, draw=0)
