"""The kernels against the exact oracle (fixed seeds): the colours of attack rolls and
one-attack damage pmfs by chi-square, a one-against-one fight's win probability and mean
rounds within 4 standard errors; negative controls that must fail; and the fights the chain
refuses, in one line."""

from __future__ import annotations

import numpy as np
import pytest
from colour_cases import attack, duel, fight, member, scenario, shipped
from scipy import stats

from fuzion_sim import simulate
from fuzion_sim.api import exact_fight
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.systems.base import NotAvailable
from fuzion_sim.systems.colour import exact, run

KEN = member("Ken", abilities={"Fighting": "Good", "Agility": "Good", "Endurance": "Good"},
             weapon="Machine gun")  # fmt: skip
BIG = 1_000_000
P_MIN = 1e-4  # a fixed seed: the p-value of a right pmf stays above this, a wrong one far below


def chi_square(counts: np.ndarray, probs: np.ndarray) -> float:
    """The chi-square p-value of ``counts`` against ``probs``, bins with fewer than 5
    expected merged into their neighbour (0 when ``counts`` has outcomes ``probs`` calls
    impossible)."""
    n = counts.sum()
    size = max(len(counts), len(probs))
    counts = np.pad(counts, (0, size - len(counts))).astype(float)
    probs = np.pad(probs, (0, size - len(probs)))
    if counts[probs == 0].sum() > 0:
        return 0.0
    keep = probs > 0
    counts, probs = counts[keep], probs[keep]
    obs, exp, o, e = [], [], 0.0, 0.0
    for c, p in zip(counts, probs, strict=True):
        o += c
        e += p * n
        if e >= 5:
            obs.append(o)
            exp.append(e)
            o = e = 0.0
    if e > 0 and exp:
        obs[-1] += o
        exp[-1] += e
    if len(exp) < 2:
        return 1.0
    exp = np.array(exp) * n / np.sum(exp)
    return float(stats.chisquare(obs, exp).pvalue)


def one_attack(data: dict, trials: int = 20000, seed: int = 11):
    """The damage and attack-roll colours of the first member's first action in round 1 of
    many fights (both with Health no attack dents), and the kernel that ran it."""
    data = dict(data, max_rounds=1, trials=trials, seed=seed)
    for members in data["sides"].values():
        for m in members:
            m["health"] = BIG
    sc = scenario(data)
    plan = run.compile_scenario(sc)
    out = run.run_chunk(plan, chunk_key(seed, 0), 0, trials)
    return out.dealt[:, 0], out.categories["attack_colours"][0], plan.kernel


CASES = {
    "autofire against armour": duel(KEN, member("Bob", armor="Typical")),
    "crowbar against the padded thug": duel(member("Ken", weapon="Crowbar"),
                                            member("Thug", armor="Padded shirt")),
    "sword through AP": duel(member("Quinn", weapon="Quinn's sword",
                                    abilities={"Fighting": "Excellent"}),
                             member("Robot", armor="Space robot plating")),
    "autofire against roll with blow": duel(KEN, member("Bob", defence="roll_with_blow")),
    "autofire against soak": duel(KEN, member("Bob", defence="soak")),
    "concentrated fire": duel(dict(KEN, actions={"do": "concentrated", "rounds": 10}),
                              member("Bob-Ra", natural_armor="Bob-Ra's hide")),
    "burst against a dodge": duel(dict(KEN, actions={"do": "burst"}), member("Bob")),
    "burst against roll with blow": duel(dict(KEN, actions={"do": "burst"}),
                                         member("Bob", defence="roll_with_blow")),
    "unarmed parry": duel(member("Ken", weapon="Crowbar", abilities={"Fighting": "Good"}),
                          member("Bob", defence="parry", weapon="Fists")),
    "shield crits": duel(member("Ken", weapon="Crowbar", abilities={"Fighting": "Excellent"}),
                         member("Bob", shield="Example shield")),
    "deflecting shield": duel(member("Ken", weapon="Crowbar", abilities={"Fighting": "Remarkable"}),
                              member("Bob", shield="Example shield", shield_mode="deflect")),
    "area and dive": duel(member("G", weapon={"name": "Grenade", "kind": "ranged", "damage": 15,
                                              "area": True}),
                          member("Bob", dive_for_cover=True, dive_areas=2),
                          rules={"dive_fail": "normal_avoid"}),
    "power attack": duel(member("Ken", weapon="Crowbar", actions={"do": "attack", "power": True}),
                         member("Bob", armor=3)),
    "reactive defence": duel(KEN, member("Bob", defence=["dodge", "roll_with_blow", "soak"]),
                             rules={"defence_choice": "reactive"}),
    "rattle": duel(member("Ken", weapon="Crowbar", abilities={"Fighting": "Amazing"}),
                   member("Suit", armor="Power suit"), rules={"armour_rattle": True}),
    "armour FEAT": duel(member("Ken", weapon="Crowbar"), member("Suit", armor="Good"),
                        rules={"armour_roll": "active"}),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_attack_damage_and_colours_against_the_oracle(name):
    data = CASES[name]
    dist = attack(data)
    dealt, colours, _kernel = one_attack(data)
    assert chi_square(np.bincount(dealt), dist.damage) > P_MIN, name
    assert chi_square(colours, dist.colours) > P_MIN, name


def test_negative_controls_fail():
    data = CASES["autofire against armour"]
    dealt, colours, _ = one_attack(data)
    wrong = attack(duel(KEN, member("Bob", armor="Poor")))  # 6 armour instead of 8
    assert chi_square(np.bincount(dealt), wrong.damage) < 1e-8
    weaker = attack(duel(dict(KEN, abilities={"Agility": "Typical"}), member("Bob")))
    assert chi_square(colours, weaker.colours) < 1e-8
    soak = CASES["autofire against soak"]
    dealt, _, _ = one_attack(soak)
    literal = attack(dict(soak, rules={"soak": "literal"}))
    assert chi_square(np.bincount(dealt), literal.damage) < 1e-8


def test_ken_against_bob_run_and_exact_agree():
    sc = shipped("ken-against-bob.yaml")
    answer = exact_fight(sc)
    res = simulate(sc, trials=200_000, progress=False)
    for side in ("ken", "bob"):
        p = answer["sides"][side]["win_probability"]
        se = (p * (1 - p) / res.trials) ** 0.5
        assert abs(res.win_probability(side) - p) < 4 * se
    kt = res.kill_time()
    assert abs(kt["mean"] - answer["kill_time"]["mean"]) < 4 * kt["se"]


@pytest.mark.parametrize("rules", [{}, {"initiative_ties": "simultaneous"},
                                   {"initiative_ties": "agility", "failed_defence_damage": "full"}])
def test_a_general_kernel_duel_against_the_chain(rules):
    data = duel(dict(KEN, actions={"do": "concentrated", "rounds": 6}),
                member("Brute", weapon="Crowbar", abilities={"Strength": "Good"},
                       armor="Poor"), rules=rules, trials=20000, seed=21)  # fmt: skip
    sc = scenario(data)
    assert run.compile_scenario(sc).kernel == "general"
    answer = exact_fight(sc)
    res = simulate(sc, progress=False)
    for side in ("a", "b"):
        p = answer["sides"][side]["win_probability"]
        se = (p * (1 - p) / res.trials) ** 0.5
        assert abs(res.win_probability(side) - p) < 4 * se, side
    p = answer["draw_probability"]
    assert abs(res.draw_probability - p) < 4 * max((p * (1 - p) / res.trials) ** 0.5, 1e-9)
    kt = res.kill_time()
    assert abs(kt["mean"] - answer["kill_time"]["mean"]) < 4 * kt["se"]


def test_the_chain_against_a_wrong_answer_must_fail():
    sc = shipped("ken-against-bob.yaml")
    res = simulate(sc, trials=200_000, progress=False)
    wrong = exact_fight(scenario(duel(
        member("Ken", abilities={"Fighting": "Good", "Agility": "Good", "Endurance": "Good"},
               weapon="Machine gun"),
        member("Bob", weapon="Crowbar", armor="Poor"))))  # fmt: skip
    p = wrong["sides"]["a"]["win_probability"]
    se = (p * (1 - p) / res.trials) ** 0.5
    assert abs(res.win_probability("ken") - p) > 4 * se


@pytest.mark.parametrize(("data", "why"), [
    (fight({"a": [member("A"), member("A2")], "b": [member("B")]}), "one against one"),
    (duel(member("A", actions={"do": "grapple"}), member("B")), "grapple"),
    (duel(member("A", actions={"do": "attack", "called": "head"}), member("B")), "called shots"),
    (duel(member("A"), member("B", force_field=10)), "force field"),
    (duel(member("A"), member("B", defence="soak", abilities={"Endurance": "Remarkable"})),
     "Soak strain"),
    (duel(member("A"), member("B"), rules={"counter_attack": True}), "counter-attacks"),
])  # fmt: skip
def test_fights_the_chain_refuses_say_why(data, why):
    with pytest.raises(NotAvailable) as err:
        exact_fight(scenario(data))
    assert why in str(err.value) and "\n" not in str(err.value)


def test_healing_between_fights():
    assert exact.nights_to_heal(0, 8) == 0
    assert exact.nights_to_heal(17, 8) == 3
    with pytest.raises(NotAvailable):
        exact.nights_to_heal(5, 0)
