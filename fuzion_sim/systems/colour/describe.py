"""What ``fuzion-sim validate`` says of a colour fight: each member in a line, and its kernel."""

from __future__ import annotations

from .ladder import ABILITIES

__all__ = ["describe_kernel", "describe_member"]


def _weapon(m) -> str:
    w = m.weapon
    if w.damage is not None and not w.thrown:
        dmg = f"damage {w.damage}"
    elif w.thrown:
        figure = w.damage if w.damage is not None else w.str_plus
        dmg = f"Strength + {figure} thrown"
    else:
        dmg = "Strength" + (f" + {w.str_plus}" if w.str_plus else "")
    extras = [w.type]
    if w.rapid_fire != "single":
        extras.append(f"{w.rapid_fire.replace('_', '-')} {w.rounds}")
    if str(w.ap.given) != "0":
        extras.append(f"AP {w.ap}")
    if w.ap_percent:
        extras.append(f"AP {w.ap_percent}%")
    if w.area:
        extras.append("area")
    return f"{w.name} ({w.kind}, {dmg}, {', '.join(extras)})"


def describe_member(m) -> str:
    """One line: abilities, Health, weapon and actions, armour, defence."""
    abilities = ", ".join(f"{a[0]} {m.abilities[a]}" for a in ABILITIES)
    health = f"Health {m.health}" if m.health is not None else "Health F+A+S+E"
    layers = [f"{name} {layer.value}" for name, layer in (("armour", m.armour),
              ("natural armour", m.natural_armour), ("force field", m.force_field))
              if layer is not None]  # fmt: skip
    if m.shield is not None:
        layers.append(f"{m.shield.name} ({m.shield_mode})")
    actions = " + ".join(a.do + (f" {a.rounds}" if a.rounds else "")
                         + (" (power)" if a.power else "")
                         + (f" at the {a.called.replace('_', ' ')}" if a.called else "")
                         for a in m.actions)  # fmt: skip
    armour = f"; {', '.join(layers)}" if layers else ""
    return (f"{m.name}: {abilities}; {health}; {_weapon(m)}: {actions}{armour}; "
            f"{'/'.join(m.defences)}")


def describe_kernel(fight) -> str:
    """Which kernel runs a compiled fight (``run.FightPlan``) and, for the general kernel,
    what keeps it from the squad kernel (``dispatch.blocking_reasons``)."""
    from . import dispatch

    if fight.kernel != "general":
        return f"runs on the {fight.kernel} kernel"
    why = "; ".join(dispatch.blocking_reasons(fight.arrays, "squad"))
    return f"runs on the general kernel ({why})"
