"""Summarise a side-by-side run of the peer harness as Markdown (the harness and the
peers' build script are kept outside this repository; results/peers-side-by-side.md
records the run, its commands and its CSV).

    python benchmarks/peers_summary.py PEERS_DIR/results/run2.csv [more.csv ...]

Per experiment (k3, k1, bc) and solver: verdict counts, CPU of the whole process
(user + sys, from /usr/bin/time), CPU inside the search (the time the solver reports
itself), the ratio of ours to lonelybot's, and verdict agreement on the seeds both
decided.  Run by hand; the figures belong to the run that made the CSV.
"""

from __future__ import annotations

import csv
import statistics
import sys
from collections import defaultdict


def main(paths: list[str]) -> None:
    rows = [r for p in paths for r in csv.DictReader(open(p))]
    by = defaultdict(dict)
    for r in rows:
        by[(r["exp"], r["solver"])][int(r["seed"])] = r
    out = []
    for exp in ("k3", "k1", "bc"):
        solvers = [s for (e, s) in by if e == exp]
        if not solvers:
            continue
        out += [f"### {exp}", "",
                "| solver | won | lost | unknown | CPU total s | CPU median s | search s total | peak RSS MiB |",
                "|---|---|---|---|---|---|---|---|"]
        search = {}
        for s in sorted(solvers):
            d = by[(exp, s)]
            v = defaultdict(int)
            for r in d.values():
                v[r["verdict"]] += 1
            cpu = [float(r["user_s"]) + float(r["sys_s"]) for r in d.values()]
            search[s] = sum(float(r["solver_s"] or 0) for r in d.values())
            rss = max(int(r["maxrss_kb"]) for r in d.values()) / 1024
            unknown = sorted(k for k, r in d.items() if r["verdict"] == "unknown")
            out.append(f"| {s} ({len(d)} deals) | {v['won']} | {v['lost']} | {v['unknown']} {unknown} | "
                       f"{sum(cpu):.1f} | {statistics.median(cpu):.2f} | {search[s]:.1f} | {rss:.0f} |")
        out.append("")
        if "ours" in search and "lonelybot" in search and search["lonelybot"] > 0:
            out.append(f"Inside the search, ours / lonelybot: {search['ours'] / search['lonelybot']:.1f}x.")
        names = sorted(solvers)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                both = [k for k in by[(exp, a)] if k in by[(exp, b)]
                        and by[(exp, a)][k]["verdict"] != "unknown" and by[(exp, b)][k]["verdict"] != "unknown"]
                differ = [k for k in both if by[(exp, a)][k]["verdict"] != by[(exp, b)][k]["verdict"]]
                out.append(f"Agreement {a}-{b}: {len(both) - len(differ)}/{len(both)} decided by both"
                           + (f"; DIFFER on {differ}" if differ else "") + ".")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
