"""Windmill, John Welford's rules (``--rules welford``): the adapter that plays that
preset (its row in variants.VARIANTS names this adapter, registry key
``windmill-welford``).  It records itself as game ``windmill`` with rules
``{"rules": "welford"}``, as results, deal files and the database always have.

Rule text: John Welford's "How to play Windmill"; docs/games.md sets out the rules as
played here and where the text is silent.  Module map: position.py (positions, validate),
deals.py (numbering), dealfile.py, reference.py (the rules, the judge),
kernel.py (numba search), codec.py, searcher.py, board.py.

Piles: ``centre``; ``K1``..``K4`` (king piles); ``C1``..``C4`` the inner and ``C5``..``C8``
the outer cells of sails 1..4 (north, east, south, west); ``stock``, ``waste``.

A player's move list (each item a solver.core.moves.Move):
- ``C5 -> centre`` / ``waste -> K2`` / ``K3 -> centre``: one card played;
- ``stock -> C1``, ``stock -> C5``, ...: the cards of one refill, in refill order (inner
  cells of sails 1..4, then outer cells of sails 1..4; all gaps, or until the stock is
  empty); nothing else may come between them;
- ``stock -> waste`` (count 1): turn the next card onto the waste; only when no gap is
  left in the sails;
- ``waste -> stock`` (count 0): turn the waste over, once, when the stock is empty.

Decisions where Welford's text is silent (tested in tests/test_windmill_welford_*.py):
- sails are refilled in sail order 1..4, all inner gaps before all outer gaps, one
  stock card per gap (the text fixes only "inner before outer");
- the refill is one act: once begun, every gap is filled (while the stock lasts)
  before anything else is played; a card may be turned to the waste only when no gap
  could be filled; the player chooses when to refill;
- the Queen cap ("during your first deal") holds while the stock still holds a card of
  pack 1; it is lifted as soon as pack 1's last card has been dealt (to the waste or to
  a sail);
- during the extra pass, gaps are filled from the stock (the turned-over waste) as in
  the first; the waste is turned over so its first card comes out first again;
- no card is turned to the waste at the deal; cards on king piles never move to other
  king piles; a King on a king pile never goes to the centre ("any card (except a king)
  that has been played to a king pile"); sail priority: a king-pile card may not go to
  the centre while a sail's top card could go there;
- deals: see deals.py (PySolFC's generator; pack 1 less its Ace of Clubs, then pack
  2 with the generator continuing).

Search (kernel.py, searcher.py): exact 24-byte keys (suits and the order of
the king piles left out: proven symmetries), no forced or safe moves.  A DFS in
ordering 0 runs to the end; beside it (search.drive's twin) runs a sequence of
restarted searches with Luby budgets, each from scratch with a cleared table and
another ordering with shuffled ties; "lost" comes only from a search that exhausted
the space.
"""

from __future__ import annotations

from typing import Any

from ..base import GameAdapter
from ..windmill.position import WindmillRules, make_rules as windmill_rules
from . import board, dealfile, reference
from .deals import NUMBERINGS, welford_deal
from .position import WelfordPosition
from ...core.errors import NAME, OptionError

PRESET = "welford"


class WindmillWelford(GameAdapter):
    name = "windmill"  # the game whose preset it plays
    presets = (PRESET,)  # the one rule set it plays
    numberings = NUMBERINGS
    piles_doc = ("centre, K1..K4 (king piles), C1..C4 inner and C5..C8 outer cells of sails 1..4 "
                 "(N, E, S, W), stock, waste")
    reference = reference
    reference_takes_rules = False  # one rule set
    dealfile, board = dealfile, board
    search = "solver.games.windmill_welford.searcher:WelfordSearch"

    @staticmethod
    def make_rules(rules: str | None = None, **extra: Any) -> WindmillRules:
        """Windmill's rules under this preset (the other presets are ``windmill``'s own)."""
        made = windmill_rules(rules=PRESET if rules is None else rules, **extra)
        if made.preset != PRESET:
            raise OptionError("rules", f"windmill-welford plays {NAME} {PRESET} only; for {made.preset}: "
                                       f"windmill {NAME} {made.preset}")
        return made

    @staticmethod
    def deal(seed: int, numbering: str, rules: Any) -> WelfordPosition:
        return welford_deal(seed, numbering)

    @classmethod
    def searcher(cls, position: WelfordPosition, rules: Any, slot: str = "main"):
        """Welford's search takes no rules (one rule set)."""
        return cls.search_class()(position, slot=slot)

    @staticmethod
    def twin(position: WelfordPosition, rules: Any):
        """Luby restarts in other orderings, each followed by a phase of randomized
        greedy playouts (searcher.restarts); its wins count, only the main search proves
        a loss."""
        from .searcher import restarts
        return restarts(position)

    @staticmethod
    def foundation_cards(position: WelfordPosition) -> int:
        """Cards on the centre and the king piles, completed ones included."""
        return position.cards_home()

    @staticmethod
    def total_cards(position: WelfordPosition) -> int:
        """Every card of the deal, wherever it lies."""
        return (position.cards_home() + sum(map(len, position.sails)) + len(position.stock)
                + len(position.waste))
