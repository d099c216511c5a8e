"""Every bound on input, in one place, and the checks of the Python API's arguments.

Scenario files, command-line options and the Python API share these bounds, so a value the
API refuses is refused by ``validate`` too, with the same range in the message. They are wide
enough for every shipped scenario and for superhero and vehicle scales, and narrow enough that
no value can make a run's memory or a single attack's work grow without bound.
"""

from __future__ import annotations

import math
import numbers
import operator

from .errors import ArgumentError, shorten

__all__ = [
    "MAX_COMBATANTS",
    "MAX_DC",
    "MAX_FILE_BYTES",
    "MAX_GRID_POINTS",
    "MAX_MAX_ROUNDS",
    "MAX_SEED",
    "MAX_TRIALS",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "check_choice",
    "check_int",
    "check_number",
    "check_probability",
]

#: Largest scenario file read (bytes): 1 MiB, a hundred times the largest shipped scenario.
MAX_FILE_BYTES = 1 << 20
#: Deepest nesting of lists and mappings in a scenario file (shipped scenarios: 6).
MAX_YAML_DEPTH = 64
#: Most values (scalars, lists, mappings) a scenario file may hold once its aliases are
#: expanded: an alias bomb stops here instead of expanding for ever.
MAX_YAML_NODES = 200_000

#: Trials of one run (``--precision`` stops earlier), and the largest seed (63 bits).
MAX_TRIALS = 10**12
MAX_SEED = 2**63 - 1
#: Longest fight: 10,000 rounds (33 hours of game time; shipped scenarios use 10 to 50).
MAX_MAX_ROUNDS = 10_000
#: Combatants in one scenario (the kernels' state and tallies grow with it; pair tables as its
#: square: 1,024 makes 8 MB a table).
MAX_COMBATANTS = 1024
#: Dice of one damage roll given by a weapon (``dc``) or to the exact calculator.
MAX_DC = 100
#: Points of a sweep grid or variants of a comparison.
MAX_GRID_POINTS = 10_000


def _fail(name: str, message: str) -> ArgumentError:
    return ArgumentError(f"{name}: {message}")


def _show(value) -> str:
    return shorten(repr(value))


def check_int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` when it is an integer (not a bool, not a float) in
    ``[low, high]``.

    Parameters
    ----------
    name : str
        The argument, named in the message.
    value : Any
        What the caller passed; numpy integers count.
    low, high : int, optional
        Inclusive bounds (None: unbounded on that side).

    Returns
    -------
    int

    Raises
    ------
    ArgumentError
        Naming the argument and the range, e.g. ``trials: expected an integer from 1 to
        1000000000000, got 1.5``.
    """
    span = _span(low, high)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _fail(name, f"expected an integer{span}, got {_show(value)}")
    value = operator.index(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(name, f"expected an integer{span}, got {_show(value)}")
    return value


def check_number(
    name: str, value, low: float | None = None, high: float | None = None,
    positive: bool = False,
) -> float:  # fmt: skip
    """``value`` as a finite ``float`` in ``[low, high]`` (``positive``: above 0).

    Raises
    ------
    ArgumentError
        For a non-number, NaN, an infinity or a value out of range.
    """
    span = _span(low, high)
    if positive:
        span = " greater than 0" + (f" and at most {high:g}" if high is not None else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _fail(name, f"expected a number{span}, got {_show(value)}")
    try:
        number = float(value)
    except (OverflowError, ValueError):
        raise _fail(name, f"expected a number{span}, got {_show(value)}") from None
    bad = not math.isfinite(number)
    bad = bad or (positive and number <= 0)
    bad = bad or (low is not None and number < low) or (high is not None and number > high)
    if bad:
        raise _fail(name, f"expected a finite number{span}, got {_show(value)}")
    return number


def check_probability(name: str, value, open_low=False, open_high=False) -> float:
    """A finite number in [0, 1] (or open at either end)."""
    number = check_number(name, value, 0.0, 1.0)
    if (open_low and number == 0) or (open_high and number == 1):
        raise _fail(name, f"expected a number strictly between 0 and 1, got {_show(value)}")
    return number


def check_choice(name: str, value, choices) -> str:
    """One of ``choices`` (strings)."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise _fail(name, f"expected one of {', '.join(choices)}, got {_show(value)}")
    return value


def _span(low, high) -> str:
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}" if _floaty(low, high) else f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _floaty(*values) -> bool:
    return any(isinstance(v, float) for v in values)
