"""The Klondike reference engine on hand-made positions with answers worked out by hand."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.core.cards import Card, full_deck, parse_card_token
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.reference import (
    IllegalMove,
    ReplayError,
    apply_move,
    describe,
    legal_moves,
    macro_moves,
    macro_successors,
    perft,
    perft_divide,
    replay,
    solve_exhaustive,
    verify_win,
    why_illegal,
)
from solver.core.moves import Move

C = Card.parse
DRAW1 = KlondikeRules(draw=1)
DRAW3 = KlondikeRules(draw=3)


def make(piles, stock="", waste="", found=(0, 0, 0, 0), ranks=13, redeals=0) -> KlondikePosition:
    """Piles bottom to top as text, a lower-case suit = face down: ``["ah 2C", "3S"]``."""
    tableau, face_down = [], []
    for text in piles:
        cards, down = [], 0
        for token in text.split():
            card, up = parse_card_token(token)
            down += not up
            cards.append(card)
        tableau.append(cards)
        face_down.append(down)
    pos = KlondikePosition(
        tableau, face_down, [C(t) for t in stock.split()], [C(t) for t in waste.split()],
        list(found), redeals, ranks,
    )
    pos.validate()
    return pos


def draw(n):
    return Move("stock", "waste", None, n)


REDEAL = Move("waste", "stock", None, 0)


def mv(card, src, dst, count=1):
    return Move(src, dst, C(card), count)


def same(moves):
    assert len(moves) == len(set(moves)), "a move is listed twice"
    return set(moves)


# ---------------------------------------------------------------------------
# legal moves


# Ranks A..3, 3 piles.  T1: 2C face down, 3D.  T2: AD face down, 3S 2H.  T3: 3C.
# Stock AS 2D 3H AC (AC drawn first), waste 2S, AH on its foundation.
BASIC = dict(piles=["2c 3D", "ad 3S 2H", "3C"], stock="AS 2D 3H AC", waste="2S", found=(0, 0, 1, 0), ranks=3)


def test_basic_legal_moves_by_hand():
    pos = make(**BASIC)
    assert same(legal_moves(pos, DRAW1)) == {
        draw(1),
        mv("2S", "waste", "T1"),  # black 2 on red 3
        mv("2H", "T2", "F3"),  # AH is up
        mv("2H", "T2", "T3"),  # red 2 on black 3
    }
    # Nothing for worry-back: AH needs a black 2 to go on.
    assert same(legal_moves(pos, KlondikeRules(worry_back=False))) == same(legal_moves(pos, DRAW1))


def test_legal_moves_fixed_order():
    pos = make(**BASIC)
    assert legal_moves(pos, DRAW1) == [
        draw(1), mv("2S", "waste", "T1"), mv("2H", "T2", "F3"), mv("2H", "T2", "T3"),
    ]


def test_face_down_card_turns_up_after_a_move():
    pos = make(["2d AS", "ac 2H"], found=(0, 0, 1, 0), stock="2C 2S AD", ranks=2)
    after = apply_move(pos, DRAW1, mv("AS", "T1", "F4"))
    assert after.tableau[0] == [C("2D")] and after.face_down[0] == 0
    assert after.foundations == [0, 0, 1, 1]
    # The turned card is an ordinary face-up card now (2D does not go on 2H).
    assert mv("2D", "T1", "T2") not in legal_moves(after, DRAW1)
    after2 = apply_move(after, DRAW1, mv("2H", "T2", "F3"))
    assert after2.tableau[1] == [C("AC")] and after2.face_down[1] == 0
    assert mv("AC", "T2", "F1") in legal_moves(after2, DRAW1)
    # The original is untouched.
    assert pos.face_down == [1, 1] and pos.foundations == [0, 0, 1, 0]


def test_run_moves_whole_and_partial():
    # T1: 4S 3H 2C face up; T2 top 4D; T3 empty.  Ranks A..4: a 4 plays the King.
    pos = make(["4S 3H 2C", "ad 4D", "", "3C 2D"], stock="AC AH 2H 2S 3D 3S 4C 4H",
               found=(0, 0, 0, 1), ranks=4)
    moves = same(legal_moves(pos, DRAW1))
    assert mv("4S", "T1", "T3", 3) in moves  # 4-headed run into the empty pile
    assert mv("3H", "T1", "T3", 2) not in moves  # a 3 may not go to an empty pile
    assert mv("2C", "T1", "T3") not in moves
    assert mv("3C", "T4", "T2", 2) in moves  # black 3 on red 4
    assert mv("2D", "T4", "T3") not in moves
    after = apply_move(pos, DRAW1, mv("3C", "T4", "T2", 2))
    assert after.tableau[1] == [C("AD"), C("4D"), C("3C"), C("2D")] and after.face_down[1] == 1
    assert after.tableau[3] == []
    with pytest.raises(IllegalMove, match="not the bottom card"):
        apply_move(pos, DRAW1, mv("3H", "T1", "T2", 1))


def test_king_to_empty_pile_from_waste_and_foundation():
    pos = make(["", "2S"], stock="2H 3S", waste="AH 3H", found=(3, 3, 0, 1), ranks=3)
    moves = same(legal_moves(pos, DRAW1))
    assert mv("3H", "waste", "T1") in moves
    assert mv("3C", "F1", "T1") in moves and mv("3D", "F2", "T1") in moves  # worry back a "King"
    assert mv("2S", "T2", "T1") not in moves
    assert mv("3D", "F2", "T1") not in same(legal_moves(pos, KlondikeRules(worry_back=False)))
    with pytest.raises(IllegalMove, match="empty pile"):
        apply_move(pos, DRAW1, mv("2S", "T2", "T1"))


def test_worry_back_on_and_off():
    # 2C can come back off F1 onto the red 3 in T1.
    pos = make(["3D", "3S"], stock="AD AH 2D 2H 3C 2S 3H", found=(2, 0, 0, 1), ranks=3)
    on = same(legal_moves(pos, KlondikeRules(worry_back=True)))
    off = same(legal_moves(pos, KlondikeRules(worry_back=False)))
    assert on - off == {mv("2C", "F1", "T1")}
    after = apply_move(pos, DRAW1, mv("2C", "F1", "T1"))
    assert after.foundations == [1, 0, 0, 1] and after.tableau[0] == [C("3D"), C("2C")]
    with pytest.raises(IllegalMove, match="worry-back is off"):
        apply_move(pos, KlondikeRules(worry_back=False), mv("2C", "F1", "T1"))
    with pytest.raises(IllegalMove, match="not the top card"):
        apply_move(pos, DRAW1, mv("AC", "F1", "T2"))


def test_draw_three_order_and_end_of_stock():
    # Ranks A..2, one pile; stock (bottom to top) 2C AH 2H AD 2D: 2D is drawn first.
    pos = make(["2S"], stock="2C AH 2H AD 2D", found=(1, 0, 0, 1), ranks=2)
    assert draw(3) in legal_moves(pos, DRAW3)
    one = apply_move(pos, DRAW3, draw(3))
    assert one.stock == [C("2C"), C("AH")]
    assert one.waste == [C("2D"), C("AD"), C("2H")]  # 2D turned first, 2H ends on top
    # Only two cards left: the draw turns two.
    assert [m for m in legal_moves(one, DRAW3) if m.is_draw] == [draw(2)]
    with pytest.raises(IllegalMove, match="turns 2 card"):
        apply_move(one, DRAW3, draw(3))
    two = apply_move(one, DRAW3, draw(2))
    assert two.stock == [] and two.waste[-2:] == [C("AH"), C("2C")]
    # Draw 1 from the start turns exactly one.
    with pytest.raises(IllegalMove):
        apply_move(pos, DRAW1, draw(3))


def test_redeal_allowed_and_refused():
    pos = make(["2H", "2S"], waste="AC 2C AH", found=(0, 2, 0, 1), ranks=2)
    for rules, redeals, ok in [
        (KlondikeRules(passes=None), 0, True),
        (KlondikeRules(passes=1), 0, False),
        (KlondikeRules(passes=2), 0, True),
        (KlondikeRules(passes=2), 1, False),
        (KlondikeRules(passes=3), 1, True),
    ]:
        p = make(["2H", "2S"], waste="AC 2C AH", found=(0, 2, 0, 1), ranks=2, redeals=redeals)
        assert (REDEAL in legal_moves(p, rules)) is ok, (rules, redeals)
        if not ok:
            with pytest.raises(IllegalMove, match="no redeal left"):
                apply_move(p, rules, REDEAL)
    after = apply_move(pos, KlondikeRules(passes=3), REDEAL)
    assert after.stock == [C("AH"), C("2C"), C("AC")] and after.waste == [] and after.redeals == 1
    # AC was the first card drawn last pass: it comes out first again.
    assert apply_move(after, DRAW1, draw(1)).waste == [C("AC")]
    # Unlimited passes keep redeals at 0 so equal tables compare equal.
    assert apply_move(pos, DRAW1, REDEAL).redeals == 0
    # No redeal while the stock has cards or when the waste is empty.
    assert why_illegal(pos, DRAW1, REDEAL) is None
    stock_left = make(["2H", "2S"], stock="AC 2C AH", found=(0, 2, 0, 1), ranks=2)
    assert "stock is not empty" in why_illegal(stock_left, DRAW1, REDEAL)
    all_home = make(["", ""], found=(2, 2, 2, 2), ranks=2)
    assert "waste is empty" in why_illegal(all_home, DRAW1, REDEAL)
    assert "stock is empty" in why_illegal(all_home, DRAW1, draw(1))


def test_waste_top_only():
    pos = make(**BASIC)
    with pytest.raises(IllegalMove, match="not the waste top"):
        apply_move(pos, DRAW1, mv("AC", "waste", "F1"))
    with pytest.raises(IllegalMove):
        apply_move(pos, DRAW1, mv("2S", "waste", "F4"))  # needs AS first
    with pytest.raises(IllegalMove, match="no pile"):
        apply_move(pos, DRAW1, mv("2S", "waste", "T9"))


def _all_conceivable_moves(pos: KlondikePosition):
    names = ["stock", "waste"] + [f"T{i + 1}" for i in range(len(pos.tableau))] + ["F1", "F2", "F3", "F4"]
    cards = [None] + full_deck(pos.ranks)
    for src, dst in itertools.product(names, names):
        for card in cards:
            for count in range(0, 5):
                yield Move(src, dst, card, count)


@pytest.mark.parametrize("rules", [DRAW1, KlondikeRules(draw=3, passes=2, worry_back=False)])
def test_legal_moves_equal_all_moves_the_rules_accept(rules):
    """legal_moves only lists candidates; check it against every conceivable move."""
    rng = random.Random(7)
    start = make(["2c 3D", "ad 3S 2H", "3C"], stock="AS 2D 3H AC", waste="2S", found=(0, 0, 1, 0), ranks=3)
    for _walk in range(4):
        pos = start
        for _step in range(10):
            legal = legal_moves(pos, rules)
            brute = [m for m in _all_conceivable_moves(pos) if why_illegal(pos, rules, m) is None]
            assert same(legal) == set(brute)
            if not legal:
                break
            pos = apply_move(pos, rules, rng.choice(legal))
            pos.validate()


# ---------------------------------------------------------------------------
# replay

# Ranks A..2, one pile: AH face down under 2C; the waste AC 2H (2H on top) is stuck
# until the waste is turned over.  Diamonds and spades are already home.
STUCK = dict(piles=["ah 2C"], waste="AC 2H", found=(0, 2, 0, 2), ranks=2)
STUCK_WIN = [REDEAL, draw(1), mv("AC", "waste", "F1"), mv("2C", "T1", "F1"), mv("AH", "T1", "F3"),
             draw(1), mv("2H", "waste", "F3")]


def test_verify_win_accepts_a_winning_line():
    verify_win(make(**STUCK), DRAW1, STUCK_WIN)
    assert replay(make(**STUCK), DRAW1, STUCK_WIN).is_won()


def test_replay_names_the_bad_move():
    bad = STUCK_WIN[:2] + [mv("2C", "T1", "F1")] + STUCK_WIN[3:]
    with pytest.raises(ReplayError) as info:
        replay(make(**STUCK), DRAW1, bad)
    text = str(info.value)
    assert text.startswith("move 3 (2C: T1 -> F1) is illegal:")
    assert "does not follow" in text and "\n" not in text
    assert info.value.number == 3 and info.value.move == mv("2C", "T1", "F1")
    # The redeal is refused with a single pass.
    with pytest.raises(ReplayError, match=r"move 1 \(turn the waste over into the stock\).*no redeal left"):
        replay(make(**STUCK), KlondikeRules(passes=1), STUCK_WIN)


def test_verify_win_refuses_an_unfinished_game():
    with pytest.raises(ReplayError, match="not won"):
        verify_win(make(**STUCK), DRAW1, STUCK_WIN[:-1])


def test_replay_refuses_an_impossible_start():
    pos = make(**STUCK)
    pos.foundations[0] = 1  # AC twice
    with pytest.raises(ReplayError, match="duplicate card AC"):
        replay(pos, DRAW1, [])


# ---------------------------------------------------------------------------
# macro successors

# Ranks A..2, two piles 2H and 2C; stock AC AH (AH drawn first); D and S are home.
MACRO = dict(piles=["2H", "2C"], stock="AC AH", found=(0, 2, 0, 2), ranks=2)


def test_macro_successors_draw_one_by_hand():
    pos = make(**MACRO)
    # No non-stock move.  Draw: AH on top -> F3 or on 2C.  Draw again: AC on top ->
    # F1 or on 2H.  Redeal gives back the start talon: stop.
    expected = {
        make(["2H", "2C"], stock="AC", found=(0, 2, 1, 2), ranks=2),
        make(["2H", "2C AH"], stock="AC", found=(0, 2, 0, 2), ranks=2),
        make(["2H", "2C"], waste="AH", found=(1, 2, 0, 2), ranks=2),
        make(["2H AC", "2C"], waste="AH", found=(0, 2, 0, 2), ranks=2),
    }
    for rules in (DRAW1, KlondikeRules(passes=1), KlondikeRules(worry_back=False)):
        assert macro_successors(pos, rules) == expected
    # A position after draws alone is not a successor.
    assert apply_move(pos, DRAW1, draw(1)) not in macro_successors(pos, DRAW1)


def test_macro_successors_draw_three_by_hand():
    pos = make(**MACRO)
    # Draw 3 turns AH then AC: only AC ever reaches the top; turning over repeats.
    assert macro_successors(pos, DRAW3) == {
        make(["2H", "2C"], waste="AH", found=(1, 2, 0, 2), ranks=2),
        make(["2H AC", "2C"], waste="AH", found=(0, 2, 0, 2), ranks=2),
    }


def test_macro_successors_include_plain_moves_and_current_waste_top():
    pos = make(["2H", "2C"], stock="AC", waste="AH", found=(0, 2, 0, 2), ranks=2)
    # Plain moves: the waste top AH to F3 or onto 2C.  Drawing: AC comes on top (F1 or
    # onto 2H); after the redeal AH comes on top again: not offered twice; the next
    # draw repeats a talon: stop.
    assert macro_successors(pos, DRAW1) == {
        make(["2H", "2C"], stock="AC", found=(0, 2, 1, 2), ranks=2),
        make(["2H", "2C AH"], stock="AC", found=(0, 2, 0, 2), ranks=2),
        make(["2H", "2C"], waste="AH", found=(1, 2, 0, 2), ranks=2),
        make(["2H AC", "2C"], waste="AH", found=(0, 2, 0, 2), ranks=2),
    }


def test_current_waste_top_is_not_offered_again_after_a_redeal():
    # Waste AH AC (AC on top), 2 passes.  Plain: AC to F1 or onto 2H.  Redeal, draw:
    # AH on top (F3 or onto 2C).  Draw: AC on top again -- the same talon as now with
    # a redeal used up, so not a successor.  No redeal left: stop.
    pos = make(["2H", "2C"], waste="AH AC", found=(0, 2, 0, 2), ranks=2)
    assert macro_successors(pos, KlondikeRules(passes=2)) == {
        make(["2H", "2C"], waste="AH", found=(1, 2, 0, 2), ranks=2),
        make(["2H AC", "2C"], waste="AH", found=(0, 2, 0, 2), ranks=2),
        make(["2H", "2C"], stock="AC", found=(0, 2, 1, 2), ranks=2, redeals=1),
        make(["2H", "2C AH"], stock="AC", found=(0, 2, 0, 2), ranks=2, redeals=1),
    }


def test_macro_successors_with_limited_passes():
    # STUCK has no plain move.  With 2 passes: redeal, draw AC (plays to F1 only),
    # draw 2H (no play), no redeal left: one successor.  With 1 pass: none.
    pos = make(**STUCK)
    rules = KlondikeRules(passes=2)
    after = make(["ah 2C"], stock="2H", found=(1, 2, 0, 2), ranks=2, redeals=1)
    assert macro_successors(pos, rules) == {after}
    assert macro_moves(pos, rules) == {after: [REDEAL, draw(1), mv("AC", "waste", "F1")]}
    assert describe([REDEAL, draw(1), mv("AC", "waste", "F1")]) == "[redeal, 1 draw] AC: waste -> F1"
    assert describe([draw(3), draw(3), REDEAL, draw(1), mv("AC", "waste", "T2")]) == (
        "[2 draws, redeal, 1 draw] AC: waste -> T2"
    )
    assert macro_successors(pos, KlondikeRules(passes=1)) == set()


def test_perft_and_divide():
    pos = make(**MACRO)
    assert perft(pos, DRAW1, 0) == 1
    assert perft(pos, DRAW1, 1) == 4
    assert perft_divide(pos, DRAW1, 1) == {
        "[1 draw] AH: waste -> F3": 1,
        "[1 draw] AH: waste -> T2": 1,
        "[2 draws] AC: waste -> F1": 1,
        "[2 draws] AC: waste -> T1": 1,
    }
    # By hand, worry-back on:
    #  AH->F3: 2H->F3, AH back onto 2C, draw AC (F1 or onto 2H)         = 4
    #  AH->T2: AH->F3, draw AC (F1 or onto 2H)                          = 3
    #  AC->F1: waste AH (F3 or onto 2C), 2C->F1, AC back onto 2H        = 4
    #  AC->T1: waste AH (F3 or onto 2C), AC->F1                         = 3
    assert perft_divide(pos, DRAW1, 2) == {
        "[1 draw] AH: waste -> F3": 4,
        "[1 draw] AH: waste -> T2": 3,
        "[2 draws] AC: waste -> F1": 4,
        "[2 draws] AC: waste -> T1": 3,
    }
    assert perft(pos, DRAW1, 2) == 14


# ---------------------------------------------------------------------------
# brute force


def test_solve_ranks_one():
    won = make(["", ""], found=(1, 1, 1, 1), ranks=1)
    assert won.is_won() and solve_exhaustive(won, DRAW1) is True
    aces = make(["AC", "AD"], stock="AH", waste="AS", ranks=1)
    for rules in (DRAW1, DRAW3, KlondikeRules(passes=1, worry_back=False)):
        assert solve_exhaustive(aces, rules) is True


def test_solve_needs_a_redeal():
    pos = make(**STUCK)
    assert solve_exhaustive(pos, DRAW1) is True
    assert solve_exhaustive(pos, KlondikeRules(passes=2)) is True
    assert solve_exhaustive(make(**STUCK, redeals=1), KlondikeRules(passes=2)) is False
    assert solve_exhaustive(pos, KlondikeRules(passes=1)) is False
    # Draw 3 turns both waste cards again in the same order: never wins.
    assert solve_exhaustive(pos, DRAW3) is False


def test_solve_deadlock_is_lost():
    # 2C lies on AH and 2H on AC; with two piles neither 2 can ever move.
    pos = make(["ah 2C", "ac 2H"], stock="AD 2D AS 2S", ranks=2)
    for rules in (DRAW1, DRAW3, KlondikeRules(worry_back=False)):
        assert solve_exhaustive(pos, rules) is False


def test_solve_with_a_third_pile_wins():
    # The same deadlock with an empty third pile: a 2 (the "King") moves there.
    pos = make(["ah 2C", "ac 2H", ""], stock="AD 2D AS 2S", ranks=2)
    assert solve_exhaustive(pos, DRAW1) is True


def test_solve_gives_up_when_over_budget():
    pos = make(["ah 2C", "ac 2H", ""], stock="AD 2D AS 2S", ranks=2)
    assert solve_exhaustive(pos, DRAW1, max_states=3) is None


def test_solvitaire_unsolvable_test_deal():
    # Solvitaire's src/test/resources/klondike/SimpleUnsolvable.json (ranks A..4).
    pos = make(["as 2c 2d 2H", "ah 3h 2S", "ad 3C", "4S"], stock="3S 4D AC 4C 4H 3D", ranks=4)
    assert solve_exhaustive(pos, DRAW3) is False
