"""Fuzion's questions beyond the fight (:class:`~fuzion_sim.systems.base.Question`): the exact
damage of a fall, a collision or a thrown object (``impact``), of a phase in a hazard
(``hazard``), the odds of a vehicle's manoeuvre (``manoeuvre``) and the dogfight roll
(``dogfight``). Each is a command of ``fuzion-sim`` and a question of ``fuzion_sim.ask``.

This module loads without numpy or the kernels (``fuzion-sim --help`` lists the questions);
each answer imports its oracle when asked.
"""

from __future__ import annotations

import click

from ..base import Question

__all__ = ["QUESTIONS"]


def _impact_options() -> list:
    return [
        click.Option(["--target"], required=True, help="The member who falls or is knocked."),
        click.Option(["--fall"], type=float, metavar="METRES", help="A fall of this many metres."),
        click.Option(["--knockback"], type=float, metavar="UNITS",
                     help="Knockback of this many units into an obstacle (VA-41)."),
        click.Option(["--speed"], type=float, metavar="M_S",
                     help="A collision at this closing speed."),
        click.Option(["--thrown"], metavar="THROWER",
                     help="The object this member throws (weapon thrown:), hitting the target."),
        click.Option(["--aspect"], type=click.Choice(["front", "side", "rear"]),
                     help="A vehicle's collision under impact_locations: true (VA-40): where on "
                          "its hit table it lands, rolled from this aspect."),
    ]  # fmt: skip


def _impact(scenario, target, fall=None, knockback=None, speed=None, thrown=None, aspect=None):
    """The exact damage of one fall (``fall`` metres), knockback into an obstacle
    (``knockback`` units) or collision (``speed`` m/s) of member ``target``, or of the object
    member ``thrown`` throws at it (M-73, VA-49): the Falling & Collisions table's row, column
    and DC, and ``damage`` (``{"mean", "pmf"}``) through its defences; under
    ``impact_locations: true`` (VA-40) a vehicle's collision from ``aspect`` gives ``located``
    (each location's probability and the damage there)."""
    from .features.scene.exact import impact_answer

    how = {"fall": fall, "knockback": knockback, "speed": speed}
    if thrown is not None:
        how["thrown"] = thrown
    if aspect is not None:
        how["aspect"] = aspect
    return {"scenario": scenario.name, "target": target,
            **impact_answer(scenario, target, **how)}  # fmt: skip


def _render_impact(answer, arguments):
    what = {"fall": "falls", "knockback": "is knocked into an obstacle", "speed": "collides",
            "thrown": f"is hit by {arguments.get('thrown')}'s thrown {answer.get('weapon')} "
                      f"({answer.get('m_s', 0):.3g} m/s)"}[answer["what"]]  # fmt: skip
    answer = dict(answer)
    located = answer.pop("located", None)
    if located:  # VA-40: where on the vehicle's table, and the damage there
        answer.update(aspect=located["aspect"], locations=located["locations"],
                      damage_at_the_location=located["damage"])  # fmt: skip
    return (f"{arguments['target']} {what} (exact): {answer['row']}, column {answer['column']}, "
            f"{answer['dc']} DC", answer)  # fmt: skip


def _hazard_options() -> list:
    return [
        click.Option(["--hazard"], required=True, help="The hazard zone's name."),
        click.Option(["--target"], required=True, help="The member standing in it."),
    ]


def _hazard(scenario, hazard, target):
    """The exact damage of one phase of the scenario's hazard zone ``hazard`` on member
    ``target`` after its armour, and its breath there (M-67 to M-71): ``{"hazard", "kind",
    "dc", "target", "damage": {"mean", "pmf"}, ...}`` plus ``breath_phases`` and ``asphyxia``
    for an asphyxiating zone."""
    from .features.hazards.exact import scenario_hazard

    return scenario_hazard(scenario, hazard, target)


def _render_hazard(answer, arguments):
    return f"One phase of {arguments['hazard']} on {arguments['target']} (exact)", answer


def _manoeuvre_options() -> list:
    return [
        click.Option(["--vehicle"], required=True, help="The vehicle that makes the manoeuvre."),
        click.Option(["--name", "name"], required=True,
                     help="The manoeuvre (manoeuvres.yaml)."),
    ]  # fmt: skip


def _manoeuvre(scenario, vehicle, name):
    """The exact odds of member ``vehicle``'s manoeuvre ``name`` (``manoeuvres.yaml``, M-46 to
    M-51): ``p_made``, ``lost`` (each way control is lost and its probability), the pmf of the
    ``miss``, the skid's dice and, for an aircraft, ``p_regain``."""
    from .features.motion.exact import manoeuvre_odds

    return {"scenario": scenario.name, **manoeuvre_odds(scenario, vehicle, name)}


def _render_manoeuvre(answer, arguments):
    lines = [f"{arguments['vehicle']}: {arguments['name']} (exact), {answer['base']} + the die "
             f"against DV {answer['dv']}", f"  made        {answer['p_made']:.4f}"]  # fmt: skip
    lines += [f"  {how:<11} {p:.4f}" for how, p in answer["lost"].items()]
    if answer["lost"].get("skid", 0) or answer["lost"].get("spin", 0):
        lines.append(f"  a skid goes {answer['skid_dice']}d6 m straight on")
    for state, p in answer.get("p_regain", {}).items():
        lines.append(f"  regains control from a {state}: {p:.4f} a roll")
    return "\n".join(lines)


def _dogfight_options() -> list:
    return [
        click.Option(["--a", "a"], required=True, help="One flying vehicle's name."),
        click.Option(["--b", "b"], required=True, help="The other's."),
    ]


def _dogfight(scenario, a, b):
    """The exact dogfight roll between the scenario's flying vehicles ``a`` and ``b`` (M-54,
    VA-32, VA-33): ``{"scenario", "a", "b", "a_base", "b_base", "margin": {"mean", "pmf"},
    "positions": {...}, ...}`` (plus the first roll's ``intercept_margin`` under ``intercept:
    perception``)."""
    from .features.dogfights.exact import scenario_dogfight

    return {"scenario": scenario.name, **scenario_dogfight(scenario, a, b)}


def _render_dogfight(answer, arguments):
    a, b = arguments["a"], arguments["b"]
    return f"The dogfight roll of {a} against {b} (exact; margin: {a} less {b})", answer


#: Fuzion's questions, in the order ``fuzion-sim --help`` lists them.
QUESTIONS = (
    Question("impact", "The exact damage of one fall, knockback into an obstacle or collision "
             "of a member of SCENARIO, or of an object thrown at it (the Falling & Collisions "
             "table under the scenario's rules).", _impact_options, _impact, _render_impact),
    Question("hazard", "The exact damage of one phase of a hazard of SCENARIO on a member, "
             "after its armour, and its breath there (fire, electricity, smoke, poison: M-67 to "
             "M-71).", _hazard_options, _hazard, _render_hazard),
    Question("manoeuvre", "The exact odds of one manoeuvre of a vehicle of SCENARIO: made, and "
             "each way control is lost (skid or spin, stall or spin, falls over; M-46 to M-51, "
             "VA-27 to VA-30).", _manoeuvre_options, _manoeuvre, _render_manoeuvre,
             tables=False),
    Question("dogfight", "The exact dogfight roll between two flying vehicles of SCENARIO: the "
             "pmf of A's margin over B (Piloting + REF + die + Maneuver Value each) and the "
             "Advantage chart's positions (M-54, VA-32, VA-33).", _dogfight_options, _dogfight,
             _render_dogfight),
)  # fmt: skip
