"""The analyzer.compare counters worked out from per-deal results, for the compare tests."""

import numpy as np


def compare_counters(a, b) -> dict:
    """The counters of per-deal results a (strategy A) and b (strategy B) on the same deals."""
    a, b = np.asarray(a), np.asarray(b)
    d = a - b
    return {"pairs": len(d), "diff_sum": d.sum(), "diff_sq_sum": (d * d).sum(), "wins": (d > 0).sum(),
            "draws": (d == 0).sum(), "losses": (d < 0).sum(), "a_sum": a.sum(), "a_sq_sum": (a * a).sum(),
            "b_sum": b.sum(), "b_sq_sum": (b * b).sum()}
