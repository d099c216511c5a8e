"""Three of numba's front-end passes, made to scale with a big function: the same IR, sooner.

A first run waits mostly for one big trial loop (Fuzion's general kernel), and three of numba's
passes over it cost time that grows with the square of its size. Each change here keeps what
its pass produces, and so the machine code (the general kernel's trial loops compile to the same
instructions; PERFORMANCE-NOTES lesson 47); ``tests/engine/test_numba_passes.py`` holds each
to numba's own on real functions.

- **The inliner's copy** (``numba.core.inline_closurecall``). Before it copies a helper into a
  caller (``inline="always"``), the inliner deep-copies the helper's blocks, twice, one
  ``copy.deepcopy`` a block. Every block holds the helper's scope, the table of all its
  variables, so each block's copy copied the whole table again. :class:`_InlinerCopy` gives
  the blocks of one copy one memo, as one deep copy of all the blocks would: the table is
  copied once (the inliner then points each inlined block at the caller's scope).
- **SSA reconstruction** (``numba.core.ssa``). For each variable assigned more than once, numba
  rewrites every statement of the function twice (its fresh names, then its uses). A block
  that neither assigns nor uses that variable comes out of both rewrites as it went in, so
  :func:`_run_block_rewrite` copies such a block without visiting its statements, from an
  index of the names each block mentions made once per function (:func:`_run_ssa`).
- **Live variables** (``numba.core.analysis.compute_live_map``, run after every inlining and
  rewrite). numba's fixed point unites Python sets of variable names along every edge of the
  control flow graph, sets of thousands of names in a big loop. :func:`compute_live_map` runs
  the same fixed point, in the same order, on integers whose bits stand for the names, and
  returns the same sets.

Importing this module installs all three (``fuzion_sim._jit`` imports it); numba's own
functions stay reachable as ``_NUMBA_RUN_SSA``, ``_NUMBA_BLOCK_REWRITE`` and
``_NUMBA_LIVE_MAP``.
"""

from __future__ import annotations

import copy
from collections import defaultdict

from numba.core import analysis, inline_closurecall, ir, ir_utils, ssa


class _InlinerCopy:
    """The ``copy`` module as numba's inliner sees it: a block deep-copied with no memo of its
    own shares one with the blocks copied just before it that hold the same scope. A block met
    again, or another scope, starts a new copy (a second copy of an IR shares nothing with the
    first). Everything else is ``copy``'s own."""

    def __init__(self):
        self._scope = None
        self._memo: dict = {}

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope or id(x) in self._memo:
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name):
        return getattr(copy, name)


_NUMBA_RUN_SSA = ssa._run_ssa
_NUMBA_BLOCK_REWRITE = ssa._run_block_rewrite
#: For the SSA reconstruction under way (numba compiles under one lock, so there is one at a
#: time): each block's label -> the names its statements mention.
_mentions: dict[int, set[str]] | None = None


def _names(block: ir.Block) -> set[str]:
    """Every variable name a block's statements assign or read."""
    return {var.name for stmt in block.body for var in stmt.list_vars()}


def _run_ssa(blocks):
    """numba's SSA reconstruction, with the names each block mentions indexed first. Fixing one
    variable adds or renames that variable only, and the blocks keep their labels, so the
    index made here holds for every variable the reconstruction fixes in turn."""
    global _mentions
    outer, _mentions = _mentions, {label: _names(block) for label, block in blocks.items()}
    try:
        return _NUMBA_RUN_SSA(blocks)
    finally:
        _mentions = outer


def _run_block_rewrite(blocks, states, handler):
    """numba's rewrite of every block for the variable ``states["varname"]``, visiting only the
    blocks that mention it; any other block is copied as numba's rewrite would leave it."""
    name = states.get("varname")
    if _mentions is None or name is None:
        return _NUMBA_BLOCK_REWRITE(blocks, states, handler)
    out = {}
    for label, block in blocks.items():
        if name in _mentions[label]:
            out.update(_NUMBA_BLOCK_REWRITE({label: block}, states, handler))
        else:
            out[label] = ir.Block(scope=block.scope, loc=block.loc)
            out[label].body = list(block.body)
    return out


_NUMBA_LIVE_MAP = analysis.compute_live_map


def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's ``compute_live_map``: the variables alive at the entry of each block, found by
    the same two fixed points in the same order (the definitions that reach each block, then
    liveness pushed back along the edges), on bit sets (Python integers) instead of sets of
    names."""
    bit: dict[str, int] = {}

    def bits(names) -> int:
        out = 0
        for name in names:
            out |= 1 << bit.setdefault(name, len(bit))
        return out

    uses = {label: bits(names) for label, names in var_use_map.items()}
    defs = {label: bits(names) for label, names in var_def_map.items()}
    topo_order = cfg.topo_order()

    def fix_point(step, values):
        before = None
        while before != values:
            before = dict(values)
            step(values)

    def def_reach(values):
        for label in topo_order:
            values[label] |= defs[label] | uses[label]
            for out, _ in cfg.successors(label):
                values[out] |= values[label]

    def liveness(values):
        for label in reversed(topo_order):
            live = values[label]
            for into, _ in cfg.predecessors(label):
                values[into] |= live & reach[into] & ~defs[into]

    reach: defaultdict[int, int] = defaultdict(int)
    fix_point(def_reach, reach)
    live_map = {label: uses[label] for label in blocks}
    fix_point(liveness, live_map)
    names = list(bit)
    out = {}
    for label, value in live_map.items():
        found = set()
        while value:
            low = value & -value
            found.add(names[low.bit_length() - 1])
            value ^= low
        out[label] = found
    return out


inline_closurecall.copy = _InlinerCopy()
ssa._run_ssa = _run_ssa
ssa._run_block_rewrite = _run_block_rewrite
analysis.compute_live_map = ir_utils.compute_live_map = compute_live_map
