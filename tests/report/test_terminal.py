"""Terminal tables wrap instead of cutting, at any width and when piped."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuzion_sim.cli import cli

ROOT = Path(__file__).resolve().parents[2]
DUEL = "scenarios/marshal-vs-outlaw.yaml"
SQUAD = "scenarios/squad-4v4.yaml"
ELLIPSIS = "…"

COMMANDS = {
    "run": ["run", SQUAD, "--trials", "3000"],
    "compare": ["compare", SQUAD, "--vary", "rules.dice=hero,interlock", "--trials", "3000"],
    "balance": ["balance", DUEL, "--param", "sides.blue[0].armor.pd", "--trials", "1000",
                "--range", "4:12"],
    "catalog": ["catalog", "weapons"],
    "attack": ["attack", "--av", "7", "--dv-base", "9", "--dc", "6", "--pd", "14",
               "--autofire", "10", "--ratio", "1"],
}  # fmt: skip


def _out(args, width: int) -> str:
    res = CliRunner(env={"COLUMNS": str(width)}).invoke(cli, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("width", [80, 44])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_tables_fit_the_width_and_nothing_is_cut(name, width):
    out = _out(COMMANDS[name], width)
    assert ELLIPSIS not in out
    lines = out.splitlines()
    assert lines and max(len(line) for line in lines) <= width


def test_long_words_survive_at_80_columns():
    out = _out(COMMANDS["compare"], 80)
    for word in ("Kolmogorov-Smirnov", "P(lawmen", "Interlock", "phases"):
        assert word in out
    flat = " ".join(out.split())
    # Titles are their own lines, wrapped at the terminal's width, not the table's.
    assert "Differences from the baseline (95% intervals)" in flat


def test_sweep_table_has_intervals(tmp_path):
    out = _out(["sweep", DUEL, "--grid", "sides.blue[0].armor.pd=4:8:4", "--trials", "2000",
                "-o", str(tmp_path)], 160)  # fmt: skip
    assert ELLIPSIS not in out
    assert "P(red wins), 95% interval" in out and "mean kill time (phases, 95%)" in out
    assert len(re.findall(r"\d+\.\d% \(\d+\.\d-\d+\.\d%\)", out)) == 4  # 2 points x 2 sides
    assert len(re.findall(r"\d\.\d\d \(\d\.\d\d-\d\.\d\d\)", out)) == 2


def test_very_narrow_terminal_stacks_tables():
    out = _out(COMMANDS["catalog"], 30)
    assert "name: Battle Axe" in out and ELLIPSIS not in out
    assert max(len(line) for line in out.splitlines()) <= 30


def test_piped_to_a_file_wraps_at_80(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    target = tmp_path / "out.txt"
    with target.open("w") as fh:
        subprocess.run([sys.executable, "-m", "fuzion_sim.cli", "catalog", "armor"], cwd=ROOT,
                       stdout=fh, env=env, check=True, timeout=120)  # fmt: skip
    text = target.read_text()
    assert "Catalogue: armor" in text and ELLIPSIS not in text
    assert max(len(line) for line in text.splitlines()) <= 80
