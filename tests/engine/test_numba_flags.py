"""numba's compile flags, hashed and compared by ``fuzion_sim._numba_flags``, give numba's own
answers: the same values, the same hash, the same equality, on flags as numba's compiles set
them."""

from __future__ import annotations

import pytest
from numba.core.compiler import Flags
from numba.core.targetconfig import TargetConfig

from fuzion_sim import _jit, _numba_flags  # noqa: F401  (_jit installs them)


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
    assert TargetConfig.values is _numba_flags.values
    assert TargetConfig.__hash__ is _numba_flags.hash_
    assert TargetConfig.__eq__ is _numba_flags.eq


@pytest.mark.parametrize("i", range(6))
def test_values_and_hash_are_numbas(i):
    f = _flags()[i]
    assert f.values() == _numba_flags._NUMBA_VALUES(f)
    assert hash(f) == _numba_flags._NUMBA_HASH(f)


def test_equality_is_numbas_and_can_fail():
    flags = _flags()
    answers = [[a == b for b in flags] for a in flags]
    assert answers == [[_numba_flags._NUMBA_EQ(a, b) for b in flags] for a in flags]
    assert answers[0][3] and answers[1][4]  # a copy equals its original
    assert answers[0][5] and answers[5][0]  # an option set to its default, or left unset
    assert not answers[0][1] and not answers[1][2]  # different options differ
    assert (Flags() == object()) is False


def test_a_flags_key_finds_its_cache_entry():
    """As numba's overload cache uses them: a key made with equal flags finds the entry."""
    cache = {("ctx", (1, 2), _flags()[1]): "impl"}
    assert cache[("ctx", (1, 2), _flags()[4])] == "impl"
    assert ("ctx", (1, 2), _flags()[0]) not in cache
