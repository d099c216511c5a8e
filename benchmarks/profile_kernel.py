"""Where a kernel spends its time: `perf` samples mapped onto the jitted machine code.

``perf`` cannot name numba's JIT code, and this machine's VM has no hardware counters, so this
script samples the CPU clock, copies the kernel's machine code out of the process, disassembles
it with ``objdump`` and puts the share of samples next to every instruction. It also sums the
samples in the out-of-line helpers the kernel calls: numba compiles some builtins (``int()`` of
a float, ``max()``, ``min()``) as separate functions, and a call in the hot loop spills
registers around it (this found 7% of the squad kernel's time in three such helpers).

Usage (needs ``perf`` and ``objdump``)::

    python benchmarks/profile_kernel.py scenarios/bench-squad-4v4.yaml [--chunks 40] [--top 25]

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


def run_kernel(scenario: str, chunks: int, code_out: Path) -> None:
    """Child process: run ``chunks`` chunks of the scenario's kernel, then save its code."""
    from fuzion_sim import load_scenario
    from fuzion_sim.engine.rng import CHUNK, chunk_key
    from fuzion_sim.systems import fuzion
    from fuzion_sim.systems.fuzion import kernel, kernel_duel, kernel_squad, kernel_standing

    plan = fuzion.compile_scenario(load_scenario(scenario))
    module = {"general": kernel, "standing": kernel_standing, "squad": kernel_squad,
              "duel": kernel_duel}[plan.kernel]  # fmt: skip
    function = module.run_chunk
    if plan.kernel == "duel":  # the duel's kernel for the rule options the fight uses
        function = kernel_duel.KERNELS.get(plan.duel.options, kernel_duel.run_chunk_options)
    for c in range(chunks):  # a streamed run, as `fuzion-sim run` does it
        fuzion.tally_chunk(plan, chunk_key(1, c), 0, CHUNK)
    overload = next(iter(function.overloads.values()))
    address = overload.library.get_pointer_to_function(overload.fndesc.llvm_func_name)
    code_out.write_bytes(ctypes.string_at(address, CODE_BYTES))
    print(f"{module.__name__}.{function.__name__} {address}")


def out_of_line(code_lines, share, base) -> dict[int, float]:
    """Share of samples in each helper the kernel calls (``movabs $address, %reg`` some
    instructions before ``call *%reg``, into the copied code), up to the helper's ``ret``."""
    targets = set()
    loaded = {}  # register -> address last loaded into it
    for _, text in code_lines:
        m = re.match(r"movabs \$0x([0-9a-f]+),%(\w+)", text)
        if m:
            loaded[m[2]] = int(m[1], 16) - base
        m = re.match(r"call\s+\*%(\w+)$", text)
        if m and 0 < loaded.get(m[1], -1) < CODE_BYTES:  # 0: the kernel (its wrapper calls it)
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
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_kernel(args.scenario, args.chunks, Path(args.child))
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

    samples = collections.Counter()
    for ip in ips:
        offset = int(ip, 16) - base
        if 0 <= offset < CODE_BYTES:
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

    helpers = out_of_line(code_lines, share, base)
    in_helpers = sum(helpers.values())
    print(f"{name}: {inside} of {len(ips)} samples in the kernel; "
          f"{in_helpers:.1f}% in {len(helpers)} out-of-line helpers it calls")  # fmt: skip
    for start, s in sorted(helpers.items(), key=lambda x: -x[1])[:5]:
        body = "; ".join(t for a, t in code_lines if start <= a < start + 24)
        print(f"  {s:5.2f}%  helper at {start:x}: {body}")
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
