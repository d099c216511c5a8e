"""Scenario -> Plan: every look-up and table the kernel needs, as flat arrays and integer codes."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import dice
from ...scenario.model import Scenario
from . import kernel
from .rules import KILLING, STUN, armour_value, range_modifier
from .timing import build_timing

__all__ = ["Plan", "compile_scenario", "MELEE_DEFENCE_SKILLS"]

#: F1: against melee the defender uses the highest of these skills (with DEX).
MELEE_DEFENCE_SKILLS = ("Athletics", "Hand to Hand", "Melee", "Fencing")


class Plan(NamedTuple):
    """A compiled Fuzion scenario. Field order is the kernel's argument order after
    ``(key, first, n_trials)`` and before the outputs; see ``kernel.run_chunk``."""

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
    w_melee: np.ndarray
    w_dmg: np.ndarray
    w_dc: np.ndarray
    w_acc: np.ndarray
    w_min_str: np.ndarray
    pair_mod: np.ndarray
    pair_armour: np.ndarray
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


def compile_scenario(scenario: Scenario) -> Plan:
    """Turn a validated scenario into the arrays of :class:`Plan`."""
    rules = scenario.rules
    fighters = scenario.combatants
    side_index = {name: i for i, name in enumerate(scenario.sides)}
    stat = {k: _ints([c.stats[k] for c in fighters]) for k in ("REF", "DEX", "STR", "BODY")}

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

    options = np.zeros(kernel.N_OPTIONS, np.int64)
    options[kernel.OPT_IMPAIRMENT] = bool(rules.impairment)
    options[kernel.OPT_STUNNED] = bool(rules.stunned)
    options[kernel.OPT_DYING_CAN_ACT] = bool(rules.dying_can_act)
    options[kernel.OPT_DYING_PENALTY] = int(rules.dying_penalty)
    options[kernel.OPT_HAS_TIES] = has_ties
    options[kernel.OPT_SWITCH2] = switch2
    options[kernel.OPT_INIT_DICE] = 10 if rules.dice == "interlock" else 3
    options[kernel.OPT_WAKE_OWN_PHASE] = rules.timing == "speed_chart"
    options[kernel.OPT_RECOVERY_SLOT] = timing.recovery_slot

    # per pair (attacker, target): range band (F10) or out of reach, and armour (F20)
    n = len(fighters)
    pair_mod = np.zeros(n * n, np.int64)
    pair_armour = np.zeros(n * n, np.int64)
    for i, (att, w) in enumerate(zip(fighters, weapons, strict=True)):
        for k, tgt in enumerate(fighters):
            dist = distance(att.position, tgt.position)
            if w.kind == "melee":
                pair_mod[i * n + k] = 0 if dist <= w.range else kernel.NO_REACH
            else:
                pair_mod[i * n + k] = range_modifier(dist, float(w.range))
            pair_armour[i * n + k] = armour_value(
                tgt.armor.pd, tgt.armor.ekd, w.energy, w.ap, float(rules.ap_factor)
            )

    return Plan(
        side=_ints([side_index[c.side] for c in fighters]),
        n_sides=len(scenario.sides),
        ref=ref,
        dex=stat["DEX"],
        strength=stat["STR"],
        body=stat["BODY"],
        hits_max=_ints([c.derived["hits"] for c in fighters]),
        stun_max=_ints([c.derived["stun"] for c in fighters]),
        sd=_ints([c.derived["sd"] for c in fighters]),
        rec=_ints([c.derived["rec"] for c in fighters]),
        att_skill=_ints([c.skill(w.skill) for c, w in zip(fighters, weapons, strict=True)]),
        def_ranged=_ints([c.skill("Ranged Evade") for c in fighters]),
        def_melee=_ints([max(c.skill(s) for s in MELEE_DEFENCE_SKILLS) for c in fighters]),
        base_order=base_order,
        w_melee=_ints([w.kind == "melee" for w in weapons]),
        w_dmg=_ints([STUN if w.damage == "stun" else KILLING for w in weapons]),
        w_dc=_ints([w.dc for w in weapons]),
        w_acc=_ints([w.accuracy for w in weapons]),
        w_min_str=_ints([w.min_str for w in weapons]),
        pair_mod=pair_mod,
        pair_armour=pair_armour,
        acts=timing.acts,
        slots_per_round=timing.slots_per_round,
        start_slot=timing.start_slot,
        slots_per_unit=timing.slots_per_unit,
        max_slots=int(scenario.max_rounds) * timing.slots_per_round,
        surprised=_ints([bool(getattr(c, "surprised", False)) for c in fighters]),
        options=options,
        roll_table=dice.roll_table(rules.dice, rules.criticals),
        nd6_offsets=nd6_offsets,
        nd6_table=nd6_table,
    )
