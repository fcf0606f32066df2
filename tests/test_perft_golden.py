"""Golden perft counts for every game and preset, in one plain-text file
(``tests/golden/perft.txt``: one line per deal, rule set and depth), checked against both
the reference engine and the kernel.  For every deal, each depth up to the deepest
listed is counted by both engines: a listed depth must equal the file, and at every depth
the kernel must equal the reference.  On failure the message splits the count by first
move, reference beside kernel, and marks the first moves under which they part.

A line is ``game rules numbering seed depth count``; ``rules`` is ``-`` (the game's
default rules) or comma-separated ``key=value`` options for ``api.make_deal``
(``rules=NAME`` a preset; ``passes=unlimited``; ``worry_back=false``).

Regenerate the counts (only after deciding that the reference engines' new numbers are
right; the lines themselves are kept):

    .venv/bin/python tests/test_perft_golden.py --regenerate
"""

from __future__ import annotations

import importlib
import sys
from collections import defaultdict
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden" / "perft.txt"

Case = tuple[str, str, str, int]  # game, rules column, numbering, seed


def _read_lines() -> list[tuple[Case, int, int]]:
    rows = []
    for line in GOLDEN.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            game, rules, numbering, seed, depth, count = line.split()
            rows.append(((game, rules, numbering, int(seed)), int(depth), int(count)))
    return rows


def _golden() -> dict[Case, dict[int, int]]:
    out: dict[Case, dict[int, int]] = defaultdict(dict)
    for case, depth, count in _read_lines():
        assert depth not in out[case], f"perft.txt lists {case} depth {depth} twice"
        out[case][depth] = count
    return dict(out)


def _options(column: str) -> dict:
    if column == "-":
        return {}
    options = {}
    for item in column.split(","):
        key, value = item.split("=")
        options[key] = (None if value == "unlimited" else value == "true" if value in ("true", "false")
                        else int(value) if value.isdigit() else value)
    return options


def _engines(case: Case):
    """(reference perft, kernel perft, reference (label, child) pairs, kernel children,
    rules) for one deal: the games' functions differ in signature (rules or not), which
    this hides."""
    from solver import api

    game, column, numbering, seed = case
    g, rules, position = api.make_deal(game, seed, numbering=numbering, **_options(column))
    pkg = g.__module__.split(".")[2]  # the game folder of the adapter that plays these rules
    ref, ker = (importlib.import_module(f"solver.games.{pkg}.{m}") for m in ("reference", "searcher"))
    if pkg == "klondike":
        labelled = lambda p: [(ref.describe(moves), child) for child, moves in ref.macro_moves(p, rules).items()]
    elif pkg in ("beleaguered_castle", "windmill_welford"):
        labelled = lambda p: [(str(m), ref.apply_move(p, m)) for m in ref.legal_moves(p)]
    else:
        labelled = lambda p: [(str(m), ref.apply_move(p, rules, m)) for m in ref.legal_moves(p, rules)]
    if pkg in ("beleaguered_castle", "windmill_welford"):
        return (position, lambda p, d: ref.perft(p, d), lambda p, d: ker.perft(p, d), labelled,
                lambda p: ker.successors(p, prune=False), rules)
    return (position, lambda p, d: ref.perft(p, rules, d), lambda p, d: ker.perft(p, rules, d), labelled,
            lambda p: ker.successors(p, rules, prune=False), rules)


def _breakdown(position, ref_perft, ker_perft, labelled, ker_children, depth: int) -> str:
    """perft(depth) split by first move: the reference's count under each first move
    beside the kernel's under the child it reaches (matched by the position's exact
    key; a child only the kernel has is named so)."""
    rows: dict = {}  # the child's exact key -> [labels, reference count, kernel count, child]
    for label, child in labelled(position):
        row = rows.setdefault(child.key(), [[], 0, 0, child])
        row[0].append(label)
        row[1] += ref_perft(child, depth - 1)
    for child in ker_children(position):
        row = rows.setdefault(child.key(), [[], 0, 0, child])
        row[2] += ker_perft(child, depth - 1)
    out = [f"perft({depth}) by first move          reference    kernel"]
    for labels, r, k, child in sorted(rows.values(), key=lambda row: " / ".join(row[0])):
        name = " / ".join(labels) or f"KERNEL-ONLY successor {child}"
        out.append(f"  {name:<40} {r:>8} {k:>9}{'' if r == k else '   <-- differs'}")
    out.append(f"  {'total':<40} {sum(r[1] for r in rows.values()):>8} {sum(r[2] for r in rows.values()):>9}")
    return "\n".join(out)


def _case_id(case: Case) -> str:
    game, column, numbering, seed = case
    return f"{game}-{column}-{numbering}-{seed}"


@pytest.mark.parametrize("case", list(_golden()), ids=_case_id)
def test_perft_equals_golden_in_both_engines(case):
    want = _golden()[case]
    position, ref, ker, labelled, ker_children, rules = _engines(case)
    for d in range(1, max(want) + 1):
        got_ref, got_ker = ref(position, d), ker(position, d)
        if got_ref != got_ker or want.get(d, got_ref) != got_ref:
            pytest.fail(f"perft {d} of {_case_id(case)} ({rules}): golden {want.get(d, '-')}, reference {got_ref}, "
                        f"kernel {got_ker}\n{_breakdown(position, ref, ker, labelled, ker_children, d)}",
                        pytrace=False)


def test_every_game_and_preset_has_golden_counts():
    """Every row of the games' table (each game, each preset) plays the rules of at
    least one deal in the file."""
    from solver import api
    from solver.games.variants import VARIANTS

    tried = {(case[0], api.make_deal(case[0], 1, **_options(case[1]))[1]) for case in _golden()}
    for v in VARIANTS:
        rules = api.make_deal(v.game, 1, **({} if v.preset is None else {"rules": v.preset}))[1]
        assert (v.game, rules) in tried, f"no perft counts for {v.game} {v.preset}"


def test_the_golden_file_parses_and_counts_grow_with_depth():
    for case, counts in _golden().items():
        depths = sorted(counts)
        assert all(counts[a] <= counts[b] for a, b in zip(depths, depths[1:])), (case, counts)
        _options(case[1])


def test_a_wrong_count_fails_with_the_per_move_breakdown(monkeypatch, tmp_path):
    """The failure message splits the count by first move, reference beside kernel."""
    wrong = tmp_path / "perft.txt"
    wrong.write_text("klondike draw=1,passes=unlimited,worry_back=true pysolfc 1 2 53\n")
    monkeypatch.setattr(sys.modules[__name__], "GOLDEN", wrong)
    with pytest.raises(pytest.fail.Exception) as failure:
        test_perft_equals_golden_in_both_engines(("klondike", "draw=1,passes=unlimited,worry_back=true", "pysolfc", 1))
    text = str(failure.value)
    assert "golden 53, reference 52, kernel 52" in text and "perft(2) by first move" in text
    assert text.count("\n") >= 8 and "total" in text and "differs" not in text


def regenerate() -> None:
    """Recount every line of the file with the reference engines, keeping its lines."""
    lines = []
    for line in GOLDEN.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            lines.append(line)
            continue
        game, column, numbering, seed, depth, _count = line.split()
        position, ref, *_ = _engines((game, column, numbering, int(seed)))
        lines.append(f"{game} {column} {numbering} {seed} {depth} {ref(position, int(depth))}")
        print(lines[-1], file=sys.stderr)
    GOLDEN.write_text("\n".join(lines) + "\n")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    regenerate()
