"""The proof of Great Wheel's loss proof, checked move by move (games/great_wheel/relaxed.py).

The proof relates a real position q to relaxed states s and claims that every real move
has a relaxed answer of zero or more moves after which they are related again.  Here the
relation is code (``related``), and along real lines (random ones and the exhaustive
reference search's winning ones) every real move must have a related relaxed state within
``DEPTH`` relaxed moves.  Random brute force alone missed the proof's first two gaps (a
review found them by hand); this check flags them, as the last test shows."""

from __future__ import annotations

import random

import pytest

from solver.games.great_wheel import reference as R
from solver.games.great_wheel.deals import endgame_deal, gw_deal
from solver.games.great_wheel.position import GWRules
from solver.games.great_wheel.relaxed import LOW, LowCardsReleased
from test_gw_relaxed import _first_version_counterexamples

DEPTH = 3  # relaxed moves answering one real move (a refill may need a turn before it)
KEEP = 200  # related relaxed states carried from one real move to the next


def _low(c: int) -> bool:
    return c % 13 + 1 <= LOW


def _without_some_lows(short: tuple, long: list) -> bool:
    """``short`` is ``long`` with some low cards left out."""
    j = 0
    for c in long:
        if j < len(short) and short[j] == c:
            j += 1
        elif not _low(c):
            return False
    return j == len(short)


def _matched(ok: list[list[bool]]) -> bool:
    """A perfect matching of relaxed piles to real piles along ``ok`` (augmenting paths)."""
    owner = [-1] * len(ok)

    def place(i: int, seen: list[bool]) -> bool:
        for j in range(len(ok)):
            if ok[i][j] and not seen[j]:
                seen[j] = True
                if owner[j] < 0 or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, [False] * len(ok)) for i in range(len(ok)))


def related(q, s: tuple, relaxed: LowCardsReleased) -> bool:
    """The proof's relation between a real position q and a relaxed state s."""
    piles, nd, waste, fnd = s
    if nd != relaxed.T - len(q.stock):
        return False
    if [relaxed.talon[p] for p in waste] != [c.index for c in q.waste if c.rank > LOW]:
        return False
    real = [[c.index for c in p] for p in q.tableau]
    if any(p and _low(p[-1]) for p in piles) or len(piles) != len(real):
        return False
    if not _matched([[_without_some_lows(p, r) for r in real] for p in piles]):
        return False
    k = 0
    for suit in range(4):
        for foundation in (q.evens, q.odds):
            hs = sorted(len(p) for p in foundation if p and p[0].suit == suit)
            qa, qb = ([0, 0] + hs)[-2:]
            sa, sb = fnd[k]
            k += 1
            # s holds what q holds, and maybe the Two or Three of a pile empty in q
            if not any(all(si == qi or (qi == 0 and si == 1) for qi, si in pairs)
                       for pairs in (((qa, sa), (qb, sb)), ((qa, sb), (qb, sa)))):
                return False
    return True


def answers(states: set, q, relaxed: LowCardsReleased) -> set:
    """The relaxed states within DEPTH moves of ``states`` that are related to q."""
    found, frontier, seen = set(), set(states), set(states)
    for depth in range(DEPTH + 1):
        found |= {s for s in frontier if related(q, s, relaxed)}
        if depth == DEPTH:
            break
        frontier = {c for s in frontier for c in relaxed.children(s) if c not in seen}
        seen |= frontier
    return found


def gap(position, rules, line, relaxed_class=LowCardsReleased) -> int | None:
    """The index of the first real move of ``line`` without a relaxed answer, or None."""
    relaxed = relaxed_class(position, rules)
    assert related(position, relaxed.root, relaxed)
    states, q = {relaxed.root}, position
    for i, move in enumerate(line):
        q = R.apply_move(q, rules, move)
        states = answers(states, q, relaxed)
        if not states:
            return i
        if len(states) > KEEP:
            states = set(random.Random(i).sample(sorted(states), KEEP))
    if q.is_won():
        assert any(relaxed.won(s) for s in states)
    return None


def random_line(position, rules, rng: random.Random, length: int) -> list:
    line, q = [], position
    for _ in range(length):
        moves = R.legal_moves(q, rules)
        if not moves:
            break
        home = [m for m in moves if m.dst[0] in "EOa"]
        move = rng.choice(home) if home and rng.random() < 0.6 else rng.choice(moves)
        line.append(move)
        q = R.apply_move(q, rules, move)
    return line


def winning_line(position, rules, max_states: int = 5_000) -> list | None:
    """A winning line of the reference engine (depth-first, exact keys), or None."""
    seen, stack = {position.key()}, [(position, [])]
    while stack and len(seen) < max_states:
        q, line = stack.pop()
        if q.is_won():
            return line
        for move in reversed(R.legal_moves(q, rules)):
            after = R.apply_move(q, rules, move)
            if after.key() not in seen:
                seen.add(after.key())
                stack.append((after, line + [move]))
    return None


@pytest.mark.parametrize("preset,n", [("pgs", 90), ("pysolfc", 40)])  # pysolfc's lines cost more
def test_every_real_move_has_a_relaxed_answer(preset, n):
    rules = GWRules(preset)
    rng = random.Random(5151 if preset == "pgs" else 6262)
    checked = {"random": 0, "won": 0}
    for i in range(n):
        position = endgame_deal(rng.randrange(10**6), rng.randint(4, 30), rng.randint(1, 3), rng.randint(1, 4))
        line = winning_line(position, rules)
        if line is not None:
            assert gap(position, rules, line) is None, (preset, i, "winning line")
            checked["won"] += 1
        assert gap(position, rules, random_line(position, rules, rng, 120)) is None, (preset, i)
        checked["random"] += 1
    for seed in (1, 2, 3):  # whole deals: random lines through the stock phase
        assert gap(gw_deal(seed), rules, random_line(gw_deal(seed), rules, rng, 60)) is None, (preset, seed)
    assert checked["won"] >= n // 3, checked


class RefillsAtOnce(LowCardsReleased):
    """The proof's first version: a relaxed pile that empties is refilled at once."""

    def _leave(self, piles, i, j, nd, waste, fnd):
        out = super()._leave(piles, i, j, nd, waste, fnd)
        new_i = piles[i][:-1]
        if not new_i and (nd < self.T or waste):
            out = out[1:]  # drop the state in which the emptied pile waits
        return out


def test_the_check_flags_the_first_versions_gap():
    rules = GWRules("pgs")
    position = _first_version_counterexamples()[0]
    line = winning_line(position, rules, 100_000)
    assert line is not None and gap(position, rules, line) is None
    assert gap(position, rules, line, RefillsAtOnce) is not None
