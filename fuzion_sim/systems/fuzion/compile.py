"""Scenario -> Plan: every look-up and table the kernel needs, as flat arrays and integer codes."""

from __future__ import annotations

import dataclasses
from functools import cache
from importlib import resources
from typing import NamedTuple

import numpy as np
import yaml

from ...validation.model import Scenario
from . import codes, dice, tables, tactics
from .features.dogfights.build import dogfight_arrays
from .features.hazards.build import hazard_arrays, hazard_options
from .features.motion.build import motion_arrays
from .features.scene.build import impact_arrays
from .model import BOW_MAX_STR, BOW_RANGE_PER_STR, SWITCHES
from .rules import (
    FISTS_DC,
    KILLING,
    STUN,
    armour_value,
    attacker_modifiers,
    damage_dice,
    range_modifier,
    target_modifiers,
)
from .tables import autofire_ratio, hit_locations
from .timing import build_timing

__all__ = [
    "MELEE_DEFENCE_SKILLS", "DuelPlan", "Plan", "StandingPlan", "compile_scenario", "duel_plan",
    "standing_plan",
]  # fmt: skip

#: F1: against melee the defender uses the highest of these skills (with DEX).
MELEE_DEFENCE_SKILLS = ("Athletics", "Hand to Hand", "Melee", "Fencing")


class Plan(NamedTuple):
    """A compiled Fuzion scenario: the arrays the general kernel runs (``kernel.run_chunk``),
    one entry a combatant (C) where not said otherwise.

    Fields
    ------
    side ... pos_y0 : int64[C] or float64[C]
        Sheet values, the skills each attack
        form uses, initiative order by sheet REF, targeting rule (``tactics.T_*``), surprise,
        starting position in metres, INT and Perception, obscured, weapon holstered at the start
        (``drawn: false``), no weapon (the fists: every attack a punch), abort (``ABORT_*``),
        TECH and Physician (first aid), scale (``SCALE_*``), the BODY (Kills) knockback
        subtracts, a called shot's location (-1: none) and its modifier against each target
        (``called_mod[a * C + t]``; at a vehicle, its row's).
    w_* : per-combatant weapon: melee flag, damage type, DC, WA, minimum STR, listed range
        (melee: reach), AP, energy, magazine (-1: unlimited), actions to reload, Kills (0: a DC
        weapon), bladed. ``a_*``: armour PD, EKD, Kills, half against blades, the bitmask of
        hit locations it covers.
    tgt_mod_r, tgt_mod_m, cover_r, cover_m, att_mod_r, att_mod_m : int64[C]
        Attack modifiers for ranged and melee attacks against each combatant (size,
        silhouetted), for its cover and posture (which it leaves when it moves), and by it
        (braced and the GM's flat modifier).
    tac_default, rule_start, rule_count, rules, code, consts
        The tactics programs (``tactics.pack``); ``tac_default[c]`` 1 skips the interpreter
        for the default tactic (close to range, attack).
    acts : int8[C * slots_per_round]
        1 where combatant ``c`` acts in slot ``s`` of a round (``acts[c * spr + s]``).
    start_slot, slots_per_unit, max_slots : int
        The slot of the round the fight starts in, slots per reported time unit, and the
        slots the fight may last (``timing.Timing``).
    options : int64[N_OPTIONS]
        Rule switches as integers (``OPT_*``); ``ap_factor`` the AP armour factor,
        ``knock_unit`` metres per knockback unit.
    roll_table : int8[N]
        Equally likely outcomes of attacker roll minus defender roll (``dice.roll_table``);
        ``task_table`` the acting roll alone (``dice.task_table``, unopposed tasks).
    nd6_offsets, nd6_table
        Equally-likely-outcome tables for up to 5 d6 (``dice.nd6_tables``).
    loc_by_roll, loc_num, loc_den : int64
        Hit location of each 3d6 total, and each location's damage multiplier num / den.
    carrier ... v_locid
        The vehicles (``compile.vehicle_arrays``): whom each crew member rides in, each
        vehicle's pilot, class, heading, Kill unit, its hit table by aspect and by row, and
        the row each attacker's called shot hits (``v_call[a * C + v]``, -1: rolled).
    w_missile, w_mdv, m_evade, m_evade_ref, m_cm : int64[C]
        The missiles (``compile.missile_arrays``): missiles per launch of each combatant's
        weapon (0: none), their DV, each evader's skill and whether it adds to REF, and its
        countermeasure charges (-1: unlimited).
    w_arc, w_mounted, arm_start, arms_i, arms_f
        The arc each weapon in hand covers (``codes.ARC_*``), 1 where a combatant's weapons are
        its vehicle's (lost with its Weapon location, VA-11), and the weapons of those who fire
        several (``compile.arsenal_arrays``, ``arsenal.py``).
    rscale : float64[C]; rs_target : int64[C]; suit_max : int64[C]
        The mecha rules (``compile.mecha_arrays``): the factor of each attacker's range bands
        (1, or 10 for the mecha range scale, M-18, VA-17), 1 where it applies against that
        target (``both_mecha``: mecha only), and the SDP of each combatant's powered armour
        (0: none, M-35).
    im_row ... im_opts, terrain
        Falls, obstacles and terrain (``scene.build.impact_arrays``): each
        combatant's row of the Falling & Collisions table, the obstacles' rectangles and
        structure, the drops, the table's DC and Kills, its column bands, the switches
        (``im_opts[IO_ANY]``: any obstacle, drop or terrain, the one flag) and the terrain zones
        (``features/scene/terrain.py``).
    hz_kind ... hz_tick, mo_i ... mo_opts
        The environment (``hazards.build.hazard_arrays``, ``hazards.room.Hazards``): the hazard
        zones, whom they reach, armour against them, breath, carried poison, the slots ending a
        phase; vehicles in motion (``motion.build.motion_arrays``).
    df_opts, df_fly, df_skill, df_intel
        Dogfights (``dogfights.build.dogfight_arrays``, ``dogfights.room.Dogfight``): the
        switches and the chart, and per combatant whether it is a flying vehicle with a pilot,
        its pilot's control skill + Maneuver Value, its pilot's INT + Perception.
    """

    side: np.ndarray
    n_sides: int
    ref: np.ndarray
    dex: np.ndarray
    strength: np.ndarray
    body: np.ndarray
    hits_max: np.ndarray
    stun_max: np.ndarray
    sd: np.ndarray
    rec: np.ndarray
    run_m: np.ndarray
    sprint_m: np.ndarray
    att_skill: np.ndarray
    h2h_skill: np.ndarray
    escape_skill: np.ndarray
    def_ranged: np.ndarray
    def_melee: np.ndarray
    pre: np.ndarray
    res: np.ndarray
    base_order: np.ndarray
    targeting: np.ndarray
    surprised: np.ndarray
    pos_x0: np.ndarray
    pos_y0: np.ndarray
    int_: np.ndarray
    perception: np.ndarray
    obscured: np.ndarray
    holstered0: np.ndarray
    unarmed0: np.ndarray
    abort_kind: np.ndarray
    tech: np.ndarray
    physician: np.ndarray
    scale: np.ndarray
    knock_body: np.ndarray
    called_loc: np.ndarray
    called_mod: np.ndarray
    w_melee: np.ndarray
    w_dmg: np.ndarray
    w_dc: np.ndarray
    w_acc: np.ndarray
    w_min_str: np.ndarray
    w_range: np.ndarray
    w_ap: np.ndarray
    w_energy: np.ndarray
    w_shots: np.ndarray
    w_reload: np.ndarray
    w_kills: np.ndarray
    w_blade: np.ndarray
    w_autofire: np.ndarray
    w_rof: np.ndarray
    w_area: np.ndarray
    w_explosive: np.ndarray
    a_pd: np.ndarray
    a_ekd: np.ndarray
    a_kills: np.ndarray
    a_half_blades: np.ndarray
    a_cover: np.ndarray
    tgt_mod_r: np.ndarray
    tgt_mod_m: np.ndarray
    cover_r: np.ndarray
    cover_m: np.ndarray
    att_mod_r: np.ndarray
    att_mod_m: np.ndarray
    tac_default: np.ndarray
    rule_start: np.ndarray
    rule_count: np.ndarray
    rules: np.ndarray
    code: np.ndarray
    consts: np.ndarray
    presence_margin: np.ndarray
    presence_effect: np.ndarray
    acts: np.ndarray
    slots_per_round: int
    start_slot: int
    slots_per_unit: int
    max_slots: int
    options: np.ndarray
    ap_factor: float
    knock_unit: float
    roll_table: np.ndarray
    task_table: np.ndarray
    def_table: np.ndarray
    nd6_offsets: np.ndarray
    nd6_table: np.ndarray
    loc_by_roll: np.ndarray
    loc_num: np.ndarray
    loc_den: np.ndarray
    # vehicles and mecha (see vehicle_arrays)
    carrier: np.ndarray
    pilot_of: np.ndarray
    vclass: np.ndarray
    heading0: np.ndarray
    kill_unit: np.ndarray
    v_rows: np.ndarray
    v_nrows: np.ndarray
    v_num: np.ndarray
    v_den: np.ndarray
    v_crew: np.ndarray
    v_thr: np.ndarray
    v_eff: np.ndarray
    v_locid: np.ndarray
    v_call: np.ndarray
    # missiles (see missile_arrays)
    w_missile: np.ndarray
    w_mdv: np.ndarray
    m_evade: np.ndarray
    m_evade_ref: np.ndarray
    m_cm: np.ndarray
    # the arc each weapon in hand covers (codes.ARC_*); the weapons of those who fire several
    # (arsenal_arrays)
    w_arc: np.ndarray
    # 1 where the weapons one fires are its vehicle's (the same for all it takes up: VA-11)
    w_mounted: np.ndarray
    arm_start: np.ndarray
    arms_i: np.ndarray
    arms_f: np.ndarray
    # the mecha rules (see mecha_arrays; rscale, the range bands' factor, is the weapon's)
    rscale: np.ndarray
    rs_target: np.ndarray
    suit_max: np.ndarray
    # --- falls and obstacles (impact_build.impact_arrays) ---------------------
    im_row: np.ndarray
    ob_rect: np.ndarray
    ob_sdp: np.ndarray
    ob_kills: np.ndarray
    drop_geo: np.ndarray
    fall_dc: np.ndarray
    fall_kills: np.ndarray
    im_bands: np.ndarray
    im_opts: np.ndarray
    terrain: np.ndarray
    # --- the environment (hazard_build.hazard_arrays, hazard.Hazards) ---
    hz_kind: np.ndarray
    hz_dc: np.ndarray
    hz_shape: np.ndarray
    hz_geom: np.ndarray
    hz_flags: np.ndarray
    hz_who: np.ndarray
    hz_arm: np.ndarray
    endurance: np.ndarray
    ps_dc0: np.ndarray
    ps_pool0: np.ndarray
    hz_tick: np.ndarray
    # --- vehicles in motion (motion_build.motion_arrays, motion.Motion) ---
    mo_i: np.ndarray
    mo_f: np.ndarray
    mo_dv: np.ndarray
    mo_opts: np.ndarray
    # --- dogfights (dogfight_build.dogfight_arrays, dogfight.Dogfight) ---
    df_opts: np.ndarray
    df_fly: np.ndarray
    df_skill: np.ndarray
    df_intel: np.ndarray

    @property
    def n_combatants(self) -> int:
        return int(self.side.shape[0])


ABORT_CODES = {"none": codes.ABORT_NONE, "dodge": codes.ABORT_DODGE,
               "block": codes.ABORT_BLOCK, "dive": codes.ABORT_DIVE}  # fmt: skip


@cache
def _presence_table() -> tuple[np.ndarray, np.ndarray]:
    text = resources.files("fuzion_sim.systems.fuzion.data").joinpath("presence.yaml").read_text()
    rows = yaml.safe_load(text)["presence"]
    effects = {"none": codes.PA_NONE, "penalty": codes.PA_PENALTY,
               "lose_action": codes.PA_LOSE_ACTION, "surrender": codes.PA_SURRENDER}  # fmt: skip
    margin = _ints([r["margin"] for r in rows])
    effect = np.ascontiguousarray([[effects[r["effect"]], r["value"]] for r in rows], np.int64)
    return margin, effect


def weapon_range(c) -> float:
    """A combatant's weapon range: the listed range, or for a bow 20 m per STR point up to the
    bow's STR cap (seed "Archery Attacks")."""
    w = c.weapon
    if w.bow == "none":
        return float(w.range)
    return float(BOW_RANGE_PER_STR * min(c.stats["STR"], BOW_MAX_STR[w.bow]))


def area_radius(w) -> float:
    """F17: an area weapon's radius in metres (per barrel, die of damage, or Kill); 0: none."""
    if w.area is None:
        return 0.0
    count = {"barrel": w.barrels, "die": w.dc, "kill": w.kills}[w.area.per]
    return float(w.area.radius * max(count, 1))


def autofire_ratio_of(rules) -> int:
    """F15: ``rules.autofire_ratio`` when set (> 0), else the campaign style's ratio."""
    ratio = int(rules.values.get("autofire_ratio", 0) or 0)
    return ratio if ratio > 0 else autofire_ratio(rules.values.get("campaign", "heroic"))


#: F31: the skills a pilot controls a vehicle with (the higher counts for an object whose sheet
#: is its pilot's; a declared vehicle's class picks one, VA-03).
CONTROL_SKILLS = ("Piloting", "Driving")


def defence_of(c, scale: int) -> tuple[int, int, int]:
    """``(defence characteristic, skill against ranged attacks, skill against melee)`` of
    combatant ``c`` (F1): a person's DEX with Ranged Evade, or the best melee skill; an object
    with SDP or Kills (``scale``) is a vehicle whose sheet is its pilot's, and an attack on it
    opposes REF + the higher of Piloting and Driving, ranged or melee (F31, M-16); a declared
    vehicle's pilot opposes with its class's control skill (VA-03)."""
    mods = c.defence_modifiers
    vehicle = getattr(c, "vehicle", None)
    if vehicle is not None:
        control = c.skill(vehicle.control_skill)
        return c.stats["REF"], control + mods, control + mods
    if scale != codes.SCALE_PERSON:
        control = max(c.skill(s) for s in CONTROL_SKILLS)
        return c.stats["REF"], control + mods, control + mods
    melee = max(c.skill(s) for s in MELEE_DEFENCE_SKILLS)
    return c.stats["DEX"], c.skill("Ranged Evade") + mods, melee + mods


def _spd(c) -> int:
    """SPD (speed chart / extra actions); 4 (one action a phase) unless given."""
    return int(c.derived.get("spd", 4))


def distance(p, q) -> float:
    """Metres between two positions: numbers on a line or ``(x, y)`` pairs."""
    px, py = (p, 0.0) if isinstance(p, int | float) else p
    qx, qy = (q, 0.0) if isinstance(q, int | float) else q
    return float(np.hypot(float(qx) - float(px), float(qy) - float(py)))


def _ints(values) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _floats(values) -> np.ndarray:
    return np.ascontiguousarray([float(v) for v in values], dtype=np.float64)


def switch_slots(vector: str, slots: tuple[str, ...], rules) -> np.ndarray:
    """A new option vector of ``slots`` (int64) with the slot of every switch declared for
    ``vector`` filled as the scenario sets it (``Switch.encode``); the others 0, for the
    compiler to fill."""
    options = np.zeros(len(slots), np.int64)
    for name in codes.declared(vector):
        switch = SWITCHES[name]
        options[slots.index(name)] = switch.encode(rules.values.get(name, switch.default))
    return options


def _rule_options(rules, timing, has_ties: bool, switch2: bool, any_vehicle: bool,
                  any_missile: bool) -> np.ndarray:
    """The rule switches as the kernels read them (``options``, int64[N_OPTIONS], slots
    ``codes.OPT_*``): every switch declared with a slot as it is (``Switch.encode``), then the
    slots worked out here with what the fight has: ties of REF (F9 switch1), a vehicle, a
    missile weapon in hand or taken up later (``arsenal_arrays``)."""
    options = switch_slots("options", codes.OPTIONS, rules)
    options[codes.OPT_HAS_TIES] = has_ties
    options[codes.OPT_SWITCH2] = switch2
    options[codes.OPT_INIT_DICE] = 10 if rules.dice == "interlock" else 3
    options[codes.OPT_WAKE_OWN_PHASE] = rules.timing == "speed_chart"
    options[codes.OPT_RECOVERY_SLOT] = timing.recovery_slot
    # F4: unopposed DVs are for 3d6; under Interlock subtract 5
    dv = int(rules.values.get("obscured_dv", 14))
    options[codes.OPT_PERCEPTION_DV] = dv - 5 if rules.dice == "interlock" else dv
    options[codes.OPT_AUTOFIRE_RATIO] = autofire_ratio_of(rules)
    chinks = bool(rules.values.get("chinks", False))
    # VA-43 chinks_scope: mecha leaves everyone but vehicles out
    options[codes.OPT_CHINKS] = chinks and rules.values.get("chinks_scope", "all") == "all"
    options[codes.OPT_CHINKS_VEHICLES] = chinks
    options[codes.OPT_ANY_VEHICLE] = any_vehicle
    options[codes.OPT_VEHICLE_LOCATIONS] = rules.values.get("vehicle_locations") != "none"
    options[codes.OPT_FRONT_ARC] = 30 if rules.values.get("facing_arcs") == "hex" else 45
    if options[codes.OPT_ANY_VEHICLE]:  # VA-04: the DV of a vehicle nobody drives
        options[codes.OPT_UNMANNED] = (
            codes.UNMANNED_ZERO_BASE if rules.values.get("unmanned_dv") == "zero_base"
            else codes.UNMANNED_BY_RANGE)  # fmt: skip
        options[codes.OPT_UNMANNED_SHIFT] = 5 if rules.dice == "interlock" else 0
    options[codes.OPT_AREA_KILL_FALLOFF] = (
        rules.values.get("area_kill_falloff", "per_radius_step") == "per_radius_step")
    options[codes.OPT_SEMI_AUTO_ROF] = (
        rules.values.get("semi_auto_rof", "extra_attacks") == "extra_attacks"
    )
    options[codes.OPT_ANY_MISSILE] = any_missile
    return options


def compile_scenario(scenario: Scenario) -> Plan:
    """Turn a validated scenario into the arrays of :class:`Plan`."""
    rules = scenario.rules
    fighters = scenario.combatants
    side_index = {name: i for i, name in enumerate(scenario.sides)}
    stat = {k: _ints([c.stats[k] for c in fighters]) for k in ("REF", "DEX", "STR", "BODY", "PRE")}
    derived = {k: [c.derived[k] for c in fighters] for k in ("hits", "stun", "sd", "rec", "res")}

    ref = stat["REF"]
    # F9 switch1: sheet REF, descending; listed order among equals until the per-fight die roll
    base_order = _ints(sorted(range(len(fighters)), key=lambda i: -ref[i]))
    switch2 = rules.initiative == "switch2"
    has_ties = not switch2 and len(set(ref.tolist())) < len(fighters)
    timing = build_timing(
        rules.timing, [_spd(c) for c in fighters], rules.values.get("extra_actions_table", "rule")
    )
    weapons = [c.weapon for c in fighters]
    nd6_offsets, nd6_table = dice.nd6_tables()

    veh = vehicle_arrays(fighters, rules)
    mis = missile_arrays(fighters, rules)
    options = _rule_options(rules, timing, has_ties, switch2, bool(veh["vclass"].any()), any(
        w.missile is not None for c in fighters for w in (c.arsenal or (c.weapon,))))
    mecha_options(options, rules)
    mecha = mecha_arrays(fighters, rules)
    hazard_options(options, scenario)  # the environment (features/hazards/build.py)

    # size and silhouette stay with a combatant; cover and posture it leaves when it moves
    mods_t = [target_modifiers("none", c.size, False, False, c.silhouetted) for c in fighters]
    covers = [target_modifiers(c.cover, "normal", c.prone, c.crouched, False) for c in fighters]
    drops = [d.name for d in scenario.scene.get("drops", ())]  # a jump's drop
    packed = tactics.pack([tactics.program_of(c, drops) for c in fighters])
    default = list(tactics.validate_tactics(None))
    margin, effect = _presence_table()
    locations = hit_locations()
    all_locations = (1 << len(locations.names)) - 1

    def cover_mask(armor) -> int:
        covers = getattr(armor, "covers", None)
        if not covers:
            return all_locations
        return sum(1 << locations.index(name) for name in covers)

    def scale_of(c) -> int:
        if getattr(c, "kills", 0):
            return codes.SCALE_KILLS
        return codes.SCALE_OBJECT if getattr(c, "sdp", 0) else codes.SCALE_PERSON

    scales = [scale_of(c) for c in fighters]
    # F31: an attack on a vehicle opposes its pilot's REF + Piloting (or Driving); an object
    # with SDP or Kills is one whose sheet is its pilot's (M-16, VA-03)
    defence = [defence_of(c, s) for c, s in zip(fighters, scales, strict=True)]
    if rules.values.get("maneuver_in_defence", False):  # VA-02: the MV adds to the DV too
        defence = [(d[0], d[1] + _maneuver(c), d[2] + _maneuver(c))
                   for c, d in zip(fighters, defence, strict=True)]  # fmt: skip
    # objects and Kill-rated structures: their SDP or Kills are the pool; no Stun to lose
    # (a huge Stun never reaches 0) and "dead" (destroyed) at 0 (BODY 0 in the death rule)
    hits_max = [
        c.kills * u if s == codes.SCALE_KILLS else c.sdp if s == codes.SCALE_OBJECT else h
        for c, s, h, u in zip(fighters, scales, derived["hits"], veh["kill_unit"], strict=True)
    ]
    stun_max = [st if s == 0 else 1 << 40 for s, st in zip(scales, derived["stun"], strict=True)]

    acts = timing.acts.copy()
    spr = timing.slots_per_round
    for c, member in enumerate(fighters):
        if getattr(member, "role", "") == "pilot":
            acts[c * spr:(c + 1) * spr] = 0  # its actions are the vehicle's (VA-18)

    return Plan(
        side=_ints([side_index[c.side] for c in fighters]),
        n_sides=len(scenario.sides),
        ref=ref,
        dex=_ints([d[0] for d in defence]),
        strength=stat["STR"] + _ints([c.push for c in fighters]),  # pushing (M-75)
        body=_ints([b if s == 0 else 0 for b, s in zip(stat["BODY"], scales, strict=True)]),
        hits_max=_ints(hits_max),
        stun_max=_ints(stun_max),
        sd=_ints([sd if s == 0 else 0 for sd, s in zip(derived["sd"], scales, strict=True)]),
        rec=_ints(derived["rec"]),
        run_m=_floats([c.derived["run"] for c in fighters]),
        sprint_m=_floats([c.derived["sprint"] for c in fighters]),
        h2h_skill=_ints([c.skill("Hand to Hand") for c in fighters]),
        escape_skill=_ints([max(c.skill("Athletics"), c.skill("Hand to Hand")) for c in fighters]),
        def_ranged=_ints([d[1] for d in defence]),
        def_melee=_ints([d[2] for d in defence]),
        pre=stat["PRE"],
        res=_ints(derived["res"]),
        base_order=base_order,
        targeting=_ints([tactics.TARGETING[c.targeting] for c in fighters]),
        surprised=_ints([bool(c.surprised) for c in fighters]),
        pos_x0=_floats([c.xy[0] for c in fighters]),
        pos_y0=_floats([c.xy[1] for c in fighters]),
        int_=_ints([c.stats["INT"] for c in fighters]),
        perception=_ints([c.skill("Perception") for c in fighters]),
        obscured=_ints([c.obscured for c in fighters]),
        holstered0=_ints([not c.drawn for c in fighters]),
        unarmed0=_ints([w.unarmed for w in weapons]),
        abort_kind=_ints([ABORT_CODES[c.abort] for c in fighters]),
        tech=_ints([c.stats["TECH"] for c in fighters]),
        physician=_ints([c.skill("Physician") for c in fighters]),
        scale=_ints(scales),
        knock_body=_ints([knock_body_of(c, s) for c, s in zip(fighters, scales, strict=True)]),
        **called_arrays(fighters, rules, veh["vclass"]),
        a_pd=_ints([c.armor.pd for c in fighters]),
        a_ekd=_ints([c.armor.ekd for c in fighters]),
        a_kills=_ints([getattr(c.armor, "kills", 0) for c in fighters]),
        a_half_blades=_ints([c.armor.half_vs_blades for c in fighters]),
        a_cover=_ints([cover_mask(c.armor) for c in fighters]),
        tgt_mod_r=_ints([m[0] for m in mods_t]),
        tgt_mod_m=_ints([m[1] for m in mods_t]),
        cover_r=_ints([m[0] for m in covers]),
        cover_m=_ints([m[1] for m in covers]),
        tac_default=_ints([list(c.tactics) == default for c in fighters]),
        rule_start=packed.rule_start,
        rule_count=packed.rule_count,
        rules=packed.rules,
        code=packed.code,
        consts=packed.consts,
        presence_margin=margin,
        presence_effect=effect,
        acts=acts,
        slots_per_round=timing.slots_per_round,
        start_slot=timing.start_slot,
        slots_per_unit=timing.slots_per_unit,
        max_slots=int(scenario.max_rounds) * timing.slots_per_round,
        options=options,
        ap_factor=float(rules.ap_factor),
        knock_unit=float(rules.values.get("knockback_unit", 1.0)),
        roll_table=dice.roll_table(rules.dice, rules.criticals),
        task_table=dice.task_table(rules.dice, rules.criticals),
        def_table=dice.defence_table(rules.dice, rules.criticals),
        nd6_offsets=nd6_offsets,
        nd6_table=nd6_table,
        loc_by_roll=_ints(np.maximum(locations.location_by_roll, 0)),
        loc_num=_ints([m.numerator for m in locations.multipliers]),
        loc_den=_ints([m.denominator for m in locations.multipliers]),
        **{k: veh[k] for k in _VEHICLE_FIELDS},
        **mis,
        **weapon_columns(fighters, rules, fighters),
        **arsenal_arrays(fighters, rules),
        **mecha,
        **impact_arrays(scenario, fighters),
        **hazard_arrays(scenario, fighters, timing.slots_per_round),
        **motion_arrays(scenario, fighters),
        **dogfight_arrays(fighters, rules),
    )


#: The plan's per-combatant arrays that follow from the weapon in hand (and the skill and the
#: attack modifiers that go with it): what a change of weapon (``arms_*``) writes over, integers
#: then floats, in the columns' order.
ARM_INT_FIELDS = ("att_skill", "w_melee", "w_dmg", "w_dc", "w_acc", "w_min_str", "w_ap",
                  "w_energy", "w_shots", "w_reload", "w_kills", "w_blade", "w_autofire", "w_rof",
                  "w_explosive", "att_mod_r", "att_mod_m", "w_arc", "w_missile",
                  "w_mdv")  # fmt: skip
ARM_FLOAT_FIELDS = ("w_range", "w_area", "rscale")
ARC_CODES = {"all": codes.ARC_ALL, "front": codes.ARC_FRONT, "rear": codes.ARC_REAR,
             "left": codes.ARC_LEFT, "right": codes.ARC_RIGHT,
             "sides": codes.ARC_SIDES}  # fmt: skip


def weapon_columns(members, rules, fighters) -> dict[str, np.ndarray]:
    """The arrays of :data:`ARM_INT_FIELDS` and :data:`ARM_FLOAT_FIELDS` for the weapon in hand
    of each of ``members`` (of the fight's ``fighters``): its skill level, the weapon's values,
    the attack modifiers by it (braced, the GM's flat modifier, a fixed mount's -4, VA-15), the
    arc it covers and the factor of its range bands (:func:`range_scale`, M-18, VA-17), which
    also multiplies a melee weapon's reach (4 m becomes 40 m, whatever the target)."""
    weapons = [c.weapon for c in members]
    rscale = [range_scale(c, fighters, rules) for c in members]
    interlock = rules.dice == "interlock" and rules.values.get(
        "missile_dv_interlock", "minus5") == "minus5"
    mods_a = [attacker_modifiers(c.modifiers - no_turret_penalty(c, fighters, rules), c.braced)
              for c in members]  # fmt: skip
    return {
        "att_skill": _ints([c.skill(w.skill) for c, w in zip(members, weapons, strict=True)]),
        "w_melee": _ints([w.kind == "melee" for w in weapons]),
        "w_dmg": _ints([STUN if w.damage == "stun" else KILLING for w in weapons]),
        "w_dc": _ints([FISTS_DC if w.unarmed else w.dc for w in weapons]),
        "w_acc": _ints([w.accuracy for w in weapons]),
        "w_min_str": _ints([w.min_str for w in weapons]),
        "w_range": _floats([weapon_range(c) * (f if c.weapon.kind == "melee" else 1.0)
                            for c, f in zip(members, rscale, strict=True)]),
        "rscale": _floats(rscale),
        "w_ap": _ints([w.ap for w in weapons]),
        "w_energy": _ints([w.energy for w in weapons]),
        "w_shots": _ints([-1 if w.shots is None else w.shots for w in weapons]),
        # a missile launcher without reload_actions carries its shots alone: 0, no reload
        "w_reload": _ints([_reload_actions(w) for w in weapons]),
        "w_kills": _ints([getattr(w, "kills", 0) for w in weapons]),
        "w_blade": _ints([getattr(w, "blade", False) for w in weapons]),
        "w_autofire": _ints([w.autofire for w in weapons]),
        "w_rof": _ints([w.rof for w in weapons]),
        "w_area": _floats([area_radius(w) for w in weapons]),
        "w_explosive": _ints([w.explosive for w in weapons]),
        "att_mod_r": _ints([m[0] for m in mods_a]),
        "att_mod_m": _ints([m[1] for m in mods_a]),
        "w_arc": _ints([ARC_CODES[getattr(w, "arc", "all")] for w in weapons]),
        "w_mounted": _ints([getattr(w, "mount", "none") != "none" for w in weapons]),
        # missiles: those one launch fires (0: not a missile weapon) and their DV, 5 less
        # under Interlock with missile_dv_interlock: minus5 (F4, F18, VA-22)
        "w_missile": _ints([0 if w.missile is None else w.missile.cluster for w in weapons]),
        "w_mdv": _ints([0 if w.missile is None else w.missile.dv - 5 * interlock
                        for w in weapons]),
    }


def arsenal_arrays(fighters, rules) -> dict[str, np.ndarray]:
    """The weapons of the fighters that fire several (``Combatant.arsenal``, M-76), for the
    kernel's change of weapon: ``arm_start[c]`` the first row of fighter ``c``'s weapons (-1:
    one weapon), then one row per weapon of ``arms_i`` (:data:`ARM_INT_FIELDS`) and ``arms_f``
    (:data:`ARM_FLOAT_FIELDS`), as :func:`weapon_columns` gives them with that weapon in hand.
    A tactic's ``weapon:`` is 1 + the weapon's index in its fighter's list (``tactics``)."""
    start = np.full(len(fighters), -1, np.int64)
    armed = []
    for c, member in enumerate(fighters):
        if getattr(member, "arsenal", ()):
            start[c] = len(armed)
            armed.extend(dataclasses.replace(member, weapon=w) for w in member.arsenal)
    cols = weapon_columns(armed, rules, fighters) if armed else None
    return {
        "arm_start": start,
        "arms_i": np.ascontiguousarray(
            np.stack([cols[k] for k in ARM_INT_FIELDS], axis=1) if cols
            else np.zeros((0, len(ARM_INT_FIELDS)), np.int64)),
        "arms_f": np.ascontiguousarray(
            np.stack([cols[k] for k in ARM_FLOAT_FIELDS], axis=1) if cols
            else np.zeros((0, len(ARM_FLOAT_FIELDS)), np.float64)),
    }  # fmt: skip


def _reload_actions(w) -> int:
    """Actions a reload takes; 0 for a missile launcher without ``reload_actions``, whose
    ``shots`` are every launch it carries, and for a thrown object (nothing to reload)."""
    if w.thrown is not None:  # each object is thrown once (M-73): nothing to reload
        return 0
    return 0 if w.missile is not None and not w.missile.reloads else w.reload_actions


def _maneuver(c) -> int:
    """A declared vehicle's Maneuver Value (VA-02), 0 for anyone else."""
    vehicle = getattr(c, "vehicle", None)
    return int(vehicle.maneuver) if vehicle is not None else 0


def missile_arrays(fighters, rules) -> dict:
    """The missiles' arrays (F18, M-42 to M-45, VA-20 to VA-25; the weapon's own, ``w_missile``
    and ``w_mdv``, are :func:`weapon_columns`'), per combatant:

    - ``m_evade[c]`` the skill ``c`` evades with and ``m_evade_ref[c]`` 1 when it is added to
      REF, else to the defence characteristic (``dex``): a vehicle's pilot REF + its control
      skill (F18 "Piloting+REF", F31; + the Maneuver Value under ``maneuver_in_defence``,
      VA-02), a person's DEX + Ranged Evade or, with ``missile_evasion_on_foot:
      ref_athletics``, REF + Athletics (VA-24); the GM's ``defence_modifiers`` count too;
    - ``m_cm[c]`` its countermeasure charges (M-44, VA-25; -1 unlimited).
    """
    on_foot = rules.values.get("missile_evasion_on_foot", "ranged_evade")
    mv = bool(rules.values.get("maneuver_in_defence", False))
    evade, evade_ref, cm = [], [], []
    for c in fighters:
        vehicle = getattr(c, "vehicle", None)
        mods = c.defence_modifiers
        if vehicle is not None:
            evade.append(c.skill(vehicle.control_skill) + mods + (vehicle.maneuver if mv else 0))
            evade_ref.append(0)  # a vehicle's defence characteristic is its pilot's REF
        elif getattr(c, "sdp", 0) or getattr(c, "kills", 0):
            evade.append(max(c.skill(s) for s in CONTROL_SKILLS) + mods)
            evade_ref.append(0)
        elif on_foot == "ref_athletics":
            evade.append(c.skill("Athletics") + mods)
            evade_ref.append(1)
        else:
            evade.append(c.skill("Ranged Evade") + mods)
            evade_ref.append(0)
        cm.append(vehicle.countermeasures if vehicle is not None else 0)
    return {"m_evade": _ints(evade), "m_evade_ref": _ints(evade_ref), "m_cm": _ints(cm)}


def knock_body_of(c, scale: int) -> int:
    """What knockback subtracts (F28): a Kill-rated target's Kills, an SDP vehicle's SDP // 5
    (VA-41), else BODY."""
    if scale == codes.SCALE_KILLS:
        return int(c.kills)
    if getattr(c, "vehicle", None) is not None:
        return int(c.sdp) // 5
    return int(c.stats["BODY"])


def no_turret_penalty(c, fighters, rules) -> int:
    """L485 "Vehicle mounted, no turret -4" (VA-15): on a fixed-mount vehicle weapon
    (``fixed_mounts``), also on hand weapons fired from a vehicle (``all_vehicle_fire``), or
    never."""
    mode = rules.values.get("no_turret", "fixed_mounts")
    mount = getattr(c.weapon, "mount", "none")
    if mode == "never":
        return 0
    if mount == "fixed":
        return 4
    riding = getattr(c, "carrier", None) is not None or getattr(c, "vehicle", None) is not None
    return 4 if mode == "all_vehicle_fire" and riding and mount == "none" else 0


def mecha_options(options: np.ndarray, rules) -> None:
    """The special armour rules for mecha into ``options`` (F30, VA-42, VA-45): staged
    penetration (0 off, else ``codes.STAGED_*``) and structural integrity (0 off, else
    ``codes.INTEGRITY_*``); their other switches have slots of their own."""
    values = rules.values
    if values.get("staged_penetration", False):
        options[codes.OPT_STAGED] = {"minus_one": codes.STAGED_MINUS_ONE, "all": codes.STAGED_ALL,
                                     "amount": codes.STAGED_AMOUNT}[
            values.get("staged_loss", "minus_one")]  # fmt: skip
    if values.get("structural_integrity", False):
        options[codes.OPT_INTEGRITY] = {"total_tenths": codes.INTEGRITY_TOTAL,
                                        "fractional_part": codes.INTEGRITY_FRACTION}[
            values.get("integrity_count", "total_tenths")]  # fmt: skip


def range_scale(c, fighters, rules) -> float:
    """The factor of ``c``'s range bands (M-18, VA-17): 10 for a vehicle weapon marked ``scale:
    mecha``, or unmarked and fired from a mecha (``mecha_range_scale: attacker`` and
    ``both_mecha``) or from any vehicle (``all_vehicles``); 1 for a hand weapon (a crew
    member's own, or a pilot's that the vehicle fires) and for ``scale: person``."""
    w = c.weapon
    if w.scale != "none":
        return 10.0 if w.scale == "mecha" else 1.0
    if w.mount == "none":
        return 1.0
    if rules.values.get("mecha_range_scale", "attacker") == "all_vehicles":
        return 10.0
    return 10.0 if riding_class(c, fighters) == "mecha" else 1.0


def riding_class(c, fighters) -> str | None:
    """The class of the vehicle ``c`` is (or rides in), or None."""
    vehicle = getattr(c, "vehicle", None)
    if vehicle is None and getattr(c, "carrier", None) is not None:
        vehicle = next(f.vehicle for f in fighters if f.name == c.carrier)
    return None if vehicle is None else vehicle.kind


def mecha_arrays(fighters, rules) -> dict:
    """The mecha rules' arrays:

    - ``rs_target[t]`` 1 where the range bands' factor (the weapon's ``rscale``,
      :func:`weapon_columns`) applies against ``t`` (``both_mecha``: a mecha);
    - ``suit_max[c]`` the SDP of ``c``'s powered armour (M-35, VA-44), 0 for none or with
      ``rules.powered_armour`` off (the scenario check refuses a suit then).
    """
    both = rules.values.get("mecha_range_scale", "attacker") == "both_mecha"
    powered = bool(rules.values.get("powered_armour", False))
    return {
        "rs_target": _ints([not both or riding_class(c, fighters) == "mecha"
                            for c in fighters]),
        "suit_max": _ints([getattr(c.armor, "sdp", 0) if powered else 0 for c in fighters]),
    }


_VEHICLE_FIELDS = ("carrier", "pilot_of", "vclass", "heading0", "kill_unit", "v_rows", "v_nrows",
                   "v_num", "v_den", "v_crew", "v_thr", "v_eff", "v_locid",
                   "v_call")  # fmt: skip


def vehicle_arrays(fighters, rules) -> dict:
    """The vehicles' arrays (../shared/rulings/vehicles M-22 to M-30, VA-05 to VA-14), zeros for
    everyone else:

    - ``carrier[c]`` the vehicle crew member ``c`` rides in (-1: none); ``pilot_of[v]`` the
      pilot of vehicle ``v`` (-1); ``vclass[c]`` its class (``codes.VCLASS_*``, 0: not a
      vehicle); ``heading0[c]`` its heading in radians; ``kill_unit[c]`` 10 when a Kill-rated
      vehicle's Kills are kept in tenths (VA-14), else 1 (its Kills pool is ``kill_unit`` x
      Kills);
    - per vehicle and aspect (``c * 3 + codes.ASPECT_*``) the table's equally likely outcomes
      (side 3d6: 216, front 2d6+1 and rear 2d6+6: 36; a humanoid mecha 3d6 from every side)
      less those of the rows it lacks, which are rolled again (M-24): ``v_rows[(c * 3 + a) *
      216 + k]`` the row of outcome ``k``, ``v_nrows[c * 3 + a]`` how many;
    - per vehicle and row (``c * V_ROWS + r``): the multiplier ``v_num / v_den`` after armour
      (flammable fuel x3, VA-12; ``vehicle_row9``, VA-7), ``v_crew`` 1 for the crew row (the
      damage goes to the pilot, M-26), ``v_thr`` 100 x the damage that destroys a critical
      location (its percentage of the pool, F31; 0: none, or critical effects off), ``v_eff``
      what destroying it does (``codes.EFF_*``), ``v_locid`` its index in
      ``tables.vehicle_location_names()``.
    """
    from .model import VEHICLE_CLASSES

    n = len(fighters)
    nr, no = codes.V_ROWS, codes.V_OUTCOMES
    index = {c.name: i for i, c in enumerate(fighters)}
    out = {
        "carrier": np.full(n, -1, np.int64), "pilot_of": np.full(n, -1, np.int64),
        "vclass": np.zeros(n, np.int64), "heading0": np.zeros(n, np.float64),
        "kill_unit": np.ones(n, np.int64), "v_rows": np.zeros(n * 3 * no, np.int64),
        "v_nrows": np.zeros(n * 3, np.int64), "v_num": np.zeros(n * nr, np.int64),
        "v_den": np.ones(n * nr, np.int64), "v_crew": np.zeros(n * nr, np.int64),
        "v_thr": np.zeros(n * nr, np.int64), "v_eff": np.zeros(n * nr, np.int64),
        "v_locid": np.zeros(n * nr, np.int64), "v_call": np.full(n * n, -1, np.int64),
    }  # fmt: skip
    tenths = rules.values.get("kill_precision", "tenths") == "tenths"
    crits = bool(rules.values.get("critical_effects", True))
    minor = rules.values.get("minor_crits", "effects") == "effects"
    weapon_pct = int(rules.values.get("weapon_disable_pct", 0))  # VA-11: 0, never
    row9 = rules.values.get("vehicle_row9", "literal")
    names = tables.vehicle_location_names()
    effects = {name: i for i, name in enumerate(tables.VEHICLE_EFFECTS)}
    for c, member in enumerate(fighters):
        carrier = getattr(member, "carrier", None)
        if carrier is not None:
            out["carrier"][c] = index[carrier]
        vehicle = getattr(member, "vehicle", None)
        if vehicle is None:
            continue
        out["pilot_of"][c] = index[vehicle.pilot] if vehicle.pilot else -1
        out["vclass"][c] = VEHICLE_CLASSES.index(vehicle.kind) + 1
        out["heading0"][c] = np.radians(vehicle.heading)
        unit = 10 if (vehicle.kills and tenths) else 1
        out["kill_unit"][c] = unit
        pool = vehicle.kills * unit if vehicle.kills else vehicle.sdp
        rows = vehicle_rows(vehicle, row9)
        for r, row in enumerate(rows):
            k = c * nr + r
            mult = row.multiplier
            if row.flammable is not None and vehicle.fuel_flammable:
                mult = row.flammable
            out["v_num"][k], out["v_den"][k] = mult.numerator, mult.denominator
            out["v_crew"][k] = row.crew
            if crits and row.critical_pct and (minor or not row.minor):
                out["v_thr"][k] = row.critical_pct * pool
                out["v_eff"][k] = effects[row.effect]
            elif crits and weapon_pct and row.location == "weapon":
                out["v_thr"][k] = weapon_pct * pool
                out["v_eff"][k] = codes.EFF_WEAPON
            out["v_locid"][k] = names.index(row.location)
        for a, counts in enumerate(aspect_outcomes(vehicle)):
            base = (c * 3 + a) * no
            m = 0
            for total, count in enumerate(counts, start=3):
                r = next(i for i, row in enumerate(rows) if row.lo <= total <= row.hi)
                if rows[r].location in vehicle.absent:
                    continue  # not there: rolled again (M-24)
                out["v_rows"][base + m:base + m + count] = r
                m += count
            out["v_nrows"][c * 3 + a] = m
        for a, attacker in enumerate(fighters):
            call = called_row(getattr(attacker, "called_shot", None), vehicle, rules)
            if call is not None:
                out["v_call"][a * n + c] = call[0]
    return out


def called_row(location: str | None, vehicle, rules) -> tuple[int, int] | None:
    """The row of ``vehicle``'s table a shot called at ``location`` hits and its modifier
    (``tables.vehicle_called_row``) when ``rules.vehicle_locations`` is ``called``; None: the
    shot is not called at this vehicle (its table is rolled)."""
    if location is None or vehicle is None:
        return None
    if rules.values.get("vehicle_locations", "random") != "called":
        return None
    x_mod = -4 if rules.values.get("vehicle_called_x", "forbidden") == "minus4" else None
    return tables.vehicle_called_row(vehicle.kind, vehicle.absent, location, x_mod)


def called_arrays(fighters, rules, vclass) -> dict[str, np.ndarray]:
    """Called shots (F27, M-77, VA-08): ``called_loc[a]`` the people's location ``a`` calls
    (-1: none), and ``called_mod[a * n + t]`` the modifier of ``a``'s attacks on ``t``: the
    vehicle row's (:func:`called_row`) on a vehicle, the people's location's on anyone else
    under ``rules.hit_locations: called``, else 0."""
    locations = hit_locations()
    n = len(fighters)
    people = rules.values.get("hit_locations", "none") == "called"
    loc = np.full(n, -1, np.int64)
    mod = np.zeros(n * n, np.int64)
    for a, attacker in enumerate(fighters):
        name = getattr(attacker, "called_shot", None)
        if name in locations.names:
            loc[a] = locations.index(name)
        for t, target in enumerate(fighters):
            if vclass[t]:
                call = called_row(name, getattr(target, "vehicle", None), rules)
                mod[a * n + t] = 0 if call is None else call[1]
            elif people and loc[a] >= 0:
                mod[a * n + t] = locations.called_modifiers[loc[a]]
    return {"called_loc": loc, "called_mod": mod}


def vehicle_rows(vehicle, row9: str = "literal"):
    """The printed rows of ``vehicle``'s table (``tables.vehicle_tables``), with the ground
    Body x1 on 10 too under ``vehicle_row9: body_9_10`` (VA-07)."""
    import dataclasses
    from fractions import Fraction

    rows = list(tables.vehicle_tables()[vehicle.kind])
    if row9 == "body_9_10" and vehicle.kind == "ground":
        rows = [dataclasses.replace(r, multiplier=Fraction(1)) if r.location == "body" else r
                for r in rows]  # fmt: skip
    return rows


def aspect_outcomes(vehicle) -> list[tuple[int, ...]]:
    """The roll's counts of the totals 3..18 from the front, side and rear (F31): a humanoid
    mecha rolls 3d6 from every side."""
    if vehicle.kind == "mecha":
        return [tables.aspect_roll_counts("side")] * 3
    return [tables.aspect_roll_counts(a) for a in tables.ASPECTS]


class StandingPlan(NamedTuple):
    """The plan of a standing fight: the standing, squad and duel kernels take it as one
    argument and unpack it in this order.

    side ... w_min_str : int64[C]
        Per-combatant plan arrays (see ``Plan``); ``base_order`` is the initiative order by
        sheet REF, ``targeting`` each one's targeting rule (``tactics.T_*``).
    pair_mod, pair_armour : int64[C * C]; pair_dist : float64[C * C]
        For attacker ``a`` and target ``t`` at ``a * C + t``: the modifier to the attack (range
        band F10, the target's cover, size and posture, the attacker's own), the armour that
        stops that weapon (F20; halved for a blade against ``half_vs_blades``) and the distance
        in metres (``targeting: nearest``).
    acts : int8[C * slots_per_round]
        1 where combatant ``c`` acts in slot ``s`` of a round (``acts[c * spr + s]``).
    start_slot, slots_per_unit, max_slots : int
        The slot of the round the fight starts in, slots per reported time unit, and the slots
        the fight may last (``timing.Timing``).
    surprised : int64[C]
        1: no action in the opening time unit, and attacks against it take +5 there (F11).
    options : int64[N_OPTIONS]
        Rule switches as integers (``OPT_*``).
    roll_table : int8[N]
        Equally likely outcomes of attacker roll minus defender roll (``dice.roll_table``).
    nd6_offsets, nd6_table
        Equally-likely-outcome tables for up to 5 d6 (``dice.nd6_tables``).
    """

    side: np.ndarray
    n_sides: int
    ref: np.ndarray
    dex: np.ndarray
    strength: np.ndarray
    body: np.ndarray
    hits_max: np.ndarray
    stun_max: np.ndarray
    sd: np.ndarray
    rec: np.ndarray
    att_skill: np.ndarray
    def_ranged: np.ndarray
    def_melee: np.ndarray
    base_order: np.ndarray
    targeting: np.ndarray
    w_melee: np.ndarray
    w_dmg: np.ndarray
    w_dc: np.ndarray
    w_acc: np.ndarray
    w_min_str: np.ndarray
    pair_mod: np.ndarray
    pair_armour: np.ndarray
    pair_dist: np.ndarray
    acts: np.ndarray
    slots_per_round: int
    start_slot: int
    slots_per_unit: int
    max_slots: int
    surprised: np.ndarray
    options: np.ndarray
    roll_table: np.ndarray
    nd6_offsets: np.ndarray
    nd6_table: np.ndarray

    @property
    def n_combatants(self) -> int:
        return int(self.side.shape[0])


def scaled_range_modifier(plan: Plan, a: int, t: int, dist: float) -> int:
    """F10's range modifier of ``a``'s attack on ``t`` at ``dist`` metres, the bands x10 under
    the mecha range scale (M-18, VA-17) as ``strike.attack_odds`` has them: the modifier of
    ``dist / 10`` against the listed range / 10 (Melee <= 40 m, Close <= 100 m, Medium <=
    500 m, Extreme -1 per full 500 m past the listed range; examples E-05)."""
    f = float(plan.rscale[a])
    if f > 1.0 and plan.rs_target[t]:
        return int(range_modifier(dist / f, float(plan.w_range[a]) / f))
    return int(range_modifier(dist, plan.w_range[a]))


def pair_distances(plan: Plan) -> np.ndarray:
    """Metres from each combatant to each other at the start, at ``a * C + t`` (float64[C * C]),
    computed as the general kernel computes them (``kernel._geometry``), bit for bit."""
    dx = plan.pos_x0[None, :] - plan.pos_x0[:, None]
    dy = plan.pos_y0[None, :] - plan.pos_y0[:, None]
    return np.ascontiguousarray(np.sqrt(dx * dx + dy * dy).ravel())


class Motion(NamedTuple):
    """What the squad kernel needs to move its combatants (``kernel_squad.run_chunk``'s last
    arguments): whether anyone must move, where each starts, how far it runs, its weapon's
    range, whether it has the default tactic, and per attacker and target (``a * C + t``) the
    attack modifier without the range band and cover, and the target's cover."""

    moving: bool
    pos_x0: np.ndarray
    pos_y0: np.ndarray
    run_m: np.ndarray
    w_range: np.ndarray
    tac_default: np.ndarray
    pair_base: np.ndarray
    pair_cover: np.ndarray


def motion(plan: Plan, moving: bool) -> Motion:
    """The :class:`Motion` of ``plan``'s fight."""
    n = plan.n_combatants
    melee = plan.w_melee[:, None] != 0
    base = np.where(melee, plan.tgt_mod_m[None, :] + plan.att_mod_m[:, None],
                    plan.tgt_mod_r[None, :] + plan.att_mod_r[:, None])  # fmt: skip
    cover = np.where(melee, plan.cover_m[None, :], plan.cover_r[None, :])
    enemy = plan.side[:, None] != plan.side[None, :]
    return Motion(
        moving=bool(moving),
        pos_x0=plan.pos_x0,
        pos_y0=plan.pos_y0,
        run_m=plan.run_m,
        w_range=plan.w_range,
        tac_default=plan.tac_default,
        pair_base=np.ascontiguousarray((base * enemy).astype(np.int64).reshape(n * n)),
        pair_cover=np.ascontiguousarray((cover * enemy).astype(np.int64).reshape(n * n)),
    )


def standing_plan(plan: Plan) -> StandingPlan:
    """The plan of ``plan``'s fight for the standing kernels: per attacker and target the
    static modifier to the attack, the armour that stops it and the distance.

    Only for a fight in which nobody moves or chooses (``dispatch.kernel_for`` decides): the
    pair tables are those of the starting positions.
    """
    n = plan.n_combatants
    dist = pair_distances(plan)
    pair_mod = np.zeros(n * n, np.int64)
    pair_armour = np.zeros(n * n, np.int64)
    for a in range(n):
        for t in range(n):
            if plan.side[a] == plan.side[t]:
                continue
            if plan.w_melee[a]:
                pair_mod[a * n + t] = plan.tgt_mod_m[t] + plan.cover_m[t] + plan.att_mod_m[a]
            else:
                pair_mod[a * n + t] = (
                    scaled_range_modifier(plan, a, t, dist[a * n + t])
                    + plan.tgt_mod_r[t]
                    + plan.cover_r[t]
                    + plan.att_mod_r[a]
                )
            armour = armour_value(
                plan.a_pd[t], plan.a_ekd[t], plan.w_energy[a], plan.w_ap[a], plan.ap_factor
            )
            if plan.w_blade[a] and plan.a_half_blades[t]:
                armour //= 2  # armour good for half against blades
            pair_armour[a * n + t] = armour
    fields = {k: getattr(plan, k) for k in StandingPlan._fields if k in Plan._fields}
    return StandingPlan(**fields, pair_mod=pair_mod, pair_armour=pair_armour, pair_dist=dist)


class DuelPlan(NamedTuple):
    """What the duel kernel reads beyond the :class:`StandingPlan` (its arguments after those,
    in this order): the rule options it runs itself. F27 hit locations (``loc_mode``; a called
    shot's fixed location and modifier; the location of each 3d6 outcome; per attacker, location
    and damage rolled the damage through, armour and multiplier applied), F15 autofire (the
    shots of each attack, its -1 per full 10 in ``fixed_mod``), F28 knockback (the BODY it
    subtracts, metres a unit, and what a move after it reads: positions, runs, ranges, the
    default tactic, the static modifiers cover and posture apart) and F17 spreads (the radius,
    what stops a blast on each combatant, the acting and defending rolls)."""

    loc_mode: int
    knockback: int
    shots: np.ndarray
    fixed_loc: np.ndarray
    fixed_mod: np.ndarray
    loc_of_roll: np.ndarray
    wound: np.ndarray
    wound_size: int
    knock_body: np.ndarray
    knock_unit: float
    pos_x0: np.ndarray
    pos_y0: np.ndarray
    run_m: np.ndarray
    w_range: np.ndarray
    tac_default: np.ndarray
    tgt_mod_r: np.ndarray
    tgt_mod_m: np.ndarray
    cover_r: np.ndarray
    cover_m: np.ndarray
    att_mod_r: np.ndarray
    att_mod_m: np.ndarray
    w_area: np.ndarray
    blast_stop: np.ndarray
    task_table: np.ndarray
    def_table: np.ndarray

    @property
    def options(self) -> tuple[str, ...]:
        """The rule options the fight uses, of ``locations``, ``autofire`` (more than one shot
        an attack), ``knockback`` and ``area``."""
        used = (
            self.loc_mode != codes.LOC_NONE, int(self.shots.max()) > 1, bool(self.knockback),
            bool(self.w_area.any()),
        )  # fmt: skip
        names = ("locations", "autofire", "knockback", "area")
        return tuple(name for name, on in zip(names, used, strict=True) if on)


def _shots(plan: Plan, c: int) -> int:
    """F15: the shots of combatant ``c``'s every attack in a standing fight (its tactic the
    default, fire 1, or a first rule ``attack`` with its ``fire``; 0: all): 1 without autofire,
    with the fists, or with an area weapon (a blast fires once)."""
    if not plan.w_autofire[c] or plan.unarmed0[c] or plan.w_area[c] > 0.0:
        return 1
    fire = 1 if plan.tac_default[c] else int(plan.rules[plan.rule_start[c], 4])
    rof = int(plan.w_rof[c])
    return rof if fire <= 0 else min(fire, rof)


def duel_plan(plan: Plan, sp: StandingPlan) -> DuelPlan:
    """The duel kernel's further arrays for ``plan``'s one-against-one fight (``sp``: its
    standing plan)."""
    loc_mode = int(plan.options[codes.OPT_HIT_LOCATIONS])
    called = loc_mode == codes.LOC_CALLED
    shots = _ints([_shots(plan, c) for c in range(2)])
    fixed_loc = _ints([int(plan.called_loc[c]) if called else -1 for c in range(2)])
    fixed_mod = _ints(
        [
            (int(plan.called_mod[c * 2 + 1 - c]) if called and plan.called_loc[c] >= 0 else 0)
            - int(shots[c]) // 10  # F15: -1 per full 10 shots
            for c in range(2)
        ]
    )
    lo3 = int(plan.nd6_offsets[3])
    loc_of_roll = _ints(plan.loc_by_roll[plan.nd6_table[lo3 : lo3 + 216]])
    # per attacker a, location and damage rolled: the damage through (F20, F27)
    n_locs = plan.loc_num.shape[0]
    dice_max = [
        int(plan.strength[c]) if plan.w_dc[c] == FISTS_DC
        else int(damage_dice(plan.w_dc[c], plan.strength[c], plan.w_min_str[c], plan.w_melee[c]))
        for c in range(2)
    ]  # fmt: skip
    size = 6 * max(dice_max) + 1
    wound = np.zeros((2, n_locs, size), np.int64)
    if loc_mode != codes.LOC_NONE:
        raw = np.arange(size, dtype=np.int64)
        for a in range(2):
            t = 1 - a
            for loc in range(n_locs):
                armour = int(sp.pair_armour[a * 2 + t]) if (plan.a_cover[t] >> loc) & 1 else 0
                stop = armour if plan.w_dmg[a] == KILLING or armour > plan.sd[t] else plan.sd[t]
                through = np.maximum(raw - stop, 0)
                wound[a, loc] = through * plan.loc_num[loc] // plan.loc_den[loc]
    blast_stop = np.zeros(4, np.int64)
    for a in range(2):
        for c in range(2):
            armour = armour_value(
                plan.a_pd[c], plan.a_ekd[c], plan.w_energy[a], plan.w_ap[a], plan.ap_factor
            )
            blast_stop[a * 2 + c] = (
                armour if plan.w_dmg[a] == KILLING or armour > plan.sd[c] else plan.sd[c]
            )
    return DuelPlan(
        loc_mode=loc_mode,
        knockback=int(plan.options[codes.OPT_KNOCKBACK]),
        shots=shots,
        fixed_loc=fixed_loc,
        fixed_mod=fixed_mod,
        loc_of_roll=loc_of_roll,
        wound=np.ascontiguousarray(wound.ravel()),
        wound_size=size,
        knock_body=plan.knock_body,
        knock_unit=plan.knock_unit,
        pos_x0=plan.pos_x0,
        pos_y0=plan.pos_y0,
        run_m=plan.run_m,
        w_range=plan.w_range,
        tac_default=plan.tac_default,
        tgt_mod_r=plan.tgt_mod_r,
        tgt_mod_m=plan.tgt_mod_m,
        cover_r=plan.cover_r,
        cover_m=plan.cover_m,
        att_mod_r=plan.att_mod_r,
        att_mod_m=plan.att_mod_m,
        w_area=plan.w_area,
        blast_stop=blast_stop,
        task_table=plan.task_table,
        def_table=plan.def_table,
    )
