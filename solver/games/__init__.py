"""The game registry: canonical names and aliases to game adapters."""

from __future__ import annotations


class UnknownGame(ValueError):
    pass


class computed:
    """A class attribute computed when first read, so that importing a game adapter
    does not import its kernel (numba): ``workspace_mb = computed(lambda: ...)``."""

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, obj, owner):
        return self.fn()


def _registry() -> dict:
    """Canonical name -> adapter class, for every game of variants.ADAPTERS."""
    import importlib

    from .variants import ADAPTERS

    out = {}
    for name, where in ADAPTERS.items():
        module, cls = where.split(":")
        out[name] = getattr(importlib.import_module(module), cls)
    return out


def game_names() -> list[str]:
    return sorted(_registry())


def get_game(name: str):
    games = _registry()
    key = name.strip().lower().replace("_", "-")
    for game in games.values():
        if key == game.name or key in game.aliases:
            return game
    raise UnknownGame(f"unknown game {name!r}; choose from {', '.join(sorted(games))}")
