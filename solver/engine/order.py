"""Move order helpers for the kernels: the best-first sort every kernel uses
(``sort_by_score``), and seeded noise, with which restarted searches (search.Restarts)
each try another order.

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


@njit(inline="always")
def sort_by_score(moves, n0, n):
    """Sort moves[n0:n] best first by their score (bits 32 and up): an insertion sort,
    stable for equal scores, so equal scores keep the order they were generated in."""
    for x in range(n0 + 1, n):
        m = moves[x]
        y = x - 1
        while y >= n0 and (moves[y] >> 32) < (m >> 32):
            moves[y + 1] = moves[y]
            y -= 1
        moves[y + 1] = m


@njit(inline="always")
def rand_below(rng, n):
    """A pseudo-random 0..n-1 (n >= 1) from the generator state rng[0] (a uint64 array
    of one, advanced: splitmix64), for the kernels' playouts (solver/engine/playouts.py)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return np.int64(z >> np.uint64(33)) % n
