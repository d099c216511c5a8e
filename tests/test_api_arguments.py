"""Property tests of the Python API's argument checks, derandomized: any value for
``trials``, ``seed``, ``threads`` and the exact calculator's numbers is either accepted (an
integer in range) or refused with an ``ArgumentError`` naming the argument; never a deep
traceback, a hang or a silent acceptance of NaN or a float."""

from __future__ import annotations

import math

import pytest
from conftest import SCENARIOS
from hypothesis import given, settings
from hypothesis import strategies as st

import fuzion_sim as fz
from fuzion_sim.api import MAX_THREADS, check_run_args
from fuzion_sim.errors import ArgumentError
from fuzion_sim.limits import MAX_SEED, MAX_TRIALS

FLAGSHIP = SCENARIOS / "marshal-vs-outlaw.yaml"
ANY = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True),
    st.booleans(), st.none(), st.text(max_size=5), st.lists(st.integers(), max_size=2),
    st.sampled_from([MAX_TRIALS, MAX_TRIALS + 1, MAX_SEED, MAX_SEED + 1, 0, -1, 1]),
)  # fmt: skip
BOUNDS = {"trials": (1, MAX_TRIALS), "seed": (0, MAX_SEED), "threads": (1, MAX_THREADS)}
PROPERTY = settings(derandomize=True, max_examples=150, deadline=None, database=None)


def _valid(value, low, high) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high)


@pytest.mark.parametrize("name", sorted(BOUNDS))
@PROPERTY
@given(value=ANY)
def test_run_arguments_accepted_iff_integers_in_range(name, value):
    low, high = BOUNDS[name]
    if value is None or _valid(value, low, high):
        check_run_args(**{name: value})
        return
    with pytest.raises(ArgumentError, match=rf"^{name}: expected an integer from {low} to"):
        check_run_args(**{name: value})
    with pytest.raises(ArgumentError, match=rf"^{name}: "):  # simulate checks before any work
        fz.simulate(FLAGSHIP, **{name: value})


@settings(derandomize=True, max_examples=60, deadline=None, database=None)
@given(av=ANY, dc=ANY)
def test_exact_attack_accepts_or_names_the_argument(av, dc):
    good_av, good_dc = _valid(av, -1000, 1000), _valid(dc, 0, 100)
    if good_av and good_dc:
        res = fz.exact.attack(av=av, dv_base=10, dc=dc)
        assert 0 <= res.p_hit <= 1 and math.isfinite(res.mean)
        return
    with pytest.raises(ValueError, match=r"^(av|dc): "):
        fz.exact.attack(av=av, dv_base=10, dc=dc)


@settings(derandomize=True, max_examples=40, deadline=None, database=None)
@given(value=st.one_of(st.floats(), st.integers(min_value=-(2**64), max_value=2**64)))
def test_overrides_never_reach_the_kernels_out_of_range(value):
    try:
        sc = fz.load_scenario(FLAGSHIP, overrides=[("sides.blue[0].armor.pd", value)])
    except fz.ScenarioError as err:
        assert "sides.blue[0].armor.pd" in str(err)
        return
    assert isinstance(value, int) and 0 <= value <= 1000
    assert sc.sides["blue"][0].armor.pd == value
