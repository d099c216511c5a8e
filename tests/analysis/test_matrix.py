"""Balance tables: selectors, common random numbers, dominance, costs, round robin, the command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from fuzion_sim.analysis.matrix import matrix, parse_axis, round_robin
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.scenario.variants import as_base

FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"
ACC = "sides.red[0].weapon.accuracy=-3,0"
PD = "sides.blue[0].armor.pd=4,8"


@pytest.fixture(scope="module")
def planted():
    """Accuracy -3 is a planted dominated copy of the Magnum Pistol; PD 4 of the coat."""
    return matrix(FLAGSHIP, ACC, PD, trials=3000, threads=2)


def test_planted_dominated_items_are_flagged(planted):
    assert planted.dominated_rows() == {"-3": "0"}
    # blue owns the armour: a lower P(red wins) is better for it, so PD 4 is dominated by PD 8
    assert planted.col_better == "lower"
    assert planted.dominated_cols() == {"4": "8"}
    assert "dominated" in planted._repr_html_()
    assert list(planted.ranked()["item"]) == ["0", "-3"]


def test_a_cheaper_item_is_not_dominated_and_costs_give_a_per_cost_view():
    mx = matrix(FLAGSHIP, ACC, PD, trials=3000, threads=2, costs={"-3": 1, "0": 10})
    assert mx.dominated_rows() == {}
    ranked = mx.ranked().set_index("item")
    assert ranked.loc["-3", "per_100"] == pytest.approx(100 * ranked.loc["-3", "mean"])


def test_no_effect_rows_are_identical_on_common_random_numbers_and_not_dominated():
    # Fencing is a skill the Marshal never uses: same fight, same random numbers, same cells
    mx = matrix(FLAGSHIP, "sides.red[0].skills.Fencing=0,5", PD, trials=2000, threads=2)
    grid = mx.grid()
    assert np.array_equal(grid.loc["0"].to_numpy(), grid.loc["5"].to_numpy())
    assert mx.dominated_rows() == {}


def test_cells_keep_every_answer_with_intervals_and_their_warnings():
    mx = matrix(FLAGSHIP, "sides.red[0].weapon=Magnum Pistol,Bolt Action Rifle",
                "sides.blue[0].armor=@catalog:armor[category=modern,pd<=14]", trials=1000,
                threads=2)  # fmt: skip
    assert mx.cols.labels == ["Light Kevlar", "Skin Weave", "Kevlar"]
    cells = mx.to_frame()
    for col in ("win_probability.red", "win_low.red", "p_dead.Outlaw", "p_dead_high.Marshal",
                "kill_time_mean", "kill_time_low", "draw_probability", "warnings"):  # fmt: skip
        assert col in cells.columns
    assert (cells["low"] <= cells["value"]).all() and (cells["value"] <= cells["high"]).all()
    assert "no Rifle skill" in mx.cell_warnings("Bolt Action Rifle", "Kevlar")[0]
    assert mx.cell_warnings("Magnum Pistol", "Kevlar") == []


def test_catalogue_selectors_and_their_errors():
    base = as_base(FLAGSHIP)
    modern = parse_axis(base, "sides.blue[0].armor=@catalog:armor[category=modern]")
    assert len(modern.items) == 6
    heavy = parse_axis(base, "sides.blue[0].armor=@catalog:armor[category=modern,pd>=14]")
    assert 0 < len(heavy.items) < 6
    pistols = parse_axis(base, "sides.red[0].weapon=@catalog:weapons[skill=Handgun|Rifle]")
    assert "Magnum Pistol" in pistols.labels and "Magnum Hunting Rifle" in pistols.labels
    with pytest.raises(FuzionSimError, match="did you mean 'category'"):
        parse_axis(base, "sides.blue[0].armor=@catalog:armor[categry=modern]")
    with pytest.raises(FuzionSimError, match="selects nothing"):
        parse_axis(base, "sides.blue[0].armor=@catalog:armor[category=laser]")
    with pytest.raises(FuzionSimError, match="armour"):
        parse_axis(base, "sides.blue[0].armor=@catalog:armour")


@pytest.mark.parametrize(
    ("path", "rows", "cols", "side"),
    [
        ("scenarios/fudge/two-fair-shooters.yaml", "sides.vaclav[0].weapon.bd=2,4",
         "sides.alien[0].skill=Fair,Good", "vaclav"),
        ("scenarios/colour/ken-against-bob.yaml", "sides.bob[0].armor=0,Remarkable",
         "rules.soak=graded,literal", "bob"),
    ],
)  # fmt: skip
def test_matrix_in_the_other_systems(path, rows, cols, side):
    mx = matrix(path, rows, cols, side=side, trials=1000, threads=2)
    assert mx.grid().shape == (2, 2)
    assert list(mx.dominated_rows()) == [mx.rows.labels[0]]


def test_round_robin_gives_a_matchup_matrix():
    templates = [
        {"name": "Ace", "stats": {"REF": 8, "DEX": 6, "CON": 5, "STR": 5, "BODY": 6}},
        {"name": "Rookie", "stats": {"REF": 3, "DEX": 3, "CON": 5, "STR": 5, "BODY": 6}},
    ]
    mx = round_robin(FLAGSHIP, templates, trials=1500, threads=2)
    grid = mx.grid()
    assert grid.shape == (2, 2) and mx.round_robin
    assert grid.loc["Ace", "Rookie"] > grid.loc["Rookie", "Ace"]
    assert mx.dominated_rows() == {"Rookie": "Ace"}


def test_cli_matrix_writes_its_files_and_fails_in_one_line(tmp_path):
    runner = CliRunner()
    out = tmp_path / "mx"
    ok = runner.invoke(cli, ["matrix", FLAGSHIP, "--rows", ACC, "--cols", PD, "--trials", "1000",
                             "-o", str(out), "--json"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    answer = json.loads(ok.output.splitlines()[-1])
    assert answer["dominated_rows"] == {"-3": "0"} and len(answer["cells"]) == 4
    for name in ("cells.csv", "cells.parquet", "ranked.csv", "matrix.md", "heatmap.png"):
        assert (out / name).is_file()
    text = runner.invoke(cli, ["matrix", FLAGSHIP, "--rows", ACC, "--cols", PD, "--trials", "500"])
    assert text.exit_code == 0 and "dominated by 0" in text.output
    bad = runner.invoke(cli, ["matrix", FLAGSHIP, "--rows", ACC, "--cols",
                              "sides.blue[0].armor=@catalog:armor[categry=modern]"])  # fmt: skip
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "categry" in bad.output
    none = runner.invoke(cli, ["matrix", FLAGSHIP, "--rows", ACC])
    assert none.exit_code == 2 and "--cols" in none.output
