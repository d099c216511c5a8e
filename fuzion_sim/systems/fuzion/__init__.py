"""The Fuzion rule system (seed 000), with the rooms every system has: model and catalogue
(``model.py``, ``build.py``, ``catalogue.py``, ``data/``), ``compile.py``, ``rules.py``, the
kernels (``kernel*.py``, chosen by ``dispatch.py``), ``exact.py`` and ``oracle.py`` (exact
answers), ``narrate.py`` (replays); ``system.py`` puts them behind the RuleSystem interface.
"""

from __future__ import annotations

from importlib import import_module

from .system import SYSTEM

__all__ = [
    "SYSTEM",
    "FightPlan",
    "compile_scenario",
    "max_slots",
    "n_sides",
    "outcome_schema",
    "run_chunk",
    "run_logged",
    "tally_chunk",
]


def __getattr__(name: str):
    """The running functions of ``run.py``, imported on first use: the system itself (its
    keys, switches and questions) loads without numpy, numba or the kernels."""
    if name in __all__:
        return getattr(import_module(".run", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
