"""FUDGE Firearms throughput against the Fuzion benchmark duel (FUDGE's speed target).

The targets: a 1 v 1 FUDGE gunfight resolves at least as many attacks per second as the Fuzion
benchmark duel on the duel kernel (the bar's reference: ``reference.py``) on 2 threads in the
same run, and battles of its two shooters 10 and 50 times
over at least half the attacks per second of the 1 v 1 (``over_duel``, ``duel_target``).
Attacks per second = fights per second x the sum of the combatants' ``attacks_mean`` (=
attacks counted over the run's own elapsed time, which excludes compilation). The fights are
measured in this one process, round-robin, best of ``reps`` (on a shared machine a
neighbour's load then slows them alike), on 1 and 2 threads. Each FUDGE estimate of P(Vaclav
wins) is checked against the exact Markov chain within 4 standard errors.

``rows(quick)`` gives the table's rows for ``benchmarks/run.py``; ``python
benchmarks/fudge_bench.py [--quick]`` prints them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reference import maybe_duel_kernel

ROOT = Path(__file__).resolve().parent.parent
FUDGE_DUEL = ROOT / "scenarios" / "fudge" / "two-fair-shooters.yaml"
FUZION_DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"

__all__ = ["rows"]

DUEL, FUZION = "fudge 1 v 1", "fuzion benchmark duel (duel kernel)"
#: The battles (the 1 v 1's members this many times over) and the share of the 1 v 1's attacks
#: per second each must reach (2 threads).
BATTLES = {"fudge 10 v 10": 10, "fudge 50 v 50": 50}
DUEL_TARGET = 0.5


def _check(res, exact) -> dict:
    p = exact["sides"]["vaclav"]["win_probability"]
    p_hat = res.win_probability("vaclav")
    z = (p_hat - p) / (p * (1 - p) / res.trials) ** 0.5
    return {"p": float(p_hat), "exact": p, "z": float(z), "agrees": bool(abs(z) <= 4.0)}


def rows(quick: bool) -> list[dict]:
    """Attacks per second of the FUDGE 1 v 1 (the worked example's two Fair shooters at 8 m), of
    its battles and of the Fuzion benchmark duel, on 1 and 2 threads, with the 1 v 1's ratio to
    the Fuzion duel and whether that target is met (2 threads: FUDGE >= Fuzion), and each
    battle's ratio to the 1 v 1 and whether that is at least half."""
    from colour_bench import battle

    from fuzion_sim import load_scenario, simulate
    from fuzion_sim.api import exact_fight
    from fuzion_sim.engine.rng import CHUNK

    n = 4_000_000 if quick else 16_000_000
    reps = 3 if quick else 5
    # a battle's trials: an even number of chunks (both threads work; several, so that a
    # neighbour's load on one core delays the run by little), about half a second each on the
    # battle kernel (quick), a second or more in full
    chunks = {10: 8, 50: 4} if quick else {10: 16, 50: 8}
    cases = {DUEL: (load_scenario(FUDGE_DUEL), n), FUZION: (load_scenario(FUZION_DUEL), n),
             **{label: (battle(FUDGE_DUEL, times), chunks[times] * CHUNK)
                for label, times in BATTLES.items()}}  # fmt: skip
    exact = exact_fight(cases[DUEL][0])
    out = []
    for threads in (1, 2):
        for label, (sc, trials) in cases.items():  # compile, and wake every core
            with maybe_duel_kernel(label == FUZION):
                simulate(sc, trials=trials // 4, threads=threads, keep_trials=False,
                         progress=False)  # fmt: skip
        best: dict = {}
        for _ in range(reps):
            for label, (sc, trials) in cases.items():
                with maybe_duel_kernel(label == FUZION):  # the reference of the bar
                    res = simulate(sc, trials=trials, seed=1, threads=threads, keep_trials=False,
                                   progress=False)  # fmt: skip
                if label not in best or res.elapsed < best[label].elapsed:
                    best[label] = res
        rates = {}
        table = []
        for label, res in best.items():
            attacks = int(res.tally.attacks_sum.sum())
            rates[label] = attacks / res.elapsed
            row = {"impl": "fuzion_sim", "scenario": label, "system": res.system,
                   "threads": threads, "trials": res.trials, "elapsed_s": res.elapsed,
                   "fights_per_s": res.trials / res.elapsed,
                   "attacks_mean_sum": attacks / res.trials,
                   "attacks_per_s": rates[label]}  # fmt: skip
            if label == DUEL:
                row["check"] = _check(res, exact)
            table.append(row)
        ratio = rates[DUEL] / rates[FUZION]
        for row in table:
            if row["scenario"] in (DUEL, FUZION):
                row["fudge_over_fuzion"] = ratio
                row["target_met"] = bool(ratio >= 1.0) if threads == 2 else None
            else:
                row["over_duel"] = rates[row["scenario"]] / rates[DUEL]
                row["duel_target"] = DUEL_TARGET
                row["duel_target_met"] = (bool(row["over_duel"] >= DUEL_TARGET)
                                          if threads == 2 else None)  # fmt: skip
        out.extend(table)
    return out


if __name__ == "__main__":
    table = rows("--quick" in sys.argv[1:])
    for row in table:
        print(json.dumps(row))
