"""The Fuzion fight kernel: one jitted loop over a chunk of trials.

It sees only arrays and numbers (the compiled :class:`~.compile.Plan`, unpacked argument by
argument: a tuple of arrays inside the hot loop costs 1.5 to 3 times, PERFORMANCE-NOTES lesson 3)
and writes into preallocated output arrays. Rule mechanics live in ``rules.py``.

Semantics (RULINGS F8-F9, F21-F26): time runs in slots (under ``timing: phases`` a slot is a
3-second phase in which everyone acts); within a slot combatants act one at a time in initiative
order and damage lands at once, so a combatant put out earlier in a slot does not act later in
it. The fight ends the moment at most one side has anyone standing; the kill time is that
slot's 1-based index. Waking is checked at the end of each slot, bleeding at the end of each
round.

Output codes: ``winner`` holds the winning side's index, ``DRAW`` (-1) when every side went out
at once, or ``UNRESOLVED`` (-2) when ``max_slots`` ran out.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...dice import TABLE_DICE
from ...engine.rng import trial_seed, xoshiro
from .rules import (
    KILLING,
    MELEE,
    armour_value,
    damage_dice,
    effective,
    hit_result,
    range_modifier,
    wound_penalty,
)

DRAW = -1
UNRESOLVED = -2

# option flags (Plan.options)
OPT_IMPAIRMENT = 0
OPT_STUNNED = 1
OPT_DYING_CAN_ACT = 2
OPT_DYING_PENALTY = 3
OPT_HAS_TIES = 4
N_OPTIONS = 5


@jit(inline="always")
def _out(hits, stun, dead, dying_can_act):
    """F26: knocked out (Stun <= 0), dead, or dying (Hits <= 0) unless dying_can_act."""
    return dead or stun <= 0 or (hits <= 0 and not dying_can_act)


@jit(inline="always")
def _standing_sides(side, n_sides, hits, stun, dead, dying_can_act, scratch):
    """Number of sides with a member standing, and the last such side."""
    for s in range(n_sides):
        scratch[s] = 0
    for c in range(side.shape[0]):
        if not _out(hits[c], stun[c], dead[c], dying_can_act):
            scratch[side[c]] = 1
    count = 0
    last = -1
    for s in range(n_sides):
        if scratch[s]:
            count += 1
            last = s
    return count, last


@jit(inline="always")
def _initiative(order, base_order, ref, tiebreak):
    """F9 switch1: higher sheet REF first; ties broken once per fight by a die roll
    (``tiebreak`` holds one uniform per combatant)."""
    n = base_order.shape[0]
    for k in range(n):
        order[k] = base_order[k]
    # insertion sort on (REF desc, tiebreak desc); n is small
    for i in range(1, n):
        c = order[i]
        j = i - 1
        while j >= 0 and (
            ref[order[j]] < ref[c] or (ref[order[j]] == ref[c] and tiebreak[order[j]] < tiebreak[c])
        ):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = c


@jit
def run_chunk(
    key, first, n_trials,
    # combatants
    side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec,
    att_skill, def_ranged, def_melee, pos_x, pos_y, base_order,
    # weapons and armour (one per combatant)
    w_kind, w_dmg, w_dc, w_acc, w_range, w_min_str, w_ap, w_energy, a_pd, a_ekd,
    # time
    acts, slots_per_round, start_slot, max_slots,
    # rules
    options, ap_factor, roll_table, nd6_offsets, nd6_table,
    # outputs, one row per trial
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed,
):  # fmt: skip
    """Run trials ``first .. first + n_trials - 1`` of the chunk with key ``key``.

    Parameters
    ----------
    key : uint64[4]
        The chunk's stream key (``engine.rng.chunk_key``).
    first, n_trials : int
        Offset of the first trial within the chunk, and how many trials to run.
    side ... a_ekd : int64[C] or float64[C]
        Per-combatant plan arrays (see ``compile.Plan``).
    acts : int8[C * slots_per_round]
        1 where combatant ``c`` acts in slot ``s`` of a round (``acts[c * spr + s]``).
    options : int64[N_OPTIONS]
        Rule switches as integers (``OPT_*``).
    roll_table : int16[N]
        Equally likely outcomes of attacker roll minus defender roll (``dice.roll_table``).
    nd6_offsets, nd6_table
        Equally-likely-outcome tables for up to 5 d6 (``dice.nd6_tables``).
    winner : int8[n_trials]; end_slot : int32[n_trials]
        Written: the winning side (or DRAW / UNRESOLVED) and the slot the fight ended.
    out_slot, death_slot, dealt, taken, attacks, landed : int32[n_trials, C]
        Written: per combatant the slot it first went out (0: never) and died (0: never),
        damage it dealt and took after defences, attacks made and attacks that hit.
    """
    n_comb = side.shape[0]
    impairment = options[OPT_IMPAIRMENT] != 0
    stunned_rule = options[OPT_STUNNED] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    n_rolls = roll_table.shape[0]

    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = nd6_offsets[TABLE_DICE]
    nd6_size = nd6_offsets[TABLE_DICE + 1] - nd6_start
    hits = np.empty(n_comb, np.int64)
    stun = np.empty(n_comb, np.int64)
    dead = np.zeros(n_comb, np.bool_)
    lose = np.zeros(n_comb, np.bool_)
    order = np.empty(n_comb, np.int64)
    tiebreak = np.empty(n_comb, np.float64)
    scratch = np.empty(n_sides, np.int64)
    for c in range(n_comb):
        order[c] = base_order[c]

    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        for c in range(n_comb):
            hits[c] = hits_max[c]
            stun[c] = stun_max[c]
            dead[c] = False
            lose[c] = False
            out_slot[j, c] = 0
            death_slot[j, c] = 0
            dealt[j, c] = 0
            taken[j, c] = 0
            attacks[j, c] = 0
            landed[j, c] = 0
        if has_ties:
            for c in range(n_comb):
                s0, s1, s2, s3, tiebreak[c] = xoshiro(s0, s1, s2, s3)
            _initiative(order, base_order, ref, tiebreak)

        result = UNRESOLVED
        finish = max_slots
        slot = start_slot - 1  # slot within the round, and rounds completed (no modulo: slow)
        rounds_done = 0
        for t in range(1, max_slots + 1):
            slot += 1
            if slot == slots_per_round:
                slot = 0
            for k in range(n_comb):
                a = order[k]
                if acts[a * slots_per_round + slot] == 0:
                    continue
                if _out(hits[a], stun[a], dead[a], dying_can_act):
                    continue
                if lose[a]:  # F22: a stunned combatant loses its next action
                    lose[a] = False
                    continue
                # target: the first enemy still standing, in listed order
                tgt = -1
                for c in range(n_comb):
                    if side[c] != side[a] and not _out(hits[c], stun[c], dead[c], dying_can_act):
                        tgt = c
                        break
                if tgt < 0:
                    continue
                dx = pos_x[tgt] - pos_x[a]
                dy = pos_y[tgt] - pos_y[a]
                dist = np.sqrt(dx * dx + dy * dy)
                melee = w_kind[a] == MELEE
                if melee and dist > w_range[a]:
                    continue  # out of reach; movement arrives with tactics
                # attacker's and defender's effective primaries
                pen_a = wound_penalty(hits[a], hits_max[a], impairment, dying_penalty, hits[a] <= 0)
                pen_t = wound_penalty(
                    hits[tgt], hits_max[tgt], impairment, dying_penalty, hits[tgt] <= 0
                )
                if lose[tgt]:
                    pen_t += 5
                str_a = effective(strength[a], pen_a)
                av = effective(ref[a], pen_a) + att_skill[a] + w_acc[a]
                if str_a < w_min_str[a]:
                    av -= w_min_str[a] - str_a  # F12: -1 REF per STR point short
                if melee:
                    dv_base = effective(dex[tgt], pen_t) + def_melee[tgt]
                else:
                    av += range_modifier(dist, w_range[a])
                    dv_base = effective(dex[tgt], pen_t) + def_ranged[tgt]
                attacks[j, a] += 1
                # Branch-free from here to the state update: a mispredicted hit/miss branch
                # costs more than the random numbers (PERFORMANCE-NOTES; measured).
                # Arrays are indexed here, never passed to helpers: an array argument brings
                # reference counting into the loop (PERFORMANCE-NOTES lesson 3; measured 3x).
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                hit = np.int64(roll_table[int(u * n_rolls)] >= dv_base - av)
                # F19: n d6 as groups of five from the 5d6 table, then the rest (dice.nd6_tables)
                n_dice = damage_dice(w_dc[a], str_a, w_min_str[a], melee)
                raw = np.int64(0)
                for _ in range(n_dice // TABLE_DICE):
                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                    raw += nd6_table[nd6_start + int(u * nd6_size)]
                rest = n_dice % TABLE_DICE
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                lo = nd6_offsets[rest]
                raw += nd6_table[lo + int(u * (nd6_offsets[rest + 1] - lo))]
                armour = armour_value(a_pd[tgt], a_ekd[tgt], w_energy[a], w_ap[a], ap_factor)
                hits_lost, stun_dmg, pen = hit_result(w_dmg[a], raw, armour, sd[tgt])
                hits_lost *= hit
                pen *= hit
                if w_dmg[a] == KILLING:
                    stun_lost = min(hits_lost, max(stun[tgt], 0))
                else:
                    stun_lost = stun_dmg * hit
                was_out = _out(hits[tgt], stun[tgt], dead[tgt], dying_can_act)
                landed[j, a] += hit
                hits[tgt] -= hits_lost
                stun[tgt] -= stun_lost
                dealt[j, a] += pen
                taken[j, tgt] += pen
                if hits[tgt] <= -2 * body[tgt] and not dead[tgt]:
                    dead[tgt] = True
                    death_slot[j, tgt] = t
                if stunned_rule and 2 * stun_lost > stun_max[tgt]:
                    lose[tgt] = True
                if not was_out and _out(hits[tgt], stun[tgt], dead[tgt], dying_can_act):
                    if out_slot[j, tgt] == 0:
                        out_slot[j, tgt] = t
                    count, last = _standing_sides(
                        side, n_sides, hits, stun, dead, dying_can_act, scratch
                    )
                    if count <= 1:
                        result = last if count == 1 else DRAW
                        finish = t
                        break
            if result != UNRESOLVED:
                break
            # end of slot: waking (F23), then at the end of a round bleeding (F25)
            end_of_round = slot == slots_per_round - 1
            if end_of_round:
                rounds_done += 1
            minute = end_of_round and rounds_done % 5 == 0
            changed = False
            for c in range(n_comb):
                if dead[c]:
                    continue
                if stun[c] <= 0 and hits[c] > 0:
                    if stun[c] >= -10 or (
                        end_of_round and (stun[c] >= -20 or (stun[c] >= -30 and minute))
                    ):
                        stun[c] += rec[c]
                if end_of_round and hits[c] <= 0:
                    was_out = _out(hits[c], stun[c], dead[c], dying_can_act)
                    hits[c] -= 1
                    if hits[c] <= -2 * body[c]:
                        dead[c] = True
                        death_slot[j, c] = t
                    if not was_out and _out(hits[c], stun[c], dead[c], dying_can_act):
                        if out_slot[j, c] == 0:
                            out_slot[j, c] = t
                        changed = True
            if changed:
                count, last = _standing_sides(
                    side, n_sides, hits, stun, dead, dying_can_act, scratch
                )
                if count <= 1:
                    result = last if count == 1 else DRAW
                    finish = t
                    break
        winner[j] = result
        end_slot[j] = finish
