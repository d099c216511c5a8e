"""Time, initiative and surprise through the whole kernel (RULINGS F7-F9, F11, F26), read
from the event log of single trials and from bulk runs with a fixed seed (4-SE tolerances)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from fight_log import STUN_GUN, dummy, events_of, fighter, logged, run, scenario, segment_of

from fuzion_sim.systems.fuzion.timing import actions_per_phase, speed_chart

#: RULINGS F8: the HERO speed chart (SPD 1 acts on 7 only: the seed's mark at 12 is a typo)
CHART = {
    1: [7], 2: [6, 12], 3: [4, 8, 12], 4: [3, 6, 9, 12], 5: [3, 5, 8, 10, 12],
    6: [2, 4, 6, 8, 10, 12], 7: [2, 4, 6, 7, 9, 11, 12], 8: [2, 3, 5, 6, 8, 9, 11, 12],
    9: [2, 3, 4, 6, 7, 8, 10, 11, 12], 10: [2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
    11: list(range(2, 13)), 12: list(range(1, 13)),
}  # fmt: skip

AIMER = [{"do": "aim"}]  # a harmless action that shows in the log every time it is taken
SURE_SHOT = {"Handgun": 30}  # AV so high that nothing but a natural 3 can miss


def action_times(sc, actor, trial=0, seed=1):
    return [e["time"] for e in events_of(sc, trial, seed, actor=actor) if e["kind"] != "end"]


# --- speed chart ----------------------------------------------------------------------------


@pytest.mark.parametrize("spd", sorted(CHART))
def test_speed_chart_data_is_the_rulings_chart(spd):
    assert list(speed_chart(spd)) == CHART[spd]


@pytest.mark.parametrize("spd", [1, 3, 5, 7, 12])
def test_speed_chart_segments_from_the_event_log(spd):
    """A SPD 5 combatant acts in segments 3, 5, 8, 10 and 12 of every round; the fight starts
    on segment 12 (reported time 1), so a SPD 1 combatant first acts at time 8 (segment 7)."""
    sc = scenario(
        {"a": [fighter("A", spd=spd, tactics=AIMER)], "b": [dummy(spd=1)]},
        max_rounds=4, timing="speed_chart",
    )  # fmt: skip
    times = action_times(sc, "A")
    assert times == sorted(times) and len(set(times)) == len(times)  # once per segment at most
    assert {segment_of(t) for t in times} == set(CHART[spd])
    # the opening segment 12 is time 1; then every full round (times 2-13, 14-25, ...)
    assert (1 in times) == (12 in CHART[spd])
    for first in (2, 14, 26):
        in_round = [t for t in times if first <= t < first + 12]
        assert len(in_round) == spd
        assert [segment_of(t) for t in in_round] == CHART[spd]


def test_speed_chart_counts_actions_per_round_in_bulk():
    """SPD 5 against SPD 2 over three rounds and the opening segment: 5 x 3 + 1 and 2 x 3 + 1
    attacks (harmless weapons: nobody falls)."""
    harmless = {"name": "Feather", "dc": 0, "skill": "Handgun", "range": 50}
    sides = {"a": [fighter("A", spd=5, weapon=harmless, hits=500, stun=500)],
             "b": [fighter("B", 3, spd=2, weapon=harmless, hits=500, stun=500)]}  # fmt: skip
    res = run(sides, trials=2_000, max_rounds=4, timing="speed_chart")
    # max_rounds 4 = 48 segments from the opening 12: the opening, then 3 rounds and 11
    # segments (1-11) of a fourth
    a = 1 + 3 * 5 + 4  # the fourth round's 3, 5, 8, 10
    b = 1 + 3 * 2 + 1  # the fourth round's 6
    np.testing.assert_array_equal(res.tally.attacks_sum, [a * res.trials, b * res.trials])


@pytest.mark.parametrize(
    ("spd", "table", "per_phase"),
    [(9, "rule", 3), (9, "printed", 3), (11, "rule", 3), (11, "printed", 4), (4, "rule", 1),
     (5, "rule", 2), (5, "printed", 2), (12, "rule", 3), (12, "printed", 4)],
)  # fmt: skip
def test_extra_actions_tables(spd, table, per_phase):
    """F8 extra_actions: ceil(SPD / 4) actions a phase, or the printed table (SPD 9: 3 both;
    SPD 11: 3 by the rule, 4 printed), counted per phase from the event log."""
    assert actions_per_phase(spd, table) == per_phase
    sc = scenario(
        {"a": [fighter("A", spd=spd, tactics=AIMER)], "b": [dummy()]},
        max_rounds=2, timing="extra_actions", extra_actions_table=table,
    )  # fmt: skip
    per = Counter(action_times(sc, "A"))
    assert sorted(per) == list(range(1, 9))  # times are phases: 4 a round
    assert set(per.values()) == {per_phase}
    assert set(Counter(action_times(sc, "Dummy")).values()) == {1}  # SPD 4 (default): one


# --- kill time units ------------------------------------------------------------------------


def sure_kill(spd, timing):
    victim = fighter("V", 20, weapon=dummy()["weapon"], hits=1, spd=4)
    shooter = fighter("S", skills=SURE_SHOT, spd=spd)
    return {"a": [shooter], "b": [victim]}, timing


@pytest.mark.parametrize(("spd", "expect"), [(2, 1), (1, 8), (5, 1)])
def test_kill_time_in_segments_from_the_opening_segment_12(spd, expect):
    """F26: under speed_chart the kill time is in segments, the opening segment 12 counting
    as 1: a sure one-shot kill by a SPD 2 shooter ends at 1; by a SPD 1 shooter (segment 7) at
    8. Seconds are segments."""
    sides, _ = sure_kill(spd, "speed_chart")
    res = run(sides, trials=3_000, timing="speed_chart")
    kt = res.kill_time()
    assert kt["unit"] == "segment"
    assert res.win_probability("a") > 0.99
    # only a natural 3 (1 in 216) misses
    assert kt["pmf"][expect] > 0.98
    assert kt["mean_seconds"] == pytest.approx(kt["mean"])
    assert kt["mean_rounds"] == pytest.approx(kt["mean"] / 12)


def test_kill_time_in_phases_by_default_and_under_extra_actions():
    sides, _ = sure_kill(4, "phases")
    res = run(sides, trials=2_000)
    assert res.kill_time()["unit"] == "phase"
    assert res.kill_time()["mean_seconds"] == pytest.approx(3 * res.kill_time()["mean"])
    res = run(sides, trials=2_000, timing="extra_actions")
    assert res.kill_time()["unit"] == "phase"


# --- the free Recovery after segment 12 -----------------------------------------------------


def recovery_fight(timing, victim_stun):
    big_stun = dict(STUN_GUN, dc=14)
    victim = fighter("V", 20, weapon=dummy()["weapon"], tactics=[{"do": "none"}], spd=1,
                     hits=200, stun=victim_stun, rec=7, stats={"CON": 1})  # fmt: skip
    ally = dummy("Ally", 30, spd=1)
    shooter = fighter("S", skills=SURE_SHOT, spd=2, weapon=big_stun,
                      tactics=[{"when": "phase == 1", "do": "attack"}, {"do": "none"}])  # fmt: skip
    return scenario({"a": [shooter], "b": [victim, ally]}, max_rounds=3, timing=timing)


@pytest.mark.parametrize("trial", range(5))
def test_free_recovery_after_segment_12_wakes_the_knocked_out(trial):
    """F8: after each segment 12 everyone gets a free Recovery: a knocked-out combatant with
    Hits left regains REC Stun at once, however far below 0 (here a DC 14 Stun hit on 5 Stun,
    so below -7), even though its own phase (SPD 1: segment 7) has not come."""
    sc = recovery_fight("speed_chart", 5)
    _, events = logged(sc, trial)
    hit = [e for e in events if e["kind"] == "attack" and e["time"] == 1]
    assert len(hit) == 1 and hit[0]["hit"] and hit[0]["stun"] < 0 and hit[0]["hits"] > 0
    wake = [e for e in events if e["kind"] == "wake" and e["actor"] == "V"]
    assert wake and wake[0]["time"] == 1
    assert wake[0]["stun"] == hit[0]["stun"] + 7
    # and again after the next segment 12 (time 13), whatever happened in between
    assert 13 in [e["time"] for e in wake]


def test_free_recovery_tops_up_stun_of_the_conscious_and_only_under_the_speed_chart():
    """The free Recovery is for everyone (not only the knocked-out), capped at full Stun;
    under `timing: phases` (F8: no segments, no free Recovery) a conscious combatant gets
    nothing back."""
    seen = 0
    for trial in range(5):
        _, events = logged(recovery_fight("speed_chart", 1_000), trial)
        hit = next(e for e in events if e["kind"] == "attack" and e["time"] == 1)
        wake = [e for e in events if e["kind"] == "wake" and e["actor"] == "V" and e["time"] == 1]
        if hit["hit"]:
            seen += 1
            assert wake[0]["stun"] == min(hit["stun"] + 7, 1_000)
    assert seen == 5
    for trial in range(5):
        _, events = logged(recovery_fight("phases", 1_000), trial)
        assert not [e for e in events if e["kind"] == "wake"]


# --- initiative -----------------------------------------------------------------------------


def first_actor_by_time(events):
    """time -> the actor of the first event in it (actions only)."""
    out = {}
    for e in events:
        if e["kind"] != "end" and e["time"] not in out:
            out[e["time"]] = e["actor"]
    return out


def test_switch1_higher_sheet_ref_acts_first():
    """F9 switch1: higher REF first, by the sheet REF (listed order is lowest first here)."""
    sides = {"a": [dummy("Slow", 1, stats={"REF": 4}), dummy("Mid", 2, stats={"REF": 6})],
             "b": [dummy("Fast", 3, stats={"REF": 8})]}  # fmt: skip
    _, events = logged(scenario(sides, max_rounds=2))
    for phase in range(1, 9):
        order = [e["actor"] for e in events if e["time"] == phase and e["kind"] != "end"]
        assert order == ["Fast", "Mid", "Slow"]


def test_switch1_order_ignores_wound_penalties():
    """F9: penalties from wounds never reorder: a badly hurt higher-REF combatant (impaired,
    -4 REF: effective 4 < 6) still acts before the REF 6 one."""
    hurt = fighter("Hurt", 20, stats={"REF": 8, "DEX": 5}, hits=40, tactics=[{"do": "aim"}])
    gun = {"name": "Slug", "dc": 6, "skill": "Handgun", "range": 50}
    shooter = fighter("S", skills=SURE_SHOT, weapon=gun)
    sc = scenario({"a": [shooter], "b": [hurt]}, max_rounds=4)
    for trial in range(5):
        _, events = logged(sc, trial)
        for phase in range(1, 17):
            order = [e["actor"] for e in events if e["time"] == phase and e["kind"] != "end"]
            assert order[:1] == ["Hurt"] or not order


def test_switch1_ties_broken_once_per_fight_about_half_each():
    """Equal REF: the order is drawn once at the start of each fight and kept in every phase;
    across fights each goes first about half the time (4 SE)."""
    sc = scenario({"a": [dummy("A", 1)], "b": [dummy("B", 2)]}, max_rounds=2)
    n, a_first = 300, 0
    for trial in range(n):
        _, events = logged(sc, trial, seed=3)
        firsts = set(first_actor_by_time(events).values())
        assert len(firsts) == 1  # the same order in all 8 phases
        a_first += firsts == {"A"}
    assert abs(a_first / n - 0.5) <= 4 * math.sqrt(0.25 / n)
    # in bulk: a sure one-shot duel between equals is won by whoever the die put first
    sure = {"a": [fighter("A", skills=SURE_SHOT, hits=1)],
            "b": [fighter("B", 20, skills=SURE_SHOT, hits=1)]}  # fmt: skip
    res = run(sure, trials=20_000, seed=4)
    assert abs(res.win_probability("a") - 0.5) <= 4 * math.sqrt(0.25 / res.trials)


def test_switch2_order_varies_between_phases():
    """F9 switch2: each phase everyone rolls 3d6 + current REF: with equal REF the order
    changes from phase to phase within one fight, about half the phases each way."""
    sc = scenario({"a": [dummy("A", 1)], "b": [dummy("B", 2)]}, max_rounds=10,
                  initiative="switch2")  # fmt: skip
    firsts = first_actor_by_time(logged(sc, 0, seed=3)[1])
    assert len(firsts) == 40
    share = sum(v == "A" for v in firsts.values()) / 40
    assert abs(share - 0.5) <= 4 * math.sqrt(0.25 / 40)
    # REF 8 against REF 4: the faster usually but not always goes first (P = 0.84 for 3d6)
    sc = scenario({"a": [dummy("A", 1, stats={"REF": 4})],
                   "b": [dummy("B", 2, stats={"REF": 8})]}, max_rounds=50,
                  initiative="switch2")  # fmt: skip
    firsts = first_actor_by_time(logged(sc, 0, seed=3)[1])
    share_b = sum(v == "B" for v in firsts.values()) / len(firsts)
    p = 0.82476  # P(3d6 + 4 < 3d6' + 8), ties split evenly
    assert abs(share_b - p) <= 4 * math.sqrt(p * (1 - p) / len(firsts))


# --- surprise -------------------------------------------------------------------------------


@pytest.mark.parametrize("timing", ["phases", "speed_chart"])
def test_surprised_skips_the_opening_and_is_attacked_at_plus_5(timing):
    """F11: a surprised combatant does not act in the opening phase (segment 12) and attacks
    against it get +5 then (only then)."""
    victim = dummy("V", 20, surprised=True, stats={"REF": 9, "DEX": 5})
    sc = scenario({"a": [fighter("S")], "b": [victim]}, max_rounds=2, timing=timing)
    _, events = logged(sc)
    opening = [e for e in events if e["time"] == 1]
    kinds = [e["kind"] for e in opening if e["actor"] == "V" and e["kind"] != "wake"]
    assert kinds == ["surprised"]  # (a wake: the free Recovery after segment 12)
    attacks = [e for e in events if e["kind"] == "attack" and e["actor"] == "S"]
    assert attacks[0]["time"] == 1
    base = 6 + 4 - 4  # REF + Handgun + Medium range (20 m)
    assert attacks[0]["av"] == base + 5
    assert all(e["av"] == base for e in attacks[1:])
    # after the opening, V acts (idles) at each of its phases
    assert [e["kind"] for e in events if e.get("actor") == "V" and e["time"] > 1]


@pytest.mark.parametrize("trial", range(8))
def test_knocked_out_wakes_by_the_stun_level_table(trial):
    """F23 under `timing: phases`: REC Stun back at the end of every phase from 0 to -10, of
    every round (4 phases) from -11 to -20, of every minute (20 phases) from -21 to -30."""
    sc = recovery_fight("phases", 5)
    _, events = logged(sc, trial)
    hit = next(e for e in events if e["kind"] == "attack")
    assert hit["time"] == 1 and hit["hit"] and hit["stun"] <= 0
    stun, expect = hit["stun"], []
    for t in range(1, 13):
        if stun > 0:
            break
        if stun >= -10 or (t % 4 == 0 and stun >= -20) or (t % 20 == 0 and stun >= -30):
            stun += 7
            expect.append((t, stun))
    wakes = [(e["time"], e["stun"]) for e in events if e["kind"] == "wake" and e["time"] <= 12]
    assert wakes == expect
