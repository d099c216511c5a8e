"""Checks across a FUDGE scenario's members once every side is built
(:meth:`~fuzion_sim.systems.base.RuleSystem.check_scenario`): where they stand, what a charge
is set against, relative Scales past the table, and warnings for keys that do nothing under the
scenario's rules (every key a user writes reaches the fight, is an error, or is warned about).
"""

from __future__ import annotations

from fuzion_sim.errors import did_you_mean

from ...validation.keypath import format_path
from .geometry import by_distance, pair_distances
from .model import Barrier, Charge, Member
from .tables import scale_modifier

__all__ = ["check_scenario"]


def _paths(ctx, sides) -> dict[str, list]:
    """Each member's key path (``sides.<side>[i]`` or ``sides.<side>.members[i]``)."""
    out = {}
    for side, members in sides.items():
        for i, m in enumerate(members):
            listed = ["sides", side, "members", i]
            out[m.name] = listed if format_path(listed) in ctx.lines else ["sides", side, i]
    return out


def check_scenario(ctx, rules, sides: dict) -> None:
    """Raise ``ctx.fail(...)`` for the first inconsistency; append warnings to ``ctx``."""
    members = [m for side in sides.values() for m in side]
    paths = _paths(ctx, sides)
    _check_places(ctx, members, paths)
    _check_contacts(ctx, members, paths)
    _check_scales(ctx, rules, members, paths)
    _warn_idle(ctx, rules, members, paths)


def _check_places(ctx, members, paths) -> None:
    if not by_distance(members):
        return
    placed = next(m for m in members if m.distance is not None)
    for m in members:
        if m.position is not None:
            raise ctx.fail([*paths[m.name], "position"], (
                f"{placed.name} gives a distance and {m.name} a position: give every member a "
                "distance (metres to the enemy) or every member a position"))
    for i, a in enumerate(members):
        for b in members[i + 1:]:
            if a.side == b.side or a.distance is None or b.distance is None:
                continue
            if a.distance != b.distance:
                raise ctx.fail([*paths[b.name], "distance"], (
                    f"{a.name} is {a.distance:g} m from every enemy and {b.name} "
                    f"{b.distance:g} m: enemies must agree (leave one out, or use positions)"))
    for a in members:
        foes = [b for b in members if b.side != a.side]
        if isinstance(a, Member) and a.weapon is not None:
            if a.weapon.blast:
                raise ctx.fail([*paths[a.name], "weapon"], (
                    f"{a.name}'s {a.weapon.name} has a blast, which lands among the target's "
                    "friends: place everyone by position, not by distance"))
            for b in foes:
                if isinstance(b, Member) and a.distance is None and b.distance is None:
                    raise ctx.fail(paths[b.name], (
                        f"how far {b.name} is from {a.name} is unknown: give one of them a "
                        "distance"))
        if isinstance(a, Charge) and a.explosive.blast:
            for b in members:
                if not isinstance(b, Member) or b.name == a.contact:
                    continue
                if b.side == a.side:
                    raise ctx.fail(paths[a.name], (
                        f"the blast of {a.name} reaches its own side, whose distances from it "
                        "are unknown: place everyone by position, not by distance"))
                if a.distance is None and b.distance is None:
                    raise ctx.fail(paths[b.name], (
                        f"how far {b.name} is from the charge {a.name} is unknown: give one "
                        "of them a distance"))


def _check_contacts(ctx, members, paths) -> None:
    names = {m.name: m for m in members}
    contacted = set()
    for c in members:
        if not isinstance(c, Charge) or c.contact is None:
            continue
        kp = [*paths[c.name], "contact"]
        target = names.get(c.contact)
        if target is None:
            raise ctx.fail(kp, f"unknown member '{c.contact}'",
                           did_you_mean(c.contact, [n for n in names if n != c.name]))
        if target is c or isinstance(target, Charge):
            raise ctx.fail(kp, f"a charge is set against a combatant, an object or a barrier, "
                               f"not against the charge {c.contact}")
        contacted.add(c.contact)
    for b in members:
        if isinstance(b, Barrier) and b.name not in contacted:
            ctx.warnings.append(f"{format_path(paths[b.name])}: no charge is set against the "
                                f"barrier {b.name}: nothing can breach it")


def _check_scales(ctx, rules, members, paths) -> None:
    """With ``scale_beyond_table: error`` a relative Scale past ±15 is an error (UA8)."""
    if rules.scale_beyond_table != "error":
        return

    def check(rel, kp, what):
        if scale_modifier(rel, "error") is None:
            raise ctx.fail(kp, f"{what}: relative Scale {rel:+d} is past the table's ±15 "
                               "(rules.scale_beyond_table: error)")

    for a in members:
        if isinstance(a, Member) and a.armour.scale is not None and rules.armour_scale == "own":
            check(a.scale - a.armour.scale, [*paths[a.name], "armour", "scale"],
                  f"{a.name}'s armour")
        weapon = a.weapon if isinstance(a, Member) else getattr(a, "explosive", None)
        if weapon is None:
            continue
        key = "weapon" if isinstance(a, Member) else "charge"
        for b in members:
            if isinstance(b, Member) and b.side != a.side:
                check(b.scale - weapon.scale, [*paths[a.name], key],
                      f"{a.name}'s {weapon.name} on {b.name}")


def _warn_idle(ctx, rules, members, paths) -> None:
    """Warnings for keys that do nothing under the scenario's rules."""
    warn = ctx.warnings.append

    def where(m, key):
        return format_path([*paths[m.name], key])

    shooters = [m for m in members if isinstance(m, Member) and m.weapon is not None]
    shooting_sides = {a.side for a in shooters}
    any_blast = (any(m.weapon.blast for m in shooters)
                 or any(isinstance(c, Charge) and c.explosive.blast for c in members))
    lasers = any(m.weapon.laser for m in shooters)
    dist, known = pair_distances(members) if lasers else (None, None)
    index = {m.name: i for i, m in enumerate(members)}
    for m in members:
        if not isinstance(m, Member):
            continue
        shot_at = bool(shooting_sides - {m.side})
        if m.speed != "stationary" and not shot_at:
            warn(f"{where(m, 'speed')}: does nothing: no enemy of {m.name} shoots")
        if not shot_at and not any_blast:
            if m.ducked:
                warn(f"{where(m, 'ducked')}: does nothing: no enemy of {m.name} shoots and "
                     "nothing explodes")
            if m.cover == "partial":
                warn(f"{where(m, 'cover')}: does nothing: no enemy of {m.name} shoots and "
                     "nothing explodes")
        if m.dodge is not None and rules.ranged_defence == "none":
            warn(f"{where(m, 'dodge')}: does nothing under rules.ranged_defence: none")
        elif (m.dodge is not None and rules.dodge_costs_action and m.tactic == "shoot"
              and rules.ranged_defence == "dodge"):
            warn(f"{where(m, 'dodge')}: does nothing: with rules.dodge_costs_action only a "
                 "member whose tactic is dodge dodges")
        if m.weapon is not None and m.weapon.laser:
            i = index[m.name]
            near = [j for j, v in enumerate(members) if isinstance(v, Member)
                    and v.side != m.side and known[i, j] and dist[i, j] < 10]
            if not near:
                warn(f"{where(m, 'weapon')}.laser: does nothing: no enemy of {m.name} is "
                     "under 10 m (UA28)")
        if m.dodge is None and rules.ranged_defence == "dodge":
            warn(f"{where(m, 'dodge')}: {m.name} has no dodge: it dodges at Fair (UA4)")
        if m.aim is not None and rules.hit_locations != "aimed":
            warn(f"{where(m, 'aim')}: does nothing unless rules.hit_locations: aimed")
        if m.wound_width is not None and rules.wounds == "core":
            warn(f"{where(m, 'wound_width')}: does nothing on the core wound track")
        if m.armour.scale is not None and rules.armour_scale == "wearer":
            warn(f"{where(m, 'armour')}.scale: does nothing under rules.armour_scale: wearer "
                 "(the points are at the wearer's Scale)")
        if m.tactic == "dodge" and not (rules.ranged_defence == "dodge"
                                        and rules.dodge_costs_action):
            warn(f"{where(m, 'tactic')}: dodge as a tactic does nothing unless "
                 "rules.ranged_defence: dodge and rules.dodge_costs_action: true")
        if m.weapon is not None and m.initiative and rules.order == "simultaneous":
            warn(f"{where(m, 'initiative')}: does nothing under rules.order: simultaneous")
        w = m.weapon
        if w is not None and w.concussion_value is not None and rules.concussion_value == "ignore":
            warn(f"{where(m, 'weapon')}.concussion_value: does nothing under "
                 "rules.concussion_value: ignore (UA18)")
    for c in members:
        if isinstance(c, Charge):
            w = c.explosive
            if not w.blast and c.contact is None:
                warn(f"{where(c, 'charge')}: {w.name} has no concussion or burst radius and "
                     f"is set against nothing (contact:): {c.name} does nothing")
            if w.concussion_value is not None and rules.concussion_value == "ignore":
                warn(f"{where(c, 'charge')}.concussion_value: does nothing under "
                     "rules.concussion_value: ignore (UA18)")
    blasts = [m.weapon for m in shooters if m.weapon.blast]
    blasts += [c.explosive for c in members if isinstance(c, Charge) and c.explosive.blast]
    odd = [m.name for m in members if isinstance(m, Member) and m.scale != 0]
    if blasts and odd and rules.blast_scale == "none":
        warn(f"rules.blast_scale: none: a blast hurts {', '.join(odd)} (Scale not 0) as much "
             "as a man; rules.blast_scale: reduce_only lets bigger things shrug it off (UA19)")
