"""The plain duel: the duel kernel's fights in which nothing but Hits and Stun change.

Many duels are plain: two combatants with weapons of at most 4 dice (fewer than
``TABLE_DICE``, whose table takes a second generator step), in phases, with a fixed order of
action (no REF tie, no switch2), impairment, stunned and ``dying_can_act`` off, and none of
the duel kernel's options (hit locations, autofire, knockback, spreads). In such a fight no
penalty ever changes (a wound changes one only from Hits 0 down, and then the fight is over),
nobody moves and nobody loses an action, so every number an attack reads is fixed for the
whole fight and the duel kernel's bookkeeping (watch lines, penalty rows, the actor's
branches) is not needed. :func:`plain_duel` decides this from the compiled arrays, and
``run.py`` then runs :func:`run_chunk` here.

The random stream is the duel kernel's, number for number: one generator step an attack, whose
low 32 bits pick the roll (``index32`` into the sorted ``roll_table``) and whose high 32 bits
the damage (``index32`` into the sorted table of the weapon's dice). Because the roll table is
sorted and ``index32`` does not decrease with its bits, "the roll hits" is "the low 32 bits are
at least a cut" (:func:`_cut`): one compare, no table. What the hit does is one load from a
table made per chunk, whose entry packs three counts: the damage through the armour (from bit
40), the Hits it costs (from bit 20: as much for Killing damage, 1 per full 5 for Stun damage)
and 1, the hit. One sum per target then holds the damage it took, the Hits it lost and the
hits landed on it, and "out of the fight" is one compare of that sum with the damage that puts
it out, shifted to bit 40: the smaller of its Hits and Stun against Killing damage (which
costs as much Stun as Hits), its Stun against Stun damage (a fight goes here only where the
Stun runs out no later than the Hits: Stun at most 5 x Hits). Death (-2 x BODY) can only
come with the blow that puts one out. The attacks made follow from the phase the fight ended
in and who ended it.

With impairment or stunned on (and both weapons Killing) the penalties do change, but only
where a target's sum crosses a line (an impairment threshold, F24) or a blow stuns (F22):
:func:`run_chunk_wounds` compares the sum with the next line, and a blow that stuns carries a
bit that lifts the sum over any line; the penalty's rows are reloaded there.
``tests/systems/fuzion/test_duel_plain.py`` holds both to the duel kernel trial by trial.
"""
from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.outcomes import outcome_index
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_IMPAIRMENT,
    OPT_STUNNED,
    OPT_SWITCH2,
    UNRESOLVED,
)
from .kernel_parts import values_table
from .rules import KILLING, watch_line, wound_penalty

__all__ = ["KERNELS", "plain_duel", "run_chunk", "run_chunk_wounds"]

#: Where the fields of a target's sum start: the hits landed on it at bit 0, the Hits it lost
#: at ``_HITS_AT``, the damage through to it at ``_DEALT_AT`` (20 bits each below it: a fight
#: stops once the damage passes its Hits or Stun, and has fewer than 2**20 phases).
_HITS_AT = 20
_DEALT_AT = 40
_FIELD = np.int64((1 << 20) - 1)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


@jit(inline="always")
def _cut(roll_table, need):
    """The least low-32-bit value ``lo`` of a generator output for which the roll the duel
    kernel reads, ``roll_table[(lo * n) >> 32]``, is at least ``need`` (``2**32``: never).
    The table is sorted, so the roll hits from index ``i`` on (how many entries are below
    ``need``), and ``(lo * n) >> 32 >= i`` exactly when ``lo * n >= i * 2**32``."""
    n = roll_table.shape[0]
    i, hi = np.int64(0), np.int64(n)  # binary search: the first entry at least need
    while i < hi:
        mid = (i + hi) // 2
        if roll_table[mid] < need:
            i = mid + 1
        else:
            hi = mid
    nn = np.uint64(n)
    return (np.uint64(i) << _S32) // nn + np.uint64((np.uint64(i) << _S32) % nn != 0)


@jit(inline="always")
def _through(nd6_table, lo, size, stop, killing):
    """One attacker's table: for each of its ``size`` equally likely damage rolls the damage
    through ``stop`` and the Hits it costs (F20-F21: ``split_through``), packed with the hit
    (the module's docstring); then a 0, what a miss adds. A miss reads that entry rather than
    zeroing what it read: LLVM makes a choice between a loaded value and 0 a branch (to skip
    the load), and whether an attack hits is a coin a branch predictor cannot learn."""
    e = np.zeros(size + 1, np.int64)
    for d in range(size):
        thr = np.int64(nd6_table[lo + d]) - stop
        thr = thr if thr > 0 else 0
        hits = thr if killing else thr // 5
        e[d] = (thr << _DEALT_AT) + (hits << _HITS_AT) + 1
    return e


@jit
def _setup(sp, fixed_mod):
    """What a plain duel reads, from the standing plan's arrays: per combatant (0, 1) the cut
    its attack must reach, its damage table, and the sum at which it is out of the fight (the
    other's damage to it reaches its Hits or Stun) and at which it is dead (-2 x BODY)."""
    (_side, _n_sides, ref, dex, strength, body, hits_max, stun_max, sd, _rec, att_skill,
     def_ranged, def_melee, _base_order, _targeting, w_melee, w_dmg, w_dc, w_acc, w_min_str,
     pair_mod, pair_armour, _pair_dist, _acts, _slots_per_round, _start_slot, _slots_per_unit,
     _max_slots, _surprised, options, roll_table, nd6_offsets, nd6_table) = sp  # fmt: skip
    n_pen = max(4, options[OPT_DYING_PENALTY]) + 6
    table = values_table(
        n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
        def_melee, nd6_offsets,
    )  # fmt: skip
    # the DV each one's weapon meets: the other's against melee or ranged attacks
    dv_vs0 = table[n_pen, 2] if w_melee[0] != 0 else table[n_pen, 1]
    dv_vs1 = table[0, 2] if w_melee[1] != 0 else table[0, 1]
    need0 = dv_vs0 - table[0, 0] - (pair_mod[1] + fixed_mod[0])
    need1 = dv_vs1 - table[n_pen, 0] - (pair_mod[2] + fixed_mod[1])
    stop0 = pair_armour[1] if w_dmg[0] == KILLING or pair_armour[1] > sd[1] else sd[1]
    stop1 = pair_armour[2] if w_dmg[1] == KILLING or pair_armour[2] > sd[0] else sd[0]
    e0 = _through(nd6_table, table[0, 5], table[0, 6], stop0, w_dmg[0] == KILLING)
    e1 = _through(nd6_table, table[n_pen, 5], table[n_pen, 6], stop1, w_dmg[1] == KILLING)
    # out: the damage taken reaches the Stun, or against Killing damage the Hits if fewer
    out0 = (min(hits_max[0], stun_max[0]) if w_dmg[1] == KILLING else stun_max[0]) << _DEALT_AT
    out1 = (min(hits_max[1], stun_max[1]) if w_dmg[0] == KILLING else stun_max[1]) << _DEALT_AT
    # dead: the Hits lost reach Hits + 2 x BODY (compared with the sum shifted right to them)
    dead0 = hits_max[0] + 2 * body[0]
    dead1 = hits_max[1] + 2 * body[1]
    return (_cut(roll_table, need0), _cut(roll_table, need1), e0, e1, out0, out1, dead0, dead1,
            table[0, 4], table[n_pen, 4])  # fmt: skip


def plain_duel(sp, duel) -> str:
    """Which plain kernel runs the duel kernel's fight with standing plan ``sp`` and duel
    plan ``duel`` (the module's docstring): ``"plain"`` (:func:`run_chunk`), ``"wounds"``
    (:func:`run_chunk_wounds`: impairment or stunned on, both weapons Killing) or ``""``
    (none: the duel kernel)."""
    options = sp.options
    if duel.options or sp.n_combatants != 2:
        return ""
    if any(options[o] != 0 for o in (OPT_DYING_CAN_ACT, OPT_HAS_TIES, OPT_SWITCH2)):
        return ""
    if (sp.hits_max < 1).any() or (sp.stun_max < 1).any():
        return ""
    if sp.max_slots >= 1 << 20 or max(sp.hits_max.max(), sp.stun_max.max()) >= 1 << 18:
        return ""  # the fields of the sums (_HITS_AT, _DEALT_AT)
    groups0, groups1 = _setup(tuple(sp), duel.fixed_mod)[8:]
    if groups0 != 0 or groups1 != 0:  # at most 4 dice: one generator step an attack
        return ""
    if options[OPT_IMPAIRMENT] != 0 or options[OPT_STUNNED] != 0:
        return "wounds" if (sp.w_dmg == KILLING).all() else ""
    for c in range(2):  # Stun damage: the Stun must run out no later than the Hits
        if sp.w_dmg[1 - c] != KILLING and sp.stun_max[c] > 5 * sp.hits_max[c]:
            return ""
    return "plain"


@jit
def _add_phases(ends, deaths, n_trials, f, k_f, k_s, k_u, end_hist, out_hist, death_hist):
    """Add a chunk's trials by how they ended (``ends``, rows 0: F put S out, 1: S put F out,
    2: unresolved; by phase) and the loser's phase of death (``deaths``, 0: it did not) into
    the tally's histograms (``f``: who acts first). Returns F's wins, S's wins and the sum of
    the phases the trials lasted."""
    s = 1 - f
    slots = ends.shape[1]
    wins_f = wins_s = phases = died_f = died_s = np.int64(0)
    for t in range(slots):  # phase 0: a fight of no phases (unresolved)
        end_hist[k_f, t] += ends[0, t]
        end_hist[k_s, t] += ends[1, t]
        end_hist[k_u, t] += ends[2, t]
        wins_f += ends[0, t]
        wins_s += ends[1, t]
        phases += t * (ends[0, t] + ends[1, t] + ends[2, t])
    for t in range(1, slots):  # out and dead in phase t; 0 (not) below
        out_hist[s, t] += ends[0, t]
        out_hist[f, t] += ends[1, t]
        death_hist[s, t] += deaths[0, t]
        death_hist[f, t] += deaths[1, t]
        died_s += deaths[0, t]
        died_f += deaths[1, t]
    out_hist[f, 0] += n_trials - wins_s
    out_hist[s, 0] += n_trials - wins_f
    death_hist[f, 0] += n_trials - died_f
    death_hist[s, 0] += n_trials - died_s
    return wins_f, wins_s, phases


@jit(inline="always")
def _record(outs, j, side, f, r, t, gone_f, gone_s, died_f, died_s, dealt_f, dealt_s, natt_f,
            natt_s, hit_f, hit_s):  # fmt: skip
    """Trial ``j``'s row of the per-trial outputs (``outs``, the duel kernel's): how it ended
    (``r``, 0: F put S out, 1: S put F out, 2: unresolved) in phase ``t``, and per combatant
    (F is ``f``) when it went out and died, what it dealt (what the other took), its attacks
    and hits."""
    (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
     _location_hits) = outs  # fmt: skip
    s = 1 - f
    winner[j] = side[f] if r == 0 else (side[s] if r == 1 else UNRESOLVED)
    end_slot[j] = t
    out_slot[j, f] = gone_f
    out_slot[j, s] = gone_s
    death_slot[j, f] = died_f
    death_slot[j, s] = died_s
    dealt[j, f] = dealt_f
    dealt[j, s] = dealt_s
    taken[j, f] = dealt_s
    taken[j, s] = dealt_f
    attacks[j, f] = natt_f
    attacks[j, s] = natt_s
    landed[j, f] = hit_f
    landed[j, s] = hit_s
    knock[j, 0] = 0
    knock[j, 1] = 0


@jit
def _finish(tl, ends, deaths, n_trials, f, k_f, k_s, k_u, sum_f, sum_s, sq_f, sq_s, land_f,
            land_s, att_f, att_s):  # fmt: skip
    """Add a chunk's trials into the tally (``tl``, the duel kernel's): the histograms by how
    they ended (``_add_phases``), and per combatant (F is ``f``) the sums of what it dealt
    (what the other took) and their squares, its hits and its attacks. ``att_f`` below 0: F
    attacked every phase and S in every phase but the one F put it out in (the plain duel)."""
    (_accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
     taken_sq, attacks_sum, landed_sum, _knock_sum, _knock_sq) = tl  # fmt: skip
    s = 1 - f
    wins_f, wins_s, phases = _add_phases(ends, deaths, n_trials, f, k_f, k_s, k_u, end_hist,
                                         out_hist, death_hist)  # fmt: skip
    if att_f < 0:
        att_f, att_s = phases, phases - wins_f
    outcome_counts[k_f] += wins_f
    outcome_counts[k_s] += wins_s
    outcome_counts[k_u] += n_trials - wins_f - wins_s
    dealt_sum[f] += sum_f
    dealt_sum[s] += sum_s
    dealt_sq[f] += sq_f
    dealt_sq[s] += sq_s
    taken_sum[f] += sum_s  # what one took is what the other dealt
    taken_sum[s] += sum_f
    taken_sq[f] += sq_s
    taken_sq[s] += sq_f
    attacks_sum[f] += att_f
    attacks_sum[s] += att_s
    landed_sum[f] += land_f
    landed_sum[s] += land_s


@jit
def run_chunk(key, first, n_trials, sp, dp, outs, tl):
    """The plain duel (the module's docstring): the duel kernel's arguments, its numbers."""
    side, n_sides, base_order, max_slots = sp[0], sp[1], sp[13], sp[27]
    accumulate = tl[0]
    cut0, cut1, e0, e1, out0, out1, dead0, dead1, _g0, _g1 = _setup(sp, dp[4])
    # F acts first in every phase, S second
    f = np.int64(base_order[0])
    s = 1 - f
    cut_f, cut_s = (cut0, cut1) if f == 0 else (cut1, cut0)
    e_f, e_s = (e0, e1) if f == 0 else (e1, e0)
    out_f, out_s = (out0, out1) if f == 0 else (out1, out0)
    dead_f, dead_s = (dead0, dead1) if f == 0 else (dead1, dead0)
    size_f, size_s = np.uint64(e_f.shape[0] - 1), np.uint64(e_s.shape[0] - 1)
    k_f = outcome_index(side[f], n_sides)
    k_s = outcome_index(side[s], n_sides)
    k_u = outcome_index(UNRESOLVED, n_sides)
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    # per combatant (f, s): dealt and its square, hits landed; by how the trial ended (row 0:
    # F put S out, 1: S put F out, 2: unresolved) the trials that ended in each phase, and
    # the phases the loser died in (0: it did not), added to the tally's histograms at the end
    sum_f = sq_f = sum_s = sq_s = land_f = land_s = np.int64(0)
    slots = max_slots + 1 if accumulate else 1
    ends = np.zeros((3, slots), np.int64)
    deaths = np.zeros((3, slots), np.int64)
    n0, n1, n2, n3 = trial_seed(k0, k1, k2, k3, first)
    for j in range(n_trials):
        s0, s1, s2, s3 = n0, n1, n2, n3
        n0, n1, n2, n3 = trial_seed(k0, k1, k2, k3, first + j + 1)
        to_s = to_f = np.int64(0)  # the sums (damage, Hits lost, hits) to S by F, to F by S
        t = np.int64(0)
        # what the end makes of the trial: how it ended, who is out when, S's attacks (F attacks
        # every phase), set where the fight ends, so no branch after the loop asks who won
        r, gone_f, gone_s, natt_s = 2, np.int64(0), np.int64(0), max_slots
        while t < max_slots:
            t += 1
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            d = ((x >> _S32) * size_f) >> _S32
            to_s += e_f[d if (x & _LOW32) >= cut_f else size_f]
            if to_s >= out_s:
                r, gone_s, natt_s = 0, t, t - 1
                break
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            d = ((x >> _S32) * size_s) >> _S32
            to_f += e_s[d if (x & _LOW32) >= cut_s else size_s]
            if to_f >= out_f:
                r, gone_f, natt_s = 1, t, t
                break
        dealt_f, dealt_s = to_s >> _DEALT_AT, to_f >> _DEALT_AT
        hit_f, hit_s = to_s & _FIELD, to_f & _FIELD
        died_f = gone_f * np.int64(((to_f >> _HITS_AT) & _FIELD) >= dead_f)
        died_s = gone_s * np.int64(((to_s >> _HITS_AT) & _FIELD) >= dead_s)
        if accumulate:
            ends[r, t] += 1
            deaths[r, died_f + died_s] += 1
            sum_f += dealt_f
            sum_s += dealt_s
            sq_f += dealt_f * dealt_f
            sq_s += dealt_s * dealt_s
            land_f += hit_f
            land_s += hit_s
            continue
        _record(outs, j, side, f, r, t, gone_f, gone_s, died_f, died_s, dealt_f, dealt_s, t,
                natt_s, hit_f, hit_s)  # fmt: skip
    if accumulate:  # F attacks every phase; S not in the phase F puts it out
        _finish(tl, ends, deaths, n_trials, f, k_f, k_s, k_u, sum_f, sum_s, sq_f, sq_s, land_f,
                land_s, np.int64(-1), np.int64(-1))  # fmt: skip


# ------------------------------------------------------------------------------------------
# Impairment and stunned: the penalties change, at lines the sums cross
# ------------------------------------------------------------------------------------------

#: Added to a table entry whose blow stuns (F22: more than half the target's Stun): it lifts
#: the target's sum over any line, so the one compare an attack makes sends it to the wound's
#: work, which takes it off again.
_STUNS = np.int64(1 << 62)


@jit
def _setup_wounds(sp, fixed_mod):
    """What a plain duel with impairment or stunned reads (both weapons Killing): per attacker
    ``a`` the cut of its attack for each pair of penalties (``cut[a][pa * n_pen + pb]``), its
    damage tables for each of its penalties (rows of ``width`` entries, the miss at ``size``),
    the sizes, and the blows that stun (``_STUNS`` added)."""
    (_side, _n_sides, ref, dex, strength, _body, _hits_max, stun_max, _sd, _rec, att_skill,
     def_ranged, def_melee, _base_order, _targeting, w_melee, _w_dmg, w_dc, w_acc, w_min_str,
     pair_mod, pair_armour, _pair_dist, _acts, _slots_per_round, _start_slot, _slots_per_unit,
     _max_slots, _surprised, options, roll_table, nd6_offsets, nd6_table) = sp  # fmt: skip
    n_pen = max(4, options[OPT_DYING_PENALTY]) + 6
    table = values_table(
        n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
        def_melee, nd6_offsets,
    )  # fmt: skip
    never = np.int64(1 << 62)
    width = max(table[0, 6], table[n_pen, 6]) + 1  # the most dice: at penalty 0
    cuts = np.empty((2, n_pen * n_pen), np.uint64)
    tables = np.zeros((2, n_pen * width), np.int64)
    sizes = np.empty((2, n_pen), np.uint64)
    for a in range(2):
        b = 1 - a
        mod = pair_mod[a * 2 + b] + fixed_mod[a]
        stop = pair_armour[a * 2 + b]  # Killing damage: the armour alone (F20)
        limit = stun_max[b] // 2 if options[OPT_STUNNED] != 0 else never
        for pa in range(n_pen):
            row = a * n_pen + pa
            for pb in range(n_pen):
                dv = table[b * n_pen + pb, 2] if w_melee[a] != 0 else table[b * n_pen + pb, 1]
                cuts[a, pa * n_pen + pb] = _cut(roll_table, dv - table[row, 0] - mod)
            lo, size = table[row, 5], table[row, 6]
            sizes[a, pa] = np.uint64(size)
            for d in range(size):
                thr = np.int64(nd6_table[lo + d]) - stop
                thr = thr if thr > 0 else 0
                e = (thr << _DEALT_AT) + (thr << _HITS_AT) + 1
                tables[a, pa * width + d] = e + _STUNS if thr > limit else e
    return n_pen, width, cuts, tables, sizes


@jit(inline="always")
def _wound(to_c, hmax, stmax, body, lose, impairment, dying_penalty):
    """What a blow that reached a line of the sum ``to_c`` on a combatant does (the duel
    kernel's ``_take``, Killing damage): ``(the sum without _STUNS, dead, stunned, out, the
    penalty now, the next line)``."""
    stuns = to_c >= _STUNS
    if stuns:
        to_c -= _STUNS
    taken = to_c >> _DEALT_AT  # Killing damage: as many Hits and as much Stun
    h = hmax - taken
    lose = lose or stuns
    dead = h <= -2 * body
    out = dead or stmax - taken <= 0 or h <= 0
    pen = wound_penalty(h, hmax, impairment, dying_penalty) + 5 * lose
    line = min(hmax - watch_line(h, hmax, body, impairment), stmax) << _DEALT_AT
    return to_c, dead, lose, out, pen, line


@jit(inline="always")
def _reload(cuts_a, cuts_b, sizes_a, pen_a, pen_b, n_pen, width):
    """What changes when combatant A's penalty does (``pen_a``; B's is ``pen_b``): both cuts
    (each attacker's depends on both penalties), and A's damage table's offset and size."""
    cut_a = cuts_a[pen_a * n_pen + pen_b]
    cut_b = cuts_b[pen_b * n_pen + pen_a]
    return cut_a, cut_b, np.uint64(pen_a * width), sizes_a[pen_a]


@jit
def run_chunk_wounds(key, first, n_trials, sp, dp, outs, tl):
    """The plain duel with impairment or stunned on (both weapons Killing): penalties change
    when a sum crosses a line (impairment, F24) or a blow stuns (F22: the next action lost,
    -5 until then); the duel kernel's arguments, its numbers."""
    side, n_sides, body, hits_max, stun_max = sp[0], sp[1], sp[5], sp[6], sp[7]
    base_order, max_slots, options = sp[13], sp[27], sp[29]
    accumulate = tl[0]
    impairment = options[OPT_IMPAIRMENT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    n_pen, width, cuts, tables, sizes = _setup_wounds(sp, dp[4])
    f = np.int64(base_order[0])
    s = 1 - f
    cuts_f, cuts_s = cuts[f], cuts[s]
    e_f, e_s = tables[f], tables[s]
    sizes_f, sizes_s = sizes[f], sizes[s]
    hmax_f, hmax_s, st_f, st_s = hits_max[f], hits_max[s], stun_max[f], stun_max[s]
    body_f, body_s = body[f], body[s]
    line0_f = min(hmax_f - watch_line(hmax_f, hmax_f, body_f, impairment), st_f) << _DEALT_AT
    line0_s = min(hmax_s - watch_line(hmax_s, hmax_s, body_s, impairment), st_s) << _DEALT_AT
    k_f = outcome_index(side[f], n_sides)
    k_s = outcome_index(side[s], n_sides)
    k_u = outcome_index(UNRESOLVED, n_sides)
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    sum_f = sq_f = sum_s = sq_s = land_f = land_s = att_f = att_s = np.int64(0)
    slots = max_slots + 1 if accumulate else 1
    ends = np.zeros((3, slots), np.int64)
    deaths = np.zeros((3, slots), np.int64)
    n0, n1, n2, n3 = trial_seed(k0, k1, k2, k3, first)
    for j in range(n_trials):
        s0, s1, s2, s3 = n0, n1, n2, n3
        n0, n1, n2, n3 = trial_seed(k0, k1, k2, k3, first + j + 1)
        to_s = to_f = np.int64(0)  # the sums (damage, Hits lost, hits) to S by F, to F by S
        line_f, line_s = line0_f, line0_s  # where a sum needs the wound's work
        pen_f = pen_s = np.int64(0)
        lose_f = lose_s = False
        # what each attack reads: its cut, the offset of its damage table's row, its size
        cut_f, cut_s = cuts_f[0], cuts_s[0]
        off_f, off_s = np.uint64(0), np.uint64(0)
        size_f, size_s = sizes_f[0], sizes_s[0]
        natt_f = natt_s = np.int64(0)
        t = np.int64(0)
        r, gone_f, gone_s, died_f, died_s = 2, np.int64(0), np.int64(0), np.int64(0), np.int64(0)
        while t < max_slots:
            t += 1
            if lose_f:  # stunned: this action lost, the -5 gone (F22)
                lose_f = False
                pen_f = wound_penalty(hmax_f - (to_f >> _DEALT_AT), hmax_f, impairment,
                                      dying_penalty)  # fmt: skip
                cut_f, cut_s, off_f, size_f = _reload(cuts_f, cuts_s, sizes_f, pen_f, pen_s,
                                                      n_pen, width)  # fmt: skip
            else:
                natt_f += 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                d = ((x >> _S32) * size_f) >> _S32
                to_s += e_f[off_f + (d if (x & _LOW32) >= cut_f else size_f)]
                if to_s >= line_s:
                    to_s, dead, lose_s, out, pen, line_s = _wound(
                        to_s, hmax_s, st_s, body_s, lose_s, impairment, dying_penalty
                    )
                    if out:
                        r, gone_s, died_s = 0, t, t if dead else np.int64(0)
                        break
                    if pen != pen_s:
                        pen_s = pen
                        cut_s, cut_f, off_s, size_s = _reload(cuts_s, cuts_f, sizes_s, pen_s,
                                                              pen_f, n_pen, width)  # fmt: skip
            if lose_s:
                lose_s = False
                pen_s = wound_penalty(hmax_s - (to_s >> _DEALT_AT), hmax_s, impairment,
                                      dying_penalty)  # fmt: skip
                cut_s, cut_f, off_s, size_s = _reload(cuts_s, cuts_f, sizes_s, pen_s, pen_f,
                                                      n_pen, width)  # fmt: skip
            else:
                natt_s += 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                d = ((x >> _S32) * size_s) >> _S32
                to_f += e_s[off_s + (d if (x & _LOW32) >= cut_s else size_s)]
                if to_f >= line_f:
                    to_f, dead, lose_f, out, pen, line_f = _wound(
                        to_f, hmax_f, st_f, body_f, lose_f, impairment, dying_penalty
                    )
                    if out:
                        r, gone_f, died_f = 1, t, t if dead else np.int64(0)
                        break
                    if pen != pen_f:
                        pen_f = pen
                        cut_f, cut_s, off_f, size_f = _reload(cuts_f, cuts_s, sizes_f, pen_f,
                                                              pen_s, n_pen, width)  # fmt: skip
        dealt_f, dealt_s = to_s >> _DEALT_AT, to_f >> _DEALT_AT
        hit_f, hit_s = to_s & _FIELD, to_f & _FIELD
        if accumulate:
            ends[r, t] += 1
            deaths[r, died_f + died_s] += 1
            sum_f += dealt_f
            sum_s += dealt_s
            sq_f += dealt_f * dealt_f
            sq_s += dealt_s * dealt_s
            land_f += hit_f
            land_s += hit_s
            att_f += natt_f
            att_s += natt_s
            continue
        _record(outs, j, side, f, r, t, gone_f, gone_s, died_f, died_s, dealt_f, dealt_s, natt_f,
                natt_s, hit_f, hit_s)  # fmt: skip
    if accumulate:
        _finish(tl, ends, deaths, n_trials, f, k_f, k_s, k_u, sum_f, sum_s, sq_f, sq_s, land_f,
                land_s, att_f, att_s)  # fmt: skip


#: The kernel of each kind of plain duel (``plain_duel``).
KERNELS = {"plain": run_chunk, "wounds": run_chunk_wounds}
