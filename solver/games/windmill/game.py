"""Windmill as the rest of the package sees it: presets, deals, search, verification.

Presets ``pysolfc`` (default) and ``strict`` are played by this folder's position,
reference and kernel modules; ``welford`` by its own folder, ``solver/games/windmill_welford/``
(its row in variants.VARIANTS says so).
"""

from __future__ import annotations

from ..base import GameAdapter
from . import board, dealfile, reference
from .deals import NUMBERINGS, windmill_deal
from .position import ALIASES, PRESETS, WindmillPosition, WindmillRules, make_rules


class Windmill(GameAdapter):
    name = "windmill"
    aliases = ALIASES
    presets = PRESETS  # rule presets, the default first (--rules NAME)
    numberings = NUMBERINGS
    piles_doc = ("stock, waste, centre (Ace pile), K1..K4 (king piles: top left, top right, bottom left, "
                 "bottom right), C1..C8 (cells as PySolFC's rows: C1 C2 top arm outer/inner, C3 C4 left arm "
                 "outer/inner, C5 C6 right arm inner/outer, C7 C8 bottom arm inner/outer)")
    reference = reference
    dealfile, board = dealfile, board
    search = "solver.games.windmill.searcher:WindmillSearch"
    make_rules = staticmethod(make_rules)
    search_proofs = {"endgame_lost": "search+endgame"}  # positions proved lost by the endgame test (endgame.py)
    proofs = {**GameAdapter.proofs,
              "search+endgame": "search exhausted; some positions proved lost by the foundation-endgame test"}

    @staticmethod
    def deal(seed: int, numbering: str, rules: WindmillRules) -> WindmillPosition:
        return windmill_deal(seed, numbering)



    @staticmethod
    def twin(position, rules: WindmillRules):
        """The search run alongside the main one (search.drive): Luby restarts in
        shuffled move orders, each followed by a phase of randomized greedy playouts and
        one of a beam search (searcher.restarts); its wins count, only the main search
        proves a loss."""
        from .searcher import restarts
        return restarts(position, rules)

    @staticmethod
    def foundation_cards(position: WindmillPosition) -> int:
        """Cards on the centre (its base Ace included) and the king piles."""
        return position.on_foundations()

    @staticmethod
    def total_cards(position: WindmillPosition) -> int:
        """Every card of the deal, wherever it lies."""
        return (position.on_foundations() + sum(c is not None for c in position.cells) + len(position.stock)
                + len(position.waste))
