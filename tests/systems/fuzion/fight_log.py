"""Helpers for tests that read one simulated fight event by event.

Scenarios are built from dicts; a trial's events come from the raw arrays of
``fuzion.run_logged`` (columns ``kernel.EV_*``), turned into plain dicts here so the tests do
not depend on which kinds ``narrate.event_dicts`` already knows.
"""

from __future__ import annotations

from functools import partial

import builders

from fuzion_sim import simulate
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes as k
from fuzion_sim.systems.fuzion.tactics import ACTION_NAMES

#: event kind code -> name ("attack", "move", "aim", ...), from the kernel's EVENT_* constants
KINDS = {v: n[len("EVENT_") :].lower() for n, v in vars(k).items() if n.startswith("EVENT_")}

#: a weapon that never hurts (DC 0), for targets that must stay on their feet
HARMLESS = {"name": "Feather", "dc": 0, "kind": "melee", "skill": "Melee"}
STUN_GUN = {"name": "Stunner", "dc": 4, "damage": "stun", "skill": "Handgun", "range": 50}

#: the tactic that does nothing at all (every action an ``idle`` event)
IDLE = [{"do": "none"}]


def fighter(name, position=0, **extra):
    """REF 6, DEX 5, Handgun 4, a Colt Revolver (DC 4, range 50); every other stat 5."""
    base = {"name": name, "stats": {"REF": 6, "DEX": 5}, "skills": {"Handgun": 4},
            "weapon": "Colt Revolver", "position": position}  # fmt: skip
    base.update(extra)
    return base


def dummy(name="Dummy", position=20, **extra):
    """A target that never falls (10,000 Hits and Stun) and does nothing unless told."""
    base = {"weapon": HARMLESS, "hits": 10_000, "stun": 10_000, "tactics": IDLE}
    base.update(extra)
    return fighter(name, position, **base)


#: A scenario of ``sides`` (``builders.scenario``), three rounds long unless told.
scenario = partial(builders.scenario, max_rounds=3)


def run(sides, trials=20_000, seed=5, max_rounds=3, **rules):
    """A run of :func:`scenario` on two threads."""
    sc = scenario(sides, max_rounds=max_rounds, **rules)
    return simulate(sc, trials=trials, seed=seed, threads=2)


def logged(sc, trial=0, seed=1):
    """(outcome row, events as dicts) of trial ``trial`` of a run of ``sc`` seeded ``seed``."""
    names = [c.name for c in sc.combatants]
    out, raw = fuzion.run_logged(fuzion.compile_scenario(sc), seed, trial)
    events = []
    for row in raw.tolist():
        kind = KINDS[row[k.EV_KIND]]
        ev = {
            "time": row[k.EV_TIME], "kind": kind, "roll": row[k.EV_ROLL], "av": row[k.EV_AV],
            "dv": row[k.EV_DV], "raw": row[k.EV_RAW], "through": row[k.EV_THROUGH],
            "hits": row[k.EV_HITS], "stun": row[k.EV_STUN], "flags": row[k.EV_FLAGS],
            "hit": bool(row[k.EV_FLAGS] & k.FLAG_HIT), "action": ACTION_NAMES[row[k.EV_ACTION]],
            "x": row[k.EV_X] / 100.0, "y": row[k.EV_Y] / 100.0,
        }  # fmt: skip
        if kind == "end":
            ev["winner"] = row[k.EV_ACTOR]
        else:
            ev["actor"] = names[row[k.EV_ACTOR]]
            ev["target"] = names[row[k.EV_TARGET]] if row[k.EV_TARGET] >= 0 else None
        events.append(ev)
    return out, events


def events_of(sc, trial=0, seed=1, kind=None, actor=None):
    """The events of one trial, optionally only those of ``kind`` and/or ``actor``."""
    _, events = logged(sc, trial, seed)
    return [
        e for e in events
        if (kind is None or e["kind"] == kind) and (actor is None or e.get("actor") == actor)
    ]  # fmt: skip


def segment_of(time):
    """Speed chart: the segment (1-12) of reported time ``time`` (1 = the opening segment 12)."""
    return (time + 10) % 12 + 1
