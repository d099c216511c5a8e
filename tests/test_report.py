"""Reports: index.md / index.html with embedded, valid PNGs, and the data as CSV."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest

from fuzion_sim import build_report

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def _check_html(html_path: Path) -> int:
    """Every <img> is an embedded PNG that decodes (or a relative file that exists)."""
    import matplotlib.image as mpimg

    text = html_path.read_text()
    srcs = re.findall(r'<img[^>]*src="([^"]+)"', text)
    assert srcs
    for src in srcs:
        if src.startswith("data:image/png;base64,"):
            data = base64.b64decode(src.split(",", 1)[1], validate=True)
        else:
            assert "://" not in src
            data = (html_path.parent / src).read_bytes()
        assert data.startswith(PNG)
        image = mpimg.imread(io.BytesIO(data), format="png")
        assert image.shape[0] > 50 and image.shape[1] > 50
    return len(srcs)


def _check_md(md_path: Path) -> None:
    text = md_path.read_text()
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links
    for link in links:
        assert (md_path.parent / link).exists(), link


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    build_report(
        ROOT / "scenarios" / "marshal-vs-outlaw.yaml", out, trials=3_000,
        vary=[("rules.dice", ["hero", "interlock"])],
        grid=[("sides.blue[0].armor.pd", [4, 8]), ("rules.criticals", ["both", "none"])],
    )  # fmt: skip
    return out


def test_report_renders_with_valid_images(report):
    n = _check_html(report / "index.html")
    assert n >= 5  # comparison (2), kill time, survival, sweep heatmap
    _check_md(report / "index.md")
    html = (report / "index.html").read_text()
    for needle in ("Assumptions", "impairment", "Who wins", "95% interval", "Scenario",
                   "Interlock"):  # fmt: skip
        assert needle in html
    for csv in ("wins.csv", "kill_time_summary.csv", "kill_time_pmf.csv", "survival.csv",
                "combatants.csv", "comparison.csv", "differences.csv", "assumptions.csv",
                "sweep.csv"):  # fmt: skip
        assert (report / csv).exists(), csv


def test_every_rule_switch_is_listed(report):
    from fuzion_sim.scenario.model import RULE_SWITCHES

    text = (report / "assumptions.csv").read_text()
    for key in RULE_SWITCHES:
        assert key in text


@pytest.mark.parametrize("name", ["marshal-vs-outlaw", "squad-hero-vs-interlock"])
def test_committed_example_reports(name):
    folder = ROOT / "reports" / name
    if not (folder / "index.html").exists():
        pytest.skip("example report not generated (make reports)")
    assert _check_html(folder / "index.html") >= 2
    _check_md(folder / "index.md")
