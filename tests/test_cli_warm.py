"""``fuzion-sim warm``: the kernels of the scenarios given compiled (or loaded) ahead of their
first run; a bad file stops it with the loader's one line before anything compiles."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import SCENARIOS

from fuzion_sim.cli import cli


def test_warm_readies_the_kernels_of_the_scenarios_given():
    res = CliRunner().invoke(cli, ["warm", str(SCENARIOS / "benchmark-duel.yaml"),
                                   str(SCENARIOS / "squad-4v4.yaml")])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert res.output.startswith("kernels of 2 scenarios ready in ")


def test_warm_stops_at_a_bad_file_with_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((SCENARIOS / "benchmark-duel.yaml").read_text().replace("max_rounds: 50",
                                                                           "max_rounds: -3"))
    res = CliRunner().invoke(cli, ["warm", str(bad)])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "bad.yaml" in lines[0] and "max_rounds" in lines[0], res.output
