"""Hypothesis strategies: random valid Fuzion scenarios over every key the fast kernels claim.

``fight(kind)`` draws a scenario as plain data (what a YAML file holds). ``kind`` biases the
draw toward the fights one specialised kernel runs (``"duel"``, ``"squad"``, ``"standing"``);
``"any"`` draws without bias, so movement, magazines and the rest send some fights to the
general kernel. :data:`DRAWN` lists every scenario key (in ``dispatch.HONOURS`` spelling) the
strategy can draw; ``test_dispatch.py`` holds it to the table.
"""

from __future__ import annotations

from hypothesis import strategies as st

SKILLS = ("Handgun", "Rifle", "Melee", "Fencing", "Hand to Hand", "Athletics", "Ranged Evade")
CATALOGUE_WEAPONS = ("Colt Revolver", "Medium Pistol", "Bolt Action Rifle", "Katana", "Club",
                     "Polearm", "Dagger")  # fmt: skip
CATALOGUE_ARMOUR = ("Light Kevlar", "Chain Mail", "Heavy Leather")
TARGETING = ("first", "random", "weakest", "nearest", "strongest", "focus")
COVERS = ("none", "half_body", "head_and_shoulders", "head_only", "behind_someone")
SIZES = ("tiny", "small", "normal", "large", "very_large")

#: Every key the strategy draws.
DRAWN = frozenset(
    {"name", "system", "trials", "seed", "max_rounds", "rules", "sides", "side.members",
     "side.surprised"}
    | {f"member.{k}" for k in (
        "name", "stats", "skills", "weapon", "armor", "position", "hits", "stun", "sd", "rec",
        "res", "run", "sprint", "spd", "tactics", "targeting", "surprised", "cover", "prone",
        "crouched", "braced", "silhouetted", "size", "modifiers", "defence_modifiers",
        "called_shot", "end")}
    | {f"weapon.{k}" for k in (
        "name", "skill", "kind", "damage", "dc", "accuracy", "min_str", "range", "rof", "ap",
        "energy", "blade", "reload_actions", "burst", "shots", "bow", "power_points",
        "autofire", "area", "barrels", "explosive")}
    | {"weapon.area.per", "weapon.area.radius"}
    | {f"armor.{k}" for k in ("name", "pd", "ekd", "half_vs_blades", "kills", "covers")}
    | {f"rules.{k}" for k in (
        "dice", "criticals", "timing", "extra_actions_table", "initiative", "impairment",
        "stunned", "dying_can_act", "dying_penalty", "ap_factor", "obscured_dv", "dodge_bonus",
        "block_bonus", "knockback_unit", "campaign", "autofire_ratio", "autofire_hits",
        "chinks", "hit_locations", "knockback", "moving_target", "semi_auto_rof")}
)  # fmt: skip


@st.composite
def weapon(draw, kind: str):
    """A catalogue weapon, the fists, or an inline one (melee or ranged, Killing or Stun, ...)."""
    if draw(st.integers(0, 7)) == 0:
        return draw(st.sampled_from(("unarmed", None)))  # None: no weapon key
    if draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(CATALOGUE_WEAPONS))
    melee = draw(st.booleans())
    w = {
        "name": "W",
        "skill": draw(st.sampled_from(("Melee", "Fencing") if melee else ("Handgun", "Rifle"))),
        "kind": "melee" if melee else "ranged",
        "dc": draw(st.integers(1, 8)),
        "damage": draw(st.sampled_from(("killing", "killing", "stun"))),
        "accuracy": draw(st.integers(-2, 2)),
        "min_str": draw(st.integers(0, 7)),
        "ap": draw(st.booleans()),
        "energy": draw(st.booleans()),
        "blade": draw(st.booleans()),
        "rof": draw(st.integers(1, 3)),
        "reload_actions": draw(st.integers(1, 2)),
    }
    if not melee:
        choice = draw(st.integers(0, 5))
        if choice == 0:
            w.update(bow=draw(st.sampled_from(("short", "long"))), skill="Archery")
        elif choice == 1:
            w["power_points"] = draw(st.integers(1, 6))
        else:
            w["range"] = draw(st.sampled_from((10, 25, 50, 100)))
    else:
        w["range"] = draw(st.sampled_from((4, 6)))
    if not melee and kind in ("duel", "any") and draw(st.integers(0, 3)) == 0:
        w.update(autofire=True, rof=draw(st.sampled_from((3, 10, 25))))  # F15
    elif kind in ("duel", "any") and draw(st.integers(0, 4)) == 0:  # F17: a spread
        per = draw(st.sampled_from(("die", "barrel")))
        w["area"] = {"per": per, "radius": draw(st.sampled_from((0.5, 1, 2)))}
        if per == "barrel":
            w["barrels"] = draw(st.integers(1, 2))
        if kind == "any" and draw(st.booleans()):
            w["explosive"] = True  # thrown at a point: the general kernel
    if kind == "any" and draw(st.integers(0, 5)) == 0:
        w["shots"] = draw(st.integers(1, 6))  # a magazine: the general kernel
    if w["rof"] >= 3 and w.get("shots", 3) >= 3 and draw(st.booleans()):
        w["burst"] = True
    return w


def _most_shots(arms) -> int:
    """The most ``fire:`` a drawn weapon takes (``semi_auto_rof: extra_attacks``): its ROF for
    a ranged inline weapon; a catalogue weapon, the fists or none: 1 (they get ``all``)."""
    if not isinstance(arms, dict) or arms["kind"] == "melee":
        return 1
    return int(arms["rof"])


@st.composite
def armour(draw):
    if draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(CATALOGUE_ARMOUR))
    a = {"name": "A", "pd": draw(st.integers(0, 12)), "ekd": draw(st.integers(0, 12)),
         "half_vs_blades": draw(st.booleans())}  # fmt: skip
    if draw(st.integers(0, 5)) == 0:  # Kill-rated armour counts only on a Kill-rated target
        a = {"name": "A", "kills": 1}
    if draw(st.integers(0, 5)) == 0:
        a["covers"] = ["chest", "vitals"]
    return a


@st.composite
def member(draw, name: str, kind: str, planar: bool, x: float):
    """One combatant at ``x`` metres along the line (``planar``: somewhere off it too)."""
    spread = 8.0 if kind == "any" else 1.5
    y = draw(st.floats(0, spread).map(lambda v: round(v, 1))) if planar else None
    m = {
        "name": name,
        "stats": {k: draw(st.integers(2, 9)) for k in ("REF", "DEX", "STR", "BODY", "CON")},
        "skills": {s: draw(st.integers(0, 6)) for s in draw(
            st.lists(st.sampled_from(SKILLS), max_size=4, unique=True))},
        "position": [x, y] if planar else x,
    }
    arms = draw(weapon(kind))
    if arms is not None:
        m["weapon"] = arms
    if draw(st.booleans()):
        m["armor"] = draw(armour())
    optional = {
        "hits": st.integers(5, 40), "stun": st.integers(5, 40), "sd": st.integers(0, 15),
        "rec": st.integers(1, 15), "res": st.integers(0, 20), "run": st.integers(1, 10),
        "sprint": st.integers(1, 15), "end": st.integers(10, 60),
        "targeting": st.sampled_from(TARGETING), "cover": st.sampled_from(COVERS),
        "size": st.sampled_from(SIZES), "prone": st.booleans(), "crouched": st.booleans(),
        "braced": st.booleans(), "silhouetted": st.booleans(),
        "modifiers": st.integers(-2, 2), "defence_modifiers": st.integers(-2, 2),
        "called_shot": st.sampled_from(("head", "vitals")), "spd": st.integers(1, 12),
        "surprised": st.booleans(),
    }  # fmt: skip
    if kind == "squad":
        optional.pop("surprised")
    if kind == "duel":
        optional.pop("surprised")
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=6, unique=True)):
        m[key] = draw(optional[key])
    if draw(st.integers(0, 4)) == 0:
        m["tactics"] = [{"do": "attack"}]
        if kind in ("duel", "any") and draw(st.booleans()):  # shots of an autofire attack, or
            # attacks of a weapon without autofire (F15 semi_auto_rof), never above the ROF
            fire = draw(st.sampled_from((2, 12, "all")))
            most = _most_shots(arms)
            m["tactics"][0]["fire"] = fire if fire == "all" or fire <= most else (
                most if most > 1 else "all")
    elif kind == "any" and draw(st.integers(0, 6)) == 0:
        m["tactics"] = "gunslinger"
    return m


@st.composite
def rules(draw, kind: str):
    r = {
        "dice": draw(st.sampled_from(("hero", "interlock"))),
        "criticals": draw(st.sampled_from(("both", "attacker", "none"))),
        "impairment": draw(st.booleans()),
        "stunned": draw(st.booleans()),
        "dying_can_act": draw(st.booleans()),
        "dying_penalty": draw(st.integers(0, 8)),
        "ap_factor": draw(st.sampled_from((0.0, 0.5, 0.75))),
        "obscured_dv": draw(st.integers(8, 20)),
        "dodge_bonus": draw(st.integers(0, 4)),
        "block_bonus": draw(st.integers(0, 4)),
        "knockback_unit": draw(st.sampled_from((0.5, 1.0, 2.0))),
        "campaign": draw(st.sampled_from(("heroic", "legendary"))),
        "autofire_hits": draw(st.sampled_from(("ceil_margin", "one_plus_floor"))),
        "semi_auto_rof": draw(st.sampled_from(("extra_attacks", "one_shot"))),
    }
    if draw(st.booleans()):
        r["autofire_ratio"] = draw(st.integers(1, 4))
    if kind in ("standing", "any"):
        r["timing"] = draw(st.sampled_from(("phases", "speed_chart", "extra_actions")))
        r["extra_actions_table"] = draw(st.sampled_from(("rule", "printed")))
    if kind != "squad":
        r["initiative"] = draw(st.sampled_from(("switch1", "switch2")))
    if kind in ("standing", "any"):
        r["chinks"] = draw(st.booleans())
        # VA-16: nobody moves in a standing fight; in any other the relative reading goes to
        # the general kernel (dispatch)
        r["moving_target"] = draw(st.sampled_from(("absolute", "relative")))
    if kind in ("duel", "any"):  # rule options only the duel kernel runs of the fast ones
        r["hit_locations"] = draw(st.sampled_from(("none", "random", "called")))
        r["knockback"] = draw(st.booleans())
    return r


@st.composite
def fight(draw, kind: str = "any") -> dict:
    """A scenario as plain data; see the module docstring for ``kind``."""
    if kind == "duel":
        sizes = [1, 1]
    else:
        n_sides = draw(st.sampled_from((2, 2, 2, 3)))
        sizes = [draw(st.integers(1, 6 if n_sides == 2 else 3)) for _ in range(n_sides)]
        if kind == "squad" and sum(sizes) == 2:
            sizes[0] = 2
    planar = draw(st.booleans())
    # the sides a few metres apart: for a biased draw within every weapon's reach (melee: 4 m);
    # the squad kernel also runs fights whose combatants must close in
    gaps = {"any": (0.0, 1.0, 2.5, 3.0, 8.0, 30.0), "squad": (0.0, 1.0, 1.5, 8.0, 30.0, 80.0)}
    gap = draw(st.sampled_from(gaps.get(kind, (0.0, 1.0, 1.5))))
    sides = {}
    for s, size in enumerate(sizes):
        members = [draw(member(f"S{s}M{i}", kind, planar, gap * s)) for i in range(size)]
        if kind in ("standing", "any") and draw(st.integers(0, 5)) == 0:
            sides[f"side{s}"] = {"surprised": True, "members": members}
        else:
            sides[f"side{s}"] = members
    drawn_rules = draw(rules(kind))
    if drawn_rules.get("semi_auto_rof") == "one_shot":  # then fire: N only with autofire
        for entry in sides.values():
            for m in entry["members"] if isinstance(entry, dict) else entry:
                tactic = m.get("tactics")
                if (isinstance(tactic, list) and tactic[0].get("fire", "all") != "all"
                        and not (isinstance(m.get("weapon"), dict)
                                 and m["weapon"].get("autofire"))):  # fmt: skip
                    tactic[0]["fire"] = "all"
    return {
        "name": "drawn",
        "system": "fuzion",
        "trials": 300,
        "seed": draw(st.integers(0, 2**31)),
        "max_rounds": draw(st.integers(2, 12)),
        "rules": drawn_rules,
        "sides": sides,
    }
