"""Replay: any FUDGE trial re-run alone with its event log is exactly the trial the bulk run
recorded (the duel kernel's trials too: a replay runs on the general kernel, which draws the
same numbers), and its narration reads the events in causal order."""

from __future__ import annotations

import numpy as np
import pytest
from fudge_helpers import SCENARIOS, build, duel

from fuzion_sim import load_scenario, simulate
from fuzion_sim.api import replay

SHIPPED = sorted(SCENARIOS.glob("*.yaml"))
_DAMAGING = ("shot", "blast", "contact")


def _check(sc, bulk, trial, seed):
    rep = replay(sc, int(trial), seed=seed)
    sides = sc.side_names
    w = int(bulk.outcomes.winner[trial])
    assert rep["winner"] == (sides[w] if w >= 0 else ("draw" if w == -1 else "unresolved"))
    assert rep["end_time"] == int(bulk.outcomes.end_slot[trial])
    events = rep["events"]
    assert events[-1]["kind"] == "end" and events[-1]["round"] == rep["end_time"]
    for i, c in enumerate(sc.combatants):
        shots = [e for e in events if e["kind"] == "shot" and e["actor"] == c.name]
        went_off = [e for e in events if e["kind"] in ("tamp", "detonate")
                    and e["actor"] == c.name]  # fmt: skip
        assert len(shots) + len(went_off) == bulk.outcomes.attacks[trial, i], c.name
        if not went_off:
            assert sum(e["hit"] for e in shots) == bulk.outcomes.landed[trial, i], c.name
        dealt = sum(e["damage"] for e in events if e["kind"] in _DAMAGING
                    and e["actor"] == c.name)  # fmt: skip
        assert dealt == bulk.outcomes.dealt[trial, i], c.name
        taken = sum(e["damage"] for e in events if e["kind"] in _DAMAGING
                    and e["target"] == c.name)  # fmt: skip
        assert taken == bulk.outcomes.taken[trial, i], c.name
    return rep


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_replays_match_the_bulk_run(path):
    sc = load_scenario(path)
    bulk = simulate(sc, trials=3000, seed=9, keep_trials=True, progress=False)
    for trial in np.linspace(0, 2999, 12).astype(int):
        _check(sc, bulk, trial, 9)


def test_replays_across_chunks_and_orders():
    """Trials in a second chunk, and every order of actions."""
    for rules in ({}, {"order": "simultaneous"}, {"order": "rolled"},
                  {"hit_locations": "random", "ranged_defence": "dodge"}):  # fmt: skip
        sc = build(duel(rules))
        bulk = simulate(sc, trials=70_000, seed=4, keep_trials=True, progress=False)
        for trial in (0, 65_535, 65_536, 69_999):
            _check(sc, bulk, trial, 4)


def test_narration_in_causal_order():
    sc = load_scenario(SCENARIOS / "breach.yaml")
    rep = replay(sc, 0, seed=5)
    kinds = [e["kind"] for e in rep["events"]]
    assert kinds[0] == "tamp" and kinds[1] == "breach" and "blast" in kinds
    assert any("the blast catches Sergeant" in line for line in rep["lines"])
    sc = load_scenario(SCENARIOS / "vaclav-and-hubert.yaml")
    for trial in range(200):
        rep = replay(sc, trial, seed=13)
        kinds = [e["kind"] for e in rep["events"]]
        if "cripple" in kinds:
            i = kinds.index("cripple")
            shot, crip = rep["events"][i - 1], rep["events"][i]
            assert shot["kind"] == "shot" and shot["location"] == crip["location"]
            assert any("is crippled" in line for line in rep["lines"])
            break
    else:
        raise AssertionError("no crippling in 200 trials")
    rep = replay(build(duel({"order": "simultaneous"})), 2, seed=1)
    assert any("at the round's end" in line for line in rep["lines"])
