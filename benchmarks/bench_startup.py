"""Start-up of the command (issue 12): wall time of whole commands, and where a warm
one-deal solve spends it.  Run by hand (never a timed test):

    python benchmarks/bench_startup.py --runs 10 --out results/cli-startup.md

Part 1 runs each command ``--runs`` times in fresh processes (after one untimed run that
warms numba's cache) and reports the median wall time: first solving in the command's
own process (``PATIENCE_SERVER=off``), then handing the deal to a resident solver
(``patience server start`` on a temporary socket, stopped at the end).  Part 2 times the stages of one
warm solve inside one fresh process: Python with the CLI module, the numba import,
loading the kernel from numba's cache (cProfile shows how much of that is numba's target
context set-up, ``BaseContext.refresh``, paid once per process), and the solve itself.
``--out`` writes the report's generated part; notes outside it are kept (bench_report.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench_report import ROOT, project_args, write_report

PATIENCE = [sys.executable, "-m", "solver"]

STAGES = r"""
import time, cProfile, pstats, io
t0 = time.perf_counter()
import solver.interfaces.cli
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
pr = cProfile.Profile(); pr.enable()
from solver.games.klondike import searcher
searcher.warm_up()
pr.disable()
t3 = time.perf_counter()
import solver
r = solver.solve("klondike", 1)
t4 = time.perf_counter()
st = pstats.Stats(pr)
refresh = sum(v[3] for k, v in st.stats.items() if k[2] == "refresh" and "numba/core/base.py" in k[0])
print(f"{t1 - t0:.4f} {t2 - t1:.4f} {t3 - t2:.4f} {refresh:.4f} {t4 - t3:.4f} {r.verdict}")
"""


def wall(cmd: list[str], runs: int, server: str = "off", check: bool = True) -> float:
    env = {**os.environ, "PATIENCE_SERVER": server}
    subprocess.run(cmd, cwd=ROOT, capture_output=True, env=env)  # warm numba's cache
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, env=env, check=check)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


SOLVES = (["solve", "klondike", "1"], ["solve", "klondike", "1", "--line", "fast"],
          ["solve", "klondike", "1", "--draw", "3"], ["solve", "bc", "1"], ["solve", "bc", "1", "--line", "fast"],
          ["solve", "windmill", "1"], ["solve", "great-wheel", "3"], ["solve", "great-wheel", "3", "--line", "fast"])


def with_server(runs: int) -> list[tuple[str, float, float]]:
    """(command, median wall in its own process, median wall through a resident solver)."""
    sock = str(Path(tempfile.mkdtemp()) / "bench.sock")
    env = {**os.environ, "PATIENCE_SERVER": sock}
    subprocess.run(PATIENCE + ["server", "start"], cwd=ROOT, env=env, check=True, capture_output=True)
    try:
        return [(" ".join(["patience", *c]), wall(PATIENCE + c, runs), wall(PATIENCE + c, runs, sock))
                for c in SOLVES]
    finally:
        subprocess.run(PATIENCE + ["server", "stop"], cwd=ROOT, env=env, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rows = [(" ".join(["patience", *c]), wall(PATIENCE + c, args.runs, check=False))
            for c in (["--help"], ["solve", "--bogus"])]
    served = with_server(args.runs)
    stages = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", STAGES], cwd=ROOT, capture_output=True, text=True).stdout.split()
        stages.append([float(x) for x in out[:5]])  # (always in process: no server is consulted)
    med = [statistics.median(s[i] for s in stages) for i in range(5)]
    lines = [
        "# Start-up of the command (issue 12)", "",
        f"Command: `python benchmarks/bench_startup.py --runs {args.runs}" + (f" {' '.join(project_args(['--out', args.out]))}`" if args.out else "`"),
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} shared vCPUs; "
        f"date {date.today().isoformat()}. Medians of {args.runs} fresh processes, numba's cache warm.", "",
        "| command | median wall |", "|---|---|",
        *[f"| `{name}` | {t:.3f} s |" for name, t in rows], "",
        "| one deal | in its own process | through the resident solver |", "|---|---|---|",
        *[f"| `{name}` | {a:.3f} s | {b:.3f} s |" for name, a, b in served], "",
        "Stages of one warm `solve klondike 1` inside one process:", "",
        "| stage | median |", "|---|---|",
        f"| Python, the CLI module (no numba) | {med[0]:.3f} s |",
        f"| `import numba` | {med[1]:.3f} s |",
        f"| the Klondike kernel from numba's cache (warm-up) | {med[2]:.3f} s |",
        f"| of which numba's target context set-up (`BaseContext.refresh`, once per process) | {med[3]:.3f} s |",
        f"| the solve (search, loop cutting, replay) | {med[4]:.3f} s |",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        write_report(Path(args.out), text, "benchmarks/bench_startup.py")


if __name__ == "__main__":
    main()
