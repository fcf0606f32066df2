"""Win-rate statistics: Wilson intervals with unknown deals counted both ways."""

from __future__ import annotations

import math
from fractions import Fraction
from dataclasses import dataclass
from statistics import NormalDist


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (0 <= successes <= n)."""
    if n < 0 or not 0 <= successes <= max(n, 0):
        raise ValueError(f"successes must be between 0 and n ({successes} of {n})")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class WinRate:
    won: int
    lost: int
    unknown: int
    low: float  # lower bound: unknown counted as lost
    high: float  # upper bound: unknown counted as won

    @property
    def n(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def point(self) -> float:
        """Won over decided deals (unknowns left out)."""
        decided = self.won + self.lost
        return self.won / decided if decided else float("nan")

    def __str__(self) -> str:
        return f"{100 * self.point:.2f}% [{100 * self.low:.2f}%, {100 * self.high:.2f}%]"


def win_rate(won: int, lost: int, unknown: int, confidence: float = 0.95) -> WinRate:
    """Solvitaire's convention: the interval's low end counts unknown deals as lost
    (Wilson lower bound of won/n), its high end counts them as won (Wilson upper bound
    of (won+unknown)/n), so an unresolved deal can never flatter the estimate."""
    if min(won, lost, unknown) < 0:
        raise ValueError("counts cannot be negative")
    n = won + lost + unknown
    low = wilson(won, n, confidence)[0]
    high = wilson(won + unknown, n, confidence)[1]
    return WinRate(won, lost, unknown, low, high)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be between 0 and 100, not {q}")
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(Fraction(q) * len(ordered) / 100))  # exact: no float rounding
    return ordered[rank - 1]


@dataclass(frozen=True)
class Distribution:
    """Summary of a sample (solve times, node counts): percentiles are nearest-rank."""

    n: int
    median: float
    mean: float
    p90: float
    p99: float
    max: float


def distribution(values: list[float]) -> Distribution:
    """Median, mean, p90, p99 and max of ``values`` (all nan when empty)."""
    if not values:
        nan = float("nan")
        return Distribution(0, nan, nan, nan, nan, nan)
    return Distribution(len(values), percentile(values, 50), math.fsum(values) / len(values),
                        percentile(values, 90), percentile(values, 99), max(values))


def undecided_after(decided_seconds: list[float], unknown: int, limits: list[float]) -> list[int]:
    """How many deals a smaller cap would have left undecided, for each limit in ``limits``.

    A deal is undecided at limit t if it ended unknown or was decided only after t
    seconds.  Why: the tail of this curve says what a longer cap could buy (a slow fall
    means the unknowns are not a few seconds short), which a single unknown count hides.
    Only limits up to the run's own cap mean anything: beyond it the unknowns stay.
    """
    if unknown < 0:
        raise ValueError("unknown cannot be negative")
    return [unknown + sum(s > t for s in decided_seconds) for t in limits]
