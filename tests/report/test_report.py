"""Reports: index.md / index.html with embedded, valid PNGs, and the data as CSV."""

from __future__ import annotations

import base64
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

from fuzion_sim import build_report

ROOT = Path(__file__).resolve().parents[2]
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
    from fuzion_sim.systems.fuzion.model import RULE_SWITCHES

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


#: Raw column names that must never reach a reader (they stay in the CSV files).
RAW = ("ci95", "_se", "p_down", "p_death", "win_probability", "kill_time", "hit_rate",
       "attacks_mean", "damage_", "time_to_")  # fmt: skip


def _headers(html: str) -> list[str]:
    return re.findall(r'<th scope="col">(.*?)</th>', html)


def test_tables_read_as_the_terminal_prints_them(report):
    html = (report / "index.html").read_text()
    md = (report / "index.md").read_text()
    headers = _headers(html)
    assert len(headers) > 30
    assert not [h for h in headers if any(r in h for r in RAW)]
    for text in (html, md):
        assert re.search(r"\d+\.\d% \(\d+\.\d-\d+\.\d%\)", text)  # 59.7% (59.1-60.2%)
        assert re.search(r"[+-]\d+\.\d\d pts", text)
        assert re.search(r"p (<|&lt;|=) 0\.\d+", text)
        assert "P(red wins), 95% interval" in text and "damage dealt (95%)" in text
        assert "win_ci95_low" not in text and "damage_dealt_se" not in text
    # Every table carries data labels, so it can stack on a narrow screen.
    assert "@media (max-width:760px)" in html and 'class="fz stack"' in html
    assert 'data-label="P(red wins), 95% interval"' in html


def test_every_data_file_is_linked(report):
    md = (report / "index.md").read_text()
    html = (report / "index.html").read_text()
    csvs = sorted(p.name for p in report.glob("*.csv"))
    assert len(csvs) >= 9
    for name in csvs:
        assert f"[{name}]({name})" in md, name
        assert f'<a href="{name}">{name}</a>' in html, name


def test_alt_text_describes_the_figures(report):
    html = (report / "index.html").read_text()
    alts = re.findall(r'<img alt="([^"]*)"', html)
    assert len(alts) >= 5
    for alt in alts:
        assert len(alt) > 60 and re.search(r"\d", alt), alt
        assert not alt.startswith("Sweep: ")
    assert any("phases" in a and "mean" in a for a in alts)
    assert any(a.startswith("Heatmaps over sides.blue[0].armor.pd and rules.criticals")
               for a in alts)  # fmt: skip


def _check_render():
    spec = importlib.util.spec_from_file_location("check_render", ROOT / "reports" /
                                                  "check_render.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def chromium():
    """``(check_render module, browser)``; CI fails without Chromium (make test installs it)."""
    module = _check_render()
    browser = module.find_browser()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: make test installs it (apt-get install chromium)")
        pytest.skip("chromium not installed (make test installs it with apt-get)")
    return module, browser


def _pages(report):
    pages = [report / "index.html"]
    for name in ("marshal-vs-outlaw", "squad-hero-vs-interlock"):
        if (ROOT / "reports" / name / "index.html").exists():
            pages.append(ROOT / "reports" / name / "index.html")
    return pages


def test_reports_fit_the_page_in_chromium(report, chromium):
    module, browser = chromium
    pages = [(page, width) for page in _pages(report) for width in (1280, 600)]
    for (page, width), result in zip(pages, module.probe_many(pages, browser), strict=True):
        assert result["tables"] and result["images"]
        assert module.problems(result, width) == [], (page, width)


def test_chromium_check_catches_overflow_and_broken_images(tmp_path, chromium):
    module, browser = chromium
    page = tmp_path / "bad.html"
    cells = "".join(f"<td style='white-space:nowrap'>{'wide ' * 30}</td>" for _ in range(4))
    page.write_text(
        "<!DOCTYPE html><html><body><table><tr><th>h</th></tr><tr>" + cells + "</tr></table>"
        '<img alt="gone" src="missing.png"></body></html>'
    )
    found = module.problems(module.probe(page, 600, browser), 600)
    assert any("table 0" in f for f in found)
    assert any("image 0" in f and "did not load" in f for f in found)
    assert "the page scrolls sideways" in found
