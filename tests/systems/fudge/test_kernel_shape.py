"""The shape of the FUDGE kernels: no jitted function takes more than 40 parameters.

A kernel entry point with scores of positional arrays is hard to read and easy to call in the
wrong order; what belongs together travels as one named group (``Plan``, ``Shared``,
``Counts``, ``Scratch``, ``TallyArrays``) and is unpacked at the top of the function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fuzion_sim.systems.fudge as fudge

#: The most parameters a jitted function may take.
MAX_PARAMS = 40
SYSTEM = Path(fudge.__file__).resolve().parent


def _is_jit(decorator: ast.expr) -> bool:
    """``decorator`` is ``jit``, ``jit(...)``, ``numba.njit`` or the like."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("jit", "njit")


def _n_params(fn: ast.FunctionDef) -> int:
    a = fn.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))  # fmt: skip


def too_many(source: str, limit: int = MAX_PARAMS) -> list[tuple[str, int]]:
    """The jitted functions of ``source`` that take more than ``limit`` parameters, with their
    counts."""
    return [(node.name, _n_params(node)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef) and any(map(_is_jit, node.decorator_list))
            and _n_params(node) > limit]  # fmt: skip


def test_the_counter_catches_41_parameters():
    params = ", ".join(f"a{i}" for i in range(41))
    snippet = f"@jit(**INNER)\ndef wide({params}):\n    pass\n\n@jit\ndef fine(a, b):\n    pass\n"
    assert too_many(snippet) == [("wide", 41)]
    assert too_many(snippet.replace(", a40", "")) == []
    undecorated = f"def plain({params}):\n    pass\n"
    assert too_many(undecorated) == []


def test_no_jitted_function_of_the_system_takes_more_than_40_parameters():
    modules = sorted(SYSTEM.rglob("*.py"))
    assert any(p.name == "kernel.py" for p in modules)
    found = {f"{p.relative_to(SYSTEM)}::{name}": count for p in modules
             for name, count in too_many(p.read_text())}  # fmt: skip
    assert found == {}
