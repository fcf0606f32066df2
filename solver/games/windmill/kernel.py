"""Windmill search kernel (numba), pysolfc and strict presets: state, moves, keys, DFS.

Everything jitted for Windmill lives in this one file (numba cache trap, see jit.py).

The transposition table (solver/engine/tt.py) prunes only on an exact match of the whole
packed key below (3 words), never on a hash alone.

Working state: one int8 row per DFS level, copy-make (a child is a copy of its parent
with one move applied).  A Windmill line is short (each card reaches the foundations
once, the stock is turned once; only foundation-to-foundation transfers add moves and
the table forbids repeating a state on the path), so a plain stack of rows suffices;
a search deeper than the stack ends as unknown (memory).

    | field        | index              | meaning                                          |
    |--------------|--------------------|--------------------------------------------------|
    | centre       | CEN0 + j           | card j (0 = base Ace) of the centre              |
    | king piles   | KP0 + 13*k + j     | card j (0 = the King) of king pile k             |
    | king lengths | KLEN0 + k          | cards on king pile k                             |
    | cells        | CELL0 + i          | card in cell i, -1 = empty                       |
    | waste        | WST0 + j           | sequence position of waste card j (0 = bottom)   |
    | CLEN         |                    | cards on the centre                              |
    | WLEN         |                    | cards in the waste                               |
    | TURNED       |                    | sequence positions turned so far                 |
    | FLAG         |                    | strict: the last centre card came from a king pile |

Cards are 13*suit + rank - 1.  The *sequence* ``seq`` (an argument, fixed for a
search) lists the cards in the order they reach the waste: the root's waste bottom to
top, then the root's stock from its top down.  Cards enter the waste only by turning
(in sequence order) and leave it only from the top, so the waste is always a
subsequence of ``seq[0:TURNED]`` and the stock is exactly ``seq[TURNED:NSEQ]``.

Packed canonical key (3 x uint64 = 24 bytes; bit offsets over the 192-bit string):

    | bits      | field                                                        |
    |-----------|--------------------------------------------------------------|
    | 0..103    | bit p set = sequence position p lies in the waste, except    |
    |           | the waste top once the stock is empty (part 2 below)         |
    | 104..110  | TURNED                                                       |
    | 111..116  | CLEN                                                         |
    | 117       | FLAG (always 0 under pysolfc)                                |
    | 128..163  | 9 ranks, sorted, 4 bits each (0 = none): the cells' ranks    |
    |           | (0 = empty cell), plus the waste top's once the stock is     |
    |           | empty                                                        |
    | 164..179  | the 4 king-pile lengths, sorted, 4 bits each                 |
    | 191       | marker, always 1 (an all-zero word means an empty slot)      |

Why equal keys mean equal game values.  Let phi(position) be the key's content.  The
stock and the waste are given exactly (by TURNED and the mask, against the fixed
``seq``; once the stock is empty, all but the waste top: part 2).  What is dropped is
(a) the suits of the cells' and foundations' cards, (b) which cell holds which card
and (c) which king pile is which.  No rule reads a suit, nor tells two cells or two
king piles apart: a move's legality depends on the moved card's rank, its source kind
(cell/waste/king pile/centre), the target's top rank (which for the centre is
(CLEN - 1) mod R + 1 and for a king pile R - length + 1: the foundations are built in
fixed rank order, so lengths fix their ranks), whether a source pile would lose its
base card (lengths again), and FLAG; and phi of the result depends only on phi of the
parent and those same things (the refill puts the waste's top card, fixed by the mask
before the stock empties, into the emptied cell).  So for phi(p) = phi(q) every move
of p has a move of q with equal phi after it (same kind, a cell or king pile of the
same rank/length) and conversely, and winning (all lengths full) depends on phi alone:
phi is a bisimulation, so p and q are both winnable or both not.  Different phi are
never merged, so the table is exact for this quotient.

Part 2, the stock-empty merge (proved in docs/windmill-dominance.md, candidate 4; both
presets).  Once TURNED = NSEQ the key drops the waste top from the mask and adds its
rank to the cells' multiset: A = cells + waste top, W = the waste below it.  With the
stock empty the moves are transfers (they read and change only the foundations and
FLAG) and plays of an available card, legal by its rank alone (a cell card and the
waste top are both allowed wherever the other is, under strict too).  Playing rank r
from a cell refills that cell from the waste, so A becomes A - r + top(W); playing the
waste top itself gives A - r + top(W) as well; W loses its top either way (and with W
empty A just loses r).  So equal (foundations, FLAG, A, W) have matching moves to equal
(foundations, FLAG, A, W): a bisimulation again.  With a stock it fails (a turn buries
the waste top but not a cell card; the test has a counterexample), hence TURNED = NSEQ.
With the waste empty the cells may have gaps and hold at most NCELLS ranks, with it
non-empty they hold NCELLS plus the top: the count of non-zero ranks keeps the cases
apart.  What the merge saves: docs/measurements.md.

No forced ("safe") moves, and why: no play to a foundation is safe in this game, even
with the stock empty.  Full-deck counterexample (checked with reference.solve_exhaustive):
stock empty; waste Q 4 3 2 A (A on top); cells K J T 9 8 7 6 5; centre 51 cards (it
needs a K); king piles [K] and three complete ones.  Won: move the centre's Q..A onto
[K], then play A..K to the centre.  After the tempting "K: cell -> centre" it is lost
(the played card covers the run the winning line moves between two foundations; a King
can equally use up the empty king pile another King needs).  Random small positions
gave such losses for every restricted form tried (plays to the centre only, to king
piles only, a King to an empty pile, a Two onto the lone base Ace; with and without a
stock).  Two exact equivalences do hold: once the stock is empty which available card
is the waste top does not matter (part 2 above, used), and under pysolfc every transfer
can be undone by one transfer, so a position could be stored under one representative
of its transfer class (not used: transfers would then have to be folded into macro
plays, or the table would cut them off as repeats).

The foundation endgame (endgame.py, optional: R_ENDGAME = the most stock cards at which
it is tried, -1 = never).  An entered state whose endgame E is lost is not entered: E
is exact once the stock is empty and a relaxation before (both proved there), and it
reads the state alone, never the path, so the table's "stored means searched or
proven lost" keeps every verdict exact.

Narrowing (``R_NARROW`` = 1, never the main search): the stock is turned only when no
cell or waste card can be played to a foundation.  Every line it makes is legal, so its
win is a win (replayed like any other); its exhaustion proves nothing (won deals need
turns while a play is open, e.g. PySolFC seeds 29, 79 and 119): the searcher marks it
``proves_loss = False``.  Measured as a phase of the twin, it won nothing there, so no
search uses it by default (results/windmill-narrowed-twin.md).

Moves (int64): src (bits 0-3: cells 0..7, WASTE 8, king piles 9..12, CENTRE 13, STOCK
14 = turn a card), dst (bits 4-7: CENTRE, a king pile, or WASTE for a turn), score
(bits 32+, higher first; ordering only, never a verdict).  The DFS stack keeps bits
0-7.  Log rows (int32 x 3): src, dst, card (-1 for a turn).
"""

from __future__ import annotations

import numpy as np

# the search's status and counter codes (its generated loop reads them among this module's names)
from ...engine.codes import (C_DEPTH, C_NODES, C_STATUS, CTR_LEN, ST_LOST, ST_MEMORY, ST_PAUSED,  # noqa: F401
                             ST_RUNNING, ST_STACK, ST_WON)
from ...engine.jit import njit
from ...engine.kernel_parts import log_move as _log, push_move as _push, put_small as _put
from ...engine.loop_template import Loop, build
from ...engine.order import noise, noise_base, rand_below, sort_by_score
from . import endgame as EG

CEN0 = 0
KP0 = 52
KLEN0 = 104
CELL0 = 108
WST0 = 116
CLEN = 220
WLEN = 221
TURNED = 222
FLAG = 223
SLEN = 224
NCELLS_MAX = 8
SEQ_MAX = 104

WASTE, KING0, CENTRE, STOCK = 8, 9, 13, 14

R_RANKS, R_NCELLS, R_STRICT, R_PRUNE, R_NSEQ, R_ORDER, R_NOISE, R_ENDGAME, R_EGNODES, R_NARROW = range(10)
RULES_LEN = 10
# the foundation endgame's loss test (endgame.py) runs on entered states with at most
# ENDGAME_STOCK cards in the stock (-1: never), each try at most ENDGAME_NODES of E's
# states.  Off by default: it is sound but cost more time than it saved
# (results/windmill-endgame.md).
ENDGAME_STOCK = -1
ENDGAME_NODES = 1 << 13

MOVE_MASK = 0xFF

KEY_WORDS = 3
# moves per node: at most 14 sources (8 cells, waste, 4 king piles, centre), each to the
# centre and at most 4 king piles, plus the turn: 71
MOVE_SLOTS = 72
MAX_MOVES_PER_NODE = MOVE_SLOTS  # the name kernel_search uses


@njit
def pack_key(st, seq, rules, key, scratch):
    """Write the canonical key of st into key[0:3] (layout and proofs in the module doc)."""
    key[0] = np.uint64(0)
    key[1] = np.uint64(0)
    key[2] = np.uint64(0)
    nw = np.int64(st[WLEN])
    top = 0  # rank of the waste top merged with the cells (0 = none)
    if nw > 0 and st[TURNED] == rules[R_NSEQ]:  # stock empty: merge (module doc, part 2)
        nw -= 1
        top = np.int64(seq[st[WST0 + nw]]) % 13 + 1
    for j in range(nw):
        p = np.int64(st[WST0 + j])
        key[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    _put(key, 104, np.int64(st[TURNED]))
    _put(key, 111, np.int64(st[CLEN]))
    if st[FLAG] != 0:
        _put(key, 117, 1)
    nc = rules[R_NCELLS]
    # the cells' ranks and the merged waste top, sorted (insertion sort in scratch)
    for i in range(nc + 1):
        if i < nc:
            c = np.int64(st[CELL0 + i])
            v = 0 if c < 0 else c % 13 + 1
        else:
            v = top
        j = i - 1
        while j >= 0 and scratch[j] > v:
            scratch[j + 1] = scratch[j]
            j -= 1
        scratch[j + 1] = v
    for i in range(nc + 1):
        _put(key, 128 + 4 * i, scratch[i])
    for k in range(4):
        v = np.int64(st[KLEN0 + k])
        j = k - 1
        while j >= 0 and scratch[j] > v:
            scratch[j + 1] = scratch[j]
            j -= 1
        scratch[j + 1] = v
    for k in range(4):
        _put(key, 164 + 4 * k, scratch[k])
    key[2] |= np.uint64(1) << np.uint64(63)


@njit(inline="always")
def _turn(st, seq):
    w = st[WLEN]
    st[WST0 + w] = st[TURNED]
    st[WLEN] = w + 1
    st[TURNED] += 1


@njit
def apply_move(st, m, seq, rules, log, n, dolog):
    """Apply move m (and the game's refills) to st in place; returns the new log length."""
    src = m & 15
    dst = (m >> 4) & 15
    if src == STOCK:
        _turn(st, seq)
        if dolog:
            n = _log(log, n, STOCK, WASTE, -1)
        return n
    if src < WASTE:
        c = np.int64(st[CELL0 + src])
        st[CELL0 + src] = -1
    elif src == WASTE:
        w = st[WLEN] - 1
        c = np.int64(seq[st[WST0 + w]])
        st[WLEN] = w
    elif src == CENTRE:
        L = st[CLEN] - 1
        c = np.int64(st[CEN0 + L])
        st[CLEN] = L
    else:
        k = src - KING0
        L = st[KLEN0 + k] - 1
        c = np.int64(st[KP0 + 13 * k + L])
        st[KLEN0 + k] = L
    if dst == CENTRE:
        L = st[CLEN]
        st[CEN0 + L] = c
        st[CLEN] = L + 1
        if rules[R_STRICT] != 0:
            st[FLAG] = 1 if (src >= KING0 and src < CENTRE) else 0
    else:
        k = dst - KING0
        L = st[KLEN0 + k]
        st[KP0 + 13 * k + L] = c
        st[KLEN0 + k] = L + 1
    if dolog:
        n = _log(log, n, src, dst, c)
    # the game's refills: an emptied cell takes the waste top; an empty waste a stock card
    if src < WASTE and st[WLEN] > 0:
        w = st[WLEN] - 1
        st[CELL0 + src] = seq[st[WST0 + w]]
        st[WLEN] = w
    if st[WLEN] == 0 and st[TURNED] < rules[R_NSEQ]:
        _turn(st, seq)
    return n


@njit
def is_won(st, rules):
    r = rules[R_RANKS]
    return (st[CLEN] == 4 * r and st[KLEN0] == r and st[KLEN0 + 1] == r and st[KLEN0 + 2] == r
            and st[KLEN0 + 3] == r)


@njit
def endgame_lost(st, seq, rules, visit, egstack, egc, pool, queue, kings):
    """True if the foundation endgame E of st (endgame.py: exact with the stock empty, a
    relaxation before) is lost, so that st is lost; False if E is won or undecided."""
    R = rules[R_RANKS]
    for r in range(R + 1):
        pool[r] = 0
    for i in range(rules[R_NCELLS]):
        c = np.int64(st[CELL0 + i])
        if c >= 0:
            pool[c % 13 + 1] += 1
    for p in range(np.int64(st[TURNED]), rules[R_NSEQ]):
        pool[np.int64(seq[p]) % 13 + 1] += 1
    nw = np.int64(st[WLEN])
    if nw > 0:
        pool[np.int64(seq[st[WST0 + nw - 1]]) % 13 + 1] += 1
    nq = 0
    for j in range(nw - 2, -1, -1):
        queue[nq] = np.int64(seq[st[WST0 + j]]) % 13 + 1
        nq += 1
    for k in range(4):
        kings[k] = st[KLEN0 + k]
    got = EG.solve(np.int64(st[CLEN]), kings, np.int64(st[FLAG]), pool, queue, nq, R, rules[R_STRICT] != 0,
                   visit, egstack, egc, rules[R_EGNODES])
    return got == EG.EG_LOST


@njit
def gen_moves(st, seq, rules, moves, n0):
    """Write the moves of st into moves[n0:], best first; return the new end.

    Without R_PRUNE every legal move is listed (differential tests, perft).  With it
    (search), a move is left out only if its child has the same key as the parent
    (stored, on the path) or as the child of a move that is kept (which the DFS
    enters, unless its key is stored already).  Equal keys mean equal game values
    (module doc), so the states searched are the same up to that equivalence and no
    verdict can change; the table would skip most of them anyway:
    - a card goes only into the first empty king pile (the children differ by a
      permutation of the king piles);
    - no king pile's top moves to another king pile (see the comment there: the
      child's key is the parent's);
    - of several cells holding the same rank, only the first plays (the children
      differ by suits and cell order only).
    Order (heuristic; it never changes a verdict): cell and waste cards to the
    foundations first, then transfers between foundations, then the turn of the
    stock.  R_ORDER = 1 tries king piles before the centre and the turn before
    transfers: it decides fewer deals than order 0 but partly other ones
    (docs/measurements.md), so the twin uses it.
    R_NOISE > 0 adds a pseudo-random 0..255 to every score, seeded by R_NOISE and the
    state's counters (so a state always gets the same order within one search): the
    restarted searches (searcher.restarts) each try another order.
    """
    R = rules[R_RANKS]
    nc = rules[R_NCELLS]
    strict = rules[R_STRICT] != 0
    prune = rules[R_PRUNE] != 0
    kings_first = rules[R_ORDER] == 1
    n = n0
    first_empty = -1
    for k in range(4):
        if st[KLEN0 + k] == 0:
            first_empty = k
            break
    cwant = np.int64(st[CLEN]) % R + 1  # rank the centre takes next
    for src in range(CENTRE + 1):
        if src < WASTE:
            if src >= nc:
                continue
            c = np.int64(st[CELL0 + src])
            if c < 0:
                continue
            if prune:
                dup = False
                for i in range(src):
                    ci = np.int64(st[CELL0 + i])
                    if ci >= 0 and ci % 13 == c % 13:
                        dup = True
                        break
                if dup:
                    continue
            base = 300
        elif src == WASTE:
            if st[WLEN] == 0:
                continue
            c = np.int64(seq[st[WST0 + st[WLEN] - 1]])
            base = 300
        elif src == CENTRE:
            if st[CLEN] <= 1 or strict:
                continue
            c = np.int64(st[CEN0 + st[CLEN] - 1])
            base = 100
        else:
            k = src - KING0
            L = np.int64(st[KLEN0 + k])
            if L == 0:
                continue
            if strict and (L == 1 or st[FLAG] != 0):
                continue
            c = np.int64(st[KP0 + 13 * k + L - 1])
            base = 100
        r = c % 13 + 1
        # to the centre
        if src != CENTRE and r == cwant and st[CLEN] < 4 * R:
            n = _push(moves, n, (np.int64(base + (40 if kings_first else 50)) << 32) | src | (CENTRE << 4))
        if src >= KING0 and src < CENTRE and (strict or prune):
            # strict: king piles give to the centre only.  Pruning: a king pile's top
            # (rank R - L + 1) fits another king pile only if that pile has length L - 1
            # (or is empty, for a base King); the child then has the two lengths swapped,
            # so its key (sorted lengths) equals the parent's: the table skips it anyway.
            continue
        for k in range(4):
            if src == KING0 + k:
                continue
            L = np.int64(st[KLEN0 + k])
            if L == 0:
                if r != R:
                    continue
                if prune and k != first_empty:
                    continue
            else:
                t = np.int64(st[KP0 + 13 * k + L - 1])
                if t % 13 + 1 != r + 1:
                    continue
            n = _push(moves, n, (np.int64(base + (50 if kings_first else 40)) << 32) | src | ((KING0 + k) << 4))
    turn = st[TURNED] < rules[R_NSEQ]
    if turn and rules[R_NARROW] != 0:
        for x in range(n0, n):
            if (moves[x] & 15) <= WASTE:  # a cell or waste card can be played: no turn
                turn = False
                break
    if turn:
        n = _push(moves, n, (np.int64(200 if kings_first else 10) << 32) | STOCK | (WASTE << 4))
    if rules[R_NOISE] > 0:
        base = noise_base(rules[R_NOISE], np.int64(st[TURNED]) | (np.int64(st[CLEN]) << 8) | (np.int64(st[WLEN]) << 16))
        for x in range(n0, n):
            m = moves[x]
            moves[x] = m + (noise(base, np.uint64(m & MOVE_MASK) << np.uint64(40)) << 32)
    sort_by_score(moves, n0, n)  # best first
    return n


# ----------------------------------------------------------------- playouts
# Randomized greedy playouts (solver/engine/playouts.py): from the root, one move after another
# chosen by gen_moves's score plus a random 0..spread-1, until won, stuck or PLAYOUT_DEPTH
# moves; then again from the root.  A win is a line of legal moves (replayed like any
# other); running out proves nothing.  Workspace ``pw`` = (cur, path, best, pctr, rng):
# the current row, the moves of the current playout (as the DFS stack keeps them), the
# best progress as search_init's ``best``, the counters below, the generator's state.
P_NODES, P_DEPTH, P_STATUS, P_PLAYOUTS, P_SPREAD, P_ORDER, P_LAST, P_RUN, P_EPS = range(9)
PCTR_LEN = 9
PLAYOUT_DEPTH = 1024
# the most foundation-to-foundation transfers in a row (a run of up to R - 1 cards can
# move between the centre and a king pile; more would only circle)
PLAYOUT_TRANSFERS = 2 * 13


@njit
def _playout_pick(cur, seq, r, moves, pctr, rng, d, cap):
    """A playout's next move from cur (module comment above; -1: none, or ``cap`` moves
    deep): gen_moves with the rules given (pruned: only moves to positions of distinct
    keys) in this playout's order, the move of highest score + rand_below(spread) (a
    transfer that lets a waiting cell or waste card onto a foundation scores as a play),
    or with the playout's chance a uniform move; never the move just made undone nor more
    than PLAYOUT_TRANSFERS transfers in a row.  ``r``: the rules, changed here."""
    r[R_NOISE] = 0
    r[R_ORDER] = pctr[P_ORDER]
    n = gen_moves(cur, seq, r, moves, 0) if d < cap else 0
    pick = -1
    top = np.int64(-1)
    last = pctr[P_LAST]
    avail = 0  # ranks a foundation could take from a cell or the waste top
    for i in range(r[R_NCELLS]):
        c = np.int64(cur[CELL0 + i])
        if c >= 0:
            avail |= 1 << (c % 13 + 1)
    if cur[WLEN] > 0:
        avail |= 1 << (np.int64(seq[cur[WST0 + cur[WLEN] - 1]]) % 13 + 1)
    R = r[R_RANKS]
    uni = pctr[P_EPS] > 0 and rand_below(rng, 32) < (np.int64(1) << pctr[P_EPS])
    for x in range(n):
        m = moves[x] & MOVE_MASK
        src = m & 15
        dst = (m >> 4) & 15
        if src >= KING0 and src <= CENTRE:  # a transfer
            if pctr[P_RUN] >= PLAYOUT_TRANSFERS:
                continue
            if last >= 0 and (last & 15) == dst and ((last >> 4) & 15) == src:
                continue  # the last move undone
            if src == CENTRE:
                c = np.int64(cur[CEN0 + cur[CLEN] - 1])
            else:
                c = np.int64(cur[KP0 + 13 * (src - KING0) + cur[KLEN0 + src - KING0] - 1])
            rc = c % 13 + 1
            nxt = rc % R + 1 if dst == CENTRE else rc - 1
            if (avail >> rc) & 1 or (nxt > 0 and (avail >> nxt) & 1):
                bonus = 200  # it frees a place for a card that waits
            else:
                bonus = 0
        else:
            bonus = 0
        v = rand_below(rng, 1024) if uni else (moves[x] >> 32) + bonus + rand_below(rng, pctr[P_SPREAD])
        if v > top:
            top = v
            pick = m
    return pick


# --- the search: engine/loop_template.py's DFS and playout loops, with this game's moves
LOOP = Loop(
    ws="rows, moves, lend, lnext, ctr, best, key, eg_visit, eg_stack, egc", ctx="seq = ctx[0]", log_width=3,
    locals="""
scratch = np.zeros(NCELLS_MAX + 1, dtype=np.int64)
eg_on = rules[R_ENDGAME] >= 0
pool = np.zeros(14, dtype=np.int64)
queue = np.zeros(SEQ_MAX, dtype=np.int64)
kings = np.zeros(4, dtype=np.int64)""",
    apply="apply_move($st, $m, seq, rules, $log, $n, $dolog)",
    gen="gen_moves($st, seq, rules, $moves, $start)", mask="MOVE_MASK",
    key="pack_key($st, seq, rules, $key, scratch)",
    home="home = np.int64($st[CLEN]) + $st[KLEN0] + $st[KLEN0 + 1] + $st[KLEN0 + 2] + $st[KLEN0 + 3]",
    enter="""
if eg_on and rules[R_NSEQ] - $st[TURNED] <= rules[R_ENDGAME]:
    # proven lost by its foundation endgame (endgame.py): nothing to enter
    if endgame_lost($st, seq, rules, eg_visit, eg_stack, egc, pool, queue, kings):
        continue""",
    playouts=True, pick="_playout_pick($st, seq, r, moves, pctr, rng, d, cap)", restart="""
pctr[P_ORDER] = rand_below(rng, 2)
pctr[P_LAST] = -1
pctr[P_RUN] = 0
pctr[P_EPS] = rand_below(rng, 4)  # 0: no uniform moves; e: a uniform move with chance 2**e / 32""", played="""
pctr[P_LAST] = pick
src = pick & 15
pctr[P_RUN] = pctr[P_RUN] + 1 if (src >= KING0 and src <= CENTRE) else 0""")
BUILT = build(__name__, LOOP)
search_init, search_run = BUILT.search_init, BUILT.search_run
expand_line, successors = BUILT.expand_line, BUILT.successors
keys_of, playout_init, playout_run = BUILT.keys_of, BUILT.playout_init, BUILT.playout_run
