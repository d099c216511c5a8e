"""What every ``fuzion-sim`` command shares: the printing (one line an error, control
characters escaped), the exit statuses, the options of a scenario command (``--set``, the rule
shortcuts, the engine's) and the scenario they give, built with their overrides.

Kept apart from the commands so that every module that defines commands (:mod:`fuzion_sim.cli`,
:mod:`fuzion_sim.cli_studies`, the explorer's) uses the same options, and cheap to import:
``--help``, ``--version`` and shell completion load neither numpy nor a rule system.
"""

from __future__ import annotations

import functools
import json
import signal
import sys

import click

from . import _signals as signals
from ._args import apply_overrides
from .errors import FuzionSimError, shorten
from .fmt import error_text, terminal_text
from .limits import MAX_SEED, MAX_TRIALS
from .scenario import parse_value
from .scenario.variants import as_base, parse_assignment

EXIT_BAD_INPUT = 2
#: Most worker threads (:data:`fuzion_sim.api.MAX_THREADS`, stated here so that defining the
#: options imports no simulation code; a test checks the two agree).
MAX_THREADS = 1024
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it; 143 after SIGTERM.
EXIT_INTERRUPTED = 130
_TRIALS = click.IntRange(1, MAX_TRIALS)
_SEED = click.IntRange(0, MAX_SEED)
_THREADS = click.IntRange(1, MAX_THREADS)
#: Default cap on trials for ``run --precision`` without --max-trials or --trials.
PRECISION_MAX_TRIALS = 10_000_000


def _api():
    """:mod:`fuzion_sim.api`, imported when a command first needs it: it loads numpy, numba
    and the kernels, which ``--help``, ``--version`` and shell completion never need."""
    from . import api

    return api


class _Later(click.Option):
    """A stand-in for options made from the rule systems (their switch shortcuts, the attack
    flags): importing a system loads numpy, numba and its kernels, so :class:`_Command` makes
    the real options only when the command's own options are first needed (parsing its
    arguments, its ``--help``, completing one of its options), never for ``fuzion-sim
    --help``, ``--version`` or completing a command name."""

    def __init__(self, make):
        super().__init__([f"--later-{id(self)}"], hidden=True, expose_value=False)
        self.make = make


class _Command(click.Command):
    """A command whose :class:`_Later` stand-ins become their real options on first access to
    ``params``, in place, so the options keep their places."""

    @property
    def params(self) -> list:
        if any(isinstance(p, _Later) for p in self._params):
            self._params[:] = [q for p in self._params
                               for q in (p.make() if isinstance(p, _Later) else [p])]  # fmt: skip
        return self._params

    @params.setter
    def params(self, value) -> None:
        self._params = value


def _later(make):
    """A decorator that adds the options ``make()`` returns, made when first needed."""

    def decorate(func):
        func.__dict__.setdefault("__click_params__", []).append(_Later(make))
        return func

    return decorate


def _echo(text="", err: bool = False) -> None:
    """Print ``text`` as the terminal should show it: every control character of a name or
    value (escape, bell) written as an escape, line by line."""
    click.echo(terminal_text(text), err=err)


def _fail(message) -> None:
    """Print ``message`` (a line, or a list of lines: one per problem) and exit 2."""
    for line in [message] if isinstance(message, str) else message:
        click.echo(f"fuzion-sim: error: {error_text(line)}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def _warn(message: str) -> None:
    click.echo(f"fuzion-sim: warning: {error_text(message)}", err=True)


def _interrupted(trials: int, partial: int | None = None) -> None:
    what = "terminated" if signals.received() == signal.SIGTERM else "interrupted"
    kept = ""
    if partial is not None:
        kept = f"; the result above is of the first {int(partial):,} (whole chunks, in order)"
    click.echo(f"fuzion-sim: {what} after {int(trials):,} trials{kept}", err=True)
    sys.exit(signals.exit_status())


def _load(path: str, overrides=()):
    """The scenario at ``path`` with ``overrides`` (``(key, value, option)``, as
    :func:`_override_options` gives them) applied and validated; its warnings printed."""
    return _base(path, overrides)[1]


def _base(path: str, overrides=()):
    """``(base, scenario)``: the overridden base that comparisons, sweeps and searches vary
    further (a ``sweep:`` block stripped, so every command accepts a sweep scenario file) and
    its validated scenario, whose warnings are printed. An override's bad key or value is
    reported under its option (``--set KEY=VALUE: ...``)."""
    base, scenario = apply_overrides(as_base(path), list(overrides))
    for warning in scenario.warnings:
        _warn(warning)
    return base, scenario


def _engine_options(func):
    """``--backend``, ``--scheduler`` and the scheduler's TLS files, passed to the engine only
    when not the default. With ``--tls-ca`` and ``--tls-cert`` the command connects to the
    scheduler with that security and hands the engine the connected client."""

    @functools.wraps(func)
    def wrapper(*args, tls_ca=None, tls_cert=None, tls_key=None, **kwargs):
        if tls_ca or tls_cert or tls_key:
            kwargs["scheduler"] = _secure_client(
                kwargs.get("backend"), kwargs.get("scheduler"), tls_ca, tls_cert, tls_key
            )
        return func(*args, **kwargs)

    for name, what in (
        ("--tls-key", "This client's private key (PEM), if not in --tls-cert."),
        ("--tls-cert", "This client's certificate (PEM) for a TLS scheduler."),
        ("--tls-ca", "CA certificate of a TLS scheduler (with --scheduler tls://...)."),
    ):
        wrapper = click.option(name, type=click.Path(dir_okay=False), help=what)(wrapper)
    wrapper = click.option(
        "--scheduler", default=None, help="Dask scheduler address (with --backend dask)."
    )(wrapper)
    return click.option(
        "--backend",
        type=click.Choice(["threads", "dask"]),
        default="threads",
        show_default=True,
        help="Execution backend.",
    )(wrapper)


def _secure_client(backend, scheduler, ca, cert, key):
    """A client connected to ``scheduler`` with mutual TLS from the given files."""
    if backend != "dask" or not scheduler:
        raise FuzionSimError("--tls-ca, --tls-cert and --tls-key need --backend dask --scheduler")
    if not ca or not cert:
        raise FuzionSimError("give both --tls-ca and --tls-cert (and --tls-key unless the key "
                             "is in the certificate file)")  # fmt: skip
    from .engine import dask_backend
    from .engine.dask_local import security_from_files

    return dask_backend.get_client(scheduler, security=security_from_files(ca, cert, key))


@functools.cache
def _flag_switches() -> dict[str, dict[str, tuple]]:
    """Shortcut options of rule switches (``Switch.flag``), over every registered system:
    flag -> {system: (switch, its words)}."""
    from .systems import get_system, system_names

    flags: dict[str, dict[str, tuple]] = {}
    for name in system_names():
        for key, spec in get_system(name).switches.items():
            if spec.flag:
                flags.setdefault(spec.flag, {})[name] = (key, spec.kind)
    return flags


def _shortcut_words(by_system: dict) -> list:
    """The values a shortcut option takes: every word of the switches it sets."""
    return sorted({w for _k, kind in by_system.values() if isinstance(kind, tuple) for w in kind})


def _switch_option_list() -> list:
    """One option per rule-switch shortcut of any system (``--dice``)."""
    options = []
    for flag, by_system in sorted(_flag_switches().items()):
        words = _shortcut_words(by_system)
        keys = ", ".join(f"{s}: rules.{k}" for s, (k, _) in by_system.items())
        options.append(click.Option([f"--{flag}"], type=click.Choice(words) if words else str,
                                    help=f"Override {keys}."))  # fmt: skip
    return options


def _switch_options(func):
    """The rule-switch shortcut options (``--dice``; made when first needed), handed to the
    command as ``switch_flags``: {flag: value} of those given."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        given = {f: kwargs.pop(f.replace("-", "_")) for f in _flag_switches()}
        return func(*args, switch_flags={f: v for f, v in given.items() if v is not None},
                    **kwargs)  # fmt: skip

    return _later(_switch_option_list)(wrapper)


def _flag_overrides(path: str, switch_flags: dict) -> list:
    """The ``rules.<switch>`` overrides of the shortcut options given, for the scenario's
    system, as ``(key, value, option)``; a shortcut its system lacks is an error."""
    if not switch_flags:
        return []
    system = _system_of(path)
    table = _flag_switches()
    out = []
    for flag, value in switch_flags.items():
        if system not in table[flag]:
            raise FuzionSimError(f"--{flag} is not an option of system {system}")
        out.append((f"rules.{table[flag][system][0]}", value, f"--{flag} {value}"))
    return out


def _system_of(path: str) -> str:
    """The rule system a scenario file names (the default when it names none)."""
    from .systems import DEFAULT_SYSTEM

    data = as_base(path).data
    system = data.get("system") if isinstance(data, dict) else None
    return system if isinstance(system, str) else DEFAULT_SYSTEM


def _set_overrides(texts) -> list:
    """``--set KEY=VALUE`` texts as ``(key, value, option)``: the value read as YAML, as a
    scenario file or ``--vary`` reads it (``10``, ``true``, ``interlock``, ``{dc: 4}``)."""
    out = []
    for text in texts:
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise FuzionSimError(f"--set {shorten(text)!r}: expected KEY=VALUE, e.g. "
                                 "--set sides.blue[0].armor.pd=10")  # fmt: skip
        out.append((key.strip(), parse_value(value.strip()), f"--set {text}"))
    return out


def _override_options(func):
    """The overrides every command that takes a scenario accepts: ``--set KEY=VALUE``
    (repeatable, applied in order after the shortcuts) and the rule-switch shortcuts
    (``--dice``). The command gets ``overrides``: ``(key, value, option)`` triples for the
    scenario named by its ``scenario`` argument."""

    @functools.wraps(func)
    def wrapper(*args, set_texts=(), switch_flags=None, **kwargs):
        path = kwargs["scenario"]
        overrides = _flag_overrides(path, switch_flags or {}) + _set_overrides(set_texts)
        return func(*args, overrides=overrides, **kwargs)

    wrapper = click.option(
        "--set", "set_texts", multiple=True, metavar="KEY=VALUE",
        help="Change the scenario before it runs: a key path and its value, as --vary takes "
        "them (e.g. sides.blue[0].armor.pd=10); repeatable.",
    )(wrapper)  # fmt: skip
    return _switch_options(wrapper)


def _assignments(texts, option: str):
    if not texts:
        raise FuzionSimError(f"give at least one {option} KEY=VALUES")
    return [parse_assignment(t) for t in texts]


def _range(text):
    if text is None:
        return None, None
    parts = text.split(":")
    if len(parts) != 2:
        raise FuzionSimError(f"--range must be LO:HI, got '{text}'")
    lo, hi = (parse_value(x.strip()) for x in parts)
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise FuzionSimError(f"--range must be two numbers LO:HI, got '{text}'")
    return lo, hi


def _dump(obj) -> None:
    """``obj`` as one line of JSON on stdout (values JSON has no type for as text)."""
    click.echo(json.dumps(obj, indent=None, separators=(",", ": "), default=str))
