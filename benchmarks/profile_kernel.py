"""Where a kernel spends its time: `perf` samples mapped onto the jitted machine code.

``perf`` cannot name numba's JIT code, and this machine's VM has no hardware counters, so this
script samples the CPU clock, copies the kernel's machine code out of the process, disassembles
it with ``objdump`` and puts the share of samples next to every instruction. It also sums the
samples in the out-of-line helpers the kernel calls: numba compiles some builtins (``int()`` of
a float, ``max()``, ``min()``) as separate functions, and a call in the hot loop spills
registers around it (this found 7% of the squad kernel's time in three such helpers).

The general kernel leaves its trials to one function, ``trials``, which numba links
into ``run_chunk`` from its own cache entry: for it the script copies that entry's whole object
(``trials`` and the rooms it calls), names every function in it from the object's symbols
(``nm``) and prints the share of samples in each (PERFORMANCE-NOTES lesson 18).

Usage (needs ``perf``, ``objdump`` and, for the general kernel, ``nm``)::

    python benchmarks/profile_kernel.py scenarios/bench-squad-4v4.yaml [--chunks 40] [--top 25]
        [--kernel general]

``--kernel`` runs the fight on that kernel instead of the one the dispatch picks (the
benchmark duel with ``tactics: [{do: attack}]`` goes to the duel kernel unless told).

writes ``benchmarks/results/profile.txt`` (every instruction with its share) and prints the
hottest instructions and 256-byte regions. Samples land on the instruction after a stall
(skid): read a hot line together with the load or branch before it.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CODE_BYTES = 200_000  # more than any kernel's machine code


def trials_functions(trials) -> list[tuple[int, int, str]]:
    """The functions of the general kernel's trial object as ``(offset, size, mangled name)``:
    the symbols of the ELF object in the newest entry of ``trials`` (the trial loop of the
    fight's compiled set) in numba's cache (a private layout of numba 0.5x-0.6x), ``trials``
    itself at offset 0."""
    cache = trials._cache._cache_file
    folder = Path(cache._cache_path)
    entry = max(cache._load_index().values(), key=lambda name: (folder / name).stat().st_mtime)
    data = (folder / entry).read_bytes()
    obj = data[data.index(b"\x7fELF") :]
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        listing = subprocess.run(["nm", "-S", f.name], capture_output=True, text=True,
                                 check=True).stdout  # fmt: skip
    symbols = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return symbols


def short_name(mangled: str) -> str:
    """``module.function`` of a numba function's mangled name (``_ZN<len><part>...``)."""
    i = mangled.find("_ZN") + 3
    parts = []
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while mangled[j].isdigit():
            j += 1
        parts.append(mangled[j : j + int(mangled[i:j])])
        i = j + int(mangled[i:j])
    return ".".join(parts[-2:]) or mangled


def run_kernel(scenario: str, chunks: int, code_out: Path, kernel_name: str | None) -> None:
    """Child process: run ``chunks`` chunks of the scenario's kernel, then save its code (and,
    for the general kernel, its functions beside it as ``<code_out>.syms``)."""
    from fuzion_sim import load_scenario
    from fuzion_sim.engine.rng import CHUNK, chunk_key
    from fuzion_sim.systems import fuzion
    from fuzion_sim.systems.fuzion import (
        kernel,
        kernel_duel,
        kernel_duel_plain,
        kernel_squad,
        kernel_standing,
        run,
    )

    plan = fuzion.compile_scenario(load_scenario(scenario), kernel=kernel_name)
    module = {"general": kernel, "standing": kernel_standing, "squad": kernel_squad,
              "duel": kernel_duel}[plan.kernel]  # fmt: skip
    function = module.run_chunk if plan.kernel != "general" else kernel.kernel_for(
        run.features(plan.arrays))
    if plan.kernel == "duel":  # the duel's kernel for the rule options the fight uses
        function = kernel_duel.KERNELS.get(plan.duel.options, kernel_duel.run_chunk_options)
        if plan.plain:  # a plain duel (kernel_duel_plain)
            module, function = kernel_duel_plain, kernel_duel_plain.KERNELS[plan.plain]
    for c in range(chunks):  # a streamed run, as `fuzion-sim run` does it
        fuzion.tally_chunk(plan, chunk_key(1, c), 0, CHUNK)
    if plan.kernel == "general":  # run_chunk allocates in Python and calls the jitted trials
        function = kernel.trials_of(function)
    overload = next(iter(function.overloads.values()))
    name, size = overload.fndesc.llvm_func_name, CODE_BYTES
    if plan.kernel == "general":  # the trial loop's object, with the rooms it links in
        symbols = trials_functions(function)
        name = next(n for offset, _, n in symbols if offset == 0)
        size = max(offset + length for offset, length, _ in symbols)
        Path(f"{code_out}.syms").write_text(
            "".join(f"{offset} {length} {short_name(n)}\n" for offset, length, n in symbols)
        )
    address = overload.library.get_pointer_to_function(name)
    code_out.write_bytes(ctypes.string_at(address, size))
    print(f"{module.__name__}.{function.__name__} {address}")


def out_of_line(code_lines, share, base, size) -> dict[int, float]:
    """Share of samples in each helper the kernel calls (``movabs $address, %reg`` some
    instructions before ``call *%reg``, into the copied code), up to the helper's ``ret``."""
    targets = set()
    loaded = {}  # register -> address last loaded into it
    for _, text in code_lines:
        m = re.match(r"movabs \$0x([0-9a-f]+),%(\w+)", text)
        if m:
            loaded[m[2]] = int(m[1], 16) - base
        m = re.match(r"call\s+\*%(\w+)$", text)
        if m and 0 < loaded.get(m[1], -1) < size:  # 0: the kernel (its wrapper calls it)
            targets.add(loaded[m[1]])
    helpers = {}
    for start in targets:
        total = 0.0
        for a, text in code_lines:
            if a >= start:
                total += share[a]
                if text.startswith("ret"):
                    break
        helpers[start] = total
    return helpers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("--chunks", type=int, default=40, help="chunks of 65536 trials")
    parser.add_argument("--top", type=int, default=25, help="hottest instructions to print")
    parser.add_argument("--kernel", choices=("general", "standing", "squad", "duel"),
                        help="run on this kernel (default: the one the dispatch picks)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_kernel(args.scenario, args.chunks, Path(args.child), args.kernel)
        return 0
    missing = [tool for tool in ("perf", "objdump") if shutil.which(tool) is None]
    if missing:
        print(f"profile_kernel: needs {' and '.join(missing)} on the PATH", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="fuzion-profile-") as tmp:
        tmp = Path(tmp)
        code, data = tmp / "kernel.bin", tmp / "perf.data"
        child = [sys.executable, __file__, args.scenario, "--chunks", str(args.chunks),
                 "--child", str(code)]  # fmt: skip
        if args.kernel:
            child += ["--kernel", args.kernel]
        done = subprocess.run(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-o", str(data), *child],
            capture_output=True,
            text=True,
            check=True,
        )
        name, base = done.stdout.split()[-2], int(done.stdout.split()[-1])
        ips = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True,
            check=True,
        ).stdout.split()  # fmt: skip
        listing = subprocess.run(
            ["objdump", "-D", "-b", "binary", "-mi386:x86-64", str(code)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        size = code.stat().st_size
        syms = Path(f"{code}.syms")
        functions = []
        if syms.exists():  # the general kernel: the functions of its object
            functions = [line.split() for line in syms.read_text().splitlines()]

    samples = collections.Counter()
    for ip in ips:
        offset = int(ip, 16) - base
        if 0 <= offset < size:
            samples[offset] += 1
    inside = sum(samples.values())
    if not inside:
        print("profile_kernel: no samples in the kernel", file=sys.stderr)
        return 1
    pattern = re.compile(r"\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S.*)")
    code_lines = [(int(m[1], 16), m[2]) for m in map(pattern.match, listing.splitlines()) if m]
    out = HERE / "results" / "profile.txt"
    out.parent.mkdir(exist_ok=True)
    share = {a: 100.0 * samples[a] / inside for a, _ in code_lines}
    out.write_text("".join(f"{share[a]:6.2f} {a:6x} {text}\n" for a, text in code_lines))

    helpers = out_of_line(code_lines, share, base, size)
    in_helpers = sum(helpers.values())
    print(f"{name}: {inside} of {len(ips)} samples in the kernel; "
          f"{in_helpers:.1f}% in {len(helpers)} out-of-line helpers it calls")  # fmt: skip
    for start, s in sorted(helpers.items(), key=lambda x: -x[1])[:5]:
        body = "; ".join(t for a, t in code_lines if start <= a < start + 24)
        print(f"  {s:5.2f}%  helper at {start:x}: {body}")
    if functions:  # the general kernel's object: the share of each function in it
        per_function = collections.Counter()
        for offset, n in samples.items():
            for start, length, fname in functions:
                if int(start) <= offset < int(start) + int(length):
                    per_function[fname] += n
                    break
        print("functions (share of samples in the object):")
        for fname, n in per_function.most_common(8):
            print(f"  {100.0 * n / inside:5.2f}%  {fname}")
    print("hottest instructions (share of kernel samples, offset, instruction):")
    for a, text in sorted(code_lines, key=lambda x: -share[x[0]])[: args.top]:
        print(f"  {share[a]:5.2f}%  {a:6x}  {text}")
    regions = collections.Counter()
    for a, _ in code_lines:
        regions[a // 256 * 256] += share[a]
    print("hottest 256-byte regions:")
    for start, s in regions.most_common(10):
        print(f"  {s:5.1f}%  {start:6x}-{start + 255:x}")
    print(f"every instruction: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
