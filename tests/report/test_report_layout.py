"""The report's HTML keeps words whole in table cells at 1280 px (checked in headless
Chromium on a table like the report's widest), and its checker catches a broken word."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pandas as pd
import pytest

from fuzion_sim.report.html import STYLE, html_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def chromium():
    spec = importlib.util.spec_from_file_location("check_render", ROOT / "reports" /
                                                  "check_render.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    browser = module.find_browser()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: make test installs it (apt-get install chromium)")
        pytest.skip("chromium not installed (make test installs it with apt-get)")
    return module, browser


def _page(path: Path, frame) -> Path:
    path.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{STYLE}</style>'
                    f"</head><body>{html_table(frame)}</body></html>")  # fmt: skip
    return path


def _wide_frame():
    """Eleven columns of the words the report's tables hold (a squad's combatants, the
    comparison's intervals, the assumptions' rulings)."""
    row = {"combatant": "Shotgunner", "side": "security", "hit rate": "43.1%",
           "attacks per fight": "6.21", "damage dealt (95%)": "18.4 ± 0.3",
           "damage taken (95%)": "21.7 ± 0.4", "P(down)": "61.2%",
           "down at, mean / median (phases)": "7.13 / 6", "P(dead)": "12.0%",
           "dead at, mean / median (phases)": "9.80 / 9",
           "ruling": "knockback_targets: every target of an area attack (VA-12)"}  # fmt: skip
    return pd.DataFrame([row, {**row, "combatant": "Marksman", "side": "insurgents"}])


def test_report_tables_keep_words_whole_at_1280(tmp_path, chromium):
    module, browser = chromium
    page = _page(tmp_path / "wide.html", _wide_frame())
    result = module.probe(page, 1280, browser)
    assert result["broken_words"] == []
    assert module.problems(result, 1280) == []
    narrow = module.probe(page, 600, browser)  # stacked into cards: fits too
    assert not narrow["page_overflow"]


def test_checker_catches_a_word_broken_across_lines(tmp_path, chromium):
    module, browser = chromium
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><table><tr><td style='width:40px;"
                    "overflow-wrap:anywhere'>Shotgunner security</td></tr></table>"
                    "</body></html>")  # fmt: skip
    found = module.problems(module.probe(page, 1280, browser), 1280)
    assert any("broken across lines" in f and "Shotgunner" in f for f in found), found
