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
    ap.add_argument("--min-n", type=int, default=0)
    ap.add_argument("--reverse", action="store_true", help="the cases in reverse file order")
    ap.add_argument("--progress", type=int, default=0, help="print the counts every this many cases")
    a = ap.parse_args(argv)
    stats = Counter()
    t0 = time.time()
    cases = golden_cases(a.preset)
    if a.reverse:
        cases = cases[::-1]
    done = 0
    for p, preset, won in cases:
        m = Model(p, WindmillRules(preset), order=a.order, mutation=a.mutation)
        if not a.min_n <= m.N <= a.max_n:
            continue
        done += 1
        if a.progress and done % a.progress == 0:
            agree = sum(v for k, v in stats.items() if k[1] == k[2])
            print(f"progress: {done} cases, {agree} agree, {time.time() - t0:.0f} s", flush=True)
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
