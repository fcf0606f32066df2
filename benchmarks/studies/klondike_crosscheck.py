"""Cross-check two versions of the Klondike kernel move by move (run by hand).

    PATIENCE_SERVER=off python benchmarks/studies/klondike_crosscheck.py record /tmp/kl_ref.npz 30000   # the old kernel
    PATIENCE_SERVER=off python benchmarks/studies/klondike_crosscheck.py check /tmp/kl_ref.npz          # the new one

``record`` walks the searched (pruned) kernel's moves at random from Solvitaire deals under
six rule variants and stores, for N rows a variant, the row's first BASE fields (the
position; the later fields are derived from it), its move list, and for each move the child
after the move and its safe plays (a hash of its BASE fields) and the child's key.  ``check``
rebuilds each row's derived fields (locations, talon Kings, talon cards) and asks the
kernel now imported for the same moves, children and keys; it exits 1 at the first
difference.  Run each side from its own checkout (PYTHONPATH); the record file stays out of
git.  Used for issue 23's step 3 (results/klondike-cheap-nodes.md).
"""
import sys
import numpy as np
from numba import njit
from solver.core.numbering import SOLVITAIRE
from solver.games.klondike import kernel as K
from solver.games.klondike.codec import encode, rules_array
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikeRules

BASE = K.LOC0  # the position's own fields; the rest is derived from them (kernel doc)

VARIANTS = [dict(draw=1), dict(draw=3), dict(draw=3, passes=3), dict(draw=1, worry_back=False),
            dict(draw=1, passes=1), dict(draw=2, passes=2, worry_back=False)]

@njit
def row_hash(ch):
    h = np.uint64(1469598103934665603)
    for x_ in range(BASE):
        h = (h ^ np.uint64(ch[x_] & 0xFFFFFFFF)) * np.uint64(1099511628211)
    return h

@njit
def walk(root, talon, ntalon, rules, seed, steps, out_rows, out_moves, out_kids, out_keys, n_out):
    moves = np.zeros(4096, np.int64); log = np.zeros((0, 5), np.int32)
    key = np.zeros(2, np.uint64); codes = np.zeros(8, np.uint64)
    st = root.copy(); x = np.uint64(seed * 7919 + 1)
    K.play_safe(st, talon, ntalon, rules, log, 0, False)
    for _ in range(steps):
        if n_out >= out_rows.shape[0]:
            break
        n = K.gen_moves(st, talon, ntalon, rules, moves, 0)
        for x_ in range(BASE):
            out_rows[n_out, x_] = st[x_]
        out_moves[n_out, :] = 0
        out_moves[n_out, 0] = n
        for j in range(min(n, 63)):
            out_moves[n_out, j + 1] = moves[j]
            ch = st.copy()
            K.apply_move(ch, moves[j], talon, ntalon, rules, log, 0, False)
            K.play_safe(ch, talon, ntalon, rules, log, 0, False)
            out_kids[n_out, j] = row_hash(ch)
            K.pack_key(ch, rules, key, codes)
            out_keys[n_out, j, 0] = key[0]; out_keys[n_out, j, 1] = key[1]
        n_out += 1
        if n == 0:
            break
        x ^= x << np.uint64(13); x ^= x >> np.uint64(7); x ^= x << np.uint64(17)
        pick = int(x % np.uint64(n))
        K.apply_move(st, moves[pick], talon, ntalon, rules, log, 0, False)
        K.play_safe(st, talon, ntalon, rules, log, 0, False)
    return n_out

def record(n_per=40000):
    rows, mv, kids, keys, tags, tals, nts = [], [], [], [], [], [], []
    for vi, v in enumerate(VARIANTS):
        R = np.zeros((n_per, BASE), np.int32); M = np.zeros((n_per, 64), np.int64)
        C = np.zeros((n_per, 63), np.uint64); Y = np.zeros((n_per, 63, 2), np.uint64)
        TAL = np.zeros((n_per, 24), np.int32); NT = np.zeros(n_per, np.int64)
        n = 0; seed = 1
        rules = KlondikeRules(**v)
        while n < n_per:
            pos = klondike_deal(seed, SOLVITAIRE, rules.draw)
            root, talon, ntalon = encode(pos, rules)
            r = rules_array(rules, 13, 7, True)
            n0 = n
            n = walk(root, talon, ntalon, r, seed, 400, R, M, C, Y, n)
            TAL[n0:n] = talon; NT[n0:n] = ntalon
            seed += 1
        rows.append(R); mv.append(M); kids.append(C); keys.append(Y); tags.append(np.full(n_per, vi)); tals.append(TAL); nts.append(NT)
    return [np.concatenate(a) for a in (rows, mv, kids, keys, tags, tals, nts)]

@njit
def check(R, M, C, Y, talon, ntalon, rules):
    """Index of the first row where this kernel differs from the record, else -1."""
    moves = np.zeros(4096, np.int64); log = np.zeros((0, 5), np.int32)
    key = np.zeros(2, np.uint64); codes = np.zeros(8, np.uint64)
    st = np.zeros(K.SLEN, np.int32)
    for r in range(R.shape[0]):
        st[:] = 0
        for x_ in range(BASE):
            st[x_] = R[r, x_]
        K.fill_locations(st)
        for t in range(ntalon[r]):
            if talon[r, t] % 13 == 12:  # full deck: a King
                st[K.TKINGS] |= 1 << t
            if (R[r, K.TMASK] >> t) & 1:
                c = talon[r, t]
                st[K.TCARDS + c // 26] |= 1 << (c % 26)
        n = K.gen_moves(st, talon[r], ntalon[r], rules, moves, 0)
        if n != M[r, 0]:
            return r
        for j in range(min(n, 63)):
            if moves[j] != M[r, j + 1]:
                return r
            ch = st.copy()
            K.apply_move(ch, moves[j], talon[r], ntalon[r], rules, log, 0, False)
            K.play_safe(ch, talon[r], ntalon[r], rules, log, 0, False)
            if row_hash(ch) != C[r, j]:
                return r
            K.pack_key(ch, rules, key, codes)
            if key[0] != Y[r, j, 0] or key[1] != Y[r, j, 1]:
                return r
    return -1

if __name__ == "__main__":
    import time
    t = time.time()
    if sys.argv[1] == "record":
        R, M, C, Y, T, TAL, NT = record(int(sys.argv[3]))
        np.savez_compressed(sys.argv[2], rows=R, moves=M, kids=C, keys=Y, tags=T, tal=TAL, nt=NT)
        print("recorded", len(R), "rows,", int(M[:, 0].sum()), "moves", round(time.time() - t, 1), "s")
    else:
        z = np.load(sys.argv[2])
        bad = 0
        for vi, v in enumerate(VARIANTS):
            sel = z["tags"] == vi
            r = rules_array(KlondikeRules(**v), 13, 7, True)
            i = check(z["rows"][sel], z["moves"][sel], z["kids"][sel], z["keys"][sel], z["tal"][sel], z["nt"][sel], r)
            print(v, int(sel.sum()), "rows:", "same" if i < 0 else f"DIFFERS at row {i}")
            bad += i >= 0
        print("checked in", round(time.time() - t, 1), "s"); sys.exit(1 if bad else 0)
