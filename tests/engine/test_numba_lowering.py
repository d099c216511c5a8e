"""numba's lowering as ``fuzion_sim._numba_lowering`` widens it: a variable assigned once keeps
no stack slot only where its one value reaches every read, and a function lowered so computes
what numba's own lowering computes."""

from __future__ import annotations

import pytest
from numba import njit
from numba.core import ir, lowering
from numba.core.compiler import run_frontend

from fuzion_sim import _jit, _numba_lowering  # noqa: F401  (_jit installs it)


def _branches(x, n):
    y = x * 2  # assigned once, read in later blocks it dominates
    total = 0
    for i in range(n):
        if i % 3 == 0:
            z = y + i  # assigned in one branch only: no value on the other path
        else:
            z = -1
        total += z
    if total > 10:
        w = total - y
    else:
        w = y
    return w + total


def test_the_widening_is_installed():
    assert lowering.Lower._find_singly_assigned_variable is (
        _numba_lowering._find_singly_assigned_variable)


def test_only_a_dominating_single_assignment_keeps_no_slot():
    """``y`` (assigned once at the top) and the arguments are widened; ``z``, ``total`` and
    ``w`` (assigned on several paths, or in a loop) are not."""
    func_ir = run_frontend(_branches)
    wide = _numba_lowering.wide_values(func_ir, set())
    assert {"y", "x", "n"} <= wide
    assert not {"z", "total", "w"} & wide


def test_a_variable_to_keep_keeps_its_slot():
    func_ir = run_frontend(_branches)
    assert not {"x", "y"} & _numba_lowering.wide_values(func_ir, {"x", "y"})


def test_a_read_before_the_assignment_in_its_block_keeps_the_slot():
    """The control: a read of ``y`` put before its assignment in its block keeps its slot."""
    func_ir = run_frontend(_branches)
    entry = func_ir.blocks[min(func_ir.blocks)]
    index = next(i for i, st in enumerate(entry.body)
                 if isinstance(st, ir.Assign) and st.target.name == "y")  # fmt: skip
    y = entry.body[index].target
    entry.body.insert(index, ir.Assign(value=y, target=y.scope.redefine("early", y.loc),
                                       loc=y.loc))  # fmt: skip
    assert "y" not in _numba_lowering.wide_values(func_ir, set(func_ir.arg_names))


def _rebinds(x, n):
    for i in range(n):  # an argument assigned again in a loop: only its first value is wide
        if x % 2:
            x = x * 3 + i
        else:
            x = x // 2
    return x


@pytest.mark.parametrize("function", [_branches, _rebinds])
@pytest.mark.parametrize("x, n", [(0, 0), (3, 5), (-7, 40), (100, 1)])
def test_a_widened_function_computes_numbas_answer(monkeypatch, function, x, n):
    """The same function lowered with and without the widening (it applies to this package's
    general kernel's modules: the test's function is given one of their names)."""
    monkeypatch.setattr(_numba_lowering, "_wide", lambda modname: True)
    wide = njit(function)(x, n)
    monkeypatch.setattr(_numba_lowering, "_wide", lambda modname: False)
    plain = njit(function)(x, n)
    assert wide == plain == function(x, n)


def test_the_general_kernels_trial_loop_keeps_most_variables_out_of_slots():
    """On the people's trial loop: hundreds of variables widened, and none assigned twice."""
    from fuzion_sim.systems.fuzion import kernel

    trials = kernel.trials_of(kernel.kernel_for(kernel.PEOPLE)).py_func
    func_ir = run_frontend(trials)
    wide = _numba_lowering.wide_values(func_ir, set(func_ir.arg_names))
    assert len(wide) > 200
    assigned = [st.target.name for b in func_ir.blocks.values() for st in b.body
                if isinstance(st, ir.Assign)]  # fmt: skip
    assert all(assigned.count(name) == 1 for name in wide)


@pytest.mark.parametrize("module, wide", [
    ("fuzion_sim.systems.fuzion.kernel", True),
    ("fuzion_sim.systems.fuzion.features.motion.room", True),
    ("fuzion_sim.systems.fuzion.kernel_parts", True),
    ("fuzion_sim.systems.fuzion.kernel_duel", False),
    ("fuzion_sim.systems.fuzion.kernel_squad", False),
    ("fuzion_sim.systems.colour.kernel", False),
    ("tests.engine.test_numba_lowering", False),
])  # fmt: skip
def test_only_the_general_kernels_modules_are_lowered_so(module, wide):
    """The specialised kernels and everything outside the general kernel keep numba's rule."""
    assert _numba_lowering._wide(module) is wide
