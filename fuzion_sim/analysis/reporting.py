"""The report study: run a scenario (and, when asked, a comparison of variants, a sweep, a
balance table and a sensitivity study) and write it all as one report, ``index.md`` and a
self-contained ``index.html`` with the data as CSV (:mod:`fuzion_sim.report.build` writes the
document; this module runs what goes in it).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from .._args import (
    check_axes,
    check_engine,
    check_flag,
    check_out_dir,
    check_scenario,
    check_text,
    checked,
)
from ..errors import FuzionSimError
from ..limits import check_choice
from ..outdir import OutputDir
from ..report import alt_text, tables
from ..report.build import RESULT_SECTIONS, Document, regenerate_here, result_sections
from ..report.studies import matrix_section, sensitivity_section
from ..report.tables import (
    assumption_rows,
    assumptions_frame,
    comparison_frame,
    differences_frame,
    split_assumptions,
    sweep_frame,
)
from ..scenario.variants import as_base, axes_of
from . import simulation
from .compare import compare
from .matrix import matrix, parse_axis
from .sensitivity import parse_vary
from .sensitivity import sensitivity as run_sensitivity
from .simulation import check_run_args, engine_kwargs
from .sweep import sweep

__all__ = ["build_report"]


def _check_report(scenario, out_dir, vary, grid, trials, seed, threads, title, command, backend,
                  scheduler, force, matrix_rows=None, matrix_cols=None, sensitivity=None,
                  sensitivity_method="local"):  # fmt: skip
    check_scenario(scenario)
    check_out_dir("out_dir", out_dir)
    check_axes("vary", vary, optional=True)
    check_axes("grid", grid, optional=True)
    check_run_args(trials, seed, threads)
    check_text("title", title)
    check_text("command", command)
    check_engine(backend, scheduler)
    check_flag("force", force)
    check_choice("sensitivity_method", sensitivity_method, ("local", "sobol"))


@checked(_check_report)
def build_report(
    scenario,
    out_dir,
    vary=None,
    grid=None,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    title: str | None = None,
    command: str | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    force: bool = False,
    matrix_rows=None,
    matrix_cols=None,
    sensitivity=None,
    sensitivity_method: str = "local",
) -> Path:
    """Run a scenario (and optionally a comparison, a sweep, a balance table and a sensitivity
    study) and write a report.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    out_dir : path
        The report folder (created): ``index.md``, ``index.html``, PNGs and CSVs, written
        together once everything has run (see :class:`~fuzion_sim.outdir.OutputDir`).
    vary : dict, list of (key_path, values) or list of str, optional
        Variants to compare (cross product, first is the baseline), as for ``compare``
        (``["rules.dice=hero,interlock"]`` works too).
    grid : dict, list of (key_path, values) or list of str, optional
        A sweep to include (results in ``sweep/``, resumable), as for ``sweep``.
    trials, seed, threads, backend, scheduler :
        Run options.
    title : str, optional
        Report title (default: the scenario's name).
    command : str, optional
        The command that regenerates the report, shown in it (as code).
    force : bool
        Overwrite files in ``out_dir`` that the tool did not write.
    matrix_rows, matrix_cols : str or (str, values), optional
        A balance table to include (both or neither), as for ``matrix``:
        ``"sides.blue[0].armor.pd=4,8"``; run with the report's trials and seed, shown as a
        section with its heatmap, its cells in ``matrix_cells.csv`` and ranking in
        ``matrix_ranked.csv``.
    sensitivity : list of str, optional
        Parameters of a sensitivity study to include (``["sides.red[0].stats.DEX=3:7"]``), as
        for ``sensitivity --vary``; run with the report's trials and seed, shown with its
        tornado chart and its table in ``sensitivity.csv``.
    sensitivity_method : {'local', 'sobol'}
        Stat weights by paired finite differences (a few runs: quick) or Sobol indices.

    Returns
    -------
    pathlib.Path
        ``out_dir / "index.html"``.

    Raises
    ------
    FuzionSimError
        An output-folder problem (before anything runs when it can be seen then).
    """
    base = as_base(scenario)
    sc = base.build()
    _check_studies(base, matrix_rows, matrix_cols, sensitivity, sensitivity_method)
    out = OutputDir(out_dir, force=force)
    for name in ("index.md", "index.html"):
        out.check(name)  # fail now, not after the runs
    if grid:
        out.check_dir("sweep")
    with out, out.staging(replace=True) as stage:
        studies = (matrix_rows, matrix_cols, sensitivity, sensitivity_method)
        _write_report(base, sc, out.root, stage, vary, grid, trials, seed, threads, title,
                      command, backend, scheduler, force, studies=studies)  # fmt: skip
    return out.root / "index.html"


def _check_studies(base, matrix_rows, matrix_cols, sensitivity, method) -> None:
    """Refuse a half-given balance table or a bad study parameter before anything runs."""
    if (matrix_rows is None) != (matrix_cols is None):
        raise FuzionSimError("a balance table needs both --matrix-rows and --matrix-cols")
    if matrix_rows is not None:
        parse_axis(base, matrix_rows)
        parse_axis(base, matrix_cols)
    if method not in ("local", "sobol"):
        raise FuzionSimError(f"sensitivity method must be local or sobol, got {method!r}")
    for item in sensitivity or ():
        parse_vary(base, item)


def _study_sections(doc: Document, base, studies, trials, seed, threads, backend,
                    scheduler) -> None:  # fmt: skip
    """The balance table and the sensitivity study of the report, each run with the report's
    trials and seed (see :mod:`fuzion_sim.report.studies`)."""
    rows, cols, params, method = studies
    run = {"trials": trials, "seed": seed, "threads": threads, "backend": backend,
           "scheduler": scheduler}  # fmt: skip
    if rows is not None:
        matrix_section(doc, matrix(base, rows, cols, **run))
    if params:
        sensitivity_section(doc, run_sensitivity(base, list(params), method=method, **run))


def _write_report(base, sc, folder: Path, stage: Path, vary, grid, trials, seed, threads, title,
                  command, backend, scheduler, force, studies=(None, None, None, "local"),
                  ) -> None:  # fmt: skip
    """Run everything and write the report's files into ``stage`` (the sweep into
    ``folder / "sweep"``, its own output folder)."""
    import pandas as pd

    from ..report.plots import comparison_plots

    engine = engine_kwargs(backend, scheduler)
    cmp = None
    if vary:
        cmp = compare(base, vary, trials=trials, seed=seed, threads=threads,
                      backend=backend, scheduler=scheduler)  # fmt: skip
        # the sections after the comparison show its baseline, the first variant
        result, sc = cmp.results[0], base.build(list(cmp.values[0].items()))
    else:
        result = simulation.simulate(sc, trials=trials, seed=seed, threads=threads,
                                     keep_trials=None, progress=False, **engine)  # fmt: skip
    doc = Document(stage)
    title = title or result.scenario
    doc.h(1, title)
    prov = result.provenance_dict()
    doc.items(
        [f"fuzion_sim {prov['version']}, system {prov['system']}",
         f"{prov['trials']:,} trials, seed {prov['seed']}, scenario hash {prov['scenario_hash']}",
         f"source: {base.source or '(in memory)'}"],
        code={"regenerate (run in this report's folder)": regenerate_here(command, folder)}
        if command else None,
    )  # fmt: skip
    baseline = None
    if cmp is not None:
        doc.h(2, "Comparison")
        varied = ", ".join(sorted({k for v in cmp.values for k in v}))
        doc.p(
            f"Varied: {varied}. Variants run on common random numbers (the same seed: trial k "
            "of every variant starts from the same random stream); differences are each "
            "variant minus the first (the baseline), with paired 95% intervals."
        )
        doc.items(cmp.verdicts())
        baseline = cmp.labels[0]
        doc.p(
            f"Every variant appears in this section only. The sections after it "
            f"({', '.join(RESULT_SECTIONS[:-1])}, and what the rules count) show the baseline, "
            f"{baseline}, alone; the assumptions and the scenario are the baseline's too."
        )
        doc.table(comparison_frame(cmp), cmp.to_frame(), "comparison.csv")
        counted = tables.comparison_counters_frame(cmp)
        if not counted.empty:
            doc.p("What the rules count, as the probability that it happened at all in a "
                  "fight, variant by variant (means: comparison.csv and each variant's run).")
            doc.table(counted)
        doc.table(differences_frame(cmp), cmp.differences_frame(), "differences.csv")
        if tables.ks_note(cmp):
            doc.p(tables.ks_note(cmp))
        for path, caption, alt in zip(
            comparison_plots(cmp, stage),
            ["Win probability by variant (95% intervals)", "Kill time by variant"],
            alt_text.comparison_alt(cmp),
            strict=True,
        ):
            doc.image(path, caption, alt)
    result_sections(doc, result, baseline=baseline)
    if grid:
        notes: list[str] = []
        table = sweep(base, grid, out_dir=folder / "sweep", trials=trials, seed=seed,
                      threads=threads, backend=backend, scheduler=scheduler,
                      force=force, warn=notes.append)  # fmt: skip
        keys = table.attrs["axes"]
        doc.h(2, "Sweep")
        doc.p(f"Every point of the grid over {', '.join(keys)}, on common random numbers.")
        if notes:
            doc.p("Warnings of the points (also in the table's warnings column):")
            doc.items(notes)
        doc.table(sweep_frame(table, keys), table, "sweep.csv")
        for png in sorted((folder / "sweep").glob("*.png")):
            caption = f"Sweep over {', '.join(keys)}"
            doc.image(png, caption, alt_text.sweep_alt(table, keys, png.name),
                      rel=f"sweep/{png.name}")  # fmt: skip
    _study_sections(doc, base, studies, trials, seed, threads, backend, scheduler)
    doc.h(2, "Assumptions" + (f" (baseline: {baseline})" if baseline else ""))
    rows = assumption_rows(result, sc)
    varied = {k.split(".", 1)[1] for axis in (cmp.values if cmp else []) for k in axis
              if k.startswith("rules.")}  # fmt: skip
    varied |= {str(k).split(".", 1)[1] for k, _v in (axes_of(grid) if grid else [])
               if str(k).startswith("rules.")}  # fmt: skip
    shown, folded = split_assumptions(rows, varied)
    knows = any(r["inert_known"] for r in rows)
    which = "off their defaults" + (", compared or swept" if varied else "") + (
        " or able to change this fight" if knows else "")
    doc.p(
        f"The rule switches {which} "
        f"({len(shown)} of {len(rows)}; each ruling is explained in the documentation's rulings "
        f"pages); max rounds {sc.max_rounds}. "
        "assumptions.csv lists every switch."
    )
    if shown:
        doc.table(assumptions_frame(result, shown))
    if folded:
        why = ("at their defaults and unable to change this fight" if knows
               else "at their defaults")  # fmt: skip
        more = "more switches," if shown else "switches, all"
        doc.details(f"{len(folded)} {more} {why}", assumptions_frame(result, folded))
    doc.table_data(pd.DataFrame(rows).drop(columns=["inert_known"]), "assumptions.csv")
    doc.h(2, "Scenario")
    doc.code(yaml.safe_dump(sc.data, sort_keys=False, allow_unicode=True), "yaml")
    doc.write(title)
