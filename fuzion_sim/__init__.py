"""fuzion_sim: Monte Carlo balance analysis for tabletop combat rules.

>>> import fuzion_sim as fz
>>> result = fz.simulate("scenarios/marshal-vs-outlaw.yaml", trials=10_000)  # doctest: +SKIP
>>> result.win_interval("red")  # doctest: +SKIP

The public names load on first use (PEP 562), so ``import fuzion_sim`` is quick and a Ctrl-C
while the command starts is handled by the command (:mod:`fuzion_sim.entry`).
"""

from importlib import import_module

from ._version import __version__
from .errors import FuzionSimError, ScenarioError

__all__ = [
    "__version__",
    "FuzionSimError",
    "Result",
    "Scenario",
    "ScenarioError",
    "ask",
    "balance",
    "build_report",
    "compare",
    "compare_until_decided",
    "exact",
    "explore",
    "load_scenario",
    "matrix",
    "pareto",
    "questions",
    "replay",
    "round_robin",
    "sensitivity",
    "simulate",
    "sweep",
]

#: Public name -> (module, attribute; None for the module itself). Each function checks every
#: argument before any work (those of :mod:`fuzion_sim.api` are re-exported from the analysis).
_LAZY = {
    "Result": (".analysis.result", "Result"),
    "Scenario": (".validation.model", "Scenario"),
    "ask": (".api", "ask"),
    "balance": (".api", "balance"),
    "build_report": (".api", "build_report"),
    "compare": (".api", "compare"),
    "compare_until_decided": (".analysis.sequential", "compare_until_decided"),
    "exact": (".systems.fuzion.exact", None),
    "explore": (".explorer", "explore"),
    "load_scenario": (".api", "load_scenario"),
    "matrix": (".analysis.matrix", "matrix"),
    "pareto": (".analysis.pareto", "pareto"),
    "questions": (".api", "questions"),
    "round_robin": (".analysis.matrix", "round_robin"),
    "sensitivity": (".analysis.sensitivity", "sensitivity"),
    "replay": (".api", "replay"),
    "simulate": (".api", "simulate"),
    "sweep": (".api", "sweep"),
}


def __getattr__(name: str):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'fuzion_sim' has no attribute {name!r}") from None
    value = import_module(module, __name__)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
