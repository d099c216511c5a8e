"""The local Dask cluster ``--backend dask`` starts: TLS with temporary credentials,
no HTTP server anywhere, no connection without the credentials, and Ctrl-C that reaches only
the client (no worker traceback), while it starts and mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from conftest import SCENARIOS

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

from fuzion_sim import simulate  # noqa: E402
from fuzion_sim.engine import dask_backend  # noqa: E402


@pytest.fixture(scope="module")
def local_client():
    client = dask_backend.get_client(None, 2)
    try:
        yield client
    finally:
        dask_backend.close_clients()


def _listening_ports() -> set[int]:
    me = psutil.Process()
    ports = set()
    for proc in [me, *me.children(recursive=True)]:
        for conn in proc.net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN:
                ports.add(conn.laddr.port)
    return ports


def test_tls_and_no_http(local_client):
    address = local_client.scheduler.address
    assert address.startswith("tls://127.0.0.1:")
    info = local_client.scheduler_info()
    comm = {int(address.rsplit(":", 1)[1])}
    for worker, meta in info["workers"].items():
        assert worker.startswith("tls://")
        assert not meta.get("services")  # no dashboard / HTTP service registered
        comm |= {int(worker.rsplit(":", 1)[1]), int(meta["nanny"].rsplit(":", 1)[1])}
    ports = _listening_ports()
    assert ports == comm  # nothing listens but the TLS comms: no HTTP port (8787 or other)
    for port in ports:
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=3)


def test_no_connection_without_the_credentials(local_client):
    address = local_client.scheduler.address
    with pytest.raises(Exception):  # noqa: B017 - TypeError, OSError, CommClosedError ...
        distributed.Client(address.replace("tls://", "tcp://"), timeout="3s")
    other = distributed.Security.temporary()  # a valid TLS identity from another CA
    with pytest.raises(Exception):  # noqa: B017
        distributed.Client(address, security=other, timeout="3s")


def test_runs_on_it_identical(local_client):
    duel = SCENARIOS / "benchmark-duel.yaml"
    a = simulate(duel, trials=70_000, seed=2, backend="dask", progress=False, threads=2)
    b = simulate(duel, trials=70_000, seed=2, threads=2, progress=False)
    assert a.backend == "dask" and a.to_json_dict()["sides"] == b.to_json_dict()["sides"]


@pytest.mark.parametrize("delay", [2.5, 9.0])  # while the cluster starts, and mid-run
def test_ctrl_c_on_dask(tmp_path, delay):
    cmd = [sys.executable, "-c", "from fuzion_sim.entry import main; main()", "run",
           str(SCENARIOS / "squad-4v4.yaml"), "--trials", "1000000000", "--backend", "dask",
           "--threads", "2"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    time.sleep(delay)
    sent = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    took = time.perf_counter() - sent
    err = err.decode()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == [err.strip().splitlines()[-1]], err  # one line
    assert err.startswith("fuzion-sim: interrupted after ")
    assert took < 3.0, took


def test_a_spawned_child_whose_parent_has_gone_fails_quietly(tmp_path):
    """A worker still starting when Ctrl-C ended the run fails without a traceback on the
    terminal; the control (no wrapper) prints one, and so does the wrapped program while its
    parent lives."""
    from fuzion_sim.engine.dask_local import orphan_quiet

    fails = "import time\ntime.sleep(0.5)\nraise EOFError('the pipe ended')"
    outs = {}
    for name, wrap in (("quiet", "orphan_quiet"), ("control", "str")):
        outs[name] = tmp_path / f"{name}.txt"
        launcher = ("import subprocess, sys\n"
                    "from fuzion_sim.engine.dask_local import orphan_quiet\n"
                    f"prog = {wrap}({fails!r})\n"
                    f"subprocess.Popen([sys.executable, '-c', prog], "
                    f"stderr=open({str(outs[name])!r}, 'w'))\n")  # exits at once: an orphan
        subprocess.run([sys.executable, "-c", launcher], check=True, timeout=60)
    time.sleep(2.0)
    assert outs["quiet"].read_text() == ""
    assert "EOFError: the pipe ended" in outs["control"].read_text()
    alive = subprocess.run([sys.executable, "-c", orphan_quiet(fails)], capture_output=True,
                           text=True, timeout=30)  # fmt: skip
    assert alive.returncode == 1 and "EOFError: the pipe ended" in alive.stderr
