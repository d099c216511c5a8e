"""Exact answers for single Fuzion attacks and for the standing duel (the test oracles).

:func:`attack` gives the exact hit probability and damage distribution of one attack
(RULINGS F1-F3, F19-F20), optionally with random hit locations (F27), from integer outcome
counts. :func:`knockback` gives the knockback of one attack (F28); :func:`autofire` and
:func:`burst` the number of hits and the total damage of an autofire or burst attack (F15,
F16). :func:`duel` gives the exact outcome of two fighters who stand still and exchange one
killing attack each per phase, A first in every phase, by dynamic programming over the joint
distribution of damage taken (RULINGS F21, F26). Small closed-form rules (Kills, F29;
stabilising, F25; healing) sit at the end.

Every pmf is built from integer outcome counts over the physical dice (Python ints, so no
overflow) and each probability is one correctly rounded division ``count / total``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from fuzion_sim.errors import ArgumentError
from fuzion_sim.limits import MAX_DC, check_int, check_number

from .dice import DICE, Pmf, _difference_counts, _nd6_counts
from .rules import attacker_modifiers, range_modifier, target_modifiers
from .tables import hit_locations as _location_table

__all__ = [
    "AUTOFIRE_RULES",
    "BURST_SHOTS",
    "AttackResult",
    "AutofireResult",
    "DuelResult",
    "Fighter",
    "attack",
    "autofire",
    "autofire_damage",
    "autofire_hit_count",
    "autofire_hits",
    "autofire_penalty",
    "burst",
    "burst_damage",
    "burst_hits",
    "days_to_heal",
    "duel",
    "kill_dc",
    "knockback",
    "missile_hits",
    "stabilise_dv",
    "superdamage_kills",
]

_DAMAGE = ("killing", "stun")
#: Readings of the autofire hit count (RULINGS F15): ``ceil_margin`` is
#: ``min(shots, max(1, ceil(margin / ratio)))``, ``one_plus_floor`` is
#: ``min(shots, 1 + floor(margin / ratio))``.
AUTOFIRE_RULES = ("ceil_margin", "one_plus_floor")
#: Shots of a burst (RULINGS F16).
BURST_SHOTS = 3
#: F30 chinks in the armour: a hit beating the DV by this much or more ignores the armour.
CHINK_MARGIN = 10

#: Bounds of the calculator's integer arguments (inclusive). ``dc`` stops at
#: :data:`~fuzion_sim.limits.MAX_DC` (the dice counts are built one die at a time; 800 dice
#: ran past Python's recursion limit); the duel's Hits at 200 (its state is Hits x Hits).
BOUNDS = {
    "av": (-1000, 1000), "dv_base": (-1000, 1000), "dc": (0, MAX_DC), "pd": (0, 1000),
    "sd": (0, 1000), "body": (0, 1000), "shots": (1, 1000), "ratio": (1, 100),
    "kills": (1, 1000), "hits": (-10_000, 10_000), "hits_lost": (0, 10_000), "rec": (1, 10_000),
    "out_at": (1, 200), "max_phases": (1, 10_000), "ref": (-1000, 1000),
    "skill": (-1000, 1000), "accuracy": (-1000, 1000), "aim": (-1000, 1000),
    "modifiers": (-1000, 1000),
}  # fmt: skip
#: Largest ``hits x damage values`` of an exact total over several hits: the work grows as its
#: square (10 hits of DC 100, 5,010, took 4 s; 4,000 is at most about 3 s).
MAX_TOTAL_SPAN = 4000


def _check(**values) -> None:
    """Raise :class:`~fuzion_sim.errors.ArgumentError` (a ValueError) naming the first
    argument that is not an integer within :data:`BOUNDS`."""
    for name, value in values.items():
        check_int(name, value, *BOUNDS[name])


@dataclass(frozen=True, eq=False)
class AttackResult:
    """The exact outcome of one attack.

    Parameters
    ----------
    p_hit : float
        Probability that ``AT >= DV``.
    damage : Pmf
        Damage after defences over every outcome of the attack, a miss counting 0, so it sums
        to 1. Killing damage: Hits lost after PD; Stun damage: Stun lost after max(PD, SD).
    """

    p_hit: float
    damage: Pmf
    locations: dict[str, float] | None = None

    @property
    def mean(self) -> float:
        """Mean damage per attack (misses included)."""
        return self.damage.mean

    def to_json_dict(self) -> dict:
        """Plain-JSON form.

        Returns
        -------
        dict
            ``{"p_hit": p, "damage": {"mean": m, "pmf": {"0": p0, "1": p1, ...}}}`` with plain
            floats and keys in increasing order of value; with hit locations also
            ``"locations": {name: probability among hits}`` in table order.
        """
        out = {
            "p_hit": float(self.p_hit),
            "damage": {"mean": float(self.mean), "pmf": self.damage.to_dict()},
        }
        if self.locations is not None:
            out["locations"] = {k: float(v) for k, v in self.locations.items()}
        return out


# --------------------------------------------------------------------------------------------
# Integer-count building blocks
# --------------------------------------------------------------------------------------------


def _hit_counts(av: int, dv_base: int, dice: str, criticals: str) -> tuple[int, int]:
    """``(total, hits)``: elementary roll outcomes in all, and those with ``D >= dv_base - av``."""
    _check(av=av, dv_base=dv_base)
    dlo, dcounts = _difference_counts(dice, criticals)
    need = dv_base - av
    return sum(dcounts), sum(c for i, c in enumerate(dcounts) if dlo + i >= need)


def _margin_counts(av: int, dv_base: int, dice: str, criticals: str):
    """``(total, {margin: count})`` over the hitting outcomes, ``margin = AT - DV >= 0``.

    ``AT - DV = av + attacker roll - dv_base - defender roll = D - (dv_base - av)``.
    """
    _check(av=av, dv_base=dv_base)
    dlo, dcounts = _difference_counts(dice, criticals)
    need = dv_base - av
    margins = {dlo + i - need: c for i, c in enumerate(dcounts) if c and dlo + i >= need}
    return sum(dcounts), margins


def _covered_set(armor_covers) -> frozenset[str] | None:
    if armor_covers is None:
        return None
    if isinstance(armor_covers, str):
        raise TypeError("armor_covers must be a collection of location names, not a string")
    table = _location_table()
    for name in armor_covers:
        table.index(name)  # raises ValueError on an unknown name
    return frozenset(armor_covers)


def _check_damage(dc: int, damage: str) -> None:
    if damage not in _DAMAGE:
        raise ValueError(f"damage must be one of {_DAMAGE}, got {damage!r}")
    _check(dc=dc)


def _per_hit_counts(dc, pd, sd, damage, hit_locations, armor_covers):
    """Counts of the damage after defences (and location multiplier) of one hit.

    Returns ``(total, counts)`` with ``counts[v]`` the number of equally likely outcomes
    (``6**dc`` damage dice, times the 216 outcomes of the 3d6 location roll with hit locations)
    giving damage ``v >= 0``.

    Killing damage meets the armour PD; Stun damage the higher of PD and SD (F20). With hit
    locations, a location the armour does not cover has armour PD 0 (Stun still meets SD, the
    body's own defence), and the damage after defences is multiplied by the location's
    multiplier and rounded down (F27).
    """
    _check_damage(dc, damage)
    _check(pd=pd, sd=sd)
    covered = max(pd, sd) if damage == "stun" else pd
    bare = sd if damage == "stun" else 0
    slo, scounts = _nd6_counts(int(dc))
    if not hit_locations:
        if armor_covers is not None:
            raise ValueError("armor_covers needs hit_locations=True")
        out = [0] * (max(0, slo + len(scounts) - 1 - covered) + 1)
        for i, c in enumerate(scounts):
            out[max(0, slo + i - covered)] += c
        return sum(scounts), out
    covers = _covered_set(armor_covers)
    table = _location_table()
    rlo, rcounts = _nd6_counts(3)
    acc: dict[int, int] = {}
    for j, rc in enumerate(rcounts):
        loc = int(table.location_by_roll[rlo + j])
        name, mult = table.names[loc], table.multipliers[loc]
        armour = covered if covers is None or name in covers else bare
        for i, c in enumerate(scounts):
            v = (max(0, slo + i - armour) * mult.numerator) // mult.denominator
            acc[v] = acc.get(v, 0) + rc * c
    out = [0] * (max(acc) + 1)
    for v, c in acc.items():
        out[v] += c
    return sum(rcounts) * sum(scounts), out


def _location_probs() -> dict[str, float]:
    """Probability of each location given a hit (the 3d6 table), in table order."""
    table = _location_table()
    rlo, rcounts = _nd6_counts(3)
    counts = [0] * len(table.names)
    for j, c in enumerate(rcounts):
        counts[int(table.location_by_roll[rlo + j])] += c
    total = sum(counts)
    return {name: c / total for name, c in zip(table.names, counts, strict=True)}


def _total_damage_counts(hit_counts, per_hit):
    """Counts of the total damage over a random number of independent hits.

    ``hit_counts[k]`` outcomes give ``k`` hits; ``per_hit = (total, counts)`` is one hit's
    damage. The result's total is ``sum(hit_counts) * total ** K`` (``K`` the largest ``k``):
    the ``k``-fold convolution of one hit is scaled by ``total ** (K - k)``.
    """
    p_total, p_counts = per_hit
    kmax = max(k for k, c in enumerate(hit_counts) if c)
    if kmax * len(p_counts) > MAX_TOTAL_SPAN:
        raise ArgumentError(
            f"the exact total damage of up to {kmax} hits of {len(p_counts) - 1} points each is "
            f"too big to work out (hits x damage values at most {MAX_TOTAL_SPAN}, here "
            f"{kmax * len(p_counts)}): fewer shots or dice, or simulate the fight"
        )
    step = np.array(p_counts, dtype=object)
    conv = np.array([1], dtype=object)
    out = np.zeros(len(p_counts) * kmax + 1 if kmax else 1, dtype=object)
    for k in range(kmax + 1):
        if k:
            conv = np.convolve(conv, step)
        if hit_counts[k]:
            out[: len(conv)] += conv * (hit_counts[k] * p_total ** (kmax - k))
    return [int(x) for x in out]


def attack(
    av: int,
    dv_base: int,
    dc: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
    hit_locations: bool = False,
    armor_covers=None,
    chinks: bool = False,
) -> AttackResult:
    """Exact hit probability and damage distribution of one attack.

    The attack hits iff ``AV + attacker roll >= dv_base + defender roll`` (the constant 10
    under HERO); on a hit DC d6 are rolled and reduced by the armour.

    Parameters
    ----------
    av : int
        Attack value (characteristic + skill + modifiers).
    dv_base : int
        Defender's defence base (DEX + defence skill + modifiers), without the 10 or the d10.
    dc : int
        Damage class: number of d6, ``>= 0``.
    pd : int, default 0
        Defender's armour PD.
    sd : int, default 0
        Defender's Stun Defense (used only for Stun damage).
    damage : {'killing', 'stun'}
        Killing damage is reduced by ``pd``; Stun damage by ``max(pd, sd)``; never below 0.
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    hit_locations : bool, default False
        Each hit rolls 3d6 for a location (RULINGS F27); the damage after defences is
        multiplied by the location's multiplier and rounded down.
    armor_covers : collection of str, optional
        With ``hit_locations``, the locations the armour covers (None: all). An uncovered
        location has armour PD 0; Stun damage there still meets the SD.
    chinks : bool, default False
        F30 chinks in the armour: a hit that beats the DV by 10 or more meets no armour (Stun
        damage still meets the SD).

    Returns
    -------
    AttackResult
        With hit locations, ``locations`` gives each location's probability among hits.
    """
    p_total, p_counts = _per_hit_counts(dc, pd, sd, damage, hit_locations, armor_covers)
    d_total, hit = _hit_counts(av, dv_base, dice, criticals)
    chink = 0
    if chinks:
        chink = sum(c for m, c in _margin_counts(av, dv_base, dice, criticals)[1].items()
                    if m >= CHINK_MARGIN)  # fmt: skip
    out = [(hit - chink) * c for c in p_counts]
    if chink:
        _, bare = _per_hit_counts(dc, 0, sd, damage, hit_locations, None)
        out += [0] * (len(bare) - len(out))
        for v, c in enumerate(bare):
            out[v] += chink * c
    out[0] += (d_total - hit) * p_total
    return AttackResult(
        p_hit=hit / d_total,
        damage=Pmf.from_counts(0, out),
        locations=_location_probs() if hit_locations else None,
    )


def knockback(
    dc: int,
    body: int,
    av: int | None = None,
    dv_base: int | None = None,
    dice: str = "hero",
    criticals: str = "both",
) -> Pmf:
    """Exact knockback of one attack, in units (RULINGS F28).

    On a hit the target is knocked back ``max(0, dc + 1d6 - body)`` units; a miss is 0. Kills
    against Kills use the same formula with ``dc`` the attack's Kills and ``body`` the target's
    Kills; a Kill-rated attack against a BODY target counts as :func:`kill_dc` DC.

    Parameters
    ----------
    dc : int
        The attack's DC (its dice of damage), ``>= 0``.
    body : int
        The target's BODY.
    av, dv_base : int, optional
        As in :func:`attack`; both None gives the knockback of a hit.
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}

    Returns
    -------
    Pmf
        Over every outcome of the attack (or of a hit, without ``av`` and ``dv_base``).
    """
    _check(dc=dc, body=body)
    if (av is None) != (dv_base is None):
        raise ValueError("give both av and dv_base, or neither")
    if av is None:
        d_total, hit = 1, 1
    else:
        d_total, hit = _hit_counts(av, dv_base, dice, criticals)
    units = [max(0, dc + f - body) for f in range(1, 7)]
    out = [0] * (max(units) + 1)
    out[0] = (d_total - hit) * 6
    for u in units:
        out[u] += hit
    return Pmf.from_counts(0, out)


# --------------------------------------------------------------------------------------------
# Autofire and bursts (RULINGS F15, F16)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class AutofireResult:
    """The exact outcome of one autofire or burst attack.

    Parameters
    ----------
    p_hit : float
        Probability that the attack hits (``AT >= DV`` at the penalised AV).
    hits : Pmf
        Number of bullets that hit, over every outcome (a miss is 0).
    damage : Pmf
        Total damage after defences over all hits, each hit rolling its own dice and meeting
        the armour separately (a miss is 0).
    shots : int
        Shots fired.
    penalty : int
        The attack penalty applied (``shots // 10`` for autofire, 0 for a burst).
    locations : dict of str to float, optional
        With hit locations, each location's probability for any one hit.
    """

    p_hit: float
    hits: Pmf
    damage: Pmf
    shots: int
    penalty: int
    locations: dict[str, float] | None = None

    @property
    def mean(self) -> float:
        """Mean total damage per attack (misses included)."""
        return self.damage.mean

    def to_json_dict(self) -> dict:
        """Plain-JSON form.

        Returns
        -------
        dict
            ``{"p_hit": p, "hits": {"mean", "pmf"}, "damage": {"mean", "pmf"}}`` (pmf keys in
            increasing order of value) and, with hit locations, ``"locations"``.
        """
        out = {
            "p_hit": float(self.p_hit),
            "hits": {"mean": float(self.hits.mean), "pmf": self.hits.to_dict()},
            "damage": {"mean": float(self.mean), "pmf": self.damage.to_dict()},
        }
        if self.locations is not None:
            out["locations"] = {k: float(v) for k, v in self.locations.items()}
        return out


# --------------------------------------------------------------------------------------------
# Missiles (RULINGS F18; ../shared/rulings/vehicles M-42 to M-45, VA-20 to VA-25)
# --------------------------------------------------------------------------------------------

#: M-44: a countermeasure charge's bonus to an evasion roll.
COUNTERMEASURE_BONUS = 2
#: Most missiles the exact pmf follows in a sequence over several rounds.
MAX_CLUSTER = 100


def _task_fractions(dice: str, criticals: str) -> dict[int, Fraction]:
    """The evader's task roll (3d6 or 1d10 with their critical die, F3): value -> P."""
    from .dice import task_table

    values, counts = np.unique(task_table(dice, criticals), return_counts=True)
    total = int(counts.sum())
    return {int(v): Fraction(int(c), total) for v, c in zip(values, counts, strict=True)}


def missile_hits(evade: int, dv: int, cluster: int = 1, dice: str = "hero",
                 criticals: str = "both", countermeasures: int = 0,
                 countermeasure_use: str = "per_engagement", cluster_roll: str = "single",
                 p_launch: Fraction = Fraction(1)) -> dict[int, Fraction]:  # fmt: skip
    """The exact pmf of the missiles of one launch that hit (F18, M-43 to M-45), as fractions.

    Each evasion roll is ``evade`` + the task roll (+2 with a countermeasure charge) against
    ``dv``; a failure by F hits with min(flying, F) missiles. A cluster (``cluster`` > 1)
    under ``cluster_roll: single`` is one roll (VA-23); a single missile, or a cluster under
    ``sequence``, rolls over ceil(1d6 / 2) rounds (1, 2 or 3, each 1/3), the missiles that hit
    spent and the rest flying on (a single missile: P(clear) = E over R of p_success^R).

    Parameters
    ----------
    evade : int
        The evader's base: a vehicle's pilot REF + control skill, a person's DEX + Ranged
        Evade (or REF + Athletics, VA-24).
    dv : int
        The missile's DV (already 5 less under Interlock with ``minus5``, VA-22).
    cluster : int
        Missiles fired at once.
    dice, criticals : str
        The dice (``hero``, ``interlock``) and whether the roll has criticals (``none``: no;
        ``both`` and ``attacker``: yes, the evader's roll is its own task roll, VA-24).
    countermeasures : int
        The evader's charges at the launch (-1 unlimited, 0 none).
    countermeasure_use : {"per_engagement", "per_roll"}
        One charge gives +2 to every roll of the engagement, or a charge a roll (VA-25).
    cluster_roll : {"single", "sequence"}
    p_launch : Fraction
        P(the launch engages): 1 under ``missile_launch: automatic``, its attack's P(hit)
        under ``attack_roll`` (VA-20).

    Returns
    -------
    dict of int to Fraction
        Missiles that hit -> probability (summing to 1).
    """
    if not 1 <= cluster <= MAX_CLUSTER:
        raise ArgumentError(f"cluster must be 1 to {MAX_CLUSTER}, got {cluster}")
    if countermeasure_use not in ("per_engagement", "per_roll"):
        raise ArgumentError(f"unknown countermeasure_use {countermeasure_use!r}")
    if cluster_roll not in ("single", "sequence"):
        raise ArgumentError(f"unknown cluster_roll {cluster_roll!r}")
    rolls = _task_fractions(dice, criticals)

    def bonus(i: int) -> int:
        if countermeasures == 0:
            return 0
        if countermeasure_use == "per_engagement":
            return COUNTERMEASURE_BONUS
        return COUNTERMEASURE_BONUS if countermeasures < 0 or i < countermeasures else 0

    def one_roll(left: int, i: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for r, p in rolls.items():
            h = min(left, max(0, dv - (evade + bonus(i) + r)))
            out[h] = out.get(h, Fraction(0)) + p
        return out

    pmf: dict[int, Fraction] = {}
    if cluster > 1 and cluster_roll == "single":
        pmf = one_roll(cluster, 0)
    else:
        for rounds in (1, 2, 3):
            states = {(cluster, 0): Fraction(1)}
            for i in range(rounds):
                new: dict[tuple[int, int], Fraction] = {}
                for (left, got), p in states.items():
                    if left == 0:
                        new[(left, got)] = new.get((left, got), Fraction(0)) + p
                        continue
                    for h, q in one_roll(left, i).items():
                        key = (left - h, got + h)
                        new[key] = new.get(key, Fraction(0)) + p * q
                states = new
            for (_, got), p in states.items():
                pmf[got] = pmf.get(got, Fraction(0)) + p / 3
    out = {h: p * p_launch for h, p in pmf.items()}
    out[0] = out.get(0, Fraction(0)) + (1 - p_launch)
    return {h: p for h, p in sorted(out.items()) if p}


def autofire_penalty(shots: int) -> int:
    """Attack penalty of an autofire attack: 1 per full 10 shots fired (RULINGS F15).

    Parameters
    ----------
    shots : int
        Shots fired, ``>= 1``.

    Returns
    -------
    int
        ``shots // 10`` (9 shots 0, 10 shots 1, 20 shots 2), to subtract from the AV.
    """
    if shots < 1:
        raise ValueError(f"shots must be >= 1, got {shots}")
    return shots // 10


def autofire_hit_count(margin: int, shots: int, ratio: int, rule: str = "ceil_margin") -> int:
    """Bullets that hit when an autofire attack hits by ``margin = AT - DV >= 0`` (F15).

    Parameters
    ----------
    margin : int
        ``AT - DV``, at least 0.
    shots : int
        Shots fired, ``>= 1``.
    ratio : int
        The autofire ratio, ``>= 1``.
    rule : {'ceil_margin', 'one_plus_floor'}
        ``min(shots, max(1, ceil(margin / ratio)))`` (the worked example's reading) or
        ``min(shots, 1 + floor(margin / ratio))`` (the rule text's "one additional round").

    Returns
    -------
    int
    """
    _check_autofire(shots, ratio, rule)
    if margin < 0:
        raise ValueError(f"margin must be >= 0 on a hit, got {margin}")
    if rule == "ceil_margin":
        return min(shots, max(1, -(-margin // ratio)))
    return min(shots, 1 + margin // ratio)


def _check_autofire(shots: int, ratio: int, rule: str) -> None:
    _check(shots=shots, ratio=ratio)
    if rule not in AUTOFIRE_RULES:
        raise ValueError(f"rule must be one of {AUTOFIRE_RULES}, got {rule!r}")


def _autofire_hit_counts(av, dv_base, shots, ratio, dice, criticals, rule):
    """Counts of the number of hits over the roll outcomes (index = hits, 0 = a miss)."""
    _check_autofire(shots, ratio, rule)
    d_total, margins = _margin_counts(av - autofire_penalty(shots), dv_base, dice, criticals)
    out = [0] * (shots + 1)
    out[0] = d_total - sum(margins.values())
    for m, c in margins.items():
        out[autofire_hit_count(m, shots, ratio, rule)] += c
    return out


def _burst_hit_counts(av, dv_base, dice, criticals):
    """Counts of the number of hits of a burst: on a hit ``ceil(1d6 / 2)`` (F16)."""
    d_total, hit = _hit_counts(av, dv_base, dice, criticals)
    out = [0] * (BURST_SHOTS + 1)
    out[0] = (d_total - hit) * 6
    for face in range(1, 7):
        out[-(-face // 2)] += hit
    return out


def autofire_hits(
    av: int,
    dv_base: int,
    shots: int,
    ratio: int,
    dice: str = "hero",
    criticals: str = "both",
    rule: str = "ceil_margin",
) -> Pmf:
    """Exact distribution of the number of bullets that hit in one autofire attack (F15).

    The attack is made at ``av - shots // 10``; on a hit the margin ``AT - DV`` gives the hits
    by :func:`autofire_hit_count`.

    Parameters
    ----------
    av : int
        Attack value before the autofire penalty.
    dv_base : int
        As in :func:`attack`.
    shots : int
        Shots fired, ``>= 1``.
    ratio : int
        Autofire ratio, ``>= 1`` (:func:`~fuzion_sim.systems.fuzion.tables.autofire_ratio`).
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    rule : {'ceil_margin', 'one_plus_floor'}

    Returns
    -------
    Pmf
        Over ``0 .. shots``, a miss counting 0.
    """
    return Pmf.from_counts(
        0, _autofire_hit_counts(av, dv_base, shots, ratio, dice, criticals, rule)
    )


def autofire(
    av: int,
    dv_base: int,
    dc: int,
    shots: int,
    ratio: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
    rule: str = "ceil_margin",
    hit_locations: bool = False,
    armor_covers=None,
) -> AutofireResult:
    """Exact hits and total damage of one autofire attack (F15).

    Every hit rolls its own ``dc`` d6 (and, with hit locations, its own location) and meets
    the armour separately; the total is the exact convolution over the number of hits.

    Parameters
    ----------
    av, dv_base, shots, ratio, dice, criticals, rule
        As in :func:`autofire_hits` (``av`` before the autofire penalty).
    dc, pd, sd, damage, hit_locations, armor_covers
        As in :func:`attack`, for each hit.

    Returns
    -------
    AutofireResult
    """
    per_hit = _per_hit_counts(dc, pd, sd, damage, hit_locations, armor_covers)
    hits = _autofire_hit_counts(av, dv_base, shots, ratio, dice, criticals, rule)
    return _result(hits, per_hit, shots, autofire_penalty(shots), hit_locations)


def autofire_damage(
    av: int,
    dv_base: int,
    dc: int,
    shots: int,
    ratio: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
    rule: str = "ceil_margin",
    hit_locations: bool = False,
    armor_covers=None,
) -> Pmf:
    """Exact total damage after defences of one autofire attack (see :func:`autofire`).

    Returns
    -------
    Pmf
        Over every outcome, a miss counting 0.
    """
    return autofire(
        av,
        dv_base,
        dc,
        shots,
        ratio,
        pd,
        sd,
        damage,
        dice,
        criticals,
        rule,
        hit_locations,
        armor_covers,
    ).damage


def burst(
    av: int,
    dv_base: int,
    dc: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
    hit_locations: bool = False,
    armor_covers=None,
) -> AutofireResult:
    """Exact hits and total damage of one burst (F16).

    A burst fires :data:`BURST_SHOTS` (3) shots with no attack penalty; on a hit
    ``ceil(1d6 / 2)`` bullets hit (1, 2 or 3, each with probability 1/3), each rolling its own
    damage against the armour.

    Parameters
    ----------
    av, dv_base, dc, pd, sd, damage, dice, criticals, hit_locations, armor_covers
        As in :func:`attack`.

    Returns
    -------
    AutofireResult
    """
    per_hit = _per_hit_counts(dc, pd, sd, damage, hit_locations, armor_covers)
    hits = _burst_hit_counts(av, dv_base, dice, criticals)
    return _result(hits, per_hit, BURST_SHOTS, 0, hit_locations)


def burst_hits(av: int, dv_base: int, dice: str = "hero", criticals: str = "both") -> Pmf:
    """Exact distribution of the bullets that hit in one burst (F16), a miss counting 0."""
    return Pmf.from_counts(0, _burst_hit_counts(av, dv_base, dice, criticals))


def burst_damage(
    av: int,
    dv_base: int,
    dc: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
    hit_locations: bool = False,
    armor_covers=None,
) -> Pmf:
    """Exact total damage after defences of one burst (see :func:`burst`)."""
    return burst(
        av, dv_base, dc, pd, sd, damage, dice, criticals, hit_locations, armor_covers
    ).damage


def _result(hits, per_hit, shots, penalty, hit_locations) -> AutofireResult:
    total = sum(hits)
    return AutofireResult(
        p_hit=(total - hits[0]) / total,
        hits=Pmf.from_counts(0, hits),
        damage=Pmf.from_counts(0, _total_damage_counts(hits, per_hit)),
        shots=shots,
        penalty=penalty,
        locations=_location_probs() if hit_locations else None,
    )


@dataclass(frozen=True)
class Fighter:
    """One side of the standing duel; every number is the fighter's own.

    Parameters
    ----------
    av : int
        Its attack value.
    dv_base : int
        Its defence base (what the opponent's attacks must beat, plus 10 or 1d10).
    dc : int
        Its weapon's damage class (killing d6).
    pd : int
        Its armour PD (reduces the opponent's killing damage).
    hits : int
        Its Hits.
    stun : int, optional
        Its Stun; None means equal to ``hits``.
    """

    av: int
    dv_base: int
    dc: int
    pd: int
    hits: int
    stun: int | None = None

    @property
    def out_at(self) -> int:
        """Killing damage taken at which it is out.

        Each Hit lost also costs 1 Stun (collateral, no SD; RULINGS F21), so after ``K`` killing
        damage Hits = hits - K and Stun = max(0, stun - K): the fighter is dying at Hits <= 0 or
        knocked out at Stun <= 0, both out of the fight (F23, F25, F26), i.e. at
        ``K >= min(hits, stun)``.
        """
        return min(self.hits, self.hits if self.stun is None else self.stun)


@dataclass(frozen=True, eq=False)
class DuelResult:
    """The exact outcome of the standing duel.

    Parameters
    ----------
    p_a_wins, p_b_wins : float
        Probability that B (respectively A) goes out first, within ``max_phases``.
    p_unresolved : float
        Probability that nobody is out after ``max_phases``.
    kill_time : Pmf
        Distribution of the 1-based index of the deciding phase, conditional on the duel being
        decided within ``max_phases`` (empty if it never is).
    """

    p_a_wins: float
    p_b_wins: float
    p_unresolved: float
    kill_time: Pmf

    @property
    def mean(self) -> float:
        """Mean deciding phase (conditional on a decision)."""
        return self.kill_time.mean

    @property
    def sd(self) -> float:
        """Standard deviation of the deciding phase (conditional on a decision)."""
        return self.kill_time.sd

    def to_json_dict(self) -> dict:
        """Plain-JSON form: probabilities, mean, sd and the kill-time pmf."""
        return {
            "p_a_wins": float(self.p_a_wins),
            "p_b_wins": float(self.p_b_wins),
            "p_unresolved": float(self.p_unresolved),
            "kill_time": {
                "mean": float(self.mean),
                "sd": float(self.sd),
                "pmf": self.kill_time.to_dict(),
            },
        }


def _transition(dmg: Pmf, cap: int) -> np.ndarray:
    """Matrix ``T[i, j] = P(damage taken goes from i to j)``, totals capped at ``cap``.

    Rows are the live states ``0 .. cap - 1``; columns ``0 .. cap`` (``cap`` = out).
    """
    t = np.zeros((cap, cap + 1))
    for v, p in zip(dmg.values, dmg.probs, strict=True):
        v = int(v)
        for i in range(cap):
            t[i, min(i + v, cap)] += p
    return t


def duel(
    a: Fighter,
    b: Fighter,
    dice: str = "hero",
    criticals: str = "both",
    max_phases: int = 200,
) -> DuelResult:
    """Exact outcome of two fighters standing still, one killing attack each per phase.

    In every phase A attacks first, then B, unless A's attack put B out (RULINGS F26). A
    fighter is out when the killing damage it has taken reaches :attr:`Fighter.out_at`. The
    joint distribution of damage taken, capped at the thresholds, is advanced phase by phase.

    Parameters
    ----------
    a, b : Fighter
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    max_phases : int, default 200
        Phases computed; the mass still undecided is reported as ``p_unresolved``.

    Returns
    -------
    DuelResult
    """
    if dice not in DICE:
        raise ValueError(f"dice must be one of {DICE}, got {dice!r}")
    _check(max_phases=max_phases)
    for who, f in (("a", a), ("b", b)):
        if not isinstance(f, Fighter):
            raise ArgumentError(f"{who}: expected a Fighter, got {type(f).__name__}")
        for name in ("hits", "stun"):
            value = getattr(f, name)
            if value is not None:
                check_int(f"{who}.{name}", value, *BOUNDS["out_at"])
    na, nb = a.out_at, b.out_at
    a_hits_b = attack(a.av, b.dv_base, a.dc, pd=b.pd, dice=dice, criticals=criticals).damage
    b_hits_a = attack(b.av, a.dv_base, b.dc, pd=a.pd, dice=dice, criticals=criticals).damage
    tb = _transition(a_hits_b, nb)  # B's damage taken, A attacking
    ta_t = _transition(b_hits_a, na).T.copy()  # A's damage taken, B attacking
    # state[i, j]: A has taken i, B has taken j, both still in.
    state = np.zeros((na, nb))
    state[0, 0] = 1.0
    a_wins = np.zeros(max_phases)
    b_wins = np.zeros(max_phases)
    for t in range(max_phases):
        after_a = state @ tb
        a_wins[t] = math.fsum(after_a[:, nb])
        after_b = ta_t @ after_a[:, :nb]
        b_wins[t] = math.fsum(after_b[na, :])
        state = after_b[:na, :]
        if not state.any():
            break
    p_a, p_b = min(1.0, math.fsum(a_wins)), min(1.0, math.fsum(b_wins))
    decided = a_wins + b_wins
    total = math.fsum(decided)
    phases = np.arange(1, max_phases + 1, dtype=np.int64)
    keep = decided > 0
    kill_time = Pmf(phases[keep], decided[keep] / total if total > 0 else decided[keep])
    return DuelResult(
        p_a_wins=p_a,
        p_b_wins=p_b,
        p_unresolved=max(0.0, math.fsum(state.ravel())),
        kill_time=kill_time,
    )


# --------------------------------------------------------------------------------------------
# Closed-form rules: Kills (F29), stabilising (F25), healing
# --------------------------------------------------------------------------------------------


def kill_dc(kills: int) -> int:
    """DC of a Kill-rated attack against a small (Hits/SDP) target, or for knockback against
    BODY: the first Kill is 14 DC, each further Kill +1 DC (RULINGS F28, F29).

    Parameters
    ----------
    kills : int
        ``>= 1``.

    Returns
    -------
    int
        ``14 + (kills - 1)`` (4 Kills: 17).
    """
    _check(kills=kills)
    return 14 + (kills - 1)


def superdamage_kills(dc: int) -> int:
    """Kills done by a small attacker's DC against a Kill-rated target (RULINGS F29).

    Parameters
    ----------
    dc : int
        ``>= 0``.

    Returns
    -------
    int
        0 below 14 DC, else ``1 + (dc - 14)``.
    """
    _check(dc=dc)
    return 0 if dc < 14 else 1 + (dc - 14)


def stabilise_dv(hits: int) -> int:
    """DV of the first-aid roll that stabilises a dying character: 2 x Hits below 0 (F25).

    Parameters
    ----------
    hits : int
        Current Hits (dying at 0 or below).

    Returns
    -------
    int
        ``2 * max(0, -hits)`` (Lazarus at -7: 14).
    """
    _check(hits=hits)
    return 2 * max(0, -int(hits))


def days_to_heal(hits_lost: int, rec: int) -> int:
    """Days of rest with medical care to heal ``hits_lost`` Hits: REC Hits a day (seed 000).

    Parameters
    ----------
    hits_lost : int
        ``>= 0``.
    rec : int
        Recovery, ``>= 1``.

    Returns
    -------
    int
        ``ceil(hits_lost / rec)`` (30 Hits at REC 10: 3 days).
    """
    _check(hits_lost=hits_lost, rec=rec)
    return -(-int(hits_lost) // int(rec))


def attack_value(
    ref: int,
    skill: int,
    accuracy: int = 0,
    *,
    distance: float = 0.0,
    weapon_range: float = 50.0,
    melee: bool = False,
    aim: int = 0,
    braced: bool = False,
    cover: str = "none",
    prone: bool = False,
    crouched: bool = False,
    silhouetted: bool = False,
    size: str = "normal",
    surprised: bool = False,
    modifiers: int = 0,
    target_moved: float = 0.0,
) -> int:
    """The attack value the kernel uses for one attack, from the sheet and the situation.

    AV = REF + skill + WA + range band (F10; ranged) + the target's cover, posture, size and
    silhouette (F11; the melee cover table for melee) + aim (at most +3) + braced (+2, ranged)
    + surprise (+5) + the GM's flat modifiers - 1 per full 10 m the target moved (ranged).
    Feed it to :func:`attack` as ``av`` to get the exact odds of that attack.
    """
    _check(ref=ref, skill=skill, accuracy=accuracy, aim=aim, modifiers=modifiers)
    distance = check_number("distance", distance, 0.0, 1e6)
    weapon_range = check_number("weapon_range", weapon_range, 0.0, 1e6, positive=True)
    target_moved = check_number("target_moved", target_moved, 0.0, 1e6)
    t_ranged, t_melee = target_modifiers(cover, size, prone, crouched, silhouetted)
    a_ranged, a_melee = attacker_modifiers(modifiers, braced)
    av = ref + skill + accuracy + (5 if surprised else 0)
    if melee:
        return av + t_melee + a_melee
    av += range_modifier(float(distance), float(weapon_range)) + t_ranged + a_ranged
    return av + min(max(aim, 0), 3) - int(target_moved // 10.0)
