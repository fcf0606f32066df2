"""Windmill: the beam search alone (solver/games/windmill/beam.py) on real deals.

    python benchmarks/bench_windmill_beam.py --rules pysolfc \\
        --unknown-of results/runs/windmill-pysolfc-pysolfc-cap60-playouts-twin.jsonl \\
        --cap 600 --positions 20000000 --rows results/runs/windmill-beam-pysolfc-20m.jsonl --out results/windmill-beam.md

Runs the beam search with no other search beside it, ``--cap`` seconds a deal (and at
most ``--positions`` closure rows: a budget that does not depend on the load), on
``--seeds`` (a spec) or on the seeds whose last row in a bench_game.py rows file is
unknown.  Every won line is replayed by the reference engine before it counts.  One
JSON row per deal is appended to ``--rows`` (a rerun skips the seeds already there, so
an interrupted run resumes); the report's generated part goes to ``--out``
(bench_report.write_report: notes outside it are kept).  ``--widths`` overrides
the beam's schedule (beam.WIDTHS).  Run by hand, never a timed
test: timings are noisy on a shared machine, the beam's positions are not.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_report import project_args, write_report  # noqa: E402


def one(seed: int, rules_name: str, cap: float, widths: tuple[int, ...], positions: int | None) -> dict:
    from solver.engine.kernel_search import expand
    from solver.games.windmill import beam, reference
    from solver.games.windmill.codec import encode, log_to_moves, rules_array
    from solver.games.windmill.deals import windmill_deal
    from solver.games.windmill.position import WindmillRules
    from solver.games.windmill.searcher import WindmillSearch

    rules = WindmillRules(rules_name)
    position = windmill_deal(seed)
    root, seq = encode(position, rules)
    r = rules_array(position, rules, True)
    t0 = time.perf_counter()
    line, info = beam.search(root, seq, r, cap, widths, positions)
    seconds = time.perf_counter() - t0
    row = {"seed": seed, "rules": rules_name, "verdict": "unknown", "seconds": round(seconds, 2), **info,
           "moves": 0, "verified": False}
    if line is not None:
        moves = expand(WindmillSearch, log_to_moves, (1, 0, 3), True, root, (seq,), r, line)
        reference.verify_win(position, rules, moves)  # raises unless the line wins
        row.update(verdict="won", moves=len(moves), verified=True)
    return row


def unknown_seeds(rows_file: Path) -> list[int]:
    last: dict[int, str] = {}
    for text in rows_file.read_text().splitlines():
        row = json.loads(text)
        last[row["seed"]] = row["verdict"]
    return sorted(s for s, v in last.items() if v == "unknown")


def report(command: str, rows: list[dict], cap: float, positions: int | None) -> str:
    won = [r for r in rows if r["verdict"] == "won"]
    by_width: dict[int, int] = {}
    for r in won:
        by_width[r["width"]] = by_width.get(r["width"], 0) + 1
    secs = sorted(r["seconds"] for r in won)
    lines = [
        f"# Windmill ({rows[0]['rules'] if rows else '-'}): the beam search alone",
        "",
        f"Command: `{command}`  ",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, 2 shared vCPUs (timings noisy; "
        "the beam's positions are deterministic).  ",
        f"Date: {time.strftime('%Y-%m-%d')}",
        "",
        "| measure | value |",
        "|---|---|",
        f"| deals | {len(rows)} |",
        f"| budget per deal | {cap:g} s{f', {positions:,} closure rows' if positions else ''} |",
        f"| won (lines replayed) / not won within the budget | {len(won)} / {len(rows) - len(won)} |",
        f"| won at width (the run that won) | {', '.join(f'{w}: {n}' for w, n in sorted(by_width.items())) or '-'} |",
        f"| seconds to the win: median / max | {secs[len(secs) // 2] if secs else '-'} / {secs[-1] if secs else '-'} |",
        "",
        f"Won: {', '.join(str(r['seed']) for r in won) or '-'}  ",
        f"Not won: {', '.join(str(r['seed']) for r in rows if r['verdict'] != 'won') or '-'}",
        "",
        "| seed | verdict | seconds | run | width | positions | best cards |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['seed']} | {r['verdict']} | {r['seconds']} | {r['runs']} | {r['width']} | "
                     f"{r['positions']:,} | {r['best']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    from solver.core.seeds import parse_seeds
    from solver.games.windmill import beam

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--seeds")
    ap.add_argument("--unknown-of", type=Path, help="a bench_game.py rows file: its unknown seeds")
    ap.add_argument("--cap", type=float, default=20.0)
    ap.add_argument("--widths", default=",".join(map(str, beam.WIDTHS)))
    ap.add_argument("--positions", type=int, help="also stop a deal after this many closure rows (a "
                    "budget that does not depend on the machine's load)")
    ap.add_argument("--rows", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if (args.seeds is None) == (args.unknown_of is None):
        raise SystemExit("give --seeds or --unknown-of")
    seeds = list(parse_seeds(args.seeds)) if args.seeds else unknown_seeds(args.unknown_of)
    widths = tuple(int(x) for x in args.widths.split(","))
    done = {json.loads(t)["seed"]: json.loads(t) for t in args.rows.read_text().splitlines()} \
        if args.rows.exists() else {}
    with args.rows.open("a") as out:
        for seed in seeds:
            if seed in done:
                continue
            row = one(seed, args.rules, args.cap, widths, args.positions)
            done[seed] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(seed, row["verdict"], row["seconds"], row["width"], flush=True)
    if args.out:
        command = "python benchmarks/bench_windmill_beam.py " + " ".join(project_args(sys.argv[1:]))
        write_report(args.out, report(command, [done[s] for s in seeds if s in done], args.cap, args.positions),
                     "benchmarks/bench_windmill_beam.py")


if __name__ == "__main__":
    main()
