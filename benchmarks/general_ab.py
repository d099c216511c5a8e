"""The benchmark duel forced onto the general kernel, for an A/B of trees (the
bar of the vehicles and the environment: with a room compiled in but switched off, the general
kernel is at most 5% slower).

Prints fights per second of thread CPU time, best and median of ``--reps`` chunks of 65,536
trials, for the bare benchmark duel and with ``tactics: [{do: attack}]``.

With ``--against REV`` (any number of git revisions) every tree runs **in this one process**:
each revision's ``fuzion_sim`` is exported with ``git archive`` into ``benchmarks/.ab/`` as a
package of its own name (``fz_<sha>``, the package's name rewritten in its sources; kept, so
its numba cache is reused), and the chunks of all trees are run in turn, chunk by chunk. A
neighbour's load on a shared VM then slows every tree alike, where pairs of whole processes
scattered by 1.5x (PERFORMANCE-NOTES lessons 15 and 17). The ratios are this tree's best and
median over each revision's::

    .venv/bin/python benchmarks/general_ab.py --against 9552713 --reps 30
    .venv/bin/python benchmarks/general_ab.py --against eb79138 --scenario \
        scenarios/vehicles/tank-example.yaml --chunk 4096

``--kernel`` forces another of Fuzion's kernels instead (``standing``, ``squad``, ``duel``),
for an A/B of that kernel on a fight it can run, and ``--tally`` adds the trials straight into
a tally, as a run does, instead of writing each one out::

    .venv/bin/python benchmarks/general_ab.py --against 91492e6 --kernel standing --reps 15 \
        --scenario scenarios/bench-squad-4v4.yaml

A revision's first run compiles its general kernel (minutes on this 2-core machine).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import re
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"
STORE = HERE / ".ab"
CHUNK = 65_536
LABELS = (("bare", None), ("tactics", [{"do": "attack"}]))


def export(rev: str) -> str:
    """``rev``'s ``fuzion_sim`` as the package ``fz_<sha>`` under :data:`STORE`; its name."""
    sha = subprocess.run(["git", "rev-parse", "--short=10", rev], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()  # fmt: skip
    name = f"fz_{sha}"
    target = STORE / name
    if not target.exists():
        tar = subprocess.run(["git", "archive", sha, "fuzion_sim"], cwd=ROOT, check=True,
                             capture_output=True).stdout  # fmt: skip
        staging = STORE / f".{name}.tmp"
        with tarfile.open(fileobj=BytesIO(tar)) as archive:
            archive.extractall(staging, filter="data")
        for path in (staging / "fuzion_sim").rglob("*.py"):
            text = path.read_text()
            path.write_text(re.sub(r"\bfuzion_sim\b", name, text))
        (staging / "fuzion_sim").rename(target)
        staging.rmdir()
    return name


def plans(package: str, path: Path = DUEL, labels=LABELS, kernel: str = "general",
          tally: bool = False) -> dict:
    """``{label: (run_chunk, chunk_key, plan)}`` of ``package`` (compiled or loaded): the
    scenario at ``path`` with each label's tactics on everyone (None: its own), forced onto
    ``kernel``; with ``tally`` its ``run_chunk`` adds the trials straight into a tally
    (``tally_chunk``, as a run does) instead of writing them out."""
    rng = importlib.import_module(f"{package}.engine.rng")
    scenario = importlib.import_module(f"{package}.scenario")
    system = importlib.import_module(f"{package}.systems.fuzion")
    data = yaml.safe_load(path.read_text())
    out = {}
    for label, tactic in labels:
        d = copy.deepcopy(data)
        for side in d["sides"].values():
            for member in side:
                if tactic:
                    member["tactics"] = tactic
        plan = system.compile_scenario(scenario.scenario_from_dict(d), kernel=kernel)
        run_chunk = system.tally_chunk if tally else system.run_chunk
        run_chunk(plan, rng.chunk_key(1, 0), 0, 1000)  # compile, or load the cache
        out[label] = (run_chunk, rng.chunk_key, plan)
    return out


def measure(trees: dict, reps: int, chunk: int = CHUNK) -> dict:
    """Seconds of thread CPU of each tree's chunks of ``chunk`` trials, ``{(tree, label):
    [seconds]}``, the trees' chunks in turn."""
    times = {(tree, label): [] for tree, runs in trees.items() for label in runs}
    for r in range(reps):
        for tree, runs in trees.items():
            for label, (run_chunk, chunk_key, plan) in runs.items():
                t0 = time.thread_time()
                run_chunk(plan, chunk_key(1, r), 0, chunk)
                times[tree, label].append(time.thread_time() - t0)
    return times


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reps_pos", nargs="?", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--reps", type=int, default=12, help="chunks of each tree (12)")
    parser.add_argument("--against", nargs="*", default=[], metavar="REV",
                        help="git revisions to run beside this tree, in this process")
    parser.add_argument("--scenario", type=Path, help="another fight instead of the benchmark "
                        "duel (a vehicle's, a hazard's), as it is, forced onto the general kernel")
    parser.add_argument("--chunk", type=int, default=CHUNK, help=f"trials a chunk ({CHUNK})")
    parser.add_argument("--kernel", default="general",
                        choices=("general", "standing", "squad", "duel"),
                        help="the kernel every tree runs the fight on (general)")
    parser.add_argument("--tally", action="store_true",
                        help="add the trials into a tally as a run does, not write them out")
    args = parser.parse_args(argv)
    path, labels = (args.scenario, (("scenario", None),)) if args.scenario else (DUEL, LABELS)
    reps = args.reps_pos or args.reps
    names = []
    if args.against:
        STORE.mkdir(exist_ok=True)
        sys.path.insert(0, str(STORE))
        names = [export(rev) for rev in args.against]
    trees = {"this": plans("fuzion_sim", path, labels, args.kernel, args.tally),
             **{name: plans(name, path, labels, args.kernel, args.tally) for name in names}}
    times = measure(trees, reps, args.chunk)
    for label, _ in labels:
        figures = []
        for tree in trees:
            best = args.chunk / min(times[tree, label]) / 1e6
            median = args.chunk / statistics.median(times[tree, label]) / 1e6
            figures.append(f"{tree} {best:.2f} M (median {median:.2f} M)")
        print(f"{label:8s}", "  ".join(figures), "fights/s")
        for name in names:
            ratio_best = min(times[name, label]) / min(times["this", label])
            ratio_med = statistics.median(times[name, label]) / statistics.median(
                times["this", label])
            print(f"{'':8s} this / {name}: best {ratio_best:.3f}, median {ratio_med:.3f}")


if __name__ == "__main__":
    main()
