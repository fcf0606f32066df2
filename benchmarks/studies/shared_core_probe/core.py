import numpy as np
from numba import njit

@njit(cache=True)
def dfs_generic(root, seen, gen, app, key):
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
