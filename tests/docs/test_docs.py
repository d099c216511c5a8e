"""The documentation site: it builds with warnings as errors, its tutorials' commands and Python
blocks run (the README's tour too), and its pages lay out in headless Chromium at 1280 and
600 px.

The build is ``mkdocs build --strict`` (what ``make docs`` runs): a broken link, a missing page
or anchor, or a reference the API pages cannot resolve fails it. Every fenced ``sh`` block of a
tutorial (and of the README) is a list of ``fuzion-sim`` commands (set-up steps that are not
are fenced ``bash``), run in this process through the click command
with at most ``TRIALS`` trials; every fenced ``python`` block runs, the blocks of a page in one
namespace, with its trial counts cut the same way. Both run in a scratch folder that sees the
repository's ``scenarios/``, so what they write (reports, sweeps) goes nowhere else.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TUTORIALS = sorted((DOCS / "tutorials").glob("*.md"))
#: The pages whose commands and Python blocks run: the tutorials and the README's tour.
RUNNABLE = [*TUTORIALS, ROOT / "README.md"]
#: Trials for a tutorial's command or Python block (its own count when smaller).
TRIALS = 1_000
#: The commands that take ``--trials``.
TAKES_TRIALS = {"run", "compare", "sweep", "balance", "report"}
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)

pytest.importorskip("mkdocs", reason="the docs extra (pip install -e '.[docs]') builds the site")


def blocks(page: Path, language: str) -> list[str]:
    """The fenced blocks of ``language`` in ``page``, in order."""
    return [body for lang, body in FENCE.findall(page.read_text()) if lang == language]


def commands(page: Path) -> list[str]:
    """The ``fuzion-sim`` commands of a page's ``sh`` blocks (comments and continuations
    joined)."""
    out = []
    for body in blocks(page, "sh"):
        for line in body.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def fewer_trials(args: list[str]) -> list[str]:
    """``args`` with ``--trials`` at most :data:`TRIALS` (added where the command takes it)."""
    args = list(args)
    if "--trials" in args:
        i = args.index("--trials") + 1
        args[i] = str(min(int(args[i].replace("_", "")), TRIALS))
    elif args and args[0] in TAKES_TRIALS:
        args += ["--trials", str(TRIALS)]
    if "--precision" in args:
        args.remove("--trials")
        args.remove(str(TRIALS))
        args[args.index("--precision") + 1] = "0.05"
    return args


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A working folder that sees the repository's scenarios."""
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built with warnings as errors (``make docs``)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1",
           "DISABLE_MKDOCS_2_WARNING": "true"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_site_builds_with_warnings_as_errors(site):
    for page in ("index.html", "tutorials/first-balance-question/index.html",
                 "reference/commands/index.html", "reference/switches/fuzion/index.html",
                 "reference/scenario-keys/colour/index.html", "reference/api/index.html",
                 "explanation/colour-fight/index.html", "changelog/index.html"):  # fmt: skip
        assert (site / page).is_file(), page


def test_reference_is_generated_from_the_code(site):
    from fuzion_sim.systems import BUILTIN, get_system

    commands_page = (site / "reference/commands/index.html").read_text()
    assert "Sentinel" not in commands_page  # click 8.3 unset defaults, shown by the table style
    for name in ("run", "compare", "sweep", "balance", "report", "exact", "schema", "examples",
                 "new"):
        assert f"fuzion-sim {name}" in commands_page, name
    for name in BUILTIN:
        switches = (site / f"reference/switches/{name}/index.html").read_text()
        for key in get_system(name).switches:
            assert f"<code>{key}</code>" in switches, (name, key)
    api = (site / "reference/api/index.html").read_text()
    assert "win_probability" in api and "simulate" in api
    fuzion = (site / "explanation/fuzion-fight/index.html").read_text()
    assert "Medium" in fuzion and "-4" in fuzion  # the range bands, from rules.py
    assert "<!-- generated" not in fuzion


def test_a_broken_link_fails_the_build(tmp_path):
    """The control: the strict build does catch a link to a page that is not there."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [nowhere](missing.md).\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nstrict: true\n")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode != 0
    assert "missing.md" in done.stderr


@pytest.mark.parametrize("page", RUNNABLE, ids=[p.stem for p in RUNNABLE])
def test_tutorial_commands_run(page, scratch):
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    runner = CliRunner()
    for line in commands(page):
        args = shlex.split(line)
        assert args[0] == "fuzion-sim", f"{page.name}: not a fuzion-sim command: {line}"
        if args[1] == "explore":  # it serves until stopped: its scenario must load
            args = ["fuzion-sim", "validate", *args[2:]]  # (tests/explore drives the page)
        done = runner.invoke(cli, fewer_trials(args[1:]), catch_exceptions=False)
        assert done.exit_code == 0, f"{page.name}: {line}\n{done.output[-2000:]}"


@pytest.mark.parametrize("page", RUNNABLE, ids=[p.stem for p in RUNNABLE])
def test_tutorial_python_runs(page, scratch):
    namespace: dict = {"__name__": "__tutorial__"}
    for body in blocks(page, "python"):
        code = re.sub(r"trials=[\d_]+", f"trials={TRIALS}", body)
        exec(compile(code, f"{page.name}", "exec"), namespace)


@pytest.mark.parametrize("page", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_scenarios_load(page, scratch):
    """A tutorial's YAML block that is a whole scenario (it has ``sides:``) loads."""
    from fuzion_sim import load_scenario

    for i, body in enumerate(blocks(page, "yaml")):
        if re.search(r"^sides:", body, re.M):
            path = scratch / f"{page.stem}-{i}.yaml"
            path.write_text(body)
            assert load_scenario(str(path)).sides, path


def test_every_tutorial_has_something_to_run():
    assert len(TUTORIALS) >= 6
    for page in TUTORIALS:
        if page.stem != "index":
            assert commands(page) or blocks(page, "python"), page.name


def _check_render():
    spec = importlib.util.spec_from_file_location("check_render",
                                                  ROOT / "reports" / "check_render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_site_lays_out_in_chromium(site):
    """The home page, a tutorial and a reference page at 1280 and 600 px: laid out at that
    width, nothing scrolls the page sideways (wide tables scroll inside their own box), every
    image loads. Screenshots of each go to ``FUZION_DOCS_SHOTS`` when it is set."""
    module = _check_render()
    browser = module.find_browser()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: make test installs it (apt-get install chromium)")
        pytest.skip("chromium not installed (make test installs it with apt-get)")
    pages = [site / "index.html", site / "tutorials/first-balance-question/index.html",
             site / "reference/switches/fuzion/index.html"]  # fmt: skip
    shots = os.environ.get("FUZION_DOCS_SHOTS")
    wanted = [(page, width) for page in pages for width in module.WIDTHS]
    for (page, width), result in zip(wanted, module.probe_many(wanted, browser), strict=True):
        found = [p for p in module.problems(result, width) if not p.startswith("table ")]
        assert found == [], (page, width, found)
        if shots:
            name = page.parent.name if page.parent != site else "home"
            module.screenshot(page, width, Path(shots) / f"{name}-{width}.png", browser)
