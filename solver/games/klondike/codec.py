"""Translate between KlondikePosition/Move and the kernel's int arrays (no rules here)."""

from __future__ import annotations

import numpy as np

from ...core.cards import Card
from ...core.moves import Move
from ..base import piles_to_row
from . import kernel as K
from .position import KlondikePosition, KlondikeRules

PILE_NAMES = [f"T{i + 1}" for i in range(7)]
_CARDS = tuple(Card.from_index(i) for i in range(52))  # decode makes many cards
FOUNDATION_NAMES = [f"F{s + 1}" for s in range(4)]


def rules_array(rules: KlondikeRules, ranks: int, npiles: int, prune: bool, prunes: int = K.P_ALL) -> np.ndarray:
    """The kernel's rules array: ``prune`` (the search) selects the class key, its moves and
    its safe plays (kernel doc), else every legal move and the exact key; ``prunes`` (with
    ``prune``): which of the step-2 prunes (K.P_*) are on."""
    r = np.zeros(K.RULES_LEN, dtype=np.int64)
    r[K.R_DRAW] = rules.draw
    r[K.R_MAXRED] = -1 if rules.max_redeals is None else rules.max_redeals
    r[K.R_WORRY] = int(rules.worry_back)
    r[K.R_RANKS] = ranks
    r[K.R_NPILES] = npiles
    r[K.R_PRUNE] = int(prune)
    r[K.R_CLASS] = int(prune)
    r[K.R_PRUNES] = prunes if prune else 0
    return r


def encode(position: KlondikePosition, rules: KlondikeRules) -> tuple[np.ndarray, np.ndarray, int]:
    """Return (state row, talon array, talon length).  Position must be valid."""
    st = piles_to_row(np.zeros(K.SLEN, dtype=np.int32), K, position.tableau)
    st[K.DOWN0:K.DOWN0 + len(position.face_down)] = position.face_down
    K.fill_locations(st)
    for s in range(4):
        st[K.FND0 + s] = position.foundations[s]
    talon_cards = list(position.waste) + list(reversed(position.stock))
    talon = np.full(24, -1, dtype=np.int32)
    for t, card in enumerate(talon_cards):
        talon[t] = card.index
    st[K.TMASK] = (1 << len(talon_cards)) - 1
    st[K.TKINGS] = sum(1 << t for t, card in enumerate(talon_cards) if card.rank == position.ranks)
    for card in talon_cards:
        st[K.TCARDS + card.index // 26] |= 1 << card.index % 26
    st[K.TPTR] = len(position.waste)
    # any count >= the redeals allowed means "no more": clamp to fit the 3-bit field
    st[K.REDEALS] = 0 if rules.passes is None else min(position.redeals, rules.max_redeals)
    return st, talon, len(talon_cards)


def decode(st: np.ndarray, talon: np.ndarray, ntalon: int, npiles: int, ranks: int) -> KlondikePosition:
    tableau = []
    down = []
    for i in range(npiles):
        L = int(st[K.LEN0 + i])
        tableau.append([_CARDS[st[K.P0 + i * K.CAP + j]] for j in range(L)])
        down.append(int(st[K.DOWN0 + i]))
    mask = int(st[K.TMASK])
    ptr = int(st[K.TPTR])
    present = [t for t in range(ntalon) if mask >> t & 1]
    waste = [_CARDS[talon[t]] for t in present if t < ptr]
    stock = [_CARDS[talon[t]] for t in reversed(present) if t >= ptr]
    return KlondikePosition(
        tableau, down, stock, waste, [int(st[K.FND0 + s]) for s in range(4)], int(st[K.REDEALS]), ranks
    )


def _location(code: int) -> str:
    if code < 7:
        return PILE_NAMES[code]
    if code < K.LOC_STOCK:
        return FOUNDATION_NAMES[code - K.LOC_FND]
    return "stock" if code == K.LOC_STOCK else "waste"


def log_to_moves(log: np.ndarray) -> list[Move]:
    moves = []
    for typ, src, dst, card, count in log.tolist():
        if typ == K.LOG_DRAW:
            moves.append(Move("stock", "waste", None, count))
        elif typ == K.LOG_REDEAL:
            moves.append(Move("waste", "stock", None, 0))
        else:
            moves.append(Move(_location(src), _location(dst), Card.from_index(card), count))
    return moves
