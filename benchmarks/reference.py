"""The benchmark duel on the duel kernel: the reference of the bars set before the plain duel.

The plain duel kernel (``fuzion_sim/systems/fuzion/kernel_duel_plain.py``) runs the benchmark
duel, and any duel in which nothing but Hits and Stun changes, about 2.3 times faster than the
duel kernel did, with the same numbers. The bars set before it (each rule option at half the
bare duel's attacks per second, a squad at half its fighters' duels', FUDGE's and colour's
1 v 1 at the Fuzion duel's rate) were measured against the duel kernel, and keep that
reference: their rows run it with the plain kernel turned off (:func:`duel_kernel`). The plain
duel's own rows stand beside them, so a reader sees both ratios.
"""

from __future__ import annotations

import contextlib

__all__ = ["duel_kernel", "forced_kernel", "maybe_duel_kernel"]


@contextlib.contextmanager
def duel_kernel():
    """Within it a duel compiles for the duel kernel, never the plain one (a plan compiled
    inside runs there wherever it is run)."""
    from fuzion_sim.systems.fuzion import kernel_duel_plain

    chosen = kernel_duel_plain.plain_duel
    kernel_duel_plain.plain_duel = lambda sp, duel: ""
    try:
        yield
    finally:
        kernel_duel_plain.plain_duel = chosen


@contextlib.contextmanager
def forced_kernel(name: str):
    """Within it every Fuzion fight compiles for kernel ``name`` (``dispatch.KERNELS``), the
    one it would get or not: a fight that kernel cannot run fails to compile."""
    from fuzion_sim.systems.fuzion import dispatch

    chosen = dispatch.kernel_for
    dispatch.kernel_for = lambda plan: name
    try:
        yield
    finally:
        dispatch.kernel_for = chosen


def maybe_duel_kernel(on: bool):
    """:func:`duel_kernel` when ``on``, else nothing."""
    return duel_kernel() if on else contextlib.nullcontext()
