"""Windmill: an empirical check of the deletion-plus-swap projection (not in the solver).

    python -m benchmarks.studies.bench_windmill_projection_swap --max-states 5000 --ranks 3 --cells 1

The projection deletes the dropped ranks (cells refilled from the waste, as the issue's
plain deletion) and adds one move: a cell card may trade places with the waste top.
results/windmill-projections.md sketches why that is sound under pysolfc; this script
checks it by brute force on every game of tests/golden/windmill_bruteforce.json (both
presets' verdicts; a strict game's projection is played under pysolfc), with a plain
exhaustive search of the projected game on the reference engine, and counts the won
games with a lost projection (must be 0) and the lost games proven.
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path

from solver.games import reference_search
from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.position import WindmillPosition, WindmillRules
from solver.games.windmill.projection import DELETION_COUNTEREXAMPLE, deletion

PYSOLFC = WindmillRules("pysolfc")


def children(p: WindmillPosition):
    yield from ref.successors(p, PYSOLFC)
    if p.waste:
        for i, c in enumerate(p.cells):
            if c is not None and c != p.waste[-1]:
                new = p.copy()
                new.cells[i], new.waste[-1] = p.waste[-1], c
                yield new


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-states", type=int, default=20_000)
    ap.add_argument("--ranks", type=int, default=4, help="only golden games of at most this many ranks")
    ap.add_argument("--cells", type=int, default=3, help="only golden games of at most this many cells")
    a = ap.parse_args()
    golden = json.loads((Path(__file__).resolve().parents[2] / "tests" / "golden" / "windmill_bruteforce.json").read_text())
    p = position_from_json(DELETION_COUNTEREXAMPLE)
    q = deletion(p, (1, 3, 4, 5, 6, 7, 8))
    print("counterexample: deletion", reference_search.solve_exhaustive(lambda x: ref.successors(x, PYSOLFC), q),
          "deletion+swap", reference_search.solve_exhaustive(children, q))
    for preset in ("pysolfc", "strict"):
        tally = {"won": 0, "lost": 0, "unknown": 0}
        bad, proven, lost_games = 0, 0, 0
        for g in golden:
            if g["preset"] != preset or g["deal"]["ranks"] > a.ranks or len(g["deal"]["cells"]) > a.cells:
                continue
            p = position_from_json(g["deal"])
            lost_games += not g["won"]
            hit = False
            for k in range(p.ranks - 1):
                for keep in combinations(range(2, p.ranks + 1), k):
                    v = reference_search.solve_exhaustive(children, deletion(p, (1, *keep)), a.max_states)
                    tally["unknown" if v is None else "won" if v else "lost"] += 1
                    hit |= v is False
            bad += hit and g["won"]
            proven += hit and not g["won"]
        print(json.dumps({"preset": preset, "projections": tally, "won_with_lost_projection": bad,
                          "lost_games": lost_games, "lost_games_proven": proven}), flush=True)


if __name__ == "__main__":
    main()
