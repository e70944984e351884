"""Intervals for the estimates Kozyr prints: Wilson intervals for rates (statsmodels), also at the
effective sample size of units in clusters (the hands of a deal); normal intervals for means and
ratios computed from exact integer counters; order-statistic intervals for quantiles."""
from __future__ import annotations

import math

import numpy as np
from scipy.stats import binom, norm
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95
# The normal approximation (means, ratios, differences) is not used on fewer values: from a
# handful of deals the spread, zero or not, says little about the true one (a rate's Wilson
# interval and the order statistics of a quantile need no such floor).
MIN_NORMAL_N = 30


def wilson(count, n, confidence: float = CONFIDENCE):
    """Wilson score interval for count successes out of n (array-like; n = 0 gives NaN)."""
    count = np.asarray(count, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        low, high = proportion_confint(count, np.where(n > 0, n, np.nan), alpha=1 - confidence, method="wilson")
    # The bounds are exactly 0 at count = 0 and 1 at count = n; the formula leaves rounding dust
    # (2e-19) that a table would print as a number.
    low = np.where((count == 0) & (n > 0), 0.0, low)
    high = np.where((count == n) & (n > 0), 1.0, high)
    return np.asarray(low), np.asarray(high)


def design_effect(count, n, sum_sq, clusters, sum_cross=None, sum_size_sq=None) -> float:
    """How much the variance of a rate pooled over n units in clusters (the hands of a deal)
    exceeds what independent units would give: sum_sq is the sum over the clusters of x^2, x a
    cluster's units with the event. Clusters of unequal size (the trials of a deal) also pass
    sum_cross, the sum of x t, and sum_size_sq, the sum of t^2, t a cluster's units: the variance
    is then that of the ratio estimator, sum (x - p t)^2 / (clusters - 1). Below 1 when the units
    exclude each other (one hand holding a card keeps it from the others); NaN when the rate is 0
    or 1."""
    if (sum_cross is None) != (sum_size_sq is None):
        raise ValueError("clusters of unequal size need both sum_cross and sum_size_sq")
    count, n, clusters = int(count), int(n), int(clusters)
    p = count / n if n else np.nan
    if not 0 < p < 1 or clusters < 2:
        return np.nan
    if sum_cross is None:                          # equal sizes t = n / clusters
        residual = sum_sq - count * count / clusters
    else:
        residual = sum_sq - 2 * p * sum_cross + p * p * sum_size_sq
    return max(residual / (clusters - 1), 0.0) / (n / clusters * p * (1 - p))


def pair_sum_sq(count, both) -> int:
    """design_effect's sum_sq for clusters of two units (the two hands of a deal) from the units
    with the event (count) and the clusters where both have it: x = 0, 1, 2 and x^2 = x + 2 [both]."""
    return int(count) + 2 * int(both)


def clustered_wilson(count, n, sum_sq, clusters, confidence: float = CONFIDENCE, sum_cross=None, sum_size_sq=None):
    """Wilson interval of a rate pooled over clustered units (see design_effect): the counts are
    scaled to the effective sample size n / design effect (Kish)."""
    deff = design_effect(count, n, sum_sq, clusters, sum_cross, sum_size_sq)
    if not deff > 0:
        return wilson(count, n, confidence)
    return wilson(count / deff, n / deff, confidence)


def _within(estimate, low, high, bounds):
    """The interval cut to the range the quantity cannot leave (a share in [0, 1], a difference
    of two rates in [-1, 1]); a NaN end stays NaN."""
    if bounds is None:
        return estimate, low, high
    return estimate, (low if math.isnan(low) else max(low, bounds[0])), (high if math.isnan(high) else min(high, bounds[1]))


def mean_interval(total, total_sq, n, confidence: float = CONFIDENCE, bounds=None):
    """Mean and its normal-approximation interval from the sum and the sum of squares of n values,
    cut to `bounds` (low, high) when the values cannot leave them: no mean without values, and no
    interval from fewer than MIN_NORMAL_N (NaN)."""
    if n < MIN_NORMAL_N:
        return (total / n if n else np.nan), np.nan, np.nan
    n = float(n)
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / (n - 1)
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(var / n)
    return _within(mean, mean - half, mean + half, bounds)


def mean_interval_if_counted(total, total_sq, n, confidence: float = CONFIDENCE, bounds=None):
    """mean_interval where the sum of squares was counted: a run stored before a kernel counted it
    passes None (and a negative sum has overflowed), and fewer than MIN_NORMAL_N values give no
    interval (mean_interval); the interval is then NaN and only the mean is known."""
    if total_sq is None or total_sq < 0:
        return (total / n if n else np.nan), np.nan, np.nan
    return mean_interval(float(total), float(total_sq), n, confidence, bounds)


def ratio_interval(sum_x, sum_y, sum_xx, sum_yy, sum_xy, n, confidence: float = CONFIDENCE, bounds=None):
    """The ratio sum x / sum y of n pairs (x, y), one a deal, and its delta-method normal interval,
    cut to `bounds` as mean_interval's: the residuals x - R y have mean 0 and standard error
    s / sqrt(n), divided by the mean of y (no interval from fewer than MIN_NORMAL_N pairs)."""
    n, sum_y = float(n), float(sum_y)
    ratio = sum_x / sum_y if sum_y else np.nan
    if n < MIN_NORMAL_N or not sum_y:
        return ratio, np.nan, np.nan
    residual_sq = max(sum_xx - 2 * ratio * sum_xy + ratio * ratio * sum_yy, 0.0) / (n - 1)
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(residual_sq / n) / (sum_y / n)
    return _within(ratio, ratio - half, ratio + half, bounds)


def histogram_moments(hist):
    """Count, sum and sum of squares of the values a histogram (index = value) holds."""
    hist = np.asarray(hist, dtype=np.int64)
    values = np.arange(hist.shape[-1], dtype=np.int64)
    return int(hist.sum()), int((hist * values).sum()), int((hist * values * values).sum())


def histogram_quantile(hist, q: float, confidence: float = CONFIDENCE):
    """The q-quantile of the values a histogram holds (index = value: the value of rank ceil(q n),
    so the lower one of an even count's median) and its distribution-free interval: the order
    statistics of ranks j and k, j the Binomial(n, q) quantile at (1 - confidence)/2 and k one
    above its quantile at (1 + confidence)/2, so that at most (1 - confidence)/2 is left outside
    on each side. With tied values the coverage is at least the confidence. An end whose rank
    falls outside 1..n (too few values for this q) is NaN: the sample does not bound it."""
    if not 0 < q < 1:
        raise ValueError(f"a quantile needs 0 < q < 1, got {q!r}")
    hist = np.asarray(hist, dtype=np.int64)
    n = int(hist.sum())
    if n == 0:
        return np.nan, np.nan, np.nan
    cumulative = np.cumsum(hist)

    def value_of_rank(rank: int):                  # the rank-th smallest value, ranks 1..n
        return int(np.searchsorted(cumulative, rank)) if 1 <= rank <= n else np.nan

    tail = (1 - confidence) / 2
    rank = max(math.ceil(q * n - 1e-9), 1)         # (q n = 20000.000000000004 is rank 20000)
    return (value_of_rank(rank), value_of_rank(int(binom.ppf(tail, n, q))),
            value_of_rank(int(binom.ppf(1 - tail, n, q)) + 1))

