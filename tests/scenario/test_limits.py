"""Hostile and extreme input: every fault the fuzz found, one minimal case each.

Loading: a NUL byte, recursive aliases, deep nesting, an alias bomb, huge files, huge and
non-finite numbers all end in one ScenarioError line with the file (and line); the Python API
names the bad argument; the exact calculator refuses what would recurse or run for ever.
"""

from __future__ import annotations

import copy
import math

import pytest
import yaml
from builders import cli_error
from click.testing import CliRunner
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim import limits
from fuzion_sim.cli import cli
from fuzion_sim.errors import ArgumentError, FuzionSimError, ScenarioError
from fuzion_sim.scenario import load_scenario, scenario_from_dict

FLAGSHIP = SCENARIOS / "marshal-vs-outlaw.yaml"
SQUAD = SCENARIOS / "squad-4v4.yaml"


def cli_fails(*args) -> str:
    """The command exits 2 with one line on stderr and no traceback; that line."""
    return cli_error(CliRunner().invoke(cli, [str(a) for a in args]))


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


# --- loading ---------------------------------------------------------------------------------


def test_nul_byte_is_one_line_with_file_and_line(tmp_path):
    path = write(tmp_path, "name: x\nsides:\x00 {}\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.line == 2 and "unacceptable character #x0000" in str(err.value)
    assert cli_fails("validate", path).startswith(f"fuzion-sim: error: {path}:2: invalid YAML")


@pytest.mark.parametrize("text", ["a: &r [*r]\nsides: {}\n", "a: &m {b: *m}\nsides: *m\n"])
def test_recursive_alias(tmp_path, text):
    path = write(tmp_path, text)
    assert "refers to a list or mapping that contains it" in cli_fails("validate", path)


@pytest.mark.parametrize("depth", [1000, 5000])
def test_deep_nesting(tmp_path, depth):
    for text in ("sides: " + "[" * depth + "]" * depth, "sides: " + "{a: " * depth + "1"
                 + "}" * depth):  # fmt: skip
        path = write(tmp_path, text + "\n")
        assert f"nesting deeper than {limits.MAX_YAML_DEPTH} levels" in cli_fails("validate", path)


def alias_bomb(levels=9, width=9) -> str:
    lines = ["a0: &a0 [" + ",".join(["x"] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * width) + "]")
    lines.append(f"sides: *a{levels}")
    return "\n".join(lines) + "\n"


def test_alias_bomb_stops_at_the_node_limit(tmp_path):
    path = write(tmp_path, alias_bomb())
    line = cli_fails("validate", path)
    assert f"more than {limits.MAX_YAML_NODES:,} values" in line


def test_aliases_that_stay_small_still_work(tmp_path):
    text = FLAGSHIP.read_text().replace("armor: Light Kevlar", "armor: &kev Light Kevlar")
    text = text.replace("armor: {name: Hide coat, pd: 8}", "armor: *kev")
    assert load_scenario(write(tmp_path, text)).sides["blue"][0].armor.name == "Light Kevlar"


@pytest.mark.parametrize("what", ["name", "junk keys"])
def test_files_over_the_size_limit(tmp_path, what):
    if what == "name":
        text = "name: " + "x" * (limits.MAX_FILE_BYTES + 10) + "\nsides: {}\n"
    else:
        text = "".join(f"k{i}: {i}\n" for i in range(limits.MAX_FILE_BYTES // 8))
    path = write(tmp_path, text)
    assert "larger than 1 MiB" in cli_fails("validate", path)
    with pytest.raises(ScenarioError, match="larger than 1 MiB"):
        fz.simulate(str(path))


def test_a_long_key_is_quoted_short(tmp_path):
    text = FLAGSHIP.read_text() + "\n? " + "k" * 5000 + "\n: 1\n"
    line = cli_fails("validate", write(tmp_path, text))
    assert "unknown key" in line and len(line) < 400


def test_a_key_with_a_line_break_stays_one_line(tmp_path):
    text = FLAGSHIP.read_text() + '\n"bad\\nkey": 1\n'
    assert "bad\\nkey" in cli_fails("validate", write(tmp_path, text))


def test_bad_timestamp_is_one_line(tmp_path):
    path = write(tmp_path, FLAGSHIP.read_text().replace("seed: 7", "seed: !!timestamp 2001-02-30"))
    assert "invalid value" in cli_fails("validate", path)


# --- numbers -----------------------------------------------------------------------------------


def with_data(change):
    data = yaml.safe_load(FLAGSHIP.read_text())
    change(data)
    return data


def red(data):
    return data["sides"]["red"][0]


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        (lambda d: d.update(max_rounds=10**20), "max_rounds", "allowed: 1 to 10000"),
        (lambda d: d.update(trials=10**13), "trials", "allowed: 1 to 1000000000000"),
        (lambda d: d.update(seed=2**63), "seed", "allowed: 0 to 9223372036854775807"),
        (lambda d: red(d)["stats"].update(BODY=2**63), "sides.red[0].stats.BODY",
         "allowed: 1 to 100"),
        (lambda d: red(d).update(hits=10**6), "sides.red[0].hits", "allowed: 1 to 10000"),
        (lambda d: red(d).update(position=math.nan), "sides.red[0].position", "NaN"),
        (lambda d: red(d).update(position=[0, math.inf]), "sides.red[0].position[1]",
         "allowed: -100000 to 100000"),
        (lambda d: red(d).update(position=1e300), "sides.red[0].position", "at most 100000"),
        (lambda d: d.update(rules={"ap_factor": math.nan}), "rules.ap_factor", "NaN"),
        (lambda d: d.update(rules={"knockback_unit": math.inf}), "rules.knockback_unit",
         "at most 1000"),
        (lambda d: d.update(rules={"dying_penalty": 10**9}), "rules.dying_penalty",
         "allowed: 0 to 100"),
        (lambda d: red(d).update(weapon={"name": "Gun", "dc": 10**6, "skill": "Handgun"}),
         "sides.red[0].weapon.dc", "allowed: 0 to 100"),
        (lambda d: red(d).update(weapon={"name": "Gun", "dc": 3, "skill": "Handgun",
                                         "range": math.nan}), "sides.red[0].weapon.range", "NaN"),
        (lambda d: red(d).update(armor={"name": "A", "pd": 2**70}), "sides.red[0].armor.pd",
         "allowed: 0 to 1000"),
    ],
)  # fmt: skip
def test_numbers_out_of_range_name_the_range(change, key, problem):
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict(with_data(change), source="x.yaml")
    assert err.value.path == key, str(err.value)
    assert problem in str(err.value)


def test_yaml_nan_and_inf_positions(tmp_path):
    for word in (".nan", ".inf", "-.inf"):
        text = FLAGSHIP.read_text().replace("position: 8", f"position: {word}")
        assert "position" in cli_fails("validate", write(tmp_path, text))


def test_huge_max_rounds_passes_neither_validate_nor_run(tmp_path):
    text = FLAGSHIP.read_text().replace("max_rounds: 50", "max_rounds: 100000000000000000000")
    path = write(tmp_path, text)
    assert "max_rounds" in cli_fails("validate", path)
    assert "max_rounds" in cli_fails("run", path, "--trials", "200")


def test_squad_with_huge_body_is_refused(tmp_path):
    data = yaml.safe_load(SQUAD.read_text())
    first = next(iter(data["sides"].values()))[0]
    first.setdefault("stats", {})["BODY"] = 2147483648
    path = write(tmp_path, yaml.safe_dump(data))
    assert "BODY must be at most 100" in cli_fails("run", path, "--trials", "200")


def test_too_many_combatants(tmp_path):
    data = yaml.safe_load(FLAGSHIP.read_text())
    member = data["sides"]["blue"][0]
    data["sides"]["blue"] = [{**member, "name": f"O{i}"} for i in range(limits.MAX_COMBATANTS)]
    with pytest.raises(ScenarioError, match=f"more than {limits.MAX_COMBATANTS} combatants"):
        scenario_from_dict(data)


def test_condition_chain_and_constant_are_bounded():
    data = yaml.safe_load((SCENARIOS / "brawler-vs-gunman.yaml").read_text())
    first = next(iter(data["sides"].values()))[0]
    for cond, problem in ((" + ".join(["1"] * 20000) + " > 0", "longer than 500"),
                          ("range > " + "9" * 400, "out of range")):  # fmt: skip
        first["tactics"] = [{"when": cond, "do": "attack"}]
        with pytest.raises(ScenarioError, match=problem):
            scenario_from_dict(copy.deepcopy(data))


# --- the Python API --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"trials": math.nan}, "trials"), ({"trials": 1.5}, "trials"),
        ({"trials": 10**30}, "trials"), ({"trials": 0}, "trials"), ({"trials": True}, "trials"),
        ({"seed": -1}, "seed"), ({"seed": "x"}, "seed"), ({"seed": 2**64}, "seed"),
        ({"threads": 0}, "threads"), ({"threads": 1.0}, "threads"),
        ({"keep_trials": "yes"}, "keep_trials"), ({"backend": "gpu"}, "backend"),
        ({"stop": 3}, "stop"),
    ],
)  # fmt: skip
def test_simulate_names_the_bad_argument(kwargs, name):
    with pytest.raises(ArgumentError, match=rf"^{name}: ") as err:
        fz.simulate(FLAGSHIP, **kwargs)
    assert isinstance(err.value, ValueError) and isinstance(err.value, FuzionSimError)


@pytest.mark.parametrize("scenario", [dict, None, 5, 2.5, b"x.yaml"])
def test_simulate_refuses_what_is_not_a_scenario(scenario):
    with pytest.raises(ArgumentError, match=r"^scenario: expected a Scenario"):
        fz.simulate(scenario)


def test_simulate_accepts_scenario_data():
    data = yaml.safe_load(FLAGSHIP.read_text())
    assert fz.simulate(data, trials=500).trials == 500
    with pytest.raises(ScenarioError, match="missing key 'sides'"):
        fz.simulate({})


def test_overrides_with_huge_integers():
    for path in ("sides.red[0].stats.BODY", "seed", "sides.blue[0].armor.pd", "max_rounds"):
        with pytest.raises(ScenarioError, match="must be at most"):
            load_scenario(FLAGSHIP, overrides=[(path, 2**63)])
    with pytest.raises(ScenarioError, match="override must be a"):
        load_scenario(FLAGSHIP, overrides=["rules.dice"])


def test_other_entry_points_check_their_arguments(tmp_path):
    with pytest.raises(ArgumentError, match=r"^trial: "):
        fz.replay(FLAGSHIP, trial=-1)
    with pytest.raises(ArgumentError, match=r"^seed: "):
        fz.replay(FLAGSHIP, trial=0, seed=-5)
    with pytest.raises(ArgumentError, match=r"^trials: "):
        fz.compare(FLAGSHIP, {"rules.dice": ["hero", "interlock"]}, trials=math.nan)
    with pytest.raises(ArgumentError, match=r"^a comparison of 2 variants: keeps every trial"):
        fz.compare(FLAGSHIP, {"rules.dice": ["hero", "interlock"]}, trials=10**11)
    with pytest.raises(ArgumentError, match=r"^target: "):
        fz.balance(FLAGSHIP, "sides.blue[0].armor.pd", target=math.nan)
    with pytest.raises(ArgumentError, match=r"^seed: "):
        fz.sweep(FLAGSHIP, {"rules.dice": ["hero"]}, seed=1.5)
    with pytest.raises(FuzionSimError, match="more than 10,000"):
        fz.sweep(FLAGSHIP, {"sides.blue[0].armor.pd": "0:1000000000:1"})
    with pytest.raises(ArgumentError, match=r"^scenario: "):
        fz.sweep(None, {"rules.dice": ["hero"]})
    with pytest.raises(ArgumentError, match=r"^keep_trials: keeps every trial"):
        fz.simulate(FLAGSHIP, trials=10**9, keep_trials=True)


def test_exact_attack_bounds():
    with pytest.raises(ArgumentError, match=r"^dc: expected an integer from 0 to 100"):
        fz.exact.attack(av=10, dv_base=10, dc=10**6)
    with pytest.raises(ArgumentError, match=r"^av: "):
        fz.exact.attack(av=math.nan, dv_base=10, dc=3)
    with pytest.raises(ValueError, match=r"^pd: "):
        fz.exact.attack(av=10, dv_base=10, dc=3, pd=1.5)
    with pytest.raises(ArgumentError, match="too big to work out"):
        fz.exact.autofire(av=60, dv_base=5, dc=100, shots=20, ratio=1)
    with pytest.raises(ArgumentError, match=r"^a.hits: "):
        fz.exact.duel(fz.exact.Fighter(10, 10, 3, 0, 10**6), fz.exact.Fighter(10, 10, 3, 0, 30))
    assert fz.exact.attack(av=11, dv_base=9, dc=limits.MAX_DC).p_hit > 0


def test_attack_command_with_a_huge_dc():
    assert "dc: expected an integer from 0 to 100, got 800" in cli_fails(
        "attack", "--av", "11", "--dv-base", "9", "--dc", "800"
    )
