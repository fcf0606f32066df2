"""Writing a benchmark report into results/ without losing what people wrote in it.

A report holds its generated part between two marker lines; everything outside them (notes
written by hand, ``--note`` texts) is kept when the generated part is written again.  A
report from before the markers is kept whole, below the new generated part, for a person
to tidy.  Commands and paths in reports are shown relative to the project root, never
with the folders of the machine that ran them, so a report reads the same everywhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- generated part, written by {script}: edit outside it, notes there are kept -->"
END = "<!-- end of generated part -->"
EARLIER = ("## Earlier text of this report\n\n"
           "Kept as it was when the generated part above replaced it (its figures are from an "
           "earlier run).\n\n")
PATH_OPTIONS = ("--out", "--runs", "--out-dir")


def shown_path(text: str, base: Path | None = None, elide: bool = True) -> str:
    """A path as a report shows it: relative to the project root when inside it, else only
    its name after ``.../`` (or, not eliding, for messages on the console: whole).  A
    relative path is read from ``base`` (none: left as written)."""
    path = Path(text)
    if not path.is_absolute():
        if base is None:
            return text
        path = base / path
    path = path.resolve()
    try:
        return path.relative_to(ROOT).as_posix() or "."
    except ValueError:
        return f".../{path.name}" if elide else str(path)


def project_args(argv: list[str], path_options: tuple[str, ...] = PATH_OPTIONS) -> list[str]:
    """argv with its paths as a report shows them: every absolute path, and the values of
    path_options (read from the current folder), relative to the project root."""
    out: list[str] = []
    path_next = False
    for arg in argv:
        key, eq, value = arg.partition("=")
        if path_next:
            out.append(shown_path(arg, Path.cwd()))
        elif eq and key in path_options:
            out.append(f"{key}={shown_path(value, Path.cwd())}")
        elif os.path.isabs(arg):
            out.append(shown_path(arg))
        elif eq and os.path.isabs(value):
            out.append(f"{key}={shown_path(value)}")
        else:
            out.append(arg)
        path_next = arg in path_options
    return out


def without_paths(text: str) -> str:
    """Free text (e.g. other processes' command lines) with every absolute path shown as
    shown_path shows it."""
    return re.sub(r"(?<![\w.~-])/[^\s;,'\"`]+", lambda m: shown_path(m.group(0)), text)


def split_report(text: str) -> tuple[str, str] | None:
    """(text before, text after) the generated part of a report, or None without markers."""
    lines = text.splitlines(keepends=True)
    begin = next((i for i, line in enumerate(lines) if line.startswith("<!-- generated part")), None)
    if begin is None:
        return None
    end = next((i for i in range(begin + 1, len(lines)) if lines[i].strip() == END), None)
    if end is None:
        return None
    return "".join(lines[:begin]), "".join(lines[end + 1:])


def write_report(path: Path, generated: str, script: str, note: str = "") -> None:
    """Write ``generated`` as the report's generated part; keep the rest of an existing report.

    ``note`` (a paragraph, e.g. from ``--note``) goes after the generated part, with the
    notes, unless the report already holds it.
    """
    old = path.read_text() if path.exists() else ""
    parts = split_report(old)
    if parts is not None:
        before, after = parts
    elif old.strip():
        before, after = "", "\n" + EARLIER + old
    else:
        before, after = "", ""
    if note and note not in before + after:
        after = (after.rstrip("\n") + "\n" if after.strip() else "") + "\n" + note.strip("\n") + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(before + BEGIN.format(script=script) + "\n" + generated.rstrip("\n") + "\n" + END + "\n"
                    + after)
