"""The registry of rule systems: the one list of them.

Every shared room finds a system here by name (:func:`get_system`) and knows it only through
the :class:`~fuzion_sim.systems.base.RuleSystem` interface. A system shipped with the package
is a line of :data:`BUILTIN`; a house system in its own package registers under the
``fuzion_sim.systems`` entry-point group (``name = "package.module:SYSTEM"``, an instance of a
``RuleSystem`` subclass).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.metadata import entry_points

from .base import RuleSystem

__all__ = ["BUILTIN", "DEFAULT_SYSTEM", "ENTRY_POINTS", "get_system", "system_names"]

#: The systems shipped with fuzion_sim: name -> module (which defines ``SYSTEM``).
BUILTIN = {
    "fuzion": "fuzion_sim.systems.fuzion",
    "fudge": "fuzion_sim.systems.fudge",
    "colour": "fuzion_sim.systems.colour",
}
#: The system of a scenario that names none.
DEFAULT_SYSTEM = "fuzion"
#: The entry-point group of house systems.
ENTRY_POINTS = "fuzion_sim.systems"


@cache
def _plugins() -> dict:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS) if ep.name not in BUILTIN}


def system_names() -> tuple[str, ...]:
    """Every system a scenario may name: the built-in ones, then house systems."""
    return (*BUILTIN, *sorted(_plugins()))


@cache
def get_system(name: str) -> RuleSystem:
    """The rule system called ``name`` (the loader has checked it is one of
    :func:`system_names`)."""
    if name in BUILTIN:
        system = import_module(BUILTIN[name]).SYSTEM
    else:
        system = _plugins()[name].load()
    if not isinstance(system, RuleSystem) or system.name != name:
        raise TypeError(f"system {name!r} is not a RuleSystem named {name!r}")
    return system
