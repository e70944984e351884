"""Intervals for the estimates Kozyr prints: Wilson intervals for rates (statsmodels), normal
intervals for means computed from exact integer counters."""
from __future__ import annotations

import numpy as np
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95


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


def mean_interval(total, total_sq, n, confidence: float = CONFIDENCE):
    """Mean and its normal-approximation interval from the sum and the sum of squares of n values."""
    n = float(n)
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(var / n)
    return mean, mean - half, mean + half


def histogram_moments(hist):
    """Count, sum and sum of squares of the values a histogram (index = value) holds."""
    hist = np.asarray(hist, dtype=np.int64)
    values = np.arange(hist.shape[-1], dtype=np.int64)
    return int(hist.sum()), int((hist * values).sum()), int((hist * values * values).sum())
