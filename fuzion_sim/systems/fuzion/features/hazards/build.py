"""The environment (seed 000 "THE ENVIRONMENT", M-67 to M-71; rulings VA-46 to VA-48): the
scenario's ``hazards:`` zones and a combatant's ``poison:`` and ``resting:``, validated, and
the arrays the kernel's hazard room (``features/hazards/room.py``) reads.

A hazard is a zone on the map::

    hazards:
      - {name: Gasoline fire, kind: fire, dc: 7, circle: {center: [12, 0], radius: 4}}
      - {name: Burning crates, kind: fire, intensity: mild, rect: {from: [18, -6], to: [24, -2]}}
      - {name: Smoke, kind: smoke, obscures: true, asphyxiating: true,
         rect: {from: [6, 6], to: [30, 14]}}

``kind`` is ``fire``, ``electricity``, ``smoke`` or ``poison``. Fire and electricity do their DC
in dice at the end of every phase a person ends inside (VA-46: killing, collateral Stun, against
EKD; ``rules.hazard_armour``, ``electricity_damage``, ``hazard_timing``). ``dc`` or
``intensity`` (fire and electricity: mild 2, intense 7, deadly 15; poison: mild 2, strong 7,
powerful 15; VA-46, not from the seed) gives the dice. A poison zone (gas) doses whoever ends a
phase in it; the dose does its DC in dice to Hits, no armour, every minute (20 phases) or every
phase (``rules.poison_timing``, VA-48) for the rest of the fight. ``obscures: true`` makes the
zone's inside obscured (the F11 Perception roll each phase); ``asphyxiating: true`` makes its
air unbreathable (VA-47: breath END / 4 phases, END / 2 with ``resting: true``, then 3d6 a
phase to Hits, no armour). Hazards reach people: a vehicle, an object and the crew riding in a
vehicle are not hurt by them (a decision; the rulings are silent).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .....validation.checks import (
    Context,
    check_bool,
    check_choice,
    check_int,
    check_mapping,
    check_number,
    check_str,
    describe,
)

__all__ = [
    "HAZARD_KEYS",
    "HAZARD_KINDS",
    "INTENSITY_DC",
    "MAX_HAZARDS",
    "POISON_KEYS",
    "POISON_POOLS",
    "Hazard",
    "Poison",
    "breath_phases",
    "build_hazards",
    "contains",
    "hazard_arrays",
    "member_environment",
]

#: The kinds of zone, in code order (``hazards.room.HZ_*``).
HAZARD_KINDS = ("fire", "electricity", "smoke", "poison")
#: Every key a hazard may have.
HAZARD_KEYS = ("name", "kind", "dc", "intensity", "circle", "rect", "obscures", "asphyxiating",
               "terrain")  # fmt: skip
CIRCLE_KEYS = ("center", "radius")
RECT_KEYS = ("from", "to")
#: Keys of a combatant's ``poison:``.
POISON_KEYS = ("name", "dc", "intensity", "pool")
#: The pools a poison or drug takes its damage from (VA-48); ``res`` is not built.
POISON_POOLS = ("hits", "stun")
#: VA-46: the DC of an intensity band (the band's middle, rounded down) **[not from the seed]**:
#: fire and electricity (M-68), and poisons and drugs (M-69).
INTENSITY_DC = {
    "fire": {"mild": 2, "intense": 7, "deadly": 15},
    "electricity": {"mild": 2, "intense": 7, "deadly": 15},
    "poison": {"mild": 2, "strong": 7, "powerful": 15},
}
#: END a phase for each extra STR level a push calls on (M-75).
PUSH_END = 5
#: Most zones in a scenario (the kernel keeps a bit per zone).
MAX_HAZARDS = 60
MAX_DC = 60
_METRES = 100_000.0


@dataclass(frozen=True)
class Hazard:
    """One zone: ``shape`` is ``circle`` (``geom`` = centre x, y, radius, 0) or ``rect``
    (``geom`` = x0, y0, x1, y1 with x0 <= x1, y0 <= y1); ``dc`` 0 for smoke."""

    name: str
    kind: str
    dc: int
    shape: str
    geom: tuple[float, float, float, float]
    obscures: bool = False
    asphyxiating: bool = False


@dataclass(frozen=True)
class Poison:
    """A poison or drug in a combatant's blood from the fight's start (VA-48): DC dice to
    ``pool`` every minute (or every phase)."""

    dc: int
    pool: str = "hits"
    name: str = "poison"


def contains(h: Hazard, x: float, y: float) -> bool:
    """Whether the point (x, y) is inside zone ``h`` (its edge counts as inside)."""
    a, b, c, d = h.geom
    if h.shape == "circle":
        return (x - a) ** 2 + (y - b) ** 2 <= c * c
    return a <= x <= c and b <= y <= d


def breath_phases(combatant) -> int:
    """M-71, VA-47: the phases ``combatant`` holds its breath, floor(END / 4) active or
    floor(END / 2) resting (END = CON x 10 unless given, F5)."""
    end = _end(combatant)
    return end // 2 if getattr(combatant, "resting", False) else end // 4


def _point(ctx: Context, parts, value) -> tuple[float, float]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ctx.fail(parts, f"expected a point [x, y] in metres, got {describe(value)}")
    return tuple(check_number(ctx, [*parts, i], v, -_METRES, _METRES)
                 for i, v in enumerate(value))  # fmt: skip


def _dc(ctx: Context, parts, value: dict, kind: str, what: str) -> int:
    """The DC from ``dc`` or ``intensity`` (exactly one)."""
    if "dc" in value and "intensity" in value:
        raise ctx.fail([*parts, "intensity"], f"give dc or intensity for {what}, not both")
    if "dc" in value:
        return check_int(ctx, [*parts, "dc"], value["dc"], 1, "dc", MAX_DC)
    if "intensity" in value:
        bands = INTENSITY_DC[kind]
        band = check_choice(ctx, [*parts, "intensity"], value["intensity"], tuple(bands),
                            "intensity")  # fmt: skip
        return bands[band]
    raise ctx.fail(parts, f"{what} needs dc: N or intensity: "
                          f"{' | '.join(INTENSITY_DC[kind])} (VA-46)")  # fmt: skip


def _hazard(ctx: Context, parts, value) -> Hazard:
    check_mapping(ctx, parts, value, HAZARD_KEYS, required=("name", "kind"))
    name = check_str(ctx, [*parts, "name"], value["name"])
    kind = check_choice(ctx, [*parts, "kind"], value["kind"], HAZARD_KINDS, "hazard kind")
    if "terrain" in value:
        raise ctx.fail([*parts, "terrain"], "a hazard zone has no terrain: give the ground "
                                            "its own zone in the scenario's terrain: list "
                                            "({name, kind: rough, at: [x, y], size: [w, h]}, "
                                            "VA-51)")  # fmt: skip
    if kind == "smoke":
        for key in ("dc", "intensity"):
            if key in value:
                raise ctx.fail([*parts, key], "smoke does no damage of its own: it obscures "
                                              "and/or is asphyxiating (leave out dc and "
                                              "intensity)")  # fmt: skip
        dc = 0
    else:
        dc = _dc(ctx, parts, value, kind, f"a {kind} hazard")
    shapes = [k for k in ("circle", "rect") if k in value]
    if len(shapes) != 1:
        raise ctx.fail(parts, f"hazard '{name}' needs exactly one of circle: {{center, radius}} "
                              f"or rect: {{from, to}}, got {len(shapes)}")  # fmt: skip
    shape = shapes[0]
    sp = [*parts, shape]
    if shape == "circle":
        check_mapping(ctx, sp, value[shape], CIRCLE_KEYS, required=CIRCLE_KEYS)
        cx, cy = _point(ctx, [*sp, "center"], value[shape]["center"])
        r = check_number(ctx, [*sp, "radius"], value[shape]["radius"], 0, _METRES, positive=True)
        geom = (cx, cy, r, 0.0)
    else:
        check_mapping(ctx, sp, value[shape], RECT_KEYS, required=RECT_KEYS)
        x0, y0 = _point(ctx, [*sp, "from"], value[shape]["from"])
        x1, y1 = _point(ctx, [*sp, "to"], value[shape]["to"])
        if x0 == x1 or y0 == y1:
            raise ctx.fail(sp, f"hazard '{name}' has an empty rectangle (from and to must "
                               "differ in x and in y)")  # fmt: skip
        geom = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    flags = {k: check_bool(ctx, [*parts, k], value[k]) if k in value else False
             for k in ("obscures", "asphyxiating")}  # fmt: skip
    if kind == "smoke" and not (flags["obscures"] or flags["asphyxiating"]):
        raise ctx.fail(parts, f"smoke '{name}' neither obscures nor is asphyxiating: give "
                              "obscures: true and/or asphyxiating: true")  # fmt: skip
    return Hazard(name, kind, dc, shape, geom, flags["obscures"], flags["asphyxiating"])


def build_hazards(ctx: Context, value) -> tuple[Hazard, ...]:
    """The scenario's ``hazards:`` list, validated (names unique, at most
    :data:`MAX_HAZARDS`)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ctx.fail(["hazards"], f"expected a list of hazards, got {describe(value)}")
    if len(value) > MAX_HAZARDS:
        raise ctx.fail(["hazards"], f"more than {MAX_HAZARDS} hazards (allowed: 0 to "
                                    f"{MAX_HAZARDS})")  # fmt: skip
    out: list[Hazard] = []
    for i, raw in enumerate(value):
        h = _hazard(ctx, ["hazards", i], raw)
        if any(o.name == h.name for o in out):
            raise ctx.fail(["hazards", i, "name"], f"duplicate hazard name '{h.name}'")
        out.append(h)
    return tuple(out)


def member_environment(ctx: Context, parts, value: dict, combatant):
    """``combatant`` with its ``poison:`` (``{dc | intensity, pool, name}``, VA-48) and
    ``resting:`` (M-71) from its mapping ``value``."""
    poison = None
    if value.get("poison") is not None:
        pp = [*parts, "poison"]
        raw = value["poison"]
        check_mapping(ctx, pp, raw, POISON_KEYS)
        pool = "hits"
        if "pool" in raw:
            if raw["pool"] == "res":
                raise ctx.fail([*pp, "pool"], "a drug's pool res (Resistance, the Mind Control "
                                              "Serum, M-70) is not built yet: the fight keeps "
                                              "no RES pool (hits or stun)")  # fmt: skip
            pool = check_choice(ctx, [*pp, "pool"], raw["pool"], POISON_POOLS, "pool")
        name = check_str(ctx, [*pp, "name"], raw["name"]) if "name" in raw else "poison"
        poison = Poison(_dc(ctx, pp, raw, "poison", "a poison"), pool, name)
    resting = False
    if "resting" in value:
        resting = check_bool(ctx, [*parts, "resting"], value["resting"])
    return dataclasses.replace(combatant, poison=poison, resting=resting)


# --- the kernel's arrays ------------------------------------------------------------------


def _reached(c) -> bool:
    """Hazards reach people on foot: not a vehicle, an object or a crew member inside."""
    return (getattr(c, "vehicle", None) is None and not c.sdp and not c.kills
            and getattr(c, "carrier", None) is None)  # fmt: skip


def hazard_ticks(slots_per_round: int) -> np.ndarray:
    """int64[slots_per_round]: 1 in the slots a 3-second phase ends in (every slot under
    ``timing: phases``; the last pass of each phase under ``extra_actions``; segments 3, 6, 9
    and 12 under the speed chart)."""
    tick = np.zeros(slots_per_round, np.int64)
    per_phase = slots_per_round // 4
    tick[per_phase - 1 :: per_phase] = 1
    return tick


def hazard_arrays(scenario, fighters, slots_per_round: int) -> dict:
    """The plan's hazard fields (``compile.Plan``'s environment block) for ``scenario``."""
    from .room import FL_ASPHYX, FL_OBSCURES, SHAPE_CIRCLE, SHAPE_RECT

    hazards = scenario.scene.get("hazards", ())
    rules = scenario.rules
    armour = rules.values.get("hazard_armour", "ekd")
    reached = [_reached(c) for c in fighters]
    poisons = [getattr(c, "poison", None) for c in fighters]
    geom = np.zeros((len(hazards), 4), np.float64)
    for k, h in enumerate(hazards):
        geom[k] = h.geom

    def arm(c) -> int:
        if armour == "none" or getattr(c.armor, "kills", 0):
            return 0
        return int(c.armor.ekd if armour == "ekd" else c.armor.pd)

    return {
        "hz_kind": np.ascontiguousarray([HAZARD_KINDS.index(h.kind) for h in hazards], np.int64),
        "hz_dc": np.ascontiguousarray([h.dc for h in hazards], np.int64),
        "hz_shape": np.ascontiguousarray(
            [SHAPE_CIRCLE if h.shape == "circle" else SHAPE_RECT for h in hazards], np.int64),
        "hz_geom": np.ascontiguousarray(geom),
        "hz_flags": np.ascontiguousarray(
            [FL_OBSCURES * h.obscures + FL_ASPHYX * h.asphyxiating for h in hazards], np.int64),
        "hz_who": np.ascontiguousarray(
            [r and (bool(hazards) or p is not None) for r, p in zip(reached, poisons,
                                                                    strict=True)], np.int64),
        "hz_arm": np.ascontiguousarray([arm(c) for c in fighters], np.int64),
        "endurance": np.ascontiguousarray(  # breath phases, END, pushing's END a phase, flat
            [(breath_phases(c), _end(c), PUSH_END * c.push) for c in fighters],
            np.int64).reshape(-1),
        "ps_dc0": np.ascontiguousarray(
            [0 if p is None or not r else p.dc for p, r in zip(poisons, reached, strict=True)],
            np.int64),
        "ps_pool0": np.ascontiguousarray(
            [int(p is not None and p.pool == "stun") for p in poisons], np.int64),
        "hz_tick": hazard_ticks(slots_per_round),
    }  # fmt: skip


def _end(combatant) -> int:
    """Its END (F5: CON x 10 unless given)."""
    return int(combatant.derived.get("end", combatant.stats["CON"] * 10))


def hazard_options(options: np.ndarray, scenario) -> None:
    """Write what the environment holds into the kernel's ``options`` (``codes.OPT_*``): any
    hazard, poison or push, the poison's period, any obscuring zone (its switches read as they
    are have slots of their own)."""
    from ... import codes

    rules = scenario.rules.values
    hazards = scenario.scene.get("hazards", ())
    poisoned = any(getattr(c, "poison", None) is not None for c in scenario.combatants)
    pushing = any(getattr(c, "push", 0) for c in scenario.combatants)
    options[codes.OPT_ANY_HAZARD] = bool(hazards) or poisoned or pushing  # END a phase (M-75)
    options[codes.OPT_POISON_PERIOD] = 1 if rules.get("poison_timing") == "turn" else 20
    options[codes.OPT_ANY_OBSCURING] = any(h.obscures for h in hazards)

