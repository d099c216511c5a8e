"""The command's edges: overrides on every command that takes a scenario (``--set``, the rule
shortcuts, ``attack SCENARIO``), names with control characters, long user strings in errors,
and SIGINT / SIGTERM on a running command (one line, 130 / 143, the partial result of the
whole chunks finished, nothing half-written)."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
import yaml
from builders import cli_error
from click.testing import CliRunner
from conftest import SCENARIOS

import fuzion_sim as fz
from fuzion_sim.cli import cli
from fuzion_sim.engine.rng import CHUNK

FLAGSHIP = str(SCENARIOS / "marshal-vs-outlaw.yaml")
DUEL = str(SCENARIOS / "benchmark-duel.yaml")
HOW = {"elapsed_s", "trials_per_second", "threads", "backend"}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _changed_file(tmp_path, mutate, name="changed.yaml") -> str:
    data = yaml.safe_load(open(FLAGSHIP).read())
    mutate(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=False))
    return str(path)


# -- overrides --------------------------------------------------------------------------------


def test_attack_scenario_takes_the_overrides_of_run():
    res = invoke("attack", FLAGSHIP, "--attacker", "Marshal", "--target", "Outlaw", "--dice",
                 "interlock", "--set", "sides.blue[0].armor.pd=2", "--json")  # fmt: skip
    assert res.exit_code == 0, res.output
    sc = fz.load_scenario(FLAGSHIP, overrides={"rules.dice": "interlock",
                                               "sides.blue[0].armor.pd": 2})  # fmt: skip
    assert json.loads(res.stdout) == json.loads(json.dumps(
        fz.api.exact_attack(sc, "Marshal", "Outlaw")))  # fmt: skip
    plain = json.loads(invoke("attack", FLAGSHIP, "--attacker", "Marshal", "--target", "Outlaw",
                              "--json").stdout)  # fmt: skip
    assert plain != json.loads(res.stdout)
    # a flag-form number still has no meaning with a scenario: one line naming it and --set
    line = cli_error(invoke("attack", FLAGSHIP, "--attacker", "Marshal", "--target", "Outlaw",
                             "--av", "3"))  # fmt: skip
    assert "--av" in line and "--set" in line


def _commands() -> dict:
    """Every command, the rule systems' questions too."""
    ctx = click.Context(cli)
    return {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}


def _scenario_commands():
    return sorted(name for name, cmd in _commands().items()
                  if any(p.name == "scenario" for p in cmd.params))  # fmt: skip


def test_every_scenario_command_takes_set_and_the_shortcuts():
    names = _scenario_commands()
    assert {"run", "validate", "compare", "sweep", "balance", "report", "attack", "exact",
            "replay", "impact", "hazard", "manoeuvre", "dogfight"} <= set(names)  # fmt: skip
    for name in names:
        options = {o for p in _commands()[name].params if isinstance(p, click.Option)
                   for o in p.opts}  # fmt: skip
        assert {"--set", "--dice"} <= options, name


def test_set_is_the_same_as_editing_the_file(tmp_path):
    edited = _changed_file(tmp_path, lambda d: d["sides"]["blue"][0].update(
        armor={"name": "Hide coat", "pd": 10}))  # fmt: skip
    by_set = invoke("exact", FLAGSHIP, "--set", "sides.blue[0].armor.pd=10", "--json")
    by_file = invoke("exact", edited, "--json")
    assert by_set.exit_code == 0, by_set.output
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k != "scenario"}  # noqa: E731
    assert strip(by_set.stdout) == strip(by_file.stdout)
    assert strip(by_set.stdout) != strip(invoke("exact", FLAGSHIP, "--json").stdout)
    out = invoke("validate", FLAGSHIP, "--set", "sides.blue[0].armor.pd=10", "--set",
                 "rules.dice=interlock").stdout  # fmt: skip
    assert "(PD 10)" in out and "--set 'sides.blue[0].armor.pd=10'" in out


@pytest.mark.parametrize(("text", "expected"), [
    ("sides.blue[0].armor.pd=-5", "--set sides.blue[0].armor.pd=-5: must be at least 0"),
    ("sides.blue[0].armr.pd=5", "--set sides.blue[0].armr.pd=5: sides.blue[0].armr: unknown "
                                "key 'armr'; did you mean 'armor'?"),
    ("sides.blue[3].hits=5", "--set sides.blue[3].hits=5: no index [3]"),
    ("rules.dice=hexagon", "--set rules.dice=hexagon: unknown value 'hexagon'"),
    ("sides.red[0].stats.BODY=0", "--set sides.red[0].stats.BODY=0: BODY must be at least 1"),
    ("nokey", "--set 'nokey': expected KEY=VALUE"),
])  # fmt: skip
def test_a_bad_override_names_the_option_not_a_line(text, expected):
    for command in (["validate"], ["run", "--trials", "100"]):
        line = cli_error(invoke(*command[:1], FLAGSHIP, *command[1:], "--set", text))
        assert expected in line, line
        assert "marshal-vs-outlaw.yaml" not in line


def test_compare_varies_the_overridden_base():
    res = invoke("compare", FLAGSHIP, "--set", "sides.blue[0].armor.pd=30", "--vary",
                 "rules.dice=hero,interlock", "--trials", "2000", "--json")  # fmt: skip
    assert res.exit_code == 0, res.output
    variants = json.loads(res.stdout)["variants"]
    for variant, dice in zip(variants, ("hero", "interlock"), strict=True):
        direct = fz.simulate(FLAGSHIP, trials=2000, overrides={
            "sides.blue[0].armor.pd": 30, "rules.dice": dice})  # fmt: skip
        assert variant["sides"]["red"]["win_probability"] == direct.win_probability("red")
        assert variant["kill_time"]["mean"] == direct.kill_time()["mean"]


# -- control characters and long strings --------------------------------------------------------


def _hostile(tmp_path) -> str:
    def mutate(d):
        d["name"] = "Duel\x1b]0;pwned\x07 at\x1b[2J noon"
        d["sides"]["red"][0]["name"] = "Mar\x1b[31mshal\x07"
        d["sides"]["blue"][0]["weapon"]["name"] = "Hunting\x1b[2Jcarbine\x07"

    return _changed_file(tmp_path, mutate, "hostile.yaml")


@pytest.mark.parametrize("command", [
    ["validate"], ["run", "--trials", "300"], ["replay", "--trial", "1"], ["exact"],
    ["compare", "--vary", "rules.dice=hero,interlock", "--trials", "300"],
])  # fmt: skip
def test_control_characters_never_reach_the_terminal(tmp_path, command):
    res = invoke(command[0], _hostile(tmp_path), *command[1:])
    assert res.exit_code == 0, res.output
    # (click drops ANSI sequences from what it prints to a pipe, not the bell; rich drops
    # neither: on a terminal both went through raw)
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "\\x07" in res.output


def _bracketed(tmp_path) -> str:
    def mutate(d):
        d["name"] = "Duel [/bold] at [red]noon"
        d["sides"]["red"][0]["name"] = "[b]Marshal[/b"

    return _changed_file(tmp_path, mutate, "bracketed.yaml")


@pytest.mark.parametrize("command", [
    ["validate"], ["run", "--trials", "300"], ["exact"],
    ["compare", "--vary", "rules.dice=hero,interlock", "--trials", "300"],
])  # fmt: skip
def test_square_brackets_in_names_show_as_written(tmp_path, command):
    """A name is never read as the terminal library's markup (``[/bold]`` was a traceback)."""
    res = invoke(command[0], _bracketed(tmp_path), *command[1:])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    if command[0] != "validate":
        assert "Duel [/bold] at [red]noon" in res.output


def test_errors_quote_at_most_about_80_characters(tmp_path):
    long = "Magnum" + "x" * 500
    line = cli_error(invoke("validate", FLAGSHIP, "--set", f"sides.red[0].weapon={long}"))
    assert "x" * 90 not in line and "..." in line and len(line) < 400
    line = cli_error(invoke("validate", FLAGSHIP, "--set",
                             "sides.red[0].name=\x1b[2J" + "y" * 300 + "\x07", "--set",
                             "sides.blue[0].name=\x1b[2J" + "y" * 300 + "\x07"))  # fmt: skip
    assert "\x1b" not in line and "\x07" not in line and "y" * 90 not in line


# -- signals ------------------------------------------------------------------------------------


def _start(args, tmp_path):
    """Start the command with stderr on a terminal (so its progress bar shows once trials
    run); the process and the terminal's reading end."""
    master, slave = pty.openpty()
    cmd = [sys.executable, "-c", "from fuzion_sim.entry import main; main()", *map(str, args)]
    here = Path(fz.__file__).resolve().parent.parent  # the fuzion_sim under test
    env = {**os.environ, "PYTHONPATH": str(here), "COLUMNS": "80"}
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=slave, env=env,
                            start_new_session=True)  # fmt: skip
    os.close(slave)
    return proc, master


def _read(fd, until=None, timeout=60.0) -> str:
    """What the terminal shows, up to ``until(text)`` (or the end)."""
    text, end = b"", time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the command has exited
                break
            if not chunk:
                break
            text += chunk
            if until is not None and until(text.decode(errors="replace")):
                break
    return text.decode(errors="replace")


def _signal(proc, fd, sig):
    proc.send_signal(sig)
    sent = time.monotonic()
    out = proc.stdout.read()
    status = proc.wait(timeout=30)
    err = _read(fd, timeout=5)
    os.close(fd)
    return status, out.decode(), err, time.monotonic() - sent


def _last_line(err: str) -> str:
    return [ln.strip() for ln in err.replace("\r", "\n").splitlines() if ln.strip()][-1]


def _running(proc, fd) -> None:
    """Wait until the run's progress bar shows (its trials are running)."""
    _read(fd, until=lambda text: "trials" in text or "%" in text, timeout=60)
    assert proc.poll() is None


def test_sigterm_is_ctrl_c(tmp_path):
    proc, fd = _start(["run", DUEL, "--trials", "100000000000", "--threads", "2"], tmp_path)
    _running(proc, fd)
    status, _out, err, took = _signal(proc, fd, signal.SIGTERM)
    assert status == 143, err
    assert "fuzion-sim: terminated after " in _last_line(err)
    assert "Traceback" not in err and took < 10  # it stops within a sub-chunk; the rest is printing


def test_sigterm_during_report_leaves_nothing_half_written(tmp_path):
    out_dir = tmp_path / "rep"
    proc, fd = _start(["report", DUEL, "--trials", "100000000000", "-o", out_dir], tmp_path)
    end = time.monotonic() + 60
    while not list(out_dir.glob(".fuzion-sim-staging-*")) and time.monotonic() < end:
        time.sleep(0.05)
    assert list(out_dir.glob(".fuzion-sim-staging-*")), "the report never began"
    status, _out, err, _took = _signal(proc, fd, signal.SIGTERM)
    assert status == 143 and "terminated after" in err and "Traceback" not in err
    left = [p.name for p in tmp_path.rglob("*") if "staging" in p.name or p.suffix == ".tmp"]
    assert left == [] and not (out_dir / ".fuzion-sim.lock.json").exists()
    from filelock import FileLock  # the lock's file stays; the lock itself went with the process

    with FileLock(out_dir / ".fuzion-sim.lock", timeout=0):
        pass


def test_ctrl_c_prints_the_partial_result_of_whole_chunks(tmp_path):
    proc, fd = _start(["run", DUEL, "--trials", "100000000000", "--threads", "2", "--json"],
                      tmp_path)  # fmt: skip
    _running(proc, fd)
    status, out, err, _took = _signal(proc, fd, signal.SIGINT)
    assert status == 130, err
    last = _last_line(err)
    assert "fuzion-sim: interrupted after " in last and "the result above" in last, err
    partial = json.loads(out)
    assert partial.pop("interrupted") is True
    n = partial["trials"]
    assert n > 0 and n % CHUNK == 0
    lo, hi = partial["sides"]["a"]["ci95"]
    assert lo < partial["sides"]["a"]["win_probability"] < hi
    whole = json.loads(invoke("run", DUEL, "--trials", n, "--threads", "2", "--json").stdout)
    assert {k: v for k, v in partial.items() if k not in HOW} == {
        k: v for k, v in whole.items() if k not in HOW}  # fmt: skip


def test_ctrl_c_in_the_api_keeps_the_whole_chunks(monkeypatch):
    """``Interrupted.result``: the chunks merged in order before Ctrl-C, equal to a run of
    that many trials."""
    from fuzion_sim.engine import runner
    from fuzion_sim.errors import Interrupted

    real, calls = runner.chunk_result, []

    def third_chunk_interrupts(system, plan, seed, chunk, n, *args, **kwargs):
        if n == CHUNK:
            calls.append(chunk)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return real(system, plan, seed, chunk, n, *args, **kwargs)

    monkeypatch.setattr(runner, "chunk_result", third_chunk_interrupts)
    with pytest.raises(Interrupted) as stop:
        fz.simulate(DUEL, trials=10 * CHUNK, threads=1, seed=5)
    partial = stop.value.result
    assert partial is not None and partial.trials == 2 * CHUNK
    monkeypatch.setattr(runner, "chunk_result", real)
    again = fz.simulate(DUEL, trials=2 * CHUNK, threads=1, seed=5)
    assert partial.to_json_dict() | dict.fromkeys(HOW) == again.to_json_dict() | dict.fromkeys(HOW)


def test_a_ctrl_c_wrapped_by_an_import_is_an_interrupt(monkeypatch):
    """Ctrl-C while numpy defines a class reaches the command as a RuntimeError caused by the
    KeyboardInterrupt (``__set_name__``): still one line and exit status 130, no traceback."""
    from fuzion_sim import cli_common

    def wrapped(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as err:
            raise RuntimeError("Error calling __set_name__") from err

    monkeypatch.setattr(cli_common, "_base", wrapped)
    res = invoke("run", DUEL, "--trials", "1000")
    assert res.exit_code == 130, res.output
    assert res.output.strip().splitlines()[-1] == "fuzion-sim: interrupted after 0 trials"
    def plain(*args, **kwargs):
        raise RuntimeError("x")

    monkeypatch.setattr(cli_common, "_base", plain)
    assert invoke("run", DUEL, "--trials", "1000").exit_code != 130  # a plain error stays one
