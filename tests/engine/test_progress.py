"""The terminal's notices: the compile notice appears only when loading the kernels is slow,
on a terminal or in a notebook, with the system's estimate of the compile when it has one."""

import io
import sys
import time

from fuzion_sim.engine.progress import COMPILING, compiling_notice


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_slow_first_load_says_it_is_compiling_and_how_long_it_took():
    out = Terminal()
    with compiling_notice(stream=out, delay=0.05):
        time.sleep(0.3)
    lines = out.getvalue().splitlines()
    assert lines[0] == COMPILING
    assert lines[1].startswith("compiled in ")


def test_a_cache_hit_says_nothing():
    out = Terminal()
    with compiling_notice(stream=out, delay=5.0):
        pass
    assert out.getvalue() == ""


def test_nothing_off_a_terminal_or_when_switched_off(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    piped = io.StringIO()
    with compiling_notice(stream=piped, delay=0.0):
        time.sleep(0.1)
    assert piped.getvalue() == ""
    out = Terminal()
    with compiling_notice(False, stream=out, delay=0.0):
        time.sleep(0.1)
    assert out.getvalue() == ""


def test_a_notebook_shows_the_notice_with_the_estimate(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipykernel", sys)  # a Jupyter kernel's process
    cell = io.StringIO()
    with compiling_notice(stream=cell, delay=0.0, estimate=240.0):
        time.sleep(0.1)
    first = cell.getvalue().splitlines()[0]
    assert first == "compiling kernels (first run only; about 4 min of CPU) ..."
    out = Terminal()
    with compiling_notice(stream=out, delay=0.0, estimate=14.0):
        time.sleep(0.1)
    assert "about 10 s of CPU" in out.getvalue()


def test_each_system_estimates_the_compile_of_its_shipped_fights():
    """Every kernel the shipped examples reach announces a compile time near the one measured
    for each of them (``benchmarks/results/cold-all.json``, ``benchmarks/cold_start.py --all``):
    no faster than measured by more than a tenth, nor half again as slow. A change that moves
    a first run, measured again, moves the estimate with it."""
    import json

    from conftest import ROOT, SCENARIOS

    from fuzion_sim import load_scenario
    from fuzion_sim.systems import get_system

    measured = json.loads((ROOT / "benchmarks" / "results" / "cold-all.json").read_text())
    seconds = {row["scenario"]: row["cpu_s"] for row in measured}
    shipped = sorted(SCENARIOS.glob("**/*.yaml"))
    assert {str(p.relative_to(ROOT)) for p in shipped} == set(seconds)
    for path in shipped:
        sc = load_scenario(path)
        system = get_system(sc.system)
        estimate = system.compile_seconds(system.compile(sc))
        cpu = seconds[str(path.relative_to(ROOT))]
        assert estimate is not None and 0.9 * cpu <= estimate <= 1.5 * cpu, (path.name, estimate,
                                                                              cpu)  # fmt: skip
