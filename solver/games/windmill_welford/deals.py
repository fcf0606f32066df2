"""Numbered deals of Welford's Windmill (this project's numbering on PySolFC's generator).

PySolFC has no such game (its Windmill shuffles both packs together), so a "pysolfc"
number here names PySolFC's *generator*, used as follows:

1. ``rng = numbering.pysolfc_random(N)`` (LCRandom31 for N < 32000, else MT);
2. pack 1 = one pack in PySolFC's creation order (``pysolfc_deck(1, ranks)``: suits
   C, S, H, D, ranks A..), less its first card, the Ace of Clubs, which starts the
   centre; the remaining 4*ranks-1 cards are shuffled with PySolFC's loop
   ``for n = len-1 .. 1: swap(n, rng.randint(0, n))`` (no MS rearrangement: it is
   only defined for a whole 52-card pack);
3. pack 2 = a second pack in creation order, shuffled by the same loop with the SAME
   generator continuing (no reseeding);
4. the last element of a shuffled pack is dealt first.  Pack 1 is dealt first: its
   first 2*sails cards go to the sails as a refill of an empty windmill would place
   them (inner cells C1..C4, then outer cells C5..C8), the rest of pack 1 and then
   all of pack 2 form the stock.  No card is turned to the waste at the deal.

Reduced games (tests): two packs of ranks A..``ranks`` and 1..4 sails, dealt the same way.
"""

from __future__ import annotations

from ...core.cards import Card
from ...core.numbering import PYSOLFC, pysolfc_deck, pysolfc_random
from .position import SAILS, WelfordPosition

NUMBERINGS = (PYSOLFC,)


def _shuffle(cards: list[Card], rng) -> list[Card]:
    cards = list(cards)
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def welford_packs(seed: int, ranks: int = 13) -> tuple[list[Card], list[Card]]:
    """(pack 1 without the centre's Ace of Clubs, pack 2), shuffled; last element dealt first."""
    rng = pysolfc_random(seed)
    pack1 = pysolfc_deck(1, ranks)
    assert pack1[0] == Card(1, 0)
    pack1 = _shuffle(pack1[1:], rng)
    pack2 = _shuffle(pysolfc_deck(1, ranks), rng)
    return pack1, pack2


def deal_from(pack1: list[Card], pack2: list[Card], ranks: int = 13, sails: int = SAILS) -> WelfordPosition:
    """Deal two shuffled packs (last element first): sails inner then outer, the rest to the stock."""
    pack1 = list(pack1)
    inner = [pack1.pop() for _ in range(sails)]
    outer = [pack1.pop() for _ in range(sails)]
    return WelfordPosition(
        sails=[[inner[i], outer[i]] for i in range(sails)],
        centre=1,
        stock=list(pack2) + pack1,  # bottom..top: pack 1's rest is on top
        waste=[],
        pack1=len(pack1),
        ranks=ranks,
    )


def welford_deal(seed: int, numbering: str = PYSOLFC, ranks: int = 13, sails: int = SAILS) -> WelfordPosition:
    """The Welford Windmill deal number ``seed`` (reduced: ranks/sails)."""
    if numbering != PYSOLFC:
        raise ValueError(f"unknown deal numbering {numbering!r} for Windmill (welford); "
                         f"expected one of {', '.join(NUMBERINGS)}")
    if not 2 <= ranks <= 13 or not 1 <= sails <= SAILS or 4 * ranks - 1 < 2 * sails:
        raise ValueError(f"no Windmill (welford) deal with ranks {ranks} and {sails} sails")
    position = deal_from(*welford_packs(seed, ranks), ranks=ranks, sails=sails)
    position.validate()
    return position


def position_with(ranks: int = 13, sails: list[list[Card]] | None = None, centre: int = 1,
                  kings: list[list[Card]] | None = None, waste: list[Card] = (), top: list[Card] = (),
                  pack1: int = 0, redeals: int = 0) -> WelfordPosition:
    """A valid position with the given piles; every card not named (and not needed by the
    centre) goes to the stock below ``top`` (``top[-1]`` is dealt next), in index order.
    The centre takes, for each rank of its sequence, the first unused card of that rank
    in index order.  For tests and tools."""
    from collections import Counter

    pool: Counter = Counter({Card(r, s): 2 for s in range(4) for r in range(1, ranks + 1)})
    sails = [list(s) for s in (sails if sails is not None else [[] for _ in range(SAILS)])]
    kings = [list(k) for k in (kings if kings is not None else [[] for _ in range(4)])]
    for c in [c for s in sails for c in s] + [c for k in kings for c in k] + list(waste) + list(top):
        if pool[c] <= 0:
            raise ValueError(f"{c} is used more than twice")
        pool[c] -= 1
    for h in range(centre):
        rank = h % ranks + 1
        card = next((c for c in sorted(pool) if c.rank == rank and pool[c] > 0), None)
        if card is None:
            raise ValueError(f"no card of rank {rank} left for the centre")
        pool[card] -= 1
    rest = [c for c in sorted(pool, key=lambda c: c.index) for _ in range(pool[c])]
    position = WelfordPosition(sails, centre, kings, rest + list(top), list(waste), pack1, redeals, ranks)
    position.validate()
    return position
