"""``--scheduler`` pointed at something that is not a Dask scheduler: one line, exit status 2,
within the connect timeout (an HTTP server, one that sends junk, one that accepts and never
answers); a plain-TCP scheduler is used with a warning that anyone who reaches it runs code.

Every server listens on 127.0.0.1 only and the timeout is cut to one second."""

from __future__ import annotations

import http.server
import logging
import socket
import threading
import time

import pytest
from click.testing import CliRunner
from conftest import SCENARIOS

distributed = pytest.importorskip("distributed")

from fuzion_sim.cli import cli  # noqa: E402
from fuzion_sim.engine import dask_backend  # noqa: E402

FLAGSHIP = str(SCENARIOS / "marshal-vs-outlaw.yaml")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _http():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1], server.shutdown


def _raw(send: bytes | None):
    """A server that sends ``send`` to each connection (None: says nothing) and keeps it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held, stop = [], threading.Event()

    def serve():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if send is not None:
                conn.sendall(send)

    threading.Thread(target=serve, daemon=True).start()

    def close():
        stop.set()
        for conn in held:
            conn.close()
        listener.close()

    return listener.getsockname()[1], close


SERVERS = {
    "http": _http,
    "junk": lambda: _raw(bytes(range(256)) * 4),
    "silent": lambda: _raw(None),
}


@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_not_a_scheduler_is_one_line_within_the_timeout(monkeypatch, kind):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    port, close = SERVERS[kind]()
    try:
        began = time.perf_counter()
        res = CliRunner().invoke(cli, ["run", FLAGSHIP, "--trials", "100", "--backend", "dask",
                                       "--scheduler", f"tcp://127.0.0.1:{port}"])  # fmt: skip
        took = time.perf_counter() - began
    finally:
        close()
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("fuzion-sim: error: cannot reach the Dask scheduler at ")
    assert "Traceback" not in res.output
    assert took < 5.0


def test_nobody_listening_is_one_line(monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    res = CliRunner().invoke(cli, ["run", FLAGSHIP, "--backend", "dask", "--scheduler",
                                   f"127.0.0.1:{port}"])  # fmt: skip
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_plain_tcp_scheduler_warns():
    cluster = distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=logging.ERROR)  # fmt: skip
    try:
        res = CliRunner().invoke(cli, ["run", FLAGSHIP, "--trials", "100", "--backend", "dask",
                                       "--scheduler", cluster.scheduler_address])  # fmt: skip
    finally:
        dask_backend.close_clients()
        cluster.close()
    warning = [ln for ln in res.stderr.splitlines() if ln.startswith("fuzion-sim: warning:")]
    assert len(warning) == 1 and "plain TCP" in warning[0] and "TLS" in warning[0], res.stderr
    assert res.exit_code == 2 and "no workers" in res.stderr  # the run itself: one line
