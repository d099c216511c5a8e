"""Dice pmfs, sampling tables and samplers against brute-force enumeration of the actual dice."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from fuzion_sim._jit import jit
from fuzion_sim.systems.fuzion import dice
from fuzion_sim.systems.fuzion.dice import Pmf

COMBOS = [(d, c) for d in ("hero", "interlock") for c in ("both", "attacker", "none")]
SEED = 20240611


# --------------------------------------------------------------------------------------------
# Brute force: enumerate the physical dice
# --------------------------------------------------------------------------------------------


def brute_nd6(n: int) -> Counter:
    return Counter(sum(t) for t in itertools.product(range(1, 7), repeat=n))


def _hero(natural3, extra2, crit: bool) -> int:
    s = sum(natural3)
    if crit and s == 18:
        return s + sum(extra2)
    if crit and s == 3:
        return s - sum(extra2)
    return s


def _d10(first, extra, crit: bool) -> int:
    if crit and first == 10:
        return first + extra
    if crit and first == 1:
        return first - extra
    return first


def brute_hero(crit: bool) -> Counter:
    return Counter(_hero(t[:3], t[3:], crit) for t in itertools.product(range(1, 7), repeat=5))


def brute_d10(crit: bool) -> Counter:
    return Counter(_d10(a, b, crit) for a, b in itertools.product(range(1, 11), repeat=2))


def brute_difference(dice_name: str, criticals: str) -> Counter:
    """Counts of D over every elementary outcome (6**5 or 10**4)."""
    if dice_name == "hero":
        return Counter(
            _hero(t[:3], t[3:], criticals != "none") - 10
            for t in itertools.product(range(1, 7), repeat=5)
        )
    return Counter(
        _d10(a, x, criticals != "none") - _d10(d, y, criticals == "both")
        for a, x, d, y in itertools.product(range(1, 11), repeat=4)
    )


def assert_pmf_matches(pmf: Pmf, counts: Counter) -> None:
    total = sum(counts.values())
    keys = sorted(k for k, v in counts.items() if v)
    assert pmf.values.dtype == np.int64
    assert pmf.probs.dtype == np.float64
    assert pmf.values.tolist() == keys
    expected = np.array([counts[k] / total for k in keys])
    np.testing.assert_allclose(pmf.probs, expected, rtol=1e-14, atol=0)
    assert math.fsum(pmf.probs) == pytest.approx(1.0, abs=1e-14)
    exact_mean = Fraction(sum(k * v for k, v in counts.items()), total)
    assert pmf.mean == pytest.approx(float(exact_mean), abs=1e-12)


# --------------------------------------------------------------------------------------------
# Exact pmfs
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(6))
def test_nd6_matches_enumeration(n):
    assert_pmf_matches(dice.nd6(n), brute_nd6(n))


@pytest.mark.parametrize("crit", [True, False])
def test_hero_roll_matches_enumeration(crit):
    pmf = dice.hero_roll(crit)
    assert_pmf_matches(pmf, brute_hero(crit))
    assert (pmf.min, pmf.max) == ((-9, 30) if crit else (3, 18))


@pytest.mark.parametrize("crit", [True, False])
def test_interlock_roll_matches_enumeration(crit):
    pmf = dice.interlock_roll(crit)
    assert_pmf_matches(pmf, brute_d10(crit))
    assert (pmf.min, pmf.max) == ((-9, 20) if crit else (1, 10))


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_attack_roll_difference_matches_enumeration(dice_name, criticals):
    assert_pmf_matches(
        dice.attack_roll_difference(dice_name, criticals), brute_difference(dice_name, criticals)
    )


def test_hero_criticals_both_equals_attacker():
    a = dice.attack_roll_difference("hero", "both")
    b = dice.attack_roll_difference("hero", "attacker")
    assert a.values.tolist() == b.values.tolist()
    assert a.probs.tolist() == b.probs.tolist()


def test_bad_options_raise():
    with pytest.raises(ValueError):
        dice.attack_roll_difference("d20", "both")
    with pytest.raises(ValueError):
        dice.roll_table("hero", "sometimes")
    with pytest.raises(ValueError):
        dice.nd6(-1)


def test_pmf_methods():
    pmf = dice.nd6(2)
    assert pmf.sf(-100) == 1.0
    assert pmf.sf(2) == 1.0
    assert pmf.sf(12) == pytest.approx(1 / 36)
    assert pmf.sf(13) == 0.0
    assert pmf.sf(7) == pytest.approx(21 / 36)
    assert pmf.cdf(1) == 0.0
    assert pmf.cdf(7) == pytest.approx(21 / 36)
    assert pmf.cdf(12) == 1.0
    assert pmf.cdf(99) == 1.0
    assert pmf.prob(7) == pytest.approx(6 / 36)
    assert pmf.prob(13) == 0.0
    assert pmf.mean == pytest.approx(7.0, abs=1e-14)
    assert pmf.sd == pytest.approx(math.sqrt(35 / 6), abs=1e-14)
    d = pmf.to_dict()
    assert list(d) == [str(v) for v in range(2, 13)]
    assert all(type(p) is float for p in d.values())
    assert dice.nd6(0).to_dict() == {"0": 1.0}
    back = Pmf.from_dict(d)
    assert back.values.tolist() == pmf.values.tolist()


# --------------------------------------------------------------------------------------------
# Sampling tables
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_roll_table_exact_counts(dice_name, criticals):
    table = dice.roll_table(dice_name, criticals)
    assert table.dtype == np.int8
    assert len(table) == (6**5 if dice_name == "hero" else 10**4)
    assert np.all(np.diff(table) >= 0)
    values, counts = np.unique(table, return_counts=True)
    brute = brute_difference(dice_name, criticals)
    assert dict(zip(values.tolist(), counts.tolist(), strict=True)) == dict(brute)
    pmf = dice.attack_roll_difference(dice_name, criticals)
    assert values.tolist() == pmf.values.tolist()
    # Same rational, correctly rounded both ways: bit-identical.
    assert (counts / len(table)).tolist() == pmf.probs.tolist()


def test_nd6_tables_exact_counts():
    offsets, table = dice.nd6_tables()
    assert offsets.dtype == np.int64 and table.dtype == np.int8
    assert np.diff(offsets).tolist() == [6**n for n in range(dice.TABLE_DICE + 1)]
    for n in range(dice.TABLE_DICE + 1):
        part = table[offsets[n] : offsets[n + 1]]
        assert np.all(np.diff(part) >= 0)
        values, counts = np.unique(part, return_counts=True)
        pmf = dice.nd6(n)
        assert values.tolist() == pmf.values.tolist()
        assert (counts / len(part)).tolist() == pmf.probs.tolist()


# --------------------------------------------------------------------------------------------
# Samplers: chi-square goodness of fit
# --------------------------------------------------------------------------------------------


def chi2_pvalue(samples: np.ndarray, pmf: Pmf, min_expected: float = 5.0) -> float:
    """Chi-square p-value of samples against a pmf; adjacent cells merged to expected >= 5.

    A sample outside the pmf's support is impossible under it and gives p = 0.
    """
    samples = np.asarray(samples)
    if not np.isin(samples, pmf.values).all():
        return 0.0
    n = samples.size
    observed = np.array([np.count_nonzero(samples == v) for v in pmf.values], dtype=float)
    expected = pmf.probs * n
    obs_cells, exp_cells = [], []
    o_acc = e_acc = 0.0
    for o, e in zip(observed, expected, strict=True):
        o_acc += o
        e_acc += e
        if e_acc >= min_expected:
            obs_cells.append(o_acc)
            exp_cells.append(e_acc)
            o_acc = e_acc = 0.0
    if e_acc > 0 or o_acc > 0:
        obs_cells[-1] += o_acc
        exp_cells[-1] += e_acc
    if len(exp_cells) < 2:
        return 1.0
    exp_cells = np.array(exp_cells)
    exp_cells *= n / exp_cells.sum()
    return float(stats.chisquare(obs_cells, exp_cells).pvalue)


def rng(offset: int = 0) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(SEED + offset))


@jit
def draw_many_table(us, table):
    out = np.empty(us.shape[0], dtype=np.int64)
    for j in range(us.shape[0]):
        out[j] = dice.draw_table(us[j], table)
    return out


@jit
def draw_many_nd6(us, n, offsets, table):
    out = np.empty(us.shape[0], dtype=np.int64)
    for j in range(us.shape[0]):
        out[j] = dice.draw_nd6(us[j], n, offsets, table)
    return out


def draw_many_nd6_grouped(generator, n, size):
    """The kernel's scheme for any n: groups of five from the 5d6 table, then the rest."""
    offsets, table = dice.nd6_tables()
    total = np.zeros(size, dtype=np.int64)
    for _ in range(n // dice.TABLE_DICE):
        total += draw_many_nd6(generator.random(size), dice.TABLE_DICE, offsets, table)
    return total + draw_many_nd6(generator.random(size), n % dice.TABLE_DICE, offsets, table)


N = 100_000


@pytest.mark.parametrize("n", [0, 1, 3, 4, 10])
def test_sample_nd6_reference(n):
    samples = dice.sample_nd6(rng(n), n, N)
    assert samples.shape == (N,)
    assert chi2_pvalue(samples, dice.nd6(n)) > 1e-3


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_sample_roll_difference_reference(dice_name, criticals):
    samples = dice.sample_roll_difference(rng(7), dice_name, criticals, N)
    assert chi2_pvalue(samples, dice.attack_roll_difference(dice_name, criticals)) > 1e-3


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_draw_table(dice_name, criticals):
    table = dice.roll_table(dice_name, criticals)
    samples = draw_many_table(rng(11).random(N), table)
    assert chi2_pvalue(samples, dice.attack_roll_difference(dice_name, criticals)) > 1e-3


@pytest.mark.parametrize("n", [0, 1, 2, 4, 5, 7, 15])
def test_draw_nd6(n):
    samples = draw_many_nd6_grouped(rng(13 + n), n, N)
    assert chi2_pvalue(samples, dice.nd6(n)) > 1e-3


def test_draws_at_the_ends_of_the_unit_interval():
    below_one = np.nextafter(1.0, 0.0)
    table = dice.roll_table("interlock", "both")
    assert dice.draw_table(0.0, table) == table[0]
    assert dice.draw_table(below_one, table) == table[-1]
    offsets, table = dice.nd6_tables()
    for n in range(dice.TABLE_DICE + 1):
        assert dice.draw_nd6(0.0, n, offsets, table) == n
        assert dice.draw_nd6(below_one, n, offsets, table) == 6 * n


def test_negative_control_interlock_defender_criticals():
    """The 'attacker' table tested against the 'both' pmf must be rejected."""
    table = dice.roll_table("interlock", "attacker")
    samples = draw_many_table(rng(17).random(N), table)
    assert chi2_pvalue(samples, dice.attack_roll_difference("interlock", "both")) < 1e-6


def test_negative_control_off_by_one_damage():
    """A 4d6 table with 13 of its 1296 outcomes (1%) one pip high must be rejected."""
    offsets, table = dice.nd6_tables()
    bad = table.copy()
    bad[offsets[4] + 640 : offsets[4] + 653] += 1
    samples = draw_many_nd6(rng(19).random(4 * N), 4, offsets, bad)
    assert chi2_pvalue(samples, dice.nd6(4)) < 1e-6
