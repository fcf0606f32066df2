"""The DFS loop template (issue 25) against the hand-written loops: cold compile and speed.
Run by hand (never a timed test), with a checkout of the old code beside this one:

    git worktree add /tmp/base <old commit>
    python benchmarks/studies/bench_loop_template.py --old /tmp/base --new . --cold-runs 1 --runs 3

Times are CPU seconds of the measuring process (``time.process_time``), so that a shared,
loaded machine slows them less than wall time; wall seconds are reported beside them.
Part 1, cold compile: in fresh processes with an empty numba cache (a new folder as
NUMBA_CACHE_DIR), each game's first solve in the order of GAMES (compile, or for the
generated loops also generation, plus a solve of at most COLD_NODES nodes), old and new
alternating.  The first cold run's cache folder of each tree is kept for part 2.
Part 2, speed: ``solver.runs.bench.run_bench`` (the deals and node cap of ``patience bench``)
in fresh processes with that warm cache, one untimed run per tree first, then old and new
alternating (the order swapped every round); signature, nodes, and nodes per CPU second
of the whole bench call (per wall second beside it).  Prints a Markdown report.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
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
c0, w0 = time.process_time(), time.perf_counter()
import numba
from solver.api import solve
out = {"import": [time.process_time() - c0, time.perf_counter() - w0]}
for label, game, seed, numbering, options in json.loads(sys.argv[1]):
    c, w = time.process_time(), time.perf_counter()
    solve(game, seed, numbering=numbering, max_nodes=%d, tt_mb=16, **options)
    out[label] = [time.process_time() - c, time.perf_counter() - w]
out["all"] = [time.process_time() - c0, time.perf_counter() - w0]
print(json.dumps(out))
""" % COLD_NODES

BENCH = r"""
import json, time
from solver.runs.bench import run_bench
c, w = time.process_time(), time.perf_counter()
rows, total, digest = run_bench()
c, w = time.process_time() - c, time.perf_counter() - w
print(json.dumps({"signature": digest, "nodes": total, "cpu": c, "wall": w}))
"""


def run(tree: Path, code: str, cache: str, *args: str) -> dict:
    env = dict(os.environ, PATIENCE_SERVER="off", NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=tree, env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def order(i: int) -> tuple[str, str]:
    return ("old", "new") if i % 2 == 0 else ("new", "old")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True)
    ap.add_argument("--new", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cold-runs", type=int, default=1)
    args = ap.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    root = tempfile.mkdtemp(prefix="loop-template-bench-")
    keep = {k: str(Path(root) / f"{k}-0") for k in trees}
    cold: dict[str, list[dict]] = {"old": [], "new": []}
    for i in range(args.cold_runs):
        for k in order(i):
            cache = keep[k] if i == 0 else str(Path(root) / f"{k}-{i}")
            cold[k].append(run(trees[k], FIRST_SOLVES, cache, json.dumps(GAMES)))
            print("cold", k, cold[k][-1], file=sys.stderr, flush=True)
    for k in trees:
        print("warm-up", k, run(trees[k], BENCH, keep[k]), file=sys.stderr, flush=True)
    warm: dict[str, list[dict]] = {"old": [], "new": []}
    for i in range(args.runs):
        for k in order(i):
            warm[k].append(run(trees[k], BENCH, keep[k]))
            print("bench", k, warm[k][-1], file=sys.stderr, flush=True)

    labels = [g[0] for g in GAMES] + ["all"]
    print("## Part 1: first solve of each game, empty numba cache (CPU s / wall s)\n")
    print("| tree | run | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for i in range(args.cold_runs):
        for k in order(i):
            r = cold[k][i]
            print(f"| {k} | {i + 1} | " + " | ".join(f"{r[x][0]:.1f} / {r[x][1]:.0f}" for x in labels) + " |")
    med = {k: {x: statistics.median(r[x][0] for r in cold[k]) for x in labels} for k in cold}
    print("| new/old (CPU, medians) | | " + " | ".join(f"{med['new'][x] / med['old'][x]:.2f}" for x in labels) + " |")
    print("\n## Part 2: bench deals, warm cache, alternating\n")
    print("| run | tree | signature | nodes | CPU s | nodes per CPU s | wall s |")
    print("|---|---|---|---|---|---|---|")
    for i in range(args.runs):
        for k in order(i):
            r = warm[k][i]
            print(f"| {i + 1} | {k} | {r['signature']} | {r['nodes']:,} | {r['cpu']:.2f} | "
                  f"{r['nodes'] / r['cpu']:,.0f} | {r['wall']:.2f} |")
    nps = {k: statistics.median(r["nodes"] / r["cpu"] for r in warm[k]) for k in warm}
    print(f"\nmedian nodes per CPU second: old {nps['old']:,.0f}, new {nps['new']:,.0f}, "
          f"new/old {nps['new'] / nps['old']:.3f}")
    print(f"\n(caches left in {root}: remove by hand)")


if __name__ == "__main__":
    main()
