"""The Python API.  The CLI is a thin wrapper around these functions.

    >>> import solver
    >>> r = solver.solve("klondike", seed=1, draw=3)
    >>> r.verdict, r.verified, len(r.moves)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .games import get_game
from .result import WON, BestProgress, SolveResult, VerificationError
from .search import DEFAULT_TT_MB, Limits, StopFlag, drive


def make_deal(game: str, seed: int | None = None, *, numbering: str = "pysolfc",
              deal: Any = None, **options: Any):
    """Return (game adapter, rules, position) for a numbered deal or a deal file/position."""
    g = get_game(game)
    rules = g.make_rules(**options)
    if deal is not None:
        if seed is not None:
            raise ValueError("give a seed or a deal file, not both")
        position = g.load_deal(deal, rules) if isinstance(deal, (str, Path)) else deal
        position.validate()
    else:
        if seed is None:
            raise ValueError("give a seed or a deal file")
        if numbering not in g.numberings:
            raise ValueError(f"unknown numbering {numbering!r} for {g.name}; choose from {', '.join(g.numberings)}")
        position = g.deal(seed, numbering, rules)
    return g, rules, position


def _counters(*searches) -> dict[str, int]:
    total: dict[str, int] = {}
    for s in searches:
        if s is not None:
            for k, v in s.counters().items():
                total[k] = total.get(k, 0) + v
    return total


def solve(game: str, seed: int | None = None, *, numbering: str = "pysolfc", deal: Any = None,
          max_nodes: int | None = None, timeout: float | None = None, tt_mb: float = DEFAULT_TT_MB,
          stop: StopFlag | None = None, **options: Any) -> SolveResult:
    """Decide one deal: won (with a replayed line), lost (space exhausted) or unknown.

    ``options`` are the game's rule options (Klondike: draw, passes, worry_back).
    A won line that the reference engine rejects raises VerificationError: that is a
    bug in the kernel, and it is never reported as a win.  ``stop`` (an Event set by
    another thread or process) ends the search early as unknown: interrupted.
    """
    limits = Limits(max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb)
    g, rules, position = make_deal(game, seed, numbering=numbering, deal=deal, **options)
    kernel = g.searcher(position, rules, tt_mb)
    looser = g.relaxation(rules) if hasattr(g, "relaxation") else None
    relaxed = g.searcher(position, looser, tt_mb, slot="relaxed") if looser is not None else None
    twin = g.twin(position, rules, tt_mb) if relaxed is None and hasattr(g, "twin") else None
    before = _counters(kernel, twin)
    out = drive(kernel, limits, stop, relaxed, twin)
    counters = {k: v - before.get(k, 0) for k, v in _counters(kernel, twin).items()}
    proof = out.proof
    if proof == "search" and counters.get("endgame_lost", 0) > 0:
        proof = "search+endgame"  # exhausted, with states proven lost by the endgame test
    result = SolveResult(
        game=g.name, rules=rules.to_json(), numbering=numbering if deal is None else None,
        seed=seed if deal is None else None, verdict=out.verdict, reason=out.reason,
        nodes=out.nodes, seconds=out.seconds, moves=out.line, stored_states=kernel.stored_states + (twin.stored_states if twin is not None else 0),
        proof=proof, counters=counters,
    )
    if out.best is not None:
        result.best_progress = BestProgress(out.best.cards, g.total_cards(position))
        result.line_to_best = out.best.line
    if out.verdict == WON:
        try:
            g.verify(position, rules, out.line)
        except ValueError as err:
            raise VerificationError(
                f"BUG: the kernel's winning line for {g.name} {seed if deal is None else '(deal file)'} "
                f"fails replay in the reference engine: {err}"
            ) from err
        result.verified = True
    return result
