"""Batch throughput benchmark (run by hand; never a timed test).

1. Throughput of the real command, ``patience batch klondike --seeds 1-N`` with a node
   cap (deterministic work), with 1 and 2 workers, as processes and as threads: wall
   clock of the whole command (interpreter start, kernel load from the cache, pool
   start, solving, storing every deal), each on a fresh database, best of ``--repeat``.
2. Overhead per deal of the batch machinery against ``solver.solve`` in a loop, in one
   warm process, on deals made cheap by a small node cap so that the overhead is not
   lost in the noise: the batch with 1 worker (threads; processes), with and without
   the database.

Writes a Markdown report (default results/batch-throughput.md) with the command that
made it: its generated part only; notes outside it, and ``--note``, are kept (bench_report.py).

    python benchmarks/bench_batch.py --seeds 1-1000 --max-nodes 100000
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import ROOT, project_args, without_paths, write_report  # noqa: E402

sys.path.insert(0, str(ROOT))

import numba  # noqa: E402

import solver  # noqa: E402
from solver.runs.batch import Batch  # noqa: E402
from solver.runs.executors import ensure_warm  # noqa: E402
from solver.core.seeds import parse_seeds  # noqa: E402


def run_command(seeds: str, max_nodes: int, tt_mb: float, workers: int, mode: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        cmd = [sys.executable, "-m", "solver", "batch", "klondike", "--seeds", seeds, "--max-nodes",
               str(max_nodes), "--tt-mb", str(tt_mb), "--workers", str(workers), "--mode", mode, "--db", str(db),
               "--no-progress"]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        seconds = time.perf_counter() - t0
        if r.returncode != 0:
            raise SystemExit(f"batch failed: {r.stderr}")
        counts = next(line for line in r.stdout.splitlines() if line.startswith("won "))
        return seconds, counts


def startup(tt_mb: float, mode: str) -> float:
    """Wall clock of a batch of one trivial deal: the fixed cost of the command."""
    return run_command("1", 1, tt_mb, 1, mode)[0]


def busy_processes() -> str:
    """Other processes using CPU now (the figures are only as good as the machine is idle)."""
    try:
        out = subprocess.run(["ps", "-eo", "pcpu,args", "--sort=-pcpu"], capture_output=True, text=True).stdout
    except OSError:
        return "unknown"
    rows = [line.strip() for line in out.splitlines()[1:6] if line.strip()]
    rows = [without_paths(r) for r in rows if float(r.split()[0]) >= 10 and "bench_batch" not in r]
    return "; ".join(r[:90] for r in rows) or "none"


def loop(seeds: list[int], max_nodes: int, tt_mb: float) -> float:
    t0 = time.perf_counter()
    for s in seeds:
        solver.solve("klondike", s, max_nodes=max_nodes, tt_mb=tt_mb)
    return time.perf_counter() - t0


def gil_share(seeds: list[int], max_nodes: int, tt_mb: float) -> tuple[float, float]:
    """(wall seconds, share of it outside the search driver) of solve() in a loop: the
    part that holds the GIL (deal, encoding, replay of won lines), which threads cannot
    overlap."""
    t0 = time.perf_counter()
    inside = 0.0
    for s in seeds:
        inside += solver.solve("klondike", s, max_nodes=max_nodes, tt_mb=tt_mb).seconds
    wall = time.perf_counter() - t0
    return wall, (wall - inside) / wall


def in_process_batch(spec: str, max_nodes: int, tt_mb: float, mode: str, with_db: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "o.sqlite" if with_db else None
        t0 = time.perf_counter()
        n = sum(1 for _ in Batch("klondike", spec, max_nodes=max_nodes, tt_mb=tt_mb, workers=1, mode=mode, db=db))
        seconds = time.perf_counter() - t0
    assert n == len(parse_seeds(spec))
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-1000")
    ap.add_argument("--max-nodes", type=int, default=100_000)
    ap.add_argument("--easy-max-nodes", type=int, default=1000,
                    help="a second, Python-bound workload: the same seeds under this node cap")
    ap.add_argument("--tt-mb", type=float, default=256)
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs per measurement")
    ap.add_argument("--overhead-seeds", default="1-1000")
    ap.add_argument("--overhead-max-nodes", type=int, default=1000)
    ap.add_argument("--out", default=str(ROOT / "results" / "batch-throughput.md"))
    ap.add_argument("--note", default="", help="a paragraph for the report (e.g. why fewer seeds)")
    args = ap.parse_args()
    command = "python benchmarks/bench_batch.py " + shlex.join(project_args(sys.argv[1:]))
    n = len(parse_seeds(args.seeds))
    load_before = os.getloadavg()
    busy = busy_processes()

    # warm the cache once, so that no measured run compiles
    ensure_warm("klondike", 1, "pysolfc", {})

    base = {mode: min(startup(args.tt_mb, mode) for _ in range(args.repeat)) for mode in ("processes", "threads")}
    workloads = {}
    for max_nodes in (args.max_nodes, args.easy_max_nodes):
        rows = []
        counts_seen = set()
        for mode in ("processes", "threads"):
            for workers in (1, 2):
                runs = [run_command(args.seeds, max_nodes, args.tt_mb, workers, mode) for _ in range(args.repeat)]
                best = min(s for s, _ in runs)
                counts_seen.update(c for _, c in runs)
                net = best - base[mode]
                rows.append((mode, workers, best, n / best, net, n / max(net, 1e-9), base[mode]))
                print(f"max_nodes {max_nodes} {mode} x{workers}: {best:.2f} s, {n / best:.1f} deals/s "
                      f"(startup {base[mode]:.2f} s)", file=sys.stderr)
        if len(counts_seen) != 1:
            raise SystemExit(f"verdict counts differ between runs: {counts_seen}")
        workloads[max_nodes] = (rows, counts_seen.pop())

    # overhead per deal
    o_seeds = list(parse_seeds(args.overhead_seeds))
    o_n = len(o_seeds)
    loop(o_seeds[:50], args.overhead_max_nodes, args.tt_mb)  # warm this thread's table and workspace
    over = {}
    for name, fn in [
        ("solver.solve in a loop", lambda: loop(o_seeds, args.overhead_max_nodes, args.tt_mb)),
        ("batch, 1 thread, no database",
         lambda: in_process_batch(args.overhead_seeds, args.overhead_max_nodes, args.tt_mb, "threads", False)),
        ("batch, 1 thread, SQLite", 
         lambda: in_process_batch(args.overhead_seeds, args.overhead_max_nodes, args.tt_mb, "threads", True)),
        ("batch, 1 process, SQLite",
         lambda: in_process_batch(args.overhead_seeds, args.overhead_max_nodes, args.tt_mb, "processes", True)),
    ]:
        times = [fn() for _ in range(max(3, args.repeat))]
        over[name] = (min(times), statistics.median(times))
        print(f"{name}: best {min(times):.3f} s", file=sys.stderr)
    base_loop = over["solver.solve in a loop"][0]
    seeds_list = list(parse_seeds(args.seeds))
    shares = {mn: gil_share(seeds_list, mn, args.tt_mb) for mn in (args.max_nodes, args.easy_max_nodes)}
    load_after = os.getloadavg()

    lines = [
        "# Batch throughput",
        "",
        f"Command: `{command}`  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  ",
        f"Machine: {os.cpu_count()} CPUs ({platform.machine()}), {platform.python_implementation()} "
        f"{platform.python_version()}, numba {numba.__version__}, solver {solver.__version__}  ",
        f"Load average before / after: {load_before[0]:.2f} / {load_after[0]:.2f} (1 min)  ",
        f"Other processes using CPU at the start (%CPU, command): {busy}",
        "",
    ]
    for max_nodes, (rows, counts) in workloads.items():
        lines += [
            f"## `patience batch` over {n} Klondike seeds ({args.seeds}, PySolFC, draw 1), --max-nodes {max_nodes}",
            "",
            f"`--max-nodes {max_nodes} --tt-mb {args.tt_mb:g}`; the whole command, wall clock, fresh database, "
            f"best of {args.repeat}.  Verdicts (identical in every run): {counts}.  "
            "Startup: the same command on one trivial deal (interpreter, imports, kernel from the cache, pool "
            "start), subtracted in the last columns.",
            "",
            "| mode | workers | wall s | deals/s | s without startup | deals/s without startup | startup s |",
            "|---|---|---|---|---|---|---|",
        ]
        for mode, workers, best, rate, net, net_rate, b in rows:
            lines.append(f"| {mode} | {workers} | {best:.2f} | {rate:.1f} | {net:.2f} | {net_rate:.1f} | {b:.2f} |")
        lines.append("")
    lines += [
        "",
        f"## Overhead per deal of the batch machinery ({o_n} seeds {args.overhead_seeds}, "
        f"`max_nodes={args.overhead_max_nodes}`)",
        "",
        "One warm process; each figure the best of at least 3 runs; overhead = (time - loop time) / deals.  "
        "The process pool's start (fork server, worker imports, kernel from the cache) is counted in its "
        "overhead, spread over the deals.",
        "",
        "| how | best s | median s | per deal ms | overhead per deal ms |",
        "|---|---|---|---|---|",
    ]
    for name, (best, med) in over.items():
        lines.append(f"| {name} | {best:.3f} | {med:.3f} | {1000 * best / o_n:.3f} | "
                     f"{1000 * (best - base_loop) / o_n:+.3f} |")
    lines += [
        "",
        f"## Share of the time that holds the GIL ({n} seeds {args.seeds}, one thread)",
        "",
        "`solver.solve` in a loop; outside = wall time minus the search driver's own time (deal, encoding, "
        "replay of won lines in the reference engine), which threads cannot run in parallel.  Amdahl: threads "
        "reach at most 1 / (share + (1 - share) / N) on N cores.",
        "",
        "| max_nodes | wall s | outside the search | ms per deal outside | threads' bound on 2 / 16 cores |",
        "|---|---|---|---|---|",
    ]
    for mn, (wall, share) in shares.items():
        bound = [1 / (share + (1 - share) / cores) for cores in (2, 16)]
        lines.append(f"| {mn} | {wall:.2f} | {100 * share:.0f}% | {1000 * wall * share / n:.2f} | "
                     f"{bound[0]:.2f}x / {bound[1]:.1f}x |")
    lines.append("")
    note = f"## Note\n\n{args.note}" if args.note else ""
    write_report(Path(args.out), "\n".join(lines), "benchmarks/bench_batch.py", note)
    print("\n".join(lines + ([note] if note else [])))


if __name__ == "__main__":
    main()
