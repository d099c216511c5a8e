"""4dF (RULINGS U1): the exact pmf, the sampling tables the kernels use, the sampler against
the pmf (chi-square, with a negative control), and the ladder (UA17, UA30)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from fudge_helpers import chi_square_p

from fuzion_sim.systems.fudge import dice


def test_the_pmf_is_the_rulings():
    assert dice.COUNTS == (1, 4, 10, 16, 19, 16, 10, 4, 1)
    brute = Counter(sum(d) for d in product((-1, 0, 1), repeat=4))
    assert dice.pmf() == {r: Fraction(brute[r], 81) for r in range(-4, 5)}
    assert sum(dice.pmf().values()) == 1
    assert list(dice.ROLL81) == sorted(sum(d) for d in product((-1, 0, 1), repeat=4))


def test_the_index_tables():
    assert [dice.roll_of_index(i) for i in range(81)] == list(dice.ROLL81)
    pairs = Counter()
    for bits in np.linspace(0, 2**32 - 1, 6561 * 5).astype(np.uint64):
        _, a, b = dice.two_rolls(np.uint64(bits))
        pairs[(a, b)] += 1
    want = {(a, b): dice.pmf()[a] * dice.pmf()[b] for a in range(-4, 5) for b in range(-4, 5)}
    assert chi_square_p(dict(pairs), want) > 0.99  # evenly spread bits: nearly exact


def test_the_sampler_follows_the_pmf_and_a_wrong_pmf_fails():
    rolls = dice.sample(200_000, seed=3)
    counts = {int(k): int(v) for k, v in zip(*np.unique(rolls, return_counts=True),
                                             strict=True)}  # fmt: skip
    assert chi_square_p(counts, dice.pmf()) > 1e-3
    se = (np.var(rolls) / rolls.size) ** 0.5
    assert abs(rolls.mean()) < 4 * se
    wrong = {r: Fraction(1, 9) for r in range(-4, 5)}  # nine equal faces: must fail
    assert chi_square_p(counts, wrong) < 1e-9
    assert np.array_equal(dice.sample(1000, seed=3), rolls[:1000])


@pytest.mark.parametrize(("level", "p"), [(1, Fraction(31, 81)), (-1, Fraction(66, 81)),
                                           (0, Fraction(50, 81)), (5, 0), (-4, 1)])
def test_situational_rolls(level, p):
    assert dice.at_least(level) == p


def test_the_ladder():
    assert dice.LADDER == {"Legendary": 4, "Superb": 3, "Great": 2, "Good": 1, "Fair": 0,
                           "Mediocre": -1, "Poor": -2, "Terrible": -3}  # fmt: skip
    assert [dice.ladder_name(v) for v in (-5, -3, 0, 4, 6)] == [
        "Terrible-2", "Terrible", "Fair", "Legendary", "Legendary+2"]
    assert dice.level_of(" superb ") == 3 and dice.level_of("Goood") is None
