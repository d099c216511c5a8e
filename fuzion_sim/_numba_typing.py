"""numba's type inference, the same answers sooner: a call's type remembered, and the compile
flags hashed and compared directly.

A first run of a Fuzion fight types one big trial loop and its rooms, and numba types each call
in them (an operator, a builtin, an ``@overload``) by trying the function's templates in turn:
some eleven a call, each building an error message when it does not match. A trial loop makes
the same calls over and over (an array's item at an integer, a sum of two integers): in a cold
run of ``squad-4v4.yaml`` 13,800 calls typed, 918 of them different (PERFORMANCE-NOTES lesson
59). And every lookup in numba's caches of overloads hashes the compile flags of the moment and
compares them with the entry's, through a dict of some forty options read through Python
properties (lesson 57). Here:

- ``BaseFunction.get_call_type`` remembers the signature it found for a function type, typing
  context, target, argument types, keyword types and compile flags, and gives it again for the
  same; a call that fails is not remembered (numba tries again, and raises its own message).
  Given again, it also points the function type at the implementation numba's typing found
  for these flags (an ``@overload`` is compiled once for each), as numba's own typing does at
  its end, so the lowering links the implementation it linked before: the trial loops come
  out of numba the same, instruction for instruction, but for an overload's serial number;
- ``TargetConfig.values()`` reads the options' stored values and defaults directly: the same
  dict;
- ``TargetConfig.__hash__`` is that of the option names, which is what numba's hash of
  ``values()`` (a sorted tuple of the dict, so of its keys) always was, kept once per class;
- ``TargetConfig.__eq__`` answers at once for the same object, or for two of one class whose
  stored options are the same, else compares the two dicts as numba does.

Importing this module installs them (``fuzion_sim._jit`` imports it); numba's own stay
reachable as ``_NUMBA_GET_CALL_TYPE``, ``_NUMBA_VALUES``, ``_NUMBA_HASH`` and ``_NUMBA_EQ``,
and ``tests/engine/test_numba_typing.py`` holds each to them.
"""

from __future__ import annotations

from numba.core.target_extension import get_local_target
from numba.core.targetconfig import ConfigStack, TargetConfig
from numba.core.types.functions import BaseFunction

_NUMBA_GET_CALL_TYPE = BaseFunction.get_call_type
_NUMBA_VALUES = TargetConfig.values
_NUMBA_HASH = TargetConfig.__hash__
_NUMBA_EQ = TargetConfig.__eq__
#: The signatures found, by (function type, context, target, argument types, keyword types,
#: compile flags).
_CALL_TYPES: dict = {}
#: The hash of each flags class (its option names), made on first use.
_HASHES: dict[type, int] = {}


def get_call_type(self, context, args, kws):
    """numba's signature of a call of function type ``self`` with argument types ``args`` and
    keyword argument types ``kws``, found once for each set of them and compile flags."""
    try:
        key = (self, context, get_local_target(context), tuple(args), tuple(kws.items()),
               ConfigStack.top_or_none())  # fmt: skip
        found = _CALL_TYPES.get(key)
    except TypeError:  # a type that cannot be hashed: numba types it every time
        return _NUMBA_GET_CALL_TYPE(self, context, args, kws)
    if found is None:
        sig = _NUMBA_GET_CALL_TYPE(self, context, args, kws)
        if sig is not None:
            _CALL_TYPES[key] = sig, self._impl_keys[sig.args]
        return sig
    sig, impl = found
    # what numba's typing leaves for the lowering: the implementation of these flags' overload
    self._impl_keys[sig.args] = impl
    return sig


def values(self) -> dict:
    """Every option's value: the one set on ``self``, else the option's default."""
    own = self._values
    return {name: own.get(name, option._default) for name, option in self.options.items()}


def hash_(self) -> int:
    """numba's hash of the flags, ``hash(tuple(sorted(self.values())))``: its option names'."""
    cls = type(self)
    if cls not in _HASHES:
        _HASHES[cls] = hash(tuple(sorted(self.options)))
    return _HASHES[cls]


def eq(self, other):
    """numba's equality of flags: every option's value the same. Two flags of one class with
    the same options set to the same values are equal without a look at the defaults."""
    if self is other:
        return True
    if isinstance(other, TargetConfig):
        if type(self) is type(other) and self._values == other._values:
            return True
        return values(self) == values(other)
    return NotImplemented


BaseFunction.get_call_type = get_call_type
TargetConfig.values = values
TargetConfig.__hash__ = hash_
TargetConfig.__eq__ = eq
