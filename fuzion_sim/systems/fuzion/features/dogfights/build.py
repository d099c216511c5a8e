"""Dogfights at compile time (M-53 to M-58; VA-32 to VA-34): the Advantage chart
(``data/dogfight.yaml``, not from the seed), the checks of the ``dogfight`` and ``break_off``
actions, and the plan's arrays for the kernel's dogfight room (``dogfights.room.Dogfight``).

Who may dogfight (M-58, "an aerial or space dogfight"): a flying vehicle, a vehicle of class
``aircraft`` or with ``locomotion: air`` (a flying mecha); the project has no spacecraft class.
A tactic of anyone else that names ``dogfight`` or ``break_off`` is an error at load (a person,
a ground vehicle, a boat, a walking mecha, a crew member riding: the vehicle's tactics fly it).
At run time a ``dogfight`` at a target that is not a flying vehicle with a pilot is idle (a
combatant's target can be anyone its targeting rule picks).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import NamedTuple

import numpy as np
import yaml

from ... import tactics
from ...codes import (
    DO_ADV_MIN,
    DO_ON,
    DO_TAIL_BONUS,
    DO_TAIL_MIN,
    DOGFIGHT_OPTIONS,
)

__all__ = [
    "DF_FIELDS", "DOGFIGHT_ACTIONS", "Chart", "chart", "check_dogfight_tactics", "dogfight_arrays",
    "flying",
]  # fmt: skip

#: The actions of the dogfight room.
DOGFIGHT_ACTIONS = ("dogfight", "break_off")
#: The plan's fields of the dogfight room (``compile.Plan``), in its order.
DF_FIELDS = ("df_opts", "df_fly", "df_skill", "df_intel")


class Chart(NamedTuple):
    """The Advantage chart (VA-32): the margin from which the winner has the Advantage, from
    which it is tailing, and the tailing winner's attack bonus."""

    adv_min: int
    tail_min: int
    tail_bonus: int


@cache
def chart() -> Chart:
    """``data/dogfight.yaml``'s chart (not from the seed)."""
    text = resources.files("fuzion_sim.systems.fuzion.data").joinpath("dogfight.yaml").read_text()
    rows = {r["position"]: r for r in yaml.safe_load(text)["chart"]}
    return Chart(int(rows["advantage"]["margin"]), int(rows["tailing"]["margin"]),
                 int(rows["tailing"].get("attack_bonus", 0)))  # fmt: skip


def flying(vehicle) -> bool:
    """Whether a vehicle may dogfight (M-58): class aircraft, or locomotion air."""
    return vehicle is not None and (vehicle.kind == "aircraft" or vehicle.locomotion == "air")


def check_dogfight_tactics(ctx, parts, value, why: str | None) -> None:
    """Raise the loader's error at the first rule of the tactics ``value`` (a member's raw
    ``tactics:``, at key path ``parts``) that names ``dogfight`` or ``break_off``, when ``why``
    says the member cannot (None: it may)."""
    if why is None or value is None:
        return
    rules = tactics.validate_tactics(value, parts, ctx.fail)
    for index, rule in enumerate(rules):
        if rule["do"] in DOGFIGHT_ACTIONS:
            where = [*parts, index, "do"] if isinstance(value, list) else list(parts)
            raise ctx.fail(where, f"'{rule['do']}' needs a flying vehicle (class aircraft, or "
                                  f"locomotion air; M-58): {why}")  # fmt: skip


def _uses_dogfight(fighters) -> bool:
    return any(r["do"] == "dogfight" for c in fighters for r in (c.tactics or ()))


def dogfight_arrays(fighters, rules) -> dict[str, np.ndarray]:
    """The plan's dogfight fields (:data:`DF_FIELDS`): the switches and the chart
    (``df_opts``), and per combatant 1 for a flying vehicle with a pilot (``df_fly``), its
    pilot's control skill + its Maneuver Value (``df_skill``; the pilot's REF is read in the
    fight, wounds and all) and its pilot's INT + Perception (``df_intel``, the intercept)."""
    n = len(fighters)
    by_name = {c.name: c for c in fighters}
    fly = np.zeros(n, np.int64)
    skill = np.zeros(n, np.int64)
    intel = np.zeros(n, np.int64)
    for i, c in enumerate(fighters):
        vehicle = getattr(c, "vehicle", None)
        pilot = by_name.get(vehicle.pilot) if vehicle is not None and vehicle.pilot else None
        if not flying(vehicle) or pilot is None:
            continue
        fly[i] = 1
        skill[i] = pilot.skill(vehicle.control_skill) + int(vehicle.maneuver)
        intel[i] = int(pilot.stats["INT"]) + pilot.skill("Perception")
    ch = chart()
    from ...compile import switch_slots

    opts = switch_slots("df_opts", DOGFIGHT_OPTIONS, rules)
    opts[DO_ON] = _uses_dogfight(fighters)
    opts[DO_ADV_MIN] = ch.adv_min
    opts[DO_TAIL_MIN] = ch.tail_min
    opts[DO_TAIL_BONUS] = ch.tail_bonus
    return {"df_opts": opts, "df_fly": fly, "df_skill": skill, "df_intel": intel}
