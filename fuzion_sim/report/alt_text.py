"""Alt text for the report's figures: what each plot shows, with its main numbers.

A reader who cannot see the image (a screen reader, a broken image, a text-only mail) gets the
gist from the alt text alone: the kind of plot, its axes and units, and the values it shows.
"""

from __future__ import annotations

from .. import fmt

__all__ = ["comparison_alt", "kill_time_alt", "survival_alt", "sweep_alt"]


def kill_time_alt(result) -> str:
    """Alt text of the kill-time figure (pmf bars and CDF).

    Parameters
    ----------
    result : Result

    Returns
    -------
    str
    """
    s = result.kill_time_summary()
    unit = fmt.plural(s["unit"])
    if s["mean"] is None:
        return "Kill-time plots: no fight was decisive, so both are empty."
    q = s["quantiles"]
    return (
        f"Kill-time distribution of {s['n']:,} decisive fights, in {unit}: a bar chart of the "
        f"probability that a fight ends in each {s['unit']} (mean {s['mean']:.2f}, median "
        f"{fmt.num(q['0.5']['value'])}, 90% of fights between {fmt.num(q['0.05']['value'])} "
        f"and {fmt.num(q['0.95']['value'])}) and the cumulative distribution with 95% bands."
    )


def survival_alt(result) -> str:
    """Alt text of the survival figure (per side and per combatant).

    Parameters
    ----------
    result : Result

    Returns
    -------
    str
    """
    surv = result.survival()
    unit = fmt.plural(result.time_unit["unit"])
    last = surv.iloc[-1]
    sides = ", ".join(f"{s} {fmt.pct(last[f'side:{s}'])}" for s in result.sides)
    return (
        f"Survival curves against time in {unit}: the expected fraction of each side still "
        f"standing (at the end: {sides}) and each of the {len(result.combatants)} "
        "combatants' probability of still standing."
    )


def comparison_alt(cmp) -> list[str]:
    """Alt texts of the comparison's two figures.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    list of str
        ``[win probabilities, kill time]``.
    """
    sides = cmp.results[0].sides
    wins = "; ".join(
        f"{label}: " + ", ".join(f"{s} {fmt.pct(r.win_probability(s))}" for s in sides)
        for label, r in zip(cmp.labels, cmp.results, strict=True)
    )
    unit = fmt.plural(cmp.results[0].time_unit["unit"])
    means = ", ".join(
        f"{label} {fmt.num(r.kill_time_summary()['mean'])}"
        for label, r in zip(cmp.labels, cmp.results, strict=True)
    )
    return [
        f"Bar chart of each side's win probability by variant with 95% error bars ({wins}).",
        f"Kill-time pmf and CDF of each variant overlaid, in {unit} (mean kill time: {means}).",
    ]


def sweep_alt(table, keys: list[str], name: str) -> str:
    """Alt text of one sweep figure.

    Parameters
    ----------
    table : pandas.DataFrame
        The sweep's table.
    keys : list of str
        The grid keys.
    name : str
        The figure's file name (``sweep.png`` or ``heatmap_<i>.png``).

    Returns
    -------
    str
    """
    sides = [c.split(".", 1)[1] for c in table.columns if c.startswith("win_probability.")]
    where = ""
    if name.startswith("heatmap_") and len(keys) > 2:
        groups = list(table.groupby(keys[2:], sort=False))
        gval, table = groups[int(name.removeprefix("heatmap_").removesuffix(".png"))]
        gv = gval if isinstance(gval, tuple) else (gval,)
        where = " for " + ", ".join(f"{k}={v}" for k, v in zip(keys[2:], gv, strict=True))
    axes = "; ".join(f"{k} from {table[k].iloc[0]} to {table[k].iloc[-1]}" for k in keys[:2])
    p = table[f"win_probability.{sides[0]}"]
    kt = table["kill_time_mean"]
    span = (
        f"P({sides[0]} wins) from {fmt.pct(p.min())} to {fmt.pct(p.max())}, mean kill time "
        f"from {fmt.num(kt.min())} to {fmt.num(kt.max())}"
    )
    if name == "sweep.png":
        return (
            f"Line plots against {keys[0]} ({axes}): each side's win probability and the mean "
            f"kill time, with 95% error bars; {span}."
        )
    return f"Heatmaps over {keys[0]} and {keys[1]}{where} ({axes}): {span}."
