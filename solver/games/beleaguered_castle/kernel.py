"""Beleaguered Castle search kernel (numba): state, moves, keys and an iterative DFS.

Everything jitted for Beleaguered Castle lives in this one file (numba cache trap, see
jit.py).

Working state: int8 rows, copy-make (a child is a copy of its parent with one move
applied, so there is no undo code to get wrong).  A DFS here goes very deep: the table
makes almost every child new, so the current path holds most of the positions stored
(docs/measurements.md).  So rows are kept only for the last ``W`` levels,
in a ring (level d in row d mod W), plus a checkpoint row every ``B`` levels; going back
below the ring, the rows of that block are rebuilt from its checkpoint by replaying the
path's moves (with the same safe plays).  A level then costs 2 bytes per untried move
and 8 bytes of stack indices, so tens of millions of levels fit.

    | field        | index          | meaning                                            |
    |--------------|----------------|----------------------------------------------------|
    | pile cards   | P0 + 32*i + j  | card j (bottom = 0) of pile i, card = 13*suit+rank-1 |
    | pile length  | LEN0 + i       | cards in pile i (cells at and above it are stale)  |
    | foundation   | FND0 + s       | cards on the foundation of suit s (C, D, H, S)     |

During a search a pile is a bottom part of the root's pile (at most 20 cards, the most
``validate`` allows) plus the cards built on it since, whose ranks fall by one from
card to card (at most 12, King..2): 32 cells.  The reference row ``ref`` (same layout)
is the root position of the search: the key measures piles against it.

Packed canonical key (3 x uint64 = 24 bytes; bit offsets over the 192-bit string):

    | bits            | field                                                     |
    |-----------------|-----------------------------------------------------------|
    | 5*i .. 5*i+4    | stub of pile i (i = 0..7): the length of its longest      |
    |                 | bottom part still equal to the same pile of ``ref``       |
    | 40+3*k .. +2    | code of non-Ace card k = 12*suit + rank-2 (k = 0..47):    |
    |                 | 0 = in a stub or on its foundation, 1..4 = lies directly  |
    |                 | on the card one rank higher of suit code-1, above a stub, |
    |                 | 5 = bottom card of a pile whose stub is empty             |
    | 184 .. 190      | zero                                                      |
    | 191             | marker, always 1 (an all-zero word means an empty slot)   |

Why it is exact: a card above its pile's stub got there by a move (the cards of ``ref``
still in place form the stub), so it lies either on a card exactly one rank higher --
fixed by that card's suit -- or, at the bottom, in a pile whose stub is empty.  So the
stubs give the untouched cards, the codes chain every other tableau card onto them (a
card carries at most one card), the code-5 cards start the chains of the stubless
piles, and the cards left over are on the foundations, which therefore need no bits.
The only thing lost is which stubless pile holds which chain: such piles are
interchangeable under the rules (a symmetry, as in Solvitaire), so equal keys mean
positions with the same game value, and different positions never share a key
otherwise.  The stub is computed from the position each time (not tracked), so a key
depends on the position alone.  Aces never leave the foundations and get no code.

Moves (int64): kind (bits 0-3: 0 pile top to its foundation, 1 pile top to another
pile), a = source pile (4-7), b = target pile (8-11), score (32+, higher is tried first).
The DFS stack keeps only bits 0-11 (int16), once the moves are sorted.

Log rows (int32 x 3) for the winning line: source pile, target (piles 0..7,
foundations LOC_FND + suit), card.
"""

from __future__ import annotations

import numpy as np

# the search's status and counter codes (its generated loop reads them among this module's names)
from ...engine.codes import (C_DEPTH, C_LO, C_NODES, C_STATUS, ST_LOST, ST_MEMORY, ST_PAUSED,  # noqa: F401
                             ST_RUNNING, ST_STACK, ST_WON, RING_CTR_LEN as CTR_LEN)
from ...engine.jit import njit
from ...engine.kernel_parts import four_full, log_move as _log, push_move as _push, put_small as _put
from ...engine.loop_template import Loop, build
from ...engine.order import noise, noise_base, sort_by_score

CAP = 32
P0 = 0
LEN0 = 256
FND0 = 264
SLEN = 268
NPILES_MAX = 8

# rules array
R_RANKS, R_NPILES, R_PRUNE, R_ORDER, R_NOISE = 0, 1, 2, 3, 4  # R_ORDER: 0 or 1, see gen_moves
RULES_LEN = 5

K_FND, K_PILE = 0, 1
LOC_FND = 8

MOVE_MASK = 0xFFF

KEY_WORDS = 3
STUB_BITS = 5
CODE0 = 40
# Move orders (R_ORDER).  ORDER_BASIC: the scores in gen_moves.  ORDER_UNBLOCK adds
# BLOCK_WEIGHT per card of the moving card's suit and a lower rank that the move puts
# under it (and takes it off).  Each order decides deals the other cannot
# (docs/measurements.md: the weight and the two orders compared), so the two run side
# by side (search.drive's twin).
ORDER_BASIC, ORDER_UNBLOCK = 0, 1
BLOCK_WEIGHT = 500
MAX_MOVES_PER_NODE = 64  # 8 top cards x (a foundation + 7 other piles)


@njit
def pack_key(st, ref, rules, key):
    """Write the canonical 24-byte key of st into key[0:3] (layout in module doc)."""
    key[0] = np.uint64(0)
    key[1] = np.uint64(0)
    key[2] = np.uint64(0)
    npiles = rules[R_NPILES]
    for i in range(npiles):
        base = P0 + i * CAP
        L = st[LEN0 + i]
        D = ref[LEN0 + i]
        s = 0
        while s < L and s < D and st[base + s] == ref[base + s]:
            s += 1
        _put(key, STUB_BITS * i, s)
        for j in range(s, L):
            c = np.int64(st[base + j])
            if j == 0:
                code = 5
            else:
                code = 1 + np.int64(st[base + j - 1]) // 13
            _put(key, CODE0 + 3 * ((c // 13) * 12 + c % 13 - 1), code)
    key[2] |= np.uint64(1) << np.uint64(63)


@njit(inline="always")
def is_safe(st, c):
    """Playing c (playable now) to its foundation never turns a won game into a lost one.

    The rule is Solvitaire's for building regardless of suit (Blake & Gent, JAIR 2026;
    ``game_state.auto_foundation_moves.cpp``, ``other_within_2``): rank <= every other
    foundation + 2.  Proof (no worry-back here, so foundations only grow): every other
    foundation holds at least rank - 2 and c's own holds rank - 1, so every card of
    rank - 2 is home and nothing will ever be built on a card of rank - 1.  Take any
    winning line from the position and play it with c already home, keeping the
    invariant "our table is the line's table with some cards sent home early":
    - a move of a card sent home early is skipped;
    - a card x that the line puts on c has rank - 1 and another suit, whose foundation
      holds at least rank - 2 (it only grows) and not x: exactly rank - 2, so x goes
      home instead; nothing was ever to be built on x;
    - any other move is played as it is: its card is a top card (only cards sent home
      left its pile); its target pile is empty in both tables or has the same top card
      (a top card sent home early is c, the case above, or an x, on which nothing is
      built); a foundation holds at least what the line's holds (if it already holds
      the card, the card was sent home early: skipped).
    The line ends with every card home, so ours does too.
    """
    r = c % 13 + 1
    s = c // 13
    for t in range(4):
        if t != s and r > st[FND0 + t] + 2:
            return False
    return True


@njit
def apply_move(st, m, log, n, dolog):
    """Apply move m to st in place; returns the new log length."""
    kind = m & 15
    a = (m >> 4) & 15
    b = (m >> 8) & 15
    L = st[LEN0 + a]
    c = np.int64(st[P0 + a * CAP + L - 1])
    st[LEN0 + a] = L - 1
    if kind == K_FND:
        st[FND0 + c // 13] += 1
        if dolog:
            n = _log(log, n, a, LOC_FND + c // 13, c)
    else:
        Lb = st[LEN0 + b]
        st[P0 + b * CAP + Lb] = c
        st[LEN0 + b] = Lb + 1
        if dolog:
            n = _log(log, n, a, b, c)
    return n


@njit
def play_safe(st, rules, log, n, dolog):
    """Play every safe pile top to its foundation, repeatedly (see is_safe)."""
    npiles = rules[R_NPILES]
    changed = True
    while changed:
        changed = False
        for i in range(npiles):
            L = st[LEN0 + i]
            if L > 0:
                c = np.int64(st[P0 + i * CAP + L - 1])
                if st[FND0 + c // 13] == c % 13 and is_safe(st, c):
                    n = apply_move(st, np.int64(K_FND | (i << 4)), log, n, dolog)
                    changed = True
    return n


@njit
def is_won(st, rules):
    return four_full(st, FND0, rules[R_RANKS])


@njit(inline="always")
def _blocks(st, i, L, c):
    """How many of the bottom L cards of pile i c would block: cards of its suit and a
    lower rank, which must go home before it."""
    k = 0
    for x in range(L):
        u = np.int64(st[P0 + i * CAP + x])
        if u // 13 == c // 13 and u < c:
            k += 1
    return k


@njit
def gen_moves(st, rules, moves, n0, need):
    """Write the moves of st into moves[n0:], best first; return the new end.

    Without R_PRUNE every legal move is listed (differential tests, perft).  With it
    (search), two symmetry reductions apply, both exact because the rules treat all
    piles alike (a position and its copy with two piles swapped have the same value):
    - a card goes only into the first empty pile: the others give the same table with
      two empty piles swapped;
    - the only card of a pile never moves into an empty pile: that gives the same table
      with the two piles swapped.
    The order (scores) is a heuristic only, it never changes a verdict: foundation
    plays first; above all, a move should not put a card on lower cards of its own suit
    (each must go home before it: BLOCK_WEIGHT per card) and should take it off them;
    then moves that uncover a card that can go home, moves from piles
    whose next wanted card lies shallow, moves that empty a pile; moves that bury a
    wanted card, or shift a card from one higher card to another without freeing
    anything, come late.  With R_NOISE > 0 (a restart's seed, order.noise) each score
    gets 0..255 more, the same for a state within one search: another order, the same
    moves.  ``need`` is scratch space (NPILES_MAX int64).
    """
    npiles = rules[R_NPILES]
    prune = rules[R_PRUNE] != 0
    wblock = BLOCK_WEIGHT if rules[R_ORDER] == ORDER_UNBLOCK else 0
    n = n0
    first_empty = -1
    for j in range(npiles):
        if st[LEN0 + j] == 0:
            first_empty = j
            break
    # per pile: how deep its shallowest card that could go home next lies (0 = the top)
    for i in range(npiles):
        L = st[LEN0 + i]
        need[i] = 99
        for k in range(L - 1, -1, -1):
            u = np.int64(st[P0 + i * CAP + k])
            if st[FND0 + u // 13] == u % 13:
                need[i] = L - 1 - k
                break
    for i in range(npiles):
        L = st[LEN0 + i]
        if L == 0:
            continue
        base = P0 + i * CAP
        c = np.int64(st[base + L - 1])
        r = c % 13  # rank - 1
        depth = need[i]
        if st[FND0 + c // 13] == r:
            n = _push(moves, n, (np.int64(1000) << 32) | K_FND | (i << 4))
        uncovers = False
        in_sequence = False
        if L >= 2:
            u = np.int64(st[base + L - 2])
            uncovers = st[FND0 + u // 13] == u % 13
            in_sequence = u % 13 == r + 1
        bonus = 0
        if uncovers:
            bonus += 300
        if depth < 99:
            bonus += max(0, 200 - 25 * depth)
        if in_sequence and not uncovers:
            bonus -= 80
        for j in range(npiles):
            if j == i:
                continue
            Lj = st[LEN0 + j]
            if Lj == 0:
                if prune and (j != first_empty or L == 1):
                    continue
                score = 100 + bonus
            else:
                t = np.int64(st[P0 + j * CAP + Lj - 1])
                if t % 13 != r + 1:
                    continue
                score = 200 + bonus
                if L == 1:
                    score += 150  # empties a pile
                if need[j] < 99:
                    score -= max(0, 150 - 25 * need[j])  # buries a card wanted soon
            if wblock != 0:
                score -= wblock * (_blocks(st, j, Lj, c) - _blocks(st, i, L - 1, c))
            n = _push(moves, n, (np.int64(score) << 32) | K_PILE | (i << 4) | (j << 8))
    if rules[R_NOISE] > 0:
        salt = np.int64(0)
        for q in range(4):
            salt = salt * 16 + st[FND0 + q]
        for q in range(npiles):
            salt = salt * 33 + st[LEN0 + q]
        base = noise_base(rules[R_NOISE], salt)
        for x in range(n0, n):
            m = moves[x]
            moves[x] = m + (noise(base, np.uint64(m & MOVE_MASK) << np.uint64(40)) << 32)
    sort_by_score(moves, n0, n)  # best first
    return n


# ----------------------------------------------------------------- the search
# The DFS (search_init, search_run, expand_line, successors, keys_of) is
# engine/loop_template.py's, filled with this game's moves, key and rows.
LOOP = Loop(
    ws="ring, ckpt, moves, lend, lnext, ctr, best, key, block", ring=True, packed_best=True,
    ctx="ref = ctx[0]", locals="need = np.empty(NPILES_MAX, dtype=np.int64)", log_width=3,
    apply="apply_move($st, $m, $log, $n, $dolog)", safe="play_safe($st, rules, $log, $n, $dolog)",
    gen="gen_moves($st, rules, $moves, $start, need)", mask="MOVE_MASK", key="pack_key($st, ref, rules, $key)",
    home="home = np.int64($st[FND0]) + $st[FND0 + 1] + $st[FND0 + 2] + $st[FND0 + 3]")
BUILT = build(__name__, LOOP)
search_init, search_run = BUILT.search_init, BUILT.search_run
expand_line, successors = BUILT.expand_line, BUILT.successors
keys_of = BUILT.keys_of
