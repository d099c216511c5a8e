"""Dogfights (seed 000 "Dogfighting"; ../shared/rulings/vehicles/: mechanics.md
M-53 to M-58, rulings.md VA-16, VA-32 to VA-34): the ``dogfight`` and ``break_off`` actions,
the ``advantage`` and ``tailing`` variables, the exact margin pmf (``fuzion-sim dogfight``),
the general kernel held to it (with a control of the wrong Maneuver Value that must fail), the
chart's effects on attacks (the loser's ban, a level roll, tailing's +2, no moving-target
penalty inside the pair), breaking off, every switch, the errors, narration and results.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from builders import fight as duel
from click.testing import CliRunner
from fight_log import logged
from oracles import chi2_p

from fuzion_sim import api, simulate
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import codes
from fuzion_sim.systems.fuzion.features.dogfights.exact import margin_pmf, positions

CANNON = {"name": "Cannon", "skill": "Gunnery", "dc": 8, "range": 800, "rof": 10, "shots": 60,
          "autofire": True}  # fmt: skip
#: A harmless gun: DC 1 against PD 100 never goes through.
POP = {"name": "Pop", "skill": "Gunnery", "dc": 1, "range": 800}


def jet(name, tactics, position=(0, 0), ref=8, piloting=7, maneuver=3, weapon=None, cls="aircraft",
        int_=6, perception=4, speed=200, armour=100, **vehicle):  # fmt: skip
    """An aircraft with its pilot (REF ``ref``, Piloting ``piloting``); armour PD 100 and SDP
    5,000 by default, so nothing brings it down unless asked."""
    pilot = {"name": f"{name} pilot", "role": "pilot",
             "stats": {"REF": ref, "DEX": 6, "INT": int_, "CON": 6, "BODY": 6},
             "skills": {"Piloting": piloting, "Driving": piloting, "Gunnery": 6,
                        "Perception": perception}}  # fmt: skip
    body = {"class": cls, "sdp": 5000, "move": 250, "speed": speed, "maneuver": maneuver,
            "crew": [pilot], **vehicle}  # fmt: skip
    if weapon is not None:
        body["weapons"] = [{**weapon, "operator": f"{name} pilot"}]
    return {"name": name, "vehicle": body, "armor": {"name": "Hull", "pd": armour},
            "position": list(position), "tactics": tactics}  # fmt: skip


def counters(sc, n=4000, seed=3):
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    out = fuzion.run_chunk(plan, chunk_key(seed, 0), 0, n)
    return out, plan


DOGFIGHT = [{"do": "dogfight"}]


def both_dogfight(**kw):
    """Viper (REF 8 + Piloting 7 + MV 3 = 18) against Flanker (7 + 6 + 2 = 15), 100 km apart:
    both dogfight every phase, nobody can shoot."""
    return duel([jet("Viper", DOGFIGHT)],
                [jet("Flanker", DOGFIGHT, (100_000, 0), ref=7, piloting=6, maneuver=2)], **kw)


def events_of(sc, trials=range(6), seed=1):
    out = []
    for t in trials:
        out.extend(logged(sc, trial=t, seed=seed)[1])
    return out


# --- the exact pmf --------------------------------------------------------------------------


def _brute(base_a, base_b, faces):
    """The margin pmf by enumeration of both pilots' dice (no criticals)."""
    rolls = [sum(r) for r in itertools.product(*faces)]
    out: dict[int, Fraction] = {}
    for x in rolls:
        for y in rolls:
            m = base_a + x - base_b - y
            out[m] = out.get(m, Fraction(0)) + Fraction(1, len(rolls) ** 2)
    return out


def test_the_margin_pmf_is_the_enumerated_contest_of_two_rolls():
    d6 = [range(1, 7)] * 3
    assert margin_pmf(18, 15, "hero", "none") == _brute(18, 15, d6)
    assert margin_pmf(12, 14, "interlock", "none") == _brute(12, 14, [range(1, 11)])
    crit = margin_pmf(18, 15, "hero", "both")  # criticals widen it (F3), still one in total
    assert sum(crit.values()) == 1 and min(crit) == 3 - 39 and max(crit) == 3 + 39
    even = margin_pmf(15, 15)
    assert all(even[m] == even[-m] for m in even)  # level pilots: symmetric
    pos = positions(margin_pmf(18, 15, "hero", "none"))
    assert sum(pos.values()) == 1
    assert pos["level"] == _brute(18, 15, d6)[0]
    assert pos["a_tailing"] == sum(p for m, p in _brute(18, 15, d6).items() if m >= 5)


def test_the_exact_answer_through_the_api_and_the_command():
    sc = both_dogfight()
    answer = api.ask(sc, "dogfight", a="Viper", b="Flanker")
    assert (answer["a_base"], answer["b_base"]) == (18, 15)
    assert math.isclose(answer["margin"]["mean"], 3.0)
    assert math.isclose(sum(answer["positions"].values()), 1.0)
    path = "scenarios/vehicles/jet-vs-missile-cluster.yaml"
    got = CliRunner().invoke(cli, ["dogfight", path, "--a", "Viper", "--b", "Flanker", "--json"])
    assert got.exit_code == 0, got.output
    data = json.loads(got.output)
    assert data["positions"]["a_tailing"] > data["positions"]["b_tailing"]
    bad = CliRunner().invoke(cli, ["dogfight", path, "--a", "Viper pilot", "--b", "Flanker"])
    assert bad.exit_code == 2 and "not a flying vehicle" in bad.output
    text = CliRunner().invoke(cli, ["dogfight", path, "--a", "Viper", "--b", "Flanker"])
    assert text.exit_code == 0 and "tailing" in text.output


# --- the kernel against the exact pmf -------------------------------------------------------


def _position_counts(out):
    """Rolls by position from the counters: level, Viper's Advantage short of tailing, its
    tailing, Flanker's Advantage, its tailing."""
    c = out.counters
    rolls = int(c["dogfight_rolls"][:, 0].sum())
    won_a, won_b = int(c["dogfight_won"][:, 0].sum()), int(c["dogfight_won"][:, 1].sum())
    tail_a, tail_b = int(c["dogfight_tail"][:, 0].sum()), int(c["dogfight_tail"][:, 1].sum())
    assert (c["dogfight_rolls"][:, 0] == c["dogfight_rolls"][:, 1]).all()
    return np.array([rolls - won_a - won_b, won_a - tail_a, tail_a, won_b - tail_b, tail_b])


def _probs(pmf):
    p = positions(pmf)
    keys = ("level", "a_advantage", "a_tailing", "b_advantage", "b_tailing")
    return np.array([float(p[k]) for k in keys])


@pytest.mark.parametrize("dice", ["hero", "interlock"])
def test_the_kernels_dogfight_rolls_agree_with_the_exact_pmf_and_a_wrong_mv_is_rejected(dice):
    out, _ = counters(both_dogfight(dice=dice), n=3000)
    # the crew members are combatants too: the vehicles are 0 (Viper) and 2 (Flanker)
    names = [c.name for c in both_dogfight().combatants]
    assert names[0] == "Viper" and names[2] == "Flanker"
    c = out.counters
    for key in ("dogfight_rolls", "dogfight_won", "dogfight_tail"):
        c[key] = c[key][:, [0, 2]]
    counts = _position_counts(out)
    assert counts.sum() == 3000 * 3  # engaged in phase 1: a roll at the start of phases 2-4
    exact = _probs(margin_pmf(18, 15, dice))
    n = counts.sum()
    z = (counts / n - exact) / np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(z) < 4), z
    assert chi2_p(counts, exact) > 1e-4
    wrong = _probs(margin_pmf(18 - 2, 15, dice))  # the Viper's MV 1, not 3: must be rejected
    z_wrong = (counts / n - wrong) / np.sqrt(wrong * (1 - wrong) / n)
    assert np.max(np.abs(z_wrong)) > 4
    assert chi2_p(counts, wrong) < 1e-6


# --- the chart's effects on attacks ---------------------------------------------------------


def _attacks(events, actor):
    return [e for e in events if e["kind"] == "attack" and e["actor"] == actor]


def test_tailing_adds_two_to_the_attack_and_the_advantage_nothing():
    viper = jet("Viper", [{"when": "tailing", "do": "attack"},
                          {"when": "advantage >= 1", "do": "attack"}, {"do": "dogfight"}],
                weapon=POP, piloting=4)  # fmt: skip
    flanker = jet("Flanker", [{"do": "none"}], (300, 0), ref=7, piloting=6, maneuver=2)
    sc = duel([viper], [flanker], max_rounds=3)
    events = events_of(sc, range(20))
    avs = {"tailing": set(), "advantage": set()}
    last = None
    for e in events:
        if e["kind"] in ("dogfight", "end"):
            last = e if e["kind"] == "dogfight" else None
        elif e["kind"] == "attack" and e["actor"] == "Viper":
            assert last is not None and last["actor"] == "Viper" and last["raw"] >= 1
            avs["tailing" if last["raw"] >= 5 else "advantage"].add(e["av"])
    assert len(avs["tailing"]) == 1 and len(avs["advantage"]) == 1, avs
    assert avs["tailing"].pop() - avs["advantage"].pop() == 2


def test_the_loser_may_not_attack_the_winner():
    viper = jet("Viper", DOGFIGHT, piloting=40)  # always wins (criticals none)
    flanker = jet("Flanker", [{"do": "attack"}], (300, 0), weapon=POP, ref=7, piloting=6)
    out, _ = counters(duel([viper], [flanker], max_rounds=2, criticals="none"), n=200)
    assert (out.attacks[:, 2] == 1).all()  # phase 1 only: engaged from phase 2's start
    events = events_of(duel([viper], [flanker], max_rounds=2, criticals="none"), range(2))
    barred = [e for e in events if e["kind"] == "dogfight_barred"]
    assert barred and all(e["actor"] == "Flanker" and e["raw"] < 0 for e in barred)
    alone = jet("Viper", [{"do": "none"}], piloting=40)  # no dogfight: it shoots
    out, _ = counters(duel([alone], [flanker], max_rounds=2, criticals="none"), n=200)
    assert out.attacks[:, 2].min() > 0


@pytest.mark.parametrize("tie", ["none", "both"])
def test_a_level_roll_bars_both_unless_dogfight_tie_both(tie):
    viper = jet("Viper", [{"when": "advantage >= 1", "do": "attack"}, {"do": "dogfight"}],
                weapon=POP, ref=7, piloting=6, maneuver=2)  # fmt: skip
    flanker = jet("Flanker", [{"do": "attack"}], (300, 0), weapon=POP, ref=7, piloting=6,
                  maneuver=2)  # fmt: skip
    sc = duel([viper], [flanker], max_rounds=4, dogfight_tie=tie)
    level_attacks = level_barred = 0
    last = None
    for e in events_of(sc, range(30)):
        if e["kind"] in ("dogfight", "end"):
            last = e if e["kind"] == "dogfight" else None  # a trial's events end with "end"
        elif last is not None and last["raw"] == 0:
            level_attacks += e["kind"] == "attack"
            level_barred += e["kind"] == "dogfight_barred"
    if tie == "none":
        assert level_barred > 0 and level_attacks == 0
    else:
        assert level_attacks > 0 and level_barred == 0


def test_no_moving_target_penalty_inside_the_dogfight_but_outside_it():
    """The Flanker runs from the Viper at 400 m a phase (-40 to hit it, M-19): the Viper,
    engaged with it, does not take the penalty (VA-16); the Hawk, outside, does."""
    viper = jet("Viper", [{"when": "advantage >= 1 and range <= 700", "do": "attack"},
                          {"do": "dogfight"}], weapon=POP, piloting=30)  # fmt: skip
    # the Hawk waits ahead, out of range until the Flanker has run (its first run, phase 1)
    hawk = jet("Hawk", [{"when": "range <= 700", "do": "attack"}, {"do": "none"}], (1100, 50),
               weapon=POP)  # fmt: skip
    flanker = jet("Flanker", [{"do": "run", "toward": "away"}], (300, 0), ref=7, piloting=0)
    sc = duel([viper, hawk], [flanker], max_rounds=4, criticals="none")
    events = events_of(sc, range(10))
    inside, outside = _attacks(events, "Viper"), _attacks(events, "Hawk")
    assert inside and outside
    moves = [e for e in events if e["kind"] == "move" and e["actor"] == "Flanker"]
    assert moves and all(e["raw"] == 40_000 for e in moves)  # 400 m (cm), every phase
    assert all(e["av"] > -15 for e in inside), [e["av"] for e in inside]
    assert all(e["av"] < -25 for e in outside), [e["av"] for e in outside]


# --- breaking off ---------------------------------------------------------------------------


def _break_off(**rules):
    viper = jet("Viper", [{"when": "advantage >= 1", "do": "break_off"}, {"do": "dogfight"}],
                piloting=40)  # fmt: skip
    flanker = jet("Flanker", DOGFIGHT, (100_000, 0), ref=7, piloting=6)
    return duel([viper], [flanker], max_rounds=8, criticals="none", **rules)


def test_break_off_escapes_after_holding_the_advantage_two_rounds():
    out, _ = counters(_break_off(), n=100)
    # announced in phase 2 (round 1, after its first phase: counts from round 2); rounds 2 and
    # 3 held: it escapes at the start of round 4, phase 13; the Flanker's side holds the field
    assert (out.end_slot == 13).all()
    assert (out.counters["broke_off"][:, 0] == 1).all()
    assert (out.counters["broke_off"][:, 2] == 0).all()
    assert (out.winner == 1).all()
    one, _ = counters(_break_off(break_off_rounds=1), n=100)
    assert (one.end_slot == 9).all()
    lines = api.replay(_break_off(), trial=0)["lines"]
    assert any("announces a break-off from Flanker" in x for x in lines)
    assert any("Viper breaks off from Flanker and escapes" in x for x in lines)


def test_break_off_time_d6_half_rolls_one_to_three_rounds():
    out, _ = counters(_break_off(break_off_time="d6_half"), n=3000)
    ends = out.end_slot
    assert set(np.unique(ends).tolist()) == {9, 13, 17}
    for t in (9, 13, 17):  # ceil(1d6 / 2): each a third
        p = (ends == t).mean()
        assert abs(p - 1 / 3) < 4 * math.sqrt(2 / 9 / 3000)


def test_the_announcement_lapses_when_a_roll_is_not_won_and_mutual_agreement_ends_both():
    viper = jet("Viper", [{"when": "advantage >= 1", "do": "break_off"}, {"do": "dogfight"}],
                piloting=7)  # fmt: skip
    flanker = jet("Flanker", DOGFIGHT, (100_000, 0), ref=7, piloting=7)
    events = events_of(duel([viper], [flanker], max_rounds=8), range(10))
    assert any(e["kind"] == "break_off" and e["roll"] == 1 for e in events)  # lapsed
    both = [{"when": "advantage != 0", "do": "break_off"}, {"do": "dogfight"}]
    sc = duel([jet("Viper", both, piloting=40)],
              [jet("Flanker", both, (100_000, 0), ref=7, piloting=6)],
              max_rounds=4, criticals="none")  # fmt: skip
    out, _ = counters(sc, n=50)
    assert (out.winner == codes.DRAW).all()
    assert (out.counters["broke_off"][:, [0, 2]] == 1).all()


# --- every switch reaches the kernel ---------------------------------------------------------


def test_dogfight_cadence_round_rolls_once_a_round():
    phase, _ = counters(both_dogfight(max_rounds=2), n=50)
    per_round, _ = counters(both_dogfight(max_rounds=2, dogfight_cadence="round"), n=50)
    # engaged at the start of phase 2: its first roll then; after it, a roll every phase (7 in
    # all), or at the start of round 2 only (2)
    assert (phase.counters["dogfight_rolls"][:, 0] == 7).all()
    assert (per_round.counters["dogfight_rolls"][:, 0] == 2).all()


def test_intercept_perception_makes_the_first_roll_int_plus_perception():
    viper = jet("Viper", DOGFIGHT, piloting=0, maneuver=0, int_=10, perception=30)
    flanker = jet("Flanker", DOGFIGHT, (100_000, 0), piloting=30, int_=1, perception=0)
    won = {}
    for how in ("scenario", "perception"):
        out, _ = counters(duel([viper], [flanker], criticals="none", intercept=how), n=50)
        won[how] = out.counters["dogfight_won"][:, 0]
    assert (won["scenario"] == 0).all() and (won["perception"] == 1).all()
    events = events_of(duel([viper], [flanker], criticals="none", intercept="perception"),
                       range(1))  # fmt: skip
    first = next(e for e in events if e["kind"] == "dogfight")
    assert first["action"] == "run"  # EV_ACTION 2: dogfight.DF_INTERCEPT (fight_log's names)
    assert first["actor"] == "Viper" and first["raw"] > 0


# --- the tactics' words and the errors --------------------------------------------------------


def test_advantage_and_tailing_read_the_margin_against_the_target():
    viper = jet("Viper", [{"when": "tailing", "do": "none"}, {"do": "dogfight"}], piloting=40)
    sc = duel([viper], [jet("Flanker", DOGFIGHT, (100_000, 0), ref=7, piloting=6)],
              criticals="none")  # fmt: skip
    events = events_of(sc, range(1))
    idle = [e for e in events if e["kind"] == "idle" and e["actor"] == "Viper"]
    assert len(idle) == 3  # tailing from the first roll (phase 2) on: phases 2 to 4 idle


def _error(data_blue, data_red=None, **rules):
    with pytest.raises(ScenarioError) as err:
        duel([data_blue], [data_red or jet("Flanker", DOGFIGHT, (100, 0))], **rules)
    return str(err.value)


def test_bad_input_is_an_error():
    assert "did you mean" in _error(jet("Viper", DOGFIGHT), dogfight_cadence="phases").lower()
    assert "expected none or both" in _error(jet("Viper", DOGFIGHT), dogfight_tie="all")
    assert "break_off_rounds" in _error(jet("Viper", DOGFIGHT), break_off_rounds=0)
    person = {"name": "Ace", "weapon": "Colt Revolver", "tactics": DOGFIGHT}
    assert "needs a flying vehicle" in _error(person)
    tank = jet("Tank", DOGFIGHT, cls="ground")
    message = _error(tank)
    assert "needs a flying vehicle" in message and "tactics[0].do" in message
    rider = jet("Viper", DOGFIGHT)
    rider["vehicle"]["crew"].append({"name": "Gunner", "role": "gunner", "tactics": DOGFIGHT,
                                     "stats": {"REF": 6}, "skills": {"Gunnery": 5}})
    assert "crew member rides" in _error(rider)


def test_a_dogfight_at_a_target_that_does_not_fly_is_idle():
    walker = jet("Walker", [{"do": "none"}], (100, 0), cls="mecha")
    events = events_of(duel([jet("Viper", DOGFIGHT)], [walker]), range(1))
    idle = [e for e in events if e["kind"] == "idle" and e["actor"] == "Viper"]
    assert len(idle) == 4 and not any(e["kind"] == "dogfight" for e in events)


# --- results, narration, the shipped scenario -------------------------------------------------


def test_results_report_the_dogfight_and_the_replay_narrates_it():
    result = simulate(both_dogfight(max_rounds=2), trials=2000, seed=4, threads=1)
    row = next(r for r in result.combatant_stats() if r["combatant"] == "Viper")
    assert row["dogfight_rolls_mean"] == 7.0 and row["broke_off_mean"] == 0.0
    exact = positions(margin_pmf(18, 15))
    won = float(exact["a_advantage"] + exact["a_tailing"])
    se = math.sqrt(7 * won * (1 - won) / 2000)
    assert abs(row["dogfight_won_mean"] - 7 * won) < 4 * se
    assert abs(row["tailing_mean"] - 7 * float(exact["a_tailing"])) < 4 * se
    lines = api.replay(both_dogfight(), trial=0)["lines"]
    assert any("engage in a dogfight" in x for x in lines)
    assert any("wins the dogfight roll by" in x or "draw level" in x for x in lines)


def test_the_jet_scenario_dogfights():
    sc = "scenarios/vehicles/jet-vs-missile-cluster.yaml"
    lines = api.replay(sc, trial=0)["lines"]
    assert any("dogfight" in x for x in lines)
