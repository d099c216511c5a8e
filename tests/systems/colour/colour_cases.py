"""Small builders for the colour system's tests: members and duels as plain dicts, their
scenarios, plans and exact attacks."""

from __future__ import annotations

import copy
from pathlib import Path

from fuzion_sim.scenario import load_scenario, scenario_from_dict
from fuzion_sim.systems.colour import exact
from fuzion_sim.systems.colour.compile import compile_plan

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios" / "colour"

TYPICAL = {"Fighting": "Typical", "Agility": "Typical", "Strength": "Typical",
           "Endurance": "Typical"}  # fmt: skip


def member(name, **keys) -> dict:
    """A member mapping: Typical abilities unless ``abilities`` says, and the other keys."""
    out = {"name": name, "abilities": dict(TYPICAL)}
    abilities = keys.pop("abilities", {})
    out["abilities"].update(abilities)
    out.update(keys)
    return out


def duel(a: dict, b: dict, rules: dict | None = None, **top) -> dict:
    """A one-against-one colour scenario as data."""
    data = {"name": "test duel", "system": "colour", "trials": 10000, "seed": 7,
            "sides": {"a": [copy.deepcopy(a)], "b": [copy.deepcopy(b)]}}  # fmt: skip
    if rules:
        data["rules"] = dict(rules)
    data.update(top)
    return data


def fight(sides: dict, rules: dict | None = None, **top) -> dict:
    """A colour scenario of any sides (``{side: [member, ...]}``) as data."""
    data = {"name": "test fight", "system": "colour", "trials": 10000, "seed": 7,
            "sides": copy.deepcopy(sides)}  # fmt: skip
    if rules:
        data["rules"] = dict(rules)
    data.update(top)
    return data


def scenario(data: dict):
    return scenario_from_dict(copy.deepcopy(data))


def shipped(name: str):
    """A scenario of ``scenarios/colour``."""
    return load_scenario(SCENARIOS / name)


def attack(data_or_scenario, a: int = 0, t: int = 1, j: int = 0):
    """The exact distribution of member ``a``'s action ``j`` on member ``t``."""
    sc = data_or_scenario if not isinstance(data_or_scenario, dict) else scenario(data_or_scenario)
    return exact.attack_distribution(compile_plan(sc), a, t, j)


def pmf_dict(dist, digits: int = 4) -> dict:
    """A damage pmf as ``{damage: p}`` rounded, without the zeros."""
    return {d: round(float(p), digits) for d, p in enumerate(dist.damage) if round(p, digits)}
