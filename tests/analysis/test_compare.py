"""Comparisons on common random numbers: paired differences, tests and verdicts."""

from __future__ import annotations

import pytest

from fuzion_sim import compare
from fuzion_sim.errors import FuzionSimError

DUEL = "scenarios/marshal-vs-outlaw.yaml"
ARMOUR = {"sides.blue[0].armor.pd": [6, 8]}


@pytest.fixture(scope="module")
def paired():
    return compare(DUEL, ARMOUR, trials=20_000, seed=11)


@pytest.fixture(scope="module")
def independent():
    return compare(DUEL, ARMOUR, trials=20_000, seed=11, common_random_numbers=False)


def _width(ci):
    return ci[1] - ci[0]


def test_common_random_numbers_tighten_the_comparison(paired, independent):
    p, q = paired.differences[0], independent.differences[0]
    assert p["paired"] and not q["paired"]
    # Same trials per variant; the paired intervals are clearly narrower.
    assert _width(p["win_probability"]["red"]["ci95"]) < 0.8 * _width(
        q["win_probability"]["red"]["ci95"]
    )
    assert _width(p["kill_time_mean"]["ci95"]) < 0.8 * _width(q["kill_time_mean"]["ci95"])
    # Both estimate the same difference: they agree within their combined uncertainty.
    d = p["win_probability"]["red"]["diff"] - q["win_probability"]["red"]["diff"]
    se = (p["win_probability"]["red"]["se"] ** 2 + q["win_probability"]["red"]["se"] ** 2) ** 0.5
    assert abs(d) < 4 * se


def test_paired_differences_are_consistent(paired):
    a, b = paired.results
    d = paired.differences[0]
    assert d["a"] == 0 and d["b"] == 1
    for side in a.sides:
        assert d["win_probability"][side]["diff"] == pytest.approx(
            b.win_probability(side) - a.win_probability(side)
        )
    assert d["kill_time_mean"]["diff"] == pytest.approx(
        b.kill_time()["mean"] - a.kill_time()["mean"]
    )
    lo, hi = d["kill_time_median"]["ci95"]
    assert lo <= d["kill_time_median"]["diff"] <= hi
    # More armour for the outlaw: the marshal wins less and the fight lasts longer.
    assert d["win_probability"]["red"]["ci95"][1] < 0
    assert d["kill_time_mean"]["ci95"][0] > 0
    assert 0 < d["kill_time_test"]["p_value"] <= 0.01


def test_same_variant_twice_is_no_difference():
    cmp = compare(DUEL, {"rules.dice": ["hero", "hero"]}, trials=5_000, seed=2)
    d = cmp.differences[0]
    assert d["win_probability"]["red"]["diff"] == 0.0
    assert d["kill_time_mean"]["diff"] == 0.0 and d["kill_time_test"]["p_value"] == 1.0
    assert "does not measurably change" in cmp.verdicts()[0]


def test_cross_product_and_verdict():
    cmp = compare(
        DUEL, [("rules.dice", ["hero", "interlock"]), ("rules.criticals", ["both", "none"])],
        trials=5_000, seed=4,
    )  # fmt: skip
    assert len(cmp.results) == 4 and len(cmp.differences) == 3
    assert cmp.values[3] == {"rules.dice": "interlock", "rules.criticals": "none"}
    out = cmp.to_json_dict()
    assert out["variants"][1]["values"] == {"rules.dice": "hero", "rules.criticals": "none"}
    assert all(v.endswith(".") for v in cmp.verdicts())
    assert len(cmp.differences_frame()) == 3 * 7  # 2 sides, draw, unresolved, 2 times, test


def test_flagship_verdict_wording():
    cmp = compare(DUEL, {"rules.dice": ["hero", "interlock"]}, trials=20_000, seed=7)
    verdict = cmp.verdicts()[0]
    assert verdict.startswith("Interlock ")
    assert "the favourite's (blue)" in verdict


def test_needs_two_variants():
    with pytest.raises(FuzionSimError):
        compare(DUEL, {"rules.dice": ["hero"]}, trials=100)


class _Run:
    """A stand-in Result: only what a verdict reads (sides, win probabilities, intervals)."""

    def __init__(self, **p):
        self.sides = list(p)
        self.p = p

    def win_probability(self, side):
        return self.p[side]

    def win_interval(self, side):
        return (self.p[side] - 0.005, self.p[side] + 0.005)

    def outcome_probability(self, outcome):
        return self.p.get(outcome, 0.0)


def _wins(diff_ci: tuple[float, float], *sides):
    """The part of a difference the favourite's sentence reads."""
    return {"win_probability": {s: {"diff": sum(diff_ci) / 2, "ci95": list(diff_ci)}
                                for s in sides}}  # fmt: skip


def test_verdict_says_when_the_favourite_changes():
    from fuzion_sim.analysis.compare import _favourite

    ra, rb = _Run(lawmen=0.489, raiders=0.511), _Run(lawmen=0.539, raiders=0.461)
    text = _favourite(ra, rb, "HERO", "Interlock", _wins((-0.055, -0.045), "lawmen", "raiders"))
    assert text.startswith("the favourite changes from raiders (51% with HERO) to lawmen (54%")
    assert "edge shrinks" not in text
    # A favourite that slips to level (intervals overlap) loses its edge, no new favourite.
    rb = _Run(lawmen=0.501, raiders=0.499)
    text = _favourite(ra, rb, "HERO", "Interlock", _wins((-0.016, -0.008), "lawmen", "raiders"))
    assert "loses its edge" in text and "level with lawmen" in text


def test_verdict_never_reads_from_100_to_100():
    from fuzion_sim.analysis.compare import _favourite

    ra, rb = _Run(red=0.9991, blue=0.0009), _Run(red=0.9999, blue=0.0001)
    text = _favourite(ra, rb, "a", "b", _wins((0.0004, 0.0012), "red", "blue"))
    assert text == "the favourite's (red) edge grows from 99.91% to 99.99%"
    assert "100%" not in text
    text = _favourite(ra, ra, "a", "b", _wins((-0.0001, 0.0001), "red", "blue"))
    assert text == "the favourite's (red) chance is unchanged within the noise (99.9% vs 99.9%)"


def test_real_comparison_names_the_new_favourite():
    cmp = compare("scenarios/squad-4v4.yaml", ["rules.dice=hero,interlock"], trials=20_000)
    (verdict,) = cmp.verdicts()
    assert "the favourite changes from raiders" in verdict and "to lawmen" in verdict


def test_p_value_at_the_floor_reads_p_below(paired):
    from fuzion_sim.report.tables import differences_frame

    t = paired.differences[0]["kill_time_test"]
    assert t["p_value_floor"] == pytest.approx(0.001)
    frame = differences_frame(paired)
    cell = frame.loc[frame["quantity"].str.startswith("kill-time"), "95% interval"].item()
    at_floor = t["p_value"] <= t["p_value_floor"]
    assert cell == ("p < 0.001" if at_floor else f"p = {t['p_value']:.2g}")
    assert "p=0.001" not in cell
