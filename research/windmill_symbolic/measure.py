"""Per-layer diagram sizes of the symbolic search on real deals.

python -m research.windmill_symbolic.measure SEED [--rules pysolfc] [--order mask-first]
    [--seconds 600] [--memory-gb 4] [--reorder]
One line per layer: t, nodes of the layer's diagram, peak nodes during its closure,
positions (states with o = 0 that are positions, in the mask model: one per kernel key),
all states, sweeps to the fixpoint, seconds; then the verdict.
"""
import argparse
import json
import sys
import time

from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules

from .symbolic import Model


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--rules", default="pysolfc")
    ap.add_argument("--order", default="mask-first")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--memory-gb", type=float, default=4)
    ap.add_argument("--reorder", action="store_true")
    ap.add_argument("--print-order", action="store_true", help="print the final variable order (by field)")
    ap.add_argument("--max-t", type=int, default=None, help="stop after this layer")
    ap.add_argument("--json", default=None, help="append the rows (one JSON object per layer) here")
    a = ap.parse_args(argv)
    p = windmill_deal(a.seed)
    m = Model(p, WindmillRules(a.rules), order=a.order, memory_gb=a.memory_gb, reorder=a.reorder)
    t0 = time.time()
    out = open(a.json, "a") if a.json else None

    def log(s):
        print(f"t={s.t:3d} nodes={s.nodes:9,d} pos_nodes={s.position_nodes:9,d} peak={s.peak_nodes:9,d} positions={s.positions:14,.0f} "
              f"states={s.states:14,.0f} sweeps={s.iterations:3d} s={s.seconds:7.2f} total={time.time() - t0:7.1f}"
              + ("" if s.complete else " (cut: partial layer)"),
              flush=True)
        if out:
            out.write(json.dumps({"seed": a.seed, "rules": a.rules, "order": a.order, "reorder": a.reorder,
                                  **s.__dict__}) + "\n")
            out.flush()

    res = m.solve(time_limit=a.seconds, log=log, max_t=a.max_t)
    if a.print_order:
        lv = m.bdd.var_levels
        names = sorted((x for x in lv if not x.endswith("p")), key=lambda x: lv[x])
        runs, last = [], None
        for x in names:
            f = x.split("_")[0] if not x.startswith("m") else "m"
            if f == "m":
                f = "m" + x[1:]
            runs.append(f)
        print("order (unprimed, top first):", " ".join(runs))
    print(f"seed {a.seed} {a.rules} order {a.order}: verdict {res.verdict} {res.reason} "
          f"(layers {m.t0}..{res.layers[-1].t} of {m.N}) {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
