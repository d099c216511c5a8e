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

from fuzion_sim.errors import MAX_PROBLEMS, ScenarioError, did_you_mean, shorten

from .keypath import format_path

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
    "unknown_key",
]

MISSING = object()


class Context:
    """Where the data came from, for error messages, plus the warnings and problems collected
    so far.

    A builder raises ``ctx.fail(...)`` for a problem that stops it; the envelope runs each
    independent piece (a top-level key, a rule switch, a side, a member) with
    :meth:`attempt`, so one load reports every piece's first problem at once
    (:meth:`raise_problems`).

    Parameters
    ----------
    source : str, optional
        The file name shown in messages.
    lines : dict of str to int, optional
        Key path -> 1-based line, as returned by :func:`~fuzion_sim.validation.yaml_io.read_yaml`.
    origins : dict of str to str, optional
        Key path -> the override that set it (``--set rules.dice=hero``): a problem at or
        under that path names the override instead of a line of the file.
    system : str, optional
        The scenario's rule system, for hints about other systems' keys.
    key_hint : callable, optional
        ``key_hint(system, parts, key, allowed) -> (text, equivalent)``: what to add to
        ``unknown key 'KEY'`` when another system uses the key at ``parts``, and this system's
        equivalent key, if any (:func:`unknown_key`). The loader hands in one that asks the
        registry (:func:`fuzion_sim.scenario.keys.cross_system_hint`): the systems, which
        build their members with these checks, sit above this module and below the loader.
        None, or no ``system``: no hint.
    """

    def __init__(self, source: str | None = None, lines: dict[str, int] | None = None,
                 origins: dict[str, str] | None = None, system: str | None = None,
                 key_hint=None):  # fmt: skip
        self.source = source
        self.lines = lines or {}
        self.origins = origins or {}
        self.system = system
        self.key_hint = key_hint
        self.warnings: list[str] = []
        self.problems: list[ScenarioError] = []
        self.omitted = 0
        self._null_paths: set[str] = set()

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

    def origin(self, parts: Sequence) -> tuple[str, str] | None:
        """``(key path, override)`` of the override that set the key path or one of its
        parents, if any."""
        if not self.origins:
            return None
        parts = list(parts)
        while parts:
            key = format_path(parts)
            if key in self.origins:
                return key, self.origins[key]
            parts.pop()
        return None

    def fail(self, parts: Sequence, message: str, suggestion: str | None = None) -> ScenarioError:
        """A :class:`ScenarioError` at this key path (returned, for the caller to raise).

        A path an override set names the override (``--set KEY=VALUE``) instead of a line of
        the file."""
        path = format_path(parts) or None
        origin = self.origin(parts)
        if origin is not None:
            return ScenarioError(message, path=path, file=self.source, suggestion=suggestion,
                                 origin=origin[1])  # fmt: skip
        return ScenarioError(
            message, path=path, file=self.source, line=self.line(parts), suggestion=suggestion
        )

    def add(self, error: ScenarioError) -> None:
        """Record ``error``'s problems (skipping one at a key already reported as empty)."""
        problems, omitted = error.problems, error.omitted
        for problem in problems:
            problem.problems, problem.omitted = [problem], 0  # each recorded on its own
            if problem.path is not None and problem.path in self._null_paths:
                continue
            if len(self.problems) < MAX_PROBLEMS:
                self.problems.append(problem)
            else:
                self.omitted += 1
        self.omitted += omitted

    def add_null(self, error: ScenarioError) -> None:
        """Record a key written with no value; later problems at that key are not repeated."""
        self.add(error)
        self._null_paths.add(error.path)

    def attempt(self, build, *args, **kwargs):
        """``build(*args, **kwargs)``, or :data:`MISSING` once its :class:`ScenarioError` is
        recorded (see :meth:`raise_problems`)."""
        try:
            return build(*args, **kwargs)
        except ScenarioError as exc:
            self.add(exc)
            return MISSING

    def raise_problems(self) -> None:
        """Raise every problem recorded so far as one :class:`ScenarioError`, if any."""
        if self.problems:
            # in the file's order; a problem in an override (no line) first
            problems = sorted(self.problems, key=lambda p: p.line or 0)
            omitted = self.omitted
            self.problems, self.omitted = [], 0
            raise ScenarioError.combine(problems, omitted)


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
    """Check that ``value`` is a mapping with only ``allowed`` keys and every ``required`` key.

    Every unknown and missing key is reported at once (one :class:`ScenarioError` carrying
    them all); an unknown key that another registered system uses here is named as that
    system's, with this system's equivalent where there is an obvious one.
    """
    if not isinstance(value, dict):
        raise ctx.fail(parts, f"expected a mapping, got {describe(value)}")
    allowed = tuple(allowed)
    problems: list[ScenarioError] = []
    omitted = 0
    for key in value:
        if key not in allowed:
            if len(problems) >= MAX_PROBLEMS:
                omitted += 1
                continue
            problems.append(unknown_key(ctx, parts, key, allowed))
    for key in required:
        if key not in value:
            problems.append(ctx.fail(parts, f"missing key '{key}'"))
    if problems:
        raise ScenarioError.combine(problems, omitted)
    return value


def unknown_key(ctx: Context, parts, key, allowed) -> ScenarioError:
    """The error for ``key`` not among ``allowed`` in the mapping at ``parts``: a
    did-you-mean, or, when another registered system uses the key here, that system's name and
    this system's equivalent (``unknown key 'stats' (that is fuzion's name); did you mean
    'abilities'?``; the context's ``key_hint`` knows the other systems). Returned, for the
    caller to raise."""
    text, equivalent = "", None
    system, hint = getattr(ctx, "system", None), getattr(ctx, "key_hint", None)
    if hint is not None and system is not None:
        text, equivalent = hint(system, parts, key, allowed)
    suggestion = equivalent or did_you_mean(str(key), allowed)
    return ctx.fail([*parts, key], f"unknown key '{shorten(key)}'{text}", suggestion)


def optional(value: dict, key: str):
    """The value of an optional key; an explicit null counts as absent."""
    got = value.get(key, MISSING)
    return MISSING if got is None else got
