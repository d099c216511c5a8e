"""The Fuzion fight kernel: one jitted loop over a chunk of trials.

It sees only arrays and numbers (the compiled :class:`~.compile.Plan`, unpacked argument by
argument: a tuple of arrays inside the hot loop costs 1.5 to 3 times, PERFORMANCE-NOTES lesson 3)
and writes into preallocated output arrays. Rule mechanics live in ``rules.py``; the tactics
bytecode is described in ``tactics.py``.

Semantics (RULINGS F8-F18, F21-F26, F32-F33): time runs in slots (a phase, a segment of the
speed chart, or a pass of an extra-actions phase; ``timing.py``). Within a slot combatants act
one at a time in initiative order and damage lands at once, so a combatant put out earlier in
a slot does not act later in it. At each action a combatant takes the first rule of its tactics
whose condition holds. The fight ends the moment at most one side has anyone standing; the
kill time is that time unit's 1-based index. Waking is checked at the end of each phase (under
the speed chart: of each of the sleeper's phases), bleeding at the end of each round.

How it stays fast (each measured on the benchmark duel):

- arrays are indexed in this function's body and never passed to helpers (an array argument
  brings atomic reference counting into the loop: 2.3 -> 5 million duels/s);
- the generator state lives in four scalars (``engine.rng.xoshiro``);
- a combatant's effective characteristics are cached and recomputed only when its penalty
  changes; ranges only when someone moves; the default tactic skips the bytecode interpreter;
- nothing branches on the dice between the attack roll and the damage: a miss is damage x 0.

Output codes: ``winner`` holds the winning side's index, ``DRAW`` (-1) when every side went out
at once, or ``UNRESOLVED`` (-2) when ``max_slots`` ran out.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro, xoshiro_bits
from . import tactics as tx
from .actions import (
    act_aim,
    act_defend,
    act_escape,
    act_first_aid,
    act_move,
    act_presence,
    act_reload,
    choose_rule,
    geometry,
    interrupt_by_waiter,
    interrupt_in_range,
    is_movement,
    start_waiting,
)
from .codes import (
    ABORT_BLOCK,
    ABORT_DIVE,
    ABORT_DODGE,
    ABORT_NONE,
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
    EVENT_AREA,
    EVENT_ATTACK,
    EVENT_BLEED,
    EVENT_DEFEND,
    EVENT_DISARM,
    EVENT_DRAW,
    EVENT_END,
    EVENT_IDLE,
    EVENT_KNOCKBACK,
    EVENT_LOST_ACTION,
    EVENT_OUT_OF_REACH,
    EVENT_PERCEPTION,
    EVENT_RECOVER,
    EVENT_SURPRISED,
    EVENT_WAKE,
    F_KICK,
    F_PUNCH,
    F_WEAPON,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_HIT,
    FLAG_OUT,
    FLAG_STUNNED,
    FLAG_UNOPPOSED,
    HOLD_CHOKE,
    HOLD_ENTANGLE,
    HOLD_NONE,
    LOC_CALLED,
    LOC_NONE,
    MELEE_REACH,
    OPT_AUTOFIRE_ONE_PLUS,
    OPT_AUTOFIRE_RATIO,
    OPT_BLOCK_BONUS,
    OPT_CHINKS,
    OPT_DODGE_BONUS,
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_HIT_LOCATIONS,
    OPT_IMPAIRMENT,
    OPT_INIT_DICE,
    OPT_KNOCKBACK,
    OPT_PERCEPTION_DV,
    OPT_RECOVERY_SLOT,
    OPT_STUNNED,
    OPT_SWITCH2,
    OPT_WAKE_OWN_PHASE,
    SCALE_KILLS,
    SCALE_OBJECT,
    UNRESOLVED,
)
from .dice import TABLE_DICE
from .kernel_parts import choose_target, log_event, sort_by_key
from .rules import (
    KILLING,
    STUN,
    armour_value,
    bleed,
    damage_dice,
    effective,
    fight_result,
    initiative_key,
    move_away,
    out_of_fight,
    penetration,
    split_through,
    wakes,
    wound_penalty,
)


@jit
def run_chunk(
    key, first, n_trials,
    # combatants
    side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec, run_m, sprint_m,
    att_skill, h2h_skill, escape_skill, def_ranged, def_melee, pre, res, base_order, targeting,
    surprised, pos_x0, pos_y0, int_, perception, obscured, holstered0, unarmed0, abort_kind, tech,
    physician, scale, knock_body, called_loc, called_mod,
    # weapons (one per combatant) and armour
    w_melee, w_dmg, w_dc, w_acc, w_min_str, w_range, w_ap, w_energy, w_shots, w_reload,
    w_kills, w_blade, w_autofire, w_rof, w_area, w_explosive,
    a_pd, a_ekd, a_kills, a_half_blades, a_cover,
    # static modifiers: against this target (ranged, melee), by this attacker (ranged, melee)
    tgt_mod_r, tgt_mod_m, cover_r, cover_m, att_mod_r, att_mod_m,
    # tactics (tactics.pack) and whether a combatant uses the default tactic
    tac_default, rule_start, rule_count, rules, code, consts,
    # presence attack effects by margin over RES: thresholds and (effect, value)
    presence_margin, presence_effect,
    # time
    acts, slots_per_round, start_slot, slots_per_unit, max_slots,
    # rules and dice
    options, ap_factor, knock_unit, roll_table, task_table, def_table, nd6_offsets, nd6_table,
    loc_by_roll, loc_num, loc_den,
    # outputs, one row per trial
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock, location_hits,
    # event log of one trial (log_trial < 0: none)
    log_trial, events, n_events,
):  # fmt: skip
    """Run trials ``first .. first + n_trials - 1`` of the chunk with key ``key``.

    Parameters
    ----------
    key : uint64[4]
        The chunk's stream key (``engine.rng.chunk_key``).
    first, n_trials : int
        Offset of the first trial within the chunk, and how many trials to run.
    side ... pos_y0 : int64[C] or float64[C]
        Per-combatant plan arrays (see ``compile.Plan``): sheet values, the skills each attack
        form uses, initiative order by sheet REF, targeting rule (``tactics.T_*``), surprise,
        starting position in metres, INT and Perception, obscured, weapon holstered at the start
        (``drawn: false``), no weapon (the fists: every attack a punch), abort (``ABORT_*``),
        TECH and Physician (first aid), scale (``SCALE_*``), the BODY (Kills) knockback
        subtracts, a called shot's location (-1: none) and its modifier.
    w_* : per-combatant weapon: melee flag, damage type, DC, WA, minimum STR, listed range
        (melee: reach), AP, energy, magazine (-1: unlimited), actions to reload, Kills (0: a DC
        weapon), bladed. ``a_*``: armour PD, EKD, Kills, half against blades, the bitmask of
        hit locations it covers.
    tgt_mod_r, tgt_mod_m, cover_r, cover_m, att_mod_r, att_mod_m : int64[C]
        Attack modifiers for ranged and melee attacks against each combatant (size,
        silhouetted), for its cover and posture (which it leaves when it moves), and by it
        (braced and the GM's flat modifier).
    tac_default, rule_start, rule_count, rules, code, consts
        The tactics programs (``tactics.pack``); ``tac_default[c]`` 1 skips the interpreter
        for the default tactic (close to range, attack).
    acts : int8[C * slots_per_round]
        1 where combatant ``c`` acts in slot ``s`` of a round (``acts[c * spr + s]``).
    start_slot, slots_per_unit, max_slots : int
        The slot of the round the fight starts in, slots per reported time unit, and the
        slots the fight may last (``timing.Timing``).
    options : int64[N_OPTIONS]
        Rule switches as integers (``OPT_*``); ``ap_factor`` the AP armour factor,
        ``knock_unit`` metres per knockback unit.
    roll_table : int8[N]
        Equally likely outcomes of attacker roll minus defender roll (``dice.roll_table``);
        ``task_table`` the acting roll alone (``dice.task_table``, unopposed tasks).
    nd6_offsets, nd6_table
        Equally-likely-outcome tables for up to 5 d6 (``dice.nd6_tables``).
    loc_by_roll, loc_num, loc_den : int64
        Hit location of each 3d6 total, and each location's damage multiplier num / den.
    winner : int8[n_trials]; end_slot : int32[n_trials]
        Written: the winning side (or DRAW / UNRESOLVED) and the time unit the fight ended.
    out_slot, death_slot, dealt, taken, attacks, landed : int32[n_trials, C]
        Written: per combatant the time unit it first went out (0: never) and died (0: never),
        damage it dealt and took after defences, attacks made and attacks that hit;
        ``knock`` the knockback units it took. ``location_hits`` int64[C, L]: hits taken by
        location, added to over the chunk.
    log_trial : int
        Offset (within this call) of the trial whose events are logged; -1 for none. Logging
        is a predictable branch per event, free when off.
    events : int64[max_events + 1, N_EV_FIELDS]; n_events : int64[1]
        Written: the logged trial's events (as many as fit; the last row is scratch) and how
        many there were.
    """
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
    dodge_bonus = options[OPT_DODGE_BONUS]
    block_bonus = options[OPT_BLOCK_BONUS]
    perception_dv = options[OPT_PERCEPTION_DV]
    loc_mode = options[OPT_HIT_LOCATIONS]
    knockback = options[OPT_KNOCKBACK] != 0
    autofire_ratio = max(options[OPT_AUTOFIRE_RATIO], 1)
    autofire_one_plus = options[OPT_AUTOFIRE_ONE_PLUS] != 0
    chinks = options[OPT_CHINKS] != 0
    n_task = task_table.shape[0]
    any_obscured = False
    for c in range(n_comb):
        if obscured[c]:
            any_obscured = True
    n_events[0] = 0
    n_rolls = roll_table.shape[0]
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = nd6_offsets[TABLE_DICE]
    nd6_size = nd6_offsets[TABLE_DICE + 1] - nd6_start
    u_nd6_size = np.uint64(nd6_size)

    # per-combatant state of the current trial
    hits = np.empty(n_comb, np.int64)
    stun = np.empty(n_comb, np.int64)
    dead = np.zeros(n_comb, np.bool_)
    gave_up = np.zeros(n_comb, np.bool_)  # presence attack: surrendered
    lose = np.zeros(n_comb, np.bool_)  # F22 stunned, or awed: loses its next action
    is_out = np.zeros(n_comb, np.bool_)
    target = np.empty(n_comb, np.int64)
    penalty = np.empty(n_comb, np.int64)  # penalty to primaries now (wounds, stunned)
    e_ref = np.empty(n_comb, np.int64)  # effective primaries under that penalty
    e_dex = np.empty(n_comb, np.int64)
    e_str = np.empty(n_comb, np.int64)
    px = np.empty(n_comb, np.float64)
    py = np.empty(n_comb, np.float64)
    moved = np.zeros(n_comb, np.float64)  # metres moved in its last action
    dist = np.empty(n_comb * n_comb, np.float64)
    rmod = np.empty(n_comb * n_comb, np.int64)  # range modifier of a's weapon at t
    aim = np.zeros(n_comb, np.int64)
    aim_tgt = np.zeros(n_comb, np.int64)  # whom the aim is on
    in_cover = np.zeros(n_comb, np.bool_)  # still behind its cover and in its posture
    prone = np.zeros(n_comb, np.bool_)
    next_mod = np.zeros(n_comb, np.int64)  # to its next attack (sweep: -2 / +2; presence)
    dodge = np.zeros(n_comb, np.int64)  # defence bonus against every attack until it acts
    block = np.zeros(n_comb, np.int64)  # against melee attacks until it acts
    diving = np.zeros(n_comb, np.bool_)
    dv_pen = np.zeros(n_comb, np.int64)  # DEX penalty until its next action (move by/thru)
    held_by = np.empty(n_comb, np.int64)
    hold = np.zeros(n_comb, np.int64)
    disarmed = np.zeros(n_comb, np.bool_)
    ammo = np.empty(n_comb, np.int64)
    reloading = np.zeros(n_comb, np.int64)
    recovering = np.zeros(n_comb, np.bool_)
    damaged = np.zeros(n_comb, np.bool_)  # took damage this time unit
    waiting = np.empty(n_comb, np.int64)  # WAIT_* or -1
    holstered = np.zeros(n_comb, np.bool_)
    obs_pen = np.zeros(n_comb, np.int64)  # obscured: -2 / -4 to attack and defence this phase
    acted_t = np.zeros(n_comb, np.int64)  # slot (1-based, since the start) of its last turn
    aborted_t = np.zeros(n_comb, np.int64)  # slot whose turn it gave up to defend
    stable = np.zeros(n_comb, np.bool_)  # stabilised by first aid: no more bleeding (F25)
    c_knock = np.empty(n_comb, np.int64)
    # the combatants an attack damaged (one, or everyone in an area) and what each lost
    v_c = np.empty(n_comb, np.int64)
    v_hits = np.empty(n_comb, np.int64)
    v_stun = np.empty(n_comb, np.int64)
    v_through = np.empty(n_comb, np.int64)
    # per-trial counters, written out at the end of the trial
    c_out = np.empty(n_comb, np.int64)
    c_death = np.empty(n_comb, np.int64)
    c_dealt = np.empty(n_comb, np.int64)
    c_taken = np.empty(n_comb, np.int64)
    c_attacks = np.empty(n_comb, np.int64)
    c_landed = np.empty(n_comb, np.int64)
    standing = np.empty(n_sides, np.int64)
    order = np.empty(n_comb, np.int64)
    tiebreak = np.empty(n_comb, np.float64)
    init_key = np.empty(n_comb, np.float64)
    stack = np.empty(tx.MAX_STACK, np.float64)
    queue = np.empty(4, np.int64)  # actors of this turn: an interrupting waiter goes first
    qforced = np.zeros(4, np.bool_)  # a waiter's interrupt: attack the one it waited for
    for c in range(n_comb):
        order[c] = base_order[c]

    for j in range(n_trials):
        log = j == log_trial
        ne = 0
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        for s in range(n_sides):
            standing[s] = 0
        n_waiting = 0
        for c in range(n_comb):
            hits[c] = hits_max[c]
            stun[c] = stun_max[c]
            dead[c] = False
            gave_up[c] = False
            lose[c] = False
            is_out[c] = False
            target[c] = -1
            standing[side[c]] += 1
            penalty[c] = 0
            e_ref[c] = ref[c]
            e_dex[c] = dex[c]
            e_str[c] = strength[c]
            px[c] = pos_x0[c]
            py[c] = pos_y0[c]
            moved[c] = 0.0
            aim[c] = 0
            aim_tgt[c] = -1
            in_cover[c] = True
            prone[c] = False
            next_mod[c] = 0
            dodge[c] = 0
            block[c] = 0
            diving[c] = False
            dv_pen[c] = 0
            held_by[c] = -1
            hold[c] = HOLD_NONE
            disarmed[c] = unarmed0[c] != 0  # the fists: every attack a punch (F14)
            ammo[c] = w_shots[c]
            reloading[c] = 0
            recovering[c] = False
            damaged[c] = False
            waiting[c] = -1
            holstered[c] = holstered0[c] != 0
            obs_pen[c] = 0
            acted_t[c] = 0
            aborted_t[c] = 0
            stable[c] = False
            c_knock[c] = 0
            c_out[c] = 0
            c_death[c] = 0
            c_dealt[c] = 0
            c_taken[c] = 0
            c_attacks[c] = 0
            c_landed[c] = 0
        geometry(px, py, w_range, dist, rmod)
        sides_left = 0
        for s in range(n_sides):
            if standing[s] > 0:
                sides_left += 1
        if has_ties:  # F9 switch1: ties broken once per fight by a die roll
            for c in range(n_comb):
                s0, s1, s2, s3, tiebreak[c] = xoshiro(s0, s1, s2, s3)
                order[c] = base_order[c]
            for i in range(1, n_comb):  # insertion sort on (REF desc, die roll desc)
                c = order[i]
                k = i - 1
                while k >= 0 and (
                    ref[order[k]] < ref[c]
                    or (ref[order[k]] == ref[c] and tiebreak[order[k]] < tiebreak[c])
                ):
                    order[k + 1] = order[k]
                    k -= 1
                order[k + 1] = c

        result = UNRESOLVED
        finish = (max_slots - 1) // slots_per_unit + 1
        slot = start_slot - 1  # slot within the round (no modulo in the loop: slow)
        rounds_done = 0
        now = 1  # reported time unit, 1-based, and the slot within it
        sub = -1
        for t_abs in range(1, max_slots + 1):
            slot += 1
            if slot == slots_per_round:
                slot = 0
            sub += 1
            if sub == slots_per_unit:
                sub = 0
                now += 1
                for c in range(n_comb):
                    damaged[c] = False
            opening = now == 1
            if any_obscured and sub == 0:
                # F11 obscured: a Perception roll each phase (INT + Perception + the task die
                # against the GM's DV): success -2, failure -4, to attack and defence
                for c in range(n_comb):
                    if obscured[c] and not is_out[c]:
                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                        troll = np.int64(task_table[np.int64(u * n_task)])
                        obs_pen[c] = 2 if int_[c] + perception[c] + troll >= perception_dv else 4
                        if log:
                            row = log_event(events, ne, now, EVENT_PERCEPTION, c, -1)
                            events[row, EV_ROLL] = troll
                            events[row, EV_RAW] = obs_pen[c]
                            ne += 1
            if switch2 and sub == 0:
                # F9 switch2: every phase (speed chart: segment) each rolls the action die +
                # current REF; ties broken by another die (the fraction below)
                for c in range(n_comb):
                    s0, s1, s2, s3, init_key[c] = initiative_key(
                        s0, s1, s2, s3, e_ref[c], init_dice, nd6_table, nd6_offsets[3]
                    )
                sort_by_key(order, init_key)
            for k in range(n_comb):
                if sides_left <= 1:
                    break
                a0 = order[k]
                if is_out[a0] or acts[a0 * slots_per_round + slot] == 0:
                    continue
                if aborted_t[a0] == t_abs:
                    continue  # this turn went into the defence it aborted to (F32)
                acted_t[a0] = t_abs
                # the defence of a dodge, block or move ends when its maker acts again (F32)
                dodge[a0] = 0
                block[a0] = 0
                diving[a0] = False
                dv_pen[a0] = 0
                prone[a0] = False  # a swept combatant stands up (a free action; -2 stays)
                if surprised[a0] and opening:  # F11: no action in the opening phase/segment
                    if log:
                        row = log_event(events, ne, now, EVENT_SURPRISED, a0, -1)
                        ne += 1
                    continue
                if lose[a0]:  # F22: the stunned combatant's lost action; the -5 ends with it
                    lose[a0] = False
                    pen = wound_penalty(
                        hits[a0], hits_max[a0], impairment and scale[a0] == 0, dying_penalty
                    )
                    penalty[a0] = pen
                    e_ref[a0] = effective(ref[a0], pen)
                    e_dex[a0] = effective(dex[a0], pen)
                    e_str[a0] = effective(strength[a0], pen)
                    if log:
                        row = log_event(events, ne, now, EVENT_LOST_ACTION, a0, -1)
                        ne += 1
                    continue

                # ---- choose the action: held -> escape; else the tactics ------------------
                n_queue = 1
                queue[0] = a0
                qforced[0] = False
                q = 0
                while q < n_queue:
                    a = queue[q]
                    interrupting = qforced[q]
                    q += 1
                    if is_out[a]:
                        continue
                    # target under the targeting rule (kept until it falls, unless dynamic)
                    tgt = target[a]
                    mode = targeting[a]
                    if (
                        tgt < 0
                        or is_out[tgt]
                        or mode == tx.T_WEAKEST
                        or mode == tx.T_NEAREST
                        or mode == tx.T_STRONGEST
                        or mode == tx.T_FOCUS
                    ) and not interrupting:
                        tgt, s0, s1, s2, s3 = choose_target(
                            a, side, is_out, target, mode, hits, stun, dist, s0, s1, s2, s3
                        )
                        target[a] = tgt
                    if tgt < 0:
                        continue
                    pair = a * n_comb + tgt
                    d_at = dist[pair]

                    action = tx.A_ATTACK
                    param = 0
                    fire = np.int64(1)
                    if interrupting:
                        action = tx.A_ATTACK
                    elif held_by[a] >= 0:
                        action = tx.A_ESCAPE
                    elif hold[tgt] == HOLD_CHOKE and held_by[tgt] == a:
                        action = tx.A_CHOKE  # keeps the choke on: 2D6 killing a phase (F33)
                    elif tac_default[a]:
                        # default tactic: close to range when out of range, else attack
                        if (not disarmed[a] and d_at > w_range[a]) or (
                            disarmed[a] and d_at > MELEE_REACH
                        ):
                            action = tx.A_RUN
                    else:
                        action, param, fire = choose_rule(
                            a, tgt, d_at, now, rule_start, rule_count, rules, code, consts, stack,
                            side, is_out, hits, stun, hits_max, stun_max, aim, ammo, prone,
                            held_by, lose, dist, dodge, block, w_range, w_melee, disarmed,
                        )  # fmt: skip

                    # ---- wait: hold the action until a condition (F: Wait) ---------------
                    if action == tx.A_WAIT:
                        ne = start_waiting(a, param, waiting, log, events, ne, now)
                        n_waiting += 1
                        continue
                    if waiting[a] >= 0:  # acting again ends a wait that never triggered
                        waiting[a] = -1
                        n_waiting -= 1
                    # an enemy waiting "until an enemy attacks / moves" interrupts this action
                    if n_waiting > 0 and not interrupting:
                        requeued, ne = interrupt_by_waiter(
                            a, action, t_abs, slot, slots_per_round, side, is_out, waiting,
                            target, acted_t, aborted_t, acts, queue, qforced, log, events, ne, now,
                        )  # fmt: skip
                        if requeued:
                            n_waiting -= 1
                            n_queue = 2
                            q = 0
                            continue  # the waiter goes first; a0 chooses again after it

                    # ---- actions that do not attack ------------------------------------
                    if not (
                        action == tx.A_RUN or action == tx.A_SPRINT or action == tx.A_MOVE
                        or action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU
                    ):  # fmt: skip
                        moved[a] = 0.0  # "moving target" counts its last action's movement
                    if action == tx.A_NONE:
                        if log:
                            row = log_event(events, ne, now, EVENT_IDLE, a, -1)
                            events[row, EV_ACTION] = action
                            ne += 1
                        continue
                    if action == tx.A_AIM:
                        ne = act_aim(a, tgt, w_melee, disarmed, aim, aim_tgt, log, events, ne, now)
                        continue
                    if action == tx.A_DODGE or action == tx.A_BLOCK or action == tx.A_DIVE:
                        ne = act_defend(a, action, dodge_bonus, block_bonus, dodge, block, diving,
                                        log, events, ne, now)  # fmt: skip
                        continue
                    if action == tx.A_RECOVER:  # +REC Stun at the end of the phase (F23)
                        recovering[a] = True
                        continue
                    firing = not w_melee[a] and not disarmed[a] and (
                        action == tx.A_ATTACK or action == tx.A_BURST or action == tx.A_DRAW_ATTACK
                        or action == tx.A_MOVE or action == tx.A_HAYMAKER
                    )  # fmt: skip
                    if action == tx.A_RELOAD or (firing and ammo[a] == 0 and not interrupting):
                        ne = act_reload(a, w_reload, w_shots, ammo, reloading, log, events, ne, now)
                        continue
                    if action == tx.A_ESCAPE:
                        s0, s1, s2, s3, ne = act_escape(
                            a, held_by, hold, e_str, escape_skill, roll_table, s0, s1, s2, s3,
                            log, events, ne, now,
                        )  # fmt: skip
                        continue
                    if action == tx.A_FIRST_AID:
                        s0, s1, s2, s3, ne = act_first_aid(
                            a, side, hits, dead, stable, dist, px, py, run_m, moved, w_range,
                            rmod, tech, physician, task_table, s0, s1, s2, s3, log, events, ne,
                            now,
                        )  # fmt: skip
                        continue
                    if action == tx.A_PRESENCE:
                        s0, s1, s2, s3, ne, sides_left = act_presence(
                            a, side, is_out, pre, res, presence_margin, presence_effect,
                            next_mod, lose, gave_up, c_out, standing, sides_left, nd6_offsets,
                            nd6_table, s0, s1, s2, s3, log, events, ne, now,
                        )  # fmt: skip
                        continue

                    # ---- movement (F: Move, Run, Sprint, Move By, Move Thru) ------------
                    if is_movement(action):
                        if held_by[a] >= 0:
                            continue
                        ne = act_move(
                            a, tgt, action, param, side, is_out, px, py, dist, rmod, run_m,
                            sprint_m, w_range, w_melee, disarmed, tac_default, moved, aim,
                            in_cover, log, events, ne, now,
                        )  # fmt: skip
                        d_at = dist[pair]
                        # waiting enemies with "until in range" get their shot now
                        if n_waiting > 0:
                            n_queue, fired, ne = interrupt_in_range(
                                a, n_queue, t_abs, slot, slots_per_round, side, is_out, waiting,
                                target, acted_t, aborted_t, acts, dist, w_range, queue, qforced,
                                log, events, ne, now,
                            )  # fmt: skip
                            n_waiting -= fired
                        if not (action == tx.A_MOVE or action == tx.A_MOVE_BY
                                or action == tx.A_MOVE_THRU):  # fmt: skip
                            continue  # run and sprint: the whole action

                    # ---- an attack: form, attack value, defence, damage ----------------
                    if held_by[a] >= 0:
                        continue  # held: cannot attack (F33)
                    fast_draw = False
                    if holstered[a] and not disarmed[a] and (
                        action == tx.A_ATTACK or action == tx.A_DRAW_ATTACK
                        or action == tx.A_HAYMAKER or action == tx.A_ENTANGLE
                        or action == tx.A_BURST
                    ):  # fmt: skip
                        holstered[a] = False
                        if action != tx.A_DRAW_ATTACK:  # drawing takes the action
                            if log:
                                row = log_event(events, ne, now, EVENT_DRAW, a, -1)
                                ne += 1
                            continue
                        fast_draw = True  # draw & attack: one action at -3
                    form = F_WEAPON
                    if action == tx.A_KICK:  # a kick needs no weapon: disarmed too
                        form = F_KICK
                    elif (
                        disarmed[a]
                        or action == tx.A_PUNCH
                        or action == tx.A_SWEEP
                        or (action == tx.A_DISARM or action == tx.A_CHOKE)
                    ):
                        form = F_PUNCH
                    elif (
                        action == tx.A_HAYMAKER
                        or action == tx.A_MOVE_BY
                        or (action == tx.A_MOVE_THRU)
                    ) and not w_melee[a]:
                        form = F_PUNCH
                    if form == F_WEAPON:
                        melee = w_melee[a] != 0
                        reach_ok = d_at <= w_range[a] if melee else True
                        av = e_ref[a] + att_skill[a] + w_acc[a]
                        if e_str[a] < w_min_str[a]:
                            av -= w_min_str[a] - e_str[a]  # F12: -1 per STR point short
                        n_dice = damage_dice(w_dc[a], e_str[a], w_min_str[a], melee)
                        if w_kills[a] > 0:  # F29: a Kill-rated attack on a small target
                            n_dice = 13 + w_kills[a]
                        dmg_type = w_dmg[a]
                        armour = armour_value(
                            a_pd[tgt], a_ekd[tgt], w_energy[a], w_ap[a], ap_factor
                        )
                        if w_blade[a] and a_half_blades[tgt]:
                            armour //= 2
                    else:  # F14 unarmed: punch DC = STR (Stun); kick +1 DC at -1
                        melee = True
                        reach_ok = d_at <= MELEE_REACH
                        av = e_ref[a] + h2h_skill[a]
                        n_dice = e_str[a]
                        if form == F_KICK:
                            av -= 1
                            n_dice += 1
                        dmg_type = STUN
                        armour = a_pd[tgt]
                    if not reach_ok:
                        if log:
                            row = log_event(events, ne, now, EVENT_OUT_OF_REACH, a, tgt)
                            events[row, EV_ACTION] = action
                            ne += 1
                        continue
                    n_victims = 0
                    att_row = -1  # the attack's event row, once reserved
                    if action == tx.A_CHOKE and hold[tgt] == HOLD_CHOKE and held_by[tgt] == a:
                        # the choke held: 2D6 killing (armour does not cover the throat)
                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                        through = np.int64(nd6_table[nd6_offsets[2] + np.int64(u * 36.0)])
                        hits_lost = through
                        stun_lost = min(through, max(stun[tgt], 0))
                        hit = np.int64(1)
                        roll = np.int64(0)
                        raw = through
                        dv_base = 0
                        loc = -1
                        c_attacks[a] += 1
                        c_landed[a] += 1
                    else:
                        # modifiers: range, target's cover and posture, attacker's, aiming
                        if melee:
                            av += tgt_mod_m[tgt] + att_mod_m[a]
                            if in_cover[tgt]:
                                av += cover_m[tgt]
                            dv_base = e_dex[tgt] + def_melee[tgt] + dodge[tgt] + block[tgt]
                        else:
                            av += rmod[pair] + tgt_mod_r[tgt] + att_mod_r[a]
                            if aim_tgt[a] == tgt:
                                av += aim[a]
                            if in_cover[tgt]:
                                av += cover_r[tgt]
                            dv_base = e_dex[tgt] + def_ranged[tgt] + dodge[tgt]
                            if prone[tgt]:
                                av -= 2  # knocked prone by a sweep (F11: target prone)
                            if moved[tgt] >= 10.0:  # moving target: -1 per 10 m it moved
                                av -= np.int64(moved[tgt] // 10.0)
                        if (
                            abort_kind[tgt] != ABORT_NONE
                            and not (abort_kind[tgt] == ABORT_DIVE and w_area[a] == 0.0)
                            and acts[tgt * slots_per_round + slot] != 0
                            and acted_t[tgt] != t_abs
                            and aborted_t[tgt] != t_abs
                            and held_by[tgt] < 0
                        ):
                            # F32 abort: the target spends its coming turn on the defence now
                            aborted_t[tgt] = t_abs
                            kind = abort_kind[tgt]
                            bonus = dodge_bonus
                            if kind == ABORT_DODGE:  # replaces any dodge still running
                                dv_base += dodge_bonus - dodge[tgt]
                                dodge[tgt] = dodge_bonus
                            elif kind == ABORT_BLOCK:
                                if melee:
                                    dv_base += block_bonus - block[tgt]
                                block[tgt] = block_bonus
                                bonus = block_bonus
                            else:
                                diving[tgt] = True
                                bonus = 0
                            if log:
                                row = log_event(events, ne, now, EVENT_DEFEND, tgt, a)
                                events[row, EV_ACTION] = (
                                    tx.A_DODGE if kind == ABORT_DODGE
                                    else tx.A_BLOCK if kind == ABORT_BLOCK else tx.A_DIVE
                                )  # fmt: skip
                                events[row, EV_RAW] = bonus
                                ne += 1
                        dv_base -= dv_pen[tgt] + obs_pen[tgt]
                        av -= obs_pen[a]
                        if recovering[tgt]:
                            dv_base -= 5  # recovering: -5 DEX that phase (F23)
                        if surprised[tgt] and opening:
                            av += 5  # F11: attacking a surprised target
                        av += next_mod[a]
                        next_mod[a] = 0
                        if loc_mode == LOC_CALLED and called_loc[a] >= 0:
                            av += called_mod[a]  # F27 called shot
                        if action == tx.A_HAYMAKER:
                            av -= 3  # +3 dice, -3 to hit
                            n_dice += 3
                        elif fast_draw:
                            av -= 3
                        elif action == tx.A_MOVE_BY:  # half STR +1 die a 10 m, -2 REF/DEX
                            av -= 2
                            dv_pen[a] = 2
                            n_dice = e_str[a] // 2 + np.int64(moved[a] // 10.0)
                            dmg_type = STUN
                        elif action == tx.A_MOVE_THRU:  # STR +1 die a 5 m, -1 REF a 10 m
                            av -= np.int64(moved[a] // 10.0)
                            dv_pen[a] = 3
                            n_dice = e_str[a] + np.int64(moved[a] // 5.0)
                            dmg_type = STUN
                        if not w_melee[a] and form == F_WEAPON:
                            aim[a] = 0  # the shot spends the aim
                            if ammo[a] > 0:
                                ammo[a] -= 1
                        if log:  # the attack's line before what it causes (blast, dives,
                            # knockback, the contest for a weapon); filled in once resolved
                            att_row = log_event(events, ne, now, EVENT_ATTACK, a, tgt)
                            ne += 1
                        if form == F_WEAPON and w_area[a] > 0.0:
                            # F17 area effects: every combatant in the area (friends too)
                            # defends against one attack total
                            c_attacks[a] += 1
                            shots = np.int64(1)
                            n_hits = np.int64(1)
                            loc = -1
                            margin = np.int64(0)
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            roll = np.int64(task_table[np.int64(u * n_task)])
                            cx = px[tgt]
                            cy = py[tgt]
                            radius = w_area[a]
                            if w_explosive[a]:
                                # against a point: the DV by range (F4); a miss scatters
                                # min(miss, range / 2) metres in a 1d6 direction
                                if d_at <= 4.0:
                                    dv_base = 4
                                elif d_at <= 10.0:
                                    dv_base = 8
                                elif d_at <= 50.0:
                                    dv_base = 12
                                elif d_at <= w_range[a]:
                                    dv_base = 16
                                else:
                                    dv_base = 16 + 2 * np.int64((d_at - w_range[a]) // 100.0)
                                av = (
                                    e_ref[a] + att_skill[a] + w_acc[a] + aim[a] + att_mod_r[a]
                                    - obs_pen[a]
                                )  # fmt: skip
                                miss = dv_base - (av + roll)
                                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                if miss > 0:
                                    off = min(float(miss), d_at / 2.0)
                                    angle = np.int64(u * 6.0) * (np.pi / 3.0)
                                    cx += off * np.cos(angle)
                                    cy += off * np.sin(angle)
                            # one damage roll for the blast or the spread
                            dice_left = n_dice
                            raw = np.int64(0)
                            while dice_left >= TABLE_DICE:
                                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                raw += nd6_table[nd6_start + np.int64(u * nd6_size)]
                                dice_left -= TABLE_DICE
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            lo = nd6_offsets[dice_left]
                            raw += nd6_table[lo + np.int64(u * (nd6_offsets[dice_left + 1] - lo))]
                            hit = np.int64(0)
                            hits_lost = np.int64(0)
                            stun_lost = np.int64(0)
                            through = np.int64(0)
                            for c in range(n_comb):
                                if is_out[c] and dead[c]:
                                    continue
                                ddx = px[c] - cx
                                ddy = py[c] - cy
                                dc_m = np.sqrt(ddx * ddx + ddy * ddy)
                                if dc_m > radius:
                                    continue
                                dmg = raw
                                if w_explosive[a]:
                                    dmg = max(raw - 2 * np.int64(dc_m), 0)  # 2 less a metre
                                    caught = True
                                    if (
                                        abort_kind[c] == ABORT_DIVE
                                        and not diving[c]
                                        and acts[c * slots_per_round + slot] != 0
                                        and acted_t[c] != t_abs
                                        and aborted_t[c] != t_abs
                                        and held_by[c] < 0
                                        and not is_out[c]
                                    ):  # F32: a bystander aborts its coming turn to dive
                                        diving[c] = True
                                        aborted_t[c] = t_abs
                                        if log:
                                            row = log_event(events, ne, now, EVENT_DEFEND, c, a)
                                            events[row, EV_ACTION] = tx.A_DIVE
                                            ne += 1
                                    if diving[c]:  # dive for cover: DV 8, +1 a metre past 1
                                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                        out_m = np.int64(np.ceil(radius - dc_m))
                                        dive_dv = 8 + max(out_m - 1, 0)
                                        caught = (
                                            e_dex[c] + escape_skill[c]
                                            + np.int64(task_table[np.int64(u * n_task)]) < dive_dv
                                        )  # fmt: skip
                                else:  # each defends against the one attack total
                                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                    droll = np.int64(def_table[np.int64(u * def_table.shape[0])])
                                    dv_c = (
                                        e_dex[c] + def_ranged[c] + dodge[c] - dv_pen[c]
                                        - obs_pen[c] + droll
                                    )  # fmt: skip
                                    caught = av + roll >= dv_c
                                if not caught:
                                    continue
                                arm = armour_value(
                                    a_pd[c], a_ekd[c], w_energy[a], w_ap[a], ap_factor
                                )
                                if scale[c] == SCALE_KILLS:  # F29: only DC 14+ does Kills
                                    kills_in = w_kills[a] if w_kills[a] > 0 else max(n_dice - 13, 0)
                                    lost_c = max(kills_in - a_kills[c], 0)
                                    stun_c = np.int64(0)
                                    thr_c = lost_c
                                elif scale[c] == SCALE_OBJECT:
                                    lost_c = max(dmg - arm, 0)
                                    stun_c = np.int64(0)
                                    thr_c = lost_c
                                else:
                                    thr_c = penetration(dmg_type, dmg, arm, sd[c])
                                    lost_c, stun_c = split_through(
                                        dmg_type == KILLING, thr_c, stun[c]
                                    )
                                v_c[n_victims] = c
                                v_hits[n_victims] = lost_c
                                v_stun[n_victims] = stun_c
                                v_through[n_victims] = thr_c
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
                            c_landed[a] += hit
                        else:
                            # F15 autofire: the shots the rule chooses (0: all), up to ROF and the
                            # magazine, -1 per full 10; F16 burst: 3 shots, no penalty
                            shots = np.int64(1)
                            if form == F_WEAPON and action == tx.A_BURST:
                                shots = 3
                            elif form == F_WEAPON and w_autofire[a] and action == tx.A_ATTACK:
                                shots = w_rof[a] if fire <= 0 else min(fire, w_rof[a])
                            if form == F_WEAPON and ammo[a] >= 0:
                                shots = min(shots, ammo[a] + 1)  # one round was taken above
                                ammo[a] -= shots - 1
                            if action == tx.A_ATTACK:
                                av -= shots // 10  # F15: -1 per full 10 shots fired
                            c_attacks[a] += 1
                            # No branch on the dice from here to the damage (a miss is damage x 0).
                            # One generator step for the roll and the first group of damage
                            # dice (split_bits).
                            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                            ri, dice_bits = split_bits(x, np.uint64(n_rolls))
                            roll = np.int64(roll_table[ri])
                            margin = roll - (dv_base - av)
                            hit = np.int64(margin >= 0)
                            n_hits = hit
                            if hit and shots > 1:
                                if action == tx.A_BURST:  # ceil(1d6 / 2) bullets
                                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                    n_hits = min((np.int64(u * 6.0) + 2) // 2, shots)
                                elif autofire_one_plus:  # 1 + floor(margin / ratio)
                                    n_hits = min(shots, 1 + margin // autofire_ratio)
                                else:  # max(1, ceil(margin / ratio))
                                    n_hits = min(shots, max(1, -(-margin // autofire_ratio)))
                            is_special = (
                                action == tx.A_SWEEP or action == tx.A_DISARM
                                or action == tx.A_CHOKE or action == tx.A_ENTANGLE
                            )  # fmt: skip
                            loc = -1
                            att_kills = np.int64(0)
                            raw = np.int64(0)
                            hits_lost = np.int64(0)
                            stun_lost = np.int64(0)
                            through = np.int64(0)
                            for h in range(max(n_hits, 1)):  # every hit rolls and meets armour
                                # F19: n d6 as groups of five from the 5d6 table, then the rest;
                                # the first hit's first group from the roll's generator step
                                if h == 0:
                                    bits = dice_bits
                                else:
                                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                                    bits = high_bits(x)
                                dice_left = n_dice
                                raw_h = np.int64(0)
                                while dice_left >= TABLE_DICE:
                                    group = index32(bits, u_nd6_size)
                                    raw_h += nd6_table[nd6_start + np.int64(group)]
                                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                                    bits = high_bits(x)
                                    dice_left -= TABLE_DICE
                                lo = nd6_offsets[dice_left]
                                size = nd6_offsets[dice_left + 1] - lo
                                raw_h += nd6_table[lo + np.int64(index32(bits, np.uint64(size)))]
                                if is_special:
                                    raw_h = 0  # these manoeuvres do no damage themselves
                                raw += raw_h
                                armour_h = armour
                                if chinks and margin - h * autofire_ratio >= 10:
                                    armour_h = 0  # F30 chinks: beat the DV by 10 or more
                                if loc_mode != LOC_NONE and scale[tgt] != SCALE_KILLS:
                                    if loc_mode == LOC_CALLED and called_loc[a] >= 0:
                                        loc = called_loc[a]
                                    else:  # F27: 3d6 on the location table
                                        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                        loc = loc_by_roll[
                                            nd6_table[nd6_offsets[3] + np.int64(u * 216.0)]
                                        ]
                                    if (a_cover[tgt] >> loc) & 1 == 0:
                                        armour_h = 0  # the armour does not cover it
                                    if hit:
                                        location_hits[tgt, loc] += 1
                                if scale[tgt] == SCALE_KILLS:
                                    # F29: Kills against Kills; a small attacker's DC above 13
                                    # becomes Kills (superdamage); armour in Kills
                                    att_kills = (
                                        w_kills[a]
                                        if (form == F_WEAPON and w_kills[a] > 0)
                                        else (n_dice - 13 if n_dice >= 14 else 0)
                                    )
                                    through_h = max(att_kills - a_kills[tgt], 0) * hit
                                    hits_lost += through_h
                                    through += through_h
                                elif scale[tgt] == SCALE_OBJECT:  # SDP: Stun and killing alike
                                    through_h = max(raw_h - armour_h, 0) * hit
                                    if loc >= 0:
                                        through_h = through_h * loc_num[loc] // loc_den[loc]
                                    hits_lost += through_h
                                    through += through_h
                                else:
                                    through_h = penetration(dmg_type, raw_h, armour_h, sd[tgt])
                                    if loc >= 0:  # F27: the multiplier after armour, rounded down
                                        through_h = through_h * loc_num[loc] // loc_den[loc]
                                    through_h *= hit
                                    # collateral Stun never below 0: of what earlier hits left
                                    lost_h, stun_h = split_through(
                                        dmg_type == KILLING, through_h, stun[tgt] - stun_lost
                                    )
                                    hits_lost += lost_h
                                    stun_lost += stun_h
                                    through += through_h
                            if knockback and hit:  # F28: (DC + 1d6) - BODY (Kills vs Kills)
                                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                kb_att = att_kills if scale[tgt] == SCALE_KILLS else n_dice
                                units = max(kb_att + 1 + np.int64(u * 6.0) - knock_body[tgt], 0)
                                if units > 0:
                                    c_knock[tgt] += units
                                    px[tgt], py[tgt], _ = move_away(
                                        px[tgt], py[tgt], px[a], py[a], units * knock_unit
                                    )
                                    geometry(px, py, w_range, dist, rmod)
                                    if log:
                                        row = log_event(events, ne, now, EVENT_KNOCKBACK, tgt, a)
                                        events[row, EV_RAW] = units
                                        events[row, EV_X] = np.int64(px[tgt] * 100.0)
                                        events[row, EV_Y] = np.int64(py[tgt] * 100.0)
                                        ne += 1
                            c_landed[a] += hit
                            if hit and is_special:
                                if action == tx.A_SWEEP:  # prone: -2 to its next, +2 to ours
                                    prone[tgt] = True
                                    next_mod[tgt] -= 2
                                    next_mod[a] += 2
                                elif action == tx.A_CHOKE or action == tx.A_ENTANGLE:
                                    held_by[tgt] = a
                                    hold[tgt] = (
                                        HOLD_CHOKE if action == tx.A_CHOKE else HOLD_ENTANGLE
                                    )
                                else:  # disarm: STR + Hand to Hand against the same
                                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                                    r2 = np.int64(roll_table[np.int64(u * n_rolls)])
                                    if r2 >= (e_str[tgt] + h2h_skill[tgt]) - (
                                        e_str[a] + h2h_skill[a]
                                    ):
                                        disarmed[tgt] = True
                                    if log:
                                        row = log_event(events, ne, now, EVENT_DISARM, a, tgt)
                                        events[row, EV_ACTION] = tx.A_DISARM
                                        events[row, EV_ROLL] = r2
                                        events[row, EV_FLAGS] = FLAG_HIT * disarmed[tgt]
                                        ne += 1
                            # the mover takes a share of a move by (1/3) or move thru (1/2)
                            if hit and (action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU):
                                share = raw // 3 if action == tx.A_MOVE_BY else raw // 2
                                own = max(share - max(a_pd[a], sd[a]), 0)
                                stun[a] -= own
                                hits[a] -= own // 5
                                c_taken[a] += own
                                damaged[a] = True
                    if n_victims == 0:  # a single target
                        n_victims = 1
                        v_c[0] = tgt
                        v_hits[0] = hits_lost
                        v_stun[0] = stun_lost
                        v_through[0] = through
                    for vi in range(n_victims):
                        c = v_c[vi]
                        c_dealt[a] += v_through[vi]
                        c_taken[c] += v_through[vi]
                        if v_through[vi] > 0:
                            damaged[c] = True
                            aim[c] = 0  # aiming is lost when the aimer is hit
                        hits[c] -= v_hits[vi]
                        stun[c] -= v_stun[vi]
                        if hits[c] <= -2 * body[c] and not dead[c]:
                            dead[c] = True
                            c_death[c] = now
                        if stunned_rule and 2 * v_stun[vi] > stun_max[c]:
                            lose[c] = True
                    # refresh effective values whose penalty changed; then who went out
                    went_out = False
                    for vi in range(n_victims + 1):
                        c = v_c[vi] if vi < n_victims else a
                        pen = wound_penalty(
                            hits[c], hits_max[c], impairment and scale[c] == 0, dying_penalty
                        )
                        if lose[c]:
                            pen += 5
                        if pen != penalty[c]:
                            penalty[c] = pen
                            e_ref[c] = effective(ref[c], pen)
                            e_dex[c] = effective(dex[c], pen)
                            e_str[c] = effective(strength[c], pen)
                        if not is_out[c] and (
                            gave_up[c] or out_of_fight(hits[c], stun[c], dead[c], dying_can_act)
                        ):
                            is_out[c] = True
                            went_out = went_out or c == tgt
                            if c_out[c] == 0:
                                c_out[c] = now
                            standing[side[c]] -= 1
                            if standing[side[c]] == 0:
                                sides_left -= 1
                            if held_by[c] >= 0 or hold[c] != HOLD_NONE:
                                held_by[c] = -1
                                hold[c] = HOLD_NONE
                    if log:
                        row = att_row
                        if row < 0:
                            row = log_event(events, ne, now, EVENT_ATTACK, a, tgt)
                            ne += 1
                        events[row, EV_ROLL] = roll
                        events[row, EV_AV] = av
                        events[row, EV_DV] = dv_base
                        events[row, EV_RAW] = raw
                        events[row, EV_THROUGH] = through
                        events[row, EV_HITS] = hits[tgt]
                        events[row, EV_STUN] = stun[tgt]
                        events[row, EV_ACTION] = action
                        events[row, EV_X] = np.int64(px[a] * 100.0)
                        events[row, EV_Y] = np.int64(py[a] * 100.0)
                        events[row, EV_LOCATION] = loc
                        events[row, EV_SHOTS] = n_hits * 1000 + shots
                        events[row, EV_FLAGS] = (
                            hit * FLAG_HIT
                            + FLAG_STUNNED * (hit and lose[tgt])
                            + FLAG_OUT * went_out
                            + FLAG_DEAD * dead[tgt]
                            + FLAG_DYING * (hits[tgt] <= 0)
                            + FLAG_UNOPPOSED * (w_area[a] > 0.0 and w_explosive[a] != 0)
                        )
                    if sides_left <= 1:
                        break
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
            # end of the slot: recovering, the free Recovery after segment 12 (speed chart),
            # waking (F23) at the end of each phase, and bleeding (F25) at the end of a round
            end_of_round = slot == slots_per_round - 1
            if end_of_round:
                rounds_done += 1
            minute = end_of_round and rounds_done % 5 == 0
            end_of_unit = sub == slots_per_unit - 1
            free_recovery = slot == recovery_slot
            down = free_recovery
            for c in range(n_comb):
                if not dead[c] and (stun[c] <= 0 or hits[c] <= 0 or recovering[c]):
                    down = True
            if not down:
                continue
            for c in range(n_comb):
                if dead[c]:
                    continue
                changed = False
                woke = False
                if recovering[c] and end_of_unit:
                    recovering[c] = False
                    gain = 0 if damaged[c] else min(rec[c], max(stun_max[c] - stun[c], 0))
                    stun[c] += gain
                    changed = gain > 0
                    if log:
                        row = log_event(events, ne, now, EVENT_RECOVER, c, -1)
                        events[row, EV_ACTION] = tx.A_RECOVER
                        events[row, EV_RAW] = gain
                        events[row, EV_STUN] = stun[c]
                        ne += 1
                if hits[c] > 0 and stun[c] < stun_max[c]:
                    phase_end = acts[c * slots_per_round + slot] if wake_own_phase else end_of_unit
                    if free_recovery or wakes(stun[c], phase_end, end_of_round, minute):
                        stun[c] = min(stun[c] + rec[c], stun_max[c])
                        changed = True
                        woke = True
                if end_of_round and hits[c] <= 0 and not stable[c]:
                    hits[c], died = bleed(hits[c], body[c])
                    changed = True
                    if died:
                        dead[c] = True
                        c_death[c] = now
                    if log:
                        row = log_event(events, ne, now, EVENT_BLEED, c, -1)
                        events[row, EV_HITS] = hits[c]
                        events[row, EV_STUN] = stun[c]
                        events[row, EV_FLAGS] = FLAG_DEAD * dead[c]
                        ne += 1
                if not changed:
                    continue
                pen = wound_penalty(
                    hits[c], hits_max[c], impairment and scale[c] == 0, dying_penalty
                )
                if lose[c]:
                    pen += 5
                penalty[c] = pen
                e_ref[c] = effective(ref[c], pen)
                e_dex[c] = effective(dex[c], pen)
                e_str[c] = effective(strength[c], pen)
                now_out = gave_up[c] or out_of_fight(hits[c], stun[c], dead[c], dying_can_act)
                if woke and log:
                    row = log_event(events, ne, now, EVENT_WAKE, c, -1)
                    events[row, EV_HITS] = hits[c]
                    events[row, EV_STUN] = stun[c]
                    events[row, EV_FLAGS] = FLAG_OUT * now_out
                    ne += 1
                if now_out != is_out[c]:
                    is_out[c] = now_out
                    s = side[c]
                    if now_out:
                        if c_out[c] == 0:
                            c_out[c] = now
                        standing[s] -= 1
                        if standing[s] == 0:
                            sides_left -= 1
                    else:
                        if standing[s] == 0:
                            sides_left += 1
                        standing[s] += 1
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
        if log:
            log_event(events, ne, finish, EVENT_END, result, -1)
            n_events[0] = ne + 1
        winner[j] = result
        end_slot[j] = finish
        for c in range(n_comb):
            out_slot[j, c] = c_out[c]
            death_slot[j, c] = c_death[c]
            dealt[j, c] = c_dealt[c]
            taken[j, c] = c_taken[c]
            attacks[j, c] = c_attacks[c]
            landed[j, c] = c_landed[c]
            knock[j, c] = c_knock[c]
