"""The Windmill deals still unknown after the 60 s runs: how far each got and how big its search was.

    python benchmarks/windmill_unknowns.py --out results/windmill-unknowns.md

Reads the committed rows of the three 1..1000 runs with the playout twin (the last row of
a seed counts, as bench_game.py reads them) and prints Markdown: per preset the unknown
deals' best progress (the most cards the search had on the foundations, of 104) and their
search sizes (nodes made, positions stored, peak memory at the 60 s cap); then every unknown
seed, as the report's generated part (notes outside it are kept, bench_report.py).  Best progress says how close a deal came; the stored counts say why it resists: an
exact search that stores tens of millions of positions a minute and has not closed cannot
be finished by a longer cap on this machine (issue 22).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_game import load  # noqa: E402
from bench_report import ROOT, write_report  # noqa: E402

RUNS = {
    "pysolfc": "windmill-pysolfc-pysolfc-cap60-beam-twin.jsonl",
    "strict": "windmill-strict-pysolfc-cap60-beam-twin.jsonl",
    "welford": "windmill-welford-pysolfc-cap60-playouts-twin.jsonl",
}


def spread(values: list[float]) -> str:
    return f"{min(values):,.0f} / {statistics.median(values):,.0f} / {max(values):,.0f}" if values else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "windmill-unknowns.md")
    args = ap.parse_args()
    out = ["# Windmill: the deals still unknown at 60 s (issue 22)", "",
           "Command: `python benchmarks/windmill_unknowns.py --out results/windmill-unknowns.md` (from the committed "
           "rows in `results/runs/`, the last row of each seed).", "",
           "| preset | rows | won / lost / unknown | unknown: best progress min / median / max (of 104) "
           "| unknown: nodes min / median / max (M) | stored min / median / max (M) | peak MB median |",
           "|---|---|---|---|---|---|---|"]
    seeds_of: dict[str, list[dict]] = {}
    reasons: Counter = Counter()
    for preset, name in RUNS.items():
        rows = load(ROOT / "results" / "runs" / name)
        verdicts = [r["verdict"] for r in rows.values()]
        unknown = sorted((r for r in rows.values() if r["verdict"] == "unknown"), key=lambda r: r["seed"])
        seeds_of[preset] = unknown
        best = [r["best_progress"]["cards"] for r in unknown if r.get("best_progress")]
        out.append(f"| {preset} | {len(rows)} | {verdicts.count('won')} / {verdicts.count('lost')} / {len(unknown)} "
                   f"| {spread(best)} | {spread([r['nodes'] / 1e6 for r in unknown])} "
                   f"| {spread([r['stored'] / 1e6 for r in unknown])} "
                   f"| {int(statistics.median([r['peak_mb'] for r in unknown])) if unknown else 0:,} |")
        reasons.update(r["reason"] for r in unknown)
    out += ["", "Why the unknowns stopped: " + ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items())) + ".", ""]
    for preset, unknown in seeds_of.items():
        out += [f"## {preset}: {len(unknown)} unknown", "",
                "| seed | best progress | nodes (M) | stored (M) | seconds |", "|---|---|---|---|---|"]
        for r in unknown:
            bp = r.get("best_progress") or {}
            out.append(f"| {r['seed']} | {bp.get('cards', '-')} | {r['nodes'] / 1e6:.1f} | {r['stored'] / 1e6:.1f} "
                       f"| {r['seconds']:.0f} |")
        out.append("")
    write_report(args.out, "\n".join(out), "benchmarks/windmill_unknowns.py")


if __name__ == "__main__":
    main()
