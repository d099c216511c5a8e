"""Result analysis: tidy frames, kill-time distributions, survival, and honest intervals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fuzion_sim import load_scenario, simulate
from fuzion_sim.analysis.intervals import wilson, z_value
from fuzion_sim.analysis.precision import precision_reached, precision_stop
from fuzion_sim.engine.rng import CHUNK
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.systems.fuzion.exact import Fighter, duel

BENCH = Fighter(av=11, dv_base=9, dc=4, pd=6, hits=30, stun=30)


@pytest.fixture(scope="module")
def duel_result():
    return simulate("scenarios/marshal-vs-outlaw.yaml", trials=20_000, seed=3, progress=False)


def test_to_frame_per_trial_and_aggregated(duel_result):
    r = duel_result
    per = r.to_frame()
    assert len(per) == r.trials
    assert {"trial", "winner", "end_slot", "end_seconds", "out_slot.Marshal"} <= set(per.columns)
    counts = per["winner"].value_counts()
    assert counts.get("red", 0) == r.tally.outcome_counts[0]
    agg = r.to_frame(per_trial=False)
    assert agg["count"].sum() == r.trials
    assert set(agg["outcome"]) <= {"red", "blue", "draw", "unresolved"}


def test_kill_time_distribution_shapes(duel_result):
    r = duel_result
    pmf = r.kill_time_pmf()
    assert pmf.sum() == pytest.approx(1.0)
    cdf = r.kill_time_cdf()
    assert np.all(np.diff(cdf["cdf"]) >= 0) and cdf["cdf"].iloc[-1] == pytest.approx(1.0)
    assert np.all(cdf["ci95_low"] <= cdf["cdf"] + 1e-12)
    assert np.all(cdf["cdf"] <= cdf["ci95_high"] + 1e-12)
    s = r.kill_time_summary()
    assert s["ci95"][0] < s["mean"] < s["ci95"][1]
    for q in s["quantiles"].values():
        assert q["ci95"][0] <= q["value"] <= q["ci95"][1]
    # Units: seconds = phases * 3, rounds = phases / 4.
    assert r.kill_time_summary(unit="second")["mean"] == pytest.approx(3 * s["mean"])
    assert r.kill_time_summary(unit="round")["mean"] == pytest.approx(s["mean"] / 4)
    with pytest.raises(FuzionSimError):
        r.kill_time_summary(unit="fortnight")


def test_survival_and_down_times(duel_result):
    r = duel_result
    surv = r.survival()
    for col in ("Marshal", "Outlaw", "side:red", "side:blue"):
        assert surv[col].iloc[0] == 1.0
        assert np.all(np.diff(surv[col]) <= 1e-12)
    # With one combatant a side, the final fraction standing is 1 - P(out).
    stats = {row["combatant"]: row for row in r.combatant_stats()}
    assert surv["Marshal"].iloc[-1] == pytest.approx(1 - stats["Marshal"]["p_out"])
    downs = {row["combatant"]: row for row in r.down_times()}
    assert downs["Outlaw"]["p_down"] == pytest.approx(stats["Outlaw"]["p_out"])
    first = r.first_down()
    assert first["n"] > 0 and first["mean"] <= r.kill_time()["mean"] + 1e-9
    dmg = r.damage_table()
    assert dmg.loc[0, "damage_dealt_mean"] == pytest.approx(stats["Marshal"]["damage_dealt_mean"])


def test_provenance_and_json_keys(duel_result):
    r = duel_result
    prov = r.provenance_dict()
    assert prov["seed"] == 3 and prov["trials"] == 20_000 and prov["scenario_hash"]
    assert prov["rules"]["dice"] == "hero" and prov["version"]
    out = r.to_json_dict()
    json.dumps(out)
    for key in ("scenario", "sides", "kill_time", "combatants", "rules", "trials", "seed"):
        assert key in out


def test_precision_stop_is_deterministic_and_met():
    sc = load_scenario("scenarios/marshal-vs-outlaw.yaml")
    stop = precision_stop(0.004, 2)
    a = simulate(sc, trials=2_000_000, seed=5, stop=stop, progress=False)
    b = simulate(sc, trials=2_000_000, seed=5, stop=stop, threads=1, progress=False)
    assert a.trials == b.trials and a.trials % CHUNK == 0 and a.trials < 2_000_000
    assert precision_reached(a.tally, 2, 0.004)
    # One chunk fewer would not have been enough (the rule stops at the first boundary).
    c = simulate(sc, trials=a.trials - CHUNK, seed=5, progress=False) if a.trials > CHUNK else None
    if c is not None:
        assert not precision_reached(c.tally, 2, 0.004)
    with pytest.raises(FuzionSimError):
        precision_stop(0.0, 2)


def _coverage(hits: np.ndarray) -> float:
    return float(np.mean(hits))


def test_intervals_cover_the_exact_answer():
    """400 seeded runs x 2000 trials of the benchmark duel against the exact oracle."""
    exact = duel(BENCH, BENCH, dice="hero", criticals="both")
    sc = load_scenario("scenarios/benchmark-duel.yaml")
    reps, trials = 400, 2000
    win_hit, mean_hit, narrow_hit = [], [], []
    z_narrow = z_value(0.5)  # negative control: a 50% interval claimed as 95%
    for seed in range(reps):
        r = simulate(sc, trials=trials, seed=1000 + seed, threads=1, progress=False)
        k = int(r.tally.outcome_counts[0])
        lo, hi = r.win_interval("a")
        win_hit.append(lo <= exact.p_a_wins <= hi)
        s = r.kill_time_summary()
        mean_hit.append(s["ci95"][0] <= exact.mean <= s["ci95"][1])
        p = k / trials
        half = z_narrow * np.sqrt(p * (1 - p) / trials)
        narrow_hit.append(abs(p - exact.p_a_wins) <= half)
    tol = 4 * np.sqrt(0.95 * 0.05 / reps)  # 4 binomial standard errors of a coverage
    win_cov, mean_cov, narrow_cov = _coverage(win_hit), _coverage(mean_hit), _coverage(narrow_hit)
    print(f"coverage: win {win_cov:.4f}, mean kill time {mean_cov:.4f}, control {narrow_cov:.4f}")
    assert abs(win_cov - 0.95) <= tol
    assert abs(mean_cov - 0.95) <= tol
    assert abs(narrow_cov - 0.95) > tol  # the check can fail


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 100)
    assert lo == 0.0 and 0 < hi < 0.05
