"""Confidence intervals for proportions and means."""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["wilson", "wilson_half_width", "z_value", "mean_interval", "quantile_interval_ranks"]


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile for ``confidence`` (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes, n : int
        Successes out of ``n`` trials (``n`` >= 1).
    confidence : float
        Coverage, 0.95 by default.

    Returns
    -------
    (low, high) : tuple of float
        ``0 <= low <= successes / n <= high <= 1`` exactly: at a proportion of 0 or 1 the
        formula's rounding can put an end a few ulps past the estimate (``low = 3e-17`` at
        0), which would make an error bar's lengths negative; the ends are clamped here, where
        the interval is made, so every table and plot downstream can trust them.
    """
    if n <= 0:
        return (0.0, 1.0)
    z = z_value(confidence)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = min(max(0.0, centre - half), p)
    high = max(min(1.0, centre + half), p)
    if successes <= 0:
        low = 0.0
    if successes >= n:
        high = 1.0
    return (float(low), float(high))


def mean_interval(mean: float, sd: float, n: int, confidence: float = 0.95):
    """Normal-approximation interval for a mean: ``mean +- z * sd / sqrt(n)``."""
    if n <= 1:
        return (float("nan"), float("nan"))
    half = z_value(confidence) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def quantile_interval_ranks(n: int, q: float, confidence: float = 0.95) -> tuple[int, int]:
    """1-based ranks ``(l, u)`` of order statistics bracketing the ``q`` quantile.

    The distribution-free interval ``[x_(l), x_(u)]`` covers the true quantile with probability
    about ``confidence`` (normal approximation to the binomial count below the quantile).
    """
    z = z_value(confidence)
    half = z * math.sqrt(n * q * (1 - q))
    lo = max(1, math.floor(n * q - half))
    hi = min(n, math.ceil(n * q + half) + 1)
    return lo, hi


def wilson_half_width(successes: int, n: int, confidence: float = 0.95) -> float:
    """Half the width of the Wilson interval (what ``--precision`` bounds)."""
    lo, hi = wilson(successes, n, confidence)
    return (hi - lo) / 2.0
