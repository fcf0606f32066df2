"""Deals left unknown under a preset that a stricter preset wins: the strict line, replayed.

    PATIENCE_SERVER=off python benchmarks/restricted_lines.py windmill --cap 60
    PATIENCE_SERVER=off python benchmarks/restricted_lines.py great-wheel --cap 60

Why it is sound: each pair below is a stricter preset and a looser one of the same game, the
stricter playing a subset of the looser's moves on the same deal (same dealing, same
automatic refills), so every line of the stricter is a line of the looser and its win a win:
- Windmill ``strict`` within ``pysolfc`` (the only transfer between foundations is a king-pile
  top that is not its base King to the centre, and after one the next centre card comes from
  a cell or the waste; tests/test_restricted_lines.py checks the subset on random walks);
- Great Wheel ``pgs`` within ``pysolfc`` (pysolfc adds moves from the Evens/Odds piles back to
  the tableau once the stock is empty; same test).
Nothing is taken on trust: each strict line is solved again here (the rows keep no lines) and
replayed move by move by the looser preset's reference engine (``verify_win``) before a row is
written.

For each seed unknown in the looser preset's rows and won in the stricter's (the last row of
a seed counts; several rows files are merged, any decided row beating an unknown one), it
solves the stricter preset with ``--cap`` seconds, replays the line under the looser and
appends a looser-preset row (verdict won, verified, ``line_from`` the stricter preset) to the
looser preset's rows file named below, so that bench_game's report over those rows counts it.
A line that fails the replay is a bug and stops the script.  Seeds already won are skipped (a
second run adds nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import solver
from solver.api import make_deal

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "results" / "runs"

# game: (stricter preset, its rows files, looser preset, its rows files; the last gets the new rows)
PAIRS = {
    "windmill": ("strict", ["windmill-strict-pysolfc-cap60-beam-twin.jsonl"],
                 "pysolfc", ["windmill-pysolfc-pysolfc-cap60-beam-twin.jsonl"]),
    "great-wheel": ("pgs", ["great-wheel-pgs-pysolfc-cap60.jsonl", "great-wheel-pgs-pysolfc-cap60-twin-unknowns.jsonl",
                            "great-wheel-pgs-pysolfc-cap60-proof-unknowns.jsonl"],
                    "pysolfc", ["great-wheel-pysolfc-pysolfc-cap60.jsonl",
                                "great-wheel-pysolfc-pysolfc-cap60-proof-unknowns.jsonl"]),
}


def verdicts(names: list[str]) -> dict[int, str]:
    """Seed -> verdict over several rows files: a won or lost row beats an unknown one."""
    out: dict[int, str] = {}
    for name in names:
        for line in (RUNS / name).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row["verdict"] in ("won", "lost") or row["seed"] not in out:
                    out[row["seed"]] = row["verdict"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=sorted(PAIRS))
    ap.add_argument("--cap", type=float, default=60.0, help="seconds for each solve under the stricter preset")
    ap.add_argument("--tt-mb", type=float, default=2048)
    args = ap.parse_args()
    strict, strict_rows, loose, loose_rows = PAIRS[args.game]
    tight, wide = verdicts(strict_rows), verdicts(loose_rows)
    seeds = sorted(s for s, v in wide.items() if v == "unknown" and tight.get(s) == "won")
    print(f"{args.game}: unknown under {loose}, won under {strict}: {seeds}", file=sys.stderr)
    with (RUNS / loose_rows[-1]).open("a") as out:
        for seed in seeds:
            started = time.perf_counter()
            r = solver.solve(args.game, seed, rules=strict, timeout=args.cap, tt_mb=args.tt_mb)
            if r.verdict != "won":
                print(f"seed {seed}: {strict} {r.verdict} at {args.cap:g} s this time; skipped", file=sys.stderr)
                continue
            g, rules, position = make_deal(args.game, seed, rules=loose)
            g.verify(position, rules, r.moves)  # the reference engine of the looser preset, to the win
            row = {"seed": seed, "verdict": "won", "reason": None, "nodes": r.nodes, "stored": r.stored_states,
                   "seconds": time.perf_counter() - started, "moves": len(r.moves), "moves_found": r.moves_found,
                   "verified": True, "proof": None, "peak_mb": None,
                   "best_progress": {"cards": g.total_cards(position), "of": g.total_cards(position)},
                   "counters": {}, "line_from": strict}
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"seed {seed}: won, the {strict} line ({len(r.moves)} moves) replays under {loose}", file=sys.stderr)


if __name__ == "__main__":
    main()
