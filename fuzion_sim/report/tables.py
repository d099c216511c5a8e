"""Tables as a reader sees them: human column headers and formatted cells (strings).

The terminal, the Markdown / HTML report and the notebook view all build their tables here, so
a number reads the same everywhere ("59.7% (59.1-60.2%)", "+0.05 pts", "p < 0.001"). The
machine-readable data (raw columns, full precision) is what the CSV files next to a report
hold; these frames are only for reading.
"""

from __future__ import annotations

from statistics import NormalDist

from .. import fmt

__all__ = [
    "assumption_rows",
    "assumptions_frame",
    "split_assumptions",
    "combatants_frame",
    "comparison_counters_frame",
    "comparison_frame",
    "counter_header",
    "counters_frame",
    "differences_frame",
    "ks_note",
    "kill_time_frame",
    "sweep_frame",
    "time_units",
    "wins_frame",
    "win_header",
    "Z95",
]

#: The two-sided 95% normal quantile (1.959964) of the "mean ± half-width" the tables and the
#: sweep plots show, as the analysis's intervals compute it.
Z95 = NormalDist().inv_cdf(0.5 + 0.95 / 2.0)

#: Units the kill-time table gives besides the system's own.
TIME_UNITS = ("round", "second")


def time_units(result) -> list[str]:
    """The units a kill time is given in: the system's own, then rounds and seconds, each
    once (a system that counts in rounds gets no second row of rounds)."""
    return list(dict.fromkeys((result.time_unit["unit"], *TIME_UNITS)))


def win_header(side: str) -> str:
    """Header of a side's win-probability column: ``"P(red wins), 95% interval"``."""
    return f"P({side} wins), 95% interval"


def wins_frame(result):
    """Who wins: one row per side (and draws / unresolved fights when there were any).

    Parameters
    ----------
    result : Result

    Returns
    -------
    pandas.DataFrame
        ``outcome``, ``probability (95% interval)``, ``fights``.
    """
    import pandas as pd

    raw = result.win_table()
    raw = raw[(raw["count"] > 0) | raw["outcome"].isin(result.sides)]
    return pd.DataFrame(
        {
            "outcome": [o if o in result.sides else f"({o})" for o in raw["outcome"]],
            "probability (95% interval)": [
                fmt.pct_interval(*row)
                for row in raw[["probability", "ci95_low", "ci95_high"]].itertuples(index=False)
            ],
            "fights": [fmt.count(c) for c in raw["count"]],
        }
    )


def kill_time_frame(result):
    """How long it takes, in the system's unit, rounds and seconds (one row each).

    Parameters
    ----------
    result : Result

    Returns
    -------
    pandas.DataFrame
        ``in``, ``mean (95% interval)``, ``sd``, ``median (95% interval)``, ``5th-95th
        percentile``, ``decisive fights``; empty when no fight was decisive.
    """
    import pandas as pd

    rows = []
    for unit in time_units(result):
        s = result.kill_time_summary(unit=unit)
        if s["mean"] is None:
            continue
        q = s["quantiles"]
        digits = 2 if unit != "second" else 1
        rows.append(
            {
                "in": fmt.plural(unit),
                "mean (95% interval)": fmt.num_interval(s["mean"], *s["ci95"], digits=digits),
                "sd": fmt.num(s["sd"], digits),
                "median (95% interval)": fmt.num_interval(
                    q["0.5"]["value"], *q["0.5"]["ci95"], digits=digits
                ),
                "5th-95th percentile": fmt.num_range(q["0.05"]["value"], q["0.95"]["value"]),
                "decisive fights": fmt.count(s["n"]),
            }
        )
    return pd.DataFrame(rows)


def combatants_frame(result):
    """Per combatant: hit rate, attacks, damage with 95% intervals, P(down) and P(dead) with
    the mean and median time it happened.

    Parameters
    ----------
    result : Result

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    unit = fmt.plural(result.time_unit["unit"])
    stats = result.combatant_stats()
    dmg = result.damage_table().to_dict("records")
    downs = result.down_times()
    rows = []
    for st, d, dn in zip(stats, dmg, downs, strict=True):
        rows.append(
            {
                "combatant": st["combatant"],
                "side": st["side"],
                "hit rate": fmt.pct(st["hit_rate"]) if st["hit_rate"] is not None else "-",
                "attacks per fight": fmt.num(st["attacks_mean"]),
                "damage dealt (95%)": _mean_pm(d["damage_dealt_mean"], d["damage_dealt_se"]),
                "damage taken (95%)": _mean_pm(d["damage_taken_mean"], d["damage_taken_se"]),
                "P(down)": fmt.pct(dn["p_down"]),
                f"down at, mean / median ({unit})": _times(dn["time_to_down_mean"],
                                                           dn["time_to_down_median"]),
                "P(dead)": fmt.pct(dn["p_death"]),
                f"dead at, mean / median ({unit})": _times(dn["time_to_death_mean"],
                                                           dn["time_to_death_median"]),
            }
        )  # fmt: skip
    return pd.DataFrame(rows)


def _mean_pm(mean, se) -> str:
    return f"{fmt.num(mean, 1)} ± {fmt.num(Z95 * se, 1)}"


def _times(mean, median) -> str:
    if mean is None:
        return "-"
    return f"{fmt.num(mean)} / {fmt.num(median)}"


def comparison_frame(cmp):
    """The variants side by side: win probabilities and kill time with 95% intervals.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    pandas.DataFrame
        ``variant``, one ``P(<side> wins), 95% interval`` column per side, ``P(draw)`` and
        ``P(unresolved)`` when any variant had one, ``mean kill time (<unit>s, 95%)``,
        ``median``.
    """
    import pandas as pd

    first = cmp.results[0]
    unit = fmt.plural(first.time_unit["unit"])
    others = [o for o in ("draw", "unresolved")
              if any(r.outcome_probability(o) > 0 for r in cmp.results)]  # fmt: skip
    rows = []
    for label, res in zip(cmp.labels, cmp.results, strict=True):
        row = {"variant": label}
        for side in res.sides:
            row[win_header(side)] = fmt.pct_interval(res.win_probability(side),
                                                     *res.win_interval(side))  # fmt: skip
        for outcome in others:
            row[f"P({outcome}), 95% interval"] = fmt.pct_interval(
                res.outcome_probability(outcome), *res.outcome_interval(outcome)
            )

        kt = res.kill_time_summary()
        row[f"mean kill time ({unit}, 95%)"] = fmt.num_interval(kt["mean"], *kt["ci95"])
        row[f"median ({unit})"] = (
            "-" if kt["mean"] is None else fmt.num(kt["quantiles"]["0.5"]["value"])
        )
        rows.append(row)
    return pd.DataFrame(rows)


def comparison_counters_frame(cmp):
    """What the rules count, as probabilities, variant by variant: one row per combatant and
    counter that any variant scored (``Cruiser 1``, ``P(crashes ≥ 1)``), one column per
    variant ("-" where a variant kept no trials to tell).

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    pandas.DataFrame
        Empty when nothing was counted.
    """
    import pandas as pd

    probs = [res.counter_probabilities() for res in cmp.results]
    keys = list(dict.fromkeys(k for p in probs for k in p))
    first = cmp.results[0]
    rows = []
    for who, label in keys:
        row = {"combatant": who, "counted": counter_header(first, label)}
        for name, p in zip(cmp.labels, probs, strict=True):
            v = p.get((who, label))
            row[name] = "-" if v is None else fmt.pct(v)
        rows.append(row)
    return pd.DataFrame(rows)


def differences_frame(cmp):
    """Each variant against the baseline: paired differences with 95% intervals and the
    kill-time distribution test.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    pandas.DataFrame
        ``change``, ``quantity``, ``difference``, ``95% interval``; the distribution test's
        row gives the KS distance as the difference and its p-value as the interval.
    """
    import pandas as pd

    unit = cmp.results[0].time_unit["unit"]
    rows = []
    for d in cmp.differences:
        pair = f"{cmp.labels[d['b']]} vs {cmp.labels[d['a']]}"
        for side, w in d["win_probability"].items():
            rows.append({"change": pair, "quantity": f"P({side} wins)",
                         "difference": fmt.pts(w["diff"]),
                         "95% interval": fmt.pts_interval(*w["ci95"])})  # fmt: skip
        for outcome in ("draw", "unresolved"):
            w = d.get(f"{outcome}_probability")
            pair_results = (cmp.results[d["a"]], cmp.results[d["b"]])
            if w is None or not any(r.outcome_probability(outcome) for r in pair_results):
                continue
            rows.append({"change": pair, "quantity": f"P({outcome})",
                         "difference": fmt.pts(w["diff"]),
                         "95% interval": fmt.pts_interval(*w["ci95"])})  # fmt: skip
        for key, name in (("kill_time_mean", "mean kill time"),
                          ("kill_time_median", "median kill time")):  # fmt: skip
            v = d[key]
            if v["diff"] is None:
                continue
            rows.append({"change": pair, "quantity": name,
                         "difference": fmt.signed(v["diff"], unit),
                         "95% interval": fmt.signed_interval(*v["ci95"], unit)})
        t = d["kill_time_test"]
        if t.get("p_value") is not None:
            rows.append({"change": pair, "quantity": "kill-time distribution (KS distance)",
                         "difference": f"{t['statistic']:.3f}",
                         "95% interval": fmt.p_value(t["p_value"], t.get("p_value_floor"))})
    return pd.DataFrame(rows, columns=["change", "quantity", "difference", "95% interval"])


def counter_header(result, label: str) -> str:
    """The header of a counter's probability: ``P(immobilised)`` for a 0-or-1 counter,
    ``P(crashes ≥ 1)`` for a count."""
    spec = next((c for c in (result.schema.counters if result.schema else ())
                 if c.label == label), None)  # fmt: skip
    name = label.replace("_", " ")
    return f"P({name})" if spec is None or spec.percent else f"P({name} ≥ 1)"


def counters_frame(result):
    """What the rule system counts beyond the shared outcomes, one row a combatant that
    scored any: each 0-or-1 counter as a probability (``P(immobilised)``), each count as its
    mean per fight and, when the run kept its trials, the probability that it happened at
    all (``P(crashes ≥ 1)``) beside it; a time as its mean over the fights where it
    happened ("-" where it never did).

    Parameters
    ----------
    result : Result

    Returns
    -------
    pandas.DataFrame
        ``combatant`` and a column or two per counter; or, when there are more of those
        columns than combatants, one row per quantity (``counted``) and one column per
        combatant; empty when nobody scored.
    """
    import pandas as pd

    per = result.combatant_stats()
    specs = [c for c in (result.schema.counters if result.schema else ())
             if any(row[f"{c.label}_mean"] for row in per)]  # fmt: skip
    rows = []
    for i, row in enumerate(per):
        if not any(row[f"{c.label}_mean"] for c in specs):
            continue
        out = {"combatant": row["combatant"]}
        for c in specs:
            v = row[f"{c.label}_mean"]
            name = c.label.replace("_", " ")
            if c.percent:
                out[counter_header(result, c.label)] = "-" if v is None else fmt.pct(v)
                continue
            out[f"{name} (mean)"] = "-" if v is None else f"{v:.2f}"
            p = result.counter_probability(c, i)
            if p is not None:
                out[counter_header(result, c.label)] = fmt.pct(p)
        rows.append(out)
    frame = pd.DataFrame(rows)
    if len(frame) and len(frame.columns) - 1 > len(frame):
        # more quantities than combatants: one row a quantity reads better than a wide table
        frame = frame.set_index("combatant").T.rename_axis("counted").reset_index()
        frame.columns.name = None
    return frame


def ks_note(cmp) -> str:
    """The sentence explaining the kill-time distribution row (empty when no test ran).

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    str
    """
    tests = [d["kill_time_test"] for d in cmp.differences
             if d["kill_time_test"].get("p_value") is not None]  # fmt: skip
    if not tests:
        return ""
    names = sorted({t["name"] for t in tests})
    floor = tests[0]["p_value_floor"]  # 1 / (permutations + 1)
    n_perm = round(1 / floor) - 1
    return (
        "The KS distance is the largest gap between two variants' kill-time CDFs; its p-value "
        f"comes from a {' / '.join(names)} ({n_perm} permutations, so the smallest p-value it "
        f"can give is {floor:g})."
    )


def assumptions_frame(result, rows: list[dict] | None = None):
    """Rule switches with their defaults and rulings; switches off their default are marked.

    Parameters
    ----------
    result : Result
    rows : list of dict, optional
        The rows to show (default: every switch, :func:`assumption_rows`).

    Returns
    -------
    pandas.DataFrame
        ``rule switch``, ``value``, ``default``, ``ruling``, and ``why it cannot matter
        here`` when a row says so.
    """
    import pandas as pd

    rows = assumption_rows(result) if rows is None else rows
    out = []
    for raw in rows:
        row = {"rule switch": raw["switch"],
               "value": _yaml(raw["value"]) + (" (changed)" if raw["changed"] else ""),
               "default": "" if raw["default"] is None else _yaml(raw["default"]),
               "ruling": raw["ruling"] or ""}  # fmt: skip
        if any(r.get("inert") for r in rows):
            row["why it cannot matter here"] = raw.get("inert") or ""
        out.append(row)
    return pd.DataFrame(out, columns=None if out else ["rule switch", "value", "default",
                                                       "ruling"])  # fmt: skip


def assumption_rows(result, scenario=None) -> list[dict]:
    """Every effective rule switch of the run with its default and ruling (the system's
    switches, from the registry): ``switch``, ``label``, ``value``, ``default``, ``ruling``,
    ``changed`` (off its default), ``inert``: why the switch cannot change this fight (the
    system's ``inert_switches(scenario)``; None when it can, or when the system does not say
    or no ``scenario`` is given), and ``inert_known`` (whether the system said).

    Parameters
    ----------
    result : Result
    scenario : Scenario, optional
        The scenario the run was built from (for the system's inert switches).

    Returns
    -------
    list of dict
    """
    from ..systems import get_system

    system = get_system(result.system)
    switches = system.switches
    inert = _inert(system, scenario)
    rows = []
    for key, value in result.rules.items():
        spec = switches.get(key)
        default = None if spec is None else spec.default
        rows.append({"switch": key, "label": None if spec is None else spec.label,
                     "value": value, "default": default,
                     "changed": spec is not None and value != default,
                     "ruling": None if spec is None else spec.ruling,
                     "inert": None if inert is None else inert.get(key),
                     "inert_known": inert is not None})  # fmt: skip
    return rows


def _inert(system, scenario) -> dict | None:
    """``{switch: why it cannot matter}`` from the system's hook, or None when the system has
    no such hook, names no switch (a system that has not looked says nothing either), or the
    hook fails: the table then falls back to showing what was changed."""
    hook = getattr(system, "inert_switches", None)
    if scenario is None or not callable(hook):
        return None
    try:
        found = dict(hook(scenario) or {})
    except Exception:  # a report is not the place to fail over a courtesy
        return None
    return {str(k): str(v) for k, v in found.items()} or None


def split_assumptions(rows: list[dict], varied=()) -> tuple[list[dict], list[dict]]:
    """The switches a reader needs to see, and the rest (folded away in a report).

    Shown: every switch off its default or varied, and, when the system says which switches
    cannot change this fight (``inert``), every switch it does not name. Folded: the others (at
    their defaults and, where the system says, unable to matter). Without the system's word
    only the changed switches are shown.

    Parameters
    ----------
    rows : list of dict
        :func:`assumption_rows`.
    varied : iterable of str
        Switches a comparison or a sweep varies: always shown.

    Returns
    -------
    (shown, folded) : tuple of lists
    """
    knows = any(r.get("inert_known") for r in rows)
    varied = set(varied)
    shown, folded = [], []
    for r in rows:
        relevant = (r["changed"] or r["default"] is None or r["switch"] in varied
                    or (knows and not r.get("inert")))  # fmt: skip
        (shown if relevant else folded).append(r)
    return shown, folded


def _yaml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return fmt.num(value) if isinstance(value, float) else str(value)


def sweep_frame(table, keys: list[str]):
    """A sweep's points: the grid values, each side's win probability, the shares of draws
    and of fights left unresolved, the mean kill time, with 95% intervals, and the point's
    scenario warnings when any point has one.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`~fuzion_sim.analysis.sweep.sweep` returns.
    keys : list of str
        The grid keys.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    sides = [c.split(".", 1)[1] for c in table.columns if c.startswith("win_probability.")]
    units = table["kill_time_unit"] if "kill_time_unit" in table.columns else None
    unit = "phases"
    if units is not None and units.notna().any():
        unit = fmt.plural(str(units.dropna().iloc[0]))
    z = Z95
    warned = "warnings" in table.columns and table["warnings"].fillna("").astype(bool).any()
    rows = []
    for rec in table.to_dict("records"):
        row = {k: _yaml(rec[k]) for k in keys}
        for s in sides:
            row[win_header(s)] = fmt.pct_interval(rec[f"win_probability.{s}"],
                                                  rec.get(f"win_ci95_low.{s}"),
                                                  rec.get(f"win_ci95_high.{s}"))  # fmt: skip
        if "draw_probability" in rec:
            row["draw"] = fmt.pct(rec["draw_probability"])
        if "unresolved_probability" in rec:
            row["unresolved"] = fmt.pct(rec["unresolved_probability"])
        if warned:
            row["warnings"] = str(rec.get("warnings") or "")
        mean, se = rec.get("kill_time_mean"), rec.get("kill_time_se")
        ok = mean is not None and se is not None and se == se
        row[f"mean kill time ({unit}, 95%)"] = (
            fmt.num_interval(mean, mean - z * se, mean + z * se) if ok else fmt.num(mean)
        )
        rows.append(row)
    return pd.DataFrame(rows)
