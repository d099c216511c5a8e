"""Compile a colour scenario into a :class:`Plan`: the integer tables every colour kernel reads.

All look-ups happen here (ARCHITECTURE rule 1): rank names become values and ranks on the
scenario's ladder, the Universal Table becomes the colour of every roll on every column, the
rule switches become option codes, and the static attack tables are built (``tables.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import codes as k
from .build import health_of
from .ladder import ABILITIES, column_tables, ladder
from .ranks import resolve
from .tables import build, plan_tables, sheet_classes

__all__ = ["Plan", "compile_plan", "options"]


class Plan(NamedTuple):
    """A compiled colour fight (every array int64; see ``kernel.run_chunk`` for shapes)."""

    mem: np.ndarray
    acts: np.ndarray
    opts: np.ndarray
    shift: np.ndarray
    rank_col: np.ndarray
    colour_tab: np.ndarray
    values: np.ndarray
    area_mask: np.ndarray
    pair_tab: np.ndarray
    tab: np.ndarray
    tab_later: np.ndarray
    tab_meta: np.ndarray
    pref: np.ndarray
    st0: np.ndarray
    n_sides: int
    max_rounds: int

    @property
    def n_combatants(self) -> int:
        return int(self.mem.shape[0])


_WORD = {  # a multi-way switch -> (option, {word: code}); the first word is code 0
    "roll_with_blow": (k.O_RWB_LEFT, {"fraction_taken": 0, "fraction_left": 1}),
    "soak": (k.O_SOAK_LITERAL, {"graded": 0, "literal": 1}),
    "cs_combine": (k.O_CS_SEQUENTIAL, {"sum": 0, "sequential": 1}),
    "value_to_rank": (k.O_VALUE_NEAREST, {"floor": 0, "nearest": 1}),
    "contest_clamp": (k.O_CLAMP_ATTACKS_ONLY, {"all_responders": 0, "attacks_only": 1}),
    "feat_success": (k.O_FEAT_MIN, {"green": k.GREEN, "yellow": k.YELLOW}),
    "initiative_ties": (k.O_TIES, {"reroll": k.TIE_REROLL, "agility": k.TIE_AGILITY,
                                   "simultaneous": k.TIE_SIMULTANEOUS}),
    "multi_action_penalty": (k.O_PER_EXTRA, {"flat": 0, "per_extra": 1}),
    "defence_choice": (k.O_REACTIVE, {"declared": 0, "reactive": 1}),
    "failed_defence_damage": (k.O_FAILED_FULL, {"colour": 0, "full": 1}),
    "super_crit_damage": (k.O_SC_DAMAGE, {"double": k.SC_DOUBLE, "called_shot": k.SC_CALLED,
                                          "best": k.SC_BEST}),
    "gun_damage": (k.O_GUN_FLAT, {"colour": 0, "flat": 1}),
    "ap_percent": (k.O_AP_OF_DAMAGE, {"of_armour": 0, "of_damage": 1}),
    "ignores_armour_scope": (k.O_IGNORES_ALL, {"armour": 0, "all_resistance": 1}),
    "armour_covers": (k.O_COVERS_ALL, {"physical": 0, "all": 1}),
    "reduction_order": (k.O_ARMOUR_FIRST, {"defence_first": 0, "armour_first": 1}),
    "armour_roll": (k.O_ARMOUR_ACTIVE, {"passive": 0, "active": 1}),
    "crit_colours": (k.O_CRIT_MIN, {"red": k.RED, "super_crit": k.SUPER_CRIT}),
    "natural_armour_crit": (k.O_NATURAL_CRIT, {"holds": k.NAT_HOLDS,
                                               "bypass_red": k.NAT_BYPASS_RED,
                                               "bypass_super_crit": k.NAT_BYPASS_SC}),
    "field_drop": (k.O_FIELD_END, {"per_hit": 0, "end_of_attack": 1}),
    "field_reraise": (k.O_FIELD_AUTO, {"feat": 0, "auto": 1}),
    "shield_crit": (k.O_SHIELD_CRIT, {"best": k.SHIELD_BEST, "always": k.SHIELD_ALWAYS,
                                      "never": k.SHIELD_NEVER}),
    "shield_crit_colours": (k.O_SHIELD_CRIT_MIN, {"red": k.RED, "super_crit": k.SUPER_CRIT}),
    "shield_mode_choice": (k.O_SHIELD_PER_ROUND, {"fixed": 0, "per_round": 1}),
    "concentrated_pct": (k.O_CONC_ON_SUM, {"per_round": 0, "on_sum": 1}),
    "concentrated_hits": (k.O_CONC_HALF, {"rounds": 0, "half_rounds": 1}),
    "rwb_rolls": (k.O_RWB_PER_ATTACK, {"per_hit": 0, "per_attack": 1}),
    "block_invalid": (k.O_BLOCK_NONE, {"dodge": 0, "none": 1}),
    "parry_ranged": (k.O_PARRY_RANGED, {"thrown_only": k.PARRY_THROWN, "any": k.PARRY_ANY,
                                        "none": k.PARRY_NONE}),
    "unarmed_parry_base": (k.O_PARRY_FULL, {"colour": 0, "full": 1}),
    "roll_with_blow_ability": (k.O_RWB_ABILITY, {"as_dodge": k.RWB_AS_DODGE,
                                                 "agility": k.RWB_AGILITY,
                                                 "endurance": k.RWB_ENDURANCE}),
    "soak_damage_rank": (k.O_SOAK_NEAREST, {"floor": 0, "nearest": 1}),
    "soak_damage_basis": (k.O_SOAK_AFTER_ARMOUR, {"threatened": 0, "after_armour": 1}),
    "soak_below_required": (k.O_SOAK_ANYWAY, {"nothing": 0, "graded_anyway": 1}),
    "soak_strain_count": (k.O_STRAIN_CEIL, {"floor": 0, "ceil_minus_one": 1}),
    "defence_fallback": (k.O_FALLBACK_SOAK, {"none": 0, "soak_after_failed_dodge": 1}),
    "soak_with_armour": (k.O_SOAK_ONLY, {"both": 0, "soak_only": 1}),
    "dive_fail": (k.O_DIVE_NORMAL, {"hit": 0, "normal_avoid": 1}),
    "endurance_roll_timing": (k.O_ROLL_NEXT_TURN, {"immediate": 0, "next_turn": 1}),
    "death_at_shift0": (k.O_DEATH_IMMEDIATE, {"next_turn": 0, "immediate": 1}),
    "helpless_loss_per": (k.O_HELPLESS_PER_HIT, {"attack": 0, "hit": 1}),
    "kill_outright_damage": (k.O_KILL_THREATENED, {"net": 0, "threatened": 1}),
    "head_penalty": (k.O_HEAD_ADD, {"replace": 0, "add": 1}),
    "limb_damage_to_health": (k.O_LIMB_HEALTH, {"never": k.LIMB_NEVER,
                                                "unless_disabled": k.LIMB_UNLESS_DISABLED,
                                                "always": k.LIMB_ALWAYS}),
    "sever_cap": (k.O_SEVER_FULL, {"remaining": 0, "full": 1}),
    "head_piercing": (k.O_HEAD_PIERCE_SLASH, {"as_bludgeoning": 0, "as_slashing": 1}),
    "grapple_damage": (k.O_GRAPPLE_FLAT, {"colour": 0, "flat": 1}),
    "grappled_defence": (k.O_GRAPPLED_NO_DEFENCE, {"normal": 0, "none": 1}),
    "aim_lost_on": (k.O_AIM_LOST_ATTACKED, {"damage": 0, "attacked": 1}),
}  # fmt: skip
_FLAG = {  # a boolean switch -> option (true = 1)
    "counter_attack": k.O_COUNTER,
    "armour_rattle": k.O_RATTLE,
    "armour_damage_table": k.O_DAMAGE_TABLE,
    "armour_breakage": k.O_BREAKAGE,
    "red_ignores_armour": k.O_RED_IGNORES,
    "shield_ap": k.O_SHIELD_AP,
    "ammunition": k.O_AMMO,
    "concentrated_needs_armour": k.O_CONC_NEEDS_ARMOUR,
    "soak_strain": k.O_STRAIN,
    "kill_outright_at_zero": k.O_KILL_AT_ZERO,
    "flee_after_wake": k.O_FLEE,
    "aid_fallen": k.O_AID,
    "holder_other_actions": k.O_HOLDER_OTHER,
    "release_on_red": k.O_RELEASE_RED,
    "health_tracks_endurance": k.O_HEALTH_TRACKS,
}
#: Switches the compile step applies itself (to the tables, the ranks or the checks), and
#: ``disabled_limb_penalty``, stored inverted.
_COMPILED = ("ladder", "super_crit_on", "interp_round", "cs_steps", "cs_clamp", "unknown_rank",
             "thrown_damage", "round_seconds", "max_actions_per_turn", "energy_called_shot",
             "disabled_limb_penalty")  # fmt: skip


def options(rules) -> np.ndarray:
    """The ``opts`` array of a scenario's rules (every switch is read here or in
    :func:`compile_plan`)."""
    opts = np.zeros(k.N_OPT, np.int64)
    values = rules.as_dict()
    for name, (index, words) in _WORD.items():
        opts[index] = words[values[name]]
    for name, index in _FLAG.items():
        opts[index] = 1 if values[name] else 0
    opts[k.O_LIMB_PENALTY_SEVERED_ONLY] = 0 if values["disabled_limb_penalty"] else 1
    opts[k.O_FEEBLE] = ladder(rules.ladder).index("Feeble") or 0
    unread = set(values) - set(_WORD) - set(_FLAG) - set(_COMPILED)
    if unread:  # pragma: no cover - a switch added without a reading
        raise RuntimeError(f"rule switches the compile step does not read: {sorted(unread)}")
    return opts


def _covers(covers) -> int:
    if covers is None:
        return k.PHYSICAL | k.UNLISTED
    mask = 0
    for name in covers:
        mask |= 1 << k.TYPE_NAMES.index(name)
    return mask


def _member_row(m, rules, side: int, row: np.ndarray) -> None:
    """Fill ``mem[c]`` for member ``m``."""
    for i, ability in enumerate(ABILITIES):
        value, rank = resolve(m.abilities[ability], rules)
        row[k.M_RANK + i] = rank
        row[k.M_VAL + i] = value
    row[k.M_SIDE] = side
    row[k.M_HEALTH] = health_of(m, rules)
    w = m.weapon
    row[k.M_W_MELEE] = 1 if w.kind == "melee" else 0
    row[k.M_W_ABILITY] = ABILITIES.index(w.ability)
    damage = None if w.damage is None else resolve(w.damage, rules)[0]
    if w.thrown:
        figure = damage if damage is not None else w.str_plus
        row[k.M_W_BASE] = figure
        row[k.M_W_STR] = 1 if rules.thrown_damage == "str_plus" else 0
    elif damage is not None:
        row[k.M_W_BASE] = damage
        row[k.M_W_STR] = 0
    else:
        row[k.M_W_BASE] = w.str_plus
        row[k.M_W_STR] = 1
    row[k.M_W_TYPE] = k.TYPE_NAMES.index(w.type)
    row[k.M_W_AP] = resolve(w.ap, rules)[0]
    row[k.M_W_AP_PCT] = w.ap_percent
    row[k.M_W_IGNORES] = int(w.ignores_armour)
    row[k.M_W_GUN] = int(w.gun)
    row[k.M_W_THROWN] = int(w.thrown)
    row[k.M_W_UNARMED] = int(w.unarmed)
    row[k.M_W_PARRY] = int(w.parry)
    row[k.M_W_RF] = k.RAPID_FIRE.index(w.rapid_fire)
    row[k.M_W_ROUNDS] = resolve(w.rounds, rules)[0] if w.rapid_fire != "single" else 1
    row[k.M_W_BURST] = int(w.burst or w.rapid_fire == "full_auto")
    row[k.M_W_AREA] = int(w.area)
    row[k.M_W_SHOTS] = -1 if w.shots is None or not rules.ammunition else w.shots
    row[k.M_W_POWER] = int(w.power)
    row[k.M_W_AIM_MAX] = w.aim_max_rounds
    layers = ((m.armour, (k.M_BODY, k.M_BODY_NSAP, k.M_BODY_COVERS)),
              (m.natural_armour, (k.M_NAT, k.M_NAT_NSAP, k.M_NAT_COVERS)),
              (m.force_field, (k.M_FIELD, k.M_FIELD_NSAP, k.M_FIELD_COVERS)))  # fmt: skip
    for layer, cols in layers:
        if layer is None:
            continue
        value, rank = resolve(layer.value, rules)
        row[cols[0]] = value
        row[cols[1]] = int(layer.not_subject_to_ap)
        row[cols[2]] = _covers(layer.covers)
        if cols[0] == k.M_FIELD:
            row[k.M_FIELD_RANK] = rank
    if m.shield is not None:
        row[k.M_HAS_SHIELD] = 1
        row[k.M_SH_PROT] = resolve(m.shield.protection, rules)[0]
        row[k.M_SH_DEFL] = m.shield.deflection
        row[k.M_SH_COVERS] = _covers(m.shield.covers)
    row[k.M_SH_MODE] = k.SHIELD_DEFLECT if m.shield_mode == "deflect" else k.SHIELD_BLOCK
    row[k.M_DEFENCE] = k.DEFENCE_NAMES.index(m.defences[0])
    row[k.M_DEF_MASK] = sum(1 << k.DEFENCE_NAMES.index(d) for d in m.defences)
    row[k.M_N_ACTIONS] = len(m.actions)
    row[k.M_TARGETING] = k.TARGETING.index(m.targeting)
    row[k.M_FINISH] = int(m.finish_fallen)
    row[k.M_AIM] = m.aim
    row[k.M_DIVE] = int(m.dive_for_cover)
    row[k.M_DIVE_AREAS] = m.dive_areas
    row[k.M_ATT_CS] = m.attack_cs
    row[k.M_DEF_CS] = m.defence_cs
    row[k.M_ARMS] = m.arms
    row[k.M_WHEN_GRAPPLED] = 0 if m.when_grappled == "escape" else 1
    row[k.M_RERAISE] = int(m.reraise_field)
    row[k.M_SC_CALL] = k.LOCATIONS.index(m.super_crit_call)


def _start_state(mem: np.ndarray) -> np.ndarray:
    """The state every trial starts from (``st0``)."""
    n = mem.shape[0]
    st = np.zeros((n, k.N_ST), np.int64)
    for c in range(n):
        st[c, k.S_HEALTH] = st[c, k.S_HMAX] = mem[c, k.M_HEALTH]
        st[c, k.S_RANK_E] = mem[c, k.M_RANK_E]
        st[c, k.S_STATUS] = k.ST_STANDING
        st[c, k.S_FIELD_UP] = 1 if mem[c, k.M_FIELD] > 0 else 0
        for i in range(4):
            st[c, k.S_LIMB_HP + i] = mem[c, k.M_VAL_E]
        st[c, k.S_HEAD_HP] = mem[c, k.M_VAL_E]
        st[c, k.S_GRAPPLED_BY] = -1
        st[c, k.S_HOLDING] = -1
        st[c, k.S_SHOTS] = mem[c, k.M_W_SHOTS]
        st[c, k.S_SH_MODE] = mem[c, k.M_SH_MODE]
        st[c, k.S_PRISTINE] = 1
    return st


def _shield_preferences(plan_parts, scenario) -> np.ndarray:
    """Under ``shield_mode_choice: per_round`` (CA42), the mode each shield bearer takes
    against each enemy: the one with the lower expected damage from the first hit of that
    enemy's first action, both as they start (ties: Block)."""
    mem, acts, opts, shift, rank_col, colour_tab, values, st0 = plan_parts
    n = mem.shape[0]
    pref = np.tile(mem[:, k.M_SH_MODE][:, None], (1, n)).astype(np.int64)
    if not opts[k.O_SHIELD_PER_ROUND]:
        return pref
    out = np.zeros(10000, np.int64)
    later = np.zeros(606, np.int64)
    classes = sheet_classes(mem, acts, st0)
    chosen: dict[tuple[int, int], int] = {}  # by the bearer's and the enemy's classes
    for c in range(n):
        if not mem[c, k.M_HAS_SHIELD]:
            continue
        for e in range(n):
            if mem[e, k.M_SIDE] == mem[c, k.M_SIDE]:
                continue
            pair = (int(classes[c]), int(classes[e]))
            if pair in chosen:
                pref[c, e] = chosen[pair]
                continue
            form = int(acts[e, 0, k.AF_KIND])
            form = form if form in (k.A_ATTACK, k.A_AUTOFIRE) else k.A_ATTACK
            means = []
            for mode in (k.SHIELD_BLOCK, k.SHIELD_DEFLECT):
                st = st0.copy()
                st[c, k.S_SH_MODE] = mode
                build(mem, opts, shift, rank_col, colour_tab, values, st, e, c, form, 0, 0,
                      out, later, np.zeros(3, np.int64))  # fmt: skip
                means.append(float(((out >> k.TAB_NET_SHIFT) & k.TAB_FIELD).mean()))
            pref[c, e] = chosen[pair] = (k.SHIELD_DEFLECT if means[1] < means[0]
                                         else k.SHIELD_BLOCK)  # fmt: skip
    return pref


def compile_plan(scenario) -> Plan:
    """The plan of a validated colour scenario (its ranks already checked on its ladder)."""
    rules = scenario.rules
    tables = column_tables(rules.ladder, rules.interp_round, rules.cs_steps, rules.cs_clamp,
                           int(rules.super_crit_on))  # fmt: skip
    members = scenario.combatants
    side_index = {s: i for i, s in enumerate(scenario.side_names)}
    index = {m.name: i for i, m in enumerate(members)}
    n = len(members)
    mem = np.zeros((n, k.N_MEM), np.int64)
    acts = np.zeros((n, k.MAX_ACTIONS, k.N_AF), np.int64)
    area_mask = np.zeros((n, n), np.int64)
    sides = np.array([side_index[m.side] for m in members], np.int64)
    for c, m in enumerate(members):
        _member_row(m, rules, side_index[m.side], mem[c])
        for j, action in enumerate(m.actions):
            acts[c, j, k.AF_KIND] = k.ACTION_NAMES.index(action.do)
            acts[c, j, k.AF_ROUNDS] = action.rounds
            acts[c, j, k.AF_TARGET] = index[action.target] if action.target else -1
            acts[c, j, k.AF_POWER] = int(action.power)
            acts[c, j, k.AF_CALLED] = (k.LOCATIONS.index(action.called)
                                       if action.called else -1)  # fmt: skip
        if m.area is None:
            area_mask[c] = sides != sides[c]
        else:
            area = set(m.area)
            area_mask[c] = [int(other.name in area) for other in members]
        area_mask[c, c] = 0
    opts = options(rules)
    st0 = _start_state(mem)
    shift, rank_col, colour_tab = tables.shift, tables.rank_col, tables.colour
    values = tables.values
    pair_tab, tab, tab_later, tab_meta = plan_tables(mem, acts, opts, shift, rank_col,
                                                     colour_tab, values, st0)  # fmt: skip
    pref = _shield_preferences((mem, acts, opts, shift, rank_col, colour_tab, values, st0),
                               scenario)  # fmt: skip
    return Plan(mem, acts, opts, shift, rank_col, colour_tab, values, area_mask, pair_tab, tab,
                tab_later, tab_meta, pref, st0, len(scenario.side_names),
                int(scenario.max_rounds))  # fmt: skip
