"""Deal numbering: generators and shuffles against known vectors and pysol_cards."""

from collections import Counter

import numpy as np
import pytest
from pysol_cards.cards import createCards
from pysol_cards.random import LCRandom31 as PCLCRandom31
from pysol_cards.random import MTRandom as PCMTRandom
from pysol_cards.random import shuffle as pc_shuffle
from pysol_cards.random_base import RandomBase

from solver.core.cards import Card, full_deck
from solver.core.numbering import (
    LCRandom31,
    MTRandom,
    mt19937,
    pysolfc_random,
    pysolfc_shuffled_cards,
    solvitaire_shuffled_cards,
)

PC_SUITS = (0, 3, 2, 1)  # pysol_cards / PySolFC suit 0..3 = C S H D -> our C D H S indices

# Microsoft FreeCell deal #1 in dealing order (8 cards a row); PySolFC's #1 is the same.
MS_FREECELL_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C "
    "4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
)


def ours(pc_cards):
    return [Card(c.rank, PC_SUITS[c.suit]) for c in pc_cards]


def pysol_cards_shuffle(game_number, decks=1, ranks=13):
    """pysol_cards' PySolFC shuffle (it gets game 32000 wrong; callers avoid it)."""
    return ours(pc_shuffle(createCards(decks, ranks), game_number, RandomBase.DEALS_PYSOLFC))


def names(cards):
    return " ".join(map(str, cards))


# ---------------------------------------------------------------- PySolFC generators


def test_lcrandom31_matches_pysol_cards():
    for seed in (1, 2, 617, 31999):
        a, b = LCRandom31(seed), PCLCRandom31(seed)
        for n in (52, 51, 7, 2, 1, 1000):
            assert a.randint(0, n) == b.randint(0, n)


def test_mtrandom_matches_pysol_cards():
    for seed in (32000, 32001, 10**12):
        a, b = MTRandom(seed), PCMTRandom(seed)
        for n in (103, 51, 7, 1):
            assert a.randint(0, n) == b.randint(0, n)


def test_generator_choice_follows_pysolfc_boundary():
    assert isinstance(pysolfc_random(1), LCRandom31)
    assert isinstance(pysolfc_random(31999), LCRandom31)
    assert isinstance(pysolfc_random(32000), MTRandom)
    assert isinstance(pysolfc_random(32001), MTRandom)


@pytest.mark.parametrize("bad", [0, -1, -32000])
def test_invalid_pysolfc_numbers(bad):
    with pytest.raises(ValueError, match="start at 1"):
        pysolfc_shuffled_cards(bad)


def test_non_int_game_number_is_refused():
    with pytest.raises(TypeError):
        pysolfc_shuffled_cards("1")


# ------------------------------------------------------------------ PySolFC shuffle


def test_pysolfc_1_is_ms_freecell_1():
    assert names(reversed(pysolfc_shuffled_cards(1))) == MS_FREECELL_1


@pytest.mark.parametrize("game_number", [1, 2, 3, 100, 11982, 31999, 32001, 32002, 123456, 10**15])
def test_one_deck_matches_pysol_cards(game_number):
    assert pysolfc_shuffled_cards(game_number) == pysol_cards_shuffle(game_number)


@pytest.mark.parametrize("game_number", [1, 5, 31999, 32001, 99999])
@pytest.mark.parametrize("decks, ranks", [(2, 13), (2, 12), (1, 12)])
def test_other_packs_match_pysol_cards(game_number, decks, ranks):
    # No MS rearrangement here: PySolFC applies it to 52-card games only.
    assert pysolfc_shuffled_cards(game_number, decks, ranks) == pysol_cards_shuffle(game_number, decks, ranks)


def test_game_32000_uses_mersenne_twister():
    # PySolFC's construct_random: LCRandom31 only for numbers < 32000.  pysol_cards
    # uses "<= 32000", so for 32000 (only) its deal is not PySolFC's.
    pc_mt = ours(PCMTRandom(32000).shuffle(createCards(1)))
    assert pysolfc_shuffled_cards(32000) == pc_mt
    assert pysolfc_shuffled_cards(32000) != pysol_cards_shuffle(32000)


def test_two_decks_hold_each_card_twice():
    cards = pysolfc_shuffled_cards(7, decks=2)
    assert len(cards) == 104
    assert Counter(cards) == Counter(full_deck() * 2)


def test_great_wheel_pack_has_no_kings():
    cards = pysolfc_shuffled_cards(7, decks=2, ranks=12)
    assert len(cards) == 96
    assert Counter(cards) == Counter(full_deck(12) * 2)


@pytest.mark.parametrize("game_number", [1, 31999, 32000, 40000])
def test_shuffle_is_a_permutation(game_number):
    assert sorted(pysolfc_shuffled_cards(game_number)) == sorted(full_deck())


# ----------------------------------------------------------------------- Solvitaire


def test_mt19937_standard_vector():
    # The C++ standard requires the 10000th output of a default mt19937 (seed 5489).
    g = mt19937(5489)
    for _ in range(9999):
        g()
    assert g() == 4123659995


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, 2**32 - 1])
def test_mt19937_matches_numpy_legacy_seeding(seed):
    bits = np.random.MT19937()
    bits._legacy_seeding(seed)  # init_genrand, as std::mt19937(seed)
    g = mt19937(seed)
    assert [g() for _ in range(700)] == [int(x) for x in bits.random_raw(700)]


@pytest.mark.parametrize("bad", [-1, 2**32])
def test_invalid_solvitaire_seeds(bad):
    with pytest.raises(ValueError):
        solvitaire_shuffled_cards(bad)


def test_solvitaire_seed_1_vector():
    # rules.md: Klondike seed 1 takes its stock from the end of this vector first.
    deck = solvitaire_shuffled_cards(1)
    stock_bottom_to_top = [c.solvitaire() for c in reversed(deck[-24:])]
    assert stock_bottom_to_top[:4] == ["6H", "KS", "10C", "QH"]
    assert stock_bottom_to_top[-3:] == ["3H", "6C", "10S"]


@pytest.mark.parametrize("seed", [0, 1, 999, 2**31])
def test_solvitaire_shuffle_is_a_permutation(seed):
    assert sorted(solvitaire_shuffled_cards(seed)) == sorted(full_deck())


def test_solvitaire_two_decks():
    cards = solvitaire_shuffled_cards(3, decks=2)
    assert Counter(cards) == Counter(full_deck() * 2)
