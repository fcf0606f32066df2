"""Transposition-table eviction (tt.py): what a table too small for a search costs.

Solves the same deals with the table capped at several sizes and reports, per deal and
size, the verdict, the nodes, the entries evicted and the time.  Before eviction a
search that filled its table ended "unknown: memory-limit"; now it goes on, searching
forgotten states again.  Run by hand (never a timed test):

    python benchmarks/bench_eviction.py --out results/tt-eviction.md

Node counts are deterministic; seconds depend on the machine's load.  ``--out`` writes
the report's generated part; notes outside it are kept (bench_report.py).
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time
from datetime import date
from pathlib import Path

import solver
from bench_report import ROOT, project_args, write_report
# (game, seed, numbering, options): searches that store 9 to 20 million positions
DEALS = [("klondike", 78, "solvitaire", {"draw": 1}),
         ("klondike", 952, "solvitaire", {"draw": 1}),
         ("klondike", 765, "solvitaire", {"draw": 3})]
SIZES = [2048, 256, 128, 64]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    solver.solve("klondike", 1, max_nodes=1, tt_mb=1)  # load the kernel outside the timings
    rows = []
    for game, seed, numbering, options in DEALS:
        for mb in SIZES:
            t = time.perf_counter()
            r = solver.solve(game, seed, numbering=numbering, tt_mb=mb, timeout=args.timeout, **options)
            dt = time.perf_counter() - t
            opts = ", ".join(f"{k}={v}" for k, v in options.items())
            rows.append(f"| {game} {seed} ({numbering}; {opts}) | {mb} | {r.verdict}"
                        f"{' (' + r.reason + ')' if r.reason else ''} | {r.nodes:,} | {r.stored_states:,} | "
                        f"{r.counters.get('tt_dropped', 0):,} | {dt:.1f} |")
            print(rows[-1], flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    lines = ["# Transposition-table eviction: searches in tables too small for them", "",
             f"Command: `python benchmarks/bench_eviction.py --timeout {args.timeout:g}"
             + (f" {' '.join(project_args(['--out', args.out]))}`" if args.out else "`"),
             f"Machine: {platform.machine()}, CPython {platform.python_version()}; code {commit}; "
             f"date {date.today().isoformat()}.  One search at a time.", "",
             "| deal | --tt-mb | verdict | nodes | positions held at the end | evicted | seconds |",
             "|---|---|---|---|---|---|---|", *rows, ""]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        write_report(Path(args.out), text, "benchmarks/bench_eviction.py")


if __name__ == "__main__":
    main()
