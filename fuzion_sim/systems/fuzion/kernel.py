"""The Fuzion fight kernel: one jitted loop over a chunk of trials.

It sees only arrays and numbers (the compiled :class:`~.compile.Plan`, argument by argument)
and writes into preallocated output arrays. ``run_chunk``, plain Python, stacks the plan's
per-combatant arrays into two tables, allocates the tables a trial works in (their rows are
named in ``state.py``) and hands everything to ``trials``, the jitted loop itself. Called from
Python, the loop compiles once; called from a jitted ``run_chunk``, numba would emit its machine
code a second time inside the caller's (PERFORMANCE-NOTES lesson 40). Both are made by
``_kernel`` for a set of rooms (:class:`Features`: vehicles, missiles, the scene, hazards,
motion, dogfights ...): the flags are the closure's constants, so numba leaves out the code of
a room a fight cannot reach (:func:`kernel_for` picks the compiled set). The loop's rooms are
inlined helpers: ``actions.py`` (tactics, waiting, every action that does not attack, movement)
and ``strike.py`` (the attack, in the named groups of arrays defined there); rule mechanics live
in ``rules.py``; the tactics bytecode is described in ``tactics.py``.

Semantics (RULINGS F8-F18, F21-F26, F32-F33): time runs in slots (a phase, a segment of the
speed chart, or a pass of an extra-actions phase; ``timing.py``). Within a slot combatants act
one at a time in initiative order and damage lands at once, so a combatant put out earlier in
a slot does not act later in it. At each action a combatant takes the first rule of its tactics
whose condition holds. The fight ends the moment at most one side has anyone standing; the
kill time is that time unit's 1-based index. Waking is checked at the end of each phase (under
the speed chart: of each of the sleeper's phases), bleeding at the end of each round.

How it stays fast (each measured on the benchmark duel):

- ``trials`` is compiled without numba's reference counting (``_nrt=False``; it allocates
  nothing): an array handed to an inlined helper, or read from a group, would otherwise cost an
  atomic increment and decrement (PERFORMANCE-NOTES lessons 3 and 8);
- the generator state lives in four scalars (``engine.rng.xoshiro``);
- a combatant's effective characteristics are cached and recomputed only when its penalty
  changes; ranges only when someone moves; the default tactic skips the bytecode interpreter;
- nothing branches on the dice between the attack roll and the damage: a miss is damage x 0.

Output codes: ``winner`` holds the winning side's index, ``DRAW`` (-1) when every side went out
at once, or ``UNRESOLVED`` (-2) when ``max_slots`` ran out.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..._jit import LEAN, jit
from ...engine.outcomes import record_trial
from ...engine.rng import trial_seed, xoshiro
from . import state as rows
from . import tactics as tx
from .actions import (
    Sense,
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
    move_step,
    note_move,
    start_waiting,
)
from .arsenal import Arsenal, rearm
from .codes import (
    ARC_ALL,
    DO_ADV_MIN,
    DO_BREAK_OFF_ROUNDS,
    DO_BREAK_OFF_TIME,
    DO_DOGFIGHT_CADENCE,
    DO_DOGFIGHT_TIE,
    DO_INTERCEPT,
    DO_ON,
    DO_TAIL_BONUS,
    DO_TAIL_MIN,
    EFF_WEAPON,
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
    EVENT_ATTACK,
    EVENT_DRAW,
    EVENT_END,
    EVENT_IDLE,
    EVENT_LOST_ACTION,
    EVENT_OUT_OF_REACH,
    EVENT_PERCEPTION,
    EVENT_RECOVER,
    EVENT_SURPRISED,
    F_WEAPON,
    FLAG_DEAD,
    FLAG_DYING,
    FLAG_HIT,
    FLAG_OUT,
    FLAG_STUNNED,
    FLAG_UNMANNED,
    FLAG_UNOPPOSED,
    HOLD_CHOKE,
    HOLD_NONE,
    IO_ANY,
    IO_BLOCK,
    IO_IMPACT_ARMOUR,
    IO_IMPACT_DAMAGE,
    IO_KB_MODE,
    MELEE_REACH,
    MO_ANY,
    MT_PHASE,
    MT_ROUND_ACTION,
    OPT_ANY_HAZARD,
    OPT_ANY_MISSILE,
    OPT_ANY_OBSCURING,
    OPT_ANY_VEHICLE,
    OPT_AREA_KILL_FALLOFF,
    OPT_ASPHYXIA_COLLATERAL,
    OPT_AUTOFIRE_HITS,
    OPT_AUTOFIRE_RATIO,
    OPT_BLOCK_BONUS,
    OPT_BREATH_RESET,
    OPT_CHINKS,
    OPT_CHINKS_VEHICLES,
    OPT_CLUSTER_ROLL,
    OPT_COUNTERMEASURE_USE,
    OPT_CREW_HIT,
    OPT_CREW_PERSONAL_ARMOUR,
    OPT_CRITICAL_ACCUMULATION,
    OPT_DODGE_BONUS,
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_ELECTRICITY_DAMAGE,
    OPT_FRONT_ARC,
    OPT_HAS_TIES,
    OPT_HAZARD_TIMING,
    OPT_HIT_LOCATIONS,
    OPT_IMPAIRMENT,
    OPT_INIT_DICE,
    OPT_INTEGRITY,
    OPT_KNOCKBACK,
    OPT_LOCATION_DAMAGE_COUNTS_TOTAL,
    OPT_MISSILE_ASPECT,
    OPT_MISSILE_LAUNCH,
    OPT_MISSILE_TIMING,
    OPT_MOVING_TARGET,
    OPT_PERCEPTION_DV,
    OPT_POISON_PERIOD,
    OPT_POWERED_SPLIT,
    OPT_POWERED_STUN,
    OPT_RECOVERY_SLOT,
    OPT_SEMI_AUTO_ROF,
    OPT_STAGED,
    OPT_STAGED_TRIGGER,
    OPT_STUNNED,
    OPT_SWITCH2,
    OPT_UNMANNED,
    OPT_UNMANNED_SHIFT,
    OPT_VEHICLE_LOCATIONS,
    OPT_WAKE_OWN_PHASE,
    UNMANNED_BY_RANGE,
    UNRESOLVED,
    V_ROWS,
    VS_NO_MOVE,
)
from .features.dogfights.room import Dogfight, DState, dogfight_phase, dogfight_reset
from .features.hazards.room import Hazards, HState, flee, hazard_phase, hazard_reset
from .features.missiles.room import ENGAGEMENTS_PER_ACTION, Missiles, MState, evade_turn, launch
from .features.motion.build import MF_ALT, MF_HEIGHT, MI_LOCO, MI_MOVE, MI_SKILL, MI_SPEED
from .features.motion.room import Motion, bump, control_turn, drive
from .features.motion.room import reset_trial as motion_reset
from .features.scene.room import Impacts, bump_on_foot, jump, reset_trial
from .features.scene.terrain import has_terrain
from .features.vehicles.room import Mecha, Vehicles, VState, carry_crew, crew_fate
from .gate import gate, gated
from .kernel_parts import (
    choose_target,
    comes_back,
    log_event,
    log_wake,
    sort_by_key,
    wake_and_bleed,
)
from .rules import (
    effective,
    fight_result,
    initiative_key,
    out_of_fight,
    wound_penalty,
)
from .strike import (
    NO_DV,
    Armour,
    Dice,
    Health,
    Mods,
    Rules,
    Sheet,
    Stance,
    Tally,
    Victims,
    Weapons,
    Where,
    attack_form,
    attack_rooms,
    manoeuvre,
    shots_fired,
    take_wounds,
)


def _kernel(vehicles, suits, mecha_range, missiles, scene, ground, hazards, motion, jumps, drives,
            dogfights, arsenal, gate_on, area, extra_attacks):  # fmt: skip
    """The general kernel's ``run_chunk`` with the code of the rooms in :class:`Features`
    switched on here compiled in (numba takes a closure's variables for constants and prunes
    the branches on them before it types anything, so a room left out costs neither compile
    time nor a branch in the trial loop)."""
    attack_odds, blast, strike = attack_rooms(vehicles or suits, vehicles, scene, mecha_range)
    move_on = bump if vehicles else bump_on_foot  # on foot: no vehicle's path compiled in
    variant = "".join("1" if f else "0" for f in (
        vehicles, suits, mecha_range, missiles, scene, ground, hazards, motion, jumps, drives,
        dogfights, arsenal, gate_on, area, extra_attacks))  # fmt: skip

    def run_chunk(key, first, n_trials, plan, outs, vehicle_outs, missile_outs, impact_outs,
                  hazard_outs, motion_outs, dogfight_outs, logs):
        """Run trials ``first .. first + n_trials - 1`` of the chunk with key ``key``.

        Parameters
        ----------
        key : uint64[4]
            The chunk's stream key (``engine.rng.chunk_key``).
        first, n_trials : int
            Offset of the first trial within the chunk, and how many trials to run.
        plan : compile.Plan
            The fight's arrays (their fields say what each holds).
        outs : the shared arrays (``engine.outcomes.Shared``), ``knock``, ``location_hits``
            Written: ``winner`` int8[n_trials] and ``end_slot`` int32[n_trials], the winning side
            (or DRAW / UNRESOLVED) and the time unit the fight ended; ``out_slot``,
            ``death_slot``, ``dealt``, ``taken``, ``attacks``, ``landed`` int32[n_trials, C], per
            combatant the time unit it first went out (0: never) and died (0: never), damage it
            dealt and took after defences, attacks made and attacks that hit; ``knock`` the
            knockback units it took. ``location_hits`` int64[C, L]: hits taken by location,
            added to over the chunk.
        vehicle_outs : immobilised, uncontrolled, crits, crit_any, crit_time : int32[n_trials, C];
            vehicle_location_hits, vehicle_location_damage : int64[C, V]
            Written when a vehicle fights (else they may be (1, 1) and are not touched): 1 when a
            vehicle was immobilised / made uncontrollable, the critical locations it lost, and its
            hits by vehicle location (``tables.vehicle_location_names``) added over the chunk.
        missile_outs : missiles_hit, engagements, evaded : int32[n_trials, C]
            Written when a missile weapon fights (else (1, 1), not touched): the missiles that hit
            each combatant, the missile engagements against it, and those it evaded untouched.
        impact_outs : falls, collisions, impact_taken, broke_through : int32[n_trials, C]
            Written in a fight with an obstacle or a drop (else (1, 1), not touched): the falls
            each took, its knockbacks into an obstacle, the damage they did through its defences,
            and the obstacles it broke through.
        hazard_outs : hazard_damage, hazard_phases, hazard_out, breath_out, breathless
            int32[n_trials, C], written when a hazard or a poison is in the fight (else (1, 1),
            not touched): damage taken from hazards, phases ended in a zone, 1 when a hazard put
            it out, 1 when its breath ran out, and the time unit it did (0: never).
        motion_outs : lost_control, spins, rams, crashes : int32[n_trials, C]
            Written when a vehicle's tactics drive it (else (1, 1), not touched): 1 when it lost
            control, its spins, its rams and its crashes (``motion.build.MOTION_COUNTERS``).
        dogfight_outs : dogfight_rolls, dogfight_won, dogfight_tail, broke_off : int32[n, C]
            Written when a tactic names ``dogfight`` (else (1, 1), not touched): the dogfight rolls
            each made, won (the Advantage or tailing), won by tailing, and 1 when it broke off.
        logs : log_trial, events, n_events
            ``log_trial`` (int): the offset (within this call) of the trial whose events are
            logged, -1 for none (a predictable branch per event, free when off). ``events``
            int64[max_events + 1, N_EV_FIELDS] and ``n_events`` int64[1], written: its events
            (as many as fit; the last row is scratch) and how many there were.
        """
        p = plan
        n_comb = p.side.shape[0]
        # the plan's per-combatant arrays as two tables, the chunk's own copy (state.py)
        ci = _stack(p, rows.PLAN_INT, np.int64)
        cf = _stack(p, rows.PLAN_FLOAT, np.float64)
        # a trial's state, one row a quantity (state.py), and the missile engagements in flight
        si = np.zeros((len(rows.STATE_INT), n_comb), np.int64)
        sb = np.zeros((len(rows.STATE_BOOL), n_comb), np.bool_)
        sf = np.zeros((len(rows.STATE_FLOAT), n_comb), np.float64)
        n_eng = 1
        if p.options[OPT_ANY_MISSILE] != 0:
            n_eng = ENGAGEMENTS_PER_ACTION * int(np.sum(p.acts)) + n_comb
        se = np.zeros((len(rows.ENGAGEMENT), n_eng), np.int64)
        si[[rows.HIT_CREW, rows.ARM_CUR, rows.DF_REQ]] = -1
        se[rows.E_TGT] = -1
        si[rows.ROOM] = (p.vclass > 0) | (p.suit_max > 0)
        sb[rows.HIDDEN] = p.carrier >= 0
        si[rows.MO_SPEED] = p.mo_i[:, MI_SPEED]
        sf[rows.MO_ALT] = p.mo_f[:, MF_ALT]
        # the rest of the state: by pair, by side, by vehicle row, by weapon, by obstacle
        moved = np.zeros((n_comb, 3), np.float64)  # its last action's move: metres, dx, dy
        dist = np.empty(n_comb * n_comb, np.float64)
        rmod = np.empty(n_comb * n_comb, np.int64)  # range modifier of a's weapon at t
        dist0 = np.empty(n_comb * n_comb, np.float64)  # the same at the start, copied each trial
        rmod0 = np.empty(n_comb * n_comb, np.int64)
        geometry(p.pos_x0, p.pos_y0, p.w_range, dist0, rmod0)
        standing = np.empty(p.n_sides, np.int64)
        stack = np.empty(tx.MAX_STACK, np.float64)
        queue = np.empty(4, np.int64)  # actors of this turn: an interrupting waiter goes first
        qforced = np.zeros(4, np.bool_)  # a waiter's interrupt: attack the one it waited for
        loc_dmg = np.zeros(n_comb * V_ROWS, np.int64)  # a vehicle's damage at each row
        arm_ammo = np.zeros(max(p.arms_i.shape[0], 1), np.int64)
        # the mecha rules: armour lost to staged penetration by area
        arm_lost = np.zeros((n_comb, vehicle_outs[5].shape[1] + 1), np.int64)
        ob_left = np.zeros(p.ob_sdp.shape[0], np.int64)  # each obstacle's structure left
        k_from = np.zeros(1, np.float64)  # what the last knockback's wall or fall put through
        # the environment (hazard.HState): in a zone, breath left (full when no zone), END left
        env = np.zeros((n_comb, 3), np.int64)
        env[:, 1] = p.endurance[0 : 3 * n_comb : 3]
        env[:, 2] = p.endurance[1 : 3 * n_comb : 3]
        # dogfights (dogfight.DState): partner (-1: none), margin, tailing; the break-off
        dfs = np.zeros((n_comb, 4), np.int64)
        dfs[:, 0] = -1
        dfs[:, 3] = -1
        # the tailing bonus rides in the pair's modifier (features/dogfights/room.py)
        called_mod = p.called_mod.copy() if p.df_opts[DO_ON] != 0 else p.called_mod
        mi_t = np.ascontiguousarray(p.mo_i.T)  # vehicles in motion: a row a column of mo_i, mo_f
        mf_t = np.ascontiguousarray(p.mo_f.T)
        trials(
            key, first, n_trials, ci, cf, p.n_sides, called_mod,
            (p.rules, p.code, p.consts, p.presence_margin, p.presence_effect),
            (p.acts, p.slots_per_round, p.start_slot, p.slots_per_unit, p.max_slots),
            (p.options, p.ap_factor, p.knock_unit, p.roll_table, p.task_table, p.def_table,
             p.nd6_offsets, p.nd6_table, p.loc_by_roll, p.loc_num, p.loc_den),
            (p.v_rows, p.v_nrows, p.v_num, p.v_den, p.v_crew, p.v_thr, p.v_eff, p.v_locid,
             p.v_call, p.arms_i, p.arms_f),
            (p.ob_rect, p.ob_sdp, p.ob_kills, p.drop_geo, p.fall_dc, p.fall_kills, p.im_bands,
             p.im_opts, p.terrain),
            (p.hz_kind, p.hz_dc, p.hz_shape, p.hz_geom, p.hz_flags, p.endurance, p.hz_tick),
            (p.mo_dv, p.mo_opts, p.df_opts),
            outs, vehicle_outs, missile_outs, impact_outs, hazard_outs, motion_outs, dogfight_outs,
            logs,
            (si, sb, sf, se),
            (moved, dist, rmod, dist0, rmod0, standing, stack, queue, qforced, loc_dmg, arm_ammo,
             arm_lost, ob_left, k_from, env, dfs, mi_t, mf_t),
        )  # fmt: skip


    @jit(**LEAN, variant=variant)
    def trials(
        key, first, n_trials, ci, cf, n_sides, called_mod, tactics_in, time_in, dice_in,
        vehicles_in, scene_in, hazards_in, motion_in, outs, vehicle_outs, missile_outs,
        impact_outs, hazard_outs, mo_out, dogfight_outs, logs, state, work,
    ):  # fmt: skip
        """The trials of :func:`run_chunk`, compiled without numba's reference counting: the
        arrays it works in (the tables of a trial's state, the tactics stack) come from
        ``run_chunk``, so it allocates nothing, and copying an array into an inlined helper costs
        no atomic increment (twice the speed: PERFORMANCE-NOTES). ``ci``, ``cf`` (the plan's) and
        ``si``, ``sb``, ``sf``, ``se`` (the state's) are tables whose rows ``state.py`` names;
        the groups after them are :func:`run_chunk`'s, in the order it passes them."""
        rules, code, consts, presence_margin, presence_effect = tactics_in
        acts, slots_per_round, start_slot, slots_per_unit, max_slots = time_in
        (options, ap_factor, knock_unit, roll_table, task_table, def_table, nd6_offsets,
         nd6_table, loc_by_roll, loc_num, loc_den) = dice_in
        (v_rows, v_nrows, v_num, v_den, v_crew, v_thr, v_eff, v_locid, v_call, arms_i,
         arms_f) = vehicles_in
        (ob_rect, ob_sdp, ob_kills, drop_geo, fall_dc, fall_kills, im_bands, im_opts,
         terrain) = scene_in
        hz_kind, hz_dc, hz_shape, hz_geom, hz_flags, endurance, hz_tick = hazards_in
        mo_dv, mo_opts, df_opts = motion_in
        (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
         location_hits) = outs
        (immobilised, uncontrolled, crits, crit_any, crit_time, vehicle_location_hits,
         vehicle_location_damage) = vehicle_outs
        missiles_hit, engagements, evaded = missile_outs
        falls, collisions, impact_taken, broke_through = impact_outs
        hazard_damage, hazard_phases, hazard_out, breath_out, breathless = hazard_outs
        dogfight_rolls, dogfight_won, dogfight_tail, broke_off = dogfight_outs
        log_trial, events, n_events = logs
        si, sb, sf, se = state
        (moved, dist, rmod, dist0, rmod0, standing, stack, queue, qforced, loc_dmg, arm_ammo,
         arm_lost, ob_left, k_from, env, dfs, mi_t, mf_t) = work
        # the rows of the tables (state.py)
        side = ci[rows.SIDE]
        ref = ci[rows.REF]
        dex = ci[rows.DEX]
        strength = ci[rows.STRENGTH]
        body = ci[rows.BODY]
        hits_max = ci[rows.HITS_MAX]
        stun_max = ci[rows.STUN_MAX]
        sd = ci[rows.SD]
        rec = ci[rows.REC]
        att_skill = ci[rows.ATT_SKILL]
        h2h_skill = ci[rows.H2H_SKILL]
        escape_skill = ci[rows.ESCAPE_SKILL]
        def_ranged = ci[rows.DEF_RANGED]
        def_melee = ci[rows.DEF_MELEE]
        pre = ci[rows.PRE]
        res = ci[rows.RES]
        base_order = ci[rows.BASE_ORDER]
        targeting = ci[rows.TARGETING]
        surprised = ci[rows.SURPRISED]
        int_ = ci[rows.INT_]
        perception = ci[rows.PERCEPTION]
        obscured = ci[rows.OBSCURED]
        holstered0 = ci[rows.HOLSTERED0]
        unarmed0 = ci[rows.UNARMED0]
        abort_kind = ci[rows.ABORT_KIND]
        tech = ci[rows.TECH]
        physician = ci[rows.PHYSICIAN]
        scale = ci[rows.SCALE]
        knock_body = ci[rows.KNOCK_BODY]
        called_loc = ci[rows.CALLED_LOC]
        w_melee = ci[rows.W_MELEE]
        w_dmg = ci[rows.W_DMG]
        w_dc = ci[rows.W_DC]
        w_acc = ci[rows.W_ACC]
        w_min_str = ci[rows.W_MIN_STR]
        w_ap = ci[rows.W_AP]
        w_energy = ci[rows.W_ENERGY]
        w_shots = ci[rows.W_SHOTS]
        w_reload = ci[rows.W_RELOAD]
        w_kills = ci[rows.W_KILLS]
        w_blade = ci[rows.W_BLADE]
        w_autofire = ci[rows.W_AUTOFIRE]
        w_rof = ci[rows.W_ROF]
        w_explosive = ci[rows.W_EXPLOSIVE]
        a_pd = ci[rows.A_PD]
        a_ekd = ci[rows.A_EKD]
        a_kills = ci[rows.A_KILLS]
        a_half_blades = ci[rows.A_HALF_BLADES]
        a_cover = ci[rows.A_COVER]
        tgt_mod_r = ci[rows.TGT_MOD_R]
        tgt_mod_m = ci[rows.TGT_MOD_M]
        cover_r = ci[rows.COVER_R]
        cover_m = ci[rows.COVER_M]
        att_mod_r = ci[rows.ATT_MOD_R]
        att_mod_m = ci[rows.ATT_MOD_M]
        tac_default = ci[rows.TAC_DEFAULT]
        rule_start = ci[rows.RULE_START]
        rule_count = ci[rows.RULE_COUNT]
        carrier = ci[rows.CARRIER]
        pilot_of = ci[rows.PILOT_OF]
        vclass = ci[rows.VCLASS]
        kill_unit = ci[rows.KILL_UNIT]
        w_missile = ci[rows.W_MISSILE]
        w_mdv = ci[rows.W_MDV]
        m_evade = ci[rows.M_EVADE]
        m_evade_ref = ci[rows.M_EVADE_REF]
        m_cm = ci[rows.M_CM]
        w_arc = ci[rows.W_ARC]
        w_mounted = ci[rows.W_MOUNTED]
        arm_start = ci[rows.ARM_START]
        rs_target = ci[rows.RS_TARGET]
        suit_max = ci[rows.SUIT_MAX]
        im_row = ci[rows.IM_ROW]
        hz_who = ci[rows.HZ_WHO]
        hz_arm = ci[rows.HZ_ARM]
        ps_dc0 = ci[rows.PS_DC0]
        ps_pool0 = ci[rows.PS_POOL0]
        df_fly = ci[rows.DF_FLY]
        df_skill = ci[rows.DF_SKILL]
        df_intel = ci[rows.DF_INTEL]
        run_m = cf[rows.RUN_M]
        sprint_m = cf[rows.SPRINT_M]
        pos_x0 = cf[rows.POS_X0]
        pos_y0 = cf[rows.POS_Y0]
        w_range = cf[rows.W_RANGE]
        w_area = cf[rows.W_AREA]
        heading0 = cf[rows.HEADING0]
        rscale = cf[rows.RSCALE]
        hits = si[rows.HITS]
        stun = si[rows.STUN]
        target = si[rows.TARGET]
        penalty = si[rows.PENALTY]
        e_ref = si[rows.E_REF]
        e_dex = si[rows.E_DEX]
        e_str = si[rows.E_STR]
        aim = si[rows.AIM]
        aim_tgt = si[rows.AIM_TGT]
        next_mod = si[rows.NEXT_MOD]
        dodge = si[rows.DODGE]
        block = si[rows.BLOCK]
        dv_pen = si[rows.DV_PEN]
        held_by = si[rows.HELD_BY]
        hold = si[rows.HOLD]
        ammo = si[rows.AMMO]
        reloading = si[rows.RELOADING]
        waiting = si[rows.WAITING]
        obs_pen = si[rows.OBS_PEN]
        acted_t = si[rows.ACTED_T]
        aborted_t = si[rows.ABORTED_T]
        v_c = si[rows.V_C]
        v_hits = si[rows.V_HITS]
        v_stun = si[rows.V_STUN]
        v_through = si[rows.V_THROUGH]
        c_knock = si[rows.C_KNOCK]
        c_out = si[rows.C_OUT]
        c_death = si[rows.C_DEATH]
        c_dealt = si[rows.C_DEALT]
        c_taken = si[rows.C_TAKEN]
        c_attacks = si[rows.C_ATTACKS]
        c_landed = si[rows.C_LANDED]
        order = si[rows.ORDER]
        vdest = si[rows.VDEST]
        vstate = si[rows.VSTATE]
        c_immob = si[rows.C_IMMOB]
        c_unctl = si[rows.C_UNCTL]
        c_crits = si[rows.C_CRITS]
        c_crit_t = si[rows.C_CRIT_T]
        hit_crew = si[rows.HIT_CREW]
        cm_left = si[rows.CM_LEFT]
        incoming = si[rows.INCOMING]
        c_mhit = si[rows.C_MHIT]
        c_meng = si[rows.C_MENG]
        c_mevaded = si[rows.C_MEVADED]
        arm_cur = si[rows.ARM_CUR]
        suit = si[rows.SUIT]
        room = si[rows.ROOM]
        fallen = si[rows.FALLEN]
        c_falls = si[rows.C_FALLS]
        c_colls = si[rows.C_COLLS]
        c_imp = si[rows.C_IMP]
        c_broke = si[rows.C_BROKE]
        in_smoke = si[rows.IN_SMOKE]
        was_in = si[rows.WAS_IN]
        ps_dc = si[rows.PS_DC]
        ps_pool = si[rows.PS_POOL]
        ps_clock = si[rows.PS_CLOCK]
        c_hz_dmg = si[rows.C_HZ_DMG]
        c_hz_ph = si[rows.C_HZ_PH]
        c_hz_out = si[rows.C_HZ_OUT]
        c_breath = si[rows.C_BREATH]
        df_req = si[rows.DF_REQ]
        df_since = si[rows.DF_SINCE]
        df_need = si[rows.DF_NEED]
        df_wish = si[rows.DF_WISH]
        c_df_rolls = si[rows.C_DF_ROLLS]
        c_df_won = si[rows.C_DF_WON]
        c_df_tail = si[rows.C_DF_TAIL]
        c_df_broke = si[rows.C_DF_BROKE]
        dead = sb[rows.DEAD]
        gave_up = sb[rows.GAVE_UP]
        lose = sb[rows.LOSE]
        is_out = sb[rows.IS_OUT]
        in_cover = sb[rows.IN_COVER]
        prone = sb[rows.PRONE]
        diving = sb[rows.DIVING]
        disarmed = sb[rows.DISARMED]
        recovering = sb[rows.RECOVERING]
        damaged = sb[rows.DAMAGED]
        holstered = sb[rows.HOLSTERED]
        stable = sb[rows.STABLE]
        hidden = sb[rows.HIDDEN]
        px = sf[rows.PX]
        py = sf[rows.PY]
        tiebreak = sf[rows.TIEBREAK]
        init_key = sf[rows.INIT_KEY]
        hd = sf[rows.HD]
        e_from = se[rows.E_FROM]
        e_tgt = se[rows.E_TGT]
        e_left = se[rows.E_LEFT]
        e_rounds = se[rows.E_ROUNDS]
        e_round = se[rows.E_ROUND]
        e_bonus = se[rows.E_BONUS]
        e_asp = se[rows.E_ASP]
        e_last = se[rows.E_LAST]
        e_hit = se[rows.E_HIT]
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
        autofire_one_plus = options[OPT_AUTOFIRE_HITS] != 0
        chinks = options[OPT_CHINKS] != 0
        any_vehicle = options[OPT_ANY_VEHICLE] != 0
        semi_rof = options[OPT_SEMI_AUTO_ROF] != 0  # a weapon without autofire: ROF attacks
        n_arms = arms_i.shape[0]
        weapon_rooms = n_arms > 0  # someone fires several weapons, or one with an arc (arsenal.py)
        for c in range(n_comb):
            if w_arc[c] != ARC_ALL:
                weapon_rooms = True
        for k in range(v_eff.shape[0]):
            if v_eff[k] == EFF_WEAPON:  # a vehicle's weapons may be lost (VA-11)
                weapon_rooms = True
        n_task = task_table.shape[0]
        # a hazard zone obscures (features/hazards/room.py)
        any_obscured = options[OPT_ANY_OBSCURING] != 0
        for c in range(n_comb):
            if obscured[c]:
                any_obscured = True
        n_events[0] = 0
        k0, k1, k2, k3 = key[0], key[1], key[2], key[3]

        # the arrays in the groups the attack's rooms take (strike.py)
        wp = Weapons(
            w_melee, w_dmg, w_dc, w_acc, w_min_str, w_range, w_ap, w_energy, w_kills, w_blade,
            w_autofire, w_rof, w_area, w_explosive, w_missile, w_mdv,
        )
        ar = Armour(a_pd, a_ekd, a_kills, a_half_blades, a_cover)
        sh = Sheet(
            side, ref, dex, strength, body, hits_max, stun_max, sd, att_skill, h2h_skill,
            escape_skill,
            def_ranged, def_melee, scale, knock_body, abort_kind, surprised,
        )
        md = Mods(tgt_mod_r, tgt_mod_m, cover_r, cover_m, att_mod_r, att_mod_m, called_loc,
                  called_mod)  # fmt: skip
        hl = Health(hits, stun, dead, gave_up, lose, is_out, penalty, e_ref, e_dex, e_str, damaged)
        # falls and obstacles, behind one flag (features/scene/room.py)
        any_impact = im_opts[IO_ANY] != 0
        im = Impacts(
            im_row,
            ob_rect,
            ob_sdp,
            ob_kills,
            ob_left,
            drop_geo,
            fall_dc,
            fall_kills,
            im_bands,
            im_opts[IO_IMPACT_DAMAGE] != 0,
            im_opts[IO_IMPACT_ARMOUR] != 0,
            im_opts[IO_KB_MODE],
            fallen,
            c_falls,
            c_colls,
            c_imp,
            c_broke,
            any_impact,
            k_from,
            im_opts[IO_BLOCK] != 0,
            terrain,
        )
        any_block = any_impact and im.block  # M-10: no move on foot or fire through walls
        any_ground = any_block or has_terrain(terrain)  # M-10, VA-51: what a move on foot meets
        wh = Where(px, py, moved, dist, rmod, im, dfs, carrier)
        st = Stance(
            aim, aim_tgt, in_cover, prone, next_mod, dodge, block, diving, dv_pen, held_by, hold,
            disarmed, ammo, recovering, obs_pen, acted_t, aborted_t,
        )
        tl = Tally(c_dealt, c_taken, c_death, c_out, c_knock, location_hits)
        dt = Dice(
            roll_table, task_table, def_table, nd6_offsets, nd6_table, loc_by_roll, loc_num,
            loc_den,
        )
        vic = Victims(v_c, v_hits, v_stun, v_through)
        rl = Rules(
            loc_mode, chinks, autofire_one_plus, autofire_ratio, knockback, knock_unit, ap_factor,
            dodge_bonus, block_bonus, stunned_rule, impairment, dying_penalty, dying_can_act,
            slots_per_round, options[OPT_MOVING_TARGET] != 0,
        )
        vh = Vehicles(
            vclass, carrier, pilot_of, kill_unit, v_rows, v_nrows, v_num, v_den, v_crew, v_thr,
            v_eff,
            v_locid, v_call, options[OPT_VEHICLE_LOCATIONS] != 0,
            np.float64(options[OPT_FRONT_ARC]),
            options[OPT_CRITICAL_ACCUMULATION] != 0,
            options[OPT_LOCATION_DAMAGE_COUNTS_TOTAL] != 0,
            options[OPT_CREW_PERSONAL_ARMOUR] != 0, options[OPT_CREW_HIT] != 0,
            options[OPT_UNMANNED],
            options[OPT_UNMANNED_SHIFT], options[OPT_AREA_KILL_FALLOFF] != 0,
        )
        arms = Arsenal(arm_start, arm_cur, arm_ammo, arms_i, arms_f)
        vs = VState(hd, loc_dmg, vdest, vstate, c_immob, c_unctl, c_crits, c_crit_t,
                    vehicle_location_hits, vehicle_location_damage, hit_crew)  # fmt: skip
        # vehicles in motion (motion.Motion): MOVE, control state and altitude now, counters
        mo = Motion(
            mi_t[MI_SPEED], mi_t[MI_MOVE], mi_t[MI_LOCO], mi_t[MI_SKILL], mf_t[MF_ALT],
            mf_t[MF_HEIGHT], mo_dv, mo_opts, si[rows.MO_SPEED], si[rows.MO_CTL], sf[rows.MO_ALT],
            si[rows.MO_LOST], si[rows.MO_SPIN], si[rows.MO_RAM], si[rows.MO_CRASH], vs,
        )
        any_missile = options[OPT_ANY_MISSILE] != 0
        per_phase = options[OPT_MISSILE_TIMING] == MT_PHASE
        evade_costs = options[OPT_MISSILE_TIMING] == MT_ROUND_ACTION
        mi = Missiles(
            m_evade, m_evade_ref, m_cm, options[OPT_MISSILE_LAUNCH] != 0,
            options[OPT_MISSILE_TIMING], options[OPT_CLUSTER_ROLL] != 0,
            options[OPT_COUNTERMEASURE_USE] != 0, options[OPT_MISSILE_ASPECT], any_vehicle,
        )
        ms = MState(
            cm_left, e_from, e_tgt, e_left, e_rounds, e_round, e_bonus, e_asp, e_last, e_hit,
            incoming,
            c_mhit, c_meng, c_mevaded, c_landed,
        )
        mc = Mecha(
            options[OPT_CHINKS_VEHICLES] != 0, options[OPT_STAGED],
            options[OPT_STAGED_TRIGGER] != 0,
            options[OPT_INTEGRITY], arm_lost, rscale, rs_target, suit_max, suit,
            options[OPT_POWERED_SPLIT] != 0, options[OPT_POWERED_STUN] != 0, room,
        )
        any_suit = False
        for c in range(n_comb):
            if suit_max[c] > 0:
                any_suit = True
        # --- the environment (features/hazards/room.py): one flag a chunk, three entry points ---
        any_hazard = options[OPT_ANY_HAZARD] != 0
        hz = Hazards(
            hz_kind, hz_dc, hz_shape, hz_geom, hz_flags, hz_who, hz_arm, endurance, ps_dc0,
            ps_pool0, hz_tick, options[OPT_HAZARD_TIMING] != 0,
            options[OPT_ELECTRICITY_DAMAGE] != 0, options[OPT_BREATH_RESET] != 0,
            options[OPT_ASPHYXIA_COLLATERAL] != 0, max(options[OPT_POISON_PERIOD], 1),
        )
        any_motion = mo.opts[MO_ANY] != 0  # a vehicle's tactics drive it (features/motion/room.py)
        # --- dogfights (features/dogfights/room.py): one flag a chunk, four called entry points ---
        any_dogfight = df_opts[DO_ON] != 0
        df = Dogfight(
            any_dogfight, df_fly, df_skill, df_intel, df_opts[DO_DOGFIGHT_CADENCE] != 0,
            df_opts[DO_DOGFIGHT_TIE] != 0, df_opts[DO_INTERCEPT] != 0, df_opts[DO_BREAK_OFF_ROUNDS],
            df_opts[DO_BREAK_OFF_TIME] != 0, df_opts[DO_ADV_MIN], df_opts[DO_TAIL_MIN],
            df_opts[DO_TAIL_BONUS], slots_per_unit,
        )
        ds = DState(dfs, df_req, df_since, df_need, df_wish, c_df_rolls, c_df_won, c_df_tail,
                    c_df_broke)  # fmt: skip
        # the rooms between the tactics' choice and the action: one call, one flag (gate.py)
        gating = weapon_rooms or any_dogfight or any_block
        sense = Sense(incoming, env, mo, dfs)  # what the tactics read: missiles, hazards, motion,
        # dogfights
        hs = HState(env, in_smoke, was_in, ps_dc, ps_pool, ps_clock, c_hz_dmg, c_hz_ph, c_hz_out,
                    c_breath)  # fmt: skip
        for c in range(n_comb):
            order[c] = base_order[c]

        for j in range(n_trials):
            log = j == log_trial
            ne = 0
            s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
            for s in range(n_sides):
                standing[s] = 0
            n_waiting = 0
            if arsenal and n_arms > 0:  # each takes up its first weapon again (arsenal.py)
                rearm(arms, wp, sh, md, mc, st, wh, w_shots, w_reload, w_arc, reloading)
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
                for k in range(3):
                    moved[c, k] = 0.0
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
            if vehicles and any_vehicle:
                for c in range(n_comb):
                    hd[c] = heading0[c]
                    vdest[c] = 0
                    vstate[c] = 0
                    c_immob[c] = 0
                    c_unctl[c] = 0
                    c_crits[c] = 0
                    c_crit_t[c] = 0
                for k in range(n_comb * V_ROWS):
                    loc_dmg[k] = 0
                if options[OPT_STAGED]:
                    for c in range(n_comb):
                        for k in range(arm_lost.shape[1]):
                            arm_lost[c, k] = 0
            if missiles and any_missile:
                for c in range(n_comb):
                    cm_left[c] = m_cm[c]
                    incoming[c] = 0
                    c_mhit[c] = 0
                    c_meng[c] = 0
                    c_mevaded[c] = 0
                for k in range(e_tgt.shape[0]):
                    e_tgt[k] = -1
            if suits and any_suit:
                for c in range(n_comb):
                    suit[c] = suit_max[c]
            if scene and any_impact:
                reset_trial(im)
                k_from[0] = 0.0
            if hazards and any_hazard:
                hazard_reset(hz, hs, px, py)
            if motion and any_motion:
                motion_reset(mo)
            if dogfights and any_dogfight:
                dogfight_reset(df, ds, called_mod)
            for k in range(n_comb * n_comb):  # the start's distances and range bands
                dist[k] = dist0[k]
                rmod[k] = rmod0[k]
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
                        if (obscured[c] or in_smoke[c]) and not is_out[c]:
                            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                            troll = np.int64(task_table[np.int64(u * n_task)])
                            seen = int_[c] + perception[c] + troll >= perception_dv
                            obs_pen[c] = 2 if seen else 4
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
                if dogfights and any_dogfight and sub == 0:  # the dogfight rolls before anyone acts
                    s0, s1, s2, s3, ne, sides_left = dogfight_phase(
                        now, slot < slots_per_unit, rounds_done, df, ds, side, is_out, gave_up,
                        c_out, e_ref, pilot_of, carrier, task_table, called_mod, standing,
                        sides_left, s0, s1, s2, s3, log, events, ne,
                    )  # fmt: skip
                    if sides_left <= 1:
                        result = fight_result(standing)
                        finish = now
                        break
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
                    if missiles and any_missile and incoming[a0] > 0:  # against missiles (F18)
                        stamp = t_abs if per_phase else rounds_done
                        s0, s1, s2, s3, ne, sides_left, rolled = evade_turn(
                            a0, stamp, now, mi, ms, md, wp, ar, sh, hl,
                            wh, st, tl, dt, rl, vh, vs, mc, vic, standing, sides_left, s0, s1, s2,
                            s3,
                            log, events, ne,
                        )  # fmt: skip
                        if sides_left <= 1:
                            break
                        if is_out[a0] or (rolled and evade_costs):
                            continue  # VA-21 per_round_action: the roll took the turn
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
                    pilot = pilot_of[a0]
                    if pilot >= 0:  # a vehicle acts with its pilot's action (VA-18)
                        if is_out[pilot]:
                            continue  # nobody drives: its gunners fight on
                        if motion and any_motion and mo.ctl[a0] != 0:  # out of control
                            s0, s1, s2, s3, ne, sides_left = control_turn(
                                a0, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl, standing,
                                sides_left, s0, s1, s2, s3, log, events, ne, now,
                            )  # fmt: skip
                            if sides_left <= 1:
                                break
                            continue
                        if lose[pilot]:  # its pilot is stunned (F22): the action is lost
                            lose[pilot] = False
                            pen = wound_penalty(hits[pilot], hits_max[pilot], impairment,
                                                dying_penalty)  # fmt: skip
                            penalty[pilot] = pen
                            e_ref[pilot] = effective(ref[pilot], pen)
                            e_dex[pilot] = effective(dex[pilot], pen)
                            e_str[pilot] = effective(strength[pilot], pen)
                            if log:
                                row = log_event(events, ne, now, EVENT_LOST_ACTION, a0, -1)
                                ne += 1
                            continue

                    # ---- choose the action: held -> escape; else the tactics ------------------
                    n_queue = 1
                    queue[0] = a0
                    qforced[0] = False
                    q = 0
                    more = np.int64(0)  # attacks left of a semi-automatic weapon's ROF (F15)
                    more_param = np.int64(0)
                    while q < n_queue:
                        a = queue[q]
                        interrupting = qforced[q]
                        q += 1
                        again = more  # this turn is a further attack of the same action
                        more = 0
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
                                a, side, is_out, target, mode, hits, stun, dist, hidden, s0, s1, s2,
                                s3,
                            )  # fmt: skip
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
                        elif again > 0:  # the same attack again, with the weapon it named
                            param = more_param
                        elif tac_default[a]:
                            # default tactic: close to range when out of range, else attack
                            if (not disarmed[a] and d_at > w_range[a]) or (
                                disarmed[a] and d_at > MELEE_REACH
                            ):
                                action = tx.A_RUN
                        else:
                            action, param, fire = choose_rule(
                                a, tgt, d_at, now, rule_start, rule_count, rules, code, consts,
                                stack,
                                side, is_out, hits, stun, hits_max, stun_max, aim, ammo, prone,
                                held_by, lose, dist, dodge, block, w_range, w_melee, disarmed,
                                w_missile, sense, arms,
                            )  # fmt: skip
                        if gate_on and gated(action, a, tgt, gating, any_dogfight, dfs):
                            # a dogfight's chart, the weapon a rule names and its arc, a wall in
                            # the line of fire (gate.py: the trial loop's one call for them)
                            action, param, ne = gate(
                                a, tgt, action, param, now, weapon_rooms, arms, wp, sh, md, mc, st,
                                wh, w_shots, w_reload, w_arc, w_mounted, reloading, vclass, carrier,
                                vstate, hd, vh.front_arc, df, ds, pilot_of, is_out, log, events, ne,
                            )  # fmt: skip
                            if action < 0:
                                continue

                        # ---- wait: hold the action until a condition (F: Wait) ---------------
                        if action == tx.A_WAIT:
                            ne = start_waiting(a, param, waiting, log, events, ne, now)
                            n_waiting += 1
                            continue
                        if waiting[a] >= 0:  # acting again ends a wait that never triggered
                            waiting[a] = -1
                            n_waiting -= 1
                        # an enemy waiting "until an enemy attacks / moves" interrupts this action
                        if n_waiting > 0 and not interrupting and again == 0:
                            requeued, ne = interrupt_by_waiter(
                                a, action, t_abs, slot, slots_per_round, side, is_out, waiting,
                                target, acted_t, aborted_t, acts, queue, qforced, log, events, ne,
                                now,
                            )  # fmt: skip
                            if requeued:
                                n_waiting -= 1
                                n_queue = 2
                                q = 0
                                continue  # the waiter goes first; a0 chooses again after it

                        # ---- actions that do not attack ------------------------------------
                        moving = is_movement(action)
                        if not moving:
                            note_move(moved, a, 0.0, 0.0, 0.0, 0.0, 0.0)  # "moving target"
                            # counts its last action's movement
                        if action != tx.A_ATTACK:  # an attack, the common case, skips these
                            # features/hazards/room.py
                            if hazards and any_hazard and action == tx.A_FLEE_HAZARD:
                                ne = flee(a, hz, hs, run_m, w_range, wh, moved, aim, in_cover, log,
                                          events, ne, now)  # fmt: skip
                                continue
                            if action == tx.A_NONE:
                                if log:
                                    row = log_event(events, ne, now, EVENT_IDLE, a, -1)
                                    events[row, EV_ACTION] = action
                                    ne += 1
                                continue
                            if action == tx.A_AIM:
                                ne = act_aim(a, tgt, w_melee, disarmed, aim, aim_tgt, log,
                                             events, ne, now)  # fmt: skip
                                continue
                            if action == tx.A_DODGE or action == tx.A_BLOCK or action == tx.A_DIVE:
                                ne = act_defend(a, action, dodge_bonus, block_bonus, dodge, block,
                                                diving, log, events, ne, now)  # fmt: skip
                                continue
                            if action == tx.A_RECOVER:  # +REC Stun at the end of the phase (F23)
                                recovering[a] = True
                                continue
                            if action == tx.A_ESCAPE:
                                s0, s1, s2, s3, ne = act_escape(
                                    a, held_by, hold, e_str, escape_skill, roll_table, s0, s1, s2,
                                    s3,
                                    log, events, ne, now,
                                )  # fmt: skip
                                continue
                            if action == tx.A_FIRST_AID:
                                s0, s1, s2, s3, ne = act_first_aid(
                                    a, side, hits, dead, stable, dist, px, py, run_m, moved,
                                    w_range,
                                    rmod, tech, physician, task_table, s0, s1, s2, s3, log, events,
                                    ne,
                                    now,
                                )  # fmt: skip
                                continue
                            if action == tx.A_PRESENCE:
                                s0, s1, s2, s3, ne, sides_left = act_presence(
                                    a, side, is_out, pre, res, presence_margin, presence_effect,
                                    next_mod, lose, gave_up, c_out, standing, sides_left,
                                    nd6_offsets,
                                    nd6_table, s0, s1, s2, s3, log, events, ne, now,
                                )  # fmt: skip
                                continue
                            if (jumps or drives) and action >= tx.A_JUMP:
                                if drives:  # a vehicle's drive, or a jump (motion.drive)
                                    s0, s1, s2, s3, ne, sides_left = drive(
                                        a, tgt, action, param, mo, ar, sh, hl, wh, wp, vh, st,
                                        tl, dt, rl, standing, sides_left, s0, s1, s2, s3, log,
                                        events, ne, now,
                                    )  # fmt: skip
                                else:  # only a jump: no call site of the vehicles' in the loop
                                    s0, s1, s2, s3, ne, sides_left = jump(
                                        a, param, ar, sh, hl, wh, wp, st, tl, vh.kill_unit,
                                        dt.nd6_offsets, dt.nd6_table, rl, standing, sides_left,
                                        s0, s1, s2, s3, log, events, ne, now,
                                    )  # fmt: skip
                                if sides_left <= 1:
                                    break
                                continue
                        firing = not w_melee[a] and not disarmed[a] and (
                            action == tx.A_ATTACK or action == tx.A_BURST
                            or action == tx.A_DRAW_ATTACK
                            or action == tx.A_MOVE or action == tx.A_HAYMAKER
                            or action == tx.A_LAUNCH
                        )  # fmt: skip
                        if action == tx.A_RELOAD or (firing and ammo[a] == 0 and not interrupting):
                            if w_reload[a] == 0:  # a spent missile launcher: nothing to reload
                                if log:
                                    row = log_event(events, ne, now, EVENT_IDLE, a, -1)
                                    events[row, EV_ACTION] = tx.A_RELOAD
                                    ne += 1
                                continue
                            ne = act_reload(a, w_reload, w_shots, ammo, reloading, log, events, ne,
                                            now)  # fmt: skip
                            continue

                        # ---- movement (F: Move, Run, Sprint, Move By, Move Thru) ------------
                        if moving:
                            if held_by[a] >= 0:
                                continue
                            if vehicles and any_vehicle and vstate[a] & VS_NO_MOVE:
                                continue  # immobile or uncontrolled: no move of its own (VA-10)
                            ox = px[a]
                            oy = py[a]
                            ne = act_move(
                                a, tgt, action, param, side, is_out, px, py, dist, rmod, run_m,
                                sprint_m, w_range, w_melee, disarmed, tac_default, moved, aim,
                                in_cover, log, events, ne, now,
                            )  # fmt: skip
                            if ((ground and any_ground)
                                    or (vehicles and any_vehicle and vclass[a] > 0)) and (
                                moved[a, 0] > 0.0
                            ):
                                if vclass[a] > 0:
                                    hd[a] = np.arctan2(py[a] - oy, px[a] - ox)  # it faces its way
                                # a vehicle's crew go with it, an obstacle in its way a crash; on
                                # foot a wall stops it (M-10), rough ground slows it (VA-51): one
                                # call (``move_on``); with no scene a crew only go with it
                                if scene or (ground and vclass[a] == 0):
                                    s0, s1, s2, s3, ne, sides_left = move_on(
                                        a, ox, oy, move_step(a, action, run_m, sprint_m), action,
                                        tgt, mo, ar, sh, hl, wh, wp, vh, st, tl, dt, rl,
                                        standing, sides_left, s0, s1, s2, s3, log, events, ne, now,
                                    )  # fmt: skip
                                    if sides_left <= 1:
                                        break
                                else:
                                    carry_crew(a, carrier, px, py, moved, w_range, dist, rmod)
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
                            or action == tx.A_BURST or action == tx.A_LAUNCH
                        ):  # fmt: skip
                            holstered[a] = False
                            if action != tx.A_DRAW_ATTACK:  # drawing takes the action
                                if log:
                                    row = log_event(events, ne, now, EVENT_DRAW, a, -1)
                                    ne += 1
                                continue
                            fast_draw = True  # draw & attack: one action at -3
                        form, melee, reach_ok, av, n_dice, dmg_type, armour = attack_form(
                            a, tgt, action, d_at, wp, ar, sh, hl, st, rl,
                        )  # fmt: skip
                        launching = missiles and any_missile and form == F_WEAPON and (
                            w_missile[a] > 0)
                        if missiles and launching and d_at > w_range[a]:
                            reach_ok = False  # a missile locks on within its listed range only
                        if not reach_ok:
                            if log:
                                row = log_event(events, ne, now, EVENT_OUT_OF_REACH, a, tgt)
                                events[row, EV_ACTION] = action
                                ne += 1
                            continue
                        n_victims = 0
                        p_through = np.int64(-1)  # the crew row's damage to the pilot (-1: none)
                        p_hits = np.int64(0)
                        p_stun = np.int64(0)
                        att_row = -1  # the attack's event row, once reserved
                        shots = np.int64(1)
                        n_hits = np.int64(1)
                        loc = -1
                        unopposed = False  # a vehicle nobody drives, targeted by range (VA-04)
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
                            c_attacks[a] += 1
                            c_landed[a] += 1
                        else:
                            av, dv_base, n_dice, dmg_type, ne = attack_odds(
                                a, tgt, action, form, melee, av, n_dice, dmg_type, pair, t_abs,
                                slot,
                                opening, fast_draw, wp, sh, md, hl, wh, st, rl, mc, acts, log,
                                events,
                                ne, now,
                            )  # fmt: skip
                            # a missile: its engagement (features/missiles/room.py)
                            if missiles and launching:
                                c_attacks[a] += 1
                                stamp = t_abs if per_phase else rounds_done
                                s0, s1, s2, s3, ne, sides_left = launch(  # never called (M-77)
                                    a, tgt, av - called_mod[pair], dv_base, stamp, now,
                                    mi, ms, md, wp, ar, sh, hl, wh, st, tl, dt, rl, vh, vs, mc,
                                    vic,
                                    standing, sides_left, s0, s1, s2, s3, log, events, ne,
                                )  # fmt: skip
                                if sides_left <= 1:
                                    break
                                continue
                            if log:  # the attack's line before what it causes (blast, dives,
                                # knockback, the contest for a weapon); filled in once resolved
                                att_row = log_event(events, ne, now, EVENT_ATTACK, a, tgt)
                                ne += 1
                            c_attacks[a] += 1
                            if area and form == F_WEAPON and w_area[a] > 0.0:
                                (s0, s1, s2, s3, ne, n_victims, roll, av, dv_point, raw, hit,
                                 through) = blast(
                                     a, tgt, av, n_dice, dmg_type, t_abs, slot, wp, ar, sh, md, hl,
                                     wh, st, dt, vic, rl, vh, vs, mc, tl, acts, s0, s1, s2, s3, log,
                                     events, ne, now,
                                 )  # fmt: skip
                                if dv_point != NO_DV:  # the explosive's DV (F4), or the
                                    dv_base = dv_point  # target's own in a spread
                                hits_lost = np.int64(0)
                                stun_lost = np.int64(0)
                            else:
                                shots = shots_fired(a, action, form, fire, wp, st)
                                if action == tx.A_ATTACK:
                                    av -= shots // 10  # F15: -1 per full 10 shots fired
                                if log and vehicles and any_vehicle and vclass[tgt] > 0:
                                    unopposed = vh.unmanned == UNMANNED_BY_RANGE and (
                                        pilot_of[tgt] < 0 or is_out[pilot_of[tgt]])
                                (s0, s1, s2, s3, ne, roll, dv_base, raw, hit, n_hits, loc,
                                 hits_lost, stun_lost, through, p_hits, p_stun,
                                 p_through) = strike(
                                     a, tgt, action, form, av, dv_base, n_dice, dmg_type, armour,
                                     shots, wp, ar, sh, md, hl, wh, tl, dt, rl, vh, vs, mc, s0, s1,
                                     s2, s3, log, events, ne, now,
                                 )  # fmt: skip
                                s0, s1, s2, s3, ne = manoeuvre(
                                    a, tgt, action, raw, hit, ar, sh, hl, st, tl, dt, s0, s1, s2,
                                    s3,
                                    log, events, ne, now,
                                )  # fmt: skip
                            c_landed[a] += hit
                        if n_victims == 0:  # a single target
                            n_victims = 1
                            v_c[0] = tgt
                            v_hits[0] = hits_lost
                            v_stun[0] = stun_lost
                            v_through[0] = through
                            if p_through >= 0:  # and the vehicle's pilot, through its crew row
                                n_victims = 2
                                v_c[1] = vs.hit_crew[tgt]
                                v_hits[1] = p_hits
                                v_stun[1] = p_stun
                                v_through[1] = p_through
                        went_out, sides_left = take_wounds(
                            a, tgt, n_victims, sh, hl, st, tl, vic, rl, now, standing, sides_left,
                        )  # fmt: skip
                        if vehicles and any_vehicle:
                            sides_left = crew_fate(side, is_out, gave_up, c_out, standing,
                                                   sides_left,
                                                   vclass, carrier, now)  # fmt: skip
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
                            if scene and any_impact:  # less a wall's or a fall's (own lines)
                                events[row, EV_THROUGH] -= np.int64(k_from[0])
                                k_from[0] = 0.0
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
                                + FLAG_UNOPPOSED * ((w_area[a] > 0.0 and w_explosive[a] != 0)
                                                   or unopposed)
                                + FLAG_UNMANNED * unopposed
                            )
                        if sides_left <= 1:
                            break
                        if extra_attacks and semi_rof and firing and action == tx.A_ATTACK and (
                            not wp.autofire[a]
                        ):
                            # F15: a weapon without autofire is shot up to its ROF times a phase,
                            # each shot its own attack (semi_auto_rof: extra_attacks); the next
                            # goes at once, at a new target if this one fell, while rounds last
                            left = again - 1
                            if again == 0:
                                left = (wp.rof[a] if fire <= 0 else min(fire, wp.rof[a])) - 1
                            if left > 0 and ammo[a] != 0 and not is_out[a]:
                                more = left
                                more_param = param
                                q -= 1
                                queue[q] = a
                                qforced[q] = False
                if sides_left <= 1:
                    result = fight_result(standing)
                    finish = now
                    break
                if hazards and any_hazard and hz_tick[slot]:  # a phase ends in the hazards
                    s0, s1, s2, s3, ne, sides_left = hazard_phase(
                        now, hz, hs, sh, hl, st, tl, wh, dt, rl, obscured, standing, sides_left,
                        s0, s1, s2, s3, log, events, ne,
                    )  # fmt: skip
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
                    phase_end = acts[c * slots_per_round + slot] if wake_own_phase else end_of_unit
                    settled, woke, ne = wake_and_bleed(
                        c, now, phase_end, end_of_round, minute, free_recovery, stable[c], hits,
                        stun, stun_max, rec, body, dead, c_death, log, events, ne,
                    )  # fmt: skip
                    if not (changed or settled):
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
                        ne = log_wake(events, ne, now, c, hits, stun, now_out)
                    sides_left = comes_back(c, now, now_out, is_out, c_out, side, standing,
                                            sides_left)  # fmt: skip
                if sides_left <= 1:
                    result = fight_result(standing)
                    finish = now
                    break
            if log:
                log_event(events, ne, finish, EVENT_END, result, -1)
                n_events[0] = ne + 1
            record_trial(j, result, finish, c_out, c_death, c_dealt, c_taken, c_attacks, c_landed,
                         winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed)
            for c in range(n_comb):
                knock[j, c] = c_knock[c]
            if vehicles and any_vehicle:
                for c in range(n_comb):
                    immobilised[j, c] = c_immob[c]
                    uncontrolled[j, c] = c_unctl[c]
                    crits[j, c] = c_crits[c]
                    crit_any[j, c] = c_crits[c] > 0
                    crit_time[j, c] = c_crit_t[c]
            if missiles and any_missile:
                for c in range(n_comb):
                    missiles_hit[j, c] = c_mhit[c]
                    engagements[j, c] = c_meng[c]
                    evaded[j, c] = c_mevaded[c]
            if scene and any_impact:
                for c in range(n_comb):
                    falls[j, c] = c_falls[c]
                    collisions[j, c] = c_colls[c]
                    impact_taken[j, c] = c_imp[c]
                    broke_through[j, c] = c_broke[c]
            if hazards and any_hazard:
                for c in range(n_comb):
                    hazard_damage[j, c] = c_hz_dmg[c]
                    hazard_phases[j, c] = c_hz_ph[c]
                    hazard_out[j, c] = c_hz_out[c]
                    breath_out[j, c] = c_breath[c] > 0
                    breathless[j, c] = c_breath[c]
            if motion and any_motion:
                for c in range(n_comb):
                    mo_out[0][j, c] = mo.c_lost[c]
                    mo_out[1][j, c] = mo.c_spin[c]
                    mo_out[2][j, c] = mo.c_ram[c]
                    mo_out[3][j, c] = mo.c_crash[c]
            if dogfights and any_dogfight:
                for c in range(n_comb):
                    dogfight_rolls[j, c] = c_df_rolls[c]
                    dogfight_won[j, c] = c_df_won[c]
                    dogfight_tail[j, c] = c_df_tail[c]
                    broke_off[j, c] = c_df_broke[c]

    return run_chunk


def _stack(plan, names: tuple[str, ...], dtype) -> np.ndarray:
    """The plan's arrays ``names`` as the rows of one new table of ``dtype``."""
    table = np.stack([getattr(plan, name) for name in names])
    if table.dtype != dtype:
        raise TypeError(f"the plan's {names} are not all {np.dtype(dtype)}: {table.dtype}")
    return table


class Features(NamedTuple):
    """The rooms a fight uses, worked out from its plan (``run.features``): the general kernel
    is compiled once for each set it meets (:func:`kernel_for`), with only those rooms' code."""

    vehicles: bool  #: a vehicle and its crew (features/vehicles/room.py)
    suits: bool  #: powered armour (features/vehicles/suit.py)
    mecha_range: bool  #: an attacker under the mecha range scale (suit.scaled_rmod)
    missiles: bool  #: a missile weapon (features/missiles/room.py)
    scene: bool  #: obstacles, drops or terrain (features/scene/room.py, features/scene/terrain.py)
    ground: bool  #: walls that stop a move on foot, or rough ground (M-10, VA-51)
    hazards: bool  #: hazard zones, poison or pushing (features/hazards/room.py)
    motion: bool  #: a vehicle's tactics drive it (features/motion/room.py)
    jumps: bool  #: a tactic jumps (impact.jump)
    drives: bool  #: a tactic names an action after ``jump`` (motion.drive)
    dogfights: bool  #: a tactic dogfights (features/dogfights/room.py)
    arsenal: bool  #: someone fires several weapons (arsenal.py)
    gate: bool  #: the gate between the tactics' choice and the action (gate.py)
    area: bool  #: an area weapon (strike's blast)
    extra_attacks: bool  #: F15 semi_auto_rof: a weapon without autofire shot more than once


#: The rooms of every compiled set but the scene's and the vehicles' (whose shipped fights have
#: neither): their code is small, and their own flags would double the sets a test run compiles.
ALWAYS = ("area", "extra_attacks")
#: The rooms a vehicle brings: a fight without them compiles none of their code.
VEHICLE_ROOMS = ("vehicles", "suits", "mecha_range", "missiles", "motion", "drives", "dogfights")
#: The rooms of vehicles at rest on open ground, several weapons and the gate (an arc).
AT_REST = ("vehicles", "suits", "mecha_range", "arsenal", "gate")
#: The rooms of a scene on foot without hazards: obstacles, drops, terrain, jumps and the gate
#: (a wall that blocks a move or a shot).
IN_A_SCENE = ("scene", "ground", "jumps", "gate")
#: The rooms of hazards on open ground: zones, poison and pushing, with :data:`ALWAYS`.
IN_THE_HAZARDS = ("hazards", *ALWAYS)
#: The rooms the set of driven vehicles leaves out: missiles and dogfights (the air's), hazards
#: and jumps. Each of them cost a first run of the car chase 2 to 7 s of CPU; the rooms kept
#: beside motion (suits, the mecha range, several weapons) cost it nothing measurable.
NOT_DRIVEN = ("missiles", "dogfights", "hazards", "jumps")
#: The rooms of vehicles in the air: missiles and dogfights with the vehicles' own rooms,
#: several weapons, the gate and extra shots, and no scene, hazards, motion or area weapon (an
#: area weapon's blast on a vehicle, and motion, are the costly rooms there).
IN_THE_AIR = ("vehicles", "suits", "mecha_range", "missiles", "drives", "dogfights", "arsenal",
              "gate", "extra_attacks")
#: The kernels compiled today, each the whole trial loop once more (a first run waits for one):
#: a fight with no room but :data:`ALWAYS` (most of them) gets the people's; a fight on foot
#: with hazards and no other room, the hazards' (:data:`IN_THE_HAZARDS`); a fight on foot
#: in a scene, without hazards, several weapons, an area weapon or extra shots, the scene's
#: (:data:`IN_A_SCENE`); any other fight on foot with a scene, hazards, jumps, several weapons
#: or the gate, the ground's (every room but a vehicle's); a fight with vehicles none of which
#: is driven, fires a missile or dogfights, on open ground and without an area weapon or extra
#: shots, the vehicles' (:data:`AT_REST`: an area weapon's blast on a vehicle alone took 5 s
#: to compile); a fight with vehicles, driven or in a scene, without missiles, dogfights,
#: hazards or jumps, the driven vehicles' (every room but :data:`NOT_DRIVEN`); a fight with
#: missiles or dogfights and none of motion, a scene, hazards or an area weapon, the air's
#: (:data:`IN_THE_AIR`); any other fight the one with every room. Cold, on the reference
#: machine: about 16, 19, 20, 23, 20, 31.5, 32 and 40 s of CPU (``benchmarks/cold_start.py``).
PEOPLE = Features(*(name in ALWAYS for name in Features._fields))
HAZARDS = Features(*(name in IN_THE_HAZARDS for name in Features._fields))
SCENE = Features(*(name in IN_A_SCENE for name in Features._fields))
GROUND = Features(*(name not in VEHICLE_ROOMS for name in Features._fields))
VEHICLES = Features(*(name in AT_REST for name in Features._fields))
DRIVEN = Features(*(name not in NOT_DRIVEN for name in Features._fields))
AIR = Features(*(name in IN_THE_AIR for name in Features._fields))
EVERY_ROOM = Features(*(True for _ in Features._fields))
#: The compiled sets, smallest first, and how ``describe`` names each.
SETS = {PEOPLE: "", HAZARDS: " with the hazards' rooms", SCENE: " with a scene's rooms",
        GROUND: " with the rooms on foot", VEHICLES: " with the vehicles' rooms",
        DRIVEN: " with the driven vehicles' rooms", AIR: " with the air's rooms",
        EVERY_ROOM: " with every room"}  # fmt: skip


def compiled_set(f: Features) -> Features:
    """The smallest compiled set (:data:`SETS`) that holds every room of ``f``."""
    return next(s for s in SETS if all(has or not needs for has, needs in zip(s, f, strict=True)))


def kernel_for(f: Features):
    """The general kernel's ``run_chunk`` for a fight with the rooms ``f``: that of the
    smallest compiled set that holds them (:func:`compiled_set`), compiled on its first call."""
    return _compiled(compiled_set(f))


@functools.cache
def _compiled(f: Features):
    return _kernel(*f)


def trials_of(run_chunk):
    """The trial loop a compiled set's ``run_chunk`` calls (a variable of its closure)."""
    return run_chunk.__closure__[run_chunk.__code__.co_freevars.index("trials")].cell_contents
