"""Translate between WelfordPosition/Move and the welford kernel's int arrays (no rules here)."""

from __future__ import annotations

import numpy as np

from ...core.cards import Card
from ...core.moves import Move
from . import kernel as K
from .position import KING_PILES, WelfordPosition

CELL_NAMES = [f"C{x + 1}" for x in range(8)]  # location x: sail x % 4, level x // 4
LOCATIONS = CELL_NAMES + [f"K{j + 1}" for j in range(KING_PILES)] + ["centre", "stock", "waste"]


def rules_array(position: WelfordPosition, prune: bool, order: int = 0, noise: int = 0) -> np.ndarray:
    r = np.zeros(K.RULES_LEN, dtype=np.int64)
    r[K.R_RANKS] = position.ranks
    r[K.R_NSAILS] = position.nsails
    r[K.R_TLEN] = len(position.waste) + len(position.stock)
    r[K.R_P1END] = len(position.waste) + position.pack1
    r[K.R_PRUNE] = int(prune)
    r[K.R_ORDER] = order
    r[K.R_NOISE] = noise
    return r


def encode(position: WelfordPosition) -> tuple[np.ndarray, np.ndarray]:
    """(state row, talon) of a valid position that is not in the middle of a refill."""
    if position.refilling:
        raise ValueError("a position in the middle of a refill cannot be searched; finish the refill first")
    talon_cards = list(position.waste) + position.stock[::-1]
    if len(talon_cards) > K.MAX_TALON:
        raise ValueError(f"stock and waste hold {len(talon_cards)} cards; the kernel supports {K.MAX_TALON}")
    talon = np.array([c.index for c in talon_cards], dtype=np.int8)
    st = np.zeros(K.SLEN, dtype=np.int8)
    st[K.CELL0:K.CELL0 + 8] = -1
    for i, sail in enumerate(position.sails):
        for level, card in enumerate(sail):
            st[K.CELL0 + 2 * i + level] = card.index
        st[K.SN0 + i] = len(sail)
    for j, pile in enumerate(position.kings):
        for k, card in enumerate(pile):
            st[K.KP0 + 13 * j + k] = card.index
        st[K.KLEN0 + j] = len(pile)
    st[K.CENTRE] = position.centre
    st[K.SPTR] = len(position.waste)
    st[K.WTOP] = len(position.waste) - 1
    st[K.PASS] = position.redeals
    st[K.TAL0:K.TAL0 + len(talon_cards)] = 1
    return st, talon


def decode(st: np.ndarray, talon: np.ndarray, rules: np.ndarray) -> WelfordPosition:
    ns, ranks, tlen, p1end = int(rules[K.R_NSAILS]), int(rules[K.R_RANKS]), int(rules[K.R_TLEN]), int(rules[K.R_P1END])
    sails = [[Card.from_index(int(st[K.CELL0 + 2 * i + lv])) for lv in range(int(st[K.SN0 + i]))] for i in range(ns)]
    kings = [[Card.from_index(int(st[K.KP0 + 13 * j + k])) for k in range(int(st[K.KLEN0 + j]))]
             for j in range(KING_PILES)]
    sptr = int(st[K.SPTR])
    waste = [Card.from_index(int(talon[t])) for t in range(min(sptr, tlen)) if st[K.TAL0 + t]]
    stock = [Card.from_index(int(talon[t])) for t in range(sptr, tlen) if st[K.TAL0 + t]][::-1]
    passes = int(st[K.PASS])
    pack1 = max(0, p1end - sptr) if passes == 0 else 0
    return WelfordPosition(sails, int(st[K.CENTRE]), kings, stock, waste, pack1, passes, ranks)


def log_to_moves(log: np.ndarray) -> list[Move]:
    moves = []
    for typ, src, dst, card in log.tolist():
        if typ == K.LOG_DRAW:
            moves.append(Move("stock", "waste", None, 1))
        elif typ == K.LOG_REDEAL:
            moves.append(Move("waste", "stock", None, 0))
        else:
            moves.append(Move(LOCATIONS[src], LOCATIONS[dst], Card.from_index(card), 1))
    return moves
