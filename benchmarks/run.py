"""fuzion_sim benchmark suite (``make bench``): throughput, start-up and memory in one run.

Measures, on this machine:

- duels per second of the benchmark duel (PERFORMANCE-NOTES.md) for a plain-Python and a
  vectorised-numpy baseline (``benchmarks/baselines.py``) and for the engine, HERO and
  Interlock (criticals on the attacker's die), on 1 and 2 threads, and on a local Dask cluster;
- the same duel against the fastest hand-written peer, ``../shared/peers/numba_duel.py``
  (variant ``pmf-xo``: one draw an attack from the exact damage distribution), both on 2
  threads, round-robin in this run (no row when the peers' folder is not there);
- a 4 vs 4 squad fight (``scenarios/bench-squad-4v4.yaml``, default rules, mixed weapons),
  its fighters paired in duels under the same rules, and the benchmark duel's fighters four a
  side under its rules (``bench-squad-4v4-duelists.yaml``): fights and attacks per second;
- the rule options and battles (``benchmarks/speed_bench.py``) and the other rule
  systems against the Fuzion benchmark duel (``benchmarks/<system>_bench.py``);
- cold start (empty numba cache: compile) and warm start (cache hit) of ``fuzion-sim run`` on
  the flagship scenario (``scenarios/marshal-vs-outlaw.yaml``), and the CPU seconds a first run
  compiles for one scenario of each kernel family (``benchmarks/cold_start.py``);
- peak memory (RSS) of ``fuzion-sim run`` at 10^6, 10^7 and 10^8 trials, each in a fresh
  process.

Engine throughput is trials divided by the run's own elapsed time (``Result.elapsed``, which
excludes compilation), best of ``--reps`` repetitions taken round-robin over the cases that
are compared with each other (on a shared VM a neighbour's load comes and goes; it then slows
the cases alike). Every estimate of P(A wins) is checked against the exact answer within 4
standard errors. Prints rich tables and writes ``benchmarks/results/latest.json`` plus a
timestamped copy.

Usage: ``python benchmarks/run.py [--quick] [--reps N] [--no-dask] [--out DIR]``.
``--quick`` skips the cold start and the 10^8-trial memory run and gives the baselines and
the squad fewer trials. The last table checks the speed targets (engine, colour, FUDGE, rule
options).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import numba  # noqa: E402
import numpy as np  # noqa: E402
from baselines import EXACT, duel_numpy, duel_python  # noqa: E402
from cold_start import SCENARIOS as COLD_SCENARIOS  # noqa: E402
from cold_start import cold_run  # noqa: E402
from colour_bench import rows as colour_rows  # noqa: E402
from fudge_bench import rows as fudge_rows  # noqa: E402
from reference import maybe_duel_kernel  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402
from speed_bench import rows as speed_rows  # noqa: E402
from speed_bench import targets as speed_targets  # noqa: E402

import fuzion_sim  # noqa: E402
from fuzion_sim import load_scenario, simulate  # noqa: E402

DUEL = ROOT / "scenarios" / "benchmark-duel.yaml"
PEERS = ROOT.parent / "shared" / "peers"  # hand-written peers, outside the repository
FLAGSHIP = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"
SQUAD = ROOT / "scenarios" / "bench-squad-4v4.yaml"
SQUAD_DUELISTS = ROOT / "scenarios" / "bench-squad-4v4-duelists.yaml"
DICE = {"hero": [], "interlock": [("rules.dice", "interlock"), ("rules.criticals", "attacker")]}
CRITS = {"hero": "both", "interlock": "attacker"}

# Wide tables also when piped (make bench | tee ...).
console = Console() if sys.stdout.isatty() else Console(width=132)


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def check(p_hat: float, trials: int, dice: str) -> dict:
    """P(A wins) against the exact answer: estimate, exact, z and whether |z| <= 4."""
    p = EXACT[(dice, CRITS[dice])][0]
    z = (p_hat - p) / (p * (1 - p) / trials) ** 0.5
    return {"p_a": p_hat, "exact": p, "z": z, "agrees": abs(z) <= 4.0}


def best_of(reps: int, fn):
    """Run ``fn() -> (seconds, payload)`` ``reps`` times; the fastest (seconds, payload)."""
    runs = [fn() for _ in range(reps)]
    return min(runs, key=lambda r: r[0])


def fighter_cli() -> list[str]:
    script = Path(sys.executable).with_name("fuzion-sim")
    return [str(script)] if script.exists() else [sys.executable, "-m", "fuzion_sim.cli"]


#: A small launcher: runs argv[2:], then writes its wall time and peak RSS (KiB) to argv[1].
#: The measured command must not be forked from this (large) process: on Linux a child's
#: ru_maxrss starts from the RSS of the process it was forked from, so forking from here would
#: report at least this process's own few hundred MB whatever the child did.
_LAUNCHER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {wall} {usage.ru_maxrss}")
"""


def run_child(args: list[str], env: dict | None = None) -> dict:
    """Run a command in a fresh process: wall seconds, peak RSS (MB) and stdout.

    The command is started by a small launcher process, which measures it with ``wait4``.
    """
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rusage"
        proc = subprocess.run([sys.executable, "-c", _LAUNCHER, str(report), *args],
                              capture_output=True, text=True, env=env, cwd=ROOT)  # fmt: skip
        code, wall, maxrss_kib = report.read_text().split() if report.exists() else (-1, 0, 0)
    if proc.returncode != 0 or int(code) != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({code}):\n{proc.stderr}")
    return {"wall_s": float(wall), "peak_rss_mb": int(maxrss_kib) / 1024.0, "stdout": proc.stdout}


def si(x: float | None) -> str:
    if x is None:
        return "-"
    for div, unit in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


# --------------------------------------------------------------------------------------------
# measurements
# --------------------------------------------------------------------------------------------


def bench_baselines(reps: int, quick: bool) -> list[dict]:
    rows = []
    sizes = {"python": 30_000 if quick else 100_000, "numpy": 1_000_000 if quick else 4_000_000}
    for dice in DICE:
        for name, fn in (("python", duel_python), ("numpy", duel_numpy)):
            n = sizes[name]

            def once(fn=fn, n=n, dice=dice):
                t0 = time.perf_counter()
                tally = fn(n, seed=1, dice=dice, criticals=CRITS[dice])
                return time.perf_counter() - t0, tally

            secs, tally = best_of(reps if name == "numpy" else min(reps, 2), once)
            rows.append({
                "impl": f"{name} baseline", "scenario": "benchmark duel", "dice": dice,
                "threads": 1, "trials": n, "elapsed_s": secs, "duels_per_s": n / secs,
                "check": check(tally.p_a, n, dice),
            })  # fmt: skip
    return rows


def fastest(cases: list, n: int, reps: int, warm: int) -> list:
    """The fastest of ``reps`` runs of ``n`` trials of every ``(scenario, threads)`` case (a
    third item True: on the duel kernel, ``reference.duel_kernel``),
    taken round-robin (every repetition runs every case once): a neighbour's load on a shared
    machine then slows the cases compared alike. Each case first runs ``warm`` trials, which
    compiles it and wakes every core (an idle vCPU can take a while to get up to speed)."""
    for scenario, threads, *on in cases:
        with maybe_duel_kernel(bool(on and on[0])):
            simulate(scenario, trials=warm, threads=threads, keep_trials=False, progress=False)
    best = [None] * len(cases)
    for _ in range(reps):
        for i, (scenario, threads, *on) in enumerate(cases):
            with maybe_duel_kernel(bool(on and on[0])):
                res = simulate(scenario, trials=n, seed=1, threads=threads, keep_trials=False,
                               progress=False)  # fmt: skip
            if best[i] is None or res.elapsed < best[i].elapsed:
                best[i] = res
    return best


def bench_engine(reps: int, quick: bool, threads_list=(1, 2)) -> list[dict]:
    """The benchmark duel under both dice options on 1 and 2 threads, round-robin
    (``fastest``), so the 2-thread scaling compares like with like."""
    n = 8_000_000  # also --quick: fewer trials measure thread start-up, not the kernel
    keys = [(dice, threads) for dice in DICE for threads in threads_list]
    scenarios = {dice: load_scenario(DUEL, overrides=overrides) for dice, overrides in DICE.items()}
    best = fastest([(scenarios[dice], threads) for dice, threads in keys], n, reps, n // 2)
    rows = []
    for (dice, threads), res in zip(keys, best, strict=True):
        attacks = int(res.tally.attacks_sum.sum())
        rows.append({
            "impl": "fuzion_sim", "scenario": "benchmark duel", "dice": dice,
            "threads": threads, "trials": n, "elapsed_s": res.elapsed,
            "duels_per_s": n / res.elapsed, "attacks": attacks,
            "attacks_per_s": attacks / res.elapsed,
            "check": check(res.win_probability("a"), n, dice),
        })  # fmt: skip
    return rows


def load_peer(name: str):
    """The peer module ``PEERS/<name>.py``, or None when it is not there. Imported from its
    file as it is (no bytecode written into the peers' folder)."""
    import importlib.util

    path = PEERS / f"{name}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"peer_{name}", path)
    module = importlib.util.module_from_spec(spec)
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = saved
    return module


def bench_peer(reps: int, quick: bool) -> list[dict]:
    """The benchmark duel on 2 threads against the numba peer's ``pmf-xo`` variant (the same
    duel, identical fighters, one draw an attack from the exact damage pmf), round-robin: each
    repetition runs the engine, then the peer (a new seed each time), and the best of each
    is kept, so the ratio compares runs made under the same load."""
    peer = load_peer("numba_duel")
    if peer is None:
        console.print(f"no peer row: {PEERS / 'numba_duel.py'} is not there")
        return []
    n, threads = 8_000_000, 2
    scenario = load_scenario(DUEL)
    simulate(scenario, trials=n // 8, threads=threads, keep_trials=False, progress=False)
    peer.simulate(n // 8, 0, "hero", "pmf-xo", threads=threads)  # compiles, wakes the cores
    ours = theirs = None
    for rep in range(reps):
        res = simulate(scenario, trials=n, seed=1, threads=threads, keep_trials=False,
                       progress=False)  # fmt: skip
        if ours is None or res.elapsed < ours.elapsed:
            ours = res
        t0 = time.perf_counter()
        wins, _, _ = peer.simulate(n, rep + 1, "hero", "pmf-xo", threads=threads)
        secs = time.perf_counter() - t0
        if theirs is None or secs < theirs[0]:
            theirs = (secs, wins)
    return [
        {"impl": "fuzion_sim, round-robin with the peer", "scenario": "benchmark duel",
         "dice": "hero", "threads": threads, "trials": n, "elapsed_s": ours.elapsed,
         "duels_per_s": n / ours.elapsed, "check": check(ours.win_probability("a"), n, "hero")},
        {"impl": "numba peer (pmf-xo)", "scenario": "benchmark duel", "dice": "hero",
         "threads": threads, "trials": n, "elapsed_s": theirs[0], "duels_per_s": n / theirs[0],
         "check": check(theirs[1] / n, n, "hero")},
    ]  # fmt: skip


def bench_dask(reps: int, quick: bool) -> list[dict]:
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        console.print("no Dask row: dask.distributed is not installed (.[distributed])")
        return []
    from fuzion_sim.engine import dask_backend

    n = 1_000_000 if quick else 4_000_000
    rows = []
    scenario = load_scenario(DUEL)
    t0 = time.perf_counter()
    simulate(scenario, trials=1_000, backend="dask", progress=False)  # start cluster, warm up
    startup = time.perf_counter() - t0

    def once():
        res = simulate(scenario, trials=n, seed=1, backend="dask", keep_trials=False,
                       progress=False)  # fmt: skip
        return res.elapsed, res

    secs, res = best_of(reps, once)
    rows.append({
        "impl": "fuzion_sim, Dask LocalCluster", "scenario": "benchmark duel", "dice": "hero",
        "threads": res.threads, "trials": n, "elapsed_s": secs, "duels_per_s": n / secs,
        "check": check(res.win_probability("a"), n, "hero"), "cluster_start_s": startup,
    })  # fmt: skip
    dask_backend.close_clients()
    return rows


def bench_squad(reps: int, quick: bool) -> list[dict]:
    """Squad fights against duels, attacks per second, each thread count round-robin
    (``fastest``), so the ratios compare fights measured under the same load.

    - the squad under the default rules (``bench-squad-4v4.yaml``);
    - the benchmark duel's fighters four a side under its rules (``bench-squad-4v4-duelists``);
    - the benchmark duel again, for those two ratios (``reference``);
    - the squad's fighters in duels, red i against blue i, under the squad's rules, weapons and
      distance: the squad's attacks without a squad's bookkeeping (one row, the four duels'
      attacks over their summed time).

    The duels run on the duel kernel, the reference the squad bars were set against
    (``reference.py``); the plain duel's rate is the engine rows'.
    """
    import yaml

    n = 2_000_000 if quick else 4_000_000  # chunks enough for 2 threads to share evenly
    sides = yaml.safe_load(SQUAD.read_text())["sides"]
    fights = {
        "squad 4v4": [load_scenario(SQUAD)],
        "squad 4v4, duel's fighters": [load_scenario(SQUAD_DUELISTS)],
        "benchmark duel, reference (duel kernel)": [load_scenario(DUEL)],
        "squad 4v4's pairings as duels": [
            load_scenario(SQUAD, overrides=[("sides.red", [red]), ("sides.blue", [blue])])
            for red, blue in zip(sides["red"], sides["blue"], strict=True)
        ],
    }
    on_duel_kernel = {"benchmark duel, reference (duel kernel)", "squad 4v4's pairings as duels"}
    rows = []
    for threads in (1, 2):
        labels = [label for label, scenarios in fights.items()
                  if threads == 2 or len(scenarios) == 1]  # the pairings on 2 threads only
        cases = [(scenario, threads, label in on_duel_kernel) for label in labels
                 for scenario in fights[label]]  # fmt: skip
        best = iter(fastest(cases, n, reps, n // 4))
        for label in labels:
            results = [next(best) for _ in fights[label]]
            secs = sum(r.elapsed for r in results)
            attacks = sum(int(r.tally.attacks_sum.sum()) for r in results)
            rows.append({
                "impl": "fuzion_sim", "scenario": label, "dice": "hero", "threads": threads,
                "trials": n * len(results), "elapsed_s": secs,
                "duels_per_s": n * len(results) / secs, "attacks": attacks,
                "attacks_per_s": attacks / secs,
            })  # fmt: skip
    return rows


def bench_startup(quick: bool) -> list[dict]:
    """``fuzion-sim run`` wall time of the flagship scenario from a fresh process: cold
    (compile) and warm (cache hit)."""
    cmd = [*fighter_cli(), "run", str(FLAGSHIP), "--trials", "10000", "--json"]
    rows = []
    if quick:
        # The package's own numba cache, already populated by the runs above.
        runs = [run_child(cmd) for _ in range(3)]
        best = min(runs, key=lambda r: r["wall_s"])
        return [{"case": "warm start (package cache)", **_startup_row(best)}]
    with tempfile.TemporaryDirectory(prefix="fuzion-numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = run_child(cmd, env)
        n_files = sum(1 for _ in Path(cache).rglob("*.nbi"))
        warm = min((run_child(cmd, env) for _ in range(3)), key=lambda r: r["wall_s"])
    rows.append({"case": "cold start (empty numba cache)", **_startup_row(cold),
                 "cache_index_files": n_files})  # fmt: skip
    rows.append({"case": "warm start (cache hit, best of 3)", **_startup_row(warm)})
    import_only = min(
        (run_child([sys.executable, "-c", "import fuzion_sim.cli"]) for _ in range(3)),
        key=lambda r: r["wall_s"],
    )
    rows.append({"case": "python -c 'import fuzion_sim.cli'", **_startup_row(import_only)})
    return rows


def _startup_row(run: dict) -> dict:
    row = {"wall_s": run["wall_s"], "peak_rss_mb": run["peak_rss_mb"]}
    if run["stdout"].strip().startswith("{"):
        row["sim_elapsed_s"] = json.loads(run["stdout"])["elapsed_s"]
    return row


def system_rows(quick: bool) -> list[dict]:
    """The other rule systems' benchmarks (``benchmarks/<system>_bench.py``), each a 1 v 1 of
    that system against the Fuzion benchmark duel, measured round-robin."""
    out = []
    for bench, fn in (("fudge", fudge_rows), ("colour", colour_rows)):
        for r in fn(quick):
            out.append({**r, "bench": bench, "over_fuzion": r.get(f"{bench}_over_fuzion")})
    return out


def bench_memory(quick: bool) -> list[dict]:
    """Peak RSS of ``fuzion-sim run --trials N`` in fresh processes."""
    sizes = [10**6, 10**7] if quick else [10**6, 10**7, 10**8]
    rows = []
    for n in sizes:
        run = run_child([*fighter_cli(), "run", str(DUEL), "--trials", str(n), "--json"])
        out = json.loads(run["stdout"])
        rows.append({
            "trials": n, "peak_rss_mb": run["peak_rss_mb"], "wall_s": run["wall_s"],
            "sim_elapsed_s": out["elapsed_s"], "duels_per_s": out["trials_per_second"],
            "per_trial_outcomes_kept": n <= fuzion_sim.engine.runner.KEEP_TRIALS_MAX,
            "check": check(out["sides"]["a"]["win_probability"], n, "hero"),
        })  # fmt: skip
    return rows


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def machine() -> dict:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=True).stdout.strip()  # fmt: skip
        dirty = bool(subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, text=True,
                                    capture_output=True).stdout.strip())  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = None, None
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "fuzion_sim": fuzion_sim.__version__,
        "git_commit": commit,
        "git_dirty": dirty,
    }


def targets(record: dict) -> list[dict]:
    """The engine's bars, measured: duel rate and scaling, squad attack rate, memory growth."""

    def rate(scenario, threads, key="duels_per_s", impl="fuzion_sim"):
        return next((r[key] for r in record["throughput"] if r["impl"] == impl
                     and r["scenario"] == scenario and r["dice"] == "hero"
                     and r["threads"] == threads), None)  # fmt: skip

    rows = []
    duel1, duel2 = rate("benchmark duel", 1), rate("benchmark duel", 2)
    if duel2:
        rows.append({"target": "benchmark duel, 2 threads (duels/s)", "bar": 20e6,
                     "measured": duel2, "met": duel2 >= 20e6})  # fmt: skip
    if duel1 and duel2:
        rows.append({"target": "2-thread scaling of the duel", "bar": 1.8,
                     "measured": duel2 / duel1, "met": duel2 / duel1 >= 1.8})  # fmt: skip
    ours = rate("benchmark duel", 2, impl="fuzion_sim, round-robin with the peer")
    peer = rate("benchmark duel", 2, impl="numba peer (pmf-xo)")
    if ours and peer:
        rows.append({"target": "benchmark duel: duels/s over the pmf-xo peer (2 threads)",
                     "bar": 1.0, "measured": ours / peer, "met": ours / peer >= 1.0})  # fmt: skip
    # the squad bar compares like with like: the same fighters, weapons and rules in a squad
    # and in duels. The squad under the default rules against the benchmark duel (impairment
    # and stunned off, one pistol) also compares rules, and is shown without a bar.
    reference = "benchmark duel, reference (duel kernel)"  # round-robin with the squads
    for squad, duel, against, bar in (
        ("squad 4v4, duel's fighters", reference, "the benchmark duel's (duel kernel)", 0.5),
        ("squad 4v4", "squad 4v4's pairings as duels", "its fighters' duels' (duel kernel)", 0.5),
        ("squad 4v4", reference, "the benchmark duel's (duel kernel)", None),
    ):
        attacks, duel_attacks = rate(squad, 2, "attacks_per_s"), rate(duel, 2, "attacks_per_s")
        if attacks and duel_attacks:
            ratio = attacks / duel_attacks
            rows.append({"target": f"{squad}: attacks/s over {against} (2 threads)",
                         "bar": bar, "measured": ratio,
                         "met": None if bar is None else ratio >= bar})  # fmt: skip
    cold = next((r for r in record["startup"] if r["case"].startswith("cold")), None)
    if cold:
        rows.append({"target": "cold first run of the flagship scenario (s)", "bar": 20.0,
                     "measured": cold["wall_s"], "met": cold["wall_s"] < 20.0})  # fmt: skip
    for label, r in record.get("cold", {}).items():
        rows.append({"target": f"cold first run, {label} (CPU s)", "bar": r["bar_s"],
                     "measured": r["cpu_s"], "met": r["met"]})  # fmt: skip
    for r in record.get("systems", []):  # each system's row of its pair on 2 threads
        if r.get("target_met") is not None and r["system"] == r["bench"]:
            rows.append({"target": f"{r['scenario']}: attacks/s over the benchmark duel's "
                         "(2 threads)", "bar": r.get("target", 1.0), "measured": r["over_fuzion"],
                         "met": r["target_met"]})  # fmt: skip
    for r in record.get("systems", []):  # each battle against its system's 1 v 1 (2 threads)
        if r.get("duel_target_met") is not None:
            rows.append({"target": f"{r['scenario']}: attacks/s over the {r['system']} 1 v 1's "
                         "(2 threads)", "bar": r["duel_target"], "measured": r["over_duel"],
                         "met": r["duel_target_met"]})  # fmt: skip
    rows += speed_targets(record.get("speed", []))
    peak = {r["trials"]: r["peak_rss_mb"] for r in record["memory"]}
    if 10**7 in peak and 10**8 in peak:
        ratio = peak[10**8] / peak[10**7]
        rows.append({"target": "peak memory, 10^8 over 10^7 trials", "bar": 1.5,
                     "measured": ratio, "met": ratio <= 1.5})  # fmt: skip
    return rows


def render(record: dict) -> None:
    py = {r["dice"]: r["duels_per_s"] for r in record["throughput"]
          if r["impl"] == "python baseline"}  # fmt: skip
    t = Table(title="Throughput (best of reps; simulation time only, compile excluded)")
    for col in ("implementation", "scenario", "dice", "threads", "trials", "duels/s",
                "attacks/s", "x python", "P(A wins) vs exact"):  # fmt: skip
        t.add_column(col, justify="left" if col in ("implementation", "scenario") else "right")
    for r in record["throughput"]:
        chk = r.get("check")
        verdict = (f"{chk['p_a']:.5f} z={chk['z']:+.1f} {'ok' if chk['agrees'] else 'FAIL'}"
                   if chk else "-")  # fmt: skip
        speedup = (r["duels_per_s"] / py[r["dice"]] if r["scenario"].startswith("benchmark duel")
                   else None)  # fmt: skip
        t.add_row(r["impl"], r["scenario"], r["dice"], str(r["threads"]), si(r["trials"]),
                  si(r["duels_per_s"]), si(r.get("attacks_per_s")),
                  f"{speedup:,.0f}" if speedup else "-", verdict)  # fmt: skip
    console.print(t)

    t = Table(title="Rule options and battles (2 threads, best of reps, round-robin in each group)")
    for col in ("group", "case", "combatants", "kernel", "fights/s", "attacks/fight",
                "attacks/s", "over reference", "over duel kernel"):  # fmt: skip
        t.add_column(col, justify="left" if col in ("group", "case", "kernel") else "right")
    for r in record.get("speed", []):
        kernel = r.get("over_duel_kernel")
        t.add_row(r["group"], r["case"], str(r["combatants"]), r["kernel"], si(r["fights_per_s"]),
                  f"{r['attacks_per_fight']:.1f}", si(r["attacks_per_s"]), f"{r['ratio']:.2f}",
                  "-" if kernel is None else f"{kernel:.2f}")  # fmt: skip
    console.print(t)

    t = Table(title="Other rule systems against the Fuzion benchmark duel (round-robin pairs)")
    for col in ("system", "scenario", "threads", "fights/s", "attacks/s", "over Fuzion's",
                "P vs exact"):  # fmt: skip
        t.add_column(col, justify="left" if col in ("system", "scenario") else "right")
    for r in record.get("systems", []):
        chk = r.get("check")
        verdict = f"z={chk['z']:+.1f} {'ok' if chk['agrees'] else 'FAIL'}" if chk else "-"
        t.add_row(r["system"], r["scenario"], str(r["threads"]), si(r["fights_per_s"]),
                  si(r["attacks_per_s"]),
                  "-" if r["over_fuzion"] is None else f"{r['over_fuzion']:.2f}", verdict)
    console.print(t)

    t = Table(title="Start-up of `fuzion-sim run scenarios/marshal-vs-outlaw.yaml --trials 10000`"
                    " (fresh process, wall clock)")
    for col in ("case", "wall s", "of which simulating s", "peak RSS MB"):
        t.add_column(col, justify="left" if col == "case" else "right")
    for r in record["startup"]:
        sim = r.get("sim_elapsed_s")
        t.add_row(r["case"], f"{r['wall_s']:.2f}", f"{sim:.3f}" if sim is not None else "-",
                  f"{r['peak_rss_mb']:.0f}")  # fmt: skip
    console.print(t)

    if record.get("cold"):
        t = Table(title="A first run's compile: `fuzion-sim run S --trials 2000 --json`, empty "
                        "numba cache (fresh process each)")
        for col in ("kernel family", "scenario", "CPU s", "wall s", "bar s"):
            t.add_column(col, justify="left" if col in ("kernel family", "scenario") else "right")
        for label, r in record["cold"].items():
            t.add_row(label, r["scenario"], f"{r['cpu_s']:.1f}", f"{r['wall_s']:.1f}",
                      f"{r['bar_s']:.0f}")  # fmt: skip
        console.print(t)

    t = Table(title="Peak memory of `fuzion-sim run --trials N` (fresh process each)")
    for col in ("trials", "per-trial arrays", "peak RSS MB", "wall s", "duels/s", "P(A wins)"):
        t.add_column(col, justify="right")
    for r in record["memory"]:
        chk = r["check"]
        t.add_row(f"{r['trials']:.0e}", "kept" if r["per_trial_outcomes_kept"] else "streamed",
                  f"{r['peak_rss_mb']:.0f}", f"{r['wall_s']:.1f}", si(r["duels_per_s"]),
                  f"{chk['p_a']:.6f} {'ok' if chk['agrees'] else 'FAIL'}")  # fmt: skip
    console.print(t)
    t = Table(title="Speed targets")
    for col in ("target", "bar", "measured", "met"):
        t.add_column(col, justify="left" if col == "target" else "right")
    for r in record["targets"]:
        fmt = si if r["measured"] >= 1000 else (lambda x: f"{x:.2f}")
        met = "-" if r["met"] is None else "yes" if r["met"] else "NO"
        t.add_row(r["target"], "-" if r["bar"] is None else fmt(r["bar"]), fmt(r["measured"]), met)
    console.print(t)
    m = record["machine"]
    console.print(f"{m['cpu']}, {m['cores']} cores; Python {m['python']}, numpy {m['numpy']}, "
                  f"numba {m['numba']}; fuzion_sim {m['fuzion_sim']} @ {m['git_commit']}"
                  f"{' (dirty)' if m['git_dirty'] else ''}; total {record['total_s']:.0f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the cold start and 10^8 trials; fewer baseline trials")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (best is kept)")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask row")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="results directory")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    record = {
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"),  # noqa: UP017
        "args": {"quick": args.quick, "reps": args.reps, "dask": not args.no_dask},
        "machine": machine(),
    }
    throughput = []
    with console.status("baselines (plain Python, numpy)"):
        throughput += bench_baselines(args.reps, args.quick)
    with console.status("engine: benchmark duel"):
        throughput += bench_engine(args.reps, args.quick)
    with console.status("engine: benchmark duel against the numba peer"):
        throughput += bench_peer(args.reps, args.quick)
    with console.status("engine: squad 4v4"):
        throughput += bench_squad(args.reps, args.quick)
    if not args.no_dask:
        with console.status("engine: local Dask cluster"):
            throughput += bench_dask(args.reps, args.quick)
    record["throughput"] = throughput
    with console.status("rule options and battles"):
        record["speed"] = speed_rows(args.quick, reps=2 if args.quick else 3)
    with console.status("other rule systems"):
        record["systems"] = system_rows(args.quick)
    with console.status("start-up (fresh processes)"):
        record["startup"] = bench_startup(args.quick)
    if not args.quick:
        with console.status("a first run's compile (fresh processes, empty caches)"):
            record["cold"] = {label: cold_run(path) for label, path in COLD_SCENARIOS.items()}
    with console.status("peak memory (fresh processes)"):
        record["memory"] = bench_memory(args.quick)
    record["targets"] = targets(record)
    record["total_s"] = time.perf_counter() - t0

    args.out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, indent=2, default=float)
    stamp = record["timestamp"].replace(":", "").replace("-", "").replace("+0000", "Z")
    (args.out / "latest.json").write_text(text + "\n")
    (args.out / f"bench-{stamp}{'-quick' if args.quick else ''}.json").write_text(text + "\n")
    render(record)
    console.print(f"written {args.out / 'latest.json'}")
    checked = throughput + record["memory"] + record["systems"]
    failed = [r for r in checked if r.get("check", {}).get("agrees") is False]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
