"""Windmill's foundation endgame E (pysolfc and strict): exact once the stock is empty,
a sound loss test before.

E(P) of a kernel state P keeps P's foundations (and strict's flag) and forgets where
the other cards are, except for the order of the waste:

* the *pool* holds the cells' cards, the stock's cards and the waste top;
* the *queue* is the waste below its top, read downwards: q_1, q_2, ...;
* a move of E is a transfer between foundations (the real rules, the same flag), or a
  play of a pool card of the rank a foundation needs (the real rules read only the
  rank); after every play the next queue card (if any) joins the pool.

E is lost when no sequence of its moves completes the foundations.

**Theorem 1 (relaxation).**  If P is winnable, E(P) is winnable.  Take a winning line
of P and drop its turns of the stock.  The transfers and plays that remain are legal in
E in the same order: the foundations (and the flag, which only the kind of a move
changes: a play from a cell or the waste top clears it, a king-pile transfer sets it)
are the same in both games after every step, so it remains to show that every card x
played is in E's pool at that moment.  A cell or stock card, or P's waste top, is in
the pool from the start, and no card is played twice.  If x = q_j, then when P plays
it, the cards above it at P (the waste top and q_1 .. q_{j-1}, j cards) have all
left the waste, each either played from the waste top or moved into a cell by a
refill; a refill happens only after a play from a cell, so at least j plays came
before x, and E's pool took q_j in after the j-th of them.  The real line completes
the foundations, so E's does.

**Theorem 2 (exact once the stock is empty).**  If P's stock is empty, E(P) is winnable
iff P is.  With no stock, P's moves are transfers and plays of a cell card or the
waste top, both legal by rank alone; playing a cell card refills the cell from the
waste top, so in both cases the available cards (cells plus waste top) lose the played
card and gain the next card of the waste: exactly E's pool and queue (kernel module
doc, part 2).  So E and P have the same lines of plays and transfers, step for step.

Consequently a state whose E is lost is lost, and the kernel may drop it (its search is
a reachability search: a dropped state is one that is proven to lead nowhere, so the
transposition table's "stored means searched" stays true and no path through the state
can be winning; the prune reads the state alone, never the path).

**Why E is small.**  After m plays E's queue has lost its first m cards and its pool is
(first pool) + (q_1 .. q_m) - (cards played); the cards played are fixed by the
foundations alone (a centre of n cards holds ranks 1..R cyclically, a king pile of
length L holds R .. R-L+1).  So E's state is its foundations (centre length, king-pile
lengths sorted (the piles are interchangeable), flag), remembered in a small
open-addressing set of their exact indices (cache-resident, cleared by a generation
stamp); two states are merged only when their indices are equal.
E is searched depth first with an explicit stack; a search that would exceed its
stack or its node cap ends undecided, and undecided never prunes anything.

Frame of the explicit stack (int32 row):

    | index | field                                                        |
    |-------|--------------------------------------------------------------|
    | 0     | centre length n (base Ace included)                          |
    | 1..4  | king-pile lengths, sorted ascending                          |
    | 5     | strict's flag (the last centre card came from a king pile)   |
    | 6     | next move to try (0: to centre, 1..4: to king pile, 5..8:     |
    |       | king pile to centre, 9..12: centre to king pile, 13: done)   |
    | 7     | rank played to reach this frame (0 for a transfer)           |
    | 8     | rank that joined the pool after that play (0 for none)       |
"""

from __future__ import annotations

import numpy as np

from ...engine.jit import njit

FRAME = 9
F_CEN, F_L0, F_FLAG, F_NEXT, F_PLAYED, F_JOINED = 0, 1, 5, 6, 7, 8
MOVES = 13
EG_LOST, EG_WON, EG_UNDECIDED = 1, 0, -1

# counters in the ``egc`` array
E_STAMP, E_CALLS, E_LOST, E_NODES = 0, 1, 2, 3
EGC_LEN = 4


SET_BITS = 14  # slots of the visited set; a search may store half of them


def workspace(depth: int = 1 << 13):
    """(visit, stack, egc) arrays for ``solve``; allocate once and reuse.  ``visit`` is
    two rows of the visited set: row 0 the stamps, row 1 the state indices."""
    return (np.zeros((2, 1 << SET_BITS), dtype=np.int64), np.zeros((depth, FRAME), dtype=np.int32),
            np.zeros(EGC_LEN, dtype=np.int64))


@njit(inline="always")
def _mark(visit, idx, stamp):
    """Insert idx into the visited set; False if it was there already (exact match)."""
    mask = visit.shape[1] - 1
    h = (idx * 0x9E3779B1) & mask
    while visit[0, h] == stamp:
        if visit[1, h] == idx:
            return False
        h = (h + 1) & mask
    visit[0, h] = stamp
    visit[1, h] = idx
    return True


@njit(inline="always")
def _undo(f, pool):
    """Give back to the pool what the play that made frame f took and brought; True if
    a queue card had joined (the queue pointer must step back)."""
    if f[F_PLAYED] == 0:
        return False
    pool[f[F_PLAYED]] += 1
    if f[F_JOINED] == 0:
        return False
    pool[f[F_JOINED]] -= 1
    return True


@njit(inline="always")
def _index(fr, R):
    b = R + 1
    i = np.int64(fr[F_CEN] - 1)
    for k in range(4):
        i = i * b + fr[F_L0 + k]
    return i * 2 + fr[F_FLAG]


@njit(inline="always")
def _sort4(fr):
    for x in range(F_L0 + 1, F_L0 + 4):
        v = fr[x]
        y = x - 1
        while y >= F_L0 and fr[y] > v:
            fr[y + 1] = fr[y]
            y -= 1
        fr[y + 1] = v


@njit
def solve(cen, kings, flag, pool, queue, nqueue, R, strict, visit, stack, egc, max_nodes):
    """Decide E for the foundations (cen, kings[0:4], flag), the pool's rank counts
    ``pool[1..R]`` (changed during the search, restored on return) and the queue's ranks
    ``queue[0:nqueue]`` (q_1 first).  Returns EG_WON, EG_LOST or EG_UNDECIDED (stack or
    ``max_nodes`` exceeded)."""
    egc[E_CALLS] += 1
    egc[E_STAMP] += 1
    stamp = egc[E_STAMP]
    if max_nodes > visit.shape[1] // 2:
        max_nodes = visit.shape[1] // 2
    full = 4 * R
    fr = stack[0]
    fr[F_CEN] = cen
    for k in range(4):
        fr[F_L0 + k] = kings[k]
    _sort4(fr)
    fr[F_FLAG] = flag
    fr[F_NEXT] = 0
    fr[F_PLAYED] = 0
    fr[F_JOINED] = 0
    _mark(visit, _index(fr, R), stamp)
    d = 0
    wp = 0
    nodes = 1
    result = EG_LOST
    while True:
        fr = stack[d]
        if fr[F_CEN] == full and fr[F_L0] == R:  # lengths sorted: the shortest is full
            result = EG_WON
            break
        mv = fr[F_NEXT]
        if mv >= MOVES:
            # undo the play that made this frame, then back to the parent
            if _undo(fr, pool):
                wp -= 1
            if d == 0:
                break
            d -= 1
            continue
        fr[F_NEXT] = mv + 1
        n = fr[F_CEN]
        want = n % R + 1  # the centre's next rank
        played = 0
        if mv == 0:
            if n == full or pool[want] == 0:
                continue
            played = want
        elif mv <= 8:
            k = (mv - 1) % 4
            L = fr[F_L0 + k]
            if k > 0 and fr[F_L0 + k - 1] == L:
                continue  # interchangeable with pile k - 1
            if mv <= 4:
                if L == R:
                    continue
                need = R if L == 0 else R - L
                if pool[need] == 0:
                    continue
                played = need
            else:
                if L == 0 or n == full or R - L + 1 != want:
                    continue
                if strict and (L == 1 or fr[F_FLAG] != 0):
                    continue
        else:
            if strict or n <= 1:
                continue
            k = mv - 9
            L = fr[F_L0 + k]
            if L == R or (k > 0 and fr[F_L0 + k - 1] == L):
                continue
            need = R if L == 0 else R - L
            if (n - 1) % R + 1 != need:
                continue
        if d + 1 >= stack.shape[0] or nodes >= max_nodes:
            result = EG_UNDECIDED
            break
        ch = stack[d + 1]
        for x in range(FRAME):
            ch[x] = fr[x]
        ch[F_NEXT] = 0
        ch[F_PLAYED] = played
        ch[F_JOINED] = 0
        if mv == 0:
            ch[F_CEN] = n + 1
            ch[F_FLAG] = 0
        elif mv <= 4:
            ch[F_L0 + mv - 1] += 1
            _sort4(ch)
        elif mv <= 8:
            ch[F_L0 + mv - 5] -= 1
            ch[F_CEN] = n + 1
            if strict:
                ch[F_FLAG] = 1
            _sort4(ch)
        else:
            ch[F_L0 + mv - 9] += 1
            ch[F_CEN] = n - 1
            _sort4(ch)
        if not _mark(visit, _index(ch, R), stamp):
            continue
        nodes += 1
        if played > 0:
            pool[played] -= 1
            if wp < nqueue:
                j = queue[wp]
                pool[j] += 1
                ch[F_JOINED] = j
                wp += 1
        d += 1
    for x in range(d, 0, -1):  # won or undecided: give the pool back (lost: it is back)
        _undo(stack[x], pool)
    egc[E_NODES] += nodes
    if result == EG_LOST:
        egc[E_LOST] += 1
    return result
