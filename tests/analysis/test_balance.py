"""Balance search on common random numbers."""

from __future__ import annotations

import pytest

from fuzion_sim import balance
from fuzion_sim.analysis.balance import default_range
from fuzion_sim.errors import FuzionSimError

DUEL = "scenarios/marshal-vs-outlaw.yaml"


def test_integer_bisection_finds_the_closest_value():
    res = balance(DUEL, "sides.blue[0].armor.pd", target=0.5, side="red", trials=10_000, seed=3)
    assert res.bracketed and isinstance(res.value, int) and (res.low, res.high) == (0, 20)
    probs = dict(res.steps)
    # The answer's neighbours straddle the target and the answer is the closer of the two.
    p = probs[res.value]
    neighbours = [probs[v] for v in (res.value - 1, res.value + 1) if v in probs]
    assert any((q - 0.5) * (p - 0.5) <= 0 for q in neighbours)
    assert all(abs(p - 0.5) <= abs(q - 0.5) for q in neighbours)
    lo, hi = res.ci95
    assert lo <= res.win_probability <= hi
    out = res.to_json_dict()
    assert {"param", "value", "side", "win_probability", "ci95", "trials"} <= set(out)


def test_target_out_of_range_reports_the_closer_end():
    res = balance(DUEL, "sides.blue[0].armor.pd", target=0.99, side="red", low=4, high=12,
                  trials=2_000)  # fmt: skip
    assert not res.bracketed and res.value == 4


def test_catalogue_parameter_and_default_side():
    res = balance(DUEL, "sides.red[0].weapon.dc", target=0.5, low=1, high=10, trials=5_000)
    assert res.side == "red" and 1 <= res.value <= 10


def test_default_range():
    assert default_range(6) == (0, 20)
    assert default_range(14) == (0, 28)


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"param": "rules.dice"}, "not a number"),
        ({"param": "sides.blue[0].armor.pd", "side": "green"}, "no side"),
        ({"param": "sides.blue[0].armor.pd", "target": 2}, "target"),
        ({"param": "sides.blue[0].armor.pd", "low": 5, "high": 5}, "empty range"),
    ],
)
def test_bad_input(kwargs, msg):
    with pytest.raises(FuzionSimError, match=msg):
        balance(DUEL, trials=500, **kwargs)


def test_bracketing_pair_and_smallest_value_that_meets_the_target():
    from fuzion_sim import simulate

    res = balance(DUEL, "sides.blue[0].armor.pd", target=0.9, side="blue", trials=4_000, seed=5)
    below, above = res.bracket
    assert above["value"] == below["value"] + 1
    assert below["estimate"] < 0.9 <= above["estimate"]
    assert res.meets == above
    assert res.value in (below["value"], above["value"])
    assert abs(res.estimate - 0.9) == min(abs(below["estimate"] - 0.9),
                                          abs(above["estimate"] - 0.9))  # fmt: skip
    # The smallest value that reaches the target, checked by brute force one step below it.
    pd = above["value"]
    for v, expect in ((pd - 1, False), (pd, True)):
        r = simulate(DUEL, trials=4_000, seed=5, overrides={"sides.blue[0].armor.pd": v})
        assert bool(r.win_probability("blue") >= 0.9) == expect
    lines = " ".join(res.headline())
    assert f"{pd} is the smallest value that reaches it" in lines
    assert "[bold]" in " ".join(res.headline(markup=True))
    out = res.to_json_dict()
    keys = {"param", "value", "trials", "ci95", "metric", "estimate", "bracket", "meets"}
    assert keys <= set(out)
    assert out["metric"] == "win_probability" and out["win_probability"] == out["estimate"]
    assert [b["value"] for b in out["bracket"]] == [pd - 1, pd]
    assert all(len(b["ci95"]) == 2 and b["ci95"][0] <= b["estimate"] <= b["ci95"][1]
               for b in out["bracket"])  # fmt: skip


def test_p_dead_falls_with_armour():
    res = balance(DUEL, "sides.red[0].armor.pd", target=0.05, metric="p_dead",
                  combatant="Marshal", trials=4_000, seed=5)  # fmt: skip
    below, above = res.bracket
    # P(dead) falls as the Marshal's armour rises: "reaching" the target means going under it.
    assert below["estimate"] > 0.05 >= above["estimate"]
    assert res.label == "P(Marshal dead)" and res.side is None and res.combatant == "Marshal"
    assert "win_probability" not in res.to_json_dict()


@pytest.mark.parametrize(("name", "target"), [("kill_time_mean", 5.0), ("kill_time_q90", 7)])
def test_kill_time_metrics(name, target):
    res = balance(DUEL, "sides.blue[0].armor.pd", target=target, metric=name, trials=3_000,
                  seed=5)  # fmt: skip
    assert res.unit == "phase" and res.label.endswith("kill time")
    assert " phases" in res.format_estimate(res.estimate)
    below, above = res.bracket
    assert below["estimate"] < target <= above["estimate"]
    assert res.ci95[0] <= res.estimate <= res.ci95[1]


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"metric": "p_ded"}, "unknown metric 'p_ded'; metrics are win_probability, p_out"),
        ({"metric": "p_dead"}, "p_dead needs a combatant: one of Marshal, Outlaw"),
        ({"metric": "p_dead", "combatant": "Knight"}, "no combatant 'Knight'; combatants are"),
        ({"metric": "p_out", "combatant": "Outlaw", "side": "red"}, "a side applies"),
        ({"metric": "kill_time_mean"}, "needs a target"),
        ({"metric": "kill_time_q90", "target": -1}, "above 0"),
        ({"metric": "kill_time_q0"}, "1 to 99"),
    ],
)
def test_bad_metric_input_names_the_choices(kwargs, msg):
    with pytest.raises(FuzionSimError, match=msg.replace("(", r"\(")):
        balance(DUEL, "sides.blue[0].armor.pd", trials=500, **kwargs)


def test_balance_cli_metric_json_and_headline():
    import json

    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    args = ["balance", DUEL, "--param", "sides.blue[0].armor.pd", "--metric", "p_dead",
            "--combatant", "Outlaw", "--target", "0.01", "--trials", "2000", "--range", "0:12"]
    res = CliRunner().invoke(cli, [*args, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["metric"] == "p_dead" and out["combatant"] == "Outlaw"
    assert out["meets"]["estimate"] <= 0.01 < out["bracket"][0]["estimate"]
    text = CliRunner().invoke(cli, args).output
    assert "P(Outlaw dead)" in text and "smallest value that reaches it" in text
    bad = CliRunner().invoke(cli, ["balance", DUEL, "--param", "sides.blue[0].armor.pd",
                                   "--metric", "p_dead", "--combatant", "Nobody"])  # fmt: skip
    assert bad.exit_code == 2 and "combatants are Marshal, Outlaw" in bad.output
