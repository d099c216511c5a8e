"""What a mecha designer reads of a fight with vehicles: damage by location
(after armour and the row's multiplier), the chance of a critical location lost and the time
of the first, each held to the per-trial outcomes and to the replayed event log, and shown in
``run``'s text and ``--json``.
"""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from fuzion_sim import replay, simulate
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.tables import vehicle_location_names

HELICOPTER = "scenarios/vehicles/helicopter-vs-armoured-car.yaml"
CREW = vehicle_location_names().index("crew")


def test_damage_by_location_adds_up_to_the_structure_lost():
    """With location damage counting toward the structure (VA-09 b, the default), a vehicle's
    damage over its rows but the crew row is the damage it took, over a block of trials."""
    sc = load_scenario(HELICOPTER)
    plan = fuzion.compile_scenario(sc)
    out = fuzion.run_chunk(plan, chunk_key(4, 0), 0, 2000)
    damage = out.categories["vehicle_location_damage"]
    names = [c.name for c in sc.combatants]
    for vehicle in ("Helicopter", "Armoured car"):
        v = names.index(vehicle)
        rows = np.delete(damage[v], CREW)
        assert rows.sum() == out.taken[:, v].sum() > 0, vehicle
    assert damage[names.index("Door gunner")].sum() == 0  # people: none


def test_the_first_critical_is_counted_when_the_log_says():
    sc = load_scenario(HELICOPTER)
    plan = fuzion.compile_scenario(sc)
    out = fuzion.run_chunk(plan, chunk_key(sc.seed, 0), 0, 60)
    v = [c.name for c in sc.combatants].index("Armoured car")
    any_crit, first = out.counters["crit_any"][:, v], out.counters["crit_time"][:, v]
    np.testing.assert_array_equal(any_crit, out.counters["crits"][:, v] > 0)
    assert ((first > 0) == (any_crit > 0)).all() and 0 < any_crit.sum() < 60
    checked = 0
    for trial in np.flatnonzero(any_crit)[:4]:
        events = replay(sc, int(trial))["events"]
        crits = [e for e in events if e["kind"] == "critical" and e["actor"] == "Armoured car"]
        assert crits[0]["time"] == first[trial], trial
        checked += 1
    for trial in np.flatnonzero(any_crit == 0)[:2]:
        events = replay(sc, int(trial))["events"]
        assert not [e for e in events if e["kind"] == "critical" and e["actor"] == "Armoured car"]
    assert checked == 4


def test_results_read_the_critical_time_over_the_fights_with_one():
    result = simulate(load_scenario(HELICOPTER), trials=3000, seed=2, threads=1)
    rows = {r["combatant"]: r for r in result.combatant_stats()}
    car = rows["Armoured car"]
    assert 0 < car["critically_hit_mean"] < 1 and 1 <= car["first_critical_time_mean"] <= 48
    assert rows["Door gunner"]["first_critical_time_mean"] is None  # never: no mean
    out = json.loads(CliRunner().invoke(cli, ["run", HELICOPTER, "--trials", "2000",
                                              "--json"]).output)  # fmt: skip
    damage = out["vehicle_damage_by_location"]
    assert set(damage) == {"Helicopter", "Armoured car"} and damage["Armoured car"]["engine"] > 0


def test_run_prints_the_vehicle_tables():
    text = CliRunner().invoke(cli, ["run", HELICOPTER, "--trials", "2000"]).output
    assert "Counted by the rules" in text and "critically" in text
    assert "Damage a vehicle took by location" in text and "rear wheels" in text
