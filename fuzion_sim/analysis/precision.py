"""Stop rules for ``--precision``: run whole chunks until every win probability is tight enough.

The rule looks only at the running tally after each whole chunk, in chunk order (the engine's
``stop`` callback), so the same command always stops at the same trial count.
"""

from __future__ import annotations

from .intervals import wilson_half_width

__all__ = ["precision_stop", "precision_reached"]


def precision_reached(tally, n_sides: int, precision: float, confidence: float = 0.95) -> bool:
    """True when every side's win-probability interval has half-width at most ``precision``."""
    n = int(tally.n_trials)
    if n == 0:
        return False
    return all(
        wilson_half_width(int(tally.outcome_counts[k]), n, confidence) <= precision
        for k in range(n_sides)
    )


def precision_stop(precision: float, n_sides: int, confidence: float = 0.95):
    """A ``stop(tally)`` callback for :func:`fuzion_sim.api.simulate`.

    Parameters
    ----------
    precision : float
        Largest acceptable half-width of each side's 95% Wilson interval (e.g. 0.005).
    n_sides : int
        Number of sides (the first ``n_sides`` outcome counts are the wins).
    confidence : float
        Interval coverage, 0.95 by default.
    """
    from ..errors import FuzionSimError

    if not 0 < precision < 0.5:
        raise FuzionSimError(f"precision must be between 0 and 0.5, got {precision}")

    def stop(tally) -> bool:
        return precision_reached(tally, n_sides, precision, confidence)

    return stop
