"""Rendered reports: ``index.md`` and a self-contained ``index.html`` (PNG plots embedded as
base64, also written next to it for the Markdown), plus the data as CSV.

A report holds the scenario echo, the assumptions (every effective rule switch), tables with
intervals and plots, and optionally a comparison of variants and a sweep.

Text from the scenario or the command (titles, names, values) is escaped in both documents:
HTML-escaped in ``index.html``, and in ``index.md`` HTML-escaped with Markdown's special
characters backslash-escaped, so it shows as written and never becomes markup. The files are
staged and committed together into an :class:`~fuzion_sim.outdir.OutputDir`.
"""

from __future__ import annotations

import base64
import html
import math
import re
from pathlib import Path

import yaml

__all__ = ["build_report", "md_escape", "md_table"]

#: Characters with a meaning in Markdown (CommonMark) that user text must not bring in.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~>])")


def md_escape(text) -> str:
    """``text`` for Markdown: on one line, HTML-escaped (``<b>`` shows as written, not as
    markup) and with Markdown's punctuation backslash-escaped."""
    one = " ".join(str(text).split())
    return _MD_SPECIAL.sub(r"\\\1", html.escape(one, quote=False))


def _md_code(text) -> str:
    """``text`` as a Markdown code span (a fence longer than any run of backticks in it)."""
    one = " ".join(str(text).split())
    fence = "`" * (max((len(r) for r in re.findall("`+", one)), default=0) + 1)
    return f"{fence} {one} {fence}"


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        return f"{v:.4g}" if abs(v) < 1e4 else f"{v:,.0f}"
    return str(v)


def md_table(frame) -> str:
    """A DataFrame as a GitHub Markdown table."""
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    cols = [md_escape(c) for c in cols]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(md_escape(_fmt(v)) for v in row) + " |")
    return "\n".join(lines)


def _html_table(frame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class _Doc:
    """Builds the Markdown and HTML side by side."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.md: list[str] = []
        self.html: list[str] = []

    def h(self, level: int, text: str):
        self.md.append(f"{'#' * level} {md_escape(text)}\n")
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")

    def p(self, text: str):
        self.md.append(md_escape(text) + "\n")
        self.html.append(f"<p>{html.escape(text)}</p>")

    def items(self, items: list[str], code: dict | None = None):
        """A bullet list; ``code`` maps a label to text shown as code after the items."""
        md = [f"- {md_escape(i)}" for i in items]
        htm = [f"<li>{html.escape(i)}</li>" for i in items]
        for label, text in (code or {}).items():
            md.append(f"- {md_escape(label)}: {_md_code(text)}")
            htm.append(f"<li>{html.escape(label)}: <code>{html.escape(text)}</code></li>")
        self.md.append("\n".join(md) + "\n")
        self.html.append("<ul>" + "".join(htm) + "</ul>")

    def code(self, text: str, lang: str = ""):
        fence = "`" * max(3, max((len(r) for r in re.findall("`+", text)), default=0) + 1)
        self.md.append(f"{fence}{lang}\n{text.rstrip()}\n{fence}\n")
        self.html.append(f"<pre><code>{html.escape(text)}</code></pre>")

    def table(self, frame, csv_name: str | None = None):
        self.md.append(md_table(frame) + "\n")
        self.html.append(f'<div class="scroll">{_html_table(frame)}</div>')
        if csv_name:
            frame.to_csv(self.folder / csv_name, index=False)
            self.md.append(f"Data: [{md_escape(csv_name)}]({csv_name})\n")
            self.html.append(f'<p class="data">Data: <a href="{csv_name}">{csv_name}</a></p>')

    def image(self, path: Path, alt: str, rel: str | None = None):
        """An image: ``path`` is read for the HTML; ``rel`` (default: ``path`` relative to the
        folder) is its link from the Markdown."""
        rel = rel or path.relative_to(self.folder).as_posix()
        self.md.append(f"![{md_escape(alt)}]({rel})\n")
        data = base64.b64encode(path.read_bytes()).decode()
        self.html.append(
            f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(alt)}</figcaption></figure>"
        )

    def write(self, title: str):
        (self.folder / "index.md").write_text("\n".join(self.md))
        style = (
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            "color:#222}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
            "padding:2px 8px;text-align:right}th{background:#f3f3f3}pre{background:#f7f7f7;"
            "padding:.8em;overflow:auto}img{max-width:100%}figure{margin:1em 0}"
            "figcaption{color:#666;font-size:90%}.data{font-size:90%}"
        )
        doc = (
            f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{style}</style></head><body>\n"
            + "\n".join(self.html)
            + "\n</body></html>\n"
        )
        (self.folder / "index.html").write_text(doc)


def _assumptions(result) -> list[dict]:
    from ..scenario.model import RULE_SWITCHES

    rows = []
    for key, value in result.rules.items():
        spec = RULE_SWITCHES.get(key)
        rows.append(
            {"switch": key, "value": value, "default": None if spec is None else spec[1],
             "ruling": None if spec is None else spec[2]}
        )  # fmt: skip
    return rows


def _result_sections(doc: _Doc, result, scenario, prefix: str = ""):
    import pandas as pd

    from .plots import kill_time_plot, survival_plot

    unit = result.time_unit["unit"]
    doc.h(2, "Who wins")
    wins = result.win_table()
    wins = wins[(wins["count"] > 0) | wins["outcome"].isin(result.sides)]
    doc.table(wins, f"{prefix}wins.csv")
    doc.h(2, "How long it takes")
    rows = []
    for u in (unit, "round", "second"):
        s = result.kill_time_summary(unit=u)
        if s["mean"] is None:
            continue
        q = s["quantiles"]
        rows.append(
            {"unit": u, "mean": s["mean"], "se": s["se"], "mean ci95": _ci(s["ci95"]),
             "sd": s["sd"], "median": q["0.5"]["value"], "median ci95": _ci(q["0.5"]["ci95"]),
             "5%": q["0.05"]["value"], "95%": q["0.95"]["value"], "decisive fights": s["n"]}
        )  # fmt: skip
    doc.p(
        f"Kill time is the {unit} in which a decisive fight ended (a {unit} is "
        f"{result.time_unit['seconds']:g} s; {result.time_unit.get('per_round')} {unit}s to a "
        "round). Mean: normal interval from the standard error; quantiles: distribution-free "
        "order-statistic intervals."
    )
    doc.table(pd.DataFrame(rows), f"{prefix}kill_time_summary.csv")
    pmf = result.kill_time_pmf().rename_axis(unit).reset_index()
    pmf.to_csv(doc.folder / f"{prefix}kill_time_pmf.csv", index=False)
    result.kill_time_cdf().to_csv(doc.folder / f"{prefix}kill_time_cdf.csv", index=False)
    doc.image(kill_time_plot(result, doc.folder / f"{prefix}kill_time.png"),
              "Kill-time histogram and CDF (95% bands)")  # fmt: skip
    doc.p(f"Data: {prefix}kill_time_pmf.csv, {prefix}kill_time_cdf.csv")
    doc.h(2, "Who stays standing")
    surv = result.survival()
    surv.to_csv(doc.folder / f"{prefix}survival.csv", index=False)
    doc.image(survival_plot(result, doc.folder / f"{prefix}survival.png"),
              "Survival curves per side and per combatant")  # fmt: skip
    doc.h(2, "Per combatant")
    stats = pd.DataFrame(result.combatant_stats())
    dmg = result.damage_table()
    downs = pd.DataFrame(result.down_times())
    table = (
        stats[["combatant", "side", "hit_rate", "attacks_mean"]]
        .merge(dmg, on=["combatant", "side"])
        .merge(downs, on=["combatant", "side"])
    )
    doc.table(table, f"{prefix}combatants.csv")
    first = result.first_down()
    if first and first["n"]:
        doc.p(
            f"First combatant down (any side): mean {first['mean']:.2f} {unit}s, "
            f"median {first['median']:g} ({first['n']:,} fights with someone down)."
        )


def _ci(ci) -> str:
    if ci[0] is None:
        return ""
    return f"{_fmt(float(ci[0]))} - {_fmt(float(ci[1]))}"


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
) -> Path:
    """Run a scenario (and optionally a comparison and a sweep) and write a report.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    out_dir : path
        The report folder (created): ``index.md``, ``index.html``, PNGs and CSVs, written
        together once everything has run (see :class:`~fuzion_sim.outdir.OutputDir`).
    vary : list of (key_path, values), optional
        Variants to compare (cross product, first is the baseline), as for ``compare``.
    grid : list of (key_path, values), optional
        A sweep to include (results in ``sweep/``, resumable).
    trials, seed, threads, backend, scheduler :
        Run options.
    title : str, optional
        Report title (default: the scenario's name).
    command : str, optional
        The command that regenerates the report, shown in it (as code).
    force : bool
        Overwrite files in ``out_dir`` that the tool did not write.

    Returns
    -------
    pathlib.Path
        ``out_dir / "index.html"``.

    Raises
    ------
    FuzionSimError
        An output-folder problem (before anything runs when it can be seen then).
    """
    from ..analysis.variants import as_base
    from ..api import check_run_args
    from ..outdir import OutputDir

    check_run_args(trials, seed, threads)
    base = as_base(scenario)
    sc = base.build()
    out = OutputDir(out_dir, force=force)
    for name in ("index.md", "index.html"):
        out.check(name)  # fail now, not after the runs
    if grid:
        out.check_dir("sweep")
    with out, out.staging() as stage:
        _write_report(base, sc, out.root, stage, vary, grid, trials, seed, threads, title,
                      command, backend, scheduler, force)  # fmt: skip
    return out.root / "index.html"


def _write_report(base, sc, folder: Path, stage: Path, vary, grid, trials, seed, threads, title,
                  command, backend, scheduler, force) -> None:  # fmt: skip
    """Run everything and write the report's files into ``stage`` (the sweep into
    ``folder / "sweep"``, its own output folder)."""
    import pandas as pd

    from ..analysis.compare import compare
    from ..analysis.sweep import sweep
    from ..analysis.variants import engine_kwargs
    from ..api import simulate
    from .plots import comparison_plots

    engine = engine_kwargs(backend, scheduler)
    result = simulate(sc, trials=trials, seed=seed, threads=threads, keep_trials=None,
                      progress=False, **engine)  # fmt: skip
    doc = _Doc(stage)
    title = title or result.scenario
    doc.h(1, title)
    prov = result.provenance_dict()
    doc.items(
        [f"fuzion_sim {prov['version']}, system {prov['system']}",
         f"{prov['trials']:,} trials, seed {prov['seed']}, scenario hash {prov['scenario_hash']}",
         f"source: {base.source or '(in memory)'}"],
        code={"regenerate": command} if command else None,
    )  # fmt: skip
    if vary:
        cmp = compare(base, vary, trials=trials, seed=seed, threads=threads,
                      backend=backend, scheduler=scheduler)  # fmt: skip
        doc.h(2, "Comparison")
        doc.p(
            "Variants run on common random numbers (the same seed: trial k of every variant "
            "starts from the same random stream); differences are variant minus the first "
            "(baseline), with paired 95% intervals."
        )
        doc.items(cmp.verdicts())
        doc.table(cmp.to_frame(), "comparison.csv")
        doc.table(cmp.differences_frame(), "differences.csv")
        for path, alt in zip(
            comparison_plots(cmp, stage),
            ["Win probability by variant", "Kill time by variant"],
            strict=True,
        ):
            doc.image(path, alt)
    _result_sections(doc, result, sc)
    if grid:
        table = sweep(base, grid, out_dir=folder / "sweep", trials=trials, seed=seed,
                      threads=threads, backend=backend, scheduler=scheduler,
                      force=force)  # fmt: skip
        doc.h(2, "Sweep")
        doc.table(table, "sweep.csv")
        for png in sorted((folder / "sweep").glob("*.png")):
            doc.image(png, f"Sweep: {png.stem}", rel=f"sweep/{png.name}")
    doc.h(2, "Assumptions")
    doc.p(f"Every effective rule switch (rulings from RULINGS.md); max rounds {sc.max_rounds}.")
    doc.table(pd.DataFrame(_assumptions(result)), "assumptions.csv")
    doc.h(2, "Scenario")
    doc.code(yaml.safe_dump(sc.data, sort_keys=False, allow_unicode=True), "yaml")
    doc.write(title)
