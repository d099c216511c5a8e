"""The colour system's jitted functions take at most 40 parameters: a kernel entry point takes
its outputs, tally, scratch and tables as named groups (``Shared``, ``typed.Extras``,
``typed.Stream``, ``kernel_squad.Scratch``, ...), not as dozens of arrays in an order to count
by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import fuzion_sim.systems.colour as colour

#: The most parameters a jitted function may take.
MAX_PARAMS = 40
#: Decorators that compile a function with numba (``typed`` is the colour system's ``jit``).
JIT_NAMES = {"jit", "njit", "typed"}
SYSTEM = Path(colour.__file__).parent


def _name(decorator: ast.expr) -> str | None:
    """The name a decorator is called by: ``jit``, ``jit(...)``, ``numba.njit(...)``."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    return decorator.id if isinstance(decorator, ast.Name) else None


def _count(args: ast.arguments) -> int:
    """Every kind of parameter (``*args`` and ``**kwargs`` one each)."""
    return (len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
            + (args.vararg is not None) + (args.kwarg is not None))  # fmt: skip


def jitted_params(source: str) -> dict[str, int]:
    """``{name:line: parameters}`` of every function of ``source`` that is jitted: decorated
    with a jit (``@jit``, ``@jit(**INNER)``) or handed to one (``jit(trials, _nrt=False)``,
    ``jit(**INNER)(fn)``), nested functions too."""
    tree = ast.parse(source)
    defs: dict[str, list[ast.FunctionDef]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            defs.setdefault(node.name, []).append(node)
    jitted = [f for fs in defs.values() for f in fs
              if any(_name(d) in JIT_NAMES for d in f.decorator_list)]  # fmt: skip
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and _name(node.func) in JIT_NAMES and node.args
                and isinstance(node.args[0], ast.Name)):  # fmt: skip
            jitted += defs.get(node.args[0].id, [])
    return {f"{f.name}:{f.lineno}": _count(f.args) for f in jitted}


def test_no_jitted_function_of_the_system_over_40_parameters():
    over, seen = {}, 0
    for path in sorted(SYSTEM.glob("*.py")):
        counts = jitted_params(path.read_text())
        seen += len(counts)
        over.update({f"{path.name}::{k}": v for k, v in counts.items() if v > MAX_PARAMS})
    assert seen > 50  # the scan finds the kernels at all
    assert not over, over


def test_the_count_catches_a_jitted_function_of_41_parameters():
    def snippet(n: int, decorator: str) -> str:
        params = ", ".join(f"a{i}" for i in range(n))
        return f"@{decorator}\ndef f({params}):\n    pass\n"

    assert jitted_params(snippet(41, "jit(**INNER)")) == {"f:2": 41}
    assert jitted_params(snippet(41, "numba.njit")) == {"f:2": 41}
    assert jitted_params(snippet(40, "jit")) == {"f:2": 40}
    assert jitted_params(snippet(39, "typed") + "def g(*a, **k):\n    pass\n") == {"f:2": 39}
    assert jitted_params("@jit\ndef f(a, *b, c, **d):\n    pass\n") == {"f:2": 4}
    assert jitted_params(snippet(41, "cache")) == {}  # not jitted
    # a function jitted by a call, not a decorator (the general kernel's trial loop)
    handed = snippet(41, "cache").replace("@cache\n", "def make():\n    ").replace(
        "\n    pass", "\n        pass") + "    return jit(f, _nrt=False)\n"  # fmt: skip
    assert jitted_params(handed) == {"f:2": 41}
    assert jitted_params("def g(a, b):\n    pass\nh = jit(**INNER)(g)\n") == {"g:1": 2}
