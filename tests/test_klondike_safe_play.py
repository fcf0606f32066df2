"""Klondike's safe-play rule (kernel.is_safe) with worry-back against brute force.

On the reduced-deck games of test_klondike_prunes (whole reachable graphs with exact
winnability, reference engine, no pruning), at every reachable position with
worry-back on and every card that can go to its foundation now and that is_safe
calls safe, the position after playing it must be won exactly when the position is
won.  The cards are those the theorem covers: pile tops, and with draw 1 and unlimited
passes also the waste top.  The checks must include cards that only the worry-back
margins (+2/+3) call safe, and a looser rule (+3/+4) must fail the same check somewhere,
so the check can tell a wrong margin.  Those graphs never reach a card that the twin
bound (+3) alone stops, so a 5-rank deal shows that bound is needed.
"""

from __future__ import annotations

from functools import lru_cache

from solver.games.klondike import kernel as K
from solver.games.klondike import reference
from solver.games.klondike.codec import encode, rules_array
from solver.games.klondike.dealfile import position_from_json
from solver.games.klondike.position import KlondikeRules
import test_klondike_class_key
import test_klondike_prunes
from test_klondike_class_key import graph
from test_klondike_prunes import _deal


def _within(p, card, opposite: int | None, same: int | None) -> bool:
    """card is next on its foundation and rank <= each opposite-colour foundation +
    ``opposite`` and <= the other same-colour foundation + ``same`` (None: no bound)."""
    if p.foundations[card.suit] != card.rank - 1:
        return False
    for s in range(4):
        if s == card.suit:
            continue
        bound = same if (s in (1, 2)) == card.red else opposite
        if bound is not None and card.rank > p.foundations[s] + bound:
            return False
    return True


@lru_cache(maxsize=None)
def checks() -> dict:
    """Per rule: [positions checked, problems]; 'kernel' is is_safe itself, 'worry only'
    the cases it calls safe that +1 (the rule without worry-back) does not."""
    out = {"kernel": [0, []], "worry only": [0, []], "+3/+4": [0, []]}
    for label, root, rules, positions, won in test_klondike_prunes.games():
        if not rules.worry_back:
            continue
        r = rules_array(rules, root.ranks, len(root.tableau), True)
        talon_too = rules.draw == 1 and rules.passes is None
        for p in positions:
            st = None
            for m in reference.legal_moves(p, rules):
                if not m.dst.startswith("F") or m.src.startswith("F") or (m.src == "waste" and not talon_too):
                    continue
                card = p.waste[-1] if m.src == "waste" else p.tableau[int(m.src[1:]) - 1][-1]
                q = reference.apply_move(p, rules, m)
                bad = (q in won) != (p in won)
                if st is None:
                    st = encode(p, rules)[0]
                tags = []
                if K.is_safe(st, card.index, r):
                    tags.append("kernel")
                    if not _within(p, card, 1, None):
                        tags.append("worry only")
                if _within(p, card, 3, 4):
                    tags.append("+3/+4")
                for tag in tags:
                    out[tag][0] += 1
                    if bad:
                        out[tag][1].append(f"{label}: {card} to its foundation turns "
                                           f"{'won' if p in won else 'lost'} into "
                                           f"{'won' if q in won else 'lost'}: {_deal(p, rules)}")
    return out


def test_safe_play_keeps_winnability_with_worry_back():
    checked, problems = checks()["kernel"]
    assert not problems, f"{len(problems)} of {checked} safe plays change winnability:\n" + "\n".join(problems[:5])
    assert checked >= 1000, checked


def test_worry_back_margins_are_exercised():
    """Cards that only the +2/+3 margins call safe (the +1 rule would branch on them)."""
    checked, problems = checks()["worry only"]
    assert not problems, "\n".join(problems[:5])
    assert checked >= 100, checked


def test_a_looser_rule_is_caught():
    """The check can fail: +3/+4 plays a card too early somewhere in these graphs."""
    checked, problems = checks()["+3/+4"]
    assert problems, f"a +3/+4 rule passed all {checked} checks: the check is too weak"


def test_the_twin_bound_is_needed(monkeypatch):
    """The graphs above never reach a card the twin bound (+3) alone stops, so this deal
    does: 4C with the red foundations at 2 and the Spades empty.  Won by 3H onto 4C, 2S
    onto 3H, AS up; with 4C up first no black 4 or red 5 can hold a red 3 for 2S, which
    covers AS (4S is under AS).  So a +2/+4 rule (or none for the twin) loses it."""
    deal = {"tableau piles": [["5c", "4C"], ["4s", "as", "2S"]],
            "stock": ["5H", "5D", "4H", "4D", "3D", "5S", "3S"], "waste": ["3H"],
            "foundations": ["AC", "2C", "3C", "AD", "2D", "AH", "2H"], "ranks": 5}
    p = position_from_json(deal)
    rules = KlondikeRules(draw=3, worry_back=True)
    monkeypatch.setattr(test_klondike_class_key, "MAX_STATES", 10_000)
    positions, won = graph(p, rules)
    c = p.tableau[0][-1]
    q = reference.apply_move(p, rules, reference.Move("T1", "F1", c, 1))
    assert p in won and q not in won
    assert _within(p, c, 2, 4) and not K.is_safe(encode(p, rules)[0], c.index, rules_array(rules, 5, 2, True))
