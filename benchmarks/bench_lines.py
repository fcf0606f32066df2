"""Winning lines as found vs shortened (solver/core/shorten.py, issue 24), run by hand.

``run``: solve seeds 1, 2, ... of one game (``--line fast``, small caps) until ``--won``
deals are won, and shorten each won line with the default budget (what ``patience
solve`` does with ``--line short``); one CSV row per seed in
results/runs/line-shortener-<label>.csv (resumable: seeds already there are skipped).
``report``: the medians and 90th percentiles of every such file, into the report.

    nice -n 10 python benchmarks/bench_lines.py run klondike --label klondike-draw1-work30k --won 200
    nice -n 10 python benchmarks/bench_lines.py run klondike --draw 3 --label klondike-draw3-work30k --won 200
    python benchmarks/bench_lines.py report --out results/line-shortener.md
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from solver import api
from solver.core.shorten import AUTO, DEFAULT_NODES, MOST_NODES, PER_MOVE, shortened

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import ROOT, project_args, write_report  # noqa: E402

RUNS = ROOT / "results" / "runs"
PEER = RUNS / "line-shortener-klondike-solver-fast.csv"  # written by hand (see the report)
FIELDS = ["seed", "verdict", "solve_seconds", "found", "short", "shorten_seconds", "shorten_nodes",
          "contractions", "shortcuts", "verified", "budget"]
OLD_BUDGET = "2 s or 200,000 nodes"  # rows without a budget: the wall-time shortener before issue 32


def run(args: argparse.Namespace) -> None:
    options = {}
    if args.draw is not None:
        options["draw"] = args.draw
    if args.rules is not None:
        options["rules"] = args.rules
    path = RUNS / f"line-shortener-{args.label}.csv"
    rows = list(csv.DictReader(path.open())) if path.exists() else []
    done = {int(r["seed"]) for r in rows}
    won = sum(r["verdict"] == "won" for r in rows)
    new = not path.exists()
    with path.open("a", newline="") as f:
        out = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        if new:
            out.writeheader()
        seed = 0
        while won < args.won and seed < args.max_seed:
            seed += 1
            if seed in done:
                continue
            r = api.solve(args.game, seed, timeout=args.cap, max_nodes=args.cap_nodes, line="fast", **options)
            row = {"seed": seed, "verdict": r.verdict, "solve_seconds": f"{r.seconds:.3f}"}
            if r.won:
                g, rules, position = api.make_deal(args.game, seed, **options)
                t = time.perf_counter()
                s = shortened(g, position, rules, r.moves, nodes=args.nodes)
                seconds = time.perf_counter() - t
                row.update(found=len(r.moves), short=len(s.moves), shorten_seconds=f"{seconds:.3f}",
                           shorten_nodes=s.nodes, contractions=s.contractions, shortcuts=s.shortcuts,
                           verified=s.verified,
                           budget=(f"{args.nodes} units" if args.nodes != AUTO else
                                   f"default ({DEFAULT_NODES} or {PER_MOVE} a move, at most {MOST_NODES})"))
                won += 1
                print(f"{args.label} {seed}: {len(r.moves)} -> {len(s.moves)} in {seconds:.2f} s", flush=True)
            out.writerow(row)
            f.flush()


def _pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * len(values) + 0.5) - 1))]


def _peers() -> list[str]:
    """Klondike-Solver beside each of our draw-1 runs (the 2 s shortener's, the work budget's)."""
    out = []
    for label in ("klondike-draw1", "klondike-draw1-work30k", f"klondike-draw1-work{DEFAULT_NODES // 1000}k"):
        out += _peer(RUNS / f"line-shortener-{label}.csv")
    return out


def _peer(ours_path: Path) -> list[str]:
    """Klondike-Solver's /FAST lines beside ours, on the draw-1 seeds both won (PEER)."""
    if not PEER.exists() or not ours_path.exists():
        return []
    peer = {int(r["seed"]): int(r["moves"]) for r in csv.DictReader(PEER.open()) if r["result"] == "won"}
    ours = {int(r["seed"]): r for r in csv.DictReader(ours_path.open()) if r["verdict"] == "won"}
    both = sorted(set(peer) & set(ours))
    if not both:
        return []
    found = [int(ours[s]["found"]) for s in both]
    short = [int(ours[s]["short"]) for s in both]
    theirs = [peer[s] for s in both]
    tried = max(int(r["seed"]) for r in csv.DictReader(PEER.open()))
    return ["", f"Klondike-Solver (ShootMe, /FAST, its normalized move count) on draw-1 seeds 1..{tried}, "
            f"against {ours_path.stem.removeprefix('line-shortener-')}: "
            f"{len(peer)} won; on the {len(both)} seeds both won, median moves: theirs {statistics.median(theirs):g}, "
            f"ours as found {statistics.median(found):g}, ours shortened {statistics.median(short):g} "
            f"(p90: {_pct(theirs, 0.9)} / {_pct(found, 0.9)} / {_pct(short, 0.9)}); ours shorter than theirs on "
            f"{sum(a < b for a, b in zip(short, theirs))}, equal on {sum(a == b for a, b in zip(short, theirs))}."]


def report(args: argparse.Namespace) -> None:
    lines = ["| deals (label) | won lines | median found -> short | p90 found -> short | mean saved | "
             "shortening time median / p90 / max | verified | budget |", "|---|---|---|---|---|---|---|---|"]
    for path in sorted(RUNS.glob("line-shortener-*.csv")):
        if path == PEER:
            continue
        rows = [r for r in csv.DictReader(path.open()) if r["verdict"] == "won"]
        if not rows:
            continue
        found = [int(r["found"]) for r in rows]
        short = [int(r["short"]) for r in rows]
        secs = [float(r["shorten_seconds"]) for r in rows]
        label = path.stem.removeprefix("line-shortener-")
        seeds = max(int(r["seed"]) for r in csv.DictReader(path.open()))
        lines.append(f"| {label} (seeds 1..{seeds}) | {len(rows)} | {statistics.median(found):g} -> "
                     f"{statistics.median(short):g} | {_pct(found, 0.9)} -> {_pct(short, 0.9)} | "
                     f"{statistics.mean(f - s for f, s in zip(found, short)):.1f} | "
                     f"{statistics.median(secs):.2f} / {_pct(secs, 0.9):.2f} / {max(secs):.2f} s | "
                     f"{all(r['verified'] == 'True' for r in rows)} | {rows[0].get('budget') or OLD_BUDGET} |")
    lines += _peers()
    command = "python benchmarks/bench_lines.py " + " ".join(project_args(sys.argv[1:]))
    text = (f"# Winning lines: as found vs shortened (issue 24)\n\nCommand: `{command}` (after the `run` "
            f"commands in benchmarks/bench_lines.py's docstring); rows in results/runs/line-shortener-*.csv.  \n"
            f"Budget per line: the column says (the default is {DEFAULT_NODES:,} units of work, or {PER_MOVE} a move of a long line, at most {MOST_NODES:,}; the rows of "
            f"{OLD_BUDGET} are the wall-time shortener before issue 32). "
            f"Lengths count moves (a draw is one move).\n\n" + "\n".join(lines) + "\n")
    write_report(Path(args.out), text, "benchmarks/bench_lines.py")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("game")
    r.add_argument("--label", required=True)
    r.add_argument("--won", type=int, default=100, help="stop after this many won deals")
    r.add_argument("--max-seed", type=int, default=10_000)
    r.add_argument("--draw", type=int)
    r.add_argument("--rules")
    r.add_argument("--cap", type=float, default=5.0, help="solve cap per deal (seconds)")
    r.add_argument("--cap-nodes", type=int, default=2_000_000, help="solve cap per deal (nodes)")
    r.add_argument("--nodes", type=lambda t: t if t == AUTO else int(t), default=AUTO,
                   help="shortening budget (units of work; default: shorten.default_budget of the line)")
    q = sub.add_parser("report")
    q.add_argument("--out", default=str(ROOT / "results" / "line-shortener.md"))
    args = p.parse_args()
    run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    main()
