"""Rank projections of Windmill (pysolfc and strict): a relaxed game on fewer ranks whose
loss proves the deal lost.

**The projection P_K(G)** onto a set K of kept ranks (1 in K: the centre's base Ace is
a rule of the game; strict also needs R in K, see below).  Every card whose rank is not
in K is taken off the foundations and becomes a *blank* where it lies (cell, waste,
stock); kept ranks are renumbered 1..k in order (k = |K|), so the centre is built
1..k four times and a king pile k..1.  The projected game has the real rules plus one
move: a blank on a cell or on the waste top may be *discarded* at any time (the
game's refills follow as after a play; under strict a discard clears the flag).  It is
won when its foundations are complete (blanks left over can be discarded).

**Theorem (soundness).**  If G is winnable, so is P_K(G); so a lost projection proves G
lost.  Let f map a position of G to P_K's: blank out the dropped cards, keep the kept
ones on the foundations in order.  Take a winning line of G and map each move:
a move of a dropped card from a cell or the waste top becomes the discard of its
blank; a move of a dropped card between foundations, nothing; every other move, itself.
By induction f(position) equals the projected position after every step (strict: up to
the flag, the projection's flag being false whenever G's is, which only permits more):
* the cells, waste and stock hold the same cards in the same places (blanks for
  dropped ones), and a discard empties the same place as the real move, so the refills
  and automatic turns are the same;
* centre: G plays rank r (kept) on a centre whose top has rank t, r = t + 1 or an Ace
  after R.  The projection's top is the last kept rank t* <= t of the current round
  (there is one: 1 is kept), and every rank in (t*, t] is dropped, so its next rank is
  the next kept rank after t*, which is r; at an R it is an Ace in both.  Dropping
  cards never makes a round full early, so the length cap holds too;
* king pile: G plays rank r (kept) on a pile whose next rank is r; the pile's ranks
  above r that are kept are all in the projection, and the ranks between r and its
  kept top are dropped, so the projection wants r as well; if all of the pile's ranks
  are dropped (or it is empty) the projected pile is empty and r is the largest kept
  rank, which an empty projected pile takes;
* transfers of a kept card (pysolfc: a king-pile top to the centre or to a pile, the
  centre's top to a pile): the card is the projected source's top too, the target
  takes it by the two points above, and the projected centre keeps its base Ace (the
  card moved is not the base and both are kept).  Strict: a king-pile card that is not
  its pile's base R moves to the centre; R is kept, so the projected pile has R below
  it too, and the projection's flag is false whenever G's is (a play from a cell or
  the waste clears both, a discard clears the projection's, a transfer of a dropped
  card sets G's only);
* the last position of G has full foundations, so the projection's has.

**Why not simply delete the dropped cards** (the cells refilled from the waste): then
the cells hold other cards than in G, and which card sits on the waste top, where the
next turn buries it, changes.  ``DELETION_COUNTEREXAMPLE`` is a position (8 ranks,
2 cells) that is won while its deletion of rank 2 is lost (both presets, the
reference's exhaustive search): G parks a stock card in the cell that the 2 leaves,
and the deletion has buried that card under a later turn.  Blanks keep G's places.

**Why not the Ace, and R under strict**: the centre's base Ace is part of every
position; and strict forbids moving a pile's base R, so with R dropped a card that sits
just above it would be the projected pile's base and could not move as it did in G.
For a strict deal the pysolfc projection is also a proof (strict's moves are pysolfc
moves), and there R may be dropped.

**Deciding a projection**: the exact pushdown solver (pushdown.py) with one more rank
code for the blank (``_BlankSolver``): a discard is a play that leaves the foundations
as they are (clearing strict's flag), so its frame summaries and its exactness argument
carry over unchanged.  Few kept ranks make both of its large factors small: the cells'
multisets are over k + 1 symbols and the foundation classes over k ranks.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from solver.core.cards import Card
from research.windmill import pushdown as pd
from solver.games.windmill.position import WindmillPosition, WindmillRules

PROOF = "rank-projection"

# Won (both presets) while its deletion of rank 2 is lost: the module doc, and the test
# that a deletion projection is caught.  Deal-file JSON (piles bottom to top).
DELETION_COUNTEREXAMPLE = {
    "stock": ["3D", "5D", "4D"], "waste": ["7D", "6D"], "cells": ["8D", "2D"],
    "centre": [f"{'A2345678'[j % 8]}{'CSHD'[j // 8]}" for j in range(25)],
    "king piles": [[f"{'A2345678'[8 - 1 - j]}{s}" for j in range(8)] for s in "CSHD"], "ranks": 8}


def deletion(position: WindmillPosition, keep: tuple[int, ...]) -> WindmillPosition:
    """The issue's deletion projection, which is NOT sound (see DELETION_COUNTEREXAMPLE):
    the cards of ranks not in ``keep`` deleted, kept ranks renumbered, the emptied cells
    refilled from the waste (the stock turned when the waste is empty).  Kept for the
    counterexample, the tests that catch it and the study of a sound variant."""
    new = {r: i + 1 for i, r in enumerate(keep)}

    def f(cards):
        return [Card(new[c.rank], c.suit) for c in cards if c is not None and c.rank in new]
    q = WindmillPosition(f(position.stock), f(position.waste),
                         [c if c is None else (f([c]) or [None])[0] for c in position.cells],
                         f(position.centre), [f(k) for k in position.kings], len(keep), False)
    for i in range(len(q.cells)):
        if q.cells[i] is None:
            if not q.waste and q.stock:
                q.waste.append(q.stock.pop())
            if q.waste:
                q.cells[i] = q.waste.pop()
    if not q.waste and q.stock:
        q.waste.append(q.stock.pop())
    q.validate()
    return q


@dataclass(frozen=True)
class Projection:
    """The ranks kept (sorted, 1 first) and the rules the projection is played under."""

    keep: tuple[int, ...]
    preset: str

    def __post_init__(self) -> None:
        if not self.keep or self.keep[0] != 1 or list(self.keep) != sorted(set(self.keep)):
            raise ValueError(f"a projection keeps the Ace and distinct ranks in order, not {self.keep}")


def check_projection(ranks: int, proj: Projection) -> None:
    """Raise ValueError unless ``proj`` is a sound projection of a game of ``ranks`` ranks."""
    if proj.keep[-1] > ranks:
        raise ValueError(f"rank {proj.keep[-1]} is not in a game of {ranks} ranks")
    if proj.preset == "strict" and proj.keep[-1] != ranks:
        raise ValueError("a strict projection keeps the top rank (its base King never leaves)")
    if proj.preset not in ("pysolfc", "strict"):
        raise ValueError(f"no projection of the {proj.preset!r} rules")


def project(position: WindmillPosition, proj: Projection):
    """The projected position: ``ranks`` = k, kept cards renumbered, blanks (rank k + 1)
    where dropped cards lie off the foundations.  A plain namespace, not a
    WindmillPosition: blanks are not cards of the projected deck."""
    check_projection(position.ranks, proj)
    new = {r: i + 1 for i, r in enumerate(proj.keep)}
    blank = len(proj.keep) + 1

    def rank(c):
        return None if c is None else new.get(c.rank, blank)

    return SimpleNamespace(
        ranks=len(proj.keep), blank=blank,
        stock=[rank(c) for c in position.stock], waste=[rank(c) for c in position.waste],
        cells=[rank(c) for c in position.cells],
        centre=[new[c.rank] for c in position.centre if c.rank in new],
        kings=[[new[c.rank] for c in k if c.rank in new] for k in position.kings],
        after_transfer=position.after_transfer and proj.preset == "strict")


class _Ranks:
    """A card stand-in for the pushdown solver, which reads ``.rank`` only."""

    __slots__ = ("rank",)

    def __init__(self, rank: int):
        self.rank = rank


class _BlankSolver(pd._Solver):
    """The pushdown solver of a projected position: rank code ``blank`` is discardable."""

    def __init__(self, q, rules: WindmillRules, limits: pd.PushdownLimits):
        self.blank = q.blank
        wrap = SimpleNamespace(
            ranks=q.ranks, stock=[_Ranks(r) for r in q.stock], waste=[_Ranks(r) for r in q.waste],
            cells=[None if r is None else _Ranks(r) for r in q.cells])
        super().__init__(wrap, rules, limits)

    def _raw_moves(self, f: int):
        plays, transfers = super()._raw_moves(f)
        _, n, ks = pd._f_unpack(f)
        return plays + [[pd._f_pack(0, n, ks)]], transfers  # plays[blank]: a discard

    def _fmoves(self, f: int):
        hit = self.fcache.get(f)
        if hit is None:
            if self.strict:
                hit = super()._fmoves(f)
            else:  # the base method sizes plays by R; the blank is R + 1
                plays = [[] for _ in range(self.R + 2)]
                for g in self.fmembers[f]:
                    for x, ps in enumerate(self._raw_moves(g)[0]):
                        plays[x].extend(ps)
                hit = (tuple(tuple(sorted({self.fclass(g) for g in p})) for p in plays), ())
                self.fcache[f] = hit
        return hit


@dataclass
class ProjectionResult:
    verdict: str  # won, lost or unknown (of the projected game)
    reason: str | None
    seconds: float
    nodes: int
    stored: int
    stats: dict = field(default_factory=dict)


def decide_projected(q, rules: WindmillRules, limits: pd.PushdownLimits | None = None) -> ProjectionResult:
    """Decide a projected position (``project``) exactly with the pushdown solver."""
    limits = limits or pd.PushdownLimits()
    t0 = time.perf_counter()
    s = _BlankSolver(q, rules, limits)
    i = s.nS - len(q.stock)
    f = s.fclass(pd._f_pack(int(q.after_transfer), len(q.centre), [len(k) for k in q.kings]))
    d0 = i | f << pd.F_SHIFT | pd._c_pack([0 if c is None else c for c in q.cells]) << pd.CELL_SHIFT
    start = (len(s.W0) - 1, d0) if s.W0 else (-1, d0)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20 * (s.nS + len(s.W0)) + 1000))
    try:
        path = s.solve(start)
    except pd._Stop as stop:
        return ProjectionResult("unknown", stop.args[0], time.perf_counter() - t0, s.nodes, s.stored())
    finally:
        sys.setrecursionlimit(old)
    return ProjectionResult("lost" if path is None else "won", None, time.perf_counter() - t0, s.nodes,
                            s.stored(), {"entries": len(s.memo), "exits": s.exits_stored})


def decide(position: WindmillPosition, rules: WindmillRules, proj: Projection,
           limits: pd.PushdownLimits | None = None) -> ProjectionResult:
    """The verdict of ``position``'s projection ``proj`` (a lost one proves the position lost)."""
    if rules.preset not in ("pysolfc", "strict"):
        raise ValueError(f"rank projections play the pysolfc and strict presets, not {rules.preset!r}")
    if rules.preset == "pysolfc" and proj.preset == "strict":
        raise ValueError("a strict projection proves nothing about a pysolfc deal")
    position.validate()
    return decide_projected(project(position, proj), WindmillRules(proj.preset), limits)
