"""Number formatting shared by the terminal tables, the reports and the notebook summaries.

One place decides how an answer reads, so the terminal, ``index.md``, ``index.html`` and a
Jupyter cell all say "59.7% (59.1-60.2%)" and "+0.05 pts" for the same numbers.
"""

from __future__ import annotations

import math
import re

__all__ = [
    "error_text",
    "terminal_text",
    "pct",
    "pct_interval",
    "pct_pair",
    "pts",
    "pts_interval",
    "num",
    "num_interval",
    "num_range",
    "signed",
    "signed_interval",
    "p_value",
    "plural",
    "count",
]

_DASH = "-"


def _finite(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def _pct_digits(*ps: float) -> int:
    """Decimals that keep distinct probabilities distinct and small ones visible (1 to 3)."""
    for digits in (1, 2, 3):
        texts = {f"{100 * p:.{digits}f}" for p in ps}
        tiny = 5 * 10 ** -(digits + 3)  # below this, 100 * p rounds to 0 at these decimals
        near_edge = any(0 < p < tiny or 0 < 1 - p < tiny for p in ps)
        if len(texts) == len(set(ps)) and not near_edge:
            return digits
    return 3


def pct(p: float | None, digits: int | None = None) -> str:
    """``0.5969`` -> ``"59.7%"`` (``"-"`` for a missing value).

    Parameters
    ----------
    p : float or None
        A probability.
    digits : int, optional
        Decimals; default 1, more for probabilities within 0.05 points of 0 or 1 (so that
        0.9996 reads "99.96%", not "100.0%").

    Returns
    -------
    str
    """
    if not _finite(p):
        return _DASH
    digits = _pct_digits(p) if digits is None else digits
    return f"{100 * p:.{digits}f}%"


def pct_interval(p: float | None, lo: float | None, hi: float | None) -> str:
    """A probability with its interval: ``"59.7% (59.1-60.2%)"``.

    Parameters
    ----------
    p, lo, hi : float
        The estimate and its interval's ends.

    Returns
    -------
    str
    """
    if not _finite(p):
        return _DASH
    if not (_finite(lo) and _finite(hi)):
        return pct(p)
    digits = _pct_digits(p, lo, hi) if lo != hi else _pct_digits(p)
    return f"{100 * p:.{digits}f}% ({100 * lo:.{digits}f}-{100 * hi:.{digits}f}%)"


def pct_pair(a: float, b: float) -> tuple[str, str]:
    """Two probabilities with enough decimals that they differ when they do.

    Parameters
    ----------
    a, b : float

    Returns
    -------
    (str, str)
        ``(0.51, 0.46)`` -> ``("51%", "46%")``; ``(0.9991, 0.9998)`` -> ``("99.91%",
        "99.98%")``, never ``"100%"`` for a probability below 1.
    """
    for digits in (0, 1, 2, 3):
        ta, tb = f"{100 * a:.{digits}f}", f"{100 * b:.{digits}f}"
        edge = any((p < 1 and t == f"{100:.{digits}f}") or (p > 0 and t == f"{0:.{digits}f}")
                   for p, t in ((a, ta), (b, tb)))  # fmt: skip
        if (ta != tb or a == b) and not edge:
            return f"{ta}%", f"{tb}%"
    return f"{100 * a:.4f}%", f"{100 * b:.4f}%"


def pts(d: float | None) -> str:
    """A difference of probabilities in percentage points: ``0.0005`` -> ``"+0.05 pts"``."""
    if not _finite(d):
        return _DASH
    return f"{100 * d:+.2f} pts"


def pts_interval(lo: float | None, hi: float | None) -> str:
    """An interval of probability differences: ``"+4.04 to +5.63 pts"``."""
    if not (_finite(lo) and _finite(hi)):
        return ""
    return f"{100 * lo:+.2f} to {100 * hi:+.2f} pts"


def num(x, digits: int = 2) -> str:
    """A number with ``digits`` decimals, whole numbers without any (``"-"`` when missing)."""
    if not _finite(x):
        return _DASH
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}" if abs(x) >= 1e4 else f"{int(x)}"
    return f"{x:,.{digits}f}"


def num_interval(x, lo, hi, digits: int = 2) -> str:
    """A number with its interval: ``"4.47 (4.46-4.48)"``, ``"-0.33 (-0.40 to -0.27)"``.

    Parameters
    ----------
    x, lo, hi : float
        The estimate and its interval's ends.
    digits : int
        Decimals; more (up to 4) when the interval would otherwise read as one number
        (``"13.40 (13.37-13.44)"``, not ``"13.4 (13.4-13.4)"``).

    Returns
    -------
    str
    """
    if not _finite(x):
        return _DASH
    if not (_finite(lo) and _finite(hi)):
        return num(x, digits)
    while lo != hi and digits < 4 and num(lo, digits) == num(hi, digits):
        digits += 1
    sep = " to " if min(lo, hi, x) < 0 else "-"
    return f"{num(x, digits)} ({num(lo, digits)}{sep}{num(hi, digits)})"


def num_range(lo, hi, digits: int = 2) -> str:
    """Two numbers in one format: ``"2 to 8"``, ``"0.50 to 2.00"``."""
    if not (_finite(lo) and _finite(hi)):
        return _DASH
    if float(lo).is_integer() and float(hi).is_integer():
        return f"{num(lo)} to {num(hi)}"
    return f"{lo:,.{digits}f} to {hi:,.{digits}f}"


def _signed(x, digits: int) -> str:
    if float(x).is_integer():
        return "0" if x == 0 else f"{x:+.0f}"
    return f"{x:+.{digits}f}"


def signed(x, unit: str = "", digits: int = 2) -> str:
    """A signed difference with its unit: ``"-0.33 phases"``, ``"+1 phases"``, ``"0 phases"``.

    Parameters
    ----------
    x : float
        The difference.
    unit : str, optional
        Its unit (made plural).
    digits : int
        Decimals of a difference that is not a whole number.

    Returns
    -------
    str
    """
    if not _finite(x):
        return _DASH
    text = _signed(x, digits)
    return f"{text} {plural(unit)}" if unit else text


def signed_interval(lo, hi, unit: str = "", digits: int = 2) -> str:
    """An interval of differences: ``"-0.40 to -0.27 phases"`` (``""`` when missing)."""
    if not (_finite(lo) and _finite(hi)):
        return ""
    text = f"{_signed(lo, digits)} to {_signed(hi, digits)}"
    return f"{text} {plural(unit)}" if unit else text


def p_value(p: float | None, floor: float | None = None) -> str:
    """``"p = 0.034"``, or ``"p < 0.001"`` at a permutation test's floor.

    Parameters
    ----------
    p : float or None
        The p-value.
    floor : float, optional
        The smallest p-value the test can give (``1 / (permutations + 1)``): at it, the
        observed statistic beat every permutation and the p-value is below the floor.

    Returns
    -------
    str
    """
    if not _finite(p):
        return ""
    if floor is not None and p <= floor * (1 + 1e-9):
        return f"p < {floor:.3g}"
    return f"p = {p:.2g}"


def plural(unit: str) -> str:
    """``"phase"`` -> ``"phases"`` (a unit name already plural is kept)."""
    return unit if not unit or unit.endswith("s") else f"{unit}s"


def count(n) -> str:
    """``47152`` -> ``"47,152"``."""
    return _DASH if not _finite(n) else f"{int(n):,}"


#: Longest quoted user text (a name, a value, a path) an error message shows whole.
QUOTE_MAX = 80
_LONG = QUOTE_MAX + 1
_QUOTED = re.compile(rf"'[^']{{{_LONG},}}'|\"[^\"]{{{_LONG},}}\"")


def _escaped(line: str) -> str:
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in line
    )


def terminal_text(text) -> str:
    """``text`` as a terminal should show it: every control character but the line break
    (escape, bell, carriage return, tab, C1 controls, bidirectional overrides) written as its
    escape (``\\x1b``), as the HTML report writes them, so a name cannot drive the terminal.

    Parameters
    ----------
    text : object
        Its ``str()``.

    Returns
    -------
    str
    """
    return "\n".join(_escaped(line) for line in str(text).split("\n"))


def _clip(match: re.Match) -> str:
    whole = match.group(0)
    return f"{whole[0]}{whole[1 : QUOTE_MAX - 2]}...{whole[0]}"


def error_text(message) -> str:
    """An error or warning as the command prints it: on one line, control characters escaped
    (:func:`terminal_text`), and each quoted user string (a name, a value, a path) longer than
    :data:`QUOTE_MAX` characters cut there with ``...``.

    Parameters
    ----------
    message : object
        Its ``str()``.

    Returns
    -------
    str
    """
    return _QUOTED.sub(_clip, _escaped(str(message)))
