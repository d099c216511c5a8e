"""LLVM's pipelines as ``fuzion_sim._numba_pipeline`` builds them: without constraint
elimination for a library of the general kernel's modules, numba's own for any other."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest
from numba.core import codegen
from numba.core.registry import cpu_target

from fuzion_sim import _jit, _numba_pipeline  # noqa: F401  (_jit installs it)

#: numba's names for a function of the general kernel's trial loop module, of the duel kernel's
#: module (a specialised kernel) and of a module outside the package
GENERAL = "_ZN10fuzion_sim7systems6fuzion6kernel1fExxx"
DUEL = "_ZN10fuzion_sim7systems6fuzion11kernel_duel1fExxx"
OTHER = "_ZN5tests1fExxx"

#: ``a < c`` tested where ``a < b`` and ``b < c`` hold: only constraint elimination decides it
#: (the calls keep the branches from being folded into selects first)
IR = """
declare void @ext(i64)
define {linkage} void @"{name}"(i64 %a, i64 %b, i64 %c) {{
entry:
  %ab = icmp slt i64 %a, %b
  br i1 %ab, label %l1, label %out
l1:
  call void @ext(i64 1)
  %bc = icmp slt i64 %b, %c
  br i1 %bc, label %l2, label %out
l2:
  call void @ext(i64 2)
  %ac = icmp slt i64 %a, %c
  br i1 %ac, label %l3, label %out
l3:
  call void @ext(i64 3)
  br label %out
out:
  ret void
}}
"""
DECIDED = "icmp slt i64 %a, %c"


def _module(name: str, linkage: str = ""):
    return llvm.parse_assembly(IR.format(name=name, linkage=linkage))


def test_the_pipelines_are_installed():
    assert codegen.CPUCodeLibrary._optimize_functions is _numba_pipeline._optimize_functions
    assert codegen.CPUCodeLibrary._optimize_final_module is (
        _numba_pipeline._optimize_final_module)


@pytest.mark.parametrize("name, linkage, general", [
    (GENERAL, "", True),
    (GENERAL, "linkonce_odr", False),  # a callee linked in from the general kernel's library
    (DUEL, "", False),
    (OTHER, "", False),
])  # fmt: skip
def test_a_library_is_the_general_kernels_by_the_functions_it_defines(name, linkage, general):
    assert _numba_pipeline.general(_module(name, linkage)) is general


@pytest.mark.parametrize("name, kept", [(GENERAL, True), (DUEL, False), (OTHER, False)])
def test_function_passes_leave_the_comparison_only_in_the_general_kernel(name, kept):
    """The control: the same function under another module's name loses the comparison that
    constraint elimination decides."""
    library = cpu_target.target_context.codegen().create_library("test")
    library.add_llvm_module(_module(name))
    assert (DECIDED in str(library._final_module)) is kept


@pytest.mark.parametrize("name, kept", [(GENERAL, True), (OTHER, False)])
def test_module_passes_leave_the_comparison_only_in_the_general_kernel(name, kept):
    library = cpu_target.target_context.codegen().create_library("test")
    library._final_module.link_in(_module(name))  # no function passes first
    library._optimize_final_module()
    assert (DECIDED in str(library._final_module)) is kept


def test_the_pass_is_on_again_after_a_general_library():
    """A library optimised after one of the general kernel's gets the pass back."""
    make = cpu_target.target_context.codegen().create_library
    make("general").add_llvm_module(_module(GENERAL))
    after = make("after")
    after.add_llvm_module(_module(OTHER))
    assert DECIDED not in str(after._final_module)
