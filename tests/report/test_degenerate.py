"""Tables and plots of degenerate outcomes: a side that always wins, one that never does,
every fight a draw, a single trial. Intervals end exactly at 0 and 1 there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fuzion_sim.analysis.intervals import wilson

_spec = importlib.util.spec_from_file_location(
    "_fake_results", Path(__file__).resolve().parents[1] / "analysis" / "fake_results.py"
)
_fake = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fake)


@pytest.fixture
def fake_result():
    """Results made from counts (``tests/analysis/fake_results.py``)."""
    return _fake.make_result

#: (red wins, blue wins, draws, unresolved); 13 and 5 trials are counts at which the Wilson
#: formula's rounding used to put an end past the estimate
CASES = {
    "all wins": (13, 0, 0, 0),
    "no wins": (0, 5, 0, 0),
    "all draws": (0, 0, 200, 0),
    "all unresolved": (0, 0, 0, 200),
    "one trial": (1, 0, 0, 0),
}


@pytest.mark.parametrize("n", [5, 10, 13, 17, 1000, 4099])
def test_wilson_interval_holds_its_estimate_at_zero_and_one(n):
    assert wilson(0, n)[0] == 0.0  # 2.8e-17 for n = 5 before the clamp
    assert wilson(n, n)[1] == 1.0  # 0.9999999999999999 for n = 13
    for k in range(0, n + 1, max(1, n // 7)):
        lo, hi = wilson(k, n)
        assert 0.0 <= lo <= k / n <= hi <= 1.0


def _table(fake_result, keys=("pd",)):
    from fuzion_sim.analysis.sweep import sweep_row

    rows = []
    for i, counts in enumerate(CASES.values()):
        point = {"pd": i} if len(keys) == 1 else {"pd": i, "dice": "hero"}
        rows.append(sweep_row(point, fake_result(counts)))
    return pd.DataFrame(rows)


@pytest.mark.parametrize("keys", [("pd",), ("pd", "dice")])
def test_sweep_plots_and_table_of_degenerate_points(fake_result, tmp_path, keys):
    from fuzion_sim.report.plots import sweep_plots
    from fuzion_sim.report.tables import sweep_frame

    table = _table(fake_result, keys)
    paths = sweep_plots(table, list(keys), ["red", "blue"], tmp_path)
    assert paths and all(p.stat().st_size > 1000 for p in paths)
    shown = sweep_frame(table, list(keys))
    assert len(shown) == len(CASES)
    assert "100.0% (77.2-100.0%)" in set(shown.to_numpy().ravel())


def test_error_bars_never_negative():
    from fuzion_sim.report.plots import error_lengths

    # an older point file, or rounding, may leave an end a hair past its estimate
    yerr = error_lengths([1.0, 0.0, 0.5, np.nan], [0.98, 1e-17, 0.4, np.nan],
                         [0.9999999999999999, 0.02, 0.6, np.nan])  # fmt: skip
    assert yerr.shape == (2, 4)
    assert (yerr >= 0).all()


@pytest.mark.parametrize("case", list(CASES))
def test_result_tables_and_plots_of_degenerate_runs(fake_result, case):
    from fuzion_sim.report import plots, tables

    res = fake_result(CASES[case])
    assert len(tables.wins_frame(res)) >= 2
    tables.kill_time_frame(res)
    tables.combatants_frame(res)
    plots.kill_time_figure(res)
    plots.survival_figure(res)


def test_comparison_plot_of_degenerate_variants(fake_result):
    from fuzion_sim.analysis.compare import Comparison
    from fuzion_sim.report.plots import comparison_figures

    cmp = Comparison([{"rules.dice": "hero"}, {"rules.dice": "interlock"}],
                     [fake_result(CASES["all wins"]), fake_result(CASES["one trial"])])
    figs = comparison_figures(cmp)
    assert len(figs) == 2
