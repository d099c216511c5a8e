"""Exact answers for single Fuzion attacks and for the standing duel (the test oracles).

:func:`attack` gives the exact hit probability and damage distribution of one attack
(RULINGS F1-F3, F19-F20) from integer outcome counts. :func:`duel` gives the exact outcome of
two fighters who stand still and exchange one killing attack each per phase, A first in every
phase, by dynamic programming over the joint distribution of damage taken (RULINGS F21, F26).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fuzion_sim.dice import DICE, Pmf, _difference_counts, _nd6_counts

__all__ = ["AttackResult", "DuelResult", "Fighter", "attack", "duel"]

_DAMAGE = ("killing", "stun")


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
            floats and keys in increasing order of value.
        """
        return {
            "p_hit": float(self.p_hit),
            "damage": {"mean": float(self.mean), "pmf": self.damage.to_dict()},
        }


def attack(
    av: int,
    dv_base: int,
    dc: int,
    pd: int = 0,
    sd: int = 0,
    damage: str = "killing",
    dice: str = "hero",
    criticals: str = "both",
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

    Returns
    -------
    AttackResult
    """
    if damage not in _DAMAGE:
        raise ValueError(f"damage must be one of {_DAMAGE}, got {damage!r}")
    if dc < 0:
        raise ValueError(f"dc must be >= 0, got {dc}")
    dlo, dcounts = _difference_counts(dice, criticals)
    d_total = sum(dcounts)
    need = dv_base - av
    hit = sum(c for i, c in enumerate(dcounts) if dlo + i >= need)
    armour = pd if damage == "killing" else max(pd, sd)
    slo, scounts = _nd6_counts(int(dc))
    s_total = sum(scounts)
    hi = max(0, slo + len(scounts) - 1 - armour)
    out = [0] * (hi + 1)
    out[0] = (d_total - hit) * s_total
    for i, c in enumerate(scounts):
        out[max(0, slo + i - armour)] += hit * c
    return AttackResult(p_hit=hit / d_total, damage=Pmf.from_counts(0, out))


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
    na, nb = a.out_at, b.out_at
    if na < 1 or nb < 1:
        raise ValueError("both fighters must start in the fight (out_at >= 1)")
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
