"""Klondike as the rest of the package sees it: options, deals, search, verification."""

from __future__ import annotations

from typing import Any

from ...core.dealfile import DealFileOptionError
from ...core.errors import NAME
from ..base import GameAdapter, computed
from ..variants import preset_options, presets_of
from . import board, dealfile, reference
from .deals import NUMBERINGS, klondike_deal
from .position import KlondikePosition, KlondikeRules


# Named rule sets: PySolFC's Klondike games, which share one deal per number (variants.VARIANTS).
PRESET_OPTIONS = preset_options("klondike")
PRESETS = presets_of("klondike")
UNSET = object()  # an option not given (passes=None means unlimited)


class Klondike(GameAdapter):
    name = "klondike"
    aliases = ("k", "solitaire", "patience")
    presets = PRESETS  # named rule sets (PySolFC's Klondike games), the default first
    numberings = NUMBERINGS
    piles_doc = "stock, waste, T1..T7 (left to right as dealt), F1..F4 (foundations of C, D, H, S)"
    reference = reference
    dealfile, board = dealfile, board
    search = "solver.games.klondike.searcher:KlondikeSearch"
    workspace_mb = computed(lambda: 2 * _searcher().WORKSPACE_MB)  # the main and the relaxed search's stacks (batch memory sizing)
    twin = None  # the relaxed search (relaxation) runs beside the main one instead

    @staticmethod
    def make_rules(rules: str | None = None, draw: int | None = None, passes: int | None | object = UNSET,
                   worry_back: bool | None = None, **extra: Any) -> KlondikeRules:
        """The rules of a preset (PRESET_OPTIONS; default "standard"), with any option
        given explicitly taking its place (``passes``: a number, its text, or None or
        "unlimited": unlimited; ``KlondikeRules.read_passes``)."""
        if extra:
            raise ValueError(f"Klondike has no option {', '.join(sorted(extra))}")
        name = PRESETS[0] if rules is None else str(rules).strip().lower()
        if name not in PRESET_OPTIONS:
            raise ValueError(f"unknown Klondike rules {rules!r}; choose from {', '.join(PRESETS)}")
        options = dict(PRESET_OPTIONS[name])
        for key, value in (("draw", draw), ("worry_back", worry_back)):
            if value is not None:
                options[key] = value
        if passes is not UNSET:
            options["passes"] = KlondikeRules.read_passes(passes)
        return KlondikeRules(**options)

    @staticmethod
    def deal(seed: int, numbering: str, rules: KlondikeRules) -> KlondikePosition:
        return klondike_deal(seed, numbering, rules.draw)

    @staticmethod
    def load_deal(path, rules):
        """The position in a deal file (the rules do not change this game's format); its
        "redeals" must leave a pass under ``rules``."""
        position = dealfile.load_deal(path)
        if rules.passes is not None and position.redeals >= rules.passes:
            raise DealFileOptionError("passes", f"{path}: \"redeals\": {position.redeals} is more than "
                                                f"{NAME} {rules.passes} allows (at most {rules.passes - 1})")
        return position


    @staticmethod
    def relaxation(rules: KlondikeRules) -> KlondikeRules | None:
        """The loosest rules (draw 1, unlimited passes, worry-back), or None if these are they.

        Every line legal under (draw k, p passes, worry-back w) is legal under them:
        worry-back only adds moves; a draw of k cards is k draws of one card, which turn
        the same cards in the same order onto the waste, so every waste top and every
        redeal of the draw-k line is reached by the draw-1 line; unlimited passes allow
        every redeal.  So a deal lost under the relaxation is lost under the rules.
        """
        loosest = KlondikeRules(draw=1, passes=None, worry_back=True)
        return None if rules == loosest else loosest

    @staticmethod
    def foundation_cards(position: KlondikePosition) -> int:
        """Cards on the foundations (what best_progress counts)."""
        return sum(position.foundations)

    @staticmethod
    def total_cards(position: KlondikePosition) -> int:
        """Every card of the deal, wherever it lies."""
        return sum(map(len, position.tableau)) + len(position.stock) + len(position.waste) + sum(position.foundations)



def _searcher():
    """The search adapter, imported on first use (it loads numba and the kernel)."""
    from . import searcher
    return searcher
