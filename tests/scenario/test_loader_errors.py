"""The loader's messages: keys written with no value, every problem of a file at once, keys of
another system, files that are not regular files, and overrides that name their option."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest
import yaml
from builders import load_error, write_yaml
from click.testing import CliRunner

import fuzion_sim as fz
from fuzion_sim.cli import cli
from fuzion_sim.errors import MAX_PROBLEMS, ScenarioError
from fuzion_sim.scenario import load_scenario, read_yaml, scenario_from_dict
from fuzion_sim.scenario.keys import system_schema
from fuzion_sim.scenario.variants import as_base

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FLAGSHIP = SCENARIOS / "marshal-vs-outlaw.yaml"


def _blank(text: str, line_re: str) -> tuple[str, int]:
    """``text`` with the value of the first line matching ``line_re`` (``KEY: VALUE``, the
    key in group 1) removed, and that line's number."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        match = re.match(line_re, line)
        if match:
            lines[number - 1] = line[: match.end(1)]
            return "\n".join(lines) + "\n", number
    raise AssertionError(f"no line matches {line_re!r}")


# --- a key written with no value ------------------------------------------------------------

#: (scenario, the line whose value is removed (key in group 1), the key path, the key)
EMPTY_KEYS = [
    ("marshal-vs-outlaw.yaml", r"(\s*trials:)", "trials", "trials"),
    ("marshal-vs-outlaw.yaml", r"(\s*dice:)", "rules.dice", "dice"),
    ("marshal-vs-outlaw.yaml", r"(\s*skills:) \{Rifle", "sides.blue[0].skills", "skills"),
    ("marshal-vs-outlaw.yaml", r"(\s*position:) 8", "sides.blue[0].position", "position"),
    ("ambush.yaml", r'(\s*- \{when:) "phase == 1 and', None, "when"),
    ("vehicles/tank-example.yaml", r"(\s*speed:)", None, "speed"),
    ("colour/ken-against-bob.yaml", r"(\s*armor:) Typical", "sides.bob[0].armor", "armor"),
    ("colour/ken-against-bob.yaml", r"(\s*defence:) dodge", "sides.ken[0].defence", "defence"),
    ("colour/ken-against-bob.yaml", r"(\s*seed:)", "seed", "seed"),
    ("fudge/two-fair-shooters.yaml", r"(\s*skill:)", "sides.vaclav[0].skill", "skill"),
    ("fudge/two-fair-shooters.yaml", r"(\s*shot_roll:)", "rules.shot_roll", "shot_roll"),
    ("fudge/bazooka.yaml", r"(\s*max_rounds:)", "max_rounds", "max_rounds"),
    ("fudge/bazooka.yaml", r"(\s*scale:)", "sides.armour[0].scale", "scale"),
]


@pytest.mark.parametrize(("name", "line_re", "key_path", "key"), EMPTY_KEYS)
def test_a_key_with_no_value_is_an_error(tmp_path, name, line_re, key_path, key):
    text, line = _blank((SCENARIOS / name).read_text(), line_re)
    if "{when:" in line_re:  # a flow mapping: give the key an empty value, keep the rest
        text = text.replace("{when:\n", "{when: , do: aim}\n", 1)
    err = load_error(write_yaml(tmp_path, text, "case.yaml"))
    head = [p for p in err.problems if f"'{key}' has no value" in p.message]
    assert head, str(err)
    problem = head[0]
    assert problem.line == line and problem.file.endswith("case.yaml"), str(err)
    assert problem.path.endswith(key) and (key_path is None or problem.path == key_path)
    assert f"case.yaml:{line}: {problem.path}: '{key}' has no value" in str(err)


def test_empty_pd_and_when_in_the_flagship(tmp_path):
    """Both examples of the report: an empty PD and an empty condition."""
    text = FLAGSHIP.read_text().replace("pd: 8}", "pd: }")
    text = text.replace("position: 8", "position: 8\n      tactics:\n        - {do: aim, when: }")
    err = load_error(write_yaml(tmp_path, text, "case.yaml"))
    messages = [p._one() for p in err.problems]
    assert any("sides.blue[0].armor.pd: 'pd' has no value" in m for m in messages), messages
    assert any("sides.blue[0].tactics[0].when: 'when' has no value" in m for m in messages)


#: Where a system's schema lists null among a key's values (null means something there).
NULL_MEANS_SOMETHING = {
    "fuzion": {"rules.autofire_ratio", "*.weapon", "*.armor", "*.vehicle.crew[].weapon",
               "*.vehicle.crew[].armor"},
    "colour": {"*.weapon"},
    "fudge": set(),
}


def _null_keys(schema, path="", out=None):
    """Every key path (members as ``*``) whose schema lists null."""
    out = set() if out is None else out
    if not isinstance(schema, dict):
        return out
    for word in ("oneOf", "anyOf"):
        for alt in schema.get(word, ()):
            _null_keys(alt, path, out)
    if isinstance(schema.get("items"), dict):
        _null_keys(schema["items"], path + "[]", out)
    if isinstance(schema.get("additionalProperties"), dict):
        _null_keys(schema["additionalProperties"], path + ".<key>", out)
    for key, sub in schema.get("properties", {}).items():
        alts = [sub, *sub.get("oneOf", ())]
        if any(a.get("type") == "null" for a in alts):
            out.add(f"{path}.{key}".lstrip("."))
        _null_keys(sub, f"{path}.{key}", out)
    return out


@pytest.mark.parametrize("system", sorted(NULL_MEANS_SOMETHING))
def test_where_null_means_something(system):
    """The keys where null is a meaningful value are the schema's, and no more."""
    found = {re.sub(r"^sides\.<key>(\[\]|\.members\[\])", "*", k)
             for k in _null_keys(system_schema(system))}  # fmt: skip
    assert found == NULL_MEANS_SOMETHING[system]


@pytest.mark.parametrize(
    ("name", "key", "where"),
    [
        ("marshal-vs-outlaw.yaml", "weapon", "red"),
        ("marshal-vs-outlaw.yaml", "armor", "red"),
        ("colour/ken-against-bob.yaml", "weapon", None),
    ],
)
def test_a_meaningful_null_is_kept(name, key, where):
    data, lines = read_yaml(SCENARIOS / name)
    side = where or next(iter(data["sides"]))
    members = data["sides"][side]
    members = members["members"] if isinstance(members, dict) else members
    members[0][key] = None
    scenario_from_dict(data, source=name, lines=lines)
    data.setdefault("rules", {})
    if data.get("system", "fuzion") == "fuzion":
        data["rules"]["autofire_ratio"] = None
        scenario_from_dict(data, source=name, lines=lines)


# --- every problem at once ------------------------------------------------------------------

MANY = """\
system: colour
trials: 0
rules:
  nope: 3
sides:
  blue:
    - name: Ken
      stats: {Fighting: Good}
      armour: Good
  red:
    - name: Bob
      health:
    - name: Bob
"""


def test_every_problem_of_a_file_at_once(tmp_path):
    path = write_yaml(tmp_path, MANY, "case.yaml")
    err = load_error(path)
    lines = str(err).splitlines()
    expected = [
        (2, "trials", "trials must be at least 1"),
        (4, "rules.nope", "unknown key 'nope'"),
        (8, "sides.blue[0].stats",
         "unknown key 'stats' (that is fuzion's name); did you mean 'abilities'?"),
        (9, "sides.blue[0].armour",
         "unknown key 'armour' (that is fudge's name); did you mean 'armor'?"),
        (12, "sides.red[0].health", "'health' has no value"),
        (13, "sides.red[1].name", "duplicate combatant name 'Bob'"),
    ]
    assert len(lines) == len(expected) == len(err.problems), lines
    for text, (line, key_path, what) in zip(lines, expected, strict=True):
        assert text.startswith(f"{path}:{line}: {key_path}: {what}"), (text, line, key_path)
    # the first problem heads the error for code that reads .args, .line and .path
    assert err.args == ("trials must be at least 1, got 0 (allowed: 1 to 1000000000)",) or (
        err.args[0].startswith("trials must be at least 1"))  # fmt: skip
    assert (err.line, err.path) == (2, "trials")


def test_the_cli_prints_each_problem_on_its_own_line(tmp_path):
    path = write_yaml(tmp_path, MANY, "case.yaml")
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 6 and all(x.startswith(f"fuzion-sim: error: {path}:") for x in lines)
    assert "Traceback" not in res.output


def test_the_api_raises_one_error_listing_them(tmp_path):
    path = write_yaml(tmp_path, MANY, "case.yaml")
    with pytest.raises(ScenarioError) as info:
        fz.simulate(str(path), trials=10)
    assert len(str(info.value).splitlines()) == 6


def test_problems_past_the_cap_are_counted(tmp_path):
    junk = "".join(f"junk{i}: {i}\n" for i in range(MAX_PROBLEMS + 7))
    err = load_error(write_yaml(tmp_path, FLAGSHIP.read_text() + junk, "case.yaml"))
    lines = str(err).splitlines()
    assert len(lines) == MAX_PROBLEMS + 1 and lines[-1] == "... and 7 more problems"
    assert len(err.problems) == MAX_PROBLEMS and err.omitted == 7


@pytest.mark.parametrize(
    ("system", "member", "key", "wanted"),
    [
        ("colour", "{name: A, stats: {}}", "stats", "(that is fuzion's name); did you mean "
         "'abilities'?"),
        ("fudge", "{name: A, armor: 1}", "armor",
         "(that is fuzion's and colour's name); did you mean 'armour'?"),
        ("fuzion", "{name: A, armour: x}", "armour",
         "(that is fudge's name); did you mean 'armor'?"),
        ("fuzion", "{name: A, abilities: {}}", "abilities",
         "(that is colour's name); did you mean 'stats'?"),
        ("fudge", "{name: A, tactics: default}", "tactics",
         "(that is fuzion's name); did you mean 'tactic'?"),
        ("colour", "{name: A, skills: {}}", "skills", "(a key of fuzion; colour does not read it)"),
    ],
)  # fmt: skip
def test_a_key_of_another_system_says_so(tmp_path, system, member, key, wanted):
    text = f"system: {system}\nsides:\n  a: [{member}]\n  b: [{{name: B}}]\n"
    err = load_error(write_yaml(tmp_path, text, "case.yaml"))
    assert f"sides.a[0].{key}: unknown key '{key}' {wanted}" in str(err), str(err)


def test_a_top_level_key_of_another_system(tmp_path):
    text = "system: colour\nobstacles: []\nsides:\n  a: [{name: A}]\n  b: [{name: B}]\n"
    err = load_error(write_yaml(tmp_path, text, "case.yaml"))
    assert "obstacles: unknown key 'obstacles' (a key of fuzion; colour does not read it)" in (
        str(err))  # fmt: skip


# --- files that are not regular files ---------------------------------------------------------


def _in_thread(call, seconds: float):
    """``call()``'s exception (or None) if it ends within ``seconds``, else ``"hung"``."""
    box: list = []

    def run():
        try:
            call()
            box.append(None)
        except BaseException as exc:  # handed back to the test
            box.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    return box[0] if box else "hung"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("how", ["load", "simulate", "cli"])
def test_a_fifo_is_refused_unopened(tmp_path, how):
    fifo = tmp_path / "scenario.yaml"
    os.mkfifo(fifo)
    calls = {
        "load": lambda: load_scenario(fifo),
        "simulate": lambda: fz.simulate(str(fifo), trials=10),
        "cli": lambda: _cli_error(["validate", str(fifo)]),
    }
    got = _in_thread(calls[how], 20)
    if got == "hung":  # let the reader go: a writer opens and closes the FIFO
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert isinstance(got, ScenarioError), got
    assert "it is a pipe (FIFO), not a regular file" in str(got)


def _cli_error(args):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    raise ScenarioError(res.stderr)


def test_a_device_is_refused(tmp_path):
    with pytest.raises(ScenarioError, match="it is a character device, not a regular file"):
        load_scenario(os.devnull)


# --- overrides name their option --------------------------------------------------------------


def test_vary_on_a_missing_side_lists_the_sides():
    res = CliRunner().invoke(
        cli, ["compare", str(FLAGSHIP), "--vary", "sides.green[0].armor.pd=3,4", "--trials", "10"]
    )
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        f"fuzion-sim: error: {FLAGSHIP}: --vary sides.green[0].armor.pd=3: no side 'green'; "
        "the sides are red, blue"
    )


def test_a_bad_value_in_an_override_names_the_override_not_a_line():
    res = CliRunner().invoke(
        cli, ["compare", str(FLAGSHIP), "--vary", "sides.blue[0].armor.pd=-3,4", "--trials", "10"]
    )
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert line.startswith(f"fuzion-sim: error: {FLAGSHIP}: --vary sides.blue[0].armor.pd=-3: ")
    assert "must be at least 0" in line and f"{FLAGSHIP}:" + "27" not in line


def test_grid_names_its_option(tmp_path):
    res = CliRunner().invoke(cli, ["sweep", str(FLAGSHIP), "--grid", "rules.dice=hero,nope",
                                   "-o", str(tmp_path / "out"), "--trials", "10"])  # fmt: skip
    assert res.exit_code == 2
    assert f"{FLAGSHIP}: --grid rules.dice=nope: unknown value 'nope'" in res.stderr


@pytest.mark.parametrize("option", ["--set", None])
def test_the_option_is_a_parameter(option):
    """The machinery another option (``--set KEY=VALUE``) reuses: ``Base.build(overrides,
    option=...)`` and ``scenario_from_dict(..., overrides=, option=)``."""
    base = as_base(str(FLAGSHIP))
    with pytest.raises(ScenarioError) as info:
        base.build([("sides.red[0].stats.REF", None)], option=option)
    label = f"{option or 'override'} sides.red[0].stats.REF="
    assert str(info.value) == f"{FLAGSHIP}: {label}: 'REF' has no value (write one, or leave " \
        "the key out for its default)"
    data = yaml.safe_load(FLAGSHIP.read_text())
    with pytest.raises(ScenarioError, match=r"--set rules\.dcie=hero: unknown key 'dcie'"):
        scenario_from_dict(data, overrides=[("rules.dcie", "hero")], option="--set")
    # a problem elsewhere still names its line, beside the override's
    text = FLAGSHIP.read_text().replace("seed: 7", "seed: -1")
    data, lines = yaml.safe_load(text), read_yaml(FLAGSHIP)[1]
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data, "f.yaml", lines, overrides=[("rules.dice", "x")], option="--set")
    assert [p._one()[:30] for p in info.value.problems] == [
        "f.yaml: --set rules.dice=x: un", "f.yaml:5: seed: seed must be a"]
