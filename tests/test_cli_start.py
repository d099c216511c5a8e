"""``fuzion-sim --help``, ``--version`` and shell completion start without the simulation:
defining the commands imports neither numpy, numba, pandas nor matplotlib (they cost most of a
second of CPU), and the options drawn from the rule systems still appear where needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click

from fuzion_sim import api
from fuzion_sim.cli import cli
from fuzion_sim.cli_common import MAX_THREADS

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "numba", "pandas", "matplotlib")
PROBE = """
import json, sys
from fuzion_sim.entry import main
try:
    main({args!r})
except SystemExit:
    pass
print(json.dumps([m for m in {heavy!r} if m in sys.modules]), file=sys.stderr)
"""


def _loaded(args, env=None) -> tuple[list, str]:
    """The heavy modules loaded after ``fuzion-sim ARGS`` in a fresh interpreter, and stdout."""
    code = PROBE.format(args=args, heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})  # fmt: skip
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


def test_importing_the_command_loads_no_simulation_modules():
    code = f"import sys, fuzion_sim.cli; print([m for m in {HEAVY!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_help_version_and_completion_load_no_simulation_modules():
    loaded, out = _loaded(["--help"])
    assert loaded == [] and "examples" in out and "run" in out
    assert "impact" in out and "dogfight" in out  # a rule system's questions, listed too
    loaded, out = _loaded(["--version"])
    assert loaded == [] and "version" in out
    loaded, out = _loaded([], {"_FUZION_SIM_COMPLETE": "bash_complete",
                               "COMP_WORDS": "fuzion-sim ru", "COMP_CWORD": "1"})  # fmt: skip
    assert loaded == [] and "run" in out
    loaded, out = _loaded([], {"_FUZION_SIM_COMPLETE": "bash_complete",
                               "COMP_WORDS": "fuzion-sim haz", "COMP_CWORD": "1"})  # fmt: skip
    assert loaded == [] and "hazard" in out
    loaded, out = _loaded([], {"_FUZION_SIM_COMPLETE": "bash_complete",
                               "COMP_WORDS": "fuzion-sim new f", "COMP_CWORD": "2"})  # fmt: skip
    assert loaded == [] and out.split() == ["plain,fudge", "plain,fuzion"]


def test_the_rule_system_options_appear_when_a_command_needs_them():
    _loaded_now, out = _loaded(["run", "--help"])
    assert "--dice" in out and "--set" in out
    _loaded_now, out = _loaded(["attack", "--help"])
    assert "--av" in out and "--dice" in out
    options = [o for p in cli.commands["run"].params if isinstance(p, click.Option)
               for o in p.opts]  # fmt: skip
    assert "--dice" in options and not any(o.startswith("--later-") for o in options)


def test_thread_cap_agrees_with_the_api():
    assert MAX_THREADS == api.MAX_THREADS
