"""Obscured (a Perception roll each phase), abort (a defence that spends the coming turn) and
holstered weapons, through the event log and against exact odds."""

from __future__ import annotations

import math

from fight_log import dummy, fighter, logged, run, scenario

from fuzion_sim.systems.fuzion import dice


def test_obscured_perception_roll_each_phase_sets_minus_2_or_4():
    """INT + Perception + the task die against obscured_dv: success -2, failure -4 to its
    attacks (and defence) that phase; the success rate matches the exact task roll."""
    seer = fighter("S", stats={"REF": 6, "INT": 5}, skills={"Handgun": 4, "Perception": 3},
                   obscured=True)  # fmt: skip
    sc = scenario({"a": [seer], "b": [dummy(position=3)]}, max_rounds=1, obscured_dv=16)
    successes = n = 0
    for trial in range(400):
        _, events = logged(sc, trial)
        checks = [e for e in events if e["kind"] == "perception"]
        shots = [e for e in events if e["kind"] == "attack"]
        assert len(checks) == 4 and len(shots) == 4  # one roll a phase
        for check, shot in zip(checks, shots, strict=True):
            assert check["raw"] == (2 if 5 + 3 + check["roll"] >= 16 else 4)
            assert shot["av"] == 6 + 4 - check["raw"]
            successes += check["raw"] == 2
            n += 1
    p = dice.hero_roll(True).sf(16 - 8)
    assert abs(successes / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_interlock_perception_dv_is_five_lower():
    seer = fighter("S", skills={"Handgun": 4, "Perception": 3}, obscured=True)
    sc = scenario({"a": [seer], "b": [dummy(position=3)]}, max_rounds=1, dice="interlock")
    _, events = logged(sc, 0)
    for check in (e for e in events if e["kind"] == "perception"):
        assert check["raw"] == (2 if 5 + 3 + check["roll"] >= 14 - 5 else 4)


def test_abort_to_dodge_spends_the_coming_turn():
    """Attacked before its turn, a combatant with abort: dodge gains +3 DV at once and loses
    that turn; the defence lasts until its next action."""
    fast = fighter("Fast", stats={"REF": 9, "DEX": 5})
    slow = fighter("Slow", 5, stats={"REF": 3, "DEX": 5}, abort="dodge", hits=500, stun=500)
    _, events = logged(scenario({"a": [fast], "b": [slow]}, max_rounds=1))
    defends = [e for e in events if e["kind"] == "defend"]
    shots = [e for e in events if e["kind"] == "attack"]
    assert len(defends) == 4 and all(e["actor"] == "Slow" for e in defends)
    assert all(e["actor"] == "Fast" for e in shots)  # Slow never gets to shoot
    assert all(e["dv"] == 5 + 3 for e in shots)  # DEX 5 + dodge 3 (no Ranged Evade)


def test_abort_changes_the_odds_both_ways():
    """The aborting side is hit less but never shoots back: it loses the duel."""
    a = fighter("A", stats={"REF": 8, "DEX": 5})
    b = fighter("B", 5, stats={"REF": 4, "DEX": 5})
    base = run({"a": [a], "b": [b]}, max_rounds=20)
    aborting = run({"a": [a], "b": [{**b, "abort": "dodge"}]}, max_rounds=20)
    assert aborting.tally.attacks_sum[1] == 0
    assert aborting.win_probability("a") > base.win_probability("a")
    hit_rate = aborting.tally.landed_sum[0] / aborting.tally.attacks_sum[0]
    assert hit_rate < base.tally.landed_sum[0] / base.tally.attacks_sum[0]


def test_holstered_weapon_draw_takes_an_action_draw_attack_minus_3():
    slow_draw = fighter("D", drawn=False)
    _, events = logged(scenario({"a": [slow_draw], "b": [dummy(position=3)]}, max_rounds=1))
    assert [e["kind"] for e in events if e.get("actor") == "D"] == ["draw"] + ["attack"] * 3
    fast_draw = fighter("F", drawn=False, tactics=[{"do": "draw_attack"}])
    _, events = logged(scenario({"a": [fast_draw], "b": [dummy(position=3)]}, max_rounds=1))
    shots = [e for e in events if e["kind"] == "attack"]
    assert len(shots) == 4
    assert shots[0]["av"] == 6 + 4 - 3 and all(s["av"] == 6 + 4 for s in shots[1:])
