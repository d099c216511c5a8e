"""Exact falls and collisions: the damage pmf of a fall, of a knockback into an
obstacle, of a collision at a closing speed and of an object thrown (M-73, VA-49) at one
member of a scenario under its rules (M-60 to M-62, VA-35 to VA-38, VA-41).
``fuzion-sim impact SCENARIO --target NAME (--fall M | --knockback UNITS | --speed M_S |
--thrown THROWER)`` prints it; the kernel's falls and collisions are tested
against it (``scene.room.impact_hits`` works the same numbers out in the fight).
"""

from __future__ import annotations

from fractions import Fraction

from fuzion_sim.errors import ArgumentError

from ... import codes
from ...dice import Pmf, _nd6_counts
from ...tables import falling_table
from .build import impact_weight
from .room import PHASE_SECONDS

__all__ = ["impact_answer", "impact_dc", "impact_pmf", "located_pmf"]


def _thrown_dc(members: dict, thrower: str) -> dict:
    """The table's entry of the object ``thrower`` throws (``scene.throws.throw_figures``)."""
    if thrower not in members:
        from fuzion_sim.errors import unknown_name

        raise unknown_name("thrower", thrower, members)
    thrown = members[thrower].weapon.thrown
    if thrown is None or thrown.figures is None:
        raise ArgumentError(f"--thrown {thrower}: {thrower}'s weapon is not a thrown object "
                            "(weapon: {..., thrown: {weight: ...}})")  # fmt: skip
    fig = thrown.figures
    keep = ("weight_kg", "row", "column", "dc", "kills", "metres", "m_s", "throw", "modifier",
            "lift_kg", "throw_lift_kg")  # fmt: skip
    return {"what": "thrown", "thrower": thrower, "weapon": members[thrower].weapon.name,
            **{k: fig[k] for k in keep}}  # fmt: skip


def impact_dc(scenario, target: str, fall=None, knockback=None, speed=None,
              thrown=None) -> dict:  # fmt: skip
    """Where the table puts one fall or collision of ``target``: ``weight_kg``, its ``row``
    (label), the ``column`` (1-based), ``dc`` and ``kills``, and ``metres`` or ``m_s``.
    Exactly one of ``fall`` (metres), ``knockback`` (units, into an obstacle), ``speed``
    (m/s, a collision) and ``thrown`` (the name of a member whose weapon is a thrown object:
    the object's weight at the throw's speed, M-73, VA-49) is given."""
    given = [k for k, v in (("fall", fall), ("knockback", knockback), ("speed", speed),
                            ("thrown", thrown)) if v is not None]  # fmt: skip
    if len(given) != 1:
        raise ArgumentError("give exactly one of --fall METRES, --knockback UNITS, --speed M_S, "
                            "--thrown THROWER")  # fmt: skip
    members = {c.name: c for c in scenario.combatants}
    if target not in members:
        from fuzion_sim.errors import unknown_name

        raise unknown_name("target", target, members)
    if given[0] == "thrown":
        return _thrown_dc(members, str(thrown))
    value = float({"fall": fall, "knockback": knockback, "speed": speed}[given[0]])
    if not value > 0 or value > 1e7:
        raise ArgumentError(f"--{given[0]} must be a positive number, got {value:g}")
    rules = scenario.rules.values
    table = falling_table()
    kg = impact_weight(members[target])
    if kg is None:
        raise ArgumentError(f"{target} is a vehicle without vehicle.weight")
    row = table.weight_row(kg, rules.get("weight_row", "nearest_ratio"))
    out = {"what": given[0], "weight_kg": kg, "row": table.labels[row]}
    if given[0] == "fall":
        col = table.height_column(value, rules.get("falling_columns", "six"))
        out["metres"] = value
    elif given[0] == "speed":
        col = table.speed_column(value, rules.get("collision_speed_bands", "fall_equivalent"))
        out["m_s"] = value
    else:
        metres = value * float(rules.get("knockback_unit", 1.0))
        mode = rules.get("knockback_collision", "as_fall")
        out.update(metres=metres, knockback_collision=mode)
        if mode == "none":
            return {**out, "column": 0, "dc": 0, "kills": 0}
        if mode == "as_fall":
            col = table.height_column(metres, rules.get("falling_columns", "six"))
        else:
            bands = rules.get("collision_speed_bands", "fall_equivalent")
            col = table.speed_column(metres / PHASE_SECONDS, bands)
    return {**out, "column": col + 1, "dc": int(table.dc[row, col]),
            "kills": int(table.kills[row, col])}  # fmt: skip


def impact_pmf(dc: int, kills: int, scale: int, pd: int, kill_armour: int, sd: int,
               kill_unit: int = 1, stun: bool = False, armour: bool = True) -> dict:
    """The exact pmf of the damage through the defences of one fall or collision (VA-37), as
    ``{value: Fraction}``: a Kill-rated target (``scale`` ``SCALE_KILLS``) takes ``kills``
    less its Kill armour (x ``kill_unit``); an object ``dc`` d6 less PD; a person ``dc`` d6 of
    Killing less PD, or (``stun``) of Stun less the higher of PD and SD; ``armour`` False:
    no PD (nor Kill armour)."""
    if dc <= 0:
        return {0: Fraction(1)}
    if scale == codes.SCALE_KILLS:
        return {max(kills - (kill_armour if armour else 0), 0) * kill_unit: Fraction(1)}
    lo, counts = _nd6_counts(dc)
    total = sum(counts)
    arm = pd if armour else 0
    out: dict[int, Fraction] = {}
    for i, n in enumerate(counts):
        raw = lo + i
        if scale == codes.SCALE_OBJECT or not stun:
            thr = max(raw - arm, 0)
        else:
            thr = max(raw - max(arm, sd), 0)
        out[thr] = out.get(thr, Fraction(0)) + Fraction(n, total)
    return out


def located_pmf(pmf: dict, scenario, plan, c: int, aspect: str) -> dict:
    """A collision's damage ``pmf`` through vehicle ``c``'s armour on a row of its table
    rolled from ``aspect`` (VA-40 ``impact_locations``; M-22 to M-26): ``locations`` (each
    location's probability) and ``damage`` (``{"mean", "pmf"}``) at the location hit, after
    the row's multiplier (rounded down); the crew row's is the pilot's (0 here), as in
    ``attack --json``."""
    from ...compile import vehicle_rows
    from ...oracle import row_weights, vehicle_locations

    vehicle = scenario.combatants[c].vehicle
    row9 = scenario.rules.values.get("vehicle_row9", "literal")
    rows = vehicle_rows(vehicle, row9)
    weights = row_weights(vehicle, aspect, rows)
    total = sum(weights)
    k0 = c * codes.V_ROWS
    out: dict[int, Fraction] = {}
    for r, w in enumerate(weights):
        if not w:
            continue
        num, den, crew = int(plan.v_num[k0 + r]), int(plan.v_den[k0 + r]), plan.v_crew[k0 + r]
        for v, q in pmf.items():
            dmg = 0 if crew else v * num // den
            out[dmg] = out.get(dmg, Fraction(0)) + q * Fraction(w, total)
    return {"aspect": aspect,
            "locations": {k: float(v) for k, v in vehicle_locations(vehicle, aspect,
                                                                    row9).items()},
            "damage": _pmf_json(out)}  # fmt: skip


def _pmf_json(pmf: dict) -> dict:
    """``{"mean", "pmf"}`` of an exact ``{value: Fraction}``."""
    p = Pmf.from_dict({k: float(v) for k, v in pmf.items()})
    return {"mean": float(sum(k * v for k, v in pmf.items())),
            "pmf": {str(int(v)): float(q) for v, q in zip(p.values, p.probs, strict=True)}}


def impact_answer(scenario, target: str, fall=None, knockback=None, speed=None,
                  thrown=None, aspect=None) -> dict:  # fmt: skip
    """The exact answer of ``fuzion-sim impact``: the table's entry (:func:`impact_dc`) and
    the ``damage`` through ``target``'s defences (``{"mean", "pmf"}``) under the scenario's
    ``impact_damage`` and ``impact_armour`` (VA-37), with its ``damage_type``; with
    ``aspect`` (front, side or rear: a vehicle's collision under ``impact_locations: true``,
    VA-40), ``located``: where on its table it lands and the damage there
    (:func:`located_pmf`)."""
    from ...compile import compile_scenario

    where = impact_dc(scenario, target, fall, knockback, speed, thrown)
    plan = compile_scenario(scenario)
    c = [m.name for m in scenario.combatants].index(target)
    rules = scenario.rules.values
    if aspect is not None:
        _check_aspect(scenario, target, aspect)
    stun = rules.get("impact_damage", "killing") == "stun"
    pmf = impact_pmf(
        where["dc"], where["kills"], int(plan.scale[c]), int(plan.a_pd[c]), int(plan.a_kills[c]),
        int(plan.sd[c]), int(plan.kill_unit[c]), stun, bool(rules.get("impact_armour", True)),
    )  # fmt: skip
    kind = "kills" if plan.scale[c] == codes.SCALE_KILLS else ("stun" if stun else "killing")
    out = {**where, "damage_type": kind, "damage": _pmf_json(pmf)}
    if aspect is not None:
        out["located"] = located_pmf(pmf, scenario, plan, c, aspect)
    return out


def _check_aspect(scenario, target: str, aspect: str) -> None:
    """``--aspect`` needs a vehicle target, a known aspect and ``impact_locations: true``."""
    from ...tables import ASPECTS

    if aspect not in ASPECTS:
        raise ArgumentError(f"--aspect {aspect}: expected one of {', '.join(ASPECTS)}")
    member = next(m for m in scenario.combatants if m.name == target)
    if getattr(member, "vehicle", None) is None:
        raise ArgumentError(f"--aspect: {target} is not a vehicle (only a vehicle's collision "
                            "rolls its hit table, VA-40)")  # fmt: skip
    if not scenario.rules.values.get("impact_locations", False):
        raise ArgumentError("--aspect: the scenario's collisions land on the structure "
                            "(impact_locations: false, VA-40); set rules.impact_locations: "
                            "true to roll the vehicle hit table")  # fmt: skip
