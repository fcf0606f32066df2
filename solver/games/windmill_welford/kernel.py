"""Welford's Windmill search kernel (numba): state rows, moves, exact keys, iterative DFS.

Everything jitted for the welford preset lives in this one file (numba cache trap, see
solver/engine/jit.py).  It shares no code with reference.py.

Working state: one int8 row per DFS level (copy-make: a child is a copy of its parent
with one action applied, so there is no undo code to get wrong).

    | field        | index          | meaning                                          |
    |--------------|----------------|--------------------------------------------------|
    | sail cells   | CELL0 + 2*i+l  | card of sail i, l = 0 inner / 1 outer (-1 none)  |
    | sail length  | SN0 + i        | cards in sail i (0..2; the top is cell SN0+i - 1) |
    | king piles   | KP0 + 13*j + k | card k (bottom = the King) of king pile j        |
    | king length  | KLEN0 + j      | cards in king pile j                             |
    | centre       | CENTRE         | cards on the centre (1..4*ranks)                 |
    | stock top    | SPTR           | talon index of the stock's top card, TLEN if none |
    | waste top    | WTOP           | talon index of the waste's top card, -1 if none  |
    | pass         | PASS           | 0, or 1 once the waste has been turned over      |
    | talon flags  | TAL0 + t       | 1: talon card t is still in the stock or waste   |

The talon is one fixed sequence (the ``talon`` argument, card indices), ``waste bottom
.. top`` then ``stock top .. bottom`` at the root: cards only ever leave it, the stock
is always the flagged cards at or after SPTR (SPTR itself flagged, or TLEN) and the
waste the flagged cards before it.  Turning the waste over keeps the order (its bottom
card comes out first again): SPTR goes back to the first flagged card.  In the first
pass nothing after SPTR has left, so the pack-1 cards still in the stock are those
before ``P1END`` (a rules entry): the Queen cap holds while PASS = 0 and SPTR < P1END.

Actions (int32 code: kind bits 0-3, a bits 4-7, b bits 8-11): sail a top to the centre,
sail a top to king pile b, waste top to the centre, waste top to king pile b, king pile
a top to the centre, REFILL (all gaps at once: inner cells of sails 0..n-1, then outer
cells, one stock card each, until no gap or no stock card is left), DRAW (one card
to the waste; only without gaps), REDEAL (stock empty, first pass).  The rules are
reference.why_illegal's; tests compare the two move by move.

Packed canonical key (3 x uint64 = 24 bytes):

    | word.bits    | field                                                     |
    |--------------|-----------------------------------------------------------|
    | 0.0-63       | talon flags 0..63                                         |
    | 1.0-39       | talon flags 64..103                                       |
    | 1.40-46      | SPTR (0..104)                                             |
    | 1.47         | PASS                                                      |
    | 1.48-53      | centre height                                             |
    | 2.0-31       | rank (1..13, 0 = empty) of each sail cell 2*i+l, 4 bits    |
    | 2.32-47      | the four king-pile lengths, sorted, 4 bits each            |
    | 2.63         | marker, always 1 (an all-zero word means an empty slot)   |

Why it is exact: within one search the talon's cards are fixed, so flags + SPTR + PASS
give the stock and the waste exactly (WTOP is derived from them); the sails are given
up to suits; a king pile always holds ranks King, King-1, .. down from its bottom, so
its length gives its ranks, and a pile is completed (out of play) exactly when its
length is ``ranks``; the centre's ranks follow from its height.  What is lost is only
(a) suits, which no rule of this game looks at (so a position and its copy with suits
relabelled have the same legal action sequences and win together), and (b) which king
pile is which: the rules treat the four alike (a permutation of the piles maps legal
actions to legal actions and won positions to won positions).  So two positions with
equal keys have the same game value.  The transposition table (solver/engine/tt.py) prunes
only on an exact match of this whole 3-word key, never on a hash alone.

Move ordering (R_ORDER, R_NOISE): a heuristic only (see _score; R_NOISE != 0 adds a
pseudo-random 0..765 seeded by it and the state's counters, see _sort_score).  The main
search runs ordering 0 to the end; its twin (searcher.restarts) runs phases,
each from scratch with a cleared table and another ordering and noise, so "lost" is
only ever concluded by a search that exhausted the whole space.

Search pruning (R_PRUNE): besides the table, only one exact symmetry reduction: among
king piles of equal length only the first is used as a source or target (the children
differ by a permutation of king piles, so they have the same key; this just avoids
generating them).  No forced or "safe" moves are used: the two packs and the Queen cap
break the one-deck safe-move proofs, and none is proven for this game.

Log rows (int32 x 4) for the winning line: type (0 draw, 1 redeal, 2 card move), src,
dst, card.  Locations: cells 0..7 = C1..C8 (inner of sail i = i, outer = 4+i), king
piles 8..11, centre 12, stock 13, waste 14.
"""

from __future__ import annotations

import numpy as np

# the search's status and counter codes (its generated loop reads them among this module's names)
from ...engine.codes import (C_DEPTH, C_NODES, C_STATUS, CTR_LEN, ST_LOST, ST_MEMORY, ST_PAUSED,  # noqa: F401
                             ST_RUNNING, ST_STACK, ST_WON)
from ...engine.jit import njit
from ...engine.loop_template import Loop, build
from ...engine.order import noise as _noise, noise_base, rand_below

CELL0 = 0
SN0 = 8
KP0 = 12
KLEN0 = 64
CENTRE = 68
SPTR = 69
WTOP = 70
PASS = 71
TAL0 = 72
MAX_TALON = 104
SLEN = TAL0 + MAX_TALON  # 176

# rules array
R_RANKS, R_NSAILS, R_TLEN, R_P1END, R_PRUNE, R_ORDER, R_NOISE = 0, 1, 2, 3, 4, 5, 6
RULES_LEN = 7
ORDERS = 4  # move orderings (R_ORDER 0..3), see _score

K_SAIL_C, K_SAIL_K, K_WASTE_C, K_WASTE_K, K_KING_C, K_REFILL, K_DRAW, K_REDEAL = 0, 1, 2, 3, 4, 5, 6, 7

LOG_DRAW, LOG_REDEAL, LOG_MOVE = 0, 1, 2
LOC_KING, LOC_CENTRE, LOC_STOCK, LOC_WASTE = 8, 12, 13, 14


KEY_WORDS = 3
MAX_MOVES_PER_NODE = 40  # 4 sails x 5 + waste 5 + 4 kings + refill/draw/redeal = 32


@njit(inline="always")
def _rank(card, ranks):
    return np.int64(card) % 13 + 1


@njit
def centre_next(st, rules):
    """The rank the centre takes next, 0 if it may take nothing now (complete or capped)."""
    R = rules[R_RANKS]
    h = np.int64(st[CENTRE])
    if h >= 4 * R:
        return 0
    if st[PASS] == 0 and st[SPTR] < rules[R_P1END] and h >= R - 1:
        return 0  # the Queen cap: pack 1 is still being dealt
    return h % R + 1


@njit
def has_gap(st, rules):
    for i in range(rules[R_NSAILS]):
        if st[SN0 + i] < 2:
            return True
    return False


@njit
def is_won(st, rules):
    R = rules[R_RANKS]
    if st[CENTRE] != 4 * R:
        return False
    for j in range(4):
        if st[KLEN0 + j] != R:
            return False
    return True


@njit
def _next_flagged(st, t, tlen):
    while t < tlen and st[TAL0 + t] == 0:
        t += 1
    return t


@njit
def _prev_flagged(st, t):
    while t >= 0 and st[TAL0 + t] == 0:
        t -= 1
    return t


@njit
def _log(log, n, typ, src, dst, card):
    if n < log.shape[0]:
        log[n, 0] = typ
        log[n, 1] = src
        log[n, 2] = dst
        log[n, 3] = card
    return n + 1


@njit
def apply_move(st, m, talon, rules, log, n, dolog):
    """Apply action m to st in place; returns the new log length."""
    kind = m & 15
    a = (m >> 4) & 15
    b = (m >> 8) & 15
    tlen = rules[R_TLEN]
    if kind == K_REFILL:
        ns = rules[R_NSAILS]
        for level in range(2):
            for i in range(ns):
                if st[SN0 + i] == level and st[SPTR] < tlen:
                    t = np.int64(st[SPTR])
                    c = talon[t]
                    st[CELL0 + 2 * i + level] = c
                    st[SN0 + i] = level + 1
                    st[TAL0 + t] = 0
                    st[SPTR] = _next_flagged(st, t + 1, tlen)
                    if dolog:
                        n = _log(log, n, LOG_MOVE, LOC_STOCK, i + 4 * level, c)
        return n
    if kind == K_DRAW:
        t = np.int64(st[SPTR])
        st[WTOP] = t
        st[SPTR] = _next_flagged(st, t + 1, tlen)
        if dolog:
            n = _log(log, n, LOG_DRAW, LOC_STOCK, LOC_WASTE, talon[t])
        return n
    if kind == K_REDEAL:
        st[SPTR] = _next_flagged(st, 0, tlen)
        st[WTOP] = -1
        st[PASS] = 1
        if dolog:
            n = _log(log, n, LOG_REDEAL, LOC_WASTE, LOC_STOCK, -1)
        return n
    # a card move: take the card
    if kind == K_SAIL_C or kind == K_SAIL_K:
        k = np.int64(st[SN0 + a]) - 1
        c = st[CELL0 + 2 * a + k]
        st[CELL0 + 2 * a + k] = -1
        st[SN0 + a] = k
        src = a + 4 * k
    elif kind == K_WASTE_C or kind == K_WASTE_K:
        t = np.int64(st[WTOP])
        c = talon[t]
        st[TAL0 + t] = 0
        st[WTOP] = _prev_flagged(st, t - 1)
        src = LOC_WASTE
    else:  # K_KING_C
        L = np.int64(st[KLEN0 + a]) - 1
        c = st[KP0 + 13 * a + L]
        st[KLEN0 + a] = L
        src = LOC_KING + a
    if kind == K_SAIL_K or kind == K_WASTE_K:
        L = np.int64(st[KLEN0 + b])
        st[KP0 + 13 * b + L] = c
        st[KLEN0 + b] = L + 1
        dst = LOC_KING + b
    else:
        st[CENTRE] += 1
        dst = LOC_CENTRE
    if dolog:
        n = _log(log, n, LOG_MOVE, src, dst, c)
    return n


@njit
def gen_moves(st, talon, rules, moves, n0):
    """Write the legal actions of st into moves[n0:], best first (a heuristic order that
    never changes a verdict); return the new end.  With R_PRUNE, king piles of equal
    length are used only once each (see the module doc)."""
    R = rules[R_RANKS]
    ns = rules[R_NSAILS]
    tlen = rules[R_TLEN]
    prune = rules[R_PRUNE] != 0
    n = n0
    want = centre_next(st, rules)
    # 1. sail tops to the centre; note whether a sail could feed the centre
    sail_feeds = False
    for i in range(ns):
        k = np.int64(st[SN0 + i])
        if k > 0 and want != 0 and _rank(st[CELL0 + 2 * i + k - 1], R) == want:
            sail_feeds = True
            moves[n] = K_SAIL_C | (i << 4)
            n += 1
    # 2. waste top to the centre
    wt = np.int64(st[WTOP])
    wrank = 0
    if wt >= 0:
        wrank = _rank(talon[wt], R)
        if want != 0 and wrank == want:
            moves[n] = K_WASTE_C
            n += 1
    # 3. king-pile tops to the centre (not a King, not completed, sail priority)
    if want != 0 and not sail_feeds:
        for j in range(4):
            L = np.int64(st[KLEN0 + j])
            if L < 2 or L >= R or R - L + 1 != want:
                continue
            dup = False
            if prune:
                for i in range(j):
                    if st[KLEN0 + i] == L:
                        dup = True
            if not dup:
                moves[n] = K_KING_C | (j << 4)
                n += 1
    # 4. sail tops and the waste top to king piles
    for j in range(4):
        L = np.int64(st[KLEN0 + j])
        if L >= R:
            continue
        if prune:
            dup = False
            for i in range(j):
                if st[KLEN0 + i] == L:
                    dup = True
            if dup:
                continue
        need = R - L  # a King (rank R) on an empty pile, else one below the top
        for i in range(ns):
            k = np.int64(st[SN0 + i])
            if k > 0 and _rank(st[CELL0 + 2 * i + k - 1], R) == need:
                moves[n] = K_SAIL_K | (i << 4) | (j << 8)
                n += 1
        if wt >= 0 and wrank == need:
            moves[n] = K_WASTE_K | (j << 8)
            n += 1
    # 5. refill / draw / redeal
    stock = st[SPTR] < tlen
    if stock:
        if has_gap(st, rules):
            moves[n] = K_REFILL
        else:
            moves[n] = K_DRAW
        n += 1
    elif wt >= 0 and st[PASS] == 0:
        moves[n] = K_REDEAL
        n += 1
    order = rules[R_ORDER]
    noise = rules[R_NOISE]
    if order != 0 or noise != 0:  # stable insertion sort, best first
        base = noise_base(noise, np.int64(st[SPTR]) | (np.int64(st[PASS]) << 8) | (np.int64(n - n0) << 16))
        for x in range(n0 + 1, n):
            m = moves[x]
            sm = _sort_score(m, order, noise, base)
            y = x - 1
            while y >= n0 and _sort_score(moves[y], order, noise, base) < sm:
                moves[y + 1] = moves[y]
                y -= 1
            moves[y + 1] = m
    return n


@njit(inline="always")
def _sort_score(m, order, noise, base):
    """Sort key of action m: its ordering's rank, plus (R_NOISE != 0) a seeded 0..765
    that can reorder up to three adjacent ranks (a restart's shuffle; ordering only)."""
    sc = (_score(m, order) << 8) if order != 0 else 0
    if noise != 0:
        sc += _noise(base, np.uint64(m) << np.uint64(24)) * 3
    return sc


@njit(inline="always")
def _score(m, order):
    """Rank of an action under move ordering ``order`` (higher first; ties keep the
    generation order, which is ordering 0).  Orderings only change which legal action
    is tried first, never which actions exist, so they never change a verdict; the
    twin's restarts try them in turn (different orderings find different deals' wins
    quickly).
    1: waste top to the centre first; 2: sail tops to king piles first; 3: all plays to
    the centre, then sail tops to king piles, then king-pile tops to the centre."""
    kind = m & 15
    if order == 1:
        return 1 if kind == K_WASTE_C else 0
    if order == 2:
        return 1 if kind == K_SAIL_K else 0
    # order 3
    if kind == K_SAIL_C or kind == K_WASTE_C:
        return 4
    if kind == K_SAIL_K:
        return 3
    if kind == K_KING_C:
        return 2
    if kind == K_WASTE_K:
        return 1
    return 0


@njit
def pack_key(st, rules, key):
    """Write the canonical key of st into key[0:3] (layout and proof in the module doc)."""
    tlen = rules[R_TLEN]
    ns = rules[R_NSAILS]
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    w2 = np.uint64(0)
    one = np.uint64(1)
    for t in range(tlen):
        if st[TAL0 + t] != 0:
            if t < 64:
                w0 |= one << np.uint64(t)
            else:
                w1 |= one << np.uint64(t - 64)
    w1 |= np.uint64(st[SPTR]) << np.uint64(40)
    w1 |= np.uint64(st[PASS]) << np.uint64(47)
    w1 |= np.uint64(st[CENTRE]) << np.uint64(48)
    for i in range(ns):
        for level in range(2):
            if st[SN0 + i] > level:
                r = np.uint64(np.int64(st[CELL0 + 2 * i + level]) % 13 + 1)
                w2 |= r << np.uint64(4 * (2 * i + level))
    # sorted king-pile lengths (insertion sort of 4)
    a0 = np.int64(st[KLEN0])
    a1 = np.int64(st[KLEN0 + 1])
    a2 = np.int64(st[KLEN0 + 2])
    a3 = np.int64(st[KLEN0 + 3])
    if a0 > a1:
        a0, a1 = a1, a0
    if a2 > a3:
        a2, a3 = a3, a2
    if a0 > a2:
        a0, a2 = a2, a0
    if a1 > a3:
        a1, a3 = a3, a1
    if a1 > a2:
        a1, a2 = a2, a1
    w2 |= np.uint64(a0) << np.uint64(32)
    w2 |= np.uint64(a1) << np.uint64(36)
    w2 |= np.uint64(a2) << np.uint64(40)
    w2 |= np.uint64(a3) << np.uint64(44)
    w2 |= one << np.uint64(63)
    key[0] = w0
    key[1] = w1
    key[2] = w2


# ----------------------------------------------------------------- playouts
# Randomized greedy playouts (solver/engine/playouts.py), as in windmill/kernel.py: from the root,
# one action after another, the one of highest ordering-3 rank (plays to the centre, then
# sail tops to king piles, king-pile tops to the centre, the waste top to a king pile,
# then refill / draw / redeal) times 100 plus a random 0..spread-1, or with the playout's
# chance a uniform one, until won or stuck; then again from the root.  No action undoes
# another (cards only go home; the stock is turned over at most once), so a playout ends
# by itself.  A win is a line of legal actions (replayed like any other); running out
# proves nothing.  Workspace ``pw`` = (cur, path, best, pctr, rng): the current row, the
# actions of the current playout, the best progress (one action a word), the counters
# below, the generator's state.
P_NODES, P_DEPTH, P_STATUS, P_PLAYOUTS, P_SPREAD, P_EPS = range(6)
PCTR_LEN = 6
PLAYOUT_DEPTH = 2048  # above the longest line (searcher.MAX_DEPTH)


@njit
def _playout_pick(cur, talon, r, moves, pctr, rng, d, cap):
    """A playout's next action from cur (module comment above; -1: none, or ``cap``
    actions deep): the one of highest ordering-3 rank times 100 plus rand_below(spread),
    or with the playout's chance a uniform one.  ``r``: the rules, changed here."""
    r[R_ORDER] = 0  # generation order: the ranks below do the ordering
    r[R_NOISE] = 0
    n = gen_moves(cur, talon, r, moves, 0) if d < cap else 0
    uni = pctr[P_EPS] > 0 and rand_below(rng, 32) < (np.int64(1) << pctr[P_EPS])
    pick = -1
    top = np.int64(-1)
    for x in range(n):
        m = moves[x]
        v = rand_below(rng, 1024) if uni else _score(m, 3) * 100 + rand_below(rng, pctr[P_SPREAD])
        if v > top:
            top = v
            pick = m
    return pick


# --- the search: engine/loop_template.py's DFS and playout loops, with this game's moves
LOOP = Loop(
    ws="rows, moves, lend, lnext, ctr, best, key", ctx="talon = ctx[0]", log_width=4,
    apply="apply_move($st, $m, talon, rules, $log, $n, $dolog)",
    gen="gen_moves($st, talon, rules, $moves, $start)", key="pack_key($st, rules, $key)",
    # completed king piles count: they are out of play but their cards are home
    home="home = np.int64($st[CENTRE]) + $st[KLEN0] + $st[KLEN0 + 1] + $st[KLEN0 + 2] + $st[KLEN0 + 3]",
    playouts=True, pick="_playout_pick($st, talon, r, moves, pctr, rng, d, cap)",
    restart="pctr[P_EPS] = rand_below(rng, 4)  # a uniform action with chance 0, 1/16, 1/8 or 1/4")
BUILT = build(__name__, LOOP)
search_init, search_run = BUILT.search_init, BUILT.search_run
expand_line, successors = BUILT.expand_line, BUILT.successors
keys_of, playout_init, playout_run = BUILT.keys_of, BUILT.playout_init, BUILT.playout_run
