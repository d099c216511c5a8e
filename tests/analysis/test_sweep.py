"""Sweeps: grid parsing, catalogue paths, the tidy table, and resuming after a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from fuzion_sim import sweep
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.scenario.variants import expand_grid, parse_assignment, parse_values

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"
SQUAD = ROOT / "scenarios" / "squad-4v4.yaml"


def test_parse_values():
    assert parse_values("4:12:4") == [4, 8, 12]
    assert parse_values("0:20:2")[-1] == 20
    assert parse_values("0:1:0.25") == [0, 0.25, 0.5, 0.75, 1.0]
    assert parse_values("hero,interlock") == ["hero", "interlock"]
    assert parse_assignment("sides.blue[0].armor.pd=0:4:2") == ("sides.blue[0].armor.pd", [0, 2, 4])
    assert len(expand_grid([("a", [1, 2]), ("b", ["x", "y", "z"])])) == 6
    for bad in ("1:5:0", "5:1:1", "a:b:c"):
        with pytest.raises(FuzionSimError):
            parse_values(bad)
    with pytest.raises(FuzionSimError):
        parse_assignment("no-equals")


def test_sweep_table_and_catalogue_path(tmp_path):
    grid = {"sides.red[0].weapon.dc": "3:5:2", "rules.dice": "hero,interlock"}
    table = sweep(DUEL, grid, out_dir=tmp_path, trials=3_000, seed=1)
    assert list(table.columns[:5]) == [
        "sides.red[0].weapon.dc", "rules.dice", "win_probability.red", "win_probability.blue",
        "kill_time_mean",
    ]  # fmt: skip
    assert len(table) == 4 and list(table["sides.red[0].weapon.dc"]) == [3, 3, 5, 5]
    # A bigger gun wins more often (common random numbers make this clean).
    hero = table[table["rules.dice"] == "hero"]["win_probability.red"].to_list()
    assert hero[1] > hero[0]
    assert (tmp_path / "results.csv").exists() and (tmp_path / "results.parquet").exists()
    assert list((tmp_path / "points").glob("*.parquet")).__len__() == 4
    assert list(tmp_path.glob("heatmap_*.png"))
    assert pd.read_parquet(tmp_path / "results.parquet").equals(table)


def test_sweep_block_in_yaml(tmp_path):
    text = (
        DUEL.read_text() + "sweep:\n  grid:\n    sides.blue[0].armor.pd: [4, 8]\n  trials: 2000\n"
    )
    path = tmp_path / "with-sweep.yaml"
    path.write_text(text)
    table = sweep(path, out_dir=tmp_path / "out")
    assert list(table["sides.blue[0].armor.pd"]) == [4, 8]
    assert set(table["trials"]) == {2000}
    assert (tmp_path / "out" / "sweep.png").exists()
    # Other commands accept the file too (the sweep block is stripped before validation).
    res = subprocess.run(
        [sys.executable, "-m", "fuzion_sim.cli", "validate", str(path)], capture_output=True,
        text=True,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr


def _cli(*args):
    return [sys.executable, "-m", "fuzion_sim.cli", "sweep", str(SQUAD), *args]


def test_killed_sweep_resumes_to_the_same_table(tmp_path):
    args = ["--grid", "sides.raiders[0].armor.pd=0:10:2", "--trials", "100000", "--threads", "1"]
    full, part = tmp_path / "full", tmp_path / "part"
    done = subprocess.run(_cli(*args, "-o", str(full)), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    proc = subprocess.Popen(
        _cli(*args, "-o", str(part)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    points = part / "points"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if points.exists() and any(points.glob("*.parquet")):
            break
        time.sleep(0.005)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(list(points.glob("*.parquet")))
    assert 1 <= finished
    if finished == 6:
        pytest.skip("the sweep finished before it could be killed")
    assert not (part / "results.csv").exists()
    resumed = subprocess.run(_cli(*args, "-o", str(part)), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.count("already done") == finished
    assert (part / "results.csv").read_bytes() == (full / "results.csv").read_bytes()
    pd.testing.assert_frame_equal(
        pd.read_parquet(part / "results.parquet"), pd.read_parquet(full / "results.parquet")
    )
