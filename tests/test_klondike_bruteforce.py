"""Brute force: the kernel's verdict on small reduced-deck deals against a search with no pruning.

Deals use a reduced deck (ranks A..2 to A..4, so 8 to 16 cards), 2 to 4 tableau piles
holding most of the cards face down, and a few stock cards; they are built here with a
seeded RNG (so the set is the same on every run) and checked with ``validate()``.
Each deal is played under one of the 24 rule variants (draw 1/3/2, passes
unlimited/1/2/3, worry-back on/off; with limited passes some deals start with passes
already used) and

    solver.solve("klondike", deal=..., tt_mb=16).verdict == reference.solve_exhaustive(...)

must hold (the reference is an exhaustive search over every atomic move, no pruning, no
macro-moves); every win must replay in the reference engine (``verified``).  The same
deals are also searched by the kernel with its pruning switched off, which separates a
pruning bug from a move-generation or table bug.  (That each of the search's reductions
fires is shown class by class in test_klondike_class_key and test_klondike_prunes.  The
draw-1 rule that a talon card put on the tableau must at once be built on lives in the
search state only; draw 1 with unlimited passes gets extra deals for it.)

On failure the deal is printed as a deal-file JSON with the command that reproduces it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

import pytest

import solver
from solver.core.cards import full_deck
from solver.games.klondike import reference
from solver.games.klondike.dealfile import position_to_json
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import KlondikeSearch
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

VARIANTS = [
    KlondikeRules(draw=d, passes=p, worry_back=w)
    for d in (1, 3, 2)
    for p in (None, 1, 2, 3)
    for w in (True, False)
]
# Draw 1 with unlimited passes has the most prunes (talon cards played safe, a talon card
# put on the tableau must at once be built on), so it gets extra deals.
DEAL_RULES = VARIANTS + [KlondikeRules(draw=1)] * 4 + [KlondikeRules(draw=1, worry_back=False)] * 4
# (ranks, piles, stock cards, number of deals): the tableau gets the rest, at random
CONFIGS = [
    (2, 2, 2, 70),
    (3, 2, 3, 70),
    (2, 3, 2, 40),
    (4, 3, 3, 80),
    (4, 3, 4, 60),
    (3, 3, 3, 40),
    (4, 3, 5, 40),
    (4, 4, 3, 30),
]
MAX_STATES = 2000  # reference search budget per deal (positions); deals beyond it are skipped
TT_MB = 16


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of TT_MB megabytes (resources.tables)."""
    with tables(TT_MB):
        yield



def random_deal(rng: random.Random, ranks: int, npiles: int, nstock: int) -> KlondikePosition:
    """Each pile: its cards face down except the top one; sometimes one card on the waste."""
    deck = full_deck(ranks)
    rng.shuffle(deck)
    ntableau = 4 * ranks - nstock
    while True:
        sizes = [1] * npiles
        for _ in range(ntableau - npiles):
            sizes[rng.randrange(npiles)] += 1
        if max(sizes) <= 8:  # at most 7 face-down cards per pile
            break
    tableau = [[deck.pop() for _ in range(n)] for n in sizes]
    nwaste = 1 if rng.random() < 0.25 else 0
    waste = [deck.pop() for _ in range(nwaste)]
    position = KlondikePosition(tableau, [n - 1 for n in sizes], stock=deck, waste=waste, ranks=ranks)
    position.validate()
    return position


@lru_cache(maxsize=None)
def deals() -> tuple:
    """(label, position, rules, reference verdict or None if over budget), deterministic."""
    rng = random.Random("klondike-bruteforce")
    out = []
    k = 0
    for ranks, npiles, nstock, count in CONFIGS:
        for i in range(count):
            position = random_deal(rng, ranks, npiles, nstock)
            rules = DEAL_RULES[k % len(DEAL_RULES)]
            k += 1
            if rules.passes is not None and rng.random() < 0.3:
                position.redeals = rng.randrange(rules.passes)  # some passes already used
            label = f"ranks {ranks}, {npiles} piles, {nstock} stock, #{i}"
            out.append((label, position, rules, reference.solve_exhaustive(position, rules, MAX_STATES)))
    return tuple(out)


def decided():
    return [d for d in deals() if d[3] is not None]


def _report(label, position, rules, expected, got, extra="") -> str:
    want = "won" if expected else "lost"
    passes = "unlimited" if rules.passes is None else rules.passes
    command = (f"patience solve klondike --deal deal.json --draw {rules.draw} --passes {passes}"
               + ("" if rules.worry_back else " --no-worry-back"))
    return (f"{label}: reference {want}, kernel {got}{extra}\n  rules {rules}\n"
            f"  deal.json {json.dumps(position_to_json(position))}\n  {command}")


def test_enough_deals_decided_with_both_verdicts():
    verdicts = Counter(d[3] for d in deals())
    assert verdicts[True] + verdicts[False] >= 300, verdicts
    assert verdicts[True] >= 50 and verdicts[False] >= 50, verdicts
    assert verdicts[None] <= 0.25 * len(deals()), verdicts
    by_variant = Counter(d[2] for d in decided())
    assert set(by_variant) == set(VARIANTS), "every rule variant must have decided deals"


def test_kernel_verdict_equals_exhaustive_search():
    failures = []
    for label, position, rules, expected in decided():
        result = solver.solve(
            "klondike", deal=position, draw=rules.draw, passes=rules.passes,
            worry_back=rules.worry_back, tt_mb=TT_MB,
        )
        got = result.verdict
        if got != ("won" if expected else "lost"):
            failures.append(_report(label, position, rules, expected, got, f" ({result.reason})" if result.reason else ""))
        elif got == "won" and not result.verified:
            failures.append(_report(label, position, rules, expected, got, " but the line is not verified"))
    if failures:
        pytest.fail(f"{len(failures)} of {len(decided())} deals differ:\n" + "\n".join(failures[:10]), pytrace=False)


def _search(position, rules, prune):
    kernel = KlondikeSearch(position, rules, prune=prune)
    out = drive(kernel, Limits())
    return out, kernel.nodes


@lru_cache(maxsize=None)
def searches() -> tuple:
    """(deal, outcome with pruning, nodes, outcome without pruning, nodes) per decided deal."""
    return tuple((deal, *_search(deal[1], deal[2], True), *_search(deal[1], deal[2], False)) for deal in decided())


def test_unpruned_kernel_agrees_and_pruning_saves_nodes():
    """Same verdicts with the kernel's pruning switched off; pruning must save work."""
    failures = []
    fewer = 0
    total = Counter()
    for (label, position, rules, expected), pruned, n_pruned, full, n_full in searches():
        for name, out in (("pruned", pruned), ("unpruned", full)):
            if out.verdict != ("won" if expected else "lost"):
                failures.append(_report(label, position, rules, expected, out.verdict, f" ({name} search)"))
        fewer += n_pruned < n_full
        total["pruned"] += n_pruned
        total["unpruned"] += n_full
    if failures:
        pytest.fail(f"{len(failures)} verdicts differ:\n" + "\n".join(failures[:10]), pytrace=False)
    assert total["pruned"] < total["unpruned"], total
    assert fewer >= 0.3 * len(searches()), f"pruning saved nodes on only {fewer} of {len(searches())} deals"


def test_unpruned_kernel_lines_replay():
    """A win found with pruning off must replay too (KlondikeSearch(prune=False).line())."""
    failures = []
    wins = 0
    for (label, position, rules, expected), _, _, full, _ in searches():
        if full.verdict != "won":
            continue
        wins += 1
        try:
            reference.verify_win(position, rules, full.line)
        except reference.ReplayError as err:
            failures.append(_report(label, position, rules, expected, "won", f" (unpruned search): {err}")
                            + "\n  line: " + "; ".join(map(str, full.line)))
    if failures:
        pytest.fail(f"{len(failures)} of {wins} unpruned winning lines do not replay:\n" + "\n".join(failures[:5]),
                    pytrace=False)
