"""The duel kernel: a standing fight of exactly two combatants, with the state in scalars.

A standing fight (``kernel_standing``) of one against one under ``timing: phases`` with nobody
surprised needs no per-combatant arrays at all: both combatants' Hits, Stun, penalties and
cached attack and defence values live in local scalars, which the compiler keeps in registers.
That is the benchmark duel of PERFORMANCE-NOTES.md, and it runs about twice as fast here.
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
from ...engine.outcomes import outcome_index
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro, xoshiro_bits
from .codes import (
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
from .dice import TABLE_DICE
from .kernel_parts import values_table
from .rules import KILLING, bleed, initiative_key, split_through, watch_line, wound_penalty


@jit(inline="always")
def _row(table, row, opponent_melee):
    """A combatant's cached values from its ``values_table`` row: (attack base, the DV its
    opponent's weapon meets, current REF, dice groups, offset and size of the rest's table)."""
    dv = table[row, 2] if opponent_melee else table[row, 1]
    lo, size = np.uint64(table[row, 5]), np.uint64(table[row, 6])
    return table[row, 0], dv, table[row, 3], table[row, 4], lo, size


@jit(inline="always")
def _take(h, dead, death, lose, st, stun_lost, t, body, hmax, stun_limit, impairment,
          dying_penalty, dying_can_act):  # fmt: skip
    """What a wound that crossed a watch line does (F21-F25), after Hits and Stun are taken:
    (dead, slot of death, stunned, the penalty now, out of the fight)."""
    if h <= -2 * body and not dead:
        dead = True
        death = t
    if stun_lost > stun_limit:
        lose = True
    pen = wound_penalty(h, hmax, impairment, dying_penalty) + 5 * lose
    out = dead or st <= 0 or (h <= 0 and not dying_can_act)
    return dead, death, lose, pen, out


@jit
def run_chunk(
    key, first, n_trials,
    side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec,
    att_skill, def_ranged, def_melee, base_order, targeting,
    w_melee, w_dmg, w_dc, w_acc, w_min_str,
    pair_mod, pair_armour, pair_dist,
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
    back. The numbers are the same either way.

    The hot path of an attack touches only Hits, Stun and counters: anything else a wound can
    change (penalties, stunned, dying, death, out) is worked out only when the target's Hits
    reach its watch line (``watch_line``), its Stun reaches 0 or the Stun lost passes the stunned
    limit. Per-combatant constants stay in the plan's arrays and are read there on those rare
    paths, which keeps the hot loop's state in registers.
    """
    impairment = options[OPT_IMPAIRMENT] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    switch2 = options[OPT_SWITCH2] != 0
    init_dice = options[OPT_INIT_DICE]
    n_rolls = np.uint64(roll_table.shape[0])
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
    nd6_size = np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start
    init_lo = nd6_offsets[3]
    n_events[0] = 0
    me0, me1 = w_melee[0] != 0, w_melee[1] != 0
    n_pen = max(4, dying_penalty) + 6  # penalties 0 .. the dying penalty + 5
    table = values_table(
        n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
        def_melee, nd6_offsets,
    )  # fmt: skip
    mod0, mod1 = pair_mod[1], pair_mod[2]  # 0 attacking 1, 1 attacking 0
    kill0, kill1 = w_dmg[0] == KILLING, w_dmg[1] == KILLING
    # what stops 0's attacks on 1 and 1's on 0: armour, for Stun damage SD if higher (F20)
    stop0 = pair_armour[1] if kill0 or pair_armour[1] > sd[1] else sd[1]
    stop1 = pair_armour[2] if kill1 or pair_armour[2] > sd[0] else sd[0]
    # F22: stunned when a blow takes more than half the Stun (2 x lost > max)
    never = np.int64(1 << 62)
    stun_limit0 = stun_max[0] // 2 if options[OPT_STUNNED] != 0 else never
    stun_limit1 = stun_max[1] // 2 if options[OPT_STUNNED] != 0 else never
    fresh0 = _row(table, 0, me1)
    fresh1 = _row(table, n_pen, me0)
    watch_fresh0 = watch_line(hits_max[0], hits_max[0], body[0], impairment)
    watch_fresh1 = watch_line(hits_max[1], hits_max[1], body[1], impairment)

    sum_dealt0 = sum_dealt1 = sq_dealt0 = sq_dealt1 = np.int64(0)
    sum_att0 = sum_att1 = sum_land0 = sum_land1 = np.int64(0)
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        h0, h1 = hits_max[0], hits_max[1]
        st0, st1 = stun_max[0], stun_max[1]
        watch0, watch1 = watch_fresh0, watch_fresh1
        dead0 = dead1 = False
        lose0 = lose1 = False
        pen0 = pen1 = np.int64(0)
        att0, dv0, eref0, grp0, lo0, size0 = fresh0
        att1, dv1, eref1, grp1, lo1, size1 = fresh1
        # what each must roll to hit: the other's DV less its attack base and modifier
        need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
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
                s0, s1, s2, s3, key0 = initiative_key(
                    s0, s1, s2, s3, eref0, init_dice, nd6_table, init_lo
                )
                s0, s1, s2, s3, key1 = initiative_key(
                    s0, s1, s2, s3, eref1, init_dice, nd6_table, init_lo
                )
                first_c = 0 if key0 >= key1 else 1
            for k in range(2):
                a = first_c if k == 0 else 1 - first_c
                # the actor: skip when out; a stunned actor loses this action (F22)
                if a == 0:
                    if out0:
                        continue
                    if lose0:
                        lose0 = False
                        pen0 = wound_penalty(h0, hits_max[0], impairment, dying_penalty)
                        att0, dv0, eref0, grp0, lo0, size0 = _row(table, pen0, me1)
                        need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        continue
                    need = need0
                    groups, lo, size = grp0, lo0, size0
                    killing = kill0
                    stop = stop0
                    stun_t = st1
                else:
                    if out1:
                        continue
                    if lose1:
                        lose1 = False
                        pen1 = wound_penalty(h1, hits_max[1], impairment, dying_penalty)
                        att1, dv1, eref1, grp1, lo1, size1 = _row(table, n_pen + pen1, me0)
                        need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        continue
                    need = need1
                    groups, lo, size = grp1, lo1, size1
                    killing = kill1
                    stop = stop1
                    stun_t = st0
                # the attack: one generator step for the roll and the first group of damage
                # dice (split_bits), one more for every further group (table indices are
                # unsigned: no negative-index wraparound in the hot loop)
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                ri, bits = split_bits(x, n_rolls)
                hit = np.int64(roll_table[ri] >= need)
                raw = np.int64(0)
                for _ in range(groups):
                    raw += nd6_table[nd6_start + index32(bits, nd6_size)]
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    bits = high_bits(x)
                raw += nd6_table[lo + index32(bits, size)]
                # F20-F21: armour (and SD against Stun damage) stops; Killing damage costs as
                # much Stun (never below 0), Stun damage 1 Hit per full 5
                through = raw - stop
                through = (through if through > 0 else 0) * hit
                hits_lost, stun_lost = split_through(killing, through, stun_t)
                if a == 0:
                    natt0 += 1
                    land0 += hit
                    dealt0 += through
                    h1 -= hits_lost
                    st1 -= stun_lost
                    if h1 <= watch1 or st1 <= 0 or stun_lost > stun_limit1:
                        dead1, death1, lose1, pen, gone = _take(
                            h1, dead1, death1, lose1, st1, stun_lost, t, body[1], hits_max[1],
                            stun_limit1, impairment, dying_penalty, dying_can_act,
                        )  # fmt: skip
                        watch1 = watch_line(h1, hits_max[1], body[1], impairment)
                        if pen != pen1:
                            pen1 = pen
                            att1, dv1, eref1, grp1, lo1, size1 = _row(table, n_pen + pen1, me0)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if gone:
                            out1 = t
                            result = side[0]
                            finish = t
                            break
                else:
                    natt1 += 1
                    land1 += hit
                    dealt1 += through
                    h0 -= hits_lost
                    st0 -= stun_lost
                    if h0 <= watch0 or st0 <= 0 or stun_lost > stun_limit0:
                        dead0, death0, lose0, pen, gone = _take(
                            h0, dead0, death0, lose0, st0, stun_lost, t, body[0], hits_max[0],
                            stun_limit0, impairment, dying_penalty, dying_can_act,
                        )  # fmt: skip
                        watch0 = watch_line(h0, hits_max[0], body[0], impairment)
                        if pen != pen0:
                            pen0 = pen
                            att0, dv0, eref0, grp0, lo0, size0 = _row(table, pen0, me1)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if gone:
                            out0 = t
                            result = side[1]
                            finish = t
                            break
            if result != UNRESOLVED:
                break
            # end of a round: the dying bleed 1 Hit and die at -2 x BODY (F25); only a dying
            # combatant that fights on (dying_can_act) is still in a duel to bleed
            if dying_can_act and (t & 3) == 0 and (h0 <= 0 or h1 <= 0):
                if h0 <= 0 and not dead0:
                    h0, died = bleed(h0, body[0])
                    if died:
                        dead0 = True
                        death0 = t
                        out0 = t
                    watch0 = watch_line(h0, hits_max[0], body[0], impairment)
                    pen0 = wound_penalty(h0, hits_max[0], impairment, dying_penalty) + 5 * lose0
                    att0, dv0, eref0, grp0, lo0, size0 = _row(table, pen0, me1)
                    need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                if h1 <= 0 and not dead1:
                    h1, died = bleed(h1, body[1])
                    if died:
                        dead1 = True
                        death1 = t
                        out1 = t
                    watch1 = watch_line(h1, hits_max[1], body[1], impairment)
                    pen1 = wound_penalty(h1, hits_max[1], impairment, dying_penalty) + 5 * lose1
                    att1, dv1, eref1, grp1, lo1, size1 = _row(table, n_pen + pen1, me0)
                    need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                if out0 and out1:
                    result = DRAW
                elif out0:
                    result = side[1]
                elif out1:
                    result = side[0]
                if result != UNRESOLVED:
                    finish = t
                    break
        if accumulate:  # the histograms here, the sums in scalars until the chunk ends
            k = outcome_index(result, n_sides)
            outcome_counts[k] += 1
            end_hist[k, finish] += 1
            out_hist[0, out0] += 1
            out_hist[1, out1] += 1
            death_hist[0, death0] += 1
            death_hist[1, death1] += 1
            sum_dealt0 += dealt0
            sum_dealt1 += dealt1
            sq_dealt0 += dealt0 * dealt0
            sq_dealt1 += dealt1 * dealt1
            sum_att0 += natt0
            sum_att1 += natt1
            sum_land0 += land0
            sum_land1 += land1
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
    if accumulate:
        dealt_sum[0] += sum_dealt0
        dealt_sum[1] += sum_dealt1
        dealt_sq[0] += sq_dealt0
        dealt_sq[1] += sq_dealt1
        taken_sum[0] += sum_dealt1
        taken_sum[1] += sum_dealt0
        taken_sq[0] += sq_dealt1
        taken_sq[1] += sq_dealt0
        attacks_sum[0] += sum_att0
        attacks_sum[1] += sum_att1
        landed_sum[0] += sum_land0
        landed_sum[1] += sum_land1
