"""Exact answers for dogfights (``fuzion-sim dogfight SCENARIO --a NAME --b NAME``): the pmf
of the dogfight margin between two pilots (M-54, VA-32, VA-33), as exact fractions of the
dice's equally likely outcomes (the oracle the kernel's dogfight room is tested against).

Each pilot's total is Piloting (its vehicle's control skill) + REF + the action die (3d6, or
1d10 under Interlock; criticals F3 unless ``criticals: none``; the HERO flat 10 does not apply)
+ the Maneuver Value. The margin is ``a``'s total less ``b``'s, read on the Advantage chart
(``data/dogfight.yaml``, not from the seed): level (neutral), the Advantage, tailing, for each
side. Under ``intercept: perception`` the first roll's totals are INT + Perception + die
(VA-34): its pmf is given too.
"""

from __future__ import annotations

from fractions import Fraction

from ....base import NotAvailable
from ...dice import _conv, _hero_counts, _interlock_counts, _neg
from .build import chart, flying

__all__ = ["margin_pmf", "positions", "scenario_dogfight"]


def _die_counts(dice: str, criticals: str):
    crit = criticals != "none"
    return _hero_counts(crit) if dice == "hero" else _interlock_counts(crit)


def margin_pmf(base_a: int, base_b: int, dice: str = "hero",
               criticals: str = "both") -> dict[int, Fraction]:  # fmt: skip
    """The exact pmf of ``(base_a + die) - (base_b + die)``, both pilots rolling the action die.

    Parameters
    ----------
    base_a, base_b : int
        Each pilot's total before the die (Piloting + REF + Maneuver Value).
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
        Criticals (F3) apply to both rolls unless ``'none'``.

    Returns
    -------
    dict of int to Fraction
        Margin -> probability, summing to 1.
    """
    die = _die_counts(dice, criticals)
    lo, counts = _conv(die, _neg(die))
    total = sum(counts)
    shift = int(base_a) - int(base_b)
    return {lo + i + shift: Fraction(n, total) for i, n in enumerate(counts) if n}


def positions(pmf: dict[int, Fraction]) -> dict[str, Fraction]:
    """The chart's positions of a margin pmf (``a``'s margin): level, and for each side
    ``a_advantage`` (the Advantage short of tailing), ``a_tailing``, ``b_advantage``,
    ``b_tailing``."""
    ch = chart()
    out = {"level": Fraction(0), "a_advantage": Fraction(0), "a_tailing": Fraction(0),
           "b_advantage": Fraction(0), "b_tailing": Fraction(0)}  # fmt: skip
    for m, p in pmf.items():
        side = "a" if m > 0 else "b"
        am = abs(m)
        if am >= ch.tail_min:
            out[f"{side}_tailing"] += p
        elif am >= ch.adv_min:
            out[f"{side}_advantage"] += p
        else:
            out["level"] += p
    return out


def _pilot(scenario, name: str):
    members = {c.name: c for c in scenario.combatants}
    fliers = [c.name for c in scenario.combatants if flying(getattr(c, "vehicle", None))]
    c = members.get(name)
    if c is None or not flying(getattr(c, "vehicle", None)) or c.vehicle.pilot is None:
        raise NotAvailable(f"'{name}' is not a flying vehicle with a pilot (flying vehicles: "
                           f"{', '.join(fliers) or 'none'})")  # fmt: skip
    return c, members[c.vehicle.pilot]


def _answer(pmf: dict[int, Fraction]) -> dict:
    mean = sum(m * p for m, p in pmf.items())
    return {"mean": float(mean), "pmf": {str(m): float(p) for m, p in sorted(pmf.items())}}


def scenario_dogfight(scenario, a: str, b: str) -> dict:
    """The dogfight roll of vehicles ``a`` and ``b`` of ``scenario``, exactly: each pilot's
    total before the die, the pmf of ``a``'s margin and the chart's positions.

    Raises
    ------
    NotAvailable
        When ``a`` or ``b`` is not a flying vehicle with a pilot (naming those that are), or
        both are the same.
    """
    va, pa = _pilot(scenario, a)
    vb, pb = _pilot(scenario, b)
    if a == b:
        raise NotAvailable("a dogfight needs two vehicles (--a and --b are the same)")
    rules = scenario.rules
    dice, criticals = rules.dice, rules.criticals

    def base(v, p) -> int:
        return int(p.stats["REF"]) + p.skill(v.vehicle.control_skill) + int(v.vehicle.maneuver)

    ba, bb = base(va, pa), base(vb, pb)
    pmf = margin_pmf(ba, bb, dice, criticals)
    ch = chart()
    answer: dict = {
        "a": a, "b": b,
        "a_base": ba, "b_base": bb,
        "how": f"{pa.name}: REF {pa.stats['REF']} + {va.vehicle.control_skill} "
               f"{pa.skill(va.vehicle.control_skill)} + Maneuver Value {va.vehicle.maneuver}; "
               f"{pb.name}: REF {pb.stats['REF']} + {vb.vehicle.control_skill} "
               f"{pb.skill(vb.vehicle.control_skill)} + Maneuver Value {vb.vehicle.maneuver}; "
               f"each + {'3d6' if dice == 'hero' else '1d10'}",
        "chart": f"level below {ch.adv_min}, the Advantage from {ch.adv_min}, tailing from "
                 f"{ch.tail_min} (+{ch.tail_bonus} to attack; data/dogfight.yaml, not from "
                 "the seed)",
        "margin": _answer(pmf),
        "positions": {k: float(v) for k, v in positions(pmf).items()},
    }  # fmt: skip
    if rules.values.get("intercept", "scenario") == "perception":
        def sense(p) -> int:
            return int(p.stats["INT"]) + p.skill("Perception")

        first = margin_pmf(sense(pa), sense(pb), dice, criticals)
        answer["intercept_margin"] = _answer(first)
        answer["intercept_positions"] = {k: float(v) for k, v in positions(first).items()}
    return answer
