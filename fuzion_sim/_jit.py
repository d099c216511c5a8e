"""The project's one numba policy.

Every jitted function in fuzion_sim uses :func:`jit`: cached to disk (a warm start loads instead
of compiling), ``nogil`` so chunks run on a thread pool, numpy's error model (no exceptions in
integer division by zero checks) and no fastmath, so results are bit-identical everywhere.

numba stamps a cached function with its own source file only, so a kernel that inlines a helper
from another module would load stale machine code after that module changed. The cache of every
function of this package is stamped instead with the contents of every module it can draw on: its
import closure, the package's modules its module imports, and theirs, and so on (a jitted
function reaches other code only through its module's globals, and those come from its imports).
A change to a module outside the closure (the narration, the scenario loader's messages) keeps
the compiled kernels; a change inside it recompiles them.

Two more choices keep a first run short. A call from jitted code compiles the callee for its
arguments' types, never their values: numba would compile an out-of-line helper once more for
each constant a caller passes (``-1``, ``False``), minutes of machine code written twice or
thrice for the rooms of Fuzion's general kernel. And a kernel made per feature set by a factory
(a closure over flags, which may call other such closures) is cached under a key built from the
flags and the names of the jitted functions it holds, where numba's own key would hold a random
identity of each function and never match in the next process.

Fuzion's general trial loop, the one big function a first run waits for, is compiled by a lean
pipeline (:data:`LEAN`), and a kernel's hot helpers are inlined by numba or by LLVM
(:data:`INLINE`), whichever measured better for that kernel. Three of numba's passes whose time
grows with the square of a function's size, the inliner's copy, the SSA reconstruction and the
live-variable analysis, run here in a form that makes the same result sooner
(:mod:`fuzion_sim._numba_passes`), and numba's typing remembers the type of a call it has
typed and hashes its compile flags sooner (:mod:`fuzion_sim._numba_typing`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import pickle
import re
from pathlib import Path

from numba import njit
from numba.core import caching, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.registry import CPUDispatcher
from numba.core.serialize import dumps
from numba.core.typed_passes import IRLegalization, NopythonRewrites

from . import (  # noqa: F401
    _numba_linking,
    _numba_lowering,
    _numba_passes,
    _numba_pipeline,
    _numba_typing,
)

__all__ = ["INLINE", "INNER", "LEAN", "jit"]

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": False,
            "no_cfunc_wrapper": True}
_PACKAGE = Path(__file__).resolve().parent
#: The options of a function only jitted code calls (a room of a kernel, out of its trial loop):
#: no reference counting and no Python wrapper. numba's wrapper unboxes every argument from
#: Python, and its code grows with the square of the arguments: a room taking a few groups of
#: arrays spent most of its compile on a wrapper nothing called (PERFORMANCE-NOTES lesson 40).
INNER = {"_nrt": False, "no_cpython_wrapper": True}
#: The options of a helper its caller runs in line, inlined by LLVM: compiled on its own, once,
#: and marked ``alwaysinline`` (numba's ``forceinline``), where numba's ``inline="always"``
#: copies the helper's IR into every caller and types and lowers it there again. Which of the
#: two a kernel's hot helpers use is measured per kernel, not assumed (PERFORMANCE-NOTES lesson
#: 46): the squad kernel's steps run 4 to 5 % faster so and compile in 3 s less; the general
#: kernel's would compile its first run in 26 s instead of 36, but its trial loop then ran at
#: 0.45 to 0.95 of its speed, a different figure from each compile, so they stay numba's.
#: It keeps numba's Python wrapper, so a test can call it from Python (a function without one
#: crashes the process when called so).
INLINE = {"_nrt": False, "forceinline": True}


class _LeanCompiler(CompilerBase):
    """numba's nopython pipeline without two passes a compiled, tested trial loop does not
    need: the IR legalization (a check that names a construct numba cannot lower; without it
    such a construct still fails, in lowering, with a rougher message) and the typed rewrites
    (array expressions, which a loop compiled without reference counting cannot allocate, and
    static indexing that typing already resolved). Both scale with the loop's size: 2.8 s of
    the general kernel's first run, for machine code that differs in one branch
    (PERFORMANCE-NOTES lesson 46)."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [p for p in pm.passes if p[0] not in (IRLegalization, NopythonRewrites)]
        return [pm]


#: The options of a big trial loop called from Python: no reference counting, and the lean
#: pipeline (:class:`_LeanCompiler`).
LEAN = {"_nrt": False, "pipeline_class": _LeanCompiler}


def _module_file(name: str, package: Path) -> Path | None:
    """The source file of module ``name`` (dotted, from the package's own name), or None when it
    is not a module of ``package``."""
    parts = name.split(".")
    if parts[0] != package.name:
        return None
    path = package.joinpath(*parts[1:])
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


#: An import statement at the start of a line, with its parenthesised or backslashed lines.
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+)?import[ \t]+(?:\([^)]*\)|(?:[^\n\\]|\\\n)*)", re.M)


def _import_nodes(source: bytes) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module's source. Only the lines that look like imports are
    parsed, a twentieth of the time of the whole module (every run stamps about 40 modules
    before it loads a kernel); where those lines do not parse on their own (an import's
    parenthesis holds a comment with a parenthesis, a docstring line reads like an import),
    the whole module is."""
    try:
        tree = ast.parse(b"\n".join(line.strip() for line in _IMPORT.findall(source)))
    except SyntaxError:
        tree = ast.parse(source)
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


@functools.cache  # a stamp walk meets the same modules again and again
def _imports(path: Path, package: Path) -> frozenset[Path]:
    """The modules of ``package`` that the module at ``path`` imports (``from .x import y``
    counts module ``x.y`` where that is a module, else ``x``)."""
    rel = path.relative_to(package.parent).with_suffix("").parts
    here = list(rel[:-1])
    names: set[str] = set()
    for node in _import_nodes(path.read_bytes()):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                names.add(sub if _module_file(sub, package) else module)
    return frozenset(f for f in (_module_file(n, package) for n in names) if f is not None)


def _closure(path: Path, package: Path = _PACKAGE) -> list[Path]:
    """``path`` and every module of ``package`` it imports, directly or not, sorted."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(_imports(here, package))
    return sorted(seen)


@functools.cache
def _stamp(path: Path, package: Path = _PACKAGE) -> str:
    """Digest of the Python sources a jitted function defined in ``path`` can depend on."""
    digest = hashlib.sha256()
    for module in _closure(path, package):
        digest.update(str(module.relative_to(package)).encode())
        digest.update(module.read_bytes())
    return digest.hexdigest()


class _PackageStamp:
    """Mixin: this package's functions only, stamped by :func:`_stamp` of their folder."""

    def get_source_stamp(self):
        return _stamp(Path(self._py_file).resolve())

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_PACKAGE):
            return None
        return super().from_function(py_func, py_file)


class _UserDirLocator(_PackageStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` when set."""


class _InTreeLocator(_PackageStamp, caching.InTreeCacheLocator):
    """The package's ``__pycache__`` folders."""


caching.CacheImpl._locator_classes[:0] = [_UserDirLocator, _InTreeLocator]


def _frozen(value):
    """A closure variable as the cache key sees it: a jitted function by its name and its own
    closure's variables (its source is in the stamp), anything else as it is."""
    if isinstance(value, CPUDispatcher):
        fn = value.py_func
        cells = tuple(_frozen(c.cell_contents) for c in fn.__closure__ or ())
        return ("jit", fn.__module__, fn.__qualname__, cells)
    return value


class _IndexFile(caching.IndexDataCacheFile):
    """A cache index that another version of the package wrote and this one cannot read is a
    miss. numba unpickles an index's entries before it compares their stamp, and an entry's
    signature names its argument types' classes by module: after a module moved, a stale index
    (in ``NUMBA_CACHE_DIR``, which outlives an upgrade) raised instead of recompiling."""

    def _load_index(self):
        try:
            return super()._load_index()
        except (ImportError, AttributeError, pickle.UnpicklingError, EOFError):
            return {}


class _Cache(caching.FunctionCache):
    """numba's cache, keyed by :func:`_frozen` closure variables, its index read by
    :class:`_IndexFile`."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file.__class__ = _IndexFile

    def _index_key(self, sig, codegen):
        closure = self._py_func.__closure__ or ()
        cells = dumps(tuple(_frozen(c.cell_contents) for c in closure)) if closure else b""
        code = self._py_func.__code__.co_code
        return (sig, codegen.magic_tuple(),
                (hashlib.sha256(code).hexdigest(), hashlib.sha256(cells).hexdigest()))  # fmt: skip


class _Dispatcher(CPUDispatcher):
    """A jitted function that jitted callers call by their arguments' types, not values."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def _ours(disp, cache: bool):
    disp.__class__ = _Dispatcher
    if cache:
        disp._cache = _Cache(disp.py_func)
    return disp


def jit(fn=None, *, variant: str = "", **overrides):
    """``numba.njit`` with the project's options; usable bare (``@jit``) or called.

    ``variant`` names one of the functions a factory makes from the same source (letters,
    digits and ``_``): it joins the function's name, so the machine code of each has its own
    symbols. Without it two variants loaded from the cache into one process would share a
    symbol name, and the second's callers would run the first's code.
    """
    options = {**_OPTIONS, **overrides}

    def wrap(f):
        if variant:
            f.__qualname__ = f"{f.__qualname__}_{variant}"
        return _ours(njit(**options)(f), options["cache"])

    return wrap if fn is None else wrap(fn)
