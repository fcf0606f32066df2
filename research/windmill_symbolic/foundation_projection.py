"""What would quotienting the foundations buy?  Per layer: positions, and the diagram of
the positions with h and k quantified away (distinct (mask, cells) pairs: the most a
transfer-class quotient could merge, since the foundation counts per rank are implied by
the mask, the cells and t), with node counts of both.

python -m research.windmill_symbolic.foundation_projection SEED --max-t T [--seconds S]
"""
import argparse
import time

from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules

from .symbolic import Model


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--max-t", type=int, required=True)
    ap.add_argument("--seconds", type=float, default=300)
    a = ap.parse_args(argv)
    m = Model(windmill_deal(a.seed), WindmillRules("pysolfc"), memory_gb=2)
    fk = [x for name in ["h"] + [f"k{r}" for r in range(1, m.R + 1)] for x in m.fields[name][0]]
    res = m.solve(time_limit=a.seconds, counts=False, keep_layers=True, max_t=a.max_t)
    for t in sorted(m.layer_bdds)[-6:]:
        pos = m.positions(m.layer_bdds[t], t)
        proj = m.bdd.exist(fk, pos)
        n = len(m.care(t))
        print(f"t={t} positions={pos.count(nvars=n):,.0f} nodes={pos.dag_size:,} "
              f"(mask, cells) pairs={proj.count(nvars=n - len(fk)):,.0f} nodes={proj.dag_size:,}", flush=True)


if __name__ == "__main__":
    main()
