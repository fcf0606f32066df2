"""Translate between GWPosition/Move and the kernel's int arrays (no rules here)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ...core.cards import Card
from ...core.moves import Move
from ..base import piles_to_row
from . import kernel as K
from .position import FOUNDATION_PILES, GWPosition, GWRules


def talon_of(position: GWPosition) -> np.ndarray:
    """The talon sequence: waste bottom to top, then the stock in turning order."""
    t = np.zeros(K.TALON_MAX, dtype=np.int8)
    seq = list(position.waste) + list(reversed(position.stock))
    for j, c in enumerate(seq):
        t[j] = c.index
    return t


def rules_array(position: GWPosition, rules: GWRules, prune: bool, narrow: int = 0) -> np.ndarray:
    """The kernel's rules row; ``narrow``: the narrowing level of a win-finding search
    (kernel module doc; 0 for every other search)."""
    r = np.zeros(K.RULES_LEN, dtype=np.int64)
    r[K.R_RANKS] = position.ranks
    r[K.R_NPILES] = len(position.tableau)
    r[K.R_PRUNE] = int(prune)
    r[K.R_BACK] = int(rules.returns)
    r[K.R_TLEN] = len(position.stock) + len(position.waste)
    r[K.R_FILL] = position.fill
    r[K.R_NARROW] = narrow
    return r


def _heights(piles: list[list[Card]]) -> list[int]:
    """Per suit the two pile heights, higher first (suits C D H S)."""
    out = []
    for s in range(4):
        hs = sorted((len(p) for p in piles if p and p[0].suit == s), reverse=True) + [0, 0]
        out += hs[:2]
    return out


def encode(position: GWPosition) -> np.ndarray:
    """The state row of a (valid) position."""
    st = piles_to_row(np.zeros(K.SLEN, dtype=np.int8), K, position.tableau)
    for j in range(len(position.waste)):
        st[K.WST0 + j] = j
    st[K.WLEN] = len(position.waste)
    st[K.ND] = len(position.waste)
    st[K.ACN] = len(position.aces)
    st[K.ACOL] = int(position.aces[-1].red) if position.aces else 0
    for x, h in enumerate(_heights(position.evens)):
        st[K.EV0 + x] = h
    for x, h in enumerate(_heights(position.odds)):
        st[K.OD0 + x] = h
    return st


def decode(st: np.ndarray, talon: np.ndarray, tlen: int, npiles: int, ranks: int, fill: int) -> GWPosition:
    """The position of a row (foundations in a canonical arrangement: the kernel keeps
    only what the rules can tell apart, see kernel.py)."""
    tableau = [[Card.from_index(int(st[K.P0 + i * K.CAP + j])) for j in range(int(st[K.LEN0 + i]))]
               for i in range(npiles)]
    waste = [Card.from_index(int(talon[int(st[K.WST0 + j])])) for j in range(int(st[K.WLEN]))]
    nd = int(st[K.ND])
    stock = [Card.from_index(int(talon[p])) for p in range(tlen - 1, nd - 1, -1)]
    placed = Counter(c for c in [c for p in tableau for c in p] + waste + stock if c.rank == 1)
    aces_left = [Card(1, s) for s in range(4) for _ in range(2 - placed[Card(1, s)])]
    n = int(st[K.ACN])
    assert n == len(aces_left), "ace count does not match the cards left"
    reds = sorted(c for c in aces_left if c.red)
    blacks = sorted(c for c in aces_left if not c.red)
    top_red = bool(st[K.ACOL]) if n else False
    aces = []
    for k in range(n):  # alternate, ending with the top colour
        red = top_red if (n - 1 - k) % 2 == 0 else not top_red
        aces.append((reds if red else blacks).pop())
    evens: list[list[Card]] = []
    odds: list[list[Card]] = []
    for base, start, out in ((K.EV0, 2, evens), (K.OD0, 3, odds)):
        for s in range(4):
            for k in range(2):
                h = int(st[base + 2 * s + k])
                if h:
                    out.append([Card(start + 2 * j, s) for j in range(h)])
        out += [[] for _ in range(FOUNDATION_PILES - len(out))]
    return GWPosition(tableau, stock, waste, aces, evens, odds, ranks, fill)


_PLACES = {K.LOC_WASTE: "waste", K.LOC_STOCK: "stock", K.LOC_ACES: "aces"}


def log_to_moves(log: np.ndarray, root: GWPosition) -> list[Move]:
    """Moves of a kernel log.  An Evens/Odds target or source is named as the reference
    engine's ``legal_moves`` names it: the lowest-numbered pile that takes the card
    (empty for a Two/Three), or whose top card it is."""
    tops = {K.LOC_EVENS: [p[-1] if p else None for p in root.evens],
            K.LOC_ODDS: [p[-1] if p else None for p in root.odds]}
    letter = {K.LOC_EVENS: "E", K.LOC_ODDS: "O"}
    out = []
    for src, dst, code in log.tolist():
        card = Card.from_index(code) if code >= 0 else None
        names = []
        for loc, is_src in ((src, True), (dst, False)):
            if loc < K.NPILES_MAX:
                names.append(f"T{loc + 1}")
            elif loc in _PLACES:
                names.append(_PLACES[loc])
            else:
                t = tops[loc]
                if is_src:
                    k = t.index(card)
                    t[k] = Card(card.rank - 2, card.suit) if card.rank > 3 else None
                else:
                    want = None if card.rank <= 3 else Card(card.rank - 2, card.suit)
                    k = t.index(want)
                    t[k] = card
                names.append(f"{letter[loc]}{k + 1}")
        out.append(Move(names[0], names[1], card, 1))
    return out
