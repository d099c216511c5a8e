"""Scenarios: the loader, which reads a file, checks the envelope and hands each member to its
rule system; key paths and overrides; a base scenario and its variants.

The usual entry point is :func:`load_scenario`; :func:`scenario_from_dict` validates data that
did not come from a file. Every user-input problem raises
:class:`~fuzion_sim.errors.ScenarioError`. The members of a scenario's sides are its rule
system's own (``fuzion_sim.systems``, found through the registry), built with the checks of
:mod:`fuzion_sim.validation`, which also holds the :class:`Scenario` model and the YAML reader
(both re-exported here): the loader sits above the systems, the checks below them.
"""

from __future__ import annotations

from ..validation.model import Rules, Scenario
from ..validation.yaml_io import read_yaml
from .envelope import TOP_KEYS, build_rules, scenario_from_dict
from .paths import apply_overrides, get_path, override_label, parse_path, parse_value, set_path

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
