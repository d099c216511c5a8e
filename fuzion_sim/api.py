"""The public entry points: load a scenario, simulate it, get a Result; the studies built on it.

This module is the curated surface and holds no code of its own: each name is the function
where it is defined, which checks its own arguments (naming a bad one) before any work.
:mod:`fuzion_sim.analysis.simulation` runs one scenario; the studies
(:mod:`fuzion_sim.analysis.compare`, :mod:`~fuzion_sim.analysis.sweep`,
:mod:`~fuzion_sim.analysis.balance`) and the report (:mod:`fuzion_sim.analysis.reporting`) run
it many times. Importing it loads no matplotlib.
"""

from __future__ import annotations

from .analysis.balance import balance
from .analysis.compare import compare
from .analysis.reporting import build_report
from .analysis.simulation import (
    MAX_THREADS,
    as_scenario,
    ask,
    check_run_args,
    exact_attack,
    exact_fight,
    load_scenario,
    questions,
    replay,
    scenario_hash,
    simulate,
)
from .analysis.sweep import sweep

__all__ = [
    "MAX_THREADS", "as_scenario", "ask", "balance", "build_report", "check_run_args", "compare",
    "exact_attack", "exact_fight", "load_scenario", "questions", "replay", "scenario_hash",
    "simulate", "sweep",
]  # fmt: skip
