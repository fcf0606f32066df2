"""Beleaguered Castle as the rest of the package sees it: options, deals, search, verification."""

from __future__ import annotations

from typing import Any

from ..base import GameAdapter, computed
from . import board, dealfile, reference
from .deals import NUMBERINGS, bc_deal
from .position import BCPosition, BCRules


class BeleagueredCastle(GameAdapter):
    name = "beleaguered-castle"
    aliases = ("bc", "beleaguered")
    presets = ()  # no rule presets
    numberings = NUMBERINGS
    piles_doc = "T1..T8 (PySolFC's rows: left wing T1..T4 top to bottom, right wing T5..T8), F1..F4 (C, D, H, S)"
    reference = reference
    reference_takes_rules = False  # one rule set
    dealfile, board = dealfile, board
    search = "solver.games.beleaguered_castle.searcher:BCSearch"
    workspace_mb = computed(lambda: 2 * _searcher().WORKSPACE_MB)  # two deep DFS stacks (main, twin), at worst (batch sizing)
    relaxation = None  # no looser rule set: the twin runs beside the main search

    @staticmethod
    def make_rules(**options: Any) -> BCRules:
        if options:
            raise ValueError(f"beleaguered-castle has no option {', '.join(sorted(options))}")
        return BCRules()

    @staticmethod
    def deal(seed: int, numbering: str, rules: BCRules) -> BCPosition:
        return bc_deal(seed, numbering)




    @staticmethod
    def twin(position: BCPosition, rules: BCRules):
        """Restarted searches in shuffled move orders, run alongside (searcher.restarts)."""
        return _searcher().restarts(position, rules)

    @staticmethod
    def foundation_cards(position: BCPosition) -> int:
        """Cards on the foundations, the Aces included (what best_progress counts)."""
        return sum(position.foundations)

    @staticmethod
    def total_cards(position: BCPosition) -> int:
        """Every card of the deal, wherever it lies."""
        return sum(map(len, position.tableau)) + sum(position.foundations)



def _searcher():
    """The search adapter, imported on first use (it loads numba and the kernel)."""
    from . import searcher
    return searcher
