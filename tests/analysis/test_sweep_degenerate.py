"""A sweep over a grid where one side always wins writes its table and plots (a win
probability of exactly 1 has a Wilson interval ending exactly at 1: no negative error bar)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fuzion_sim.cli import cli

FLAGSHIP = Path(__file__).resolve().parents[2] / "scenarios" / "marshal-vs-outlaw.yaml"


def test_sweep_where_one_side_always_wins(tmp_path):
    out = tmp_path / "sw"
    # PD 60 stops the outlaw's carbine: the Marshal wins all 13 fights (13 is a count at which
    # the interval's upper end used to come out 0.9999999999999999)
    args = ["sweep", str(FLAGSHIP), "--grid", "sides.red[0].armor.pd=60,61", "--trials", "13",
            "-o", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, (res.output, res.exception)
    assert (out / "results.csv").exists() and (out / "sweep.png").stat().st_size > 1000
    text = (out / "results.csv").read_text().splitlines()
    header = text[0].split(",")
    for line in text[1:]:
        row = dict(zip(header, line.split(","), strict=False))
        assert float(row["win_probability.red"]) == 1.0
        assert float(row["win_ci95_high.red"]) == 1.0
    again = CliRunner().invoke(cli, args)  # the resume reads the points back
    assert again.exit_code == 0 and "already done" in again.output
