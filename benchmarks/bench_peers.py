"""Ours vs lonelybot on the same Klondike deals, one process at a time, interleaved per seed.

    # run (resumes: a (solver, seed) already in OUT is not run again)
    PATIENCE_SERVER=off nice -n 10 python benchmarks/bench_peers.py run --draw 3 --seeds 1-200 \\
        --cap 20 --lonecli PEERS/lonelybot/target/release/lonecli --out results/runs/klondike-peers-d3.csv
    # ours in one process (CPU by process_time, no start-up), lonelybot's process before each seed
    PATIENCE_SERVER=off nice -n 10 python benchmarks/bench_peers.py inproc --draw 3 --seeds 1-200 \\
        --cap 20 --lonecli PEERS/lonelybot/target/release/lonecli --out results/runs/klondike-peers-inproc-d3.csv
    # the fixed cost of our process: a trivial deal (draw 3 seed 2, 66 nodes) solved N times
    PATIENCE_SERVER=off python benchmarks/bench_peers.py fixed --repeat 20 --out results/runs/klondike-peers-fixed.csv
    # lonelybot's final visit counts for rows whose parser kept its first progress line
    python benchmarks/bench_peers.py revisit results/runs/klondike-peers-*d[13].csv --lonecli PEERS/lonelybot/target/release/lonecli
    # Markdown tables from the rows
    python benchmarks/bench_peers.py report results/runs/klondike-peers-d3.csv results/runs/klondike-peers-d1.csv \\
        --fixed results/runs/klondike-peers-fixed.csv

Why interleaved: the machine is shared, so load changes over minutes; running ours and
lonelybot on the same seed back to back (which one goes first alternates with the seed)
puts both under the same load.  Each run is a fresh process; wall, user and sys CPU and peak RSS are
wait4's (microsecond CPU, where /usr/bin/time rounds to 10 ms).  Ours is this checkout's CLI (``python -m solver solve
klondike SEED --numbering solvitaire --draw D --timeout CAP --json --line fast``; the
line is not shortened, since the target is search time); lonelybot is ``lonecli solve
solvitaire SEED D`` under ``timeout -s INT CAP`` (its first SIGINT ends the search as
Terminated), as the peers' harness does (results/klondike-peers.md).  Warm our JIT cache before a run (the
first solve after an install compiles for 10-20 s).  Figures belong to the run that made
the rows; this script only measures and summarises.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # inproc imports this checkout's solver, not an installed one
FIELDS = ["exp", "solver", "seed", "order", "verdict", "raw", "wall_s", "user_s", "sys_s", "maxrss_kb",
          "nodes", "solver_s", "rc", "started_utc", "load1"]


def ours_cmd(seed: int, draw: int, cap: float) -> list[str]:
    return [sys.executable, "-m", "solver", "solve", "klondike", str(seed), "--numbering", "solvitaire",
            "--draw", str(draw), "--timeout", str(cap), "--json", "--line", "fast"]


def lonely_cmd(lonecli: str, seed: int, draw: int, cap: float) -> list[str]:
    return ["timeout", "-s", "INT", "-k", "5", str(cap), lonecli, "solve", "solvitaire", str(seed), str(draw)]


def parse_ours(out: str) -> tuple[str, int | None, float | None, str]:
    j = json.loads(out.strip().splitlines()[-1])
    v = j["verdict"] if j["verdict"] in ("won", "lost") else "unknown"
    return v, j.get("nodes"), j.get("seconds"), j["verdict"] + (":" + str(j["reason"]) if j.get("reason") else "")


def parse_lonely(out: str) -> tuple[str, int | None, float | None, str]:
    v = "won" if "Solvable in" in out else "lost" if "Impossible" in out else "unknown"
    m = re.findall(r"Total visit: (\d+)", out)  # progress lines every second, then the final count
    n = int(m[-1]) if m else None
    m = re.search(r"Run in ([\d.]+) ms", out)
    s = float(m.group(1)) / 1000 if m else None
    raw = "Terminated" if "Terminated" in out else "Crashed" if "Crashed" in out else v
    return v, n, s, raw


def timed(cmd: list[str], cap: float) -> tuple[str, list[str], int]:
    """Run ``cmd`` (under a ``timeout`` of twice the cap); its output, [wall, user, sys,
    maxrss_kb], exit code.  CPU and peak RSS come from wait4's rusage (microseconds; the
    process and the children it waited for, as /usr/bin/time reports them, but without its
    10 ms rounding, which turns most lonelybot runs into 0.00 s)."""
    full = ["timeout", "-k", "5", str(cap * 2 + 10)] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                         env={**os.environ, "PATIENCE_SERVER": "off"})
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    return out, [f"{wall:.4f}", f"{ru.ru_utime:.6f}", f"{ru.ru_stime:.6f}", str(ru.ru_maxrss)], p.returncode


def one(exp: str, solver: str, seed: int, order: int, cmd: list[str], parse, cap: float) -> dict:
    started = time.strftime("%H:%M:%S", time.gmtime())
    load1 = os.getloadavg()[0]
    out, t, rc = timed(cmd, cap)
    try:
        v, n, s, raw = parse(out)
    except Exception:  # a crash or no output: unknown, with the tail of what it printed
        v, n, s, raw = "unknown", None, None, "parse-error:" + out[-200:].replace("\n", " ")
    return dict(exp=exp, solver=solver, seed=seed, order=order, verdict=v, raw=raw, wall_s=t[0], user_s=t[1],
                sys_s=t[2], maxrss_kb=t[3], nodes=n, solver_s=s, rc=rc, started_utc=started, load1=f"{load1:.2f}")


def seeds_of(spec: str) -> list[int]:
    a, _, b = spec.partition("-")
    return list(range(int(a), int(b or a) + 1))


def writer(path: str):
    new = not os.path.exists(path)
    fh = open(path, "a", newline="")
    w = csv.DictWriter(fh, fieldnames=FIELDS)
    if new:
        w.writeheader()
    return fh, w


def run(a: argparse.Namespace) -> None:
    exp = f"k{a.draw}"
    done = set()
    if os.path.exists(a.out):
        done = {(r["solver"], int(r["seed"])) for r in csv.DictReader(open(a.out))}
    fh, w = writer(a.out)
    for seed in seeds_of(a.seeds):
        jobs = [("ours", ours_cmd(seed, a.draw, a.cap), parse_ours),
                ("lonelybot", lonely_cmd(a.lonecli, seed, a.draw, a.cap), parse_lonely)]
        if seed % 2 == 0:
            jobs.reverse()
        for order, (solver, cmd, parse) in enumerate(jobs):
            if (solver, seed) in done:
                continue
            w.writerow(one(exp, solver, seed, order, cmd, parse, a.cap))
            fh.flush()


def inproc(a: argparse.Namespace) -> None:
    """Ours in this one process (``solver.solve`` as the CLI calls it, CPU by
    ``time.process_time``: no start-up, no JIT cache load), each seed right after
    lonelybot's process on it; rows also carry our stored positions."""
    import solver  # this checkout's (ROOT is first on sys.path)
    exp = f"k{a.draw}"
    solver.solve("klondike", 2, numbering="solvitaire", draw=a.draw, max_nodes=1000, tt_mb=64)  # JIT load
    done = set()
    if os.path.exists(a.out):
        done = {(r["solver"], int(r["seed"])) for r in csv.DictReader(open(a.out))}
    fh, w = writer(a.out)
    for seed in seeds_of(a.seeds):
        if ("lonelybot", seed) not in done:
            w.writerow(one(exp, "lonelybot", seed, 0, lonely_cmd(a.lonecli, seed, a.draw, a.cap), parse_lonely,
                           a.cap))
        if ("ours-inproc", seed) not in done:
            started, load1 = time.strftime("%H:%M:%S", time.gmtime()), os.getloadavg()[0]
            w0, c0 = time.perf_counter(), time.process_time()
            r = solver.solve("klondike", seed, numbering="solvitaire", draw=a.draw, timeout=a.cap, line="fast")
            c, wall = time.process_time() - c0, time.perf_counter() - w0
            v = r.verdict if r.verdict in ("won", "lost") else "unknown"
            w.writerow(dict(exp=exp, solver="ours-inproc", seed=seed, order=1, verdict=v,
                            raw=f"{r.verdict}:{r.reason or ''}:stored={r.stored_states}", wall_s=f"{wall:.4f}",
                            user_s=f"{c:.6f}", sys_s="0", maxrss_kb=0, nodes=r.nodes, solver_s=r.seconds, rc=0,
                            started_utc=started, load1=f"{load1:.2f}"))
        fh.flush()


def revisit(a: argparse.Namespace) -> None:
    """Rows made before the parser took lonelybot's last "Total visit" (it prints one every
    second, then the final one) hold the first: solve those deals again (its search is
    deterministic) and write the final count; a Terminated row's count depends on the
    time it got, so it is blanked."""
    for path in a.csv:
        rows = list(csv.DictReader(open(path)))
        for r in rows:
            if r["solver"] != "lonelybot" or float(r["solver_s"] or 0) < a.min_seconds:
                continue
            if r["verdict"] == "unknown":
                r["nodes"] = ""
                continue
            out = subprocess.run([a.lonecli, "solve", "solvitaire", r["seed"], r["exp"][1]], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True).stdout
            v, n, _, _ = parse_lonely(out)
            assert v == r["verdict"], (path, r["seed"], v, r["verdict"])
            r["nodes"] = n
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows)


def fixed(a: argparse.Namespace) -> None:
    fh, w = writer(a.out)
    for i in range(a.repeat):
        w.writerow(one("k3", "ours-trivial", 2, i, ours_cmd(2, 3, 20), parse_ours, 20))
        fh.flush()


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def report(a: argparse.Namespace) -> None:
    rows = [r for p in a.csv for r in csv.DictReader(open(p))]
    by: dict = defaultdict(dict)
    for r in rows:
        by[(r["exp"], r["solver"])][int(r["seed"])] = r
    cpu = lambda r: float(r["user_s"]) + float(r["sys_s"])  # noqa: E731
    fixed_cpu = None
    if a.fixed:
        fr = list(csv.DictReader(open(a.fixed)))
        fixed_cpu = median([cpu(r) for r in fr])
        print(f"Fixed cost of our process (draw 3 seed 2, {fr[0]['nodes']} nodes, {len(fr)} runs): "
              f"median CPU {fixed_cpu:.3f} s, median wall {median([float(r['wall_s']) for r in fr]):.3f} s, "
              f"median peak RSS {median([int(r['maxrss_kb']) for r in fr]) / 1024:.0f} MiB, "
              f"median search {median([float(r['solver_s']) for r in fr]) * 1000:.1f} ms.\n")
    for exp in ("k3", "k1"):
        oname = "ours" if (exp, "ours") in by else "ours-inproc"  # an inproc file: CPU by process_time
        ours, lone = by.get((exp, oname), {}), by.get((exp, "lonelybot"), {})
        if not ours and not lone:
            continue
        print(f"### Klondike draw {exp[1]}\n")
        print("| solver | deals | won | lost | unknown | CPU total s | CPU median s | wall total s | "
              "solver s total | peak RSS MiB | median RSS MiB |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for name, d in ((oname, ours), ("lonelybot", lone)):
            v = defaultdict(int)
            for r in d.values():
                v[r["verdict"]] += 1
            c = [cpu(r) for r in d.values()]
            rss = [int(r["maxrss_kb"]) / 1024 for r in d.values()]
            print(f"| {name} | {len(d)} | {v['won']} | {v['lost']} | {v['unknown']} | {sum(c):.1f} | "
                  f"{median(c):.3f} | {sum(float(r['wall_s']) for r in d.values()):.1f} | "
                  f"{sum(float(r['solver_s'] or 0) for r in d.values()):.1f} | {max(rss):.0f} | {median(rss):.0f} |")
        print()
        for name, d in ((oname, ours), ("lonelybot", lone)):
            print(f"Unknown, {name}: {sorted(k for k, r in d.items() if r['verdict'] == 'unknown') or 'none'}.")
        both = sorted(k for k in ours if k in lone and ours[k]["verdict"] != "unknown"
                      and lone[k]["verdict"] != "unknown")
        differ = [k for k in both if ours[k]["verdict"] != lone[k]["verdict"]]
        print(f"Agreement: {len(both) - len(differ)}/{len(both)} decided by both"
              + (f"; DIFFER on {[(k, ours[k]['verdict'], lone[k]['verdict']) for k in differ]}" if differ else "")
              + ".")
        only_ours = [k for k in ours if ours[k]["verdict"] != "unknown" and lone.get(k, {}).get("verdict") == "unknown"]
        only_lone = [k for k in lone if lone[k]["verdict"] != "unknown" and ours.get(k, {}).get("verdict") == "unknown"]
        print(f"Decided only by ours: {sorted(only_ours) or 'none'}; only by lonelybot: "
              + (", ".join(f"{k} ({lone[k]['verdict']}, {float(lone[k]['solver_s']):.2f} s)" for k in sorted(only_lone))
                 or "none") + ".\n")
        if not both:
            continue
        # like with like: process CPU against process CPU (wait4, microseconds), reported
        # search time against reported search time (both solvers time their search with a
        # wall clock); per-deal ratios floor lonelybot's time at 1 ms (many deals take µs)
        lo_cpu = {k: cpu(lone[k]) for k in both}
        lo_s = {k: float(lone[k]["solver_s"]) for k in both}
        measures = [("process CPU (user+sys)", {k: cpu(ours[k]) for k in both}, lo_cpu)]
        if fixed_cpu is not None:
            measures.append((f"process CPU, ours less the fixed {fixed_cpu:.2f} s", {
                k: max(cpu(ours[k]) - fixed_cpu, 0.0) for k in both}, lo_cpu))
        measures.append(("reported search time (wall clock)", {k: float(ours[k]["solver_s"]) for k in both}, lo_s))
        print(f"Ours / lonelybot on the {len(both)} deals both decided:\n")
        print("| measure | ours total s | lonelybot total s | ratio of totals | median per-deal ratio |")
        print("|---|---|---|---|---|")
        for label, m, lo in measures:
            print(f"| {label} | {sum(m.values()):.2f} | {sum(lo.values()):.2f} | "
                  f"**{sum(m.values()) / sum(lo.values()):.1f}** | "
                  f"{median([m[k] / max(lo[k], 1e-3) for k in both]):.1f} |")
        print()
        if oname == "ours-inproc":
            stored = {k: int(ours[k]["raw"].rpartition("stored=")[2]) for k in ours}
            big = [k for k in ours if cpu(ours[k]) >= 1.0]
            print(f"Nodes per CPU second, ours in one process: {sum(int(ours[k]['nodes']) for k in ours) / sum(cpu(r) for r in ours.values()) / 1e6:.2f} M/s "
                  f"over all {len(ours)} deals, {sum(int(ours[k]['nodes']) for k in big) / max(sum(cpu(ours[k]) for k in big), 1e-9) / 1e6:.2f} M/s "
                  f"on the {len(big)} deals of ≥ 1 s CPU; positions stored: {sum(stored.values()):,} in all, "
                  f"largest {max(stored.values()):,} (seed {max(stored, key=stored.get)}).")
            top = sorted(stored, key=stored.get, reverse=True)[:8]
            print("Largest: " + ", ".join(f"seed {k} {ours[k]['verdict']} {int(ours[k]['nodes']):,} nodes / "
                                           f"{stored[k]:,} stored / {cpu(ours[k]):.2f} s" for k in top) + ".")
        if fixed_cpu is not None:
            big = [k for k in ours if ours[k]["nodes"] and cpu(ours[k]) - fixed_cpu >= 1.0]
            nb = sum(int(ours[k]["nodes"]) for k in big)
            cb = sum(cpu(ours[k]) - fixed_cpu for k in big)
            lbig = [k for k in lone if lone[k]["nodes"] and cpu(lone[k]) >= 1.0]
            print(f"Nodes per CPU second: ours {nb / cb / 1e6 if cb else 0:.2f} M/s on the {len(big)} deals whose "
                  f"process CPU less the fixed cost is ≥ 1 s ({nb:,} nodes, {cb:.1f} s); lonelybot "
                  f"{sum(int(lone[k]['nodes']) for k in lbig) / max(sum(cpu(lone[k]) for k in lbig), 1e-9) / 1e6:.2f} "
                  f"M visits/s on its {len(lbig)} deals of ≥ 1 s CPU.")
        nodes = sum(int(ours[k]["nodes"]) for k in ours if ours[k]["nodes"])
        secs = sum(float(ours[k]["solver_s"]) for k in ours if ours[k]["nodes"])
        big = [k for k in ours if float(ours[k]["solver_s"] or 0) >= 1.0]
        nb = sum(int(ours[k]["nodes"]) for k in big)
        sb = sum(float(ours[k]["solver_s"]) for k in big)
        timed = [k for k in lone if lone[k]["nodes"] and lone[k]["solver_s"]]  # a Terminated row may lack its time
        ln = sum(int(lone[k]["nodes"]) for k in timed)
        ls = sum(float(lone[k]["solver_s"]) for k in timed)
        print(f"Nodes per second (reported search time, wall clock): ours {nodes / secs / 1e6:.2f} M/s over "
              f"all {len(ours)} deals ({nodes:,} nodes, {secs:.1f} s), {nb / sb / 1e6 if sb else 0:.2f} M/s "
              f"over the {len(big)} deals searching ≥ 1 s; lonelybot {ln / ls / 1e6:.2f} M/s "
              f"({ln:,} visits, {ls:.1f} s; its 'visits' are not our nodes).\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "inproc"):  # the same options: where each solver runs is what differs
        r = sub.add_parser(name)
        r.add_argument("--draw", type=int, choices=(1, 3), required=True)
        r.add_argument("--seeds", default="1-200")
        r.add_argument("--cap", type=float, default=20)
        r.add_argument("--lonecli", required=True)
        r.add_argument("--out", required=True)
    v = sub.add_parser("revisit")
    v.add_argument("csv", nargs="+")
    v.add_argument("--lonecli", required=True)
    v.add_argument("--min-seconds", type=float, default=0.5)
    f = sub.add_parser("fixed")
    f.add_argument("--repeat", type=int, default=20)
    f.add_argument("--out", required=True)
    p = sub.add_parser("report")
    p.add_argument("csv", nargs="+")
    p.add_argument("--fixed")
    a = ap.parse_args()
    {"run": run, "inproc": inproc, "revisit": revisit, "fixed": fixed, "report": report}[a.cmd](a)


if __name__ == "__main__":
    main()
