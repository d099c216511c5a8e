"""Which kernel runs a fight: the one table of what each kernel honours, and the choice it drives.

Fuzion has four kernels. The general kernel (``kernel.py``) runs every rule. Three specialised
kernels run a fight in which nobody reloads or chooses an action faster: ``kernel_standing``
(nobody moves; any timing, initiative and surprise; the replay of every specialised fight it
can run), ``kernel_squad`` (phases, everyone acting every phase, closing in to range as the
default tactic does) and ``kernel_duel`` (one against one, in phases, nobody moving). A
specialised kernel that ignored part of a scenario would give wrong numbers nobody could see,
so the choice is made from :data:`HONOURS`: for every key a scenario can hold (member, weapon,
area and armour keys, side keys, rule switches, the envelope), the condition under which each
specialised kernel gives exactly the general kernel's fight. A fight goes to the fastest kernel
whose every condition holds (:func:`kernel_for`), else to the general kernel.

A key missing from the table fails the tests (``tests/test_dispatch.py``), and a property test
draws random scenarios over every key the specialised kernels claim and holds the chosen
kernel to the general kernel trial by trial.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import codes
from . import tactics as tx
from .compile import Plan, pair_distances
from .features.hazards.build import HAZARD_KEYS, POISON_KEYS
from .features.scene.build import DROP_KEYS, OBSTACLE_KEYS, TERRAIN_KEYS
from .features.scene.throws import THROWN_KEYS
from .features.vehicles.build import CREW_KEYS, VEHICLE_KEYS, VEHICLE_WEAPON_KEYS
from .model import HAZARD_SWITCHES, IMPACT_SWITCHES, PERSON_VA_SWITCHES, SWITCHES, THROW_SWITCHES

__all__ = [
    "HONOURS", "KERNELS", "SPECIALISED", "Honour", "blocking_keys", "blocking_reasons",
    "condition", "extra_attacks", "failing_conditions", "kernel_for",
]  # fmt: skip

#: The kernels, the fastest first; ``general`` honours every key.
KERNELS = ("duel", "squad", "standing", "general")
SPECIALISED = KERNELS[:-1]

#: A condition on the compiled plan: True when the kernel gives the general kernel's fight.
Condition = Callable[[Plan], bool]


def _static_tactic(plan: Plan) -> np.ndarray:
    """Per combatant: its tactic never moves, aims, reloads or chooses in a standing fight: the
    default tactic (close in, then attack) or one whose first rule is an unconditional
    ``attack``."""
    first = plan.rules[plan.rule_start] if plan.rules.shape[0] else np.zeros((0, 5), np.int64)
    attack_first = np.zeros(plan.n_combatants, bool)
    has_rules = plan.rule_count > 0
    attack_first[has_rules] = (first[has_rules, 1] == 0) & (first[has_rules, 2] == tx.A_ATTACK)
    return (plan.tac_default != 0) | attack_first


# --- the conditions -------------------------------------------------------------------------


def condition(failing: str) -> Callable[[Condition], Condition]:
    """Mark a condition and say, for ``validate``, what it means when it fails."""

    def mark(fn: Condition) -> Condition:
        fn.failing = failing
        return fn

    return mark


@condition("a tactic moves, aims, reloads or chooses")
def static_tactics(plan: Plan) -> bool:
    """Every combatant's tactic is static (``_static_tactic``)."""
    return bool(_static_tactic(plan).all())


@condition("someone must move to reach an enemy")
def nobody_moves(plan: Plan) -> bool:
    """Nobody ever needs to move: every enemy is within reach of every combatant whose tactic
    closes in (the default tactic, and melee weapons, which cannot strike out of reach); a
    ranged ``attack`` tactic fires at any range (F10 extreme range)."""
    n = plan.n_combatants
    dist = pair_distances(plan).reshape(n, n)
    enemy = plan.side[:, None] != plan.side[None, :]
    closes = (plan.tac_default != 0) | (plan.w_melee != 0)
    out_of_reach = enemy & (dist > plan.w_range[:, None]) & closes[:, None]
    return not out_of_reach.any()


@condition("not timing: phases")
def in_phases(plan: Plan) -> bool:
    """``timing: phases``: everyone acts once a phase, four phases a round."""
    return (
        plan.slots_per_round == 4
        and plan.slots_per_unit == 1
        and plan.start_slot == 0
        and plan.options[codes.OPT_RECOVERY_SLOT] < 0
    )


@condition("someone is surprised")
def nobody_surprised(plan: Plan) -> bool:
    return not plan.surprised.any()


@condition("initiative switch2")
def switch1(plan: Plan) -> bool:
    """Initiative not rolled every phase (F9 switch1)."""
    return not plan.options[codes.OPT_SWITCH2]


@condition("not one against one")
def one_against_one(plan: Plan) -> bool:
    return plan.n_combatants == 2 and plan.n_sides == 2


@condition("a magazine to reload")
def no_magazines(plan: Plan) -> bool:
    return bool((plan.w_shots < 0).all())


@condition("a hazard zone, a poison or a push (the environment)")
def no_hazards(plan: Plan) -> bool:
    """No hazard zone, no poison and nobody pushing (M-75: END a phase): the environment room
    (features/hazards/room.py) is the general kernel's."""
    return not plan.options[codes.OPT_ANY_HAZARD]


@condition("someone is obscured")
def nobody_obscured(plan: Plan) -> bool:
    return not plan.obscured.any()


@condition("a weapon starts holstered")
def weapons_drawn(plan: Plan) -> bool:
    return not plan.holstered0.any()


@condition("someone aborts to a defence")
def no_aborts(plan: Plan) -> bool:
    return not plan.abort_kind.any()


@condition("an object or Kill-rated target")
def people_only(plan: Plan) -> bool:
    """Every combatant is a person (Hits and Stun): no object with SDP, no Kill-rated target."""
    return not plan.scale.any()


@condition("a Kill-rated weapon")
def no_kill_weapons(plan: Plan) -> bool:
    return not plan.w_kills.any()


@condition("autofire")
def no_autofire(plan: Plan) -> bool:
    return not plan.w_autofire.any()


def extra_attacks(plan: Plan) -> np.ndarray:
    """Per combatant: the attacks its every ``attack`` action makes beyond the first (F15,
    ``semi_auto_rof: extra_attacks``): a ranged weapon without autofire is shot up to its ROF
    times a phase when a rule's ``fire`` asks (0: all); the default tactic fires once."""
    extra = np.zeros(plan.n_combatants, np.int64)
    if not plan.options[codes.OPT_SEMI_AUTO_ROF]:
        return extra
    for c in range(plan.n_combatants):
        if plan.w_autofire[c] or plan.w_melee[c] or plan.tac_default[c]:
            continue
        rof = int(plan.w_rof[c])
        first = int(plan.rule_start[c])
        for rule in plan.rules[first:first + int(plan.rule_count[c])]:
            if rule[2] == tx.A_ATTACK:
                fire = int(rule[4])
                extra[c] = max(extra[c], (rof if fire <= 0 else min(fire, rof)) - 1)
    return extra


@condition("a weapon without autofire shot more than once an action (semi_auto_rof)")
def single_attacks(plan: Plan) -> bool:
    """Every attack action is one attack: no rule asks a weapon without autofire for more
    than one shot under ``semi_auto_rof: extra_attacks`` (the general kernel's)."""
    return not extra_attacks(plan).any()


@condition("an area weapon")
def no_areas(plan: Plan) -> bool:
    return not plan.w_area.any()


@condition("an explosive")
def no_explosives(plan: Plan) -> bool:
    """No area weapon is an explosive (thrown at a point, scattering, F17): spreads only."""
    return not ((plan.w_explosive != 0) & (plan.w_area > 0.0)).any()


@condition("hit locations")
def no_hit_locations(plan: Plan) -> bool:
    return plan.options[codes.OPT_HIT_LOCATIONS] == codes.LOC_NONE


@condition("knockback")
def no_knockback(plan: Plan) -> bool:
    return not plan.options[codes.OPT_KNOCKBACK]


@condition("chinks in the armour")
def no_chinks(plan: Plan) -> bool:
    return not plan.options[codes.OPT_CHINKS]


@condition("a vehicle or mecha")
def no_vehicles(plan: Plan) -> bool:
    """Nobody is a vehicle (``vehicle:``) or rides in one: vehicles run on the general kernel."""
    return not plan.vclass.any() and not (plan.carrier >= 0).any()


@condition("moving_target: relative")
def absolute_moving_target(plan: Plan) -> bool:
    """The moving-target penalty counts the target's own move (VA-16 ``absolute``): the duel
    and squad kernels, where people move, do not take the relative reading."""
    return not plan.options[codes.OPT_MOVING_TARGET]


@condition("a missile weapon")
def no_missiles(plan: Plan) -> bool:
    """Nobody's weapon is a missile (``missile:``): missiles run on the general kernel."""
    return not plan.options[codes.OPT_ANY_MISSILE]


@condition("powered armour")
def no_suits(plan: Plan) -> bool:
    """Nobody wears powered armour (``armor: {sdp: N}`` with ``rules.powered_armour``, M-35):
    its split runs on the general kernel."""
    return not plan.suit_max.any()


@condition("an obstacle, a drop or terrain")
def no_impacts(plan: Plan) -> bool:
    """No obstacle, no drop and no terrain zone: falls, knockback into obstacles
    and ground that slows run on the general kernel."""
    return not plan.im_opts[codes.IO_ANY]


# --- the table ------------------------------------------------------------------------------


class Honour(NamedTuple):
    """How the specialised kernels treat one scenario key.

    ``standing``, ``squad``, ``duel``: None when the kernel honours every value of the key,
    else the condition on the plan under which it does. ``why`` says how.
    """

    key: str
    standing: Condition | None
    squad: Condition | None
    duel: Condition | None
    why: str

    def condition(self, name: str) -> Condition | None:
        """The condition for kernel ``name`` (None: every value; the general kernel honours
        every key)."""
        return None if name == "general" else getattr(self, name)


#: The squad and duel columns of a row default to the standing column.
_SAME = object()


def _row(key, why, standing=None, squad=_SAME, duel=_SAME) -> Honour:
    squad = standing if squad is _SAME else squad
    duel = standing if duel is _SAME else duel
    return Honour(key, standing, squad, duel, why)


_HAZARD_WORD = "the general kernel (features/hazards/room.py)"
_DESCRIPTIVE = "descriptive: recorded with the scenario, read by no rule"
_MOVING = "read only when someone moves; the standing kernels run fights where nobody does"
_STATIC = "in the static pair tables (modifier, armour) worked out once per plan"

_VEHICLE = "vehicles, their crews and hit tables: the general kernel"
_VEHICLE_KEYS = VEHICLE_KEYS
_CREW_KEYS = CREW_KEYS
_VEHICLE_WEAPON_KEYS = VEHICLE_WEAPON_KEYS
#: The rule switches of the vehicle rulings (VA-n).
_VEHICLE_SWITCHES = tuple(k for k, v in SWITCHES.items()
                          if v.ruling.startswith("VA-") and k not in PERSON_VA_SWITCHES
                          and k not in IMPACT_SWITCHES and k not in HAZARD_SWITCHES
                          and k not in THROW_SWITCHES and k != "moving_target")  # fmt: skip
_HAZARD = ("the environment (hazard zones, breath, poison; features/hazards/room.py): the general "
           "kernel")
_SUIT = "powered armour (M-35, F30): the general kernel"
_IMPACT = "falls, knockback into obstacles and terrain: the general kernel"
_THROWN = ("built into the weapon's dc, kills, range and shots (features/scene/throws.py); its "
           "objects are a magazine: the general kernel")

#: Every key a Fuzion scenario can hold, and when each specialised kernel honours it.
HONOURS: tuple[Honour, ...] = (
    # the envelope
    _row("name", _DESCRIPTIVE),
    _row("description", _DESCRIPTIVE),
    _row("system", "picks the rule system"),
    _row("trials", "the engine's chunks"),
    _row("seed", "the engine's streams"),
    _row("max_rounds", "the slots every kernel runs to"),
    _row("rules", "a mapping; each switch has its row"),
    _row("sides", "any number of sides and members; the duel kernel only one against one",
         duel=one_against_one),
    _row("side.members", "the side's members"),
    _row("side.surprised", "as member.surprised",
         squad=nobody_surprised, duel=nobody_surprised),
    # members
    _row("member.name", _DESCRIPTIVE),
    _row("member.stats", "REF, DEX, STR, BODY and CON in every kernel's values; INT, PRE, WILL, "
         "TECH and MOVE only through the keys that use them (obscured, tactics, position)"),
    _row("member.skills", "the attack and defence skills in every kernel's values; the others "
         "only through the keys that use them"),
    _row("member.weapon", "a name or a mapping; each weapon key has its row"),
    _row("member.armor", "a name or a mapping; each armour key has its row"),
    _row("member.position", "the standing and duel kernels' pair tables hold the starting "
         "distances; the squad kernel moves its combatants as the general kernel does",
         standing=nobody_moves, squad=None),
    _row("member.hits", "every kernel"),
    _row("member.stun", "every kernel"),
    _row("member.sd", "every kernel (Stun damage, F20)"),
    _row("member.rec", "waking (F23) in every kernel"),
    _row("member.end", "read only for breath in an asphyxiating zone: " + _HAZARD_WORD,
         standing=no_hazards),
    _row("member.res", "read only by a presence attack, a tactic"),
    _row("member.run", _MOVING + "; the squad kernel's close in", standing=nobody_moves,
         squad=None),
    _row("member.sprint", "read only by a tactic that sprints"),
    _row("member.spd", "the timing's action slots; under phases SPD counts for nothing",
         squad=in_phases, duel=in_phases),
    _row("member.tactics", "the standing kernels run the default tactic and an unconditional "
         "attack", standing=static_tactics),
    _row("member.targeting", "every rule in the standing and squad kernels; one enemy in a "
         "duel"),
    _row("member.surprised", "F11 in the standing kernel",
         squad=nobody_surprised, duel=nobody_surprised),
    _row("member.cover", _STATIC),
    _row("member.prone", _STATIC),
    _row("member.crouched", _STATIC),
    _row("member.obscured", "a Perception roll each phase: the general kernel",
         standing=nobody_obscured),
    _row("member.braced", _STATIC),
    _row("member.silhouetted", _STATIC),
    _row("member.size", _STATIC),
    _row("member.modifiers", _STATIC),
    _row("member.defence_modifiers", "in every kernel's defence values"),
    _row("member.drawn", "drawing takes an action: the general kernel", standing=weapons_drawn),
    _row("member.abort", "F32 aborts: the general kernel", standing=no_aborts),
    _row("member.sdp", "objects: the general kernel", standing=people_only),
    _row("member.kills", "Kill-rated targets: the general kernel", standing=people_only),
    _row("member.called_shot", "read only with hit locations", standing=no_hit_locations,
         duel=None),
    # weapons
    _row("weapon.name", _DESCRIPTIVE),
    _row("weapon.notes", _DESCRIPTIVE),
    _row("weapon.category", _DESCRIPTIVE),
    _row("weapon.cost", _DESCRIPTIVE),
    _row("weapon.hands", _DESCRIPTIVE),
    _row("weapon.skill", "every kernel's attack values"),
    _row("weapon.kind", "melee: the DV column and STR dice in every kernel; the reach as "
         "member.position", standing=nobody_moves, squad=None),
    _row("weapon.damage", "every kernel (Killing or Stun, F20-F21)"),
    _row("weapon.dc", "every kernel's damage dice"),
    _row("weapon.accuracy", "every kernel's attack values"),
    _row("weapon.min_str", "every kernel's attack values and dice (F12)"),
    _row("weapon.range", "the range band in the pair tables (the squad kernel's at the "
         "distance of the attack); the reach as member.position", standing=nobody_moves,
         squad=None),
    _row("weapon.bow", "its range as weapon.range", standing=nobody_moves, squad=None),
    _row("weapon.power_points", "its range as weapon.range", standing=nobody_moves,
         squad=None),
    _row("weapon.rof", "autofire's shots; a weapon without autofire shot more than once an "
         "action (semi_auto_rof: extra_attacks): the general kernel", standing=single_attacks),
    _row("weapon.shots", "a magazine to empty and reload: the general kernel",
         standing=no_magazines),
    _row("weapon.reload_actions", "read only with a magazine"),
    _row("weapon.ap", _STATIC),
    _row("weapon.energy", _STATIC),
    _row("weapon.blade", _STATIC + " (armour half against blades)"),
    _row("weapon.burst", "read only by a burst tactic"),
    _row("weapon.autofire", "several shots an attack: the general and duel kernels",
         standing=no_autofire, duel=None),
    _row("weapon.kills", "Kill-rated attacks (F29): the general kernel",
         standing=no_kill_weapons),
    _row("weapon.area", "several targets an attack (F17): the general kernel; a spread the "
         "duel kernel too", standing=no_areas, duel=no_explosives),
    _row("weapon.area.per", "as weapon.area", standing=no_areas, duel=no_explosives),
    _row("weapon.area.radius", "as weapon.area", standing=no_areas, duel=no_explosives),
    _row("weapon.barrels", "as weapon.area", standing=no_areas, duel=no_explosives),
    _row("weapon.explosive", "as weapon.area", standing=no_areas, duel=no_explosives),
    _row("weapon.missile", "missiles, their engagements and evasion (F18): the general kernel",
         standing=no_missiles),
    # a thrown object (M-73, VA-49): built into weapon.dc, kills, range and shots (one object
    # unless more), so it needs what they need: the objects are a magazine never reloaded
    _row("weapon.thrown", _THROWN, standing=no_magazines),
    *(_row(f"thrown.{key}", _THROWN, standing=no_magazines) for key in THROWN_KEYS),
    *(_row(f"rules.{key}", "read only with a thrown object: " + _THROWN, standing=no_magazines)
      for key in THROW_SWITCHES),
    # armour
    _row("armor.name", _DESCRIPTIVE),
    _row("armor.description", _DESCRIPTIVE),
    _row("armor.notes", _DESCRIPTIVE),
    _row("armor.category", _DESCRIPTIVE),
    _row("armor.cost", _DESCRIPTIVE),
    _row("armor.pd", _STATIC),
    _row("armor.ekd", _STATIC),
    _row("armor.half_vs_blades", _STATIC),
    _row("armor.kills", "counts only on a Kill-rated target (member.kills)"),
    _row("armor.covers", "read only with hit locations", standing=no_hit_locations, duel=None),
    _row("armor.sdp", _SUIT, standing=no_suits),
    # rule switches
    _row("rules.dice", "every kernel's roll tables"),
    _row("rules.criticals", "every kernel's roll tables"),
    _row("rules.timing", "the action slots in the standing kernel; the squad and duel kernels "
         "phases only", squad=in_phases, duel=in_phases),
    _row("rules.extra_actions_table", "as rules.timing", squad=in_phases, duel=in_phases),
    _row("rules.initiative", "switch2 in the standing and duel kernels", squad=switch1),
    _row("rules.impairment", "every kernel (F24)"),
    _row("rules.stunned", "every kernel (F22)"),
    _row("rules.dying_can_act", "every kernel (F25)"),
    _row("rules.dying_penalty", "every kernel (F25)"),
    _row("rules.ap_factor", _STATIC),
    _row("rules.obscured_dv", "read only for the obscured"),
    _row("rules.dodge_bonus", "read only by a dodge (a tactic) or an abort"),
    _row("rules.block_bonus", "read only by a block (a tactic) or an abort"),
    _row("rules.hit_locations", "the general and duel kernels (F27, random and called)",
         standing=no_hit_locations, duel=None),
    _row("rules.knockback", "the general and duel kernels (F28; in a duel the moves it brings "
         "too)", standing=no_knockback, duel=None),
    _row("rules.knockback_unit", "read only with knockback"),
    _row("rules.campaign", "read only by autofire"),
    _row("rules.autofire_ratio", "read only by autofire"),
    _row("rules.autofire_hits", "read only by autofire"),
    _row("rules.semi_auto_rof", "as weapon.rof", standing=single_attacks),
    _row("rules.chinks", "F30 in the standing kernel", squad=no_chinks, duel=no_chinks),
    _row("rules.moving_target", "VA-16: nobody moves in a standing fight; the relative reading "
         "on the general kernel", squad=absolute_moving_target, duel=absolute_moving_target),
    _row("rules.powered_armour", _SUIT, standing=no_suits),
    *(_row(f"rules.{key}", "read only with powered armour: " + _SUIT, standing=no_suits)
      for key in PERSON_VA_SWITCHES),
    _row("rules.staged_penetration", "read only with a vehicle: " + _VEHICLE,
         standing=no_vehicles),
    _row("rules.structural_integrity", "read only with a vehicle: " + _VEHICLE,
         standing=no_vehicles),
    # vehicles and mecha (../shared/rulings/vehicles): the general kernel only
    _row("member.vehicle", _VEHICLE, standing=no_vehicles),
    *(_row(f"vehicle.{key}", _VEHICLE, standing=no_vehicles) for key in _VEHICLE_KEYS),
    *(_row(f"crew.{key}", _VEHICLE + " (a crew member's sheet)", standing=no_vehicles)
      for key in _CREW_KEYS),
    *(_row(f"vehicle_weapon.{key}", _VEHICLE, standing=no_vehicles)
      for key in _VEHICLE_WEAPON_KEYS),
    *(_row(f"rules.{key}", "read only with a vehicle: " + _VEHICLE, standing=no_vehicles)
      for key in _VEHICLE_SWITCHES),
    # falls and knockback into obstacles (features/scene/room.py): the general kernel only
    _row("obstacles", _IMPACT, standing=no_impacts),
    _row("drops", _IMPACT, standing=no_impacts),
    _row("terrain", _IMPACT, standing=no_impacts),
    *(_row(f"terrain.{key}", _IMPACT, standing=no_impacts) for key in TERRAIN_KEYS),
    *(_row(f"obstacle.{key}", _IMPACT, standing=no_impacts) for key in OBSTACLE_KEYS),
    *(_row(f"drop.{key}", _IMPACT, standing=no_impacts) for key in DROP_KEYS),
    _row("member.weight", "read only with an obstacle or a drop: " + _IMPACT,
         standing=no_impacts),
    *(_row(f"rules.{key}", "read only with an obstacle, a drop or terrain: " + _IMPACT,
           standing=no_impacts) for key in IMPACT_SWITCHES),
    # the environment (M-67 to M-71): the general kernel only
    _row("hazards", _HAZARD, standing=no_hazards),
    *(_row(f"hazard.{key}", _HAZARD, standing=no_hazards) for key in HAZARD_KEYS),
    _row("member.poison", _HAZARD, standing=no_hazards),
    *(_row(f"poison.{key}", _HAZARD, standing=no_hazards) for key in POISON_KEYS),
    _row("member.resting", "read only in an asphyxiating zone: " + _HAZARD,
         standing=no_hazards),
    _row("member.push", "pushing (M-75): its STR in the plan's, its END a phase in the "
         "environment's room: " + _HAZARD, standing=no_hazards),
    *(_row(f"rules.{key}", "read only with a hazard: " + _HAZARD, standing=no_hazards)
      for key in HAZARD_SWITCHES),
)  # fmt: skip


def _conditions(name: str) -> list[Condition]:
    """The distinct conditions kernel ``name`` needs, in table order."""
    seen: dict[Condition, None] = {}
    for row in HONOURS:
        cond = row.condition(name)
        if cond is not None:
            seen.setdefault(cond)
    return list(seen)


def failing_conditions(plan: Plan, name: str) -> list[Condition]:
    """The conditions kernel ``name`` needs that fail for ``plan``, in table order."""
    return [cond for cond in _conditions(name) if not cond(plan)]


def blocking_keys(plan: Plan, name: str) -> list[str]:
    """The keys whose condition for kernel ``name`` fails for ``plan`` (empty: it runs it)."""
    failing = set(failing_conditions(plan, name))
    return [row.key for row in HONOURS if row.condition(name) in failing]


def blocking_reasons(plan: Plan, name: str) -> list[str]:
    """What keeps kernel ``name`` from running ``plan``'s fight, in words (empty: it runs it)."""
    return [cond.failing for cond in failing_conditions(plan, name)]


def kernel_for(plan: Plan) -> str:
    """The fastest kernel that honours every key of ``plan``'s fight (``KERNELS`` order)."""
    held: dict[Condition, bool] = {}
    for name in SPECIALISED:
        ok = True
        for cond in _conditions(name):
            if cond not in held:
                held[cond] = bool(cond(plan))
            if not held[cond]:
                ok = False
                break
        if ok:
            return name
    return "general"
