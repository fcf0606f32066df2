"""Whole numbers as a person types them: ASCII digits only, and a message that fits a line.

Python's ``int()`` takes more than a person means by a number: ``1_0`` (10), ``+5``,
other scripts' digits (``٣`` is 3), surrounding spaces; and a number of more than 4,300
digits raises an error whose text speaks of ``sys.set_int_max_str_digits``.  Everything
that reads a number from the command line or a deal file reads it here, so ``1_0`` is
refused as "not a whole number" rather than solved as deal 10.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")
MAX_DIGITS = 40  # more than any count or seed this project takes (its games say which they take)


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message, cut in the middle when longer than ``limit``."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit // 2] + "..." + text[-8:]) + f" ({len(text)} characters)"


def parse_whole(text: str) -> int:
    """The whole number written in ``text`` (ASCII digits, nothing else); ValueError
    (a one-line message) otherwise, or when it has more than MAX_DIGITS digits."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        raise ValueError(f"{shown(str(text))} is not a whole number (digits 0-9 only)")
    if len(text) > MAX_DIGITS:
        raise ValueError(f"{shown(text)} is too large ({len(text)} digits)")
    return int(text)
