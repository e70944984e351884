"""The interval helpers every table uses."""
import math

import numpy as np
import pytest
from scipy.stats import binom

from analyzer.stats import (MIN_NORMAL_N, clustered_wilson, design_effect, histogram_quantile, mean_interval,
                            mean_interval_if_counted, ratio_interval, wilson)


def test_wilson_matches_the_score_formula():
    # centre (x + z²/2)/(n + z²), half-width z/(n + z²)·sqrt(x(n−x)/n + z²/4), z = 1.96 (§10.8 of
    # the Russian Bank rules quotes it); statsmodels uses the exact quantile 1.959964.
    z = 1.959963984540054
    for x, n in ((3, 10), (802, 1000), (1, 7)):
        centre = (x + z * z / 2) / (n + z * z)
        half = z / (n + z * z) * math.sqrt(x * (n - x) / n + z * z / 4)
        low, high = wilson(x, n)
        assert math.isclose(low, centre - half, rel_tol=1e-12) and math.isclose(high, centre + half, rel_tol=1e-12)


def test_wilson_is_exact_at_the_ends_and_nan_without_deals():
    low, high = wilson([0, 5, 0], [5, 5, 0])
    assert low[0] == 0.0 and high[1] == 1.0          # not 2e-19 or 0.9999999999999998
    assert 0 < high[0] < 1 and 0 < low[1] < 1
    assert np.isnan(low[2]) and np.isnan(high[2])
    # for some n (28 among them) the formula leaves 3e-17 or 0.9999999999999999
    n = np.arange(1, 51)
    assert (wilson(0 * n, n)[0] == 0.0).all() and (wilson(n, n)[1] == 1.0).all()


def test_histogram_quantile_is_the_order_statistics_of_the_sorted_values():
    rng = np.random.default_rng(3)
    for n in (1, 2, 9, 10, 501, 2000):
        values = rng.integers(0, 40, n)
        ordered = np.sort(values)
        for q in (0.1, 0.5, 0.9):
            estimate, low, high = histogram_quantile(np.bincount(values, minlength=40), q)
            # ranks from 1: ceil(q n) for the estimate, the binomial quantiles for the bounds; a
            # bound whose rank is outside 1..n is not given by so few values (NaN)
            j, k = int(binom.ppf(0.025, n, q)), int(binom.ppf(0.975, n, q)) + 1
            assert estimate == ordered[max(math.ceil(round(q * n, 9)), 1) - 1]
            assert low == ordered[j - 1] if j >= 1 else np.isnan(low)
            assert high == ordered[k - 1] if k <= n else np.isnan(high)
            assert not low > estimate and not estimate > high
        if n % 2 and n > 1:   # the median of an odd count is the middle value, its bounds symmetric
            j = int(binom.ppf(0.025, n, 0.5))
            assert histogram_quantile(np.bincount(values), 0.5) == (ordered[n // 2], ordered[j - 1], ordered[n - j])
    assert all(np.isnan(v) for v in histogram_quantile(np.zeros(5, int), 0.5))
    # ten values: the largest is below the true 90th percentile with probability 0.9^10 = 0.35,
    # so it is no 95 % upper bound
    assert np.isnan(histogram_quantile(np.bincount(range(10)), 0.9)[2])
    for q in (0, 1, 1.5, -0.1):
        with pytest.raises(ValueError, match="0 < q < 1"):
            histogram_quantile(np.bincount(range(10)), q)


def test_histogram_quantile_interval_has_its_stated_coverage():
    # Nearly continuous values (ties rare): the interval covers the true quantile as often as the
    # binomial sum says, at least 95 %. 4,000 samples of 101: within 4 standard errors of it.
    rng = np.random.default_rng(8)
    n, trials = 101, 4000
    for q, true in ((0.5, 4999.5), (0.1, 999.5)):
        j, k = int(binom.ppf(0.025, n, q)), int(binom.ppf(0.975, n, q)) + 1
        exact = binom.cdf(k - 1, n, q) - binom.cdf(j - 1, n, q)
        covered = sum(low <= true <= high for _, low, high in
                      (histogram_quantile(np.bincount(rng.integers(0, 10_000, n), minlength=10_000), q)
                       for _ in range(trials)))
        assert exact >= 0.95
        assert abs(covered / trials - exact) < 4 * math.sqrt(exact * (1 - exact) / trials)


def test_mean_interval_if_counted_leaves_the_interval_out_without_squares():
    values = np.array([3.0, 5.0, 10.0] * 10)
    mean, low, high = mean_interval_if_counted(values.sum(), (values ** 2).sum(), 30)
    half = 1.959964 * values.std(ddof=1) / math.sqrt(30)
    assert (mean, low, high) == pytest.approx((6.0, 6.0 - half, 6.0 + half), rel=1e-6)
    for total_sq, n in ((None, 30), (-5, 30), (9, 1)):     # not counted, overflowed, a single value
        mean, low, high = mean_interval_if_counted(180 if n == 30 else 3, total_sq, n)
        assert mean == (6.0 if n == 30 else 3.0) and np.isnan(low) and np.isnan(high)
    assert np.isnan(mean_interval_if_counted(0, None, 0)[0])
    assert mean_interval_if_counted(0, 0, 30) == (0, 0, 0)     # thirty zeros: counted, not overflowed
    # no values: no mean; fewer than MIN_NORMAL_N: a mean without an interval (two equal values
    # once gave the point interval "7 (7 to 7)"); from MIN_NORMAL_N on, the normal interval
    assert all(np.isnan(v) for v in mean_interval(0, 0, 0))
    for n in (1, 2, MIN_NORMAL_N - 1):
        mean, low, high = mean_interval(7 * n, 49 * n, n)
        assert mean == 7 and np.isnan(low) and np.isnan(high)
    assert mean_interval(7 * MIN_NORMAL_N, 49 * MIN_NORMAL_N, MIN_NORMAL_N) == (7, 7, 7)


def test_design_effect_of_clustered_units():
    rng = np.random.default_rng(4)
    deals = 20_000

    def deff_of(x):                         # x[d, s]: unit s of cluster d has the event
        per_deal = x.sum(axis=1)
        return design_effect(x.sum(), x.size, (per_deal ** 2).sum(), deals), per_deal

    # independent hands: about 1; the same event for every hand of a deal: the cluster size
    independent = rng.random((deals, 4)) < 0.3
    deff, per_deal = deff_of(independent)
    assert abs(deff - 1) < 0.05
    assert deff == pytest.approx(per_deal.var(ddof=1) / (4 * 0.3 * 0.7), rel=0.03)
    shared = np.repeat(rng.random((deals, 1)) < 0.3, 4, axis=1)
    assert deff_of(shared)[0] == pytest.approx(4, rel=1e-3)
    # one card in one of four hands: the hands exclude each other, (1 - 4p) / (1 - p) below 1
    holder = rng.integers(0, 4, deals)
    exclusive = (np.arange(4) == holder[:, None]) & (rng.random((deals, 1)) < 0.2)
    p = exclusive.mean()
    assert deff_of(exclusive)[0] == pytest.approx((1 - 4 * p) / (1 - p) * deals / (deals - 1), rel=1e-9)
    # the interval: Wilson at the effective sample size, the same as Wilson for independent units
    # scaled; a rate of 0 has the plain Wilson interval
    count, n, sum_sq = int(shared.sum()), shared.size, int((shared.sum(axis=1) ** 2).sum())
    low, high = clustered_wilson(count, n, sum_sq, deals)
    deff = design_effect(count, n, sum_sq, deals)
    assert (low, high) == pytest.approx(tuple(float(v) for v in wilson(count / deff, n / deff)))
    assert high - low > 1.9 * np.subtract(*wilson(count, n)[::-1])
    assert clustered_wilson(0, 400, 0, 100) == wilson(0, 400)


def test_design_effect_of_clusters_of_unequal_size():
    rng = np.random.default_rng(8)
    deals = 20_000
    size = rng.integers(1, 5, deals)                        # 1-4 trials a deal
    units = np.arange(4) < size[:, None]

    def deff_of(x):
        t, k = units.sum(axis=1), (x & units).sum(axis=1)
        return design_effect(k.sum(), t.sum(), (k * k).sum(), deals, (k * t).sum(), (t * t).sum()), t, k

    # independent trials: about 1, and exactly the ratio estimator's variance over the binomial one
    deff, t, k = deff_of(rng.random((deals, 4)) < 0.3)
    p = k.sum() / t.sum()
    ratio_var = ((k - p * t) ** 2).sum() / (deals - 1) / deals / t.mean() ** 2
    assert deff == pytest.approx(ratio_var / (p * (1 - p) / t.sum()), rel=1e-12)
    assert abs(deff - 1) < 0.05
    # the same event for every trial of a deal: sum t^2 / sum t, above the mean cluster size
    deff, t, _ = deff_of(np.repeat(rng.random((deals, 1)) < 0.3, 4, axis=1))
    assert deff == pytest.approx((t * t).sum() / t.sum(), rel=0.02)
    # equal sizes: the same as without the two sums
    x = rng.random((deals, 4)) < 0.3
    k = x.sum(axis=1)
    assert design_effect(k.sum(), 4 * deals, (k * k).sum(), deals, 4 * k.sum(), 16 * deals) == pytest.approx(
        design_effect(k.sum(), 4 * deals, (k * k).sum(), deals), rel=1e-12)


def test_bounds_cut_an_interval_to_the_range_of_its_quantity():
    # 31 differences of two rates, 30 of them +1: the normal interval passes 1, the cut one stops there
    mean, low, high = mean_interval(30, 30, 31)
    assert high > 1 and mean_interval(30, 30, 31, bounds=(-1.0, 1.0)) == (mean, low, 1.0)
    mean, low, high = mean_interval(-30, 30, 31)
    assert mean_interval(-30, 30, 31, bounds=(-1.0, 1.0)) == (mean, -1.0, high)
    # a share of units in 40 deals whose units nearly all have the event: cut at 1, the low end kept
    share, low, high = ratio_interval(399, 400, 3981, 4000, 3990, 40)
    assert high > 1 and ratio_interval(399, 400, 3981, 4000, 3990, 40, bounds=(0.0, 1.0)) == (share, low, 1.0)
    # no interval stays no interval
    _, low, high = mean_interval(3, 3, 5, bounds=(-1.0, 1.0))
    assert np.isnan(low) and np.isnan(high)
    _, low, high = mean_interval_if_counted(3, None, 50, bounds=(0.0, 1.0))
    assert np.isnan(low) and np.isnan(high)
