"""Turn a recorded event log (``kernel`` EV_* fields) into a readable play-by-play.

:func:`event_dicts` gives every event as a plain JSON-ready dict (names instead of indices,
action names from ``tactics.ACTION_NAMES``, metres instead of centimetres); :func:`narrate`
gives one line per event.
"""

from __future__ import annotations

import numpy as np

from . import codes as k
from .features.motion.narrate import MOTION_KINDS, motion_event, motion_line
from .features.scene.room import FALL_OVER_EDGE
from .tactics import ACTION_NAMES, ACTIONS

__all__ = ["KIND_NAMES", "event_dicts", "narrate"]

#: Event kind code -> name (the ``kind`` of :func:`event_dicts`).
KIND_NAMES = {
    k.EVENT_ATTACK: "attack",
    k.EVENT_LOST_ACTION: "lost_action",
    k.EVENT_SURPRISED: "surprised",
    k.EVENT_OUT_OF_REACH: "out_of_reach",
    k.EVENT_WAKE: "wake",
    k.EVENT_BLEED: "bleed",
    k.EVENT_END: "end",
    k.EVENT_MOVE: "move",
    k.EVENT_AIM: "aim",
    k.EVENT_DEFEND: "defend",
    k.EVENT_RECOVER: "recover",
    k.EVENT_ESCAPE: "escape",
    k.EVENT_RELOAD: "reload",
    k.EVENT_PRESENCE: "presence",
    k.EVENT_WAIT: "wait",
    k.EVENT_INTERRUPT: "interrupt",
    k.EVENT_IDLE: "idle",
    k.EVENT_HELD: "held",
    k.EVENT_CHOKE: "choke",
    k.EVENT_DISARM: "disarm",
    k.EVENT_DRAW: "draw",
    k.EVENT_PERCEPTION: "perception",
    k.EVENT_KNOCKBACK: "knockback",
    k.EVENT_FIRST_AID: "first_aid",
    k.EVENT_AREA: "area",
    k.EVENT_LAUNCH: "launch",
    k.EVENT_EVADE: "evade",
    k.EVENT_MISSILE_HITS: "missile_hits",
    k.EVENT_OUT_OF_ARC: "out_of_arc",
    k.EVENT_CRITICAL: "critical",
    k.EVENT_NO_WEAPON: "no_weapon",
    k.EVENT_FALL: "fall",
    k.EVENT_COLLISION: "collision",
    k.EVENT_BLOCKED: "blocked",  # M-10: a wall in the way of a move or a line of fire
    k.EVENT_HAZARD: "hazard",  # the environment (features/hazards/room.py)
    k.EVENT_BREATH: "out_of_breath",
    **MOTION_KINDS,  # vehicles in motion (features/motion/room.py)
    k.EVENT_DOGFIGHT: "dogfight",  # dogfights (features/dogfights/room.py)
    k.EVENT_BREAK_OFF: "break_off",
    k.EVENT_DOGFIGHT_BARRED: "dogfight_barred",
}
#: A dogfight event's position (``dogfights.room.POS_*``), roll (``DF_*``) and break-off (``BO_*``).
DOGFIGHT_POSITIONS = ("neutral", "advantage", "tailing")
DOGFIGHT_ROLLS = ("phase", "engage", "intercept")
BREAK_OFF_STEPS = ("announce", "lapse", "escape", "mutual", "no_advantage")
#: What did a hazard's damage (``hazards.room.HZ_*``): fire, electricity, smoke, poison, asphyxia.
HAZARD_SOURCES = ("fire", "electricity", "smoke", "poison", "asphyxiation", "pushing")
#: What a destroyed critical location does to its vehicle (``codes.EFF_*``, VA-10).
CRITICAL_EFFECTS = {k.EFF_NONE: "none", k.EFF_IMMOBILE: "immobile",
                    k.EFF_UNCONTROLLED: "uncontrolled", k.EFF_DOWN: "out of the fight",
                    k.EFF_WRECKED: "destroyed",
                    k.EFF_WEAPON: "its weapons are out of action"}  # fmt: skip
_KINDS = KIND_NAMES  # the old private name

#: Presence attack effect code (``kernel.PA_*``) -> name.
PRESENCE_EFFECTS = {
    k.PA_NONE: "none",
    k.PA_PENALTY: "penalty",
    k.PA_LOSE_ACTION: "lose_action",
    k.PA_SURRENDER: "surrender",
}

#: How an attack event reads for each attacking action ("X <verb> Y (...)").
_ATTACK_VERBS = {
    "attack": "attacks",
    "punch": "punches",
    "kick": "kicks",
    "haymaker": "throws a haymaker at",
    "draw_attack": "draws and attacks",
    "sweep": "sweeps at",
    "disarm": "grabs for the weapon of",
    "choke": "goes for a choke hold on",
    "entangle": "tries to entangle",
    "move_by": "strikes in passing (move by) at",
    "move_thru": "slams into (move thru)",
    "burst": "fires a burst at",
}

_EV_SHOTS = getattr(k, "EV_SHOTS", None)  # autofire: 1000 x hits + shots fired

_MOVE_VERBS = {
    "flee_hazard": "flees the hazard,",
    "run": "runs",
    "sprint": "sprints",
    "move": "moves",
    "move_by": "moves by",
    "move_thru": "charges",
}


#: The actions that move a combatant on foot (a ``blocked`` event's move, not its fire).
_MOVES = frozenset(("run", "sprint", "move", "move_by", "move_thru", "flee_hazard"))


def _action(code: int) -> str:
    return ACTION_NAMES[code] if 0 <= code < len(ACTION_NAMES) else f"action {code}"


def _metres(cm: int) -> float:
    return round(cm / 100.0, 2)


def _presence_penalty(margin: int) -> int:
    """The penalty a presence attack of ``margin`` over RES gives (data/presence.yaml)."""
    from .compile import _presence_table

    margins, effects = _presence_table()
    value = 0
    for i in range(len(margins)):
        if margin >= margins[i] and effects[i, 0] == k.PA_PENALTY:
            value = int(effects[i, 1])
    return value


#: The event log's location of a hit on a vehicle is this + its index in
#: ``tables.vehicle_location_names`` (``strike.strike``).
VEHICLE_LOCATION_BASE = 100


def _vehicle_location_names() -> tuple[str, ...]:
    from .tables import vehicle_location_names

    return vehicle_location_names()


def _location_names() -> tuple[str, ...]:
    from .tables import hit_locations

    return tuple(hit_locations().names)


def event_dicts(
    events: np.ndarray,
    names: list[str],
    positions: list[tuple[float, float]] | None = None,
    locations: bool = False,
    scene: dict | None = None,
) -> list[dict]:
    """The events as plain dicts (for JSON): kind, time, actor and target names, numbers.

    ``positions`` (optional): every combatant's starting ``(x, y)`` in metres, in plan order
    (``[c.xy for c in scenario.combatants]``); with it a ``move`` says whether it went
    ``toward`` or ``away`` from its goal. ``locations``: the fight rolls hit locations (then a
    hit attack has ``location``, a name of ``tables.hit_locations``; the standing-fight kernel
    leaves the field unset, so it is read only when asked). ``scene``: the scenario's obstacles,
    drops and hazard zones (``Scenario.scene``; a fall, a collision, a ``hazard`` or an
    ``out_of_breath`` event names its own).

    Every dict has ``time`` and ``kind`` (a name of :data:`KIND_NAMES`), ``actor`` (the
    winning side index as ``winner`` for ``end``) and, when there is one, ``target``. By kind:

    - ``attack``: ``action`` (attack, punch, kick, haymaker, draw_attack, sweep, disarm, choke,
      entangle, move_by, move_thru, burst), ``roll_difference``, ``av``, ``dv_base``, ``hit``,
      ``damage_rolled``, ``damage_through``, ``stunned``, ``out``, ``dead``, ``hits_after``,
      ``stun_after``, ``shots_fired`` and ``rounds_hit`` (autofire and bursts), ``location``
      (see ``locations``), ``held_choke`` (True for the 2D6 of a choke already held, which
      rolls no attack), ``at_a_point`` (an explosive thrown at a point) and ``unmanned`` (a
      vehicle nobody drives, VA-04: ``roll_difference`` is the plain die, ``dv_base`` the DV
      by range);
    - ``move``: ``action`` (run, sprint, move, move_by, move_thru), ``metres`` moved, the new
      position ``x``, ``y`` (metres); ``target`` is the combatant moved toward or away from
      (``direction``: ``toward`` or ``away`` when ``positions`` is given);
    - ``aim``: ``aim`` (the bonus now, at most 3); ``defend``: ``action`` (dodge, block, dive)
      and ``bonus``; ``recover``: ``stun_recovered`` and ``stun_after``;
    - ``escape``: ``roll_difference`` and ``freed`` (``target`` is the holder);
    - ``reload``: ``shots`` after, ``rounds_loaded`` (0 until its last action), ``action_of``
      (the reload's action k of n); ``presence``: ``total`` (the dice), ``res`` (the target's),
      ``margin``, ``effect`` (none, penalty, lose_action, surrender) and ``penalty``;
    - ``wait``, ``idle``, ``held``, ``interrupt`` (``target``: the combatant interrupted);
    - ``choke``: ``damage`` (2D6 killing, no armour); ``disarm``: ``roll_difference`` and
      ``disarmed``; ``out_of_reach``: ``action``; ``out_of_arc`` (a vehicle weapon that does
      not bear): ``turned`` (the vehicle turned to face the target, taking the action);
      ``critical``: a vehicle's critical ``location`` destroyed and its ``effect`` (VA-10);
    - ``wake``, ``bleed``: ``hits_after``, ``stun_after`` (``wake``: ``was_out``, False for
      the free Recovery after segment 12; ``bleed``: ``dead``);
    - ``draw`` (the weapon drawn, taking the action); ``perception`` (obscured):
      ``roll_difference`` and ``penalty`` this phase; ``knockback``: the ``actor`` is knocked
      back by ``target``, ``units``, new ``x``, ``y``; ``first_aid``: ``roll_difference``,
      ``skill`` (TECH + Physician), ``dv``, ``stabilised``;
    - ``launch`` (missiles, F18): ``missiles`` fired, ``engaged`` (False: the launch's attack
      roll missed under ``missile_launch: attack_roll``), ``attack_roll`` (whether one was
      made), ``roll_difference``, ``av``, ``dv_base``;
    - ``evade``: the ``actor`` rolls against the ``target``'s missiles: ``roll`` (its task
      roll), ``total``, ``dv`` (the missile's), ``round`` of ``rounds``, ``flying`` (missiles
      before the roll), ``missiles_hit``, ``evaded`` (the roll succeeded);
    - ``missile_hits``: the ``actor``'s missiles hit the ``target``: ``missiles_hit`` of
      ``missiles`` (the launch's), ``damage_rolled``, ``damage_through``, ``hits_after``,
      ``stun_after``, ``out``, ``dead``, ``location`` (a vehicle's row, or with ``locations``
      a person's: the last missile's);
    - ``fall`` (``scene``: the scenario's obstacles and drops, for their names):
      the ``actor`` falls ``metres`` (``jumped``: its own jump; ``drove``: a vehicle went over
      the edge in motion, its damage the ``crash`` into the ground that follows; ``drop``: the
      drop's name), ``dc``, ``damage_rolled``, ``damage_through``, where it lands ``x``,
      ``y``, and after a jump ``hits_after``, ``stun_after``, ``out``, ``dead``;
    - ``blocked`` (M-10): the ``actor``'s ``action`` toward the ``target`` meets the
      ``obstacle``: a move (``moving``) stops at its face, ``x``, ``y``; an attack is spent
      (no line of fire);
    - ``collision``: the ``actor`` is knocked into the ``obstacle`` (its name) over
      ``metres`` of knockback: ``dc``, ``damage_rolled``, ``damage_through``, ``broke`` (the
      obstacle broke and it went through), ``structure_left``, where it stopped ``x``, ``y``.
    """
    location_names = _location_names() if locations else ()
    down: set[int] = set()  # combatants known to be out (for the wake lines)
    out: list[dict] = []
    where = None if positions is None else [(float(x), float(y)) for x, y in positions]
    choke_pending: tuple | None = None  # (time, actor, target) of the last choke event
    for row in events.tolist():
        code = row[k.EV_KIND]
        kind = KIND_NAMES.get(code, f"kind {code}")
        ev: dict = {"time": row[k.EV_TIME], "kind": kind}
        if kind == "end":
            ev["winner"] = row[k.EV_ACTOR]
        else:
            ev["actor"] = names[row[k.EV_ACTOR]]
        flags = row[k.EV_FLAGS]
        if kind in ("fall", "collision"):  # the target is a drop or an obstacle
            _impact_event(ev, row, kind, flags, scene or {})
        if code in MOTION_KINDS:  # vehicles in motion: a crash's target may be the ground
            motion_event(ev, row, names, scene or {})
            out.append(ev)
            continue
        if kind in ("hazard", "out_of_breath"):  # the environment: the target is a zone
            zone = row[k.EV_TARGET]
            zones = [h.name for h in (scene or {}).get("hazards", ())]
            if zone >= 0:
                ev["hazard"] = zones[zone] if zone < len(zones) else f"#{zone}"
            if kind == "hazard":
                code = row[k.EV_ACTION]
                source = HAZARD_SOURCES[code] if 0 <= code < len(HAZARD_SOURCES) else str(code)
                ev.update(source=source,
                          damage_rolled=row[k.EV_RAW], damage_through=row[k.EV_THROUGH],
                          hits_after=row[k.EV_HITS], stun_after=row[k.EV_STUN],
                          out=bool(flags & k.FLAG_OUT), dead=bool(flags & k.FLAG_DEAD),
                          stunned=False)  # fmt: skip
            if kind == "hazard" and ev["out"]:
                down.add(row[k.EV_ACTOR])
            out.append(ev)
            continue
        if row[k.EV_TARGET] >= 0:
            ev["target"] = names[row[k.EV_TARGET]]
        if kind == "attack":
            _attack_event(ev, row, flags, choke_pending, location_names)
        elif kind == "move":
            _move_event(ev, row, where)
        elif kind == "aim":
            ev["aim"] = row[k.EV_RAW]
        elif kind == "defend":
            ev.update(action=_action(row[k.EV_ACTION]), bonus=row[k.EV_RAW])
        elif kind == "recover":
            ev.update(stun_recovered=row[k.EV_RAW], stun_after=row[k.EV_STUN])
        elif kind == "escape":
            ev.update(roll_difference=row[k.EV_ROLL], freed=bool(flags & k.FLAG_HIT))
        elif kind == "reload":
            ev.update(shots=row[k.EV_RAW], rounds_loaded=row[k.EV_THROUGH],
                      action_of=(row[k.EV_ROLL], row[k.EV_DV]))  # fmt: skip
        elif kind == "presence":
            total, res, effect = row[k.EV_RAW], row[k.EV_DV], row[k.EV_ROLL]
            ev.update(
                total=total,
                res=res,
                margin=total - res,
                effect=PRESENCE_EFFECTS.get(effect, f"effect {effect}"),
                penalty=_presence_penalty(total - res) if effect == k.PA_PENALTY else 0,
            )
        elif kind == "choke":
            ev["damage"] = row[k.EV_THROUGH]
        elif kind == "disarm":
            ev.update(roll_difference=row[k.EV_ROLL], disarmed=bool(flags & k.FLAG_HIT))
        elif kind == "perception":
            ev.update(roll_difference=row[k.EV_ROLL], penalty=row[k.EV_RAW])
        elif kind == "knockback":
            ev.update(units=row[k.EV_RAW], x=_metres(row[k.EV_X]), y=_metres(row[k.EV_Y]))
            if where is not None:
                where[row[k.EV_ACTOR]] = (row[k.EV_X] / 100.0, row[k.EV_Y] / 100.0)
        elif kind == "area":
            ev.update(
                damage_there=row[k.EV_RAW],
                damage_through=row[k.EV_THROUGH],
                centre=(row[k.EV_X] / 100.0, row[k.EV_Y] / 100.0),
            )
        elif kind == "first_aid":
            ev.update(
                roll_difference=row[k.EV_ROLL],
                skill=row[k.EV_AV],
                dv=row[k.EV_DV],
                stabilised=bool(flags & k.FLAG_HIT),
            )
        elif kind == "launch":
            ev.update(missiles=row[k.EV_RAW], engaged=bool(flags & k.FLAG_HIT),
                      attack_roll=not flags & k.FLAG_UNOPPOSED, roll_difference=row[k.EV_ROLL],
                      av=row[k.EV_AV], dv_base=row[k.EV_DV])  # fmt: skip
        elif kind in ("evade", "missile_hits"):
            _missile_event(ev, row, kind, flags, location_names)
        elif kind in ("out_of_reach", "wait", "idle"):
            ev["action"] = _action(row[k.EV_ACTION])
        elif kind in ("dogfight", "break_off", "dogfight_barred"):
            _dogfight_event(ev, row, kind, flags)
        elif kind == "out_of_arc":
            ev["turned"] = bool(flags & k.FLAG_HIT)
        elif kind == "blocked":
            walls = (scene or {}).get("obstacles", ())
            wall = row[k.EV_RAW]
            action = _action(row[k.EV_ACTION])
            ev.update(action=action, obstacle=walls[wall].name if 0 <= wall < len(walls)
                      else f"#{wall}", moving=action in _MOVES)  # fmt: skip
            if ev["moving"]:
                ev.update(x=_metres(row[k.EV_X]), y=_metres(row[k.EV_Y]))
        elif kind == "critical":
            ev.update(location=_vehicle_location_names()[row[k.EV_RAW]],
                      effect=CRITICAL_EFFECTS[row[k.EV_THROUGH]])  # fmt: skip
        if kind in ("attack", "missile_hits") and flags & k.FLAG_OUT:
            down.add(row[k.EV_TARGET])
        elif kind == "presence" and ev["effect"] == "surrender":
            down.add(row[k.EV_TARGET])
        elif kind == "wake":
            ev["was_out"] = row[k.EV_ACTOR] in down
            if row[k.EV_STUN] > 0:
                down.discard(row[k.EV_ACTOR])
        if kind in ("attack", "wake", "bleed", "missile_hits"):
            ev["hits_after"] = row[k.EV_HITS]
            ev["stun_after"] = row[k.EV_STUN]
        if kind == "bleed":
            ev["dead"] = bool(flags & k.FLAG_DEAD)
        choke_pending = (
            (row[k.EV_TIME], row[k.EV_ACTOR], row[k.EV_TARGET]) if kind == "choke" else None
        )
        out.append(ev)
    return out


def _attack_event(ev: dict, row: list, flags: int, choke_pending, location_names) -> None:
    """An ``attack`` event's fields (:func:`event_dicts`); ``location_names`` is empty unless
    the fight rolls hit locations."""
    action = _action(row[k.EV_ACTION])
    # a choke already held: announced by a choke event (older logs), or logged as a choke
    # "attack" with no roll against a defence base of 0 (the kernel's marker)
    held = choke_pending == (row[k.EV_TIME], row[k.EV_ACTOR], row[k.EV_TARGET]) or (
        row[k.EV_DV] == 0 and row[k.EV_ROLL] == 0 and bool(flags & k.FLAG_HIT)
    )
    ev.update(
        action=action,
        roll_difference=row[k.EV_ROLL], av=row[k.EV_AV], dv_base=row[k.EV_DV],
        hit=bool(flags & k.FLAG_HIT), damage_rolled=row[k.EV_RAW],
        damage_through=row[k.EV_THROUGH], stunned=bool(flags & k.FLAG_STUNNED),
        out=bool(flags & k.FLAG_OUT), dead=bool(flags & k.FLAG_DEAD),
        at_a_point=bool(flags & k.FLAG_UNOPPOSED) and not flags & k.FLAG_UNMANNED,
        unmanned=bool(flags & k.FLAG_UNMANNED),
        held_choke=bool(held and action == "choke"),
    )  # fmt: skip
    shots = row[_EV_SHOTS] if _EV_SHOTS is not None and _EV_SHOTS < len(row) else 0
    if shots > 0:  # autofire and bursts: 1000 x hits + shots fired
        ev.update(shots_fired=shots % 1000, rounds_hit=shots // 1000)
    loc = row[k.EV_LOCATION]
    if location_names and ev["hit"] and 0 <= loc < len(location_names):
        ev["location"] = location_names[loc]
    elif ev["hit"] and loc >= VEHICLE_LOCATION_BASE:  # a vehicle's table (F31)
        ev["location"] = _vehicle_location_names()[loc - VEHICLE_LOCATION_BASE]


def _move_event(ev: dict, row: list, where: list | None) -> None:
    """A ``move`` event's fields (:func:`event_dicts`); ``where`` (everyone's position, or
    None) is brought up to date and gives the move's ``direction``."""
    ev.update(
        action=_action(row[k.EV_ACTION]),
        metres=_metres(row[k.EV_RAW]),
        x=_metres(row[k.EV_X]),
        y=_metres(row[k.EV_Y]),
    )
    if where is None:
        return
    a, goal = row[k.EV_ACTOR], row[k.EV_TARGET]
    new = (row[k.EV_X] / 100.0, row[k.EV_Y] / 100.0)
    if goal >= 0 and ev["metres"] > 0:
        before = np.hypot(where[goal][0] - where[a][0], where[goal][1] - where[a][1])
        after = np.hypot(where[goal][0] - new[0], where[goal][1] - new[1])
        ev["direction"] = "toward" if after < before else "away"
    where[a] = new


def _missile_event(ev: dict, row: list, kind: str, flags: int, location_names) -> None:
    """An ``evade`` or ``missile_hits`` event's fields (:func:`event_dicts`)."""
    if kind == "evade":
        ev.update(roll=row[k.EV_ROLL], total=row[k.EV_AV], dv=row[k.EV_DV],
                  round=row[k.EV_RAW], rounds=row[k.EV_THROUGH],
                  flying=row[k.EV_SHOTS] % 1000, missiles_hit=row[k.EV_SHOTS] // 1000,
                  evaded=not flags & k.FLAG_HIT)  # fmt: skip
        return
    ev.update(missiles_hit=row[k.EV_SHOTS] // 1000, missiles=row[k.EV_SHOTS] % 1000,
              damage_rolled=row[k.EV_RAW], damage_through=row[k.EV_THROUGH],
              out=bool(flags & k.FLAG_OUT), dead=bool(flags & k.FLAG_DEAD),
              stunned=False)  # fmt: skip
    loc = row[k.EV_LOCATION]
    if loc >= VEHICLE_LOCATION_BASE:
        ev["location"] = _vehicle_location_names()[loc - VEHICLE_LOCATION_BASE]
    elif location_names and 0 <= loc < len(location_names):
        ev["location"] = location_names[loc]


def _attack_line(ev: dict, dice: str) -> str:
    if ev["held_choke"]:
        text = f"{ev['actor']}'s choke holds: {ev['target']} at {_pools(ev)}"
        return text + _consequences(ev)
    need = ev["dv_base"] - ev["av"]
    if ev.get("at_a_point"):  # an explosion thrown at a point: the plain die against its DV
        text = (
            f"{ev['actor']} throws at {ev['target']}'s position (AV {ev['av']}; roll "
            f"{ev['roll_difference']} -> AT {ev['av'] + ev['roll_difference']} vs DV "
            f"{ev['dv_base']}): "
        )
        if not ev["hit"]:
            return text + f"{ev['target']} is not caught" + _consequences(ev)
        return text + (
            f"{ev['damage_rolled']} damage at the centre, {ev['damage_through']} through; "
            f"{ev['target']} at {_pools(ev)}" + _consequences(ev)
        )
    if ev.get("unmanned"):  # a vehicle nobody drives: the plain die against the DV by range
        rolled = ev["roll_difference"]
        roll = f"nobody drives it: roll {rolled} -> AT {ev['av'] + rolled}"
        versus = f"DV {ev['dv_base']}"
    elif dice == "hero":
        rolled = ev["roll_difference"] + 10
        roll = f"3d6 roll {rolled} -> AT {ev['av'] + rolled}"
        versus = f"DV {ev['dv_base'] + 10}"
    else:
        roll = f"d10 against d10: difference {ev['roll_difference']:+d}"
        versus = f"needs {need:+d}"
    verb = _ATTACK_VERBS.get(ev["action"], f"attacks ({ev['action']})")
    text = f"{ev['actor']} {verb} {ev['target']} (AV {ev['av']}; {roll} vs {versus}): "
    if not ev["hit"]:
        return text + "miss"
    action = ev["action"]
    if action == "sweep":
        text += f"hit, {ev['target']} goes down (prone: -2 to its next attack, +2 to the next of "
        text += f"{ev['actor']})"
    elif action in ("choke", "entangle"):
        hold = "in a choke hold" if action == "choke" else "entangled"
        text += f"hit, {ev['target']} is held {hold}"
    elif action == "disarm":
        text += "hit (the contest for the weapon follows)"
    else:
        where = f" ({ev['location']})" if "location" in ev else ""
        if ev.get("shots_fired", 0) > 1:
            where += f" ({ev['rounds_hit']} of {ev['shots_fired']} rounds)"
        text += (
            f"hit{where}, {ev['damage_rolled']} damage rolled, {ev['damage_through']} through; "
            f"{ev['target']} at {_pools(ev)}"
        )
    return text + _consequences(ev)


#: Stun of an object or a Kill-rated structure (compile gives them a Stun no attack reaches).
_NO_STUN = 1 << 39


def _pools(ev: dict) -> str:
    """What is left of the target: Hits and Stun, or only the structure of an object."""
    if ev["stun_after"] >= _NO_STUN:
        return f"{ev['hits_after']} left (structure)"
    return f"{ev['hits_after']} Hits, {ev['stun_after']} Stun"


def _consequences(ev: dict) -> str:
    text = ""
    if ev["stunned"]:
        text += "; stunned"
    if ev["dead"]:
        text += "; DEAD"
    elif ev["out"]:
        text += "; out of the fight"
    return text


def _hazard_line(ev: dict) -> str:
    """The environment: "takes fire damage", "suffocates", "is out of breath"."""
    actor = ev["actor"]
    where = f" in {ev['hazard']}" if "hazard" in ev else ""
    if ev["kind"] == "out_of_breath":
        return f"{actor} is out of breath{where}"
    source = ev["source"]
    if source == "asphyxiation":
        text = f"{actor} suffocates{where}: 3d6 = {ev['damage_rolled']}"
    elif source == "pushing":  # M-75: its END is gone
        text = f"{actor} pushes on with no END left: burns {ev['damage_rolled']} Stun"
    elif source == "poison":
        whence = f" from {ev['hazard']}" if "hazard" in ev else ""
        text = f"{actor} takes poison damage{whence}: {ev['damage_rolled']}"
    else:
        text = (f"{actor} takes {source} damage from {ev.get('hazard', 'a hazard')}: "
                f"{ev['damage_rolled']} rolled, {ev['damage_through']} through")  # fmt: skip
    return text + f" ({_pools(ev)})" + _consequences(ev)


def _dogfight_event(ev: dict, row: list, kind: str, flags: int) -> None:
    """The fields of a dogfight event (features/dogfights/room.py): ``margin``, ``position``,
    ``roll``,
    ``totals`` and ``dice`` of a roll; ``step``, ``rounds`` and ``out`` of a break-off; the
    ``margin`` of a barred attack."""
    if kind == "dogfight":
        ev.update(margin=row[k.EV_RAW], position=DOGFIGHT_POSITIONS[row[k.EV_LOCATION]],
                  roll=DOGFIGHT_ROLLS[row[k.EV_ACTION]], totals=[row[k.EV_AV], row[k.EV_DV]],
                  dice=[row[k.EV_ROLL], row[k.EV_THROUGH]],
                  tailing=bool(flags & k.FLAG_HIT))  # fmt: skip
    elif kind == "break_off":
        step = BREAK_OFF_STEPS[row[k.EV_ROLL]]
        ev.update(step=step, out=bool(flags & k.FLAG_OUT))
        if step == "announce":
            ev["rounds"] = row[k.EV_RAW]
        elif step == "no_advantage":
            ev["margin"] = row[k.EV_RAW]
    else:
        ev["margin"] = row[k.EV_RAW]


def _dogfight_line(ev: dict) -> str:
    """"Viper wins the dogfight roll by 6 against Flanker (tailing)", "Flanker may not attack
    Viper: it lost the dogfight", "Viper breaks off"."""
    actor, target = ev["actor"], ev.get("target", "its partner")
    if ev["kind"] == "dogfight":
        head = {"phase": "", "engage": f"{actor} and {target} engage in a dogfight: ",
                "intercept": f"{actor} and {target} engage in a dogfight (Perception "
                             "intercept): "}[ev["roll"]]  # fmt: skip
        totals = f"{ev['totals'][0]} against {ev['totals'][1]}"
        if ev["position"] == "neutral":
            return head + (f"{actor} and {target} draw level in the dogfight roll ({totals}, "
                           f"margin {ev['margin']}): neutral")  # fmt: skip
        return head + (f"{actor} wins the dogfight roll by {ev['margin']} against {target} "
                       f"({totals}): {ev['position']}")  # fmt: skip
    if ev["kind"] == "dogfight_barred":
        why = "it lost the dogfight" if ev["margin"] < 0 else "the dogfight roll was level"
        return f"{actor} may not attack {target}: {why}"
    step = ev["step"]
    if step == "announce":
        return (f"{actor} announces a break-off from {target}: it must hold the Advantage for "
                f"{ev['rounds']} round{'s' if ev['rounds'] != 1 else ''}")  # fmt: skip
    if step == "lapse":
        return f"{actor} does not win the dogfight roll: its break-off from {target} fails"
    if step == "no_advantage":
        return f"{actor} cannot break off from {target}: it does not hold the Advantage"
    if step == "mutual":
        return f"{actor} breaks off by mutual agreement and leaves the fight"
    return f"{actor} breaks off from {target} and escapes: it leaves the fight"


def _launch_line(ev: dict, dice: str) -> str:
    n = ev["missiles"]
    what = "a missile" if n == 1 else f"a cluster of {n}"
    text = f"{ev['actor']} launches {what} at {ev['target']}"
    if not ev["attack_roll"]:
        return text
    if dice == "hero":
        rolled = ev["roll_difference"] + 10
        roll = f"3d6 roll {rolled} -> AT {ev['av'] + rolled} vs DV {ev['dv_base'] + 10}"
    else:
        roll = f"d10 against d10: difference {ev['roll_difference']:+d}"
    return text + f" (AV {ev['av']}; {roll}): " + ("locked on" if ev["engaged"] else "miss")


def _presence_line(ev: dict) -> str:
    text = (
        f"{ev['actor']}'s presence attack on {ev['target']}: {ev['total']} vs RES {ev['res']} "
        f"({ev['margin']:+d}): "
    )
    effect = ev["effect"]
    if effect == "penalty":
        return text + f"impressed, -{ev['penalty']} to its next action"
    if effect == "lose_action":
        return text + "awed, loses its next action"
    if effect == "surrender":
        return text + "cowed, gives up; out of the fight"
    return text + "unmoved"


def narrate(
    events: np.ndarray,
    names: list[str],
    sides: list[str],
    unit: str,
    dice: str,
    positions: list[tuple[float, float]] | None = None,
    locations: bool = False,
    scene: dict | None = None,
):
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
    positions : list of (x, y), optional
        Starting positions in metres (see :func:`event_dicts`): moves then read "toward" or
        "away from" their goal.
    locations : bool
        The fight rolls hit locations: a hit names where it landed.
    scene : dict, optional
        The scenario's obstacles, drops and hazard zones (``Scenario.scene``): falls,
        collisions and the environment's lines name them.
    """
    lines = []
    unit_name = unit.capitalize()
    for ev in event_dicts(events, names, positions, locations, scene):
        head = f"{unit_name} {ev['time']:>3}: "
        kind = ev["kind"]
        actor = ev.get("actor")
        if kind == "attack":
            text = _attack_line(ev, dice)
        elif kind in ("hazard", "out_of_breath"):
            text = _hazard_line(ev)
        elif kind in MOTION_KINDS.values():
            text = motion_line(ev, _pools)
        elif kind == "lost_action":
            text = f"{actor} is stunned and loses this action"
        elif kind == "surprised":
            text = f"{actor} is surprised and does not act"
        elif kind == "out_of_reach":
            text = f"{actor} cannot reach {ev['target']}"
            if ev["action"] != "attack":
                text += f" ({ev['action']})"
        elif kind == "blocked":
            if ev["moving"]:
                text = (f"{actor} is stopped by {ev['obstacle']} at ({ev['x']:.1f}, "
                        f"{ev['y']:.1f})")  # fmt: skip
            else:
                text = f"{actor} has no line of fire to {ev['target']}: {ev['obstacle']}"
                text += " is in the way"
        elif kind == "out_of_arc":
            text = (f"{actor} turns to bring its weapon to bear on {ev['target']}"
                    if ev["turned"] else f"{actor}'s weapon does not bear on {ev['target']}")
        elif kind == "no_weapon":
            text = f"{actor}'s vehicle weapon is out of action"
        elif kind == "critical":
            where = ev["location"].replace("_", " ")
            verb = "are" if where.endswith("s") else "is"  # flaps, front wheels, arms
            text = f"{actor}'s {where} {verb} destroyed" + (
                "" if ev["effect"] == "none" else f": {ev['effect']}")
        elif kind == "wake":
            text = f"{actor} recovers Stun: {ev['stun_after']} Stun"
            if ev["stun_after"] <= 0:
                text += " (still out)"
            elif ev["was_out"]:
                text += " and is back on their feet"
            else:
                text += " (the free Recovery after segment 12)"
        elif kind == "bleed":
            text = f"{actor} bleeds: {ev['hits_after']} Hits"
            if ev["dead"]:
                text += "; DEAD"
        elif kind == "move":
            verb = _MOVE_VERBS.get(ev["action"], ev["action"])
            where = f"({ev['x']:.1f}, {ev['y']:.1f})"
            goal = ""
            if "target" in ev:
                how = {"toward": "toward", "away": "away from"}.get(ev.get("direction"))
                goal = f" {how} {ev['target']}" if how else f" (goal: {ev['target']})"
            if ev["metres"] > 0:
                text = f"{actor} {verb} {ev['metres']:.1f} m{goal} to {where}"
            else:
                text = f"{actor} {verb} 0 m{goal}, staying at {where}"
        elif kind == "aim":
            text = f"{actor} aims at {ev['target']}: +{ev['aim']}"
        elif kind == "defend":
            if ev["action"] == "dodge":
                text = f"{actor} dodges: +{ev['bonus']} DV until its next action"
            elif ev["action"] == "block":
                text = f"{actor} blocks: +{ev['bonus']} DV against melee until its next action"
            else:
                text = f"{actor} dives for cover"
        elif kind == "recover":
            text = f"{actor} recovers {ev['stun_recovered']} Stun: {ev['stun_after']} Stun"
            if ev["stun_recovered"] == 0:
                text += " (damaged this phase, or already at full Stun)"
        elif kind == "escape":
            text = f"{actor} struggles against {ev['target']} (contest difference "
            text += f"{ev['roll_difference']:+d}): "
            text += "breaks free" if ev["freed"] else "still held"
        elif kind == "reload":
            done, of = ev["action_of"]
            if ev["rounds_loaded"] > 0:
                text = f"{actor} reloads {ev['rounds_loaded']} rounds: {ev['shots']} shots"
            elif done < of:
                text = f"{actor} reloads ({done} of {of} actions): {ev['shots']} shots"
            else:
                text = f"{actor} reloads: the magazine was full ({ev['shots']} shots)"
        elif kind == "presence":
            text = _presence_line(ev)
        elif kind == "wait":
            text = f"{actor} waits, holding the action"
        elif kind == "interrupt":
            text = f"{actor} interrupts {ev['target']} with the held action"
        elif kind == "idle" and ev["action"] in ("dogfight", "break_off"):
            text = (f"{actor} cannot dogfight {ev.get('target', 'its target')}: not a flying "
                    "vehicle with a pilot" if ev["action"] == "dogfight"
                    else f"{actor} is in no dogfight to break off")  # fmt: skip
        elif kind in ("dogfight", "break_off", "dogfight_barred"):
            text = _dogfight_line(ev)
        elif kind == "idle":
            text = f"{actor} does nothing this action"
        elif kind == "held":
            text = f"{actor} is held and cannot act"
        elif kind == "choke":
            text = f"{actor} keeps the choke on {ev['target']}: {ev['damage']} killing damage"
        elif kind == "disarm":
            text = f"{actor} wrestles {ev['target']} for the weapon (STR + Hand to Hand, "
            text += f"difference {ev['roll_difference']:+d}): "
            text += "the weapon is knocked away" if ev["disarmed"] else f"{ev['target']} keeps it"
        elif kind == "draw":
            text = f"{actor} draws a weapon"
        elif kind == "perception":
            text = f"{actor} is obscured: Perception roll {ev['roll_difference']:+d}, "
            text += f"-{ev['penalty']} to attack and defence this phase"
        elif kind == "knockback":
            text = f"{actor} is knocked back {ev['units']} by {ev['target']}, "
            text += f"to ({ev['x']:.1f}, {ev['y']:.1f})"
        elif kind in ("fall", "collision"):
            text = _impact_line(actor, ev)
        elif kind == "area":
            cx, cy = ev["centre"]
            text = (
                f"{actor} is caught in {ev['target']}'s blast or spread centred at "
                f"({cx:.1f}, {cy:.1f}): {ev['damage_there']} damage there, "
                f"{ev['damage_through']} through"
            )
        elif kind == "first_aid":
            text = f"{actor} gives first aid to {ev['target']} (TECH + Physician {ev['skill']}, "
            text += f"roll {ev['roll_difference']:+d} vs {ev['dv']}): "
            text += "stabilised" if ev["stabilised"] else "fails"
        elif kind == "launch":
            text = _launch_line(ev, dice)
        elif kind == "evade":
            rounds = f"round {ev['round']} of {ev['rounds']}"
            roll = f"roll {ev['roll']}, total {ev['total']} vs DV {ev['dv']}"
            if ev["evaded"]:
                text = f"{actor} evades {ev['target']}'s missiles ({rounds}; {roll})"
            else:
                text = (f"{actor} fails to evade {ev['target']}'s missiles by "
                        f"{ev['dv'] - ev['total']} ({rounds}; {roll})")  # fmt: skip
        elif kind == "missile_hits":
            n, of = ev["missiles_hit"], ev["missiles"]
            what = "missile hits" if of == 1 else f"{n} of {of} missiles hit"
            if of == 1:
                text = f"{actor}'s {what} {ev['target']}"
            else:
                text = f"{what} {ev['target']} ({actor}'s)"
            where = f" (last at the {ev['location']})" if "location" in ev else ""
            text += (f"{where}: {ev['damage_rolled']} damage rolled, {ev['damage_through']} "
                     f"through; {ev['target']} at {_pools(ev)}" + _consequences(ev))  # fmt: skip
        elif kind == "end":
            w = ev["winner"]
            if w >= 0:
                text = f"the fight ends: {sides[w]} wins"
            elif w == k.DRAW:
                text = "the fight ends: a draw (every side down at once)"
            else:
                text = "no decision within max_rounds"
        else:
            text = f"{actor}: {kind}"
        lines.append(head + text)
    return lines


# --- falls and knockback into obstacles ---------------------------------------------


def _impact_event(ev: dict, row: list, kind: str, flags: int, scene: dict) -> None:
    """The fields of a ``fall`` or ``collision`` event (see :func:`event_dicts`)."""
    things = scene.get("drops" if kind == "fall" else "obstacles", ())
    index = row[k.EV_TARGET]
    name = things[index].name if 0 <= index < len(things) else f"#{index}"
    ev.update(dc=row[k.EV_DV], damage_rolled=row[k.EV_ROLL], damage_through=row[k.EV_THROUGH],
              x=_metres(row[k.EV_X]), y=_metres(row[k.EV_Y]))  # fmt: skip
    if kind == "fall":
        ev.update(drop=name, metres=_metres(row[k.EV_RAW]),
                  jumped=row[k.EV_ACTION] == ACTIONS["jump"],
                  drove=row[k.EV_ACTION] == FALL_OVER_EDGE)  # fmt: skip
        if ev["jumped"]:
            ev.update(hits_after=row[k.EV_HITS], stun_after=row[k.EV_STUN],
                      out=bool(flags & k.FLAG_OUT), dead=bool(flags & k.FLAG_DEAD))  # fmt: skip
    else:
        ev.update(obstacle=name, metres=_metres(row[k.EV_SHOTS]), broke=bool(flags & k.FLAG_HIT),
                  structure_left=row[k.EV_RAW])  # fmt: skip


def _impact_line(actor: str, ev: dict) -> str:
    """A fall ("falls 8 m") or a collision ("is knocked into the East wall") in words."""
    if ev["kind"] == "fall":
        if ev["drove"]:  # a vehicle in motion: the crash into the ground is the next line
            return (f"{actor} goes over {ev['drop']} and falls {ev['metres']:g} m ({ev['dc']} "
                    f"DC); lands at ({ev['x']:.1f}, {ev['y']:.1f})")  # fmt: skip
        how = "jumps down" if ev["jumped"] else "is knocked over"
        text = f"{actor} {how} {ev['drop']} and falls {ev['metres']:g} m: {ev['dc']} DC, "
        text += f"{ev['damage_rolled']} rolled, {ev['damage_through']} through"
        if ev.get("out"):
            text += ", out of the fight" if not ev.get("dead") else ", dead"
        return text + f"; lands at ({ev['x']:.1f}, {ev['y']:.1f}), prone"
    text = f"{actor} is knocked into the {ev['obstacle']} ({ev['metres']:g} m of knockback): "
    text += f"{ev['dc']} DC, {ev['damage_rolled']} rolled, {ev['damage_through']} through"
    if ev["broke"]:
        return text + f"; the {ev['obstacle']} breaks and {actor} goes through"
    return text + f" ({ev['structure_left']} left); stops at ({ev['x']:.1f}, {ev['y']:.1f})"
