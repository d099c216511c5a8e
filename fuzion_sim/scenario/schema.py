"""The JSON Schema of a rule system's scenario files (``fuzion-sim schema --system NAME``).

The envelope is every system's; the rule switches and the member mapping are the system's
(:attr:`~fuzion_sim.systems.base.RuleSystem.switches`,
:meth:`~fuzion_sim.systems.base.RuleSystem.member_schema`). Editors with yaml-language-server
complete and check a scenario whose first line is
``# yaml-language-server: $schema=<path to the schema>``; the loader stays the judge.
"""

from __future__ import annotations

from fuzion_sim.limits import MAX_COMBATANTS, MAX_MAX_ROUNDS, MAX_SEED, MAX_TRIALS

from .envelope import TOP_KEYS

__all__ = ["SCHEMA_DRAFT", "scenario_schema", "switch_schema"]

SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def switch_schema(spec) -> dict:
    """A rule switch (:class:`~fuzion_sim.systems.base.Switch`) as a JSON Schema."""
    text = f"{spec.label} ({spec.ruling}; default {spec.default!r})"
    if isinstance(spec.kind, tuple):
        out = {"enum": list(spec.kind)}
    elif spec.kind is bool:
        out = {"type": "boolean"}
    else:
        out = {"type": "integer" if spec.kind is int else "number"}
        if spec.positive:
            out["exclusiveMinimum"] = 0
        elif spec.low is not None:
            out["minimum"] = spec.low
        if spec.high is not None:
            out["maximum"] = spec.high
    if spec.nullable:
        out = {"oneOf": [out, {"type": "null"}]}
    # the default, so that an editor can insert it (a nullable switch's default is unset)
    default = None if spec.nullable else spec.default
    return {**out, "description": text, **({} if default is None else {"default": default})}


def scenario_schema(system) -> dict:
    """The JSON Schema of a scenario of ``system`` (a RuleSystem)."""
    member = system.member_schema()
    side_options = system.side_option_schema()
    side = {
        "oneOf": [
            {"type": "array", "items": member, "minItems": 1},
            {"type": "object", "properties": {"members": {"type": "array", "items": member,
                                                         "minItems": 1}, **side_options},
             "required": ["members"], "additionalProperties": False},
        ],
        "description": "the side's members, or a mapping of its members and side-wide keys",
    }  # fmt: skip
    props = {
        "name": {"type": "string", "description": "the scenario's name (default: the file's)"},
        "description": {"type": "string", "description": "what the scenario is for"},
        "system": {"const": system.name, "description": f"the rule system: {system.title}"},
        "trials": {"type": "integer", "minimum": 1, "maximum": MAX_TRIALS, "default": 100_000,
                   "description": "trials (default 100,000)"},
        "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED, "default": 0,
                 "description": "the root seed (default 0)"},
        "max_rounds": {"type": "integer", "minimum": 1, "maximum": MAX_MAX_ROUNDS,
                       "default": 50,
                       "description": "rounds a fight may last (default 50)"},
        "rules": {"type": "object", "description": "rule switches, each with a default",
                  "properties": {k: switch_schema(v) for k, v in system.switches.items()},
                  "additionalProperties": False},
        "sides": {"type": "object", "minProperties": 2, "additionalProperties": side,
                  "description": f"two or more sides (at most {MAX_COMBATANTS} members)"},
    }  # fmt: skip
    assert set(props) == set(TOP_KEYS), set(props) ^ set(TOP_KEYS)
    props.update(system.scene_schema())  # its own top-level keys (Fuzion's obstacles, hazards)
    return {
        "$schema": SCHEMA_DRAFT,
        "$id": f"https://fuzion-sim.invalid/schemas/{system.name}.schema.json",
        "title": f"fuzion_sim scenario: {system.title}",
        "type": "object",
        "properties": props,
        "required": ["sides"],
        "additionalProperties": False,
    }
