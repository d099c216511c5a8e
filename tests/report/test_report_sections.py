"""What a report says around its numbers: the rounds row once for a system that counts in
rounds, no "dice None", a comparison's baseline-only sections named, the assumptions a reader
needs with the rest folded away, a regenerate line that works from the report's folder, and a
second report into the same folder replacing the first one's files. The fights are faked
(results made from counts with the system's real outcome schema): no kernel runs."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fuzion_sim import build_report

ROOT = Path(__file__).resolve().parents[2]
FLAGSHIP = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"
COLOUR = ROOT / "scenarios" / "colour" / "ken-against-bob.yaml"

_spec = importlib.util.spec_from_file_location(
    "_fake_results", ROOT / "tests" / "analysis" / "fake_results.py"
)
_fake = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fake)


#: A 1 x 1 PNG.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)


@pytest.fixture
def fake_runs(monkeypatch):
    import fuzion_sim.analysis.simulation
    import fuzion_sim.report.plots
    from fuzion_sim.systems import get_system

    def simulate(sc, trials=None, seed=None, **_kw):
        system = get_system(sc.system)
        schema = system.outcome_schema(system.compile(sc))
        n = trials or 200
        counts = (n * 6 // 10, n * 3 // 10, n - n * 6 // 10 - n * 3 // 10, 0)
        unit = schema.time_unit
        res = _fake.make_result(counts, sides=sc.side_names, system=sc.system,
                                rules=sc.rules.as_dict(), schema=schema, keep=True,
                                unit=unit["unit"], per_round=unit["per_round"],
                                seconds=unit["seconds"], name=sc.name)  # fmt: skip
        return res

    monkeypatch.setattr(fuzion_sim.analysis.simulation, "simulate", simulate)

    def save(fig, path, dpi=100):  # drawing is tested elsewhere; a tiny PNG here
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_PNG)
        return path

    monkeypatch.setattr(fuzion_sim.report.plots, "save", save)


def test_a_system_in_rounds_gets_one_rounds_row_and_no_dice(tmp_path, fake_runs):
    import fuzion_sim as fz

    out = tmp_path / "colour"
    build_report(COLOUR, out, trials=200)
    md = (out / "index.md").read_text()
    assert "1 rounds to a round" not in md and "rounds to a round" not in md
    table = md.split("## How long it takes")[1].split("##")[0]
    rows = [line for line in table.splitlines() if line.startswith("| rounds ")]
    assert len(rows) == 1, table
    res = fz.api.simulate(fz.load_scenario(COLOUR), trials=20)
    assert "dice None" not in repr(res) and "dice None" not in res._repr_html_()


def test_comparison_report_names_its_baseline_only_sections(tmp_path, fake_runs):
    out = tmp_path / "cmp"
    build_report(FLAGSHIP, out, trials=200, vary=["rules.dice=hero,interlock"])
    md = (out / "index.md").read_text()
    for heading in ("Who wins", "How long it takes", "Who stays standing", "Per combatant",
                    "Assumptions"):  # fmt: skip
        assert f"## {heading} (baseline: HERO)" in md
    assert "show the baseline, HERO, alone" in md
    assumptions = (out / "index.html").read_text().split("<h2>Assumptions")[1]
    assert ">dice<" in assumptions.split("<details>")[0]  # the compared switch is shown


def test_assumptions_show_what_was_changed_and_fold_the_rest(tmp_path, fake_runs):
    from fuzion_sim.systems.fuzion.model import RULE_SWITCHES

    out = tmp_path / "plain"
    build_report(FLAGSHIP, out, trials=200, vary=["rules.criticals=none,both"])
    html = (out / "index.html").read_text()
    section = html.split("<h2>Assumptions")[1].split("<h2>")[0]
    shown, folded = section.split("<details>")
    # the changed and compared switches, and those the system says can change this fight
    assert ">criticals<" in shown  # compared (its baseline value none is changed too)
    assert ">dice<" in shown  # at its default, but it can change any fight
    assert ">campaign<" in folded  # no autofire in the flagship
    assert shown.count("<tr>") - 1 < len(RULE_SWITCHES) / 2
    assert "more switches, at their defaults and unable to change this fight" in folded
    text = (out / "assumptions.csv").read_text()
    assert all(key in text for key in RULE_SWITCHES)  # the CSV keeps every switch


def test_assumptions_use_the_systems_inert_switches(tmp_path, fake_runs, monkeypatch):
    from fuzion_sim.systems import get_system
    from fuzion_sim.systems.fuzion.model import RULE_SWITCHES

    system = get_system("fuzion")
    keep = {"dice", "impairment", "stunned"}
    inert = {k: "no vehicle in this fight" for k in RULE_SWITCHES if k not in keep}
    monkeypatch.setattr(type(system), "inert_switches", lambda self, sc: inert, raising=False)
    out = tmp_path / "inert"
    build_report(FLAGSHIP, out, trials=200)
    section = (out / "index.html").read_text().split("<h2>Assumptions")[1]
    shown, folded = section.split("<details>")[:2]
    for key in keep:
        assert f">{key}<" in shown
    assert "unable to change this fight" in folded
    assert "no vehicle in this fight" in folded
    assert shown.count("<tr>") - 1 == len(keep)


def test_regenerate_line_works_from_the_report_folder(tmp_path, fake_runs, monkeypatch):
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    monkeypatch.chdir(ROOT)
    out = tmp_path / "rep"
    res = CliRunner().invoke(cli, ["report", "scenarios/marshal-vs-outlaw.yaml", "--trials",
                                   "200", "-o", str(out)])  # fmt: skip
    assert res.exit_code == 0, res.output
    md = (out / "index.md").read_text()
    line = next(x for x in md.splitlines() if x.startswith("- regenerate"))
    code = re.search(r"(`+) (.*) \1", line).group(2)
    words = shlex.split(code)
    assert words[-2:] == ["-o", "."]
    assert (out / words[2]).resolve() == FLAGSHIP.resolve()  # absolute: /tmp and the project
    from fuzion_sim.report.build import regenerate_here

    inside = regenerate_here(shlex.join(["fuzion-sim", "report", "scenarios/squad-4v4.yaml",
                                         "--title", "A b", "-o", "reports/sq"]),
                             ROOT / "reports" / "sq")  # fmt: skip
    assert shlex.split(inside) == ["fuzion-sim", "report", "../../scenarios/squad-4v4.yaml",
                                   "--title", "A b", "-o", "."]  # fmt: skip


def test_a_second_report_replaces_the_first_ones_files(tmp_path, fake_runs):
    from fuzion_sim.outdir import MANIFEST

    out = tmp_path / "rep"
    build_report(FLAGSHIP, out, trials=200, vary=["rules.dice=hero,interlock"])
    assert (out / "compare_win.png").exists() and (out / "comparison.csv").exists()
    (out / "my-notes.md").write_text("mine")
    build_report(FLAGSHIP, out, trials=200)
    for gone in ("compare_win.png", "compare_kill_time.png", "comparison.csv",
                 "differences.csv"):  # fmt: skip
        assert not (out / gone).exists(), gone
    manifest = json.loads((out / MANIFEST).read_text())["files"]
    assert not any(name.startswith("compare") for name in manifest)
    assert "wins.csv" in manifest and (out / "my-notes.md").read_text() == "mine"
    assert "comparison.csv" not in (out / "index.md").read_text()


def test_sweep_point_warnings_reach_the_report(tmp_path, fake_runs):
    out = tmp_path / "sw"
    build_report(FLAGSHIP, out, trials=50,
                 grid=["sides.red[0].weapon=Magnum Pistol,Submachine Gun"])  # fmt: skip
    md = (out / "index.md").read_text()
    sweep = md.split("## Sweep")[1].split("## ")[0]
    assert "weapon=Submachine Gun: Marshal has no Submachine Gun skill; it counts 0" in sweep
    assert "| warnings |" in sweep  # the table's column
    assert "Marshal has no Submachine Gun skill" in (out / "sweep.csv").read_text()


def test_kill_time_frame_has_each_unit_once(tmp_path):
    from fuzion_sim.report.tables import kill_time_frame

    res = _fake.make_result((5, 3, 0, 0), unit="round", per_round=1, seconds=3.0)
    assert list(kill_time_frame(res)["in"]) == ["rounds", "seconds"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", __file__]))
