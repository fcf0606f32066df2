"""Windmill beam search over the stock: a win-finder that spreads its effort over the turns.

The depth-first search spends its time at the end of the stock below its first
choices; playouts follow one line at a time.  A beam search keeps, after each turn of
the stock, the ``width`` best positions of all it has reached, so its effort is spread
evenly over the turns and over many early choices at once.

One step from a beam B (the positions just after a turn):
1. the *closure* C of B: every position reachable from B without turning the stock,
   breadth first, each distinct packed key once (kernel.pack_key; keys are exact, so
   one position per key loses nothing); a won position ends the search;
2. every position of C with cards left in the stock is a candidate; its score is read
   after the turn (``_score``); the ``width`` best, turned, are the next beam.
A run ends when its beam is empty (every candidate's stock ran out unwon); the next
run takes the next width of ``WIDTHS`` (after the last, the first again) and a new salt
for the score's tie-break, until the caller stops: a wider beam keeps what a narrower
one dropped, a new salt keeps other positions of equal score.  Memory: the closure
rows (``POOL_PER_ENTRY`` per entry, at most ``pool_rows``), the key set (twice the rows
in use) and each run's segments, none of it counted in the table budget
(engine/resources.py); pages are touched only as the widths need them (sizes measured:
docs/measurements.md).

Soundness: every step is a kernel move (kernel.gen_moves, with its exact-key pruning
only) applied by kernel.apply_move, so a found line is a legal line; the caller
replays it in the reference engine like every other win.  A beam drops positions, so
running out proves nothing: it never says lost.

Compiled code here calls kernel.py's functions; this module's cache folder is named
after the code of every package module it imports (engine/jit.py), so an edit to the
kernel is seen here.
"""

from __future__ import annotations

import time

import numpy as np

from ...engine.jit import njit
from ...engine.order import noise, noise_base
from . import kernel as K

TURN = K.STOCK | (K.WASTE << 4)  # the kernel move that turns the stock
WIDTHS = (64, 256, 1024, 4096, 16384, 65536)
R_RANKS, R_NCELLS, R_NSEQ = K.R_RANKS, K.R_NCELLS, K.R_NSEQ
NO_SCORE = -(1 << 62)
POOL_PER_ENTRY = 96  # closure rows allotted per beam entry (a closure that outgrows it is cut)


@njit
def _insert(hkeys, hstamp, stamp, key, mask):
    """Put key into the open-addressing set (stamp marks this step's slots); False if it
    was there already (or the set is full, which Beam's sizes rule out)."""
    h = key[0] ^ (key[1] * np.uint64(0x9E3779B97F4A7C15)) ^ (key[2] * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    i = np.int64(h & np.uint64(mask))
    for _ in range(mask + 1):
        if hstamp[i] != stamp:
            hstamp[i] = stamp
            hkeys[i, 0] = key[0]
            hkeys[i, 1] = key[1]
            hkeys[i, 2] = key[2]
            return True
        if hkeys[i, 0] == key[0] and hkeys[i, 1] == key[1] and hkeys[i, 2] == key[2]:
            return False
        i = (i + 1) & mask
    return False


@njit(inline="always")
def _home(st):
    """Cards on the foundations (the centre with its base Ace, and the king piles)."""
    return np.int64(st[K.CLEN]) + st[K.KLEN0] + st[K.KLEN0 + 1] + st[K.KLEN0 + 2] + st[K.KLEN0 + 3]


@njit
def _score(st, seq, rules, key, salt):
    """How promising st is after a turn (higher is better; ordering only): the cards on
    the foundations first, then the cells' ranks close to a rank a foundation takes
    next, then a short waste.  Ties are broken by a pseudo-random 0..255 of the key and
    ``salt``, so that runs of different salts keep different positions of equal score.
    (Two other scores, with the waste's neighbours in rank or the number of ranks the
    foundations take next, won nothing more: results/windmill-beam.md.)"""
    R = rules[R_RANKS]
    want = np.zeros(16, dtype=np.int64)
    want[np.int64(st[K.CLEN]) % R + 1] = 1
    for k in range(4):
        L = np.int64(st[K.KLEN0 + k])
        if L == 0:
            want[R] = 1
        elif L < R:
            want[R - L] = 1
    near = 0
    for i in range(rules[R_NCELLS]):
        c = np.int64(st[K.CELL0 + i])
        if c >= 0:
            r = c % 13 + 1
            for d in range(3):  # wanted now, after one more card, after two
                up = (r - 1 - d) % R + 1
                dn = r + 1 + d
                if want[up] or (dn <= R and want[dn]):
                    near += 3 - d
                    break
    v = (_home(st) * 256 + near * 4 - np.int64(st[K.WLEN])) * 256
    return v + noise(noise_base(salt, key[0] ^ key[2]), key[1])


@njit
def closure(beam, nb, seq, rules, pool, parent, pmove, score, hkeys, hstamp, stamp, salt, out):
    """Step 1 and the scores of step 2 (module doc) for beam[:nb]: pool[:n] the closure,
    parent (index in pool, or -1 - b for beam entry b) and pmove the move that made each;
    score[i] the candidate's score, or NO_SCORE if its stock is empty.  out[0] = n,
    out[1] = the won row's index or -1, out[2] = 1 if the pool filled up (the closure is cut there),
    out[3] = the row with the most cards on the foundations, out[4] = their number."""
    cap = pool.shape[0]
    mask = hkeys.shape[0] - 1
    key = np.zeros(K.KEY_WORDS, dtype=np.uint64)
    scratch = np.zeros(K.NCELLS_MAX + 1, dtype=np.int64)
    moves = np.zeros(K.MOVE_SLOTS, dtype=np.int64)
    log = np.zeros((0, 3), dtype=np.int32)
    out[1] = -1
    out[2] = 0
    n = 0
    for b in range(nb):
        K.pack_key(beam[b], seq, rules, key, scratch)
        if n < cap and _insert(hkeys, hstamp, stamp, key, mask):
            pool[n] = beam[b]
            parent[n] = -1 - b
            pmove[n] = -1
            n += 1
    i = 0
    while i < n:
        nm = K.gen_moves(pool[i], seq, rules, moves, 0)
        for x in range(nm):
            m = moves[x] & K.MOVE_MASK
            if (m & 15) == K.STOCK:
                continue
            if n >= cap:
                out[2] = 1
                break
            pool[n] = pool[i]
            K.apply_move(pool[n], m, seq, rules, log, 0, False)
            K.pack_key(pool[n], seq, rules, key, scratch)
            if not _insert(hkeys, hstamp, stamp, key, mask):
                continue
            parent[n] = i
            pmove[n] = m
            if K.is_won(pool[n], rules):
                out[0] = n + 1
                out[1] = n
                return
            n += 1
        if out[2] != 0:
            break
        i += 1
    nseq = rules[R_NSEQ]
    turned = np.zeros(K.SLEN, dtype=np.int8)
    out[3] = 0
    out[4] = -1
    for j in range(n):
        home = _home(pool[j])
        if home > out[4]:
            out[3] = j
            out[4] = home
        if pool[j, K.TURNED] < nseq:
            turned[:] = pool[j]
            K.apply_move(turned, TURN, seq, rules, log, 0, False)
            K.pack_key(turned, seq, rules, key, scratch)
            score[j] = _score(turned, seq, rules, key, salt)
        else:
            score[j] = NO_SCORE
    out[0] = n


@njit
def advance(pool, sel, seq, rules, beam):
    """beam[x] = pool[sel[x]] with the stock turned."""
    log = np.zeros((0, 3), dtype=np.int32)
    for x in range(sel.shape[0]):
        beam[x] = pool[sel[x]]
        K.apply_move(beam[x], TURN, seq, rules, log, 0, False)


@njit
def segments(parent, pmove, sel):
    """For each selected pool row x: the beam entry it came from (root[x]) and the moves
    from there to it (seg[start[x]:start[x + 1]], first move first)."""
    total = 0
    for x in range(sel.shape[0]):
        i = sel[x]
        while parent[i] >= 0:
            total += 1
            i = parent[i]
    root = np.zeros(sel.shape[0], dtype=np.int32)  # entries and offsets of one step: below 2**31
    start = np.zeros(sel.shape[0] + 1, dtype=np.int32)
    seg = np.zeros(total, dtype=np.int16)  # kernel moves (MOVE_MASK: 8 bits)
    n = 0
    for x in range(sel.shape[0]):
        start[x] = n
        i = sel[x]
        while parent[i] >= 0:
            seg[n] = np.int16(pmove[i])
            n += 1
            i = parent[i]
        root[x] = -1 - parent[i]
        a, z = start[x], n - 1  # reverse this row's moves into line order
        while a < z:
            seg[a], seg[z] = seg[z], seg[a]
            a += 1
            z -= 1
    start[sel.shape[0]] = n
    return root, seg, start


class Beam:
    """Beam searches of one kernel position, resumable step by step (module doc): the
    widths ``widths`` in turn, again and again, each run with a new salt (run 1 has salt
    1: every run breaks ties at random)."""

    def __init__(self, root: np.ndarray, seq: np.ndarray, rules: np.ndarray, widths: tuple[int, ...] = WIDTHS,
                 pool_rows: int = 1 << 20, hash_bits: int = 22):
        if (1 << hash_bits) < 2 * pool_rows:
            raise ValueError("the key set must have at least twice the pool's rows")
        self.root, self.seq, self.r, self.widths = root, seq, rules, widths
        self.pool = np.zeros((pool_rows, K.SLEN), dtype=np.int8)
        self.parent = np.zeros(pool_rows, dtype=np.int64)
        self.pmove = np.zeros(pool_rows, dtype=np.int64)
        self.score = np.zeros(pool_rows, dtype=np.int64)
        self.hkeys = np.zeros((1 << hash_bits, 3), dtype=np.uint64)
        self.hstamp = np.zeros(1 << hash_bits, dtype=np.int64)
        self.out = np.zeros(5, dtype=np.int64)
        self.stamp = 0
        self.runs = 0  # beam searches started
        self.nodes = 0  # positions made (closure rows), over all runs
        self.cut = 0  # steps whose closure filled the pool (and was cut short)
        self.won: np.ndarray | None = None  # the won line's kernel moves
        self.best_cards = -1
        self.best_path = np.zeros(0, dtype=np.int64)
        self._new_run()

    @property
    def width(self) -> int:
        return self.widths[(self.runs - 1) % len(self.widths)]

    def _new_run(self) -> None:
        self.runs += 1
        self.beam = self.root[None, :].copy()
        self.layers: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per step: root, seg, start

    def step(self) -> bool:
        """One closure and selection (module doc); True once won (the line in ``won``)."""
        if self.won is not None:
            return True
        w = self.width
        cap = min(self.pool.shape[0], w * POOL_PER_ENTRY)
        slots = min(self.hkeys.shape[0], 1 << (2 * cap - 1).bit_length())  # a set twice the pool, no more
        self.stamp += 1
        closure(self.beam, len(self.beam), self.seq, self.r, self.pool[:cap], self.parent, self.pmove, self.score,
                self.hkeys[:slots], self.hstamp[:slots], self.stamp, self.runs, self.out)
        n = int(self.out[0])
        self.nodes += n
        self.cut += int(self.out[2])
        if self.out[1] >= 0:
            self.won = self._line(int(self.out[1]))
            self.best_cards = int(_home(self.pool[int(self.out[1])]))
            self.best_path = self.won.copy()
            return True
        if self.out[4] > self.best_cards:
            self.best_cards = int(self.out[4])
            self.best_path = self._line(int(self.out[3]))
        sc = self.score[:n]
        live = np.flatnonzero(sc != NO_SCORE)
        if len(live) == 0:  # this run is over: the next, wider or salted anew
            self._new_run()
            return False
        if len(live) > w:
            live = live[np.argpartition(-sc[live], w - 1)[:w]]
        sel = live.astype(np.int64)
        self.layers.append(segments(self.parent, self.pmove, sel))
        nxt = np.zeros((len(sel), K.SLEN), dtype=np.int8)
        advance(self.pool, sel, self.seq, self.r, nxt)
        self.beam = nxt
        return False

    def _line(self, i: int) -> np.ndarray:
        """The kernel moves from the root to pool row i of the current step."""
        root, seg, _ = segments(self.parent, self.pmove, np.array([i], dtype=np.int64))
        parts = [seg]
        b = int(root[0])
        for lroot, lseg, lstart in reversed(self.layers):
            parts.append(np.array([TURN], dtype=np.int64))
            parts.append(lseg[lstart[b]:lstart[b + 1]])
            b = int(lroot[b])
        return np.concatenate(parts[::-1]).astype(np.int64)


def search(root: np.ndarray, seq: np.ndarray, rules: np.ndarray, seconds: float,
           widths: tuple[int, ...] = WIDTHS, positions: int | None = None) -> tuple[np.ndarray | None, dict]:
    """Beam steps until a win, ``seconds`` pass or (if given) ``positions`` closure rows
    were made: (kernel moves of the win or None, counters)."""
    deadline = time.monotonic() + seconds
    bm = Beam(root, seq, rules, widths)
    while not bm.step() and time.monotonic() < deadline and (positions is None or bm.nodes < positions):
        pass
    return bm.won, {"width": bm.width, "runs": bm.runs, "positions": bm.nodes, "best": bm.best_cards,
                    "cut_steps": bm.cut}
