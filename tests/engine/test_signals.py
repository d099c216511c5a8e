"""A Ctrl-C during a compile is not lost (``_signals.kept``): Python ignores an exception raised in
a finaliser or a callback from C, where numba's compiler often is when the signal is handled.
A finaliser that raises ``KeyboardInterrupt`` stands in for the signal landing there."""

from __future__ import annotations

import sys
import time

import pytest

from fuzion_sim import _signals


class _Landing:
    """An object whose finaliser raises ``KeyboardInterrupt``, as a Ctrl-C handled there does."""

    def __del__(self):
        raise KeyboardInterrupt


def _compile(seconds: float, then=None) -> None:
    """A stand-in for a compile: the interrupt lands in a finaliser, then work goes on."""
    _Landing()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sum(range(1000))  # Python code, where a signal's handler runs
    if then is not None:
        raise then


def test_an_interrupt_python_ignored_is_delivered_again():
    began = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), _signals.kept():
        _compile(5.0)
    assert time.perf_counter() - began < 2.0  # a moment after, not at the compile's end


def test_without_it_the_interrupt_is_lost(monkeypatch):
    """The control: the same block outside ``kept`` runs to its end, the interrupt handed to
    Python's hook for what it ignores."""
    ignored = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    _compile(0.3)
    assert [type(u.exc_value) for u in ignored] == [KeyboardInterrupt]


def test_an_error_that_follows_a_lost_interrupt_is_the_interrupt():
    """numba failing on the step the interrupt cut short (``no compiled object yet``)."""
    with pytest.raises(KeyboardInterrupt) as err, _signals.kept():
        _compile(0.0, then=RuntimeError("no compiled object yet"))
    assert isinstance(err.value.__cause__, RuntimeError)


def test_a_block_that_ends_first_raises_the_interrupt_at_its_end(monkeypatch):
    monkeypatch.setattr(_signals, "REDELIVER_AFTER", 60.0)
    began = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), _signals.kept():
        _compile(0.1)
    assert time.perf_counter() - began < 2.0


def test_other_errors_and_unraisables_pass_through(monkeypatch):
    ignored = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)

    class _Failing:
        def __del__(self):
            raise ValueError("a finaliser's own error")

    with pytest.raises(RuntimeError), _signals.kept():
        _Failing()
        raise RuntimeError("a compile error")
    assert [type(u.exc_value) for u in ignored] == [ValueError]  # to the hook as before
    with _signals.kept():
        pass
    assert sys.unraisablehook == ignored.append


def test_a_run_whose_compile_loses_the_interrupt_ends_as_interrupted(monkeypatch):
    """The run's compile is inside ``kept``: numba failing after a lost interrupt is the
    interrupt, before any trial ran."""
    from conftest import SCENARIOS

    import fuzion_sim as fz
    from fuzion_sim.engine import runner
    from fuzion_sim.errors import Interrupted

    def compiling(*args, **kwargs):
        _compile(0.0, then=RuntimeError("no compiled object yet"))

    monkeypatch.setattr(runner, "chunk_result", compiling)
    with pytest.raises(Interrupted) as err:
        fz.simulate(SCENARIOS / "benchmark-duel.yaml", trials=1000, threads=1, progress=False)
    assert err.value.trials == 0


def test_a_replay_whose_compile_loses_the_interrupt_raises_it(monkeypatch):
    from conftest import SCENARIOS

    import fuzion_sim as fz
    from fuzion_sim.systems import get_system

    system = type(get_system("fuzion"))
    monkeypatch.setattr(system, "replay", lambda *args: _compile(0.0, then=RuntimeError("x")))
    with pytest.raises(KeyboardInterrupt):
        fz.replay(SCENARIOS / "benchmark-duel.yaml", 0)
