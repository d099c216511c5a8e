"""Turn a recorded event log (``kernel`` EV_* fields) into a readable play-by-play."""

from __future__ import annotations

import numpy as np

from . import kernel as k

__all__ = ["event_dicts", "narrate"]

_KINDS = {
    k.EVENT_ATTACK: "attack",
    k.EVENT_LOST_ACTION: "lost_action",
    k.EVENT_SURPRISED: "surprised",
    k.EVENT_OUT_OF_REACH: "out_of_reach",
    k.EVENT_WAKE: "wake",
    k.EVENT_BLEED: "bleed",
    k.EVENT_END: "end",
}


def event_dicts(events: np.ndarray, names: list[str]) -> list[dict]:
    """The events as plain dicts (for JSON): kind, time, actor and target names, numbers."""
    out = []
    for row in events.tolist():
        kind = _KINDS[row[k.EV_KIND]]
        ev = {"time": row[k.EV_TIME], "kind": kind}
        if kind == "end":
            ev["winner"] = row[k.EV_ACTOR]
        else:
            ev["actor"] = names[row[k.EV_ACTOR]]
        if row[k.EV_TARGET] >= 0:
            ev["target"] = names[row[k.EV_TARGET]]
        if kind == "attack":
            flags = row[k.EV_FLAGS]
            ev.update(
                roll_difference=row[k.EV_ROLL], av=row[k.EV_AV], dv_base=row[k.EV_DV],
                hit=bool(flags & k.FLAG_HIT), damage_rolled=row[k.EV_RAW],
                damage_through=row[k.EV_THROUGH], stunned=bool(flags & k.FLAG_STUNNED),
                out=bool(flags & k.FLAG_OUT), dead=bool(flags & k.FLAG_DEAD),
            )  # fmt: skip
        if kind in ("attack", "wake", "bleed"):
            ev["hits_after"] = row[k.EV_HITS]
            ev["stun_after"] = row[k.EV_STUN]
        out.append(ev)
    return out


def narrate(events: np.ndarray, names: list[str], sides: list[str], unit: str, dice: str):
    """Play-by-play lines, one per event.

    Parameters
    ----------
    events : int64[n, N_EV_FIELDS]
        The log of one trial (``fuzion.run_logged``).
    names : list of str
        Combatant names in plan order; ``sides`` the side names.
    unit : {"phase", "segment"}
    dice : {"hero", "interlock"}
        How the defence value was made (a flat 10, or the defender's d10 inside the roll).
    """
    lines = []
    unit_name = unit.capitalize()
    for ev in event_dicts(events, names):
        head = f"{unit_name} {ev['time']:>3}: "
        kind = ev["kind"]
        if kind == "attack":
            need = ev["dv_base"] - ev["av"]
            if dice == "hero":
                rolled = ev["roll_difference"] + 10
                roll = f"3d6 roll {rolled} -> AT {ev['av'] + rolled}"
                versus = f"DV {ev['dv_base'] + 10}"
            else:
                roll = f"d10 against d10: difference {ev['roll_difference']:+d}"
                versus = f"needs {need:+d}"
            text = f"{ev['actor']} attacks {ev['target']} (AV {ev['av']}; {roll} vs {versus}): "
            if ev["hit"]:
                text += (
                    f"hit, {ev['damage_rolled']} damage rolled, {ev['damage_through']} through; "
                    f"{ev['target']} at {ev['hits_after']} Hits, {ev['stun_after']} Stun"
                )
                if ev["stunned"]:
                    text += "; stunned"
                if ev["dead"]:
                    text += "; DEAD"
                elif ev["out"]:
                    text += "; out of the fight"
            else:
                text += "miss"
        elif kind == "lost_action":
            text = f"{ev['actor']} is stunned and loses this action"
        elif kind == "surprised":
            text = f"{ev['actor']} is surprised and does not act"
        elif kind == "out_of_reach":
            text = f"{ev['actor']} cannot reach {ev['target']}"
        elif kind == "wake":
            text = f"{ev['actor']} recovers Stun: {ev['stun_after']} Stun"
            text += " (still out)" if ev["stun_after"] <= 0 else " and is back on their feet"
        elif kind == "bleed":
            text = f"{ev['actor']} bleeds: {ev['hits_after']} Hits"
        else:  # end
            w = ev["winner"]
            if w >= 0:
                text = f"the fight ends: {sides[w]} wins"
            elif w == k.DRAW:
                text = "the fight ends: a draw (every side down at once)"
            else:
                text = "no decision within max_rounds"
        lines.append(head + text)
    return lines
