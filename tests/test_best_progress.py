"""Best progress (issue 11): every search records the most cards it ever had on the
foundations and the line to them.  Won deals have every card home; an unknown deal's
best line replays in the reference engine to a position with exactly that many cards
on the foundations; the driver counts a twin's progress but never a relaxed search's;
restarted searches keep the best over their phases; JSON, CLI, store (with the
migration of old databases), report and benchmark rows carry it."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3

import pytest

import solver
from cli_helpers import ROOT, patience_here
from solver.games import adapter_for, get_game
from solver.games.beleaguered_castle import reference as bc_ref
from solver.games.great_wheel import reference as gw_ref
from solver.games.great_wheel.deals import endgame_deal
from solver.games.klondike import reference as k_ref
from solver.games.windmill import reference as wm_ref
from solver.games.windmill_welford import reference as wf_ref
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill.searcher import restarts
from solver.games.windmill_welford.deals import welford_deal
from solver.core.moves import Move
from solver.engine.resources import tables
from solver.games.replay import replay_moves
from solver.core.result import LOST, UNKNOWN, WON, BestProgress, SolveResult
from solver.engine.search import Limits, LazyLine, Progress, Restarts, drive, luby
from solver.runs.store import SCHEMA_VERSION, Store

TT = 64


# ------------------------------------------------------------------ the reference side


def home(game: str, position) -> int:
    """Cards on the foundations of a reference position, counted here (not by the adapters)."""
    if game == "klondike" or game == "beleaguered-castle":
        return sum(position.foundations)
    if game == "great-wheel":
        return len(position.aces) + sum(len(p) for p in position.evens) + sum(len(p) for p in position.odds)
    if getattr(position, "preset", None) == "welford":
        return position.centre + sum(len(k) for k in position.kings)  # completed king piles included
    return len(position.centre) + sum(len(k) for k in position.kings)  # the base Ace is in the centre


def replay(game: str, rules, position, moves: list[Move]):
    """The reference engine's position after ``moves`` (ReplayError on an illegal move)."""
    if game == "klondike":
        apply = lambda p, m: k_ref.apply_move(p, rules, m)  # noqa: E731
    elif game == "beleaguered-castle":
        apply = bc_ref.apply_move
    elif game == "great-wheel":
        apply = lambda p, m: gw_ref.apply_move(p, rules, m)  # noqa: E731
    elif rules.preset == "welford":
        apply = wf_ref.apply_move
    else:
        apply = lambda p, m: wm_ref.apply_move(p, rules, m)  # noqa: E731
    return replay_moves(position, moves, apply, game)


# (game, seed, numbering, options, cards in the deal)
WON_DEALS = [
    ("klondike", 1, "pysolfc", {}, 52),
    ("klondike", 5, "solvitaire", {"draw": 3}, 52),  # the relaxed search never joins
    ("klondike", 4, "solvitaire", {"draw": 3}, 52),
    ("beleaguered-castle", 6, "solvitaire", {}, 52),
    ("beleaguered-castle", 2, "solvitaire", {}, 52),  # 98,918 nodes: the twin has joined
    ("great-wheel", 3, "pysolfc", {"rules": "pgs"}, 96),
    ("great-wheel", 3, "pysolfc", {"rules": "pysolfc"}, 96),
    ("great-wheel", 2, "pysolfc", {"rules": "pysolfc"}, 96),
    ("windmill", 3, "pysolfc", {"rules": "pysolfc"}, 104),
    ("windmill", 1, "pysolfc", {"rules": "pysolfc"}, 104),  # 7,675 nodes: restarts alongside
    ("windmill", 3, "pysolfc", {"rules": "strict"}, 104),
    ("windmill", 5, "pysolfc", {"rules": "welford"}, 104),
]


@pytest.mark.parametrize("game,seed,numbering,options,cards", WON_DEALS,
                         ids=[f"{g}-{s}-{n}-{o}" for g, s, n, o, _ in WON_DEALS])
def test_a_won_deal_has_every_card_home(game, seed, numbering, options, cards):
    r = solver.solve(game, seed, numbering=numbering, tt_mb=TT, **options)
    assert r.verdict == WON and r.verified
    assert r.best_progress == BestProgress(cards, cards) and r.best_progress.of == cards
    assert r.best_line == r.moves  # the kernel recorded the won position with its line


@pytest.mark.parametrize("game,position,rules,cards", [
    ("windmill", windmill_deal(1, ranks=2, cells=2), {}, 16),
    ("windmill", welford_deal(1, ranks=3, sails=2), {"rules": "welford"}, 24),
    ("great-wheel", endgame_deal(1, 6, 2, 2), {"rules": "pysolfc"}, 96),
], ids=["windmill-ranks-2", "welford-ranks-3", "great-wheel-endgame"])
def test_the_card_count_comes_from_the_position(game, position, rules, cards):
    """Reduced decks: "of" is the deal's own card count, not the full game's."""
    r = solver.solve(game, deal=position, tt_mb=TT, **rules)
    assert r.verdict == WON
    assert r.best_progress == (cards, cards)
    g = adapter_for(game, get_game(game).make_rules(**rules))
    assert g.total_cards(position) == cards and g.foundation_cards(position) == home(game, position)


# (game, seed, numbering, options, max_nodes)
UNKNOWN_DEALS = [
    ("klondike", 3, "solvitaire", {"draw": 3}, 150_000),  # the relaxed search has joined
    ("klondike", 15, "solvitaire", {"draw": 1}, 20_000),
    ("beleaguered-castle", 3, "solvitaire", {}, 20_000),
    ("beleaguered-castle", 56, "solvitaire", {}, 400_000),  # several restart phases
    ("great-wheel", 1, "pysolfc", {"rules": "pgs"}, 20_000),
    ("great-wheel", 1, "pysolfc", {"rules": "pysolfc"}, 100_000),
    ("windmill", 2, "pysolfc", {"rules": "pysolfc"}, 20_000),
    ("windmill", 2, "pysolfc", {"rules": "pysolfc"}, 300_000),  # several restart phases
    ("windmill", 1, "pysolfc", {"rules": "strict"}, 20_000),
    ("windmill", 2, "pysolfc", {"rules": "welford"}, 20_000),
    ("windmill", 1, "pysolfc", {"rules": "welford"}, 300_000),
]


@pytest.mark.parametrize("game,seed,numbering,options,max_nodes", UNKNOWN_DEALS,
                         ids=[f"{g}-{s}-{o}-{n}" for g, s, _, o, n in UNKNOWN_DEALS])
def test_an_unknown_deals_best_line_replays_to_its_best_position(game, seed, numbering, options, max_nodes):
    r = solver.solve(game, seed, numbering=numbering, max_nodes=max_nodes, tt_mb=TT, **options)
    assert r.verdict == UNKNOWN and r.reason == "node-limit"
    g, rules, position = solver.make_deal(game, seed, numbering=numbering, **options)
    cards, of = r.best_progress
    assert of == g.total_cards(position)
    assert 0 < cards < of
    assert cards > home(game, position)  # the search got further than the deal
    line = r.best_line
    assert line  # the deal itself is not the best position
    final = replay(game, rules, position, line)
    assert home(game, final) == cards
    assert g.foundation_cards(final) == cards
    # no position on the way had more (the line leads to the first position with that many)
    counts = [home(game, p) for p in g.positions(position, rules, line)]
    assert max(counts) == cards == counts[-1]


def test_the_search_keeps_the_line_not_only_the_count():
    """Best progress is the search's own (deterministic) record, not the end of the search."""
    a = solver.solve("windmill", 2, max_nodes=20_000, tt_mb=TT)
    b = solver.solve("windmill", 2, max_nodes=20_000, tt_mb=TT)
    assert a.best_progress == b.best_progress and a.best_line == b.best_line
    c = solver.solve("windmill", 2, max_nodes=300_000, tt_mb=TT)
    assert c.best_progress.cards >= a.best_progress.cards  # more nodes never lose progress


def test_a_lost_deal_keeps_its_best_progress():
    r = solver.solve("beleaguered-castle", 1, numbering="solvitaire", tt_mb=TT)
    assert r.verdict == LOST
    g, rules, position = solver.make_deal("beleaguered-castle", 1, numbering="solvitaire")
    cards, of = r.best_progress
    assert of == 52 and 4 <= cards < 52
    assert home("beleaguered-castle", replay("beleaguered-castle", rules, position, r.best_line)) == cards


# ------------------------------------------------------------------ the driver


class Scripted:
    """A kernel that needs ``work`` nodes, then ends with ``ending``; its best progress is
    ``cards`` with the one-move line ``name``."""

    def __init__(self, work: int, ending: str | None, name: str, cards: int):
        self.work, self.ending, self.name, self.cards = work, ending, name, cards
        self.nodes = 0
        self.join_after = 1 << 16
        self.proves_loss = True

    def start(self):
        self.nodes = 1
        return None

    def run(self, budget: int):
        self.nodes += min(budget, self.work - self.nodes)
        return self.ending if self.nodes >= self.work else None

    def counters(self) -> dict:
        return {}

    def grow(self) -> bool:
        return False

    def line(self) -> list[Move]:
        return [Move(self.name, "F1", None, 1)]

    def progress(self) -> Progress:
        return Progress(self.cards, LazyLine(lambda path: [Move(path, "F1", None, 1)], self.name))


NO_LIMITS = Limits()


def test_the_twins_progress_counts():
    out = drive(Scripted(10**9, None, "main", 10), Limits(max_nodes=500_000),
                twin=Scripted(10**9, None, "twin", 20))
    assert out.verdict == UNKNOWN and out.best.cards == 20 and out.best.line()[0].src == "twin"
    out = drive(Scripted(10**9, None, "main", 30), Limits(max_nodes=500_000),
                twin=Scripted(10**9, None, "twin", 20))
    assert out.best.cards == 30 and out.best.line()[0].src == "main"


def test_a_relaxed_searchs_progress_never_counts():
    out = drive(Scripted(10**9, None, "main", 10), Limits(max_nodes=500_000),
                relaxed=Scripted(10**9, None, "relaxed", 52))
    assert out.verdict == UNKNOWN and out.best.cards == 10 and out.best.line()[0].src == "main"
    out = drive(Scripted(300_000, LOST, "main", 10), NO_LIMITS, relaxed=Scripted(10**9, WON, "relaxed", 52))
    assert out.verdict == LOST and out.best.cards == 10


def test_a_twin_that_never_started_does_not_count():
    """Its workspace may still hold an earlier search's record."""
    out = drive(Scripted(1000, LOST, "main", 10), NO_LIMITS, twin=Scripted(10**9, None, "twin", 99))
    assert out.verdict == LOST and out.best.cards == 10


def test_a_win_reports_the_winners_progress():
    out = drive(Scripted(10**9, None, "main", 40), NO_LIMITS, twin=Scripted(70_000, WON, "twin", 52))
    assert out.verdict == WON and out.best.cards == 52 and out.best.line() == [Move("twin", "F1", None, 1)]


def test_restarts_keep_the_best_phase():
    """Phase 2 reached the most cards; later phases (which reuse the workspace) must not
    replace its record, and its own line is kept."""
    made = []

    def make(k):
        made.append(Scripted(10**6, None, f"phase{k}", 30 if k == 2 else 5 + k % 2))
        return made[-1]

    r = Restarts(make, lambda k: 10 * luby(k + 1))
    out = drive(r, Limits(max_nodes=200))
    assert out.verdict == UNKNOWN and len(made) > 4
    assert out.best.cards == 30 and out.best.line()[0].src == "phase2"
    assert r.best_cards() == 30 and r.best_line()[0].src == "phase2"


def test_restarts_of_a_real_game_keep_an_abandoned_phases_line():
    """Windmill's restarts with tiny phases: the best comes from a phase whose workspace
    later phases have overwritten; its line still replays to its count."""
    rules = WindmillRules("pysolfc")
    position = windmill_deal(2)
    with tables(TT):
        r = restarts(position, rules, unit=3000)
        out = drive(r, Limits(max_nodes=60_000))
    assert out.verdict == UNKNOWN and r.phase >= 5 and r.kept is not None
    assert out.best.cards == r.best_cards() >= r.kept.cards
    final = replay("windmill", rules, position, out.best.line())
    assert home("windmill", final) == out.best.cards
    kept = replay("windmill", rules, position, r.kept.line())
    assert home("windmill", kept) == r.kept.cards


# ------------------------------------------------------------------ JSON, CLI


def test_json_round_trip():
    r = solver.solve("windmill", 2, max_nodes=20_000, tt_mb=TT)
    obj = json.loads(json.dumps(r.to_json()))
    assert obj == r.to_json()
    assert obj["best_progress"] == {"cards": r.best_progress.cards, "of": 104}
    assert 0 < obj["best_progress"]["cards"] < 104
    assert BestProgress(**obj["best_progress"]) == r.best_progress
    bare = SolveResult("klondike", {}, None, None, UNKNOWN, "node-limit", 1, 0.0)
    assert bare.to_json()["best_progress"] is None and bare.best_line is None


def test_cli_text_of_an_unknown_verdict():
    expected = solver.solve("windmill", 2, max_nodes=20_000, tt_mb=TT).best_progress
    r = patience_here("solve", "windmill", "2", "--max-nodes", "20000", "--tt-mb", "64")
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stdout.splitlines() if x.startswith("best found:")]
    assert lines == [f"best found: {expected.cards} of 104 cards on the foundations"]
    assert re.fullmatch(r"best found: \d+ of 104 cards on the foundations", lines[0])
    r = patience_here("solve", "windmill", "2", "--max-nodes", "20000", "--tt-mb", "64", "--json")
    assert json.loads(r.stdout)["best_progress"] == {"cards": expected.cards, "of": 104}
    won = patience_here("solve", "windmill", "3", "--tt-mb", "64")
    assert "verdict: won" in won.stdout and "best found" not in won.stdout


# ------------------------------------------------------------------ store, export, report

# The schema of version 1 (before best progress), as the previous release created it.
V1_SCHEMA = [
    """CREATE TABLE configs (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, game TEXT NOT NULL,
       rules TEXT NOT NULL, numbering TEXT NOT NULL, max_nodes INTEGER, timeout REAL, tt_mb REAL NOT NULL)""",
    """CREATE TABLE deals (config INTEGER NOT NULL REFERENCES configs(id), seed INTEGER NOT NULL,
       verdict TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')), reason TEXT, proof TEXT,
       nodes INTEGER NOT NULL, seconds REAL NOT NULL, length INTEGER NOT NULL, line TEXT,
       verified INTEGER NOT NULL, stored_states INTEGER, finished REAL NOT NULL, version TEXT,
       UNIQUE (config, seed), CHECK (verdict != 'won' OR verified = 1),
       CHECK ((verdict = 'unknown') = (reason IS NOT NULL)), CHECK (reason IS NULL OR reason != 'interrupted'))""",
    """CREATE VIEW results AS
       SELECT c.game, c.rules, c.numbering, c.max_nodes, c.timeout, c.tt_mb, d.seed, d.verdict, d.reason, d.proof,
              d.nodes, d.seconds, d.length, d.verified, d.stored_states, d.finished, d.version, d.line, d.config
       FROM deals d JOIN configs c ON c.id = d.config""",
]


def _v1_database(path):
    conn = sqlite3.connect(path)
    for statement in V1_SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO configs VALUES (1, 'k', 'windmill', '{}', 'pysolfc', 1000, NULL, 64)")
    conn.execute("INSERT INTO deals VALUES (1, 7, 'unknown', 'node-limit', NULL, 1000, 0.5, 0, NULL, 0, 10, 0, 'x')")
    conn.execute("INSERT INTO deals VALUES (1, 8, 'lost', NULL, 'search', 900, 0.4, 0, NULL, 0, 10, 0, 'x')")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def _unknown(seed: int, cards: int, of: int = 104) -> SolveResult:
    return SolveResult("windmill", {}, "pysolfc", seed, UNKNOWN, "node-limit", 1000, 0.5,
                       best_progress=BestProgress(cards, of))


def test_an_old_database_is_migrated_and_its_rows_read_back_without_progress(tmp_path):
    path = tmp_path / "old.sqlite"
    _v1_database(path)
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        rows = store.rows(1)
        assert [(r.seed, r.best_cards, r.best_of) for r in rows] == [(7, None, None), (8, None, None)]
        assert store.add(1, _unknown(9, 61))
        assert [(r.seed, r.best_cards, r.best_of) for r in store.rows(1)][-1] == (9, 61, 104)
        exported = {row["seed"]: row for row in store.export()}
    assert (exported[7]["best_cards"], exported[7]["best_of"]) == (None, None)
    assert (exported[9]["best_cards"], exported[9]["best_of"]) == (61, 104)
    with Store(path) as store:  # opening again changes nothing
        assert len(store.rows(1)) == 3


def test_a_database_of_a_newer_schema_is_refused(tmp_path):
    from solver.runs.store import APPLICATION_ID, StoreError

    path = tmp_path / "new.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        Store(path)


def test_batch_rows_export_and_report_carry_best_progress(tmp_path):
    db = tmp_path / "b.sqlite"
    results = {r.seed: r for r in solver.batch("windmill", "1-4", max_nodes=20_000, tt_mb=TT, workers=1, db=db)}
    assert any(r.verdict == UNKNOWN for r in results.values())
    r = patience_here("export", "--db", str(db), "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    for row in map(json.loads, r.stdout.splitlines()):
        best = results[row["seed"]].best_progress
        assert (row["best_cards"], row["best_of"]) == (best.cards, best.of)
        if row["verdict"] == WON:
            assert row["best_cards"] == 104
    unknown = sorted(r.best_progress.cards for r in results.values() if r.verdict == UNKNOWN)
    out = patience_here("report", "--db", str(db), "--out", str(tmp_path / "rep"))
    assert out.returncode == 0, out.stderr
    want = f"unknown deals, best progress (cards of 104): min {unknown[0]} / median "
    assert want in out.stdout and f"max {unknown[-1]} ({len(unknown)} deals)" in out.stdout
    assert want in (tmp_path / "rep" / "report.md").read_text()


def test_report_distribution_and_histogram(tmp_path):
    from solver.runs.report import markdown_table, progress_summary, summarize, summary_text

    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        cid = store.config_id({"game": "windmill", "rules": {}, "numbering": "pysolfc", "max_nodes": 1000,
                               "timeout": None, "tt_mb": 64.0})
        for seed, cards in enumerate([30, 45, 47, 61, 98], 1):
            store.add(cid, _unknown(seed, cards))
        won = SolveResult("windmill", {}, "pysolfc", 6, WON, None, 10, 0.1, verified=True,
                          best_progress=BestProgress(104, 104))
        store.add(cid, won)
        old = store.conn.execute  # a row stored before best progress: NULL columns
        old("INSERT INTO deals (config, seed, verdict, reason, nodes, seconds, length, verified, finished) "
            "VALUES (?, 7, 'unknown', 'node-limit', 1000, 0.5, 0, 0, 0)", (cid,))
        config = store.configs()[0]
        rows = store.rows(cid)
    p = progress_summary(rows)
    assert (p.low, p.median, p.high, p.of, p.missing) == (30, 47, 98, 104, 1)  # the win is not an unknown deal
    assert p.histogram() == [(30, 39, 1), (40, 49, 2), (50, 59, 0), (60, 69, 1), (70, 79, 0), (80, 89, 0),
                             (90, 99, 1)]
    s = summarize(config, rows)
    table = markdown_table([s])
    assert "| 30 / 47 / 98 of 104 |" in table
    line = ("unknown deals, best progress (cards of 104): min 30 / median 47 / max 98 (5 deals; 1 stored without "
            "a record); histogram 30-39: 1, 40-49: 2, 50-59: 0, 60-69: 1, 70-79: 0, 80-89: 0, 90-99: 1")
    assert line in table and line in summary_text(s)
    assert progress_summary([r for r in rows if r.verdict == WON]) is None


def _bench_game():
    spec = importlib.util.spec_from_file_location("bench_game", ROOT / "benchmarks" / "bench_game.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_report_line_skips_old_rows():
    bench = _bench_game()
    rows = [
        {"seed": 1, "verdict": "won", "reason": None, "nodes": 10, "stored": 5, "seconds": 0.1, "moves": 5,
         "verified": True, "proof": None, "best_progress": {"cards": 104, "of": 104}},
        {"seed": 2, "verdict": "unknown", "reason": "time-limit", "nodes": 10, "stored": 5, "seconds": 60,
         "moves": 0, "verified": False, "proof": None, "best_progress": {"cards": 50, "of": 104}},
        {"seed": 3, "verdict": "unknown", "reason": "time-limit", "nodes": 10, "stored": 5, "seconds": 60,
         "moves": 0, "verified": False, "proof": None},  # an old row
        {"seed": 4, "verdict": "unknown", "reason": "time-limit", "nodes": 10, "stored": 5, "seconds": 60,
         "moves": 0, "verified": False, "proof": None, "best_progress": {"cards": 70, "of": 104}},
    ]
    assert bench.progress_of_unknown(rows) == "50 / 60 / 70 of 104 cards (2 of 3 unknown deals carry it)"
    assert bench.progress_of_unknown(rows[:1]) == "-"
    assert bench.progress_of_unknown(rows[2:3]) == "not recorded (0 of 1 unknown deals carry it)"
    text = bench.report("t", rows, 60)
    assert "| unknown deals' best progress (most cards on the foundations): min / median / max | " \
           "50 / 60 / 70 of 104 cards (2 of 3 unknown deals carry it) |" in text
