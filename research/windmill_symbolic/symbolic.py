"""An exact layered symbolic search for Windmill (pysolfc and strict), layers as BDDs.

A study (issue 31, part 1), outside the ``solver`` package until it proves something.
Library: CUDD through the ``dd`` package (``dd.cudd``; dd 0.6.0's wheel ships it
compiled, so no build step): the C kernel is needed, pure-Python ``dd.autoref`` is two to
three orders of magnitude slower on diagrams of 10^5+ nodes.

The abstract game (what the diagrams hold)
------------------------------------------
Fix a root position p0 (``WindmillPosition``) and let ``seq`` = ``codec.sequence(p0)``:
the N cards that reach the waste, in order (the root's waste bottom to top, then its
stock from the top).  A *symbolic state* is

    s = (t, m, c, k, h, f, o)

- t: layer, the number of cards of ``seq`` turned so far (p0's waste has t0 cards);
  the stock is ``seq[t:]``; t is not a variable, every diagram is one layer's;
- m: the waste as a mask over 0..t-1: the waste is ``[seq[i] for i in m]`` in that order
  (cards leave the waste only from its top, so it is always a subsequence of seq[:t]);
- c: the cells as counts per rank (c_r cards of rank r in the cells, sum <= ncells);
- k: the king piles as counts per rank: k_r = the number of king piles holding their
  rank-r card (pile length >= R-r+1).  Any 4 >= k_R >= k_{R-1} >= ... >= k_1 >= 0 is
  exactly one multiset of four pile lengths, and back;
- h: the centre's height (1..4R; its cards are ranks 1,2,..,R,1,.. in order);
- f: strict's ``after_transfer`` (always 0 under pysolfc);
- o: "hole": a cell has just been emptied and the game's refill from the waste top is
  due (an intermediate state, see below).

The map beta from a symbolic state with o = 0 to a *rank-level position*: waste ranks
``[rank(seq[i]) for i in m]``, stock ranks ``rank(seq[t:])``, the cell-rank multiset c,
centre height h, the king-length multiset given by k, flag f.  The rank-level game is
the reference game (``solver.games.windmill.reference``) with suits forgotten, cells
unordered and king piles unordered: no rule of ``why_illegal`` reads a suit, and the
cells (resp. king piles) are treated alike by every rule and by ``_refill`` (which cell
a refill fills does not matter once cells are unordered), so the reference game and the
rank-level game are bisimilar (a won position maps to a won one and back: won = centre
height 4R and four full king piles).

Transitions (``Model.relations``), each legal in the symbolic game iff its reference
move is legal in beta(s), and leading to beta of the reference result:

1. cell r -> centre: o = 0, c_r >= 1, h < 4R, h mod R + 1 = r (the centre takes rank
   h mod R + 1 next; an Ace on an R included): c_r -= 1, h += 1, strict f := 0;
   o := 1 if the waste is not empty (the refill is due), else (only when the stock is
   empty too: see the rule on empty wastes below) the cell stays empty, o := 0.
2. cell r -> a king pile: o = 0, c_r >= 1, some pile's top has rank r+1, i.e. some
   pile has length exactly R-r: k_{r+1} > k_r (r < R); for r = R some pile is empty:
   k_R < 4.  c_r -= 1, k_r += 1 (that pile now holds its rank-r card), o as in 1.
3. waste top -> centre / king pile: as 1 / 2 with the top's rank r = rank(seq[i]),
   i = max(m); m := m - {i}.
4. refill (the game's own follow-up, not a move): o = 1 and the waste's top i:
   m := m - {i}, c_{rank(seq[i])} += 1, o := 0.  The only transition out of a state
   with o = 1, so these states are only steps inside a move (reference ``_refill``).
5. pysolfc centre top -> king pile: o = 0, h >= 2 (the base Ace never leaves), the top
   has rank r0 = (h-1) mod R + 1, a pile takes it (as in 2): h -= 1, k_r0 += 1.
6. king top -> centre: o = 0, h < 4R, r = h mod R + 1, some pile's top has rank r,
   i.e. some pile has length exactly R-r+1: k_r > k_{r-1} (r > 1), k_1 > 0 (r = 1):
   k_r -= 1, h += 1.  strict: also r < R (a king pile's rank-R card is its base King,
   which strict never moves), f = 0, and f := 1.
7. pysolfc king top -> another king pile: moves the top of a pile of length R-r+1 onto
   a pile of length R-r (or a base King to an empty pile); the two lengths swap, the
   multiset of lengths, hence k, is unchanged: beta(s') = beta(s), a self-loop, omitted.
8. the turn (stock -> waste), layer t -> t+1: o = 0, m := m + {t}.
Empty waste: in the reference, a move that empties the waste turns the next stock card
at once (``_refill``).  Here such a move leaves a *pending* state (t < N, m empty, o = 0)
in layer t, whose only transition is the turn (every move of 1-6 requires a non-empty
waste when t < N: guard ``NE``), and the turn gives exactly the reference's result,
waste [seq[t]].  Pending and hole states are not positions; the layer's positions are
its states with o = 0 and (t = N or m non-empty).  When t = N (stock empty) an empty
waste is a real position: cells then are not refilled (rule 1's o := 0).
Won: t = N, h = 4R and k_r = 4 for every r (then every card is home).

Completeness and soundness: every reference move from a position P = beta(s) is one of
1-8 (``_candidate_moves``: the turn; a cell or the waste top to the centre or a king
pile; the centre top or a king top to the centre or a king pile; the same checks as
``why_illegal``, which the guards above restate in counts: a pile of length L takes
rank R-L, a pile's top has rank R-L+1), and its result, after the refill and the
automatic turn, is beta of the state that the matching transitions (plus 4 and 8 for the
game's follow-ups) reach; conversely each transition of 1-8 from s is a reference move
from P (or one of its forced follow-ups).  So a won state is reachable from the root's
state iff the reference game from p0 is won.  The layered search computes, for
t = t0..N, L_t = the closure of layer t's seed under 1-6 (a least fixpoint), and
seed_{t+1} = turn(L_t restricted to o = 0).  Every reachable state lies in the L_t of its
t (a turn is the only transition that changes t), so: won iff L_N holds a won state;
otherwise, with L_N closed, the deal is lost (proof ``symbolic``).

Checks (tests/test_windmill_symbolic.py): the verdict equals the exhaustive reference
verdict on the 1,369 golden small games (both presets); each layer's positions equal,
as a set of rank-level positions, those of an explicit breadth-first search through the
reference engine on small deals; each mutation of ``MUTATIONS`` is caught.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from dd import cudd

from solver.games.windmill.codec import sequence
from solver.games.windmill.position import WindmillPosition, WindmillRules

ORDERS = ("mask-first", "mask-first-ranks", "small-first", "mask-desc", "mask-first-hlast")
MUTATIONS = ("king-le", "centre-rank", "no-refill-hole", "transfer-base-ace", "strict-no-flag",
             "no-pending-guard", "refill-wrong-end")


def _bits(n: int) -> int:
    """Bits to hold 0..n."""
    return max(1, int(n).bit_length())


@dataclass
class LayerStat:
    t: int
    nodes: int          # the layer's diagram (all its states) node count
    states: float       # satisfying states of the layer's diagram (positions + pending/hole)
    positions: float    # states with o = 0 that are positions (t = N or waste not empty)
    iterations: int
    seconds: float
    peak_nodes: int = 0
    complete: bool = True  # False: the time limit cut this layer's closure short
    position_nodes: int = -1  # nodes of the diagram of the layer's positions only (o = 0, no pending state)


@dataclass
class Result:
    verdict: str                  # "won", "lost" or "unknown"
    layers: list = field(default_factory=list)
    reason: str = ""


class Model:
    """The symbolic game of one root position (module doc)."""

    def __init__(self, position: WindmillPosition, rules: WindmillRules, order: str = "mask-first",
                 mutation: str | None = None, memory_gb: float = 0.05, reorder: bool = False,
                 merge: bool = True):
        if order not in ORDERS:
            raise ValueError(order)
        if mutation is not None and mutation not in MUTATIONS:
            raise ValueError(mutation)
        self.position = position
        self.rules = rules
        self.strict = rules.strict
        self.mutation = mutation
        self.merge = merge
        self.R = R = position.ranks
        self.C = C = len(position.cells)
        self.seq = sequence(position)
        self.srank = [c.rank for c in self.seq]
        self.N = len(self.seq)
        self.t0 = len(position.waste)
        self.bdd = b = cudd.BDD(memory_estimate=int(memory_gb * 2**30))
        b.configure(reordering=reorder)
        # fields: name -> (list of bit names MSB first, max value)
        self.fields: dict[str, tuple[list[str], int]] = {}
        cw, kw, hw = _bits(C), _bits(4), _bits(4 * R)
        small = []
        def fld(name, width, vmax):
            self.fields[name] = ([f"{name}_{j}" for j in range(width)], vmax)
            return name
        o = fld("o", 1, 1)
        f = fld("f", 1, 1)
        h = fld("h", hw, 4 * R)
        cs = [fld(f"c{r}", cw, C) for r in range(1, R + 1)]
        ks = [fld(f"k{r}", kw, 4) for r in range(1, R + 1)]
        if order == "mask-first-ranks":
            small = [o, f, h] + [x for r in range(R) for x in (cs[r], ks[r])]
        elif order == "mask-first-hlast":
            small = [o, f] + cs + ks + [h]
        else:
            small = [o, f, h] + cs + ks
        self.mask = [f"m{i}" for i in range(self.N)]
        mask_order = list(reversed(self.mask)) if order == "mask-desc" else list(self.mask)
        small_bits = [x for name in small for x in self.fields[name][0]]
        if order == "small-first":
            bits = small_bits + mask_order
        else:
            bits = mask_order + small_bits
        names = []
        for x in bits:
            names += [x, x + "p"]
        b.declare(*names)
        self.small_fields = small
        self._build_static()

    # ---- diagram helpers -------------------------------------------------------------
    def eq(self, name: str, v: int, primed: bool = False):
        bits, vmax = self.fields[name]
        assert 0 <= v < (1 << len(bits)), (name, v)
        w = len(bits)
        return self.bdd.cube({(x + "p" if primed else x): bool((v >> (w - 1 - j)) & 1) for j, x in enumerate(bits)})

    def step(self, name: str, pairs):
        """The relation  name = a and name' = b  over the (a, b) pairs."""
        u = self.bdd.false
        for a, bb in pairs:
            u |= self.eq(name, a) & self.eq(name, bb, True)
        return u

    def anyof(self, name: str, values):
        u = self.bdd.false
        for v in values:
            u |= self.eq(name, v)
        return u

    def var(self, x: str):
        return self.bdd.var(x)

    def _build_static(self) -> None:
        b, R, C = self.bdd, self.R, self.C
        # the centre takes rank r next at heights H[r]; its top has rank r at heights Ht[r]
        self.H = {r: [x for x in range(1, 4 * R) if x % R + 1 == r] for r in range(1, R + 1)}
        if self.mutation == "centre-rank":
            self.H = {r: [x for x in range(1, 4 * R) if x % R == r % R] for r in range(1, R + 1)}
        self.Ht = {r: [x for x in range(2, 4 * R + 1) if (x - 1) % R + 1 == r] for r in range(1, R + 1)}
        o0, o1 = ~self.var("o_0"), self.var("o_0")
        o0p, o1p = ~self.var("o_0p"), self.var("o_0p")

        def king_up(r):
            """k_r -> k_r + 1 where a pile takes rank r (guard on k_{r+1} unprimed, unquantified)."""
            u = b.false
            for a in range(4):
                if r == R:
                    ok = b.true
                else:
                    ok = self.anyof(f"k{r + 1}", [x for x in range(5) if (x >= a if self.mutation == "king-le" else x > a)])
                u |= self.eq(f"k{r}", a) & self.eq(f"k{r}", a + 1, True) & ok
            return u

        def king_down(r):
            """k_r -> k_r - 1 where a pile's top has rank r."""
            u = b.false
            for a in range(1, 5):
                ok = b.true if r == 1 else self.anyof(f"k{r - 1}", range(0, a))
                u |= self.eq(f"k{r}", a) & self.eq(f"k{r}", a - 1, True) & ok
            return u

        def centre_up(r):
            return self.step("h", [(x, x + 1) for x in self.H[r]])

        f_clear = ~self.var("f_0p")
        # per rank r: (kind, relation over the small fields, fields it changes)
        self.small_rels = []
        for r in range(1, R + 1):
            cell_dn = self.step(f"c{r}", [(v, v - 1) for v in range(1, C + 1)])
            cell_up = self.step(f"c{r}", [(v, v + 1) for v in range(0, C)])
            cen = centre_up(r)
            kup = king_up(r)
            if self.strict:
                cen_f = cen & f_clear
                cen_scope = ["h", "f"]
            else:
                cen_f = cen
                cen_scope = ["h"]
            # kind, rank, relation (without o), changed fields, o handling
            self.small_rels.append(("cell-centre", r, cell_dn & cen_f, [f"c{r}"] + cen_scope))
            self.small_rels.append(("cell-king", r, cell_dn & kup, [f"c{r}", f"k{r}"]))
            self.small_rels.append(("waste-centre", r, cen_f & o0, cen_scope))
            self.small_rels.append(("waste-king", r, kup & o0, [f"k{r}"]))
            self.small_rels.append(("refill", r, cell_up, [f"c{r}", "o"]))
            if not self.strict:
                hx = self.Ht[r]
                if self.mutation == "transfer-base-ace" and r == 1:
                    hx = hx + [1]  # also moves the base Ace (h 1 -> 0)
                t_ck = self.step("h", [(x, x - 1) for x in hx]) & kup & o0
                self.small_rels.append(("centre-king", r, t_ck, ["h", f"k{r}"]))
            if not self.strict or r < R:
                t_kc = centre_up(r) & king_down(r) & o0
                scope = ["h", f"k{r}"]
                if self.strict:
                    if self.mutation == "strict-no-flag":
                        t_kc &= self.var("f_0p")
                    else:
                        t_kc &= ~self.var("f_0") & self.var("f_0p")
                    scope.append("f")
                self.small_rels.append(("king-centre", r, t_kc, scope))
        self.o0, self.o1, self.o0p, self.o1p = o0, o1, o0p, o1p
        won = self.eq("h", 4 * R)
        for r in range(1, R + 1):
            won &= self.eq(f"k{r}", 4)
        self.won = won

    def initial(self):
        p, R = self.position, self.R
        u = self.bdd.true
        for i in range(self.N):
            u &= self.var(self.mask[i]) if i < self.t0 else ~self.var(self.mask[i])
        for r in range(1, R + 1):
            u &= self.eq(f"c{r}", sum(1 for c in p.cells if c is not None and c.rank == r))
            u &= self.eq(f"k{r}", sum(1 for pile in p.kings if len(pile) >= R - r + 1))
        u &= self.eq("h", len(p.centre))
        u &= self.var("f_0") if (self.strict and p.after_transfer) else ~self.var("f_0")
        u &= ~self.var("o_0")
        return u

    def _bits_of(self, fields):
        return [x for name in fields for x in self.fields[name][0]]

    def layer_relations(self, t: int):
        """[(relation, quantified unprimed vars, rename map primed -> unprimed)] of layer t."""
        b = self.bdd
        m = [self.var(x) for x in self.mask]
        mp = [self.var(x + "p") for x in self.mask]
        ne = b.false
        for i in range(t):
            ne |= m[i]
        # pop_r: the waste's top (max of m below t) has rank r; m' = m less it
        zero_above = b.true  # and over j in (i, t) of (not m_j and not m_j')
        eq_below = [b.true]
        for i in range(t):
            eq_below.append(eq_below[-1] & m[i].equiv(mp[i]))
        pops = {r: b.false for r in range(1, self.R + 1)}
        for i in range(t - 1, -1, -1):
            pop_i = m[i] & ~mp[i] & zero_above & eq_below[i]
            pops[self.srank[i]] |= pop_i
            zero_above &= ~m[i] & ~mp[i]
        if self.mutation == "refill-wrong-end":  # the refill takes the bottom card of the waste
            low = {r: b.false for r in range(1, self.R + 1)}
            zero_below = b.true
            eq_above = [b.true] * (t + 1)
            for i in range(t - 1, -1, -1):
                eq_above[i] = eq_above[i + 1] & m[i].equiv(mp[i])
            for i in range(t):
                low[self.srank[i]] |= m[i] & ~mp[i] & zero_below & eq_above[i + 1]
                zero_below &= ~m[i] & ~mp[i]
        mask_q = self.mask[:t]
        out = []
        last = t == self.N
        for kind, r, rel, scope in self.small_rels:
            q = self._bits_of(scope)
            if kind in ("cell-centre", "cell-king"):
                q = q + ["o_0"]
                hole_due = self.o1p if self.mutation != "no-refill-hole" else self.o0p
                variants = [(rel & self.o0 & ne & hole_due)]
                if last or self.mutation == "no-pending-guard":
                    variants.append(rel & self.o0 & ~ne & self.o0p)
                for j, v in enumerate(variants):
                    out.append((kind + ("-empty" if j else ""), r, v, q))
            elif kind in ("waste-centre", "waste-king"):
                out.append((kind, r, rel & pops[r], q + mask_q))
            elif kind == "refill":
                popr = low[r] if self.mutation == "refill-wrong-end" else pops[r]
                out.append((kind, r, rel & self.o1 & self.o0p & popr, q + mask_q))
            else:  # transfers
                g = rel if last else rel & ne
                out.append((kind, r, g, q))
        if self.merge:
            merged = {}
            for kind, r, rel, q in out:
                key = (kind, self.merge_key(kind, r))
                merged.setdefault(key, []).append((rel, q))
            out = []
            for (kind, _), parts in merged.items():
                scope = []
                for _, q in parts:
                    scope += [x for x in q if x not in scope]
                u = b.false
                for rel, q in parts:
                    for x in scope:
                        if x not in q:
                            rel &= self.var(x).equiv(self.var(x + "p"))
                    u |= rel
                out.append((kind, 0, u, scope))
        res = []
        for kind, r, rel, q in out:
            if rel == b.false:
                continue
            res.append((rel, q, {x + "p": x for x in q}))
        return res

    def merge_key(self, kind, r):
        """Relations with the same key are merged into one (with frames on the union of
        their fields): all ranks of a kind, and the two o-variants of a cell play apart."""
        return 0

    def image(self, s, rel, q, ren):
        u = cudd.and_exists(s, rel, q)
        return self.bdd.let(ren, u)

    def closure(self, seed, t, use_frontier=True, deadline=None):
        rels = self.layer_relations(t)
        b = self.bdd
        reach = seed
        front = seed
        it = 0
        peak = reach.dag_size
        while front != b.false:
            it += 1
            added = b.false
            for rel, q, ren in rels:
                img = self.image(front if use_frontier else reach, rel, q, ren) & ~reach
                if img != b.false:
                    reach |= img
                    front |= img
                    added |= img
            front = added
            peak = max(peak, reach.dag_size)
            if deadline is not None and time.time() > deadline:
                return reach, it, peak, False
        return reach, it, peak, True

    def turn(self, layer, t):
        x = self.mask[t]
        u = layer & self.o0
        return self.bdd.exist([x], u) & self.var(x)

    def positions(self, layer, t):
        """The layer's states that are positions (module doc)."""
        u = layer & self.o0
        if t < self.N:
            ne = self.bdd.false
            for i in range(t):
                ne |= self.var(self.mask[i])
            u &= ne
        return u

    def care(self, t):
        return self.mask[:self.N] + [x for name in self.small_fields for x in self.fields[name][0]]

    def count(self, u, t):
        return u.count(nvars=len(self.care(t)))

    def solve(self, time_limit: float | None = None, counts: bool = True, log=None,
              use_frontier: bool = True, keep_layers: bool = False, max_t: int | None = None) -> Result:
        deadline = None if time_limit is None else time.time() + time_limit
        seed = self.initial()
        res = Result("unknown")
        self.layer_bdds = {}
        for t in range(self.t0, self.N + 1):
            t1 = time.time()
            layer, it, peak, done = self.closure(seed, t, use_frontier, deadline)
            stat = LayerStat(t, layer.dag_size,
                             self.count(layer, t) if counts else -1,
                             self.count(self.positions(layer, t), t) if counts else -1,
                             it, time.time() - t1, peak, done)
            if counts:
                stat.position_nodes = self.positions(layer, t).dag_size
            res.layers.append(stat)
            if keep_layers:
                self.layer_bdds[t] = layer
            if log:
                log(stat)
            if not done:
                res.reason = f"time limit in layer {t}"
                return res
            if t == self.N:
                res.verdict = "won" if (layer & self.won) != self.bdd.false else "lost"
                return res
            if max_t is not None and t >= max_t:
                res.reason = f"stopped after layer {t} (max_t)"
                return res
            seed = self.turn(layer, t)
            if seed == self.bdd.false:  # cannot happen (every layer has a state with o = 0)
                res.verdict = "lost"
                return res
            if deadline is not None and time.time() > deadline:
                res.reason = f"time limit after layer {t}"
                return res
        return res

    # ---- decoding (tests) -------------------------------------------------------------
    def decode_states(self, u, t):
        """The rank-level positions of the states in u (o = 0, positions only)."""
        out = set()
        care = self.mask + [x for name in self.small_fields for x in self.fields[name][0]]
        for a in self.bdd.pick_iter(u, care_vars=care):
            def val(name):
                bits, _ = self.fields[name]
                v = 0
                for x in bits:
                    v = 2 * v + int(a[x])
                return v
            waste = tuple(self.srank[i] for i in range(t) if a[self.mask[i]])
            cells = tuple(sorted(r for r in range(1, self.R + 1) for _ in range(val(f"c{r}"))))
            kv = tuple(val(f"k{r}") for r in range(1, self.R + 1))
            out.add((t, waste, cells, val("h"), kv, bool(val("f")) if self.strict else False))
        return out


def rank_key(p: WindmillPosition, strict: bool, N: int):
    """The rank-level position of a reference position (module doc), with its layer t."""
    R = p.ranks
    t = N - len(p.stock)
    cells = tuple(sorted(c.rank for c in p.cells if c is not None))
    kv = tuple(sum(1 for pile in p.kings if len(pile) >= R - r + 1) for r in range(1, R + 1))
    return (t, tuple(c.rank for c in p.waste), cells, len(p.centre), kv, bool(p.after_transfer) if strict else False)


def solve(position: WindmillPosition, rules: WindmillRules, **kw) -> str:
    return Model(position, rules, **{k: v for k, v in kw.items() if k in ("order", "mutation", "memory_gb")}).solve(
        time_limit=kw.get("time_limit"), counts=False).verdict
