"""The validated scenario: plain frozen dataclasses, no YAML and no numpy.

A :class:`Scenario` is what :func:`fuzion_sim.scenario.load_scenario` returns and what a rule
system's ``compile`` step turns into flat arrays. Every field has already been checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DERIVED",
    "PRIMARIES",
    "RULE_SWITCHES",
    "Armor",
    "Combatant",
    "Rules",
    "Scenario",
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
}

#: Every rule switch the Fuzion system knows: name -> (allowed values or a type, default, ruling).
#: The first listed value is the default (RULINGS.md). Booleans are YAML true/false.
RULE_SWITCHES: dict[str, tuple[Any, Any, str]] = {
    "dice": (("hero", "interlock"), "hero", "F2"),
    "criticals": (("both", "attacker", "none"), "both", "F3"),
    "timing": (("phases",), "phases", "F8"),
    "initiative": (("switch1",), "switch1", "F9"),
    "impairment": (bool, True, "F24"),
    "stunned": (bool, True, "F22"),
    "dying_can_act": (bool, False, "F25"),
    "dying_penalty": (int, 6, "F25"),
    "ap_factor": (float, 0.5, "F20"),
}


@dataclass(frozen=True)
class Weapon:
    """A weapon as the kernel needs it (catalogue entry or inline definition).

    ``range`` is the listed range in metres for ranged weapons and the reach (4, or 6 for
    polearms) for melee weapons. ``shots`` is the magazine (None: unlimited).
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


@dataclass(frozen=True)
class Armor:
    """Worn armour: PD against physical attacks, EKD against energy attacks."""

    name: str
    pd: int = 0
    ekd: int = 0
    half_vs_blades: bool = False
    notes: str = ""


NO_ARMOR = Armor(name="none")


@dataclass(frozen=True)
class Combatant:
    """One combatant with every value resolved (primaries, derived, skills, gear)."""

    name: str
    side: str
    stats: dict[str, int]
    derived: dict[str, int]
    skills: dict[str, int]
    weapon: Weapon
    armor: Armor = NO_ARMOR
    position: float = 0.0

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
