"""A room only jitted code calls makes no machine code of its own: its callers make it, with
themselves.

numba builds each jitted function into a library of its own: it optimises the library's module
(LLVM's O3 pipeline over it and every callee linked into it), makes its machine code, and hands
callers a copy of the module as the machine code left it. A caller links those copies into its
own module and does both again, so a room three calls deep in a kernel was optimised three
times and made into machine code three times, and only the copy inside the kernel ever runs.
A function of this package with no Python entry point (``_jit.INNER``: no Python wrapper, no C
callback) is a room nothing outside jitted code can call, so its library here

- makes no machine code unless something asks for an address in it (then it does, as numba
  would have), and is cached as its IR (numba's ``bitcode`` form) instead of machine code and
  IR;
- where it is a room of Fuzion's optional rule families (:data:`OPTIMISED_BY_CALLER`) or a
  room its callers inline in LLVM (``alwaysinline``, colour's ``turn``), skips its module passes
  too: its callers' module passes optimise it with them, after inlining, as they optimise every
  callee. The other rooms keep theirs: a trial loop calling the hot path's rooms (an attack's
  form, its wounds) ran 2 % slower when they came to it unoptimised.

Every other library (a kernel, a helper a test calls, ``_jit.INLINE``, numba's own runtime) is
built as numba builds it. A kernel now links its rooms' IR as the optimiser left it rather than
as the machine code left it, so its machine code differs: the numbers of every shipped scenario
are the same (``tests/systems/test_fixed_numbers.py``), the first run of the fight with every
Fuzion room is about a sixth shorter, and the kernels run within a point or two of before or
faster (PERFORMANCE-NOTES lesson 50). Importing this module installs it (``fuzion_sim._jit``
imports it).
"""

from __future__ import annotations

import weakref

from numba.core import codegen

_PACKAGE = __name__.split(".")[0]
#: The modules (under the package) whose rooms their callers alone optimise: Fuzion's optional
#: rule families, called out of line behind a flag and nested several calls deep (a vehicle's
#: drive calls its ram, which calls its path). The other rooms are the hot path's (an attack's
#: form, its wounds): optimised on their own first, the trial loops that call them run faster.
OPTIMISED_BY_CALLER = ("systems.fuzion.features",)


def _mangled(dotted: str) -> str:
    """The start of numba's name for a function of module ``dotted`` (Itanium: ``_ZN`` and each
    part as its length and itself)."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in dotted.split("."))


_OURS = _mangled(_PACKAGE)
_BY_CALLER = tuple(_mangled(f"{_PACKAGE}.{m}") for m in OPTIMISED_BY_CALLER)
#: The prefixes of numba's entry points from Python: its wrapper, and a C callback's.
_ENTRY = ("_ZN7cpython", "cfunc.")

#: numba's own methods this module stands in for (``None`` where a numba lacks one: then none
#: is replaced, and the package builds as numba builds, slower to compile but the same).
_NUMBA_OPTIMIZE_FINAL = getattr(codegen.CPUCodeLibrary, "_optimize_final_module", None)
_NUMBA_FINALIZE_FINAL = getattr(codegen.CPUCodeLibrary, "_finalize_final_module", None)
_NUMBA_POINTER = getattr(codegen.JITCodeLibrary, "get_pointer_to_function", None)
_NUMBA_SERIALIZE = getattr(codegen.CPUCodeLibrary, "serialize_using_object_code", None)
_NUMBA_SET_ENV = getattr(codegen.JITCPUCodegen, "set_env", None)


def _own(library) -> list[str]:
    """The names of the functions ``library`` defines for others (a callee linked into it is
    ``linkonce_odr``)."""
    return [f.name for f in library._final_module.functions
            if not f.is_declaration and f.linkage == codegen.ll.Linkage.external]  # fmt: skip


def linked_only(library) -> bool:
    """True when ``library`` is a jitted function of this package that nothing outside jitted
    code can call: no Python or C entry point, and its own functions all ours."""
    if not isinstance(library, codegen.JITCodeLibrary):
        return False
    own = _own(library)
    return bool(own) and all(n.startswith(_OURS) and not n.startswith(_ENTRY) for n in own)


def optimised_by_caller(library) -> bool:
    """True when ``library`` is a room kept as IR whose module passes are left to its callers':
    a room of :data:`OPTIMISED_BY_CALLER`, or one its callers inline in LLVM (``alwaysinline``:
    only the inlined copies run)."""
    if not linked_only(library):
        return False
    functions = [library._final_module.get_function(name) for name in _own(library)]
    return all(f.name.startswith(_BY_CALLER) or b"alwaysinline" in f.attributes
               for f in functions)  # fmt: skip


def _optimize_final_module(self):
    if not optimised_by_caller(self):
        _NUMBA_OPTIMIZE_FINAL(self)


def _finalize_final_module(self):
    if not linked_only(self):
        _NUMBA_FINALIZE_FINAL(self)
        return
    # numba's steps but the two that make machine code (adding the module to the JIT engine,
    # and finalising the engine's objects): they wait for a request of an address
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    # numba's link from module to library (its object cache keeps a later machine code so)
    self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
    self._finalized = True
    self._ir_only = True


def _emit(self) -> None:
    """Make the machine code of a library kept as IR (numba's last steps of a finalisation)."""
    self._ir_only = False
    cleanup = self._codegen._add_module(self._final_module)
    if cleanup:
        weakref.finalize(self, cleanup)
    self._finalize_specific()


def get_pointer_to_function(self, name):
    if getattr(self, "_ir_only", False):
        try:
            function = self._final_module.get_function(name)
        except NameError:
            return 0  # numba's answer for a name the library does not define
        if function.is_declaration:
            return 0
        _emit(self)
    return _NUMBA_POINTER(self, name)


def serialize_using_object_code(self):
    if getattr(self, "_ir_only", False):
        return self.serialize_using_bitcode()  # loaded back as IR (``_unserialize``)
    return _NUMBA_SERIALIZE(self)


def set_env(self, env_name, env):
    # a library kept as IR has no global of its own in the engine: its callers' copies hold
    # their environments, as when a caller is loaded from the cache without its callees
    if self._engine.is_symbol_defined(env_name):
        _NUMBA_SET_ENV(self, env_name, env)


if None not in (_NUMBA_OPTIMIZE_FINAL, _NUMBA_FINALIZE_FINAL, _NUMBA_POINTER, _NUMBA_SERIALIZE,
                _NUMBA_SET_ENV):  # fmt: skip
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
    codegen.CPUCodeLibrary._finalize_final_module = _finalize_final_module
    codegen.JITCodeLibrary.get_pointer_to_function = get_pointer_to_function
    codegen.CPUCodeLibrary.serialize_using_object_code = serialize_using_object_code
    codegen.JITCPUCodegen.set_env = set_env
