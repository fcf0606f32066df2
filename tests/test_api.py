"""The Python API: solver.solve, solver.make_deal, the game registry, and the
guarantee that a kernel line the reference engine rejects is never reported as a win."""

from __future__ import annotations

import json

import pytest

import solver
from solver import VerificationError
from solver.games import UnknownGame, game_names, get_game
from solver.games.klondike import dealfile, reference
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.game import Klondike
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import KlondikeSearch
from solver.core.moves import Move

TT = 64


def test_lost_verdicts_say_how_they_were_proved():
    """Solvitaire seed 558, draw 3: lost; the draw-1 relaxation proves it quickly."""
    r = solver.solve("klondike", seed=558, numbering="solvitaire", draw=3, tt_mb=TT, max_nodes=3_000_000)
    assert r.verdict == solver.LOST and r.proof == "relaxed-rules"
    r1 = solver.solve("klondike", seed=1, numbering="solvitaire", draw=3, tt_mb=TT)
    assert r1.verdict == solver.LOST and r1.proof in ("search", "relaxed-rules")


def test_solve_draw_3_seed_1():
    r = solver.solve("klondike", seed=1, draw=3, tt_mb=TT)
    assert r.verdict == solver.WON and r.won and r.reason is None
    assert r.verified is True
    assert r.game == "klondike" and r.seed == 1 and r.numbering == "pysolfc"
    assert r.rules == {"draw": 3, "passes": "unlimited", "worry_back": True}
    assert r.nodes > 0 and r.seconds >= 0 and r.moves
    obj = r.to_json()
    text = json.dumps(obj)  # JSON-able
    back = json.loads(text)
    assert back == obj
    assert set(obj) == {"game", "rules", "numbering", "seed", "verdict", "reason", "nodes", "seconds",
                        "verified", "proof", "best_progress", "moves_found", "line", "line_found_length",
                        "counters", "moves"}
    assert obj["proof"] is None  # set only for lost verdicts
    assert obj["best_progress"] == {"cards": 52, "of": 52}  # a win: every card home
    moves = [Move.from_json(m) for m in back["moves"]]
    assert moves == r.moves  # the JSON form round-trips
    assert reference.replay(klondike_deal(1, draw=3), KlondikeRules(draw=3), moves).is_won()


def test_solve_unknown_and_limits():
    r = solver.solve("klondike", seed=1, numbering="solvitaire", draw=3, max_nodes=5, tt_mb=TT)
    assert (r.verdict, r.reason, r.moves, r.verified) == (solver.UNKNOWN, "node-limit", [], False)
    assert r.to_json()["moves"] == []


@pytest.mark.parametrize("kw", [dict(max_nodes=0), dict(timeout=0), dict(timeout=-1), dict(tt_mb=0)])
def test_solve_rejects_bad_limits(kw):
    with pytest.raises(ValueError):
        solver.solve("klondike", seed=1, **kw)


@pytest.mark.parametrize("kw", [dict(draw=0), dict(passes=99), dict(rules="x"), dict(numbering="nope")])
def test_solve_rejects_bad_options(kw):
    with pytest.raises(ValueError):
        solver.solve("klondike", seed=1, tt_mb=TT, **kw)


def test_seed_and_deal_are_exclusive():
    with pytest.raises(ValueError, match="not both"):
        solver.solve("klondike", seed=1, deal=klondike_deal(1), tt_mb=TT)
    with pytest.raises(ValueError):
        solver.solve("klondike", tt_mb=TT)


# ------------------------------------------------------------------------ registry


@pytest.mark.parametrize("name", ["klondike", "Klondike", " KLONDIKE ", "k", "solitaire", "patience"])
def test_game_aliases(name):
    assert get_game(name) is Klondike


def test_unknown_game():
    with pytest.raises(UnknownGame) as info:
        get_game("freecell")
    assert isinstance(info.value, ValueError)
    assert "freecell" in str(info.value) and "klondike" in str(info.value)
    with pytest.raises(ValueError):
        solver.solve("freecell", seed=1, tt_mb=TT)


def test_game_names():
    assert "klondike" in game_names()


def test_solve_by_alias():
    r = solver.solve("k", seed=5, tt_mb=TT)
    assert r.game == "klondike" and r.verdict == solver.WON


# ----------------------------------------------------------------------- deal=


def test_solve_a_position():
    position = klondike_deal(5)
    assert isinstance(position, KlondikePosition)
    r = solver.solve("klondike", deal=position, tt_mb=TT)
    assert r.verdict == solver.WON and r.verified
    assert r.seed is None and r.numbering is None
    assert reference.replay(position, KlondikeRules(), r.moves).is_won()
    by_seed = solver.solve("klondike", seed=5, tt_mb=TT)
    assert r.moves == by_seed.moves and r.nodes == by_seed.nodes


def test_solve_a_deal_file_path(tmp_path):
    f = tmp_path / "game5.json"
    dealfile.dump_deal(klondike_deal(5), f)
    for deal in (f, str(f)):
        r = solver.solve("klondike", deal=deal, tt_mb=TT)
        assert r.verdict == solver.WON and r.verified and r.seed is None


def test_solve_an_invalid_position():
    position = klondike_deal(5)
    position.stock.pop()  # a card missing
    with pytest.raises(ValueError, match="missing card"):
        solver.solve("klondike", deal=position, tt_mb=TT)


def test_make_deal():
    g, rules, position = solver.make_deal("klondike", 123, draw=3)
    assert g is Klondike and rules == KlondikeRules(draw=3)
    assert position == klondike_deal(123, draw=3)


# ------------------------------------------------------------- verification guard


def _corrupt(monkeypatch, corrupt_line):
    """Make Klondike's searcher return a kernel whose winning line is corrupted."""

    class Corrupt(KlondikeSearch):
        def line(self):
            return corrupt_line(super().line())

    monkeypatch.setattr(Klondike, "searcher", staticmethod(lambda p, r: Corrupt(p, r)))


def _swap_first_tableau_move(line):
    """Replace the first tableau-to-foundation move by one from the wrong pile."""
    for i, m in enumerate(line):
        if m.src.startswith("T") and m.dst.startswith("F"):
            wrong = "T1" if m.src != "T1" else "T2"
            return line[:i] + [Move(wrong, m.dst, m.card, m.count)] + line[i + 1:]
    raise AssertionError("no tableau-to-foundation move in the line")


@pytest.mark.parametrize(
    "corrupt_line, what",
    [
        (lambda line: line[:-1], "not won"),  # replays but stops one move short
        (lambda line: line[:-1] + [Move("stock", "waste", None, 1)], "illegal"),  # empty stock
        (_swap_first_tableau_move, "illegal"),
        (lambda line: [], "not won"),
    ],
    ids=["truncated", "bad-last-move", "wrong-pile", "empty"],
)
def test_a_line_that_fails_replay_raises_verification_error(monkeypatch, corrupt_line, what):
    _corrupt(monkeypatch, corrupt_line)
    with pytest.raises(VerificationError) as info:
        solver.solve("klondike", seed=5, tt_mb=TT)
    message = str(info.value)
    assert message.startswith("BUG")
    assert "klondike" in message and "5" in message
    assert what in message
    assert isinstance(info.value.__cause__, reference.ReplayError)
    assert not isinstance(info.value, ValueError)  # not mistaken for bad input by the CLI


def test_verification_error_for_a_deal_position(monkeypatch):
    _corrupt(monkeypatch, lambda line: line[:-3])
    with pytest.raises(VerificationError, match=r"^BUG.*\(deal file\)"):
        solver.solve("klondike", deal=klondike_deal(5), tt_mb=TT)


def test_the_guard_sees_the_same_line_the_result_would_carry(monkeypatch):
    """api.solve verifies exactly the line it would return: an honest line passes."""
    seen = []
    real_verify = Klondike.verify

    def spy(position, rules, moves):
        seen.append(list(moves))
        return real_verify(position, rules, moves)

    monkeypatch.setattr(Klondike, "verify", staticmethod(spy))
    r = solver.solve("klondike", seed=5, tt_mb=TT)
    assert r.verified and seen == [r.moves]
