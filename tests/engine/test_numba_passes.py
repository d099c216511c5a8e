"""The faster forms of numba's inliner copy, SSA reconstruction and live-variable analysis
(``fuzion_sim._numba_passes``) make what numba's own make, on a small function and on the
package's own trial loops."""

from __future__ import annotations

import copy
import io

import pytest
from numba.core import inline_closurecall, ssa
from numba.core.compiler import run_frontend

from fuzion_sim import _jit, _numba_passes


def _helper(x):
    y = 0
    for i in range(x):
        if i % 3 == 0:
            y += i
        else:
            y -= 1
    while y > 10:
        y //= 2
    return y


def _dump(blocks) -> dict:
    def one(block):
        out = io.StringIO()
        block.dump(file=out)
        return out.getvalue()

    return {label: one(block) for label, block in blocks.items()}


def _statements(blocks) -> set[int]:
    return {id(st) for block in blocks.values() for st in block.body}


def test_the_passes_are_installed():
    from numba.core import analysis, ir_utils

    assert isinstance(inline_closurecall.copy, _numba_passes._InlinerCopy)
    assert ssa._run_ssa is _numba_passes._run_ssa
    assert ssa._run_block_rewrite is _numba_passes._run_block_rewrite
    assert analysis.compute_live_map is ir_utils.compute_live_map is (
        _numba_passes.compute_live_map)


def test_the_inliner_copies_a_helpers_variable_table_once():
    """The blocks of one copy share one copy of the helper's scope (numba's own copy, block by
    block, the control, copies it once a block), a second copy of the same IR shares nothing
    with the first, and each copied block reads as its original."""
    func_ir = run_frontend(_helper)
    assert len(func_ir.blocks) > 3

    def copies(deepcopy):  # as the inliner copies an IR: one deepcopy a block
        return {label: deepcopy(block) for label, block in func_ir.blocks.items()}

    first = copies(inline_closurecall.copy.deepcopy)
    second = copies(inline_closurecall.copy.deepcopy)
    per_block = copies(copy.deepcopy)
    assert len({id(block.scope) for block in per_block.values()}) == len(func_ir.blocks)
    original_scope = next(iter(func_ir.blocks.values())).scope
    for one in (first, second):
        (scope,) = {id(block.scope) for block in one.values()}
        assert scope != id(original_scope)
        assert _dump(one) == _dump(func_ir.blocks)
    assert first[min(first)].scope is not second[min(second)].scope
    assert not _statements(first) & _statements(second)
    assert not _statements(first) & _statements(func_ir.blocks)


def test_a_function_that_inlines_a_helper_computes_what_the_helper_does():
    inlined = _jit.jit(cache=False, inline="always")(_helper)

    @_jit.jit(cache=False)
    def caller(x):
        return inlined(x) + inlined(x + 7)

    assert caller(30) == _helper(30) + _helper(37)


def _trial_loops():
    """The package's big trial loops, as Python functions (numba's frontend reads them)."""
    from fuzion_sim.systems.colour import kernel_duel as colour_duel
    from fuzion_sim.systems.fuzion import kernel, kernel_squad

    general = kernel.trials_of(kernel.kernel_for(kernel.PEOPLE))
    return {"general": general.py_func, "squad": kernel_squad.run_chunk.py_func,
            "colour duel": colour_duel._trials.py_func}  # fmt: skip


def _ssa(run_ssa, func) -> dict:
    blocks = copy.deepcopy(run_frontend(func).blocks)  # one scope for the copy, as numba has
    return _dump(run_ssa(blocks))


@pytest.mark.parametrize("name", ["helper", "general", "squad", "colour duel"])
def test_ssa_reconstruction_makes_numbas_ir(name):
    """Each variable's fresh names and phis come out as numba's own reconstruction makes them
    (which visits every block for every variable)."""
    func = _helper if name == "helper" else _trial_loops()[name]
    assert _ssa(_numba_passes._run_ssa, func) == _ssa(_numba_passes._NUMBA_RUN_SSA, func)


def test_ssa_reconstruction_with_a_block_left_out_differs(monkeypatch):
    """The control: an index that says no block mentions any variable leaves every block as it
    was, and the comparison above sees it."""
    numba_ir = _ssa(_numba_passes._NUMBA_RUN_SSA, _helper)
    monkeypatch.setattr(_numba_passes, "_names", lambda block: set())
    assert _ssa(_numba_passes._run_ssa, _helper) != numba_ir


def _live(compute, func, drop_use=False) -> dict:
    """``compute``'s live map of ``func``'s blocks, as numba's passes ask for it."""
    from numba.core.analysis import compute_cfg_from_blocks, compute_use_defs

    blocks = run_frontend(func).blocks
    usedefs = compute_use_defs(blocks)
    uses = {label: set(names) for label, names in usedefs.usemap.items()}
    if drop_use:  # the control: one use less somewhere
        label = next(label for label, names in uses.items() if names)
        uses[label].pop()
    return compute(compute_cfg_from_blocks(blocks), blocks, uses, usedefs.defmap)


@pytest.mark.parametrize("name", ["helper", "general", "squad", "colour duel"])
def test_live_variables_are_numbas(name):
    """The variables alive at each block's entry are the sets numba's own fixed point finds."""
    func = _helper if name == "helper" else _trial_loops()[name]
    ours = _live(_numba_passes.compute_live_map, func)
    assert ours == _live(_numba_passes._NUMBA_LIVE_MAP, func)
    assert sum(map(len, ours.values())) > 0


def test_live_variables_see_a_use_less():
    """The control: the comparison above sees a map made from one use less."""
    numba_map = _live(_numba_passes._NUMBA_LIVE_MAP, _helper)
    assert _live(_numba_passes.compute_live_map, _helper, drop_use=True) != numba_map
