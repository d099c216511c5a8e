"""Small jitted functions, one mechanic each, that every FUDGE kernel composes (so a rule is
written once): the to-hit roll and the shot modifier's row (UA3-UA5), the wound tracks (U3,
UA11-UA13), penalties (UA14), and the blast's fragmentation (U4, UA23).
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from .codes import (
    CORE_DEAD,
    CORE_HURT,
    CORE_SCRATCHES,
    L_DEAD,
    L_INCAPACITATED,
    L_NEAR_DEATH,
    POOR,
    SHOT_ATTACK_DICE,
    SHOT_SEPARATE,
    TRACK_FIREARMS,
)

__all__ = [
    "core_hit_level",
    "core_level",
    "core_mark",
    "firearms_level",
    "fragments",
    "level_of",
    "penalty",
    "shot",
    "take",
]


@jit(inline="always")
def penalty(level, on):
    """UA14: Hurt -1, Very Hurt -2 to the shooter's, dodger's and Explosives rolls (none
    below Hurt; a member at Incapacitated or worse does not roll)."""
    if not on or level < 2:
        return np.int64(0)
    return np.int64(-1) if level == 2 else np.int64(-2)


@jit(inline="always")
def shot(roll_a, roll_b, skill, bonus, pen, need, dodge_res, shot_roll):
    """One shot (UA3-UA5): ``(hit, row, result)``.

    The result is skill + 4dF (``roll_a``) + the equipment bonus (and, with
    ``modifiers_on: skill``, the situational modifiers) + the wound penalty. It hits at or
    above ``need`` (the DL), above the dodge result, and never below Poor. The shot
    modifier's row is the separate Damage Roll ``roll_b``, the attack's own dice, or the
    margin over max(DL, dodge) capped at +4.
    """
    result = skill + roll_a + bonus + pen
    hit = result >= need and result > dodge_res and result >= POOR
    if shot_roll == SHOT_SEPARATE:
        row = roll_b
    elif shot_roll == SHOT_ATTACK_DICE:
        row = roll_a
    else:
        top = need if need > dodge_res else dodge_res
        row = result - top
        row = row if row < 4 else np.int64(4)
        row = row if row > -4 else np.int64(-4)
    return hit, row, result


@jit(inline="always")
def firearms_level(points, width, dead_at):
    """U3 / UA11: level ceil(points / width), Scratch to Near Death, Dead at ``dead_at`` (the
    number of band starts ``(L - 1) width + 1`` reached, without a division: ``dead_at`` is
    past the start of Near Death)."""
    return (
        np.int64(points >= 1) + np.int64(points > width) + np.int64(points > 2 * width)
        + np.int64(points > 3 * width) + np.int64(points > 4 * width)
        + np.int64(points >= dead_at)
    )  # fmt: skip


@jit(inline="always")
def core_level(state):
    """The core track's condition: its worst marked box (UA13)."""
    if state & CORE_DEAD:
        return np.int64(L_DEAD)
    for level in range(L_NEAR_DEATH, 1, -1):
        if state & (CORE_HURT << (level - 2)):
            return np.int64(level)
    return np.int64(1) if state & CORE_SCRATCHES else np.int64(0)


@jit(inline="always")
def core_hit_level(damage, dead_damage):
    """U3's per-hit table: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near
    Death; ``dead_damage`` >= 1 makes a hit of that much Dead (UA13)."""
    if dead_damage > 0 and damage >= dead_damage:
        return np.int64(L_DEAD)
    if damage <= 0:
        return np.int64(0)
    level = (damage + 1) // 2
    return level if level < L_NEAR_DEATH else np.int64(L_NEAR_DEATH)


@jit(inline="always")
def core_mark(state, level, up):
    """Mark a wound of ``level`` on the core track (UA13): 3 Scratch boxes, one box each
    above; a full level moves up to the next free box (``up``) or drops the wound; past
    Near Death is Dead."""
    if level <= 0:
        return state
    if level >= L_DEAD:
        return state | CORE_DEAD
    if level == 1:
        if (state & CORE_SCRATCHES) < 3:
            return state + 1
        if not up:
            return state
        level = 2
    while level <= L_NEAR_DEATH:
        bit = CORE_HURT << (level - 2)
        if not state & bit:
            return state | bit
        if not up:
            return state
        level += 1
    return state | CORE_DEAD


@jit(inline="always")
def take(track_state, damage, critical, track, width, dead_at, up, dead_damage):
    """A member's track after a hit of ``damage`` (U3); ``critical``: a Damage Roll of +4
    under ``shot_critical: incapacitate`` makes it at least Incapacitated (UA6)."""
    if track == TRACK_FIREARMS:
        points = track_state + damage
        if critical:
            floor = 3 * width + 1
            points = points if points > floor else floor
        return points
    level = core_hit_level(damage, dead_damage)
    if critical and level < L_INCAPACITATED:
        level = np.int64(L_INCAPACITATED)
    return core_mark(track_state, level, up)


@jit(inline="always")
def level_of(track_state, track, width, dead_at):
    """A member's wound level (0 none .. 6 dead) from its track."""
    if track == TRACK_FIREARMS:
        return firearms_level(track_state, width, dead_at)
    return core_level(track_state)


@jit(inline="always")
def fragments(zone, roll):
    """U4: inside the burst radius (zone 1) a Situational Roll of Good or better avoids 4;
    within twice it (zone 2) Mediocre or better avoids 2."""
    if zone == 1:
        return np.int64(4) if roll < 1 else np.int64(0)
    if zone == 2:
        return np.int64(2) if roll < -1 else np.int64(0)
    return np.int64(0)
