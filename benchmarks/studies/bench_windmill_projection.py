"""Windmill: rank projections (research/windmill/projection.py) on real deals.

    python -m benchmarks.studies.bench_windmill_projection \\
        --rows-of results/runs/windmill-pysolfc-pysolfc-cap60-playouts-twin.jsonl --verdict unknown \\
        --keep 1,13 --keep 1,7,13 --cap 10 --rows results/runs/windmill-projections-pysolfc-unknown.jsonl

Seeds are ``--seeds`` (comma separated) or the seeds of a solve-rows file whose verdict
is ``--verdict`` (``--limit`` keeps the first N).  Each projection (``--keep``: ranks
kept, the Ace first) of each deal is decided by the pushdown solver in a fresh child
process (its peak resident memory is its own) with a time cap ``--cap`` and a cap on
stored controls; one JSON row per deal and projection goes to ``--rows`` and a summary
line per projection is printed.  A lost projection proves the deal lost.  Run by hand;
timings are noisy on a shared machine, node and state counts are not.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path


def one(seed: int, rules: str, keep: tuple[int, ...], cap: float, max_states: int) -> dict:
    from research.windmill import projection as P
    from solver.games.windmill.deals import windmill_deal
    from solver.games.windmill.position import WindmillRules
    from research.windmill.pushdown import PushdownLimits

    proj = P.Projection(keep, "pysolfc" if 13 not in keep else rules)
    r = P.decide(windmill_deal(seed), WindmillRules(rules), proj, PushdownLimits(timeout=cap, max_states=max_states))
    return {"seed": seed, "rules": rules, "keep": list(keep), "projection_rules": proj.preset,
            "verdict": r.verdict, "reason": r.reason, "proof": P.PROOF if r.verdict == "lost" else None,
            "seconds": round(r.seconds, 2), "nodes": r.nodes, "stored": r.stored,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def seeds_of(rows: Path, verdict: str) -> list[int]:
    return [r["seed"] for r in map(json.loads, rows.read_text().splitlines()) if r["verdict"] == verdict]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--seeds")
    ap.add_argument("--rows-of", type=Path)
    ap.add_argument("--verdict", default="unknown")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--keep", action="append", required=True, help="ranks kept, e.g. 1,7,13 (repeatable)")
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--max-states", type=int, default=20_000_000)
    ap.add_argument("--rows", type=Path)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    keeps = [tuple(int(x) for x in k.split(",")) for k in a.keep]
    if a.one:
        seed, k = a.one.split(":")
        print(json.dumps(one(int(seed), a.rules, keeps[int(k)], a.cap, a.max_states)))
        return
    seeds = [int(s) for s in a.seeds.split(",")] if a.seeds else seeds_of(a.rows_of, a.verdict)
    seeds = seeds[:a.limit] if a.limit else seeds
    out = a.rows.open("w") if a.rows else None
    tally: dict = {}
    for seed in seeds:
        for k, keep in enumerate(keeps):
            cmd = [sys.executable, "-m", "benchmarks.studies.bench_windmill_projection", "--one", f"{seed}:{k}", "--rules", a.rules, "--cap", str(a.cap),
                   "--max-states", str(a.max_states)] + [x for kk in a.keep for x in ("--keep", kk)]
            row = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True,
                                            cwd=Path(__file__).resolve().parents[2]).stdout)
            print(json.dumps(row), flush=True)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            tally.setdefault(keep, {}).setdefault(row["verdict"], 0)
            tally[keep][row["verdict"]] += 1
    for keep, t in tally.items():
        print(f"keep {','.join(map(str, keep))}: {t}")


if __name__ == "__main__":
    main()
