"""The replay's lines of the vehicles in motion (features/motion/room.py): manoeuvres and loss of
control, regaining it, drives, rams and crashes. :func:`motion_event` reads a logged row into
the event's fields (``narrate.event_dicts``), :func:`motion_line` puts it in words."""

from __future__ import annotations

from ... import codes as k
from ...tables import manoeuvres
from ...tactics import ACTION_NAMES, RAM_KINDS
from .room import CTL_AIR_SPIN, CTL_DOWN, CTL_SKID, CTL_SPIN, CTL_STALL

__all__ = ["MOTION_KINDS", "motion_event", "motion_line"]

#: Event code -> kind name.
MOTION_KINDS = {k.EVENT_CONTROL: "manoeuvre", k.EVENT_REGAIN: "regain", k.EVENT_RAM: "ram",
                k.EVENT_DRIVE: "drive", k.EVENT_CRASH: "crash"}  # fmt: skip
#: The control states (``motion.room.CTL_*``) in words.
CONTROL_STATES = {CTL_SKID: "skid", CTL_SPIN: "spin", CTL_DOWN: "fallen over",
                  CTL_STALL: "stall", CTL_AIR_SPIN: "spin"}  # fmt: skip
_FACINGS = {1: "backwards", 2: "forwards", 3: "facing right", 4: "facing right",
            5: "facing left", 6: "facing left"}  # fmt: skip
_RAMS = {v: name.replace("_", "-") for name, v in RAM_KINDS.items()}


def _cm(value: int) -> float:
    return round(value / 100.0, 2)


def motion_event(ev: dict, row: list, names: list[str], scene: dict) -> None:
    """The fields of a motion event (``narrate.event_dicts``): ``manoeuvre`` (a roll:
    ``action``, ``manoeuvre`` (its name, or "hard turn"), ``total``, ``dv``, ``made``; a loss
    of control: ``lost`` (skid, spin, stall, fallen over), ``miss``, ``metres`` skidded,
    ``facing`` after a spin, ``x``, ``y``), ``regain`` (``state``, ``regained``, and for an
    aircraft ``total``, ``dv``, ``altitude``), ``ram`` (``ram`` kind, ``total``, ``dv``,
    ``closing`` m/s, ``hit``), ``drive`` (``action``, ``metres``, ``speed``, ``x``, ``y``) and
    ``crash`` (``with``: a combatant, the ground or an obstacle; ``dc``, ``damage_rolled``,
    ``damage_through``, ``hits_after``, ``stun_after``, ``out``, ``dead``, ``inside``: a crew
    member hurt in its vehicle's collision)."""
    kind, flags, target = ev["kind"], row[k.EV_FLAGS], row[k.EV_TARGET]
    if target >= 0:
        ev["target"] = names[target]
    if kind == "manoeuvre" and row[k.EV_ACTION] == 0:  # the loss of control itself
        ev.update(lost=CONTROL_STATES.get(row[k.EV_RAW], str(row[k.EV_RAW])),
                  miss=row[k.EV_DV], metres=_cm(row[k.EV_SHOTS]), x=_cm(row[k.EV_X]),
                  y=_cm(row[k.EV_Y]))  # fmt: skip
        if row[k.EV_RAW] == CTL_SPIN:
            ev["facing"] = _FACINGS.get(row[k.EV_ROLL], "?")
    elif kind == "manoeuvre":
        index = row[k.EV_SHOTS]
        named = list(manoeuvres())
        ev.update(action=ACTION_NAMES[row[k.EV_ACTION]],
                  manoeuvre=named[index] if 0 <= index < len(named) else "hard turn",
                  total=row[k.EV_ROLL], dv=row[k.EV_DV], made=bool(flags & k.FLAG_HIT))
    elif kind == "regain":
        ev.update(state=CONTROL_STATES.get(row[k.EV_RAW], str(row[k.EV_RAW])),
                  regained=bool(flags & k.FLAG_HIT))  # fmt: skip
        if row[k.EV_RAW] in (CTL_STALL, CTL_AIR_SPIN):
            ev.update(total=row[k.EV_ROLL], dv=row[k.EV_DV], altitude=_cm(row[k.EV_SHOTS]))
    elif kind == "ram":
        ev.update(ram=_RAMS.get(row[k.EV_ACTION], "?"), total=row[k.EV_ROLL], dv=row[k.EV_DV],
                  closing=_cm(row[k.EV_RAW]), hit=bool(flags & k.FLAG_HIT))  # fmt: skip
    elif kind == "drive":
        ev.update(action=ACTION_NAMES[row[k.EV_ACTION]], metres=_cm(row[k.EV_RAW]),
                  speed=row[k.EV_SHOTS], x=_cm(row[k.EV_X]), y=_cm(row[k.EV_Y]))
    elif kind == "crash":
        obstacles = [o.name for o in (scene or {}).get("obstacles", ())]
        other = ("the ground" if target == -1 else names[target] if target >= 0
                 else obstacles[-2 - target] if -2 - target < len(obstacles)
                 else f"obstacle #{-2 - target}")  # fmt: skip
        ev.update({"with": other, "dc": row[k.EV_DV], "damage_rolled": row[k.EV_ROLL],
                   "damage_through": row[k.EV_THROUGH], "hits_after": row[k.EV_HITS],
                   "stun_after": row[k.EV_STUN], "out": bool(flags & k.FLAG_OUT),
                   "dead": bool(flags & k.FLAG_DEAD),
                   "inside": bool(flags & k.FLAG_HIT)})  # fmt: skip


def motion_line(ev: dict, pools) -> str:
    """A motion event in words (``pools(ev)``: what is left of the one it hit)."""
    actor, kind = ev["actor"], ev["kind"]
    if kind == "manoeuvre" and "lost" in ev:
        text = f"{actor} loses control by {ev['miss']}: "
        if ev["lost"] in ("skid", "spin") and "x" in ev and ev["metres"] >= 0:
            text += f"{ev['lost']}s {ev['metres']:g} m straight on"
            if "facing" in ev:
                text += f" (now {ev['facing']})"
            return text + f", to ({ev['x']:.1f}, {ev['y']:.1f})"
        return text + {"stall": "stalls", "fallen over": "falls over"}.get(ev["lost"],
                                                                          ev["lost"] + "s")
    if kind == "manoeuvre":
        verb = "makes" if ev["made"] else "misses"
        return f"{actor} {verb} a {ev['manoeuvre']} ({ev['total']} vs DV {ev['dv']})"
    if kind == "regain":
        if "total" not in ev:
            return f"{actor} comes out of its {ev['state']}" if ev["state"] != "fallen over" \
                else f"{actor} gets back up"
        verb = "regains control" if ev["regained"] else "fails to regain control"
        return (f"{actor} {verb} from its {ev['state']} ({ev['total']} vs DV {ev['dv']}); "
                f"altitude {ev['altitude']:g} m")  # fmt: skip
    if kind == "ram":
        margin = ev["total"] - ev["dv"]
        return (f"{actor} rams {ev['target']} {ev['ram']} (closing {ev['closing']:g} m/s): "
                + (f"hit by {margin}" if ev["hit"] else f"miss by {-margin}"))
    if kind == "drive":
        what = {"accelerate": "speeds up, ", "brake": "slows down, "}.get(ev["action"], "")
        return (f"{actor} {what}drives {ev['metres']:g} m at MOVE {ev['speed']} to "
                f"({ev['x']:.1f}, {ev['y']:.1f})")  # fmt: skip
    if ev["inside"] and ev["dc"] == 0:  # a crew member: what passed the armour
        text = f"{actor} is hurt in {ev['with']}'s crash: {ev['damage_through']} through"
    elif ev["inside"]:
        text = (f"{actor} is thrown about inside {ev['with']}: {ev['dc']} DC, "
                f"{ev['damage_rolled']} rolled, {ev['damage_through']} through")  # fmt: skip
    else:
        text = (f"{actor} crashes into {ev['with']}: {ev['dc']} DC, {ev['damage_rolled']} "
                f"rolled, {ev['damage_through']} through")  # fmt: skip
    text += f" ({pools(ev)})"
    if ev["dead"]:
        return text + "; DEAD"
    return text + ("; out of the fight" if ev["out"] else "")
