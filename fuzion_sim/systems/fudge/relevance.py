"""Which of FUDGE's rule switches can change a scenario's fight.

:data:`INERT` maps a switch to a test over the scenario (its rules, members and charges) that
returns why the switch cannot matter there ("no one wears armour"), or None when it may. A
switch missing from the table may always matter; a test that cannot decide says None, so a
switch is never called inert wrongly. A new switch adds one line.
``tests/systems/test_switch_walk.py`` flips every switch on every shipped scenario and holds
this table to the numbers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fuzion_sim.validation.model import Rules

from .codes import POOR
from .damage import blast_adjustment, breach_result, hit_damage
from .geometry import pair_distances
from .model import SWITCHES, Barrier, Charge, Member
from .tables import locations, scale_modifier

__all__ = ["INERT"]

#: A test: why the switch cannot matter in the scenario, or None.
Test = Callable[[object], str | None]


def _members(s) -> list:
    return [m for m in s.combatants if isinstance(m, Member)]


def _shooters(s) -> list:
    return [m for m in _members(s) if m.weapon is not None]


def _charges(s) -> list:
    return [m for m in s.combatants if isinstance(m, Charge)]


def _blasts(s) -> list:
    """Every explosive of the fight: blast weapons and charges."""
    return [m.weapon for m in _shooters(s) if m.weapon.blast] + [c.explosive for c in _charges(s)]


def _contacts(s) -> list:
    """What each charge is set against (members and barriers)."""
    by_name = {m.name: m for m in s.combatants}
    return [by_name[c.contact] for c in _charges(s) if c.contact in by_name]


def _targets(s) -> list:
    """Members an enemy shooter may shoot at."""
    return [t for t in _members(s) if any(a.side != t.side for a in _shooters(s))]


def _shots(s) -> list:
    """(shooter, target, metres) of every shot the fight may hold."""
    members = s.combatants
    dist, known = pair_distances(members)
    return [(a, t, float(dist[i, j])) for i, a in enumerate(members) for j, t in enumerate(members)
            if isinstance(a, Member) and a.weapon is not None and isinstance(t, Member)
            and t.side != a.side and known[i, j]]


def _with(s, **values) -> Rules:
    """The scenario's rules with ``values`` changed."""
    return Rules(values={**s.rules.values, **values})


def _damages(s, rules) -> list:
    """Every hit's and contact's damage, breach result and blast adjustment of the fight under
    ``rules``: the numbers the damage switches feed."""
    mults = [r.multiplier for r in locations()] if rules.hit_locations != "none" else [1]
    pairs = {(a.weapon.bd, a.weapon.scale, t.armour, t.damage_capacity, t.scale): (a, t)
             for a, t, _ in _shots(s)}  # the shots that can differ
    out = [hit_damage(a.weapon.bd, a.weapon.scale, t, row, rules, m)
           for a, t in pairs.values() for m in mults for row in range(-4, 5)]
    by_name = {m.name: m for m in s.combatants}
    for c in _charges(s):
        target = by_name.get(c.contact)
        for tamped in (False, True):
            for row in range(-4, 5):
                if isinstance(target, Member):
                    out.append(hit_damage(c.explosive.bd, c.explosive.scale, target, row, rules,
                                          tamped=tamped))  # fmt: skip
                elif isinstance(target, Barrier):
                    out.append(breach_result(c.explosive, target, row, rules, tamped))
    out += [blast_adjustment(w, v, rules) for w in _blasts(s) for v in _members(s)]
    return out


def _feeds_damage(name: str, reason: str) -> Test:
    """A switch that only feeds the damage tables: inert when every value gives the same."""
    spec = SWITCHES[name]

    def test(s):
        if not isinstance(spec.kind, tuple) and spec.kind is not bool:
            return None
        values = spec.kind if isinstance(spec.kind, tuple) else (False, True)
        tables = [_damages(s, _with(s, **{name: v})) for v in values]
        return reason if all(t == tables[0] for t in tables) else None

    return test


def _to_hit(a, t, d: float, rules) -> tuple[int, int]:
    """(need, bonus) of one shot of ``a`` at ``t`` from ``d`` metres, as the compiler works
    them out."""
    from .compile import _situation as target_situation
    from .compile import _to_hit as to_hit

    need, bonus = to_hit(a, np.array([target_situation(t, rules)]), np.array([float(d)]), rules)
    return int(need[0]), int(bonus[0])


def _situation(s) -> bool:
    """The situational modifiers' place can change a shot: a shot has one, and a dodge or the
    Poor floor meets it (``rules.shot``: on the difficulty, a hit needs max(DL, Poor); on the
    skill, max(DL, Poor - modifier) in the same terms)."""
    dodging = s.rules.ranged_defence == "dodge"
    for a, t, d in _shots(s):
        need, bonus = _to_hit(a, t, d, _with(s, modifiers_on="difficulty"))
        situation = _to_hit(a, t, d, _with(s, modifiers_on="skill"))[1] - bonus
        if situation and (dodging or max(POOR, POOR - situation) > need):
            return True
    return False


def _falls_back(s) -> bool:
    """Under aimed hit locations, a shot can hit short of the level its aim needs."""
    from .compile import part_index

    if s.rules.hit_locations != "aimed":
        return False
    return any(part_index(a.aim)[1] > max(_to_hit(a, t, d, s.rules)[0], POOR)
               for a, t, d in _shots(s))


def _past_table(s) -> bool:
    """A relative Scale of the fight (weapon on target, explosive on anyone, armour on its
    wearer) lies past the Scale table."""
    scales = {m.scale for m in s.combatants if isinstance(m, Member | Barrier)}
    scales |= {m.armour.scale for m in _members(s) if m.armour.scale is not None}
    weapons = {w.scale for w in [m.weapon for m in _shooters(s)] + _blasts(s)} | scales
    return any(scale_modifier(a - b, "error") is None for a in scales for b in weapons)


def _needs(test: Callable[[object], bool], reason: str) -> Test:
    """A test that calls the switch inert, for ``reason``, unless ``test(scenario)``."""
    return lambda s: None if test(s) else reason


def _ties(s) -> bool:
    """Two shooters share an initiative and order is fixed (the ties a random break rolls)."""
    inits = [m.initiative for m in _shooters(s)]
    return s.rules.order == "fixed" and len(set(inits)) < len(inits)


_DODGE = _needs(lambda s: s.rules.ranged_defence == "dodge" and _targets(s),
                "rules.ranged_defence is none, or no one is shot at")
_CORE = _needs(lambda s: s.rules.wounds == "core", "rules.wounds is firearms")
_LOCATIONS = _needs(lambda s: s.rules.hit_locations != "none" and _targets(s),
                    "rules.hit_locations is none, or no one is shot at")

_SHOOTS = _needs(_shots, "no one shoots")

#: Switch -> why it cannot matter in a scenario (None: it may).
INERT: dict[str, Test] = {
    "order": _SHOOTS,
    "base_difficulty": _SHOOTS,
    "modifiers_on": _needs(_situation, "no shot has a situational modifier"),
    "ranged_defence": _SHOOTS,
    "shot_roll": _SHOOTS,
    "shot_critical": _needs(lambda s: _shots(s) or any(isinstance(m, Member)
                                                       for m in _contacts(s)),
        "no one shoots and no charge is set against a member"),
    "zero_damage": _feeds_damage("zero_damage", "no hit can do 0 damage"),
    "wound_penalties": _SHOOTS,
    "hit_locations": _SHOOTS,
    "fog": _SHOOTS,
    "light": _SHOOTS,
    "action_timing": _needs(lambda s: any(c.avg_seconds is not None for c in _charges(s)),
                            "no charge goes off after a time"),
    "scale_beyond_table": _needs(_past_table, "no relative Scale lies past the table"),
    "tie_break": _needs(_ties, "no two shooters share an initiative under rules.order: fixed"),
    "propelled_dodge_penalty": _DODGE,
    "dodge_costs_action": _DODGE,
    "armour_stops": _feeds_damage("armour_stops", "no hit meets armour it cannot pierce"),
    "armour_scale": _needs(lambda s: any(m.armour.scale is not None for m in _members(s)),
                           "no armour has a Scale of its own"),
    "firearms_dead_at": _needs(lambda s: s.rules.wounds == "firearms", "rules.wounds is core"),
    "core_overflow": _CORE,
    "core_dead_damage": _CORE,
    "concussion_value": _needs(lambda s: any(w.concussion_value is not None for w in _blasts(s)),
                               "no explosive has a Concussion Value"),
    "blast_scale": _needs(lambda s: any(w.scale != m.scale for w in _blasts(s)
                                        for m in _members(s)),
                          "no explosive meets anyone of another Scale"),
    "blast_armour": _needs(lambda s: _blasts(s) and any(m.armour.points for m in _members(s)),
                           "no explosive, or no one wears armour"),
    "tamped_concussion": _needs(
        lambda s: any(c.tamped is not False and c.explosive.concussion is not None
                      for c in _charges(s)), "no charge with concussion can be tamped"),
    "blast_damage": _needs(lambda s: any(w.concussion is not None and w.burst_radius is not None
                                         and blast_adjustment(w, m, s.rules)
                                         for w in _blasts(s) for m in _members(s)),
                           "no blast of concussion and fragmentation meets a Damage Capacity "
                           "or Scale modifier"),
    "cover_near": _needs(lambda s: any(w.concussion is not None for w in _blasts(s))
                         and any(m.cover != "none" for m in _members(s)),
                         "no concussion, or no one has cover"),
    "duck_penalty": _needs(lambda s: any(m.ducked for m in _targets(s)),
                           "no one shot at ducks"),
    "partial_cover_penalty": _needs(lambda s: any(m.cover == "partial" for m in _targets(s)),
                                    "no one shot at has partial cover"),
    "frag_zones": _needs(lambda s: any(w.burst_radius is not None for w in _blasts(s)),
                         "no explosive has a burst radius"),
    "breach_roll": _needs(lambda s: any(isinstance(m, Barrier) for m in s.combatants),
                          "no barrier to breach"),
    "breach_scale": _feeds_damage("breach_scale", "the Scale table gives the breach the raw "
                                                  "difference, or there is no barrier"),
    "contact_concussion": _needs(
        lambda s: any(m.weapon.blast for m in _shooters(s))
        or any(isinstance(m, Member) for m in _contacts(s)),
        "no blast weapon, and no charge is set against a member"),
    "aim_fallback": _needs(_falls_back, "no aimed shot can hit short of its part"),
    "location_multiplier_on": _feeds_damage("location_multiplier_on",
                                            "no hit's damage depends on it"),
    "cripple_out": _LOCATIONS,
}  # fmt: skip
