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

from ..._jit import INNER, jit
from ...engine.outcomes import record_trial, tally_trial
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


@jit(inline="always")
def _arrays(base_order, n_sides):
    """The per-combatant arrays of a trial, allocated once a chunk: its state, the combat values
    cached for its penalty (refreshed when its state changes), its counters (written out at
    the end of the trial) and the initiative order's working arrays (the order starts as
    ``base_order``)."""
    n_comb = base_order.shape[0]
    hits = np.empty(n_comb, np.int64)
    stun = np.empty(n_comb, np.int64)
    dead = np.zeros(n_comb, np.bool_)
    lose = np.zeros(n_comb, np.bool_)  # F22: stunned, loses its next action
    is_out = np.zeros(n_comb, np.bool_)
    target = np.empty(n_comb, np.int64)
    att_base = np.empty(n_comb, np.int64)  # REF + skill + WA - min STR shortfall
    dv_ranged = np.empty(n_comb, np.int64)  # DEX + Ranged Evade
    dv_melee = np.empty(n_comb, np.int64)  # DEX + best melee defence skill
    groups = np.empty(n_comb, np.int64)  # damage dice: full groups of TABLE_DICE,
    dice_lo = np.empty(n_comb, np.uint64)  # then the rest's table offset
    dice_size = np.empty(n_comb, np.uint64)  # and size
    watch = np.empty(n_comb, np.int64)  # the Hits at which a wound needs work (watch_line)
    down = np.empty(n_comb, np.int64)  # down_state, kept with the counts n_ko and n_dying
    penalty = np.empty(n_comb, np.int64)  # the penalty those values were computed with
    att_ref = np.empty(n_comb, np.int64)  # current REF (F9 switch2 rolls on it)
    c_out = np.empty(n_comb, np.int64)
    c_death = np.empty(n_comb, np.int64)
    c_dealt = np.empty(n_comb, np.int64)
    c_taken = np.empty(n_comb, np.int64)
    c_attacks = np.empty(n_comb, np.int64)
    c_landed = np.empty(n_comb, np.int64)
    order = base_order.copy()
    tie_key = np.empty(n_comb, np.uint64)
    init_key = np.empty(n_comb, np.float64)
    standing = np.empty(n_sides, np.int64)  # the sides' members standing
    return (hits, stun, dead, lose, is_out, target, att_base, dv_ranged, dv_melee, groups,
            dice_lo, dice_size, watch, down, penalty, att_ref, c_out, c_death, c_dealt, c_taken,
            c_attacks, c_landed, order, tie_key, init_key, standing)


@jit(inline="always")
def _reset(state, values, fresh_down, fresh_watch, n_pen, hits_max, stun_max, c_dealt, c_taken,
           c_attacks, c_landed):  # fmt: skip
    """A trial's start: everyone unhurt, standing, without a target, at penalty 0, its counters
    at 0."""
    hits, stun, dead, lose, is_out, target, down, penalty, watch, c_out, c_death = state
    table, att_base, dv_ranged, dv_melee, att_ref, groups, dice_lo, dice_size = values
    for c in range(hits.shape[0]):
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


@jit(inline="always")
def _log_attack(events, ne, now, a, tgt, roll, av, dv, raw, through, hit, went_out, ut, state):
    """The event of ``a``'s attack on ``tgt`` in a logged trial. Returns the event count."""
    hits, stun, dead, lose = state[0], state[1], state[2], state[3]
    row = log_event(events, ne, now, EVENT_ATTACK, a, tgt)
    events[row, EV_ROLL] = roll
    events[row, EV_AV] = av
    events[row, EV_DV] = dv
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
    return ne + 1


@jit(inline="always")
def _roll_order(s0, s1, s2, s3, order, init_key, att_ref, init_dice, nd6_table, init_lo):
    """F9 switch2: every phase (speed chart: segment) each rolls the action die + its current
    REF, ties broken by another die (the key's fraction); ``order`` sorted by the keys."""
    for c in range(order.shape[0]):
        s0, s1, s2, s3, init_key[c] = initiative_key(s0, s1, s2, s3, att_ref[c], init_dice,
                                                     nd6_table, init_lo)  # fmt: skip
    sort_by_key(order, init_key)
    return s0, s1, s2, s3


@jit(inline="always")
def _fresh(sp, n_pen, impairment, stunned_rule):
    """What a chunk works out once for every trial: each combatant's combat values under
    penalties 0 to ``n_pen - 1`` (``values_table``); per attacker and target what stops the
    attack (F20) and what stops it through a chink (F30: no armour, only SD for Stun); per
    combatant whether its weapon does Killing damage, whether its targeting rule chooses again
    at every action (the others keep a target until it falls), F22's stunned limit (stunned
    when 2 x Stun lost > maximum Stun), the tie tables of initiative, and a fresh trial's side
    sizes, down states and watch lines, sides standing and counts of the knocked out and the
    dying. Inlined into :func:`run_chunk`, which allocates (the trial loop cannot)."""
    side, n_sides, body, hits_max, stun_max = sp.side, sp.n_sides, sp.body, sp.hits_max, sp.stun_max
    n_comb = side.shape[0]
    table = values_table(n_pen, sp.ref, sp.dex, sp.strength, sp.att_skill, sp.w_acc, sp.w_min_str,
                         sp.w_dc, sp.w_melee, sp.def_ranged, sp.def_melee, sp.nd6_offsets)
    stop = stop_table(sp.pair_armour, sp.w_dmg, sp.sd)
    chink_stop = stop_table(np.zeros(n_comb * n_comb, np.int64), sp.w_dmg, sp.sd)
    killing = np.empty(n_comb, np.bool_)
    dynamic = np.empty(n_comb, np.bool_)
    stun_limit = np.empty(n_comb, np.int64)
    by_ref, run_end, tie_low = tie_tables(sp.ref, sp.base_order)
    side_size = np.zeros(n_sides, np.int64)
    fresh_down = np.empty(n_comb, np.int64)
    fresh_watch = np.empty(n_comb, np.int64)
    for c in range(n_comb):
        side_size[side[c]] += 1
        fresh_down[c] = down_state(hits_max[c], stun_max[c], False)
        fresh_watch[c] = watch_line(hits_max[c], hits_max[c], body[c], impairment)
        killing[c] = sp.w_dmg[c] == KILLING
        mode = sp.targeting[c]
        dynamic[c] = (
            mode == tx.T_WEAKEST or mode == tx.T_NEAREST or mode == tx.T_STRONGEST
            or mode == tx.T_FOCUS
        )  # fmt: skip
        stun_limit[c] = stun_max[c] // 2 if stunned_rule else np.int64(1 << 62)
    return (table, stop, chink_stop, killing, dynamic, stun_limit, by_ref, run_end, tie_low,
            side_size, fresh_down, fresh_watch, np.sum(side_size > 0), np.sum(fresh_down == 1),
            np.sum(fresh_down == 2))


@jit(inline="always")
def _wounded(ut, now, stun_lost, state, values, rules, sp, stun_limit, standing, sides_left,
             n_ko, n_dying):  # fmt: skip
    """The work of a wound that crossed target ``ut``'s watch line, took its Stun to 0 or
    stunned it (or a logged trial's wound): death (F24), its down state and the counts of the
    knocked out and the dying, stunned (F22: it loses its next action, -5 until then), its
    watch line, penalty and cached values, and out of the fight (F26). Returns whether it went
    out, the two counts and the sides left. Inlined into :func:`_trials`."""
    hits, stun, dead, lose, is_out, _, down, penalty, watch, c_out, c_death = state
    table, att_base, dv_ranged, dv_melee, att_ref, groups, dice_lo, dice_size = values
    impairment, dying_penalty, dying_can_act, _, n_pen = rules
    hits_max, body = sp.hits_max, sp.body
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
        refresh_values(ut, ut * np.uint64(n_pen) + np.uint64(pen), table, att_base, dv_ranged,
                       dv_melee, att_ref, groups, dice_lo, dice_size)  # fmt: skip
    went_out = False
    if out_of_fight(hits[ut], stun[ut], dead[ut], dying_can_act):
        went_out = True
        sides_left = goes_out(ut, now, is_out, c_out, sp.side, standing, sides_left)
    return went_out, n_ko, n_dying, sides_left


@jit(inline="always")
def _end_of_slot(now, slot, sub, rounds_done, state, values, rules, sp, standing, sides_left,
                 n_ko, n_dying, log, events, ne):  # fmt: skip
    """The end of slot ``slot`` (``sub`` of its time unit; ``rounds_done`` counts the round it
    ends) for everyone alive: waking (F23, at the end of its phase), bleeding (F25, at the end
    of a round) and the free Recovery after segment 12 (speed chart); whoever changed gets its
    penalty, cached values, watch line and down state again, and goes out or comes back. Only
    the knocked out (Hits > 0, Stun <= 0) can wake and only the dying bleed, so without them
    (and the free Recovery) there is nothing to do. Returns the event count, the counts of the
    knocked out and the dying, and the sides left. Inlined into :func:`_trials`."""
    hits, stun, dead, lose, is_out, _, down, penalty, watch, c_out, c_death = state
    table, att_base, dv_ranged, dv_melee, att_ref, groups, dice_lo, dice_size = values
    impairment, dying_penalty, dying_can_act, wake_own_phase, n_pen = rules
    hits_max, stun_max, body, rec = sp.hits_max, sp.stun_max, sp.body, sp.rec
    acts, slots_per_round = sp.acts, sp.slots_per_round
    end_of_round = slot == slots_per_round - 1
    minute = end_of_round and rounds_done % 5 == 0
    end_of_unit = sub == sp.slots_per_unit - 1
    free_recovery = slot == sp.options[OPT_RECOVERY_SLOT]
    if not (free_recovery or n_ko > 0 or (end_of_round and n_dying > 0)):
        return ne, n_ko, n_dying, sides_left
    for c in range(hits.shape[0]):
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
        sides_left = comes_back(c, now, now_out, is_out, c_out, sp.side, standing, sides_left)
    return ne, n_ko, n_dying, sides_left


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
        The fight's arrays, read by name (what each holds: ``compile.StandingPlan``).
    outs : the shared arrays (``engine.outcomes.Shared``), ``knock``, ``location_hits``
        Written, one row a trial (``record_trial``): the winner (or DRAW / UNRESOLVED) and the
        time unit the fight ended; per combatant the time unit it first went out and died (0:
        never), the damage it dealt and took after defences, its attacks made and landed.
    logs : log_trial, events, n_events
        The offset (within this call) of the trial whose events are logged (-1: none; a
        predictable branch per event, free when off), its events (int64[max_events + 1,
        N_EV_FIELDS], as many as fit; the last row is scratch) and how many there were.
    tl : engine.outcomes.Streamed
        With ``accumulate``, every trial goes straight into the tally's arrays
        (``tally_trial``) and the per-trial outputs are left alone.
    """
    options = sp.options
    n_pen = max(4, options[OPT_DYING_PENALTY]) + 6  # penalties 0 .. the dying penalty + 5
    fresh = _fresh(sp, n_pen, options[OPT_IMPAIRMENT] != 0, options[OPT_STUNNED] != 0)
    _trials(key, first, n_trials, sp, outs, logs, tl, _arrays(sp.base_order, sp.n_sides), fresh,
            n_pen)


@jit(**INNER)
def _trials(key, first, n_trials, sp, outs, logs, tl, arrays, fresh, n_pen):
    """The trial loop of :func:`run_chunk`, with the arrays it allocated (:func:`_arrays`)
    and worked out (:func:`_fresh`): compiled without reference counting (it allocates
    nothing), so the groups its inlined steps unpack cost nothing in the loop."""
    side, n_sides, hits_max, stun_max = sp.side, sp.n_sides, sp.hits_max, sp.stun_max
    targeting, w_melee, pair_mod = sp.targeting, sp.w_melee, sp.pair_mod
    pair_dist, acts, slots_per_round = sp.pair_dist, sp.acts, sp.slots_per_round
    start_slot, slots_per_unit, max_slots = sp.start_slot, sp.slots_per_unit, sp.max_slots
    surprised, options, roll_table = sp.surprised, sp.options, sp.roll_table
    nd6_offsets, nd6_table = sp.nd6_offsets, sp.nd6_table
    (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
     _location_hits) = outs
    log_trial, events, n_events = logs
    accumulate = tl.accumulate
    n_comb = side.shape[0]
    impairment = options[OPT_IMPAIRMENT] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    switch2 = options[OPT_SWITCH2] != 0
    init_dice = options[OPT_INIT_DICE]
    wake_own_phase = options[OPT_WAKE_OWN_PHASE] != 0
    chinks = options[OPT_CHINKS] != 0
    n_events[0] = 0
    n_rolls = np.uint64(roll_table.shape[0])
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
    nd6_size = np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start
    init_lo = nd6_offsets[3]
    u_comb = np.uint64(n_comb)
    u_spr = np.uint64(slots_per_round)

    (hits, stun, dead, lose, is_out, target, att_base, dv_ranged, dv_melee, groups, dice_lo,
     dice_size, watch, down, penalty, att_ref, c_out, c_death, c_dealt, c_taken, c_attacks,
     c_landed, order, tie_key, init_key, standing) = arrays  # fmt: skip
    u_pen = np.uint64(n_pen)
    (table, stop, chink_stop, killing, dynamic, stun_limit, by_ref, run_end, tie_low, side_size,
     fresh_down, fresh_watch, fresh_sides_left, fresh_ko, fresh_dying) = fresh  # fmt: skip
    last_unit = (max_slots - 1) // slots_per_unit + 1

    state = (hits, stun, dead, lose, is_out, target, down, penalty, watch, c_out, c_death)
    values = (table, att_base, dv_ranged, dv_melee, att_ref, groups, dice_lo, dice_size)
    rules = (impairment, dying_penalty, dying_can_act, wake_own_phase, n_pen)

    for j in range(n_trials):
        log = j == log_trial
        ne = 0
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        for s in range(n_sides):
            standing[s] = side_size[s]
        sides_left = fresh_sides_left
        n_ko, n_dying = fresh_ko, fresh_dying
        _reset(state, values, fresh_down, fresh_watch, n_pen, hits_max, stun_max, c_dealt,
               c_taken, c_attacks, c_landed)  # fmt: skip
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
            if switch2 and sub == 0:  # F9 switch2: initiative rolled every phase
                s0, s1, s2, s3 = _roll_order(s0, s1, s2, s3, order, init_key, att_ref, init_dice,
                                             nd6_table, init_lo)  # fmt: skip
            for k in range(n_comb):
                a = order[k]
                ua = np.uint64(a)  # unsigned indices: no negative-index wraparound
                if is_out[ua] or acts[ua * u_spr + np.uint64(slot)] == 0:
                    continue
                if opening and surprised[ua]:  # F11: no action in the opening phase/segment
                    if log:
                        log_event(events, ne, now, EVENT_SURPRISED, a, -1)
                        ne += 1
                    continue
                if lose[ua]:  # F22: the stunned combatant's lost action; the -5 ends with it
                    lose[ua] = False
                    pen = wound_penalty(hits[ua], hits_max[ua], impairment, dying_penalty)
                    penalty[ua] = pen
                    refresh_values(ua, ua * u_pen + np.uint64(pen), table, att_base, dv_ranged,
                             dv_melee, att_ref, groups, dice_lo, dice_size)  # fmt: skip
                    if log:
                        log_event(events, ne, now, EVENT_LOST_ACTION, a, -1)
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
                    went_out, n_ko, n_dying, sides_left = _wounded(
                        ut, now, stun_lost, state, values, rules, sp, stun_limit, standing,
                        sides_left, n_ko, n_dying)  # fmt: skip
                if log:
                    ne = _log_attack(events, ne, now, a, tgt, roll, att_base[ua] + mod, dv_base,
                                     raw, through, hit, went_out, ut, state)
                if went_out and sides_left <= 1:
                    break
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
            rounds_done += slot == slots_per_round - 1
            ne, n_ko, n_dying, sides_left = _end_of_slot(
                now, slot, sub, rounds_done, state, values, rules, sp, standing, sides_left, n_ko,
                n_dying, log, events, ne)  # fmt: skip
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
        if log:
            log_event(events, ne, finish, EVENT_END, result, -1)
            n_events[0] = ne + 1
        if accumulate:
            tally_trial(result, finish, n_sides, c_out, c_death, c_dealt, c_taken, c_attacks,
                        c_landed, tl)
            continue
        record_trial(j, result, finish, c_out, c_death, c_dealt, c_taken, c_attacks, c_landed,
                     winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed)
        for c in range(n_comb):
            knock[j, c] = 0
