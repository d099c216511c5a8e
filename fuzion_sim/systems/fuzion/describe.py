"""What ``fuzion-sim validate`` says of a Fuzion fight: each member in a line, and its kernel."""

from __future__ import annotations

from . import dispatch, kernel, run
from .rules import weapon_dice

__all__ = ["attack_dice", "describe_kernel", "describe_member"]


def _kills(n: int) -> str:
    return f"{n} Kill" if n == 1 else f"{n} Kills"


def attack_dice(c) -> str:
    """The member's damage per attack at full health, as a reader checks it: the dice with how
    they come about (F12-F14, F29), e.g. ``5d6 killing (DC 4 +1 for STR)``."""
    w = c.weapon
    strength = c.stats["STR"]
    n = weapon_dice(w, strength)
    kind = "Stun" if w.damage == "stun" else "killing"
    missile = getattr(w, "missile", None)
    if missile is not None:  # F18: a launch of missiles, each doing the weapon's damage
        what = "a missile" if missile.cluster == 1 else f"a cluster of {missile.cluster}"
        each = (f"{_kills(w.kills)} ({n} DC against small targets)" if w.kills
                else f"{n}d6 {kind}")  # fmt: skip
        return f"{what} at DV {missile.dv}, each {each}"
    if w.unarmed:
        return f"{n}d6 Stun (a punch at STR {strength})"
    if w.kills:
        return f"{_kills(w.kills)} ({n} DC against small targets)"
    parts = [f"DC {w.dc}"]
    if strength < w.min_str:
        short = w.min_str - strength
        parts.append(f"-{short} and -{short} to hit: STR {strength} under the minimum {w.min_str}")
    elif w.kind == "melee" and n > w.dc:
        parts.append(f"+{n - w.dc} for STR")
    how = parts[0] if len(parts) == 1 else f"{parts[0]} {parts[1]}"
    return f"{n}d6 {kind} ({how})"


def describe_member(c) -> str:
    """One line: weapon, its dice, skill, armour, Hits and Stun (or structure), position."""
    if c.armor.kills:
        armour = f"; {c.armor.name} ({c.armor.kills} Kills)"
    elif c.armor.pd or c.armor.ekd:
        ekd = f", EKD {c.armor.ekd}" if c.armor.ekd else ""
        armour = f"; {c.armor.name} (PD {c.armor.pd}{ekd})"
    else:
        armour = ""
    x, y = c.xy
    where = f"({x:g}, {y:g})" if isinstance(c.position, tuple) else f"{x:g}"
    if c.kills:
        pools = f"{c.kills} Kills of structure"
    elif c.sdp:
        pools = f"SDP {c.sdp}"
    else:
        pools = f"Hits {c.derived['hits']}, Stun {c.derived['stun']}"
    w = c.weapon
    vehicle = getattr(c, "vehicle", None)
    if vehicle is not None:
        seat = (f"fires {w.name}, {attack_dice(c)}, {w.skill} {c.skill(w.skill)}"
                if w.name != "(no weapon)" else "no weapon of its pilot's")  # fmt: skip
        others = [x.name for x in getattr(c, "arsenal", ())[1:]]
        if others:
            seat += f" (and {', '.join(others)}, taken up by name)"
        sp = vehicle.speeds()
        fast = (f"; afterburner Mach {sp['mach']} ({sp['afterburner_kph']:,.0f} kph)"
                if sp["mach"] else "")  # fmt: skip
        pace = (f"; MOVE {sp['move']} ({sp['kph']:,.0f} kph, {sp['mph']:,.0f} mph{fast})"
                if sp["move"] else "")  # fmt: skip
        cm = vehicle.countermeasures
        flares = ("" if not cm else "; countermeasures unlimited" if cm < 0
                  else f"; {cm} countermeasure charges")  # fmt: skip
        article = "an" if vehicle.kind[0] in "aeiou" else "a"
        skill = vehicle.control_skill
        return (f"{c.name}: {article} {vehicle.kind} vehicle, driven by {vehicle.pilot} (defence "
                f"REF {c.stats['REF']} + {skill} {c.skill(skill)}); "
                f"{seat}{armour}; {pools}{flares}{pace}; heading {vehicle.heading:g}; at "
                f"{where} m")
    if getattr(c, "role", "") == "pilot":
        return f"{c.name}: the pilot of {c.carrier}{armour}; {pools}"
    if getattr(c, "carrier", None) is not None:
        others = [x.name for x in getattr(c, "arsenal", ())[1:]]
        more = f" (and {', '.join(others)}, taken up by name)" if others else ""
        return (f"{c.name}: {c.role} in {c.carrier}: {w.name}, {attack_dice(c)}, {w.skill} "
                f"{c.skill(w.skill)}{more}{armour}; {pools}")
    thrown = getattr(w, "thrown", None)
    if thrown is not None and thrown.figures is not None:  # M-73, VA-49
        from .features.scene.throws import describe_throw

        armour = f" ({describe_throw(thrown.figures)}; {w.shots} thrown){armour}"
    return (
        f"{c.name}: {w.name}, {attack_dice(c)}, {w.skill} {c.skill(w.skill)}{armour}; {pools}; "
        f"at {where} m"
    )


def describe_kernel(fight) -> str:
    """Which kernel runs a compiled fight (``run.FightPlan``) and, for the general kernel, what
    keeps it from the standing kernel (``dispatch.blocking_reasons``)."""
    if fight.kernel != "general":
        used = fight.duel.options if fight.duel is not None else ()
        names = {"locations": "hit locations", "autofire": "autofire", "knockback": "knockback",
                 "area": "a spread"}  # fmt: skip
        extra = f" with {', '.join(names[o] for o in used)}" if used else ""
        if fight.plain:  # kernel_duel_plain: nothing but Hits and Stun changes
            return ("runs on the plain duel kernel (nothing but Hits and Stun changes"
                    + (", and the penalties where a wound crosses a line)" if fight.plain ==
                       "wounds" else ")"))  # fmt: skip
        return f"runs on the {fight.kernel} kernel{extra}"
    why = "; ".join(dispatch.blocking_reasons(fight.arrays, "standing"))
    rooms = kernel.SETS[kernel.compiled_set(run.features(fight.arrays))]
    return f"runs on the general kernel{rooms} ({why})"
