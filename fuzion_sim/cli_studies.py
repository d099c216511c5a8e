"""The ``fuzion-sim`` commands and options of the studies beyond one fight.

``compare --until-decided`` (run until an anytime-valid interval settles a paired comparison),
``matrix`` (balance tables on common random numbers) and ``sensitivity`` (which parameter
matters). Parse, call the analysis, render; no rules here. Errors are the project's own
(:class:`~fuzion_sim.errors.FuzionSimError`): the command group prints one line and exits 2.
"""

from __future__ import annotations

import functools
import re

import click

from .cli_common import _SEED, _THREADS, _TRIALS, _base, _Command, _dump, _override_options
from .errors import FuzionSimError

__all__ = ["STUDY_COMMANDS", "parse_margin", "run_pareto_command", "until_decided_options"]

_MARGIN = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(pt|pts|points?|%)?\s*$")


def parse_margin(text: str) -> float:
    """``"1pt"``, ``"1%"``, ``"0.5"`` (percentage points) -> a probability (0.01, 0.01, 0.005).

    Raises
    ------
    FuzionSimError
        Not a number of points, or not above 0 and below 100.
    """
    m = _MARGIN.match(str(text))
    if not m:
        raise FuzionSimError(f"--margin must be percentage points such as 1pt or 0.5, got {text!r}")
    points = float(m.group(1))
    if not 0 < points < 100:
        raise FuzionSimError(f"--margin must be above 0 and below 100 points, got {text!r}")
    return points / 100


# --- compare --until-decided -------------------------------------------------------------------
_SEQ_OPTIONS = ("until_decided", "margin", "side", "chunk")
#: The compare options the sequential run understands (any other given is an error).
_SEQ_PASSES = (
    "scenario",
    "varies",
    "overrides",
    "trials",
    "seed",
    "threads",
    "independent",
    "backend",
    "scheduler",
    "as_json",
)


def until_decided_options(func):
    """``--until-decided``, ``--margin``, ``--side`` and ``--chunk`` for ``compare``: with
    ``--until-decided`` the command runs :func:`~fuzion_sim.analysis.sequential.
    compare_until_decided` (``--trials`` is then the cap on trials per variant) instead of a
    fixed-size comparison."""

    @functools.wraps(func)
    def wrapper(*args, until_decided=False, margin=None, side=None, chunk=None, **kwargs):
        if not until_decided:
            given = [n for n, v in (("margin", margin), ("side", side), ("chunk", chunk)) if v]
            if given:
                raise FuzionSimError(f"--{given[0]} needs --until-decided")
            return func(*args, **kwargs)
        extra = [
            k for k, v in kwargs.items() if k not in _SEQ_PASSES and v not in (None, False, ())
        ]
        if extra:
            raise FuzionSimError(
                f"--{extra[0].replace('_', '-')} is not available with --until-decided"
            )
        return _until_decided(margin=margin, side=side, chunk=chunk, **kwargs)

    wrapper = click.option(
        "--chunk",
        type=click.IntRange(100, 10_000_000),
        metavar="N",
        help="With --until-decided: trials per variant added at each look (default 10,000).",
    )(wrapper)
    wrapper = click.option(
        "--side",
        help="With --until-decided: whose win probability is compared (default: the first side).",
    )(wrapper)
    wrapper = click.option(
        "--margin",
        metavar="POINTS",
        help="With --until-decided: also stop "
        "when the difference is within this many points (1pt).",
    )(wrapper)
    return click.option(
        "--until-decided",
        is_flag=True,
        help="Add common-random-number chunks "
        "until an anytime-valid interval of the difference excludes zero or lies "
        "within --margin; --trials is the cap (default 1,000,000).",
    )(wrapper)


def _until_decided(
    scenario,
    varies,
    overrides,
    trials,
    seed,
    threads,
    independent,
    backend,
    scheduler,
    as_json,
    margin,
    side,
    chunk,
    **_,
):
    from .analysis.sequential import DEFAULT_CAP, DEFAULT_CHUNK, compare_until_decided
    from .scenario.variants import parse_assignment

    if not varies:
        raise FuzionSimError("give at least one --vary KEY=VALUES")
    axes = [parse_assignment(t) for t in varies]
    base = _base(scenario, overrides)[0]

    def note(look):
        if not as_json:
            click.echo(
                f"[{look['trials']:,} trials] {100 * look['estimate']:+.2f} pt "
                f"({100 * look['low']:+.2f} to {100 * look['high']:+.2f})",
                err=True,
            )

    seq = compare_until_decided(
        base,
        axes,
        side=side,
        margin=None if margin is None else parse_margin(margin),
        chunk=chunk or DEFAULT_CHUNK,
        max_trials=trials or DEFAULT_CAP,
        seed=seed,
        threads=threads,
        common_random_numbers=not independent,
        backend=backend,
        scheduler=scheduler,
        on_look=note,
    )
    if as_json:
        _dump(seq.to_json_dict())
        return
    click.echo(
        f"{seq.scenario}: P({seq.side} wins) {100 * seq.win_probability[0]:.1f}% with "
        f"{seq.labels[0]}, {100 * seq.win_probability[1]:.1f}% with {seq.labels[1]}"
    )
    click.echo(f"Verdict ({seq.decision}): {seq.verdict()}")


# --- matrix ------------------------------------------------------------------------------------
@click.command(cls=_Command)
@click.argument("scenario")
@click.option(
    "--rows",
    metavar="KEY=SELECTOR",
    help="The rows: a key path and a list, a range or @catalog:KIND[FIELD=VALUE,...].",
)
@click.option("--cols", metavar="KEY=SELECTOR", help="The columns, as --rows.")
@click.option(
    "--round-robin",
    "templates",
    metavar="FILE",
    help="A YAML list of members: every "
    "one against every other (first member of each side), instead of --rows/--cols.",
)
@click.option(
    "--metric",
    type=click.Choice(["win_probability", "p_dead", "kill_time_mean"]),
    default="win_probability",
    show_default=True,
    help="What the table shows and ranks.",
)
@click.option("--side", help="Whose win probability (default: the first side).")
@click.option("--combatant", help="Whose P(dead) (with --metric p_dead).")
@click.option(
    "--cost",
    "costs",
    metavar="FILE|@catalog",
    help="Item costs (a YAML mapping of "
    "names to numbers, or @catalog for the catalogue's cost): a per-100-points view.",
)
@click.option("--trials", type=_TRIALS, help="Trials a cell.")
@click.option("--seed", type=_SEED, help="The seed every cell shares.")
@click.option("--threads", type=_THREADS, help="Cells run at once (default: all cores).")
@click.option(
    "-o",
    "--out",
    "out_dir",
    help="Write cells.csv, cells.parquet, ranked.csv, matrix.md and heatmap.png here.",
)
@click.option("--force", is_flag=True, help="Overwrite files in OUT that fuzion-sim did not write.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@_override_options
def matrix(
    scenario,
    overrides,
    rows,
    cols,
    templates,
    metric,
    side,
    combatant,
    costs,
    trials,
    seed,
    threads,
    out_dir,
    force,
    as_json,
):
    """A balance table of SCENARIO: every --rows item against every --cols item, on common
    random numbers, with intervals, dominated items flagged and cell warnings kept."""
    from .analysis.matrix import matrix as run_matrix
    from .analysis.matrix import round_robin
    base = _base(scenario, overrides)[0]
    if templates:
        if rows or cols:
            raise FuzionSimError("give --round-robin or --rows and --cols, not both")
        if combatant:
            raise FuzionSimError("--combatant does not apply to a round robin")
        mx = round_robin(
            base,
            templates,
            metric=metric,
            side=side,
            trials=trials,
            seed=seed,
            threads=threads,
            costs=costs,
        )
    else:
        if not rows or not cols:
            raise FuzionSimError(
                "give --rows KEY=SELECTOR and --cols KEY=SELECTOR (or --round-robin FILE)"
            )
        mx = run_matrix(
            base,
            rows,
            cols,
            metric=metric,
            side=side,
            combatant=combatant,
            trials=trials,
            seed=seed,
            threads=threads,
            costs=costs,
        )
    written = mx.write(out_dir, force=force) if out_dir else []
    if as_json:
        _dump(mx.to_json_dict())
        return
    _render_matrix(mx, written)


def _render_matrix(mx, written) -> None:
    click.echo(
        f"{mx.scenario}: {mx.label}, {len(mx.rows.items)} x {len(mx.cols.items)} cells "
        f"of {mx.trials:,} trials on common random numbers ({mx.elapsed:.1f} s)"
    )
    grid = mx.grid().map(mx.format)
    dom_r, dom_c = mx.dominated_rows(), mx.dominated_cols()
    grid.index = [f"{r} *" if r in dom_r else r for r in grid.index]
    grid.columns = [f"{c} *" if c in dom_c else c for c in grid.columns]
    with __import__("pandas").option_context("display.width", 200, "display.max_columns", 50):
        click.echo(grid.to_string())
        click.echo("")
        click.echo(mx.ranked().to_string(index=False))
    for item, by in {**dom_r, **dom_c}.items():
        click.echo(
            f"* {item} is dominated by {by} (no better in any cell, worse in one, at no lower cost)"
        )
    for (r, c), ws in mx.warnings.items():
        for w in ws:
            click.echo(f"warning: {r} x {c}: {w}")
    for path in written:
        click.echo(f"wrote {path}")


# --- sensitivity -------------------------------------------------------------------------------
@click.command(cls=_Command)
@click.argument("scenario")
@click.option(
    "--vary",
    "varies",
    multiple=True,
    metavar="KEY=LO:HI",
    help="A numeric key path and its range (LO:HI:STEP sets --local's step); repeat.",
)
@click.option(
    "--local",
    "local",
    is_flag=True,
    help="Stat weights at the scenario's values "
    "(paired finite differences) instead of Sobol indices over the ranges.",
)
@click.option(
    "--metric",
    type=click.Choice(["win_probability", "p_dead", "kill_time_mean"]),
    default="win_probability",
    show_default=True,
    help="The answer studied.",
)
@click.option("--side", help="Whose win probability (default: the first side).")
@click.option("--combatant", help="Whose P(dead) (with --metric p_dead).")
@click.option(
    "--samples",
    "n",
    type=int,
    default=64,
    show_default=True,
    help="Sobol base samples, a power of 2 (samples x (parameters + 2) runs).",
)
@click.option(
    "--trials",
    type=_TRIALS,
    help="Trials a run (default: the scenario's for --local, at most 2,000 for Sobol).",
)
@click.option("--seed", type=_SEED, help="The seed every run shares.")
@click.option("--threads", type=_THREADS, help="Runs at once (default: all cores).")
@click.option(
    "-o", "--out", "out_dir", help="Write sensitivity.csv, sensitivity.md and tornado.png here."
)
@click.option("--force", is_flag=True, help="Overwrite files in OUT that fuzion-sim did not write.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@_override_options
def sensitivity(
    scenario,
    overrides,
    varies,
    local,
    metric,
    side,
    combatant,
    n,
    trials,
    seed,
    threads,
    out_dir,
    force,
    as_json,
):
    """Which parameter of SCENARIO matters most: Sobol indices (first-order and total, with
    bootstrap intervals) or, with --local, stat weights with intervals; a tornado chart."""
    from .analysis.sensitivity import sensitivity as run_sensitivity
    base = _base(scenario, overrides)[0]
    sens = run_sensitivity(
        base,
        list(varies),
        method="local" if local else "sobol",
        metric=metric,
        side=side,
        combatant=combatant,
        trials=trials,
        seed=seed,
        threads=threads,
        n=n,
    )
    written = _write_sensitivity(sens, out_dir, force) if out_dir else []
    if as_json:
        _dump(sens.to_json_dict())
        return
    click.echo(f"{sens.scenario}: {sens.title()} ({sens.elapsed:.1f} s)")
    for sentence in sens.sentences():
        click.echo(f"  {sentence}")
    for path in written:
        click.echo(f"wrote {path}")


def _write_sensitivity(sens, out_dir, force) -> list:
    from .outdir import OutputDir
    from .report.studies import sensitivity_markdown, tornado_figure

    out = OutputDir(out_dir, force=force)
    names = ["sensitivity.csv", "sensitivity.md", "tornado.png"]
    for name in names:
        out.check(name)
    with out, out.staging() as stage:
        sens.to_frame().to_csv(stage / "sensitivity.csv", index=False)
        (stage / "sensitivity.md").write_text(sensitivity_markdown(sens) + "\n", encoding="utf-8")
        tornado_figure(sens, stage / "tornado.png")
    return [out.root / n for n in names]


# --- pareto ------------------------------------------------------------------------------------
@click.command(cls=_Command)
@click.argument("scenario")
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=LO:HI",
    help="A numeric lever and its range; repeat.",
)
@click.option(
    "--goal",
    "goals",
    multiple=True,
    metavar="METRIC[WHO]=TARGET|LO:HI|<=X|>=X",
    help="E.g. win_probability[red]=45%:55%, p_dead[Marshal]<=5%, kill_time_mean=4:6; repeat.",
)
@click.option(
    "--budget",
    type=click.IntRange(2, 100_000),
    default=256,
    show_default=True,
    help="Most points run (the whole box when it is no larger).",
)
@click.option(
    "--finalists",
    type=click.IntRange(1, 1000),
    default=10,
    show_default=True,
    help="Front points re-run on a fresh seed.",
)
@click.option(
    "--trials", type=_TRIALS, help="Trials a point (default: the scenario's, at most 5,000)."
)
@click.option("--seed", type=_SEED, help="The seed every point shares.")
@click.option("--threads", type=_THREADS, help="Points run at once (default: all cores).")
@click.option(
    "-o",
    "--out",
    "out_dir",
    help="Write points.csv, front.csv, rechecked.csv, pareto.md and pareto.png here.",
)
@click.option("--force", is_flag=True, help="Overwrite files in OUT that fuzion-sim did not write.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@_override_options
def pareto(scenario, overrides, params, goals, budget, finalists, trials, seed, threads, out_dir,
           force, as_json):  # fmt: skip
    """Several levers, several goals: the trade-offs (Pareto front) of SCENARIO, each finalist
    re-run on a fresh seed."""
    base = _base(scenario, overrides)[0]
    run_pareto_command(base, params, goals, budget=budget, finalists=finalists, trials=trials,
                       seed=seed, threads=threads, out_dir=out_dir, force=force,
                       as_json=as_json)  # fmt: skip


def run_pareto_command(base, params, goals, *, budget=None, finalists=None, trials=None,
                       seed=None, threads=None, out_dir=None, force=False, as_json=False,
                       backend=None, scheduler=None) -> None:  # fmt: skip
    """Run the Pareto search and print its front (or its JSON), as ``pareto`` does; shared by
    ``pareto`` and ``balance`` with several ``--param`` or a ``--goal``.

    Parameters
    ----------
    base : fuzion_sim.scenario.variants.Base
    params, goals : sequence of str
        ``KEY=LO:HI`` levers and goals (see :func:`fuzion_sim.analysis.pareto.parse_goal`).
    budget, finalists : int, optional
        Most points run and front points re-run on a fresh seed (default: the analysis's).
    trials, seed, threads, backend, scheduler :
        Run options.
    out_dir : str, optional
        Write the points, front, finalists, Markdown and picture here.
    force, as_json : bool
        Overwrite foreign files in ``out_dir``; print one JSON object instead of text.
    """
    from .analysis.pareto import DEFAULT_BUDGET, DEFAULT_FINALISTS
    from .analysis.pareto import pareto as run_pareto

    res = run_pareto(
        base,
        list(params),
        list(goals),
        trials=trials,
        seed=seed,
        threads=threads,
        budget=DEFAULT_BUDGET if budget is None else budget,
        finalists=DEFAULT_FINALISTS if finalists is None else finalists,
        backend=backend,
        scheduler=scheduler,
    )
    written = _write_pareto(res, out_dir, force) if out_dir else []
    if as_json:
        _dump(res.to_json_dict())
        return
    click.echo(
        f"{res.scenario}: {len(res.front)} trade-offs on the front of {len(res.points)} "
        f"points ({res.searched}, {res.trials:,} trials a point, {res.elapsed:.1f} s); "
        f"finalists re-run on seed {res.recheck_seed}:"
    )
    for sentence in res.sentences():
        click.echo(f"  {sentence}")
    for path in written:
        click.echo(f"wrote {path}")


def _write_pareto(res, out_dir, force) -> list:
    from .outdir import OutputDir
    from .report.studies import pareto_figure, pareto_markdown

    out = OutputDir(out_dir, force=force)
    names = ["points.csv", "front.csv", "rechecked.csv", "pareto.md", "pareto.png"]
    for name in names:
        out.check(name)
    with out, out.staging() as stage:
        res.points.to_csv(stage / "points.csv", index=False)
        res.front.to_csv(stage / "front.csv", index=False)
        res.rechecked.to_csv(stage / "rechecked.csv", index=False)
        (stage / "pareto.md").write_text(pareto_markdown(res) + "\n", encoding="utf-8")
        pareto_figure(res, stage / "pareto.png")
    return [out.root / n for n in names]


STUDY_COMMANDS: list = [matrix, sensitivity, pareto]
