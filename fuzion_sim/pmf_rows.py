"""The rows of a long exact distribution that a terminal table shows.

An autofire attack's total damage has hundreds of outcomes, most of them below one in a million;
a table shows at most ``rows`` of them: the first outcome (a miss, 0), the next outcomes in
order, and the rest merged into an "N or more" row. When that row would hold most of the
probability (the mass sits far from 0, as for DC 200), the rows show instead the run of
consecutive outcomes holding the most probability, with an "A to B" row before it.

Outcomes too rare to print (every one from some outcome on below half of the last printed
digit, :data:`PRINT_FLOOR`, so that each row would read 0.000000) are never shown one a row:
they are merged into one "N or more" row that holds the mass left, however few rows there are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PmfRow", "pmf_rows", "DEFAULT_ROWS", "PRINT_FLOOR", "format_probability"]

#: Rows ``fuzion-sim attack`` shows per distribution unless ``--rows`` says otherwise.
DEFAULT_ROWS = 30
#: A probability below this prints as 0.000000 at six decimals.
PRINT_FLOOR = 5e-7


def format_probability(p: float) -> str:
    """A probability at six decimals, or, when that would read 0.000000 for a mass that is
    not zero, in scientific notation (``3.2e-09``)."""
    p = float(p)
    return f"{p:.1e}" if 0.0 < p < PRINT_FLOOR else f"{p:.6f}"


@dataclass(frozen=True)
class PmfRow:
    """One row: an outcome, or several merged.

    Attributes
    ----------
    label : str
        ``"12"``, ``"40 or more"`` or ``"3 to 18"``.
    probability : float
        The row's probability (summed over merged outcomes).
    at_least : float
        P(outcome >= the row's first outcome).
    merged : int
        How many outcomes the row holds (1 for a plain row).
    """

    label: str
    probability: float
    at_least: float
    merged: int = 1


def pmf_rows(pmf: dict, rows: int = DEFAULT_ROWS) -> list[PmfRow]:
    """At most ``rows`` rows of a distribution, merging the outcomes past them.

    Parameters
    ----------
    pmf : dict
        ``{value: probability}`` (keys ints or their text, as ``Pmf.to_dict`` gives).
    rows : int
        The most rows (at least 2).

    Returns
    -------
    list of PmfRow
        Every outcome when there are ``rows`` or fewer; else the first outcome, the window of
        consecutive outcomes with the most probability, and merged rows for the rest. A tail
        of outcomes that would each print as 0.000000 is one merged row either way.
    """
    rows = max(int(rows), 2)
    items = sorted((int(v), float(p)) for v, p in pmf.items())
    cut = _rare_tail(np.array([p for _, p in items]))
    if cut < len(items) - 1 and cut + 1 <= rows:
        # the printable outcomes fit: show them, and the rare tail as one row
        probs = np.array([p for _, p in items])
        tail = min(float(probs[cut:].sum()), 1.0)
        head = pmf_rows({v: p for v, p in items[:cut]}, rows) if cut else []
        above = [PmfRow(r.label, r.probability, min(r.at_least + tail, 1.0), r.merged)
                 for r in head]  # fmt: skip
        return [*above, PmfRow(f"{items[cut][0]} or more", tail, tail, len(items) - cut)]
    values = np.array([v for v, _ in items], dtype=np.int64)
    probs = np.array([p for _, p in items])
    tail = np.concatenate([np.cumsum(probs[::-1])[::-1], [0.0]])  # tail[i] = P(X >= values[i])
    tail = np.minimum(tail, 1.0)
    n = len(items)
    if n <= rows:
        return [PmfRow(str(v), p, float(tail[i])) for i, (v, p) in enumerate(items)]
    cum = np.concatenate([[0.0], np.cumsum(probs)])

    def window_mass(start: int, length: int) -> float:
        return float(cum[start + length] - cum[start])

    k_plain = rows - 2  # first row + window + "or more"
    start, length, low = 1, k_plain, False
    k_low = rows - 3  # first row + "A to B" + window + "or more"
    beyond_first = float(cum[-1] - cum[1])
    # Only when the plain rows would leave most of the probability in "or more" (the mass sits
    # far from the first outcome) does the window move, with an "A to B" row before it.
    if k_low >= 1 and float(cum[-1] - cum[1 + k_plain]) > 0.5 * beyond_first:
        starts = np.arange(2, n - k_low)
        if starts.size:
            masses = cum[starts + k_low] - cum[starts]
            best = int(starts[int(np.argmax(masses))])
            if window_mass(best, k_low) > window_mass(1, k_plain):
                start, length, low = best, k_low, True
    out = [PmfRow(str(values[0]), float(probs[0]), float(tail[0]))]
    if low:
        out.append(PmfRow(f"{values[1]} to {values[start - 1]}", window_mass(1, start - 1),
                          float(tail[1]), start - 1))  # fmt: skip
    for i in range(start, start + length):
        out.append(PmfRow(str(values[i]), float(probs[i]), float(tail[i])))
    rest = start + length
    out.append(PmfRow(f"{values[rest]} or more", float(tail[rest]), float(tail[rest]), n - rest))
    return out


def _rare_tail(probs: np.ndarray) -> int:
    """The index from which every outcome is below :data:`PRINT_FLOOR` (never the first
    outcome: a table shows at least one row as it is); ``len(probs)`` when the last is not."""
    n = len(probs)
    if n < 2:
        return n
    printable = np.flatnonzero(probs >= PRINT_FLOOR)
    last = int(printable[-1]) if printable.size else 0
    return max(last + 1, 1)
