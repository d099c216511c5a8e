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
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

from numba import njit
from numba.core import caching

__all__ = ["jit"]

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": False}
_PACKAGE = Path(__file__).resolve().parent


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


def _imports(path: Path, package: Path) -> set[Path]:
    """The modules of ``package`` that the module at ``path`` imports (``from .x import y``
    counts module ``x.y`` where that is a module, else ``x``)."""
    rel = path.relative_to(package.parent).with_suffix("").parts
    here = list(rel[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                names.add(sub if _module_file(sub, package) else module)
    return {f for f in (_module_file(n, package) for n in names) if f is not None}


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


def jit(fn=None, **overrides):
    """``numba.njit`` with the project's options; usable bare (``@jit``) or called."""
    options = {**_OPTIONS, **overrides}
    if fn is None:
        return lambda f: njit(**options)(f)
    return njit(**options)(fn)
