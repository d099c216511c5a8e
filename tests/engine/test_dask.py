"""The Dask backend gives bit-identical results to the local thread pool for the same seed.

One LocalCluster (two worker processes, one thread each, on loopback) serves the whole module;
runs are small but span several chunks, the last one partial.
"""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest
from conftest import SCENARIOS

distributed = pytest.importorskip("distributed")

from fuzion_sim import load_scenario, simulate  # noqa: E402
from fuzion_sim.engine import dask_backend  # noqa: E402
from fuzion_sim.engine.outcomes import Tally  # noqa: E402
from fuzion_sim.engine.rng import CHUNK  # noqa: E402

TRIALS = 150_000  # chunks of 65536, 65536 and 18928
HOW = ("elapsed_s", "trials_per_second", "threads", "backend")


def what(result) -> dict:
    return {k: v for k, v in result.to_json_dict().items() if k not in HOW}


def assert_tallies_equal(a: Tally, b: Tally) -> None:
    sa, sb = a.to_state(), b.to_state()
    for key in sa:
        assert np.array_equal(sa[key], sb[key]), key


@pytest.fixture(scope="module")
def tls_cluster():
    """A "real" cluster that requires mutual TLS, as README documents for shared clusters."""
    security = distributed.Security.temporary()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=logging.ERROR, security=security,
    )  # fmt: skip
    try:
        yield cluster.scheduler_address, security
    finally:
        dask_backend.close_clients()
        cluster.close()


@pytest.fixture(scope="module")
def scheduler(tls_cluster):
    """A client connected to it with the right credentials (what ``--tls-*`` builds)."""
    address, security = tls_cluster
    return dask_backend.get_client(address, security=security)


@pytest.fixture(scope="module")
def duel():
    return load_scenario(SCENARIOS / "benchmark-duel.yaml")


def test_identical_to_threads(scheduler, duel):
    local = simulate(duel, trials=TRIALS, seed=4, threads=2, progress=False)
    remote = simulate(duel, trials=TRIALS, seed=4, backend="dask", scheduler=scheduler,
                      progress=False)  # fmt: skip
    assert remote.backend == "dask" and remote.threads == 2
    assert what(remote) == what(local)
    assert_tallies_equal(remote.tally, local.tally)
    for x, y in zip(remote.outcomes.arrays(), local.outcomes.arrays(), strict=True):
        assert np.array_equal(x, y)


def test_streamed_identical(scheduler):
    squad = load_scenario(SCENARIOS / "bench-squad-4v4.yaml")
    local = simulate(squad, trials=TRIALS, seed=8, threads=1, keep_trials=False, progress=False)
    remote = simulate(squad, trials=TRIALS, seed=8, keep_trials=False, backend="dask",
                      scheduler=scheduler, progress=False)  # fmt: skip
    assert remote.outcomes is None
    assert what(remote) == what(local)
    assert_tallies_equal(remote.tally, local.tally)


def test_other_seed_differs(scheduler, duel):
    """Negative control: the identity above is not vacuous."""
    a = simulate(duel, trials=CHUNK, seed=4, backend="dask", scheduler=scheduler)
    b = simulate(duel, trials=CHUNK, seed=5, backend="dask", scheduler=scheduler)
    assert what(a) != what(b)


def test_stop_after_each_chunk_in_order(scheduler, duel):
    seen = []

    def stop(tally):
        seen.append(tally.n_trials)
        return tally.n_trials > CHUNK

    remote = simulate(duel, trials=20 * CHUNK, seed=6, backend="dask", scheduler=scheduler,
                      stop=stop, progress=False)  # fmt: skip
    assert seen == [CHUNK, 2 * CHUNK]
    assert remote.trials == 2 * CHUNK
    local = simulate(duel, trials=2 * CHUNK, seed=6, threads=2, progress=False)
    assert what(remote) == what(local)


def test_client_reused(tls_cluster, scheduler):
    address, security = tls_cluster
    assert dask_backend.get_client(address, security=security) is scheduler
    assert dask_backend.get_client(scheduler) is scheduler


def test_cli_tls_options(tls_cluster, tmp_path):
    """``--tls-ca/--tls-cert/--tls-key`` reach a TLS scheduler; without them, one line."""
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    address, security = tls_cluster
    files = {}
    for name, pem in (("ca", security.tls_ca_file), ("cert", security.tls_client_cert),
                      ("key", security.tls_client_key)):  # fmt: skip
        files[name] = tmp_path / f"{name}.pem"
        files[name].write_text(pem)
    flagship = str(SCENARIOS / "marshal-vs-outlaw.yaml")
    base = ["run", flagship, "--trials", "70000", "--json"]
    res = CliRunner().invoke(cli, [*base, "--backend", "dask", "--scheduler", address,
                                   "--tls-ca", str(files["ca"]), "--tls-cert",
                                   str(files["cert"]), "--tls-key", str(files["key"])])  # fmt: skip
    assert res.exit_code == 0, res.output
    local = CliRunner().invoke(cli, base)
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in HOW}  # noqa: E731
    assert strip(res.stdout) == strip(local.stdout)
    res = CliRunner().invoke(cli, [*base, "--backend", "dask", "--scheduler", address])
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res.output
    assert "cannot reach the Dask scheduler" in res.stderr
