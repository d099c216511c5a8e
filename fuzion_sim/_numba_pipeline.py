"""LLVM optimises the general kernel's code without its constraint elimination pass: a first
run a few seconds shorter, the same numbers.

LLVM's O3 pipeline runs ``ConstraintElimination`` in every function's simplification: it
collects the conditions that hold on each path and drops comparisons they decide. Its cost
grows with a function's branches times the conditions in scope, and Fuzion's general trial
loop, with its rooms inlined, has thousands of both: it was the most expensive pass of the
loop's module passes and a sixth of the rooms' function passes (PERFORMANCE-NOTES lesson 61).
numba does not check bounds, so it finds little there to drop.

Here the pass is switched off (LLVM's ``-enable-constraint-elimination`` option) while LLVM
builds the pipelines of a library of the general kernel's modules
(:data:`fuzion_sim._numba_lowering.WIDE`), and on again after: a function's passes when the
function is one of theirs, a library's module passes when it defines one of theirs. Every other
kernel is optimised as numba optimises it. Optimisation keeps what the code computes, so every
number stays the same (``tests/systems/test_fixed_numbers.py``). Importing this module installs
it (``fuzion_sim._jit`` imports it).
"""

from __future__ import annotations

from contextlib import contextmanager

import llvmlite.binding as llvm
from numba.core import codegen

from ._numba_linking import _mangled
from ._numba_lowering import WIDE

#: The start of numba's name for a function of each of the general kernel's modules.
_PREFIXES = tuple(_mangled(m) for m in WIDE)
_NUMBA_OPTIMIZE_FUNCTIONS = codegen.CPUCodeLibrary._optimize_functions
_NUMBA_OPTIMIZE_FINAL = codegen.CPUCodeLibrary._optimize_final_module


def general(module) -> bool:
    """Whether LLVM module ``module`` defines a function of the general kernel's modules as its
    own (a callee linked in from another library is ``linkonce_odr``, not its own)."""
    return any(f.linkage == llvm.Linkage.external and not f.is_declaration
               and f.name.startswith(_PREFIXES) for f in module.functions)  # fmt: skip


@contextmanager
def _without_constraint_elimination(on: bool):
    """LLVM's pipelines built inside leave out constraint elimination when ``on``."""
    if not on:
        yield
        return
    llvm.set_option("", "-enable-constraint-elimination=false")
    try:
        yield
    finally:
        llvm.set_option("", "-enable-constraint-elimination=true")


def _optimize_functions(self, ll_module):
    with _without_constraint_elimination(general(ll_module)):
        _NUMBA_OPTIMIZE_FUNCTIONS(self, ll_module)


def _optimize_final_module(self):
    with _without_constraint_elimination(general(self._final_module)):
        _NUMBA_OPTIMIZE_FINAL(self)


codegen.CPUCodeLibrary._optimize_functions = _optimize_functions
codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
