"""The reference engines' shared exhaustive tools (solver/games/reference_search.py) on toy
games whose answers are known by hand, and perft_divide against perft on real deals."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from solver.games import reference_search as RS
from solver.games.beleaguered_castle import reference as bc
from solver.games.beleaguered_castle.deals import bc_deal
from solver.games.klondike import reference as kl
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikeRules


@dataclass(frozen=True)
class Count:
    """A toy game: from n go to n + 1 or n + 2; won at ``goal``; dead beyond it."""

    n: int
    goal: int

    def key(self):
        return self.n

    def is_won(self):
        return self.n == self.goal


def _steps(p: Count):
    return [Count(p.n + d, p.goal) for d in (1, 2) if p.n + d <= p.goal]


def test_perft_counts_sequences_with_transpositions():
    # sequences of length 3 of steps 1 or 2 that stay within 10: 2**3
    assert RS.perft(_steps, Count(0, 10), 3) == 8
    assert RS.perft(_steps, Count(0, 10), 0) == 1
    assert RS.perft(_steps, Count(9, 10), 2) == 0  # 9 -> 10, then nothing


def test_solve_exhaustive_finds_wins_losses_and_its_limit():
    assert RS.solve_exhaustive(_steps, Count(0, 10)) is True
    assert RS.solve_exhaustive(lambda p: [Count(p.n + 2, p.goal)] if p.n < 10 else [], Count(1, 10)) is False
    assert RS.solve_exhaustive(lambda p: [Count(p.n + 1, p.goal)], Count(0, 10**9), max_states=100) is None


def test_perft_divide_splits_perft_by_first_move():
    p = bc_deal(5, "pysolfc")
    split = bc.perft_divide(p, 3)
    assert len(split) == len(bc.legal_moves(p)) and sum(split.values()) == bc.perft(p, 3)
    rules = KlondikeRules(draw=1)
    k = klondike_deal(1, "pysolfc", 1)
    split = kl.perft_divide(k, rules, 3)
    assert sum(split.values()) == kl.perft(k, rules, 3) == 404
    with pytest.raises(ValueError):
        RS.perft_divide(lambda q: [], _steps, Count(0, 1), 0)


@pytest.mark.parametrize("game, preset, seed, depth", [
    ("windmill", "pysolfc", 1, 3), ("windmill", "welford", 1, 6), ("great-wheel", "pgs", 2, 3),
])
def test_every_reference_engine_divides_its_perft(game, preset, seed, depth):
    import importlib

    from solver import api

    _g, rules, p = api.make_deal(game, seed, rules=preset)
    if preset == "welford":
        ref = importlib.import_module("solver.games.windmill_welford.reference")
        split, total = ref.perft_divide(p, depth), ref.perft(p, depth)
    else:
        ref = importlib.import_module(f"solver.games.{game.replace('-', '_')}.reference")
        split, total = ref.perft_divide(p, rules, depth), ref.perft(p, rules, depth)
    assert split and sum(split.values()) == total
