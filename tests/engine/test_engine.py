"""The engine: chunking, thread-count independence, per-trial prefixes, stop rules, flat memory.

No timings here (benchmarks live in ``benchmarks/``); every check is an exact equality.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from conftest import SCENARIOS

from fuzion_sim import load_scenario, simulate
from fuzion_sim.engine.chunks import (
    PIECE_MIN,
    SUB_FIRST,
    chunk_result,
    chunk_spans,
    in_order,
    iter_pieces,
    iter_spans,
)
from fuzion_sim.engine.outcomes import Tally
from fuzion_sim.engine.rng import CHUNK
from fuzion_sim.engine.runner import KEEP_TRIALS_MAX, run_plan
from fuzion_sim.errors import FuzionSimError
from fuzion_sim.systems import get_system

#: Three chunks, the last one partial.
TRIALS = 2 * CHUNK + 18_000
#: Fields of the JSON record that describe how a run ran, not what it found.
HOW = ("elapsed_s", "trials_per_second", "threads", "backend")


def what(result) -> dict:
    """A result's JSON record without the fields that depend on how it ran."""
    return {k: v for k, v in result.to_json_dict().items() if k not in HOW}


def assert_tallies_equal(a: Tally, b: Tally) -> None:
    sa, sb = a.to_state(), b.to_state()
    assert sa.keys() == sb.keys()
    for key in sa:
        assert np.array_equal(sa[key], sb[key]), key


def assert_outcomes_equal(a, b) -> None:
    assert a.n == b.n
    for x, y in zip(a.arrays(), b.arrays(), strict=True):
        assert x.dtype == y.dtype
        assert np.array_equal(x, y)


@pytest.fixture(scope="module")
def duel():
    return load_scenario(SCENARIOS / "benchmark-duel.yaml")


@pytest.fixture(scope="module")
def compiled(duel):
    system = get_system(duel.system)
    return system, system.compile(duel)


# ------------------------------------------------------------------------------------------
# chunk spans
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trials", "expected"),
    [
        (0, []),
        (1, [(0, 1)]),
        (CHUNK - 1, [(0, CHUNK - 1)]),
        (CHUNK, [(0, CHUNK)]),
        (CHUNK + 1, [(0, CHUNK), (1, 1)]),
        (3 * CHUNK + 5, [(0, CHUNK), (1, CHUNK), (2, CHUNK), (3, 5)]),
    ],
)
def test_chunk_spans(trials, expected):
    assert chunk_spans(trials) == expected
    assert list(iter_spans(trials)) == expected
    assert sum(n for _, n in expected) == trials


def test_iter_spans_is_lazy():
    """A run of 10^15 trials must not build a list of 15 billion spans."""
    spans = iter_spans(10**15)
    assert next(spans) == (0, CHUNK)
    assert next(spans) == (1, CHUNK)


@pytest.mark.parametrize("trials", [0, 1, PIECE_MIN, 5000, CHUNK, CHUNK + 7, TRIALS, 9 * CHUNK])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_pieces_cover_every_trial_once_in_order(trials, threads):
    pieces = list(iter_pieces(trials, threads))
    spans = chunk_spans(trials)
    # the pieces of each chunk, back to back from its first trial, its last one marked
    for chunk, n in spans:
        mine = [(first, size, ends) for c, first, size, ends in pieces if c == chunk]
        starts = np.cumsum([0] + [size for _, size, _ in mine])[:-1]
        assert [first for first, _, _ in mine] == list(starts)
        assert sum(size for _, size, _ in mine) == n
        assert [ends for _, _, ends in mine] == [False] * (len(mine) - 1) + [True]
        assert all(size >= PIECE_MIN for _, size, _ in mine) or len(mine) == 1
    assert [c for c, *_ in pieces] == sorted(c for c, *_ in pieces)
    if threads == 1 or len(spans) >= 2 * threads:
        assert len(pieces) == len(spans)  # whole chunks
    elif len(spans) == 1 and trials >= 2 * threads * PIECE_MIN:
        assert len(pieces) == 2 * threads  # every thread has work


def test_a_runs_chunks_share_the_pace(compiled):
    """The first chunk of a run probes the kernel's rate with SUB_FIRST trials; the next chunks
    start at that pace (a fast kernel runs a chunk in one call), with the same tally."""
    system, plan = compiled
    sizes = []

    class Counting:
        def __getattr__(self, name):
            return getattr(system, name)

        def tally_chunk(self, plan, key, first, n):
            sizes.append(n)
            return system.tally_chunk(plan, key, first, n)

    pace: dict = {}
    first, _ = chunk_result(Counting(), plan, 5, 0, 20_000, False, pace=pace)
    assert sizes[0] == SUB_FIRST and pace["rate"] > 0
    sizes.clear()
    again, _ = chunk_result(Counting(), plan, 5, 0, 20_000, False, pace=pace)
    assert sizes == [20_000]  # the benchmark duel: far more than 0.1 s of trials a second
    alone, _ = chunk_result(system, plan, 5, 0, 20_000, False)
    for tally in (again, alone):
        assert np.array_equal(tally.outcome_counts, first.outcome_counts)
        assert np.array_equal(tally.end_hist, first.end_hist)


def test_one_chunk_split_across_threads_identical(duel):
    """A run of one chunk runs in pieces on several threads: the same numbers as on one."""
    one = simulate(duel, trials=5000, seed=3, threads=1, keep_trials=True, progress=False)
    for threads in (2, 3):
        many = simulate(duel, trials=5000, seed=3, threads=threads, keep_trials=True,
                        progress=False)  # fmt: skip
        assert what(one) == what(many)
        assert_outcomes_equal(one.outcomes, many.outcomes)


# ------------------------------------------------------------------------------------------
# same numbers whatever the thread count; prefixes; keep or stream
# ------------------------------------------------------------------------------------------


def test_one_and_two_threads_identical(duel):
    one = simulate(duel, trials=TRIALS, seed=11, threads=1, progress=False)
    two = simulate(duel, trials=TRIALS, seed=11, threads=2, progress=False)
    assert one.threads == 1 and two.threads == 2
    assert what(one) == what(two)
    assert_tallies_equal(one.tally, two.tally)
    assert_outcomes_equal(one.outcomes, two.outcomes)


def test_different_seed_differs(duel):
    """Negative control for the identity checks: another seed gives other numbers."""
    a = simulate(duel, trials=CHUNK + 10, seed=11, threads=2, progress=False)
    b = simulate(duel, trials=CHUNK + 10, seed=12, threads=2, progress=False)
    assert what(a) != what(b)


@pytest.mark.parametrize(("short", "long"), [(1_000, CHUNK + 5), (CHUNK + 1_000, TRIALS)])
def test_per_trial_prefix(compiled, short, long):
    """The first N trials are the same whether the run had N trials or more."""
    system, plan = compiled
    a = run_plan(system, plan, short, seed=5, threads=2, keep_trials=True, progress=False)
    b = run_plan(system, plan, long, seed=5, threads=2, keep_trials=True, progress=False)
    assert a.trials.n == short and b.trials.n == long
    for x, y in zip(a.trials.arrays(), b.trials.arrays(), strict=True):
        assert np.array_equal(x, y[:short])


def test_keep_and_stream_identical(duel, compiled):
    """Streaming tallies (flat memory) and kept per-trial arrays report the same numbers."""
    kept = simulate(duel, trials=TRIALS, seed=3, threads=2, keep_trials=True, progress=False)
    streamed = simulate(duel, trials=TRIALS, seed=3, threads=2, keep_trials=False, progress=False)
    assert kept.outcomes is not None and streamed.outcomes is None
    assert what(kept) == what(streamed)
    assert_tallies_equal(kept.tally, streamed.tally)
    system, plan = compiled
    retallied = Tally.of(kept.outcomes, system.n_sides(plan), system.max_slots(plan),
                         system.outcome_schema(plan))
    assert_tallies_equal(retallied, kept.tally)


def test_keep_default_threshold(compiled):
    system, plan = compiled
    assert run_plan(system, plan, 10, 1, threads=1, progress=False).trials.n == 10
    # Above the threshold nothing per-trial is kept (checked without running that many).
    assert KEEP_TRIALS_MAX < 10**7


# ------------------------------------------------------------------------------------------
# stop rules
# ------------------------------------------------------------------------------------------


class StopAfter:
    """Stops once the tally has at least ``n`` trials; records what it was shown."""

    def __init__(self, n: int):
        self.n = n
        self.seen: list[int] = []

    def __call__(self, tally: Tally) -> bool:
        self.seen.append(tally.n_trials)
        return tally.n_trials >= self.n


@pytest.mark.parametrize("threads", [1, 2])
def test_stop_at_chunk_boundary_deterministic(compiled, threads):
    system, plan = compiled
    cap = 10 * CHUNK
    runs = []
    for _ in range(2):
        stop = StopAfter(2 * CHUNK + 1)
        run = run_plan(system, plan, cap, 9, threads=threads, keep_trials=True, progress=False,
                       stop=stop)  # fmt: skip
        assert stop.seen == [CHUNK, 2 * CHUNK, 3 * CHUNK]  # after each chunk, in order
        assert run.tally.n_trials == 3 * CHUNK
        runs.append(run)
    assert_tallies_equal(runs[0].tally, runs[1].tally)
    full = run_plan(system, plan, 3 * CHUNK, 9, threads=threads, keep_trials=True, progress=False)
    assert_tallies_equal(runs[0].tally, full.tally)
    assert_outcomes_equal(runs[0].trials, full.trials)


def test_stop_never_true_runs_everything(compiled):
    system, plan = compiled
    stop = StopAfter(10**12)
    run = run_plan(system, plan, TRIALS, 9, threads=2, progress=False, stop=stop)
    assert run.tally.n_trials == TRIALS
    assert stop.seen == [CHUNK, 2 * CHUNK, TRIALS]


# ------------------------------------------------------------------------------------------
# bounded in-flight work (flat memory)
# ------------------------------------------------------------------------------------------


class CountingFuture:
    def __init__(self, pool, value):
        self.pool, self.value, self.cancelled = pool, value, False

    def result(self):
        self.pool.outstanding -= 1
        return self.value

    def cancel(self):
        self.cancelled = True
        self.pool.outstanding -= 1


class CountingPool:
    """A fake executor that records how many futures are submitted and not yet consumed."""

    def __init__(self):
        self.outstanding = 0
        self.peak = 0
        self.futures: list[CountingFuture] = []

    def submit(self, span):
        self.outstanding += 1
        self.peak = max(self.peak, self.outstanding)
        fut = CountingFuture(self, span)
        self.futures.append(fut)
        return fut


def test_in_order_bounded_and_ordered():
    pool = CountingPool()
    spans = iter_spans(1000 * CHUNK + 3)
    out = [chunk for chunk, _ in in_order(pool.submit, spans, window=4)]
    assert out == list(range(1001))
    assert pool.peak <= 5  # the window, plus the one being handed out
    assert pool.outstanding == 0


def test_in_order_close_cancels_pending():
    pool = CountingPool()
    gen = in_order(pool.submit, iter_spans(100 * CHUNK), window=4)
    assert next(gen)[0] == 0
    gen.close()
    assert pool.outstanding == 0
    assert sum(f.cancelled for f in pool.futures) == 4
    assert len(pool.futures) == 5  # nothing submitted beyond the window


# ------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------


def test_unknown_backend(duel):
    with pytest.raises(FuzionSimError, match="backend"):
        simulate(duel, trials=10, backend="mpi")


def test_scheduler_needs_dask(duel):
    with pytest.raises(FuzionSimError, match="backend='dask'"):
        simulate(duel, trials=10, scheduler="tcp://127.0.0.1:8786")


@pytest.mark.parametrize("n", [1, 6, 216, 7776, 10000])
def test_index32_splits_the_bits_into_near_equal_runs(n):
    """``index32`` maps 32 random bits onto ``0 .. n - 1`` in runs that start exactly at
    ``ceil(i * 2^32 / n)``, so every index gets ``floor`` or ``ceil`` of ``2^32 / n`` patterns;
    ``split_bits`` reads the low half for the first index and hands on the high half."""
    from fuzion_sim.engine.rng import index32, split_bits

    rng = np.random.default_rng(3)
    for i in sorted({0, 1, n - 1, *rng.integers(0, n, 50).tolist()}):
        start = -(-(i << 32) // n)  # the first bit pattern of index i
        assert index32(np.uint64(start), np.uint64(n)) == i
        if i:
            assert index32(np.uint64(start - 1), np.uint64(n)) == i - 1
    assert index32(np.uint64(2**32 - 1), np.uint64(n)) == n - 1
    x = np.uint64(0x89ABCDEF_01234567)
    first, rest = split_bits(x, np.uint64(n))
    assert first == index32(np.uint64(0x01234567), np.uint64(n)) and rest == 0x89ABCDEF


def test_jit_cache_stamp_follows_the_import_closure(tmp_path):
    """A kernel's numba cache is stamped with every module it can draw on (its import closure):
    editing a helper it imports, even through another module, recompiles it (numba alone would
    stamp only the kernel's own file and load stale machine code); editing a module outside the
    closure (the narration) keeps it."""
    from numba.core import caching

    from fuzion_sim import _jit

    package = tmp_path / "fuzion_sim"
    room = package / "systems" / "toy"
    room.mkdir(parents=True)
    for init in (package, package / "systems", room):
        (init / "__init__.py").write_text("from .systems import toy  # noqa\n" if init == package
                                          else "")
    (package / "_jit.py").write_text("OPTIONS = 1\n")
    (room / "kernel.py").write_text("from ..._jit import OPTIONS\nfrom . import strike\n")
    (room / "strike.py").write_text("from .rules import hit\n")
    (room / "rules.py").write_text("def hit():\n    return 1\n")
    (room / "narrate.py").write_text("from .kernel import strike\n")

    def stamp():
        _jit._stamp.cache_clear()
        _jit._imports.cache_clear()
        return _jit._stamp(room / "kernel.py", package)

    assert [p.name for p in _jit._closure(room / "kernel.py", package)] == [
        "_jit.py", "kernel.py", "rules.py", "strike.py"]
    before = stamp()
    (room / "narrate.py").write_text("from .kernel import strike  # reworded\n")
    assert stamp() == before
    for helper in (room / "rules.py", package / "_jit.py"):
        helper.write_text(helper.read_text() + "# changed\n")
        assert stamp() != before
        before = stamp()
    _jit._stamp.cache_clear()

    kernel = _jit._PACKAGE / "systems" / "fuzion" / "kernel.py"
    names = {p.name for p in _jit._closure(kernel)}
    assert {"strike.py", "rules.py", "actions.py", "rng.py", "_jit.py"} <= names
    assert not names & {"narrate.py", "exact.py", "relevance.py", "system.py"}
    assert caching.CacheImpl._locator_classes[:2] == [_jit._UserDirLocator, _jit._InTreeLocator]


def test_jit_stamp_reads_every_import_a_full_parse_reads():
    """The stamp parses only a module's import lines: for every module of the package it finds
    the same imports as parsing the whole module, and a module whose import lines do not parse
    on their own (a comment with a parenthesis inside an import's parentheses) is parsed whole,
    where the import lines alone would have lost the statement."""
    import ast

    from fuzion_sim import _jit

    def full(source):
        nodes = ast.walk(ast.parse(source))
        return sorted(ast.dump(n) for n in nodes if isinstance(n, ast.Import | ast.ImportFrom))

    modules = sorted(_jit._PACKAGE.rglob("*.py"))
    assert len(modules) > 100
    for module in modules:
        source = module.read_bytes()
        assert sorted(ast.dump(n) for n in _jit._import_nodes(source)) == full(source), module

    tricky = b"import os\nfrom .rules import (hit,  # (the seed's)\n    miss)\nx = 1\n"
    lines = b"\n".join(line.strip() for line in _jit._IMPORT.findall(tricky))
    with pytest.raises(SyntaxError):  # the control: the import lines alone do not parse
        ast.parse(lines)
    assert sorted(ast.dump(n) for n in _jit._import_nodes(tricky)) == full(tricky)
    assert [a.name for n in _jit._import_nodes(tricky) for a in n.names] == ["os", "hit", "miss"]


def test_jit_compiles_a_callee_once_for_its_argument_types_not_their_values():
    """A constant an out-of-line callee is passed (``-1``, ``False``) does not compile it once
    more (numba alone compiles a literal's own specialisation: minutes for the Fuzion rooms)."""
    from fuzion_sim._jit import jit

    @jit(_nrt=False, cache=False)  # compiled here, never loaded from an earlier run's cache
    def room(a, flag):
        return a * 2 if flag else a

    @jit(cache=False)
    def caller(x, flag):
        return room(x, flag) + room(x, False) + room(-1, True) + room(np.int64(3), flag)

    assert caller(5, True) == 10 + 5 - 2 + 6
    assert [str(s) for s in room.signatures] == ["(int64, bool)"]


def test_jit_inline_is_inlined_by_llvm_and_callable_from_python():
    """A helper jitted with ``INLINE`` leaves no call in its caller's machine code (LLVM inlined
    it; a plain ``jit`` helper of the same size, the control, stays a call), and a test can
    still call it from Python (it keeps numba's Python wrapper)."""
    from fuzion_sim._jit import INLINE, jit

    body = "\n".join(f"    y = (y * {i + 3} + x) % 1000003" for i in range(120))
    source = f"def helper(x):\n    y = x\n{body}\n    return y\n"
    helpers = {}
    for name, options in (("zz_forced", INLINE), ("zz_called", {"_nrt": False})):
        namespace = {}
        exec(source.replace("def helper", f"def {name}"), namespace)  # a fresh function each
        helpers[name] = jit(cache=False, **options)(namespace[name])

    def caller_of(helper):
        @jit(_nrt=False, cache=False)
        def caller(x):
            return helper(x) + 1

        caller(3)
        return caller.inspect_asm(caller.signatures[0])

    assert helpers["zz_forced"](7) == helpers["zz_called"](7)  # callable from Python
    def has_function(asm, name):  # a function of that name is defined in the caller's code
        return re.search(rf"{name}\w*,@function", asm) is not None

    assert has_function(caller_of(helpers["zz_called"]), "zz_called")
    assert not has_function(caller_of(helpers["zz_forced"]), "zz_forced")


def test_jit_lean_pipeline_drops_only_the_legalization_and_the_typed_rewrites():
    """``LEAN`` compiles without numba's IR legalization and typed rewrites and runs every
    other pass (SSA, inlining, type inference, lowering) as numba's own pipeline does."""
    from fuzion_sim._jit import LEAN, jit

    def loop(a):
        total = 0
        for i in range(a.shape[0]):
            total += a[i] * (i + 1)
        return total

    lean = jit(cache=False, **LEAN)(loop)
    plain = jit(cache=False, _nrt=False)(loop)
    a = np.arange(10, dtype=np.int64)
    assert lean(a) == plain(a) == int((a * np.arange(1, 11)).sum())

    def passes(disp):
        times = disp.overloads[disp.signatures[0]].metadata["pipeline_times"]["nopython"]
        return {name.split("_", 1)[1] for name in times}

    assert passes(plain) - passes(lean) == {"ir_legalization", "nopython_rewrites"}
    assert passes(lean) - passes(plain) == set()


def test_jit_caches_a_closure_that_holds_jitted_functions(tmp_path):
    """A kernel made per feature set by a factory (a closure over flags and over other jitted
    closures) loads from the cache in the next process: its key holds the flags and the
    functions' names (numba's would hold a random identity and never match). Two variants
    compiled in two processes and loaded into a third each run their own code: ``variant``
    gives each its own symbols (without it both callers run the room loaded first, the
    control)."""
    import subprocess
    import sys

    lines = "\n".join(f"        y = (y * {i + 3} + x) % 1000003 if flag else (y - {i}) % 99991"
                      for i in range(120))  # big enough that LLVM keeps it a call
    (tmp_path / "toy.py").write_text(
        "from fuzion_sim._jit import jit\n\n"
        "def make(flag, variant):\n"
        "    @jit(_nrt=False, variant=variant)\n"
        f"    def room(x):\n        y = x\n{lines}\n        return y\n\n"
        "    @jit(variant=variant)\n"
        "    def kernel(x):\n        return room(x) + room(x + 1)\n\n"
        "    return kernel\n"
    )
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])

    def run(code, cache):
        env = {**os.environ, "PYTHONPATH": path, "NUMBA_CACHE_DIR": str(tmp_path / cache)}
        out = subprocess.run([sys.executable, "-c", f"import toy; print({code})"], env=env,
                             capture_output=True, text=True, check=True)  # fmt: skip
        return out.stdout.split()

    for tags, cache in ((("1", "0"), "tagged"), (("", ""), "untagged")):
        made = [f"toy.make({flag}, {tag!r})" for flag, tag in zip((True, False), tags, strict=True)]
        alone = [run(f"{m}(1)", cache)[0] for m in made]
        both = run(f"{made[0]}(1), {made[1]}(1)", cache)
        assert alone[0] != alone[1]
        assert both == (alone if cache == "tagged" else [alone[0], alone[0]])
    loaded = "(k := toy.make(True, '1'))(1) * 0 + sum(k.stats.cache_hits.values())"
    assert run(loaded, "tagged") == ["1"]


def test_jit_cache_written_by_another_layout_is_a_miss(tmp_path):
    """A cache index that names a class from a module that has since moved (a namedtuple
    argument's type, pickled by module) is a miss that recompiles, not an ImportError: a user's
    ``NUMBA_CACHE_DIR`` outlives an upgrade that moves modules (the control: numba's own index
    reader raises)."""
    import subprocess
    import sys

    def write(shapes):
        (tmp_path / "toy.py").write_text(
            f"from {shapes} import Pair\nfrom fuzion_sim._jit import jit\n\n"
            "@jit\ndef total(p):\n    return p.a + p.b\n\n"
            "def run(reader):\n"
            "    if reader == 'numba':\n"
            "        from numba.core import caching\n"
            "        total._cache._cache_file.__class__ = caching.IndexDataCacheFile\n"
            "    return total(Pair(1, 2))\n")  # fmt: skip
        (tmp_path / f"{shapes}.py").write_text(
            "from collections import namedtuple\nPair = namedtuple('Pair', 'a b')\n")

    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run(reader):
        return subprocess.run([sys.executable, "-c", f"import toy; print(toy.run({reader!r}))"],
                              env=env, capture_output=True, text=True)  # fmt: skip

    write("shapes")
    assert run("ours").stdout.split() == ["3"]  # compiled and cached
    (tmp_path / "shapes.py").unlink()
    write("moved")
    numba_own = run("numba")
    assert numba_own.returncode != 0 and "No module named 'shapes'" in numba_own.stderr
    assert run("ours").stdout.split() == ["3"]


def test_streamed_names_the_tallys_arrays_a_kernel_adds_into():
    """``Streamed`` repeats the names of the ``Tally`` arrays a streaming kernel adds into (a
    NamedTuple's fields are written out): they are ``TALLY_SHARED``'s first ones, in its order,
    and ``into`` hands the kernel the tally's own arrays (placeholders, not streaming, without)."""
    from dataclasses import fields

    from fuzion_sim.engine.outcomes import TALLY_SHARED, Streamed

    assert [f.name for f in fields(Tally)][1 : 1 + len(TALLY_SHARED)] == list(TALLY_SHARED)
    names = Streamed._fields[1:]
    assert names == TALLY_SHARED[: len(names)]
    tally = Tally(5, *(np.zeros((2, 3) if name.endswith("hist") else 3, np.int64)
                       for name in TALLY_SHARED))  # fmt: skip
    streamed = Streamed.into(tally)
    assert streamed.accumulate
    assert all(getattr(streamed, name) is getattr(tally, name) for name in names)
    assert not Streamed.into(None).accumulate
