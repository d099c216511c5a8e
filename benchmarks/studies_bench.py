"""Timings of the studies beyond one fight (warm kernels): a 6 x 6 balance table and a
sensitivity study.

Run with ``python benchmarks/studies_bench.py [--threads 2]``. The 6 x 6 table is the
flagship's fighters: six handguns and rifles of the Marshal against the six modern armours of
the Outlaw, 20,000 trials a cell. Each study is run once to load the kernels, then timed.
"""

from __future__ import annotations

import argparse
import time

FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"
WEAPONS = ("sides.red[0].weapon=Colt Revolver,Light Pistol,Medium Pistol,Large Pistol,"
           "Magnum Pistol,Bolt Action Rifle")  # fmt: skip
ARMOUR = "sides.blue[0].armor=@catalog:armor[category=modern]"


def bench_matrix(threads: int, trials: int = 20_000) -> float:
    """Seconds for the 6 x 6 table (after a warm-up run)."""
    from fuzion_sim.analysis.matrix import matrix

    matrix(FLAGSHIP, WEAPONS, ARMOUR, trials=1000, threads=threads)
    start = time.perf_counter()
    mx = matrix(FLAGSHIP, WEAPONS, ARMOUR, trials=trials, threads=threads)
    seconds = time.perf_counter() - start
    print(f"matrix 6 x 6 x {trials:,} trials a cell, {threads} threads: {seconds:.2f} s "
          f"({len(mx.cells) * trials / seconds:,.0f} trials/s)")  # fmt: skip
    return seconds


def bench_sensitivity(threads: int) -> float:
    """Seconds for a four-parameter Sobol study with bootstrap intervals (after a warm-up)."""
    from fuzion_sim.analysis.sensitivity import sensitivity
    from fuzion_sim.scenario.variants import as_base

    # the Marshal's Fencing skill (written out, unused by his pistol): a parameter with no effect
    scenario = as_base(FLAGSHIP).build([("sides.red[0].skills.Fencing", 2)])
    vary = ["sides.red[0].stats.REF=3:10", "sides.red[0].skills.Handgun=1:8",
            "sides.blue[0].armor.pd=4:12", "sides.red[0].skills.Fencing=0:5"]  # fmt: skip
    sensitivity(scenario, vary, trials=200, n=8, threads=threads)
    start = time.perf_counter()
    sensitivity(scenario, vary, threads=threads)
    seconds = time.perf_counter() - start
    print(f"sensitivity (Sobol, 4 parameters, default sizes), {threads} threads: {seconds:.2f} s")
    return seconds


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    bench_matrix(args.threads)
    bench_sensitivity(args.threads)
