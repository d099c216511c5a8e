"""A first run's compile: CPU seconds of ``fuzion-sim run SCENARIO --trials 2000 --json`` in a
fresh process with an empty numba cache (``NUMBA_CACHE_DIR`` a new temporary folder), one
scenario a process.

The bar: every shipped scenario compiles in at most 30 s of CPU on the reference
machine (2 cores), a scenario with every Fuzion room at once in at most 60 s. CPU seconds
(user + system of the child) are the measure, not wall time, so a neighbour's load moves them
less; they still move by a few seconds on a busy machine. The set with every room is compiled
by a fight with vehicles among hazards or jumps, or missiles or dogfights beside motion, a scene
or an area weapon; no shipped scenario compiles it, so its row is the car chase with a zone of
smoke added (``--set``: a scenario here is a path and, after it, options of ``fuzion-sim
run``).

``make bench`` (full) measures :data:`SCENARIOS`: the flagship duel, the squad kernel, each
compiled set of Fuzion's general kernel (the people's, ``squad-4v4.yaml``; a scene,
``vehicles/brick-through-a-wall.yaml``; hazards, ``pushing-brawl.yaml``; on foot,
``vehicles/burning-building.yaml``; vehicles,
``vehicles/tank-example.yaml``; driven vehicles, ``vehicles/car-chase-with-ramming.yaml``;
the air, ``vehicles/jet-vs-missile-cluster.yaml``; every room, the car chase in smoke),
the colour 10 v 10, colour's general kernel (``colour/grapple.yaml``) and a FUDGE duel.
``--all`` measures every shipped scenario instead (about
30 minutes on 2 cores)::

    .venv/bin/python benchmarks/cold_start.py
    .venv/bin/python benchmarks/cold_start.py --all --out benchmarks/results/cold-all.json

A change's effect is smaller than a busy machine's drift (one tree's first run moved by 20 %
within an hour), so ``--against REV`` runs each scenario ``--reps`` times on this tree and on
``REV``'s (exported as ``general_ab.py`` does, into ``benchmarks/.ab/``), the two in turn, and
prints each pair and the ratio of the medians::

    .venv/bin/python benchmarks/cold_start.py --against HEAD~1 --reps 2 \
        --scenario scenarios/vehicles/tank-example.yaml
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCENARIOS = {
    "flagship duel": "scenarios/marshal-vs-outlaw.yaml",
    "squad kernel": "scenarios/bench-squad-4v4.yaml",
    "people (general kernel)": "scenarios/squad-4v4.yaml",
    "a scene (general kernel)": "scenarios/vehicles/brick-through-a-wall.yaml",
    "hazards (general kernel)": "scenarios/pushing-brawl.yaml",
    "on foot (general kernel)": "scenarios/vehicles/burning-building.yaml",
    "vehicles (general kernel)": "scenarios/vehicles/tank-example.yaml",
    "driven vehicles (general kernel)": "scenarios/vehicles/car-chase-with-ramming.yaml",
    "the air (general kernel)": "scenarios/vehicles/jet-vs-missile-cluster.yaml",
    "every Fuzion room": "scenarios/vehicles/car-chase-with-ramming.yaml --set 'hazards=[{name: "
                         "Smoke, kind: smoke, obscures: true, circle: {center: [0, 0], "
                         "radius: 3}}]'",
    "colour 10 v 10": "scenarios/colour/bench-squad-10v10.yaml",
    "colour general kernel": "scenarios/colour/grapple.yaml",
    "FUDGE duel": "scenarios/fudge/dynamite.yaml",
}
#: CPU seconds a first run may take; the scenario with every room has its own bar.
BAR_S, EVERY_ROOM_BAR_S = 30.0, 60.0

_LAUNCHER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {wall} {usage.ru_utime + usage.ru_stime} "
            f"{usage.ru_maxrss}")
"""


def cold_run(scenario: str, package: str = "fuzion_sim") -> dict:
    """One cold first run of ``scenario`` (a path under the repository) by ``package`` (this
    tree's, or a revision's exported under ``benchmarks/.ab/``): its CPU and wall seconds and
    peak RSS (MB). Raises ``RuntimeError`` when the run fails."""
    cmd = [sys.executable, "-m", package, "run", *shlex.split(scenario), "--trials", "2000",
           "--json"]  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="fuzion-cold-") as tmp:
        report = Path(tmp) / "rusage"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        if package != "fuzion_sim":
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE / ".ab"),
                                                              env.get("PYTHONPATH")]))
        proc = subprocess.run([sys.executable, "-c", _LAUNCHER, str(report), *cmd],
                              capture_output=True, text=True, env=env, cwd=ROOT)  # fmt: skip
        fields = report.read_text().split() if report.exists() else ["-1", "0", "0", "0"]
    code, wall, cpu, rss = int(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    if proc.returncode != 0 or code != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({code}):\n{proc.stderr}")
    bar = EVERY_ROOM_BAR_S if scenario == SCENARIOS["every Fuzion room"] else BAR_S
    return {"scenario": scenario, "cpu_s": cpu, "wall_s": wall, "peak_rss_mb": rss / 1024.0,
            "bar_s": bar, "met": cpu <= bar}  # fmt: skip


def shipped() -> list[str]:
    """Every scenario the repository ships, as paths relative to its root."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scenarios").rglob("*.yaml"))


def paired(scenarios: list[str], rev: str, reps: int) -> list[dict]:
    """Each scenario's first run ``reps`` times on this tree and on ``rev``'s, the two in turn:
    a row each with both trees' CPU seconds and the ratio of their medians (this over rev)."""
    from general_ab import export

    other = export(rev)
    rows = []
    for scenario in scenarios:
        this, then = [], []
        for _ in range(reps):
            this.append(cold_run(scenario)["cpu_s"])
            then.append(cold_run(scenario, other)["cpu_s"])
            print(f"{this[-1]:6.1f} s CPU here {then[-1]:6.1f} s at {rev}  {scenario}", flush=True)
        ratio = statistics.median(this) / statistics.median(then)
        print(f"{ratio:6.2f} of {rev}'s (medians)  {scenario}", flush=True)
        rows.append({"scenario": scenario, "cpu_s": this, "against": rev, "against_cpu_s": then,
                     "ratio": ratio})  # fmt: skip
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every shipped scenario")
    parser.add_argument("--scenario", action="append", help="this scenario (repeatable)")
    parser.add_argument("--against", metavar="REV", help="pair each run with REV's, in turn")
    parser.add_argument("--reps", type=int, default=2, help="pairs a scenario (--against; 2)")
    parser.add_argument("--out", type=Path, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    scenarios = args.scenario or (shipped() if args.all else list(SCENARIOS.values()))
    if args.against:
        rows = paired(scenarios, args.against, args.reps)
        if args.out:
            args.out.write_text(json.dumps(rows, indent=2))
        return 0
    rows = []
    for scenario in scenarios:
        row = cold_run(scenario)
        rows.append(row)
        print(f"{row['cpu_s']:6.1f} s CPU {row['wall_s']:6.1f} s wall  bar {row['bar_s']:.0f}"
              f"  {'ok' if row['met'] else 'OVER'}  {scenario}", flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["met"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
