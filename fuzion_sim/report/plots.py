"""Plots (matplotlib, no pyplot): kill time, survival, comparisons and sweeps.

Each ``*_figure`` function returns a :class:`matplotlib.figure.Figure` (what
:meth:`Result.plot <fuzion_sim.analysis.result.Result.plot>` gives a notebook); each ``*_plot``
function saves one as a PNG for a report. Every axis names its quantity and unit; times in the
system's unit (phases or segments) get whole-number ticks and a second axis in seconds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = [
    "comparison_figures",
    "comparison_plots",
    "distinct_colours",
    "error_lengths",
    "kill_time_figure",
    "kill_time_plot",
    "save",
    "save_figure",
    "survival_figure",
    "survival_plot",
    "sweep_plots",
]

BLUE = "#4c72b0"


def _figure(nrows: int = 1, ncols: int = 1, figsize=(10, 3.6), **kw):
    """A figure and its axes without pyplot (no global backend switch, no state to close)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **kw)


def save(fig, path, dpi: int = 100) -> Path:
    """Write ``fig`` as a PNG (the folder is created).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : str or os.PathLike
    dpi : int

    Returns
    -------
    pathlib.Path
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    return path


def save_figure(fig, path) -> Path:
    """Save ``fig`` as a PNG at ``path`` (its folder made), or an error naming ``path``: what a
    ``plot(path=...)`` method does with a path its caller gave."""
    from .._args import check_path
    from ..errors import ArgumentError, shorten

    target = check_path("path", path, optional=False)
    try:
        return save(fig, target)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise ArgumentError(f"path: cannot write {shorten(str(target))!r}: {reason}") from None


def units(unit: str) -> str:
    """Plural of a time unit for an axis label (``"phase"`` -> ``"phases"``)."""
    return unit if unit.endswith("s") else f"{unit}s"


def distinct_colours(n: int) -> list:
    """``n`` colours that differ from each other (tab10, then tab20, then an even hue wheel).

    Parameters
    ----------
    n : int

    Returns
    -------
    list of RGBA tuples
    """
    from matplotlib import colormaps

    if n <= 10:
        return [colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        return [colormaps["tab20"](i) for i in range(n)]
    return [colormaps["hsv"](i / n) for i in range(n)]


def error_lengths(estimate, low, high) -> np.ndarray:
    """The lengths of error bars below and above ``estimate`` for matplotlib's ``yerr``.

    Parameters
    ----------
    estimate, low, high : array_like of float
        Estimates and their interval ends.

    Returns
    -------
    numpy.ndarray
        ``[[estimate - low], [high - estimate]]`` as a 2 x n array, never negative (an end
        that rounding or an older table left a hair past its estimate draws no bar, where
        matplotlib would refuse the whole figure) and 0 where a number is missing.
    """
    p = np.asarray(estimate, float)
    below = np.nan_to_num(p - np.asarray(low, float), nan=0.0)
    above = np.nan_to_num(np.asarray(high, float) - p, nan=0.0)
    return np.vstack([np.clip(below, 0.0, None), np.clip(above, 0.0, None)])


def _time_axis(ax, result, what: str = "kill time") -> None:
    """Label ``ax``'s x axis in the system's unit with whole ticks, and add seconds on top."""
    from matplotlib.ticker import MaxNLocator

    unit = result.time_unit["unit"]
    secs = float(result.time_unit.get("seconds", 1.0))
    ax.set_xlabel(f"{what} ({units(unit)})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    top = ax.secondary_xaxis("top", functions=(lambda t: t * secs, lambda s: s / secs))
    top.set_xlabel("seconds", fontsize=8, loc="right")
    top.tick_params(labelsize=8)


def kill_time_figure(result, label: str | None = None):
    """Kill-time pmf (bars) and CDF with 95% bands, side by side, in the system's unit.

    Parameters
    ----------
    result : Result
    label : str, optional
        Legend label of the CDF.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.8))
    pmf = result.kill_time_pmf()
    ax1.bar(pmf.index, pmf.values, width=0.8, color=BLUE)
    kt = result.kill_time_summary()
    unit = units(result.time_unit["unit"])
    if kt["mean"] is not None:
        ax1.axvline(kt["mean"], color="k", ls="--", lw=1, label=f"mean {kt['mean']:.2f} {unit}")
        ax1.legend()
    _time_axis(ax1, result)
    ax1.set_ylabel("P(fight ends then)")
    ax1.set_title("Kill-time distribution (decisive fights)")
    cdf = result.kill_time_cdf()
    if len(cdf):
        ax2.step(cdf["time"], cdf["cdf"], where="post", color=BLUE, label=label)
        ax2.fill_between(cdf["time"], cdf["ci95_low"], cdf["ci95_high"], step="post",
                         alpha=0.3, color=BLUE)  # fmt: skip
    _time_axis(ax2, result)
    ax2.set_ylabel("P(fight over by then)")
    ax2.set_title("Kill-time CDF with 95% bands")
    ax2.set_ylim(0, 1.02)
    return fig


def kill_time_plot(result, path, label: str | None = None) -> Path:
    """:func:`kill_time_figure` saved as a PNG at ``path`` (returned)."""
    return save(kill_time_figure(result, label), path)


def survival_figure(result):
    """Fraction still standing against time: per side (thick) and per combatant (thin).

    Parameters
    ----------
    result : Result

    Returns
    -------
    matplotlib.figure.Figure
        Every combatant's line has its own colour, however many there are.
    """
    surv = result.survival()
    many = len(result.combatants) > 6
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 4.2 if many else 3.8), sharey=True)
    for side, colour in zip(result.sides, distinct_colours(len(result.sides)), strict=True):
        ax1.step(surv["time"], surv[f"side:{side}"], where="post", lw=2, label=side,
                 color=colour)  # fmt: skip
    ax1.set_title("Per side: expected fraction standing")
    colours = distinct_colours(len(result.combatants))
    for (name, side), colour in zip(result.combatants, colours, strict=True):
        ax2.step(surv["time"], surv[name], where="post", lw=1, label=f"{name} ({side})",
                 color=colour)  # fmt: skip
    ax2.set_title("Per combatant: P(still standing)")
    for ax in (ax1, ax2):
        _time_axis(ax, result, "time")
        ax.set_ylim(0, 1.02)
    ax1.legend(fontsize=9)
    ax2.legend(fontsize=7 if many else 9, ncols=2 if len(result.combatants) > 8 else 1,
               loc="upper right")  # fmt: skip
    ax1.set_ylabel("fraction standing")
    return fig


def survival_plot(result, path) -> Path:
    """:func:`survival_figure` saved as a PNG at ``path`` (returned)."""
    return save(survival_figure(result), path)


def comparison_figures(comparison) -> list:
    """Win probabilities with 95% intervals per variant, and overlaid kill-time pmfs and CDFs.

    Parameters
    ----------
    comparison : Comparison

    Returns
    -------
    list of matplotlib.figure.Figure
        ``[win probabilities, kill time]``.
    """
    labels = comparison.labels
    results = comparison.results
    sides = results[0].sides
    fig, ax = _figure(figsize=(max(5, 1.4 * len(labels) * len(sides)), 3.6))
    width = 0.8 / len(sides)
    x = np.arange(len(labels))
    for k, side in enumerate(sides):
        p = np.array([r.win_probability(side) for r in results])
        ci = np.array([r.win_interval(side) for r in results])
        ax.bar(x + k * width, p, width, label=side,
               yerr=error_lengths(p, ci[:, 0], ci[:, 1]), capsize=3)  # fmt: skip
    ax.set_xticks(x + width * (len(sides) - 1) / 2, labels, rotation=15)
    ax.set_xlabel("variant")
    ax.set_ylabel("win probability")
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.legend()
    ax.set_title("Win probability by variant (95% intervals)")
    figs = [fig]
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.8))
    for lab, r in zip(labels, results, strict=True):
        pmf = r.kill_time_pmf()
        ax1.plot(pmf.index, pmf.values, marker="o", ms=3, label=lab)
        cdf = r.kill_time_cdf()
        if len(cdf):
            ax2.step(cdf["time"], cdf["cdf"], where="post", label=lab)
            ax2.fill_between(cdf["time"], cdf["ci95_low"], cdf["ci95_high"], step="post",
                             alpha=0.2)  # fmt: skip
    ax1.set_title("Kill-time pmf by variant")
    ax1.set_ylabel("P(fight ends then)")
    ax2.set_title("Kill-time CDF by variant (95% bands)")
    ax2.set_ylabel("P(fight over by then)")
    ax2.set_ylim(0, 1.02)
    for ax in (ax1, ax2):
        _time_axis(ax, results[0])
        ax.legend()
    figs.append(fig)
    return figs


def comparison_plots(comparison, folder) -> list[Path]:
    """:func:`comparison_figures` saved as ``compare_win.png`` and ``compare_kill_time.png``."""
    folder = Path(folder)
    names = ("compare_win.png", "compare_kill_time.png")
    return [save(f, folder / n) for f, n in zip(comparison_figures(comparison), names,
                                                 strict=True)]  # fmt: skip


def sweep_plots(table, keys: list[str], sides: list[str], folder) -> list[Path]:
    """The sweep's figures (see :mod:`.sweep_plots`) saved as PNGs in ``folder``."""
    from .sweep_plots import sweep_figures

    folder = Path(folder)
    return [save(fig, folder / name) for name, fig in sweep_figures(table, keys, sides)]
