"""Number formatting shared by the terminal, the reports and the notebook view."""

from __future__ import annotations

from fuzion_sim import fmt


def test_percentages_with_intervals():
    assert fmt.pct_interval(0.5969, 0.5910, 0.6020) == "59.7% (59.1-60.2%)"
    assert fmt.pct(0.5969) == "59.7%"
    # Near 0 and 1 the decimals grow, so a probability below 1 never reads "100.0%".
    assert fmt.pct(0.9996) == "99.96%" and fmt.pct(0.0004) == "0.04%"
    assert fmt.pct(1.0) == "100.0%" and fmt.pct(0.0) == "0.0%"
    assert fmt.pct(None) == "-"


def test_points_and_signed_differences():
    assert fmt.pts(0.0005333) == "+0.05 pts"
    assert fmt.pts(-0.0503) == "-5.03 pts"
    assert fmt.pts_interval(0.0404, 0.0563) == "+4.04 to +5.63 pts"
    assert fmt.signed(-0.33, "phase") == "-0.33 phases"
    assert fmt.signed(0.0, "phase") == "0 phases" and fmt.signed(1.0, "phase") == "+1 phases"
    assert fmt.signed_interval(-0.4, -0.27, "phase") == "-0.40 to -0.27 phases"
    assert fmt.num_interval(4.47, 4.46, 4.48) == "4.47 (4.46-4.48)"
    assert fmt.num_interval(-0.33, -0.40, -0.27) == "-0.33 (-0.40 to -0.27)"
    # A narrow interval gets the decimals it needs to read as an interval.
    assert fmt.num_interval(13.404, 13.372, 13.436, digits=1) == "13.40 (13.37-13.44)"
    assert fmt.num_interval(4.0, 4.0, 4.0) == "4 (4-4)"
    assert fmt.num_range(2, 8) == "2 to 8" and fmt.num_range(0.5, 2.0) == "0.50 to 2.00"


def test_pairs_never_read_the_same_when_they_differ():
    assert fmt.pct_pair(0.51, 0.46) == ("51%", "46%")
    assert fmt.pct_pair(0.9991, 0.9999) == ("99.91%", "99.99%")
    assert fmt.pct_pair(0.99995, 0.99999) == ("99.995%", "99.999%")
    assert fmt.pct_pair(1.0, 1.0) == ("100%", "100%")
    for a, b in [(0.9996, 1.0), (0.0, 0.0004), (0.3333, 0.3334)]:
        ta, tb = fmt.pct_pair(a, b)
        assert ta != tb


def test_p_value_at_the_permutation_floor():
    assert fmt.p_value(0.001, floor=0.001) == "p < 0.001"
    assert fmt.p_value(0.002, floor=0.001) == "p = 0.002"
    assert fmt.p_value(0.0342) == "p = 0.034"
    assert fmt.p_value(None) == ""
