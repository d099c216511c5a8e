"""A report that carries a balance table and a sensitivity study: both sections in the Markdown
and the HTML, their pictures (with alt text) and their data, each run with the report's trials
and seed; a half-given table or a bad parameter is refused before anything runs."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from click.testing import CliRunner

import fuzion_sim as fz
from fuzion_sim.cli import cli
from fuzion_sim.errors import ArgumentError

FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"
ROWS = "sides.red[0].armor.pd=4,10"
COLS = "sides.blue[0].armor.pd=4,10"
VARY = "sides.red[0].stats.REF=6:10"


def _run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_report_with_a_matrix_and_a_sensitivity_study(tmp_path):
    out = tmp_path / "rep"
    res = _run("report", FLAGSHIP, "-o", str(out), "--trials", "400", "--seed", "7",
               "--matrix-rows", ROWS, "--matrix-cols", COLS, "--sensitivity", VARY)  # fmt: skip
    assert res.exit_code == 0, res.output
    md = (out / "index.md").read_text()
    page = (out / "index.html").read_text()
    for text in (md, page):
        assert "Balance table: P(red wins)" in text
        assert "Sensitivity: stat weights of P(red wins)" in text
        assert "sides.red[0].stats.REF" in text
        # the study sections come before the assumptions
        assert text.index("Balance table") < text.index("Sensitivity") < text.index("Assumptions")
    # the pictures: linked from the Markdown, embedded in the HTML, with alt text in words
    for png in ("matrix_heatmap.png", "sensitivity_tornado.png"):
        assert (out / png).stat().st_size > 1000
        assert f"]({png})" in md
    alts = re.findall(r'<img alt="([^"]*)"', page)
    heatmap = "Heatmap of P(red wins): 2 sides.red[0].armor.pd rows by 2"
    assert any(a.startswith(heatmap) for a in alts)
    assert any(a.startswith("Tornado chart of stat weights") and "REF" in a for a in alts)
    # the data, each run with the report's trials and seed
    cells = pd.read_csv(out / "matrix_cells.csv")
    assert len(cells) == 4 and set(cells["trials"]) == {400}
    assert len(pd.read_csv(out / "matrix_ranked.csv")) == 2
    sens = pd.read_csv(out / "sensitivity.csv")
    assert list(sens["param"]) == ["sides.red[0].stats.REF"]
    for name in ("matrix_cells.csv", "matrix_ranked.csv", "sensitivity.csv"):
        assert f"[{name}]({name})" in md
    # the regenerate line carries the study options
    assert "--matrix-rows" in md and "--sensitivity" in md


def test_report_studies_refused_before_anything_runs(tmp_path):
    out = tmp_path / "rep"
    res = _run("report", FLAGSHIP, "-o", str(out), "--matrix-rows", ROWS)
    assert res.exit_code == 2 and "--matrix-cols" in res.output
    res = _run("report", FLAGSHIP, "-o", str(out), "--sensitivity", "sides.red[0].nope=1:2")
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert not out.exists() or not (out / "index.md").exists()


def test_build_report_takes_the_studies_from_python(tmp_path):
    page = fz.build_report(FLAGSHIP, tmp_path / "rep", trials=300, seed=3, sensitivity=[VARY])
    assert "Sensitivity: stat weights" in page.read_text()
    assert (tmp_path / "rep" / "sensitivity.csv").exists()
    with pytest.raises(ArgumentError, match="sensitivity_method"):
        fz.build_report(FLAGSHIP, tmp_path / "bad", sensitivity=[VARY], sensitivity_method="x")
