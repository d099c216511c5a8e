"""The validated scenario's envelope: plain frozen dataclasses, no YAML and no numpy.

A :class:`Scenario` is what :func:`fuzion_sim.scenario.load_scenario` returns and what a rule
system's ``compile`` turns into flat arrays. The envelope (name, system, trials, seed,
``max_rounds``, rules, sides) is every system's; the members of the sides are the system's own
objects (each with a ``name`` and a ``side``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Rules", "Scenario"]


@dataclass(frozen=True)
class Rules:
    """Effective rule switches: ``values`` holds every switch of the scenario's system, in the
    system's order; ``rules.dice`` reads ``values["dice"]``."""

    values: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name):
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> dict[str, Any]:
        """Every effective switch, in the system's order."""
        return dict(self.values)


@dataclass(frozen=True)
class Scenario:
    """A validated scenario.

    ``sides`` maps each side's name to its members (the system's objects, in listed order).
    ``data`` is the scenario as a plain dict (after overrides), used for the echo in reports
    and for the scenario hash; ``source`` is the file it came from, if any.
    """

    name: str
    system: str
    trials: int
    seed: int
    max_rounds: int
    rules: Rules
    sides: dict[str, tuple[Any, ...]]
    data: dict = field(default_factory=dict, compare=False)
    source: str | None = None
    warnings: tuple[str, ...] = ()
    description: str = ""
    #: the system's own top-level keys, built (``RuleSystem.scene_keys``; Fuzion's obstacles,
    #: drops and hazards)
    scene: dict = field(default_factory=dict, compare=False)

    @property
    def combatants(self) -> list:
        """All members, side by side in listed order."""
        return [c for side in self.sides.values() for c in side]

    @property
    def side_names(self) -> list[str]:
        return list(self.sides)
