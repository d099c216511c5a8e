"""Rule comparisons on common random numbers: paired differences with intervals and a verdict.

Every variant runs with the same seed and trial count, so trial ``k`` of each variant starts
from the same random stream. Differences (variant b minus variant a) are estimated from the
per-trial pairs:

- win probability: mean of the per-trial difference of win indicators, normal interval from
  its standard error (the pairing removes the shared noise);
- mean kill time (over decisive fights, a ratio estimator): delta method on the paired
  per-trial influence values;
- median kill time: percentile bootstrap resampling whole trials (the pair travels together),
  done exactly on the joint histogram of (end slot a, end slot b);
- kill-time distributions: Kolmogorov-Smirnov statistic with a paired permutation test (the two
  results of one trial swapped with probability 1/2), valid for dependent samples.

With ``common_random_numbers=False`` each variant gets its own seed and the same quantities are
computed for independent samples (for contrast: the intervals are wider).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._args import check_axes, check_engine, check_flag, check_scenario, checked
from ..engine.outcomes import DRAW, UNRESOLVED
from ..errors import FuzionSimError, Interrupted
from ..scenario.variants import as_base, axes_of, expand_grid, label_of
from . import simulation
from .intervals import z_value
from .simulation import check_run_args, engine_kwargs

__all__ = ["Comparison", "compare", "paired_difference", "N_BOOT", "N_PERM"]

#: Bootstrap replicates for the median difference and permutations for the KS test.
N_BOOT = 1000
N_PERM = 999
#: Seed stride between variants when common random numbers are off.
_INDEPENDENT_STRIDE = 1_000_003


def _joint_cells(ta: np.ndarray, tb: np.ndarray, size: int):
    """Distinct (a, b) end-slot pairs (0 = not decisive) and their counts."""
    code = ta.astype(np.int64) * size + tb.astype(np.int64)
    cells, counts = np.unique(code, return_counts=True)
    return cells // size, cells % size, counts


def _hist_rows(cols: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Rows of histograms: ``weights[r, j]`` counts added at slot ``cols[j]``."""
    out = np.zeros((weights.shape[0], size))
    for j, c in enumerate(cols):
        out[:, c] += weights[:, j]
    return out


def _medians(h: np.ndarray) -> np.ndarray:
    """Median slot of each histogram row, ignoring slot 0 (not decisive)."""
    h = h[:, 1:]
    cdf = np.cumsum(h, axis=1)
    total = cdf[:, -1:]
    return np.argmax(cdf >= 0.5 * total - 1e-9 * total, axis=1) + 1.0


def _ks(ha: np.ndarray, hb: np.ndarray) -> np.ndarray:
    """KS distance between the conditional (decisive) distributions, per row."""
    ca = np.cumsum(ha[:, 1:], axis=1)
    cb = np.cumsum(hb[:, 1:], axis=1)
    ca = ca / np.maximum(ca[:, -1:], 1)
    cb = cb / np.maximum(cb[:, -1:], 1)
    return np.abs(ca - cb).max(axis=1)


def paired_difference(ra, rb, paired: bool = True, seed: int = 0, confidence: float = 0.95):
    """Differences (``rb`` minus ``ra``) of win probability and kill time, with intervals.

    Parameters
    ----------
    ra, rb : Result
        Two runs with per-trial outcomes kept; for ``paired`` the same seed and trials.
    paired : bool
        Treat trial ``k`` of both runs as a pair (common random numbers).
    seed : int
        Seed of the bootstrap and permutation draws.
    confidence : float
        Interval coverage.

    Returns
    -------
    dict
        ``win_probability`` (per side ``{"diff", "ci95", "se"}``), ``draw_probability`` and
        ``unresolved_probability`` (``{"diff", "ci95", "se"}``), ``kill_time_mean``,
        ``kill_time_median`` (``{"diff", "ci95"}``), ``kill_time_test`` (``{"name",
        "statistic", "p_value"}``).
    """
    if ra.outcomes is None or rb.outcomes is None:
        raise FuzionSimError("comparisons need per-trial outcomes (keep_trials=True)")
    if ra.sides != rb.sides:
        raise FuzionSimError("the variants have different sides; cannot compare them")
    n_a, n_b = ra.outcomes.n, rb.outcomes.n
    if paired and n_a != n_b:
        raise FuzionSimError("paired comparison needs the same number of trials")
    z = z_value(confidence)
    wa, wb = ra.outcomes.winner.astype(np.int64), rb.outcomes.winner.astype(np.int64)
    out = {"paired": bool(paired), "win_probability": {}}

    def proportion(code: int) -> dict:
        xa, xb = (wa == code).astype(float), (wb == code).astype(float)
        diff = xb.mean() - xa.mean()
        if n_a < 2 or n_b < 2:
            se = float("nan")
        elif paired:
            se = (xb - xa).std(ddof=1) / np.sqrt(n_a)
        else:
            se = np.sqrt(xa.var(ddof=1) / n_a + xb.var(ddof=1) / n_b)
        return {"diff": float(diff), "ci95": [float(diff - z * se), float(diff + z * se)],
                "se": float(se)}  # fmt: skip

    for k, side in enumerate(ra.sides):
        out["win_probability"][side] = proportion(k)
    out["draw_probability"] = proportion(DRAW)
    out["unresolved_probability"] = proportion(UNRESOLVED)
    # Kill time: end slot of decisive trials, 0 otherwise.
    da, db = wa >= 0, wb >= 0
    ta = np.where(da, ra.outcomes.end_slot, 0).astype(np.int64)
    tb = np.where(db, rb.outcomes.end_slot, 0).astype(np.int64)
    if not da.any() or not db.any():
        out["kill_time_mean"] = {"diff": None, "ci95": [None, None], "se": None}
        out["kill_time_median"] = {"diff": None, "ci95": [None, None]}
        out["kill_time_test"] = {"name": "none (no decisive fights)", "p_value": None}
        return out
    pa, pb = da.mean(), db.mean()
    ma, mb = ta[da].mean(), tb[db].mean()
    ia = np.where(da, ta - ma, 0.0) / pa
    ib = np.where(db, tb - mb, 0.0) / pb
    if paired:
        se = (ib - ia).std(ddof=1) / np.sqrt(n_a)
    else:
        se = np.sqrt(ia.var(ddof=1) / n_a + ib.var(ddof=1) / n_b)
    diff = mb - ma
    out["kill_time_mean"] = {
        "diff": float(diff), "ci95": [float(diff - z * se), float(diff + z * se)], "se": float(se)
    }  # fmt: skip
    size = int(max(ta.max(), tb.max())) + 1
    rng = np.random.default_rng(seed)
    alpha = 1 - confidence
    obs_a = np.bincount(ta, minlength=size)[None, :].astype(float)
    obs_b = np.bincount(tb, minlength=size)[None, :].astype(float)
    med_diff = float(_medians(obs_b)[0] - _medians(obs_a)[0])
    if paired:
        ca, cb, counts = _joint_cells(ta, tb, size)
        w = rng.multinomial(n_a, counts / counts.sum(), size=N_BOOT).astype(float)
        boot = _medians(_hist_rows(cb, w, size)) - _medians(_hist_rows(ca, w, size))
        swap = rng.binomial(counts[None, :].repeat(N_PERM, axis=0), 0.5).astype(float)
        stay = counts[None, :] - swap
        ha = _hist_rows(ca, stay, size) + _hist_rows(cb, swap, size)
        hb = _hist_rows(cb, stay, size) + _hist_rows(ca, swap, size)
        test_name = "Kolmogorov-Smirnov, paired permutation test"
    else:
        fa, fb = obs_a[0], obs_b[0]
        wa_ = rng.multinomial(n_a, fa / fa.sum(), size=N_BOOT).astype(float)
        wb_ = rng.multinomial(n_b, fb / fb.sum(), size=N_BOOT).astype(float)
        boot = _medians(wb_) - _medians(wa_)
        # Permutation of the pooled sample: hypergeometric split of every slot's count.
        pooled = (fa + fb).astype(np.int64)
        ha = np.array([rng.multivariate_hypergeometric(pooled, n_a) for _ in range(N_PERM)])
        hb = pooled[None, :] - ha
        test_name = "Kolmogorov-Smirnov, permutation test"
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    out["kill_time_median"] = {"diff": med_diff, "ci95": [float(lo), float(hi)]}
    stat = float(_ks(obs_a, obs_b)[0])
    perm = _ks(np.asarray(ha, float), np.asarray(hb, float))
    p_value = (1 + int((perm >= stat - 1e-12).sum())) / (N_PERM + 1)
    out["kill_time_test"] = {"name": test_name, "statistic": stat, "p_value": float(p_value),
                             "p_value_floor": 1 / (N_PERM + 1)}  # fmt: skip
    return out


@dataclass
class Comparison:
    """Variants of one scenario and their differences from the first (the baseline).

    Attributes
    ----------
    values : list of dict
        Each variant's ``{key_path: value}``.
    results : list of Result
    differences : list of dict
        One per variant after the first: ``{"a": 0, "b": i, ...}``, see
        :func:`paired_difference`.
    """

    values: list[dict]
    results: list
    differences: list[dict] = field(default_factory=list)
    common_random_numbers: bool = True

    @property
    def labels(self) -> list[str]:
        """Each variant's short label (``"Interlock"``, ``"pd=8"``), in order."""
        return [label_of(v) for v in self.values]

    def verdicts(self) -> list[str]:
        """One plain-language sentence per difference.

        Returns
        -------
        list of str
            How each variant changes the fight's length and the baseline favourite's chance
            (or that the favourite changes), with 95% intervals.
        """
        return [_verdict(self, d) for d in self.differences]

    def __repr__(self) -> str:
        """The variants and the verdicts in a few lines (the results are not printed)."""
        from ..report.notebook import comparison_repr

        return comparison_repr(self)

    def _repr_html_(self) -> str:
        """Jupyter's view: the variants table, the differences and the verdicts."""
        from ..report.notebook import comparison_html

        return comparison_html(self)

    def plot(self, kind: str = "win", path=None):
        """A figure of the comparison.

        Parameters
        ----------
        kind : {'win', 'kill_time'}
            ``'win'``: win probabilities per variant with 95% intervals; ``'kill_time'``: the
            variants' kill-time pmfs and CDFs overlaid.
        path : str or os.PathLike, optional
            Also save the figure there as a PNG.

        Returns
        -------
        matplotlib.figure.Figure

        Raises
        ------
        UnknownNameError
            An unknown ``kind``.
        """
        from ..errors import unknown_name
        from ..report import plots

        kinds = ["win", "kill_time"]
        if kind not in kinds:
            raise unknown_name("plot kind", kind, kinds)
        fig = plots.comparison_figures(self)[kinds.index(kind)]
        if path is not None:
            plots.save(fig, path)
        return fig

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim compare --json`` prints.

        Returns
        -------
        dict
            ``common_random_numbers``, ``variants`` (values, label, trials, seed, sides, kill
            time, draw and unresolved probabilities), ``differences`` (b minus a, draws and
            unresolved fights included) and ``verdicts``.
        """
        variants = []
        for values, res in zip(self.values, self.results, strict=True):
            full = res.to_json_dict()
            variants.append(
                {"values": dict(values), "label": label_of(values), "trials": full["trials"],
                 "seed": full["seed"], "sides": full["sides"], "kill_time": full["kill_time"],
                 "draw_probability": full["draw_probability"],
                 "unresolved_probability": full["unresolved_probability"]}
            )  # fmt: skip
        return {
            "common_random_numbers": self.common_random_numbers,
            "variants": variants,
            "differences": self.differences,
            "verdicts": self.verdicts(),
        }

    def to_frame(self):
        """One row per variant: its values, win, draw and unresolved probabilities with
        intervals, the probabilities of what the rules count (``p_<label>.<combatant>``),
        kill time.

        Returns
        -------
        pandas.DataFrame
            Raw numbers (what ``comparison.csv`` holds); ``fuzion_sim.report.tables`` formats
            them for reading.
        """
        import pandas as pd

        rows = []
        for values, res in zip(self.values, self.results, strict=True):
            row = {"variant": label_of(values), **values}
            for side in res.sides:
                lo, hi = res.win_interval(side)
                row[f"win_probability.{side}"] = res.win_probability(side)
                row[f"win_ci95_low.{side}"] = lo
                row[f"win_ci95_high.{side}"] = hi
            for outcome in ("draw", "unresolved"):
                lo, hi = res.outcome_interval(outcome)
                row[f"{outcome}_probability"] = res.outcome_probability(outcome)
                row[f"{outcome}_ci95_low"] = lo
                row[f"{outcome}_ci95_high"] = hi
            for (who, label), p in res.counter_probabilities().items():
                row[f"p_{label}.{who}"] = p
            kt = res.kill_time_summary()
            row["kill_time_mean"] = kt["mean"]
            row["kill_time_ci95_low"], row["kill_time_ci95_high"] = kt["ci95"]
            row["kill_time_median"] = kt.get("quantiles", {}).get("0.5", {}).get("value")
            row["trials"] = res.trials
            rows.append(row)
        return pd.DataFrame(rows)

    def differences_frame(self):
        """One row per (difference, quantity) with the estimate, interval and p-value.

        Returns
        -------
        pandas.DataFrame
            Raw numbers (what ``differences.csv`` holds).
        """
        import pandas as pd

        rows = []
        labels = self.labels
        for d in self.differences:
            base = {"a": labels[d["a"]], "b": labels[d["b"]]}
            for side, w in d["win_probability"].items():
                rows.append({**base, "quantity": f"win_probability.{side}", "diff": w["diff"],
                             "ci95_low": w["ci95"][0], "ci95_high": w["ci95"][1]})  # fmt: skip
            for q in ("draw_probability", "unresolved_probability"):
                w = d[q]
                rows.append({**base, "quantity": q, "diff": w["diff"],
                             "ci95_low": w["ci95"][0], "ci95_high": w["ci95"][1]})  # fmt: skip
            for q in ("kill_time_mean", "kill_time_median"):
                lo, hi = d[q]["ci95"]
                rows.append({**base, "quantity": q, "diff": d[q]["diff"],
                             "ci95_low": lo, "ci95_high": hi})  # fmt: skip
            t = d["kill_time_test"]
            rows.append({**base, "quantity": "kill_time_test", "test": t["name"],
                         "p_value": t["p_value"]})  # fmt: skip
        return pd.DataFrame(rows)


def _excludes_zero(ci) -> bool:
    return ci[0] is not None and (ci[0] > 0 or ci[1] < 0)


def _verdict(cmp: Comparison, d: dict) -> str:
    a, b = d["a"], d["b"]
    ra, rb = cmp.results[a], cmp.results[b]
    la, lb = cmp.labels[a], cmp.labels[b]
    unit = ra.time_unit["unit"]
    parts = []
    km = d["kill_time_mean"]
    if km["diff"] is None:
        parts.append(f"{lb}: no decisive fights to time")
    elif _excludes_zero(km["ci95"]):
        verb = "shortens" if km["diff"] < 0 else "lengthens"
        lo, hi = sorted(abs(x) for x in km["ci95"])
        parts.append(
            f"{lb} {verb} the fight by {abs(km['diff']):.2f} {unit}s ({lo:.2f}-{hi:.2f}) "
            f"compared with {la}"
        )
    else:
        parts.append(
            f"{lb} does not measurably change the fight's length compared with {la} "
            f"({km['diff']:+.2f} {unit}s, {km['ci95'][0]:+.2f} to {km['ci95'][1]:+.2f})"
        )
    parts.append(_favourite(ra, rb, la, lb, d))
    others = _others_change(ra, rb, la, lb, d)
    if others:
        parts.append(others)
    return "; ".join(parts) + "."


#: How a verdict names the outcomes that are no side's win.
_NO_WIN = {"draw": "a draw", "unresolved": "no result by max_rounds"}


def _likeliest_other(res) -> tuple[str, float]:
    """The likelier of a draw and an unresolved fight, and its probability."""
    return max((("draw", res.outcome_probability("draw")),
                ("unresolved", res.outcome_probability("unresolved"))),
               key=lambda item: item[1])  # fmt: skip


def _leader(res) -> tuple[str, float, str | None, float]:
    """The side likeliest to win, its probability, and the outcome that is no win when that
    is likelier still (else None)."""
    side = max(res.sides, key=res.win_probability)
    p = res.win_probability(side)
    other, q = _likeliest_other(res)
    return side, p, (other if q > p else None), q


def _favourite(ra, rb, la: str, lb: str, d: dict) -> str:
    """What happens to the baseline's favourite: unchanged, its chance moves, or it changes.
    A side less likely to win than a draw (or a fight left unresolved) is never called the
    favourite: the sentence then says what the likeliest outcome is, with each variant's
    leading side beside it."""
    from ..fmt import pct_pair

    wins = d["win_probability"]
    fav, pa, other_a, qa = _leader(ra)
    new, pn, other_b, qb = _leader(rb)
    if other_a or other_b:
        parts = []
        for res, label, side, p, other, q in ((ra, la, fav, pa, other_a, qa),
                                              (rb, lb, new, pn, other_b, qb)):  # fmt: skip
            tp, tq = pct_pair(p, q)
            if other:
                parts.append(f"with {label} {_NO_WIN[other]} is the likeliest outcome ({tq}), "
                             f"{side} the likeliest winner ({tp})")  # fmt: skip
            else:
                parts.append(f"with {label} {side} is the favourite ({tp}, "
                             f"{_NO_WIN[_likeliest_other(res)[0]]} {tq})")  # fmt: skip
        return "no side is the favourite throughout: " + "; ".join(parts)
    pb = rb.win_probability(fav)
    ta, tb = pct_pair(pa, pb)
    if not _excludes_zero(wins[fav]["ci95"]):
        return f"the favourite's ({fav}) chance is unchanged within the noise ({ta} vs {tb})"
    if new == fav:
        if pa > 0.5:
            verb = "shrinks" if pb < pa else "grows"
            return f"the favourite's ({fav}) edge {verb} from {ta} to {tb}"
        verb = "falls" if pb < pa else "rises"
        return f"the favourite's ({fav}) chance {verb} from {ta} to {tb}"
    tn, tb = pct_pair(pn, pb)
    lo_new, _ = rb.win_interval(new)
    _, hi_old = rb.win_interval(fav)
    if lo_new > hi_old:
        return (
            f"the favourite changes from {fav} ({ta} with {la}) to {new} ({tn} with {lb}, "
            f"{fav} {tb})"
        )
    return (
        f"the favourite ({fav}) loses its edge ({ta} with {la}, {tb} with {lb}) and is level "
        f"with {new} ({tn}) within the noise"
    )


def _others_change(ra, rb, la: str, lb: str, d: dict) -> str | None:
    """A sentence on draws and unresolved fights when their share measurably changes."""
    from ..fmt import pct_pair

    parts = []
    for outcome, plural in (("draw", "draws"), ("unresolved", "unresolved fights")):
        w = d.get(f"{outcome}_probability")
        if w is None or not _excludes_zero(w["ci95"]):
            continue
        ta, tb = pct_pair(ra.outcome_probability(outcome), rb.outcome_probability(outcome))
        verb = "rise" if w["diff"] > 0 else "fall"
        parts.append(f"{plural} {verb} from {ta} with {la} to {tb} with {lb}")
    return "; ".join(parts) or None


def _check_compare(scenario, vary, trials, seed, threads, common_random_numbers, backend,
                   scheduler, progress):  # fmt: skip
    check_scenario(scenario)
    check_axes("vary", vary)
    check_run_args(trials, seed, threads)
    check_flag("common_random_numbers", common_random_numbers)
    check_engine(backend, scheduler, progress)


@checked(_check_compare)
def compare(
    scenario,
    vary,
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    common_random_numbers: bool = True,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = False,
) -> Comparison:
    """Run variants of a scenario and compare each with the first.

    Parameters
    ----------
    scenario : path, Scenario or Base
        The base scenario.
    vary : dict, list of (key_path, values), list of str, or str
        The axes; their cross product gives the variants, in order (the first is the baseline).
        E.g. ``{"rules.dice": ["hero", "interlock"]}``, or as the CLI's ``--vary`` takes them,
        ``["rules.dice=hero,interlock"]`` (values may also be ``"hero,interlock"`` or
        ``"START:STOP:STEP"`` text).
    trials, seed : int, optional
        Override the scenario's trial count and seed (every variant uses the same ones).
    threads : int, optional
        Worker threads.
    common_random_numbers : bool
        True (default): same seed for every variant and paired differences. False: seeds
        ``seed + i * 1000003`` and independent-sample differences.
    backend, scheduler : str, optional
        Engine backend options, passed through to :func:`~fuzion_sim.analysis.simulation.simulate`.
    progress : bool, optional
        Progress bars.

    Returns
    -------
    Comparison
    """
    from ..engine.runner import check_keep

    base = as_base(scenario)
    points = expand_grid(axes_of(vary))
    if len(points) < 2:
        raise FuzionSimError("a comparison needs at least two variants (give two values)")
    engine = engine_kwargs(backend, scheduler)
    scenarios = [base.build(list(p.items()), option="--vary") for p in points]
    seed = scenarios[0].seed if seed is None else int(seed)
    # every variant's per-trial outcomes are held at once for the paired differences
    n = scenarios[0].trials if trials is None else int(trials)
    check_keep(n * len(scenarios), max(len(sc.combatants) for sc in scenarios),
               what=f"a comparison of {len(scenarios)} variants")  # fmt: skip
    results = []
    for i, sc in enumerate(scenarios):
        s = seed if common_random_numbers else seed + i * _INDEPENDENT_STRIDE
        try:
            results.append(
                simulation.simulate(sc, trials=trials, seed=s, threads=threads,
                                    keep_trials=True, progress=progress, **engine)
            )  # fmt: skip
        except Interrupted as exc:  # count the variants already run too
            raise Interrupted(sum(r.trials for r in results) + exc.trials) from None
    cmp = Comparison(points, results, common_random_numbers=common_random_numbers)
    for i in range(1, len(results)):
        d = paired_difference(results[0], results[i], paired=common_random_numbers, seed=seed)
        cmp.differences.append({"a": 0, "b": i, **d})
    return cmp
