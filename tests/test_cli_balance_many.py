"""``balance`` with several levers or goals runs the Pareto search of ``pareto`` and prints the
same front; with one lever and no goal it is the one-lever search; options of one mode given in
the other are refused with one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fuzion_sim.cli import cli

DUEL = "scenarios/marshal-vs-outlaw.yaml"
LEVERS = ["--param", "sides.red[0].armor.pd=4:5", "--param", "sides.blue[0].armor.pd=4:5"]
GOALS = ["--goal", "win_probability[red]=50%", "--goal", "kill_time_mean<=3"]
RUN = ["--trials", "300", "--seed", "5", "--finalists", "2"]


def _run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _without_time(out: dict) -> dict:
    return {k: v for k, v in out.items() if k != "elapsed"}


def test_balance_with_several_levers_prints_the_pareto_front():
    args = [DUEL, *LEVERS, *GOALS, *RUN]
    many = _run("balance", *args, "--json")
    assert many.exit_code == 0, many.output
    same = _run("pareto", *args, "--json")
    a, b = json.loads(many.output), json.loads(same.output)
    assert _without_time(a) == _without_time(b)
    assert a["points"] == 4 and a["front"]
    text = _run("balance", *args)
    assert text.exit_code == 0, text.output
    assert "trade-offs on the front of 4 points" in text.output


def test_balance_one_lever_and_a_goal_is_the_pareto_search():
    res = _run("balance", DUEL, "--param", "sides.blue[0].armor.pd=4:6",
               "--goal", "win_probability[red]=50%", *RUN, "--json")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["points"] == 3


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([*LEVERS], "--goal"),
        ([*LEVERS, *GOALS, "--target", "0.5"], "--target"),
        ([*LEVERS, *GOALS, "--side", "red"], "--side"),
        (["--param", "sides.blue[0].armor.pd", "--budget", "8"], "--budget needs --goal"),
    ],
)
def test_balance_options_of_the_other_mode_refused(args, says):
    res = _run("balance", DUEL, *args)
    assert res.exit_code == 2
    assert says in res.output and len(res.output.strip().splitlines()) == 1
