"""Translate between WindmillPosition/Move and the kernel's int arrays (no rules here)."""

from __future__ import annotations

import numpy as np

from ...core.cards import Card
from ...core.moves import Move
from . import kernel as K
from .position import WindmillPosition, WindmillRules


def sequence(position: WindmillPosition) -> list[Card]:
    """The order in which the position's waste and stock cards reach the waste."""
    return list(position.waste) + list(reversed(position.stock))


def rules_array(position: WindmillPosition, rules: WindmillRules, prune: bool, order: int = 0,
                noise: int = 0, endgame: int | None = None, narrow: int = 0) -> np.ndarray:
    """The kernel's rules row.  ``endgame``: the most stock cards at which the search
    tries the foundation endgame's loss test (endgame.py); None: K.ENDGAME_STOCK when
    pruning, off (-1) otherwise."""
    r = np.zeros(K.RULES_LEN, dtype=np.int64)
    r[K.R_RANKS] = position.ranks
    r[K.R_NCELLS] = len(position.cells)
    r[K.R_STRICT] = int(rules.strict)
    r[K.R_PRUNE] = int(prune)
    r[K.R_NSEQ] = len(position.waste) + len(position.stock)
    r[K.R_ORDER] = order
    r[K.R_NOISE] = noise
    r[K.R_ENDGAME] = (K.ENDGAME_STOCK if prune else -1) if endgame is None else endgame
    r[K.R_EGNODES] = K.ENDGAME_NODES
    r[K.R_NARROW] = narrow  # 1: a narrowed search (kernel module doc)
    return r


def encode(position: WindmillPosition, rules: WindmillRules) -> tuple[np.ndarray, np.ndarray]:
    """(state row, sequence array) of a valid position, taken as the root of a search."""
    st = np.zeros(K.SLEN, dtype=np.int8)
    for j, c in enumerate(position.centre):
        st[K.CEN0 + j] = c.index
    st[K.CLEN] = len(position.centre)
    for k, pile in enumerate(position.kings):
        for j, c in enumerate(pile):
            st[K.KP0 + 13 * k + j] = c.index
        st[K.KLEN0 + k] = len(pile)
    for i in range(K.NCELLS_MAX):
        c = position.cells[i] if i < len(position.cells) else None
        st[K.CELL0 + i] = -1 if c is None else c.index
    for j in range(len(position.waste)):
        st[K.WST0 + j] = j
    st[K.WLEN] = len(position.waste)
    st[K.TURNED] = len(position.waste)
    st[K.FLAG] = int(rules.strict and position.after_transfer)
    seq = np.zeros(K.SEQ_MAX, dtype=np.int8)
    for p, c in enumerate(sequence(position)):
        seq[p] = c.index
    return st, seq


def decode(st: np.ndarray, seq: np.ndarray, nseq: int, ncells: int, ranks: int) -> WindmillPosition:
    card = Card.from_index
    return WindmillPosition(
        stock=[card(int(seq[p])) for p in range(nseq - 1, int(st[K.TURNED]) - 1, -1)],
        waste=[card(int(seq[int(st[K.WST0 + j])])) for j in range(int(st[K.WLEN]))],
        cells=[None if st[K.CELL0 + i] < 0 else card(int(st[K.CELL0 + i])) for i in range(ncells)],
        centre=[card(int(st[K.CEN0 + j])) for j in range(int(st[K.CLEN]))],
        kings=[[card(int(st[K.KP0 + 13 * k + j])) for j in range(int(st[K.KLEN0 + k]))] for k in range(4)],
        ranks=ranks,
        after_transfer=bool(st[K.FLAG]),
    )


def location(code: int) -> str:
    if code < K.WASTE:
        return f"C{code + 1}"
    if code == K.WASTE:
        return "waste"
    if code == K.CENTRE:
        return "centre"
    if code == K.STOCK:
        return "stock"
    return f"K{code - K.KING0 + 1}"


def log_to_moves(log: np.ndarray) -> list[Move]:
    return [Move(location(s), location(d), None if c < 0 else Card.from_index(c), 1) for s, d, c in log.tolist()]
