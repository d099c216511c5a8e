"""Many levers, several goals: goal parsing, the Pareto front, the fresh-seed re-check."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from fuzion_sim.analysis.pareto import pareto, pareto_front, parse_goal
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.scenario.variants import as_base

FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"
LEVERS = ["sides.red[0].armor.pd=4:9", "sides.blue[0].armor.pd=4:9"]


@pytest.fixture(scope="module")
def mirror():
    """A symmetric fight: the Outlaw is a copy of the Marshal (both in PD 6 armour)."""
    base = as_base(FLAGSHIP)
    marshal = base.data["sides"]["red"][0]
    over = [(f"sides.blue[0].{k}", v) for k, v in marshal.items() if k not in ("name", "position")]
    over += [("sides.red[0].armor", {"name": "Coat", "pd": 6}),
             ("sides.blue[0].armor", {"name": "Coat", "pd": 6})]  # fmt: skip
    return base.build(over)


GOALS = ["win_probability[red]=50%", "kill_time_mean<=3"]
RED, BLUE = "sides.red[0].armor.pd", "sides.blue[0].armor.pd"


def test_front_of_a_symmetric_fight_is_its_balanced_settings(mirror):
    # fair (50%) and quick (at most 3 phases on average) pull apart: more armour keeps a fight
    # fair but makes it longer; the fair settings are those with equal armour
    res = pareto(mirror, LEVERS, GOALS, trials=2000, threads=2, finalists=3)
    assert len(res.points) == 36 and res.searched == "every point of the box"
    assert len(res.front) >= 2
    assert (res.front[RED] == res.front[BLUE]).all()
    best = res.front.iloc[0]
    assert (best[RED], best[BLUE]) == (4, 4) and best["kill_time_mean<=3.shortfall"] == 0
    assert best["win_probability[red]=50%.shortfall"] < 4 * 0.5 / math.sqrt(2000)  # 4 SE
    # the finalists were run again on another seed; the quick fair setting still holds
    assert res.recheck_seed != res.seed and len(res.rechecked) == 3
    assert bool(res.rechecked.iloc[0]["holds"])
    assert "fresh seed" in res._repr_html_()


def test_control_a_lopsided_fight_is_fair_off_the_diagonal(mirror):
    weaker = as_base(mirror).build([("sides.blue[0].stats.REF", 6)])
    res = pareto(weaker, LEVERS, GOALS[:1], trials=2000, threads=2, finalists=1)
    fairest = res.front.iloc[0]
    assert fairest[BLUE] > fairest[RED]  # the weaker Outlaw needs the heavier armour


def test_pareto_front_is_the_non_dominated_set():
    costs = np.array([[0, 3], [1, 1], [3, 0], [2, 2], [1, 1]])
    assert pareto_front(costs).tolist() == [True, True, True, False, True]


def test_goals_parse_targets_bands_and_bounds():
    sides, names = ["red", "blue"], ["Marshal", "Outlaw"]
    g = parse_goal("win_probability[blue]=45%:55%", sides, names)
    assert (g.kind, g.low, g.high, g.metric.side) == ("band", 0.45, 0.55, "blue")
    assert g.shortfall(0.5) == 0 and g.shortfall(0.6) == pytest.approx(0.05)
    d = parse_goal("p_dead[Marshal]<=5%", sides, names)
    assert d.kind == "at_most" and d.high == pytest.approx(0.05) and d.low == -math.inf
    assert parse_goal("kill_time_mean=4", sides, names).kind == "target"
    for bad, match in (("win_probability[green]=0.5", "green"), ("p_dead=0.1", "combatant"),
                       ("win_probability=2", "probability"), ("kill_time_mean=6:4", "empty"),
                       ("speed=1", "metric"), ("win_probability", "a goal is")):  # fmt: skip
        with pytest.raises(FuzionSimError, match=match):
            parse_goal(bad, sides, names)


@pytest.mark.parametrize(
    ("path", "levers", "goal"),
    [
        ("scenarios/fudge/two-fair-shooters.yaml",
         ["sides.vaclav[0].weapon.bd=2:6", "sides.alien[0].weapon.bd=2:6"],
         "win_probability[vaclav]=45%:55%"),
        ("scenarios/colour/ken-against-bob.yaml", ["sides.ken[0].weapon.damage=6:10"],
         "win_probability[ken]=50%"),
    ],
)  # fmt: skip
def test_pareto_in_the_other_systems(path, levers, goal):
    res = pareto(path, levers, [goal], trials=1000, threads=2, finalists=2)
    assert len(res.front) >= 1 and len(res.rechecked) >= 1
    assert res.front["total_shortfall"].iloc[0] == res.points["total_shortfall"].min()


def test_a_sobol_sample_when_the_box_is_larger_than_the_budget():
    levers = ["sides.red[0].armor.pd=0:12", "sides.blue[0].armor.pd=0:12"]
    res = pareto(FLAGSHIP, levers, GOALS[:1], trials=300, budget=16, threads=2, finalists=1)
    assert res.searched.startswith("a Sobol sample") and len(res.points) <= 16


def test_cli_pareto(tmp_path, mirror):
    runner = CliRunner()
    out = tmp_path / "pareto"
    ok = runner.invoke(cli, ["pareto", FLAGSHIP, "--param", "sides.blue[0].armor.pd=6:10",
                             "--goal", "win_probability[red]=50%", "--goal",
                             "p_dead[Marshal]<=20%", "--trials", "1000", "--finalists", "2",
                             "-o", str(out), "--json"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    answer = json.loads(ok.output.splitlines()[-1])
    assert answer["points"] == 5 and answer["rechecked"]
    for name in ("points.csv", "front.csv", "rechecked.csv", "pareto.md", "pareto.png"):
        assert (out / name).is_file()
    bad = runner.invoke(cli, ["pareto", FLAGSHIP, "--param", "sides.blue[0].armor.pd=6:10",
                              "--goal", "win_probability[green]=50%"])  # fmt: skip
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "green" in bad.output
