"""Shared helpers of the FUDGE tests: scenario paths, inline scenarios, exact pmfs, chi-square."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import numpy as np
from scipy import stats

from fuzion_sim.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios" / "fudge"
ISSUE_EXAMPLE = SCENARIOS / "two-fair-shooters.yaml"


def one_shot(shooter: dict | None = None, target: dict | None = None, rules=None,
             distance: float = 8) -> dict:  # fmt: skip
    """A scenario in which each trial is one shot of ``Shooter`` at an unarmed ``Target``
    (max_rounds 1)."""
    a = {"name": "Shooter", "skill": "Fair", "weapon": {"name": "Blaster", "bd": 4},
         "distance": distance, **(shooter or {})}  # fmt: skip
    t = {"name": "Target", **(target or {})}
    a, t = _given(a), _given(t)
    return {"name": "one shot", "system": "fudge", "seed": 1, "max_rounds": 1,
            "rules": dict(rules or {}), "sides": {"a": [a], "t": [t]}}  # fmt: skip


def _given(member: dict) -> dict:
    """A member without the keys a change set to None (None: leave the key out)."""
    return {key: value for key, value in member.items() if value is not None}


def duel(rules=None, **members) -> dict:
    """The worked example's two Fair shooters at 8 m, with rule and member changes
    (``vaclav={"skill": "Good"}``)."""
    data = {
        "name": "duel", "system": "fudge", "seed": 11, "rules": dict(rules or {}),
        "sides": {
            "vaclav": [_given({"name": "Vaclav", "skill": "Fair",
                               "weapon": {"name": "Blaster", "bd": 4}, "distance": 8,
                               "initiative": 1, **members.get("vaclav", {})})],
            "alien": [_given({"name": "Alien", "skill": "Fair",
                              "weapon": {"name": "Blaster", "bd": 4}, "distance": 8,
                              **members.get("alien", {})})],
        },
    }  # fmt: skip
    return data


def build(data: dict):
    return scenario_from_dict(copy.deepcopy(data))


def chi_square_p(counts: dict, probs: dict) -> float:
    """The chi-square test's p-value of observed ``counts`` against the pmf ``probs`` (bins
    with an expectation under 5 pooled into one)."""
    keys = sorted(set(counts) | set(probs), key=str)
    n = sum(counts.values())
    obs = np.array([counts.get(k, 0) for k in keys], float)
    exp = np.array([float(probs.get(k, 0)) * n for k in keys])
    if (exp[obs > 0] == 0).any():
        return 0.0
    small = exp < 5
    if small.any():
        obs = np.append(obs[~small], obs[small].sum())
        exp = np.append(exp[~small], exp[small].sum())
        if exp[-1] == 0:
            obs, exp = obs[:-1], exp[:-1]
    if len(obs) == 1:  # one outcome only: nothing else was seen
        return 1.0
    exp *= obs.sum() / exp.sum()
    return float(stats.chisquare(obs, exp).pvalue)


def within_se(p_hat: float, p: float, n: int, k: float = 4.0) -> bool:
    se = (max(p * (1 - p), 1e-12) / n) ** 0.5
    return abs(p_hat - p) <= k * se


def fractions_of(d: dict) -> dict:
    return {k: Fraction(v).limit_denominator(10**9) for k, v in d.items()}
