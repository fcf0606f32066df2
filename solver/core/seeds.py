"""Seed specifications: ``5``, ``1-100000``, ``1-10,20-30``.

A spec is a comma-separated list of items, each a whole number ``N`` or an inclusive
range ``A-B`` with ``A <= B``.  Spaces around items and dashes are allowed.  Overlapping
items are merged: every seed is solved once, in increasing order.  Seeds are kept as
ranges, so ``1-1000000000`` costs no memory.  Whether a seed is valid for a game and a
numbering (PySolFC has no game 0) is for the game to say, not for the spec.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .wholes import shown

_ITEM = re.compile(r"[ \t]*([0-9]+)[ \t]*(?:-[ \t]*([0-9]+)[ \t]*)?")

MAX_SEED = 2**63 - 1  # the database stores seeds as SQLite integers


class SeedSpecError(ValueError):
    """A malformed seed specification (one-line message)."""


class SeedSpec:
    """Sorted, disjoint, inclusive ranges of seeds."""

    def __init__(self, ranges: Iterable[tuple[int, int]], text: str | None = None):
        merged: list[tuple[int, int]] = []
        for a, b in sorted(ranges):
            if merged and a <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        self.ranges = merged
        self.text = text if text is not None else ",".join(f"{a}-{b}" if a != b else str(a) for a, b in merged)

    @classmethod
    def parse(cls, text: str) -> "SeedSpec":
        return cls(_parse_ranges(text), text.strip())

    @classmethod
    def of(cls, seeds: "str | int | SeedSpec | Iterable[int]") -> "SeedSpec":
        """A spec from a spec string, one seed, a spec, or any iterable of seeds."""
        if isinstance(seeds, SeedSpec):
            return seeds
        if isinstance(seeds, str):
            return cls.parse(seeds)
        if isinstance(seeds, int):
            seeds = [seeds]
        if isinstance(seeds, range) and seeds.step == 1:
            if len(seeds) == 0:
                raise SeedSpecError("no seeds given")
            _check(seeds.start, str(seeds.start))
            _check(seeds.stop - 1, str(seeds.stop - 1))
            return cls([(seeds.start, seeds.stop - 1)])
        out = []
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, int):
                raise SeedSpecError(f"invalid seed {s!r}: expected a whole number")
            _check(s, str(s))
            out.append((s, s))
        if not out:
            raise SeedSpecError("no seeds given")
        return cls(out)

    def __iter__(self) -> Iterator[int]:
        for a, b in self.ranges:
            yield from range(a, b + 1)

    def __len__(self) -> int:
        return sum(b - a + 1 for a, b in self.ranges)

    def __contains__(self, seed: object) -> bool:
        return isinstance(seed, int) and any(a <= seed <= b for a, b in self.ranges)

    @property
    def first(self) -> int:
        return self.ranges[0][0]

    @property
    def last(self) -> int:
        return self.ranges[-1][1]

    def __repr__(self) -> str:
        return f"SeedSpec({self.text!r})"

    def __str__(self) -> str:
        return self.text


def _check(seed: int, text: str) -> int:
    if seed < 0:
        raise SeedSpecError(f"invalid seed {text!r}: seeds cannot be negative")
    if seed > MAX_SEED:
        raise SeedSpecError(f"invalid seed {text!r}: larger than {MAX_SEED}")
    return seed


def _number(digits: str) -> int:
    """A seed written in ASCII digits (the pattern's), refused before ``int`` when it has
    more digits than MAX_SEED (Python's own error past 4,300 digits is not a message)."""
    if len(digits) > len(str(MAX_SEED)):
        raise SeedSpecError(f"invalid seed {shown(digits)}: larger than {MAX_SEED}")
    return _check(int(digits), digits)


def _parse_ranges(text: str) -> list[tuple[int, int]]:
    if not isinstance(text, str) or not text.strip():
        raise SeedSpecError("empty seed spec: expected e.g. 5, 1-1000 or 1-10,20-30")
    ranges = []
    for item in text.split(","):
        m = _ITEM.fullmatch(item)
        if not m:
            shown = item.strip() or "(empty)"
            raise SeedSpecError(
                f"invalid seed spec {text.strip()!r}: bad item {shown!r} (expected N or A-B, e.g. 1-10,20-30)"
            )
        a = _number(m.group(1))
        b = a if m.group(2) is None else _number(m.group(2))
        if b < a:
            raise SeedSpecError(f"invalid seed spec {text.strip()!r}: range {a}-{b} runs backwards")
        ranges.append((a, b))
    return ranges


def parse_seeds(text: str) -> SeedSpec:
    """Parse a seed spec; raise SeedSpecError (a ValueError) with a one-line message."""
    return SeedSpec.parse(text)
