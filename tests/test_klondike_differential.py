"""Differential test: the kernel's stock macro-moves against the reference engine's.

For every rule variant (draw 1/3/2 x passes unlimited/1/2/3 x worry-back on/off) we take
random reachable positions (random walks of reference legal moves from numbered deals of
both numberings, seeded, so the set is the same on every run) and require

    set(searcher.successors(position, rules, prune=False))
        == reference.macro_successors(position, rules)

and that the kernel never lists one successor twice (perft counts move sequences, so a
duplicate would silently inflate it).  On failure the position is printed as a deal-file
JSON (``patience solve klondike --deal FILE`` reads it) together with the successors
only one side has; reference-only successors are named by the reference's move sequence.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache

import pytest

from solver.core.cards import Card
from solver.games.klondike import reference
from solver.games.klondike.dealfile import position_to_json
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import successors

VARIANTS = [
    KlondikeRules(draw=d, passes=p, worry_back=w)
    for d in (1, 3, 2)
    for p in (None, 1, 2, 3)
    for w in (True, False)
]
POSITIONS_PER_VARIANT = 45  # x 24 variants = 1080 positions
SAMPLES_PER_WALK = 3
MAX_WALK = 220
STOCK_BIAS = 0.3  # chance of taking the stock action when there is one (reaches redeals)
SHOW = 4  # mismatching positions printed in full per failing variant


def variant_id(rules: KlondikeRules) -> str:
    passes = "unl" if rules.passes is None else rules.passes
    return f"draw{rules.draw}-passes{passes}-{'wb' if rules.worry_back else 'nowb'}"


@lru_cache(maxsize=None)
def positions_for(rules: KlondikeRules) -> tuple[tuple[str, KlondikePosition], ...]:
    """Deterministic sample of reachable positions for one variant: (origin, position)."""
    rng = random.Random(f"klondike-differential-{variant_id(rules)}")
    out: list[tuple[str, KlondikePosition]] = []
    walk = 0
    while len(out) < POSITIONS_PER_VARIANT:
        numbering = ("pysolfc", "solvitaire")[walk % 2]
        seed = rng.randint(1, 20000)
        walk += 1
        position = klondike_deal(seed, numbering, rules.draw)
        length = rng.randint(0, MAX_WALK)
        picks = set(rng.sample(range(length + 1), min(SAMPLES_PER_WALK, length + 1)))
        for step in range(length + 1):
            if step in picks and len(out) < POSITIONS_PER_VARIANT:
                out.append((f"{numbering} deal {seed} after {step} random moves", position))
            moves = reference.legal_moves(position, rules)
            if not moves:
                break
            stock = [m for m in moves if m.is_draw or m.is_redeal]
            move = stock[0] if stock and rng.random() < STOCK_BIAS else rng.choice(moves)
            position = reference.apply_move(position, rules, move)
    return tuple(out)


def _json(position: KlondikePosition) -> str:
    return json.dumps(position_to_json(position))


def _changes(parent: KlondikePosition, child: KlondikePosition) -> str:
    """Short description of what differs between parent and child (for failure output)."""
    parts = []
    for i, (a, b) in enumerate(zip(parent.tableau, child.tableau)):
        if a != b or parent.face_down[i] != child.face_down[i]:
            parts.append(f"T{i + 1}: {' '.join(map(str, b)) or '-'} ({child.face_down[i]} down)")
    if parent.foundations != child.foundations:
        parts.append(f"foundations {child.foundations}")
    if parent.stock != child.stock or parent.waste != child.waste:
        parts.append(f"stock {len(child.stock)} waste top {child.waste[-1] if child.waste else '-'} "
                     f"({len(child.waste)} in waste)")
    if parent.redeals != child.redeals:
        parts.append(f"redeals {parent.redeals}->{child.redeals}")
    return "; ".join(parts)


def compare(position: KlondikePosition, rules: KlondikeRules) -> str | None:
    """None if both engines agree on position, else a readable report."""
    kernel_list = successors(position, rules, prune=False)
    kernel = set(kernel_list)
    ref_moves = reference.macro_moves(position, rules)
    ref = set(ref_moves)
    dups = [p for p, n in Counter(kernel_list).items() if n > 1]
    if kernel == ref and not dups:
        return None
    lines = [f"rules {rules}", f"position {_json(position)}",
             f"kernel {len(kernel_list)} successors ({len(kernel)} distinct), reference {len(ref)}"]
    for child in sorted(ref - kernel, key=_json):
        moves = ref_moves[child]
        note = ""
        if position.waste and moves[-1].card == position.waste[-1] and any(m.is_redeal for m in moves):
            note = "  [the waste top before drawing, played after a redeal]"
        lines.append(f"  ONLY REFERENCE: {reference.describe(moves)}  => {_changes(position, child)}{note}")
        lines.append(f"      {_json(child)}")
    for child in sorted(kernel - ref, key=_json):
        lines.append(f"  ONLY KERNEL: => {_changes(position, child)}")
        lines.append(f"      {_json(child)}")
    for child in dups:
        lines.append(f"  KERNEL LISTS TWICE: => {_changes(position, child)}")
    return "\n".join(lines)


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_kernel_successors_equal_reference_macro_successors(rules):
    failures = []
    for origin, position in positions_for(rules):
        report = compare(position, rules)
        if report is not None:
            failures.append(f"[{origin}]\n{report}")
    if failures:
        shown = "\n\n".join(failures[:SHOW])
        pytest.fail(
            f"{len(failures)} of {len(positions_for(rules))} positions differ under {rules}:\n\n{shown}",
            pytrace=False,
        )


def test_sample_is_large_and_varied():
    """The sample must reach the situations the macro-moves are about."""
    everything = [(rules, p) for rules in VARIANTS for _, p in positions_for(rules)]
    assert len(everything) >= 1000
    have = Counter()
    for rules, p in everything:
        have["empty stock"] += not p.stock
        have["waste"] += bool(p.waste)
        have["foundation cards"] += sum(p.foundations) > 0
        have["empty pile"] += any(not pile for pile in p.tableau)
        have["redeal done (limited passes)"] += rules.passes is not None and p.redeals > 0
        have["passes used up"] += rules.passes is not None and p.redeals == rules.passes - 1 and not p.stock
        have["start of a deal"] += sum(p.face_down) == 21 and not sum(p.foundations)
    missing = [k for k in ("empty stock", "waste", "foundation cards", "empty pile",
                           "redeal done (limited passes)", "passes used up", "start of a deal") if have[k] < 5]
    assert not missing, f"sample too narrow: {dict(have)}"


def test_unlimited_passes_keep_redeals_at_zero():
    for rules in VARIANTS:
        if rules.passes is not None:
            continue
        for _, p in positions_for(rules)[:10]:
            for child in successors(p, rules, prune=False):
                assert child.redeals == 0, _json(child)


def test_current_waste_top_comes_round_again_after_a_redeal():
    """Regression (limited passes): the waste top is not offered again after a redeal.

    Waste AH, AC (AC on top), empty stock, draw 1, 2 passes.  Turning the waste over and
    drawing until AC is on top again gives the same talon with one redeal used, never
    better than playing AC now, so neither engine lists it (the kernel never did; the
    reference did until both were aligned).  Both must list the same successors.
    """
    position = KlondikePosition(
        tableau=[[_c("AD"), _c("2C")], [_c("AS"), _c("2D")], [_c("2H")], [_c("2S")]],
        face_down=[1, 1, 0, 0],
        stock=[],
        waste=[_c("AH"), _c("AC")],
        ranks=2,
    )
    position.validate()
    report = compare(position, KlondikeRules(draw=1, passes=2))
    if report is not None:
        pytest.fail(report, pytrace=False)


def _c(text: str):
    return Card.parse(text)
