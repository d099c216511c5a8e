"""What ``fuzion-sim validate`` says of a FUDGE fight: each member in a line, and its kernel."""

from __future__ import annotations

from . import dispatch
from .dice import ladder_name
from .model import Barrier, Charge

__all__ = ["describe_kernel", "describe_member", "weapon_text"]


def _num(x) -> str:
    return f"{float(x):g}"


def weapon_text(w) -> str:
    """``Blaster (BD 4)``, ``Bazooka (BD 9, Scale 11)``, with its blast and aiming device."""
    bits = [f"BD {_num(w.bd)}"]
    if w.scale:
        bits.append(f"Scale {w.scale}")
    if w.concussion is not None:
        bits.append(f"concussion {_num(w.concussion)} within {_num(w.concussion_range)} m")
    if w.burst_radius is not None:
        bits.append(f"burst radius {_num(w.burst_radius)} m")
    if w.sight != "none":
        bits.append(f"{w.sight} sight")
    if w.laser:
        bits.append("laser")
    return f"{w.name} ({', '.join(bits)})"


def _where(m) -> str:
    if m.distance is not None:
        return f"{m.distance:g} m from the enemy"
    if m.position is None:
        return "no position or distance of its own"
    p = m.position
    return f"at ({p[0]:g}, {p[1]:g}) m" if isinstance(p, tuple) else f"at {p:g} m"


def describe_member(m) -> str:
    """One line: what the member is, what it fights with, its traits and where it stands."""
    if isinstance(m, Charge):
        when = (f"after about {m.avg_seconds:g} s" if m.avg_seconds is not None
                else f"at the start of round {m.detonates}")  # fmt: skip
        tamp = ("tamped" if m.tamped else "untamped") if m.tamped is not None else (
            f"tamped on an Explosives roll of {ladder_name(m.tamping)}")  # fmt: skip
        against = f", set against {m.contact}" if m.contact else ""
        return (f"{m.name}: a charge, {weapon_text(m.explosive)}, goes off {when}, {tamp}"
                f"{against}; {_where(m)}")  # fmt: skip
    if isinstance(m, Barrier):
        return f"{m.name}: a barrier, Scale {m.scale}, {m.wounds} Wounds; {_where(m)}"
    gear = (f"{weapon_text(m.weapon)}, skill {ladder_name(m.skill)}" if m.weapon
            else "no weapon (shot at only)")  # fmt: skip
    extras = []
    if m.scale:
        extras.append(f"Scale {m.scale}")
    if m.armour.points:
        extras.append(f"armour {_num(m.armour.points)}")
    if m.ducked:
        extras.append("ducked")
    if m.cover != "none":
        extras.append(f"{m.cover} cover")
    if m.speed != "stationary":
        extras.append(m.speed)
    more = f", {', '.join(extras)}" if extras else ""
    return (f"{m.name}: {gear}; Damage Capacity {ladder_name(m.damage_capacity)}{more}; "
            f"{_where(m)}")  # fmt: skip


def describe_kernel(fight) -> str:
    """Which kernel runs a compiled fight and, for the general kernel, why not the battle
    kernel."""
    if fight.kernel != "general":
        return f"runs on the {fight.kernel} kernel"
    why = "; ".join(dispatch.blocking_reasons(fight.arrays, "battle"))
    return f"runs on the general kernel ({why})"
