"""Turn a recorded FUDGE event log (``codes.EV_*`` columns) into JSON-ready dicts and a
readable play-by-play."""

from __future__ import annotations

import numpy as np

from . import codes as k
from .dice import ladder_name
from .tables import LEVELS, locations

__all__ = ["KIND_NAMES", "event_dicts", "narrate"]

#: Event kind code -> name (the ``kind`` of :func:`event_dicts`).
KIND_NAMES = {
    k.EVENT_SHOT: "shot",
    k.EVENT_DETONATE: "detonate",
    k.EVENT_TAMP: "tamp",
    k.EVENT_BLAST: "blast",
    k.EVENT_BREACH: "breach",
    k.EVENT_CRIPPLE: "cripple",
    k.EVENT_END: "end",
    k.EVENT_WOUND: "wound",
    k.EVENT_CONTACT: "contact",
}
_LEVEL_WORDS = ("unhurt", "Scratched", "Hurt", "Very Hurt", "Incapacitated", "Near Death",
                "Dead")  # fmt: skip
_BREACH_WORDS = ("holds", "is about to breach", "is breached")
#: What the shot modifier's row is called under each ``shot_roll`` (UA5).
_ROW_WORDS = {"separate": "Damage Roll", "margin": "margin", "attack_dice": "its dice"}


def _part(i: int) -> str | None:
    return None if i < 0 else locations()[int(i)].part


def _winner(code: int, sides) -> str:
    return sides[code] if code >= 0 else ("draw" if code == k.DRAW else "unresolved")


def event_dicts(events: np.ndarray, scenario) -> list[dict]:
    """Every event as a plain dict: ``kind``, ``round``, ``actor``, ``target`` (names), and
    per kind its numbers (a shot: ``roll``, ``needs``, ``result``, ``hit``, ``row`` (the shot
    modifier's), ``damage``, ``location``, ``level``, ``track``)."""
    names = [m.name for m in scenario.combatants]
    out = []
    for row in events:
        kind = KIND_NAMES[int(row[k.EV_KIND])]
        e = {"kind": kind, "round": int(row[k.EV_ROUND])}
        if kind == "end":
            e["winner"] = _winner(int(row[k.EV_HIT]), scenario.side_names)
            out.append(e)
            continue
        e["actor"] = names[int(row[k.EV_ACTOR])]
        target = int(row[k.EV_TARGET])
        e["target"] = names[target] if target >= 0 else None
        if kind == "shot":
            e.update(roll=int(row[k.EV_ROLL]), needs=int(row[k.EV_NEED]),
                     result=int(row[k.EV_RESULT]), hit=bool(row[k.EV_HIT]),
                     row=int(row[k.EV_ROW]), dodge=(None if row[k.EV_EXTRA] == k.NO_DODGE
                                                    else int(row[k.EV_EXTRA])))  # fmt: skip
        if kind in ("tamp", "detonate"):
            e["tamped"] = bool(row[k.EV_HIT])
            if kind == "tamp":
                e.update(roll=int(row[k.EV_ROLL]), result=int(row[k.EV_RESULT]))
        if kind == "breach":
            e.update(roll=int(row[k.EV_ROLL]), result=int(row[k.EV_EXTRA]),
                     state=("intact", "about_to_breach", "breached")[int(row[k.EV_LEVEL])])
        if kind == "blast":
            e.update(concussion=int(row[k.EV_ROW]), fragments=int(row[k.EV_EXTRA]))
        if kind == "contact":
            e["row"] = int(row[k.EV_ROW])
        if kind in ("shot", "blast", "contact", "wound", "cripple"):
            e.update(damage=int(row[k.EV_DAMAGE]), location=_part(int(row[k.EV_PART])),
                     level=LEVELS[int(row[k.EV_LEVEL])], track=int(row[k.EV_POINTS]))
        out.append(e)
    return out


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _after(e: dict, scenario) -> str:
    """``Alien is Hurt (3 points)``."""
    words = _LEVEL_WORDS[LEVELS.index(e["level"])]
    pts = "" if scenario.rules.wounds == "core" else f" ({_points(e['track'])})"
    return f"{e['target']} is {words}{pts}"


def _signed(x: int) -> str:
    return f"{x:+d}"


def narrate(events: np.ndarray, scenario) -> list[str]:
    """One line per event."""
    lines = []
    simultaneous = scenario.rules.order == "simultaneous"
    for e in event_dicts(events, scenario):
        head = f"Round {e['round']:3d}:"
        kind = e["kind"]
        if kind == "end":
            w = e["winner"]
            what = ("nobody is left standing" if w == "draw" else
                    "undecided" if w == "unresolved" else f"{w} wins")  # fmt: skip
            lines.append(f"{head} the fight ends: {what}")
        elif kind == "shot":
            dodge = f", {e['target']} dodges {ladder_name(e['dodge'])}" if e["dodge"] is not None \
                else ""  # fmt: skip
            text = (f"{head} {e['actor']} shoots {e['target']} (needs "
                    f"{ladder_name(e['needs'])}): rolls {_signed(e['roll'])}, "
                    f"{ladder_name(e['result'])}{dodge}: ")  # fmt: skip
            if not e["hit"]:
                lines.append(text + "misses")
                continue
            where = f" in the {e['location'].replace('_', ' ')}" if e["location"] else ""
            row = f"{_ROW_WORDS[scenario.rules.shot_roll]} {_signed(e['row'])}, "
            landed = "" if simultaneous else f"; {_after(e, scenario)}"
            lines.append(text + f"hits{where}, {row}{_points(e['damage'])}{landed}")
        elif kind == "contact":
            lines.append(f"{head} {e['actor']} hits {e['target']} squarely: Damage Roll "
                         f"{_signed(e['row'])}, {_points(e['damage'])}; {_after(e, scenario)}")
        elif kind == "detonate":
            lines.append(f"{head} {e['actor']} goes off "
                         f"({'tamped' if e['tamped'] else 'untamped'})")  # fmt: skip
        elif kind == "tamp":
            lines.append(f"{head} {e['actor']} goes off; the Explosives roll "
                         f"{_signed(e['roll'])} makes {ladder_name(e['result'])}: "
                         f"{'tamped' if e['tamped'] else 'not tamped'}")  # fmt: skip
        elif kind == "blast":
            landed = "" if simultaneous else f"; {_after(e, scenario)}"
            lines.append(f"           the blast catches {e['target']}: concussion "
                         f"{e['concussion']}, fragments {e['fragments']}, "
                         f"{_points(e['damage'])}{landed}")  # fmt: skip
        elif kind == "breach":
            word = _BREACH_WORDS[("intact", "about_to_breach", "breached").index(e["state"])]
            if e["state"] == "breached" and e["result"] <= 0:
                word = "was about to breach, and now " + word  # UA24
            lines.append(f"           {e['target']}: breach result {_signed(e['result'])} "
                         f"(roll {_signed(e['roll'])}): it {word}")  # fmt: skip
        elif kind == "wound":
            lines.append(f"           at the round's end {e['actor']}'s "
                         f"{_points(e['damage'])} land: {_after(e, scenario)}")  # fmt: skip
        elif kind == "cripple":
            part = e["location"].replace("_", " ")
            lines.append(f"           {e['target']}'s {part} is crippled ({e['damage']} Wounds "
                         f"on it)")  # fmt: skip
    return lines
