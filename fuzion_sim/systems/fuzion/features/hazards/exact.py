"""Exact answers for the environment (``fuzion-sim hazard SCENARIO --hazard NAME --target
NAME``): the damage of one phase of a hazard on a combatant after its armour, as exact
fractions (the oracle the kernel's hazard room is tested against), and its breath.

One phase of fire or electricity (VA-46) is ``max(DC d6 - armour, 0)`` killing damage (Hits,
with as much collateral Stun as it has left), or with ``electricity_damage: stun`` ``max(DC d6 -
max(armour, SD), 0)`` Stun and 1 Hit per full 5. Asphyxiation (VA-47) is 3d6 to Hits once the
breath (floor(END / 4) phases, END / 2 resting) is out; a poison (VA-48) its DC d6, no armour,
every minute (or phase).
"""

from __future__ import annotations

from fractions import Fraction

from ....base import NotAvailable
from ...dice import _nd6_counts
from .build import breath_phases

__all__ = ["phase_pmf", "scenario_hazard"]


def phase_pmf(dc: int, armour: int = 0, killing: bool = True, sd: int = 0) -> dict[int, Fraction]:
    """The exact pmf of the damage through the defences of one phase of a hazard of ``dc``
    d6: killing less ``armour``, or Stun less the higher of ``armour`` and ``sd``; never below
    0.

    Parameters
    ----------
    dc : int
        Dice (d6), ``dc >= 0``.
    armour, sd : int
        The armour the hazard meets (``rules.hazard_armour``) and the SD (Stun damage only).
    killing : bool
        Killing damage (else Stun).

    Returns
    -------
    dict of int to Fraction
        Damage through -> probability, summing to 1.
    """
    lo, counts = _nd6_counts(int(dc))
    total = sum(counts)
    stop = armour if killing or armour > sd else sd
    out: dict[int, Fraction] = {}
    for i, n in enumerate(counts):
        through = max(lo + i - stop, 0)
        out[through] = out.get(through, Fraction(0)) + Fraction(n, total)
    return dict(sorted(out.items()))


def _as_answer(pmf: dict[int, Fraction]) -> dict:
    mean = sum(k * p for k, p in pmf.items())
    return {"mean": float(mean), "pmf": {str(k): float(p) for k, p in pmf.items()}}


def scenario_hazard(scenario, hazard: str, target: str) -> dict:
    """One phase of ``hazard`` (a zone of ``scenario.scene["hazards"]``) on ``target`` (a
    member), exactly: the damage through its armour (and, for Stun, the Hits it costs), its
    breath in an asphyxiating zone and the 3d6 after, or a poison's dose.

    Raises
    ------
    NotAvailable
        For an unknown hazard or member (naming the valid ones), or a target hazards do not
        reach (a vehicle, an object, a crew member inside).
    """
    from .build import _reached

    zones = {h.name: h for h in scenario.scene.get("hazards", ())}
    members = {c.name: c for c in scenario.combatants}
    if hazard not in zones:
        names = ", ".join(zones) or "none: the scenario has no hazards:"
        raise NotAvailable(f"unknown hazard '{hazard}' (hazards: {names})")
    if target not in members:
        raise NotAvailable(f"unknown member '{target}' (members: {', '.join(members)})")
    h = zones[hazard]
    c = members[target]
    if not _reached(c):
        raise NotAvailable(f"{target} is a vehicle, an object or rides in one: hazards do not "
                           "reach it")  # fmt: skip
    rules = scenario.rules.values
    which = rules.get("hazard_armour", "ekd")
    armour = 0 if which == "none" or c.armor.kills else (
        c.armor.ekd if which == "ekd" else c.armor.pd)  # fmt: skip
    answer: dict = {"hazard": h.name, "kind": h.kind, "dc": h.dc, "target": target}
    if h.kind in ("fire", "electricity"):
        killing = not (h.kind == "electricity" and rules.get("electricity_damage") == "stun")
        pmf = phase_pmf(h.dc, armour, killing, int(c.derived["sd"]))
        answer["armour"] = armour
        answer["damage"] = _as_answer(pmf)
        if not killing:
            hits: dict[int, Fraction] = {}
            for k, p in pmf.items():
                hits[k // 5] = hits.get(k // 5, Fraction(0)) + p
            answer["hits_lost"] = _as_answer(dict(sorted(hits.items())))
        answer["timing"] = rules.get("hazard_timing", "end_of_phase")
    elif h.kind == "poison":
        answer["damage"] = _as_answer(phase_pmf(h.dc))
        answer["every_phases"] = 1 if rules.get("poison_timing") == "turn" else 20
    if h.asphyxiating:
        answer["breath_phases"] = breath_phases(c)
        answer["asphyxia"] = _as_answer(phase_pmf(3))
    if h.obscures:
        answer["obscures"] = "a Perception roll each phase inside (F11)"
    return answer
