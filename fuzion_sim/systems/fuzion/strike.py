"""The general kernel's attack, one step a room: the attack's form and values (weapon, fists,
kick), its modifiers and the target's abort to a defence, an area attack (a blast or a spread),
a strike of one or more shots (autofire, bursts, hit locations, chinks, Kills, knockback,
manoeuvres), and the wounds it leaves. ``kernel.py`` calls them in that order.

Every helper is inlined into the kernel (``inline="always"``), takes the kernel's arrays in the
named groups below (``wp.range[a]``: the range of ``a``'s weapon) and returns what it changed
that is not an array. Semantics: RULINGS F11-F17 (modifiers, autofire, bursts, areas), F19-F22
(damage, Stun, stunned), F24-F30 (impairment to chinks), F32-F33 (abort, grapples).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..._jit import INNER, jit
from ...engine.rng import split_bits, xoshiro, xoshiro_bits
from . import tactics as tx
from .actions import moved_geometry
from .codes import (
    ABORT_BLOCK,
    ABORT_DIVE,
    ABORT_DODGE,
    ABORT_NONE,
    EV_ACTION,
    EV_FLAGS,
    EV_RAW,
    EV_ROLL,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_AREA,
    EVENT_DEFEND,
    EVENT_DISARM,
    EVENT_KNOCKBACK,
    F_KICK,
    F_PUNCH,
    F_WEAPON,
    FLAG_HIT,
    HOLD_CHOKE,
    HOLD_ENTANGLE,
    HOLD_NONE,
    LOC_CALLED,
    LOC_NONE,
    MELEE_REACH,
    SCALE_KILLS,
    SCALE_OBJECT,
    UNMANNED_BY_RANGE,
)
from .dice import TABLE_DICE, roll_nd6
from .features.scene.room import knocked
from .features.vehicles.room import area_room, carry_crew, other_hits
from .features.vehicles.suit import scaled_rmod
from .kernel_parts import goes_out, hit_damage, log_event
from .rules import (
    KILLING,
    STUN,
    armour_value,
    damage_dice,
    effective,
    move_away,
    object_dv,
    out_of_fight,
    penetration,
    split_through,
    wound_penalty,
)

#: ``blast``'s DV when it has none to report (the target was not among those who defend).
NO_DV = np.int64(-(1 << 40))

# The kernel's arrays in named groups (the kernel builds each once a chunk; the arrays are
# shared): a call passes a few groups, not sixty arrays. CPython makes a call of more than
# 30 arguments ``f(*args)``, which numba cannot inline.
#: ``wp``: each combatant's weapon (``w_*`` in the kernel)
Weapons = namedtuple(
    "Weapons",
    "melee dmg dc acc min_str range ap energy kills blade autofire rof area explosive missile mdv",
)
#: ``ar``: each combatant's armour (``a_*``)
Armour = namedtuple("Armour", "pd ekd kills half_blades cover")
#: ``sh``: the character sheets, fixed for the fight
Sheet = namedtuple(
    "Sheet",
    "side ref dex strength body hits_max stun_max sd att_skill h2h_skill escape_skill "
    "def_ranged def_melee scale knock_body abort_kind surprised",
)
#: ``md``: static attack modifiers and each combatant's called shot
Mods = namedtuple(
    "Mods", "tgt_mod_r tgt_mod_m cover_r cover_m att_mod_r att_mod_m called_loc called_mod"
)
#: ``hl``: wounds and what follows from them: Hits, Stun, out, the penalty and its values
Health = namedtuple(
    "Health", "hits stun dead gave_up lose is_out penalty e_ref e_dex e_str damaged"
)
#: ``wh``: positions, the last action's move (``moved`` float64[C, 3]: metres, dx, dy), the
#: distance and range modifier of every pair, the scene's obstacles and drops a knockback may
#: meet (``scene.room.Impacts``), the dogfights' pairs (``dogfights.room.DState.dfs``: column 0
#: the partner, -1 none), and the vehicle each crew member rides (``carrier``, -1 none)
Where = namedtuple("Where", "px py moved dist rmod scene dogfight carrier")
#: ``st``: aim, cover, posture, defences, holds, the magazine, turns taken and aborted
Stance = namedtuple(
    "Stance",
    "aim aim_tgt in_cover prone next_mod dodge block diving dv_pen held_by hold disarmed ammo "
    "recovering obs_pen acted_t aborted_t",
)
#: ``tl``: the trial's counters, and the chunk's hits by location
Tally = namedtuple("Tally", "c_dealt c_taken c_death c_out c_knock location_hits")
#: ``dt``: the dice tables (``dice``) and the hit locations
Dice = namedtuple(
    "Dice", "roll_table task_table def_table nd6_offsets nd6_table loc_by_roll loc_num loc_den"
)
#: ``vic``: the combatants an attack damaged and what each lost (``v_*``)
Victims = namedtuple("Victims", "c hits stun through")
#: ``rl``: the rule switches the attack reads (scalars)
Rules = namedtuple(
    "Rules",
    "loc_mode chinks autofire_one_plus autofire_ratio knockback knock_unit ap_factor "
    "dodge_bonus block_bonus stunned_rule impairment dying_penalty dying_can_act "
    "slots_per_round moving_relative",
)


@jit(**INNER)
def moving_target(a, tgt, wh, relative):
    """The metres the moving-target penalty counts (F10: -1 per 10 m): what ``tgt`` moved in
    its last action, or under VA-16 ``moving_target: relative`` the length of the difference
    of the two moves (a crew member moves as its vehicle does), so a chase at one speed costs
    nothing."""
    if not relative:
        return wh.moved[tgt, 0]
    ma = a if wh.carrier[a] < 0 else wh.carrier[a]
    mt = tgt if wh.carrier[tgt] < 0 else wh.carrier[tgt]
    dx = wh.moved[mt, 1] - wh.moved[ma, 1]
    dy = wh.moved[mt, 2] - wh.moved[ma, 2]
    return np.sqrt(dx * dx + dy * dy)


@jit(**INNER)
def attack_form(a, tgt, action, d_at, wp, ar, sh, hl, st, rl):
    """The form of ``a``'s attack on ``tgt`` and its values before modifiers: ``(form, melee,
    in reach, AV, damage dice, damage type, armour)``. The weapon (F12-F13: minimum STR, STR
    dice, F29 Kills, AP, energy, armour half against blades), or the fists (F14: a punch STR
    dice of Stun at REF + Hand to Hand against PD; a kick +1 die at -1; a disarmed fighter,
    a sweep, disarm and choke punch; a gun's haymaker and move by or thru too)."""
    form = F_WEAPON
    if action == tx.A_KICK:  # a kick needs no weapon: disarmed too
        form = F_KICK
    elif (
        st.disarmed[a] or action == tx.A_PUNCH or action == tx.A_SWEEP or action == tx.A_DISARM
        or action == tx.A_CHOKE
    ):  # fmt: skip
        form = F_PUNCH
    elif (
        action == tx.A_HAYMAKER or action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU
    ) and not wp.melee[a]:
        form = F_PUNCH
    if form == F_WEAPON:
        melee = wp.melee[a] != 0
        reach_ok = d_at <= wp.range[a] if melee else True
        av = hl.e_ref[a] + sh.att_skill[a] + wp.acc[a]
        if hl.e_str[a] < wp.min_str[a]:
            av -= wp.min_str[a] - hl.e_str[a]  # F12: -1 per STR point short
        n_dice = damage_dice(wp.dc[a], hl.e_str[a], wp.min_str[a], melee)
        if wp.kills[a] > 0:  # F29: a Kill-rated attack on a small target
            n_dice = 13 + wp.kills[a]
        dmg_type = wp.dmg[a]
        armour = armour_value(ar.pd[tgt], ar.ekd[tgt], wp.energy[a], wp.ap[a], rl.ap_factor)
        if wp.blade[a] and ar.half_blades[tgt]:
            armour //= 2
    else:
        melee = True
        reach_ok = d_at <= MELEE_REACH
        av = hl.e_ref[a] + sh.h2h_skill[a]
        n_dice = hl.e_str[a]
        if form == F_KICK:
            av -= 1
            n_dice += 1
        dmg_type = STUN
        armour = ar.pd[tgt]
    return form, melee, reach_ok, av, n_dice, dmg_type, armour


@jit(**INNER)
def shots_fired(a, action, form, fire, wp, st):
    """F15 autofire: the shots the rule chooses (0: all), up to the ROF and the magazine; F16
    a burst 3 shots. Takes the rounds after the first from the magazine."""
    shots = np.int64(1)
    if form == F_WEAPON and action == tx.A_BURST:
        shots = 3
    elif form == F_WEAPON and wp.autofire[a] and action == tx.A_ATTACK:
        shots = wp.rof[a] if fire <= 0 else min(fire, wp.rof[a])
    if form == F_WEAPON and st.ammo[a] >= 0:
        shots = min(shots, st.ammo[a] + 1)  # one round was taken with the attack
        st.ammo[a] -= shots - 1
    return shots


def attack_rooms(rooms, vehicles, scene, mecha_range):
    """The attack's three pieces that reach other rooms, ``(attack_odds, blast, strike)``, with
    only the rooms a fight has compiled in: ``rooms`` a vehicle or powered armour to be hit
    (``vehicles.room.other_hits``, ``vehicles.room.area_room``), ``vehicles`` a crew carried by
    knockback (``vehicles.room.carry_crew``), ``scene`` a wall or a drop in knockback's way
    (``scene.room.knocked``), ``mecha_range`` the mecha range scale
    (``vehicles.suit.scaled_rmod``). numba prunes the branches on a closure's variables before it
    types anything, so a room left out is not compiled.
    """
    flags = (rooms, vehicles, scene, mecha_range)
    return _odds_room(*flags), _blast_room(*flags), _strike_room(*flags)


def _variant(*rooms) -> str:
    """The rooms as the key of a kernel variant's cache entry (``_jit.jit``'s ``variant``)."""
    return "".join("1" if f else "0" for f in rooms)


def _odds_room(rooms, vehicles, scene, mecha_range):
    """``attack_odds`` with :func:`attack_rooms`'s rooms compiled in."""
    variant = _variant(rooms, vehicles, scene, mecha_range)

    @jit(inline="always", variant=variant)
    def attack_odds(a, tgt, action, form, melee, av, n_dice, dmg_type, pair, t_abs, slot,
                    opening, fast_draw, wp, sh, md, hl, wh, st, rl, mc, acts, log, events, ne,
                    now):  # fmt: skip
        """The attack's modifiers and the target's defence base: range, cover, posture, size,
        aiming, a moving target, surprise, a called shot, the manoeuvre's own (haymaker, draw and
        attack, move by, move thru), and F32: a target with an ``abort`` spends its coming turn
        on that defence now. The shot spends the aim and a round. Returns ``(AV, defence base,
        damage dice, damage type, ne)``."""
        if melee:
            av += md.tgt_mod_m[tgt] + md.att_mod_m[a]
            if st.in_cover[tgt]:
                av += md.cover_m[tgt]
            dv_base = hl.e_dex[tgt] + sh.def_melee[tgt] + st.dodge[tgt] + st.block[tgt]
        else:
            rm = wh.rmod[pair]
            if mecha_range and mc.rscale[a] > 1.0:  # the mecha range scale (M-18, VA-17)
                rm = scaled_rmod(a, tgt, pair, wp.range, wh.dist, wh.rmod, mc.rscale, mc.rs_target)
            av += rm + md.tgt_mod_r[tgt] + md.att_mod_r[a]
            if st.aim_tgt[a] == tgt:
                av += st.aim[a]
            if st.in_cover[tgt]:
                av += md.cover_r[tgt]
            dv_base = hl.e_dex[tgt] + sh.def_ranged[tgt] + st.dodge[tgt]
            if st.prone[tgt]:
                av -= 2  # knocked prone by a sweep (F11: target prone)
            went = moving_target(a, tgt, wh, rl.moving_relative)
            if went >= 10.0 and wh.dogfight[a, 0] != tgt:
                av -= np.int64(went // 10.0)  # moving target: -1 per 10 m (not in a dogfight
                # with it, VA-16: the dogfight roll stands for the relative motion)
        if (
            sh.abort_kind[tgt] != ABORT_NONE
            and not (sh.abort_kind[tgt] == ABORT_DIVE and wp.area[a] == 0.0)
            and acts[tgt * rl.slots_per_round + slot] != 0
            and st.acted_t[tgt] != t_abs
            and st.aborted_t[tgt] != t_abs
            and st.held_by[tgt] < 0
        ):
            st.aborted_t[tgt] = t_abs
            kind = sh.abort_kind[tgt]
            bonus = rl.dodge_bonus
            if kind == ABORT_DODGE:  # replaces any dodge still running
                dv_base += rl.dodge_bonus - st.dodge[tgt]
                st.dodge[tgt] = rl.dodge_bonus
            elif kind == ABORT_BLOCK:
                if melee:
                    dv_base += rl.block_bonus - st.block[tgt]
                st.block[tgt] = rl.block_bonus
                bonus = rl.block_bonus
            else:
                st.diving[tgt] = True
                bonus = 0
            if log:
                row = log_event(events, ne, now, EVENT_DEFEND, tgt, a)
                events[row, EV_ACTION] = (
                    tx.A_DODGE if kind == ABORT_DODGE
                    else tx.A_BLOCK if kind == ABORT_BLOCK else tx.A_DIVE
                )  # fmt: skip
                events[row, EV_RAW] = bonus
                ne += 1
        dv_base -= st.dv_pen[tgt] + st.obs_pen[tgt]
        av -= st.obs_pen[a]
        if st.recovering[tgt]:
            dv_base -= 5  # recovering: -5 DEX that phase (F23)
        if sh.surprised[tgt] and opening:
            av += 5  # F11: attacking a surprised target
        av += st.next_mod[a]
        st.next_mod[a] = 0
        av += md.called_mod[pair]  # a called shot (F27; at a vehicle, M-77)
        if action == tx.A_HAYMAKER:
            av -= 3  # +3 dice, -3 to hit
            n_dice += 3
        elif fast_draw:
            av -= 3
        elif action == tx.A_MOVE_BY:  # half STR +1 die a 10 m, -2 REF/DEX
            av -= 2
            st.dv_pen[a] = 2
            n_dice = hl.e_str[a] // 2 + np.int64(wh.moved[a, 0] // 10.0)
            dmg_type = STUN
        elif action == tx.A_MOVE_THRU:  # STR +1 die a 5 m, -1 REF a 10 m
            av -= np.int64(wh.moved[a, 0] // 10.0)
            st.dv_pen[a] = 3
            n_dice = hl.e_str[a] + np.int64(wh.moved[a, 0] // 5.0)
            dmg_type = STUN
        if not wp.melee[a] and form == F_WEAPON:
            if not (wp.explosive[a] and wp.area[a] > 0.0):
                st.aim[a] = 0  # the shot spends the aim (a throw at a point: once thrown, blast)
            if st.ammo[a] > 0:
                st.ammo[a] -= 1
        return av, dv_base, n_dice, dmg_type, ne
    return attack_odds


def _blast_room(rooms, vehicles, scene, mecha_range):
    """``blast`` with :func:`attack_rooms`'s rooms compiled in."""
    variant = _variant(rooms, vehicles, scene, mecha_range)

    @jit(**INNER, variant=variant)  # cold: out of the trial loop (PERFORMANCE-NOTES 18)
    def blast(a, tgt, av, n_dice, dmg_type, t_abs, slot, wp, ar, sh, md, hl, wh, st, dt, vic, rl,
              vh, vs, mc, tl, acts, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
        """F17: an area attack. A spread (a shotgun) is one attack every combatant in its radius
        defends against; an explosive is thrown at a point (the DV by range, F4), scatters
        ``min(miss, range / 2)`` metres in a 1d6 direction on a miss, and deals one damage roll
        less 2 a metre from the centre; a diver (or a bystander aborting to dive, F32) gets clear
        on DEX + Athletics + the task die against 8, +1 a metre past the first. Friends are caught
        too. A vehicle in it takes one hit on its table from the blast centre, a suit its split
        (``vehicles.room.area_room``, VA-52); a crew row's damage is its crew member's, another
        victim. Fills the victims (``v_*``); returns ``(state, ne, victims, roll, AV, DV, damage
        rolled, hit the target, damage through to it)`` (at most 30 arguments: more are a call numba
        cannot inline). An explosive's roll is the plain die and its DV the DV by range; a
        spread's, as every other attack's, are the difference of the attacker's die and the
        target's defence die and the target's defence less its die (``NO_DV``: the target did not
        defend, and keeps the defence base it had).
        """
        n_comb = sh.side.shape[0]
        d_at = wh.dist[a * n_comb + tgt]
        dv_base = NO_DV
        n_task = dt.task_table.shape[0]
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        roll = np.int64(dt.task_table[np.int64(u * n_task)])
        cx = wh.px[tgt]
        cy = wh.py[tgt]
        radius = wp.area[a]
        if wp.explosive[a]:
            d_s = d_at
            r_s = wp.range[a]
            if mc.rscale[a] > 1.0 and mc.rs_target[tgt]:  # the bands x10 (M-18, VA-17)
                d_s = d_at / mc.rscale[a]
                r_s = r_s / mc.rscale[a]
            dv_base = object_dv(d_s, r_s)
            aimed = st.aim[a] if st.aim_tgt[a] == tgt else 0
            st.aim[a] = 0  # the throw spends the aim
            av = hl.e_ref[a] + sh.att_skill[a] + wp.acc[a] + aimed + md.att_mod_r[a] - st.obs_pen[a]
            miss = dv_base - (av + roll)
            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
            if miss > 0:
                off = min(float(miss), d_at / 2.0)
                angle = np.int64(u * 6.0) * (np.pi / 3.0)
                cx += off * np.cos(angle)
                cy += off * np.sin(angle)
        # one damage roll for the blast or the spread
        s0, s1, s2, s3, raw = roll_nd6(s0, s1, s2, s3, n_dice, dt.nd6_offsets, dt.nd6_table)
        hit = np.int64(0)
        through = np.int64(0)
        n_victims = 0
        t_roll = roll if wp.explosive[a] else roll - np.int64(dt.def_table[0])
        for c in range(n_comb):
            if (hl.is_out[c] and hl.dead[c]) or vh.carrier[c] >= 0:
                continue  # the dead, and a vehicle's crew (inside it: the vehicle is hit)
            ddx = wh.px[c] - cx
            ddy = wh.py[c] - cy
            dc_m = np.sqrt(ddx * ddx + ddy * ddy)
            if dc_m > radius:
                continue
            dmg = raw
            if wp.explosive[a]:
                dmg = max(raw - 2 * np.int64(dc_m), 0)  # 2 less a metre
                caught = True
                if (
                    sh.abort_kind[c] == ABORT_DIVE
                    and not st.diving[c]
                    and acts[c * rl.slots_per_round + slot] != 0
                    and st.acted_t[c] != t_abs
                    and st.aborted_t[c] != t_abs
                    and st.held_by[c] < 0
                    and not hl.is_out[c]
                ):  # F32: a bystander aborts its coming turn to dive
                    st.diving[c] = True
                    st.aborted_t[c] = t_abs
                    if log:
                        row = log_event(events, ne, now, EVENT_DEFEND, c, a)
                        events[row, EV_ACTION] = tx.A_DIVE
                        ne += 1
                if st.diving[c]:  # dive for cover: DV 8, +1 a metre past 1
                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                    out_m = np.int64(np.ceil(radius - dc_m))
                    dive_dv = 8 + max(out_m - 1, 0)
                    dive = np.int64(dt.task_table[np.int64(u * n_task)])
                    caught = hl.e_dex[c] + sh.escape_skill[c] + dive < dive_dv
            else:  # each defends against the one attack total
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                droll = np.int64(dt.def_table[np.int64(u * dt.def_table.shape[0])])
                dv_c = (hl.e_dex[c] + sh.def_ranged[c] + st.dodge[c] - st.dv_pen[c]
                        - st.obs_pen[c] + droll)  # fmt: skip
                caught = av + roll >= dv_c
                if c == tgt:  # the target's line: the dice's difference against its defence
                    t_roll = roll - droll
                    dv_base = dv_c - droll
            if not caught:
                continue
            arm = armour_value(ar.pd[c], ar.ekd[c], wp.energy[a], wp.ap[a], rl.ap_factor)
            who = np.int64(-1)
            p_hits = np.int64(0)
            p_stun = np.int64(0)
            p_thr = np.int64(0)
            # a vehicle or a suit: their rooms, one call (features/vehicles/room.py, VA-52)
            if rooms and mc.room[c]:
                (s0, s1, s2, s3, thr_c, lost_c, stun_c, who, p_hits, p_stun, p_thr,
                 ne) = area_room(
                    a, c, dmg, dc_m, cx, cy, n_dice, dmg_type, arm, wp, ar, sh, hl, wh.px, wh.py,
                    tl, dt, rl, vh, vs, mc, now, log, events, ne, s0, s1, s2, s3,
                )  # fmt: skip
            elif sh.scale[c] == SCALE_KILLS:  # F29: only DC 14+ does Kills
                kills_in = wp.kills[a] if wp.kills[a] > 0 else max(n_dice - 13, 0)
                lost_c = max(kills_in - ar.kills[c], 0) * vh.kill_unit[c]
                stun_c = np.int64(0)
                thr_c = lost_c
            elif sh.scale[c] == SCALE_OBJECT:
                lost_c = max(dmg - arm, 0)
                stun_c = np.int64(0)
                thr_c = lost_c
            else:
                thr_c = penetration(dmg_type, dmg, arm, sh.sd[c])
                lost_c, stun_c = split_through(dmg_type == KILLING, thr_c, hl.stun[c])
            vic.c[n_victims] = c
            vic.hits[n_victims] = lost_c
            vic.stun[n_victims] = stun_c
            vic.through[n_victims] = thr_c
            n_victims += 1
            if who >= 0:  # the crew row: its crew member's (M-26, VA-13)
                vic.c[n_victims] = who
                vic.hits[n_victims] = p_hits
                vic.stun[n_victims] = p_stun
                vic.through[n_victims] = p_thr
                n_victims += 1
            if c == tgt:
                hit = np.int64(1)
                through = thr_c
            if log:
                row = log_event(events, ne, now, EVENT_AREA, c, a)
                events[row, EV_RAW] = dmg
                events[row, EV_THROUGH] = thr_c
                events[row, EV_X] = np.int64(cx * 100.0)
                events[row, EV_Y] = np.int64(cy * 100.0)
                ne += 1
        return s0, s1, s2, s3, ne, n_victims, t_roll, av, dv_base, raw, hit, through
    return blast


def _strike_room(rooms, vehicles, scene, mecha_range):
    """``strike`` with :func:`attack_rooms`'s rooms compiled in."""
    variant = _variant(rooms, vehicles, scene, mecha_range)

    @jit(inline="always", variant=variant)
    def strike(a, tgt, action, form, av, dv_base, n_dice, dmg_type, armour, shots, wp, ar, sh, md,
               hl, wh, tl, dt, rl, vh, vs, mc, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
        """The roll and the damage of one attack of ``shots`` (F15 autofire: ceil(margin /
        ratio) bullets, or 1 + floor under ``one_plus_floor``; F16 a burst ceil(1d6 / 2)): every
        hit rolls its dice (F19: groups of five from the 5d6 table, the first from the roll's
        generator step, so nothing branches on the dice), meets the armour (F30 chinks: not when
        the margin is 10 or more), a location (F27) and its multiplier; Kills against a Kill-rated
        target (F29), SDP of an object; knockback (F28) on a hit. A hit on a vehicle rolls its
        table by the attacker's aspect (``hull``: F31, M-22 to M-30): the row's multiplier, its
        critical location, or the crew row's damage to the pilot. A vehicle nobody drives (VA-04)
        is targeted unopposed at the DV by range (``unmanned_dv: by_range``, F4) or opposed from a
        defence base of 0 (``zero_base``). Returns ``(state, ne, roll, defence base, damage
        rolled, hit, bullets that hit, location, Hits lost, Stun lost, damage through, and the
        pilot's Hits lost, Stun lost and damage through, -1 for no crew hit)``."""
        nd6_start = np.uint64(dt.nd6_offsets[TABLE_DICE])
        u_nd6_size = np.uint64(dt.nd6_offsets[TABLE_DICE + 1]) - nd6_start
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        ri, dice_bits = split_bits(x, np.uint64(dt.roll_table.shape[0]))  # (a multiple of the task
        # table's size: ri % its size is its die alone, uniformly)
        roll = np.int64(dt.roll_table[ri])
        if vh.unmanned != 0 and vh.vclass[tgt] > 0:
            p = vh.pilot[tgt]
            if p < 0 or hl.is_out[p]:  # nobody drives (VA-04): the DV by range, or a base of 0
                dv_base = 0
                if vh.unmanned == UNMANNED_BY_RANGE:  # unopposed: the attacker's die alone (F4)
                    roll = np.int64(dt.task_table[ri % dt.task_table.shape[0]])
                    d = wh.dist[a * sh.side.shape[0] + tgt]
                    listed = wp.range[a]
                    if mc.rscale[a] > 1.0 and mc.rs_target[tgt]:  # the bands x10 (M-18, VA-17)
                        d = d / mc.rscale[a]
                        listed = listed / mc.rscale[a]
                    dv_base = object_dv(d, listed) - vh.unmanned_shift
        margin = roll - (dv_base - av)
        hit = np.int64(margin >= 0)
        n_hits = hit
        if hit and shots > 1:
            if action == tx.A_BURST:  # ceil(1d6 / 2) bullets
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                n_hits = min((np.int64(u * 6.0) + 2) // 2, shots)
            elif rl.autofire_one_plus:  # 1 + floor(margin / ratio)
                n_hits = min(shots, 1 + margin // rl.autofire_ratio)
            else:  # max(1, ceil(margin / ratio))
                n_hits = min(shots, max(1, -(-margin // rl.autofire_ratio)))
        special = (
            action == tx.A_SWEEP or action == tx.A_DISARM or action == tx.A_CHOKE
            or action == tx.A_ENTANGLE
        )  # fmt: skip
        loc = -1
        att_kills = np.int64(0)
        raw = np.int64(0)
        hits_lost = np.int64(0)
        stun_lost = np.int64(0)
        through = np.int64(0)
        p_hits = np.int64(0)
        p_stun = np.int64(0)
        p_through = np.int64(-1)
        if rooms and mc.room[tgt]:
            # a vehicle, or a person in powered armour: their own rooms, behind one call
            # (features/vehicles/room.py;
            # a second call site here made the people's hits 10-30% slower)
            (s0, s1, s2, s3, raw, loc, att_kills, hits_lost, stun_lost, through, p_hits, p_stun,
             p_through, ne) = other_hits(
                a, tgt, form, hit, n_hits, margin, dice_bits, n_dice, dmg_type, armour, special,
                wp, ar, sh, md, hl, wh.px, wh.py, tl, dt, rl, vh, vs, mc, now, log, events, ne, s0,
                s1, s2, s3, -1,
            )  # fmt: skip
        else:
            for h in range(max(n_hits, 1)):  # every hit rolls and meets armour
                s0, s1, s2, s3, raw_h = hit_damage(h, dice_bits, n_dice, dt.nd6_table,
                                                   dt.nd6_offsets, nd6_start, u_nd6_size, s0, s1,
                                                   s2, s3)  # fmt: skip
                if special:
                    raw_h = 0  # these manoeuvres do no damage themselves
                raw += raw_h
                armour_h = armour
                chinked = rl.chinks and margin - h * rl.autofire_ratio >= 10
                if chinked:
                    armour_h = 0  # F30 chinks: beat the DV by 10 or more
                if rl.loc_mode != LOC_NONE and sh.scale[tgt] != SCALE_KILLS:
                    if rl.loc_mode == LOC_CALLED and md.called_loc[a] >= 0:
                        loc = md.called_loc[a]
                    else:  # F27: 3d6 on the location table
                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                        loc = dt.loc_by_roll[dt.nd6_table[dt.nd6_offsets[3] + np.int64(u * 216.0)]]
                    if (ar.cover[tgt] >> loc) & 1 == 0:
                        armour_h = 0  # the armour does not cover it
                    if hit:
                        tl.location_hits[tgt, loc] += 1
                if sh.scale[tgt] == SCALE_KILLS:
                    # F29: Kills against Kills; a small attacker's DC above 13 becomes Kills
                    # (superdamage); armour in Kills, which chinks ignore too (M-34, VA-43)
                    att_kills = (
                        wp.kills[a] if (form == F_WEAPON and wp.kills[a] > 0)
                        else (n_dice - 13 if n_dice >= 14 else 0)
                    )  # fmt: skip
                    through_h = max(att_kills - (0 if chinked else ar.kills[tgt]), 0) * hit
                    hits_lost += through_h
                    through += through_h
                elif sh.scale[tgt] == SCALE_OBJECT:  # SDP: Stun and killing alike
                    through_h = max(raw_h - armour_h, 0) * hit
                    if loc >= 0:
                        through_h = through_h * dt.loc_num[loc] // dt.loc_den[loc]
                    hits_lost += through_h
                    through += through_h
                else:
                    through_h = penetration(dmg_type, raw_h, armour_h, sh.sd[tgt])
                    if loc >= 0:  # F27: the multiplier after armour, rounded down
                        through_h = through_h * dt.loc_num[loc] // dt.loc_den[loc]
                    through_h *= hit
                    # collateral Stun never below 0: of what earlier hits left
                    lost_h, stun_h = split_through(
                        dmg_type == KILLING, through_h, hl.stun[tgt] - stun_lost
                    )
                    hits_lost += lost_h
                    stun_lost += stun_h
                    through += through_h
        if rl.knockback and hit:  # F28: (DC + 1d6) - BODY (Kills vs Kills)
            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
            kb_att = att_kills if sh.scale[tgt] == SCALE_KILLS else n_dice
            units = max(kb_att + 1 + np.int64(u * 6.0) - sh.knock_body[tgt], 0)
            if units > 0:
                ox = wh.px[tgt]
                oy = wh.py[tgt]
                tl.c_knock[tgt] += units
                wh.px[tgt], wh.py[tgt], _ = move_away(
                    wh.px[tgt], wh.py[tgt], wh.px[a], wh.py[a], units * rl.knock_unit
                )
                moved_geometry(tgt, wh.px, wh.py, wp.range, wh.dist, wh.rmod)
                if vehicles and vh.vclass[tgt] > 0:
                    carry_crew(tgt, vh.carrier, wh.px, wh.py, wh.moved, wp.range, wh.dist, wh.rmod)
                if log:
                    row = log_event(events, ne, now, EVENT_KNOCKBACK, tgt, a)
                    events[row, EV_RAW] = units
                    events[row, EV_X] = np.int64(wh.px[tgt] * 100.0)
                    events[row, EV_Y] = np.int64(wh.py[tgt] * 100.0)
                    ne += 1
                # into a wall, off a ledge (features/scene/room.py, called)
                if scene and wh.scene.on:
                    s0, s1, s2, s3, ne, i_hits, i_stun, i_thr = knocked(
                        a, tgt, ox, oy, hl.stun[tgt] - stun_lost, ar, sh, hl, wh, wp, vh,
                        vh.kill_unit, dt.nd6_offsets, dt.nd6_table, s0, s1, s2, s3, log, events, ne,
                        now,
                    )  # fmt: skip
                    hits_lost += i_hits
                    stun_lost += i_stun
                    through += i_thr
                    wh.scene.last[0] = i_thr  # the attack's log line keeps the strike's own
        return (s0, s1, s2, s3, ne, roll, dv_base, raw, hit, n_hits, loc, hits_lost, stun_lost,
                through, p_hits, p_stun, p_through)
    return strike


@jit(**INNER)
def manoeuvre(a, tgt, action, raw, hit, ar, sh, hl, st, tl, dt, s0, s1, s2, s3, log, events, ne,
              now):  # fmt: skip
    """What a manoeuvre's hit does besides damage: a sweep lays the target prone (-2 to its
    next attack, +2 to the sweeper's next), a choke or an entangle holds it (F33), a disarm
    contests STR + Hand to Hand for its weapon; the mover takes a share of a move by (1/3) or
    move thru (1/2) against the higher of its PD and SD."""
    if hit and (
        action == tx.A_SWEEP or action == tx.A_DISARM or action == tx.A_CHOKE
        or action == tx.A_ENTANGLE
    ):  # fmt: skip
        if action == tx.A_SWEEP:
            st.prone[tgt] = True
            st.next_mod[tgt] -= 2
            st.next_mod[a] += 2
        elif action == tx.A_CHOKE or action == tx.A_ENTANGLE:
            st.held_by[tgt] = a
            st.hold[tgt] = HOLD_CHOKE if action == tx.A_CHOKE else HOLD_ENTANGLE
        else:
            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
            r2 = np.int64(dt.roll_table[np.int64(u * dt.roll_table.shape[0])])
            if r2 >= (hl.e_str[tgt] + sh.h2h_skill[tgt]) - (hl.e_str[a] + sh.h2h_skill[a]):
                st.disarmed[tgt] = True
            if log:
                row = log_event(events, ne, now, EVENT_DISARM, a, tgt)
                events[row, EV_ACTION] = tx.A_DISARM
                events[row, EV_ROLL] = r2
                events[row, EV_FLAGS] = FLAG_HIT * st.disarmed[tgt]
                ne += 1
    if hit and (action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU):
        share = raw // 3 if action == tx.A_MOVE_BY else raw // 2
        own = max(share - max(ar.pd[a], sh.sd[a]), 0)
        hl.stun[a] -= own
        hl.hits[a] -= own // 5
        tl.c_taken[a] += own
        hl.damaged[a] = True
    return s0, s1, s2, s3, ne


@jit(**INNER)
def take_wounds(a, tgt, n_victims, sh, hl, st, tl, vic, rl, now, standing, sides_left):
    """The attack's wounds land: each victim loses its Hits and Stun (dying, F25; dead at
    -2 x BODY), is stunned past half its Stun (F22), loses its aim; then the victims' and the
    attacker's values under their new penalties (F24) and who went out of the fight (F26; a
    hold ends). Returns (the target went out, the sides still standing)."""
    for vi in range(n_victims):
        c = vic.c[vi]
        tl.c_dealt[a] += vic.through[vi]
        tl.c_taken[c] += vic.through[vi]
        if vic.through[vi] > 0:
            hl.damaged[c] = True
            st.aim[c] = 0  # aiming is lost when the aimer is hit
        hl.hits[c] -= vic.hits[vi]
        hl.stun[c] -= vic.stun[vi]
        if hl.hits[c] <= -2 * sh.body[c] and not hl.dead[c]:
            hl.dead[c] = True
            tl.c_death[c] = now
        if rl.stunned_rule and 2 * vic.stun[vi] > sh.stun_max[c]:
            hl.lose[c] = True
    went_out = False
    for vi in range(n_victims + 1):
        c = vic.c[vi] if vi < n_victims else a
        pen = wound_penalty(
            hl.hits[c], sh.hits_max[c], rl.impairment and sh.scale[c] == 0, rl.dying_penalty
        )
        if hl.lose[c]:
            pen += 5
        if pen != hl.penalty[c]:
            hl.penalty[c] = pen
            hl.e_ref[c] = effective(sh.ref[c], pen)
            hl.e_dex[c] = effective(sh.dex[c], pen)
            hl.e_str[c] = effective(sh.strength[c], pen)
        if not hl.is_out[c] and (
            hl.gave_up[c] or out_of_fight(hl.hits[c], hl.stun[c], hl.dead[c], rl.dying_can_act)
        ):
            went_out = went_out or c == tgt
            sides_left = goes_out(c, now, hl.is_out, tl.c_out, sh.side, standing, sides_left)
            if st.held_by[c] >= 0 or st.hold[c] != HOLD_NONE:
                st.held_by[c] = -1
                st.hold[c] = HOLD_NONE
    return went_out, sides_left
