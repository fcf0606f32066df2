"""Every game and rule preset as a row of one table, and the rule options as data (a
new game adds its rows here, and its adapter to the registry, ``games/__init__.py``).

Pure data, imported without any game module: the command line builds its rule options
and its help from it, and ``patience games`` lists it.  Each game adapter reads its own
preset names and preset options from here (``presets_of``, ``preset_options``);
``tests/test_protocol.py`` checks that adapters and table agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import NAME, OptionError


@dataclass(frozen=True)
class Option:
    """A rule option, declared once: its ``make_rules`` keyword (and key in the rules'
    JSON), its command-line flag, the type of its values, its default (None: the option
    may be null, e.g. the default preset), help text, and the games that have it.

    The flag is parsed by the type (``bool``: a switch that sets the opposite of the
    default); an option with ``words`` (values besides the type's, as "unlimited"
    passes) takes text, which the game's ``make_rules`` reads.  The command line makes
    every command's flags from this table (``cli.rule_options``)."""

    name: str
    flag: str
    type: type
    default: Any
    help: str
    games: tuple[str, ...]
    metavar: str | None = None
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    """A game under one rule preset (``preset`` None: the game has no presets).  The
    first row of a game is its default.  ``pysolfc_game``: the PySolFC game number that
    plays these rules (deal numbers are shared), None if PySolFC has none;
    ``options``: the rule options the preset sets; ``adapter``: the registry key of the
    adapter that plays the preset when it is not the game's own (a preset with a game
    folder of its own)."""

    game: str
    preset: str | None
    summary: str
    pysolfc_game: int | None = None
    options: dict = field(default_factory=dict)
    adapter: str | None = None


VARIANTS = (
    Variant("klondike", "standard", "draw 1, unlimited passes", 2),
    Variant("klondike", "by-threes", "draw 3, unlimited passes", 18, {"draw": 3}),
    Variant("klondike", "vegas", "draw 1, one pass", 129, {"passes": 1}),
    Variant("klondike", "casino", "draw 1, three passes", 61, {"passes": 3}),
    Variant("beleaguered-castle", None, "Aces out, build down regardless of suit, no stock", 34),
    Variant("windmill", "pysolfc", "PySolFC's Windmill: foundation cards move between piles", 30),
    Variant("windmill", "strict", "only king pile to centre transfers, never two in a row", None),
    Variant("windmill", "welford", "John Welford's rules: packs dealt in turn, one redeal", None,
            adapter="windmill-welford"),
    Variant("great-wheel", "pgs", "Pretty Good Solitaire's rules: foundation cards stay", None),
    Variant("great-wheel", "pysolfc", "PySolFC's Great Wheel: foundation tops return to the rows", 397),
)


OPTIONS = (
    Option("draw", "--draw", int, 1, "cards turned per draw (default 1)", ("klondike",), "K"),
    Option("passes", "--passes", int, None, "passes through the stock (default unlimited)", ("klondike",),
           "N|unlimited", ("unlimited",)),
    Option("worry_back", "--no-worry-back", bool, True, "foundation cards never return to the tableau",
           ("klondike",)),
    # the games with presets have --rules
    Option("rules", "--rules", str, None, "rule preset", tuple(dict.fromkeys(v.game for v in VARIANTS if v.preset)),
           "NAME"),
)

def adapter_key(game: str, preset: str | None) -> str:
    """The registry key of the adapter that plays ``preset`` of ``game`` (the game's own
    unless the preset's row names another)."""
    return next((v.adapter for v in VARIANTS if v.game == game and v.preset == preset and v.adapter), game)


def from_pysolfc_id(game: str, options: dict) -> tuple[str, dict]:
    """GAME given as a PySolFC game id (``patience games`` lists them; not a deal
    number, which PySolFC also calls a game number): our game and the preset that
    plays PySolFC's rules, as if given with option "rules" (rule options beside it refine
    it; another preset is refused with OptionError).  Any other GAME is unchanged."""
    text = game.strip()
    if not (text.isascii() and text.isdigit()):
        return game, options
    number = int(text)
    v = next((v for v in VARIANTS if v.pysolfc_game == number), None)
    if v is None:
        ours = ", ".join(f"{v.pysolfc_game} ({v.game}{f' {NAME} ' + v.preset if v.preset else ''})"
                         for v in VARIANTS if v.pysolfc_game)
        raise OptionError("rules", f"PySolFC game id {number} is not a game this solver plays; those are {ours}")
    if v.preset is None:
        return v.game, options
    if str(options.get("rules", v.preset)).strip().lower() != v.preset:
        raise OptionError("rules", f"PySolFC game id {number} is {v.game} {NAME} {v.preset}; "
                                   f"it cannot go with {NAME} {options['rules']}")
    return v.game, {**options, "rules": v.preset}


def presets_of(game: str) -> tuple[str, ...]:
    """A game's presets, the default first (() for a game without presets)."""
    return tuple(v.preset for v in VARIANTS if v.game == game and v.preset is not None)


def preset_options(game: str) -> dict[str, dict]:
    """The options each preset of a game sets."""
    return {v.preset: dict(v.options) for v in VARIANTS if v.game == game and v.preset is not None}


def options_of(game: str) -> tuple[str, ...]:
    """The rule options a game has (``make_rules`` keywords), in table order."""
    return tuple(o.name for o in OPTIONS if game in o.games)


def option(name: str) -> Option:
    """The row of rule option ``name``."""
    return next(o for o in OPTIONS if o.name == name)


def accepts(name: str, value: Any) -> bool:
    """Whether ``value`` is a value of option ``name`` as data (JSON): of its type (a
    bool is never a number), one of its words, or None for an option that may be null."""
    o = option(name)
    if value is None:
        return o.default is None
    if isinstance(value, str) and value in o.words:
        return True
    return isinstance(value, o.type) and (o.type is bool or not isinstance(value, bool))


def flag(name: str) -> str:
    """The command-line flag of a rule option (its keyword if none)."""
    return next((o.flag for o in OPTIONS if o.name == name), name)


def option_help(name: str) -> str:
    """An option's help line: the games that have it, and what it does (for rules, the
    presets of each game)."""
    o = option(name)
    if name == "rules":
        games = sorted({v.game for v in VARIANTS if v.preset is not None})
        return "Rule preset: " + "; ".join(f"{g} {'|'.join(presets_of(g))}" for g in games) + "."
    return f"{', '.join(g.capitalize() for g in o.games)}: {o.help}."
