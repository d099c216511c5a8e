"""The general kernel's vehicle rooms (../shared/rulings/vehicles: M-22 to M-30, VA-05 to
VA-18): where a hit on a vehicle lands by the attacker's facing, what a critical location's
destruction does, the crew row's damage to the pilot, the crew riding with the vehicle, and
the crew and the vehicle going out of the fight together.

The helpers take the arrays in the two named groups below, as ``strike.py``'s rooms do: ``vh``
(fixed for the fight, from the plan) and ``vs`` (the trial's state). The kernel *calls* the
three entry points (``vehicle_hits``, ``carry_crew``, ``crew_fate``; compiled without reference
counting, like the trial loop) instead of inlining them: a fight without vehicles never enters
them, and the trial loop stays the size it was (inlined, they made the benchmark duel on the
general kernel about 10% slower). The helpers they use are inlined into them.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import xoshiro
from ...actions import moved_geometry
from ...codes import (
    ASPECT_SIDE,
    EFF_DOWN,
    EFF_IMMOBILE,
    EFF_UNCONTROLLED,
    EFF_WEAPON,
    EFF_WRECKED,
    EV_RAW,
    EV_THROUGH,
    EVENT_CRITICAL,
    F_WEAPON,
    INTEGRITY_FRACTION,
    SCALE_KILLS,
    STAGED_ALL,
    STAGED_AMOUNT,
    V_OUTCOMES,
    V_ROWS,
    VCLASS_MECHA,
    VS_IMMOBILE,
    VS_UNCONTROLLED,
    VS_WEAPONLESS,
)
from ...dice import TABLE_DICE, roll_nd6
from ...kernel_parts import goes_out, hit_damage, log_event
from ...rules import KILLING, armour_value, aspect_of, penetration, split_through
from .suit import suit_split, suited_area, suited_hits

#: ``vh``: the vehicles, fixed for the fight (``compile.vehicle_arrays``), and the switches
#: they read: the vehicle hit tables on (VA-06), half the front arc in degrees (VA-05), single-hit
#: criticals (VA-09), location damage off the structure too (VA-09), the crew's armour (VA-13);
#: ``call[a * n + v]`` the row of ``v``'s table ``a``'s called shot hits (-1: rolled; M-77);
#: the crew row hits one of the crew at random, not the pilot (VA-13 ``crew_hit``); the DV of a
#: vehicle nobody drives (VA-04: 0 no vehicles, else ``codes.UNMANNED_*``) and what Interlock
#: takes off the DV by range (5, F4); a Kill-rated blast loses 1 Kill per 4 m (VA-52)
Vehicles = namedtuple(
    "Vehicles",
    "vclass carrier pilot kill_unit rows nrows num den crew thr eff locid call locs_on front_arc "
    "single_hit counts_total crew_armour random_crew unmanned unmanned_shift kill_falloff",
)
#: ``vs``: the trial's vehicle state: heading (radians), damage at each row, the rows destroyed
#: (bits), immobile / uncontrolled (``VS_*`` bits), the trial's counters (immobilised,
#: uncontrolled, critical locations destroyed, the time of the first), the chunk's hits and
#: damage by vehicle location, and ``hit_crew[v]`` whom the crew row of the last attack on
#: ``v`` hit (VA-13)
VState = namedtuple(
    "VState",
    "hd loc_dmg vdest vstate c_immob c_unctl c_crits c_crit_t vloc_hits vloc_dmg hit_crew",
)
#: ``mc``: the mecha rules (../shared/rulings/vehicles M-18, M-32 to M-36), switches and the
#: trial's state in one group (one argument more for the inlined rooms): chinks against
#: vehicles (VA-43 ``chinks_scope``); staged penetration (0 off, else ``codes.STAGED_*``, VA-42
#: ``staged_loss``), its trigger (``rating``) and ``arm_lost[v, area]``, the Kills of armour
#: area ``area`` of vehicle ``v`` has lost this trial (an area is a vehicle location,
#: ``tables.vehicle_location_names()``, the last column the whole vehicle); structural
#: integrity (0 off, else ``codes.INTEGRITY_*``, VA-45); the range scale (M-18, VA-17):
#: ``rscale[a]`` the factor of ``a``'s range bands (1 or 10) and ``rs_target[t]`` whether it
#: applies against ``t`` (``both_mecha``: only mecha); powered armour (M-35, VA-44):
#: ``suit_max[c]`` the SDP of ``c``'s suit (0: none), ``suit[c]`` what is left this trial, the
#: odd point to the wearer (``wearer_ceil``), a Stun attack's wearer half to Hits (``to_hits``);
#: ``room[c]`` 1 where a hit on ``c`` is not the people's (a vehicle or a suit: ``other_hits``)
Mecha = namedtuple(
    "Mecha",
    "chinks staged staged_rating integrity arm_lost rscale rs_target suit_max suit wearer_ceil "
    "to_hits room",
)


@jit(**INNER)
def hit_row(tgt, asp, vh, s0, s1, s2, s3):
    """The printed row a hit on vehicle ``tgt`` from aspect ``asp`` lands on: one of the
    equally likely outcomes of its roll (side 3d6, front 2d6+1, rear 2d6+6) that land on a row
    it has (the others are rolled again, M-24). Returns ``(state, row)``."""
    idx = tgt * 3 + asp
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    row = vh.rows[idx * V_OUTCOMES + np.int64(u * vh.nrows[idx])]
    return s0, s1, s2, s3, row


@jit(**INNER)
def critical(tgt, row, dmg, vh, vs, hl, tl, now, log, events, ne):
    """Damage ``dmg`` (after the row's multiplier) at ``row`` of vehicle ``tgt`` (F31, VA-09,
    VA-10): a critical location is destroyed once its damage (cumulative, or this hit's alone)
    reaches its share of the structure (``vh.thr`` is 100 x that share); then the vehicle is
    immobile, uncontrolled, down (out of the fight) or wrecked (out and destroyed), and the log
    says so (``EVENT_CRITICAL``). Returns the event count."""
    k = tgt * V_ROWS + row
    vs.loc_dmg[k] += dmg
    thr = vh.thr[k]
    if thr == 0 or (vs.vdest[tgt] >> row) & 1:
        return ne
    got = dmg if vh.single_hit else vs.loc_dmg[k]
    if 100 * got < thr:
        return ne
    if log:
        ev = log_event(events, ne, now, EVENT_CRITICAL, tgt, -1)
        events[ev, EV_RAW] = vh.locid[k]
        events[ev, EV_THROUGH] = vh.eff[k]
        ne += 1
    vs.vdest[tgt] |= np.int64(1) << row
    vs.c_crits[tgt] += 1
    if vs.c_crit_t[tgt] == 0:
        vs.c_crit_t[tgt] = now
    eff = vh.eff[k]
    if eff == EFF_IMMOBILE:
        vs.vstate[tgt] |= VS_IMMOBILE
        vs.c_immob[tgt] = 1
    elif eff == EFF_UNCONTROLLED:
        vs.vstate[tgt] |= VS_UNCONTROLLED
        vs.c_unctl[tgt] = 1
    elif eff == EFF_WEAPON:  # its weapons fire no more (VA-11; arsenal.take_up)
        vs.vstate[tgt] |= VS_WEAPONLESS
    elif eff == EFF_DOWN or eff == EFF_WRECKED:
        hl.gave_up[tgt] = True  # out of the fight (take_wounds counts it)
        if eff == EFF_WRECKED and not hl.dead[tgt]:
            hl.dead[tgt] = True  # broken up or sunk: destroyed
            tl.c_death[tgt] = now
    return ne


@jit(**INNER)
def crew_wound(a, p, passed, kill_rated, dmg_type, stun_before, wp, ar, sh, vh, mc, dt,
               ap_factor, s0, s1, s2, s3):  # fmt: skip
    """The crew row (M-26, VA-13): what passed the vehicle's armour, unmultiplied, hits crew
    member ``p`` (its pilot, or one at random), through its own armour
    (``crew_personal_armour``). ``passed`` is the damage
    through an SDP vehicle's PD, or the whole Kills through a Kill-rated vehicle's armour,
    which become 13 + K DC of killing damage rolled against the pilot (F29). Returns
    ``(state, Hits lost, Stun lost, damage through)`` of the pilot."""
    if p < 0 or passed <= 0:
        return s0, s1, s2, s3, np.int64(0), np.int64(0), np.int64(0)
    dmg = passed
    kind = dmg_type
    if kill_rated:  # 13 + K DC (F29), in groups of five dice
        kind = KILLING
        s0, s1, s2, s3, dmg = roll_nd6(s0, s1, s2, s3, 13 + passed, dt.nd6_offsets, dt.nd6_table)
    armour = np.int64(0)
    suited = vh.crew_armour and mc.suit_max[p] > 0  # the pilot's powered armour (M-35)
    if vh.crew_armour and not (suited and mc.suit[p] <= 0):
        armour = armour_value(ar.pd[p], ar.ekd[p], wp.energy[a], wp.ap[a], ap_factor)
    through = penetration(kind, dmg, armour, sh.sd[p])
    if suited:
        lost, stun = suit_split(p, kind == KILLING, through, stun_before, mc)
    else:
        lost, stun = split_through(kind == KILLING, through, stun_before)
    return s0, s1, s2, s3, lost, stun, through


@jit(**INNER)
def random_crew(v, vh, hl, s0, s1, s2, s3):
    """One of vehicle ``v``'s crew still in the fight, each alike (VA-13 ``crew_hit:
    random_crew``; the pilot when none is). Returns ``(state, crew member)``."""
    n = 0
    for c in range(vh.carrier.shape[0]):
        if vh.carrier[c] == v and not hl.is_out[c]:
            n += 1
    if n == 0:
        return s0, s1, s2, s3, vh.pilot[v]
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    k = np.int64(u * n)
    for c in range(vh.carrier.shape[0]):
        if vh.carrier[c] == v and not hl.is_out[c]:
            if k == 0:
                return s0, s1, s2, s3, np.int64(c)
            k -= 1
    return s0, s1, s2, s3, vh.pilot[v]


@jit(**INNER)
def impact_row(v, asp, through, vh, vs, hl, tl, now, log, events, ne, s0, s1, s2, s3):
    """A collision's damage ``through`` vehicle ``v``'s armour lands on a row of its table
    rolled from aspect ``asp`` (VA-40 ``impact_locations``; a ram's front, 2d6+1, or the
    target's side by geometry), as a weapon's hit does (:func:`vehicle_hits`): the row's
    multiplier (M-25, rounded down) and its critical location (F31, VA-09, VA-10), or, on the
    crew row, nothing to the structure and its pilot (or one of the crew, VA-13) hurt instead
    (M-26). Returns ``(state, structure lost, the crew member the crew row hit or -1, the
    vehicle location hit, the event count)``."""
    s0, s1, s2, s3, row = hit_row(v, asp, vh, s0, s1, s2, s3)
    k = v * V_ROWS + row
    loc = vh.locid[k]
    vs.vloc_hits[v, loc] += 1
    if vh.crew[k]:
        who = vh.pilot[v]
        if vh.random_crew:
            s0, s1, s2, s3, who = random_crew(v, vh, hl, s0, s1, s2, s3)
        return s0, s1, s2, s3, np.int64(0), who, loc, ne
    lost = through * vh.num[k] // vh.den[k]
    vs.vloc_dmg[v, loc] += lost
    ne = critical(v, row, lost, vh, vs, hl, tl, now, log, events, ne)
    if vh.thr[k] > 0 and not vh.counts_total:
        lost = 0  # the location's alone (VA-09 b)
    return s0, s1, s2, s3, lost, np.int64(-1), loc, ne


@jit(**INNER)
def carry_crew(v, carrier, px, py, moved, w_range, dist, rmod):
    """The crew of vehicle ``v`` are where it is (after it moved or was knocked back)."""
    for c in range(carrier.shape[0]):
        if carrier[c] == v:
            px[c] = px[v]
            py[c] = py[v]
            for k in range(3):
                moved[c, k] = moved[v, k]
            moved_geometry(c, px, py, w_range, dist, rmod)


@jit(**INNER)
def crew_fate(side, is_out, gave_up, c_out, standing, sides_left, vclass, carrier, now):
    """A vehicle out of the fight takes its crew with it; a vehicle whose every crew member is
    out is out (VA-10, VA-18). Returns the sides still standing."""
    n = side.shape[0]
    for v in range(n):
        if vclass[v] == 0:
            continue
        if not is_out[v]:
            manned = False
            for c in range(n):
                if carrier[c] == v and not is_out[c]:
                    manned = True
            if manned:
                continue
        for c in range(n):
            if (c == v or carrier[c] == v) and not is_out[c]:
                gave_up[c] = True
                sides_left = goes_out(c, now, is_out, c_out, side, standing, sides_left)
    return sides_left


@jit(**INNER)
def staged_armour(tgt, area, ar, mc):
    """The Kill armour of area ``area`` of vehicle ``tgt`` now: its rating less what staged
    penetration took (F30, M-33, VA-42)."""
    if mc.staged:
        return max(ar.kills[tgt] - mc.arm_lost[tgt, area], 0)
    return ar.kills[tgt]


@jit(**INNER)
def stage(tgt, area, passed, att_kills, struct_h, crew_row, unit, ar, mc):
    """Staged penetration (F30, M-33, VA-42): a hit that put at least 1 Kill through (into the
    structure after the row's multiplier; on the crew row, through the armour), or under
    ``staged_trigger: rating`` any penetrating hit by a weapon of 1 Kill or more, takes 1 Kill
    of the area's armour (``minus_one``), all of it (``all``) or the Kills that got through
    (``amount``)."""
    if passed <= 0:
        return
    if mc.staged_rating:
        counts = att_kills >= 1
    elif crew_row:
        counts = passed >= 1
    else:
        counts = struct_h >= unit
    if not counts:
        return
    left = ar.kills[tgt] - mc.arm_lost[tgt, area]
    if mc.staged == STAGED_ALL:
        loss = left
    elif mc.staged == STAGED_AMOUNT:
        loss = min(passed, left)
    else:
        loss = min(np.int64(1), left)
    if loss > 0:
        mc.arm_lost[tgt, area] += loss


@jit(**INNER)
def integrity(tgt, left, unit, mc, hl, tl, now, s0, s1, s2, s3):
    """Structural integrity (F30, M-36, VA-45): after a hit that penetrated a Kill-rated
    vehicle, 1d10 above the tenths of a Kill it has ``left`` (in ``unit``s of a Kill; under
    ``integrity_count: fractional_part`` only the tenths digit) destroys it (examples E-10:
    0.5 K left is 1/2; 1 K or more never, by the total count). Returns the state."""
    if left <= 0 or hl.dead[tgt]:
        return s0, s1, s2, s3  # destroyed by the damage itself
    tenths = left * 10 // unit
    if mc.integrity == INTEGRITY_FRACTION:
        tenths = tenths % 10
    elif tenths >= 10:
        return s0, s1, s2, s3  # 1d10 is never above 10 or more: no roll
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    if np.int64(u * 10.0) + 1 > tenths:  # scrapped
        hl.gave_up[tgt] = True
        hl.dead[tgt] = True
        tl.c_death[tgt] = now
    return s0, s1, s2, s3


@jit(**INNER)
def vehicle_hits(a, tgt, form, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special,
                 wp, ar, sh, hl, px, py, tl, dt, rl, vh, vs, mc, now, log, events, ne, s0, s1, s2,
                 s3, aspect, given, kill_drop):  # fmt: skip
    """The hits of one attack on vehicle ``tgt`` (``strike.strike`` has rolled it: ``hit``,
    ``n_hits`` bullets, the ``margin`` and the dice bits of the first): each hit rolls its
    damage dice as a person's would and meets the armour (chinks, F30: none when it beats the
    DV by 10 or more, unless ``chinks_scope`` leaves vehicles out; a Kill-rated vehicle loses
    the attack's Kills less its Kill armour, in ``kill_unit``, F29, VA-14, the armour of the
    area hit less what staged penetration took, VA-42); with ``vehicle_locations: random`` it
    lands on a row of the vehicle's table by the attacker's aspect (F31, M-22 to M-30), whose
    multiplier applies (M-25, rounded down) and whose critical location takes the damage (F31,
    VA-09, VA-10; logged), or, on the crew row, what passed the armour goes to the pilot (M-26,
    VA-13); a penetrating hit on a Kill-rated vehicle may stage its armour (VA-42) and roll its
    structural integrity (VA-45). ``aspect`` (a ``codes.ASPECT_*``) is the table's aspect when
    it is 0 or more (missiles, VA-26; an area's from its centre, VA-52), else the attacker's
    from the positions ``px``, ``py`` (all the vehicle rooms read of ``strike.Where``: a whole
    group at an out-of-line call site costs the hot loop, taken or not, PERFORMANCE-NOTES 17);
    ``given`` (0 or more; -1: none) is the damage an area already rolled for it, and
    ``kill_drop`` the Kills its blast lost on the way (VA-52 ``area_kill_falloff``; both
    passed by every caller, so the one compiled function serves both). Returns
    ``(state, damage rolled, event location (100 + vehicle location), Kills of the attack,
    structure lost, damage through, the pilot's Hits lost, Stun lost and damage through, -1 for
    none, the event count)``."""
    nd6_start = np.uint64(dt.nd6_offsets[TABLE_DICE])
    u_nd6_size = np.uint64(dt.nd6_offsets[TABLE_DICE + 1]) - nd6_start
    asp = np.int64(1)
    if aspect >= 0:
        asp = np.int64(aspect)
    elif vh.locs_on:  # the attacker's aspect (VA-05): the table's dice (F31)
        asp = aspect_of(px[a] - px[tgt], py[a] - py[tgt], vs.hd[tgt],
                        vh.front_arc, vh.vclass[tgt] == VCLASS_MECHA)  # fmt: skip
    kill_rated = sh.scale[tgt] == SCALE_KILLS
    att_kills = np.int64(0)
    if kill_rated:  # F29: Kills, or a small attacker's DC above 13 (superdamage)
        att_kills = (
            wp.kills[a] if (form == F_WEAPON and wp.kills[a] > 0)
            else (n_dice - 13 if n_dice >= 14 else 0)
        )  # fmt: skip
        att_kills = max(att_kills - kill_drop, 0)
    whole = mc.arm_lost.shape[1] - 1  # the whole vehicle's area (no locations rolled)
    unit = vh.kill_unit[tgt]
    loc = np.int64(-1)
    raw = np.int64(0)
    hits_lost = np.int64(0)
    through = np.int64(0)
    p_hits = np.int64(0)
    p_stun = np.int64(0)
    p_through = np.int64(-1)
    for h in range(max(n_hits, 1)):
        if given >= 0:
            raw_h = given
        else:
            s0, s1, s2, s3, raw_h = hit_damage(h, dice_bits, n_dice, dt.nd6_table,
                                               dt.nd6_offsets, nd6_start, u_nd6_size, s0, s1,
                                               s2, s3)  # fmt: skip
        if special:
            raw_h = 0  # these manoeuvres do no damage themselves
        raw += raw_h
        chinked = mc.chinks and margin - h * rl.autofire_ratio >= 10
        row = np.int64(-1)
        k = np.int64(0)
        area = whole
        if vh.locs_on:  # the row first: its area's armour (staged penetration, VA-42)
            row = vh.call[a * vh.vclass.shape[0] + tgt] if aspect < 0 else -1
            if row < 0:  # not a called shot (a missile's never is): the table's dice
                s0, s1, s2, s3, row = hit_row(tgt, asp, vh, s0, s1, s2, s3)
            k = tgt * V_ROWS + row
            area = vh.locid[k]
        if kill_rated:
            passed = max(att_kills - (0 if chinked else staged_armour(tgt, area, ar, mc)),
                         0) * hit  # fmt: skip
            through_h = passed * unit
        else:  # SDP: Stun and killing alike
            passed = max(raw_h - (0 if chinked else armour), 0) * hit
            through_h = passed
        crew_row = False
        if vh.locs_on:
            loc = 100 + vh.locid[k]
            if hit:
                vs.vloc_hits[tgt, vh.locid[k]] += 1
            if vh.crew[k]:  # "damage to pilot only", "if shot penetrates armor"
                crew_row = True
                if passed > 0 and p_through < 0:  # whom the attack's crew hits strike
                    vs.hit_crew[tgt] = vh.pilot[tgt]
                    if vh.random_crew:
                        s0, s1, s2, s3, who = random_crew(tgt, vh, hl, s0, s1, s2, s3)
                        vs.hit_crew[tgt] = who
                pilot = vs.hit_crew[tgt]
                if passed > 0 and pilot >= 0:
                    s0, s1, s2, s3, lost, stun, thr = crew_wound(
                        a, pilot, passed, kill_rated, dmg_type, hl.stun[pilot] - p_stun, wp, ar,
                        sh, vh, mc, dt, rl.ap_factor, s0, s1, s2, s3,
                    )  # fmt: skip
                    p_hits += lost
                    p_stun += stun
                    p_through = max(p_through, 0) + thr
                    vs.vloc_dmg[tgt, vh.locid[k]] += thr
                through_h = 0
            else:
                through_h = through_h * vh.num[k] // vh.den[k]
                vs.vloc_dmg[tgt, vh.locid[k]] += through_h
                ne = critical(tgt, row, through_h, vh, vs, hl, tl, now, log, events, ne)
        struct_h = through_h
        if vh.locs_on and not crew_row and vh.thr[k] > 0 and not vh.counts_total:
            through_h = 0  # the location's alone (VA-09 b)
        hits_lost += through_h
        through += through_h
        if kill_rated and passed > 0:  # the special armour rules for mecha (F30)
            if mc.staged:
                stage(tgt, area, passed, att_kills, struct_h, crew_row, unit, ar, mc)
            if mc.integrity and (struct_h > 0 or crew_row):
                s0, s1, s2, s3 = integrity(tgt, hl.hits[tgt] - hits_lost, unit, mc, hl, tl, now,
                                           s0, s1, s2, s3)  # fmt: skip
    return (s0, s1, s2, s3, raw, loc, att_kills, hits_lost, through, p_hits, p_stun,
            p_through, ne)


@jit(**INNER)
def area_room(a, c, dmg, dc_m, cx, cy, n_dice, dmg_type, arm, wp, ar, sh, hl, px, py, tl, dt, rl,
              vh, vs, mc, now, log, events, ne, s0, s1, s2, s3):  # fmt: skip
    """An area's damage ``dmg`` (after the explosion's fall-off) on ``c``, a vehicle or a person
    in powered armour (``arm``: its PD against the attack), the one call of ``strike.blast``
    for both. A vehicle (VA-52) takes it as one hit: its table's dice from the blast centre's
    aspect (side at the centre itself), the row's multiplier, critical location or crew row,
    staging and integrity as :func:`vehicle_hits`; a Kill-rated blast on a Kill-rated vehicle
    loses 1 Kill per 4 m from the centre (``area_kill_falloff: per_radius_step``, not from the
    seed). Returns ``(state, damage through, Hits (structure) lost, Stun lost, the crew member
    the crew row hit (-1: none), its Hits lost, Stun lost and damage through, the event
    count)``."""
    if vh.vclass[c] == 0:
        thr, lost, stun = suited_area(c, dmg_type, dmg, arm, sh.sd[c], hl.stun[c], mc)
        return (s0, s1, s2, s3, thr, lost, stun, np.int64(-1), np.int64(0), np.int64(0),
                np.int64(0), ne)  # fmt: skip
    asp = np.int64(ASPECT_SIDE)
    if vh.locs_on:
        asp = aspect_of(cx - px[c], cy - py[c], vs.hd[c], vh.front_arc,
                        vh.vclass[c] == VCLASS_MECHA or (cx == px[c] and cy == py[c]))
    drop = np.int64(dc_m // 4.0) if vh.kill_falloff and wp.kills[a] > 0 else np.int64(0)
    (s0, s1, s2, s3, _raw, _loc, _k, lost, through, p_hits, p_stun, p_through,
     ne) = vehicle_hits(
        a, c, F_WEAPON, np.int64(1), np.int64(1), np.int64(-1), np.uint64(0), n_dice, dmg_type,
        arm, False, wp, ar, sh, hl, px, py, tl, dt, rl, vh, vs, mc, now, log, events, ne, s0, s1,
        s2, s3, asp, dmg, drop,
    )  # fmt: skip
    who = vs.hit_crew[c] if p_through >= 0 else np.int64(-1)
    return s0, s1, s2, s3, through, lost, np.int64(0), who, p_hits, p_stun, p_through, ne


@jit(**INNER)
def other_hits(a, tgt, form, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special,
               wp, ar, sh, md, hl, px, py, tl, dt, rl, vh, vs, mc, now, log, events, ne, s0, s1, s2,
               s3, aspect):  # fmt: skip
    """The hits of an attack on a target whose hits are not the people's: a vehicle
    (:func:`vehicle_hits`) or a person in powered armour (``vehicles.suit.suited_hits``). One entry
    point, so the people's hit loop in ``strike.strike`` keeps a single call site. Returns
    ``(state, damage rolled, location, Kills of the attack, Hits (structure) lost, Stun lost,
    damage through, the pilot's Hits lost, Stun lost and damage through, -1 for none, the event
    count)``; ``aspect`` as for :func:`vehicle_hits`."""
    if vh.vclass[tgt] > 0:
        (s0, s1, s2, s3, raw, loc, att_kills, hits_lost, through, p_hits, p_stun,
         p_through, ne) = vehicle_hits(
            a, tgt, form, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special, wp,
            ar, sh, hl, px, py, tl, dt, rl, vh, vs, mc, now, log, events, ne, s0, s1, s2, s3,
            aspect, np.int64(-1), np.int64(0),
        )  # fmt: skip
        return (s0, s1, s2, s3, raw, loc, att_kills, hits_lost, np.int64(0), through, p_hits,
                p_stun, p_through, ne)  # fmt: skip
    s0, s1, s2, s3, raw, loc, hits_lost, stun_lost, through = suited_hits(
        a, tgt, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special, ar, sh, md,
        hl, tl, dt, rl, mc, s0, s1, s2, s3,
    )  # fmt: skip
    return (s0, s1, s2, s3, raw, loc, np.int64(0), hits_lost, stun_lost, through, np.int64(0),
            np.int64(0), np.int64(-1), ne)  # fmt: skip
