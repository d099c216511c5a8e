"""Every rule switch of every system, flipped on the shipped scenarios, against the systems'
relevance tables (``RuleSystem.inert_switches``).

For each shipped scenario, each switch is set to each other value it takes (each other word;
the other boolean; a number moved inside its bounds), the scenario is loaded (a combination the
loader refuses is counted and skipped), compiled and run at a fixed seed, and every per-trial
outcome (winner, times, damage, attacks, the system's counters and categories) and the
reported time unit are compared with the unflipped fight. Both directions hold:

- a switch the system calls inert changes nothing: identical numbers for every value;
- a switch whose every value gives identical numbers is called inert, unless :data:`RARE`
  explains why it may matter there and the walk's trials did not see it.

A plan identical to the unflipped one gives identical numbers without running. Every switch is
walked on every shipped scenario but the two benchmark fights of 100 and 20 members
(:data:`SKIPPED`), which take most of a second a compile; their members are the kinds the
squad scenarios hold.
"""

from __future__ import annotations

import copy
import functools
import pickle
from pathlib import Path

import numpy as np
import pytest

from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.scenario import read_yaml, scenario_from_dict
from fuzion_sim.systems import get_system

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
#: The shipped scenarios of each system.
FOLDERS = {"fuzion": ("", "vehicles"), "colour": ("colour",), "fudge": ("fudge",)}
#: Benchmark fights left out (compile time), by file name.
SKIPPED = ("line-battle-100v100.yaml", "bench-squad-10v10.yaml")
SEED = 1
TRIALS = 300

#: Where a switch may matter but the walk's trials need not show it: (system, switch) ->
#: (the scenarios it covers, "*" for all, and why). Each reason is a property of the dice or of
#: the fight's course that no table of what a scenario holds can decide.
RARE: dict[tuple[str, str], tuple[tuple[str, ...] | str, str]] = {
    # Fuzion: rare rolls, and the fight's course
    ("fuzion", "criticals"): ("*", "a critical is a 3d6 of 3 or 18: a few a hundred attacks"),
    ("fuzion", "impairment"): ("*", "needs a wounded combatant to act again before it drops"),
    ("fuzion", "stunned"): ("*", "needs a Stun hit past the stunned threshold that does not "
                                 "end the fight"),
    ("fuzion", "dying_can_act"): ("*", "needs a dying combatant to get a turn before its "
                                       "side loses"),
    ("fuzion", "moving_target"): ("*", "relative differs from absolute only when attacker "
                                       "and target both move in one phase"),
    ("fuzion", "dodge_bonus"): ("*", "needs a dodge a tactic takes only when threatened"),
    ("fuzion", "chinks"): ("*", "needs a margin of 10 or more against armour"),
    ("fuzion", "falling_columns"): ("*", "differs past the sixth column only (heavy or high)"),
    ("fuzion", "collision_speed_bands"): ("*", "the two bands agree below 20 m a phase"),
    ("fuzion", "weight_row"): ("*", "the two readings agree on most weights"),
    ("fuzion", "obstacles_block"): ("*", "needs a move or a line of fire through an obstacle"),
    ("fuzion", "hazard_armour"): (("burning-building",), "no one in armour enters the fire"),
    ("fuzion", "electricity_damage"): (("burning-building",), "no one enters the live wires"),
    ("fuzion", "breath_reset"): (("burning-building",), "no one leaves the smoke and re-enters"),
    ("fuzion", "asphyxia_collateral"): (("burning-building",), "no one runs out of breath"),
    ("fuzion", "facing_arcs"): ("*", "differs only for an attack from 30 to 45 degrees off"),
    ("fuzion", "critical_accumulation"): ("*", "needs two critical hits on one location"),
    ("fuzion", "unmanned_dv"): ("*", "needs a vehicle whose pilot is out to be attacked"),
    ("fuzion", "mecha_range_scale"): ("*", "the readings agree unless a vehicle fires at a "
                                           "non-mecha at a range the x10 bands change"),
    ("fuzion", "skid_rounding"): ("*", "needs a skid at a speed the roundings differ at"),
    ("fuzion", "side_ram"): ("*", "needs a ram from the side"),
    ("fuzion", "collision_obstacle"): ("*", "needs a vehicle out of control into an obstacle"),
    ("fuzion", "vehicle_locations"): (("cliff-road-chase",), "the vehicles are seldom shot"),
    ("fuzion", "critical_effects"): ("*", "needs a hit on a critical location"),
    ("fuzion", "location_damage_counts_total"): ("*", "needs a hit on a location"),
    ("fuzion", "no_turret"): ("*", "the readings agree where every vehicle weapon is a turret"
                                   " or a fixed mount that fires anyway"),
    ("fuzion", "weapon_disable_pct"): ("*", "needs Weapon-row damage past the share"),
    ("fuzion", "structural_integrity"): (("mecha-vs-infantry",), "the infantry's guns never "
                                                                "bring a mecha to its last Kills"),
    ("fuzion", "countermeasure_use"): ("*", "needs a second evasion roll of one engagement"),
    # colour: the column tables and the fight's course
    ("colour", "interp_round"): ("*", "needs a rank between two printed columns"),
    ("colour", "cs_steps"): ("*", "needs a column shift from an interpolated rank"),
    ("colour", "cs_clamp"): ("*", "needs a shift past Shift Z or from Class 1000"),
    ("colour", "cs_combine"): ("*", "needs two column shifts on one roll that clamp apart"),
    ("colour", "value_to_rank"): ("*", "needs a number between two ranks' values"),
    ("colour", "super_crit_damage"): ("*", "needs a Super Crit (a d100 of 100)"),
    ("colour", "reduction_order"): ("*", "needs a defence that reduces damage and armour"),
    ("colour", "concentrated_pct"): ("*", "the two readings agree on whole percentages"),
    ("colour", "rwb_rolls"): ("*", "needs a volley met by Roll with Blow or Soak"),
    ("colour", "concentrated_needs_armour"): ("*", "the target has armour"),
    ("colour", "soak_damage_rank"): ("*", "needs a damage between two ranks' values"),
    ("colour", "soak_strain_count"): ("*", "needs a soak of 20 or more"),
    ("colour", "kill_outright_damage"): ("*", "needs a killing blow whose threatened damage "
                                              "reaches Health + Endurance and whose net does "
                                              "not"),
    ("colour", "death_at_shift0"): ("*", "needs a body at Shift 0 while the fight goes on"),
    ("colour", "flee_after_wake"): ("*", "needs a Super Crit Endurance roll"),
    ("colour", "aid_fallen"): ("*", "needs an ally free to aid"),
    ("colour", "health_tracks_endurance"): ("*", "needs a standing body to lose Endurance"),
    ("colour", "armour_rattle"): ("*", "needs a critical on armour above the attack's rank"),
    ("colour", "armour_damage_table"): ("*", "needs an attack two ranks above the armour"),
    ("colour", "armour_breakage"): ("*", "needs a critical met by a Blue or White defence"),
    ("colour", "red_ignores_armour"): ("*", "needs a Red on body armour"),
    ("colour", "block_invalid"): ("*", "needs a block or parry that cannot apply"),
    ("colour", "contest_clamp"): ("*", "needs a responder's roll the clamp changes"),
    ("colour", "release_on_red"): ("*", "needs a Red by the grappled victim"),
    ("colour", "grappled_defence"): ("*", "needs the grappled victim to be attacked"),
    # FUDGE: a blast's damage is fixed by the distance, and the targeting
    ("fudge", "firearms_dead_at"): (("breach", "dynamite"), "no blast lands between the two "
                                                            "Dead thresholds"),
    ("fudge", "out_at"): (("breach",), "no blast leaves anyone between the levels"),
    ("fudge", "ranged_defence"): (("grenade",), "the guards seldom shoot before the blast"),
    ("fudge", "duck_penalty"): (("grenade",), "the grenadier shoots the first guard, whose "
                                              "blast reaches the ducked one"),
    ("fudge", "location_multiplier_on"): (("vaclav-and-hubert",), "every hit lands on the aimed "
                                                                  "leg, where both agree"),
}  # fmt: skip


def _scenarios(system: str) -> list[Path]:
    out = []
    for folder in FOLDERS[system]:
        out += sorted(p for p in (ROOT / folder).glob("*.yaml") if p.name not in SKIPPED)
    return out


CASES = [(system, path) for system in FOLDERS for path in _scenarios(system)]


def alternatives(spec, current) -> list:
    """Every other value of a switch: each other word, the other boolean, a number moved
    halfway to a bound (at most 50 for a whole number)."""
    if isinstance(spec.kind, tuple):
        return [v for v in spec.kind if v != current]
    if spec.kind is bool:
        return [not current]
    low = spec.low if spec.low is not None else 0
    high = spec.high if spec.high is not None else (current or 0) + 10
    if current is None or (spec.nullable and current < low):
        current = low
    up = high > current
    step = (high - current if up else current - low) / 2
    if spec.kind is int:
        step = max(1, min(int(step), 50))
    value = current + step if up else current - step
    return [spec.kind(value)]


@functools.cache
def _base(path: Path):
    data, lines = read_yaml(path)
    scenario = scenario_from_dict(copy.deepcopy(data), str(path), lines)
    return data, lines, scenario


def _numbers(system, plan) -> tuple:
    """Every per-trial outcome of the walk's run, and the time unit."""
    out = system.run_chunk(plan, chunk_key(SEED, 0), 0, TRIALS)
    arrays = [out.winner, out.end_slot, out.out_slot, out.death_slot, out.dealt, out.taken,
              out.attacks, out.landed, *(out.counters[k] for k in sorted(out.counters)),
              *(out.categories[k] for k in sorted(out.categories))]  # fmt: skip
    keys = (tuple(sorted(out.counters)), tuple(sorted(out.categories)))
    return keys, system.outcome_schema(plan).time_unit, arrays


def _same(a, b) -> bool:
    return a[:2] == b[:2] and all(x.shape == y.shape and np.array_equal(x, y)
                                  for x, y in zip(a[2], b[2], strict=True))


def _rare(system: str, name: str, stem: str) -> bool:
    where, _ = RARE.get((system, name), ((), ""))
    return where == "*" or stem in where


@pytest.mark.parametrize(("system_name", "path"), CASES,
                         ids=[f"{s}/{p.stem}" for s, p in CASES])  # fmt: skip
def test_switch_walk(system_name, path):
    system = get_system(system_name)
    data, lines, base = _base(path)
    plan = system.compile(base)
    blob = pickle.dumps((plan, system.outcome_schema(plan)))
    base_numbers = None
    problems = []
    for name, spec in system.switches.items():
        claim = system.inert_switches(base, [name]).get(name)
        changed, loaded = False, 0
        for value in alternatives(spec, base.rules.values[name]):
            flipped = copy.deepcopy(data)
            flipped["rules"] = {**(flipped.get("rules") or {}), name: value}
            try:
                scenario = scenario_from_dict(flipped, str(path), lines)
                other = system.compile(scenario)
            except FuzionSimError:
                continue  # a combination the loader refuses
            loaded += 1
            said = system.inert_switches(scenario, [name]).get(name)
            if pickle.dumps((other, system.outcome_schema(other))) == blob:
                differs = False
            else:
                if base_numbers is None:
                    base_numbers = _numbers(system, plan)
                differs = not _same(base_numbers, _numbers(system, other))
            changed |= differs
            if differs and (said or claim):
                problems.append(f"rules.{name}: {value!r} changes the fight, but it is called "
                                f"inert ({said or claim})")
        if loaded and not changed and not claim and not _rare(system_name, name, path.stem):
            problems.append(f"rules.{name}: no value changes the fight at seed {SEED}, "
                            f"{TRIALS} trials, but it is not called inert")
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def test_rare_names_switches():
    """Every entry of the allow-list names a switch and shipped scenarios of its system."""
    for (system_name, name), (where, why) in RARE.items():
        assert name in get_system(system_name).switches, name
        stems = {p.stem for p in _scenarios(system_name)}
        assert where == "*" or set(where) <= stems, where
        assert why


# --- the load warning ----------------------------------------------------------------------


def _warnings(path: Path, **overrides) -> list[str]:
    from fuzion_sim.scenario import load_scenario

    return list(load_scenario(path, overrides=list(overrides.items())).warnings)


@pytest.mark.parametrize(("path", "key", "value", "reason"), [
    (ROOT / "ambush.yaml", "dogfight_cadence", "round", "no tactic dogfights"),
    (ROOT / "ambush.yaml", "knockback_unit", 2.0, "rules.knockback is off"),
    (ROOT / "colour" / "ken-against-bob.yaml", "shield_crit", "never", "no one has a shield"),
    (ROOT / "fudge" / "two-fair-shooters.yaml", "core_overflow", "ignore",
     "rules.wounds is firearms"),
], ids=["fuzion", "fuzion-number", "colour", "fudge"])  # fmt: skip
def test_load_warns_of_a_switch_set_to_no_effect(path, key, value, reason):
    """A switch the scenario sets (here through an override, as ``--set`` and ``--dice`` do)
    that cannot change its fight is a warning of ``validate``, ``run`` and the API; set to its
    default, or to a value that matters, it is not."""
    expected = f"rules.{key}: has no effect in this scenario ({reason})"
    assert expected in _warnings(path, **{f"rules.{key}": value})
    default = get_system(_base(path)[2].system).switches[key].default
    assert not any(w.startswith(f"rules.{key}:") for w in _warnings(path, **{
        f"rules.{key}": default}))  # fmt: skip
    assert not any(w.startswith("rules.dice") for w in _warnings(
        ROOT / "ambush.yaml", **{"rules.dice": "interlock"}))  # fmt: skip


@pytest.mark.parametrize(("path", "key", "value", "where", "reason"), [
    (ROOT / "ambush.yaml", "sides.bandits[0].resting", True, "resting", "no asphyxiating zone"),
    (ROOT / "ambush.yaml", "sides.bandits[0].weight", 90, "weight",
     "no drop, obstacle, jump, vehicle manoeuvre or thrown object"),
    (ROOT / "vehicles" / "helicopter-vs-armoured-car.yaml",
     "sides.air[0].vehicle.countermeasures", 4, "vehicle.countermeasures", "no missile weapon"),
], ids=["resting", "weight", "countermeasures"])  # fmt: skip
def test_load_warns_of_a_member_key_with_no_effect(path, key, value, where, reason):
    """A member who rests (M-71) with no asphyxiating zone to hold its breath in, a weight with
    nothing to fall or crash into, countermeasures with no missile to meet."""
    name = _base(path)[2].sides[key.split(".")[1].split("[")[0]][0].name
    warnings = _warnings(path, **{key: value})
    assert f"{name}: {where}: has no effect in this scenario ({reason})" in warnings


def test_validate_and_run_print_the_warning(tmp_path):
    """``validate`` prints the warning of a switch written in ``rules:``; ``run`` that of a
    switch's command-line flag (``--soak``)."""
    import yaml
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    data = copy.deepcopy(_base(ROOT / "ambush.yaml")[0])
    data["rules"] = {**(data.get("rules") or {}), "intercept": "perception"}
    path = tmp_path / "ambush.yaml"
    path.write_text(yaml.safe_dump(data))
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 0, res.output
    assert "rules.intercept: has no effect in this scenario (no tactic dogfights)" in res.output
    res = CliRunner().invoke(cli, ["run", str(ROOT / "colour" / "ken-against-bob.yaml"),
                                   "--trials", "20", "--soak", "literal"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "rules.soak: has no effect in this scenario (no one soaks)" in res.output
