"""Rendered reports: ``index.md`` and a self-contained ``index.html`` (PNG plots embedded as
base64, also written next to it for the Markdown), plus the data as CSV.

A report holds the scenario echo, the assumptions (every effective rule switch), tables with
intervals and plots, and optionally a comparison of variants and a sweep. This module writes
the document (:class:`Document`) and a result's sections; the study that runs everything and
fills it is :func:`fuzion_sim.analysis.reporting.build_report`.

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

from . import alt_text, tables
from .html import STYLE, html_table

__all__ = ["RESULT_SECTIONS", "Document", "md_escape", "md_table", "regenerate_here",
           "result_sections"]

#: Characters that make markup in Markdown (CommonMark, GitHub tables) inside a line of text:
#: emphasis, code, links and images (``[``), table cells, strikethrough and headings; ``<``,
#: ``>`` and ``&`` are HTML-escaped. An underscore inside a word (``dying_can_act``) makes no
#: emphasis and parentheses make no link once ``[`` is escaped, so both are left as written.
_MD_SPECIAL = re.compile(r"([\\`*\[\]|~#]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


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


def _cell(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return str(v)


def md_table(frame) -> str:
    """A DataFrame of display strings as a GitHub Markdown table.

    Parameters
    ----------
    frame : pandas.DataFrame
        Cells as they should read (see :mod:`fuzion_sim.report.tables`).

    Returns
    -------
    str
    """
    cols = [md_escape(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(md_escape(_cell(v)) for v in row) + " |")
    return "\n".join(lines)


def regenerate_here(command: str, folder: Path) -> str:
    """``command`` (a shell-quoted ``fuzion-sim report ...``) as it runs from the report's
    folder, where a reader of the report is: the folder it writes to becomes ``.`` and every
    word naming an existing file (the scenario) a path relative to the folder (absolute when
    the two share no folder but the root).

    Parameters
    ----------
    command : str
        The command as typed, shell-quoted.
    folder : pathlib.Path
        The report's folder.

    Returns
    -------
    str
        Shell-quoted again, so every word stays one word when pasted.
    """
    import os
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return command
    here = Path(os.path.abspath(folder))  # links kept: scenarios/ names what the reader typed
    out = []
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        if before in ("-o", "--out"):
            out.append(".")
        elif i >= 2 and not word.startswith("-") and before not in ("--title",) and (
                Path(word).is_file()):  # fmt: skip
            target = Path(os.path.abspath(word))
            shared = Path(os.path.commonpath([target, here]))
            # relative within a shared project folder; absolute when only the root is shared
            out.append(target.as_posix() if shared == Path(shared.anchor)
                       else os.path.relpath(target, here))  # fmt: skip
        else:
            out.append(word)
    return shlex.join(out)


class Document:
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

    def table(self, display, data=None, csv_name: str | None = None):
        """A table as it reads (``display``), and ``data`` (raw numbers) saved as CSV."""
        self.md.append(md_table(display) + "\n")
        self.html.append(html_table(display))
        if csv_name:
            (display if data is None else data).to_csv(self.folder / csv_name, index=False)
            self.data([csv_name])

    def table_data(self, data, csv_name: str):
        """Only the data of a table (shown elsewhere, or folded), saved and linked."""
        data.to_csv(self.folder / csv_name, index=False)
        self.data([csv_name])

    def details(self, summary: str, display, data=None, csv_name: str | None = None):
        """A table folded away under a one-line ``summary`` (HTML ``<details>``, which
        GitHub's Markdown shows folded too)."""
        self.md.append(f"<details><summary>{html.escape(summary)}</summary>\n\n"
                       + md_table(display) + "\n\n</details>\n")  # fmt: skip
        self.html.append(f"<details><summary>{html.escape(summary)}</summary>"
                         f"{html_table(display)}</details>")  # fmt: skip
        if csv_name:
            (display if data is None else data).to_csv(self.folder / csv_name, index=False)

    def block(self, md: str, htm: str):
        """A block rendered elsewhere (a study's own Markdown and HTML views), as it is."""
        self.md.append(md.rstrip() + "\n")
        self.html.append(htm)

    def data(self, names: list[str]):
        """A line of links to data files in the report folder."""
        self.md.append("Data: " + ", ".join(f"[{n}]({n})" for n in names) + "\n")  # our names
        links = ", ".join(f'<a href="{html.escape(n)}">{html.escape(n)}</a>' for n in names)
        self.html.append(f'<p class="data">Data: {links}</p>')

    def image(self, path: Path, caption: str, alt: str, rel: str | None = None):
        """An image: ``path`` is read for the HTML; ``rel`` (default: ``path`` relative to the
        folder) is its link from the Markdown."""
        rel = rel or path.relative_to(self.folder).as_posix()
        self.md.append(f"![{md_escape(alt)}]({rel})\n\n*{md_escape(caption)}*\n")
        data = base64.b64encode(path.read_bytes()).decode()
        self.html.append(
            f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
            f'<figcaption>{html.escape(caption)} (<a href="{html.escape(rel)}">PNG</a>)'
            "</figcaption></figure>"
        )

    def write(self, title: str):
        (self.folder / "index.md").write_text("\n".join(self.md))
        doc = (
            f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(self.html)
            + "\n</body></html>\n"
        )
        (self.folder / "index.html").write_text(doc)


#: The sections that show one run (the baseline's, in a comparison).
RESULT_SECTIONS = ("Who wins", "How long it takes", "Who stays standing", "Per combatant",
                   "Counted by the rules")  # fmt: skip


def result_sections(doc: Document, result, prefix: str = "", baseline: str | None = None):
    """The sections of one run; ``baseline``: the label of the comparison's baseline these
    sections show, added to each heading."""
    import pandas as pd

    from .plots import kill_time_plot, survival_plot

    unit = result.time_unit["unit"]
    suffix = f" (baseline: {baseline})" if baseline else ""
    names = iter(RESULT_SECTIONS)

    def heading() -> None:
        doc.h(2, next(names) + suffix)

    heading()
    raw = result.win_table()
    raw = raw[(raw["count"] > 0) | raw["outcome"].isin(result.sides)]
    doc.table(tables.wins_frame(result), raw, f"{prefix}wins.csv")
    heading()
    per_round = result.time_unit.get("per_round")
    rounds = "" if unit == "round" or per_round in (None, 1) else (
        f"; {per_round:g} {unit}s to a round")
    doc.p(
        f"Kill time is the {unit} in which a decisive fight ended (a {unit} is "
        f"{result.time_unit['seconds']:g} s{rounds}). Mean: normal interval from the "
        "standard error; quantiles: distribution-free order-statistic intervals."
    )
    doc.table(tables.kill_time_frame(result), pd.DataFrame(_kill_time_rows(result)),
              f"{prefix}kill_time_summary.csv")  # fmt: skip
    pmf = result.kill_time_pmf().rename_axis(unit).reset_index()
    pmf.to_csv(doc.folder / f"{prefix}kill_time_pmf.csv", index=False)
    result.kill_time_cdf().to_csv(doc.folder / f"{prefix}kill_time_cdf.csv", index=False)
    png = kill_time_plot(result, doc.folder / f"{prefix}kill_time.png")
    doc.image(png, "Kill-time distribution and CDF (95% bands)", alt_text.kill_time_alt(result))
    doc.data([f"{prefix}kill_time_pmf.csv", f"{prefix}kill_time_cdf.csv"])
    heading()
    result.survival().to_csv(doc.folder / f"{prefix}survival.csv", index=False)
    png = survival_plot(result, doc.folder / f"{prefix}survival.png")
    doc.image(png, "Survival curves per side and per combatant", alt_text.survival_alt(result))
    doc.data([f"{prefix}survival.csv"])
    heading()
    stats = pd.DataFrame(result.combatant_stats())
    raw = (
        stats[["combatant", "side", "hit_rate", "attacks_mean"]]
        .merge(result.damage_table(), on=["combatant", "side"])
        .merge(pd.DataFrame(result.down_times()), on=["combatant", "side"])
    )
    doc.p(f"Means per fight; damage with 95% intervals; times in {unit}s.")
    doc.table(tables.combatants_frame(result), raw, f"{prefix}combatants.csv")
    first = result.first_down()
    if first and first["n"]:
        doc.p(
            f"First combatant down (any side): mean {first['mean']:.2f} {unit}s, "
            f"median {first['median']:g} ({first['n']:,} fights with someone down)."
        )
    counted = tables.counters_frame(result)
    if not counted.empty:
        heading()
        doc.p(f"What the rules count beyond the outcomes: a 0-or-1 count as a probability "
              f"(P(immobilised)), a count as its mean per fight with the probability that it "
              f"happened at all beside it; a time in {unit}s, over the fights where it "
              "happened.")  # fmt: skip
        doc.table(counted, _counter_rows(result), f"{prefix}counted.csv")


def _counter_rows(result):
    """The raw numbers of :func:`~fuzion_sim.report.tables.counters_frame`
    (``counted.csv``): per combatant and counter, its mean and probability."""
    import pandas as pd

    stats = result.combatant_stats()
    probs = result.counter_probabilities()
    rows = []
    for spec in result.schema.counters if result.schema else ():
        for row in stats:
            mean = row[f"{spec.label}_mean"]
            if not mean:
                continue
            rows.append({"combatant": row["combatant"], "side": row["side"],
                         "counter": spec.label, "mean": mean,
                         "probability": probs.get((row["combatant"], spec.label))})  # fmt: skip
    return pd.DataFrame(rows, columns=["combatant", "side", "counter", "mean", "probability"])


def _kill_time_rows(result) -> list[dict]:
    """The kill-time summary's raw numbers (``kill_time_summary.csv``), one row per unit."""
    rows = []
    for u in tables.time_units(result):
        s = result.kill_time_summary(unit=u)
        if s["mean"] is None:
            continue
        q = s["quantiles"]
        rows.append(
            {"unit": u, "mean": s["mean"], "se": s["se"], "mean_ci95_low": s["ci95"][0],
             "mean_ci95_high": s["ci95"][1], "sd": s["sd"], "median": q["0.5"]["value"],
             "median_ci95_low": q["0.5"]["ci95"][0], "median_ci95_high": q["0.5"]["ci95"][1],
             "q05": q["0.05"]["value"], "q95": q["0.95"]["value"], "decisive_fights": s["n"]}
        )  # fmt: skip
    return rows
