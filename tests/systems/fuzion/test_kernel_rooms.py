"""The general kernel's rooms keep the rules that make them free (docs/ARCHITECTURE.md): the
trial loop compiled without reference counting, no call to an inlined helper with more than 30
arguments (CPython passes those as ``f(*args)``, which numba cannot inline), and a fight compiled
only with the rooms it can reach, which give it the numbers the kernel with every room gives."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from fuzion_sim import load_scenario
from fuzion_sim.engine.rng import chunk_key
from fuzion_sim.systems.fuzion import kernel, run

ROOMS = Path(kernel.__file__).parent
MODULES = ("kernel.py", "strike.py", "features/vehicles/room.py", "actions.py", "kernel_parts.py",
           "rules.py")  # fmt: skip


def _inlined(tree: ast.Module) -> set[str]:
    """Names of the functions decorated ``@jit(inline="always")``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and any(
                    k.arg == "inline" and getattr(k.value, "value", None) == "always"
                    for k in dec.keywords
                ):
                    names.add(node.name)
    return names


@pytest.mark.parametrize("rooms", list(kernel.SETS),
                         ids=["people", "hazards", "scene", "ground", "vehicles", "driven",
                              "air", "every"])
def test_the_trial_loop_runs_without_reference_counting(rooms):
    run_chunk = kernel.kernel_for(rooms)
    assert kernel.trials_of(run_chunk).targetoptions.get("_nrt") is False
    # run_chunk is plain Python: jitted, it would carry a second copy of the loop's machine code
    assert not hasattr(run_chunk, "targetoptions")


def test_the_trial_loop_reads_the_tables_rows_not_arrays_by_name():
    import inspect

    from fuzion_sim.systems.fuzion import compile as fz_compile
    from fuzion_sim.systems.fuzion import state

    params = set(inspect.signature(kernel.trials_of(kernel.kernel_for(kernel.PEOPLE)).py_func)
                 .parameters)  # fmt: skip
    tabled = {*state.PLAN_INT, *state.PLAN_FLOAT, *state.STATE_INT, *state.STATE_BOOL,
              *state.STATE_FLOAT, *state.ENGAGEMENT}  # fmt: skip
    assert not params & tabled
    assert {"ci", "cf", "state"} <= params
    assert len(params) <= 40
    assert set(state.PLAN_INT) | set(state.PLAN_FLOAT) <= set(fz_compile.Plan._fields)
    assert [state.REF, state.HITS, state.HIDDEN, state.E_TGT] == [
        state.PLAN_INT.index("ref"), state.STATE_INT.index("hits"),
        state.STATE_BOOL.index("hidden"), state.ENGAGEMENT.index("e_tgt")]  # fmt: skip


def test_no_inlined_helper_is_called_with_more_than_30_arguments():
    trees = {name: ast.parse((ROOMS / name).read_text()) for name in MODULES}
    inlined = set().union(*(_inlined(tree) for tree in trees.values()))
    assert {"strike", "attack_odds", "choose_rule", "tactic_variable", "hit_damage"} <= inlined
    too_long = [
        f"{name}:{node.lineno} {node.func.id}({len(node.args)} arguments)"
        for name, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in inlined and len(node.args) + len(node.keywords) > 30
    ]  # fmt: skip
    assert not too_long, too_long


ROOT = Path(__file__).resolve().parents[3] / "scenarios"


def _path(name: str) -> Path:
    """The shipped scenario ``name``, in ``scenarios/`` or ``scenarios/vehicles/``."""
    path = ROOT / f"{name}.yaml"
    return path if path.exists() else ROOT / "vehicles" / f"{name}.yaml"


@pytest.mark.parametrize(("name", "rooms", "compiled"), [
    ("benchmark-duel", (), "people"),
    ("squad-4v4", (), "people"),
    ("grenade-into-a-room", ("area",), "people"),
    ("rooftop-fall", ("scene", "jumps"), "scene"),
    ("brick-through-a-wall", ("scene",), "scene"),
    ("pushing-brawl", ("hazards",), "hazards"),
    ("car-chase-with-ramming", ("vehicles", "motion", "drives"), "driven"),
    ("cliff-road-chase", ("vehicles", "scene", "motion"), "driven"),
    ("jet-vs-missile-cluster", ("vehicles", "missiles", "dogfights"), "air"),
    ("jet-vs-missile-cluster+zone", ("missiles", "hazards"), "every"),
    ("giant-robot-duel", ("mecha_range",), "vehicles"),
    ("tank-example", ("vehicles",), "vehicles"),
    ("helicopter-vs-armoured-car", ("vehicles", "arsenal", "gate"), "vehicles"),
    ("burning-building", ("hazards",), "ground"),
    ("tank-example+mud", ("vehicles", "scene", "ground"), "driven"),
    ("tank-example+blast", ("vehicles", "area"), "driven"),
    ("tank-example+zone", ("vehicles", "hazards"), "every"),
])  # fmt: skip
def test_a_fight_is_compiled_with_the_rooms_it_reaches(name, rooms, compiled):
    """A fight gets the smallest compiled set that holds its rooms: the people's, the hazards'
    (the people's and hazards on open ground), the scene's
    (on foot in a scene without hazards, several weapons or an area weapon), the ground's
    (every room but a vehicle's), the vehicles' (vehicles at rest on open ground, several
    weapons and the gate), the driven vehicles' (every room but missiles, dogfights, hazards and
    jumps: the chases, the tank on a muddy field or against a launcher whose rocket has an area),
    the air's (missiles and dogfights without motion, a scene, hazards or an area weapon: the
    jet) or every room (the tank or the jet in a hazard's zone)."""
    name, _, extra = name.partition("+")
    overrides = {
        "": [],
        "mud": [("terrain", [{"name": "Mud", "kind": "rough", "at": [-50, -50],
                              "size": [100, 100]}])],
        "blast": [("sides.infantry[0].weapon.area", {"per": "die", "radius": 1})],
        "zone": [("hazards", [{"name": "Fire", "kind": "fire", "dc": 4,
                               "circle": {"center": [0, 0], "radius": 2}}])],
    }[extra]  # fmt: skip
    scenario = load_scenario(_path(name), overrides=overrides)
    f = run.features(run.compile_scenario(scenario, kernel="general").arrays)
    assert all(getattr(f, room) for room in rooms), f
    sets = dict(zip(("people", "hazards", "scene", "ground", "vehicles", "driven", "air",
                     "every"), kernel.SETS, strict=True))  # fmt: skip
    assert kernel.compiled_set(f) == sets[compiled]
    assert all(has or not needs for has, needs in zip(sets[compiled], f, strict=True))


@pytest.mark.parametrize(("name", "rooms"), [
    *((name, kernel.PEOPLE) for name in ("squad-4v4", "bar-room-brawl", "ambush", "spd-duel",
                                         "grenade-into-a-room", "burst-fire-duel")),
    *((name, kernel.SCENE) for name in ("brick-through-a-wall", "rooftop-fall",
                                        "brawler-across-the-mud")),
    ("pushing-brawl", kernel.HAZARDS),
    ("burning-building", kernel.GROUND),
    *((name, kernel.VEHICLES) for name in ("tank-example", "giant-robot-duel", "mecha-vs-infantry",
                                           "helicopter-vs-armoured-car", "rocket-vs-tank")),
    *((name, kernel.DRIVEN) for name in ("car-chase-with-ramming", "cliff-road-chase")),
    ("jet-vs-missile-cluster", kernel.AIR),
])  # fmt: skip
def test_a_smaller_set_gives_the_numbers_of_the_one_with_every_room(name, rooms, monkeypatch):
    """Each smaller compiled set against the set with every room, trial by trial, on the
    shipped fights it takes: the people's, the hazards', the scene's (on foot in a scene
    without hazards, several weapons or an area weapon), the ground's (every room but a
    vehicle's), the vehicles' (vehicles at rest on open ground, several weapons and the
    gate), the driven vehicles' (every room but missiles, dogfights, hazards and jumps) and the
    air's (missiles and dogfights without motion, a scene, hazards or an area weapon). The
    control:
    another seed gives other numbers, so equal arrays are no accident."""
    plan = run.compile_scenario(load_scenario(_path(name)), kernel="general")
    assert kernel.compiled_set(run.features(plan.arrays)) == rooms
    outs = []
    for run_rooms, seed in ((rooms, 3), (kernel.EVERY_ROOM, 3), (rooms, 4)):
        compiled = kernel._compiled(run_rooms)
        monkeypatch.setattr(kernel, "kernel_for", lambda _f, compiled=compiled: compiled)
        out = run.run_chunk(plan, chunk_key(seed, 0), 0, 200)
        outs.append([out.winner, out.end_slot, out.out_slot, out.dealt, out.taken, out.attacks])
    assert all(np.array_equal(x, y) for x, y in zip(outs[0], outs[1], strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(outs[0], outs[2], strict=True))
