"""The general kernel's missile room (RULINGS F18; ../shared/rulings/vehicles M-42 to M-45,
VA-20 to VA-26): a launch, the engagement its target evades over ceil(1d6 / 2) rounds (a
cluster in one roll), countermeasures, and the damage of each missile that hits.

An engagement is one launch in flight: who fired it, at whom, the missiles still flying, the
rounds of evasion it lasts and has lasted, its countermeasure bonus, the aspect it hits a
vehicle from, and the round (or phase) its last roll was made in. Each roll is the evader's
task roll (``task_table``: criticals under ``criticals: both`` and ``attacker``, VA-24) plus
its evasion base (a vehicle's pilot REF + control skill, F18 and F31; a person's DEX + Ranged
Evade, or REF + Athletics, VA-24) plus 2 with a countermeasure charge (M-44, VA-25), against
the missile's DV (5 less under Interlock, VA-22). A failure by F hits with min(flying, F)
missiles (M-45): a single missile, or a cluster under ``cluster_roll: sequence``, flies on for
the rounds left; a cluster under ``single`` is resolved by its first roll. Each missile that
hits rolls its own damage (its weapon's ``dc:`` or ``kills:``) and, on a vehicle, its own row of
the table by the engagement's aspect (``vehicles.room.vehicle_hits``, VA-26).

When the rolls are made (VA-21): ``per_round_free``, the first at the launch and then one a
round at the target's first action, costing nothing; ``per_round_action``, one a round at the
target's action, which it costs (the first at its next action); ``per_phase``, the first at
the launch and then one at each of the target's actions.

As ``features/vehicles/room.py``, the room is *called* by the kernel (``launch``, ``evade_turn``;
compiled
without reference counting) and never inlined into it: a fight without missiles never enters
it, and the trial loop stays the size it was (PERFORMANCE-NOTES lesson 12).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import high_bits, xoshiro, xoshiro_bits
from ... import tactics as tx
from ...codes import (
    EV_ACTION,
    EV_AV,
    EV_DV,
    EV_FLAGS,
    EV_HITS,
    EV_LOCATION,
    EV_RAW,
    EV_ROLL,
    EV_SHOTS,
    EV_STUN,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_EVADE,
    EVENT_LAUNCH,
    EVENT_MISSILE_HITS,
    F_WEAPON,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_HIT,
    FLAG_OUT,
    FLAG_UNOPPOSED,
    LOC_NONE,
    MA_LAUNCH,
    MA_REAR,
    MT_ROUND_ACTION,
    SCALE_KILLS,
    SCALE_OBJECT,
    VCLASS_MECHA,
)
from ...dice import TABLE_DICE
from ...kernel_parts import hit_damage, log_event
from ...rules import KILLING, armour_value, aspect_of, penetration, split_through
from ...strike import take_wounds
from ..vehicles.room import crew_fate, other_hits

#: M-44: what a countermeasure charge adds to an evasion roll.
COUNTERMEASURE_BONUS = 2
#: Engagements a chunk's trial may hold at once, per action a round of the whole fight: a
#: launcher's engagements last at most four rounds (a launch late in a round, then three).
ENGAGEMENTS_PER_ACTION = 4

#: ``mi``: the evaders, fixed for the fight (``compile.missile_arrays``), and the switches:
#: each evader's skill and whether it adds to REF (else to the defence characteristic), its
#: countermeasure charges (-1 unlimited); (the missiles per launch and their DV are the
#: weapon's: ``wp.missile[a]``, ``wp.mdv[a]``, as every weapon value is read);
#: VA-20 attack_roll, VA-21 timing (``codes.MT_*``), VA-23 sequence, VA-25 per_roll, VA-26
#: aspect (``codes.MA_*``), and whether a vehicle fights
Missiles = namedtuple(
    "Missiles",
    "evade evade_ref cm0 attack_roll timing sequence per_roll aspect any_vehicle",
)
#: ``ms``: the trial's missile state: countermeasure charges left; the engagements (launcher,
#: target or -1 for a free slot, missiles flying, rounds it lasts, rolls made, countermeasure
#: bonus, aspect, the stamp of its last roll, 1 once it hit); ``incoming`` (the engagements in
#: flight against each, for the tactics); the
#: trial's counters per combatant (missiles that hit it, engagements against it, engagements
#: it evaded without a hit) and the kernel's attacks that hit (``c_landed``)
MState = namedtuple(
    "MState",
    "cm_left e_from e_tgt e_left e_rounds e_round e_bonus e_asp e_last e_hit incoming c_hit c_eng "
    "c_evaded c_landed",
)


@jit(**INNER)
def missile_damage(a, c, n_hits, asp, now, mi, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc,
                   vic, standing, sides_left, s0, s1, s2, s3, log, events, ne):  # fmt: skip
    """``n_hits`` of ``a``'s missiles hit ``c``: each rolls its weapon's damage dice and meets
    the armour; on a vehicle each lands on its own row of the table from aspect ``asp``
    (``vehicles.room.vehicle_hits``: multipliers, critical locations, the crew row), on a person on
    its own hit location when ``hit_locations`` is on (F27), as autofire hits do. The wounds land
    at once (``strike.take_wounds``). No chinks (no attack roll's margin) and no knockback.
    Returns ``(state, ne, sides_left)``."""
    n_dice = wp.dc[a]  # a Kill-rated missile's is 13 + Kills (F29)
    dmg_type = wp.dmg[a]
    armour = armour_value(ar.pd[c], ar.ekd[c], wp.energy[a], wp.ap[a], rl.ap_factor)
    loc = np.int64(-1)
    raw = np.int64(0)
    hits_lost = np.int64(0)
    stun_lost = np.int64(0)
    through = np.int64(0)
    p_hits = np.int64(0)
    p_stun = np.int64(0)
    p_through = np.int64(-1)
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    bits = high_bits(x)
    row = 0
    if log:  # the hits' line before what they cause (a critical location lost)
        row = log_event(events, ne, now, EVENT_MISSILE_HITS, a, c)
        ne += 1
    if mc.room[c]:  # a vehicle, or a person in powered armour (hull.other_hits)
        (s0, s1, s2, s3, raw, loc, _kills, hits_lost, stun_lost, through, p_hits, p_stun,
         p_through, ne) = other_hits(
            a, c, F_WEAPON, np.int64(1), n_hits, np.int64(0), bits, n_dice, dmg_type, armour,
            False, wp, ar, sh, md, hl, wh.px, wh.py, tl, dt, rl, vh, vs, mc, now, log, events, ne,
            s0, s1, s2, s3, asp,
        )  # fmt: skip
    else:
        nd6_start = np.uint64(dt.nd6_offsets[TABLE_DICE])
        u_nd6_size = np.uint64(dt.nd6_offsets[TABLE_DICE + 1]) - nd6_start
        for h in range(n_hits):  # as strike's hits on a person, one a missile
            s0, s1, s2, s3, raw_h = hit_damage(h, bits, n_dice, dt.nd6_table, dt.nd6_offsets,
                                               nd6_start, u_nd6_size, s0, s1, s2, s3)
            raw += raw_h
            armour_h = armour
            if rl.loc_mode != LOC_NONE and sh.scale[c] != SCALE_KILLS:  # a missile calls no shot
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                loc = dt.loc_by_roll[dt.nd6_table[dt.nd6_offsets[3] + np.int64(u * 216.0)]]
                if (ar.cover[c] >> loc) & 1 == 0:
                    armour_h = 0
                tl.location_hits[c, loc] += 1
            if sh.scale[c] == SCALE_KILLS:  # F29: Kills against Kills
                k = wp.kills[a] if wp.kills[a] > 0 else (n_dice - 13 if n_dice >= 14 else 0)
                through_h = max(k - ar.kills[c], 0)
                hits_lost += through_h
                through += through_h
            elif sh.scale[c] == SCALE_OBJECT:  # SDP: Stun and killing alike
                through_h = max(raw_h - armour_h, 0)
                if loc >= 0:
                    through_h = through_h * dt.loc_num[loc] // dt.loc_den[loc]
                hits_lost += through_h
                through += through_h
            else:
                through_h = penetration(dmg_type, raw_h, armour_h, sh.sd[c])
                if loc >= 0:
                    through_h = through_h * dt.loc_num[loc] // dt.loc_den[loc]
                lost_h, stun_h = split_through(dmg_type == KILLING, through_h,
                                               hl.stun[c] - stun_lost)  # fmt: skip
                hits_lost += lost_h
                stun_lost += stun_h
                through += through_h
    n_victims = 1
    vic.c[0] = c
    vic.hits[0] = hits_lost
    vic.stun[0] = stun_lost
    vic.through[0] = through
    if p_through >= 0:  # and the vehicle's pilot, through its crew row
        n_victims = 2
        vic.c[1] = vs.hit_crew[c]
        vic.hits[1] = p_hits
        vic.stun[1] = p_stun
        vic.through[1] = p_through
    went_out, sides_left = take_wounds(a, c, n_victims, sh, hl, st, tl, vic, rl, now, standing,
                                       sides_left)  # fmt: skip
    if mi.any_vehicle:
        sides_left = crew_fate(sh.side, hl.is_out, hl.gave_up, tl.c_out, standing, sides_left,
                               vh.vclass, vh.carrier, now)  # fmt: skip
    if log:
        events[row, EV_SHOTS] = n_hits * 1000 + wp.missile[a]
        events[row, EV_RAW] = raw
        events[row, EV_THROUGH] = through
        events[row, EV_HITS] = hl.hits[c]
        events[row, EV_STUN] = hl.stun[c]
        events[row, EV_LOCATION] = loc
        events[row, EV_ACTION] = tx.A_LAUNCH
        events[row, EV_FLAGS] = (
            FLAG_HIT + FLAG_OUT * went_out + FLAG_DEAD * hl.dead[c]
            + FLAG_DYING * (hl.hits[c] <= 0)
        )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def evade_roll(e, stamp, now, mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc, vic,
               standing, sides_left, s0, s1, s2, s3, log, events, ne):  # fmt: skip
    """One evasion roll of engagement ``e`` (F18, M-43 to M-45): the evader's task roll plus
    its evasion base and countermeasures against the missile DV; a failure by F hits with
    min(flying, F) missiles, which are spent. The engagement ends after its last round, when
    no missile flies, or (a cluster under ``cluster_roll: single``) after its one roll.
    Returns ``(state, ne, sides_left)``."""
    c = ms.e_tgt[e]
    a = ms.e_from[e]
    bonus = ms.e_bonus[e]
    if mi.per_roll:  # VA-25 per_roll: a charge a roll
        bonus = 0
        if ms.cm_left[c] != 0:
            bonus = COUNTERMEASURE_BONUS
            if ms.cm_left[c] > 0:
                ms.cm_left[c] -= 1
    base = (hl.e_ref[c] if mi.evade_ref[c] else hl.e_dex[c]) + mi.evade[c]
    if vh.vclass[c] > 0 and (vh.pilot[c] < 0 or hl.is_out[vh.pilot[c]]):
        base = 0  # nobody drives (VA-04): the die alone
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    roll = np.int64(dt.task_table[np.int64(u * dt.task_table.shape[0])])
    total = base + bonus + roll
    dv = wp.mdv[a]
    ms.e_last[e] = stamp
    ms.e_round[e] += 1
    flying = ms.e_left[e]
    hits = np.int64(0)
    if total < dv:
        hits = min(flying, dv - total)
    ms.e_left[e] = flying - hits
    if log:
        row = log_event(events, ne, now, EVENT_EVADE, c, a)
        events[row, EV_ROLL] = roll
        events[row, EV_AV] = total
        events[row, EV_DV] = dv
        events[row, EV_RAW] = ms.e_round[e]
        events[row, EV_THROUGH] = ms.e_rounds[e]
        events[row, EV_SHOTS] = hits * 1000 + flying
        events[row, EV_ACTION] = tx.A_LAUNCH
        events[row, EV_FLAGS] = FLAG_HIT * (hits > 0)
        ne += 1
    if hits > 0:
        if ms.e_hit[e] == 0:
            ms.c_landed[a] += 1  # the launch hit
        ms.e_hit[e] = 1
        ms.c_hit[c] += hits
        s0, s1, s2, s3, ne, sides_left = missile_damage(
            a, c, hits, ms.e_asp[e], now, mi, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc,
            vic, standing, sides_left, s0, s1, s2, s3, log, events, ne,
        )  # fmt: skip
    if ms.e_round[e] >= ms.e_rounds[e] or ms.e_left[e] == 0:
        if ms.e_hit[e] == 0:
            ms.c_evaded[c] += 1
        ms.e_tgt[e] = -1
        ms.incoming[c] -= 1
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def launch(a, tgt, av, dv_base, stamp, now, mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs,
           mc, vic, standing, sides_left, s0, s1, s2, s3, log, events, ne):  # fmt: skip
    """``a`` fires its missile weapon at ``tgt`` (the kernel has counted the attack and taken
    the launch from its magazine): under ``missile_launch: attack_roll`` its attack (``av``
    against the defence base ``dv_base``, the attack's roll) must hit first (VA-20). The
    engagement lasts ceil(1d6 / 2) rounds, or one roll for a cluster under ``cluster_roll:
    single`` (VA-23); a countermeasure charge of the target's gives it +2 throughout (VA-25
    per_engagement); it hits a vehicle from the launcher's aspect now, or the rear, or the side
    (VA-26). Its first roll is made now, except under ``per_round_action`` (at the target's
    next action). ``stamp``: the round (per round) or slot (per phase) of the roll. Returns
    ``(state, ne, sides_left)``."""
    engaged = True
    roll = np.int64(0)
    if mi.attack_roll:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        roll = np.int64(dt.roll_table[np.int64(u * dt.roll_table.shape[0])])
        engaged = roll - (dv_base - av) >= 0
    if log:
        row = log_event(events, ne, now, EVENT_LAUNCH, a, tgt)
        events[row, EV_RAW] = wp.missile[a]
        events[row, EV_ROLL] = roll
        events[row, EV_AV] = av
        events[row, EV_DV] = dv_base
        events[row, EV_ACTION] = tx.A_LAUNCH
        events[row, EV_X] = np.int64(wh.px[a] * 100.0)
        events[row, EV_Y] = np.int64(wh.py[a] * 100.0)
        events[row, EV_FLAGS] = FLAG_HIT * engaged + FLAG_UNOPPOSED * (not mi.attack_roll)
        ne += 1
    if not engaged:
        return s0, s1, s2, s3, ne, sides_left
    e = -1
    for k in range(ms.e_tgt.shape[0]):
        t = ms.e_tgt[k]
        if t >= 0 and hl.is_out[t]:  # an engagement against someone out of the fight ends
            ms.e_tgt[k] = -1
            ms.incoming[t] -= 1
            t = -1
        if t < 0:
            e = k
            break
    if e < 0:  # more engagements than the room sized for them: cannot happen
        return s0, s1, s2, s3, ne, sides_left
    ms.e_from[e] = a
    ms.e_tgt[e] = tgt
    ms.e_left[e] = wp.missile[a]
    if wp.missile[a] > 1 and not mi.sequence:
        ms.e_rounds[e] = 1
    else:  # ceil(1d6 / 2) consecutive rounds (F18)
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        ms.e_rounds[e] = (np.int64(u * 6.0) + 2) // 2
    ms.e_round[e] = 0
    ms.e_hit[e] = 0
    bonus = np.int64(0)
    if not mi.per_roll and ms.cm_left[tgt] != 0:  # a charge for the whole engagement
        bonus = np.int64(COUNTERMEASURE_BONUS)
        if ms.cm_left[tgt] > 0:
            ms.cm_left[tgt] -= 1
    ms.e_bonus[e] = bonus
    asp = np.int64(1)
    if vh.vclass[tgt] == VCLASS_MECHA:
        asp = np.int64(1)  # a humanoid mecha rolls 3d6 from anywhere
    elif mi.aspect == MA_LAUNCH:
        if vh.vclass[tgt] > 0 and vh.locs_on:
            asp = np.int64(aspect_of(wh.px[a] - wh.px[tgt], wh.py[a] - wh.py[tgt], vs.hd[tgt],
                                     vh.front_arc, False))  # fmt: skip
    elif mi.aspect == MA_REAR:
        asp = np.int64(2)
    ms.e_asp[e] = asp
    ms.e_last[e] = stamp - 1
    ms.incoming[tgt] += 1
    ms.c_eng[tgt] += 1
    if mi.timing == MT_ROUND_ACTION:
        return s0, s1, s2, s3, ne, sides_left  # the first roll costs the target's next action
    return evade_roll(e, stamp, now, mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc,
                      vic, standing, sides_left, s0, s1, s2, s3, log, events, ne)  # fmt: skip


@jit(**INNER)
def evade_turn(c, stamp, now, mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc, vic,
               standing, sides_left, s0, s1, s2, s3, log, events, ne):  # fmt: skip
    """At ``c``'s turn: its roll against every engagement in flight at it not yet rolled in
    this round (this phase under ``per_phase``, VA-21). Returns ``(state, ne, sides_left,
    whether it rolled)``; under ``per_round_action`` a roll takes the turn."""
    rolled = False
    for e in range(ms.e_tgt.shape[0]):
        if ms.e_tgt[e] != c or ms.e_last[e] >= stamp:
            continue
        if hl.is_out[c] or sides_left <= 1:
            break
        rolled = True
        s0, s1, s2, s3, ne, sides_left = evade_roll(
            e, stamp, now, mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc, vic,
            standing, sides_left, s0, s1, s2, s3, log, events, ne,
        )  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left, rolled
