"""The kernel's bytecode interpreter reads every condition variable correctly.

Each check is a tactic that aims when a condition on one variable holds and idles otherwise;
the first action's event (aim or idle) says whether the kernel saw the value the test knows.
"""

from __future__ import annotations

import pytest
from fight_log import dummy, fighter, logged, scenario

from fuzion_sim.systems.fuzion import tactics as tx

# Shooter (BODY 5: 25 Hits and Stun; a 50 m gun, 6 shots) 20 m from a target with 40 Hits
# and 30 Stun, and one ally 2 m behind it.
TRUE_CONDITIONS = [
    "hits == 25", "stun == 25", "hits_max == 25", "stun_max == 25", "hits_pct == 100",
    "stun_pct == 100", "aim == 0", "shots == 6", "not prone", "not held", "not stunned",
    "not threatened", "enemies == 1", "allies == 1", "phase == 1", "not dodging",
    "target.hits == 40", "target.stun == 30", "target.hits_pct == 100",
    "target.stun_pct == 100", "not target.prone", "not target.held", "not target.stunned",
    "range == 20", "weapon_range == 50", "reach == 4", "in_range", "not in_reach",
    "2 * 3 - 1 == 5 and (1 < 2 or false)", "-range < 0",
    # no missile weapon, none in flight (the missile cases: test_missiles.py)
    "missiles == 0", "missiles_incoming == 0", "target.missiles_incoming == 0",
    "in_hazard == 0", "breath == 12", "advantage == 0", "tailing == 0",
    "not out_of_control", "speed == 0", "target.speed == 0", "altitude == 0",
]  # fmt: skip


def first_action(condition: str) -> str:
    gun = {"name": "Six-gun", "dc": 4, "skill": "Handgun", "range": 50, "shots": 6}
    shooter = fighter("S", weapon=gun, tactics=[{"when": condition, "do": "aim"}, {"do": "none"}])
    ally = dummy("Ally", position=-2)
    target = dummy("T", position=20, hits=40, stun=30)
    _, events = logged(scenario({"a": [shooter, ally], "b": [target]}, max_rounds=1))
    return next(e["kind"] for e in events if e.get("actor") == "S")


def test_every_variable_is_covered():
    names = " ".join(TRUE_CONDITIONS)
    missing = [v for v in tx.VARIABLE_NAMES if v not in names]
    assert not missing


@pytest.mark.parametrize("condition", TRUE_CONDITIONS)
def test_condition_true(condition):
    assert first_action(condition) == "aim"


@pytest.mark.parametrize("condition", TRUE_CONDITIONS)
def test_negated_condition_false(condition):
    assert first_action(f"not ({condition})") == "idle"
