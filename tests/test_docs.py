"""The README and docs/ as a newcomer meets them (issue 25): the README's first screen
is the two commands and the main job; every link and every repository path the pages
name exists; nothing points outside the repository.  (What the examples print is
recorded in docs/walkthrough.md, run from a fresh clone.)"""

from __future__ import annotations

import re

from cli_helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a path in backquotes that starts at one of the repository's folders
REPO_PATH = re.compile(r"`((?:solver|tests|docs|results|benchmarks)/[A-Za-z0-9_./<>*-]+)`")


def test_the_readme_first_screen_is_the_two_commands_and_the_main_job():
    lines = (ROOT / "README.md").read_text().splitlines()
    first_screen = "\n".join(lines[:50])
    for must in ("make run", "make test", "## The main job", "$ patience solve klondike 1", "verdict: won",
                 "$ patience batch klondike", "Wilson", "$ patience report", "$ patience bench"):
        assert must in first_screen, must
    assert len(lines) < 120, "the README is a first page; reference material belongs in docs/"


def test_every_docs_page_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text()
    for page in ("usage", "games", "json", "results", "architecture", "how-it-works", "measurements", "walkthrough"):
        assert f"(docs/{page}.md)" in readme, page


def test_every_markdown_link_and_repository_path_exists():
    missing = []
    for page in PAGES:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if not target.startswith(("http://", "https://")) and not (page.parent / target).exists():
                missing.append(f"{page.name}: link {target}")
        for path in REPO_PATH.findall(text):
            if "<" in path or "*" in path:  # a pattern (tests/test_<game>_*.py), not a file
                continue
            if not (ROOT / path.rstrip(".")).exists():
                missing.append(f"{page.name}: {path}")
    assert not missing, missing


def test_nothing_points_outside_the_repository():
    """README, docs/ and the package's docstrings name no file outside the repository
    (results/ reports are records of past runs and may)."""
    outside = re.compile(r"\.\./shared|shared/(?:seeds|notes|peers)/|/work/|anchors/")
    files = [*PAGES, *sorted((ROOT / "solver").rglob("*.py")), *sorted((ROOT / "benchmarks").rglob("*.py"))]
    hits = [f"{f.relative_to(ROOT)}: {m.group(0)}" for f in files for m in outside.finditer(f.read_text())]
    assert not hits, hits
