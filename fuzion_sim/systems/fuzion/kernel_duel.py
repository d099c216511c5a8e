"""The duel kernel: a standing fight of exactly two combatants, with the state in scalars.

A standing fight (``kernel_standing``) of one against one under ``timing: phases`` with nobody
surprised needs no per-combatant arrays at all: both combatants' Hits, Stun, penalties and
cached attack and defence values live in local scalars, which the compiler keeps in registers.
That is the benchmark duel of PERFORMANCE-NOTES.md, and it runs about three times faster here.
Every rule the standing kernel applies to such a fight is here too (criticals, range, armour,
killing and Stun damage, collateral Stun, stunned, impairment, dying and ``dying_can_act`` with
bleeding and death, initiative switch1 and switch2); waking never happens in a duel (a knocked
out combatant ends it). The tests hold it to the standing and general kernels bit for bit.

Bulk runs only: a replay (event log) of the same trial runs on the standing kernel, which draws
the same numbers in the same order.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...dice import TABLE_DICE
from ...engine.rng import trial_seed, xoshiro
from .kernel import (
    DRAW,
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_IMPAIRMENT,
    OPT_INIT_DICE,
    OPT_STUNNED,
    OPT_SWITCH2,
    UNRESOLVED,
)
from .rules import KILLING, combat_values, effective, hit_result, wound_penalty


@jit(inline="always")
def _values(ref, dex, strength, pen, skill, acc, min_str, dc, melee, def_r, def_m, att_melee):
    """(attack base, the DV its opponent's weapon meets, damage dice, current REF)."""
    att, dv_r, dv_m, nd = combat_values(
        ref, dex, strength, pen, skill, acc, min_str, dc, melee, def_r, def_m
    )
    return att, dv_m if att_melee else dv_r, nd, effective(ref, pen)


@jit(inline="always")
def _damage(dmg_type, raw, armour, sd_t, hit, stun_t):
    """(Hits lost, Stun lost, damage through) of one attack (F19-F21)."""
    hits_lost, stun_dmg, through = hit_result(dmg_type, raw, armour, sd_t)
    hits_lost *= hit
    through *= hit
    if dmg_type == KILLING:
        stun_lost = min(hits_lost, max(stun_t, 0))
    else:
        stun_lost = stun_dmg * hit
    return hits_lost, stun_lost, through


@jit(inline="always")
def _take(h, st, dead, death, lose, hits_lost, stun_lost, t, body, hmax, smax, stunned_rule,
          impairment, dying_penalty, dying_can_act):  # fmt: skip
    """A combatant takes an attack (F21-F25): (Hits, Stun, dead, slot of death, stunned, its
    penalty now, out of the fight)."""
    h -= hits_lost
    st -= stun_lost
    if h <= -2 * body and not dead:
        dead = True
        death = t
    if stunned_rule and 2 * stun_lost > smax:
        lose = True
    pen = wound_penalty(h, hmax, impairment, dying_penalty) + 5 * lose
    out = dead or st <= 0 or (h <= 0 and not dying_can_act)
    return h, st, dead, death, lose, pen, out


@jit
def run_chunk(
    key, first, n_trials,
    side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec,
    att_skill, def_ranged, def_melee, base_order,
    w_melee, w_dmg, w_dc, w_acc, w_min_str,
    pair_mod, pair_armour,
    acts, slots_per_round, start_slot, slots_per_unit, max_slots, surprised,
    options, roll_table, nd6_offsets, nd6_table,
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock, location_hits,
    log_trial, events, n_events,
    accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
    taken_sq, attacks_sum, landed_sum,
):  # fmt: skip
    """Run trials ``first .. first + n_trials - 1`` of a duel; the arguments are the standing
    kernel's (``kernel_standing.run_chunk``), of which a duel uses a part (no event log), then
    a :class:`~fuzion_sim.engine.outcomes.Tally`'s arrays.

    With ``accumulate`` the trials are added straight into those tally arrays and the per-trial
    outputs are left alone: a run that streams its results skips writing them and reading them
    back (PERFORMANCE-NOTES: 40 of 120 ns a duel). The numbers are the same either way.
    """
    impairment = options[OPT_IMPAIRMENT] != 0
    stunned_rule = options[OPT_STUNNED] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    switch2 = options[OPT_SWITCH2] != 0
    init_dice = options[OPT_INIT_DICE]
    n_rolls = roll_table.shape[0]
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = nd6_offsets[TABLE_DICE]
    nd6_size = nd6_offsets[TABLE_DICE + 1] - nd6_start
    n_events[0] = 0
    # per-combatant constants (suffix 0 and 1)
    ref0, ref1 = ref[0], ref[1]
    dex0, dex1 = dex[0], dex[1]
    str0, str1 = strength[0], strength[1]
    body0, body1 = body[0], body[1]
    hmax0, hmax1 = hits_max[0], hits_max[1]
    smax0, smax1 = stun_max[0], stun_max[1]
    sd0, sd1 = sd[0], sd[1]
    sk0, sk1 = att_skill[0], att_skill[1]
    dr0, dr1 = def_ranged[0], def_ranged[1]
    dm0, dm1 = def_melee[0], def_melee[1]
    me0, me1 = w_melee[0] != 0, w_melee[1] != 0
    dt0, dt1 = w_dmg[0], w_dmg[1]
    dc0, dc1 = w_dc[0], w_dc[1]
    acc0, acc1 = w_acc[0], w_acc[1]
    ms0, ms1 = w_min_str[0], w_min_str[1]
    mod0, mod1 = pair_mod[1], pair_mod[2]  # 0 attacking 1, 1 attacking 0
    arm0, arm1 = pair_armour[1], pair_armour[2]
    side0, side1 = side[0], side[1]
    fresh0 = _values(ref0, dex0, str0, 0, sk0, acc0, ms0, dc0, me0, dr0, dm0, me1)
    fresh1 = _values(ref1, dex1, str1, 0, sk1, acc1, ms1, dc1, me1, dr1, dm1, me0)

    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        h0, h1 = hmax0, hmax1
        st0, st1 = smax0, smax1
        dead0 = dead1 = False
        lose0 = lose1 = False
        pen0 = pen1 = np.int64(0)
        att0, dv0, nd0, eref0 = fresh0
        att1, dv1, nd1, eref1 = fresh1
        out0 = out1 = np.int64(0)
        death0 = death1 = np.int64(0)
        dealt0 = dealt1 = np.int64(0)
        natt0 = natt1 = np.int64(0)
        land0 = land1 = np.int64(0)
        first_c = base_order[0]
        if has_ties:  # F9 switch1: equal REF, a die roll once per fight
            s0, s1, s2, s3, tie0 = xoshiro(s0, s1, s2, s3)
            s0, s1, s2, s3, tie1 = xoshiro(s0, s1, s2, s3)
            first_c = 0 if tie0 >= tie1 else 1
        result = UNRESOLVED
        finish = max_slots
        for t in range(1, max_slots + 1):
            if switch2:  # F9 switch2: action die + current REF each phase, ties by a die
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                if init_dice == 10:
                    r = np.int64(u * 10.0) + 1
                else:
                    r = np.int64(nd6_table[nd6_offsets[3] + int(u * 216.0)])
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                key0 = eref0 + r + u
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                if init_dice == 10:
                    r = np.int64(u * 10.0) + 1
                else:
                    r = np.int64(nd6_table[nd6_offsets[3] + int(u * 216.0)])
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                key1 = eref1 + r + u
                first_c = 0 if key0 >= key1 else 1
            for k in range(2):
                a = first_c if k == 0 else 1 - first_c
                # the actor: skip when out; a stunned actor loses this action (F22)
                if a == 0:
                    if out0:
                        continue
                    if lose0:
                        lose0 = False
                        pen0 = wound_penalty(h0, hmax0, impairment, dying_penalty)
                        att0, dv0, nd0, eref0 = _values(
                            ref0, dex0, str0, pen0, sk0, acc0, ms0, dc0, me0, dr0, dm0, me1
                        )
                        continue
                    av = att0 + mod0
                    dv_base = dv1
                    n_dice = nd0
                    dmg_type = dt0
                    armour = arm0
                    sd_t = sd1
                    stun_t = st1
                else:
                    if out1:
                        continue
                    if lose1:
                        lose1 = False
                        pen1 = wound_penalty(h1, hmax1, impairment, dying_penalty)
                        att1, dv1, nd1, eref1 = _values(
                            ref1, dex1, str1, pen1, sk1, acc1, ms1, dc1, me1, dr1, dm1, me0
                        )
                        continue
                    av = att1 + mod1
                    dv_base = dv0
                    n_dice = nd1
                    dmg_type = dt1
                    armour = arm1
                    sd_t = sd0
                    stun_t = st0
                # the attack: one uniform for the roll, one for every five dice and the rest
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                hit = np.int64(roll_table[int(u * n_rolls)] >= dv_base - av)
                dice_left = n_dice
                raw = np.int64(0)
                while dice_left >= TABLE_DICE:
                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                    raw += nd6_table[nd6_start + int(u * nd6_size)]
                    dice_left -= TABLE_DICE
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                lo = nd6_offsets[dice_left]
                raw += nd6_table[lo + int(u * (nd6_offsets[dice_left + 1] - lo))]
                hits_lost, stun_lost, through = _damage(dmg_type, raw, armour, sd_t, hit, stun_t)
                if a == 0:
                    natt0 += 1
                    land0 += hit
                    dealt0 += through
                    h1, st1, dead1, death1, lose1, pen, gone = _take(
                        h1, st1, dead1, death1, lose1, hits_lost, stun_lost, t, body1, hmax1,
                        smax1, stunned_rule, impairment, dying_penalty, dying_can_act,
                    )  # fmt: skip
                    if pen != pen1:
                        pen1 = pen
                        att1, dv1, nd1, eref1 = _values(
                            ref1, dex1, str1, pen1, sk1, acc1, ms1, dc1, me1, dr1, dm1, me0
                        )
                    if gone:
                        out1 = t
                        result = side0
                        finish = t
                        break
                else:
                    natt1 += 1
                    land1 += hit
                    dealt1 += through
                    h0, st0, dead0, death0, lose0, pen, gone = _take(
                        h0, st0, dead0, death0, lose0, hits_lost, stun_lost, t, body0, hmax0,
                        smax0, stunned_rule, impairment, dying_penalty, dying_can_act,
                    )  # fmt: skip
                    if pen != pen0:
                        pen0 = pen
                        att0, dv0, nd0, eref0 = _values(
                            ref0, dex0, str0, pen0, sk0, acc0, ms0, dc0, me0, dr0, dm0, me1
                        )
                    if gone:
                        out0 = t
                        result = side1
                        finish = t
                        break
            if result != UNRESOLVED:
                break
            # end of a round: the dying bleed 1 Hit and die at -2 x BODY (F25); only a dying
            # combatant that fights on (dying_can_act) is still in a duel to bleed
            if dying_can_act and (t & 3) == 0 and (h0 <= 0 or h1 <= 0):
                for c in range(2):
                    if c == 0 and h0 <= 0 and not dead0:
                        h0 -= 1
                        if h0 <= -2 * body0:
                            dead0 = True
                            death0 = t
                            out0 = t
                        pen0 = wound_penalty(h0, hmax0, impairment, dying_penalty) + 5 * lose0
                        att0, dv0, nd0, eref0 = _values(
                            ref0, dex0, str0, pen0, sk0, acc0, ms0, dc0, me0, dr0, dm0, me1
                        )
                    elif c == 1 and h1 <= 0 and not dead1:
                        h1 -= 1
                        if h1 <= -2 * body1:
                            dead1 = True
                            death1 = t
                            out1 = t
                        pen1 = wound_penalty(h1, hmax1, impairment, dying_penalty) + 5 * lose1
                        att1, dv1, nd1, eref1 = _values(
                            ref1, dex1, str1, pen1, sk1, acc1, ms1, dc1, me1, dr1, dm1, me0
                        )
                if out0 and out1:
                    result = DRAW
                elif out0:
                    result = side1
                elif out1:
                    result = side0
                if result != UNRESOLVED:
                    finish = t
                    break
        if accumulate:
            k = result if result >= 0 else (n_sides if result == DRAW else n_sides + 1)
            outcome_counts[k] += 1
            end_hist[k, finish] += 1
            out_hist[0, out0] += 1
            out_hist[1, out1] += 1
            death_hist[0, death0] += 1
            death_hist[1, death1] += 1
            dealt_sum[0] += dealt0
            dealt_sum[1] += dealt1
            dealt_sq[0] += dealt0 * dealt0
            dealt_sq[1] += dealt1 * dealt1
            taken_sum[0] += dealt1
            taken_sum[1] += dealt0
            taken_sq[0] += dealt1 * dealt1
            taken_sq[1] += dealt0 * dealt0
            attacks_sum[0] += natt0
            attacks_sum[1] += natt1
            landed_sum[0] += land0
            landed_sum[1] += land1
            continue
        winner[j] = result
        end_slot[j] = finish
        out_slot[j, 0] = out0
        out_slot[j, 1] = out1
        death_slot[j, 0] = death0
        death_slot[j, 1] = death1
        dealt[j, 0] = dealt0
        dealt[j, 1] = dealt1
        taken[j, 0] = dealt1
        taken[j, 1] = dealt0
        attacks[j, 0] = natt0
        attacks[j, 1] = natt1
        landed[j, 0] = land0
        landed[j, 1] = land1
        knock[j, 0] = 0
        knock[j, 1] = 0
