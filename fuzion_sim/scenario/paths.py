"""Key paths into scenario data: ``sides.blue[0].armor.pd``.

Used by ``--set`` style overrides and parameter sweeps. :func:`set_path` never changes its input;
when a path reaches into a catalogue item given by name (``weapon: Magnum Pistol``), the item's
catalogue entry is copied inline into the combatant with the one value changed (the
scenario's system, from the registry, says which keys name catalogue items). The syntax,
:func:`parse_path`, is :mod:`fuzion_sim.validation.keypath`'s, which the systems use too.
"""

from __future__ import annotations

import copy
from typing import Any

import yaml

from fuzion_sim.errors import ScenarioError, did_you_mean, shorten

from ..systems import DEFAULT_SYSTEM, get_system, system_names
from ..validation.keypath import format_path, parse_path

__all__ = ["apply_overrides", "get_path", "override_label", "parse_path", "parse_value", "set_path"]


def parse_value(text):
    """Turn a command-line string into a YAML scalar (or list / mapping).

    Parameters
    ----------
    text : str
        E.g. ``"6"``, ``"true"``, ``"interlock"``, ``"{name: Club, dc: 2, skill: Melee}"``.

    Returns
    -------
    Any
        ``yaml.safe_load(text)``: ``6``, ``True``, ``"interlock"``, a dict ...; text that is not
        valid YAML is returned as the string itself. Non-strings are returned unchanged.
    """
    if not isinstance(text, str):
        return text
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _member_slot(prefix: list) -> str | None:
    """The member key ``prefix`` ends at (``sides.<side>[i].<key>`` or
    ``sides.<side>.members[i].<key>``), else None."""
    if len(prefix) == 4 and prefix[0] == "sides" and isinstance(prefix[2], int):
        return prefix[3] if isinstance(prefix[3], str) else None
    if (len(prefix) == 5 and prefix[0] == "sides" and prefix[2] == "members"
            and isinstance(prefix[3], int) and isinstance(prefix[4], str)):  # fmt: skip
        return prefix[4]
    return None


def _catalogue_entry(data, prefix: list, name: str, full: str) -> dict | None:
    """The catalogue entry a member key at ``prefix`` names (the scenario's system decides
    which keys name catalogue items), as a mapping to follow the path into; None when the
    key names no catalogue item."""
    slot = _member_slot(prefix)
    if slot is None:
        return None
    system = data.get("system") if isinstance(data, dict) else None
    if system not in system_names():
        system = DEFAULT_SYSTEM
    try:
        return get_system(system).catalogue_entry(slot, name)
    except ScenarioError as exc:
        exc.path = full
        raise


def _without_nulls(value):
    """A catalogue entry as a scenario writes it: keys the catalogue leaves empty (null: not
    given) left out, since a key written with no value in a scenario is an error."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _step(node, key, prefix: list, full: str):
    """The child ``key`` of ``node`` (a dict or list); raises for a bad key or index."""
    where = format_path(prefix) or "the scenario"
    if isinstance(node, dict):
        if key in node:
            return node[key]
        if isinstance(key, int):
            raise ScenarioError(f"'{where}' is a mapping, not a list: no index [{key}]", path=full)
        if prefix == ["sides"]:
            raise _no_side(node, key, full)
        raise ScenarioError(
            f"no key '{key}' in '{where}'",
            path=full,
            suggestion=did_you_mean(str(key), [str(k) for k in node]),
        )
    if isinstance(node, list):
        if not isinstance(key, int):
            raise ScenarioError(f"'{where}' is a list: use an index such as [0]", path=full)
        if not 0 <= key < len(node):
            raise ScenarioError(
                f"no index [{key}] in '{where}' (it has {len(node)} item"
                f"{'' if len(node) == 1 else 's'})",
                path=full,
            )
        return node[key]
    raise ScenarioError(f"'{where}' is a single value, it has no '{key}'", path=full)


def _no_side(sides: dict, key, full: str) -> ScenarioError:
    """``no side 'green'; the sides are blue, red``."""
    names = [str(k) for k in sides]
    listed = ", ".join(shorten(n, 30) for n in names[:12]) + (", ..." if len(names) > 12 else "")
    return ScenarioError(
        f"no side '{shorten(key)}'; the sides are {listed or 'none'}",
        path=full,
        suggestion=did_you_mean(str(key), names),
    )


def get_path(data, path) -> Any:
    """The value at a key path.

    A path that reaches into a catalogue item given by name reads the catalogue entry
    (``sides.red[0].weapon.dc`` with ``weapon: Magnum Pistol`` gives 5).

    Parameters
    ----------
    data : dict
        Scenario data.
    path : str or sequence
        A key path, see :func:`parse_path`.

    Returns
    -------
    Any

    Raises
    ------
    ScenarioError
        If a key or index on the path does not exist (with a did-you-mean for keys).
    """
    parts = parse_path(path)
    full = format_path(parts)
    node = data
    for depth, key in enumerate(parts):
        prefix = parts[:depth]
        if isinstance(node, str):
            node = _catalogue_entry(data, prefix, node, full) or node
        node = _step(node, key, prefix, full)
    return node


def set_path(data, path, value) -> dict:
    """A deep copy of ``data`` with the value at ``path`` set; ``data`` is not changed.

    Missing mapping keys on the way are created (so ``rules.dice`` works without a ``rules``
    block, and ``sides.red[0].hits`` adds an override); the validator then reports a misspelt
    key with a did-you-mean. A path into a catalogue item given by name copies the item's
    catalogue entry inline, with the value changed.

    Parameters
    ----------
    data : dict
        Scenario data.
    path : str or sequence
        A key path, see :func:`parse_path`.
    value : Any
        The new value (see :func:`parse_value` for command-line text).

    Returns
    -------
    dict
        The changed copy.

    Raises
    ------
    ScenarioError
        If an index is out of range, an index is used on a mapping (or a key on a list), a
        missing key would have to hold a list, or a catalogue name on the path is unknown.
    """
    parts = parse_path(path)
    full = format_path(parts)
    if not parts:
        raise ScenarioError(f"bad key path '{full}': it is empty", path=full or None)
    root = copy.deepcopy(data)
    if not isinstance(root, dict):
        raise ScenarioError("the scenario is not a mapping", path=full)
    node = root
    for depth, key in enumerate(parts[:-1]):
        prefix = parts[: depth + 1]
        following = parts[depth + 1]
        if (
            isinstance(node, dict)
            and isinstance(key, str)
            and node.get(key) is None
            and isinstance(following, str)
            and parts[:depth] != ["sides"]  # a side is never made up by an override
        ):
            node[key] = {}
        child = _step(node, key, parts[:depth], full)
        if isinstance(child, str) and isinstance(following, str):
            entry = _catalogue_entry(root, prefix, child, full)
            if entry is not None:
                child = node[key] = _without_nulls(entry)
        if not isinstance(child, dict | list):
            raise ScenarioError(
                f"'{format_path(prefix)}' is a single value, it has no '{following}'", path=full
            )
        node = child
    last = parts[-1]
    if isinstance(node, dict):
        if isinstance(last, int):
            raise ScenarioError(
                f"'{format_path(parts[:-1])}' is a mapping, not a list: no index [{last}]",
                path=full,
            )
        node[last] = value
    else:
        _step(node, last, parts[:-1], full)  # raises for a bad index
        node[last] = value
    return root


def override_label(key_path, value, option: str | None = None) -> str:
    """How a message names an override: ``--set sides.red[0].armor.pd=-3``.

    Parameters
    ----------
    key_path : str or sequence
        The override's key path.
    value : Any
        Its value (a Python value, written back as YAML: ``true``, ``{dc: 4}``, nothing for
        null).
    option : str, optional
        The option it came from (``"--set"``, ``"--vary"``, ``"--grid"``); ``override``
        when not given.

    Returns
    -------
    str
    """
    if isinstance(key_path, str):
        key = key_path.strip()
    else:
        try:
            key = format_path(key_path)
        except TypeError:
            key = str(key_path)
    if value is None:
        text = ""
    elif isinstance(value, str):
        text = value
    else:
        try:
            text = yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
            text = text.removesuffix("...").strip()
        except yaml.YAMLError:
            text = str(value)
    return f"{option or 'override'} {shorten(key, 120)}={shorten(text)}"


def apply_overrides(data, overrides, option: str | None = None, source: str | None = None):
    """Apply ``(key_path, value)`` overrides in order, remembering which key each one set.

    Parameters
    ----------
    data : dict
        Scenario data (not changed).
    overrides : iterable of (str, Any)
        E.g. ``[("rules.dice", "interlock"), ("sides.blue[0].armor.pd", 10)]``.
    option : str, optional
        The option the overrides came from (``"--set"``, ``"--vary"``, ``"--grid"``), named
        by every message about them.
    source : str, optional
        The scenario file, recorded on errors.

    Returns
    -------
    data : dict
        The changed copy.
    origins : dict of str to str
        Key path -> the override that set it (:func:`override_label`), for
        :class:`~fuzion_sim.validation.checks.Context`: a problem in an overridden value names
        the override, not a line of the file.

    Raises
    ------
    ScenarioError
        An override that is not a pair, or whose key path is bad or does not exist (``no
        side 'green'; the sides are blue, red``), naming the override.
    """
    origins: dict[str, str] = {}
    for pair in overrides:
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise ScenarioError(
                f"an override must be a (key_path, value) pair, got {type(pair).__name__}",
                file=source,
                origin=option,
            )
        key_path, value = pair
        label = override_label(key_path, value, option)
        try:
            data = set_path(data, key_path, value)
            key = format_path(parse_path(key_path))
        except ScenarioError as exc:
            exc.file = exc.file or source
            exc.origin = label
            raise
        origins = {k: v for k, v in origins.items()
                   if k != key and not k.startswith((key + ".", key + "["))}  # fmt: skip
        origins[key] = label
    return data, origins
