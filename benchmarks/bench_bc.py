"""Beleaguered Castle benchmark: ``bench_game.py`` on Solvitaire seeds (run by hand).

Solvitaire seeds, so verdicts compare deal by deal with Solvitaire's published data.
All other options are bench_game's (``--seeds``, ``--cap``, ``--report-only``, ...).

    python benchmarks/bench_bc.py --seeds 1-1000 --cap 60
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import ROOT, main  # noqa: E402

if __name__ == "__main__":
    argv = sys.argv[1:]
    if not any(a == "--out" or a.startswith("--out=") for a in argv):
        argv += ["--out", str(ROOT / "results" / "bc-bench.md")]
    main(["beleaguered-castle", "--numbering", "solvitaire", *argv])
