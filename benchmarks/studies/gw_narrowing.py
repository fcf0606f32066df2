"""Great Wheel: where a search's positions lie, and what the narrowed twin saves (run by hand).

    python benchmarks/studies/gw_narrowing.py space 180            # stored positions of one search
    python benchmarks/studies/gw_narrowing.py compare 180,51,466   # main search vs narrowed searches
    python benchmarks/studies/gw_narrowing.py compare results/runs/great-wheel-pgs-pysolfc-cap60.jsonl --levels 2 --cap 10

``space`` runs the main search of a deal to its end (or ``--cap`` seconds) and reads its
transposition table back: the positions stored per number of talon cards turned, the
distinct tableaux among them, and the talon positions that lie in the waste in some of
the stored positions but not all (the cards whose play-or-bury choice multiplies them).

``compare`` runs, per deal, the main search alone and each narrowed search alone (kernel
R_NARROW: level 1 plays a Two or Three on the waste top at once, level 2 any waste top
a foundation takes), each to its end or the cap, and prints their verdicts and node
counts.  A narrowed search that ends has only run out of moves (it proves nothing); its
wins are replayed.  ``--levels`` picks the searches (0 is the main search).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import numpy as np

from solver.games.great_wheel import kernel as K
from solver.games.great_wheel import reference as R
from solver.games.great_wheel.codec import talon_of
from solver.games.great_wheel.deals import gw_deal
from solver.games.great_wheel.position import GWRules
from solver.games.great_wheel.searcher import GWSearch
from solver.core.result import MEMORY_LIMIT


def run_to_end(search: GWSearch, cap: float) -> tuple[str, float]:
    t0 = time.perf_counter()
    got = search.start()
    while got is None or (got == MEMORY_LIMIT and search.grow()):
        if time.perf_counter() - t0 > cap:
            return "unknown (cap)", time.perf_counter() - t0
        got = search.run(1 << 22)
    return got, time.perf_counter() - t0


def space(seed: int, rules: GWRules, cap: float, tt_mb: float) -> None:
    position = gw_deal(seed)
    search = GWSearch(position, rules, tt_mb)
    verdict, seconds = run_to_end(search, cap)
    print(f"seed {seed} ({rules.preset}): {verdict}, {search.nodes:,} nodes, {search.stored_states:,} stored, "
          f"{seconds:.1f} s")
    table = search.tt.table
    keys = table[table[:, K.KEY_WORDS - 1] != 0]
    turned = (keys[:, 5] & np.uint64(127)).astype(np.int64)
    talon = talon_of(position)
    print("| cards turned | positions stored | distinct tableaux |")
    print("|---|---|---|")
    for nd, count in sorted(Counter(turned.tolist()).items(), reverse=True):
        at = keys[turned == nd]
        tableaux = len({tuple(row) for row in at[:, 0:4].tolist()})
        print(f"| {nd} | {count:,} | {tableaux:,} |")
    full = keys[turned == turned.max()]
    optional = []
    for p in range(int(turned.max())):
        share = int(((full[:, 4] >> np.uint64(p)) & np.uint64(1)).sum()) / len(full)
        if 0 < share < 1:
            optional.append(f"{talon_card(talon[p])} ({share:.0%})")
    print(f"talon cards in the waste in some positions with {int(turned.max())} turned, not all "
          f"({len(optional)}): {', '.join(optional)}")


def talon_card(index: int) -> str:
    return "A23456789TJQ"[index % 13] + "CDHS"[index // 13]


def compare(seeds: list[int], rules: GWRules, cap: float, tt_mb: float, levels: list[int]) -> None:
    names = {0: "main search", 1: "narrowed, level 1", 2: "narrowed, level 2"}
    print("| seed | " + " | ".join(f"{names[v]} | nodes" for v in levels) + " |")
    print("|---|" + "---|---|" * len(levels))
    for seed in seeds:
        position = gw_deal(seed)
        cells = []
        for level in levels:
            search = GWSearch(position, rules, tt_mb, slot="twin" if level else "main", narrow=level)
            verdict, _ = run_to_end(search, cap)
            if verdict == "won":
                R.verify_win(position, rules, search.line())
            if verdict == "lost" and level:
                verdict = "ran out of moves"
            cells += [verdict, f"{search.nodes:,}"]
        print(f"| {seed} | " + " | ".join(cells) + " |", flush=True)


def unknown_seeds(rows_file: str) -> list[int]:
    """The seeds whose last row in a bench_game.py rows file is unknown."""
    last = {}
    for line in Path(rows_file).read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            last[row["seed"]] = row["verdict"]
    return sorted(seed for seed, verdict in last.items() if verdict == "unknown")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("space", "compare"))
    ap.add_argument("seeds", help="comma-separated PySolFC game numbers, or a benchmark's rows file "
                                  "(results/runs/*.jsonl): its unknown seeds")
    ap.add_argument("--rules", default="pgs")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per search")
    ap.add_argument("--tt-mb", type=float, default=4096)
    ap.add_argument("--levels", default="0,1,2", help="compare: narrowing levels to run (0: the main search)")
    args = ap.parse_args()
    rules = GWRules(args.rules)
    seeds = unknown_seeds(args.seeds) if args.seeds.endswith(".jsonl") else [int(s) for s in args.seeds.split(",")]
    if args.what == "space":
        for seed in seeds:
            space(seed, rules, args.cap, args.tt_mb)
    else:
        compare(seeds, rules, args.cap, args.tt_mb, [int(v) for v in args.levels.split(",")])


if __name__ == "__main__":
    main()
