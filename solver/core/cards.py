"""Cards: one small immutable type shared by every game, its parser and its printer.

A card is identified by an int ``index = suit * 13 + (rank - 1)`` so that kernels can
use it directly as a 6-bit field.  Suit order is Clubs, Diamonds, Hearts, Spades (the
order of Klondike's F1..F4).  Two-deck games tell their two copies apart by position,
not by identity, so a ``Card`` never carries a deck number.

Printing is always two characters, rank then suit: ``AS``, ``TH``, ``KD``.  Parsing
accepts ``TH``, ``10H``, ``th`` and ``10h``; whether a lower-case suit means "face down"
is a deal-file convention and is handled there (see ``parse_card_token``).
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
RED_SUITS = frozenset((1, 2))  # Diamonds, Hearts


class CardError(ValueError):
    """A card token that is not a card."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int  # 1 (Ace) .. 13 (King)
    suit: int  # 0 C, 1 D, 2 H, 3 S

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or not 0 <= self.suit <= 3:
            raise CardError(f"no such card: rank {self.rank}, suit {self.suit}")

    @property
    def index(self) -> int:
        return self.suit * 13 + self.rank - 1

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @classmethod
    def from_index(cls, index: int) -> "Card":
        if not 0 <= index < 52:
            raise CardError(f"no such card index: {index}")
        return cls(index % 13 + 1, index // 13)

    @classmethod
    def parse(cls, text: str) -> "Card":
        return parse_card_token(text)[0]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"

    def solvitaire(self) -> str:
        """Solvitaire's spelling: ``10H`` for tens, otherwise as printed."""
        return ("10" if self.rank == 10 else RANKS[self.rank - 1]) + SUITS[self.suit]


def parse_card_token(text: str) -> tuple[Card, bool]:
    """Parse ``TH``/``10H``/``th``; return (card, suit_was_upper_case)."""
    token = text.strip()
    if len(token) < 2:
        raise CardError(f"not a card: {text!r}")
    rank_part, suit_char = token[:-1], token[-1]
    suit = SUITS.find(suit_char.upper())
    if suit < 0:
        raise CardError(f"not a card: {text!r} (unknown suit {suit_char!r})")
    rank_part = rank_part.upper()
    if rank_part == "10":
        rank = 10
    elif len(rank_part) == 1 and rank_part in RANKS:
        rank = RANKS.index(rank_part) + 1
    else:
        raise CardError(f"not a card: {text!r} (unknown rank {rank_part!r})")
    return Card(rank, suit), suit_char.isupper()


def full_deck(ranks: int = 13) -> list[Card]:
    """One deck in index order, optionally cut down to ranks A..ranks."""
    return [Card(r, s) for s in range(4) for r in range(1, ranks + 1)]
