"""Probe (issue 13): can one jitted DFS core serve every game's kernel?

A toy game's move functions (game.py) called by the same DFS loop three ways:
``direct`` (the loop in the game's module, as every kernel is written), ``generic`` (a
core in another module taking the jitted functions as plain arguments, core.py), and
``fc`` (the same core with an explicit signature that types them as first-class
functions, core2.py).  Prints the first call (compile or cache load), the best of five
runs and numba's cache hits; run each mode twice in fresh processes to see the cache:

    export NUMBA_CACHE_DIR=$(mktemp -d)
    for m in direct generic fc direct generic fc; do python benchmarks/studies/shared_core_probe/run.py $m; done

Results: docs/measurements.md (section "A shared DFS core").
"""
import sys, time
t0 = time.perf_counter()
import numpy as np
import numba
from numba import types
import game, core, core2
mode = sys.argv[1]
root = np.zeros(8, dtype=np.int8)
seen = np.zeros(1 << 22, dtype=np.uint64)
t1 = time.perf_counter()
if mode == "direct":
    f = lambda: game.dfs_direct(root, seen)
elif mode == "generic":
    f = lambda: core.dfs_generic(root, seen, game.gen, game.app, game.key)
else:
    f = lambda: core2.dfs_fc(root, seen, game.gen, game.app, game.key)
n = f()
t2 = time.perf_counter()
best = 1e9
for _ in range(5):
    seen[:] = 0
    a = time.perf_counter(); n = f(); best = min(best, time.perf_counter() - a)
fn = {"direct": game.dfs_direct, "generic": core.dfs_generic}.get(mode, core2.dfs_fc)
print(mode, "import and first call (compile or cache load) %.3f s" % (t2 - t0), "nodes", n, "best run %.4f s" % best,
      "%.1f Mnodes/s" % (n / best / 1e6), "signatures", len(fn.signatures), "cache hits", sum(fn.stats.cache_hits.values()), "misses", sum(fn.stats.cache_misses.values()))
