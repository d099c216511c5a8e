"""Every shipped scenario gives the numbers it gave when they were recorded, bit for bit.

A change to the kernels' shape (a room moved, a kernel compiled per feature set, state held in
tables) must not change a simulated number: each shipped scenario runs one chunk at a fixed
seed on the kernel ``dispatch`` picks for it, and a digest of every per-trial outcome (winner,
times, damage, attacks, the system's counters and categories) must match the one recorded in
``tests/data/fixed_numbers.json``. A change that is meant to change numbers records them again
(``python tests/systems/test_fixed_numbers.py --record``) and says so in the CHANGELOG.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import read_yaml, scenario_from_dict
from fuzion_sim.systems import get_system

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "fuzion_sim" / "examples"
RECORD = ROOT / "tests" / "data" / "fixed_numbers.json"
SEED = 7
#: Trials a scenario, and fewer for the big battles (their compile dominates anyway).
TRIALS = 200
BIG = {"line-battle-100v100": 20, "zombie-horde": 50}


def _paths() -> list[Path]:
    return sorted(SCENARIOS.rglob("*.yaml"))


def _name(path: Path) -> str:
    return path.relative_to(SCENARIOS).with_suffix("").as_posix()


def digest(path: Path) -> str:
    """The sha256 of one chunk's per-trial outcomes of the scenario at ``path``."""
    data, lines = read_yaml(path)
    scenario = scenario_from_dict(data, str(path), lines)
    system = get_system(scenario.system)
    plan = system.compile(scenario)
    out = system.run_chunk(plan, chunk_key(SEED, 0), 3, BIG.get(path.stem, TRIALS))
    h = hashlib.sha256()
    arrays = {"winner": out.winner, "end_slot": out.end_slot, "out_slot": out.out_slot,
              "death_slot": out.death_slot, "dealt": out.dealt, "taken": out.taken,
              "attacks": out.attacks, "landed": out.landed,
              **{f"counter:{k}": v for k, v in out.counters.items()},
              **{f"category:{k}": v for k, v in out.categories.items()}}  # fmt: skip
    for key in sorted(arrays):
        a = np.ascontiguousarray(arrays[key])
        h.update(f"{key}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("path", _paths(), ids=_name)
def test_shipped_scenario_gives_its_recorded_numbers(path):
    recorded = json.loads(RECORD.read_text())
    name = _name(path)
    assert name in recorded, f"{name} has no recorded numbers: run this file with --record"
    assert digest(path) == recorded[name], (
        f"{name}: the numbers at seed {SEED} changed; if that is meant, record them again "
        "(python tests/systems/test_fixed_numbers.py --record) and say so in the CHANGELOG"
    )


def test_a_changed_number_changes_the_digest(tmp_path):
    """The control: one point of BODY more on the benchmark duel's first gunman moves the digest."""
    path = SCENARIOS / "benchmark-duel.yaml"
    text = path.read_text()
    changed = tmp_path / "benchmark-duel.yaml"
    assert "BODY: 6}" in text
    changed.write_text(text.replace("BODY: 6}", "BODY: 7}", 1))
    assert digest(changed) != digest(path)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/systems/test_fixed_numbers.py --record")
    numbers = {_name(p): digest(p) for p in _paths()}
    RECORD.write_text(json.dumps(numbers, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(numbers)} scenarios in {RECORD}")
