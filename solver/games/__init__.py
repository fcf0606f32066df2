"""The game registry: canonical names and aliases to game adapters."""

from __future__ import annotations


class UnknownGame(ValueError):
    pass


# registry key -> adapter class ("module:Class"), imported on first use (an adapter's
# game.py imports no numba, its searcher does): each game under its own name, and each
# preset that has a folder of its own (variants.VARIANTS names it in its row).  The
# adapters import variants.py, never this registry (tests/test_imports.py reads these
# names as imports).
ADAPTERS = {
    "klondike": "solver.games.klondike.game:Klondike",
    "beleaguered-castle": "solver.games.beleaguered_castle.game:BeleagueredCastle",
    "windmill": "solver.games.windmill.game:Windmill",
    "windmill-welford": "solver.games.windmill_welford.game:WindmillWelford",
    "great-wheel": "solver.games.great_wheel.game:GreatWheel",
}


def _registry() -> dict:
    """Registry key -> adapter class, for every adapter of ADAPTERS."""
    import importlib

    out = {}
    for key, where in ADAPTERS.items():
        module, cls = where.split(":")
        out[key] = getattr(importlib.import_module(module), cls)
    return out


def game_names() -> list[str]:
    """The games: the names results, deal files and the database record."""
    from .variants import VARIANTS

    return sorted({v.game for v in VARIANTS})


def get_game(name: str):
    """A game's adapter (the one of its default rules) by name or alias, or an adapter
    by its registry key (``windmill-welford``: Windmill's welford preset)."""
    games = _registry()
    key = name.strip().lower().replace("_", "-")
    if key in games:
        return games[key]
    for game in game_names():
        if key in games[game].aliases:
            return games[game]
    raise UnknownGame(f"unknown game {name!r}; choose from {', '.join(game_names())}")


def adapter_for(game: str, rules) -> type:
    """The adapter that plays ``rules`` of ``game``: the one the preset's row of
    variants.VARIANTS names (a preset with a folder of its own), else the game's own."""
    from .variants import adapter_key

    return _registry()[adapter_key(game, rules.to_json().get("rules"))]
