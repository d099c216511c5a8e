"""The general kernel's vehicles in motion: driving, speeds, manoeuvres, loss of control and
rams (../shared/rulings/vehicles/mechanics.md M-46 to M-52, M-62 to M-66; rulings.md
VA-19, VA-27 to VA-31, VA-39, VA-40).

A room of its own over one group, :data:`Motion` (``mo``): each combatant's MOVE now and at
the start, its top MOVE, how it loses control (``LOCO_*``), its pilot's control skill, an
aircraft's altitude, a walker's fall height, the manoeuvre DVs of ``data/manoeuvres.yaml``, the
switches (``MO_*``), the trial's control state (``CTL_*``) and the counters. The kernel calls
three entry points, compiled with ``_nrt=False`` and never inlined, behind one flag worked out
once a chunk (``any_motion``: a vehicle's tactics drive it):

* :func:`reset_trial` at the start of every trial;
* :func:`control_turn` when a vehicle out of control comes to act: a skid, a ground spin or a
  walker's fall costs that action (VA-29, VA-31); an aircraft in a stall or spin makes its
  regain roll, DV ``stall_dv`` or 18, and else loses 2 x MOVE m of altitude, crashing at 0
  (VA-30);
* :func:`drive` for a vehicle's own actions (``tactics.MOTION_ACTIONS``): ``accelerate`` and
  ``brake`` (10 MOVE a phase, VA-19), ``steer`` (a turn over 45 degrees is a hard turn),
  ``manoeuvre`` (REF + control skill + the task die against the named DV, M-46), ``ram`` (a
  manoeuvre made as an attack; both take the collision table's DC, VA-39, VA-40) and
  ``regain_control`` (in control: nothing to regain).

A missed manoeuvre loses control by the miss (M-47 to M-51): on the ground 1-3 skids and 4 or
more spins (``ground_loss: by_severity``; ``literal`` the other way round), the skid going
straight on floor(mph / 10) d6 m (``skid_rounding``), the spin facing by 1d6; an aircraft
stalls (a miss under 4) or spins; a walker falls over. A vehicle that drives into an obstacle
(its own path, a skid, or a ``run``) collides at its speed: its own weight's DC on the table,
the obstacle the same (VA-39); a broken obstacle lets it through, else it stops at the face.
The crew inside are thrown about: each takes its own weight's DC in the collision's column
(``collision_occupants: own_weight``; ``through_hull``: what passed the vehicle's armour, as
the crew row's hit does).

Terrain (VA-51, ``features/scene/terrain.py``): a ground vehicle's drive gets the share of its
2 x MOVE m that
the majority of its way leaves (a skid slides on regardless), and the ground under it adds to
its manoeuvre DVs when that is worse than ``manoeuvre_conditions`` (``terrain_effect:
move_only``: it does not). The speed is unchanged: a collision goes by it. Aircraft fly over.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import xoshiro
from ... import tactics as tx
from ...actions import moved_geometry, note_move
from ...codes import (
    ASPECT_FRONT,
    EV_ACTION,
    EV_DV,
    EV_FLAGS,
    EV_HITS,
    EV_RAW,
    EV_ROLL,
    EV_SHOTS,
    EV_STUN,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_CONTROL,
    EVENT_CRASH,
    EVENT_DRIVE,
    EVENT_IDLE,
    EVENT_RAM,
    EVENT_REGAIN,
    FLAG_DEAD,
    FLAG_HIT,
    FLAG_OUT,
    MO_ACCELERATION,
    MO_ALTITUDE_LOSS,
    MO_CONDITIONS,
    MO_DV_SHIFT,
    MO_GROUND_LOSS,
    MO_HARD_TURN,
    MO_IMPACT_LOCATIONS,
    MO_MANOEUVRE_DV,
    MO_OBSTACLE_SAME,
    MO_OCCUPANTS,
    MO_RAM_DV,
    MO_RAM_MISS_CONTROL,
    MO_SIDE_RAM,
    MO_SKID_ROUNDING,
    MO_STALL_DV,
    MO_WALKER_FALL_DAMAGE,
    SCALE_KILLS,
    VCLASS_MECHA,
    VS_NO_MOVE,
)
from ...kernel_parts import land_wound, log_event
from ...rules import KILLING, aspect_of, penetration, split_through
from ..scene.room import (
    FALL_OVER_EDGE,
    column,
    fall_event,
    first_block,
    first_drop,
    impact_hits,
    jump,
    on_ground,
    roll_dice,
)
from ..scene.terrain import has_terrain, slowed, terrain_dv
from ..vehicles.room import carry_crew, crew_fate, impact_row

#: ``mo.loco``: how a vehicle loses control (M-47 to M-51); 0 a person
LOCO_GROUND = 1  # wheels, tracks, water: skid or spin
LOCO_AIR = 2  # stall or spin, then regain rolls
LOCO_WALKER = 3  # falls over
#: ``mo.ctl``: the control state (0: in control)
CTL_SKID = 1
CTL_SPIN = 2  # a ground spin
CTL_DOWN = 3  # a walker fallen over
CTL_STALL = 4
CTL_AIR_SPIN = 5
#: ``mo.opts[MO_OCCUPANTS]``: the crew in its vehicle's collision (VA-39
#: ``collision_occupants``): none, thrown about inside (their own weight's DC at the same
#: column), or what passed the vehicle's armour (as the crew row)
OCC_NONE = 0
OCC_OWN_WEIGHT = 1
OCC_THROUGH_HULL = 2
SKID_FLOOR_MIN1 = 0
SKID_CEIL = 1
SKID_FLOOR = 2
#: The regain DV of an aircraft's spin (L595) and of a turn the steer calls hard (degrees).
SPIN_DV = 18
HARD_TURN_DEG = 45.0
#: m/s of a MOVE (kph = 3 x MOVE, VA-19 ``speed_source: move_rule``), m of a phase's drive a
#: MOVE (2 x MOVE m, M-06) and mph of a MOVE (L104).
MS_PER_MOVE = 5.0 / 6.0
M_PER_MOVE = 2.0
MPH_PER_MOVE = 2.0
#: How far short of its target a vehicle that drives at it stops (m).
_CONTACT = 2.0

#: ``mo``: the vehicles in motion (``motion.build.motion_arrays``; the trial's state after
#: ``dv``), and ``vs``, the vehicles' trial state (``vehicles.room.VState``) that a collision on
#: the hit table writes (VA-40): a move's call (:func:`bump`) reaches it here, so the trial loop's
#: call keeps its shape (PERFORMANCE-NOTES 17)
Motion = namedtuple(
    "Motion",
    "speed0 move loco skill alt0 height dv opts speed ctl alt c_lost c_spin c_ram c_crash vs",
)


@jit(**INNER)
def reset_trial(mo):
    """A trial starts: every vehicle at its scenario speed and altitude, in control."""
    for c in range(mo.speed.shape[0]):
        mo.speed[c] = mo.speed0[c]
        mo.ctl[c] = 0
        mo.alt[c] = mo.alt0[c]
        mo.c_lost[c] = 0
        mo.c_spin[c] = 0
        mo.c_ram[c] = 0
        mo.c_crash[c] = 0


@jit(**INNER)
def _wrap(angle):
    """``angle`` in (-pi, pi]."""
    return (angle + np.pi) % (2.0 * np.pi) - np.pi


@jit(**INNER)
def _flying(c, mo):
    """Whether ``c`` is an aircraft: terrain is beneath it (VA-51)."""
    return mo.loco[c] == LOCO_AIR


@jit(**INNER)
def _conditions(c, mo, wh):
    """What the conditions add to ``c``'s manoeuvre DVs (M-52, VA-27): the scenario's
    ``manoeuvre_conditions``, or the ground under it if that is worse (VA-51; not an aircraft)."""
    im = wh.scene
    dv = mo.opts[MO_CONDITIONS]
    if _flying(c, mo):
        return dv
    return max(dv, terrain_dv(im.terrain, wh.px[c], wh.py[c]))


@jit(**INNER)
def _task(c, dv, mo, wh, vh, hl, dt, s0, s1, s2, s3):
    """``c``'s pilot's REF + control skill + the task die against ``dv`` plus the conditions
    (M-46, M-52, VA-51; ``plus_roll``: + the defender's die, 10 under HERO). Returns
    ``(state, the total, the DV, the miss: 0 on a success)``."""
    pilot = vh.pilot[c]
    ref = hl.e_ref[pilot] if pilot >= 0 else hl.e_ref[c]
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    roll = np.int64(dt.task_table[np.int64(u * dt.task_table.shape[0])])
    full = dv + _conditions(c, mo, wh)
    if mo.opts[MO_MANOEUVRE_DV]:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        full += np.int64(dt.def_table[np.int64(u * dt.def_table.shape[0])])
    else:
        full -= mo.opts[MO_DV_SHIFT]
    total = ref + mo.skill[c] + roll
    return s0, s1, s2, s3, total, full, max(full - total, 0)


@jit(**INNER)
def _occupant_wound(p, dmg, kill_rated, ar, sh, hl, vh, dt, s0, s1, s2, s3):
    """What passed a vehicle's armour in its collision, on crew member ``p`` as the crew row
    does it (M-26, VA-13): Killing damage against its own PD (``crew_personal_armour``); a
    Kill-rated vehicle's K Kills are 13 + K DC. Returns ``(state, Hits, Stun, through)``."""
    if dmg <= 0:
        return s0, s1, s2, s3, np.int64(0), np.int64(0), np.int64(0)
    raw = dmg
    if kill_rated:
        s0, s1, s2, s3, raw = roll_dice(13 + dmg, dt.nd6_offsets, dt.nd6_table, s0, s1, s2, s3)
    armour = ar.pd[p] if vh.crew_armour else np.int64(0)
    through = penetration(KILLING, raw, armour, sh.sd[p])
    lost, stun = split_through(True, through, hl.stun[p])
    return s0, s1, s2, s3, lost, stun, through


@jit(**INNER)
def _crash_event(events, ne, now, c, other, dc, raw, through, hl, flags):
    """The line of ``c``'s collision with ``other`` (``EVENT_CRASH``). Returns ne."""
    r = log_event(events, ne, now, EVENT_CRASH, c, other)
    events[r, EV_DV] = dc
    events[r, EV_ROLL] = raw
    events[r, EV_THROUGH] = through
    events[r, EV_HITS] = hl.hits[c]
    events[r, EV_STUN] = hl.stun[c]
    events[r, EV_FLAGS] = flags
    return ne + 1


@jit(**INNER)  # out of line: called from several rooms (compile time)
def _collide(c, other, dc, kills, col, asp, mo, im, ar, sh, hl, vh, st, tl, dt, rl, standing,
             sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``c`` takes a collision's ``dc`` (``kills`` against Kill armour; column ``col`` of the
    table) from ``other`` (a combatant, -1 the ground, -2 - o obstacle ``o``): its wounds land,
    and its crew are hurt inside (``collision_occupants``: their own weight's DC in the same
    column, or what passed its armour). With ``impact_locations`` (VA-40) and ``asp`` 0 or
    more, a vehicle's damage lands on a row of its table rolled from that aspect
    (``vehicles.room.impact_row``: the row's multiplier and critical location, or the crew row's
    pilot); else on its structure, x1. Returns ``(state, ne, sides left, the damage rolled,
    through)``."""
    vs = mo.vs
    s0, s1, s2, s3, raw, hits_lost, stun_lost, through = impact_hits(
        c, dc, kills, hl.stun[c], im, ar, sh, vh.kill_unit, dt.nd6_offsets, dt.nd6_table, s0, s1,
        s2, s3,
    )  # fmt: skip
    kill_rated = sh.scale[c] == SCALE_KILLS
    passed = through // vh.kill_unit[c] if kill_rated else through
    who = np.int64(-1)
    loc = np.int64(0)
    if asp >= 0 and mo.opts[MO_IMPACT_LOCATIONS] and vh.vclass[c] > 0:
        s0, s1, s2, s3, hits_lost, who, loc, ne = impact_row(
            c, asp, through, vh, vs, hl, tl, now, log, events, ne, s0, s1, s2, s3)
        through = hits_lost
    mo.c_crash[c] += 1
    im.c_imp[c] += through
    tl.c_taken[c] += through
    went_out, sides_left = land_wound(c, hits_lost, stun_lost, through, now, sh, hl, st, tl,
                                      rl, standing, sides_left)  # fmt: skip
    if log:
        ne = _crash_event(events, ne, now, c, other, dc, raw, through, hl,
                          FLAG_OUT * went_out + FLAG_DEAD * hl.dead[c])  # fmt: skip
    if who >= 0 and passed > 0 and not hl.is_out[who]:  # the crew row: the pilot's (M-26)
        s0, s1, s2, s3, lost, stun, thr = _occupant_wound(who, passed, kill_rated, ar, sh, hl,
                                                          vh, dt, s0, s1, s2, s3)  # fmt: skip
        vs.vloc_dmg[c, loc] += thr
        tl.c_taken[who] += thr
        gone, sides_left = land_wound(who, lost, stun, thr, now, sh, hl, st, tl, rl, standing,
                                      sides_left)  # fmt: skip
        if log:
            ne = _crash_event(events, ne, now, who, c, 0, 0, thr, hl,
                              FLAG_OUT * gone + FLAG_DEAD * hl.dead[who] + FLAG_HIT)
    occupants = mo.opts[MO_OCCUPANTS]
    if vh.vclass[c] > 0 and occupants != OCC_NONE:
        for p in range(vh.carrier.shape[0]):
            if vh.carrier[p] != c or hl.is_out[p]:
                continue
            dc_p = np.int64(0)
            raw_p = np.int64(0)
            if occupants == OCC_OWN_WEIGHT:  # thrown about inside: its own weight (VA-37)
                dc_p = im.fall_dc[im.row[p], col]
                s0, s1, s2, s3, raw_p, lost, stun, thr = impact_hits(
                    p, dc_p, im.fall_kills[im.row[p], col], hl.stun[p], im, ar, sh,
                    vh.kill_unit, dt.nd6_offsets, dt.nd6_table, s0, s1, s2, s3,
                )  # fmt: skip
            else:
                s0, s1, s2, s3, lost, stun, thr = _occupant_wound(
                    p, passed, kill_rated, ar, sh, hl, vh, dt, s0, s1, s2, s3)
            tl.c_taken[p] += thr
            gone, sides_left = land_wound(p, lost, stun, thr, now, sh, hl, st, tl, rl,
                                          standing, sides_left)  # fmt: skip
            if log:
                ne = _crash_event(events, ne, now, p, c, dc_p, raw_p, thr, hl,
                                  FLAG_OUT * gone + FLAG_DEAD * hl.dead[p] + FLAG_HIT)
    if vh.vclass[c] > 0:
        sides_left = crew_fate(sh.side, hl.is_out, hl.gave_up, tl.c_out, standing, sides_left,
                               vh.vclass, vh.carrier, now)  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left, raw, through


@jit(**INNER)  # out of line: called from several rooms (compile time)
def _path(c, metres, angle, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
          sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``c`` goes ``metres`` along ``angle`` from where it is; the first unbroken obstacle in
    the way is a collision at its speed (M-66, VA-39; with ``impact_locations``, on its front):
    it stops at the face (speed 0) unless the obstacle breaks. A drop in the way (not under an
    aircraft) takes it over the edge (M-60, M-72): it falls the drop's height, its own weight's
    DC in that column of the table (its crew thrown about inside as in any of its collisions),
    and lands below where it went over, stopped. Returns ``(state, ne, sides left, metres
    gone)``."""
    im = wh.scene
    ox = wh.px[c]
    oy = wh.py[c]
    dx = metres * np.cos(angle)
    dy = metres * np.sin(angle)
    stop_t = 1.0
    t_done = 0.0
    drops = not im.fallen[c] and not _flying(c, mo)
    for _ in range(im.ob_rect.shape[0] + 1):
        best, hit_o = first_block(im, ox, oy, dx, dy, t_done)
        hit_d = -1
        if drops:
            best, hit_d = first_drop(im, ox, oy, dx, dy, t_done, best)
        if hit_d >= 0 and best <= 1.0:  # over the edge
            s0, s1, s2, s3, ne, sides_left = _over_edge(
                c, hit_d, ox + best * dx, oy + best * dy, mo, im, ar, sh, hl, vh, st, tl, dt,
                rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
            )  # fmt: skip
            stop_t = best
            break
        if hit_o < 0 or best > 1.0:
            break
        row = im.row[c]
        col = column(im.bands, 1, mo.speed[c] * MS_PER_MOVE)
        s0, s1, s2, s3, ne, sides_left, raw, _thr = _collide(
            c, -2 - hit_o, im.fall_dc[row, col], im.fall_kills[row, col], col, ASPECT_FRONT, mo,
            im, ar, sh, hl, vh, st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log,
            events, ne, now,
        )  # fmt: skip
        broke = False
        if mo.opts[MO_OBSTACLE_SAME] and im.ob_sdp[hit_o] > 0:
            im.ob_left[hit_o] -= im.fall_kills[row, col] if im.ob_kills[hit_o] else raw
            broke = im.ob_left[hit_o] <= 0
        if broke:
            im.c_broke[c] += 1
            t_done = best
            continue
        stop_t = max(best - 0.01 / max(metres, 1e-9), 0.0)
        mo.speed[c] = 0
        break
    wh.px[c] = ox + stop_t * dx
    wh.py[c] = oy + stop_t * dy
    gone = stop_t * metres
    note_move(wh.moved, c, ox, oy, wh.px[c], wh.py[c], gone)
    moved_geometry(c, wh.px, wh.py, wp.range, wh.dist, wh.rmod)
    carry_crew(c, vh.carrier, wh.px, wh.py, wh.moved, wp.range, wh.dist, wh.rmod)
    return s0, s1, s2, s3, ne, sides_left, gone


@jit(**INNER)
def _over_edge(c, d, x, y, mo, im, ar, sh, hl, vh, st, tl, dt, rl, standing, sides_left, s0,
               s1, s2, s3, log, events, ne, now):  # fmt: skip
    """Vehicle ``c`` goes over drop ``d`` at ``(x, y)`` (``_path``): below with its crew, its
    speed 0, a fall's line, then the fall as a crash into the ground (``_collide``). Returns
    ``(state, ne, sides left)``."""
    height = im.dr[d, 3]
    row = im.row[c]
    col = column(im.bands, 0, height)
    for p in range(vh.carrier.shape[0]):
        if p == c or vh.carrier[p] == c:
            im.fallen[p] = 1
    im.c_falls[c] += 1
    mo.speed[c] = 0
    if log:
        fall_event(events, ne, now, c, d, FALL_OVER_EDGE, height, im.fall_dc[row, col], 0, 0, x,
                   y, hl)  # fmt: skip
        ne += 1
    s0, s1, s2, s3, ne, sides_left, _raw, _thr = _collide(
        c, -1, im.fall_dc[row, col], im.fall_kills[row, col], col, -1, mo, im, ar, sh, hl, vh,
        st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def bump(c, ox, oy, step, action, goal, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
         standing, sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``c`` ran from ``(ox, oy)`` to where it is with ``step`` metres of MOVE (``action``:
    ``run``, ``sprint``, ``move``... toward or away from ``goal``). Rough ground slows it
    (VA-51; an aircraft flies over it). A vehicle's crew go with it, and with
    obstacles or drops in the fight its path meets them as a drive's does; on foot, with
    obstacles that block (M-10), the first in the way stops it at its face
    (``scene.room.on_ground``). Returns ``(state, ne, sides left)``."""
    im = wh.scene
    if vh.vclass[c] == 0:
        ne = on_ground(c, ox, oy, step, wh, wp.range, action, goal, log, events, ne, now)
        return s0, s1, s2, s3, ne, sides_left
    if not im.on:
        carry_crew(c, vh.carrier, wh.px, wh.py, wh.moved, wp.range, wh.dist, wh.rmod)
        return s0, s1, s2, s3, ne, sides_left
    dx = wh.px[c] - ox
    dy = wh.py[c] - oy
    metres = np.sqrt(dx * dx + dy * dy)
    if has_terrain(im.terrain) and not _flying(c, mo):
        metres = slowed(im.terrain, ox, oy, dx, dy, step)
    wh.px[c] = ox
    wh.py[c] = oy
    s0, s1, s2, s3, ne, sides_left, _gone = _path(
        c, metres, np.arctan2(dy, dx), mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
        standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)  # out of line: called from several rooms (compile time)
def _lose_control(c, miss, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
                  sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``c`` missed a manoeuvre by ``miss`` (M-47 to M-51): a ground vehicle skids (and spins)
    straight on, an aircraft stalls or spins, a walker falls over. Returns ``(state, ne, sides
    left)``."""
    im = wh.scene
    vs = mo.vs
    loco = mo.loco[c]
    mo.c_lost[c] += 1
    metres = 0.0
    kind = CTL_SKID
    if loco == LOCO_AIR:
        kind = CTL_STALL if miss < 4 else CTL_AIR_SPIN
    elif loco == LOCO_WALKER:
        kind = CTL_DOWN
        st.prone[c] = True
        st.in_cover[c] = False
    else:
        spin = miss >= 4
        if mo.opts[MO_GROUND_LOSS]:
            spin = miss < 4
        if spin:
            kind = CTL_SPIN
    if kind == CTL_SPIN or kind == CTL_AIR_SPIN:
        mo.c_spin[c] += 1
    mo.ctl[c] = kind
    if log:
        r = log_event(events, ne, now, EVENT_CONTROL, c, -1)
        events[r, EV_RAW] = kind
        events[r, EV_DV] = miss
        ne += 1
    if kind == CTL_SKID or kind == CTL_SPIN:
        mph = mo.speed[c] * MPH_PER_MOVE
        n = np.int64(mph // 10.0)
        rounding = mo.opts[MO_SKID_ROUNDING]
        if rounding == SKID_CEIL:
            n = np.int64(np.ceil(mph / 10.0))
        elif rounding == SKID_FLOOR_MIN1 and mo.speed[c] > 0:
            n = max(n, 1)
        s0, s1, s2, s3, d = roll_dice(n, dt.nd6_offsets, dt.nd6_table, s0, s1, s2, s3)
        s0, s1, s2, s3, ne, sides_left, metres = _path(
            c, np.float64(d), vs.hd[c], mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
            standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
        )  # fmt: skip
        if kind == CTL_SPIN:  # the new facing: 1 back, 2 forward, 3-4 right, 5-6 left (M-50)
            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
            face = np.int64(u * 6.0) + 1
            if face == 1:
                vs.hd[c] = _wrap(vs.hd[c] + np.pi)
            elif face <= 4:
                vs.hd[c] = _wrap(vs.hd[c] - np.pi / 2.0)
            elif face >= 5:
                vs.hd[c] = _wrap(vs.hd[c] + np.pi / 2.0)
            if log:
                events[r, EV_ROLL] = face
        if log:
            events[r, EV_SHOTS] = np.int64(metres * 100.0)
            events[r, EV_X] = np.int64(wh.px[c] * 100.0)
            events[r, EV_Y] = np.int64(wh.py[c] * 100.0)
    elif kind == CTL_DOWN and mo.opts[MO_WALKER_FALL_DAMAGE]:
        row = im.row[c]
        col = column(im.bands, 0, mo.height[c])
        s0, s1, s2, s3, ne, sides_left, _raw, _thr = _collide(
            c, -1, im.fall_dc[row, col], im.fall_kills[row, col], col, -1, mo, im, ar, sh, hl, vh,
            st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
        )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def control_turn(c, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing, sides_left, s0,
                 s1, s2, s3, log, events, ne, now):  # fmt: skip
    """Vehicle ``c`` is out of control when its turn comes: after a skid, a ground spin or a
    walker's fall the action goes to coming out of it (VA-29, VA-31); an aircraft rolls to
    regain control (DV ``stall_dv`` or 18, VA-30) and, failing, loses 2 x MOVE m of
    altitude (``spin_altitude_loss``), crashing into the ground at 0: a collision at its
    speed, and it is out. Returns ``(state, ne, sides left)``."""
    im = wh.scene
    kind = mo.ctl[c]
    if kind != CTL_STALL and kind != CTL_AIR_SPIN:
        mo.ctl[c] = 0
        if log:
            r = log_event(events, ne, now, EVENT_REGAIN, c, -1)
            events[r, EV_RAW] = kind
            events[r, EV_FLAGS] = FLAG_HIT
            ne += 1
        return s0, s1, s2, s3, ne, sides_left
    dv = mo.opts[MO_STALL_DV] if kind == CTL_STALL else SPIN_DV
    s0, s1, s2, s3, total, full, miss = _task(c, dv, mo, wh, vh, hl, dt, s0, s1, s2, s3)
    if miss == 0:
        mo.ctl[c] = 0
    elif mo.opts[MO_ALTITUDE_LOSS]:
        mo.alt[c] = max(mo.alt[c] - M_PER_MOVE * mo.speed[c], 0.0)
    if log:
        r = log_event(events, ne, now, EVENT_REGAIN, c, -1)
        events[r, EV_RAW] = kind
        events[r, EV_ROLL] = total
        events[r, EV_DV] = full
        events[r, EV_FLAGS] = FLAG_HIT * (miss == 0)
        events[r, EV_SHOTS] = np.int64(mo.alt[c] * 100.0)
        ne += 1
    if miss > 0 and mo.alt[c] <= 0.0:  # the ground (M-66, VA-30)
        row = im.row[c]
        col = column(im.bands, 1, mo.speed[c] * MS_PER_MOVE)
        hl.gave_up[c] = True  # down: out of the fight, whatever the damage
        s0, s1, s2, s3, ne, sides_left, _raw, _thr = _collide(
            c, -1, im.fall_dc[row, col], im.fall_kills[row, col], col, -1, mo, im, ar, sh, hl, vh,
            st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
        )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def _direction(a, tgt, code, wh, vs, hl, sh):
    """The angle a steer or manoeuvre drives at (``tactics.D_*``, ``MOVE_DIRECTION``)."""
    n = hl.is_out.shape[0]
    if code >= tx.D_HEADING:
        return np.radians(np.float64(code - tx.D_HEADING))
    if code == tx.D_STRAIGHT or tgt < 0:
        return vs.hd[a]
    other = tgt
    if code == tx.M_NEAREST:
        best = np.inf
        for t in range(n):
            if sh.side[t] != sh.side[a] and not hl.is_out[t] and wh.dist[a * n + t] < best:
                best = wh.dist[a * n + t]
                other = t
    angle = np.arctan2(wh.py[other] - wh.py[a], wh.px[other] - wh.px[a])
    if code == tx.M_AWAY:
        angle = _wrap(angle + np.pi)
    return angle


@jit(**INNER)
def drive(a, tgt, action, param, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
          sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """A vehicle ``a``'s own action (``tactics.MOTION_ACTIONS``) against its target ``tgt``,
    anyone's ``jump`` (``scene.room.jump``: one call site in the trial loop for both, which a second
    made several percent slower), and any other action after ``jump`` no room took (idle).
    Returns ``(state, ne, sides still standing)``."""
    im = wh.scene
    vs = mo.vs
    if action == tx.A_JUMP:
        return jump(a, param, ar, sh, hl, wh, wp, st, tl, vh.kill_unit, dt.nd6_offsets,
                    dt.nd6_table, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne,
                    now)  # fmt: skip
    n = hl.is_out.shape[0]
    if action == tx.A_REGAIN_CONTROL or vh.vclass[a] == 0 or vs.vstate[a] & VS_NO_MOVE:
        if log:  # in control: nothing to regain; immobile or uncontrolled: no drive (VA-10)
            r = log_event(events, ne, now, EVENT_IDLE, a, -1)
            events[r, EV_ACTION] = action
            ne += 1
        return s0, s1, s2, s3, ne, sides_left
    if action == tx.A_ACCELERATE or action == tx.A_BRAKE:  # VA-19: 10 MOVE a phase
        step = mo.opts[MO_ACCELERATION]
        if step == 0:
            step = mo.move[a]
        if action == tx.A_ACCELERATE:
            mo.speed[a] = min(mo.speed[a] + step, mo.move[a])
        else:
            mo.speed[a] = max(mo.speed[a] - step, 0)
    limit = M_PER_MOVE * mo.speed[a]
    code = param % tx.D_SPAN
    angle = vs.hd[a]
    if action == tx.A_STEER or action == tx.A_MANOEUVRE or action == tx.A_RAM:
        angle = _direction(a, tgt, tx.M_TARGET if action == tx.A_RAM else code, wh, vs, hl, sh)
    at_target = tgt >= 0 and (action == tx.A_RAM or (
        code == tx.M_TARGET and action != tx.A_ACCELERATE and action != tx.A_BRAKE))
    if has_terrain(im.terrain) and not _flying(a, mo) and limit > 0.0:  # VA-51: the ground
        path = min(limit, wh.dist[a * n + tgt]) if at_target else limit  # the way it crosses
        limit = slowed(im.terrain, wh.px[a], wh.py[a], path * np.cos(angle),
                       path * np.sin(angle), limit)  # fmt: skip
    if action == tx.A_RAM and tgt >= 0:
        d = wh.dist[a * n + tgt]
        if d <= limit + _CONTACT:
            return _ram(a, tgt, param, d, angle, mo, ar, sh, hl, wh, wp, vh, st, tl, dt,
                        rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now)
    # a named manoeuvre, or a steer's hard turn: the roll; a miss loses control (M-46, M-47)
    dv = np.int64(-1)
    if action == tx.A_MANOEUVRE:
        dv = mo.dv[param // tx.D_SPAN]
    elif action == tx.A_STEER and mo.speed[a] > 0 and abs(
            _wrap(angle - vs.hd[a])) > np.radians(HARD_TURN_DEG):  # fmt: skip
        dv = mo.dv[mo.opts[MO_HARD_TURN]]
    if dv >= 0:
        s0, s1, s2, s3, total, full, miss = _task(a, dv, mo, wh, vh, hl, dt, s0, s1, s2, s3)
        if log:
            r = log_event(events, ne, now, EVENT_CONTROL, a, -1)
            events[r, EV_ACTION] = action
            events[r, EV_ROLL] = total
            events[r, EV_DV] = full
            events[r, EV_FLAGS] = FLAG_HIT * (miss == 0)
            events[r, EV_SHOTS] = param // tx.D_SPAN if action == tx.A_MANOEUVRE else -1
            ne += 1
        if miss > 0:
            return _lose_control(a, miss, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
                                 standing, sides_left, s0, s1, s2, s3, log, events, ne, now)
    vs.hd[a] = angle
    if at_target:
        limit = min(limit, max(wh.dist[a * n + tgt] - _CONTACT, 0.0))  # beside it, not past
    s0, s1, s2, s3, ne, sides_left, gone = _path(
        a, limit, angle, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing, sides_left,
        s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    st.aim[a] = 0
    st.in_cover[a] = False
    if log:
        r = log_event(events, ne, now, EVENT_DRIVE, a, tgt)
        events[r, EV_ACTION] = action
        events[r, EV_RAW] = np.int64(gone * 100.0)
        events[r, EV_SHOTS] = mo.speed[a]
        events[r, EV_X] = np.int64(wh.px[a] * 100.0)
        events[r, EV_Y] = np.int64(wh.py[a] * 100.0)
        ne += 1
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def _ram(a, tgt, param, d, angle, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
         sides_left, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """``a`` rams ``tgt``, ``d`` m away (VA-40): it drives to it; REF + control skill + the die
    against the target's defence (a moving, manned vehicle's pilot, a person's DEX + Ranged
    Evade, F31) or, at a target that cannot evade (unmanned, stopped), the ram's DV of
    ``manoeuvres.yaml``; on a hit each takes the other's weight at the closing speed (VA-39;
    head-on: the speeds' sum, rear: their difference, side: the rammer's); a miss loses
    control by the miss (``ram_miss_control``). Returns ``(state, ne, sides left)``."""
    im = wh.scene
    vs = mo.vs
    n = hl.is_out.shape[0]
    kind = param
    v_a = mo.speed[a] * MS_PER_MOVE
    v_t = mo.speed[tgt] * MS_PER_MOVE
    if kind == 0:  # auto: by the headings (a person, or a stopped vehicle, is hit side on)
        kind = 2
        if vh.vclass[tgt] > 0 and mo.speed[tgt] > 0:
            off = abs(_wrap(vs.hd[a] - vs.hd[tgt]))
            if off > 0.75 * np.pi:
                kind = 1
            elif off < 0.25 * np.pi:
                kind = 3
    closing = v_a
    if kind == 1:
        closing = v_a + v_t
    elif kind == 3:
        closing = v_a - v_t
    if closing <= 0.0:  # it cannot catch what runs as fast (VA-39)
        if log:
            r = log_event(events, ne, now, EVENT_IDLE, a, tgt)
            events[r, EV_ACTION] = tx.A_RAM
            ne += 1
        return s0, s1, s2, s3, ne, sides_left
    vs.hd[a] = angle
    s0, s1, s2, s3, ne, sides_left, _gone = _path(
        a, max(d - 0.5, 0.0), angle, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
        sides_left, s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    if hl.is_out[a] or wh.dist[a * n + tgt] > _CONTACT:
        return s0, s1, s2, s3, ne, sides_left  # stopped on the way (an obstacle)
    pilot_t = vh.pilot[tgt]
    evades = vh.vclass[tgt] == 0 or (pilot_t >= 0 and not hl.is_out[pilot_t]
                                     and mo.speed[tgt] > 0)  # fmt: skip
    if evades:  # an attack's opposed roll (F31): the die against the defender's base
        pilot = vh.pilot[a]
        ref = hl.e_ref[pilot] if pilot >= 0 else hl.e_ref[a]
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        roll = np.int64(dt.roll_table[np.int64(u * dt.roll_table.shape[0])])
        total = ref + mo.skill[a] + roll - _conditions(a, mo, wh)
        full = hl.e_dex[tgt] + sh.def_ranged[tgt]
        miss = max(full - total, 0)
    else:
        s0, s1, s2, s3, total, full, miss = _task(a, mo.dv[mo.opts[MO_RAM_DV]], mo, wh, vh,
                                                  hl, dt, s0, s1, s2, s3)  # fmt: skip
    if log:
        r = log_event(events, ne, now, EVENT_RAM, a, tgt)
        events[r, EV_ACTION] = kind
        events[r, EV_ROLL] = total
        events[r, EV_DV] = full
        events[r, EV_RAW] = np.int64(closing * 100.0)
        events[r, EV_FLAGS] = FLAG_HIT * (miss == 0)
        ne += 1
    if miss > 0:
        if mo.opts[MO_RAM_MISS_CONTROL]:
            return _lose_control(a, miss, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
                                 standing, sides_left, s0, s1, s2, s3, log, events, ne, now)
        return s0, s1, s2, s3, ne, sides_left
    mo.c_ram[a] += 1
    row_a = im.row[a]
    row_t = im.row[tgt]
    if kind == 2 and mo.opts[MO_SIDE_RAM]:
        row_t = row_a  # both take the rammer's weight (VA-39 side_ram: both_same)
    col = column(im.bands, 1, closing)
    # where each is struck, for impact_locations (VA-40): the target's aspect of the rammer
    # by geometry, the rammer's of the target (its front, driving at it); a mecha's is 3d6
    arc = vh.front_arc
    asp_t = aspect_of(wh.px[a] - wh.px[tgt], wh.py[a] - wh.py[tgt], vs.hd[tgt], arc,
                      vh.vclass[tgt] == VCLASS_MECHA)  # fmt: skip
    asp_a = aspect_of(wh.px[tgt] - wh.px[a], wh.py[tgt] - wh.py[a], vs.hd[a], arc,
                      vh.vclass[a] == VCLASS_MECHA)  # fmt: skip
    s0, s1, s2, s3, ne, sides_left, _raw_t, thr_t = _collide(
        tgt, a, im.fall_dc[row_a, col], im.fall_kills[row_a, col], col, asp_t, mo, im, ar, sh, hl,
        vh, st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    s0, s1, s2, s3, ne, sides_left, _raw, _thr = _collide(
        a, tgt, im.fall_dc[row_t, col], im.fall_kills[row_t, col], col, asp_a, mo, im, ar, sh, hl,
        vh, st, tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
    )  # fmt: skip
    tl.c_dealt[a] += thr_t
    return s0, s1, s2, s3, ne, sides_left
