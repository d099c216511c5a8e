"""Plots as PNG files (matplotlib, Agg backend): kill time, survival, comparisons, sweeps."""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = [
    "kill_time_plot",
    "survival_plot",
    "comparison_plots",
    "sweep_plots",
]


def _figure(nrows: int = 1, ncols: int = 1, figsize=(10, 3.6), **kw):
    """A figure and its axes without pyplot (no global backend switch, no state to close)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **kw)


def _save(fig, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    return path


def kill_time_plot(result, path, label: str | None = None) -> Path:
    """Kill-time histogram (pmf) and CDF with 95% bands, side by side, in the system's unit."""
    unit = result.time_unit["unit"]
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.6))
    pmf = result.kill_time_pmf()
    ax1.bar(pmf.index, pmf.values, width=0.8, color="#4c72b0")
    kt = result.kill_time_summary()
    if kt["mean"] is not None:
        ax1.axvline(kt["mean"], color="k", ls="--", lw=1, label=f"mean {kt['mean']:.2f}")
        ax1.legend()
    ax1.set_xlabel(f"kill time ({unit}s)")
    ax1.set_ylabel("probability")
    ax1.set_title("Kill-time distribution (decisive fights)")
    cdf = result.kill_time_cdf()
    if len(cdf):
        ax2.step(cdf["time"], cdf["cdf"], where="post", color="#4c72b0", label=label)
        ax2.fill_between(cdf["time"], cdf["ci95_low"], cdf["ci95_high"], step="post",
                         alpha=0.3, color="#4c72b0")  # fmt: skip
    ax2.set_xlabel(f"kill time ({unit}s)")
    ax2.set_ylabel("P(fight over by then)")
    ax2.set_title("Kill-time CDF with 95% bands")
    ax2.set_ylim(0, 1.02)
    return _save(fig, path)


def survival_plot(result, path) -> Path:
    """Fraction still standing against time: per side (thick) and per combatant (thin)."""
    unit = result.time_unit["unit"]
    surv = result.survival()
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.6), sharey=True)
    for side in result.sides:
        ax1.step(surv["time"], surv[f"side:{side}"], where="post", lw=2, label=side)
    ax1.set_title("Per side: expected fraction standing")
    for name, side in result.combatants:
        ax2.step(surv["time"], surv[name], where="post", lw=1, label=f"{name} ({side})")
    ax2.set_title("Per combatant: P(still standing)")
    for ax in (ax1, ax2):
        ax.set_xlabel(f"time ({unit}s)")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=7 if len(result.combatants) > 4 else 9)
    ax1.set_ylabel("standing")
    return _save(fig, path)


def comparison_plots(comparison, folder) -> list[Path]:
    """Win probabilities with 95% intervals per variant, and overlaid kill-time CDFs."""
    folder = Path(folder)
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
               yerr=[p - ci[:, 0], ci[:, 1] - p], capsize=3)  # fmt: skip
    ax.set_xticks(x + width * (len(sides) - 1) / 2, labels, rotation=15)
    ax.set_ylabel("win probability")
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.legend()
    ax.set_title("Win probability by variant (95% intervals)")
    paths = [_save(fig, folder / "compare_win.png")]
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.6))
    unit = results[0].time_unit["unit"]
    for lab, r in zip(labels, results, strict=True):
        pmf = r.kill_time_pmf()
        ax1.plot(pmf.index, pmf.values, marker="o", ms=3, label=lab)
        cdf = r.kill_time_cdf()
        if len(cdf):
            ax2.step(cdf["time"], cdf["cdf"], where="post", label=lab)
            ax2.fill_between(cdf["time"], cdf["ci95_low"], cdf["ci95_high"], step="post",
                             alpha=0.2)  # fmt: skip
    ax1.set_title("Kill-time pmf by variant")
    ax2.set_title("Kill-time CDF by variant")
    for ax in (ax1, ax2):
        ax.set_xlabel(f"kill time ({unit}s)")
        ax.legend()
    paths.append(_save(fig, folder / "compare_kill_time.png"))
    return paths


def sweep_plots(table, keys: list[str], sides: list[str], folder) -> list[Path]:
    """Heatmaps of the first side's win probability and of the mean kill time over the first
    two grid keys (one pair of panels per value of any further keys); a line plot for one key."""
    folder = Path(folder)
    paths = []
    side = sides[0]
    col = f"win_probability.{side}"
    if len(keys) == 1:
        (key,) = keys
        fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.6))
        xs = [str(v) for v in table[key]]
        for s in sides:
            ax1.plot(xs, table[f"win_probability.{s}"], marker="o", label=s)
            ax1.fill_between(xs, table[f"win_ci95_low.{s}"], table[f"win_ci95_high.{s}"],
                             alpha=0.2)  # fmt: skip
        ax1.set_ylabel("win probability")
        ax1.legend()
        ax2.plot(xs, table["kill_time_mean"], marker="o")
        ax2.set_ylabel("mean kill time")
        for ax in (ax1, ax2):
            ax.set_xlabel(key)
        paths.append(_save(fig, folder / "sweep.png"))
        return paths
    kx, ky, rest = keys[0], keys[1], keys[2:]
    groups = table.groupby(rest, sort=False) if rest else [((), table)]
    for gi, (gval, sub) in enumerate(groups):
        fig, axes = _figure(1, 2, figsize=(11, 4))
        for ax, c, title, cmap in (
            (axes[0], col, f"P({side} wins)", "RdBu_r"),
            (axes[1], "kill_time_mean", "mean kill time", "viridis"),
        ):
            piv = sub.pivot_table(index=ky, columns=kx, values=c, sort=False, aggfunc="first")
            kw = {"vmin": 0, "vmax": 1} if c == col else {}
            im = ax.imshow(piv.values.astype(float), aspect="auto", origin="lower", cmap=cmap, **kw)
            ax.set_xticks(range(piv.shape[1]), [str(v) for v in piv.columns], rotation=45)
            ax.set_yticks(range(piv.shape[0]), [str(v) for v in piv.index])
            ax.set_xlabel(kx)
            ax.set_ylabel(ky)
            ax.set_title(title)
            for (i, j), v in np.ndenumerate(piv.values.astype(float)):
                if np.isfinite(v) and piv.size <= 150:
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7)
            fig.colorbar(im, ax=ax)
        if rest:
            gv = gval if isinstance(gval, tuple) else (gval,)
            fig.suptitle(", ".join(f"{k}={v}" for k, v in zip(rest, gv, strict=True)))
        paths.append(_save(fig, folder / f"heatmap_{gi}.png"))
    return paths
