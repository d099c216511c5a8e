"""One compiled version of each helper of the colour kernels.

numba compiles a jitted function once per combination of argument types it is called with,
and a constant argument counts as a type of its own (``Literal[int](3)``): the helpers of the
kernels, called with many constants, compiled dozens of times over. :func:`typed` compiles a
helper once, with its arguments' types fixed by their names (the plan's and the trial's
arrays, int64 scalars, a few flags), through the project's ``jit`` policy.

They are compiled without numba's reference counting (``_nrt=False``): none allocates, and a
call that passes a dozen arrays otherwise counts references to each with atomic operations,
which took a third of the squad kernel's time. The kernels' entry points allocate their
scratch arrays and hand the trial loop to such a function.

Each compiles (or loads from the cache) on first use, not at import: a fight compiles only the
helpers its kernel calls (a duel on the duel kernel never compiles the general kernel's), which
is most of a cold first run's time.

The groups of arrays the kernels take as one argument each (:class:`Counters`, :class:`Stream`,
beside the engine's ``Shared``) are declared here too: a kernel entry point then takes a handful
of named groups, not dozens of arrays in an order to count by hand. numba passes a NamedTuple's
fields as it would pass them one by one, so a group costs nothing in the trial loop.
"""

from __future__ import annotations

import inspect
from typing import NamedTuple

import numpy as np
from numba import types

from ..._jit import INNER, jit

__all__ = ["Counters", "Stream", "TallyArrays", "typed"]

_I1 = types.int64[::1]
_I2 = types.int64[:, ::1]
_I3 = types.int64[:, :, ::1]
#: Array arguments by name (every array of the colour kernels is C-contiguous).
ARRAYS = {
    "mem": _I2, "acts": _I3, "opts": _I1, "shift": _I2, "rank_col": _I1, "colour_tab": _I2,
    "values": _I1, "area_mask": _I2, "pair_tab": _I3, "tab": _I2, "tab_later": _I2,
    "tab_meta": _I2, "pref": _I2, "st": _I2, "st0": _I2, "ak": _I1, "rs": types.uint64[::1],
    "fs": _I1, "cat_colours": _I2, "cat_rolls": _I2, "events": _I2, "n_events": _I1,
    "order": _I1, "group": _I1, "key": _I1, "tie": _I1, "acting": types.boolean[::1],
    "codes": types.uint8[::1], "entries": _I1, "kinds": _I1, "rows": types.uint8[::1],
    "chunk": types.uint64[::1], "act_rounds": _I2, "act_auto": _I2, "winner": types.int8[::1],
    "end_slot": types.int32[::1], **dict.fromkeys(
        ("out_slot", "death_slot", "dealt", "taken", "attacks", "landed", "unconscious",
         "dying", "broken", "severed"), types.int32[:, ::1]),
}  # fmt: skip
#: Flag arguments by name; every other argument is an int64, but ``x`` (a generator output).
FLAGS = {"full", "bypass_shield", "bypass", "is_hit", "is_first", "may_bypass", "attack",
         "movement", "forced", "counter_ok", "is_acting", "autofire"}  # fmt: skip


def typed(fn):
    """``jit`` ``fn`` for one signature, read off its parameter names, compiled when a caller
    is first typed against it (or it is first called): then as ``numba.njit(signature)``
    compiles at once, no other signature ever (a constant argument converts to its int64)."""
    sig = []
    for name in inspect.signature(fn).parameters:
        if name in ARRAYS:
            sig.append(ARRAYS[name])
        elif name in FLAGS:
            sig.append(types.boolean)
        elif name == "x":
            sig.append(types.uint64)
        else:
            sig.append(types.int64)
    disp = jit(**INNER)(fn)
    template, for_args = disp.get_call_template, disp._compile_for_args

    def fix():
        if disp._can_compile:
            disp.compile(tuple(sig))
            disp.disable_compile()

    def get_call_template(args, kws):
        fix()
        return template(args, kws)

    def compile_for_args(*args, **kws):
        fix()
        return for_args(*args, **kws)

    disp.get_call_template = get_call_template
    disp._compile_for_args = compile_for_args
    return disp


class Counters(NamedTuple):
    """The colour system's per-trial counters (int32[n, C]), written beside the engine's
    ``Shared``: 1 if the combatant is unconscious, 1 if dying at the fight's end; its limbs
    broken, severed (``run.COUNTERS``). A streamed run's ``n`` is 0: they go into
    :class:`Stream`'s ``sums`` instead. (The categories, int64[C, 6] added into, are two
    arrays apart: the trial loop takes the Endurance rolls' alone.)"""

    unconscious: np.ndarray
    dying: np.ndarray
    broken: np.ndarray
    severed: np.ndarray


class TallyArrays(NamedTuple):
    """The arrays a streamed run adds its trials into (:class:`Stream` says what each
    holds)."""

    outcome_counts: np.ndarray
    end_hist: np.ndarray
    out_hist: np.ndarray
    death_hist: np.ndarray
    sums: np.ndarray


class Stream(NamedTuple):
    """What a streamed run adds its trials into, in place of the per-trial outputs (the duel
    and the squad kernels; ``run.tally_chunk``). ``accumulate``: add each trial here and write
    no per-trial output (False: the arrays are placeholders, never read). ``tally``
    (:class:`TallyArrays`): ``outcome_counts``, ``end_hist``, ``out_hist``, ``death_hist``,
    the ``Tally``'s own arrays of the same names, and ``sums`` (int64[C, 8] for the duel,
    [C, 12] for the squad): each combatant's sums of dealt, its square, taken, its square,
    attacks, landed, unconscious, dying, then the squad's broken, severed and their squares
    (``run._add_sums`` adds them into the tally). The flag and the arrays are two fields, so
    that the duel's trial loop can take the fight's sides between them, where it always took
    them."""

    accumulate: bool
    tally: TallyArrays
