"""The colour and FUDGE kernels add up a streamed run's tally as they did when it was recorded.

``test_fixed_numbers.py`` holds every shipped scenario's per-trial outcomes; a run that does not
keep them takes another path through the duel and squad kernels, which add each trial straight
into the tally's histograms and sums. Every shipped colour and FUDGE scenario streams 3,000
trials at a fixed seed, and a digest of its tally must match the one recorded: a change to how
a kernel is built or compiled (its split into functions, what is compiled in, the order of its
loops) must not change a number. After a change that is meant to change numbers, record them
again with ``python tests/systems/test_recorded_numbers.py`` and say why in the CHANGELOG.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "fuzion_sim" / "examples"
TRIALS, SEED = 3000, 11

#: Digests of the streamed tally by scenario, recorded with the code of eb79138.
RECORDED = {
    "colour/bench-squad-10v10.yaml": "0dc4913cb7e3a93809a0317c",
    "colour/bob-ra.yaml": "1b406c04e253f61affa3e657",
    "colour/bobs-family.yaml": "fc0f575daf2970524cd81000",
    "colour/called-shot-head.yaml": "79d461665e0136a7c5427af1",
    "colour/grapple.yaml": "fc37a0426c053e1c0134988a",
    "colour/ken-against-bob.yaml": "bc5b9cf7389fefd21f8db852",
    "colour/kens-crowbar-vs-thug.yaml": "ef7a5cdd39c822e941ad2fdb",
    "colour/quinns-sword.yaml": "cebed11595fc2ed0486bd23f",
    "colour/zombie-family-reunion.yaml": "6363f5c93fcda01d1cae2454",
    "fudge/bazooka.yaml": "4eb6fca102f7fe6354531aa2",
    "fudge/breach.yaml": "125fd185d0b822ca8eb6da46",
    "fudge/dynamite.yaml": "dfcd28914889a98df77b4042",
    "fudge/grenade.yaml": "90ce50a9d6bc1517f2125d79",
    "fudge/two-against-one.yaml": "76d998bc6887698b63d3dd76",
    "fudge/two-fair-shooters.yaml": "95d46a2327e34ee33a56cbce",
    "fudge/vaclav-and-hubert.yaml": "5f7e16ce8a86083ed2535d03",
}


def scenarios() -> list[str]:
    return sorted(str(p.relative_to(EXAMPLES)) for system in ("colour", "fudge")
                  for p in (EXAMPLES / system).glob("*.yaml"))  # fmt: skip


def _update(digest, arrays) -> None:
    for a in arrays:
        a = np.ascontiguousarray(a)
        digest.update(a.dtype.str.encode() + str(a.shape).encode() + a.tobytes())


def numbers(name: str) -> str:
    """The digest of ``name``'s streamed tally."""
    from fuzion_sim import load_scenario, simulate
    from fuzion_sim.engine.outcomes import TALLY_SHARED

    tally = simulate(load_scenario(EXAMPLES / name), trials=TRIALS, seed=SEED, threads=1,
                     keep_trials=False, progress=False).tally  # fmt: skip
    digest = hashlib.sha256()
    _update(digest, [getattr(tally, f) for f in TALLY_SHARED])
    for group in (tally.counter_sum, tally.counter_sq, tally.categories):
        _update(digest, [group[k] for k in sorted(group)])
    return digest.hexdigest()[:24]


def test_a_changed_number_changes_the_digest(monkeypatch):
    """The control: another seed moves the digest."""
    name = "colour/ken-against-bob.yaml"
    monkeypatch.setattr(sys.modules[__name__], "SEED", SEED + 1)
    assert numbers(name) != RECORDED[name]


@pytest.mark.parametrize("name", scenarios())
def test_numbers_as_recorded(name):
    assert numbers(name) == RECORDED[name]


if __name__ == "__main__":
    print(json.dumps({name: numbers(name) for name in scenarios()}, indent=4))
    sys.exit(0)
