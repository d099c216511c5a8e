"""The colour and FUDGE kernels give the numbers they gave when these were recorded.

Every shipped colour and FUDGE scenario runs 3,000 trials at a fixed seed, keeping each trial's
outcomes and streaming the tally (two paths through the duel and squad kernels), and a digest of
the numbers must match the one recorded: a change to how a kernel is built or compiled (its
split into functions, what is compiled in, the order of its loops) must not change a number.
After a change that is meant to change numbers, record them again with ``python
tests/systems/test_recorded_numbers.py`` and say why in the commit.
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

#: Digests of (kept outcomes, streamed tally) by scenario, recorded with the code of eb79138.
RECORDED = {
    "colour/bench-squad-10v10.yaml": "a401b94a9d8f86e9d13c4772",
    "colour/bob-ra.yaml": "19e146cce202b64422e41ce3",
    "colour/bobs-family.yaml": "06ee486f3697b1cb1ae659f3",
    "colour/called-shot-head.yaml": "650bdf28cb3d253039504f38",
    "colour/grapple.yaml": "d0689da8cbff8e15844f200d",
    "colour/ken-against-bob.yaml": "922fc4dca0a8cc59107da08f",
    "colour/kens-crowbar-vs-thug.yaml": "c2c24139ad544df6afa31c90",
    "colour/quinns-sword.yaml": "567a886b79fec6f6d338c396",
    "colour/zombie-family-reunion.yaml": "bb5684e5ab4613ff5a11bc44",
    "fudge/bazooka.yaml": "dfb2b20c9c0363fd0f454811",
    "fudge/breach.yaml": "411907007b2df344da7c8bf4",
    "fudge/dynamite.yaml": "fe401feb0679c34e62e709b6",
    "fudge/grenade.yaml": "a66e7e2df890e1ba601f887d",
    "fudge/two-against-one.yaml": "3526cd2dc088e02ce105cea7",
    "fudge/two-fair-shooters.yaml": "ac537ca1f1dad496a85eaee5",
    "fudge/vaclav-and-hubert.yaml": "258c68255bd91829c6f06d55",
}


def scenarios() -> list[str]:
    return sorted(str(p.relative_to(EXAMPLES)) for system in ("colour", "fudge")
                  for p in (EXAMPLES / system).glob("*.yaml"))  # fmt: skip


def _update(digest, arrays) -> None:
    for a in arrays:
        a = np.ascontiguousarray(a)
        digest.update(a.dtype.str.encode() + str(a.shape).encode() + a.tobytes())


def numbers(name: str) -> str:
    """The digest of ``name``'s kept per-trial outcomes and streamed tally."""
    from fuzion_sim import load_scenario, simulate
    from fuzion_sim.engine.outcomes import SHARED, TALLY_SHARED

    sc = load_scenario(EXAMPLES / name)
    digest = hashlib.sha256()
    kept = simulate(sc, trials=TRIALS, seed=SEED, threads=1, keep_trials=True, progress=False)
    out = kept.outcomes
    _update(digest, [getattr(out, f) for f in SHARED])
    _update(digest, [out.counters[k] for k in sorted(out.counters)])
    _update(digest, [out.categories[k] for k in sorted(out.categories)])
    streamed = simulate(sc, trials=TRIALS, seed=SEED, threads=1, keep_trials=False,
                        progress=False)  # fmt: skip
    tally = streamed.tally
    _update(digest, [getattr(tally, f) for f in TALLY_SHARED])
    for group in (tally.counter_sum, tally.counter_sq, tally.categories):
        _update(digest, [group[k] for k in sorted(group)])
    return digest.hexdigest()[:24]


@pytest.mark.parametrize("name", scenarios())
def test_numbers_as_recorded(name):
    assert numbers(name) == RECORDED[name]


if __name__ == "__main__":
    print(json.dumps({name: numbers(name) for name in scenarios()}, indent=4))
    sys.exit(0)
