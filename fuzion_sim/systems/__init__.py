"""Rule systems. Each has the same rooms: compile, rules, kernel, exact, narrate."""

from __future__ import annotations

from importlib import import_module

__all__ = ["get_system", "SYSTEMS"]

SYSTEMS = ("fuzion",)


def get_system(name: str):
    """The rule system module called ``name`` (validated by the scenario loader)."""
    return import_module(f"{__name__}.{name}")
