"""The explorer's answers: exact where the rule system solves the fight, otherwise a Monte
Carlo estimate refined in the background, each with its paired difference from the base.

One :class:`Explorer` serves one base scenario. :meth:`Explorer.answer` validates a change set
(the loader's messages for bad values) and returns at once either the exact answer or a
:class:`Job` that runs stages of growing trial counts (:data:`STAGE_FIRST` times 4, 16, ...,
at most :attr:`Explorer.max_trials`) on a background thread. Every stage runs the variant and
the base with the same seed and trial count, so trial ``k`` of both starts from the same
random stream (common random numbers) and their difference is paired
(:func:`fuzion_sim.analysis.compare.paired_difference`). A new answer cancels the job before.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from .. import api
from ..analysis.compare import paired_difference
from ..errors import FuzionSimError, error_lines, one_line
from ..scenario.schema import scenario_schema
from ..scenario.variants import Base, as_base
from ..systems import get_system
from .caps import DEFAULT_MAX_TRIALS, MAX_TRIALS_LIMIT
from .state import build_controls, check_changes, to_yaml

__all__ = ["DEFAULT_MAX_TRIALS", "Explorer", "Job", "MAX_TRIALS_LIMIT", "STAGE_FIRST", "error_line"]

#: Trials of the first Monte Carlo stage; each later stage has four times as many.
STAGE_FIRST = 4096
#: Most trial-combatant cells one stage keeps per trial (the paired difference needs them).
MAX_CELLS = 1 << 23
#: Time slots drawn in the kill-time plots: up to the 99.9th percentile, at most this many.
MAX_PLOT_SLOTS = 120
_CACHE = 32


def error_line(err: Exception) -> str:
    """What the CLI prints for ``err``: ``fuzion-sim: error: ...``, a line per problem."""
    return "\n".join(f"fuzion-sim: error: {one_line(line)}" for line in error_lines(err))


def _curves(pmf: dict) -> dict:
    """The kill-time pmf over decisive fights (normalised) and its survival curve,
    ``P(the fight is still on after t)``, cut at the 99.9th percentile."""
    items = sorted((float(t), float(p)) for t, p in pmf.items() if p > 0)
    total = sum(p for _, p in items) or 1.0
    pts, cum, surv = [], 0.0, []
    for t, p in items:
        cum += p / total
        pts.append([t, p / total])
        surv.append([t, max(0.0, 1.0 - cum)])
        if cum >= 0.999 or len(pts) >= MAX_PLOT_SLOTS:
            break
    return {"pmf": pts, "survival": surv}


def _exact_view(answer: dict, base: dict | None) -> dict:
    sides = {s: {"p": v["win_probability"], "ci95": None} for s, v in answer["sides"].items()}
    kt = answer.get("kill_time") or {}
    out = {
        "method": "exact", "detail": answer.get("method", ""), "trials": None, "done": True,
        "sides": sides, "draw": answer.get("draw_probability", 0.0),
        "unresolved": answer.get("unresolved_probability", 0.0),
        "kill_time": {"unit": kt.get("unit"), "mean": kt.get("mean"),
                      **_curves(kt.get("pmf") or {})},
    }  # fmt: skip
    if base is not None:
        out["diff"] = {
            "paired": None,
            "sides": {s: {"diff": sides[s]["p"] - base["sides"][s]["win_probability"],
                          "ci95": None} for s in sides if s in base["sides"]},
            "kill_time_mean": (None if kt.get("mean") is None or
                               base.get("kill_time", {}).get("mean") is None else
                               {"diff": kt["mean"] - base["kill_time"]["mean"], "ci95": None}),
        }  # fmt: skip
    return out


def _mc_view(result, diff: dict | None) -> dict:
    sides = {s: {"p": result.win_probability(s), "ci95": list(result.win_interval(s))}
             for s in result.sides}  # fmt: skip
    kt = result.kill_time()
    out = {
        "method": "monte carlo", "detail": f"seed {result.seed}", "trials": int(result.trials),
        "sides": sides, "draw": result.draw_probability, "unresolved":
        result.unresolved_probability, "kill_time": {"unit": kt["unit"], "mean": kt["mean"],
                                                     **_curves(kt["pmf"])},
    }  # fmt: skip
    if diff is not None:
        km = diff.get("kill_time_mean") or {}
        out["diff"] = {
            "paired": diff["paired"],
            "sides": {s: {"diff": d["diff"], "ci95": d["ci95"]}
                      for s, d in diff["win_probability"].items()},
            "kill_time_mean": None if km.get("diff") is None else
            {"diff": km["diff"], "ci95": km["ci95"]},
        }  # fmt: skip
    return out


class Job:
    """A Monte Carlo estimate refined stage by stage on a background thread.

    ``snapshot()`` gives the latest stage's view (``None`` before the first), the trials of the
    stage running, and ``state``: ``running``, ``done``, ``cancelled`` or ``error``.
    """

    def __init__(self, explorer: Explorer, key: str, scenario, has_changes: bool, cap: int):
        self.id = f"{id(self):x}{int(time.monotonic() * 1e6) & 0xFFFFFF:x}"
        self.key, self.scenario, self.cap = key, scenario, cap
        self.has_changes = has_changes
        self.state, self.view, self.error, self.running_trials = "running", None, None, 0
        self.started = time.perf_counter()
        self.stages: list[dict] = []  # (trials, seconds since start) of each finished stage
        self._cancel = threading.Event()
        self._explorer = explorer
        self._thread = threading.Thread(target=self._run, name=f"explore-{self.id}", daemon=True)

    def start(self) -> Job:
        self._thread.start()
        return self

    def cancel(self) -> None:
        self._cancel.set()

    def join(self, timeout=None) -> None:
        self._thread.join(timeout)

    def snapshot(self) -> dict:
        return {"job": self.id, "state": self.state, "error": self.error,
                "running_trials": self.running_trials, "cap": self.cap, "stages": self.stages,
                "answer": self.view}  # fmt: skip

    def _stop(self, _tally) -> bool:
        return self._cancel.is_set()

    def _run(self) -> None:
        try:
            n = min(STAGE_FIRST, self.cap)
            while not self._cancel.is_set():
                self.running_trials = n
                result = self._explorer._simulate(self.scenario, n, self._stop)
                if self._cancel.is_set():
                    break
                diff = None
                if self.has_changes:
                    base = self._explorer._base_result(n, self._stop)
                    if self._cancel.is_set() or base is None:
                        break
                    diff = paired_difference(base, result)
                self.view = _mc_view(result, diff)
                self.stages.append({"trials": n, "seconds": time.perf_counter() - self.started})
                if n >= self.cap:
                    self.view["done"] = True
                    break
                self.view["done"] = False
                n = min(4 * n, self.cap)
            self.state = "cancelled" if self._cancel.is_set() else "done"
        except FuzionSimError as err:
            self.error, self.state = error_line(err), "error"
        except Exception as err:
            self.error, self.state = f"fuzion-sim: internal error: {one_line(repr(err))}", "error"


class Explorer:
    """Answers for variants of one base scenario (see the module's description).

    Parameters
    ----------
    scenario : str, path, dict, Scenario or Base
        The base scenario.
    max_trials : int
        The most trials one Monte Carlo estimate runs (the last stage's size).
    threads : int, optional
        Worker threads of each run (default: all cores).
    """

    def __init__(self, scenario, max_trials: int = DEFAULT_MAX_TRIALS, threads=None):
        from ..limits import check_int

        check_int("max_trials", max_trials, 1, MAX_TRIALS_LIMIT)
        if threads is not None:
            api.check_run_args(threads=threads)
        self.base: Base = as_base(scenario)
        self.scenario = self.base.build()
        self.system = get_system(self.scenario.system)
        self.schema = scenario_schema(self.system)
        self.threads = threads
        cells = MAX_CELLS // max(1, len(self.scenario.combatants))
        self.max_trials = max(1, min(int(max_trials), cells))
        self.seed = self.scenario.seed
        self._lock = threading.Lock()
        self._job: Job | None = None
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._exact: OrderedDict[str, dict | None] = OrderedDict()
        self._base_runs: dict[int, object] = {}
        self._base_lock = threading.Lock()

    # -- what the page shows ---------------------------------------------------------------
    def controls(self) -> dict:
        """The controls (see :func:`fuzion_sim.explorer.state.build_controls`) and the
        scenario's name, system, sides, source and limits."""
        out = build_controls(self.system, self.schema, self.base.data)
        out.update(scenario=self.scenario.name, system=self.system.name,
                   title=self.system.title, sides=list(self.scenario.side_names),
                   source=self.base.source, max_trials=self.max_trials, seed=self.seed,
                   exact=self._exact_of(self.scenario) is not None)  # fmt: skip
        return out

    def variant(self, changes) -> tuple[list, object]:
        """The checked change set and the validated changed scenario.

        Raises
        ------
        FuzionSimError
            A path the schema does not allow, or the loader's error for a bad value.
        """
        checked = check_changes(self.schema, changes)
        return checked, self.base.build(checked)

    def answer(self, changes, monte_carlo: bool = False) -> dict:
        """The answer to a change set: ``{"ok": False, "error": line}`` for bad input,
        ``{"ok": True, "answer": exact view}`` where the system solves the fight (unless
        ``monte_carlo``), else ``{"ok": True, "job": id}`` of a refining estimate (its first
        stage already started). Every answer also names ``changes`` (canonical paths)."""
        try:
            checked, scenario = self.variant(changes)
        except FuzionSimError as err:
            return {"ok": False, "error": error_line(err)}
        key = repr(checked)
        out = {"ok": True, "changes": [[p, v] for p, v in checked],
               "warnings": [one_line(w) for w in scenario.warnings]}  # fmt: skip
        if not monte_carlo:
            exact = self._exact_of(scenario, key)
            if exact is not None:
                base = self._exact_of(self.scenario) if checked else None
                return {**out, "answer": _exact_view(exact, base)}
        with self._lock:
            if self._job is not None and self._job.key != key:
                self._job.cancel()
            job = self._jobs.get(key)
            if job is None or job.state in ("cancelled", "error"):
                job = Job(self, key, scenario, bool(checked), self.max_trials).start()
                self._jobs[key] = job
                while len(self._jobs) > _CACHE:
                    self._jobs.popitem(last=False)
            self._job = job
        return {**out, "job": job.id}

    def job(self, job_id: str) -> dict | None:
        """A job's snapshot (None: no such job)."""
        with self._lock:
            for job in self._jobs.values():
                if job.id == job_id:
                    return job.snapshot()
        return None

    def yaml(self, changes) -> str:
        """The changed scenario as YAML with a comment of what changed."""
        checked = check_changes(self.schema, changes)
        self.base.build(checked)  # validate before writing anything
        data = self.base.data
        from ..scenario import set_path

        for path, value in checked:
            data = set_path(data, path, value)
        return to_yaml(data, checked, self.base.source)

    def close(self) -> None:
        """Cancel every running job and wait for them."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
        for job in jobs:
            job.join(30)

    # -- the engine ------------------------------------------------------------------------
    def _exact_of(self, scenario, key: str = "[]") -> dict | None:
        with self._lock:
            if key in self._exact:
                return self._exact[key]
        try:
            self.system.exact_check(scenario)
            answer = api.exact_fight(scenario)
        except FuzionSimError:
            answer = None
        with self._lock:
            self._exact[key] = answer
            while len(self._exact) > _CACHE:
                self._exact.popitem(last=False)
        return answer

    def _simulate(self, scenario, trials: int, stop):
        return api.simulate(scenario, trials=trials, seed=self.seed, threads=self.threads,
                            keep_trials=True, progress=False, stop=stop)  # fmt: skip

    def _base_result(self, trials: int, stop):
        with self._base_lock:
            if trials not in self._base_runs:
                result = self._simulate(self.scenario, trials, stop)
                if result.trials != trials:
                    return None  # cancelled part-way
                self._base_runs[trials] = result
            return self._base_runs[trials]
