"""The explorer's state: the change set from the base scenario, the controls, the saved YAML.

A change set is an ordered mapping of key paths (``sides.red[0].stats.REF``) to values. The
page keeps it in its URL's query, one parameter a change, the value as the text a user would
give ``--set`` (``?sides.red[0].stats.REF=9&rules.dice=interlock``); names starting with ``_``
are the page's own options (``_mc=1``: Monte Carlo even where an exact answer exists).

What may change is decided by the rule system's JSON Schema: a path must lead, through the
schema's ``properties``, ``items``, ``additionalProperties`` and ``oneOf`` branches, to a
number, an integer, a boolean, a choice or a name; a value must be one scalar. The loader
then judges the changed scenario as it judges a file, so a bad value gets the CLI's message.
"""

from __future__ import annotations

import math
from urllib.parse import parse_qsl, urlencode

import yaml

from ..errors import ArgumentError, ScenarioError, did_you_mean
from ..scenario import get_path, parse_path, parse_value
from ..validation.keypath import format_path

__all__ = [
    "MAX_CHANGES", "MAX_MEMBERS_SHOWN", "MAX_VALUE_CHARS", "build_controls", "changes_to_query",
    "check_changes", "parse_query", "scalar_branches", "schema_at", "to_yaml",
]  # fmt: skip

#: Most changes one change set may hold.
MAX_CHANGES = 64
#: Longest text of one value.
MAX_VALUE_CHARS = 200
#: Members that get controls (a larger scenario is explored through its first ones and URLs).
MAX_MEMBERS_SHOWN = 24
#: Member keys whose text names a catalogue item, and the catalogue they name.
_CATALOGUE_SLOTS = {"weapon": "weapons", "armor": "armor", "shield": "shields"}
_SCALAR_TYPES = ("integer", "number", "boolean", "string", "null")


def _branches(node) -> list[dict]:
    """``node`` with its ``oneOf`` / ``anyOf`` alternatives flattened."""
    if not isinstance(node, dict):
        return []
    alts = node.get("oneOf") or node.get("anyOf")
    if not alts:
        return [node]
    out = []
    for alt in alts:
        merged = {k: v for k, v in node.items() if k not in ("oneOf", "anyOf")}
        out.extend(_branches({**merged, **alt}))
    return out


def schema_at(schema: dict, parts) -> list[dict]:
    """The schema alternatives a key path leads to (empty: the schema has no such key).

    Parameters
    ----------
    schema : dict
        A scenario's JSON Schema (:func:`fuzion_sim.scenario.schema.scenario_schema`).
    parts : list of str or int
        A parsed key path.

    Returns
    -------
    list of dict
        Every schema branch the path may end at (``oneOf`` alternatives flattened).
    """
    nodes = [schema]
    for key in parts:
        nxt = []
        for node in nodes:
            for branch in _branches(node):
                if isinstance(key, int):
                    if branch.get("type") == "array" and isinstance(branch.get("items"), dict):
                        nxt.append(branch["items"])
                    continue
                props = branch.get("properties") or {}
                if key in props:
                    nxt.append(props[key])
                    continue
                extra = branch.get("additionalProperties")
                names = (branch.get("propertyNames") or {}).get("enum")
                if isinstance(extra, dict) and (names is None or key in names):
                    nxt.append(extra)
        nodes = nxt
        if not nodes:
            return []
    return [b for node in nodes for b in _branches(node)]


def scalar_branches(branches: list[dict]) -> list[dict]:
    """The branches that hold one scalar (a number, a boolean, a choice or text)."""
    return [b for b in branches if "enum" in b or "const" in b or b.get("type") in _SCALAR_TYPES]


def _is_scalar(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, bool | int | str)


def check_changes(schema: dict, changes) -> list[tuple[str, object]]:
    """The change set as ``[(key_path, value), ...]`` after the explorer's own checks.

    Parameters
    ----------
    schema : dict
        The scenario's JSON Schema.
    changes : dict or list of (str, object)
        Key paths and values; text values are read as ``--set`` reads them (YAML scalars).

    Returns
    -------
    list of (str, object)
        Canonical key paths and their values, in order.

    Raises
    ------
    ScenarioError
        A path the schema does not allow, a value that is not one scalar, or too many changes.
    """
    items = list(changes.items()) if isinstance(changes, dict) else list(changes)
    if len(items) > MAX_CHANGES:
        raise ArgumentError(f"at most {MAX_CHANGES} changes at once, got {len(items)}")
    out = []
    for path, value in items:
        if not isinstance(path, str) or len(path) > 300:
            raise ArgumentError(f"a change's key path must be text, got {path!r:.60}")
        parts = parse_path(path)
        full = format_path(parts)
        if isinstance(value, str):
            if len(value) > MAX_VALUE_CHARS:
                raise ScenarioError(f"the value is longer than {MAX_VALUE_CHARS} characters",
                                    path=full)  # fmt: skip
            value = parse_value(value)
        if not _is_scalar(value):
            raise ScenarioError(f"expected one number, name or true/false, got {value!r:.60}",
                                path=full)  # fmt: skip
        branches = scalar_branches(schema_at(schema, parts))
        if parts[0] in ("system", "trials", "seed") or not any(
            b.get("type") != "string" or parts[-1] in _CATALOGUE_SLOTS for b in branches
        ):
            raise _not_settable(schema, parts, full)
        out.append((full, value))
    return out


def _not_settable(schema: dict, parts, full: str) -> ScenarioError:
    """The error for a path the explorer may not set, with a did-you-mean where one fits."""
    for depth in range(len(parts), 0, -1):
        branches = schema_at(schema, parts[: depth - 1])
        if schema_at(schema, parts[:depth]) or not branches or isinstance(parts[depth - 1], int):
            continue
        keys = [k for b in branches for k in (b.get("properties") or {})]
        keys += [k for b in branches for k in (b.get("propertyNames") or {}).get("enum", [])]
        where = format_path(parts[: depth - 1]) or "the scenario"
        return ScenarioError(f"no key '{parts[depth - 1]}' in '{where}'", path=full,
                             suggestion=did_you_mean(str(parts[depth - 1]), keys))  # fmt: skip
    return ScenarioError(
        "the explorer sets only numbers, choices, switches and catalogue names", path=full
    )


def parse_query(query: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """A page URL's query as (changes, options): ``_``-prefixed names are options."""
    changes, options = [], {}
    for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if name.startswith("_"):
            options[name[1:]] = value
        else:
            changes.append((name, value))
    return changes, options


def changes_to_query(changes, options=None) -> str:
    """The query text of a change set (values written as YAML scalars) and options."""
    pairs = [(path, _text(value)) for path, value in changes]
    pairs += [(f"_{k}", str(v)) for k, v in (options or {}).items()]
    return urlencode(pairs)


def _text(value) -> str:
    if isinstance(value, str):
        return value
    return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("\n...").strip()


def to_yaml(data: dict, changes, source: str | None) -> str:
    """The changed scenario as YAML, headed by a comment of what changed from where.

    Parameters
    ----------
    data : dict
        The changed scenario data (the base with every change applied).
    changes : list of (str, object)
        The change set.
    source : str, optional
        The base scenario's file.
    """
    head = [f"# Saved by fuzion-sim explore from {source or 'a scenario'}; changed:"]
    head += [f"#   {path}: {_text(value)}" for path, value in changes] or ["#   nothing"]
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return "\n".join(head) + "\n" + body


# -- controls ----------------------------------------------------------------------------------
def _control(schema: dict, data: dict, parts, label: str, catalogue=None) -> dict | None:
    """One control for the value at ``parts``, or None when it holds no number or choice."""
    branches = scalar_branches(schema_at(schema, parts))
    try:
        value = get_path(data, parts)
    except ScenarioError:
        value = None
    if isinstance(value, dict | list):
        return None
    numeric = [b for b in branches if b.get("type") in ("integer", "number")]
    enums = [v for b in branches for v in b.get("enum", [])]
    boolean = any(b.get("type") == "boolean" for b in branches)
    text = any(b.get("type") == "string" for b in branches)
    description = "; ".join(dict.fromkeys(b.get("description", "") for b in branches if
                                          b.get("description")))  # fmt: skip
    ctl = {"path": format_path(parts), "label": label, "value": value,
           "description": description}  # fmt: skip
    if catalogue and text:
        return {**ctl, "kind": "text", "choices": catalogue}
    if len(branches) == 1 and numeric:
        b = numeric[0]
        low = b.get("minimum", b.get("exclusiveMinimum"))
        return {**ctl, "kind": "number", "integer": b.get("type") == "integer",
                "min": low, "max": b.get("maximum")}  # fmt: skip
    if enums and len(branches) == 1:
        return {**ctl, "kind": "choice", "choices": enums}
    if boolean and len(branches) <= 2 and not numeric and not enums:
        return {**ctl, "kind": "bool"}
    if numeric or enums:
        return {**ctl, "kind": "text", "choices": [str(e) for e in enums]}
    return None


def _object_keys(schema: dict, parts) -> list[str]:
    """The fixed keys of the mapping branches at ``parts``."""
    keys: dict[str, None] = {}
    for b in schema_at(schema, parts):
        if b.get("type") == "object" or "properties" in b:
            keys.update(dict.fromkeys(b.get("properties") or {}))
    return list(keys)


def _member_controls(schema, data, prefix, member, catalogues) -> tuple[list, list]:
    """(controls of the keys the member sets, controls of the other keys)."""
    shown, more = [], []
    for key in _object_keys(schema, prefix):
        if key == "name":
            continue
        parts = [*prefix, key]
        present = key in member
        sub = _object_keys(schema, parts)
        value = member.get(key)
        if sub and (isinstance(value, dict) or key in _CATALOGUE_SLOTS or not present):
            ctl = _control(schema, data, parts, key, catalogues.get(key))
            if ctl is not None and not isinstance(value, dict):
                (shown if present else more).append(ctl)
            for inner in sub:
                if inner == "name":
                    continue
                set_here = isinstance(value, dict) and inner in value
                ctl = _control(schema, data, [*parts, inner], f"{key}.{inner}")
                if ctl is not None:
                    (shown if set_here else more).append(ctl)
            if isinstance(value, dict):  # keys of a free mapping (skills) that it sets
                for inner in value:
                    if inner not in sub:
                        ctl = _control(schema, data, [*parts, inner], f"{key}.{inner}")
                        if ctl is not None:
                            shown.append(ctl)
            continue
        if isinstance(value, dict):
            for inner in value:
                ctl = _control(schema, data, [*parts, inner], f"{key}.{inner}")
                if ctl is not None:
                    shown.append(ctl)
            continue
        ctl = _control(schema, data, parts, key, catalogues.get(key))
        if ctl is not None:
            (shown if present else more).append(ctl)
    return shown, more


def build_controls(system, schema: dict, data: dict) -> dict:
    """The explorer's controls for a scenario: rule switches, the envelope's numbers, and
    each member's numbers and choices, grouped by side and member.

    Parameters
    ----------
    system : RuleSystem
        The scenario's rule system (for its catalogues' names).
    schema : dict
        Its JSON Schema.
    data : dict
        The base scenario's data.

    Returns
    -------
    dict
        ``{"groups": [{"title", "side", "controls", "more"}, ...], "hidden_members": n}``;
        a control is ``{"path", "label", "kind" (number, choice, bool, text), "value",
        "description", ...}`` with ``min`` / ``max`` / ``integer`` or ``choices``.
    """
    catalogues = {}
    for slot, kind in _CATALOGUE_SLOTS.items():
        if kind in system.catalogue_kinds:
            names = [str(e.get("name")) for e in system.catalogue(kind) if e.get("name")]
            catalogues[slot] = names
    switches = [c for k in (schema["properties"]["rules"].get("properties") or {})
                if (c := _control(schema, data, ["rules", k], k)) is not None]  # fmt: skip
    set_rules = data.get("rules") or {}
    envelope = [c for k in ("max_rounds",)
                if (c := _control(schema, data, [k], k)) is not None]  # fmt: skip
    groups = [{"title": "Rule switches", "side": None,
               "controls": [c for c in switches if c["label"] in set_rules],
               "more": [c for c in switches if c["label"] not in set_rules]},
              {"title": "Scenario", "side": None, "controls": envelope, "more": []}]  # fmt: skip
    shown = hidden = 0
    for side, members in (data.get("sides") or {}).items():
        prefix = ["sides", side]
        if isinstance(members, dict):
            members, prefix = members.get("members") or [], [*prefix, "members"]
        for i, member in enumerate(members):
            if not isinstance(member, dict):
                continue
            if shown >= MAX_MEMBERS_SHOWN:
                hidden += 1
                continue
            shown += 1
            ctl, more = _member_controls(schema, data, [*prefix, i], member, catalogues)
            title = f"{side} · {member.get('name', f'member {i + 1}')}"
            groups.append({"title": title, "side": side, "controls": ctl, "more": more})
    return {"groups": groups, "hidden_members": hidden}
