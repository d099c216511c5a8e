"""Validate a scenario's envelope and hand each member to its rule system.

The envelope is every system's: ``name``, ``description``, ``system``, ``trials``, ``seed``,
``max_rounds``, ``rules`` (checked against the system's switches) and ``sides`` (a side is a
list of members, or a mapping of ``members`` and the system's side-wide keys). The members are
the system's own (:meth:`~fuzion_sim.systems.base.RuleSystem.build_member`), built with the
shared checks of :mod:`fuzion_sim.validation.checks`, so every error names the file, the line,
the key path, the problem and a did-you-mean alike. The system comes from the registry, so
this module sits above the systems, and the checks below them.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from fuzion_sim.errors import MAX_PROBLEMS
from fuzion_sim.limits import MAX_COMBATANTS, MAX_MAX_ROUNDS, MAX_SEED, MAX_TRIALS

from ..systems import DEFAULT_SYSTEM, get_system, system_names
from ..validation.checks import (
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
from ..validation.keypath import format_path
from ..validation.model import Rules, Scenario
from .keys import cross_system_hint, find_nulls, null_error, system_schema
from .paths import apply_overrides

__all__ = ["TOP_KEYS", "build_rules", "scenario_from_dict"]

#: The envelope's keys.
TOP_KEYS = ("name", "description", "system", "trials", "seed", "max_rounds", "rules", "sides")


def build_rules(ctx: Context, parts: list, value, switches) -> Rules:
    """Validate a ``rules:`` mapping against a system's switches (``{name: Switch}``): every
    key a switch, every value of its kind and within its bounds; unset switches take their
    defaults. Every bad switch is reported at once (one :class:`ScenarioError`)."""
    values = {key: spec.default for key, spec in switches.items()}
    if value is None:
        return Rules(values=values)
    inner = Context(ctx.source, ctx.lines, ctx.origins, ctx.system, ctx.key_hint)
    known = value
    if inner.attempt(check_mapping, inner, parts, value, switches) is MISSING:
        if not isinstance(value, dict):
            inner.raise_problems()
        known = {k: v for k, v in value.items() if k in switches}
    for key, raw in known.items():
        got = inner.attempt(_switch, inner, [*parts, key], key, raw, switches[key])
        if got is not MISSING:
            values[key] = got
    inner.raise_problems()
    return Rules(values=values)


def _switch(ctx: Context, kp: list, key: str, raw, spec):
    """One rule switch's value, checked against its spec."""
    if raw is None and spec.nullable:
        return spec.default
    if isinstance(spec.kind, tuple):
        return check_choice(ctx, kp, raw, spec.kind)
    if spec.kind is bool:
        return check_bool(ctx, kp, raw)
    if spec.kind is int:
        if spec.nullable and is_int(raw) and spec.low is not None and raw < spec.low:
            raise ctx.fail(kp, f"{key} must be at least {spec.low}, got {raw} (leave it out, "
                               f"or null, for {spec.unset or 'the default'})")  # fmt: skip
        return check_int(ctx, kp, raw, minimum=spec.low, label=key, maximum=spec.high)
    if spec.kind is float:
        return check_number(ctx, kp, raw, minimum=spec.low, maximum=spec.high,
                            positive=spec.positive)  # fmt: skip
    raise TypeError(  # pragma: no cover - a system's switches use the kinds above
        f"rule switch {key!r} has an unsupported kind {spec.kind!r}")


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


def _opt(ctx: Context, data: dict, key: str, check, default):
    """An optional top-level value: ``default`` when absent, else ``check(value)``; a bad
    value is recorded (see :meth:`Context.attempt`) and the default stands in."""
    raw = data.get(key)
    if raw is None:
        return default
    got = ctx.attempt(check, raw)
    return default if got is MISSING else got


def scenario_from_dict(
    data: Any,
    source: str | None = None,
    lines: dict[str, int] | None = None,
    overrides=None,
    option: str | None = None,
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
    overrides : iterable of (str, Any), optional
        ``(key_path, value)`` pairs applied first (:func:`~fuzion_sim.scenario.paths.
        apply_overrides`); a problem in an overridden value names the override, not a line.
    option : str, optional
        The option the overrides came from (``"--set"``, ``"--vary"``), for messages.

    Returns
    -------
    Scenario
        With every default filled in; ``data`` is a deep copy of the input (after the
        overrides) and ``warnings`` lists problems that do not stop a run.

    Raises
    ------
    ScenarioError
        Naming the file, line (or override), key path, problem and, for a misspelt name, the
        closest valid one: every independent problem found (each top-level key, each rule
        switch, each side and member, each key written with no value), up to
        :data:`~fuzion_sim.errors.MAX_PROBLEMS`, in one error.
    """
    origins: dict[str, str] = {}
    if overrides:
        data, origins = apply_overrides(data, overrides, option=option, source=source)
    ctx = Context(source, lines, origins, key_hint=cross_system_hint)
    if not isinstance(data, dict):
        raise ctx.fail([], f"a scenario must be a mapping of keys, got {describe(data)}")
    system_name = data.get("system")
    system_name = DEFAULT_SYSTEM if system_name is None else system_name
    if isinstance(system_name, str) and system_name in system_names():
        ctx.system = system_name
        _check_nulls(ctx, data, system_name)
    scene_keys = _scene_keys(data)
    if ctx.attempt(check_mapping, ctx, [], data, (*TOP_KEYS, *scene_keys)) is MISSING:
        data_known = {k: v for k, v in data.items() if k in (*TOP_KEYS, *scene_keys)}
    else:
        data_known = data

    name = _opt(ctx, data_known, "name", lambda v: check_str(ctx, ["name"], v),
                Path(source).stem if source else "scenario")  # fmt: skip
    description = _opt(ctx, data_known, "description", lambda v: _description(ctx, v), "")
    system_name = optional(data_known, "system")
    system_name = DEFAULT_SYSTEM if system_name is MISSING else ctx.attempt(
        check_choice, ctx, ["system"], system_name, system_names(), "system")  # fmt: skip
    if system_name is MISSING:  # the members cannot be read without their system
        ctx.raise_problems()
    system = get_system(system_name)
    trials = _opt(ctx, data_known, "trials",
                  lambda v: check_int(ctx, ["trials"], v, 1, "trials", MAX_TRIALS), 100_000)
    seed = _opt(ctx, data_known, "seed",
                lambda v: check_int(ctx, ["seed"], v, 0, "seed", MAX_SEED), 0)
    max_rounds = _opt(ctx, data_known, "max_rounds",
                      lambda v: check_int(ctx, ["max_rounds"], v, 1, "max_rounds", MAX_MAX_ROUNDS),
                      50)  # fmt: skip
    rules = ctx.attempt(build_rules, ctx, ["rules"], data_known.get("rules"), system.switches)
    if rules is MISSING:
        rules = build_rules(ctx, ["rules"], None, system.switches)

    if "sides" not in data:
        ctx.add(ctx.fail([], "missing key 'sides'"))
        ctx.raise_problems()
    sides = ctx.attempt(_build_sides, ctx, system, data["sides"])
    ctx.raise_problems()
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
        description=description,
        scene=scene,
    )


def _description(ctx: Context, value) -> str:
    if not isinstance(value, str):
        raise ctx.fail(["description"], f"expected a string, got {describe(value)}")
    return value


def _check_nulls(ctx: Context, data: dict, system_name: str) -> None:
    """Record every key written with no value that the system's schema gives no meaning."""
    found, more = find_nulls(data, system_schema(system_name), MAX_PROBLEMS)
    for parts, key in found:
        ctx.add_null(null_error(ctx, parts, key))
    ctx.omitted += more


def _build_sides(ctx: Context, system, raw_sides) -> dict[str, tuple]:
    """Every side's members, built; each side's and each member's first problem recorded."""
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
        got = ctx.attempt(_side, ctx, system, side, raw)
        if got is MISSING:
            continue
        sp, members, options = got
        total += len(members)
        if total > MAX_COMBATANTS:
            raise ctx.fail(sp, f"more than {MAX_COMBATANTS} combatants in the scenario "
                               f"(allowed: 1 to {MAX_COMBATANTS})")  # fmt: skip
        built = []
        for index, value in enumerate(members):
            # a system may build one entry as several combatants (a vehicle and its crew)
            made = ctx.attempt(system.build_member, ctx, [*sp, index], value, side, options)
            if made is MISSING:
                continue
            for member in made if isinstance(made, tuple) else (made,):
                if member.name in first_seen:
                    ctx.add(ctx.fail(
                        [*sp, index, "name"],
                        f"duplicate combatant name '{member.name}' (also at "
                        f"{first_seen[member.name]})",
                    ))  # fmt: skip
                    continue
                first_seen[member.name] = format_path([*sp, index])
                built.append(member)
        expanded += len(built)
        if expanded > MAX_COMBATANTS:
            raise ctx.fail(sp, f"more than {MAX_COMBATANTS} combatants in the scenario "
                               f"(allowed: 1 to {MAX_COMBATANTS})")  # fmt: skip
        sides[side] = tuple(built)
    return sides


def _scene_keys(data: dict) -> tuple[str, ...]:
    """The top-level keys the scenario's system adds (``RuleSystem.scene_keys``: Fuzion's
    obstacles, drops and hazards), or none when the system is unknown (the ``system`` check
    then names the problem)."""
    name = data.get("system") or DEFAULT_SYSTEM
    if not isinstance(name, str) or name not in system_names():
        return ()
    return tuple(get_system(name).scene_keys)
