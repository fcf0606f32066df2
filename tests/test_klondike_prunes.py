"""The Klondike class kernel's step-2 prunes (kernel doc: KINGMAC, T5, T5b, NODP) against
brute force on reduced decks.

The deals and their whole reachable graphs, with the exact winnability of every
position, come from test_klondike_class_key (reference engine, every atomic move, no
pruning), with more talon-heavy deals added here.  Then, for the kernel with no step-2 prune, each one alone, and all of them:

- restricted graphs: the graph of kernel moves (gen_moves, apply_move, then the safe
  plays, as the search makes children) is built from every reachable position; a
  position is winnable over those moves exactly when it is winnable over all moves.
  That is checked at every reachable position, not only the root;
- each prune fires: at some kernel positions the moves, or the safe plays after them,
  differ from those with no step-2 prune;
- successor sets with every prune on: the classes of the kernel's children are the
  classes one class-changing move reaches (or, for KINGMAC, an emptying move and then a
  King entering the emptied pile), less the documented prunes;
- the kernel's verdict with each prune alone equals the exhaustive one from the roots.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict, deque
from functools import lru_cache

import numpy as np
import pytest

from solver.games.klondike import kernel as K
from solver.games.klondike import reference
from solver.games.klondike.codec import decode, encode, rules_array
from solver.games.klondike.dealfile import position_to_json
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import KlondikeSearch, successors
from solver.engine.search import Limits, drive
from solver.engine.resources import tables
import test_klondike_class_key
from test_klondike_bruteforce import random_deal
from test_klondike_class_key import _noop_closure, class_key, graph

PRUNES = {"KINGMAC": K.P_KINGMAC, "T5": K.P_LAST_SAFE, "T5b": K.P_NO_TURN, "NODP": K.P_NO_SAFE_TO_PILE}
CONFIGS = {**PRUNES, "all": K.P_ALL}
DUMMY = np.zeros((0, 5), dtype=np.int32)


# Deals with more stock cards, at draw 2 and 3 (T5b needs a talon whose last card is
# safe while the waste holds neither all of it nor a multiple of the draw).
TALON_RULES = [KlondikeRules(draw=d, passes=p, worry_back=w) for d in (2, 3) for p in (None, 2) for w in (True, False)]
TALON_CONFIGS = [(3, 2, 5, 24)]  # (ranks, piles, stock cards, deals)


@lru_cache(maxsize=None)
def games() -> tuple:
    """test_klondike_class_key's games, and talon-heavy ones built the same way."""
    rng = __import__("random").Random("klondike-prunes-talon")
    extra = []
    k = 0
    for ranks, npiles, nstock, count in TALON_CONFIGS:
        for i in range(count):
            root = random_deal(rng, ranks, npiles, nstock)
            rules = TALON_RULES[k % len(TALON_RULES)]
            k += 1
            g = graph(root, rules)
            if g is not None:
                extra.append((f"ranks {ranks}, {npiles} piles, {nstock} stock, talon #{i}", root, rules, *g))
    return test_klondike_class_key.games() + tuple(extra)


def _deal(p: KlondikePosition, rules: KlondikeRules) -> str:
    return f"rules {rules} deal {json.dumps(position_to_json(p))}"


class KernelGraph:
    """The kernel's move graph (one rules array) over kernel states, each written with its
    talon compacted (the cards still there, in order) and stale pile slots cleared, so
    that one position (with its pending card) is one node."""

    def __init__(self, rules: KlondikeRules, ranks: int, npiles: int, prunes: int):
        self.rules = rules
        self.r = rules_array(rules, ranks, npiles, True, prunes)
        self.base = rules_array(rules, ranks, npiles, True, 0)
        self.npiles = npiles
        self.kids: dict[bytes, list[bytes]] = {}
        self.arrays: dict[bytes, tuple] = {}
        self.moves = np.empty(K.MAX_MOVES_PER_NODE, dtype=np.int64)
        self.base_moves = np.empty(K.MAX_MOVES_PER_NODE, dtype=np.int64)
        self.fired = 0  # nodes whose moves, or whose children's safe plays, differ from prunes=0

    def _node(self, st, talon, ntalon) -> bytes:
        mask, ptr = int(st[K.TMASK]), int(st[K.TPTR])
        present = [t for t in range(ntalon) if mask >> t & 1]
        t2 = np.full(24, -1, dtype=np.int32)
        t2[:len(present)] = talon[present]
        s2 = st.copy()
        s2[K.TMASK] = (1 << len(present)) - 1
        s2[K.TPTR] = sum(t < ptr for t in present)
        for i in range(self.npiles):
            s2[K.P0 + i * K.CAP + st[K.LEN0 + i]:K.P0 + (i + 1) * K.CAP] = 0
        K.fill_locations(s2)  # stale locations of cards gone from the tableau differ by path
        node = s2.tobytes() + t2.tobytes()
        self.arrays.setdefault(node, (s2, t2, len(present)))
        return node

    def won(self, node: bytes) -> bool:
        return bool(K.is_won(self.arrays[node][0], self.r))

    def start(self, p: KlondikePosition) -> bytes:
        """The search's root made from p: p with its safe plays."""
        st, talon, ntalon = encode(p, self.rules)
        K.play_safe(st, talon, ntalon, self.r, DUMMY, 0, False)
        return self._node(st, talon, ntalon)

    def children(self, node: bytes) -> list[bytes]:
        if node not in self.kids:
            st, talon, ntalon = self.arrays[node]
            n = K.gen_moves(st, talon, ntalon, self.r, self.moves, 0)
            nb = K.gen_moves(st, talon, ntalon, self.base, self.base_moves, 0)
            differ = sorted(self.moves[:n]) != sorted(self.base_moves[:nb])
            out = []
            for x in range(n):
                child = st.copy()
                K.apply_move(child, self.moves[x], talon, ntalon, self.r, DUMMY, 0, False)
                other = child.copy()
                K.play_safe(child, talon, ntalon, self.r, DUMMY, 0, False)
                K.play_safe(other, talon, ntalon, self.base, DUMMY, 0, False)
                differ = differ or not np.array_equal(child, other)
                out.append(self._node(child, talon, ntalon))
            self.fired += differ
            self.kids[node] = out
        return self.kids[node]

    def winnable(self, starts) -> set:
        """The nodes from which the kernel's moves reach a won position."""
        seen = set(starts)
        todo = deque(seen)
        parents = defaultdict(list)
        while todo:
            node = todo.popleft()
            if self.won(node):
                continue
            for kid in self.children(node):
                parents[kid].append(node)
                if kid not in seen:
                    seen.add(kid)
                    todo.append(kid)
        won = {node for node in seen if self.won(node)}
        todo = deque(won)
        while todo:
            for parent in parents[todo.popleft()]:
                if parent not in won:
                    won.add(parent)
                    todo.append(parent)
        return won


@lru_cache(maxsize=None)
def restricted() -> dict:
    """Per config: (problems, positions checked, kernel nodes where a prune fired)."""
    out = {}
    for name, prunes in CONFIGS.items():
        problems, checked, fired = [], 0, 0
        for label, root, rules, positions, won in games():
            graph = KernelGraph(rules, root.ranks, len(root.tableau), prunes)
            starts = {p: graph.start(p) for p in positions}
            kwon = graph.winnable(starts.values())
            for p, node in starts.items():
                checked += 1
                if (node in kwon) != (p in won):
                    problems.append(f"{label}: exhaustive {'won' if p in won else 'lost'}, over the kernel's "
                                    f"moves {'won' if node in kwon else 'lost'}: {_deal(p, rules)}")
            fired += graph.fired
        out[name] = (problems, checked, fired)
    return out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_restricted_winnability_equals_full_at_every_position(name):
    problems, checked, _ = restricted()[name]
    assert not problems, f"{len(problems)} of {checked} positions differ:\n" + "\n".join(problems[:5])
    assert checked >= 20_000, checked


@pytest.mark.parametrize("name", list(CONFIGS))
def test_each_prune_fires(name):
    fired = restricted()[name][2]
    assert fired >= 20, f"{name} changed the children of only {fired} kernel positions"


def _emptied(m: KlondikePosition, q: KlondikePosition) -> int | None:
    """The pile a tableau move from m to q emptied (its cards went to another pile), or None."""
    for i, pile in enumerate(m.tableau):
        if pile and m.face_down[i] == 0 and not q.tableau[i] and sum(q.foundations) == sum(m.foundations):
            return i
    return None


def _reachable_without_turn_over(m: KlondikePosition, rules: KlondikeRules) -> set:
    """Talon cards that draws alone (no turn-over) bring to the waste top, the top included."""
    tops = set(m.waste[-1:])
    p = m
    while p.stock:
        p = reference.apply_move(p, rules, reference.Move("stock", "waste", None, min(rules.draw, len(p.stock))))
        tops.add(p.waste[-1])
    return tops


def _safe_next(p: KlondikePosition, card, rules: KlondikeRules) -> bool:
    if p.foundations[card.suit] != card.rank - 1:
        return False
    for s in range(4):
        if s == card.suit:
            continue
        same = (s in (1, 2)) == card.red
        bound = (3 if same else 2) if rules.worry_back else (None if same else 1)
        if bound is not None and card.rank > p.foundations[s] + bound:
            return False
    return True


def _pure(m: KlondikePosition, rules: KlondikeRules) -> bool:
    total = len(m.waste) + len(m.stock)
    return len(m.waste) == total or (rules.passes is None and len(m.waste) % rules.draw == 0)


def _talon_card(m: KlondikePosition, q: KlondikePosition):
    """The talon card the move m -> q played, or None."""
    gone = (set(m.waste) | set(m.stock)) - (set(q.waste) | set(q.stock))
    return next(iter(gone)) if gone else None


def _pruned_kind(m: KlondikePosition, q: KlondikePosition, rules: KlondikeRules) -> str:
    """Which prune removes the unpruned class move m -> q (else "unexplained")."""
    if sum(q.foundations) < sum(m.foundations):
        return "safe card not worried back"
    if _emptied(m, q) is not None:
        return "KINGMAC: emptying alone"
    card = _talon_card(m, q)
    if card is not None:
        if sum(q.foundations) == sum(m.foundations) and _safe_next(m, card, rules):
            return "NODP: safe talon card to a pile"
        last = m.stock[0] if m.stock else None
        if (last is not None and not _pure(m, rules) and _safe_next(m, last, rules)
                and card not in _reachable_without_turn_over(m, rules)):
            return "T5b: turn-over while the last talon card is safe"
    return "unexplained"


def test_successor_sets_with_every_prune():
    rng = __import__("random").Random("klondike-prunes-successors")
    problems = []
    seen = Counter()
    for label, _, rules, positions, _ in games():
        t5b = [p for p in positions if p.stock and not _pure(p, rules) and _safe_next(p, p.stock[0], rules)]
        for p in rng.sample(positions, min(15, len(positions))) + t5b[:4]:  # T5b's condition is rare
            if p.is_won():
                continue
            key = class_key(p, rules)
            got = [class_key(q, rules) for q in successors(p, rules, prune=True, prunes=K.P_ALL)]
            if key in got:
                problems.append(f"{label}: a child keeps the class: {_deal(p, rules)}")
            if len(set(got)) != len(got):
                problems.append(f"{label}: two children share a class: {_deal(p, rules)}")
            one, two = {}, set()
            for m in _noop_closure(p, rules):
                for q in successors(m, rules, prune=False):
                    kq = class_key(q, rules)
                    if kq == key:
                        continue
                    one.setdefault(kq, (m, q))
                    i = _emptied(m, q)
                    if i is None:
                        continue
                    for q2 in successors(q, rules, prune=False):  # then a King into pile i
                        if q2.tableau[i] and not q.tableau[i] and class_key(q2, rules) != kq:
                            two.add(class_key(q2, rules))
            for kq in set(got) - set(one) - two:
                problems.append(f"{label}: child class not reachable by a class move or KINGMAC: {_deal(p, rules)}")
            seen["KINGMAC macro"] += len((set(got) & two) - set(one))
            for kq in two - set(got) - set(one):
                problems.append(f"{label}: KINGMAC macro missing: {_deal(p, rules)}")
            for kq in set(one) - set(got):
                m, q = one[kq]
                kind = _pruned_kind(m, q, rules)
                seen[kind] += 1
                if kind == "unexplained":
                    problems.append(f"{label}: class move missing {_deal(m, rules)} -> {json.dumps(position_to_json(q))}")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:8])
    for kind in ("KINGMAC macro", "KINGMAC: emptying alone", "NODP: safe talon card to a pile",
                 "T5b: turn-over while the last talon card is safe", "safe card not worried back"):
        assert seen[kind] >= 5, f"{kind!r} hardly occurs: {dict(seen)}"


@pytest.mark.parametrize("name", list(PRUNES))
def test_kernel_verdict_with_one_prune_from_mid_game_roots(name):
    rng = __import__("random").Random("klondike-prunes-roots")
    failures = []
    for label, _, rules, positions, won in games():
        for p in [positions[0]] + rng.sample(positions, min(2, len(positions))):
            if p.is_won():
                continue
            with tables(16):
                search = KlondikeSearch(p, rules, prunes=PRUNES[name])
            out = drive(search, Limits())
            want = "won" if p in won else "lost"
            if out.verdict != want:
                failures.append(f"{label}: kernel {out.verdict}, exhaustive {want}: {_deal(p, rules)}")
            elif want == "won":
                reference.verify_win(p, rules, out.line)
    assert not failures, f"{len(failures)} verdicts differ:\n" + "\n".join(failures[:5])
