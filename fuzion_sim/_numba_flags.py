"""numba's compile flags, hashed and compared sooner: the same answers.

numba's type inference looks up each call it types in a cache of overloads whose key holds the
compile flags of the moment (``numba.core.typing.templates._get_impl``), so every lookup
hashes a ``Flags`` object and, where another object with equal flags made the entry, compares
the two. Both go through ``TargetConfig.values()``, a dict of some forty options each read
through a Python property. A first run of a Fuzion vehicle fight makes over a hundred thousand
such lookups, a few seconds of its CPU (PERFORMANCE-NOTES lesson 57). Here:

- ``values()`` reads the options' stored values and defaults directly: the same dict;
- ``__hash__`` is that of the option names, which is what numba's hash of ``values()`` (a
  sorted tuple of the dict, so of its keys) always was, kept once per class;
- ``__eq__`` answers at once for the same object, or for two of one class whose stored options
  are the same, else compares the two dicts as numba does.

Importing this module installs them (``fuzion_sim._jit`` imports it); numba's own stay
reachable as ``_NUMBA_VALUES``, ``_NUMBA_HASH`` and ``_NUMBA_EQ``, and
``tests/engine/test_numba_flags.py`` holds each to them.
"""

from __future__ import annotations

from numba.core.targetconfig import TargetConfig

_NUMBA_VALUES = TargetConfig.values
_NUMBA_HASH = TargetConfig.__hash__
_NUMBA_EQ = TargetConfig.__eq__
#: The hash of each flags class (its option names), made on first use.
_HASHES: dict[type, int] = {}


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


TargetConfig.values = values
TargetConfig.__hash__ = hash_
TargetConfig.__eq__ = eq
