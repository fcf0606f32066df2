"""An exact pushdown solver for Windmill (presets pysolfc and strict): won, lost or unknown.

**The model.**  Under both presets the waste is touched only at its top: a turn pushes
the next stock card, and a play from the waste or a cell's refill pops the top (the
reference engine's ``apply_move``/``_refill``).  A position is therefore a *control*
and a *stack*: the control is (i = stock cards turned, strict's flag, the foundations,
the cells' contents), the stack is the waste.  A *frame* is the time a card y spends
on the waste top: from the moment y is pushed (or exposed) with control d until y is
popped.  While y is on top nothing below y is read or changed, so what can happen in
the frame depends on (y, d) alone: ``exits(y, d)``, the set of controls right after
some move pops y (a play of y, or a cell play whose refill takes y), is a *summary*
valid under every waste below y.  Summaries never hold a waste: the solver stores
controls and frame summaries, never a stack.

Within a frame with y on top at control c the moves are: a transfer between
foundations (c -> c', y stays on top); a play of y or a cell play refilled by y (an
exit); a turn, which pushes z = stock[i] and enters the frame (z, c + turn), whose every
exit e is again a control with y on top (y is below z, so no automatic turn).  When the
bottom card of the waste is popped at control e the game itself turns a stock card if
the stock is not empty (``_refill``: an empty waste takes a stock card): that starts the
frame (stock[e.i], e + turn); with an empty stock the waste stays empty and only
transfers and cell plays without refill remain (the bottom level).  A game is won
only at the bottom level (every card on the foundations means an empty waste, stock
and cells).  The initial waste's cards are frames entered when the card above them is
popped; a stock card's frame is entered by a turn.

**Theorem (exactness).**  ``decide`` says won iff the reference engine's position is
winnable, and lost iff it is not (when no limit stops it).  Proof: (a) the summary of
(y, d) is exactly the set of controls after y's pops on the reference engine's paths
that start at a position with control d and y on top, whatever lies below y, by
induction on the stock cards left (the frame calls of a frame have a strictly larger
stock index i, which never decreases, so the recursion is well founded): a path of the
engine with y on top is a sequence of transfers (read: foundations, flag), turns
followed by a sub-path until the pushed card is popped (by induction its end control is
in that frame's summary, and conversely every summary element is reached by such a
sub-path, which leaves the waste below the pushed card unchanged), and finally the pop
of y, whose result reads only y, the cells and the foundations; the frame's depth-first
search enumerates exactly these steps from d.  (b) The top level walks the same steps
with the initial waste's cards, the automatic turn and the bottom level, and stops with
won at a bottom control whose foundations are complete.  Every step it takes is a
legal move sequence, so won is reachable iff it finds it, and when its walk and every
frame's search end without it, the whole (finite) reachable space has been enumerated:
lost, proof "pushdown-exhausted".

**Exact reductions (controls are equivalence classes of positions).**

* Ranks only.  ``why_illegal`` reads a card's rank only (centre: rank one above the
  top's, an Ace after an R; king pile: one below, an R on an empty pile; strict's
  flag reads where a card came from, not its suit) and ``apply_move`` moves cards
  without reading them; ``is_won`` reads lengths.  So replacing every card by its rank
  maps each legal move to a legal move with the same source and target and commutes
  with it, and a winning line lifts back move for move: suits do not change the
  verdict.  (Foundations therefore reduce to lengths: a centre of n cards holds ranks
  1..R cyclically, a king pile of L cards holds R .. R-L+1.)
* King piles as a sorted multiset of lengths.  The rules treat the four piles alike
  (any R starts any empty one; the same building and transfer rules on each), so a
  permutation of the piles maps positions to positions, moves to moves and wins to
  wins.  A king pile to king pile transfer moves the top of a pile of L cards onto a
  pile of L - 1 (rank R - L + 1 needs a pile whose next rank is that: L - 1 cards),
  giving lengths L - 1 and L: the same multiset, so that move is a self-loop of the
  class and is not generated.
* Cells as a sorted multiset of ranks.  The cells are alike as well (a play from any of
  them is legal under the same rule, and the refill fills the cell that was emptied).
* pysolfc: foundations linked by transfers are one class.  There a king pile's top may
  go to the centre (its rank R - L + 1 is the centre's next rank) and the centre's top
  (not its base Ace) to a king pile that takes it, at any time; each undoes the other
  (after the first the moved card is the centre's top and the pile's next rank is its
  rank again, and conversely), and neither touches the waste, stock, cells or flag
  (always false in pysolfc).  So two positions equal but for foundations in one
  component of the transfer graph reach each other, have the same reachable positions
  and the same verdict, and the search may take them as one node whose moves are the
  plays of all its members (transfers stay inside).  The complete foundations are a
  class of their own (no transfer applies to them), so "won" is still a class test.
  Strict's transfers are one-way (king pile to centre only, then the flag), so there
  each foundation configuration is its own class and the transfers are moves.

Reconstruction: a won verdict re-runs the frame searches along the winning path with
parent links (the summaries make that cheap), gives the sequence of controls after
every move, and turns each into the reference engine's moves whose result has that
control (pysolfc: transfers inside the class first, found breadth first; then one move.
The control and the previous position determine the next waste: same stock index means
the waste lost its top or nothing; one more means a turn, or an automatic turn after
the last card left, which differ in the waste's length).  The line is then replayed by
``reference.verify_win``.

Welford (not supported here, another module): its first pass is a pushdown in the same
way (its control would also need the pack being dealt, the centre's first-pack limit
and the refill-before-play phase), but its one redeal turns the waste over into the
stock, so the second pass reads the waste from bottom to top: the waste at the redeal
becomes a queue and summaries alone cannot describe it.  An exact extension would
enumerate the wastes reachable at the redeal (as the explicit search does) or decide
the second pass per frame path; neither is done here.

Packed control (a Python int; ``i`` in the low bits so a turn is ``c + 1``):

    | bits          | field                                                    |
    |---------------|----------------------------------------------------------|
    | 0..6          | i: stock cards turned so far (0..len(stock))             |
    | 7             | strict's flag: the last centre card came from a king pile|
    | 8..13         | n: centre length, its base Ace included (1..4R)          |
    | 14..29        | the 4 king-pile lengths (0..R), sorted, 4 bits each      |
    | 30..30+4C-1   | the C cells' ranks (0 empty), sorted, 4 bits each        |

Bits 7..29 are the foundation part F (pysolfc: its class representative, the least
part of the class; moves cached per F), bits 30.. the cell part.
"""

from __future__ import annotations

import sys
import time
from array import array
from dataclasses import dataclass, field

from solver.core.moves import Move
from solver.games.windmill import reference as ref
from solver.games.windmill.position import WindmillPosition, WindmillRules

PROOF = "pushdown-exhausted"
F_SHIFT, CELL_SHIFT = 7, 30
I_MASK, F_MASK = (1 << 7) - 1, (1 << 23) - 1


class _Stop(Exception):
    """A limit was reached (its name in args[0])."""


@dataclass
class PushdownLimits:
    """Caps: seconds of search, controls stored (summary entries + their exits + top-level
    nodes), None = no cap."""

    timeout: float | None = None
    max_states: int | None = None


@dataclass
class PushdownResult:
    verdict: str  # won, lost or unknown
    reason: str | None  # unknown: "time-limit" or "state-limit"
    proof: str | None  # lost: PROOF
    line: list[Move]
    seconds: float
    nodes: int  # controls expanded (frame and top-level searches)
    stored: int  # summary entries + exits stored + top-level nodes at the end
    stats: dict = field(default_factory=dict)


def _f_pack(flag: int, n: int, ks) -> int:
    ks = sorted(ks)
    return flag | n << 1 | ks[0] << 7 | ks[1] << 11 | ks[2] << 15 | ks[3] << 19


def _f_unpack(f: int):
    return f & 1, (f >> 1) & 63, [(f >> s) & 15 for s in (7, 11, 15, 19)]


def _c_pack(cells) -> int:
    v = 0
    for k, r in enumerate(sorted(cells)):
        v |= r << (4 * k)
    return v


class _Solver:
    def __init__(self, position: WindmillPosition, rules: WindmillRules, limits: PushdownLimits):
        self.R = position.ranks
        self.C = len(position.cells)
        self.strict = rules.strict
        self.S = [c.rank for c in reversed(position.stock)]  # S[j]: the j-th card turned
        self.nS = len(self.S)
        self.W0 = [c.rank for c in position.waste]
        self.limits = limits
        self.deadline = None if limits.timeout is None else time.perf_counter() + limits.timeout
        self.memo: dict[int, array] = {}  # stock-frame entry control -> its exits
        self.exits_stored = 0
        self.top_nodes = 0
        self.nodes = 0
        self.fcache: dict[int, tuple] = {}
        self.frep: dict[int, int] = {}  # foundation part -> its class representative
        self.fmembers: dict[int, list] = {}  # pysolfc: representative -> its class
        self.ccache: dict[int, tuple] = {}
        self.full_f = self.fclass(_f_pack(0, 4 * self.R, [self.R] * 4))

    # --------------------------------------------------------------- move tables

    def _raw_moves(self, f: int):
        """(plays, transfers) of the exact foundation part f: plays[x] = the parts after a
        card of rank x is played to the centre or a king pile; transfers = the parts
        after one transfer between foundations (king pile to king pile excluded: a
        self-loop of the sorted lengths)."""
        R, strict = self.R, self.strict
        flag, n, ks = _f_unpack(f)
        want = n % R + 1 if n < 4 * R else 0
        plays: list[list[int]] = [[] for _ in range(R + 1)]
        if want:
            plays[want].append(_f_pack(0, n + 1, ks))
        transfers = []
        for k in range(4):
            L = ks[k]
            if k and ks[k - 1] == L:
                continue  # interchangeable with pile k - 1
            if L < R:
                plays[R - L].append(_f_pack(flag, n, ks[:k] + [L + 1] + ks[k + 1:]))  # rank R when L == 0
            if L > 0 and want and R - L + 1 == want:
                if not strict:
                    transfers.append(_f_pack(0, n + 1, ks[:k] + [L - 1] + ks[k + 1:]))
                elif L >= 2 and not flag:
                    transfers.append(_f_pack(1, n + 1, ks[:k] + [L - 1] + ks[k + 1:]))
            if not strict and n > 1 and L < R and (n - 1) % R + 1 == R - L:
                transfers.append(_f_pack(0, n - 1, ks[:k] + [L + 1] + ks[k + 1:]))
        return plays, transfers

    def fclass(self, f: int) -> int:
        """The representative of f's class: pysolfc, the least part of f's component under
        transfers (they are reversible there, see the module doc); strict, f itself."""
        rep = self.frep.get(f)
        if rep is None:
            if self.strict:
                rep = f
                self.frep[f] = rep
            else:
                comp, todo = {f}, [f]
                while todo:
                    for g in self._raw_moves(todo.pop())[1]:
                        if g not in comp:
                            comp.add(g)
                            todo.append(g)
                rep = min(comp)
                for g in comp:
                    self.frep[g] = rep
                self.fmembers[rep] = sorted(comp)
        return rep

    def _fmoves(self, f: int):
        """(plays, transfers) of the class with representative f, as representatives:
        pysolfc, the plays of every member and no transfers (they stay in the class);
        strict, f's own plays and transfers."""
        hit = self.fcache.get(f)
        if hit is not None:
            return hit
        R = self.R
        if self.strict:
            plays, transfers = self._raw_moves(f)
        else:
            plays = [[] for _ in range(R + 1)]
            for g in self.fmembers[f]:
                for x, ps in enumerate(self._raw_moves(g)[0]):
                    plays[x].extend(ps)
            transfers = []
        hit = (tuple(tuple(sorted({self.fclass(g) for g in p})) for p in plays),
               tuple(sorted({self.fclass(g) for g in transfers})))
        self.fcache[f] = hit
        return hit

    def _cswaps(self, cp: int, t: int):
        """(r, cell part after a card of rank r leaves and t (0: nothing) fills its cell)
        for each distinct rank r in cell part cp."""
        key = cp << 4 | t
        hit = self.ccache.get(key)
        if hit is not None:
            return hit
        cells = [(cp >> (4 * k)) & 15 for k in range(self.C)]
        out = []
        for r in sorted(set(cells)):
            if r:
                rest = list(cells)
                rest.remove(r)
                out.append((r, _c_pack(rest + [t])))
        hit = tuple(out)
        self.ccache[key] = hit
        return hit

    def _succ(self, c: int, t: int):
        """(transfers, pops) of control c with rank t on the waste top (t = 0: an empty
        waste, where a cell play leaves its cell empty)."""
        i = c & I_MASK
        f = (c >> F_SHIFT) & F_MASK
        cp = c >> CELL_SHIFT
        plays, transfers = self._fmoves(f)
        rest = i | cp << CELL_SHIFT
        inner = [rest | f2 << F_SHIFT for f2 in transfers]
        pops = []
        if t:
            pops.extend(rest | f2 << F_SHIFT for f2 in plays[t])
        for r, cp2 in self._cswaps(cp, t):
            p = plays[r]
            if p:
                base = i | cp2 << CELL_SHIFT
                pops.extend(base | f2 << F_SHIFT for f2 in p)
        return inner, pops

    # --------------------------------------------------------------- the search

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 4095 == 0:
            self._check()

    def _check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop("time-limit")
        ms = self.limits.max_states
        if ms is not None and self.stored() > ms:
            raise _Stop("state-limit")

    def stored(self) -> int:
        return len(self.memo) + self.exits_stored + self.top_nodes

    def stock_frame(self, entry: int) -> array:
        """The exits of the frame of stock card S[i - 1] pushed at control ``entry`` (i = entry's i)."""
        hit = self.memo.get(entry)
        if hit is None:
            hit = array("q", self.exits(self.S[(entry & I_MASK) - 1], entry))  # 8 bytes an exit
            self.memo[entry] = hit
            self.exits_stored += len(hit)
        return hit

    def exits(self, t: int, entry: int) -> set:
        """The exits of the frame of a card of rank t on top at control ``entry``: ``frame``
        without links, with ``_succ`` and the summary look-up inlined (the hot loop)."""
        seen = {entry}
        todo = [entry]
        out = set()
        add = out.add
        nS, memo, fcache, ccache = self.nS, self.memo, self.fcache, self.ccache
        while todo:
            c = todo.pop()
            self.nodes += 1
            if self.nodes & 4095 == 0:
                self._check()
            i = c & I_MASK
            f = (c >> F_SHIFT) & F_MASK
            cp = c >> CELL_SHIFT
            plays, transfers = fcache.get(f) or self._fmoves(f)
            rest = i | cp << CELL_SHIFT
            for f2 in transfers:
                x = rest | f2 << F_SHIFT
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
            for f2 in plays[t]:
                add(rest | f2 << F_SHIFT)
            for r, cp2 in ccache.get(cp << 4 | t) or self._cswaps(cp, t):
                p = plays[r]
                if p:
                    base = i | cp2 << CELL_SHIFT
                    for f2 in p:
                        add(base | f2 << F_SHIFT)
            if i < nS:
                hit = memo.get(c + 1)
                for x in (self.stock_frame(c + 1) if hit is None else hit):
                    if x not in seen:
                        seen.add(x)
                        todo.append(x)
        return out

    def frame(self, t: int, entry: int, parents: dict, target: int):
        """The search of ``exits`` again, with links (``parents``: node -> (previous node,
        None for a transfer or the entry of the frame called by a turn)): the node from
        which a pop gives ``target`` (to rebuild a winning line)."""
        parents[entry] = None
        todo = [entry]
        while todo:
            c = todo.pop()
            self._tick()
            inner, pops = self._succ(c, t)
            if target in pops:
                return c
            for x in inner:
                if x not in parents:
                    parents[x] = (c, None)
                    todo.append(x)
            if (c & I_MASK) < self.nS:
                for x in self.stock_frame(c + 1):
                    if x not in parents:
                        parents[x] = (c, c + 1)
                        todo.append(x)
        raise AssertionError("frame exit not found on re-run")

    def top_children(self, node):
        k, d = node
        if k >= 0:
            return [(k - 1, e) for e in self.exits(self.W0[k], d)]
        if (d & I_MASK) < self.nS:
            return [(-1, e) for e in self.stock_frame(d + 1)]
        inner, pops = self._succ(d, 0)
        return [(-1, e) for e in inner + pops]

    def won(self, node) -> bool:
        k, d = node
        return k < 0 and (d & I_MASK) == self.nS and (d >> F_SHIFT) & F_MASK == self.full_f

    def solve(self, start):
        """The winning top-level path (a list of nodes) or None when the space is exhausted."""
        parent = {start: None}
        todo = [start]
        while todo:
            node = todo.pop()
            self._tick()
            if self.won(node):
                path = []
                while node is not None:
                    path.append(node)
                    node = parent[node]
                return path[::-1]
            for x in self.top_children(node):
                if x not in parent:
                    parent[x] = node
                    self.top_nodes += 1
                    todo.append(x)
        return None

    # --------------------------------------------------------------- the line

    def frame_path(self, t: int, entry: int, target: int) -> list[int]:
        """Controls after each move of a path in the frame (rank t, ``entry``) ending with
        the pop that gives ``target`` (entry excluded, target included)."""
        parents: dict = {}
        c = self.frame(t, entry, parents, target)
        out = [target]
        while parents[c] is not None:
            p, call = parents[c]
            if call is None:
                out.append(c)
            else:
                out.extend(reversed(self.frame_path(self.S[(call & I_MASK) - 1], call, c)))
                out.append(call)
            c = p
        return out[::-1]

    def controls_of(self, path) -> list[int]:
        out: list[int] = []
        for node, nxt in zip(path, path[1:]):
            k, d = node
            if k >= 0:
                out.extend(self.frame_path(self.W0[k], d, nxt[1]))
            elif (d & I_MASK) < self.nS:
                out[-1] = d + 1  # the automatic turn after the waste's last card left
                out.extend(self.frame_path(self.S[d & I_MASK], d + 1, nxt[1]))
            else:
                out.append(nxt[1])
        return out

    def control(self, p: WindmillPosition) -> int:
        """The packed control of a reference position."""
        i = self.nS - len(p.stock)
        f = self.fclass(_f_pack(int(p.after_transfer), len(p.centre), [len(k) for k in p.kings]))
        return i | f << F_SHIFT | _c_pack([0 if c is None else c.rank for c in p.cells]) << CELL_SHIFT

    def stats(self) -> dict:
        per_i: dict[int, int] = {}
        fclasses: dict[int, set] = {}
        for e in self.memo:
            i = e & I_MASK
            per_i[i] = per_i.get(i, 0) + 1
            fclasses.setdefault(i, set()).add((e >> F_SHIFT) & F_MASK)
        return {"entries": len(self.memo), "exits": self.exits_stored, "top_nodes": self.top_nodes,
                "entries_per_i": dict(sorted(per_i.items())),
                "foundation_classes_per_i": {i: len(s) for i, s in sorted(fclasses.items())},
                "foundation_classes": len(self.fcache),
                "largest_foundation_class": max((len(m) for m in self.fmembers.values()), default=1)}


FOUNDATIONS = ("centre", *ref.KING_NAMES)


def _step(p: WindmillPosition, rules: WindmillRules, want: int, solver: _Solver):
    """(moves, position): pysolfc, transfers inside p's foundation class (breadth first)
    and then one move whose result has control ``want``; strict, that one move."""
    seen = {(len(p.centre), tuple(sorted(len(k) for k in p.kings)))}
    todo = [(p, [])]
    for q, line in todo:
        for m in ref.legal_moves(q, rules):
            r = ref.apply_move(q, rules, m)
            if solver.control(r) == want:
                return line + [m], r
            if not rules.strict and m.src in FOUNDATIONS and m.dst in FOUNDATIONS:
                key = (len(r.centre), tuple(sorted(len(k) for k in r.kings)))
                if key not in seen:
                    seen.add(key)
                    todo.append((r, line + [m]))
    raise AssertionError(f"no move reaches control {want:#x}")


def line_of(position: WindmillPosition, rules: WindmillRules, controls: list[int], solver: _Solver) -> list[Move]:
    """The reference engine's moves whose results have the given controls, one by one."""
    moves: list[Move] = []
    p = position
    for want in controls:
        line, p = _step(p, rules, want, solver)
        moves.extend(line)
    return moves


def decide(position: WindmillPosition, rules: WindmillRules, limits: PushdownLimits | None = None) -> PushdownResult:
    """Decide ``position`` under ``rules`` (pysolfc or strict) exactly (module doc)."""
    if rules.preset not in ("pysolfc", "strict"):
        raise ValueError(f"the pushdown solver plays the pysolfc and strict presets, not {rules.preset!r}")
    position.validate()
    limits = limits or PushdownLimits()
    t0 = time.perf_counter()
    s = _Solver(position, rules, limits)
    d0 = s.control(position)
    start = (len(s.W0) - 1, d0) if s.W0 else (-1, d0)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20 * (s.nS + len(s.W0)) + 1000))
    try:
        path = s.solve(start)
    except _Stop as stop:
        return PushdownResult("unknown", stop.args[0], None, [], time.perf_counter() - t0, s.nodes, s.stored(),
                              s.stats())
    finally:
        sys.setrecursionlimit(old)
    if path is None:
        return PushdownResult("lost", None, PROOF, [], time.perf_counter() - t0, s.nodes, s.stored(), s.stats())
    sys.setrecursionlimit(max(old, 20 * (s.nS + len(s.W0)) + 1000))
    try:
        s.deadline = None
        line = line_of(position, rules, s.controls_of(path), s)
    finally:
        sys.setrecursionlimit(old)
    ref.verify_win(position, rules, line)
    return PushdownResult("won", None, None, line, time.perf_counter() - t0, s.nodes, s.stored(), s.stats())
