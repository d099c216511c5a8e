"""What a system's JSON Schema says about the keys at a place in a scenario: which keys a
mapping there may hold, and whether a key written with no value (null) means something.

The schema (:func:`~fuzion_sim.scenario.schema.scenario_schema`) is the one description of
every key a system reads, so two rules that hold in every system are read from it:

- a key written with no value (``pd:``) is an error naming the key, unless the schema lists
  null among the key's values (Fuzion's ``weapon: null``, a nullable rule switch): otherwise
  the builders would take the empty key as absent and silently use the default;
- an unknown key that another registered system uses at the same place is named as that
  system's, with this system's equivalent where there is an obvious one (``stats`` /
  ``abilities``, ``armor`` / ``armour``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from fuzion_sim.errors import ScenarioError, shorten

from ..systems import get_system, system_names

__all__ = [
    "EQUIVALENT_KEYS",
    "cross_system_hint",
    "find_nulls",
    "keys_at",
    "null_error",
    "system_schema",
]

#: Keys that name the same thing in different systems: an unknown key of one group is
#: answered with the group's key that the place allows.
EQUIVALENT_KEYS: tuple[frozenset, ...] = (
    frozenset({"stats", "abilities"}),
    frozenset({"armor", "armour"}),
    frozenset({"natural_armor", "natural_armour"}),
    frozenset({"tactics", "tactic"}),
)


@functools.lru_cache(maxsize=16)
def system_schema(name: str) -> dict:
    """The JSON Schema of a registered system's scenario files (built once a process)."""
    from .schema import scenario_schema  # (the schema reads the envelope, which imports this)

    return scenario_schema(get_system(name))


def _alternatives(schema) -> Iterator[dict]:
    """``schema`` and every schema of its ``oneOf`` / ``anyOf`` / ``allOf``, flattened."""
    if not isinstance(schema, dict):
        return
    yield schema
    for word in ("oneOf", "anyOf", "allOf"):
        for alt in schema.get(word, ()):
            yield from _alternatives(alt)


def _child(schemas: list[dict], key) -> list[dict]:
    """The schemas of ``key`` (a mapping key or a list index) under any of ``schemas``."""
    out = []
    for schema in schemas:
        for alt in _alternatives(schema):
            if isinstance(key, int) and not isinstance(key, bool):
                if isinstance(alt.get("items"), dict):
                    out.append(alt["items"])
                continue
            props = alt.get("properties", {})
            if key in props:
                out.append(props[key])
            elif isinstance(alt.get("additionalProperties"), dict) and (
                "properties" in alt or alt.get("type") == "object"
            ):
                out.append(alt["additionalProperties"])
    return out


def _at(schema: dict, parts) -> list[dict]:
    schemas = [schema]
    for part in parts:
        schemas = _child(schemas, part)
        if not schemas:
            break
    return schemas


def keys_at(schema: dict, parts) -> set[str]:
    """The keys named (``properties``) by any mapping the schema allows at ``parts``."""
    out: set[str] = set()
    for sub in _at(schema, parts):
        for alt in _alternatives(sub):
            out.update(alt.get("properties", {}))
    return out


def _null_allowed(schemas: list[dict]) -> bool:
    for schema in schemas:
        for alt in _alternatives(schema):
            kind = alt.get("type")
            if kind == "null" or (isinstance(kind, list) and "null" in kind) or alt == {}:
                return True
            if alt.get("const", 0) is None or None in alt.get("enum", ()):
                return True
    return False


def find_nulls(data, schema: dict, limit: int) -> tuple[list[tuple[list, str]], int]:
    """The keys written with no value where the schema does not list null among their values.

    A key the schema does not know is left to the builders (they name it unknown).

    Parameters
    ----------
    data : object
        The scenario data.
    schema : dict
        The system's scenario schema (:func:`system_schema`).
    limit : int
        Most keys to return; the rest are counted.

    Returns
    -------
    found : list of (key path parts, key)
    more : int
        Keys past ``limit``.
    """
    found: list[tuple[list, str]] = []
    more = 0
    stack = [(data, [schema], [])]
    while stack:
        node, schemas, parts = stack.pop()
        if isinstance(node, dict):
            items = list(node.items())
        elif isinstance(node, list):
            items = list(enumerate(node))
        else:
            continue
        for key, value in reversed(items):
            sub = _child(schemas, key)
            if not sub:
                continue
            if value is None and not isinstance(node, list):
                if _null_allowed(sub):
                    continue
                if len(found) < limit:
                    found.append(([*parts, key], str(key)))
                else:
                    more += 1
            else:
                stack.append((value, sub, [*parts, key]))
    found.reverse()
    return found, more


def null_error(ctx, parts: list, key: str) -> ScenarioError:
    """``'pd' has no value``: the error for a key written empty."""
    return ctx.fail(
        parts, f"'{shorten(key)}' has no value (write one, or leave the key out for its default)"
    )


def cross_system_hint(system: str | None, parts, key, allowed) -> tuple[str, str | None]:
    """What to add to ``unknown key 'KEY'`` when another system uses the key here.

    Parameters
    ----------
    system : str or None
        The scenario's system (None: no hint).
    parts : sequence
        The key path of the mapping holding the key.
    key : object
        The unknown key.
    allowed : iterable of str
        The keys this system allows there.

    Returns
    -------
    (str, str or None)
        Text for the message (``""`` when no other system uses the key here) and this
        system's equivalent key, if there is an obvious one (for the did-you-mean):
        ``unknown key 'stats' (that is fuzion's name); did you mean 'abilities'?``.
    """
    if system is None or not isinstance(key, str):
        return "", None
    allowed = set(allowed)
    try:
        others = [name for name in system_names() if name != system
                  and key in keys_at(system_schema(name), parts)]  # fmt: skip
    except Exception:  # pragma: no cover - a house system's schema that cannot be built
        return "", None
    equivalent = next((k for group in EQUIVALENT_KEYS if key in group
                       for k in sorted(group - {key}) if k in allowed), None)  # fmt: skip
    if not others:
        return "", equivalent
    users = " and ".join(f"{name}'s" for name in others)
    if equivalent:  # the did-you-mean names it
        return f" (that is {users} name)", equivalent
    return f" (a key of {' and '.join(others)}; {system} does not read it)", None

