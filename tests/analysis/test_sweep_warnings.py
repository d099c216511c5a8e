"""A sweep keeps each point's scenario warnings: in its table (and so its CSV, terminal
table and report), and handed to ``warn`` as the point is set up. The fights are faked: what
is checked is where the warnings go, not a kernel."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_results import make_result

import fuzion_sim as fz
from fuzion_sim.report.tables import sweep_frame


@pytest.fixture
def fake_result():
    """Results made from counts (``fake_results.py``)."""
    return make_result


FLAGSHIP = Path(__file__).resolve().parents[2] / "scenarios" / "marshal-vs-outlaw.yaml"
GRID = {"sides.red[0].weapon": ["Magnum Pistol", "Submachine Gun"]}


@pytest.fixture
def fake_runs(monkeypatch, fake_result):
    import fuzion_sim.analysis.simulation

    def simulate(scenario, trials=None, seed=None, **_kw):
        return fake_result((trials, 0, 0, 0), sides=scenario.side_names)

    monkeypatch.setattr(fuzion_sim.analysis.simulation, "simulate", simulate)


@pytest.mark.parametrize("to_folder", [False, True])
def test_point_warnings_travel_with_the_point(fake_runs, tmp_path, to_folder):
    told = []
    out = tmp_path / "sw" if to_folder else None
    table = fz.sweep(FLAGSHIP, GRID, trials=20, seed=1, warn=told.append, out_dir=out,
                     plots=False)  # fmt: skip
    assert list(table["warnings"]) == ["", "Marshal has no Submachine Gun skill; it counts 0"]
    assert told == ["weapon=Submachine Gun: Marshal has no Submachine Gun skill; it counts 0"]
    shown = sweep_frame(table, list(GRID))
    assert shown.loc[1, "warnings"] == "Marshal has no Submachine Gun skill; it counts 0"
    if to_folder:
        assert "no Submachine Gun skill" in (out / "results.csv").read_text()
        again = fz.sweep(FLAGSHIP, GRID, trials=20, seed=1, warn=told.append, out_dir=out,
                         plots=False)  # fmt: skip  (resumed from the point files)
        assert list(again["warnings"]) == list(table["warnings"])


def test_no_warnings_column_in_the_shown_table_when_none(fake_runs):
    table = fz.sweep(FLAGSHIP, {"sides.blue[0].armor.pd": [4, 8]}, trials=20, seed=1)
    assert "warnings" not in sweep_frame(table, ["sides.blue[0].armor.pd"]).columns
