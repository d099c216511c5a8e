"""The duel kernel: a gunfight of one shooter against one, with the state in scalars.

Two armed members on two sides, shooting in fixed order (UA1), with no dodge, hit locations,
critical shots or blasts (``dispatch`` decides): every shot is one generator step whose low 32
bits index the 6,561 equally likely pairs of (to-hit roll, Damage Roll). A table built at
compile time by the general kernel's own rule (``kernel_parts.shot_table``) holds, for each
pair, the shot's outcome at all three of the shooter's wound penalties side by side (0 for a
miss, 2 x damage + 1 for a hit): the table is read before the penalty is known, and the
penalty only picks the bits, so a shot never waits for the previous one's load, and the
counters add up without a branch on the hit. On the firearms track what the points mean (the
penalty, can act, out, dead, U3, UA11, UA14, UA15) is a few comparisons with the band edges,
and a branch is taken only when someone goes out. Both wound tracks, every ``shot_roll``,
``out_at``, wound penalties and initiative ties drawn at random are honoured. The tests hold
it to the general kernel bit for bit.

Bulk runs only: a replay (event log) runs on the general kernel, which draws the same numbers
in the same order.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.outcomes import tally_duel
from ...engine.rng import index32, trial_seed, xoshiro_bits
from .codes import (
    L_DEAD,
    OPT_CORE_DEAD,
    OPT_CORE_UP,
    OPT_HAS_TIES,
    OPT_OUT_LEVEL,
    OPT_PENALTIES,
    OPT_TRACK,
    TRACK_FIREARMS,
    UNRESOLVED,
)
from .kernel_parts import CAN_BIT, GONE_BIT, LOW32, firearms_edges, state_bits
from .rules import firearms_level, level_of, take

__all__ = ["run_chunk"]

_N_PAIRS = np.uint64(6561)


@jit
def run_chunk(key, first, n_trials, n_sides, max_rounds, options, initiative, side, width,
              dead_at, table, bits, shared, crippled, wound_levels, tally):  # fmt: skip
    """Run trials ``first .. first + n_trials - 1`` of a duel: the plan's ``n_sides``,
    ``max_rounds``, ``options``, ``initiative``, ``side``, ``width`` and ``dead_at`` (the only
    fields of a :class:`~.compile.Plan` it reads: the Python wrapper's code grows with every
    array it unboxes), ``table`` the shot table and ``bits`` its bits per penalty
    (``kernel_parts.shot_table``); the outputs are the shared per-trial arrays
    (:class:`~fuzion_sim.engine.outcomes.Shared`), the ``crippled`` counter (int32[T, C],
    never a part here) and the wound-level category (int64[C, K], added to), and the tally
    (:class:`~fuzion_sim.engine.outcomes.Streamed`): with its ``accumulate`` the trials go
    straight into it and the per-trial outputs are left alone (the numbers are the same).
    """
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
    (accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
     taken_sq, attacks_sum, landed_sum) = tally  # fmt: skip
    track = options[OPT_TRACK]
    firearms = track == TRACK_FIREARMS
    has_ties = options[OPT_HAS_TIES] != 0
    out_level = options[OPT_OUT_LEVEL]
    pen_on = options[OPT_PENALTIES] != 0
    up = options[OPT_CORE_UP] != 0
    dead_damage = options[OPT_CORE_DEAD]
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    w0, w1 = width[0], width[1]
    d0, d1 = dead_at[0], dead_at[1]
    hurt0, very0, helpless0, gone0 = firearms_edges(w0, d0, pen_on, out_level)
    hurt1, very1, helpless1, gone1 = firearms_edges(w1, d1, pen_on, out_level)
    mask = (np.int64(1) << bits) - 1
    init_first = 0 if initiative[0] >= initiative[1] else 1
    side0, side1 = side[0], side[1]

    sum_dealt0 = sum_dealt1 = sq_dealt0 = sq_dealt1 = np.int64(0)
    sum_att0 = sum_att1 = sum_land0 = sum_land1 = np.int64(0)
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        first_c = init_first
        if has_ties:  # equal initiative: a key each, drawn once a fight (UA1)
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            key0 = np.int64(x >> np.uint64(1))
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            key1 = np.int64(x >> np.uint64(1))
            first_c = 0 if key0 >= key1 else 1
        t0 = t1 = np.int64(0)
        lv0 = lv1 = np.int64(0)
        shift0 = shift1 = np.int64(0)
        can0 = can1 = True
        out0 = out1 = np.int64(0)
        death0 = death1 = np.int64(0)
        dealt0 = dealt1 = np.int64(0)
        natt0 = natt1 = np.int64(0)
        land0 = land1 = np.int64(0)
        result = UNRESOLVED
        finish = max_rounds
        for rnd in range(1, max_rounds + 1):
            acted = 0
            for step in range(2):
                a = first_c if step == 0 else 1 - first_c
                if a == 0:
                    if not can0:
                        continue
                    shift = shift0
                else:
                    if not can1:
                        continue
                    shift = shift1
                acted += 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                i = np.uint64(a) * _N_PAIRS + index32(x & LOW32, _N_PAIRS)
                code = (np.int64(table[i]) >> shift) & mask
                d = code >> 1  # the damage; code & 1: a hit
                if a == 0:
                    natt0 += 1
                    land0 += code & 1
                    dealt0 += d
                    if firearms:
                        t1 += d
                        shift1 = (np.int64(t1 >= hurt1) + np.int64(t1 >= very1)) * bits
                        can1 = t1 < helpless1
                        if t1 < gone1:
                            continue
                        if t1 >= d1:
                            death1 = rnd
                    else:  # the core track: a hit marks a box
                        if code == 0:
                            continue
                        t1 = take(t1, d, False, track, w1, d1, up, dead_damage)
                        lv1 = level_of(t1, track, w1, d1)
                        st = state_bits(lv1, pen_on, out_level)
                        shift1 = (st & 3) * bits
                        can1 = (st & CAN_BIT) != 0
                        if lv1 == L_DEAD and death1 == 0:
                            death1 = rnd
                        if not st & GONE_BIT:
                            continue
                    out1 = rnd
                    result = side0
                    finish = rnd
                    break
                else:
                    natt1 += 1
                    land1 += code & 1
                    dealt1 += d
                    if firearms:
                        t0 += d
                        shift0 = (np.int64(t0 >= hurt0) + np.int64(t0 >= very0)) * bits
                        can0 = t0 < helpless0
                        if t0 < gone0:
                            continue
                        if t0 >= d0:
                            death0 = rnd
                    else:
                        if code == 0:
                            continue
                        t0 = take(t0, d, False, track, w0, d0, up, dead_damage)
                        lv0 = level_of(t0, track, w0, d0)
                        st = state_bits(lv0, pen_on, out_level)
                        shift0 = (st & 3) * bits
                        can0 = (st & CAN_BIT) != 0
                        if lv0 == L_DEAD and death0 == 0:
                            death0 = rnd
                        if not st & GONE_BIT:
                            continue
                    out0 = rnd
                    result = side1
                    finish = rnd
                    break
            if result != UNRESOLVED:
                break
            if acted == 0:  # neither can shoot and nothing is due
                finish = rnd
                break
        if firearms:
            lv0 = firearms_level(t0, w0, d0)
            lv1 = firearms_level(t1, w1, d1)
        wound_levels[0, lv0] += 1
        wound_levels[1, lv1] += 1
        if accumulate:
            tally_duel(result, n_sides, finish, out0, out1, death0, death1,
                       outcome_counts, end_hist, out_hist, death_hist)
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
        crippled[j, 0] = 0
        crippled[j, 1] = 0
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
