"""The symbolic verdict against every golden exhaustive reference verdict (tests/golden).

python -m research.windmill_symbolic.golden_agreement [--preset P] [--order O] [--max-n N]
prints one line per preset: cases, agreements, disagreements, seconds.
"""
import argparse
import time
from collections import Counter

from solver.games.windmill.position import WindmillRules

from .check import golden_cases
from .symbolic import Model


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default=None)
    ap.add_argument("--order", default="mask-first")
    ap.add_argument("--mutation", default=None)
    ap.add_argument("--max-n", type=int, default=999)
    a = ap.parse_args(argv)
    stats = Counter()
    t0 = time.time()
    for p, preset, won in golden_cases(a.preset):
        m = Model(p, WindmillRules(preset), order=a.order, mutation=a.mutation)
        if m.N > a.max_n:
            continue
        v = m.solve(counts=False).verdict
        want = "won" if won else "lost"
        stats[(preset, want, v)] += 1
        if v != want:
            print("DISAGREE", preset, want, v, flush=True)
    for k in sorted(stats):
        print(*k, stats[k])
    for preset in ("pysolfc", "strict"):
        n = sum(v for k, v in stats.items() if k[0] == preset)
        agree = sum(v for k, v in stats.items() if k[0] == preset and k[1] == k[2])
        print(f"{preset}: {n} cases, {agree} agree, {n - agree} disagree")
    print(f"seconds {time.time() - t0:.1f}")


if __name__ == "__main__":
    main()
