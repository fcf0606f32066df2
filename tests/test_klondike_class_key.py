"""The Klondike class key (kernel doc, T1/T3) against brute force on reduced decks.

For small deals (built as in test_klondike_bruteforce) the whole graph of reachable
positions is enumerated with the reference engine (every atomic move, no pruning) and
each position's winnability is computed exactly (backwards from the won positions).
Then:

- every class (positions with one class key, computed here independently of the
  kernel) has one winnability (T1, and T3 for the merged talon pointers);
- the class kernel's verdict equals that winnability from mid-game roots picked from
  the graphs, and every win replays through the reference engine;
- successor sets (step-2 prunes off; with them: test_klondike_prunes): the classes of
  the class kernel's children of a position are exactly the classes reachable by one
  class-changing move from any position of its class that the kernel's unpruned move
  list reaches by class-keeping moves, less the documented prunes; no child keeps the
  class and no two children share one;
- the merged moves and the safe play of a covered card (SAFE2) really fire.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict, deque
from functools import lru_cache

import numpy as np

from solver.core.cards import Card
from solver.games.klondike import kernel as K
from solver.games.klondike import reference
from solver.games.klondike.codec import encode, log_to_moves, rules_array
from solver.games.klondike.dealfile import position_to_json
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import KlondikeSearch, successors
from solver.engine.search import Limits, drive
from test_klondike_bruteforce import DEAL_RULES, random_deal
import pytest
from solver.engine.resources import tables

# (ranks, piles, stock cards, deals)
CONFIGS = [(2, 2, 2, 40), (3, 2, 3, 40), (3, 3, 3, 40), (4, 3, 3, 40), (4, 3, 4, 30)]
MAX_STATES = 2000  # whole reachable graph per deal; larger deals are skipped
ROOTS_PER_DEAL = 3
TT_MB = 16


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of TT_MB megabytes (resources.tables)."""
    with tables(TT_MB):
        yield



def class_key(p: KlondikePosition, rules: KlondikeRules) -> tuple:
    """Foundations, one digit per pile (face-down count + 1; else 1 for a non-King at
    the bottom of a pile, 0 for a King there or an empty pile), the talon in draw order
    with the waste size (-1 where the kernel merges pointers: draw 1 with unlimited
    passes, or a waste of a multiple of the draw or the whole talon), the redeals."""
    digits = tuple(d + 1 if d > 0 else int(bool(pile) and pile[0].rank != p.ranks)
                   for pile, d in zip(p.tableau, p.face_down))
    talon = tuple(p.waste) + tuple(reversed(p.stock))
    w = len(p.waste)
    if rules.passes is None and (rules.draw == 1 or w % rules.draw == 0 or w == len(talon)):
        w = -1
    return tuple(p.foundations), digits, talon, w, p.redeals


def graph(root: KlondikePosition, rules: KlondikeRules):
    """(positions, winnable set) of everything reachable by atomic moves, or None."""
    children: dict[KlondikePosition, list[KlondikePosition]] = {}
    queue = deque([root])
    children[root] = []
    while queue:
        p = queue.popleft()
        kids = [reference.apply_move(p, rules, m) for m in reference.legal_moves(p, rules)]
        children[p] = kids
        for q in kids:
            if q not in children:
                if len(children) >= MAX_STATES:
                    return None
                children[q] = []
                queue.append(q)
    parents = defaultdict(list)
    for p, kids in children.items():
        for q in kids:
            parents[q].append(p)
    won = {p for p in children if p.is_won()}
    todo = deque(won)
    while todo:
        q = todo.popleft()
        for p in parents[q]:
            if p not in won:
                won.add(p)
                todo.append(p)
    return list(children), won


@lru_cache(maxsize=None)
def games() -> tuple:
    """(label, root, rules, positions, winnable) per deal whose graph fits, deterministic."""
    rng = random.Random("klondike-class-key")
    out = []
    k = 0
    for ranks, npiles, nstock, count in CONFIGS:
        for i in range(count):
            root = random_deal(rng, ranks, npiles, nstock)
            rules = DEAL_RULES[k % len(DEAL_RULES)]
            k += 1
            if rules.passes is not None and rng.random() < 0.3:
                root.redeals = rng.randrange(rules.passes)
            g = graph(root, rules)
            if g is not None:
                out.append((f"ranks {ranks}, {npiles} piles, {nstock} stock, #{i}", root, rules, *g))
    return tuple(out)


def _deal(p: KlondikePosition, rules: KlondikeRules) -> str:
    return f"rules {rules} deal {json.dumps(position_to_json(p))}"


def test_enough_games():
    assert len(games()) >= 120, len(games())
    assert {g[2] for g in games()} >= set(DEAL_RULES), "every rule variant needs games"


def test_every_class_has_one_winnability():
    failures = []
    merged = Counter()
    for label, _, rules, positions, won in games():
        classes = defaultdict(list)
        for p in positions:
            classes[class_key(p, rules)].append(p)
        for members in classes.values():
            if len(members) > 1:
                merged["classes"] += 1
                merged["arrangements"] += len({tuple(map(tuple, m.tableau)) for m in members}) > 1
                merged["pointers"] += len({len(m.waste) for m in members}) > 1
            verdicts = {m in won for m in members}
            if len(verdicts) > 1:
                a = next(m for m in members if m in won)
                b = next(m for m in members if m not in won)
                failures.append(f"{label}: won {_deal(a, rules)}\n  lost {_deal(b, rules)}")
    assert not failures, f"{len(failures)} classes mix won and lost:\n" + "\n".join(failures[:5])
    # the test must see classes that really merge arrangements and talon pointers
    assert merged["arrangements"] >= 200 and merged["pointers"] >= 50, merged


def _roots(rng: random.Random, positions):
    picks = [positions[0]] + rng.sample(positions, min(ROOTS_PER_DEAL - 1, len(positions)))
    return [p for p in picks if not p.is_won()]


def test_class_kernel_verdicts_from_mid_game_roots():
    rng = random.Random("klondike-class-key-roots")
    failures = []
    verdicts = Counter()
    for label, _, rules, positions, won in games():
        for p in _roots(rng, positions):
            search = KlondikeSearch(p, rules)
            out = drive(search, Limits())
            want = "won" if p in won else "lost"
            verdicts[want] += 1
            if out.verdict != want:
                failures.append(f"{label}: kernel {out.verdict}, exhaustive {want}: {_deal(p, rules)}")
            elif want == "won":
                try:
                    reference.verify_win(p, rules, out.line)
                except reference.ReplayError as err:
                    failures.append(f"{label}: line does not replay ({err}): {_deal(p, rules)}")
    assert not failures, f"{len(failures)} verdicts differ:\n" + "\n".join(failures[:5])
    assert verdicts["won"] >= 100 and verdicts["lost"] >= 100, verdicts


def _noop_closure(p: KlondikePosition, rules: KlondikeRules):
    """p's class members reached by the unpruned kernel's class-keeping moves."""
    key = class_key(p, rules)
    seen = {p}
    todo = [p]
    while todo:
        q = todo.pop()
        for r in successors(q, rules, prune=False):
            if r not in seen and class_key(r, rules) == key:
                seen.add(r)
                todo.append(r)
    return seen


def _prune_kind(p: KlondikePosition, q: KlondikePosition, rules: KlondikeRules) -> str:
    """Which documented prune removes the unpruned child q of p (else "unexplained")."""
    if sum(q.foundations) < sum(p.foundations):
        return "safe card not worried back"
    for i, pile in enumerate(p.tableau):
        if pile and p.face_down[i] == 0 and not q.tableau[i]:
            return "emptying a pile, no King ready"
    return "unexplained"


def test_successor_sets_are_the_class_moves():
    rng = random.Random("klondike-class-key-successors")
    problems = []
    seen = Counter()
    for label, _, rules, positions, _ in games():
        for p in rng.sample(positions, min(15, len(positions))):
            if p.is_won():
                continue
            key = class_key(p, rules)
            kids = successors(p, rules, prune=True, prunes=0)  # step 2's prunes: test_klondike_prunes
            got = [class_key(q, rules) for q in kids]
            if key in got:
                problems.append(f"{label}: a child keeps the class: {_deal(p, rules)}")
            if len(set(got)) != len(got):
                problems.append(f"{label}: two children share a class: {_deal(p, rules)}")
            members = _noop_closure(p, rules)
            seen["class members beside p"] += len(members) - 1
            expected = {}
            for m in members:
                for q in successors(m, rules, prune=False):
                    kq = class_key(q, rules)
                    if kq != key:
                        expected.setdefault(kq, (m, q))
            for kq in set(got) - set(expected):
                problems.append(f"{label}: child class not reachable by one move: {_deal(p, rules)}")
            for kq in set(expected) - set(got):
                kind = _prune_kind(*expected[kq], rules)
                seen[kind] += 1
                if kind == "unexplained":
                    m, q = expected[kq]
                    problems.append(f"{label}: class move missing {_deal(m, rules)} -> "
                                    f"{json.dumps(position_to_json(q))}")
            for q in kids:  # the merged move: a run onto the twin, then a card to its foundation
                moved = sum(len(a) != len(b) for a, b in zip(p.tableau, q.tableau))
                seen["merged run + foundation"] += moved == 2 and sum(q.foundations) == sum(p.foundations) + 1
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:8])
    for kind in ("class members beside p", "merged run + foundation", "safe card not worried back",
                 "emptying a pile, no King ready"):
        assert seen[kind] >= 5, f"{kind!r} hardly occurs: {dict(seen)}"


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_safe_covered_card_with_exposed_twin_goes_up_at_once():
    """4C is safe and next on its foundation, covered by 3D; its twin 4S is a pile top.
    The class kernel's safe plays move 3D onto 4S and play 4C first (suit order), though
    the pile top 3D is safe too."""
    p = KlondikePosition([_cards("4C 3D"), _cards("4S"), _cards("4D 3S")], [0, 0, 0],
                         stock=_cards("3H 4H"), foundations=[3, 2, 2, 2], ranks=4)
    p.validate()
    rules = KlondikeRules(draw=3)
    st, talon, ntalon = encode(p, rules)
    log = np.zeros((64, 5), dtype=np.int32)
    n = K.play_safe(st, talon, ntalon, rules_array(rules, 4, 3, True), log, 0, True)
    played = log_to_moves(log[:n])
    first = [(m.src, m.dst, m.card) for m in played[:2]]
    assert first == [("T1", "T2", Card.parse("3D")), ("T1", "F1", Card.parse("4C"))], played
    reference.replay(p, rules, played)  # every logged atomic move is legal
