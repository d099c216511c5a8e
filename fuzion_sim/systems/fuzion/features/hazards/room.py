"""The general kernel's environment room (M-67 to M-71; VA-46 to VA-48): hazard zones, breath
and poison at the end of every 3-second phase, and the ``flee_hazard`` action.

The kernel calls three entry points, each compiled with ``_nrt=False`` and never inlined,
behind one flag worked out once a chunk (``options[OPT_ANY_HAZARD]``; PERFORMANCE-NOTES
lessons 12 and 14): :func:`hazard_reset` at the start of each trial, :func:`hazard_phase` at
the end of each slot that ends a phase (``Hazards.tick``), and :func:`flee` for the
``flee_hazard`` action. A fight without hazards pays one predictable branch per slot and per
action.

At the end of a phase, for each person the hazards reach (``Hazards.who``), alive (an
unconscious or dying body keeps burning):

1. every fire or electricity zone it stands in does its DC in d6 (VA-46): killing, less the
   armour of ``rules.hazard_armour`` (``Hazards.arm``), to Hits with collateral Stun (F21); or
   Stun damage for ``electricity_damage: stun`` (against the higher of armour and SD, 1 Hit per
   full 5). ``hazard_timing: on_entry``: only in the phase it entered the zone (once a visit).
2. in an asphyxiating zone its breath (``env[c, 1]``) falls by one; once it is 0, 3d6 a phase to
   Hits, no armour, collateral Stun unless ``asphyxia_collateral: false`` (VA-47). Out of every
   asphyxiating zone the breath comes back at once (``breath_reset: on_exit``), or only at the
   end of a phase in which it took the Recover action (``after_rest``).
3. a poison in its blood (its own ``poison:``, or a dose from a poison zone, the first one it
   meets) does its DC in d6 every ``Hazards.period`` phases after the dose (20: a minute, VA-48;
   1: ``poison_timing: turn``), no armour, to Hits with collateral Stun or to Stun alone.
4. ``env[c, 0]`` (the tactics' ``in_hazard``) and ``in_smoke`` (the F11 Perception roll inside
   an obscuring zone at the start of each phase, the kernel's obscured mechanism) follow where
   it stands.

Each of these is one wound (F22 stunned past half its Stun; F24 impairment; death at
-2 x BODY; F26 out of the fight) with the attack's bookkeeping (``strike.take_wounds``): a
person a hazard puts out ends the fight as any other.
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
    EV_FLAGS,
    EV_HITS,
    EV_RAW,
    EV_STUN,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_BREATH,
    EVENT_HAZARD,
    EVENT_IDLE,
    EVENT_MOVE,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_OUT,
)
from ...dice import TABLE_DICE
from ...kernel_parts import land_wound, log_event
from ...rules import KILLING, STUN, penetration, split_through
from ..scene.room import on_ground

__all__ = [
    "FL_ASPHYX", "FL_OBSCURES", "HZ_ASPHYXIA", "HZ_ELECTRICITY", "HZ_FIRE", "HZ_POISON",
    "HZ_PUSH", "HZ_SMOKE", "HState", "Hazards", "SHAPE_CIRCLE", "SHAPE_RECT", "flee",
    "hazard_phase", "hazard_reset",
]  # fmt: skip

#: Kinds of zone (``hazards.build.HAZARD_KINDS`` order), and asphyxiation as a source of damage.
HZ_FIRE = 0
HZ_ELECTRICITY = 1
HZ_SMOKE = 2
HZ_POISON = 3
HZ_ASPHYXIA = 4
HZ_PUSH = 5  # not a zone's: the STUN a push burns once END is gone (M-75)
#: Shapes, and the bits of ``Hazards.flags``.
SHAPE_CIRCLE = 0
SHAPE_RECT = 1
FL_OBSCURES = 1
FL_ASPHYX = 2
#: How far past the edge ``flee`` stops (metres): outside, not on the edge.
EDGE = 0.01

#: ``hz``: the zones (kind, DC, shape, geometry, flags), per combatant whether hazards reach it,
#: its armour against them, its ``endurance`` (int64[3 C], three to a combatant: breath
#: phases, END, the END a phase its push costs, M-75; flat: a 2-D array here cost the trial
#: loop, PERFORMANCE-NOTES lesson 16) and its own poison (DC, pool 1 = Stun), the slots that end a
#: phase, and the switches
Hazards = namedtuple(
    "Hazards",
    "kind dc shape geom flags who arm endurance ps_dc0 ps_pool0 tick on_entry elec_stun "
    "after_rest collateral period",
)
#: ``hs``: the trial's state: ``env`` int64[C, 3] (in a zone, breath left: the tactics'
#: ``in_hazard`` and ``breath``; END left to push on), inside an obscuring zone, the zones it
#: stood in at the last phase's end (bits), its poison (DC, pool, phases since the dose), and
#: the counters: damage from hazards, phases ended in a zone, 1 when a hazard (or its push)
#: put it out, the time unit its breath first ran out (0: never)
HState = namedtuple(
    "HState",
    "env in_smoke was_in ps_dc ps_pool ps_clock c_dmg c_phases c_out c_breathless",
)


@jit(**INNER)
def inside(hz, k, x, y):
    """Whether (x, y) is in zone ``k`` (its edge counts)."""
    if hz.shape[k] == SHAPE_CIRCLE:
        dx = x - hz.geom[k, 0]
        dy = y - hz.geom[k, 1]
        return dx * dx + dy * dy <= hz.geom[k, 2] * hz.geom[k, 2]
    return hz.geom[k, 0] <= x <= hz.geom[k, 2] and hz.geom[k, 1] <= y <= hz.geom[k, 3]


@jit(**INNER)
def roll_d6(n, nd6_offsets, nd6_table, s0, s1, s2, s3):
    """``n`` d6 in groups of ``TABLE_DICE`` from the equally-likely-outcome tables, one uniform
    a group. Returns ``(state, total)``."""
    total = np.int64(0)
    left = n
    while left > 0:
        k = min(left, TABLE_DICE)
        lo = nd6_offsets[k]
        size = nd6_offsets[k + 1] - lo
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        total += nd6_table[lo + np.int64(u * size)]
        left -= k
    return s0, s1, s2, s3, total


@jit(**INNER)
def wound(c, hits_lost, stun_lost, through, now, hs, sh, hl, st, tl, rl, standing, sides_left):
    """One hazard's damage lands on ``c`` (as ``strike.take_wounds`` lands an attack's, with
    no attacker): Hits and Stun, death at -2 x BODY, F22 stunned, F24 penalty, F26 out.
    Returns the sides still standing."""
    hs.c_dmg[c] += through
    went_out, sides_left = land_wound(c, hits_lost, stun_lost, through, now, sh, hl, st, tl, rl,
                                      standing, sides_left)  # fmt: skip
    if went_out:
        hs.c_out[c] = 1
    return sides_left


@jit(**INNER)
def log_wound(c, k, source, raw, through, now, hl, log, events, ne):
    """The event of one hazard's damage (``EVENT_HAZARD``)."""
    if log:
        row = log_event(events, ne, now, EVENT_HAZARD, c, k)
        events[row, EV_ACTION] = source
        events[row, EV_RAW] = raw
        events[row, EV_THROUGH] = through
        events[row, EV_HITS] = hl.hits[c]
        events[row, EV_STUN] = hl.stun[c]
        events[row, EV_FLAGS] = (FLAG_OUT * hl.is_out[c] + FLAG_DEAD * hl.dead[c]
                                 + FLAG_DYING * (hl.hits[c] <= 0))  # fmt: skip
        ne += 1
    return ne


@jit(**INNER)
def zones_at(hz, x, y):
    """The zones (x, y) is in, as bits, and the first of them (-1: none)."""
    mask = np.int64(0)
    first = np.int64(-1)
    for k in range(hz.kind.shape[0]):
        if inside(hz, k, x, y):
            mask |= np.int64(1) << k
            if first < 0:
                first = k
    return mask, first


@jit(**INNER)
def hazard_reset(hz, hs, px, py):
    """A trial's start: each in the zones of its starting place, its breath full, its own
    poison in its blood (the dose at time 0), the counters at 0."""
    for c in range(hs.env.shape[0]):
        mask, _ = zones_at(hz, px[c], py[c])
        smoke = False
        for k in range(hz.kind.shape[0]):
            if (mask >> k) & 1 and hz.flags[k] & FL_OBSCURES:
                smoke = True
        hs.env[c, 0] = (hz.who[c] != 0) and (mask != 0)
        hs.env[c, 1] = hz.endurance[3 * c]
        hs.env[c, 2] = hz.endurance[3 * c + 1]
        hs.in_smoke[c] = (hz.who[c] != 0) and smoke
        hs.was_in[c] = 0
        hs.ps_dc[c] = hz.ps_dc0[c]
        hs.ps_pool[c] = hz.ps_pool0[c]
        hs.ps_clock[c] = 0
        hs.c_dmg[c] = 0
        hs.c_phases[c] = 0
        hs.c_out[c] = 0
        hs.c_breathless[c] = 0


@jit(**INNER)
def hazard_phase(now, hz, hs, sh, hl, st, tl, wh, dt, rl, obscured, standing, sides_left,
                 s0, s1, s2, s3, log, events, ne):  # fmt: skip
    """The end of a phase: the hazards' damage, breath and poison of every person they reach
    (the module's docstring). Returns ``(state, ne, sides_left)``."""
    n_hz = hz.kind.shape[0]
    for c in range(hs.env.shape[0]):
        cost = hz.endurance[3 * c + 2]
        if cost > 0 and not hl.is_out[c]:  # pushing (M-75): its END, then its STUN
            spent = min(cost, hs.env[c, 2])
            hs.env[c, 2] -= spent
            burn = cost - spent
            if burn > 0:
                sides_left = wound(c, np.int64(0), burn, np.int64(0), now, hs, sh, hl, st, tl,
                                   rl, standing, sides_left)  # fmt: skip
                ne = log_wound(c, -1, HZ_PUSH, burn, burn, now, hl, log, events, ne)
        if hl.dead[c] or not hz.who[c]:
            continue
        mask, _ = zones_at(hz, wh.px[c], wh.py[c])
        smoke = False
        asph = np.int64(-1)
        dose = np.int64(-1)
        if mask != 0:
            hs.c_phases[c] += 1
        for k in range(n_hz):
            if not (mask >> k) & 1:
                continue
            flags = hz.flags[k]
            if flags & FL_OBSCURES:
                smoke = True
            if flags & FL_ASPHYX and asph < 0:
                asph = k
            kind = hz.kind[k]
            if kind == HZ_POISON:
                if dose < 0:
                    dose = k
                continue
            if kind != HZ_FIRE and kind != HZ_ELECTRICITY:
                continue
            if hz.on_entry and (hs.was_in[c] >> k) & 1:
                continue  # VA-46 on_entry: once a visit
            s0, s1, s2, s3, raw = roll_d6(hz.dc[k], dt.nd6_offsets, dt.nd6_table, s0, s1, s2,
                                          s3)  # fmt: skip
            killing = not (kind == HZ_ELECTRICITY and hz.elec_stun)
            through = penetration(KILLING if killing else STUN, raw, hz.arm[c], sh.sd[c])
            hits_lost, stun_lost = split_through(killing, through, hl.stun[c])
            sides_left = wound(c, hits_lost, stun_lost, through, now, hs, sh, hl, st, tl, rl,
                               standing, sides_left)  # fmt: skip
            ne = log_wound(c, k, kind, raw, through, now, hl, log, events, ne)
            if hl.dead[c]:
                break
        if hl.dead[c]:
            hs.env[c, 0] = mask != 0
            hs.was_in[c] = mask
            continue
        # asphyxiation (M-71, VA-47)
        if asph >= 0:
            if hs.env[c, 1] > 0:
                hs.env[c, 1] -= 1
                if hs.env[c, 1] == 0 and log:
                    log_event(events, ne, now, EVENT_BREATH, c, asph)
                    ne += 1
            else:
                s0, s1, s2, s3, raw = roll_d6(3, dt.nd6_offsets, dt.nd6_table, s0, s1, s2, s3)
                left = max(hl.stun[c], 0)
                stun_lost = min(raw, left) if hz.collateral else np.int64(0)
                if hs.c_breathless[c] == 0:
                    hs.c_breathless[c] = now
                sides_left = wound(c, raw, stun_lost, raw, now, hs, sh, hl, st, tl, rl,
                                   standing, sides_left)  # fmt: skip
                ne = log_wound(c, asph, HZ_ASPHYXIA, raw, raw, now, hl, log, events, ne)
        elif not hz.after_rest or st.recovering[c]:
            hs.env[c, 1] = hz.endurance[3 * c]
        # poison (VA-48): every period after the dose
        if hs.ps_dc[c] > 0 and not hl.dead[c]:
            hs.ps_clock[c] += 1
            if hs.ps_clock[c] % hz.period == 0:
                s0, s1, s2, s3, raw = roll_d6(hs.ps_dc[c], dt.nd6_offsets, dt.nd6_table, s0,
                                              s1, s2, s3)  # fmt: skip
                if hs.ps_pool[c] == 1:  # a drug on Stun alone
                    sides_left = wound(c, np.int64(0), raw, raw, now, hs, sh, hl, st, tl, rl,
                                       standing, sides_left)  # fmt: skip
                else:
                    left = max(hl.stun[c], 0)
                    sides_left = wound(c, raw, min(raw, left), raw, now, hs, sh, hl, st, tl,
                                       rl, standing, sides_left)  # fmt: skip
                ne = log_wound(c, -1, HZ_POISON, raw, raw, now, hl, log, events, ne)
        elif dose >= 0 and hs.ps_dc[c] == 0:
            hs.ps_dc[c] = hz.dc[dose]  # the gas doses it: the clock starts now
            hs.ps_pool[c] = 0
            hs.ps_clock[c] = 0
        hs.env[c, 0] = mask != 0
        hs.was_in[c] = mask
        if smoke != (hs.in_smoke[c] != 0):
            hs.in_smoke[c] = smoke
            if not smoke and not obscured[c]:
                st.obs_pen[c] = 0  # out of the smoke: no Perception roll, no penalty
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def flee(a, hz, hs, run_m, w_range, wh, moved, aim, in_cover, log, events, ne, now):
    """``flee_hazard``: ``a`` runs (its run, F5) out of the first zone it stands in by the
    shortest way (straight out from a circle's centre; through a rectangle's nearest side),
    stopping just past the edge; in no zone, it stands (an idle action). Returns ne."""
    x = wh.px[a]
    y = wh.py[a]
    mask, k = zones_at(hz, x, y)
    if k < 0:
        note_move(moved, a, x, y, x, y, 0.0)
        if log:
            row = log_event(events, ne, now, EVENT_IDLE, a, -1)
            events[row, EV_ACTION] = tx.A_FLEE_HAZARD
            ne += 1
        return ne
    if hz.shape[k] == SHAPE_CIRCLE:
        dx = x - hz.geom[k, 0]
        dy = y - hz.geom[k, 1]
        d = np.sqrt(dx * dx + dy * dy)
        ux = 1.0
        uy = 0.0
        if d > 1e-9:
            ux = dx / d
            uy = dy / d
        need = hz.geom[k, 2] - d + EDGE
    else:
        ux = -1.0
        uy = 0.0
        need = x - hz.geom[k, 0]
        if hz.geom[k, 2] - x < need:
            ux = 1.0
            need = hz.geom[k, 2] - x
        if y - hz.geom[k, 1] < need:
            ux = 0.0
            uy = -1.0
            need = y - hz.geom[k, 1]
        if hz.geom[k, 3] - y < need:
            ux = 0.0
            uy = 1.0
            need = hz.geom[k, 3] - y
        need += EDGE
    went = min(run_m[a], need)
    wh.px[a] = x + ux * went
    wh.py[a] = y + uy * went
    note_move(moved, a, x, y, wh.px[a], wh.py[a], went)
    if wh.scene.on:  # rough ground slows it and a wall in the way stops it (VA-51, M-10)
        ne = on_ground(a, x, y, run_m[a], wh, w_range, tx.A_FLEE_HAZARD, -1, log,
                       events, ne, now)  # fmt: skip
        went = wh.moved[a, 0]
    if went > 0.0:
        aim[a] = 0
        in_cover[a] = False
        moved_geometry(a, wh.px, wh.py, w_range, wh.dist, wh.rmod)
    mask, k = zones_at(hz, wh.px[a], wh.py[a])
    hs.env[a, 0] = (hz.who[a] != 0) and (mask != 0)
    if log:
        row = log_event(events, ne, now, EVENT_MOVE, a, -1)
        events[row, EV_ACTION] = tx.A_FLEE_HAZARD
        events[row, EV_RAW] = np.int64(went * 100.0)
        events[row, EV_X] = np.int64(wh.px[a] * 100.0)
        events[row, EV_Y] = np.int64(wh.py[a] * 100.0)
        ne += 1
    return ne
