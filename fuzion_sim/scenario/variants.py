"""Scenario variants: a base scenario plus key-path overrides, and grid / value-list parsing.

Comparisons, sweeps and balance searches all build variants of one base scenario with
:func:`~fuzion_sim.scenario.set_path` (which copies catalogue items inline when a path reaches
into them). A ``sweep:`` block in a scenario file is stripped here before validation, so every
command accepts such a file. Editing a scenario is the scenario's business: nothing here runs
one.
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ArgumentError, FuzionSimError, ScenarioError
from ..limits import MAX_GRID_POINTS
from ..validation.model import Scenario
from ..validation.yaml_io import read_yaml
from .envelope import scenario_from_dict
from .paths import parse_value

__all__ = [
    "Base",
    "as_base",
    "parse_values",
    "parse_assignment",
    "axes_of",
    "overrides_of",
    "expand_grid",
    "label_of",
]


@dataclass
class Base:
    """A scenario before overrides: its data, where it came from, and its ``sweep:`` block."""

    data: dict
    source: str | None = None
    lines: dict | None = None
    sweep: dict | None = None
    scenario: Scenario | None = field(default=None, repr=False)

    def build(self, overrides=(), option: str | None = None) -> Scenario:
        """Validate the base with ``overrides`` applied.

        Parameters
        ----------
        overrides : iterable of (str, object)
            ``[(key_path, value), ...]``, applied in order.
        option : str, optional
            The option they came from (``"--set"``, ``"--vary"``), named by messages.

        Returns
        -------
        Scenario

        Raises
        ------
        ScenarioError
            A bad key path or value, naming the override.
        """
        overrides = list(overrides)
        if not overrides and self.scenario is not None:
            return self.scenario
        scenario = scenario_from_dict(self.data, source=self.source, lines=self.lines,
                                      overrides=overrides, option=option)  # fmt: skip
        if not overrides:
            self.scenario = scenario
        return scenario


def as_base(scenario) -> Base:
    """A :class:`Base` from a path, a :class:`Scenario`, scenario data (a dict) or a ``Base``.

    Parameters
    ----------
    scenario : str, os.PathLike, Scenario, dict or Base

    Returns
    -------
    Base

    Raises
    ------
    ArgumentError
        For anything else.
    """
    if isinstance(scenario, Base):
        return scenario
    if isinstance(scenario, Scenario):
        return Base(dict(scenario.data), scenario.source, None, None, scenario)
    if isinstance(scenario, dict):
        return Base(dict(scenario))
    if not isinstance(scenario, str | os.PathLike):
        raise ArgumentError(
            "scenario: expected a Scenario, a path to a YAML file or a mapping of scenario "
            f"data, got {type(scenario).__name__}"
        )
    source = str(scenario)
    data, lines = read_yaml(Path(scenario))
    sweep = None
    if isinstance(data, dict) and "sweep" in data:
        data = dict(data)
        sweep = data.pop("sweep")
        if sweep is not None and not isinstance(sweep, dict):
            raise ScenarioError("the sweep block must be a mapping", path="sweep", file=source)
    return Base(data, source, lines, sweep)


def _number(text: str):
    value = parse_value(text.strip())
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FuzionSimError(f"'{text}' is not a finite number in a START:STOP:STEP range")
    return value


def _is_number(text: str) -> bool:
    value = parse_value(text.strip()) if text.strip() else None
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_values(text) -> list:
    """Values of a grid axis.

    Parameters
    ----------
    text : str or list
        ``"0:20:2"`` (START:STOP:STEP, STOP included: 0, 2, ..., 20), ``"hero,interlock"``,
        or a single value; a list is returned with each item parsed.

    Returns
    -------
    list
    """
    if isinstance(text, list | tuple):
        return [parse_value(v) if isinstance(v, str) else v for v in text]
    if not isinstance(text, str):
        return [text]
    text = text.strip()
    if ":" in text and text.count(":") != 2 and "{" not in text:
        parts = text.split(":")
        if all(_is_number(p) for p in parts):
            raise FuzionSimError(
                f"'{text}' is not a range: a range is START:STOP:STEP with STOP included, "
                f"e.g. '{parts[0].strip()}:{parts[-1].strip()}:1'"
            )
    if text.count(":") == 2 and "{" not in text:
        start, stop, step = (_number(p) for p in text.split(":"))
        if step == 0 or (stop - start) * step < 0:
            raise FuzionSimError(f"range '{text}' is empty or its step is 0")
        span = (stop - start) / step
        if not span < MAX_GRID_POINTS:
            raise FuzionSimError(
                f"range '{text}' has more than {MAX_GRID_POINTS:,} values "
                f"(allowed: at most {MAX_GRID_POINTS:,} points)"
            )
        count = math.floor(span + 1e-9) + 1
        values = [start + i * step for i in range(count)]
        if all(isinstance(v, int) for v in (start, stop, step)):
            return values
        return [round(v, 12) for v in values]
    if not text:
        raise FuzionSimError("empty list of values")
    return [parse_value(v.strip()) for v in text.split(",")]


def parse_assignment(text: str) -> tuple[str, list]:
    """``"rules.dice=hero,interlock"`` -> ``("rules.dice", ["hero", "interlock"])``.

    Parameters
    ----------
    text : str
        ``KEY=VALUES``, the values as :func:`parse_values` reads them.

    Returns
    -------
    (str, list)

    Raises
    ------
    FuzionSimError
        No ``=``, no key, or bad values.
    """
    if "=" not in text:
        raise FuzionSimError(f"expected KEY=VALUES, got '{text}'")
    key, _, values = text.partition("=")
    key = key.strip()
    if not key:
        raise FuzionSimError(f"no key path before '=' in '{text}'")
    return key, parse_values(values)


def axes_of(axes) -> list[tuple[str, list]]:
    """Axes given any way the API accepts them, as ``[(key_path, [values]), ...]``.

    Parameters
    ----------
    axes : dict, list of (key_path, values), list of str, or str
        ``{"rules.dice": ["hero", "interlock"]}``, ``[("rules.dice", "hero,interlock")]``,
        or the CLI's text: ``["rules.dice=hero,interlock", "sides.blue[0].armor.pd=0:20:2"]``
        (one string: one axis). Values given as text are parsed as the CLI parses them
        (``"a,b"`` lists, ``"START:STOP:STEP"`` ranges).

    Returns
    -------
    list of (str, list)

    Raises
    ------
    FuzionSimError
        An item that is neither ``"KEY=VALUES"`` text nor a ``(key, values)`` pair.
    """
    if axes is None:
        return []
    if isinstance(axes, str):
        axes = [axes]
    items = list(axes.items()) if isinstance(axes, dict) else list(axes)
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(parse_assignment(item))
        elif isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str):
            out.append((item[0].strip(), parse_values(item[1])))
        else:
            raise FuzionSimError(
                f"an axis is 'KEY=VALUES' text or a (key, values) pair, got {item!r}"
            )
    return out


def overrides_of(overrides) -> list[tuple[str, object]]:
    """Overrides given any way the API accepts them, as ``[(key_path, value), ...]``.

    Parameters
    ----------
    overrides : dict, list of (key_path, value), list of str, str or None
        ``{"rules.dice": "interlock"}``, ``[("sides.blue[0].armor.pd", 10)]`` (Python values,
        applied as given), or ``"KEY=VALUE"`` text (``["rules.dice=interlock"]``, the value
        parsed as the CLI parses it).

    Returns
    -------
    list of (str, object)

    Raises
    ------
    FuzionSimError
        An item that is neither ``"KEY=VALUE"`` text nor a ``(key, value)`` pair.
    """
    if overrides is None:
        return []
    if isinstance(overrides, str):
        overrides = [overrides]
    items = list(overrides.items()) if isinstance(overrides, dict) else list(overrides)
    out = []
    for item in items:
        if isinstance(item, str) and "=" in item:
            key, _, value = item.partition("=")
            out.append((key.strip(), parse_value(value.strip())))
        elif isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str):
            out.append((item[0].strip(), item[1]))
        else:
            raise FuzionSimError(
                f"an override is 'KEY=VALUE' text or a (key, value) pair, got {item!r}"
            )
    return out


def expand_grid(axes) -> list[dict]:
    """The cross product of the axes as a list of ``{key: value}`` points.

    Parameters
    ----------
    axes : dict, list of (key_path, values), list of str, or str
        As :func:`axes_of` takes them.

    Returns
    -------
    list of dict
    """
    axes = axes_of(axes)
    if not axes:
        return [{}]
    keys = [k for k, _ in axes]
    if len(set(keys)) != len(keys):
        raise FuzionSimError("the same key path is given twice")
    size = 1
    for key, values in axes:
        if not isinstance(values, list | tuple) or not values:
            raise FuzionSimError(f"{key}: expected a non-empty list of values")
        size *= len(values)
        if size > MAX_GRID_POINTS:
            raise FuzionSimError(
                f"the grid has more than {MAX_GRID_POINTS:,} points (allowed: at most "
                f"{MAX_GRID_POINTS:,})"
            )
    return [
        dict(zip(keys, combo, strict=True)) for combo in itertools.product(*[v for _, v in axes])
    ]


def label_of(values: dict) -> str:
    """A short readable label of a variant: ``Interlock`` or ``pd=8, dice=interlock``.

    Parameters
    ----------
    values : dict
        The variant's ``{key_path: value}``.

    Returns
    -------
    str
    """
    if not values:
        return "baseline"
    if len(values) == 1:
        ((key, value),) = values.items()
        if key == "rules.dice" and isinstance(value, str):
            return "HERO" if value == "hero" else value.capitalize()
        return f"{key.rsplit('.', 1)[-1]}={value}"
    return ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in values.items())
