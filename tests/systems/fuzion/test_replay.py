"""Replay: any trial re-run alone with its event log matches what the bulk run recorded."""

from __future__ import annotations

import json
import re

import numpy as np
from click.testing import CliRunner
from conftest import SCENARIOS

from fuzion_sim import simulate
from fuzion_sim.api import replay
from fuzion_sim.cli import cli
from fuzion_sim.scenario import load_scenario

FLAGSHIP = SCENARIOS / "marshal-vs-outlaw.yaml"


def test_replays_match_the_bulk_run():
    """Winner and end time of 40 trials spread over three chunks (one partial)."""
    sc = load_scenario(FLAGSHIP)
    bulk = simulate(sc, trials=140_000, seed=9, keep_trials=True)
    sides = sc.side_names
    for trial in np.linspace(0, 139_999, 40).astype(int):
        rep = replay(sc, int(trial), seed=9)
        w = int(bulk.outcomes.winner[trial])
        assert rep["winner"] == (sides[w] if w >= 0 else ("draw" if w == -1 else "unresolved"))
        assert rep["end_time"] == int(bulk.outcomes.end_slot[trial])
        attacks = [e for e in rep["events"] if e["kind"] == "attack"]
        # the log's attacks and damage add up to the bulk run's per-combatant counters
        for i, c in enumerate(sc.combatants):
            mine = [e for e in attacks if e["actor"] == c.name]
            assert len(mine) == bulk.outcomes.attacks[trial, i]
            assert sum(e["damage_through"] for e in mine) == bulk.outcomes.dealt[trial, i]
        assert rep["events"][-1]["kind"] == "end"


def test_replay_attack_numbers_are_consistent():
    rep = replay(load_scenario(FLAGSHIP), 3, seed=1)
    for e in rep["events"]:
        if e["kind"] == "attack":
            assert e["hit"] == (e["roll_difference"] >= e["dv_base"] - e["av"])
            assert e["damage_through"] <= e["damage_rolled"] or not e["hit"]


def test_replay_cli_text_and_json():
    res = CliRunner().invoke(cli, ["replay", str(FLAGSHIP), "--trial", "7"])
    assert res.exit_code == 0
    assert "Phase   1:" in res.stdout and "the fight ends" in res.stdout
    res = CliRunner().invoke(cli, ["replay", str(FLAGSHIP), "--trial", "7", "--json"])
    out = json.loads(res.stdout)
    assert out["trial"] == 7 and out["events"][0]["kind"] in ("attack", "surprised")


def _first_trial(sc, wanted, seed=1, trials=400):
    """The replay of the first trial whose events satisfy ``wanted(events)``."""
    for trial in range(trials):
        rep = replay(sc, trial, seed=seed)
        if wanted(rep["events"]):
            return rep
    raise AssertionError("no such trial")


def test_replays_are_in_causal_order():
    """An attack's line comes before what it causes: its knockback, the blast of a grenade
    thrown at a point and the dives it provokes, the contest for a disarmed weapon."""
    kinds = lambda evs: [e["kind"] for e in evs]  # noqa: E731
    # knockback: the hit, then the target flies
    sc = load_scenario(
        SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[("rules.knockback", True)]
    )
    rep = _first_trial(sc, lambda evs: "knockback" in kinds(evs))
    i = kinds(rep["events"]).index("knockback")
    before = rep["events"][i - 1]
    assert before["kind"] == "attack" and before["hit"]
    assert before["target"] == rep["events"][i]["actor"]
    # a grenade into a room: the throw, then who dives and who is caught
    sc = load_scenario(SCENARIOS / "grenade-into-a-room.yaml")
    rep = _first_trial(sc, lambda evs: "area" in kinds(evs) and "defend" in kinds(evs))
    evs = rep["events"]
    for i, e in enumerate(evs):
        if e["kind"] != "area":
            continue
        j = i - 1  # back over the blast's other victims and dives to the throw itself
        while evs[j]["kind"] in ("area", "defend"):
            j -= 1
        assert evs[j]["kind"] == "attack" and evs[j]["actor"] == e["target"], (evs[j], e)
    # the lines read in that order too
    lines = rep["lines"]
    throw = next(n for n, line in enumerate(lines) if " throws at " in line)
    assert all(n > throw for n, line in enumerate(lines) if "is caught in" in line)


def test_reload_lines_say_how_many_rounds():
    sc = load_scenario(SCENARIOS / "brawler-vs-gunman.yaml")
    rep = _first_trial(sc, lambda evs: any(e["kind"] == "reload" and e["rounds_loaded"] > 0
                                           for e in evs))  # fmt: skip
    line = next(line for line in rep["lines"] if " rounds: " in line)
    assert re.search(r"reloads \d+ rounds: \d+ shots", line), line
