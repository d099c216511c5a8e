"""What a package installed outside this checkout needs: a licence file, one version source,
``py.typed``, ``python -m fuzion_sim``, the scenario schemas as package data with each rule
switch's default, the example scenarios and the starters; and a README short enough to read.

The wheel test builds the wheel, installs it in a fresh virtual environment in a temporary
folder and runs ``examples``, ``new``, ``run`` and ``report`` there, with no download: the
build uses this interpreter's setuptools, and the environment sees this interpreter's
installed dependencies through a ``.pth`` file (never this checkout's sources)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest

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
    assert {"examples/*.yaml", "examples/*/*.yaml", "starters/*.yaml"} <= set(data)
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


def test_code_comments_and_docs_carry_no_issue_numbers():
    """What the code does and why, not which issue asked for it: no ``issue NN`` in the
    package (its sources, schemas, examples), the tests, the benchmarks or the docs."""
    number = re.compile(r"\b[Ii]ssues? ?#?\d+")
    roots = ["fuzion_sim", "tests", "benchmarks", "docs", "notebooks"]
    found = []
    for root in roots:
        for path in sorted((ROOT / root).rglob("*")):
            if ".ab" in path.parts:  # older trees general_ab.py exported (git ignores them)
                continue
            if path.suffix in {".py", ".md", ".yaml", ".json", ".ipynb"} and path.is_file():
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if number.search(line):
                        found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


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


def _setuptools_major() -> int:
    try:
        return int(metadata.version("setuptools").split(".")[0])
    except metadata.PackageNotFoundError:
        return 0


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
    return done


def _schema_target(path: Path) -> Path:
    """The file the ``$schema=`` of a scenario's first line names, from its own folder."""
    first = path.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema="), path
    return path.parent / first.partition("$schema=")[2].strip()


@pytest.mark.skipif(_setuptools_major() < 77, reason="building the wheel offline needs "
                    "setuptools>=77 installed (pip install -e '.[dev]')")  # fmt: skip
def test_the_wheel_works_in_a_fresh_environment_outside_the_checkout(tmp_path):
    assert ROOT not in tmp_path.parents
    src = tmp_path / "src"  # only what the build reads: no build/ or egg-info in the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "fuzion_sim", src / "fuzion_sim",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "--no-index", "--wheel-dir", tmp_path / "dist", src])  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("fuzion_sim-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
          "--no-index", wheel])  # fmt: skip
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())  # fmt: skip
    # the dependencies: this interpreter's site folder, after the environment's own
    (site / "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = site / "fuzion_sim"
    here = Path(fuzion_sim.__file__).parent  # its compiled kernels, valid for the same sources
    for cached in [*here.rglob("*.nbi"), *here.rglob("*.nbc")]:
        target = installed / cached.relative_to(here)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(cached, target)

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    work = tmp_path / "work"
    work.mkdir()
    where = _run([python, "-c", "import fuzion_sim; print(fuzion_sim.__file__)"], cwd=work,
                 env=env).stdout.strip()  # fmt: skip
    assert Path(where).parent == installed, where
    command = [venv / "bin" / "fuzion-sim"]

    _run([*command, "examples", "ex"], cwd=work, env=env)
    copied = sorted(p.relative_to(work / "ex" / "scenarios")
                    for p in (work / "ex" / "scenarios").rglob("*.yaml"))  # fmt: skip
    scenarios = ROOT / "scenarios"
    shipped = sorted(p.relative_to(scenarios) for p in scenarios.rglob("*.yaml"))
    assert copied == shipped
    for path in (work / "ex" / "scenarios").rglob("*.yaml"):
        assert _schema_target(path).is_file(), path

    mine = work / "ex" / "scenarios" / "mine.yaml"
    _run([*command, "new", "fudge", mine], cwd=work, env=env)
    assert _schema_target(mine).resolve() == (work / "ex" / "schemas" / "fudge.schema.json")
    _run([*command, "validate", mine], cwd=work, env=env)
    result = json.loads(_run([*command, "run", mine, "--trials", "2000", "--json"], cwd=work,
                             env=env).stdout)  # fmt: skip
    assert result["trials"] == 2000
    elsewhere = work / "alone.yaml"  # no schemas folder above: the installed schema
    _run([*command, "new", "colour", elsewhere], cwd=work, env=env)
    assert _schema_target(elsewhere) == installed / "schemas" / "colour.schema.json"

    _run([*command, "report", "ex/scenarios/marshal-vs-outlaw.yaml", "--trials", "2000", "-o",
          "rep"], cwd=work, env=env)  # fmt: skip
    assert "Marshal" in (work / "rep" / "index.html").read_text()
