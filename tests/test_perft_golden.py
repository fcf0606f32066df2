"""Golden perft counts for every game and preset, in plain text (``tests/golden/perft.txt``:
one line per deal and depth), checked against both the reference engine and the kernel.
On failure the reference's per-first-move breakdown (where the game has one) says
under which first move the counts part.

Regenerate (only after deciding that the reference engines' new numbers are right):

    .venv/bin/python tests/test_perft_golden.py --regenerate
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden" / "perft.txt"
# (game, preset, seed, depth): full PySolFC deals, depths the reference counts in about a second
CASES = [
    ("klondike", "standard", 1, 3), ("klondike", "by-threes", 3, 5), ("klondike", "vegas", 12, 3),
    ("beleaguered-castle", "-", 1, 3), ("beleaguered-castle", "-", 5, 3),
    ("windmill", "pysolfc", 1, 4), ("windmill", "strict", 1, 5), ("windmill", "welford", 1, 12),
    ("great-wheel", "pgs", 2, 5), ("great-wheel", "pysolfc", 3, 6),
]


def _engines(game: str, preset: str, seed: int):
    """(position, reference perft, kernel perft, reference divide): the games' perft
    functions differ in signature (rules or not), which this hides."""
    from solver import api

    options = {} if preset == "-" else {"rules": preset}
    g, rules, position = api.make_deal(game, seed, **options)
    if game == "windmill" and preset == "welford":
        ref, ker = (importlib.import_module(f"solver.games.windmill_welford.{m}") for m in ("reference", "searcher"))
        return (position, (lambda d: ref.perft(position, d)), (lambda d: ker.perft(position, d)),
                lambda d: ref.perft_divide(position, d))
    pkg = game.replace("-", "_")
    ref, ker = (importlib.import_module(f"solver.games.{pkg}.{m}") for m in ("reference", "searcher"))
    if game == "beleaguered-castle":
        return (position, (lambda d: ref.perft(position, d)), (lambda d: ker.perft(position, d)),
                lambda d: ref.perft_divide(position, d))
    return (position, (lambda d: ref.perft(position, rules, d)), (lambda d: ker.perft(position, rules, d)),
            lambda d: ref.perft_divide(position, rules, d))



def _read() -> dict[tuple[str, str, int, int], int]:
    out = {}
    for line in GOLDEN.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            game, preset, seed, depth, count = line.split()
            out[(game, preset, int(seed), int(depth))] = int(count)
    return out


@pytest.mark.parametrize("game, preset, seed, depth", CASES)
def test_perft_equals_golden_in_both_engines(game, preset, seed, depth):
    want = _read()[(game, preset, seed, depth)]
    _position, ref, ker, divide = _engines(game, preset, seed)
    for d in range(1, depth + 1):
        got_ref = ref(d)
        got_ker = ker(d)
        if d == depth and (got_ref != want or got_ker != want):
            detail = f"; reference per first move: {divide(d)}"
            pytest.fail(f"perft {d} of {game} {preset} #{seed}: golden {want}, reference {got_ref}, "
                        f"kernel {got_ker}{detail}", pytrace=False)
        assert got_ker == got_ref, (game, preset, seed, d, got_ker, got_ref)


def regenerate() -> None:
    lines = ["# game preset seed depth count: move sequences of that length from PySolFC deal <seed>",
             "# (reference engines; '-' = the game has no presets). Regenerate: python tests/test_perft_golden.py "
             "--regenerate"]
    for game, preset, seed, depth in CASES:
        _position, ref, _ker, _divide = _engines(game, preset, seed)
        lines.append(f"{game} {preset} {seed} {depth} {ref(depth)}")
        print(lines[-1], file=sys.stderr)
    GOLDEN.write_text("\n".join(lines) + "\n")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    regenerate()
