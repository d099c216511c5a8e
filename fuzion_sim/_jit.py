"""The project's one numba policy.

Every jitted function in fuzion_sim uses :func:`jit`: cached to disk (a warm start loads instead
of compiling), ``nogil`` so chunks run on a thread pool, numpy's error model (no exceptions in
integer division by zero checks) and no fastmath, so results are bit-identical everywhere.
"""

from __future__ import annotations

from numba import njit

__all__ = ["jit"]

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": False}


def jit(fn=None, **overrides):
    """``numba.njit`` with the project's options; usable bare (``@jit``) or called."""
    options = {**_OPTIONS, **overrides}
    if fn is None:
        return lambda f: njit(**options)(f)
    return njit(**options)(fn)
