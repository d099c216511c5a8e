"""Jitted pieces the FUDGE kernels share, so that they draw the same numbers in the same
order and apply the same rules: the draws (one generator step per shot, per roll), the wound
applied to a member (track, hit location, crippling, out and death), and the duel's and the
battle's table of shot outcomes (built from the same :func:`~.rules.shot` the general kernel
calls)."""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.rng import index32, xoshiro_bits
from .codes import (
    CORE_DEAD,
    L_DEAD,
    L_INCAPACITATED,
    NO_DODGE,
    OPT_CORE_DEAD,
    OPT_CORE_UP,
    OPT_CRIPPLE_OUT,
    OPT_HEAD,
    OPT_OUT_LEVEL,
    OPT_TRACK,
    TRACK_FIREARMS,
)
from .dice import roll_of_index, two_rolls
from .rules import level_of, penalty, shot, take

__all__ = [
    "CAN_BIT", "DEAD_BIT", "GONE_BIT", "LOW32", "N81", "draw_roll", "draw_shot",
    "firearms_edges", "roll_of_bits", "shot_table", "sides_standing", "state_bits", "wound",
]  # fmt: skip

LOW32 = np.uint64(0xFFFFFFFF)
#: A duel state's bits above its penalty row (0-2): it can act, it is out, it is dead (the
#: core track's, ``state_bits``).
CAN_BIT = 4
GONE_BIT = 8
DEAD_BIT = 16
N81 = np.uint64(81)


_NEVER = np.int64(1) << np.int64(60)
_S32 = np.uint64(32)


@jit(inline="always")
def roll_of_bits(bits):
    """A 4dF roll from 32 random bits."""
    return roll_of_index(np.int64(index32(bits, N81)))


@jit(inline="always")
def draw_roll(s0, s1, s2, s3):
    """One generator step, one 4dF roll (its low 32 bits)."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    return s0, s1, s2, s3, roll_of_bits(x & LOW32)


@jit(inline="always")
def draw_shot(s0, s1, s2, s3):
    """One generator step for a shot: the index of its two rolls (to hit, the Damage Roll)
    from the low 32 bits, the rolls, and the high 32 bits (the target's dodge roll)."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    idx, ra, rb = two_rolls(x & LOW32)
    return s0, s1, s2, s3, idx, ra, rb, x >> _S32


@jit(inline="always")
def wound(t, damage, critical, part, rnd, options, side, width, dead_at, loc_blow, loc_total,
          trk, lvl, outs, deaths, crip, part_dmg, part_crip, side_left, location_hits,
          crippled_parts):  # fmt: skip
    """Member ``t`` takes a hit of ``damage`` (on ``part``, -1: no location) in round
    ``rnd``: its track (U3), the part's damage and crippling (U5, UA27: a crippled head is
    Dead), its level, death and whether it goes out (UA15). Returns (1 if its side has no
    one left standing now else 0, the part newly crippled or -1)."""
    track = options[OPT_TRACK]
    trk[t] = take(trk[t], damage, critical, track, width[t], dead_at[t],
                  options[OPT_CORE_UP] != 0, options[OPT_CORE_DEAD])  # fmt: skip
    newly = -1
    if part >= 0:
        location_hits[t, part] += 1
        q = t * 9 + part
        part_dmg[q] += damage
        if part_crip[q] == 0:
            blow, total = loc_blow[part], loc_total[part]
            if (blow > 0 and damage >= blow) or (total > 0 and part_dmg[q] >= total):
                part_crip[q] = 1
                crippled_parts[t, part] += 1
                crip[t] = 1
                newly = part
                if part == options[OPT_HEAD]:
                    if track == TRACK_FIREARMS:
                        trk[t] = trk[t] if trk[t] > dead_at[t] else dead_at[t]
                    else:
                        trk[t] = trk[t] | CORE_DEAD
    level = level_of(trk[t], track, width[t], dead_at[t])
    lvl[t] = level
    if level == L_DEAD and deaths[t] == 0:
        deaths[t] = rnd
    emptied = 0
    if outs[t] == 0 and (level >= options[OPT_OUT_LEVEL]
                         or (crip[t] != 0 and options[OPT_CRIPPLE_OUT] != 0)):  # fmt: skip
        outs[t] = rnd
        side_left[side[t]] -= 1
        if side_left[side[t]] == 0:
            emptied = 1
    return emptied, newly


@jit
def shot_table(skill, pair_need, pair_bonus, pair_dmg, n_dmg_parts, n_comb, shot_roll, bits,
               attackers, targets, out):  # fmt: skip
    """The shot outcomes of the pairs ``attackers[k]`` on ``targets[k]`` (no dodge, no hit
    location): ``out[k * 6561 + idx]`` holds the outcome of the shot with roll index ``idx``
    (``dice.two_rolls``) at wound penalty ``-p`` in its bits ``p * bits .. (p + 1) * bits -
    1``, p = 0, 1, 2: 0 for a miss, 2 x damage + 1 for a hit. The duel's table is that of
    the pairs 0 on 1 and 1 on 0; a battle's has a row per shot class."""
    for k in range(attackers.shape[0]):
        a = attackers[k]
        q = a * n_comb + targets[k]
        for idx in range(6561):
            ra = roll_of_index(np.int64(idx // 81))
            rb = roll_of_index(np.int64(idx % 81))
            packed = np.int64(0)
            for p in range(3):
                hit, row, _ = shot(ra, rb, skill[a], pair_bonus[q], np.int64(-p), pair_need[q],
                                   np.int64(NO_DODGE), shot_roll)  # fmt: skip
                code = 2 * pair_dmg[(q * n_dmg_parts) * 9 + row + 4] + 1 if hit else 0
                packed |= np.int64(code) << (p * bits)
            out[k * 6561 + idx] = packed


@jit(inline="always")
def firearms_edges(width, dead_at, pen_on, out_level):
    """A firearms track's band edges that matter in a gunfight (U3, UA11): the points at which
    the -1 and -2 penalties start (never without penalties, UA14), at which the member can no
    longer act (Incapacitated) and at which it is out (``out_at``, UA15)."""
    hurt = width + 1 if pen_on else _NEVER
    very = 2 * width + 1 if pen_on else _NEVER
    helpless = 3 * width + 1
    if out_level == 4:
        gone = helpless
    elif out_level == 5:
        gone = 4 * width + 1
    else:
        gone = dead_at
    return hurt, very, helpless, gone


@jit(inline="always")
def state_bits(level, pen_on, out_level):
    """What a wound level means in a duel: the penalty row (0 .. 2, UA14), can act (below
    Incapacitated), out (UA15) and dead, as bits."""
    bits = -penalty(level, pen_on)
    if level < L_INCAPACITATED:
        bits += CAN_BIT
    if level >= out_level:
        bits += GONE_BIT
    if level == L_DEAD:
        bits += DEAD_BIT
    return bits


@jit(inline="always")
def sides_standing(side_left, n_sides):
    """(the sides with someone standing, the last such side): the fight is over when at most
    one is left (``side_left[s]``: those of side ``s`` still in the fight)."""
    count = 0
    last = -1
    for s in range(n_sides):
        if side_left[s] > 0:
            count += 1
            last = s
    return count, last
