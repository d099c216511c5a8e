"""Views of the studies beyond one fight: run until decided, balance tables, sensitivity.

Each study has an HTML view (what a notebook's ``_repr_html_`` shows), a Markdown section for a
report, and figures (matplotlib without pyplot, as :mod:`.plots`): the confidence sequence of a
sequential comparison, a balance table's heatmap, a sensitivity study's tornado chart.
"""

from __future__ import annotations

import html

import numpy as np

from .html import html_table
from .plots import _figure, save

__all__ = [
    "matrix_alt",
    "matrix_section",
    "pareto_figure",
    "pareto_html",
    "pareto_markdown",
    "matrix_heatmap",
    "matrix_html",
    "matrix_markdown",
    "sensitivity_html",
    "sensitivity_markdown",
    "sensitivity_section",
    "sequential_figure",
    "sequential_html",
    "sequential_markdown",
    "tornado_alt",
    "tornado_figure",
]


def _pct(x) -> str:
    return "" if x is None or not np.isfinite(x) else f"{100 * x:.1f}%"


# --- run until decided ------------------------------------------------------------------------
def sequential_html(seq) -> str:
    """Jupyter's view of a :class:`~fuzion_sim.analysis.sequential.SequentialComparison`."""
    frame = seq.to_frame()
    for col in ("estimate", "low", "high"):
        frame[col] = [f"{100 * v:+.2f} pt" for v in frame[col]]
    frame["trials"] = [f"{t:,}" for t in frame["trials"]]
    la, lb = seq.labels
    return "\n".join(
        [
            "<div>",
            f"<p><strong>{html.escape(seq.scenario)}</strong>: {html.escape(lb)} against "
            f"{html.escape(la)}, P({html.escape(seq.side)} wins) {_pct(seq.win_probability[1])} vs "
            f"{_pct(seq.win_probability[0])}</p>",
            f"<p><strong>{html.escape(seq.decision)}</strong>: {html.escape(seq.verdict())}</p>",
            html_table(
                frame,
                caption="Every look: the difference (b minus a) and its anytime-valid interval",
            ),
            "</div>",
        ]
    )


def sequential_markdown(seq) -> str:
    """A report section (Markdown) for a sequential comparison."""
    la, lb = seq.labels
    return "\n".join(
        [
            f"## Run until decided: {lb} against {la}",
            "",
            seq.verdict(),
            "",
            "| trials a variant | difference | interval |",
            "|---:|---:|---:|",
            *(
                f"| {h['trials']:,} | {100 * h['estimate']:+.2f} pt | {100 * h['low']:+.2f} to "
                f"{100 * h['high']:+.2f} pt |"
                for h in seq.history
            ),
        ]
    )


def sequential_figure(seq, path=None):
    """The difference and its confidence sequence against the trials run (points)."""
    fig, ax = _figure(figsize=(7, 3.6))
    frame = seq.to_frame()
    t = frame["trials"].to_numpy()
    ax.fill_between(
        t,
        100 * frame["low"],
        100 * frame["high"],
        alpha=0.3,
        step="post",
        label="anytime-valid interval",
    )
    ax.plot(t, 100 * frame["estimate"], marker="o", label="difference")
    ax.axhline(0, color="black", linewidth=0.8)
    if seq.margin:
        for s in (-1, 1):
            ax.axhline(100 * s * seq.margin, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("trials per variant")
    ax.set_ylabel(f"difference in P({seq.side} wins) (points)")
    ax.set_title(f"{seq.labels[1]} minus {seq.labels[0]}: {seq.decision} after {seq.trials:,} "
                 "trials a variant", fontsize=9)  # fmt: skip
    ax.legend()
    if path is not None:
        save(fig, path)
    return fig


# --- balance tables ---------------------------------------------------------------------------
def matrix_html(mx) -> str:
    """Jupyter's view of a :class:`~fuzion_sim.analysis.matrix.Matrix`: the coloured table,
    the ranking and the cell warnings."""
    grid = mx.grid()
    lo, hi = mx.grid("low"), mx.grid("high")
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in grid.columns)
    rows = []
    for r in grid.index:
        cells = []
        for c in grid.columns:
            v = grid.loc[r, c]
            shade = (
                int(255 * (1 - 0.6 * (v if np.isfinite(v) else 0))) if mx.is_probability else 255
            )
            note = " ⚠" if mx.cell_warnings(r, c) else ""
            cells.append(
                f'<td style="background:rgb({shade},{shade},255)" title="{_pct(lo.loc[r, c])} to '
                f'{_pct(hi.loc[r, c])}">{mx.format(v)}{note}</td>'
            )
        flag = " (dominated)" if r in mx.dominated_rows() else ""
        rows.append(f"<tr><th>{html.escape(str(r))}{flag}</th>{''.join(cells)}</tr>")
    warnings = [
        f"<li>{html.escape(str(r))} x {html.escape(str(c))}: {html.escape(w)}</li>"
        for (r, c), ws in mx.warnings.items()
        for w in ws
    ]
    return "\n".join(
        [
            "<div>",
            f"<p><strong>{html.escape(mx.scenario)}</strong>: {html.escape(mx.label)} "
            f"({mx.trials:,} trials a cell, common random numbers)</p>",
            f"<table><tr><th>{html.escape(mx.row_key)} \\ {html.escape(mx.col_key)}</th>"
            f"{head}</tr>",
            *rows,
            "</table>",
            html_table(mx.ranked(), caption="Ranked rows"),
            f"<ul>{''.join(warnings)}</ul>" if warnings else "",
            "</div>",
        ]
    )


def matrix_markdown(mx) -> str:
    """A report section (Markdown) for a balance table."""
    grid = mx.grid()
    lines = [
        f"## Balance table: {mx.label}",
        "",
        f"{mx.trials:,} trials a cell on common random numbers; rows {mx.row_key}, "
        f"columns {mx.col_key}.",
        "",
        "| | " + " | ".join(str(c) for c in grid.columns) + " |",
        "|---|" + "---:|" * len(grid.columns),
    ]
    for r in grid.index:
        flag = " (dominated)" if r in mx.dominated_rows() else ""
        lines.append(
            f"| {r}{flag} | " + " | ".join(mx.format(grid.loc[r, c]) for c in grid.columns) + " |"
        )
    for (r, c), ws in mx.warnings.items():
        lines.extend(f"- {r} x {c}: {w}" for w in ws)
    return "\n".join(lines)


def matrix_heatmap(mx, path=None):
    """A heatmap of a balance table's metric, each cell annotated with its value (and ``!`` for
    a cell with warnings), dominated rows and columns marked."""
    grid = mx.grid()
    values = grid.to_numpy(dtype=float)
    n_r, n_c = values.shape
    fig, ax = _figure(figsize=(1.6 + 1.25 * n_c, 1.2 + 0.55 * n_r))
    vmin, vmax = (0.0, 1.0) if mx.is_probability else (np.nanmin(values), np.nanmax(values))
    im = ax.imshow(values, cmap="RdBu", vmin=vmin, vmax=vmax, aspect="auto")
    dominated, dominated_cols = mx.dominated_rows(), mx.dominated_cols()
    ax.set_xticks(range(n_c), [f"{c} (dominated)" if c in dominated_cols else str(c)
                               for c in grid.columns], rotation=30, ha="right")  # fmt: skip
    ax.set_yticks(
        range(n_r), [f"{r} (dominated)" if r in dominated else str(r) for r in grid.index]
    )
    mid = (vmin + vmax) / 2
    for i, r in enumerate(grid.index):
        for j, c in enumerate(grid.columns):
            v = values[i, j]
            text = mx.format(v) + (" !" if mx.cell_warnings(r, c) else "")
            span = (vmax - vmin) or 1
            colour = "white" if np.isfinite(v) and abs(v - mid) > 0.3 * span else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color=colour)
    ax.set_xlabel(mx.col_key)
    ax.set_ylabel(mx.row_key)
    ax.set_title(f"{mx.label} ({mx.trials:,} trials a cell)")
    fig.colorbar(im, ax=ax, label=mx.label)
    if path is not None:
        save(fig, path)
    return fig


# --- sensitivity ------------------------------------------------------------------------------
def sensitivity_html(sens) -> str:
    """Jupyter's view of a :class:`~fuzion_sim.analysis.sensitivity.Sensitivity`."""
    return "\n".join(
        [
            "<div>",
            f"<p><strong>{html.escape(sens.scenario)}</strong>: {html.escape(sens.title())}</p>",
            html_table(sens.to_frame()),
            "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in sens.sentences()) + "</ul>",
            "</div>",
        ]
    )


def sensitivity_markdown(sens) -> str:
    """A report section (Markdown) for a sensitivity study."""
    frame = sens.to_frame()
    cols = list(frame.columns)
    lines = [
        f"## Sensitivity: {sens.title()}",
        "",
        "| " + " | ".join(cols) + " |",
        "|" + "---|" * len(cols),
    ]
    for _, row in frame.iterrows():
        lines.append(
            "| " + " | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row) + " |"
        )
    lines += [""] + [f"- {s}" for s in sens.sentences()]
    return "\n".join(lines)


def tornado_figure(sens, path=None):
    """A tornado chart: one bar per parameter, longest at the top, with its interval.

    Local stat weights: the metric's change over each parameter's range (weight x span)
    with error bars; Sobol: total and first-order indices with bootstrap intervals.
    """
    frame = sens.to_frame()
    order = np.argsort(np.abs(frame[sens.bar_column].to_numpy(dtype=float)))
    frame = frame.iloc[order]
    y = np.arange(len(frame))
    fig, ax = _figure(figsize=(8.5, 1.4 + 0.5 * len(frame)))
    if sens.method == "local":
        val = frame["swing"].to_numpy(dtype=float)
        err = np.vstack(
            [val - frame["swing_low"].to_numpy(float), frame["swing_high"].to_numpy(float) - val]
        )
        colours = ["#c44e52" if v < 0 else "#4c72b0" for v in val]
        ax.barh(y, val, xerr=err, color=colours, capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel(f"change in {sens.label} over the parameter's range (weight x range)")
    else:
        for col, off, colour in (("total", 0.2, "#4c72b0"), ("first_order", -0.2, "#dd8452")):
            val = frame[col].to_numpy(dtype=float)
            err = np.vstack(
                [
                    val - frame[f"{col}_low"].to_numpy(float),
                    frame[f"{col}_high"].to_numpy(float) - val,
                ]
            )
            ax.barh(
                y + off,
                val,
                height=0.38,
                xerr=np.clip(err, 0, None),
                color=colour,
                capsize=3,
                label=col.replace("_", "-") + " index",
            )
        ax.legend()
        ax.set_xlabel(f"Sobol index of {sens.label}")
    ax.set_yticks(y, list(frame["param"]))
    ax.set_title(sens.title(), fontsize=9)
    if path is not None:
        save(fig, path)
    return fig


# --- many levers, several goals ---------------------------------------------------------------
def _finalists_frame(res):
    cols = [p.key for p in res.params]
    for g in res.goals:
        cols += [g.text, f"{g.text}.low", f"{g.text}.high"]
    return res.rechecked[[*cols, "holds"]]


def pareto_html(res) -> str:
    """Jupyter's view of a :class:`~fuzion_sim.analysis.pareto.ParetoResult`."""
    items = "".join(f"<li>{html.escape(s)}</li>" for s in res.sentences())
    return "\n".join([
        "<div>", f"<p><strong>{html.escape(res.scenario)}</strong>: {len(res.front)} trade-offs "
        f"on the front of {len(res.points)} points ({html.escape(res.searched)}, "
        f"{res.trials:,} trials a point); goals: "
        f"{html.escape(', '.join(g.text for g in res.goals))}</p>",
        html_table(_finalists_frame(res), caption=f"Finalists re-run on a fresh seed "
                   f"({res.recheck_seed})"),
        f"<ul>{items}</ul>", "</div>",
    ])  # fmt: skip


def pareto_markdown(res) -> str:
    """A report section (Markdown) for a multi-goal balance."""
    lines = [f"## Trade-offs: {', '.join(g.text for g in res.goals)}", "",
             f"{len(res.front)} points on the Pareto front of {len(res.points)} "
             f"({res.searched}, {res.trials:,} trials a point, common random numbers); the "
             "finalists re-run on a fresh seed:", ""]  # fmt: skip
    lines += [f"- {s}" for s in res.sentences()]
    return "\n".join(lines)


def pareto_figure(res, path=None):
    """Every point's shortfall on the first two goals (one goal: against the total), the
    front joined and marked."""
    pts = res.points
    g0 = res.goals[0].text
    x = pts[f"{g0}.shortfall"].to_numpy(float)
    if len(res.goals) > 1:
        g1 = res.goals[1].text
        y = pts[f"{g1}.shortfall"].to_numpy(float)
        ylabel = f"shortfall of {g1}"
    else:
        y = pts["total_shortfall"].to_numpy(float)
        ylabel = "total shortfall"
    fig, ax = _figure(figsize=(6.5, 4.2))
    ax.scatter(x, y, s=14, color="#999999", label="points run")
    on = pts["on_front"].to_numpy(bool)
    order = np.argsort(x[on])
    ax.plot(x[on][order], y[on][order], marker="o", color="#c44e52", label="Pareto front")
    ax.set_xlabel(f"shortfall of {g0}")
    ax.set_ylabel(ylabel)
    ax.set_title(f"{res.scenario}: trade-offs ({res.trials:,} trials a point)", fontsize=9)
    ax.legend()
    if path is not None:
        save(fig, path)
    return fig


# --- report sections --------------------------------------------------------------------------
def matrix_alt(mx) -> str:
    """The alt text of a balance table's heatmap: its size, its best and worst cells and the
    dominated items, in words."""
    grid = mx.grid()
    values = grid.to_numpy(dtype=float)
    words = [f"Heatmap of {mx.label}: {len(grid.index)} {mx.row_key} rows by "
             f"{len(grid.columns)} {mx.col_key} columns, {mx.trials:,} trials a cell."]  # fmt: skip
    if np.isfinite(values).any():
        hi = np.unravel_index(np.nanargmax(values), values.shape)
        lo = np.unravel_index(np.nanargmin(values), values.shape)
        words.append(
            f"Highest {mx.format(values[hi])} at {grid.index[hi[0]]} x {grid.columns[hi[1]]}; "
            f"lowest {mx.format(values[lo])} at {grid.index[lo[0]]} x {grid.columns[lo[1]]}."
        )
    for which, dominated in (("rows", mx.dominated_rows()), ("columns", mx.dominated_cols())):
        if dominated:
            words.append(f"Dominated {which}: {', '.join(str(d) for d in dominated)}.")
    return " ".join(words)


def tornado_alt(sens) -> str:
    """The alt text of a sensitivity study's tornado chart: each parameter's bar, longest
    first, with its interval."""
    return f"Tornado chart of {sens.title()}. " + "; ".join(sens.sentences()) + "."


def matrix_section(doc, mx, prefix: str = "matrix_") -> None:
    """A balance table as a report section: its Markdown (:func:`matrix_markdown`) and HTML
    (:func:`matrix_html`) views, the heatmap with its alt text, and the cells and ranking as
    CSV (``{prefix}cells.csv``, ``{prefix}ranked.csv``).

    Parameters
    ----------
    doc : fuzion_sim.report.build.Document
        The report being built (Markdown and HTML side by side, files in ``doc.folder``).
    mx : fuzion_sim.analysis.matrix.Matrix
    prefix : str
        Prefix of the files written.
    """
    doc.block(matrix_markdown(mx), f"<h2>Balance table: {html.escape(mx.label)}</h2>"
              + matrix_html(mx))  # fmt: skip
    png = doc.folder / f"{prefix}heatmap.png"
    matrix_heatmap(mx, png)
    doc.image(png, f"Balance table: {mx.label}", matrix_alt(mx))
    mx.to_frame().to_csv(doc.folder / f"{prefix}cells.csv", index=False)
    mx.ranked().to_csv(doc.folder / f"{prefix}ranked.csv", index=False)
    doc.data([f"{prefix}cells.csv", f"{prefix}ranked.csv"])


def sensitivity_section(doc, sens, prefix: str = "sensitivity") -> None:
    """A sensitivity study as a report section: its Markdown (:func:`sensitivity_markdown`)
    and HTML (:func:`sensitivity_html`) views, the tornado chart with its alt text, and the
    table as CSV (``{prefix}.csv``, the chart ``{prefix}_tornado.png``).

    Parameters
    ----------
    doc : fuzion_sim.report.build.Document
    sens : fuzion_sim.analysis.sensitivity.Sensitivity
    prefix : str
        Stem of the files written.
    """
    doc.block(sensitivity_markdown(sens), f"<h2>Sensitivity: {html.escape(sens.title())}</h2>"
              + sensitivity_html(sens))  # fmt: skip
    png = doc.folder / f"{prefix}_tornado.png"
    tornado_figure(sens, png)
    doc.image(png, f"Sensitivity: {sens.title()}", tornado_alt(sens))
    sens.to_frame().to_csv(doc.folder / f"{prefix}.csv", index=False)
    doc.data([f"{prefix}.csv"])
