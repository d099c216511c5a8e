"""FUDGE Firearms' members and gear: plain frozen dataclasses, no YAML and no numpy; its rule
switches (RULINGS U1-U5 and every UA entry of ``rulings/fudge/rulings.md``) and the words its
data keys take.

A scenario's side holds three kinds of member (``build.py`` tells them apart by their keys):

- a :class:`Member` with a wound track: a shooter with a ``weapon`` (``skill``, ``distance``
  ...), or an object to be shot at (a tank, a car: no weapon);
- a :class:`Charge`: an explosive set off at a round of the fight (a scenario event, §8.3);
- a :class:`Barrier`: a wall to breach (§8.32, its ``wounds`` and ``scale``, no track).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..base import Switch

__all__ = [
    "AIMS",
    "COVERS",
    "LIGHTS",
    "FOGS",
    "SIGHTS",
    "SPEEDS",
    "SWITCHES",
    "TACTICS",
    "TARGETING",
    "Armour",
    "Barrier",
    "Charge",
    "Member",
    "Weapon",
]

#: Every rule switch of FUDGE Firearms, each defaulting to its ruling's reading, in the order
#: of the switch table (rulings.md §12).
SWITCHES: dict[str, Switch] = {
    "wounds": Switch(("firearms", "core"), "firearms", "U3", "wound track", flag="wounds"),
    "order": Switch(("fixed", "simultaneous", "rolled"), "fixed", "UA1", "order of actions"),
    "tie_break": Switch(("random", "listed"), "random", "UA1", "initiative ties"),
    "round_seconds": Switch(float, 3.0, "UA2", "seconds a round", high=3600, positive=True),
    "base_difficulty": Switch(int, 0, "UA3", "base difficulty", low=-10, high=10),
    "modifiers_on": Switch(("difficulty", "skill"), "difficulty", "UA3",
                           "situational modifiers on"),
    "ranged_defence": Switch(("none", "dodge"), "none", "UA4", "defence against a shot"),
    "propelled_dodge_penalty": Switch(int, 2, "UA4", "dodge penalty against guns", low=0,
                                      high=10),
    "dodge_costs_action": Switch(bool, False, "UA4", "a dodge costs the action"),
    "shot_roll": Switch(("separate", "margin", "attack_dice"), "separate", "UA5",
                        "roll of the shot modifier"),
    "shot_critical": Switch(("none", "incapacitate"), "none", "UA6", "critical shots"),
    "zero_damage": Switch(("none", "scratch"), "none", "UA7", "a hit of 0 damage"),
    "armour_stops": Switch(bool, False, "UA7", "armour stops the whole hit"),
    "scale_beyond_table": Switch(("extrapolate", "clamp", "error"), "extrapolate", "UA8",
                                 "relative Scale past 15"),
    "armour_scale": Switch(("wearer", "own"), "wearer", "UA9", "armour's Scale"),
    "firearms_dead_at": Switch(("capacity", "band"), "capacity", "UA11",
                               "firearms track: Dead at"),
    "core_overflow": Switch(("up", "ignore"), "up", "UA13", "core track: a full level"),
    "core_dead_damage": Switch(int, 0, "UA13", "core track: one hit Dead at (0 never)", low=0,
                               high=100_000),
    "wound_penalties": Switch(bool, True, "UA14", "wound penalties"),
    "out_at": Switch(("incapacitated", "near_death", "dead"), "incapacitated", "UA15",
                     "out of the fight at"),
    "concussion_value": Switch(("ignore", "avoid_roll"), "ignore", "UA18", "Concussion Value"),
    "blast_scale": Switch(("none", "reduce_only", "full"), "none", "UA19", "Scale of a blast"),
    "blast_armour": Switch(bool, False, "UA19", "armour against a blast"),
    "tamped_concussion": Switch(("half", "full"), "half", "UA21", "tamped concussion"),
    "blast_damage": Switch(("combined", "separate"), "combined", "UA22",
                           "concussion and fragmentation"),
    "cover_near": Switch(("half_cr", "cr"), "half_cr", "UA22", "near a blast"),
    "duck_penalty": Switch(int, 1, "UA22", "to hit a ducked target", low=0, high=10),
    "partial_cover_penalty": Switch(int, 1, "UA22", "to hit a partly covered target", low=0,
                                    high=10),
    "frag_zones": Switch(("innermost", "both"), "innermost", "UA23", "fragmentation zones"),
    "breach_roll": Switch(("raw", "shot_table"), "raw", "UA24", "breach: the roll"),
    "breach_scale": Switch(("raw", "table"), "raw", "UA24", "breach: the Scale"),
    "contact_concussion": Switch(bool, False, "UA25", "concussion on the contact target"),
    "hit_locations": Switch(("none", "random", "aimed"), "none", "UA26", "hit locations"),
    "aim_fallback": Switch(("torso", "random", "miss"), "torso", "UA26",
                           "an aimed shot short of its part"),
    "location_multiplier_on": Switch(("total", "bd"), "total", "UA26",
                                     "location multiplier on"),
    "cripple_out": Switch(bool, True, "UA27", "crippled is out"),
    "action_timing": Switch(bool, False, "UA29", "timing events from the roll"),
    "fog": Switch(("none", "light", "thick"), "none", "UA28", "fog"),
    "light": Switch(("day", "night_moon", "night", "pitch_black"), "day", "UA28", "light"),
}  # fmt: skip

#: §8.521 target speeds (UA28), sights and lights, fog (scenario switches), cover (UA22).
SPEEDS = ("stationary", "walking", "running", "vehicle", "aircraft")
SIGHTS = ("none", "advanced", "infrared")
LIGHTS = ("day", "night_moon", "night", "pitch_black")
FOGS = ("none", "light", "thick")
COVERS = ("none", "partial", "full")
#: Whom a shooter shoots (UA16, the engine's targeting tactics as in Fuzion): the first enemy
#: listed, the nearest, the most or least wounded, or one at random.
TARGETING = ("first", "nearest", "weakest", "strongest", "random")
#: What a shooter does each round under ``dodge_costs_action`` (UA4).
TACTICS = ("shoot", "dodge")
#: Parts a shooter may aim at under ``hit_locations: aimed`` (Method 2, UA26): the table's
#: parts and the hands (Great, counted on the arm).
AIMS = ("head", "eye", "heart", "neck", "torso", "right_arm", "left_arm", "right_hand",
        "left_hand", "right_leg", "left_leg")  # fmt: skip


@dataclass(frozen=True)
class Weapon:
    """A firearm or an explosive (§8.22, §8.31): Basic Damage ``bd`` (a decimal number, kept
    exact), its ``scale``; an aiming device (``sight``, ``laser``); a blast: ``concussion``
    (damage), ``concussion_range`` (metres), ``concussion_value`` (a ladder level, UA18),
    ``burst_radius`` (metres of fragmentation, None: none)."""

    name: str
    bd: Fraction
    scale: int = 0
    sight: str = "none"
    laser: bool = False
    concussion: Fraction | None = None
    concussion_range: float | None = None
    concussion_value: int | None = None
    burst_radius: float | None = None
    notes: str = ""

    @property
    def blast(self) -> bool:
        """It has a blast: concussion or fragmentation."""
        return self.concussion is not None or self.burst_radius is not None


@dataclass(frozen=True)
class Armour:
    """Armour ``points`` at Scale ``scale`` (§8.2211; UA9 reads the Scale)."""

    points: Fraction = Fraction(0)
    scale: int | None = None


NO_ARMOUR = Armour()


@dataclass(frozen=True)
class Member:
    """A member with a wound track (U3): a shooter (``weapon``) or an object shot at.

    Ladder values are integers (Fair 0). ``position`` is a number or an ``(x, y)`` pair and
    ``distance`` the metres to every enemy; a scenario uses one or the other. ``dodge`` and
    ``aim`` are None when the scenario leaves them out (Fair and the torso), ``wound_width`` too
    (2 points a level, UA12).
    """

    name: str
    side: str
    skill: int = 0
    damage_capacity: int = 0
    weapon: Weapon | None = None
    distance: float | None = None
    position: float | tuple[float, float] | None = None
    initiative: int = 0
    scale: int = 0
    armour: Armour = NO_ARMOUR
    dodge: int | None = None
    speed: str = "stationary"
    ducked: bool = False
    cover: str = "none"
    aim: str | None = None
    wound_width: int | None = None
    targeting: str = "first"
    tactic: str = "shoot"

    kind = "member"


@dataclass(frozen=True)
class Charge:
    """An explosive set off during the fight (a scenario event, §8.3): at the start of round
    ``detonates``, or after ``avg_seconds`` (UA29). ``tamped``: tamped for sure (True), not
    (False), or by an Explosives roll of ``tamping`` against Fair (None, §8.32). ``contact``:
    the member it is set against (a barrier to breach, or one who takes its Basic Damage)."""

    name: str
    side: str
    explosive: Weapon
    detonates: int = 1
    avg_seconds: float | None = None
    tamped: bool | None = False
    tamping: int | None = None
    contact: str | None = None
    distance: float | None = None
    position: float | tuple[float, float] | None = None

    kind = "charge"


@dataclass(frozen=True)
class Barrier:
    """A barrier to breach (§8.32, UA12): its ``wounds`` (capacity) and ``scale``; no track."""

    name: str
    side: str
    wounds: int
    scale: int = 0
    distance: float | None = None
    position: float | tuple[float, float] | None = None

    kind = "barrier"


def xy(member) -> tuple[float, float] | None:
    """A member's position as ``(x, y)`` metres (a number is on a line), None without one."""
    p = member.position
    if p is None:
        return None
    return (float(p[0]), float(p[1])) if isinstance(p, tuple) else (float(p), 0.0)
