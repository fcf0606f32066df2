"""Win-rate statistics: Wilson intervals, unknowns counted both ways, percentiles."""

from __future__ import annotations

import math

import pytest

from solver.runs.stats import WinRate, percentile, undecided_after, wilson, win_rate

Z95 = 1.959964  # two-sided 95%
Z99 = 2.575829  # two-sided 99%


def wilson_by_hand(x: int, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval written in the "counts" form (not the p-form solver.runs.stats uses):

        (x + z^2/2  -/+  z * sqrt(x (n - x) / n + z^2 / 4)) / (n + z^2)
    """
    centre = (x + z * z / 2) / (n + z * z)
    half = z * math.sqrt(x * (n - x) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


@pytest.mark.parametrize("x, n", [(0, 10), (10, 10), (5, 10), (81, 100), (1, 3), (999, 1000), (0, 1), (1, 1)])
def test_wilson_matches_the_closed_formula(x, n):
    low, high = wilson(x, n)
    want_low, want_high = wilson_by_hand(x, n, Z95)
    assert low == pytest.approx(want_low, rel=1e-6, abs=1e-12)
    assert high == pytest.approx(want_high, rel=1e-6, abs=1e-12)
    assert 0.0 <= low <= x / n + 1e-12 and x / n - 1e-12 <= high <= 1.0


def test_wilson_ends_are_exact_at_0_and_n():
    # All or nothing: the observed proportion (0 or 1) is an end of the interval.
    # BUG (minor, rounding): e.g. wilson(0, 10) = (2.8e-17, 0.277...) leaves out the
    # observed 0, and wilson(n, n)[1] is 0.9999999999999999 for many n.
    for n in range(1, 51):
        assert wilson(0, n)[0] == 0.0, n
        assert wilson(n, n)[1] == 1.0, n


def test_wilson_literal_values():
    # Worked by hand with z = 1.959964, z^2 = 3.841459:
    # 0 of 10: high = z^2 / (n + z^2) = 3.841459 / 13.841459
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(0.2775328, abs=1e-6)
    # 10 of 10: low = n / (n + z^2) = 10 / 13.841459
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7224672, abs=1e-6)
    assert high == pytest.approx(1.0, abs=1e-12)
    # 5 of 10: centre 0.5, half = z sqrt(2.5 + 0.960365) / 13.841459 = 0.2634069
    assert wilson(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-6)
    # 81 of 100: the textbook 95% Wilson interval 72.2% .. 87.5%
    assert wilson(81, 100) == pytest.approx((0.7222115, 0.8748525), abs=1e-6)


def test_wilson_other_confidence():
    assert wilson(5, 10, 0.99) == pytest.approx(wilson_by_hand(5, 10, Z99), rel=1e-6)
    assert wilson(81, 100, 0.99) == pytest.approx(wilson_by_hand(81, 100, Z99), rel=1e-6)
    # wider confidence, wider interval
    assert wilson(81, 100, 0.99)[0] < wilson(81, 100)[0] < wilson(81, 100)[1] < wilson(81, 100, 0.99)[1]


def test_wilson_no_data_is_the_whole_interval():
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("x, n", [(-1, 10), (11, 10), (3, 0), (0, -5), (-1, -1)])
def test_wilson_invalid_counts_raise(x, n):
    # (3, 0), (0, -5), (-1, -1): BUG, the ``n <= 0`` early return comes before the
    # range check, so these return (0.0, 1.0) instead of raising.
    with pytest.raises(ValueError):
        wilson(x, n)


@pytest.mark.parametrize("confidence", [1.0, 1.5, -0.5, float("nan")])
def test_wilson_invalid_confidence_raises(confidence):
    # -0.5 and nan: BUG, accepted; -0.5 gives a negative z and an inverted interval
    # (low 0.604 > high 0.396 for 5 of 10), nan gives (0.0, 1.0).
    with pytest.raises(ValueError):
        wilson(5, 10, confidence)


@pytest.mark.parametrize("won, lost, unknown", [(81, 19, 0), (80, 15, 5), (0, 10, 0), (10, 0, 0), (0, 0, 10),
                                                 (819_370, 180_470, 160), (3, 0, 2)])
def test_win_rate_counts_unknown_both_ways(won, lost, unknown):
    n = won + lost + unknown
    r = win_rate(won, lost, unknown)
    assert isinstance(r, WinRate)
    assert (r.won, r.lost, r.unknown, r.n) == (won, lost, unknown, n)
    assert r.low == pytest.approx(wilson_by_hand(won, n, Z95)[0], rel=1e-6, abs=1e-12)
    assert r.high == pytest.approx(wilson_by_hand(won + unknown, n, Z95)[1], rel=1e-6, abs=1e-12)
    assert r.low == wilson(won, n)[0] and r.high == wilson(won + unknown, n)[1]
    if won + lost:
        assert r.point == won / (won + lost)
    else:
        assert math.isnan(r.point)


def test_win_rate_without_unknowns_is_the_plain_wilson_interval():
    for won, lost in [(81, 19), (5, 5), (0, 7), (7, 0), (123_456, 22_222)]:
        r = win_rate(won, lost, 0)
        assert (r.low, r.high) == wilson(won, won + lost)


def test_win_rate_unknowns_only_widen():
    plain = win_rate(800, 200, 0)
    a = win_rate(800, 190, 10)  # 10 lost deals unresolved instead
    assert a.low <= plain.low and a.high >= plain.high
    b = win_rate(790, 200, 10)  # 10 won deals unresolved instead
    assert b.low <= plain.low and b.high >= plain.high


def test_win_rate_reproduces_the_published_form():
    # Solvitaire draw 3: 81.945 +/- 0.084% over 10^6 deals, 0.016% unresolved.
    r = win_rate(819_370, 180_470, 160)
    assert 100 * (r.low + r.high) / 2 == pytest.approx(81.945, abs=0.001)
    assert 100 * (r.high - r.low) / 2 == pytest.approx(0.084, abs=0.002)


def test_win_rate_str():
    assert str(win_rate(81, 19, 0)) == "81.00% [72.22%, 87.49%]"


def test_win_rate_no_deals():
    r = win_rate(0, 0, 0)
    assert (r.low, r.high) == (0.0, 1.0) and math.isnan(r.point)


@pytest.mark.parametrize("won, lost, unknown", [(-1, 5, 0), (5, -1, 0), (1, -1, 0), (0, 0, -1)])
def test_win_rate_negative_counts_raise(won, lost, unknown):
    # (1, -1, 0) and (0, 0, -1): BUG, n comes out 0 or negative and wilson() then
    # returns (0.0, 1.0) instead of rejecting the counts.
    with pytest.raises(ValueError):
        win_rate(won, lost, unknown)


# ---------------------------------------------------------------------- percentile

WIKI = [15, 20, 35, 40, 50]  # Wikipedia's nearest-rank example


@pytest.mark.parametrize("q, want", [(0, 15), (5, 15), (20, 15), (30, 20), (40, 20), (50, 35), (99, 50), (100, 50)])
def test_percentile_nearest_rank(q, want):
    assert percentile(WIKI, q) == want
    assert percentile(list(reversed(WIKI)), q) == want  # order of the input does not matter


def test_percentile_does_not_sort_in_place():
    values = [3.0, 1.0, 2.0]
    assert percentile(values, 50) == 2.0
    assert values == [3.0, 1.0, 2.0]


def test_percentile_single_and_empty():
    assert percentile([4.5], 0) == percentile([4.5], 100) == 4.5
    assert math.isnan(percentile([], 50))


@pytest.mark.parametrize("q, n", [(7, 100), (14, 50), (28, 25), (55, 100), (56, 100), (68, 75)])
def test_percentile_exact_rank_in_floating_point(q, n):
    # Nearest rank is ceil(q * n / 100).  BUG: stats.percentile computes q / 100 * n in
    # floating point, e.g. 7 / 100 * 100 = 7.000000000000001, whose ceil is 8.
    values = list(range(1, n + 1))
    assert percentile(values, q) == -(-q * n // 100)


@pytest.mark.parametrize("q", [-10, 150])
def test_percentile_out_of_range_q_raises(q):
    # The docstring says q in 0..100.  Today: q=150 raises IndexError, q=-10 quietly
    # returns the minimum.
    with pytest.raises(ValueError):
        percentile(WIKI, q)


def test_undecided_after_counts_unknowns_and_slower_decisions():
    decided = [0.001, 0.5, 2.0, 2.0, 45.0]
    assert undecided_after(decided, 3, [0.0005, 0.001, 1, 2, 30, 60]) == [8, 7, 6, 4, 4, 3]
    assert undecided_after([], 0, [1.0]) == [0]
    with pytest.raises(ValueError):
        undecided_after(decided, -1, [1.0])
