"""Great Wheel as the rest of the package sees it: presets, deals, search, verification."""

from __future__ import annotations

from typing import Any

from ..base import GameAdapter, computed
from . import board, dealfile, reference
from .deals import NUMBERINGS, gw_deal
from .position import PRESETS, GWPosition, GWRules
from .relaxed import MAX_STATES_MB, LowCardsReleased  # plain Python, cheap to import
from ...core.errors import NAME, OptionError


class GreatWheel(GameAdapter):
    name = "great-wheel"
    aliases = ("gw", "greatwheel")
    presets = PRESETS  # rule presets, the default first (--rules NAME)
    numberings = NUMBERINGS
    # batch sizing: two deep DFS stacks (main, twin) at worst, and the loss proof's states
    workspace_mb = computed(lambda: 2 * _searcher().WORKSPACE_MB + MAX_STATES_MB)
    relaxation = None  # no looser rule set the kernel plays; loss_proof below instead
    piles_doc = ("stock, waste, aces (the Ace foundation), E1..E8 (Evens), O1..O8 (Odds), T1..T8 "
                 "(PySolFC's rows, left to right); an Evens/Odds card goes to the lowest-numbered pile "
                 "that takes it; refills of empty piles and turning a card onto an empty waste are "
                 "automatic and not moves")
    reference = reference
    dealfile, board = dealfile, board
    search = "solver.games.great_wheel.searcher:GWSearch"
    proofs = {**GameAdapter.proofs,
              LowCardsReleased.proof: ("proved in a looser game whose Aces, Twos and Threes never block the waste "
                                       "or a pile, which allows every line of this one: no line wins")}

    @staticmethod
    def make_rules(rules: str | None = None, **extra: Any) -> GWRules:
        if extra:
            raise OptionError("rules", f"great-wheel has no option {', '.join(sorted(extra))} "
                                       f"(use {NAME} {'|'.join(PRESETS)})")
        return GWRules(PRESETS[0] if rules is None else str(rules).strip().lower())

    @staticmethod
    def deal(seed: int, numbering: str, rules: GWRules) -> GWPosition:
        return gw_deal(seed, numbering)

    @staticmethod
    def twin(position: GWPosition, rules: GWRules):
        """The narrowed win-finder run alongside (searcher.narrowed_twin): its wins are
        wins, its exhaustion proves nothing; the main search's exhaustion is the loss."""
        return _searcher().narrowed_twin(position, rules)

    @staticmethod
    def loss_proof(position: GWPosition, rules: GWRules):
        """The relaxed game with the low cards released (relaxed.py): a deal it cannot
        win is lost (``proof: "low-cards-released"``)."""
        return LowCardsReleased(position, rules)

    @staticmethod
    def foundation_cards(position: GWPosition) -> int:
        """Cards on the Ace, Evens and Odds foundations (what best_progress counts)."""
        return len(position.aces) + sum(map(len, position.evens)) + sum(map(len, position.odds))

    @staticmethod
    def total_cards(position: GWPosition) -> int:
        """Every card of the deal, wherever it lies."""
        return (GreatWheel.foundation_cards(position) + sum(map(len, position.tableau)) + len(position.stock)
                + len(position.waste))


def _searcher():
    """The search adapter, imported on first use (it loads numba and the kernel)."""
    from . import searcher
    return searcher
