"""Playouts alone (solver/engine/playouts.py) on deals a committed benchmark left unknown (run by hand).

For each seed: randomized greedy playouts for ``--seconds`` of wall time (slices of
2**16 nodes), nothing else.  A win's line has its loops cut and is replayed by the
reference engine (the game's ``verify``) before it counts.  One JSONL row per seed
(results/runs/<game>-<rules>-playouts-<N>s.jsonl: resumable, a run interrupted goes on
where it stopped), then the report's generated part (bench_report.write_report keeps
the notes around it).

    python benchmarks/bench_playouts.py windmill --rules pysolfc \\
        --unknown-of results/runs/windmill-pysolfc-pysolfc-cap60.jsonl --seconds 5 \\
        --out results/windmill-playouts.md
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from solver.api import make_deal
from solver.core.lines import without_cycles
from solver.core.result import WON
from solver.core.seeds import parse_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import ROOT, project_args, write_report  # noqa: E402

SLICE = 1 << 16


def playouts_for(game: str, position, rules):
    """The game's playout search (the twin's playout phase, salt 0)."""
    if game == "windmill" and getattr(rules, "preset", None) == "welford":
        from solver.games.windmill_welford.searcher import WelfordPlayouts
        return WelfordPlayouts(position, slot="bench")
    if game == "windmill":
        from solver.games.windmill.searcher import WindmillPlayouts
        return WindmillPlayouts(position, rules, slot="bench")
    if game == "great-wheel":
        from solver.games.great_wheel.searcher import GWPlayouts
        return GWPlayouts(position, rules, slot="bench")
    raise SystemExit(f"bench_playouts: no playouts for {game}")


def unknown_seeds(rows_file: Path) -> list[int]:
    rows = [json.loads(x) for x in rows_file.read_text().splitlines() if x.strip()]
    return sorted(r["seed"] for r in rows if r["verdict"] == "unknown")


def one(game: str, seed: int, numbering: str, options: dict, seconds: float) -> dict:
    g, rules, position = make_deal(game, seed, numbering=numbering, **options)
    p = playouts_for(g.name, position, rules)
    t0 = time.perf_counter()
    got = p.start()
    while got is None and time.perf_counter() - t0 < seconds:
        got = p.run(SLICE)
    spent = time.perf_counter() - t0
    row = {"seed": seed, "verdict": "won" if got == WON else "unknown", "nodes": p.nodes,
           "playouts": p.playouts, "seconds": spent, "best_cards": p.best_cards(),
           "of": g.total_cards(position), "moves_found": 0, "moves": 0, "verified": False}
    if got == WON:
        line = p.line()
        clean = without_cycles(g, position, rules, line)
        g.verify(position, rules, clean)  # raises on a line the reference engine rejects
        row.update(moves_found=len(line), moves=len(clean), verified=True)
    return row


def report(title: str, rows: list[dict], seconds: float) -> str:
    won = [r for r in rows if r["verdict"] == "won"]
    nodes = sum(r["nodes"] for r in rows)
    spent = sum(r["seconds"] for r in rows)
    lines = [f"### {title}", "", "| measure | value |", "|---|---|",
             f"| deals (unknown after the committed benchmark) | {len(rows)} |",
             f"| won by playouts alone within {seconds:g} s | {len(won)} ({100 * len(won) / max(1, len(rows)):.1f}%) |",
             f"| every won line replayed by the reference engine | {all(r['verified'] for r in won)} |",
             f"| time to a win: median / max | "
             + (f"{statistics.median(r['seconds'] for r in won):.2f} / {max(r['seconds'] for r in won):.2f} s |"
                if won else "- |"),
             f"| playout steps (nodes) per second | {nodes / spent:,.0f} |" if spent else "| steps per second | - |",
             f"| playouts per deal: median | {statistics.median(r['playouts'] for r in rows):,.0f} |"
             if rows else "| playouts | - |",
             f"| unwon deals' best playout (cards home): min / median / max | "
             + (lambda b: f"{min(b)} / {statistics.median(b):g} / {max(b)} of {rows[0]['of']} |" if b else "- |")(
                 [r["best_cards"] for r in rows if r["verdict"] != "won"]),
             f"| winning lines: median moves as found / after loops are cut | "
             + (f"{statistics.median(r['moves_found'] for r in won):g} / {statistics.median(r['moves'] for r in won):g} |"
                if won else "- |"),
             f"| won seeds | {', '.join(str(r['seed']) for r in won) or '-'} |",
             ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--numbering", default="pysolfc")
    ap.add_argument("--seeds", default=None, help="seeds (e.g. 1-10,38); or --unknown-of")
    ap.add_argument("--unknown-of", default=None, help="a benchmark's rows file: its unknown seeds")
    ap.add_argument("--seconds", type=float, default=5.0, help="playout time per deal")
    ap.add_argument("--runs", default=str(ROOT / "results" / "runs"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--note", default="")
    args = ap.parse_args(argv)
    options = {} if args.rules is None else {"rules": args.rules}
    if (args.seeds is None) == (args.unknown_of is None):
        raise SystemExit("bench_playouts: give --seeds or --unknown-of")
    seeds = list(parse_seeds(args.seeds)) if args.seeds else unknown_seeds(Path(args.unknown_of))
    tag = "-".join([args.game] + list(options.values()))
    log = Path(args.runs) / f"{tag}-{args.numbering}-playouts-{args.seconds:g}s.jsonl"
    done = {}
    if log.exists():
        for x in log.read_text().splitlines():
            if x.strip():
                r = json.loads(x)
                done[r["seed"]] = r
    todo = [s for s in seeds if s not in done]
    if todo:  # compile or load the kernel before the clock runs
        make_deal(args.game, todo[0], numbering=args.numbering, **options)
        one(args.game, todo[0], args.numbering, options, 0.01)
    with log.open("a") as out:
        for seed in todo:
            row = one(args.game, seed, args.numbering, options, args.seconds)
            done[seed] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"seed {seed}: {row['verdict']} {row['nodes']} nodes {row['seconds']:.2f} s", file=sys.stderr,
                  flush=True)
    rows = [done[s] for s in seeds if s in done]
    command = "python benchmarks/bench_playouts.py " + " ".join(project_args(argv))
    head = [f"Command: `{command}`  ", f"Date: {time.strftime('%Y-%m-%d')}; rows: "
            f"{log.relative_to(ROOT) if log.is_relative_to(ROOT) else log.name}", ""]
    title = f"{args.game} {args.rules or ''} ({args.numbering} numbering), playouts alone, {args.seconds:g} s a deal"
    write_report(Path(args.out), "\n".join(head) + "\n" + report(title, rows, args.seconds), "bench_playouts.py",
                 args.note)


if __name__ == "__main__":
    main()
