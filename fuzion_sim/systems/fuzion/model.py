"""Fuzion's members and gear: plain frozen dataclasses, no YAML and no numpy; its rule
switches, primaries and derived values, and the constants of its catalogue.

A :class:`Combatant` is a member of a Fuzion scenario's side (``build.py`` makes it from YAML
with the shared checks); ``compile.py`` turns the members into flat arrays.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..base import Switch

__all__ = [
    "AREA_BASES",
    "BOWS",
    "BOW_MAX_STR",
    "BOW_RANGE_PER_STR",
    "CAMPAIGNS",
    "COVERS",
    "ABORTS",
    "DEFAULT_TACTICS",
    "DERIVED",
    "DOGFIGHT_SWITCHES",
    "HAZARD_SWITCHES",
    "PRIMARIES",
    "RANGE_PER_POWER_POINT",
    "PERSON_VA_SWITCHES",
    "IMPACT_SWITCHES",
    "THROW_SWITCHES",
    "RULE_SWITCHES",
    "SWITCHES",
    "WEAPON_SCALES",
    "Area",
    "Armor",
    "Combatant",
    "CONTROL_SKILL_BY_CLASS",
    "CREW_ROLES",
    "LOCOMOTIONS",
    "LOCOMOTION_BY_CLASS",
    "ARCS",
    "MOUNTS",
    "Missile",
    "SIZES",
    "Thrown",
    "VEHICLE_CLASSES",
    "Vehicle",
    "UNARMED",
    "UNARMED_NAMES",
    "Weapon",
]

#: Primary characteristics (RULINGS F6), each defaults to 5.
PRIMARIES = ("INT", "WILL", "PRE", "TECH", "REF", "DEX", "CON", "STR", "BODY", "MOVE")

#: Derived values (RULINGS F5) and how they follow from the primaries; each may be overridden
#: per combatant with a lower-case key of the same name (``hits: 40``).
DERIVED = {
    "hits": lambda s: s["BODY"] * 5,
    "stun": lambda s: s["BODY"] * 5,
    "sd": lambda s: s["CON"] * 2,
    "rec": lambda s: s["STR"] + s["CON"],
    "end": lambda s: s["CON"] * 10,
    "res": lambda s: s["WILL"] * 3,
    "run": lambda s: s["MOVE"] * 2,
    "sprint": lambda s: s["MOVE"] * 3,
    # SPD for the speed chart / extra actions (F8), 1 to 12; 4 is one action a phase
    "spd": lambda s: 4,
}

#: Every rule switch of Fuzion, each defaulting to the reading of RULINGS.md (in display order).
SWITCHES: dict[str, Switch] = {
    "dice": Switch(("hero", "interlock"), "hero", "F2", "dice option", flag="dice"),
    "criticals": Switch(("both", "attacker", "none"), "both", "F3", "critical rolls"),
    "timing": Switch(("phases", "speed_chart", "extra_actions"), "phases", "F8", "timing"),
    "extra_actions_table": Switch(("rule", "printed"), "rule", "F8", "extra actions table"),
    "initiative": Switch(("switch1", "switch2"), "switch1", "F9", "initiative"),
    "impairment": Switch(bool, True, "F24", "wound impairment", slot=True),
    "stunned": Switch(bool, True, "F22", "stunned rule", slot=True),
    "dying_can_act": Switch(bool, False, "F25", "the dying act", slot=True),
    "dying_penalty": Switch(int, 6, "F25", "dying penalty", low=0, high=100, slot=True),
    "ap_factor": Switch(float, 0.5, "F20", "armour against AP", low=0, high=1),
    "obscured_dv": Switch(int, 14, "F11", "Perception DV when obscured", low=0, high=100),
    "dodge_bonus": Switch(int, 3, "F32", "dodge bonus", low=-100, high=100, slot=True),
    "block_bonus": Switch(int, 3, "F32", "block bonus", low=-100, high=100, slot=True),
    "hit_locations": Switch(("none", "random", "called"), "none", "F27", "hit locations",
                            slot=True),
    "knockback": Switch(bool, False, "F28", "knockback", slot=True),
    # metres per knockback unit (a campaign setting, F28)
    "knockback_unit": Switch(float, 1.0, "F28", "metres per knockback unit", high=1000,
                             positive=True),
    "campaign": Switch(
        ("heroic", "everyday", "competent", "incredible", "legendary", "superheroic"),
        "heroic", "F15", "campaign style",
    ),
    # 0 (or null): the campaign's ratio (campaigns.yaml); a scenario may give 1 or more
    "autofire_ratio": Switch(int, 0, "F15", "autofire ratio", low=1, high=100, nullable=True,
                             unset="the campaign's ratio"),
    "autofire_hits": Switch(("ceil_margin", "one_plus_floor"), "ceil_margin", "F15",
                            "autofire hits", slot=True),
    # ROF of a weapon without autofire (pistols, shotguns: ROF 1 or 2): the seed's "how many
    # times the attack can be shot in a phase", each shot its own attack when a tactic asks
    # (fire: N); one_shot: one attack an action whatever the ROF
    "semi_auto_rof": Switch(("extra_attacks", "one_shot"), "extra_attacks", "F15",
                            "ROF without autofire"),
    # chinks in the armour: a margin of 10 or more ignores armour, per autofire hit too; Kill
    # armour as well (VA-43)
    "chinks": Switch(bool, False, "F30", "chinks in the armour"),
    # vehicles and mecha (../shared/rulings/vehicles/rulings.md): read only when a combatant
    # has a `vehicle:` block
    "vehicle_locations": Switch(("random", "none", "called"), "random", "VA-06",
                                "vehicle hit locations by facing"),
    # a called shot at a row whose HIT MOD is "X" (ground cargo, aircraft propeller, boat rudder)
    "vehicle_called_x": Switch(("forbidden", "minus4"), "forbidden", "VA-08",
                               "called shots at the rows marked X"),
    "critical_effects": Switch(bool, True, "VA-10", "vehicle critical effects"),
    "minor_crits": Switch(("effects", "none"), "effects", "VA-10", "wheels and flaps"),
    "facing_arcs": Switch(("quarters", "hex"), "quarters", "VA-05", "facing arcs"),
    "vehicle_row9": Switch(("literal", "body_9_10"), "literal", "VA-07",
                           "ground vehicle rows 9 and 10"),
    "kill_precision": Switch(("tenths", "whole"), "tenths", "VA-14",
                             "Kills of a vehicle's hits"),
    "critical_accumulation": Switch(("cumulative", "single_hit"), "cumulative", "VA-09",
                                    "critical damage", slot=True),
    "location_damage_counts_total": Switch(bool, True, "VA-09",
                                           "location damage counts toward the structure",
                                           slot=True),
    "crew_personal_armour": Switch(bool, True, "VA-13", "crew hits meet personal armour",
                                   slot=True),
    "unmanned_dv": Switch(("by_range", "zero_base"), "by_range", "VA-04",
                          "DV of a vehicle nobody drives"),
    "area_kill_falloff": Switch(("per_radius_step", "none"), "per_radius_step", "VA-52",
                                "Kills of a blast on a vehicle by distance"),
    "crew_hit": Switch(("pilot", "random_crew"), "pilot", "VA-13", "who the crew row hits",
                       slot=True),
    # the Weapon row's damage that knocks the vehicle's weapons out, as a % of its structure
    # (0: never; not from the seed)
    "weapon_disable_pct": Switch(int, 0, "VA-11", "weapon location knocked out at",
                                 low=0, high=100),
    "no_turret": Switch(("fixed_mounts", "all_vehicle_fire", "never"), "fixed_mounts", "VA-15",
                        "vehicle mounted, no turret -4"),
    "maneuver_in_defence": Switch(bool, False, "VA-02",
                                  "Maneuver Value in a vehicle's DV and missile evasion"),
    # missiles (F18, M-42 to M-45): read only when a weapon has `missile:`
    "missile_launch": Switch(("automatic", "attack_roll"), "automatic", "VA-20",
                             "missile launch", slot=True),
    "missile_timing": Switch(("per_round_free", "per_round_action", "per_phase"),
                             "per_round_free", "VA-21", "missile evasion rolls", slot=True),
    "missile_dv_interlock": Switch(("minus5", "same"), "minus5", "VA-22",
                                   "missile DV under Interlock"),
    "cluster_roll": Switch(("single", "sequence"), "single", "VA-23", "missile cluster roll",
                           slot=True),
    "missile_evasion_on_foot": Switch(("ranged_evade", "ref_athletics"), "ranged_evade", "VA-24",
                                      "missile evasion on foot"),
    "countermeasure_use": Switch(("per_engagement", "per_roll"), "per_engagement", "VA-25",
                                 "countermeasure charges", slot=True),
    "missile_aspect": Switch(("launch", "rear", "side"), "launch", "VA-26",
                             "where missiles hit a vehicle from", slot=True),
    # the moving-target penalty (F10, L483: -1 per 10 m): the target's own move, or the two
    # moves' difference (VA-16), for people and vehicles alike
    "moving_target": Switch(("absolute", "relative"), "absolute", "VA-16",
                            "moving-target penalty counts", slot=True),
    # mecha range scale (M-18, VA-17): whose attacks have the x10 range bands
    "mecha_range_scale": Switch(("attacker", "all_vehicles", "both_mecha"), "attacker", "VA-17",
                                "mecha range scale x10"),
    # the special armour rules for mecha (M-32 to M-36), each off by default (F30)
    "staged_penetration": Switch(bool, False, "F30", "staged penetration"),
    "staged_loss": Switch(("minus_one", "all", "amount"), "minus_one", "VA-42",
                          "staged penetration: armour lost"),
    "staged_trigger": Switch(("through", "rating"), "through", "VA-42",
                             "staged penetration: what counts", slot=True),
    "chinks_scope": Switch(("all", "mecha"), "all", "VA-43", "chinks: whose armour"),
    "powered_armour": Switch(bool, False, "F30", "powered armour"),
    "powered_split": Switch(("suit_ceil", "wearer_ceil"), "suit_ceil", "VA-44",
                            "powered armour: the odd point", slot=True),
    "powered_stun": Switch(("as_stun", "to_hits"), "as_stun", "VA-44",
                           "powered armour: a Stun attack's wearer half", slot=True),
    "structural_integrity": Switch(bool, False, "F30", "structural integrity"),
    "integrity_count": Switch(("total_tenths", "fractional_part"), "total_tenths", "VA-45",
                              "structural integrity: the count of Kills left"),
    # --- falls and knockback into obstacles (M-40, M-59 to M-62, VA-35 to VA-41);
    # read only in a fight with `obstacles:` or `drops:` (features/scene/room.py)
    "falling_columns": Switch(("six", "eleven"), "six", "VA-35", "falling table columns"),
    "weight_row": Switch(("nearest_ratio", "at_or_below"), "nearest_ratio", "VA-36",
                         "falling table: the weight row"),
    "impact_damage": Switch(("killing", "stun"), "killing", "VA-37",
                            "falls and collisions: damage type", slot="im_opts"),
    "impact_armour": Switch(bool, True, "VA-37", "falls and collisions: armour applies",
    slot="im_opts"),
    "collision_speed_bands": Switch(("fall_equivalent", "mph10"), "fall_equivalent", "VA-38",
                                    "collision speed bands"),
    "knockback_collision": Switch(("as_fall", "speed", "none"), "as_fall", "VA-41",
                                  "knockback into an obstacle"),
    # M-10 "You may not move (or shoot) through any solid person, object or thing": an
    # unbroken obstacle stops a move on foot at its face and blocks a line of fire (false:
    # obstacles stop only knockback and vehicles)
    "obstacles_block": Switch(bool, True, "M-10", "obstacles block moves on foot and fire"),
    # VA-51: Rough and Very Rough terrain (a scenario's terrain: zones) slow whoever crosses
    # them and add +2 / +4 to a vehicle's manoeuvre DVs there (move_only: they only slow)
    "terrain_effect": Switch(("move_and_dv", "move_only"), "move_and_dv", "VA-51",
                             "terrain slows moves and makes manoeuvres harder"),
    # --- the environment (M-67 to M-71; features/hazards): read only with `hazards:`, `poison:`
    "hazard_armour": Switch(("ekd", "pd", "none"), "ekd", "VA-46",
                            "armour against fire and electricity"),
    "electricity_damage": Switch(("killing", "stun"), "killing", "VA-46",
                                 "electricity damage", slot=True),
    "hazard_timing": Switch(("end_of_phase", "on_entry"), "end_of_phase", "VA-46",
                            "when fire and electricity land", slot=True),
    "breath_reset": Switch(("on_exit", "after_rest"), "on_exit", "VA-47",
                           "breath comes back", slot=True),
    "asphyxia_collateral": Switch(bool, True, "VA-47", "asphyxiation costs collateral Stun",
                                  slot=True),
    "poison_timing": Switch(("minute", "turn"), "minute", "VA-48", "poison damage every"),
    # --- manoeuvres, loss of control, speeds and ramming (M-46 to M-52, M-62 to
    # M-66; VA-19, VA-27 to VA-31, VA-39, VA-40; features/motion/room.py): read only by a vehicle's
    # steer, accelerate, brake, manoeuvre, regain_control or ram
    "manoeuvre_dv": Switch(("full", "plus_roll"), "full", "VA-27", "manoeuvre DVs", slot="mo_opts"),
    "manoeuvre_conditions": Switch(("clear", "rough", "very_rough"), "clear", "VA-27",
                                   "terrain or weather on manoeuvres (M-52)"),
    "ground_loss": Switch(("by_severity", "literal"), "by_severity", "VA-28",
                          "ground loss of control: skid or spin", slot="mo_opts"),
    "skid_rounding": Switch(("floor_min1", "ceil", "floor"), "floor_min1", "VA-29",
                            "skid dice per 10 mph", slot="mo_opts"),
    "stall_dv": Switch(int, 14, "VA-30", "regain control from a stall", low=0, high=60,
    slot="mo_opts"),
    "spin_altitude_loss": Switch(("combat_move", "none"), "combat_move", "VA-30",
                                 "altitude lost out of control"),
    "walker_fall_damage": Switch(bool, False, "VA-31", "a walker that falls over is hurt",
    slot="mo_opts"),
    "acceleration": Switch(("vehicles", "none"), "vehicles", "VA-19",
                           "speed change a phase (10 MOVE)"),
    "side_ram": Switch(("each_other", "both_same"), "each_other", "VA-39",
                       "a side ram's damage", slot="mo_opts"),
    "collision_obstacle": Switch(("same_dc", "none"), "same_dc", "VA-39",
                                 "an obstacle a vehicle drives into"),
    "collision_occupants": Switch(("own_weight", "through_hull", "none"), "own_weight", "VA-39",
                                  "a vehicle's crew in its collision"),
    "ram_miss_control": Switch(bool, True, "VA-40", "a missed ram loses control", slot="mo_opts"),
    # VA-40: a ram's damage (each vehicle's) and a vehicle's crash into an obstacle roll its
    # hit table (the front, or the rammed one's aspect by geometry) with the row's multiplier
    # and critical location; false: to the structure, x1 (needs vehicle_locations on)
    "impact_locations": Switch(bool, False, "VA-40",
                               "a collision rolls the vehicle hit table", slot="mo_opts"),
    # --- throwing objects (M-73, VA-49; features/scene/throws.py): only with a `thrown:` weapon
    "thrown_damage": Switch(("collision", "none"), "collision", "VA-49",
                            "damage of a thrown object"),
    # --- dogfights (M-53 to M-58; features/dogfights): read only when a tactic names `dogfight`
    "dogfight_cadence": Switch(("phase", "round"), "phase", "VA-33", "dogfight roll every",
    slot="df_opts"),
    "dogfight_tie": Switch(("none", "both"), "none", "VA-32",
                           "dogfight tie: who may attack", slot="df_opts"),
    "intercept": Switch(("scenario", "perception"), "scenario", "VA-34",
                        "dogfight intercept: the first roll", slot="df_opts"),
    "break_off_rounds": Switch(int, 2, "VA-34", "break-off: rounds of Advantage (fixed)",
                               low=1, high=20, slot="df_opts"),
    "break_off_time": Switch(("fixed", "d6_half"), "fixed", "VA-34",
                             "break-off: break_off_rounds, or ceil(1d6/2) rounds", slot="df_opts"),
}  # fmt: skip
#: The switches of falls, knockback into obstacles and terrain (read for people
#: too, only with obstacles, drops or terrain).
IMPACT_SWITCHES = (
    "falling_columns",
    "weight_row",
    "impact_damage",
    "impact_armour",
    "collision_speed_bands",
    "knockback_collision",
    "obstacles_block",
    "terrain_effect",
)
#: The switches of throwing objects (VA-49; features/scene/throws.py), read at build time for a
#: weapon with ``thrown:`` (its damage also reads ``weight_row`` and ``collision_speed_bands``).
THROW_SWITCHES = ("thrown_damage",)
#: The environment's switches (VA-46 to VA-48; features/hazards/room.py), read only with a
#: hazard or poison.
HAZARD_SWITCHES = ("hazard_armour", "electricity_damage", "hazard_timing", "breath_reset",
                   "asphyxia_collateral", "poison_timing")  # fmt: skip
#: The dogfights' switches (VA-32 to VA-34; features/dogfights/room.py), read only when a
#: tactic names ``dogfight``.
DOGFIGHT_SWITCHES = ("dogfight_cadence", "dogfight_tie", "intercept", "break_off_rounds",
                     "break_off_time")  # fmt: skip
#: Switches of the vehicle rulings (VA-n) that are read for people too (powered armour, VA-44).
PERSON_VA_SWITCHES = ("powered_split", "powered_stun")
#: The switches as (kind, default, ruling), as earlier versions listed them.
RULE_SWITCHES = {k: (v.kind, v.default, v.ruling) for k, v in SWITCHES.items()}

#: Campaign styles (F15), in the seed's order (everyday ... superheroic); ``campaigns.yaml``
#: gives each one's autofire ratio.
CAMPAIGNS = ("everyday", "competent", "heroic", "incredible", "legendary", "superheroic")

#: Bows (seed "Archery Attacks"): ``none`` for any other weapon; the STR cap on range per bow.
BOWS = ("none", "short", "long", "compound")
BOW_MAX_STR = {"short": 7, "long": 10, "compound": 10}
#: Metres of bow range per point of the archer's STR (up to the bow's STR cap).
BOW_RANGE_PER_STR = 20
#: Metres of energy-blast range per power point.
RANGE_PER_POWER_POINT = 10

#: What an area effect's radius is counted per (F17; as ``tables.AREA_BASES``).
AREA_BASES = ("barrel", "die", "kill")


#: Vehicle classes (the hit table each rolls, M-23, M-30): ground, aircraft, boat, and
#: humanoid or animorphic mecha.
VEHICLE_CLASSES = ("ground", "aircraft", "boat", "mecha")
#: F31 / VA-03: the skill a vehicle's pilot controls it with, by class.
CONTROL_SKILL_BY_CLASS = {"ground": "Driving", "aircraft": "Piloting", "boat": "Piloting",
                          "mecha": "Piloting"}  # fmt: skip
#: How a vehicle moves (which loss of control it suffers; VA-28 to VA-31).
LOCOMOTIONS = ("wheels", "tracks", "walker", "air", "water")
LOCOMOTION_BY_CLASS = {"ground": "wheels", "aircraft": "air", "boat": "water",
                       "mecha": "walker"}  # fmt: skip
#: Crew roles (VA-18): the pilot controls the vehicle (and fires what it operates), a gunner
#: fires a vehicle weapon, a passenger fires its own weapon.
CREW_ROLES = ("pilot", "gunner", "passenger")
#: How a vehicle weapon is mounted (VA-15): a turret, a fixed mount (-4, "Vehicle mounted, no
#: turret"); a hand weapon has none.
MOUNTS = ("turret", "fixed")
#: The arc a vehicle weapon covers, seen from the vehicle's heading (VA-05's arcs: front and
#: rear within the front arc's half-angle, the sides between): a fixed mount covers ``front``
#: unless told otherwise, a turret ``all``.
ARCS = ("front", "rear", "left", "right", "sides", "all")
#: A vehicle weapon's range scale (M-18, VA-17): ``mecha`` has the x10 bands whoever fires it,
#: ``person`` never (a mecha's anti-personnel gun); unset follows ``rules.mecha_range_scale``.
WEAPON_SCALES = ("mecha", "person")

#: Cover a combatant may stand behind (F11; ``none``: in the open).
COVERS = ("none", "half_body", "head_and_shoulders", "head_only", "behind_someone")

#: Target sizes (F11).
SIZES = ("tiny", "small", "normal", "large", "very_large")
#: Defences a combatant aborts its unused action to when attacked (F32; Abort).
ABORTS = ("none", "dodge", "block", "dive")

#: The tactic of a combatant without ``tactics:``: attack; close to range when out of range.
#: Canonical rules (see ``fuzion_sim.systems.fuzion.tactics``): ``when`` (None: always), ``do``
#: and the action's parameters.
DEFAULT_TACTICS: tuple[dict[str, Any], ...] = (
    {"when": "range > weapon_range", "do": "run", "toward": "target"},
    {"when": None, "do": "attack", "fire": 1},
)


@dataclass(frozen=True)
class Area:
    """An area effect (F17): the radius is ``radius`` metres per barrel, die (DC) or Kill."""

    per: str  # barrel | die | kill
    radius: float


@dataclass(frozen=True)
class Missile:
    """A missile weapon (F18, M-42 to M-45): ``dv`` is the DV its target's evasion rolls must
    beat (its "smartness", default 18; ``missiles.yaml`` names dumb 14, heat_seeker 18 and
    smart 22, not from the seed), ``cluster`` the missiles one launch fires, resolved by one
    evasion roll (VA-23). ``reloads``: the launcher reloads (``reload_actions`` given); else
    its ``shots`` are every launch it carries."""

    dv: int = 18
    cluster: int = 1
    reloads: bool = False


@dataclass(frozen=True)
class Thrown:
    """An object thrown as a weapon (M-73, VA-49; ``features/scene/throws.py``): ``weight_kg`` (its
    row of the Weight Modifier table), ``aerodynamic`` and ``balanced`` (+1 each to the Throw).
    ``where`` is the key path of the ``thrown:`` mapping, for the errors of the checks made
    once the rules are known (the thrower's lift, the Throw below .5); ``figures`` what they
    work out (``scene.throws.throw_figures``: the lift, the Throw, the metres, the table's
    entry), None until then."""

    weight_kg: float
    aerodynamic: bool = False
    balanced: bool = False
    where: tuple = field(default=(), compare=False)
    figures: dict | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Weapon:
    """A weapon as the kernel needs it (catalogue entry or inline definition).

    ``range`` is the listed range in metres for ranged weapons and the reach (4, or 6 for
    polearms) for melee weapons. ``shots`` is the magazine (None: unlimited) and
    ``reload_actions`` the actions a reload takes.

    ``kills`` > 0 makes a Kill-rated weapon of that many Kills (F29); its ``dc`` is then the
    F29 DC against small targets, 13 + kills (14 DC for the first Kill, +1 per further Kill).
    ``blade``: a bladed weapon (armour with ``half_vs_blades``). ``bow`` (none, short, long,
    compound): archery; the kernel computes the range, 20 m per point of the archer's STR up to
    STR 7 (short) or 10 (long, compound); ``range`` holds that cap (140 or 200 m).
    ``power_points`` > 0: an energy blast whose ``range`` is 10 m per point. ``burst``: may fire
    3-round bursts (F16). ``area``: an area effect (F17), None for none; ``barrels`` counts for
    an area per barrel. ``explosive``: damage falls 2 points per metre from the centre (F17).
    """

    name: str
    skill: str
    kind: str = "ranged"  # ranged | melee
    damage: str = "killing"  # killing | stun
    dc: int = 1
    accuracy: int = 0
    range: float = 50.0
    rof: int = 1
    shots: int | None = None
    min_str: int = 0
    ap: bool = False
    autofire: bool = False
    energy: bool = False
    hands: int | None = None
    notes: str = ""
    reload_actions: int = 1
    kills: int = 0
    blade: bool = False
    bow: str = "none"
    power_points: int = 0
    burst: bool = False
    area: Area | None = None
    barrels: int = 1
    explosive: bool = False
    unarmed: bool = False
    mount: str = "none"  # none (a hand weapon) | turret | fixed (a vehicle weapon, VA-15)
    arc: str = "all"  # the arc a vehicle weapon covers (ARCS); a hand weapon's is all
    missile: Missile | None = None  # a missile weapon (F18); None for any other
    scale: str = "none"  # none | mecha | person: the range bands (M-18, VA-17)
    # a thrown object (M-73, VA-49): its dc, kills, range and shots are worked out from the
    # thrower's STR and the tables once the rules are known (throw_build.resolve_thrown)
    thrown: Thrown | None = None


#: The fists of a combatant without a weapon (F14): an attack is a punch, STR dice of Stun
#: (``rules.punch_dice``), a haymaker STR + 3 dice; ``weapon: unarmed`` in a scenario.
UNARMED = Weapon(
    name="Fists", skill="Hand to Hand", kind="melee", damage="stun", dc=0, range=4.0,
    unarmed=True, notes="F14 punch: STR dice of Stun",
)  # fmt: skip
#: Names a scenario may give for no weapon.
UNARMED_NAMES = ("unarmed", "fists", "none")


@dataclass(frozen=True)
class Armor:
    """Worn armour: PD against physical attacks, EKD against energy attacks.

    ``kills`` > 0: Kill-rated armour of that many Kills (F29; then ``pd`` and ``ekd`` are 0).
    ``covers``: the hit locations it protects (names of the F27 table); None covers all.
    ``sdp`` > 0: powered armour (M-35, VA-44; needs ``rules.powered_armour: true``): the damage
    through its PD is split, half to the suit's SDP, half to the wearer, until the suit is
    wrecked at 0 SDP (then PD 0, no split).
    """

    name: str
    pd: int = 0
    ekd: int = 0
    half_vs_blades: bool = False
    notes: str = ""
    kills: int = 0
    covers: tuple[str, ...] | None = None
    sdp: int = 0  # powered armour (M-35, F30 rules.powered_armour): the suit's SDP


NO_ARMOR = Armor(name="none")


@dataclass(frozen=True)
class Vehicle:
    """A vehicle or mecha (../shared/rulings/vehicles/mechanics.md M-01 to M-31): the combatant
    that carries it is its structure, and its crew are combatants of their own (``crew``: their
    names, in the scenario's order; ``pilot``: the one who controls it, or None).

    ``kind`` is the class (:data:`VEHICLE_CLASSES`, YAML key ``class``): it picks the hit
    table. Exactly one of ``sdp`` (Structural Damage Points, with PD armour) and ``kills`` (Kills,
    with Kill armour) is set (VA-01). ``move`` is its top MOVE and ``speed`` the MOVE it moves at
    (2 x speed m a phase at a run, 3 x at a sprint, M-06); ``heading`` in degrees (0: +x,
    counter-clockwise) sets its facing (VA-05) until it moves. ``maneuver`` (its Maneuver
    Value, M-13) is the dogfight's; ``weight_kg`` (M-12) picks its row of the collision table.
    ``altitude`` (an aircraft's, m) is what it loses out of control before it crashes (VA-30);
    ``height`` a walker's fall when it falls over (VA-31).
    ``fuel_flammable`` makes row 11 x3 (VA-12); ``absent`` lists the locations it lacks, rolled
    again (M-24). ``control_skill`` is the pilot's skill that opposes attacks (F31, VA-03).
    ``weapons``: (operator, weapon) of each vehicle weapon (M-76).
    """

    kind: str
    sdp: int = 0
    kills: int = 0
    move: int = 0
    speed: int = 0
    heading: float = 0.0
    locomotion: str = "wheels"
    maneuver: int = 0
    weight_kg: float | None = None
    fuel_flammable: bool = True
    absent: tuple[str, ...] = ()
    control_skill: str = "Driving"
    crew: tuple[str, ...] = ()
    pilot: str | None = None
    weapons: tuple[tuple[str, Weapon], ...] = ()
    countermeasures: int = 0  # charges (M-44, VA-25); -1: unlimited
    altitude: float = 0.0  # an aircraft's metres above the ground (VA-30)
    height: float = 10.0  # a walker's fall when it falls over (VA-31 walker_fall_damage)

    def speeds(self, move: int | None = None) -> dict[str, float]:
        """Its MOVE (``move``, default its top MOVE) as the seed's speeds (M-08, M-09; examples
        E-01 to E-03): ``kph`` 3 x MOVE and ``mph`` 2 x MOVE (the seed's conversions, L102-104,
        not the 2 m a phase of combat movement), and the afterburner's non-combat ``mach``
        floor(MOVE / 100) (VA-50) as ``afterburner_kph`` (1,125 kph a Mach) and
        ``afterburner_mph`` (750 mph)."""
        move = self.move if move is None else int(move)
        mach = move // 100
        return {"move": move, "kph": 3.0 * move, "mph": 2.0 * move, "mach": mach,
                "afterburner_kph": 1125.0 * mach, "afterburner_mph": 750.0 * mach}  # fmt: skip


@dataclass(frozen=True)
class Combatant:
    """One combatant with every value resolved (primaries, derived, skills, gear).

    ``position`` is as the scenario gives it: a number (metres on a line) or an ``(x, y)``
    pair; :attr:`xy` is always the pair. ``tactics`` holds the canonical rules (the
    default tactic when the scenario gives none); ``fuzion_sim.systems.fuzion.tactics.program_of``
    compiles them. ``modifiers`` is a GM's flat modifier to this combatant's attacks,
    ``defence_modifiers`` to its defence.

    ``sdp`` > 0: an object of that many Structural Damage Points and no Stun; ``kills`` > 0: a
    Kill-rated target of that many Kills (F29); at most one of the two is set. ``called_shot``
    is the hit location this combatant calls when ``rules.hit_locations`` is ``called`` (None:
    its hits roll a random location).

    ``vehicle``: the combatant is a vehicle or mecha (:class:`Vehicle`; its ``sdp`` or
    ``kills`` are the vehicle's, and its sheet for defence and its own attacks is its pilot's).
    A crew member has ``carrier`` (the vehicle's name) and ``role``; it moves with the vehicle,
    is not a target of its own, and takes the hits of the vehicle's crew row (M-26).
    """

    name: str
    side: str
    stats: dict[str, int]
    derived: dict[str, int]
    skills: dict[str, int]
    weapon: Weapon
    armor: Armor = NO_ARMOR
    position: float | tuple[float, float] = 0.0
    tactics: tuple[dict[str, Any], ...] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_TACTICS)
    )
    targeting: str = "first"
    surprised: bool = False
    cover: str = "none"
    prone: bool = False
    crouched: bool = False
    obscured: bool = False
    braced: bool = False
    silhouetted: bool = False
    size: str = "normal"
    modifiers: int = 0
    defence_modifiers: int = 0
    drawn: bool = True
    abort: str = "none"
    sdp: int = 0
    kills: int = 0
    called_shot: str | None = None
    vehicle: Vehicle | None = None
    carrier: str | None = None  # crew: the name of the vehicle it rides in
    role: str = ""  # crew: pilot | gunner | passenger
    #: every weapon it fires, ``weapon`` (the one in hand at the start) first, when it operates
    #: several vehicle weapons (M-76); tactics pick one by name (``do: attack, weapon: NAME``)
    arsenal: tuple[Weapon, ...] = ()
    #: The weight in kg falls and collisions go by (None: a person's 72 kg, VA-36)
    weight_kg: float | None = None
    # --- the environment (features/hazards/build.py) ---
    #: a poison or drug in its blood from the start (VA-48): ``hazards.build.Poison``
    poison: Any = None
    #: sitting quietly: holds its breath END / 2 phases, not END / 4 (M-71, VA-47)
    resting: bool = False
    #: pushing (M-75): extra STR levels it calls on all fight, 5 END a phase each, then STUN
    push: int = 0

    @property
    def xy(self) -> tuple[float, float]:
        """The position as ``(x, y)`` in metres (a number on a line is ``(x, 0)``)."""
        if isinstance(self.position, tuple):
            return (float(self.position[0]), float(self.position[1]))
        return (float(self.position), 0.0)

    @property
    def spd(self) -> int:
        """SPD (``derived["spd"]``, 4 unless given)."""
        return int(self.derived.get("spd", 4))

    def skill(self, name: str) -> int:
        """Skill level, 0 if the combatant lacks it."""
        return self.skills.get(name, 0)
