"""The general kernel's actions, one room each: the tactics interpreter, waiting and
interrupts, the actions that do not attack (aim, defend, reload, escape, first aid, presence)
and movement. ``kernel.py`` calls them from its action loop; ``strike.py`` has the attack.

Every helper is inlined into the kernel (``inline="always"``): it indexes the kernel's arrays
itself, without the reference counting an array argument of a compiled call brings, and returns
what it changed that is not an array (the generator state, the event count, counters).
Semantics: RULINGS F11 (aim), F23 (recover), F25 (first aid), F32 (defences), F33 (holds),
and the tactics language of ``tactics.py``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..._jit import INNER, jit
from ...engine.rng import xoshiro
from . import tactics as tx
from .codes import (
    ARM_MELEE,
    ARM_MISSILE,
    EV_ACTION,
    EV_AV,
    EV_DV,
    EV_FLAGS,
    EV_RAW,
    EV_ROLL,
    EV_THROUGH,
    EV_X,
    EV_Y,
    EVENT_AIM,
    EVENT_DEFEND,
    EVENT_ESCAPE,
    EVENT_FIRST_AID,
    EVENT_INTERRUPT,
    EVENT_MOVE,
    EVENT_PRESENCE,
    EVENT_RELOAD,
    EVENT_WAIT,
    FLAG_HIT,
    HOLD_NONE,
    MELEE_REACH,
    PA_LOSE_ACTION,
    PA_NONE,
    PA_PENALTY,
    PA_SURRENDER,
    WAIT_ENEMY_ATTACKS,
    WAIT_ENEMY_MOVES,
    WAIT_IN_RANGE,
)
from .dice import roll_nd6
from .kernel_parts import goes_out, log_event
from .rules import move_away, move_toward, range_modifier

#: target.hits, .stun, .hits_pct, .stun_pct, .prone, .held, .stunned read as the own variable
_TARGET_AS_OWN = np.array(
    [tx.V_HITS, tx.V_STUN, tx.V_HITS_PCT, tx.V_STUN_PCT, tx.V_PRONE, tx.V_HELD, tx.V_STUNNED],
    dtype=np.int64,
)


#: What the tactics read beyond the sheet: the missile engagements in flight at each
#: (``missiles.room.MState.incoming``), the environment (``hazards.room.HState.env``), the vehicles
#: in motion (``motion.room.Motion``: control state, MOVE now, altitude) and the dogfights
#: (``dogfights.room.DState.dfs``: partner, margin, tailing).
Sense = namedtuple("Sense", "incoming env motion dogfight_state")


@jit
def geometry(px, py, w_range, dist, rmod):
    """Distances and range bands (F10) between every pair, after someone moved."""
    n = px.shape[0]
    for i in range(n):
        for t in range(n):
            dx = px[t] - px[i]
            dy = py[t] - py[i]
            d = np.sqrt(dx * dx + dy * dy)
            dist[i * n + t] = d
            rmod[i * n + t] = range_modifier(d, w_range[i])


@jit(**INNER)
def moved_geometry(c, px, py, w_range, dist, rmod):
    """Distances and range bands (F10) of the pairs with ``c`` after ``c`` moved: its row and
    its column, the same values ``geometry`` gives them (O(N), not O(N^2), a move)."""
    n = px.shape[0]
    for i in range(n):
        dx = px[c] - px[i]
        dy = py[c] - py[i]
        d = np.sqrt(dx * dx + dy * dy)
        dist[i * n + c] = d
        rmod[i * n + c] = range_modifier(d, w_range[i])
        dx = px[i] - px[c]
        dy = py[i] - py[c]
        d = np.sqrt(dx * dx + dy * dy)
        dist[c * n + i] = d
        rmod[c * n + i] = range_modifier(d, w_range[c])


@jit(**INNER)
def note_move(moved, c, x0, y0, x1, y1, metres):
    """``c`` went ``metres`` in its action, from ``(x0, y0)`` to ``(x1, y1)``: its row of
    ``moved`` (float64[C, 3]: metres, then the vector, which the relative moving-target
    penalty reads, VA-16)."""
    moved[c, 0] = metres
    moved[c, 1] = x1 - x0
    moved[c, 2] = y1 - y0


@jit(**INNER)
def is_movement(action):
    return (
        action == tx.A_RUN or action == tx.A_SPRINT or action == tx.A_MOVE
        or action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU
    )  # fmt: skip


@jit(**INNER)
def is_attack(action):
    """An action that attacks (what a waiter "until an enemy attacks" waits for)."""
    return (
        action == tx.A_ATTACK or action == tx.A_PUNCH or action == tx.A_KICK
        or action == tx.A_HAYMAKER or action == tx.A_DRAW_ATTACK or action == tx.A_SWEEP
        or action == tx.A_DISARM or action == tx.A_CHOKE or action == tx.A_ENTANGLE
        or action == tx.A_BURST or action == tx.A_LAUNCH
    )  # fmt: skip


# --- the tactics interpreter ---------------------------------------------------------------------


@jit(**INNER)
def is_weapon_action(action):
    """An action a rule may name a weapon for (``tactics.WEAPON_ACTIONS``)."""
    return (
        action == tx.A_ATTACK or action == tx.A_AIM or action == tx.A_RELOAD
        or action == tx.A_BURST or action == tx.A_DRAW_ATTACK or action == tx.A_LAUNCH
    )  # fmt: skip


@jit(inline="always")
def tactic_variable(arg, a, tgt, d_at, now, side, is_out, hits, stun, hits_max, stun_max, aim,
                    ammo, prone, held_by, lose, dist, dodge, block, w_range, w_melee, disarmed,
                    w_missile, sense, k, arms):  # fmt: skip
    """The value of a condition's variable ``arg`` (``tactics.V_*``) for combatant ``a``
    aiming at ``tgt`` (``target.*`` variables read the target) ``d_at`` metres away.
    ``w_missile``: the missiles one launch of each combatant's weapon fires (0: not a missile
    weapon); ``incoming`` (``missiles.room.MState.incoming``): the missile engagements in flight
    against each. ``k``: the row in ``arms`` (``arsenal.Arsenal``) of the weapon the rule
    names when it is not the one in hand (-1: the one in hand), whose shots, range, reach and
    missiles the rule reads. ``sense`` (:data:`Sense`): the missile engagements in flight at
    each (``incoming``) and the environment (``env`` int64[C, 3], ``hazards.room.HState.env``: in a
    hazard zone, phases of breath left) and the vehicles in motion (``motion``,
    ``motion.room.Motion``)."""
    n_comb = side.shape[0]
    shots = ammo[a]
    rng = w_range[a]
    melee = w_melee[a]
    missiles = w_missile[a]
    if k >= 0:
        shots = arms.ammo[k]
        rng = arms.rows_f[k, 0]
        melee = arms.rows_i[k, ARM_MELEE]
        missiles = arms.rows_i[k, ARM_MISSILE]
    who = a
    if tx.V_TARGET_HITS <= arg <= tx.V_TARGET_STUNNED:
        who = tgt
        arg = _TARGET_AS_OWN[arg - tx.V_TARGET_HITS]
    if arg == tx.V_HITS:
        v = hits[who]
    elif arg == tx.V_STUN:
        v = stun[who]
    elif arg == tx.V_HITS_MAX:
        v = hits_max[who]
    elif arg == tx.V_STUN_MAX:
        v = stun_max[who]
    elif arg == tx.V_HITS_PCT:
        v = 100.0 * hits[who] / hits_max[who]
    elif arg == tx.V_STUN_PCT:
        v = 100.0 * stun[who] / stun_max[who]
    elif arg == tx.V_AIM:
        v = aim[a]
    elif arg == tx.V_SHOTS:
        v = shots if shots >= 0 else tx.UNLIMITED_SHOTS
    elif arg == tx.V_PRONE:
        v = prone[who]
    elif arg == tx.V_HELD:
        v = held_by[who] >= 0
    elif arg == tx.V_STUNNED:
        v = lose[who]
    elif arg == tx.V_THREATENED:
        v = 0.0
        for c in range(n_comb):
            if side[c] != side[a] and not is_out[c] and (dist[a * n_comb + c] <= MELEE_REACH):
                v = 1.0
    elif arg == tx.V_ENEMIES or arg == tx.V_ALLIES:
        v = 0.0
        for c in range(n_comb):
            if not is_out[c] and c != a and ((side[c] != side[a]) == (arg == tx.V_ENEMIES)):
                v += 1.0
    elif arg == tx.V_PHASE:
        v = now
    elif arg == tx.V_DODGING:
        v = dodge[a] > 0 or block[a] > 0
    elif arg == tx.V_RANGE:
        v = d_at
    elif arg == tx.V_WEAPON_RANGE:
        v = MELEE_REACH if disarmed[a] else rng
    elif arg == tx.V_REACH:
        v = rng if melee else MELEE_REACH
    elif arg == tx.V_IN_RANGE:
        v = d_at <= (MELEE_REACH if disarmed[a] else rng)
    elif arg == tx.V_MISSILES:
        v = 0.0
        if missiles > 0:
            v = shots if shots >= 0 else tx.UNLIMITED_SHOTS
    elif arg == tx.V_MISSILES_INCOMING:
        v = sense.incoming[a]
    elif arg == tx.V_TARGET_MISSILES_INCOMING:
        v = sense.incoming[tgt]
    elif arg == tx.V_IN_HAZARD:
        v = sense.env[a, 0]
    elif arg == tx.V_BREATH:
        v = sense.env[a, 1]
    elif arg == tx.V_OUT_OF_CONTROL:  # a vehicle in motion (motion.Motion)
        v = sense.motion.ctl[a] != 0
    elif arg == tx.V_SPEED:
        v = sense.motion.speed[a]
    elif arg == tx.V_TARGET_SPEED:
        v = sense.motion.speed[tgt]
    elif arg == tx.V_ALTITUDE:
        v = sense.motion.alt[a]
    elif arg == tx.V_ADVANTAGE:  # this phase's dogfight margin against the target
        v = sense.dogfight_state[a, 1] if sense.dogfight_state[a, 0] == tgt else 0
    elif arg == tx.V_TAILING:
        v = sense.dogfight_state[a, 2] if sense.dogfight_state[a, 0] == tgt else 0
    else:  # V_IN_REACH
        v = d_at <= (rng if melee else MELEE_REACH)
    return v


@jit(inline="always")
def choose_rule(a, tgt, d_at, now, rule_start, rule_count, rules, code, consts, stack, side,
                is_out, hits, stun, hits_max, stun_max, aim, ammo, prone, held_by, lose, dist,
                dodge, block, w_range, w_melee, disarmed, w_missile, sense,
                arms):  # fmt: skip
    """The first rule of ``a``'s tactics whose condition holds: ``(action, param, fire)``
    (``A_NONE`` when none holds). Conditions are postfix bytecode (``tactics.OP_*``); a rule
    that names one of several weapons (``arms``) reads that weapon's shots and range."""
    action = tx.A_NONE
    param = np.int64(0)
    fire = np.int64(1)
    for r in range(rule_start[a], rule_start[a] + rule_count[a]):
        ok = True
        n_code = rules[r, 1]
        k = np.int64(-1)
        if arms.start[a] >= 0 and rules[r, 3] > 0 and is_weapon_action(rules[r, 2]):
            k = arms.start[a] + rules[r, 3] - 1
            if k == arms.cur[a]:
                k = -1
        if n_code > 0:
            top = 0
            for ci in range(rules[r, 0], rules[r, 0] + n_code):
                op = code[ci, 0]
                arg = code[ci, 1]
                if op == tx.OP_CONST:
                    stack[top] = consts[arg]
                    top += 1
                elif op == tx.OP_VAR:
                    stack[top] = tactic_variable(
                        arg, a, tgt, d_at, now, side, is_out, hits, stun, hits_max, stun_max,
                        aim, ammo, prone, held_by, lose, dist, dodge, block, w_range, w_melee,
                        disarmed, w_missile, sense, k, arms,
                    )  # fmt: skip
                    top += 1
                elif op == tx.OP_NEG:
                    stack[top - 1] = -stack[top - 1]
                elif op == tx.OP_NOT:
                    stack[top - 1] = 1.0 if stack[top - 1] == 0.0 else 0.0
                else:
                    y = stack[top - 1]
                    x = stack[top - 2]
                    top -= 1
                    if op == tx.OP_ADD:
                        v = x + y
                    elif op == tx.OP_SUB:
                        v = x - y
                    elif op == tx.OP_MUL:
                        v = x * y
                    elif op == tx.OP_LT:
                        v = x < y
                    elif op == tx.OP_LE:
                        v = x <= y
                    elif op == tx.OP_GT:
                        v = x > y
                    elif op == tx.OP_GE:
                        v = x >= y
                    elif op == tx.OP_EQ:
                        v = x == y
                    elif op == tx.OP_NE:
                        v = x != y
                    elif op == tx.OP_AND:
                        v = x != 0.0 and y != 0.0
                    else:  # OP_OR
                        v = x != 0.0 or y != 0.0
                    stack[top - 1] = v
            ok = stack[0] != 0.0
        if ok:
            action = rules[r, 2]
            param = rules[r, 3]
            fire = rules[r, 4]
            break
    return action, param, fire


# --- waiting and interrupts --------------------------------------------------------------------


@jit(**INNER)  # cold: out of the trial loop (PERFORMANCE-NOTES lesson 18)
def interrupt_by_waiter(a, action, t_abs, slot, slots_per_round, side, is_out, waiting, target,
                        acted_t, aborted_t, acts, queue, qforced, log, events, ne,
                        now):  # fmt: skip
    """An enemy waiting "until an enemy attacks / moves" interrupts ``a``'s ``action``: the
    waiter is queued first, aimed at ``a`` (its held action is its turn now), and ``a``
    chooses again after it. Returns (whether a waiter interrupted, ne)."""
    n_comb = side.shape[0]
    moving = is_movement(action)
    attacking = not moving and is_attack(action)
    for w in range(n_comb):
        if waiting[w] < 0 or is_out[w] or side[w] == side[a]:
            continue
        if (waiting[w] == WAIT_ENEMY_MOVES and moving) or (
            waiting[w] == WAIT_ENEMY_ATTACKS and attacking
        ):
            waiting[w] = -1
            target[w] = a
            if acted_t[w] != t_abs and acts[w * slots_per_round + slot]:
                aborted_t[w] = t_abs  # the held action is its turn now
            queue[0] = w
            qforced[0] = True
            queue[1] = a
            qforced[1] = False
            if log:
                log_event(events, ne, now, EVENT_INTERRUPT, w, a)
                ne += 1
            return True, ne
    return False, ne


@jit(**INNER)  # cold: out of the trial loop (PERFORMANCE-NOTES lesson 18)
def interrupt_in_range(a, n_queue, t_abs, slot, slots_per_round, side, is_out, waiting, target,
                       acted_t, aborted_t, acts, dist, w_range, queue, qforced, log, events,
                       ne, now):  # fmt: skip
    """After ``a`` moved: the first enemy waiting "until in range" that now has ``a`` in its
    weapon's range fires as soon as this action ends. Returns (queue length, fired, ne)."""
    n_comb = side.shape[0]
    for w in range(n_comb):
        if waiting[w] != WAIT_IN_RANGE or is_out[w] or side[w] == side[a]:
            continue
        if dist[w * n_comb + a] <= w_range[w] and n_queue < 4:
            waiting[w] = -1
            target[w] = a
            if acted_t[w] != t_abs and acts[w * slots_per_round + slot]:
                aborted_t[w] = t_abs  # the held action is its turn now
            queue[n_queue] = w  # fires as soon as this action ends
            qforced[n_queue] = True
            if log:
                log_event(events, ne, now, EVENT_INTERRUPT, w, a)
                ne += 1
            return n_queue + 1, True, ne
    return n_queue, False, ne


@jit(**INNER)
def start_waiting(a, param, waiting, log, events, ne, now):
    """``wait``: hold the action until ``param`` (``WAIT_*``). Returns ne."""
    waiting[a] = param
    if log:
        row = log_event(events, ne, now, EVENT_WAIT, a, -1)
        events[row, EV_ACTION] = tx.A_WAIT
        ne += 1
    return ne


# --- actions that do not attack ------------------------------------------------------------------


@jit(**INNER)
def act_aim(a, tgt, w_melee, disarmed, aim, aim_tgt, log, events, ne, now):
    """F11 aim: +1 an action, at most +3, ranged only; aiming at another starts again."""
    if not w_melee[a] and not disarmed[a]:
        if aim_tgt[a] != tgt:
            aim[a] = 0
            aim_tgt[a] = tgt
        aim[a] = min(aim[a] + 1, 3)
    if log:
        row = log_event(events, ne, now, EVENT_AIM, a, tgt)
        events[row, EV_ACTION] = tx.A_AIM
        events[row, EV_RAW] = aim[a]
        ne += 1
    return ne


@jit(**INNER)
def act_defend(a, action, dodge_bonus, block_bonus, dodge, block, diving, log, events, ne, now):
    """F32 dodge (+DV against every attack), block (+DV against melee) or dive for cover, each
    until the defender acts again."""
    bonus = 0
    if action == tx.A_DODGE:
        dodge[a] = dodge_bonus
        bonus = dodge_bonus
    elif action == tx.A_BLOCK:
        block[a] = block_bonus
        bonus = block_bonus
    else:
        diving[a] = True
    if log:
        row = log_event(events, ne, now, EVENT_DEFEND, a, -1)
        events[row, EV_ACTION] = action
        events[row, EV_RAW] = bonus
        ne += 1
    return ne


@jit(**INNER)
def act_reload(a, w_reload, w_shots, ammo, reloading, log, events, ne, now):
    """A reload's action: the magazine is full after ``reload_actions`` of them."""
    before = ammo[a]
    reloading[a] += 1
    spent = reloading[a]
    if reloading[a] >= w_reload[a]:
        reloading[a] = 0
        ammo[a] = w_shots[a]
    if log:  # the rounds loaded (0 until the last action of the reload)
        row = log_event(events, ne, now, EVENT_RELOAD, a, -1)
        events[row, EV_ACTION] = tx.A_RELOAD
        events[row, EV_RAW] = ammo[a]
        events[row, EV_THROUGH] = ammo[a] - before
        events[row, EV_ROLL] = spent
        events[row, EV_DV] = w_reload[a]
        ne += 1
    return ne


@jit(**INNER)  # cold: out of the trial loop (PERFORMANCE-NOTES lesson 18)
def act_escape(a, held_by, hold, e_str, escape_skill, roll_table, s0, s1, s2, s3, log, events,
               ne, now):  # fmt: skip
    """F33 escape: STR + Athletics (or Hand to Hand) against the holder's, a contested roll."""
    holder = held_by[a]
    if holder < 0:
        return s0, s1, s2, s3, ne
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    roll = np.int64(roll_table[np.int64(u * roll_table.shape[0])])
    free = roll >= (e_str[holder] + escape_skill[holder]) - (e_str[a] + escape_skill[a])
    if free:
        held_by[a] = -1
        hold[a] = HOLD_NONE
    if log:
        row = log_event(events, ne, now, EVENT_ESCAPE, a, holder)
        events[row, EV_ACTION] = tx.A_ESCAPE
        events[row, EV_ROLL] = roll
        events[row, EV_FLAGS] = FLAG_HIT * free
        ne += 1
    return s0, s1, s2, s3, ne


@jit(**INNER)  # cold: out of the trial loop (PERFORMANCE-NOTES lesson 18)
def act_first_aid(a, side, hits, dead, stable, dist, px, py, run_m, moved, w_range, rmod, tech,
                  physician, task_table, s0, s1, s2, s3, log, events, ne, now):  # fmt: skip
    """F25 first aid: go to the nearest dying ally, then TECH + Physician against 2 x its
    Hits below 0 to stabilise it (it bleeds no more)."""
    n_comb = side.shape[0]
    patient = -1
    best = 1e300
    for c in range(n_comb):
        if side[c] == side[a] and c != a and hits[c] <= 0 and not dead[c]:
            if not stable[c] and dist[a * n_comb + c] < best:
                best = dist[a * n_comb + c]
                patient = c
    if patient < 0:
        return s0, s1, s2, s3, ne
    if best > MELEE_REACH:  # go to the patient first
        x0 = px[a]
        y0 = py[a]
        px[a], py[a], went = move_toward(x0, y0, px[patient], py[patient], run_m[a], 1.0)
        note_move(moved, a, x0, y0, px[a], py[a], went)
        moved_geometry(a, px, py, w_range, dist, rmod)
        if log:
            row = log_event(events, ne, now, EVENT_MOVE, a, patient)
            events[row, EV_ACTION] = tx.A_RUN
            events[row, EV_RAW] = np.int64(went * 100.0)
            events[row, EV_X] = np.int64(px[a] * 100.0)
            events[row, EV_Y] = np.int64(py[a] * 100.0)
            ne += 1
        return s0, s1, s2, s3, ne
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    troll = np.int64(task_table[np.int64(u * task_table.shape[0])])
    need = -2 * hits[patient]
    ok = tech[a] + physician[a] + troll >= need
    if ok:
        stable[patient] = True
    if log:
        row = log_event(events, ne, now, EVENT_FIRST_AID, a, patient)
        events[row, EV_ACTION] = tx.A_FIRST_AID
        events[row, EV_ROLL] = troll
        events[row, EV_AV] = tech[a] + physician[a]
        events[row, EV_DV] = need
        events[row, EV_FLAGS] = FLAG_HIT * ok
        ne += 1
    return s0, s1, s2, s3, ne


@jit(**INNER)  # cold: out of the trial loop (PERFORMANCE-NOTES lesson 18)
def act_presence(a, side, is_out, pre, res, presence_margin, presence_effect, next_mod, lose,
                 gave_up, c_out, standing, sides_left, nd6_offsets, nd6_table, s0, s1, s2, s3,
                 log, events, ne, now):  # fmt: skip
    """A presence attack: 1d6 per PRE against each enemy's RES; the margin's effect
    (``data/presence.yaml``): a penalty to its next action, a lost action, or surrender (out).
    Returns the generator state, ne and the sides still standing."""
    n_comb = side.shape[0]
    s0, s1, s2, s3, total = roll_nd6(s0, s1, s2, s3, pre[a], nd6_offsets, nd6_table)
    for c in range(n_comb):
        if side[c] == side[a] or is_out[c]:
            continue
        effect = PA_NONE
        value = 0
        for i in range(presence_margin.shape[0]):
            if total - res[c] >= presence_margin[i]:
                effect = presence_effect[i, 0]
                value = presence_effect[i, 1]
        if effect == PA_PENALTY:
            next_mod[c] -= value
        elif effect == PA_LOSE_ACTION:
            lose[c] = True
        elif effect == PA_SURRENDER:
            gave_up[c] = True
            sides_left = goes_out(c, now, is_out, c_out, side, standing, sides_left)
        if log:
            row = log_event(events, ne, now, EVENT_PRESENCE, a, c)
            events[row, EV_ACTION] = tx.A_PRESENCE
            events[row, EV_RAW] = total
            events[row, EV_DV] = res[c]
            events[row, EV_ROLL] = effect
            ne += 1
    return s0, s1, s2, s3, ne, sides_left


# --- movement ------------------------------------------------------------------------------------


@jit(**INNER)
def move_step(a, action, run_m, sprint_m):
    """The metres ``a``'s movement ``action`` may go: a sprint, half a run for a move, else a
    run."""
    if action == tx.A_SPRINT:
        return sprint_m[a]
    if action == tx.A_MOVE:
        return run_m[a] * 0.5
    return run_m[a]


@jit(**INNER)
def act_move(a, tgt, action, param, side, is_out, px, py, dist, rmod, run_m, sprint_m, w_range,
             w_melee, disarmed, tac_default, moved, aim, in_cover, log, events, ne,
             now):  # fmt: skip
    """Run, sprint, move (half a run), move by or move thru toward the target (or the nearest
    enemy, or away from the target). A gun closes to its listed range under the default
    tactic, right up under a rule; melee and fists into reach; move by and thru right up to
    the target. Returns ne."""
    n_comb = side.shape[0]
    step = move_step(a, action, run_m, sprint_m)
    goal = tgt
    if param == tx.M_NEAREST:
        best = 1e300
        for c in range(n_comb):
            if side[c] != side[a] and not is_out[c]:
                if dist[a * n_comb + c] < best:
                    best = dist[a * n_comb + c]
                    goal = c
    x0 = px[a]
    y0 = py[a]
    if param == tx.M_AWAY:
        px[a], py[a], went = move_away(x0, y0, px[goal], py[goal], step)
    else:
        reach = MELEE_REACH if disarmed[a] else w_range[a]
        if not w_melee[a] and not disarmed[a] and not tac_default[a]:
            reach = 1.0
        if action == tx.A_MOVE_BY or action == tx.A_MOVE_THRU:
            reach = 1.0  # right up to the target
        reach = max(reach - 0.01, 0.0)  # end inside it, not on its edge
        px[a], py[a], went = move_toward(x0, y0, px[goal], py[goal], step, reach)
    note_move(moved, a, x0, y0, px[a], py[a], went)
    if went > 0.0:
        aim[a] = 0  # aiming is lost when the aimer moves
        in_cover[a] = False  # and it leaves its cover and posture
        moved_geometry(a, px, py, w_range, dist, rmod)
    if log:
        row = log_event(events, ne, now, EVENT_MOVE, a, goal)
        events[row, EV_ACTION] = action
        events[row, EV_RAW] = np.int64(went * 100.0)
        events[row, EV_X] = np.int64(px[a] * 100.0)
        events[row, EV_Y] = np.int64(py[a] * 100.0)
        ne += 1
    return ne
