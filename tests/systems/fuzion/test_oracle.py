"""Fuzion's exact answers to a scenario: ``attack SCENARIO --attacker --target`` and ``exact
SCENARIO`` (the Markov chain over a 1 v 1 standing fight), against the simulation within 4 SE
and against the independent duel chain of ``exact.duel``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SCENARIOS

from fuzion_sim import simulate
from fuzion_sim.api import exact_attack, exact_fight
from fuzion_sim.cli import cli
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems.base import NotAvailable
from fuzion_sim.systems.fuzion import exact

DUEL = SCENARIOS / "benchmark-duel.yaml"


def _cli(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_exact_benchmark_duel_matches_performance_notes():
    """PERFORMANCE-NOTES: P(A wins) = 0.604623, mean 4.318834 phases (sd 0.991137); under
    Interlock with criticals on the attacker's die only 0.573434 and 5.031652."""
    res = _cli("exact", DUEL, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["sides"]["a"]["win_probability"] == pytest.approx(0.604623, abs=5e-7)
    assert out["kill_time"]["mean"] == pytest.approx(4.318834, abs=5e-7)
    assert out["kill_time"]["sd"] == pytest.approx(0.991137, abs=5e-7)
    inter = exact_fight(load_scenario(DUEL, overrides=[("rules.dice", "interlock"),
                                                        ("rules.criticals", "attacker")]))
    assert inter["sides"]["a"]["win_probability"] == pytest.approx(0.573434, abs=5e-7)
    assert inter["kill_time"]["mean"] == pytest.approx(5.031652, abs=5e-7)
    text = _cli("exact", DUEL)
    assert text.exit_code == 0 and "a wins" in text.output and "0.604623" in text.output


@pytest.mark.parametrize("hits", [(30, 30), (20, 35), (44, 18)])
@pytest.mark.parametrize("dice", ["hero", "interlock"])
def test_chain_equals_the_independent_duel_chain(hits, dice):
    """Killing damage, impairment and stunned off, A first: the scenario chain and
    ``exact.duel`` (its own construction) agree to 1e-12."""
    sc = load_scenario(DUEL, overrides=[("rules.dice", dice), ("sides.a[0].hits", hits[0]),
                                        ("sides.b[0].hits", hits[1]), ("sides.a[0].stun", 90),
                                        ("sides.b[0].stun", 90)])  # fmt: skip
    chain = exact_fight(sc)
    a = exact.Fighter(av=11, dv_base=9, dc=4, pd=6, hits=hits[0], stun=90)
    b = exact.Fighter(av=11, dv_base=9, dc=4, pd=6, hits=hits[1], stun=90)
    ref = exact.duel(a, b, dice=dice)
    assert chain["sides"]["a"]["win_probability"] == pytest.approx(ref.p_a_wins, abs=1e-12)
    assert chain["kill_time"]["mean"] == pytest.approx(ref.mean, abs=1e-10)


VARIANTS = {
    "impairment and stunned (the flagship)": ("marshal-vs-outlaw.yaml", []),
    "switch2": ("marshal-vs-outlaw.yaml", [("rules.initiative", "switch2")]),
    "tied REF": ("benchmark-duel.yaml", [("sides.b[0].stats.REF", 7)]),
    "Stun damage, chinks": ("benchmark-duel.yaml", [("sides.a[0].weapon", {
        "name": "Sap", "dc": 5, "damage": "stun", "skill": "Handgun", "range": 50}),
        ("rules.chinks", True), ("rules.stunned", True), ("rules.impairment", True)]),
    "fists": ("benchmark-duel.yaml", [("sides.a[0].weapon", "unarmed"),
                                      ("sides.b[0].position", 2)]),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_chain_agrees_with_the_simulation(name):
    path, overrides = VARIANTS[name]
    sc = load_scenario(SCENARIOS / path, overrides=overrides)
    answer = exact_fight(sc)
    res = simulate(sc, trials=60_000, seed=12, progress=False)
    for side, row in answer["sides"].items():
        p = row["win_probability"]
        assert abs(res.win_probability(side) - p) <= 4 * np.sqrt(p * (1 - p) / res.trials), side
    kt = res.kill_time()
    assert abs(kt["mean"] - answer["kill_time"]["mean"]) <= 4 * kt["se"]
    pmf = answer["kill_time"]["pmf"]
    sim = res.kill_time()["pmf"]
    worst = max(abs(sim.get(int(k), 0.0) - v) / np.sqrt(v * (1 - v) / kt["n"])
                for k, v in pmf.items() if v > 1e-3)  # fmt: skip
    assert worst < 4.5


def test_fights_the_chain_cannot_solve_say_why_in_one_line(tmp_path):
    for path, why in (("squad-4v4.yaml", "one-against-one"),
                      ("brawler-vs-gunman.yaml", "someone must move"),
                      ("marshal-vs-outlaw.yaml", "dying")):  # fmt: skip
        overrides = [("rules.dying_can_act", True)] if why == "dying" else []
        with pytest.raises(NotAvailable, match=why):
            exact_fight(load_scenario(SCENARIOS / path, overrides=overrides))
    res = _cli("exact", SCENARIOS / "squad-4v4.yaml")
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output


def test_validate_mentions_an_exact_answer():
    assert "fuzion-sim exact" in _cli("validate", DUEL).output
    assert "fuzion-sim exact" not in _cli("validate", SCENARIOS / "squad-4v4.yaml").output


def test_attack_from_a_scenario_matches_the_flag_form():
    res = _cli("attack", DUEL, "--attacker", "A", "--target", "B", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    flags = json.loads(_cli("attack", "--av", 11, "--dv-base", 9, "--dc", 4, "--pd", 6,
                            "--json").stdout)  # fmt: skip
    assert out["p_hit"] == flags["p_hit"] and out["damage"] == flags["damage"]
    assert out["attack"] == {"av": 11, "dv_base": 9, "dice": 4, "damage": "killing",
                             "armour": 6, "range_m": 3.0}  # fmt: skip
    text = _cli("attack", DUEL, "--attacker", "A", "--target", "B")
    assert text.exit_code == 0 and "p hit = 0.837963" in text.output


def test_attack_from_a_scenario_with_autofire_knockback_and_locations():
    sc = load_scenario(SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[
        ("rules.knockback", True), ("rules.hit_locations", "random")])  # fmt: skip
    out = exact_attack(sc, "Marshal", "Outlaw")
    assert set(out) >= {"p_hit", "damage", "knockback", "locations"}
    assert sum(out["locations"].values()) == pytest.approx(1)
    sc = load_scenario(SCENARIOS / "burst-fire-duel.yaml")
    name = [c.name for c in sc.combatants]
    out = exact_attack(sc, name[0], name[1])
    assert "hits" in out and sum(out["hits"]["pmf"].values()) == pytest.approx(1)


def test_attack_errors_are_one_line():
    for args, text in (
        ([DUEL, "--attacker", "A"], "--attacker NAME and --target NAME"),
        ([DUEL, "--attacker", "A", "--target", "Zed"], "no target 'Zed'"),
        ([DUEL, "--attacker", "A", "--target", "B", "--av", 3], "flag form"),
        (["--av", 3, "--dv-base", 4], "--dc"),
        (["--attacker", "A"], "need a SCENARIO"),
    ):
        res = _cli("attack", *args)
        assert res.exit_code == 2, (args, res.output)
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and text in lines[0], lines
