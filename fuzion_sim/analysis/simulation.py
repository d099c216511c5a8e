"""One scenario through its rule system: check the run's arguments, compile, run, and wrap the
outcomes as a :class:`~fuzion_sim.analysis.result.Result`; replay one trial; the system's
exact answers and questions.

Every study of this package runs its variants through :func:`simulate` here, and the public
API (:mod:`fuzion_sim.api`) shows these functions as they are. The studies call it as
``simulation.simulate``, so a test can stand a fake run in for the real one in one place.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from pathlib import Path

import click

from .._args import apply_overrides, check_overrides, check_scheduler
from .._signals import kept
from .._version import __version__
from ..engine.runner import run_plan
from ..errors import ArgumentError, FuzionSimError, Interrupted, unknown_name
from ..limits import MAX_SEED, MAX_TRIALS, check_choice, check_int
from ..scenario import load_scenario as load_scenario_file
from ..scenario import scenario_from_dict
from ..systems import get_system, system_names
from ..systems.base import NotAvailable
from ..validation.model import Scenario
from .result import Result

__all__ = [
    "MAX_THREADS", "as_scenario", "ask", "check_run_args", "engine_kwargs", "exact_attack",
    "exact_fight", "load_scenario", "questions", "replay", "scenario_hash", "simulate",
]  # fmt: skip

#: Most worker threads (or local Dask worker processes) a run may ask for.
MAX_THREADS = 1024


def scenario_hash(scenario: Scenario) -> str:
    """SHA-256 (first 16 hex digits) of the scenario's canonical JSON.

    Parameters
    ----------
    scenario : Scenario

    Returns
    -------
    str
    """
    text = json.dumps(scenario.data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def as_scenario(scenario: Scenario | str | Path | dict) -> Scenario:
    """A Scenario: itself, loaded from a path, or validated from a mapping of scenario data.

    Parameters
    ----------
    scenario : Scenario, str, pathlib.Path or dict

    Returns
    -------
    Scenario

    Raises
    ------
    ArgumentError
        For anything else (None, a number, ...).
    ScenarioError
        If the file or the data is not a valid scenario.
    """
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, dict):
        return scenario_from_dict(scenario)
    if isinstance(scenario, str | os.PathLike):
        return load_scenario_file(scenario)
    raise ArgumentError(
        "scenario: expected a Scenario, a path to a YAML file or a mapping of scenario data, "
        f"got {type(scenario).__name__}"
    )


def check_run_args(trials=None, seed=None, threads=None) -> None:
    """Check the run options every entry point shares (None: not given).

    Raises
    ------
    ArgumentError
        Naming the argument and its range: ``trials`` 1 to 10^12, ``seed`` 0 to 2^63 - 1,
        ``threads`` 1 to :data:`MAX_THREADS`.
    """
    if trials is not None:
        check_int("trials", trials, 1, MAX_TRIALS)
    if seed is not None:
        check_int("seed", seed, 0, MAX_SEED)
    if threads is not None:
        check_int("threads", threads, 1, MAX_THREADS)


def _check_flag(name: str, value) -> None:
    if value is not None and not isinstance(value, bool):
        raise ArgumentError(f"{name}: expected True, False or None, got {value!r}")


def simulate(
    scenario: Scenario | str | Path,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    keep_trials: bool | None = None,
    progress: bool | None = None,
    stop=None,
    backend: str = "threads",
    scheduler=None,
    overrides=None,
) -> Result:
    """Run a scenario and return its :class:`~fuzion_sim.analysis.result.Result`.

    Parameters
    ----------
    scenario : Scenario, path or dict
        A validated scenario, a YAML file to load, or scenario data to validate.
    trials, seed : int, optional
        Override the scenario's trial count (1 to 10^12) and seed (0 to 2^63 - 1).
    threads : int, optional
        Worker threads (default: all cores, at most :data:`MAX_THREADS`); the numbers do not
        depend on it.
    keep_trials : bool, optional
        Keep per-trial outcomes for ``Result.outcomes`` (default: for runs up to 2 million).
    progress : bool, optional
        Progress bar (default: on a terminal, for runs longer than a second).
    stop : callable, optional
        ``stop(tally) -> bool``, consulted after each chunk in order; True ends the run there
        (``trials`` is then the cap). See :func:`fuzion_sim.analysis.precision.precision_stop`.
    backend : {'threads', 'dask'}
        Run chunks on a thread pool here, or as tasks on a Dask cluster; the numbers are
        bit-identical for the same seed.
    scheduler : str or distributed.Client, optional
        Dask only: a scheduler address such as ``"tcp://host:8786"`` (default: a local
        cluster, started on first use and reused for the rest of the process).
    overrides : dict, list of (key_path, value), or list of str, optional
        Changes to the scenario before it runs, as the CLI's key paths:
        ``{"rules.dice": "interlock", "sides.blue[0].armor.pd": 10}``, the same as pairs, or
        ``["rules.dice=interlock"]`` text. A bad path, or a value the scenario's checks refuse
        at that key, raises ``ScenarioError`` naming the override
        (``overrides['sides.blue[0].armor.pd']: ...``).

    Returns
    -------
    Result

    Raises
    ------
    ArgumentError
        A bad argument (also a ``ValueError``), naming it and the values it accepts.
    ScenarioError
        The scenario or an override is not valid.
    fuzion_sim.errors.Interrupted
        Ctrl-C: a ``KeyboardInterrupt`` carrying the trials finished (``trials``) and, as
        ``result``, the :class:`Result` of the whole chunks finished in order (None if none
        had): the same numbers as a run of ``result.trials`` trials with this seed, so
        ``except Interrupted as stop: stop.result`` keeps what was done.
    """
    check_run_args(trials, seed, threads)
    _check_flag("keep_trials", keep_trials)
    _check_flag("progress", progress)
    if stop is not None and not callable(stop):
        raise ArgumentError(f"stop: expected a callable or None, got {type(stop).__name__}")
    check_choice("backend", backend, ("threads", "dask"))
    check_scheduler(scheduler, backend)
    changes = check_overrides(overrides)
    if changes:
        scenario = apply_overrides(scenario, changes)[1]
    scenario = as_scenario(scenario)
    trials = scenario.trials if trials is None else int(trials)
    seed = scenario.seed if seed is None else int(seed)
    system = get_system(scenario.system)
    plan = system.compile(scenario)
    schema = system.outcome_schema(plan)
    try:
        run = run_plan(
            system, plan, trials, seed, threads, keep_trials, progress, stop=stop,
            backend=backend, scheduler=scheduler,
        )  # fmt: skip
    except Interrupted as exc:
        partial = getattr(exc, "partial", None)
        exc.result = None if partial is None else _result(scenario, seed, partial, schema)
        raise
    return _result(scenario, seed, run, schema)


def _result(scenario: Scenario, seed: int, run, schema) -> Result:
    """The :class:`Result` of ``run`` (a :class:`~fuzion_sim.engine.runner.RunOutput`)."""
    return Result(
        scenario=scenario.name,
        system=scenario.system,
        sides=scenario.side_names,
        combatants=[(c.name, c.side) for c in scenario.combatants],
        rules=scenario.rules.as_dict(),
        seed=seed,
        trials=run.tally.n_trials,
        tally=run.tally,
        time_unit=schema.time_unit,
        outcomes=run.trials,
        provenance={"version": __version__, "scenario_hash": scenario_hash(scenario)},
        elapsed=run.elapsed,
        threads=run.threads,
        backend=run.backend,
        schema=schema,
    )


def replay(scenario: Scenario | str | Path, trial: int, seed: int | None = None) -> dict:
    """Trial ``trial`` (0-based) of a run of ``scenario``, event by event.

    The trial is re-run alone from its own random stream, so its outcome is exactly what the
    bulk run with the same seed recorded for it (whatever the trial count or thread count).

    Parameters
    ----------
    scenario : Scenario or path
        A validated scenario, or a YAML file to load.
    trial : int
        The trial, 0-based.
    seed : int, optional
        The run's seed (default: the scenario's).

    Returns
    -------
    dict
        ``{"trial", "seed", "winner", "end_time", "unit", "events": [...], "lines": [...]}``;
        ``winner`` is a side name, "draw" or "unresolved".
    """
    check_int("trial", trial, 0, MAX_TRIALS - 1)
    check_run_args(seed=seed)
    scenario = as_scenario(scenario)
    seed = scenario.seed if seed is None else int(seed)
    system = get_system(scenario.system)
    plan = system.compile(scenario)
    with kept():  # the event log's kernel may compile here: a Ctrl-C is not lost in it
        rep = system.replay(scenario, plan, seed, int(trial))
    w = rep["winner"]
    winner = scenario.side_names[w] if w >= 0 else ("draw" if w == -1 else "unresolved")
    return {
        "scenario": scenario.name,
        "trial": int(trial),
        "seed": seed,
        "winner": winner,
        "end_time": rep["end_time"],
        "unit": system.outcome_schema(plan).unit,
        "events": rep["events"],
        "lines": rep["lines"],
    }


def exact_attack(scenario, attacker: str, target: str) -> dict:
    """The exact distribution of one default attack of ``attacker`` on ``target`` under the
    scenario's rules and positions (its rule system's oracle).

    Parameters
    ----------
    scenario : Scenario, path or dict
    attacker, target : str
        Member names (of different sides).

    Returns
    -------
    dict
        ``{"p_hit": p, "damage": {"mean": m, "pmf": {"0": p0, ...}}}`` plus what the system
        adds (Fuzion: ``hits`` for autofire, ``knockback``, ``locations``).

    Raises
    ------
    FuzionSimError
        An unknown member (naming the valid ones), two of one side, or an attack the system
        cannot work out exactly (:class:`~fuzion_sim.systems.base.NotAvailable`).
    """
    scenario = as_scenario(scenario)
    members = {c.name: c for c in scenario.combatants}
    for role, name in (("attacker", attacker), ("target", target)):
        if name not in members:
            raise unknown_name(role, name, members)
    if members[attacker].side == members[target].side:
        raise ArgumentError(f"{attacker} and {target} are on the same side")
    return get_system(scenario.system).attack(scenario, attacker, target)


def ask(scenario, question: str, **arguments) -> dict:
    """The exact answer to a question the scenario's rule system answers beyond its fight
    (its ``questions()``; Fuzion's ``impact``, ``hazard``, ``manoeuvre`` and ``dogfight``, each
    also the command ``fuzion-sim QUESTION SCENARIO``).

    >>> ask("scenarios/vehicles/brick-through-a-wall.yaml", "impact",
    ...     target="Brick", speed=20)  # doctest: +SKIP

    Parameters
    ----------
    scenario : Scenario, path or dict
    question : str
        The question's name (:func:`questions` lists them).
    **arguments
        Its arguments, named as the command's options (``--target`` is ``target``), checked
        as the command checks them.

    Returns
    -------
    dict
        The answer, as ``fuzion-sim QUESTION --json`` prints it.

    Raises
    ------
    FuzionSimError
        A question the system does not answer, an argument the question does not take, a
        required one missing or a bad value, or what the system's oracle refuses (an unknown
        member, say).
    """
    scenario = as_scenario(scenario)
    asked = _question(scenario.system, question)
    options = {o.name: o for o in asked.options()}
    for name in arguments:
        if name not in options:
            raise unknown_name(f"argument of {question}", name, options)
    given = {}
    for name, option in options.items():
        value = arguments.get(name)
        if value is None:
            if option.required:
                raise ArgumentError(f"{question}: {name} is required")
            continue
        try:
            given[name] = option.type(value, option, None)
        except click.BadParameter as err:
            raise ArgumentError(f"{question}: {name}: {err.message}") from None
    return asked.answer(scenario, **given)


def questions(system: str = "fuzion") -> dict[str, str]:
    """The questions rule system ``system`` answers beyond its fight, for :func:`ask`:
    ``{name: what it answers}``."""
    if system not in system_names():
        raise unknown_name("rule system", system, system_names())
    return {q.name: q.help for q in get_system(system).questions()}


def _question(system: str, question: str):
    """The :class:`~fuzion_sim.systems.base.Question` ``question`` of ``system``."""
    found = {q.name: q for q in get_system(system).questions()}
    if not found:
        raise NotAvailable(f"system {system} answers no questions beyond the fight")
    if question not in found:
        raise unknown_name(f"question of system {system}", question, found)
    return found[question]


def exact_fight(scenario) -> dict:
    """The exact answer to the scenario's fight where its rule system can solve it.

    Parameters
    ----------
    scenario : Scenario, path or dict

    Returns
    -------
    dict
        As ``run --json`` for ``sides`` (``win_probability``), ``draw_probability``,
        ``unresolved_probability`` and ``kill_time`` (``unit``, ``mean``, ``pmf``), with
        ``scenario``, ``system`` and ``method``.

    Raises
    ------
    fuzion_sim.systems.base.NotAvailable
        The system cannot solve this fight; the message says why.
    """
    scenario = as_scenario(scenario)
    answer = get_system(scenario.system).exact(scenario)
    return {"scenario": scenario.name, "system": scenario.system, **answer}


def load_scenario(path, overrides=None) -> Scenario:
    """Read, override and validate a scenario file.

    Parameters
    ----------
    path : str or os.PathLike
        The scenario YAML file.
    overrides : dict, list of (key_path, value), list of str, or str, optional
        As :func:`simulate` takes them, applied in order before validation:
        ``{"rules.dice": "interlock", "sides.blue[0].armor.pd": 10}``.

    Returns
    -------
    Scenario

    Raises
    ------
    ArgumentError
        ``path`` is not a path, or ``overrides`` is not one of the forms above.
    ScenarioError
        The file cannot be read or is not valid, or an override's key or value is bad (named
        as ``overrides['KEY']``).
    """
    if not isinstance(path, str | os.PathLike) or not str(path).strip():
        raise ArgumentError(f"path: expected a path to a YAML file, got {type(path).__name__}")
    changes = check_overrides(overrides)
    if not changes:
        return load_scenario_file(path)
    return apply_overrides(path, changes)[1]


def engine_kwargs(backend: str | None = None, scheduler: str | None = None) -> dict:
    """Keyword arguments for :func:`simulate` selecting the backend.

    Only non-default choices are passed, so this works with engines that predate them.

    Parameters
    ----------
    backend : str, optional
        ``"threads"`` (the default, passed as nothing) or ``"dask"``.
    scheduler : str, optional
        A Dask scheduler address.

    Returns
    -------
    dict
    """
    kw = {}
    if backend not in (None, "threads"):
        kw["backend"] = backend
    if scheduler is not None:
        kw["scheduler"] = scheduler
    params = inspect.signature(simulate).parameters
    missing = [k for k in kw if k not in params]
    if missing:
        raise FuzionSimError(f"this build of fuzion_sim does not support {', '.join(missing)}")
    return kw
