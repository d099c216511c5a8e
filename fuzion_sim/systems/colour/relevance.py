"""Which of the colour system's rule switches can change a scenario's fight.

:data:`INERT` maps a switch to a test over the scenario (its rules and members: weapons,
armour layers, shields, defences, actions) that returns why the switch cannot matter there
("no one has a shield"), or None when it may. A switch missing from the table may always
matter; a test that cannot decide says None, so a switch is never called inert wrongly. A new
switch adds one line. ``tests/systems/test_switch_walk.py`` flips every switch on every shipped
scenario and holds this table to the numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from .ladder import ladder
from .model import SWITCHES

__all__ = ["INERT"]

#: A test: why the switch cannot matter in the scenario, or None.
Test = Callable[[object], str | None]


def _any(s, test) -> bool:
    """Some member passes ``test``."""
    return any(test(m) for m in s.combatants)


def _has(test, reason: str) -> Test:
    """Inert, for ``reason``, unless some member passes ``test``."""
    return lambda s: None if _any(s, test) else reason


def _all(*tests: Test) -> Test:
    """Inert when any of ``tests`` says so (the first reason)."""
    return lambda s: next((r for r in (t(s) for t in tests) if r), None)


def _rule(name: str, *values, reason: str) -> Test:
    """Inert unless ``rules.<name>`` is one of ``values``."""
    return lambda s: None if s.rules.values[name] in values else reason


def _defends(*kinds: str) -> Callable:
    return lambda m: any(d in kinds for d in m.defences)


def _enemies(s, m) -> list:
    return [e for e in s.combatants if e.side != m.side]


def _rated(m) -> list:
    """Every rank or number a member gives (abilities, damage, AP, rounds, armour, shield)."""
    w = m.weapon
    out = [*m.abilities.values(), w.ap, w.rounds, *(x.value for x in _layers(m))]
    out += [w.damage] if w.damage is not None else []
    return out + ([m.shield.protection] if m.shield is not None else [])


def _layers(m) -> list:
    return [x for x in (m.armour, m.natural_armour, m.force_field) if x is not None]


def _does(*kinds: str) -> Callable:
    return lambda m: any(a.do in kinds for a in m.actions)


def _called(*parts: str) -> Callable:
    """A member whose actions call a shot (at one of ``parts``, or any)."""
    return lambda m: any(a.called and (not parts or a.called in parts) for a in m.actions)


_MAX_ACTIONS = SWITCHES["max_actions_per_turn"].default
_SHIELD = _has(lambda m: m.shield is not None, "no one has a shield")
_FIELD = _has(lambda m: m.force_field is not None, "no one has a force field")
_BODY = _has(lambda m: m.armour is not None, "no one wears body armour")
_ARMOUR = _has(lambda m: bool(_layers(m)), "no one has armour")
_SOAK = _has(_defends("soak"), "no one soaks")
_CALLED = _has(_called(), "no one calls a shot")
_LIMBS = _has(_called("left_arm", "right_arm", "left_leg", "right_leg", "arm", "leg"),
              "no one calls a shot at a limb")
_GRAPPLE = _has(_does("grapple"), "no one grapples")
_CONCENTRATED = _has(_does("concentrated"), "no one fires concentrated")
_FINISH = _has(lambda m: m.finish_fallen, "no one attacks the fallen (finish_fallen)")

#: Switch -> why it cannot matter in a scenario (None: it may).
INERT: dict[str, Test] = {
    "unknown_rank": lambda s: None if any(
        isinstance(r.given, str) and ladder(s.rules.ladder).index(r.given) is None
        for m in s.combatants for r in _rated(m)) else "every rank named is on its ladder",
    "max_actions_per_turn": _has(lambda m: len(m.actions) > _MAX_ACTIONS,
                                 f"no member lists more than {_MAX_ACTIONS} actions"),
    "multi_action_penalty": _has(lambda m: len(m.actions) > 2,
                                 "no member takes more than two actions a turn"),
    "defence_choice": _has(lambda m: len(m.defences) > 1, "no one knows more than one defence"),
    "contest_clamp": _GRAPPLE,
    "feat_success": _has(lambda m: (m.force_field is not None and m.reraise_field)
                         or m.dive_for_cover or _does("grapple")(m),
                         "no force field to raise again, no one dives and no one grapples"),
    "thrown_damage": _has(lambda m: m.weapon.thrown, "no thrown weapon"),
    "gun_damage": _has(lambda m: m.weapon.gun, "no gun"),
    "ap_percent": _all(_has(lambda m: m.weapon.ap_percent, "no weapon has an AP percentage"),
                       _ARMOUR),
    "ignores_armour_scope": _has(lambda m: m.weapon.ignores_armour, "no weapon ignores armour"),
    "armour_covers": _all(_has(lambda m: m.weapon.type == "energy", "no energy attack"),
                          _has(lambda m: any(x.covers is None for x in _layers(m)),
                               "no armour without covers")),
    "reduction_order": _ARMOUR,
    "crit_colours": lambda s: None if s.rules.armour_rattle or s.rules.armour_breakage else (
        "rules.armour_rattle and armour_breakage are off"),
    "armour_rattle": _ARMOUR,
    "armour_damage_table": _BODY,
    "armour_breakage": _has(lambda m: m.armour is not None or m.shield is not None,
                            "no one has body armour or a shield"),
    "red_ignores_armour": _BODY,
    "natural_armour_crit": _has(lambda m: m.natural_armour is not None,
                                "no one has natural armour"),
    "field_drop": _FIELD,
    "field_reraise": _has(lambda m: m.force_field is not None and m.reraise_field,
                          "no force field is raised again"),
    "shield_crit": _SHIELD,
    "shield_crit_colours": _SHIELD,
    "shield_mode_choice": _SHIELD,
    "shield_ap": _SHIELD,
    "concentrated_pct": _CONCENTRATED,
    "concentrated_hits": _CONCENTRATED,
    "concentrated_needs_armour": _CONCENTRATED,
    "ammunition": _has(lambda m: m.weapon.shots is not None, "no weapon has a magazine"),
    "rwb_rolls": _has(_defends("roll_with_blow", "soak"), "no one rolls with a blow or soaks"),
    "roll_with_blow": _has(_defends("roll_with_blow"), "no one rolls with a blow"),
    "soak": _SOAK,
    "block_invalid": _has(_defends("block", "parry"), "no one blocks or parries"),
    "parry_ranged": lambda s: None if any(
        _defends("parry")(m) and any(e.weapon.kind != "melee" for e in _enemies(s, m))
        for m in s.combatants) else "no one parries a ranged attacker",
    "unarmed_parry_base": _has(lambda m: _defends("parry")(m) and not m.weapon.parry,
                               "no one parries without a parrying weapon"),
    "roll_with_blow_ability": _has(_defends("roll_with_blow"), "no one rolls with a blow"),
    "soak_damage_rank": _SOAK,
    "soak_damage_basis": _SOAK,
    "soak_below_required": _SOAK,
    "soak_strain": _SOAK,
    "soak_strain_count": _SOAK,
    "soak_with_armour": _SOAK,
    "dive_fail": _has(lambda m: m.dive_for_cover, "no one dives for cover"),
    "helpless_loss_per": _FINISH,
    "kill_outright_at_zero": _FINISH,
    "head_penalty": _has(_called("head"), "no one calls a shot at the head"),
    "limb_damage_to_health": _LIMBS,
    "sever_cap": _LIMBS,
    "head_piercing": _has(lambda m: m.weapon.type == "piercing" and _called("head")(m),
                          "no piercing called shot at the head"),
    "energy_called_shot": _has(lambda m: m.weapon.type == "energy" and _called()(m),
                               "no energy called shot"),
    "disabled_limb_penalty": _LIMBS,
    "grapple_damage": _GRAPPLE,
    "holder_other_actions": lambda s: None if any(
        _does("grapple")(m) and len(_enemies(s, m)) > 1 for m in s.combatants) else (
        "no grappler has a second enemy"),
    "release_on_red": _GRAPPLE,
    "grappled_defence": _GRAPPLE,
    "aid_fallen": lambda s: None if any(len(side) > 1 for side in s.sides.values()) else (
        "no one has an ally"),
    "aim_lost_on": _has(lambda m: m.aim > 0, "no one aims"),
}  # fmt: skip
