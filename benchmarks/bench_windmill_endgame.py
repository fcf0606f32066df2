"""Windmill: the foundation endgame's loss test (solver/games/windmill/endgame.py) on and off.

    python benchmarks/bench_windmill_endgame.py --seeds 1-40 --cap 10 --endgame -1 0 4 8

Solves every seed with solver.solve (main search and twin, as a benchmark does) once
per setting of kernel.ENDGAME_STOCK (the most stock cards at which the test is tried;
-1 = off) and prints one Markdown row per setting: decided deals, total time, nodes,
and the test's counters.  Run by hand; timings are noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import time

import solver
from solver.games.windmill import kernel as K
from solver.core.seeds import parse_seeds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--seeds", default="1-40")
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--endgame", type=int, nargs="+", default=[-1, 0, 4, 8])
    args = ap.parse_args()
    seeds = list(parse_seeds(args.seeds))
    solver.solve("windmill", 1, rules=args.rules, max_nodes=1000, tt_mb=64)  # compile or load
    print("| endgame stock | won / lost / unknown | seconds | nodes | tries / proven lost / E states |")
    print("|---|---|---|---|---|")
    for k in args.endgame:
        K.ENDGAME_STOCK = k
        verdicts = {"won": 0, "lost": 0, "unknown": 0}
        nodes = 0
        ctr = {"endgame_tries": 0, "endgame_lost": 0, "endgame_states": 0}
        t0 = time.perf_counter()
        for seed in seeds:
            r = solver.solve("windmill", seed, rules=args.rules, timeout=args.cap, tt_mb=2048)
            verdicts[r.verdict] += 1
            nodes += r.nodes
            for name in ctr:
                ctr[name] += r.counters.get(name, 0)
        print(f"| {k} | {verdicts['won']} / {verdicts['lost']} / {verdicts['unknown']} | "
              f"{time.perf_counter() - t0:.0f} | {nodes:,} | "
              f"{ctr['endgame_tries']:,} / {ctr['endgame_lost']:,} / {ctr['endgame_states']:,} |", flush=True)


if __name__ == "__main__":
    main()
