"""The search driver (search.drive) with scripted kernels: how a second search's
outcome becomes the verdict, and that limits count both searches' nodes."""

from __future__ import annotations

import pytest

from solver.moves import Move
from solver.result import LOST, MEMORY_LIMIT, NODE_LIMIT, UNKNOWN, WON
from solver.search import RELAX_AFTER, Limits, drive


class Scripted:
    """A kernel that needs ``work`` nodes, then ends with ``ending``."""

    def __init__(self, work: int, ending: str, name: str):
        self.work, self.ending, self.name = work, ending, name
        self.nodes = 0
        self.started = False

    def start(self):
        self.started = True
        return None

    def run(self, budget: int):
        step = min(budget, self.work - self.nodes)
        self.nodes += step
        return self.ending if self.nodes >= self.work else None

    def grow(self) -> bool:
        return False

    def line(self) -> list[Move]:
        return [Move("T1", "F1", None, 1)] if self.name == "main" else [Move("T2", "F2", None, 1)]


NO_LIMITS = Limits(max_nodes=None, timeout=None, tt_mb=1)


def test_twin_win_is_a_win_with_the_twins_line():
    main, twin = Scripted(10**9, WON, "main"), Scripted(50_000, WON, "twin")
    out = drive(main, NO_LIMITS, twin=twin)
    assert out.verdict == WON and out.line == twin.line()
    assert out.nodes == main.nodes + twin.nodes and main.nodes >= RELAX_AFTER


def test_twin_exhausted_is_a_loss_by_search():
    out = drive(Scripted(10**9, LOST, "main"), NO_LIMITS, twin=Scripted(70_000, LOST, "twin"))
    assert out.verdict == LOST and out.proof == "search"


def test_relaxed_win_proves_nothing_but_its_loss_is_a_proof():
    out = drive(Scripted(300_000, WON, "main"), NO_LIMITS, relaxed=Scripted(1000, WON, "relaxed"))
    assert out.verdict == WON and out.line == [Move("T1", "F1", None, 1)]
    out = drive(Scripted(10**9, WON, "main"), NO_LIMITS, relaxed=Scripted(1000, LOST, "relaxed"))
    assert out.verdict == LOST and out.proof == "relaxed-rules"


def test_twin_out_of_memory_leaves_the_main_search_alone():
    main = Scripted(400_000, LOST, "main")
    out = drive(main, NO_LIMITS, twin=Scripted(5_000, MEMORY_LIMIT, "twin"))
    assert out.verdict == LOST and out.proof == "search" and main.nodes == 400_000


def test_easy_deals_never_start_the_twin():
    twin = Scripted(1, WON, "twin")
    out = drive(Scripted(RELAX_AFTER - 1, LOST, "main"), NO_LIMITS, twin=twin)
    assert out.verdict == LOST and not twin.started and out.nodes == RELAX_AFTER - 1


def test_node_limit_counts_both_searches():
    main, twin = Scripted(10**9, WON, "main"), Scripted(10**9, WON, "twin")
    out = drive(main, Limits(max_nodes=1_000_000, timeout=None, tt_mb=1), twin=twin)
    assert (out.verdict, out.reason) == (UNKNOWN, NODE_LIMIT)
    assert out.nodes == main.nodes + twin.nodes == 1_000_000 and twin.nodes > 0


def test_relaxed_and_twin_together_are_refused():
    with pytest.raises(ValueError):
        drive(Scripted(1, WON, "main"), NO_LIMITS, relaxed=Scripted(1, LOST, "r"), twin=Scripted(1, WON, "t"))
