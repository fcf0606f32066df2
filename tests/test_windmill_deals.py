"""Windmill deals: PySolFC game 30's layout, pinned by vectors and by an independent shuffle."""

import random

import pytest

from solver.core.cards import Card
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import PositionError

# seed: cells C1..C8 | waste | last 6 stock cards (bottom..top, top is turned next) | first 4 (bottom)
VECTORS = {
    1: ("3D 5H JC KH 5S 5H KC KC", "8D", "TC 6H 6C 8C AS JD", "6S 5S 4C 2D"),
    2: ("7D 3S QS 7S 7H TD 9H 9D", "JD", "JS 9C 8D JC QC QS", "6H 4S 8C QC"),
    31999: ("3D 5S 2H 7H AH QS JS 7S", "9C", "8H 7C 3D 3S 5S AC", "8C 8S 7S 6C"),
    32000: ("KH 9H TD 6D 3D 9C TH JS", "JS", "TH 7S 4H KD 3C 6C", "5D 8H 4H 4D"),
    123456: ("6H 4H 4C 5S AS 8C AH QC", "9S", "6C 8H KD 3C TD 7D", "5H 6D 8S 5D"),
}


def _s(cards):
    return " ".join(map(str, cards))


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_vectors(seed):
    p = windmill_deal(seed)
    cells, waste, top6, bottom4 = VECTORS[seed]
    assert _s(p.cells) == cells
    assert _s(p.waste) == waste
    assert _s(p.stock[-6:]) == top6
    assert _s(p.stock[:4]) == bottom4
    assert p.centre == [Card(1, 0)]
    assert len(p.stock) == 94 and p.kings == [[], [], [], []]


class _LCG:  # written again here from PySolFC's pysolrandom.py, independent of numbering.py
    def __init__(self, seed):
        self.s = seed

    def randint(self, a, b):
        self.s = (self.s * 214013 + 2531011) % (1 << 33)
        return a + ((self.s >> 16) & 0x7FFF) % (b + 1 - a)


class _MT:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def randint(self, a, b):
        return a + int(self.r.random() * (b + 1 - a))


class _PCard:  # PySolFC cards compare by identity
    def __init__(self, id, deck, suit, rank):
        self.id, self.deck, self.suit, self.rank = id, deck, suit, rank


def _pysolfc_windmill(seed):
    cards = []
    for deck in range(2):
        for suit in (0, 3, 2, 1):  # C S H D as our suit indices
            for rank in range(1, 14):
                cards.append(_PCard(len(cards), deck, suit, rank))
    rng = _LCG(seed) if seed < 32000 else _MT(seed)
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    for c in cards:  # Windmill._shuffleHook
        if c.id == 0:
            break
    cards.remove(c)
    cards = cards + [c]
    talon = [Card(c.rank, c.suit) for c in cards]
    centre = [talon.pop()]
    rows = [talon.pop() for _ in range(8)]
    waste = [talon.pop()]
    return talon, waste, rows, centre


@pytest.mark.parametrize("seed", [1, 3, 17, 555, 31999, 32000, 40001, 10**9])
def test_matches_independent_pysolfc_shuffle(seed):
    p = windmill_deal(seed)
    stock, waste, rows, centre = _pysolfc_windmill(seed)
    assert (p.stock, p.waste, p.cells, p.centre) == (stock, waste, rows, centre)


def test_the_ace_of_the_first_pack_is_moved_not_the_first_equal_one():
    # In some deals the two Aces of Clubs come in the order (deck 1, deck 0); removing the
    # first equal Ace instead of card id 0 would change the order of the rest.
    found = 0
    for seed in range(1, 60):
        cards = []
        for deck in range(2):
            for suit in (0, 3, 2, 1):
                for rank in range(1, 14):
                    cards.append((deck, suit, rank))
        ids = list(range(104))
        rng = _LCG(seed)
        for n in range(103, 0, -1):
            j = rng.randint(0, n)
            ids[n], ids[j] = ids[j], ids[n]
        if ids.index(52) < ids.index(0):  # id 52 is the second pack's Ace of Clubs
            found += 1
            stock, waste, rows, centre = _pysolfc_windmill(seed)
            p = windmill_deal(seed)
            assert p.stock == stock
    assert found > 0


def test_reduced_deals_and_bad_arguments():
    p = windmill_deal(7, ranks=3, cells=2)
    assert len(p.cells) == 2 and p.ranks == 3
    assert len(p.stock) + len(p.waste) + 2 + 1 == 24
    p.validate()
    with pytest.raises(ValueError):
        windmill_deal(0)
    with pytest.raises(ValueError):
        windmill_deal(1, numbering="solvitaire")
    with pytest.raises(ValueError):
        windmill_deal(1, cells=9)


def test_validate_catches_bad_positions():
    p = windmill_deal(1)
    q = p.copy()
    q.stock.append(q.stock[0])
    with pytest.raises(PositionError, match="more than twice"):
        q.validate()
    q = p.copy()
    q.stock.pop()
    with pytest.raises(PositionError, match="missing card"):
        q.validate()
    q = p.copy()
    q.centre = [q.stock.pop(0)] if q.stock[0].rank != 1 else [Card(2, 0)]
    with pytest.raises(PositionError):
        q.validate()
