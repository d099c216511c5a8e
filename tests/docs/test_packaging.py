"""What a package installed outside this checkout needs: a licence file, one version source,
``py.typed``, ``python -m fuzion_sim``, the scenario schemas as package data with each rule
switch's default; and a README short enough to read."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import fuzion_sim
from fuzion_sim.scenario.schema import scenario_schema
from fuzion_sim.systems import BUILTIN, get_system

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
HISTORY = re.compile(r"\bissues? \d+", re.I)


def test_one_version_source():
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    dynamic = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "fuzion_sim._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fuzion_sim.__version__)


def test_licence_metadata_and_typing_marker():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert {"Homepage", "Documentation", "Source", "Changelog"} <= set(project["urls"])
    assert project["keywords"] and "Typing :: Typed" in project["classifiers"]
    assert (ROOT / "fuzion_sim" / "py.typed").is_file()
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["fuzion_sim"]
    assert "py.typed" in data and "schemas/*.json" in data
    assert "fuzion_sim[docs]" in project["optional-dependencies"]["dev"]


def test_python_dash_m_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "fuzion_sim", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert fuzion_sim.__version__ in done.stdout


def test_schemas_ship_with_the_package_and_carry_defaults():
    shipped = resources.files("fuzion_sim").joinpath("schemas")
    for name in BUILTIN:
        system = get_system(name)
        schema = json.loads(shipped.joinpath(f"{name}.schema.json").read_text())
        assert schema == scenario_schema(system), f"{name}: fuzion-sim schema --system {name}"
        rules = schema["properties"]["rules"]["properties"]
        for key, spec in system.switches.items():
            if not spec.nullable:
                assert rules[key]["default"] == spec.default, (name, key)
        assert schema["properties"]["trials"]["default"] == 100_000


def test_readme_is_short_and_headings_carry_no_history():
    readme = (ROOT / "README.md").read_text().splitlines()
    assert len(readme) <= 200, len(readme)
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        fence = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            fence = fence != line.startswith("```")
            if not fence and line.startswith("#"):
                assert not HISTORY.search(line), f"{page.relative_to(ROOT)}:{number}: {line}"
