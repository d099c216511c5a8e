"""4dF and the trait ladder (RULINGS U1, rulings UA17, UA30).

Four Fudge dice (each -1, 0 or +1) sum to -4 .. +4 with counts 1, 4, 10, 16, 19, 16, 10, 4, 1
out of 81. The 81 equally likely outcomes sorted by their sum are the sampling table
(:data:`ROLL81`): an index on 0 .. 80 from 32 random bits (``engine.rng.index32``) is one roll,
and an index on 0 .. 6560 is two independent rolls (the to-hit roll and the Damage Roll of a
shot, :func:`two_rolls`), so one generator step serves a whole shot.

The ladder: Terrible -3, Poor -2, Mediocre -1, Fair 0, Good +1, Great +2, Superb +3, Legendary
+4. Results are unbounded integers compared as numbers; off the ladder they read
``Legendary+N`` and ``Terrible-N`` (UA30).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from ..._jit import jit
from ...engine.rng import index32, trial_state, xoshiro_bits

__all__ = [
    "COUNTS",
    "LADDER",
    "LEVEL_NAMES",
    "ROLL81",
    "SIDES",
    "at_least",
    "ladder_name",
    "level_of",
    "pmf",
    "roll_of_index",
    "sample",
    "two_rolls",
]

#: Outcomes of one die.
SIDES = (-1, 0, 1)
#: 4dF counts of -4 .. +4 out of 81 (U1).
COUNTS = (1, 4, 10, 16, 19, 16, 10, 4, 1)
#: The 81 outcomes of 4dF, sorted: ``ROLL81[i]`` is the roll of index ``i``.
ROLL81 = np.array(sorted(sum(d) for d in product(SIDES, repeat=4)), np.int64)

#: The trait ladder, name -> value (U1), from the top.
LADDER = {
    "Legendary": 4, "Superb": 3, "Great": 2, "Good": 1, "Fair": 0, "Mediocre": -1,
    "Poor": -2, "Terrible": -3,
}  # fmt: skip
#: Value -> name on the ladder.
LEVEL_NAMES = {v: k for k, v in LADDER.items()}


def pmf() -> dict[int, Fraction]:
    """The exact pmf of 4dF: ``{-4: 1/81, ..., 4: 1/81}``."""
    return {r: Fraction(c, 81) for r, c in zip(range(-4, 5), COUNTS, strict=True)}


def at_least(level: int) -> Fraction:
    """P(4dF >= ``level``): a Situational Roll of ``level`` or better read from Fair (UA17):
    Good or better 31/81, Mediocre or better 66/81."""
    return sum((p for r, p in pmf().items() if r >= level), Fraction(0))


def ladder_name(value: int) -> str:
    """The ladder's name of a result: ``Good``, ``Legendary+2``, ``Terrible-1`` (UA30)."""
    value = int(value)
    if value in LEVEL_NAMES:
        return LEVEL_NAMES[value]
    return f"Legendary+{value - 4}" if value > 4 else f"Terrible{value + 3}"


def level_of(text: str) -> int | None:
    """The value of a ladder name, any case (``"good"`` -> 1); None for anything else."""
    if not isinstance(text, str):
        return None
    key = text.strip().casefold()
    for name, value in LADDER.items():
        if name.casefold() == key:
            return value
    return None


@jit(inline="always")
def roll_of_index(i):
    """The 4dF roll of an index on 0 .. 80 (the sorted outcomes' counts, branch-free)."""
    return (
        np.int64(i >= 1) + np.int64(i >= 5) + np.int64(i >= 15) + np.int64(i >= 31)
        + np.int64(i >= 50) + np.int64(i >= 66) + np.int64(i >= 76) + np.int64(i >= 80)
        - np.int64(4)
    )  # fmt: skip


@jit(inline="always")
def two_rolls(bits):
    """Two independent 4dF rolls from 32 random ``bits``: an index on 0 .. 6560
    (``index32``), read as ``81 a + b``; returns ``(index, roll a, roll b)``."""
    idx = index32(bits, np.uint64(6561))
    a = idx // np.uint64(81)
    b = idx - a * np.uint64(81)
    return idx, roll_of_index(np.int64(a)), roll_of_index(np.int64(b))


@jit
def _sample(s0, s1, s2, s3, n, out):
    for i in range(n):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        out[i] = roll_of_index(np.int64(index32(x & np.uint64(0xFFFFFFFF), np.uint64(81))))


def sample(n: int, seed: int = 0) -> np.ndarray:
    """``n`` rolls of 4dF (int64), one generator step each, as the kernels draw them."""
    state = trial_state(seed, 0)
    out = np.empty(int(n), np.int64)
    _sample(state[0], state[1], state[2], state[3], int(n), out)
    return out
