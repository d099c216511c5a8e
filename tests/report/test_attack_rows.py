"""``attack`` shows the rows that matter: at most 30 by default, the rest merged."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fuzion_sim.cli import cli
from fuzion_sim.pmf_rows import pmf_rows

AUTOFIRE = ["attack", "--av", "7", "--dv-base", "9", "--dc", "6", "--pd", "14", "--autofire",
            "10", "--ratio", "1"]  # fmt: skip


def _run(*args):
    res = CliRunner(env={"COLUMNS": "100"}).invoke(cli, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def _rows(text: str, column: str) -> list[str]:
    """The first cells of the table headed by ``column``."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("┃") and f" {column} " in line
    )
    cells = []
    for line in lines[start + 2 :]:
        if line.startswith("└"):
            break
        cells.append(line.split("│")[1].strip())
    return cells


def test_short_distribution_is_shown_whole():
    rows = pmf_rows({"0": 0.5, "1": 0.3, "2": 0.2}, rows=30)
    assert [r.label for r in rows] == ["0", "1", "2"]
    assert [r.at_least for r in rows] == pytest.approx([1.0, 0.5, 0.2])


def test_long_tail_is_merged_into_one_row():
    pmf = {str(v): p for v, p in enumerate([0.5, *[0.5 / 2**k for k in range(1, 60)]])}
    rows = pmf_rows(pmf, rows=10)
    assert len(rows) == 10 and rows[-1].label == "9 or more"
    assert sum(r.probability for r in rows) == pytest.approx(sum(pmf.values()))
    assert rows[-1].probability == pytest.approx(sum(list(pmf.values())[9:]))
    assert rows[-1].merged == len(pmf) - 9


def test_mass_far_from_zero_gets_a_merged_row_before_it():
    # A miss at 0, then a bell far away (like DC 200): the rows show the bell's middle.
    import math

    pmf = {"0": 0.2}
    pmf.update({str(v): 0.8 * math.exp(-((v - 700) ** 2) / 800) / math.sqrt(800 * math.pi)
                for v in range(186, 1187)})  # fmt: skip
    rows = pmf_rows(pmf, rows=30)
    assert len(rows) == 30 and rows[0].label == "0"
    assert rows[1].label.startswith("186 to ") and rows[-1].label.endswith(" or more")
    middle = [int(r.label) for r in rows[2:-1]]
    assert min(middle) < 700 < max(middle)


def test_attack_cli_default_rows_and_note():
    out = _run(*AUTOFIRE)
    damage = _rows(out, "damage")
    assert len(damage) == 30 and damage[-1] == "29 or more"
    assert "'29 or more' holds 1.6% of the probability (192 outcomes)" in " ".join(out.split())
    assert len(out.splitlines()) < 90  # was about 240 lines


def test_attack_cli_rows_option_and_json_unchanged():
    out = _run(*AUTOFIRE, "--rows", "12")
    assert len(_rows(out, "damage")) == 12 and _rows(out, "damage")[-1] == "11 or more"
    data = json.loads(_run(*AUTOFIRE, "--json"))
    assert len(data["damage"]["pmf"]) == 221  # every outcome, as before
    assert CliRunner().invoke(cli, [*AUTOFIRE, "--rows", "1"]).exit_code == 2
