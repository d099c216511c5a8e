"""The standing-fight kernel: the general kernel's fight when nobody needs to move or choose.

When every combatant's tactic is static (the default tactic, or an unconditional attack), has
no magazine to empty, and stands within its weapon's reach of every enemy it would close in
on, nobody ever moves and every action is an attack. This kernel runs exactly that fight with
a fraction of the state: per-pair range bands, static modifiers, armour and what stops each
attack are tables; each combatant's attack and defence values under every penalty are a table
worked out once per chunk (``values_table``); a wound is worked through (penalty, stunned,
dying, death, out) only when it crosses the target's watch line (``watch_line``); the end of a
slot does work only while somebody is knocked out or dying; and a streamed run adds each trial
straight into the tally. ``dispatch.kernel_for`` picks it by data (``dispatch.HONOURS``: what
every kernel honours); the tests hold it to the general kernel bit for bit, trial by trial, on
the same seeds (they draw the same random numbers in the same order). Two specialised copies,
held to it the same way, take the commonest standing fights: one against one (``kernel_duel``)
and a squad fight in phases (``kernel_squad``); this kernel keeps the rest, and every replay's
event log.

Semantics are the general kernel's (``kernel.py``): RULINGS F8-F9, F21-F26, speed chart, extra
actions, switch2, surprise, the free post-segment-12 Recovery, every targeting rule, chinks in
the armour (F30), the event log. What each kernel honours is stated in ``dispatch.py``.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.outcomes import outcome_index, record_trial
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro_bits
from . import tactics as tx
from .codes import (
    EV_AV,
    EV_DV,
    EV_FLAGS,
    EV_HITS,
    EV_RAW,
    EV_ROLL,
    EV_STUN,
    EV_THROUGH,
    EVENT_ATTACK,
    EVENT_END,
    EVENT_LOST_ACTION,
    EVENT_SURPRISED,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_HIT,
    FLAG_OUT,
    FLAG_STUNNED,
    OPT_CHINKS,
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_IMPAIRMENT,
    OPT_INIT_DICE,
    OPT_RECOVERY_SLOT,
    OPT_STUNNED,
    OPT_SWITCH2,
    OPT_WAKE_OWN_PHASE,
    UNRESOLVED,
)
from .dice import TABLE_DICE
from .kernel_parts import (
    break_ties,
    choose_target,
    comes_back,
    goes_out,
    log_event,
    log_wake,
    refresh_values,
    sort_by_key,
    stop_table,
    tie_tables,
    values_table,
    wake_and_bleed,
)
from .rules import (
    KILLING,
    down_state,
    fight_result,
    initiative_key,
    out_of_fight,
    split_through,
    watch_line,
    wound_penalty,
)


@jit
def run_chunk(key, first, n_trials, sp, outs, logs, tl):
    """Run trials ``first .. first + n_trials - 1`` of the chunk with key ``key``.

    Parameters
    ----------
    key : uint64[4]
        The chunk's stream key (``engine.rng.chunk_key``).
    first, n_trials : int
        Offset of the first trial within the chunk, and how many trials to run.
    sp : compile.StandingPlan
        The fight's arrays, in the order of its fields:

        side ... w_min_str : int64[C]
            Per-combatant plan arrays (see ``compile.Plan``); ``base_order`` is the initiative
            order by sheet REF, ``targeting`` each one's targeting rule (``tactics.T_*``).
        pair_mod, pair_armour : int64[C * C]; pair_dist : float64[C * C]
            For attacker ``a`` and target ``t`` at ``a * C + t``: the modifier to the attack
            (range band F10, the target's cover, size and posture, the attacker's own), the armour
            that stops that weapon (F20; halved for a blade against ``half_vs_blades``) and the
            distance in metres (``targeting: nearest``).
        acts : int8[C * slots_per_round]
            1 where combatant ``c`` acts in slot ``s`` of a round (``acts[c * spr + s]``).
        start_slot, slots_per_unit, max_slots : int
            The slot of the round the fight starts in, slots per reported time unit, and the
            slots the fight may last (``timing.Timing``).
        surprised : int64[C]
            1: no action in the opening time unit, and attacks against it take +5 there (F11).
        options : int64[N_OPTIONS]
            Rule switches as integers (``OPT_*``).
        roll_table : int8[N]
            Equally likely outcomes of attacker roll minus defender roll (``dice.roll_table``).
        nd6_offsets, nd6_table
            Equally-likely-outcome tables for up to 5 d6 (``dice.nd6_tables``).
    outs : the shared arrays (``engine.outcomes.Shared``), ``knock``, ``location_hits``
        Written, one row a trial:

        winner : int8[n_trials]; end_slot : int32[n_trials]
            Written: the winning side (or DRAW / UNRESOLVED) and the time unit the fight ended.
        out_slot, death_slot, dealt, taken, attacks, landed : int32[n_trials, C]
            Written: per combatant the time unit it first went out (0: never) and died (0: never),
            damage it dealt and took after defences, attacks made and attacks that hit.
    logs : log_trial, events, n_events
        The event log of one trial:

        log_trial : int
            Offset (within this call) of the trial whose events are logged; -1 for none. Logging
            is a predictable branch per event, free when off.
        events : int64[max_events + 1, N_EV_FIELDS]; n_events : int64[1]
            Written: the logged trial's events (as many as fit; the last row is scratch) and how
            many there were.
    tl : engine.outcomes.Streamed
        Streaming:

        accumulate : bool
            Add every trial straight into the following arrays of a
            :class:`~fuzion_sim.engine.outcomes.Tally` and leave the per-trial outputs alone (a run
            that streams its results then skips writing rows and reading them back).
    """
    (side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec, att_skill,
     def_ranged, def_melee, base_order, targeting, w_melee, w_dmg, w_dc, w_acc, w_min_str,
     pair_mod, pair_armour, pair_dist, acts, slots_per_round, start_slot, slots_per_unit,
     max_slots, surprised, options, roll_table, nd6_offsets, nd6_table) = sp
    (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
     _location_hits) = outs
    log_trial, events, n_events = logs
    (accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
     taken_sq, attacks_sum, landed_sum) = tl
    n_comb = side.shape[0]
    impairment = options[OPT_IMPAIRMENT] != 0
    stunned_rule = options[OPT_STUNNED] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    switch2 = options[OPT_SWITCH2] != 0
    init_dice = options[OPT_INIT_DICE]
    wake_own_phase = options[OPT_WAKE_OWN_PHASE] != 0
    recovery_slot = options[OPT_RECOVERY_SLOT]
    chinks = options[OPT_CHINKS] != 0
    n_events[0] = 0
    n_rolls = np.uint64(roll_table.shape[0])
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
    nd6_size = np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start
    init_lo = nd6_offsets[3]
    u_comb = np.uint64(n_comb)
    u_spr = np.uint64(slots_per_round)

    # per-combatant state of the current trial
    hits = np.empty(n_comb, np.int64)
    stun = np.empty(n_comb, np.int64)
    dead = np.zeros(n_comb, np.bool_)
    lose = np.zeros(n_comb, np.bool_)  # F22: stunned, loses its next action
    is_out = np.zeros(n_comb, np.bool_)
    target = np.empty(n_comb, np.int64)
    # cached combat values, refreshed when the combatant's state changes
    att_base = np.empty(n_comb, np.int64)  # REF + skill + WA - min STR shortfall
    dv_ranged = np.empty(n_comb, np.int64)  # DEX + Ranged Evade
    dv_melee = np.empty(n_comb, np.int64)  # DEX + best melee defence skill
    groups = np.empty(n_comb, np.int64)  # damage dice: full groups of TABLE_DICE,
    dice_lo = np.empty(n_comb, np.uint64)  # then the rest's table offset
    dice_size = np.empty(n_comb, np.uint64)  # and size
    watch = np.empty(n_comb, np.int64)  # the Hits at which a wound needs work (watch_line)
    down = np.empty(n_comb, np.int64)  # _down, kept with the counts n_ko and n_dying
    penalty = np.empty(n_comb, np.int64)  # the penalty those values were computed with
    att_ref = np.empty(n_comb, np.int64)  # current REF (F9 switch2 rolls on it)
    # per-trial counters, written out at the end of the trial
    c_out = np.empty(n_comb, np.int64)
    c_death = np.empty(n_comb, np.int64)
    c_dealt = np.empty(n_comb, np.int64)
    c_taken = np.empty(n_comb, np.int64)
    c_attacks = np.empty(n_comb, np.int64)
    c_landed = np.empty(n_comb, np.int64)
    standing = np.empty(n_sides, np.int64)
    order = np.empty(n_comb, np.int64)
    tie_key = np.empty(n_comb, np.uint64)
    init_key = np.empty(n_comb, np.float64)
    n_pen = max(4, dying_penalty) + 6  # penalties 0 .. the dying penalty + 5
    u_pen = np.uint64(n_pen)
    table = values_table(
        n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
        def_melee, nd6_offsets,
    )  # fmt: skip
    fresh_watch = np.empty(n_comb, np.int64)
    # per attacker and target: what stops the attack (F20); per target: F22's stunned limit
    # (stunned when 2 x Stun lost > maximum Stun)
    stop = stop_table(pair_armour, w_dmg, sd)
    # F30 chinks: a hit that beats the DV by 10 or more meets no armour (only SD, for Stun)
    chink_stop = stop_table(np.zeros(n_comb * n_comb, np.int64), w_dmg, sd)
    killing = np.empty(n_comb, np.bool_)
    # targeting rules that choose again at every action (the others keep a target until it
    # falls)
    dynamic = np.empty(n_comb, np.bool_)
    stun_limit = np.empty(n_comb, np.int64)
    by_ref, run_end, tie_low = tie_tables(ref, base_order)
    # a fresh trial: the sides' sizes, who is down at the start (_down), the last time unit
    side_size = np.zeros(n_sides, np.int64)
    fresh_down = np.empty(n_comb, np.int64)
    for c in range(n_comb):
        side_size[side[c]] += 1
        fresh_down[c] = down_state(hits_max[c], stun_max[c], False)
    fresh_sides_left = np.sum(side_size > 0)
    fresh_ko, fresh_dying = np.sum(fresh_down == 1), np.sum(fresh_down == 2)
    last_unit = (max_slots - 1) // slots_per_unit + 1
    for c in range(n_comb):
        order[c] = base_order[c]
        fresh_watch[c] = watch_line(hits_max[c], hits_max[c], body[c], impairment)
        killing[c] = w_dmg[c] == KILLING
        mode = targeting[c]
        dynamic[c] = (
            mode == tx.T_WEAKEST or mode == tx.T_NEAREST or mode == tx.T_STRONGEST
            or mode == tx.T_FOCUS
        )  # fmt: skip
        stun_limit[c] = stun_max[c] // 2 if stunned_rule else np.int64(1 << 62)

    for j in range(n_trials):
        log = j == log_trial
        ne = 0
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        for s in range(n_sides):
            standing[s] = side_size[s]
        sides_left = fresh_sides_left
        n_ko, n_dying = fresh_ko, fresh_dying
        for c in range(n_comb):
            down[c] = fresh_down[c]
            hits[c] = hits_max[c]
            stun[c] = stun_max[c]
            dead[c] = False
            lose[c] = False
            is_out[c] = False
            target[c] = -1
            refresh_values(c, c * n_pen, table, att_base, dv_ranged, dv_melee, att_ref, groups,
                     dice_lo, dice_size)  # fmt: skip
            watch[c] = fresh_watch[c]
            penalty[c] = 0
            c_out[c] = 0
            c_death[c] = 0
            c_dealt[c] = 0
            c_taken[c] = 0
            c_attacks[c] = 0
            c_landed[c] = 0
        if has_ties:  # F9 switch1: ties broken once per fight by a die roll
            s0, s1, s2, s3 = break_ties(
                s0, s1, s2, s3, order, tie_key, by_ref, run_end, tie_low
            )

        result = UNRESOLVED
        finish = last_unit
        slot = start_slot - 1  # slot within the round (no modulo in the loop: slow)
        rounds_done = 0
        now = 1  # reported time unit, 1-based, and the slot within it
        sub = -1
        for _ in range(max_slots):
            slot += 1
            if slot == slots_per_round:
                slot = 0
            sub += 1
            if sub == slots_per_unit:
                sub = 0
                now += 1
            opening = now == 1
            if switch2 and sub == 0:
                # F9 switch2: every phase (speed chart: segment) each rolls the action die +
                # current REF; ties broken by another die (the fraction below)
                for c in range(n_comb):
                    s0, s1, s2, s3, init_key[c] = initiative_key(
                        s0, s1, s2, s3, att_ref[c], init_dice, nd6_table, init_lo
                    )
                sort_by_key(order, init_key)
            for k in range(n_comb):
                a = order[k]
                ua = np.uint64(a)  # unsigned indices: no negative-index wraparound
                if is_out[ua] or acts[ua * u_spr + np.uint64(slot)] == 0:
                    continue
                if opening and surprised[ua]:  # F11: no action in the opening phase/segment
                    if log:
                        row = log_event(events, ne, now, EVENT_SURPRISED, a, -1)
                        ne += 1
                    continue
                if lose[ua]:  # F22: the stunned combatant's lost action; the -5 ends with it
                    lose[ua] = False
                    pen = wound_penalty(hits[ua], hits_max[ua], impairment, dying_penalty)
                    penalty[ua] = pen
                    refresh_values(ua, ua * u_pen + np.uint64(pen), table, att_base, dv_ranged,
                             dv_melee, att_ref, groups, dice_lo, dice_size)  # fmt: skip
                    if log:
                        row = log_event(events, ne, now, EVENT_LOST_ACTION, a, -1)
                        ne += 1
                    continue
                # target under the targeting rule (kept until it falls, unless dynamic)
                tgt = target[ua]
                if tgt < 0 or is_out[np.uint64(tgt)] or dynamic[ua]:
                    tgt, s0, s1, s2, s3 = choose_target(
                        a, side, is_out, target, targeting[ua], hits, stun, pair_dist, is_out,
                        s0, s1, s2, s3,
                    )  # fmt: skip
                    target[ua] = tgt
                    if tgt < 0:
                        continue
                ut = np.uint64(tgt)
                mod = pair_mod[ua * u_comb + ut]
                if opening and surprised[ut]:
                    mod += 5  # F11: attacking a surprised target
                dv_base = dv_melee[ut] if w_melee[ua] else dv_ranged[ut]
                c_attacks[ua] += 1
                # No branch on the dice from here to the state update (a miss is damage x 0);
                # table indices are unsigned (no negative-index wraparound in the hot loop)
                # One generator step for the roll and the first group of damage dice
                # (split_bits).
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                ri, bits = split_bits(x, n_rolls)
                roll = np.int64(roll_table[ri])
                need = dv_base - att_base[ua] - mod
                hit = np.int64(roll >= need)
                # F19: n d6 as groups of five from the 5d6 table, then the rest
                raw = np.int64(0)
                for _ in range(groups[ua]):
                    raw += nd6_table[nd6_start + index32(bits, nd6_size)]
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    bits = high_bits(x)
                raw += nd6_table[dice_lo[ua] + index32(bits, dice_size[ua])]
                # F20-F21: Killing damage costs as much Stun (never below 0), Stun damage 1 Hit
                # per full 5 through
                if chinks and roll - need >= 10:
                    through = raw - chink_stop[ua * u_comb + ut]
                else:
                    through = raw - stop[ua * u_comb + ut]
                through = (through if through > 0 else 0) * hit
                hits_lost, stun_lost = split_through(killing[ua], through, stun[ut])
                c_landed[ua] += hit
                c_dealt[ua] += through
                c_taken[ut] += through
                hits[ut] -= hits_lost
                stun[ut] -= stun_lost
                went_out = False
                # the rest only when the wound crosses the target's watch line, knocks its Stun
                # to 0 or stuns it (or the trial is logged)
                if hits[ut] <= watch[ut] or stun[ut] <= 0 or stun_lost > stun_limit[ut] or log:
                    if hits[ut] <= -2 * body[ut] and not dead[ut]:
                        dead[ut] = True
                        c_death[ut] = now
                    now_down = down_state(hits[ut], stun[ut], dead[ut])
                    n_ko += (now_down == 1) - (down[ut] == 1)
                    n_dying += (now_down == 2) - (down[ut] == 2)
                    down[ut] = now_down
                    if stun_lost > stun_limit[ut]:
                        lose[ut] = True
                    watch[ut] = watch_line(hits[ut], hits_max[ut], body[ut], impairment)
                    pen = wound_penalty(hits[ut], hits_max[ut], impairment, dying_penalty)
                    if lose[ut]:
                        pen += 5
                    if pen != penalty[ut]:
                        penalty[ut] = pen
                        refresh_values(ut, ut * u_pen + np.uint64(pen), table, att_base, dv_ranged,
                                 dv_melee, att_ref, groups, dice_lo, dice_size)  # fmt: skip
                    if out_of_fight(hits[ut], stun[ut], dead[ut], dying_can_act):
                        went_out = True
                        sides_left = goes_out(ut, now, is_out, c_out, side, standing, sides_left)
                if log:
                    row = log_event(events, ne, now, EVENT_ATTACK, a, tgt)
                    events[row, EV_ROLL] = roll
                    events[row, EV_AV] = att_base[ua] + mod
                    events[row, EV_DV] = dv_base
                    events[row, EV_RAW] = raw
                    events[row, EV_THROUGH] = through
                    events[row, EV_HITS] = hits[ut]
                    events[row, EV_STUN] = stun[ut]
                    events[row, EV_FLAGS] = (
                        hit * FLAG_HIT
                        + FLAG_STUNNED * (hit and lose[ut])
                        + FLAG_OUT * went_out
                        + FLAG_DEAD * dead[ut]
                        + FLAG_DYING * (hits[ut] <= 0)
                    )
                    ne += 1
                if went_out and sides_left <= 1:
                    break
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
            # end of the slot: the free Recovery after segment 12 (speed chart), waking (F23)
            # at the end of each phase, and bleeding (F25) at the end of each round
            end_of_round = slot == slots_per_round - 1
            if end_of_round:
                rounds_done += 1
            minute = end_of_round and rounds_done % 5 == 0
            end_of_unit = sub == slots_per_unit - 1
            free_recovery = slot == recovery_slot
            # only the knocked out (Hits > 0, Stun <= 0) can wake, only the dying bleed
            if not (free_recovery or n_ko > 0 or (end_of_round and n_dying > 0)):
                continue
            for c in range(n_comb):
                if dead[c]:
                    continue
                phase_end = acts[c * slots_per_round + slot] if wake_own_phase else end_of_unit
                changed, woke, ne = wake_and_bleed(
                    c, now, phase_end, end_of_round, minute, free_recovery, False, hits, stun,
                    stun_max, rec, body, dead, c_death, log, events, ne,
                )  # fmt: skip
                if not changed:
                    continue
                pen = wound_penalty(hits[c], hits_max[c], impairment, dying_penalty)
                if lose[c]:
                    pen += 5
                if pen != penalty[c]:  # the cached values are those of penalty[c]
                    penalty[c] = pen
                    refresh_values(c, c * n_pen + pen, table, att_base, dv_ranged, dv_melee,
                                   att_ref, groups, dice_lo, dice_size)  # fmt: skip
                watch[c] = watch_line(hits[c], hits_max[c], body[c], impairment)
                now_down = down_state(hits[c], stun[c], dead[c])
                n_ko += (now_down == 1) - (down[c] == 1)
                n_dying += (now_down == 2) - (down[c] == 2)
                down[c] = now_down
                now_out = out_of_fight(hits[c], stun[c], dead[c], dying_can_act)
                if woke and log:
                    ne = log_wake(events, ne, now, c, hits, stun, now_out)
                sides_left = comes_back(c, now, now_out, is_out, c_out, side, standing, sides_left)
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
        if log:
            log_event(events, ne, finish, EVENT_END, result, -1)
            n_events[0] = ne + 1
        if accumulate:
            k = outcome_index(result, n_sides)
            outcome_counts[k] += 1
            end_hist[k, finish] += 1
            for c in range(n_comb):
                out_hist[c, c_out[c]] += 1
                death_hist[c, c_death[c]] += 1
                dealt_sum[c] += c_dealt[c]
                dealt_sq[c] += c_dealt[c] * c_dealt[c]
                taken_sum[c] += c_taken[c]
                taken_sq[c] += c_taken[c] * c_taken[c]
                attacks_sum[c] += c_attacks[c]
                landed_sum[c] += c_landed[c]
            continue
        record_trial(j, result, finish, c_out, c_death, c_dealt, c_taken, c_attacks, c_landed,
                     winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed)
        for c in range(n_comb):
            knock[j, c] = 0
