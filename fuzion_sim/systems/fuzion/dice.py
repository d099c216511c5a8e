"""Exact dice distributions and one-uniform samplers for Fuzion (RULINGS F1-F3, F19).

Every distribution is built by exact convolution of integer outcome counts (Python ints, so
no overflow however many dice), and each probability is one correctly rounded division
``count / total``. The same counts give the sampling tables of the numba kernel:

* :func:`roll_table` lists the attack-roll difference ``D`` of every equally likely
  elementary outcome, sorted, so ``table[int(u * len(table))]`` is an exact draw;
* :func:`nd6_tables` does the same for the sum of up to five d6 (:func:`draw_nd6`); the kernels
  draw more dice in groups of five, one generator step a group, and index the tables with 32
  random bits (``engine.rng.split_bits`` and ``index32``).

Table look-ups rather than alias or inverse-CDF searches keep the kernel free of
data-dependent branches, which cost more than the random numbers (PERFORMANCE-NOTES).

The attack-roll difference is ``D = attacker roll - defender roll``; under HERO the defender's
"roll" is the constant 10. An attack hits iff ``D >= dv_base - av`` (RULINGS F1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from fuzion_sim._jit import INNER, jit
from fuzion_sim.engine.rng import xoshiro

__all__ = [
    "CRITICALS",
    "DICE",
    "HERO_DEFENCE",
    "Pmf",
    "attack_roll_difference",
    "draw_nd6",
    "draw_table",
    "hero_roll",
    "interlock_roll",
    "nd6",
    "nd6_tables",
    "roll_table",
    "task_table",
    "defence_table",
    "sample_nd6",
    "sample_roll_difference",
]

#: Dice options (RULINGS F2).
DICE = ("hero", "interlock")
#: Critical-roll options (RULINGS F3).
CRITICALS = ("both", "attacker", "none")
#: The defender's flat addition under the HERO option.
HERO_DEFENCE = 10


# --------------------------------------------------------------------------------------------
# The Pmf type
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Pmf:
    """An exact probability mass function over integers.

    Parameters
    ----------
    values : numpy.ndarray of int64
        The support, strictly increasing; values of probability zero are not listed.
    probs : numpy.ndarray of float64
        ``probs[i] = P(X = values[i])``.

    Notes
    -----
    ``mean`` and ``sd`` are taken relative to the total mass, so for a pmf that sums to 1 they
    are the usual moments and for a sub-distribution they are conditional moments.
    """

    values: np.ndarray
    probs: np.ndarray

    @classmethod
    def from_counts(cls, lo: int, counts) -> Pmf:
        """Build a Pmf from integer outcome counts over ``lo, lo + 1, ...``.

        Parameters
        ----------
        lo : int
            The value of ``counts[0]``.
        counts : sequence of int
            Number of equally likely outcomes for each value; zeros are dropped.

        Returns
        -------
        Pmf
            Each probability is ``count / sum(counts)``, correctly rounded.
        """
        counts = [int(c) for c in counts]
        total = sum(counts)
        if total <= 0:
            raise ValueError("counts must have a positive total")
        pairs = [(lo + i, c) for i, c in enumerate(counts) if c]
        values = np.array([v for v, _ in pairs], dtype=np.int64)
        probs = np.array([c / total for _, c in pairs], dtype=np.float64)
        return cls(values, probs)

    @classmethod
    def from_dict(cls, mapping) -> Pmf:
        """Build a Pmf from ``{value: probability}`` (zero probabilities are dropped).

        Parameters
        ----------
        mapping : dict
            Integer (or integer-string) keys, float probabilities.

        Returns
        -------
        Pmf
        """
        items = sorted((int(k), float(p)) for k, p in mapping.items() if p)
        return cls(
            np.array([k for k, _ in items], dtype=np.int64),
            np.array([p for _, p in items], dtype=np.float64),
        )

    @property
    def mean(self) -> float:
        """Expected value."""
        if self.values.size == 0:
            return math.nan
        return math.fsum(self.values.astype(np.float64) * self.probs) / math.fsum(self.probs)

    @property
    def sd(self) -> float:
        """Standard deviation."""
        if self.values.size == 0:
            return math.nan
        m = self.mean
        dev = self.values.astype(np.float64) - m
        return math.sqrt(math.fsum(dev * dev * self.probs) / math.fsum(self.probs))

    @property
    def min(self) -> int:
        """Smallest value of positive probability."""
        return int(self.values[0])

    @property
    def max(self) -> int:
        """Largest value of positive probability."""
        return int(self.values[-1])

    def prob(self, x: int) -> float:
        """``P(X = x)`` (0 outside the support)."""
        i = int(np.searchsorted(self.values, x))
        if i < self.values.size and self.values[i] == x:
            return float(self.probs[i])
        return 0.0

    def cdf(self, x: int) -> float:
        """``P(X <= x)``; 0 below the support, 1 above it."""
        i = int(np.searchsorted(self.values, x, side="right"))
        if i >= self.values.size:
            return 1.0
        return float(self.probs[:i].sum())

    def sf(self, x: int) -> float:
        """``P(X >= x)``; 1 below the support, 0 above it (summed from the tail, no 1 - cdf)."""
        i = int(np.searchsorted(self.values, x, side="left"))
        if i <= 0:
            return 1.0
        return float(self.probs[i:].sum())

    def to_dict(self) -> dict[str, float]:
        """``{str(value): probability}`` in increasing order of value, plain floats."""
        return {str(int(v)): float(p) for v, p in zip(self.values, self.probs, strict=True)}

    def __len__(self) -> int:
        return int(self.values.size)

    def __repr__(self) -> str:
        return f"Pmf(n={self.values.size}, mean={self.mean:.6g}, sd={self.sd:.6g})"


# --------------------------------------------------------------------------------------------
# Exact integer counts: (lo, counts) means counts[i] outcomes give value lo + i
# --------------------------------------------------------------------------------------------


def _conv(a: tuple[int, tuple[int, ...]], b: tuple[int, tuple[int, ...]]):
    """Counts of the sum of two independent count-distributions."""
    (alo, ac), (blo, bc) = a, b
    out = [0] * (len(ac) + len(bc) - 1)
    for i, x in enumerate(ac):
        if x:
            for j, y in enumerate(bc):
                out[i + j] += x * y
    return alo + blo, tuple(out)


def _neg(a):
    """Counts of the negation."""
    lo, c = a
    return -(lo + len(c) - 1), tuple(reversed(c))


def _mix(parts):
    """Counts of the union of disjoint outcome sets, each ``(lo, counts)``."""
    lo = min(p[0] for p in parts)
    hi = max(p[0] + len(p[1]) - 1 for p in parts)
    out = [0] * (hi - lo + 1)
    for plo, pc in parts:
        for i, x in enumerate(pc):
            out[plo - lo + i] += x
    return lo, tuple(out)


def _scale(a, k: int):
    lo, c = a
    return lo, tuple(k * x for x in c)


_D6 = (1, (1,) * 6)
_D10 = (1, (1,) * 10)


@cache
def _nd6_counts(n: int):
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, got {n}")
    if n == 0:
        return 0, (1,)
    return _conv(_nd6_counts(n - 1), _D6)


@cache
def _hero_counts(criticals: bool):
    """Counts of the attacker's HERO roll over the 6**5 outcomes (3d6 and two critical d6)."""
    lo3, c3 = _nd6_counts(3)
    if not criticals:
        return _scale((lo3, c3), 36)
    two = _nd6_counts(2)
    plain = (lo3 + 1, tuple(c * 36 for c in c3[1:-1]))  # 4..17, each with any 2 extra dice
    high = _conv((18, (1,)), two)  # natural 18 + 2d6
    low = _conv((3, (1,)), _neg(two))  # natural 3 - 2d6
    return _mix([plain, high, low])


@cache
def _interlock_counts(criticals: bool):
    """Counts of one Interlock d10 roll over the 10**2 outcomes (d10 and its critical die)."""
    if not criticals:
        return _scale(_D10, 10)
    plain = (2, (10,) * 8)  # 2..9, each with any extra die
    high = _conv((10, (1,)), _D10)  # 10 + d10
    low = _conv((1, (1,)), _neg(_D10))  # 1 - d10
    return _mix([plain, high, low])


def _check(dice: str, criticals: str) -> None:
    if dice not in DICE:
        raise ValueError(f"dice must be one of {DICE}, got {dice!r}")
    if criticals not in CRITICALS:
        raise ValueError(f"criticals must be one of {CRITICALS}, got {criticals!r}")


@cache
def _difference_counts(dice: str, criticals: str):
    """Counts of D over all elementary outcomes (6**5 for HERO, 10**4 for Interlock)."""
    _check(dice, criticals)
    if dice == "hero":
        lo, c = _hero_counts(criticals != "none")
        return lo - HERO_DEFENCE, c
    att = _interlock_counts(criticals != "none")
    dfn = _interlock_counts(criticals == "both")
    return _conv(att, _neg(dfn))


# --------------------------------------------------------------------------------------------
# Public pmfs
# --------------------------------------------------------------------------------------------


def nd6(n: int) -> Pmf:
    """Exact pmf of the sum of ``n`` d6 (``n = 0`` gives the point mass at 0).

    Parameters
    ----------
    n : int
        Number of dice (the damage class, RULINGS F19), ``n >= 0``.

    Returns
    -------
    Pmf
        Over ``n .. 6n``.
    """
    return Pmf.from_counts(*_nd6_counts(int(n)))


def hero_roll(criticals: bool) -> Pmf:
    """Exact pmf of the attacker's HERO roll: 3d6, with criticals a natural 18 adds 2d6 and
    a natural 3 subtracts 2d6 (RULINGS F3).

    Parameters
    ----------
    criticals : bool
        Whether the critical rule applies to this roll.

    Returns
    -------
    Pmf
        Over 3..18 without criticals, -9..30 with them.
    """
    return Pmf.from_counts(*_hero_counts(bool(criticals)))


def interlock_roll(criticals: bool) -> Pmf:
    """Exact pmf of one Interlock 1d10 roll: with criticals a natural 10 adds another d10 and
    a natural 1 subtracts another d10; the extra die never chains (RULINGS F3).

    Parameters
    ----------
    criticals : bool
        Whether the critical rule applies to this roll.

    Returns
    -------
    Pmf
        Over 1..10 without criticals, -9..20 with them.
    """
    return Pmf.from_counts(*_interlock_counts(bool(criticals)))


def attack_roll_difference(dice: str = "hero", criticals: str = "both") -> Pmf:
    """Exact pmf of ``D = attacker roll - defender roll`` (the constant 10 under HERO).

    The attack hits iff ``D >= dv_base - av`` (RULINGS F1).

    Parameters
    ----------
    dice : {'hero', 'interlock'}
        The dice option (RULINGS F2).
    criticals : {'both', 'attacker', 'none'}
        Which task rolls use the critical rule (RULINGS F3); ``'both'`` includes the
        Interlock defender's d10. Under HERO ``'both'`` and ``'attacker'`` coincide.

    Returns
    -------
    Pmf
    """
    return Pmf.from_counts(*_difference_counts(dice, criticals))


# --------------------------------------------------------------------------------------------
# Sampling tables
# --------------------------------------------------------------------------------------------


def roll_table(dice: str = "hero", criticals: str = "both") -> np.ndarray:
    """The sorted multiset of ``D`` over all equally likely elementary outcomes.

    HERO: the 6**5 = 7776 outcomes of 3d6 and the two critical d6 (read only on a natural 18
    or a natural 3). Interlock: the 10**4 outcomes of the attacker's d10 and its critical die
    and the defender's d10 and its critical die. An exact draw is
    ``table[int(u * len(table))]`` for ``u`` uniform on [0, 1) (see :func:`draw_table`).

    Parameters
    ----------
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}

    Returns
    -------
    numpy.ndarray of int8
        Non-decreasing, length 7776 (HERO) or 10000 (Interlock).
    """
    lo, counts = _difference_counts(dice, criticals)
    values = np.arange(lo, lo + len(counts), dtype=np.int8)
    return np.repeat(values, np.asarray(counts, dtype=np.int64))


def task_table(dice: str = "hero", criticals: str = "both") -> np.ndarray:
    """The acting roll alone (an unopposed task, F4), over equally likely outcomes, sorted.

    HERO: 3d6 and the two critical d6 (7776 outcomes); Interlock: 1d10 and its critical d10
    (100). Criticals apply unless ``criticals`` is ``"none"``. A draw is
    ``table[int(u * len(table))]``.
    """
    pmf = hero_roll(criticals != "none") if dice == "hero" else interlock_roll(criticals != "none")
    total = 6**5 if dice == "hero" else 10**2
    counts = np.rint(pmf.probs * total).astype(np.int64)
    return np.repeat(pmf.values.astype(np.int8), counts)


def defence_table(dice: str = "hero", criticals: str = "both") -> np.ndarray:
    """The defender's roll over equally likely outcomes: the flat 10 under HERO; under
    Interlock 1d10 and its critical die (criticals only with ``criticals="both"``)."""
    if dice == "hero":
        return np.array([HERO_DEFENCE], dtype=np.int8)
    pmf = interlock_roll(criticals == "both")
    counts = np.rint(pmf.probs * 100).astype(np.int64)
    return np.repeat(pmf.values.astype(np.int8), counts)


#: Largest number of dice with its own equally-likely-outcomes table (6**5 = 7776 entries).
TABLE_DICE = 5


def nd6_tables() -> tuple[np.ndarray, np.ndarray]:
    """Equally-likely-outcome tables for the sum of ``n`` d6, ``n = 0 .. TABLE_DICE``.

    The table for ``n`` is the sorted multiset of the sums of all ``6**n`` outcomes and occupies
    ``table[offsets[n] : offsets[n + 1]]``; ``table[offsets[n] + int(u * 6**n)]`` is an exact
    draw. More dice are drawn as groups of five plus the rest (:func:`draw_nd6`).

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (TABLE_DICE + 2,)
    table : numpy.ndarray of int8
    """
    offsets = np.zeros(TABLE_DICE + 2, dtype=np.int64)
    parts = []
    for n in range(TABLE_DICE + 1):
        lo, counts = _nd6_counts(n)
        values = np.arange(lo, lo + len(counts), dtype=np.int8)
        parts.append(np.repeat(values, np.asarray(counts, dtype=np.int64)))
        offsets[n + 1] = offsets[n] + 6**n
    return offsets, np.concatenate(parts)


@jit(inline="always")
def draw_table(u, table):
    """Exact draw from an equally-likely-outcomes table with one uniform ``u`` in [0, 1).

    Parameters
    ----------
    u : float
        Uniform on [0, 1).
    table : numpy.ndarray
        E.g. :func:`roll_table`.

    Returns
    -------
    int
        ``table[int(u * len(table))]`` as int64.
    """
    return np.int64(table[int(u * table.shape[0])])


@jit(inline="always")
def draw_nd6(u, n, offsets, table):
    """Exact draw of the sum of ``n <= TABLE_DICE`` d6 with one uniform ``u`` in [0, 1).

    Parameters
    ----------
    u : float
    n : int
    offsets, table : numpy.ndarray
        The arrays of :func:`nd6_tables`.
    """
    start = offsets[n]
    return np.int64(table[start + int(u * (offsets[n + 1] - start))])


@jit(**INNER)
def roll_nd6(s0, s1, s2, s3, n, offsets, table):
    """The sum of ``n`` d6 (any ``n`` >= 0), drawn from the generator state ``s0 .. s3``: one
    uniform for each group of :data:`TABLE_DICE` dice from the largest table, one for the rest
    (a draw even for none). Returns the state after and the sum."""
    start = offsets[TABLE_DICE]
    size = offsets[TABLE_DICE + 1] - start
    total = np.int64(0)
    left = n
    while left >= TABLE_DICE:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        total += table[start + np.int64(u * size)]
        left -= TABLE_DICE
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    lo = offsets[left]
    total += table[lo + np.int64(u * (offsets[left + 1] - lo))]
    return s0, s1, s2, s3, total


# --------------------------------------------------------------------------------------------
# Reference samplers (plain numpy, actual dice, independent of the tables)
# --------------------------------------------------------------------------------------------


def sample_nd6(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    """Roll ``n`` d6 ``size`` times and sum them (reference sampler for tests).

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Number of dice, ``>= 0``.
    size : int
        Number of sums.

    Returns
    -------
    numpy.ndarray of int64
    """
    if n == 0:
        return np.zeros(size, dtype=np.int64)
    return rng.integers(1, 7, size=(size, n)).sum(axis=1).astype(np.int64)


def _sample_hero(rng, criticals: bool, size: int) -> np.ndarray:
    dice = rng.integers(1, 7, size=(size, 5))
    natural = dice[:, :3].sum(axis=1)
    extra = dice[:, 3:].sum(axis=1)
    roll = natural.copy()
    if criticals:
        roll = np.where(natural == 18, natural + extra, roll)
        roll = np.where(natural == 3, natural - extra, roll)
    return roll.astype(np.int64)


def _sample_d10(rng, criticals: bool, size: int) -> np.ndarray:
    first = rng.integers(1, 11, size=size)
    extra = rng.integers(1, 11, size=size)
    roll = first.copy()
    if criticals:
        roll = np.where(first == 10, first + extra, roll)
        roll = np.where(first == 1, first - extra, roll)
    return roll.astype(np.int64)


def sample_roll_difference(
    rng: np.random.Generator, dice: str, criticals: str, size: int
) -> np.ndarray:
    """Roll actual dice for ``D = attacker roll - defender roll`` (reference sampler).

    Parameters
    ----------
    rng : numpy.random.Generator
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    size : int

    Returns
    -------
    numpy.ndarray of int64
    """
    _check(dice, criticals)
    if dice == "hero":
        return _sample_hero(rng, criticals != "none", size) - HERO_DEFENCE
    att = _sample_d10(rng, criticals != "none", size)
    dfn = _sample_d10(rng, criticals == "both", size)
    return att - dfn
