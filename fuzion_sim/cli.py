"""The ``fuzion-sim`` command: parse, call the public API, render. No rules here.

Bad input prints one line, ``fuzion-sim: error: <file>:<line>: <key path>: <what is wrong>``
(for an override, the option instead of the file: ``--set KEY=VALUE: ...``), and exits with
status 2; never a traceback. Ctrl-C prints ``fuzion-sim: interrupted after N trials`` and exits
with status 130, leaving no partial file; SIGTERM does the same (``terminated``, status 143).
Everything printed goes through :func:`_echo`, :func:`_warn` and :func:`_fail` (or the report's
terminal console), which write the control characters of names and values as escapes; an error
quotes at most 80 characters of any user string.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import warnings

import click

from . import _signals as signals
from .cli_common import (
    _SEED,
    _THREADS,
    _TRIALS,
    PRECISION_MAX_TRIALS,
    _api,
    _assignments,
    _base,
    _Command,
    _dump,
    _echo,
    _engine_options,
    _fail,
    _flag_overrides,
    _flag_switches,
    _interrupted,
    _Later,
    _load,
    _override_options,
    _range,
    _set_overrides,
    _shortcut_words,
    _system_of,
    _warn,
)
from .cli_studies import STUDY_COMMANDS, run_pareto_command, until_decided_options
from .errors import FuzionSimError, Interrupted, error_lines, shorten
from .explorer.command import explore as explore_command
from .scenario.variants import parse_assignment


class _Group(click.Group):
    """Turns user-input errors raised anywhere below into one line and exit status 2, Ctrl-C
    and SIGTERM into one line and exit status 130 or 143, and the project's own warnings
    (a Dask scheduler without TLS) into ``fuzion-sim: warning:`` lines. Its commands are
    :class:`_Command`: options drawn from the rule systems are made when first needed."""

    command_class = _Command

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *_questions()})

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is None and name in _questions():
            command = _question_command(_questions()[name])
            self.add_command(command)
        return command

    def invoke(self, ctx):
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            try:
                return super().invoke(ctx)
            except FuzionSimError as err:
                _fail(error_lines(err))
            except Interrupted as err:
                _interrupted(err.trials)
            except KeyboardInterrupt:  # before any trial ran (loading, compiling, connecting)
                _interrupted(0)
            except Exception as err:  # a Ctrl-C that an import wrapped in another error
                if signals.caused_by_interrupt(err):
                    _interrupted(0)
                raise


@functools.cache
def _questions() -> dict:
    """{name: the Question} of every rule system's questions (the first system's where two
    ask the same): the commands ``fuzion-sim NAME``. Listing them loads no kernels."""
    from .systems import get_system, system_names

    found = {}
    for system in system_names():
        for question in get_system(system).questions():
            found.setdefault(question.name, question)
    return found


def _question_command(question) -> click.Command:
    """The command of ``question``: ``fuzion-sim NAME SCENARIO [its options] [--rows N]
    [--set KEY=VALUE ...] [--json]``, answered by the scenario's own rule system
    (:func:`fuzion_sim.ask`)."""

    def answer(scenario, overrides, as_json, rows=None, **arguments):
        sc = _load(scenario, overrides)
        found = _api().ask(sc, question.name, **arguments)
        if as_json:
            _dump(found)
            return
        shown = question.render(found, arguments)
        if isinstance(shown, str):
            _echo(shown)
            return
        from .report.text import render_answer

        render_answer(*shown, rows)

    callback = _override_options(answer)
    params = [click.Argument(["scenario"]), *question.options()]
    if question.tables:
        params.append(click.Option(["--rows"], type=click.IntRange(min=2), default=30,
                                   show_default=True,
                                   help="Most rows per distribution table."))  # fmt: skip
    params += list(reversed(callback.__click_params__))
    params.append(click.Option(["--json", "as_json"], is_flag=True,
                               help="One JSON object on stdout."))  # fmt: skip
    return _Command(question.name, callback=callback, params=params, help=question.help)


_SHOW_WARNING = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None):
    from .engine.dask_backend import PlainTCPWarning

    if issubclass(category, PlainTCPWarning):
        _warn(str(message))
    else:
        _SHOW_WARNING(message, category, filename, lineno, file, line)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fuzion_sim")
def cli():
    """Monte Carlo balance analysis for Fuzion combat."""


@cli.command()
@click.argument("scenario")
@click.option("--trials", type=_TRIALS, help="Override the scenario's trials.")
@click.option("--seed", type=_SEED, help="Override the scenario's seed.")
@_override_options
@click.option("--threads", type=_THREADS, help="Worker threads (default: all cores).")
@click.option(
    "--precision",
    type=float,
    help="Run whole chunks until every side's 95% win-probability half-width is at most this.",
)
@click.option(
    "--max-trials",
    type=_TRIALS,
    help="Cap on trials with --precision (default: --trials if given, else 10,000,000).",
)
@_engine_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def run(scenario, trials, seed, overrides, threads, precision, max_trials, backend, scheduler,
        as_json):  # fmt: skip
    """Simulate SCENARIO and report who wins, how often, and how long it takes.

    Ctrl-C (or SIGTERM) prints the result of the trials finished so far, whole chunks in
    order (the same numbers as a run of that many trials), then one line, and exits 130 (143).
    """
    from .analysis.simulation import engine_kwargs

    sc = _load(scenario, overrides)
    engine = engine_kwargs(backend, scheduler)
    stop = None
    if precision is not None:
        from .analysis.precision import precision_stop

        stop = precision_stop(precision, len(sc.side_names))
        trials = max_trials or trials or PRECISION_MAX_TRIALS
    elif max_trials is not None:
        raise FuzionSimError("--max-trials only applies with --precision")
    try:
        result = _api().simulate(sc, trials=trials, seed=seed, threads=threads, stop=stop, **engine)
    except Interrupted as exc:
        partial = getattr(exc, "result", None)
        if partial is None:
            raise
        _show_result(partial, as_json, interrupted=True)
        _interrupted(exc.trials, partial.trials)
    if precision is not None:
        from .analysis.precision import precision_reached

        reached = precision_reached(result.tally, len(result.sides), precision)
        result.provenance.update(precision=precision, precision_reached=reached, max_trials=trials)
        if not reached:
            _warn(f"precision {precision} not reached within {trials:,} trials (raise "
                  "--max-trials)")  # fmt: skip
    extra = {}
    if precision is not None:
        extra = {"precision": precision, "precision_reached": reached, "max_trials": trials}
    _show_result(result, as_json, **extra)


def _show_result(result, as_json: bool, **extra) -> None:
    """A run's result as ``run`` prints it (``extra``: keys added to the JSON object)."""
    if as_json:
        _dump({**result.to_json_dict(), **extra})
        return
    from .report.text import render_result

    render_result(result)


@cli.command()
@click.argument("scenario")
@click.option(
    "--vary",
    "varies",
    multiple=True,
    metavar="KEY=V1,V2|START:STOP:STEP",
    help="A key path and its values; repeat for the cross product.",
)
@_override_options
@click.option("--trials", type=_TRIALS, help="Trials per variant.")
@click.option("--seed", type=_SEED, help="Seed shared by every variant.")
@click.option("--threads", type=_THREADS, help="Worker threads.")
@click.option(
    "--independent", is_flag=True, help="Give each variant its own seed (no pairing; wider)."
)
@_engine_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@until_decided_options
def compare(scenario, varies, overrides, trials, seed, threads, independent, backend, scheduler,
            as_json):  # fmt: skip
    """Run variants of SCENARIO on common random numbers and compare them with the first."""
    from .analysis.compare import compare

    run_compare = compare.unchecked  # click checked the options

    axes = _assignments(varies, "--vary")
    base = _base(scenario, overrides)[0]
    cmp = run_compare(
        base, axes, trials=trials, seed=seed, threads=threads,
        common_random_numbers=not independent, backend=backend, scheduler=scheduler,
    )  # fmt: skip
    if as_json:
        _dump(cmp.to_json_dict())
    else:
        from .report.text import render_comparison

        render_comparison(cmp)


@cli.command()
@click.argument("scenario")
@click.option(
    "--grid",
    "grids",
    multiple=True,
    metavar="KEY=V1,V2|START:STOP:STEP",
    help="A grid axis (STOP included); repeat for more axes. Default: the file's sweep: block.",
)
@_override_options
@click.option("-o", "--out", "out_dir", required=True, help="Results folder (resumable).")
@click.option("--force", is_flag=True, help="Overwrite files in OUT that fuzion-sim did not write.")
@click.option("--trials", type=_TRIALS, help="Trials per point.")
@click.option("--seed", type=_SEED, help="Seed shared by every point.")
@click.option("--threads", type=_THREADS, help="Worker threads.")
@_engine_options
@click.option("--json", "as_json", is_flag=True, help="The table as JSON records on stdout.")
def sweep(scenario, grids, overrides, out_dir, force, trials, seed, threads, backend, scheduler,
          as_json):  # fmt: skip
    """Run every grid point of SCENARIO; write results.csv, results.parquet and heatmaps.

    Finished points are kept in OUT/points/; re-running the same command resumes.
    """
    from .analysis.sweep import sweep

    run_sweep = sweep.unchecked  # click checked the options; OutputDir words a folder's problems

    axes = [parse_assignment(t) for t in grids]
    base = _base(scenario, overrides)[0]

    def note(i, total, point, resumed):
        what = "already done" if resumed else "done"
        values = ", ".join(f"{k}={v}" for k, v in point.items() if k != "_row")
        _echo(f"[{i + 1}/{total}] {values}: {what}", err=True)

    warn = _warn

    table = run_sweep(
        base, axes or None, out_dir=out_dir, trials=trials, seed=seed, threads=threads,
        backend=backend, scheduler=scheduler, on_point=None if as_json else note, force=force,
        warn=warn,
    )  # fmt: skip
    if as_json:
        click.echo(table.to_json(orient="records"))
    else:
        from .report.text import render_sweep

        render_sweep(table, table.attrs["axes"], out_dir)


@cli.command()
@click.argument("scenario")
@click.option("--param", "params", required=True, multiple=True, metavar="KEY|KEY=LO:HI",
              help="Key path of a number, e.g. sides.blue[0].armor.pd; repeat (each as "
              "KEY=LO:HI) for a multi-lever search with --goal.")  # fmt: skip
@click.option("--goal", "goals", multiple=True, metavar="METRIC[WHO]=TARGET|LO:HI|<=X|>=X",
              help="A goal as pareto --goal (e.g. win_probability[red]=45%:55%); repeat. With "
              "a goal or several --param: the Pareto front of the trade-offs.")  # fmt: skip
@click.option("--budget", type=click.IntRange(2, 100_000),
              help="With --goal: most points run (as pareto --budget).")  # fmt: skip
@click.option("--finalists", type=click.IntRange(1, 1000),
              help="With --goal: front points re-run on a fresh seed.")  # fmt: skip
@click.option(
    "--metric",
    default="win_probability",
    show_default=True,
    metavar="NAME",
    help="What to bring to the target: win_probability (with --side), p_out or p_dead (with "
    "--combatant), kill_time_mean, kill_time_q50, kill_time_q90 (any kill_time_qNN).",
)
@click.option("--side", help="Whose win probability (default: the first side listed).")
@click.option("--combatant", help="Whose P(out) or P(dead) (with --metric p_out / p_dead).")
@click.option(
    "--target",
    type=float,
    help="A probability (default 0.5), or for a kill-time metric a time in the system's unit "
    "(phases; required).",
)
@click.option("--range", "span", metavar="LO:HI", help="Search range (default 0 to max(2x, 20)).")
@_override_options
@click.option("--trials", type=_TRIALS, help="Trials per evaluation.")
@click.option("--seed", type=_SEED, help="Seed of every evaluation.")
@click.option("--threads", type=_THREADS, help="Worker threads.")
@_engine_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def balance(scenario, params, goals, budget, finalists, metric, side, combatant, target, span,
            overrides, trials, seed, threads, backend, scheduler, as_json):  # fmt: skip
    """Find the PARAM value that brings a METRIC of the fight to TARGET.

    For an integer PARAM it also gives the bracketing pair (the neighbouring values either
    side of the target) and the smallest value that reaches the target. With several --param
    (KEY=LO:HI) or any --goal it searches them all for the trade-offs between the goals and
    prints the Pareto front, as ``pareto`` does.
    """
    from .analysis.balance import balance

    run_balance = balance.unchecked  # click checked the options

    if len(params) > 1 or goals:
        _balance_many(scenario, overrides, params, goals, budget, finalists, metric, side,
                      combatant, target, span, trials, seed, threads, backend, scheduler,
                      as_json)  # fmt: skip
        return
    if budget is not None or finalists is not None:
        raise FuzionSimError(f"--{'budget' if budget is not None else 'finalists'} needs --goal")
    (param,) = params
    lo, hi = _range(span)
    base = _base(scenario, overrides)[0]
    res = run_balance(
        base, param, target=target, side=side, low=lo, high=hi, trials=trials, seed=seed,
        threads=threads, backend=backend, scheduler=scheduler, metric=metric,
        combatant=combatant,
    )  # fmt: skip
    if as_json:
        _dump(res.to_json_dict())
    else:
        from .report.text import render_balance

        render_balance(res)


def _balance_many(scenario, overrides, params, goals, budget, finalists, metric, side,
                  combatant, target, span, trials, seed, threads, backend, scheduler,
                  as_json) -> None:  # fmt: skip
    """``balance`` with several levers or goals: the Pareto search of ``pareto``. The options
    of the one-lever search say what the goals say, so they are refused here."""
    if not goals:
        raise FuzionSimError("several --param need at least one --goal, "
                             "e.g. --goal 'win_probability[red]=45%:55%'")  # fmt: skip
    given = [name for name, value in (("metric", metric != "win_probability"), ("side", side),
             ("combatant", combatant), ("target", target), ("range", span)) if value]  # fmt: skip
    if given:
        raise FuzionSimError(f"--{given[0]} does not apply with --goal or several --param: "
                             "give the metric and its target in a --goal, each range as "
                             "--param KEY=LO:HI")  # fmt: skip
    base = _base(scenario, overrides)[0]
    run_pareto_command(base, params, goals, budget=budget, finalists=finalists, trials=trials,
                       seed=seed, threads=threads, as_json=as_json, backend=backend,
                       scheduler=scheduler)  # fmt: skip


@cli.command()
@click.argument("scenario")
@click.option("-o", "--out", "out_dir", required=True, help="Report folder.")
@click.option("--force", is_flag=True, help="Overwrite files in OUT that fuzion-sim did not write.")
@click.option("--compare", "varies", multiple=True, metavar="KEY=VALUES",
              help="Variants to compare (as compare --vary).")  # fmt: skip
@click.option("--grid", "grids", multiple=True, metavar="KEY=VALUES",
              help="A sweep to include (as sweep --grid).")  # fmt: skip
@click.option("--matrix-rows", metavar="KEY=SELECTOR",
              help="A balance table to include: its rows (as matrix --rows).")  # fmt: skip
@click.option("--matrix-cols", metavar="KEY=SELECTOR",
              help="The balance table's columns (as matrix --cols).")  # fmt: skip
@click.option("--sensitivity", "sens_params", multiple=True, metavar="KEY=LO:HI",
              help="A sensitivity study to include (as sensitivity --vary); repeat.")  # fmt: skip
@click.option("--sensitivity-method", type=click.Choice(["local", "sobol"]), default="local",
              show_default=True, help="Stat weights (quick) or Sobol indices.")  # fmt: skip
@_override_options
@click.option("--trials", type=_TRIALS, help="Trials per run.")
@click.option("--seed", type=_SEED, help="Seed.")
@click.option("--threads", type=_THREADS, help="Worker threads.")
@click.option("--title", help="Report title (default: the scenario's name).")
@_engine_options
def report(scenario, out_dir, force, varies, grids, matrix_rows, matrix_cols, sens_params,
           sensitivity_method, overrides, trials, seed, threads, title, backend,
           scheduler):  # fmt: skip
    """Write a Markdown + HTML report of SCENARIO (plots, tables with intervals, CSV data)."""
    from .analysis.reporting import build_report

    build_report = build_report.unchecked  # OutputDir words the folder's problems

    base = _base(scenario, overrides)[0]
    words = ["fuzion-sim", "report", scenario]
    for *_kv, option in overrides:  # the shortcut or --set that gave each, as typed
        flag, _, rest = option.partition(" ")
        words += [flag, rest]
    for v in varies:
        words += ["--compare", v]
    for g in grids:
        words += ["--grid", g]
    words += ["--matrix-rows", matrix_rows] if matrix_rows else []
    words += ["--matrix-cols", matrix_cols] if matrix_cols else []
    for v in sens_params:
        words += ["--sensitivity", v]
    if sens_params and sensitivity_method != "local":
        words += ["--sensitivity-method", sensitivity_method]
    words += ["--trials", str(trials)] if trials else []
    words += ["--seed", str(seed)] if seed is not None else []
    words += ["--title", title] if title else []
    words += ["-o", out_dir]
    command = shlex.join(words)  # pasted into a shell, every word stays one word
    path = build_report(
        base, out_dir, vary=[parse_assignment(v) for v in varies] or None,
        grid=[parse_assignment(g) for g in grids] or None, trials=trials, seed=seed,
        threads=threads, title=title, command=command, backend=backend, scheduler=scheduler,
        force=force, matrix_rows=matrix_rows, matrix_cols=matrix_cols,
        sensitivity=list(sens_params) or None, sensitivity_method=sensitivity_method,
    )  # fmt: skip
    _echo(f"wrote {path} and {path.with_suffix('.md')}")


def _attack_command():
    """``attack``: the exact odds of one attack, of a scenario's member on another
    (``attack SCENARIO --attacker A --target T``) or, for a system with a flag form, from
    numbers on the command line (Fuzion: ``attack --av 11 --dv-base 9 --dc 4``)."""

    def attack(scenario, attacker, target, system_name, rows, as_json, set_texts, **flags):
        given = {k: v for k, v in flags.items() if v not in (None, False)}
        if scenario is not None:
            if not attacker or not target:
                raise FuzionSimError("attack SCENARIO needs --attacker NAME and --target NAME")
            overrides = _scenario_attack_overrides(scenario, given) + _set_overrides(set_texts)
            sc = _load(scenario, overrides)
            answer = _api().exact_attack(sc, attacker, target)
            if as_json:
                _dump(answer)
                return
            from .report.text import render_answer

            render_answer(f"{attacker} attacks {target} (exact)", answer, rows)
            return
        if attacker or target or set_texts:
            raise FuzionSimError("--attacker, --target and --set need a SCENARIO")
        system = _system(system_name)
        flag_options = _attack_flag_options()
        names = {o.name for o in flag_options[system.name]}
        foreign = [k for k in given if k not in names]
        if foreign or not flag_options[system.name]:
            raise FuzionSimError(
                f"system {system.name} has no flag form of attack"
                if not flag_options[system.name]
                else f"--{foreign[0].replace('_', '-')} is not an attack flag of {system.name}"
            )
        system.flag_attack({k: flags.get(k) for k in names}, rows=rows, as_json=as_json,
                           dump=_dump)  # fmt: skip

    params = [
        click.Argument(["scenario"], required=False),
        click.Option(["--attacker"], help="With SCENARIO: the attacking member."),
        click.Option(["--target"], help="With SCENARIO: the member attacked."),
        click.Option(["--system", "system_name"], metavar="NAME",
                     help="The flag form's rule system (default: fuzion)."),
        click.Option(["--rows"], type=click.IntRange(min=2), default=30, show_default=True,
                     help="Most rows per distribution table; the outcomes past them are merged."),
        click.Option(["--json", "as_json"], is_flag=True,
                     help="One JSON object on stdout (every outcome)."),
        click.Option(["--set", "set_texts"], multiple=True, metavar="KEY=VALUE",
                     help="With SCENARIO: change it first, as run --set; repeatable."),
    ]
    seen = {p.name for p in params}

    def later_options():
        """The flag form's options of every system, then run's rule shortcuts."""
        out = []
        for options in _attack_flag_options().values():
            for option in options:
                if option.name not in seen:
                    out.append(option)
                    seen.add(option.name)
        for flag, by_system in sorted(_flag_switches().items()):
            if flag.replace("-", "_") not in seen:
                words = _shortcut_words(by_system)
                out.append(click.Option([f"--{flag}"], help=f"With SCENARIO: as run --{flag}.",
                                        type=click.Choice(words) if words else str))  # fmt: skip
                seen.add(flag.replace("-", "_"))
        return out

    params.append(_Later(later_options))
    return _Command("attack", callback=attack, params=params, help=_attack_command.__doc__)


@functools.cache
def _attack_flag_options() -> dict:
    """{system: the options of its flag form of ``attack``}."""
    from .systems import get_system, system_names

    return {name: get_system(name).attack_flags() for name in system_names()}


def _scenario_attack_overrides(path: str, given: dict) -> list:
    """The options given to ``attack SCENARIO`` as overrides of the scenario, as ``run`` takes
    them: a rule-switch shortcut (``--dice``) or a flag-form option named as one of the
    system's rule switches (``--criticals``) sets that switch; any other flag-form option is
    an error."""
    from .systems import get_system

    system = _system_of(path)
    switches = get_system(system).switches if system in _system_names() else {}
    shortcuts = _flag_switches()
    out = []
    for name, value in given.items():
        flag = name.replace("_", "-")
        if flag in shortcuts:
            out += _flag_overrides(path, {flag: value})
        elif name in switches:
            out.append((f"rules.{name}", value, f"--{flag} {value}"))
        else:
            raise FuzionSimError(
                f"--{flag} is for the flag form (no SCENARIO); with a scenario, change it with "
                "--set KEY=VALUE (e.g. --set sides.blue[0].armor.pd=10)"
            )
    return out


def _system_names() -> list:
    from .systems import system_names

    return list(system_names())


cli.add_command(_attack_command())


@cli.command()
@click.argument("scenario")
@_override_options
def validate(scenario, overrides):
    """Check SCENARIO and print what it resolves to."""
    from .systems import get_system

    sc = _load(scenario, overrides)
    system = get_system(sc.system)
    _echo(f"{scenario}: ok: {sc.name!r}, system {sc.system}, {sc.trials} trials, seed {sc.seed}")
    for side, members in sc.sides.items():
        for c in members:
            _echo(f"  {side}: {system.describe_member(c)}")
    plan = system.compile(sc)
    if system.describe_plan(plan):
        _echo(f"  {system.describe_plan(plan)}")
    if _exact_available(system, sc):
        words = ["fuzion-sim", "exact", scenario]
        for *_kv, option in overrides:
            flag, _, rest = option.partition(" ")
            words += [flag, rest]
        _echo("  an exact answer is available: " + shlex.join(words))


def _exact_available(system, scenario) -> bool:
    from .systems.base import NotAvailable

    try:
        system.exact_check(scenario)
    except NotAvailable:
        return False
    return True


@cli.command()
@click.argument("kind", required=False)
@click.option("--system", "system_name", metavar="NAME",
              help="The rule system (default: fuzion); see `fuzion-sim systems`.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def catalog(kind, system_name, as_json):
    """List a rule system's catalogue of KIND (weapons, armor, skills, ...)."""
    system = _system(system_name)
    kinds = system.catalogue_kinds
    kind = kind or (kinds[0] if kinds else None)
    if kind not in kinds:
        from .errors import did_you_mean

        hint = did_you_mean(str(kind), kinds)
        raise FuzionSimError(
            f"unknown catalogue {kind!r} of system {system.name} (it has {', '.join(kinds)})"
            + (f"; did you mean {hint!r}?" if hint else "")
        )
    entries = system.catalogue(kind)
    if as_json:
        _dump({kind: entries})
        return
    from .report.text import render_catalog

    render_catalog(kind, entries, system.catalogue_columns.get(kind))


def _system(name: str | None):
    """The system called ``name`` (default: the registry's default), or a one-line error."""
    from .errors import did_you_mean
    from .systems import DEFAULT_SYSTEM, get_system, system_names

    name = name or DEFAULT_SYSTEM
    if name not in system_names():
        hint = did_you_mean(name, system_names())
        raise FuzionSimError(f"unknown system {name!r} (systems: {', '.join(system_names())})"
                             + (f"; did you mean {hint!r}?" if hint else ""))  # fmt: skip
    return get_system(name)


@cli.command()
def systems():
    """List the rule systems a scenario may name (``system:``)."""
    from .systems import system_names

    for name in system_names():
        _echo(f"{name}: {_system(name).title}")


@cli.command()
@click.option("--system", "system_name", metavar="NAME", help="The rule system (default: fuzion).")
def schema(system_name):
    """Print the JSON Schema of a system's scenario files (for editors: yaml-language-server)."""
    from .scenario.schema import scenario_schema

    click.echo(json.dumps(scenario_schema(_system(system_name)), indent=1))


@cli.command()
@click.argument("scenario")
@_override_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def exact(scenario, overrides, as_json):
    """The exact answer to SCENARIO's fight, where its rule system can solve it."""
    sc = _load(scenario, overrides)
    answer = _api().exact_fight(sc)
    if as_json:
        _dump(answer)
        return
    from .report.text import render_exact

    render_exact(answer)


@cli.command()
@click.argument("scenario")
@click.option("--trial", type=click.IntRange(min=0), required=True, help="0-based trial number.")
@click.option("--seed", type=_SEED, help="Override the scenario's seed.")
@_override_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def replay(scenario, trial, seed, overrides, as_json):
    """Play trial K of SCENARIO blow by blow, exactly as the bulk run recorded it."""
    res = _api().replay(_load(scenario, overrides), trial, seed=seed)
    if as_json:
        _dump({k: v for k, v in res.items() if k != "lines"})
        return
    _echo(f"{res['scenario']}: trial {res['trial']} of seed {res['seed']}")
    for line in res["lines"]:
        _echo(line)


@cli.command()
@click.argument("scenarios", nargs=-1, metavar="[SCENARIO]...")
@click.option("--workers", type=click.IntRange(min=1), help="Processes compiling at once "
              "(default: the cores).")  # fmt: skip
def warm(scenarios, workers):
    """Compile the kernels SCENARIO... need (default: one shipped example of each kernel) ahead
    of their first run.

    A kernel is compiled on its first use and kept in numba's cache beside the package, so a
    first run waits for it (Fuzion's general kernel about 70 s of CPU for a
    fight of people, four minutes for one with vehicles, on 2 cores) and every later one
    does not. Run this once after installing or upgrading, or before a demonstration.
    """
    from pathlib import Path

    from .warm import warm as compile_ahead

    paths = [Path(s) for s in scenarios]
    for path in paths:
        _load(str(path))  # a bad file: its one clear message before anything compiles
    if not paths:
        paths = sorted((Path(__file__).parent / "examples").glob("**/*.yaml"))
    took = compile_ahead(paths, workers, every=bool(scenarios))
    _echo(f"kernels of {len(paths)} scenario{'s' * (len(paths) != 1)} ready in {took:.0f} s")


@cli.command()
@click.argument("directory", default=".", required=False, metavar="[DIR]")
@click.option("--force", is_flag=True, help="Overwrite example files that differ from the shipped.")
def examples(directory, force):
    """Copy the shipped example scenarios into DIR/scenarios/ (default: here), with the
    scenario schemas beside them in DIR/schemas/.

    The documentation's commands (``fuzion-sim run scenarios/marshal-vs-outlaw.yaml``) then
    work in DIR, and each file's schema line (``../schemas/...``) finds its schema, so
    an editor with the YAML language server checks and completes it. A file already there
    with the same text is left alone; one that differs is an error unless --force.
    """
    from importlib import resources
    from pathlib import Path

    package = resources.files("fuzion_sim")
    copies = [(f"scenarios/{name}", data) for name, data in _tree(package / "examples")]
    copies += [(f"schemas/{name}", data) for name, data in _tree(package / "schemas")
               if name.endswith(".schema.json")]  # fmt: skip
    root = Path(directory)
    if root.exists() and not root.is_dir():
        raise FuzionSimError(f"{shorten(directory)}: not a folder")
    differing = [rel for rel, data in copies
                 if (root / rel).is_file() and (root / rel).read_bytes() != data]  # fmt: skip
    if differing and not force:
        raise FuzionSimError(
            f"{differing[0]} (in {shorten(directory)}): differs from the shipped example"
            + (f" (and {len(differing) - 1} more)" if len(differing) > 1 else "")
            + "; give --force to overwrite"
        )
    written = 0
    try:
        for rel, data in copies:
            path = root / rel
            if path.is_file() and path.read_bytes() == data:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written += 1
    except OSError as err:
        raise FuzionSimError(f"{shorten(str(err.filename or directory))}: cannot write: "
                             f"{err.strerror or err}") from None  # fmt: skip
    scenarios = sum(rel.startswith("scenarios/") for rel, _ in copies)
    _echo(f"{root / 'scenarios'}: {scenarios} example scenarios, schemas in "
          f"{root / 'schemas'} (files written: {written})")  # fmt: skip
    _echo(f"try: fuzion-sim run {shlex.quote(str(root / 'scenarios' / 'marshal-vs-outlaw.yaml'))}")


def _tree(folder, prefix: str = "") -> list:
    """``(relative path, bytes)`` of every file under a package folder, in name order."""
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir():
            out += _tree(entry, f"{prefix}{entry.name}/")
        elif entry.is_file():
            out.append((f"{prefix}{entry.name}", entry.read_bytes()))
    return out


def _starter_names(ctx, param, incomplete) -> list:
    """The systems with a starter scenario, for shell completion (no system is imported)."""
    from importlib import resources

    starters = resources.files("fuzion_sim") / "starters"
    names = sorted(e.name.removesuffix(".yaml") for e in starters.iterdir()
                   if e.name.endswith(".yaml"))  # fmt: skip
    return [n for n in names if n.startswith(incomplete)]


@cli.command()
@click.argument("system_name", metavar="SYSTEM", shell_complete=_starter_names)
@click.argument("file", required=False)
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new(system_name, file, force):
    """Write a commented starter scenario of SYSTEM (fuzion, colour, fudge) to FILE, or print
    it when no FILE is given.

    Its schema line names the nearest ``schemas/`` folder above FILE that holds the system's
    schema (as ``fuzion-sim examples`` writes one), else the schema installed with the package.
    """
    from importlib import resources
    from pathlib import Path

    system = _system(system_name)
    starters = resources.files("fuzion_sim") / "starters"
    starter = starters / f"{system.name}.yaml"
    if not starter.is_file():
        have = sorted(e.name.removesuffix(".yaml") for e in starters.iterdir()
                      if e.name.endswith(".yaml"))  # fmt: skip
        raise FuzionSimError(f"system {system.name} has no starter scenario (starters: "
                             f"{', '.join(have)})")  # fmt: skip
    schema_name = f"{system.name}.schema.json"
    schema = Path(str(resources.files("fuzion_sim") / "schemas" / schema_name)).resolve()
    path = Path(file) if file else None
    if path is not None:
        for folder in _folders(path):
            if (folder / "schemas" / schema_name).is_file():
                schema = Path(os.path.relpath(folder / "schemas" / schema_name,
                                              path.absolute().parent))  # fmt: skip
                break
    text = starter.read_text(encoding="utf-8")
    text = text.replace("{schema}", schema.as_posix()).replace("{file}", file or "FILE.yaml")
    if path is None:
        click.echo(text, nl=False)
        return
    if path.exists() and not force:
        raise FuzionSimError(f"{shorten(file)}: exists; give --force to overwrite it")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise FuzionSimError(f"{shorten(file)}: cannot write: {err.strerror or err}") from None
    _echo(f"wrote {file}: a {system.name} starter scenario; try: fuzion-sim run "
          f"{shlex.quote(file)}")  # fmt: skip


def _folders(path):
    """The folder of ``path`` and every folder above it."""
    here = path.absolute().parent
    return [here, *here.parents]


for _command in (*STUDY_COMMANDS, explore_command):  # matrix, sensitivity, pareto; explore
    cli.add_command(_command)


def main(argv=None) -> None:
    """Console-script entry point (SIGTERM ends the command as Ctrl-C does)."""
    signals.terminate_as_interrupt()
    cli.main(args=argv, prog_name="fuzion-sim")


if __name__ == "__main__":
    main()
