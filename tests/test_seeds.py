"""Seed specifications (``--seeds``): parsing, and bad specs at the command line."""

from __future__ import annotations

import pytest

from cli_helpers import one_line_error, patience, patience_here
from solver.core.seeds import MAX_SEED, SeedSpec, SeedSpecError, parse_seeds


@pytest.mark.parametrize("text, seeds", [
    ("5", [5]),
    ("1-10", list(range(1, 11))),
    ("1-10,20-30", list(range(1, 11)) + list(range(20, 31))),
    (" 1 - 3 , 7 ", [1, 2, 3, 7]),
    ("20-30,1-10", list(range(1, 11)) + list(range(20, 31))),  # sorted
    ("1-10,5,8-12", list(range(1, 13))),  # overlaps merged: every seed once
    ("3,3,3", [3]),
    ("0", [0]),
    ("7-7", [7]),
    ("9,10,11", [9, 10, 11]),
])
def test_parse(text, seeds):
    spec = parse_seeds(text)
    assert list(spec) == seeds
    assert len(spec) == len(seeds)
    assert spec.first == seeds[0] and spec.last == seeds[-1]
    assert all(s in spec for s in seeds)
    assert seeds[-1] + 1 not in spec and (seeds[0] - 1 not in spec)


def test_big_ranges_cost_nothing():
    spec = parse_seeds("1-100000")
    assert len(spec) == 100_000 and spec.ranges == [(1, 100_000)]
    huge = parse_seeds(f"1-{MAX_SEED}")
    assert len(huge) == MAX_SEED and 12345678901 in huge


def test_adjacent_ranges_merge():
    assert parse_seeds("1-10,11-20").ranges == [(1, 20)]
    assert parse_seeds("1-10,12-20").ranges == [(1, 10), (12, 20)]


@pytest.mark.parametrize("text, says", [
    ("", "empty"), ("   ", "empty"), ("abc", "'abc'"), ("5-3", "backwards"), ("-5", "'-5'"), ("1--3", "'1--3'"),
    ("1-", "'1-'"), ("-", "'-'"), ("1,,2", "(empty)"), ("1,", "(empty)"), (",1", "(empty)"), ("1.5", "'1.5'"),
    ("1-2-3", "'1-2-3'"), ("1e3", "'1e3'"), ("0x10", "'0x10'"), ("+5", "'+5'"), ("\u0663", "bad item"),
    ("1 2", "'1 2'"), ("5\n6", "bad item"), (str(MAX_SEED + 1), "larger than"),
])
def test_bad_specs(text, says):
    with pytest.raises(SeedSpecError) as info:
        parse_seeds(text)
    msg = str(info.value)
    assert says in msg and "\n" not in msg
    assert isinstance(info.value, ValueError)


def test_spec_from_python_values():
    assert list(SeedSpec.of(range(3, 6))) == [3, 4, 5]
    assert list(SeedSpec.of([9, 2, 2, 5])) == [2, 5, 9]
    assert list(SeedSpec.of(4)) == [4]
    assert SeedSpec.of("1-3").text == "1-3"
    for bad in ([], range(0), [1, "2"], [1.0], [True], [-1]):
        with pytest.raises(SeedSpecError):
            SeedSpec.of(bad)


@pytest.mark.parametrize("spec, says", [
    ("5-3", "backwards"), ("abc", "bad item"), ("", "empty seed spec"), ("1,,2", "bad item"),
    ("0", "PySolFC game numbers start at 1"),  # the game, not the spec, knows that 0 is invalid
])
def test_cli_bad_spec_exits_2_with_one_line(spec, says, tmp_path):
    db = tmp_path / "r.sqlite"
    line = one_line_error(patience_here("batch", "klondike", "--seeds", spec, "--db", str(db)))
    assert says in line
    assert not db.exists()  # nothing was started


def test_cli_missing_seeds_and_other_bad_options(tmp_path):
    db = str(tmp_path / "r.sqlite")
    assert "--seeds" in one_line_error(patience_here("batch", "klondike", "--db", db))
    assert "--workers" in one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--workers", "0", "--db", db))
    assert "unknown game" in one_line_error(patience_here("batch", "nosuchgame", "--seeds", "1", "--db", db))
    assert "--max-nodes" in one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--max-nodes", "0",
                                                         "--db", db))
    assert "numbering" in one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--numbering", "x",
                                                       "--db", db))
    line = one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--db", str(tmp_path / "no" / "r.sqlite")))
    assert "does not exist" in line


def test_cli_bad_spec_in_a_real_process(tmp_path):
    r = patience("batch", "klondike", "--seeds", "10-1", "--db", str(tmp_path / "r.sqlite"))
    assert "runs backwards" in one_line_error(r)
