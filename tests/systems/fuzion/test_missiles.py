"""Missiles (RULINGS F18; ../shared/rulings/vehicles/: mechanics.md M-42 to
M-45, rulings.md VA-02, VA-20 to VA-26, examples.md E-06): the ``missile:`` weapon and a
vehicle's ``countermeasures``, loading and its errors, the exact ``attack`` (E-06's pmf exactly),
the general kernel held to it (cluster hits by a chi-square and per cell, with a control that
must fail; a single missile over ceil(1d6 / 2) rounds), countermeasure charges, Interlock's
DV - 5, what each switch changes, the tactics' words, the dispatch, narration and the results.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
import yaml
from click.testing import CliRunner
from fight_log import logged, scenario
from oracles import agrees, chi2_p

from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import ScenarioError
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion import dispatch, exact
from fuzion_sim.systems.fuzion.compile import compile_scenario as compile_plan
from fuzion_sim.systems.fuzion.oracle import scenario_attack

#: E-06 (examples.md): AV 10 (REF 6 + Piloting 4), DV 18, 10 fired, HERO with criticals.
E06 = {0: Fraction(181, 216), 1: Fraction(5, 72), 2: Fraction(5, 108), 3: Fraction(1, 36),
       4: Fraction(1, 72), 7: Fraction(1, 7776), 8: Fraction(1, 3888), 9: Fraction(1, 2592),
       10: Fraction(5, 1296)}  # fmt: skip


def jet(name="Jet", ref=6, piloting=4, sdp=10_000, position=(0, 0), tactics=None, **vehicle):
    """An aircraft that never falls (huge SDP, a pilot with 10,000 Hits and Stun against the
    crew row) and, unless told, does nothing."""
    pilot = {"name": f"{name} pilot", "role": "pilot", "stats": {"REF": ref},
             "skills": {"Piloting": piloting}, "hits": 10_000, "stun": 10_000}
    block = {"class": "aircraft", "sdp": sdp, "heading": 0, "crew": [pilot]}
    block.update(vehicle)
    return {"name": name, "vehicle": block, "position": list(position),
            "tactics": tactics or [{"do": "none"}]}  # fmt: skip


def launcher(cluster=10, dv=18, position=(1000, 0), tactics=None, weapon=None, **missile):
    """A person who launches once, in the first phase (``launch``), then waits; REF 7, so
    it acts before the jet's pilot (REF 6)."""
    weapon = weapon or {"name": "AAM", "skill": "Heavy Weapons", "kills": 1, "range": 5000,
                        "missile": {"dv": dv, "cluster": cluster, **missile}}  # fmt: skip
    return {"name": "Launcher", "stats": {"REF": 7}, "skills": {"Heavy Weapons": 4},
            "weapon": weapon, "position": list(position),
            "tactics": tactics or [{"when": "phase == 1", "do": "launch"}, {"do": "none"}]}


def missile_fight(target=None, attacker=None, max_rounds=4, **rules):
    return scenario({"air": [target or jet()], "ground": [attacker or launcher()]},
                    max_rounds=max_rounds, **rules)


def counters(sc, trials, seed=7):
    """Per trial: the missiles that hit combatant 0, its engagements and evasions."""
    plan = fuzion.compile_scenario(sc)
    assert plan.kernel == "general"
    hit, eng, evd = [], [], []
    done, chunk = 0, 0
    while done < trials:
        n = min(trials - done, 1 << 16)
        out = fuzion.run_chunk(plan, chunk_key(seed, chunk), 0, n)
        hit.append(out.counters["missiles_hit"][:, 0])
        eng.append(out.counters["engagements"][:, 0])
        evd.append(out.counters["evaded"][:, 0])
        done += n
        chunk += 1
    return np.concatenate(hit), np.concatenate(eng), np.concatenate(evd)


def _pmf_array(pmf: dict, size: int) -> np.ndarray:
    probs = np.zeros(size)
    for h, p in pmf.items():
        probs[h] = float(p)
    return probs


# --- the exact answer ---------------------------------------------------------------------------


def test_e06_cluster_pmf_exactly_through_attack_json(tmp_path):
    """E-06: 10 missiles at a jet with AV 10 against DV 18: the whole pmf and its mean
    1345/3888, exactly, through ``fuzion-sim attack SCENARIO --json``."""
    data = {"name": "E-06", "system": "fuzion", "rules": {"dice": "hero"},
            "sides": {"air": [jet()], "ground": [launcher()]}}  # fmt: skip
    path = tmp_path / "e06.yaml"
    path.write_text(yaml.safe_dump(data))
    res = CliRunner().invoke(cli, ["attack", str(path), "--attacker", "Launcher", "--target",
                                   "Jet", "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    answer = json.loads(res.output)
    assert {int(k): Fraction(v) for k, v in answer["hits"]["exact"].items()} == E06
    assert Fraction(answer["hits"]["exact_mean"]) == Fraction(1345, 3888)
    assert math.isclose(answer["hits"]["mean"], 1345 / 3888, rel_tol=1e-12)
    assert math.isclose(answer["p_hit"], 35 / 216, rel_tol=1e-12)
    assert answer["p_engage"] == 1.0 and answer["missile"]["evasion"] == 10
    assert E06 == exact.missile_hits(10, 18, 10)


def test_a_single_missile_over_rounds_exactly():
    """One missile: P(clear) = E over R in {1, 2, 3} of p^R (F18); a cluster under
    ``sequence`` rolls every round, the hits spent (VA-23)."""
    p = Fraction(181, 216)  # AV 10 + 3d6 >= 18 with criticals
    pmf = exact.missile_hits(10, 18, 1)
    assert pmf[0] == (p + p**2 + p**3) / 3 and pmf[1] == 1 - pmf[0]
    seq = exact.missile_hits(10, 18, 10, cluster_roll="sequence")
    assert sum(seq.values()) == 1 and seq[0] == (p + p**2 + p**3) / 3
    assert sum(h * q for h, q in seq.items()) > sum(h * q for h, q in E06.items())
    none = exact.missile_hits(10, 18, 1, criticals="none")
    q = Fraction(216 - 35, 216)  # no criticals: 3d6 >= 8 alike
    assert none[0] == (q + q**2 + q**3) / 3
    inter = exact.missile_hits(5, 13, 10, dice="interlock")
    assert sum(inter.values()) == 1 and inter != exact.missile_hits(5, 13, 10, dice="hero")


def test_countermeasures_are_plus_two_and_charges_count():
    """+2 to every roll of an engagement (per_engagement), or a charge a roll (per_roll)."""
    assert exact.missile_hits(10, 18, 10, countermeasures=1) == exact.missile_hits(12, 18, 10)
    assert exact.missile_hits(10, 18, 1, countermeasures=-1, countermeasure_use="per_roll") \
        == exact.missile_hits(12, 18, 1)  # fmt: skip
    one = exact.missile_hits(10, 18, 1, countermeasures=1, countermeasure_use="per_roll")
    assert exact.missile_hits(12, 18, 1)[0] > one[0] > exact.missile_hits(10, 18, 1)[0]


def test_attack_roll_launch_and_interlock_minus_five():
    """VA-20 attack_roll: the launch's attack must hit first; VA-22: DV 18 is 13 under
    Interlock (``minus5``), or stays 18 (``same``)."""
    auto = scenario_attack(missile_fight(), "Launcher", "Jet")
    rolled = scenario_attack(missile_fight(missile_launch="attack_roll"), "Launcher", "Jet")
    assert auto["p_engage"] == 1.0 and 0 < rolled["p_engage"] < 1
    assert math.isclose(rolled["p_hit"], auto["p_hit"] * rolled["p_engage"], rel_tol=1e-12)
    assert compile_plan(missile_fight(dice="interlock")).w_mdv[2] == 13
    assert compile_plan(missile_fight(dice="interlock", missile_dv_interlock="same")).w_mdv[2] == 18
    assert compile_plan(missile_fight()).w_mdv[2] == 18
    inter = scenario_attack(missile_fight(dice="interlock"), "Launcher", "Jet")
    assert inter["missile"]["dv"] == 13 and inter["hits"]["pmf"] != auto["hits"]["pmf"]


# --- the kernel against the exact pmf -----------------------------------------------------------


def test_kernel_cluster_hits_agree_with_exact():
    """The general kernel's missiles per launch against E-06's pmf: a chi-square and every cell
    within 4 standard errors; the pmf of AV 11 (a control) must fail."""
    trials = 40_000
    hits, eng, evaded = counters(missile_fight(), trials)
    assert (eng == 1).all()
    counts = np.bincount(hits, minlength=11)
    probs = _pmf_array(E06, 11)
    assert chi2_p(counts, probs) > 1e-3
    for h in range(11):
        se = math.sqrt(probs[h] * (1 - probs[h]) / trials) + 1e-12
        assert agrees(counts[h] / trials, probs[h], max(se, 1 / trials)), (h, counts[h])
    assert agrees(evaded.mean(), float(E06[0]), math.sqrt(E06[0] * (1 - E06[0]) / trials))
    control = _pmf_array(exact.missile_hits(11, 18, 10), 11)
    assert chi2_p(counts, control) < 1e-6


def test_kernel_cluster_sequence_agrees_with_exact():
    hits, _, _ = counters(missile_fight(cluster_roll="sequence"), 20_000, seed=9)
    probs = _pmf_array(exact.missile_hits(10, 18, 10, cluster_roll="sequence"), 11)
    assert chi2_p(np.bincount(hits, minlength=11), probs) > 1e-3


@pytest.mark.parametrize("timing", ["per_round_free", "per_round_action", "per_phase"])
def test_kernel_single_missile_p_hit_agrees_with_exact(timing):
    """One missile over ceil(1d6 / 2) rounds: P(hit) = 1 - E[p^R], whenever the rolls are
    made (VA-21 changes when, not the odds)."""
    trials = 20_000
    sc = missile_fight(attacker=launcher(cluster=1), missile_timing=timing)
    hits, _, _ = counters(sc, trials, seed=13)
    p = 1 - float(exact.missile_hits(10, 18, 1)[0])
    assert agrees(hits.mean(), p, math.sqrt(p * (1 - p) / trials))


@pytest.mark.parametrize(("rules", "target", "cluster"), [
    ({"dice": "interlock"}, {}, 10),
    ({"dice": "interlock", "missile_dv_interlock": "same"}, {}, 10),
    ({"criticals": "none"}, {}, 10),
    ({"missile_launch": "attack_roll"}, {}, 10),
    ({"countermeasure_use": "per_roll"}, {"countermeasures": 1}, 1),
    ({"cluster_roll": "sequence", "countermeasure_use": "per_roll"}, {"countermeasures": 2}, 6),
    ({"maneuver_in_defence": True}, {"maneuver": 2}, 10),
])  # fmt: skip
def test_kernel_mean_hits_agree_with_exact_under_each_reading(rules, target, cluster):
    """The kernel's mean missiles per launch against ``attack``'s exact mean, within 4
    standard errors, under the switches that change the odds."""
    trials = 20_000
    sc = missile_fight(target=jet(**target), attacker=launcher(cluster=cluster), **rules)
    answer = scenario_attack(sc, "Launcher", "Jet")
    pmf = {int(h): Fraction(p) for h, p in answer["hits"]["exact"].items()}
    mean = sum(h * p for h, p in pmf.items())
    sd = math.sqrt(sum((h - mean) ** 2 * p for h, p in pmf.items()))
    hits, _, _ = counters(sc, trials, seed=17)
    assert agrees(hits.mean(), float(mean), sd / math.sqrt(trials)), (hits.mean(), mean)


def test_kernel_countermeasure_charges():
    """One charge, two launches: the first engagement at +2, the second without (VA-25);
    ``true``: both at +2."""
    trials = 20_000
    twice = [{"when": "phase <= 2", "do": "launch"}, {"do": "none"}]
    att = launcher(cluster=4, tactics=twice)
    for charges, first, second in ((1, 12, 10), (True, 12, 12), (0, 10, 10)):
        sc = missile_fight(target=jet(countermeasures=charges), attacker=att)
        hits, eng, _ = counters(sc, trials, seed=21)
        assert (eng == 2).all()
        mean = sum(float(h * p) for e in (first, second)
                   for h, p in exact.missile_hits(e, 18, 4).items())  # fmt: skip
        sd = math.sqrt(sum(float(h * h * p) for e in (first, second)
                           for h, p in exact.missile_hits(e, 18, 4).items()))  # fmt: skip
        assert agrees(hits.mean(), mean, sd / math.sqrt(trials)), (charges, hits.mean(), mean)
    assert compile_plan(missile_fight(target=jet(countermeasures=True))).m_cm[0] == -1


# --- every switch changes something -------------------------------------------------------------


def test_each_missile_switch_changes_something():
    base = compile_plan(missile_fight())
    # VA-21: the rolls' times (per round at phases 1, 5, 9; per phase at 1, 2, 3)
    att = launcher(cluster=1)

    def evade_times(**rules):
        for trial in range(200):
            _, events = logged(missile_fight(attacker=att, max_rounds=4, **rules), trial)
            times = [e["time"] for e in events if e["kind"] == "evade"]
            if len(times) == 3:
                return times
        raise AssertionError("no engagement of 3 rounds evaded throughout")

    assert evade_times() == [1, 5, 9]
    assert evade_times(missile_timing="per_phase") == [1, 2, 3]
    assert evade_times(missile_timing="per_round_action") == [1, 5, 9]
    # per_round_action: each roll costs the evader's action (it attacks less)
    shooter_jet = jet(tactics=[{"do": "attack"}], weapons=[
        {"name": "Gun", "skill": "Piloting", "dc": 1, "range": 5000}])
    sc_free = missile_fight(target=shooter_jet, attacker=att, max_rounds=3)
    sc_cost = missile_fight(target=shooter_jet, attacker=att, max_rounds=3,
                            missile_timing="per_round_action")  # fmt: skip
    free = fuzion.run_chunk(fuzion.compile_scenario(sc_free), chunk_key(1, 0), 0, 2000)
    cost = fuzion.run_chunk(fuzion.compile_scenario(sc_cost), chunk_key(1, 0), 0, 2000)
    assert cost.attacks[:, 0].mean() < free.attacks[:, 0].mean()
    # VA-24 on foot: DEX + Ranged Evade, or REF + Athletics
    walker = {"name": "Walker", "stats": {"REF": 8, "DEX": 3},
              "skills": {"Ranged Evade": 1, "Athletics": 5}, "hits": 1000, "stun": 1000,
              "weapon": {"name": "Stick", "skill": "Melee", "dc": 1, "kind": "melee"},
              "tactics": [{"do": "none"}]}  # fmt: skip
    foot = compile_plan(missile_fight(target=walker))
    ath = compile_plan(missile_fight(target=walker, missile_evasion_on_foot="ref_athletics"))
    assert (foot.m_evade[0], foot.m_evade_ref[0], ath.m_evade[0], ath.m_evade_ref[0]) == (
        1, 0, 5, 1)
    assert scenario_attack(missile_fight(target=walker), "Launcher", "Walker")["missile"][
        "evasion"] == 4
    assert scenario_attack(missile_fight(target=walker, missile_evasion_on_foot="ref_athletics"),
                           "Launcher", "Walker")["missile"]["evasion"] == 13  # fmt: skip
    # VA-26: the aspect of the hits (the launcher is ahead of the jet: front 2d6+1)
    aspects = {mode: scenario_attack(missile_fight(missile_aspect=mode), "Launcher",
                                     "Jet")["aspect"] for mode in ("launch", "rear", "side")}
    assert aspects == {"launch": "front", "rear": "rear", "side": "side"}
    assert base.options[fuzion.codes.OPT_MISSILE_ASPECT] == 0
    # VA-02: the Maneuver Value in the DV and the missile evasion
    mv = compile_plan(missile_fight(target=jet(maneuver=3), maneuver_in_defence=True))
    no = compile_plan(missile_fight(target=jet(maneuver=3)))
    assert (mv.m_evade[0] - no.m_evade[0], mv.def_ranged[0] - no.def_ranged[0]) == (3, 3)


def test_kernel_rear_aspect_hits_the_rear_rows():
    """``missile_aspect: rear``: the hits roll 2d6+6 (the rudder, crew and weapons)."""
    sc = missile_fight(attacker=launcher(cluster=10, dv=40), missile_aspect="rear")
    plan = fuzion.compile_scenario(sc)
    out = fuzion.run_chunk(plan, chunk_key(3, 0), 0, 200)
    names = list(fuzion.tables.vehicle_location_names())
    loc = out.categories["vehicle_location_hits"][0]
    assert loc[names.index("rudder")] > 0 and loc[names.index("flaps")] == 0


# --- tactics, dispatch, results, narration ------------------------------------------------------


def test_tactic_words_and_attack_launches_too():
    """``missiles`` counts the launches left, ``target.missiles_incoming`` the engagements in
    flight at the target; a plain ``attack`` with a missile weapon launches."""
    tactic = [{"when": "missiles > 0 and not target.missiles_incoming", "do": "attack"},
              {"do": "none"}]  # fmt: skip
    weapon = {"name": "SAM", "skill": "Heavy Weapons", "dc": 6, "range": 5000, "shots": 2,
              "missile": {"cluster": 1, "smartness": "dumb"}}  # fmt: skip
    sc = missile_fight(attacker=launcher(weapon=weapon, tactics=tactic), max_rounds=6)
    assert compile_plan(sc).w_mdv[2] == 14
    _, eng, _ = counters(sc, 2000)
    assert (eng == 2).all()  # two launches, one at a time, then nothing to reload
    _, events = logged(sc, 0)
    launches = [e for e in events if e["kind"] == "launch"]
    assert len(launches) == 2
    evades = [e for e in events if e["kind"] == "evade"]
    assert evades[0]["time"] == launches[0]["time"]


def test_evader_reacts_to_missiles_incoming():
    """``missiles_incoming``: the jet dodges while a missile flies at it."""
    target = jet(tactics=[{"when": "missiles_incoming", "do": "dodge"}, {"do": "none"}],
                 weapons=[{"name": "Gun", "skill": "Piloting", "dc": 1}])
    sc = missile_fight(target=target, attacker=launcher(cluster=1))
    seen = 0
    for trial in range(60):
        _, events = logged(sc, trial)
        first = next(e for e in events if e["kind"] == "evade")
        flying = not first["hit"] and first["through"] > 1  # evaded, more rounds to come
        dodged = [e["time"] for e in events if e["kind"] == "defend" and e["actor"] == "Jet"]
        assert (1 in dodged) == flying, (trial, events)
        seen += flying
    assert seen > 10


def test_missiles_never_go_to_a_specialised_kernel():
    """A plain one-against-one with the default tactics would be the duel kernel's: with a
    missile weapon it is the general kernel's."""
    person = {"name": "Target", "stats": {"REF": 6, "DEX": 6}, "skills": {"Ranged Evade": 3},
              "weapon": "Colt Revolver"}  # fmt: skip
    att = launcher(tactics=[{"do": "attack"}], position=(10, 0))
    plan = compile_plan(missile_fight(target=person, attacker=att))
    assert dispatch.kernel_for(plan) == "general"
    assert not dispatch.no_missiles(plan)
    for name in dispatch.SPECIALISED:
        assert "weapon.missile" in dispatch.blocking_keys(plan, name)
    assert dispatch.no_missiles(compile_plan(missile_fight(attacker={
        **att, "weapon": "Colt Revolver"})))


def test_a_person_takes_each_missile_as_an_autofire_hit():
    """Each missile that hits a person rolls its own damage against the armour (DC 3 against
    PD 2: 0 to 16 through per missile)."""
    person = {"name": "Target", "stats": {"REF": 1, "DEX": 1}, "hits": 10_000, "stun": 10_000,
              "armor": {"name": "Vest", "pd": 2}, "weapon": "Colt Revolver",
              "tactics": [{"do": "none"}]}  # fmt: skip
    weapon = {"name": "Swarm", "skill": "Heavy Weapons", "dc": 3, "range": 5000,
              "missile": {"dv": 30, "cluster": 5}}  # fmt: skip
    sc = missile_fight(target=person, attacker=launcher(weapon=weapon))
    plan = fuzion.compile_scenario(sc)
    out = fuzion.run_chunk(plan, chunk_key(2, 0), 0, 4000)
    assert (out.counters["missiles_hit"][:, 0] == 5).mean() > 0.99
    taken = out.taken[:, 0]
    per = 3 * 3.5 - 2 + 0.0  # about; each of the 5 missiles rolls 3d6 - 2 (at least 0)
    assert abs(taken.mean() - 5 * per) < 1.0


def test_results_json_text_and_narration(tmp_path):
    data = {"name": "E-06", "system": "fuzion", "trials": 2000, "max_rounds": 2,
            "rules": {"dice": "hero"}, "sides": {"air": [jet()], "ground": [launcher()]}}
    path = tmp_path / "e06.yaml"
    path.write_text(yaml.safe_dump(data))
    runner = CliRunner()
    res = runner.invoke(cli, ["run", str(path), "--trials", "2000", "--json"])
    assert res.exit_code == 0, res.output
    per = json.loads(res.output)
    text = json.dumps(per)
    for key in ("missiles_hit_mean", "missile_engagements_mean", "missiles_evaded_mean"):
        assert key in text
    res = runner.invoke(cli, ["run", str(path), "--trials", "2000"])
    assert "Counted by the rules" in res.output and "missiles hit" in res.output
    for trial in range(40):
        res = runner.invoke(cli, ["replay", str(path), "--trial", str(trial)])
        assert res.exit_code == 0, res.output
        if "missiles hit Jet" in res.output:
            break
    assert "Launcher launches a cluster of 10 at Jet" in res.output
    assert "Jet fails to evade Launcher's missiles by" in res.output
    assert "(round 1 of 1" in res.output
    assert "of 10 missiles hit Jet" in res.output


# --- bad input ----------------------------------------------------------------------------------


def _fail(make, match, where, suggestion=None):
    with pytest.raises(ScenarioError) as err:
        make()
    text = str(err.value)
    assert match in text and where in text, text
    assert err.value.suggestion == suggestion
    return err.value


def _with_missile(**missile):
    return lambda: missile_fight(attacker=launcher(**missile))


def _weapon(**keys):
    weapon = {"name": "AAM", "skill": "Heavy Weapons", "dc": 5, "missile": {}, **keys}
    return lambda: missile_fight(attacker=launcher(weapon=weapon))


@pytest.mark.parametrize(("make", "match", "where", "suggestion"), [
    (_with_missile(clustr=3), "unknown key 'clustr'", "sides.ground[0].weapon.missile.clustr",
     "cluster"),
    (lambda: missile_fight(attacker=launcher(cluster=0)), "cluster must be", "missile.cluster",
     None),
    (lambda: missile_fight(attacker=launcher(dv=99)), "dv must be", "missile.dv", None),
    (_with_missile(smartness="genius"), "unknown smartness 'genius'", "missile.smartness",
     None),
    (_with_missile(smartness="smart"), "give dv or smartness, not both", "missile.dv", None),
    (_weapon(autofire=True), "a missile weapon takes no 'autofire'", "weapon.autofire", None),
    (_weapon(kind="melee"), "a missile weapon takes no 'kind'", "weapon.kind", None),
    (_weapon(area="grenade"), "is not built yet", "weapon.area", None),
    (lambda: missile_fight(attacker={**launcher(), "weapon": "Colt Revolver"}),
     "action 'launch' needs a missile weapon", "sides.ground[0].tactics[0].do", "attack"),
    (lambda: missile_fight(attacker={**launcher(), "countermeasures": 2}),
     "countermeasures are a vehicle's", "sides.ground[0].countermeasures", None),
    (lambda: missile_fight(target=jet(countermeasures=-1)), "countermeasures must be",
     "vehicle.countermeasures", None),
    (lambda: missile_fight(target=jet(countermeasure=1)), "unknown key 'countermeasure'",
     "vehicle.countermeasure", "countermeasures"),
    (lambda: missile_fight(cluster_rol="single"), "cluster_rol", "rules", "cluster_roll"),
])  # fmt: skip
def test_bad_missiles_are_one_clear_error(make, match, where, suggestion):
    _fail(make, match, where, suggestion)


def test_a_vehicle_gunner_launches_only_a_missile():
    gunner = {"name": "Gunner", "role": "gunner", "skills": {"Gunnery": 5},
              "tactics": [{"do": "launch"}]}  # fmt: skip
    gun = {"name": "Gun", "skill": "Gunnery", "dc": 5, "operator": "Gunner"}
    target = jet(crew=[{"name": "P", "role": "pilot", "skills": {"Piloting": 3}}, gunner],
                 weapons=[gun])  # fmt: skip
    _fail(lambda: missile_fight(target=target), "action 'launch' needs a missile weapon",
          "vehicle.crew[1].tactics[0].do", "attack")
    sam = {**gun, "missile": {"cluster": 2}}
    target["vehicle"]["weapons"] = [sam]
    sc = missile_fight(target=target)
    assert compile_plan(sc).w_missile[2] == 2
