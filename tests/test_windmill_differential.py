"""Kernel against reference: successors, pruning, keys, perft (pysolfc and strict)."""

import random
from collections import Counter

import numpy as np
import pytest

from solver.games.windmill import kernel as K
from solver.games.windmill import reference as ref
from solver.games.windmill import searcher as S
from solver.games.windmill.codec import encode, rules_array
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillPosition, WindmillRules

from windmill_helpers import random_position, reachable_sample

PRESETS = ("pysolfc", "strict")


@pytest.fixture(scope="module", params=PRESETS)
def sample(request):
    rules = WindmillRules(request.param)
    rng = random.Random(9)
    positions = reachable_sample(rules, 1000, seed=hash(request.param) % 1000)
    positions += [random_position(rng, rng.randrange(2, 8), rng.randrange(1, 9)) for _ in range(200)]
    for p in positions[::7]:
        if rules.strict:
            p.after_transfer = True  # exercise the strict flag too
    return rules, positions


def test_successors_equal_reference(sample):
    rules, positions = sample
    kinds = Counter()
    for p in positions:
        mine = S.successors(p, rules, prune=False)
        theirs = ref.successors(p, rules)
        assert Counter(x.key() for x in mine) == Counter(x.key() for x in theirs), p
        for m in ref.legal_moves(p, rules):
            kinds[(m.src[0], m.dst[0])] += 1
    # the sample reaches every kind of move the preset has
    want = {("s", "w"), ("C", "c"), ("C", "K"), ("w", "c"), ("w", "K"), ("K", "c")}
    if not rules.strict:
        want |= {("c", "K"), ("K", "K")}
    assert want <= set(kinds), kinds


def test_pruning_only_drops_repeated_keys(sample):
    rules, positions = sample
    dropped = 0
    for p in positions:
        root, seq, r, full = S.successor_rows(p, rules, prune=False)
        _, _, rp, pruned = S.successor_rows(p, rules, prune=True)
        parent = S.row_keys(root[None, :], seq, r)[0]
        all_keys = set(S.row_keys(full, seq, r)) if len(full) else set()
        kept = set(S.row_keys(pruned, seq, rp)) if len(pruned) else set()
        assert all_keys - {parent} <= kept <= all_keys
        dropped += len(full) - len(pruned)
    assert dropped > 0


def _phi(p: WindmillPosition):
    """What the key must determine (written independently of the kernel)."""
    waste = [c.index for c in p.waste]
    available = [0 if c is None else c.rank for c in p.cells]
    if not p.stock and waste:  # stock empty: the waste top counts as one more cell
        available.append(p.waste[-1].rank)
        waste.pop()
    return (len(p.stock), tuple(waste), sorted(available), len(p.centre), sorted(len(k) for k in p.kings),
            p.after_transfer)


def test_equal_keys_mean_equal_game_content(sample):
    rules, positions = sample
    for p in positions[:300]:
        # the positions two moves from p, all measured against p's sequence
        root, seq, r, kids = S.successor_rows(p, rules)
        rows = [root] + list(kids)
        for row in kids:
            out = np.zeros((K.MOVE_SLOTS, K.SLEN), dtype=np.int8)
            n = K.successors(row, (seq,), r, out)
            rows.extend(out[:n])
        rows = np.array(rows, dtype=np.int8)
        keys = S.row_keys(rows, seq, r)
        from solver.games.windmill.codec import decode
        by_key = {}
        for key, row in zip(keys, rows):
            phi = _phi(decode(row, seq, int(r[K.R_NSEQ]), len(p.cells), p.ranks))
            assert by_key.setdefault(key, phi) == phi


def test_key_ignores_cell_order_king_order_and_suits():
    rng = random.Random(4)
    for rules in (WindmillRules("pysolfc"), WindmillRules("strict")):
        for _ in range(200):
            p = random_position(rng, rng.randrange(2, 14), rng.randrange(1, 9))
            q = p.copy()
            rng.shuffle(q.cells)
            rng.shuffle(q.kings)
            q.kings = [[type(c)(c.rank, (c.suit + 1) % 4) for c in k] for k in q.kings]
            q.centre = [type(c)(c.rank, (c.suit + 2) % 4) for c in q.centre]
            rp, seq = encode(p, rules)
            rq, _ = encode(q, rules)  # same stock and waste, so the same sequence
            r = rules_array(p, rules, True)
            kp, kq = S.row_keys(np.array([rp, rq]), seq, r)
            assert kp == kq


@pytest.mark.parametrize("preset", PRESETS)
def test_perft(preset):
    rules = WindmillRules(preset)
    for seed, ranks, cells, depth in ((1, 13, 8, 3), (5, 3, 2, 6), (11, 4, 3, 5)):
        p = windmill_deal(seed, ranks=ranks, cells=cells)
        assert S.perft(p, rules, depth) == ref.perft(p, rules, depth)


def test_move_orders_and_noise_only_permute_the_children(sample):
    """What the restarted searches change is the order moves are tried in, never the moves."""
    rules, positions = sample
    reordered = 0
    for p in positions[::3]:
        _, _, _, base = S.successor_rows(p, rules, prune=True)
        want = sorted(map(bytes, base))
        for order, noise in ((1, 0), (0, 5), (1, 6), (0, 1234567)):
            _, _, _, rows = S.successor_rows(p, rules, prune=True, order=order, noise=noise)
            assert sorted(map(bytes, rows)) == want, p
            reordered += [bytes(x) for x in rows] != [bytes(x) for x in base]
    assert reordered > 0
