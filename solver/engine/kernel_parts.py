"""Small jitted helpers several kernels share: a move pushed on a move list, a move of
three fields logged, a small field ORed into a packed key.  Each kernel imports them under
its own short names; the DFS loops (loop_template.py) find them there."""

from __future__ import annotations

import numpy as np

from .jit import njit


@njit(inline="always")
def push_move(moves, n, m):
    """Append move m at moves[n]; the new end."""
    moves[n] = m
    return n + 1


@njit
def log_move(log, n, src, dst, card):
    """Record (src, dst, card) as line entry n when the log has room; the new count."""
    if n < log.shape[0]:
        log[n, 0] = src
        log[n, 1] = dst
        log[n, 2] = card
    return n + 1


@njit(inline="always")
def put_small(key, off, v):
    """OR the small value v (< 8 bits wide) into the key at bit offset off."""
    w = off >> 6
    sh = off & 63
    x = np.uint64(v)
    key[w] |= x << np.uint64(sh)
    if sh > 56:  # the field may run into the next word
        key[w + 1] |= x >> np.uint64(64 - sh)


@njit(inline="always")
def four_full(st, first, ranks):
    """Whether the four foundation heights st[first:first + 4] all reached ``ranks``."""
    return st[first] == ranks and st[first + 1] == ranks and st[first + 2] == ranks and st[first + 3] == ranks
