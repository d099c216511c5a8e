"""The speed targets of the rule options: every rule option at duel speed, and battles of hundreds.

Attacks per second = fights per second x the sum of the combatants' ``attacks_mean``, over the
run's own elapsed time (compilation excluded), on 2 threads. The cases compared with each other
are measured round-robin in this one process, best of ``reps`` (on a shared machine a
neighbour's load then slows them alike):

- options: the benchmark duel bare, and with each one option (``hit_locations: random``,
  ``knockback: true``, ``tactics: [{do: attack}]`` on both, impairment and stunned on, an
  autofire pistol, an area pistol); target: each at least half the bare duel's attacks/s on
  the duel kernel (``reference.py``: the bare duel runs on the plain duel kernel, whose
  ratio, ``ratio``, is shown too); the bare duel forced onto the standing kernel is shown
  beside them, without a target;
- battles: N v N of the benchmark duel's fighters, side a at x = 0, side b at x = 3, fighter i at
  y = 2i (past 25 a side the lines are longer than the revolver's 50 m, so fighters must run
  into range), N = 4 to 200, and 64 v 64 packed at y = 0.5i (nobody moves); targets: the 64 v 64
  line at least half the 4 v 4's attacks/s, the 200 v 200 at least 0.35 of it, 10,000 trials of
  the 200 v 200 in under a minute; the last column, attacks/s over the 4 v 4's, shows how the
  cost of an attack grows with N;
- battles, 10,000 trials: the 4 v 4, the 64 v 64 and the 200 v 200 lines at 10,000 trials each,
  with the same targets. A run of fewer chunks (65,536 trials) than twice the threads splits
  its chunks into pieces, so every case here, one chunk, has both threads, as the counts above
  have.

``rows(quick, reps)`` gives the rows for ``benchmarks/run.py``; ``targets(rows)`` the targets
table; ``python benchmarks/speed_bench.py [--quick]`` prints both.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import yaml
from reference import forced_kernel, maybe_duel_kernel

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"

__all__ = ["OPTIONS", "battle", "option_duel", "rows", "targets"]

#: The options, each added alone to the bare benchmark duel.
OPTIONS = {
    "bare": {},
    "hit_locations: random": {"rules": {"hit_locations": "random"}},
    "knockback: true": {"rules": {"knockback": True}},
    "tactics: [{do: attack}]": {"tactics": [{"do": "attack"}]},
    "impairment and stunned on": {"rules": {"impairment": True, "stunned": True}},
    "autofire (ROF 10)": {"weapon": {"name": "Auto Colt", "skill": "Handgun", "dc": 4,
                                     "range": 50, "rof": 10, "autofire": True}},
    "area weapon (1 m a die)": {"weapon": {"name": "Blast Colt", "skill": "Handgun", "dc": 4,
                                           "range": 50, "area": {"per": "die", "radius": 1}}},
}  # fmt: skip
#: The bare duel again, on the duel kernel: the options' bars are against it (reference.py).
DUEL_KERNEL = "bare, duel kernel"
#: The bare duel forced onto the standing kernel (which runs the standing fights the duel and
#: squad kernels do not take, and every replayed trial): shown, no target.
STANDING_KERNEL = "bare, standing kernel"
#: Battle sizes (a side); the line is 2 m between neighbours unless packed.
SIZES = (4, 16, 32, 64, 100, 200)
#: The sizes run at :data:`TEN_K` trials each, and the targets on the lines in motion (the
#: least attacks/s over the 4 v 4's).
TEN_K_SIZES = (4, 64, 200)
TEN_K = 10_000
BARS = {"64 v 64": 0.5, "200 v 200": 0.35}


def _base() -> dict:
    return yaml.safe_load(DUEL.read_text())


def option_duel(option: str) -> dict:
    """The benchmark duel with one option of :data:`OPTIONS`."""
    data, change = _base(), OPTIONS[option]
    data["rules"].update(change.get("rules", {}))
    for side in data["sides"].values():
        for key in ("tactics", "weapon"):
            if key in change:
                side[0][key] = copy.deepcopy(change[key])
    return data


def battle(n: int, spacing: float = 2.0) -> dict:
    """``n`` v ``n`` of the benchmark duel's fighters in two lines 3 m apart."""
    data = _base()
    data["name"] = f"{n} v {n}"
    sides = {}
    for s, x in (("a", 0.0), ("b", 3.0)):
        fighter = data["sides"][s][0]
        sides[s] = [{**copy.deepcopy(fighter), "name": f"{s}{i}", "position": [x, spacing * i]}
                    for i in range(n)]  # fmt: skip
    data["sides"] = sides
    return data


def _kernel_of(name: str):
    """The kernel case ``name`` runs on: forced for the duel and standing kernels' rows."""
    if name == STANDING_KERNEL:
        return forced_kernel("standing")
    return maybe_duel_kernel(name == DUEL_KERNEL)


def _measure(cases: dict, reps: int) -> list[dict]:
    """Round-robin, best of ``reps``: fights/s and attacks/s of each ``name: (data, trials)``."""
    from fuzion_sim import simulate
    from fuzion_sim.api import as_scenario
    from fuzion_sim.systems import get_system

    scenarios = {name: as_scenario(data) for name, (data, _) in cases.items()}
    for name, sc in scenarios.items():  # compile (or load) before timing
        with _kernel_of(name):
            simulate(sc, trials=200, seed=1, progress=False)
    best: dict[str, float] = {}
    attacks: dict[str, float] = {}
    for _ in range(reps):
        for name, sc in scenarios.items():
            trials = cases[name][1]
            with _kernel_of(name):
                res = simulate(sc, trials=trials, seed=1, threads=2, progress=False)
            rate = trials / res.elapsed
            if rate > best.get(name, 0.0):
                best[name] = rate
                attacks[name] = sum(c["attacks_mean"] for c in res.combatant_stats())
    out = []
    for name, sc in scenarios.items():
        system = get_system(sc.system)
        with _kernel_of(name):
            plan = system.compile(sc)
        kernel = system.describe_plan(plan).split(" kernel")[0].split()[-1]
        out.append({
            "case": name, "combatants": len(sc.combatants),
            "kernel": "plain duel" if getattr(plan, "plain", "") else kernel,
            "trials": cases[name][1], "fights_per_s": best[name],
            "attacks_per_fight": attacks[name], "attacks_per_s": best[name] * attacks[name],
        })  # fmt: skip
    return out


def rows(quick: bool = False, reps: int = 3) -> list[dict]:
    """The options' and the battles' rows, each with its ratio to its group's reference."""
    scale = 1 if quick else 4
    options = {name: (option_duel(name), 400_000 * scale) for name in OPTIONS}
    options[DUEL_KERNEL] = (option_duel("bare"), 400_000 * scale)
    options[STANDING_KERNEL] = (option_duel("bare"), 200_000 * scale)
    battles = {}
    for n in SIZES:
        battles[f"{n} v {n}"] = (battle(n), max(500, 400_000 * scale // n))
    battles["64 v 64 packed (0.5 m)"] = (battle(64, 0.5), 6_000 * scale)
    ten_k = {f"{n} v {n}": (battle(n), TEN_K) for n in TEN_K_SIZES}
    out = []
    for group, cases, reference in (("options", options, "bare"),
                                    ("battles", battles, "4 v 4"),
                                    ("battles, 10,000 trials", ten_k, "4 v 4")):  # fmt: skip
        measured = _measure(cases, reps)
        ref = next(r["attacks_per_s"] for r in measured if r["case"] == reference)
        kernel = next((r["attacks_per_s"] for r in measured if r["case"] == DUEL_KERNEL), None)
        for r in measured:
            row = {"group": group, **r, "ratio": r["attacks_per_s"] / ref}
            if kernel is not None:  # the options' bar: against the bare duel on the duel kernel
                row["over_duel_kernel"] = r["attacks_per_s"] / kernel
            out.append(row)
    return out


def targets(speed: list[dict]) -> list[dict]:
    """The speed targets against the rows."""
    out = []
    for r in speed:
        if r["group"] == "options" and r["case"] not in ("bare", DUEL_KERNEL, STANDING_KERNEL):
            ratio = r["over_duel_kernel"]
            out.append({"target": f"benchmark duel + {r['case']}: attacks/s over bare "
                                  "(duel kernel)", "bar": 0.5, "measured": ratio,
                        "met": ratio >= 0.5})  # fmt: skip
    for group, label in (("battles", ""), ("battles, 10,000 trials", ", 10,000 trials each")):
        for case, bar in BARS.items():
            r = next((r for r in speed if r["group"] == group and r["case"] == case), None)
            if r:
                out.append({"target": f"{case} in motion: attacks/s over the 4 v 4's{label}",
                            "bar": bar, "measured": r["ratio"], "met": r["ratio"] >= bar})
    # the 200 v 200's seconds: its run of 10,000 trials, or else its rate at the battles' count
    lines = [r for r in speed if r["group"].startswith("battles") and r["case"] == "200 v 200"]
    big = max(lines, key=lambda r: r["trials"] == TEN_K, default=None)
    if big:
        secs = TEN_K / big["fights_per_s"]
        out.append({"target": "200 v 200 in motion: seconds for 10,000 trials", "bar": 60.0,
                    "measured": secs, "met": secs < 60.0})
    return out


def main(argv=None) -> int:
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    speed = rows(quick, reps=2 if quick else 3)
    for r in speed:
        print(json.dumps(r))
    for t in targets(speed):
        print(json.dumps(t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
