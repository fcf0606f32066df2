"""The DFS loop template (issue 25) against the hand-written loops: speed and cold compile.
Run by hand (never a timed test), with a checkout of the old code beside this one:

    git worktree add /tmp/base <old commit>
    python benchmarks/bench_loop_template.py --old /tmp/base --new . --runs 3 --cold-runs 2

Part 1 runs ``python -m solver.cli bench`` (PATIENCE_SERVER=off) in each tree, old and new
alternating (the order swapped every round), each tree with its own numba cache folder
warmed by one untimed run first; it reports every run's signature, total nodes and nodes
per second, and the medians.  Part 2 times, in fresh processes with an empty numba cache
(NUMBA_CACHE_DIR a new temporary folder), each game's first solve in the order below
(compile plus a solve of at most COLD_NODES nodes), old and new alternating.  Prints a
Markdown report; the machine is shared, so quote medians and ratios, never one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (label, game, seed, numbering, rule options): one deal of each kernel
GAMES = [("klondike", "klondike", 1, "solvitaire", {"draw": 3}),
         ("beleaguered-castle", "beleaguered-castle", 1, "solvitaire", {}),
         ("great-wheel", "great-wheel", 1, "pysolfc", {"rules": "pgs"}),
         ("windmill", "windmill", 1, "pysolfc", {"rules": "pysolfc"}),
         ("windmill-welford", "windmill", 1, "pysolfc", {"rules": "welford"})]
COLD_NODES = 2000

FIRST_SOLVES = r"""
import json, sys, time
t0 = time.perf_counter()
import numba
from solver.api import solve
out = {"import": time.perf_counter() - t0}
for label, game, seed, numbering, options in json.loads(sys.argv[1]):
    t = time.perf_counter()
    solve(game, seed, numbering=numbering, max_nodes=%d, tt_mb=16, **options)
    out[label] = time.perf_counter() - t
print(json.dumps(out))
""" % COLD_NODES

BENCH_LINE = re.compile(r"total nodes (\d+)\s+signature (\w+)\s+time ([\d.]+) s\s+\(([\d,]+) nodes/s\)")


def run(tree: Path, cmd: list[str], cache: str) -> tuple[str, float]:
    env = dict(os.environ, PATIENCE_SERVER="off", NUMBA_CACHE_DIR=cache)
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return out.stdout, time.perf_counter() - t


def bench(tree: Path, cache: str) -> dict:
    out, wall = run(tree, [sys.executable, "-m", "solver.cli", "bench"], cache)
    m = BENCH_LINE.search(out)
    return {"nodes": int(m.group(1)), "signature": m.group(2), "seconds": float(m.group(3)),
            "nps": int(m.group(4).replace(",", "")), "wall": wall}


def first_solves(tree: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="cold-numba-") as cache:
        out, wall = run(tree, [sys.executable, "-c", FIRST_SOLVES, json.dumps(GAMES)], cache)
    got = json.loads(out.strip().splitlines()[-1])
    got["process"] = wall
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True)
    ap.add_argument("--new", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cold-runs", type=int, default=2)
    args = ap.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    with tempfile.TemporaryDirectory(prefix="warm-numba-") as root:
        caches = {k: str(Path(root) / k) for k in trees}
        for k, tree in trees.items():  # warm each tree's cache (untimed)
            bench(tree, caches[k])
        warm: dict[str, list[dict]] = {"old": [], "new": []}
        for i in range(args.runs):
            for k in (("old", "new") if i % 2 == 0 else ("new", "old")):
                warm[k].append(bench(trees[k], caches[k]))
                print(k, warm[k][-1], file=sys.stderr, flush=True)
    cold: dict[str, list[dict]] = {"old": [], "new": []}
    for i in range(args.cold_runs):
        for k in (("old", "new") if i % 2 == 0 else ("new", "old")):
            cold[k].append(first_solves(trees[k]))
            print(k, cold[k][-1], file=sys.stderr, flush=True)

    print("## Part 1: `patience bench`, warm cache, alternating\n")
    print("| run | tree | signature | nodes | time (s) | nodes/s |")
    print("|---|---|---|---|---|---|")
    for i in range(args.runs):
        for k in ("old", "new"):
            r = warm[k][i]
            print(f"| {i + 1} | {k} | {r['signature']} | {r['nodes']:,} | {r['seconds']:.2f} | {r['nps']:,} |")
    med = {k: statistics.median(r["nps"] for r in warm[k]) for k in warm}
    print(f"\nmedian nodes/s: old {med['old']:,.0f}, new {med['new']:,.0f}, new/old {med['new'] / med['old']:.3f}\n")
    print("## Part 2: first solve of each game, empty numba cache, alternating (seconds)\n")
    labels = [k for k in cold["old"][0] if k not in ("import",)]
    print("| tree | run | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for k in ("old", "new"):
        for i, r in enumerate(cold[k]):
            print(f"| {k} | {i + 1} | " + " | ".join(f"{r[x]:.1f}" for x in labels) + " |")
    print("\n| | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    meds = {k: {x: statistics.median(r[x] for r in cold[k]) for x in labels} for k in cold}
    for k in ("old", "new"):
        print(f"| median {k} | " + " | ".join(f"{meds[k][x]:.1f}" for x in labels) + " |")
    print("| new/old | " + " | ".join(f"{meds['new'][x] / meds['old'][x]:.2f}" for x in labels) + " |")


if __name__ == "__main__":
    main()
