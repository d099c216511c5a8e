"""The validated scenario: plain frozen dataclasses, no YAML and no numpy.

A :class:`Scenario` is what :func:`fuzion_sim.scenario.load_scenario` returns and what a rule
system's ``compile`` step turns into flat arrays. Every field has already been checked.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AREA_BASES",
    "BOWS",
    "BOW_MAX_STR",
    "BOW_RANGE_PER_STR",
    "CAMPAIGNS",
    "COVERS",
    "ABORTS",
    "DEFAULT_TACTICS",
    "DERIVED",
    "PRIMARIES",
    "RANGE_PER_POWER_POINT",
    "RULE_SWITCHES",
    "Area",
    "Armor",
    "Combatant",
    "Rules",
    "SIZES",
    "Scenario",
    "UNARMED",
    "UNARMED_NAMES",
    "Weapon",
]

#: Primary characteristics (RULINGS F6), each defaults to 5.
PRIMARIES = ("INT", "WILL", "PRE", "TECH", "REF", "DEX", "CON", "STR", "BODY", "MOVE")

#: Derived values (RULINGS F5) and how they follow from the primaries; each may be overridden
#: per combatant with a lower-case key of the same name (``hits: 40``).
DERIVED = {
    "hits": lambda s: s["BODY"] * 5,
    "stun": lambda s: s["BODY"] * 5,
    "sd": lambda s: s["CON"] * 2,
    "rec": lambda s: s["STR"] + s["CON"],
    "end": lambda s: s["CON"] * 10,
    "res": lambda s: s["WILL"] * 3,
    "run": lambda s: s["MOVE"] * 2,
    "sprint": lambda s: s["MOVE"] * 3,
    # SPD for the speed chart / extra actions (F8), 1 to 12; 4 is one action a phase
    "spd": lambda s: 4,
}

#: Every rule switch the Fuzion system knows: name -> (allowed values or a type, default, ruling).
#: The first listed value is the default (RULINGS.md). Booleans are YAML true/false.
RULE_SWITCHES: dict[str, tuple[Any, Any, str]] = {
    "dice": (("hero", "interlock"), "hero", "F2"),
    "criticals": (("both", "attacker", "none"), "both", "F3"),
    "timing": (("phases", "speed_chart", "extra_actions"), "phases", "F8"),
    "extra_actions_table": (("rule", "printed"), "rule", "F8"),
    "initiative": (("switch1", "switch2"), "switch1", "F9"),
    "impairment": (bool, True, "F24"),
    "stunned": (bool, True, "F22"),
    "dying_can_act": (bool, False, "F25"),
    "dying_penalty": (int, 6, "F25"),
    "ap_factor": (float, 0.5, "F20"),
    "obscured_dv": (int, 14, "F11"),
    "dodge_bonus": (int, 3, "F32"),
    "block_bonus": (int, 3, "F32"),
    "hit_locations": (("none", "random", "called"), "none", "F27"),
    "knockback": (bool, False, "F28"),
    # metres per knockback unit (a campaign setting, F28), > 0
    "knockback_unit": (float, 1.0, "F28"),
    "campaign": (
        ("heroic", "everyday", "competent", "incredible", "legendary", "superheroic"),
        "heroic",
        "F15",
    ),
    # 0 means "from campaign" (campaigns.yaml); a scenario may only give 1 or more
    "autofire_ratio": (int, 0, "F15"),
    "autofire_hits": (("ceil_margin", "one_plus_floor"), "ceil_margin", "F15"),
    # chinks in the armour: a margin of 10 or more ignores armour, per autofire hit too
    "chinks": (bool, False, "F30"),
}

#: Campaign styles (F15), in the seed's order (everyday ... superheroic); ``campaigns.yaml``
#: gives each one's autofire ratio.
CAMPAIGNS = ("everyday", "competent", "heroic", "incredible", "legendary", "superheroic")

#: Bows (seed "Archery Attacks"): ``none`` for any other weapon; the STR cap on range per bow.
BOWS = ("none", "short", "long", "compound")
BOW_MAX_STR = {"short": 7, "long": 10, "compound": 10}
#: Metres of bow range per point of the archer's STR (up to the bow's STR cap).
BOW_RANGE_PER_STR = 20
#: Metres of energy-blast range per power point.
RANGE_PER_POWER_POINT = 10

#: What an area effect's radius is counted per (F17; as ``tables.AREA_BASES``).
AREA_BASES = ("barrel", "die", "kill")


#: Cover a combatant may stand behind (F11; ``none``: in the open).
COVERS = ("none", "half_body", "head_and_shoulders", "head_only", "behind_someone")

#: Target sizes (F11).
SIZES = ("tiny", "small", "normal", "large", "very_large")
#: Defences a combatant aborts its unused action to when attacked (F32; Abort).
ABORTS = ("none", "dodge", "block", "dive")

#: The tactic of a combatant without ``tactics:``: attack; close to range when out of range.
#: Canonical rules (see ``fuzion_sim.systems.fuzion.tactics``): ``when`` (None: always), ``do``
#: and the action's parameters.
DEFAULT_TACTICS: tuple[dict[str, Any], ...] = (
    {"when": "range > weapon_range", "do": "run", "toward": "target"},
    {"when": None, "do": "attack", "fire": 1},
)


@dataclass(frozen=True)
class Area:
    """An area effect (F17): the radius is ``radius`` metres per barrel, die (DC) or Kill."""

    per: str  # barrel | die | kill
    radius: float


@dataclass(frozen=True)
class Weapon:
    """A weapon as the kernel needs it (catalogue entry or inline definition).

    ``range`` is the listed range in metres for ranged weapons and the reach (4, or 6 for
    polearms) for melee weapons. ``shots`` is the magazine (None: unlimited) and
    ``reload_actions`` the actions a reload takes.

    ``kills`` > 0 makes a Kill-rated weapon of that many Kills (F29); its ``dc`` is then the
    F29 DC against small targets, 13 + kills (14 DC for the first Kill, +1 per further Kill).
    ``blade``: a bladed weapon (armour with ``half_vs_blades``). ``bow`` (none, short, long,
    compound): archery; the kernel computes the range, 20 m per point of the archer's STR up to
    STR 7 (short) or 10 (long, compound); ``range`` holds that cap (140 or 200 m).
    ``power_points`` > 0: an energy blast whose ``range`` is 10 m per point. ``burst``: may fire
    3-round bursts (F16). ``area``: an area effect (F17), None for none; ``barrels`` counts for
    an area per barrel. ``explosive``: damage falls 2 points per metre from the centre (F17).
    """

    name: str
    skill: str
    kind: str = "ranged"  # ranged | melee
    damage: str = "killing"  # killing | stun
    dc: int = 1
    accuracy: int = 0
    range: float = 50.0
    rof: int = 1
    shots: int | None = None
    min_str: int = 0
    ap: bool = False
    autofire: bool = False
    energy: bool = False
    hands: int | None = None
    notes: str = ""
    reload_actions: int = 1
    kills: int = 0
    blade: bool = False
    bow: str = "none"
    power_points: int = 0
    burst: bool = False
    area: Area | None = None
    barrels: int = 1
    explosive: bool = False
    unarmed: bool = False


#: The fists of a combatant without a weapon (F14): an attack is a punch, STR dice of Stun
#: (``rules.punch_dice``), a haymaker STR + 3 dice; ``weapon: unarmed`` in a scenario.
UNARMED = Weapon(
    name="Fists", skill="Hand to Hand", kind="melee", damage="stun", dc=0, range=4.0,
    unarmed=True, notes="F14 punch: STR dice of Stun",
)  # fmt: skip
#: Names a scenario may give for no weapon.
UNARMED_NAMES = ("unarmed", "fists", "none")


@dataclass(frozen=True)
class Armor:
    """Worn armour: PD against physical attacks, EKD against energy attacks.

    ``kills`` > 0: Kill-rated armour of that many Kills (F29; then ``pd`` and ``ekd`` are 0).
    ``covers``: the hit locations it protects (names of the F27 table); None covers all.
    """

    name: str
    pd: int = 0
    ekd: int = 0
    half_vs_blades: bool = False
    notes: str = ""
    kills: int = 0
    covers: tuple[str, ...] | None = None


NO_ARMOR = Armor(name="none")


@dataclass(frozen=True)
class Combatant:
    """One combatant with every value resolved (primaries, derived, skills, gear).

    ``position`` is as the scenario gives it: a number (metres on a line) or an ``(x, y)``
    pair; :attr:`xy` is always the pair. ``tactics`` holds the canonical rules (the
    default tactic when the scenario gives none); ``fuzion_sim.systems.fuzion.tactics.program_of``
    compiles them. ``modifiers`` is a GM's flat modifier to this combatant's attacks,
    ``defence_modifiers`` to its defence.

    ``sdp`` > 0: an object of that many Structural Damage Points and no Stun; ``kills`` > 0: a
    Kill-rated target of that many Kills (F29); at most one of the two is set. ``called_shot``
    is the hit location this combatant calls when ``rules.hit_locations`` is ``called`` (None:
    its hits roll a random location).
    """

    name: str
    side: str
    stats: dict[str, int]
    derived: dict[str, int]
    skills: dict[str, int]
    weapon: Weapon
    armor: Armor = NO_ARMOR
    position: float | tuple[float, float] = 0.0
    tactics: tuple[dict[str, Any], ...] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_TACTICS)
    )
    targeting: str = "first"
    surprised: bool = False
    cover: str = "none"
    prone: bool = False
    crouched: bool = False
    obscured: bool = False
    braced: bool = False
    silhouetted: bool = False
    size: str = "normal"
    modifiers: int = 0
    defence_modifiers: int = 0
    drawn: bool = True
    abort: str = "none"
    sdp: int = 0
    kills: int = 0
    called_shot: str | None = None

    @property
    def xy(self) -> tuple[float, float]:
        """The position as ``(x, y)`` in metres (a number on a line is ``(x, 0)``)."""
        if isinstance(self.position, tuple):
            return (float(self.position[0]), float(self.position[1]))
        return (float(self.position), 0.0)

    @property
    def spd(self) -> int:
        """SPD (``derived["spd"]``, 4 unless given)."""
        return int(self.derived.get("spd", 4))

    def skill(self, name: str) -> int:
        """Skill level, 0 if the combatant lacks it."""
        return self.skills.get(name, 0)


@dataclass(frozen=True)
class Rules:
    """Effective rule switches; ``values`` holds every switch of RULE_SWITCHES."""

    values: dict[str, Any] = field(
        default_factory=lambda: {k: v[1] for k, v in RULE_SWITCHES.items()}
    )

    def __getattr__(self, name):
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> dict[str, Any]:
        """Every effective switch, in the order of RULE_SWITCHES."""
        return dict(self.values)


@dataclass(frozen=True)
class Scenario:
    """A validated scenario.

    ``data`` is the scenario as a plain dict (after overrides), used for the echo in reports and
    for the scenario hash; ``source`` is the file it came from, if any.
    """

    name: str
    system: str
    trials: int
    seed: int
    max_rounds: int
    rules: Rules
    sides: dict[str, tuple[Combatant, ...]]
    data: dict = field(default_factory=dict, compare=False)
    source: str | None = None
    warnings: tuple[str, ...] = ()

    @property
    def combatants(self) -> list[Combatant]:
        """All combatants, side by side in listed order."""
        return [c for side in self.sides.values() for c in side]

    @property
    def side_names(self) -> list[str]:
        return list(self.sides)
