"""The Klondike kernel's kept fields agree with the cards they describe after every move.

The row carries three derived fields that moves keep up to date instead of recomputing
(kernel.py's table): each card's tableau location (LOC0), the talon's Kings (TKINGS) and
the cards still in the talon (TCARDS).  Move generation reads them, so a stale field would
silently change which moves exist.  Here random walks of the searched (class-key) kernel,
over every rule variant and both numberings, check after each move and its safe plays
that every tableau card's location is where the card lies and that the two talon masks
equal the talon's present cards.  A corrupted field is caught (the check can fail).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.games.klondike import kernel as K
from solver.games.klondike.codec import encode, rules_array
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikeRules

VARIANTS = [KlondikeRules(draw=d, passes=p, worry_back=w)
            for d in (1, 3) for p in (None, 2) for w in (True, False)]
WALKS = 60  # per variant
STEPS = 150
NO_LOG = np.zeros((0, 5), dtype=np.int32)


def field_errors(st: np.ndarray, talon: np.ndarray, ntalon: int, ranks: int) -> list[str]:
    """What in the kept fields of st disagrees with its piles and talon."""
    errors = []
    for i in range(7):
        for j in range(int(st[K.LEN0 + i])):
            card = int(st[K.P0 + i * K.CAP + j])
            if st[K.LOC0 + card] != i * K.CAP + j:
                errors.append(f"card {card} at pile {i} index {j}, location field {st[K.LOC0 + card]}")
    present = [int(talon[t]) for t in range(ntalon) if int(st[K.TMASK]) >> t & 1]
    words = [0, 0]
    for card in present:
        words[card // 26] |= 1 << card % 26
    if [int(st[K.TCARDS]), int(st[K.TCARDS + 1])] != words:
        errors.append(f"talon cards field {st[K.TCARDS]:#x} {st[K.TCARDS + 1]:#x}, talon {words[0]:#x} {words[1]:#x}")
    kings = sum(1 << t for t in range(ntalon) if talon[t] % 13 + 1 == ranks)
    if st[K.TKINGS] != kings:
        errors.append(f"talon Kings field {st[K.TKINGS]:#x}, talon {kings:#x}")
    return errors


def walk_rows(rules: KlondikeRules, seed: int, numbering: str):
    """Rows of one seeded random walk of the searched kernel's moves (safe plays included)."""
    position = klondike_deal(seed, numbering, rules.draw)
    st, talon, ntalon = encode(position, rules)
    r = rules_array(rules, position.ranks, 7, True)
    rng = random.Random(seed)
    moves = np.zeros(K.MAX_MOVES_PER_NODE, dtype=np.int64)
    K.play_safe(st, talon, ntalon, r, NO_LOG, 0, False)
    yield st, talon, ntalon
    for _ in range(STEPS):
        n = K.gen_moves(st, talon, ntalon, r, moves, 0)
        if n == 0:
            return
        K.apply_move(st, moves[rng.randrange(n)], talon, ntalon, r, NO_LOG, 0, False)
        K.play_safe(st, talon, ntalon, r, NO_LOG, 0, False)
        yield st, talon, ntalon


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"draw{r.draw}-passes{r.passes}-wb{int(r.worry_back)}")
def test_kept_fields_follow_the_cards(rules):
    checked = 0
    for w in range(WALKS):
        numbering = ("pysolfc", "solvitaire")[w % 2]
        for st, talon, ntalon in walk_rows(rules, 1000 + 37 * w, numbering):
            errors = field_errors(st, talon, ntalon, 13)
            assert not errors, f"{numbering} seed {1000 + 37 * w}, step {checked}: {errors[:3]}"
            checked += 1
    assert checked > 5 * WALKS  # the walks went somewhere


def test_a_stale_field_is_caught():
    rules = KlondikeRules(draw=3)
    st, talon, ntalon = next(walk_rows(rules, 5, "solvitaire"))
    assert field_errors(st, talon, ntalon, 13) == []
    top = int(st[K.P0 + st[K.LEN0 + 6] - 1 + 6 * K.CAP])
    for field, value in ((K.LOC0 + top, 0), (K.TCARDS, st[K.TCARDS] ^ 4), (K.TKINGS, st[K.TKINGS] ^ 1)):
        bad = st.copy()
        bad[field] = value
        assert field_errors(bad, talon, ntalon, 13), field
