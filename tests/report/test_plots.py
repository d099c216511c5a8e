"""Plots: units on every axis, intervals, readable heatmaps, distinct colours."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import yaml

from fuzion_sim import compare, simulate, sweep
from fuzion_sim.report import plots
from fuzion_sim.report.sweep_plots import sweep_figures, text_colour
from fuzion_sim.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"


@pytest.fixture(scope="module")
def duel():
    return simulate(DUEL, trials=3_000, seed=2)


@pytest.fixture(scope="module")
def big_squad():
    """Seven a side (fourteen combatants): more lines than one colour cycle has colours."""
    data = yaml.safe_load((ROOT / "scenarios" / "squad-4v4.yaml").read_text())
    for side in data["sides"].values():
        extra = copy.deepcopy(side[:3])
        for k, c in enumerate(extra):
            c["name"] = f"{c['name']} (reserve {k})"
        side.extend(extra)
    return simulate(scenario_from_dict(data), trials=2_000, seed=2)


def _labels(fig):
    return [(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes]


def test_kill_time_figure_has_units_and_whole_ticks(duel):
    fig = plots.kill_time_figure(duel)
    ax1, ax2 = fig.axes[:2]
    assert ax1.get_xlabel() == ax2.get_xlabel() == "kill time (phases)"
    assert ax1.get_ylabel() and ax2.get_ylabel() == "P(fight over by then)"
    fig.canvas.draw()
    for ax in (ax1, ax2):
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks)
    # A second axis in seconds on top of each panel.
    assert [[c.get_xlabel() for c in ax.child_axes] for ax in (ax1, ax2)] == [["seconds"]] * 2


def test_survival_colours_are_distinct_beyond_ten(big_squad):
    fig = big_squad.plot("survival")
    per = fig.axes[1]
    colours = [tuple(np.round(line.get_color(), 4)) if not isinstance(line.get_color(), str)
               else line.get_color() for line in per.get_lines()]  # fmt: skip
    assert len(colours) == 14 and len(set(colours)) == 14
    assert per.get_xlabel() == "time (phases)"
    assert len(plots.distinct_colours(25)) == len(set(plots.distinct_colours(25))) == 25


def test_comparison_pmf_has_a_y_label():
    cmp = compare(DUEL, ["rules.dice=hero,interlock"], trials=2_000)
    win, kill = plots.comparison_figures(cmp)
    assert win.axes[0].get_ylabel() == "win probability" and win.axes[0].get_xlabel()
    ax1, ax2 = kill.axes[:2]
    assert ax1.get_ylabel() and ax2.get_ylabel() and "phases" in ax1.get_xlabel()
    assert cmp.plot("kill_time").axes[0].get_ylabel() == ax1.get_ylabel()


@pytest.fixture(scope="module")
def grid_table():
    return sweep(DUEL, ["sides.blue[0].armor.pd=0:12:4", "rules.dice=hero,interlock"],
                 trials=1_000, seed=3, plots=False)  # fmt: skip


def test_sweep_line_plot_has_error_bars_and_units():
    table = sweep(DUEL, ["sides.blue[0].armor.pd=0:12:6"], trials=1_000, seed=3, plots=False)
    ((name, fig),) = sweep_figures(table, ["sides.blue[0].armor.pd"], ["red", "blue"])
    assert name == "sweep.png"
    ax1, ax2 = fig.axes[:2]
    assert len(ax1.containers) == 2 and len(ax2.containers) == 1  # errorbar containers
    for container in (*ax1.containers, *ax2.containers):
        assert container.has_yerr
    assert ax2.get_ylabel().startswith("mean kill time (phases")
    assert ax1.get_xlabel() == "sides.blue[0].armor.pd"


def test_heatmap_text_is_readable_and_labels_clear_the_colour_bar(grid_table):
    ((name, fig),) = sweep_figures(grid_table, ["sides.blue[0].armor.pd", "rules.dice"],
                                   ["red", "blue"])  # fmt: skip
    assert name == "heatmap_0.png"
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    mains = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(mains) == len(bars) == 2
    assert [b.get_ylabel() for b in bars] == ["P(red wins)", "mean kill time (phases)"]
    for bar in bars:
        bar_boxes = [bar.yaxis.label.get_window_extent(renderer)] + [
            t.get_window_extent(renderer) for t in bar.get_yticklabels() if t.get_text()
        ]
        for ax in mains:
            label = ax.yaxis.label.get_window_extent(renderer)
            assert not any(label.overlaps(b) for b in bar_boxes)
    # Cell numbers: white on dark cells, black on light ones.
    colours = {t.get_color() for t in mains[1].texts}
    assert colours == {"white", "black"}
    assert text_colour((0.267, 0.005, 0.329, 1)) == "white"  # viridis' darkest
    assert text_colour((0.993, 0.906, 0.144, 1)) == "black"  # viridis' lightest


def test_plot_kind_errors_name_the_kinds(duel):
    from fuzion_sim.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="plot kinds are kill_time, survival"):
        duel.plot("histogram")
    fig = duel.plot("kill_time")
    assert fig.axes[0].get_title().startswith("Kill-time distribution")
