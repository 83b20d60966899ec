"""Confidence intervals: Wilson for proportions, Student t for means."""

import numpy as np

Z95 = 1.959963984540054
# Means of fewer values get no interval: with a handful of draws from a skewed
# payout the t interval's coverage is far from 95 % (and n = 1 has no spread).
MIN_MEAN_N = 30
CI_METHOD = (f"95% Wilson score interval (proportions); mean +/- t(0.975, n-1) SE, clipped to the "
             f"possible range (means; none below n = {MIN_MEAN_N})")

# t(0.975, df) for df = 1..30; beyond, the Cornish-Fisher series below (error < 1e-6).
_T975 = np.array([12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
                  2.364624252, 2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
                  2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
                  2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
                  2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456])


def t975(df):
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (array-friendly)."""
    df = np.asarray(df, dtype=float)
    d = np.maximum(df, 1.0)
    z = Z95
    series = (z + (z ** 3 + z) / (4 * d) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * d ** 2)
              + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * d ** 3)
              + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / (92160 * d ** 4))
    idx = np.clip(d.astype(np.int64), 1, len(_T975)) - 1
    return np.where(d <= len(_T975), _T975[idx], series)


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


def mean_se(total, total_sq, n):
    """Mean and its standard error (sample SD / sqrt(n)) from sufficient statistics.

    ``total`` = sum of x, ``total_sq`` = sum of x**2 (array-friendly). The mean
    is NaN for n = 0, the SE NaN for n < 2. Returns (mean, se) as arrays.
    """
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    safe_n = np.where(n > 1, n, 2.0)
    mean = np.where(n > 0, total / np.where(n > 0, n, 1.0), np.nan)
    var = np.maximum(total_sq - safe_n * np.where(n > 1, mean, 0.0) ** 2, 0.0) / (safe_n - 1.0)
    return mean, np.where(n > 1, np.sqrt(var / safe_n), np.nan)


def mean_ci(total, total_sq, n, z=None, *, lower=None, upper=None, min_n=MIN_MEAN_N):
    """Mean and 95% interval from sufficient statistics.

    ``total`` = sum of x, ``total_sq`` = sum of x**2. The interval is
    mean +/- t(0.975, n-1) SE (``z`` given: +/- z SE), clipped to
    ``[lower, upper]`` where the values cannot leave that range; below
    ``min_n`` values it is NaN (no interval). Returns (mean, low, high).
    """
    mean, se = mean_se(total, total_sq, n)
    n = np.asarray(n, dtype=float)
    se = np.where(n >= min_n, se, np.nan)
    q = t975(np.maximum(n, 2.0) - 1.0) if z is None else z
    low, high = mean - q * se, mean + q * se
    if lower is not None:
        low = np.where(np.isnan(low), low, np.maximum(low, lower))
    if upper is not None:
        high = np.where(np.isnan(high), high, np.minimum(high, upper))
    if mean.ndim == 0:
        return float(mean), float(low), float(high)
    return mean, low, high
