"""Comparisons count every outcome: draws and unresolved fights have their columns, their
differences and their place in the verdict, which never calls a side the favourite when a
draw is likelier; what the rules count reads as probabilities beside the means."""

from __future__ import annotations

import numpy as np
import pytest
from fake_results import make_result

from fuzion_sim.analysis.compare import Comparison, paired_difference
from fuzion_sim.report import tables
from fuzion_sim.systems.base import Counter, OutcomeSchema


@pytest.fixture
def fake_result():
    """Results made from counts (``fake_results.py``)."""
    return make_result


#: The car chase scenario: 54.4% draws, crooks 33.5%, police 11.8% (out of 10,000).
CHASE = (3350, 1180, 5440, 30)
#: A variant with fewer draws, in which the crooks lead outright.
CLEAR = (5200, 1300, 3470, 30)


def _cmp(fake_result, *counts, **kw):
    results = [fake_result(c, sides=("crooks", "police"), keep=True, **kw) for c in counts]
    cmp = Comparison([{"rules.moving_target": v} for v in ("absolute", "relative")[:len(counts)]],
                     results)  # fmt: skip
    for i in range(1, len(results)):
        cmp.differences.append({"a": 0, "b": i, **paired_difference(results[0], results[i])})
    return cmp


def test_paired_difference_has_draws_and_unresolved(fake_result):
    cmp = _cmp(fake_result, CHASE, CLEAR)
    d = cmp.differences[0]
    assert d["draw_probability"]["diff"] == pytest.approx((3470 - 5440) / 10_000)
    lo, hi = d["draw_probability"]["ci95"]
    assert lo < d["draw_probability"]["diff"] < hi < 0
    assert d["unresolved_probability"]["diff"] == pytest.approx(0.0)
    total = sum(w["diff"] for w in d["win_probability"].values())
    total += d["draw_probability"]["diff"] + d["unresolved_probability"]["diff"]
    assert total == pytest.approx(0.0, abs=1e-12)


def test_verdict_never_names_a_favourite_less_likely_than_a_draw(fake_result):
    (verdict,) = _cmp(fake_result, CHASE, CLEAR).verdicts()
    assert "the favourite's (crooks)" not in verdict
    assert "the favourite changes" not in verdict
    assert "a draw is the likeliest outcome (54%), crooks the likeliest winner (34%)" in verdict
    assert "crooks is the favourite (52%, a draw 35%)" in verdict  # the variant where it is one
    assert "draws fall from 54%" in verdict
    (same,) = _cmp(fake_result, CHASE, CHASE).verdicts()
    assert "favourite" not in same.replace("no side is the favourite", "")


def test_repr_lists_draws_beside_the_wins(fake_result):
    cmp = _cmp(fake_result, CHASE, CLEAR)
    text = repr(cmp)
    assert "crooks 33.5% (32.6-34.4%), police 11.8%" in text
    assert "draw 54.4% (53.4-55.4%), unresolved 0.3% (0.2-0.4%)" in text
    assert "draw 54.4%" in repr(cmp.results[0])
    assert "P(draw), 95% interval" in cmp._repr_html_()


def test_verdict_with_a_real_favourite_is_unchanged(fake_result):
    (verdict,) = _cmp(fake_result, (6000, 4000, 0, 0), (5000, 5000, 0, 0)).verdicts()
    assert "the favourite's (crooks) edge shrinks from 60% to 50%" in verdict


def test_tables_carry_draw_and_unresolved(fake_result):
    cmp = _cmp(fake_result, CHASE, CLEAR)
    shown = tables.comparison_frame(cmp)
    assert list(shown.columns[1:5]) == [
        "P(crooks wins), 95% interval", "P(police wins), 95% interval",
        "P(draw), 95% interval", "P(unresolved), 95% interval"]  # fmt: skip
    assert shown.iloc[0]["P(draw), 95% interval"].startswith("54.4%")
    raw = cmp.to_frame()
    assert raw.loc[0, "draw_probability"] == pytest.approx(0.544)
    assert raw.loc[0, "unresolved_probability"] == pytest.approx(0.003)
    diffs = tables.differences_frame(cmp)
    assert "P(draw)" in set(diffs["quantity"]) and "P(unresolved)" in set(diffs["quantity"])
    quantities = set(cmp.differences_frame()["quantity"])
    assert {"draw_probability", "unresolved_probability"} <= quantities
    js = cmp.to_json_dict()
    assert js["variants"][0]["unresolved_probability"] == pytest.approx(0.003)
    assert js["differences"][0]["draw_probability"]["diff"] == pytest.approx(-0.197)


def test_no_draw_columns_when_nobody_drew(fake_result):
    shown = tables.comparison_frame(_cmp(fake_result, (60, 40, 0, 0), (50, 50, 0, 0)))
    assert not any("draw" in c or "unresolved" in c for c in shown.columns)


VEHICLE = OutcomeSchema("phase", 3.0, 4, counters=(
    Counter("immobilised", "immobilised", percent=True),
    Counter("crashes", "crashes"),
    Counter("lost_control", "lost_control"),
))  # fmt: skip


def _per_trial(n, hits, width=2):
    """int[n, width]: ``hits[c]`` trials of combatant c counting 2, the rest 0."""
    out = np.zeros((n, width), np.int32)
    for c, k in enumerate(hits):
        out[:k, c] = 2
    return out


def test_vehicle_outcomes_read_as_probabilities_beside_the_means(fake_result):
    n = 1000
    counters = {"immobilised": _per_trial(n, [250, 0]) // 2, "crashes": _per_trial(n, [400, 100]),
                "lost_control": _per_trial(n, [0, 0])}  # fmt: skip
    res = fake_result((500, 300, 200, 0), sides=("crooks", "police"), schema=VEHICLE, keep=True,
                      counters=counters)
    probs = res.counter_probabilities()
    assert probs[("crooks-1", "immobilised")] == pytest.approx(0.25)
    assert probs[("crooks-1", "crashes")] == pytest.approx(0.4)  # mean 0.8, P(>= 1) 0.4
    assert probs[("police-1", "crashes")] == pytest.approx(0.1)
    assert ("crooks-1", "lost_control") not in probs  # never happened: no column
    frame = tables.counters_frame(res)  # 3 quantities, 2 combatants: a row a quantity
    col = frame.set_index("counted")["crooks-1"]
    assert col["P(immobilised)"] == "25.0%"
    assert col["crashes (mean)"] == "0.80" and col["P(crashes ≥ 1)"] == "40.0%"
    cmp = Comparison([{"x": 1}, {"x": 2}], [res, res])
    counted = tables.comparison_counters_frame(cmp).set_index(["combatant", "counted"])
    assert counted.loc[("crooks-1", "P(crashes ≥ 1)"), "x=2"] == "40.0%"
    assert counted.loc[("crooks-1", "P(immobilised)"), "x=1"] == "25.0%"
    assert cmp.to_frame().loc[0, "p_crashes.police-1"] == pytest.approx(0.1)
