"""``fuzion-sim examples`` copies the shipped scenarios (and the schemas their first lines
name) out of the package; ``fuzion-sim new`` writes a commented starter that validates and
runs. The schema line of every scenario finds its schema in the checkout, in the package and
in a copied-out folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from builders import cli_error
from click.testing import CliRunner

from fuzion_sim.cli import cli

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


def invoke(*args, cwd=None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(cli, [str(a) for a in args])
    with runner.isolated_filesystem(temp_dir=cwd):
        return runner.invoke(cli, [str(a) for a in args])


def _schema_target(path: Path) -> Path:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema="), path
    return path.parent / first.partition("$schema=")[2].strip()


def test_scenarios_are_package_data_linked_from_the_checkout():
    assert SCENARIOS.is_symlink() and SCENARIOS.resolve() == ROOT / "fuzion_sim" / "examples"
    files = sorted(SCENARIOS.rglob("*.yaml"))
    assert len(files) > 40
    for path in files:  # through the link and from the package's own folder
        assert _schema_target(path).is_file(), path
        assert _schema_target(path.resolve()).is_file(), path


def test_examples_copies_the_scenarios_and_their_schemas(tmp_path):
    res = invoke("examples", tmp_path / "ex")
    assert res.exit_code == 0, res.output
    out = tmp_path / "ex" / "scenarios"
    copied = sorted(p.relative_to(out) for p in out.rglob("*.yaml"))
    assert copied == sorted(p.relative_to(SCENARIOS) for p in SCENARIOS.rglob("*.yaml"))
    for rel in copied:
        assert (out / rel).read_bytes() == (SCENARIOS / rel).read_bytes()
        target = _schema_target(out / rel)
        assert target.is_file() and target.resolve().parent == tmp_path / "ex" / "schemas"
    assert "marshal-vs-outlaw.yaml" in res.stdout
    again = invoke("examples", tmp_path / "ex")  # the same files: nothing to do
    assert again.exit_code == 0 and "files written: 0" in again.stdout


def test_examples_keeps_an_edited_file_unless_forced(tmp_path):
    assert invoke("examples", tmp_path).exit_code == 0
    edited = tmp_path / "scenarios" / "ambush.yaml"
    edited.write_text(edited.read_text() + "# mine\n")
    line = cli_error(invoke("examples", tmp_path))
    assert "ambush.yaml" in line and "--force" in line
    assert edited.read_text().endswith("# mine\n")
    assert invoke("examples", tmp_path, "--force").exit_code == 0
    assert edited.read_bytes() == (SCENARIOS / "ambush.yaml").read_bytes()
    (tmp_path / "file").write_text("")
    assert "not a folder" in cli_error(invoke("examples", tmp_path / "file"))


@pytest.mark.parametrize("system", ["fuzion", "colour", "fudge"])
def test_new_writes_a_starter_that_validates_and_runs(tmp_path, system):
    path = tmp_path / "scenarios" / f"{system}.yaml"
    path.parent.mkdir()
    (tmp_path / "schemas").symlink_to(ROOT / "schemas", target_is_directory=True)
    res = invoke("new", system, path)
    assert res.exit_code == 0, res.output
    assert _schema_target(path) == path.parent / ".." / "schemas" / f"{system}.schema.json"
    text = path.read_text()
    assert text.count("\n#") >= 4 and yaml.safe_load(text)["system"] == system
    assert invoke("validate", path).exit_code == 0
    res = invoke("run", path, "--trials", "1000", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["trials"] == 1000


def test_new_without_a_schemas_folder_names_the_installed_schema(tmp_path):
    res = invoke("new", "fudge", tmp_path / "f.yaml")
    assert res.exit_code == 0, res.output
    assert _schema_target(tmp_path / "f.yaml") == ROOT / "fuzion_sim" / "schemas" / \
        "fudge.schema.json"  # fmt: skip
    printed = invoke("new", "colour")
    assert printed.exit_code == 0 and "system: colour" in printed.stdout


def test_new_refuses_an_unknown_system_and_an_existing_file(tmp_path):
    assert "did you mean 'fudge'" in cli_error(invoke("new", "fudg"))
    (tmp_path / "taken.yaml").write_text("mine\n")
    line = cli_error(invoke("new", "fuzion", tmp_path / "taken.yaml"))
    assert "exists" in line and "--force" in line
    assert (tmp_path / "taken.yaml").read_text() == "mine\n"
    assert invoke("new", "fuzion", tmp_path / "taken.yaml", "--force").exit_code == 0
