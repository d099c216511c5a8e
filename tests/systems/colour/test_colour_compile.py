"""What a colour fight compiles: the kernel that runs it and nothing else (a duel none of the
general kernel's helpers), and of the general kernel only the manoeuvres someone makes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fuzion_sim import load_scenario
from fuzion_sim.systems.colour import kernel, run

SHIPPED = Path(__file__).resolve().parents[3] / "scenarios" / "colour"

#: Run a scenario in a fresh process; print which of the general kernel's functions it compiled
#: or loaded (a jitted function has signatures once it has either).
PROBE = """
import json, sys
from fuzion_sim import load_scenario, simulate
from fuzion_sim.systems.colour import actions, kernel, manoeuvres, strike
simulate(load_scenario(sys.argv[1]), trials=50, seed=1, threads=1, progress=False)
names = {"actions": actions, "manoeuvres": manoeuvres, "kernel": kernel, "strike": strike}
seen = sorted(f"{m}.{n}" for m, mod in names.items() for n, f in vars(mod).items()
              if getattr(f, "__module__", "") == mod.__name__ and getattr(f, "signatures", None))
print(json.dumps({"seen": seen, "general": len(getattr(kernel, "_MADE", ()))}))
"""


def _probe(name: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(Path(run.__file__).resolve().parents[3])}
    done = subprocess.run([sys.executable, "-c", PROBE, str(SHIPPED / name)], env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_duel_compiles_nothing_of_the_general_kernel():
    # the helpers of the general kernel used to compile (or load) at import, for every fight
    got = _probe("ken-against-bob.yaml")
    general = [n for n in got["seen"] if n.split(".")[0] in ("actions", "manoeuvres", "kernel")]
    assert general == []
    assert got["general"] == 0  # no trial loop of the general kernel made


@pytest.mark.parametrize(("name", "expected"), [
    ("bob-ra.yaml", (False, False, False, False)),
    ("called-shot-head.yaml", (False, False, False, False)),
    ("grapple.yaml", (True, False, False, False)),
    ("zombie-family-reunion.yaml", (False, True, False, False)),
])  # fmt: skip
def test_the_manoeuvres_a_fight_compiles(name, expected):
    plan = run.compile_scenario(load_scenario(SHIPPED / name), "general").arrays
    assert kernel.features(plan.mem, plan.acts) == expected


def test_every_manoeuvre_is_a_feature():
    from fuzion_sim.systems.colour import codes as k

    plan = run.compile_scenario(load_scenario(SHIPPED / "bob-ra.yaml"), "general").arrays
    mem, acts = plan.mem.copy(), plan.acts.copy()
    for kind, i in ((k.A_GRAPPLE, 0), (k.A_SWEEP, 1), (k.A_BURST, 3)):
        acts[0, 0, k.AF_KIND] = kind
        assert kernel.features(mem, acts)[i]
    acts[0, 0, k.AF_KIND] = k.A_ATTACK
    mem[1, k.M_W_AREA] = 1
    assert kernel.features(mem, acts) == (False, False, True, False)
