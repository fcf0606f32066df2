"""Compact tables for results/windmill-symbolic.md from the runs in research/windmill_symbolic/runs/.

python -m research.windmill_symbolic.tables SEED [SEED ...] [--every 4]
Per layer: the diagram's nodes, its positions, the explicit layer's count (kernel keys,
explicit.py) where it fitted, whether they are equal, positions per node.
"""
import argparse
import json
import re
from pathlib import Path

RUNS = Path(__file__).parent / "runs"


def symbolic_rows(seed, order="mask-first", reorder=False, rules="pysolfc"):
    rows = {}
    for line in (RUNS / "layers.jsonl").read_text().splitlines():
        d = json.loads(line)
        if d["seed"] == seed and d["order"] == order and d["reorder"] == reorder and d["rules"] == rules:
            rows[d["t"]] = d  # the last run of this configuration wins
    return rows


def explicit_rows(seed):
    f = RUNS / f"{seed}-explicit.txt"
    out = {}
    if f.exists():
        for line in f.read_text().splitlines():
            m = re.match(r"t=\s*(\d+) explicit=\s*([\d,]+)", line)
            if m:
                out[int(m.group(1))] = int(m.group(2).replace(",", ""))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("--every", type=int, default=4)
    a = ap.parse_args(argv)
    for seed in a.seeds:
        sy, ex = symbolic_rows(seed), explicit_rows(seed)
        both = [t for t in sy if t in ex and sy[t].get("complete", True)]
        eq = all(int(sy[t]["positions"]) == ex[t] for t in both)
        print(f"\nseed {seed}: symbolic layers {min(sy)}..{max(sy)}, explicit layers {min(ex, default=0)}..{max(ex, default=0)}; "
              f"positions equal to the explicit count on all {len(both)} common complete layers: {eq}")
        print("| t | nodes | peak nodes | positions | explicit | positions / node | sweeps | s |")
        print("|---|---|---|---|---|---|---|---|")
        ts = sorted(sy)
        show = [t for t in ts if t % a.every == 0 or t >= ts[-1] - 3 or t == ts[0]]
        for t in show:
            d = sy[t]
            e = f"{ex[t]:,}" if t in ex else "-"
            cut = "" if d.get("complete", True) else " (cut)"
            print(f"| {t} | {d['nodes']:,} | {d['peak_nodes']:,} | {int(d['positions']):,}{cut} | {e} | "
                  f"{d['positions'] / d['nodes']:.3g} | {d['iterations']} | {d['seconds']:.1f} |")


if __name__ == "__main__":
    main()
