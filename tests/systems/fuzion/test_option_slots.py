"""The option vectors' slots are numbered from one declaration each (``codes.py``): the plan's
vectors have exactly the declared slots, and no code reads or writes a slot by a bare number."""

import ast
from pathlib import Path

import numpy as np
import pytest
from fight_log import dummy, fighter, scenario

from fuzion_sim.systems.fuzion import codes, compile_scenario

ROOMS = Path(codes.__file__).resolve().parent
VECTORS = {"options", "im_opts", "mo_opts", "df_opts", "opts"}


@pytest.mark.parametrize(("names", "prefix"), [
    (codes.OPTIONS, "OPT_"), (codes.IMPACT_OPTIONS, "IO_"), (codes.MOTION_OPTIONS, "MO_"),
    (codes.DOGFIGHT_OPTIONS, "DO_")])  # fmt: skip
def test_each_slot_is_its_place_in_its_declaration(names, prefix):
    assert len(set(names)) == len(names)
    assert [getattr(codes, prefix + n.upper()) for n in names] == list(range(len(names)))


def test_the_plans_vectors_have_exactly_the_declared_slots():
    arrays = compile_scenario(scenario({"a": [fighter("A")], "b": [dummy()]}),
                              kernel="general").arrays
    assert arrays.options.shape == (codes.N_OPTIONS,) == (len(codes.OPTIONS),)
    assert arrays.im_opts.shape == (len(codes.IMPACT_OPTIONS),)
    assert arrays.mo_opts.shape == (codes.N_MO_OPTS,)
    assert arrays.df_opts.shape == (codes.N_DO,)
    assert all(v.dtype == np.int64 for v in (arrays.options, arrays.im_opts, arrays.mo_opts,
                                             arrays.df_opts))  # fmt: skip


def _bare_indices(tree: ast.AST) -> list[int]:
    """Lines where an option vector is indexed by a number."""
    def name(node):
        return getattr(node, "id", None) or getattr(node, "attr", None)

    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and name(node.value) in VECTORS
            and isinstance(getattr(node.slice, "value", None), int)]  # fmt: skip


def test_no_option_slot_is_read_or_written_by_a_bare_number():
    found = {str(path.relative_to(ROOMS)): lines for path in sorted(ROOMS.rglob("*.py"))
             if (lines := _bare_indices(ast.parse(path.read_text())))}  # fmt: skip
    assert not found, found
    # the control: the check sees a bare index
    assert _bare_indices(ast.parse("x = plan.im_opts[0]\ny = options[3]")) == [1, 2]
