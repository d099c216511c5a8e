"""The benchmark baselines (``benchmarks/baselines.py``) play the benchmark duel correctly.

A baseline that got the rules wrong would make the speed comparison meaningless, so each is
checked against the exact answer within 4 standard errors on a small run, with a negative
control (B shooting first) that the same check must reject.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from conftest import ROOT

from fuzion_sim.systems.fuzion.exact import Fighter, duel


def _load_baselines():
    spec = importlib.util.spec_from_file_location(
        "fuzion_bench_baselines", ROOT / "benchmarks" / "baselines.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while building classes
    spec.loader.exec_module(module)
    return module


bl = _load_baselines()

CASES = [("hero", "both"), ("interlock", "attacker")]
RUNS = {"python": (bl.duel_python, 20_000), "numpy": (bl.duel_numpy, 200_000)}


def within(tally, p: float, k: float = 4.0) -> bool:
    return abs(tally.p_a - p) <= k * tally.se_a(p)


def test_exact_constants_match_oracle():
    side = bl.DUEL
    f = Fighter(av=side.av, dv_base=side.dv_base, dc=side.dc, pd=side.pd, hits=side.hits)
    for (dice, crit), (p, mean) in bl.EXACT.items():
        res = duel(f, f, dice=dice, criticals=crit)
        assert res.p_a_wins == pytest.approx(p, abs=1e-6)
        assert res.mean == pytest.approx(mean, abs=1e-6)


@pytest.mark.parametrize("impl", sorted(RUNS))
@pytest.mark.parametrize(("dice", "crit"), CASES)
def test_baseline_matches_exact(impl, dice, crit):
    fn, n = RUNS[impl]
    p, mean = bl.EXACT[(dice, crit)]
    tally = fn(n, seed=2, dice=dice, criticals=crit)
    assert tally.trials == n
    assert tally.a_wins + tally.b_wins == n  # nobody survives 200 phases
    assert within(tally, p)
    # mean deciding phase within 4 SE (sd of the deciding phase is about 1.0 to 1.4)
    assert abs(tally.mean_phases - mean) <= 4 * 1.5 / n**0.5


@pytest.mark.parametrize("impl", sorted(RUNS))
def test_negative_control(impl):
    """A duel one point of AV off the benchmark must fail the same check."""
    fn, n = RUNS[impl]
    weaker = bl.DuelSide(av=10)  # A hits less often: P(A wins) well below 0.604623
    tally = fn(n, seed=2, dice="hero", criticals="both", a=weaker, b=bl.DUEL)
    assert not within(tally, 0.604623)
    f = Fighter(av=10, dv_base=9, dc=4, pd=6, hits=30)
    g = Fighter(av=11, dv_base=9, dc=4, pd=6, hits=30)
    assert within(tally, duel(f, g, dice="hero", criticals="both").p_a_wins)


def test_baselines_reject_bad_rules():
    with pytest.raises(ValueError, match="dice"):
        bl.duel_python(1, dice="fudge")
    with pytest.raises(ValueError, match="criticals"):
        bl.duel_numpy(1, criticals="sometimes")
