"""Brute force: the kernel's verdicts on small reduced-deck deals against an exhaustive
search of every legal move (the reference engine, no pruning, no symmetry, no table
tricks).

Deals use a reduced deck (ranks A..3 to A..6: the Aces on the foundations, 8 to 20 cards
in the tableau) on 3 to 5 piles of random sizes, built here with a seeded RNG (the same
set on every run).  For each deal whose reachable space the reference enumerates
completely,

    solver.solve("beleaguered-castle", deal=...).verdict == reference.solve_exhaustive(...)

must hold, every win must replay in the reference engine (``verified``), and the kernel
with its reductions switched off (no safe plays, no symmetry) must agree too, which
separates a pruning bug from a move-generation or table bug.  The safe foundation play
is also checked on its own, by the reference alone: wherever one is available on
random walks through these deals, the exhaustive verdict is the same after it.

On failure the deal is printed as a deal-file JSON with the command that reproduces it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

import pytest

import solver
from solver.core.cards import Card
from solver.games.beleaguered_castle import reference
from solver.games.beleaguered_castle.dealfile import position_to_json
from solver.games.beleaguered_castle.position import BCPosition, BCRules
from solver.games.beleaguered_castle import kernel as K
from solver.games.beleaguered_castle.codec import encode, rules_array
from solver.games.beleaguered_castle.searcher import BCSearch, Geometry, restarts
from solver.engine.kernel_search import successor_rows
from solver.engine.search import Limits, drive
from solver.engine.resources import tables

# (ranks, piles, number of deals)
CONFIGS = [(3, 3, 80), (4, 3, 80), (4, 4, 80), (5, 3, 60), (5, 4, 80), (6, 4, 40), (6, 5, 30)]
MAX_STATES = 30_000  # reference budget per deal (positions); deals beyond it are skipped
TT_MB = 16


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of TT_MB megabytes (resources.tables)."""
    with tables(TT_MB):
        yield



def random_deal(rng: random.Random, ranks: int, npiles: int) -> BCPosition:
    cards = [Card(r, s) for s in range(4) for r in range(2, ranks + 1)]
    rng.shuffle(cards)
    sizes = [1] * npiles
    for _ in range(len(cards) - npiles):
        sizes[rng.randrange(npiles)] += 1
    piles = [[cards.pop() for _ in range(n)] for n in sizes]
    position = BCPosition(piles, [1, 1, 1, 1], ranks)
    position.validate()
    return position


@lru_cache(maxsize=None)
def deals() -> tuple:
    """(label, position, reference verdict or None if over budget), deterministic."""
    rng = random.Random("bc-bruteforce")
    out = []
    for ranks, npiles, count in CONFIGS:
        for i in range(count):
            p = random_deal(rng, ranks, npiles)
            out.append((f"ranks {ranks}, {npiles} piles, #{i}", p, reference.solve_exhaustive(p, MAX_STATES)))
    return tuple(out)


def decided():
    return [d for d in deals() if d[2] is not None]


def _report(label, position, expected, got, extra="") -> str:
    return (f"{label}: reference {'won' if expected else 'lost'}, kernel {got}{extra}\n"
            f"  deal.json {json.dumps(position_to_json(position))}\n"
            f"  patience solve bc --deal deal.json")


def test_enough_deals_decided_with_both_verdicts():
    verdicts = Counter(d[2] for d in deals())
    assert verdicts[True] >= 100 and verdicts[False] >= 100, verdicts
    assert verdicts[None] <= 0.1 * len(deals()), verdicts


def test_kernel_verdict_equals_exhaustive_search():
    failures = []
    for label, position, expected in decided():
        result = solver.solve("beleaguered-castle", deal=position, tt_mb=TT_MB)
        if result.verdict != ("won" if expected else "lost"):
            failures.append(_report(label, position, expected, result.verdict, f" ({result.reason})"))
        elif result.verdict == "won" and not result.verified:
            failures.append(_report(label, position, expected, "won", " but the line is not verified"))
    if failures:
        pytest.fail(f"{len(failures)} of {len(decided())} deals differ:\n" + "\n".join(failures[:10]), pytrace=False)


def test_unpruned_kernel_agrees_and_its_lines_replay():
    failures = []
    nodes = Counter()
    for label, position, expected in decided():
        for prune in (True, False):
            kernel = BCSearch(position, BCRules(), prune=prune)
            out = drive(kernel, Limits())
            nodes[prune] += kernel.nodes
            if out.verdict != ("won" if expected else "lost"):
                failures.append(_report(label, position, expected, out.verdict, f" (prune={prune})"))
            elif out.verdict == "won":
                try:
                    reference.verify_win(position, out.line)
                except reference.ReplayError as err:
                    failures.append(_report(label, position, expected, "won", f" (prune={prune}): {err}"))
    if failures:
        pytest.fail(f"{len(failures)} searches differ:\n" + "\n".join(failures[:10]), pytrace=False)
    assert nodes[True] < nodes[False], f"the reductions save no nodes: {dict(nodes)}"


def test_noisy_orders_and_restarts_alone_agree():
    """Noise (a restart's seed) only orders moves: a noisy search in either order, and
    the twin's restarts on their own (budgets of 8 nodes a Luby unit, so many phases
    end unfinished), each reach the exhaustive verdict and replay their wins."""
    failures = []
    phases = 0
    for label, position, expected in decided()[::3]:
        # built one at a time: searches of one slot share a workspace and a table
        makers = [lambda o=o, k=k: BCSearch(position, BCRules(), order=o, noise=k, slot="noise")
                  for o, k in ((K.ORDER_BASIC, 5), (K.ORDER_UNBLOCK, 6))]
        makers.append(lambda: restarts(position, BCRules(), slot="noise-restarts", unit=8))
        for make in makers:
            s = make()
            out = drive(s, Limits())
            if out.verdict != ("won" if expected else "lost"):
                failures.append(_report(label, position, expected, out.verdict, f" ({type(s).__name__})"))
            elif out.verdict == "won":
                reference.verify_win(position, out.line)
        phases = max(phases, s.phase)
    if failures:
        pytest.fail(f"{len(failures)} searches differ:\n" + "\n".join(failures[:10]), pytrace=False)
    assert phases >= 3, "the restarts never went past their first phases"


def test_noise_reorders_the_moves_and_keeps_them():
    reordered = 0
    for _label, position, _expected in decided()[:60]:
        root = encode(position)
        plain, noisy = (successor_rows(K, root, (root,), rules_array(position.ranks, len(position.tableau), True,
                                                                    noise=k)) for k in (0, 7))
        assert sorted(map(bytes, plain)) == sorted(map(bytes, noisy))
        reordered += [bytes(r) for r in plain] != [bytes(r) for r in noisy]
    assert reordered >= 5, reordered


def _safe_moves(p: BCPosition):
    """Pile tops that go home and are safe by Solvitaire's any-suit bound (rules.md)."""
    for m in reference.legal_moves(p):
        if m.dst.startswith("F") and all(
            m.card.rank <= p.foundations[s] + 2 for s in range(4) if s != m.card.suit
        ):
            yield m


def test_safe_foundation_plays_never_change_the_verdict():
    """The reduction itself, checked by the reference alone: wherever a safe play
    exists (on random walks through the brute-force deals), the exhaustive verdict after
    it equals the verdict before it."""
    rng = random.Random("bc-safe-plays")
    checked = Counter()
    failures = []
    for label, position, _ in deals()[::4]:
        if position.ranks > 5:
            continue
        p = position
        for _ in range(4):
            for m in list(_safe_moves(p))[:1]:
                before = reference.solve_exhaustive(p, 5000)
                after = reference.solve_exhaustive(reference.apply_move(p, m), 5000)
                if before is not None and after is not None:
                    checked[before] += 1
                    if before != after:
                        failures.append(f"{label}: {m} changes {before} to {after} at "
                                        f"{json.dumps(position_to_json(p))}")
            moves = reference.legal_moves(p)
            if not moves:
                break
            p = reference.apply_move(p, rng.choice(moves))
    assert not failures, "\n".join(failures[:5])
    assert checked[True] >= 100 and checked[False] >= 30, dict(checked)


TINY = Geometry(window=4, block=2, max_depth=100_000, move_cap=1 << 20)


def test_rebuilt_rows_give_the_same_search():
    """With a ring of 4 rows and a checkpoint every 2 levels, nearly every step back
    rebuilds rows from a checkpoint; the search must be the very same: same verdict,
    same node count, same line."""
    from solver.games.beleaguered_castle.deals import bc_deal

    cases = [(label, p) for label, p, _ in decided()[::3]]
    cases += [(f"solvitaire {s}", bc_deal(s, "solvitaire")) for s in (1, 2, 4, 6)]
    for label, position in cases:
        outs = []
        for geometry in (Geometry(), TINY, Geometry(window=8, block=8, max_depth=100_000, move_cap=1 << 20)):
            kernel = BCSearch(position, BCRules(), geometry=geometry)
            out = drive(kernel, Limits())
            outs.append((out.verdict, kernel.nodes, out.line))
        assert outs[0] == outs[1] == outs[2], f"{label}: {[(v, n, len(line)) for v, n, line in outs]}"


def test_a_full_stack_is_unknown_memory_limit():
    from solver.games.beleaguered_castle.deals import bc_deal

    kernel = BCSearch(bc_deal(14, "solvitaire"), BCRules(),
                      geometry=Geometry(window=64, block=16, max_depth=500, move_cap=1 << 16))
    out = drive(kernel, Limits())
    assert (out.verdict, out.reason) == ("unknown", "memory-limit")
    assert not kernel.grow()  # a full stack is final: no table growth helps
