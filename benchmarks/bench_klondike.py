"""Klondike benchmark: ``bench_game.py`` at draw 1 and/or 3 on Solvitaire seeds, plus
the deterministic node-count signature (``patience bench``).  Run by hand.

    python benchmarks/bench_klondike.py --draw 3 --seeds 1-1000 --cap 60
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import ROOT, main as bench_main  # noqa: E402

from solver.bench import run_bench  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--draw", type=int, action="append", help="1 and/or 3 (repeatable; default both)")
    args, rest = ap.parse_known_args()
    for draw in args.draw or [1, 3]:
        out = ROOT / "results" / f"klondike-bench-draw{draw}.md"
        argv = ["klondike", "--numbering", "solvitaire", "--option", f"draw={draw}", *rest]
        if "--out" not in rest:
            argv += ["--out", str(out)]
        else:
            out = Path(rest[rest.index("--out") + 1])
        bench_main(argv)
        rows, total, digest = run_bench()
        with out.open("a") as f:
            f.write(f"### Node-count signature (`patience bench`)\n\n"
                    f"Total nodes {total}, signature `{digest}` over {len(rows)} fixed deals.\n")


if __name__ == "__main__":
    main()
