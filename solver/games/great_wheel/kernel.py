"""Great Wheel search kernel (numba): state, moves, keys and an iterative DFS.

Everything jitted for Great Wheel lives in this one file (numba cache trap, see jit.py).

Working state: int8 rows, copy-make (a child is a copy of its parent with one move
applied).  The DFS keeps rows for the last ``W`` levels in a ring plus a checkpoint row
every ``B`` levels, and rebuilds a block from its checkpoint by replaying the path's
moves when it backs up below the ring (the scheme of beleaguered_castle/kernel.py).

The talon sequence ``talon`` (int8[64]) is fixed for a search: the root's waste bottom
to top, then the root's stock in the order it is turned (top first).  Cards only leave
the waste from its top, so the waste is always a subsequence of the turned part of it.

    | field       | index          | meaning                                           |
    |-------------|----------------|---------------------------------------------------|
    | pile cards  | P0 + 16*i + j  | card j (bottom = 0) of tableau pile i             |
    | pile length | LEN0 + i       | cards in pile i                                   |
    | waste       | WST0 + j       | talon position of waste card j (bottom = 0)       |
    | waste size  | WLEN           |                                                   |
    | turned      | ND             | talon positions turned so far (stock = talon[ND:])|
    | aces        | ACN, ACOL      | Aces on their foundation, colour of the top (1 red)|
    | evens       | EV0 + 2*s + k  | cards on the k-th Evens pile of suit s (k=0 higher)|
    | odds        | OD0 + 2*s + k  | the same for Odds                                 |

A card is 13*suit + rank - 1 (suits C D H S).  At most two Evens (Odds) piles hold a
suit (it has two Twos / Threes), so per suit two heights, kept sorted, describe them.
A pile is at most 4 "base" cards (a deal or refill, see below) plus a run built down
in suit (at most 11 cards): 16 cells.

Packed canonical key (6 x uint64 = 48 bytes):

    | word | content                                                             |
    |------|---------------------------------------------------------------------|
    | 0..3 | the 8 pile descriptors, sorted, two 31-bit descriptors per word     |
    | 4    | waste mask: bit p set if talon position p is in the waste           |
    | 5    | bits 0-6: ND; bit 7: top Ace red (0 if no Ace); bit 63: marker      |

A pile descriptor is ``b << 28 | c0 << 22 | c1 << 16 | c2 << 10 | c3 << 4 | r`` where the
pile is its b base cards c0..c(b-1) (bottom first, unused slots 0) and then a run of
r cards, each of the suit of the card below it and one rank lower; b is the length minus
the longest such run on top (position.base_length), so the descriptor depends on the
pile alone and determines it (the run's cards follow from c(b-1) and r).  b <= 4 holds
for every reachable pile: a pile gets cards only from the deal or a refill (at most 4,
after which b only shrinks), as the single card put into an empty pile, or by building,
which extends the top run.  An empty pile is descriptor 0.

Why the key is exact (equal keys => positions of equal game value):
- the tableau is given as a multiset of piles; the waste as the talon positions it
  holds (in talon order, which is its bottom-to-top order) and the stock as talon[ND:];
- the foundations hold every card not in tableau, waste or stock, so they need no bits
  except the colour of the top Ace: the rules read the Ace foundation only through that
  colour, and each suit's Evens (Odds) piles through their heights, which the cards on
  them determine: both piles of a suit are prefixes 2, 4, ... (3, 5, ...), so with
  counts n_r in {0, 1, 2} of rank r on them the heights are #{r: n_r >= 1} and
  #{r: n_r = 2};
- tableau piles are interchangeable: no rule reads a tableau pile's index (moves read
  top cards; a refill goes to "the" empty pile: while stock or waste have cards no pile
  is empty after the automatic actions, and a move empties at most one pile), so a
  position and its copy with two piles swapped have the same game value (as Solvitaire
  does, Blake & Gent 2026).
The transposition table (solver/engine/tt.py) prunes a state only when all six words equal a
stored key: never on a hash alone.

Pruning (``R_PRUNE``), all exact by the pile symmetry above: a card goes only into the
first empty tableau pile, and the only card of a pile never moves into an empty pile.
No foundation move is forced: with two decks and the automatic refill a "safe" move
needs a proof we do not have (e.g. an Ace is not safe: colours must alternate; even a
Two changes which cards a later refill takes from the waste).

Narrowing (``R_NARROW``, for the win-finding twin only, never the main search): at
level 1, a Two or Three on the waste top is played and nothing else is listed; at level
2, so is any waste top that a foundation takes.  The move kept is legal, so every line
of a narrowed search is a legal line and its win a real win (replayed like any other).
(A Two or Three is in fact always playable: a suit's two Evens piles hold one card per
Two of that suit on them, so while a Two lies in the waste one of them is empty; the same
for Threes.)  A narrowed search's exhaustion proves nothing: burying a Two can be the
only way to win, because a later refill then takes it instead of a deeper waste card
(tests/test_gw_narrowed.py has such a deal).  The searcher marks such a search
``proves_loss = False``: running out of moves only ends that level of the twin's ladder
(searcher.narrowed_twin), and search.drive drops the spent ladder.

Moves (int64): kind (bits 0-3), a (4-7), b (8-11), score (32+, higher tried first):
K_DRAW; K_ACE (a = source: pile 0..7 or SRC_WASTE); K_FND (a = source, to the Evens or
Odds pile of the card's suit that takes it); K_PILE (a = source, b = target pile);
K_EBACK / K_OBACK (pysolfc: a = 2*suit + k, the Evens/Odds pile's top card to pile b).
The DFS stack keeps bits 0-11 (int16).

Log rows (int32 x 3) for the winning line: source, target, card (-1 for a draw); places
0..7 tableau piles, LOC_WASTE, LOC_STOCK, LOC_ACES, LOC_EVENS, LOC_ODDS.  Which Evens or
Odds pile is meant is decided by the codec (lowest-numbered pile that fits).
"""

from __future__ import annotations

import numpy as np

# the search's status and counter codes (its generated loop reads them among this module's names)
from ...engine.codes import (C_DEPTH, C_LO, C_NODES, C_STATUS, ST_LOST, ST_MEMORY, ST_PAUSED,  # noqa: F401
                             ST_RUNNING, ST_STACK, ST_WON, RING_CTR_LEN as CTR_LEN)
from ...engine.jit import njit
from ...engine.kernel_parts import log_move as _log, push_move as _push
from ...engine.loop_template import Loop, build
from ...engine.order import rand_below, sort_by_score

CAP = 16
NPILES_MAX = 8
P0 = 0
LEN0 = 128
WST0 = 136
WLEN = 200
ND = 201
ACN = 202
ACOL = 203
EV0 = 204
OD0 = 212
SLEN = 220
TALON_MAX = 64

R_RANKS, R_NPILES, R_PRUNE, R_BACK, R_TLEN, R_FILL, R_NARROW = 0, 1, 2, 3, 4, 5, 6
RULES_LEN = 7

K_DRAW, K_ACE, K_FND, K_PILE, K_EBACK, K_OBACK = 0, 1, 2, 3, 4, 5
SRC_WASTE = 8
LOC_WASTE, LOC_STOCK, LOC_ACES, LOC_EVENS, LOC_ODDS = 8, 9, 10, 11, 12

MOVE_MASK = 0xFFF

KEY_WORDS = 6
MAX_MOVES_PER_NODE = 256


@njit(inline="always")
def _red(c):
    s = c // 13
    return 1 if (s == 1 or s == 2) else 0


@njit
def _base_len(st, i):
    L = np.int64(st[LEN0 + i])
    k = L
    base = P0 + i * CAP
    while k >= 2:
        u = np.int64(st[base + k - 1])
        v = np.int64(st[base + k - 2])
        if u // 13 == v // 13 and u % 13 + 1 == v % 13:
            k -= 1
        else:
            break
    return k


@njit
def pack_key(st, rules, key):
    """Write the canonical 48-byte key of st into key[0:6] (layout in module doc)."""
    npiles = rules[R_NPILES]
    desc = np.zeros(NPILES_MAX, dtype=np.int64)
    for i in range(npiles):
        L = np.int64(st[LEN0 + i])
        b = _base_len(st, i)
        d = b << 28
        for j in range(b):
            d |= np.int64(st[P0 + i * CAP + j]) << (22 - 6 * j)
        d |= L - b
        # insertion into the sorted prefix desc[0:i]
        x = i
        while x > 0 and desc[x - 1] > d:
            desc[x] = desc[x - 1]
            x -= 1
        desc[x] = d
    for w in range(4):
        key[w] = np.uint64(desc[2 * w]) | (np.uint64(desc[2 * w + 1]) << np.uint64(31))
    mask = np.uint64(0)
    for j in range(st[WLEN]):
        mask |= np.uint64(1) << np.uint64(st[WST0 + j])
    key[4] = mask
    w5 = np.uint64(st[ND])
    if st[ACN] > 0 and st[ACOL] == 1:
        w5 |= np.uint64(1) << np.uint64(7)
    key[5] = w5 | (np.uint64(1) << np.uint64(63))


@njit(inline="always")
def _push_pile(st, i, c):
    L = st[LEN0 + i]
    st[P0 + i * CAP + L] = c
    st[LEN0 + i] = L + 1


@njit(inline="always")
def _turn(st):
    st[WST0 + st[WLEN]] = st[ND]
    st[WLEN] += 1
    st[ND] += 1


@njit
def settle(st, talon, rules):
    """The automatic actions: turn a card onto an empty waste; refill an empty pile."""
    tlen = rules[R_TLEN]
    if st[WLEN] == 0 and st[ND] < tlen:
        _turn(st)
    for i in range(rules[R_NPILES]):
        if st[LEN0 + i] == 0 and (st[WLEN] > 0 or st[ND] < tlen):
            for _ in range(rules[R_FILL]):
                if st[WLEN] == 0:
                    if st[ND] >= tlen:
                        break
                    _turn(st)
                w = st[WLEN] - 1
                _push_pile(st, i, talon[st[WST0 + w]])
                st[WLEN] = w
            if st[WLEN] == 0 and st[ND] < tlen:
                _turn(st)


@njit
def _take(st, talon, src):
    """Remove and return the top card of a pile (src 0..7) or the waste (SRC_WASTE)."""
    if src == SRC_WASTE:
        w = st[WLEN] - 1
        st[WLEN] = w
        return np.int64(talon[st[WST0 + w]])
    L = st[LEN0 + src] - 1
    st[LEN0 + src] = L
    return np.int64(st[P0 + src * CAP + L])


@njit
def apply_move(st, m, talon, rules, log, n, dolog):
    """Apply move m (and the automatic actions) to st in place; returns the log length."""
    kind = m & 15
    a = (m >> 4) & 15
    b = (m >> 8) & 15
    if kind == K_DRAW:
        _turn(st)
        if dolog:
            n = _log(log, n, LOC_STOCK, LOC_WASTE, -1)
    elif kind == K_ACE:
        c = _take(st, talon, a)
        st[ACN] += 1
        st[ACOL] = _red(c)
        if dolog:
            n = _log(log, n, a, LOC_ACES, c)
    elif kind == K_FND:
        c = _take(st, talon, a)
        r = c % 13 + 1
        s = c // 13
        if r % 2 == 0:
            base = EV0
            h = r // 2 - 1
            loc = LOC_EVENS
        else:
            base = OD0
            h = (r - 3) // 2
            loc = LOC_ODDS
        if st[base + 2 * s] == h:
            st[base + 2 * s] += 1
        else:
            st[base + 2 * s + 1] += 1
        if dolog:
            n = _log(log, n, a, loc, c)
    elif kind == K_PILE:
        c = _take(st, talon, a)
        _push_pile(st, b, c)
        if dolog:
            n = _log(log, n, a, b, c)
    else:
        s = a >> 1
        if kind == K_EBACK:
            h = np.int64(st[EV0 + a])
            c = s * 13 + 2 * h - 1  # rank 2h
            st[EV0 + a] = h - 1
            loc = LOC_EVENS
        else:
            h = np.int64(st[OD0 + a])
            c = s * 13 + 2 * h  # rank 2h + 1
            st[OD0 + a] = h - 1
            loc = LOC_ODDS
        _push_pile(st, b, c)
        if dolog:
            n = _log(log, n, loc, b, c)
    settle(st, talon, rules)
    return n


@njit
def is_won(st, rules):
    if st[ND] < rules[R_TLEN] or st[WLEN] > 0:
        return False
    for i in range(rules[R_NPILES]):
        if st[LEN0 + i] > 0:
            return False
    return True


@njit
def _to_piles(st, rules, moves, n, c, src, src_len, kind, a, first_empty, prune, base_score):
    """Moves of card c (from source a of ``kind``) onto tableau piles (stock is empty)."""
    for j in range(rules[R_NPILES]):
        if kind == K_PILE and j == src:
            continue
        Lj = st[LEN0 + j]
        if Lj == 0:
            if prune and (j != first_empty or src_len == 1):
                continue
            score = base_score
        else:
            t = np.int64(st[P0 + j * CAP + Lj - 1])
            if t // 13 != c // 13 or t % 13 != c % 13 + 1:
                continue
            score = base_score + 200
        n = _push(moves, n, (np.int64(score) << 32) | kind | (a << 4) | (j << 8))
    return n


@njit
def _foundation_play(st, c):
    """The kind of the foundation play of card c (K_ACE or K_FND), or -1 if none takes it."""
    r = c % 13 + 1
    s = c // 13
    if r == 1:
        return K_ACE if (st[ACN] == 0 or st[ACOL] != _red(c)) else -1
    if r % 2 == 0:
        h = r // 2 - 1
        return K_FND if (st[EV0 + 2 * s] == h or st[EV0 + 2 * s + 1] == h) else -1
    h = (r - 3) // 2
    return K_FND if (st[OD0 + 2 * s] == h or st[OD0 + 2 * s + 1] == h) else -1


@njit
def gen_moves(st, talon, rules, moves, n0):
    """Write the moves of st into moves[n0:], best first; return the new end.

    Without R_PRUNE every legal move is listed (one per distinct result; differential
    tests, perft).  With it, the two symmetry reductions of the module doc apply.
    The order is a heuristic only: foundation plays, then turning a card, then builds.
    With R_NARROW, a waste top that the level narrows to is the only move listed (module
    doc).
    """
    npiles = rules[R_NPILES]
    prune = rules[R_PRUNE] != 0
    stock_empty = st[ND] >= rules[R_TLEN]
    n = n0
    if rules[R_NARROW] != 0 and st[WLEN] > 0:
        c = np.int64(talon[st[WST0 + st[WLEN] - 1]])
        kind = _foundation_play(st, c)
        if kind >= 0 and (rules[R_NARROW] >= 2 or c % 13 == 1 or c % 13 == 2):
            moves[n] = (np.int64(1000) << 32) | kind | (SRC_WASTE << 4)
            return n + 1
    first_empty = -1
    for j in range(npiles):
        if st[LEN0 + j] == 0:
            first_empty = j
            break
    for src in range(npiles + 1):
        if src == npiles:
            if st[WLEN] == 0:
                continue
            a = SRC_WASTE
            c = np.int64(talon[st[WST0 + st[WLEN] - 1]])
            src_len = 0
        else:
            L = st[LEN0 + src]
            if L == 0:
                continue
            a = src
            c = np.int64(st[P0 + src * CAP + L - 1])
            src_len = np.int64(L)
        kind = _foundation_play(st, c)
        if kind >= 0:
            n = _push(moves, n, (np.int64(1000) << 32) | kind | (a << 4))
        if stock_empty:
            n = _to_piles(st, rules, moves, n, c, src, src_len, K_PILE, a, first_empty, prune, 100)
    if stock_empty and rules[R_BACK] != 0:
        for s in range(4):
            for k in range(2):
                for odd in range(2):
                    base = OD0 if odd else EV0
                    hk = st[base + 2 * s + k]
                    ho = st[base + 2 * s + 1 - k]
                    if hk == 0:
                        continue
                    if k == 0 and hk == ho:
                        continue  # same top card as pile k = 1: one move (keeps heights sorted)
                    if odd:
                        c = np.int64(s * 13 + 2 * hk)
                        kind = K_OBACK
                    else:
                        c = np.int64(s * 13 + 2 * hk - 1)
                        kind = K_EBACK
                    n = _to_piles(st, rules, moves, n, c, -1, 0, kind, 2 * s + k, first_empty, prune, 0)
    if not stock_empty:
        n = _push(moves, n, (np.int64(500) << 32) | K_DRAW)
    sort_by_score(moves, n0, n)  # best first
    return n


# ----------------------------------------------------------------- playouts
# Randomized greedy playouts (solver/engine/playouts.py), as in windmill/kernel.py: from the root,
# one move after another chosen by gen_moves's score plus a random 0..spread-1 (or, with
# the playout's chance, uniformly), until won, stuck or PLAYOUT_DEPTH moves; then again
# from the root.  A win is a line of legal moves (replayed like any other); running out
# proves nothing.  Workspace ``pw`` = (cur, path, best, pctr, rng): the current row, the
# moves of the current playout (as the DFS stack keeps them), the best progress (one move
# a word), the counters below, the generator's state.
P_NODES, P_DEPTH, P_STATUS, P_PLAYOUTS, P_SPREAD, P_LAST, P_RUN, P_EPS = range(8)
PCTR_LEN = 8
PLAYOUT_DEPTH = 2048
PLAYOUT_SHUFFLES = 32  # the most tableau builds and moves back from the foundations in a row


@njit
def _playout_pick(cur, talon, r, moves, pctr, rng, d, cap):
    """A playout's next move from cur (module comment above; -1: none, or ``cap`` moves
    deep): gen_moves with the rules given (pruned: only moves to positions of distinct
    keys), the move of highest score + rand_below(spread), or with the playout's chance a
    uniform move; never a build that undoes the last one, nor more than PLAYOUT_SHUFFLES
    builds and moves back in a row."""
    n = gen_moves(cur, talon, r, moves, 0) if d < cap else 0
    uni = pctr[P_EPS] > 0 and rand_below(rng, 32) < (np.int64(1) << pctr[P_EPS])
    pick = -1
    top = np.int64(-1)
    last = pctr[P_LAST]
    for x in range(n):
        m = moves[x] & MOVE_MASK
        kind = m & 15
        if kind == K_PILE or kind == K_EBACK or kind == K_OBACK:
            if pctr[P_RUN] >= PLAYOUT_SHUFFLES:
                continue
            if (kind == K_PILE and last >= 0 and (last & 15) == K_PILE and ((last >> 4) & 15) == ((m >> 8) & 15)
                    and ((last >> 8) & 15) == ((m >> 4) & 15)):
                continue  # the last build undone
        v = rand_below(rng, 4096) if uni else (moves[x] >> 32) + rand_below(rng, pctr[P_SPREAD])
        if v > top:
            top = v
            pick = m
    return pick


# --- the search: engine/loop_template.py's DFS and playout loops, with this game's moves
LOOP = Loop(
    ws="ring, ckpt, moves, lend, lnext, ctr, best, key, block", ring=True, packed_best=True,
    ctx="talon = ctx[0]", log_width=3, mask="MOVE_MASK",
    apply="apply_move($st, $m, talon, rules, $log, $n, $dolog)",
    gen="gen_moves($st, talon, rules, $moves, $start)", key="pack_key($st, rules, $key)",
    home="""
home = np.int64($st[ACN])
for x in range(8):
    home += $st[EV0 + x] + $st[OD0 + x]""",
    playouts=True, pick="_playout_pick($st, talon, r, moves, pctr, rng, d, cap)", restart="""
pctr[P_EPS] = rand_below(rng, 4)  # a uniform move with chance 0, 1/16, 1/8 or 1/4
pctr[P_LAST] = -1
pctr[P_RUN] = 0""", played="""
pctr[P_LAST] = pick
kind = pick & 15
pctr[P_RUN] = pctr[P_RUN] + 1 if (kind == K_PILE or kind == K_EBACK or kind == K_OBACK) else 0""")
BUILT = build(__name__, LOOP)
search_init, search_run = BUILT.search_init, BUILT.search_run
expand_line, successors = BUILT.expand_line, BUILT.successors
keys_of, playout_init, playout_run = BUILT.keys_of, BUILT.playout_init, BUILT.playout_run
