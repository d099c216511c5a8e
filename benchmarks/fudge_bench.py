"""FUDGE Firearms throughput against the Fuzion benchmark duel (FUDGE's speed target).

The target: a 1 v 1 FUDGE gunfight resolves at least as many attacks per second as the Fuzion
benchmark duel on 2 threads in the same run. Attacks per second = fights per second x the sum
of the combatants' ``attacks_mean`` (= attacks counted over the run's own elapsed time, which
excludes compilation). The two fights are measured in this one process, round-robin, best of
``reps`` (on a shared machine a neighbour's load then slows both alike), on 1 and 2 threads.
Each FUDGE estimate of P(Vaclav wins) is checked against the exact Markov chain within 4
standard errors.

``rows(quick)`` gives the table's rows for ``benchmarks/run.py``; ``python
benchmarks/fudge_bench.py [--quick]`` prints them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUDGE_DUEL = ROOT / "scenarios" / "fudge" / "two-fair-shooters.yaml"
FUZION_DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"

__all__ = ["rows"]


def _check(res, exact) -> dict:
    p = exact["sides"]["vaclav"]["win_probability"]
    p_hat = res.win_probability("vaclav")
    z = (p_hat - p) / (p * (1 - p) / res.trials) ** 0.5
    return {"p": float(p_hat), "exact": p, "z": float(z), "agrees": bool(abs(z) <= 4.0)}


def rows(quick: bool) -> list[dict]:
    """Attacks per second of the FUDGE 1 v 1 (the worked example's two Fair shooters at 8 m) and of
    the Fuzion benchmark duel, on 1 and 2 threads, with the ratio and whether the target is
    met (2 threads: FUDGE >= Fuzion)."""
    from fuzion_sim import load_scenario, simulate
    from fuzion_sim.api import exact_fight

    n = 4_000_000 if quick else 16_000_000
    reps = 3 if quick else 5
    cases = {"fudge 1 v 1": load_scenario(FUDGE_DUEL),
             "fuzion benchmark duel": load_scenario(FUZION_DUEL)}  # fmt: skip
    exact = exact_fight(cases["fudge 1 v 1"])
    out = []
    for threads in (1, 2):
        for sc in cases.values():  # compile, and wake every core
            simulate(sc, trials=n // 4, threads=threads, keep_trials=False, progress=False)
        best: dict = {}
        for _ in range(reps):
            for label, sc in cases.items():
                res = simulate(sc, trials=n, seed=1, threads=threads, keep_trials=False,
                               progress=False)  # fmt: skip
                if label not in best or res.elapsed < best[label].elapsed:
                    best[label] = res
        rates = {}
        for label, res in best.items():
            attacks = int(res.tally.attacks_sum.sum())
            rates[label] = attacks / res.elapsed
            row = {"impl": "fuzion_sim", "scenario": label, "system": res.system,
                   "threads": threads, "trials": n, "elapsed_s": res.elapsed,
                   "fights_per_s": n / res.elapsed,
                   "attacks_mean_sum": attacks / n, "attacks_per_s": rates[label]}  # fmt: skip
            if res.system == "fudge":
                row["check"] = _check(res, exact)
            out.append(row)
        ratio = rates["fudge 1 v 1"] / rates["fuzion benchmark duel"]
        for row in out[-2:]:
            row["fudge_over_fuzion"] = ratio
            row["target_met"] = bool(ratio >= 1.0) if threads == 2 else None
    return out


if __name__ == "__main__":
    table = rows("--quick" in sys.argv[1:])
    for row in table:
        print(json.dumps(row))
