"""Klondike search kernel (numba): state, moves, keys and an iterative DFS.

Everything jitted for Klondike lives in this one file (numba cache trap, see jit.py).

Working state: one int32 row per search depth (copy-make: a child is a copy of its
parent with one move applied, so there is no undo code to get wrong).

    | field        | index          | meaning                                        |
    |--------------|----------------|------------------------------------------------|
    | pile cards   | P0 + 20*i + j  | card j (bottom=0) of pile i, card = 13*suit+rank-1 |
    | pile length  | LEN0 + i       | cards in pile i                                 |
    | face down    | DOWN0 + i      | face-down cards at the bottom of pile i         |
    | foundation   | FND0 + s       | cards on foundation of suit s (C, D, H, S)      |
    | talon mask   | TMASK          | bit t set: talon[t] is still in stock or waste  |
    | talon ptr    | TPTR           | waste-top talon index + 1, 0 = waste empty      |
    | redeals      | REDEALS        | waste turned over so far (0 if unlimited)       |
    | pending      | PEND           | card + 1 of the talon card the next move must   |
    |              |                | build on (search, draw 1, unlimited), 0 = none  |
    | locations    | LOC0 + c       | pile * 20 + index where card c was last put in  |
    |              |                | the tableau; stale once c leaves it (_where)    |
    | talon Kings  | TKINGS         | bit t set: talon[t] is a King (fixed per deal)  |
    | talon cards  | TCARDS + w     | bit b of word w set: card 26 * w + b is still   |
    |              |                | in the talon                                    |

The talon ("stock + waste") is one fixed sequence in draw order, ``talon = waste
(bottom..top) + stock (top..bottom)``: cards only ever leave it, and turning the waste
over restarts drawing at its beginning, so a mask and a pointer describe it exactly.

Exact key of the unpruned search (R_PRUNE off: perft, differential tests; 3 x uint64 =
24 bytes; bit offsets over the 192-bit string):

    | bits      | field                                                           |
    |-----------|-----------------------------------------------------------------|
    | 22*i..+21 | pile slot i: down (3) | first face-up card (6) | run code (13)  |
    | 154..177  | talon mask (24)                                                  |
    | 178..182  | talon ptr (5); 0 for draw 1 with unlimited passes, where every   |
    |           | talon card is reachable from any pointer, so it cannot matter    |
    | 183..185  | redeals (3)                                                      |
    | 191       | marker, always 1 (an all-zero word means an empty TT slot)      |

Run code: the face-up cards always form a run built down in alternating colours, so
after the first card each card is fixed up to one bit (which suit of its colour:
C/D = 0, H/S = 1); the code is those bits with a marker bit above them.  Pile slots:
piles holding face-down cards stay in place (their hidden cards tie them to it);
piles with none are interchangeable and are written in sorted order (symmetry).
Foundations are not stored: they hold exactly the cards found nowhere else.

Moves (int64): kind (bits 0-3), a (4-11), b (12-15), count (16-23), redeal flag (24),
King source (25-26, K_EMPTY_KING), score (32+, higher is tried first).  Kinds: pile top
to foundation (a = pile), talon card to foundation (a = talon index), talon card to pile
b, run of ``count`` cards from pile a to pile b, foundation of suit a to pile b, and
(class key) the run of ``count`` cards on a card of pile a onto its twin on pile b, then
that card to its foundation; pile a whole onto pile b, then a King into pile a (KINGMAC:
talon index, suit or pile of the King in bits 16-23).
A talon move is a "stock macro-move": draw (turning the waste over if needed, flag
set) until talon[a] is on top of the waste, then play it.  Any line can be reordered that way, because draws commute
with every move that does not touch the waste.  Where a card first reaches the waste
top dominates every later time (same talon, fewer redeals), so only that one is kept.

Log rows (int32 x 5) for the winning line: type (0 draw, 1 redeal, 2 move), src, dst,
card, count; piles 0..6, foundations 7..10, stock 11, waste 12.

Class key (R_CLASS, set exactly when R_PRUNE is: the search).  Two words, 16 bytes a
table entry (a third word, if the key array has one, holds only the marker):

    | word | bits   | field                                                        |
    |------|--------|--------------------------------------------------------------|
    | 0    | 0..15  | foundations, 4 bits per suit                                 |
    | 0    | 16..39 | talon mask                                                   |
    | 0    | 40..63 | pile digits in base 9, pile 0 lowest: d + 1 for a pile with  |
    |      |        | d > 0 face-down cards; else 1 if its bottom card is not a    |
    |      |        | King, 0 for a King there or an empty pile (d <= 7, validate) |
    | 1    | 0..4   | talon ptr; 0 with unlimited passes at draw 1, and at draw    |
    |      |        | k > 1 when the waste holds a multiple of k or all the talon  |
    | 1    | 5..7   | redeals                                                      |
    | 1    | 8..13  | pending *card* + 1 (draw 1, unlimited passes)                |
    | 1    | 63     | marker                                                       |

Terms: twins are the two cards of one colour and rank; the pair above x is the twins x
can be built on.  A face-up card is *locked* if it lies on face-down cards, or lies at
the bottom of a pile with none and is not a King; *roots* are the locked cards and the
face-up Kings.  Every other face-up card lies on a card of its pair above (runs are
valid at the root, position.validate, and every move keeps them so).  e(P): the number
of exposed (pile top) cards of pair P.

T1: positions with one class key have one winnability.  (a) The key fixes every pile's
face-down cards (they never move: the root's bottom d) and its locked card (with d > 0
the card at index d: it got there dealt or turned up and leaves only by moving, which
turns up the card below; with digit 1 the pile's bottom card, as only Kings enter empty
piles).  So it fixes the face-up set V (the cards not on foundations, in the talon or
face down), the roots, the number of empty piles, and, since each non-root lies on one
card of its pair above and each card holds at most one, e(P) = |V & P| - |(V - roots) &
{x : P is the pair above x}|.  (b) Every legal move either keeps the key (a run whose
bottom card is no root moves onto the twin of the card it lies on, its only other
place; a King-bottomed pile with no face-down card moves into another empty pile; T3's
stock moves), or is a *class move* whose legality and resulting key depend on the key
and the card alone, and which every member can therefore make (in at most two moves):
    F(c)  c in V, next on its foundation, e(pair of c) >= 1, to its foundation; if c is
          covered its twin is exposed: first move the run on c onto the twin, which
          keeps the key (K_SWAP_FND).  If c was locked, a card turns up or the pile empties.
    R(x)  locked x with its run onto an exposed card of its pair above (in another pile:
          x's own pile holds only its run, of lower ranks, over face-down cards), or a
          King over face-down cards into an empty pile; a card turns up or the pile empties.
    talon card (stock macro, below) to its foundation, or onto its pair above if e >= 1,
          or a King into an empty pile; worry-back: a foundation top likewise.
    draws and turn-overs: they read and write the talon fields only.
(c) Dropping the key-keeping moves from a winning line of one member leaves class moves
that any other member can replay, reaching a won key (all foundations full).

T3: with unlimited passes the waste sizes 0, k, 2k, ..., n (n talon cards) lie on one
cycle of draws and the turn-over, which change nothing else, so positions differing only
in which of them they have reach each other.  Limited passes keep pointer and redeals.

The search over class keys is exact, and its moves reach every class a winning line
needs.  The table (tt.py) proves "lost" for the graph whose edges are the moves
generated from the member first met of each key; that graph is well defined because the
moves generated (gen_moves_class) and the safe plays after them (play_safe_class) depend
only on the key: each generated move realises one class move with one destination, the
conditions above and the prunes below are stated on key quantities, no key-keeping move
is generated, and play_safe_class picks suit by suit.  By T1/T3 a winning line is a line
of class moves; every class move is generated except as pruned here, each prune with a
proof that a winning line of generated moves remains:
- safe plays: the safe-move theorem (is_safe) for a pile top; a covered safe card with
  its twin exposed is first made a pile top by a key-keeping move (T1);
- no worry-back of a card that would at once be safe again: the child's safe plays put
  it straight back (the move only covers a card, so nothing else became playable);
- emptying R(x) (x at the bottom of a pile with no face-down card) only when a King
  could enter now: in a winning line move it to just before a King first enters an empty
  pile (drop it if F(x) comes first, which empties the pile too).  In between, x in its
  pile leaves e of its pair above one higher and nothing else lower, and the empty pile
  is unused; the King that enters is a reachable talon card, a foundation King (worry-
  back) or a King over face-down cards (a King-bottomed pile moving keeps the key);
- KINGMAC (P_KINGMAC; replaces the rule above): R(x) emptying only as one move with a
  King entering x's pile at once (K_EMPTY_KING, one per King source above).  The same
  reordering puts the King's entry right after the emptying; it may enter another empty
  pile, but empty piles are interchangeable (T1: the key sees only their number).  The
  position in between is never made;
- T5 (P_LAST_SAFE, a safe play): the last talon card L (stock bottom), next and safe, is
  played up when the pointer is pure: the waste holds all the talon, or (unlimited
  passes, T3) a multiple of the draw.  Pointer lemma: L comes after every other talon
  card, so with L gone every draw from any pointer turns the other cards in the same
  groups, turn-overs fall at the same moments, and the waste top differs only where it
  would be L.  So L, the waste top of the all-drawn member, is as accessible and as
  detachable as a pile top, and the safe-move theorem applies to it as play_safe applies
  it to draw-1 talon cards.  Playing L leaves the pointer pure (all drawn);
- T5b (P_NO_TURN): L next and safe, pointer not pure: no talon card reachable only after
  a turn-over (``again``).  Draws commute with every move off the waste, so a winning
  line whose next class move needs a turn-over may first draw to the end of the stock,
  where the waste holds all the talon and T5 wins with L played up; that position is the
  child of the talon move L -> foundation, which is generated (L, the last card, is
  always reached without a turn-over).  Limited passes too: T5 with all the talon in the
  waste needs no T3;
- NODP (P_NO_SAFE_TO_PILE): no talon card c to a pile when c is next on its foundation
  and safe (and no card is pending): the child's safe plays put c, now a pile top, on
  its foundation, which is exactly the child of the talon move c -> foundation (same
  talon and redeal flag), also generated;
- pending card p (draw 1, unlimited passes: after a talon card p goes on a pile): only
  moves that put a card on p (a talon or foundation card, R(x), or F of p's covered twin
  with its run moved onto p).  Every talon card stays reachable, so in a winning line the
  placement can be moved to just before the first move that needs p in V (one putting a
  card on p's pair while p's twin is covered, or F of that twin; F(p) is replaced by the
  talon play of p); without p, e is one higher on p's pair above and unchanged elsewhere,
  so the moves in between stay legal.  The moves allowed are a function of (key, p): p
  is exposed, and its twin is covered iff it is in V and e(pair of p) = 1.  A safe play
  after the placement clears p (allowing more moves is always sound);
- stock macro-moves: as above.
Each step-2 prune (KINGMAC, T5, T5b, NODP) is stated on key quantities (digits, e,
foundations, talon mask, the pointer's purity, which the key stores), never on the path,
so the generated move set stays a function of the key and the table stays exact.  Not
adopted, for want of a proof: lonelybot's "only the lowest of >= 3 foundation plays",
its ``least_stack`` / paired-stack restrictions, and its history pruner (no foundation
play after a reveal, builds only on the card just placed, a King next after an
emptying) used with a plain visited set: those depend on the path, and a position first
met under a restrictive history would be stored as lost for every later path.
The unpruned search (R_PRUNE off: perft, differential tests) keeps the exact key: there a
key-keeping move would reach a stored key and the covered card's play behind it be lost.
"""

from __future__ import annotations

import numpy as np

# the search's status and counter codes (its generated loop reads them among this module's names)
from ...engine.codes import (C_DEPTH, C_NODES, C_STATUS, CTR_LEN, ST_LOST, ST_MEMORY, ST_PAUSED,  # noqa: F401
                             ST_RUNNING, ST_STACK, ST_WON)
from ...engine.jit import njit
from ...engine.kernel_parts import four_full, push_move as _push
from ...engine.loop_template import Loop, build
from ...engine.order import sort_by_score

CAP = 20
P0 = 0
LEN0 = 140
DOWN0 = 147
FND0 = 154
TMASK = 158
TPTR = 159
REDEALS = 160
PEND = 161
LOC0 = 162
TKINGS = 214
TCARDS = 215
SLEN = 217

# rules array
R_DRAW, R_MAXRED, R_WORRY, R_RANKS, R_NPILES, R_PRUNE, R_CLASS, R_PRUNES = 0, 1, 2, 3, 4, 5, 6, 7
RULES_LEN = 8
# R_PRUNES: the class kernel's step-2 prunes (module doc), a bit each, for measuring
P_KINGMAC, P_LAST_SAFE, P_NO_TURN, P_NO_SAFE_TO_PILE = 1, 2, 4, 8
P_ALL = 15

K_TAB_FND, K_TALON_FND, K_TALON_TAB, K_TAB_TAB, K_FND_TAB, K_SWAP_FND, K_EMPTY_KING = 0, 1, 2, 3, 4, 5, 6
# K_EMPTY_KING: where the King comes from (bits 25-26; its talon index, suit or pile in bits 16-23)
KING_TALON, KING_FND, KING_PILE = 0, 1, 2

LOG_DRAW, LOG_REDEAL, LOG_MOVE = 0, 1, 2
LOC_FND, LOC_STOCK, LOC_WASTE = 7, 11, 12


KEY_WORDS = 3
CLASS_KEY_WORDS = 2  # the class key's table entries (searcher.KlondikeSearch.setup)
MAX_MOVES_PER_NODE = 1024


@njit(inline="always")
def _red(c):
    s = c // 13
    return s == 1 or s == 2


@njit(inline="always")
def _builds_on(c, under):
    """Card c may be placed on card under in the tableau."""
    return c % 13 + 1 == under % 13 and _red(c) != _red(under)


@njit
def is_safe(st, c, rules):
    """Playing c, next on its foundation, to it can never lose a won game (forced, no
    branching), for c a pile top, or a talon card with draw 1 and unlimited passes.

    Without worry-back: rank <= each opposite-colour foundation + 1.  Proof: the only
    cards that could ever be built on c are the two opposite-colour cards of rank - 1,
    and both are on foundations for good; so c is only ever a pile top, and a line that
    keeps c can be followed with c already on its foundation (skip c's own moves, move
    runs without it, foundations only get more permissive).

    With worry-back (Solvitaire, Blake & Gent, JAIR 2026): rank r <= each opposite-
    colour foundation + 2 and <= the other same-colour (twin) foundation + 3.  Proof:
    let Z be c, the cards below c in its suit, the opposite-colour cards of rank <= r-1
    and the twin suit's of rank <= r-2.  (i) A card that builds on a Z card is in Z.
    (ii) By the bounds every Z card but c is on a foundation, except perhaps the top Z
    card of an opposite or the twin suit (rank r-1, r-2), then next on it: call those
    free, the rest of Z (c, and Z cards on foundations now) rooted.  Rooted cards are
    never in the talon (c aside, below), and only Z cards get above them (i).  Take a
    winning line P_0..P_n from P, and lift(P_t): P_t with each rooted card in the tableau
    and every card above it moved up (cards so uncovered turned up).  A lifted card is
    in Z and has below it in its suit only rooted cards (a free card tops its suit in
    Z), all up or lifted; so lift(P_t)'s foundations are runs from the Ace, and a suit
    with a lifted card takes next a lifted card and gives back only rooted ones.
    lift(P_0) is P with c played, lift(P_n) = P_n is won, and lift(P_t) -> lift(P_t+1)
    by legal moves:
    - lifted cards moving onto lifted cards or up, any card from a foundation onto a
      lifted card, a rooted card worried back: none;
    - unlifted cards put on a lifted card: in Z (i) and not rooted, so free, and next
      (the cards below them are rooted): play them up, top card first;
    - a run moving onto an unlifted card or an empty pile: its unlifted lower part moves
      as in P_t; its cards lifted only by a root below them in the old pile become
      unlifted: free, each the top of its foundation (nothing in Z above it): worry
      them back, bottom first;
    - any other move (draws, redeals, a single unlifted card onto an unlifted one or up,
      a non-rooted card worried back onto an unlifted one or an empty pile) is made as
      it is: its card and target are pile and foundation tops in lift(P_t) too.
    A talon c (draw 1, unlimited passes): lift also takes c out of the talon; draws and
    redeals are skipped, and a waste card that P_t plays is first drawn to the top.
    """
    r = c % 13 + 1
    s = c // 13
    o = 1 if s == 0 or s == 3 else 0  # the opposite colour's suits: o and 3 - o
    if rules[R_WORRY] == 0:
        return r <= st[FND0 + o] + 1 and r <= st[FND0 + 3 - o] + 1
    return r <= st[FND0 + o] + 2 and r <= st[FND0 + 3 - o] + 2 and r <= st[FND0 + 3 - s] + 3


@njit(inline="always")
def _turn(st, i):
    """Turn up the top card of pile i if it is face down (automatic in Klondike)."""
    L = st[LEN0 + i]
    if L > 0 and st[DOWN0 + i] >= L:
        st[DOWN0 + i] = L - 1


@njit(inline="always")
def _norm_ptr(mask, q):
    """Talon pointer after the waste top at index q left: next remaining card below it
    (its highest set bit below q, found by smearing the bits down), + 1; 0 if none."""
    x = np.int64(mask) & ((np.int64(1) << q) - 1)
    if x == 0:
        return 0
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    return _bit_index(x ^ (x >> 1)) + 1


@njit
def _log(log, n, typ, src, dst, card, count):
    if n < log.shape[0]:
        log[n, 0] = typ
        log[n, 1] = src
        log[n, 2] = dst
        log[n, 3] = card
        log[n, 4] = count
    return n + 1


@njit
def _log_draws_to(st, talon, ntalon, rules, target, log, n):
    """Log the draws (and redeal) that bring talon[target] to the waste top."""
    p = st[TPTR]
    mask = st[TMASK]
    k = rules[R_DRAW]
    guard = 0
    while not (p > 0 and p - 1 == target):
        cnt = 0
        last = -1
        for i in range(p, ntalon):
            if (mask >> i) & 1:
                cnt += 1
                last = i
                if cnt == k:
                    break
        if cnt == 0:
            n = _log(log, n, LOG_REDEAL, LOC_WASTE, LOC_STOCK, -1, 0)
            p = 0
        else:
            n = _log(log, n, LOG_DRAW, LOC_STOCK, LOC_WASTE, -1, cnt)
            p = last + 1
        guard += 1
        if guard > 4 * ntalon + 4:
            return -1  # unreachable target: a kernel bug, caught by the caller
    return n


@njit(inline="always")
def _put_card(st, b, c):
    """Put card c on top of pile b (its location field too)."""
    L = st[LEN0 + b]
    st[P0 + b * CAP + L] = c
    st[LOC0 + c] = b * CAP + L
    st[LEN0 + b] = L + 1


@njit(inline="always")
def _move_run(st, a, b, cnt, log, n, dolog):
    """Move the top ``cnt`` cards of pile a onto pile b (no turn-over); returns the log length."""
    start = st[LEN0 + a] - cnt
    Lb = st[LEN0 + b]
    if dolog:
        n = _log(log, n, LOG_MOVE, a, b, st[P0 + a * CAP + start], cnt)
    for j in range(cnt):
        c = st[P0 + a * CAP + start + j]
        st[P0 + b * CAP + Lb + j] = c
        st[LOC0 + c] = b * CAP + Lb + j
    st[LEN0 + b] = Lb + cnt
    st[LEN0 + a] = start
    return n


@njit(inline="always")
def apply_move(st, m, talon, ntalon, rules, log, n, dolog):
    """Apply move m to st in place; returns the new log length (or -1 on a bug).

    K_EMPTY_KING is two moves: the whole pile a onto pile b, then a King into pile a
    (from the talon, a foundation, or with its run from over face-down cards)."""
    if m & 15 != K_EMPTY_KING:
        return _apply_one(st, m, talon, ntalon, rules, log, n, dolog)
    a = (m >> 4) & 255
    b = (m >> 12) & 15
    n = _apply_one(st, np.int64(K_TAB_TAB | (a << 4) | (b << 12) | (st[LEN0 + a] << 16)),
                   talon, ntalon, rules, log, n, dolog)
    src = (m >> 25) & 3
    x = (m >> 16) & 255
    if src == KING_TALON:
        king = np.int64(K_TALON_TAB | (x << 4) | (a << 12)) | (m & np.int64(1 << 24))
    elif src == KING_FND:
        king = np.int64(K_FND_TAB | (x << 4) | (a << 12))
    else:
        king = np.int64(K_TAB_TAB | (x << 4) | (a << 12) | ((st[LEN0 + x] - st[DOWN0 + x]) << 16))
    if n < 0:
        return n
    return _apply_one(st, king, talon, ntalon, rules, log, n, dolog)


@njit
def _apply_one(st, m, talon, ntalon, rules, log, n, dolog):
    """apply_move for every kind but K_EMPTY_KING."""
    kind = m & 15
    a = (m >> 4) & 255
    b = (m >> 12) & 15
    cnt = (m >> 16) & 255
    st[PEND] = 0
    if kind == K_TAB_FND or kind == K_SWAP_FND:
        if kind == K_SWAP_FND:
            # first the run of ``count`` cards on the card moves onto that card's twin (pile b)
            n = _move_run(st, a, b, cnt, log, n, dolog)
        L = st[LEN0 + a]
        c = st[P0 + a * CAP + L - 1]
        st[LEN0 + a] = L - 1
        _turn(st, a)
        st[FND0 + c // 13] += 1
        if dolog:
            n = _log(log, n, LOG_MOVE, a, LOC_FND + c // 13, c, 1)
    elif kind == K_TALON_FND or kind == K_TALON_TAB:
        if dolog:
            n = _log_draws_to(st, talon, ntalon, rules, a, log, n)
            if n < 0:
                return -1
        c = talon[a]
        st[TCARDS + c // 26] &= ~(1 << (c % 26))
        mask = st[TMASK] & ~(1 << a)
        st[TMASK] = mask
        st[TPTR] = _norm_ptr(mask, a)
        if (m >> 24) & 1 and rules[R_MAXRED] >= 0:
            st[REDEALS] += 1
        if kind == K_TALON_FND:
            st[FND0 + c // 13] += 1
            if dolog:
                n = _log(log, n, LOG_MOVE, LOC_WASTE, LOC_FND + c // 13, c, 1)
        else:
            _put_card(st, b, c)
            if rules[R_PRUNE] != 0 and rules[R_DRAW] == 1 and rules[R_MAXRED] < 0:
                st[PEND] = c + 1
            if dolog:
                n = _log(log, n, LOG_MOVE, LOC_WASTE, b, c, 1)
    elif kind == K_TAB_TAB:
        n = _move_run(st, a, b, cnt, log, n, dolog)
        _turn(st, a)
    else:  # K_FND_TAB
        f = st[FND0 + a]
        c = a * 13 + f - 1
        st[FND0 + a] = f - 1
        _put_card(st, b, c)
        if dolog:
            n = _log(log, n, LOG_MOVE, LOC_FND + a, b, c, 1)
    return n


@njit
def is_won(st, rules):
    return four_full(st, FND0, rules[R_RANKS])


@njit(inline="always")
def _tops_from(mask, start, ntalon, k):
    """Talon indices that draws of k from ``start`` leave on the waste top (a bitmask):
    every k-th card still there, and the last one.  Walks the set bits only."""
    rest = np.int64(mask) & ~((np.int64(1) << start) - 1)
    if k == 1:
        return rest
    tops = np.int64(0)
    low = np.int64(0)
    cnt = 0
    while rest != 0:
        low = rest & -rest
        rest ^= low
        cnt += 1
        if cnt == k:
            tops |= low
            cnt = 0
    return tops | low


@njit(inline="always")
def _popcount(x):
    """Set bits of x (x < 2**32)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(inline="always")
def _bit_index(low):
    """t for low = 2**t, t < 32 (de Bruijn multiplication)."""
    return DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(inline="always")
def _talon_reach(st, ntalon, rules):
    """The talon cards a stock macro-move can bring to the waste top (talon-index masks):
    ``reached`` by draws from the pointer (and the waste top itself), ``again`` only
    after a turn-over (none when the passes are used up)."""
    reached = np.int64(0)
    again = np.int64(0)
    mask = st[TMASK]
    ptr = st[TPTR]
    if mask != 0:
        k = rules[R_DRAW]
        reached = _tops_from(mask, ptr, ntalon, k)
        if ptr > 0:
            reached |= np.int64(1) << (ptr - 1)
        maxred = rules[R_MAXRED]
        if maxred < 0 or st[REDEALS] < maxred:
            again = _tops_from(mask, 0, ntalon, k) & ~reached
    return reached, again


@njit(inline="always")
def gen_moves(st, talon, ntalon, rules, moves, n0):
    """Write the moves of st into moves[n0:], best first; return the new end: with R_PRUNE
    (search) the class moves (gen_moves_class), else every legal move (perft, differential
    tests against the reference engine)."""
    if rules[R_CLASS] != 0:
        return gen_moves_class(st, talon, ntalon, rules, moves, n0)
    npiles = rules[R_NPILES]
    ranks = rules[R_RANKS]
    n = n0
    # 1. pile tops to foundations
    for i in range(npiles):
        L = st[LEN0 + i]
        if L > 0:
            c = st[P0 + i * CAP + L - 1]
            if st[FND0 + c // 13] == c % 13:
                score = 1000 + 10 * st[DOWN0 + i]
                n = _push(moves, n, (np.int64(score) << 32) | K_TAB_FND | (i << 4))
    # talon cards reachable as the waste top (stock macro-moves)
    reached, again = _talon_reach(st, ntalon, rules)
    ptr = st[TPTR]
    # 2. runs between piles
    for i in range(npiles):
        L = st[LEN0 + i]
        d = st[DOWN0 + i]
        for s in range(d, L):
            c = st[P0 + i * CAP + s]
            cnt = L - s
            for j in range(npiles):
                if j == i:
                    continue
                Lj = st[LEN0 + j]
                if Lj == 0:
                    if c % 13 + 1 != ranks:
                        continue
                elif not _builds_on(c, st[P0 + j * CAP + Lj - 1]):
                    continue
                if s > d:
                    score = 900
                elif d > 0:
                    score = 800 + 10 * d
                elif Lj > 0:
                    score = 300  # empties a pile
                else:
                    score = 100
                n = _push(moves, n, (np.int64(score) << 32) | K_TAB_TAB | (i << 4) | (j << 12) | (cnt << 16))
    # 3. talon cards
    for t in range(ntalon):
        bit = 1 << t
        if (reached | again) & bit:
            flag = np.int64(1 << 24) if again & bit else np.int64(0)
            c = talon[t]
            dist = t - ptr if t >= ptr else t + ntalon
            if st[FND0 + c // 13] == c % 13:
                n = _push(moves, n, (np.int64(700 - dist) << 32) | flag | K_TALON_FND | (t << 4))
            for j in range(npiles):
                Lj = st[LEN0 + j]
                if (c % 13 + 1 == ranks) if Lj == 0 else _builds_on(c, st[P0 + j * CAP + Lj - 1]):
                    n = _push(moves, n, (np.int64(600 - dist) << 32) | flag | K_TALON_TAB | (t << 4) | (j << 12))
    # 4. worry-back: foundation tops to piles
    if rules[R_WORRY] != 0:
        for s in range(4):
            f = st[FND0 + s]
            if f == 0:
                continue
            c = s * 13 + f - 1
            for j in range(npiles):
                Lj = st[LEN0 + j]
                if (f == ranks) if Lj == 0 else _builds_on(c, st[P0 + j * CAP + Lj - 1]):
                    n = _push(moves, n, (np.int64(50) << 32) | K_FND_TAB | (s << 4) | (j << 12))
    sort_by_score(moves, n0, n)  # best first
    return n


@njit(inline="always")
def pack_key(st, rules, key, codes):
    """Write the key of st into key[0:3]: the class key (pack_class_key) when R_CLASS
    is set, else the exact 24-byte key (layout in module doc)."""
    if rules[R_CLASS] != 0:
        pack_class_key(st, rules, key)
        return
    npiles = rules[R_NPILES]
    for i in range(7):
        codes[i] = np.uint64(0)
    for i in range(npiles):
        L = st[LEN0 + i]
        if L == 0:
            continue
        d = st[DOWN0 + i]
        base = st[P0 + i * CAP + d]
        u = L - d
        run = np.uint64(1) << np.uint64(u - 1)
        for j in range(1, u):
            s = st[P0 + i * CAP + d + j] // 13
            if s >= 2:
                run |= np.uint64(1) << np.uint64(j - 1)
        codes[i] = np.uint64(d) | (np.uint64(base) << np.uint64(3)) | (run << np.uint64(9))
    # sort the codes of piles without face-down cards among their own slots
    for x in range(npiles):
        if codes[x] & np.uint64(7) != np.uint64(0):
            continue
        for y in range(x + 1, npiles):
            if codes[y] & np.uint64(7) != np.uint64(0):
                continue
            if codes[y] < codes[x]:
                tmp = codes[x]
                codes[x] = codes[y]
                codes[y] = tmp
    key[0] = np.uint64(0)
    key[1] = np.uint64(0)
    key[2] = np.uint64(0)
    for i in range(7):
        _put(key, 22 * i, 22, codes[i])
    ptr = st[TPTR]
    if rules[R_DRAW] == 1 and rules[R_MAXRED] < 0:
        ptr = 0
    _put(key, 154, 24, np.uint64(st[TMASK]))
    _put(key, 178, 5, np.uint64(ptr))
    _put(key, 183, 3, np.uint64(st[REDEALS]))
    key[2] |= np.uint64(1) << np.uint64(63)


@njit(inline="always")
def _put(key, off, width, v):
    w = off >> 6
    sh = off & 63
    key[w] |= v << np.uint64(sh)
    if sh + width > 64:
        key[w + 1] |= v >> np.uint64(64 - sh)


# ---------------------------------------------------------------------------------------
# The class key and the moves it needs (R_CLASS; set with R_PRUNE, see module doc)


@njit(inline="always")
def _twin(c):
    """The other card of c's colour and rank (C <-> S, D <-> H)."""
    return (3 - c // 13) * 13 + c % 13


@njit
def fill_locations(st):
    """Write the location field of every card in the tableau (a row made from piles)."""
    for c in range(52):
        st[LOC0 + c] = 0
    for i in range(7):
        for j in range(st[LEN0 + i]):
            st[LOC0 + st[P0 + i * CAP + j]] = i * CAP + j


@njit(inline="always")
def _where(st, c):
    """pile * CAP + index of card c if it is in the tableau, else -1: its location field,
    checked (the field is stale once c has left the tableau, and 0 if it never was there;
    a slot below its pile's length holding c proves c is there, as every card is in one place)."""
    loc = st[LOC0 + c]
    i = loc // CAP
    if loc - i * CAP < st[LEN0 + i] and st[P0 + loc] == c:
        return loc
    return -1


@njit(inline="always")
def _find_up(st, c):
    """pile * CAP + index of face-up card c in the tableau, or -1."""
    loc = _where(st, c)
    if loc >= 0 and loc - (loc // CAP) * CAP < st[DOWN0 + loc // CAP]:
        return -1
    return loc


@njit(inline="always")
def _top_pile(st, c):
    """The pile whose top card is c, or -1."""
    loc = _where(st, c)
    if loc < 0:
        return -1
    i = loc // CAP
    return i if loc - i * CAP == st[LEN0 + i] - 1 else -1


@njit(inline="always")
def play_safe(st, talon, ntalon, rules, log, n, dolog):
    """Play the provably safe cards (is_safe) to their foundations, until none is left:
    suit by suit, each safe card next on its foundation that is face up with an exposed
    card of its pair (itself, or its twin: then the run on it moves onto the twin first,
    K_SWAP_FND); with draw 1 and unlimited passes talon cards too, else the last talon
    card under T5.  Which cards go up depends on the class alone (lemma E of the module
    doc), so the result's class does too.  The run move keeps the class (T1), so the
    safe-move theorem is applied to a pile top of a position with the same winnability.
    """
    ranks = rules[R_RANKS]
    talon_too = rules[R_DRAW] == 1 and rules[R_MAXRED] < 0
    changed = True
    while changed:
        changed = False
        any_safe = False  # T5 plays a next card that is safe: none, no T5
        for s in range(4):
            f = st[FND0 + s]
            if f >= ranks:
                continue
            c = s * 13 + f
            if not is_safe(st, c, rules):
                continue
            any_safe = True
            loc = _find_up(st, c)
            if loc >= 0:
                i = loc // CAP
                j = loc - i * CAP
                L = st[LEN0 + i]
                if j == L - 1:
                    n = apply_move(st, np.int64(K_TAB_FND | (i << 4)), talon, ntalon, rules, log, n, dolog)
                    changed = True
                else:
                    b = _top_pile(st, _twin(c))
                    if b >= 0:
                        m = K_SWAP_FND | (i << 4) | (b << 12) | ((L - 1 - j) << 16)
                        n = apply_move(st, np.int64(m), talon, ntalon, rules, log, n, dolog)
                        changed = True
            elif talon_too and (st[TCARDS + c // 26] >> (c % 26)) & 1:
                mask = st[TMASK]
                for t in range(ntalon):
                    if (mask >> t) & 1 and talon[t] == c:
                        n = apply_move(st, np.int64(K_TALON_FND | (t << 4)), talon, ntalon, rules, log, n, dolog)
                        if n < 0:
                            return n
                        changed = True
        if any_safe and not talon_too and rules[R_PRUNES] & P_LAST_SAFE and _pure_ptr(st, rules):
            t = _last_safe(st, talon, rules)
            if t >= 0:  # T5
                n = apply_move(st, np.int64(K_TALON_FND | (t << 4)), talon, ntalon, rules, log, n, dolog)
                if n < 0:
                    return n
                changed = True
    return n


@njit(inline="always")
def _pure_ptr(st, rules):
    """The waste holds the whole talon, or (unlimited passes) a multiple of the draw."""
    mask = np.int64(st[TMASK])
    total = _popcount(mask)
    waste = _popcount(mask & ((np.int64(1) << st[TPTR]) - 1))
    return waste == total or (rules[R_MAXRED] < 0 and waste % rules[R_DRAW] == 0)


@njit(inline="always")
def _last_safe(st, talon, rules):
    """Talon index of the last talon card if it is next on its foundation and safe, else -1."""
    mask = st[TMASK]
    if mask == 0:
        return -1
    t = 23
    while not (mask >> t) & 1:
        t -= 1
    c = talon[t]
    if st[FND0 + c // 13] == c % 13 and is_safe(st, c, rules):
        return t
    return -1


@njit
def gen_moves_class(st, talon, ntalon, rules, moves, n0):
    """gen_moves for the class key: the class moves of the module doc, one concrete
    realisation each (one destination), best first; same scores as gen_moves.

    - foundation play of c, next on its foundation and face up: c exposed (pile top to
      foundation), or covered with its twin exposed (K_SWAP_FND);
    - reveal: the locked card of a pile (over face-down cards, or a non-King at the
      bottom of a pile with none) moves with its run onto the first pile whose top it
      builds on (a King: into the first empty pile); emptying a pile only with a King
      entering it in the same move (KINGMAC), or with that prune off, only if a King
      could enter now;
    - talon card to its foundation, or onto the first pile it fits (stock macro-moves),
      not to a pile if it is safe (NODP), none needing a turn-over under T5b;
    - worry-back: a foundation top that would not at once be safe again, onto the first
      pile it fits;
    - pending card p (draw 1, unlimited passes): only moves that put a card on p.
    No tableau move that keeps the class (a run moved from a card onto its twin, a
    King-bottomed pile into another empty pile) is generated.
    """
    npiles = rules[R_NPILES]
    ranks = rules[R_RANKS]
    pend = -1
    if st[PEND] > 0:
        pend = _top_pile(st, st[PEND] - 1)
    n = n0
    empty = -1  # the first empty pile
    tops = np.int64(0)  # the pile tops as a card mask
    king_ready = False  # a King could enter an empty pile now
    for i in range(npiles):
        d = st[DOWN0 + i]
        L = st[LEN0 + i]
        if L > 0:
            tops |= np.int64(1) << st[P0 + i * CAP + L - 1]
            if d > 0 and st[P0 + i * CAP + d] % 13 + 1 == ranks:
                king_ready = True
        elif empty < 0:
            empty = i
    # 1. foundation plays from the tableau
    for s in range(4):
        f = st[FND0 + s]
        if f >= ranks:
            continue
        c = s * 13 + f
        if (tops >> c) & 1:
            if pend < 0:
                i = st[LOC0 + c] // CAP
                score = 1000 + 10 * st[DOWN0 + i]
                n = _push(moves, n, (np.int64(score) << 32) | K_TAB_FND | (i << 4))
            continue
        if not (tops >> _twin(c)) & 1:
            continue
        loc = _find_up(st, c)
        if loc < 0:
            continue
        i = loc // CAP
        j = loc - i * CAP
        b = st[LOC0 + _twin(c)] // CAP
        if pend < 0 or b == pend:
            n = _push(moves, n, (np.int64(900) << 32) | K_SWAP_FND | (i << 4) | (b << 12)
                      | ((st[LEN0 + i] - 1 - j) << 16))
    # talon cards reachable as the waste top (stock macro-moves)
    reached, again = _talon_reach(st, ntalon, rules)
    mask = st[TMASK]
    ptr = st[TPTR]
    if again != 0 and rules[R_PRUNES] & P_NO_TURN and not _pure_ptr(st, rules) and _last_safe(st, talon, rules) >= 0:
        again = 0  # T5b
    kingmac = rules[R_PRUNES] & P_KINGMAC != 0
    if (reached | again) & st[TKINGS] != 0:
        king_ready = True
    if rules[R_WORRY] != 0:
        for s_ in range(4):
            if st[FND0 + s_] == ranks:
                king_ready = True
    # 2. reveals: locked cards with their runs
    for i in range(npiles):
        L = st[LEN0 + i]
        if L == 0:
            continue
        d = st[DOWN0 + i]
        x = st[P0 + i * CAP + d]
        king = x % 13 + 1 == ranks
        if d == 0 and (king or not (king_ready or kingmac)):
            continue
        dest = -1
        if king:
            if pend < 0:
                dest = empty
        else:  # x's own pile holds only its run, of lower ranks: never its pair above
            dest = _build_dest(st, x, pend, tops)
        if dest < 0:
            continue
        if d == 0 and kingmac:
            n = _push_kings(st, talon, ntalon, rules, moves, n, i, dest, reached | again, again)
            continue
        score = 800 + 10 * d if d > 0 else 300
        n = _push(moves, n, (np.int64(score) << 32) | K_TAB_TAB | (i << 4) | (dest << 12) | ((L - d) << 16))
    # 3. talon cards
    todo = reached | again  # walked bit by bit, lowest talon index first
    while todo != 0:
        bit = todo & -todo
        todo ^= bit
        t = _bit_index(bit)
        flag = np.int64(1 << 24) if again & bit else np.int64(0)
        c = talon[t]
        dist = t - ptr if t >= ptr else t + ntalon
        if st[FND0 + c // 13] == c % 13 and pend < 0:
            score = 700 - dist
            n = _push(moves, n, (np.int64(score) << 32) | flag | K_TALON_FND | (t << 4))
        if (rules[R_PRUNES] & P_NO_SAFE_TO_PILE and pend < 0 and st[FND0 + c // 13] == c % 13
                and is_safe(st, c, rules)):
            continue  # its foundation play (listed above) gives the same child
        dest = _dest(st, c, ranks, pend, empty, tops)
        if dest >= 0:
            score = 600 - dist
            n = _push(moves, n, (np.int64(score) << 32) | flag | K_TALON_TAB | (t << 4) | (dest << 12))
    # 4. worry-back: foundation tops to piles
    if rules[R_WORRY] != 0:
        for s in range(4):
            f = st[FND0 + s]
            if f == 0:
                continue
            c = s * 13 + f - 1
            st[FND0 + s] = f - 1
            safe = is_safe(st, c, rules)
            st[FND0 + s] = f
            if safe:
                continue
            dest = _dest(st, c, ranks, pend, empty, tops)
            if dest >= 0:
                n = _push(moves, n, (np.int64(50) << 32) | K_FND_TAB | (s << 4) | (dest << 12))
    sort_by_score(moves, n0, n)  # best first
    return n


@njit
def _push_kings(st, talon, ntalon, rules, moves, n, i, dest, reach, again):
    """KINGMAC: pile i (no face-down cards, a non-King at its bottom) moves whole onto
    pile dest, and a King enters pile i in the same move: each talon King reachable
    (``reach``; with the redeal flag if in ``again``), each foundation King (worry-back),
    each King lying on face-down cards in another pile (with its run)."""
    ranks = rules[R_RANKS]
    base = K_EMPTY_KING | (i << 4) | (dest << 12)
    todo = reach & st[TKINGS]
    while todo != 0:
        bit = todo & -todo
        todo ^= bit
        t = _bit_index(bit)
        flag = np.int64(1 << 24) if again & bit else np.int64(0)
        n = _push(moves, n, (np.int64(300) << 32) | flag | base | (t << 16) | (KING_TALON << 25))
    if rules[R_WORRY] != 0:
        for s in range(4):
            if st[FND0 + s] == ranks:
                n = _push(moves, n, (np.int64(300) << 32) | base | (s << 16) | (KING_FND << 25))
    for j in range(rules[R_NPILES]):
        d = st[DOWN0 + j]
        if j != i and d > 0 and st[P0 + j * CAP + d] % 13 + 1 == ranks:
            n = _push(moves, n, (np.int64(300 + 10 * d) << 32) | base | (j << 16) | (KING_PILE << 25))
    return n


@njit(inline="always")
def _dest(st, c, ranks, pend, empty, tops):
    """The one pile a single card c (from the talon or a foundation) is put on: the
    pending pile, else the first whose top it builds on, else (a King) the first empty
    one; -1 if none.  ``tops``: the pile tops as a card mask."""
    if c % 13 + 1 == ranks:
        return empty if pend < 0 else -1
    return _build_dest(st, c, pend, tops)


def _pair_above_masks() -> np.ndarray:
    """PAIR_ABOVE[c]: the cards c builds on (the next rank, the other colour) as a card mask."""
    out = np.zeros(52, dtype=np.int64)
    for c in range(52):
        if c % 13 < 12:
            other = (0, 3) if c // 13 in (1, 2) else (1, 2)
            for s in other:
                out[c] |= 1 << (13 * s + c % 13 + 1)
    return out


PAIR_ABOVE = _pair_above_masks()


@njit(inline="always")
def _build_dest(st, c, pend, tops):
    """The first pile (the pending one, if any) whose top card c (no King) builds on, or -1:
    the piles topped by one of c's pair above, found in ``tops`` and through their locations."""
    if tops & PAIR_ABOVE[c] == 0:
        return -1
    up = c % 13 + 1
    s = c // 13
    first = 0 if s == 1 or s == 2 else 1  # a suit of the other colour: C, S black; D, H red
    a = -1
    if (tops >> (13 * first + up)) & 1:
        a = st[LOC0 + 13 * first + up] // CAP
    b = -1
    if (tops >> (13 * (3 - first) + up)) & 1:
        b = st[LOC0 + 13 * (3 - first) + up] // CAP
    if pend >= 0:
        return pend if a == pend or b == pend else -1
    if a < 0 or (b >= 0 and b < a):
        return b
    return a


@njit(inline="always")
def pack_class_key(st, rules, key):
    """Write the class key of st into key[0:2] (layout in module doc)."""
    npiles = rules[R_NPILES]
    ranks = rules[R_RANKS]
    digits = np.uint64(0)
    for i in range(npiles - 1, -1, -1):
        d = st[DOWN0 + i]
        L = st[LEN0 + i]
        if d > 0:
            g = d + 1
        elif L > 0 and st[P0 + i * CAP] % 13 + 1 != ranks:
            g = 1
        else:
            g = 0
        digits = digits * np.uint64(9) + np.uint64(g)
    mask = st[TMASK]
    w0 = np.uint64(0)
    for s in range(4):
        w0 |= np.uint64(st[FND0 + s]) << np.uint64(4 * s)
    w0 |= np.uint64(mask) << np.uint64(16)
    w0 |= digits << np.uint64(40)
    ptr = st[TPTR]
    if rules[R_MAXRED] < 0 and (rules[R_DRAW] == 1 or _pure_ptr(st, rules)):
        ptr = 0  # unlimited passes: a pure pointer is keyed as 0 (class key, word 1)
    w1 = np.uint64(ptr) | (np.uint64(st[REDEALS]) << np.uint64(5)) | (np.uint64(st[PEND]) << np.uint64(8))
    key[0] = w0
    key[1] = w1 | (np.uint64(1) << np.uint64(63))
    for w in range(2, key.shape[0]):
        key[w] = np.uint64(1) << np.uint64(63)


# ----------------------------------------------------------------- the search
# The DFS (search_init, search_run, expand_line, successors) is
# engine/loop_template.py's, filled with this game's moves, key and rows.
LOOP = Loop(
    ws="rows, moves, lstart, lend, lnext, ctr, best, key, codes", level="lstart[$d] = lnext[$d]",
    ctx="talon, ntalon = ctx", log_width=5,
    apply="apply_move($st, $m, talon, ntalon, rules, $log, $n, $dolog)",
    safe="play_safe($st, talon, ntalon, rules, $log, $n, $dolog)",
    gen="gen_moves($st, talon, ntalon, rules, $moves, $start)", key="pack_key($st, rules, $key, codes)",
    home="home = $st[FND0] + $st[FND0 + 1] + $st[FND0 + 2] + $st[FND0 + 3]", keys_of=False)
BUILT = build(__name__, LOOP)
search_init, search_run = BUILT.search_init, BUILT.search_run
expand_line, successors = BUILT.expand_line, BUILT.successors
