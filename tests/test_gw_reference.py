"""Great Wheel reference engine: each rule, the automatic actions and the presets."""

from __future__ import annotations

import pytest

from solver.core.cards import Card
from solver.games.great_wheel import reference as R
from solver.games.great_wheel.deals import gw_deal
from solver.games.great_wheel.position import GWPosition, GWRules, PositionError
from solver.core.moves import Move
from solver.games.replay import IllegalMove, ReplayError

PGS, PYS = GWRules("pgs"), GWRules("pysolfc")


def c(text):
    return Card.parse(text)


def cards(text):
    return [c(t) for t in text.split()]


def position(tableau, stock="", waste="", aces="", evens=(), odds=(), ranks=12, fill=4):
    """A position whose missing cards are put on the foundations (completing Evens/Odds
    piles and Aces as needed), so tests name only the cards that matter."""
    p = GWPosition([cards(t) for t in tableau], cards(stock), cards(waste), cards(aces),
                   [cards(e) for e in evens] + [[] for _ in range(8 - len(evens))],
                   [cards(o) for o in odds] + [[] for _ in range(8 - len(odds))], ranks, fill)
    p.validate()
    return p


def late(tableau, stock="", waste="", ranks=9):
    """A late position of the A..ranks game: every card not named is on a foundation;
    each suit's two Evens (Odds) piles take the longest prefixes the remaining cards allow
    (the test names only chain tops or whole tails, so nothing is left over)."""
    held = cards(" ".join(tableau) + " " + stock + " " + waste)
    left = {(r, s): 2 for s in range(4) for r in range(1, ranks + 1)}
    for h in held:
        left[(h.rank, h.suit)] -= 1
    evens, odds = [], []
    for start, out in ((2, evens), (3, odds)):
        for s in range(4):
            for _ in range(2):
                pile, r = [], start
                while r <= ranks and left[(r, s)] > 0:
                    pile.append(Card(r, s))
                    left[(r, s)] -= 1
                    r += 2
                out.append(" ".join(map(str, pile)))
    reds = [Card(1, s) for s in (1, 2) for _ in range(left[(1, s)])]
    blacks = [Card(1, s) for s in (0, 3) for _ in range(left[(1, s)])]
    for k in list(left):
        if k[0] != 1 and left[k]:
            raise ValueError(f"test position leaves {left[k]} x {Card(*k)} nowhere")
    aces = []
    turn_red = len(reds) >= len(blacks)
    while reds or blacks:
        aces.append((reds if turn_red else blacks).pop())
        turn_red = not turn_red
    return position(tableau, stock, waste, " ".join(map(str, aces)), evens, odds, ranks)


def test_deal_moves():
    p = gw_deal(1)
    assert set(map(str, R.legal_moves(p, PGS))) == {"draw 1 from the stock", "3D: T4 -> O1"}
    q = R.apply_move(p, PGS, Move("stock", "waste"))
    assert q.waste == cards("4C TC") and len(q.stock) == 62


def test_aces_alternate_colours():
    p = late(["AH", "AD", "AS"])
    top = p.aces[-1]
    for pile, ace in (("T1", c("AH")), ("T2", c("AD")), ("T3", c("AS"))):
        reason = R.why_illegal(p, PGS, Move(pile, "aces", ace))
        assert (reason is None) == (ace.red != top.red), reason


def test_evens_and_odds():
    p = late(["8H", "9C", "8D 6D 4D 2D"])
    names = [str(m) for m in R.legal_moves(p, PGS)]
    assert any(n.startswith("8H: T1 -> E") for n in names)
    assert any(n.startswith("9C: T2 -> O") for n in names)
    two = next(m for m in R.legal_moves(p, PGS) if m.card == c("2D"))
    q = R.apply_move(p, PGS, two)
    assert q.evens[int(two.dst[1:]) - 1] == [c("2D")]
    assert R.why_illegal(q, PGS, Move("T3", two.dst, c("4D"))) is None
    assert R.why_illegal(q, PGS, Move("T3", "O1", c("4D"))) is not None
    assert R.why_illegal(p, PGS, Move("T1", "E8", c("8H"))) is not None  # E8 is not a Hearts pile at 6


def test_no_building_while_stock_has_cards():
    p = late(["9H", "8H", "9C"], "8D", "8S")
    assert R.why_illegal(p, PGS, Move("T2", "T1", c("8H"))) == "no building on the tableau while the stock has cards"
    q = late(["9H", "8H", "9C"], "", "8S")
    assert R.why_illegal(q, PGS, Move("T2", "T1", c("8H"))) is None
    assert R.why_illegal(q, PGS, Move("T1", "T2", c("9H"))) is not None  # down, not up
    assert R.why_illegal(q, PGS, Move("T3", "T1", c("9C"))) is not None  # in suit, one lower
    assert R.why_illegal(q, PGS, Move("waste", "T1", c("8S"))) is not None


def _home(p, card, pile="T1"):
    return Move(pile, next(m.dst for m in R.legal_moves(p, PGS) if m.card == card and m.src == pile), card)


def test_refill_from_waste_then_stock():
    p = late(["2C", "9H", "9D"], "4C 6C 9S", "8C 8S")
    q = R.apply_move(p, PGS, _home(p, c("2C")))
    assert q.tableau[0] == cards("8S 8C 9S 6C")  # waste top first, then turned stock cards
    assert q.waste == [c("4C")] and q.stock == []


def test_refill_with_fewer_cards_and_empty_pile_rule():
    p = late(["2C", "9H", "4C 6C 8C"], "", "9D")
    q = R.apply_move(p, PGS, _home(p, c("2C")))
    assert q.tableau[0] == [c("9D")] and not q.waste
    p = late(["2C", "9H", "8C 6C 4C"])
    q = R.apply_move(p, PGS, _home(p, c("2C")))
    assert q.tableau[0] == []  # stock and waste empty: the pile stays empty ...
    assert R.why_illegal(q, PGS, Move("T2", "T1", c("9H"))) is None  # ... and takes any card


def test_waste_turns_when_emptied():
    p = late(["9H"], "9C 8S", "8D")
    q = R.apply_move(p, PGS, _home(p, c("8D"), "waste"))
    assert q.waste == [c("8S")] and q.stock == [c("9C")]


def test_presets_differ_on_foundation_returns():
    p = late(["8H 7H"], ranks=8)
    src = next(f"E{k + 1}" for k, e in enumerate(p.evens) if e and e[-1] == c("6H"))
    move = Move(src, "T1", c("6H"))
    assert "never leave" in R.why_illegal(p, PGS, move)
    assert R.why_illegal(p, PYS, move) is None
    assert R.apply_move(p, PYS, move).tableau[0] == cards("8H 7H 6H")
    assert R.why_illegal(p, PYS, Move("aces", "T1", p.aces[-1])) is not None
    q = late(["8H 7H"], "8S", "8D", ranks=8)
    assert R.why_illegal(q, PYS, move) is not None  # not while the stock has cards


def test_moves_between_foundations_refused():
    p = late(["8H 7H"], ranks=8)
    src = next(f"E{k + 1}" for k, e in enumerate(p.evens) if e and e[-1] == c("6H"))
    assert "relabel" in R.why_illegal(p, PYS, Move(src, "E8", c("6H")))


def test_replay_errors():
    p = gw_deal(1)
    with pytest.raises(ReplayError, match="move 1"):
        R.verify_win(p, PGS, [Move("T1", "T2", c("5C"))])
    with pytest.raises(ReplayError, match="not won"):
        R.verify_win(p, PGS, [Move("stock", "waste")])
    with pytest.raises(IllegalMove):
        R.apply_move(p, PGS, Move("aces", "T1", c("AH")))


def test_invalid_positions():
    p = gw_deal(1)
    p.tableau[0].append(p.stock.pop(0))  # a fifth card under no run
    with pytest.raises(PositionError):
        p.validate()
    q = gw_deal(1)
    q.tableau[0] = []
    with pytest.raises(PositionError):
        q.validate()
