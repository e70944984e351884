"""The interval helpers every table uses."""
import math

import numpy as np

from analyzer.stats import wilson


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
