"""numba's typing as ``fuzion_sim._numba_typing`` makes it gives numba's own answers: a call's
signature remembered is the one numba finds (a failure is not remembered), and the compile flags'
values, hash and equality are numba's, on flags as numba's compiles set them."""

from __future__ import annotations

import operator

import pytest
from numba.core import errors, types
from numba.core.compiler import Flags
from numba.core.registry import cpu_target
from numba.core.targetconfig import ConfigStack, TargetConfig
from numba.core.types.functions import BaseFunction

from fuzion_sim import _jit, _numba_typing  # noqa: F401  (_jit installs them)


def _flags() -> list[Flags]:
    """Default flags, flags with options set as a compile sets them, and a copy of each."""
    plain = Flags()
    lean = Flags()
    lean.nrt = True
    lean.error_model = "numpy"
    lean.inline = "always"
    other = Flags()
    other.error_model = "python"
    default_set = Flags()  # an option set to its default: equal to the plain flags
    default_set.error_model = Flags().error_model
    return [plain, lean, other, plain.copy(), lean.copy(), default_set]


def test_the_faster_forms_are_installed():
    assert BaseFunction.get_call_type is _numba_typing.get_call_type
    assert TargetConfig.values is _numba_typing.values
    assert TargetConfig.__hash__ is _numba_typing.hash_
    assert TargetConfig.__eq__ is _numba_typing.eq


@pytest.mark.parametrize("i", range(6))
def test_values_and_hash_are_numbas(i):
    f = _flags()[i]
    assert f.values() == _numba_typing._NUMBA_VALUES(f)
    assert hash(f) == _numba_typing._NUMBA_HASH(f)


def test_equality_is_numbas_and_can_fail():
    flags = _flags()
    answers = [[a == b for b in flags] for a in flags]
    assert answers == [[_numba_typing._NUMBA_EQ(a, b) for b in flags] for a in flags]
    assert answers[0][3] and answers[1][4]  # a copy equals its original
    assert answers[0][5] and answers[5][0]  # an option set to its default, or left unset
    assert not answers[0][1] and not answers[1][2]  # different options differ
    assert (Flags() == object()) is False


def test_a_flags_key_finds_its_cache_entry():
    """As numba's overload cache uses them: a key made with equal flags finds the entry."""
    cache = {("ctx", (1, 2), _flags()[1]): "impl"}
    assert cache[("ctx", (1, 2), _flags()[4])] == "impl"
    assert ("ctx", (1, 2), _flags()[0]) not in cache


#: Calls a trial loop types: (the function, its argument types).
CALLS = [
    (operator.add, (types.int64, types.int64)),
    (operator.add, (types.float64, types.int64)),
    (operator.lt, (types.int64, types.float64)),
    (operator.getitem, (types.Array(types.int64, 1, "C"), types.int64)),
    (operator.getitem, (types.Array(types.float64, 2, "C"), types.UniTuple(types.int64, 2))),
    (max, (types.int64, types.int64)),
    (min, (types.IntegerLiteral(3), types.int64)),
]


def _typing():
    context = cpu_target.typing_context
    context.refresh()
    return context


@pytest.mark.parametrize("fn, args", CALLS, ids=lambda x: getattr(x, "__name__", None))
def test_a_calls_type_is_numbas_found_once(fn, args):
    """The signature given is numba's own, the second time without asking numba again."""
    context = _typing()
    fnty = context.resolve_value_type(fn)
    first = fnty.get_call_type(context, args, {})
    assert first == _numba_typing._NUMBA_GET_CALL_TYPE(fnty, context, args, {})
    asked = []
    original = _numba_typing._NUMBA_GET_CALL_TYPE
    try:
        _numba_typing._NUMBA_GET_CALL_TYPE = lambda *a: asked.append(a) or original(*a)
        again = fnty.get_call_type(context, args, {})
    finally:
        _numba_typing._NUMBA_GET_CALL_TYPE = original
    assert again is first and asked == []


def test_a_call_under_other_flags_is_typed_again():
    """The compile flags are part of what a signature is remembered by: the control."""
    context = _typing()
    fnty = context.resolve_value_type(operator.sub)
    args = (types.int32, types.int16)
    fnty.get_call_type(context, args, {})
    flags = Flags()
    flags.error_model = "numpy"
    with ConfigStack().enter(flags):
        keys = [k for k in _numba_typing._CALL_TYPES if k[0] is fnty and k[3] == args]
        before = len(keys)
        fnty.get_call_type(context, args, {})
    keys = [k for k in _numba_typing._CALL_TYPES if k[0] is fnty and k[3] == args]
    assert len(keys) == before + 1


def test_a_call_that_fails_fails_every_time():
    """A call numba cannot type raises its own error each time and is not remembered."""
    context = _typing()
    fnty = context.resolve_value_type(operator.add)
    args = (types.unicode_type, types.int64)
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            fnty.get_call_type(context, args, {})
    assert not [k for k in _numba_typing._CALL_TYPES if k[0] is fnty and k[3] == args]
