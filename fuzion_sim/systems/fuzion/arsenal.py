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

from ..._jit import INNER, jit
from .actions import moved_geometry
from .codes import (
    ARC_ALL,
    ARC_FRONT,
    ARC_LEFT,
    ARC_REAR,
    ARC_RIGHT,
    ARM_MISSILE,
    ARM_SHOTS,
    VS_NO_MOVE,
    VS_WEAPONLESS,
)
from .tactics import A_AIM, A_RELOAD

#: ``arms``: the weapons of those who fire several: each one's first row (-1: one weapon), the
#: row in hand now, each row's magazine while put down, and the rows (``compile.arsenal_arrays``)
Arsenal = namedtuple("Arsenal", "start cur ammo rows_i rows_f")


@jit(**INNER)
def equip(a, k, arms, wp, sh, md, mc, st, wh, w_shots, w_reload, w_arc, reloading):
    """Combatant ``a`` takes up weapon row ``k`` of ``arms`` (:class:`Arsenal`; its magazine as
    it was left; the one put down keeps its own, a reload under way is lost, and so is the aim,
    which was with the other weapon). The columns are ``compile.ARM_INT_FIELDS`` then
    ``ARM_FLOAT_FIELDS``; the arrays they go to are the kernel's groups' (``strike.Weapons``
    ``wp``, ``Sheet`` ``sh``, ``Mods`` ``md``, ``vehicles.room.Mecha`` ``mc``, ``Stance`` ``st``,
    ``Where`` ``wh``) and three of its own."""
    old = arms.cur[a]
    if old == k:
        return
    if old >= 0:
        arms.ammo[old] = st.ammo[a]
    arms.cur[a] = k
    row = arms.rows_i[k]
    sh.att_skill[a] = row[0]
    wp.melee[a] = row[1]
    wp.dmg[a] = row[2]
    wp.dc[a] = row[3]
    wp.acc[a] = row[4]
    wp.min_str[a] = row[5]
    wp.ap[a] = row[6]
    wp.energy[a] = row[7]
    w_shots[a] = row[ARM_SHOTS]
    w_reload[a] = row[9]
    wp.kills[a] = row[10]
    wp.blade[a] = row[11]
    wp.autofire[a] = row[12]
    wp.rof[a] = row[13]
    wp.explosive[a] = row[14]
    md.att_mod_r[a] = row[15]
    md.att_mod_m[a] = row[16]
    w_arc[a] = row[17]
    wp.missile[a] = row[ARM_MISSILE]
    wp.mdv[a] = row[19]
    wp.range[a] = arms.rows_f[k, 0]
    wp.area[a] = arms.rows_f[k, 1]
    mc.rscale[a] = arms.rows_f[k, 2]
    st.ammo[a] = arms.ammo[k]
    reloading[a] = 0
    st.aim[a] = 0
    moved_geometry(a, wh.px, wh.py, wp.range, wh.dist, wh.rmod)  # its new weapon's bands


@jit(**INNER)
def rearm(arms, wp, sh, md, mc, st, wh, w_shots, w_reload, w_arc, reloading):
    """At a trial's start: everyone who fires several weapons has its first in hand again
    (``arms.start``) and every weapon's magazine is full (the caller then fills the magazines
    in hand from ``w_shots`` and works out the pair tables)."""
    for c in range(arms.start.shape[0]):
        if arms.start[c] >= 0 and arms.cur[c] != arms.start[c]:
            equip(c, arms.start[c], arms, wp, sh, md, mc, st, wh, w_shots, w_reload, w_arc,
                  reloading)  # fmt: skip
    for k in range(arms.rows_i.shape[0]):
        arms.ammo[k] = arms.rows_i[k, ARM_SHOTS]


@jit(**INNER)
def take_up(a, tgt, action, param, arms, wp, sh, md, mc, st, wh, w_shots, w_reload, w_arc,
            w_mounted, reloading, vclass, carrier, vstate, hd, front_arc):  # fmt: skip
    """Before ``a``'s ``action`` (one that uses a weapon): the weapon its rule names (``param``,
    1 + its index; 0: the one in hand) is taken up (:func:`equip`); a vehicle weapon (``w_mounted``)
    of a vehicle whose Weapon location is lost does nothing (VA-11); then, for an attack, a
    vehicle weapon covering an arc must bear on ``tgt`` from the heading of the vehicle ``a``
    is (or rides in): when it does not, the vehicle itself (not a gunner, nor one immobile or
    out of control) turns to face ``tgt`` instead. Returns ``(bears, turned)``: ``turned`` 1
    when the vehicle turned, -1 when its weapons are out of action. The trial loop's one call
    for all of it (each call site in it costs, taken or not)."""
    if param > 0 and arms.start[a] >= 0:
        equip(a, arms.start[a] + param - 1, arms, wp, sh, md, mc, st, wh, w_shots, w_reload,
              w_arc, reloading)  # fmt: skip
    v = a if vclass[a] > 0 else carrier[a]
    if w_mounted[a] and v >= 0 and vstate[v] & VS_WEAPONLESS:
        return False, -1
    arc = w_arc[a]
    if arc == ARC_ALL or action == A_AIM or action == A_RELOAD:
        return True, 0
    dx = wh.px[tgt] - wh.px[v]
    dy = wh.py[tgt] - wh.py[v]
    if bears(arc, dx, dy, hd[v], front_arc):
        return True, 0
    if v == a and vstate[a] & VS_NO_MOVE == 0:
        hd[a] = np.arctan2(dy, dx)
        return False, 1
    return False, 0


@jit(_nrt=False)
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
