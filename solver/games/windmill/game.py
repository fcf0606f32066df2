"""Windmill as the rest of the package sees it: presets, deals, search, verification.

Presets ``pysolfc`` (default) and ``strict`` are implemented in this package's
position/reference/kernel modules; ``welford`` is delegated to
``solver.games.windmill.welford.WelfordGame`` (imported lazily, so the other presets
work even if that module is missing or broken).
"""

from __future__ import annotations

from typing import Any

from ...moves import Move
from .position import PRESETS, WindmillPosition, WindmillRules


def _welford():
    try:
        from .welford import WelfordGame
    except ImportError as e:
        raise ValueError(f"Windmill rules 'welford' are not available ({e})") from None
    return WelfordGame


def _is_welford(position: Any) -> bool:
    return not isinstance(position, WindmillPosition) and getattr(position, "preset", None) == "welford"


class Windmill:
    name = "windmill"
    aliases = ("propeller",)
    presets = PRESETS  # rule presets, the default first (--rules NAME)
    workspace_mb = 0  # short DFS stacks (batch sizing)
    relaxation = None  # no looser rule set: the twin (Luby restarts) runs beside the main search
    from .deals import NUMBERINGS as numberings
    piles_doc = ("stock, waste, centre (Ace pile), K1..K4 (king piles: top left, top right, bottom left, "
                 "bottom right), C1..C8 (cells as PySolFC's rows: C1 C2 top arm outer/inner, C3 C4 left arm "
                 "outer/inner, C5 C6 right arm inner/outer, C7 C8 bottom arm inner/outer)")

    @staticmethod
    def make_rules(rules: str = "pysolfc", **extra: Any) -> WindmillRules:
        if extra:
            raise ValueError(f"Windmill has no option {', '.join(sorted(extra))} (use --rules {'|'.join(PRESETS)})")
        rules = str(rules).strip().lower()
        if rules not in PRESETS:
            raise ValueError(f"unknown Windmill rules {rules!r}; choose from {', '.join(PRESETS)}")
        return WindmillRules(rules)

    @staticmethod
    def deal(seed: int, numbering: str, rules: WindmillRules):
        if rules.preset == "welford":
            return _welford().deal(seed, numbering, rules)
        from .deals import windmill_deal
        return windmill_deal(seed, numbering)

    @staticmethod
    def load_deal(path, rules: WindmillRules):
        if rules.preset == "welford":
            return _welford().load_deal(path, rules)
        from .dealfile import load_deal
        return load_deal(path)

    @staticmethod
    def deal_to_json(position) -> dict:
        if _is_welford(position):
            return _welford().deal_to_json(position)
        from .dealfile import position_to_json
        return position_to_json(position)

    @staticmethod
    def render(position) -> str:
        if _is_welford(position):
            return _welford().render(position)
        from .board import render
        return render(position)

    @staticmethod
    def searcher(position, rules: WindmillRules, tt_mb: float, slot: str = "main"):
        if rules.preset == "welford":
            return _welford().searcher(position, rules, tt_mb, slot=slot)
        from .searcher import WindmillSearch
        return WindmillSearch(position, rules, tt_mb, slot=slot)

    @staticmethod
    def twin(position, rules: WindmillRules, tt_mb: float):
        """The search run alongside the main one (search.drive): Luby restarts in
        shuffled move orders (searcher.restarts, welford_searcher.restarts)."""
        if rules.preset == "welford":
            return _welford().twin(position, rules, tt_mb)
        from .searcher import restarts
        return restarts(position, rules, tt_mb)

    @staticmethod
    def foundation_cards(position) -> int:
        """Cards on the centre (its base Ace included) and the king piles."""
        if _is_welford(position):
            return _welford().foundation_cards(position)
        return position.on_foundations()

    @staticmethod
    def total_cards(position) -> int:
        """Every card of the deal, wherever it lies."""
        if _is_welford(position):
            return _welford().total_cards(position)
        return (position.on_foundations() + sum(c is not None for c in position.cells) + len(position.stock)
                + len(position.waste))

    @staticmethod
    def verify(position, rules: WindmillRules, moves: list[Move]) -> None:
        """Raise ReplayError unless the moves win from position."""
        if rules.preset == "welford":
            return _welford().verify(position, rules, moves)
        from .reference import verify_win
        verify_win(position, rules, moves)

    @staticmethod
    def positions(position, rules: WindmillRules, moves: list[Move]):
        """The position after each move (reference engine), for --show."""
        if rules.preset == "welford":
            yield from _welford().positions(position, rules, moves)
            return
        from .reference import apply_move
        for move in moves:
            position = apply_move(position, rules, move)
            yield position
