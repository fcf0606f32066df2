"""What every kernel does when a search beats its best progress: record the path.

``best`` (int64): best[0] the most cards on the foundations so far, best[1] the length
of the path to the first position that had them, the moves from best[2] on.  The path
is the move taken at each level 0..d of the DFS stack (``moves[lnext[x] - 1]``), the
last one being the move into the new best position.  Called only on an improvement (a
few hundred times a search), so it costs nothing per node.
"""

from __future__ import annotations

import numpy as np

from .jit import njit


@njit(inline="always")
def keep_path(best, home, moves, lnext, d):
    """One move per word (paths of at most a few thousand levels)."""
    best[0] = home
    best[1] = d + 1
    for x in range(d + 1):
        best[2 + x] = moves[lnext[x] - 1]


@njit(inline="always")
def keep_path_packed(best, home, moves, lnext, d):
    """Four 16-bit move codes per word, move x in bits 16 * (x % 4) of best[2 + x // 4]
    (paths of millions of levels; kernel_search.unpack_moves16 reads it back)."""
    best[0] = home
    best[1] = d + 1
    word = np.int64(0)
    for x in range(d + 1):
        word |= np.int64(moves[lnext[x] - 1]) << (16 * (x & 3))
        if x & 3 == 3:
            best[2 + (x >> 2)] = word
            word = np.int64(0)
    if (d + 1) & 3:
        best[2 + ((d + 1) >> 2)] = word
