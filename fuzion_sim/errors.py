"""Exception types for user-facing errors.

A user never sees a traceback for bad input: the CLI catches :class:`FuzionSimError`
subclasses, prints ``str(error)`` on one line and exits with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "ArgumentError",
    "FuzionSimError",
    "Interrupted",
    "ScenarioError",
    "UnknownNameError",
    "did_you_mean",
    "error_lines",
    "one_line",
    "shorten",
    "unknown_name",
]

#: Longest user text (a key, a name, a value) quoted whole in a message.
QUOTE_MAX = 60
#: Most problems one :class:`ScenarioError` lists (the rest are counted).
MAX_PROBLEMS = 20


def shorten(text, limit: int = QUOTE_MAX) -> str:
    """``text`` as a message quotes it: at most ``limit`` characters, ``...`` marking a cut."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and other control characters written as escapes."""
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in str(text)
    )


class FuzionSimError(Exception):
    """Base class of every error caused by user input."""


class UnknownNameError(FuzionSimError, ValueError):
    """A name (a side, a combatant, a metric, a time unit) that is not one of the valid choices.

    Also a :class:`ValueError`, which the Python API raised for these before; the message
    names every valid choice and the closest one.
    """


def unknown_name(what: str, name, choices: Iterable[str]) -> UnknownNameError:
    """The error for ``name`` not among ``choices``: ``no side 'green'; sides are red, blue``.

    Parameters
    ----------
    what : str
        What was looked up (``"side"``, ``"combatant"``).
    name : object
        The name given.
    choices : iterable of str
        The valid names.

    Returns
    -------
    UnknownNameError
        To raise.
    """
    choices = [str(c) for c in choices]
    hint = did_you_mean(str(name), choices)
    text = f"no {what} {str(name)!r}; {what}s are {', '.join(choices)}"
    return UnknownNameError(text + (f"; did you mean {hint!r}?" if hint else ""))


class ArgumentError(FuzionSimError, ValueError):
    """A bad argument to the Python API or an option of the command: names the argument and
    the values it accepts. Also a :class:`ValueError`, so callers that catch that keep
    working."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C after ``trials`` finished trials (a ``KeyboardInterrupt``, so
    code that lets Ctrl-C through keeps doing so).

    The command prints ``interrupted after N trials`` and exits with status 130.
    """

    def __init__(self, trials: int = 0):
        super().__init__(f"interrupted after {int(trials):,} trials")
        self.trials = int(trials)


class ScenarioError(FuzionSimError):
    """Bad scenario input: names the file, line, key path, the problem and a suggestion.

    One error may carry every problem found in a file (:meth:`combine`): its own fields are
    those of the first problem, so code that reads ``.args``, ``.message`` or ``.path`` sees
    the first problem, and ``str()`` lists them all, one a line, at most
    :data:`MAX_PROBLEMS` of them and then ``... and N more``.

    Parameters
    ----------
    message : str
        What is wrong, e.g. ``"unknown weapon 'Magnum Pistl'"``.
    path : str, optional
        Key path inside the scenario, e.g. ``"sides.red[0].weapon"``.
    file : str, optional
        The scenario file.
    line : int, optional
        1-based line number where the loader knows it.
    suggestion : str, optional
        The closest valid name, shown as "did you mean ...?".
    origin : str, optional
        Where the value came from when not from the file: an override such as
        ``--set sides.red[0].armor.pd=-3``, named in place of the file's line.
    """

    def __init__(self, message, path=None, file=None, line=None, suggestion=None, origin=None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.file = file
        self.line = line
        self.suggestion = suggestion
        self.origin = origin
        #: every problem, this one first (see :meth:`combine`)
        self.problems: list[ScenarioError] = [self]
        #: problems found beyond those listed
        self.omitted = 0

    @classmethod
    def combine(cls, problems, omitted: int = 0) -> ScenarioError:
        """One error for several problems: the first, carrying the list.

        Parameters
        ----------
        problems : sequence of ScenarioError
            At least one; a problem that carries a list of its own is flattened.
        omitted : int
            Problems found but not built into errors (past the cap).

        Returns
        -------
        ScenarioError
            The first problem, with ``problems`` (at most :data:`MAX_PROBLEMS`) and
            ``omitted`` (every problem past those) set.
        """
        flat: list[ScenarioError] = []
        for problem in problems:
            flat.extend(problem.problems)
            omitted += problem.omitted
        head = flat[0]
        head.problems = flat[:MAX_PROBLEMS]
        head.omitted = omitted + len(flat) - len(head.problems)
        for other in head.problems[1:]:
            other.problems, other.omitted = [other], 0
        return head

    def _one(self) -> str:
        if self.origin:  # the file, then the override instead of a line
            where = f"{self.file}: {self.origin}: " if self.file else f"{self.origin}: "
        elif self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        else:
            where = ""
        key = f"{self.path}: " if self.path else ""
        if self.origin and self.path and self.origin.partition(" ")[2].startswith(self.path + "="):
            key = ""  # the override names the key
        hint = ""
        if self.suggestion and f"'{self.suggestion}'" not in str(self.message):
            hint = f"; did you mean '{shorten(self.suggestion)}'?"
        return one_line(f"{where}{shorten(key, 200)}{self.message}{hint}")

    def lines(self) -> list[str]:
        """Each problem on one line, then ``... and N more problems`` past the cap."""
        out = [self._one()] + [p._one() for p in self.problems[1:]]
        if self.omitted:
            out.append(f"... and {self.omitted:,} more problem{'s' if self.omitted > 1 else ''}")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def error_lines(error: BaseException) -> list[str]:
    """The lines a command prints for ``error``: one per problem of a
    :class:`ScenarioError`, else ``str(error)`` on one line."""
    if isinstance(error, ScenarioError):
        return error.lines()
    return [one_line(str(error))]


def _norm(name: str) -> str:
    return "".join(str(name).lower().split())


def did_you_mean(name: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """Return the choice closest to ``name`` (case- and space-insensitive), or None."""
    choices = list(choices)
    by_norm = {_norm(c): c for c in choices}
    hits = difflib.get_close_matches(_norm(name), list(by_norm), n=1, cutoff=cutoff)
    return by_norm[hits[0]] if hits else None
