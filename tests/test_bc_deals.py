"""Numbered Beleaguered Castle deals: hand-checked vectors for both numberings and
agreement with pysol_cards (PySolFC's own dealing code, packaged)."""

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from solver.core.cards import Card, full_deck
from solver.games.beleaguered_castle.deals import bc_deal


def rows(position):
    return [" ".join(map(str, pile)) for pile in position.tableau]


def pysol_cards_bc(game_number):
    text = Game("beleaguered_castle", game_number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    found, *piles = text.splitlines()
    assert found == "Foundations: H-A C-A D-A S-A"
    return piles


# PySolFC game 1 shuffles like Microsoft FreeCell deal 1, whose 52 cards in dealing order
# are (the well-known layout, row by row): JD 2D 9H JC 5D 7H 7C 5H / KD KC 9S 5S AD QC KH 3H
# / 2S KS 9D QD JS AS AH 3C / 4C 5C TS QH 4H AC 4D 7S / 3S TD 4S TH 8H 2C JH 7D / 6D 8S 8D QS
# 6C 3D 8C TC / 6S 9C 2H 6H.  Beleaguered Castle keeps that order without the Aces and deals
# card k to row k mod 8 (PySolFC's s.rows[0..7] = T1..T8), derived by hand:
PYSOLFC_1 = [
    "JD KD KS QH 8H 6C",
    "2D KC 9D 4H 2C 3D",
    "9H 9S QD 4D JH 8C",
    "JC 5S JS 7S 7D TC",
    "5D QC 3C 3S 6D 6S",
    "7H KH 4C TD 8S 9C",
    "7C 3H 5C 4S 8D 2H",
    "5H 2S TS TH QS 6H",
]

# Solvitaire seed 1.  Hand check against the Klondike vector of rules.md for the same
# seed (the same shuffled vector): Klondike takes its stock from the back first, bottom
# card first, "6H KS 10C QH ..." -- Beleaguered Castle deals those same cards first, to
# T1..T4, as bottom cards.  Klondike's pile tops come from the front of the vector:
# vector[0] = JD (its T7 top), vector[1] = AH, vector[3] = JH (its T5 top); without the
# Aces JD is the last card dealt (T8's top) and JH the third last (T6's top).
SOLVITAIRE_1 = [
    "6H 3S 5S 6S JS 7H",
    "KS 5C 7D 9S TD 8D",
    "TC 2D TH QD KD 6D",
    "QH 4D 3H 4C 8C 2C",
    "2S KC 6C 9D 5H 9H",
    "4H 7C TS 5D 8S JH",
    "QC 4S 2H 3C JC KH",
    "QS 9C 3D 8H 7S JD",
]


def test_pysolfc_game_1_vector():
    p = bc_deal(1)
    assert rows(p) == PYSOLFC_1
    assert p.foundations == [1, 1, 1, 1] and p.ranks == 13


def test_solvitaire_seed_1_vector():
    p = bc_deal(1, "solvitaire")
    assert [pile[0] for pile in p.tableau[:4]] == [Card.parse(t) for t in ("6H", "KS", "TC", "QH")]
    assert p.tableau[7][-1] == Card.parse("JD") and p.tableau[5][-1] == Card.parse("JH")
    assert rows(p) == SOLVITAIRE_1


@pytest.mark.parametrize("game_number", [1, 2, 3, 5, 34, 617, 1000, 11982, 31999, 32001, 123456, 10**9])
def test_pysolfc_agrees_with_pysol_cards(game_number):
    assert rows(bc_deal(game_number)) == pysol_cards_bc(game_number)


def test_pysolfc_agrees_with_pysol_cards_on_many_numbers():
    for game_number in range(100, 31999, 997):
        assert rows(bc_deal(game_number)) == pysol_cards_bc(game_number), game_number


@pytest.mark.parametrize("numbering", ["pysolfc", "solvitaire"])
@pytest.mark.parametrize("seed", [1, 2, 99, 31999, 32000, 4_000_000])
def test_every_deal_is_a_beleaguered_castle_layout(numbering, seed):
    p = bc_deal(seed, numbering)
    p.validate()
    assert [len(pile) for pile in p.tableau] == [6] * 8
    assert p.foundations == [1, 1, 1, 1]
    cards = sorted(c for pile in p.tableau for c in pile)
    assert cards == sorted(c for c in full_deck() if c.rank != 1)


def test_numberings_differ_and_are_deterministic():
    assert bc_deal(7) == bc_deal(7)
    assert bc_deal(7, "solvitaire") == bc_deal(7, "solvitaire")
    assert bc_deal(7) != bc_deal(7, "solvitaire")
    assert bc_deal(0, "solvitaire").tableau  # Solvitaire seeds start at 0


def test_bad_seeds_and_numberings():
    with pytest.raises(ValueError):
        bc_deal(0)  # PySolFC game numbers start at 1
    with pytest.raises(ValueError):
        bc_deal(-1, "solvitaire")
    with pytest.raises(ValueError, match="numbering"):
        bc_deal(1, "microsoft")
