"""Damage in exact arithmetic (RULINGS U2; rulings UA7, UA9, UA19, UA22, UA24, UA26): the
numbers the compile step writes into the kernels' tables and the exact oracles read.

A hit does ``max(0, floor(BD' - armour + DC modifier + shot modifier + Scale modifier))``
(BD' = BD, doubled when tamped; the shot modifier a percentage of BD', truncated), then the
hit location's multiplier, floored again. A blast does floor(concussion) + fragmentation and,
when that is at least 1, the Damage Capacity modifier once, floored at 0.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .tables import dc_modifier, scale_modifier, shot_modifier

__all__ = ["armour_points", "blast_adjustment", "breach_result", "hit_damage", "scale_mod"]


def scale_mod(relative: int, rules) -> int:
    """The §8.2214 modifier of a relative Scale under ``scale_beyond_table`` (UA8); an
    ``error`` pair was refused at loading, so it reads the extrapolated steps here."""
    mod = scale_modifier(relative, rules.scale_beyond_table)
    return scale_modifier(relative, "extrapolate") if mod is None else mod


def armour_points(member, rules) -> Fraction:
    """UA9: the armour's points at the wearer's Scale: as given (``wearer``), or converted
    from the armour's own Scale by the Scale table (``own``), never below 0."""
    points = member.armour.points
    if rules.armour_scale == "own" and member.armour.scale is not None:
        points = max(Fraction(0), points + scale_mod(member.scale - member.armour.scale, rules))
    return points


def hit_damage(bd: Fraction, weapon_scale: int, target, row: int, rules,
               multiplier: Fraction = Fraction(1), tamped: bool = False) -> int:  # fmt: skip
    """The damage of a hit (or of a charge's contact) with Damage Roll row ``row``.

    Parameters
    ----------
    bd : Fraction
        Basic Damage (doubled when ``tamped``, §8.32).
    weapon_scale : int
    target : Member
        Its armour, Damage Capacity and Scale count.
    row : int
        The shot modifier's row, -4 .. +4 (UA5).
    rules : Rules
        ``armour_scale``, ``armour_stops``, ``zero_damage``, ``shot_critical``,
        ``location_multiplier_on``, ``scale_beyond_table``.
    multiplier : Fraction
        The hit location's multiplier (UA26), on the total or on BD'.
    """
    bdp = Fraction(bd) * (2 if tamped else 1)
    after = multiplier
    if rules.location_multiplier_on == "bd":
        bdp, after = bdp * multiplier, Fraction(1)
    shot = shot_modifier(row, bdp)
    armour = armour_points(target, rules)
    smod = scale_mod(target.scale - weapon_scale, rules)
    if rules.armour_stops and bdp + shot + smod - armour <= 0:
        damage = 0
    else:
        damage = max(0, math.floor(bdp - armour + dc_modifier(target.damage_capacity) + shot
                                   + smod))  # fmt: skip
    damage = math.floor(damage * after)
    if rules.shot_critical == "incapacitate" and row == -4:
        return 0  # a "Critical roll" at -4 read as a fumble: no damage (UA6)
    if damage == 0 and rules.zero_damage == "scratch":
        return 1
    return damage


def blast_adjustment(explosive, victim, rules) -> int:
    """What a blast that reaches ``victim`` with at least 1 point adds (UA19, UA22): the
    Damage Capacity modifier, the Scale modifier under ``blast_scale`` and, with
    ``blast_armour``, less the armour; floored (the blast's own points are whole)."""
    adj = Fraction(dc_modifier(victim.damage_capacity))
    mod = scale_mod(victim.scale - explosive.scale, rules)
    if rules.blast_scale == "full":
        adj += mod
    elif rules.blast_scale == "reduce_only":
        adj += min(mod, 0)
    if rules.blast_armour:
        adj -= armour_points(victim, rules)
    return math.floor(adj)


def breach_result(explosive, barrier, row: int, rules, tamped: bool) -> int:
    """§8.32's four steps (UA24): (explosive Scale - barrier Scale, or the Scale table with
    ``breach_scale: table``) + BD' + the Situational Roll (``raw``) or the shot table's
    percentage of BD' (``shot_table``) - the barrier's Wounds, floored. > 0 breaches, 0 is
    about to breach, < 0 holds."""
    bdp = explosive.bd * (2 if tamped else 1)
    if rules.breach_scale == "table":
        step1 = scale_mod(barrier.scale - explosive.scale, rules)
    else:
        step1 = explosive.scale - barrier.scale
    step3 = row if rules.breach_roll == "raw" else shot_modifier(row, bdp)
    return math.floor(step1 + bdp + step3 - barrier.wounds)
