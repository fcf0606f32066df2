"""Checks of the symbolic search against the reference engine (used by the tests and by hand)."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from solver.games.windmill import reference as ref
from solver.games.windmill.dealfile import position_from_json
from solver.games.windmill.position import WindmillRules

from .symbolic import Model, rank_key

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden" / "windmill_bruteforce.json"


def golden_cases(preset=None):
    g = json.loads(GOLDEN.read_text())
    return [(position_from_json(x["deal"]), x["preset"], x["won"]) for x in g if preset in (None, x["preset"])]


def explicit_layers(position, rules, max_states=300_000, by_rank=True):
    """Every reachable reference position's rank-level key, by layer (None if too many).

    by_rank: one representative reference position per rank-level key is expanded (the
    reference engine's moves from it, keyed again); this leans on the rank-level quotient
    of the module doc of symbolic.py (suits unread, cells and king piles alike), which
    the golden verdicts check separately.  by_rank=False: every exact position."""
    N = len(position.waste) + len(position.stock)
    key = (lambda q: rank_key(q, rules.strict, N)) if by_rank else (lambda q: q.key())
    seen = {key(position)}
    stack = [position]
    layers = defaultdict(set)
    while stack:
        p = stack.pop()
        layers[N - len(p.stock)].add(rank_key(p, rules.strict, N))
        for q in ref.successors(p, rules):
            k = key(q)
            if k not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(k)
                stack.append(q)
    return layers


def symbolic_layers(position, rules, **kw):
    m = Model(position, rules, **kw)
    res = m.solve(counts=False, keep_layers=True)
    return res.verdict, {t: m.decode_states(m.positions(u, t), t) for t, u in m.layer_bdds.items()}
