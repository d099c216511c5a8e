"""Checks of the public API's arguments, and scenario overrides that name where they came from.

Every public function and method checks what it is given before any work, and a bad value
raises :class:`~fuzion_sim.errors.ArgumentError` (also a ``ValueError``) whose message starts
with the argument's name and says what it accepts: ``confidence: expected a number strictly
between 0 and 1, got nan``. The checks live here, so the functions call them in one line.

Overrides (the command's ``--set KEY=VALUE`` and rule-switch shortcuts, the API's
``overrides=``) are applied one by one; a bad key path, or a value the scenario's checks
refuse at that key, is reported under the option or argument that gave it, not under the
scenario file's line the value replaced.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from .errors import ArgumentError, ScenarioError, shorten
from .limits import check_choice, check_number, check_probability

__all__ = [
    "apply_overrides",
    "check_axes",
    "check_callable",
    "check_confidence",
    "check_engine",
    "check_flag",
    "check_name",
    "check_out_dir",
    "check_overrides",
    "check_path",
    "check_quantiles",
    "check_scenario",
    "check_scheduler",
    "check_text",
    "checked",
]


def _show(value) -> str:
    return shorten(repr(value))


def check_confidence(confidence, name: str = "confidence") -> float:
    """A coverage strictly between 0 and 1 (NaN, 0, 1 and non-numbers refused)."""
    return check_probability(name, confidence, open_low=True, open_high=True)


def check_quantiles(quantiles, name: str = "quantiles") -> list[float]:
    """A non-empty sequence of probabilities strictly between 0 and 1."""
    if isinstance(quantiles, str | bytes | Mapping) or not isinstance(quantiles, Iterable):
        raise ArgumentError(
            f"{name}: expected a sequence of numbers strictly between 0 and 1, got "
            f"{_show(quantiles)}"
        )
    out = [check_probability(f"{name}[{i}]", q, open_low=True, open_high=True)
           for i, q in enumerate(quantiles)]  # fmt: skip
    if not out:
        raise ArgumentError(f"{name}: expected at least one quantile, got none")
    return out


def check_flag(name: str, value) -> bool | None:
    """True, False or None."""
    if value is not None and not isinstance(value, bool):
        raise ArgumentError(f"{name}: expected True, False or None, got {_show(value)}")
    return value


def check_text(name: str, value, optional: bool = True) -> str | None:
    """A string (or None when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        what = "a string or None" if optional else "a string"
        raise ArgumentError(f"{name}: expected {what}, got {_show(value)}")
    return value


def check_name(name: str, value, choices: Iterable[str] | None = None) -> str | None:
    """A name given as a string (None allowed), one of ``choices`` when they are given."""
    check_text(name, value)
    if value is not None and choices is not None:
        check_choice(name, value, choices)
    return value


def check_path(name: str, value, optional: bool = True) -> Path | None:
    """A file path whose folder exists (or can be made) and can be written."""
    if value is None and optional:
        return None
    if not isinstance(value, str | os.PathLike) or not str(value).strip():
        raise ArgumentError(f"{name}: expected a file path (str or os.PathLike), got "
                            f"{_show(value)}")  # fmt: skip
    path = Path(value)
    if path.is_dir():
        raise ArgumentError(f"{name}: {shorten(str(path))!r} is a folder, not a file")
    _writable_folder(name, path.parent)
    return path


def check_out_dir(name: str, value) -> Path:
    """A folder that exists and can be written, or that can be made under one that can."""
    if not isinstance(value, str | os.PathLike) or not str(value).strip():
        raise ArgumentError(f"{name}: expected a folder path (str or os.PathLike), got "
                            f"{_show(value)}")  # fmt: skip
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise ArgumentError(f"{name}: {shorten(str(path))!r} is a file, not a folder")
    _writable_folder(name, path)
    return path


def _writable_folder(name: str, folder: Path) -> None:
    """The nearest existing folder at or above ``folder`` must be a writable folder."""
    probe = folder.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise ArgumentError(f"{name}: {shorten(str(probe))!r} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ArgumentError(f"{name}: cannot write in {shorten(str(probe))!r}")
    if probe != folder.absolute() and not os.access(probe, os.W_OK):  # pragma: no cover
        raise ArgumentError(f"{name}: cannot make {shorten(str(folder))!r}")


def check_scheduler(scheduler, backend) -> None:
    """``scheduler``: None, an address string, or a ``distributed.Client`` (with
    ``backend='dask'`` only)."""
    if scheduler is None:
        return
    if backend != "dask":
        raise ArgumentError(f"scheduler: a Dask scheduler needs backend='dask', got backend="
                            f"{_show(backend)}")  # fmt: skip
    if isinstance(scheduler, str):
        if not scheduler.strip():
            raise ArgumentError("scheduler: expected an address such as 'tls://host:8786', "
                                "got an empty string")  # fmt: skip
        return
    if type(scheduler).__name__ != "Client":
        raise ArgumentError(
            "scheduler: expected an address such as 'tls://host:8786' or a "
            f"distributed.Client, got {type(scheduler).__name__}"
        )


def check_engine(backend=None, scheduler=None, progress=None) -> None:
    """The engine options of a study: ``backend`` (None: threads), ``scheduler`` (with
    ``backend='dask'`` only) and the ``progress`` flag."""
    if backend is not None:
        check_choice("backend", backend, ("threads", "dask"))
    check_scheduler(scheduler, backend or "threads")
    check_flag("progress", progress)


def check_scenario(scenario) -> None:
    """A scenario as the studies take it: a Scenario, a base of variants, scenario data (a
    dict) or a path to a YAML file."""
    from .scenario.variants import Base
    from .validation.model import Scenario

    if not isinstance(scenario, Scenario | Base | dict | str | os.PathLike):
        raise ArgumentError(
            "scenario: expected a Scenario, a path to a YAML file or a mapping of scenario data, "
            f"got {type(scenario).__name__}"
        )


def check_callable(name: str, value) -> None:
    """A callable, or None."""
    if value is not None and not callable(value):
        raise ArgumentError(f"{name}: expected a callable or None, got {type(value).__name__}")


def checked(check):
    """Decorator: ``check(**arguments)`` runs before the function, on its arguments bound to
    its parameters with the defaults filled in.

    A call that does not bind (an argument missing, unknown or given twice) raises
    :class:`~fuzion_sim.errors.ArgumentError` naming the function, as a bad value does, so a
    caller catches one error type for every argument problem. The function keeps its name,
    signature and documentation; ``.unchecked`` is the function without the checks, for the
    command line, whose options click has checked and whose output folder's problems
    :class:`~fuzion_sim.outdir.OutputDir` words as it words every command's folder.
    """

    def decorate(func):
        signature = inspect.signature(func)

        @functools.wraps(func)
        def run_checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as err:
                raise ArgumentError(f"{func.__name__}(): {err}") from None
            bound.apply_defaults()
            check(**bound.arguments)
            return func(*bound.args, **bound.kwargs)

        run_checked.unchecked = func
        return run_checked

    return decorate


def check_number_or_none(name: str, value, low=None, high=None) -> float | None:
    """A finite number in range, or None."""
    return None if value is None else check_number(name, value, low, high)


def check_axes(name: str, axes, optional: bool = False) -> None:
    """Axes as :func:`~fuzion_sim.scenario.variants.axes_of` takes them: a mapping of key
    paths to values, a sequence of ``"KEY=VALUES"`` text or ``(key, values)`` pairs, or one
    such text."""
    if axes is None and optional:
        return
    if isinstance(axes, str):
        return
    if isinstance(axes, Mapping):
        bad = next((k for k in axes if not isinstance(k, str)), None)
        if bad is not None:
            raise ArgumentError(f"{name}: key paths are strings, got {_show(bad)}")
        return
    if isinstance(axes, list | tuple):
        for i, item in enumerate(axes):
            text = isinstance(item, str) and "=" in item
            pair = isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str)
            if not (text or pair):
                raise ArgumentError(f"{name}[{i}]: expected 'KEY=VALUES' text or a (key, "
                                    f"values) pair, got {_show(item)}")  # fmt: skip
        return
    raise ArgumentError(
        f"{name}: expected a mapping of key paths to values, a list of 'KEY=VALUES' text or "
        f"(key, values) pairs, got {type(axes).__name__}"
    )


def check_overrides(overrides, name: str = "overrides") -> list[tuple[str, object, str]]:
    """Overrides given any way the API takes them, as ``(key_path, value, label)``.

    Parameters
    ----------
    overrides : dict, list of (key_path, value), list of str, str or None
        ``{"rules.dice": "interlock"}``, ``[("sides.blue[0].armor.pd", 10)]``, or
        ``"KEY=VALUE"`` text (the value read as the command line reads it).
    name : str
        The argument, named in messages and in each label (``overrides['rules.dice']``).

    Returns
    -------
    list of (str, object, str)

    Raises
    ------
    ArgumentError
        Anything else, naming ``name`` and the item.
    """
    from .scenario import parse_value

    if overrides is None:
        return []
    if isinstance(overrides, str):
        overrides = [overrides]
    if isinstance(overrides, Mapping):
        items = list(overrides.items())
    elif isinstance(overrides, list | tuple):
        items = list(overrides)
    else:
        raise ArgumentError(
            f"{name}: expected a mapping of key paths to values, a list of (key, value) pairs "
            f"or of 'KEY=VALUE' text, got {type(overrides).__name__}"
        )
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str) and "=" in item:
            key, _, value = item.partition("=")
            key, value = key.strip(), parse_value(value.strip())
        elif isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str):
            key, value = item[0].strip(), item[1]
        else:
            raise ArgumentError(f"{name}[{i}]: expected 'KEY=VALUE' text or a (key, value) "
                                f"pair, got {_show(item)}")  # fmt: skip
        if not key:
            raise ArgumentError(f"{name}[{i}]: an empty key path")
        out.append((key, value, f"{name}[{shorten(key)!r}]"))
    return out


def _same_or_under(path: str | None, key: str) -> bool:
    if not path:
        return False
    return path == key or path.startswith((key + ".", key + "["))


def _renamed(exc: ScenarioError, label: str, key: str) -> ScenarioError:
    """``exc`` reported under ``label`` (no file or line: the value is not the file's); the
    key path is left out where it is the override's own."""
    path = exc.path if exc.path and exc.path != key else None
    err = ScenarioError(exc.message, path=path, file=shorten(label, 100),
                        suggestion=exc.suggestion)  # fmt: skip
    err.__cause__ = exc.__cause__
    return err


def apply_overrides(scenario, overrides):
    """The scenario with ``overrides`` applied, validated.

    Parameters
    ----------
    scenario : path, Scenario, dict or Base
    overrides : list of (key_path, value, label)
        As :func:`check_overrides` (or the command) gives them; applied in order.

    Returns
    -------
    (Base, Scenario)
        The overridden base (what comparisons, sweeps and balance searches vary further) and
        the validated scenario.

    Raises
    ------
    ScenarioError
        A bad key path, or a value refused at (or under) an override's key: the message
        starts with the override's label (``--set sides.blue[0].armor.pd=-5: ...``); any other
        problem of the scenario as the file reports it.
    """
    from .scenario import parse_path, set_path
    from .scenario.variants import Base, as_base
    from .validation.keypath import format_path

    base = as_base(scenario)
    if not overrides:
        return base, base.build()
    data = base.data
    keys = []
    for key, value, label in overrides:
        try:
            norm = format_path(parse_path(key))
        except ScenarioError as exc:
            raise _renamed(exc, label, exc.path) from None
        try:
            data = set_path(data, key, value)
        except ScenarioError as exc:
            raise _renamed(exc, label, norm) from None
        keys.append((norm, label))
    changed = Base(data, base.source, base.lines, base.sweep)
    try:
        return changed, changed.build()
    except ScenarioError as exc:
        for key, label in reversed(keys):  # the last override of a key is the one that counts
            if _same_or_under(exc.path, key) or (
                _same_or_under(key, exc.path) and not _exists(base.data, exc.path)
            ):  # at or under the key, or a misspelt key the override made
                raise _renamed(exc, label, key) from None
        raise


def _exists(data, path: str) -> bool:
    from .scenario import get_path

    try:
        get_path(data, path)
    except ScenarioError:
        return False
    return True

