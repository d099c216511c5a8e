"""The fuzz test of issue 20: a fixed corpus of hostile files (``fuzz_corpus``, generated from
the shipped scenarios with a fixed seed) through ``validate`` and ``run --trials 200``, in
process. Every case must exit 0 or 2; exit 2 with exactly one line on stderr; never a
traceback; each invocation within a few seconds, and the whole within bounded memory."""

from __future__ import annotations

import collections
import resource
import time

from click.testing import CliRunner
from fuzz_corpus import corpus

from fuzion_sim.cli import cli

#: Seconds one invocation may take, and the peak resident memory of the whole run.
CASE_SECONDS = 10.0
MAX_RSS_BYTES = 1.5 * 2**30


def _check(runner, args, case):
    began = time.perf_counter()
    res = runner.invoke(cli, args)
    took = time.perf_counter() - began
    where = f"{case}: {' '.join(args[:1])}"
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        where, repr(res.exception))  # fmt: skip
    assert res.exit_code in (0, 2), (where, res.exit_code, res.output[-2000:])
    assert "Traceback" not in res.output, (where, res.output[-2000:])
    if res.exit_code == 2:
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("fuzion-sim: error: "), (where, lines)
    assert took < CASE_SECONDS, (where, took)
    return res.exit_code


def test_fuzz_corpus(tmp_path):
    runner = CliRunner()
    outcomes = collections.Counter()
    cases = corpus()
    assert len(cases) >= 300
    for i, (case, data) in enumerate(cases):
        path = tmp_path / f"case{i}.yaml"
        path.write_bytes(data)
        for args in (["validate", str(path)], ["run", str(path), "--trials", "200", "--json"]):
            outcomes[(args[0], _check(runner, args, case))] += 1
        path.unlink()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    assert rss < MAX_RSS_BYTES, rss
    # the corpus exercises both ends: files still valid after the mutation, and refused ones
    assert outcomes[("validate", 0)] > 20 and outcomes[("validate", 2)] > 200, outcomes
    assert outcomes[("run", 0)] == outcomes[("validate", 0)], outcomes
