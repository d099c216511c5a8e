"""The duel kernel: a standing fight of exactly two combatants, with the state in scalars.

A standing fight (``kernel_standing``) of one against one under ``timing: phases`` with nobody
surprised needs no per-combatant arrays at all: both combatants' Hits, Stun, penalties and
cached attack and defence values live in local scalars, which the compiler keeps in registers.
That is the benchmark duel of PERFORMANCE-NOTES.md, and it runs about twice as fast here.
Every rule the standing kernel applies to such a fight is here too (criticals, range, armour,
killing and Stun damage, collateral Stun, stunned, impairment, dying and ``dying_can_act`` with
bleeding and death, initiative switch1 and switch2); waking never happens in a duel (a knocked
out combatant ends it). The tests hold it to the standing and general kernels bit for bit.

Four rule options the standing kernels do not run are run here as the general kernel runs them
(``strike.py``: ``strike`` and ``blast``; ``actions.py``: the default tactic's run), the same
draws in the same order: F27 hit locations (random and called), F15 autofire, F28 knockback
(and what it brings: the range band, reach, a default tactic running back into range, a moving
target, cover left behind) and F17 spreads (an area weapon that is not an explosive; the
attacker within the radius is caught too). One body (``_kernel``) makes six kernels: the bare
duel, compiled without the options' code, one for each option alone, and one for any mix;
``run.py`` picks by ``DuelPlan.options``. The options' arithmetic takes scalars only (an array
handed to a helper costs reference counting in the trial loop) and branches on no die it need
not branch on (a knockback die is drawn always and kept only for a hit).

Bulk runs only: a replay (event log) of the same trial runs on the standing kernel, which draws
the same numbers in the same order, or, for a fight with one of the options, on the general
kernel.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.outcomes import tally_duel
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro, xoshiro_bits
from .codes import (
    DRAW,
    LOC_NONE,
    OPT_AUTOFIRE_HITS,
    OPT_AUTOFIRE_RATIO,
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
from .rules import (
    KILLING,
    bleed,
    damage_dice,
    effective,
    initiative_key,
    split_through,
    watch_line,
    wound_penalty,
)


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


# rules.range_modifier, move_toward and move_away, inlined (a call out of the trial loop would
# spill the duel's state kept in registers); the same operations, so the same numbers.


@jit(inline="always")
def _band(dist, listed):
    """F10: the range band's modifier at ``dist`` metres of a weapon of range ``listed``."""
    if dist > listed:
        return -6 - np.int64((dist - listed) // 50.0)
    if dist <= 4.0:
        return np.int64(0)
    if dist <= 10.0:
        return np.int64(-2)
    if dist <= 50.0:
        return np.int64(-4)
    return np.int64(-6)


@jit(inline="always")
def _span(dist, listed0, listed1):
    """The metres ``(lo, hi]`` around ``dist`` over which neither weapon's range band (``_band``)
    changes: between the band edges 4, 10 and 50 m and the listed ranges; ``(dist, dist]``,
    nothing, past either listed range (the extreme bands, worked out each time)."""
    if dist > listed0 or dist > listed1:
        return dist, dist
    lo = -np.inf
    hi = min(listed0, listed1)
    for edge in (4.0, 10.0, 50.0):
        if edge < dist:
            lo = edge
        elif edge < hi:
            hi = edge
    return lo, hi


@jit(inline="always")
def _toward(x, y, tx, ty, step, stop_at):
    """Up to ``step`` metres toward ``(tx, ty)``, stopping ``stop_at`` short: the new place and
    the metres moved."""
    dx = tx - x
    dy = ty - y
    dist = np.sqrt(dx * dx + dy * dy)
    go = dist - stop_at
    if go <= 0.0 or dist == 0.0:
        return x, y, 0.0
    if go > step:
        go = step
    return x + dx * go / dist, y + dy * go / dist, go


@jit(inline="always")
def _away(x, y, fx, fy, step):
    """``step`` metres straight away from ``(fx, fy)`` (along +x when on top of it)."""
    dx = x - fx
    dy = y - fy
    dist = np.sqrt(dx * dx + dy * dy)
    if dist == 0.0:
        return x + step, y
    return x + dx * step / dist, y + dy * step / dist


@jit(inline="always")
def _distance(x0, y0, x1, y1):
    """Metres between the two, as the general kernel's ``geometry`` computes them."""
    dx = x1 - x0
    dy = y1 - y0
    return np.sqrt(dx * dx + dy * dy)


@jit(inline="always")
def _mod(dist, cover_t, moved_t, ranged, listed, still, cover_mod):
    """The modifier to an attack once someone moved (``strike.attack_odds``): ``still`` what
    does not change (the target's size, the attacker's own modifier, a called shot, F27;
    autofire's -1 per full 10 shots, F15), ``cover_mod`` the target's cover and posture while
    it keeps them (``cover_t``), and for a ranged weapon of range ``listed`` the range band
    (F10) and a moving target's -1 per 10 m. Scalars only: an array handed to a helper would
    cost reference counting in the trial loop."""
    m = still
    if cover_t:
        m += cover_mod
    if ranged:
        m += _band(dist, listed)
        if moved_t >= 10.0:
            m -= np.int64(moved_t // 10.0)
    return m


def _kernel(name, doc, with_locs, with_auto, with_moves, with_area):
    """The duel kernel ``name`` with the code of the options switched on here compiled in:
    numba takes a closure's variables for constants and prunes the branches on them before it
    types anything, so the bare duel compiles (and runs) without the options' code, and caches
    each kernel apart (its key holds the closure's values)."""

    def kernel(key, first, n_trials, sp, dp, outs, tl):
        (side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, _rec, att_skill,
         def_ranged, def_melee, base_order, _targeting, w_melee, w_dmg, w_dc, w_acc, w_min_str,
         pair_mod, pair_armour, pair_dist, _acts, _slots_per_round, _start_slot, _slots_per_unit,
         max_slots, _surprised, options, roll_table, nd6_offsets, nd6_table) = sp
        (loc_mode, knockback, shots, fixed_loc, fixed_mod, loc_of_roll, wound, wound_size,
         knock_body, knock_unit, pos_x0, pos_y0, run_m, w_range, tac_default, tgt_mod_r, tgt_mod_m,
         cover_r, cover_m, att_mod_r, att_mod_m, w_area, blast_stop, task_table, def_table) = dp
        (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
         location_hits) = outs
        (accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
         taken_sq, attacks_sum, landed_sum, knock_sum, knock_sq) = tl
        impairment = options[OPT_IMPAIRMENT] != 0
        dying_can_act = options[OPT_DYING_CAN_ACT] != 0
        dying_penalty = options[OPT_DYING_PENALTY]
        has_ties = options[OPT_HAS_TIES] != 0
        switch2 = options[OPT_SWITCH2] != 0
        init_dice = options[OPT_INIT_DICE]
        ratio = max(options[OPT_AUTOFIRE_RATIO], 1)
        one_plus = options[OPT_AUTOFIRE_HITS] != 0
        # where a kernel has an option's code, whether the fight uses it
        locs_on = loc_mode != LOC_NONE
        knock_on = knockback != 0
        n_rolls = np.uint64(roll_table.shape[0])
        n_task = np.float64(task_table.shape[0])  # as a blast multiplies by them (exact)
        n_def = np.float64(def_table.shape[0])
        one_def = def_table.shape[0] == 1  # HERO: the defender's flat 10
        def_flat = np.int64(def_table[0])
        k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
        nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
        nd6_size = np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start
        i_start = nd6_offsets[TABLE_DICE]  # the same, as a blast indexes it
        i_size = np.float64(nd6_offsets[TABLE_DICE + 1] - i_start)
        init_lo = nd6_offsets[3]
        me0, me1 = w_melee[0] != 0, w_melee[1] != 0
        n_pen = max(4, dying_penalty) + 6  # penalties 0 .. the dying penalty + 5
        table = values_table(
            n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
            def_melee, nd6_offsets,
        )  # fmt: skip
        n_dice = np.empty(2 * n_pen, np.int64)  # the damage dice under each penalty (F12-F14)
        for c in range(2):
            for p in range(n_pen):
                n_dice[c * n_pen + p] = damage_dice(
                    w_dc[c], effective(strength[c], p), w_min_str[c], w_melee[c]
                )
        plane = wound.shape[0] // 2  # one attacker's part of the wound table
        mod0_fresh = pair_mod[1] + fixed_mod[0]  # 0 attacking 1
        mod1_fresh = pair_mod[2] + fixed_mod[1]  # 1 attacking 0
        band_fresh0, band_fresh1 = _band(pair_dist[1], w_range[0]), _band(pair_dist[1], w_range[1])
        # what the modifier of each one's attack is made of, for _mod: 0 attacking 1, 1 attacking 0
        ranged0, ranged1 = w_melee[0] == 0, w_melee[1] == 0
        range0, range1 = w_range[0], w_range[1]
        if ranged0:
            still0, cover_mod0 = tgt_mod_r[1] + att_mod_r[0] + fixed_mod[0], cover_r[1]
        else:
            still0, cover_mod0 = tgt_mod_m[1] + att_mod_m[0] + fixed_mod[0], cover_m[1]
        if ranged1:
            still1, cover_mod1 = tgt_mod_r[0] + att_mod_r[1] + fixed_mod[1], cover_r[0]
        else:
            still1, cover_mod1 = tgt_mod_m[0] + att_mod_m[1] + fixed_mod[1], cover_m[0]
        span_fresh = _span(pair_dist[1], w_range[0], w_range[1])
        # how far each may stand from the other before its turn needs more than an attack: a run
        # back into range (the default tactic), or no attack out of reach (melee)
        never_far = np.inf
        lim_fresh0 = w_range[0] if tac_default[0] != 0 or w_melee[0] != 0 else never_far
        lim_fresh1 = w_range[1] if tac_default[1] != 0 or w_melee[1] != 0 else never_far
        # both on a line along x (the same y), as knockback and runs keep them: the distance is
        # |dx|, the square root of dx * dx (exactly so in binary floating point: Boldo 2015)
        flat = pos_y0[0] == pos_y0[1]
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
        sum_taken0 = sum_taken1 = sq_taken0 = sq_taken1 = np.int64(0)
        sum_att0 = sum_att1 = sum_land0 = sum_land1 = np.int64(0)
        sum_kn0 = sum_kn1 = sq_kn0 = sq_kn1 = np.int64(0)
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
            mod0, mod1 = mod0_fresh, mod1_fresh
            # what each must roll to hit: the other's DV less its attack base and modifier
            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
            out0 = out1 = np.int64(0)
            death0 = death1 = np.int64(0)
            dealt0 = dealt1 = np.int64(0)
            natt0 = natt1 = np.int64(0)
            land0 = land1 = np.int64(0)
            kn0 = kn1 = np.int64(0)  # knockback units taken (F28)
            self0 = self1 = np.int64(0)  # damage through to oneself (caught in one's own blast)
            # where they stand (knockback moves them): positions, metres of the last move, cover
            px0, py0, px1, py1 = pos_x0[0], pos_y0[0], pos_x0[1], pos_y0[1]
            mv0 = mv1 = 0.0
            cov0 = cov1 = True
            dist = pair_dist[1]
            band0, band1 = band_fresh0, band_fresh1  # the range band of each one's weapon there
            span_lo, span_hi = span_fresh  # ... the same over these metres
            lim0, lim1 = lim_fresh0, lim_fresh1
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
                    if with_moves and dist > (lim0 if a == 0 else lim1):
                        # knocked out of range or reach, or the actor ran last time (its limit -1)
                        if tac_default[a] != 0 and dist > w_range[a]:
                            # the default tactic runs back into range (actions.act_move); the run
                            # is the whole action
                            reach = max(w_range[a] - 0.01, 0.0)
                            if a == 0:
                                px0, py0, went = _toward(px0, py0, px1, py1, run_m[0], reach)
                                mv0 = went
                                cov0 = cov0 and not went > 0.0
                                lim0 = -1.0 if went != 0.0 else lim_fresh0
                            else:
                                px1, py1, went = _toward(px1, py1, px0, py0, run_m[1], reach)
                                mv1 = went
                                cov1 = cov1 and not went > 0.0
                                lim1 = -1.0 if went != 0.0 else lim_fresh1
                            if went > 0.0:
                                dist = _distance(px0, py0, px1, py1)
                                band0, band1 = _band(dist, w_range[0]), _band(dist, w_range[1])
                                span_lo, span_hi = _span(dist, w_range[0], w_range[1])
                            mod0 = _mod(dist, cov1, mv1, ranged0, range0, still0, cover_mod0)
                            mod1 = _mod(dist, cov0, mv0, ranged1, range1, still1, cover_mod1)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            continue
                        # any other action ends the actor's movement: no longer a moving target
                        if a == 0:
                            lim0 = lim_fresh0
                            if mv0 != 0.0:
                                mv0 = 0.0
                                mod1 = _mod(dist, cov0, mv0, ranged1, range1, still1, cover_mod1)
                                need1 = dv0 - att1 - mod1
                        else:
                            lim1 = lim_fresh1
                            if mv1 != 0.0:
                                mv1 = 0.0
                                mod0 = _mod(dist, cov1, mv1, ranged0, range0, still0, cover_mod0)
                                need0 = dv1 - att0 - mod0
                        if w_melee[a] != 0 and dist > w_range[a]:
                            continue  # out of reach (a tactic that attacks without closing in)
                    if with_area and w_area[a] > 0.0:
                        # F17 a spread (strike.blast): the acting roll alone, one damage roll, and
                        # each combatant within the radius of the target (the target, the attacker
                        # too when it stands that close) defends in turn, index order
                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                        roll = np.int64(task_table[np.int64(u * n_task)])
                        # the attacker's dice as it rolls them (full groups, then the rest's
                        # table), each group from a uniform as a blast draws them
                        raw = np.int64(0)
                        for _ in range(groups):
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            raw += nd6_table[i_start + np.int64(u * i_size)]
                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                        raw += nd6_table[lo + np.uint64(np.int64(u * np.float64(size)))]
                        av = att0 + mod0 if a == 0 else att1 + mod1
                        near = dist <= w_area[a]
                        caught0 = caught1 = False
                        if a == 1 or near:
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            droll = def_flat
                            if not one_def:
                                droll = np.int64(def_table[np.int64(u * n_def)])
                            caught0 = av + roll >= table[pen0, 1] + droll
                        if a == 0 or near:
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            droll = def_flat
                            if not one_def:
                                droll = np.int64(def_table[np.int64(u * n_def)])
                            caught1 = av + roll >= table[n_pen + pen1, 1] + droll
                        gone0 = gone1 = False
                        # no branch on who was caught: whoever was not takes 0
                        thr0 = max(raw - blast_stop[a * 2], 0) * caught0
                        thr1 = max(raw - blast_stop[a * 2 + 1], 0) * caught1
                        lost, stun_lost = split_through(killing, thr0, st0)
                        h0 -= lost
                        st0 -= stun_lost
                        if h0 <= watch0 or st0 <= 0 or stun_lost > stun_limit0:
                            dead0, death0, lose0, pen, gone0 = _take(
                                h0, dead0, death0, lose0, st0, stun_lost, t, body[0],
                                hits_max[0], stun_limit0, impairment, dying_penalty,
                                dying_can_act,
                            )  # fmt: skip
                            watch0 = watch_line(h0, hits_max[0], body[0], impairment)
                            if pen != pen0:
                                pen0 = pen
                                att0, dv0, eref0, grp0, lo0, size0 = _row(table, pen0, me1)
                        lost, stun_lost = split_through(killing, thr1, st1)
                        h1 -= lost
                        st1 -= stun_lost
                        if h1 <= watch1 or st1 <= 0 or stun_lost > stun_limit1:
                            dead1, death1, lose1, pen, gone1 = _take(
                                h1, dead1, death1, lose1, st1, stun_lost, t, body[1],
                                hits_max[1], stun_limit1, impairment, dying_penalty,
                                dying_can_act,
                            )  # fmt: skip
                            watch1 = watch_line(h1, hits_max[1], body[1], impairment)
                            if pen != pen1:
                                pen1 = pen
                                att1, dv1, eref1, grp1, lo1, size1 = _row(
                                    table, n_pen + pen1, me0
                                )
                        need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if a == 0:
                            natt0 += 1
                            land0 += caught1
                            dealt0 += thr0 + thr1
                            self0 += thr0
                        else:
                            natt1 += 1
                            land1 += caught0
                            dealt1 += thr0 + thr1
                            self1 += thr1
                        if gone0 or gone1:
                            if gone0:
                                out0 = t
                            if gone1:
                                out1 = t
                            result = DRAW if gone0 and gone1 else side[1] if gone0 else side[0]
                            finish = t
                            break
                        continue
                    # the attack: one generator step for the roll and the first group of damage
                    # dice (split_bits), one more for every further group (table indices are
                    # unsigned: no negative-index wraparound in the hot loop)
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    ri, bits = split_bits(x, n_rolls)
                    if with_locs or with_auto:  # strike.strike: bullets (F15), each to a place
                        margin = np.int64(roll_table[ri]) - need
                        hit = np.int64(margin >= 0)
                        n_bullets = np.int64(1)
                        if with_auto:
                            fired = shots[a]
                            if hit and fired > 1:  # F15
                                if one_plus:
                                    n_bullets = min(fired, 1 + margin // ratio)
                                else:
                                    n_bullets = min(fired, max(1, -(-margin // ratio)))
                        hits_lost = stun_lost = through = np.int64(0)
                        for b in range(n_bullets):
                            if b > 0:
                                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                                bits = high_bits(x)
                            raw = np.int64(0)
                            for _ in range(groups):
                                raw += nd6_table[nd6_start + index32(bits, nd6_size)]
                                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                                bits = high_bits(x)
                            raw += nd6_table[lo + index32(bits, size)]
                            if with_locs and locs_on:  # F27: 3d6 for a location, or the called one
                                loc = fixed_loc[a]
                                if loc < 0:
                                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                    loc = loc_of_roll[np.int64(u * 216.0)]
                                thr = wound[a * plane + loc * wound_size + raw] * hit
                                location_hits[1 - a, loc] += hit
                            else:
                                thr = raw - stop
                                thr = (thr if thr > 0 else 0) * hit
                            lost, lost_stun = split_through(killing, thr, stun_t - stun_lost)
                            hits_lost += lost
                            stun_lost += lost_stun
                            through += thr
                    else:
                        hit = np.int64(roll_table[ri] >= need)
                        raw = np.int64(0)
                        for _ in range(groups):
                            raw += nd6_table[nd6_start + index32(bits, nd6_size)]
                            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                            bits = high_bits(x)
                        raw += nd6_table[lo + index32(bits, size)]
                        # F20-F21: armour (and SD against Stun damage) stops; Killing damage costs
                        # as much Stun (never below 0), Stun damage 1 Hit per full 5
                        through = raw - stop
                        through = (through if through > 0 else 0) * hit
                        hits_lost, stun_lost = split_through(killing, through, stun_t)
                    if with_moves and knock_on:  # F28: (DC + 1d6) - BODY units, away from the blow
                        # Only a hit draws the die; a knocked-back target makes hits a toss-up, so
                        # the draw is made always and kept only for a hit (no branch to mispredict).
                        # A move of 0 m changes no place and no distance; the modifiers change only
                        # with a range band, so the next roll need not wait for the arithmetic.
                        n0, n1, n2, n3, u = xoshiro(s0, s1, s2, s3)
                        keep = np.uint64(0) - np.uint64(hit)
                        s0 = (n0 & keep) | (s0 & ~keep)
                        s1 = (n1 & keep) | (s1 & ~keep)
                        s2 = (n2 & keep) | (s2 & ~keep)
                        s3 = (n3 & keep) | (s3 & ~keep)
                        if a == 0:
                            units = n_dice[pen0] + 1 + np.int64(u * 6.0) - knock_body[1]
                            units = max(units, 0) * hit
                            kn1 += units
                            step = units * knock_unit
                            if flat:  # on a line along x: no square roots (see flat)
                                dx = px1 - px0
                                ax = abs(dx)
                                px1 += dx * step / ax if ax != 0.0 else step
                            else:
                                px1, py1 = _away(px1, py1, px0, py0, step)
                        else:
                            units = n_dice[n_pen + pen1] + 1 + np.int64(u * 6.0) - knock_body[0]
                            units = max(units, 0) * hit
                            kn0 += units
                            step = units * knock_unit
                            if flat:
                                dx = px0 - px1
                                ax = abs(dx)
                                px0 += dx * step / ax if ax != 0.0 else step
                            else:
                                px0, py0 = _away(px0, py0, px1, py1, step)
                        dist = abs(px1 - px0) if flat else _distance(px0, py0, px1, py1)
                        if (dist <= span_lo or dist > span_hi) and (
                            _band(dist, w_range[0]) != band0 or _band(dist, w_range[1]) != band1
                        ):  # a range band changed
                            band0, band1 = _band(dist, w_range[0]), _band(dist, w_range[1])
                            span_lo, span_hi = _span(dist, w_range[0], w_range[1])
                            mod0 = _mod(dist, cov1, mv1, ranged0, range0, still0, cover_mod0)
                            mod1 = _mod(dist, cov0, mv0, ranged1, range1, still1, cover_mod1)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
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
            taken0 = dealt1 - self1 + self0
            taken1 = dealt0 - self0 + self1
            if accumulate:  # the histograms here, the sums in scalars until the chunk ends
                tally_duel(result, n_sides, finish, out0, out1, death0, death1,
                           outcome_counts, end_hist, out_hist, death_hist)
                sum_dealt0 += dealt0
                sum_dealt1 += dealt1
                sq_dealt0 += dealt0 * dealt0
                sq_dealt1 += dealt1 * dealt1
                sum_taken0 += taken0
                sum_taken1 += taken1
                sq_taken0 += taken0 * taken0
                sq_taken1 += taken1 * taken1
                sum_att0 += natt0
                sum_att1 += natt1
                sum_land0 += land0
                sum_land1 += land1
                sum_kn0 += kn0
                sum_kn1 += kn1
                sq_kn0 += kn0 * kn0
                sq_kn1 += kn1 * kn1
                continue
            winner[j] = result
            end_slot[j] = finish
            out_slot[j, 0] = out0
            out_slot[j, 1] = out1
            death_slot[j, 0] = death0
            death_slot[j, 1] = death1
            dealt[j, 0] = dealt0
            dealt[j, 1] = dealt1
            taken[j, 0] = taken0
            taken[j, 1] = taken1
            attacks[j, 0] = natt0
            attacks[j, 1] = natt1
            landed[j, 0] = land0
            landed[j, 1] = land1
            knock[j, 0] = kn0
            knock[j, 1] = kn1
        if accumulate:
            dealt_sum[0] += sum_dealt0
            dealt_sum[1] += sum_dealt1
            dealt_sq[0] += sq_dealt0
            dealt_sq[1] += sq_dealt1
            taken_sum[0] += sum_taken0
            taken_sum[1] += sum_taken1
            taken_sq[0] += sq_taken0
            taken_sq[1] += sq_taken1
            attacks_sum[0] += sum_att0
            attacks_sum[1] += sum_att1
            landed_sum[0] += sum_land0
            landed_sum[1] += sum_land1
            knock_sum[0] += sum_kn0
            knock_sum[1] += sum_kn1
            knock_sq[0] += sq_kn0
            knock_sq[1] += sq_kn1

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    return jit(kernel)


# The kernels: the bare duel, one for each rule option alone (its code compiled in, the others'
# out: a fight with one option runs as fast as that option allows), and one with all four's code
# for any mix of them. ``run.py`` picks by ``DuelPlan.options``; each compiles on first use.
# The arguments: the chunk's key, its first trial and how many, then in tuples the standing
# plan's arrays (``StandingPlan``), the duel plan's (``DuelPlan``), the per-trial outputs
# (``run.kernel_outputs``) and the tally's (``engine.outcomes.Streamed``, then knockback's sum
# and sum of squares). With ``accumulate`` the trials are added straight into the tally's
# arrays and the per-trial outputs are left alone (a run that streams its results skips writing
# them and reading them back; the numbers are the same either way).
run_chunk = _kernel("run_chunk", "The bare duel: no hit locations, autofire, knockback or spread.",
                    False, False, False, False)  # fmt: skip
run_chunk_locations = _kernel("run_chunk_locations", "Hit locations (F27), random or called.",
                              True, False, False, False)  # fmt: skip
run_chunk_autofire = _kernel("run_chunk_autofire", "Autofire, more than one shot an attack (F15).",
                             False, True, False, False)  # fmt: skip
run_chunk_knockback = _kernel("run_chunk_knockback", "Knockback (F28) and the moves it brings.",
                              False, False, True, False)  # fmt: skip
run_chunk_area = _kernel("run_chunk_area", "A spread (F17).", False, False, False, True)
run_chunk_options = _kernel("run_chunk_options", "Any mix of the four, each where a fight uses it.",
                            True, True, True, True)  # fmt: skip


#: The kernel for each set of options in use (``DuelPlan.options``), any other set
#: ``run_chunk_options``.
KERNELS = {
    (): run_chunk,
    ("locations",): run_chunk_locations,
    ("autofire",): run_chunk_autofire,
    ("knockback",): run_chunk_knockback,
    ("area",): run_chunk_area,
}
