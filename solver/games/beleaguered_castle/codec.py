"""Translate between BCPosition/Move and the kernel's int arrays (no rules here)."""

from __future__ import annotations

import numpy as np

from ...core.cards import Card
from ...core.moves import Move
from ..base import piles_to_row
from . import kernel as K
from .position import BCPosition

PILE_NAMES = [f"T{i + 1}" for i in range(K.NPILES_MAX)]
FOUNDATION_NAMES = [f"F{s + 1}" for s in range(4)]


def rules_array(ranks: int, npiles: int, prune: bool, order: int = K.ORDER_BASIC, noise: int = 0) -> np.ndarray:
    """The kernel's rules array; ``order`` and ``noise`` (a restart's seed, 0: none) only
    order the moves."""
    r = np.zeros(K.RULES_LEN, dtype=np.int64)
    r[K.R_RANKS] = ranks
    r[K.R_NPILES] = npiles
    r[K.R_PRUNE] = int(prune)
    r[K.R_ORDER] = order
    r[K.R_NOISE] = noise
    return r


def encode(position: BCPosition) -> np.ndarray:
    """The state row of a (valid) position."""
    st = piles_to_row(np.zeros(K.SLEN, dtype=np.int8), K, position.tableau)
    for s in range(4):
        st[K.FND0 + s] = position.foundations[s]
    return st


def decode(st: np.ndarray, npiles: int, ranks: int) -> BCPosition:
    tableau = [
        [Card.from_index(int(st[K.P0 + i * K.CAP + j])) for j in range(int(st[K.LEN0 + i]))]
        for i in range(npiles)
    ]
    return BCPosition(tableau, [int(st[K.FND0 + s]) for s in range(4)], ranks)


def _location(code: int) -> str:
    return PILE_NAMES[code] if code < K.LOC_FND else FOUNDATION_NAMES[code - K.LOC_FND]


def log_to_moves(log: np.ndarray) -> list[Move]:
    return [Move(_location(src), _location(dst), Card.from_index(card), 1) for src, dst, card in log.tolist()]
