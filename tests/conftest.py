"""Shared fixtures: scenario files and a small helper to build scenarios from dicts."""

from __future__ import annotations

import copy
import signal
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


@pytest.fixture
def benchmark_duel_data() -> dict:
    """The benchmark duel of PERFORMANCE-NOTES.md as a plain dict."""
    return copy.deepcopy(yaml.safe_load((SCENARIOS / "benchmark-duel.yaml").read_text()))


def pytest_configure(config):
    """Compile every kernel once, in the main process, before the parallel workers start: they
    then load the kernels from numba's cache instead of each compiling them at once.

    In every process of the suite, a SIGINT ignored since the start (a suite a non-interactive
    shell started in the background inherits that, as would every command the Ctrl-C tests
    start, which would then never see their Ctrl-C) gets Python's own handler back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from fuzion_sim.warm import warm

    warm(sorted(SCENARIOS.glob("**/*.yaml")))
