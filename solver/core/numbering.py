"""Deal numbering: the random generators and shuffles of PySolFC and Solvitaire.

A deal is named by a number so that a user can replay it elsewhere: a PySolFC game
number reproduces the deal PySolFC shows for that number, and a Solvitaire seed the
deal Solvitaire solved for that seed (its published statistics are per seed).  Both
programs are re-implemented here from their documented algorithms (checked against
PySolFC's ``pysollib/pysolrandom.py``, ``pysollib/game/__init__.py`` and Solvitaire's
``game_state.cpp``); nothing in this module knows a game's layout.

Every shuffle returns a plain list of ``Card``; two-deck games get each card twice
(equal ``Card`` objects: position tells the copies apart).
"""

from __future__ import annotations

import operator
import random
from typing import Callable, Sequence, TypeVar

from .cards import Card

T = TypeVar("T")

PYSOLFC = "pysolfc"  # the numbering by PySolFC's game numbers: every game has it, and it is the default
SOLVITAIRE = "solvitaire"  # the numbering by Solvitaire's seeds

# Suit orders, as our suit indices (0 C, 1 D, 2 H, 3 S).
PYSOLFC_SUITS = (0, 3, 2, 1)  # PySolFC creates Clubs, Spades, Hearts, Diamonds
SOLVITAIRE_SUITS = (0, 2, 3, 1)  # Solvitaire: Clubs, Hearts, Spades, Diamonds

PYSOLFC_MT_FROM = 32000  # PySolFC: 1..31999 use the MS FreeCell LCG, the rest MT
PYSOLFC_MAX = 10**20  # PySolFC's largest seed (its random module's MAX_SEED, 20 digits)


# --------------------------------------------------------------------------- PySolFC


class LCRandom31:
    """Microsoft FreeCell's LCG, used by PySolFC for game numbers below 32000.

    Kept so that PySolFC's small game numbers give MS FreeCell's deals.  Only the
    seed < 2**31 behaviour is implemented: that is all game numbers 1..31999 reach.
    """

    def __init__(self, seed: int) -> None:
        self.state = seed

    def randint(self, a: int, b: int) -> int:
        self.state = (self.state * 214013 + 2531011) % (1 << 33)
        return a + ((self.state >> 16) & 0x7FFF) % (b + 1 - a)


class MTRandom:
    """Python's Mersenne Twister with PySolFC's ``randint`` (not ``random.randint``).

    PySolFC derives integers from ``random()`` itself, so Python's own ``randint`` /
    ``shuffle`` (which use ``getrandbits``) would give different deals.
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self._random.random() * (b + 1 - a))


def pysolfc_random(game_number: int) -> LCRandom31 | MTRandom:
    """The generator PySolFC uses for a game number (``construct_random``)."""
    game_number = operator.index(game_number)  # ints only: "1" or 1.0 raise TypeError
    if game_number < 1:
        raise ValueError(f"PySolFC game numbers start at 1; {game_number} is not a valid game number")
    if game_number > PYSOLFC_MAX:
        raise ValueError(f"PySolFC game numbers end at 10**20; {game_number} is not a valid game number")
    return LCRandom31(game_number) if game_number < PYSOLFC_MT_FROM else MTRandom(game_number)


def pysolfc_deck(decks: int = 1, ranks: int = 13) -> list[Card]:
    """Cards in PySolFC's creation order: deck by deck, suits C S H D, ranks A..ranks."""
    return [Card(r, s) for _ in range(decks) for s in PYSOLFC_SUITS for r in range(1, ranks + 1)]


def pysolfc_shuffle(cards: Sequence[T], game_number: int) -> list[T]:
    """Shuffle ``cards`` (given in PySolFC's creation order) as PySolFC's ``Game.shuffle``.

    With the LCG and exactly 52 cards, the deck is first rearranged rank-major with
    suits C, D, H, S (MS FreeCell's order; PySolFC's ``ms_rearrange``).  Then
    ``for n = len-1 .. 1: swap(n, randint(0, n))``.  The last element of the result is
    the top of PySolFC's talon, i.e. the first card dealt.  Per-game ``_shuffleHook``
    reorderings (Beleaguered Castle, Windmill) are the caller's business.
    """
    rng = pysolfc_random(game_number)
    cards = list(cards)
    if isinstance(rng, LCRandom31) and len(cards) == 52:
        # creation blocks are C 0, S 13, H 26, D 39; take C D H S for each rank
        cards = [cards[rank + block] for rank in range(13) for block in (0, 39, 26, 13)]
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def pysolfc_shuffled_cards(game_number: int, decks: int = 1, ranks: int = 13) -> list[Card]:
    """PySolFC's shuffled talon for a game with ``decks`` packs of ranks A..``ranks``.

    E.g. Klondike ``(n)``, Windmill ``(n, decks=2)``, Great Wheel ``(n, decks=2,
    ranks=12)``.  The last element is dealt first.
    """
    return pysolfc_shuffle(pysolfc_deck(decks, ranks), game_number)


# ------------------------------------------------------------------------ Solvitaire


def mt19937(seed: int) -> Callable[[], int]:
    """C++'s ``std::mt19937(seed)``: a function returning its raw 32-bit outputs.

    The state is filled with MT's ``init_genrand`` (what ``std::mt19937(seed)`` and
    numpy's legacy seeding do; Python's ``random.seed`` uses ``init_by_array`` instead)
    and handed to Python's own MT, whose ``getrandbits(32)`` is the raw output.
    """
    seed = operator.index(seed)
    if not 0 <= seed < 1 << 32:
        raise ValueError(f"Solvitaire seeds are 0..{(1 << 32) - 1}; {seed} is not a valid seed")
    state = [seed]
    for i in range(1, 624):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    rng = random.Random()
    rng.setstate((3, (*state, 624), None))  # index 624: regenerate before the first output
    return lambda: rng.getrandbits(32)


def solvitaire_deck(decks: int = 1, ranks: int = 13) -> list[Card]:
    """Cards in Solvitaire's order: deck by deck, rank 1..ranks, suits C H S D."""
    return [Card(r, s) for _ in range(decks) for r in range(1, ranks + 1) for s in SOLVITAIRE_SUITS]


def solvitaire_shuffled_cards(seed: int, decks: int = 1, ranks: int = 13) -> list[Card]:
    """Solvitaire's shuffled deck for a seed; games deal from the end of the list.

    Fisher-Yates from the end, each index drawn as Boost's ``uniform_int_distribution``
    draws it from mt19937: ``r = mt() // (2**32 // (i+1))``, rejected while ``r > i``.
    """
    deck = solvitaire_deck(decks, ranks)
    next32 = mt19937(seed)
    for i in range(len(deck) - 1, 0, -1):
        bucket = (1 << 32) // (i + 1)
        while (r := next32() // bucket) > i:
            pass
        deck[i], deck[r] = deck[r], deck[i]
    return deck
