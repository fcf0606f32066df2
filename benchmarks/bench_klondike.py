"""Klondike benchmark: ``bench_game.py`` at draw 1 and/or 3 on Solvitaire seeds, plus
the deterministic node-count signature (``patience bench``, printed, and put in each
report written).  Run by hand.

    python benchmarks/bench_klondike.py --draw 3 --seeds 1-1000 --cap 60
    python benchmarks/bench_klondike.py --runs build/bench/runs --out-dir build/bench   # make bench

Reports go to results/klondike-bench-draw<N>.md (``--out-dir`` elsewhere); rows, reports
and ``--rewrite-report`` behave as in bench_game.py: rows already done solve nothing and
leave an existing report alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import ROOT, main as bench_main  # noqa: E402

from solver.runs.bench import run_bench  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--draw", type=int, action="append", help="1 and/or 3 (repeatable; default both)")
    ap.add_argument("--out-dir", default=str(ROOT / "results"), help="folder of the reports (default results/)")
    args, rest = ap.parse_known_args(argv)
    draws = args.draw or [1, 3]
    has_out = any(a == "--out" or a.startswith("--out=") for a in rest)
    if has_out and len(draws) > 1:
        ap.error("--out names one report: give one --draw, or --out-dir")
    rows, total, digest = run_bench()
    signature = (f"### Node-count signature (`patience bench`)\n\n"
                 f"Total nodes {total}, signature `{digest}` over {len(rows)} fixed deals.\n")
    print(f"node-count signature: total nodes {total}, signature {digest} over {len(rows)} fixed deals")
    for draw in draws:
        argv = ["klondike", "--numbering", "solvitaire", "--option", f"draw={draw}", *rest]
        if not has_out:
            argv += ["--out", str(Path(args.out_dir) / f"klondike-bench-draw{draw}.md")]
        bench_main(argv, extra=lambda: signature)


if __name__ == "__main__":
    main()
