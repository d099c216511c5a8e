"""Builders the tests share: Fuzion scenarios from plain dicts, scenario files written to a
temporary folder, and the check of a :class:`~fuzion_sim.errors.ScenarioError`'s message.

Imported as ``from builders import ...``: pytest puts ``tests/`` on the path for its
``conftest.py``, as it does for ``from conftest import SCENARIOS``.

A test module states what its fights have in common once, with :func:`functools.partial`
(the side names, the members a side gets when a test names none, a rule every fight of the
module sets), and every test builds its fight from that::

    watched = partial(fight, defaults=(None, WATCHER), criticals="none")
    sc = watched([driven("Car", (0, 0), tactics)], obstacles=[WALL])
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from fuzion_sim.errors import ScenarioError
from fuzion_sim.scenario import Scenario, load_scenario, scenario_from_dict

#: The scenario keys beside ``sides`` that a fight may be given, in the order they are written.
SCENE_KEYS = ("obstacles", "drops", "terrain", "hazards")


def scenario(sides: dict, *, max_rounds: int = 1, obstacles=None, drops=None, terrain=None,
             hazards=None, **rules) -> Scenario:  # fmt: skip
    """A Fuzion scenario named ``t`` of ``sides`` (side name -> list of members), ``rules``
    as its ``rules:`` block and, where given (not None), its obstacles, drops, terrain zones
    and hazard zones.

    Only the keys given are written, so a fight without a scene is the scenario a file without
    those keys would be.
    """
    data = {"name": "t", "max_rounds": max_rounds, "rules": rules, "sides": sides}
    scene = dict(zip(SCENE_KEYS, (obstacles, drops, terrain, hazards), strict=True))
    data.update({key: list(value) for key, value in scene.items() if value is not None})
    return scenario_from_dict(data)


def fight(first=None, second=None, *, sides=("blue", "red"), defaults=(None, None),
          **keys) -> Scenario:  # fmt: skip
    """A fight of two sides named ``sides``: ``first`` and ``second`` are each one member (a
    dict) or a list of members; a side given as None gets (a copy of) its entry of
    ``defaults``. ``keys``: :func:`scenario`'s (max_rounds, obstacles, drops, terrain,
    hazards) and the rules."""
    members = {}
    for name, given, default in zip(sides, (first, second), defaults, strict=True):
        side = copy.deepcopy(default) if given is None else given
        if side is None:
            raise TypeError(f"side {name!r} has no members and no default")
        members[name] = list(side) if isinstance(side, list | tuple) else [side]
    return scenario(members, **keys)


def write_yaml(folder: Path, content, name: str = "bad.yaml") -> Path:
    """Write ``content`` (YAML text, or data dumped in its own key order) to ``folder/name``."""
    text = content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False)
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path) -> ScenarioError:
    """The :class:`ScenarioError` that loading the scenario file ``path`` raises."""
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return info.value


def file_error(folder: Path, content, name: str = "bad.yaml") -> tuple[Path, ScenarioError]:
    """(the file :func:`write_yaml` wrote, the :class:`ScenarioError` loading it raises)."""
    path = write_yaml(folder, content, name)
    return path, load_error(path)


def check_error(err: ScenarioError, path, line, key_path, problem, suggestion=None) -> None:
    """``err`` names the file ``path``, the 1-based ``line`` (None: not checked), the key path
    (None: not checked), says ``problem`` and suggests ``suggestion`` (None: suggests
    nothing), each where a reader sees it: the message reads
    ``{path}:{line}: {key_path}: {problem} ... did you mean '{suggestion}'?``."""
    message = str(err)
    assert err.file == str(path), message
    assert str(path) in message, message
    if line is not None:
        assert err.line == line, message
        assert f"{path}:{line}:" in message, message
    if key_path is not None:
        assert err.path == key_path, message
        assert f"{key_path}: " in message, message
    assert problem in message, message
    assert err.suggestion == suggestion, message
    if suggestion is not None:
        assert f"did you mean '{suggestion}'?" in message, message


def cli_error(res) -> str:
    """The one line a command given bad input printed (a ``CliRunner`` result): exit status 2,
    one line on stderr that starts ``fuzion-sim: error:``, and no traceback."""
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fuzion-sim: error: "), res.stderr
    assert "Traceback" not in res.output, res.output
    return lines[0]
