"""Validate a scenario's envelope and hand each member to its rule system.

The envelope is every system's: ``name``, ``description``, ``system``, ``trials``, ``seed``,
``max_rounds``, ``rules`` (checked against the system's switches) and ``sides`` (a side is a
list of members, or a mapping of ``members`` and the system's side-wide keys). The members are
the system's own (:meth:`~fuzion_sim.systems.base.RuleSystem.build_member`), built with the
shared checks of :mod:`.checks`, so every error names the file, the line, the key path, the
problem and a did-you-mean alike.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from fuzion_sim.limits import MAX_COMBATANTS, MAX_MAX_ROUNDS, MAX_SEED, MAX_TRIALS

from ..systems import DEFAULT_SYSTEM, get_system, system_names
from .checks import (
    MISSING,
    Context,
    check_bool,
    check_choice,
    check_int,
    check_mapping,
    check_number,
    check_str,
    describe,
    is_int,
    optional,
)
from .model import Rules, Scenario
from .yaml_io import format_path

__all__ = ["TOP_KEYS", "build_rules", "scenario_from_dict"]

#: The envelope's keys.
TOP_KEYS = ("name", "description", "system", "trials", "seed", "max_rounds", "rules", "sides")


def build_rules(ctx: Context, parts: list, value, switches) -> Rules:
    """Validate a ``rules:`` mapping against a system's switches (``{name: Switch}``): every
    key a switch, every value of its kind and within its bounds; unset switches take their
    defaults."""
    values = {key: spec.default for key, spec in switches.items()}
    if value is None:
        return Rules(values=values)
    check_mapping(ctx, parts, value, switches)
    for key, raw in value.items():
        kp = [*parts, key]
        spec = switches[key]
        if raw is None and spec.nullable:
            values[key] = spec.default
        elif isinstance(spec.kind, tuple):
            values[key] = check_choice(ctx, kp, raw, spec.kind)
        elif spec.kind is bool:
            values[key] = check_bool(ctx, kp, raw)
        elif spec.kind is int:
            if spec.nullable and is_int(raw) and spec.low is not None and raw < spec.low:
                raise ctx.fail(kp, f"{key} must be at least {spec.low}, got {raw} (leave it out, "
                                   f"or null, for {spec.unset or 'the default'})")  # fmt: skip
            values[key] = check_int(ctx, kp, raw, minimum=spec.low, label=key, maximum=spec.high)
        elif spec.kind is float:
            values[key] = check_number(
                ctx, kp, raw, minimum=spec.low, maximum=spec.high, positive=spec.positive
            )
        else:  # pragma: no cover - a system's switches use the kinds above
            raise TypeError(f"rule switch {key!r} has an unsupported kind {spec.kind!r}")
    return Rules(values=values)


def _side(ctx: Context, system, side, members) -> tuple[list, list, dict]:
    """A side's key path, its members' list and its side-wide options."""
    sp = ["sides", side]
    if not isinstance(side, str) or not side.strip():
        raise ctx.fail(sp, f"a side name must be a non-empty string, got {describe(side)}")
    options: dict = {}
    if isinstance(members, dict):  # {members: [...], <side-wide keys>}
        check_mapping(ctx, sp, members, ("members", *system.side_keys), required=("members",))
        options = system.build_side_options(ctx, sp, members)
        sp = [*sp, "members"]
        members = members["members"]
    if not members:
        raise ctx.fail(sp, f"side '{side}' has no combatants")
    if not isinstance(members, list):
        raise ctx.fail(sp, f"expected a list of combatants, got {describe(members)}")
    return sp, members, options


def scenario_from_dict(
    data: Any, source: str | None = None, lines: dict[str, int] | None = None
) -> Scenario:
    """Validate a scenario given as plain data and build a :class:`Scenario`.

    Parameters
    ----------
    data : dict
        The scenario as read from YAML (top-level keys :data:`TOP_KEYS`).
    source : str, optional
        The file it came from; used in messages and as the default name (its stem).
    lines : dict of str to int, optional
        Key path -> 1-based line number (from :func:`~fuzion_sim.scenario.read_yaml`).

    Returns
    -------
    Scenario
        With every default filled in; ``data`` is a deep copy of the input and ``warnings``
        lists problems that do not stop a run.

    Raises
    ------
    ScenarioError
        For the first problem found, naming the file, line, key path, problem and, for a
        misspelt name, the closest valid one.
    """
    ctx = Context(source, lines)
    if not isinstance(data, dict):
        raise ctx.fail([], f"a scenario must be a mapping of keys, got {describe(data)}")
    scene_keys = _scene_keys(data)
    check_mapping(ctx, [], data, (*TOP_KEYS, *scene_keys), required=("sides",))

    name = optional(data, "name")
    name = (Path(source).stem if source else "scenario") if name is MISSING else check_str(
        ctx, ["name"], name)  # fmt: skip
    description = optional(data, "description")
    if description is not MISSING and not isinstance(description, str):
        raise ctx.fail(["description"], f"expected a string, got {describe(description)}")
    system_name = optional(data, "system")
    system_name = DEFAULT_SYSTEM if system_name is MISSING else check_choice(
        ctx, ["system"], system_name, system_names(), "system")  # fmt: skip
    system = get_system(system_name)
    trials = data.get("trials")
    trials = 100_000 if trials is None else check_int(ctx, ["trials"], trials, 1, "trials",
                                                      MAX_TRIALS)  # fmt: skip
    seed = data.get("seed")
    seed = 0 if seed is None else check_int(ctx, ["seed"], seed, 0, "seed", MAX_SEED)
    max_rounds = data.get("max_rounds")
    max_rounds = (
        50 if max_rounds is None
        else check_int(ctx, ["max_rounds"], max_rounds, 1, "max_rounds", MAX_MAX_ROUNDS)
    )  # fmt: skip
    rules = build_rules(ctx, ["rules"], data.get("rules"), system.switches)

    raw_sides = data["sides"]
    if raw_sides is None:
        raw_sides = {}
    if not isinstance(raw_sides, dict):
        raise ctx.fail(
            ["sides"], f"expected a mapping of side name to combatants, got {describe(raw_sides)}"
        )
    if len(raw_sides) < 2:
        raise ctx.fail(["sides"], f"a scenario needs at least two sides, got {len(raw_sides)}")
    sides: dict[str, tuple] = {}
    first_seen: dict[str, str] = {}
    total = 0
    expanded = 0  # the combatants built (a vehicle member is its crew too)
    for side, raw in raw_sides.items():
        sp, members, options = _side(ctx, system, side, raw)
        total += len(members)
        if total > MAX_COMBATANTS:
            raise ctx.fail(sp, f"more than {MAX_COMBATANTS} combatants in the scenario "
                               f"(allowed: 1 to {MAX_COMBATANTS})")  # fmt: skip
        built = []
        for index, value in enumerate(members):
            # a system may build one entry as several combatants (a vehicle and its crew)
            made = system.build_member(ctx, [*sp, index], value, side, options)
            for member in made if isinstance(made, tuple) else (made,):
                if member.name in first_seen:
                    raise ctx.fail(
                        [*sp, index, "name"],
                        f"duplicate combatant name '{member.name}' (also at "
                        f"{first_seen[member.name]})",
                    )
                first_seen[member.name] = format_path([*sp, index])
                built.append(member)
        expanded += len(built)
        if expanded > MAX_COMBATANTS:
            raise ctx.fail(sp, f"more than {MAX_COMBATANTS} combatants in the scenario "
                               f"(allowed: 1 to {MAX_COMBATANTS})")  # fmt: skip
        sides[side] = tuple(built)
    system.check_scenario(ctx, rules, sides)
    scene = system.build_scene(ctx, data, rules, sides)
    return Scenario(
        name=name,
        system=system_name,
        trials=trials,
        seed=seed,
        max_rounds=max_rounds,
        rules=rules,
        sides=sides,
        data=copy.deepcopy(data),
        source=source,
        warnings=tuple(ctx.warnings),
        description="" if description is MISSING else description,
        scene=scene,
    )


def _scene_keys(data: dict) -> tuple[str, ...]:
    """The top-level keys the scenario's system adds (``RuleSystem.scene_keys``: Fuzion's
    obstacles, drops and hazards), or none when the system is unknown (the ``system`` check
    then names the problem)."""
    name = data.get("system") or DEFAULT_SYSTEM
    if not isinstance(name, str) or name not in system_names():
        return ()
    return tuple(get_system(name).scene_keys)
