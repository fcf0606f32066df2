"""Seeded noise for move orders: restarted searches (search.Restarts) each try another order.

A kernel adds ``noise(base, x)`` (0..255) to each move's score, where ``base`` comes
from the restart's seed and a few of the state's counters (``noise_base``) and ``x`` is
the move's code.  The same state thus gets the same order within one search, and
another order in another phase.  Scores only order moves: noise never changes which
moves exist, so it never changes a verdict.
"""

from __future__ import annotations

import numpy as np

from .jit import njit


@njit(inline="always")
def noise_base(seed, salt):
    """uint64 base of one node's noise: the restart's seed mixed with the state's salt."""
    return np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(salt)


@njit(inline="always")
def noise(base, x):
    """A pseudo-random 0..255 for the move code x (uint64) at a node with this base."""
    h = base ^ x
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return np.int64(h & np.uint64(255))
