"""The fast tier (tests/fast.txt, make test-fast): every line still names a test, and a
line names only what it says (a test's name is not a prefix of another's)."""

from __future__ import annotations

import subprocess
import sys

from cli_helpers import ROOT
from conftest import FAST_LIST, fast_prefixes, named_by


def test_every_line_of_the_fast_list_names_a_collected_test():
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    assert len(ids) > 1000, out.stdout[-2000:] + out.stderr[-2000:]
    prefixes = fast_prefixes(FAST_LIST.read_text())
    assert [p for p in prefixes if not any(named_by(i, p) for i in ids)] == []
    fast = [i for i in ids if any(named_by(i, p) for p in prefixes)]
    assert 100 < len(fast) < len(ids)  # a subset, not the suite


def test_a_line_names_its_file_test_or_case_only():
    assert named_by("tests/test_a.py::test_b[x]", "tests/test_a.py")
    assert named_by("tests/test_a.py::test_b[x]", "tests/test_a.py::test_b")
    assert named_by("tests/test_a.py::test_b[x]", "tests/test_a.py::test_b[x]")
    assert not named_by("tests/test_a.py::test_bc", "tests/test_a.py::test_b")
    assert not named_by("tests/test_ab.py::test_b", "tests/test_a")
    assert fast_prefixes("# a comment\n\ntests/test_a.py\n  # indented comment\n") == ["tests/test_a.py"]
