"""A jitted function of the package that only jitted code calls is kept as LLVM IR
(``fuzion_sim._numba_linking``): no machine code of its own, cached as IR, and its callers run
what numba's own build would have run."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import codegen

from fuzion_sim import _numba_linking
from fuzion_sim._jit import INNER
from fuzion_sim.systems.fuzion import dice

OFFSETS, TABLE = dice.nd6_tables()


@njit
def _rolls(n_rolls, n):
    """A caller from Python, outside the package (built as numba builds it): ``n_rolls`` sums of
    ``n`` d6 through the package's room ``roll_nd6`` (no Python wrapper)."""
    out = np.empty(n_rolls, np.int64)
    s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    for i in range(n_rolls):
        s0, s1, s2, s3, out[i] = dice.roll_nd6(s0, s1, s2, s3, n, OFFSETS, TABLE)
    return out


def _library(dispatcher):
    (cres,) = dispatcher.overloads.values()
    return cres.library


def _defined(library, name: str) -> bool:
    return library._codegen._engine.is_symbol_defined(name)


def _own(library) -> list[str]:
    return [f.name for f in library._final_module.functions
            if not f.is_declaration and f.linkage == codegen.ll.Linkage.external]  # fmt: skip


def test_the_build_is_installed():
    assert codegen.CPUCodeLibrary._finalize_final_module is _numba_linking._finalize_final_module
    assert codegen.JITCodeLibrary.get_pointer_to_function is (
        _numba_linking.get_pointer_to_function)


def test_a_room_is_kept_as_ir_and_its_caller_runs_it():
    rolls = _rolls(4000, 5)
    room = _library(dice.roll_nd6)
    caller = _library(_rolls)
    assert _numba_linking.linked_only(room) and room._ir_only  # no machine code of its own
    # the caller is no room of the package (a Python entry, another package's name): numba's
    # build, machine code and all, with the room's IR inside it
    assert not _numba_linking.linked_only(caller) and not getattr(caller, "_ir_only", False)
    assert _defined(caller, _own(caller)[0])
    # what runs is the room: sums of 5 d6 with their mean and spread
    assert rolls.min() >= 5 and rolls.max() <= 30
    se = np.sqrt(35 / 12 * 5 / rolls.size)
    assert abs(rolls.mean() - 17.5) < 4 * se
    assert not np.array_equal(rolls, _rolls(4000, 4) + 3)  # a control that must differ
    # an address asked of a name the room does not define: numba's 0, still no machine code
    assert room.get_pointer_to_function("no_such_function") == 0
    assert room._ir_only


def _fresh_room(**options):
    """A dispatcher of its own of the room ``roll_nd6``, with the package's options for a room
    (uncached) and ``options``, compiled for its one signature: a library no other test
    touches."""
    room = njit(**INNER, error_model="numpy", no_cfunc_wrapper=True, **options)(
        dice.roll_nd6.py_func)
    array = types.Array(types.int64, 1, "C")
    room.compile((types.uint64,) * 4 + (types.int64, array, array))
    return _library(room)


def test_a_room_asked_for_its_address_makes_its_machine_code():
    room = _fresh_room()
    room.enable_object_caching()  # as numba does for a function it caches
    (name,) = _own(room)
    assert room._ir_only and not _defined(room, name)
    # the path numba's own runtime library takes (it has no Python entry, and is not ours)
    assert room.get_pointer_to_function(name) != 0
    assert _defined(room, name) and not room._ir_only
    # made so, it is cached as numba caches it: its machine code and its IR
    assert room.serialize_using_object_code()[1] == "object"


def test_a_room_is_cached_as_its_ir():
    """numba caches a library as machine code and IR; a room kept as IR is cached as IR and
    comes back from it still kept as IR, ready to be linked (its callers' caches hold their own
    machine code)."""
    library = _fresh_room()
    name, kind, data = library.serialize_using_object_code()
    assert kind == "bitcode"
    back = library._codegen.unserialize_library((name, kind, data))
    assert back._ir_only and _numba_linking.linked_only(back)
    assert not back._get_module_for_linking().get_function(_own(library)[0]).is_declaration
    # the control: a library with a Python entry is cached as numba caches it
    _rolls(10, 2)
    assert _library(_rolls).serialize_using_object_code()[1] == "object"


def test_a_feature_room_is_optimised_by_its_callers_alone():
    """A room of Fuzion's optional rule families leaves its module passes to its callers; a
    room of the hot path (the dice) keeps them; a caller with a Python entry keeps them."""
    from fuzion_sim.systems.fuzion.features.scene import terrain

    @njit
    def zones(tz):
        return terrain.has_terrain(tz)

    assert zones(np.zeros(3, np.float64)) in (True, False)
    feature = _library(terrain.has_terrain)
    assert _numba_linking.optimised_by_caller(feature) and feature._ir_only
    _rolls(10, 2)
    assert not _numba_linking.optimised_by_caller(_library(dice.roll_nd6))
    assert not _numba_linking.optimised_by_caller(_library(zones))
    assert _numba_linking._mangled("fuzion_sim.systems") == "_ZN10fuzion_sim7systems"
    assert _own(feature)[0].startswith(_numba_linking._BY_CALLER)


def test_a_room_its_callers_inline_in_llvm_is_optimised_by_them_alone():
    """A room marked ``alwaysinline`` (colour's ``turn``) runs only as its callers' inlined
    copies: its module passes are theirs. The same room without the mark keeps its own."""
    inlined = _fresh_room(forceinline=True)
    assert _numba_linking.optimised_by_caller(inlined) and inlined._ir_only
    assert not _numba_linking.optimised_by_caller(_fresh_room())
