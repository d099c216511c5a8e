"""The general kernel's rooms keep the two rules that make them free (docs/ARCHITECTURE.md):
the trial loop compiled without reference counting, and no call to an inlined helper with more
than 30 arguments (CPython passes those as ``f(*args)``, which numba cannot inline)."""

from __future__ import annotations

import ast
from pathlib import Path

from fuzion_sim.systems.fuzion import kernel

ROOMS = Path(kernel.__file__).parent
MODULES = ("kernel.py", "strike.py", "hull.py", "actions.py", "kernel_parts.py", "rules.py")


def _inlined(tree: ast.Module) -> set[str]:
    """Names of the functions decorated ``@jit(inline="always")``."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and any(
                    k.arg == "inline" and getattr(k.value, "value", None) == "always"
                    for k in dec.keywords
                ):
                    names.add(node.name)
    return names


def test_the_trial_loop_runs_without_reference_counting():
    assert kernel.trials.targetoptions.get("_nrt") is False
    assert kernel.run_chunk.targetoptions.get("_nrt", True) is not False


def test_no_inlined_helper_is_called_with_more_than_30_arguments():
    trees = {name: ast.parse((ROOMS / name).read_text()) for name in MODULES}
    inlined = set().union(*(_inlined(tree) for tree in trees.values()))
    assert {"strike", "attack_odds", "act_move", "moved_geometry"} <= inlined
    too_long = [
        f"{name}:{node.lineno} {node.func.id}({len(node.args)} arguments)"
        for name, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in inlined and len(node.args) + len(node.keywords) > 30
    ]  # fmt: skip
    assert not too_long, too_long
