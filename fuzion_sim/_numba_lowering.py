"""numba's lowering keeps more of a function's variables out of stack slots: a smaller IR for
LLVM, whose optimiser makes of it what it made before.

numba lowers each variable of a function to a stack slot (an ``alloca``) that every assignment
stores to and every use loads from, and LLVM's SROA and mem2reg passes turn the slots back into
values. It skips the slot for a variable assigned once and used only in the block that assigns
it. A trial loop has hundreds of variables assigned once and used in many blocks (a table's
row named at the loop's top, a group, most of what numba's SSA pass leaves), and each cost
a slot, a store, loads, and SROA's time: SROA was most of the general kernel's function passes
(PERFORMANCE-NOTES lesson 56).

Here a variable of a function of Fuzion's general kernel (:data:`WIDE`) also skips its slot
when its one assignment dominates every block that reads it, comes before its reads in its own
block, and is lowered before them (numba lowers blocks in label order): then the value the
assignment computed is available wherever the variable is read, as LLVM's mem2reg would have
found. An argument is such a variable too (assigned at the top of the first block): a room's
groups arrive as hundreds of words that numba packs back into one value, and a slot for that
value was most of SROA's work on the rooms (PERFORMANCE-NOTES lesson 62). A variable that fails
any of these keeps its slot, as numba gives it; so do numba's own exceptions (generators, debug
information, variables that must live in memory). A value used where it does not dominate
would fail LLVM's verifier, loudly, not compute a wrong number.
``tests/engine/test_numba_lowering.py`` holds the rule and the answers to numba's, and
``tests/systems/test_fixed_numbers.py`` every shipped scenario's.
Importing this module installs it (``fuzion_sim._jit`` imports it); numba's own method stays
reachable as ``_NUMBA_FIND_SINGLY_ASSIGNED``.
"""

from __future__ import annotations

from numba.core import ir, lowering
from numba.core.analysis import compute_cfg_from_blocks, must_use_alloca

_PACKAGE = __name__.split(".")[0]
_NUMBA_FIND_SINGLY_ASSIGNED = lowering.Lower._find_singly_assigned_variable
#: The modules (under the package) whose functions are lowered so: Fuzion's general kernel, the
#: rooms it calls and the helpers it inlines, whose first compile is the longest a user waits
#: for. The specialised kernels, whose speed is measured against tight bars, keep numba's.
WIDE = tuple(f"{_PACKAGE}.systems.fuzion.{m}" for m in (
    "kernel", "features", "strike", "actions", "gate", "arsenal", "kernel_parts", "rules"))


def _reads(stmt) -> list[str]:
    """The names a statement reads (an assignment's target is written, not read)."""
    if isinstance(stmt, ir.Assign):
        value = stmt.value
        if isinstance(value, ir.Var):
            return [value.name]
        return [v.name for v in value.list_vars()] if isinstance(value, ir.Inst) else []
    return [v.name for v in stmt.list_vars()]


def wide_values(func_ir, keep: set[str]) -> set[str]:
    """The variables of ``func_ir`` assigned exactly once, not in ``keep``, whose assignment's
    block dominates every block that reads them, comes first in label order, and, in its own
    block, precedes every read."""
    blocks = func_ir.blocks
    assigned: dict[str, list] = {}
    for label, block in blocks.items():
        for i, stmt in enumerate(block.body):
            if isinstance(stmt, ir.Assign):
                assigned.setdefault(stmt.target.name, []).append((label, i))
    first_read: dict[tuple[str, int], int] = {}
    for label, block in blocks.items():
        for i, stmt in enumerate(block.body):
            for name in _reads(stmt):
                first_read.setdefault((name, label), i)
    readers: dict[str, list] = {}
    for name, label in first_read:
        readers.setdefault(name, []).append(label)
    dominators = compute_cfg_from_blocks(blocks).dominators()
    wide = set()
    for name, where in assigned.items():
        if len(where) != 1 or name in keep:
            continue
        (home, index), = where
        if all((label == home and first_read[(name, label)] > index)
               or (label > home and home in dominators[label])
               for label in readers.get(name, ())):  # fmt: skip
            wide.add(name)
    return wide


def _wide(modname: str) -> bool:
    """Whether a function of module ``modname`` (one of :data:`WIDE`, or under one) is lowered
    with :func:`wide_values`."""
    return any(modname == m or modname.startswith(m + ".") for m in WIDE)


def _find_singly_assigned_variable(self):
    """numba's variables kept out of stack slots and, in a function of the general kernel's
    modules (:data:`WIDE`), every variable :func:`wide_values` finds."""
    _NUMBA_FIND_SINGLY_ASSIGNED(self)
    func_ir = self.func_ir
    if (func_ir.func_id.is_generator or self._disable_sroa_like_opt
            or not _wide(self.fndesc.modname)):  # fmt: skip
        return
    self._singly_assigned_vars |= wide_values(func_ir, must_use_alloca(func_ir.blocks))


lowering.Lower._find_singly_assigned_variable = _find_singly_assigned_variable
