"""The project's one numba policy.

Every jitted function in fuzion_sim uses :func:`jit`: cached to disk (a warm start loads instead
of compiling), ``nogil`` so chunks run on a thread pool, numpy's error model (no exceptions in
integer division by zero checks) and no fastmath, so results are bit-identical everywhere.

numba stamps a cached function with its own source file only, so a kernel that inlines a helper
from another module would load stale machine code after that module changed. The cache of every
function of this package is stamped instead with the contents of every module it can draw on:
the files of its own folder and those of the shared jitted rooms (``engine/``, ``_jit.py``).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba import njit
from numba.core import caching

__all__ = ["jit"]

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": False}
_PACKAGE = Path(__file__).resolve().parent
_SHARED = (_PACKAGE / "engine", _PACKAGE / "_jit.py")


@functools.cache
def _stamp(folder: Path) -> str:
    """Digest of the Python sources a jitted function in ``folder`` can depend on."""
    digest = hashlib.sha256()
    files = sorted(folder.glob("*.py"))
    for shared in _SHARED:
        files += sorted(shared.glob("*.py")) if shared.is_dir() else [shared]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class _PackageStamp:
    """Mixin: this package's functions only, stamped by :func:`_stamp` of their folder."""

    def get_source_stamp(self):
        return _stamp(Path(self._py_file).resolve().parent)

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
