import numpy as np
from numba import njit, types

# toy game: state int8[8]; a move adds 1 to slot i (mod 7) if slot i < slot i+1 or i == 7
SIG_GEN = types.int64(types.int8[::1], types.int64[::1])
SIG_APP = types.void(types.int8[::1], types.int64)
SIG_KEY = types.uint64(types.int8[::1])

@njit(SIG_GEN, cache=True)
def gen(st, out):
    n = 0
    for i in range(8):
        if i == 7 or st[i] <= st[i + 1]:
            if st[i] < 6:
                out[n] = i
                n += 1
    return n

@njit(SIG_APP, cache=True)
def app(st, m):
    st[m] += 1

@njit(SIG_KEY, cache=True)
def key(st):
    k = np.uint64(0)
    for i in range(8):
        k = k * np.uint64(7) + np.uint64(st[i])
    return k

@njit(cache=True)
def dfs_direct(root, seen):
    stack = np.zeros((64, 8), dtype=np.int8)
    moves = np.zeros(64 * 8, dtype=np.int64)
    lend = np.zeros(64, dtype=np.int64); lnext = np.zeros(64, dtype=np.int64)
    stack[0] = root
    lend[0] = gen(stack[0], moves[0:8])
    d = 0; nodes = 0
    while True:
        if lnext[d] >= lend[d]:
            if d == 0:
                break
            d -= 1
            continue
        m = moves[d * 8 + lnext[d]]
        lnext[d] += 1
        stack[d + 1] = stack[d]
        app(stack[d + 1], m)
        nodes += 1
        k = key(stack[d + 1])
        h = k % np.uint64(seen.shape[0])
        if seen[h] == k + np.uint64(1):
            continue
        seen[h] = k + np.uint64(1)
        d += 1
        lnext[d] = 0
        lend[d] = gen(stack[d], moves[d * 8:d * 8 + 8])
    return nodes
