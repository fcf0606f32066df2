"""How long a hint takes (run by hand; never a timed test): for each seed, the position
after every K-th move of the solver's own winning line, then ``api.hint`` from there.
Writes a Markdown report with the time of the search inside each hint (the command's
start-up is not included: see issue 12): its generated part only, notes outside it are
kept (bench_report.py).

    python benchmarks/bench_hint.py klondike --seeds 1-30 --every 20 --out results/hint-bench.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from bench_game import report_head
from bench_report import project_args, write_report

import solver
from solver import api
from solver.runs.stats import percentile

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--every", type=int, default=20, help="a hint after every K-th move of the line")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--out", default=str(ROOT / "results" / "hint-bench.md"))
    args = ap.parse_args(argv)
    a, _, b = args.seeds.partition("-")
    seeds = range(int(a), int(b or a) + 1)
    options = {"rules": args.rules} if args.rules else {}
    solver.solve(args.game, seeds[0], max_nodes=1000, tt_mb=64, **options)  # compile or load, untimed
    times, undecided, skipped = [], 0, 0
    for seed in seeds:
        r = solver.solve(args.game, seed, timeout=args.timeout, **options)
        if not r.won:
            skipped += 1
            continue
        for after in range(0, len(r.moves), args.every):
            result, step = api.hint(args.game, seed, r.moves[:after], timeout=args.timeout, **options)
            times.append(result.seconds)
            undecided += step is None
        print(f"seed {seed}: {len(r.moves)} moves", file=sys.stderr, flush=True)
    fast = sum(t <= 0.1 for t in times)
    command = "python benchmarks/bench_hint.py " + " ".join(project_args(sys.argv[1:] if argv is None else argv))
    lines = report_head(f"Hint benchmark: {args.game}" + (f" ({args.rules})" if args.rules else ""), command) + [
        "",
        "Positions: after every K-th move of the solver's own winning line of each won seed (the start "
        "included). Times are the search inside `api.hint` (solve of that position, cleaning and replay of "
        "its line excluded), not the command's start-up.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| seeds (won, so with a line) | {len(seeds) - skipped} of {len(seeds)} |",
        f"| hints | {len(times)} |",
        f"| hints with a winning step / undecided or lost | {len(times) - undecided} / {undecided} |",
        f"| search time: median / p90 / p99 / max | {1000 * statistics.median(times):.1f} / "
        f"{1000 * percentile(times, 90):.1f} / {1000 * percentile(times, 99):.1f} / {1000 * max(times):.1f} ms |",
        f"| hints within 0.1 s | {fast} of {len(times)} ({100 * fast / len(times):.1f}%) |",
        "",
    ]
    write_report(Path(args.out), "\n".join(lines), "benchmarks/bench_hint.py")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
