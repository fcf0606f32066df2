"""``bench``: a deterministic node-count signature of the search, as in Stockfish.

Fixed deals, fixed rules, a fixed node cap: the node counts depend only on the search
code (move generation, ordering, pruning), never on the machine.  Quote the total in
every commit that changes search behaviour; a changed total means changed search.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..api import solve
from ..core.numbering import PYSOLFC

# (game, seed, numbering, rule options): Solvitaire seeds so results compare with its data
BENCH_DEALS = [
    ("klondike", seed, "solvitaire", {"draw": draw})
    for draw in (1, 3)
    for seed in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
] + [
    ("klondike", 7, PYSOLFC, {"draw": 3, "passes": 3, "worry_back": False}),
    ("klondike", 8, PYSOLFC, {"draw": 1, "passes": 1}),
] + [
    ("beleaguered-castle", seed, "solvitaire", {}) for seed in (1, 2, 3, 4, 5, 6, 123)
] + [
    ("great-wheel", seed, PYSOLFC, {"rules": preset}) for preset in ("pgs", "pysolfc") for seed in (1, 2, 3)
] + [
    ("windmill", seed, PYSOLFC, {"rules": preset}) for preset in ("pysolfc", "strict", "welford")
    for seed in (1, 2, 3)
]
BENCH_MAX_NODES = 300_000


@dataclass
class BenchRow:
    label: str
    verdict: str
    nodes: int
    seconds: float


BENCH_TT_MB = 512  # the bench's table size (node counts depend on it once a table evicts)


def run_bench(max_nodes: int = BENCH_MAX_NODES) -> tuple[list[BenchRow], int, str]:
    """Solve the bench deals; return rows, total nodes and the signature digest."""
    rows = []
    for game, seed, numbering, options in BENCH_DEALS:
        r = solve(game, seed, numbering=numbering, max_nodes=max_nodes, tt_mb=BENCH_TT_MB, **options)
        opts = ",".join(f"{k}={v}" for k, v in options.items())
        rows.append(BenchRow(f"{game} {numbering} {seed} {opts}", r.verdict, r.nodes, r.seconds))
    total = sum(r.nodes for r in rows)
    digest = hashlib.sha256(" ".join(f"{r.verdict}:{r.nodes}" for r in rows).encode()).hexdigest()[:12]
    return rows, total, digest
