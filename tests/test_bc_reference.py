"""The Beleaguered Castle reference engine: its rules, one case at a time."""

from __future__ import annotations

import pytest

from solver.core.cards import Card
from solver.games.beleaguered_castle import reference
from solver.games.beleaguered_castle.deals import bc_deal
from solver.games.beleaguered_castle.position import BCPosition, PositionError
from solver.core.moves import Move

C = Card.parse


def small() -> BCPosition:
    # ranks A..4; F: C up to 2, D/H/S Ace.  T3 is empty.
    return BCPosition(
        [[C("4C"), C("3D")], [C("4H")], [], [C("2D"), C("4S"), C("3H")], [C("4D"), C("3C"), C("3S"), C("2H"), C("2S")]],
        [2, 1, 1, 1], ranks=4,
    )


def test_small_position_is_valid():
    small().validate()


def test_legal_moves_of_a_small_position():
    got = {str(m) for m in reference.legal_moves(small())}
    assert got == {
        "3D: T1 -> T2", "3D: T1 -> T3",
        "4H: T2 -> T3",
        "3H: T4 -> T2", "3H: T4 -> T3",
        "2S: T5 -> F4", "2S: T5 -> T1", "2S: T5 -> T4", "2S: T5 -> T3",
    }


@pytest.mark.parametrize(
    "move, words",
    [
        (Move("T1", "T4", C("3D")), "does not build down"),
        (Move("T1", "F2", C("3D")), "does not follow"),
        (Move("T1", "F1", C("3D")), "holds Clubs"),
        (Move("T1", "T2", C("4C")), "not the top card"),
        (Move("T1", "T2", C("3D"), 2), "one card moves at a time"),
        (Move("T3", "T1", C("4H")), "empty"),
        (Move("F1", "T3", C("2C")), "never come back"),
        (Move("T9", "T1", C("4H")), "no pile"),
        (Move("T2", "T2", C("4H")), "own pile"),
        (Move("T2", "waste", C("4H")), "no pile"),
        (Move("stock", "waste", None, 1), "no pile"),
    ],
)
def test_illegal_moves_say_why(move, words):
    assert words in reference.why_illegal(small(), move)
    with pytest.raises(reference.IllegalMove):
        reference.apply_move(small(), move)


def test_apply_move_builds_and_plays_home():
    p = reference.apply_move(small(), Move("T5", "T4", C("2S")))
    assert p.tableau[3] == [C("2D"), C("4S"), C("3H"), C("2S")] and p.tableau[4][-1] == C("2H")
    q = reference.apply_move(p, Move("T5", "F3", C("2H")))
    assert q.foundations == [2, 1, 2, 1] and q.tableau[4] == [C("4D"), C("3C"), C("3S")]
    assert small().tableau[4][-1] == C("2S")  # no aliasing
    assert q.key() != p.key() and len(reference.successors(small())) == 9


def test_replay_names_the_bad_move_and_verify_win():
    p = small()
    moves = [Move("T5", "F4", C("2S")), Move("T5", "F3", C("2H")), Move("T1", "T3", C("4C"))]
    with pytest.raises(reference.ReplayError) as err:
        reference.replay(p, moves)
    assert err.value.number == 3 and "move 3" in str(err.value)
    with pytest.raises(reference.ReplayError, match="not won"):
        reference.verify_win(p, moves[:2])


def test_exhaustive_search_and_perft_on_a_tiny_game():
    # Two piles: 2C on 3S can go home at once; everything follows.
    won = BCPosition([[C("3S"), C("2C")], [C("3C"), C("2S")], [C("3D"), C("2D")], [C("3H"), C("2H")]],
                     [1, 1, 1, 1], ranks=3)
    assert reference.solve_exhaustive(won) is True
    # 3C over 2C and no other pile: 3C can never move, so clubs never finish.
    lost = BCPosition([[C("2C"), C("3C")]], [1, 3, 3, 3], ranks=3)
    assert reference.solve_exhaustive(lost) is False
    assert reference.perft(lost, 3) == 0
    assert reference.perft(won, 1) == len(reference.legal_moves(won))


def test_validate_errors():
    with pytest.raises(PositionError, match="duplicate"):
        BCPosition([[C("2C"), C("2C")]], [1, 1, 1, 1], ranks=2).validate()
    with pytest.raises(PositionError, match="missing"):
        BCPosition([[C("2C")]], [1, 1, 1, 1], ranks=2).validate()
    with pytest.raises(PositionError, match="Aces start on the foundations"):
        BCPosition([[C("AC"), C("2C"), C("2D"), C("2H"), C("2S")]], [0, 1, 1, 1], ranks=2).validate()
    with pytest.raises(PositionError, match="tableau piles"):
        BCPosition([[] for _ in range(9)]).validate()
    bc_deal(1).validate()
