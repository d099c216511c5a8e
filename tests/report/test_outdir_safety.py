"""Output folders: an operating-system lock, no system folders, no parent links, names the
file system can hold, stale staging folders cleared, and a new run's files replacing the
earlier run's. None of these runs a fight."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from fuzion_sim import outdir
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.outdir import LOCK, MANIFEST, OutputDir

HOLDER = getattr(outdir, "HOLDER", ".fuzion-sim.lock.json")

_HOLD = textwrap.dedent(
    """
    import json, os, socket, sys, time
    from pathlib import Path
    from filelock import FileLock
    out = Path(sys.argv[1])
    lock = FileLock(out / {lock!r}, timeout=0)
    lock.acquire()
    note = json.dumps({{"pid": os.getpid(), "host": socket.gethostname(),
                       "started": "yesterday", "token": "x"}})
    (out / {lock!r}).write_text(note)
    (out / {holder!r}).write_text(note)
    print("held", flush=True)
    time.sleep(60)
    """
).format(lock=LOCK, holder=HOLDER)


@pytest.fixture
def holder(tmp_path):
    """A live process holding ``tmp_path/out``'s lock, its note's start time malformed."""
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE,
                            text=True)  # fmt: skip
    try:
        assert proc.stdout.readline().strip() == "held"
        yield out, proc
    finally:
        proc.kill()
        proc.wait()


def test_lock_held_by_a_live_process_with_a_malformed_note(holder):
    out, proc = holder
    with pytest.raises(FuzionSimError, match=f"pid {proc.pid} on {socket.gethostname()}") as exc:
        OutputDir(out).lock()
    assert "\n" not in str(exc.value)


def test_lock_of_a_killed_process_is_free(holder):
    out, proc = holder
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with OutputDir(out) as folder:  # the system released it: nothing to take over
        note = json.loads((out / HOLDER).read_text())
        assert note["pid"] == os.getpid()
        with pytest.raises(FuzionSimError, match=f"pid {os.getpid()}"):
            OutputDir(out).lock()  # a second holder, even in this process, is refused
        assert folder.root == out
    assert not (out / HOLDER).exists()
    with OutputDir(out):  # released
        pass


def test_stale_staging_folders_are_removed_when_the_lock_is_taken(tmp_path):
    out = tmp_path / "rep"
    stale = out / ".fuzion-sim-staging-abc123"
    stale.mkdir(parents=True)
    (stale / "index.html").write_text("half a report")
    (out / "points").mkdir()
    half = [out / ".results.csv.4242.0a1b2c3d.tmp",
            out / "points" / ".ab12.parquet.77.deadbeef.tmp"]
    for path in half:
        path.write_text("half written")
    mine = [out / "notes.txt", out / ".my.tmp"]
    for path in mine:
        path.write_text("the user's")
    with OutputDir(out, owned_dirs=("points",)):
        assert not stale.exists()
        assert not any(path.exists() for path in half)
    assert all(path.read_text() == "the user's" for path in mine)


@pytest.mark.parametrize("folder", ["/", "/etc", "/usr", "/tmp", "/etc/fuzion", "/usr/share/x",
                                    "/proc/self"])  # fmt: skip
def test_root_and_system_folders_are_refused(folder):
    with pytest.raises(FuzionSimError, match="system folder"):
        OutputDir(folder)


def test_a_name_too_long_is_one_clear_error(tmp_path):
    with pytest.raises(FuzionSimError, match="300 bytes long"):
        OutputDir(tmp_path / ("a" * 300) / "b")


def test_cli_name_too_long_exits_2(tmp_path):
    from click.testing import CliRunner
    from conftest import SCENARIOS

    from fuzion_sim.cli import cli

    res = CliRunner().invoke(cli, ["sweep", str(SCENARIOS / "marshal-vs-outlaw.yaml"),
                                   "--grid", "rules.dice=hero", "-o",
                                   str(tmp_path / ("x" * 300))])  # fmt: skip
    assert res.exit_code == 2, (res.output, res.exception)
    assert "Traceback" not in res.output and "300 bytes long" in res.output


def test_a_link_above_the_folder_is_refused_saying_where_it_leads(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(FuzionSimError, match=f"symbolic link .*link \\(to {real}\\)"):
        OutputDir(tmp_path / "link" / "report")
    assert not (real / "report").exists()
    OutputDir(real / "report")  # the real path is fine


def _write_set(out, names, stamp="1"):
    with OutputDir(out) as folder, folder.staging(replace=True) as stage:
        for name in names:
            (stage / name).parent.mkdir(parents=True, exist_ok=True)
            (stage / name).write_text(f"{name} {stamp}")


def test_a_new_set_replaces_the_earlier_runs_files_and_nothing_else(tmp_path):
    out = tmp_path / "rep"
    _write_set(out, ["index.html", "sweep.csv", "compare_win.png", "plots/a.png"])
    (out / "notes.txt").write_text("the user's")
    (out / "compare_win.png").write_text("edited by hand")  # no longer as the run wrote it
    _write_set(out, ["index.html", "wins.csv"], stamp="2")
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "compare_win.png", "index.html", "notes.txt", "wins.csv"]  # fmt: skip
    manifest = json.loads((out / MANIFEST).read_text())["files"]
    assert sorted(manifest) == ["index.html", "wins.csv"]
    assert (out / "index.html").read_text() == "index.html 2"
    # the edited file is the user's now: a later run does not overwrite it without --force
    with pytest.raises(FuzionSimError, match="not written by fuzion-sim"):
        _write_set(out, ["compare_win.png"], stamp="3")


def test_lock_wait_is_not_needed_for_sequential_runs(tmp_path):
    start = time.monotonic()
    for _ in range(3):
        with OutputDir(tmp_path / "x"):
            pass
    assert time.monotonic() - start < 5
