"""perft: counts of macro-move sequences from fixed deals, kernel and reference vs golden.

The golden numbers in ``tests/golden/klondike_perft.json`` were computed by the reference
engine (``reference.perft``, which counts sequences of distinct macro successors).  Both
engines are checked against them: a change in either one shows up here, and the
per-first-move breakdown printed on failure says under which first move the counts part.

Regenerate (only after deciding that the reference engine's new numbers are right):

    .venv/bin/python tests/test_klondike_perft.py --regenerate
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from solver.games.klondike import reference
from solver.games.klondike.dealfile import position_to_json
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikePosition, KlondikeRules
from solver.games.klondike.searcher import perft as kernel_perft
from solver.games.klondike.searcher import successors

GOLDEN = Path(__file__).parent / "golden" / "klondike_perft.json"

# name: (numbering, seed, draw, passes, worry_back, max depth)
CASES = {
    "pysolfc-1-draw1": ("pysolfc", 1, 1, None, True, 3),
    "pysolfc-2-draw1": ("pysolfc", 2, 1, None, True, 3),
    "pysolfc-3-draw1": ("pysolfc", 3, 1, None, True, 3),
    "pysolfc-1-draw3": ("pysolfc", 1, 3, None, True, 4),
    "pysolfc-2-draw3": ("pysolfc", 2, 3, None, True, 4),
    "pysolfc-3-draw3": ("pysolfc", 3, 3, None, True, 4),
    "solvitaire-1-draw1": ("solvitaire", 1, 1, None, True, 3),
    "pysolfc-1-draw1-no-worry-back": ("pysolfc", 1, 1, None, False, 3),
    "pysolfc-4-draw1-1-pass": ("pysolfc", 4, 1, 1, True, 3),
    "pysolfc-1-draw3-2-passes": ("pysolfc", 1, 3, 2, True, 4),
    "pysolfc-2-draw1-2-passes": ("pysolfc", 2, 1, 2, True, 3),
}


def setup(name: str) -> tuple[KlondikePosition, KlondikeRules, int]:
    numbering, seed, draw, passes, worry_back, depth = CASES[name]
    rules = KlondikeRules(draw=draw, passes=passes, worry_back=worry_back)
    return klondike_deal(seed, numbering, draw), rules, depth


def load_golden() -> dict:
    return json.loads(GOLDEN.read_text())["cases"]


def divide_report(position: KlondikePosition, rules: KlondikeRules, depth: int) -> str:
    """perft(depth) split by first macro move: reference.perft_divide vs the kernel."""
    ref = reference.perft_divide(position, rules, depth)
    names = {child: reference.describe(moves) for child, moves in reference.macro_moves(position, rules).items()}
    kern: dict[str, int] = {}
    for child in successors(position, rules, prune=False):
        name = names.get(child) or f"KERNEL-ONLY successor {json.dumps(position_to_json(child))}"
        kern[name] = kern.get(name, 0) + kernel_perft(child, rules, depth - 1)
    rows = [f"perft({depth}) by first move          reference    kernel"]
    for name in sorted(set(ref) | set(kern)):
        r, k = ref.get(name), kern.get(name)
        mark = "" if r == k else "   <-- differs"
        rows.append(f"  {name:<40} {'-' if r is None else r:>8} {'-' if k is None else k:>9}{mark}")
    rows.append(f"  {'total':<40} {sum(ref.values()):>8} {sum(kern.values()):>9}")
    return "\n".join(rows)


def check(name: str, engine: str, perft_fn) -> None:
    position, rules, _ = setup(name)
    golden = load_golden()[name]["perft"]
    for depth, expected in enumerate(golden, 1):
        got = perft_fn(position, rules, depth)
        if got != expected:
            pytest.fail(
                f"{engine} perft({depth}) = {got}, golden {expected}  ({name}, {rules})\n"
                f"deal {json.dumps(position_to_json(position))}\n{divide_report(position, rules, depth)}",
                pytrace=False,
            )


def test_golden_file_covers_every_case():
    golden = load_golden()
    assert set(golden) == set(CASES)
    for name, (numbering, seed, draw, passes, worry_back, depth) in CASES.items():
        entry = golden[name]
        assert (entry["numbering"], entry["seed"]) == (numbering, seed)
        assert entry["rules"] == KlondikeRules(draw, passes, worry_back).to_json()
        assert len(entry["perft"]) == depth
        assert all(a < b for a, b in zip(entry["perft"], entry["perft"][1:])), entry


@pytest.mark.parametrize("name", list(CASES))
def test_kernel_perft_matches_golden(name):
    check(name, "kernel", kernel_perft)


@pytest.mark.parametrize("name", list(CASES))
def test_reference_perft_matches_golden(name):
    check(name, "reference", reference.perft)


def regenerate() -> None:
    cases = {}
    for name, (numbering, seed, draw, passes, worry_back, depth) in CASES.items():
        position, rules, _ = setup(name)
        counts = [reference.perft(position, rules, d) for d in range(1, depth + 1)]
        cases[name] = {"numbering": numbering, "seed": seed, "rules": rules.to_json(), "perft": counts}
        print(name, counts, flush=True)
    GOLDEN.parent.mkdir(exist_ok=True)
    doc = {
        "about": "Klondike perft: number of macro-move sequences of length 1, 2, ... from the deal "
                 "(reference.perft: distinct macro successors, no transpositions, no safe plays). "
                 "Computed by the reference engine; regenerate with "
                 "`python tests/test_klondike_perft.py --regenerate`.",
        "cases": cases,
    }
    GOLDEN.write_text(json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(__doc__)
    regenerate()
