"""What the conformance battery runs for each registered rule system.

Each system gives its shipped scenarios (a glob under ``scenarios/``) and a scenario of one
attack repeated: an attacker that attacks every action and a target that never falls, weakens
or strikes back, so the kernel's hit rate and damage per attack must match the system's exact
``attack``. A new system adds its entry here (and its one-attack scenario under ``data/``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "data"

#: system -> {"scenarios": glob(s) relative to the repository, "one_attack": (path, attacker,
#: target), "misspelt": (a member key misspelt, the key it should be)}
CASES = {
    "fuzion": {
        "scenarios": ("scenarios/*.yaml", "scenarios/vehicles/*.yaml"),
        "one_attack": (DATA / "fuzion-one-attack.yaml", "Shooter", "Target"),
        "misspelt": ("weapn", "weapon"),
    },
    "fudge": {
        "scenarios": "scenarios/fudge/*.yaml",
        "one_attack": (DATA / "fudge-one-attack.yaml", "Shooter", "Target"),
        "misspelt": ("weapn", "weapon"),
    },
    "colour": {
        "scenarios": "scenarios/colour/*.yaml",
        "one_attack": (DATA / "colour-one-attack.yaml", "Shooter", "Target"),
        "misspelt": ("weapn", "weapon"),
    },
}


def scenarios_of(system: str) -> list[Path]:
    """The shipped scenario files of ``system``."""
    globs = CASES[system]["scenarios"]
    globs = (globs,) if isinstance(globs, str) else globs
    return sorted(path for pattern in globs for path in ROOT.glob(pattern))
