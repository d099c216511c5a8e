"""The general kernel's falls and knockback into obstacles (../shared/rulings/vehicles/
mechanics.md M-40, M-59 to M-62, M-72; rulings.md VA-35 to VA-38, VA-41).

A room of its own over one group, :data:`Impacts` (``im``): each combatant's row of the
Falling & Collisions table (its weight, VA-36), the obstacles (rectangles, their structure and
what is left of it in this trial), the drops (circles and their height), the table's DC and
Kills, the bands of its columns (fall heights, VA-35; closing speeds, VA-38), the switches and
the counters. The kernel calls these entry points, each compiled with ``_nrt=False`` and never
inlined, each behind the one flag ``any_impact`` (a fight with an obstacle or a drop) worked
out once a chunk:

* :func:`reset_trial` at the start of every trial;
* :func:`knocked` after a strike that knocked its target back (F28): the knockback's path
  from where the target stood meets the first unbroken obstacle (it stops there and both take
  the table's DC for its weight over the full knockback distance, VA-41 ``as_fall``; or at the
  distance per phase as a closing speed, ``speed``; or nothing, ``none``) or a drop (it falls
  the drop's height, M-72); an obstacle whose structure reaches 0 breaks and the target goes on
  through it to the rest of its knockback (the brick through the wall);
* :func:`jump` for the ``jump`` action: the jumper goes to the drop and falls its height;
* with ``obstacles_block`` (M-10, on by default) :func:`line_blocked` before an attack (no line
  of fire through an unbroken obstacle: the action is spent);
* :func:`on_ground` after a move on foot: terrain zones slow it (VA-51,
``features/scene/terrain.py``) and,
  with ``obstacles_block``, it stops at an obstacle's face.

A fall or collision does the table's DC (xK = 13 + x) of Killing damage against PD
(``impact_damage: killing``, ``impact_armour: true``, VA-37), or Stun against the higher of PD
and SD; a Kill-rated target takes the entry's Kills against its Kill armour (a plain DC: none).
The one who fell lands below, prone until its next action (it stands up, as after a sweep), and
no drop takes it further down.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import xoshiro
from ... import tactics as tx
from ...actions import moved_geometry, note_move
from ...codes import (
    EV_ACTION,
    EV_ACTOR,
    EV_DV,
    EV_FLAGS,
    EV_HITS,
    EV_KIND,
    EV_RAW,
    EV_ROLL,
    EV_SHOTS,
    EV_STUN,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_BLOCKED,
    EVENT_COLLISION,
    EVENT_FALL,
    EVENT_IDLE,
    EVENT_KNOCKBACK,
    EVENT_MOVE,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_HIT,
    FLAG_OUT,
    SCALE_KILLS,
    SCALE_OBJECT,
)
from ...dice import TABLE_DICE
from ...kernel_parts import land_wound, log_event
from ...rules import KILLING, STUN, penetration, split_through
from ..vehicles.room import carry_crew
from .terrain import has_terrain, slowed

#: The seconds of a phase (a 12-second round of 4 phases): knockback metres per phase as a
#: closing speed (VA-41 ``knockback_collision: speed``).
PHASE_SECONDS = 3.0
#: ``kb_mode``: VA-41 knockback_collision
KB_AS_FALL = 0
KB_SPEED = 1
KB_NONE = 2
#: Where a target stops short of an obstacle it hit (metres before the face).
_STANDOFF = 0.01
#: A fall line's action (``EV_ACTION``) when a vehicle went over the edge in motion
#: (``motion.room._path``; the others are the ``jump`` or no action, a knockback).
FALL_OVER_EDGE = -1

#: ``im``: the falls and obstacles (``compile.impact_arrays``; the trial's state and counters)
Impacts = namedtuple(
    "Impacts",
    "row ob_rect ob_sdp ob_kills ob_left dr fall_dc fall_kills bands stun_dmg use_armour "
    "kb_mode fallen c_falls c_colls c_imp c_broke on last block terrain",
)


@jit(**INNER)
def reset_trial(im):
    """A trial starts: every obstacle whole, nobody fallen, the counters at 0."""
    for o in range(im.ob_left.shape[0]):
        im.ob_left[o] = im.ob_sdp[o]
    for c in range(im.fallen.shape[0]):
        im.fallen[c] = 0
        im.c_falls[c] = 0
        im.c_colls[c] = 0
        im.c_imp[c] = 0
        im.c_broke[c] = 0


@jit(**INNER)
def column(bands, which, value):
    """The table's column of ``value`` on band row ``which`` (0 fall heights in metres, 1
    closing speeds in m/s): the first whose upper end it does not pass."""
    for k in range(bands.shape[1]):
        if value <= bands[which, k]:
            return k
    return bands.shape[1] - 1


@jit(**INNER)
def roll_dice(n, nd6_offsets, nd6_table, s0, s1, s2, s3):
    """``n`` d6 (groups of five from the 5d6 table, then the rest). Returns state, total."""
    start = nd6_offsets[TABLE_DICE]
    size = nd6_offsets[TABLE_DICE + 1] - start
    left = n
    total = np.int64(0)
    while left >= TABLE_DICE:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        total += nd6_table[start + np.int64(u * size)]
        left -= TABLE_DICE
    if left > 0:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        lo = nd6_offsets[left]
        total += nd6_table[lo + np.int64(u * (nd6_offsets[left + 1] - lo))]
    return s0, s1, s2, s3, total


@jit(**INNER)
def impact_hits(c, dc, kills, stun_left, im, ar, sh, kill_unit, nd6_offsets, nd6_table, s0, s1,
                s2, s3):  # fmt: skip
    """The damage of one fall or collision of the table's ``dc`` (``kills`` Kills) on ``c``
    (VA-37). Returns ``(state, rolled, Hits lost, Stun lost, through)``; ``rolled`` is the
    Kills for a Kill-rated target, else the dice total."""
    if sh.scale[c] == SCALE_KILLS:
        armour = ar.kills[c] if im.use_armour else 0
        through = max(kills - armour, 0) * kill_unit[c]
        return s0, s1, s2, s3, kills, through, np.int64(0), through
    s0, s1, s2, s3, raw = roll_dice(dc, nd6_offsets, nd6_table, s0, s1, s2, s3)
    armour = ar.pd[c] if im.use_armour else 0
    if sh.scale[c] == SCALE_OBJECT:
        through = max(raw - armour, 0)
        return s0, s1, s2, s3, raw, through, np.int64(0), through
    kind = STUN if im.stun_dmg else KILLING
    through = penetration(kind, raw, armour, sh.sd[c])
    hits_lost, stun_lost = split_through(kind == KILLING, through, stun_left)
    return s0, s1, s2, s3, raw, hits_lost, stun_lost, through


@jit(**INNER)
def enter_rect(ox, oy, dx, dy, x0, y0, x1, y1):
    """The fraction of the path ``(ox, oy) + t (dx, dy)``, t in [0, 1], at which it enters the
    rectangle (Liang-Barsky), or 2.0 when it does not (a path leaving it from its face
    neither)."""
    t0 = 0.0
    t1 = 1.0
    for k in range(4):
        if k == 0:
            p, q = -dx, ox - x0
        elif k == 1:
            p, q = dx, x1 - ox
        elif k == 2:
            p, q = -dy, oy - y0
        else:
            p, q = dy, y1 - oy
        if p == 0.0:
            if q < 0.0:
                return 2.0
        else:
            r = q / p
            if p < 0.0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
    if t0 > t1 or t1 <= 1e-12:
        return 2.0
    return t0


@jit(**INNER)
def enter_circle(ox, oy, dx, dy, cx, cy, radius):
    """The fraction of the path at which it enters the circle (0 when it starts inside), or
    2.0 when it does not."""
    fx = ox - cx
    fy = oy - cy
    c = fx * fx + fy * fy - radius * radius
    if c <= 0.0:
        return 0.0
    a = dx * dx + dy * dy
    if a == 0.0:
        return 2.0
    b = 2.0 * (fx * dx + fy * dy)
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 2.0
    t = (-b - np.sqrt(disc)) / (2.0 * a)
    return t if 0.0 <= t <= 1.0 else 2.0


@jit(**INNER)
def first_block(im, ox, oy, dx, dy, t_from):
    """The first unbroken obstacle the path ``(ox, oy) + t (dx, dy)`` enters at a ``t`` from
    ``t_from`` to 1: ``(t, obstacle)``, or ``(2.0, -1)`` when none is in the way."""
    best = 2.0
    hit_o = -1
    for o in range(im.ob_rect.shape[0]):
        if im.ob_sdp[o] > 0 and im.ob_left[o] <= 0:
            continue  # broken: it stops nothing
        t = enter_rect(ox, oy, dx, dy, im.ob_rect[o, 0], im.ob_rect[o, 1], im.ob_rect[o, 2],
                       im.ob_rect[o, 3])  # fmt: skip
        if t >= t_from and t < best:
            best = t
            hit_o = o
    return best, hit_o


@jit(**INNER)
def first_drop(im, ox, oy, dx, dy, t_from, before):
    """The first drop the path ``(ox, oy) + t (dx, dy)`` goes over at a ``t`` from ``t_from``
    and short of ``before``: ``(t, drop)``, or ``(before, -1)`` when none is."""
    best = before
    hit_d = -1
    for d in range(im.dr.shape[0]):
        t = enter_circle(ox, oy, dx, dy, im.dr[d, 0], im.dr[d, 1], im.dr[d, 2])
        if t >= t_from and t < best:
            best = t
            hit_d = d
    return best, hit_d


@jit(**INNER)
def line_blocked(a, tgt, im, px, py):
    """The first unbroken obstacle on the line from ``a`` to ``tgt`` (M-10: nobody shoots
    through a solid object), or -1."""
    _t, o = first_block(im, px[a], py[a], px[tgt] - px[a], py[tgt] - py[a], 0.0)
    return o


@jit(**INNER)
def _cut_move(c, ox, oy, dx, dy, t, metres, wh, w_range, log, events, ne):
    """``c``'s move from ``(ox, oy)`` by ``(dx, dy)`` (``metres`` long) ends at the fraction
    ``t`` of it; its move's line, the last one logged, says where."""
    wh.px[c] = ox + t * dx
    wh.py[c] = oy + t * dy
    note_move(wh.moved, c, ox, oy, wh.px[c], wh.py[c], t * metres)
    moved_geometry(c, wh.px, wh.py, w_range, wh.dist, wh.rmod)
    if log:
        last = min(ne, events.shape[0] - 1) - 1
        if last >= 0 and events[last, EV_KIND] == EVENT_MOVE and events[last, EV_ACTOR] == c:
            events[last, EV_RAW] = np.int64(t * metres * 100.0)
            events[last, EV_X] = np.int64(wh.px[c] * 100.0)
            events[last, EV_Y] = np.int64(wh.py[c] * 100.0)


@jit(inline="always")
def bump_on_foot(c, ox, oy, step, action, goal, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
                 standing, sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``motion.room.bump`` where nobody is in a vehicle: its first step, :func:`on_ground`
    (the same arguments and results), so that a kernel without vehicles compiles none of the
    vehicle's path."""
    ne = on_ground(c, ox, oy, step, wh, wp.range, action, goal, log, events, ne, now)
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def on_ground(c, ox, oy, budget, wh, w_range, action, goal, log, events, ne, now):
    """``c`` went on foot from ``(ox, oy)`` to where it is now, with ``budget`` metres of
    MOVE: the phase's terrain, the majority of the path, leaves it its share of the budget
    (VA-51, ``scene.terrain.slowed``), then the first unbroken obstacle in the way stops it at its
    face (with ``obstacles_block``; M-10: nobody moves through a solid object; a vehicle's
    way is a crash, ``motion.room.bump``). Its move's line says where it stopped, and a line of its
    own what stopped it. Returns ne."""
    im = wh.scene
    dx = wh.px[c] - ox
    dy = wh.py[c] - oy
    metres = np.sqrt(dx * dx + dy * dy)
    if metres <= 0.0:
        return ne
    if has_terrain(im.terrain):
        went = slowed(im.terrain, ox, oy, dx, dy, budget)
        if went < metres:
            _cut_move(c, ox, oy, dx, dy, went / metres, metres, wh, w_range, log, events, ne)
            dx = wh.px[c] - ox
            dy = wh.py[c] - oy
            metres = went
            if metres <= 0.0:
                return ne
    if not im.block:
        return ne
    t, o = first_block(im, ox, oy, dx, dy, 0.0)
    if o < 0:
        return ne
    t = max(t - _STANDOFF / metres, 0.0)
    _cut_move(c, ox, oy, dx, dy, t, metres, wh, w_range, log, events, ne)
    if log:
        r = log_event(events, ne, now, EVENT_BLOCKED, c, goal)
        events[r, EV_ACTION] = action
        events[r, EV_RAW] = o
        events[r, EV_X] = np.int64(wh.px[c] * 100.0)
        events[r, EV_Y] = np.int64(wh.py[c] * 100.0)
        ne += 1
    return ne


@jit(**INNER)
def fall_event(events, ne, now, c, drop, action, metres, dc, raw, through, x, y, hl):
    row = log_event(events, ne, now, EVENT_FALL, c, drop)
    events[row, EV_RAW] = np.int64(metres * 100.0)
    events[row, EV_ACTION] = action
    events[row, EV_DV] = dc
    events[row, EV_ROLL] = raw
    events[row, EV_THROUGH] = through
    events[row, EV_X] = np.int64(x * 100.0)
    events[row, EV_Y] = np.int64(y * 100.0)
    return row


@jit(**INNER)
def knocked(a, tgt, ox, oy, stun_left, ar, sh, hl, wh, wp, vh, kill_unit, nd6_offsets,
            nd6_table, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``tgt`` was knocked back by ``a`` from ``(ox, oy)`` to where it is now (strike.py,
    F28): its path meets the obstacles and drops (M-40, VA-41, M-72). Moves it to where it
    stops, breaks what breaks, logs the collisions and the fall. Returns ``(state, ne, Hits
    lost, Stun lost, through)`` of what it hit, which the strike's wounds add (``stun_left``:
    its Stun before them)."""
    im = wh.scene
    ex = wh.px[tgt]
    ey = wh.py[tgt]
    dx = ex - ox
    dy = ey - oy
    metres = np.sqrt(dx * dx + dy * dy)
    hits_lost = np.int64(0)
    stun_lost = np.int64(0)
    through = np.int64(0)
    row = im.row[tgt]
    n_obs = im.ob_rect.shape[0]
    t_done = 0.0
    stop_t = 1.0
    for _ in range(n_obs + 1):
        best, hit_o = first_block(im, ox, oy, dx, dy, t_done)
        hit_d = -1
        if not im.fallen[tgt]:
            best, hit_d = first_drop(im, ox, oy, dx, dy, t_done, best)
        if best > 1.0:
            break
        if hit_d >= 0:  # over the edge: a fall of the drop's height (M-72)
            height = im.dr[hit_d, 3]
            col = column(im.bands, 0, height)
            s0, s1, s2, s3, raw, h_l, s_l, thr = impact_hits(
                tgt, im.fall_dc[row, col], im.fall_kills[row, col], stun_left - stun_lost, im,
                ar, sh, kill_unit, nd6_offsets, nd6_table, s0, s1, s2, s3,
            )  # fmt: skip
            hits_lost += h_l
            stun_lost += s_l
            through += thr
            im.fallen[tgt] = 1
            im.c_falls[tgt] += 1
            im.c_imp[tgt] += thr
            stop_t = best
            if log:
                fall_event(events, ne, now, tgt, hit_d, tx.A_NONE, height, im.fall_dc[row, col],
                           raw, thr, ox + best * dx, oy + best * dy, hl)  # fmt: skip
                ne += 1
            break
        # an obstacle in the way: a collision (M-40, VA-41)
        im.c_colls[tgt] += 1
        dc = np.int64(0)
        raw = np.int64(0)
        thr = np.int64(0)
        broke = False
        if im.kb_mode != KB_NONE:
            if im.kb_mode == KB_AS_FALL:
                col = column(im.bands, 0, metres)
            else:
                col = column(im.bands, 1, metres / PHASE_SECONDS)
            dc = im.fall_dc[row, col]
            s0, s1, s2, s3, raw, h_l, s_l, thr = impact_hits(
                tgt, dc, im.fall_kills[row, col], stun_left - stun_lost, im, ar, sh, kill_unit,
                nd6_offsets, nd6_table, s0, s1, s2, s3,
            )  # fmt: skip
            hits_lost += h_l
            stun_lost += s_l
            through += thr
            im.c_imp[tgt] += thr
            if im.ob_sdp[hit_o] > 0:  # the obstacle takes the same (VA-39 same_dc)
                if im.ob_kills[hit_o]:
                    im.ob_left[hit_o] -= im.fall_kills[row, col]
                elif sh.scale[tgt] == SCALE_KILLS:
                    s0, s1, s2, s3, ob_raw = roll_dice(dc, nd6_offsets, nd6_table, s0, s1, s2, s3)
                    im.ob_left[hit_o] -= ob_raw
                else:
                    im.ob_left[hit_o] -= raw
                broke = im.ob_left[hit_o] <= 0
        if broke:
            im.c_broke[tgt] += 1
        else:
            stop_t = max(best - _STANDOFF / max(metres, 1e-9), 0.0)
        if log:
            r = log_event(events, ne, now, EVENT_COLLISION, tgt, hit_o)
            events[r, EV_DV] = dc
            events[r, EV_ROLL] = raw
            events[r, EV_THROUGH] = thr
            events[r, EV_RAW] = max(im.ob_left[hit_o], 0)
            events[r, EV_SHOTS] = np.int64(metres * 100.0)
            events[r, EV_X] = np.int64((ox + stop_t * dx) * 100.0)
            events[r, EV_Y] = np.int64((oy + stop_t * dy) * 100.0)
            events[r, EV_FLAGS] = FLAG_HIT * broke
            ne += 1
        if not broke:
            break
        t_done = best
    if stop_t < 1.0:
        wh.px[tgt] = ox + stop_t * dx
        wh.py[tgt] = oy + stop_t * dy
        moved_geometry(tgt, wh.px, wh.py, wp.range, wh.dist, wh.rmod)
        if vh.vclass[tgt] > 0:
            carry_crew(tgt, vh.carrier, wh.px, wh.py, wh.moved, wp.range, wh.dist, wh.rmod)
        if log:  # the knockback's line says where it stopped
            for r in range(min(ne, events.shape[0] - 1) - 1, -1, -1):
                if events[r, EV_KIND] == EVENT_KNOCKBACK and events[r, EV_ACTOR] == tgt:
                    events[r, EV_X] = np.int64(wh.px[tgt] * 100.0)
                    events[r, EV_Y] = np.int64(wh.py[tgt] * 100.0)
                    break
    return s0, s1, s2, s3, ne, hits_lost, stun_lost, through


@jit(**INNER)
def jump(c, d, ar, sh, hl, wh, wp, st, tl, kill_unit, nd6_offsets, nd6_table, rl, standing,
         sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``c`` jumps down drop ``d`` (the ``jump`` action, M-72): it moves to the drop and falls
    its height, landing below, prone; its wounds land as an attack's do (F22 stunned, F24-F26).
    A combatant already below has nowhere to jump (the action is idle). Returns ``(state, ne,
    sides still standing)``."""
    im = wh.scene
    if d < 0 or im.fallen[c]:
        if log:
            r = log_event(events, ne, now, EVENT_IDLE, c, -1)
            events[r, EV_ACTION] = tx.A_JUMP
            ne += 1
        return s0, s1, s2, s3, ne, sides_left
    x = im.dr[d, 0]
    y = im.dr[d, 1]
    ddx = x - wh.px[c]
    ddy = y - wh.py[c]
    note_move(wh.moved, c, wh.px[c], wh.py[c], x, y, np.sqrt(ddx * ddx + ddy * ddy))
    wh.px[c] = x
    wh.py[c] = y
    moved_geometry(c, wh.px, wh.py, wp.range, wh.dist, wh.rmod)
    height = im.dr[d, 3]
    row = im.row[c]
    col = column(im.bands, 0, height)
    dc = im.fall_dc[row, col]
    s0, s1, s2, s3, raw, hits_lost, stun_lost, through = impact_hits(
        c, dc, im.fall_kills[row, col], hl.stun[c], im, ar, sh, kill_unit, nd6_offsets, nd6_table,
        s0, s1, s2, s3,
    )  # fmt: skip
    im.fallen[c] = 1
    im.c_falls[c] += 1
    im.c_imp[c] += through
    st.prone[c] = True
    st.in_cover[c] = False
    tl.c_taken[c] += through
    went_out, sides_left = land_wound(c, hits_lost, stun_lost, through, now, sh, hl, st, tl, rl,
                                      standing, sides_left)  # fmt: skip
    if log:
        r = fall_event(events, ne, now, c, d, tx.A_JUMP, height, dc, raw, through, x, y, hl)
        events[r, EV_HITS] = hl.hits[c]
        events[r, EV_STUN] = hl.stun[c]
        events[r, EV_FLAGS] = (FLAG_OUT * went_out + FLAG_DEAD * hl.dead[c]
                               + FLAG_DYING * (hl.hits[c] <= 0))  # fmt: skip
        ne += 1
    return s0, s1, s2, s3, ne, sides_left
