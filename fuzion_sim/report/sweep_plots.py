"""Sweep figures: a line plot with 95% error bars for one grid key, heatmaps for two or more.

The heatmaps' cell numbers are black or white by the luminance of the cell's colour, so they
read on dark cells; each colour bar carries its own label, clear of the neighbouring panel.
"""

from __future__ import annotations

import numpy as np

from .plots import _figure, distinct_colours, error_lengths, units
from .tables import Z95

__all__ = ["sweep_figures", "text_colour"]


def text_colour(rgba) -> str:
    """``"white"`` on a dark colour, ``"black"`` on a light one (relative luminance, sRGB).

    Parameters
    ----------
    rgba : tuple of float
        A colour with channels in [0, 1].

    Returns
    -------
    str
    """

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.179 else "black"


def _unit(table) -> str:
    if "kill_time_unit" in table.columns:
        known = [u for u in table["kill_time_unit"] if isinstance(u, str)]
        if known and len(set(known)) == 1:
            return units(known[0])
        if known:
            return "system units"
    return "phases"


def _numeric(values) -> bool:
    return all(isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)
               for v in values)  # fmt: skip


def _line_figure(table, key: str, sides: list[str]):
    fig, (ax1, ax2) = _figure(1, 2, figsize=(10, 3.8))
    values = list(table[key])
    xs = values if _numeric(values) else np.arange(len(values))
    for side, colour in zip(sides, distinct_colours(len(sides)), strict=True):
        p = table[f"win_probability.{side}"].to_numpy(float)
        lo = table[f"win_ci95_low.{side}"].to_numpy(float)
        hi = table[f"win_ci95_high.{side}"].to_numpy(float)
        ax1.errorbar(xs, p, yerr=error_lengths(p, lo, hi), marker="o", ms=4, capsize=3, label=side,
                     color=colour)  # fmt: skip
    ax1.set_ylabel("win probability (95% intervals)")
    ax1.set_ylim(0, 1)
    ax1.legend()
    mean = table["kill_time_mean"].to_numpy(float)
    se = table["kill_time_se"].to_numpy(float) if "kill_time_se" in table else 0 * mean
    half = np.nan_to_num(Z95 * se, nan=0.0)  # one decisive fight: no spread
    ax2.errorbar(xs, mean, yerr=np.clip(half, 0.0, None), marker="o", ms=4, capsize=3,
                 color="#4c72b0")
    ax2.set_ylabel(f"mean kill time ({_unit(table)}, 95%)")
    for ax in (ax1, ax2):
        ax.set_xlabel(key)
        if not _numeric(values):
            ax.set_xticks(xs, [str(v) for v in values], rotation=30)
    fig.suptitle(f"Sweep over {key}")
    return fig


def _heatmap(fig, ax, piv, title: str, cmap_name: str, bar_label: str, **norm_kw):
    from matplotlib import colormaps
    from matplotlib.colors import Normalize

    data = piv.values.astype(float)
    finite = data[np.isfinite(data)]
    norm = Normalize(norm_kw.get("vmin", finite.min() if finite.size else 0),
                     norm_kw.get("vmax", finite.max() if finite.size else 1))  # fmt: skip
    cmap = colormaps[cmap_name]
    im = ax.imshow(data, aspect="auto", origin="lower", cmap=cmap, norm=norm)
    ax.set_xticks(range(piv.shape[1]), [str(v) for v in piv.columns], rotation=45)
    ax.set_yticks(range(piv.shape[0]), [str(v) for v in piv.index])
    ax.set_title(title)
    if piv.size <= 150:
        for (i, j), v in np.ndenumerate(data):
            if np.isfinite(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7,
                        color=text_colour(cmap(norm(v))))  # fmt: skip
    bar = fig.colorbar(im, ax=ax, pad=0.02)
    bar.set_label(bar_label)
    return im


def sweep_figures(table, keys: list[str], sides: list[str]) -> list[tuple[str, object]]:
    """The figures of a sweep table.

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`~fuzion_sim.analysis.sweep.sweep` returns.
    keys : list of str
        The grid keys, in order.
    sides : list of str
        The sides (the heatmaps show the first side's win probability).

    Returns
    -------
    list of (file name, matplotlib.figure.Figure)
        One key: ``sweep.png``, win probabilities and the mean kill time with 95% error bars
        against it. Two or more: ``heatmap_<i>.png``, the first side's win probability and the
        mean kill time over the first two keys, one pair of panels per value of the others.
    """
    if len(keys) == 1:
        return [("sweep.png", _line_figure(table, keys[0], sides))]
    side = sides[0]
    kx, ky, rest = keys[0], keys[1], keys[2:]
    groups = table.groupby(rest, sort=False) if rest else [((), table)]
    out = []
    unit = _unit(table)
    for gi, (gval, sub) in enumerate(groups):
        fig, axes = _figure(1, 2, figsize=(11, 4.2))
        for ax, col, title, cmap, bar, kw in (
            (axes[0], f"win_probability.{side}", f"P({side} wins)", "RdBu_r",
             f"P({side} wins)", {"vmin": 0, "vmax": 1}),
            (axes[1], "kill_time_mean", "mean kill time", "viridis",
             f"mean kill time ({unit})", {}),
        ):  # fmt: skip
            piv = sub.pivot_table(index=ky, columns=kx, values=col, sort=False, aggfunc="first")
            _heatmap(fig, ax, piv, title, cmap, bar, **kw)
            ax.set_xlabel(kx)
            ax.set_ylabel(ky)
        if rest:
            gv = gval if isinstance(gval, tuple) else (gval,)
            fig.suptitle(", ".join(f"{k}={v}" for k, v in zip(rest, gv, strict=True)))
        out.append((f"heatmap_{gi}.png", fig))
    return out
