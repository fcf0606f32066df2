"""Transposition table: an exact-key, open-addressing hash set of packed states.

Why exact keys: a table that prunes on a hash alone (or on a truncated key, as chess
engines may afford to) can call a winnable deal "lost" when two states collide.  Here a
state is pruned ONLY when all ``width`` words of its packed key equal a stored entry, so
the table never changes a verdict; it only avoids searching a state twice.

Layout, one row of ``table`` per slot (``width`` uint64 words, 8*width bytes):

    | word      | content                                              |
    |-----------|------------------------------------------------------|
    | 0..w-1    | the packed canonical state, as the game's kernel     |
    |           | packs it; every game sets a marker bit in the last   |
    |           | word, so an all-zero last word means "empty slot"    |

Probing is linear from ``hash(key) & (slots-1)``.  The hash is a fixed (unseeded)
murmur3-style finaliser chained over the words, so node counts are deterministic.
Counters live in a small int64 array so kernels can update them without Python:

    | ctr index  | meaning                                               |
    |------------|-------------------------------------------------------|
    | COUNT      | entries stored this search                            |
    | MAX_COUNT  | stored entries allowed (load factor cap)              |
    | TOUCHED    | slots recorded in ``touched`` (may exceed its length) |
    | EVICT      | 1: at the cap, make room by eviction (below); 0: at   |
    |            | the cap, refuse (the search grows the table or ends   |
    |            | with "unknown: memory-limit")                         |
    | DROPPED    | entries evicted because of the cap                    |

Growth: a table starts small and doubles (rehashing) whenever it reaches its load
cap, up to the user's ``--tt-mb``; at that size it evicts (below), or, built with
``evict=False``, ends the search with "memory-limit".  Small searches thus touch little
memory (the first touch of a fresh page is not free), big ones get all of it.

Eviction, once the table has its final size and is at its cap: the first entry at or
after the new state's home slot is forgotten, removed by backward-shift deletion (the
entries after it in its run move back where their probes still find them), and the new
state is stored.  So the load never rises above the cap (probing stays short and always
ends), every other stored key is still found, and every entered state is stored (a state
left out would be re-entered around every cycle of moves through it).  Why no verdict
changes (proof):
- the DFS skips a state only when the table holds it, and a state enters the table only
  when the search enters it, so a skipped state was entered before; forgetting entries
  only makes the table hold fewer states, never a state that was not entered;
- "lost" = the DFS finished: every entered state had all its children generated, each
  either entered or skipped (hence entered earlier).  Along a shortest line from the
  root to a won state every state is therefore entered, and entering the won state
  ends the search with "won".  So "lost" means no won state is reachable, with any
  subset of entries forgotten.  A won line is replayed by the reference engine anyway.
- a forgotten state is searched again if met again (the cost of eviction), even one
  on the current path: the states after it on the path are still held or are forgotten
  too, and each re-entry stores the state again, so a loop of re-entries needs a new
  eviction at every turn and is bounded by the DFS stack ("unknown: memory-limit" when
  the stack fills) and by the search's limits.  Never a verdict.
A search with eviction ends with "memory-limit" only when its DFS stack is full.

Clearing: the slots written by a search are recorded in ``touched`` and zeroed again
afterwards, so a table is reused across thousands of deals for O(entries) instead of a
full memset; only a search that outgrew the record costs a full clear, and a table that
grew is replaced by a small one (``TranspositionTable.clear``).
"""

from __future__ import annotations

import mmap

import numpy as np

from ..core.errors import NAME, OptionError
from .jit import njit

COUNT, MAX_COUNT, TOUCHED, EVICT, DROPPED = 0, 1, 2, 3, 4
CTR_LEN = 5
MAX_LOAD = 0.8  # linear probing degrades fast beyond this


@njit(inline="always")
def _mix(x):
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return x


@njit(inline="always")
def key_hash(key):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(key.shape[0]):
        h = _mix(h ^ key[w])
    return h


@njit
def _delete(table, j):
    """Remove the entry at slot ``j`` by backward shift: each later entry of the run that
    may sit at the freed slot (its home is not cyclically after it) moves back into it,
    so every remaining key is still found by linear probing, with no tombstones."""
    last = table.shape[1] - 1
    mask = np.int64(table.shape[0] - 1)
    i = j
    k = (j + 1) & mask
    while table[k, last] != np.uint64(0):
        h = np.int64(key_hash(table[k]) & np.uint64(mask))
        if ((k - h) & mask) >= ((k - i) & mask):
            for w in range(last + 1):
                table[i, w] = table[k, w]
            i = k
        k = (k + 1) & mask
    for w in range(last + 1):
        table[i, w] = np.uint64(0)


@njit
def tt_insert(table, key, ctr, touched):
    """Insert ``key``.  Returns 1 if new (stored; at the cap with eviction, after evicting
    another entry), 0 if already stored, -1 if at the cap without eviction."""
    width = key.shape[0]
    last = width - 1
    mask = np.uint64(table.shape[0] - 1)
    home = np.int64(key_hash(key) & mask)
    i = home
    while True:
        if table[i, last] == np.uint64(0):
            if ctr[COUNT] >= ctr[MAX_COUNT]:
                if ctr[EVICT] == 0:
                    return -1
                ctr[DROPPED] += 1  # at the cap: evict, then store as below (module doc)
                victim = home
                while table[victim, last] == np.uint64(0):
                    victim = (victim + 1) & np.int64(mask)
                _delete(table, victim)
                ctr[COUNT] -= 1
                i = home  # the shift may have moved the first empty slot of the probe
                while table[i, last] != np.uint64(0):
                    i = (i + 1) & np.int64(mask)
            for w in range(width):
                table[i, w] = key[w]
            ctr[COUNT] += 1
            t = ctr[TOUCHED]
            if t < touched.shape[0]:
                touched[t] = i
            ctr[TOUCHED] = t + 1
            return 1
        same = True
        for w in range(width):
            if table[i, w] != key[w]:
                same = False
                break
        if same:
            return 0
        i = (i + 1) & np.int64(mask)


@njit
def tt_clear(table, ctr, touched):
    n = ctr[TOUCHED]
    if n <= touched.shape[0]:
        for t in range(n):
            i = touched[t]
            for w in range(table.shape[1]):
                table[i, w] = np.uint64(0)
    else:
        table[:, :] = np.uint64(0)
    ctr[COUNT] = 0
    ctr[TOUCHED] = 0
    ctr[DROPPED] = 0


def _zeroed_table(slots: int, width: int) -> np.ndarray:
    """A lazily zeroed table backed by anonymous memory asking for huge pages.

    Untouched slots cost no memory.  With 4 KB pages, first touches of a large table
    can cost more than the search itself (docs/measurements.md); 2 MB pages make the
    faults 512 times rarer.
    """
    nbytes = slots * width * 8
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            buf.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass
    return np.frombuffer(buf, dtype=np.uint64).reshape(slots, width)


@njit
def tt_rehash(old, new, ctr, touched):
    """Insert every entry of ``old`` into the empty, larger ``new``."""
    ctr[COUNT] = 0
    ctr[TOUCHED] = 0
    last = old.shape[1] - 1
    for i in range(old.shape[0]):
        if old[i, last] != np.uint64(0):
            tt_insert(new, old[i], ctr, touched)


INITIAL_MB = 24
MIN_SLOTS = 64  # tests shrink tables this far to make eviction fire
MAX_SLOTS = 1 << 40  # beyond any machine: a size is checked before it gets here (resources.check_tt_mb)


class TranspositionTable:
    """A reusable table of ``2**k`` slots that grows up to ``megabytes``, then evicts
    (``evict=False``: then a full table ends the search with "memory-limit")."""

    def __init__(self, megabytes: float, width: int, evict: bool = True):
        self.width = width
        self.megabytes = megabytes
        self.evict = evict
        self.max_slots = self._slots_within(megabytes)
        if self.max_slots < MIN_SLOTS:
            raise OptionError("tt_mb", f"{NAME} {megabytes} is too small (needs at least {MIN_SLOTS * 8 * width / 2**20:.4f})")
        self.ctr = np.zeros(CTR_LEN, dtype=np.int64)
        self._allocate(min(self.max_slots, self._slots_within(INITIAL_MB)))

    def _slots_within(self, megabytes: float) -> int:
        slots = 1
        while slots * 2 * 8 * self.width <= megabytes * 2**20 and slots < MAX_SLOTS:
            slots *= 2
        return slots

    def _allocate(self, slots: int) -> None:
        self.table = _zeroed_table(slots, self.width)
        self.touched = np.empty(min(slots, 1 << 24), dtype=np.int64)
        # Grow early (probing stays short); fill the last size up to MAX_LOAD.
        self.ctr[MAX_COUNT] = int(slots * (MAX_LOAD if slots >= self.max_slots else 0.5))
        self.ctr[EVICT] = int(self.evict and slots >= self.max_slots)

    def grow(self) -> bool:
        """Double the table (keeping its entries) if the size limit allows."""
        if self.slots >= self.max_slots:
            return False
        old = self.table
        self._allocate(self.slots * 2)
        tt_rehash(old, self.table, self.ctr, self.touched)
        return True

    @property
    def full(self) -> bool:
        return self.ctr[COUNT] >= self.ctr[MAX_COUNT]

    @property
    def slots(self) -> int:
        return self.table.shape[0]

    @property
    def count(self) -> int:
        return int(self.ctr[COUNT])

    @property
    def dropped(self) -> int:
        """Entries this search evicted because the table was at its cap."""
        return int(self.ctr[DROPPED])

    def clear(self) -> None:
        """Empty the table for the next search.  A table that grew starts small again,
        so that every search sees the same table history (and node counts) whatever
        this table searched before: with eviction, which entry is evicted depends on
        where entries sit, and that depends on the growth."""
        start = min(self.max_slots, self._slots_within(INITIAL_MB))
        if self.slots > start:
            self.ctr[:] = 0
            self._allocate(start)
        else:
            tt_clear(self.table, self.ctr, self.touched)
