"""Turn a replayed colour fight's event log (``codes.EV_*`` rows) into plain dicts and a
play-by-play: :func:`event_dicts` (names instead of indices, colours and defences by name) and
:func:`narrate` (one line per event)."""

from __future__ import annotations

from . import codes as k

__all__ = ["KIND_NAMES", "event_dicts", "narrate"]

#: Event kind code -> name (the ``kind`` of :func:`event_dicts`).
KIND_NAMES = {
    k.EVENT_INITIATIVE: "initiative", k.EVENT_ATTACK: "attack", k.EVENT_HIT: "hit",
    k.EVENT_DOWN: "down", k.EVENT_ENDURANCE: "endurance_roll", k.EVENT_BLEED: "endurance_rank",
    k.EVENT_DEATH: "death", k.EVENT_WAKE: "wake", k.EVENT_AID: "aid",
    k.EVENT_GRAPPLE: "grapple", k.EVENT_ESCAPE: "escape", k.EVENT_SQUEEZE: "squeeze",
    k.EVENT_LIMB: "limb", k.EVENT_KO: "knocked_out", k.EVENT_FIELD: "force_field",
    k.EVENT_AIM: "aim", k.EVENT_STRAIN: "soak_strain", k.EVENT_BREAK: "armour",
    k.EVENT_TABLE: "armour_damage_table", k.EVENT_END: "end", k.EVENT_IDLE: "idle",
    k.EVENT_HELPLESS: "helpless", k.EVENT_FLEE: "flee", k.EVENT_COUNTER: "counter_attack",
}  # fmt: skip
_STATES = {k.LIMB_BROKEN: "broken", k.LIMB_SEVERED: "severed"}
_IDLE = {1: "out of ammunition", 2: "held fast (escapes from the next round)",
         3: "its power is inoperative"}  # fmt: skip


def _colour(c: int) -> str:
    return k.COLOUR_NAMES[c] if 0 <= c < len(k.COLOUR_NAMES) else "-"


def _defence(d: int) -> str:
    if d == -2:
        return "dive"
    return k.DEFENCE_NAMES[d] if 0 <= d < len(k.DEFENCE_NAMES) else "-"


def event_dicts(events, names, rank_names=()) -> list[dict]:
    """Every event as a JSON-ready dict: ``round``, ``kind`` and its fields by name."""
    out = []
    for row in events:
        r, kind, actor, target = (int(v) for v in row[:4])
        a, b, c, d, e, f, g = (int(v) for v in row[4:11])
        who = names[actor] if 0 <= actor < len(names) else None
        whom = names[target] if 0 <= target < len(names) else None
        item = {"round": r, "kind": KIND_NAMES.get(kind, str(kind))}
        if who is not None:
            item["actor"] = who
        if whom is not None:
            item["target"] = whom
        if kind == k.EVENT_INITIATIVE:
            item.update(roll=a, position=b + 1, group=c + 1)
        elif kind == k.EVENT_ATTACK:
            item.update(form=k.ACTION_NAMES[a] if 0 <= a < len(k.ACTION_NAMES) else str(a),
                        roll=b, colour=_colour(c), defence=_defence(e),
                        defence_roll=d if d > 0 else None, landed=bool(f), hits=g)  # fmt: skip
        elif kind == k.EVENT_HIT:
            item.update(damage=a, threatened=b, soaked=c, health=e,
                        location=k.LOCATIONS[d] if 0 <= d < len(k.LOCATIONS) else None)
        elif kind == k.EVENT_ENDURANCE:
            item.update(roll=a, colour=_colour(b))
        elif kind == k.EVENT_BLEED:
            item.update(rank_from=_rank(rank_names, a), rank_to=_rank(rank_names, b),
                        why={k.WHITE: "bleeding", k.BLUE: "a Blue", 0: "soak strain",
                             1: "attacked on the ground"}.get(c, str(c)))  # fmt: skip
        elif kind == k.EVENT_DEATH:
            item.update(how="killed outright" if a == 1 else "at Shift 0")
        elif kind in (k.EVENT_WAKE, k.EVENT_FLEE):
            item.update(health=a)
        elif kind == k.EVENT_GRAPPLE:
            item.update(roll=a, colour=_colour(b), fighting_won=bool(c), held=bool(d))
        elif kind == k.EVENT_ESCAPE:
            item.update(roll=a, colour=_colour(b), freed=bool(c))
        elif kind == k.EVENT_SQUEEZE:
            item.update(roll=a, colour=_colour(b), damage=c, health=d)
        elif kind == k.EVENT_LIMB:
            item.update(location=k.LOCATIONS[a], state=_STATES.get(b, str(b)),
                        endurance_colour=_colour(d) if d >= 0 else None)
        elif kind == k.EVENT_KO:
            item.update(damage=a, head_hit_points=b)
        elif kind == k.EVENT_FIELD:
            item.update(action="raise" if a else "drop", up=bool(c) if a else False)
        elif kind == k.EVENT_AIM:
            item.update(turns=a)
        elif kind == k.EVENT_STRAIN:
            item.update(soaked=a, roll=b, colour=_colour(c), ranks=d if c < k.RED else 0)
        elif kind == k.EVENT_BREAK:
            item.update(effect="broken" if a == 1 else "rattled", extra_damage=b if a == 2 else 0)
        elif kind == k.EVENT_TABLE:
            item.update(roll=a)
        elif kind == k.EVENT_END:
            item.update(winner=a, round_end=b)
        elif kind == k.EVENT_IDLE:
            item.update(why=_IDLE.get(a, str(a)))
        elif kind == k.EVENT_HELPLESS:
            item.update(ranks=a)
        out.append(item)
    return out


def _rank(rank_names, i: int):
    return rank_names[i] if 0 <= i < len(rank_names) else i


def narrate(events, names, side_names, rank_names=()) -> list[str]:
    """One line per event: ``round 3: Ken autofires at Bob: 87 yellow against 40 white
    (dodge): 4 hits`` and so on."""
    lines = []
    for e in event_dicts(events, names, rank_names):
        r = e["round"]
        who, whom = e.get("actor", "?"), e.get("target", "?")
        kind = e["kind"]
        head = f"round {r}: " if r else "start: "
        if kind == "initiative":
            text = f"{who} rolls {e['roll']} for initiative (acts {e['position']})"
        elif kind == "attack":
            verb = {"attack": "attacks", "autofire": "fires a volley at", "sweep": "sweeps",
                    "concentrated": "concentrates fire on", "burst": "bursts at",
                    "grapple": "grapples"}.get(e["form"], e["form"])  # fmt: skip
            if e["defence"] == "dive":
                how = f"{whom} dives clear"
            elif e["defence_roll"] is None or e["defence"] == "none":
                how = "no defence roll"
            else:
                how = f"{e['defence']} {e['defence_roll']}"
            result = (f"{e['hits']} hit{'s' if e['hits'] != 1 else ''}" if e["hits"] > 1
                      else ("lands" if e["landed"] else "misses"))  # fmt: skip
            text = f"{who} {verb} {whom}: {e['roll']} {e['colour']} ({how}): {result}"
        elif kind == "hit":
            where = f" to the {e['location'].replace('_', ' ')}" if e["location"] else ""
            soaked = f", {e['soaked']} soaked" if e["soaked"] else ""
            text = (f"{whom} takes {e['damage']}{where} ({e['threatened']} threatened{soaked}), "
                    f"Health {e['health']}")  # fmt: skip
        elif kind == "down":
            text = f"{who} is down at 0 Health"
        elif kind == "endurance_roll":
            text = f"{who} rolls Endurance: {e['roll']} {e['colour']}"
        elif kind == "endurance_rank":
            text = f"{who} loses Endurance ({e['why']}): {e['rank_from']} to {e['rank_to']}"
        elif kind == "death":
            text = f"{who} dies ({e['how']})"
        elif kind == "wake":
            text = f"{who} wakes with {e['health']} Health"
        elif kind == "flee":
            text = f"{who} wakes with {e['health']} Health and flees"
        elif kind == "aid":
            text = f"{who} stabilises {whom}"
        elif kind == "grapple":
            text = (f"{who} grapples {whom}: {e['roll']} {e['colour']}: "
                    f"{'held' if e['held'] else 'fails'}")  # fmt: skip
        elif kind == "escape":
            text = f"{who} tries to escape {whom}: {'free' if e['freed'] else 'held'}"
        elif kind == "squeeze":
            text = (f"{who} squeezes {whom}: {e['roll']} {e['colour']}: {e['damage']} damage, "
                    f"Health {e['health']}")  # fmt: skip
        elif kind == "limb":
            text = f"{whom}'s {e['location'].replace('_', ' ')} is {e['state']}"
        elif kind == "knocked_out":
            text = f"{whom} is knocked out ({e['damage']} to the head)"
        elif kind == "force_field":
            text = (f"{who}'s force field drops" if e["action"] == "drop"
                    else f"{who} raises its force field: {'up' if e['up'] else 'fails'}")
        elif kind == "aim":
            text = f"{who} aims ({e['turns']} turn{'s' if e['turns'] != 1 else ''})"
        elif kind == "soak_strain":
            text = (f"{who} strains soaking {e['soaked']}: {e['roll']} {e['colour']}"
                    + (f", -{e['ranks']} Endurance" if e["ranks"] else ""))  # fmt: skip
        elif kind == "armour":
            text = (f"{whom}'s armour breaks" if e["effect"] == "broken"
                    else f"{whom} is rattled: +{e['extra_damage']}")  # fmt: skip
        elif kind == "armour_damage_table":
            text = f"{whom}'s armour damage table: {e['roll']}"
        elif kind == "helpless":
            text = f"{who} attacks the helpless {whom}: -{e['ranks']} Endurance"
        elif kind == "counter_attack":
            text = f"{who} counter-attacks {whom}"
        elif kind == "idle":
            text = f"{who} does nothing: {e['why']}"
        elif kind == "end":
            w = e["winner"]
            winner = (side_names[w] if 0 <= w < len(side_names)
                      else ("a draw" if w == k.DRAW else "unresolved"))  # fmt: skip
            text = f"the fight ends after round {e['round_end']}: {winner}"
            head = ""
        else:
            text = kind
        lines.append(head + text)
    return lines
