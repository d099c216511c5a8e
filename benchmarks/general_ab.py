"""The benchmark duel forced onto the general kernel, for an A/B of two trees (issue 16's bar:
with a room compiled in but switched off, the general kernel is at most 5% slower).

Prints fights per second of thread CPU time, best of ``REPS`` chunks of 65,536 trials, for the
bare benchmark duel and with ``tactics: [{do: attack}]``. Run it once per tree, alternating,
with the tree on ``PYTHONPATH`` (a ``git worktree`` of the old commit), and compare the bests::

    for i in 1 2 3; do
      PYTHONPATH=../old .venv/bin/python benchmarks/general_ab.py 20
      PYTHONPATH=.      .venv/bin/python benchmarks/general_ab.py 20
    done
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path

import yaml

import fuzion_sim
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems import fuzion

DUEL = Path(__file__).resolve().parent.parent / "scenarios" / "benchmark-duel.yaml"
CHUNK = 65_536


def rates(reps: int) -> dict[str, float]:
    """Best fights per CPU second on the general kernel, bare and with an attack tactic."""
    data = yaml.safe_load(DUEL.read_text())
    out = {}
    for label, tactic in (("bare", None), ("tactics", [{"do": "attack"}])):
        d = copy.deepcopy(data)
        for side in d["sides"].values():
            for member in side:
                if tactic:
                    member["tactics"] = tactic
        plan = fuzion.compile_scenario(scenario_from_dict(d), kernel="general")
        fuzion.run_chunk(plan, chunk_key(1, 0), 0, 1000)  # compile, or load the cache
        best = float("inf")
        for r in range(reps):
            t0 = time.thread_time()
            fuzion.run_chunk(plan, chunk_key(1, r), 0, CHUNK)
            best = min(best, time.thread_time() - t0)
        out[label] = CHUNK / best
    return out


if __name__ == "__main__":
    got = rates(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
    where = Path(fuzion_sim.__file__).resolve().parent.parent
    print(where, "  ".join(f"{k} {v / 1e6:.2f} M fights/s" for k, v in got.items()))
