"""The engine under extreme scenarios: tallies bounded whatever ``max_rounds``, means
exact past the histograms' last bin, sub-chunks that change no number, a stop flag, and Ctrl-C
that ends a run within a second with ``interrupted after N trials`` and status 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import yaml
from conftest import ROOT, SCENARIOS

import fuzion_sim as fz
from fuzion_sim.engine import chunks, runner
from fuzion_sim.engine.outcomes import HIST_SLOTS, Tally
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.errors import Interrupted
from fuzion_sim.systems import fuzion, get_system

SLOW = {
    "name": "pins", "seed": 3, "max_rounds": 5000,
    "sides": {
        side: [{"name": side.upper(), "hits": 2000, "stun": 2000, "position": pos,
                "weapon": {"name": "Pin", "dc": 1, "skill": "Handgun"}, "skills": {"Handgun": 3},
                "armor": {"name": "Plate", "pd": 4}}]
        for side, pos in (("a", 0), ("b", 5))
    },
}  # fmt: skip


def test_tally_size_does_not_grow_with_max_rounds():
    for rounds in (50, 10_000):
        sc = fz.load_scenario(SCENARIOS / "squad-4v4.yaml", overrides=[("max_rounds", rounds)])
        res = fz.simulate(sc, trials=300, keep_trials=False)
        assert res.tally.end_hist.shape[1] == min(rounds * 4, HIST_SLOTS) + 1
        assert res.tally.out_hist.shape == (8, min(rounds * 4, HIST_SLOTS) + 1)


@pytest.mark.parametrize("keep", [True, False])
def test_mean_kill_time_exact_past_the_last_bin(keep):
    res = fz.simulate(SLOW, trials=300, keep_trials=True)
    o = res.outcomes
    decided = o.winner >= 0
    times = o.end_slot[decided].astype(np.int64)
    assert times.min() > HIST_SLOTS  # every fight outlasts the histogram
    streamed = fz.simulate(SLOW, trials=300, keep_trials=keep)
    kt = streamed.kill_time()
    assert kt["n"] == decided.sum() and kt["tail_from"] == HIST_SLOTS
    assert kt["mean"] == pytest.approx(times.mean(), rel=1e-15)
    assert kt["sd"] == pytest.approx(times.std(ddof=1), rel=1e-12)
    down = streamed.down_times()[0]["time_to_down_mean"]
    out_a = o.out_slot[:, 0][o.out_slot[:, 0] > 0]
    assert down == pytest.approx(out_a.mean(), rel=1e-15)


FUZION = get_system("fuzion")


def _compiled(name, overrides=()):
    sc = fz.load_scenario(SCENARIOS / name, overrides=list(overrides))
    return fuzion.compile_scenario(sc)


@pytest.mark.parametrize(
    "name", ["benchmark-duel.yaml", "squad-4v4.yaml", "spd-duel.yaml", "brawler-vs-gunman.yaml"]
)
@pytest.mark.parametrize("keep", [True, False])
def test_sub_chunks_change_no_number(monkeypatch, name, keep):
    plan = _compiled(name)
    whole, out = chunks._sub_result(FUZION, plan, chunk_key(5, 1), 0, 3000, keep)
    monkeypatch.setattr(chunks, "SUB_FIRST", 7)
    monkeypatch.setattr(chunks, "SUB_MIN", 5)
    monkeypatch.setattr(chunks, "SUB_SECONDS", 1e-9)  # every sub-chunk as small as allowed
    split, split_out = chunks.chunk_result(FUZION, plan, 5, 1, 3000, keep)
    for k, v in whole.to_state().items():
        assert np.array_equal(v, split.to_state()[k]), k
    if keep:
        for a, b in zip(out.arrays(), split_out.arrays(), strict=True):
            assert np.array_equal(a, b)


def test_stop_flag_abandons_a_chunk():
    plan = _compiled("squad-4v4.yaml")
    flag = threading.Event()
    flag.set()
    with pytest.raises(chunks.Stopped):
        chunks.chunk_result(FUZION, plan, 1, 0, 5000, False, flag)


def test_keyboard_interrupt_becomes_interrupted(monkeypatch):
    calls = []
    real = chunks._sub_result

    def interrupting(*args):
        calls.append(args[3])
        if len(calls) > 6:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(chunks, "_sub_result", interrupting)
    with pytest.raises(Interrupted) as err:
        fz.simulate(SCENARIOS / "squad-4v4.yaml", trials=10**8, threads=1)
    assert err.value.trials > 0 and isinstance(err.value, KeyboardInterrupt)


def test_default_keep_is_bounded_by_cells():
    assert runner.default_keep(2_000_000, 8) and not runner.default_keep(2_000_000, 9)
    assert not runner.default_keep(200_000, 100)
    assert Tally.zeros(2, 2, 10**6).end_hist.shape == (4, HIST_SLOTS + 1)


def _interrupt(args, delay, tmp_path):
    """Run the command, Ctrl-C its process group after ``delay`` s; (status, seconds to exit
    after the signal, stderr)."""
    cmd = [sys.executable, "-c", "from fuzion_sim.entry import main; main()", *map(str, args)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    time.sleep(delay)
    sent = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, time.perf_counter() - sent, err.decode()


def _many_chunks_file(tmp_path):
    """The 4 v 4 squad fight four times over (16 v 16, on the general kernel): a chunk of it
    takes about 6 s a thread, so waiting for whole chunks could not pass for a sub-chunk's
    wait (about 0.1 s)."""
    data = yaml.safe_load((SCENARIOS / "squad-4v4.yaml").read_text())
    for side, members in data["sides"].items():
        data["sides"][side] = [dict(m, name=f"{m['name']} {k}") for k in range(4) for m in members]
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("delay", [0.2, 4.0])  # while starting, and mid-run
def test_ctrl_c_threads(tmp_path, delay):
    status, took, err = _interrupt(
        ["run", _many_chunks_file(tmp_path), "--trials", "1000000000"], delay, tmp_path
    )
    assert status == 130, err
    assert err.strip().splitlines()[-1].startswith("fuzion-sim: interrupted after ")
    assert "Traceback" not in err and "Aborted" not in err
    # the message comes about 0.4 s after the signal and the interpreter's exit about 0.5 s
    # later; a CI machine under its own test load stretches both
    assert took < 2.0


def test_ctrl_c_sweep_leaves_no_partial_file(tmp_path):
    out = tmp_path / "sw"
    status, took, err = _interrupt(
        ["sweep", SCENARIOS / "squad-4v4.yaml", "--grid", "rules.dice=hero,interlock",
         "--trials", "100000000", "-o", out], 4.0, tmp_path,
    )  # fmt: skip
    assert status == 130 and "interrupted after" in err and "Traceback" not in err
    leftovers = [p.name for p in out.rglob("*") if p.name.endswith(".tmp") or "staging" in p.name]
    assert leftovers == [] and not (out / ".fuzion-sim.lock.json").exists()
    from filelock import FileLock  # the lock's file stays; the lock itself went with the process

    with FileLock(out / ".fuzion-sim.lock", timeout=0):
        pass
    assert took < 1.5


def test_entry_point_is_light():
    """``import fuzion_sim`` loads no kernel, so a Ctrl-C while the command starts is ours."""
    code = "import sys, fuzion_sim, fuzion_sim.entry; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
