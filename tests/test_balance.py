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
