"""Hand-written baselines of the benchmark duel: plain Python and vectorised numpy.

Both implement the standing duel of PERFORMANCE-NOTES.md with the engine's rules, one die at
a time, independently of fuzion_sim's kernel (they are what the kernel is measured against):

- each phase A attacks B, then B attacks A unless A's attack put B out (RULINGS F26);
- an attack hits iff ``AV + attacker roll >= dv_base + defender roll``. HERO: the attacker
  rolls 3d6 (with criticals a natural 18 adds 2d6 and a natural 3 subtracts 2d6) against the
  constant 10. Interlock: 1d10 each (with criticals a natural 10 adds a d10 and a natural 1
  subtracts one; the defender's die is critical only under criticals "both");
- a hit does ``DC d6 - PD`` killing damage, never below 0; a fighter is out once the damage it
  has taken reaches its Hits.

Exact answers (``fuzion_sim.exact.duel``): P(A wins) = 0.604623 (HERO, criticals both) and
0.573434 (Interlock, criticals attacker).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

__all__ = ["DUEL", "DuelSide", "DuelTally", "EXACT", "duel_numpy", "duel_python"]


@dataclass(frozen=True)
class DuelSide:
    """One fighter of the standing duel (its own AV, defence base, weapon DC, armour, Hits)."""

    av: int = 11
    dv_base: int = 9
    dc: int = 4
    pd: int = 6
    hits: int = 30


#: The benchmark duel: two identical fighters.
DUEL = DuelSide()

#: Exact P(A wins) and mean deciding phase per (dice, criticals).
EXACT = {("hero", "both"): (0.604623, 4.318834), ("interlock", "attacker"): (0.573434, 5.031652)}

MAX_PHASES = 200


@dataclass
class DuelTally:
    """Outcome counts of a batch of duels; ``phase_sum`` over decided duels."""

    trials: int
    a_wins: int
    b_wins: int
    phase_sum: int

    @property
    def p_a(self) -> float:
        return self.a_wins / self.trials

    @property
    def mean_phases(self) -> float:
        return self.phase_sum / max(1, self.a_wins + self.b_wins)

    def se_a(self, p: float) -> float:
        """Standard error of ``p_a`` if the true probability is ``p``."""
        return (p * (1 - p) / self.trials) ** 0.5


def _check(dice: str, criticals: str) -> None:
    if dice not in ("hero", "interlock"):
        raise ValueError(f"dice must be 'hero' or 'interlock', got {dice!r}")
    if criticals not in ("both", "attacker", "none"):
        raise ValueError(f"criticals must be 'both', 'attacker' or 'none', got {criticals!r}")


# --------------------------------------------------------------------------------------------
# Plain Python: random.randint per die
# --------------------------------------------------------------------------------------------


def duel_python(
    trials: int,
    seed: int = 1,
    dice: str = "hero",
    criticals: str = "both",
    a: DuelSide = DUEL,
    b: DuelSide = DUEL,
) -> DuelTally:
    """Run ``trials`` duels one at a time in plain Python, ``random.randint`` per die.

    Parameters
    ----------
    trials, seed : int
        Duels to run and the seed of a ``random.Random``.
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    a, b : DuelSide
        The fighter who attacks first in every phase, and the other.

    Returns
    -------
    DuelTally
    """
    _check(dice, criticals)
    randint = random.Random(seed).randint
    att_crit = criticals != "none"
    def_crit = criticals == "both"

    def d10(crit):
        r = randint(1, 10)
        if crit and r == 10:
            return r + randint(1, 10)
        if crit and r == 1:
            return r - randint(1, 10)
        return r

    def attack(att: DuelSide, dfn: DuelSide) -> int:
        if dice == "hero":
            roll = randint(1, 6) + randint(1, 6) + randint(1, 6)
            if att_crit and roll == 18:
                roll += randint(1, 6) + randint(1, 6)
            elif att_crit and roll == 3:
                roll -= randint(1, 6) + randint(1, 6)
            hit = att.av + roll >= dfn.dv_base + 10
        else:
            hit = att.av + d10(att_crit) >= dfn.dv_base + d10(def_crit)
        if not hit:
            return 0
        dmg = 0
        for _ in range(att.dc):
            dmg += randint(1, 6)
        return max(0, dmg - dfn.pd)

    a_wins = b_wins = phase_sum = 0
    for _ in range(trials):
        taken_a = taken_b = 0
        for phase in range(1, MAX_PHASES + 1):
            taken_b += attack(a, b)
            if taken_b >= b.hits:
                a_wins += 1
                phase_sum += phase
                break
            taken_a += attack(b, a)
            if taken_a >= a.hits:
                b_wins += 1
                phase_sum += phase
                break
    return DuelTally(trials, a_wins, b_wins, phase_sum)


# --------------------------------------------------------------------------------------------
# numpy: every duel advanced together, undecided ones selected by masks
# --------------------------------------------------------------------------------------------


def _np_attack(rng, n: int, dice: str, criticals: str, att: DuelSide, dfn: DuelSide):
    """Damage of ``n`` attacks of ``att`` on ``dfn`` (int64[n])."""
    if dice == "hero":
        d = rng.integers(1, 7, size=(5, n), dtype=np.int16)
        roll = d[0] + d[1] + d[2]
        if criticals != "none":
            extra = d[3] + d[4]
            roll = np.where(roll == 18, roll + extra, np.where(roll == 3, roll - extra, roll))
        hit = att.av + roll >= dfn.dv_base + 10
    else:
        d = rng.integers(1, 11, size=(4, n), dtype=np.int16)

        def crit(first, extra, on):
            if not on:
                return first
            return np.where(first == 10, first + extra, np.where(first == 1, first - extra, first))

        hit = att.av + crit(d[0], d[1], criticals != "none") >= dfn.dv_base + crit(
            d[2], d[3], criticals == "both"
        )
    dice_d = rng.integers(1, 7, size=(att.dc, n), dtype=np.int16)
    dmg = dice_d.sum(axis=0, dtype=np.int16) - dfn.pd
    return np.where(hit, np.maximum(dmg, 0), 0)


def duel_numpy(
    trials: int,
    seed: int = 1,
    dice: str = "hero",
    criticals: str = "both",
    a: DuelSide = DUEL,
    b: DuelSide = DUEL,
    block: int = 1 << 20,
) -> DuelTally:
    """Run ``trials`` duels with numpy, all duels of a block advanced phase by phase together.

    Each phase the undecided duels are compressed into dense arrays, every die for them is
    drawn at once (``Generator.integers``, PCG64), and the decided ones are dropped.

    Parameters
    ----------
    trials, seed : int
        Duels to run and the seed of ``numpy.random.default_rng``.
    dice : {'hero', 'interlock'}
    criticals : {'both', 'attacker', 'none'}
    a, b : DuelSide
        The fighter who attacks first in every phase, and the other.
    block : int
        Duels advanced together (bounds memory).

    Returns
    -------
    DuelTally
    """
    _check(dice, criticals)
    rng = np.random.default_rng(seed)
    a_wins = b_wins = phase_sum = 0
    for lo in range(0, trials, block):
        n = min(block, trials - lo)
        taken_a = np.zeros(n, np.int64)
        taken_b = np.zeros(n, np.int64)
        for phase in range(1, MAX_PHASES + 1):
            if n == 0:
                break
            taken_b += _np_attack(rng, n, dice, criticals, a, b)
            b_out = taken_b >= b.hits
            k = int(b_out.sum())
            a_wins += k
            phase_sum += k * phase
            live = ~b_out
            taken_a, taken_b = taken_a[live], taken_b[live]
            n = taken_a.size
            taken_a += _np_attack(rng, n, dice, criticals, b, a)
            a_out = taken_a >= a.hits
            k = int(a_out.sum())
            b_wins += k
            phase_sum += k * phase
            live = ~a_out
            taken_a, taken_b = taken_a[live], taken_b[live]
            n = taken_a.size
    return DuelTally(trials, a_wins, b_wins, phase_sum)
