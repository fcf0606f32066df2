"""Windmill: the exact pushdown solver (research/windmill/pushdown.py) on real deals.

    python benchmarks/studies/bench_windmill_pushdown.py --unknown-of results/windmill-pysolfc-playouts-bench.md \\
        --cap 60 --max-states 30000000 --out results/windmill-pushdown.md \\
        --rows results/runs/windmill-pushdown-pysolfc-cap60.jsonl

Each deal is decided in a fresh child process (so its peak resident memory is its own)
with a time cap and a cap on stored controls; one JSON row per deal goes to ``--rows``
(verdict, reason, seconds, nodes, stored, summary entries and exits, peak RSS, entries
and foundation classes per stock index) and a Markdown summary to ``--out``.  Seeds are
``--seeds`` (a spec) or the unknown seeds listed in a bench_game.py report.  Run by hand;
timings are noisy on a shared machine, node and state counts are not.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # research/ (run as a script)


def one(seed: int, rules: str, cap: float, max_states: int) -> dict:
    from solver.games.windmill.deals import windmill_deal
    from solver.games.windmill.position import WindmillRules
    from research.windmill.pushdown import PushdownLimits, decide

    r = decide(windmill_deal(seed), WindmillRules(rules), PushdownLimits(timeout=cap, max_states=max_states))
    st = r.stats
    return {"seed": seed, "rules": rules, "verdict": r.verdict, "reason": r.reason, "proof": r.proof,
            "seconds": round(r.seconds, 2), "nodes": r.nodes, "stored": r.stored, "entries": st["entries"],
            "exits": st["exits"], "top_nodes": st["top_nodes"], "foundation_classes": st["foundation_classes"],
            "moves": len(r.line), "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "lowest_i_done": min(st["entries_per_i"], default=None),
            "entries_per_i": st["entries_per_i"], "foundation_classes_per_i": st["foundation_classes_per_i"]}


def unknown_seeds(report: Path) -> list[int]:
    for line in report.read_text().splitlines():
        if line.startswith("| unknown seeds |"):
            return [int(x) for x in re.findall(r"\d+", line.split("|")[2])]
    raise SystemExit(f"{report}: no 'unknown seeds' row")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--seeds")
    ap.add_argument("--unknown-of", type=Path)
    ap.add_argument("--limit", type=int, help="only the first N seeds")
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--max-states", type=int, default=30_000_000)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--rows", type=Path)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.rules, args.cap, args.max_states)))
        return
    if args.seeds:
        from solver.core.seeds import parse_seeds
        seeds = list(parse_seeds(args.seeds))
    elif args.unknown_of:
        seeds = unknown_seeds(args.unknown_of)
    else:
        raise SystemExit("give --seeds or --unknown-of")
    seeds = seeds[:args.limit] if args.limit else seeds
    rows = []
    rows_out = args.rows.open("w") if args.rows else None
    for seed in seeds:
        cmd = [sys.executable, __file__, "--one", str(seed), "--rules", args.rules, "--cap", str(args.cap),
               "--max-states", str(args.max_states)]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            row = {"seed": seed, "rules": args.rules, "verdict": "error", "reason": done.stderr.strip()[-300:],
                   "seconds": round(time.perf_counter() - t0, 2)}
        else:
            row = json.loads(done.stdout)
        rows.append(row)
        if rows_out:
            rows_out.write(json.dumps(row) + "\n")
            rows_out.flush()
        print(seed, row["verdict"], row.get("reason"), row["seconds"], row.get("stored"), row.get("peak_rss_mb"),
              row.get("lowest_i_done"), flush=True)
    if args.out:
        args.out.write_text(report(args, seeds, rows))


def report(args, seeds, rows) -> str:
    cmd = "python " + " ".join(["benchmarks/studies/bench_windmill_pushdown.py"] + sys.argv[1:])
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "unknown", "error")}
    reasons = {}
    for r in rows:
        if r["verdict"] == "unknown":
            reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    ok = [r for r in rows if r["verdict"] != "error"]

    def med(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else 0

    lines = [
        f"# Windmill ({args.rules}): the exact pushdown solver on real deals",
        "",
        f"Command: `{cmd}`  ",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, 2 shared vCPUs, pure Python "
        f"(timings noisy; node and state counts are deterministic).  ",
        f"Date: {time.strftime('%Y-%m-%d')}",
        "",
        "| measure | value |",
        "|---|---|",
        f"| deals | {len(rows)} |",
        f"| won / lost / unknown / error | {count['won']} / {count['lost']} / {count['unknown']} / {count['error']} |",
        f"| unknown by reason | {', '.join(f'{k}: {v}' for k, v in sorted(reasons.items())) or '-'} |",
        f"| cap per deal | {args.cap:g} s, {args.max_states:,} stored controls |",
        f"| nodes (controls expanded) per deal: median / max | {med([r['nodes'] for r in ok]):,} / "
        f"{max([r['nodes'] for r in ok], default=0):,} |",
        f"| stored (summary entries + exits + top-level nodes): median / max | {med([r['stored'] for r in ok]):,} / "
        f"{max([r['stored'] for r in ok], default=0):,} |",
        f"| summary entries / exits per deal: median | {med([r['entries'] for r in ok]):,} / "
        f"{med([r['exits'] for r in ok]):,} |",
        f"| peak RSS per deal (child process): median / max | {med([r['peak_rss_mb'] for r in ok]):,} / "
        f"{max([r['peak_rss_mb'] for r in ok], default=0):,} MB |",
        f"| lowest stock index whose frames all completed (unknown deals): median / min | "
        f"{med([r['lowest_i_done'] for r in ok if r['verdict'] == 'unknown' and r['lowest_i_done'] is not None])} / "
        f"{min([r['lowest_i_done'] for r in ok if r['verdict'] == 'unknown' and r['lowest_i_done'] is not None], default='-')} |",
        "",
        "| seed | verdict | reason | seconds | nodes | stored | entries | exits | foundation classes | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["verdict"] == "error":
            lines.append(f"| {r['seed']} | error | {r['reason'][:60]} | {r['seconds']} | | | | | | |")
            continue
        lines.append(f"| {r['seed']} | {r['verdict']} | {r['reason'] or r['proof'] or ''} | {r['seconds']} | "
                     f"{r['nodes']:,} | {r['stored']:,} | {r['entries']:,} | {r['exits']:,} | "
                     f"{r['foundation_classes']:,} | {r['peak_rss_mb']:,} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
