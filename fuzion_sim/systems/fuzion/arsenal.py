"""The general kernel's change of weapon (M-76): a crew member or vehicle that fires several
vehicle weapons takes up the one a tactic names (``do: attack, weapon: NAME``) before the
action. The plan's per-combatant weapon arrays (``compile.ARM_INT_FIELDS`` and
``ARM_FLOAT_FIELDS``) always hold the weapon in hand, so every room of the kernel reads the
weapon as it does for anyone else; taking up another writes its row of ``arms_i`` / ``arms_f``
over them, keeps the magazine of the one put down, and refreshes the range band of the taker's
row of the pair tables.

Both entry points are *called* by the trial loop (compiled without reference counting), never
inlined: a fight in which nobody fires several weapons never enters them.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..._jit import jit
from .actions import moved_geometry
from .codes import ARC_ALL, ARC_FRONT, ARC_LEFT, ARC_REAR, ARC_RIGHT, ARM_SHOTS

#: ``arms``: the weapons of those who fire several: each one's first row (-1: one weapon), the
#: row in hand now, each row's magazine while put down, and the rows (``compile.arsenal_arrays``)
Arsenal = namedtuple("Arsenal", "start cur ammo rows_i rows_f")


@jit(_nrt=False)
def equip(a, k, arm_cur, arm_ammo, arms_i, arms_f, att_skill, w_melee, w_dmg, w_dc, w_acc,
          w_min_str, w_ap, w_energy, w_shots, w_reload, w_kills, w_blade, w_autofire, w_rof,
          w_explosive, att_mod_r, att_mod_m, w_arc, w_missile, w_mdv, w_range, w_area, ammo,
          reloading, aim, px, py, dist, rmod):  # fmt: skip
    """Combatant ``a`` takes up weapon row ``k`` (its magazine as it was left; the one put
    down keeps its own, a reload under way is lost, and so is the aim, which was with the
    other weapon). The columns are ``compile.ARM_INT_FIELDS`` then ``ARM_FLOAT_FIELDS``."""
    old = arm_cur[a]
    if old == k:
        return
    if old >= 0:
        arm_ammo[old] = ammo[a]
    arm_cur[a] = k
    row = arms_i[k]
    att_skill[a] = row[0]
    w_melee[a] = row[1]
    w_dmg[a] = row[2]
    w_dc[a] = row[3]
    w_acc[a] = row[4]
    w_min_str[a] = row[5]
    w_ap[a] = row[6]
    w_energy[a] = row[7]
    w_shots[a] = row[8]
    w_reload[a] = row[9]
    w_kills[a] = row[10]
    w_blade[a] = row[11]
    w_autofire[a] = row[12]
    w_rof[a] = row[13]
    w_explosive[a] = row[14]
    att_mod_r[a] = row[15]
    att_mod_m[a] = row[16]
    w_arc[a] = row[17]
    w_missile[a] = row[18]
    w_mdv[a] = row[19]
    w_range[a] = arms_f[k, 0]
    w_area[a] = arms_f[k, 1]
    ammo[a] = arm_ammo[k]
    reloading[a] = 0
    aim[a] = 0
    moved_geometry(a, px, py, w_range, dist, rmod)  # the range bands of its new weapon


@jit(_nrt=False)
def rearm(arm_start, arm_cur, arm_ammo, arms_i, arms_f, att_skill, w_melee, w_dmg, w_dc, w_acc,
          w_min_str, w_ap, w_energy, w_shots, w_reload, w_kills, w_blade, w_autofire, w_rof,
          w_explosive, att_mod_r, att_mod_m, w_arc, w_missile, w_mdv, w_range, w_area, ammo,
          reloading, aim, px, py, dist, rmod):  # fmt: skip
    """At a trial's start: everyone who fires several weapons has its first in hand again
    (``arm_start``) and every weapon's magazine is full (the caller then fills ``ammo`` from
    ``w_shots`` and works out the pair tables)."""
    for c in range(arm_start.shape[0]):
        if arm_start[c] >= 0 and arm_cur[c] != arm_start[c]:
            equip(c, arm_start[c], arm_cur, arm_ammo, arms_i, arms_f, att_skill, w_melee, w_dmg,
                  w_dc, w_acc, w_min_str, w_ap, w_energy, w_shots, w_reload, w_kills, w_blade,
                  w_autofire, w_rof, w_explosive, att_mod_r, att_mod_m, w_arc, w_missile, w_mdv,
                  w_range, w_area, ammo, reloading, aim, px, py, dist, rmod)  # fmt: skip
    for k in range(arms_i.shape[0]):
        arm_ammo[k] = arms_i[k, ARM_SHOTS]


@jit(inline="always")
def bears(arc, dx, dy, heading, front_arc):
    """Whether a weapon covering ``arc`` (``codes.ARC_*``) bears on a target ``(dx, dy)`` from
    the vehicle facing ``heading`` (radians): the front and rear arcs are ``front_arc``
    degrees either side of the heading and of its reverse (VA-05; their edges belong to
    them), the left and right arcs the rest, to the left (counter-clockwise) and to the right.
    A target on top of the vehicle is in every arc."""
    if arc == ARC_ALL or (dx == 0.0 and dy == 0.0):
        return True
    turn = np.arctan2(dy, dx) - heading
    signed = np.arctan2(np.sin(turn), np.cos(turn)) * (180.0 / np.pi)
    angle = abs(signed)
    front = angle <= front_arc + 1e-9
    rear = angle >= 180.0 - front_arc - 1e-9
    if arc == ARC_FRONT:
        return front
    if arc == ARC_REAR:
        return rear
    if front or rear:
        return False
    if arc == ARC_LEFT:
        return signed > 0.0
    if arc == ARC_RIGHT:
        return signed < 0.0
    return True  # sides
