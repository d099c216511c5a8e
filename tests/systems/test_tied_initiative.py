"""Tied initiative in every system's exact whole-fight answer, against the simulation.

Each system draws the order of tied combatants once a fight (FUDGE: a key per shooter, UA1;
colour: 1d(Agility value) each, ties re-rolled, CA13-CA14; Fuzion: a die on equal REF), and
every round of that fight keeps it. So the exact answer of a tie is the even mix of the two
orders' fights, mixed once at the start: each test checks that identity against the exact
answers of the two fixed orders, the exact answer against a seeded simulation within 4
standard errors, and, as the control that must fail, that the simulation is far from each
fixed order (and, in FUDGE, from a chain that draws the order afresh every round, which is
what ``order: rolled`` with equal initiative is).

A new draw each round changes the answer only where an attack depends on its attacker's
state (FUDGE's wound penalties, Fuzion's impairment and stun): in the colour system a
fighter's Health never changes its attacks, so its fights come out the same either way.
"""

from __future__ import annotations

import copy

import pytest
from conftest import SCENARIOS

from fuzion_sim import load_scenario, simulate
from fuzion_sim.api import exact_fight
from fuzion_sim.scenario import scenario_from_dict
from fuzion_sim.systems.colour import exact as colour_exact

TRIALS = 200_000


def _p_win(sc, side: str) -> float:
    return exact_fight(sc)["sides"][side]["win_probability"]


def _simulated(sc, side: str, p: float) -> tuple[float, float]:
    """The simulated win probability of ``side`` and its standard error at ``p``."""
    res = simulate(sc, trials=TRIALS, seed=5, progress=False)
    return res.win_probability(side), (p * (1 - p) / res.trials) ** 0.5


# --- FUDGE --------------------------------------------------------------------------------------


def _fudge(a: dict, b: dict, metres: float, rules=None):
    data = {"name": "tie", "system": "fudge", "seed": 1, "rules": dict(rules or {}),
            "sides": {"a": [dict(a, name="A", distance=metres)],
                      "b": [dict(b, name="B", distance=metres)]}}  # fmt: skip
    return scenario_from_dict(copy.deepcopy(data))


FUDGE_TIES = {
    # two Superb shooters at 8 m, BD 3 against BD 6, both at the default initiative 0
    "Superb BD 3 against BD 6": ({"skill": "Superb", "weapon": {"name": "Pop", "bd": 3}},
                                 {"skill": "Superb", "weapon": {"name": "Heavy", "bd": 6}}, 8),
    # a Good shotgun (BD 5) against a Good pistol (BD 3) at 10 m
    "Good shotgun against pistol": ({"skill": "Good", "weapon": {"name": "Shotgun", "bd": 5}},
                                    {"skill": "Good", "weapon": {"name": "Pistol", "bd": 3}}, 10),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(FUDGE_TIES))
def test_fudge_exact_mixes_the_two_orders_once_a_fight(name):
    a, b, metres = FUDGE_TIES[name]
    tie = _p_win(_fudge(a, b, metres), "a")
    a_first = _p_win(_fudge(dict(a, initiative=1), b, metres), "a")
    b_first = _p_win(_fudge(a, dict(b, initiative=1), metres), "a")
    assert tie == pytest.approx((a_first + b_first) / 2, abs=1e-12)
    p, se = _simulated(_fudge(a, b, metres), "a", tie)
    assert abs(p - tie) <= 4 * se
    every_round = _p_win(_fudge(a, b, metres, {"order": "rolled"}), "a")  # a new coin a round
    for wrong in (a_first, b_first, every_round):
        assert abs(p - wrong) > 4 * se


# --- colour -------------------------------------------------------------------------------------


def test_colour_exact_with_tied_agility(monkeypatch):
    """Ken's machine gun against Bob's crowbar with both at Good Agility: initiative is a coin
    once a fight."""
    sc = load_scenario(SCENARIOS / "colour" / "ken-against-bob.yaml",
                       overrides=[("sides.bob[0].abilities.Agility", "Good")])  # fmt: skip
    tie = _p_win(sc, "ken")
    fixed = []
    for order in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):  # Ken first every round, Bob first
        monkeypatch.setattr(colour_exact, "_initiative", lambda mem, opts, o=order: o)
        fixed.append(_p_win(sc, "ken"))
    monkeypatch.undo()
    assert tie == pytest.approx(sum(fixed) / 2, abs=1e-9)
    p, se = _simulated(sc, "ken", tie)
    assert abs(p - tie) <= 4 * se
    for wrong in fixed:
        assert abs(p - wrong) > 4 * se


# --- Fuzion -------------------------------------------------------------------------------------

TIED_REF = [("sides.blue[0].stats.REF", 8), ("sides.blue[0].skills.Rifle", 1)]


def _marshal(extra=()):
    """The marshal and the outlaw (impairment and stun on) at REF 8 each, their attack values
    as shipped (REF + skill); ``extra`` moves one a point of REF up and of skill down."""
    return load_scenario(SCENARIOS / "marshal-vs-outlaw.yaml", overrides=[*TIED_REF, *extra])


def test_fuzion_exact_with_tied_ref():
    tie = _p_win(_marshal(), "red")
    red_first = _p_win(_marshal([("sides.red[0].stats.REF", 9),
                                 ("sides.red[0].skills.Handgun", 3)]), "red")  # fmt: skip
    blue_first = _p_win(_marshal([("sides.blue[0].stats.REF", 9),
                                  ("sides.blue[0].skills.Rifle", 0)]), "red")  # fmt: skip
    assert tie == pytest.approx((red_first + blue_first) / 2, abs=1e-12)
    p, se = _simulated(_marshal(), "red", tie)
    assert abs(p - tie) <= 4 * se
    for wrong in (red_first, blue_first):
        assert abs(p - wrong) > 4 * se
