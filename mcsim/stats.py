"""Confidence intervals: Wilson for proportions, normal for means."""

import numpy as np

Z95 = 1.959963984540054
CI_METHOD = "95% Wilson score interval (proportions); mean +/- 1.96 SE (means)"


def wilson(k, n, z=Z95):
    """Wilson score interval for ``k`` successes in ``n`` trials.

    Works on scalars and arrays; ``n == 0`` gives the vacuous interval [0, 1].
    Returns ``(p_hat, low, high)``.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    p = np.where(n > 0, k / safe_n, 0.0)
    z2 = z * z
    denom = 1.0 + z2 / safe_n
    centre = (p + z2 / (2.0 * safe_n)) / denom
    half = z * np.sqrt(p * (1.0 - p) / safe_n + z2 / (4.0 * safe_n * safe_n)) / denom
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    # Exact ends: no successes means the low end is 0, all successes means high is 1.
    low = np.where(k <= 0, 0.0, low)
    high = np.where(k >= n, 1.0, high)
    if p.ndim == 0:
        return float(p), float(low), float(high)
    return p, low, high


def wilson_width(k, n, z=Z95):
    """Width of the Wilson interval (array-friendly)."""
    _, low, high = wilson(k, n, z)
    return np.asarray(high) - np.asarray(low)


def wilson_rounds_needed(k, n, width, z=Z95):
    """Trials for the Wilson interval of the observed rate to be ``width`` wide.

    Normal approximation ``4 z^2 p(1-p) / w^2``, at least ``z^2 / w`` (the
    width at p = 0); array-friendly. The caller re-checks the real width.
    """
    k = np.asarray(k, dtype=float)
    n = np.maximum(np.asarray(n, dtype=float), 1.0)
    p = k / n
    return np.ceil(np.maximum(4.0 * z * z * p * (1.0 - p) / (width * width), z * z / width))


def mean_ci(total, total_sq, n, z=Z95):
    """Mean and normal 95% interval from sufficient statistics.

    ``total`` = sum of x, ``total_sq`` = sum of x**2. Returns (mean, low, high).
    """
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    safe_n = np.where(n > 1, n, 2.0)
    mean = np.where(n > 0, total / np.where(n > 0, n, 1.0), np.nan)
    var = np.maximum(total_sq - safe_n * np.where(n > 1, mean, 0.0) ** 2, 0.0) / (safe_n - 1.0)
    se = np.where(n > 1, np.sqrt(var / safe_n), np.nan)
    low, high = mean - z * se, mean + z * se
    if mean.ndim == 0:
        return float(mean), float(low), float(high)
    return mean, low, high
