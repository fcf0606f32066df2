"""Great Wheel's narrowed twin (kernel R_NARROW, searcher.narrowed_twin): at level 2
every waste top that a foundation takes is played at once, at level 1 every Two and
Three.  Their wins are wins and agree with the unreduced exhaustive reference search;
their exhaustion is no loss (a deal below is won only by burying a Two), so
search.drive drops the twin instead of calling the deal lost; and it fires: it wins a
deal the main search alone leaves unknown."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.games.great_wheel import kernel as K
from solver.games.great_wheel import reference as R
from solver.games.great_wheel.codec import encode, rules_array, talon_of
from solver.games.great_wheel.deals import endgame_deal, reduced_deal
from solver.games.great_wheel.position import GWRules
from solver.games.great_wheel.searcher import GWSearch, narrowed_twin
from solver.core.result import LOST, MEMORY_LIMIT, UNKNOWN, WON
from solver.engine.search import Limits, drive

from test_gw_bruteforce import small_deals
from solver.engine.resources import tables


@pytest.fixture(autouse=True)
def _tables():
    """The searches these tests make take tables of 8 MB (resources.tables)."""
    with tables(8):
        yield

PGS = GWRules("pgs")


def run_alone(search: GWSearch, max_nodes: int) -> str | None:
    """The narrowed search by itself: WON, LOST (ran out of moves) or None (cap)."""
    got = search.start()
    while (got is None or (got == MEMORY_LIMIT and search.grow())) and search.nodes < max_nodes:
        got = search.run(1 << 14)
    return got


class EndlessMain:
    """A main search that never finishes (as tests/test_search.py's scripted kernels)."""

    join_after = 0
    proves_loss = True
    nodes = stored_states = 0

    def start(self):
        return None

    def run(self, budget: int):
        self.nodes += budget

    def grow(self) -> bool:
        return False

    def line(self):
        return []

    def best_cards(self) -> int:
        return 0

    def progress(self):
        return None

    def counters(self) -> dict:
        return {}


def beside_endless_main(position, rules, max_nodes: int = 3_000_000):
    twin = narrowed_twin(position, rules)
    twin.join_after = 0
    return drive(EndlessMain(), Limits(max_nodes=max_nodes), twin=twin)


def with_twin(position, rules, max_nodes: int):
    twin = narrowed_twin(position, rules)
    twin.join_after = 0  # at once: small positions end before the usual join
    return drive(GWSearch(position, rules), Limits(max_nodes=max_nodes), twin=twin)


@pytest.mark.parametrize("preset,n", [("pgs", 150), ("pysolfc", 80)])
def test_narrowed_wins_are_wins_and_the_twin_changes_no_verdict(preset, n):
    rules = GWRules(preset)
    won = {1: 0, 2: 0}
    exhausted_on_won = {1: 0, 2: 0}
    decided = 0
    for position in small_deals(n):
        truth = R.solve_exhaustive(position, rules, max_states=20_000)
        if truth is None:
            continue
        decided += 1
        for level in (1, 2):
            search = GWSearch(position, rules, slot="twin", narrow=level)
            got = run_alone(search, 1_000_000)
            if got == WON:
                assert truth, (level, position)
                R.verify_win(position, rules, search.line())
                won[level] += 1
            elif got == LOST and truth:
                exhausted_on_won[level] += 1
        # the real twin beside a main search that never ends: it wins exactly the won
        # positions it can and never turns a lost one into a verdict
        out = beside_endless_main(position, rules)
        assert out.verdict in ((WON, UNKNOWN) if truth else (UNKNOWN,)), (preset, position)
        if out.verdict == WON:
            R.verify_win(position, rules, out.line)
    assert decided >= n // 2 and min(won.values()) >= decided // 3, (decided, won)
    print(preset, decided, "decided; won by narrowing 1 / 2:", won[1], won[2], "; won deals they exhausted:",
          exhausted_on_won[1], exhausted_on_won[2])


def kernel_moves(position, narrow: int) -> int:
    """How many moves the kernel lists in ``position`` at a narrowing level."""
    moves = np.empty(K.MAX_MOVES_PER_NODE, dtype=np.int64)
    return K.gen_moves(encode(position), talon_of(position), rules_array(position, PGS, True, narrow), moves, 0)


def kept_is_waste_play(position, narrow: int) -> bool:
    """Is the first move listed a foundation play of the waste top?"""
    moves = np.empty(K.MAX_MOVES_PER_NODE, dtype=np.int64)
    K.gen_moves(encode(position), talon_of(position), rules_array(position, PGS, True, narrow), moves, 0)
    m = int(moves[0])
    return m & 15 in (K.K_ACE, K.K_FND) and (m >> 4) & 15 == K.SRC_WASTE


def test_narrowing_lists_only_the_waste_play_where_it_applies():
    seen = set()
    rng = random.Random(5)
    for seed in range(40):
        here = reduced_deal(seed, 8, 2, 4)
        for _ in range(60):
            legal = R.legal_moves(here, PGS)
            if not legal:
                break
            top = here.waste[-1] if here.waste else None
            plays_top = top is not None and any(m.src == "waste" and m.dst[0] in "EOa" for m in legal)
            full = kernel_moves(here, 0)
            if plays_top and full >= 2:
                starter = top.rank in (2, 3)
                assert kernel_moves(here, 2) == 1 and kept_is_waste_play(here, 2)
                assert kernel_moves(here, 1) == (1 if starter else full)
                if starter:
                    assert kept_is_waste_play(here, 1)
                seen.add(starter)
            elif not plays_top:
                assert kernel_moves(here, 1) == kernel_moves(here, 2) == full
            here = R.apply_move(here, PGS, rng.choice(legal))
    assert seen == {True, False}  # both cases met


def test_the_twin_fires_where_the_main_search_alone_does_not():
    position = reduced_deal(12, 8, 2, 4)
    alone = drive(GWSearch(position, PGS), Limits(max_nodes=200_000))
    assert alone.verdict == UNKNOWN
    out = with_twin(position, PGS, 200_000)
    assert out.verdict == WON
    R.verify_win(position, PGS, out.line)


def test_narrowed_exhaustion_is_no_loss():
    """Won only by burying a Two: the narrowed search runs out of moves, the deal is won."""
    position = endgame_deal(9031, 30, 2, 4)
    assert R.solve_exhaustive(position, PGS, max_states=2_000_000) is True
    assert run_alone(narrowed_twin(position, PGS), 1_000_000) == LOST  # both levels
    alone = beside_endless_main(position, PGS)
    assert alone.verdict == UNKNOWN and alone.nodes == 3_000_000  # the twin's exhaustion is dropped
    out = with_twin(position, PGS, 1_000_000)
    assert out.verdict == WON and out.proof is None
    R.verify_win(position, PGS, out.line)
    # on the winning line, a position where playing the Two or Three on the waste top
    # loses and the line's move, a turn of the stock that buries it, wins
    here, found = position.copy(), False
    for move in out.line:
        top = here.waste[-1] if here.waste else None
        if top is not None and top.rank in (2, 3) and move.is_draw:
            play = next(m for m in R.legal_moves(here, PGS) if m.card == top and m.src == "waste")
            assert R.solve_exhaustive(R.apply_move(here, PGS, play), PGS, max_states=2_000_000) is False
            assert R.solve_exhaustive(R.apply_move(here, PGS, move), PGS, max_states=2_000_000) is True
            found = True
            break
        here = R.apply_move(here, PGS, move)
    assert found
