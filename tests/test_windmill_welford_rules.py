"""Welford's Windmill rules, one test per rule that sets it apart, each checked on the
reference engine (why_illegal / apply_move) AND on the kernel (its children of the
same position), so that both engines are pinned to the rule, not just to each other."""

from __future__ import annotations

import pytest

from solver.core.cards import Card
from solver.games.windmill_welford import reference as R
from solver.games.windmill_welford import searcher as S
from solver.games.windmill_welford.deals import position_with
from solver.core.moves import Move
from solver.games.replay import IllegalMove, ReplayError


def C(text: str) -> Card:
    return Card.parse(text)


FOUR = [[C("5C"), C("6C")], [C("5D"), C("6D")], [C("5H"), C("6H")], [C("5S"), C("6S")]]


def kernel_children(p):
    return S.successors(p, prune=False)


def ref_children(p):
    return R.successors(p)


def same_children(p):
    assert sorted(c.key() for c in kernel_children(p)) == sorted(c.key() for c in ref_children(p))


# ------------------------------------------------------------------ the Queen cap


def test_queen_cap_full_deck():
    """While pack 1 is being dealt the centre stops at its first Queen; a King may go on
    it only once pack 1 has left the stock."""
    p = position_with(13, FOUR, centre=12, waste=[C("KH")], pack1=3)
    move = Move("waste", "centre", C("KH"))
    assert "first Queen" in R.why_illegal(p, move)
    assert all(c.centre == 12 for c in kernel_children(p))
    same_children(p)
    free = position_with(13, FOUR, centre=12, waste=[C("KH")], pack1=0)
    assert R.why_illegal(free, move) is None
    assert any(c.centre == 13 for c in kernel_children(free))
    same_children(free)


def test_queen_cap_lifts_when_the_last_pack1_card_is_dealt():
    p = position_with(3, [[C("AD"), C("3D")]], centre=2, waste=[C("3C")], pack1=1)
    assert R.why_illegal(p, Move("waste", "centre", C("3C"))) is not None
    q = R.apply_move(p, Move("stock", "waste", None, 1))  # the last pack-1 card
    assert q.pack1 == 0 and not q.capped()
    # the kernel lifts the cap at the same moment: after its draw, a 3 may go up
    (drawn,) = [c for c in kernel_children(p) if len(c.waste) == 2]
    assert drawn == q
    q2 = position_with(3, [[C("AD"), C("3D")]], centre=2, waste=[C("2C"), C("3C")], top=[C("3H")], pack1=1)
    after = R.apply_move(q2, Move("stock", "waste", None, 1))
    assert after.waste[-1] == C("3H") and after.pack1 == 0
    assert R.why_illegal(after, Move("waste", "centre", C("3H"))) is None
    assert R.why_illegal(after, Move("C5", "centre", C("3D"))) is None
    assert {c.centre for c in kernel_children(after)} == {2, 3}
    same_children(after)


def test_below_the_cap_the_centre_builds():
    p = position_with(13, FOUR, centre=10, waste=[C("JH")], pack1=30)
    assert R.why_illegal(p, Move("waste", "centre", C("JH"))) is None
    q = R.apply_move(p, Move("waste", "centre", C("JH")))
    assert q.centre == 11
    assert R.why_illegal(q, Move("C5", "centre", C("6C"))) is not None  # wrong rank
    same_children(p)


# ------------------------------------------------------------------ sail priority


def test_sail_priority_over_king_piles():
    # ranks 4: king piles start with 4s; centre A,2 wants a 3
    kings = [[C("4C"), C("3C")], [], [], []]
    with_sail = position_with(4, [[C("AD"), C("3D")], [C("2H"), C("4H")]], centre=2, kings=kings)
    m = Move("K1", "centre", C("3C"))
    assert "priority" in R.why_illegal(with_sail, m)
    assert not any(c.kings[0] == [C("4C")] for c in kernel_children(with_sail))
    same_children(with_sail)
    # the same 3 buried under an outer card does not count; a 3 on the waste does not either
    buried = position_with(4, [[C("3D"), C("AD")], [C("2H"), C("4H")]], centre=2, kings=kings, waste=[C("3S")])
    assert R.why_illegal(buried, m) is None
    assert any(c.kings[0] == [C("4C")] and c.centre == 3 for c in kernel_children(buried))
    same_children(buried)


# ------------------------------------------------------------------ refill order


def test_refill_inner_cells_before_outer_ones():
    # sail 1 has only its inner card, sail 2 is empty, sail 3 full
    p = position_with(4, [[C("AD")], [], [C("2H"), C("4H")]], centre=1,
                      top=[C("2S"), C("3S"), C("4S")])  # 4S is dealt first
    assert [R.cell_name(*g) for g in p.gaps()] == ["C2", "C5", "C6"]
    assert "next gap" in R.why_illegal(p, Move("stock", "C5", C("4S")))
    assert "must be filled" in R.why_illegal(p, Move("stock", "waste", None, 1))
    q = R.apply_move(p, Move("stock", "C2", C("4S")))
    assert q.refilling
    # nothing else may be played while the sails are rebuilt
    assert R.why_illegal(p, Move("C7", "K1", C("4H"))) is None
    assert "being rebuilt" in R.why_illegal(q, Move("C7", "K1", C("4H")))
    assert "being rebuilt" in R.why_illegal(q, Move("stock", "waste", None, 1))
    q = R.apply_move(q, Move("stock", "C5", C("3S")))
    q = R.apply_move(q, Move("stock", "C6", C("2S")))
    assert not q.refilling
    assert q.sails == [[C("AD"), C("3S")], [C("4S"), C("2S")], [C("2H"), C("4H")]]
    # the kernel's refill is the same one act
    assert q in kernel_children(p)
    (action,) = [a for a in R.actions(p) if a[0].src == "stock"]
    assert [m.dst for m in action] == ["C2", "C5", "C6"]
    same_children(p)


def test_refill_stops_when_the_stock_runs_out():
    p = position_with(2, [[], [C("2C")]], centre=1, top=[C("AD"), C("2D")])  # 2D dealt first
    p.stock, p.waste = p.stock[-2:], p.stock[:-2]
    p.validate()
    assert [R.cell_name(*g) for g in p.gaps()] == ["C1", "C5", "C6"]
    (action,) = [a for a in R.actions(p) if a[0].src == "stock"]
    assert [(m.dst, m.card) for m in action] == [("C1", C("2D")), ("C5", C("AD"))]
    end = R.apply_action(p, action)
    assert not end.refilling and not end.stock and end.sails == [[C("2D"), C("AD")], [C("2C")]]
    assert end in kernel_children(p)
    same_children(p)


def test_draw_only_without_gaps_and_refill_is_the_players_choice():
    p = position_with(4, [[C("AD"), C("2D")], [C("3H")]], centre=1)
    srcs = {(m.src, m.dst) for m in R.legal_moves(p)}
    assert ("stock", "C6") in srcs and ("stock", "waste") not in srcs
    assert ("C5", "centre") in srcs  # the player may play before refilling
    same_children(p)


# ------------------------------------------------------------------ king piles


def test_completed_king_pile_is_out_of_play():
    # ranks 3: K1 = 3,2,A completed; the centre (A,2,3) wants an Ace next
    kings = [[C("3C"), C("2C"), C("AC")], [C("3D"), C("2D")], [C("3H")], []]
    p = position_with(3, [[C("2S"), C("3S")]], centre=3, kings=kings)
    assert "completed" in R.why_illegal(p, Move("K1", "centre", C("AC")))
    assert "completed" in R.why_illegal(p, Move("C5", "K1", C("3S")))
    assert all(c.kings[0] == kings[0] for c in kernel_children(p))
    same_children(p)
    # a King on a king pile never goes to the centre; other king-pile cards do
    q = position_with(3, [[C("AS"), C("AD")]], centre=2, kings=[[C("3C")], [C("3D"), C("2D")], [], []])
    assert "never goes" in R.why_illegal(q, Move("K1", "centre", C("3C")))
    r = position_with(3, [[C("3S"), C("3H")]], centre=4, kings=[[C("3C")], [C("3D"), C("2D")], [], []])
    assert R.why_illegal(r, Move("K2", "centre", C("2D"))) is None
    assert "only to the centre" in R.why_illegal(r, Move("K2", "K3", C("2D")))
    same_children(q)
    same_children(r)


def test_king_piles_start_with_a_king_and_build_down():
    p = position_with(13, [[C("5C"), C("QC")], [C("5D"), C("KS")]], centre=1, kings=[[C("KD")], [], [], []])
    assert R.why_illegal(p, Move("C5", "K1", C("QC"))) is None
    assert "starts a king pile" in R.why_illegal(p, Move("C5", "K2", C("QC")))
    assert R.why_illegal(p, Move("C6", "K2", C("KS"))) is None
    assert "one rank below" in R.why_illegal(p, Move("C6", "K1", C("KS")))
    same_children(p)


# ------------------------------------------------------------------ the extra pass


def _end_position(redeals: int):
    # ranks 3: every king pile done, the centre (A23A23A23) wants an Ace; sail 1 holds a
    # 3 (inner only), the waste A then 2 (the 2 on top) and the stock is empty: only
    # turning the waste over can win (refill the Ace to C5, play it, refill the 2, ...)
    kings = [[C("3C"), C("2C"), C("AC")], [C("3D"), C("2D"), C("AD")], [C("3H"), C("2H"), C("AH")],
             [C("3S"), C("2S"), C("AS")]]
    return position_with(3, [[C("3H")]], centre=9, kings=kings, waste=[C("AS"), C("2S")], redeals=redeals)


def test_single_extra_pass():
    p = _end_position(0)
    assert not p.stock
    q = R.apply_move(p, Move("waste", "stock", None, 0))
    assert q.redeals == 1 and q.stock == [C("2S"), C("AS")] and q.waste == []
    assert "not empty" in R.why_illegal(q, Move("waste", "stock", None, 0))
    same_children(p)
    line = [Move("stock", "C5", C("AS")), Move("C5", "centre", C("AS")), Move("stock", "C5", C("2S")),
            Move("C5", "centre", C("2S")), Move("C1", "centre", C("3H"))]
    assert R.replay(q, line).is_won()
    assert R.solve_exhaustive(p) is not None
    assert S.solve(p)[0] == "won"
    # once turned over, never again
    done = _end_position(1)
    assert "only once" in R.why_illegal(done, Move("waste", "stock", None, 0))
    assert R.successors(done) == [] and kernel_children(done) == []
    assert R.solve_exhaustive(done) is None
    assert S.solve(done)[0] == "lost"


def test_kernel_line_uses_the_extra_pass_and_replays():
    p = _end_position(0)
    verdict, line, _ = S.solve(p)
    assert verdict == "won"
    assert Move("waste", "stock", None, 0) in line
    R.verify_win(p, line)
    with pytest.raises(ReplayError):
        R.verify_win(p, line[:-1])


# ------------------------------------------------------------------ move checks


def test_wrong_cards_and_piles_are_refused():
    p = position_with(13, [[C("5C"), C("2C")], [C("5D"), C("2D")]], centre=1, waste=[C("9H")])
    for move, reason in [
        (Move("C1", "centre", C("5C")), "not the top card"),
        (Move("C5", "centre", C("3C")), "not in C5"),
        (Move("waste", "centre", C("9S")), "not the waste's top"),
        (Move("C9", "centre", C("2C")), "no pile"),
        (Move("C5", "waste", C("2C")), "cannot be played to waste"),
        (Move("C5", "centre", None), "must name its card"),
        (Move("stock", "waste", C("2C"), 1), "names no card"),
        (Move("waste", "stock", None, 0), "not empty"),
    ]:
        got = R.why_illegal(p, move)
        assert got is not None and reason in got, (move, got)
        with pytest.raises(IllegalMove):
            R.apply_move(p, move)
    assert R.why_illegal(p, Move("C5", "centre", C("2C"))) is None
