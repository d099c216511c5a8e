"""The Universal Table, the ladders and column shifts (RULINGS K1-K3; CA1-CA9)."""

from __future__ import annotations

import numpy as np
import pytest
from colour_cases import duel, member, scenario

from fuzion_sim.systems.colour import codes as k
from fuzion_sim.systems.colour.ladder import (
    CS_MAX,
    column_tables,
    ladder,
    normal_name,
    table_columns,
)
from fuzion_sim.systems.colour.ranks import resolve
from fuzion_sim.systems.colour.rules import column


def tables(ladder_name="seed004", interp="down", steps="ladder", clamp="ladder_ends", sc=100):
    return column_tables(ladder_name, interp, steps, clamp, sc)


def thresholds(t, name):
    return tuple(int(v) for v in t.thresholds[t.names.index(name)])


def test_k1_columns_as_ruled():
    names, thr = table_columns()
    assert len(names) == 18
    assert dict(zip(names, map(tuple, thr.tolist()), strict=True))["Typical"] == (50, 80, 97)
    assert tuple(thr[names.index("Shift Z")]) == (3, 35, 75)
    assert tuple(thr[names.index("Beyond")]) == (1, 20, 60)
    assert (np.diff(thr, axis=1) >= 0).all()


@pytest.mark.parametrize(("interp", "expected"), [
    ("down", {"Fantastic": (32, 62, 92), "Spectacular": (27, 57, 90),
              "Phenomenal": (22, 52, 87), "Tremendous": (17, 47, 85)}),
    ("up", {"Fantastic": (33, 63, 92), "Spectacular": (28, 58, 90),
            "Phenomenal": (23, 53, 88), "Tremendous": (18, 48, 85)}),
])  # fmt: skip
def test_ca1_interpolated_columns(interp, expected):
    t = tables(interp=interp)
    for name, want in expected.items():
        assert thresholds(t, name) == want


def test_k3_ladders_and_ca5_standard_values():
    seed = ladder("seed004")
    assert len(seed) == 22
    assert seed.values[:8] == (2, 4, 6, 8, 10, 15, 20, 30) and seed.values[-1] == 10000
    std = ladder("standard")
    assert dict(zip(std.names, std.values, strict=True))["Typical"] == 6
    assert dict(zip(std.names, std.values, strict=True))["Remarkable"] == 30
    assert std.values[0] == 0 and std.values[-1] == 10000


def test_rank_names_ignore_case_and_spaces():
    lad = ladder("seed004")
    assert lad.index("Shift0") == lad.index("Shift 0") == lad.index("shift0") == 0
    assert lad.index("ShiftX") == lad.index("Shift X")
    assert lad.index("Pheneomenal") == lad.index("Phenomenal")  # the seed's typo (M1)
    assert normal_name("Class 1000") == "class1000"


def _col(t, rank_name, cs, lad="seed004"):
    rank = ladder(lad).index(rank_name)
    return t.names[int(t.shift[t.rank_col[rank], cs + CS_MAX])]


def test_ca2_shift_steps():
    by_ladder = tables(steps="ladder")
    assert _col(by_ladder, "Incredible", -1) == "Fantastic"
    assert _col(by_ladder, "Remarkable", +1) == "Fantastic"
    by_table = tables(steps="table")
    assert _col(by_table, "Incredible", -1) == "Remarkable"
    assert _col(by_table, "Fantastic", -1) == "Remarkable"
    assert _col(by_table, "Fantastic", +1) == "Incredible"
    assert _col(by_table, "Fantastic", 0) == "Fantastic"  # its own column unshifted


def test_ca3_clamps():
    ends = tables()
    assert _col(ends, "Shift 0", -3) == "Shift 0"
    assert _col(ends, "Shift Z", +2) == "Class 3000"
    assert _col(ends, "Beyond", +5) == "Beyond"
    msh = tables(clamp="msh")
    assert _col(msh, "Shift Y", +3) == "Shift Z"
    assert _col(msh, "Class 1000", -2) == "Class 1000"


def test_ca4_sum_or_sequential():
    t = tables()
    feeble = int(t.rank_col[ladder("seed004").index("Feeble")])
    summed = column(t.shift, feeble, -3, 2, 0, 0, False)
    sequential = column(t.shift, feeble, -3, 2, 0, 0, True)
    assert t.names[int(summed)] == "Shift 0"
    assert t.names[int(sequential)] == "Poor"


def test_k2_blue_and_super_crit():
    t = tables()
    for name in t.names:
        row = t.colour[t.names.index(name)]
        assert (row[1:6] == k.BLUE).all()  # Blue at d100 <= 5 whatever the rank
        assert row[100] == k.SUPER_CRIT
    # CA8: the bottom columns never roll a plain Red
    for name in ("Shift 0", "Feeble", "Poor"):
        assert k.RED not in t.colour[t.names.index(name), 1:]
    # CA9: Shift Z has no White; on Class 1000 and above Green starts at 06
    assert k.WHITE not in t.colour[t.names.index("Shift Z"), 1:]
    assert t.colour[t.names.index("Class 1000"), 6] == k.GREEN


def test_ca8_super_crit_on_stays_in_the_red_band():
    t = tables(sc=95)
    typical = t.colour[t.names.index("Typical")]
    assert typical[97] == k.YELLOW and typical[95] == k.YELLOW  # never eats a Yellow
    assert (typical[98:] == k.SUPER_CRIT).all()
    excellent = t.colour[t.names.index("Excellent")]
    assert excellent[95] == k.SUPER_CRIT and excellent[94] == k.YELLOW


@pytest.mark.parametrize(("mode", "value", "rank"), [
    ("floor", 25, "Remarkable"), ("floor", 1, "Shift 0"), ("nearest", 25, "Remarkable"),
    ("nearest", 27, "Fantastic"), ("floor", 10000, "Beyond"),
])  # fmt: skip
def test_ca7_numbers_to_ranks(mode, value, rank):
    lad = ladder("seed004")
    assert lad.names[lad.value_rank(value, mode)] == rank


def test_ca6_unknown_rank_nearest_on_the_standard_ladder():
    data = duel(member("A", abilities={"Fighting": "Fantastic"}), member("B"),
                rules={"ladder": "standard", "unknown_rank": "nearest"})  # fmt: skip
    sc = scenario(data)
    value, rank = resolve(sc.combatants[0].abilities["Fighting"], sc.rules)
    assert (value, ladder("standard").names[rank]) == (30, "Remarkable")
