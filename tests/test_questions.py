"""A rule system's own questions (``RuleSystem.questions``): ``fuzion_sim.ask`` and the commands
made from them give the same answers, check their arguments alike, and a system without a
question says so in one line."""

from __future__ import annotations

import json

import pytest
from builders import cli_error
from click.testing import CliRunner
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.systems import get_system

CHASE = SCENARIOS / "vehicles" / "cliff-road-chase.yaml"
FIRE = SCENARIOS / "vehicles" / "burning-building.yaml"
JETS = SCENARIOS / "vehicles" / "jet-vs-missile-cluster.yaml"
ROOF = SCENARIOS / "vehicles" / "rooftop-fall.yaml"
COLOUR = SCENARIOS / "colour" / "bob-ra.yaml"

#: (scenario, question, ask's arguments, the command's options)
CASES = [
    (ROOF, "impact", {"target": "Burglar", "fall": 15}, ["--target", "Burglar", "--fall", "15"]),
    (CHASE, "impact", {"target": "Getaway sedan", "speed": 4.2, "aspect": "rear"},
     ["--target", "Getaway sedan", "--speed", "4.2", "--aspect", "rear"]),
    (FIRE, "hazard", {"hazard": "Gasoline fire", "target": "Torch"},
     ["--hazard", "Gasoline fire", "--target", "Torch"]),
    (CHASE, "manoeuvre", {"vehicle": "Getaway sedan", "name": "high-speed turn"},
     ["--vehicle", "Getaway sedan", "--name", "high-speed turn"]),
    (JETS, "dogfight", {"a": "Viper", "b": "Flanker"}, ["--a", "Viper", "--b", "Flanker"]),
]  # fmt: skip


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_fuzion_lists_its_questions_and_the_others_none():
    assert list(fz.questions("fuzion")) == ["impact", "hazard", "manoeuvre", "dogfight"]
    assert fz.questions("colour") == {} and fz.questions("fudge") == {}
    with pytest.raises(FuzionSimError, match="fudge"):
        fz.questions("fudg")


@pytest.mark.parametrize(("path", "question", "arguments", "options"), CASES)
def test_ask_and_the_command_give_the_same_answer(path, question, arguments, options):
    answer = fz.ask(path, question, **arguments)
    res = invoke(question, path, *options, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == json.loads(json.dumps(answer))
    text = invoke(question, path, *options)
    assert text.exit_code == 0 and text.stdout.strip(), text.output


def test_an_answer_follows_the_scenario():
    """The answer is worked out from the scenario (the control: a higher fall hurts more)."""
    low = fz.ask(ROOF, "impact", target="Burglar", fall=3)
    high = fz.ask(ROOF, "impact", target="Burglar", fall=15)
    assert high["damage"]["mean"] > low["damage"]["mean"]


@pytest.mark.parametrize(
    ("question", "arguments", "words"),
    [
        ("impakt", {"target": "Burglar"}, ["no question of system fuzion", "impact"]),
        ("impact", {"target": "Burglar", "fal": 3}, ["argument of impact", "fall"]),
        ("impact", {"fall": 3}, ["impact: target is required"]),
        ("impact", {"target": "Burglar", "fall": "high"}, ["impact: fall", "high"]),
        ("impact", {"target": "Burglar", "speed": 5, "aspect": "top"}, ["aspect", "top"]),
    ],
)
def test_ask_checks_its_arguments_as_the_command_does(question, arguments, words):
    with pytest.raises(FuzionSimError) as err:
        fz.ask(ROOF, question, **arguments)
    for word in words:
        assert word in str(err.value)


def test_a_system_without_questions_says_so():
    with pytest.raises(FuzionSimError, match="system colour answers no questions"):
        fz.ask(COLOUR, "impact", target="Bob")
    line = cli_error(invoke("impact", COLOUR, "--target", "Bob"))
    assert "system colour answers no questions" in line


def test_the_commands_come_from_the_systems():
    names = {q.name for q in get_system("fuzion").questions()}
    res = invoke("--help")
    assert all(name in res.stdout for name in names)
    res = invoke("manoeuvre", CHASE, "--vehicle", "Getaway sedan", "--name", "high-speed turn",
                 "--rows", "5")  # fmt: skip
    assert "No such option" in res.output and res.exit_code == 2  # no tables: no --rows
