"""A fixed-seed fuzz over every system: a corpus of hostile files (``fuzz_corpus``, generated
from every shipped scenario, vehicles', colour's and FUDGE's included) through ``validate``, and
each file still valid through ``run --trials 200``, in process.

Every case must exit 0 or 2; exit 2 with one ``fuzion-sim: error:`` line per problem on
stderr; never a traceback; each invocation within a few seconds (a hang is stopped by an alarm,
and, should that not reach it, by faulthandler ending the process with every thread's stack),
and the whole within bounded memory.
"""

from __future__ import annotations

import collections
import contextlib
import faulthandler
import resource
import signal
import time

from click.testing import CliRunner
from fuzz_corpus import PER_SCENARIO, SEED, corpus

from fuzion_sim.cli import cli
from fuzion_sim.errors import MAX_PROBLEMS

#: Keys where null is a value of its own (the schemas say so); any other key written with no
#: value is refused.
NULL_MEANS_SOMETHING = {"weapon", "armor", "autofire_ratio"}
#: Seconds one invocation may take, and the peak resident memory of the whole run.
CASE_SECONDS = 10.0
MAX_RSS_BYTES = 1.5 * 2**30


class _Hung(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: float):
    """Stop a hung invocation: SIGALRM raises in the main thread after ``seconds``; if that
    cannot reach it (a blocking call that does not return to Python), faulthandler ends the
    process a little later, printing every thread's stack."""

    def alarm(signum, frame):
        raise _Hung(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    faulthandler.dump_traceback_later(seconds * 3, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        faulthandler.cancel_dump_traceback_later()


def _check(runner, args, case):
    began = time.perf_counter()
    with _deadline(CASE_SECONDS * 2):
        res = runner.invoke(cli, args)
    took = time.perf_counter() - began
    where = f"{case}: {' '.join(args[:1])}"
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        where, repr(res.exception))  # fmt: skip
    assert res.exit_code in (0, 2), (where, res.exit_code, res.output[-2000:])
    assert "Traceback" not in res.output, (where, res.output[-2000:])
    if res.exit_code == 2:
        lines = res.stderr.strip().splitlines()
        assert 1 <= len(lines) <= MAX_PROBLEMS + 1, (where, lines)
        assert all(line.startswith("fuzion-sim: error: ") for line in lines), (where, lines)
    assert took < CASE_SECONDS, (where, took)
    return res.exit_code


def test_fuzz_corpus(tmp_path):
    runner = CliRunner()
    outcomes = collections.Counter()
    cases = corpus()
    assert (SEED, PER_SCENARIO) == (20, 6) and len(cases) == 382
    systems = collections.Counter()
    for i, (case, data) in enumerate(cases):
        path = tmp_path / f"case{i}.yaml"
        path.write_bytes(data)
        status = _check(runner, ["validate", str(path)], case)
        outcomes[("validate", status)] += 1
        if "@" in case:  # a key emptied: refused unless null means something there
            key = case.rsplit(".", 1)[-1]
            assert status == 2 or key.isdigit() or key in NULL_MEANS_SOMETHING, case
            outcomes["emptied"] += 1
        if status == 0:  # still valid: it must run, or be refused with one clear message
            outcomes[("run", _check(runner, ["run", str(path), "--trials", "200", "--json"],
                                    case))] += 1  # fmt: skip
            systems[case.split("/")[0] if "/" in case else "fuzion"] += 1
        path.unlink()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    assert rss < MAX_RSS_BYTES, rss
    # the corpus exercises both ends: files still valid after the mutation, and refused ones
    assert outcomes[("validate", 0)] > 20 and outcomes[("validate", 2)] > 250, outcomes
    assert outcomes["emptied"] > 20, outcomes
    assert outcomes[("run", 0)] + outcomes[("run", 2)] == outcomes[("validate", 0)], outcomes
    # and every system's fights, vehicles' too, ran from mutated files
    assert set(systems) == {"fuzion", "vehicles", "colour", "fudge"}, systems
