"""Fighters without weapons (F14), weapons that can never hurt, and what ``validate`` shows."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SCENARIOS
from fight_log import HARMLESS, dummy, fighter, logged, run, scenario

from fuzion_sim import exact
from fuzion_sim.cli import cli
from fuzion_sim.systems import fuzion
from fuzion_sim.systems.fuzion.model import UNARMED


def attacks(events, actor):
    return [e for e in events if e["kind"] == "attack" and e["actor"] == actor]


def brawler(name, position=0, **extra):
    """REF 6, DEX 5, STR 7, Hand to Hand 4, no weapon key at all."""
    m = {"name": name, "stats": {"REF": 6, "DEX": 5, "STR": 7, "BODY": 5},
         "skills": {"Hand to Hand": 4}, "position": position}  # fmt: skip
    m.update(extra)
    return m


@pytest.mark.parametrize("weapon", [None, "unarmed", "Unarmed", "fists", "none"])
def test_no_weapon_is_the_fists(weapon):
    extra = {} if weapon is None else {"weapon": weapon}
    sc = scenario({"a": [brawler("A", **extra)], "b": [brawler("B", 2)]})
    assert sc.combatants[0].weapon == UNARMED
    assert not [w for w in sc.warnings if "never do damage" in w]


def test_a_brawl_with_no_weapons_knocks_people_out():
    """Two brawlers trade punches (STR 7 d6 of Stun against SD 10): Stun runs out long before
    Hits, so fights end in knockouts, not deaths; on the duel kernel, like any standing duel."""
    sides = {"a": [brawler("A")], "b": [brawler("B", 2)]}
    sc = scenario(sides, max_rounds=20)
    assert fuzion.compile_scenario(sc).kernel == "duel"
    res = run(sides, trials=20_000, max_rounds=20)
    table = res.combatant_table()
    assert res.unresolved_probability < 0.01
    assert (table["p_out"] > 0.3).all() and (table["p_dead"] < 0.01).all()
    assert res.win_probability("a") == pytest.approx(0.5, abs=4 * 0.5 / np.sqrt(20_000) + 0.02)


def test_an_unarmed_attack_is_a_punch_and_agrees_with_exact():
    """The default tactic's attack with no weapon: AV REF + Hand to Hand against DEX + the best
    melee defence skill, STR d6 of Stun against the higher of PD and SD (F14, F20); the hit
    rate and the mean damage per attack agree with ``exact.attack`` within 4 SE."""
    n = 20_000
    target = fighter("B", 2, weapon=HARMLESS, hits=10_000, stun=10_000, skills={"Melee": 2},
                     armor={"name": "Vest", "pd": 4})  # fmt: skip
    res = run({"a": [brawler("A")], "b": [target]}, trials=n, max_rounds=1)
    one = exact.attack(av=6 + 4, dv_base=5 + 2, dc=7, pd=4, sd=10, damage="stun")
    a = res.combatant_table().set_index("combatant").loc["A"]
    attacks_n = a["attacks_mean"] * n
    assert a["attacks_mean"] == 4  # one a phase, four phases
    p_hit = a["hit_rate"]
    assert abs(p_hit - one.p_hit) <= 4 * np.sqrt(one.p_hit * (1 - one.p_hit) / attacks_n)
    pmf = one.damage.to_dict()
    sd = np.sqrt(sum(p * (int(d) - one.mean) ** 2 for d, p in pmf.items()))
    per_attack = a["damage_dealt_mean"] / 4
    assert abs(per_attack - one.mean) <= 4 * sd / np.sqrt(attacks_n)
    # a control that must fail: the punch read as the weapon's (nonexistent) DC 0 would do 0
    assert per_attack > 1.0


def test_haymaker_on_a_punch_is_str_plus_3_dice():
    a = brawler("A", tactics=[{"do": "haymaker"}])
    sc = scenario({"a": [a], "b": [dummy(position=2)]}, max_rounds=40)
    raws = [e["raw"] for e in attacks(logged(sc)[1], "A")]
    assert 10 <= min(raws) and max(raws) <= 60 and max(raws) > 42  # STR 7 + 3 dice
    assert np.mean(raws) == pytest.approx(35, abs=4 * np.sqrt(10 * 35 / 12) / np.sqrt(len(raws)))


def test_a_disarmed_or_unarmed_kick_is_a_kick():
    """A kick is STR + 1 dice at -1 whether or not the kicker holds a weapon (F14)."""
    a = brawler("A", tactics=[{"do": "kick"}])
    sc = scenario({"a": [a], "b": [dummy(position=2)]}, max_rounds=20)
    mine = attacks(logged(sc)[1], "A")
    assert {e["av"] for e in mine} == {6 + 4 - 1}
    assert max(e["raw"] for e in mine) > 42  # 8 dice, more than the punch's 7 can roll


def test_a_weapon_that_can_never_do_damage_warns():
    sc = scenario({"a": [fighter("A", weapon=HARMLESS)], "b": [fighter("B", 10)]})
    assert "A's Feather can never do damage (DC 0: no damage dice)" in sc.warnings
    heavy = {"name": "Cannon", "dc": 2, "min_str": 9, "skill": "Heavy Weapons"}
    sc = scenario({"a": [fighter("A", weapon=heavy, stats={"STR": 5})], "b": [fighter("B")]})
    assert any("can never do damage (DC 2, STR 5 against a minimum of 9" in w
               for w in sc.warnings)  # fmt: skip
    sc = scenario({"a": [fighter("A")], "b": [fighter("B")]})
    assert not [w for w in sc.warnings if "never do damage" in w]


def test_end_warns_that_no_rule_reads_it():
    sc = scenario({"a": [fighter("A", end=40)], "b": [fighter("B")]})
    assert any("end (Endurance)" in w for w in sc.warnings)


def test_validate_shows_effective_dice_and_the_kernel():
    out = CliRunner().invoke(cli, ["validate", str(SCENARIOS / "sword-and-shield-vs-plate.yaml")])
    assert out.exit_code == 0, out.output
    assert "9d6 killing (DC 6 +3 for STR)" in out.output  # a Battle Axe at STR 8
    assert "runs on the general kernel (" in out.output
    out = CliRunner().invoke(cli, ["validate", str(SCENARIOS / "bar-room-brawl.yaml")])
    assert "Fists, 7d6 Stun (a punch at STR 7)" in out.output
    out = CliRunner().invoke(cli, ["validate", str(SCENARIOS / "benchmark-duel.yaml")])
    assert "runs on the plain duel kernel (nothing but Hits and Stun changes)" in out.output
