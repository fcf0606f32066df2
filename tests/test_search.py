"""The search driver (search.drive) with scripted kernels: how a second search's
outcome becomes the verdict, and that limits count both searches' nodes."""

from __future__ import annotations

import pytest

from solver.core.moves import Move
from solver.core.result import LOST, MEMORY_LIMIT, NODE_LIMIT, UNKNOWN, WON
from solver.engine.search import RELAX_AFTER, Limits, Restarts, drive, luby


class Scripted:
    """A kernel that needs ``work`` nodes, then ends with ``ending``."""

    join_after = RELAX_AFTER
    proves_loss = True

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

    def counters(self) -> dict:
        return {}

    def grow(self) -> bool:
        return False

    def line(self) -> list[Move]:
        return [Move("T1", "F1", None, 1)] if self.name == "main" else [Move("T2", "F2", None, 1)]

    def progress(self):
        return None  # keeps no best position


NO_LIMITS = Limits(max_nodes=None, timeout=None)


def test_twin_win_is_a_win_with_the_twins_line():
    main, twin = Scripted(10**9, WON, "main"), Scripted(50_000, WON, "twin")
    out = drive(main, NO_LIMITS, twin=twin)
    assert out.verdict == WON and out.line == twin.line()
    assert out.nodes == main.nodes + twin.nodes and main.nodes >= RELAX_AFTER


def test_twin_exhausted_is_a_loss_by_search():
    out = drive(Scripted(10**9, LOST, "main"), NO_LIMITS, twin=Scripted(70_000, LOST, "twin"))
    assert out.verdict == LOST and out.proof == "search"


def narrowed(work: int, ending: str) -> Scripted:
    twin = Scripted(work, ending, "twin")
    twin.proves_loss = False  # tries only some moves (Great Wheel's twin)
    return twin


def test_narrowed_twin_exhausted_proves_nothing_and_is_dropped():
    main, twin = Scripted(400_000, WON, "main"), narrowed(5_000, LOST)
    twin.join_after = 0
    out = drive(main, NO_LIMITS, twin=twin)
    assert twin.nodes == 5_000  # it ran out of moves, long before the main search won
    assert out.verdict == WON and out.line == main.line() and main.nodes == 400_000
    twin = narrowed(5_000, LOST)
    twin.join_after = 0
    out = drive(Scripted(10**9, WON, "main"), Limits(max_nodes=500_000, timeout=None), twin=twin)
    assert twin.nodes == 5_000 and out.verdict == UNKNOWN and out.reason == NODE_LIMIT and out.proof is None


def test_narrowed_twin_win_is_a_win():
    out = drive(Scripted(10**9, LOST, "main"), NO_LIMITS, twin=narrowed(50_000, WON))
    assert out.verdict == WON and out.line == [Move("T2", "F2", None, 1)]


def test_a_narrowed_main_search_is_refused():
    with pytest.raises(ValueError, match="every legal move"):
        drive(narrowed(1, LOST), NO_LIMITS)


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
    out = drive(main, Limits(max_nodes=1_000_000, timeout=None), twin=twin)
    assert (out.verdict, out.reason) == (UNKNOWN, NODE_LIMIT)
    assert out.nodes == main.nodes + twin.nodes == 1_000_000 and twin.nodes > 0


def test_relaxed_and_twin_together_share_the_second_half():
    """Both join; the main search keeps every other slice and the two share the rest."""
    main, relaxed, twin = Scripted(10**9, WON, "main"), Scripted(10**9, LOST, "r"), Scripted(10**9, WON, "t")
    out = drive(main, Limits(max_nodes=40_000_000, timeout=None), relaxed=relaxed, twin=twin)
    assert (out.verdict, out.reason) == (UNKNOWN, NODE_LIMIT)
    assert out.nodes == main.nodes + relaxed.nodes + twin.nodes == 40_000_000
    assert abs(relaxed.nodes - twin.nodes) <= 1 << 19
    # the helpers' slices start small and double (7 slices each to MAX_SLICE), the main's are full
    assert 0 <= main.nodes - (relaxed.nodes + twin.nodes) <= 14 << 19 and twin.nodes > 8_000_000


def test_a_relaxed_loss_beside_a_twin_is_the_relaxed_proof():
    relaxed = Scripted(300_000, LOST, "r")
    relaxed.proof = "low-cards-released"  # a search of a game's own relaxation names its proof
    twin = Scripted(10**9, WON, "t")
    out = drive(Scripted(10**9, WON, "main"), NO_LIMITS, relaxed=relaxed, twin=twin)
    assert out.verdict == LOST and out.proof == "low-cards-released" and twin.nodes > 0
    out = drive(Scripted(10**9, WON, "main"), NO_LIMITS, relaxed=Scripted(300_000, LOST, "r"),
                twin=Scripted(10**9, WON, "t"))
    assert out.proof == "relaxed-rules"  # no name of its own


def test_a_relaxed_win_is_dropped_and_the_twin_goes_on():
    main, relaxed, twin = Scripted(10**9, LOST, "main"), Scripted(5_000, WON, "r"), Scripted(2_000_000, WON, "t")
    out = drive(main, NO_LIMITS, relaxed=relaxed, twin=twin)
    assert out.verdict == WON and out.line == twin.line() and relaxed.nodes == 5_000
    assert out.nodes == main.nodes + relaxed.nodes + twin.nodes


def test_a_narrowed_twin_beside_a_relaxed_search_never_proves_a_loss():
    main, relaxed, twin = Scripted(10**9, WON, "main"), Scripted(10**9, WON, "r"), narrowed(5_000, LOST)
    out = drive(main, Limits(max_nodes=3_000_000, timeout=None), relaxed=relaxed, twin=twin)
    assert twin.nodes == 5_000 and (out.verdict, out.reason, out.proof) == (UNKNOWN, NODE_LIMIT, None)


# ------------------------------------------------------------------ Restarts


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    with pytest.raises(ValueError):
        luby(0)


class Phase(Scripted):
    """Phase k of a restart schedule; ``made`` records every phase built."""

    def __init__(self, work: int, ending: str, k: int):
        super().__init__(work, ending, f"phase{k}")
        self.k = k

    def start(self):
        self.nodes = 1  # the root, as real kernels count it
        return super().start()

    def line(self) -> list[Move]:
        return [Move("T1", "F1", None, self.k)]


def _restarts(works_endings, unit=10):
    made = []

    def make(k):
        work, ending = works_endings(k)
        made.append(Phase(work, ending, k))
        return made[-1]

    return Restarts(make, lambda k: unit * luby(k + 1)), made


def test_restarts_abandon_phases_without_a_verdict_and_return_a_later_phases_win():
    # phases 0..4 would need 10**6 nodes; phase 5 wins after 15 nodes (its Luby budget is 20)
    r, made = _restarts(lambda k: (15, WON) if k == 5 else (10**6, LOST))
    out = drive(r, NO_LIMITS)
    assert out.verdict == WON and out.line == [Move("T1", "F1", None, 5)]
    assert [p.nodes for p in made] == [10, 10, 20, 10, 10, 15]
    assert out.nodes == sum(p.nodes for p in made)


def test_restarts_prove_a_loss_only_when_a_phase_is_exhausted():
    # every phase needs 35 nodes to exhaust the space: the first with a budget >= 35 is phase 6 (40)
    r, made = _restarts(lambda k: (35, LOST))
    out = drive(r, NO_LIMITS)
    assert out.verdict == LOST and out.proof == "search"
    assert len(made) == 7 and made[-1].nodes == 35 and all(p.nodes < 35 for p in made[:-1])


def test_restarts_under_a_node_limit_end_unknown():
    r, made = _restarts(lambda k: (10**6, LOST))
    out = drive(r, Limits(max_nodes=1000, timeout=None))
    assert out.verdict == UNKNOWN and out.reason == NODE_LIMIT and out.nodes == 1000


def test_restarts_out_of_memory_end_the_whole_search():
    r, made = _restarts(lambda k: (15, MEMORY_LIMIT) if k == 2 else (10**6, LOST))
    out = drive(r, NO_LIMITS)
    assert out.verdict == UNKNOWN and out.reason == MEMORY_LIMIT and len(made) == 3


def _ladder(works_endings, budgets):
    """A ladder of narrowed phases (proves_loss False) with the given node budgets."""
    made = []

    def make(k):
        work, ending = works_endings(k)
        made.append(Phase(work, ending, k))
        made[-1].proves_loss = False
        return made[-1]

    return Restarts(make, lambda k: budgets[k], phases=len(budgets)), made


def test_a_ladder_goes_on_when_a_narrowed_phase_runs_out_of_moves():
    # phase 0 runs out of moves after 30 nodes (no loss), phase 1 wins after 50
    r, made = _ladder(lambda k: [(30, LOST), (50, WON)][k], [1000, 1000])
    r.join_after = 0
    out = drive(Scripted(10**9, WON, "main"), NO_LIMITS, twin=r)
    assert out.verdict == WON and out.line == [Move("T1", "F1", None, 1)] and [p.nodes for p in made] == [30, 50]


def test_a_spent_ladder_proves_nothing():
    # phase 0 spends its budget, phase 1 runs out of moves: the ladder says LOST, which as
    # a twin is dropped (the main search's verdict stands); alone it claims nothing more
    r, made = _ladder(lambda k: [(10**6, LOST), (40, LOST)][k], [100, 1000])
    assert not r.proves_loss
    main = Scripted(10**6, WON, "main")
    out = drive(main, NO_LIMITS, twin=r)
    assert out.verdict == WON and out.line == main.line() and [p.nodes for p in made] == [100, 40]
    r, made = _ladder(lambda k: (10**6, LOST), [100, 200])
    out = drive(Scripted(10**6, LOST, "main"), NO_LIMITS, twin=r)
    assert out.verdict == LOST and [p.nodes for p in made] == [100, 200]
    assert out.nodes >= 10**6  # the main search's loss, not the spent ladder's


def test_complete_phases_never_end_as_a_spent_ladder():
    r = Restarts(lambda k: Phase(10**6, LOST, k), lambda k: 10, phases=2)
    with pytest.raises(ValueError, match="ladder"):
        drive(Scripted(10**6, WON, "main"), NO_LIMITS, twin=r)


def test_a_narrowed_phase_before_complete_ones():
    # phase 0 narrowed runs out of moves (no loss); phase 1, complete, is exhausted: a loss
    made = []

    def make(k):
        made.append(Phase(20, LOST, k))
        made[-1].proves_loss = k > 0
        return made[-1]

    r = Restarts(make, lambda k: 1000)
    r.join_after = 0
    out = drive(Scripted(10**9, WON, "main"), NO_LIMITS, twin=r)
    assert out.verdict == LOST and out.proof == "search" and len(made) == 2


def test_a_twin_may_join_at_once():
    main, twin = Scripted(10**9, WON, "main"), Scripted(5000, WON, "twin")
    twin.join_after = 0
    out = drive(main, NO_LIMITS, twin=twin)
    assert out.verdict == WON and out.line == twin.line() and main.nodes < RELAX_AFTER


class Growing(Scripted):
    """As Scripted, but its table fills up every ``every`` nodes (and grows)."""

    def __init__(self, work: int, ending: str, name: str, every: int):
        super().__init__(work, ending, name)
        self.every = every

    def run(self, budget: int):
        next_fill = (self.nodes // self.every + 1) * self.every
        if self.nodes + budget >= next_fill and next_fill < self.work:
            self.nodes = next_fill
            return MEMORY_LIMIT
        return super().run(budget)

    def grow(self) -> bool:
        return True


def test_table_growth_does_not_change_how_two_searches_interleave():
    """A table that starts small (grows often) and one that starts big (never grows)
    give the same node counts: slices end by node counts alone."""
    plain = drive(Scripted(10**9, WON, "main"), NO_LIMITS, twin=Scripted(300_000, WON, "twin"))
    grown = drive(Growing(10**9, WON, "main", 777), NO_LIMITS, twin=Growing(300_000, WON, "twin", 1234))
    assert grown.verdict == plain.verdict == WON and grown.nodes == plain.nodes


def test_restarts_refuse_budgets_that_cannot_make_progress():
    r, _ = _restarts(lambda k: (10**6, LOST), unit=1)  # phases of 1 node: only the root
    with pytest.raises(ValueError, match="at least 2"):
        drive(r, NO_LIMITS)


def test_node_limit_is_exact_when_the_twin_joins():
    main, twin = Scripted(10**9, WON, "main"), Phase(10**9, WON, 0)
    twin.join_after = 0
    out = drive(main, Limits(max_nodes=1, timeout=None), twin=twin)
    assert out.verdict == UNKNOWN and out.nodes == 1


def test_time_limit_is_kept_to_within_a_small_slice(monkeypatch):
    """Near the limit a slice shrinks to the time left (at the rate so far): the search
    stops close to --timeout, not up to a whole slice (a third of a second) past it."""
    import solver.engine.search as search

    clock = [0.0]
    monkeypatch.setattr(search.time, "perf_counter", lambda: clock[0])

    class Timed(Scripted):  # 1 M nodes a second on a fake clock
        def run(self, budget):
            before = self.nodes
            got = super().run(budget)
            clock[0] += (self.nodes - before) / 1e6
            return got

    k = Timed(10**9, LOST, "main")
    out = drive(k, Limits(max_nodes=None, timeout=2.0))
    assert out.verdict == UNKNOWN and out.reason == "time-limit"
    assert 2.0 <= out.seconds <= 2.0 + search.MIN_SLICE / 1e6 * 2, out.seconds
