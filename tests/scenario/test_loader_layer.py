"""The scenario's two layers: the checks, the YAML reader, the key-path syntax and the Scenario
model (``fuzion_sim.validation``) know no rule system, so the systems build their members with
them from above; the loader (``fuzion_sim.scenario``) asks the registry for each member's
system from above the systems. No compiled kernel is therefore stamped with the loader."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fuzion_sim import _jit
from fuzion_sim.errors import ScenarioError
from fuzion_sim.validation.checks import Context, check_mapping

LOW = ("checks", "keypath", "model", "yaml_io")

#: Imports the low layer, fails a mapping check with a key another system uses (the path that
#: asked the registry for a hint), then prints every loader or system module loaded.
PROBE = f"""
import sys
from fuzion_sim.validation import {", ".join(LOW)}
from fuzion_sim.errors import ScenarioError
try:
    checks.check_mapping(checks.Context(system="colour"), ["sides", "a", 0], {{"stats": 1}},
                         ("name", "abilities"))
except ScenarioError as exc:
    print(exc)
print(sorted(m for m in sys.modules if m.startswith(("fuzion_sim.systems", "fuzion_sim.scenario"))))
"""


def test_the_checks_load_no_rule_system_and_no_loader():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True, timeout=60).stdout.splitlines()  # fmt: skip
    assert out[0].startswith("sides.a[0].stats: unknown key 'stats'"), out
    assert out[-1] == "[]"


@pytest.mark.parametrize("system, hinted, words", [
    ("colour", False, "unknown key 'stats'"),
    ("colour", True, "unknown key 'stats' (a key of another system than colour); did you mean "
                     "'abilities'?"),
    (None, True, "unknown key 'stats'"),  # a catalogue's context: no system, no hint
])  # fmt: skip
def test_a_context_hints_at_other_systems_only_with_the_loaders_hint(system, hinted, words):
    def hint(system, parts, key, allowed):
        return f" (a key of another system than {system})", "abilities"

    ctx = Context(system=system, key_hint=hint if hinted else None)
    with pytest.raises(ScenarioError) as err:
        check_mapping(ctx, [], {"stats": 1}, ("name", "abilities"))
    assert str(err.value) == f"stats: {words}"


def test_no_kernel_is_stamped_with_the_loader_or_the_registry_lookups():
    kernels = sorted(_jit._PACKAGE.glob("systems/*/kernel*.py"))
    assert len(kernels) >= 10
    for path in kernels:
        stamped = {str(p.relative_to(_jit._PACKAGE)) for p in _jit._closure(path)}
        assert not any(p.startswith("scenario/") for p in stamped), (path.name, sorted(stamped))
