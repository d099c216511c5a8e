"""Run until decided: add trials to a paired comparison until an anytime-valid interval settles it.

Two variants of a scenario run in chunks on common random numbers (chunk ``b`` of both variants
starts from the same seed). After each chunk the per-trial paired differences of one side's win
indicator, ``d_k = 1[b wins] - 1[a wins]`` in ``[-1, 1]``, update a *confidence sequence* for
their mean (the difference of win probabilities). A confidence sequence covers the true
difference at every sample size at once with probability at least ``1 - alpha``, so stopping
as soon as it settles the question, at a time chosen by looking at the data, is honest: the
chance that an identical pair of variants is ever declared different is at most ``alpha``.

The procedure stops when the sequence

- excludes zero: the variants differ ("Interlock favours red by 3.1 to 4.9 points");
- lies inside ``(-margin, margin)``: equivalent within the margin;
- or the trial cap is reached: undecided, with the interval at the cap.

The sequence is the predictable plug-in empirical-Bernstein confidence sequence of
Waudby-Smith and Ramdas (2023, "Estimating means of bounded random variables by betting",
J. R. Stat. Soc. B 86(1), Theorem 2), applied to ``x = (d + 1) / 2`` in ``[0, 1]``. Its width
follows the variance of the paired differences, so the common random numbers' shrinking of that
variance shortens the run; a Hoeffding-type boundary would not. The running intersection of the
intervals is kept (still a valid confidence sequence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import FuzionSimError, Interrupted
from ..scenario.variants import as_base, axes_of, expand_grid, label_of
from . import simulation
from .simulation import check_run_args, engine_kwargs

__all__ = [
    "EBConfidenceSequence",
    "SequentialComparison",
    "compare_until_decided",
    "decide",
    "run_stream",
    "DEFAULT_CHUNK",
    "DEFAULT_CAP",
]

#: Trials per variant added at each look, and the default cap on trials per variant.
DEFAULT_CHUNK = 10_000
DEFAULT_CAP = 1_000_000
#: Seed stride between variants when common random numbers are off (as :mod:`.compare`).
_INDEPENDENT_STRIDE = 1_000_003


class EBConfidenceSequence:
    """Anytime-valid two-sided confidence sequence for the mean of observations in ``[0, 1]``.

    The predictable plug-in empirical-Bernstein sequence (Waudby-Smith & Ramdas 2023, Theorem
    2): with ``mu_t = (1/2 + sum x_i) / (t + 1)``, ``s2_t = (1/4 + sum (x_i - mu_i)^2) / (t + 1)``,
    bets ``lam_t = min(sqrt(2 log(2/alpha) / (s2_{t-1} t log(1 + t))), c)``, ``v_t = 4 (x_t -
    mu_{t-1})^2`` and ``psi(l) = (-log(1 - l) - l) / 4``, the interval after ``t`` observations is
    ``sum lam_i x_i / sum lam_i +- (log(2/alpha) + sum v_i psi(lam_i)) / sum lam_i``. It is
    updated a batch at a time with running sums (O(1) memory), vectorised within the batch.

    Parameters
    ----------
    alpha : float
        Error level: the sequence misses the mean at some time with probability <= ``alpha``.
    c : float
        Cap on the bets (1/2 as the paper recommends).
    """

    def __init__(self, alpha: float = 0.05, c: float = 0.5):
        if not 0 < alpha < 1:
            raise FuzionSimError(f"alpha must be in (0, 1), got {alpha!r}")
        self.alpha, self.c = float(alpha), float(c)
        self.t = 0
        self._sum_x = 0.0  # sum of x_i
        self._sum_sq = 0.0  # sum of (x_i - mu_i)^2
        self._sum_lam = 0.0
        self._sum_lam_x = 0.0
        self._sum_vpsi = 0.0
        self.low, self.high = 0.0, 1.0  # running intersection

    def update(self, x) -> tuple[float, float]:
        """Add observations (in order) and return the interval after the last one.

        Parameters
        ----------
        x : array_like of float in [0, 1]

        Returns
        -------
        (low, high)
            The running intersection of the intervals so far, for the mean of ``x``.
        """
        x = np.asarray(x, dtype=float).ravel()
        if x.size == 0:
            return self.low, self.high
        n = x.size
        t = self.t + np.arange(1, n + 1, dtype=float)  # 1-based index of each observation
        sum_x = self._sum_x + np.cumsum(x)
        mu = (0.5 + sum_x) / (t + 1)  # mu_t, after observation t
        mu_prev = np.concatenate(([(0.5 + self._sum_x) / (self.t + 1)], mu[:-1]))
        sq = np.cumsum((x - mu) ** 2) + self._sum_sq
        s2 = (0.25 + sq) / (t + 1)
        s2_prev = np.concatenate(([(0.25 + self._sum_sq) / (self.t + 1)], s2[:-1]))
        log2a = math.log(2 / self.alpha)
        lam = np.minimum(np.sqrt(2 * log2a / (s2_prev * t * np.log1p(t))), self.c)
        v = 4 * (x - mu_prev) ** 2
        psi = (-np.log1p(-lam) - lam) / 4
        self._sum_x = float(sum_x[-1])
        self._sum_sq = float(sq[-1])
        self._sum_lam += float(lam.sum())
        self._sum_lam_x += float((lam * x).sum())
        self._sum_vpsi += float((v * psi).sum())
        self.t += n
        centre = self._sum_lam_x / self._sum_lam
        half = (log2a + self._sum_vpsi) / self._sum_lam
        self.low = max(self.low, centre - half)
        self.high = min(self.high, centre + half)
        return self.low, self.high

    @property
    def mean(self) -> float:
        """The sample mean of the observations so far."""
        return self._sum_x / self.t if self.t else float("nan")


def decide(low: float, high: float, margin: float | None) -> str | None:
    """The verdict of an interval for a difference: ``"differs"``, ``"equivalent"`` or None.

    Parameters
    ----------
    low, high : float
        The confidence sequence's interval for the difference.
    margin : float or None
        Equivalence margin (a probability, 0.01 for one point); None: no equivalence stop.

    Returns
    -------
    str or None
    """
    if low > 0 or high < 0:
        return "differs"
    if margin is not None and -margin < low and high < margin:
        return "equivalent"
    return None


def run_stream(batches, alpha: float = 0.05, margin: float | None = None):
    """The sequential procedure on a stream of paired differences, look by look.

    Parameters
    ----------
    batches : iterable of array_like
        Per-trial paired differences in ``[-1, 1]``, one array per look.
    alpha, margin : float
        As :func:`compare_until_decided`.

    Returns
    -------
    (decision, history)
        ``decision`` is ``"differs"``, ``"equivalent"`` or ``"undecided"`` (the stream ran
        out); ``history`` one ``{"trials", "estimate", "low", "high"}`` per look.
    """
    cs = EBConfidenceSequence(alpha)
    history = []
    for d in batches:
        d = np.asarray(d, dtype=float)
        lo, hi = cs.update((d + 1) / 2)
        low, high = 2 * lo - 1, 2 * hi - 1
        history.append({"trials": cs.t, "estimate": 2 * cs.mean - 1, "low": low, "high": high})
        verdict = decide(low, high, margin)
        if verdict:
            return verdict, history
    return "undecided", history


def _batch_seed(seed: int, batch: int) -> int:
    """Chunk ``batch``'s seed: the run's own seed first (so the first chunk is a plain run's
    first trials), then independent streams derived from it."""
    if batch == 0:
        return int(seed)
    state = np.random.SeedSequence([int(seed), int(batch)]).generate_state(2, np.uint32)
    return (int(state[0]) << 31 | int(state[1]) >> 1) & ((1 << 63) - 1)


def _points(x: float) -> str:
    """A probability as points: one decimal, two below one point (so 0.04 is not "0.0")."""
    return f"{100 * x:.1f}" if abs(x) >= 0.01 else f"{100 * x:.2f}"


@dataclass
class SequentialComparison:
    """The answer of :func:`compare_until_decided`.

    Attributes
    ----------
    scenario : str
        The scenario's name.
    values : list of dict
        The two variants' ``{key_path: value}`` (baseline first).
    side : str
        Whose win probability is compared.
    decision : str
        ``"differs"``, ``"equivalent"`` or ``"undecided"`` (the cap was reached).
    trials : int
        Trials run per variant.
    estimate, low, high : float
        The difference (b minus a) of the side's win probability and its anytime-valid
        interval at the stop.
    win_probability : list of float
        The side's win probability with each variant over the trials run.
    history : list of dict
        Every look: ``trials``, ``estimate``, ``low``, ``high``.
    """

    scenario: str
    values: list
    side: str
    decision: str
    trials: int
    estimate: float
    low: float
    high: float
    alpha: float
    margin: float | None
    chunk: int
    cap: int
    seed: int
    win_probability: list
    common_random_numbers: bool = True
    history: list = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """The variants' short labels, baseline first."""
        return [label_of(v) for v in self.values]

    def verdict(self) -> str:
        """The answer in one sentence, with the interval in points and the trials used."""
        la, lb = self.labels
        conf = f"{100 * (1 - self.alpha):g}%"
        used = f"{self.trials:,} trials a variant"
        lo, hi = _points(self.low), _points(self.high)
        if self.decision == "differs":
            a, b = sorted((abs(self.low), abs(self.high)))
            verb = "favours" if self.estimate > 0 else "works against"
            return (
                f"{lb} {verb} {self.side} by {_points(a)} to {_points(b)} points compared with "
                f"{la} (anytime-valid {conf} interval; decided after {used})."
            )
        if self.decision == "equivalent":
            return (
                f"{lb} and {la} are equivalent within {_points(self.margin)} points for "
                f"{self.side} (difference {lo} to {hi} points, anytime-valid {conf} interval; "
                f"decided after {used})."
            )
        return (
            f"Undecided at the cap of {used}: {lb} changes {self.side}'s chance by {lo} to "
            f"{hi} points compared with {la} (anytime-valid {conf} interval)."
        )

    def to_json_dict(self) -> dict:
        """What ``fuzion-sim compare --until-decided --json`` prints."""
        return {
            "scenario": self.scenario,
            "variants": [dict(v) for v in self.values],
            "labels": self.labels,
            "side": self.side,
            "decision": self.decision,
            "trials": self.trials,
            "difference": self.estimate,
            "interval": [self.low, self.high],
            "alpha": self.alpha,
            "margin": self.margin,
            "chunk": self.chunk,
            "cap": self.cap,
            "seed": self.seed,
            "common_random_numbers": self.common_random_numbers,
            "win_probability": list(self.win_probability),
            "verdict": self.verdict(),
            "history": self.history,
        }

    def to_frame(self):
        """One row per look: trials a variant, the difference and its interval.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        return pd.DataFrame(self.history, columns=["trials", "estimate", "low", "high"])

    def __repr__(self) -> str:
        return f"SequentialComparison({self.decision}): {self.verdict()}"

    def _repr_html_(self) -> str:
        """Jupyter's view: the verdict and the looks."""
        from ..report.studies import sequential_html

        return sequential_html(self)

    def plot(self, path=None):
        """The interval against the trials run, with zero and the margin marked.

        Parameters
        ----------
        path : str or os.PathLike, optional
            Also save the figure there as a PNG.

        Returns
        -------
        matplotlib.figure.Figure
        """
        from ..report.studies import sequential_figure

        return sequential_figure(self, path)


def compare_until_decided(
    scenario,
    vary,
    side: str | None = None,
    margin: float | None = None,
    alpha: float = 0.05,
    chunk: int = DEFAULT_CHUNK,
    max_trials: int = DEFAULT_CAP,
    seed: int | None = None,
    threads: int | None = None,
    common_random_numbers: bool = True,
    backend: str | None = None,
    scheduler: str | None = None,
    on_look=None,
) -> SequentialComparison:
    """Compare two variants, adding chunks of trials until the difference is decided.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
        The base scenario.
    vary : dict, list of (key_path, values), list of str, or str
        As :func:`fuzion_sim.analysis.compare.compare`; exactly two variants (the first is the
        baseline).
    side : str, optional
        Whose win probability is compared (default: the first side listed).
    margin : float, optional
        Equivalence margin as a probability (0.01: one point); None: stop only on a
        difference or at the cap.
    alpha : float
        Error level of the confidence sequence (0.05: 95%).
    chunk : int
        Trials per variant added at each look.
    max_trials : int
        Cap on trials per variant (rounded up to whole chunks).
    seed : int, optional
        The first chunk's seed (default: the scenario's); later chunks get streams derived
        from it.
    threads, backend, scheduler :
        Engine options.
    common_random_numbers : bool
        False: each variant's chunks get their own seeds (valid, but the paired differences
        are noisier, so runs are longer).
    on_look : callable, optional
        ``on_look(look_dict)`` after each look.

    Returns
    -------
    SequentialComparison

    Raises
    ------
    FuzionSimError
        Not exactly two variants, an unknown side, a bad alpha, margin, chunk or cap.
    """
    from ..errors import unknown_name
    from ..limits import check_int, check_number

    check_run_args(None, seed, threads)
    alpha = check_number("alpha", alpha, 1e-9, 0.5)
    if margin is not None:
        margin = check_number("margin", margin, 1e-9, 1.0)
    chunk = check_int("chunk", chunk, 100, 10_000_000)
    max_trials = check_int("max_trials", max_trials, 1, 10**10)
    base = as_base(scenario)
    points = expand_grid(axes_of(vary))
    if len(points) != 2:
        raise FuzionSimError(
            f"run until decided compares exactly two variants; --vary gives {len(points)}"
        )
    engine = engine_kwargs(backend, scheduler)
    scenarios = [base.build(list(p.items())) for p in points]
    sides = scenarios[0].side_names
    side = sides[0] if side is None else side
    if side not in sides:
        raise unknown_name("side", side, sides)
    seed = scenarios[0].seed if seed is None else int(seed)
    k = sides.index(side)
    cs = EBConfidenceSequence(alpha)
    history: list = []
    wins = [0, 0]
    decision, batch, done = None, 0, 0
    while decision is None:
        n = min(chunk, max_trials - done) if max_trials > done else 0
        if n <= 0:
            decision = "undecided"
            break
        s = _batch_seed(seed, batch)
        ind = []
        for i, sc in enumerate(scenarios):
            si = s if common_random_numbers else (s + i * _INDEPENDENT_STRIDE) % (1 << 63)
            try:
                res = simulation.simulate(
                    sc,
                    trials=n,
                    seed=si,
                    threads=threads,
                    keep_trials=True,
                    progress=False,
                    **engine,
                )
            except Interrupted as exc:
                raise Interrupted(2 * done + i * n + exc.trials) from None
            ind.append(res.outcomes.winner.astype(np.int64) == k)
            wins[i] += int(ind[-1].sum())
        d = ind[1].astype(float) - ind[0].astype(float)
        lo, hi = cs.update((d + 1) / 2)
        done += n
        batch += 1
        look = {"trials": done, "estimate": 2 * cs.mean - 1, "low": 2 * lo - 1, "high": 2 * hi - 1}
        history.append(look)
        if on_look is not None:
            on_look(look)
        decision = decide(look["low"], look["high"], margin)
    last = history[-1]
    return SequentialComparison(
        scenario=scenarios[0].name,
        values=points,
        side=side,
        decision=decision,
        trials=done,
        estimate=last["estimate"],
        low=last["low"],
        high=last["high"],
        alpha=alpha,
        margin=margin,
        chunk=chunk,
        cap=max_trials,
        seed=seed,
        win_probability=[w / done for w in wins],
        common_random_numbers=common_random_numbers,
        history=history,
    )
