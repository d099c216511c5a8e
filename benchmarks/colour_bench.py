"""Colour-result throughput against the Fuzion benchmark duel (the colour system's speed target).

The targets, on 2 threads in the same run: a 1 v 1 colour fight (Ken's machine gun against
Bob's crowbar, ``scenarios/colour/ken-against-bob.yaml``) resolves at least as many attacks
per second as the Fuzion benchmark duel on the duel kernel (the bars' reference:
``reference.py``), and the 10 v 10 colour squad fight
(``scenarios/colour/bench-squad-10v10.yaml``) at least half that; each battle, the 10 v 10
and a 50 v 50 (its members five times over), at least half the attacks per second of the
colour 1 v 1 (``over_duel``, ``duel_target``). Attacks per second = the
attack rolls counted over the run (the sum of the combatants' ``attacks_mean`` x trials) over
the run's own elapsed time, which excludes compilation. The fights are measured in this
one process, round-robin, best of ``reps`` (on a shared machine a neighbour's load then slows
them alike), on 1 and 2 threads. Each estimate of P(Ken wins) is checked against the exact
Markov chain within 4 standard errors.

``rows(quick)`` gives the table's rows for ``benchmarks/run.py``; ``python
benchmarks/colour_bench.py [--quick]`` prints them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reference import maybe_duel_kernel

ROOT = Path(__file__).resolve().parent.parent
COLOUR_DUEL = ROOT / "scenarios" / "colour" / "ken-against-bob.yaml"
COLOUR_SQUAD = ROOT / "scenarios" / "colour" / "bench-squad-10v10.yaml"
FUZION_DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"

DUEL, SQUAD, FUZION = "colour 1 v 1", "colour 10 v 10", "fuzion benchmark duel (duel kernel)"
BATTLE = "colour 50 v 50"
#: The share of the Fuzion duel's attacks per second each colour fight must reach (2 threads).
TARGET = {DUEL: 1.0, SQUAD: 0.5}
#: The share of the colour 1 v 1's attacks per second each battle must reach (2 threads).
DUEL_TARGET = {SQUAD: 0.5, BATTLE: 0.5}

__all__ = ["rows"]


def _check(res, exact) -> dict:
    p = exact["sides"]["ken"]["win_probability"]
    p_hat = res.win_probability("ken")
    z = (p_hat - p) / (p * (1 - p) / res.trials) ** 0.5
    return {"p": float(p_hat), "exact": p, "z": float(z), "agrees": bool(abs(z) <= 4.0)}


def battle(path: Path, times: int):
    """The scenario at ``path`` with each side's members ``times`` over (named ``NAME #i``)."""
    import yaml

    from fuzion_sim import load_scenario

    sides = yaml.safe_load(path.read_text())["sides"]
    return load_scenario(path, overrides=[
        (f"sides.{side}", [{**m, "name": f"{m['name']} #{i + 1}"} for i in range(times)
                           for m in members])
        for side, members in sides.items()])  # fmt: skip


def rows(quick: bool) -> list[dict]:
    """Attacks per second of the colour 1 v 1, the colour 10 v 10 squad, a 50 v 50 and the
    Fuzion benchmark duel, on 1 and 2 threads, each colour row with its ratio to the Fuzion
    duel and whether the target is met (2 threads: 1 v 1 >= Fuzion, 10 v 10 >= half of it),
    each battle with its ratio to the colour 1 v 1 and whether that is at least half."""
    from fuzion_sim import load_scenario, simulate
    from fuzion_sim.api import exact_fight
    from fuzion_sim.engine.rng import CHUNK

    scale = 1 if quick else 4
    reps = 3 if quick else 5
    # trials per run: about a second each on 2 threads at the time of writing (the colour
    # kernels' speed-up made the earlier counts runs of a quarter of a second); the
    # squad's an even number of chunks (CHUNK trials each, one thread a chunk, a chunk about
    # 0.2 s) so both threads work and a neighbour's load on one core delays it by little
    cases = {
        DUEL: (load_scenario(COLOUR_DUEL), 8_000_000 * scale),
        SQUAD: (load_scenario(COLOUR_SQUAD), 8 * CHUNK * scale),
        BATTLE: (battle(COLOUR_SQUAD, 5), 2 * CHUNK * scale),
        FUZION: (load_scenario(FUZION_DUEL), 8_000_000 * scale),
    }
    exact = exact_fight(cases[DUEL][0])
    out = []
    for threads in (1, 2):
        for label, (sc, n) in cases.items():  # compile, and wake every core
            with maybe_duel_kernel(label == FUZION):
                simulate(sc, trials=n // 4, threads=threads, keep_trials=False, progress=False)
        best: dict = {}
        for _ in range(reps):
            for label, (sc, n) in cases.items():
                with maybe_duel_kernel(label == FUZION):  # the reference of the bars
                    res = simulate(sc, trials=n, seed=1, threads=threads, keep_trials=False,
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
        for row in table:
            if row["scenario"] in TARGET:
                ratio = rates[row["scenario"]] / rates[FUZION]
                row["colour_over_fuzion"] = ratio
                row["target"] = TARGET[row["scenario"]]
                row["target_met"] = bool(ratio >= row["target"]) if threads == 2 else None
            if row["scenario"] in DUEL_TARGET:
                ratio = rates[row["scenario"]] / rates[DUEL]
                row["over_duel"] = ratio
                row["duel_target"] = DUEL_TARGET[row["scenario"]]
                row["duel_target_met"] = bool(ratio >= row["duel_target"]) if threads == 2 else None
        out.extend(table)
    return out


if __name__ == "__main__":
    table = rows("--quick" in sys.argv[1:])
    for row in table:
        print(json.dumps(row))
