"""Windmill pysolfc deals left unknown that strict wins: the strict line, replayed under pysolfc.

    PATIENCE_SERVER=off python benchmarks/windmill_strict_lines.py --cap 60

Why it is sound: the strict preset is pysolfc with fewer moves (the only transfer between
foundations is a king-pile top that is not its base King to the centre, and after one the next
card to the centre must come from a cell or the waste); the deal, the cells' refills and the
stock are the same.  So every line strict plays is a line pysolfc plays, and a strict win is a
pysolfc win.  Nothing is taken on trust: each strict line is solved again here (the rows keep
no lines) and replayed move by move by the pysolfc reference engine (``verify_win``) before a
row is written.

Reads the committed rows of both 1..1000 runs with the playout twin (the last row of a seed
counts); for each seed unknown under pysolfc and won under strict it solves strict with
``--cap`` seconds, replays the line under pysolfc and appends a pysolfc row (verdict won,
verified, ``line_from`` "strict") to the pysolfc rows file, so that bench_game's report counts
it.  A line that fails the pysolfc replay is a bug and stops the script.  Seeds already
won in the pysolfc rows are skipped (so a second run adds nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import solver
from solver.games.windmill import reference
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "results" / "runs"
PYSOLFC_ROWS = RUNS / "windmill-pysolfc-pysolfc-cap60-playouts-twin.jsonl"
STRICT_ROWS = RUNS / "windmill-strict-pysolfc-cap60-playouts-twin.jsonl"


def last_rows(path: Path) -> dict[int, dict]:
    rows: dict[int, dict] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["seed"]] = row
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cap", type=float, default=60.0, help="seconds for each strict solve")
    ap.add_argument("--tt-mb", type=float, default=2048)
    args = ap.parse_args()
    pysolfc, strict = last_rows(PYSOLFC_ROWS), last_rows(STRICT_ROWS)
    seeds = sorted(s for s, r in pysolfc.items()
                   if r["verdict"] == "unknown" and strict.get(s, {}).get("verdict") == "won")
    print(f"pysolfc unknown, strict won: {seeds}", file=sys.stderr)
    with PYSOLFC_ROWS.open("a") as out:
        for seed in seeds:
            started = time.perf_counter()
            r = solver.solve("windmill", seed, rules="strict", timeout=args.cap, tt_mb=args.tt_mb)
            if r.verdict != "won":
                print(f"seed {seed}: strict {r.verdict} at {args.cap:g} s this time; skipped", file=sys.stderr)
                continue
            reference.verify_win(windmill_deal(seed, "pysolfc"), WindmillRules("pysolfc"), r.moves)
            row = {"seed": seed, "verdict": "won", "reason": None, "nodes": r.nodes, "stored": r.stored_states,
                   "seconds": time.perf_counter() - started, "moves": len(r.moves), "moves_found": r.moves_found,
                   "verified": True, "proof": None, "peak_mb": None,
                   "best_progress": {"cards": 104, "of": 104}, "counters": {}, "line_from": "strict"}
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"seed {seed}: won, the strict line ({len(r.moves)} moves) replays under pysolfc", file=sys.stderr)


if __name__ == "__main__":
    main()
