"""The explorer as Jupyter widgets: set a control, see the answer; no browser, no server.

The exact answer is the oracle: after a control changes, the answer's HTML must show
``api.exact_fight`` of the changed scenario (and not the base's, the control). A bad value must
show the CLI's one line; a colour duel asked for Monte Carlo must refine its estimate stage by
stage and end within 4 standard errors of its exact answer.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

import ipywidgets as w

import fuzion_sim as fz
from fuzion_sim import api
from fuzion_sim.errors import ScenarioError, error_lines, one_line
from fuzion_sim.explorer.notebook import ExplorerView
from fuzion_sim.explorer.session import STAGE_FIRST
from fuzion_sim.explorer.widgets import ExplorerWidget
from fuzion_sim.scenario.variants import as_base

ROOT = Path(__file__).resolve().parents[2]
FLAGSHIP = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"
COLOUR = ROOT / "scenarios" / "colour" / "ken-against-bob.yaml"
REF = "sides.red[0].stats.REF"
#: Five stages, 4,096 to 1,048,576 trials: the last runs long enough to be seen refining.
CAP = 1 << 20


def _shown(view) -> dict[str, float]:
    """Each side's win probability as the answer's HTML shows it (its ``data-p``)."""
    return {s: float(p) for s, p in re.findall(r'data-side="([^"]+)" data-p="([^"]+)"',
                                                view.answer_html.value)}  # fmt: skip


def _wait_for(cond, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


@pytest.fixture(scope="module")
def flagship():
    view = fz.explore(FLAGSHIP, max_trials=16384, threads=1)
    yield view
    view.close()


def test_explore_gives_widgets_grouped_with_tooltips(flagship):
    assert isinstance(flagship, ExplorerWidget)
    ref = flagship.controls[REF]
    assert isinstance(ref, w.IntText) and ref.value == 8
    assert REF in ref.tooltip and "REF" in ref.tooltip and "0 to 100" in ref.tooltip
    assert isinstance(flagship.controls["rules.dice"], w.Dropdown)
    assert isinstance(flagship.controls["rules.impairment"], w.Dropdown)  # a switch
    weapon = flagship.controls["sides.red[0].weapon"]
    assert isinstance(weapon, w.Combobox) and "Magnum Pistol" in weapon.options
    acc = flagship.widget.children[1]
    assert isinstance(acc, w.Accordion)
    assert acc.titles == ("Rules and scenario", "Side red", "Side blue")
    assert acc.children[1].titles == ("red · Marshal",)
    assert "text/plain" in flagship._repr_mimebundle_()


def test_a_changed_control_shows_the_exact_answer_of_the_changed_scenario(flagship):
    flagship.reset()
    base = api.exact_fight(as_base(FLAGSHIP).build())["sides"]
    want = api.exact_fight(as_base(FLAGSHIP).build([(REF, 9)]))["sides"]
    assert _shown(flagship)["red"] == pytest.approx(base["red"]["win_probability"], abs=1e-12)
    start = time.perf_counter()
    flagship.controls[REF].value = 9
    assert _wait_for(lambda: flagship.state == "exact" and _shown(flagship)["red"] ==
                     pytest.approx(want["red"]["win_probability"], abs=1e-12), 5)  # fmt: skip
    seconds = time.perf_counter() - start
    assert seconds < 2.0  # the exact answer is at once (about 200 ms cold, less warm)
    assert flagship.changes == {REF: 9}
    assert abs(want["red"]["win_probability"] - base["red"]["win_probability"]) > 0.01  # control
    html = flagship.answer_html.value
    assert "Exact answer" in html and f"{100 * want['red']['win_probability']:.2f}%" in html
    diff = want["red"]["win_probability"] - base["red"]["win_probability"]
    assert f"+{100 * diff:.2f} pts vs base" in html
    flagship.controls[REF].value = 8  # back to the base value: no change left
    assert flagship.changes == {} and "vs base" not in flagship.answer_html.value


def test_a_bad_value_shows_the_cli_line(flagship):
    flagship.reset()
    flagship.controls[REF].value = 500
    assert flagship.state == "error"
    with pytest.raises(ScenarioError) as err:
        as_base(FLAGSHIP).build([(REF, 500)])
    line = "\n".join(f"fuzion-sim: error: {one_line(x)}" for x in error_lines(err.value))
    assert flagship.error == line and "at most 100" in line
    assert line.replace("'", "&#x27;") in flagship.error_html.value
    flagship.reset()
    assert flagship.state == "exact" and flagship.error is None
    flagship.set("sides.red[0].weapon", "Magnum Pistl")
    assert flagship.state == "error" and "Magnum Pistol" in flagship.error  # did you mean
    flagship.reset()


def test_without_ipywidgets_the_page_shows_in_a_frame(monkeypatch):
    from fuzion_sim.errors import ArgumentError
    from fuzion_sim.explorer import notebook

    monkeypatch.setattr(notebook, "_have_widgets", lambda: False)  # as if not installed
    view = fz.explore(FLAGSHIP, max_trials=4096, threads=1)
    try:
        assert isinstance(view, ExplorerView) and "<iframe" in view._repr_html_()
    finally:
        view.stop()
    with pytest.raises(ArgumentError, match="needs ipywidgets"):
        fz.explore(FLAGSHIP, widgets=True)
    with pytest.raises(ArgumentError, match="widgets must be"):
        fz.explore(FLAGSHIP, widgets="yes")


def test_a_colour_fight_refines_its_monte_carlo_estimate():
    view = fz.explore(COLOUR, max_trials=CAP, threads=1)
    try:
        assert view.state == "exact"  # this duel has an exact answer: the oracle below
        exact = view.answer["sides"]
        shown = []  # the trial count of every answer the view writes
        view.answer_html.observe(lambda change: shown.extend(
            int(t) for t in re.findall(r'data-trials="(\d+)"', change["new"])), names="value")
        view.monte_carlo.value = True  # the box: estimate it anyway
        assert view.state in ("running", "done")
        assert _wait_for(lambda: view.state == "done", 60), (view.state, shown)
        assert shown[-1] == CAP and len(shown) >= 2 and shown == sorted(set(shown)), shown
        assert set(shown) <= {STAGE_FIRST * 4**k for k in range(8)}
        html = view.answer_html.value
        assert 'data-method="monte carlo"' in html and "95%" in html and "final" in html
        for name, side in view.answer["sides"].items():
            lo, hi = side["ci95"]
            assert lo <= side["p"] <= hi and hi - lo < 0.01
            assert abs(side["p"] - exact[name]["p"]) <= 4 * (hi - lo) / (2 * 1.96)
    finally:
        view.close()
