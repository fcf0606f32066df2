"""Explicit layers of a deal by the kernel's exact keys, to compare with the diagrams.

Layer t = the distinct kernel keys (kernel.pack_key: waste mask in sequence order, stock
index, centre height, flag, sorted cell ranks, sorted king-pile lengths) of the positions
with t cards of the sequence turned, reachable from the deal; found with the beam's
closure (solver/games/windmill/beam.py, nothing dropped: every position of the closure of
a layer's seeds, breadth first, each key once), kernel moves without pruning.  For t < N
a kernel key is exactly a state of the symbolic model with o = 0 and a non-empty waste,
so the counts must equal ``positions`` of the symbolic layers.

python -m research.windmill_symbolic.explicit SEED [--rules pysolfc] [--max-rows 8000000] [--seconds 300]
"""
import argparse
import time

import numpy as np

from solver.games.windmill import beam as B
from solver.games.windmill import kernel as K
from solver.games.windmill.codec import encode, rules_array
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules


def layers(position, rules, max_rows=8_000_000, seconds=300.0, log=None):
    st, seq = encode(position, rules)
    r = rules_array(position, rules, False)
    N = len(position.waste) + len(position.stock)
    hash_bits = (2 * max_rows - 1).bit_length()
    pool = np.zeros((max_rows, K.SLEN), dtype=np.int8)
    parent = np.zeros(max_rows, dtype=np.int64)
    pmove = np.zeros(max_rows, dtype=np.int64)
    score = np.zeros(max_rows, dtype=np.int64)
    hkeys = np.zeros((1 << hash_bits, 3), dtype=np.uint64)
    hstamp = np.zeros(1 << hash_bits, dtype=np.int64)
    out = np.zeros(5, dtype=np.int64)
    seeds = st[None, :].copy()
    counts = {}
    t0 = time.time()
    for t in range(len(position.waste), N + 1):
        B.closure(seeds, len(seeds), seq, r, pool, parent, pmove, score, hkeys, hstamp, t + 1, 1, out)
        n = int(out[0])
        if out[2] or out[1] >= 0:  # cut (too many rows) or won: stop counting here
            break
        rows = pool[:n]
        turned = rows[:, K.TURNED]
        layer = rows[turned == t]
        counts[t] = len(layer)
        if log:
            log(t, len(layer), n, time.time() - t0)
        if t == N or time.time() - t0 > seconds:
            break
        nxt = np.concatenate([layer, rows[turned == t + 1]])
        if len(layer):
            B.advance(layer, np.arange(len(layer), dtype=np.int64), seq, r, nxt[:len(layer)])
        seeds = nxt
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--max-rows", type=int, default=8_000_000)
    ap.add_argument("--seconds", type=float, default=300)
    a = ap.parse_args(argv)
    p = windmill_deal(a.seed)
    layers(p, WindmillRules(a.rules), a.max_rows, a.seconds,
           log=lambda t, c, n, s: print(f"t={t:3d} explicit={c:12,d} closure_rows={n:12,d} s={s:7.1f}", flush=True))


if __name__ == "__main__":
    main()
