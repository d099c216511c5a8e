"""fuzion_sim: Monte Carlo balance analysis for tabletop combat rules.

>>> import fuzion_sim as fz
>>> result = fz.simulate("scenarios/marshal-vs-outlaw.yaml", trials=10_000)  # doctest: +SKIP
>>> result.win_interval("red")  # doctest: +SKIP
"""

from ._version import __version__
from .analysis.balance import balance
from .analysis.compare import compare
from .analysis.result import Result
from .analysis.sweep import sweep
from .api import replay, simulate
from .errors import FuzionSimError, ScenarioError
from .report.build import build_report
from .scenario import load_scenario
from .scenario.model import Scenario
from .systems.fuzion import exact

__all__ = [
    "__version__",
    "FuzionSimError",
    "Result",
    "Scenario",
    "ScenarioError",
    "balance",
    "build_report",
    "compare",
    "exact",
    "load_scenario",
    "replay",
    "simulate",
    "sweep",
]
