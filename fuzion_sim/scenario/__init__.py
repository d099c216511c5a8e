"""Scenarios: the YAML loader, the envelope, the checks every system builds members with, and
key paths.

The usual entry point is :func:`load_scenario`; :func:`scenario_from_dict` validates data that
did not come from a file. Every user-input problem raises
:class:`~fuzion_sim.errors.ScenarioError`. The members of a scenario's sides are its rule
system's own (``fuzion_sim.systems``).
"""

from __future__ import annotations

from .envelope import TOP_KEYS, build_rules, scenario_from_dict
from .model import Rules, Scenario
from .paths import apply_overrides, get_path, override_label, parse_path, parse_value, set_path
from .yaml_io import read_yaml

__all__ = [
    "TOP_KEYS",
    "apply_overrides",
    "override_label",
    "Rules",
    "Scenario",
    "build_rules",
    "get_path",
    "load_scenario",
    "parse_path",
    "parse_value",
    "read_yaml",
    "scenario_from_dict",
    "set_path",
]


def load_scenario(path, overrides=None) -> Scenario:
    """Read, override and validate a scenario file.

    Parameters
    ----------
    path : str or os.PathLike
        The scenario YAML file.
    overrides : iterable of (str, Any), optional
        ``(key_path, value)`` pairs applied in order with :func:`set_path` before validation,
        e.g. ``[("rules.dice", "interlock"), ("sides.blue[0].armor.pd", 10)]``. Values are
        Python values; use :func:`parse_value` for command-line text.

    Returns
    -------
    Scenario
        ``data`` holds the scenario after the overrides.

    Raises
    ------
    ScenarioError
        If the file cannot be read or parsed, an override path is bad, or validation fails.
    """
    source = str(path)
    data, lines = read_yaml(path)
    if overrides and isinstance(data, dict):
        return scenario_from_dict(data, source=source, lines=lines, overrides=overrides)
    return scenario_from_dict(data, source=source, lines=lines)
