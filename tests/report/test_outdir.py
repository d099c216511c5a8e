"""Output folders: no writes through symlinks, no silent overwrites, one line for
every path problem, a lock per folder, self-describing sweep points, escaped reports."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket

import pytest
from builders import cli_error
from click.testing import CliRunner
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim.analysis.sweep import POINTS_DIR
from fuzion_sim.cli import cli
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.outdir import HOLDER, LOCK, MANIFEST, OutputDir, atomic_write

FLAGSHIP = SCENARIOS / "marshal-vs-outlaw.yaml"
GRID = {"sides.blue[0].armor.pd": [4, 8]}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def small_sweep(out, **kw):
    return fz.sweep(FLAGSHIP, GRID, out_dir=out, trials=2_000, seed=1, plots=False, **kw)


# --- the folder itself -------------------------------------------------------------------------


def test_empty_output_folder_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for cmd in (["sweep", FLAGSHIP, "--grid", "rules.dice=hero", "-o", ""],
                ["report", FLAGSHIP, "-o", ""]):  # fmt: skip
        assert "is empty" in cli_error(invoke(*cmd))
    assert os.listdir(tmp_path) == []


def test_output_folder_that_is_a_file(tmp_path):
    target = tmp_path / "afile"
    target.write_text("mine")
    for cmd in (["sweep", FLAGSHIP, "--grid", "rules.dice=hero", "-o", target],
                ["report", FLAGSHIP, "--trials", "1000", "-o", target]):  # fmt: skip
        assert "exists and is not a folder" in cli_error(invoke(*cmd))
    assert target.read_text() == "mine"


def test_output_folder_that_is_a_symlink(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    res = invoke("report", FLAGSHIP, "--trials", "1000", "-o", tmp_path / "link")
    assert "is a symbolic link" in cli_error(res)
    assert os.listdir(real) == []


# --- files inside ------------------------------------------------------------------------------


def test_symlink_inside_is_never_written_through(tmp_path):
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("precious")
    (out / "results.csv").symlink_to(victim)
    res = invoke("sweep", FLAGSHIP, "--grid", "rules.dice=hero", "--trials", "2000", "-o", out)
    assert "results.csv: is a symbolic link" in cli_error(res)
    assert victim.read_text() == "precious"
    # --force replaces the link by a file, still never writing to its target
    res = invoke("sweep", FLAGSHIP, "--grid", "rules.dice=hero", "--trials", "2000", "-o", out,
                 "--force")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert victim.read_text() == "precious" and not (out / "results.csv").is_symlink()


def test_symlinked_points_folder_is_refused(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / POINTS_DIR).symlink_to(elsewhere)
    with pytest.raises(FuzionSimError, match="points: is a symbolic link"):
        small_sweep(out)
    assert os.listdir(elsewhere) == []


def test_files_the_tool_did_not_write_are_kept(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "index.md").write_text("my notes")
    res = invoke("report", FLAGSHIP, "--trials", "1000", "-o", out)
    line = cli_error(res)
    assert "index.md: exists and was not written by fuzion-sim here; use --force" in line
    assert (out / "index.md").read_text() == "my notes"
    assert not (out / "index.html").exists()  # refused before anything ran or was written
    res = invoke("report", FLAGSHIP, "--trials", "1000", "-o", out, "--force")
    assert res.exit_code == 0, res.output
    # now the tool owns them: a second run needs no --force
    assert invoke("report", FLAGSHIP, "--trials", "1000", "-o", out).exit_code == 0
    manifest = json.loads((out / MANIFEST).read_text())["files"]
    assert {"index.md", "index.html", "wins.csv"} <= set(manifest)
    # a file the user edited since is protected again
    (out / "wins.csv").write_text("edited")
    line = cli_error(invoke("report", FLAGSHIP, "--trials", "1000", "-o", out))
    assert "wins.csv: was changed since fuzion-sim wrote it" in line
    assert (out / "wins.csv").read_text() == "edited"
    assert not list(out.glob(".fuzion-sim-staging-*")) and not (out / HOLDER).exists()


def test_writes_are_atomic(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("old")

    def broken(tmp):
        tmp.write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, broken)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["f.txt"]


# --- locks -------------------------------------------------------------------------------------


def test_a_second_sweep_into_the_folder_is_stopped(tmp_path):
    out = tmp_path / "sw"
    with OutputDir(out):
        res = invoke("sweep", FLAGSHIP, "--grid", "rules.dice=hero", "--trials", "2000",
                     "-o", out)  # fmt: skip
        line = cli_error(res)
    assert f"another fuzion-sim (pid {os.getpid()} on {socket.gethostname()}" in line
    assert not (out / POINTS_DIR).exists()
    assert not (out / HOLDER).exists()  # released


def test_a_lock_file_nobody_holds_does_not_stop_a_sweep(tmp_path):
    out = tmp_path / "sw"
    out.mkdir()
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    # what a killed process leaves: the lock file and its note (the OS lock went with it)
    note = json.dumps({"pid": dead, "host": socket.gethostname(), "started": 0})
    (out / LOCK).write_text(note)
    (out / HOLDER).write_text(note)
    assert len(small_sweep(out)) == 2
    (out / LOCK).write_text("garbage")
    assert len(small_sweep(out)) == 2


# --- sweep points ------------------------------------------------------------------------------


def test_truncated_point_is_recomputed_with_a_warning(tmp_path):
    out = tmp_path / "sw"
    first = small_sweep(out)
    points = sorted((out / POINTS_DIR).glob("*.parquet"))
    data = points[0].read_bytes()
    points[0].write_bytes(data[: len(data) // 2])
    warned = []
    again = small_sweep(out, warn=warned.append)
    assert len(warned) == 1 and "unreadable" in warned[0] and "running the point again" in warned[0]
    assert again.equals(first)
    assert small_sweep(out, warn=warned.append).equals(first) and len(warned) == 1  # repaired


def test_point_copied_over_another_is_recomputed(tmp_path):
    out = tmp_path / "sw"
    first = small_sweep(out)
    a, b = sorted((out / POINTS_DIR).glob("*.parquet"))
    shutil.copyfile(a, b)
    warned = []
    again = small_sweep(out, warn=warned.append)
    assert len(warned) == 1 and "holds another point" in warned[0]
    assert again.equals(first)
    assert again["sides.blue[0].armor.pd"].tolist() == [4, 8]


def test_sweep_table_has_unresolved_column(tmp_path):
    table = fz.sweep(FLAGSHIP, {"max_rounds": [1, 50]}, trials=2_000, seed=1)
    assert "unresolved_probability" in table.columns
    never = table[table["max_rounds"] == 1].iloc[0]
    assert never["unresolved_probability"] > 0.3
    total = never["win_probability.red"] + never["win_probability.blue"]
    assert total + never["draw_probability"] + never["unresolved_probability"] == pytest.approx(1)


def test_kill_time_keeps_se_when_no_fight_is_decided():
    res = fz.simulate(fz.load_scenario(FLAGSHIP, overrides=[("max_rounds", 1),
                      ("sides.red[0].weapon", {"name": "Feather", "dc": 0, "skill": "Handgun"}),
                      ("sides.blue[0].weapon", {"name": "Feather", "dc": 0, "skill": "Rifle"})]),
                      trials=500)  # fmt: skip
    kt = res.to_json_dict()["kill_time"]
    assert kt["n"] == 0 and "se" in kt and kt["se"] is None and kt["mean"] is None


# --- reports -----------------------------------------------------------------------------------


def test_report_regenerate_line_is_shell_quoted_and_text_escaped(tmp_path):
    out = tmp_path / "rep"
    title = "It's <b>bold</b> *and* `ticked` $(touch pwned); rm -rf x"
    res = invoke("report", FLAGSHIP, "--trials", "1000", "--title", title, "-o", out)
    assert res.exit_code == 0, res.output
    md = (out / "index.md").read_text()
    html = (out / "index.html").read_text()
    line = next(x for x in md.splitlines() if x.startswith("- regenerate"))
    prose = md.replace(line, "")  # the regenerate line is a code span: literal text
    assert "<b>" not in prose and "&lt;b&gt;bold&lt;/b&gt;" in prose and r"\*and\*" in prose
    assert "<b>" not in html
    code = line.split(": ", 1)[1].strip()
    fence = code[: len(code) - len(code.lstrip("`"))]
    words = shlex.split(code[len(fence):-len(fence)].strip())
    assert words[:2] == ["fuzion-sim", "report"] and words[words.index("--title") + 1] == title
    assert words[-2:] == ["-o", "."]  # run from the report's folder
