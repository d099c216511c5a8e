"""The checks every rule system builds its members with: one :class:`Context` per scenario
(file, line map, warnings) and value checks that raise a
:class:`~fuzion_sim.errors.ScenarioError` naming the file, the line (the nearest key that has
one), the key path (``sides.red[0].weapon``), the problem, the allowed range and, for a
misspelt name, the closest valid one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from fuzion_sim.errors import ScenarioError, did_you_mean, shorten

from .yaml_io import format_path

__all__ = [
    "MISSING",
    "Context",
    "check_bool",
    "check_choice",
    "check_int",
    "check_mapping",
    "check_number",
    "check_str",
    "describe",
    "is_int",
    "is_number",
    "optional",
]

MISSING = object()


class Context:
    """Where the data came from, for error messages, plus the warnings collected so far.

    Parameters
    ----------
    source : str, optional
        The file name shown in messages.
    lines : dict of str to int, optional
        Key path -> 1-based line, as returned by :func:`~fuzion_sim.scenario.read_yaml`.
    """

    def __init__(self, source: str | None = None, lines: dict[str, int] | None = None):
        self.source = source
        self.lines = lines or {}
        self.warnings: list[str] = []

    def line(self, parts: Sequence) -> int | None:
        """Line of the key path, else of its nearest parent that has one."""
        parts = list(parts)
        while True:
            key = format_path(parts)
            if key in self.lines:
                return self.lines[key]
            if not parts:
                return None
            parts.pop()

    def fail(self, parts: Sequence, message: str, suggestion: str | None = None) -> ScenarioError:
        """A :class:`ScenarioError` at this key path (returned, for the caller to raise)."""
        return ScenarioError(
            message,
            path=format_path(parts) or None,
            file=self.source,
            line=self.line(parts),
            suggestion=suggestion,
        )


def describe(value: Any) -> str:
    """A value as a message names it: 'text', true, a mapping, a list, nothing (null)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _allowed(minimum, maximum, positive=False) -> str:
    """The range a message names: `` (allowed: 0 to 100)``, `` (allowed: above 0, to 50)``."""
    if maximum is None:
        return ""
    low = "above 0," if positive else ("" if minimum is None else _num(minimum))
    high = _num(maximum)
    return f" (allowed: {low} to {high})" if low else f" (allowed: at most {high})"


def _num(value) -> str:
    """A bound as a message writes it: integers whole, floats short."""
    return str(value) if is_int(value) else f"{value:g}"


def check_int(ctx: Context, parts, value, minimum=None, label: str = "", maximum=None) -> int:
    if not is_int(value):
        raise ctx.fail(parts, f"expected an integer, got {describe(value)}")
    what = f"{label} must" if label else "must"
    if minimum is not None and value < minimum:
        raise ctx.fail(
            parts, f"{what} be at least {minimum}, got {_show(value)}{_allowed(minimum, maximum)}"
        )
    if maximum is not None and value > maximum:
        raise ctx.fail(
            parts, f"{what} be at most {maximum}, got {_show(value)}{_allowed(minimum, maximum)}"
        )
    return value


def _show(value) -> str:
    """A number as a message quotes it (a huge integer cut short)."""
    return shorten(value, 30)


def check_number(ctx: Context, parts, value, minimum=None, maximum=None, positive=False) -> float:
    if not is_number(value):
        raise ctx.fail(parts, f"expected a number, got {describe(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer past 1e308
        number = math.inf if value > 0 else -math.inf
    if math.isnan(number):
        raise ctx.fail(parts, f"must be a number, got NaN{_allowed(minimum, maximum, positive)}")
    if positive and number <= 0:
        raise ctx.fail(parts, f"must be greater than 0, got {_show(value)}"
                       f"{_allowed(minimum, maximum, positive)}")  # fmt: skip
    if minimum is not None and number < minimum:
        raise ctx.fail(parts, f"must be at least {_num(minimum)}, got {_show(value)}"
                       f"{_allowed(minimum, maximum)}")  # fmt: skip
    if maximum is not None and number > maximum:
        raise ctx.fail(parts, f"must be at most {_num(maximum)}, got {_show(value)}"
                       f"{_allowed(minimum, maximum, positive)}")  # fmt: skip
    if not math.isfinite(number):
        raise ctx.fail(parts, f"must be a finite number, got {_show(value)}")
    return number


def check_bool(ctx: Context, parts, value) -> bool:
    if not isinstance(value, bool):
        raise ctx.fail(parts, f"expected true or false, got {describe(value)}")
    return value


def check_str(ctx: Context, parts, value) -> str:
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected a string, got {describe(value)}")
    if not value.strip():
        raise ctx.fail(parts, "must not be empty")
    return value


def check_choice(ctx: Context, parts, value, choices: Sequence[str], what: str = "value") -> str:
    expected = " or ".join(", ".join(choices).rsplit(", ", 1))
    if not isinstance(value, str):
        raise ctx.fail(parts, f"expected {expected}, got {describe(value)}")
    if value not in choices:
        raise ctx.fail(
            parts,
            f"unknown {what} '{value}' (expected {expected})",
            did_you_mean(value, choices),
        )
    return value


def check_mapping(
    ctx: Context, parts, value, allowed: Iterable[str], required: Iterable[str] = ()
) -> dict:
    """Check that ``value`` is a mapping with only ``allowed`` keys and every ``required`` key."""
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping, got {describe(value)}")
    allowed = tuple(allowed)
    for key in value:
        if key not in allowed:
            raise ctx.fail(
                [*parts, key], f"unknown key '{shorten(key)}'", did_you_mean(str(key), allowed)
            )
    for key in required:
        if key not in value:
            raise ctx.fail(parts, f"missing key '{key}'")
    return value


def optional(value: dict, key: str):
    """The value of an optional key; an explicit null counts as absent."""
    got = value.get(key, MISSING)
    return MISSING if got is None else got
