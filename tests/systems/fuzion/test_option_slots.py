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


def _values(switch) -> list:
    """Values of a switch to set: each word, both booleans, or two whole numbers in bounds."""
    if isinstance(switch.kind, tuple):
        return list(switch.kind)
    if switch.kind is bool:
        return [False, True]
    low = int(switch.low if switch.low is not None else 0)
    return [low, low + 1, int(switch.default)]


#: Each option vector of the plan, its slots' declaration.
SLOTS = {"options": codes.OPTIONS, "im_opts": codes.IMPACT_OPTIONS,
         "mo_opts": codes.MOTION_OPTIONS, "df_opts": codes.DOGFIGHT_OPTIONS}
DECLARED = [(vector, name) for vector in SLOTS for name in codes.declared(vector)]


@pytest.mark.parametrize(("vector", "name"), DECLARED, ids=[n for _, n in DECLARED])
def test_a_switch_declared_with_a_slot_reaches_the_kernels_as_it_is_set(vector, name):
    from fuzion_sim.systems.fuzion.model import SWITCHES

    switch = SWITCHES[name]
    seen = []
    for value in _values(switch):
        sc = scenario({"a": [fighter("A")], "b": [dummy()]}, **{name: value})
        assert sc.rules.values[name] == value
        arrays = compile_scenario(sc, kernel="general").arrays
        seen.append(int(getattr(arrays, vector)[SLOTS[vector].index(name)]))
    assert seen == [switch.encode(v) for v in _values(switch)]
    assert len(set(seen)) == len(set(_values(switch)))  # every value reads apart


def test_the_kernels_codes_of_a_words_switch_are_its_words_places():
    from fuzion_sim.systems.fuzion.features.motion import room as mo
    from fuzion_sim.systems.fuzion.model import SWITCHES

    def places(name):
        return [SWITCHES[name].encode(w) for w in SWITCHES[name].kind]

    assert places("hit_locations") == [codes.LOC_NONE, codes.LOC_RANDOM, codes.LOC_CALLED]
    assert places("missile_timing") == [codes.MT_ROUND_FREE, codes.MT_ROUND_ACTION,
                                        codes.MT_PHASE]  # fmt: skip
    assert places("missile_aspect") == [codes.MA_LAUNCH, codes.MA_REAR, codes.MA_SIDE]
    assert places("skid_rounding") == [mo.SKID_FLOOR_MIN1, mo.SKID_CEIL, mo.SKID_FLOOR]


def test_a_slot_holds_a_words_place_a_boolean_or_a_number():
    from fuzion_sim.systems.base import Switch

    assert Switch(("none", "random", "called"), "none", "F27", "x", slot=True).encode("called") == 2
    assert Switch(bool, False, "F28", "x", slot=True).encode(True) == 1
    assert Switch(int, 6, "F25", "x", slot=True).encode(9) == 9
    with pytest.raises(TypeError):
        Switch(float, 0.5, "F20", "x", slot=True).encode(0.5)
    # every slot is a switch's or the fight's, never both, and a switch has one vector
    assert not set(codes.FIGHT_OPTIONS) & set(codes.SWITCH_OPTIONS)
    assert len({name for _, name in DECLARED}) == len(DECLARED)
