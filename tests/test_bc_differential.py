"""Differential tests: the Beleaguered Castle kernel against the reference engine.

1. On 1,200 random reachable positions (seeded random walks of reference moves from
   numbered deals of both numberings and from reduced decks, biased towards foundation
   plays and emptying piles so that empty piles and full foundations occur)

       set(searcher.successors(p, prune=False)) == reference.successors(p)

   and the kernel lists no successor twice.  With pruning on, the kernel's successors
   are a subset, and each one left out is one of the two documented symmetries.
2. perft: kernel move-sequence counts equal the reference's.
3. The key: an independent decoder (below, from the bit table in kernel.py) rebuilds
   the position from the kernel's key, up to the order of the piles with an empty stub;
   so equal keys mean equal positions up to that symmetry, and the key is exact.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

import pytest

from solver.core.cards import Card
from solver.games.beleaguered_castle import reference
from solver.games.beleaguered_castle.dealfile import position_to_json
from solver.games.beleaguered_castle.deals import bc_deal
from solver.games.beleaguered_castle.position import BCPosition
from solver.games.beleaguered_castle.searcher import keys, perft, successors

WALKS = 400
SAMPLES_PER_WALK = 5


def reduced_deal(rng: random.Random, ranks: int, npiles: int) -> BCPosition:
    cards = [Card(r, s) for s in range(4) for r in range(2, ranks + 1)]
    rng.shuffle(cards)
    piles: list[list[Card]] = [[] for _ in range(npiles)]
    for k, c in enumerate(cards):
        piles[k % npiles].append(c)
    return BCPosition(piles, [1, 1, 1, 1], ranks)


def biased_move(rng: random.Random, position: BCPosition):
    moves = reference.legal_moves(position)
    if not moves:
        return None
    home = [m for m in moves if m.dst.startswith("F")]
    if home and rng.random() < 0.5:
        return rng.choice(home)
    shortest = min(len(p) for p in position.tableau if p)
    emptying = [m for m in moves if len(position.tableau[int(m.src[1:]) - 1]) == shortest]
    if emptying and rng.random() < 0.6:
        return rng.choice(emptying)
    return rng.choice(moves)


@lru_cache(maxsize=None)
def walks() -> tuple:
    """(origin, start position, positions sampled along the walk), deterministic."""
    rng = random.Random("bc-differential")
    out = []
    for w in range(WALKS):
        kind = w % 4
        if kind < 2:
            numbering = ("pysolfc", "solvitaire")[kind]
            seed = rng.randint(1, 50000)
            start, origin = bc_deal(seed, numbering), f"{numbering} deal {seed}"
        else:
            ranks, npiles = rng.choice([(13, 8), (9, 6), (6, 4), (5, 3), (13, 5), (4, 6), (5, 8)])
            start, origin = reduced_deal(rng, ranks, npiles), f"reduced deal ranks {ranks} piles {npiles}"
        length = rng.randint(0, 250)
        picks = set(rng.sample(range(length + 1), min(SAMPLES_PER_WALK, length + 1)))
        p, sampled = start, []
        for step in range(length + 1):
            if step in picks:
                sampled.append((f"{origin} after {step} moves", p))
            m = biased_move(rng, p)
            if m is None:
                break
            p = reference.apply_move(p, m)
        out.append((origin, start, tuple(sampled)))
    return tuple(out)


def positions() -> list[tuple[str, BCPosition]]:
    return [s for _, _, sampled in walks() for s in sampled]


def test_enough_varied_positions():
    ps = [p for _, p in positions()]
    assert len(ps) >= 1000
    assert sum(any(not pile for pile in p.tableau) for p in ps) >= 120, "too few positions with an empty pile"
    assert sum(sum(not pile for pile in p.tableau) >= 2 for p in ps) >= 40, "too few with two empty piles"
    assert sum(sum(p.foundations) >= 3 * p.ranks for p in ps) >= 20, "too few late-game positions"


def _json(p: BCPosition) -> str:
    return json.dumps(position_to_json(p))


def test_kernel_successors_equal_reference_successors():
    failures = []
    for label, p in positions():
        kernel = successors(p, prune=False)
        ref = reference.successors(p)
        dupes = [c for c, n in Counter(kernel).items() if n > 1]
        if set(kernel) != ref or dupes:
            only_k = [_json(c) for c in set(kernel) - ref][:2]
            only_r = [_json(c) for c in ref - set(kernel)][:2]
            failures.append(f"{label}: {_json(p)}\n  kernel only {only_k}\n  reference only {only_r}\n"
                            f"  duplicates {len(dupes)}")
    if failures:
        pytest.fail(f"{len(failures)} of {len(positions())} positions differ:\n" + "\n".join(failures[:4]),
                    pytrace=False)


def _symmetry(parent: BCPosition, child: BCPosition) -> str:
    """Which symmetry reduction removes this unpruned successor (see kernel.gen_moves)."""
    src = [i for i in range(parent.npiles) if len(child.tableau[i]) < len(parent.tableau[i])]
    dst = [i for i in range(parent.npiles) if len(child.tableau[i]) > len(parent.tableau[i])]
    if len(src) == 1 and len(dst) == 1 and not parent.tableau[dst[0]]:
        if len(parent.tableau[src[0]]) == 1:
            return "single card into an empty pile"
        first_empty = min(i for i in range(parent.npiles) if not parent.tableau[i])
        if dst[0] != first_empty:
            return "not the first empty pile"
    return "unexplained"


def test_pruned_successors_leave_out_only_symmetric_moves():
    seen = Counter()
    problems = []
    for label, p in positions():
        full = successors(p, prune=False)
        pruned = successors(p, prune=True)
        if not set(pruned) <= set(full):
            problems.append(f"{label}: a pruned successor is not a successor: {_json(p)}")
        for child in set(full) - set(pruned):
            kind = _symmetry(p, child)
            seen[kind] += 1
            if kind == "unexplained":
                problems.append(f"{label}: unexplained prune {_json(p)} -> {_json(child)}")
    assert not problems, "\n".join(problems[:5])
    assert seen["single card into an empty pile"] >= 20 and seen["not the first empty pile"] >= 20, dict(seen)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_equals_reference(depth):
    rng = random.Random(f"bc-perft-{depth}")
    starts = [bc_deal(1), bc_deal(2, "solvitaire")] + [
        p for _, p in rng.sample(positions(), 6 if depth == 3 else 20)
    ]
    for p in starts:
        want = reference.perft(p, depth)
        got = perft(p, depth)
        if got != want:
            divide = reference.perft_divide(p, depth)
            pytest.fail(f"perft {depth} of {_json(p)}: kernel {got}, reference {want}; per move {divide}",
                        pytrace=False)


# ---------------------------------------------------------------------------- the key


def _stub(pile: list[Card], ref_pile: list[Card]) -> int:
    s = 0
    while s < len(pile) and s < len(ref_pile) and pile[s] == ref_pile[s]:
        s += 1
    return s


def canonical(p: BCPosition, ref: BCPosition) -> tuple:
    """p up to the order of its piles with an empty stub (measured against ref)."""
    placed, loose = [], []
    for pile, ref_pile in zip(p.tableau, ref.tableau):
        if _stub(pile, ref_pile):
            placed.append(tuple(pile))
        else:
            placed.append(None)
            if pile:
                loose.append(tuple(pile))
    return tuple(placed), tuple(sorted(loose)), tuple(p.foundations)


def decode_key(words: tuple[int, int, int], ref: BCPosition) -> tuple:
    """Rebuild canonical(p, ref) from the key alone, following kernel.py's bit table."""
    bits = words[0] | words[1] << 64 | words[2] << 128
    assert bits >> 191 & 1, "marker bit missing"
    assert bits >> 184 & ((1 << 7) - 1) == 0, "bits 184..190 must be zero"
    on: dict[Card, Card] = {}
    bottoms = []
    for s in range(4):
        for rank in range(2, 14):
            code = bits >> (40 + 3 * (12 * s + rank - 2)) & 7
            card = Card(rank, s)
            if 1 <= code <= 4:
                under = Card(rank + 1, code - 1)
                assert under not in on, f"two cards on {under}"
                on[under] = card
            elif code == 5:
                bottoms.append(card)
            else:
                assert code == 0, f"code {code} for {card}"

    def chain(pile: list[Card]) -> tuple:
        while pile and pile[-1] in on:
            pile.append(on[pile[-1]])
        return tuple(pile)

    placed, loose, tableau = [], [], set()
    for i, ref_pile in enumerate(ref.tableau):
        s = bits >> 5 * i & 31
        if s:
            pile = chain(list(ref_pile[:s]))
            placed.append(pile)
            tableau.update(pile)
        else:
            placed.append(None)
    for b in bottoms:
        pile = chain([b])
        loose.append(pile)
        tableau.update(pile)
    foundations = []
    for s in range(4):
        home = [r for r in range(1, ref.ranks + 1) if Card(r, s) not in tableau]
        assert home == list(range(1, len(home) + 1)), f"suit {s}: not a foundation {home}"
        foundations.append(len(home))
    return tuple(placed), tuple(sorted(loose)), tuple(foundations)


def test_key_decodes_to_the_position_up_to_stubless_piles():
    failures = []
    count = 0
    for origin, start, sampled in walks():
        group = [p for _, p in sampled]
        group += [c for p in group for c in successors(p, prune=False)]
        for p, words in zip(group, keys(group, start)):
            count += 1
            if decode_key(words, start) != canonical(p, start):
                failures.append(f"{origin}: {_json(p)}")
    assert count >= 5000
    assert not failures, f"{len(failures)} keys do not decode:\n" + "\n".join(failures[:3])


def test_equal_keys_exactly_for_symmetric_positions():
    """Swapping two stubless piles keeps the key; any other change of a pile changes it."""
    rng = random.Random("bc-key-symmetry")
    checked = 0
    for origin, start, sampled in walks():
        for _, p in sampled:
            ref_stubs = [_stub(a, b) for a, b in zip(p.tableau, start.tableau)]
            loose = [i for i, s in enumerate(ref_stubs) if s == 0]
            if len(loose) < 2:
                continue
            i, j = rng.sample(loose, 2)
            q = p.copy()
            q.tableau[i], q.tableau[j] = q.tableau[j], q.tableau[i]
            if _stub(q.tableau[i], start.tableau[i]) or _stub(q.tableau[j], start.tableau[j]):
                continue  # the swap made a stub: a different key is right
            kp, kq = keys([p, q], start)
            assert kp == kq, f"{origin}: swapping stubless T{i + 1} and T{j + 1} changed the key"
            checked += 1
    assert checked >= 50
