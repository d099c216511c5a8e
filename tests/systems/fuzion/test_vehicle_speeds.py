"""The seed's speed conversions for a vehicle's MOVE (../shared/rulings/vehicles/ M-08, M-09,
VA-50; examples.md E-01 to E-03), as ``Vehicle.speeds`` gives them and ``validate`` prints
them. E-02 records the seed's 2,244 kph as a slip for 2 x 1,125 (the rule wins)."""

from __future__ import annotations

from click.testing import CliRunner

from fuzion_sim.cli import cli
from fuzion_sim.systems.fuzion.model import Vehicle


def test_e01_ground_speed_from_move_18():
    sp = Vehicle(kind="ground", move=18).speeds()
    assert (sp["kph"], sp["mph"]) == (54, 36)  # "I run at 54 kph" / "at 36 mph"


def test_e02_afterburner_kph_at_move_250():
    sp = Vehicle(kind="aircraft", move=250).speeds()
    assert sp["mach"] == 2  # floor(250 / 100): the example fixes the floor reading (VA-50)
    assert sp["afterburner_kph"] == 2250  # the seed says "roughly 2,244": 2 x 1,122, a slip
    assert sp["afterburner_kph"] != 2244


def test_e03_afterburner_mph_at_move_200():
    sp = Vehicle(kind="aircraft", move=200).speeds()
    assert (sp["mach"], sp["afterburner_mph"], sp["mph"]) == (2, 1500, 400)
    assert sp["afterburner_kph"] / 1.5 == sp["afterburner_mph"]  # L310: km / 1.5 = miles


def test_validate_prints_a_vehicles_speeds():
    out = CliRunner().invoke(cli, ["validate", "scenarios/vehicles/jet-vs-missile-cluster.yaml"])
    assert out.exit_code == 0
    assert "MOVE 250 (750 kph, 500 mph; afterburner Mach 2 (2,250 kph))" in out.output
    assert "(and Cannon, taken up by name)" in out.output
