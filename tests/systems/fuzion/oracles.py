"""Shared test oracles: the physical dice rolled by brute force, and statistical checks.

Every exact distribution in fuzion_sim is tested against these enumerations of the actual dice
(3d6 and the two critical d6 under HERO; the attacker's and defender's d10 and their critical
dice under Interlock); every simulated figure against a tolerance of 4 standard errors or a
chi-square test.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np
from scipy import stats

D6 = range(1, 7)


def hero_natural(t, crit: bool) -> int:
    """3d6 ``t[0..2]`` with the critical dice ``t[3..4]`` (F3): 18 adds, all ones subtract."""
    s = t[0] + t[1] + t[2]
    if crit and s == 18:
        return s + t[3] + t[4]
    if crit and s == 3:
        return s - t[3] - t[4]
    return s


def d10_natural(first: int, extra: int, crit: bool) -> int:
    """1d10 with its critical die (F3): 10 adds it, 1 subtracts it."""
    if crit and first == 10:
        return first + extra
    if crit and first == 1:
        return first - extra
    return first


@cache
def brute_rolls(dice_name: str, criticals: str) -> Counter:
    """Counter of (attacker roll, defender roll) over every elementary outcome."""
    if dice_name == "hero":
        return Counter(
            (hero_natural(t, criticals != "none"), 10) for t in itertools.product(D6, repeat=5)
        )
    return Counter(
        (d10_natural(a, x, criticals != "none"), d10_natural(d, y, criticals == "both"))
        for a, x, d, y in itertools.product(range(1, 11), repeat=4)
    )


def agrees(estimate: float, exact: float, se: float, k: float = 4.0) -> bool:
    """``estimate`` within ``k`` standard errors of ``exact``."""
    return abs(estimate - exact) <= k * se


def chi2_p(counts: np.ndarray, probs: np.ndarray, min_expected: float = 5.0) -> float:
    """Chi-square p-value of observed counts against probabilities (cells merged to >= 5)."""
    n = counts.sum()
    obs, exp, o, e = [], [], 0.0, 0.0
    for c, p in zip(counts, probs, strict=True):
        o, e = o + c, e + p * n
        if e >= min_expected:
            obs.append(o)
            exp.append(e)
            o = e = 0.0
    obs[-1] += o
    exp[-1] += e
    exp = np.array(exp) * n / np.sum(exp)
    return float(stats.chisquare(obs, exp).pvalue)
